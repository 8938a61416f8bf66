/* Checker: an unrolled finite schedule of scatters or gossips
 * ("ssched-unrolled/1" and "/2").
 *
 * Simulates the messages as ranges: message (type, op) is the range
 * [0, 1) at its origin at time 0.  A transfer moves the range "piece":
 * [offset, length] (the whole message when absent); that whole range must
 * be at the sending node, arrived by the transfer's start, and the sender
 * must not be its destination.  It lasts length * size * c.  One-port is
 * checked per sender and per receiver over time; at the end every message
 * must be entirely at its destination. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

typedef struct {
    mpq_t start, end, off, len;
    size_t edge, type;
    unsigned long op;
    size_t index;
} utr_t;

/* A range of one message at a node since a time (in transit until then). */
typedef struct {
    mpq_t lo, hi, since;
    size_t node;
} seg_t;

typedef struct {
    size_t n, cap;
    seg_t *s;
} msg_t;

static int by_start(const void *a, const void *b)
{
    const utr_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

/* One-port on the transfers of one node (given in start order). */
static int one_port(chk_t *c, utr_t *t, size_t n, int sender)
{
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

/* Split the segment containing point x (strictly inside it); 0 on ENOMEM. */
static int split_at(msg_t *m, const mpq_t x)
{
    for (size_t k = 0; k < m->n; k++) {
        seg_t *s = &m->s[k];
        if (mpq_cmp(s->lo, x) < 0 && mpq_cmp(x, s->hi) < 0) {
            if (m->n == m->cap) {
                size_t cap = m->cap * 2 + 2;
                seg_t *ns = realloc(m->s, cap * sizeof *ns);
                if (!ns)
                    return 0;
                m->s = ns;
                m->cap = cap;
                s = &m->s[k];
            }
            seg_t *t = &m->s[m->n++];
            mpq_inits(t->lo, t->hi, t->since, NULL);
            mpq_set(t->lo, x);
            mpq_set(t->hi, s->hi);
            mpq_set(t->since, s->since);
            t->node = s->node;
            mpq_set(s->hi, x);
            return 1;
        }
    }
    return 1;
}

/* Move [lo, hi) of message m from i to j: every part must be at i since
 * no later than `start`.  Returns a violation text or NULL. */
static const char *move(msg_t *m, const mpq_t lo, const mpq_t hi, size_t i, size_t j,
                        const mpq_t start, const mpq_t end, int *nomem)
{
    if (!split_at(m, lo) || !split_at(m, hi)) {
        *nomem = 1;
        return NULL;
    }
    mpq_t covered;
    mpq_init(covered);
    const char *bad = NULL;
    for (size_t k = 0; k < m->n && !bad; k++) {
        seg_t *s = &m->s[k];
        if (mpq_cmp(s->lo, lo) < 0 || mpq_cmp(s->hi, hi) > 0)
            continue;
        if (s->node != i)
            bad = "is not at the sender";
        else if (mpq_cmp(s->since, start) > 0)
            bad = "leaves before it arrived";
        mpq_sub(covered, covered, s->lo);
        mpq_add(covered, covered, s->hi);
    }
    mpq_t want;
    mpq_init(want);
    mpq_sub(want, hi, lo);
    if (!bad && !mpq_equal(covered, want))
        bad = "is not at the sender";
    for (size_t k = 0; k < m->n && !bad; k++) {
        seg_t *s = &m->s[k];
        if (mpq_cmp(s->lo, lo) >= 0 && mpq_cmp(s->hi, hi) <= 0) {
            s->node = j;
            mpq_set(s->since, end);
        }
    }
    mpq_clears(covered, want, NULL);
    return bad;
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
    msg_t *msg = calloc(nt * K > 0 ? nt * K : 1, sizeof *msg);
    ssched_status_t st = SSCHED_OK;
    mpq_t len, makespan, q, hi;
    mpq_inits(len, makespan, q, hi, NULL);
    if (!t || !msg) {
        free(t);
        free(msg);
        mpq_clears(len, makespan, q, hi, NULL);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    size_t parsed = 0;
    char where[64];
    for (size_t k = 0; k < n; k++) {
        json_t *x = json_array_get(arr, k);
        snprintf(where, sizeof where, "transfers[%zu]", k);
        mpq_inits(t[k].start, t[k].end, t[k].off, t[k].len, NULL);
        parsed++;
        t[k].index = k;
        json_t *op = json_object_get(x, "op");
        if ((st = chk_transfer(c, x, where, &t[k].edge, &t[k].type)) != SSCHED_OK ||
            (st = chk_get_q(c, x, "start", where, t[k].start)) != SSCHED_OK ||
            (st = chk_get_q(c, x, "end", where, t[k].end)) != SSCHED_OK ||
            (st = chk_piece(c, x, where, t[k].off, t[k].len)) != SSCHED_OK)
            goto out;
        if (!json_is_integer(op) || json_integer_value(op) < 0) {
            st = chk_bad(c, "%s: missing non-negative integer \"op\"", where);
            goto out;
        }
        t[k].op = (unsigned long)json_integer_value(op);
        if (t[k].op >= K && c->report->valid)
            chk_violation(c, "%s: operation %lu is outside 0..%lu", where, t[k].op, K - 1);
        /* a piece takes exactly length * size * c on its edge */
        mpq_sub(len, t[k].end, t[k].start);
        mpq_mul(q, c->cost[t[k].edge], c->size);
        mpq_mul(q, q, t[k].len);
        if (mpq_sgn(t[k].start) < 0 && c->report->valid)
            chk_violation(c, "%s: starts before time 0", where);
        if (!mpq_equal(len, q) && c->report->valid)
            chk_violation(c, "%s: lasts %s time units than length*size*c", where,
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
    for (size_t k = 0; k < n && c->report->valid && st == SSCHED_OK; k++) {
        msg_t *m = &msg[t[k].type * K + t[k].op];
        size_t i = c->from[t[k].edge], j = c->to[t[k].edge];
        const char *on = c->names[c->type_origin[t[k].type]], *dn = c->names[c->type_dest[t[k].type]];
        if (m->cap == 0) { /* first use: the whole message at its origin */
            m->s = malloc(2 * sizeof *m->s);
            if (!m->s) {
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            m->cap = 2;
            m->n = 1;
            mpq_inits(m->s[0].lo, m->s[0].hi, m->s[0].since, NULL);
            mpq_set_ui(m->s[0].hi, 1, 1);
            m->s[0].node = c->type_origin[t[k].type];
        }
        if (i == c->type_dest[t[k].type]) {
            chk_violation(c, "message %s->%s of operation %lu leaves its destination", on, dn,
                          t[k].op);
            break;
        }
        mpq_add(hi, t[k].off, t[k].len);
        int nomem = 0;
        const char *bad = move(m, t[k].off, hi, i, j, t[k].start, t[k].end, &nomem);
        if (nomem)
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        else if (bad)
            chk_violation(c, "%s of message %s->%s of operation %lu %s (transfer %zu from %s)",
                          mpq_sgn(t[k].off) == 0 && mpq_cmp_ui(t[k].len, 1, 1) == 0 ? "the whole"
                                                                                   : "a piece",
                          on, dn, t[k].op, bad, t[k].index, c->names[i]);
    }
    for (size_t x = 0; x < nt * K && c->report->valid && st == SSCHED_OK; x++) {
        size_t d = c->type_dest[x / K];
        int ok = msg[x].n > 0 || c->type_origin[x / K] == d;
        for (size_t s = 0; s < msg[x].n && ok; s++)
            ok = msg[x].s[s].node == d;
        if (!ok)
            chk_violation(c, "target %s never receives all of message %lu from %s", c->names[d],
                          (unsigned long)(x % K), c->names[c->type_origin[x / K]]);
    }
    if (c->report->valid && st == SSCHED_OK)
        st = chk_unrolled_claims(c, root, K, makespan);
out:
    for (size_t k = 0; k < parsed && k < n; k++)
        mpq_clears(t[k].start, t[k].end, t[k].off, t[k].len, NULL);
    for (size_t x = 0; x < nt * K; x++) {
        for (size_t s = 0; s < msg[x].n; s++)
            mpq_clears(msg[x].s[s].lo, msg[x].s[s].hi, msg[x].s[s].since, NULL);
        free(msg[x].s);
    }
    free(t);
    free(msg);
    mpq_clears(len, makespan, q, hi, NULL);
    return st;
}
