/* An OSU-style micro-benchmark of one collective (issue 25), written as any
 * MPI user would: it knows nothing of ssched.  bench/dropin.sh runs it
 * plain and with libssched_pmpi.
 *
 * usage: osu_coll bcast|reduce|allreduce MIN MAX [ITERS [ROOT]]
 *   sizes MIN, 2 MIN, 4 MIN, ... <= MAX bytes (and MAX); ITERS calls per
 *   size (default 1), timed with MPI_Wtime between barriers, the slowest
 *   rank's time per call printed:  "size BYTES time SECONDS verified yes|no"
 *   bcast: MPI_CHAR from ROOT (default 0); reduce (to ROOT), allreduce: a
 *   non-commutative operator on pairs (a, b) of MPI_UNSIGNED (the affine
 *   maps x -> a x + b mod 2^32 composed in rank order: in (+) inout =
 *   (a_in a_io, a_in b_io + b_in)), 8 bytes an element.  The last call of
 *   each size is verified against the closed form.
 *   OSU_SHARED=1 (SMPI): the buffers are SMPI_SHARED_MALLOC'ed (every
 *   rank's aliased to a few pages: time only, for messages whose real
 *   buffers do not fit, e.g. 20 ranks x 2 x 256 MB), results not checked
 *   ("verified unchecked"); the simulated time is the same (the
 *   configuration simulates no computation, and a message's time does not
 *   depend on its bytes' values). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OSU_SMPI_EXACT
#include <smpi/smpi.h>
/* src/mpi/smpi_envelope.cpp: SMPI's 16-byte envelope cancelled, so that
 * SMPI's exact configuration (bench/smpi_exact.sh B) applies to both runs */
int ssched_smpi_exact_envelope(void);
#endif

static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const unsigned *x = in;
    unsigned *y = inout;
    for (int k = 0; k < *len; k++, x += 2, y += 2) {
        unsigned a = x[0] * y[0], b = x[0] * y[1] + x[1];
        y[0] = a, y[1] = b;
    }
}

static unsigned opa(size_t k, int r) { return 2u * (unsigned)((k * 31 + (size_t)r * 17) % 1000) + 1; }
static unsigned opb(size_t k, int r) { return (unsigned)(k * 7 + (size_t)r * 13); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef OSU_SMPI_EXACT
    ssched_smpi_exact_envelope();
#endif
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: osu_coll bcast|reduce|allreduce MIN MAX [ITERS [ROOT]]\n");
        MPI_Finalize();
        return 2;
    }
    const char *coll = argv[1];
    size_t lo = strtoull(argv[2], NULL, 10), hi = strtoull(argv[3], NULL, 10);
    int iters = argc > 4 ? atoi(argv[4]) : 1, root = argc > 5 ? atoi(argv[5]) : 0;
    int bcast = !strcmp(coll, "bcast"), all = !strcmp(coll, "allreduce");
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    MPI_Op op;
    MPI_Op_create(affine, 0, &op);
    int shared = 0;
#ifdef OSU_SMPI_EXACT
    shared = getenv("OSU_SHARED") && !strcmp(getenv("OSU_SHARED"), "1");
#endif
    unsigned char *s, *r;
#ifdef OSU_SMPI_EXACT
    if (shared)
        s = SMPI_SHARED_MALLOC(hi ? hi : 1), r = SMPI_SHARED_MALLOC(hi ? hi : 1);
    else
#endif
        s = malloc(hi ? hi : 1), r = malloc(hi ? hi : 1);
    if (!s || !r)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t bytes = lo; bytes <= hi; bytes = bytes < hi && 2 * bytes > hi ? hi : 2 * bytes) {
        size_t n = bcast ? bytes : bytes / 8;
        double t = 0;
        for (int it = 0; it < iters; it++) {
            if (bcast) {
                for (size_t k = 0; k < n; k++)
                    s[k] = rank == root ? (unsigned char)(k * 131 + 7) : 0;
            } else {
                unsigned *u = (unsigned *)s;
                for (size_t k = 0; k < n; k++)
                    u[2 * k] = opa(k, rank), u[2 * k + 1] = opb(k, rank);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (bcast)
                MPI_Bcast(s, (int)n, MPI_CHAR, root, MPI_COMM_WORLD);
            else if (all)
                MPI_Allreduce(s, r, (int)n, pair, op, MPI_COMM_WORLD);
            else
                MPI_Reduce(s, r, (int)n, pair, op, root, MPI_COMM_WORLD);
            t += MPI_Wtime() - t0;
        }
        int ok = 1;
        if (shared) {
            /* (aliased buffers: nothing to check) */
        } else if (bcast) {
            for (size_t k = 0; ok && k < n; k++)
                ok = s[k] == (unsigned char)(k * 131 + 7);
        } else if (all || rank == root) {
            const unsigned *u = (const unsigned *)r;
            for (size_t k = 0; ok && k < n; k++) {
                unsigned a = opa(k, size - 1), b = opb(k, size - 1);
                for (int q = size - 2; q >= 0; q--) /* v_q (+) acc */
                    b = opa(k, q) * b + opb(k, q), a = opa(k, q) * a;
                ok = u[2 * k] == a && u[2 * k + 1] == b;
            }
        }
        double tmax, mine = t / iters;
        int okall;
        MPI_Allreduce(&mine, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(&ok, &okall, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (rank == 0)
            printf("size %zu time %.9g verified %s\n", bytes, tmax,
                   shared ? "unchecked" : okall ? "yes" : "no");
        if (bytes == hi)
            break;
    }
#ifdef OSU_SMPI_EXACT
    if (shared)
        SMPI_SHARED_FREE(s), SMPI_SHARED_FREE(r);
    else
#endif
        free(s), free(r);
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
