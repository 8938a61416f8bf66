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
 * building them let the chosen method report it. */
static int prefer_dp(const ssched_mk_cluster_t *c, size_t root, int broadcast)
{
    mk_classes_t k;
    ssched_error_t ignored;
    if (mk_classes_build(c, root, broadcast, broadcast ? "source" : "destination", &k,
                         &ignored) != SSCHED_OK)
        return 1;
    uint64_t w = broadcast ? mk_dpk_broadcast_work(&k) : mk_dpk_reduce_work(&k);
    long double entries = broadcast ? (long double)k.k : 1;
    for (size_t i = 0; i < k.k; i++)
        entries *= (long double)k.count[i] + 1;
    mk_classes_free(&k);
    return w <= DP_WORK_LIMIT && entries <= (long double)(1 << 23);
}

ssched_status_t ssched_mk_reduce_optimal(const ssched_mk_cluster_t *c, size_t dest,
                                         ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                         ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, dest, "destination", err);
    if (st != SSCHED_OK)
        return st;
    if (prefer_dp(c, dest, 0))
        return ssched_mk_reduce_dpk(c, dest, out, stats, err);
    ssched_mk_bnb_options_t o;
    ssched_mk_bnb_options(&o, SSCHED_MK_BNB_FULL);
    return ssched_mk_reduce_bnb(c, dest, &o, out, stats, err);
}

ssched_status_t ssched_mk_broadcast_optimal(const ssched_mk_cluster_t *c, size_t src,
                                            ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                            ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, src, "source", err);
    if (st != SSCHED_OK)
        return st;
    if (prefer_dp(c, src, 1))
        return ssched_mk_broadcast_dpk(c, src, out, stats, err);
    ssched_mk_bnb_options_t o;
    ssched_mk_bnb_options(&o, SSCHED_MK_BNB_FULL);
    return ssched_mk_broadcast_bnb(c, src, &o, out, stats, err);
}
