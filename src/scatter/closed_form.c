/* Theorems 1 and 2 of seed 004: the rational optimum for linear costs
 * T_comm(i, x) = lambda_i x, T_comp(i, x) = mu_i x, after dropping the
 * processors that cannot help (section 4.2). */
#include <stdlib.h>

#include "src/scatter/internal.h"
#include "src/util/internal.h"

/* Theorem 2's induction (proof of section 4.2), from the root backwards.
 * With k = D[i+1] the optimal time per item of P_{i+1..p}, giving P_i the
 * fraction alpha of the items ends P_i at (lambda_i + mu_i) alpha n and the
 * others at lambda_i alpha n + k (1 - alpha) n.  If lambda_i <= k the best
 * alpha equalizes them: alpha = k / (mu_i + k), D[i] = (lambda_i + mu_i) k /
 * (mu_i + k), which is eq. (7) unrolled; otherwise alpha = 0 and P_i is
 * dropped (D[i] = k).  k = 0 (a free processor further on) gives D[i] = 0. */
void ssched_i_sb_theorem2(size_t p, const mpq_t *lam, const mpq_t *mu, mpq_t *D, unsigned char *useful)
{
    if (p == 0)
        return;
    mpq_add(D[p - 1], lam[p - 1], mu[p - 1]);
    if (useful)
        useful[p - 1] = 1;
    mpq_t t;
    mpq_init(t);
    for (size_t i = p - 1; i-- > 0;) {
        const mpq_srcptr k = D[i + 1];
        int use = mpq_cmp(lam[i], k) <= 0;
        if (useful)
            useful[i] = (unsigned char)use;
        if (!use || mpq_sgn(k) == 0) {
            mpq_set(D[i], k);
            continue;
        }
        mpq_add(t, mu[i], k);           /* > 0 since k > 0 */
        mpq_add(D[i], lam[i], mu[i]);
        mpq_mul(D[i], D[i], k);
        mpq_div(D[i], D[i], t);
    }
    mpq_clear(t);
}

/* Makespan of a rational distribution under affine costs (eq. 1-2 with
 * rational shares): used to confirm that the closed form and the LP optimum
 * are reached by the shares they return. */
void ssched_i_sb_rational_makespan(const ssched_sb_platform_t *inst, const mpq_t *x, mpq_t out)
{
    mpq_t sent, t, ti;
    mpq_inits(sent, t, ti, NULL);
    mpq_set_ui(out, 0, 1);
    for (size_t i = 0; i < inst->p; i++) {
        const ssched_sb_proc_t *pr = &inst->procs[i];
        mpq_mul(t, pr->comm.slope, x[i]);
        mpq_add(t, t, pr->comm.offset);
        mpq_add(sent, sent, t);
        mpq_mul(t, pr->comp.slope, x[i]);
        mpq_add(t, t, pr->comp.offset);
        mpq_add(ti, sent, t);
        if (i == 0 || mpq_cmp(ti, out) > 0)
            mpq_set(out, ti);
    }
    mpq_clears(sent, t, ti, NULL);
}

ssched_status_t ssched_sb_closed_form(const ssched_sb_platform_t *inst, long n, mpq_t makespan,
                                      mpq_t *relaxed, unsigned char *useful, ssched_error_t *err)
{
    ssched_status_t st = ssched_i_sb_check_instance(inst, n, 3, "closed-form", err);
    if (st != SSCHED_OK)
        return st;
    size_t p = inst->p;
    mpq_t *lam = malloc(p * sizeof *lam), *mu = malloc(p * sizeof *mu),
          *D = malloc(p * sizeof *D);
    unsigned char *use = malloc(p);
    if (!lam || !mu || !D || !use) {
        free(lam);
        free(mu);
        free(D);
        free(use);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the closed form");
    }
    for (size_t i = 0; i < p; i++) {
        mpq_init(lam[i]);
        mpq_init(mu[i]);
        mpq_init(D[i]);
        mpq_set(lam[i], inst->procs[i].comm.slope);
        mpq_set(mu[i], inst->procs[i].comp.slope);
    }
    ssched_i_sb_theorem2(p, lam, mu, D, use);
    /* eq. (7): t = n * D(P_1..P_p) over the kept processors */
    mpq_set_si(makespan, n, 1);
    mpq_mul(makespan, makespan, D[0]);

    mpq_t rest, t;
    mpq_inits(rest, t, NULL);
    mpq_set_si(rest, n, 1);
    size_t free_proc = p;
    if (mpq_sgn(D[0]) == 0)
        for (size_t i = 0; i < p && free_proc == p; i++)
            if (mpq_sgn(lam[i]) == 0 && mpq_sgn(mu[i]) == 0)
                free_proc = i;
    for (size_t i = 0; i < p; i++) {
        if (free_proc < p) {
            /* a processor with no cost at all takes everything in no time */
            mpq_set_si(relaxed[i], i == free_proc ? n : 0, 1);
        } else if (i == p - 1) {
            mpq_set(relaxed[i], rest);
        } else if (use[i]) {
            /* eq. (8) unrolled: P_i takes alpha = D[i+1] / (mu_i + D[i+1])
             * of what reaches it */
            mpq_add(t, mu[i], D[i + 1]);
            mpq_div(t, D[i + 1], t);
            mpq_mul(relaxed[i], rest, t);
            mpq_sub(rest, rest, relaxed[i]);
        } else {
            mpq_set_ui(relaxed[i], 0, 1);
        }
        if (useful)
            useful[i] = free_proc < p ? (unsigned char)(i == free_proc) : use[i];
    }
    /* The shares must realize t (Theorem 1): a broken invariant otherwise. */
    ssched_i_sb_rational_makespan(inst, relaxed, t);
    if (!mpq_equal(t, makespan))
        st = ssched_error_set(err, SSCHED_EINTERNAL,
                              "closed-form shares do not realize eq. (7)'s makespan");
    mpq_clears(rest, t, NULL);
    for (size_t i = 0; i < p; i++) {
        mpq_clear(lam[i]);
        mpq_clear(mu[i]);
        mpq_clear(D[i]);
    }
    free(lam);
    free(mu);
    free(D);
    free(use);
    return st;
}

/* Rounding + eq. (4) check shared with the LP heuristic (rounding.c). */
ssched_status_t ssched_i_sb_closed_form_solve(const ssched_sb_platform_t *inst, long n,
                                     ssched_sb_result_t *r, ssched_error_t *err)
{
    ssched_status_t st = ssched_i_sb_result_alloc_relaxation(r, err);
    if (st == SSCHED_OK) {
        r->useful = ssched_i_calloc(inst->p, 1);
        if (!r->useful)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the closed form");
    }
    if (st == SSCHED_OK)
        st = ssched_sb_closed_form(inst, n, r->relaxed_makespan, r->relaxed_items, r->useful,
                                   err);
    if (st == SSCHED_OK)
        st = ssched_i_sb_round_relaxation(inst, r, err);
    return st;
}
