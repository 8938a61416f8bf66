/* Checker: one period of a periodic all-reduce schedule (issue 14 item 3).
 *
 * The file holds a reduce to the root R and the broadcast of its result
 * from R in the same slots.  Checked here:
 *  - every slot, with the copies and the reduce transfers together: one
 *    port per host (one use per link at a switch), busy within the slot;
 *  - the arborescences: each rooted at R, one in-arc per node, reaching
 *    every participant but R, with a positive integer count; the counts
 *    sum to operations_per_period, so every participant but R receives
 *    that many copies per period, and a copy leaves a node only down an
 *    arborescence that brought it there; per edge, the copies of the slots
 *    equal the counts of the arborescences using it;
 *  - the reduce part exactly as a reduce file to R (check_periodic.c on the
 *    file without its copies: slots, conservation of every interval,
 *    v[0,N-1] reaching R operations_per_period times, compute time within
 *    the period, the trees equal to the slots and computations);
 *  - throughput = operations_per_period / period <= upper_bound ("optimal"
 *    true only if they are equal), and the figures recomputed over both
 *    kinds (the LCM of every rate, busy time and count, the slots, the
 *    links used, the no-split factor). */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

/* The file as a reduce to R: interval transfers only, no broadcast keys. */
static json_t *reduce_view(chk_t *c, json_t *root)
{
    static const char *const keep[] = {"format", "platform", "throughput", "period",
                                       "operations_per_period", "split", "computations",
                                       "trees", NULL};
    json_t *v = json_object(), *pb = json_object_get(root, "problem");
    for (size_t k = 0; keep[k]; k++)
        if (json_object_get(root, keep[k]))
            json_object_set(v, keep[k], json_object_get(root, keep[k]));
    json_object_set_new(v, "problem", json_pack("{s:s,s:O,s:s,s:O}", "kind", "reduce",
                                                "participants",
                                                json_object_get(pb, "participants"), "target",
                                                c->names[c->target], "size",
                                                json_object_get(pb, "size")));
    if (json_object_get(pb, "commutative")) /* sets, not intervals */
        json_object_set(json_object_get(v, "problem"), "commutative",
                        json_object_get(pb, "commutative"));
    json_t *slots = json_object_get(root, "slots"), *out = json_array();
    for (size_t k = 0; k < json_array_size(slots); k++) {
        json_t *sl = json_array_get(slots, k), *tr = json_object_get(sl, "transfers");
        json_t *o = json_deep_copy(sl), *kept = json_array();
        for (size_t x = 0; x < json_array_size(tr); x++)
            if (!json_object_get(json_array_get(tr, x), "copy"))
                json_array_append(kept, json_array_get(tr, x));
        if (json_is_array(tr)) /* else left as it is: the reduce check says so */
            json_object_set_new(o, "transfers", kept);
        else
            json_decref(kept);
        json_array_append_new(out, o);
    }
    json_object_set_new(v, "slots", out);
    return v;
}

/* Every slot with all its transfers; copy[e] += copies, *links = links the
 * slots use, the LCM of every (edge, type) rate and busy time into lcm
 * (rates are count / period: the no-split scaling leaves them alone). */
static ssched_status_t check_slots(chk_t *c, json_t *root, const mpq_t period, int integral,
                                   mpq_t *copy, size_t *links, mpz_t lcm)
{
    static const char *const copy_keys[] = {"from", "to", "copy", "amount", NULL};
    /* the reduce types: every one was met by the reduce check (sets too) */
    size_t nn = c->n_nodes, ne = c->n_edges, nt = c->n_types + 1;
    json_t *slots = json_object_get(root, "slots");
    size_t *sends_to = ssched_i_alloc(nn, sizeof *sends_to);
    size_t *recv_from = ssched_i_alloc(nn, sizeof *recv_from);
    mpq_t *busy = ssched_i_alloc(ne, sizeof *busy), *tot = malloc((ne * nt + 1) * sizeof *tot);
    if (!sends_to || !recv_from || !busy || !tot) {
        free(sends_to); free(recv_from); free(busy); free(tot);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nn; i++)
        sends_to[i] = recv_from[i] = (size_t)-1;
    for (size_t e = 0; e < ne; e++)
        mpq_init(busy[e]);
    for (size_t k = 0; k < ne * nt; k++)
        mpq_init(tot[k]);
    ssched_status_t st = SSCHED_OK;
    mpq_t start, end, q;
    mpq_inits(start, end, q, NULL);
    char where[96];
    for (size_t k = 0; k < json_array_size(slots) && st == SSCHED_OK && c->report->valid; k++) {
        json_t *sl = json_array_get(slots, k), *tr = json_object_get(sl, "transfers");
        if (!json_is_array(tr)) {
            st = ssched_i_chk_bad(c, "slots[%zu]: missing \"transfers\" array", k);
            break;
        }
        size_t n = json_array_size(tr);
        size_t *edge = ssched_i_alloc(n, sizeof *edge);
        mpq_t *amount = ssched_i_alloc(n, sizeof *amount);
        if (!edge || !amount) {
            free(edge);
            free(amount);
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        for (size_t x = 0; x < n; x++)
            mpq_init(amount[x]);
        snprintf(where, sizeof where, "slots[%zu]", k);
        if ((st = ssched_i_chk_get_q(c, sl, "start", where, start)) == SSCHED_OK)
            st = ssched_i_chk_get_q(c, sl, "end", where, end);
        for (size_t x = 0; x < n && st == SSCHED_OK; x++) {
            json_t *o = json_array_get(tr, x);
            size_t type;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, x);
            if (json_object_get(o, "copy") &&
                (st = ssched_i_chk_keys(c, o, where, copy_keys)) != SSCHED_OK)
                break;
            if ((st = ssched_i_chk_transfer(c, o, where, &edge[x], &type)) == SSCHED_OK &&
                (st = ssched_i_chk_get_q(c, o, "amount", where, amount[x])) == SSCHED_OK) {
                if (mpq_sgn(amount[x]) <= 0)
                    ssched_i_chk_violation(c, "%s: the amount must be positive", where);
                else if (integral && mpz_cmp_ui(mpq_denref(amount[x]), 1) != 0)
                    ssched_i_chk_violation(c, "%s: split is false but the amount is not an integer",
                                  where);
                if (type == CHK_COPY) {
                    mpq_add(copy[edge[x]], copy[edge[x]], amount[x]);
                    type = nt - 1; /* the copies' rates, after the reduce types */
                } else if (type >= nt - 1) {
                    st = ssched_i_chk_bad(c, "%s: a type the reduce part does not have", where);
                    break;
                }
                mpq_add(tot[type * ne + edge[x]], tot[type * ne + edge[x]], amount[x]);
            }
        }
        if (st == SSCHED_OK && c->report->valid)
            ssched_i_chk_slot(c, k, start, end, edge, amount, n, sends_to, recv_from, busy);
        for (size_t x = 0; x < n; x++)
            mpq_clear(amount[x]);
        free(edge);
        free(amount);
    }
    /* LCM of the rates and busy times, and the links used */
    *links = 0;
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        int used = 0;
        for (size_t t = 0; t < nt; t++) {
            mpq_srcptr a = tot[t * ne + e];
            if (mpq_sgn(a) == 0)
                continue;
            used = 1;
            mpq_div(q, a, period);
            mpz_lcm(lcm, lcm, mpq_denref(q));
            mpq_mul(q, q, c->cost[e]);
            mpq_mul(q, q, c->size);
            mpz_lcm(lcm, lcm, mpq_denref(q));
        }
        *links += used;
    }
    for (size_t e = 0; e < ne; e++)
        mpq_clear(busy[e]);
    for (size_t k = 0; k < ne * nt; k++)
        mpq_clear(tot[k]);
    free(sends_to); free(recv_from); free(busy); free(tot);
    mpq_clears(start, end, q, NULL);
    return st;
}

/* One arborescence's arcs: parent[v] = in-arc edge; 0 after a violation. */
static ssched_status_t read_arcs(chk_t *c, json_t *arcs, const char *where, size_t *parent)
{
    for (size_t v = 0; v < c->n_nodes; v++)
        parent[v] = (size_t)-1;
    if (!json_is_array(arcs))
        return ssched_i_chk_bad(c, "%s: missing \"arcs\" array", where);
    for (size_t k = 0; k < json_array_size(arcs); k++) {
        json_t *a = json_array_get(arcs, k);
        size_t uv[2];
        for (int j = 0; j < 2; j++) {
            const char *name = json_string_value(json_array_get(a, (size_t)j));
            uv[j] = (size_t)-1;
            for (size_t i = 0; name && i < c->n_nodes && uv[j] == (size_t)-1; i++)
                if (!strcmp(c->names[i], name))
                    uv[j] = i;
            if (json_array_size(a) != 2 || uv[j] == (size_t)-1)
                return ssched_i_chk_bad(c, "%s.arcs[%zu]: an arc is [\"from\", \"to\"] of known nodes",
                               where, k);
        }
        size_t e = ssched_i_chk_edge(c, uv[0], uv[1]);
        if (e == (size_t)-1)
            return ssched_i_chk_bad(c, "%s: no platform edge %s->%s", where, c->names[uv[0]],
                           c->names[uv[1]]);
        if (uv[1] == c->target || parent[uv[1]] != (size_t)-1) {
            ssched_i_chk_violation(c, "%s: node %s has two in-arcs (or the root has one)", where,
                          c->names[uv[1]]);
            return SSCHED_OK;
        }
        parent[uv[1]] = e;
    }
    return SSCHED_OK;
}

/* The arborescences; load[e] += counts, total = sum of counts, their
 * count / period into lcm. */
static ssched_status_t check_arborescences(chk_t *c, json_t *root, const mpq_t period,
                                           mpq_t *load, mpq_t total, mpz_t lcm)
{
    static const char *const keys[] = {"count", "arcs", NULL};
    json_t *arr = json_object_get(root, "arborescences");
    if (!json_is_array(arr) || json_array_size(arr) == 0)
        return ssched_i_chk_bad(c, "missing \"arborescences\" array");
    size_t nn = c->n_nodes;
    size_t *parent = ssched_i_alloc(nn, sizeof *parent);
    if (!parent)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    mpq_t count, q;
    mpq_inits(count, q, NULL);
    ssched_status_t st = SSCHED_OK;
    char where[64];
    for (size_t i = 0; i < json_array_size(arr) && st == SSCHED_OK && c->report->valid; i++) {
        json_t *o = json_array_get(arr, i);
        snprintf(where, sizeof where, "arborescences[%zu]", i);
        if ((st = ssched_i_chk_keys(c, o, where, keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "count", where, count)) != SSCHED_OK ||
            (st = read_arcs(c, json_object_get(o, "arcs"), where, parent)) != SSCHED_OK ||
            !c->report->valid)
            break;
        if (mpq_sgn(count) <= 0 || mpz_cmp_ui(mpq_denref(count), 1) != 0) {
            ssched_i_chk_violation(c, "%s: the count must be a positive integer", where);
            break;
        }
        /* every participant climbs to the root in at most n steps (no cycle) */
        for (size_t k = 0; k < c->N && c->report->valid; k++) {
            size_t u = c->participants[k], steps = 0;
            while (u != c->target && parent[u] != (size_t)-1 && steps++ <= nn)
                u = c->from[parent[u]];
            if (u != c->target)
                ssched_i_chk_violation(c, "%s does not reach participant %s from the root %s", where,
                              c->names[c->participants[k]], c->names[c->target]);
        }
        for (size_t v = 0; v < nn; v++)
            if (parent[v] != (size_t)-1)
                mpq_add(load[parent[v]], load[parent[v]], count);
        mpq_add(total, total, count);
        mpq_div(q, count, period);
        mpz_lcm(lcm, lcm, mpq_denref(q));
    }
    mpq_clears(count, q, NULL);
    free(parent);
    return st;
}

/* throughput <= upper_bound, "optimal" only when equal. */
static ssched_status_t check_bound(chk_t *c, json_t *root)
{
    json_t *opt = json_object_get(root, "optimal");
    mpq_t ub;
    mpq_init(ub);
    ssched_status_t st = ssched_i_chk_get_q(c, root, "upper_bound", "schedule", ub);
    if (st == SSCHED_OK && !json_is_boolean(opt))
        st = ssched_i_chk_bad(c, "missing boolean field \"optimal\"");
    else if (st == SSCHED_OK && mpq_cmp(c->throughput, ub) > 0)
        ssched_i_chk_violation(c, "the throughput exceeds the stated upper_bound");
    else if (st == SSCHED_OK && json_is_true(opt) && !mpq_equal(c->throughput, ub))
        ssched_i_chk_violation(c, "\"optimal\" is true but the throughput is below the upper_bound");
    mpq_clear(ub);
    return st;
}

/* lcm_period over both kinds, nosplit_factor, matchings, links. */
static ssched_status_t check_figures(chk_t *c, json_t *root, const mpq_t period, int integral,
                                     size_t links, mpz_t lcm)
{
    json_t *fig = json_object_get(root, "figures");
    if (!fig)
        return SSCHED_OK; /* the file claims nothing more */
    mpq_t lcm_claim, L, q;
    mpq_inits(lcm_claim, L, q, NULL);
    ssched_status_t st;
    json_t *m = json_object_get(fig, "matchings"), *b = json_object_get(fig, "bipartite_edges");
    if ((st = ssched_i_chk_get_q(c, fig, "lcm_period", "figures", lcm_claim)) == SSCHED_OK &&
        (st = ssched_i_chk_get_q(c, fig, "nosplit_factor", "figures", L)) == SSCHED_OK) {
        mpz_lcm(lcm, lcm, mpq_denref(c->throughput));
        mpq_set_z(q, lcm);
        if (!json_is_integer(m) || (size_t)json_integer_value(m) !=
                                       json_array_size(json_object_get(root, "slots")))
            ssched_i_chk_violation(c, "figures.matchings is not the number of slots");
        else if (!json_is_integer(b) || (size_t)json_integer_value(b) != links)
            ssched_i_chk_violation(c, "figures.bipartite_edges is not the number of links the slots use");
        else if (!mpq_equal(q, lcm_claim))
            ssched_i_chk_violation(c, "figures.lcm_period is not the LCM of the denominators of the "
                          "schedule's rates, busy times and counts");
        else if (mpq_mul(q, lcm_claim, L), !mpq_equal(q, period))
            ssched_i_chk_violation(c, "the period is not figures.lcm_period x figures.nosplit_factor");
        else if (!integral && mpz_cmp_ui(mpq_numref(L), 1) != 0)
            ssched_i_chk_violation(c, "figures.nosplit_factor must be 1 when split is true");
    }
    mpq_clears(lcm_claim, L, q, NULL);
    return st;
}

ssched_status_t ssched_i_chk_allreduce(chk_t *c, json_t *root)
{
    static const char *const keys[] = {"format", "problem", "platform", "throughput", "period",
                                       "operations_per_period", "split", "slots", "computations",
                                       "trees", "root", "arborescences", "upper_bound",
                                       "optimal", "figures", NULL};
    ssched_status_t st = ssched_i_chk_keys(c, root, "schedule", keys);
    if (st != SSCHED_OK)
        return st;
    size_t r;
    if (json_object_get(root, "root") &&
        ((st = ssched_i_chk_get_node(c, root, "root", "schedule", &r)) != SSCHED_OK || r != c->target))
        return st != SSCHED_OK ? st : ssched_i_chk_bad(c, "\"root\" differs from problem.root");
    /* the reduce part, as a reduce file (its own slot, balance and tree
     * checks; the figures are checked below over both kinds) */
    json_t *view = reduce_view(c, root);
    c->allreduce = 0; /* a plain reduce file: no copies in it */
    st = ssched_i_chk_periodic(c, view);
    c->allreduce = 1;
    json_decref(view);
    if (st != SSCHED_OK || !c->report->valid)
        return st;
    size_t ne = c->n_edges, links = 0;
    mpq_t *copy = ssched_i_alloc(ne, sizeof *copy), *load = ssched_i_alloc(ne, sizeof *load);
    if (!copy || !load) {
        free(copy);
        free(load);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < ne; e++)
        mpq_inits(copy[e], load[e], NULL);
    mpq_t period, ops, total;
    mpz_t lcm;
    mpq_inits(period, ops, total, NULL);
    mpz_init(lcm);
    mpz_set_ui(lcm, 1);
    int integral = json_is_false(json_object_get(root, "split")); /* ssched_i_chk_periodic: boolean */
    if ((st = ssched_i_chk_get_q(c, root, "period", "schedule", period)) == SSCHED_OK &&
        (st = ssched_i_chk_get_q(c, root, "operations_per_period", "schedule", ops)) == SSCHED_OK)
        st = check_slots(c, root, period, integral, copy, &links, lcm);
    if (st == SSCHED_OK && c->report->valid)
        st = check_arborescences(c, root, period, load, total, lcm);
    if (st == SSCHED_OK && c->report->valid && !mpq_equal(total, ops))
        ssched_i_chk_violation(c, "the arborescences' counts do not sum to operations_per_period");
    for (size_t e = 0; e < ne && st == SSCHED_OK && c->report->valid; e++)
        if (!mpq_equal(copy[e], load[e]))
            ssched_i_chk_violation(c, "edge %s->%s: the slots' copies differ from the arborescences' "
                          "counts", c->names[c->from[e]], c->names[c->to[e]]);
    /* computations and tree weights enter the LCM too */
    json_t *lists[2] = {json_object_get(root, "computations"), json_object_get(root, "trees")};
    const char *what[2] = {"count", "weight"};
    for (int l = 0; l < 2 && st == SSCHED_OK && c->report->valid; l++)
        for (size_t k = 0; k < json_array_size(lists[l]) && st == SSCHED_OK; k++) {
            if ((st = ssched_i_chk_get_q(c, json_array_get(lists[l], k), what[l], "schedule", total)) !=
                SSCHED_OK)
                break;
            mpq_div(total, total, period);
            mpz_lcm(lcm, lcm, mpq_denref(total));
        }
    if (st == SSCHED_OK && c->report->valid)
        st = check_bound(c, root);
    if (st == SSCHED_OK && c->report->valid)
        st = check_figures(c, root, period, integral, links, lcm);
    for (size_t e = 0; e < ne; e++)
        mpq_clears(copy[e], load[e], NULL);
    free(copy);
    free(load);
    mpq_clears(period, ops, total, NULL);
    mpz_clear(lcm);
    return st;
}
