/* An ordinary MPI program for tests/test_pmpi.c: it knows nothing of
 * ssched.  Run with libssched_pmpi preloaded (or linked, under SMPI), its
 * MPI_Bcast, MPI_Reduce and MPI_Allreduce calls may run ssched's plans; it
 * computes every result again with the PMPI_ functions (plain MPI) and
 * compares them byte for byte.  The calls (7 ranks or more):
 *   bcast     25001 MPI_INT from root 1                      (100004 bytes)
 *   reduce    3001 2x2 matrices (unsigned, product mod 2^32: not
 *             commutative) to root 2                          (48016 bytes)
 *   reduce    12004 MPI_INT, MPI_SUM, MPI_IN_PLACE at root 2   (48016 bytes)
 *   reduce    6002 MPI_DOUBLE, MPI_SUM to root 2               (48016 bytes)
 *   allreduce 3001 matrices, the product, MPI_IN_PLACE         (48016 bytes)
 *   allreduce 6002 MPI_DOUBLE, MPI_MAX                        (48016 bytes)
 *   bcast     1000 MPI_INT from root 0, reduce of the matrices to root 0
 *             (no plan: plain MPI)
 * (argument "funneled" or "multiple": MPI_Init_thread at that level).
 * Prints "pmpi_prog: N results identical" on rank 0 and exits 0, or names
 * the first difference and exits 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, bad;

/* 2x2 matrices a, b (row-major, unsigned): inout = in x inout (MPI's
 * order: the result is v_0 x v_1 x ... x v_{n-1}) */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const unsigned *a = in;
    unsigned *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, r, sizeof r);
    }
}

static void compare(const char *what, const void *got, const void *want, size_t bytes)
{
    int diff = memcmp(got, want, bytes) != 0, any;
    PMPI_Allreduce(&diff, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (diff)
        fprintf(stderr, "pmpi_prog: rank %d: %s differs from plain MPI\n", rank, what);
    bad |= any;
}

static void fill(void *buf, size_t bytes, unsigned seed)
{
    unsigned *u = buf;
    for (size_t k = 0; k < bytes / sizeof *u; k++)
        u[k] = (seed + 1) * 2654435761u + (unsigned)k * 40503u + (unsigned)rank * 977u;
}

static void fill_doubles(double *d, size_t n)
{
    for (size_t k = 0; k < n; k++)
        d[k] = (double)((k * 7 + (size_t)rank * 13) % 1000) - 300.0;
}

int main(int argc, char **argv)
{
    /* argv[1] "funneled" or "multiple": MPI_Init_thread at that level */
    if (argc > 1) {
        int provided;
        MPI_Init_thread(&argc, &argv,
                        !strcmp(argv[1], "multiple") ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED,
                        &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int checks = 0;
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op prod;
    MPI_Op_create(matmul, 0, &prod);
    size_t big = 100004;
    char *a = malloc(big), *b = malloc(big), *r1 = malloc(big), *r2 = malloc(big);
    if (!a || !b || !r1 || !r2)
        return 1;
    /* bcast 25001 ints from root 1 */
    fill(a, big, 1);
    memcpy(b, a, big);
    MPI_Bcast(a, 25001, MPI_INT, 1, MPI_COMM_WORLD);
    PMPI_Bcast(b, 25001, MPI_INT, 1, MPI_COMM_WORLD);
    compare("MPI_Bcast of 25001 MPI_INT from root 1", a, b, big), checks++;
    /* reduce of matrices, not commutative, root 2 */
    fill(a, 48016, 2);
    memset(r1, 0, 48016), memset(r2, 0, 48016);
    MPI_Reduce(a, r1, 3001, mat, prod, 2, MPI_COMM_WORLD);
    PMPI_Reduce(a, r2, 3001, mat, prod, 2, MPI_COMM_WORLD);
    compare("MPI_Reduce of 3001 matrices (product) to root 2", r1, r2, 48016), checks++;
    /* reduce MPI_SUM MPI_INT, MPI_IN_PLACE at the root */
    fill(a, 48016, 3);
    memcpy(r1, a, 48016), memcpy(r2, a, 48016);
    MPI_Reduce(rank == 2 ? MPI_IN_PLACE : r1, rank == 2 ? r1 : NULL, 12004, MPI_INT, MPI_SUM, 2,
               MPI_COMM_WORLD);
    PMPI_Reduce(rank == 2 ? MPI_IN_PLACE : r2, rank == 2 ? r2 : NULL, 12004, MPI_INT, MPI_SUM, 2,
                MPI_COMM_WORLD);
    compare("MPI_Reduce MPI_SUM of 12004 MPI_INT in place at root 2", r1, r2, 48016), checks++;
    /* reduce MPI_SUM MPI_DOUBLE (small integers: exact in any order) */
    fill_doubles((double *)a, 6002);
    MPI_Reduce(a, r1, 6002, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);
    PMPI_Reduce(a, r2, 6002, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);
    compare("MPI_Reduce MPI_SUM of 6002 MPI_DOUBLE to root 2", r1, r2, rank == 2 ? 48016 : 0),
        checks++;
    /* allreduce of matrices in place */
    fill(r1, 48016, 4);
    memcpy(r2, r1, 48016);
    MPI_Allreduce(MPI_IN_PLACE, r1, 3001, mat, prod, MPI_COMM_WORLD);
    PMPI_Allreduce(MPI_IN_PLACE, r2, 3001, mat, prod, MPI_COMM_WORLD);
    compare("MPI_Allreduce of 3001 matrices (product) in place", r1, r2, 48016), checks++;
    /* allreduce MPI_MAX MPI_DOUBLE */
    fill_doubles((double *)a, 6002);
    MPI_Allreduce(a, r1, 6002, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    PMPI_Allreduce(a, r2, 6002, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    compare("MPI_Allreduce MPI_MAX of 6002 MPI_DOUBLE", r1, r2, 48016), checks++;
    /* not planned: plain MPI */
    fill(a, 4000, 5);
    memcpy(b, a, 4000);
    MPI_Bcast(a, 1000, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Bcast(b, 1000, MPI_INT, 0, MPI_COMM_WORLD);
    compare("MPI_Bcast of 1000 MPI_INT from root 0", a, b, 4000), checks++;
    fill(a, 48016, 6);
    MPI_Reduce(a, r1, 3001, mat, prod, 0, MPI_COMM_WORLD);
    PMPI_Reduce(a, r2, 3001, mat, prod, 0, MPI_COMM_WORLD);
    compare("MPI_Reduce of 3001 matrices to root 0", r1, r2, rank == 0 ? 48016 : 0), checks++;
    if (rank == 0 && !bad)
        printf("pmpi_prog: %d results identical\n", checks);
    free(a), free(b), free(r1), free(r2);
    MPI_Op_free(&prod);
    MPI_Type_free(&mat);
    MPI_Finalize();
    return bad ? 1 : 0;
}
