/* Seed 000 / seed 002 Table 1: branch-and-bound search effort on random
 * 3-class clusters, against a generic branch-and-bound run in the same
 * process on the same clusters.
 *
 * P is the number of processors searched over (the senders of a reduce,
 * the receivers of a broadcast), as in the seeds' tables: the cluster has
 * P+1 processors.  N and L are the nodes and leaves of the whole search
 * tree (sequences of time classes), n the nodes a search examined, n/N its
 * search ratio.  "paper" = the seeds' three techniques, "full" = paper +
 * relaxation bounds + symmetry, "generic" = input order and partial-cost
 * pruning only (capped at --cap nodes per cluster; a capped run counts
 * with the cap, so its figures are lower bounds, marked '>').
 *
 * usage: bench_makespan_search [--op reduce|broadcast] [--min P] [--max P]
 *        [--reps R] [--cap NODES] [--times a,b,c] [--seed S] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/makespan.h"

static unsigned long long rng;
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

static double mean(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s / n;
}

/* Nodes (non-empty prefixes) and leaves of the tree of distinct class
 * sequences for class counts c[0..2]. */
static void tree_size(const int *c, double *N, double *L)
{
    static double binom[64][64];
    if (binom[0][0] == 0)
        for (int i = 0; i < 64; i++) {
            binom[i][0] = 1;
            for (int j = 1; j <= i; j++)
                binom[i][j] = binom[i - 1][j - 1] + (j < i ? binom[i - 1][j] : 0);
        }
    *N = 0;
    for (int x = 0; x <= c[0]; x++)
        for (int y = 0; y <= c[1]; y++)
            for (int z = 0; z <= c[2]; z++)
                if (x + y + z)
                    *N += binom[x + y + z][x] * binom[y + z][y];
    *L = binom[c[0] + c[1] + c[2]][c[0]] * binom[c[1] + c[2]][c[1]];
}

/* The paper's Table 1 (reduce: seed 000, broadcast: seed 002) for P = 10..21:
 * n/N of their search, n/N of their generic search, and the time ratio. */
static const double paper_reduce[12][3] = {
    {6.049, 71.854, 25}, {3.825, 71.157, 34}, {3.894, 71.262, 48}, {2.277, 70.728, 54},
    {2.247, 70.485, 68}, {1.301, 70.524, 113}, {1.221, 70.174, 118}, {0.677, 69.839, 218},
    {0.635, 69.881, 240}, {0.375, 69.832, 340}, {0.449, 70.069, 237}, {0.198, 70.004, 544}};
static const double paper_bcast[12][3] = {
    {1.135, 21.091, 17.9}, {0.504, 18.916, 36.8}, {0.274, 15.817, 57.7}, {0.199, 13.963, 69.7},
    {0.114, 12.983, 111.9}, {0.098, 12.786, 132.1}, {0.064, 9.531, 152.1}, {0.033, 11.193, 334.5},
    {0.018, 8.320, 465.3}, {0.007, 8.206, 1169.6}, {0.006, 6.310, 1126.2}, {0.004, 4.470, 1324.3}};

typedef struct {
    double nodes, time;
    int complete;
    mpq_t makespan;
} run_t;

static int run(const ssched_mk_cluster_t *c, int bcast, ssched_mk_bnb_preset_t preset,
               uint64_t cap, run_t *out)
{
    ssched_mk_bnb_options_t o;
    ssched_mk_bnb_options(&o, preset);
    o.max_nodes = cap;
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_mk_stats_t st;
    ssched_error_t err;
    double t0 = now();
    ssched_status_t r = bcast ? ssched_mk_broadcast_bnb(c, 0, &o, &s, &st, &err)
                              : ssched_mk_reduce_bnb(c, 0, &o, &s, &st, &err);
    out->time = now() - t0;
    out->nodes = (double)st.nodes;
    out->complete = st.complete;
    mpq_set(out->makespan, s.makespan);
    ssched_mk_schedule_free(&s);
    if (r != SSCHED_OK && r != SSCHED_EUNCERTIFIED) {
        fprintf(stderr, "bench: %s\n", err.message);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *op = "reduce", *times = "2,3,5";
    int pmin = 10, pmax = 21, reps = 50;
    uint64_t cap = 2000000;
    rng = 20240611;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--op")) op = argv[i + 1];
        else if (!strcmp(argv[i], "--min")) pmin = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--max")) pmax = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cap")) cap = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--times")) times = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) rng = strtoull(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "bench_makespan_search: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    int bcast = !strcmp(op, "broadcast");
    ssched_mk_cluster_t classes;
    ssched_error_t err;
    if (ssched_mk_cluster_parse(&classes, times, &err) != SSCHED_OK || classes.n != 3) {
        fprintf(stderr, "bench_makespan_search: --times needs 3 classes\n");
        return 2;
    }
    printf("# %s branch-and-bound, random 3-class clusters (times %s), %d clusters per P, "
           "P searched processors + 1 %s; generic capped at %llu nodes\n",
           op, times, reps, bcast ? "source (a fastest one)" : "destination",
           (unsigned long long)cap);
    printf("# medians over the clusters; n/N = mean search ratio; ratio = median over clusters of "
           "generic time / paper time; paper columns = the seed's Table 1\n");
    printf("%3s %11s %10s | %9s %9s %7s | %8s %9s | %10s %9s %8s %4s | %7s %7s | %7s %7s %7s\n",
           "P", "N", "L", "paper n", "time s", "n/N %", "full n", "time s", "generic n",
           "time s", "n/N %", "cap", "ratio", "r.full", "pp n/N", "pg n/N", "p ratio");
    double *pn = malloc(reps * sizeof *pn), *pt = malloc(reps * sizeof *pt);
    double *fn = malloc(reps * sizeof *fn), *ft = malloc(reps * sizeof *ft);
    double *gn = malloc(reps * sizeof *gn), *gt = malloc(reps * sizeof *gt);
    double *pr = malloc(reps * sizeof *pr), *gr = malloc(reps * sizeof *gr);
    double *ratio = malloc(reps * sizeof *ratio), *ratio_f = malloc(reps * sizeof *ratio_f);
    double *Ns = malloc(reps * sizeof *Ns), *Ls = malloc(reps * sizeof *Ls);
    run_t a, b, g;
    mpq_inits(a.makespan, b.makespan, g.makespan, NULL);
    int mismatches = 0;
    for (int P = pmin; P <= pmax; P++) {
        int capped = 0;
        for (int r = 0; r < reps; r++) {
            ssched_mk_cluster_t c;
            ssched_mk_cluster_init(&c, (size_t)P + 1, &err);
            int cnt[3] = {0, 0, 0};
            mpq_set(c.time[0], classes.time[bcast ? 0 : rnd(3)]); /* root */
            for (int p = 1; p <= P; p++) {
                int k = rnd(3);
                cnt[k]++;
                mpq_set(c.time[p], classes.time[k]);
            }
            tree_size(cnt, &Ns[r], &Ls[r]);
            if (!run(&c, bcast, SSCHED_MK_BNB_PAPER, 0, &a) ||
                !run(&c, bcast, SSCHED_MK_BNB_FULL, 0, &b) ||
                !run(&c, bcast, SSCHED_MK_BNB_GENERIC, cap, &g))
                return 1;
            if (!mpq_equal(a.makespan, b.makespan) || (g.complete && !mpq_equal(a.makespan, g.makespan)))
                mismatches++;
            capped += !g.complete;
            pn[r] = a.nodes;
            pt[r] = a.time;
            fn[r] = b.nodes;
            ft[r] = b.time;
            gn[r] = g.nodes;
            gt[r] = g.time;
            pr[r] = 100 * a.nodes / Ns[r];
            gr[r] = 100 * g.nodes / Ns[r];
            ratio[r] = g.time / (a.time > 1e-7 ? a.time : 1e-7);
            ratio_f[r] = g.time / (b.time > 1e-7 ? b.time : 1e-7);
            ssched_mk_cluster_free(&c);
        }
        int pi = P - 10;
        const double(*paper)[3] = bcast ? paper_bcast : paper_reduce;
        char pp[3][16] = {"-", "-", "-"};
        if (pi >= 0 && pi < 12)
            for (int j = 0; j < 3; j++)
                snprintf(pp[j], sizeof pp[j], j < 2 ? "%.3f" : "%.1f", paper[pi][j]);
        printf("%3d %11.0f %10.0f | %9.0f %9.5f %7.3f | %8.0f %9.5f | %c%9.0f %9.4f %8.3f %4d | "
               "%c%6.1f %c%6.1f | %7s %7s %7s\n",
               P, mean(Ns, reps), mean(Ls, reps), median(pn, reps), median(pt, reps),
               mean(pr, reps), median(fn, reps), median(ft, reps), capped ? '>' : ' ',
               median(gn, reps), median(gt, reps), mean(gr, reps), capped, capped ? '>' : ' ',
               median(ratio, reps), capped ? '>' : ' ', median(ratio_f, reps), pp[0], pp[1],
               pp[2]);
        fflush(stdout);
    }
    printf("# optimal makespans disagreeing between searches: %d\n", mismatches);
    mpq_clears(a.makespan, b.makespan, g.makespan, NULL);
    free(pn); free(pt); free(fn); free(ft); free(gn); free(gt);
    free(pr); free(gr); free(ratio); free(ratio_f); free(Ns); free(Ls);
    ssched_mk_cluster_free(&classes);
    return mismatches != 0;
}
