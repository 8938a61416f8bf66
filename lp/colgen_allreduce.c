/* All-reduce to one root by column generation over reduction trees and
 * arborescences in one master (lp/colgen_allreduce.h), certified exactly
 * as lp/colgen.c and lp/colgen_broadcast.c certify theirs, a pricer of the
 * engine (lp/colgen_engine.h): float iterations (columns added in place), then the final master
 * solved exactly and its exact duals priced exactly; improving columns are
 * added and the exact solve repeats.  The ordered reduce pricing is
 * always exact, the commutative one proves its result with a certified
 * lower bound; the broadcast pricing is exact in the spanning case and
 * with at most CGB_EXACT_RELAYS relays, else heuristic (the master optimum
 * is then a certified feasible TP, not a proven optimum). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* The pricer's context: the master, price scratch, per-edge costs. */
typedef struct {
    car_master_t *m;
    ssched_steady_t *out;
    int *bounded;
    cg_scratch_t sc;
    double *cd;                        /* per edge, float                   */
    mpq_t *cost;                       /* per edge, exact or rounded        */
    mpq_t cc, lower;
} car_work_t;

/* Float pricing: a reduction tree (commutative: heuristic first, the
 * subset enumeration only when the heuristic finds nothing, as
 * lp/colgen_comm.c does) and an arborescence (heuristics, then the relay
 * enumeration when they find nothing). */
static ssched_status_t price_d(void *ctx, cg_engine_t *e, const double *y, double z,
                               int *added, double *upper, ssched_error_t *err)
{
    car_work_t *w = ctx;
    car_master_t *m = w->m;
    size_t ne = m->r.p->n_edges;
    (void)e;
    (void)z;
    *upper = NAN;
    cg_prices_d pr = ssched_i_cg_prices_d(&m->r, y, &w->sc);
    double sr = y[m->row_r], sb = y[m->row_b];
    ssched_status_t st = SSCHED_OK;
    for (int exact = 0; exact <= (m->comm && ssched_i_car_tree_exact(m)) && !*added &&
                        st == SSCHED_OK;
         exact++) {
        cg_column_t c;
        cgc_tree_t tr;
        double cost = 0;
        int r = ssched_i_car_price_tree_d(m, &pr, exact, &c, &tr, &cost, &st, err);
        if (r != 1)
            break;
        if (cost < sr - 1e-9 && !ssched_i_cg_known(&m->r, &c) && ssched_i_car_add_tree(m, &c, &tr))
            ++*added;
        else
            ssched_i_car_drop_tree(m, &c, &tr);
    }
    for (size_t k = 0; k < ne; k++) {
        w->cd[k] = ssched_i_car_edge_price_d(m, y, k);
        /* integers (2^-40 units): exact small-number arithmetic in the
         * pricing, whose column is only a candidate here */
        mpq_set_d(w->cost[k], nearbyint(ldexp(w->cd[k], 40)));
    }
    int arb_added = 0;
    for (int exact = 0; exact <= ssched_i_car_arb_exact(m) && !arb_added && st == SSCHED_OK;
         exact++) {
        if (exact && m->b.g.all)
            break; /* the spanning pricing is exact already */
        cgb_column_t a;
        int ra = ssched_i_cgb_price(&m->b.g, (const mpq_t *)w->cost, exact, &a, w->cc, &st, err);
        if (ra != 1)
            break;
        double cost_d = 0;
        for (size_t k = 0; k < a.n_arcs; k++)
            cost_d += w->cd[a.arcs[k]];
        if (cost_d < sb - 1e-9 && !ssched_i_car_arb_known(&m->b, &a) && ssched_i_car_add_arb(m, &a))
            arb_added = 1;
        else
            free(a.arcs);
    }
    *added += arb_added;
    return st;
}

/* Exact pricing of both kinds; a certifying pass sets out->cg_pricing_exact
 * (trees: proven; arborescences: exact pricing) and, when not exact,
 * Farley's bound (*w->bounded). */
static ssched_status_t price_q(void *ctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err)
{
    car_work_t *w = ctx;
    car_master_t *m = w->m;
    size_t ne = m->r.p->n_edges;
    int exact = ssched_i_car_arb_exact(m);
    (void)e;
    const mpq_t *y = (const mpq_t *)sol->y;
    const cg_prices_q *q = ssched_i_cg_prices_q(&m->r, y, &w->sc);
    for (size_t k = 0; k < ne; k++)
        ssched_i_car_edge_price_q(m, y, k, w->cost[k]);
    ssched_status_t st = SSCHED_OK;
    cg_column_t c;
    cgc_tree_t tr;
    int proven = 0;
    int r = ssched_i_car_price_tree_q(m, q, &c, &tr, w->cc, w->lower, &proven, &st, err);
    /* no tree improves: none exists, or every one costs >= sigma_r */
    int tree_proven = (r == 0 && proven) || (r == 1 && mpq_cmp(w->lower, y[m->row_r]) >= 0);
    if (r == 1 && mpq_cmp(w->cc, y[m->row_r]) < 0) {
        /* a master column costs >= sigma under optimal duals */
        if (ssched_i_cg_known(&m->r, &c) || !ssched_i_car_add_tree(m, &c, &tr)) {
            ssched_i_car_drop_tree(m, &c, &tr);
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "exact pricing repeats a tree of the master");
        } else {
            ++*added;
        }
    } else if (r == 1) {
        ssched_i_car_drop_tree(m, &c, &tr);
    }
    cgb_column_t a;
    const mpq_t *cost = (const mpq_t *)w->cost;
    int ra = st == SSCHED_OK ? ssched_i_cgb_price(&m->b.g, cost, exact, &a, w->cc, &st, err) : -1;
    if (ra == 1 && mpq_cmp(w->cc, y[m->row_b]) < 0) {
        if (ssched_i_car_arb_known(&m->b, &a) || !ssched_i_car_add_arb(m, &a)) {
            free(a.arcs);
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "exact pricing repeats an arborescence of the master");
        } else {
            ++*added;
        }
    } else if (ra == 1) {
        free(a.arcs);
    }
    if (st == SSCHED_OK && !*added) {
        ssched_steady_t *out = w->out;
        out->cg_pricing_exact = exact && tree_proven;
        if (out->cg_pricing_exact)
            mpq_set(out->upper_bound, sol->objective);
        else
            *w->bounded = ssched_i_car_farley_bound(m, y, (const mpq_t *)w->cost, tree_proven,
                                                    w->lower, exact, sol->objective,
                                                    out->upper_bound);
    }
    return st;
}

static ssched_status_t exact_master(void *ctx, ssched_lp_t *lp, ssched_error_t *err)
{
    return ssched_i_car_exact_master(((car_work_t *)ctx)->m, lp, err);
}

static size_t n_columns(const void *ctx)
{
    const car_master_t *m = ((const car_work_t *)ctx)->m;
    return m->r.n_cols + m->b.n_cols;
}

static const cg_pricer_t pricer = {price_d, price_q, exact_master, n_columns, 0};

static void master_free(car_master_t *m)
{
    for (size_t k = 0; k < m->r.n_cols; k++) {
        ssched_i_cg_column_free(&m->r.cols[k]);
        if (m->comm)
            ssched_i_cgc_tree_free(&m->ctrees[k]);
    }
    free(m->ctrees);
    if (m->comm)
        ssched_i_cgc_graph_free(&m->cg);
    free(m->r.cols);
    ssched_i_cg_index_free(&m->r);
    free(m->r.cpu_row);
    free(m->r.link_row); /* shared with b.link_row */
    free(m->r.link_edge);
    for (size_t k = 0; k < m->b.n_cols; k++)
        free(m->b.cols[k].arcs);
    free(m->b.cols);
    free(m->b.out_row);
    free(m->b.in_row);
    free(m->b.g.target);
    free(m->b.g.reach);
    free(m->b.g.relays);
    if (m->b.g.w)
        for (size_t e = 0; e < m->b.g.ne; e++)
            mpq_clear(m->b.g.w[e]);
    free(m->b.g.w);
    free(m->bc.targets);
}

/* Problems, rows, pricing graph and per-participant reachability (out->
 * unreachable: R cannot be reached from it, or it cannot be reached from
 * R).  *blocked = 1 when some participant is cut off: TP = 0. */
static ssched_status_t setup(car_master_t *m, const ssched_platform_t *p,
                             const ssched_problem_t *pb, ssched_steady_t *out, int *blocked,
                             ssched_error_t *err)
{
    size_t n = p->n_nodes, ne = p->n_edges, N = pb->n_participants, R = pb->target;
    if (ssched_i_car_split(pb, &m->red, &m->bc, err) != SSCHED_OK)
        return SSCHED_ENOMEM;
    m->comm = pb->commutative;
    m->r.p = m->b.g.p = p;
    m->r.pb = &m->red;
    m->b.g.pb = &m->bc;
    m->r.reduce = 1;
    m->r.n = m->b.g.n = n;
    m->b.g.ne = 0; /* set once g.w is initialised */
    m->b.g.root = R;
    /* capacity rows as the reduce master lays them out (colgen.c) */
    ssched_status_t st = ssched_i_cg_master_rows(&m->r, 0, err);
    if (st != SSCHED_OK)
        return st;
    m->b.nres = m->r.nres;
    m->b.out_row = malloc(n * sizeof *m->b.out_row);
    m->b.in_row = malloc(n * sizeof *m->b.in_row);
    m->b.g.target = calloc(n, 1);
    m->b.g.reach = calloc(n, 1);
    m->b.g.relays = malloc(n * sizeof *m->b.g.relays);
    m->b.g.w = ssched_i_alloc(ne, sizeof *m->b.g.w);
    /* commutative: partial results are sets, no intervals (colgen_comm.h) */
    out->n_intervals = m->comm ? 0 : N * (N + 1) / 2;
    out->intervals = malloc((out->n_intervals + 1) * sizeof *out->intervals);
    out->unreachable = calloc(N, 1);
    unsigned char *to_root = malloc(n);
    if (!m->b.out_row ||
        !m->b.in_row || !m->b.g.target || !m->b.g.reach || !m->b.g.relays || !m->b.g.w ||
        !out->intervals || !out->unreachable || !to_root) {
        free(to_root);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    m->b.g.ne = ne;
    for (size_t e = 0; e < ne; e++) {
        mpq_init(m->b.g.w[e]);
        mpq_mul(m->b.g.w[e], p->c[e], pb->size);
    }
    size_t I = 0;
    for (size_t k = 0; k < N && !m->comm; k++)
        for (size_t mm = k; mm < N; mm++)
            out->intervals[I++] = (ssched_interval_t){k, mm};
    for (size_t i = 0; i < n; i++) {
        m->b.out_row[i] = cg_is_switch(p, i) ? SIZE_MAX : i;
        m->b.in_row[i] = cg_is_switch(p, i) ? SIZE_MAX : n + i;
    }
    m->b.link_row = m->r.link_row;
    m->row_r = m->r.n_rows;
    m->row_b = m->r.n_rows + 1;
    m->n_rows = m->r.n_rows + 2;
    for (size_t k = 0; k < m->bc.n_targets; k++)
        m->b.g.target[m->bc.targets[k]] = 1;
    m->b.g.all = m->bc.n_targets + 1 == n;
    st = ssched_platform_reachable(p, R, 0, m->b.g.reach, err);
    if (st == SSCHED_OK)
        st = ssched_platform_reachable(p, R, 1, to_root, err);
    for (size_t i = 0; i < n && st == SSCHED_OK; i++)
        if (m->b.g.reach[i] && i != R && !m->b.g.target[i])
            m->b.g.relays[m->b.g.n_relays++] = i;
    for (size_t k = 0; k < N && st == SSCHED_OK; k++) {
        size_t v = pb->participants[k];
        out->unreachable[k] = !to_root[v] || !m->b.g.reach[v];
        *blocked |= out->unreachable[k];
    }
    free(to_root);
    if (st == SSCHED_OK && m->comm) {
        st = ssched_i_cgc_graph_init(&m->cg, p, &m->red, err);
        if (st != SSCHED_OK)
            ssched_i_cgc_graph_free(&m->cg);
        m->comm = st == SSCHED_OK; /* master_free frees the graph only then */
    }
    return st;
}

/* The float master with its TP column (objective 1, +1 in both linking
 * rows) and the first columns: the cheapest tree at zero prices and the
 * cheapest arborescence in transfer time. */
static ssched_status_t start(car_master_t *m, const ssched_steady_options_t *opt,
                             ssched_steady_t *out, int *blocked, ssched_error_t *err)
{
    double *rhs = ssched_i_alloc(m->n_rows + 1, sizeof *rhs);
    if (!rhs)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0; r < m->n_rows; r++)
        rhs[r] = r < m->r.n_rows ? 1.0 : 0.0;
    ssched_status_t st0 = ssched_i_cge_init(m->eng, m->n_rows, rhs, opt, out, err);
    free(rhs);
    if (st0 != SSCHED_OK)
        return st0;
    double val[3] = {1.0, 1.0, 1.0};
    int row[3] = {0, (int)m->row_r + 1, (int)m->row_b + 1};
    if (!ssched_i_cge_add(m->eng, 3, val, row))
        return ssched_error_set(err, SSCHED_ESOLVER, "lp_solve: cannot add TP");
    if (*blocked)
        return SSCHED_OK;
    size_t n = m->r.n, ne = m->r.nres;
    double *zero = calloc(3 * n + ne + 1, sizeof *zero);
    if (!zero)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    cg_prices_d pr = {zero, zero + n, zero + 2 * n, zero + 3 * n};
    cg_column_t c;
    cgc_tree_t tr;
    double cost;
    ssched_status_t st = SSCHED_OK;
    int r = ssched_i_car_price_tree_d(m, &pr, 0, &c, &tr, &cost, &st, err);
    free(zero);
    if (r < 0)
        return st;
    if (r == 0) { /* no tree found (nowhere to merge): TP = 0 unless the
                     exact pass finds one */
        *blocked = 1;
        return SSCHED_OK;
    }
    if (!ssched_i_car_add_tree(m, &c, &tr)) {
        ssched_i_car_drop_tree(m, &c, &tr);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    cgb_column_t a;
    mpq_t cc;
    mpq_init(cc);
    int ra = ssched_i_cgb_price(&m->b.g, (const mpq_t *)m->b.g.w, 0, &a, cc, &st, err);
    mpq_clear(cc);
    if (ra == 0)
        *blocked = 1;
    else if (ra == 1 && !ssched_i_car_add_arb(m, &a)) {
        free(a.arcs);
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    return st;
}

ssched_status_t ssched_i_car_solve_root(const ssched_platform_t *p, const ssched_problem_t *pb,
                               const ssched_steady_options_t *opt, ssched_steady_t *out,
                               int *bounded, ssched_error_t *err)
{
    *bounded = 0;
    car_master_t m;
    memset(&m, 0, sizeof m);
    out->method = SSCHED_METHOD_COLGEN;
    out->kind = pb->kind;
    out->allreduce_root = pb->target;
    int blocked = 0;
    cg_engine_t eng;
    memset(&eng, 0, sizeof eng);
    m.r.eng = m.b.eng = m.eng = &eng;
    ssched_status_t st = setup(&m, p, pb, out, &blocked, err);
    if (st == SSCHED_OK)
        st = start(&m, opt, out, &blocked, err);
    car_work_t w;
    memset(&w, 0, sizeof w);
    w.cd = ssched_i_calloc(p->n_edges + 1, sizeof *w.cd);
    w.cost = ssched_i_mpq_vec_new(p->n_edges);
    if ((!ssched_i_cg_scratch_init(&w.sc, p->n_nodes, ssched_i_res_count(p)) || !w.cd ||
         !w.cost) && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    w.m = &m;
    w.out = out;
    w.bounded = bounded;
    mpq_inits(w.cc, w.lower, NULL);
    if (st == SSCHED_OK) /* blocked: TP = 0, certified by the empty master */
        st = ssched_i_cge_run(&eng, &pricer, &w, !blocked, err);
    mpq_clears(w.cc, w.lower, NULL);
    out->cg_columns = (long)(m.r.n_cols + m.b.n_cols);
    if (st == SSCHED_OK)
        st = ssched_i_car_interpret(&m, out, err);
    ssched_i_cg_scratch_free(&w.sc);
    free(w.cd);
    ssched_i_mpq_vec_free(w.cost, p->n_edges);
    master_free(&m);
    ssched_i_cge_free(&eng);
    return st;
}

ssched_status_t ssched_i_car_price_bound(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const mpq_t *y, size_t n_y, int *bounded, mpq_ptr out,
                                         ssched_error_t *err)
{
    *bounded = 0;
    car_master_t m;
    memset(&m, 0, sizeof m);
    ssched_steady_t scratch; /* setup's intervals and unreachable flags */
    ssched_steady_init(&scratch);
    int blocked = 0;
    ssched_status_t st = setup(&m, p, pb, &scratch, &blocked, err);
    cg_scratch_t sc;
    memset(&sc, 0, sizeof sc);
    size_t ne = p->n_edges;
    mpq_t *cost = ssched_i_mpq_vec_new(ne);
    mpq_t cc, lower, sum, ltree;
    mpq_inits(cc, lower, sum, ltree, NULL);
    if (st == SSCHED_OK &&
        (!cost || !ssched_i_cg_scratch_init(&sc, p->n_nodes, ssched_i_res_count(p))))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* the capacity rows are the platform's, laid out alike for every root */
    if (st != SSCHED_OK || blocked || n_y != m.n_rows)
        goto out;
    for (size_t r = 0; r < m.r.n_rows; r++) {
        if (mpq_sgn(y[r]) < 0)
            goto out; /* not prices: no bound */
        mpq_add(sum, sum, y[r]);
    }
    /* L_tree: the cheapest tree's cost (proven), else the certified lower bound */
    const cg_prices_q *q = ssched_i_cg_prices_q(&m.r, y, &sc);
    cg_column_t c;
    cgc_tree_t tr;
    int proven = 0;
    int r = ssched_i_car_price_tree_q(&m, q, &c, &tr, cc, lower, &proven, &st, err);
    if (r < 0)
        goto out;
    if (r == 1)
        ssched_i_car_drop_tree(&m, &c, &tr);
    if (r == 0 || (!proven && mpq_sgn(lower) <= 0))
        goto out; /* no tree (the solve says why), or nothing certified */
    mpq_set(ltree, proven ? cc : lower);
    /* L_arb: the cheapest arborescence when the pricing is exact, else a
     * certified lower bound on every one (shortest paths, dual ascent) */
    for (size_t e = 0; e < ne; e++)
        ssched_i_car_edge_price_q(&m, y, e, cost[e]);
    if (ssched_i_car_arb_exact(&m)) {
        cgb_column_t a;
        int ra = ssched_i_cgb_price(&m.b.g, (const mpq_t *)cost, 1, &a, cc, &st, err);
        if (ra != 1)
            goto out;
        free(a.arcs);
    } else if (!ssched_i_car_arb_lower(&m, (const mpq_t *)cost, cc)) {
        goto out;
    }
    mpq_add(lower, ltree, cc);
    if (mpq_sgn(lower) > 0) {
        mpq_div(out, sum, lower);
        *bounded = 1;
    }
out:
    mpq_clears(cc, lower, sum, ltree, NULL);
    ssched_i_mpq_vec_free(cost, ne);
    ssched_i_cg_scratch_free(&sc);
    master_free(&m);
    ssched_steady_free(&scratch);
    return st;
}
