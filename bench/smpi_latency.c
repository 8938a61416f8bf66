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
 * Prints, per message, its arrival at rank 1 after rank 0's start.
 *   both    cross-traffic: each rank sends N messages to the other, one at
 *           a time; "ab", "ba": only rank 0, only rank 1 sends; prints the
 *           last arrival at b, then at a, after the common start (SimGrid's
 *           clock is global). */
#include <mpi.h>
#include <simgrid/actor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ssched_smpi_exact_envelope(void);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ssched_smpi_exact_envelope();
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (argc != 5) {
        if (r == 0)
            fprintf(stderr, "usage: smpi_latency single|burst|serial|paced|ab|ba|both N S GAP\n");
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
    int ab = !strcmp(mode, "ab"), ba = !strcmp(mode, "ba");
    if (ab || ba || !strcmp(mode, "both")) { /* opposite flows */
        int mine = (ab && r == 1) || (ba && r == 0) ? 0 : N;
        int theirs = (ab && r == 0) || (ba && r == 1) ? 0 : N;
        /* all[0]: my current send (the next one posted when it
         * completes), all[1..]: the receives, timed as they arrive */
        char *in = calloc(1, (size_t)S);
        MPI_Request *all = malloc((size_t)(N + 1) * sizeof *all);
        all[0] = MPI_REQUEST_NULL;
        for (int k = 0; k < N; k++)
            all[k + 1] = MPI_REQUEST_NULL;
        for (int k = 0; k < theirs; k++)
            MPI_Irecv(in, (int)S, MPI_BYTE, 1 - r, k, MPI_COMM_WORLD, &all[k + 1]);
        int sent = 0, left = theirs;
        double last = 0;
        if (mine)
            MPI_Isend(b, (int)S, MPI_BYTE, 1 - r, 0, MPI_COMM_WORLD, &all[0]);
        while (sent < mine || left > 0) {
            int i;
            MPI_Waitany(N + 1, all, &i, MPI_STATUS_IGNORE);
            if (i == 0 && ++sent < mine)
                MPI_Isend(b, (int)S, MPI_BYTE, 1 - r, sent, MPI_COMM_WORLD, &all[0]);
            else if (i > 0)
                left--, last = MPI_Wtime() - t0;
        }
        free(all);
        double got = last, other = 0;
        MPI_Sendrecv(&got, 1, MPI_DOUBLE, 1 - r, N + 1, &other, 1, MPI_DOUBLE, 1 - r, N + 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (r == 0) /* a->b first */
            printf("%s N=%d S=%ld: %.9f %.9f\n", mode, N, S, other, got);
        free(in), free(q), free(b);
        MPI_Finalize();
        return 0;
    }
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
