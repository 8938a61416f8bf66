/* ssched-exec: run an unrolled schedule with MPI (one rank per node, or
 * per node the schedule uses: routers no transfer crosses need none).
 *
 *   mpirun -np N ssched-exec SCHEDULE.json [--unit-bytes B] [--flops-per-task F]
 *                            [--verify] [--json] [--map FILE] [--pace S | --no-pace]
 *                            [--window W]
 *
 * --pace S posts every event no earlier than its scheduled start, one
 * schedule time unit lasting S seconds (ssched_mpi_options_t.unit_seconds);
 * the default is S = 1 under SMPI when the platform has latencies (exact
 * there), else as soon as possible.  --window W lets each port have W
 * more transfers in flight than the schedule overlaps (a schedule planned
 * without the network's latency pays it once per transfer otherwise).
 * Payloads are deterministic, so --verify can check them where they end:
 * scatter/gossip messages are bytes derived from (type, op, byte index),
 * compared at the destination (each exactly once); a broadcast's message
 * op is type 0's, compared at every node but the source (each exactly
 * once); reduce values are
 * arrays of 2x2 matrices mod 2^31-1 derived from (participant, op),
 * combined by the blockwise product left x right (not commutative), and
 * each result is compared with the ordered product v_0 ... v_{N-1} (a
 * scan's at participant j with its prefix v_0 ... v_j, exclusive v_{j-1}); a
 * commutative reduce's values are arrays of words mod 2^31-1 combined by
 * elementwise sums: the first N words of participant k's value count it
 * (1 at word k, 0 elsewhere) and the others are pseudo-random, so a result
 * that misses or repeats a participant differs from the expected sum.
 * Exit status: 0, 1 (run failed, or --verify found a difference), 2 (bad
 * input: options, schedule file, number of ranks, map); rank 0 prints the
 * one-line reason on stderr.  Built with smpicc (ssched-exec-smpi), task
 * times are simulated: F x size flops per task (--flops-per-task, default
 * 1e9 as `ssched export simgrid`); with real MPI the option has no effect.
 * Under SMPI the program also cancels SMPI's 16-byte message envelope
 * (src/mpi/smpi_envelope.cpp; SSCHED_SMPI_ENVELOPE=keep does not): with
 * bench/smpi_exact.sh --print-cfg B, simulated times are the schedule's.
 * --json: the last stdout line is one object; "verified" is true only when
 * --verify was given and passed ("verify" says whether it was asked);
 * "measured_seconds" (also "makespan"), "unit_seconds" (one schedule time
 * unit in seconds: the pacing's, else 1, the unit of `ssched export
 * simgrid` and of --unit-bytes platforms), "measured_units" (measured in
 * schedule time units), "ratio" (measured_units / the schedule's
 * makespan); "buffer_peak" is the most message buffers one rank held at
 * once (compare with the schedule's "buffer_peak").  Under SMPI a
 * configuration other than the exact one gets a one-line warning.
 * Open MPI adds its own banner on stderr when a rank exits non-zero:
 * `mpirun -q` keeps stderr to ssched-exec's one line. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/mpi.h"

#ifdef SSCHED_SMPI
/* src/mpi/smpi_envelope.cpp: cancel SMPI's 16-byte message envelope;
 * is the configuration the exact one (0), else why not */
int ssched_smpi_exact_envelope(void);
int ssched_smpi_config_check(char *why, size_t len);
#endif

#define PRIME 2147483647ULL /* 2^31 - 1 */

typedef struct {
    size_t K;
    long fail_op;              /* test hook: deliveries of this op fail     */
    int verify;
    unsigned char *got;        /* per message (scatter, gossip) or op (reduce) */
    long bad;                  /* differences and duplicates found          */
    size_t N;
    int commutative;           /* reduce: sums with counts, not products   */
    long scale_k, scale_m;     /* test hook: participant scale_k's value
                                  counts scale_m times (0: missing, 2: twice) */
} vctx_t;

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Message (type, op): 8-byte words mix(seed + word index). */
static void message_bytes(size_t type, size_t op, unsigned char *buf, size_t bytes)
{
    uint64_t seed = mix(((uint64_t)type << 40) ^ op);
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t w = mix(seed + i / 8);
        memcpy(buf + i, &w, bytes - i < 8 ? bytes - i : 8);
    }
}

static int fill(const ssched_mpi_t *x, size_t type, size_t op, void *buf, size_t bytes,
                void *ctx)
{
    (void)x, (void)ctx;
    message_bytes(type, op, buf, bytes);
    return 0;
}

/* Is this rank's node a destination of some message type? */
static int is_dest(const ssched_mpi_t *x)
{
    for (size_t t = 0; t < x->n_types; t++)
        if (x->type_dest[t] == x->node)
            return 1;
    return 0;
}

static int deliver(const ssched_mpi_t *x, size_t type, size_t op, const void *buf,
                   size_t bytes, void *ctx)
{
    vctx_t *v = ctx;
    if ((long)op == v->fail_op)
        return 7;
    if (!v->verify)
        return 0;
    unsigned char *want = malloc(bytes ? bytes : 1);
    if (!want)
        return ENOMEM; /* reported as out of memory */
    message_bytes(type, op, want, bytes);
    /* broadcast: one message per op, the types list its targets */
    int ok = x->kind == SSCHED_PROBLEM_BROADCAST ? type == 0 && is_dest(x) && !v->got[op]++
                                                  : x->type_dest[type] == x->node &&
                                                        !v->got[type * v->K + op]++;
    if (memcmp(want, buf, bytes) || !ok)
        v->bad++;
    free(want);
    return 0;
}

/* Participant k's value for op: bytes / 32 matrices [a b; c d] mod p. */
static void leaf(size_t k, size_t op, uint64_t *m, size_t nmat)
{
    uint64_t seed = mix(((uint64_t)k << 40) ^ op ^ 0x5555);
    for (size_t q = 0; q < 4 * nmat; q++)
        m[q] = mix(seed + q) % PRIME;
}

/* Commutative reduce: participant k's value for op, bytes / 8 words mod p:
 * the count vector (word j < N is 1 iff j == k), then pseudo-random words. */
static void leaf_sum(size_t k, size_t op, uint64_t *w, size_t nw, size_t N)
{
    uint64_t seed = mix(((uint64_t)k << 40) ^ op ^ 0xAAAA);
    for (size_t q = 0; q < nw; q++)
        w[q] = q < N ? q == k : mix(seed + q) % PRIME;
}

static int value(const ssched_mpi_t *x, size_t k, size_t op, void *buf, size_t bytes,
                 void *ctx)
{
    const vctx_t *v = ctx;
    if (x->commutative) {
        size_t nw = bytes / 8;
        uint64_t *w = malloc((nw + 1) * sizeof *w);
        if (!w)
            return ENOMEM; /* reported as out of memory */
        leaf_sum(k, op, w, nw, x->n_participants);
        for (size_t q = 0; (long)k == v->scale_k && q < nw; q++)
            w[q] = w[q] * (uint64_t)v->scale_m % PRIME;
        memcpy(buf, w, nw * 8);
        free(w);
        return 0;
    }
    size_t nmat = bytes / 32;
    uint64_t *m = malloc((4 * nmat + 1) * sizeof *m);
    if (!m)
        return ENOMEM; /* reported as out of memory */
    leaf(k, op, m, nmat);
    memcpy(buf, m, nmat * 32);
    free(m);
    return 0;
}

static void product(const uint64_t *l, const uint64_t *r, uint64_t *o, size_t nmat)
{
    for (size_t q = 0; q < nmat; q++, l += 4, r += 4, o += 4) {
        uint64_t a = (l[0] * r[0] + l[1] * r[2]) % PRIME, b = (l[0] * r[1] + l[1] * r[3]) % PRIME;
        uint64_t c = (l[2] * r[0] + l[3] * r[2]) % PRIME, d = (l[2] * r[1] + l[3] * r[3]) % PRIME;
        o[0] = a, o[1] = b, o[2] = c, o[3] = d;
    }
}

/* Commutative: out = left + right, word by word mod p (unaligned buffers). */
static int combine_sum(const void *left, const void *right, void *out, size_t bytes)
{
    for (size_t q = 0; q + 8 <= bytes; q += 8) {
        uint64_t a, b;
        memcpy(&a, (const char *)left + q, 8);
        memcpy(&b, (const char *)right + q, 8);
        a = (a + b) % PRIME;
        memcpy((char *)out + q, &a, 8);
    }
    return 0;
}

/* out = left x right, blockwise; the buffers need not be aligned. */
static int combine(const void *left, const void *right, void *out, size_t bytes, void *ctx)
{
    if (((const vctx_t *)ctx)->commutative)
        return combine_sum(left, right, out, bytes);
    size_t nmat = bytes / 32;
    uint64_t *t = malloc((12 * nmat + 1) * sizeof *t);
    if (!t)
        return ENOMEM; /* reported as out of memory */
    memcpy(t, left, nmat * 32);
    memcpy(t + 4 * nmat, right, nmat * 32);
    product(t, t + 4 * nmat, t + 8 * nmat, nmat);
    memcpy(out, t + 8 * nmat, nmat * 32);
    free(t);
    return 0;
}

static int result(const ssched_mpi_t *x, size_t op, const void *buf, size_t bytes,
                  void *ctx)
{
    vctx_t *v = ctx;
    if ((long)op == v->fail_op)
        return 7;
    if (!v->verify)
        return 0;
    if (v->commutative) { /* the sum over every participant, each once */
        size_t nw = bytes / 8;
        uint64_t *acc = malloc((2 * nw + 1) * sizeof *acc), *w;
        if (!acc)
            return ENOMEM; /* reported as out of memory */
        w = acc + nw;
        leaf_sum(0, op, acc, nw, v->N);
        for (size_t k = 1; k < v->N; k++) {
            leaf_sum(k, op, w, nw, v->N);
            combine_sum(acc, w, acc, nw * 8);
        }
        if (memcmp(acc, buf, nw * 8) || !x->is_target || v->got[op]++)
            v->bad++;
        free(acc);
        return 0;
    }
    size_t nmat = bytes / 32;
    uint64_t *acc = malloc((8 * nmat + 1) * sizeof *acc), *m;
    if (!acc)
        return ENOMEM; /* reported as out of memory */
    m = acc + 4 * nmat;
    leaf(0, op, acc, nmat);
    /* scan: participant j's prefix v_0 ... v_j (exclusive: ... v_{j-1}) */
    size_t upto = x->kind != SSCHED_PROBLEM_SCAN ? v->N
                  : x->participant < 0            ? 0
                                                  : (size_t)x->participant + !x->exclusive;
    for (size_t k = 1; k < upto; k++) { /* the ordered reduction v_0 ... v_{N-1} */
        leaf(k, op, m, nmat);
        product(acc, m, acc, nmat);
    }
    if (memcmp(acc, buf, nmat * 32) || !x->is_target || v->got[op]++)
        v->bad++;
    free(acc);
    return 0;
}

/* Did every message (or result) this rank should get arrive exactly once? */
static int all_arrived(const ssched_mpi_t *x, const vctx_t *v)
{
    if (x->kind == SSCHED_PROBLEM_REDUCE || x->kind == SSCHED_PROBLEM_ALLREDUCE ||
        x->kind == SSCHED_PROBLEM_SCAN) {
        /* all-reduce: every participant is a target; scan: 1..N-1 */
        for (size_t op = 0; x->is_target && op < v->K; op++)
            if (v->got[op] != 1)
                return 0;
        return 1;
    }
    if (x->kind == SSCHED_PROBLEM_BROADCAST) {
        for (size_t op = 0; is_dest(x) && op < v->K; op++)
            if (v->got[op] != 1)
                return 0;
        return 1;
    }
    for (size_t t = 0; t < x->n_types; t++)
        for (size_t op = 0; x->type_dest[t] == x->node && op < v->K; op++)
            if (v->got[t * v->K + op] != 1)
                return 0;
    return 1;
}

static const char usage[] =
    "usage: mpirun -np N ssched-exec SCHEDULE.json [--unit-bytes B] [--flops-per-task F]\n"
    "                                [--verify] [--json] [--map FILE] [--pace S | --no-pace]\n"
    "                                [--window W]\n"
    "  N: one rank per node of the platform, or per node the schedule uses\n"
    "  --pace S: post every event no earlier than its scheduled start, one schedule\n"
    "            time unit = S seconds (default: S = 1 in SMPI when the platform\n"
    "            has latencies, otherwise --no-pace: as soon as possible)\n"
    "  --window W: W more transfers in flight per port than the schedule overlaps\n"
    "            (for a schedule planned without the network's latency; default 0)\n";

/* Every rank parses the same argv: the same verdict everywhere. */
static int parse(int argc, char **argv, const char **path, ssched_mpi_options_t *opt,
                 int *verify, int *json, char *why, size_t wlen)
{
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        char *end = NULL;
        int has = k + 1 < argc;
        errno = 0;
        if (!strcmp(a, "--verify")) {
            *verify = 1;
        } else if (!strcmp(a, "--json")) {
            *json = 1;
        } else if (!strcmp(a, "--map") && has) {
            opt->map_file = argv[++k];
        } else if (!strcmp(a, "--window") && has) {
            unsigned long long w = strtoull(argv[++k], &end, 10);
            if (errno || *end || argv[k][0] == '-' || !argv[k][0] || w > 1000000000ULL)
                return snprintf(why, wlen, "--window needs a count of transfers, not '%s'",
                                argv[k]), 0;
            opt->window = (size_t)w;
        } else if (!strcmp(a, "--no-pace")) {
            opt->unit_seconds = 0;
        } else if (!strcmp(a, "--pace") && has) {
            double f = strtod(argv[++k], &end);
            if (errno || *end || !(f > 0) || f > 1e300)
                return snprintf(why, wlen, "--pace needs a positive number of seconds, not '%s'",
                                argv[k]), 0;
            opt->unit_seconds = f;
        } else if (!strcmp(a, "--unit-bytes") && has) {
            unsigned long long b = strtoull(argv[++k], &end, 10);
            if (errno || *end || b == 0 || argv[k][0] == '-')
                return snprintf(why, wlen, "--unit-bytes needs a positive integer, not '%s'",
                                argv[k]), 0;
            opt->unit_bytes = b;
        } else if (!strcmp(a, "--flops-per-task") && has) {
            double f = strtod(argv[++k], &end);
            if (errno || *end || !(f > 0))
                return snprintf(why, wlen, "--flops-per-task needs a positive number, not '%s'",
                                argv[k]), 0;
            opt->flops_per_task = f;
        } else if (a[0] == '-' && a[1]) {
            return snprintf(why, wlen, "unknown option or missing value: '%s'", a), 0;
        } else if (*path) {
            return snprintf(why, wlen, "one schedule file only ('%s' and '%s')", *path, a), 0;
        } else {
            *path = a;
        }
    }
    if (!*path)
        return snprintf(why, wlen, "no schedule file given"), 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef SSCHED_SMPI
    /* exact transfer times (network/model:CM02: bench/smpi_exact.sh);
     * SSCHED_SMPI_ENVELOPE=keep leaves SMPI's envelope in place */
    const char *envl = getenv("SSCHED_SMPI_ENVELOPE");
    if (rank == 0 && !(envl && !strcmp(envl, "keep")) && ssched_smpi_exact_envelope() != 0)
        fprintf(stderr, "ssched-exec: warning: SimGrid refused the envelope bandwidth factor "
                "(network/bandwidth-factor or smpi/bw-factor set?): times include SMPI's "
                "16-byte envelope\n");
    char cfgwhy[160];
    if (rank == 0 && ssched_smpi_config_check(cfgwhy, sizeof cfgwhy))
        fprintf(stderr, "ssched-exec: warning: not SMPI's exact configuration (%s): simulated "
                "times will differ from the schedule's; use ssched-exec-smpirun or the options "
                "of bench/smpi_exact.sh --print-cfg B\n", cfgwhy);
#endif
    ssched_mpi_options_t opt;
    ssched_mpi_options_default(&opt);
    const char *path = NULL;
    int verify = 0, json = 0, status = 0;
    char why[256];
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        if (rank == 0)
            fputs(usage, stdout);
        MPI_Finalize();
        return 0;
    }
    if (!parse(argc, argv, &path, &opt, &verify, &json, why, sizeof why)) {
        if (rank == 0)
            fprintf(stderr, "ssched-exec: %s\n", why);
        MPI_Finalize();
        return 2;
    }
    ssched_mpi_t x;
    ssched_mpi_init(&x);
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ssched_mpi_setup_file(&x, path, MPI_COMM_WORLD, &opt, &err) != SSCHED_OK) {
        /* the library names the option fields; show the options */
        ssched_error_rename(&err, "options.unit_bytes", "--unit-bytes");
        ssched_error_rename(&err, "options.flops_per_task", "--flops-per-task");
        ssched_error_rename(&err, "(report.unrolled = 0)", "(ssched schedule --unroll)");
        if (rank == 0)
            fprintf(stderr, "ssched-exec: %s\n", err.message);
        status = err.status == SSCHED_EINPUT ? 2 : 1;
        ssched_mpi_free(&x);
        MPI_Finalize();
        return status;
    }
    /* SSCHED_EXEC_FAIL_OP=k makes the delivery of operation k fail: the
     * tests see every rank stop with one error (no hang) */
    const char *inject = getenv("SSCHED_EXEC_FAIL_OP");
    vctx_t v = {x.operations, inject ? atol(inject) : -1, verify, NULL, 0, x.n_participants,
                x.commutative, -1, 1};
    /* SSCHED_EXEC_SCALE_VALUE=k,m (commutative reduce): participant k's
     * value counts m times, as if a schedule lost (m = 0) or repeated
     * (m = 2) it: --verify must fail */
    const char *scale = getenv("SSCHED_EXEC_SCALE_VALUE");
    if (scale && sscanf(scale, "%ld,%ld", &v.scale_k, &v.scale_m) != 2)
        v.scale_k = -1, v.scale_m = 1;
    size_t ngot = x.kind == SSCHED_PROBLEM_REDUCE || x.kind == SSCHED_PROBLEM_ALLREDUCE ||
                          x.kind == SSCHED_PROBLEM_SCAN
                      ? x.operations : x.n_types * x.operations;
    v.got = calloc(ngot + 1, 1);
    ssched_mpi_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.fill = fill, cb.deliver = deliver, cb.value = value, cb.combine = combine;
    cb.result = result, cb.ctx = &v;
    ssched_mpi_stats_t st;
    ssched_status_t rs = v.got ? ssched_mpi_run(&x, &cb, &st, &err)
                               : ssched_error_set(&err, SSCHED_ENOMEM, "out of memory");
    int mine = rs == SSCHED_OK && v.bad == 0 && all_arrived(&x, &v), verified = 0;
    size_t peak = rs == SSCHED_OK ? st.buffers_peak : 0, peak_all = 0;
    MPI_Allreduce(&peak, &peak_all, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &verified, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    verified = verified && verify;
    if (rs != SSCHED_OK) {
        if (rank == 0)
            fprintf(stderr, "ssched-exec: %s\n", err.message);
        status = 1;
    } else if (verify && !verified) {
        if (rank == 0)
            fprintf(stderr, "ssched-exec: verification failed: some payload is wrong or "
                    "missing\n");
        status = 1;
    }
    if (rank == 0 && rs == SSCHED_OK) {
        double tp = st.makespan > 0 ? (double)x.operations / st.makespan : 0;
        /* the schedule's time unit in seconds: the pacing's, else 1 (the
         * unit of `ssched export simgrid` and --cost-from/--unit-bytes
         * platforms is the second) */
        double unit = x.unit_seconds > 0 ? x.unit_seconds : 1, units = st.makespan / unit;
        double ratio = x.makespan_d > 0 ? units / x.makespan_d : 0;
        if (json)
            printf("{\"verified\": %s, \"verify\": %s, \"makespan\": %.17g, "
                   "\"measured_seconds\": %.17g, \"unit_seconds\": %.17g, "
                   "\"measured_units\": %.17g, \"paced\": %s, "
                   "\"schedule_makespan\": \"%s\", \"schedule_makespan_approx\": %.9g, "
                   "\"operations\": %zu, \"throughput\": %.9g, \"ratio\": %.17g, "
                   "\"unit_bytes\": %llu, \"ranks\": %zu, \"buffer_peak\": %zu}\n",
                   verified ? "true" : "false", verify ? "true" : "false", st.makespan,
                   st.makespan, unit, units, x.unit_seconds > 0 ? "true" : "false", x.makespan,
                   x.makespan_d, x.operations, tp, ratio, (unsigned long long)opt.unit_bytes,
                   x.n_ranks, peak_all);
        else
            printf("schedule makespan: %s (%.9g) time units of %.9g s\n"
                   "measured makespan: %.9g s = %.9g time units (ratio %.9g)%s\n"
                   "throughput: %.9g operations/s (K = %zu)\nverified: %s\n", x.makespan,
                   x.makespan_d, unit, st.makespan, units, ratio,
                   x.unit_seconds > 0 ? ", paced" : "", tp, x.operations,
                   !verify ? "not requested (--verify)" : verified ? "yes" : "NO");
        fflush(stdout);
    }
    free(v.got);
    ssched_mpi_free(&x);
    MPI_Finalize();
    return status;
}
