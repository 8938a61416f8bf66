/* Broadcast schedules from a receive order, and fastest-node-first
 * (seed 002 §3–4). */
#include <stdlib.h>

#include "src/makespan/mk_internal.h"
#include "src/util/internal.h"

typedef struct {
    const ssched_mk_cluster_t *c;
    mpq_t *slot; /* next time at which an informed processor can finish a send */
} slots_t;

/* Earliest finishing send first; on ties the faster sender, then the lower
 * index, so that among simultaneous receptions the fastest senders serve
 * the first (fastest, in FNF) receivers — Theorem 4.2's shape. */
static int slot_less(const void *ctx, size_t a, size_t b)
{
    const slots_t *s = ctx;
    int c = mpq_cmp(s->slot[a], s->slot[b]);
    if (c == 0)
        c = mpq_cmp(s->c->time[a], s->c->time[b]);
    return c < 0 || (c == 0 && a < b);
}

/* Seed 002 eq. (1): with no idle processor (Theorem 4.1) the i-th receiver
 * of the order gets the i-th earliest send completion offered by the
 * processors already informed.  A heap of "next completion" times gives it
 * in O(n log n); each message is (sender, receiver, completion - t(sender),
 * completion). */
ssched_status_t ssched_mk_broadcast_sequence(const ssched_mk_cluster_t *c, size_t src,
                                             const size_t *order, ssched_mk_schedule_t *out,
                                             ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, src, "source", err);
    if (st != SSCHED_OK || (st = ssched_i_mk_check_order(c, src, order, "receive", "the source",
                                                        "receive", err)) != SSCHED_OK)
        return st;
    size_t n = c->n, m = n - 1;
    st = ssched_mk_schedule_alloc(out, SSCHED_MK_BROADCAST, n, src, m, err);
    if (st != SSCHED_OK || m == 0)
        return st;
    slots_t ctx = {c, malloc(n * sizeof(mpq_t))};
    mk_heap_t heap = {0};
    if (!ctx.slot || ssched_i_mk_heap_init(&heap, n, slot_less, &ctx, err) != SSCHED_OK) {
        free(ctx.slot);
        return ssched_i_mk_nomem(err);
    }
    for (size_t p = 0; p < n; p++)
        mpq_init(ctx.slot[p]);
    mpq_set(ctx.slot[src], c->time[src]);
    ssched_i_mk_heap_push(&heap, src);
    for (size_t i = 0; i < m; i++) {
        size_t p = ssched_i_mk_heap_pop(&heap), r = order[i];
        ssched_mk_message_t *msg = &out->msg[i];
        msg->sender = p;
        msg->receiver = r;
        mpq_set(msg->end, ctx.slot[p]);
        mpq_sub(msg->start, ctx.slot[p], c->time[p]);
        mpq_add(ctx.slot[r], msg->end, c->time[r]);
        ssched_i_mk_heap_push(&heap, r);
        mpq_add(ctx.slot[p], ctx.slot[p], c->time[p]);
        ssched_i_mk_heap_push(&heap, p);
    }
    mpq_set(out->makespan, out->msg[m - 1].end); /* completions come in order */
    for (size_t p = 0; p < n; p++)
        mpq_clear(ctx.slot[p]);
    free(ctx.slot);
    ssched_i_mk_heap_free(&heap);
    ssched_i_mk_sort_messages(out);
    return SSCHED_OK;
}

static int fastest_first(const void *ctx, size_t p, size_t q)
{
    const ssched_mk_cluster_t *c = ctx;
    return mpq_cmp(c->time[p], c->time[q]);
}

/* FNF: the receive order is by non-decreasing time (ties by index); each
 * message then leaves the processor that can finish it first, exactly the
 * sender choice of seed 002 §3.  Optimal for two classes (Theorem 4.4),
 * within twice the optimum in general (Theorems 4.6, 4.7). */
ssched_status_t ssched_mk_broadcast_fnf(const ssched_mk_cluster_t *c, size_t src,
                                        ssched_mk_schedule_t *out, ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, src, "source", err);
    if (st != SSCHED_OK)
        return st;
    size_t *order;
    if ((st = ssched_i_mk_others_sorted(c, src, fastest_first, &order, err)) != SSCHED_OK)
        return st;
    st = ssched_mk_broadcast_sequence(c, src, order, out, err);
    free(order);
    return st;
}
