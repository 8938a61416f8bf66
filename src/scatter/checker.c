/* The checker: eq. (1)-(2) recomputed from the cost functions in exact
 * rationals, independently of the integer scaling used by the DPs; plus the
 * result object and the instance checks every algorithm shares. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "src/scatter/internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_sb_evaluate(const ssched_sb_platform_t *inst, const long *items,
                                   mpq_t makespan, mpq_t *finish, mpq_t *send_end,
                                   ssched_error_t *err)
{
    mpq_t sent, t, ti;
    mpq_inits(sent, t, ti, NULL);
    mpq_set_ui(makespan, 0, 1);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < inst->p; i++) {
        const ssched_sb_proc_t *pr = &inst->procs[i];
        if (items[i] < 0) {
            st = ssched_error_set(err, SSCHED_EINPUT, "processor '%s': negative share %ld",
                                  pr->name, items[i]);
            break;
        }
        if (ssched_sb_cost_domain(&pr->comm) < items[i] ||
            ssched_sb_cost_domain(&pr->comp) < items[i]) {
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "processor '%s': its table does not reach %ld items", pr->name,
                                  items[i]);
            break;
        }
        /* eq. (1): P_i starts receiving once P_1..P_{i-1} are served. */
        ssched_sb_cost_eval(t, &pr->comm, items[i]);
        mpq_add(sent, sent, t);
        ssched_sb_cost_eval(t, &pr->comp, items[i]);
        mpq_add(ti, sent, t);
        if (finish)
            mpq_set(finish[i], ti);
        if (send_end)
            mpq_set(send_end[i], sent);
        /* eq. (2) */
        if (i == 0 || mpq_cmp(ti, makespan) > 0)
            mpq_set(makespan, ti);
    }
    mpq_clears(sent, t, ti, NULL);
    return st;
}

void ssched_sb_result_init(ssched_sb_result_t *r)
{
    memset(r, 0, sizeof *r);
    mpq_init(r->makespan);
    mpq_init(r->relaxed_makespan);
    mpq_init(r->guarantee);
}

static void clear_array(mpq_t *a, size_t p)
{
    if (!a)
        return;
    for (size_t i = 0; i < p; i++)
        mpq_clear(a[i]);
    free(a);
}

void ssched_sb_result_free(ssched_sb_result_t *r)
{
    if (!r)
        return;
    free(r->items);
    clear_array(r->finish, r->p);
    clear_array(r->send_end, r->p);
    clear_array(r->relaxed_items, r->p);
    free(r->useful);
    mpq_clear(r->makespan);
    mpq_clear(r->relaxed_makespan);
    mpq_clear(r->guarantee);
    memset(r, 0, sizeof *r);
}

static mpq_t *new_array(size_t p)
{
    mpq_t *a = ssched_i_alloc(p, sizeof *a);
    if (a)
        for (size_t i = 0; i < p; i++)
            mpq_init(a[i]);
    return a;
}

ssched_status_t ssched_i_sb_result_alloc(ssched_sb_result_t *r, size_t p, long n,
                                ssched_sb_algorithm_t alg, ssched_error_t *err)
{
    ssched_sb_result_free(r);
    ssched_sb_result_init(r);
    r->algorithm = alg;
    r->n = n;
    r->items = ssched_i_calloc(p, sizeof *r->items);
    r->finish = new_array(p);
    r->send_end = new_array(p);
    if (!r->items || !r->finish || !r->send_end) {
        free(r->items);
        clear_array(r->finish, p);
        clear_array(r->send_end, p);
        r->items = NULL;
        r->finish = r->send_end = NULL;
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for a distribution");
    }
    r->p = p; /* result_free clears p entries of each array */
    return SSCHED_OK;
}

ssched_status_t ssched_i_sb_result_alloc_relaxation(ssched_sb_result_t *r, ssched_error_t *err)
{
    r->relaxed_items = new_array(r->p);
    if (!r->relaxed_items)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for a distribution");
    r->has_relaxation = 1;
    return SSCHED_OK;
}

ssched_status_t ssched_i_sb_result_finish(const ssched_sb_platform_t *inst, ssched_sb_result_t *r,
                                 ssched_error_t *err)
{
    return ssched_sb_evaluate(inst, r->items, r->makespan, r->finish, r->send_end, err);
}

void ssched_sb_guarantee(const ssched_sb_platform_t *inst, mpq_t guarantee)
{
    mpq_t t, mx;
    mpq_inits(t, mx, NULL);
    mpq_set_ui(guarantee, 0, 1);
    for (size_t i = 0; i < inst->p; i++) {
        ssched_sb_cost_eval(t, &inst->procs[i].comm, 1);
        mpq_add(guarantee, guarantee, t);
        ssched_sb_cost_eval(t, &inst->procs[i].comp, 1);
        if (mpq_cmp(t, mx) > 0)
            mpq_set(mx, t);
    }
    mpq_add(guarantee, guarantee, mx);
    mpq_clears(t, mx, NULL);
}

ssched_status_t ssched_i_sb_check_instance(const ssched_sb_platform_t *inst, long n, int need,
                                  const char *what, ssched_error_t *err)
{
    if (inst->p == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "no processors");
    if (n < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "negative number of items (%ld)", n);
    for (size_t i = 0; i < inst->p; i++) {
        const ssched_sb_proc_t *pr = &inst->procs[i];
        const ssched_sb_cost_t *f[2] = {&pr->comm, &pr->comp};
        static const char *const fn[2] = {"comm", "comp"};
        for (int k = 0; k < 2; k++) {
            if (ssched_sb_cost_domain(f[k]) < n)
                return ssched_error_set(err, SSCHED_EINPUT,
                                        "processor '%s': its %s table stops at %ld items, "
                                        "fewer than the %ld scattered",
                                        pr->name, fn[k], ssched_sb_cost_domain(f[k]), n);
            if (need == 1 && !ssched_sb_cost_is_nondecreasing(f[k]))
                return ssched_error_set(err, SSCHED_EINPUT,
                                        "%s needs nondecreasing costs; the %s cost of '%s' "
                                        "decreases (use Algorithm 1: dp)",
                                        what, fn[k], pr->name);
            if (need == 2 && f[k]->kind != SSCHED_SB_COST_AFFINE)
                return ssched_error_set(err, SSCHED_EINPUT,
                                        "%s needs affine costs; '%s' has a %s table", what,
                                        pr->name, fn[k]);
            if (need == 3 && !ssched_sb_cost_is_linear(f[k]))
                return ssched_error_set(err, SSCHED_EINPUT,
                                        "%s needs linear costs; the %s cost of '%s' is not "
                                        "linear",
                                        what, fn[k], pr->name);
        }
    }
    return SSCHED_OK;
}
