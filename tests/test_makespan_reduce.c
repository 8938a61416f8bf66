/* Reduce: EP (seed 000 Fig. 2), Lemma 1 receivers, SNF and its theorems,
 * the k-class program and branch-and-bound on larger clusters. */
#include <stdlib.h>
#include <string.h>

#include "ssched/makespan.h"
#define MK_RNG_SEED 12345 /* rnd() */
#include "mk_test_util.h"


/* Seed 000 Fig. 1's cluster (A..G = 10,5,5,5,4,2,2, A the destination).
 * SNF by hand: B,C,D start at 0 (free 7 -> 1); at 5 they end (free 4): E
 * (ends 9) and F (ends 7) start; F ends (free 1), E ends at 9 (free 2): G
 * starts, ends 11.  Lemma 1 top-down: G -> A; G's predecessors F and E
 * send to G and to A; F's predecessors C and D send to F and G; E's single
 * predecessor B sends to E. */
static void test_snf_fig1_by_hand(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "10,5,5,5,4,2,2");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "11"));
    CU_ASSERT(tu_mpq_equals(s.reduce_makespan, "11"));
    CU_ASSERT_FATAL(s.count == 6);
    CU_ASSERT(s.op == SSCHED_MK_REDUCE && s.root == 0 && s.n == 7);
    CU_ASSERT(msg_is(&s.msg[0], 1, 4, "0", "5"));
    CU_ASSERT(msg_is(&s.msg[1], 2, 5, "0", "5"));
    CU_ASSERT(msg_is(&s.msg[2], 3, 6, "0", "5"));
    CU_ASSERT(msg_is(&s.msg[3], 4, 0, "5", "9"));
    CU_ASSERT(msg_is(&s.msg[4], 5, 6, "5", "7"));
    CU_ASSERT(msg_is(&s.msg[5], 6, 0, "9", "11"));
    assert_valid(&c, &s);
    ssched_check_report_t rep;
    CU_ASSERT(ssched_mk_check_inequality1(&c, &s, &rep, &err) == SSCHED_OK && rep.valid);

    /* EP of another order (fastest first): F,G at 0 and D at 0 ... */
    size_t order[6] = {5, 6, 4, 1, 2, 3};
    CU_ASSERT(ssched_mk_reduce_ep(&c, 0, order, &s, &err) == SSCHED_OK);
    assert_valid(&c, &s);
    /* F,G,E start at 0; F,G end at 2 (free 3): B starts; E ends at 4
     * (free 2): C starts (ends 9); B ends at 7 (free 1); C ends at 9
     * (free 2): D starts, ends 14. */
    CU_ASSERT(tu_mpq_equals(s.makespan, "14"));
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

static void test_ep_rejects_bad_orders(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,2,3,4");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    size_t with_dest[3] = {0, 1, 2}, dup[3] = {1, 1, 2}, range[3] = {1, 2, 9};
    CU_ASSERT(ssched_mk_reduce_ep(&c, 0, with_dest, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "destination") != NULL);
    CU_ASSERT(ssched_mk_reduce_ep(&c, 0, dup, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "twice") != NULL);
    CU_ASSERT(ssched_mk_reduce_ep(&c, 0, range, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "out of range") != NULL);
    CU_ASSERT(ssched_mk_reduce_snf(&c, 4, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "destination 4 out of range") != NULL);
    mpq_set_si(c.time[2], 0, 1);
    CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "processor 2") != NULL);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

static void test_tiny_clusters(void)
{
    ssched_mk_cluster_t c;
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    make_cluster(&c, "7/3");
    CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 0 && tu_mpq_equals(s.makespan, "0"));
    assert_valid(&c, &s);
    CU_ASSERT(ssched_mk_reduce_optimal(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 0);
    ssched_mk_cluster_free(&c);
    make_cluster(&c, "7/3,1/2");
    CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 1 && msg_is(&s.msg[0], 1, 0, "0", "1/2"));
    CU_ASSERT(ssched_mk_reduce_dp2(&c, 1, SSCHED_MK_DP2_NAIVE, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 1 && msg_is(&s.msg[0], 0, 1, "0", "7/3"));
    ssched_mk_cluster_free(&c);
    /* n = 3: the two senders cannot overlap (2A + C <= 3) */
    make_cluster(&c, "1,10,1");
    CU_ASSERT(ssched_mk_reduce_optimal(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "11"));
    assert_valid(&c, &s);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* Exact rationals end to end; "1/2" and "0.5" are the same class. */
static void test_rational_times(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1/3, 0.5 ,1/2,2.5e-1,7/11");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    CU_ASSERT(ssched_mk_reduce_dpk(&c, 0, &s, &st, &err) == SSCHED_OK);
    assert_valid(&c, &s);
    CU_ASSERT(st.cells == 2 * 2 * 3); /* classes 1/4, 1/2 (x2), 7/11 */
    mpq_t snf;
    mpq_init(snf);
    CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_OK);
    mpq_set(snf, s.makespan);
    /* SNF: 7/11 and 1/2 start at 0 (free 1); 1/2 ends (free 2): the other
     * 1/2 starts (ends 1); 7/11 ends (free 1)... 1 ends (free 2): 1/4
     * starts, ends 5/4. */
    CU_ASSERT(tu_mpq_equals(snf, "5/4"));
    mpq_clear(snf);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* Theorem 1: SNF is optimal on power-2 clusters; Theorem 4: on two
 * classes with ratio >= 2; Theorem 2: within twice the optimum always. */
static void test_snf_theorems(void)
{
    ssched_mk_schedule_t s, o;
    ssched_mk_schedule_init(&s);
    ssched_mk_schedule_init(&o);
    ssched_error_t err;
    ssched_mk_stats_t st;
    mpq_t twice;
    mpq_init(twice);
    for (int it = 0; it < 60; it++) {
        size_t n = 2 + rnd(24);
        ssched_mk_cluster_t c;
        CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, n, &err) == SSCHED_OK);
        int kind = it % 3;
        unsigned a = 1 + rnd(5), b = 2 * a + rnd(6); /* ratio >= 2 */
        for (size_t p = 0; p < n; p++) {
            if (kind == 0)
                mpq_set_ui(c.time[p], 1u << rnd(4), 3); /* powers of 2 (times 1/3) */
            else if (kind == 1)
                mpq_set_ui(c.time[p], rnd(2) ? a : b, 1);
            else
                mpq_set_ui(c.time[p], 2 + rnd(9), 1 + rnd(3));
            mpq_canonicalize(c.time[p]);
        }
        size_t dest = rnd((unsigned)n);
        CU_ASSERT(ssched_mk_reduce_snf(&c, dest, &s, &err) == SSCHED_OK);
        assert_valid(&c, &s);
        ssched_status_t r = ssched_mk_reduce_optimal(&c, dest, &o, &st, &err);
        CU_ASSERT(r == SSCHED_OK);
        if (r != SSCHED_OK)
            fprintf(stderr, "%s\n", err.message);
        assert_valid(&c, &o);
        if (kind < 2)
            CU_ASSERT(mpq_equal(s.makespan, o.makespan));
        mpq_add(twice, o.makespan, o.makespan);
        CU_ASSERT(mpq_cmp(o.makespan, s.makespan) <= 0 && mpq_cmp(s.makespan, twice) <= 0);
        ssched_mk_cluster_free(&c);
    }
    mpq_clear(twice);
    ssched_mk_schedule_free(&s);
    ssched_mk_schedule_free(&o);
}

/* Larger 3-class clusters: the k-class program (Theorem 6), every
 * branch-and-bound and the two-class program agree.  Half of the clusters
 * are drawn until SNF is NOT optimal, so the search itself must find the
 * optimum (not its SNF first leaf). */
static void test_dpk_vs_bnb(void)
{
    ssched_mk_schedule_t a, b;
    ssched_mk_schedule_init(&a);
    ssched_mk_schedule_init(&b);
    ssched_error_t err;
    ssched_mk_stats_t st;
    static const char *pools[][3] = {{"1", "3/2", "5/2"}, {"2", "3", "5"}, {"1", "7/4", "2"},
                                     {"3", "4", "7"}};
    int hard = 0;
    for (int it = 0, tries = 0; it < 40 && tries < 20000; tries++) {
        size_t n = 8 + rnd(9);
        ssched_mk_cluster_t c;
        CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, n, &err) == SSCHED_OK);
        const char **pool = pools[tries % 4];
        unsigned k = tries % 5 == 0 ? 2 : 3;
        for (size_t p = 0; p < n; p++) {
            mpq_set_str(c.time[p], pool[rnd(k)], 10);
            mpq_canonicalize(c.time[p]);
        }
        size_t dest = rnd((unsigned)n);
        CU_ASSERT(ssched_mk_reduce_dpk(&c, dest, &a, &st, &err) == SSCHED_OK);
        CU_ASSERT(ssched_mk_reduce_snf(&c, dest, &b, &err) == SSCHED_OK);
        int snf_loses = mpq_cmp(b.makespan, a.makespan) > 0;
        if (it % 2 == 0 && !snf_loses) {
            ssched_mk_cluster_free(&c);
            continue;
        }
        it++;
        hard += snf_loses;
        assert_valid(&c, &a);
        for (int pr = SSCHED_MK_BNB_GENERIC; pr <= SSCHED_MK_BNB_FULL; pr++) {
            ssched_mk_bnb_options_t o;
            ssched_mk_bnb_options(&o, (ssched_mk_bnb_preset_t)pr);
            if (pr == SSCHED_MK_BNB_GENERIC && n > 12)
                continue;
            CU_ASSERT(ssched_mk_reduce_bnb(&c, dest, &o, &b, &st, &err) == SSCHED_OK);
            CU_ASSERT(st.leaves >= 1 && st.complete);
            CU_ASSERT(mpq_equal(a.makespan, b.makespan));
            assert_valid(&c, &b);
        }
        if (n <= 12)
            for (int bit = 0; bit < 4; bit++) {
                ssched_mk_bnb_options_t o;
                mk_bnb_one_technique(&o, bit);
                CU_ASSERT(ssched_mk_reduce_bnb(&c, dest, &o, &b, &st, &err) == SSCHED_OK);
                CU_ASSERT(mpq_equal(a.makespan, b.makespan));
            }
        if (k == 2)
            for (int v = SSCHED_MK_DP2_MONO_S; v <= SSCHED_MK_DP2_MONO_SF; v++) {
                CU_ASSERT(ssched_mk_reduce_dp2(&c, dest, (ssched_mk_dp2_variant_t)v, &b, &st, &err) == SSCHED_OK);
                CU_ASSERT(mpq_equal(a.makespan, b.makespan));
            }
        ssched_mk_cluster_free(&c);
    }
    CU_ASSERT(hard >= 18);
    ssched_mk_schedule_free(&a);
    ssched_mk_schedule_free(&b);
}

/* 3 classes, 40 processors: exact by the class-count program. */
static void test_forty_processors(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, 40, &err) == SSCHED_OK);
    for (size_t p = 0; p < 40; p++)
        mpq_set_ui(c.time[p], p % 3 == 0 ? 2 : p % 3 == 1 ? 3 : 5, 1);
    ssched_mk_schedule_t s, h;
    ssched_mk_schedule_init(&s);
    ssched_mk_schedule_init(&h);
    ssched_mk_stats_t st;
    CU_ASSERT(ssched_mk_reduce_optimal(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(strcmp(st.method, "dpk") == 0);
    assert_valid(&c, &s);
    CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &h, &err) == SSCHED_OK);
    CU_ASSERT(mpq_cmp(s.makespan, h.makespan) <= 0);
    /* lower bound: a binary tree of 39 nodes has a path of 6 nodes, each >= 2 */
    CU_ASSERT(mpq_cmp_ui(s.makespan, 12, 1) >= 0);
    ssched_mk_schedule_free(&s);
    ssched_mk_schedule_free(&h);
    ssched_mk_cluster_free(&c);
}

/* A node limit stops branch-and-bound: best found returned, uncertified. */
static void test_bnb_node_limit(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,2,3,5,7,11,13,17,19,23,29,31");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    ssched_mk_bnb_options_t o;
    ssched_mk_bnb_options(&o, SSCHED_MK_BNB_GENERIC);
    o.max_nodes = 50;
    CU_ASSERT(ssched_mk_reduce_bnb(&c, 0, &o, &s, &st, &err) == SSCHED_EUNCERTIFIED);
    CU_ASSERT(st.complete == 0 && st.nodes == 50);
    CU_ASSERT(s.count == 11);
    assert_valid(&c, &s);
    o.max_nodes = 3; /* no leaf reached: SNF is returned */
    CU_ASSERT(ssched_mk_reduce_bnb(&c, 0, &o, &s, &st, &err) == SSCHED_EUNCERTIFIED);
    assert_valid(&c, &s);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* Times whose common denominator overflows the integer searches: the exact
 * searches refuse with a clear message, SNF (pure rationals) still works. */
static void test_tick_overflow(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1/1000000007,1/1000000009,1/998244353,1/999999937,5");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    CU_ASSERT(ssched_mk_reduce_dpk(&c, 0, &s, &st, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "2^62") != NULL);
    CU_ASSERT(ssched_mk_reduce_bnb(&c, 0, NULL, &s, &st, &err) == SSCHED_EINPUT);
    CU_ASSERT(ssched_mk_reduce_snf(&c, 0, &s, &err) == SSCHED_OK);
    assert_valid(&c, &s);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"SNF on seed 000 Fig. 1's cluster, by hand", test_snf_fig1_by_hand},
        {"EP rejects bad sender orders and clusters", test_ep_rejects_bad_orders},
        {"1, 2 and 3 processors", test_tiny_clusters},
        {"exact rational times", test_rational_times},
        {"SNF: Theorems 1, 2 and 4", test_snf_theorems},
        {"k-class program = branch-and-bound = two-class program", test_dpk_vs_bnb},
        {"40 processors, 3 classes", test_forty_processors},
        {"branch-and-bound node limit", test_bnb_node_limit},
        {"scaled times beyond 62 bits", test_tick_overflow},
        {NULL, NULL}};
    return tu_main("makespan reduce", tests);
}
