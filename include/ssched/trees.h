/* ssched/trees.h — reduction trees (RR-4872 §4.3–4.4).
 *
 * A steady-state reduce solution, scaled to an integer period T, is a
 * weighted sum of reduction trees (Lemma 2).  ssched_trees_extract() runs
 * EXTRACT_TREES / FIND_TREE of RR-4872 Fig. 8 on it: starting from v[0,N-1]
 * on the target, each input is explained by a computation on the same node
 * or by a transfer from a neighbour, down to the participants' own values;
 * the tree gets the smallest count among its tasks, which is subtracted.
 * The weighted sum of the trees equals the solution exactly: the function
 * checks that the remainder is zero and fails with SSCHED_EINTERNAL if not.
 *
 * Before extraction, transfer cycles of each interval are cancelled (they
 * carry nothing to the target, and FIND_TREE could follow them forever). */
#ifndef SSCHED_TREES_H
#define SSCHED_TREES_H

#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"
#include "ssched/platform.h"
#include "ssched/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SSCHED_TREE_SEND, SSCHED_TREE_COMPUTE } ssched_tree_task_kind_t;

/* "send", "compute" ("unknown" for any other value); parse: SSCHED_EINPUT
 * naming the text and the accepted names. */
const char *ssched_tree_task_kind_name(ssched_tree_task_kind_t v);
ssched_status_t ssched_tree_task_kind_parse(const char *text, ssched_tree_task_kind_t *out,
                                            ssched_error_t *err);

/* One task of a tree: send v[k,m] over `edge`, or compute T_{k,l,m} on
 * `node`.  `parent` is the index of the task that consumes the result
 * (SIZE_MAX for the root, whose result is v[0,N-1] on the target). */
typedef struct {
    ssched_tree_task_kind_t kind;
    size_t edge;          /* send    */
    size_t node;          /* compute */
    size_t k, l, m;       /* interval [k,m]; l is the split of a computation */
    size_t parent;
    size_t depth;         /* distance from the root                        */
} ssched_tree_task_t;

typedef struct {
    mpz_t weight;         /* instances of this tree per period            */
    size_t n_tasks;
    ssched_tree_task_t *tasks;   /* pre-order from the root                */
    /* Commutative reduce (problem->commutative): order[i] is the
     * participant index (into problem->participants) at position i of this
     * tree, a permutation of 0..N-1; an interval [k,m] of this tree's tasks
     * denotes the SET {order[k], ..., order[m]}.  Every commutative
     * reduction tree is an ordered one on the participants listed in its
     * depth-first order, so the ordered machinery applies per tree.  NULL
     * for an ordered reduce (the identity).  Owned (malloc'ed) by the tree. */
    size_t *order;
} ssched_tree_t;

typedef struct {
    mpz_t period;         /* T: every count and busy time is an integer   */
    mpz_t ops_per_period; /* sum of the weights = TP * T                  */
    size_t n_trees;
    ssched_tree_t *trees;
} ssched_trees_t;

void ssched_trees_init(ssched_trees_t *t);
void ssched_trees_free(ssched_trees_t *t);

/* Trees from a steady-state solution (extraction, from rates,
 * verification) are declared in ssched/steady.h, which includes this
 * header: trees.h does not depend on steady.h. */

/* Writers (text, Graphviz): ssched/export.h. */

/* ---- Weighted arborescences (issue 14: pipelined broadcast) -------------
 *
 * A digraph is given as n nodes and m arcs from[e] -> to[e] (parallel arcs
 * allowed; self-loops and arcs into the root are ignored).  An
 * r-arborescence is a set of arcs in which every spanned node but r has
 * exactly one in-arc and is reached from r.
 *
 * Minimum cost (Chu & Liu 1965, Edmonds 1967; Schrijver, Combinatorial
 * Optimization, 2003, ch. 52): select the cheapest in-arc of every node, contract
 * each cycle of the selection after subtracting the selected cost from the
 * arcs entering it, recurse, expand; O(nm) exact mpq operations, any sign
 * of cost.  Spanning a prescribed subset only is the NP-hard Steiner
 * problem, so the contract is: the arborescence spans EVERY node reachable
 * from r; `required` (NULL = every node) only names the nodes whose
 * unreachability means "no arborescence" (*found = 0, SSCHED_OK).
 *
 * Packing (Edmonds' branching theorem, Edmonds 1973; Schrijver ch. 53
 * for the capacitated form): if x >= 0 and every set S of non-root nodes
 * has x(arcs entering S) >= lambda — i.e. maxflow_x(r -> v) >= lambda for
 * every v — then there are r-arborescences A_1..A_k and weights y_i > 0
 * with sum y_i = lambda and sum_{i : e in A_i} y_i <= x(e) for every arc.
 * ssched_arborescence_pack() makes Lovász's proof of the theorem (1976,
 * "On two minimax theorems in graph", JCT B 21) algorithmic and exact
 * (trees/arborescence_pack.c has the proof sketch): grow one
 * arborescence in supp(x) that enters every lambda-tight set exactly
 * once, give it the largest weight eps keeping the cut condition
 * for (x - eps*A, lambda - eps) (Newton's method on exact min cuts),
 * subtract, repeat.  Each round zeroes an arc or makes a new, linearly
 * independent set tight, so k <= |supp(x)| + 1 (k <= |supp(x)| when lambda
 * is the min cut); each round costs O(n^2) exact max-flows in the worst
 * case (about 2n measured).  Every number is an exact rational.
 *
 * Spanned nodes.  Node v is spanned iff it is reachable from r inside
 * supp(x) and survives pruning: a node that is not required and whose
 * max-flow from r is < lambda inside the kept nodes cannot be in every
 * arborescence, so it is dropped with its arcs (repeatedly; this gives
 * the unique largest kept set).  A required node whose max-flow is below
 * a given lambda, or that is unreachable while lambda > 0, is
 * SSCHED_EINPUT naming it.  Dropping relays is only a heuristic for the
 * Steiner case (packing Steiner trees has no min-cut theorem and is
 * NP-hard): a dropped relay could have carried flow to required nodes.
 * With required == NULL nothing is ever dropped.  A node with zero inflow
 * in x is never spanned: give it x > 0 or do not require it.  Max-flows
 * are Edmonds–Karp, exact (trees/arborescence_flow.c). */

typedef struct {
    size_t n_arcs;
    size_t *arcs;     /* arc indices, sorted by head node                */
    mpq_t weight;     /* packing: y_i; min-cost: the total cost          */
} ssched_arborescence_t;

void ssched_arborescence_init(ssched_arborescence_t *a);
void ssched_arborescence_free(ssched_arborescence_t *a);

typedef struct {
    size_t n_nodes;
    unsigned char *spanned; /* n_nodes flags: the nodes every item spans  */
    mpq_t value;            /* lambda = sum of the weights                */
    size_t count;
    ssched_arborescence_t *items;
    size_t maxflows;        /* exact max-flow computations (for reports)  */
} ssched_arborescences_t;

void ssched_arborescences_init(ssched_arborescences_t *p);
void ssched_arborescences_free(ssched_arborescences_t *p);

/* Minimum-cost arborescence rooted at `root` spanning every node reachable
 * from it (see above).  *found = 0 (and out empty) when a required node is
 * unreachable.  EINPUT: root or an arc end out of range, NULL arrays with
 * m > 0.  out must be initialised; its previous content is replaced. */
ssched_status_t ssched_arborescence_min_cost(size_t n_nodes, size_t n_arcs, const size_t *from,
                                             const size_t *to, const mpq_t *cost, size_t root,
                                             const unsigned char *required, int *found,
                                             ssched_arborescence_t *out, ssched_error_t *err);

/* Weighted arborescences packing exactly lambda into capacities cap.
 * lambda == NULL: lambda = the largest value the kept nodes allow, i.e.
 * min over required nodes of maxflow(r -> v) after pruning (0, with an
 * empty packing, if a required node is unreachable).  EINPUT (one line):
 * root or an arc end out of range, a negative capacity or lambda, lambda
 * above a required node's max-flow.  The result is checked with
 * ssched_arborescences_check() before returning (EINTERNAL if it fails).
 * out must be initialised; its previous content is replaced. */
ssched_status_t ssched_arborescence_pack(size_t n_nodes, size_t n_arcs, const size_t *from,
                                         const size_t *to, const mpq_t *cap, size_t root,
                                         mpq_srcptr lambda, const unsigned char *required,
                                         ssched_arborescences_t *out, ssched_error_t *err);

/* Independent check of a packing: every item has positive weight, one
 * in-arc per spanned non-root node and none elsewhere, arcs inside the
 * spanned set, every spanned node reached from root; the weights sum to
 * p->value; every arc's load is <= cap.  SSCHED_OK with report->valid
 * (error.h), the violation naming the first failed property; SSCHED_EINPUT
 * for root out of range or a packing over another number of nodes. */
ssched_status_t ssched_arborescences_check(size_t n_nodes, size_t n_arcs, const size_t *from,
                                           const size_t *to, const mpq_t *cap, size_t root,
                                           const ssched_arborescences_t *p,
                                           ssched_check_report_t *report, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
