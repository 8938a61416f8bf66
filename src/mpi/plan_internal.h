/* Private to src/mpi/plan*.c: the plan builder's state and the steps the
 * per-problem replays (plan_flow.c: scatter, gossip, broadcast;
 * plan_reduce.c: reduce, all-reduce) share with the driver (plan.c). */
#ifndef SSCHED_MPI_PLAN_INTERNAL_H
#define SSCHED_MPI_PLAN_INTERNAL_H

#include "src/mpi/internal.h"

typedef struct {
    int64_t *v;
    size_t n, cap;
} vec_t;
typedef struct {
    vec_t ops, bufs, edges;    /* edges: (pred, succ) pairs                 */
    vec_t xbufs;               /* batches' further buffers                  */
} node_t;

/* scatter, gossip: a byte range of a message at a node since `prod` (-1:
 * the origin's own data) */
typedef struct {
    int64_t lo, hi, node, prod;
} seg_t;
typedef struct {
    seg_t *s;
    size_t n, cap;
    vec_t bufs;                /* (node, buffer) pairs                      */
} msg_t;

/* reduce: a value at a node (key: node, interval, op) */
typedef struct {
    uint64_t key;
    int present;
    int64_t buf, sbuf;         /* here / at the sender of its pieces        */
    vec_t prod, sprod;         /* the operations it waits for (here / there) */
} val_t;

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    const ssched_unrolled_t *u;
    int64_t B;
    const int *rank_of;
    node_t *nodes;
    int64_t *last;             /* out, in, proc per node; tail, head per edge */
    /* local order (see chain): per resource slot (index in last) its
     * operations' ends in start order, and how many ended so far */
    mpq_srcptr **q_end;
    int64_t **q_op;
    size_t *q_n, *q_cap, *q_ptr, *q_own; /* q_own: as q_ptr, ties included */
    size_t *slot0, *slots;     /* node k's slots: slots[slot0[k] .. slot0[k+1]) */
    size_t *lidx, *seen0;      /* a slot's index among its node's; node's seen */
    int64_t *seen;             /* [node][own slot][other slot]: last dep added */
    int nomem, broken;
    size_t window;             /* extra transfers in flight per resource    */
    int batching;              /* replaying a transfer of batch > 1         */
    size_t bk;                 /* its operation replayed: t->op + bk (the
                                  transfer itself is passed: chain keeps
                                  pointers to its start and end)          */
    int64_t bsend, brecv;      /* a batch: its send / receive once made,
                                  later operations add their buffers      */
    msg_t *msgs;
    size_t n_types, *origin;   /* scatter, gossip: canonical type -> origin */
    val_t *vals;               /* open addressing on key                    */
    size_t vcap, vn;
    int64_t *leaf;             /* reduce: leaf buffer of (participant, op)  */
    int64_t *bbuf, *bprod;     /* broadcast, [op][node]: the copy's buffer
                                  (-1: none yet) and the operation that
                                  brought it (-1: the source's fill, -2:
                                  not there)                             */
} bld_t;

/* Append k values to x; 0 when out of memory. */
SSCHED_INTERNAL int ssched_i_plan_push(vec_t *x, const int64_t *vals, size_t k);
/* A new buffer / local operation on node (index, or -1 and b->nomem). */
SSCHED_INTERNAL int64_t ssched_i_plan_add_buf(bld_t *b, size_t node, int64_t init, int64_t a,
                                              int64_t op);
SSCHED_INTERNAL int64_t ssched_i_plan_add_op(bld_t *b, size_t node, int64_t kind, int64_t peer,
                                             int64_t buf, int64_t left, int64_t right, int64_t lo,
                                             int64_t hi, int64_t id);
/* succ waits for pred (both local operations of node; ignored if either < 0). */
SSCHED_INTERNAL void ssched_i_plan_add_dep(bld_t *b, size_t node, int64_t pred, int64_t succ);
/* op follows the last operation on its resource and the node's local order
 * (plan.c says why). */
SSCHED_INTERNAL void ssched_i_plan_chain(bld_t *b, size_t node, int64_t *last, int64_t op,
                                         mpq_srcptr start, mpq_srcptr end);
/* The transfer's byte range [lo, hi) and its sender's and receiver's slots. */
SSCHED_INTERNAL void ssched_i_plan_frame(bld_t *b, const ssched_timed_transfer_t *t, int64_t *lo,
                                         int64_t *hi, int64_t **snd, int64_t **rcv);

/* Replay one event / add the final deliveries, per problem. */
SSCHED_INTERNAL void ssched_i_plan_flow_transfer(bld_t *b, const ssched_timed_transfer_t *t);
SSCHED_INTERNAL void ssched_i_plan_flow_deliveries(bld_t *b);
SSCHED_INTERNAL void ssched_i_plan_bcast_transfer(bld_t *b, const ssched_timed_transfer_t *t);
SSCHED_INTERNAL void ssched_i_plan_bcast_deliveries(bld_t *b);
SSCHED_INTERNAL void ssched_i_plan_reduce_transfer(bld_t *b, const ssched_timed_transfer_t *t);
SSCHED_INTERNAL void ssched_i_plan_reduce_computation(bld_t *b,
                                                      const ssched_timed_computation_t *c);
SSCHED_INTERNAL void ssched_i_plan_reduce_deliveries(bld_t *b);
/* The value (node, type I, op) of a reduce or scan (insert: make it; NULL
 * when absent, or out of memory with b->nomem). */
SSCHED_INTERNAL val_t *ssched_i_plan_val(bld_t *b, size_t node, size_t I, size_t op, int insert);
/* Scan (plan_scan.c): values are copied, never consumed. */
SSCHED_INTERNAL void ssched_i_plan_scan_transfer(bld_t *b, const ssched_timed_transfer_t *t);
SSCHED_INTERNAL void ssched_i_plan_scan_computation(bld_t *b, const ssched_timed_computation_t *c);
SSCHED_INTERNAL void ssched_i_plan_scan_deliveries(bld_t *b);
/* All-reduce: op's complete result at the root, or NULL if not there yet. */
SSCHED_INTERNAL val_t *ssched_i_plan_root_result(bld_t *b, size_t op);

#endif
