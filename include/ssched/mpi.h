/* ssched/mpi.h — run an unrolled schedule ("ssched-unrolled/2") inside an
 * MPI program: one rank per platform node the schedule uses, real payloads
 * (libssched_mpi).
 *
 * Rank 0 of the communicator reads and checks the schedule once, builds
 * every rank's plan and sends it; each rank then executes its part:
 *  - a message (type, op) of scatter/gossip, or a value of a reduce, is a
 *    buffer of msg_bytes = floor(unit_bytes x size) bytes; a piece
 *    [off, len] of it is the byte range [floor(off B), floor((off+len) B)),
 *    so the pieces of one message tile it exactly;
 *  - a broadcast's message op (type 0 in the callbacks) is filled at the
 *    source; each copy is forwarded whole once it has fully arrived at a
 *    node, and delivered at every other node (its buffer lives until its
 *    last forward and its delivery);
 *  - an all-reduce runs its reduce to the root as a reduce, then each
 *    result's copies as a broadcast from the root: a copy leaves the root
 *    once the result is complete there; every participant delivers each
 *    result through the result callback (x->is_target: the participant
 *    ranks; a root that is not a participant only forwards);
 *  - every resource keeps the schedule's order: the out-port (all sends of
 *    a one-port node, in start order), the in-port (all its receives), the
 *    processor (its computations); at a switch ("ports": "multi") each
 *    incident link is its own resource instead;
 *  - a transfer of batch n (ssched_timed_transfer_t.batch) is one MPI
 *    message: the same byte range of each of the n operations' buffers,
 *    packed in order, unpacked by the receiver;
 *  - execution is as soon as possible: a send (MPI_Isend: no rendezvous
 *    beyond MPI's own for messages above its eager limit) is posted once
 *    the previous send of its resource has been posted, the sends of its
 *    resource that ended (in the schedule) by its start have completed and
 *    its byte range is entirely at the node; a receive (MPI_Irecv) alike;
 *    a computation once the previous one is done and both inputs are
 *    whole; besides, an operation waits for the operations of its node
 *    that, in the schedule, ended strictly before it started (so a node
 *    never runs ahead on its fast links and holds no more messages than the
 *    schedule's peak, plus one per resource).  With latencies a port has
 *    several transfers in flight, as the schedule overlaps them (a port is
 *    busy for [start + l, end) only).  Paced runs (unit_seconds below) also
 *    post each event no earlier than its scheduled start: under SMPI's
 *    exact configuration they reproduce the schedule's times.  Everything
 *    is nonblocking, so no valid schedule deadlocks;
 *  - ranks: rank i runs node i when the job has one rank per node; when it
 *    has one rank per node the schedule uses (routers no transfer crosses
 *    need none), rank i runs the i-th of those in node order; or a map.
 * Under SMPI (the library compiled with SSCHED_SMPI) a task of size z costs
 * flops_per_task x z flops (= w x z seconds on the hosts of
 * `ssched export simgrid`), computed by a second actor of the rank so the
 * rank keeps posting communications meanwhile.
 *
 * Library functions never print; every collective call returns the same
 * status and message on every rank (an error of one rank's callback ends
 * the run everywhere, no rank hangs). */
#ifndef SSCHED_MPI_H
#define SSCHED_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "ssched/error.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t unit_bytes;       /* bytes of a message of size 1 (default
                                  1000000, as `ssched export simgrid`)     */
    double flops_per_task;     /* SMPI: flops of a task of size 1 (default
                                  1e9, as `ssched export simgrid`)         */
    const char *map_file;      /* rank 0 only: node names, one per line,
                                  line r = the node of rank r ('#' starts a
                                  comment, blank lines skipped); NULL:
                                  rank i runs node i (file order)          */
    const int *node_of_rank;   /* rank 0 only, instead of map_file: comm
                                  size entries (distinct nodes, covering
                                  every node the schedule uses), or NULL    */
    double unit_seconds;       /* pacing: seconds per schedule time unit;
                                  every event is then posted no earlier
                                  than its scheduled start (t0 + start x
                                  unit_seconds); 0: as soon as possible;
                                  < 0 (the default): 1 under SMPI when the
                                  platform has latencies (the time unit of
                                  `ssched export simgrid` and --unit-bytes
                                  platforms is the second), else 0         */
    size_t window;             /* rank 0 only: transfers a port (or link,
                                  or processor) may have in flight beyond
                                  those the schedule overlaps (0, the
                                  default: exactly the schedule's); for a
                                  schedule planned without the network's
                                  latency                                  */
} ssched_mpi_options_t;

/* What every rank knows after setup. */
typedef struct {
    ssched_problem_kind_t kind;
    size_t operations;         /* K                                         */
    size_t n_nodes, node;      /* node = the node this rank runs            */
    size_t n_ranks;            /* the communicator's size                   */
    double unit_seconds;       /* the pacing in force (0: none)             */
    size_t n_types;            /* scatter, gossip: messages per operation;
                                  broadcast: its targets (one message,
                                  type 0, per operation)                    */
    size_t *type_origin, *type_dest; /* their nodes (canonical order, as
                                  ssched_unrolled_read_file numbers them);
                                  broadcast: (source, target) pairs        */
    size_t n_participants;     /* reduce                                    */
    long participant;          /* this node's index among them, or -1       */
    int is_target;             /* reduce: this node receives the results
                                  (all-reduce: every participant; scan:
                                  participants 1..N-1, their prefixes)     */
    int exclusive;             /* scan: participant j gets v[0,j-1]         */
    int commutative;           /* reduce: a commutative operator; combine
                                  then merges the partial results of two
                                  disjoint sets of participants, in no
                                  particular order                          */
    size_t msg_bytes;          /* bytes of one message or value             */
    double size;               /* the problem's message size                */
    char *makespan;            /* the schedule's makespan, exact ("p/q")    */
    double makespan_d;         /* the same as a double                      */
    struct ssched_mpi_impl *impl; /* this rank's plan (private)             */
} ssched_mpi_t;

/* The payloads.  Every callback returns 0, or nonzero for an error (the
 * run then stops on every rank with SSCHED_EINPUT naming the callback, the
 * code and the rank; ENOMEM from errno.h with SSCHED_ENOMEM, "out of
 * memory in the ... callback").  x is the executor of the calling rank. */
typedef struct {
    /* scatter, gossip, broadcast: at the origin, before message `type` of
     * operation `op` first leaves; buf has bytes bytes */
    int (*fill)(const ssched_mpi_t *x, size_t type, size_t op, void *buf, size_t bytes,
                void *ctx);
    /* scatter, gossip, broadcast (at every target): at the destination,
     * once the whole message is there */
    int (*deliver)(const ssched_mpi_t *x, size_t type, size_t op, const void *buf,
                   size_t bytes, void *ctx);
    /* reduce: participant's own value for operation op (on its rank) */
    int (*value)(const ssched_mpi_t *x, size_t participant, size_t op, void *buf,
                 size_t bytes, void *ctx);
    /* reduce: out = left (+) right; left covers the lower participants (the
     * operator need not commute; a commutative reduce, x->commutative,
     * merges two disjoint sets of participants in any order).  NULL: MPI_Reduce_local with mpi_op on
     * bytes / size(datatype) elements of datatype (then out = left op right
     * in MPI's argument order: inbuf = left, inoutbuf = right). */
    int (*combine)(const void *left, const void *right, void *out, size_t bytes, void *ctx);
    MPI_Op mpi_op;
    MPI_Datatype datatype;
    /* reduce: on the target, operation op's result v_0 (+) ... (+) v_{N-1}
     * (all-reduce: on every participant) */
    int (*result)(const ssched_mpi_t *x, size_t op, const void *buf, size_t bytes,
                  void *ctx);
    void *ctx;
} ssched_mpi_callbacks_t;

typedef struct {
    double seconds;            /* this rank: end of its last event - start  */
    double makespan;           /* the maximum over the ranks (MPI_Wtime)    */
    size_t sends, receives, computations, deliveries; /* this rank's events */
    size_t buffers_peak;       /* this rank: most message (or value) buffers
                                  held at once (a buffer lives from its
                                  first use, e.g. a receive posted, to its
                                  last use's completion)                  */
} ssched_mpi_stats_t;

void ssched_mpi_options_default(ssched_mpi_options_t *opt);
void ssched_mpi_init(ssched_mpi_t *x);
void ssched_mpi_free(ssched_mpi_t *x);

/* Collective over comm (one rank per platform node, or per node the
 * schedule uses, or as many as the map names).  Rank
 * 0 checks the file (ssched_check_schedule_file) and reads it; an invalid
 * schedule, a wrong number of ranks or a bad map is SSCHED_EINPUT with one
 * line, on every rank.  opt may be NULL (defaults). */
ssched_status_t ssched_mpi_setup_file(ssched_mpi_t *x, const char *path, MPI_Comm comm,
                                      const ssched_mpi_options_t *opt, ssched_error_t *err);

/* The same from a schedule in memory, significant on rank 0 only (other
 * ranks pass NULL): the caller vouches for its validity; u's types use the
 * canonical numbering (ssched_unrolled_read_file). */
ssched_status_t ssched_mpi_setup(ssched_mpi_t *x, const ssched_platform_t *p,
                                 const ssched_problem_t *pb, const ssched_unrolled_t *u,
                                 MPI_Comm comm, const ssched_mpi_options_t *opt,
                                 ssched_error_t *err);

/* Collective: run the K operations once (may be called again).  Barrier,
 * timed run, barrier; stats may be NULL.  stats NULL on every rank of an
 * unpaced run: no timing, so no barriers and no makespan all-reduction
 * (fewer collectives around the run; stats must then be NULL on all ranks
 * or on none). */
ssched_status_t ssched_mpi_run(ssched_mpi_t *x, const ssched_mpi_callbacks_t *cb,
                               ssched_mpi_stats_t *stats, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
