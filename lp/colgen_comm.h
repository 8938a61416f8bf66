/* Commutative reduce by column generation over reduction in-trees
 * (private; lp/colgen_comm*.c, issue 14 item 2).
 *
 * Model.  Participants P (participant k owns value v_k), target t.  A
 * partial result is a SET of participants; a node with w merges two
 * disjoint ones in time w (one task, as in lp/build_reduce.c: the compute
 * cost does not scale with the message size); routers and switches only
 * forward.  A column is one reduction in-tree: its vertices are the
 * participants, the target and the optional merge points it uses (nodes
 * with w that are neither); every vertex but the root sends ONE partial
 * result to its parent vertex along a platform path (the nodes inside the
 * path only forward; each hop is one message costing size*c(e)), and a
 * vertex merges what it receives:
 *   participant with w      k children -> k merges (each with its own value)
 *   participant without w   no child: it only sends its own value
 *   optional merge point    k >= 1 children -> k-1 merges ("first input free")
 *   root at the target:     with w: k >= 1 children, k-1 merges; without w:
 *                           exactly one child, no merge (a target that is a
 *                           participant has its own vertex besides, which
 *                           may be the root's child in place, path empty).
 * Every tree makes exactly N-1 merges.
 *
 * Master: max sum_T y_T  s.t. the ordered colgen's rows (colgen_internal.h:
 * out-port, in-port per node, cpu per node with w, link per edge with a
 * switch end) <= 1.  The master is a cg_master_t with reduce = 1 whose
 * cg_column_t lists the tree's sends (edges, with multiplicity, sorted) and
 * merges (nodes, sorted; k = l = m = 0): only those enter the rows, so two
 * trees with the same sends and merges are the same column for the master.
 *
 * Pricing (duals pi >= 0): a tree costs sum over its sends of
 * size*c(e)*(pi_out(from) + pi_in(to) + pi_link(e), the rows e has) + sum
 * over its merges of w(v)*pi_cpu(v); it improves the master iff its cost is
 * < 1.  Auxiliary in-tree problem on the vertices: arc u -> v costs the
 * cheapest platform path from u to v under the edge costs + the merge cost
 * at v when v merges each input; the cheapest tree is a minimum-cost
 * in-arborescence into the root (Chu-Liu/Edmonds on the reversed arcs,
 * ssched_arborescence_min_cost), corrected by -w*pi_cpu once at a vertex
 * whose first input is free, with a penalty M on the root's in-arcs when the
 * root takes exactly one child (M > any arborescence's cost, so the
 * minimum uses one root arc whenever one suffices).  Exact when no merge
 * point is in play (no node with w outside the problem, and no cpu price
 * at a participant's node, see the column class below); otherwise
 * Steiner-like: see ssched_i_cgc_price().
 *
 * Output (ssched_i_cgc_interpret, lp/colgen_comm_result.c): steady->rated_trees /
 * tree_rates as for the ordered colgen (see the contract in that file). */
#ifndef SSCHED_LP_COLGEN_COMM_H
#define SSCHED_LP_COLGEN_COMM_H

#include <gmp.h>
#include <stddef.h>

#include "lp/colgen_internal.h"
#include "ssched/steady.h"
#include "src/util/internal.h"

/* Exact pricing (branch and bound, lp/colgen_comm_bb.inc) runs when at
 * most CGC_EXACT_OPT optional merge points (nodes with w outside the
 * problem) and at most CGC_EXACT_PLAY points in all (with the participants'
 * second roles that a cpu price puts in play) are in play.  The search runs
 * in doubles first, for at most CGC_BB_NODES nodes (the float phase's
 * candidates: CGC_BB_NODES_FLOAT); the exact search follows only when that
 * one completed within CGC_BB_EXACT nodes, and stops after 2x its nodes
 * (+256): an exact node costs ~30 float ones.  When a search stops, the
 * heuristics' tree and lower bound stand, as beyond the limits.  Measured
 * (bench/commut_exact.sh): random Tiers instances with up to 12 points take
 * at most a few hundred nodes; a dense random platform whose 17 nodes all
 * have w (tests/test_commutative_brute.inc, 12 points and 4 second roles)
 * needs more than 2^16. */
#define CGC_EXACT_OPT 12
#define CGC_EXACT_PLAY 24
#define CGC_BB_NODES (1L << 12)
#define CGC_BB_NODES_FLOAT (1L << 10)
#define CGC_BB_EXACT 2048L

/* Dual smoothing of the float pricing (colgen_comm.c, price_d): the
 * weight of the stability center.  Measured on the commut1000 row of
 * bench/scale.sh (CPU s, float rounds): 0 (none) 14.0 s, 254 rounds;
 * 0.01: 2.2 s, 56; 0.3: 1.8 s, 42; 0.5: 1.8 s, 44; 0.8: 1.8 s, 42;
 * 0.9: 3.2 s, 77.  The same certified TP each time. */
#define CGC_SMOOTH 0.5

/* Participant flows (N x edges) up to which the relaxation LP is solved for
 * the upper bound when Farley's bound exists too (colgen_comm.c). */
#define CGC_RELAX_MAX 20000

typedef enum {
    CGC_PART,      /* participant with w: merges every input                */
    CGC_LEAF,      /* participant without w (or the target's own value when
                      the target is a participant without w): no input     */
    CGC_OPT,       /* optional merge point: first input free                */
    CGC_ROOT_FREE, /* target, not a participant, with w: first input free   */
    CGC_ROOT_ONE   /* target without w: exactly one input, no merge         */
} cgc_kind_t;

/* Auxiliary vertices: 0..N-1 the participants (vertex k = participant k),
 * N the root at the target (a target that is a participant has its own
 * vertex too, which may hand its partial to the root in place, at cost 0,
 * or send it away), N+1.. the optional merge
 * points: every node with w outside the problem, then a second role for
 * every participant with w but the target (copy = 1: a merge point at its
 * node that does not take its own value, e.g. merging two partials sent on
 * while its own value goes elsewhere, as an ordered tree may do).
 *
 * Column class: reduction trees in which a node plays at most two roles
 * (its own value's vertex and one merge point).  A copy is in play for a
 * pricing call only when its node's cpu has a positive price: with price 0
 * it never lowers a tree's cost.  Exchange argument: a tree using copy o at
 * participant p (cpu price 0) becomes one without it and no dearer: if p's
 * own vertex is not below o, hang o's inputs on p (their paths end at p's
 * node; the merges at p are free) and drop o with its path: its parent x
 * loses an input (one merge less, or x, a point left without input, goes
 * too, recursively; x cannot be a root with o as its only input, since p
 * would then be below o); if p is below o, p's own vertex leaves its parent
 * (which loses an input likewise) and takes o's place, inputs and path. */
/* Buffers the float pricing keeps from one call to the next (lp/colgen_comm_arb.c):
 * slot k grows to the largest size asked, its contents do not survive.  Why:
 * a call of the commut1000 row (805 vertices in play) touched ~40 MB of
 * fresh pages, and faulting them in was a quarter of the solve. */
enum {
    CGC_WS_W, CGC_WS_A, CGC_WS_ARB, CGC_WS_SIDE, /* the dense arborescence   */
    CGC_WS_LAB, CGC_WS_DIST, CGC_WS_FIN, CGC_WS_PRED, /* the float pricing    */
    CGC_WS_SLOT, CGC_WS_PATHS, CGC_WS_COST, CGC_WS_ARCS, CGC_WS_DUMMY,
    CGC_WS_SLOTS
};
typedef struct cgc_ws cgc_ws_t;

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    size_t n, ne, N, nv, root;
    size_t n_opt;
    size_t *node;          /* per vertex: its platform node               */
    unsigned char *kind;   /* per vertex: cgc_kind_t                      */
    unsigned char *used;   /* per vertex: 0 for the unused vertex N       */
    unsigned char *copy;   /* per vertex: a participant's second role     */
    mpq_t *sc;             /* per edge: size * c(e)                       */
    cgc_ws_t *ws;          /* the float pricing's buffers (mutable)        */
} cgc_graph_t;

/* A tree: parent[v] (vertex, or SIZE_MAX for the root and for vertices not
 * in the tree) and the platform path of v to its parent,
 * edges[off[v] .. off[v+1]) in travel order.  nv entries per array. */
typedef struct {
    size_t nv;
    size_t *parent, *off, *edges;
} cgc_tree_t;

SSCHED_INTERNAL void ssched_i_cgc_tree_free(cgc_tree_t *t);

/* Pricing with the master's prices y (per node out/in/cpu, per edge link;
 * colgen_internal.h: a switch's port prices and a node without w's cpu
 * price are never read).  The all-reduce solver calls these too.
 *
 *   exact = 0: heuristics (exact anyway when no point is in play);
 *   exact = 1: also the exact branch and bound over the points in play
 *              (within CGC_EXACT_OPT / CGC_EXACT_PLAY, see above).
 * Returns 1 with the cheapest tree found (*tree, malloc'ed) and its cost
 * under y (exact in ssched_i_cgc_price_q; the _d version prices rounded costs and
 * recomputes the tree's cost in doubles), 0 if no tree was found (then
 * *proven = 1 when none exists), -1 on error (*status and err set).  ssched_i_cgc_price_q also gives `lower`, a
 * certified lower bound on the cost of EVERY reduction tree (may be <= 0),
 * and *proven = 1 when cost == lower, i.e. the tree is a cheapest one. */
SSCHED_INTERNAL int ssched_i_cgc_price_d(const cgc_graph_t *g, const cg_prices_d *y, int exact,
                                         cgc_tree_t *tree, double *cost, ssched_status_t *status,
                                         ssched_error_t *err);
SSCHED_INTERNAL int ssched_i_cgc_price_q(const cgc_graph_t *g, const cg_prices_q *y, int exact,
                                         cgc_tree_t *tree, mpq_ptr cost, mpq_ptr lower, int *proven,
                                         ssched_status_t *status, ssched_error_t *err);

/* Tree t's cost under prices y in doubles (mg: t->nv scratch entries);
 * NAN on ENOMEM. */
SSCHED_INTERNAL double ssched_i_cgc_tree_cost_d(const cgc_graph_t *g, const cg_prices_d *y,
                                                const cgc_tree_t *t, size_t *mg);

/* The same on per-edge and per-node costs (ecost[e] >= 0 for a message
 * over e, mcost[v] >= 0 for a merge on v). */
SSCHED_INTERNAL int ssched_i_cgc_price(const cgc_graph_t *g, const mpq_t *ecost, const mpq_t *mcost,
                                       int exact, cgc_tree_t *tree, mpq_ptr cost, mpq_ptr lower,
                                       int *proven, ssched_status_t *status, ssched_error_t *err);

/* Floating-point Chu-Liu/Edmonds (lp/colgen_comm_arb.c) for the float
 * phase: chosen[e] = 1 for the arcs of a minimum arborescence rooted at
 * root spanning every node reached from it.  1, 0 if a required node
 * (required == NULL: every node) is not reached, -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cgc_min_arb_d(size_t n, size_t m, const size_t *from, const size_t *to,
                                           const double *cost, size_t root,
                                           const unsigned char *required, unsigned char *chosen);

/* The workspace: new (NULL on ENOMEM), free, and slot's buffer of at
 * least `bytes` (NULL on ENOMEM). */
SSCHED_INTERNAL cgc_ws_t *ssched_i_cgc_ws_new(void);
SSCHED_INTERNAL void ssched_i_cgc_ws_free(cgc_ws_t *ws);
SSCHED_INTERNAL void *ssched_i_cgc_ws_get(cgc_ws_t *ws, int slot, size_t bytes);

/* The dense form of the above on ws's n x n matrix (*W, *A from
 * ssched_i_cgc_arb_matrix, 0 on ENOMEM): W[y*n + x] the cost of the arc
 * x -> y (INFINITY: none; none into root); A is the algorithm's.  The arc
 * of entry (y, x) has code y*n + x, but n*n + y when alt (may be NULL) has
 * alt[y] set and x is the root (a second arc root -> y).  Every node must
 * be reached from root.  enter[v] gets the code of the arc entering v in
 * a minimum arborescence (NONE for the root); ties go to the first node,
 * in index order.  1, or -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cgc_arb_matrix(cgc_ws_t *ws, size_t n, double **W, size_t **A);
SSCHED_INTERNAL int ssched_i_cgc_arb_dense(cgc_ws_t *ws, size_t n, size_t root,
                                           const unsigned char *alt, size_t *enter);

/* Merges of vertex v in tree t (by its kind and its number of children). */
SSCHED_INTERNAL size_t ssched_i_cgc_merges(const cgc_graph_t *g, const cgc_tree_t *t, size_t v);
/* The same for every vertex at once (O(nv), not O(nv^2)): mg[0..nv).
 * 0 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cgc_merges_all(const cgc_graph_t *g, const cgc_tree_t *t, size_t *mg);

/* The tree as a master column: sorted sends and merges.  0 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cgc_tree_column(const cgc_graph_t *g, const cgc_tree_t *t,
                                             cg_column_t *c);

/* Test hook: the smoothing weight of the float pricing (0: none,
 * default CGC_SMOOTH); returns the previous one.  Not thread-safe. */
SSCHED_INTERNAL double ssched_i_cgc_set_smoothing(double alpha);

/* Build / free the auxiliary vertices of a validated commutative reduce. */
SSCHED_INTERNAL ssched_status_t ssched_i_cgc_graph_init(cgc_graph_t *g, const ssched_platform_t *p,
                               const ssched_problem_t *pb, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_cgc_graph_free(cgc_graph_t *g);

/* Read the certified master back (out->lp holds the exact solution; trees
 * parallel to m->cols): see lp/colgen_comm_result.c for the contract. */
SSCHED_INTERNAL ssched_status_t ssched_i_cgc_interpret(const cgc_graph_t *g, const cg_master_t *m,
                                                       const cgc_tree_t *trees,
                                                       ssched_steady_t *out, ssched_error_t *err);

/* The commutative reduce behind ssched_steady_solve_opts(): throughput =
 * the certified master optimum (achievable); upper_bound, optimal and
 * cg_pricing_exact as for a multicast (steady.h). */
SSCHED_INTERNAL ssched_status_t ssched_i_cgc_solve(const ssched_platform_t *p,
                                                   const ssched_problem_t *pb,
                                                   const ssched_steady_options_t *opt,
                                                   ssched_steady_t *out, ssched_error_t *err);

/* The relaxation LP (lp/build_commutative.c), an upper bound on the
 * commutative TP; the model's lp, tp_col and row maps are set.  Also what
 * `ssched lp --commutative` exports (ssched_model_build dispatches here). */
SSCHED_INTERNAL ssched_status_t ssched_i_model_build_commutative(
        const ssched_platform_t *p, const ssched_problem_t *pb, ssched_model_t *m,
        ssched_error_t *err);

#endif
