/* Broadcast: receive-order schedules (seed 002 eq. (1)), FNF and its
 * theorems, the class-count program against branch-and-bound. */
#include <stdlib.h>
#include <string.h>

#include "ssched/makespan.h"
#define MK_RNG_SEED 777 /* rnd() */
#include "mk_test_util.h"


/* Seed 002 Fig. 1's cluster (times 1, 1, 2, 3, 2).  FNF from 0: 1 at 1;
 * then 2 (t=2) and 4 (t=2) at 2 (from 0 and from 1, fastest senders
 * first); 3 at 3. */
static void test_fnf_by_hand(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,1,2,3,2");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_broadcast_fnf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "3"));
    CU_ASSERT_FATAL(s.count == 4);
    CU_ASSERT(s.op == SSCHED_MK_BROADCAST && s.root == 0);
    CU_ASSERT(msg_is(&s.msg[0], 0, 1, "0", "1"));
    CU_ASSERT(msg_is(&s.msg[1], 0, 2, "1", "2"));
    CU_ASSERT(msg_is(&s.msg[2], 1, 4, "1", "2"));
    CU_ASSERT(msg_is(&s.msg[3], 0, 3, "2", "3"));
    assert_valid(&c, &s);
    /* An explicit receive order: the slow 3 first. */
    size_t order[4] = {3, 1, 2, 4};
    CU_ASSERT(ssched_mk_broadcast_sequence(&c, 0, order, &s, &err) == SSCHED_OK);
    assert_valid(&c, &s);
    /* 3 ready at 1, 1 at 2, then slots: 0 at 3, 1 at 3, 3 at 4 */
    CU_ASSERT(tu_mpq_equals(s.makespan, "3"));
    size_t bad[4] = {3, 1, 0, 4};
    CU_ASSERT(ssched_mk_broadcast_sequence(&c, 0, bad, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "source") != NULL);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

static void test_tiny(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "3");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    CU_ASSERT(ssched_mk_broadcast_fnf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 0 && tu_mpq_equals(s.makespan, "0"));
    CU_ASSERT(ssched_mk_broadcast_optimal(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 0);
    ssched_mk_cluster_free(&c);
    make_cluster(&c, "3,1/5");
    CU_ASSERT(ssched_mk_broadcast_dpk(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 1 && msg_is(&s.msg[0], 0, 1, "0", "3"));
    CU_ASSERT(ssched_mk_broadcast_bnb(&c, 1, NULL, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(s.count == 1 && msg_is(&s.msg[0], 1, 0, "0", "1/5"));
    CU_ASSERT(ssched_mk_broadcast_fnf(&c, 2, &s, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "source 2 out of range") != NULL);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* Theorem 4.4 (two classes) and 4.5 (times multiples of each other): FNF
 * optimal from a fastest source; Theorem 4.7: within twice the optimum
 * from any source. */
static void test_fnf_theorems(void)
{
    ssched_mk_schedule_t f, o;
    ssched_mk_schedule_init(&f);
    ssched_mk_schedule_init(&o);
    ssched_error_t err;
    ssched_mk_stats_t st;
    mpq_t twice;
    mpq_init(twice);
    for (int it = 0; it < 90; it++) {
        size_t n = 2 + rnd(30);
        ssched_mk_cluster_t c;
        CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, n, &err) == SSCHED_OK);
        int kind = it % 3;
        unsigned a = 1 + rnd(6), b = a + 1 + rnd(7);
        for (size_t p = 0; p < n; p++) {
            if (kind == 0)
                mpq_set_ui(c.time[p], rnd(2) ? a : b, 2);
            else if (kind == 1)
                mpq_set_ui(c.time[p], a << rnd(3), 1); /* multiples */
            else
                mpq_set_ui(c.time[p], 1 + rnd(4), 1 + rnd(2));
            mpq_canonicalize(c.time[p]);
        }
        size_t src = rnd((unsigned)n);
        if (kind < 2) /* a fastest source */
            for (size_t p = 0; p < n; p++)
                if (mpq_cmp(c.time[p], c.time[src]) < 0)
                    src = p;
        CU_ASSERT(ssched_mk_broadcast_fnf(&c, src, &f, &err) == SSCHED_OK);
        assert_valid(&c, &f);
        CU_ASSERT(ssched_mk_broadcast_optimal(&c, src, &o, &st, &err) == SSCHED_OK);
        assert_valid(&c, &o);
        if (kind < 2)
            CU_ASSERT(mpq_equal(f.makespan, o.makespan));
        mpq_add(twice, o.makespan, o.makespan);
        CU_ASSERT(mpq_cmp(o.makespan, f.makespan) <= 0 && mpq_cmp(f.makespan, twice) <= 0);
        ssched_mk_cluster_free(&c);
    }
    mpq_clear(twice);
    ssched_mk_schedule_free(&f);
    ssched_mk_schedule_free(&o);
}

/* Found while testing: Theorem 4.4 is about a fastest source.  With two
 * classes and a SLOW given source FNF can lose: times 3 (source), 2, 2 and
 * four 3s give FNF 9 and optimum 8. */
static void test_two_classes_slow_source(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "3,2,2,3,3,3,3");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    CU_ASSERT(ssched_mk_broadcast_fnf(&c, 0, &s, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "9"));
    CU_ASSERT(ssched_mk_broadcast_dpk(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "8"));
    assert_valid(&c, &s);
    CU_ASSERT(ssched_mk_broadcast_bnb(&c, 0, NULL, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "8"));
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* 3-class clusters of 7-15 processors, any source: the class-count
 * program and every branch-and-bound variant agree.  Half of the clusters
 * are drawn until FNF is NOT optimal on them, so that the search (not its
 * FNF first leaf) has to find the optimum. */
static void test_dpk_vs_bnb(void)
{
    static const char *pools[][3] = {{"1", "3/2", "5/2"}, {"2", "3", "5"}, {"1", "2", "3"},
                                     {"4", "5", "11"}, {"1", "7/5", "9/5"}};
    ssched_mk_schedule_t a, b;
    ssched_mk_schedule_init(&a);
    ssched_mk_schedule_init(&b);
    ssched_error_t err;
    ssched_mk_stats_t st;
    int bad = 0, hard = 0;
    for (int it = 0, tries = 0; it < 60 && tries < 20000; tries++) {
        size_t n = 7 + rnd(9);
        ssched_mk_cluster_t c;
        CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, n, &err) == SSCHED_OK);
        const char **pool = pools[tries % 5];
        for (size_t p = 0; p < n; p++) {
            mpq_set_str(c.time[p], pool[rnd(3)], 10);
            mpq_canonicalize(c.time[p]);
        }
        size_t src = rnd((unsigned)n);
        CU_ASSERT(ssched_mk_broadcast_dpk(&c, src, &a, &st, &err) == SSCHED_OK);
        CU_ASSERT(ssched_mk_broadcast_fnf(&c, src, &b, &err) == SSCHED_OK);
        int fnf_loses = mpq_cmp(b.makespan, a.makespan) > 0;
        if (it % 2 == 0 && !fnf_loses) { /* want a hard one here */
            ssched_mk_cluster_free(&c);
            continue;
        }
        it++;
        hard += fnf_loses;
        assert_valid(&c, &a);
        for (int pr = SSCHED_MK_BNB_GENERIC; pr <= SSCHED_MK_BNB_FULL; pr++) {
            ssched_mk_bnb_options_t o;
            ssched_mk_bnb_options(&o, (ssched_mk_bnb_preset_t)pr);
            if (pr == SSCHED_MK_BNB_GENERIC && n > 11)
                continue;
            CU_ASSERT(ssched_mk_broadcast_bnb(&c, src, &o, &b, &st, &err) == SSCHED_OK);
            CU_ASSERT(st.leaves >= 1 && st.complete);
            bad += !mpq_equal(a.makespan, b.makespan);
            assert_valid(&c, &b);
        }
        if (n <= 11) { /* every technique alone */
            for (int bit = 0; bit < 4; bit++) {
                ssched_mk_bnb_options_t o;
                mk_bnb_one_technique(&o, bit);
                CU_ASSERT(ssched_mk_broadcast_bnb(&c, src, &o, &b, &st, &err) == SSCHED_OK);
                CU_ASSERT(st.leaves >= 1);
                bad += !mpq_equal(a.makespan, b.makespan);
            }
        }
        ssched_mk_cluster_free(&c);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(hard >= 25);
    ssched_mk_schedule_free(&a);
    ssched_mk_schedule_free(&b);
}

/* 40 processors of 3 classes: exact by the class-count program, never
 * worse than FNF, and at least the doubling bound. */
static void test_forty(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, 41, &err) == SSCHED_OK);
    for (size_t p = 0; p < 41; p++)
        mpq_set_ui(c.time[p], p % 3 == 0 ? 2 : p % 3 == 1 ? 3 : 5, 1);
    ssched_mk_schedule_t s, f;
    ssched_mk_schedule_init(&s);
    ssched_mk_schedule_init(&f);
    ssched_mk_stats_t st;
    CU_ASSERT(ssched_mk_broadcast_optimal(&c, 0, &s, &st, &err) == SSCHED_OK);
    CU_ASSERT(strcmp(st.method, "dpk") == 0);
    assert_valid(&c, &s);
    CU_ASSERT(ssched_mk_broadcast_fnf(&c, 0, &f, &err) == SSCHED_OK);
    CU_ASSERT(mpq_cmp(s.makespan, f.makespan) <= 0);
    /* informed processors at most double every 2 time units: >= 6 rounds */
    CU_ASSERT(mpq_cmp_ui(s.makespan, 12, 1) >= 0);
    ssched_mk_schedule_free(&s);
    ssched_mk_schedule_free(&f);
    ssched_mk_cluster_free(&c);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"FNF and receive orders on seed 002 Fig. 1's cluster", test_fnf_by_hand},
        {"1 and 2 processors, bad source", test_tiny},
        {"FNF: Theorems 4.4, 4.5, 4.7", test_fnf_theorems},
        {"two classes, slow source: FNF 9 vs optimum 8", test_two_classes_slow_source},
        {"class-count program = branch-and-bound (all variants)", test_dpk_vs_bnb},
        {"41 processors, 3 classes", test_forty},
        {NULL, NULL}};
    return tu_main("makespan broadcast", tests);
}
