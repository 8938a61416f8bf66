/* The periodic checker's check of a file's claims about itself (figures,
 * fixed period): see ssched_i_chk_claims below and check_periodic.c. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

/* A per-period total keyed by (type, edge) or (node, task). */
typedef struct {
    size_t key;
    mpq_t q;
} acc_t;

static int cmp_acc(const void *a, const void *b)
{
    const acc_t *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Sort acc by key and add each run into its first entry; returns the
 * number of distinct keys (entries [0, n) then hold the totals). */
static size_t merge_acc(acc_t *acc, size_t n)
{
    if (n == 0)
        return 0;
    qsort(acc, n, sizeof *acc, cmp_acc);
    size_t m = 0;
    for (size_t k = 1; k < n; k++) {
        if (acc[k].key == acc[m].key) {
            mpq_add(acc[m].q, acc[m].q, acc[k].q);
        } else {
            m++;
            mpq_swap(acc[m].q, acc[k].q);
            acc[m].key = acc[k].key;
        }
    }
    return m + 1;
}

static ssched_status_t get_count(chk_t *c, json_t *obj, const char *key, const char *where,
                                 size_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return ssched_i_chk_bad(c, "%s: \"%s\" must be a non-negative integer", where, key);
    *out = (size_t)json_integer_value(v);
    return SSCHED_OK;
}

static int is_integer(const mpq_t q)
{
    return mpz_cmp_ui(mpq_denref(q), 1) == 0;
}

/* The file's own account of how it was made ("figures") and, for a fixed
 * period, of what it gave up ("fixed_period"): every number is recomputed
 * from the slots, computations and trees, or checked against what they
 * imply.
 *
 * lcm_period (no fixed period) is recomputed exactly as the LCM of the
 * denominators of TP, of every rate (per-period total / period) and busy
 * time per time unit, of every task rate and of every tree's rate
 * weight / period: the smallest period making all of them integral.
 * nosplit_factor is the LCM of the denominators of the amounts at that
 * period.  matchings is the number of slots and bipartite_edges the number
 * of links the slots use; bound is the decomposition's guarantee, which
 * depends on its internal padding, so only matchings <= bound is checked;
 * decompose_seconds is a measurement of the run, only its form is checked.
 *
 * optimal_throughput (fixed period) is the LP optimum: check_solve.c
 * compares it with the problem solved again, once the file is otherwise
 * valid; here, what it implies.  The file's schedule is feasible, so optimal_throughput >=
 * throughput; optimal_throughput * lcm_period = sum_T w(T) is an integer;
 * the floors r(T) = floor(w(T) TF / T) add up to TF * floor_throughput =
 * ops - extra_instances (per period TF); report_bound = optimal_throughput
 * - card(TREES) / TF names an integer card(TREES) at least the number of
 * trees the file kept (trees left with no instance are dropped); and since
 * 0 <= x - floor(x) < 1 per tree, 0 <= TF * (optimal_throughput -
 * floor_throughput) < card(TREES). */
ssched_status_t ssched_i_chk_claims(chk_t *c, json_t *root, const mpq_t period, const mpq_t ops,
                                    int integral)
{
    static const char *const fig_keys[] = {"matchings", "bound", "bipartite_edges",
                                           "decompose_seconds", "lcm_period", "nosplit_factor",
                                           NULL};
    static const char *const fixed_keys[] = {"optimal_throughput", "floor_throughput",
                                             "report_bound", "extra_instances", NULL};
    /* 0 happens: a fixed period too short for one tree instance */
    if (mpq_sgn(ops) < 0 || !is_integer(ops))
        return ssched_i_chk_violation(c, "operations_per_period must be a non-negative integer"), SSCHED_OK;
    json_t *fig = json_object_get(root, "figures"), *fixed = json_object_get(root, "fixed_period");
    /* a scan's prefix structures weigh like trees (instances per period) */
    json_t *trees = json_object_get(root, c->scan ? "structures" : "trees");
    if (!fig && !fixed)
        return SSCHED_OK; /* the file claims nothing more */
    if (!fig)
        return ssched_i_chk_bad(c, "fixed_period: the file needs \"figures\" (lcm_period, nosplit_factor)");
    if (fixed && !json_is_array(trees))
        return ssched_i_chk_bad(c, "fixed_period: the file needs its \"trees\"");
    size_t ne = c->n_edges;
    json_t *slots = json_object_get(root, "slots");
    json_t *comps = json_object_get(root, "computations");
    size_t n_acc = json_array_size(comps) + json_array_size(trees);
    for (size_t k = 0; k < json_array_size(slots); k++)
        n_acc += json_array_size(json_object_get(json_array_get(slots, k), "transfers"));
    acc_t *acc = ssched_i_alloc(n_acc, sizeof *acc);
    unsigned char *used = ssched_i_calloc(ne, 1);
    if (!acc || !used) {
        free(acc);
        free(used);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < n_acc; k++)
        mpq_init(acc[k].q);
    mpq_t q, r, tf, nosplit, lcm_claim, opt, fl, rb, ex;
    mpz_t lcm, L;
    mpq_inits(q, r, tf, nosplit, lcm_claim, opt, fl, rb, ex, NULL);
    mpz_inits(lcm, L, NULL);
    mpz_set_ui(L, 1);
    ssched_status_t st;
    size_t matchings = 0, bound = 0, bip = 0, n_used = 0, n_tr = 0, n_cp = 0;
    json_t *secs = json_object_get(fig, "decompose_seconds");
    if ((st = ssched_i_chk_keys(c, fig, "figures", fig_keys)) != SSCHED_OK ||
        (st = get_count(c, fig, "matchings", "figures", &matchings)) != SSCHED_OK ||
        (st = get_count(c, fig, "bound", "figures", &bound)) != SSCHED_OK ||
        (st = get_count(c, fig, "bipartite_edges", "figures", &bip)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, fig, "lcm_period", "figures", lcm_claim)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, fig, "nosplit_factor", "figures", nosplit)) != SSCHED_OK)
        goto out;
    /* a measurement of this run, not a property of the schedule: only its
     * form is checked */
    if (!json_is_number(secs) || json_number_value(secs) < 0) {
        st = ssched_i_chk_bad(c, "figures: \"decompose_seconds\" must be a non-negative number");
        goto out;
    }
    if (fixed && ((st = ssched_i_chk_keys(c, fixed, "fixed_period", fixed_keys)) != SSCHED_OK ||
                  (st = ssched_i_chk_get_q(c, fixed, "optimal_throughput", "fixed_period", opt)) != SSCHED_OK ||
                  (st = ssched_i_chk_get_q(c, fixed, "floor_throughput", "fixed_period", fl)) != SSCHED_OK ||
                  (st = ssched_i_chk_get_q(c, fixed, "report_bound", "fixed_period", rb)) != SSCHED_OK ||
                  (st = ssched_i_chk_get_q(c, fixed, "extra_instances", "fixed_period", ex)) != SSCHED_OK))
        goto out;
    if (mpq_sgn(nosplit) <= 0 || !is_integer(nosplit) || mpq_sgn(lcm_claim) < 0 ||
        !is_integer(lcm_claim) || (c->reduce && mpq_sgn(lcm_claim) == 0)) {
        ssched_i_chk_violation(c, "figures: lcm_period and nosplit_factor must be positive integers");
        goto out;
    }
    /* per-period totals per (type, edge); amounts before the no-split scaling */
    char where[96];
    for (size_t k = 0; k < json_array_size(slots); k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        for (size_t x = 0; x < json_array_size(tr); x++) {
            size_t e, t;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, x);
            if ((st = ssched_i_chk_transfer(c, json_array_get(tr, x), where, &e, &t)) != SSCHED_OK ||
                (st = ssched_i_chk_get_q(c, json_array_get(tr, x), "amount", where, acc[n_tr].q)) != SSCHED_OK)
                goto out;
            acc[n_tr++].key = t * ne + e;
            n_used += !used[e];
            used[e] = 1;
            mpq_div(q, acc[n_tr - 1].q, nosplit);
            mpz_lcm(L, L, mpq_denref(q));
        }
    }
    if (matchings != json_array_size(slots)) {
        ssched_i_chk_violation(c, "figures.matchings is %zu but the file has %zu slots", matchings,
                      json_array_size(slots));
        goto out;
    }
    if (matchings > bound) {
        ssched_i_chk_violation(c, "figures: %zu matchings exceed the stated bound %zu", matchings, bound);
        goto out;
    }
    if (bip != n_used) {
        ssched_i_chk_violation(c, "figures.bipartite_edges is %zu but the slots use %zu links", bip, n_used);
        goto out;
    }
    mpq_set_z(q, L);
    if (integral ? !mpq_equal(q, nosplit) : mpz_cmp_ui(mpq_numref(nosplit), 1) != 0) {
        ssched_i_chk_violation(c, "figures.nosplit_factor is not the LCM of the denominators of the "
                      "amounts before the no-split scaling (1 when split is true)");
        goto out;
    }
    mpq_div(tf, period, nosplit); /* the period before the no-split scaling */
    if (!fixed) {
        mpz_set(lcm, mpq_denref(c->throughput));
        size_t m = merge_acc(acc, n_tr);
        for (size_t k = 0; k < m; k++) {
            mpq_div(q, acc[k].q, period);
            mpz_lcm(lcm, lcm, mpq_denref(q));
            mpq_mul(q, q, c->cost[acc[k].key % ne]);
            mpq_mul(q, q, c->size);
            mpz_lcm(lcm, lcm, mpq_denref(q));
        }
        for (size_t k = 0; k < n_acc; k++)
            mpq_set_ui(acc[k].q, 0, 1);
        for (size_t x = 0; x < json_array_size(comps); x++) {
            json_t *o = json_array_get(comps, x);
            size_t node, v[3], nt = c->n_types;
            snprintf(where, sizeof where, "computations[%zu]", x);
            if ((st = ssched_i_chk_get_node(c, o, "node", where, &node)) != SSCHED_OK ||
                (st = ssched_i_chk_get_q(c, o, "count", where, acc[n_cp].q)) != SSCHED_OK ||
                (st = ssched_i_chk_comp_types(c, o, where, v)) != SSCHED_OK)
                goto out;
            /* a task is its node and two inputs (types: intervals or sets) */
            acc[n_cp++].key = (node * nt + v[1]) * nt + v[2];
        }
        m = merge_acc(acc, n_cp);
        for (size_t k = 0; k < m; k++) {
            mpq_div(q, acc[k].q, period);
            mpz_lcm(lcm, lcm, mpq_denref(q));
        }
        for (size_t x = 0; x < json_array_size(trees); x++) {
            snprintf(where, sizeof where, "trees[%zu]", x);
            if ((st = ssched_i_chk_get_q(c, json_array_get(trees, x), "weight", where, q)) != SSCHED_OK)
                goto out;
            mpq_div(q, q, period);
            mpz_lcm(lcm, lcm, mpq_denref(q));
        }
        mpq_set_z(q, lcm);
        /* A scatter or gossip pattern may be shorter than the LCM period
         * (n whole operations in n / TP, schedule.h: fixed_period): its
         * rates are still the solution's, so the LCM recomputed from them is
         * the solution's; the builder then states the period itself (0 if
         * it is not an integer) as lcm_period. */
        if (!c->reduce && !mpq_equal(tf, q)) {
            int stated = mpq_equal(q, lcm_claim) ||
                         (is_integer(tf) ? mpq_equal(tf, lcm_claim) : mpq_sgn(lcm_claim) == 0);
            if (!stated)
                ssched_i_chk_violation(c, "figures.lcm_period is neither the LCM of the denominators of the "
                              "schedule's rates nor its period before the no-split scaling");
            goto out;
        }
        if (!mpq_equal(q, lcm_claim)) {
            char *text = mpz_get_str(NULL, 10, lcm);
            ssched_i_chk_violation(c, "figures.lcm_period is not the LCM of the denominators of the "
                          "schedule's rates (recomputed: %.40s%s)", text ? text : "?",
                          text && strlen(text) > 40 ? "..." : "");
            free(text);
            goto out;
        }
        if (!mpq_equal(tf, lcm_claim))
            ssched_i_chk_violation(c, "the period is not figures.lcm_period x figures.nosplit_factor");
        goto out;
    }
    /* fixed period TF = tf */
    if (mpq_cmp(opt, c->throughput) < 0) {
        ssched_i_chk_violation(c, "fixed_period.optimal_throughput is below the schedule's own throughput");
        goto out;
    }
    mpq_mul(q, opt, lcm_claim);
    if (!is_integer(q)) {
        ssched_i_chk_violation(c, "fixed_period.optimal_throughput x figures.lcm_period is not an integer "
                      "number of operations");
        goto out;
    }
    if (mpq_sgn(ex) < 0 || !is_integer(ex)) {
        ssched_i_chk_violation(c, "fixed_period.extra_instances must be a non-negative integer");
        goto out;
    }
    mpq_mul(q, fl, tf); /* sum of the floors r(T) */
    if (mpq_sgn(q) < 0 || !is_integer(q)) {
        ssched_i_chk_violation(c, "fixed_period.floor_throughput x TF is not a whole number of tree "
                      "instances");
        goto out;
    }
    mpq_add(q, q, ex);
    mpq_div(r, ops, nosplit);
    if (!mpq_equal(q, r)) {
        ssched_i_chk_violation(c, "fixed_period: floor_throughput x TF + extra_instances differs from the "
                      "operations per period TF");
        goto out;
    }
    mpq_sub(r, opt, rb);
    mpq_mul(r, r, tf); /* card(TREES) */
    if (mpq_sgn(r) <= 0 || !is_integer(r)) {
        ssched_i_chk_violation(c, "fixed_period.report_bound is not optimal_throughput - card(TREES)/TF "
                      "for a whole number of trees");
        goto out;
    }
    mpq_set_ui(q, json_array_size(trees), 1);
    if (mpq_cmp(r, q) < 0) {
        ssched_i_chk_violation(c, "fixed_period.report_bound counts fewer trees than the file has");
        goto out;
    }
    mpq_sub(q, opt, fl);
    mpq_mul(q, q, tf); /* sum over the trees of w(T) TF / T - floor(w(T) TF / T) */
    if (mpq_sgn(q) < 0 || mpq_cmp(q, r) >= 0)
        ssched_i_chk_violation(c, "fixed_period.floor_throughput is not the floors of the optimal trees' "
                      "instances (must be within card(TREES)/TF below optimal_throughput)");
out:
    for (size_t k = 0; k < n_acc; k++)
        mpq_clear(acc[k].q);
    free(acc);
    free(used);
    mpq_clears(q, r, tf, nosplit, lcm_claim, opt, fl, rb, ex, NULL);
    mpz_clears(lcm, L, NULL);
    return st;
}
