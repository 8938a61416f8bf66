/* Cross-check: on random small platforms, ssched's certified TP equals the
 * exact optimum QSopt_ex's esolver finds on the LP ssched exports.  The two
 * solvers share nothing but the exported file. */
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

static void check_instance(const ssched_platform_t *p, const ssched_problem_t *pb, int *agree)
{
    ssched_model_t m;
    ssched_model_init(&m);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_model_build(p, pb, &m, &err), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &s, &err), SSCHED_OK);
    mpq_t ref;
    mpq_init(ref);
    CU_ASSERT_EQUAL_FATAL(tu_esolver_optimum(&m.lp, ref), 0);
    if (!mpq_equal(ref, s.throughput)) {
        char *a = ssched_rational_to_string(s.throughput), *b = ssched_rational_to_string(ref);
        fprintf(stderr, "\n  ssched TP %s != esolver %s\n", a, b);
        free(a);
        free(b);
        CU_FAIL("TP differs from esolver");
    } else {
        (*agree)++;
    }
    mpq_clear(ref);
    ssched_steady_free(&s);
    ssched_model_free(&m);
}

static void test_esolver_available(void)
{
    tu_run_t r;
    tu_sh(&r, "command -v esolver");
    CU_ASSERT_EQUAL_FATAL(r.status, 0); /* CI installs qsopt-ex: a missing solver is a failure */
    tu_run_free(&r);
}

static void test_random_scatters(void)
{
    int agree = 0;
    for (int k = 0; k < 100; k++) {
        ssched_platform_t p;
        unsigned n = 4 + tu_pick(5);
        tu_random_platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        pb.kind = SSCHED_PROBLEM_SCATTER;
        pb.n_sources = 1;
        pb.sources = malloc(sizeof(size_t));
        pb.sources[0] = tu_pick(n);
        pb.targets = malloc(n * sizeof(size_t));
        for (unsigned i = 0; i < n; i++)
            if (i != pb.sources[0] && (tu_pick(2) || pb.n_targets == 0))
                pb.targets[pb.n_targets++] = i;
        check_instance(&p, &pb, &agree);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(agree, 100);
}

static void test_random_gossips(void)
{
    int agree = 0;
    for (int k = 0; k < 60; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(4);
        tu_random_platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        pb.kind = SSCHED_PROBLEM_GOSSIP;
        pb.sources = malloc(n * sizeof(size_t));
        pb.targets = malloc(n * sizeof(size_t));
        for (unsigned i = 0; i < n; i++) {
            if (tu_pick(3) || pb.n_sources == 0)
                pb.sources[pb.n_sources++] = i;
            if (tu_pick(3) || pb.n_targets == 0 || (i == n - 1 && pb.n_targets == 1))
                pb.targets[pb.n_targets++] = i;
        }
        if (ssched_problem_validate(&pb, &p, NULL) == SSCHED_OK)
            check_instance(&p, &pb, &agree);
        else
            agree++;
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(agree, 60);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"esolver is installed", test_esolver_available},
        {"random scatters equal esolver's optimum", test_random_scatters},
        {"random gossips equal esolver's optimum", test_random_gossips},
        {NULL, NULL}};
    return tu_main("esolver cross-check", tests);
}
