/* The rounding scheme of seed 004 section 3.3 and the guarantee of eq. (4). */
#include <stdlib.h>

#include "src/scatter/internal.h"
#include "src/util/internal.h"

/* Distance of r to the integer it would be rounded to in `dir` (-1 floor,
 * +1 ceiling, 0 nearest), and that integer. */
static void rounding(const mpq_t r, int dir, mpz_t to, mpq_t dist)
{
    mpz_t fl;
    mpz_init(fl);
    mpz_fdiv_q(fl, mpq_numref(r), mpq_denref(r));
    mpq_t f;
    mpq_init(f);
    mpq_set_z(f, fl);
    mpq_sub(dist, r, f); /* fractional part, in (0, 1) for a non-integer */
    mpq_t half;
    mpq_init(half);
    mpq_set_ui(half, 1, 2);
    int up = dir > 0 || (dir == 0 && mpq_cmp(dist, half) > 0);
    if (up) {
        mpz_add_ui(to, fl, 1);
        mpq_set_ui(f, 1, 1);
        mpq_sub(dist, f, dist);
    } else {
        mpz_set(to, fl);
    }
    mpq_clears(f, half, NULL);
    mpz_clear(fl);
}

/* Section 3.3: round the non-integer share nearest to an integer to that
 * integer; then, while the accumulated error e = sum (n'_j - n_j) is
 * negative (shares underestimated), round up the remaining share nearest to
 * its ceiling, and while it is positive round down the one nearest to its
 * floor (e = 0: nearest again); the last share absorbs the error, n'_k = n_k
 * - e, an integer because the sum is n.  |e| < 1 throughout, so every
 * |n'_i - n_i| < 1, which is what eq. (4) needs.  Ties go to the lowest
 * index. */
ssched_status_t ssched_sb_round(size_t p, const mpq_t *r, long n, long *out,
                                ssched_error_t *err)
{
    mpq_t sum, e, dist, bestd, q;
    mpq_inits(sum, e, dist, bestd, q, NULL);
    mpz_t to, bestto;
    mpz_inits(to, bestto, NULL);
    ssched_status_t st = SSCHED_OK;
    unsigned char *pending = ssched_i_calloc(p, 1);
    size_t npending = 0;
    if (!pending) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory rounding");
        goto done;
    }
    for (size_t i = 0; i < p; i++) {
        if (mpq_sgn(r[i]) < 0) {
            st = ssched_error_set(err, SSCHED_EINPUT, "negative rational share at %zu", i);
            goto done;
        }
        mpq_add(sum, sum, r[i]);
        if (mpz_cmp_ui(mpq_denref(r[i]), 1) == 0) {
            out[i] = mpz_get_si(mpq_numref(r[i]));
        } else {
            pending[i] = 1;
            npending++;
        }
    }
    mpq_set_si(q, n, 1);
    if (!mpq_equal(sum, q)) {
        st = ssched_error_set(err, SSCHED_EINPUT, "rational shares do not sum to %ld", n);
        goto done;
    }
    /* npending is 0 or >= 2: one non-integer alone cannot sum to n */
    while (npending > 1) {
        int dir = mpq_sgn(e) < 0 ? 1 : mpq_sgn(e) > 0 ? -1 : 0;
        size_t best = p;
        for (size_t i = 0; i < p; i++) {
            if (!pending[i])
                continue;
            rounding(r[i], dir, to, dist);
            if (best == p || mpq_cmp(dist, bestd) < 0) {
                best = i;
                mpq_set(bestd, dist);
                mpz_set(bestto, to);
            }
        }
        out[best] = mpz_get_si(bestto);
        mpq_set_z(q, bestto);
        mpq_sub(q, q, r[best]);
        mpq_add(e, e, q);
        pending[best] = 0;
        npending--;
    }
    for (size_t i = 0; i < p; i++)
        if (pending[i]) {
            mpq_sub(q, r[i], e);
            if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || mpq_sgn(q) < 0) {
                st = ssched_error_set(err, SSCHED_EINTERNAL, "rounding left a fraction");
                goto done;
            }
            out[i] = mpz_get_si(mpq_numref(q));
        }
done:
    free(pending);
    mpq_clears(sum, e, dist, bestd, q, NULL);
    mpz_clears(to, bestto, NULL);
    return st;
}

/* r holds the relaxation (relaxed_items, relaxed_makespan): round it, run
 * the checker, and verify eq. (4): T' <= T + sum_j T_comm(j,1) + max_i
 * T_comp(i,1) (T <= T_opt, so T' <= T_opt + guarantee).  The proof needs
 * affine nondecreasing costs and |n'_i - n_i| < 1; a failure would be a bug. */
ssched_status_t ssched_i_sb_round_relaxation(const ssched_sb_platform_t *inst, ssched_sb_result_t *r,
                                    ssched_error_t *err)
{
    ssched_status_t st = ssched_sb_round(r->p, r->relaxed_items, r->n, r->items, err);
    if (st == SSCHED_OK)
        st = ssched_i_sb_result_finish(inst, r, err);
    if (st != SSCHED_OK)
        return st;
    ssched_sb_guarantee(inst, r->guarantee);
    mpq_t bound;
    mpq_init(bound);
    mpq_add(bound, r->relaxed_makespan, r->guarantee);
    if (mpq_cmp(r->makespan, bound) > 0 || mpq_cmp(r->makespan, r->relaxed_makespan) < 0)
        st = ssched_error_set(err, SSCHED_EINTERNAL,
                              "rounded makespan outside [T, T + guarantee] of eq. (4)");
    mpq_clear(bound);
    return st;
}
