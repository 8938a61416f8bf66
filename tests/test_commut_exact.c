/* Exact commutative pricing (issue 26 item 3, lp/colgen_comm_bb.inc).
 *
 *   - the pricer against an independent brute force: every reduction
 *     in-tree of tiny random platforms under random prices, written from
 *     the model of lp/colgen_comm.h (vertices, kinds, merges; cheapest
 *     paths by Floyd-Warshall) without the pricer's arborescences: the
 *     same minimum cost, proven (lower = cost), and the returned tree costs
 *     what the pricer says;
 *   - random Tiers reduces with optional merge points (hosts outside the
 *     problem, at most 11 of them): every one certified optimal;
 *   - the same for commutative all-reduces with the routers as switches. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "ssched/gen.h"
#include "ssched/steady.h"
#include "test_util.h"

#define BF_MAXV 9

enum { BF_PART, BF_LEAF, BF_OPT, BF_RFREE, BF_RONE };

typedef struct {
    size_t nv, root, node[BF_MAXV];
    int kind[BF_MAXV];
    size_t n;
    mpq_t *dist;          /* n x n cheapest path costs                     */
    unsigned char *reach; /* n x n                                         */
    const mpq_t *mcost;
    size_t parent[BF_MAXV];
    mpq_t best, part;
    int have;
} bf_t;

static int bf_arc(const bf_t *b, size_t u, size_t v)
{
    /* an arc u -> v: v takes inputs, u sends, a path exists, and two
     * vertices on one node only for the target's own vertex into the root */
    return u != v && u != b->root && b->kind[v] != BF_LEAF &&
           b->reach[b->node[u] * b->n + b->node[v]] &&
           (b->node[u] != b->node[v] || v == b->root);
}

/* A complete assignment: a reduction tree?  Then its cost. */
static void bf_check(bf_t *b)
{
    size_t kids[BF_MAXV] = {0};
    for (size_t v = 0; v < b->nv; v++)
        if (b->parent[v] != SIZE_MAX)
            kids[b->parent[v]]++;
    for (size_t v = 0; v < b->nv; v++) {
        if (v != b->root && b->parent[v] == SIZE_MAX)
            continue;
        size_t u = v, steps = 0;
        while (u != b->root && u != SIZE_MAX && steps++ <= b->nv)
            u = b->parent[u];
        if (u != b->root)
            return; /* a cycle, or into an absent point */
        if ((b->kind[v] == BF_OPT || b->kind[v] == BF_RFREE) && !kids[v])
            return; /* nothing to send / receive */
        if (b->kind[v] == BF_RONE && kids[v] != 1)
            return;
    }
    mpq_t c, q;
    mpq_inits(c, q, NULL);
    mpq_set(c, b->part);
    for (size_t v = 0; v < b->nv; v++) {
        if (v != b->root && b->parent[v] == SIZE_MAX)
            continue;
        size_t mg = b->kind[v] == BF_PART ? kids[v]
                    : (b->kind[v] == BF_OPT || b->kind[v] == BF_RFREE) ? kids[v] - 1 : 0;
        mpq_set_ui(q, mg, 1);
        mpq_mul(q, q, b->mcost[b->node[v]]);
        mpq_add(c, c, q);
    }
    if (!b->have || mpq_cmp(c, b->best) < 0)
        mpq_set(b->best, c);
    b->have = 1;
    mpq_clears(c, q, NULL);
}

/* Assign a parent to vertex v and on (paths only: merges come last and
 * are >= 0, so a partial path sum >= the best prunes). */
static void bf_enum(bf_t *b, size_t v)
{
    if (b->have && mpq_cmp(b->part, b->best) >= 0)
        return;
    if (v == b->nv) {
        bf_check(b);
        return;
    }
    if (v == b->root) {
        b->parent[v] = SIZE_MAX;
        bf_enum(b, v + 1);
        return;
    }
    if (b->kind[v] == BF_OPT) {
        b->parent[v] = SIZE_MAX;
        bf_enum(b, v + 1);
    }
    mpq_t keep;
    mpq_init(keep);
    mpq_set(keep, b->part);
    for (size_t u = 0; u < b->nv; u++) {
        if (!bf_arc(b, v, u))
            continue;
        b->parent[v] = u;
        mpq_add(b->part, keep, b->dist[b->node[v] * b->n + b->node[u]]);
        bf_enum(b, v + 1);
    }
    mpq_set(b->part, keep);
    b->parent[v] = SIZE_MAX;
    mpq_clear(keep);
}

/* The cheapest reduction tree's cost by brute force; 0 when none exists,
 * -1 when there are too many vertices. */
static int bf_price(const ssched_platform_t *p, const ssched_problem_t *pb, const mpq_t *ecost,
                    const mpq_t *mcost, mpq_t out)
{
    bf_t b;
    memset(&b, 0, sizeof b);
    size_t n = p->n_nodes, t = pb->target;
    unsigned char part[64] = {0};
    for (size_t k = 0; k < pb->n_participants; k++) {
        size_t i = pb->participants[k];
        part[i] = 1;
        b.node[b.nv] = i;
        b.kind[b.nv++] = p->has_w[i] ? BF_PART : BF_LEAF;
    }
    b.root = b.nv;
    b.node[b.nv] = t;
    b.kind[b.nv++] = p->has_w[t] ? BF_RFREE : BF_RONE;
    for (size_t i = 0; i < n; i++) /* merge points, and a second role at a
                                    * participant's node (not the target's) */
        if (p->has_w[i] && i != t) {
            if (b.nv == BF_MAXV)
                return -1;
            b.node[b.nv] = i;
            b.kind[b.nv++] = BF_OPT;
        }
    (void)part;
    b.n = n;
    b.mcost = mcost;
    b.dist = malloc(n * n * sizeof *b.dist);
    b.reach = calloc(n * n, 1);
    for (size_t k = 0; k < n * n; k++)
        mpq_init(b.dist[k]);
    for (size_t i = 0; i < n; i++)
        b.reach[i * n + i] = 1;
    for (size_t e = 0; e < p->n_edges; e++) {
        size_t k = p->from[e] * n + p->to[e];
        if (!b.reach[k] || mpq_cmp(ecost[e], b.dist[k]) < 0)
            mpq_set(b.dist[k], ecost[e]);
        b.reach[k] = 1;
    }
    mpq_t s;
    mpq_init(s);
    for (size_t m = 0; m < n; m++) /* Floyd-Warshall */
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                if (b.reach[i * n + m] && b.reach[m * n + j]) {
                    mpq_add(s, b.dist[i * n + m], b.dist[m * n + j]);
                    if (!b.reach[i * n + j] || mpq_cmp(s, b.dist[i * n + j]) < 0)
                        mpq_set(b.dist[i * n + j], s);
                    b.reach[i * n + j] = 1;
                }
    mpq_inits(b.best, b.part, NULL);
    for (size_t v = 0; v < b.nv; v++)
        b.parent[v] = SIZE_MAX;
    bf_enum(&b, 0);
    int r = b.have;
    mpq_set(out, b.best);
    mpq_clears(s, b.best, b.part, NULL);
    for (size_t k = 0; k < n * n; k++)
        mpq_clear(b.dist[k]);
    free(b.dist);
    free(b.reach);
    return r;
}

/* Random nodes P0..P(n-1), w in 1..4 or a router (1/4), random edges. */
static void random_platform(ssched_platform_t *p, unsigned n)
{
    ssched_platform_init(p);
    char name[16];
    mpq_t q;
    mpq_init(q);
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%u", i);
        mpq_set_ui(q, 1 + tu_pick(4), 1);
        CU_ASSERT_EQUAL(ssched_platform_add_node(p, name, tu_pick(4) ? q : NULL, NULL, NULL),
                        SSCHED_OK);
    }
    mpq_clear(q);
    tu_random_edges(p, n);
}

/* Participants: k random distinct nodes; target any node. */
static void random_problem(ssched_problem_t *pb, const ssched_platform_t *p, unsigned k)
{
    unsigned n = (unsigned)p->n_nodes;
    char parts[128] = "";
    unsigned char used[32] = {0};
    for (unsigned j = 0; j < k; j++) {
        unsigned i;
        do
            i = tu_pick(n);
        while (used[i]);
        used[i] = 1;
        strcat(parts, j ? "," : "");
        strcat(parts, p->names[i]);
    }
    ssched_problem_init(pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(pb, p, parts, p->names[tu_pick(n)], NULL),
                          SSCHED_OK);
    pb->commutative = 1;
}

/* A random price a/b (a in 0..8, b in 1..5), zero with probability 1/4. */
static void random_price(mpq_t q)
{
    mpq_set_ui(q, tu_pick(4) ? tu_pick(9) : 0, 1 + tu_pick(5));
    mpq_canonicalize(q);
}

static void test_brute_pricing(void)
{
    int compared = 0, with_points = 0;
    for (int it = 0; it < 300; it++) {
        ssched_platform_t p;
        random_platform(&p, 4 + tu_pick(3));
        ssched_problem_t pb;
        random_problem(&pb, &p, 2 + tu_pick(2));
        size_t ne = p.n_edges, n = p.n_nodes;
        mpq_t *ec = malloc(ne * sizeof *ec), *mc = malloc(n * sizeof *mc);
        for (size_t e = 0; e < ne; e++) {
            mpq_init(ec[e]);
            random_price(ec[e]);
        }
        for (size_t i = 0; i < n; i++) {
            mpq_init(mc[i]);
            random_price(mc[i]);
        }
        mpq_t ref, cost, lower, tc, q;
        mpq_inits(ref, cost, lower, tc, q, NULL);
        int rb = bf_price(&p, &pb, (const mpq_t *)ec, (const mpq_t *)mc, ref);
        if (rb >= 0) {
            cgc_graph_t g;
            CU_ASSERT_EQUAL_FATAL(ssched_i_cgc_graph_init(&g, &p, &pb, NULL), SSCHED_OK);
            cgc_tree_t t;
            int proven = 0;
            ssched_status_t st = SSCHED_OK;
            int r = ssched_i_cgc_price(&g, (const mpq_t *)ec, (const mpq_t *)mc, 1, &t, cost,
                                       lower, &proven, &st, NULL);
            compared++;
            with_points += g.n_opt > 0;
            CU_ASSERT_EQUAL(st, SSCHED_OK);
            CU_ASSERT_EQUAL(r, rb);
            CU_ASSERT(proven);
            if (r == 1 && rb == 1) {
                CU_ASSERT(mpq_equal(cost, ref));
                CU_ASSERT(mpq_equal(lower, cost));
                /* the tree costs what the pricer says */
                for (size_t k = 0; k < t.off[t.nv]; k++)
                    mpq_add(tc, tc, ec[t.edges[k]]);
                for (size_t v = 0; v < t.nv; v++) {
                    mpq_set_ui(q, ssched_i_cgc_merges(&g, &t, v), 1);
                    mpq_mul(q, q, mc[g.node[v]]);
                    mpq_add(tc, tc, q);
                }
                CU_ASSERT(mpq_equal(tc, cost));
                if (!mpq_equal(cost, ref))
                    gmp_fprintf(stderr, "\n  it %d: pricer %Qd, brute force %Qd\n", it, cost, ref);
                ssched_i_cgc_tree_free(&t);
            }
            ssched_i_cgc_graph_free(&g);
        }
        mpq_clears(ref, cost, lower, tc, q, NULL);
        for (size_t e = 0; e < ne; e++)
            mpq_clear(ec[e]);
        for (size_t i = 0; i < n; i++)
            mpq_clear(mc[i]);
        free(ec);
        free(mc);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT(compared >= 150);
    CU_ASSERT(with_points >= 100);
}

/* Hosts of a generated Tiers platform: names h*, in node order. */
static size_t hosts(const ssched_platform_t *p, size_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->names[i][0] == 'h')
            out[k++] = i;
    return k;
}

/* Random Tiers instances (24 nodes, 12 hosts): reduce = 1 a commutative
 * reduce to a random host, else a commutative all-reduce with the
 * routers as switches; every one certified optimal. */
static void tiers_optimal(int reduce, int count)
{
    for (int s = 1; s <= count; s++) {
        ssched_platform_t p;
        ssched_platform_init(&p);
        ssched_gen_tiers_params_t o;
        ssched_gen_tiers_params_init(&o);
        o.seed = (uint64_t)s;
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers_shape_for_nodes(&o, 24, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&o, &p, NULL), SSCHED_OK);
        ssched_gen_tiers_params_free(&o);
        for (size_t i = 0; !reduce && i < p.n_nodes; i++)
            p.multiport[i] = !p.has_w[i]; /* --routers switch */
        size_t h[64], nh = hosts(&p, h), k = 2 + tu_pick(5);
        char parts[512] = "";
        for (size_t j = 0; j < k; j++) {
            size_t x = j + tu_pick((unsigned)(nh - j)), t = h[j];
            h[j] = h[x];
            h[x] = t;
            strcat(parts, j ? "," : "");
            strcat(parts, p.names[h[j]]);
        }
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        if (reduce) {
            CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, parts,
                                                            p.names[h[tu_pick((unsigned)nh)]], NULL),
                                  SSCHED_OK);
            pb.commutative = 1;
        } else {
            CU_ASSERT_EQUAL_FATAL(ssched_problem_set_allreduce(&pb, &p, parts, NULL, 1, NULL),
                                  SSCHED_OK);
        }
        ssched_steady_t st;
        ssched_steady_init(&st);
        ssched_error_t err;
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(&p, &pb, NULL, &st, &err), SSCHED_OK);
        CU_ASSERT(mpq_cmp(st.throughput, st.upper_bound) <= 0);
        CU_ASSERT(st.optimal);
        if (!st.optimal)
            gmp_fprintf(stderr, "\n  seed %d: TP %Qd < upper bound %Qd\n", s, st.throughput,
                        st.upper_bound);
        ssched_steady_free(&st);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

static void test_tiers_reduce(void)
{
    tiers_optimal(1, 12);
}

static void test_tiers_allreduce(void)
{
    tiers_optimal(0, 6);
}

static const tu_test_t tests[] = {
    {"exact pricing = brute force over every reduction tree (random prices)", test_brute_pricing},
    {"random Tiers commutative reduces with merge points: certified optimal", test_tiers_reduce},
    {"random Tiers commutative all-reduces with switches: certified optimal",
     test_tiers_allreduce},
    {NULL, NULL}};

int main(void)
{
    return tu_main("commut_exact", tests);
}
