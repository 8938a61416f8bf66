/* ssched-probe (issue 23 item 4): measure every ordered pair's latency and
 * bandwidth by ping-pong at two sizes and write the matrix that
 * `ssched ... --format matrix` reads (ssched/platform.h: one row
 * "FROM,TO,BANDWIDTH,LATENCY" per ordered pair).
 *
 *   mpirun -np N ssched-probe -o matrix.csv [--small B] [--large B] [--reps R]
 *   smpirun ... ssched-probe-smpi -o matrix.csv        (SimGrid's SMPI)
 *
 * For the pair i -> j: j posts its receive of m bytes and tells i it is
 * ready (an empty message); i posts its receive of j's empty answer, then
 * sends the m bytes; j answers as soon as they arrived.  i's round trip is
 *   RT(m) = L_ij + m / B_ij + L_ji        (seed 003: T_ij + m / B_ij)
 * so two sizes give B_ij = (m2 - m1) / (RT(m2) - RT(m1)) exactly per
 * direction, and L_ij = (RT(m1) - m1 / B_ij) / 2 assuming the two
 * directions' latencies equal (they do on symmetric routes).  Each round
 * trip is the least of R repetitions.  Pairs are measured one at a time,
 * so no two measurements share the network.  Under SMPI the 16-byte
 * envelope SimGrid adds to every message is cancelled as in
 * ssched-exec-smpi (src/mpi/smpi_envelope.cpp), so that with the exact
 * configuration (bench/smpi_exact.sh --print-cfg B) the probe sees the
 * route's latency sum and bottleneck bandwidth. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SSCHED_SMPI
int ssched_smpi_exact_envelope(void);
#endif

static const char *usage_text =
    "usage: ssched-probe -o matrix.csv [--small BYTES (default 1024)] [--large BYTES (default\n"
    "       1048576)] [--reps R (default 3)]   (run under mpirun/smpirun, 2 ranks or more)\n";

typedef struct {
    const char *output;
    long small, large, reps;
} options_t;

static int parse_long(const char *text, long min, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min)
        return 0;
    *out = v;
    return 1;
}

/* 0 ok, 1 help printed, 2 bad option (message on stderr) */
static int parse(int argc, char **argv, options_t *o)
{
    o->output = NULL;
    o->small = 1024;
    o->large = 1048576;
    o->reps = 3;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 1;
        }
        if (k + 1 >= argc) {
            fprintf(stderr, "ssched-probe: unknown or incomplete option '%s'\n", a);
            return 2;
        }
        const char *v = argv[++k];
        int ok = 1;
        if (!strcmp(a, "-o"))
            o->output = v;
        else if (!strcmp(a, "--small"))
            ok = parse_long(v, 0, &o->small);
        else if (!strcmp(a, "--large"))
            ok = parse_long(v, 1, &o->large);
        else if (!strcmp(a, "--reps"))
            ok = parse_long(v, 1, &o->reps);
        else {
            fprintf(stderr, "ssched-probe: unknown option '%s'\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "ssched-probe: %s: bad value '%s'\n", a, v);
            return 2;
        }
    }
    if (!o->output) {
        fprintf(stderr, "ssched-probe: missing -o matrix.csv\n");
        return 2;
    }
    if (o->large <= o->small || o->large > 1L << 30) {
        fprintf(stderr, "ssched-probe: need --small < --large <= 2^30 bytes\n");
        return 2;
    }
    return 0;
}

/* The least round trip i -> j of m bytes over reps repetitions (at i; j
 * serves, others return 0). */
static double round_trip(int me, int i, int j, long m, long reps, char *buf)
{
    double best = 0;
    for (long r = 0; r < reps; r++) {
        MPI_Request req;
        if (me == j) {
            MPI_Irecv(buf, (int)m, MPI_BYTE, i, 1, MPI_COMM_WORLD, &req);
            MPI_Send(NULL, 0, MPI_BYTE, i, 0, MPI_COMM_WORLD); /* ready */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, i, 2, MPI_COMM_WORLD); /* answer */
        } else if (me == i) {
            MPI_Recv(NULL, 0, MPI_BYTE, j, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Irecv(NULL, 0, MPI_BYTE, j, 2, MPI_COMM_WORLD, &req);
            double t0 = MPI_Wtime();
            MPI_Send(buf, (int)m, MPI_BYTE, j, 1, MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            double t = MPI_Wtime() - t0;
            if (r == 0 || t < best)
                best = t;
        }
    }
    return best;
}

/* Host names; ranks sharing one are told apart as "name#RANK". */
static char *names_of(int n)
{
    size_t w = MPI_MAX_PROCESSOR_NAME + 16;
    char *all = calloc((size_t)n, w);
    char *mine = calloc(1, w);
    int *shared = calloc((size_t)n, sizeof *shared);
    int len = 0;
    if (!all || !mine || !shared) {
        free(all);
        free(mine);
        free(shared);
        return NULL;
    }
    MPI_Get_processor_name(mine, &len);
    MPI_Allgather(mine, (int)w, MPI_CHAR, all, (int)w, MPI_CHAR, MPI_COMM_WORLD);
    free(mine);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b && !strcmp(all + (size_t)a * w, all + (size_t)b * w))
                shared[a] = 1;
    for (int a = 0; a < n; a++) {
        char *s = all + (size_t)a * w;
        for (char *c = s; *c; c++) /* the matrix's separators and comments */
            if (*c == ',' || *c == '\n' || *c == '\r' || *c == '#' || (unsigned char)*c < 0x20)
                *c = '_';
        if (shared[a]) {
            size_t l = strlen(s);
            snprintf(s + l, w - l, "#%d", a);
        }
    }
    free(shared);
    return all;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    options_t o;
    int rc = parse(argc, argv, &o);
    if (rc == 0 && n < 2) {
        if (me == 0)
            fprintf(stderr, "ssched-probe: needs 2 ranks or more\n");
        rc = 2;
    }
#ifdef SSCHED_SMPI
    if (rc == 0 && ssched_smpi_exact_envelope() != 0) {
        if (me == 0)
            fprintf(stderr, "ssched-probe: warning: SMPI's 16-byte envelope could not be "
                    "cancelled: times include it\n");
    }
#endif
    char *buf = rc == 0 ? malloc((size_t)o.large) : NULL;
    if (rc == 0 && !buf) {
        fprintf(stderr, "ssched-probe: out of memory\n");
        rc = 2;
    }
    int bad = rc != 0, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad) {
        free(buf);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    if (buf)
        memset(buf, 0x5a, (size_t)o.large);
    /* row[j] = {bandwidth, latency} of me -> j */
    double *row = calloc(2 * (size_t)n, sizeof *row);
    double *all = me == 0 ? calloc(2 * (size_t)n * (size_t)n, sizeof *all) : NULL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue;
            double t1 = round_trip(me, i, j, o.small, o.reps, buf);
            double t2 = round_trip(me, i, j, o.large, o.reps, buf);
            if (me == i) {
                double bw = t2 > t1 ? (double)(o.large - o.small) / (t2 - t1) : 0;
                double lat = bw > 0 ? (t1 - (double)o.small / bw) / 2 : 0;
                row[2 * j] = bw;
                row[2 * j + 1] = lat > 0 ? lat : 0;
            }
        }
    MPI_Gather(row, 2 * n, MPI_DOUBLE, all, 2 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    char *names = names_of(n);
    int status = 0;
    if (me == 0) {
        FILE *out = strcmp(o.output, "-") ? fopen(o.output, "w") : stdout;
        size_t w = MPI_MAX_PROCESSOR_NAME + 16;
        if (!out || !names) {
            fprintf(stderr, "ssched-probe: %s: cannot write the file\n", o.output);
            status = 2;
        } else {
            fprintf(out, "# ssched-probe: %d ranks, ping-pong of %ld and %ld bytes, least of %ld\n"
                         "from,to,bandwidth,latency\n", n, o.small, o.large, o.reps);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    const double *v = all + 2 * ((size_t)i * (size_t)n + (size_t)j);
                    if (i == j)
                        continue;
                    if (!(v[0] > 0)) {
                        fprintf(stderr, "ssched-probe: %s -> %s: no bandwidth measured (the "
                                "large message was not slower): pair left out\n",
                                names + (size_t)i * w, names + (size_t)j * w);
                        continue;
                    }
                    fprintf(out, "%s,%s,%.9gBps,%.9gs\n", names + (size_t)i * w,
                            names + (size_t)j * w, v[0], v[1]);
                }
            if (ferror(out) || (out == stdout ? fflush(out) : fclose(out)) != 0) {
                fprintf(stderr, "ssched-probe: %s: write error\n", o.output);
                status = 2;
            }
        }
    }
    free(names);
    free(row);
    free(all);
    free(buf);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
