/* Checker: one period of a periodic schedule ("ssched-schedule/1"). */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

/* Per-slot port check and the busy time of each used edge: a one-port
 * host sends to one node and receives from one node in a slot; a switch
 * ("ports": "multi") may use several of its links in the same slot, each
 * link busy at most the slot's length (checked below for every link). */
int ssched_i_chk_slot(chk_t *c, size_t k, const mpq_t start, const mpq_t end,
                      const size_t *edge, mpq_t *const amount, size_t n, size_t *sends_to,
                      size_t *recv_from, mpq_t *busy)
{
    if (c->routed) {
        /* the routed LP's link and host rows replace the matchings */
        mpq_t len;
        mpq_init(len);
        mpq_sub(len, end, start);
        int ok = ssched_i_chk_routed_slot(c, k, len, edge, amount, n, busy);
        mpq_clear(len);
        return ok;
    }
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
    mpq_t *net = ssched_i_alloc(nt * nn, sizeof *net);
    mpq_t *sent_by_dest = ssched_i_alloc(nt, sizeof *sent_by_dest);
    mpq_t *busy = ssched_i_alloc(ne, sizeof *busy);
    size_t *sends_to = ssched_i_alloc(nn, sizeof *sends_to);
    size_t *recv_from = ssched_i_alloc(nn, sizeof *recv_from);
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
        if ((st = ssched_i_chk_slot_span(c, sl, k, where, period, prev_end, start, end)) !=
            SSCHED_OK)
            goto out;
        if (!c->report->valid)
            break;
        json_t *tr = json_object_get(sl, "transfers");
        if (!json_is_array(tr)) {
            st = ssched_i_chk_bad(c, "%s: missing \"transfers\" array", where);
            goto out;
        }
        size_t n = json_array_size(tr);
        if ((st = ssched_i_chk_slot_room(c, n, &edge, &amount, &cap)) != SSCHED_OK)
            goto out;
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
            st = ssched_i_chk_claims(c, root, period, ops, integral);
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
        st = ssched_i_chk_claims(c, root, period, ops, integral);
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
