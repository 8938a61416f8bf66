/* Checker: the per-period balance of a reduce schedule, computations
 * included (RR-4872 eq. 10-11 with the correction), and compute time.
 * Commutative files balance sets instead of intervals: a participant's
 * singleton is free at its node, the full set is the target's result. */
#include <stdlib.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_chk_reduce_balance(chk_t *c, json_t *root, mpq_t *const net, const mpq_t period,
                                   const mpq_t ops)
{
    size_t nn = c->n_nodes;
    json_t *comps = json_object_get(root, "computations");
    if (!json_is_array(comps))
        return ssched_i_chk_bad(c, "missing \"computations\" array");
    mpq_t *busy = ssched_i_alloc(nn, sizeof *busy);
    if (!busy)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < nn; i++)
        mpq_init(busy[i]);
    mpq_t count, q;
    mpq_inits(count, q, NULL);
    ssched_status_t st = SSCHED_OK;
    char where[64];
    for (size_t k = 0; k < json_array_size(comps) && st == SSCHED_OK && c->report->valid; k++) {
        json_t *x = json_array_get(comps, k);
        snprintf(where, sizeof where, "computations[%zu]", k);
        size_t node, t[3];
        static const char *const keys[] = {"node", "task", "count", NULL};
        static const char *const comm_keys[] = {"node", "merge", "count", NULL};
        if ((st = ssched_i_chk_keys(c, x, where, c->comm ? comm_keys : keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_node(c, x, "node", where, &node)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, x, "count", where, count)) != SSCHED_OK ||
            (st = ssched_i_chk_comp_types(c, x, where, t)) != SSCHED_OK || !c->report->valid)
            break;
        if (!c->has_w[node]) {
            ssched_i_chk_violation(c, "%s: node %s has no w and cannot compute", where, c->names[node]);
            break;
        }
        if (mpq_sgn(count) <= 0 || mpz_cmp_ui(mpq_denref(count), 1) != 0) {
            ssched_i_chk_violation(c, "%s: the count must be a positive integer", where);
            break;
        }
        size_t out = t[0], left = t[1], right = t[2];
        mpq_add(net[out * nn + node], net[out * nn + node], count);
        mpq_sub(net[left * nn + node], net[left * nn + node], count);
        mpq_sub(net[right * nn + node], net[right * nn + node], count);
        mpq_mul(q, count, c->w[node]);
        mpq_add(busy[node], busy[node], q);
    }
    for (size_t i = 0; i < nn && st == SSCHED_OK && c->report->valid; i++)
        if (mpq_cmp(busy[i], period) > 0)
            ssched_i_chk_violation(c, "node %s computes longer than the period", c->names[i]);
    /* every set the computations named was met before the balance arrays
     * were sized (ssched_i_chk_commut_collect), so I < n_types covers them all */
    for (size_t I = 0; I < c->n_types && st == SSCHED_OK && c->report->valid; I++) {
        size_t own = ssched_i_chk_type_own(c, I);
        char name[96];
        ssched_i_chk_type_name(c, I, name, sizeof name);
        for (size_t i = 0; i < nn && c->report->valid; i++) {
            if (own != SIZE_MAX && c->participants[own] == i)
                continue; /* a participant's own value: free supply */
            if (ssched_i_chk_type_full(c, I) && i == c->target) {
                if (!mpq_equal(net[I * nn + i], ops))
                    ssched_i_chk_violation(c, "the target %s obtains a number of results %s per period "
                                  "different from operations_per_period", c->names[i], name);
                continue;
            }
            if (mpq_sgn(net[I * nn + i]) != 0)
                ssched_i_chk_violation(c, "node %s does not conserve %s (%s)", c->names[i], name,
                              mpq_sgn(net[I * nn + i]) < 0 ? "uses more than it gets"
                                                          : "gets more than it uses");
        }
    }
    for (size_t i = 0; i < nn; i++)
        mpq_clear(busy[i]);
    free(busy);
    mpq_clears(count, q, NULL);
    return st;
}
