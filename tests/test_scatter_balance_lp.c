/* Load-balanced scatter (seed 004), rational side: the closed form of
 * Theorems 1-2 equals the exact optimum of LP (3); the LP heuristic's
 * rounding respects eq. (4) against the exact integer optimum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/lp.h"
#include "ssched/rational.h"
#include "ssched/scatter_balance.h"
#include "test_util.h"

static unsigned long long rng_state = 2463534242ULL;
static long rnd(long lo, long hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (long)(rng_state % (unsigned long long)(hi - lo + 1));
}

/* Random linear (b_max = 0) or affine platform; `slow` sometimes gives a
 * processor a link slower than what the others achieve, so that Theorem 2
 * drops it. */
static void random_platform(ssched_sb_platform_t *pl, int p, long b_max, int slow)
{
    ssched_sb_platform_init(pl);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    ssched_error_t err;
    for (int i = 0; i < p; i++) {
        ssched_sb_cost_t c, w;
        int s = slow && rnd(0, 2) == 0;
        mpq_set_si(a, s ? rnd(5, 40) : rnd(0, 9), (unsigned long)(s ? 1 : rnd(1, 20)));
        mpq_canonicalize(a);
        mpq_set_si(b, rnd(0, b_max), (unsigned long)rnd(1, 3));
        mpq_canonicalize(b);
        if (i == p - 1 && rnd(0, 1))
            mpq_set_ui(a, 0, 1);
        ssched_sb_cost_init_affine(&c, a, b, &err);
        mpq_set_si(a, rnd(1, 30), (unsigned long)rnd(1, 7));
        mpq_canonicalize(a);
        mpq_set_si(b, rnd(0, b_max), (unsigned long)rnd(1, 3));
        mpq_canonicalize(b);
        ssched_sb_cost_init_affine(&w, a, b, &err);
        char name[16];
        snprintf(name, sizeof name, "P%d", i + 1);
        CU_ASSERT_EQUAL(ssched_sb_platform_add(pl, name, &c, &w, &err), SSCHED_OK);
        ssched_sb_cost_free(&c);
        ssched_sb_cost_free(&w);
    }
    mpq_clears(a, b, NULL);
}

/* An LP (3) built here, independently of lp_heuristic.c, for linear costs:
 * max -T, sum n_i = n, sum_{j<=i} lambda_j n_j + mu_i n_i <= T. */
static int lp3_optimum(const ssched_sb_platform_t *pl, long n, mpq_t out)
{
    ssched_lp_t lp;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_init(&lp, "lp3"), SSCHED_OK);
    ssched_error_t err;
    size_t p = pl->p, idx, row;
    mpq_t one, m1, v;
    mpq_inits(one, m1, v, NULL);
    mpq_set_si(one, 1, 1);
    mpq_set_si(m1, -1, 1);
    for (size_t i = 0; i < p; i++)
        ssched_lp_add_col(&lp, pl->procs[i].name, NULL, &idx, &err);
    ssched_lp_add_col(&lp, "T", m1, &idx, &err);
    mpq_set_si(v, n, 1);
    ssched_lp_add_row(&lp, "sum", SSCHED_ROW_EQ, v, &row, &err);
    for (size_t i = 0; i < p; i++)
        ssched_lp_add_coef(&lp, row, i, one, &err);
    mpq_set_ui(v, 0, 1);
    for (size_t i = 0; i < p; i++) {
        ssched_lp_add_row(&lp, "fin", SSCHED_ROW_LE, v, &row, &err);
        for (size_t j = 0; j <= i; j++)
            ssched_lp_add_coef(&lp, row, j, pl->procs[j].comm.slope, &err);
        ssched_lp_add_coef(&lp, row, i, pl->procs[i].comp.slope, &err);
        ssched_lp_add_coef(&lp, row, p, m1, &err);
    }
    ssched_lp_options_t opt;
    ssched_lp_options_default(&opt);
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    int ok = ssched_lp_solve(&lp, &opt, &sol, &err) == SSCHED_OK;
    if (ok) {
        /* the certificate, checked again */
        ssched_check_report_t rep;
        CU_ASSERT_EQUAL(ssched_lp_certify(&lp, (const mpq_t *)sol.x, (const mpq_t *)sol.y, NULL,
                                          &rep, &err),
                        SSCHED_OK);
        CU_ASSERT_EQUAL(rep.valid, 1);
        mpq_neg(out, sol.objective);
    } else {
        fprintf(stderr, "LP: %s\n", err.message);
    }
    ssched_lp_solution_free(&sol);
    ssched_lp_free(&lp);
    mpq_clears(one, m1, v, NULL);
    return ok;
}

static void test_closed_form_equals_lp(void)
{
    rng_state = 31337;
    int dropped_seen = 0;
    for (int rep = 0; rep < 80; rep++) {
        int p = (int)rnd(1, 9);
        long n = rnd(0, 5000);
        ssched_sb_platform_t pl;
        random_platform(&pl, p, 0, rep % 2);
        mpq_t cf, lp;
        mpq_inits(cf, lp, NULL);
        mpq_t *rel = malloc((size_t)p * sizeof *rel);
        unsigned char useful[16];
        for (int i = 0; i < p; i++)
            mpq_init(rel[i]);
        ssched_error_t err;
        CU_ASSERT_EQUAL_FATAL(ssched_sb_closed_form(&pl, n, cf, rel, useful, &err), SSCHED_OK);
        CU_ASSERT_FATAL(lp3_optimum(&pl, n, lp));
        if (!mpq_equal(cf, lp)) {
            char *a = ssched_rational_to_decimal(cf, 9, SSCHED_DECIMAL_FIXED);
            char *b = ssched_rational_to_decimal(lp, 9, SSCHED_DECIMAL_FIXED);
            fprintf(stderr, "closed form %s != LP %s (p %d n %ld)\n", a, b, p, n);
            free(a);
            free(b);
        }
        CU_ASSERT(mpq_equal(cf, lp));
        for (int i = 0; i < p; i++) {
            CU_ASSERT(mpq_sgn(rel[i]) >= 0);
            if (!useful[i]) {
                CU_ASSERT_EQUAL(mpq_sgn(rel[i]), 0);
                dropped_seen++;
            }
        }
        for (int i = 0; i < p; i++)
            mpq_clear(rel[i]);
        free(rel);
        mpq_clears(cf, lp, NULL);
        ssched_sb_platform_free(&pl);
    }
    CU_ASSERT(dropped_seen > 0); /* Theorem 2 was exercised */
}

/* A hand-checked case of Theorem 2: P1 with lambda 10 > D(P2) = 3 is useless. */
static void test_theorem2_by_hand(void)
{
    const char *path = tu_tmp_path("t2.csv");
    tu_write_file(path, "name,mu,lambda\nP1,1,10\nP2,2,1\nroot,6,0\n");
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, path, &err), SSCHED_OK);
    /* D(root) = 6; P2: lambda 1 <= 6, D = 3 * 6 / (2 + 6) = 9/4; P1: 10 > 9/4 */
    mpq_t t, rel[3];
    mpq_init(t);
    for (int i = 0; i < 3; i++)
        mpq_init(rel[i]);
    unsigned char useful[3];
    CU_ASSERT_EQUAL(ssched_sb_closed_form(&pl, 8, t, rel, useful, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(t, "18")); /* 8 * 9/4 */
    CU_ASSERT_EQUAL(useful[0], 0);
    CU_ASSERT_EQUAL(useful[1], 1);
    CU_ASSERT(tu_mpq_equals(rel[0], "0"));
    CU_ASSERT(tu_mpq_equals(rel[1], "6")); /* alpha = 6 / 8 of 8 */
    CU_ASSERT(tu_mpq_equals(rel[2], "2"));
    /* closed-form refuses affine costs */
    const char *p2 = tu_tmp_path("aff.csv");
    tu_write_file(p2, "name,mu,lambda,mu0\nP1,1,1,1\nroot,1,0,0\n");
    ssched_sb_platform_t pa;
    ssched_sb_platform_init(&pa);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pa, p2, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_sb_closed_form(&pa, 8, t, rel, NULL, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "linear"));
    ssched_sb_platform_free(&pa);
    mpq_clear(t);
    for (int i = 0; i < 3; i++)
        mpq_clear(rel[i]);
    ssched_sb_platform_free(&pl);
}

/* A processor with no cost at all takes everything in no time; the LP
 * agrees and the exact DP finds the same zero makespan. */
static void test_free_processor(void)
{
    const char *path = tu_tmp_path("free.csv");
    tu_write_file(path, "name,mu,lambda\nP1,3,1\nfree,0,0\nP3,2,1/2\nroot,5,0\n");
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, path, &err), SSCHED_OK);
    mpq_t t, lp, rel[4];
    mpq_inits(t, lp, NULL);
    for (int i = 0; i < 4; i++)
        mpq_init(rel[i]);
    CU_ASSERT_EQUAL(ssched_sb_closed_form(&pl, 50, t, rel, NULL, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(mpq_sgn(t), 0);
    CU_ASSERT(tu_mpq_equals(rel[1], "50"));
    CU_ASSERT_FATAL(lp3_optimum(&pl, 50, lp));
    CU_ASSERT_EQUAL(mpq_sgn(lp), 0);
    ssched_sb_result_t r;
    ssched_sb_result_init(&r);
    for (int a = SSCHED_SB_DP; a <= SSCHED_SB_CLOSED_FORM; a++) {
        CU_ASSERT_EQUAL(ssched_sb_solve(&pl, 50, (ssched_sb_algorithm_t)a, &r, &err), SSCHED_OK);
        CU_ASSERT_EQUAL(mpq_sgn(r.makespan), 0);
        CU_ASSERT_EQUAL(r.items[1], 50);
    }
    ssched_sb_result_free(&r);
    mpq_clears(t, lp, NULL);
    for (int i = 0; i < 4; i++)
        mpq_clear(rel[i]);
    ssched_sb_platform_free(&pl);
}

/* eq. (4): T <= T_opt <= T' <= T_opt + sum_j T_comm(j,1) + max_i T_comp(i,1),
 * with T_opt from Algorithm 2, on linear and affine platforms. */
static void test_lp_rounding_guarantee(void)
{
    rng_state = 8675309;
    for (int rep = 0; rep < 80; rep++) {
        int p = (int)rnd(1, 7);
        long n = rnd(0, 300);
        ssched_sb_platform_t pl;
        random_platform(&pl, p, rep % 2 ? 6 : 0, rep % 3 == 0);
        ssched_sb_result_t opt, lp;
        ssched_sb_result_init(&opt);
        ssched_sb_result_init(&lp);
        ssched_error_t err;
        CU_ASSERT_EQUAL_FATAL(ssched_sb_solve(&pl, n, SSCHED_SB_DP_FAST, &opt, &err), SSCHED_OK);
        ssched_status_t st = ssched_sb_solve(&pl, n, SSCHED_SB_LP, &lp, &err);
        if (st != SSCHED_OK)
            fprintf(stderr, "LP heuristic: %s\n", err.message);
        CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
        CU_ASSERT(lp.has_relaxation);
        CU_ASSERT(mpq_cmp(lp.relaxed_makespan, opt.makespan) <= 0);
        CU_ASSERT(mpq_cmp(lp.makespan, opt.makespan) >= 0);
        mpq_t b, g, one;
        mpq_inits(b, g, one, NULL);
        ssched_sb_guarantee(&pl, g);
        CU_ASSERT(mpq_equal(g, lp.guarantee));
        mpq_add(b, opt.makespan, g);
        CU_ASSERT(mpq_cmp(lp.makespan, b) <= 0);
        /* |n_i - n'_i| < 1 */
        mpq_set_ui(one, 1, 1);
        long sum = 0;
        for (int i = 0; i < p; i++) {
            mpq_set_si(b, lp.items[i], 1);
            mpq_sub(b, b, lp.relaxed_items[i]);
            mpq_abs(b, b);
            CU_ASSERT(mpq_cmp(b, one) < 0);
            sum += lp.items[i];
        }
        CU_ASSERT_EQUAL(sum, n);
        if (rep % 2 == 0) { /* linear: the LP and the closed form agree */
            ssched_sb_result_t cf;
            ssched_sb_result_init(&cf);
            CU_ASSERT_EQUAL(ssched_sb_solve(&pl, n, SSCHED_SB_CLOSED_FORM, &cf, &err), SSCHED_OK);
            CU_ASSERT(mpq_equal(cf.relaxed_makespan, lp.relaxed_makespan));
            mpq_add(b, opt.makespan, g);
            CU_ASSERT(mpq_cmp(cf.makespan, b) <= 0);
            ssched_sb_result_free(&cf);
        }
        mpq_clears(b, g, one, NULL);
        ssched_sb_result_free(&opt);
        ssched_sb_result_free(&lp);
        ssched_sb_platform_free(&pl);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"closed form (Theorems 1-2) == exact LP (3) optimum", test_closed_form_equals_lp},
        {"Theorem 2 by hand", test_theorem2_by_hand},
        {"a free processor takes everything", test_free_processor},
        {"LP heuristic rounding respects eq. (4)", test_lp_rounding_guarantee},
        {NULL, NULL}};
    return tu_main("scatter_balance_lp", tests);
}
