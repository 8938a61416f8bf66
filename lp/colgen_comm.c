/* Commutative reduce by column generation (colgen_comm.h), certified as
 * lp/colgen.c certifies the ordered reduce, as a pricer of the engine
 * (lp/colgen_engine.h): iterations on the float master priced with
 * rounded costs, then the final master solved exactly (lp/solve.c) and
 * its exact duals priced exactly; an improving tree is added and the
 * exact solve repeats.  When the exact pricing's certified lower bound
 * on every tree's cost reaches 1, no tree improves the master and its
 * optimum is the commutative optimum.  Otherwise
 * (optional merge points, Steiner-like pricing) the master optimum is an
 * achievable TP and the upper bound is the smaller of
 *   Farley's bound z / lower (y / lower is dual feasible for every tree
 *   when every tree costs >= lower > 0 under the exact duals y, and its
 *   objective is z / lower since every row has rhs 1), and
 *   the relaxation LP (lp/build_commutative.c), solved exactly (skipped
 *   when Farley's bound exists and the LP would have more than
 *   CGC_RELAX_MAX participant-flow columns). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "lp/internal.h"
#include "src/util/internal.h"

void ssched_i_cgc_graph_free(cgc_graph_t *g)
{
    free(g->node);
    free(g->kind);
    free(g->used);
    free(g->copy);
    for (size_t e = 0; g->sc && e < g->ne; e++)
        mpq_clear(g->sc[e]);
    free(g->sc);
    ssched_i_cgc_ws_free(g->ws);
    memset(g, 0, sizeof *g);
}

ssched_status_t ssched_i_cgc_graph_init(cgc_graph_t *g, const ssched_platform_t *p,
                               const ssched_problem_t *pb, ssched_error_t *err)
{
    memset(g, 0, sizeof *g);
    g->p = p;
    g->pb = pb;
    g->n = p->n_nodes;
    g->N = pb->n_participants;
    size_t N = g->N, t = pb->target, tk = SIZE_MAX;
    unsigned char *part = ssched_i_calloc(g->n, 1);
    if (!part)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < N; k++) {
        part[pb->participants[k]] = 1;
        if (pb->participants[k] == t)
            tk = k;
    }
    for (size_t i = 0; i < g->n; i++)
        g->n_opt += p->has_w[i] && i != t; /* points and copies */
    g->nv = N + 1 + g->n_opt;
    g->node = malloc(g->nv * sizeof *g->node);
    g->kind = malloc(g->nv);
    g->used = malloc(g->nv);
    g->copy = calloc(g->nv, 1);
    g->sc = ssched_i_alloc(p->n_edges, sizeof *g->sc);
    g->ws = ssched_i_cgc_ws_new();
    if (!g->node || !g->kind || !g->used || !g->copy || !g->sc || !g->ws) {
        free(part);
        ssched_i_cgc_graph_free(g);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    g->ne = p->n_edges;
    for (size_t e = 0; e < g->ne; e++) {
        mpq_init(g->sc[e]);
        mpq_mul(g->sc[e], p->c[e], pb->size);
    }
    for (size_t k = 0; k < N; k++) {
        g->node[k] = pb->participants[k];
        g->kind[k] = p->has_w[g->node[k]] ? CGC_PART : CGC_LEAF;
        g->used[k] = 1;
    }
    /* the root: a vertex of its own at the target (vertex N), so that a
     * target that is a participant may merge its own value first (its
     * vertex then hands it over in place: an arc of cost 0) or send it
     * away and get the result back, as an ordered tree may do */
    g->node[N] = t;
    g->used[N] = 1;
    g->kind[N] = p->has_w[t] ? CGC_ROOT_FREE : CGC_ROOT_ONE;
    g->root = N;
    (void)tk;
    size_t v = N + 1;
    for (size_t i = 0; i < g->n; i++)
        if (p->has_w[i] && !part[i] && i != t) {
            g->node[v] = i;
            g->kind[v] = CGC_OPT;
            g->used[v++] = 1;
        }
    for (size_t k = 0; k < N; k++)
        if (p->has_w[pb->participants[k]] && pb->participants[k] != t) {
            g->node[v] = pb->participants[k];
            g->kind[v] = CGC_OPT;
            g->copy[v] = 1;
            g->used[v++] = 1;
        }
    free(part);
    return SSCHED_OK;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

int ssched_i_cgc_tree_column(const cgc_graph_t *g, const cgc_tree_t *t, cg_column_t *c)
{
    memset(c, 0, sizeof *c);
    c->n_sends = t->off[t->nv];
    c->n_merges = g->N - 1; /* every tree merges N values into one */
    size_t ns = c->n_sends ? c->n_sends : 1, nm = c->n_merges ? c->n_merges : 1;
    c->send_edge = malloc(ns * sizeof *c->send_edge);
    c->send_interval = calloc(ns, sizeof *c->send_interval);
    c->merge_node = malloc(nm * sizeof *c->merge_node);
    c->merge_k = calloc(nm, sizeof *c->merge_k);
    c->merge_l = calloc(nm, sizeof *c->merge_l);
    c->merge_m = calloc(nm, sizeof *c->merge_m);
    if (!c->send_edge || !c->send_interval || !c->merge_node || !c->merge_k || !c->merge_l ||
        !c->merge_m) {
        ssched_i_cg_column_free(c);
        return 0;
    }
    memcpy(c->send_edge, t->edges, c->n_sends * sizeof *t->edges);
    qsort(c->send_edge, c->n_sends, sizeof *c->send_edge, cmp_size);
    size_t k = 0, *mg = malloc((t->nv ? t->nv : 1) * sizeof *mg);
    if (!mg || !ssched_i_cgc_merges_all(g, t, mg)) {
        free(mg);
        ssched_i_cg_column_free(c);
        return 0;
    }
    for (size_t v = 0; v < t->nv; v++)
        for (size_t x = mg[v]; x > 0 && k < c->n_merges; x--)
            c->merge_node[k++] = g->node[v];
    free(mg);
    c->n_merges = k;
    qsort(c->merge_node, k, sizeof *c->merge_node, cmp_size);
    return 1;
}

typedef struct {
    cg_master_t m;
    cgc_graph_t g;
    cgc_tree_t *trees; /* parallel to m.cols */
    size_t cap;
    cg_scratch_t sc;    /* price scratch                                    */
    mpq_t cost, lower;  /* lower: the last exact pass's bound on every tree */
    int none;           /* the last exact pass proved that no tree exists   */
    /* dual smoothing (price_d): the center, the smoothed prices, their
     * scratch, the center's Farley bound */
    double *center, *ys, best_ub;
    int has_center;
    long mispriced;
    size_t *mg;
    cg_scratch_t sc2;
} cgc_state_t;

/* Add tree t (ownership taken on success): 1 added, 0 already known or
 * ENOMEM (t freed), the caller tells them apart by *nomem. */
static int add_tree(cgc_state_t *s, cgc_tree_t *t, int *nomem)
{
    cg_column_t c;
    *nomem = 0;
    if (!ssched_i_cgc_tree_column(&s->g, t, &c)) {
        ssched_i_cgc_tree_free(t);
        *nomem = 1;
        return 0;
    }
    if (ssched_i_cg_known(&s->m, &c)) {
        ssched_i_cg_column_free(&c);
        ssched_i_cgc_tree_free(t);
        return 0;
    }
    if (s->m.n_cols == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        cgc_tree_t *tr = realloc(s->trees, cap * sizeof *tr);
        if (!tr) {
            ssched_i_cg_column_free(&c);
            ssched_i_cgc_tree_free(t);
            *nomem = 1;
            return 0;
        }
        s->trees = tr;
        s->cap = cap;
    }
    size_t k = s->m.n_cols;
    if (!ssched_i_cg_master_add(&s->m, &c)) {
        ssched_i_cg_column_free(&c);
        ssched_i_cgc_tree_free(t);
        *nomem = 1;
        return 0;
    }
    s->trees[k] = *t;
    return 1;
}

/* Float pricing: the heuristics, then (when they find nothing and
 * optional points are in play) the enumeration of the points in play.
 *
 * Dual smoothing (Wentges 1997): the master's duals y oscillate from one
 * round to the next, so the tree priced at y is often dropped again a few
 * rounds later.  The pricing runs first at ys = a*center + (1-a)*y, the
 * center being the prices with the best (smallest) Farley bound
 * sum(ys)/cost(ys) seen so far; the tree found there is added when it
 * improves the master under y itself, else (a mis-pricing) the round
 * prices at y as before.  The float phase only proposes columns: the exact
 * pass still prices the exact duals over every tree. */
static double smooth_alpha = CGC_SMOOTH;

double ssched_i_cgc_set_smoothing(double alpha)
{
    double old = smooth_alpha;
    smooth_alpha = alpha;
    return old;
}

static ssched_status_t price_d(void *ctx, cg_engine_t *e, const double *y, double z,
                               int *added, double *upper, ssched_error_t *err)
{
    cgc_state_t *s = ctx;
    cg_master_t *m = &s->m;
    (void)e;
    (void)z;
    size_t nr = m->n_rows;
    if (!s->center) {
        s->center = malloc(2 * nr * sizeof *s->center);
        s->mg = malloc((s->g.nv ? s->g.nv : 1) * sizeof *s->mg);
        if (!s->center || !s->mg)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        s->ys = s->center + nr;
    }
    cg_prices_d pr = ssched_i_cg_prices_d(m, y, &s->sc);
    int can_exact = s->g.n_opt > 0, nomem = 0;
    ssched_status_t st = SSCHED_OK;
    double alpha = s->has_center ? smooth_alpha : 0.0;
    for (;;) {
        const double *yp = y;
        cg_prices_d ps = pr;
        if (alpha > 0) {
            for (size_t r = 0; r < nr; r++)
                s->ys[r] = alpha * s->center[r] + (1 - alpha) * y[r];
            yp = s->ys;
            ps = ssched_i_cg_prices_d(m, yp, &s->sc2);
        }
        for (int exact = 0; exact <= (alpha > 0 ? 0 : can_exact) && !*added && st == SSCHED_OK;
             exact++) {
            cgc_tree_t tr;
            double cost = 0;
            int r = ssched_i_cgc_price_d(&s->g, &ps, exact, &tr, &cost, &st, err);
            if (r != 1)
                break;
            if (cost > 0) { /* the center: the smallest Farley bound */
                double sum = 0;
                for (size_t k = 0; k < nr; k++)
                    sum += yp[k];
                if (!s->has_center || sum / cost < s->best_ub) {
                    memcpy(s->center, yp, nr * sizeof *yp);
                    s->best_ub = sum / cost;
                    s->has_center = 1;
                }
            }
            if (alpha > 0)
                cost = ssched_i_cgc_tree_cost_d(&s->g, &pr, &tr, s->mg);
            if (cost < 1 - 1e-9)
                *added = add_tree(s, &tr, &nomem);
            else
                ssched_i_cgc_tree_free(&tr);
            if (nomem)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        if (*added || alpha <= 0 || st != SSCHED_OK)
            break;
        s->mispriced++;
        alpha = 0; /* mis-pricing: price at y */
    }
    *upper = NAN;
    return st;
}

/* Exact pricing (enumeration when few points are in play); records the
 * certified lower bound on every tree's cost in s->lower and s->none = 1
 * when no reduction tree exists at all. */
static ssched_status_t price_q(void *ctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err)
{
    cgc_state_t *s = ctx;
    cg_master_t *m = &s->m;
    (void)e;
    const cg_prices_q *q = ssched_i_cg_prices_q(m, (const mpq_t *)sol->y, &s->sc);
    cgc_tree_t tr;
    int proven = 0, nomem = 0;
    ssched_status_t st = SSCHED_OK;
    int r = ssched_i_cgc_price_q(&s->g, q, 1, &tr, s->cost, s->lower, &proven, &st, err);
    s->none = r == 0 && proven;
    if (r == 1 && mpq_cmp_ui(s->cost, 1, 1) < 0) {
        /* under optimal duals every master column costs >= 1 */
        if (!add_tree(s, &tr, &nomem))
            st = nomem ? ssched_error_set(err, SSCHED_ENOMEM, "out of memory")
                       : ssched_error_set(err, SSCHED_EINTERNAL,
                                          "exact pricing repeats a column of the master");
        *added = st == SSCHED_OK;
    } else if (r == 1) {
        ssched_i_cgc_tree_free(&tr);
    }
    return st;
}

static ssched_status_t exact_master(void *ctx, ssched_lp_t *lp, ssched_error_t *err)
{
    return ssched_i_cg_exact_master(&((cgc_state_t *)ctx)->m, lp, err);
}

static size_t n_columns(const void *ctx)
{
    return ((const cgc_state_t *)ctx)->m.n_cols;
}

static const cg_pricer_t pricer = {price_d, price_q, exact_master, n_columns, 0};

/* Upper bound when pricing did not prove the optimum: Farley's z / lower
 * (lower > 0) and the relaxation LP, the smaller. */
static ssched_status_t upper_bound(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_options_t *opt, mpq_srcptr lower,
                                   ssched_steady_t *out, ssched_error_t *err)
{
    int farley = mpq_sgn(lower) > 0;
    if (farley)
        mpq_div(out->upper_bound, out->throughput, lower);
    /* the relaxation LP has a flow per participant (N x edges columns):
     * beyond this size Farley's bound alone, when there is one */
    if (farley && pb->n_participants * p->n_edges > CGC_RELAX_MAX)
        return SSCHED_OK;
    ssched_model_t model;
    ssched_model_init(&model);
    ssched_status_t st = ssched_model_build(p, pb, &model, err); /* lp/build_commutative.c */
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    if (st == SSCHED_OK) {
        cg_clock_t c0 = cg_clock();
        st = ssched_lp_solve(&model.lp, &opt->lp, &sol, err);
        cg_phase_add(&out->phase_bound, c0);
        out->phase_bound.count++;
    }
    if (st == SSCHED_OK) {
        cg_add_solve_figures(out, &sol);
        mpq_srcptr ub = sol.x[model.tp_col];
        if (!farley || mpq_cmp(ub, out->upper_bound) < 0)
            mpq_set(out->upper_bound, ub);
    }
    ssched_lp_solution_free(&sol);
    ssched_model_free(&model);
    if (st == SSCHED_OK && mpq_cmp(out->throughput, out->upper_bound) > 0)
        st = ssched_error_set(err, SSCHED_EINTERNAL,
                              "commutative reduce: achievable TP above its upper bound");
    return st;
}

ssched_status_t ssched_i_cgc_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_steady_options_t *opt, ssched_steady_t *out,
                          ssched_error_t *err)
{
    cgc_state_t s;
    memset(&s, 0, sizeof s);
    s.m.p = p;
    s.m.pb = pb;
    s.m.reduce = 1;
    s.m.n = p->n_nodes;
    cg_engine_t eng;
    memset(&eng, 0, sizeof eng);
    s.m.eng = &eng;
    mpq_inits(s.cost, s.lower, NULL);
    out->method = SSCHED_METHOD_COLGEN;
    out->kind = pb->kind;
    size_t N = pb->n_participants;
    ssched_status_t st = ssched_i_cgc_graph_init(&s.g, p, pb, err);
    if (st == SSCHED_OK)
        st = ssched_i_cg_master_rows(&s.m, 0, err); /* the ordered colgen's rows */
    if (st == SSCHED_OK) /* every row a capacity: rhs 1 */
        st = ssched_i_cge_init(&eng, s.m.n_rows, NULL, opt, out, err);
    if (st == SSCHED_OK && (!ssched_i_cg_scratch_init(&s.sc, p->n_nodes, s.m.nres) ||
                            !ssched_i_cg_scratch_init(&s.sc2, p->n_nodes, s.m.nres)))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* a participant that cannot reach the target forces TP = 0 */
    out->unreachable = ssched_i_calloc(N, 1);
    unsigned char *reach = ssched_i_alloc(p->n_nodes, 1);
    int blocked = 0;
    if (st == SSCHED_OK && (!out->unreachable || !reach))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = ssched_platform_reachable(p, pb->target, 1, reach, err);
    for (size_t k = 0; k < N && st == SSCHED_OK; k++)
        blocked |= out->unreachable[k] = !reach[pb->participants[k]];
    free(reach);
    /* first column: the cheapest tree at zero prices but the ports' (the
     * transfer times), so that it is short */
    if (st == SSCHED_OK && !blocked) {
        size_t n = p->n_nodes;
        double *one = malloc((3 * n + s.m.nres + 1) * sizeof *one);
        if (!one)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; one && k < 3 * n + s.m.nres; k++)
            one[k] = k < 2 * n ? 1.0 : 0.0;
        cg_prices_d pr = {one, one + n, one + 2 * n, one + 3 * n};
        cgc_tree_t tr;
        double cost;
        int nomem = 0;
        int r = one ? ssched_i_cgc_price_d(&s.g, &pr, 0, &tr, &cost, &st, err) : -1;
        if (r == 1 && !add_tree(&s, &tr, &nomem) && nomem)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        free(one);
    }
    /* no first tree: the exact pass decides (none exists: TP = 0) */
    if (st == SSCHED_OK)
        st = ssched_i_cge_run(&eng, &pricer, &s, s.m.n_cols > 0, err);
    int none = s.none;
    out->cg_columns = (long)s.m.n_cols;
    if (st == SSCHED_OK)
        st = ssched_i_cgc_interpret(&s.g, &s.m, s.trees, out, err);
    if (st == SSCHED_OK) {
        /* proven: no tree at all, or every tree costs >= 1 */
        out->cg_pricing_exact = blocked || none || mpq_cmp_ui(s.lower, 1, 1) >= 0;
        if (out->cg_pricing_exact)
            mpq_set(out->upper_bound, out->throughput);
        else
            st = upper_bound(p, pb, opt, s.lower, out, err);
        out->optimal = mpq_equal(out->upper_bound, out->throughput);
    }
    mpq_clears(s.cost, s.lower, NULL);
    ssched_i_cg_scratch_free(&s.sc);
    ssched_i_cg_scratch_free(&s.sc2);
    free(s.center);
    free(s.mg);
    ssched_i_cge_free(&eng);
    for (size_t k = 0; k < s.m.n_cols; k++) {
        ssched_i_cg_column_free(&s.m.cols[k]);
        ssched_i_cgc_tree_free(&s.trees[k]);
    }
    free(s.m.cols);
    ssched_i_cg_index_free(&s.m);
    free(s.trees);
    free(s.m.cpu_row);
    free(s.m.link_row);
    free(s.m.link_edge);
    ssched_i_cgc_graph_free(&s.g);
    return st;
}
