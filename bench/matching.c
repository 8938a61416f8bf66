/* Benchmark driver for matching/: number of matchings r and decomposition
 * time against the number of bipartite edges, bottleneck rule versus
 * arbitrary perfect matchings, on the same random graphs in the same run.
 *
 *   bench_matching [--weights random|lcm] [--reps R] [--max-nodes N] [--degree K]
 *
 * Graphs: n senders x n receivers, m = K·n edges with random endpoints
 * (parallel edges allowed), n = 8, 16, 32, ... up to N.
 * Weights "random": uniform in [1, 2^20].  Weights "lcm": rates num/den with
 * den in [1, 60] scaled by the LCM of all denominators, as the LCM period of
 * an LP solution produces (numbers far beyond 64 bits, with common factors).
 * Each configuration is decomposed R times per rule on R different seeds;
 * the table gives medians.  "runs" counts the transfers a schedule needs when
 * an edge present in consecutive matchings is sent in one go:
 * Σ_i |M_i \ M_{i-1}| (what start-ups cost; see src/redistribution).  Every decomposition is
 * verified (inside ssched_matching_decompose) and the program stops on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/matching.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
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
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Σ_i |M_i \ M_{i-1}|: pieces after coalescing consecutive occurrences. */
static size_t count_runs(const ssched_matching_result_t *r, size_t n_edges)
{
    size_t *stamp = calloc(n_edges ? n_edges : 1, sizeof *stamp), runs = 0;
    for (size_t i = 0; i < r->n_matchings; i++)
        for (size_t j = 0; j < r->matchings[i].n_edges; j++) {
            size_t e = r->matchings[i].edges[j];
            runs += stamp[e] != i; /* stamp = 1 + last matching holding e */
            stamp[e] = i + 1;
        }
    free(stamp);
    return runs;
}

static void build(ssched_bipartite_t *g, size_t n, size_t m, int lcm, uint64_t seed)
{
    uint64_t s = seed;
    mpz_t w, L;
    mpz_init(w);
    mpz_init_set_ui(L, 1);
    unsigned long *num = malloc(m * sizeof *num), *den = malloc(m * sizeof *den);
    for (size_t i = 0; i < m; i++) {
        den[i] = 1 + rng_next(&s) % 60;
        num[i] = 1 + rng_next(&s) % (4 * den[i]);
        if (lcm)
            mpz_lcm_ui(L, L, den[i]);
    }
    ssched_bipartite_init(g, n, n);
    for (size_t i = 0; i < m; i++) {
        if (lcm) {
            mpz_divexact_ui(w, L, den[i]);
            mpz_mul_ui(w, w, num[i]);
        } else {
            mpz_set_ui(w, 1 + rng_next(&s) % (1u << 20));
        }
        size_t u = rng_next(&s) % n, v = rng_next(&s) % n;
        if (ssched_bipartite_add_edge(g, u, v, w, NULL, NULL) != SSCHED_OK) {
            fprintf(stderr, "bench_matching: add_edge failed\n");
            exit(1);
        }
    }
    free(num);
    free(den);
    mpz_clear(w);
    mpz_clear(L);
}

int main(int argc, char **argv)
{
    int lcm = 0, reps = 5;
    size_t max_nodes = 128, degree = 8;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
            lcm = !strcmp(argv[++i], "lcm");
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--max-nodes") && i + 1 < argc) {
            max_nodes = (size_t)atol(argv[++i]);
        } else if (!strcmp(argv[i], "--degree") && i + 1 < argc) {
            degree = (size_t)atol(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_matching [--weights random|lcm] [--reps R] "
                            "[--max-nodes N] [--degree K]\n");
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    double *t[2], *rr[2], *runs[2], *bits = malloc(reps * sizeof *bits),
                                    *bnd = malloc(reps * sizeof *bnd);
    for (int k = 0; k < 2; k++) {
        t[k] = malloc(reps * sizeof *t[k]);
        rr[k] = malloc(reps * sizeof *rr[k]);
        runs[k] = malloc(reps * sizeof *runs[k]);
    }
    printf("weights=%s  n senders x n receivers, m = %zu n random edges, median of %d seeds\n",
           lcm ? "lcm" : "random", degree, reps);
    printf("%5s %6s %6s %6s | %7s %9s %7s | %7s %9s %7s | %7s %7s\n", "n", "edges", "bound",
           "D_bits", "r_bneck", "t_bneck_ms", "runs_b", "r_arb", "t_arb_ms", "runs_a", "r_ratio",
           "t_ratio");
    for (size_t n = 8; n <= max_nodes; n *= 2) {
        size_t m = degree * n;
        for (int rep = 0; rep < reps; rep++) {
            ssched_bipartite_t g;
            build(&g, n, m, lcm, 1000003u * (uint64_t)n + (uint64_t)rep);
            mpz_t T;
            mpz_init(T);
            ssched_bipartite_max_degree(&g, T, NULL);
            bits[rep] = (double)mpz_sizeinbase(T, 2);
            for (int k = 0; k < 2; k++) {
                ssched_matching_result_t r;
                ssched_error_t err;
                ssched_matching_result_init(&r);
                double t0 = now();
                ssched_status_t st =
                    ssched_matching_decompose(&g, T, (ssched_matching_rule_t)k, &r, &err);
                t[k][rep] = (now() - t0) * 1e3;
                if (st != SSCHED_OK) {
                    fprintf(stderr, "bench_matching: %s\n", err.message);
                    return 1;
                }
                rr[k][rep] = (double)r.n_matchings;
                runs[k][rep] = (double)count_runs(&r, m);
                bnd[rep] = (double)r.bound;
                ssched_matching_result_free(&r);
            }
            mpz_clear(T);
            ssched_bipartite_free(&g);
        }
        double rb = median(rr[0], reps), ra = median(rr[1], reps);
        double tb = median(t[0], reps), ta = median(t[1], reps);
        printf("%5zu %6zu %6.0f %6.0f | %7.0f %9.2f %7.0f | %7.0f %9.2f %7.0f | %7.3f %7.2f\n", n,
               m, median(bnd, reps), median(bits, reps), rb, tb, median(runs[0], reps), ra, ta,
               median(runs[1], reps), rb / ra, tb / ta);
        fflush(stdout);
    }
    for (int k = 0; k < 2; k++) {
        free(t[k]);
        free(rr[k]);
        free(runs[k]);
    }
    free(bits);
    free(bnd);
    return 0;
}
