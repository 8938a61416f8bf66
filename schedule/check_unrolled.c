/* Checker: an unrolled finite schedule ("ssched-unrolled/1").
 *
 * Simulates the messages: every message (type, op) starts at its origin;
 * a transfer may only move a message that is at the sending node, has
 * arrived there by the transfer's start, and is not its destination's own
 * copy.  One-port is checked per sender and per receiver over time, and at
 * the end every target must hold K messages of its type. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

typedef struct {
    mpq_t start, end;
    size_t edge, type;
    unsigned long op;
    size_t index;
} utr_t;

static int by_start(const void *a, const void *b)
{
    const utr_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

/* One-port on the transfers of one node (given in start order). */
static int one_port(chk_t *c, utr_t *t, size_t n, int sender)
{
    /* last_end[i] = end of the latest transfer that node i takes part in */
    size_t nn = c->n_nodes;
    mpq_t *last = malloc((nn ? nn : 1) * sizeof *last);
    unsigned char *seen = calloc(nn ? nn : 1, 1);
    int ok = last && seen;
    for (size_t i = 0; i < nn && last; i++)
        mpq_init(last[i]);
    for (size_t k = 0; k < n && ok; k++) {
        size_t node = sender ? c->from[t[k].edge] : c->to[t[k].edge];
        if (seen[node] && mpq_cmp(t[k].start, last[node]) < 0)
            ok = chk_violation(c, "node %s %s two messages at once (transfer %zu overlaps an earlier one)",
                               c->names[node], sender ? "sends" : "receives", t[k].index);
        if (!seen[node] || mpq_cmp(t[k].end, last[node]) > 0)
            mpq_set(last[node], t[k].end);
        seen[node] = 1;
    }
    for (size_t i = 0; i < nn && last; i++)
        mpq_clear(last[i]);
    free(last);
    free(seen);
    return ok;
}

ssched_status_t chk_unrolled(chk_t *c, json_t *root)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return chk_bad(c, "missing positive integer \"operations\"");
    unsigned long K = (unsigned long)json_integer_value(kj);
    json_t *arr = json_object_get(root, "transfers");
    if (!json_is_array(arr))
        return chk_bad(c, "missing \"transfers\" array");
    size_t n = json_array_size(arr), nt = c->n_types;
    if (nt != 0 && K > ((size_t)1 << 26) / nt)
        return chk_bad(c, "too many operations to check");
    utr_t *t = calloc(n ? n : 1, sizeof *t);
    size_t *where_at = malloc((nt * K > 0 ? nt * K : 1) * sizeof *where_at); /* location */
    mpq_t *since = malloc((nt * K > 0 ? nt * K : 1) * sizeof *since);        /* arrival  */
    ssched_status_t st = SSCHED_OK;
    mpq_t len, makespan, q;
    mpq_inits(len, makespan, q, NULL);
    if (!t || !where_at || !since) {
        free(t); free(where_at); free(since);
        mpq_clears(len, makespan, q, NULL);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < nt * K; k++) {
        mpq_init(since[k]);
        where_at[k] = c->type_origin[k / K];
    }
    size_t parsed = 0;
    char where[64];
    for (size_t k = 0; k < n; k++, parsed++) {
        json_t *x = json_array_get(arr, k);
        snprintf(where, sizeof where, "transfers[%zu]", k);
        mpq_inits(t[k].start, t[k].end, NULL);
        t[k].index = k;
        json_t *op = json_object_get(x, "op");
        if ((st = chk_transfer(c, x, where, &t[k].edge, &t[k].type)) != SSCHED_OK ||
            (st = chk_get_q(c, x, "start", where, t[k].start)) != SSCHED_OK ||
            (st = chk_get_q(c, x, "end", where, t[k].end)) != SSCHED_OK) {
            parsed++;
            goto out;
        }
        if (!json_is_integer(op) || json_integer_value(op) < 0) {
            parsed++;
            st = chk_bad(c, "%s: missing non-negative integer \"op\"", where);
            goto out;
        }
        t[k].op = (unsigned long)json_integer_value(op);
        if (t[k].op >= K && c->report->valid)
            chk_violation(c, "%s: operation %lu is outside 0..%lu", where, t[k].op, K - 1);
        /* a whole message takes exactly size * c on its edge */
        mpq_sub(len, t[k].end, t[k].start);
        mpq_mul(q, c->cost[t[k].edge], c->size);
        if (mpq_sgn(t[k].start) < 0 && c->report->valid)
            chk_violation(c, "%s: starts before time 0", where);
        if (!mpq_equal(len, q) && c->report->valid)
            chk_violation(c, "%s: lasts %s time units instead of size*c", where,
                          mpq_cmp(len, q) < 0 ? "fewer" : "more");
        if (mpq_cmp(t[k].end, makespan) > 0)
            mpq_set(makespan, t[k].end);
    }
    c->report->n_transfers = n;
    if (!c->report->valid)
        goto out;
    qsort(t, n, sizeof *t, by_start);
    if (!one_port(c, t, n, 1) || !one_port(c, t, n, 0))
        goto out;
    for (size_t k = 0; k < n && c->report->valid; k++) {
        size_t m = t[k].type * K + t[k].op, i = c->from[t[k].edge];
        const char *on = c->names[c->type_origin[t[k].type]], *dn = c->names[c->type_dest[t[k].type]];
        if (where_at[m] == (size_t)-1)
            chk_violation(c, "message %s->%s of operation %lu leaves %s while in transit",
                          on, dn, t[k].op, c->names[i]);
        else if (where_at[m] != i)
            chk_violation(c, "message %s->%s of operation %lu leaves %s but is at %s",
                          on, dn, t[k].op, c->names[i], c->names[where_at[m]]);
        else if (mpq_cmp(since[m], t[k].start) > 0)
            chk_violation(c, "message %s->%s of operation %lu leaves %s before it arrived",
                          on, dn, t[k].op, c->names[i]);
        else if (i == c->type_dest[t[k].type])
            chk_violation(c, "message %s->%s of operation %lu leaves its destination",
                          on, dn, t[k].op);
        /* in transit until its end; arrival is recorded now and checked
         * against later starts (which are >= this start). */
        where_at[m] = c->to[t[k].edge];
        mpq_set(since[m], t[k].end);
    }
    for (size_t m = 0; m < nt * K && c->report->valid; m++)
        if (where_at[m] != c->type_dest[m / K])
            chk_violation(c, "target %s never receives message %lu from %s",
                          c->names[c->type_dest[m / K]], (unsigned long)(m % K),
                          c->names[c->type_origin[m / K]]);
    if (c->report->valid) {
        json_t *mk = json_object_get(root, "makespan");
        if (mk) {
            if ((st = chk_get_q(c, root, "makespan", "schedule", q)) != SSCHED_OK)
                goto out;
            if (!mpq_equal(q, makespan))
                chk_violation(c, "makespan differs from the end of the last transfer");
        }
    }
out:
    for (size_t k = 0; k < parsed && k < n; k++)
        mpq_clears(t[k].start, t[k].end, NULL);
    for (size_t k = 0; k < nt * K; k++)
        mpq_clear(since[k]);
    free(t);
    free(where_at);
    free(since);
    mpq_clears(len, makespan, q, NULL);
    return st;
}
