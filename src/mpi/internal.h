/* Private to libssched_mpi: the per-rank plan, built on rank 0 (plan.c),
 * shipped as int64 arrays (setup.c) and executed (run.c).
 *
 * A plan is a DAG of local operations.  Every resource's order (out-port,
 * in-port, processor, or a switch's link), the node's order across its
 * resources (plan.c, chain) and every data dependency (a
 * send needs the receives that brought its bytes; a computation its two
 * inputs; a delivery the whole message) is an edge pred -> succ; an
 * operation starts when all its predecessors have completed.  Cross-rank
 * coupling is only MPI matching: the sends of one edge are posted in the
 * schedule's order at one end, the receives in the same order at the
 * other, with one tag, so MPI's non-overtaking rule pairs them right. */
#ifndef SSCHED_MPI_INTERNAL_H
#define SSCHED_MPI_INTERNAL_H

#include <stdint.h>

#include "ssched/mpi.h"
#include "src/util/internal.h"

enum { OP_SEND, OP_RECV, OP_COMP, OP_DELIVER };
enum { BUF_NONE, BUF_FILL, BUF_VALUE };   /* how a buffer is first filled  */

/* int64 fields of one operation / buffer in the packed arrays */
/* O_START: the scheduled start (a double's bits, schedule time units);
 * O_AFTER: the previous operation on the same resource, which must have
 * been posted (not completed) first, -1 if none; O_NEXT: the operation
 * whose O_AFTER this one is; O_XB0, O_NXB: a batch's buffers after O_BUF
 * (xbufs[O_XB0 .. O_XB0 + O_NXB)), one per further operation carried. */
enum { O_KIND, O_PEER, O_BUF, O_LEFT, O_RIGHT, O_LO, O_HI, O_NDEPS, O_SUCC0, O_NSUCC, O_ID,
       O_START, O_AFTER, O_NEXT, O_XB0, O_NXB, O_WIDTH };
enum { B_BYTES, B_INIT, B_A, B_OP, B_REFS, B_WIDTH };

#define TAG_DATA 11   /* every transfer (matching per source rank)         */
#define TAG_ABORT 12  /* a rank failed: the others drain and stop          */
#define TAG_COMP 13   /* SMPI: a computation's actor has finished          */
#define TAG_IDLE 14   /* end barrier: a rank has nothing left under way    */
#define TAG_RELEASE 15 /* end barrier: rank 0 lets everyone go             */
#define TAG_TIMER 16  /* SMPI, paced runs: an event's scheduled start    */
#define TAG_METRO 17  /* SMPI, paced runs: the metronome's tick (run_pace.c) */
#define TAG_START 18  /* SMPI, lean paced runs: a rank's entry time (run.c) */

typedef struct {
    int64_t n_ops, n_bufs, n_succ, n_xbufs;
    int64_t *ops;      /* n_ops x O_WIDTH                                   */
    int64_t *bufs;     /* n_bufs x B_WIDTH                                  */
    int64_t *succ;     /* successor lists (O_SUCC0, O_NSUCC)                */
    int64_t *xbufs;    /* batches' further buffers (O_XB0, O_NXB)           */
} mpi_plan_t;

struct ssched_mpi_impl {
    MPI_Comm comm;     /* a duplicate of the caller's                       */
    int rank, size;
    mpi_plan_t plan;
    double flops;      /* per task: flops_per_task x size                   */
    double pace;       /* seconds per schedule time unit; 0: as soon as
                          possible (ssched_mpi_options_t.unit_seconds)     */
    int lean;          /* libssched_pmpi: a run per user call, no
                          agreement (ssched_i_mpi_lean)                    */
    double margin;     /* lean, SMPI, paced: start this long after the
                          last rank entered (ssched_i_mpi_lean)            */
};

/* libssched_pmpi (collective, after a successful setup): runs of x skip
 * every agreement that costs latencies on the common path: no status
 * all-reduction at the start (a rank that cannot run calls MPI_Abort), no
 * end barrier nor settle all-reduction (a failing rank calls MPI_Abort:
 * nothing is ever drained), and under SMPI a paced run starts one margin
 * after the last rank entered: every rank sends its entry time to every
 * other, and the margin bounds those messages' time (ssched_i_mpi_lean). */
SSCHED_INTERNAL void ssched_i_mpi_lean(ssched_mpi_t *x);

/* Rank 0: the plans of every node (plans[n_nodes]) from a valid unrolled
 * schedule; rank_of_node maps nodes to peers; window: transfers a resource
 * may have in flight beyond the schedule's overlap
 * (ssched_mpi_options_t.window).  EINPUT for a transfer above INT_MAX
 * bytes. */
SSCHED_INTERNAL ssched_status_t ssched_i_mpi_build_plans(const ssched_platform_t *p,
                                                         const ssched_problem_t *pb,
                                                         const ssched_unrolled_t *u,
                                                         uint64_t msg_bytes,
                                                         const int *rank_of_node, size_t window,
                                                         mpi_plan_t *plans, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_mpi_plan_free(mpi_plan_t *pl);

#endif
