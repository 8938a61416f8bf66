/* Rational reconstruction of a floating-point master solution (issue 26
 * item 2: an exact pass that verifies before it solves).
 *
 * The float master's optimal basis has an exact basic solution (x, y)
 * whose values are rationals with denominators dividing det(B).  When
 * those denominators are small, each double lp_solve returns is within its
 * rounding error of such a rational, and the rational is a convergent of
 * the double's continued fraction (Legendre: |v - p/q| < 1/(2 q^2) makes
 * p/q a convergent of v).  We take, per value, the convergent that stands
 * out from the noise (below), then let ssched_lp_certify() decide: primal
 * feasibility, dual signs, dual feasibility of every column and equal
 * objectives, all exact.  A pair that passes is an optimality certificate
 * whatever way it was found; one that fails costs one certification, and
 * the caller falls back to the exact basis solve (lp/solve.c). */
#include <math.h>
#include <stdlib.h>

#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* The basic solution's values share a denominator: det(B) divides each
 * one's.  So the values are reconstructed in turn against a running common
 * denominator L, the objective first: w = v L is a rational of small
 * denominator q (1 once L holds the factors), taken as the first
 * convergent p/q of w with q |w - p/q| <= NOISE max(1, |w|), q <= Q_CAP.
 * The true p/q passes as long as lp_solve's rounding error (measured:
 * 1e-17 to 1e-16 absolute, up to 1e-12 relative on the smallest values)
 * times q stays below NOISE; a convergent passes by chance only when the
 * next partial quotient is very large.  Then v = p / (q L) and L *= q.  A
 * wrong guess is harmless: the exact certificate refuses it and the caller
 * solves exactly.  Measured (bench/scale.sh platforms): gossip among 80
 * hosts of 500 nodes, L = 151800 (TP 7/151800), then 303600 for the duals;
 * scatter to 2645 hosts of 3000 nodes, L = 1258083 (TP 56/1258083). */
#define Q_CAP 1e8
#define NOISE 1e-9
#define L_MAX 1125899906842624.0 /* 2^50 */
#define ZERO 1e-14

typedef struct {
    mpz_t a, b, h[2], k[2], t, L;
    double Ld;
} recon_t;

/* out = v reconstructed against r->L (updated); 0 if no convergent passes
 * before q passes Q_CAP or q L passes L_MAX. */
static int reconstruct(recon_t *r, double v, mpq_ptr out)
{
    if (!isfinite(v))
        return 0;
    if (fabs(v) <= ZERO) {
        mpq_set_ui(out, 0, 1);
        return 1;
    }
    double w = fabs(v) * r->Ld;
    mpq_set_d(out, w); /* exact: a double is a dyadic rational */
    mpz_set(r->a, mpq_numref(out));
    mpz_set(r->b, mpq_denref(out));
    /* convergents h/k: h[-2] = 0, h[-1] = 1, k[-2] = 1, k[-1] = 0 */
    mpz_set_ui(r->h[0], 0);
    mpz_set_ui(r->h[1], 1);
    mpz_set_ui(r->k[0], 1);
    mpz_set_ui(r->k[1], 0);
    int found = 0;
    while (mpz_sgn(r->b) != 0) {
        mpz_fdiv_qr(r->t, r->a, r->a, r->b); /* t = a / b, a = a mod b */
        mpz_swap(r->a, r->b);
        mpz_addmul(r->h[0], r->t, r->h[1]);
        mpz_swap(r->h[0], r->h[1]);
        mpz_addmul(r->k[0], r->t, r->k[1]);
        mpz_swap(r->k[0], r->k[1]);
        double q = mpz_get_d(r->k[1]), d = fabs(w - mpz_get_d(r->h[1]) / q);
        if (q * r->Ld > L_MAX)
            return 0;
        if (q > Q_CAP)
            return 0;
        if (d * q <= NOISE * (w > 1 ? w : 1) || mpz_sgn(r->b) == 0) {
            found = 1;
            break;
        }
    }
    if (!found)
        return 0;
    /* v = h / (k L); the convergent is in lowest terms */
    mpz_mul(r->L, r->L, r->k[1]);
    r->Ld = mpz_get_d(r->L);
    mpz_set(mpq_numref(out), r->h[1]);
    mpz_set(mpq_denref(out), r->L);
    mpq_canonicalize(out);
    if (v < 0)
        mpq_neg(out, out);
    return 1;
}

ssched_status_t ssched_i_cg_rational_solution(const ssched_lp_t *lp, double z, const double *x,
                                              const double *y, ssched_lp_solution_t *sol)
{
    size_t nc = lp->n_cols, nr = lp->n_rows, total = nc + nr;
    ssched_lp_solution_free(sol);
    ssched_lp_solution_init(sol);
    sol->x = ssched_i_alloc(total, sizeof *sol->x);
    sol->y = ssched_i_alloc(nr, sizeof *sol->y);
    sol->basic = ssched_i_calloc(total, 1);
    if (!sol->x || !sol->y || !sol->basic) {
        free(sol->x);
        free(sol->y);
        sol->x = sol->y = NULL;
        return SSCHED_ENOMEM;
    }
    sol->n_cols = nc;
    sol->n_rows = nr;
    for (size_t v = 0; v < total; v++)
        mpq_init(sol->x[v]);
    for (size_t i = 0; i < nr; i++)
        mpq_init(sol->y[i]);
    double t0 = ssched_i_wall_now(), c0 = ssched_i_cpu_now();
    recon_t r;
    mpz_inits(r.a, r.b, r.h[0], r.h[1], r.k[0], r.k[1], r.t, r.L, NULL);
    mpz_set_ui(r.L, 1);
    r.Ld = 1;
    int ok = reconstruct(&r, z, sol->objective);
    mpz_t L0;
    mpz_init_set(L0, r.L);
    for (size_t j = 0; j < nc && ok; j++)
        ok = reconstruct(&r, x[j], sol->x[j]);
    /* the duals against their own denominator: the primal's factors would
     * only amplify their rounding noise */
    mpz_set(r.L, L0);
    r.Ld = mpz_get_d(L0);
    mpz_clear(L0);
    for (size_t i = 0; i < nr && ok; i++)
        ok = reconstruct(&r, y[i], sol->y[i]);
    mpz_clears(r.a, r.b, r.h[0], r.h[1], r.k[0], r.k[1], r.t, r.L, NULL);
    ssched_status_t st = ok ? SSCHED_OK : SSCHED_EUNCERTIFIED;
    /* the slacks: rhs - row activity (lp/solve.c's convention) */
    for (size_t i = 0; i < nr && st == SSCHED_OK; i++) {
        const ssched_lp_row_t *row = &lp->rows[i];
        mpq_ptr s = sol->x[nc + i];
        mpq_set(s, row->rhs);
        for (size_t e = 0; e < row->nnz; e++)
            if (mpq_sgn(sol->x[row->cols[e]]) != 0) {
                mpq_t p;
                mpq_init(p);
                mpq_mul(p, row->vals[e], sol->x[row->cols[e]]);
                mpq_sub(s, s, p);
                mpq_clear(p);
            }
    }
    if (st == SSCHED_OK) {
        ssched_check_report_t rep;
        ssched_error_t err;
        st = ssched_lp_certify(lp, (const mpq_t *)sol->x, (const mpq_t *)sol->y, sol->objective,
                               &rep, &err);
        if (st == SSCHED_OK && !rep.valid)
            st = SSCHED_EUNCERTIFIED;
    }
    /* basic flags: the non-zero columns and slacks (a basis up to
     * degeneracy; nothing downstream pivots from it) */
    for (size_t v = 0; v < total && st == SSCHED_OK; v++)
        sol->basic[v] = mpq_sgn(sol->x[v]) != 0;
    sol->exact_seconds = ssched_i_wall_now() - t0;
    sol->exact_cpu_seconds = ssched_i_cpu_now() - c0;
    if (st == SSCHED_OK)
        sol->outcome = SSCHED_LP_OPTIMAL;
    return st;
}
