/* SMPI's treatment of latency, measured (bench/smpi_latency.sh): rank 0
 * sends N messages of S bytes to rank 1 over one link (latency L,
 * bandwidth B); rank 1 posts every receive at the start and waits for
 * them in arrival order (no barrier: SimGrid's clock is global, both ranks
 * start at the same time), so each message can start as soon as rank 0
 * posts it; rank 0 tells its start time afterwards.  Modes:
 *   single  one message
 *   burst   N MPI_Isend posted at once
 *   serial  N MPI_Isend, each posted when the previous one completed
 *   paced   N MPI_Isend, message k posted at k S / B (the previous one's
 *           end minus L: the unrolled schedule's overlap)
 * Prints, per message, its arrival at rank 1 after rank 0's start. */
#include <mpi.h>
#include <simgrid/actor.h>
#include <stdio.h>
#include <stdlib.h>

int ssched_smpi_exact_envelope(void);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ssched_smpi_exact_envelope();
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (argc != 5) {
        if (r == 0)
            fprintf(stderr, "usage: smpi_latency single|burst|serial|paced N S GAP\n");
        MPI_Finalize();
        return 2;
    }
    const char *mode = argv[1];
    int N = atoi(argv[2]);
    long S = atol(argv[3]);
    double gap = atof(argv[4]);
    char *b = calloc((size_t)N, (size_t)S);
    MPI_Request *q = malloc((size_t)N * sizeof *q);
    double t0 = MPI_Wtime();
    if (r == 0) {
        for (int k = 0; k < N; k++) {
            MPI_Isend(b + (size_t)k * S, (int)S, MPI_BYTE, 1, k, MPI_COMM_WORLD, &q[k]);
            if (mode[1] == 'e') /* serial */
                MPI_Wait(&q[k], MPI_STATUS_IGNORE);
            else if (mode[0] == 'p' && k + 1 < N)
                sg_actor_sleep_until(t0 + (k + 1) * gap);
        }
        if (mode[1] != 'e')
            MPI_Waitall(N, q, MPI_STATUSES_IGNORE);
        MPI_Send(&t0, 1, MPI_DOUBLE, 1, N, MPI_COMM_WORLD);
    } else if (r == 1) {
        double *at = malloc((size_t)N * sizeof *at);
        for (int k = 0; k < N; k++)
            MPI_Irecv(b + (size_t)k * S, (int)S, MPI_BYTE, 0, k, MPI_COMM_WORLD, &q[k]);
        for (int k = 0; k < N; k++) {
            int i;
            MPI_Waitany(N, q, &i, MPI_STATUS_IGNORE);
            at[i] = MPI_Wtime();
        }
        MPI_Recv(&t0, 1, MPI_DOUBLE, 0, N, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%s N=%d S=%ld:", mode, N, S);
        for (int k = 0; k < N; k++)
            printf(" %.9f", at[k] - t0);
        printf("\n");
        free(at);
    }
    free(q);
    free(b);
    MPI_Finalize();
    return 0;
}
