/* Benchmark driver for bench/routed.sh: the routed model on a cluster-like
 * platform built through the API, column generation (the default) against
 * the edge LP.  H hosts on S sites: host i has a private SHARED link (1/8,
 * every third 1/4), sites are joined pairwise by SHARED backbone links
 * (1/2); route a->b = [private a, backbone of the two sites, private b]
 * (no backbone inside a site): H(H-1) host pairs, every one routed.
 *   usage: bench_routed H S [lp]   (lp: also the edge LP, and compare) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/problem.h"
#include "ssched/steady.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int build(ssched_platform_t *p, unsigned H, unsigned S)
{
    ssched_platform_init(p);
    if (ssched_platform_make_routed(p, NULL) != SSCHED_OK)
        return 0;
    mpq_t q;
    mpq_init(q);
    char name[32];
    size_t *up = malloc(H * sizeof *up), *bb = malloc(S * S * sizeof *bb);
    int ok = up && bb;
    mpq_set_ui(q, 1, 1);
    for (unsigned i = 0; ok && i < H; i++) {
        snprintf(name, sizeof name, "H%u", i);
        ok = ssched_platform_add_node(p, name, q, NULL, NULL) == SSCHED_OK;
    }
    for (unsigned i = 0; ok && i < H; i++) {
        snprintf(name, sizeof name, "h%u", i);
        mpq_set_ui(q, 1, i % 3 ? 8 : 4);
        ok = ssched_platform_add_link(p, name, q, NULL, SSCHED_LINK_SHARED, &up[i], NULL) ==
             SSCHED_OK;
    }
    mpq_set_ui(q, 1, 2);
    for (unsigned a = 0; ok && a < S; a++)
        for (unsigned b = a + 1; ok && b < S; b++) {
            snprintf(name, sizeof name, "bb%u_%u", a, b);
            ok = ssched_platform_add_link(p, name, q, NULL, SSCHED_LINK_SHARED, &bb[a * S + b],
                                          NULL) == SSCHED_OK;
            bb[b * S + a] = bb[a * S + b];
        }
    for (unsigned a = 0; ok && a < H; a++)
        for (unsigned b = 0; ok && b < H; b++) {
            if (a == b)
                continue;
            size_t r[3] = {up[a], bb[(a % S) * S + b % S], up[b]}, n = 3;
            if (a % S == b % S) {
                r[1] = up[b];
                n = 2;
            }
            ok = ssched_platform_add_routed_edge(p, a, b, r, n, NULL) == SSCHED_OK;
        }
    free(up);
    free(bb);
    mpq_clear(q);
    return ok && ssched_platform_finalize(p, NULL) == SSCHED_OK;
}

static void list(char *out, size_t cap, unsigned from, unsigned step, unsigned count, unsigned H)
{
    out[0] = '\0';
    for (unsigned k = 0; k < count; k++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%sH%u", k ? "," : "", (from + k * step) % H);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_routed H S [lp]\n");
        return 2;
    }
    unsigned H = (unsigned)atoi(argv[1]), S = (unsigned)atoi(argv[2]);
    int with_lp = argc > 3 && !strcmp(argv[3], "lp");
    if (H < 4 || S < 1 || H > 4096 || S > 64) {
        fprintf(stderr, "bench_routed: H in 4..4096, S in 1..64\n");
        return 2;
    }
    ssched_platform_t p;
    if (!build(&p, H, S)) {
        fprintf(stderr, "bench_routed: cannot build the platform\n");
        return 1;
    }
    static const char *kinds[] = {"scatter", "gossip", "reduce", "broadcast"};
    char *a = malloc(16 * (size_t)H), *b = malloc(16 * (size_t)H);
    int rc = a && b ? 0 : 1;
    for (int k = 0; k < 4 && !rc; k++) {
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        ssched_status_t st;
        if (k == 0) {
            list(b, 16 * (size_t)H, 1, 1, H - 1, H);
            st = ssched_problem_set_scatter(&pb, &p, "H0", b, NULL);
        } else if (k == 1) {
            list(a, 16 * (size_t)H, 0, 2, 4, H);
            list(b, 16 * (size_t)H, 1, 2, 4, H);
            st = ssched_problem_set_gossip(&pb, &p, a, b, NULL);
        } else if (k == 2) {
            list(a, 16 * (size_t)H, 0, 1, 6, H);
            st = ssched_problem_set_reduce(&pb, &p, a, "H1", NULL);
        } else {
            st = ssched_problem_set_broadcast(&pb, &p, "H0", NULL, NULL);
        }
        for (int m = 0; m < 1 + with_lp && st == SSCHED_OK; m++) {
            ssched_steady_options_t opt;
            ssched_steady_options_default(&opt);
            opt.method = m ? SSCHED_METHOD_LP : SSCHED_METHOD_AUTO;
            ssched_steady_t s;
            ssched_steady_init(&s);
            ssched_error_t err;
            ssched_error_clear(&err);
            double t0 = now();
            st = ssched_steady_solve_opts(&p, &pb, &opt, &s, &err);
            double t = now() - t0;
            if (st == SSCHED_OK)
                gmp_printf("%-9s H=%u S=%u pairs=%zu %-7s TP %-10Qd %8.3f s  rows %zu\n",
                           kinds[k], H, S, p.n_edges, m ? "edgeLP" : "colgen", s.throughput, t,
                           s.lp_rows);
            else
                fprintf(stderr, "bench_routed: %s: %s\n", kinds[k], err.message);
            ssched_steady_free(&s);
        }
        if (st != SSCHED_OK)
            rc = 1;
        ssched_problem_free(&pb);
    }
    free(a);
    free(b);
    ssched_platform_free(&p);
    return rc;
}
