/* Exact primal simplex, used to repair a floating-point basis that fails to
 * certify.  Bland's smallest-index rule for both the entering and the
 * leaving variable guarantees termination without any tolerance (Bland
 * 1977).  The basis is refactorized exactly at each pivot: repairs take few
 * pivots, so simplicity wins over update formulas here. */
#include <stdint.h>
#include <stdlib.h>

#include "lp/internal.h"
#include "src/util/internal.h"

/* Direction in which nonbasic variable v may move away from 0:
 * +1 (v >= 0), -1 (v <= 0, slack of a >= row), 0 (fixed: slack of = row). */
static int free_direction(const ssched_lp_t *lp, size_t v)
{
    if (v < lp->n_cols)
        return 1;
    switch (lp->rows[v - lp->n_cols].sense) {
    case SSCHED_ROW_LE: return 1;
    case SSCHED_ROW_GE: return -1;
    default: return 0;
    }
}

/* Is value q within the bounds of variable v? */
static int within_bounds(const ssched_lp_t *lp, size_t v, const mpq_t q)
{
    int dir = free_direction(lp, v);
    int s = mpq_sgn(q);
    return dir > 0 ? s >= 0 : dir < 0 ? s <= 0 : s == 0;
}

int ssched_i_exact_primal_simplex(const ssched_lp_t *lp, const csc_t *a, unsigned char *basis,
                         size_t max_pivots, size_t *pivots)
{
    size_t m = lp->n_rows, total = lp->n_cols + lp->n_rows;
    int result = -1;
    mpq_t *x = malloc(total * sizeof *x), *y = ssched_i_alloc(m, sizeof *y);
    mpq_t *d = ssched_i_alloc(m, sizeof *d);
    size_t *list = ssched_i_alloc(m, sizeof *list);
    mpq_t rc, ratio, best, tmp;
    mpq_inits(rc, ratio, best, tmp, NULL);
    if (!x || !y || !d || !list) {
        free(x); free(y); free(d); free(list);
        mpq_clears(rc, ratio, best, tmp, NULL);
        return -1;
    }
    for (size_t v = 0; v < total; v++)
        mpq_init(x[v]);
    for (size_t i = 0; i < m; i++) {
        mpq_init(y[i]);
        mpq_init(d[i]);
    }
    *pivots = 0;
    for (;;) {
        int r = ssched_i_basis_solve(lp, a, basis, x, y);
        if (r != 1) {
            result = r == 0 ? 0 : -1;
            break;
        }
        size_t v;
        for (v = 0; v < total; v++)
            if (basis[v] && !within_bounds(lp, v, x[v]))
                break;
        if (v < total) {
            result = 0; /* not primal feasible: this routine cannot start */
            break;
        }
        /* Entering variable: smallest index with an improving reduced cost. */
        size_t enter = SIZE_MAX;
        int sigma = 0;
        for (v = 0; v < total && enter == SIZE_MAX; v++) {
            if (basis[v])
                continue;
            int dir = free_direction(lp, v);
            if (dir == 0)
                continue;
            if (v < lp->n_cols) {
                mpq_set(rc, lp->obj[v]);
                for (size_t t = a->start[v]; t < a->start[v + 1]; t++) {
                    mpq_mul(tmp, a->val[t], y[a->row[t]]);
                    mpq_sub(rc, rc, tmp);
                }
            } else {
                mpq_neg(rc, y[v - lp->n_cols]);
            }
            if (mpq_sgn(rc) * dir > 0) {
                enter = v;
                sigma = dir;
            }
        }
        if (enter == SIZE_MAX) {
            result = 1; /* optimal */
            break;
        }
        if (max_pivots > 0 && *pivots >= max_pivots) {
            result = -1;
            break;
        }
        size_t p = 0;
        for (v = 0; v < total; v++)
            if (basis[v])
                list[p++] = v;
        if (ssched_i_basis_direction(lp, a, list, enter, d) != 1) {
            result = -1;
            break;
        }
        /* Ratio test: x_B(t) = x_B - t*sigma*d.  Ties go to the smallest
         * variable index (Bland). */
        size_t leave_pos = SIZE_MAX;
        for (p = 0; p < m; p++) {
            size_t k = list[p];
            int rate = -sigma * mpq_sgn(d[p]); /* sign of dx_k/dt */
            if (rate == 0)
                continue;
            int dir = free_direction(lp, k);
            if (dir > 0 && rate > 0)
                continue; /* moves away from its only bound */
            if (dir < 0 && rate < 0)
                continue;
            /* limit t = |x_k| / |d_p| (x_k is 0 for fixed slacks) */
            mpq_abs(ratio, x[k]);
            mpq_abs(tmp, d[p]);
            mpq_div(ratio, ratio, tmp);
            int c = leave_pos == SIZE_MAX ? -1 : mpq_cmp(ratio, best);
            if (c < 0 || (c == 0 && k < list[leave_pos])) {
                mpq_set(best, ratio);
                leave_pos = p;
            }
        }
        if (leave_pos == SIZE_MAX) {
            result = 0; /* unbounded */
            break;
        }
        basis[list[leave_pos]] = 0;
        basis[enter] = 1;
        (*pivots)++;
    }
    for (size_t v = 0; v < total; v++)
        mpq_clear(x[v]);
    for (size_t i = 0; i < m; i++) {
        mpq_clear(y[i]);
        mpq_clear(d[i]);
    }
    free(x); free(y); free(d); free(list);
    mpq_clears(rc, ratio, best, tmp, NULL);
    return result;
}
