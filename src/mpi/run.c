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
 * SMPI 3.32 in the exact configuration times MPI_Isend and MPI_Issend
 * alike: smpi/async-small-thresh is 0, so every message goes through the
 * receiver's rendezvous mailbox (a transfer starts once both the send and
 * the receive are posted), none is detached (send-is-detached-thresh 0:
 * the sender completes with the transfer), and smpi/os, ois, or are 0.
 * The transfer then waits its route's latency taking no bandwidth (CM02)
 * and moves at the route's bandwidth: end = start + l + bytes / bandwidth,
 * the schedule's rule.  (measured: the same times to the last bit with
 * either call.)  Eager sends (async-small-thresh above the size) would
 * start before the receive is posted; paced runs post both ends at the
 * transfer's start, so the rendezvous costs nothing there.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SSCHED_SMPI
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

#include "src/mpi/run_internal.h"

/* The end barrier: 1 once every rank is idle (so no send is pending). */
static int end_barrier(run_t *R, int idle)
{
    int rank = R->im->rank, size = R->im->size;
    if (idle && !R->idle_sent) {
        R->idle_sent = 1;
        if (rank != 0) {
            MPI_Issend(NULL, 0, MPI_BYTE, 0, TAG_IDLE, R->im->comm,
                       ssched_i_mpi_add_req(R, R_IDLE_SEND));
            R->idle_pending = 1;
            MPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_RELEASE, R->im->comm,
                      ssched_i_mpi_add_req(R, R_RELEASE));
        }
    }
    if (rank != 0)
        return R->released && !R->idle_pending;
    if (R->idle_sent && R->idle_count == (size_t)size - 1 && !R->released) {
        R->released = 1;
        for (int r = 1; r < size; r++)
            MPI_Isend(NULL, 0, MPI_BYTE, r, TAG_RELEASE, R->im->comm,
                      ssched_i_mpi_add_req(R, R_RELEASE_SEND));
        R->release_left = (size_t)size - 1;
    }
    return R->released && R->release_left == 0;
}

static double loop(run_t *R, double t0)
{
    if (!R->im->lean) /* (lean: a failing rank aborts the job) */
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ABORT, R->im->comm,
                  ssched_i_mpi_add_req(R, R_ABORT));
    if (!R->im->lean && R->im->rank == 0 && R->im->size > 1)
        MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_IDLE, R->im->comm,
                  ssched_i_mpi_add_req(R, R_IDLE));
    for (int64_t k = 0; k < R->pl->n_ops; k++)
        ssched_i_mpi_maybe_ready(R, k);
    double t_end = -1;
    for (;;) {
#ifdef SSCHED_SMPI
        ssched_i_mpi_comp_check(R); /* a timed computation's end has come */
#endif
        ssched_i_mpi_start_ready(R);
        if (!R->aborting && R->done == (size_t)R->pl->n_ops && t_end < 0)
            t_end = MPI_Wtime();
        /* idle: nothing of ours under way (armed timers included) */
        int idle = !R->ntimers && (R->aborting ? !R->pending_sends && !R->comp_pending
                                               : R->done == (size_t)R->pl->n_ops);
#ifdef SSCHED_SMPI
        if (idle && R->metro) /* and no tick of the metronome under way */
            idle = ssched_i_mpi_metro_quiet(R);
#endif
        /* lean: done is done.  Every send of this run has completed and
         * every receive matched; a next run's messages to a rank still in
         * this one come after this run's from the same sender
         * (non-overtaking), and no control message is ever sent */
        if (R->im->lean ? idle : end_barrier(R, idle))
            break;
        int outcount = 0;
        int paced = !R->aborting && R->nwait;
#ifdef SSCHED_SMPI
        /* a due the metronome covers needs neither (run_pace.c) */
        if (paced && R->metro && ssched_i_mpi_due(R, R->wait[0]) >= R->metro_from)
            paced = 0;
        if (paced) {
            /* a timer's wake-up crosses the host's loopback route: armed
             * less than its latency ahead (an operation ready just before
             * its time, after a computation) it lands late (600 us on a
             * SimGrid cluster, whose loopback crosses the host's links and
             * the backbone); the rank sleeps to that time itself instead.
             * A completion meanwhile is seen at most that late. */
            double due = ssched_i_mpi_due(R, R->wait[0]);
            sg_host_t h = sg_host_self();
            if (due - MPI_Wtime() < sg_host_get_route_latency(h, h)) {
                sg_actor_sleep_until(due);
                continue;
            }
        }
        if (paced && (!R->ntimers || ssched_i_mpi_due(R, R->wait[0]) < R->timers[0]))
            ssched_i_mpi_arm_timer(R, ssched_i_mpi_due(R, R->wait[0]));
        /* SMPI 3.32 runs Waitsome as a Testsome loop that sleeps smpi/test
         * (1e-4 s, growing) between rounds, which delays every event; its
         * Waitany blocks until a completion, exactly when it happens */
        MPI_Waitany((int)R->nreq, R->req, R->idx, MPI_STATUS_IGNORE);
        outcount = R->idx[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
#else
        if (paced) { /* poll until the next operation's time */
            MPI_Testsome((int)R->nreq, R->req, &outcount, R->idx, MPI_STATUSES_IGNORE);
            if (outcount == 0 || outcount == MPI_UNDEFINED) {
                double left = ssched_i_mpi_due(R, R->wait[0]) - MPI_Wtime();
                struct timespec ts = {0, left > 1e-4 ? 100000 : left > 0 ? (long)(left * 1e9) : 0};
                nanosleep(&ts, NULL);
                continue;
            }
        } else {
            MPI_Waitsome((int)R->nreq, R->req, &outcount, R->idx, MPI_STATUSES_IGNORE);
        }
#endif
        if (outcount == MPI_UNDEFINED) /* nothing under way: a broken plan */
            return ssched_i_mpi_fail(R, "internal error: the plan stalls"), t_end;
        size_t n = R->nreq;
        for (int k = 0; k < outcount; k++)
            ssched_i_mpi_finished(R, R->what[R->idx[k]], R->peer[R->idx[k]]);
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
static void settle(run_t *R, int *first)
{
    /* one all-reduction: did any rank abort, and the first failing rank
     * (it speaks for all; size if none) */
    int size = R->im->size, mine[2] = {R->aborting, -(R->failed ? R->im->rank : size)}, got[2];
    if (R->im->lean) /* (no rank aborts without MPI_Abort) */
        got[0] = mine[0], got[1] = mine[1];
    else
        MPI_Allreduce(mine, got, 2, MPI_INT, MPI_MAX, R->im->comm);
    int all = got[0];
    *first = -got[1];
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

void ssched_i_mpi_lean(ssched_mpi_t *x)
{
    struct ssched_mpi_impl *im = x->impl;
    im->lean = 1;
    im->margin = 0;
#ifdef SSCHED_SMPI
    if (im->pace > 0) {
        /* the start (ssched_mpi_run): p (p - 1) messages of 8 bytes, each
         * sent at its rank's entry, received by the last rank entered
         * t1 + its route's latency + its bytes later at most; with every
         * one of them on the slowest link, p^2 x 8 bytes / its bandwidth.
         * (SMPI runs every rank in one address space: hosts are shared.) */
        int p = im->size;
        sg_host_t me = sg_host_self(), *hosts = malloc((size_t)p * sizeof *hosts);
        double worst[2] = {0, 0}, all[2] = {0, 0}; /* latency, 1 / bandwidth */
        if (hosts)
            MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, hosts, (int)sizeof me, MPI_BYTE,
                          im->comm);
        for (int r = 0; hosts && r < p; r++) {
            if (r == im->rank)
                continue;
            double l = sg_host_get_route_latency(hosts[r], me);
            double bw = sg_host_get_route_bandwidth(hosts[r], me);
            if (l > worst[0])
                worst[0] = l;
            if (bw > 0 && 1 / bw > worst[1])
                worst[1] = 1 / bw;
        }
        free(hosts);
        MPI_Allreduce(worst, all, 2, MPI_DOUBLE, MPI_MAX, im->comm);
        /* (no hosts on some rank: an all-reduction start, as not lean) */
        int ok = hosts != NULL, every = 0;
        MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, im->comm);
        im->margin = every ? all[0] + (double)p * p * 8 * all[1] : -1;
    }
#endif
}

#ifdef SSCHED_SMPI
/* Lean and paced: t0 = the latest entry + the margin (every rank sends
 * its entry time to every other); -1 if out of memory. */
static double lean_start(run_t *R, double t0)
{
    int p = R->im->size, n = 0;
    double *in = malloc((size_t)p * sizeof *in);
    MPI_Request *rq = malloc(2 * (size_t)p * sizeof *rq);
    if (!in || !rq)
        return free(in), free(rq), -1;
    for (int r = 0; r < p; r++)
        if (r != R->im->rank)
            MPI_Irecv(&in[r], 1, MPI_DOUBLE, r, TAG_START, R->im->comm, &rq[n++]);
    for (int r = 0; r < p; r++)
        if (r != R->im->rank)
            MPI_Isend(&t0, 1, MPI_DOUBLE, r, TAG_START, R->im->comm, &rq[n++]);
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    double t1 = t0;
    for (int r = 0; r < p; r++)
        if (r != R->im->rank && in[r] > t1)
            t1 = in[r];
    free(in), free(rq);
    return t1 + R->im->margin;
}
#endif

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
    if ((x->kind == SSCHED_PROBLEM_REDUCE || x->kind == SSCHED_PROBLEM_ALLREDUCE ||
         x->kind == SSCHED_PROBLEM_SCAN) &&
        !R.cb->combine &&
        (R.cb->mpi_op == MPI_OP_NULL || R.cb->mpi_op == (MPI_Op)0 ||
         R.cb->datatype == MPI_DATATYPE_NULL || R.cb->datatype == (MPI_Datatype)0))
        ok = -1;
    if (R.im->lean && ok <= 0) {
        fprintf(stderr, "ssched_mpi: rank %d: %s\n", R.im->rank,
                ok < 0 ? "reduce needs a combine callback or an MPI_Op and datatype"
                       : "out of memory");
        MPI_Abort(R.im->comm, 1);
    }
    if (R.im->lean)
        all = ok;
    else
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
        /* stats NULL (on every rank) and not paced: nobody reads t0 or the
         * makespan, so no start barrier and no makespan all-reduction (the
         * all-reduction above already has every rank inside this run, past
         * the previous run's last collective); libssched_pmpi runs a plan
         * per user call and pays each of these in latencies */
        int lean = R.im->lean || (!stats && !(R.im->pace > 0));
        if (!lean)
            MPI_Barrier(R.im->comm);
        double t0 = MPI_Wtime();
#ifdef SSCHED_SMPI
        /* paced: one start time for all.  Ranks leave a barrier up to a
         * few latencies apart, and a paced receive posted that much late
         * would delay its transfer by as much (measured: one latency on
         * the makespan).  SMPI's clock is global: the ranks agree on a
         * time after they all left two all-reductions, and wait for it
         * (lean, libssched_pmpi: one latency after the last rank entered,
         * lean_start).  (With a real MPI each rank's clock starts at its
         * barrier exit.) */
        int quick = R.im->pace > 0 && R.im->lean && R.im->margin >= 0;
        double at = quick ? lean_start(&R, t0) : -1;
        if (quick && at < 0)
            fprintf(stderr, "ssched_mpi: rank %d: out of memory\n", R.im->rank),
                MPI_Abort(R.im->comm, 1);
        if (at >= 0) {
            /* lean: the latest entry, plus the margin (ssched_i_mpi_lean) */
            t0 = at;
            if (MPI_Wtime() < t0)
                sg_actor_sleep_until(t0);
            else /* late: this rank's events shift (correct, not exact) */
                t0 = MPI_Wtime();
        } else if (R.im->pace > 0) {
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
#ifdef SSCHED_SMPI
        if (R.im->pace > 0)
            ssched_i_mpi_metro_start(&R);
#endif
        R.st.seconds = loop(&R, t0);
        int first = 0;
        settle(&R, &first);
#ifdef SSCHED_SMPI
        ssched_i_mpi_metro_release(&R);
#endif
        if (!lean)
            MPI_Allreduce(&R.st.seconds, &R.st.makespan, 1, MPI_DOUBLE, MPI_MAX, R.im->comm);
        if (first < R.im->size) {
            MPI_Bcast(&R.e, (int)sizeof R.e, MPI_BYTE, first, R.im->comm);
            st = ssched_error_set(err, R.e.status, "%s", R.e.message);
        }
        /* (lean: no rank leaves settle's all-reduction before every rank
         * has entered it, and a rank enters the next run's first
         * all-reduction only after its own settle: a next run's messages
         * can only meet receives of that run) */
        if (!lean)
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
