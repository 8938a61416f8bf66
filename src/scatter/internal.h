/* Internal helpers shared by the scatter-balance files (not a public header).
 *
 * The dynamic programs work on exact integers: every cost function is a
 * piecewise-linear function with rational pieces, so multiplying all of them
 * by the LCM L of the denominators of their values and slopes gives integer
 * values at integer item counts.  Minimizing L*T is minimizing T, so the DPs
 * compare integers (int64 when a bound proves it safe, mpz otherwise) and
 * the result is divided by L at the end. */
#ifndef SSCHED_SCATTER_INTERNAL_H
#define SSCHED_SCATTER_INTERNAL_H

#include <gmp.h>
#include <stdint.h>

#include "ssched/scatter_balance.h"
#include "src/util/internal.h"

/* One cost function scaled by L, in point-slope form per segment:
 * F(x) = y0[k] + s[k] * (x - x0[k]) for x0[k] <= x (< x0[k+1]). */
typedef struct {
    size_t nseg;
    long *x0;
    mpz_t *y0, *s;
    int64_t *y0_64, *s_64; /* copies when the instance fits in int64 */
} sb_sfn_t;

typedef struct {
    size_t p;
    long n;
    mpz_t scale;          /* L */
    sb_sfn_t *comm, *comp;
    int fits64;           /* every DP value and intermediate <= 2^61 */
    const ssched_sb_limits_t *lim; /* DP budget and progress, or NULL      */
} sb_scaled_t;

/* Build the scaled form of the instance for n items.  Preconditions: every
 * table reaches n (checked by the caller).  ENOMEM only. */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_scaled_init(sb_scaled_t *sc,
                                                        const ssched_sb_platform_t *inst, long n,
                                                        ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_sb_scaled_free(sb_scaled_t *sc);

/* Segment of f containing x (binary search; 0 for affine functions). */
static inline size_t sb_sfn_segment(const sb_sfn_t *f, long x)
{
    size_t lo = 0, hi = f->nseg;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->x0[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static inline int64_t sb_sfn_eval64(const sb_sfn_t *f, long x)
{
    size_t k = f->nseg == 1 ? 0 : sb_sfn_segment(f, x);
    return f->y0_64[k] + f->s_64[k] * (int64_t)(x - f->x0[k]);
}

static inline void sb_sfn_evalz(mpz_t out, const sb_sfn_t *f, long x)
{
    size_t k = f->nseg == 1 ? 0 : sb_sfn_segment(f, x);
    mpz_set_si(out, x - f->x0[k]);
    mpz_mul(out, out, f->s[k]);
    mpz_add(out, out, f->y0[k]);
}

/* Zero function (affine, slope 0, offset 0). */
SSCHED_INTERNAL void ssched_i_sb_cost_init_zero(ssched_sb_cost_t *f);

/* out = min over 1 <= x <= domain of f(x)/x (0 if the domain is {0}): the
 * largest slope m with m*x <= f(x) on the domain, a linear minorant. */
SSCHED_INTERNAL void ssched_i_sb_cost_minorant_slope(mpq_t out, const ssched_sb_cost_t *f);

/* Checks shared by the algorithms: n >= 0, p >= 1, every table reaches n.
 * need: 0 = any costs, 1 = nondecreasing, 2 = affine, 3 = linear. */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_check_instance(const ssched_sb_platform_t *inst, long n,
                                                           int need, const char *what,
                                                           ssched_error_t *err);

/* Allocate the result arrays for p processors and n items (items zeroed). */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_result_alloc(ssched_sb_result_t *r, size_t p, long n,
                                ssched_sb_algorithm_t alg, ssched_error_t *err);
/* Add the relaxation arrays (relaxed_items) to an allocated result. */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_result_alloc_relaxation(
        ssched_sb_result_t *r, ssched_error_t *err);
/* Recompute makespan/finish/send_end of r->items with the checker. */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_result_finish(const ssched_sb_platform_t *inst,
                                                          ssched_sb_result_t *r,
                                                          ssched_error_t *err);

/* Theorem 2's recursion on linear costs lam[i], mu[i] (i < p):
 * D[i] = rational optimum per item for P_i..P_{p-1}; D[p-1] = lam+mu and
 * D[i] = (lam_i+mu_i) D[i+1] / (mu_i + D[i+1]) if lam_i <= D[i+1] (P_i is
 * useful), else D[i+1].  D must hold p initialized mpq_t; useful may be
 * NULL. */
SSCHED_INTERNAL void ssched_i_sb_theorem2(size_t p, const mpq_t *lam, const mpq_t *mu, mpq_t *D,
                 unsigned char *useful);

/* Makespan of rational shares x[] under affine costs (eq. 1-2). */
SSCHED_INTERNAL void ssched_i_sb_rational_makespan(const ssched_sb_platform_t *inst, const mpq_t *x,
                                                   mpq_t out);

/* Round r->relaxed_items (section 3.3) into r->items, evaluate them and
 * check eq. (4) against r->relaxed_makespan; fills r->guarantee. */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_round_relaxation(
        const ssched_sb_platform_t *inst, ssched_sb_result_t *r, ssched_error_t *err);

/* One DP instantiation (dp_alg1.inc / dp_alg2.inc): fills choice ((n+1) * p
 * int32), items, and the scaled optimum best; adds its e-loop iterations to
 * *evals. */
typedef ssched_status_t (*sb_dp_fn_t)(const sb_scaled_t *sc, int32_t *choice, long *items,
                                      mpz_t best, long long *evals, ssched_error_t *err);
/* Run fn64 (if the scaled instance fits int64) or fnz, then check. */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_dp_drive(const ssched_sb_platform_t *inst, long n,
                                                     ssched_sb_result_t *r, sb_dp_fn_t fn64,
                                                     sb_dp_fn_t fnz, const ssched_sb_limits_t *lim,
                                                     ssched_error_t *err);
/* After DP level `done` of `levels` (fractional inside a level): report
 * progress, and say (1) whether the evaluation budget is spent, with
 * SSCHED_ELIMIT in err. */
SSCHED_INTERNAL int ssched_i_sb_dp_level_done(const sb_scaled_t *sc, long long evals, double done,
                                              size_t levels, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_dp_alg1_limited(const ssched_sb_platform_t *inst,
                                                            long n, ssched_sb_result_t *r,
                                                            const ssched_sb_limits_t *lim,
                                                            ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_dp_alg2_limited(const ssched_sb_platform_t *inst,
                                                            long n, ssched_sb_result_t *r,
                                                            const ssched_sb_limits_t *lim,
                                                            ssched_error_t *err);

/* The algorithms behind ssched_sb_solve (inputs already checked). */
SSCHED_INTERNAL ssched_status_t ssched_i_sb_dp_alg1(const ssched_sb_platform_t *inst, long n,
                                                    ssched_sb_result_t *r, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_dp_alg2(const ssched_sb_platform_t *inst, long n,
                                                    ssched_sb_result_t *r, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_exact(const ssched_sb_platform_t *inst, long n,
                                                  ssched_sb_result_t *r, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_lp_heuristic(const ssched_sb_platform_t *inst, long n,
                                ssched_sb_result_t *r, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_closed_form_solve(
        const ssched_sb_platform_t *inst, long n, ssched_sb_result_t *r, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sb_uniform(const ssched_sb_platform_t *inst, long n,
                                                    ssched_sb_result_t *r, ssched_error_t *err);

#endif
