/* Tests of matching/: weighted bipartite edge colouring (RR-4872 §3.3). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching/internal.h"
#include "ssched/matching.h"
#include "test_util.h"

/* splitmix64: a fixed, portable stream so every run tests the same graphs. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t rng_below(uint64_t *s, size_t n)
{
    return (size_t)(rng_next(s) % n);
}

static void add(ssched_bipartite_t *g, size_t u, size_t v, unsigned long w)
{
    mpz_t z;
    mpz_init_set_ui(z, w);
    CU_ASSERT_EQUAL_FATAL(ssched_bipartite_add_edge(g, u, v, z, NULL, NULL), SSCHED_OK);
    mpz_clear(z);
}

/* Random multigraph: m edges, weights uniform in [1, 2^bits] (+ 2^offset_bits
 * if offset_bits > 0, to get weights beyond machine integers). */
static void random_graph(ssched_bipartite_t *g, size_t nl, size_t nr, size_t m, unsigned bits,
                         unsigned offset_bits, uint64_t seed)
{
    uint64_t s = seed;
    mpz_t w, t;
    mpz_init(w);
    mpz_init(t);
    ssched_bipartite_init(g, nl, nr);
    for (size_t i = 0; i < m; i++) {
        mpz_set_ui(w, 0);
        for (unsigned b = 0; b < bits; b += 32) {
            mpz_mul_2exp(w, w, 32);
            mpz_add_ui(w, w, (unsigned long)(rng_next(&s) & 0xffffffffu));
        }
        mpz_fdiv_r_2exp(w, w, bits);
        mpz_add_ui(w, w, 1);
        if (offset_bits) {
            mpz_ui_pow_ui(t, 2, offset_bits);
            mpz_add(w, w, t);
        }
        size_t u = rng_below(&s, nl), v = rng_below(&s, nr);
        CU_ASSERT_EQUAL_FATAL(ssched_bipartite_add_edge(g, u, v, w, NULL, NULL), SSCHED_OK);
    }
    mpz_clear(w);
    mpz_clear(t);
}

/* A checker written separately from verify.c, quadratic and naive: for every
 * matching, every two of its edges are disjoint; per-edge sums are exact. */
static int naive_check(const ssched_bipartite_t *g, const mpz_t T,
                       const ssched_matching_result_t *r)
{
    int ok = 1;
    mpz_t total, s;
    mpz_init(total);
    mpz_init(s);
    for (size_t i = 0; i < r->n_matchings; i++) {
        const ssched_matching_t *m = &r->matchings[i];
        if (mpz_sgn(m->lambda) <= 0)
            ok = 0;
        mpz_add(total, total, m->lambda);
        for (size_t a = 0; a < m->n_edges; a++)
            for (size_t b = a + 1; b < m->n_edges; b++) {
                const ssched_bipartite_edge_t *x = &g->edges[m->edges[a]];
                const ssched_bipartite_edge_t *y = &g->edges[m->edges[b]];
                if (x->left == y->left || x->right == y->right)
                    ok = 0;
            }
    }
    for (size_t e = 0; e < g->n_edges; e++) {
        mpz_set_ui(s, 0);
        for (size_t i = 0; i < r->n_matchings; i++)
            for (size_t a = 0; a < r->matchings[i].n_edges; a++)
                if (r->matchings[i].edges[a] == e)
                    mpz_add(s, s, r->matchings[i].lambda);
        if (mpz_cmp(s, g->edges[e].weight) != 0)
            ok = 0;
    }
    if (mpz_cmp(total, T) > 0 || mpz_cmp(total, r->total) != 0)
        ok = 0;
    mpz_clear(total);
    mpz_clear(s);
    return ok;
}

/* Decompose with both rules and check everything checkable. */
/* The checker's verdict on r: 1 valid, 0 invalid (rep, if not NULL, says
 * why), -1 if it could not check. */
static int verdict(const ssched_bipartite_t *g, const mpz_t T, const ssched_matching_result_t *r,
                   ssched_check_report_t *rep)
{
    ssched_check_report_t own;
    ssched_error_t err;
    if (!rep)
        rep = &own;
    if (ssched_matching_check(g, T, r, rep, &err) != SSCHED_OK)
        return -1;
    return rep->valid;
}

static void decompose_and_check(const ssched_bipartite_t *g, const mpz_t T, size_t *r_out)
{
    mpz_t D;
    mpz_init(D);
    CU_ASSERT_EQUAL_FATAL(ssched_bipartite_max_degree(g, D, NULL), SSCHED_OK);
    for (int rule = 0; rule < 2; rule++) {
        ssched_matching_result_t r;
        ssched_error_t err;
        ssched_matching_result_init(&r);
        ssched_status_t st =
            ssched_matching_decompose(g, T, (ssched_matching_rule_t)rule, &r, &err);
        CU_ASSERT_EQUAL(st, SSCHED_OK);
        if (st != SSCHED_OK)
            fprintf(stderr, "decompose: %s\n", err.message);
        CU_ASSERT_EQUAL(verdict(g, T, &r, NULL), 1);
        CU_ASSERT(naive_check(g, T, &r));
        CU_ASSERT(mpz_cmp(r.total, D) == 0); /* Σλ = D: optimal length */
        CU_ASSERT(r.n_matchings <= r.bound);
        CU_ASSERT(r.rounds <= r.padded_edges - r.padded_nodes + 1 || g->n_edges == 0);
        CU_ASSERT_EQUAL(r.rule, (ssched_matching_rule_t)rule);
        if (r_out)
            r_out[rule] = r.n_matchings;
        ssched_matching_result_free(&r);
    }
    mpz_clear(D);
}

static void test_empty_and_single(void)
{
    ssched_bipartite_t g;
    ssched_matching_result_t r;
    mpz_t T;
    mpz_init_set_ui(T, 5);
    ssched_bipartite_init(&g, 3, 2);
    ssched_matching_result_init(&r);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, NULL),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(r.n_matchings, 0);
    CU_ASSERT_EQUAL(mpz_sgn(r.total), 0);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, NULL), 1);

    add(&g, 2, 1, 4);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, NULL),
                    SSCHED_OK); /* the result is reused: reset first */
    CU_ASSERT_EQUAL_FATAL(r.n_matchings, 1);
    CU_ASSERT_EQUAL(mpz_get_ui(r.matchings[0].lambda), 4);
    CU_ASSERT_EQUAL(r.matchings[0].n_edges, 1);
    CU_ASSERT_EQUAL(r.matchings[0].edges[0], 0);
    CU_ASSERT_EQUAL(r.padded_nodes, 1);
    CU_ASSERT_EQUAL(r.slack_edges, 0);
    CU_ASSERT_EQUAL(r.bound, 1);
    ssched_matching_result_free(&r);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

/* Parallel edges on one link (several message types) must be serialised:
 * one step per edge, in the caller's indices, Σλ = the link's load. */
static void test_parallel_edges(void)
{
    ssched_bipartite_t g;
    ssched_matching_result_t r;
    mpz_t T;
    mpz_init_set_ui(T, 100);
    ssched_bipartite_init(&g, 1, 1);
    add(&g, 0, 0, 3);
    add(&g, 0, 0, 5);
    add(&g, 0, 0, 7);
    ssched_matching_result_init(&r);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, NULL),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(r.n_matchings, 3);
    CU_ASSERT_EQUAL(mpz_get_ui(r.total), 15);
    CU_ASSERT_EQUAL(r.bound, 3);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, NULL), 1);
    ssched_matching_result_free(&r);
    decompose_and_check(&g, T, NULL);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

/* Two disjoint transfers run in parallel; merging the senders would
 * serialise them (see regularize.c).  One step, total = D = 2. */
static void test_disjoint_in_parallel(void)
{
    ssched_bipartite_t g;
    ssched_matching_result_t r;
    mpz_t T;
    mpz_init_set_ui(T, 2);
    ssched_bipartite_init(&g, 2, 2);
    add(&g, 0, 0, 1);
    add(&g, 1, 1, 2);
    ssched_matching_result_init(&r);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, NULL),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(r.n_matchings, 2); /* {0,1} for 1 unit, {1} for 1 unit */
    CU_ASSERT_EQUAL(mpz_get_ui(r.total), 2);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, NULL), 1);
    ssched_matching_result_free(&r);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

/* The shape of the RR-4872 §3.2-3.3 toy scatter: source s, relays a and b,
 * targets 0 and 1, period 12, six messages per target, m0 split between the
 * routes via a and via b, and two message types on the link s -> b (parallel
 * edges).  The report's figure numbers are not in the seed text, so this
 * instance was rebuilt from the LP of §3.1 with c(s,a) = c(s,b) = c(b,0) =
 * c(b,1) = 1 and c(a,0) = 3: x = 3 messages m0 go via b.
 * Senders s=0, a=1, b=2; receivers a=0, b=1, P0=2, P1=3. */
static void test_rr4872_toy(void)
{
    ssched_bipartite_t g;
    mpz_t T;
    mpz_init_set_ui(T, 12);
    ssched_bipartite_init(&g, 3, 4);
    add(&g, 0, 0, 3); /* 0: s -> a, 3 x m0            */
    add(&g, 0, 1, 3); /* 1: s -> b, 3 x m0            */
    add(&g, 0, 1, 6); /* 2: s -> b, 6 x m1            */
    add(&g, 1, 2, 9); /* 3: a -> P0, 3 x m0, c = 3    */
    add(&g, 2, 2, 3); /* 4: b -> P0, 3 x m0           */
    add(&g, 2, 3, 6); /* 5: b -> P1, 6 x m1           */
    size_t r[2];
    decompose_and_check(&g, T, r);
    /* The report decomposes its instance into four matchings. */
    CU_ASSERT(r[SSCHED_MATCHING_BOTTLENECK] <= 4);

    ssched_matching_result_t res;
    ssched_matching_result_init(&res);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &res, NULL),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(mpz_get_ui(res.total), 12); /* s and P0 are saturated */
    /* Edge 3 (a -> P0, 9 units) and edge 5 (b -> P1) share no endpoint
     * with each other; every step keeps s busy (degree 12 = D). */
    for (size_t i = 0; i < res.n_matchings; i++) {
        int s_busy = 0;
        for (size_t j = 0; j < res.matchings[i].n_edges; j++)
            s_busy |= g.edges[res.matchings[i].edges[j]].left == 0;
        CU_ASSERT(s_busy);
    }
    ssched_matching_result_free(&res);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

static void test_random_small_weights(void)
{
    static const size_t sizes[][3] = {{1, 1, 4},   {2, 3, 5},    {3, 3, 9},    {4, 2, 12},
                                      {5, 5, 25},  {8, 6, 30},   {10, 10, 60}, {16, 16, 200},
                                      {7, 20, 80}, {30, 30, 400}};
    mpz_t T;
    mpz_init(T);
    size_t total_r[2] = {0, 0};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (uint64_t seed = 1; seed <= 5; seed++) {
            ssched_bipartite_t g;
            random_graph(&g, sizes[k][0], sizes[k][1], sizes[k][2], 6, 0, seed * 7919 + k);
            CU_ASSERT_EQUAL(ssched_bipartite_max_degree(&g, T, NULL), SSCHED_OK);
            if (seed % 2)
                mpz_add_ui(T, T, seed); /* T above D is allowed */
            size_t r[2];
            decompose_and_check(&g, T, r);
            total_r[0] += r[0];
            total_r[1] += r[1];
            ssched_bipartite_free(&g);
        }
    fprintf(stderr, "\n  random small: total r bottleneck %zu, arbitrary %zu\n", total_r[0],
            total_r[1]);
    mpz_clear(T);
}

static void test_random_huge_weights(void)
{
    mpz_t T, two80;
    mpz_init(T);
    mpz_init(two80);
    mpz_ui_pow_ui(two80, 2, 80);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        ssched_bipartite_t g;
        size_t n = 3 + seed * 2;
        /* 100-bit weights all above 2^80, and a mix with small weights. */
        random_graph(&g, n, n + 1, n * 4, 100, seed % 2 ? 81 : 0, seed * 104729);
        add(&g, 0, 0, 1);
        CU_ASSERT_EQUAL(ssched_bipartite_max_degree(&g, T, NULL), SSCHED_OK);
        CU_ASSERT(mpz_cmp(T, two80) > 0);
        decompose_and_check(&g, T, NULL);
        ssched_bipartite_free(&g);
    }
    mpz_clear(T);
    mpz_clear(two80);
}

/* Weights like an LCM period produces: rates p/q with small q, scaled by the
 * LCM of the q's, so weights share large common factors. */
static void test_lcm_weights(void)
{
    uint64_t s = 42;
    ssched_bipartite_t g;
    mpz_t L, w, T;
    mpz_init_set_ui(L, 1);
    mpz_init(w);
    mpz_init(T);
    size_t m = 40;
    unsigned long num[40], den[40];
    for (size_t i = 0; i < m; i++) {
        den[i] = 1 + rng_below(&s, 60);
        num[i] = 1 + rng_below(&s, 3 * den[i]);
        mpz_lcm_ui(L, L, den[i]);
    }
    ssched_bipartite_init(&g, 8, 8);
    for (size_t i = 0; i < m; i++) {
        mpz_divexact_ui(w, L, den[i]);
        mpz_mul_ui(w, w, num[i]);
        CU_ASSERT_EQUAL(
            ssched_bipartite_add_edge(&g, rng_below(&s, 8), rng_below(&s, 8), w, NULL, NULL),
            SSCHED_OK);
    }
    CU_ASSERT_EQUAL(ssched_bipartite_max_degree(&g, T, NULL), SSCHED_OK);
    decompose_and_check(&g, T, NULL);
    ssched_bipartite_free(&g);
    mpz_clear(L);
    mpz_clear(w);
    mpz_clear(T);
}

/* Brute force on tiny graphs: the bottleneck search returns a perfect
 * matching whose minimum weight equals the best over all n! perfect
 * matchings of the padded graph. */
static size_t brute_best_rank(const mt_padded_t *pg, const size_t *rank, size_t *perm, size_t k,
                              size_t n, size_t worst)
{
    if (k == n)
        return worst;
    size_t best = MT_NONE;
    for (size_t i = k; i < n; i++) {
        size_t t = perm[k];
        perm[k] = perm[i];
        perm[i] = t;
        /* rank of the pair (k, perm[k]) if it exists */
        size_t rk = MT_NONE;
        for (size_t p = 0; p < pg->n_pairs; p++)
            if (pg->pu[p] == k && pg->pv[p] == perm[k])
                rk = rank[p];
        if (rk != MT_NONE) {
            size_t c = brute_best_rank(pg, rank, perm, k + 1, n, rk > worst ? rk : worst);
            if (c < best)
                best = c;
        }
        t = perm[k];
        perm[k] = perm[i];
        perm[i] = t;
    }
    return best;
}

static void test_bottleneck_bruteforce(void)
{
    for (uint64_t seed = 1; seed <= 60; seed++) {
        uint64_t s = seed;
        ssched_bipartite_t g;
        size_t nl = 1 + rng_below(&s, 5), nr = 1 + rng_below(&s, 5);
        random_graph(&g, nl, nr, 1 + rng_below(&s, 12), 5, 0, seed * 31);
        mpz_t D;
        mpz_init(D);
        CU_ASSERT_EQUAL_FATAL(ssched_bipartite_max_degree(&g, D, NULL), SSCHED_OK);
        mt_padded_t pg;
        CU_ASSERT_EQUAL_FATAL(ssched_i_mt_regularize(&g, D, &pg, NULL), SSCHED_OK);
        CU_ASSERT(pg.n <= (nl > nr ? nl : nr));
        mt_hk_t h;
        CU_ASSERT_EQUAL_FATAL(ssched_i_mt_hk_init(&h, &pg), SSCHED_OK);
        size_t *order = malloc(pg.n_pairs * sizeof *order);
        size_t *tmp = malloc(pg.n_pairs * sizeof *tmp);
        for (size_t p = 0; p < pg.n_pairs; p++)
            order[p] = p;
        ssched_i_mt_sort_by_mpz(order, pg.n_pairs, (const mpz_t *)pg.w, 1, tmp);
        size_t groups = 0;
        for (size_t i = 0; i < pg.n_pairs; i++) {
            if (i > 0 && mpz_cmp(pg.w[order[i]], pg.w[order[i - 1]]) != 0)
                groups++;
            h.rank[order[i]] = groups;
        }
        groups++;
        /* every padded node has degree D */
        mpz_t deg;
        mpz_init(deg);
        for (size_t x = 0; x < pg.n; x++) {
            mpz_set_ui(deg, 0);
            for (size_t p = 0; p < pg.n_pairs; p++)
                if (pg.pu[p] == x)
                    mpz_add(deg, deg, pg.w[p]);
            CU_ASSERT(mpz_cmp(deg, D) == 0);
            mpz_set_ui(deg, 0);
            for (size_t p = 0; p < pg.n_pairs; p++)
                if (pg.pv[p] == x)
                    mpz_add(deg, deg, pg.w[p]);
            CU_ASSERT(mpz_cmp(deg, D) == 0);
        }
        mpz_clear(deg);
        CU_ASSERT_EQUAL_FATAL(ssched_i_mt_bottleneck_perfect(&h, groups), 0);
        size_t worst = 0;
        for (size_t u = 0; u < pg.n; u++) {
            CU_ASSERT_FATAL(h.mate_l[u] != MT_NONE);
            CU_ASSERT_EQUAL(pg.pu[h.mate_l[u]], u);
            CU_ASSERT_EQUAL(h.mate_r[pg.pv[h.mate_l[u]]], h.mate_l[u]);
            if (h.rank[h.mate_l[u]] > worst)
                worst = h.rank[h.mate_l[u]];
        }
        size_t perm[8];
        for (size_t i = 0; i < pg.n; i++)
            perm[i] = i;
        CU_ASSERT_EQUAL(worst, brute_best_rank(&pg, h.rank, perm, 0, pg.n, 0));
        free(order);
        free(tmp);
        ssched_i_mt_hk_free(&h);
        ssched_i_mt_padded_free(&pg);
        decompose_and_check(&g, D, NULL);
        mpz_clear(D);
        ssched_bipartite_free(&g);
    }
}

/* On tiny graphs, the minimum number of steps of ANY decomposition is at
 * least the largest number of edges at one node... and ours never exceeds
 * the proven bound; for a graph that is itself one matching, r = #distinct
 * weights (one step per weight level, bottleneck rule). */
static void test_single_matching_graph(void)
{
    ssched_bipartite_t g;
    ssched_matching_result_t r;
    mpz_t T;
    mpz_init_set_ui(T, 10);
    ssched_bipartite_init(&g, 4, 4);
    add(&g, 0, 0, 10);
    add(&g, 1, 1, 10);
    add(&g, 2, 2, 6);
    add(&g, 3, 3, 3);
    ssched_matching_result_init(&r);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, NULL),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(r.n_matchings, 3); /* 3 units all, 3 more without e3, 4 more */
    CU_ASSERT_EQUAL(verdict(&g, T, &r, NULL), 1);
    ssched_matching_result_free(&r);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

static void test_bad_input(void)
{
    ssched_bipartite_t g;
    ssched_matching_result_t r;
    ssched_error_t err;
    ssched_check_report_t rep;
    mpz_t T, w;
    mpz_init_set_ui(T, 5);
    mpz_init_set_ui(w, 0);
    ssched_bipartite_init(&g, 2, 2);
    ssched_matching_result_init(&r);

    CU_ASSERT_EQUAL(ssched_bipartite_add_edge(&g, 0, 0, w, NULL, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not positive"));
    mpz_set_si(w, -3);
    CU_ASSERT_EQUAL(ssched_bipartite_add_edge(&g, 0, 0, w, NULL, &err), SSCHED_EINPUT);
    mpz_set_ui(w, 3);
    CU_ASSERT_EQUAL(ssched_bipartite_add_edge(&g, 2, 0, w, NULL, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "sender 2 out of range"));
    CU_ASSERT_EQUAL(ssched_bipartite_add_edge(&g, 0, 7, w, NULL, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "receiver 7 out of range"));
    CU_ASSERT_EQUAL(g.n_edges, 0);

    /* degree > T names the node and its degree */
    add(&g, 0, 1, 3);
    add(&g, 1, 1, 4);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, &err),
                    SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "receiver 1 has weighted degree 7 > bound T = 5"));
    CU_ASSERT_EQUAL(r.n_matchings, 0);
    mpz_set_si(T, -1);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, &err),
                    SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "negative"));
    mpz_set_ui(T, 7);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, (ssched_matching_rule_t)9, &r, &err),
                    SSCHED_EINPUT);

    /* the struct is public: decompose re-checks what add_edge enforces */
    mpz_set_ui(g.edges[0].weight, 0);
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, &err),
                    SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "edge 0"));
    mpz_set_ui(g.edges[0].weight, 3);
    g.edges[1].left = 5;
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_ARBITRARY, &r, &err),
                    SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "edge 1: sender 5 out of range"));
    CU_ASSERT_EQUAL(ssched_matching_check(&g, T, &r, &rep, &err), SSCHED_EINPUT);
    g.edges[1].left = 1;
    CU_ASSERT_EQUAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_ARBITRARY, &r, &err),
                    SSCHED_OK);

    ssched_matching_result_free(&r);
    ssched_bipartite_free(&g);
    mpz_clear(T);
    mpz_clear(w);
}

/* The checker must reject each kind of broken decomposition. */
static void test_verify_rejects(void)
{
    ssched_bipartite_t g;
    ssched_matching_result_t r;
    ssched_error_t err;
    ssched_check_report_t rep;
    mpz_t T;
    mpz_init_set_ui(T, 10);
    random_graph(&g, 4, 4, 12, 3, 0, 99);
    CU_ASSERT_EQUAL_FATAL(ssched_bipartite_max_degree(&g, T, NULL), SSCHED_OK);
    ssched_matching_result_init(&r);
    CU_ASSERT_EQUAL_FATAL(ssched_matching_decompose(&g, T, SSCHED_MATCHING_BOTTLENECK, &r, NULL),
                          SSCHED_OK);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, NULL), 1);
    CU_ASSERT_FATAL(r.n_matchings >= 2);
    ssched_matching_t *m0 = &r.matchings[0];

    /* a wrong length breaks the exact sums */
    mpz_add_ui(m0->lambda, m0->lambda, 1);
    mpz_add_ui(r.total, r.total, 1);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, &rep), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, "weight"));
    mpz_sub_ui(m0->lambda, m0->lambda, 1);
    mpz_sub_ui(r.total, r.total, 1);

    /* a wrong reported total */
    mpz_add_ui(r.total, r.total, 1);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, &rep), 0);
    mpz_sub_ui(r.total, r.total, 1);

    /* zero length */
    mpz_t keep;
    mpz_init_set(keep, m0->lambda);
    mpz_set_ui(m0->lambda, 0);
    CU_ASSERT_EQUAL(verdict(&g, T, &r, &rep), 0);
    mpz_set(m0->lambda, keep);
    mpz_clear(keep);

    /* an edge index out of range */
    size_t e0 = m0->edges[0];
    m0->edges[0] = g.n_edges + 3;
    CU_ASSERT_EQUAL(verdict(&g, T, &r, &rep), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, "lists edge"));
    m0->edges[0] = e0;

    /* the same sender twice in one step: add an edge sharing the sender */
    size_t other = MT_NONE;
    for (size_t e = 0; e < g.n_edges; e++)
        if (e != e0 && g.edges[e].left == g.edges[e0].left)
            other = e;
    if (other != MT_NONE) {
        size_t *grown = realloc(m0->edges, (m0->n_edges + 1) * sizeof *grown);
        CU_ASSERT_PTR_NOT_NULL_FATAL(grown);
        m0->edges = grown;
        m0->edges[m0->n_edges++] = other;
        CU_ASSERT_EQUAL(verdict(&g, T, &r, &rep), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, "twice"));
        m0->n_edges--;
    }
    /* Σλ > T */
    mpz_sub_ui(T, r.total, 1);
    CU_ASSERT_EQUAL(ssched_matching_check(&g, T, &r, &rep, &err), SSCHED_EINPUT); /* T < D */
    mpz_set(T, r.total);
    /* a dropped step */
    r.n_matchings--;
    CU_ASSERT_EQUAL(verdict(&g, T, &r, &rep), 0);
    r.n_matchings++;
    CU_ASSERT_EQUAL(verdict(&g, T, &r, NULL), 1);

    ssched_matching_result_free(&r);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

/* Degenerate shapes: isolated nodes, unbalanced sides, a star. */
static void test_shapes(void)
{
    mpz_t T;
    mpz_init(T);
    ssched_bipartite_t g;
    /* star: one sender to 6 receivers -> 6 sequential steps */
    ssched_bipartite_init(&g, 3, 9);
    for (size_t v = 0; v < 6; v++)
        add(&g, 1, v + 2, v + 1);
    CU_ASSERT_EQUAL(ssched_bipartite_max_degree(&g, T, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(mpz_get_ui(T), 21);
    size_t r[2];
    decompose_and_check(&g, T, r);
    CU_ASSERT_EQUAL(r[0], 6);
    CU_ASSERT_EQUAL(r[1], 6);
    ssched_bipartite_free(&g);
    /* complete 5x5 with equal weights: exactly 5 perfect matchings */
    ssched_bipartite_init(&g, 5, 5);
    for (size_t u = 0; u < 5; u++)
        for (size_t v = 0; v < 5; v++)
            add(&g, u, v, 2);
    mpz_set_ui(T, 10);
    decompose_and_check(&g, T, r);
    CU_ASSERT_EQUAL(r[0], 5);
    CU_ASSERT_EQUAL(r[1], 5);
    ssched_bipartite_free(&g);
    mpz_clear(T);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"empty graph and single edge", test_empty_and_single},
        {"parallel edges are serialised", test_parallel_edges},
        {"disjoint transfers run in parallel", test_disjoint_in_parallel},
        {"RR-4872 toy scatter (shape of Fig. 3)", test_rr4872_toy},
        {"random multigraphs, small weights", test_random_small_weights},
        {"random multigraphs, weights > 2^80", test_random_huge_weights},
        {"LCM-period weights", test_lcm_weights},
        {"bottleneck = brute force on tiny graphs", test_bottleneck_bruteforce},
        {"one matching with 3 weight levels", test_single_matching_graph},
        {"bad input", test_bad_input},
        {"verify rejects broken decompositions", test_verify_rejects},
        {"stars and complete graphs", test_shapes},
        {NULL, NULL}};
    return tu_main("matching", tests);
}
