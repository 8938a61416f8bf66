/* Tests of trees/arborescence*.c: minimum-cost arborescences (Chu–Liu/
 * Edmonds) against brute force, and exact weighted packings (Edmonds'
 * branching theorem) checked by a verifier written here, independent of
 * the library's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/rational.h"
#include "ssched/trees.h"
#include "test_util.h"

#define NONE SIZE_MAX
#define MAXM 96

static uint64_t rng_state = 0x5eed1234abcdULL;
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static size_t rnd(size_t k) { return (size_t)(rng_next() % k); }

typedef struct {
    size_t n, m, from[MAXM], to[MAXM];
    mpq_t val[MAXM];
} graph_t;

static void g_init(graph_t *g, size_t n)
{
    g->n = n;
    g->m = 0;
    for (size_t e = 0; e < MAXM; e++)
        mpq_init(g->val[e]);
}
static void g_free(graph_t *g)
{
    for (size_t e = 0; e < MAXM; e++)
        mpq_clear(g->val[e]);
}
static void g_arc(graph_t *g, size_t u, size_t v, long num, unsigned long den)
{
    CU_ASSERT_FATAL(g->m < MAXM);
    g->from[g->m] = u;
    g->to[g->m] = v;
    mpq_set_si(g->val[g->m], num, den);
    mpq_canonicalize(g->val[g->m]);
    g->m++;
}

/* random digraph: each ordered pair with probability pct%, a few parallel
 * arcs and self-loops; values num/den with num in [lo, hi], den in 1..7 */
static void g_random(graph_t *g, size_t n, unsigned pct, long lo, long hi)
{
    g_init(g, n);
    for (size_t u = 0; u < n; u++)
        for (size_t v = 0; v < n; v++)
            if (g->m < MAXM - 12 && rnd(100) < (u == v ? 5 : pct)) {
                g_arc(g, u, v, lo + (long)rnd((size_t)(hi - lo + 1)), 1 + rnd(7));
                if (rnd(10) == 0)
                    g_arc(g, u, v, lo + (long)rnd((size_t)(hi - lo + 1)), 1 + rnd(7));
            }
}

/* ---- minimum cost: brute force over every in-arc choice ---------------- */

static void reach(const graph_t *g, size_t root, const unsigned char *arc_ok, unsigned char *seen)
{
    size_t q[MAXM], qn = 0;
    memset(seen, 0, g->n);
    seen[root] = 1;
    q[qn++] = root;
    for (size_t i = 0; i < qn; i++)
        for (size_t e = 0; e < g->m; e++)
            if (g->from[e] == q[i] && !seen[g->to[e]] && (!arc_ok || arc_ok[e])) {
                seen[g->to[e]] = 1;
                q[qn++] = g->to[e];
            }
}

/* in-arcs of v from a spanned tail (no self-loop) */
static size_t in_arcs(const graph_t *g, const unsigned char *span, size_t v, size_t *list)
{
    size_t k = 0;
    for (size_t e = 0; e < g->m; e++)
        if (g->to[e] == v && span[g->from[e]] && g->from[e] != v)
            list[k++] = e;
    return k;
}

/* 1 and the minimum in best if some choice of one in-arc per spanned
 * non-root node is an arborescence of `span` (every choice is tried) */
static int brute_min(const graph_t *g, size_t root, const unsigned char *span, mpq_t best)
{
    size_t nodes[8], k = 0, cnt[8], arcs[8][MAXM], choice[8] = {0}, parent[8];
    for (size_t v = 0; v < g->n; v++)
        if (span[v] && v != root) {
            cnt[k] = in_arcs(g, span, v, arcs[k]);
            if (!cnt[k])
                return 0;
            nodes[k++] = v;
        }
    int found = 0;
    mpq_t c;
    mpq_init(c);
    for (;;) {
        mpq_set_ui(c, 0, 1);
        for (size_t i = 0; i < k; i++) {
            parent[nodes[i]] = arcs[i][choice[i]];
            mpq_add(c, c, g->val[parent[nodes[i]]]);
        }
        int ok = 1; /* acyclic: every node reaches the root within k steps */
        for (size_t i = 0; i < k && ok; i++) {
            size_t u = nodes[i], steps = 0;
            while (u != root && steps++ <= k)
                u = g->from[parent[u]];
            ok = u == root;
        }
        if (ok && (!found || mpq_cmp(c, best) < 0)) {
            mpq_set(best, c);
            found = 1;
        }
        size_t i = 0; /* odometer */
        for (; i < k; i++) {
            if (++choice[i] < cnt[i])
                break;
            choice[i] = 0;
        }
        if (i == k)
            break;
    }
    mpq_clear(c);
    return found;
}

static void test_min_cost_brute(void)
{
    mpq_t best, sum;
    mpq_init(best);
    mpq_init(sum);
    size_t instances = 0, found_count = 0;
    for (int it = 0; it < 600; it++) {
        graph_t g;
        g_random(&g, 1 + rnd(6), 20 + (unsigned)rnd(50), -9, 9);
        size_t root = rnd(g.n);
        unsigned char seen[8], req[8];
        reach(&g, root, NULL, seen);
        for (size_t v = 0; v < g.n; v++)
            req[v] = (unsigned char)(rnd(3) != 0);
        ssched_arborescence_t a;
        ssched_arborescence_init(&a);
        int found = -1;
        const unsigned char *required = it % 2 ? req : NULL;
        CU_ASSERT_EQUAL_FATAL(ssched_arborescence_min_cost(g.n, g.m, g.from, g.to, g.val, root,
                                                           required, &found, &a, NULL),
                              SSCHED_OK);
        int expect = 1;
        for (size_t v = 0; v < g.n; v++)
            if (!seen[v] && (!required || required[v]))
                expect = 0;
        CU_ASSERT_EQUAL(found, expect);
        if (found) {
            CU_ASSERT_FATAL(brute_min(&g, root, seen, best));
            CU_ASSERT(mpq_equal(a.weight, best));
            /* the arcs themselves: one into each reachable non-root node */
            unsigned char has[8] = {0};
            size_t reachable = 0;
            mpq_set_ui(sum, 0, 1);
            for (size_t v = 0; v < g.n; v++)
                reachable += seen[v];
            CU_ASSERT_EQUAL(a.n_arcs, reachable - 1);
            for (size_t i = 0; i < a.n_arcs; i++) {
                size_t e = a.arcs[i];
                CU_ASSERT(seen[g.to[e]] && g.to[e] != root && !has[g.to[e]]);
                has[g.to[e]] = 1;
                mpq_add(sum, sum, g.val[e]);
            }
            unsigned char arc_ok[MAXM] = {0}, r2[8];
            for (size_t i = 0; i < a.n_arcs; i++)
                arc_ok[a.arcs[i]] = 1;
            reach(&g, root, arc_ok, r2);
            CU_ASSERT_EQUAL(memcmp(r2, seen, g.n), 0);
            CU_ASSERT(mpq_equal(sum, a.weight));
            found_count++;
        }
        instances++;
        ssched_arborescence_free(&a);
        g_free(&g);
    }
    CU_ASSERT(found_count > 200);
    mpq_clear(best);
    mpq_clear(sum);
}

#include "test_arborescence_pack.inc"

int main(void)
{
    static const tu_test_t tests[] = {
        {"min cost = brute force (600 digraphs, n <= 6)", test_min_cost_brute},
        {"min cost bad input", test_min_cost_bad},
        {"pack: chain", test_pack_chain},
        {"pack: bidirected triangle", test_pack_triangle},
        {"pack: checker verdicts", test_pack_checker},
        {"pack: greedy trap", test_pack_greedy_trap},
        {"pack: known combinations", test_pack_combinations},
        {"pack: random capacities = brute-force min cut", test_pack_random_caps},
        {"pack: required subsets and pruned relays", test_pack_required},
        {"pack: bad input", test_pack_bad},
        {"pack: larger random instances", test_pack_larger},
        {NULL, NULL}};
    return tu_main("arborescence", tests);
}
