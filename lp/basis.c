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

/* The basis kernel (the reduction every exact basis solve goes through).
 * With the basic variables split into structural columns S and slacks, a
 * basic slack's row i is solved by its slack alone once x_S is known, and
 * forces y_i = 0 (a slack costs nothing), so
 *     B x_B = b    <=>  K x_S = b[R]   and  s_i = b_i - a_i.x_S  (i not in R)
 *     B^T y = c_B  <=>  K^T y[R] = c_S and  y_i = 0             (i not in R)
 * with R the rows whose slack is nonbasic and K = A[R, S] (|R| = |S|, and
 * B is singular exactly when K is).  On ssched's masters most basic
 * variables are slacks: a broadcast master of 20000 rows has a kernel of
 * 3 x 3.  One LU of K (lp/sparse.c) gives both solves. */
int ssched_i_basis_solve(const ssched_lp_t *lp, const csc_t *a, const unsigned char *basis,
                mpq_t *x, mpq_t *y)
{
    size_t m = lp->n_rows, nc = lp->n_cols, total = nc + m;
    size_t k = 0, n_basic = 0;
    for (size_t v = 0; v < total; v++)
        n_basic += basis[v] != 0;
    if (n_basic != m)
        return 0; /* not a basis */
    for (size_t j = 0; j < nc; j++)
        k += basis[j] != 0;
    size_t *cols = ssched_i_alloc(k, sizeof *cols);      /* S, ascending */
    size_t *krow = ssched_i_alloc(m, sizeof *krow);      /* row -> kernel row or SIZE_MAX */
    size_t *rows_of = ssched_i_alloc(k, sizeof *rows_of); /* kernel row -> row */
    spvec_t *rows = ssched_i_calloc(k, sizeof *rows);
    mpq_t *v = ssched_i_mpq_vec_new(k);
    mpq_t tmp;
    mpq_init(tmp);
    int result = -1;
    sp_lu_t lu;
    memset(&lu, 0, sizeof lu);
    if (!cols || !krow || !rows_of || !rows || !v)
        goto out;
    size_t p = 0, r = 0;
    for (size_t j = 0; j < nc; j++)
        if (basis[j])
            cols[p++] = j;
    for (size_t i = 0; i < m; i++) {
        krow[i] = SIZE_MAX;
        if (!basis[nc + i]) {
            krow[i] = r;
            rows_of[r++] = i;
        }
    }
    /* K's rows; columns visited in order, so each row comes out sorted */
    for (p = 0; p < k; p++)
        for (size_t t = a->start[cols[p]]; t < a->start[cols[p] + 1]; t++)
            if (krow[a->row[t]] != SIZE_MAX &&
                !ssched_i_spvec_push(&rows[krow[a->row[t]]], p, a->val[t]))
                goto out;
    result = ssched_i_lu_factor(&lu, k, rows);
    rows = NULL; /* the factor's now */
    if (result != 1)
        goto out;

    /* Primal: K x_S = b[R]; nonbasic variables are 0; basic slacks last. */
    for (r = 0; r < k; r++)
        mpq_set(v[r], lp->rows[rows_of[r]].rhs);
    if ((result = ssched_i_lu_solve(&lu, v)) != 1)
        goto out;
    for (size_t w = 0; w < total; w++)
        mpq_set_ui(x[w], 0, 1);
    for (p = 0; p < k; p++)
        mpq_set(x[cols[p]], v[p]);
    for (size_t i = 0; i < m; i++) {
        if (krow[i] != SIZE_MAX)
            continue;
        const ssched_lp_row_t *row = &lp->rows[i];
        mpq_ptr s = x[nc + i];
        mpq_set(s, row->rhs);
        for (size_t t = 0; t < row->nnz; t++)
            if (basis[row->cols[t]] && mpq_sgn(x[row->cols[t]]) != 0) {
                mpq_mul(tmp, row->vals[t], x[row->cols[t]]);
                mpq_sub(s, s, tmp);
            }
    }

    /* Dual: K^T y[R] = c_S; rows with a basic slack have y = 0. */
    for (p = 0; p < k; p++)
        mpq_set(v[p], lp->obj[cols[p]]);
    if ((result = ssched_i_lu_solve_t(&lu, v)) != 1)
        goto out;
    for (size_t i = 0; i < m; i++)
        mpq_set_ui(y[i], 0, 1);
    for (r = 0; r < k; r++)
        mpq_set(y[rows_of[r]], v[r]);
out:
    if (rows)
        free_rows(rows, k);
    ssched_i_lu_free(&lu);
    if (v)
        ssched_i_mpq_vec_free(v, k);
    mpq_clear(tmp);
    free(cols);
    free(krow);
    free(rows_of);
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
