/* Benchmark driver for bench/platform_load.sh: median wall time of
 * ssched_platform_load_graphml() alone (no solve) on each given file.
 *   usage: bench_platform_load [--reps K] FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/platform.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int reps = 5, first = 1;
    if (argc > 2 && !strcmp(argv[1], "--reps")) {
        reps = atoi(argv[2]);
        first = 3;
    }
    if (reps < 1 || first >= argc) {
        fprintf(stderr, "usage: bench_platform_load [--reps K] FILE...\n");
        return 2;
    }
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        return 1;
    for (int f = first; f < argc; f++) {
        size_t nodes = 0, edges = 0;
        for (int r = 0; r < reps; r++) {
            ssched_platform_t p;
            ssched_platform_init(&p);
            ssched_error_t err;
            ssched_error_clear(&err);
            double t0 = now();
            ssched_status_t st = ssched_platform_load_graphml(&p, argv[f], &err);
            t[r] = now() - t0;
            if (st != SSCHED_OK) {
                fprintf(stderr, "%s\n", err.message);
                free(t);
                return 2;
            }
            nodes = p.n_nodes;
            edges = p.n_edges;
            ssched_platform_free(&p);
        }
        qsort(t, (size_t)reps, sizeof *t, cmp_double);
        double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
        printf("%s %zu %zu %.4f\n", argv[f], nodes, edges, med);
    }
    free(t);
    return 0;
}
