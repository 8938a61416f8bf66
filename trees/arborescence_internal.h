/* Private helpers of the arborescence code (trees/arborescence*.c). */
#ifndef SSCHED_ARBORESCENCE_INTERNAL_H
#define SSCHED_ARBORESCENCE_INTERNAL_H

#include <gmp.h>
#include <stddef.h>

#include "ssched/error.h"
#include "ssched/trees.h"
#include "src/util/internal.h"

/* An element a + b*eps of the ordered field Q(eps), eps a positive
 * infinitesimal, compared lexicographically.  The packing needs cut values
 * "lambda - eps" exactly (a set that is tight and crossed once by the
 * partial arborescence), which no concrete eps could give without a
 * separate bound on how small it must be. */
typedef struct {
    mpq_t a, b;
} af_val_t;

SSCHED_INTERNAL void ssched_i_af_val_init(af_val_t *v);
SSCHED_INTERNAL void ssched_i_af_val_clear(af_val_t *v);
SSCHED_INTERNAL int ssched_i_af_val_cmp(const af_val_t *x, const af_val_t *y);

/* A flow network on the arcs of a digraph whose `usable` flag is set.
 * cap[e] is filled by the caller before each ssched_i_af_maxflow().  Max-flow by
 * shortest augmenting paths (Edmonds & Karp 1972): O(nm) augmentations
 * whatever the number field, so exact and polynomial. */
typedef struct {
    size_t n, m;
    const size_t *from, *to;
    size_t *out_start, *out_list, *in_start, *in_list;
    af_val_t *cap, *flow;
    size_t *pred, *queue;
    unsigned char *pred_back, *seen;
    af_val_t tmp, bott;
    size_t runs; /* max-flow computations, for reports */
} af_net_t;

/* ENOMEM only.  usable[e] == 0 arcs are left out of the network. */
SSCHED_INTERNAL ssched_status_t ssched_i_af_net_init(af_net_t *net, size_t n, size_t m,
                                                     const size_t *from, const size_t *to,
                                                     const unsigned char *usable,
                                                     ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_af_net_free(af_net_t *net);

/* Max flow from the nodes with is_source set to `sink` (not a source),
 * from zero.  With limit != NULL it stops as soon as the value exceeds
 * *limit (returns 1); otherwise it runs to the maximum (returns 0) and, if
 * sink_side != NULL, sets sink_side[v] = 1 exactly for the nodes that reach
 * the sink in the residual network: the inclusion-minimal sink side of a
 * minimum cut (every minimum cut's sink side contains it). */
SSCHED_INTERNAL int ssched_i_af_maxflow(af_net_t *net, const unsigned char *is_source, size_t sink,
                                        const af_val_t *limit, af_val_t *value,
                                        unsigned char *sink_side);

/* ssched_arborescence_min_cost's contract, computed level by level (Chu &
 * Liu 1965, Edmonds 1967; O(levels * m)): the reference the tests compare
 * the O(m log n) version with (trees/arborescence_levels.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_arborescence_min_cost_levels(
    size_t n_nodes, size_t n_arcs, const size_t *from, const size_t *to, const mpq_t *cost,
    size_t root, const unsigned char *required, int *found, ssched_arborescence_t *out,
    ssched_error_t *err);

/* The input checks and output reset both minimum-cost arborescence
 * versions start with (one contract, so one place): SSCHED_EINPUT naming
 * the bad root or arc, else out emptied (weight 0) and *found = 0. */
SSCHED_INTERNAL ssched_status_t ssched_i_arborescence_begin(
    size_t n_nodes, size_t n_arcs, const size_t *from, const size_t *to, const mpq_t *cost,
    size_t root, int *found, ssched_arborescence_t *out, ssched_error_t *err);

/* The start both versions share after ssched_i_arborescence_begin: the
 * nodes reachable from root over the arcs from -> to, relabelled 0..nr-1
 * in BFS order with the root 0 (lab[v]: SIZE_MAX when unreachable;
 * order[0..nr) the nodes), by a BFS over the arcs grouped by tail (a
 * counting sort, O(n + m); scanning every arc per node was O(nm), 10 s at
 * 10^4 nodes); then each arc relabelled (tail[e], head[e]) and alive[e]
 * (from a reachable node, not a loop, not into the root).  Returns nr; 0
 * when a required node (required NULL: every node) is unreachable (tail,
 * head, alive not set); SIZE_MAX when out of memory. */
SSCHED_INTERNAL size_t ssched_i_arborescence_reach(size_t n_nodes, size_t n_arcs, const size_t *from,
                                                   const size_t *to, size_t root,
                                                   const unsigned char *required, size_t *lab,
                                                   size_t *order, size_t *tail, size_t *head,
                                                   unsigned char *alive);

#endif
