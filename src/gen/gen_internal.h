/* Internal pieces of the platform generators (not a public header).
 *
 *   prng.c       deterministic pseudo-random numbers (xoshiro256**)
 *   value_set.c  the finite set of simple fractions a range draws from
 *   layout.c     Tiers-style network layout: grid points, Euclidean MST,
 *                redundancy links
 *   params.c     defaults, range parsing, validation, node/edge counts
 *   shape.c      --nodes N -> (W, M, L, H)
 *   tiers.c      the WAN/MAN/LAN assembly into an ssched_platform_t */
#ifndef SSCHED_GEN_INTERNAL_H
#define SSCHED_GEN_INTERNAL_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "ssched/error.h"
#include "ssched/gen.h"
#include "src/util/internal.h"

/* ---- prng.c ------------------------------------------------------------ */

/* xoshiro256** state (Blackman & Vigna).  Implemented here from the
 * published recurrence rather than rand(), so that a seed means the same
 * stream on every libc and platform. */
typedef struct {
    uint64_t s[4];
} gen_rng_t;

/* Seed stream `stream` of `seed`: the four state words are successive
 * splitmix64 outputs from a start value mixing seed and stream, so distinct
 * streams of one seed are unrelated and never all-zero. */
SSCHED_INTERNAL void ssched_i_gen_rng_seed(gen_rng_t *rng, uint64_t seed, uint64_t stream);
SSCHED_INTERNAL uint64_t ssched_i_gen_rng_next(gen_rng_t *rng);
/* Uniform integer in [0, n), n >= 1, without modulo bias (rejection). */
SSCHED_INTERNAL uint64_t ssched_i_gen_rng_below(gen_rng_t *rng, uint64_t n);

/* Streams used by ssched_gen_tiers (documented in gen.h). */
enum { GEN_STREAM_LAYOUT = 0, GEN_STREAM_C_WAN = 1, GEN_STREAM_C_MAN = 2,
       GEN_STREAM_C_LAN = 3, GEN_STREAM_W = 4 };

/* ---- value_set.c ------------------------------------------------------- */

/* The values a range draws from, in a fixed order: for q = 1..max_den the
 * fractions p/q in lowest terms inside [lo, hi] by increasing p, then lo and
 * hi themselves if their denominators exceed max_den. */
typedef struct {
    size_t count;
    mpq_t *values;
} gen_value_set_t;

/* Build the set.  EINPUT if it would exceed SSCHED_GEN_MAX_RANGE_VALUES
 * (message names `what`, e.g. "c_wan"), ENOMEM on allocation failure.
 * On failure the set is empty and needs no free. */
SSCHED_INTERNAL ssched_status_t ssched_i_gen_value_set_build(
        gen_value_set_t *set, const ssched_gen_range_t *range, unsigned long max_den,
        const char *what, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_gen_value_set_free(gen_value_set_t *set);
/* out = a uniformly drawn element. */
SSCHED_INTERNAL void ssched_i_gen_value_set_draw(const gen_value_set_t *set, gen_rng_t *rng,
                                                 mpq_t out);

/* ---- layout.c ---------------------------------------------------------- */

typedef struct {
    size_t a, b;    /* local indices inside the network, a != b */
} gen_link_t;

/* Lay out n routers of one network on a 1000x1000 integer grid (points
 * drawn from rng), connect them by the Euclidean minimum spanning tree
 * (Prim, ties to the lower index) and add the `redundancy` shortest
 * remaining pairs (ties by (a, b)), capped by the number of free pairs.
 * *links (malloc'ed, free()) receives the tree links first, each as
 * (tree parent, child) in the order Prim attaches them, then the extra
 * links as (a < b) by increasing length.  ENOMEM only. */
SSCHED_INTERNAL ssched_status_t ssched_i_gen_layout_network(size_t n, size_t redundancy,
                                                            gen_rng_t *rng, gen_link_t **links,
                                                            size_t *n_links, ssched_error_t *err);

/* Number of links ssched_i_gen_layout_network() produces for n routers. */
SSCHED_INTERNAL size_t ssched_i_gen_layout_link_count(size_t n, size_t redundancy);

/* ---- params.c ---------------------------------------------------------- */

/* Validate params (counts, limits, ranges).  EINPUT with one line naming
 * the offending parameter. */
SSCHED_INTERNAL ssched_status_t ssched_i_gen_tiers_validate(const ssched_gen_tiers_params_t *params,
                                   ssched_error_t *err);

#endif
