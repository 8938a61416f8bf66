/* The exact optimality certificate (lp.h: ssched_lp_certify).
 *
 * Weak duality for  max c.x, Ax {<=,>=,=} b, x >= 0: any y with y_i >= 0 on
 * <= rows, y_i <= 0 on >= rows and A^T y >= c bounds c.x <= b.y for every
 * feasible x.  So a feasible x and such a y with c.x == b.y prove that x is
 * optimal.  This check shares no code with the solver. */
#include "src/util/internal.h"
#include "ssched/lp.h"

#include <stdlib.h>

#include "src/util/check_report.h"

/* The certificate's conditions; a failing one is EUNCERTIFIED in err (what
 * the solver reports when it cannot certify). */
static ssched_status_t certify(const ssched_lp_t *lp, const mpq_t *x, const mpq_t *y,
                               mpq_ptr objective, ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    mpq_t acc, tmp, primal, dual;
    mpq_inits(acc, tmp, primal, dual, NULL);
    mpq_t *colsum = ssched_i_alloc(lp->n_cols, sizeof *colsum);
    if (!colsum) {
        mpq_clears(acc, tmp, primal, dual, NULL);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < lp->n_cols; j++) {
        mpq_init(colsum[j]);
        if (mpq_sgn(x[j]) < 0 && st == SSCHED_OK)
            st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                                  "certificate: column %s is negative", lp->col_names[j]);
        mpq_mul(tmp, lp->obj[j], x[j]);
        mpq_add(primal, primal, tmp);
    }
    for (size_t i = 0; i < lp->n_rows && st == SSCHED_OK; i++) {
        const ssched_lp_row_t *r = &lp->rows[i];
        mpq_set_ui(acc, 0, 1);
        for (size_t k = 0; k < r->nnz; k++) {
            mpq_mul(tmp, r->vals[k], x[r->cols[k]]);
            mpq_add(acc, acc, tmp);
            mpq_mul(tmp, r->vals[k], y[i]);
            mpq_add(colsum[r->cols[k]], colsum[r->cols[k]], tmp);
        }
        int c = mpq_cmp(acc, r->rhs);
        int ysign = mpq_sgn(y[i]);
        if ((r->sense == SSCHED_ROW_LE && c > 0) || (r->sense == SSCHED_ROW_GE && c < 0) ||
            (r->sense == SSCHED_ROW_EQ && c != 0))
            st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                                  "certificate: row %s is violated by the primal solution", r->name);
        else if ((r->sense == SSCHED_ROW_LE && ysign < 0) || (r->sense == SSCHED_ROW_GE && ysign > 0))
            st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                                  "certificate: dual of row %s has the wrong sign", r->name);
        mpq_mul(tmp, r->rhs, y[i]);
        mpq_add(dual, dual, tmp);
    }
    for (size_t j = 0; j < lp->n_cols && st == SSCHED_OK; j++)
        if (mpq_cmp(colsum[j], lp->obj[j]) < 0)
            st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                                  "certificate: dual constraint of column %s is violated",
                                  lp->col_names[j]);
    if (st == SSCHED_OK && !mpq_equal(primal, dual))
        st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                              "certificate: primal and dual objectives differ (duality gap)");
    if (st == SSCHED_OK && objective)
        mpq_set(objective, primal);
    for (size_t j = 0; j < lp->n_cols; j++)
        mpq_clear(colsum[j]);
    free(colsum);
    mpq_clears(acc, tmp, primal, dual, NULL);
    return st;
}

ssched_status_t ssched_lp_certify(const ssched_lp_t *lp, const mpq_t *x, const mpq_t *y,
                                  mpq_ptr objective, ssched_check_report_t *report,
                                  ssched_error_t *err)
{
    ssched_error_t verr;
    ssched_error_clear(&verr);
    ssched_status_t st = certify(lp, x, y, objective, &verr);
    return ssched_i_report_outcome(st, SSCHED_EUNCERTIFIED, &verr, report, err);
}
