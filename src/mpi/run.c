/* The executor: one rank runs its plan (internal.h) as soon as possible.
 *
 * Operations whose predecessors have all completed (and whose previous
 * operation on the same resource has been posted) are started at once:
 * sends (MPI_Isend: no rendezvous the schedule does not ask for; an MPI
 * sends messages under its eager limit at once, and a relay forwards a
 * piece as soon as it has arrived), receives (MPI_Irecv), computations
 * (the combine callback; under SMPI its simulated time runs on a second
 * actor of the rank, see comp_actor) and deliveries (callbacks).  A
 * resource keeps several transfers in flight when the schedule overlaps
 * them (with latencies a port is busy only for [start + l, end)).  One
 * MPI_Waitsome loop serves them all.
 *
 * Paced runs (impl->pace > 0 seconds per schedule time unit): an
 * operation is also posted no earlier than t0 + start x pace.  With
 * latencies this is what reproduces the schedule: as soon as possible, the
 * transfers the schedule spreads over a port's latency would all be posted
 * together, share the link and end together, and the next group would wait
 * for them (measured: about twice the schedule's time for 1 KB messages
 * behind a 1 ms latency).  Under SMPI a helper actor sleeps until the
 * time and wakes the rank with a zero-byte message (TAG_TIMER); with a
 * real MPI the loop polls (MPI_Testsome) while an operation waits for its
 * time.
 *
 * A batch (O_NXB > 0) sends the same byte range of each operation's buffer
 * packed in one message; the receiver unpacks it into each buffer.
 *
 * Errors: a rank whose callback fails sends an abort message to every
 * other rank and stops starting operations; a rank learning of the abort
 * does the same.  A stopped rank posts every receive it has not posted yet
 * (in plan order, so they match the sends already under way), waits for its
 * own sends to complete, then joins the end barrier.  Sends may complete
 * before their receiver matched them (eager), so after the barrier the
 * ranks exchange how many data messages each sent to each: a rank waits
 * for that many of its receives from each peer (posted in order, they
 * match in order) and cancels the others.  The first failing rank's
 * message is then given to all.
 *
 * The end barrier is point to point (every rank tells rank 0 it is idle,
 * rank 0 releases all) rather than MPI_Ibarrier: SMPI 3.32's Ibarrier lets
 * ranks through before the root has heard from everyone, and the early
 * ranks' next collectives then share the links with the schedule's
 * transfers (measured: a 1.7 ms excess per transfer on tiers-small). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SSCHED_SMPI
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

#include "src/mpi/internal.h"
#include "src/util/internal.h"

enum { R_ABORT = -1, R_COMP = -2, R_RELEASE = -3, R_ABORT_SEND = -4, R_DRAIN = -5,
       R_IDLE = -6, R_IDLE_SEND = -7, R_RELEASE_SEND = -8, R_TIMER = -9 };

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
    int failed, aborting, nomem;
    size_t pending_sends;      /* Issends under way (data and abort)        */
    int comp_pending;          /* SMPI: a computation's actor is running    */
    int idle_sent, released, idle_pending; /* the end barrier (loop)        */
    size_t idle_count, release_left;
    int64_t comp_op;
    unsigned char *scratch;    /* the receives posted while draining        */
    ssched_error_t e;
    ssched_mpi_stats_t st;
} run_t;

static MPI_Request *add_req(run_t *R, int64_t what)
{
    if (R->nreq == R->cap) {
        size_t cap = R->cap ? 2 * R->cap : 64;
        MPI_Request *r = realloc(R->req, cap * sizeof *r);
        if (r)
            R->req = r;
        int64_t *w = realloc(R->what, cap * sizeof *w);
        if (w)
            R->what = w;
        int *i = realloc(R->idx, cap * sizeof *i);
        if (i)
            R->idx = i;
        int *pe = realloc(R->peer, cap * sizeof *pe);
        if (pe)
            R->peer = pe;
        if (!r || !w || !i || !pe) {
            /* without room the run cannot go on: MPI would lose a request */
            fprintf(stderr, "ssched_mpi: out of memory\n");
            MPI_Abort(R->im->comm, 1);
        }
        R->cap = cap;
    }
    R->what[R->nreq] = what;
    R->peer[R->nreq] = -1;
    return &R->req[R->nreq++];
}

/* A data receive from src: counted per peer for the abort path. */
static MPI_Request *add_recv(run_t *R, int64_t what, int src)
{
    MPI_Request *q = add_req(R, what);
    R->peer[R->nreq - 1] = src;
    return q;
}

/* The bytes one transfer op moves: its range in each of its buffers. */
static int64_t op_bytes(const int64_t *o)
{
    return (o[O_HI] - o[O_LO]) * (1 + o[O_NXB]);
}

static void enter_abort(run_t *R);

/* A local error: remember the first, tell every other rank. */
static void fail(run_t *R, const char *fmt, ...)
{
    if (!R->failed) {
        va_list ap;
        va_start(ap, fmt);
        char line[SSCHED_ERROR_MSG_MAX];
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        ssched_error_set(&R->e, R->nomem ? SSCHED_ENOMEM : SSCHED_EINPUT, "rank %d: %s",
                         R->im->rank, line);
        R->failed = 1;
        for (int r = 0; r < R->im->size; r++)
            if (r != R->im->rank) {
                MPI_Issend(NULL, 0, MPI_BYTE, r, TAG_ABORT, R->im->comm, add_req(R, R_ABORT_SEND));
                R->pending_sends++;
            }
    }
    enter_abort(R);
}

static void enter_abort(run_t *R)
{
    if (R->aborting)
        return;
    R->aborting = 1;
    const mpi_plan_t *pl = R->pl;
    int64_t most = 0;
    for (int64_t k = 0; k < pl->n_ops; k++)
        if (op_bytes(&pl->ops[k * O_WIDTH]) > most)
            most = op_bytes(&pl->ops[k * O_WIDTH]);
    /* the data is garbage by now: every drained receive shares one buffer */
    R->scratch = malloc((size_t)most + 1);
    for (int64_t k = 0; k < pl->n_ops; k++) {
        const int64_t *o = &pl->ops[k * O_WIDTH];
        if (o[O_KIND] != OP_RECV || R->posted[k])
            continue;
        R->posted[k] = 1;
        MPI_Irecv(R->scratch, R->scratch ? (int)op_bytes(o) : 0, MPI_BYTE, (int)o[O_PEER],
                  TAG_DATA, R->im->comm, add_recv(R, R_DRAIN, (int)o[O_PEER]));
    }
}

/* A callback returned rc != 0: SSCHED_MPI_NOMEM is out of memory. */
static void callback_failed(run_t *R, const char *who, int rc, size_t op)
{
    if (rc == SSCHED_MPI_NOMEM) {
        R->nomem = 1;
        fail(R, "out of memory (in the %s callback, operation %zu)", who, op);
    } else {
        fail(R, "the %s callback returned %d (operation %zu)", who, rc, op);
    }
}

/* The buffer's memory, allocated and first filled at its first use. */
static unsigned char *buffer(run_t *R, int64_t b)
{
    if (R->mem[b])
        return R->mem[b];
    const int64_t *d = &R->pl->bufs[b * B_WIDTH];
    size_t bytes = (size_t)d[B_BYTES];
    const ssched_mpi_callbacks_t *cb = R->cb;
    if (++R->live > R->st.buffers_peak)
        R->st.buffers_peak = R->live;
    if (!(R->mem[b] = ssched_i_calloc(bytes, 1))) {
        R->nomem = 1;
        fail(R, "out of memory for a buffer of %zu bytes", bytes);
        return NULL;
    }
    int rc = 0;
    const char *who = NULL;
    if (d[B_INIT] == BUF_FILL && cb->fill)
        rc = cb->fill(R->x, (size_t)d[B_A], (size_t)d[B_OP], R->mem[b], bytes, cb->ctx),
        who = "fill";
    else if (d[B_INIT] == BUF_VALUE && cb->value)
        rc = cb->value(R->x, (size_t)d[B_A], (size_t)d[B_OP], R->mem[b], bytes, cb->ctx),
        who = "value";
    if (rc) {
        callback_failed(R, who, rc, (size_t)d[B_OP]);
        return NULL;
    }
    return R->mem[b];
}

/* n may start once its predecessors completed and the previous operation
 * of its resource was posted (O_AFTER). */
static void maybe_ready(run_t *R, int64_t n)
{
    int64_t after = R->pl->ops[n * O_WIDTH + O_AFTER];
    if (R->cnt[n] == 0 && !R->posted[n] && (after < 0 || R->posted[after]))
        R->ready[R->nready++] = n;
}

static void unref(run_t *R, int64_t b)
{
    if (b >= 0 && --R->refs[b] == 0) {
        free(R->mem[b]);
        R->mem[b] = NULL;
        R->live--;
    }
}

static void complete(run_t *R, int64_t k)
{
    int64_t *o = &R->pl->ops[k * O_WIDTH];
    R->done++;
    R->posted[k] = 2;
    unref(R, o[O_BUF]), unref(R, o[O_LEFT]), unref(R, o[O_RIGHT]);
    for (int64_t x = 0; x < o[O_NXB]; x++)
        unref(R, R->pl->xbufs[o[O_XB0] + x]);
    for (int64_t s = 0; s < o[O_NSUCC]; s++) {
        int64_t n = R->pl->succ[o[O_SUCC0] + s];
        if (--R->cnt[n] == 0)
            maybe_ready(R, n);
    }
}

#ifdef SSCHED_SMPI
typedef struct {
    double flops;
    int rank;
    MPI_Comm comm;
} comp_job_t;

/* A second actor of the rank (SMPI identity inherited, as StarPU does)
 * spends the task's simulated time, then wakes the rank's Waitsome with a
 * zero-byte message to itself; meanwhile the rank keeps posting the
 * communications the schedule overlaps with the computation. */
static void comp_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    comp_job_t *j = sg_actor_self_get_data();
    SMPI_thread_create();
    sg_actor_execute(j->flops);
    MPI_Send(NULL, 0, MPI_BYTE, j->rank, TAG_COMP, j->comm);
    free(j);
}
#endif

static void compute(run_t *R, int64_t k)
{
    const int64_t *o = &R->pl->ops[k * O_WIDTH];
    const ssched_mpi_callbacks_t *cb = R->cb;
    unsigned char *out = buffer(R, o[O_BUF]), *l = out ? buffer(R, o[O_LEFT]) : NULL;
    unsigned char *r = l ? buffer(R, o[O_RIGHT]) : NULL;
    if (!r)
        return;
    size_t bytes = (size_t)R->pl->bufs[o[O_BUF] * B_WIDTH + B_BYTES];
    int rc;
    if (cb->combine) {
        rc = cb->combine(l, r, out, bytes, cb->ctx);
    } else {
        int tsize = 0;
        MPI_Type_size(cb->datatype, &tsize);
        memcpy(out, r, bytes); /* MPI: inoutbuf = inbuf op inoutbuf */
        rc = tsize > 0 ? MPI_Reduce_local(l, out, (int)(bytes / (size_t)tsize), cb->datatype,
                                          cb->mpi_op) : -1;
    }
    R->st.computations++;
    if (rc)
        return callback_failed(R, "combine", rc, (size_t)o[O_ID]);
#ifdef SSCHED_SMPI
    if (R->im->flops > 0) {
        comp_job_t *j = malloc(sizeof *j);
        if (!j)
            return (void)(R->nomem = 1), fail(R, "out of memory");
        *j = (comp_job_t){R->im->flops, R->im->rank, R->im->comm};
        /* any source: SMPI does not count the helper actor as a member
         * of the communicator's group, so its rank would never match */
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_COMP, R->im->comm, add_req(R, R_COMP));
        R->comp_pending = 1;
        R->comp_op = k;
        sg_actor_t a = sg_actor_init("ssched-compute", sg_host_self());
        sg_actor_set_data(a, j);
        sg_actor_start(a, comp_actor, 0, NULL);
        return;
    }
#endif
    complete(R, k);
}

/* A batch: the buffers of the operations it carries, in order (NULL and
 * a failed run when one cannot be had). */
static unsigned char *batch_buffer(run_t *R, const int64_t *o, int64_t x)
{
    return buffer(R, x == 0 ? o[O_BUF] : R->pl->xbufs[o[O_XB0] + x - 1]);
}

static void start(run_t *R, int64_t k)
{
    const int64_t *o = &R->pl->ops[k * O_WIDTH];
    MPI_Comm comm = R->im->comm;
    R->posted[k] = 1;
    if (o[O_NEXT] >= 0)
        maybe_ready(R, o[O_NEXT]);
    unsigned char *b = o[O_KIND] == OP_COMP ? NULL : buffer(R, o[O_BUF]);
    if (o[O_KIND] != OP_COMP && !b)
        return;
    int n = (int)(o[O_HI] - o[O_LO]);
    unsigned char *msg = b + o[O_LO];
    if (o[O_NXB] > 0 && (o[O_KIND] == OP_SEND || o[O_KIND] == OP_RECV)) {
        size_t len = (size_t)n, nb = 1 + (size_t)o[O_NXB];
        if (!(msg = R->stage[k] = malloc(len * nb + 1)))
            return (void)(R->nomem = 1), fail(R, "out of memory for a batch of %zu bytes",
                                              len * nb);
        for (size_t x = 0; x < nb; x++) { /* a receive's buffers: allocated now */
            unsigned char *bx = batch_buffer(R, o, (int64_t)x);
            if (!bx)
                return;
            if (o[O_KIND] == OP_SEND)
                memcpy(msg + x * len, bx + o[O_LO], len);
        }
        n = (int)(len * nb);
    }
    switch (o[O_KIND]) {
    case OP_SEND:
        MPI_Isend(msg, n, MPI_BYTE, (int)o[O_PEER], TAG_DATA, comm, add_req(R, k));
        R->pending_sends++;
        R->sent[o[O_PEER]]++;
        R->st.sends++;
        break;
    case OP_RECV:
        MPI_Irecv(msg, n, MPI_BYTE, (int)o[O_PEER], TAG_DATA, comm, add_recv(R, k, (int)o[O_PEER]));
        R->st.receives++;
        break;
    case OP_COMP:
        compute(R, k);
        break;
    default: { /* OP_DELIVER */
        const ssched_mpi_callbacks_t *cb = R->cb;
        size_t K = R->x->operations, id = (size_t)o[O_ID];
        int rc = 0;
        /* reduce and all-reduce deliver results (at every participant for
         * an all-reduce: the root's own, the copies elsewhere) */
        int red = R->x->kind == SSCHED_PROBLEM_REDUCE || R->x->kind == SSCHED_PROBLEM_ALLREDUCE;
        if (red && cb->result)
            rc = cb->result(R->x, id, b, (size_t)n, cb->ctx);
        else if (!red && cb->deliver)
            rc = cb->deliver(R->x, id / K, id % K, b, (size_t)n, cb->ctx);
        R->st.deliveries++;
        if (rc)
            return callback_failed(R, red ? "result" : "deliver", rc, red ? id : id % K);
        complete(R, k);
    }
    }
}

/* A batch's receive has completed: its message into each buffer. */
static void unpack(run_t *R, int64_t k)
{
    const int64_t *o = &R->pl->ops[k * O_WIDTH];
    size_t len = (size_t)(o[O_HI] - o[O_LO]);
    for (int64_t x = 0; o[O_KIND] == OP_RECV && x <= o[O_NXB]; x++) {
        unsigned char *bx = batch_buffer(R, o, x); /* allocated when posted */
        if (bx)
            memcpy(bx + o[O_LO], R->stage[k] + (size_t)x * len, len);
    }
    free(R->stage[k]);
    R->stage[k] = NULL;
}

/* Handle one finished request. */
static void finished(run_t *R, int64_t what, int peer)
{
    if (peer >= 0) /* a data receive (drained or not) */
        R->got[peer]++;
    switch (what) {
    case R_ABORT:
        enter_abort(R);
        /* more ranks may fail: keep one abort receive posted until the end */
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ABORT, R->im->comm, add_req(R, R_ABORT));
        break;
    case R_COMP:
        R->comp_pending = 0;
        if (!R->aborting)
            complete(R, R->comp_op);
        break;
    case R_IDLE: /* rank 0: one more rank is idle */
        if (++R->idle_count < (size_t)R->im->size - 1)
            MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_IDLE, R->im->comm, add_req(R, R_IDLE));
        break;
    case R_IDLE_SEND:
        R->idle_pending = 0;
        break;
    case R_RELEASE:
        R->released = 1;
        break;
    case R_RELEASE_SEND:
        R->release_left--;
        break;
    case R_ABORT_SEND:
        R->pending_sends--;
        break;
    case R_DRAIN:
        break;
    case R_TIMER: /* the earliest armed timer */
        memmove(R->timers, R->timers + 1, --R->ntimers * sizeof *R->timers);
        break;
    default:
        if (R->pl->ops[what * O_WIDTH + O_KIND] == OP_SEND)
            R->pending_sends--;
        if (R->stage && R->stage[what]) /* a batch */
            unpack(R, what);
        if (!R->aborting)
            complete(R, what);
    }
}

/* ---- pacing ---------------------------------------------------------------- */

static double due(const run_t *R, int64_t k)
{
    double s;
    memcpy(&s, &R->pl->ops[k * O_WIDTH + O_START], sizeof s);
    return R->t0 + s * R->im->pace;
}

/* Is time `at` reached at `now`?  (A timer's wake-up may land a rounding
 * error short of it.) */
static int reached(double at, double now)
{
    return at <= now + 1e-12 * (1 + (now < 0 ? -now : now));
}

static void wait_push(run_t *R, int64_t k)
{
    size_t i = R->nwait++;
    double d = due(R, k);
    while (i > 0 && due(R, R->wait[(i - 1) / 2]) > d) {
        R->wait[i] = R->wait[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    R->wait[i] = k;
}

static int64_t wait_pop(run_t *R)
{
    int64_t top = R->wait[0], last = R->wait[--R->nwait];
    size_t i = 0, n = R->nwait;
    double d = n ? due(R, last) : 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && due(R, R->wait[c + 1]) < due(R, R->wait[c]))
            c++;
        if (due(R, R->wait[c]) >= d)
            break;
        R->wait[i] = R->wait[c];
        i = c;
    }
    if (n)
        R->wait[i] = last;
    return top;
}

#ifdef SSCHED_SMPI
typedef struct {
    double at;
    int rank;
    MPI_Comm comm;
} timer_job_t;

/* SMPI: sleep until the time, then wake the rank (zero bytes to itself). */
static void timer_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    timer_job_t *j = sg_actor_self_get_data();
    SMPI_thread_create();
    sg_actor_sleep_until(j->at);
    MPI_Send(NULL, 0, MPI_BYTE, j->rank, TAG_TIMER, j->comm);
    free(j);
}

/* Arm a timer for `at`, earlier than every armed one. */
static void arm_timer(run_t *R, double at)
{
    timer_job_t *j = malloc(sizeof *j);
    if (!j)
        return (void)(R->nomem = 1), fail(R, "out of memory");
    *j = (timer_job_t){at, R->im->rank, R->im->comm};
    MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_TIMER, R->im->comm, add_req(R, R_TIMER));
    memmove(R->timers + 1, R->timers, R->ntimers++ * sizeof *R->timers);
    R->timers[0] = at;
    sg_actor_t a = sg_actor_init("ssched-timer", sg_host_self());
    sg_actor_set_data(a, j);
    sg_actor_start(a, timer_actor, 0, NULL);
}
#endif

/* Start the ready operations, those of a paced run only once their time
 * has come (the others wait in the heap). */
static void start_ready(run_t *R)
{
    for (;;) {
        while (R->nready && !R->aborting) {
            int64_t k = R->ready[--R->nready];
            if (R->im->pace > 0 && R->pl->ops[k * O_WIDTH + O_KIND] != OP_DELIVER &&
                !reached(due(R, k), MPI_Wtime()))
                wait_push(R, k);
            else
                start(R, k);
        }
        if (R->aborting || !R->nwait)
            return;
        double now = MPI_Wtime();
        if (!reached(due(R, R->wait[0]), now))
            return;
        while (R->nwait && reached(due(R, R->wait[0]), now))
            R->ready[R->nready++] = wait_pop(R);
    }
}

/* The end barrier: 1 once every rank is idle (so no send is pending). */
static int end_barrier(run_t *R, int idle)
{
    int rank = R->im->rank, size = R->im->size;
    if (idle && !R->idle_sent) {
        R->idle_sent = 1;
        if (rank != 0) {
            MPI_Issend(NULL, 0, MPI_BYTE, 0, TAG_IDLE, R->im->comm, add_req(R, R_IDLE_SEND));
            R->idle_pending = 1;
            MPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_RELEASE, R->im->comm, add_req(R, R_RELEASE));
        }
    }
    if (rank != 0)
        return R->released && !R->idle_pending;
    if (R->idle_sent && R->idle_count == (size_t)size - 1 && !R->released) {
        R->released = 1;
        for (int r = 1; r < size; r++)
            MPI_Isend(NULL, 0, MPI_BYTE, r, TAG_RELEASE, R->im->comm, add_req(R, R_RELEASE_SEND));
        R->release_left = (size_t)size - 1;
    }
    return R->released && R->release_left == 0;
}

static double loop(run_t *R, double t0)
{
    MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ABORT, R->im->comm, add_req(R, R_ABORT));
    if (R->im->rank == 0 && R->im->size > 1)
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_IDLE, R->im->comm, add_req(R, R_IDLE));
    for (int64_t k = 0; k < R->pl->n_ops; k++)
        maybe_ready(R, k);
    double t_end = -1;
    for (;;) {
        start_ready(R);
        if (!R->aborting && R->done == (size_t)R->pl->n_ops && t_end < 0)
            t_end = MPI_Wtime();
        /* idle: nothing of ours under way (armed timers included) */
        int idle = !R->ntimers && (R->aborting ? !R->pending_sends && !R->comp_pending
                                               : R->done == (size_t)R->pl->n_ops);
        if (end_barrier(R, idle))
            break;
        int outcount = 0;
        int paced = !R->aborting && R->nwait;
#ifdef SSCHED_SMPI
        if (paced && (!R->ntimers || due(R, R->wait[0]) < R->timers[0]))
            arm_timer(R, due(R, R->wait[0]));
        /* SMPI 3.32 runs Waitsome as a Testsome loop that sleeps smpi/test
         * (1e-4 s, growing) between rounds, which delays every event; its
         * Waitany blocks until a completion, exactly when it happens */
        MPI_Waitany((int)R->nreq, R->req, R->idx, MPI_STATUS_IGNORE);
        outcount = R->idx[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
#else
        if (paced) { /* poll until the next operation's time */
            MPI_Testsome((int)R->nreq, R->req, &outcount, R->idx, MPI_STATUSES_IGNORE);
            if (outcount == 0 || outcount == MPI_UNDEFINED) {
                double left = due(R, R->wait[0]) - MPI_Wtime();
                struct timespec ts = {0, left > 1e-4 ? 100000 : left > 0 ? (long)(left * 1e9) : 0};
                nanosleep(&ts, NULL);
                continue;
            }
        } else {
            MPI_Waitsome((int)R->nreq, R->req, &outcount, R->idx, MPI_STATUSES_IGNORE);
        }
#endif
        if (outcount == MPI_UNDEFINED) /* nothing under way: a broken plan */
            return fail(R, "internal error: the plan stalls"), t_end;
        size_t n = R->nreq;
        for (int k = 0; k < outcount; k++)
            finished(R, R->what[R->idx[k]], R->peer[R->idx[k]]);
        size_t w = 0; /* drop the completed requests, keep the order */
        for (size_t k = 0; k < R->nreq; k++)
            if (R->req[k] != MPI_REQUEST_NULL || k >= n) {
                R->req[w] = R->req[k];
                R->peer[w] = R->peer[k];
                R->what[w++] = R->what[k];
            }
        R->nreq = w;
    }
    return t_end >= 0 ? t_end - t0 : MPI_Wtime() - t0;
}

/* After the end barrier no rank posts anything more.  Sends may have
 * completed before their receive matched (eager), so: how many data
 * messages each rank sent to this one; receives from a peer match in
 * posting order, so the first (sent - got) pending ones from it complete,
 * and the others (and the control receives) are cancelled. */
static void settle(run_t *R)
{
    int size = R->im->size, any = R->aborting, all = 0;
    MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, R->im->comm);
    int64_t *sent_to_me = all ? R->sent + size : NULL; /* allocated with sent */
    if (all)
        MPI_Alltoall(R->sent, 1, MPI_INT64_T, sent_to_me, 1, MPI_INT64_T, R->im->comm);
    for (size_t k = 0; k < R->nreq; k++) {
        int p = R->peer[k];
        if (p >= 0 && sent_to_me && R->got[p] < sent_to_me[p])
            R->got[p]++; /* it matches a message sent: it completes */
        else
            MPI_Cancel(&R->req[k]);
        MPI_Wait(&R->req[k], MPI_STATUS_IGNORE);
    }
    R->nreq = 0;
}

ssched_status_t ssched_mpi_run(ssched_mpi_t *x, const ssched_mpi_callbacks_t *cb,
                               ssched_mpi_stats_t *stats, ssched_error_t *err)
{
    if (!x->impl)
        return ssched_error_set(err, SSCHED_EINPUT, "ssched_mpi_run: no successful setup");
    static const ssched_mpi_callbacks_t none;
    run_t R;
    memset(&R, 0, sizeof R);
    R.x = x, R.cb = cb ? cb : &none, R.im = x->impl, R.pl = &x->impl->plan;
    size_t no = (size_t)R.pl->n_ops, nb = (size_t)R.pl->n_bufs;
    R.cnt = malloc((no + 1) * sizeof *R.cnt);
    R.ready = malloc((no + 1) * sizeof *R.ready);
    R.posted = calloc(no + 1, 1);
    R.refs = malloc((nb + 1) * sizeof *R.refs);
    R.mem = calloc(nb + 1, sizeof *R.mem);
    R.stage = R.pl->n_xbufs ? calloc(no + 1, sizeof *R.stage) : NULL;
    R.sent = calloc(2 * (size_t)R.im->size + 1, sizeof *R.sent);
    R.got = calloc((size_t)R.im->size + 1, sizeof *R.got);
    R.wait = R.im->pace > 0 ? malloc((no + 1) * sizeof *R.wait) : NULL;
    R.timers = R.im->pace > 0 ? malloc((no + 1) * sizeof *R.timers) : NULL;
    int ok = R.cnt && R.ready && R.posted && R.refs && R.mem && R.sent && R.got &&
             (!R.pl->n_xbufs || R.stage) && (!(R.im->pace > 0) || (R.wait && R.timers)), all = 0;
    if ((x->kind == SSCHED_PROBLEM_REDUCE || x->kind == SSCHED_PROBLEM_ALLREDUCE) &&
        !R.cb->combine &&
        (R.cb->mpi_op == MPI_OP_NULL || R.cb->mpi_op == (MPI_Op)0 ||
         R.cb->datatype == MPI_DATATYPE_NULL || R.cb->datatype == (MPI_Datatype)0))
        ok = -1;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, R.im->comm);
    ssched_status_t st = SSCHED_OK;
    if (all <= 0) {
        st = all < 0 ? ssched_error_set(err, SSCHED_EINPUT, "reduce needs a combine callback "
                                        "or an MPI_Op and datatype")
                     : ssched_error_set(err, SSCHED_ENOMEM, "out of memory on some rank");
    } else {
        for (size_t k = 0; k < no; k++)
            R.cnt[k] = R.pl->ops[k * O_WIDTH + O_NDEPS];
        for (size_t k = 0; k < nb; k++)
            R.refs[k] = R.pl->bufs[k * B_WIDTH + B_REFS];
        MPI_Barrier(R.im->comm);
        double t0 = MPI_Wtime();
#ifdef SSCHED_SMPI
        /* paced: one start time for all.  Ranks leave a barrier up to a
         * few latencies apart, and a paced receive posted that much late
         * would delay its transfer by as much (measured: one latency on
         * the makespan).  SMPI's clock is global: the ranks agree on a
         * time after they all left two all-reductions, and wait for it.
         * (With a real MPI each rank's clock starts at its barrier exit.) */
        if (R.im->pace > 0) {
            double t1 = 0, mine, e = 0;
            MPI_Allreduce(&t0, &t1, 1, MPI_DOUBLE, MPI_MAX, R.im->comm);
            mine = MPI_Wtime();
            MPI_Allreduce(&mine, &e, 1, MPI_DOUBLE, MPI_MAX, R.im->comm);
            /* common to all: e - t1 is about an all-reduction's time, and
             * everyone leaves the second one within that of e */
            t0 = e + 4 * (e - t1);
            if (MPI_Wtime() < t0)
                sg_actor_sleep_until(t0);
            else /* (not seen: the margin is four all-reductions) */
                t0 = MPI_Wtime();
        }
#endif
        R.t0 = t0;
        R.st.seconds = loop(&R, t0);
        settle(&R);
        MPI_Allreduce(&R.st.seconds, &R.st.makespan, 1, MPI_DOUBLE, MPI_MAX, R.im->comm);
        /* the first failing rank speaks for all */
        int me = R.failed ? R.im->rank : R.im->size, first = 0;
        MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, R.im->comm);
        if (first < R.im->size) {
            MPI_Bcast(&R.e, (int)sizeof R.e, MPI_BYTE, first, R.im->comm);
            st = ssched_error_set(err, R.e.status, "%s", R.e.message);
        }
        MPI_Barrier(R.im->comm);
    }
    if (stats)
        *stats = R.st;
    for (size_t k = 0; R.mem && k < nb; k++)
        free(R.mem[k]);
    for (size_t k = 0; R.stage && k < no; k++)
        free(R.stage[k]);
    free(R.mem), free(R.refs), free(R.posted), free(R.ready), free(R.cnt);
    free(R.req), free(R.what), free(R.idx), free(R.peer), free(R.scratch);
    free(R.stage), free(R.sent), free(R.got), free(R.wait), free(R.timers);
    return st;
}
