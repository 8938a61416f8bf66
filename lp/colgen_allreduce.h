/* Series of all-reduces by column generation (private; issue 14 item 3;
 * lp/colgen_allreduce*.c).
 *
 * One operation reduces the ordered participants' values to the root R
 * (a reduction tree of RR-4872, Lemma 2) and then copies the result from R
 * to every other participant (an arborescence rooted at R, Steiner when
 * the participants are not every other node).  Both run in ONE steady
 * state, so they share every port, link and processor.  Master:
 *
 *   max TP  s.t.  TP - sum_T lambda_T <= 0        (reduce linking row)
 *                 TP - sum_A y_A      <= 0        (broadcast linking row)
 *                 out-port, in-port (one-port nodes), cpu (nodes with w),
 *                 link (edges with a switch end): time of trees and
 *                 arborescences <= 1,
 *
 * the capacity rows laid out as the reduce master's (lp/colgen_internal.h:
 * out n, in n, cpu, links), then the two linking rows.  With capacity
 * duals pi and linking duals sigma_r, sigma_b, a tree improves iff its
 * pi-cost (the reduce pricing, lp/colgen_price.inc) is < sigma_r and an
 * arborescence iff its pi-cost (lp/colgen_bprice.c) is < sigma_b.  Exact
 * master columns: trees, then arborescences, then TP, so the reduce and
 * broadcast interpreters (ssched_i_cg_interpret, ssched_i_cgb_interpret) read the solution
 * directly.
 *
 * Commutative operator (pb->commutative): the reduce columns are the
 * in-trees of lp/colgen_comm.h, priced by ssched_i_cgc_price_d/_q on the same
 * prices (a tree improves iff its cost < sigma_r; the exact pass's
 * certified lower bound proves that none does), read back by
 * ssched_i_cgc_interpret. */
#ifndef SSCHED_LP_COLGEN_ALLREDUCE_H
#define SSCHED_LP_COLGEN_ALLREDUCE_H

#include "lp/colgen_bcast.h"
#include "lp/colgen_comm.h"
#include "lp/colgen_internal.h"
#include "src/util/internal.h"

typedef struct {
    ssched_problem_t red;     /* the reduce to R (shallow copy of the input) */
    ssched_problem_t bc;      /* the broadcast from R (targets owned)        */
    cg_master_t r;            /* capacity rows + reduction-tree columns      */
    cgb_master_t b;           /* pricing graph + arborescence columns; its
                                 row maps point into r's capacity rows       */
    size_t row_r, row_b;      /* the linking rows                            */
    size_t n_rows;            /* r.n_rows + 2                                */
    cg_engine_t *eng;         /* the floating-point master; column 1 = TP    */
    int comm;                 /* commutative operator                        */
    cgc_graph_t cg;           /* commutative: the in-tree pricing graph      */
    cgc_tree_t *ctrees;       /* commutative: the trees, parallel to r.cols  */
    size_t ctree_cap;
} car_master_t;

/* Columns (lp/colgen_allreduce_price.c).  ssched_i_car_add_tree / ssched_i_car_add_arb add a
 * column to the float master, taking ownership (with the commutative tree
 * t) on success, 1; 0 on ENOMEM.  ssched_i_car_arb_view: an arborescence as a
 * send-only reduce column (for ssched_i_cg_column_coefs). */
SSCHED_INTERNAL cg_column_t ssched_i_car_arb_view(const cgb_column_t *a);
SSCHED_INTERNAL int ssched_i_car_arb_known(const cgb_master_t *b, const cgb_column_t *c);
SSCHED_INTERNAL int ssched_i_car_add_tree(car_master_t *m, cg_column_t *c, cgc_tree_t *t);
SSCHED_INTERNAL int ssched_i_car_add_arb(car_master_t *m, cgb_column_t *c);
SSCHED_INTERNAL void ssched_i_car_drop_tree(const car_master_t *m, cg_column_t *c, cgc_tree_t *t);
/* Broadcast pricing cost of edge e under row prices y: size*c(e) times the
 * prices of e's rows (one-port ends' ports, the link at a switch end). */
SSCHED_INTERNAL double ssched_i_car_edge_price_d(const car_master_t *m, const double *y, size_t e);
SSCHED_INTERNAL void ssched_i_car_edge_price_q(const car_master_t *m, const mpq_t *y, size_t e,
                                               mpq_ptr out);
/* May the pricing be exact (arborescences: spanning or few relays; trees:
 * ordered, or few optional merge points)? */
SSCHED_INTERNAL int ssched_i_car_arb_exact(const car_master_t *m);
SSCHED_INTERNAL int ssched_i_car_tree_exact(const car_master_t *m);
/* The cheapest reduction tree to the root under y: 1 with its column *c
 * (and the commutative tree *t) and cost, 0 if none was found, -1 on error
 * (*st and err set).  _q also gives `lower`, a certified lower bound on
 * every tree's cost, and *proven = 1 when the result is a cheapest tree
 * (or, returning 0, when no tree exists); always so for an ordered reduce. */
SSCHED_INTERNAL int ssched_i_car_price_tree_d(const car_master_t *m, const cg_prices_d *y,
                                              int exact, cg_column_t *c, cgc_tree_t *t,
                                              double *cost, ssched_status_t *st,
                                              ssched_error_t *err);
SSCHED_INTERNAL int ssched_i_car_price_tree_q(const car_master_t *m, const cg_prices_q *y,
                                              cg_column_t *c, cgc_tree_t *t, mpq_ptr cost,
                                              mpq_ptr lower, int *proven, ssched_status_t *st,
                                              ssched_error_t *err);

/* One root: the certified master optimum for root pb->target (pb an
 * ALLREDUCE problem with target != SIZE_MAX).  out->cg_pricing_exact says
 * whether the last pricing pass proved that no column improves it; if so
 * upper_bound = throughput, else *bounded = 1 when Farley's bound
 * (ssched_i_car_farley_bound) is in out->upper_bound.  out->optimal = (upper_bound
 * == throughput) when a bound is known. */
SSCHED_INTERNAL ssched_status_t ssched_i_car_solve_root(const ssched_platform_t *p,
                                                        const ssched_problem_t *pb,
                                                        const ssched_steady_options_t *opt,
                                                        ssched_steady_t *out, int *bounded,
                                                        ssched_error_t *err);

/* Farley's bound on the full master from the exact duals y of the
 * restricted one (optimum z): with certified lower bounds L_r on every
 * tree's cost (tree_lower, or sigma_r itself when the tree pricing was
 * proven) and L_b on every arborescence's (sigma_b itself when its pricing
 * was exact, else a bound from the edge costs `cost`: the farthest target
 * by shortest path, or Wong's dual ascent, the larger;
 * lp/colgen_allreduce_bound.c), the
 * duals with sigma' = min(sigma, L) satisfy every column's constraint, and
 * scaled by 1 / (sigma_r' + sigma_b') also TP's; their objective
 * z / (sigma_r' + sigma_b') bounds the optimum.  0 when the sum is 0. */
SSCHED_INTERNAL int ssched_i_car_farley_bound(const car_master_t *m, const mpq_t *y,
                                              const mpq_t *cost, int tree_proven,
                                              mpq_srcptr tree_lower, int arb_exact, mpq_srcptr z,
                                              mpq_ptr out);

/* A certified lower bound on the cost of every arborescence from the root
 * to the broadcast targets under edge costs `cost`: the farthest target by
 * shortest path, or Wong's dual ascent, the larger.  0 if some target is
 * unreachable or out of memory. */
SSCHED_INTERNAL int ssched_i_car_arb_lower(const car_master_t *m, const mpq_t *cost, mpq_ptr out);

/* A certified bound on the all-reduce TP to root pb->target from any
 * non-negative prices y on the capacity rows (y: n_y values laid out as
 * the master's rows, e.g. the exact duals of another root's master; the
 * capacity rows are the platform's, alike for every root).  Weak duality:
 * every feasible solution uses each row k at most rhs 1, so
 *     TP (L_tree + L_arb) <= sum_T lambda_T cost_y(T) + sum_A y_A cost_y(A)
 *                         <= sum_k y_k,
 * with L_tree the cheapest reduction tree's y-cost to this root (the exact
 * ordered pricing; a commutative one's certified lower bound) and L_arb a
 * certified lower bound on every arborescence's (exact pricing, else
 * ssched_i_car_arb_lower).  *bounded = 1 with out = sum y / (L_tree +
 * L_arb) when that sum is positive; 0 (no bound) otherwise.  ENOMEM only. */
SSCHED_INTERNAL ssched_status_t ssched_i_car_price_bound(const ssched_platform_t *p,
                                                         const ssched_problem_t *pb,
                                                         const mpq_t *y, size_t n_y,
                                                         int *bounded, mpq_ptr out,
                                                         ssched_error_t *err);

/* The master's exact LP (trees, arborescences, TP) and the reading of its
 * certified solution (out->lp) as a steady state (lp/colgen_allreduce_io.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_car_exact_master(const car_master_t *m, ssched_lp_t *lp,
                                                          ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_car_interpret(car_master_t *m, ssched_steady_t *out,
                                                       ssched_error_t *err);

/* The two halves of an all-reduce to root pb->target as problems sharing
 * pb's arrays and size (read only): *red the reduce to the root (same
 * operator), *bc the broadcast from it to every other participant
 * (bc->targets malloc'ed: the caller frees it; bc->sources points at
 * red->target, so *red must outlive *bc).  ENOMEM only. */
SSCHED_INTERNAL ssched_status_t ssched_i_car_split(const ssched_problem_t *pb,
                                                   ssched_problem_t *red, ssched_problem_t *bc,
                                                   ssched_error_t *err);

/* The combined edge LP (lp/build_allreduce.c): RR-4872's SSR to R and the
 * broadcast copies LP from R ("ssb", lp/build_flow.c) on shared port, link
 * and processor rows with one TP.  An upper bound on the all-reduce TP
 * (exact when participants are every node: Edmonds).  *lp is initialised
 * here; *tp_col (may be NULL) gets the TP column. */
SSCHED_INTERNAL ssched_status_t ssched_i_car_build_edge_lp(const ssched_platform_t *p,
                                                           const ssched_problem_t *pb,
                                                           ssched_lp_t *lp, size_t *tp_col,
                                                           ssched_error_t *err);
/* The same as the model `ssched lp` exports (ssched_model_build dispatches
 * here): only m->lp and m->tp_col are set.  EINPUT without a root. */
SSCHED_INTERNAL ssched_status_t ssched_i_car_model_build(const ssched_platform_t *p,
                                                         const ssched_problem_t *pb,
                                                         ssched_model_t *m, ssched_error_t *err);

/* The whole solve behind ssched_steady_solve_opts(): one root, or every
 * candidate root (pb->target == SIZE_MAX) with the best one reported. */
SSCHED_INTERNAL ssched_status_t ssched_i_car_solve(const ssched_platform_t *p,
                                                   const ssched_problem_t *pb,
                                                   const ssched_steady_options_t *opt,
                                                   ssched_steady_t *out, ssched_error_t *err);

#endif
