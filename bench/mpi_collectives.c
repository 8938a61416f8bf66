/* Baselines for bench/mpi_vs_collectives.sh: K collective operations done
 * "the way MPI users do today", under SimGrid's SMPI on a platform written
 * by `ssched export simgrid` (rank i = node i).
 *
 *   mpi_collectives PROBLEM MODE K UNIT_BYTES FLOPS SIZE LIST1 [LIST2]
 *     PROBLEM reduce   LIST1 = participant ranks (in order), LIST2 = target rank
 *             allreduce LIST1 = participant ranks (in order): MPI_Allreduce, every
 *                      participant gets the ordered product (smpi/allreduce)
 *             scatterv LIST1 = source rank, LIST2 = target ranks (MPI_Scatterv)
 *             scatter  the same with MPI_Scatter (the source also "sends" a block
 *                      to itself, a free local copy): SMPI selects algorithms
 *                      (smpi/scatter) for MPI_Scatter, not for MPI_Scatterv
 *             gossip   LIST1 = member ranks (every member sends to every other)
 *             alltoall the same with MPI_Alltoall (equal blocks; each member's
 *                      block to itself is the call's own local copy): SMPI
 *                      selects algorithms (smpi/alltoall) for it, and it has
 *                      more of them than smpi/alltoallv
 *             bcast    LIST1 = source rank, LIST2 = target ranks (MPI_Bcast; SMPI
 *                      selects its algorithm with smpi/bcast)
 *             scan     LIST1 = participant ranks (in order): MPI_Scan, participant
 *                      i gets the ordered product of participants 0..i
 *             exscan   the same with MPI_Exscan: participant i > 0 gets 0..i-1
 *                      (SMPI 3.32 has one algorithm for each, no smpi/scan
 *                      selector, and with a non-commutative operator its
 *                      MPI_Scan / MPI_Iscan return every rank's own value:
 *                      the operator is never applied; verified NO)
 *             creduce, callreduce, cscan, cexscan: reduce, allreduce, scan,
 *                      exscan with a commutative
 *                      operator (MPI_Op_create(..., commute = 1): blockwise
 *                      entry sums mod 2^31 - 1, the same flops charged), so
 *                      that SMPI may use every algorithm (bench/simgrid_bound.sh)
 *     MODE    blocking (a loop of K calls) or nonblocking (K MPI_I* calls then
 *             MPI_Waitall)
 *     UNIT_BYTES, FLOPS: as given to `ssched export simgrid`; SIZE: the
 *     message size in units (ssched's --size, usually 1).
 *
 * reduce: a value is UNIT_BYTES * SIZE bytes of 2x2 matrices mod 2^31 - 1
 * (uint64 entries, 32 bytes a matrix), combined blockwise by the matrix
 * product, a user MPI_Op with commute = 0; every application charges
 * smpi_execute_flops(FLOPS * bytes / UNIT_BYTES), i.e. w(x) per unit on the
 * host of node x, as ssched's tasks.  The communicator (MPI_Comm_split) holds
 * the participants in participant order, plus the target first if it does not
 * participate (it contributes the identity); root = target.  allreduce: the
 * same values and operator over the participants alone.
 * scatter(v): MPI_Scatter(v) from the source (comm rank 0) to the targets;
 * gossip: MPI_Alltoallv among the members; bcast: MPI_Bcast from the source
 * (comm rank 0) to the targets.
 *
 * Only the last operation moves and multiplies real data (its result is
 * checked against a sequential product / the expected bytes); the K - 1
 * others use SMPI_SHARED_MALLOC buffers (SMPI skips their copies) and an op
 * that only charges the flops, so that K = 1000 nonblocking operations fit in
 * memory.  The simulated time does not depend on this (the configuration has
 * smpi/simulate-computation:no: only smpi_execute_flops costs time).
 *
 * Output: "time T" (simulated seconds from the start barrier to the last
 * completion, max over ranks), "verified yes|NO", then one JSON line.
 * If ssched_smpi_exact_envelope() is linked in (src/mpi/smpi_envelope.cpp,
 * as in ssched-exec-smpi), it is called after MPI_Init. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ssched_smpi_exact_envelope(void) __attribute__((weak));

#define MOD 2147483647ULL

static double g_flops, g_unit;

static void charge(int len) { smpi_execute_flops(g_flops * (32.0 * len) / g_unit); }

/* commutative: inout = in + inout, entrywise mod 2^31 - 1 */
static void mat_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const uint64_t *a = in;
    uint64_t *b = inout;
    for (long i = 0; i < 4L * *len; i++)
        b[i] = (a[i] + b[i]) % MOD;
    charge(*len);
}

/* MPI semantics: inout = in (the earlier operand) . inout */
static void mat_product(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const uint64_t *a = in;
    uint64_t *b = inout;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        uint64_t r0 = (a[0] * b[0] + a[1] * b[2] % MOD) % MOD;
        uint64_t r1 = (a[0] * b[1] + a[1] * b[3] % MOD) % MOD;
        uint64_t r2 = (a[2] * b[0] + a[3] * b[2] % MOD) % MOD;
        uint64_t r3 = (a[2] * b[1] + a[3] * b[3] % MOD) % MOD;
        b[0] = r0; b[1] = r1; b[2] = r2; b[3] = r3;
    }
    charge(*len);
}

static void charge_only(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in; (void)inout; (void)dt;
    charge(*len);
}

static uint64_t entry(int who, long j, int e)
{
    uint64_t x = (uint64_t)(who + 1) * 0x9E3779B97F4A7C15ULL + (uint64_t)j * 0xBF58476D1CE4E5B9ULL
                 + (uint64_t)e * 0x94D049BB133111EBULL;
    x ^= x >> 31; x *= 0xD6E8FEEBDA3E9CB5ULL; x ^= x >> 29;
    return x % MOD;
}

static int parse_list(const char *s, int **out)
{
    int n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ',';
    *out = malloc(sizeof(int) * n);
    char *dup = strdup(s), *save = NULL;
    int k = 0;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
        (*out)[k++] = atoi(t);
    free(dup);
    return k;
}

static unsigned char byte_of(int from, int to, long i) { return (unsigned char)(from * 31 + to * 7 + i); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (ssched_smpi_exact_envelope && ssched_smpi_exact_envelope() != 0)
        fprintf(stderr, "mpi_collectives: SimGrid refused the envelope factor: times are "
                "not exact\n");
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (argc < 8) {
        if (wrank == 0)
            fprintf(stderr, "usage: %s reduce|allreduce|creduce|callreduce|scatter|scatterv|gossip|alltoall|bcast|scan|exscan blocking|nonblocking K UNIT_BYTES "
                    "FLOPS SIZE LIST1 [LIST2]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *problem = argv[1], *mode = argv[2];
    int commutative = !strcmp(problem, "creduce") || !strcmp(problem, "callreduce") ||
                      !strcmp(problem, "cscan") || !strcmp(problem, "cexscan");
    if (commutative)
        problem++; /* the same collective, a commutative operator */
    int K = atoi(argv[3]);
    g_unit = atof(argv[4]);
    g_flops = atof(argv[5]);
    double size = atof(argv[6]);
    int nonblocking = !strcmp(mode, "nonblocking");
    int *l1 = NULL, *l2 = NULL, n1 = parse_list(argv[7], &l1), n2 = argc > 8 ? parse_list(argv[8], &l2) : 0;
    long bytes = (long)(g_unit * size + 0.5);

    /* communicator: key = position; color 0 for members */
    int key = -1;
    int is_allreduce = !strcmp(problem, "allreduce");
    int is_exscan = !strcmp(problem, "exscan"), is_scan = is_exscan || !strcmp(problem, "scan");
    /* a scan's values, operator and buffers are the reduce's */
    int is_reduce = !strcmp(problem, "reduce") || is_allreduce || is_scan;
    int is_scatterv = !strcmp(problem, "scatterv");
    int is_scatter = is_scatterv || !strcmp(problem, "scatter");
    int is_bcast = !strcmp(problem, "bcast");
    int is_alltoall = !strcmp(problem, "alltoall"); /* a gossip through MPI_Alltoall */
    if (!is_reduce && !is_scatter && !is_bcast && !is_alltoall && strcmp(problem, "gossip")) {
        if (wrank == 0) fprintf(stderr, "unknown problem '%s'\n", problem);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (is_reduce) {
        for (int i = 0; i < n1; i++)
            if (l1[i] == wrank) key = i + 1;
        if (key < 0 && !is_allreduce && !is_scan && l2[0] == wrank)
            key = 0; /* a non-participating target: first, identity */
        if (bytes % 32) {
            if (wrank == 0) fprintf(stderr, "reduce: UNIT_BYTES * SIZE must be a multiple of 32\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    } else if (is_scatter || is_bcast) {
        if (l1[0] == wrank) key = 0;
        for (int i = 0; i < n2; i++)
            if (l2[i] == wrank) key = i + 1;
    } else {
        for (int i = 0; i < n1; i++)
            if (l1[i] == wrank) key = i;
    }
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, key >= 0 ? 0 : MPI_UNDEFINED, key, &comm);

    int crank = -1, csize = 0, root = 0, target_participates = 1;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &crank);
        MPI_Comm_size(comm, &csize);
    }
    if (is_reduce && !is_allreduce && !is_scan) {
        target_participates = 0;
        for (int i = 0; i < n1; i++)
            if (l1[i] == l2[0]) { target_participates = 1; root = i; }
    }

    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_UINT64_T, &mat);
    MPI_Type_commit(&mat);
    MPI_Op op_real, op_charge;
    MPI_Op_create(commutative ? mat_sum : mat_product, commutative, &op_real);
    MPI_Op_create(charge_only, commutative, &op_charge);

    /* buffers: real ones for the last operation, shared ones for the others */
    long per = is_reduce || is_bcast ? bytes : bytes * (csize > 0 ? csize : 1); /* send side */
    long rper = is_reduce || is_scatter || is_bcast ? bytes : per;               /* receive side */
    unsigned char *send_real = NULL, *recv_real = NULL, *send_fake = NULL, *recv_fake = NULL;
    int *counts = NULL, *displs = NULL, *rcounts = NULL, *rdispls = NULL;
    long nmat = bytes / 32;
    int me_part = -1; /* reduce: participant index */
    if (comm != MPI_COMM_NULL) {
        send_real = calloc(per, 1);
        recv_real = calloc(rper, 1);
        send_fake = SMPI_SHARED_MALLOC(per);
        long nfake = nonblocking ? (K > 1 ? K - 1 : 1) : 1;
        recv_fake = SMPI_SHARED_MALLOC(rper * nfake);
        counts = calloc(csize, sizeof(int)); displs = calloc(csize, sizeof(int));
        rcounts = calloc(csize, sizeof(int)); rdispls = calloc(csize, sizeof(int));
        if (is_reduce) {
            me_part = target_participates ? crank : crank - 1;
            uint64_t *m = (uint64_t *)send_real;
            for (long j = 0; j < nmat; j++)
                for (int e = 0; e < 4; e++)
                    m[4 * j + e] = me_part < 0 ? (!commutative && (e == 0 || e == 3)) : entry(me_part, j, e);
            if (!target_participates) root = 0;
        } else if (is_bcast) {
            if (crank == 0) /* the source's message, in place (MPI_Bcast's buffer) */
                for (long b = 0; b < bytes; b++) recv_real[b] = byte_of(0, 0, b);
        } else if (is_scatter) {
            for (int i = 1; i < csize; i++) { counts[i] = bytes; displs[i] = i * bytes; }
            rcounts[0] = crank == 0 ? 0 : bytes;
            if (crank == 0)
                for (int i = 1; i < csize; i++)
                    for (long b = 0; b < bytes; b++) send_real[i * bytes + b] = byte_of(0, i, b);
        } else {
            for (int i = 0; i < csize; i++) {
                counts[i] = rcounts[i] = i == crank ? 0 : bytes;
                displs[i] = rdispls[i] = i * bytes;
                if (i != crank || is_alltoall)
                    for (long b = 0; b < bytes; b++) send_real[i * bytes + b] = byte_of(crank, i, b);
            }
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), t1 = t0;
    if (comm != MPI_COMM_NULL) {
        MPI_Request *req = nonblocking ? malloc(sizeof(MPI_Request) * K) : NULL;
        for (int k = 0; k < K; k++) {
            int last = k == K - 1;
            unsigned char *sb = last ? send_real : send_fake;
            unsigned char *rb = last ? recv_real : recv_fake + (nonblocking ? rper * k : 0);
            MPI_Request *r = nonblocking ? &req[k] : NULL;
            if (is_scan) {
                MPI_Op op = last ? op_real : op_charge;
                if (r && is_exscan) MPI_Iexscan(sb, rb, (int)nmat, mat, op, comm, r);
                else if (r) MPI_Iscan(sb, rb, (int)nmat, mat, op, comm, r);
                else if (is_exscan) MPI_Exscan(sb, rb, (int)nmat, mat, op, comm);
                else MPI_Scan(sb, rb, (int)nmat, mat, op, comm);
            } else if (is_allreduce) {
                MPI_Op op = last ? op_real : op_charge;
                if (r) MPI_Iallreduce(sb, rb, (int)nmat, mat, op, comm, r);
                else MPI_Allreduce(sb, rb, (int)nmat, mat, op, comm);
            } else if (is_reduce) {
                MPI_Op op = last ? op_real : op_charge;
                if (r) MPI_Ireduce(sb, rb, (int)nmat, mat, op, root, comm, r);
                else MPI_Reduce(sb, rb, (int)nmat, mat, op, root, comm);
            } else if (is_bcast) {
                if (r) MPI_Ibcast(rb, (int)bytes, MPI_BYTE, 0, comm, r);
                else MPI_Bcast(rb, (int)bytes, MPI_BYTE, 0, comm);
            } else if (is_scatter) {
                if (!is_scatterv && r) MPI_Iscatter(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, 0, comm, r);
                else if (!is_scatterv) MPI_Scatter(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, 0, comm);
                else if (r) MPI_Iscatterv(sb, counts, displs, MPI_BYTE, rb, rcounts[0], MPI_BYTE, 0, comm, r);
                else MPI_Scatterv(sb, counts, displs, MPI_BYTE, rb, rcounts[0], MPI_BYTE, 0, comm);
            } else if (is_alltoall) {
                if (r) MPI_Ialltoall(sb, (int)bytes, MPI_BYTE, rb, (int)bytes, MPI_BYTE, comm, r);
                else MPI_Alltoall(sb, (int)bytes, MPI_BYTE, rb, (int)bytes, MPI_BYTE, comm);
            } else {
                if (r) MPI_Ialltoallv(sb, counts, displs, MPI_BYTE, rb, rcounts, rdispls, MPI_BYTE, comm, r);
                else MPI_Alltoallv(sb, counts, displs, MPI_BYTE, rb, rcounts, rdispls, MPI_BYTE, comm);
            }
        }
        if (nonblocking)
            MPI_Waitall(K, req, MPI_STATUSES_IGNORE);
        t1 = MPI_Wtime();
        free(req);
    }

    /* check the last operation */
    int bad = 0;
    if (comm != MPI_COMM_NULL) {
        /* scan: participant crank's prefix (exscan: up to crank - 1; rank 0
         * of an exscan gets nothing defined) */
        int upto = is_exscan ? crank : is_scan ? crank + 1 : n1;
        if (is_reduce && (crank == root || is_allreduce || is_scan) && upto > 0) {
            const uint64_t *got = (const uint64_t *)recv_real;
            for (long j = 0; j < nmat && !bad; j++) {
                uint64_t acc[4] = {1, 0, 0, 1};
                if (commutative)
                    acc[0] = acc[3] = 0;
                for (int p = 0; p < upto; p++) { /* acc = acc . M_p (participant order) */
                    uint64_t m[4], t[4];
                    for (int e = 0; e < 4; e++) m[e] = entry(p, j, e);
                    if (commutative) {
                        for (int e = 0; e < 4; e++) acc[e] = (acc[e] + m[e]) % MOD;
                        continue;
                    }
                    t[0] = (acc[0] * m[0] % MOD + acc[1] * m[2] % MOD) % MOD;
                    t[1] = (acc[0] * m[1] % MOD + acc[1] * m[3] % MOD) % MOD;
                    t[2] = (acc[2] * m[0] % MOD + acc[3] * m[2] % MOD) % MOD;
                    t[3] = (acc[2] * m[1] % MOD + acc[3] * m[3] % MOD) % MOD;
                    memcpy(acc, t, sizeof acc);
                }
                for (int e = 0; e < 4; e++) bad |= got[4 * j + e] != acc[e];
            }
        } else if (is_bcast && crank > 0) {
            for (long b = 0; b < bytes && !bad; b++) bad |= recv_real[b] != byte_of(0, 0, b);
        } else if (is_scatter && crank > 0) {
            for (long b = 0; b < bytes && !bad; b++) bad |= recv_real[b] != byte_of(0, crank, b);
        } else if (!is_reduce && !is_scatter && !is_bcast) {
            for (int i = 0; i < csize && !bad; i++)
                if (i != crank || is_alltoall)
                    for (long b = 0; b < bytes && !bad; b++)
                        bad |= recv_real[i * bytes + b] != byte_of(i, crank, b);
        }
    }
    double t0min, t1max;
    int anybad;
    MPI_Reduce(&t0, &t0min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t1, &t1max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (wrank == 0) {
        printf("time %.17g\nverified %s\n", t1max - t0min, anybad ? "NO" : "yes");
        printf("{\"problem\": \"%s\", \"mode\": \"%s\", \"operations\": %d, \"makespan\": %.17g, "
               "\"verified\": %s}\n", problem, mode, K, t1max - t0min, anybad ? "false" : "true");
    }
    if (comm != MPI_COMM_NULL) {
        free(send_real); free(recv_real);
        SMPI_SHARED_FREE(send_fake); SMPI_SHARED_FREE(recv_fake);
        free(counts); free(displs); free(rcounts); free(rdispls);
        MPI_Comm_free(&comm);
    }
    MPI_Op_free(&op_real);
    MPI_Op_free(&op_charge);
    MPI_Type_free(&mat);
    free(l1); free(l2);
    MPI_Finalize();
    return 0;
}
