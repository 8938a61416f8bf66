/* ssched/lp.h — sparse rational linear programs and their exact solution.
 *
 * An ssched_lp_t is   maximize obj.x  subject to  row_i(x) {<=,>=,=} rhs_i,
 * x >= 0, with exact mpq_t coefficients.  ssched_lp_solve() solves it with
 * lp_solve in floating point, recomputes the final basis exactly in GMP and
 * certifies the result (primal feasibility, dual feasibility, equal
 * objectives), repairing with exact simplex pivots when the floating-point
 * basis is not optimal.  A solution is returned only when certified.
 *
 * ssched_lp_certify() is the independent check: given any x and y it proves
 * (or refutes) that x is optimal, with y as the dual certificate. */
#ifndef SSCHED_LP_H
#define SSCHED_LP_H

#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SSCHED_ROW_LE, SSCHED_ROW_GE, SSCHED_ROW_EQ } ssched_row_sense_t;

/* "le", "ge", "eq" ("unknown" for any other value); parse: SSCHED_EINPUT naming
 * the text and the accepted names. */
const char *ssched_row_sense_name(ssched_row_sense_t v);
ssched_status_t ssched_row_sense_parse(const char *text, ssched_row_sense_t *out,
                                       ssched_error_t *err);

typedef struct {
    char *name;
    ssched_row_sense_t sense;
    mpq_t rhs;
    size_t nnz, cap;
    size_t *cols;   /* column indices, in insertion order, no duplicates */
    mpq_t *vals;    /* nonzero coefficients                              */
} ssched_lp_row_t;

typedef struct {
    char *name;
    size_t n_cols, col_cap;
    char **col_names;
    mpq_t *obj;               /* objective coefficients (maximized)      */
    size_t n_rows, row_cap;
    ssched_lp_row_t *rows;
} ssched_lp_t;

/* Empty LP named `name` (NULL: "ssched"); the name is copied.  SSCHED_ENOMEM
 * if the copy fails, the LP is then nameless but may still be freed.  Pair
 * with ssched_lp_free(). */
ssched_status_t ssched_lp_init(ssched_lp_t *lp, const char *name);
void ssched_lp_free(ssched_lp_t *lp);

/* Append a column x_j >= 0 with objective coefficient obj (NULL = 0). */
ssched_status_t ssched_lp_add_col(ssched_lp_t *lp, const char *name,
                                  mpq_srcptr obj, size_t *index,
                                  ssched_error_t *err);

/* Append an empty row with the given sense and right-hand side. */
ssched_status_t ssched_lp_add_row(ssched_lp_t *lp, const char *name,
                                  ssched_row_sense_t sense, const mpq_t rhs,
                                  size_t *index, ssched_error_t *err);

/* row += coef * x_col.  Adding to an existing entry accumulates; an entry
 * that becomes zero is removed. */
ssched_status_t ssched_lp_add_coef(ssched_lp_t *lp, size_t row, size_t col,
                                   const mpq_t coef, ssched_error_t *err);

/* Writers (LP, MPS): ssched/export.h. */

typedef enum {
    SSCHED_LP_OPTIMAL = 0,
    SSCHED_LP_INFEASIBLE,
    SSCHED_LP_UNBOUNDED
} ssched_lp_outcome_t;

/* "optimal", "infeasible", "unbounded" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_lp_outcome_name(ssched_lp_outcome_t v);
ssched_status_t ssched_lp_outcome_parse(const char *text, ssched_lp_outcome_t *out,
                                        ssched_error_t *err);

typedef struct {
    ssched_lp_outcome_t outcome;
    size_t n_cols, n_rows;
    mpq_t objective;      /* certified optimum                          */
    mpq_t *x;             /* n_cols exact primal values                 */
    mpq_t *y;             /* n_rows exact duals (the certificate)        */
    unsigned char *basic; /* n_cols + n_rows: 1 if column/slack is basic */
    /* figures for reports */
    double float_seconds;  /* time inside the floating-point solver      */
    double exact_seconds;  /* exact basis solve + certification + repair */
    size_t repair_pivots;  /* exact simplex pivots needed to certify     */
    size_t float_solves;   /* floating-point solves attempted            */
    double float_cpu_seconds, exact_cpu_seconds; /* the same two, CPU time */
} ssched_lp_solution_t;

void ssched_lp_solution_init(ssched_lp_solution_t *sol);
void ssched_lp_solution_free(ssched_lp_solution_t *sol);

typedef struct {
    int verbose;            /* lp_solve verbosity (0 = silent)           */
    size_t max_repair_pivots; /* 0 = unlimited                             */
    /* Test hook: if non-NULL, skip the floating-point solver and start the
     * exact phase from this basis (n_cols + n_rows flags, 1 = basic). */
    const unsigned char *start_basis;
} ssched_lp_options_t;

void ssched_lp_options_default(ssched_lp_options_t *opt);

/* Solve exactly.  On SSCHED_OK, sol->outcome is OPTIMAL and x, y, objective
 * have passed ssched_lp_certify().  INFEASIBLE / UNBOUNDED outcomes are
 * reported as SSCHED_EUNCERTIFIED (ssched's own LPs are always feasible and
 * bounded; a generic infeasibility certificate is not implemented). */
ssched_status_t ssched_lp_solve(const ssched_lp_t *lp,
                                const ssched_lp_options_t *opt,
                                ssched_lp_solution_t *sol, ssched_error_t *err);

/* Exact optimality certificate, an independent checker (error.h).  Checks
 * x >= 0 and every row, the dual signs (y_i >= 0 on <= rows, <= 0 on >=
 * rows), dual feasibility A^T y >= obj column by column, and obj.x ==
 * rhs.y.  Returns SSCHED_OK (only ENOMEM is an error) with report->valid =
 * 1 when (x, y) certifies x optimal, and then writes obj.x to `objective`
 * (may be NULL); else report->valid = 0, the violation naming the first
 * violated row or column. */
ssched_status_t ssched_lp_certify(const ssched_lp_t *lp, const mpq_t *x,
                                  const mpq_t *y, mpq_ptr objective,
                                  ssched_check_report_t *report, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
