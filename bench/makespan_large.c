/* Beyond the seeds: exact optimal reduce and broadcast for 3-class
 * clusters of 40+ processors with the class-count programs, against SNF /
 * FNF and against the full branch-and-bound (node-capped) in the same
 * process.  Each cluster draws 3 distinct random rational times, a random
 * class per processor and a random root.
 *
 * usage: bench_makespan_large [--sizes 40,60,80,100] [--reps 20] [--cap NODES] [--seed S] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/makespan.h"

static unsigned long long rng = 99;
static unsigned rnd(unsigned bound)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng >> 33) % bound);
}

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

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double maxof(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

typedef ssched_status_t (*exact_fn)(const ssched_mk_cluster_t *, size_t, ssched_mk_schedule_t *,
                                    ssched_mk_stats_t *, ssched_error_t *);
typedef ssched_status_t (*heur_fn)(const ssched_mk_cluster_t *, size_t, ssched_mk_schedule_t *,
                                   ssched_error_t *);
typedef ssched_status_t (*bnb_fn)(const ssched_mk_cluster_t *, size_t,
                                  const ssched_mk_bnb_options_t *, ssched_mk_schedule_t *,
                                  ssched_mk_stats_t *, ssched_error_t *);

int main(int argc, char **argv)
{
    const char *sizes = "40,60,80,100";
    int reps = 20;
    uint64_t cap = 2000000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--sizes")) sizes = argv[i + 1];
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cap")) cap = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--seed")) rng = strtoull(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "bench_makespan_large: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    printf("# exact optimum on random 3-class clusters (%d per size): class-count program (dpk) "
           "vs heuristic vs full branch-and-bound capped at %llu nodes\n",
           reps, (unsigned long long)cap);
    printf("# times in seconds (median / max); 'heur>opt' = clusters where SNF/FNF is not "
           "optimal, 'gap' = largest heuristic/optimum; bnb: clusters proven within the cap, "
           "median time\n");
    printf("%-9s %4s | %9s %9s | %8s %7s | %6s %9s | %s\n", "op", "n", "dpk med", "dpk max",
           "heur>opt", "gap", "bnb ok", "bnb med", "dpk vs bnb (proven ones)");
    double *td = malloc(reps * sizeof *td), *tb = malloc(reps * sizeof *tb);
    char *copy = strdup(sizes);
    int failures = 0;
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        size_t n = strtoul(tok, NULL, 10);
        for (int opi = 0; opi < 2; opi++) {
            int bcast = opi == 1;
            int worse = 0, proven = 0, agree = 0;
            double gap = 1;
            for (int r = 0; r < reps; r++) {
                ssched_mk_cluster_t c;
                ssched_error_t err;
                ssched_mk_cluster_init(&c, n, &err);
                unsigned num[3], den[3];
                do {
                    for (int k = 0; k < 3; k++) {
                        num[k] = 2 + rnd(30);
                        den[k] = 1 + rnd(4);
                    }
                } while (num[0] * den[1] == num[1] * den[0] || num[0] * den[2] == num[2] * den[0] ||
                         num[1] * den[2] == num[2] * den[1]);
                for (size_t p = 0; p < n; p++) {
                    int k = rnd(3);
                    mpq_set_ui(c.time[p], num[k], den[k]);
                    mpq_canonicalize(c.time[p]);
                }
                size_t root = rnd((unsigned)n);
                ssched_mk_schedule_t o, h, b;
                ssched_mk_schedule_init(&o);
                ssched_mk_schedule_init(&h);
                ssched_mk_schedule_init(&b);
                ssched_mk_stats_t st;
                exact_fn exact = bcast ? ssched_mk_broadcast_dpk : ssched_mk_reduce_dpk;
                heur_fn heur = bcast ? ssched_mk_broadcast_fnf : ssched_mk_reduce_snf;
                bnb_fn bnb = bcast ? ssched_mk_broadcast_bnb : ssched_mk_reduce_bnb;
                double t0 = now();
                if (exact(&c, root, &o, &st, &err) != SSCHED_OK) {
                    fprintf(stderr, "bench: %s\n", err.message);
                    return 1;
                }
                td[r] = now() - t0;
                ssched_check_report_t rep;
                if (ssched_mk_check(&c, &o, &rep, &err) != SSCHED_OK || !rep.valid) {
                    fprintf(stderr, "bench: invalid schedule: %s\n",
                            rep.valid ? err.message : rep.violation);
                    failures++;
                }
                heur(&c, root, &h, &err);
                if (mpq_cmp(h.makespan, o.makespan) < 0)
                    failures++;
                if (mpq_cmp(h.makespan, o.makespan) > 0) {
                    worse++;
                    double g = mpq_get_d(h.makespan) / mpq_get_d(o.makespan);
                    if (g > gap)
                        gap = g;
                }
                ssched_mk_bnb_options_t opt;
                ssched_mk_bnb_options(&opt, SSCHED_MK_BNB_FULL);
                opt.max_nodes = cap;
                t0 = now();
                ssched_status_t bs = bnb(&c, root, &opt, &b, &st, &err);
                tb[r] = now() - t0;
                if (bs == SSCHED_OK) {
                    proven++;
                    agree += mpq_equal(b.makespan, o.makespan);
                } else {
                    tb[r] = 1e30; /* sorts last: not proven */
                }
                ssched_mk_schedule_free(&o);
                ssched_mk_schedule_free(&h);
                ssched_mk_schedule_free(&b);
                ssched_mk_cluster_free(&c);
            }
            if (agree != proven)
                failures++;
            double bmed = median(tb, reps);
            char bm[32];
            if (bmed > 1e29)
                snprintf(bm, sizeof bm, "%9s", "capped");
            else
                snprintf(bm, sizeof bm, "%9.4f", bmed);
            printf("%-9s %4zu | %9.4f %9.4f | %5d/%-2d %7.4f | %3d/%-2d %s | %d/%d agree\n",
                   bcast ? "broadcast" : "reduce", n, median(td, reps), maxof(td, reps), worse,
                   reps, gap, proven, reps, bm, agree, proven);
            fflush(stdout);
        }
    }
    printf("# failures (invalid schedule, heuristic below optimum, disagreement): %d\n", failures);
    free(copy);
    free(td);
    free(tb);
    return failures != 0;
}
