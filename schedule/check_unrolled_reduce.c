/* Checker: an unrolled reduce schedule (or the reduce part of an
 * all-reduce, whose copies of each result this file hands to the
 * broadcast simulation of check_unrolled_broadcast.c, sharing the ports;
 * see check_unrolled_allreduce.c), simulated with a real associative,
 * non-commutative operator (string concatenation).  A commutative file
 * (values keyed by set, merges of disjoint sets) is simulated with the
 * same strings read as multisets: each result must hold every
 * participant's "k.t;" exactly once, in any order.
 *
 * Participant k's value of time-stamp t is the string "k.t;".  A transfer
 * moves a value between nodes; a computation T_{k,l,m} on a node replaces
 * v[k,l] and v[l+1,m] of one time-stamp by their concatenation in that
 * order.  Every value must exist where and when it is used; at the end the
 * target must hold, for every time-stamp t, exactly "0.t;1.t;...(N-1).t;".
 *
 * Latency and batches (docs/model.md, "Latency"): a transfer over e lasts
 * l(e) + batch * length * size * c(e) and holds its ports (or link) only in
 * [start + l(e), end) (check_ports.c); with "batch": n it carries the same
 * range of the values of time-stamps op .. op+n-1, each moved as if alone.
 * A value is usable at the receiver only once whole (its last piece ended):
 * relays and merges never use part of a value.
 *
 * Buffers ("buffer_peak", check_buffer.c): a value is held at a node from
 * the start of the transfer bringing it (by its length) or of the
 * computation making it (by 1) until the end of the transfer sending it
 * away or of the computation consuming it; a participant's own value at
 * home and the result at the target are not counted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "schedule/check_values.h"
#include "src/util/internal.h"

/* The values present somewhere (schedule/check_values.h); a consumed
 * value leaves the table, which then holds the values alive at one time
 * (those in flight, and the results at the target, read at the end)
 * instead of every value the schedule ever made: for K = 10^5 operations
 * of 12 participants on tiers-99, 3.5 GB of slots before. */
typedef chk_val_t slot_t;
typedef chk_vals_t table_t;

typedef chk_rev_t ev_t;

static char *leaf_value(size_t k, size_t op)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%zu.%zu;", k, op);
    return strdup(buf);
}

/* Take value (node, interval, op) available by `at`; returns a malloc'ed
 * string the caller owns, or NULL after recording a violation. */
static char *take(chk_t *c, table_t *t, size_t node, size_t interval, size_t op,
                  const mpq_t at, const char *who)
{
    size_t own = ssched_i_chk_type_own(c, interval);
    if (own != SIZE_MAX && c->participants[own] == node)
        return leaf_value(own, op); /* the participant's own value: always there */
    slot_t *x = ssched_i_chk_val_find(t, node, interval, op, 0);
    int absent = !x || !x->value;
    if (absent || x->partial || mpq_cmp(x->since, at) > 0) {
        char name[96]; /* named only when reported: takes are many */
        ssched_i_chk_type_name(c, interval, name, sizeof name);
        if (absent)
            ssched_i_chk_violation(c, "%s uses %s of time-stamp %zu on %s, which is not there", who, name,
                          op, c->names[node]);
        else
            ssched_i_chk_violation(c, "%s uses %s of time-stamp %zu on %s before it exists%s", who, name,
                          op, c->names[node],
                          x->partial ? " (not all its pieces have arrived)" : "");
        return NULL;
    }
    char *v = x->value;
    x->value = NULL;
    ssched_i_chk_val_erase(t, x);
    return v;
}

static int put(chk_t *c, table_t *t, size_t node, size_t interval, size_t op,
               const mpq_t at, char *value)
{
    slot_t *x = ssched_i_chk_val_find(t, node, interval, op, 1);
    if (!x) {
        free(value);
        return -1;
    }
    if (x->value) {
        char name[96];
        ssched_i_chk_type_name(c, interval, name, sizeof name);
        free(value);
        return ssched_i_chk_violation(c, "%s of time-stamp %zu is on %s twice", name, op, c->names[node]);
    }
    x->value = value;
    mpq_set(x->since, at);
    return 1;
}

/* Parse event `index` of its array into e (start order is checked by the
 * caller). */
static ssched_status_t parse_event(chk_t *c, json_t *x, int compute, size_t index, int strict,
                                   size_t K, ev_t *e)
{
    static const char *const tkeys[] = {"start", "end", "from", "to", "interval", "op", "batch",
                                        "piece", NULL};
    static const char *const ckeys[] = {"start", "end", "node", "task", "op", NULL};
    static const char *const comm_tkeys[] = {"start", "end", "from", "to", "set", "op", "batch",
                                             "piece", NULL};
    static const char *const comm_ckeys[] = {"start", "end", "node", "merge", "op", NULL};
    /* an all-reduce's transfers may be copies of the result instead */
    static const char *const all_tkeys[] = {"start", "end", "from", "to", "interval", "copy",
                                            "op", "batch", "piece", NULL};
    static const char *const all_comm_tkeys[] = {"start", "end", "from", "to", "set", "copy",
                                                 "op", "batch", "piece", NULL};
    const char *const *keys = compute     ? (c->comm ? comm_ckeys : ckeys)
                              : c->allreduce ? (c->comm ? all_comm_tkeys : all_tkeys)
                                             : (c->comm ? comm_tkeys : tkeys);
    char where[64];
    snprintf(where, sizeof where, "%s[%zu]", compute ? "computations" : "transfers", index);
    e->compute = compute;
    e->index = index;
    e->group = 0;
    ssched_status_t st;
    if ((strict && (st = ssched_i_chk_keys(c, x, where, keys)) != SSCHED_OK) ||
        (st = ssched_i_chk_get_q(c, x, "start", where, e->start)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "end", where, e->end)) != SSCHED_OK)
        return st;
    json_t *op = json_object_get(x, "op");
    if (!json_is_integer(op) || json_integer_value(op) < 0)
        return ssched_i_chk_bad(c, "%s: missing non-negative integer \"op\"", where);
    e->op = (size_t)json_integer_value(op);
    mpq_t q;
    mpq_init(q);
    mpq_sub(q, e->end, e->start);
    if (compute) {
        if ((st = ssched_i_chk_get_node(c, x, "node", where, &e->node_or_edge)) != SSCHED_OK ||
            (st = ssched_i_chk_comp_types(c, x, where, e->t)) != SSCHED_OK) {
            mpq_clear(q);
            return st;
        }
        mpq_set_ui(e->off, 0, 1);
        mpq_set_ui(e->len, 1, 1);
        if (!c->has_w[e->node_or_edge] && c->report->valid)
            ssched_i_chk_violation(c, "%s: node %s cannot compute", where, c->names[e->node_or_edge]);
        else if (c->report->valid && !mpq_equal(q, c->w[e->node_or_edge]))
            ssched_i_chk_violation(c, "%s: a task lasts w of its node", where);
    } else {
        if ((st = ssched_i_chk_transfer(c, x, where, &e->node_or_edge, &e->interval)) != SSCHED_OK ||
            (st = ssched_i_chk_piece(c, x, where, e->off, e->len)) != SSCHED_OK ||
            (st = ssched_i_chk_batch(c, x, where, &e->batch)) != SSCHED_OK) {
            mpq_clear(q);
            return st;
        }
        /* l + batch * length * size * c of its edge, or a shared-rate
         * group's member (check_shared.c) */
        if (c->report->valid)
            ssched_i_chk_duration_group(c, e->node_or_edge, e->batch, e->len, e->start, e->end,
                                        where, q, &e->group, &e->group_link);
    }
    mpq_clear(q);
    if (compute)
        e->batch = 1;
    if ((e->op >= K || e->batch > K - e->op) && c->report->valid)
        ssched_i_chk_violation(c, "%s: time-stamp %zu is outside 0..%zu", where,
                               e->op >= K ? e->op : e->op + e->batch - 1, K - 1);
    if (mpq_sgn(e->start) < 0 && c->report->valid)
        ssched_i_chk_violation(c, "%s: starts before time 0", where);
    if (mpq_cmp(e->end, c->makespan) > 0)
        mpq_set(c->makespan, e->end);
    return SSCHED_OK;
}

/* Is v[interval] at node counted in its buffer? */
static int counted(const chk_t *c, size_t interval, size_t node)
{
    size_t own = ssched_i_chk_type_own(c, interval);
    if (own != SIZE_MAX)
        return c->participants[own] != node;
    return !(ssched_i_chk_type_full(c, interval) && node == c->target);
}

/* A transfer moves (a piece of) v[km] from i to j. */
static void buffers_move(const chk_t *c, chk_buf_t *buf, const ev_t *e, size_t km, size_t i,
                         size_t j)
{
    if (counted(c, km, j))
        ssched_i_chk_buf_acquire(buf, j, e->start, e->len);
    if (counted(c, km, i))
        ssched_i_chk_buf_release(buf, i, e->end, e->len);
}

int ssched_i_chk_reduce_result_ok(const chk_t *c, const char *value, size_t t)
{
    if (c->comm)
        return ssched_i_chk_commut_result(c, value, t);
    char *expect = malloc(c->N * 48 + 1);
    if (!expect)
        return -1;
    size_t len = 0;
    for (size_t k = 0; k < c->N; k++)
        len += (size_t)sprintf(expect + len, "%zu.%zu;", k, t);
    int ok = !strcmp(value, expect);
    free(expect);
    return ok;
}

/* All-reduce: the root's complete result of op by `at`, or NULL. */
static const char *root_result(chk_t *c, table_t *t, size_t op, const mpq_t at, int *nomem)
{
    size_t full = ssched_i_chk_full_type(c);
    if (full == SIZE_MAX) {
        *nomem = 1;
        return NULL;
    }
    slot_t *x = ssched_i_chk_val_find(t, c->target, full, op, 0);
    return x && x->value && !x->partial && mpq_cmp(x->since, at) <= 0 ? x->value : NULL;
}

/* A transfer's move of one operation's range (ports and duration checked):
 * the whole value (or the first piece) must be at the sender by the start,
 * so a relay forwards a value only after it fully arrived; pieces of one
 * value over one edge follow in order and the value is usable at the
 * receiver when the last one ends. */
static ssched_status_t move_value(chk_t *c, table_t *table, ev_t *e, size_t op, int whole_only,
                                  chk_buf_t *buf, chk_bsim_t *copies, const char *where)
{
    if (e->interval == CHK_COPY) { /* only an all-reduce's transfers have it */
        int nomem = 0;
        const char *v = c->from[e->node_or_edge] == c->target
                            ? root_result(c, table, op, e->start, &nomem) : NULL;
        if (nomem)
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        return ssched_i_chk_allreduce_copy(c, copies, e->node_or_edge, op, e->off, e->len, e->start,
                                  e->end, v, where);
    }
    size_t i = c->from[e->node_or_edge], j = c->to[e->node_or_edge], km = e->interval;
    if (whole_only && (mpq_sgn(e->off) != 0 || mpq_cmp_ui(e->len, 1, 1) != 0))
        return ssched_i_chk_violation(c, "%s moves a piece but the file says \"split\": false", where),
               SSCHED_OK;
    if (ssched_i_chk_type_full(c, km) && i == c->target)
        return ssched_i_chk_violation(c, "%s: the result leaves the target", where), SSCHED_OK;
    if (mpq_sgn(e->off) == 0) {
        /* the first piece (or the whole value) takes it from i; it is
         * usable at j once [0, 1) has arrived there */
        char *v = take(c, table, i, km, op, e->start, where);
        if (v && put(c, table, j, km, op, e->end, v) < 0)
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        if (v)
            buffers_move(c, buf, e, km, i, j);
        slot_t *y = v ? ssched_i_chk_val_find(table, j, km, op, 0) : NULL;
        if (y && mpq_cmp_ui(e->len, 1, 1) != 0) {
            y->partial = 1;
            y->from = i;
            mpq_set(y->got, e->len);
        }
        return SSCHED_OK;
    }
    /* later pieces follow in order, from the same node */
    slot_t *y = ssched_i_chk_val_find(table, j, km, op, 0);
    if (!y || !y->value || !y->partial || y->from != i || !mpq_equal(y->got, e->off)) {
        char name[96];
        ssched_i_chk_type_name(c, km, name, sizeof name);
        return ssched_i_chk_violation(c, "%s: piece of %s of time-stamp %zu does not continue the "
                             "pieces %s->%s sent before", where, name, op, c->names[i],
                             c->names[j]), SSCHED_OK;
    }
    buffers_move(c, buf, e, km, i, j);
    mpq_add(y->got, y->got, e->len);
    mpq_set(y->since, e->end);
    if (mpq_cmp_ui(y->got, 1, 1) == 0)
        y->partial = 0;
    return SSCHED_OK;
}

/* where = prefix, index, suffix (snprintf took 6 % of a check: one name
 * per event, read only when a violation is reported). */
static void event_name(char where[64], const char *prefix, size_t index, const char *suffix)
{
    char digits[24];
    size_t n = 0, p = strlen(prefix);
    do
        digits[n++] = (char)('0' + index % 10);
    while ((index /= 10) > 0);
    memcpy(where, prefix, p);
    while (n > 0)
        where[p++] = digits[--n];
    strcpy(where + p, suffix);
}

/* One event in start order: the port (or processor) is free, then the
 * values move or merge (copies: ssched_i_chk_allreduce_copy); a batch
 * moves the same range of each of its operations' values. */
static ssched_status_t run_event(chk_t *c, table_t *table, ev_t *e, chk_ports_t *ports,
                                 int whole_only, chk_buf_t *buf, chk_bsim_t *copies)
{
    char where[64];
    event_name(where, e->compute ? "computation " : "transfer ", e->index, "");
    /* one-port per host, per link at a switch ("ports": "multi"), one task
     * per processor; a transfer's bandwidth phase only (check_ports.c) */
    int taken;
    if (e->compute) {
        if (chk_multi(c, e->node_or_edge))
            return ssched_i_chk_violation(c, "switch %s computes (at %s)", c->names[e->node_or_edge],
                                 where), SSCHED_OK;
        taken = ssched_i_chk_ports_compute(c, ports, e->node_or_edge, e->start, e->end, where);
    } else {
        taken = ssched_i_chk_ports_take_group(c, ports, e->node_or_edge, e->start, e->end,
                                              e->group, e->group_link, e->index, where);
    }
    if (taken <= 0)
        return taken < 0 ? SSCHED_ENOMEM : SSCHED_OK;
    if (e->compute) {
        size_t node = e->node_or_edge;
        char *a = take(c, table, node, e->t[1], e->op, e->start, where);
        char *b = a ? take(c, table, node, e->t[2], e->op, e->start, where) : NULL;
        ssched_status_t st = SSCHED_OK;
        if (a && b) {
            char *v = malloc(strlen(a) + strlen(b) + 1);
            if (!v)
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            else {
                strcpy(v, a);
                strcat(v, b); /* left operand first: the order matters (ordered) */
                size_t out = e->t[0], in[2] = {e->t[1], e->t[2]};
                if (put(c, table, node, out, e->op, e->end, v) < 0)
                    st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
                /* e->len is 1: a computation makes and consumes whole values */
                if (counted(c, out, node))
                    ssched_i_chk_buf_acquire(buf, node, e->start, e->len);
                for (int k = 0; k < 2; k++)
                    if (counted(c, in[k], node))
                        ssched_i_chk_buf_release(buf, node, e->end, e->len);
            }
        }
        free(a);
        free(b);
        return st;
    }
    ssched_status_t st = SSCHED_OK;
    for (size_t b = 0; b < e->batch && st == SSCHED_OK && c->report->valid; b++)
        st = move_value(c, table, e, e->op + b, whole_only, buf, copies, where);
    return st;
}

/* The next event of one array, parsed, with its start order checked. */
typedef struct {
    chk_iter_t it;
    ev_t ev;
    int has, compute;
    mpq_t prev, prev_scratch;
} stream_t;

/* names: the node index of the fast reader, NULL to read every event with
 * jansson (check_unrolled_reduce_fast.c says when that is needed). */
static ssched_status_t advance(chk_t *c, stream_t *s, int strict, size_t K,
                               const chk_names_t *names)
{
    json_t *x;
    s->has = 0;
    size_t index = s->it.index;
    if (!names || !ssched_i_chk_reduce_fast_event(c, names, &s->it, s->compute, K, &s->ev,
                                                  s->prev_scratch)) {
        ssched_status_t st = ssched_i_chk_iter_next(&s->it, &x, c->err);
        if (st != SSCHED_OK || !x)
            return st;
        st = parse_event(c, x, s->compute, index, strict, K, &s->ev);
        json_decref(x);
        if (st != SSCHED_OK)
            return st;
    }
    if (index > 0 && mpq_cmp(s->ev.start, s->prev) < 0)
        return ssched_i_chk_bad(c, "%s[%zu]: events must be listed in start order",
                       s->compute ? "computations" : "transfers", index);
    mpq_set(s->prev, s->ev.start);
    s->has = 1;
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_unrolled_reduce(chk_t *c, json_t *root, const chk_extent_t *tr,
                                    const chk_extent_t *co)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return ssched_i_chk_bad(c, "missing positive integer \"operations\"");
    size_t K = (size_t)json_integer_value(kj);
    if (K > (1UL << 26)) /* the simulation keeps every result: bound the work */
        return ssched_i_chk_bad(c, "too many operations to check (%zu)", K);
    const char *format = json_string_value(json_object_get(root, "format"));
    int strict = format && !strcmp(format, "ssched-unrolled/2");
    int whole_only = json_is_false(json_object_get(root, "split"));
    size_t nn = c->n_nodes;
    chk_ports_t ports;
    int ports_ok = ssched_i_chk_ports_init(&ports, nn, c->n_edges, c->n_links);
    /* an all-reduce's copies are held where forwarded: known only once
     * every target has the op, so its buffer events are sorted at the end */
    chk_buf_t *buf = c->allreduce ? ssched_i_chk_buf_new_deferred(nn) : ssched_i_chk_buf_new(nn);
    chk_bsim_t *copies = c->allreduce && buf ? ssched_i_chk_bsim_new(c, K, c->target, buf) : NULL;
    if (!ports_ok || !buf || (c->allreduce && !copies)) {
        ssched_i_chk_ports_free(&ports);
        ssched_i_chk_buf_free(buf);
        ssched_i_chk_bsim_free(copies);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    stream_t s[2];
    for (int k = 0; k < 2; k++) {
        memset(&s[k], 0, sizeof s[k]);
        s[k].compute = k;
        ssched_i_chk_iter_init(&s[k].it, k ? co : tr, k ? "computations" : "transfers");
        mpq_inits(s[k].ev.start, s[k].ev.end, s[k].ev.off, s[k].ev.len, s[k].prev,
                  s[k].prev_scratch, NULL);
    }
    mpq_set_ui(c->makespan, 0, 1);
    table_t table = {0, 0, NULL};
    /* the fast reader: ordered reduces only (sets, copies: jansson) */
    chk_names_t names_store, *names = NULL;
    if (!c->comm && !c->allreduce && !c->bcast && ssched_i_chk_names_build(&names_store, c))
        names = &names_store;
    ssched_status_t st = advance(c, &s[0], strict, K, names);
    if (st == SSCHED_OK)
        st = advance(c, &s[1], strict, K, names);
    size_t counts[2] = {0, 0};
    while (st == SSCHED_OK && (s[0].has || s[1].has)) {
        /* at equal starts computations first: a merge may take no time and
         * feed an event starting when it ends; a transfer always takes time */
        int k = !s[0].has ? 1 : !s[1].has ? 0 : mpq_cmp(s[1].ev.start, s[0].ev.start) <= 0;
        counts[k]++;
        if (c->report->valid)
            st = run_event(c, &table, &s[k].ev, &ports, whole_only, buf, copies);
        if (st == SSCHED_OK)
            st = advance(c, &s[k], strict, K, names);
    }
    c->report->n_transfers = counts[0];
    c->report->n_slots = counts[1];
    if (st == SSCHED_OK && c->report->valid && ssched_i_chk_ports_finish(c, &ports) < 0)
        st = SSCHED_ENOMEM;
    /* every time-stamp's result is on the target and is the ordered reduction */
    size_t full = ssched_i_chk_full_type(c);
    if (full == SIZE_MAX && st == SSCHED_OK)
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t t = 0; t < K && c->report->valid && st == SSCHED_OK; t++) {
        slot_t *x = ssched_i_chk_val_find(&table, c->target, full, t, 0);
        int ok = x && x->value && !x->partial ? ssched_i_chk_reduce_result_ok(c, x->value, t) : 0;
        if (ok < 0)
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        else if (!x || !x->value || x->partial)
            ssched_i_chk_violation(c, "the target %s never obtains the result of time-stamp %zu",
                          c->names[c->target], t);
        else if (!ok && c->comm)
            ssched_i_chk_violation(c, "the result of time-stamp %zu does not hold every participant "
                          "exactly once", t);
        else if (!ok)
            ssched_i_chk_violation(c, "the result of time-stamp %zu is not the ordered reduction", t);
    }
    /* all-reduce: every participant but the root got every result */
    if (copies && st == SSCHED_OK)
        ssched_i_chk_bsim_missing(c, copies);
    mpq_t peak;
    mpq_init(peak);
    size_t peak_node = 0;
    if (c->report->valid && st == SSCHED_OK && !ssched_i_chk_buf_finish(buf, peak, &peak_node))
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    if (c->report->valid && st == SSCHED_OK)
        st = ssched_i_chk_unrolled_claims(c, root, K, c->makespan, peak, peak_node);
    mpq_clear(peak);
    ssched_i_chk_buf_free(buf);
    ssched_i_chk_bsim_free(copies);
    ssched_i_chk_vals_free(&table);
    for (int k = 0; k < 2; k++)
        mpq_clears(s[k].ev.start, s[k].ev.end, s[k].ev.off, s[k].ev.len, s[k].prev,
                   s[k].prev_scratch, NULL);
    ssched_i_chk_ports_free(&ports);
    if (names)
        ssched_i_chk_names_free(names);
    return st;
}
