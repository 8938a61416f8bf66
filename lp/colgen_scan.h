/* The achievable throughput of a scan (issue 27 item 3; private): column
 * generation over prefix structures on the engine (lp/colgen_engine.h).
 *
 * Master: max sum_S lambda_S over prefix structures S (ssched/steady.h,
 * ssched_scan_structure_t) s.t. per node its out-port, in-port and compute
 * time, per link resource its time, <= 1 -- the ordered reduce's master
 * (cg_master_t with reduce = 1: one operation per column), a column's
 * resource use counted over the UNION of its sends.  Every column is a
 * valid structure (ssched_scan_structure_check), so the exact master
 * optimum is a certified feasible packing: an achievable TP.
 *
 * Columns: the anchor chains of lp/colgen_scan_dp.inc, priced exactly by
 * dynamic programming; so the TP is the optimum over every packing of
 * anchor chains, and the edge LP of lp/build_scan.c bounds it from above. */
#ifndef SSCHED_LP_COLGEN_SCAN_H
#define SSCHED_LP_COLGEN_SCAN_H

#include "lp/colgen_internal.h"

/* The cheapest anchor chain under prices y (colgen_internal.h's prices):
 * 1 with the column (sends sorted by (interval, edge), each once) and its
 * cost, 0 if no chain exists, -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cgs_price_d(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const cg_prices_d *y, cg_column_t *col, double *cost);
SSCHED_INTERNAL int ssched_i_cgs_price_q(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const cg_prices_q *y, cg_column_t *col, mpq_ptr cost);

/* The solve behind ssched_steady_solve_opts for a scan (auto / colgen):
 * out->throughput the achievable TP, out->scan_structures its packing;
 * the caller sets upper_bound (lp/steady.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_cgs_solve(const ssched_platform_t *p,
                                                   const ssched_problem_t *pb,
                                                   const ssched_steady_options_t *opt,
                                                   ssched_steady_t *out, ssched_error_t *err);

/* The whole scan solve (lp/colgen_scan_bound.c): ssched_i_cgs_solve, the
 * participants cut off (out->unreachable), then the certified bounds:
 * upper_bound, scan_bound_demand, scan_bound_lp_demands, optimal
 * (steady.h). */
SSCHED_INTERNAL ssched_status_t ssched_i_cgs_solve_bounded(const ssched_platform_t *p,
                                                           const ssched_problem_t *pb,
                                                           const ssched_steady_options_t *opt,
                                                           ssched_steady_t *out,
                                                           ssched_error_t *err);
/* Scan: unreachable[k] = 1 when some r_j, j > k, cannot be reached from
 * r_k (reach: n scratch flags). */
SSCHED_INTERNAL ssched_status_t ssched_i_scan_unreachable(const ssched_platform_t *p,
                                                          const ssched_problem_t *pb,
                                                          unsigned char *reach,
                                                          unsigned char *unreachable,
                                                          ssched_error_t *err);

#endif
