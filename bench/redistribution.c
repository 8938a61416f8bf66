/* Benchmark driver for src/redistribution/ (issue 7): the trends of seed 003
 * Fig. 5 and the scheduling time for P = 64, K = 63.
 *
 *   bench_redistribution [--seeds S] [--reps R]
 *
 * Table 1 (Fig. 5a): P = 64, K = 9..63, N = 10^7, x = 1, bandwidths drawn in
 *   [10, 200] (seeded, exact).  Completion times of seed 1 and, over seeds
 *   1..S, the mean and max excess over the lower bound.
 * Table 2 (Fig. 5b): P = 64, K = 40, N = 10^7, bandwidths in [10, 10(1+v)]
 *   for a heterogeneity v from 100% to 1900%.
 * Table 3 (beyond the seed): the same with start-up times, where splitting
 *   messages costs extra start-ups (preemptive).
 * Table 4: scheduling time for P = 64, K = 63, median of R runs, for the
 *   algorithm alone (the seed reports 10 ms for its heuristic on a Cray T3E
 *   node) and for the library call, which adds the exact per-processor
 *   ordering and the independent checker.
 * Times are in the model's units (elements / bandwidth); printed as decimals
 * for reading, computed exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/redistribution/internal.h"
#include "ssched/redistribution.h"

#define NALG 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(const char *what, const ssched_error_t *err)
{
    fprintf(stderr, "bench_redistribution: %s: %s\n", what, err->message);
    exit(1);
}

/* Build the instance and schedule it with every algorithm.  c[a] receives the
 * completion / lower bound ratio, lb the lower bound, tr the transfers and
 * splits of the preemptive schedule. */
static void run(size_t P, size_t K, unsigned long N, unsigned long bw_lo, unsigned long bw_hi,
                const char *startup, uint64_t seed, double c[NALG], double abs_c[NALG], double *lb,
                size_t *pre_transfers, size_t *pre_split)
{
    ssched_redist_t r;
    ssched_error_t err;
    mpq_t a, b, t, ratio;
    mpq_inits(a, b, t, ratio, NULL);
    mpq_set_ui(a, bw_lo, 1);
    mpq_set_ui(b, bw_hi, 1);
    if (mpq_set_str(t, startup, 10) != 0)
        exit(2);
    mpq_canonicalize(t);
    ssched_redist_init(&r);
    if (ssched_redist_network_random(&r, P, a, b, seed, &err) != SSCHED_OK)
        die("network", &err);
    if (ssched_redist_build(&r, K, N, 1, t, &err) != SSCHED_OK)
        die("build", &err);
    *lb = mpq_get_d(r.lower_bound);
    for (int alg = 0; alg < NALG; alg++) {
        ssched_redist_schedule_t s;
        ssched_redist_schedule_init(&s);
        if (ssched_redist_schedule(&r, (ssched_redist_algorithm_t)alg, &s, &err) != SSCHED_OK)
            die(ssched_redist_algorithm_name((ssched_redist_algorithm_t)alg), &err);
        mpq_div(ratio, s.completion, r.lower_bound);
        c[alg] = mpq_get_d(ratio);
        abs_c[alg] = mpq_get_d(s.completion);
        if (alg == SSCHED_REDIST_PREEMPTIVE) {
            *pre_transfers = s.n_transfers;
            *pre_split = s.n_split;
        }
        ssched_redist_schedule_free(&s);
    }
    ssched_redist_free(&r);
    mpq_clears(a, b, t, ratio, NULL);
}

/* One table row over seeds 1..S. */
static void row(const char *label, size_t P, size_t K, unsigned long N, unsigned long lo,
                unsigned long hi, const char *startup, int seeds)
{
    double c[NALG], abs1[NALG], abs_c[NALG], lb1 = 0, lb, sum[NALG] = {0}, mx[NALG] = {0};
    size_t tr = 0, sp = 0, tr1 = 0, sp1 = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        run(P, K, N, lo, hi, startup, (uint64_t)seed, c, abs_c, &lb, &tr, &sp);
        if (seed == 1) {
            memcpy(abs1, abs_c, sizeof abs1);
            lb1 = lb;
            tr1 = tr;
            sp1 = sp;
        }
        for (int a = 0; a < NALG; a++) {
            sum[a] += c[a];
            if (c[a] > mx[a])
                mx[a] = c[a];
        }
    }
    printf("%-8s | %10.1f %10.1f %10.1f %10.1f | %6.2f%% %6.2f%% | %7.2f%% %7.2f%% | %7.3f%% %6zu "
           "%5zu\n",
           label, lb1, abs1[SSCHED_REDIST_GREEDY], abs1[SSCHED_REDIST_DIRECT],
           abs1[SSCHED_REDIST_PREEMPTIVE], 100 * (sum[SSCHED_REDIST_GREEDY] / seeds - 1),
           100 * (mx[SSCHED_REDIST_GREEDY] - 1), 100 * (sum[SSCHED_REDIST_DIRECT] / seeds - 1),
           100 * (mx[SSCHED_REDIST_DIRECT] - 1), 100 * (mx[SSCHED_REDIST_PREEMPTIVE] - 1), tr1,
           sp1);
    fflush(stdout);
}

static void header(const char *first)
{
    printf("%-8s | %10s %10s %10s %10s | %15s | %17s | %8s %6s %5s\n", first, "lower_bnd", "greedy",
           "direct", "preempt", "greedy/LB-1", "direct/LB-1", "preempt", "pieces", "split");
    printf("%-8s | %10s %10s %10s %10s | %7s %7s | %8s %8s | %8s %6s %5s\n", "", "(seed 1)",
           "(seed 1)", "(seed 1)", "(seed 1)", "mean", "max", "mean", "max", "/LB-1 max", "(s1)",
           "(s1)");
}

static double median_time(size_t P, size_t K, int alg, int library_call, int reps)
{
    ssched_redist_t r;
    ssched_error_t err;
    mpq_t a, b, t;
    mpq_inits(a, b, t, NULL);
    mpq_set_ui(a, 10, 1);
    mpq_set_ui(b, 200, 1);
    ssched_redist_init(&r);
    if (ssched_redist_network_random(&r, P, a, b, 1, &err) != SSCHED_OK ||
        ssched_redist_build(&r, K, 10000000UL, 1, t, &err) != SSCHED_OK)
        die("instance", &err);
    double *v = malloc(reps * sizeof *v);
    for (int i = 0; i < reps; i++) {
        ssched_redist_schedule_t s;
        ssched_redist_schedule_init(&s);
        double t0 = now();
        ssched_status_t st;
        if (library_call)
            st = ssched_redist_schedule(&r, (ssched_redist_algorithm_t)alg, &s, &err);
        else if (alg == SSCHED_REDIST_GREEDY)
            st = ssched_i_rd_greedy(&r, &s, &err);
        else if (alg == SSCHED_REDIST_DIRECT)
            st = ssched_i_rd_direct(&r, &s, &err);
        else
            st = ssched_i_rd_preemptive(&r, &s, &err);
        v[i] = (now() - t0) * 1e3;
        if (st != SSCHED_OK)
            die("timing", &err);
        ssched_redist_schedule_free(&s);
    }
    qsort(v, (size_t)reps, sizeof *v, cmp_double);
    double m = v[reps / 2];
    free(v);
    ssched_redist_free(&r);
    mpq_clears(a, b, t, NULL);
    return m;
}

int main(int argc, char **argv)
{
    int seeds = 5, reps = 11;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_redistribution [--seeds S] [--reps R]\n");
            return 2;
        }
    }
    if (seeds < 1)
        seeds = 1;
    if (reps < 1)
        reps = 1;
    char label[32];

    printf("Table 1 (seed 003 Fig. 5a): P = 64, N = 10^7, x = 1, bandwidths 10..200, no "
           "start-up, %d seeds\n",
           seeds);
    header("K");
    for (size_t K = 9; K <= 63; K += 6) {
        snprintf(label, sizeof label, "%zu", K);
        row(label, 64, K, 10000000UL, 10, 200, "0", seeds);
    }

    printf("\nTable 2 (seed 003 Fig. 5b): P = 64, K = 40, N = 10^7, bandwidths 10..10(1+v), no "
           "start-up, %d seeds\n",
           seeds);
    header("v");
    for (unsigned long v = 100; v <= 1900; v += 200) {
        snprintf(label, sizeof label, "%lu%%", v);
        row(label, 64, 40, 10000000UL, 10, 10 + v / 10, "0", seeds);
    }

    printf("\nTable 3 (beyond the seed): P = 64, K = 40, N = 10^7, bandwidths 10..200, start-up "
           "T per transfer, %d seeds\n",
           seeds);
    header("T");
    static const char *startups[] = {"0", "1", "10", "100"};
    for (size_t i = 0; i < 4; i++)
        row(startups[i], 64, 40, 10000000UL, 10, 200, startups[i], seeds);

    printf("\nTable 4: scheduling time, P = 64, K = 63, N = 10^7, bandwidths 10..200, median of "
           "%d runs (ms)\n",
           reps);
    printf("%-11s %12s %16s\n", "algorithm", "alone", "with check");
    for (int alg = 0; alg < NALG; alg++)
        printf("%-11s %12.2f %16.2f\n",
               ssched_redist_algorithm_name((ssched_redist_algorithm_t)alg),
               median_time(64, 63, alg, 0, reps), median_time(64, 63, alg, 1, reps));
    return 0;
}
