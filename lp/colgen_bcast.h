/* Column generation for broadcast and multicast over arborescences
 * (private; lp/colgen_broadcast.c, lp/colgen_bprice.c).
 *
 * Master: max sum_A y_A over arborescences A rooted at the source reaching
 * every target, with one row per resource of the edge LP (lp/build_flow.c):
 * the out-port and in-port of every one-port node and the link of every
 * edge with a switch end, each  sum_A y_A * (time A puts on it) <= 1.
 * With duals pi >= 0, arc e = u->v costs size*c(e)*(pi_out(u) + pi_in(v) +
 * pi_link(e)) (only the rows e has), and A improves the master iff its
 * cost is < 1 (its reduced cost is 1 - cost).
 *
 * Broadcast to every other node: the cheapest column is a minimum-cost
 * spanning arborescence (exact, ssched_arborescence_min_cost), so exact
 * pricing certifies the optimum of the arborescence LP, equal to the edge
 * LP's by Edmonds' branching theorem.  A strict subset of targets (a
 * multicast, or a platform whose switches are relays only) needs the
 * cheapest Steiner arborescence, NP-hard: heuristics always, and an exact
 * enumeration of relay subsets when there are few relays. */
#ifndef SSCHED_LP_COLGEN_BCAST_H
#define SSCHED_LP_COLGEN_BCAST_H

#include <gmp.h>
#include <stddef.h>

#include "lp/colgen_engine.h"
#include "ssched/steady.h"
#include "src/util/internal.h"

/* Relays (reachable non-target nodes) up to which exact Steiner pricing
 * enumerates every subset: 2^12 minimum-cost arborescences per pass. */
#define CGB_EXACT_RELAYS 12

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    size_t n, ne, root;
    int all;                  /* every non-root node is a target          */
    unsigned char *target;    /* per node                                 */
    unsigned char *reach;     /* per node: reachable from the root        */
    size_t n_relays;          /* reachable, not root, not target          */
    size_t *relays;
    mpq_t *w;                 /* per edge: size * c(e)                    */
} cgb_graph_t;

/* A column: platform edge indices, sorted increasingly. */
typedef struct {
    size_t n_arcs;
    size_t *arcs;
} cgb_column_t;

/* Pricing.  cost[e] >= 0 per platform edge.  exact = 1: the cheapest
 * column (spanning case: always; Steiner: by relay enumeration, allowed
 * only when n_relays <= CGB_EXACT_RELAYS); exact = 0: the best of the
 * heuristics (Steiner) or the exact minimum (spanning case, cheap anyway).
 * Returns 1 with the column and its exact cost, 0 if some target is
 * unreachable, -1 on error (*status and err set). */
SSCHED_INTERNAL int ssched_i_cgb_price(const cgb_graph_t *g, const mpq_t *cost, int exact,
                                       cgb_column_t *col, mpq_ptr col_cost, ssched_status_t *status,
                                       ssched_error_t *err);

/* Exact cost of a column under per-edge costs. */
SSCHED_INTERNAL void ssched_i_cgb_column_cost(const cgb_column_t *c, const mpq_t *cost,
                                              mpq_ptr out);

/* The master being generated (lp/colgen_broadcast.c). */
typedef struct {
    cgb_graph_t g;
    size_t n_rows;
    size_t *out_row, *in_row, *link_row; /* SIZE_MAX: no such row; link_row
                                            per link resource (resources.c) */
    size_t nres;                         /* link resources                  */
    mpq_t *res_w;                        /* routed: size*time(k) per resource
                                            (NULL for a graph platform)     */
    size_t arc_rows;                     /* most rows one arc charges       */
    size_t *row_what;                    /* row -> node or resource (names) */
    unsigned char *row_kind;             /* 0 out-port, 1 in-port, 2 link   */
    size_t n_cols, cap;
    cgb_column_t *cols;
    cg_engine_t *eng;                    /* the float master               */
} cgb_master_t;

/* The certified master (out->lp) as a steady-state solution: copies per
 * edge (type 0), port and link occupations and prices, the rated
 * arborescences (lp/colgen_bresult.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_cgb_interpret(const cgb_master_t *m, ssched_steady_t *out,
                                                       ssched_error_t *err);

/* The broadcast column generation behind ssched_steady_solve_opts():
 * throughput = the certified master optimum (multicast: certified
 * feasible; out->cg_pricing_exact says whether the last pass was exact). */
SSCHED_INTERNAL ssched_status_t ssched_i_cgb_solve(const ssched_platform_t *p,
                                                   const ssched_problem_t *pb,
                                                   const ssched_steady_options_t *opt,
                                                   ssched_steady_t *out, ssched_error_t *err);

#endif
