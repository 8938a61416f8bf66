/* The shared numbering and period of steady.h and the init/free pairs of
 * the LP and the model (issue 15). */
#include <stdlib.h>
#include <string.h>

#include "ssched/lp.h"
#include "ssched/steady.h"
#include "test_util.h"

/* k-major: [0,0], [0,1], .., [0,N-1], [1,1], ... are 0, 1, 2, ... */
static void test_interval_index(void)
{
    for (size_t N = 1; N <= 7; N++) {
        size_t I = 0;
        for (size_t k = 0; k < N; k++)
            for (size_t m = k; m < N; m++)
                CU_ASSERT_EQUAL(ssched_interval_index(N, k, m), I++);
        CU_ASSERT_EQUAL(I, N * (N + 1) / 2);
    }
}

/* TP = 1/3 and one flow of 1/2 over an edge of cost x/5 (busy x/10 per
 * time unit, messages of size 1) give T = lcm(3, 2, den(x/10)): 6 for
 * x = 5, else 30. */
static void test_steady_period(void)
{
    ssched_platform_t p;
    tu_random_platform(&p, 3);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_steady_t s;
    ssched_steady_init(&s);
    mpq_set_ui(s.throughput, 1, 3);
    s.flows = calloc(1, sizeof *s.flows);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s.flows);
    s.n_flows = 1;
    mpq_init(s.flows[0].rate);
    mpq_set_ui(s.flows[0].rate, 1, 2);
    mpz_t T;
    mpz_init(T);
    for (unsigned long x = 1; x <= 9; x++) {
        mpq_set_ui(p.c[0], x, 5);
        mpq_canonicalize(p.c[0]);
        ssched_steady_period(&p, &pb, &s, T);
        CU_ASSERT_EQUAL(mpz_cmp_ui(T, x == 5 ? 6 : 30), 0);
    }
    mpz_clear(T);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* An initialised model can be freed, built twice (the first build is
 * released, the sanitized build would report a leak) and freed twice. */
static void test_init_free_pairs(void)
{
    ssched_lp_t lp;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_init(&lp, NULL), SSCHED_OK);
    CU_ASSERT_STRING_EQUAL(lp.name, "ssched");
    ssched_lp_free(&lp);

    ssched_model_t m;
    ssched_model_init(&m);
    ssched_model_free(&m);
    ssched_platform_t p;
    tu_random_platform(&p, 4);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "P0", "P1,P2", &err), SSCHED_OK);
    for (int rep = 0; rep < 2; rep++) {
        CU_ASSERT_EQUAL_FATAL(ssched_model_build(&p, &pb, &m, &err), SSCHED_OK);
        CU_ASSERT_STRING_EQUAL(m.lp.name, "sssp");
        CU_ASSERT(m.lp.n_cols > 0);
    }
    ssched_model_free(&m);
    ssched_model_free(&m);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {{"k-major interval numbering", test_interval_index},
                                      {"LCM period of a solution", test_steady_period},
                                      {"LP and model init/free pairs", test_init_free_pairs},
                                      {NULL, NULL}};
    return tu_main("steady_api", tests);
}
