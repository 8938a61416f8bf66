/* Operations of one rank's run (run.c): posting, completing, batches,
 * callbacks, errors. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SSCHED_SMPI
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

#include "src/mpi/run_internal.h"

MPI_Request *ssched_i_mpi_add_req(run_t *R, int64_t what)
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
    MPI_Request *q = ssched_i_mpi_add_req(R, what);
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
void ssched_i_mpi_fail(run_t *R, const char *fmt, ...)
{
    if (!R->failed) {
        va_list ap;
        va_start(ap, fmt);
        char line[SSCHED_ERROR_MSG_MAX];
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        ssched_error_set(&R->e, R->nomem ? SSCHED_ENOMEM : SSCHED_EINPUT, "rank %d: %s",
                         R->im->rank, line);
        if (R->im->lean) { /* libssched_pmpi: no drain protocol (run.c) */
            fprintf(stderr, "ssched_mpi: %s\n", R->e.message);
            MPI_Abort(R->im->comm, 1);
        }
        R->failed = 1;
        for (int r = 0; r < R->im->size; r++)
            if (r != R->im->rank) {
                MPI_Issend(NULL, 0, MPI_BYTE, r, TAG_ABORT, R->im->comm,
                           ssched_i_mpi_add_req(R, R_ABORT_SEND));
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

/* A callback's nonzero code: ENOMEM (errno.h) is out of memory and
 * reported as such (SSCHED_ENOMEM), any other code as the callback's. */
static void callback_failed(run_t *R, const char *who, int rc, size_t op)
{
    if (rc == ENOMEM) {
        R->nomem = 1;
        ssched_i_mpi_fail(R, "out of memory in the %s callback (operation %zu)", who, op);
    } else {
        ssched_i_mpi_fail(R, "the %s callback returned %d (operation %zu)", who, rc, op);
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
        ssched_i_mpi_fail(R, "out of memory for a buffer of %zu bytes", bytes);
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
void ssched_i_mpi_maybe_ready(run_t *R, int64_t n)
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
            ssched_i_mpi_maybe_ready(R, n);
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
 * zero-byte message to itself (MPI_Ssend: never detached, so the actor
 * outlives its message, run_pace.c's metronome says why); meanwhile the
 * rank keeps posting the communications the schedule overlaps with the
 * computation. */
static void comp_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    comp_job_t *j = sg_actor_self_get_data();
    SMPI_thread_create();
    /* the wake-up crosses the loopback route (latency lat): compute that
     * much less, so the rank learns of the end at start + w (when w >= lat) */
    sg_host_t h = sg_host_self();
    double early = sg_host_get_route_latency(h, h) * sg_host_get_speed(h);
    sg_actor_execute(j->flops > early ? j->flops - early : 0);
    MPI_Ssend(NULL, 0, MPI_BYTE, j->rank, TAG_COMP, j->comm);
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
    sg_host_t h = sg_host_self();
    /* a start within SimGrid's precision (surf/precision, 1e-9 s) of the
     * due time is on time: a transfer's end as SimGrid computes it differs
     * from the schedule's by rounding (measured: 2.6e-13 s late) */
    double now = R->metro ? ssched_i_mpi_now(R) : 0, due = R->metro ? ssched_i_mpi_due(R, k) : 0;
    double from = now - due <= 1e-9 && due - now <= 1e-9 ? due : now;
    double end = R->metro && R->im->flops > 0 ? from + R->im->flops / sg_host_get_speed(h) : 0;
    if (end > 0 && ssched_i_mpi_metro_covers(R, end)) {
        /* started at its time, the task ends on a metronome tick: the
         * rank needs no actor and no wake-up (a task shorter than the
         * loopback latency computed inline delayed the events due during
         * it: a 16 KB all-reduce on two_clusters ran 1.17 times its plan).
         * The host's processor is the task's alone (one-port model, and
         * smpi/simulate-computation:no): its time is the only effect. */
        R->comp_pending = 1;
        R->comp_timed = 1;
        R->comp_end = end;
        R->comp_op = k;
        return;
    }
    if (R->im->flops > 0 && R->im->flops <= sg_host_get_route_latency(h, h) * sg_host_get_speed(h)) {
        /* a task no longer than the loopback latency: the helper's wake-up
         * would arrive that latency after the start, not w after it (a
         * 16 KB segment's merge on a SimGrid cluster: 16 us of work, 600 us
         * of loopback, the reduce ran 4.5 times its plan).  The rank spends
         * the time itself: the transfers it posted go on meanwhile, and an
         * event due during the task is posted at most w late. */
        sg_actor_execute(R->im->flops);
        complete(R, k);
        return;
    }
    if (R->im->flops > 0) {
        comp_job_t *j = malloc(sizeof *j);
        if (!j)
            return (void)(R->nomem = 1), ssched_i_mpi_fail(R, "out of memory");
        *j = (comp_job_t){R->im->flops, R->im->rank, R->im->comm};
        /* any source: SMPI does not count the helper actor as a member
         * of the communicator's group, so its rank would never match */
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_COMP, R->im->comm,
                  ssched_i_mpi_add_req(R, R_COMP));
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

#ifdef SSCHED_SMPI
void ssched_i_mpi_comp_check(run_t *R)
{
    if (!R->comp_timed || (!R->aborting && ssched_i_mpi_now(R) < R->comp_end))
        return;
    R->comp_timed = 0;
    R->comp_pending = 0;
    if (!R->aborting)
        complete(R, R->comp_op);
}
#endif

/* A batch: the buffers of the operations it carries, in order (NULL and
 * a failed run when one cannot be had). */
static unsigned char *batch_buffer(run_t *R, const int64_t *o, int64_t x)
{
    return buffer(R, x == 0 ? o[O_BUF] : R->pl->xbufs[o[O_XB0] + x - 1]);
}

void ssched_i_mpi_start(run_t *R, int64_t k)
{
    const int64_t *o = &R->pl->ops[k * O_WIDTH];
    MPI_Comm comm = R->im->comm;
    R->posted[k] = 1;
    if (o[O_NEXT] >= 0)
        ssched_i_mpi_maybe_ready(R, o[O_NEXT]);
    unsigned char *b = o[O_KIND] == OP_COMP ? NULL : buffer(R, o[O_BUF]);
    if (o[O_KIND] != OP_COMP && !b)
        return;
    int n = (int)(o[O_HI] - o[O_LO]);
    unsigned char *msg = b ? b + o[O_LO] : NULL;
    if (o[O_NXB] > 0 && (o[O_KIND] == OP_SEND || o[O_KIND] == OP_RECV)) {
        size_t len = (size_t)n, nb = 1 + (size_t)o[O_NXB];
        if (!(msg = R->stage[k] = malloc(len * nb + 1)))
            return (void)(R->nomem = 1),
                   ssched_i_mpi_fail(R, "out of memory for a batch of %zu bytes", len * nb);
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
        MPI_Isend(msg, n, MPI_BYTE, (int)o[O_PEER], TAG_DATA, comm, ssched_i_mpi_add_req(R, k));
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
        int red = R->x->kind == SSCHED_PROBLEM_REDUCE || R->x->kind == SSCHED_PROBLEM_ALLREDUCE ||
                  R->x->kind == SSCHED_PROBLEM_SCAN;
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
void ssched_i_mpi_finished(run_t *R, int64_t what, int peer)
{
    if (peer >= 0) /* a data receive (drained or not) */
        R->got[peer]++;
    switch (what) {
    case R_ABORT:
        enter_abort(R);
        /* more ranks may fail: keep one abort receive posted until the end */
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ABORT, R->im->comm,
                  ssched_i_mpi_add_req(R, R_ABORT));
        break;
    case R_COMP:
        R->comp_pending = 0;
        if (!R->aborting)
            complete(R, R->comp_op);
        break;
    case R_IDLE: /* rank 0: one more rank is idle */
        if (++R->idle_count < (size_t)R->im->size - 1)
            MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_IDLE, R->im->comm,
                      ssched_i_mpi_add_req(R, R_IDLE));
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
#ifdef SSCHED_SMPI
    case R_METRO: /* a tick: its due time has come (run_pace.c) */
        ssched_i_mpi_metro_tick(R);
        break;
#endif
    case R_TIMER: /* the earliest armed timer: its time has come (run_pace.c) */
        if (R->timers[0] > R->fired)
            R->fired = R->timers[0];
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

