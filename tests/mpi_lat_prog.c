/* An MPI program for tests/test_mpi_exec.c: schedules with latencies and
 * batches, built in memory (the file formats gain them elsewhere), run by
 * libssched_mpi with real payloads; built twice, with the MPI compiler and
 * with smpicc (mpi_lat_prog_smpi, SSCHED_SMPI).
 *
 *   mpirun -np N mpi_lat_prog KIND K BATCH LAT PACE [XML HOSTS]
 *     KIND bcast (S to A and B through the relay R) or scatter (S's
 *     messages to A and to B through R); K operations, BATCH operations per
 *     transfer (K a multiple of it); LAT the latency of every edge in
 *     schedule time units (exact decimal, e.g. 1/1000), optionally
 *     LAT:SCALE, every c times SCALE (e.g. 1/1000000000: transfers of
 *     1e-9 units, events closer than SimGrid's precision); PACE
 *     ssched_mpi_options_t.unit_seconds (-1: the default).  XML HOSTS:
 *     rank 0 writes the SimGrid platform (for the next smpirun) and exits.
 *
 * The platform: S, X, R, A, B; edges S->R (c = 1/2), R->A, R->B (c = 1),
 * and back (unused, for MPI's own collectives), S<->X (never used: X, a
 * router, needs no rank, so N = 4 runs the used nodes S, R, A, B in node
 * order; N = 5 runs every node).  The schedule
 * is list-scheduled by the latency semantics (design.md wave 3): a
 * transfer of n operations over e started at s ends at s + l + n c, its
 * one-port ends are busy during [s + l, end), a relay forwards a batch once
 * it has fully arrived.  Payloads are checked at their destination (each
 * operation once, byte for byte).  Rank 0 prints "mpi_lat_prog: ok ratio R"
 * (R = measured seconds / (makespan x unit_seconds), or / makespan when
 * not paced) and exits 0, else 1 with a reason. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/mpi.h"

#ifdef SSCHED_SMPI
int ssched_smpi_exact_envelope(void); /* src/mpi/smpi_envelope.cpp */
#endif

enum { S, X, R, A, B, NN };
static const char *const names[NN] = {"S", "X", "R", "A", "B"};

typedef struct {
    unsigned char *got;
    size_t K;
    long bad;
} ctx_t;

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void bytes_of(size_t type, size_t op, unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)mix(((uint64_t)type << 40) ^ ((uint64_t)op << 20) ^ i);
}

static int fill(const ssched_mpi_t *x, size_t type, size_t op, void *buf, size_t n, void *ctx)
{
    (void)x, (void)ctx;
    bytes_of(type, op, buf, n);
    return 0;
}

static int deliver(const ssched_mpi_t *x, size_t type, size_t op, const void *buf, size_t n,
                   void *ctx)
{
    ctx_t *c = ctx;
    unsigned char *want = malloc(n + 1);
    if (!want)
        return ENOMEM;
    bytes_of(type, op, want, n);
    int ok = op < c->K && !c->got[type * c->K + op]++ && !memcmp(want, buf, n);
    /* a broadcast's type 0 reaches every target; a scatter's type t its own */
    ok = ok && (x->kind == SSCHED_PROBLEM_BROADCAST || x->type_dest[type] == x->node);
    c->bad += !ok;
    free(want);
    return 0;
}

/* The list scheduler's state: each one-port resource's bandwidth end. */
typedef struct {
    mpq_t out[NN], in[NN];
} ports_t;

static size_t edge_of(const ssched_platform_t *p, size_t from, size_t to)
{
    for (size_t e = 0; e < p->n_edges; e++)
        if (p->from[e] == from && p->to[e] == to)
            return e;
    return SIZE_MAX;
}

/* Append a transfer of n operations from op over from->to, ready (data
 * there) at `ready`: start = max(ready, out free - l, in free - l). */
static void add(ssched_unrolled_t *u, const ssched_platform_t *p, ports_t *pt, size_t from,
                size_t to, size_t type, size_t op, size_t n, mpq_srcptr ready, mpq_ptr end)
{
    size_t e = edge_of(p, from, to);
    ssched_timed_transfer_t *t = &u->transfers[u->n_transfers++];
    mpq_inits(t->start, t->end, t->piece_offset, t->piece_length, NULL);
    mpq_set_ui(t->piece_length, 1, 1);
    t->edge = e, t->type = type, t->op = op, t->batch = n;
    mpq_t x;
    mpq_init(x);
    mpq_set(t->start, ready);
    mpq_sub(x, pt->out[from], p->l[e]);
    if (mpq_cmp(x, t->start) > 0)
        mpq_set(t->start, x);
    mpq_sub(x, pt->in[to], p->l[e]);
    if (mpq_cmp(x, t->start) > 0)
        mpq_set(t->start, x);
    mpq_set_ui(x, n, 1);
    mpq_mul(x, x, p->c[e]);
    mpq_add(t->end, t->start, p->l[e]);
    mpq_add(t->end, t->end, x);
    mpq_set(pt->out[from], t->end);
    mpq_set(pt->in[to], t->end);
    mpq_set(end, t->end);
    mpq_clear(x);
}

static int by_start(const void *a, const void *b)
{
    const ssched_timed_transfer_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    return c ? c : (x->edge > y->edge) - (x->edge < y->edge);
}

static int build(int bcast, size_t K, size_t nb, const char *lat, ssched_platform_t *p,
                 ssched_problem_t *pb, ssched_unrolled_t *u)
{
    ssched_error_t e;
    mpq_t one, c, l;
    mpq_inits(one, c, l, NULL);
    mpq_set_ui(one, 1, 1);
    mpq_t scale;
    mpq_init(scale);
    mpq_set_ui(scale, 1, 1);
    char lbuf[128];
    const char *colon = strchr(lat, ':');
    if (colon) { /* LAT:SCALE */
        if ((size_t)(colon - lat) >= sizeof lbuf || mpq_set_str(scale, colon + 1, 10) != 0)
            return mpq_clear(scale), 0;
        mpq_canonicalize(scale);
        memcpy(lbuf, lat, (size_t)(colon - lat));
        lbuf[colon - lat] = 0;
        lat = lbuf;
    }
    if (mpq_set_str(l, lat, 10) != 0 || mpq_sgn(scale) <= 0)
        return mpq_clear(scale), 0;
    mpq_canonicalize(l);
    for (size_t k = 0; k < NN; k++)
        if (ssched_platform_add_node(p, names[k], k == X || k == R ? NULL : one, NULL, &e))
            return mpq_clear(scale), 0;
    /* the edges back make it strongly connected (MPI's own collectives) */
    const size_t ed[][2] = {{S, R}, {R, A}, {R, B}, {S, X}, {X, S}, {R, S}, {A, R}, {B, R}};
    for (size_t k = 0; k < 8; k++) {
        mpq_set_ui(c, k == 0 ? 1 : 1, k == 0 ? 2 : 1);
        mpq_mul(c, c, scale);
        if (ssched_platform_add_edge(p, ed[k][0], ed[k][1], c, &e) ||
            ssched_platform_set_latency(p, k, l, &e))
            return mpq_clear(scale), 0;
    }
    mpq_clear(scale);
    if ((bcast ? ssched_problem_set_broadcast(pb, p, "S", "A,B", &e)
               : ssched_problem_set_scatter(pb, p, "S", "A,B", &e)) != SSCHED_OK)
        return 0;
    size_t per = bcast ? 3 : 4, nt = K / nb * per;
    u->operations = u->fig.operations = K;
    u->transfers = calloc(nt, sizeof *u->transfers);
    u->cap = nt;
    if (!u->transfers)
        return 0;
    ports_t pt;
    mpq_t zero, at, at2;
    mpq_inits(zero, at, at2, NULL);
    for (size_t k = 0; k < NN; k++)
        mpq_inits(pt.out[k], pt.in[k], NULL);
    for (size_t j = 0; j < K; j += nb) {
        if (bcast) { /* S -> R, then R forwards to A and B */
            add(u, p, &pt, S, R, 0, j, nb, zero, at);
            add(u, p, &pt, R, A, 0, j, nb, at, at2);
            add(u, p, &pt, R, B, 0, j, nb, at, at2);
        } else { /* type 0: S's messages to A, type 1: to B */
            add(u, p, &pt, S, R, 0, j, nb, zero, at);
            add(u, p, &pt, S, R, 1, j, nb, zero, at2);
            add(u, p, &pt, R, A, 0, j, nb, at, at);
            add(u, p, &pt, R, B, 1, j, nb, at2, at2);
        }
    }
    qsort(u->transfers, u->n_transfers, sizeof *u->transfers, by_start);
    for (size_t k = 0; k < u->n_transfers; k++)
        if (mpq_cmp(u->transfers[k].end, u->fig.makespan) > 0)
            mpq_set(u->fig.makespan, u->transfers[k].end);
    mpq_set(u->makespan, u->fig.makespan);
    for (size_t k = 0; k < NN; k++)
        mpq_clears(pt.out[k], pt.in[k], NULL);
    mpq_clears(zero, at, at2, one, c, l, NULL);
    return 1;
}

/* The SimGrid platform of p (as `ssched export simgrid`, with latencies;
 * X a router) and the hostfile of the used nodes S, R, A, B. */
static int write_xml(const ssched_platform_t *p, double unit_bytes, const char *xml,
                     const char *hosts)
{
    FILE *f = fopen(xml, "w"), *h = fopen(hosts, "w");
    if (!f || !h)
        return 0;
    fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
               "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"
               "<zone id=\"lat\" routing=\"Floyd\">\n");
    for (size_t k = 0; k < NN; k++)
        if (k == X)
            fprintf(f, "<router id=\"X\"/>\n");
        else
            fprintf(f, "<host id=\"%s\" speed=\"1000000000f\"/>\n", names[k]);
    for (size_t e = 0; e < p->n_edges; e++)
        fprintf(f, "<link id=\"e%zu\" bandwidth=\"%.17gBps\" latency=\"%.17gs\"/>\n", e,
                unit_bytes / mpq_get_d(p->c[e]), mpq_get_d(p->l[e]));
    for (size_t e = 0; e < p->n_edges; e++)
        fprintf(f, "<route src=\"%s\" dst=\"%s\" symmetrical=\"NO\"><link_ctn id=\"e%zu\"/>"
                   "</route>\n", names[p->from[e]], names[p->to[e]], e);
    fprintf(f, "</zone>\n</platform>\n");
    fprintf(h, "S\nR\nA\nB\n");
    int ok = !ferror(f) && !ferror(h);
    ok &= fclose(f) == 0;
    ok &= fclose(h) == 0;
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef SSCHED_SMPI
    if (rank == 0 && ssched_smpi_exact_envelope() != 0)
        fprintf(stderr, "mpi_lat_prog: warning: SMPI's envelope stays\n");
#endif
    if (argc != 6 && argc != 8) {
        if (rank == 0)
            fprintf(stderr, "usage: mpi_lat_prog bcast|scatter K BATCH LAT PACE [XML HOSTS]\n");
        MPI_Finalize();
        return 1;
    }
    int bcast = !strcmp(argv[1], "bcast");
    size_t K = (size_t)atol(argv[2]), nb = (size_t)atol(argv[3]);
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_unrolled_t u;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_unrolled_init(&u);
    const double unit_bytes = 1000;
    int ok = 1;
    if (rank == 0) { /* the schedule lives on rank 0 only */
        ok = nb > 0 && K % nb == 0 && build(bcast, K, nb, argv[4], &p, &pb, &u);
        if (ok && argc == 8) {
            ok = write_xml(&p, unit_bytes, argv[6], argv[7]);
            printf("mpi_lat_prog: %s\n", ok ? "wrote the platform" : "cannot write");
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok || argc == 8) {
        if (rank == 0 && !ok)
            fprintf(stderr, "mpi_lat_prog: bad arguments\n");
        ssched_unrolled_free(&u), ssched_problem_free(&pb), ssched_platform_free(&p);
        MPI_Finalize();
        return ok ? 0 : 1;
    }
    ssched_mpi_options_t opt;
    ssched_mpi_options_default(&opt);
    opt.unit_bytes = (uint64_t)unit_bytes;
    opt.unit_seconds = atof(argv[5]);
    ssched_mpi_t x;
    ssched_mpi_init(&x);
    ssched_error_t err;
    ssched_error_clear(&err);
    int status = 0;
    if (ssched_mpi_setup(&x, rank == 0 ? &p : NULL, rank == 0 ? &pb : NULL,
                         rank == 0 ? &u : NULL, MPI_COMM_WORLD, &opt, &err) != SSCHED_OK) {
        if (rank == 0)
            fprintf(stderr, "mpi_lat_prog: setup: %s\n", err.message);
        status = 1;
    } else {
        ctx_t c = {calloc(2 * K + 1, 1), K, 0};
        ssched_mpi_callbacks_t cb;
        memset(&cb, 0, sizeof cb);
        cb.fill = fill, cb.deliver = deliver, cb.ctx = &c;
        ssched_mpi_stats_t st;
        int run = c.got && ssched_mpi_run(&x, &cb, &st, &err) == SSCHED_OK;
        /* every destination got each of its operations exactly once */
        int dests = bcast ? 1 : 2, mine = run && c.bad == 0;
        for (int t = 0; mine && t < dests; t++) {
            int is_dest = bcast ? (x.node == A || x.node == B) : x.type_dest[t] == x.node;
            for (size_t op = 0; is_dest && op < K; op++)
                mine &= c.got[t * K + op] == 1;
        }
        int all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (rank == 0) {
            double unit = x.unit_seconds > 0 ? x.unit_seconds : 1;
            if (all)
                printf("mpi_lat_prog: ok ratio %.17g makespan %s paced %g\n",
                       st.makespan / (x.makespan_d * unit), x.makespan, x.unit_seconds);
            else
                fprintf(stderr, "mpi_lat_prog: %s\n", run ? "a payload is wrong or missing"
                                                          : err.message);
        }
        status = !all;
        free(c.got);
    }
    ssched_mpi_free(&x);
    ssched_unrolled_free(&u), ssched_problem_free(&pb), ssched_platform_free(&p);
    MPI_Finalize();
    return status;
}
