/* An MPI program for tests/test_mpi_exec.c: libssched_mpi's library paths
 * that ssched-exec does not take.
 *
 *   mpirun -np N mpi_op_prog GRAPHML KIND K A B [errors]
 *     KIND reduce (A participants, B target), scatter (A source, B
 *     targets), gossip (A sources, B targets); K operations.
 *
 * Rank 0 builds the schedule in memory (ssched_steady_solve,
 * ssched_unroll_plan, ssched_unroll; a reduce's types renumbered to the
 * canonical intervals) and sets up with ssched_mpi_setup, not from a file.
 * reduce: the values are arrays of 2x2 matrices mod 2^31 - 1 (a committed
 * contiguous datatype of 4 uint64), combined without a combine callback:
 * first by a non-commutative user MPI_Op (the matrix product, so the
 * operand order is checked: the result must be v_0 ... v_{N-1}), then in a
 * second run of the same setup by MPI_BXOR on MPI_UINT64_T.
 * scatter, gossip: byte payloads checked at their destination, each
 * message exactly once.
 * errors: instead, check the one-line errors of ssched_mpi_setup without a
 * schedule on rank 0 and of a reduce run with neither combine nor MPI_Op.
 * Exit status 0 and "mpi_op_prog: ok" on rank 0, else 1 with a reason. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/mpi.h"
#include "ssched/steady.h"

#define PRIME 2147483647ULL

typedef struct {
    int xor_mode;
    unsigned long K;
    size_t N;
    unsigned char *got;
    long bad, results;
} ctx_t;

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void leaf(size_t k, unsigned long op, uint64_t *m, size_t words)
{
    for (size_t q = 0; q < words; q++)
        m[q] = mix(((uint64_t)k << 40) ^ ((uint64_t)op << 8) ^ q) % PRIME;
}

static void product(const uint64_t *l, const uint64_t *r, uint64_t *o, size_t nmat)
{
    for (size_t q = 0; q < nmat; q++, l += 4, r += 4, o += 4) {
        uint64_t a = (l[0] * r[0] + l[1] * r[2]) % PRIME, b = (l[0] * r[1] + l[1] * r[3]) % PRIME;
        uint64_t c = (l[2] * r[0] + l[3] * r[2]) % PRIME, d = (l[2] * r[1] + l[3] * r[3]) % PRIME;
        o[0] = a, o[1] = b, o[2] = c, o[3] = d;
    }
}

/* MPI's user function: inout = in x inout (in is the left operand) */
static void mat_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    product(in, inout, inout, (size_t)*len);
}

static int value(const ssched_mpi_t *x, size_t k, unsigned long op, void *buf, size_t bytes,
                 void *ctx)
{
    (void)x, (void)ctx;
    uint64_t *m = malloc(bytes + 8);
    if (!m)
        return 1;
    leaf(k, op, m, bytes / 8);
    memcpy(buf, m, bytes / 8 * 8);
    free(m);
    return 0;
}

static int result(const ssched_mpi_t *x, unsigned long op, const void *buf, size_t bytes,
                  void *ctx)
{
    ctx_t *c = ctx;
    size_t words = bytes / 8;
    uint64_t *acc = malloc(2 * words * 8 + 8), *m = acc + words;
    if (!acc)
        return 1;
    leaf(0, op, acc, words);
    for (size_t k = 1; k < c->N; k++) {
        leaf(k, op, m, words);
        if (c->xor_mode)
            for (size_t q = 0; q < words; q++)
                acc[q] ^= m[q];
        else
            product(acc, m, acc, words / 4);
    }
    if (memcmp(acc, buf, words * 8) || !x->is_target || op >= c->K || c->got[op]++)
        c->bad++;
    c->results++;
    free(acc);
    return 0;
}

static void payload(size_t type, unsigned long op, unsigned char *buf, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        buf[i] = (unsigned char)(mix(((uint64_t)type << 32) ^ op) + i * 131);
}

static int fill(const ssched_mpi_t *x, size_t type, unsigned long op, void *buf, size_t bytes,
                void *ctx)
{
    (void)x, (void)ctx;
    payload(type, op, buf, bytes);
    return 0;
}

static int deliver(const ssched_mpi_t *x, size_t type, unsigned long op, const void *buf,
                   size_t bytes, void *ctx)
{
    ctx_t *c = ctx;
    unsigned char *want = malloc(bytes + 1);
    if (!want)
        return 1;
    payload(type, op, want, bytes);
    if (memcmp(want, buf, bytes) || x->type_dest[type] != x->node || c->got[type * c->K + op]++)
        c->bad++;
    c->results++;
    free(want);
    return 0;
}

/* Rank 0: the unrolled schedule in memory. */
static int build(const char *graphml, const char *kind, unsigned long K, const char *a,
                 const char *b, ssched_platform_t *p, ssched_problem_t *pb, ssched_unrolled_t *u)
{
    ssched_error_t err;
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    int ok = ssched_platform_load_graphml(p, graphml, &err) == SSCHED_OK;
    if (ok)
        ok = (!strcmp(kind, "reduce")    ? ssched_problem_set_reduce(pb, p, a, b, &err)
              : !strcmp(kind, "scatter") ? ssched_problem_set_scatter(pb, p, a, b, &err)
                                         : ssched_problem_set_gossip(pb, p, a, b, &err)) ==
             SSCHED_OK;
    ok = ok && ssched_steady_solve(p, pb, NULL, &st, &err) == SSCHED_OK;
    ok = ok && ssched_unroll_plan(p, pb, &st, K, NULL, 0, &s, &err) == SSCHED_OK;
    ok = ok && ssched_unroll(p, pb, &s, K, u, &err) == SSCHED_OK;
    if (ok && pb->kind == SSCHED_PROBLEM_REDUCE) { /* canonical numbering */
        size_t N = pb->n_participants;
        for (size_t t = 0; t < u->n_transfers; t++) {
            size_t k = s.intervals[u->transfers[t].type].k, m = s.intervals[u->transfers[t].type].m;
            u->transfers[t].type = k * N - k * (k - 1) / 2 + (m - k);
        }
    }
    if (!ok)
        fprintf(stderr, "mpi_op_prog: %s\n", err.message);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    return ok;
}

/* errors mode: every rank must get the same one-line error */
static int check_error(ssched_status_t st, const ssched_error_t *err, const char *needle,
                       int rank)
{
    int ok = st == SSCHED_EINPUT && strstr(err->message, needle) && !strchr(err->message, '\n');
    if (!ok)
        fprintf(stderr, "mpi_op_prog: rank %d: expected '%s', got status %d '%s'\n", rank,
                needle, (int)st, err->message);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ok = 1, all = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 6) {
        if (rank == 0)
            fprintf(stderr, "usage: mpi_op_prog GRAPHML KIND K A B [errors]\n");
        MPI_Finalize();
        return 2;
    }
    int errors = argc > 6 && !strcmp(argv[6], "errors");
    unsigned long K = strtoul(argv[3], NULL, 10);
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_unrolled_t u;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_unrolled_init(&u);
    if (rank == 0)
        ok = build(argv[1], argv[2], K, argv[4], argv[5], &p, &pb, &u);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ssched_mpi_options_t opt;
    ssched_mpi_options_default(&opt);
    opt.unit_bytes = 640; /* 20 matrices of 32 bytes a value */
    ssched_mpi_t x;
    ssched_mpi_init(&x);
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ok && errors) {
        ssched_status_t st = ssched_mpi_setup(&x, NULL, NULL, NULL, MPI_COMM_WORLD, &opt, &err);
        ok = check_error(st, &err, "rank 0 needs the schedule", rank);
    }
    ssched_status_t st = SSCHED_OK;
    if (ok) {
        int r0 = rank == 0;
        st = ssched_mpi_setup(&x, r0 ? &p : NULL, r0 ? &pb : NULL, r0 ? &u : NULL,
                              MPI_COMM_WORLD, &opt, &err);
        if (st != SSCHED_OK && rank == 0)
            fprintf(stderr, "mpi_op_prog: setup: %s\n", err.message);
        ok = st == SSCHED_OK;
    }
    ctx_t c = {0, x.operations, x.n_participants, NULL, 0, 0};
    size_t ngot = x.kind == SSCHED_PROBLEM_REDUCE ? x.operations : x.n_types * x.operations;
    ssched_mpi_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.ctx = &c;
    MPI_Datatype mat = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    long want = 0; /* results or deliveries this rank should see per run */
    if (ok && x.kind == SSCHED_PROBLEM_REDUCE) {
        want = x.is_target ? (long)x.operations : 0;
        MPI_Type_contiguous(4, MPI_UINT64_T, &mat);
        MPI_Type_commit(&mat);
        MPI_Op_create(mat_op, 0, &op);
        cb.value = value, cb.result = result;
    } else if (ok) {
        for (size_t t = 0; t < x.n_types; t++)
            want += x.type_dest[t] == x.node ? (long)x.operations : 0;
        cb.fill = fill, cb.deliver = deliver;
    }
    int runs = x.kind == SSCHED_PROBLEM_REDUCE ? 2 : 1;
    for (int r = 0; ok && r < runs; r++) {
        free(c.got);
        c.got = calloc(ngot + 1, 1);
        c.xor_mode = r == 1;
        c.bad = c.results = 0;
        if (x.kind == SSCHED_PROBLEM_REDUCE && errors) { /* neither combine nor MPI_Op */
            st = ssched_mpi_run(&x, &cb, NULL, &err);
            ok = check_error(st, &err, "needs a combine callback or an MPI_Op", rank);
            break;
        }
        cb.mpi_op = r == 0 ? op : MPI_BXOR;
        cb.datatype = r == 0 ? mat : MPI_UINT64_T;
        ssched_mpi_stats_t stats;
        st = ssched_mpi_run(&x, &cb, &stats, &err);
        if (st != SSCHED_OK && rank == 0)
            fprintf(stderr, "mpi_op_prog: run %d: %s\n", r, err.message);
        int mine = st == SSCHED_OK && c.got && c.bad == 0 && c.results == want;
        if (!mine && st == SSCHED_OK)
            fprintf(stderr, "mpi_op_prog: rank %d run %d: %ld wrong, %ld of %ld arrived\n", rank,
                    r, c.bad, c.results, want);
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        ok = all;
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0 && all)
        printf("mpi_op_prog: ok (%s, K = %lu, %zu nodes)\n", argv[2], K, x.n_nodes);
    free(c.got);
    if (op != MPI_OP_NULL)
        MPI_Op_free(&op);
    if (mat != MPI_DATATYPE_NULL)
        MPI_Type_free(&mat);
    ssched_mpi_free(&x);
    ssched_unrolled_free(&u);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    MPI_Finalize();
    return all ? 0 : 1;
}
