/* Bottleneck (max-min weight) perfect matching.
 *
 * Why: every round of the decomposition subtracts λ = the minimum weight of
 * the chosen perfect matching and emits one step.  Choosing the perfect
 * matching whose minimum weight is as large as possible removes the most
 * weight per step, so large edges are not chopped into many small steps and
 * the decomposition has fewer matchings (measured in bench/matching.sh).
 *
 * How: pairs are ranked 0, 1, ... by decreasing weight (equal weights share a
 * rank).  "A perfect matching exists among the pairs of rank <= k" is
 * monotone in k and true for the largest k (the live graph is regular), so
 * the smallest such k* is found by search; the perfect matching at k* is a
 * bottleneck one.  Every node needs one usable pair, so k* >= the maximum
 * over nodes of their smallest incident rank; the search starts there and
 * gallops (lo, lo+1, lo+3, lo+7, ...) because k* is usually close to that
 * bound, then bisects.  Each probe is one warm-started Hopcroft–Karp
 * (Gabow & Tarjan, "Algorithms for two bottleneck optimization problems",
 * J. Algorithms 9, 1988, use the same threshold idea). */
#include <string.h>

#include "matching/internal.h"

/* Probe threshold k: 1 iff the pairs of rank <= k hold a perfect matching
 * (which h then contains). */
static int feasible(mt_hk_t *h, size_t k)
{
    return ssched_i_mt_hk_maximize(h, k) == h->n;
}

static void save(mt_hk_t *h)
{
    memcpy(h->saved, h->mate_l, h->n * sizeof *h->saved);
}

static void restore(mt_hk_t *h)
{
    for (size_t x = 0; x < h->n; x++)
        h->mate_r[x] = MT_NONE;
    for (size_t u = 0; u < h->n; u++) {
        h->mate_l[u] = h->saved[u];
        h->mate_r[h->pv[h->saved[u]]] = h->saved[u];
    }
    h->size = h->n;
}

/* Smallest threshold any perfect matching needs: max over all nodes of the
 * smallest rank of a live incident pair.  Uses h->dist / h->queue as
 * scratch (free outside ssched_i_mt_hk_maximize). */
static size_t rank_lower_bound(mt_hk_t *h)
{
    size_t *min_l = h->dist, *min_r = h->queue, lo = 0;
    for (size_t x = 0; x < h->n; x++)
        min_l[x] = min_r[x] = MT_NONE;
    for (size_t u = 0; u < h->n; u++) {
        const size_t *a = h->adj + h->adj_start[u];
        for (size_t i = 0; i < h->adj_len[u]; i++) {
            size_t p = a[i], r = h->rank[p];
            if (r < min_l[u])
                min_l[u] = r;
            if (r < min_r[h->pv[p]])
                min_r[h->pv[p]] = r;
        }
    }
    for (size_t x = 0; x < h->n; x++) {
        if (min_l[x] > lo)
            lo = min_l[x];
        if (min_r[x] > lo)
            lo = min_r[x];
    }
    return lo;
}

int ssched_i_mt_bottleneck_perfect(mt_hk_t *h, size_t n_groups)
{
    if (n_groups == 0)
        return -1;
    size_t lo = rank_lower_bound(h), hi = n_groups - 1;
    size_t best = MT_NONE, last = MT_NONE;
    if (lo > hi)
        return -1; /* a node without live pairs: not regular */

    /* Gallop from the lower bound. */
    size_t step = 1, probe = lo;
    while (lo < hi && probe < hi) {
        last = probe;
        if (feasible(h, probe)) {
            hi = probe;
            best = probe;
            save(h);
            break;
        }
        lo = probe + 1;
        probe = lo + step;
        step *= 2;
    }
    /* Bisect [lo, hi]; hi is feasible (found above, or the full graph). */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        last = mid;
        if (feasible(h, mid)) {
            hi = mid;
            best = mid;
            save(h);
        } else {
            lo = mid + 1;
        }
    }
    if (best != lo) {
        /* k* = lo was never probed (it is the top of the range). */
        return feasible(h, lo) ? 0 : -1;
    }
    if (last != best)
        restore(h);
    return 0;
}
