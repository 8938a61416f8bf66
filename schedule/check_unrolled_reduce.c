/* Checker: an unrolled reduce schedule, simulated with a real associative,
 * non-commutative operator (string concatenation).
 *
 * Participant k's value of time-stamp t is the string "k.t;".  A transfer
 * moves a value between nodes; a computation T_{k,l,m} on a node replaces
 * v[k,l] and v[l+1,m] of one time-stamp by their concatenation in that
 * order.  Every value must exist where and when it is used; at the end the
 * target must hold, for every time-stamp t, exactly "0.t;1.t;...(N-1).t;". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

/* The values present somewhere: open-addressing table keyed by
 * (node, interval, time-stamp). */
typedef struct {
    size_t node, interval;
    unsigned long op;
    int used;
    char *value;
    mpq_t since;   /* time it became available at the node */
    int partial;   /* arriving in pieces: not usable yet   */
    size_t from;   /* the node the pieces come from        */
    mpq_t got;     /* the length received so far           */
} slot_t;

typedef struct {
    size_t cap, n;
    slot_t *s;
} table_t;

static uint64_t hash3(size_t a, size_t b, unsigned long c)
{
    uint64_t h = 1469598103934665603ULL;
    h = (h ^ a) * 1099511628211ULL;
    h = (h ^ b) * 1099511628211ULL;
    h = (h ^ c) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static slot_t *lookup(table_t *t, size_t node, size_t interval, unsigned long op, int insert)
{
    if (insert && 2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        slot_t *s = calloc(cap, sizeof *s);
        if (!s)
            return NULL;
        for (size_t k = 0; k < t->cap; k++)
            if (t->s[k].used) {
                size_t h = hash3(t->s[k].node, t->s[k].interval, t->s[k].op) & (cap - 1);
                while (s[h].used)
                    h = (h + 1) & (cap - 1);
                s[h] = t->s[k];
            }
        free(t->s);
        t->s = s;
        t->cap = cap;
    }
    if (!t->cap)
        return NULL;
    size_t h = hash3(node, interval, op) & (t->cap - 1);
    while (t->s[h].used) {
        if (t->s[h].node == node && t->s[h].interval == interval && t->s[h].op == op)
            return &t->s[h];
        h = (h + 1) & (t->cap - 1);
    }
    if (!insert)
        return NULL;
    slot_t *x = &t->s[h];
    x->used = 1;
    x->node = node;
    x->interval = interval;
    x->op = op;
    x->value = NULL;
    x->partial = 0;
    mpq_inits(x->since, x->got, NULL);
    t->n++;
    return x;
}

/* Removing would break the probe chains: a consumed value keeps its slot
 * with value NULL (absent). */

typedef struct {
    mpq_t start, end, off, len;
    int compute;
    size_t node_or_edge, interval, k, l, m;
    unsigned long op;
    size_t index;
} ev_t;

/* Events in start order.  At equal starts, merges come first, shorter
 * results first: a merge may take no time (w = 0) and feed an event that
 * starts when it does, while a transfer always takes time. */
static int by_start(const void *a, const void *b)
{
    const ev_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    if (c)
        return c;
    if (x->compute != y->compute)
        return y->compute - x->compute;
    if (x->compute && x->m - x->k != y->m - y->k)
        return x->m - x->k < y->m - y->k ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static char *leaf_value(size_t k, unsigned long op)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%zu.%lu;", k, op);
    return strdup(buf);
}

/* One-port / one-task-at-a-time: events of `node` (as sender, receiver or
 * processor) must not overlap.  ev sorted by start. */
static int no_overlap(chk_t *c, ev_t *ev, size_t n, int role)
{
    size_t nn = c->n_nodes;
    mpq_t *last = malloc((nn ? nn : 1) * sizeof *last);
    unsigned char *seen = calloc(nn ? nn : 1, 1);
    int ok = last && seen;
    for (size_t i = 0; i < nn && last; i++)
        mpq_init(last[i]);
    static const char *what[] = {"sends", "receives", "computes"};
    for (size_t k = 0; k < n && ok; k++) {
        if ((role == 2) != (ev[k].compute != 0))
            continue;
        size_t node = role == 2 ? ev[k].node_or_edge
                    : role == 0 ? c->from[ev[k].node_or_edge] : c->to[ev[k].node_or_edge];
        if (seen[node] && mpq_cmp(ev[k].start, last[node]) < 0)
            ok = chk_violation(c, "node %s %s two things at once (at %s %zu)", c->names[node],
                               what[role], ev[k].compute ? "computation" : "transfer", ev[k].index);
        if (!seen[node] || mpq_cmp(ev[k].end, last[node]) > 0)
            mpq_set(last[node], ev[k].end);
        seen[node] = 1;
    }
    for (size_t i = 0; i < nn && last; i++)
        mpq_clear(last[i]);
    free(last);
    free(seen);
    return ok;
}

/* Take value (node, interval, op) available by `at`; returns a malloc'ed
 * string the caller owns, or NULL after recording a violation. */
static char *take(chk_t *c, table_t *t, size_t node, size_t interval, unsigned long op,
                  const mpq_t at, const char *who)
{
    size_t k = c->type_origin[interval], m = c->type_dest[interval];
    if (k == m && c->participants[k] == node)
        return leaf_value(k, op); /* the participant's own value: always there */
    slot_t *x = lookup(t, node, interval, op, 0);
    if (!x || !x->value) {
        chk_violation(c, "%s uses v[%zu,%zu] of time-stamp %lu on %s, which is not there", who, k, m,
                      op, c->names[node]);
        return NULL;
    }
    if (x->partial || mpq_cmp(x->since, at) > 0) {
        chk_violation(c, "%s uses v[%zu,%zu] of time-stamp %lu on %s before it exists%s", who, k, m,
                      op, c->names[node], x->partial ? " (not all its pieces have arrived)" : "");
        return NULL;
    }
    char *v = x->value;
    x->value = NULL;
    return v;
}

static int put(chk_t *c, table_t *t, size_t node, size_t interval, unsigned long op,
               const mpq_t at, char *value)
{
    slot_t *x = lookup(t, node, interval, op, 1);
    if (!x) {
        free(value);
        return -1;
    }
    if (x->value) {
        free(value);
        return chk_violation(c, "v[%zu,%zu] of time-stamp %lu is on %s twice",
                             c->type_origin[interval], c->type_dest[interval], op, c->names[node]);
    }
    x->value = value;
    mpq_set(x->since, at);
    return 1;
}

ssched_status_t chk_unrolled_reduce(chk_t *c, json_t *root)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return chk_bad(c, "missing positive integer \"operations\"");
    unsigned long K = (unsigned long)json_integer_value(kj);
    if (K > (1UL << 26)) /* the simulation keeps every result: bound the work */
        return chk_bad(c, "too many operations to check (%lu)", K);
    json_t *tr = json_object_get(root, "transfers"), *co = json_object_get(root, "computations");
    if (!json_is_array(tr) || !json_is_array(co))
        return chk_bad(c, "missing \"transfers\" or \"computations\" array");
    size_t nt = json_array_size(tr), nc = json_array_size(co), n = nt + nc;
    ev_t *ev = calloc(n ? n : 1, sizeof *ev);
    if (!ev)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = SSCHED_OK;
    size_t parsed = 0;
    mpq_t q, makespan;
    mpq_inits(q, makespan, NULL);
    char where[64];
    for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
        ev_t *e = &ev[k];
        mpq_inits(e->start, e->end, e->off, e->len, NULL);
        parsed++;
        e->compute = k >= nt;
        e->index = e->compute ? k - nt : k;
        json_t *x = e->compute ? json_array_get(co, k - nt) : json_array_get(tr, k);
        snprintf(where, sizeof where, "%s[%zu]", e->compute ? "computations" : "transfers", e->index);
        json_t *op = json_object_get(x, "op");
        if ((st = chk_get_q(c, x, "start", where, e->start)) != SSCHED_OK ||
            (st = chk_get_q(c, x, "end", where, e->end)) != SSCHED_OK)
            break;
        if (!json_is_integer(op) || json_integer_value(op) < 0) {
            st = chk_bad(c, "%s: missing non-negative integer \"op\"", where);
            break;
        }
        e->op = (unsigned long)json_integer_value(op);
        if (e->op >= K && c->report->valid)
            chk_violation(c, "%s: time-stamp %lu is outside 0..%lu", where, e->op, K - 1);
        mpq_sub(q, e->end, e->start);
        if (e->compute) {
            size_t t3[3];
            if ((st = chk_get_node(c, x, "node", where, &e->node_or_edge)) != SSCHED_OK)
                break;
            if (!chk_int_array(json_object_get(x, "task"), 3, t3) ||
                !(t3[0] <= t3[1] && t3[1] < t3[2] && t3[2] < c->N)) {
                st = chk_bad(c, "%s: \"task\" must be [k, l, m] with k <= l < m < %zu", where, c->N);
                break;
            }
            e->k = t3[0];
            e->l = t3[1];
            e->m = t3[2];
            if (!c->has_w[e->node_or_edge] && c->report->valid)
                chk_violation(c, "%s: node %s cannot compute", where, c->names[e->node_or_edge]);
            else if (c->report->valid && !mpq_equal(q, c->w[e->node_or_edge]))
                chk_violation(c, "%s: a task lasts w of its node", where);
        } else {
            if ((st = chk_transfer(c, x, where, &e->node_or_edge, &e->interval)) != SSCHED_OK ||
                (st = chk_piece(c, x, where, e->off, e->len)) != SSCHED_OK)
                break;
            mpq_t d;
            mpq_init(d);
            mpq_mul(d, c->cost[e->node_or_edge], c->size);
            mpq_mul(d, d, e->len);
            if (c->report->valid && !mpq_equal(q, d))
                chk_violation(c, "%s: a piece lasts length*size*c of its edge", where);
            mpq_clear(d);
        }
        if (mpq_sgn(e->start) < 0 && c->report->valid)
            chk_violation(c, "%s: starts before time 0", where);
        if (mpq_cmp(e->end, makespan) > 0)
            mpq_set(makespan, e->end);
    }
    c->report->n_transfers = nt;
    c->report->n_slots = nc;
    table_t table = {0, 0, NULL};
    if (st == SSCHED_OK && c->report->valid) {
        qsort(ev, n, sizeof *ev, by_start);
        if (no_overlap(c, ev, n, 0) && no_overlap(c, ev, n, 1) && no_overlap(c, ev, n, 2)) {
            for (size_t k = 0; k < n && c->report->valid && st == SSCHED_OK; k++) {
                ev_t *e = &ev[k];
                snprintf(where, sizeof where, "%s %zu", e->compute ? "computation" : "transfer", e->index);
                if (e->compute) {
                    size_t node = e->node_or_edge;
                    char *a = take(c, &table, node, chk_interval(c, e->k, e->l), e->op, e->start, where);
                    char *b = a ? take(c, &table, node, chk_interval(c, e->l + 1, e->m), e->op,
                                       e->start, where) : NULL;
                    if (a && b) {
                        char *v = malloc(strlen(a) + strlen(b) + 1);
                        if (v) {
                            strcpy(v, a);
                            strcat(v, b); /* left operand first: the order matters */
                            if (put(c, &table, node, chk_interval(c, e->k, e->m), e->op, e->end, v) < 0)
                                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
                        }
                    }
                    free(a);
                    free(b);
                } else {
                    size_t i = c->from[e->node_or_edge], j = c->to[e->node_or_edge];
                    size_t km = e->interval;
                    if (c->type_origin[km] == 0 && c->type_dest[km] == c->N - 1 && i == c->target) {
                        chk_violation(c, "%s: the result leaves the target", where);
                        break;
                    }
                    if (mpq_sgn(e->off) == 0) {
                        /* the first piece (or the whole value) takes it from i;
                         * it is usable at j once [0, 1) has arrived there */
                        char *v = take(c, &table, i, km, e->op, e->start, where);
                        if (v && put(c, &table, j, km, e->op, e->end, v) < 0)
                            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
                        slot_t *y = v ? lookup(&table, j, km, e->op, 0) : NULL;
                        if (y && mpq_cmp_ui(e->len, 1, 1) != 0) {
                            y->partial = 1;
                            y->from = i;
                            mpq_set(y->got, e->len);
                        }
                    } else {
                        /* later pieces follow in order, from the same node */
                        slot_t *y = lookup(&table, j, km, e->op, 0);
                        if (!y || !y->value || !y->partial || y->from != i ||
                            !mpq_equal(y->got, e->off)) {
                            chk_violation(c, "%s: piece of v[%zu,%zu] of time-stamp %lu does not "
                                             "continue the pieces %s->%s sent before",
                                          where, c->type_origin[km], c->type_dest[km], e->op,
                                          c->names[i], c->names[j]);
                            break;
                        }
                        mpq_add(y->got, y->got, e->len);
                        mpq_set(y->since, e->end);
                        if (mpq_cmp_ui(y->got, 1, 1) == 0)
                            y->partial = 0;
                    }
                }
            }
        }
    }
    /* every time-stamp's result is on the target and is the ordered reduction */
    size_t full = chk_interval(c, 0, c->N - 1);
    size_t len = 0;
    for (unsigned long t = 0; t < K && c->report->valid && st == SSCHED_OK; t++) {
        slot_t *x = lookup(&table, c->target, full, t, 0);
        char *expect = malloc(c->N * 48 + 1);
        if (!expect) {
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        len = 0;
        for (size_t k = 0; k < c->N; k++)
            len += (size_t)sprintf(expect + len, "%zu.%lu;", k, t);
        if (!x || !x->value)
            chk_violation(c, "the target %s never obtains the result of time-stamp %lu",
                          c->names[c->target], t);
        else if (strcmp(x->value, expect))
            chk_violation(c, "the result of time-stamp %lu is not the ordered reduction", t);
        free(expect);
    }
    if (c->report->valid && st == SSCHED_OK)
        st = chk_unrolled_claims(c, root, K, makespan);
    for (size_t k = 0; k < table.cap; k++)
        if (table.s[k].used) {
            free(table.s[k].value);
            mpq_clears(table.s[k].since, table.s[k].got, NULL);
        }
    free(table.s);
    for (size_t k = 0; k < parsed; k++)
        mpq_clears(ev[k].start, ev[k].end, ev[k].off, ev[k].len, NULL);
    free(ev);
    mpq_clears(q, makespan, NULL);
    return st;
}
