/* Slowest-node-first reduce (seed 000 §4). */
#include <stdlib.h>

#include "src/makespan/mk_internal.h"
#include "src/util/internal.h"

static int slowest_first(const void *ctx, size_t p, size_t q)
{
    const ssched_mk_cluster_t *c = ctx;
    return mpq_cmp(c->time[q], c->time[p]); /* ties stay in index order */
}

/* SNF: sort the senders by non-increasing transmission time (ties by
 * index, for determinism) and hand the sequence to EP.  The slow senders
 * then overlap each other at the start instead of waiting for each other at
 * the end (seed 000 §4). */
ssched_status_t ssched_mk_reduce_snf(const ssched_mk_cluster_t *c, size_t dest,
                                     ssched_mk_schedule_t *out, ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, dest, "destination", err);
    if (st != SSCHED_OK)
        return st;
    size_t *order;
    if ((st = ssched_i_mk_others_sorted(c, dest, slowest_first, &order, err)) != SSCHED_OK)
        return st;
    st = ssched_mk_reduce_ep(c, dest, order, out, err);
    free(order);
    return st;
}
