/* Shared driver of Algorithms 1 and 2: scale the instance to integers, run
 * the int64 or the mpz instantiation of the DP, then recompute the makespan
 * of the distribution with the independent checker and insist it equals the
 * DP optimum divided by the scale (a broken invariant otherwise). */
#include <stdint.h>
#include <stdlib.h>

#include "src/scatter/internal.h"

ssched_status_t ssched_i_sb_dp_drive(const ssched_sb_platform_t *inst, long n, ssched_sb_result_t *r,
                            sb_dp_fn_t fn64, sb_dp_fn_t fnz, const ssched_sb_limits_t *lim,
                            ssched_error_t *err)
{
    if (n > INT32_MAX - 1)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "%ld items: the DP tables hold at most 2^31 - 2 items", n);
    size_t N = (size_t)n + 1;
    if (inst->p > SIZE_MAX / sizeof(int32_t) / N)
        return ssched_error_set(err, SSCHED_EINPUT, "DP table of %zu x %zu entries too large",
                                inst->p, N);
    sb_scaled_t sc;
    ssched_status_t st = ssched_i_sb_scaled_init(&sc, inst, n, err);
    if (st != SSCHED_OK)
        return st;
    sc.lim = lim;
    int32_t *choice = malloc(inst->p * N * sizeof *choice);
    mpz_t best;
    mpz_init(best);
    if (!choice) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the DP choice table");
    } else {
        r->int64_path = sc.fits64;
        st = (sc.fits64 ? fn64 : fnz)(&sc, choice, r->items, best, &r->evaluations, err);
    }
    free(choice);
    r->states = (long long)inst->p * (long long)N;
    r->optimal = 1;
    if (st == SSCHED_OK)
        st = ssched_i_sb_result_finish(inst, r, err);
    if (st == SSCHED_OK) {
        mpq_t q;
        mpq_init(q);
        mpq_set_num(q, best);
        mpq_set_den(q, sc.scale);
        mpq_canonicalize(q);
        if (!mpq_equal(q, r->makespan))
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "DP optimum differs from the checker's makespan");
        mpq_clear(q);
    }
    mpz_clear(best);
    ssched_i_sb_scaled_free(&sc);
    return st;
}

int ssched_i_sb_dp_level_done(const sb_scaled_t *sc, long long evals, double done, size_t levels,
                     ssched_error_t *err)
{
    if (!sc->lim)
        return 0;
    if (sc->lim->progress)
        sc->lim->progress(sc->lim->progress_ctx, evals, levels ? done / (double)levels : 1);
    if (sc->lim->max_evaluations && evals > sc->lim->max_evaluations) {
        ssched_error_set(err, SSCHED_ELIMIT,
                         "the DP stopped after %lld evaluations (%.0f%% done), over its "
                         "limit of %lld", evals, levels ? 100 * done / (double)levels : 100,
                         sc->lim->max_evaluations);
        return 1;
    }
    return 0;
}
