/* Brute force against every makespan algorithm on small clusters:
 * reduce over all EP sender orders (seed 000 §3) and over all reduction
 * trees, broadcast over all no-idle broadcast trees; plus the two published
 * counterexamples (seed 000 Fig. 8, seed 002 Fig. 2).  The brute forces are
 * written independently of the library (own EP, own tree enumeration). */
#include <stdlib.h>
#include <string.h>

#include "ssched/makespan.h"
#define MK_RNG_SEED 0x9e3779b97f4a7c15ULL /* rnd() */
#include "mk_test_util.h"

/* ----------------------------------------------------------- utilities */


/* A random cluster of n processors: times from a pool of `classes` random
 * rationals (classes = 0: all independent). */
static void random_cluster(ssched_mk_cluster_t *c, size_t n, unsigned classes)
{
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_init(c, n, &err) == SSCHED_OK);
    static const unsigned den[] = {1, 2, 3, 4, 5, 7};
    unsigned pn[8], pd[8];
    for (unsigned i = 0; i < 8; i++) {
        pn[i] = 2 + rnd(20);
        pd[i] = den[rnd(6)];
    }
    for (size_t p = 0; p < n; p++) {
        unsigned i = classes ? rnd(classes) : rnd(8);
        mpq_set_ui(c->time[p], pn[i], pd[i]);
        mpq_canonicalize(c->time[p]);
    }
}

/* ------------------------------------------------- independent reduce EP */

/* EP of seed 000 Fig. 2 on sender times t[0..m) for n = m+1 processors. */
static void local_ep(mpq_t *t, size_t m, mpq_t out)
{
    size_t n = m + 1, free_count = n, i = 0;
    mpq_t *end = malloc((m + 1) * sizeof *end), now, min;
    char *active = calloc(m + 1, 1);
    mpq_inits(now, min, NULL);
    for (size_t v = 0; v < m; v++)
        mpq_init(end[v]);
    mpq_set_ui(out, 0, 1);
    while (i < m) {
        while (free_count >= 2 && i < m) {
            mpq_add(end[i], now, t[i]);
            if (mpq_cmp(end[i], out) > 0)
                mpq_set(out, end[i]);
            active[i++] = 1;
            free_count -= 2;
        }
        if (i == m)
            break;
        int have = 0;
        for (size_t v = 0; v < i; v++)
            if (active[v] && (!have || mpq_cmp(end[v], min) < 0)) {
                mpq_set(min, end[v]);
                have = 1;
            }
        mpq_set(now, min);
        for (size_t v = 0; v < i; v++)
            if (active[v] && mpq_equal(end[v], min)) {
                active[v] = 0;
                free_count++;
            }
    }
    for (size_t v = 0; v < m; v++)
        mpq_clear(end[v]);
    mpq_clears(now, min, NULL);
    free(end);
    free(active);
}

/* min over all orders of the senders of EP; also checks the library's EP
 * (makespan and validity) on every order. */
static void brute_reduce_orders(const ssched_mk_cluster_t *c, size_t dest, mpq_t best)
{
    size_t m = c->n - 1;
    size_t *perm = malloc((m + 1) * sizeof *perm), *cnt = calloc(m + 1, sizeof *cnt);
    mpq_t *t = malloc((m + 1) * sizeof *t), v;
    mpq_init(v);
    for (size_t i = 0, p = 0; p < c->n; p++)
        if (p != dest)
            perm[i++] = p;
    for (size_t i = 0; i < m; i++)
        mpq_init(t[i]);
    int first = 1;
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    for (;;) { /* Heap's algorithm, iterative */
        for (size_t i = 0; i < m; i++)
            mpq_set(t[i], c->time[perm[i]]);
        local_ep(t, m, v);
        if (first || mpq_cmp(v, best) < 0)
            mpq_set(best, v);
        first = 0;
        ssched_error_t err;
        CU_ASSERT(ssched_mk_reduce_ep(c, dest, perm, &s, &err) == SSCHED_OK);
        CU_ASSERT(mpq_equal(s.makespan, v));
        assert_valid(c, &s);
        size_t i = 1;
        while (i < m && cnt[i] >= i) {
            cnt[i] = 0;
            i++;
        }
        if (i >= m)
            break;
        size_t j = i % 2 ? cnt[i] : 0, x = perm[j];
        perm[j] = perm[i];
        perm[i] = x;
        cnt[i]++;
    }
    if (m == 0)
        mpq_set_ui(best, 0, 1);
    ssched_mk_schedule_free(&s);
    for (size_t i = 0; i < m; i++)
        mpq_clear(t[i]);
    mpq_clear(v);
    free(t);
    free(perm);
    free(cnt);
}

/* Minimum critical path over ALL binary reduction trees (any node may be
 * the root, no ordering assumed), by subsets of senders. */
static void brute_reduce_trees(const ssched_mk_cluster_t *c, size_t dest, mpq_t best)
{
    size_t m = c->n - 1, full = ((size_t)1 << m) - 1;
    size_t *who = malloc((m + 1) * sizeof *who);
    for (size_t i = 0, p = 0; p < c->n; p++)
        if (p != dest)
            who[i++] = p;
    mpq_t *T = malloc((full + 1) * sizeof *T), v;
    mpq_init(v);
    for (size_t s = 0; s <= full; s++)
        mpq_init(T[s]);
    for (size_t s = 1; s <= full; s++) {
        int have = 0;
        for (size_t r = 0; r < m; r++) {
            if (!(s >> r & 1))
                continue;
            size_t rest = s & ~((size_t)1 << r);
            for (size_t L = rest;; L = (L - 1) & rest) { /* every split of rest */
                size_t R = rest & ~L;
                mpq_set(v, mpq_cmp(T[L], T[R]) >= 0 ? T[L] : T[R]);
                mpq_add(v, v, c->time[who[r]]);
                if (!have || mpq_cmp(v, T[s]) < 0) {
                    mpq_set(T[s], v);
                    have = 1;
                }
                if (L == 0)
                    break;
            }
        }
    }
    mpq_set(best, T[full]);
    for (size_t s = 0; s <= full; s++)
        mpq_clear(T[s]);
    mpq_clear(v);
    free(T);
    free(who);
}

/* ---------------------------------------------- independent broadcast */

typedef struct {
    const ssched_mk_cluster_t *c;
    mpq_t *free_at; /* informed processors: time their port is free */
    char *informed;
    mpq_t best;
    int have;
} bb_t;

/* Every no-idle broadcast tree: an informed processor sends its next
 * message as soon as its port is free, to any uninformed processor. */
static void brute_bcast_rec(bb_t *b, size_t left, const mpq_t makespan)
{
    if (b->have && mpq_cmp(makespan, b->best) >= 0)
        return; /* makespans only grow along a branch */
    if (left == 0) {
        mpq_set(b->best, makespan);
        b->have = 1;
        return;
    }
    size_t n = b->c->n;
    mpq_t arrive, save, mk;
    mpq_inits(arrive, save, mk, NULL);
    for (size_t p = 0; p < n; p++) {
        if (!b->informed[p])
            continue;
        mpq_add(arrive, b->free_at[p], b->c->time[p]);
        mpq_set(save, b->free_at[p]);
        for (size_t r = 0; r < n; r++) {
            if (b->informed[r])
                continue;
            b->informed[r] = 1;
            mpq_set(b->free_at[p], arrive);
            mpq_set(b->free_at[r], arrive);
            mpq_set(mk, mpq_cmp(arrive, makespan) > 0 ? arrive : makespan);
            brute_bcast_rec(b, left - 1, mk);
            b->informed[r] = 0;
            mpq_set(b->free_at[p], save);
        }
    }
    mpq_clears(arrive, save, mk, NULL);
}

static void brute_broadcast(const ssched_mk_cluster_t *c, size_t src, mpq_t best)
{
    bb_t b;
    b.c = c;
    b.free_at = malloc(c->n * sizeof(mpq_t));
    b.informed = calloc(c->n, 1);
    b.have = 0;
    mpq_init(b.best);
    for (size_t p = 0; p < c->n; p++)
        mpq_init(b.free_at[p]);
    b.informed[src] = 1;
    mpq_t zero;
    mpq_init(zero);
    brute_bcast_rec(&b, c->n - 1, zero);
    mpq_set(best, b.best);
    mpq_clear(zero);
    for (size_t p = 0; p < c->n; p++)
        mpq_clear(b.free_at[p]);
    mpq_clear(b.best);
    free(b.free_at);
    free(b.informed);
}

/* ------------------------------------------------------------- checks */

static int count_classes(const ssched_mk_cluster_t *c, size_t skip)
{
    int k = 0;
    for (size_t p = 0; p < c->n; p++) {
        if (p == skip)
            continue;
        int seen = 0;
        for (size_t q = 0; q < p && !seen; q++)
            seen = q != skip && mpq_equal(c->time[p], c->time[q]);
        k += !seen;
    }
    return k;
}

/* One collective's algorithms: the heuristic within twice the optimum
 * (reduce: SNF, seed 000 Theorem 2; broadcast: FNF, seed 002 Theorem 4.7),
 * the class-count program, branch-and-bound and the optimal choice. */
typedef struct {
    ssched_status_t (*heuristic)(const ssched_mk_cluster_t *c, size_t root,
                                 ssched_mk_schedule_t *out, ssched_error_t *err);
    ssched_status_t (*dpk)(const ssched_mk_cluster_t *c, size_t root, ssched_mk_schedule_t *out,
                           ssched_mk_stats_t *stats, ssched_error_t *err);
    ssched_status_t (*bnb)(const ssched_mk_cluster_t *c, size_t root,
                           const ssched_mk_bnb_options_t *opt, ssched_mk_schedule_t *out,
                           ssched_mk_stats_t *stats, ssched_error_t *err);
    ssched_status_t (*optimal)(const ssched_mk_cluster_t *c, size_t root,
                               ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                               ssched_error_t *err);
    int reduce; /* also the two-class programs, and every preset's search completes */
} mk_algorithms_t;

static const mk_algorithms_t reduce_algorithms = {ssched_mk_reduce_snf, ssched_mk_reduce_dpk,
                                                  ssched_mk_reduce_bnb, ssched_mk_reduce_optimal,
                                                  1};
static const mk_algorithms_t broadcast_algorithms = {
        ssched_mk_broadcast_fnf, ssched_mk_broadcast_dpk, ssched_mk_broadcast_bnb,
        ssched_mk_broadcast_optimal, 0};

/* Every algorithm of a against opt from root; returns the number of
 * mismatches. */
static int check_algorithms(const mk_algorithms_t *a, const ssched_mk_cluster_t *c, size_t root,
                            const mpq_t opt)
{
    int bad = 0;
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t stats;
    mpq_t twice;
    mpq_init(twice);

    CU_ASSERT(a->heuristic(c, root, &s, &err) == SSCHED_OK);
    assert_valid(c, &s);
    mpq_add(twice, opt, opt);
    bad += mpq_cmp(s.makespan, opt) < 0 || mpq_cmp(s.makespan, twice) > 0;

    if (a->reduce && count_classes(c, root) <= 2)
        for (int v = SSCHED_MK_DP2_NAIVE; v <= SSCHED_MK_DP2_MONO_SF; v++) {
            CU_ASSERT(ssched_mk_reduce_dp2(c, root, (ssched_mk_dp2_variant_t)v, &s, &stats, &err) == SSCHED_OK);
            assert_valid(c, &s);
            bad += !mpq_equal(s.makespan, opt);
        }
    CU_ASSERT(a->dpk(c, root, &s, &stats, &err) == SSCHED_OK);
    assert_valid(c, &s);
    bad += !mpq_equal(s.makespan, opt);
    for (int p = SSCHED_MK_BNB_GENERIC; p <= SSCHED_MK_BNB_FULL; p++) {
        ssched_mk_bnb_options_t o;
        ssched_mk_bnb_options(&o, (ssched_mk_bnb_preset_t)p);
        CU_ASSERT(a->bnb(c, root, &o, &s, &stats, &err) == SSCHED_OK);
        assert_valid(c, &s);
        bad += !mpq_equal(s.makespan, opt);
        if (a->reduce)
            CU_ASSERT(stats.complete == 1);
    }
    /* each technique alone must stay exact too */
    for (int bit = 0; bit < 4; bit++) {
        ssched_mk_bnb_options_t o;
        mk_bnb_one_technique(&o, bit);
        CU_ASSERT(a->bnb(c, root, &o, &s, &stats, &err) == SSCHED_OK);
        bad += !mpq_equal(s.makespan, opt);
    }
    CU_ASSERT(a->optimal(c, root, &s, &stats, &err) == SSCHED_OK);
    assert_valid(c, &s);
    bad += !mpq_equal(s.makespan, opt);
    mpq_clear(twice);
    ssched_mk_schedule_free(&s);
    return bad;
}

static int check_reduce_algorithms(const ssched_mk_cluster_t *c, size_t dest, const mpq_t opt)
{
    return check_algorithms(&reduce_algorithms, c, dest, opt);
}

static int check_broadcast_algorithms(const ssched_mk_cluster_t *c, size_t src, const mpq_t opt)
{
    return check_algorithms(&broadcast_algorithms, c, src, opt);
}

/* --------------------------------------------------------------- tests */

static void test_reduce_vs_brute(void)
{
    mpq_t by_orders, by_trees;
    mpq_inits(by_orders, by_trees, NULL);
    int bad = 0, cases = 0;
    for (int it = 0; it < 220; it++) {
        size_t n = 1 + rnd(8); /* up to 7 senders: 5040 EP orders */
        ssched_mk_cluster_t c;
        random_cluster(&c, n, it % 3 == 0 ? 0 : 1 + rnd(3));
        size_t dest = rnd((unsigned)n);
        brute_reduce_orders(&c, dest, by_orders);
        brute_reduce_trees(&c, dest, by_trees);
        /* EP normal form (§3) loses nothing: best order = best tree */
        CU_ASSERT(mpq_equal(by_orders, by_trees));
        int b = check_reduce_algorithms(&c, dest, by_orders);
        if (b) {
            fprintf(stderr, "reduce mismatch (n=%zu dest=%zu):", n, dest);
            for (size_t p = 0; p < n; p++)
                gmp_fprintf(stderr, " %Qd", c.time[p]);
            fprintf(stderr, "\n");
        }
        bad += b;
        cases++;
        ssched_mk_cluster_free(&c);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(cases == 220);
    mpq_clears(by_orders, by_trees, NULL);
}

static void test_reduce_trees_larger(void)
{
    /* 8-9 senders: tree brute force only (orders would be 9! EP runs). */
    mpq_t opt;
    mpq_init(opt);
    int bad = 0;
    for (int it = 0; it < 25; it++) {
        size_t n = 9 + rnd(2);
        ssched_mk_cluster_t c;
        random_cluster(&c, n, 2 + rnd(2));
        size_t dest = rnd((unsigned)n);
        brute_reduce_trees(&c, dest, opt);
        bad += check_reduce_algorithms(&c, dest, opt);
        ssched_mk_cluster_free(&c);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpq_clear(opt);
}

static void test_broadcast_vs_brute(void)
{
    mpq_t opt, v;
    mpq_inits(opt, v, NULL);
    int bad = 0;
    for (int it = 0; it < 160; it++) {
        size_t n = 1 + rnd(it < 140 ? 6 : 7); /* a few with 7 processors */
        ssched_mk_cluster_t c;
        random_cluster(&c, n, it % 4 == 0 ? 0 : 1 + rnd(3));
        size_t src = rnd((unsigned)n);
        brute_broadcast(&c, src, opt);
        int b = check_broadcast_algorithms(&c, src, opt);
        /* seed 002 eq. (1): the best receive order reaches the optimum */
        if (n <= 6) {
            size_t m = n - 1, perm[8], cnt[8] = {0};
            for (size_t i = 0, p = 0; p < n; p++)
                if (p != src)
                    perm[i++] = p;
            ssched_mk_schedule_t s;
            ssched_mk_schedule_init(&s);
            int first = 1;
            for (;;) {
                ssched_error_t err;
                CU_ASSERT(ssched_mk_broadcast_sequence(&c, src, perm, &s, &err) == SSCHED_OK);
                assert_valid(&c, &s);
                if (first || mpq_cmp(s.makespan, v) < 0)
                    mpq_set(v, s.makespan);
                first = 0;
                size_t i = 1;
                while (i < m && cnt[i] >= i)
                    cnt[i++] = 0;
                if (i >= m)
                    break;
                size_t j = i % 2 ? cnt[i] : 0, x = perm[j];
                perm[j] = perm[i];
                perm[i] = x;
                cnt[i]++;
            }
            b += !mpq_equal(v, opt);
            ssched_mk_schedule_free(&s);
        }
        if (b) {
            fprintf(stderr, "broadcast mismatch (n=%zu src=%zu):", n, src);
            for (size_t p = 0; p < n; p++)
                gmp_fprintf(stderr, " %Qd", c.time[p]);
            fprintf(stderr, "\n");
        }
        bad += b;
        ssched_mk_cluster_free(&c);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpq_clears(opt, v, NULL);
}

static void test_allreduce_vs_brute(void)
{
    mpq_t best, r, b, sum;
    mpq_inits(best, r, b, sum, NULL);
    for (int it = 0; it < 40; it++) {
        size_t n = 2 + rnd(5);
        ssched_mk_cluster_t c;
        random_cluster(&c, n, 1 + rnd(3));
        for (size_t h = 0; h < n; h++) {
            brute_reduce_trees(&c, h, r);
            brute_broadcast(&c, h, b);
            mpq_add(sum, r, b);
            if (h == 0 || mpq_cmp(sum, best) < 0)
                mpq_set(best, sum);
        }
        ssched_mk_schedule_t s;
        ssched_mk_schedule_init(&s);
        ssched_error_t err;
        CU_ASSERT(ssched_mk_allreduce(&c, SSCHED_MK_ANY_ROOT, SSCHED_MK_ALLREDUCE_OPTIMAL, &s, &err) == SSCHED_OK);
        assert_valid(&c, &s);
        CU_ASSERT(mpq_equal(s.makespan, best));
        /* optimal with a fixed hub = optimal reduce + optimal broadcast there */
        size_t h = rnd((unsigned)n);
        CU_ASSERT(ssched_mk_allreduce(&c, h, SSCHED_MK_ALLREDUCE_OPTIMAL, &s, &err) == SSCHED_OK);
        assert_valid(&c, &s);
        brute_reduce_trees(&c, h, r);
        brute_broadcast(&c, h, b);
        mpq_add(sum, r, b);
        CU_ASSERT(mpq_equal(s.makespan, sum));
        CU_ASSERT(mpq_equal(s.reduce_makespan, r));
        ssched_mk_schedule_free(&s);
        ssched_mk_cluster_free(&c);
    }
    mpq_clears(best, r, b, sum, NULL);
}

/* Brute force over EP schedules up to exchanging equal-time processors:
 * every distinct sequence of the multiset of sender times. */
static void multiset_rec(mpq_t *pool, size_t m, size_t *count, size_t k, mpq_t *seq, size_t d,
                         mpq_t best, int *have)
{
    if (d == m) {
        mpq_t v;
        mpq_init(v);
        local_ep(seq, m, v);
        if (!*have || mpq_cmp(v, best) < 0)
            mpq_set(best, v);
        *have = 1;
        mpq_clear(v);
        return;
    }
    for (size_t i = 0; i < k; i++)
        if (count[i]) {
            count[i]--;
            mpq_set(seq[d], pool[i]);
            multiset_rec(pool, m, count, k, seq, d + 1, best, have);
            count[i]++;
        }
}

/* Seed 000 Fig. 8: "4 slow processors with transmission time x and 8 fast
 * with time 1": SNF x+3 against 4 (1 < x < 1.5) or 2x+1 (1.5 <= x < 2).
 * The claim holds with the destination among the slow ones (3 slow
 * senders + 8 fast senders); with 4 slow SENDERS SNF is optimal. */
static void test_fig8_counterexample(void)
{
    static const char *xs[] = {"5/4", "7/4", "3/2", "11/10", "19/10"};
    mpq_t x, want_snf, want_opt, best, pool[2], seq[12];
    mpq_inits(x, want_snf, want_opt, best, pool[0], pool[1], NULL);
    for (int i = 0; i < 12; i++)
        mpq_init(seq[i]);
    for (size_t xi = 0; xi < sizeof xs / sizeof *xs; xi++) {
        mpq_set_str(x, xs[xi], 10);
        mpq_canonicalize(x);
        char list[256];
        snprintf(list, sizeof list, "%s,%s,%s,%s,1,1,1,1,1,1,1,1", xs[xi], xs[xi], xs[xi], xs[xi]);
        ssched_mk_cluster_t c;
        make_cluster(&c, list);
        mpq_set_ui(want_snf, 3, 1);
        mpq_add(want_snf, want_snf, x);
        mpq_t three_halves;
        mpq_init(three_halves);
        mpq_set_ui(three_halves, 3, 2);
        if (mpq_cmp(x, three_halves) < 0) {
            mpq_set_ui(want_opt, 4, 1);
        } else {
            mpq_add(want_opt, x, x);
            mpq_set_ui(three_halves, 1, 1);
            mpq_add(want_opt, want_opt, three_halves);
        }
        mpq_clear(three_halves);

        ssched_mk_schedule_t s;
        ssched_mk_schedule_init(&s);
        ssched_error_t err;
        CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_OK);
        CU_ASSERT(mpq_equal(s.makespan, want_snf));
        assert_valid(&c, &s);

        /* brute force over the 11!/(3!8!) = 165 distinct EP sequences */
        size_t count[2] = {3, 8};
        mpq_set(pool[0], x);
        mpq_set_ui(pool[1], 1, 1);
        int have = 0;
        multiset_rec(pool, 11, count, 2, seq, 0, best, &have);
        CU_ASSERT(mpq_equal(best, want_opt));
        CU_ASSERT(check_reduce_algorithms(&c, 0, best) == 0);
        brute_reduce_trees(&c, 0, best);
        CU_ASSERT(mpq_equal(best, want_opt));

        /* reading "4 slow senders" (fast destination): SNF is optimal */
        CU_ASSERT(ssched_mk_reduce_snf(&c, 11, &s, &err) == SSCHED_OK);
        brute_reduce_trees(&c, 11, best);
        CU_ASSERT(mpq_equal(s.makespan, best));
        ssched_mk_schedule_free(&s);
        ssched_mk_cluster_free(&c);
    }
    for (int i = 0; i < 12; i++)
        mpq_clear(seq[i]);
    mpq_clears(x, want_snf, want_opt, best, pool[0], pool[1], NULL);
}

/* Seed 002 Fig. 2: source t=1, one processor of time 2, five of time 3:
 * FNF sends to the 2 first and needs 5; the optimum (2 in the second
 * round) needs 4. */
static void test_fig2_broadcast(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,2,3,3,3,3,3");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t stats;
    CU_ASSERT(ssched_mk_broadcast_fnf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "5"));
    CU_ASSERT(s.msg[0].receiver == 1); /* FNF serves the 2 first */
    assert_valid(&c, &s);
    mpq_t opt;
    mpq_init(opt);
    brute_broadcast(&c, 0, opt);
    CU_ASSERT(tu_mpq_equals(opt, "4"));
    CU_ASSERT(check_broadcast_algorithms(&c, 0, opt) == 0);
    CU_ASSERT(ssched_mk_broadcast_optimal(&c, 0, &s, &stats, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "4"));
    mpq_clear(opt);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"reduce: every algorithm = brute force over EP orders and trees", test_reduce_vs_brute},
        {"reduce: 8-9 senders against tree brute force", test_reduce_trees_larger},
        {"broadcast: every algorithm = brute force over trees", test_broadcast_vs_brute},
        {"allreduce: optimal composition = best hub by brute force", test_allreduce_vs_brute},
        {"seed 000 Fig. 8: SNF x+3 vs optimum 4 / 2x+1", test_fig8_counterexample},
        {"seed 002 Fig. 2: FNF 5 vs optimum 4", test_fig2_broadcast},
        {NULL, NULL}};
    return tu_main("makespan brute force", tests);
}
