/* ssched/gen.h — seeded platform generators.
 *
 * `ssched_gen_tiers` builds a hierarchical WAN -> MAN -> LAN platform in the
 * spirit of Tiers (K. Calvert, M. Doar, E. Zegura, "Modeling Internet
 * topology", IEEE Communications Magazine 35(6), 1997), the generator used
 * for the experiments of RR-4872 §4.7.  Like Tiers, each routed network is
 * laid out on a grid, connected by its Euclidean minimum spanning tree, and
 * made redundant with extra short links; LANs are stars.  Unlike Tiers,
 * costs are not derived from distances but drawn per level from exact
 * rational ranges, and every physical link becomes two directed edges whose
 * costs are drawn independently (links may be asymmetric).
 *
 * Structure for params P (W = P.wan, M = P.man_per_wan, L = P.lan_per_man,
 * H = P.hosts_per_lan):
 *   - WAN routers  wan<a>             a < W      MST + wan_redundancy links
 *   - MAN routers  man<a>_<b>         b < M      one MAN network per WAN
 *     router; MST + man_redundancy links; gateway man<a>_0 <-> wan<a>
 *   - LAN switches lan<a>_<b>_<c>     c < L      each linked to man<a>_<b>
 *   - hosts        h<a>_<b>_<c>_<d>   d < H      star around lan<a>_<b>_<c>
 * Hosts carry a task time w drawn from P.w; routers and switches have no w.
 * Link costs: WAN-WAN and MAN-gateway-to-WAN links use P.c_wan; MAN-MAN and
 * LAN-switch-to-MAN links use P.c_man; switch-host links use P.c_lan (a link
 * is drawn from the range of the slower level it touches).
 *
 * Nodes:  W * (1 + M * (1 + L * (1 + H)))
 * Links:  (W - 1) + Rw + W * (M ? M + Rm : 0) + W*M*L*(1 + H),  edges = 2 * links,
 * where Rw (resp. Rm) is wan_redundancy (man_redundancy) capped by the number
 * of router pairs of the network not already linked by its tree.
 *
 * Exact costs: a range lo:hi is turned into the finite set
 *   { p/q in lowest terms : 1 <= q <= max_den, lo <= p/q <= hi } U {lo, hi}
 * and each cost is drawn uniformly from that set, so every value is a simple
 * fraction (denominator <= max_den, default 10) except possibly the bounds
 * themselves.  Randomness: xoshiro256** seeded through splitmix64, with
 * separate streams for the layout, the three cost levels and the host
 * times, so the same seed and parameters give byte-identical platforms on
 * every machine, and changing one range does not re-draw the others. */
#ifndef SSCHED_GEN_H
#define SSCHED_GEN_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "ssched/error.h"
#include "ssched/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits checked by ssched_gen_tiers_counts() (EINPUT beyond them). */
#define SSCHED_GEN_MAX_NODES 100000u       /* total nodes                    */
#define SSCHED_GEN_MAX_NETWORK 1000u       /* W and M (MST/redundancy O(n^2)) */
#define SSCHED_GEN_MAX_DEN 1000u           /* max_den                        */
#define SSCHED_GEN_MAX_RANGE_VALUES 100000u /* size of one range's value set */

/* An exact closed range [lo, hi] with 0 < lo <= hi. */
typedef struct {
    mpq_t lo, hi;
} ssched_gen_range_t;

typedef struct {
    uint64_t seed;
    size_t wan;            /* W: WAN routers (>= 1)                        */
    size_t man_per_wan;    /* M: MAN routers per WAN router (>= 0)         */
    size_t lan_per_man;    /* L: LANs per MAN router (>= 0)                */
    size_t hosts_per_lan;  /* H: hosts per LAN (>= 0)                      */
    size_t wan_redundancy; /* extra WAN links beyond the spanning tree     */
    size_t man_redundancy; /* extra links per MAN network beyond its tree  */
    ssched_gen_range_t c_wan, c_man, c_lan; /* link cost ranges per level  */
    ssched_gen_range_t w;  /* host task-time range                         */
    unsigned long max_den; /* largest denominator drawn (>= 1)             */
} ssched_gen_tiers_params_t;

/* Initialise params with the defaults: seed 1, W=4, M=2, L=2, H=3 (76
 * nodes), wan_redundancy 2, man_redundancy 1, c_wan 2:10, c_man 1:4,
 * c_lan 1/10:1, w 1/2:5, max_den 10.  Pair with ssched_gen_tiers_params_free(). */
void ssched_gen_tiers_params_init(ssched_gen_tiers_params_t *params);
void ssched_gen_tiers_params_free(ssched_gen_tiers_params_t *params);

/* Parse a range "lo:hi" (or a single value "v" meaning v:v); each bound is
 * an exact number as accepted by ssched_rational_parse().  EINPUT unless
 * 0 < lo <= hi. */
ssched_status_t ssched_gen_range_parse(ssched_gen_range_t *range, const char *text,
                                       ssched_error_t *err);

/* Choose W, M, L, H so that the platform has about `nodes` nodes (the other
 * fields are left alone).  Deterministic rule: among all shapes with
 * 2 <= W <= 64, 1 <= M, L, H <= 64 and max(W,M,L,H) - min(W,M,L,H) <= 4
 * (a balanced hierarchy), take the one whose node count is closest to
 * `nodes`; ties go to the smaller spread max-min, then to the
 * lexicographically smallest (W, M, L, H).  Exact for the benchmark sizes:
 * 20 -> (2,1,2,3), 46 -> (2,2,2,4), 66 -> (3,3,2,2), 99 -> (3,2,3,4),
 * 300 -> (3,3,4,7), 500 -> (4,4,5,5).  EINPUT if nodes is 0 or above
 * SSCHED_GEN_MAX_NODES. */
ssched_status_t ssched_gen_tiers_shape_for_nodes(ssched_gen_tiers_params_t *params,
                                                 size_t nodes, ssched_error_t *err);

/* Validate params and report the node and directed-edge counts that
 * ssched_gen_tiers() will produce (either pointer may be NULL). */
ssched_status_t ssched_gen_tiers_counts(const ssched_gen_tiers_params_t *params,
                                        size_t *n_nodes, size_t *n_edges,
                                        ssched_error_t *err);

/* Generate the platform.  `out` must be initialised (ssched_platform_init);
 * on success its previous content is freed and replaced by the finalized
 * platform; on failure it is left untouched.  EINPUT for invalid params,
 * ENOMEM on allocation failure. */
ssched_status_t ssched_gen_tiers(const ssched_gen_tiers_params_t *params,
                                 ssched_platform_t *out, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
