/* The float commutative pricing's fast paths (issue 26, commut1000:
 * lp/colgen_comm_dense.inc, lp/colgen_comm_arb.c) against the exact pricing
 * (lp/colgen_comm_price.inc's rational instance, which keeps the plain
 * arc list, per-source Dijkstra and exact Tarjan):
 *   - random Tiers platforms, every host a participant (each host has a
 *     single out-edge: the shared shortest paths), random float prices
 *     and the same prices as rationals; without cpu prices (no merge
 *     point in play: both pricings are exact) the float tree's exact cost
 *     is the exact optimum, up to the prices' rounding; with cpu prices
 *     (participants' second roles in play: heuristics) it is at least the
 *     certified lower bound, and the float cost is the tree's own cost;
 *   - a root without w (exactly one input: the penalty M path);
 *   - the workspace reused across calls of different sizes gives the same
 *     answer as a fresh one;
 *   - ssched_i_cgc_tree_cost_d (the smoothing's re-pricing at the master's
 *     own duals) gives the tree's exact cost, up to rounding;
 *   - whole solves with and without the float pricing's dual smoothing
 *     (lp/colgen_comm.c) certify the same TP, bound and optimal flag. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "ssched/gen.h"
#include "ssched/steady.h"
#include "test_util.h"

typedef struct {
    cg_prices_d d;
    cg_prices_q q;
    double *bd;
    mpq_t *bq;
    size_t len;
} prices_t;

/* Random prices: small dyadic rationals (exact in doubles), some zero. */
static void prices_make(prices_t *pr, const ssched_platform_t *p, int cpu)
{
    size_t n = p->n_nodes, ne = p->n_edges;
    pr->len = 3 * n + ne;
    pr->bd = calloc(pr->len, sizeof *pr->bd);
    pr->bq = malloc(pr->len * sizeof *pr->bq);
    for (size_t k = 0; k < pr->len; k++) {
        int is_cpu = k >= 2 * n && k < 3 * n;
        unsigned v = tu_pick(3) ? tu_pick(64) : 0;
        if (is_cpu && !cpu)
            v = 0;
        pr->bd[k] = v / 64.0;
        mpq_init(pr->bq[k]);
        mpq_set_ui(pr->bq[k], v, 64);
        mpq_canonicalize(pr->bq[k]);
    }
    pr->d = (cg_prices_d){pr->bd, pr->bd + n, pr->bd + 2 * n, pr->bd + 3 * n};
    pr->q = (cg_prices_q){pr->bq, pr->bq + n, pr->bq + 2 * n, pr->bq + 3 * n};
}

static void prices_free(prices_t *pr)
{
    for (size_t k = 0; k < pr->len; k++)
        mpq_clear(pr->bq[k]);
    free(pr->bd);
    free(pr->bq);
}

/* The exact cost of tree t under the rational prices. */
static void tree_cost(const cgc_graph_t *g, const prices_t *pr, const cgc_tree_t *t, mpq_ptr out)
{
    const ssched_platform_t *p = g->p;
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k < t->off[t->nv]; k++) {
        size_t e = t->edges[k];
        size_t i = p->from[e], j = p->to[e];
        mpq_set_ui(q, 0, 1);
        if (!cg_is_switch(p, i))
            mpq_add(q, q, pr->q.out[i]);
        if (!cg_is_switch(p, j))
            mpq_add(q, q, pr->q.in[j]);
        if (cg_is_switch(p, i) || cg_is_switch(p, j))
            mpq_add(q, q, pr->q.link[e]);
        mpq_mul(q, q, g->sc[e]);
        mpq_add(out, out, q);
    }
    for (size_t v = 0; v < t->nv; v++) {
        size_t m = ssched_i_cgc_merges(g, t, v);
        if (m && p->has_w[g->node[v]]) {
            mpq_mul(q, pr->q.cpu[g->node[v]], p->w[g->node[v]]);
            for (size_t k = 0; k < m; k++)
                mpq_add(out, out, q);
        }
    }
    mpq_clear(q);
}

static void tiers(ssched_platform_t *p, uint64_t seed, size_t nodes)
{
    ssched_platform_init(p);
    ssched_gen_tiers_params_t o;
    ssched_gen_tiers_params_init(&o);
    o.seed = seed;
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers_shape_for_nodes(&o, nodes, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&o, p, NULL), SSCHED_OK);
    ssched_gen_tiers_params_free(&o);
}

/* Every host a participant, the target a random host (or a router, whose
 * root takes exactly one input when it has no w). */
static void all_hosts(ssched_problem_t *pb, const ssched_platform_t *p, int router_target)
{
    char *parts = calloc(p->n_nodes, 16);
    size_t nh = 0, tgt = SIZE_MAX;
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->names[i][0] == 'h') {
            strcat(parts, nh++ ? "," : "");
            strcat(parts, p->names[i]);
        }
    for (size_t i = 0; i < p->n_nodes && tgt == SIZE_MAX; i++)
        if (router_target ? !p->has_w[i] : p->names[i][0] == 'h' && tu_pick(4) == 0)
            tgt = i;
    if (tgt == SIZE_MAX)
        for (size_t i = 0; i < p->n_nodes && tgt == SIZE_MAX; i++)
            if (p->names[i][0] == 'h')
                tgt = i;
    ssched_problem_init(pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(pb, p, parts, p->names[tgt], NULL), SSCHED_OK);
    pb->commutative = 1;
    free(parts);
}

static int close_to(double a, mpq_srcptr b)
{
    double x = mpq_get_d(b);
    return fabs(a - x) <= 1e-9 * (1 + fabs(x));
}

static void compare(uint64_t seed, size_t nodes, int cpu, int router_target, int *exact_cmp)
{
    ssched_platform_t p;
    tiers(&p, seed, nodes);
    ssched_problem_t pb;
    all_hosts(&pb, &p, router_target);
    cgc_graph_t g, g2;
    CU_ASSERT_EQUAL_FATAL(ssched_i_cgc_graph_init(&g, &p, &pb, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_i_cgc_graph_init(&g2, &p, &pb, NULL), SSCHED_OK);
    for (int round = 0; round < 3; round++) {
        prices_t pr;
        prices_make(&pr, &p, cpu);
        cgc_tree_t td, tq, t2;
        double cd = 0, c2 = 0;
        mpq_t cq, lower, ct;
        mpq_inits(cq, lower, ct, NULL);
        int proven = 0;
        ssched_status_t st = SSCHED_OK;
        int rd = ssched_i_cgc_price_d(&g, &pr.d, 0, &td, &cd, &st, NULL);
        CU_ASSERT_EQUAL(st, SSCHED_OK);
        int rq = ssched_i_cgc_price_q(&g, &pr.q, 0, &tq, cq, lower, &proven, &st, NULL);
        CU_ASSERT_EQUAL(st, SSCHED_OK);
        CU_ASSERT_EQUAL(rd, rq);
        /* a fresh workspace (g2 only ever sees this call) agrees */
        int r2 = ssched_i_cgc_price_d(&g2, &pr.d, 0, &t2, &c2, &st, NULL);
        CU_ASSERT_EQUAL(r2, rd);
        if (rd == 1 && rq == 1) {
            tree_cost(&g, &pr, &td, ct);
            CU_ASSERT(close_to(cd, ct)); /* the float cost is the tree's */
            size_t *mg = malloc(td.nv * sizeof *mg);
            CU_ASSERT(close_to(ssched_i_cgc_tree_cost_d(&g, &pr.d, &td, mg), ct));
            free(mg);
            CU_ASSERT(mpq_cmp(ct, lower) >= 0); /* lower bounds every tree */
            if (!cpu) { /* both exact: the same optimum */
                CU_ASSERT(proven);
                CU_ASSERT(close_to(cd, cq));
                if (!close_to(cd, cq))
                    gmp_fprintf(stderr, "\n  seed %d: float %.17g, exact %Qd\n", (int)seed, cd,
                                cq);
                ++*exact_cmp;
            }
            if (r2 == 1)
                CU_ASSERT(cd == c2);
        }
        if (rd == 1)
            ssched_i_cgc_tree_free(&td);
        if (rq == 1)
            ssched_i_cgc_tree_free(&tq);
        if (r2 == 1)
            ssched_i_cgc_tree_free(&t2);
        mpq_clears(cq, lower, ct, NULL);
        prices_free(&pr);
        /* g2 restarts from a fresh workspace each round */
        ssched_i_cgc_graph_free(&g2);
        CU_ASSERT_EQUAL_FATAL(ssched_i_cgc_graph_init(&g2, &p, &pb, NULL), SSCHED_OK);
    }
    ssched_i_cgc_graph_free(&g);
    ssched_i_cgc_graph_free(&g2);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_no_cpu_prices(void)
{
    int n = 0;
    for (uint64_t s = 1; s <= 12; s++)
        compare(s, 20 + 7 * (size_t)s, 0, 0, &n);
    CU_ASSERT(n >= 30);
}

static void test_cpu_prices(void)
{
    int n = 0;
    for (uint64_t s = 1; s <= 12; s++)
        compare(100 + s, 20 + 7 * (size_t)s, 1, 0, &n);
}

static void test_router_target(void)
{
    int n = 0;
    for (uint64_t s = 1; s <= 8; s++)
        compare(200 + s, 30 + 5 * (size_t)s, 0, 1, &n);
    CU_ASSERT(n >= 12);
}

/* One solve of pb with smoothing weight alpha: TP, bound, optimal flag,
 * float rounds. */
static void solve_with(const ssched_platform_t *p, const ssched_problem_t *pb, double alpha,
                       mpq_ptr tp, mpq_ptr ub, int *optimal, long *rounds)
{
    double old = ssched_i_cgc_set_smoothing(alpha);
    ssched_steady_options_t o;
    ssched_steady_options_default(&o);
    o.method = SSCHED_METHOD_COLGEN;
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, pb, &o, &s, NULL), SSCHED_OK);
    ssched_i_cgc_set_smoothing(old);
    mpq_set(tp, s.throughput);
    mpq_set(ub, s.upper_bound);
    *optimal = s.optimal;
    *rounds = (long)s.cg_iterations;
    ssched_steady_free(&s);
}

/* Smoothing only changes which columns the float phase proposes: the
 * certified values are those of the unsmoothed solve.  Random Tiers, every
 * host a participant, the target a random host or a router. */
static void test_smoothing_same_values(void)
{
    long r0 = 0, r1 = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        ssched_platform_t p;
        tiers(&p, 300 + seed, 30 + 6 * (size_t)seed);
        ssched_problem_t pb;
        all_hosts(&pb, &p, seed % 3 == 0);
        mpq_t tp0, ub0, tp1, ub1;
        mpq_inits(tp0, ub0, tp1, ub1, NULL);
        int o0, o1;
        long it0, it1;
        solve_with(&p, &pb, 0.0, tp0, ub0, &o0, &it0);
        solve_with(&p, &pb, CGC_SMOOTH, tp1, ub1, &o1, &it1);
        CU_ASSERT(mpq_equal(tp0, tp1));
        CU_ASSERT(mpq_equal(ub0, ub1));
        CU_ASSERT_EQUAL(o0, o1);
        if (!mpq_equal(tp0, tp1))
            gmp_fprintf(stderr, "\n  seed %d: TP %Qd without smoothing, %Qd with\n", (int)seed,
                        tp0, tp1);
        r0 += it0;
        r1 += it1;
        mpq_clears(tp0, ub0, tp1, ub1, NULL);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    printf("\n  float rounds: %ld without smoothing, %ld with\n", r0, r1);
}

static const tu_test_t tests[] = {
    {"float pricing = exact pricing without merge points (shared paths, dense arborescence)",
     test_no_cpu_prices},
    {"float pricing with cpu prices: a real tree at its own cost, above the lower bound",
     test_cpu_prices},
    {"float pricing into a root without w (one input: the penalty)", test_router_target},
    {"dual smoothing: the same certified values as without", test_smoothing_same_values},
    {NULL, NULL}};

int main(void)
{
    return tu_main("commut_float", tests);
}
