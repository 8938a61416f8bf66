/* The sparse rational LP object (lp.h): construction and teardown. */
#include "ssched/lp.h"

#include <stdlib.h>
#include <string.h>

#include "src/util/enum_names.h"

ssched_status_t ssched_lp_init(ssched_lp_t *lp, const char *name)
{
    memset(lp, 0, sizeof *lp);
    lp->name = strdup(name ? name : "ssched");
    return lp->name ? SSCHED_OK : SSCHED_ENOMEM;
}

void ssched_lp_free(ssched_lp_t *lp)
{
    for (size_t j = 0; j < lp->n_cols; j++) {
        free(lp->col_names[j]);
        mpq_clear(lp->obj[j]);
    }
    for (size_t i = 0; i < lp->n_rows; i++) {
        ssched_lp_row_t *r = &lp->rows[i];
        for (size_t k = 0; k < r->nnz; k++)
            mpq_clear(r->vals[k]);
        free(r->cols);
        free(r->vals);
        free(r->name);
        mpq_clear(r->rhs);
    }
    free(lp->col_names);
    free(lp->obj);
    free(lp->rows);
    free(lp->name);
    memset(lp, 0, sizeof *lp);
}

ssched_status_t ssched_lp_add_col(ssched_lp_t *lp, const char *name, mpq_srcptr obj,
                                  size_t *index, ssched_error_t *err)
{
    if (lp->n_cols == lp->col_cap) {
        size_t cap = lp->col_cap ? 2 * lp->col_cap : 64;
        char **names = realloc(lp->col_names, cap * sizeof *names);
        if (names)
            lp->col_names = names;
        mpq_t *o = names ? realloc(lp->obj, cap * sizeof *o) : NULL;
        if (!o)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        lp->obj = o;
        lp->col_cap = cap;
    }
    size_t j = lp->n_cols;
    lp->col_names[j] = strdup(name);
    if (!lp->col_names[j])
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_init(lp->obj[j]);
    if (obj)
        mpq_set(lp->obj[j], obj);
    lp->n_cols++;
    if (index)
        *index = j;
    return SSCHED_OK;
}

ssched_status_t ssched_lp_add_row(ssched_lp_t *lp, const char *name,
                                  ssched_row_sense_t sense, const mpq_t rhs,
                                  size_t *index, ssched_error_t *err)
{
    if (lp->n_rows == lp->row_cap) {
        size_t cap = lp->row_cap ? 2 * lp->row_cap : 64;
        ssched_lp_row_t *rows = realloc(lp->rows, cap * sizeof *rows);
        if (!rows)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        lp->rows = rows;
        lp->row_cap = cap;
    }
    ssched_lp_row_t *r = &lp->rows[lp->n_rows];
    memset(r, 0, sizeof *r);
    r->name = strdup(name);
    if (!r->name)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    r->sense = sense;
    mpq_init(r->rhs);
    mpq_set(r->rhs, rhs);
    if (index)
        *index = lp->n_rows;
    lp->n_rows++;
    return SSCHED_OK;
}

ssched_status_t ssched_lp_add_coef(ssched_lp_t *lp, size_t row, size_t col,
                                   const mpq_t coef, ssched_error_t *err)
{
    if (row >= lp->n_rows || col >= lp->n_cols)
        return ssched_error_set(err, SSCHED_EINTERNAL, "LP coefficient out of range");
    if (mpq_sgn(coef) == 0)
        return SSCHED_OK;
    ssched_lp_row_t *r = &lp->rows[row];
    /* Builders usually add an entry once, most recent column last. */
    for (size_t k = r->nnz; k-- > 0;) {
        if (r->cols[k] == col) {
            mpq_add(r->vals[k], r->vals[k], coef);
            if (mpq_sgn(r->vals[k]) == 0) {
                mpq_swap(r->vals[k], r->vals[r->nnz - 1]);
                r->cols[k] = r->cols[r->nnz - 1];
                mpq_clear(r->vals[--r->nnz]);
            }
            return SSCHED_OK;
        }
    }
    if (r->nnz == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        size_t *cols = realloc(r->cols, cap * sizeof *cols);
        if (cols)
            r->cols = cols;
        mpq_t *vals = cols ? realloc(r->vals, cap * sizeof *vals) : NULL;
        if (!vals)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        r->vals = vals;
        r->cap = cap;
    }
    r->cols[r->nnz] = col;
    mpq_init(r->vals[r->nnz]);
    mpq_set(r->vals[r->nnz], coef);
    r->nnz++;
    return SSCHED_OK;
}

SSCHED_I_ENUM_FUNCTIONS(row_sense, ssched_row_sense_t, "row sense", "le", "ge", "eq")

SSCHED_I_ENUM_FUNCTIONS(lp_outcome, ssched_lp_outcome_t, "LP outcome", "optimal", "infeasible",
                        "unbounded")
