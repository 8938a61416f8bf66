/* Exact basic solutions: recompute a simplex basis in GMP rationals.
 *
 * This is the heart of the certification (design.md "Exactness"): the float
 * solver only proposes which variables are basic; every number ssched
 * reports is recomputed here from the exact LP data. */
#include <stdlib.h>
#include <string.h>

#include "lp/internal.h"
#include "src/util/internal.h"

int ssched_i_csc_build(csc_t *a, const ssched_lp_t *lp)
{
    memset(a, 0, sizeof *a);
    a->n_cols = lp->n_cols;
    a->n_rows = lp->n_rows;
    a->start = calloc(lp->n_cols + 1, sizeof *a->start);
    if (!a->start)
        return 0;
    for (size_t i = 0; i < lp->n_rows; i++)
        for (size_t k = 0; k < lp->rows[i].nnz; k++)
            a->start[lp->rows[i].cols[k] + 1]++;
    for (size_t j = 0; j < lp->n_cols; j++)
        a->start[j + 1] += a->start[j];
    size_t nnz = a->start[lp->n_cols];
    a->row = ssched_i_alloc(nnz, sizeof *a->row);
    a->val = ssched_i_alloc(nnz, sizeof *a->val);
    size_t *fill = ssched_i_alloc(lp->n_cols, sizeof *fill);
    if (!a->row || !a->val || !fill) {
        free(fill);
        a->n_cols = 0;
        ssched_i_csc_free(a);
        return 0;
    }
    memcpy(fill, a->start, lp->n_cols * sizeof *fill);
    /* Rows visited in order, so each column's row indices come out sorted. */
    for (size_t i = 0; i < lp->n_rows; i++)
        for (size_t k = 0; k < lp->rows[i].nnz; k++) {
            size_t t = fill[lp->rows[i].cols[k]]++;
            a->row[t] = i;
            mpq_init(a->val[t]);
            mpq_set(a->val[t], lp->rows[i].vals[k]);
        }
    free(fill);
    return 1;
}

void ssched_i_csc_free(csc_t *a)
{
    if (a->start && a->val)
        for (size_t t = 0; t < a->start[a->n_cols]; t++)
            mpq_clear(a->val[t]);
    free(a->start);
    free(a->row);
    free(a->val);
    memset(a, 0, sizeof *a);
}

static void free_rows(spvec_t *rows, size_t n)
{
    if (!rows)
        return;
    for (size_t i = 0; i < n; i++)
        ssched_i_spvec_free(&rows[i]);
    free(rows);
}

/* Rows of B (m x m): B[i][p] = coefficient of basic variable p in row i. */
static spvec_t *basis_rows(const ssched_lp_t *lp, const csc_t *a, const size_t *basic_list)
{
    size_t m = lp->n_rows;
    spvec_t *rows = ssched_i_calloc(m, sizeof *rows);
    if (!rows)
        return NULL;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    for (size_t p = 0; p < m; p++) {
        size_t v = basic_list[p];
        if (v < lp->n_cols) {
            for (size_t t = a->start[v]; t < a->start[v + 1]; t++)
                if (!ssched_i_spvec_push(&rows[a->row[t]], p, a->val[t]))
                    goto fail;
        } else if (!ssched_i_spvec_push(&rows[v - lp->n_cols], p, one)) {
            goto fail;
        }
    }
    mpq_clear(one);
    return rows;
fail:
    mpq_clear(one);
    free_rows(rows, m);
    return NULL;
}

/* Rows of B^T: row p is the column of basic variable p. */
static spvec_t *basis_cols(const ssched_lp_t *lp, const csc_t *a, const size_t *basic_list)
{
    size_t m = lp->n_rows;
    spvec_t *rows = ssched_i_calloc(m, sizeof *rows);
    if (!rows)
        return NULL;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    for (size_t p = 0; p < m; p++) {
        size_t v = basic_list[p];
        int ok = 1;
        if (v < lp->n_cols) {
            for (size_t t = a->start[v]; t < a->start[v + 1] && ok; t++)
                ok = ssched_i_spvec_push(&rows[p], a->row[t], a->val[t]);
        } else {
            ok = ssched_i_spvec_push(&rows[p], v - lp->n_cols, one);
        }
        if (!ok) {
            mpq_clear(one);
            free_rows(rows, m);
            return NULL;
        }
    }
    mpq_clear(one);
    return rows;
}

static size_t *list_basic(const ssched_lp_t *lp, const unsigned char *basis, int *ok)
{
    size_t m = lp->n_rows, total = lp->n_cols + lp->n_rows, p = 0;
    size_t *list = ssched_i_calloc(m, sizeof *list);
    *ok = list != NULL;
    if (!list)
        return NULL;
    for (size_t v = 0; v < total; v++)
        if (basis[v]) {
            if (p == m) {
                *ok = 0; /* too many basic variables */
                break;
            }
            list[p++] = v;
        }
    if (p != m)
        *ok = 0;
    return list;
}

int ssched_i_basis_solve(const ssched_lp_t *lp, const csc_t *a, const unsigned char *basis,
                mpq_t *x, mpq_t *y)
{
    size_t m = lp->n_rows, total = lp->n_cols + lp->n_rows;
    int ok;
    size_t *list = list_basic(lp, basis, &ok);
    if (!list)
        return -1;
    if (!ok) {
        free(list);
        return 0;
    }
    int result = -1;
    mpq_t *rhs = ssched_i_mpq_vec_new(m);
    if (!rhs)
        goto out;

    /* Primal: B x_B = b; nonbasic variables are 0. */
    spvec_t *rows = basis_rows(lp, a, list);
    if (!rows)
        goto out_rhs;
    for (size_t i = 0; i < m; i++)
        mpq_set(rhs[i], lp->rows[i].rhs);
    result = ssched_i_sparse_solve(m, rows, rhs);
    free_rows(rows, m);
    if (result != 1)
        goto out_rhs;
    for (size_t v = 0; v < total; v++)
        mpq_set_ui(x[v], 0, 1);
    for (size_t p = 0; p < m; p++)
        mpq_set(x[list[p]], rhs[p]);

    /* Dual: B^T y = c_B (slacks cost nothing). */
    rows = basis_cols(lp, a, list);
    if (!rows) {
        result = -1;
        goto out_rhs;
    }
    for (size_t p = 0; p < m; p++) {
        if (list[p] < lp->n_cols)
            mpq_set(rhs[p], lp->obj[list[p]]);
        else
            mpq_set_ui(rhs[p], 0, 1);
    }
    result = ssched_i_sparse_solve(m, rows, rhs);
    free_rows(rows, m);
    if (result == 1)
        for (size_t i = 0; i < m; i++)
            mpq_set(y[i], rhs[i]);
out_rhs:
    ssched_i_mpq_vec_free(rhs, m);
out:
    free(list);
    return result;
}

int ssched_i_basis_direction(const ssched_lp_t *lp, const csc_t *a, const size_t *basic_list,
                    size_t var, mpq_t *d)
{
    size_t m = lp->n_rows;
    spvec_t *rows = basis_rows(lp, a, basic_list);
    if (!rows)
        return -1;
    for (size_t i = 0; i < m; i++)
        mpq_set_ui(d[i], 0, 1);
    if (var < lp->n_cols) {
        for (size_t t = a->start[var]; t < a->start[var + 1]; t++)
            mpq_set(d[a->row[t]], a->val[t]);
    } else {
        mpq_set_ui(d[var - lp->n_cols], 1, 1);
    }
    int r = ssched_i_sparse_solve(m, rows, d);
    free_rows(rows, m);
    return r;
}
