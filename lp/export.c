/* LP and MPS export (lp.h).
 *
 * Neither format can hold 1/3.  Each row is therefore multiplied by the LCM
 * of the denominators of its coefficients and right-hand side: the exported
 * constraint defines exactly the same half-space, so any exact solver
 * (glpsol --exact, QSopt_ex esolver) finds exactly ssched's optimum.  The
 * objective is scaled the same way; the scale is printed in a comment so the
 * optimum can be mapped back. */
#include "src/util/internal.h"
#include "ssched/lp.h"
#include "ssched/export.h"

#include <stdlib.h>

/* scale = lcm of the denominators of q[0..n-1] and of extra (may be NULL). */
static void lcm_of(mpz_t scale, const mpq_t *q, size_t n, mpq_srcptr extra)
{
    mpz_set_ui(scale, 1);
    for (size_t k = 0; k < n; k++)
        mpz_lcm(scale, scale, mpq_denref(q[k]));
    if (extra)
        mpz_lcm(scale, scale, mpq_denref(extra));
}

/* Print scale*q (an integer by construction) with an explicit sign. */
static void print_term(FILE *out, const mpz_t scale, const mpq_t q, int first)
{
    mpz_t v;
    mpz_init(v);
    mpz_divexact(v, scale, mpq_denref(q));
    mpz_mul(v, v, mpq_numref(q));
    if (mpz_sgn(v) < 0) {
        fputs(first ? "-" : "- ", out);
        mpz_neg(v, v);
    } else if (!first) {
        fputs("+ ", out);
    }
    mpz_out_str(out, 10, v);
    mpz_clear(v);
}

static void print_scaled(FILE *out, const mpz_t scale, const mpq_t q)
{
    mpz_t v;
    mpz_init(v);
    mpz_divexact(v, scale, mpq_denref(q));
    mpz_mul(v, v, mpq_numref(q));
    mpz_out_str(out, 10, v);
    mpz_clear(v);
}

ssched_status_t ssched_write_lp(FILE *out, const ssched_lp_t *lp, ssched_error_t *err)
{
    mpz_t scale;
    mpz_init(scale);
    lcm_of(scale, (const mpq_t *)lp->obj, lp->n_cols, NULL);
    fprintf(out, "\\ %s: exported by ssched; every row scaled to integer coefficients\n", lp->name);
    fputs("\\ objective scale: ", out);
    mpz_out_str(out, 10, scale);
    fputs(" (optimum of this file = scale * ssched optimum)\nMaximize\n obj:", out);
    int first = 1, any = 0;
    for (size_t j = 0; j < lp->n_cols; j++) {
        if (mpq_sgn(lp->obj[j]) == 0)
            continue;
        fputc(' ', out);
        print_term(out, scale, lp->obj[j], first);
        fprintf(out, " %s", lp->col_names[j]);
        first = 0;
        any = 1;
    }
    if (!any && lp->n_cols > 0)
        fprintf(out, " 0 %s", lp->col_names[0]);
    fputs("\nSubject To\n", out);
    for (size_t i = 0; i < lp->n_rows; i++) {
        const ssched_lp_row_t *r = &lp->rows[i];
        lcm_of(scale, (const mpq_t *)r->vals, r->nnz, r->rhs);
        fprintf(out, " %s:", r->name);
        if (r->nnz == 0)
            fprintf(out, " 0 %s", lp->n_cols ? lp->col_names[0] : "x");
        for (size_t k = 0; k < r->nnz; k++) {
            fputc(' ', out);
            print_term(out, scale, r->vals[k], k == 0);
            fprintf(out, " %s", lp->col_names[r->cols[k]]);
        }
        fputs(r->sense == SSCHED_ROW_LE ? " <= " : r->sense == SSCHED_ROW_GE ? " >= " : " = ", out);
        print_scaled(out, scale, r->rhs);
        fputc('\n', out);
    }
    fputs("End\n", out);
    mpz_clear(scale);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error while exporting the LP");
    return SSCHED_OK;
}

ssched_status_t ssched_write_mps(FILE *out, const ssched_lp_t *lp, ssched_error_t *err)
{
    /* Free MPS, column-major: build the transpose once. */
    size_t *count = calloc(lp->n_cols + 1, sizeof *count);
    if (!count)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < lp->n_rows; i++)
        for (size_t k = 0; k < lp->rows[i].nnz; k++)
            count[lp->rows[i].cols[k] + 1]++;
    for (size_t j = 0; j < lp->n_cols; j++)
        count[j + 1] += count[j];
    size_t nnz = count[lp->n_cols];
    size_t *row_of = ssched_i_alloc(nnz, sizeof *row_of);
    size_t *pos_of = ssched_i_alloc(nnz, sizeof *pos_of);
    size_t *fill = ssched_i_alloc(lp->n_cols, sizeof *fill);
    mpz_t *row_scale = ssched_i_alloc(lp->n_rows, sizeof *row_scale);
    if (!row_of || !pos_of || !fill || !row_scale) {
        free(count); free(row_of); free(pos_of); free(fill); free(row_scale);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < lp->n_cols; j++)
        fill[j] = count[j];
    for (size_t i = 0; i < lp->n_rows; i++) {
        mpz_init(row_scale[i]);
        lcm_of(row_scale[i], (const mpq_t *)lp->rows[i].vals, lp->rows[i].nnz, lp->rows[i].rhs);
        for (size_t k = 0; k < lp->rows[i].nnz; k++) {
            size_t j = lp->rows[i].cols[k];
            row_of[fill[j]] = i;
            pos_of[fill[j]++] = k;
        }
    }
    mpz_t oscale;
    mpz_init(oscale);
    lcm_of(oscale, (const mpq_t *)lp->obj, lp->n_cols, NULL);
    fprintf(out, "* %s: exported by ssched; rows scaled to integer coefficients\n", lp->name);
    /* OBJSENSE is not read by every MPS reader (GLPK rejects it), so the
     * file minimizes the negated objective. */
    fputs("* minimizes -scale * objective; objective scale: ", out);
    mpz_out_str(out, 10, oscale);
    fprintf(out, "\nNAME %s\nROWS\n N obj\n", lp->name);
    for (size_t i = 0; i < lp->n_rows; i++)
        fprintf(out, " %c %s\n", lp->rows[i].sense == SSCHED_ROW_LE ? 'L' :
                lp->rows[i].sense == SSCHED_ROW_GE ? 'G' : 'E', lp->rows[i].name);
    fputs("COLUMNS\n", out);
    for (size_t j = 0; j < lp->n_cols; j++) {
        if (mpq_sgn(lp->obj[j]) != 0) {
            fprintf(out, "    %s obj ", lp->col_names[j]);
            mpq_t neg;
            mpq_init(neg);
            mpq_neg(neg, lp->obj[j]);
            print_scaled(out, oscale, neg);
            mpq_clear(neg);
            fputc('\n', out);
        }
        for (size_t t = count[j]; t < count[j + 1]; t++) {
            size_t i = row_of[t];
            fprintf(out, "    %s %s ", lp->col_names[j], lp->rows[i].name);
            print_scaled(out, row_scale[i], lp->rows[i].vals[pos_of[t]]);
            fputc('\n', out);
        }
    }
    fputs("RHS\n", out);
    for (size_t i = 0; i < lp->n_rows; i++) {
        if (mpq_sgn(lp->rows[i].rhs) == 0)
            continue;
        fprintf(out, "    rhs %s ", lp->rows[i].name);
        print_scaled(out, row_scale[i], lp->rows[i].rhs);
        fputc('\n', out);
    }
    fputs("ENDATA\n", out);
    for (size_t i = 0; i < lp->n_rows; i++)
        mpz_clear(row_scale[i]);
    mpz_clear(oscale);
    free(count); free(row_of); free(pos_of); free(fill); free(row_scale);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error while exporting the LP");
    return SSCHED_OK;
}
