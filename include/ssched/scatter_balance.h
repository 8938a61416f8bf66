/* ssched/scatter_balance.h — load-balanced scatter operations.
 *
 * Seed 004 (Genaud, Giersch, Vivien, "Load-Balancing Scatter Operations for
 * Grid Computing", RR-4770).  A root processor owns n independent data items
 * and sends each processor P_i its share n_i in turn (single port, in the
 * sending order P_1, ..., P_p, the root being the last one, P_p).  P_i then
 * computes on its share.  With T_comm(i, x) the time P_i needs to receive x
 * items and T_comp(i, x) the time it needs to compute them, P_i finishes at
 *
 *     T_i = sum_{j <= i} T_comm(j, n_j) + T_comp(i, n_i)          (eq. 1)
 *
 * and the makespan is T = max_i T_i (eq. 2).  This module computes integer
 * distributions n_1 + ... + n_p = n minimizing T, exactly (every time is an
 * exact GMP rational):
 *
 *   SSCHED_SB_DP          Algorithm 1 of the report, O(p n^2), any
 *                         non-negative costs;
 *   SSCHED_SB_DP_FAST     Algorithm 2 (the optimized DP), nondecreasing
 *                         costs, same optimum;
 *   SSCHED_SB_EXACT       ssched's fast exact method: Algorithm 1's
 *                         recursion evaluated top-down from (n, P_1) only,
 *                         pruned by the rational lower bound of Theorems 1-2;
 *                         same optimum as Algorithms 1/2 for nondecreasing
 *                         costs; about 300 states and under a millisecond for
 *                         seed 004's n = 817,101 (src/scatter/exact.c says
 *                         why, and when it degrades to Algorithm 1's work);
 *   SSCHED_SB_LP          the guaranteed heuristic of section 3.3: the
 *                         rational LP (3) solved exactly by ssched's LP core,
 *                         rounded so that |n_i - n'_i| < 1, within the bound of
 *                         eq. (4) (affine costs);
 *   SSCHED_SB_CLOSED_FORM the rational optimum of Theorem 1 after Theorem 2
 *                         drops the useless processors, rounded the same way
 *                         (linear costs);
 *   SSCHED_SB_UNIFORM     the baseline MPI_Scatter distribution.
 *
 * Cost functions map an item count x >= 0 to a time >= 0.  They are either
 * affine, f(x) = slope * x + offset (linear when offset = 0; seed 004's
 * lambda and mu), or piecewise-linear tables through exact breakpoints
 * (x_k, y_k), x_0 = 0, defined up to their last breakpoint.  Affine
 * functions are charged at x = 0 as well (an idle processor still takes part
 * in the collective), which is how the LP (3) reads them.
 *
 * CSV formats (ssched_sb_platform_load_csv): lines whose first non-blank
 * character is '#' and blank lines are ignored; the first other line is a
 * header naming the columns, in any order:
 *   - linear/affine: name, mu, lambda, and optionally mu0, lambda0 (constant
 *     terms: T_comp(i,x) = mu*x + mu0, T_comm(i,x) = lambda*x + lambda0) and
 *     cpu (ignored).  One row per processor.  This reads seed 004's Table 1
 *     (../shared/data/seed004_table1.csv) as it is.
 *   - tables: name, items, comm, comp.  Several rows per processor give
 *     T_comm(i, items) and T_comp(i, items); the first row of a processor has
 *     items = 0, item counts increase strictly, times in between are linearly
 *     interpolated, and the table must reach the number of items scattered.
 * Numbers are exact (integers, decimals, fractions "1/3", scientific
 * notation) and must be non-negative.  Names are unique.
 *
 * Root and order.  The file does not say which processor holds the data:
 * the data holder C is the first processor whose communication cost is
 * identically zero (seed 004's dinadan), or the first processor if none has.
 * ssched_sb_arrange() builds the instance actually scheduled: the root last,
 * the others in the given order or by bandwidth (key T_comm(i, n): the time
 * to receive all items; descending bandwidth = ascending key, ties kept in
 * file order).  When the root R is not C (section 3.4), the n items first
 * travel from C to R, taking T_comm(R, n), and R's sends are relayed through
 * C's site: R -> P_j costs T_comm(R, x) + T_comm(j, x), R -> R costs nothing.
 * ssched_sb_choose_root() minimizes pre-transfer + makespan over all roots.
 *
 * Library functions never print; they return a status and fill err. */
#ifndef SSCHED_SCATTER_BALANCE_H
#define SSCHED_SCATTER_BALANCE_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cost functions ---------------------------------------------------- */

typedef enum { SSCHED_SB_COST_AFFINE, SSCHED_SB_COST_TABLE } ssched_sb_cost_kind_t;

/* "affine", "table" ("unknown" for any other value); parse: SSCHED_EINPUT
 * naming the text and the accepted names. */
const char *ssched_sb_cost_kind_name(ssched_sb_cost_kind_t v);
ssched_status_t ssched_sb_cost_kind_parse(const char *text, ssched_sb_cost_kind_t *out,
                                          ssched_error_t *err);

typedef struct {
    ssched_sb_cost_kind_t kind;
    mpq_t slope, offset; /* AFFINE: f(x) = slope * x + offset                */
    size_t n_points;     /* TABLE: breakpoints, xs[0] = 0, strictly rising    */
    long *xs;
    mpq_t *ys;           /* f(xs[k]) = ys[k]; linear in between               */
} ssched_sb_cost_t;

/* f(x) = slope * x + offset.  Both must be >= 0 (EINPUT otherwise).  On
 * failure f is left initialized as the zero function, so it can be freed. */
ssched_status_t ssched_sb_cost_init_affine(ssched_sb_cost_t *f, const mpq_t slope,
                                           const mpq_t offset, ssched_error_t *err);

/* Piecewise-linear table through (xs[k], ys[k]), k < n_points (copied).
 * Requires n_points >= 1, xs[0] = 0, xs strictly increasing, ys >= 0
 * (EINPUT otherwise; f is then the zero function). */
ssched_status_t ssched_sb_cost_init_table(ssched_sb_cost_t *f, size_t n_points,
                                          const long *xs, const mpq_t *ys,
                                          ssched_error_t *err);

/* out = f + g (out must not be initialized; it is on return).  Affine + affine
 * is affine; with a table, the breakpoints are merged and the domain is the
 * smaller one.  Returns ENOMEM on allocation failure. */
ssched_status_t ssched_sb_cost_init_sum(ssched_sb_cost_t *out, const ssched_sb_cost_t *f,
                                        const ssched_sb_cost_t *g, ssched_error_t *err);

/* out = a copy of f. */
ssched_status_t ssched_sb_cost_init_copy(ssched_sb_cost_t *out, const ssched_sb_cost_t *f,
                                         ssched_error_t *err);

void ssched_sb_cost_free(ssched_sb_cost_t *f);

/* Largest x where f is defined (LONG_MAX for affine functions). */
long ssched_sb_cost_domain(const ssched_sb_cost_t *f);

/* out = f(x).  Precondition: 0 <= x <= ssched_sb_cost_domain(f). */
void ssched_sb_cost_eval(mpq_t out, const ssched_sb_cost_t *f, long x);

/* 1 if f is nondecreasing on its domain. */
int ssched_sb_cost_is_nondecreasing(const ssched_sb_cost_t *f);

/* 1 if f is affine with a zero offset (f(x) = slope * x). */
int ssched_sb_cost_is_linear(const ssched_sb_cost_t *f);

/* ---- platforms --------------------------------------------------------- */

typedef struct {
    char *name;
    ssched_sb_cost_t comm; /* T_comm(i, x): receive x items from the root */
    ssched_sb_cost_t comp; /* T_comp(i, x): compute x items               */
} ssched_sb_proc_t;

/* Processors in sending order P_1..P_p; when solving, the last one is the
 * root (seed 004 section 3.1). */
typedef struct {
    size_t p, cap;
    ssched_sb_proc_t *procs;
} ssched_sb_platform_t;

typedef enum {
    SSCHED_SB_LINEAR, /* every cost is slope * x                  */
    SSCHED_SB_AFFINE, /* every cost is slope * x + offset          */
    SSCHED_SB_GENERAL /* at least one table                        */
} ssched_sb_costs_t;

/* "linear", "affine", "general" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_sb_costs_name(ssched_sb_costs_t v);
ssched_status_t ssched_sb_costs_parse(const char *text, ssched_sb_costs_t *out,
                                      ssched_error_t *err);

void ssched_sb_platform_init(ssched_sb_platform_t *pl);
void ssched_sb_platform_free(ssched_sb_platform_t *pl);

/* Append a processor; comm and comp are copied.  EINPUT for an empty or
 * duplicate name. */
ssched_status_t ssched_sb_platform_add(ssched_sb_platform_t *pl, const char *name,
                                       const ssched_sb_cost_t *comm,
                                       const ssched_sb_cost_t *comp, ssched_error_t *err);

/* Load one of the CSV formats above into an initialized, empty platform.
 * Errors are EINPUT with "PATH:LINE: what" (or "PATH: what"). */
ssched_status_t ssched_sb_platform_load_csv(ssched_sb_platform_t *pl, const char *path,
                                            ssched_error_t *err);
/* Same from a stream; `display` names it in messages. */
ssched_status_t ssched_sb_platform_read_csv(ssched_sb_platform_t *pl, FILE *in,
                                            const char *display, ssched_error_t *err);

/* Index of the processor called name, or -1. */
long ssched_sb_platform_find(const ssched_sb_platform_t *pl, const char *name);

/* The data holder C: the first processor whose T_comm is identically zero,
 * else processor 0.  Precondition: pl->p >= 1. */
size_t ssched_sb_platform_holder(const ssched_sb_platform_t *pl);

/* The most general kind of cost among all processors. */
ssched_sb_costs_t ssched_sb_platform_costs(const ssched_sb_platform_t *pl);

typedef enum {
    SSCHED_SB_ORDER_GIVEN,          /* file order                                 */
    SSCHED_SB_ORDER_BANDWIDTH_DESC, /* highest bandwidth first (Theorem 3's policy) */
    SSCHED_SB_ORDER_BANDWIDTH_ASC   /* lowest bandwidth first                     */
} ssched_sb_order_t;

/* "given", "bandwidth-desc", "bandwidth-asc" ("unknown" for any other value);
 * parse: SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_sb_order_name(ssched_sb_order_t v);
ssched_status_t ssched_sb_order_parse(const char *text, ssched_sb_order_t *out,
                                      ssched_error_t *err);

/* Build into `out` (initialized, empty) the instance actually scheduled for
 * n items: processor `root` last, the others ordered by `order`, costs under
 * the relay model when root != holder (see the top of this file).  Writes
 * the time to bring the n items from the holder to the root into
 * pre_transfer (0 when root == holder).  EINPUT if a table used for the key
 * or the pre-transfer does not reach n. */
ssched_status_t ssched_sb_arrange(const ssched_sb_platform_t *pl, size_t holder, size_t root,
                                  ssched_sb_order_t order, long n, ssched_sb_platform_t *out,
                                  mpq_t pre_transfer, ssched_error_t *err);

/* ---- distributions and the checker -------------------------------------- */

/* Recompute eq. (1)-(2) for a distribution of items (p entries, >= 0, in
 * sending order) straight from the cost functions: makespan = max_i T_i;
 * finish[i] = T_i and send_end[i] = sum_{j<=i} T_comm(j, n_j) when not NULL
 * (arrays of p initialized mpq_t).  EINPUT for a negative share or one a
 * table does not reach.  Independent of every algorithm below.  An
 * evaluator, not a validity checker (error.h): every distribution of
 * non-negative shares is feasible, so there is no verdict to report. */
ssched_status_t ssched_sb_evaluate(const ssched_sb_platform_t *inst, const long *items,
                                   mpq_t makespan, mpq_t *finish, mpq_t *send_end,
                                   ssched_error_t *err);

/* ---- algorithms --------------------------------------------------------- */

typedef enum {
    SSCHED_SB_DP,          /* Algorithm 1                                    */
    SSCHED_SB_DP_FAST,     /* Algorithm 2                                    */
    SSCHED_SB_EXACT,       /* pruned top-down recursion (exact, fast)        */
    SSCHED_SB_LP,          /* LP (3) + rounding of section 3.3               */
    SSCHED_SB_CLOSED_FORM, /* Theorems 1-2 + rounding of section 3.3         */
    SSCHED_SB_UNIFORM      /* floor(n/p) each, the first n mod p get one more */
} ssched_sb_algorithm_t;

/* "dp", "dp-fast", "exact", "lp", "closed-form", "uniform" ("unknown" for any
 * other value); parse: SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_sb_algorithm_name(ssched_sb_algorithm_t v);
ssched_status_t ssched_sb_algorithm_parse(const char *text, ssched_sb_algorithm_t *out,
                                          ssched_error_t *err);

typedef struct {
    ssched_sb_algorithm_t algorithm;
    size_t p;
    long n;
    long *items;          /* the integer distribution, sending order          */
    mpq_t makespan;       /* eq. (2) of items, recomputed by the checker      */
    mpq_t *finish;        /* T_i, eq. (1)                                     */
    mpq_t *send_end;      /* end of P_i's reception                          */
    int optimal;          /* 1: makespan is the integer optimum (dp, dp-fast,
                             exact)                                           */
    /* lp and closed-form: the rational relaxation and eq. (4) */
    int has_relaxation;
    mpq_t relaxed_makespan; /* rational optimum T <= T_opt                    */
    mpq_t *relaxed_items;   /* its rational distribution                      */
    mpq_t guarantee;        /* sum_j T_comm(j,1) + max_i T_comp(i,1): makespan
                               <= T + guarantee <= T_opt + guarantee          */
    unsigned char *useful;  /* closed-form: Theorem 2 keeps P_i (else NULL)   */
    /* work done, for benchmarks */
    long long evaluations;  /* candidate shares examined (e-loop iterations)  */
    long long states;       /* (d, i) subproblems solved                      */
    int int64_path;         /* DPs: 1 if the scaled integers fitted in int64  */
} ssched_sb_result_t;

void ssched_sb_result_init(ssched_sb_result_t *r);
void ssched_sb_result_free(ssched_sb_result_t *r);

/* Solve the instance (processors in sending order, root last) for n >= 0
 * items with the given algorithm into an initialized result (previous
 * content is released).  EINPUT when the algorithm does not apply to the
 * costs (Algorithm 2 and exact need nondecreasing costs, lp affine ones,
 * closed-form linear ones), when a table does not reach n, or for n < 0.
 * The result's makespan is always recomputed by ssched_sb_evaluate().
 * Algorithms 1 and 2 keep a p x (n+1) choice table: n <= 2^31 - 2. */
ssched_status_t ssched_sb_solve(const ssched_sb_platform_t *inst, long n,
                                ssched_sb_algorithm_t alg, ssched_sb_result_t *out,
                                ssched_error_t *err);

/* Limits for ssched_sb_solve_limited.  The DPs (dp, dp-fast) stop with
 * SSCHED_ELIMIT once they have made more than max_evaluations candidate
 * evaluations (0 = no limit), and call progress after each level (done in
 * [0, 1]) so that long runs can report on stderr. */
typedef struct {
    long long max_evaluations;
    void (*progress)(void *ctx, long long evaluations, double done);
    void *progress_ctx;
} ssched_sb_limits_t;

ssched_status_t ssched_sb_solve_limited(const ssched_sb_platform_t *inst, long n,
                                        ssched_sb_algorithm_t alg, const ssched_sb_limits_t *lim,
                                        ssched_sb_result_t *out, ssched_error_t *err);

/* Up-front estimates for solving inst with n items by alg: the memory in
 * bytes, and the candidate evaluations — exact for dp ((p-1)(n+1)(n+2)/2),
 * an upper bound (the same figure) for dp-fast, small for the others. */
void ssched_sb_estimate(const ssched_sb_platform_t *inst, long n, ssched_sb_algorithm_t alg,
                        double *bytes, double *evaluations);

/* The rounding scheme of section 3.3: from a rational distribution r[0..p-1]
 * (>= 0, summing to the integer n) build integers out[i] with the same sum
 * and |out[i] - r[i]| < 1.  EINPUT if the sum is not n or a share is
 * negative. */
ssched_status_t ssched_sb_round(size_t p, const mpq_t *r, long n, long *out,
                                ssched_error_t *err);

/* guarantee = sum_j T_comm(j, 1) + max_i T_comp(i, 1) (eq. 4). */
void ssched_sb_guarantee(const ssched_sb_platform_t *inst, mpq_t guarantee);

/* Theorems 1-2 for linear costs: the rational optimum for n items
 * (makespan = n * D) and its distribution (relaxed[i], p initialized mpq_t);
 * useful[i] (may be NULL) tells whether P_i is kept.  EINPUT if some cost is
 * not linear. */
ssched_status_t ssched_sb_closed_form(const ssched_sb_platform_t *inst, long n,
                                      mpq_t makespan, mpq_t *relaxed,
                                      unsigned char *useful, ssched_error_t *err);

/* ---- root choice (section 3.4) ----------------------------------------- */

typedef struct {
    size_t root;          /* index in the platform                         */
    mpq_t pre_transfer;   /* holder -> root time for the n items            */
    mpq_t makespan;       /* scatter + compute with this root               */
    mpq_t total;          /* pre_transfer + makespan                        */
} ssched_sb_root_eval_t;

/* Solve with every processor as root (arranged by `order`) and return the
 * index of the best total in *best (first one on ties).  evals, if not NULL,
 * has room for pl->p entries, filled and initialized here; release them with
 * ssched_sb_root_evals_free(). */
ssched_status_t ssched_sb_choose_root(const ssched_sb_platform_t *pl, size_t holder,
                                      ssched_sb_order_t order, long n,
                                      ssched_sb_algorithm_t alg, size_t *best,
                                      ssched_sb_root_eval_t *evals, ssched_error_t *err);
void ssched_sb_root_evals_free(ssched_sb_root_eval_t *evals, size_t count);

/* Writers (JSON, SVG): ssched/export.h; decimals: ssched_rational_to_decimal. */

#ifdef __cplusplus
}
#endif
#endif
