/* Dispatch to the algorithms (with the cost hypotheses each one needs) and
 * the choice of the root processor of section 3.4. */
#include <stdlib.h>

#include "src/scatter/internal.h"

typedef ssched_status_t (*sb_alg_fn_t)(const ssched_sb_platform_t *, long, ssched_sb_result_t *,
                                       ssched_error_t *);

ssched_status_t ssched_sb_solve(const ssched_sb_platform_t *inst, long n,
                                ssched_sb_algorithm_t alg, ssched_sb_result_t *out,
                                ssched_error_t *err)
{
    return ssched_sb_solve_limited(inst, n, alg, NULL, out, err);
}

void ssched_sb_estimate(const ssched_sb_platform_t *inst, long n, ssched_sb_algorithm_t alg,
                        double *bytes, double *evaluations)
{
    double p = (double)inst->p, N = (double)n + 1;
    /* result arrays: items, send ends, finishes, relaxation */
    *bytes = p * 160 + 4096;
    *evaluations = p;
    if (alg == SSCHED_SB_DP || alg == SSCHED_SB_DP_FAST) {
        /* int32 choice table p x (n+1), four value rows (mpz when the
         * scaled values overflow int64: about 32 bytes each) */
        *bytes += p * N * 4 + 4 * N * 32;
        *evaluations = (p > 1 ? p - 1 : 1) * N * (N + 1) / 2;
    }
}

ssched_status_t ssched_sb_solve_limited(const ssched_sb_platform_t *inst, long n,
                                        ssched_sb_algorithm_t alg, const ssched_sb_limits_t *lim,
                                        ssched_sb_result_t *out, ssched_error_t *err)
{
    /* need: 0 any non-negative costs, 1 nondecreasing, 2 affine, 3 linear */
    static const struct {
        sb_alg_fn_t fn;
        int need;
    } table[] = {
        [SSCHED_SB_DP] = {ssched_i_sb_dp_alg1, 0},       [SSCHED_SB_DP_FAST] = {ssched_i_sb_dp_alg2, 1},
        [SSCHED_SB_EXACT] = {ssched_i_sb_exact, 1},      [SSCHED_SB_LP] = {ssched_i_sb_lp_heuristic, 2},
        [SSCHED_SB_CLOSED_FORM] = {ssched_i_sb_closed_form_solve, 3},
        [SSCHED_SB_UNIFORM] = {ssched_i_sb_uniform, 0},
    };
    if ((unsigned)alg >= sizeof table / sizeof *table)
        return ssched_error_set(err, SSCHED_EINPUT, "unknown algorithm %d", (int)alg);
    ssched_status_t st =
        ssched_i_sb_check_instance(inst, n, table[alg].need, ssched_sb_algorithm_name(alg), err);
    if (st == SSCHED_OK)
        st = ssched_i_sb_result_alloc(out, inst->p, n, alg, err);
    if (st == SSCHED_OK && lim && alg == SSCHED_SB_DP)
        return ssched_i_sb_dp_alg1_limited(inst, n, out, lim, err);
    if (st == SSCHED_OK && lim && alg == SSCHED_SB_DP_FAST)
        return ssched_i_sb_dp_alg2_limited(inst, n, out, lim, err);
    if (st == SSCHED_OK)
        st = table[alg].fn(inst, n, out, err);
    return st;
}

void ssched_sb_root_evals_free(ssched_sb_root_eval_t *evals, size_t count)
{
    if (!evals)
        return;
    for (size_t k = 0; k < count; k++)
        mpq_clears(evals[k].pre_transfer, evals[k].makespan, evals[k].total, NULL);
}

/* Section 3.4: with the data on the holder C, a root R != C first receives
 * all n items (T_comm(R, n)) and then scatters; the best root minimizes the
 * sum over the p candidates. */
ssched_status_t ssched_sb_choose_root(const ssched_sb_platform_t *pl, size_t holder,
                                      ssched_sb_order_t order, long n,
                                      ssched_sb_algorithm_t alg, size_t *best,
                                      ssched_sb_root_eval_t *evals, ssched_error_t *err)
{
    if (pl->p == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "no processors");
    mpq_t pre, total, best_total;
    mpq_inits(pre, total, best_total, NULL);
    if (evals)
        for (size_t k = 0; k < pl->p; k++) {
            evals[k].root = k;
            mpq_inits(evals[k].pre_transfer, evals[k].makespan, evals[k].total, NULL);
        }
    ssched_status_t st = SSCHED_OK;
    ssched_sb_result_t res;
    ssched_sb_result_init(&res);
    for (size_t root = 0; root < pl->p && st == SSCHED_OK; root++) {
        ssched_sb_platform_t inst;
        ssched_sb_platform_init(&inst);
        st = ssched_sb_arrange(pl, holder, root, order, n, &inst, pre, err);
        if (st == SSCHED_OK)
            st = ssched_sb_solve(&inst, n, alg, &res, err);
        if (st == SSCHED_OK) {
            mpq_add(total, pre, res.makespan);
            if (root == 0 || mpq_cmp(total, best_total) < 0) {
                mpq_set(best_total, total);
                *best = root;
            }
            if (evals) {
                mpq_set(evals[root].pre_transfer, pre);
                mpq_set(evals[root].makespan, res.makespan);
                mpq_set(evals[root].total, total);
            }
        } else {
            ssched_error_prefix(err, "root '%s': ", pl->procs[root].name);
        }
        ssched_sb_platform_free(&inst);
    }
    ssched_sb_result_free(&res);
    mpq_clears(pre, total, best_total, NULL);
    return st;
}
