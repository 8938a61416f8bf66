/* Earliest-possible reduce schedules (seed 000 §3, Fig. 2) with the
 * destination assignment of Lemma 1. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

typedef struct {
    mpq_t *end;
} ep_ctx_t;

static int end_less(const void *ctx, size_t a, size_t b)
{
    const ep_ctx_t *e = ctx;
    int c = mpq_cmp(e->end[a], e->end[b]);
    return c < 0 || (c == 0 && a < b);
}

/* Algorithm EP of Fig. 2.  A pool of "free" processors starts with all n;
 * a transfer takes two (sender and receiver) and gives one back when it ends
 * (only the receiver stays useful).  While two are free the next sender of
 * `order` starts now; otherwise time jumps to the next completion(s).
 * Tracking WHICH completed transfer supplied each free processor (a FIFO of
 * tokens) gives the dependency tree of Lemma 1, from which ssched_i_mk_reduce_from_tree
 * derives the receivers.  The last sender is necessarily the last to finish
 * (after its start 2A + C = n - 1 with A + C = n - 1 forces A = 1). */
ssched_status_t ssched_mk_reduce_ep(const ssched_mk_cluster_t *c, size_t dest,
                                    const size_t *order, ssched_mk_schedule_t *out,
                                    ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, dest, "destination", err);
    if (st != SSCHED_OK || (st = ssched_i_mk_check_order(c, dest, order, "sender", "the destination",
                                                        "send", err)) != SSCHED_OK)
        return st;
    size_t n = c->n, m = n - 1;
    if (m == 0)
        return ssched_mk_schedule_alloc(out, SSCHED_MK_REDUCE, n, dest, 0, err);

    mpq_t *start = malloc(m * sizeof *start), *end = malloc(m * sizeof *end);
    long *kid0 = malloc(m * sizeof *kid0), *kid1 = malloc(m * sizeof *kid1);
    long *token = malloc((n + m) * sizeof *token); /* FIFO of free processors */
    mk_heap_t active = {0};
    ep_ctx_t ctx = {end};
    if (!start || !end || !kid0 || !kid1 || !token ||
        ssched_i_mk_heap_init(&active, m, end_less, &ctx, err) != SSCHED_OK) {
        free(start); free(end); free(kid0); free(kid1); free(token);
        ssched_i_mk_heap_free(&active);
        return ssched_i_mk_nomem(err);
    }
    for (size_t v = 0; v < m; v++)
        mpq_inits(start[v], end[v], NULL);
    size_t head = 0, tail = 0;
    for (size_t p = 0; p < n; p++)
        token[tail++] = -1; /* initial free processors have no predecessor */

    mpq_t now;
    mpq_init(now);
    size_t free_count = n, i = 0;
    while (i < m) {
        while (free_count >= 2 && i < m) {
            mpq_set(start[i], now);
            mpq_add(end[i], now, c->time[order[i]]);
            kid0[i] = token[head++];
            kid1[i] = token[head++];
            if (kid0[i] < 0 && kid1[i] >= 0) {
                kid0[i] = kid1[i];
                kid1[i] = -1;
            }
            ssched_i_mk_heap_push(&active, i);
            i++;
            free_count -= 2;
        }
        if (i == m)
            break;
        /* Jump to the smallest completion time; all transfers ending then
         * release their receivers at once. */
        mpq_set(now, end[active.item[0]]);
        while (active.len > 0 && mpq_equal(end[active.item[0]], now)) {
            token[tail++] = (long)ssched_i_mk_heap_pop(&active);
            free_count++;
        }
    }
    mpq_clear(now);
    st = ssched_i_mk_reduce_from_tree(c, dest, m, order, kid0, kid1, start, out, err);
    for (size_t v = 0; v < m; v++)
        mpq_clears(start[v], end[v], NULL);
    free(start); free(end); free(kid0); free(kid1); free(token);
    ssched_i_mk_heap_free(&active);
    return st;
}
