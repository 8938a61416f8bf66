/* The two-class dynamic programs of seed 000 §5.3 (eqs. (2)-(4), Lemmas 4
 * and 5) and their reference counts (§6.3). */
#include <stdlib.h>
#include <string.h>

#include "ssched/makespan.h"
#include "test_util.h"

static const char *ratios[][2] = {{"1", "2"}, {"1", "3/2"}, {"2", "3"}, {"4", "7"}, {"1", "5"},
                                  {"3/10", "1/2"}};

static ssched_mk_dp2_table_t *table(const char *tf, const char *ts, size_t F, size_t S,
                                    ssched_mk_dp2_variant_t v)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_set_str(a, tf, 10);
    mpq_set_str(b, ts, 10);
    mpq_canonicalize(a);
    mpq_canonicalize(b);
    ssched_mk_dp2_table_t *t = NULL;
    ssched_error_t err;
    CU_ASSERT(ssched_mk_dp2_table_new(&t, a, b, F, S, v, &err) == SSCHED_OK);
    mpq_clears(a, b, NULL);
    return t;
}

/* The three programs compute the same T(f, s) everywhere. */
static void test_variants_agree(void)
{
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    for (size_t r = 0; r < sizeof ratios / sizeof *ratios; r++) {
        ssched_mk_dp2_table_t *t[3];
        for (int v = 0; v < 3; v++)
            t[v] = table(ratios[r][0], ratios[r][1], 40, 40, (ssched_mk_dp2_variant_t)v);
        int bad = 0;
        for (size_t f = 0; f <= 40; f++)
            for (size_t s = 0; s <= 40; s++) {
                ssched_mk_dp2_table_value(t[0], f, s, x);
                for (int v = 1; v < 3; v++) {
                    ssched_mk_dp2_table_value(t[v], f, s, y);
                    bad += !mpq_equal(x, y);
                }
            }
        CU_ASSERT_EQUAL(bad, 0);
        for (int v = 0; v < 3; v++)
            ssched_mk_dp2_table_free(t[v]);
    }
    mpq_clears(x, y, NULL);
}

/* Lemma 4 (monotone in s), Lemma 5 (monotone in f when f >= s-1) and
 * eq. (3), on the tables. */
static void test_lemmas(void)
{
    mpq_t a, b, ts;
    mpq_inits(a, b, ts, NULL);
    for (size_t r = 0; r < sizeof ratios / sizeof *ratios; r++) {
        ssched_mk_dp2_table_t *t = table(ratios[r][0], ratios[r][1], 50, 50, SSCHED_MK_DP2_MONO_S);
        mpq_set_str(ts, ratios[r][1], 10);
        mpq_canonicalize(ts);
        int bad4 = 0, bad5 = 0, bad3 = 0;
        for (size_t f = 0; f <= 50; f++)
            for (size_t s = 0; s <= 50; s++) {
                ssched_mk_dp2_table_value(t, f, s, a);
                if (s < 50) {
                    ssched_mk_dp2_table_value(t, f, s + 1, b);
                    bad4 += mpq_cmp(b, a) < 0;
                }
                if (f < 50 && f + 1 >= s) {
                    ssched_mk_dp2_table_value(t, f + 1, s, b);
                    bad5 += mpq_cmp(b, a) < 0;
                }
                if (f == 0) {
                    unsigned h = 0;
                    while ((1u << h) < s + 1)
                        h++;
                    mpq_set_ui(b, h, 1);
                    mpq_mul(b, b, ts);
                    bad3 += !mpq_equal(a, b);
                }
            }
        CU_ASSERT_EQUAL(bad4, 0);
        CU_ASSERT_EQUAL(bad5, 0);
        CU_ASSERT_EQUAL(bad3, 0);
        ssched_mk_dp2_table_free(t);
    }
    /* Lemma 5 really needs f >= s-1: with few fast processors, adding one
     * helps (the slow ones get more receivers). */
    ssched_mk_dp2_table_t *t = table("1", "3/2", 10, 10, SSCHED_MK_DP2_NAIVE);
    ssched_mk_dp2_table_value(t, 0, 10, a);
    ssched_mk_dp2_table_value(t, 1, 10, b);
    CU_ASSERT(tu_mpq_equals(a, "6") && tu_mpq_equals(b, "11/2")); /* 4 x 3/2 vs 1 + 3 x 3/2 */
    ssched_mk_dp2_table_free(t);
    mpq_clears(a, b, ts, NULL);
}

/* The table entries are the optimal reduce times of the matching clusters
 * (a destination plus f fast and s slow senders), cross-checked with the
 * k-class program and branch-and-bound. */
static void test_table_is_reduce_optimum(void)
{
    ssched_mk_dp2_table_t *t = table("1", "7/4", 9, 9, SSCHED_MK_DP2_MONO_SF);
    mpq_t v;
    mpq_init(v);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    ssched_mk_stats_t st;
    for (size_t f = 0; f <= 9; f++)
        for (size_t sl = 0; sl <= 9; sl++) {
            if (f + sl == 0)
                continue;
            ssched_mk_cluster_t c;
            CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, f + sl + 1, &err) == SSCHED_OK);
            for (size_t p = 0; p <= f + sl; p++) {
                mpq_set_ui(c.time[p], p < f ? 4 : 7, 4);
                mpq_canonicalize(c.time[p]);
            }
            ssched_mk_dp2_table_value(t, f, sl, v);
            CU_ASSERT(ssched_mk_reduce_dpk(&c, f + sl, &s, &st, &err) == SSCHED_OK);
            CU_ASSERT(mpq_equal(s.makespan, v));
            CU_ASSERT(ssched_mk_reduce_bnb(&c, f + sl, NULL, &s, &st, &err) == SSCHED_OK);
            CU_ASSERT(mpq_equal(s.makespan, v));
            CU_ASSERT(ssched_mk_reduce_dp2(&c, f + sl, SSCHED_MK_DP2_NAIVE, &s, &st, &err) == SSCHED_OK);
            CU_ASSERT(mpq_equal(s.makespan, v));
            ssched_check_report_t rep;
            CU_ASSERT(ssched_mk_check(&c, &s, &rep, &err) == SSCHED_OK && rep.valid);
            ssched_mk_cluster_free(&c);
        }
    mpq_clear(v);
    ssched_mk_schedule_free(&s);
    ssched_mk_dp2_table_free(t);
}

/* The naive program looks at every unordered split of (2) once: for f-1
 * fast and s slow processors, pairs with fl < fr contribute s+1 each and
 * fl = fr (f odd) floor(s/2)+1. */
static void test_reference_counts(void)
{
    ssched_mk_dp2_table_t *n = table("1", "2", 60, 60, SSCHED_MK_DP2_NAIVE);
    ssched_mk_dp2_table_t *m = table("1", "2", 60, 60, SSCHED_MK_DP2_MONO_S);
    ssched_mk_dp2_table_t *b = table("1", "2", 60, 60, SSCHED_MK_DP2_MONO_SF);
    int bad = 0;
    for (size_t f = 0; f <= 60; f++)
        for (size_t s = 0; s <= 60; s++) {
            uint64_t want = 0;
            if (f > 0) {
                want = (uint64_t)(f / 2) * (s + 1);
                if (f % 2)
                    want += s / 2 + 1;
            }
            bad += ssched_mk_dp2_table_refs(n, f, s) != want;
            if (f > 4 && s > 4) /* the monotone programs look at far fewer */
                bad += ssched_mk_dp2_table_refs(m, f, s) >= want ||
                       ssched_mk_dp2_table_refs(b, f, s) >= want;
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(ssched_mk_dp2_table_refs(n, 0, 60) == 0);
    ssched_mk_dp2_table_free(n);
    ssched_mk_dp2_table_free(m);
    ssched_mk_dp2_table_free(b);
}

static void test_dp2_rejects(void)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_set_ui(a, 2, 1);
    mpq_set_ui(b, 2, 1);
    ssched_mk_dp2_table_t *t = NULL;
    ssched_error_t err;
    CU_ASSERT(ssched_mk_dp2_table_new(&t, a, b, 3, 3, SSCHED_MK_DP2_NAIVE, &err) == SSCHED_EINPUT);
    CU_ASSERT(t == NULL);
    mpq_clears(a, b, NULL);
    ssched_mk_cluster_t c;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "1,2,3,4", &err) == SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    CU_ASSERT(ssched_mk_reduce_dp2(&c, 0, SSCHED_MK_DP2_NAIVE, &s, NULL, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "found 3") != NULL);
    /* the destination's time does not count as a class */
    CU_ASSERT(ssched_mk_reduce_dp2(&c, 3, SSCHED_MK_DP2_NAIVE, &s, NULL, &err) == SSCHED_EINPUT);
    mpq_set_ui(c.time[2], 2, 1);
    CU_ASSERT(ssched_mk_reduce_dp2(&c, 3, SSCHED_MK_DP2_MONO_SF, &s, NULL, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.makespan, "3")); /* both 2s at 0, then the 1 */
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"naive, Lemma 4 and Lemma 4+5 programs agree", test_variants_agree},
        {"Lemmas 4, 5 and eq. (3) hold on the table", test_lemmas},
        {"T(f,s) = optimal reduce (dpk, bnb, dp2 schedules)", test_table_is_reduce_optimum},
        {"reference counts", test_reference_counts},
        {"bad inputs", test_dp2_rejects},
        {NULL, NULL}};
    return tu_main("makespan two-class DP", tests);
}
