/* matching/internal.h — shared between the files of matching/ only.
 *
 * Story of the folder:
 *   bipartite.c           the caller's multigraph, validation, degrees
 *   regularize.c          padding to a D-regular bipartite graph of "pairs"
 *   bipartite_matching.c  Hopcroft–Karp on the pairs, warm-started, restricted
 *                         to the pairs of rank <= a threshold
 *   bottleneck.c          max-min (bottleneck) perfect matching by a
 *                         galloping + binary search on that threshold
 *   decompose.c           the rounds: match, subtract, re-rank
 *   expand.c              map each round back to the caller's edges (splits
 *                         along parallel edges and slack), merge equal steps
 *   verify.c              the independent checker
 *   qheap.c               indexed min-heap of pairs by an mpz key (lazy
 *                         rounds of the arbitrary rule) */
#ifndef SSCHED_MATCHING_INTERNAL_H
#define SSCHED_MATCHING_INTERNAL_H

#include <gmp.h>
#include <stddef.h>

#include "ssched/matching.h"
#include "src/util/internal.h"

#define MT_NONE ((size_t)-1)

/* ---- bipartite.c ---- */
SSCHED_INTERNAL mpz_t *ssched_i_mt_mpz_array(size_t n);             /* n initialised mpz, or NULL */
SSCHED_INTERNAL void ssched_i_mt_mpz_array_free(mpz_t *a, size_t n);
SSCHED_INTERNAL void ssched_i_mt_degrees(const ssched_bipartite_t *g, mpz_t *deg_left,
                                         mpz_t *deg_right);
SSCHED_INTERNAL ssched_status_t ssched_i_mt_check_input(const ssched_bipartite_t *g, const mpz_t T,
                                                        mpz_t D, ssched_error_t *err);

/* ---- regularize.c ----
 * The padded graph: n nodes per side, every node of weighted degree D.
 * Its edges are "pairs": one per distinct (sender, receiver) of the padded
 * graph.  Pair p carries, in order, the caller edges between its endpoints
 * (edges[edge_start[p] .. edge_start[p+1]-1]) and then slack[p] dummy units
 * (0 = none).  This concatenation is the pair's "timeline"; expand.c cuts
 * it into the pieces that the rounds consume. */
typedef struct {
    size_t n;            /* nodes per side                                 */
    size_t n_pairs;
    size_t *pu, *pv;     /* padded endpoints of pair p                     */
    mpz_t *w;            /* total weight (caller edges + slack)            */
    mpz_t *slack;        /* dummy units at the end of the timeline         */
    size_t *edge_start;  /* n_pairs + 1 offsets into edges                 */
    size_t *edges;       /* caller edge indices grouped by pair            */
    size_t n_slack;      /* pairs with slack > 0                           */
    mpz_t degree;        /* D                                              */
} mt_padded_t;

/* Build the padded graph of g with D = max weighted degree (> 0).
 * Precondition: g valid, at least one edge. */
SSCHED_INTERNAL ssched_status_t ssched_i_mt_regularize(const ssched_bipartite_t *g, const mpz_t D,
                              mt_padded_t *out, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_mt_padded_free(mt_padded_t *p);

/* ---- bipartite_matching.c ----
 * Hopcroft–Karp on the padded graph.  Pair p is usable iff rank[p] <= limit
 * (dead pairs have rank MT_NONE).  mate_l[u] / mate_r[v] hold pair ids or
 * MT_NONE and persist between calls: that is the warm start. */
typedef struct {
    size_t n;
    size_t *adj_start, *adj_len, *adj;   /* left adjacency over pair ids  */
    size_t *radj_start, *radj_len, *radj; /* right adjacency, compacted too */
    const size_t *pu, *pv;
    size_t *rank;
    size_t *mate_l, *mate_r;
    size_t *dist, *queue, *iter, *stack, *via;
    size_t *saved;                       /* bottleneck.c: best matching  */
    size_t size;                         /* current matching size        */
} mt_hk_t;

SSCHED_INTERNAL ssched_status_t ssched_i_mt_hk_init(mt_hk_t *h, const mt_padded_t *g);
SSCHED_INTERNAL void ssched_i_mt_hk_free(mt_hk_t *h);
/* Drop dead pairs (rank MT_NONE) from the adjacency lists.  Precondition:
 * every dead pair not dropped yet is matched (mate_l), as after a round. */
SSCHED_INTERNAL void ssched_i_mt_hk_compact(mt_hk_t *h);
/* The same when the caller knows those left nodes (each once): O(their
 * lists) instead of a pass over every node. */
SSCHED_INTERNAL void ssched_i_mt_hk_compact_nodes(mt_hk_t *h, const size_t *nodes, size_t count);
/* Unmatch pairs of rank > limit, then augment to a maximum matching of the
 * pairs of rank <= limit.  Returns the matching size. */
SSCHED_INTERNAL size_t ssched_i_mt_hk_maximize(mt_hk_t *h, size_t limit);

/* ---- bottleneck.c ----
 * Leave in h a perfect matching of the live pairs maximising the minimum
 * weight (pairs ranked 0.. by decreasing weight, n_groups distinct weights).
 * Returns 0, or -1 if no perfect matching exists (a broken invariant). */
SSCHED_INTERNAL int ssched_i_mt_bottleneck_perfect(mt_hk_t *h, size_t n_groups);

/* ---- qheap.c ----
 * Min-heap of pair ids by key[p] (ties by id); pos[p] = its slot or MT_NONE.
 * A key must not change while its pair is in the heap. */
typedef struct {
    size_t *heap, *pos, n;
    const mpz_t *key;
} mt_qheap_t;

SSCHED_INTERNAL ssched_status_t ssched_i_mt_qheap_init(mt_qheap_t *q, size_t n_pairs,
                                                       const mpz_t *key);
SSCHED_INTERNAL void ssched_i_mt_qheap_free(mt_qheap_t *q);
SSCHED_INTERNAL void ssched_i_mt_qheap_push(mt_qheap_t *q, size_t p);
SSCHED_INTERNAL void ssched_i_mt_qheap_remove(mt_qheap_t *q, size_t p);

/* ---- sort.c ----
 * Stable merge sort of idx[0..n) by key[idx[i]], ascending or descending;
 * tmp has room for n entries. */
SSCHED_INTERNAL void ssched_i_mt_sort_by_mpz(size_t *idx, size_t n, const mpz_t *key,
                                             int descending, size_t *tmp);

/* ---- expand.c ---- */
typedef struct {
    const ssched_bipartite_t *g;
    const mt_padded_t *pg;
    size_t *seg;          /* per pair: current timeline segment            */
    mpz_t *used;          /* per pair: units consumed in that segment      */
    /* scratch for one round */
    size_t n_events, event_cap;
    size_t *ev_node, *ev_order, *ev_tmp;   /* event: left node, sort scratch */
    mpz_t *ev_offset;                      /* event: offset in the round     */
    size_t *cur;          /* per padded left node: its pair's segment now  */
    size_t *piece;        /* edges of the piece being emitted              */
    size_t out_cap;       /* capacity of out->matchings                    */
    mpz_t remaining, offset, len;
    /* lazy mode (arbitrary rule): a matched pair whose segment goes on
     * holds nb[p] = S + what is left of that segment, in q; used[p] is
     * then stale until the pair's boundary falls in a round or the
     * matching drops it.  S = Σ λ of the rounds so far. */
    int lazy;
    mt_qheap_t q;
    mpz_t *nb;
    size_t *prev;         /* per padded left node: its pair last round     */
    mpz_t S, E;
} mt_expand_t;

SSCHED_INTERNAL ssched_status_t ssched_i_mt_expand_init(mt_expand_t *x, const ssched_bipartite_t *g,
                               const mt_padded_t *pg);
SSCHED_INTERNAL void ssched_i_mt_expand_free(mt_expand_t *x);
/* Switch x (just initialised) to lazy mode: rounds must then be consecutive
 * rounds of one decomposition.  SSCHED_OK or SSCHED_ENOMEM. */
SSCHED_INTERNAL ssched_status_t ssched_i_mt_expand_lazy(mt_expand_t *x);
/* Append to out the pieces of one round: the perfect matching given by
 * mate_l (pair per padded left node) held for lambda units. */
SSCHED_INTERNAL ssched_status_t ssched_i_mt_expand_round(mt_expand_t *x, const size_t *mate_l,
                                const mpz_t lambda, ssched_matching_result_t *out,
                                ssched_error_t *err);
/* Merge steps with the same edge set (keeping the first one's position). */
SSCHED_INTERNAL ssched_status_t ssched_i_mt_merge_equal(ssched_matching_result_t *out,
                                                        ssched_error_t *err);

#endif
