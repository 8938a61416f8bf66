/* ssched_lp_solve: float solve, exact recomputation, repair, certificate. */
#include <stdlib.h>
#include <string.h>

#include "lp/internal.h"
#include "src/util/check_report.h"
#include "src/util/internal.h"

#define FLOAT_ATTEMPTS 3

void ssched_lp_options_default(ssched_lp_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
}

void ssched_lp_solution_init(ssched_lp_solution_t *sol)
{
    memset(sol, 0, sizeof *sol);
    mpq_init(sol->objective);
}

void ssched_lp_solution_free(ssched_lp_solution_t *sol)
{
    if (sol->x)
        for (size_t v = 0; v < sol->n_cols + sol->n_rows; v++)
            mpq_clear(sol->x[v]);
    if (sol->y)
        for (size_t i = 0; i < sol->n_rows; i++)
            mpq_clear(sol->y[i]);
    free(sol->x);
    free(sol->y);
    free(sol->basic);
    mpq_clear(sol->objective);
    memset(sol, 0, sizeof *sol);
}

/* Is the exact basic solution x primal feasible (every basic variable within
 * its bounds; nonbasic ones are 0 by construction)? */
static int primal_feasible(const ssched_lp_t *lp, const unsigned char *basis, mpq_t *x)
{
    for (size_t j = 0; j < lp->n_cols; j++)
        if (basis[j] && mpq_sgn(x[j]) < 0)
            return 0;
    for (size_t i = 0; i < lp->n_rows; i++) {
        int s = mpq_sgn(x[lp->n_cols + i]);
        ssched_row_sense_t sense = lp->rows[i].sense;
        if ((sense == SSCHED_ROW_LE && s < 0) || (sense == SSCHED_ROW_GE && s > 0) ||
            (sense == SSCHED_ROW_EQ && s != 0))
            return 0;
    }
    return 1;
}

/* Is the all-slack basis primal feasible (x = 0 satisfies every row)?  True
 * for every LP ssched builds: capacities have rhs 1, balances rhs 0. */
static int slack_basis_feasible(const ssched_lp_t *lp)
{
    for (size_t i = 0; i < lp->n_rows; i++) {
        int s = mpq_sgn(lp->rows[i].rhs);
        ssched_row_sense_t sense = lp->rows[i].sense;
        if ((sense == SSCHED_ROW_LE && s < 0) || (sense == SSCHED_ROW_GE && s > 0) ||
            (sense == SSCHED_ROW_EQ && s != 0))
            return 0;
    }
    return 1;
}

/* From `basis`: exact solve, repair by primal simplex if it is feasible but
 * not optimal, then certify.  Returns SSCHED_OK with sol filled, or a
 * non-OK status (the caller may try another basis). */
static ssched_status_t certify_from(const ssched_lp_t *lp, const csc_t *a,
                                    unsigned char *basis, size_t max_pivots,
                                    ssched_lp_solution_t *sol, ssched_error_t *err)
{
    int r = ssched_i_basis_solve(lp, a, basis, sol->x, sol->y);
    if (r < 0)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (r == 0)
        return ssched_error_set(err, SSCHED_EUNCERTIFIED, "the solver's basis is singular");
    if (!primal_feasible(lp, basis, sol->x))
        return ssched_error_set(err, SSCHED_EUNCERTIFIED,
                                "the solver's basis is not primal feasible in exact arithmetic");
    ssched_check_report_t rep;
    ssched_status_t st = ssched_lp_certify(lp, (const mpq_t *)sol->x, (const mpq_t *)sol->y,
                                           sol->objective, &rep, err);
    if (st != SSCHED_OK)
        return st;
    if (!rep.valid) {
        size_t pivots = 0;
        r = ssched_i_exact_primal_simplex(lp, a, basis, max_pivots, &pivots);
        sol->repair_pivots += pivots;
        if (r != 1)
            return ssched_error_set(err, SSCHED_EUNCERTIFIED,
                                    "exact simplex repair did not reach an optimal basis");
        if (ssched_i_basis_solve(lp, a, basis, sol->x, sol->y) != 1)
            return ssched_error_set(err, SSCHED_EINTERNAL, "repaired basis became singular");
        /* the repaired basis is certified anew; a valid first certificate
         * stands as it is */
        st = ssched_lp_certify(lp, (const mpq_t *)sol->x, (const mpq_t *)sol->y,
                               sol->objective, &rep, err);
    }
    st = ssched_i_report_require(st, &rep, SSCHED_EUNCERTIFIED, err);
    if (st == SSCHED_OK)
        memcpy(sol->basic, basis, lp->n_cols + lp->n_rows);
    return st;
}

ssched_status_t ssched_lp_solve(const ssched_lp_t *lp, const ssched_lp_options_t *opt,
                                ssched_lp_solution_t *sol, ssched_error_t *err)
{
    ssched_lp_options_t defaults;
    if (!opt) {
        ssched_lp_options_default(&defaults);
        opt = &defaults;
    }
    ssched_lp_solution_free(sol);
    ssched_lp_solution_init(sol);
    size_t total = lp->n_cols + lp->n_rows;
    sol->n_cols = lp->n_cols;
    sol->n_rows = lp->n_rows;
    sol->x = ssched_i_alloc(total, sizeof *sol->x);
    sol->y = ssched_i_alloc(lp->n_rows, sizeof *sol->y);
    sol->basic = ssched_i_calloc(total, 1);
    unsigned char *basis = ssched_i_calloc(total, 1);
    csc_t a;
    if (!sol->x || !sol->y || !sol->basic || !basis || !ssched_i_csc_build(&a, lp)) {
        free(sol->x);
        free(sol->y);
        sol->x = sol->y = NULL;
        free(basis);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < total; v++)
        mpq_init(sol->x[v]);
    for (size_t i = 0; i < lp->n_rows; i++)
        mpq_init(sol->y[i]);

    ssched_status_t st = SSCHED_EUNCERTIFIED;
    ssched_error_t local;
    ssched_error_clear(&local);
    double t, c;
    if (opt->start_basis) {
        memcpy(basis, opt->start_basis, total);
        t = ssched_i_wall_now();
        c = ssched_i_cpu_now();
        st = certify_from(lp, &a, basis, opt->max_repair_pivots, sol, &local);
        sol->exact_seconds += ssched_i_wall_now() - t;
        sol->exact_cpu_seconds += ssched_i_cpu_now() - c;
    }
    for (int attempt = 0; st != SSCHED_OK && !opt->start_basis && attempt < FLOAT_ATTEMPTS;
         attempt++) {
        t = ssched_i_wall_now();
        c = ssched_i_cpu_now();
        int r = ssched_i_float_solve(lp, attempt, opt->verbose, basis);
        sol->float_seconds += ssched_i_wall_now() - t;
        sol->float_cpu_seconds += ssched_i_cpu_now() - c;
        sol->float_solves++;
        if (r != 1) {
            ssched_error_set(&local, SSCHED_ESOLVER, "lp_solve reported %s",
                             r == 0 ? "infeasibility" : r == 2 ? "unboundedness" : "a failure");
            continue;
        }
        t = ssched_i_wall_now();
        c = ssched_i_cpu_now();
        st = certify_from(lp, &a, basis, opt->max_repair_pivots, sol, &local);
        sol->exact_seconds += ssched_i_wall_now() - t;
        sol->exact_cpu_seconds += ssched_i_cpu_now() - c;
    }
    /* Last resort: exact simplex from the slack basis, which is primal
     * feasible for every LP whose rows x = 0 satisfies. */
    if (st != SSCHED_OK && slack_basis_feasible(lp)) {
        memset(basis, 0, total);
        memset(basis + lp->n_cols, 1, lp->n_rows);
        t = ssched_i_wall_now();
        c = ssched_i_cpu_now();
        st = certify_from(lp, &a, basis, opt->max_repair_pivots, sol, &local);
        sol->exact_seconds += ssched_i_wall_now() - t;
        sol->exact_cpu_seconds += ssched_i_cpu_now() - c;
    }
    ssched_i_csc_free(&a);
    free(basis);
    if (st != SSCHED_OK) {
        if (err)
            *err = local;
        return st;
    }
    sol->outcome = SSCHED_LP_OPTIMAL;
    return SSCHED_OK;
}
