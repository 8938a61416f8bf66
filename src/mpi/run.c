/* The executor: one rank runs its plan (internal.h) as soon as possible.
 *
 * Operations whose predecessors have all completed are started at once:
 * sends (MPI_Issend: the transfer begins only when the receiver has posted,
 * as in the schedule's model), receives (MPI_Irecv), computations (the
 * combine callback; under SMPI its simulated time runs on a second actor of
 * the rank, see comp_actor) and deliveries (callbacks).  One MPI_Waitsome
 * loop serves them all.
 *
 * Errors: a rank whose callback fails sends an abort message to every
 * other rank and stops starting operations; a rank learning of the abort
 * does the same.  A stopped rank posts every receive it has not posted yet
 * (in plan order, so they match the sends already under way), waits for its
 * own sends to complete, then joins the end barrier; once the barrier
 * completes no send is pending anywhere and the leftover receives are
 * cancelled.  The first failing rank's message is then given to all.
 *
 * The end barrier is point to point (every rank tells rank 0 it is idle,
 * rank 0 releases all) rather than MPI_Ibarrier: SMPI 3.32's Ibarrier lets
 * ranks through before the root has heard from everyone, and the early
 * ranks' next collectives then share the links with the schedule's
 * transfers (measured: a 1.7 ms excess per transfer on tiers-small). */
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

#include "src/mpi/internal.h"
#include "src/util/internal.h"

enum { R_ABORT = -1, R_COMP = -2, R_RELEASE = -3, R_ABORT_SEND = -4, R_DRAIN = -5,
       R_IDLE = -6, R_IDLE_SEND = -7, R_RELEASE_SEND = -8 };

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
    int *idx;
    size_t nreq, cap;
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
        if (!r || !w || !i) {
            /* without room the run cannot go on: MPI would lose a request */
            fprintf(stderr, "ssched_mpi: out of memory\n");
            MPI_Abort(R->im->comm, 1);
        }
        R->cap = cap;
    }
    R->what[R->nreq] = what;
    return &R->req[R->nreq++];
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

/* A callback's nonzero code: ENOMEM (errno.h) is out of memory and
 * reported as such (SSCHED_ENOMEM), any other code as the callback's. */
static void callback_failed(run_t *R, const char *who, int rc, size_t op)
{
    if (rc == ENOMEM) {
        R->nomem = 1;
        fail(R, "out of memory in the %s callback (operation %zu)", who, op);
    } else {
        fail(R, "the %s callback returned %d (operation %zu)", who, rc, op);
    }
}

static void enter_abort(run_t *R)
{
    if (R->aborting)
        return;
    R->aborting = 1;
    const mpi_plan_t *pl = R->pl;
    int64_t most = 0;
    for (int64_t k = 0; k < pl->n_ops; k++)
        if (pl->ops[k * O_WIDTH + O_HI] - pl->ops[k * O_WIDTH + O_LO] > most)
            most = pl->ops[k * O_WIDTH + O_HI] - pl->ops[k * O_WIDTH + O_LO];
    /* the data is garbage by now: every drained receive shares one buffer */
    R->scratch = malloc((size_t)most + 1);
    for (int64_t k = 0; k < pl->n_ops; k++) {
        const int64_t *o = &pl->ops[k * O_WIDTH];
        if (o[O_KIND] != OP_RECV || R->posted[k])
            continue;
        R->posted[k] = 1;
        MPI_Irecv(R->scratch, R->scratch ? (int)(o[O_HI] - o[O_LO]) : 0, MPI_BYTE, (int)o[O_PEER],
                  TAG_DATA, R->im->comm, add_req(R, R_DRAIN));
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

static void complete(run_t *R, int64_t k)
{
    int64_t *o = &R->pl->ops[k * O_WIDTH];
    R->done++;
    R->posted[k] = 2;
    int64_t use[3] = {o[O_BUF], o[O_LEFT], o[O_RIGHT]};
    for (int u = 0; u < 3; u++)
        if (use[u] >= 0 && --R->refs[use[u]] == 0) {
            free(R->mem[use[u]]);
            R->mem[use[u]] = NULL;
            R->live--;
        }
    for (int64_t s = 0; s < o[O_NSUCC]; s++) {
        int64_t n = R->pl->succ[o[O_SUCC0] + s];
        if (--R->cnt[n] == 0)
            R->ready[R->nready++] = n;
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

static void start(run_t *R, int64_t k)
{
    const int64_t *o = &R->pl->ops[k * O_WIDTH];
    MPI_Comm comm = R->im->comm;
    R->posted[k] = 1;
    unsigned char *b = o[O_KIND] == OP_COMP ? NULL : buffer(R, o[O_BUF]);
    if (o[O_KIND] != OP_COMP && !b)
        return;
    int n = (int)(o[O_HI] - o[O_LO]);
    switch (o[O_KIND]) {
    case OP_SEND:
        MPI_Issend(b + o[O_LO], n, MPI_BYTE, (int)o[O_PEER], TAG_DATA, comm, add_req(R, k));
        R->pending_sends++;
        R->st.sends++;
        break;
    case OP_RECV:
        MPI_Irecv(b + o[O_LO], n, MPI_BYTE, (int)o[O_PEER], TAG_DATA, comm, add_req(R, k));
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

/* Handle one finished request. */
static void finished(run_t *R, int64_t what)
{
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
    default:
        if (R->pl->ops[what * O_WIDTH + O_KIND] == OP_SEND)
            R->pending_sends--;
        if (!R->aborting)
            complete(R, what);
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
        if (R->cnt[k] == 0)
            R->ready[R->nready++] = k;
    double t_end = -1;
    for (;;) {
        while (R->nready && !R->aborting)
            start(R, R->ready[--R->nready]);
        if (!R->aborting && R->done == (size_t)R->pl->n_ops && t_end < 0)
            t_end = MPI_Wtime();
        int idle = R->aborting ? !R->pending_sends && !R->comp_pending
                               : R->done == (size_t)R->pl->n_ops;
        if (end_barrier(R, idle))
            break;
        int outcount = 0;
#ifdef SSCHED_SMPI
        /* SMPI 3.32 runs Waitsome as a Testsome loop that sleeps smpi/test
         * (1e-4 s, growing) between rounds, which delays every event; its
         * Waitany blocks until a completion, exactly when it happens */
        MPI_Waitany((int)R->nreq, R->req, R->idx, MPI_STATUS_IGNORE);
        outcount = R->idx[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
#else
        MPI_Waitsome((int)R->nreq, R->req, &outcount, R->idx, MPI_STATUSES_IGNORE);
#endif
        if (outcount == MPI_UNDEFINED) /* nothing under way: a broken plan */
            return fail(R, "internal error: the plan stalls"), t_end;
        size_t n = R->nreq;
        for (int k = 0; k < outcount; k++)
            finished(R, R->what[R->idx[k]]);
        size_t w = 0; /* drop the completed requests, keep the order */
        for (size_t k = 0; k < R->nreq; k++)
            if (R->req[k] != MPI_REQUEST_NULL || k >= n) {
                R->req[w] = R->req[k];
                R->what[w++] = R->what[k];
            }
        R->nreq = w;
    }
    /* no send is pending anywhere: the leftover receives can go */
    for (size_t k = 0; k < R->nreq; k++) {
        MPI_Cancel(&R->req[k]);
        MPI_Wait(&R->req[k], MPI_STATUS_IGNORE);
    }
    R->nreq = 0;
    return t_end >= 0 ? t_end - t0 : MPI_Wtime() - t0;
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
    int ok = R.cnt && R.ready && R.posted && R.refs && R.mem, all = 0;
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
        R.st.seconds = loop(&R, t0);
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
    free(R.mem), free(R.refs), free(R.posted), free(R.ready), free(R.cnt);
    free(R.req), free(R.what), free(R.idx), free(R.scratch);
    return st;
}
