/* Benchmark: seed 004's Algorithm 1, Algorithm 2 and ssched's exact search
 * side by side on growing n (Table 1's 16 processors, descending bandwidth,
 * root dinadan), medians of repeated runs measured in the same process, the
 * ratios between them, and a check that the three optima are equal.
 *
 * usage: bench_scatter_balance_dp TABLE1.csv [reps] [max_n_alg1] [max_n_alg2]
 * Prints a table; no assertion on time (a benchmark measures, a test asserts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/rational.h"
#include "ssched/scatter_balance.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median wall time of `reps` solves; the last result stays in res. */
static double timed(const ssched_sb_platform_t *inst, long n, ssched_sb_algorithm_t alg, int reps,
                    ssched_sb_result_t *res)
{
    double t[64];
    if (reps > 64)
        reps = 64;
    for (int k = 0; k < reps; k++) {
        ssched_error_t err;
        ssched_error_clear(&err);
        double t0 = now();
        if (ssched_sb_solve(inst, n, alg, res, &err) != SSCHED_OK) {
            fprintf(stderr, "%s failed: %s\n", ssched_sb_algorithm_name(alg), err.message);
            exit(1);
        }
        t[k] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
}

static void fmt_time(char *buf, size_t cap, double s)
{
    if (s < 0)
        snprintf(buf, cap, "-");
    else if (s < 1e-3)
        snprintf(buf, cap, "%.1f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, cap, "%.2f ms", s * 1e3);
    else
        snprintf(buf, cap, "%.2f s", s);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TABLE1.csv [reps] [max_n_alg1] [max_n_alg2]\n", argv[0]);
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    long max1 = argc > 3 ? atol(argv[3]) : 16000;
    long max2 = argc > 4 ? atol(argv[4]) : 817101;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_sb_platform_t pl, inst;
    ssched_sb_platform_init(&pl);
    ssched_sb_platform_init(&inst);
    mpq_t pre;
    mpq_init(pre);
    if (ssched_sb_platform_load_csv(&pl, argv[1], &err) != SSCHED_OK ||
        ssched_sb_arrange(&pl, ssched_sb_platform_holder(&pl), ssched_sb_platform_holder(&pl),
                          SSCHED_SB_ORDER_BANDWIDTH_DESC, 817101, &inst, pre, &err) != SSCHED_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    static const long ns[] = {500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000,
                              256000, 512000, 817101};
    printf("Algorithms 1 and 2 of seed 004 vs ssched's exact search; p = %zu (Table 1, "
           "descending bandwidth); median of %d runs each\n",
           inst.p, reps);
    printf("%8s %11s %11s %11s %10s %10s %14s %12s %7s  %s\n", "n", "Alg. 1", "Alg. 2", "exact",
           "A1/A2", "A2/exact", "A2 e-steps", "exact states", "equal", "optimum (s)");
    double prev1 = -1, prev2 = -1;
    long prevn1 = 0, prevn2 = 0;
    double slope1 = -1, slope2 = -1;
    int all_equal = 1;
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
        long n = ns[k];
        ssched_sb_result_t r1, r2, r3;
        ssched_sb_result_init(&r1);
        ssched_sb_result_init(&r2);
        ssched_sb_result_init(&r3);
        double t1 = -1, t2 = -1, t3;
        int big2 = n > 100000; /* one run of Algorithm 2 beyond that: it takes seconds */
        if (n <= max1)
            t1 = timed(&inst, n, SSCHED_SB_DP, n > 8000 ? 1 : reps, &r1);
        if (n <= max2)
            t2 = timed(&inst, n, SSCHED_SB_DP_FAST, big2 ? 1 : reps, &r2);
        t3 = timed(&inst, n, SSCHED_SB_EXACT, reps, &r3);
        int eq = (t1 < 0 || mpq_equal(r1.makespan, r3.makespan)) &&
                 (t2 < 0 || mpq_equal(r2.makespan, r3.makespan));
        all_equal &= eq;
        char a[32], b[32], c[32], ra[32], rb[32], st[32];
        fmt_time(a, sizeof a, t1);
        fmt_time(b, sizeof b, t2);
        fmt_time(c, sizeof c, t3);
        snprintf(ra, sizeof ra, t1 >= 0 && t2 > 0 ? "%.0f" : "-", t1 / t2);
        snprintf(rb, sizeof rb, t2 >= 0 && t3 > 0 ? "%.0f" : "-", t2 / t3);
        snprintf(st, sizeof st, t2 >= 0 ? "%lld" : "-", r2.evaluations);
        char *opt = ssched_rational_to_decimal(r3.makespan, 6, SSCHED_DECIMAL_FIXED);
        printf("%8ld %11s %11s %11s %10s %10s %14s %12lld %7s  %s\n", n, a, b, c, ra, rb, st,
               r3.states, eq ? "yes" : "NO", opt);
        free(opt);
        if (t1 > 0) {
            if (prev1 > 0)
                slope1 = log(t1 / prev1) / log((double)n / (double)prevn1);
            prev1 = t1;
            prevn1 = n;
        }
        if (t2 > 0) {
            if (prev2 > 0)
                slope2 = log(t2 / prev2) / log((double)n / (double)prevn2);
            prev2 = t2;
            prevn2 = n;
        }
        ssched_sb_result_free(&r1);
        ssched_sb_result_free(&r2);
        ssched_sb_result_free(&r3);
    }
    printf("growth exponents (last step of n): Algorithm 1 ~ n^%.2f, Algorithm 2 ~ n^%.2f\n",
           slope1, slope2);
    if (prev1 > 0 && slope1 > 0)
        printf("Algorithm 1 extrapolated to n = 817101 with n^2: %.0f s (seed 004: over two days "
               "on a PIII/933)\n",
               prev1 * pow(817101.0 / (double)prevn1, 2.0));
    printf("all optima equal: %s\n", all_equal ? "yes" : "NO");
    mpq_clear(pre);
    ssched_sb_platform_free(&inst);
    ssched_sb_platform_free(&pl);
    return all_equal ? 0 : 1;
}
