/* Seed 000 §6.3, Tables 2-4: table references spent on each entry T(f, s)
 * by the naive two-class program (eqs. (2)-(3)), with Lemma 4's binary
 * search (§5.3.3) and with Lemmas 4+5 (§5.3.4), for t_f = 1, t_s = c_s and
 * f, s <= 150; plus whole-table totals and times, and a check that the
 * three tables are identical.
 *
 * usage: bench_makespan_dp [--cs 2] [--max 150] [--step 10] [--reps 3] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/makespan.h"

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

/* The seed's entries at (f, s) = (150, 150), for reference. */
static const unsigned paper_150[3] = {11250, 117, 120};

int main(int argc, char **argv)
{
    const char *cs = "2";
    size_t max = 150, step = 10;
    int reps = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--cs")) cs = argv[i + 1];
        else if (!strcmp(argv[i], "--max")) max = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--step")) step = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "bench_makespan_dp: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    mpq_t tf, ts, a, b;
    mpq_inits(tf, ts, a, b, NULL);
    mpq_set_ui(tf, 1, 1);
    if (mpq_set_str(ts, cs, 10) != 0) {
        fprintf(stderr, "bench_makespan_dp: bad --cs\n");
        return 2;
    }
    mpq_canonicalize(ts);
    static const char *names[3] = {"naive (Table 2)", "Lemma 4 binary search (Table 3)",
                                   "Lemmas 4+5 (Table 4)"};
    ssched_mk_dp2_table_t *t[3];
    double secs[3];
    uint64_t total[3];
    for (int v = 0; v < 3; v++) {
        double *ts_run = malloc(reps * sizeof *ts_run);
        for (int r = 0; r < reps; r++) {
            ssched_error_t err;
            double t0 = now();
            if (ssched_mk_dp2_table_new(&t[v], tf, ts, max, max, (ssched_mk_dp2_variant_t)v, &err) !=
                SSCHED_OK) {
                fprintf(stderr, "bench_makespan_dp: %s\n", err.message);
                return 1;
            }
            ts_run[r] = now() - t0;
            if (r + 1 < reps)
                ssched_mk_dp2_table_free(t[v]);
        }
        qsort(ts_run, reps, sizeof *ts_run, cmp_double);
        secs[v] = ts_run[reps / 2];
        free(ts_run);
        total[v] = 0;
        for (size_t f = 0; f <= max; f++)
            for (size_t s = 0; s <= max; s++)
                total[v] += ssched_mk_dp2_table_refs(t[v], f, s);
    }
    int mismatch = 0;
    for (size_t f = 0; f <= max; f++)
        for (size_t s = 0; s <= max; s++) {
            ssched_mk_dp2_table_value(t[0], f, s, a);
            for (int v = 1; v < 3; v++) {
                ssched_mk_dp2_table_value(t[v], f, s, b);
                mismatch += !mpq_equal(a, b);
            }
        }
    printf("# two-class program, t_f = 1, t_s = %s, f, s <= %zu: references per entry T(f,s)\n", cs,
           max);
    for (int v = 0; v < 3; v++) {
        printf("\n## %s\n%5s", names[v], "s\\f");
        for (size_t f = 0; f <= max; f += step)
            printf(" %6zu", f);
        printf("\n");
        for (size_t s = max + step; s-- > 0;) {
            if (s % step)
                continue;
            printf("%5zu", s);
            for (size_t f = 0; f <= max; f += step)
                printf(" %6llu", (unsigned long long)ssched_mk_dp2_table_refs(t[v], f, s));
            printf("\n");
        }
    }
    printf("\n# whole table (%zu entries): total references, median time over %d runs\n",
           (max + 1) * (max + 1), reps);
    for (int v = 0; v < 3; v++)
        printf("%-34s %12llu refs  %9.5f s  refs saving vs naive x%.1f  time saving x%.1f\n",
               names[v], (unsigned long long)total[v], secs[v], (double)total[0] / total[v],
               secs[0] / secs[v]);
    if (max == 150 && step == 10 && !strcmp(cs, "2")) {
        printf("# entry (150,150): ours");
        for (int v = 0; v < 3; v++)
            printf(" %llu", (unsigned long long)ssched_mk_dp2_table_refs(t[v], 150, 150));
        printf("; seed 000 Tables 2-4: %u %u %u\n", paper_150[0], paper_150[1], paper_150[2]);
    }
    ssched_mk_dp2_table_value(t[0], max, max, a);
    gmp_printf("# T(%zu,%zu) = %Qd; tables identical: %s\n", max, max, a, mismatch ? "NO" : "yes");
    for (int v = 0; v < 3; v++)
        ssched_mk_dp2_table_free(t[v]);
    mpq_clears(tf, ts, a, b, NULL);
    return mismatch != 0;
}
