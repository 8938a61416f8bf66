/* Unrolled all-reduces (schedule.h: ssched_unroll for allreduce): the
 * reduce to the root R and the broadcast of each result from R, replayed
 * together on one engine so both parts share every port, link and
 * processor (the left shift keeps the one-port rules across both).
 *
 * The reduce part is the reduce replay (unroll_reduce.c) on the schedule's
 * trees; batch j's result is complete at R by the end of period j + D - 1
 * (D - 1 = the trees' deepest level).  The broadcast part is the broadcast
 * replay (unroll_broadcast.c) on the schedule's arborescences, shifted by
 * D periods: batch j's copies cross the arcs of depth h in period
 * j + D + h, and each copy of op t leaves R no earlier than the time op t's
 * complete result reached R (the reduce replay's availability of the full
 * interval or set), then leaves any other node only after it has fully
 * arrived there.  Copies are whole messages (A units of the reduce's
 * scale, which covers the copies' edges since they are slot transfers). */
#include "schedule/unroll_internal.h"

static int64_t result_at_root(void *ctx, size_t op)
{
    return ssched_i_sched_reduce_result(ctx, op);
}

/* A slot transfer of copies, met by the reduce step in slot order. */
static ssched_status_t copies(sched_engine_t *e, void *ctx, const ssched_transfer_t *tr,
                              ssched_error_t *err)
{
    return ssched_i_sched_bcast_slot(e, ctx, tr->edge, tr->amount, err);
}

ssched_status_t ssched_i_sched_replay_allreduce(sched_engine_t *e, const ssched_problem_t *pb,
                                       size_t K, size_t *periods_out, ssched_error_t *err)
{
    const ssched_schedule_t *s = e->s;
    sched_reduce_replay_t *r = NULL;
    sched_bcast_replay_t *b = NULL;
    ssched_status_t st = ssched_i_sched_reduce_begin(e, pb, K, &r, err);
    if (st == SSCHED_OK)
        st = ssched_i_sched_bcast_begin(e, pb, s->root, ssched_schedule_copy_type(s), 0, K,
                               result_at_root, r, &b, err);
    size_t periods = 0;
    if (st == SSCHED_OK) {
        size_t D = ssched_i_sched_reduce_depth(r) + 1, H = ssched_i_sched_bcast_depth(b);
        size_t reduce_periods = ssched_i_sched_reduce_batches(r) + D - 1;
        periods = reduce_periods + H;
        ssched_i_sched_reduce_hook(r, ssched_schedule_copy_type(s), copies, b);
        ssched_i_sched_period_ticks(&e->sc, s->period, e->period_ticks);
        /* an event of period P belongs to a batch at most D + H - 1 periods
         * older: the release time lets it move that far earlier */
        e->window = D + H;
        for (size_t P = 0; P < periods && st == SSCHED_OK; P++) {
            ssched_i_sched_engine_period(e, P);
            /* the reduce of batch P - D ended in period P - 1: its results
             * are known when the broadcast starts that batch (P < D: no
             * copies yet, but the period's slots still run for the reduce).
             * The copies are emitted as the reduce step meets their slots,
             * so every port sees the pattern's order across both parts. */
            size_t bb = P >= D ? P - D : SIZE_MAX; /* SIZE_MAX: past every batch */
            st = ssched_i_sched_bcast_prepare(e, b, bb, err);
            if (st == SSCHED_OK)
                st = ssched_i_sched_reduce_step(e, r, P, err);
            if (st == SSCHED_OK)
                st = ssched_i_sched_bcast_finish(e, b, err);
            if (st == SSCHED_OK)
                st = ssched_i_sched_engine_flush(e, 0, err);
        }
        if (st == SSCHED_OK)
            st = ssched_i_sched_engine_flush(e, 1, err);
    }
    *periods_out = periods;
    ssched_i_sched_bcast_end(b);
    ssched_i_sched_reduce_end(r);
    return st;
}
