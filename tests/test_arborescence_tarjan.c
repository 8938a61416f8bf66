/* Tests of trees/arborescence_tarjan.c (ssched_arborescence_min_cost in
 * O(m log n)): on random digraphs full of ties, with negative and
 * fractional costs, some beyond 2^60 (the mpz_t keys), it returns exactly
 * the arcs of the level-by-level Chu–Liu/Edmonds reference
 * (trees/arborescence_levels.c), and the arcs form an arborescence, checked
 * here: one in-arc per reached non-root node, every one reached from the
 * root, the weight their cost sum. */
#include <stdint.h>
#include <stdlib.h>

#include "ssched/trees.h"
#include "test_util.h"
#include "trees/arborescence_internal.h"

#define NONE SIZE_MAX

static uint64_t rng_state = 0x7a2a7a2a5eedULL;
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static size_t rnd(size_t k) { return (size_t)(rng_next() % k); }

/* 1 when a's arcs are an arborescence of root over every node reachable
 * in the graph, of weight their cost sum. */
static int is_arborescence(size_t n, size_t m, const size_t *from, const size_t *to,
                           const mpq_t *cost, size_t root, const ssched_arborescence_t *a)
{
    size_t *in = malloc(n * sizeof *in), *q = malloc(n * sizeof *q);
    unsigned char *reach = calloc(n, 1), *seen = calloc(n, 1);
    int ok = 1;
    size_t qn = 0, want = 0;
    reach[root] = 1;
    q[qn++] = root;
    for (size_t i = 0; i < qn; i++)
        for (size_t e = 0; e < m; e++)
            if (from[e] == q[i] && !reach[to[e]]) {
                reach[to[e]] = 1;
                q[qn++] = to[e];
            }
    want = qn;
    for (size_t v = 0; v < n; v++)
        in[v] = NONE;
    mpq_t s;
    mpq_init(s);
    for (size_t k = 0; k < a->n_arcs && ok; k++) {
        size_t e = a->arcs[k];
        if (e >= m || to[e] == root || in[to[e]] != NONE || !reach[to[e]])
            ok = 0;
        else
            in[to[e]] = e;
        if (ok)
            mpq_add(s, s, cost[e]);
    }
    if (ok && (a->n_arcs != want - 1 || !mpq_equal(s, a->weight)))
        ok = 0;
    qn = 0;
    seen[root] = 1;
    q[qn++] = root;
    for (size_t i = 0; ok && i < qn; i++)
        for (size_t k = 0; k < a->n_arcs; k++)
            if (from[a->arcs[k]] == q[i] && !seen[to[a->arcs[k]]]) {
                seen[to[a->arcs[k]]] = 1;
                q[qn++] = to[a->arcs[k]];
            }
    if (ok && qn != want)
        ok = 0;
    mpq_clear(s);
    free(in);
    free(q);
    free(reach);
    free(seen);
    return ok;
}

static void random_cost(mpq_ptr c, int kind)
{
    switch (kind) {
    case 0: /* few values: many ties */
        mpq_set_si(c, (long)rnd(3), 1);
        break;
    case 1: /* fractions of several denominators, signed */
        mpq_set_si(c, (long)rnd(21) - 10, (unsigned long)(1 + rnd(6)));
        mpq_canonicalize(c);
        break;
    default: /* beyond 2^60 after scaling: the mpz_t keys */
        mpz_set_ui(mpq_numref(c), 1);
        mpz_mul_2exp(mpq_numref(c), mpq_numref(c), 62 + (unsigned long)rnd(8));
        mpz_add_ui(mpq_numref(c), mpq_numref(c), rnd(3));
        mpz_set_ui(mpq_denref(c), 1 + rnd(3));
        if (rnd(2))
            mpq_neg(c, c);
        mpq_canonicalize(c);
        break;
    }
}

static void test_same_as_levels(void)
{
    enum { MAXN = 40, MAXM = 400 };
    size_t from[MAXM], to[MAXM];
    mpq_t cost[MAXM];
    for (size_t e = 0; e < MAXM; e++)
        mpq_init(cost[e]);
    size_t found_count = 0, differ = 0;
    for (int it = 0; it < 1500; it++) {
        size_t n = 1 + rnd(it < 1000 ? 8 : MAXN), m = rnd(n * n < MAXM ? n * n + 1 : MAXM);
        int kind = (int)rnd(3);
        for (size_t e = 0; e < m; e++) {
            from[e] = rnd(n);
            to[e] = rnd(n);
            random_cost(cost[e], kind);
        }
        size_t root = rnd(n);
        unsigned char req[MAXN];
        for (size_t v = 0; v < n; v++)
            req[v] = rnd(4) != 0;
        const unsigned char *rq = rnd(2) ? req : NULL;
        ssched_arborescence_t a, b;
        ssched_arborescence_init(&a);
        ssched_arborescence_init(&b);
        ssched_error_t err;
        int fa = -1, fb = -1;
        CU_ASSERT_EQUAL_FATAL(ssched_arborescence_min_cost(n, m, from, to, (const mpq_t *)cost,
                                                           root, rq, &fa, &a, &err), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_i_arborescence_min_cost_levels(n, m, from, to,
                                                                    (const mpq_t *)cost, root, rq,
                                                                    &fb, &b, &err), SSCHED_OK);
        CU_ASSERT_EQUAL(fa, fb);
        if (fa == 1) {
            found_count++;
            CU_ASSERT(is_arborescence(n, m, from, to, (const mpq_t *)cost, root, &a));
            CU_ASSERT(mpq_equal(a.weight, b.weight));
            int same = a.n_arcs == b.n_arcs;
            for (size_t k = 0; same && k < a.n_arcs; k++)
                same = a.arcs[k] == b.arcs[k];
            differ += !same;
        }
        ssched_arborescence_free(&a);
        ssched_arborescence_free(&b);
    }
    CU_ASSERT(found_count > 500);
    CU_ASSERT_EQUAL(differ, 0); /* the same tie rule: the same arcs */
    for (size_t e = 0; e < MAXM; e++)
        mpq_clear(cost[e]);
}

/* A long chain of 2-cycles nested level after level (each contraction
 * creates the next cycle): deep contraction forests. */
static void test_nested_cycles(void)
{
    enum { N = 200 };
    size_t from[4 * N], to[4 * N], m = 0;
    mpq_t cost[4 * N];
    for (size_t e = 0; e < 4 * N; e++)
        mpq_init(cost[e]);
    for (size_t v = 1; v + 1 < N; v++) { /* v <-> v+1 cheap, root -> v dearer with v */
        from[m] = v; to[m] = v + 1; mpq_set_ui(cost[m++], 1, 1);
        from[m] = v + 1; to[m] = v; mpq_set_ui(cost[m++], 1, 1);
    }
    for (size_t v = 1; v < N; v++) {
        from[m] = 0; to[m] = v; mpq_set_ui(cost[m++], 1000 + v, 1);
    }
    ssched_arborescence_t a, b;
    ssched_arborescence_init(&a);
    ssched_arborescence_init(&b);
    ssched_error_t err;
    int fa = 0, fb = 0;
    CU_ASSERT_EQUAL_FATAL(ssched_arborescence_min_cost(N, m, from, to, (const mpq_t *)cost, 0,
                                                       NULL, &fa, &a, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_i_arborescence_min_cost_levels(N, m, from, to,
                                                                (const mpq_t *)cost, 0, NULL, &fb,
                                                                &b, &err), SSCHED_OK);
    CU_ASSERT(fa == 1 && fb == 1);
    CU_ASSERT(is_arborescence(N, m, from, to, (const mpq_t *)cost, 0, &a));
    CU_ASSERT(mpq_cmp_si(a.weight, 1001 + N - 2, 1) == 0);
    CU_ASSERT(mpq_equal(a.weight, b.weight));
    ssched_arborescence_free(&a);
    ssched_arborescence_free(&b);
    for (size_t e = 0; e < 4 * N; e++)
        mpq_clear(cost[e]);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"O(m log n) = level-by-level, same arcs (1500 digraphs)", test_same_as_levels},
        {"nested 2-cycles", test_nested_cycles},
        {NULL, NULL}};
    return tu_main("arborescence_tarjan", tests);
}
