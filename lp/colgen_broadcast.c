/* Broadcast and multicast by column generation over arborescences
 * (colgen_bcast.h), a pricer of the engine (lp/colgen_engine.h), certified
 * exactly as lp/colgen.c does for paths and trees: iterations on the float
 * master priced with
 * rounded costs, then the final master solved exactly (lp/solve.c) and its
 * exact duals priced exactly; an improving column is added and the exact
 * solve repeats.  Spanning case: when exact pricing finds no arborescence
 * of cost < 1, the master optimum is the broadcast optimum.  Steiner case:
 * the master optimum is an achievable throughput (its exact solution is a
 * certified feasible packing), optimal when the last pricing was exact. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_bcast.h"
#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"


static void column_free(cgb_column_t *c)
{
    free(c->arcs);
    c->arcs = NULL;
    c->n_arcs = 0;
}

/* The coefficient behind index `at` of column_rows: size*c(e) for an edge
 * e < ne (ports; links of the graph model), size*time(k) for resource
 * at - ne of a routed platform. */
static mpq_srcptr row_coef(const cgb_master_t *m, size_t at)
{
    return at < m->g.ne ? m->g.w[at] : m->res_w[at - m->g.ne];
}

/* Rows (sparse, in arc order; a row may repeat) and coefficients of a
 * column (row_coef(arc[k])): size*c(e) on each port row arc e uses and on
 * its link row (graph model), size*time on each of its route's link
 * resources (routed). */
static size_t column_rows(const cgb_master_t *m, const cgb_column_t *c, size_t *rows, size_t *arc)
{
    const ssched_platform_t *p = m->g.p;
    size_t k = 0;
    for (size_t a = 0; a < c->n_arcs; a++) {
        size_t e = c->arcs[a], r[2] = {m->out_row[p->from[e]], m->in_row[p->to[e]]};
        for (int j = 0; j < 2; j++)
            if (r[j] != SIZE_MAX) {
                rows[k] = r[j];
                arc[k++] = e;
            }
        ssched_i_res_iter_t it;
        size_t res;
        ssched_i_res_begin(&it, p, e);
        while (ssched_i_res_next(&it, &res)) {
            rows[k] = m->link_row[res];
            arc[k++] = p->routes ? m->g.ne + res : e;
        }
    }
    return k;
}

static int known(const cgb_master_t *m, const cgb_column_t *c)
{
    for (size_t k = 0; k < m->n_cols; k++)
        if (m->cols[k].n_arcs == c->n_arcs &&
            !memcmp(m->cols[k].arcs, c->arcs, c->n_arcs * sizeof *c->arcs))
            return 1;
    return 0;
}

/* Add c (ownership taken on success) to the master and its float model. */
static int master_add(cgb_master_t *m, cgb_column_t *c)
{
    if (m->n_cols == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        cgb_column_t *cols = realloc(m->cols, cap * sizeof *cols);
        if (!cols)
            return 0;
        m->cols = cols;
        m->cap = cap;
    }
    size_t mx = m->arc_rows * c->n_arcs + 1;
    size_t *rows = malloc(2 * mx * sizeof *rows);
    double *dense = calloc(m->n_rows + 1, sizeof *dense), *val = malloc(mx * sizeof *val);
    int *idx = malloc(mx * sizeof *idx);
    int ok = rows && dense && val && idx;
    if (ok) {
        size_t k = column_rows(m, c, rows, rows + mx), cnt = 0;
        for (size_t j = 0; j < k; j++)
            dense[rows[j] + 1] += mpq_get_d(row_coef(m, rows[mx + j]));
        val[cnt] = 1.0; /* objective: one broadcast per arborescence */
        idx[cnt++] = 0;
        for (size_t j = 0; j < k; j++)
            if (dense[rows[j] + 1] != 0) {
                val[cnt] = dense[rows[j] + 1];
                idx[cnt++] = (int)rows[j] + 1;
                dense[rows[j] + 1] = 0;
            }
        ok = ssched_i_cge_add(m->eng, (int)cnt, val, idx);
    }
    free(rows);
    free(dense);
    free(val);
    free(idx);
    if (ok)
        m->cols[m->n_cols++] = *c;
    return ok;
}

static ssched_status_t exact_master(const cgb_master_t *m, ssched_lp_t *lp, ssched_error_t *err)
{
    if (ssched_lp_init(lp, "master_arborescences") != SSCHED_OK)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    ssched_status_t st = SSCHED_OK;
    char name[64];
    for (size_t r = 0; r < m->n_rows && st == SSCHED_OK; r++) {
        static const char *const kind[] = {"out_n", "in_n", "link_e"};
        if (m->row_kind[r] == 2)
            ssched_i_res_name(m->g.p, m->row_what[r], name, sizeof name);
        else
            snprintf(name, sizeof name, "%s%zu", kind[m->row_kind[r]], m->row_what[r]);
        st = ssched_lp_add_row(lp, name, SSCHED_ROW_LE, one, NULL, err);
    }
    size_t mx = 1;
    for (size_t k = 0; k < m->n_cols; k++)
        if (m->arc_rows * m->cols[k].n_arcs + 1 > mx)
            mx = m->arc_rows * m->cols[k].n_arcs + 1;
    size_t *rows = malloc(2 * mx * sizeof *rows);
    if (!rows && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        size_t col;
        snprintf(name, sizeof name, "arb%zu", k);
        st = ssched_lp_add_col(lp, name, one, &col, err);
        size_t cnt = st == SSCHED_OK ? column_rows(m, &m->cols[k], rows, rows + mx) : 0;
        for (size_t j = 0; j < cnt && st == SSCHED_OK; j++) /* add_coef accumulates */
            st = ssched_lp_add_coef(lp, rows[j], col, row_coef(m, rows[mx + j]), err);
    }
    free(rows);
    mpq_clear(one);
    return st;
}

/* Per-edge pricing costs from the row prices y (double or exact). */
static void edge_costs_q(const cgb_master_t *m, const mpq_t *y, mpq_t *cost)
{
    const ssched_platform_t *p = m->g.p;
    for (size_t e = 0; e < m->g.ne; e++) {
        if (p->routes) { /* ports at size*c(e), each resource at its own */
            size_t r[2] = {m->out_row[p->from[e]], m->in_row[p->to[e]]}, k;
            mpq_t q;
            mpq_init(q);
            mpq_set_ui(cost[e], 0, 1);
            for (int j = 0; j < 2; j++)
                if (r[j] != SIZE_MAX)
                    mpq_add(cost[e], cost[e], y[r[j]]);
            mpq_mul(cost[e], cost[e], m->g.w[e]);
            ssched_i_res_iter_t it;
            ssched_i_res_begin(&it, p, e);
            while (ssched_i_res_next(&it, &k)) {
                mpq_mul(q, y[m->link_row[k]], m->res_w[k]);
                mpq_add(cost[e], cost[e], q);
            }
            mpq_clear(q);
            continue;
        }
        size_t r[3] = {m->out_row[p->from[e]], m->in_row[p->to[e]], m->link_row[e]};
        mpq_set_ui(cost[e], 0, 1);
        for (int j = 0; j < 3; j++)
            if (r[j] != SIZE_MAX)
                mpq_add(cost[e], cost[e], y[r[j]]);
        mpq_mul(cost[e], cost[e], m->g.w[e]);
    }
}

static void edge_costs_d(const cgb_master_t *m, const double *y, double *cd, mpq_t *cost)
{
    const ssched_platform_t *p = m->g.p;
    for (size_t e = 0; e < m->g.ne; e++) {
        double s = 0;
        if (p->routes) { /* ports at size*c(e), each resource at its own */
            size_t r[2] = {m->out_row[p->from[e]], m->in_row[p->to[e]]}, k;
            for (int j = 0; j < 2; j++)
                if (r[j] != SIZE_MAX)
                    s += y[r[j]];
            s *= mpq_get_d(m->g.w[e]);
            ssched_i_res_iter_t it;
            ssched_i_res_begin(&it, p, e);
            while (ssched_i_res_next(&it, &k))
                s += y[m->link_row[k]] * mpq_get_d(m->res_w[k]);
            cd[e] = s;
        } else {
            size_t r[3] = {m->out_row[p->from[e]], m->in_row[p->to[e]], m->link_row[e]};
            for (int j = 0; j < 3; j++)
                if (r[j] != SIZE_MAX)
                    s += y[r[j]];
            cd[e] = s * mpq_get_d(m->g.w[e]);
        }
        /* integers (2^-40 units): exact small-number arithmetic in the
         * pricing, whose column is only a candidate here */
        mpq_set_d(cost[e], nearbyint(ldexp(cd[e], 40)));
    }
}

/* The pricer's context: the master, per-edge costs (exact, or the float
 * costs rounded to integers), whether pricing is exact. */
typedef struct {
    cgb_master_t *m;
    ssched_steady_t *out;
    mpq_t *cost;
    double *cd;
    mpq_t cc, one;
    int exact;            /* spanning, or few relays: exact Steiner pricing */
} cgb_ctx_t;

/* Float pricing: the heuristics, then the relay enumeration when they
 * find nothing (Steiner case with few relays). */
static ssched_status_t price_d(void *ctx, cg_engine_t *e, const double *y, double z,
                               int *added, double *upper, ssched_error_t *err)
{
    cgb_ctx_t *x = ctx;
    cgb_master_t *m = x->m;
    (void)e;
    (void)z;
    *upper = NAN;
    edge_costs_d(m, y, x->cd, x->cost);
    ssched_status_t st = SSCHED_OK;
    for (int exact = 0; exact <= x->exact && !*added && st == SSCHED_OK; exact++) {
        if (exact && m->g.all)
            break; /* the spanning pricing is exact already */
        cgb_column_t c;
        int r = ssched_i_cgb_price(&m->g, x->cost, exact, &c, x->cc, &st, err);
        if (r <= 0)
            break;
        double cost_d = 0;
        for (size_t k = 0; k < c.n_arcs; k++)
            cost_d += x->cd[c.arcs[k]];
        if (cost_d < 1 - 1e-9 && !known(m, &c) && master_add(m, &c))
            *added = 1;
        else
            column_free(&c);
    }
    return st;
}

/* Exact pricing; a certifying pass records whether it was exact. */
static ssched_status_t price_q(void *ctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err)
{
    cgb_ctx_t *x = ctx;
    cgb_master_t *m = x->m;
    (void)e;
    edge_costs_q(m, (const mpq_t *)sol->y, x->cost);
    ssched_status_t st = SSCHED_OK;
    cgb_column_t c;
    int r = ssched_i_cgb_price(&m->g, x->cost, x->exact, &c, x->cc, &st, err);
    if (r == 1 && mpq_cmp(x->cc, x->one) < 0) {
        /* a master column has cost >= 1 under optimal duals */
        if (known(m, &c) || !master_add(m, &c)) {
            column_free(&c);
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "exact pricing repeats a column of the master");
        } else {
            *added = 1;
        }
    } else if (r == 1) {
        column_free(&c);
    }
    if (st == SSCHED_OK && !*added)
        x->out->cg_pricing_exact = x->exact;
    return st;
}

static ssched_status_t exact_master_cb(void *ctx, ssched_lp_t *lp, ssched_error_t *err)
{
    return exact_master(((cgb_ctx_t *)ctx)->m, lp, err);
}

static size_t n_columns(const void *ctx)
{
    return ((const cgb_ctx_t *)ctx)->m->n_cols;
}

static const cg_pricer_t pricer = {price_d, price_q, exact_master_cb, n_columns, 0};

static void master_free(cgb_master_t *m)
{
    for (size_t k = 0; k < m->n_cols; k++)
        column_free(&m->cols[k]);
    free(m->cols);
    free(m->out_row);
    free(m->in_row);
    free(m->link_row);
    ssched_i_mpq_vec_free(m->res_w, m->nres);
    free(m->row_what);
    free(m->row_kind);
    free(m->g.target);
    free(m->g.reach);
    free(m->g.relays);
    if (m->g.w)
        for (size_t e = 0; e < m->g.ne; e++)
            mpq_clear(m->g.w[e]);
    free(m->g.w);
}

/* Does resource k have a time (a FATPIPE row that does not exist has no
 * link)? */
static int used_time(const ssched_platform_t *p, size_t k)
{
    return ssched_i_res_link(p, k) != SIZE_MAX;
}

/* Graph, rows (those of lp/build_flow.c) and the solution's types. */
static ssched_status_t setup(cgb_master_t *m, ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = m->g.p;
    const ssched_problem_t *pb = m->g.pb;
    size_t n = p->n_nodes, ne = p->n_edges;
    m->g.n = n;
    m->g.ne = ne;
    m->g.root = pb->sources[0];
    m->g.all = pb->n_targets + 1 == n;
    m->g.target = calloc(n, 1);
    m->g.reach = calloc(n, 1);
    m->g.relays = malloc(n * sizeof *m->g.relays);
    m->g.w = ssched_i_alloc(ne, sizeof *m->g.w);
    m->out_row = malloc(n * sizeof *m->out_row);
    m->in_row = malloc(n * sizeof *m->in_row);
    size_t nres = m->nres = ssched_i_res_count(p); /* link resources (resources.c) */
    m->link_row = ssched_i_alloc(nres, sizeof *m->link_row);
    m->row_what = malloc((2 * n + nres) * sizeof *m->row_what);
    m->row_kind = malloc(2 * n + nres);
    out->n_commodities = pb->n_targets;
    out->commodities = malloc(pb->n_targets * sizeof *out->commodities);
    out->unreachable = calloc(pb->n_targets, 1);
    if (!m->g.target || !m->g.reach || !m->g.relays || !m->g.w || !m->out_row || !m->in_row ||
        !m->link_row || !m->row_what || !m->row_kind || !out->commodities || !out->unreachable) {
        if (m->g.w)
            m->g.ne = 0; /* nothing initialised yet */
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < ne; e++) {
        mpq_init(m->g.w[e]);
        mpq_mul(m->g.w[e], p->c[e], pb->size);
    }
    ssched_status_t st = ssched_platform_reachable(p, m->g.root, 0, m->g.reach, err);
    if (st != SSCHED_OK)
        return st;
    for (size_t k = 0; k < pb->n_targets; k++) {
        m->g.target[pb->targets[k]] = 1;
        out->commodities[k] = (ssched_commodity_t){m->g.root, pb->targets[k]};
        out->unreachable[k] = !m->g.reach[pb->targets[k]];
    }
    for (size_t i = 0; i < n; i++)
        if (m->g.reach[i] && i != m->g.root && !m->g.target[i])
            m->g.relays[m->g.n_relays++] = i;
    /* a switch has no port: its edges' links are the resources */
    for (int kind = 0; kind < 2; kind++)
        for (size_t i = 0; i < n; i++) {
            size_t *row = kind ? m->in_row : m->out_row;
            row[i] = SIZE_MAX;
            if (!cg_is_switch(p, i)) {
                m->row_what[m->n_rows] = i;
                m->row_kind[m->n_rows] = (unsigned char)kind;
                row[i] = m->n_rows++;
            }
        }
    unsigned char *used = ssched_i_res_used_flags(p);
    if (!used)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t e = 0; e < nres; e++) {
        m->link_row[e] = SIZE_MAX;
        if (used[e]) {
            m->row_what[m->n_rows] = e;
            m->row_kind[m->n_rows] = 2;
            m->link_row[e] = m->n_rows++;
        }
    }
    free(used);
    m->arc_rows = 3;
    if (p->routes) { /* ports, the route's SHARED links, a FATPIPE row */
        for (size_t e = 0; e < ne; e++) {
            size_t len = p->routes->route_start[e + 1] - p->routes->route_start[e];
            if (len + 3 > m->arc_rows)
                m->arc_rows = len + 3;
        }
        m->res_w = ssched_i_mpq_vec_new(nres);
        if (!m->res_w)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; k < nres; k++)
            if (used_time(p, k))
                mpq_mul(m->res_w[k], ssched_i_res_time(p, k), pb->size);
    }
    return SSCHED_OK;
}

ssched_status_t ssched_i_cgb_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_steady_options_t *opt, ssched_steady_t *out,
                          ssched_error_t *err)
{
    cgb_master_t m;
    memset(&m, 0, sizeof m);
    m.g.p = p;
    m.g.pb = pb;
    out->method = SSCHED_METHOD_COLGEN;
    out->kind = pb->kind;
    out->multicast = pb->n_targets + 1 < p->n_nodes;
    ssched_status_t st = setup(&m, out, err);
    int blocked = 0;
    for (size_t k = 0; k < pb->n_targets; k++)
        blocked |= out->unreachable[k];
    size_t ne = p->n_edges;
    mpq_t *cost = st == SSCHED_OK ? ssched_i_mpq_vec_new(ne) : NULL;
    if (st == SSCHED_OK && !cost)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    cg_engine_t eng;
    memset(&eng, 0, sizeof eng);
    m.eng = &eng;
    if (st == SSCHED_OK) /* every row a capacity: rhs 1 */
        st = ssched_i_cge_init(&eng, m.n_rows, NULL, opt, out, err);
    /* first column: the cheapest arborescence in transfer time */
    if (st == SSCHED_OK && !blocked) {
        cgb_column_t c;
        mpq_t cc;
        mpq_init(cc);
        int r = ssched_i_cgb_price(&m.g, (const mpq_t *)m.g.w, 0, &c, cc, &st, err);
        mpq_clear(cc);
        if (r == 0)
            blocked = 1;
        else if (r == 1 && !master_add(&m, &c)) {
            column_free(&c);
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
    }
    /* blocked: TP = 0, certified by the empty master */
    cgb_ctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.m = &m;
    ctx.out = out;
    ctx.cost = cost;
    ctx.exact = m.g.all || m.g.n_relays <= CGB_EXACT_RELAYS;
    mpq_inits(ctx.cc, ctx.one, NULL);
    mpq_set_ui(ctx.one, 1, 1);
    ctx.cd = malloc((ne + 1) * sizeof *ctx.cd);
    if (st == SSCHED_OK && !ctx.cd)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = ssched_i_cge_run(&eng, &pricer, &ctx, !blocked, err);
    mpq_clears(ctx.cc, ctx.one, NULL);
    free(ctx.cd);
    out->cg_columns = (long)m.n_cols;
    if (st == SSCHED_OK)
        st = ssched_i_cgb_interpret(&m, out, err);
    if (cost)
        for (size_t e = 0; e < ne; e++)
            mpq_clear(cost[e]);
    free(cost);
    master_free(&m);
    ssched_i_cge_free(&eng);
    return st;
}
