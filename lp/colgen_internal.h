/* Column generation over reduction trees and routing paths (private).
 *
 * Master LP (Lemma 2 of RR-4872: every solution is a weighted sum of
 * reduction trees; for scatter/gossip, of routing paths):
 *   reduce:          max sum_T lambda_T   s.t. per node: out-port, in-port and
 *                    compute time of the trees <= 1;
 *   scatter/gossip:  max TP  s.t. TP - sum_{p in P_t} lambda_p <= 0 per type t,
 *                    per node: out-port and in-port time of the paths <= 1.
 * Switches (platform multiport) have no port rows: every edge with a switch
 * at either end has its own link row instead (time of the columns on that
 * edge <= 1), as in the edge LPs (lp/build_flow.c); a host end keeps its
 * port row.  Routed platforms: the link rows are the SHARED links' and the
 * FATPIPE rows (lp/resources.c), an edge charging each resource of its
 * route with that resource's time.
 * Pricing, with the master's duals as prices on ports, links and processors, is an
 * interval dynamic program with a shortest-path closure (reduce) or a
 * shortest path per type (scatter/gossip).  It runs in doubles during the
 * iterations and in exact rationals for the certifying pass. */
#ifndef SSCHED_LP_COLGEN_INTERNAL_H
#define SSCHED_LP_COLGEN_INTERNAL_H

#include <gmp.h>

#include "lp/colgen_engine.h"
#include "lp/internal.h"
#include "ssched/steady.h"
#include "src/util/internal.h"

/* A column: a reduction tree (sends + merges) or a path (sends only). */
typedef struct {
    size_t n_sends, n_merges;
    size_t *send_edge, *send_interval;  /* interval index (reduce) or type   */
    size_t *merge_node, *merge_k, *merge_l, *merge_m;
    size_t type;                        /* scatter/gossip: the message type */
} cg_column_t;

SSCHED_INTERNAL void ssched_i_cg_column_free(cg_column_t *c);

/* Prices: out-port, in-port and compute price per node, and the price of
 * each link resource's row (lp/resources.c: per edge with a switch end in
 * the graph model, per SHARED link / FATPIPE row when routed; 0 where the
 * row does not exist).  A switch's
 * port prices are never read: a switch has no port rule. */
typedef struct {
    double *out, *in, *cpu, *link;
} cg_prices_d;

typedef struct {
    mpq_t *out, *in, *cpu, *link;
} cg_prices_q;

/* Is node i without port rows (a switch; a multi-port host of a routed
 * platform)?  Its transfers charge their link resources instead. */
static inline int cg_is_switch(const ssched_platform_t *p, size_t i)
{
    return !ssched_i_has_ports(p, i);
}

/* Reduce pricing: the cheapest reduction tree of v[0,N-1] on the target,
 * transfer e = j->i costing size*c(e)*(out[j] if j is one-port + in[i] if i
 * is one-port + link[e] if either end is a switch: the dual cost of e's
 * rows in the master) and a merge on i costing
 * w(i)*cpu[i].  Returns 1 and the tree (with its cost) if the target can be
 * reached, 0 if not, -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cg_price_reduce_d(const ssched_platform_t *p,
                                               const ssched_problem_t *pb, const cg_prices_d *y,
                                               cg_column_t *tree, double *cost);
SSCHED_INTERNAL int ssched_i_cg_price_reduce_q(const ssched_platform_t *p,
                                               const ssched_problem_t *pb, const cg_prices_q *y,
                                               cg_column_t *tree, mpq_ptr cost);

/* Ordered reduces of at least ssched_i_cg_large_reduce(0) participants
 * (default 32) are priced with the pendant closure (lp/colgen_rdp.inc,
 * rdp_closure_leaf) at smoothed duals (lp/colgen_engine.c, float_phase);
 * smaller ones with the heap closure and the master's own duals, which
 * give the trees, hence the rounds, of every earlier release (the
 * certified TP is the same either way).  With n > 0, sets the threshold
 * to n (test hook, not thread-safe); returns the previous value. */
SSCHED_INTERNAL size_t ssched_i_cg_large_reduce(size_t n);

/* Scatter/gossip pricing: the cheapest origin->dest path of one type. */
SSCHED_INTERNAL int ssched_i_cg_price_path_d(const ssched_platform_t *p, const ssched_problem_t *pb,
                                             size_t origin, size_t dest, const cg_prices_d *y,
                                             cg_column_t *path, double *cost);
SSCHED_INTERNAL int ssched_i_cg_price_path_q(const ssched_platform_t *p, const ssched_problem_t *pb,
                                             size_t origin, size_t dest, const cg_prices_q *y,
                                             cg_column_t *path, mpq_ptr cost);

/* The column generation solve behind ssched_steady_solve_opts(). */
SSCHED_INTERNAL ssched_status_t ssched_i_cg_solve(const ssched_platform_t *p,
                                                  const ssched_problem_t *pb,
                                                  const ssched_steady_options_t *opt,
                                                  ssched_steady_t *out, ssched_error_t *err);

/* The master problem being generated (colgen*.c). */
typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    int reduce;
    size_t n, n_types;                 /* nodes; scatter/gossip types   */
    ssched_commodity_t *types;
    size_t n_rows;                     /* out n, in n, then cpu / delivery,
                                          then the link rows              */
    size_t *cpu_row;                   /* reduce: node -> row or SIZE_MAX */
    size_t link0;                      /* first link row                */
    size_t nres;                       /* link resources (resources.c)  */
    size_t *link_row;                  /* resource -> row or SIZE_MAX   */
    size_t *link_edge;                 /* link row - link0 -> resource  */
    size_t n_cols, cap;
    cg_column_t *cols;
    cg_engine_t *eng;                  /* the floating-point master     */
    struct cg_index *idx;              /* column hash + sparse scratch
                                          (colgen_master.c; lazy)        */
} cg_master_t;

/* The start of a master-backed solve of pb on p: m cleared, its p, pb, n
 * and reduce (a column is one operation: every row a capacity row) set,
 * out->method COLGEN and out->kind; with reduce, out's N(N+1)/2
 * intervals [k, l] of the N participants, k ascending then l.  ENOMEM or
 * OK. */
SSCHED_INTERNAL ssched_status_t ssched_i_cg_master_start(cg_master_t *m, const ssched_platform_t *p,
                                                         const ssched_problem_t *pb, int reduce,
                                                         ssched_steady_t *out, ssched_error_t *err);
/* The master's rows: out-port and in-port per node, then a cpu row per
 * node with w (m->reduce) or n_delivery delivery rows, then a row per link
 * resource some edge charges (lp/resources.c: an edge with a switch end;
 * routed: SHARED links, FATPIPE rows).  m->p and m->reduce set; sets n,
 * nres, n_rows, link0 and allocates cpu_row (reduce), link_row, link_edge
 * (the caller frees them, also on failure). */
SSCHED_INTERNAL ssched_status_t ssched_i_cg_master_rows(cg_master_t *m, size_t n_delivery,
                                                        ssched_error_t *err);

/* Price scratch: per-node cpu and per-resource link prices in doubles, and
 * the exact prices. */
typedef struct {
    size_t n, nres;
    double *cpu, *link;
    cg_prices_q q;
} cg_scratch_t;
/* 1 on success, 0 on ENOMEM (free it anyway). */
SSCHED_INTERNAL int ssched_i_cg_scratch_init(cg_scratch_t *s, size_t n, size_t nres);
SSCHED_INTERNAL void ssched_i_cg_scratch_free(cg_scratch_t *s);
/* The pricers' prices from the master's duals y (float or exact): ports
 * from the first 2n rows, cpu and link from their rows (0 without one). */
SSCHED_INTERNAL cg_prices_d ssched_i_cg_prices_d(const cg_master_t *m, const double *y,
                                                 cg_scratch_t *s);
SSCHED_INTERNAL const cg_prices_q *ssched_i_cg_prices_q(const cg_master_t *m, const mpq_t *y,
                                                        cg_scratch_t *s);

/* Exact coefficients of a column in the master's rows (TP excluded). */
SSCHED_INTERNAL void ssched_i_cg_column_coefs(const cg_master_t *m, const cg_column_t *c,
                                              mpq_t *coef);
/* Is row r a capacity row (rhs 1: port, cpu or link) rather than a
 * delivery row (rhs 0)? */
static inline int cg_capacity_row(const cg_master_t *m, size_t r)
{
    return m->reduce || r < 2 * m->n || r >= m->link0;
}
/* Reading a certified master back as a steady state (lp/colgen_result.c,
 * colgen_scan.c, colgen_comm_result.c).  ssched_i_cg_add_merges: column
 * c at rate lambda, its merges' tasks in out (found or added: out->tasks
 * has room for every merge) gain lambda and their processors lambda w
 * (q: scratch).  ssched_i_cg_add_busy: q time units a period on edge e,
 * to its end ports (a switch has no port: its links carry the load
 * instead) and to the link resource it tracks.  ssched_i_cg_set_prices:
 * out's prices from the master's certified duals sol->y (ports but a
 * switch's, processors of a reduce master, link resources); ENOMEM or
 * OK. */
SSCHED_INTERNAL void ssched_i_cg_add_merges(const ssched_platform_t *p, const cg_column_t *c,
                                            mpq_srcptr lambda, ssched_steady_t *out, mpq_t q);
SSCHED_INTERNAL void ssched_i_cg_add_busy(const ssched_platform_t *p, ssched_steady_t *out,
                                          size_t e, const mpq_t q);
SSCHED_INTERNAL ssched_status_t ssched_i_cg_set_prices(const cg_master_t *m,
                                                       const ssched_lp_solution_t *sol,
                                                       ssched_steady_t *out, ssched_error_t *err);
/* Add a column to the master and to its floating-point model; the master
 * takes ownership.  0 on failure. */
SSCHED_INTERNAL int ssched_i_cg_master_add(cg_master_t *m, cg_column_t *c);
/* Is the column already in the master? */
SSCHED_INTERNAL int ssched_i_cg_known(cg_master_t *m, const cg_column_t *c);
/* Free the master's column index (m->idx; NULL-safe). */
SSCHED_INTERNAL void ssched_i_cg_index_free(cg_master_t *m);
/* The master over the current columns as an exact ssched_lp_t. */
SSCHED_INTERNAL ssched_status_t ssched_i_cg_exact_master(const cg_master_t *m, ssched_lp_t *lp,
                                                         ssched_error_t *err);
/* Read the certified master back as a steady-state solution. */
SSCHED_INTERNAL ssched_status_t ssched_i_cg_interpret(cg_master_t *m, ssched_steady_t *out,
                                                      ssched_error_t *err);

/* The exact master lp's solution from a floating-point one (z: the
 * objective, x: n_cols column values, y: n_rows row duals, signed as lp's
 * duals): each value
 * rationally reconstructed (lp/colgen_rational.c), slacks computed, then
 * certified by ssched_lp_certify().  SSCHED_OK: sol holds a certified
 * optimum; SSCHED_EUNCERTIFIED: no certificate that way (sol must still be
 * freed); SSCHED_ENOMEM. */
SSCHED_INTERNAL ssched_status_t ssched_i_cg_rational_solution(const ssched_lp_t *lp, double z,
                                                              const double *x, const double *y,
                                                              ssched_lp_solution_t *sol);

/* Add one exact master solve's solver figures to out->lp (column
 * generation solves the master several times; the figures are summed). */
static inline void cg_add_solve_figures(ssched_steady_t *out, const ssched_lp_solution_t *sol)
{
    out->lp.float_seconds += sol->float_seconds;
    out->lp.exact_seconds += sol->exact_seconds;
    out->lp.repair_pivots += sol->repair_pivots;
    out->lp.float_solves += sol->float_solves;
    out->lp.float_cpu_seconds += sol->float_cpu_seconds;
    out->lp.exact_cpu_seconds += sol->exact_cpu_seconds;
}

/* Per-phase figures (steady.h): a phase's wall and CPU time since `since`
 * is added to *ph. */
typedef struct {
    double wall, cpu;
} cg_clock_t;

static inline cg_clock_t cg_clock(void)
{
    return (cg_clock_t){ssched_i_wall_now(), ssched_i_cpu_now()};
}

static inline void cg_phase_add(ssched_phase_t *ph, cg_clock_t since)
{
    ph->wall_seconds += ssched_i_wall_now() - since.wall;
    ph->cpu_seconds += ssched_i_cpu_now() - since.cpu;
}

/* The exact phase begun at `since`, when out->phase_master held `master`:
 * its time beyond the exact master solves is exact pricing. */
static inline void cg_exact_phase_done(ssched_steady_t *out, cg_clock_t since,
                                       ssched_phase_t master)
{
    ssched_phase_t all = {0, 0, 0};
    cg_phase_add(&all, since);
    out->phase_pricing.wall_seconds += all.wall_seconds - (out->phase_master.wall_seconds -
                                                           master.wall_seconds);
    out->phase_pricing.cpu_seconds += all.cpu_seconds - (out->phase_master.cpu_seconds -
                                                         master.cpu_seconds);
    out->phase_pricing.count = out->cg_exact_passes;
}

#endif
