/* --nodes N: choose the hierarchy shape (W, M, L, H) for about N nodes.
 *
 * Benchmarks ask for platforms "of about N nodes" (RR-4872 §4.7 used a
 * Tiers platform of a few dozen nodes).  The mapping must be deterministic
 * and explainable, and should not produce degenerate shapes (one WAN router
 * with 40 hosts per LAN) just because N happens to factor that way.  So we
 * search only balanced shapes — all four counts within 4 of each other,
 * W >= 2 so that there is a real WAN — and take the one with the closest
 * node count; ties: smaller spread, then lexicographically smallest
 * (W, M, L, H).  See gen.h for the resulting benchmark shapes. */
#include "src/gen/gen_internal.h"

#define SHAPE_MAX 64u
#define SHAPE_SPREAD 4u

static size_t shape_nodes(size_t W, size_t M, size_t L, size_t H)
{
    return W * (1 + M * (1 + L * (1 + H)));
}

ssched_status_t ssched_gen_tiers_shape_for_nodes(ssched_gen_tiers_params_t *params,
                                                 size_t nodes, ssched_error_t *err)
{
    if (nodes < 1 || nodes > SSCHED_GEN_MAX_NODES)
        return ssched_error_set(err, SSCHED_EINPUT, "nodes: must be in [1, %u]",
                                SSCHED_GEN_MAX_NODES);
    size_t best[4] = {0, 0, 0, 0}, best_diff = SIZE_MAX, best_spread = SIZE_MAX;
    /* Loops in lexicographic order and a strict '<' on (diff, spread) give
     * the lexicographic tie-break for free.  H is the innermost count; the
     * node count grows with it, so once it passes N (and is already farther
     * than the best) larger H cannot help. */
    for (size_t W = 2; W <= SHAPE_MAX; W++)
        for (size_t M = 1; M <= SHAPE_MAX; M++)
            for (size_t L = 1; L <= SHAPE_MAX; L++)
                for (size_t H = 1; H <= SHAPE_MAX; H++) {
                    size_t hi = W, lo = W;
                    size_t v[3] = {M, L, H};
                    for (int i = 0; i < 3; i++) {
                        hi = v[i] > hi ? v[i] : hi;
                        lo = v[i] < lo ? v[i] : lo;
                    }
                    size_t t = shape_nodes(W, M, L, H);
                    size_t diff = t > nodes ? t - nodes : nodes - t;
                    if (hi - lo <= SHAPE_SPREAD &&
                        (diff < best_diff || (diff == best_diff && hi - lo < best_spread))) {
                        best_diff = diff;
                        best_spread = hi - lo;
                        best[0] = W;
                        best[1] = M;
                        best[2] = L;
                        best[3] = H;
                    }
                    if (t > nodes && diff > best_diff)
                        break;
                }
    params->wan = best[0];
    params->man_per_wan = best[1];
    params->lan_per_man = best[2];
    params->hosts_per_lan = best[3];
    return SSCHED_OK;
}
