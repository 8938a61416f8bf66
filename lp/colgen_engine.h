/* The column-generation engine (private; issue 26 item 1): the one loop
 * behind every column-generation solve (ordered reduce, scatter, gossip,
 * commutative reduce, broadcast, multicast, all-reduce; graph and routed
 * models).  It owns the floating-point master (lp_solve: the only colgen
 * code that calls it), reads its duals once per round, runs the float phase
 * and then the exact certification pass, and keeps the progress lines, the
 * per-phase figures and the stopping rules.  A problem is a pricer
 * (cg_pricer_t): it keeps its own columns, adds them with ssched_i_cge_add,
 * prices in doubles from float duals and exactly from exact duals, and
 * builds the exact master over its columns.
 *
 * Float phase: solve the float master; no optimum or no duals -> stop
 * (the exact pass decides); price_d adds improving columns (candidates:
 * rounded costs); none added -> stop.  Exact phase: build the exact master
 * (price's exact_master), solve it exactly and certify it (lp/solve.c);
 * price_q prices the exact duals exactly and adds every column with a
 * negative reduced cost; none -> the exact master optimum is certified
 * (every feasible solution is a combination of the pricer's columns, and
 * the exact duals price every one of them non-negatively: RR-4872 Lemma 2
 * for trees and paths, Edmonds for arborescences), and out->lp holds it. */
#ifndef SSCHED_LP_COLGEN_ENGINE_H
#define SSCHED_LP_COLGEN_ENGINE_H

#include <stddef.h>

#include "ssched/lp.h"
#include "ssched/steady.h"
#include "src/util/internal.h"

typedef struct cg_engine cg_engine_t;

typedef struct {
    /* Float pricing: y[0..n_rows) the float master's duals as
     * non-negative prices, z its objective.  Add improving columns with
     * ssched_i_cge_add; *added = how many; *upper = an upper bound on the
     * full master (Farley's) or NAN.  SSCHED_OK or an error (err set). */
    ssched_status_t (*price_d)(void *ctx, cg_engine_t *e, const double *y, double z,
                               int *added, double *upper, ssched_error_t *err);
    /* Exact pricing from the certified exact master solution sol (sol->y:
     * exact duals): add every improving column found (*added); with
     * *added = 0 the pass certifies, and the pricer records what it proved
     * (bounds, flags) in its context. */
    ssched_status_t (*price_q)(void *ctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err);
    /* The master over the pricer's current columns as an exact LP
     * (*lp initialised here, also on failure). */
    ssched_status_t (*exact_master)(void *ctx, ssched_lp_t *lp, ssched_error_t *err);
    /* Columns in the master (progress lines). */
    size_t (*n_columns)(const void *ctx);
    /* 1 if exact_master's rows and columns are the float master's, in the
     * same order: a large exact master (ssched_i_cge_set_warm_min_cols)
     * then starts from the float master's optimum (lp_solve warm-started
     * from its previous basis): its values rationally reconstructed and
     * certified (lp/colgen_rational.c), else its basis, instead of a fresh
     * floating-point solve of the whole master. */
    int same_order;
} cg_pricer_t;

struct cg_engine {
    void *lp;                             /* lprec: the float master        */
    size_t n_rows;
    const ssched_steady_options_t *opt;
    ssched_steady_t *out;
    double t0, last;                      /* solve start; last progress line */
    int warm;                             /* the float master was solved    */
    /* Dual smoothing (Wentges), set by the caller after ssched_i_cge_init:
     * 0 (the default) off; else the float phase prices at
     * smooth * centre + (1 - smooth) * y, the centre being the priced
     * duals of the best upper bound so far (see float_phase). */
    double smooth;
    double *rhs;                          /* the rows' right-hand sides     */
    const double *y_check;                /* while smoothing: the master's
                                             duals, ssched_i_cge_add counts
                                             the columns they price as
                                             improving in n_improving     */
    long n_improving;
    long mispriced;                       /* smoothed rounds that found no
                                             improving column             */
};

/* A float master of n_rows rows "<= rhs[r]" (rhs NULL: every rhs 1), maximising; out receives the
 * figures.  0 on success; else ESOLVER (err set).  e->t0 = now. */
SSCHED_INTERNAL ssched_status_t ssched_i_cge_init(cg_engine_t *e, size_t n_rows,
                                                  const double *rhs,
                                                  const ssched_steady_options_t *opt,
                                                  ssched_steady_t *out, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_cge_free(cg_engine_t *e);
/* Add a column to the float master: cnt entries val[k] in row[k], row 0
 * the objective, row r + 1 the master's row r (lp_solve's convention).
 * 1 on success, 0 on failure. */
SSCHED_INTERNAL int ssched_i_cge_add(cg_engine_t *e, int cnt, const double *val, const int *row);
/* Starting basis of the float master's first solve: basic_col[r] the
 * column (0-based, in add order) basic in row r, or SIZE_MAX for row r's
 * slack; the columns must be distinct and the basis non-singular.  The
 * slack basis otherwise: a scatter/gossip master then spends one simplex
 * pivot per type just bringing in its initial path.  1 if set. */
SSCHED_INTERNAL int ssched_i_cge_crash(cg_engine_t *e, const size_t *basic_col);
/* A progress step inside a long stage (opt->step, rate-limited). */
SSCHED_INTERNAL void ssched_i_cge_tick(cg_engine_t *e, const char *stage, size_t done,
                                       size_t total);
/* Test hook: masters of at least n columns (default 1000) start their
 * exact pass from the float master's optimum (same_order pricers): its
 * rationally reconstructed values, certified, or its basis.  Returns the
 * previous value; not thread-safe (tests only). */
SSCHED_INTERNAL size_t ssched_i_cge_set_warm_min_cols(size_t n);
/* The exact_master and n_columns of a pricer backed by a cg_master_t
 * (lp/colgen_internal.h) whose context's first member is that master's
 * pointer (lp/colgen.c, lp/colgen_scan.c: a pointer to a struct is a
 * pointer to its first member, C11 6.7.2.1). */
SSCHED_INTERNAL ssched_status_t ssched_i_cge_master_exact(void *ctx, ssched_lp_t *lp,
                                                          ssched_error_t *err);
SSCHED_INTERNAL size_t ssched_i_cge_master_n_columns(const void *ctx);
/* Run the float phase (when do_float) and then the exact phase with pricer
 * pr on context ctx; per-phase figures into out (phase_float, phase_master,
 * phase_pricing), cg_iterations, cg_exact_passes, cg_pricing_seconds, the
 * float solver figures.  On success out->lp is the certified master. */
SSCHED_INTERNAL ssched_status_t ssched_i_cge_run(cg_engine_t *e, const cg_pricer_t *pr,
                                                 void *ctx, int do_float, ssched_error_t *err);

#endif
