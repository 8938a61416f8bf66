/* Private to src/mpi/run*.c: one rank's run of its plan (run.c says how;
 * run_ops.c starts and completes operations, run_pace.c holds back a paced
 * run's operations until their time). */
#ifndef SSCHED_MPI_RUN_INTERNAL_H
#define SSCHED_MPI_RUN_INTERNAL_H

#include "src/mpi/internal.h"
#include "src/util/internal.h"

enum { R_ABORT = -1, R_COMP = -2, R_RELEASE = -3, R_ABORT_SEND = -4, R_DRAIN = -5,
       R_IDLE = -6, R_IDLE_SEND = -7, R_RELEASE_SEND = -8, R_TIMER = -9,
       R_METRO = -10 };

typedef struct {
    ssched_mpi_t *x;
    const ssched_mpi_callbacks_t *cb;
    struct ssched_mpi_impl *im;
    mpi_plan_t *pl;
    int64_t *cnt, *refs;       /* per op: predecessors left; per buffer: uses left */
    unsigned char **mem;       /* per buffer, allocated at its first use    */
    unsigned char *posted;     /* per op                                    */
    int64_t *ready;
    size_t nready, done;
    size_t live;               /* buffers held now                          */
    MPI_Request *req;
    int64_t *what;             /* per request: its op, or one of R_*        */
    int *peer;                 /* per request: a data receive's source, or -1 */
    int *idx;
    size_t nreq, cap;
    unsigned char **stage;     /* per op: a batch's packed message          */
    int64_t *sent, *got;       /* per rank: data messages sent / received
                                  (sent: then as many entries for settle)  */
    double t0;                 /* the run's start (MPI_Wtime)               */
    int64_t *wait;             /* paced: ready ops before their time, a heap */
    size_t nwait;
    double *timers;            /* SMPI: times of the armed timers, sorted   */
    size_t ntimers;
    double fired;              /* SMPI: the latest time a timer woke us at  */
    struct metro *metro;       /* SMPI, paced, loopback latency L > 0: the
                                  rank's metronome (run_pace.c), or NULL    */
    double metro_from;         /* the metronome covers every due >= this    */
    int failed, aborting, nomem;
    size_t pending_sends;      /* Issends under way (data and abort)        */
    int comp_pending;          /* SMPI: a computation's actor is running    */
    int comp_timed;            /* SMPI, metronome: the computation ends at
                                  comp_end, no actor (run_ops.c compute)   */
    double comp_end;
    int idle_sent, released, idle_pending; /* the end barrier (loop)        */
    size_t idle_count, release_left;
    int64_t comp_op;
    unsigned char *scratch;    /* the receives posted while draining        */
    ssched_error_t e;
    ssched_mpi_stats_t st;
} run_t;

/* A new request slot doing `what` (an op, or one of R_*). */
SSCHED_INTERNAL MPI_Request *ssched_i_mpi_add_req(run_t *R, int64_t what);
/* A local error: remember the first, tell every other rank, stop. */
SSCHED_INTERNAL void ssched_i_mpi_fail(run_t *R, const char *fmt, ...);
/* Post operation k now. */
SSCHED_INTERNAL void ssched_i_mpi_start(run_t *R, int64_t k);
/* Push n on the ready list if it may start (predecessors done, its
 * resource's previous operation posted). */
SSCHED_INTERNAL void ssched_i_mpi_maybe_ready(run_t *R, int64_t n);
/* A request doing `what` completed (peer: a data receive's source or -1). */
SSCHED_INTERNAL void ssched_i_mpi_finished(run_t *R, int64_t what, int peer);
/* Start the ready operations (a paced run's only once their time came). */
SSCHED_INTERNAL void ssched_i_mpi_start_ready(run_t *R);
/* Paced: the time (MPI_Wtime) operation k may start. */
SSCHED_INTERNAL double ssched_i_mpi_due(const run_t *R, int64_t k);
#ifdef SSCHED_SMPI
/* SMPI: wake the rank at `at`, earlier than every armed timer. */
SSCHED_INTERNAL void ssched_i_mpi_arm_timer(run_t *R, double at);
/* SMPI, paced: start the rank's metronome at t0 (nothing when the host's
 * loopback latency is 0: timers are then exact). */
SSCHED_INTERNAL void ssched_i_mpi_metro_start(run_t *R);
/* A metronome tick arrived (an R_METRO request completed). */
SSCHED_INTERNAL void ssched_i_mpi_metro_tick(run_t *R);
/* The rank has nothing more to do: stop the metronome; 1 once every tick
 * it sent has been received (no send of it is pending). */
SSCHED_INTERNAL int ssched_i_mpi_metro_quiet(run_t *R);
/* Will a tick land exactly at t (a due or a computation's scheduled end
 * still to come)? */
SSCHED_INTERNAL int ssched_i_mpi_metro_covers(const run_t *R, double t);
/* A timed computation (comp_timed) whose end has come: complete it. */
SSCHED_INTERNAL void ssched_i_mpi_comp_check(run_t *R);
/* Paced: now, or later the time the last tick or timer announced. */
SSCHED_INTERNAL double ssched_i_mpi_now(const run_t *R);
/* The rank's run ends: drop its hold on the metronome. */
SSCHED_INTERNAL void ssched_i_mpi_metro_release(run_t *R);
#endif

#endif
