/* ssched/matching.h — weighted bipartite edge colouring (RR-4872 §3.3).
 *
 * A periodic one-port schedule needs the transfers of one period split into
 * communication steps in which every node sends to at most one node and
 * receives from at most one node.  With senders on the left, receivers on
 * the right and an edge (u, v, w) for "u sends to v for w time units", a step
 * is a matching, and the classical weighted edge-colouring theorem
 * (König; Schrijver, Combinatorial Optimization vol. A, ch. 20) says that a
 * bipartite multigraph of maximum weighted degree D is a weighted sum of
 * matchings whose coefficients add up to D:
 *
 *     for every edge e:  Σ_{i : e ∈ M_i} λ_i = w(e),     Σ_i λ_i = D ≤ T.
 *
 * ssched_matching_decompose() computes such a decomposition exactly (mpz
 * weights, no machine-integer conversion, so LCM periods beyond 2^64 are
 * fine).  The graph is padded to a D-regular bipartite graph; each round takes
 * a perfect matching of the positive-weight edges and subtracts its smallest
 * weight, which zeroes at least one edge.  By default the perfect matching is
 * a BOTTLENECK one (largest possible minimum weight), which subtracts as much
 * as possible per round and so yields fewer matchings; the classical
 * "any perfect matching" rule is available for comparison.
 *
 * Parallel edges are allowed (several message types on one link); the
 * caller's edge indices are kept.  An edge may appear in several matchings:
 * that is a split message.  Padding (dummy) edges never appear in the output.
 *
 * ssched_matching_check() is the independent checker of all the above. */
#ifndef SSCHED_MATCHING_H
#define SSCHED_MATCHING_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>
#include <stddef.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* Bipartite multigraph: senders 0..n_left-1, receivers 0..n_right-1.      */

typedef struct {
    size_t left;    /* sender,   < n_left                */
    size_t right;   /* receiver, < n_right               */
    mpz_t weight;   /* time units, > 0                   */
} ssched_bipartite_edge_t;

typedef struct {
    size_t n_left, n_right;
    size_t n_edges, edge_cap;
    ssched_bipartite_edge_t *edges;   /* edge i is the caller's index i   */
} ssched_bipartite_t;

/* Empty graph on n_left senders and n_right receivers.  Always succeeds;
 * pair with ssched_bipartite_free(). */
void ssched_bipartite_init(ssched_bipartite_t *g, size_t n_left, size_t n_right);
void ssched_bipartite_free(ssched_bipartite_t *g);

/* Append edge left -> right of the given weight; *index (may be NULL)
 * receives its index (= the number of edges added before it).  Rejects
 * (SSCHED_EINPUT) an endpoint out of range and a weight <= 0. */
ssched_status_t ssched_bipartite_add_edge(ssched_bipartite_t *g, size_t left,
                                          size_t right, const mpz_t weight,
                                          size_t *index, ssched_error_t *err);

/* Check every edge (endpoints in range, weight > 0): the fields are public,
 * so decompose/check re-check what add_edge already enforced.  This
 * validates an input graph, it is not an independent checker of an output:
 * a bad edge is SSCHED_EINPUT (no ssched_check_report_t). */
ssched_status_t ssched_bipartite_check(const ssched_bipartite_t *g,
                                       ssched_error_t *err);

/* out = the maximum weighted degree D over all senders and receivers (0 for
 * an edgeless graph): the smallest admissible bound T and the length of an
 * optimal decomposition.  Fails like ssched_bipartite_check(). */
ssched_status_t ssched_bipartite_max_degree(const ssched_bipartite_t *g,
                                            mpz_t out, ssched_error_t *err);

/* ---------------------------------------------------------------------- */
/* Decomposition into weighted matchings.                                  */

typedef enum {
    SSCHED_MATCHING_BOTTLENECK = 0,  /* max-min weight perfect matchings    */
    SSCHED_MATCHING_ARBITRARY  = 1   /* any perfect matching (classical)    */
} ssched_matching_rule_t;

/* "bottleneck", "arbitrary" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_matching_rule_name(ssched_matching_rule_t v);
ssched_status_t ssched_matching_rule_parse(const char *text, ssched_matching_rule_t *out,
                                           ssched_error_t *err);

typedef struct {
    mpz_t lambda;       /* duration of the step, > 0                       */
    size_t n_edges;
    size_t *edges;      /* caller edge indices, ascending; a matching      */
} ssched_matching_t;

typedef struct {
    size_t n_matchings;               /* r                                 */
    ssched_matching_t *matchings;     /* (M_1, λ_1) .. (M_r, λ_r)          */
    mpz_t total;         /* Σ λ_i; always equals the max weighted degree D */
    ssched_matching_rule_t rule;
    /* Size of the padded D-regular graph and the proven bound on r:
     *   r <= bound = n_edges + slack_edges - padded_nodes + 1
     * (each round zeroes an edge, the last one zeroes padded_nodes edges,
     * and a split of one of the caller's parallel edges or of a real/dummy
     * edge boundary costs at most one extra matching; see decompose.c). */
    size_t padded_nodes;  /* nodes per side after padding                  */
    size_t padded_edges;  /* distinct (sender, receiver) pairs after padding */
    size_t slack_edges;   /* dummy slack edges added by the padding        */
    size_t rounds;        /* perfect matchings taken on the padded graph   */
    size_t bound;
} ssched_matching_result_t;

/* Empty result (r = 0).  Always succeeds; pair with _free().  A result may
 * be passed to ssched_matching_decompose() again: it is reset first. */
void ssched_matching_result_init(ssched_matching_result_t *r);
void ssched_matching_result_free(ssched_matching_result_t *r);

/* Decompose g into weighted matchings with Σ λ = D <= T.
 * Preconditions: T >= D, every edge valid.  Otherwise SSCHED_EINPUT with a
 * message naming the edge, or the node and its degree.  On success *out
 * holds the decomposition (already passed through ssched_matching_check;
 * a failure there is reported as SSCHED_EINTERNAL).  Time: O(R · log(m) ·
 * HK) for the bottleneck rule, R <= bound rounds, HK = one warm-started
 * Hopcroft–Karp on the padded graph of m pairs. */
ssched_status_t ssched_matching_decompose(const ssched_bipartite_t *g,
                                          const mpz_t T,
                                          ssched_matching_rule_t rule,
                                          ssched_matching_result_t *out,
                                          ssched_error_t *err);

/* Independent check of a decomposition: every λ_i > 0; every M_i lists valid
 * edge indices, without repetition, using each sender and each receiver at
 * most once; for every edge Σ_{i: e ∈ M_i} λ_i = weight(e) exactly; Σ λ_i
 * <= T and equals r->total.  Returns SSCHED_OK with report->valid (error.h),
 * the violation naming the first failed property (matching, edge, node);
 * SSCHED_EINPUT if g or T is itself invalid. */
ssched_status_t ssched_matching_check(const ssched_bipartite_t *g,
                                      const mpz_t T,
                                      const ssched_matching_result_t *r,
                                      ssched_check_report_t *report,
                                      ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
