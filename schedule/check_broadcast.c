/* Checker: one period of a periodic broadcast or multicast schedule
 * ("ssched-schedule/1", problem kind "broadcast").
 *
 * A broadcast message is copied, so the flow conservation of scatter does
 * not hold: what proves that every target receives every message is the
 * file's list of arborescences.  The checker verifies that each is an
 * arborescence of the platform rooted at the source (one in-arc per node
 * it reaches, no arc into the source, no cycle) that reaches every target
 * (a multicast's relays, switches included, may receive and forward; to
 * every other node it spans), that their counts add up to the operations
 * per period, and that the slots move over every edge exactly the
 * messages the arborescences send on it: then each of the
 * operations_per_period messages of a period can be routed down its own
 * arborescence.  The rest (one-port per slot, per link at a switch, slots
 * inside the period, throughput = ops / period, the figures) is checked
 * as for the other problems, and of the claimed "upper_bound" (the edge
 * LP) and "optimal" what needs no LP: upper_bound >= throughput, and a
 * throughput reaching its bound is optimal.  Nothing here comes from the
 * builder or from trees/. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

static int is_integer(const mpq_t q)
{
    return mpz_cmp_ui(mpq_denref(q), 1) == 0;
}

ssched_status_t ssched_i_chk_broadcast_problem(chk_t *c, json_t *pb, int strict)
{
    static const char *const keys[] = {"kind", "source", "targets", "size", NULL};
    ssched_status_t st;
    if (strict && (st = ssched_i_chk_keys(c, pb, "problem", keys)) != SSCHED_OK)
        return st;
    if (strict && !json_object_get(pb, "size"))
        return ssched_i_chk_bad(c, "problem: missing exact string field \"size\"");
    if ((st = ssched_i_chk_get_node(c, pb, "source", "problem", &c->source)) != SSCHED_OK)
        return st;
    json_t *a = json_object_get(pb, "targets");
    if (!json_is_array(a) || json_array_size(a) == 0)
        return ssched_i_chk_bad(c, "problem.targets: missing node list");
    unsigned char *seen = ssched_i_calloc(c->n_nodes, 1);
    /* the targets, kept in the participants list (c->N of them) */
    free(c->participants);
    c->N = 0;
    c->participants = ssched_i_alloc(json_array_size(a), sizeof(size_t));
    if (!seen || !c->participants) {
        free(seen);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < json_array_size(a) && st == SSCHED_OK; k++) {
        json_t *wrap = json_pack("{sO}", "n", json_array_get(a, k));
        size_t v;
        st = ssched_i_chk_get_node(c, wrap, "n", "problem.targets", &v);
        json_decref(wrap);
        if (st != SSCHED_OK)
            break;
        if (v == c->source)
            st = ssched_i_chk_bad(c, "problem.targets: the source '%s' is listed among its targets",
                         c->names[v]);
        else if (seen[v])
            st = ssched_i_chk_bad(c, "problem.targets: '%s' listed twice", c->names[v]);
        else if (chk_multi(c, v))
            st = ssched_i_chk_bad(c, "problem: '%s' is a switch (\"ports\": \"multi\"), never a "
                         "source or target", c->names[v]);
        seen[v] = 1;
        c->participants[c->N++] = v;
    }
    free(seen);
    if (st != SSCHED_OK)
        return st;
    if (json_object_get(pb, "size") && (st = ssched_i_chk_get_q(c, pb, "size", "problem", c->size)) != SSCHED_OK)
        return st;
    if (!json_object_get(pb, "size"))
        mpq_set_ui(c->size, 1, 1);
    if (mpq_sgn(c->size) <= 0)
        return ssched_i_chk_bad(c, "problem.size must be positive");
    c->bcast = 1;
    c->type_origin = malloc(sizeof(size_t));
    c->type_dest = malloc(sizeof(size_t));
    if (!c->type_origin || !c->type_dest)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    c->type_origin[0] = c->type_dest[0] = c->source;
    c->n_types = 1;
    return SSCHED_OK;
}

/* The arborescences: each an arborescence rooted at the source reaching
 * every target, with a positive integer count; load[e] += count for each
 * arc; total = the sum of the counts; lcm = LCM of the denominators of
 * count / period. */
static ssched_status_t read_arborescences(chk_t *c, json_t *root, const mpq_t period,
                                          mpq_t *load, mpq_t total, mpz_t lcm)
{
    static const char *const keys[] = {"count", "arcs", NULL};
    json_t *arr = json_object_get(root, "arborescences");
    if (!json_is_array(arr))
        return ssched_i_chk_bad(c, "missing \"arborescences\" array");
    if (json_array_size(arr) == 0)
        return ssched_i_chk_violation(c, "the schedule has no arborescence"), SSCHED_OK;
    size_t nn = c->n_nodes;
    size_t *parent = ssched_i_alloc(nn, sizeof *parent);  /* in-arc's edge */
    size_t *state = ssched_i_alloc(nn, sizeof *state);
    unsigned char *target = ssched_i_calloc(nn, 1);
    if (!parent || !state || !target) {
        free(parent);
        free(state);
        free(target);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < c->N; t++)
        target[c->participants[t]] = 1;
    mpq_t count, q;
    mpq_inits(count, q, NULL);
    ssched_status_t st = SSCHED_OK;
    char where[64];
    for (size_t i = 0; i < json_array_size(arr) && st == SSCHED_OK && c->report->valid; i++) {
        json_t *o = json_array_get(arr, i), *arcs = json_object_get(o, "arcs");
        snprintf(where, sizeof where, "arborescences[%zu]", i);
        if ((st = ssched_i_chk_keys(c, o, where, keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "count", where, count)) != SSCHED_OK)
            break;
        if (!json_is_array(arcs)) {
            st = ssched_i_chk_bad(c, "%s: missing \"arcs\" array", where);
            break;
        }
        if (mpq_sgn(count) <= 0 || !is_integer(count)) {
            ssched_i_chk_violation(c, "%s: the count must be a positive integer", where);
            break;
        }
        for (size_t v = 0; v < nn; v++)
            parent[v] = (size_t)-1;
        for (size_t k = 0; k < json_array_size(arcs) && c->report->valid; k++) {
            json_t *arc = json_array_get(arcs, k);
            size_t u, v;
            json_t *wrap = json_pack("{sOsO}", "from", json_array_get(arc, 0) ? json_array_get(arc, 0) : json_null(),
                                     "to", json_array_get(arc, 1) ? json_array_get(arc, 1) : json_null());
            char aw[96];
            snprintf(aw, sizeof aw, "%s.arcs[%zu]", where, k);
            if (!json_is_array(arc) || json_array_size(arc) != 2)
                st = ssched_i_chk_bad(c, "%s: an arc is [\"from\", \"to\"]", aw);
            else if ((st = ssched_i_chk_get_node(c, wrap, "from", aw, &u)) == SSCHED_OK)
                st = ssched_i_chk_get_node(c, wrap, "to", aw, &v);
            json_decref(wrap);
            if (st != SSCHED_OK)
                break;
            size_t e = ssched_i_chk_edge(c, u, v);
            if (e == (size_t)-1)
                st = ssched_i_chk_bad(c, "%s: no platform edge %s->%s", aw, c->names[u], c->names[v]);
            else if (v == c->source)
                ssched_i_chk_violation(c, "%s: arc %s->%s enters the source", where, c->names[u],
                              c->names[v]);
            else if (parent[v] != (size_t)-1)
                ssched_i_chk_violation(c, "%s: node %s has two in-arcs", where, c->names[v]);
            else
                parent[v] = e;
            if (st != SSCHED_OK)
                break;
        }
        /* every target, and every node an arc enters (a relay), reaches
         * the source up the in-arcs (no cycle): state 0 unvisited, 1 on the
         * current walk, 2 reaches the source */
        for (size_t v = 0; v < nn; v++)
            state[v] = v == c->source ? 2 : 0;
        for (size_t v = 0; v < nn && st == SSCHED_OK && c->report->valid; v++) {
            if (!target[v] && parent[v] == (size_t)-1)
                continue; /* a node this multicast arborescence leaves out */
            size_t u = v;
            while (state[u] == 0 && parent[u] != (size_t)-1) {
                state[u] = 1;
                u = c->from[parent[u]];
            }
            if (state[u] != 2) {
                ssched_i_chk_violation(c, "%s does not reach node %s from the source %s", where,
                              c->names[v], c->names[c->source]);
                break;
            }
            for (u = v; state[u] == 1; u = c->from[parent[u]])
                state[u] = 2;
        }
        if (st != SSCHED_OK || !c->report->valid)
            break;
        for (size_t v = 0; v < nn; v++)
            if (parent[v] != (size_t)-1)
                mpq_add(load[parent[v]], load[parent[v]], count);
        mpq_add(total, total, count);
        mpq_div(q, count, period);
        mpz_lcm(lcm, lcm, mpq_denref(q));
    }
    mpq_clears(count, q, NULL);
    free(parent);
    free(state);
    free(target);
    return st;
}

/* The slots: port rules, bounds in the period; amt[e] = messages per period. */
static ssched_status_t read_slots(chk_t *c, json_t *root, const mpq_t period, int integral,
                                  mpq_t *amt, size_t *n_used, mpz_t L, const mpq_t nosplit)
{
    static const char *const slot_keys[] = {"start", "end", "transfers", NULL};
    static const char *const tr_keys[] = {"from", "to", "amount", NULL};
    json_t *slots = json_object_get(root, "slots");
    if (!json_is_array(slots))
        return ssched_i_chk_bad(c, "missing \"slots\" array");
    size_t nn = c->n_nodes, ne = c->n_edges, cap = 0;
    size_t *sends_to = ssched_i_alloc(nn, sizeof *sends_to);
    size_t *recv_from = ssched_i_alloc(nn, sizeof *recv_from);
    mpq_t *busy = ssched_i_alloc(ne, sizeof *busy);
    size_t *edge = NULL;
    mpq_t *amount = NULL;
    if (!sends_to || !recv_from || !busy) {
        free(sends_to); free(recv_from); free(busy);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nn; i++)
        sends_to[i] = recv_from[i] = (size_t)-1;
    for (size_t e = 0; e < ne; e++)
        mpq_init(busy[e]);
    mpq_t start, end, prev_end, q;
    mpq_inits(start, end, prev_end, q, NULL);
    ssched_status_t st = SSCHED_OK;
    c->report->n_slots = json_array_size(slots);
    char where[96];
    for (size_t k = 0; k < json_array_size(slots) && st == SSCHED_OK && c->report->valid; k++) {
        json_t *sl = json_array_get(slots, k), *tr = json_object_get(sl, "transfers");
        snprintf(where, sizeof where, "slots[%zu]", k);
        if ((st = ssched_i_chk_keys(c, sl, where, slot_keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, sl, "start", where, start)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, sl, "end", where, end)) != SSCHED_OK)
            break;
        if (!json_is_array(tr)) {
            st = ssched_i_chk_bad(c, "%s: missing \"transfers\" array", where);
            break;
        }
        if (mpq_cmp(start, prev_end) < 0 || mpq_cmp(end, start) <= 0 || mpq_cmp(end, period) > 0) {
            ssched_i_chk_violation(c, "slot %zu is not inside the period after the previous slot", k);
            break;
        }
        mpq_set(prev_end, end);
        size_t n = json_array_size(tr);
        if ((st = ssched_i_chk_slot_room(c, n, &edge, &amount, &cap)) != SSCHED_OK)
            break;
        c->report->n_transfers += n;
        for (size_t t = 0; t < n && st == SSCHED_OK && c->report->valid; t++) {
            json_t *x = json_array_get(tr, t);
            size_t type;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, t);
            if ((st = ssched_i_chk_keys(c, x, where, tr_keys)) != SSCHED_OK ||
                (st = ssched_i_chk_transfer(c, x, where, &edge[t], &type)) != SSCHED_OK ||
                (st = ssched_i_chk_get_q(c, x, "amount", where, amount[t])) != SSCHED_OK)
                break;
            if (mpq_sgn(amount[t]) <= 0)
                ssched_i_chk_violation(c, "%s: the amount must be positive", where);
            else if (integral && !is_integer(amount[t]))
                ssched_i_chk_violation(c, "%s: split is false but the amount is not an integer", where);
            *n_used += mpq_sgn(amt[edge[t]]) == 0;
            mpq_add(amt[edge[t]], amt[edge[t]], amount[t]);
            mpq_div(q, amount[t], nosplit);
            mpz_lcm(L, L, mpq_denref(q));
        }
        if (st == SSCHED_OK && c->report->valid)
            ssched_i_chk_slot(c, k, start, end, edge, amount, n, sends_to, recv_from, busy);
    }
    for (size_t t = 0; t < cap; t++)
        mpq_clear(amount[t]);
    for (size_t e = 0; e < ne; e++)
        mpq_clear(busy[e]);
    free(edge); free(amount); free(sends_to); free(recv_from); free(busy);
    mpq_clears(start, end, prev_end, q, NULL);
    return st;
}

/* Ports over the whole period: implied by the slots, stated on its own so
 * that a schedule claiming more than the platform carries is named by its
 * port. */
static void check_ports(chk_t *c, const mpq_t *amt, const mpq_t period)
{
    /* a routed file's resources are its links and, one-port, its hosts:
     * the slot checks (ssched_i_chk_routed_slot) hold those; the graph
     * model's ports do not exist there (docs/model.md, routed schedules) */
    if (c->routed)
        return;
    size_t nn = c->n_nodes, ne = c->n_edges;
    mpq_t *out = malloc((2 * nn + ne + 1) * sizeof *out), q;
    if (!out)
        return; /* the slot checks above already imply this one */
    for (size_t k = 0; k < 2 * nn + ne; k++)
        mpq_init(out[k]);
    mpq_init(q);
    for (size_t e = 0; e < ne; e++) {
        mpq_mul(q, amt[e], c->cost[e]);
        mpq_mul(q, q, c->size);
        mpq_add(out[c->from[e]], out[c->from[e]], q);
        mpq_add(out[nn + c->to[e]], out[nn + c->to[e]], q);
        mpq_set(out[2 * nn + e], q);
    }
    for (size_t k = 0; k < 2 * nn + ne && c->report->valid; k++) {
        int link = k >= 2 * nn;
        size_t e = k - 2 * nn, v = k % nn;
        if (!link && chk_multi(c, v))
            continue;
        if (mpq_cmp(out[k], period) > 0) {
            if (link)
                ssched_i_chk_violation(c, "link %s->%s is busy longer than the period",
                              c->names[c->from[e]], c->names[c->to[e]]);
            else
                ssched_i_chk_violation(c, "the %s-port of %s is busy longer than the period",
                              k < nn ? "out" : "in", c->names[v]);
        }
    }
    for (size_t k = 0; k < 2 * nn + ne; k++)
        mpq_clear(out[k]);
    mpq_clear(q);
    free(out);
}

/* "figures" as for the other problems; lcm_period = the LCM of the
 * denominators of the arborescences' rates count / period (= the period
 * before the no-split scaling). */
static ssched_status_t check_figures(chk_t *c, json_t *root, const mpq_t period, int integral,
                                     const mpz_t lcm, size_t n_used, const mpz_t L,
                                     const mpq_t nosplit)
{
    static const char *const fig_keys[] = {"matchings", "bound", "bipartite_edges",
                                           "decompose_seconds", "lcm_period", "nosplit_factor",
                                           NULL};
    json_t *fig = json_object_get(root, "figures");
    if (!fig)
        return SSCHED_OK; /* the file claims nothing more */
    ssched_status_t st;
    if ((st = ssched_i_chk_keys(c, fig, "figures", fig_keys)) != SSCHED_OK)
        return st;
    json_t *m = json_object_get(fig, "matchings"), *b = json_object_get(fig, "bound");
    json_t *be = json_object_get(fig, "bipartite_edges"), *secs = json_object_get(fig, "decompose_seconds");
    if (!json_is_integer(m) || !json_is_integer(b) || !json_is_integer(be) ||
        json_integer_value(m) < 0 || json_integer_value(b) < 0 || json_integer_value(be) < 0)
        return ssched_i_chk_bad(c, "figures: matchings, bound and bipartite_edges must be non-negative integers");
    if (!json_is_number(secs) || json_number_value(secs) < 0)
        return ssched_i_chk_bad(c, "figures: \"decompose_seconds\" must be a non-negative number");
    mpq_t lc, q;
    mpq_inits(lc, q, NULL);
    size_t n_slots = json_array_size(json_object_get(root, "slots"));
    if ((st = ssched_i_chk_get_q(c, fig, "lcm_period", "figures", lc)) != SSCHED_OK)
        goto out;
    if ((size_t)json_integer_value(m) != n_slots)
        ssched_i_chk_violation(c, "figures.matchings is %lld but the file has %zu slots",
                      (long long)json_integer_value(m), n_slots);
    else if (json_integer_value(m) > json_integer_value(b))
        ssched_i_chk_violation(c, "figures: the matchings exceed the stated bound");
    else if ((size_t)json_integer_value(be) != n_used)
        ssched_i_chk_violation(c, "figures.bipartite_edges is %lld but the slots use %zu links",
                      (long long)json_integer_value(be), n_used);
    else if (mpq_sgn(nosplit) <= 0 || !is_integer(nosplit) ||
             (integral ? mpz_cmp(mpq_numref(nosplit), L) != 0
                       : mpz_cmp_ui(mpq_numref(nosplit), 1) != 0))
        ssched_i_chk_violation(c, "figures.nosplit_factor is not the LCM of the denominators of the "
                         "amounts before the no-split scaling (1 when split is true)");
    else if (mpq_set_z(q, lcm), !mpq_equal(q, lc))
        ssched_i_chk_violation(c, "figures.lcm_period is not the LCM of the denominators of the "
                         "arborescences' rates");
    else if (mpq_mul(q, lc, nosplit), !mpq_equal(q, period))
        ssched_i_chk_violation(c, "the period is not figures.lcm_period x figures.nosplit_factor");
out:
    mpq_clears(lc, q, NULL);
    return st;
}

/* "upper_bound" (the edge LP's certified optimum) and "optimal": what can
 * be checked without solving the LP.  Required for a multicast (its
 * throughput is only achievable); optional otherwise (older files).  To
 * every other node the edge LP is exact (Edmonds), so there optimal holds
 * exactly when the throughput reaches the bound. */
static ssched_status_t check_bound(chk_t *c, json_t *root)
{
    json_t *ub = json_object_get(root, "upper_bound"), *opt = json_object_get(root, "optimal");
    int multicast = c->N + 1 != c->n_nodes;
    if (!ub && !opt && !multicast)
        return SSCHED_OK;
    if (!ub || !json_is_boolean(opt))
        return ssched_i_chk_bad(c, "a %s schedule states \"upper_bound\" and a boolean \"optimal\"",
                       multicast ? "multicast" : "broadcast");
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = ssched_i_chk_get_q(c, root, "upper_bound", "schedule", q);
    int reached = st == SSCHED_OK && mpq_equal(q, c->throughput);
    if (st != SSCHED_OK)
        ;
    else if (mpq_cmp(q, c->throughput) < 0)
        ssched_i_chk_violation(c, "upper_bound is below the throughput");
    else if (reached && json_is_false(opt))
        ssched_i_chk_violation(c, "optimal is false but the throughput reaches upper_bound");
    else if (!multicast && !reached && json_is_true(opt))
        ssched_i_chk_violation(c, "optimal is true but a broadcast to every other node reaches its "
                         "upper_bound only when optimal");
    mpq_clear(q);
    return st;
}

ssched_status_t ssched_i_chk_broadcast(chk_t *c, json_t *root)
{
    static const char *const keys[] = {"format", "problem", "platform", "throughput", "period",
                                       "operations_per_period", "split", "slots",
                                       "arborescences", "upper_bound", "optimal", "figures",
                                       NULL};
    ssched_status_t st;
    if ((st = ssched_i_chk_keys(c, root, "schedule", keys)) != SSCHED_OK)
        return st;
    json_t *split = json_object_get(root, "split");
    if (!json_is_boolean(split))
        return ssched_i_chk_bad(c, "missing boolean field \"split\"");
    int integral = json_is_false(split);
    size_t ne = c->n_edges, n_used = 0;
    mpq_t period, ops, q, total, nosplit;
    mpz_t lcm, L;
    mpq_inits(period, ops, q, total, nosplit, NULL);
    mpz_inits(lcm, L, NULL);
    mpz_set_ui(lcm, 1);
    mpz_set_ui(L, 1);
    mpq_set_ui(nosplit, 1, 1);
    mpq_t *load = ssched_i_alloc(ne, sizeof *load);
    mpq_t *amt = ssched_i_alloc(ne, sizeof *amt);
    if (!load || !amt) {
        free(load);
        free(amt);
        mpq_clears(period, ops, q, total, nosplit, NULL);
        mpz_clears(lcm, L, NULL);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < ne; e++)
        mpq_inits(load[e], amt[e], NULL);
    json_t *fig = json_object_get(root, "figures");
    if ((st = ssched_i_chk_get_q(c, root, "period", "schedule", period)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, root, "operations_per_period", "schedule", ops)) != SSCHED_OK ||
        (fig && json_object_get(fig, "nosplit_factor") &&
         (st = ssched_i_chk_get_q(c, fig, "nosplit_factor", "figures", nosplit)) != SSCHED_OK))
        goto out;
    if (mpq_sgn(period) <= 0) {
        ssched_i_chk_violation(c, "the period must be positive");
        goto out;
    }
    if (mpq_sgn(ops) <= 0 || !is_integer(ops)) {
        ssched_i_chk_violation(c, "operations_per_period must be a positive integer");
        goto out;
    }
    if (mpq_sgn(nosplit) <= 0) {
        ssched_i_chk_violation(c, "figures.nosplit_factor must be positive");
        goto out;
    }
    mpq_div(q, ops, period);
    if (!mpq_equal(q, c->throughput)) {
        ssched_i_chk_violation(c, "throughput differs from operations_per_period / period");
        goto out;
    }
    if ((st = read_arborescences(c, root, period, load, total, lcm)) != SSCHED_OK ||
        !c->report->valid)
        goto out;
    if (!mpq_equal(total, ops)) {
        ssched_i_chk_violation(c, "the arborescences' counts add up to a number other than "
                         "operations_per_period");
        goto out;
    }
    if ((st = read_slots(c, root, period, integral, amt, &n_used, L, nosplit)) != SSCHED_OK ||
        !c->report->valid)
        goto out;
    for (size_t e = 0; e < ne && c->report->valid; e++)
        if (!mpq_equal(amt[e], load[e]))
            ssched_i_chk_violation(c, "edge %s->%s carries a number of messages per period different "
                          "from the arborescences that use it", c->names[c->from[e]],
                          c->names[c->to[e]]);
    if (c->report->valid)
        check_ports(c, amt, period);
    if (c->report->valid)
        st = check_figures(c, root, period, integral, lcm, n_used, L, nosplit);
    if (st == SSCHED_OK && c->report->valid)
        st = check_bound(c, root);
out:
    for (size_t e = 0; e < ne; e++)
        mpq_clears(load[e], amt[e], NULL);
    free(load);
    free(amt);
    mpq_clears(period, ops, q, total, nosplit, NULL);
    mpz_clears(lcm, L, NULL);
    return st;
}
