/* Floating-point solve with lp_solve 5.5.  Only the final basis is used:
 * every number is recomputed exactly afterwards (lp/basis.c). */
#include <lpsolve/lp_lib.h>
#include <stdlib.h>

#include "lp/internal.h"

/* Configurations tried in turn when a basis fails to certify: the default,
 * then without scaling and with tighter tolerances, then the primal simplex
 * in both phases.  Different paths through degenerate vertices usually end
 * on a basis that certifies; if none does, the exact simplex takes over. */
static void configure(lprec *lp, int attempt)
{
    set_presolve(lp, PRESOLVE_NONE, 0); /* the basis must refer to our rows */
    switch (attempt) {
    case 0:
        break;
    case 1:
        set_scaling(lp, SCALE_NONE);
        set_epsel(lp, 1e-14);
        set_epspivot(lp, 1e-12);
        break;
    default:
        set_scaling(lp, SCALE_GEOMETRIC | SCALE_EQUILIBRATE | SCALE_INTEGERS);
        set_simplextype(lp, SIMPLEX_PRIMAL_PRIMAL);
        set_epsel(lp, 1e-14);
        break;
    }
}

int ssched_i_float_solve(const ssched_lp_t *lp, int attempt, int verbose, unsigned char *basis)
{
    int n = (int)lp->n_cols, m = (int)lp->n_rows;
    lprec *model = make_lp(0, n);
    if (!model)
        return -1;
    ssched_i_lp_log(model, verbose);
    int ok = 1;
    double *vals = malloc((size_t)(n + 1) * sizeof *vals);
    int *idx = malloc((size_t)(n + 1) * sizeof *idx);
    if (!vals || !idx)
        ok = 0;
    for (int j = 0; j < n && ok; j++) {
        vals[j] = mpq_get_d(lp->obj[j]);
        idx[j] = j + 1;
    }
    if (ok)
        ok = set_obj_fnex(model, n, vals, idx);
    set_maxim(model);
    set_add_rowmode(model, TRUE);
    for (int i = 0; i < m && ok; i++) {
        const ssched_lp_row_t *r = &lp->rows[i];
        for (size_t k = 0; k < r->nnz; k++) {
            vals[k] = mpq_get_d(r->vals[k]);
            idx[k] = (int)r->cols[k] + 1;
        }
        int type = r->sense == SSCHED_ROW_LE ? LE : r->sense == SSCHED_ROW_GE ? GE : EQ;
        ok = add_constraintex(model, (int)r->nnz, vals, idx, type, mpq_get_d(r->rhs));
    }
    set_add_rowmode(model, FALSE);
    free(vals);
    free(idx);
    if (!ok) {
        delete_lp(model);
        return -1;
    }
    configure(model, attempt);
    int ret = solve(model);
    int result;
    if (ret == OPTIMAL || ret == PRESOLVED) {
        int *bas = malloc((size_t)(m + 1) * sizeof *bas);
        result = bas && get_basis(model, bas, FALSE) ? 1 : -1;
        if (result == 1) {
            for (size_t v = 0; v < lp->n_cols + lp->n_rows; v++)
                basis[v] = 0;
            /* lp_solve numbers rows 1..m, then columns m+1..m+n. */
            for (int k = 1; k <= m; k++) {
                int a = abs(bas[k]);
                if (a >= 1 && a <= m)
                    basis[lp->n_cols + (size_t)(a - 1)] = 1;
                else if (a > m && a <= m + n)
                    basis[(size_t)(a - m - 1)] = 1;
            }
        }
        free(bas);
    } else if (ret == INFEASIBLE) {
        result = 0;
    } else if (ret == UNBOUNDED) {
        result = 2;
    } else {
        result = -1;
    }
    delete_lp(model);
    return result;
}
