/* The guaranteed heuristic of seed 004 section 3.3: solve the rational LP
 * (3) exactly with ssched's LP core (include/ssched/lp.h), then round. */
#include <stdio.h>
#include <stdlib.h>

#include "src/scatter/internal.h"
#include "ssched/lp.h"

/* LP (3), as a maximization of -T:
 *   sum_i n_i = n,
 *   for every i: sum_{j<=i} T_comm(j, n_j) + T_comp(i, n_i) <= T,
 * with T_comm(j, x) = lambda_j x + lambda0_j and T_comp(i, x) = mu_i x +
 * mu0_i, i.e.  sum_{j<i} lambda_j n_j + (lambda_i + mu_i) n_i - T
 *              <= -(sum_{j<=i} lambda0_j + mu0_i).
 * Columns 0..p-1 are n_1..n_p, column p is T. */
static ssched_status_t build_lp3(const ssched_sb_platform_t *inst, long n, ssched_lp_t *lp,
                                 ssched_error_t *err)
{
    size_t p = inst->p, col, row;
    char name[64];
    mpq_t one, minus_one, rhs, c0;
    mpq_inits(one, minus_one, rhs, c0, NULL);
    mpq_set_si(one, 1, 1);
    mpq_set_si(minus_one, -1, 1);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < p && st == SSCHED_OK; i++) {
        snprintf(name, sizeof name, "n%zu", i + 1);
        st = ssched_lp_add_col(lp, name, NULL, &col, err);
    }
    if (st == SSCHED_OK)
        st = ssched_lp_add_col(lp, "T", minus_one, &col, err);
    mpq_set_si(rhs, n, 1);
    if (st == SSCHED_OK)
        st = ssched_lp_add_row(lp, "items", SSCHED_ROW_EQ, rhs, &row, err);
    for (size_t i = 0; i < p && st == SSCHED_OK; i++)
        st = ssched_lp_add_coef(lp, row, i, one, err);
    /* c0 accumulates sum_{j<=i} lambda0_j */
    for (size_t i = 0; i < p && st == SSCHED_OK; i++) {
        const ssched_sb_proc_t *pr = &inst->procs[i];
        mpq_add(c0, c0, pr->comm.offset);
        mpq_add(rhs, c0, pr->comp.offset);
        mpq_neg(rhs, rhs);
        snprintf(name, sizeof name, "finish%zu", i + 1);
        st = ssched_lp_add_row(lp, name, SSCHED_ROW_LE, rhs, &row, err);
        for (size_t j = 0; j <= i && st == SSCHED_OK; j++)
            if (mpq_sgn(inst->procs[j].comm.slope) != 0)
                st = ssched_lp_add_coef(lp, row, j, inst->procs[j].comm.slope, err);
        if (st == SSCHED_OK && mpq_sgn(pr->comp.slope) != 0)
            st = ssched_lp_add_coef(lp, row, i, pr->comp.slope, err);
        if (st == SSCHED_OK)
            st = ssched_lp_add_coef(lp, row, p, minus_one, err);
    }
    mpq_clears(one, minus_one, rhs, c0, NULL);
    return st;
}

ssched_status_t ssched_i_sb_lp_heuristic(const ssched_sb_platform_t *inst, long n,
                                ssched_sb_result_t *r, ssched_error_t *err)
{
    ssched_lp_t lp;
    ssched_status_t st = ssched_lp_init(&lp, "scatter_lp3");
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    ssched_lp_options_t opt;
    ssched_lp_options_default(&opt);
    if (st != SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    else
        st = build_lp3(inst, n, &lp, err);
    if (st == SSCHED_OK)
        st = ssched_lp_solve(&lp, &opt, &sol, err);
    if (st == SSCHED_OK)
        st = ssched_i_sb_result_alloc_relaxation(r, err);
    if (st == SSCHED_OK) {
        for (size_t i = 0; i < inst->p; i++)
            mpq_set(r->relaxed_items[i], sol.x[i]);
        /* the certified optimum of max -T */
        mpq_neg(r->relaxed_makespan, sol.objective);
        /* at an optimum T is the largest finish time of the shares */
        mpq_t t;
        mpq_init(t);
        ssched_i_sb_rational_makespan(inst, r->relaxed_items, t);
        if (!mpq_equal(t, r->relaxed_makespan))
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "LP (3) optimum differs from its shares' makespan");
        mpq_clear(t);
    }
    if (st == SSCHED_OK)
        st = ssched_i_sb_round_relaxation(inst, r, err);
    ssched_lp_solution_free(&sol);
    ssched_lp_free(&lp);
    return st;
}
