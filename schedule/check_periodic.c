/* Checker: one period of a periodic schedule ("ssched-schedule/1"). */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

/* Per-slot port check and the busy time of each used edge: a one-port
 * host sends to one node and receives from one node in a slot; a switch
 * ("ports": "multi") may use several of its links in the same slot, each
 * link busy at most the slot's length (checked below for every link). */
int ssched_i_chk_slot(chk_t *c, size_t k, const mpq_t start, const mpq_t end,
                      const size_t *edge, mpq_t *const amount, size_t n, size_t *sends_to,
                      size_t *recv_from, mpq_t *busy)
{
    int ok = 1;
    for (size_t t = 0; t < n && ok; t++) {
        size_t e = edge[t], i = c->from[e], j = c->to[e];
        if (!chk_multi(c, i) && sends_to[i] != (size_t)-1 && sends_to[i] != j)
            ok = ssched_i_chk_violation(c, "slot %zu: node %s sends to both %s and %s", k, c->names[i],
                               c->names[sends_to[i]], c->names[j]);
        else if (!chk_multi(c, j) && recv_from[j] != (size_t)-1 && recv_from[j] != i)
            ok = ssched_i_chk_violation(c, "slot %zu: node %s receives from both %s and %s", k,
                               c->names[j], c->names[recv_from[j]], c->names[i]);
        if (!ok)
            break;
        if (!chk_multi(c, i))
            sends_to[i] = j;
        if (!chk_multi(c, j))
            recv_from[j] = i;
        mpq_t q;
        mpq_init(q);
        mpq_mul(q, amount[t], c->cost[e]);
        mpq_mul(q, q, c->size);
        mpq_add(busy[e], busy[e], q);
        mpq_clear(q);
    }
    mpq_t len;
    mpq_init(len);
    mpq_sub(len, end, start);
    for (size_t t = 0; t < n && ok; t++) {
        size_t e = edge[t];
        if (mpq_cmp(busy[e], len) > 0)
            ok = ssched_i_chk_violation(c, "slot %zu: edge %s->%s is busy longer than the slot", k,
                               c->names[c->from[e]], c->names[c->to[e]]);
    }
    for (size_t t = 0; t < n; t++) {
        size_t e = edge[t];
        mpq_set_ui(busy[e], 0, 1);
        sends_to[c->from[e]] = (size_t)-1;
        recv_from[c->to[e]] = (size_t)-1;
    }
    mpq_clear(len);
    return ok;
}

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
 * optimal_throughput (fixed period) is the LP optimum, which cannot be
 * recomputed without solving the LP: the checker verifies only what it
 * implies.  The file's schedule is feasible, so optimal_throughput >=
 * throughput; optimal_throughput * lcm_period = sum_T w(T) is an integer;
 * the floors r(T) = floor(w(T) TF / T) add up to TF * floor_throughput =
 * ops - extra_instances (per period TF); report_bound = optimal_throughput
 * - card(TREES) / TF names an integer card(TREES) at least the number of
 * trees the file kept (trees left with no instance are dropped); and since
 * 0 <= x - floor(x) < 1 per tree, 0 <= TF * (optimal_throughput -
 * floor_throughput) < card(TREES). */
static ssched_status_t check_claims(chk_t *c, json_t *root, const mpq_t period, const mpq_t ops,
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
    json_t *trees = json_object_get(root, "trees");
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
    acc_t *acc = malloc((n_acc ? n_acc : 1) * sizeof *acc);
    unsigned char *used = calloc(ne ? ne : 1, 1);
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

ssched_status_t ssched_i_chk_periodic(chk_t *c, json_t *root)
{
    /* commutative: number the sets first, so the balance arrays cover them */
    if (c->comm) {
        ssched_status_t cs = ssched_i_chk_commut_collect(c, root);
        if (cs != SSCHED_OK)
            return cs;
    }
    mpq_t period, ops, q, prev_end, start, end;
    mpq_inits(period, ops, q, prev_end, start, end, NULL);
    size_t nn = c->n_nodes, nt = c->n_types, ne = c->n_edges;
    /* net[t*nn + i] = messages of type t received minus sent by node i */
    mpq_t *net = malloc((nt * nn > 0 ? nt * nn : 1) * sizeof *net);
    mpq_t *sent_by_dest = malloc((nt ? nt : 1) * sizeof *sent_by_dest);
    mpq_t *busy = malloc((ne ? ne : 1) * sizeof *busy);
    size_t *sends_to = malloc((nn ? nn : 1) * sizeof *sends_to);
    size_t *recv_from = malloc((nn ? nn : 1) * sizeof *recv_from);
    size_t *edge = NULL;
    mpq_t *amount = NULL;
    size_t cap = 0;
    ssched_status_t st = SSCHED_OK;
    if (!net || !sent_by_dest || !busy || !sends_to || !recv_from) {
        free(net); free(sent_by_dest); free(busy); free(sends_to); free(recv_from);
        mpq_clears(period, ops, q, prev_end, start, end, NULL);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < nt * nn; k++)
        mpq_init(net[k]);
    for (size_t t = 0; t < nt; t++)
        mpq_init(sent_by_dest[t]);
    for (size_t e = 0; e < ne; e++)
        mpq_init(busy[e]);
    for (size_t i = 0; i < nn; i++)
        sends_to[i] = recv_from[i] = (size_t)-1;

    static const char *const flow_keys[] = {"format", "problem", "platform", "throughput", "period",
                                            "operations_per_period", "split", "slots", "figures",
                                            NULL};
    static const char *const reduce_keys[] = {"format", "problem", "platform", "throughput",
                                              "period", "operations_per_period", "split", "slots",
                                              "figures", "computations", "trees", "fixed_period",
                                              NULL};
    static const char *const flow_transfer_keys[] = {"from", "to", "origin", "dest", "amount", NULL};
    static const char *const reduce_transfer_keys[] = {"from", "to", "interval", "amount", NULL};
    static const char *const comm_transfer_keys[] = {"from", "to", "set", "amount", NULL};
    static const char *const slot_keys[] = {"start", "end", "transfers", NULL};
    if ((st = ssched_i_chk_keys(c, root, "schedule", c->reduce ? reduce_keys : flow_keys)) != SSCHED_OK)
        goto out;
    json_t *split = json_object_get(root, "split");
    if (!json_is_boolean(split)) {
        /* no default: a file that does not say whether amounts are whole
         * claims nothing the checker could hold it to */
        st = ssched_i_chk_bad(c, "missing boolean field \"split\"");
        goto out;
    }
    int integral = json_is_false(split);
    if ((st = ssched_i_chk_get_q(c, root, "period", "schedule", period)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, root, "operations_per_period", "schedule", ops)) != SSCHED_OK)
        goto out;
    if (mpq_sgn(period) <= 0) {
        ssched_i_chk_violation(c, "the period must be positive");
        goto out;
    }
    mpq_div(q, ops, period);
    if (!mpq_equal(q, c->throughput)) {
        ssched_i_chk_violation(c, "throughput differs from operations_per_period / period");
        goto out;
    }
    json_t *slots = json_object_get(root, "slots");
    if (!json_is_array(slots)) {
        st = ssched_i_chk_bad(c, "missing \"slots\" array");
        goto out;
    }
    c->report->n_slots = json_array_size(slots);
    char where[96];
    for (size_t k = 0; k < json_array_size(slots) && c->report->valid; k++) {
        json_t *sl = json_array_get(slots, k);
        snprintf(where, sizeof where, "slots[%zu]", k);
        if ((st = ssched_i_chk_keys(c, sl, where, slot_keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, sl, "start", where, start)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, sl, "end", where, end)) != SSCHED_OK)
            goto out;
        if (mpq_cmp(start, prev_end) < 0) {
            ssched_i_chk_violation(c, "slot %zu starts before the previous slot ends (or before 0)", k);
            break;
        }
        if (mpq_cmp(end, start) <= 0) {
            ssched_i_chk_violation(c, "slot %zu ends before it starts", k);
            break;
        }
        if (mpq_cmp(end, period) > 0) {
            ssched_i_chk_violation(c, "slot %zu ends after the period", k);
            break;
        }
        mpq_set(prev_end, end);
        json_t *tr = json_object_get(sl, "transfers");
        if (!json_is_array(tr)) {
            st = ssched_i_chk_bad(c, "%s: missing \"transfers\" array", where);
            goto out;
        }
        size_t n = json_array_size(tr);
        if (n > cap) {
            size_t *ne2 = realloc(edge, n * sizeof *edge);
            mpq_t *na = ne2 ? realloc(amount, n * sizeof *amount) : NULL;
            if (ne2)
                edge = ne2;
            if (!na) {
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
                goto out;
            }
            amount = na;
            for (size_t t = cap; t < n; t++)
                mpq_init(amount[t]);
            cap = n;
        }
        c->report->n_transfers += n;
        for (size_t t = 0; t < n && c->report->valid; t++) {
            json_t *x = json_array_get(tr, t);
            size_t type;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, t);
            if ((st = ssched_i_chk_keys(c, x, where, c->comm     ? comm_transfer_keys
                                            : c->reduce ? reduce_transfer_keys
                                                        : flow_transfer_keys)) != SSCHED_OK ||
                (st = ssched_i_chk_transfer(c, x, where, &edge[t], &type)) != SSCHED_OK ||
                (st = ssched_i_chk_get_q(c, x, "amount", where, amount[t])) != SSCHED_OK)
                goto out;
            if (mpq_sgn(amount[t]) <= 0)
                ssched_i_chk_violation(c, "%s: the amount must be positive", where);
            else if (integral && mpz_cmp_ui(mpq_denref(amount[t]), 1) != 0)
                ssched_i_chk_violation(c, "%s: split is false but the amount is not an integer", where);
            size_t i = c->from[edge[t]], j = c->to[edge[t]];
            mpq_sub(net[type * nn + i], net[type * nn + i], amount[t]);
            mpq_add(net[type * nn + j], net[type * nn + j], amount[t]);
            if (c->reduce) {
                size_t own = ssched_i_chk_type_own(c, type);
                char name[96];
                ssched_i_chk_type_name(c, type, name, sizeof name);
                if (ssched_i_chk_type_full(c, type) && i == c->target)
                    ssched_i_chk_violation(c, "%s: the result %s leaves the target", where, name);
                else if (own != SIZE_MAX && j == c->participants[own])
                    ssched_i_chk_violation(c, "%s: participant %s is sent its own value", where, c->names[j]);
            } else if (i == c->type_dest[type]) {
                mpq_add(sent_by_dest[type], sent_by_dest[type], amount[t]);
            }
        }
        if (c->report->valid)
            ssched_i_chk_slot(c, k, start, end, edge, amount, n, sends_to, recv_from, busy);
    }
    if (c->reduce && c->report->valid) {
        /* a switch ("ports": "multi") only forwards: it never computes */
        json_t *comps = json_object_get(root, "computations");
        for (size_t x = 0; x < json_array_size(comps) && c->report->valid; x++) {
            size_t node;
            snprintf(where, sizeof where, "computations[%zu]", x);
            if ((st = ssched_i_chk_get_node(c, json_array_get(comps, x), "node", where, &node)) !=
                SSCHED_OK)
                goto out;
            if (chk_multi(c, node))
                ssched_i_chk_violation(c, "%s: switch %s computes", where, c->names[node]);
        }
    }
    if (c->reduce && c->report->valid) {
        st = ssched_i_chk_reduce_balance(c, root, net, period, ops);
        if (st == SSCHED_OK && c->report->valid)
            st = ssched_i_chk_reduce_trees(c, root, ops);
        if (st == SSCHED_OK && c->report->valid)
            st = check_claims(c, root, period, ops, integral);
        goto out;
    }
    /* Per period: conservation at relays, every destination receives
     * exactly operations_per_period of its type and never forwards it. */
    for (size_t t = 0; t < nt && c->report->valid; t++) {
        size_t o = c->type_origin[t], d = c->type_dest[t];
        if (mpq_sgn(sent_by_dest[t]) != 0) {
            ssched_i_chk_violation(c, "destination %s forwards messages of its own type (from %s)",
                          c->names[d], c->names[o]);
            break;
        }
        if (!mpq_equal(net[t * nn + d], ops)) {
            ssched_i_chk_violation(c, "destination %s receives a number of messages from %s per period "
                          "different from operations_per_period", c->names[d], c->names[o]);
            break;
        }
        for (size_t i = 0; i < nn; i++)
            if (i != o && i != d && mpq_sgn(net[t * nn + i]) != 0) {
                ssched_i_chk_violation(c, "node %s does not conserve messages %s->%s (in != out)",
                              c->names[i], c->names[o], c->names[d]);
                break;
            }
    }
    if (st == SSCHED_OK && c->report->valid)
        st = check_claims(c, root, period, ops, integral);
out:
    for (size_t k = 0; k < nt * nn; k++)
        mpq_clear(net[k]);
    for (size_t t = 0; t < nt; t++)
        mpq_clear(sent_by_dest[t]);
    for (size_t e = 0; e < ne; e++)
        mpq_clear(busy[e]);
    for (size_t t = 0; t < cap; t++)
        mpq_clear(amount[t]);
    free(net); free(sent_by_dest); free(busy); free(sends_to); free(recv_from);
    free(edge); free(amount);
    mpq_clears(period, ops, q, prev_end, start, end, NULL);
    return st;
}
