/* Choosing the exact method: class-count programs when their tables are
 * small (few distinct times), branch-and-bound otherwise; and the
 * branch-and-bound presets. */
#include <string.h>

#include "src/makespan/mk_internal.h"

/* Above this many estimated pair evaluations the class-count programs lose
 * to branch-and-bound in practice (many distinct times). */
#define DP_WORK_LIMIT 200000000ULL

void ssched_mk_bnb_options(ssched_mk_bnb_options_t *o, ssched_mk_bnb_preset_t preset)
{
    memset(o, 0, sizeof *o);
    if (preset == SSCHED_MK_BNB_GENERIC)
        return; /* input order, partial-cost bound only */
    o->theory_order = 1;
    o->theory_prune = 1;
    if (preset == SSCHED_MK_BNB_FULL) {
        o->strong_bound = 1;
        o->symmetry = 1;
    }
}

/* Estimate the class-count program's work from the classes; on any error
 * building them let the chosen method report it.  *table gets the number
 * of table entries (0 if unknown). */
static int prefer_dp_entries(const ssched_mk_cluster_t *c, size_t root, int broadcast,
                             long double *table)
{
    mk_classes_t k;
    ssched_error_t ignored;
    *table = 0;
    if (ssched_i_mk_classes_build(c, root, broadcast, broadcast ? "source" : "destination", &k,
                         &ignored) != SSCHED_OK)
        return 1;
    uint64_t w = broadcast ? ssched_i_mk_dpk_broadcast_work(&k) : ssched_i_mk_dpk_reduce_work(&k);
    long double entries = broadcast ? (long double)k.k : 1;
    for (size_t i = 0; i < k.k; i++)
        entries *= (long double)k.count[i] + 1;
    ssched_i_mk_classes_free(&k);
    *table = entries;
    return w <= DP_WORK_LIMIT && entries <= (long double)(1 << 23);
}

static int prefer_dp(const ssched_mk_cluster_t *c, size_t root, int broadcast)
{
    long double ignored;
    return prefer_dp_entries(c, root, broadcast, &ignored);
}

/* The budget left for one search: opt->max_nodes from the limits. */
static void apply_limits(ssched_mk_bnb_options_t *o, const ssched_mk_limits_t *lim)
{
    if (lim) {
        o->max_nodes = lim->max_nodes;
        o->progress = lim->progress;
        o->progress_ctx = lim->progress_ctx;
    }
}

ssched_status_t ssched_mk_optimal_estimate(const ssched_mk_cluster_t *c, size_t root,
                                           ssched_mk_op_t op, ssched_mk_estimate_t *out,
                                           ssched_error_t *err)
{
    out->method = "dpk";
    out->bytes = 0;
    if (root == SSCHED_MK_ANY_ROOT)
        root = 0;
    ssched_status_t st = ssched_mk_cluster_validate(c, root, "root", err);
    if (st != SSCHED_OK)
        return st;
    /* the schedule itself: messages of two rationals each */
    long double bytes = (long double)c->n * 2 * (sizeof(ssched_mk_message_t) + 64);
    long double best = 0;
    for (int broadcast = 0; broadcast <= 1; broadcast++) {
        if ((op == SSCHED_MK_REDUCE && broadcast) || (op == SSCHED_MK_BROADCAST && !broadcast))
            continue;
        long double b, entries;
        if (prefer_dp_entries(c, root, broadcast, &entries)) {
            /* int64 value + uint32 argument (+ uint8 coordinate) per entry */
            b = entries * (sizeof(int64_t) + 4 + (broadcast ? 1 : 0));
        } else {
            b = broadcast ? ssched_i_mk_bnb_broadcast_bytes(c->n) : ssched_i_mk_bnb_reduce_bytes(c->n);
            out->method = "bnb";
        }
        if (b > best)
            best = b;
    }
    out->bytes = (double)(bytes + best);
    return SSCHED_OK;
}

ssched_status_t ssched_mk_reduce_optimal(const ssched_mk_cluster_t *c, size_t dest,
                                         ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                         ssched_error_t *err)
{
    return ssched_mk_reduce_optimal_limited(c, dest, NULL, out, stats, err);
}

ssched_status_t ssched_mk_broadcast_optimal(const ssched_mk_cluster_t *c, size_t src,
                                            ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                            ssched_error_t *err)
{
    return ssched_mk_broadcast_optimal_limited(c, src, NULL, out, stats, err);
}

ssched_status_t ssched_mk_reduce_optimal_limited(const ssched_mk_cluster_t *c, size_t dest,
                                                 const ssched_mk_limits_t *lim,
                                                 ssched_mk_schedule_t *out,
                                                 ssched_mk_stats_t *stats, ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, dest, "destination", err);
    if (st != SSCHED_OK)
        return st;
    if (prefer_dp(c, dest, 0))
        return ssched_mk_reduce_dpk(c, dest, out, stats, err);
    ssched_mk_bnb_options_t o;
    ssched_mk_bnb_options(&o, SSCHED_MK_BNB_FULL);
    apply_limits(&o, lim);
    return ssched_mk_reduce_bnb(c, dest, &o, out, stats, err);
}

ssched_status_t ssched_mk_broadcast_optimal_limited(const ssched_mk_cluster_t *c, size_t src,
                                                    const ssched_mk_limits_t *lim,
                                                    ssched_mk_schedule_t *out,
                                                    ssched_mk_stats_t *stats,
                                                    ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, src, "source", err);
    if (st != SSCHED_OK)
        return st;
    if (prefer_dp(c, src, 1))
        return ssched_mk_broadcast_dpk(c, src, out, stats, err);
    ssched_mk_bnb_options_t o;
    ssched_mk_bnb_options(&o, SSCHED_MK_BNB_FULL);
    apply_limits(&o, lim);
    return ssched_mk_broadcast_bnb(c, src, &o, out, stats, err);
}
