/* Checker: an unrolled finite schedule of scatters or gossips
 * ("ssched-unrolled/1" and "/2"), read as a stream in start order.
 *
 * Simulates the messages as ranges: message (type, op) is the range
 * [0, 1) at its origin at time 0.  A transfer moves the range "piece":
 * [offset, length] (the whole message when absent); that whole range must
 * be at the sending node, arrived by the transfer's start (the end of the
 * transfer that brought it: store-and-forward), and the sender must not be
 * its destination.  A transfer with "batch": n carries operations op ..
 * op+n-1, the same range of each one's message, as one message: each of
 * them is moved as above (and must be valid alone), and it lasts
 * l(e) + n * length * size * c(e), l the edge's latency (0 when the
 * platform gives none).  Ports (links at a switch, "ports": "multi") are
 * busy only in the bandwidth phase [start + l(e), end) (check_ports.c);
 * the data is at the receiver at the end.  A message
 * entirely at its destination is done and forgotten (a bit remembers it):
 * memory is the messages in flight.  At the end every message must be
 * done.
 *
 * Files as the generator writes them are checked by the fast path first
 * (check_fast.c, the same model in 64-bit fractions without jansson); it
 * gives up at anything unusual, and this exact simulation reads the file
 * instead.  Both measure the buffers ("buffer_peak"): a relay node holds a
 * range from the start of the transfer bringing it until the end of the
 * one sending it on (a batch: each operation's range). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

/* A range of one message at a node since a time (in transit until then). */
typedef struct {
    mpq_t lo, hi, since;
    size_t node;
} seg_t;

typedef struct {
    uint64_t key;              /* type * K + op, + 1 (0: empty)            */
    size_t n, cap;
    seg_t *s;
} msg_t;

typedef struct {
    size_t cap, n;
    msg_t *m;
} map_t;

static size_t slot_of(const map_t *t, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ (h >> 31)) & (t->cap - 1);
}

static void free_msg(msg_t *m)
{
    for (size_t s = 0; s < m->n; s++)
        mpq_clears(m->s[s].lo, m->s[s].hi, m->s[s].since, NULL);
    free(m->s);
    memset(m, 0, sizeof *m);
}

static msg_t *find(map_t *t, uint64_t key, int insert)
{
    if (insert && 2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        msg_t *m = calloc(cap, sizeof *m);
        if (!m)
            return NULL;
        map_t nt = {cap, t->n, m};
        for (size_t k = 0; k < t->cap; k++)
            if (t->m[k].key) {
                size_t h = slot_of(&nt, t->m[k].key);
                while (m[h].key)
                    h = (h + 1) & (cap - 1);
                m[h] = t->m[k];
            }
        free(t->m);
        *t = nt;
    }
    if (!t->cap)
        return NULL;
    size_t h = slot_of(t, key);
    while (t->m[h].key) {
        if (t->m[h].key == key)
            return &t->m[h];
        h = (h + 1) & (t->cap - 1);
    }
    if (!insert)
        return NULL;
    t->m[h].key = key;
    t->n++;
    return &t->m[h];
}

/* Remove by backward shift (linear probing stays correct). */
static void erase(map_t *t, msg_t *x)
{
    size_t i = (size_t)(x - t->m);
    free_msg(x);
    t->n--;
    for (size_t j = (i + 1) & (t->cap - 1); t->m[j].key; j = (j + 1) & (t->cap - 1)) {
        size_t h = slot_of(t, t->m[j].key);
        /* move j to i if its home is not in (i, j] cyclically */
        int between = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!between) {
            t->m[i] = t->m[j];
            memset(&t->m[j], 0, sizeof t->m[j]);
            i = j;
        }
    }
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
            /* keep the segments in offset order: the new one follows k */
            memmove(&m->s[k + 2], &m->s[k + 1], (m->n - k - 1) * sizeof *m->s);
            m->n++;
            seg_t *t = &m->s[k + 1];
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
    mpq_t covered, want;
    mpq_inits(covered, want, NULL);
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

/* Merge neighbouring segments at one node that have both arrived by `now`:
 * events come in start order, so every later event starts at or after now
 * and cannot tell them apart.  Keeps messages cut in many small pieces
 * down to a few segments. */
static void coalesce(msg_t *m, const mpq_t now)
{
    size_t w = 0;
    for (size_t k = 1; k < m->n; k++) {
        seg_t *a = &m->s[w], *b = &m->s[k];
        if (a->node == b->node && mpq_cmp(a->since, now) <= 0 && mpq_cmp(b->since, now) <= 0 &&
            mpq_equal(a->hi, b->lo)) {
            mpq_set(a->hi, b->hi);
            if (mpq_cmp(b->since, a->since) > 0)
                mpq_set(a->since, b->since);
            mpq_clears(b->lo, b->hi, b->since, NULL);
        } else {
            m->s[++w] = *b;
        }
    }
    if (m->n)
        m->n = w + 1;
}

static int all_at(const msg_t *m, size_t node)
{
    for (size_t s = 0; s < m->n; s++)
        if (m->s[s].node != node)
            return 0;
    return 1;
}

/* The per-file state of the simulation. */
typedef struct {
    size_t K;
    map_t map;
    unsigned char *done;       /* bit per message: entirely delivered       */
    chk_ports_t ports;         /* one-port (per link at a switch)          */
    chk_buf_t *buf;
    mpq_t prev_start, start, end, off, len, hi, q, d;
} sim_t;

/* Read "batch" (absent: 1): the transfer carries operations op ..
 * op+batch-1.  Shared by the unrolled checkers. */
ssched_status_t ssched_i_chk_batch(chk_t *c, json_t *x, const char *where, size_t *batch)
{
    json_t *bj = json_object_get(x, "batch");
    *batch = 1;
    if (!bj)
        return SSCHED_OK;
    if (!json_is_integer(bj) || json_integer_value(bj) < 1)
        return ssched_i_chk_bad(c, "%s: \"batch\" must be a positive integer", where);
    *batch = (size_t)json_integer_value(bj);
    return SSCHED_OK;
}

/* The transfer's "op" (EINPUT unless a non-negative integer), listed in
 * start order (EINPUT otherwise; prev := start), and, while the schedule is
 * still valid, operations op .. op+batch-1 within 0..K-1 and a start at
 * time >= 0 (else a violation).  *go = 1 when the transfer is to be
 * simulated.  Shared by the scatter/gossip and broadcast checkers. */
ssched_status_t ssched_i_chk_transfer_op(chk_t *c, json_t *x, const char *where, size_t k,
                                         size_t batch, size_t K, const mpq_t start, mpq_t prev,
                                         size_t *op, int *go)
{
    *go = 0;
    json_t *opj = json_object_get(x, "op");
    if (!json_is_integer(opj) || json_integer_value(opj) < 0)
        return ssched_i_chk_bad(c, "%s: missing non-negative integer \"op\"", where);
    *op = (size_t)json_integer_value(opj);
    if (k > 0 && mpq_cmp(start, prev) < 0)
        return ssched_i_chk_bad(c, "%s: transfers must be listed in start order", where);
    mpq_set(prev, start);
    if (!c->report->valid)
        return SSCHED_OK;
    if (*op >= K || batch > K - *op)
        return ssched_i_chk_violation(c, "%s: operation %zu is outside 0..%zu", where,
                                      *op >= K ? *op : *op + batch - 1, K - 1), SSCHED_OK;
    if (mpq_sgn(start) < 0)
        return ssched_i_chk_violation(c, "%s: starts before time 0", where), SSCHED_OK;
    *go = 1;
    return SSCHED_OK;
}

/* Is end - start = l(e) + batch * len * size * c(e)?  Sets the violation
 * (naming `what`) when not; d is scratch. */
int ssched_i_chk_duration(chk_t *c, size_t edge, size_t batch, const mpq_t len,
                          const mpq_t start, const mpq_t end, const char *where, mpq_t d)
{
    mpq_t q;
    mpq_init(q);
    mpq_sub(q, end, start);
    ssched_i_chk_transfer_time(c, edge, batch, len, d);
    int ok = mpq_equal(q, d);
    if (!ok)
        ssched_i_chk_violation(c, "%s: lasts %s time units than %s", where,
                               mpq_cmp(q, d) < 0 ? "fewer" : "more",
                               c->has_lat ? "l + batch*length*size*c" : "length*size*c");
    mpq_clear(q);
    return ok;
}

/* One operation's range [off, off+len) of message type moved by a transfer
 * whose ports and duration are checked. */
static ssched_status_t move_op(chk_t *c, sim_t *S, size_t edge, size_t type, size_t op,
                               const char *where)
{
    size_t i = c->from[edge], j = c->to[edge];
    const char *on = c->names[c->type_origin[type]], *dn = c->names[c->type_dest[type]];
    uint64_t id = (uint64_t)type * S->K + op;
    if (S->done[id / 8] & (1u << (id % 8)))
        return ssched_i_chk_violation(c, "message %s->%s of operation %zu moves after it was delivered (%s)",
                             on, dn, op, where), SSCHED_OK;
    if (i == c->type_dest[type])
        return ssched_i_chk_violation(c, "message %s->%s of operation %zu leaves its destination", on, dn,
                             op), SSCHED_OK;
    msg_t *m = find(&S->map, id + 1, 1);
    if (!m)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    if (m->cap == 0) { /* first use: the whole message at its origin */
        m->s = malloc(2 * sizeof *m->s);
        if (!m->s)
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        m->cap = 2;
        m->n = 1;
        mpq_inits(m->s[0].lo, m->s[0].hi, m->s[0].since, NULL);
        mpq_set_ui(m->s[0].hi, 1, 1);
        m->s[0].node = c->type_origin[type];
    }
    mpq_add(S->hi, S->off, S->len);
    int nomem = 0;
    const char *bad = move(m, S->off, S->hi, i, j, S->start, S->end, &nomem);
    if (nomem)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    if (bad)
        return ssched_i_chk_violation(c, "%s of message %s->%s of operation %zu %s (%s from %s)",
                             mpq_sgn(S->off) == 0 && mpq_cmp_ui(S->len, 1, 1) == 0 ? "the whole"
                                                                                  : "a piece",
                             on, dn, op, bad, where, c->names[i]), SSCHED_OK;
    if (j != c->type_dest[type])
        ssched_i_chk_buf_acquire(S->buf, j, S->start, S->len);
    if (i != c->type_origin[type])
        ssched_i_chk_buf_release(S->buf, i, S->end, S->len);
    coalesce(m, S->start);
    if (all_at(m, c->type_dest[type])) {
        S->done[id / 8] |= (unsigned char)(1u << (id % 8));
        erase(&S->map, m);
    }
    return SSCHED_OK;
}

static ssched_status_t one_transfer(chk_t *c, sim_t *S, json_t *x, size_t k, int strict,
                                    int whole_only)
{
    static const char *const keys[] = {"start", "end", "from", "to", "origin", "dest", "op",
                                       "batch", "piece", NULL};
    char where[64];
    snprintf(where, sizeof where, "transfers[%zu]", k);
    ssched_status_t st;
    size_t edge, type, batch;
    if ((strict && (st = ssched_i_chk_keys(c, x, where, keys)) != SSCHED_OK) ||
        (st = ssched_i_chk_transfer(c, x, where, &edge, &type)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "start", where, S->start)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "end", where, S->end)) != SSCHED_OK ||
        (st = ssched_i_chk_piece(c, x, where, S->off, S->len)) != SSCHED_OK ||
        (st = ssched_i_chk_batch(c, x, where, &batch)) != SSCHED_OK)
        return st;
    size_t op;
    int go;
    st = ssched_i_chk_transfer_op(c, x, where, k, batch, S->K, S->start, S->prev_start, &op, &go);
    if (st != SSCHED_OK || !go)
        return st;
    if (!ssched_i_chk_duration(c, edge, batch, S->len, S->start, S->end, where, S->d))
        return SSCHED_OK;
    if (whole_only && (mpq_sgn(S->off) != 0 || mpq_cmp_ui(S->len, 1, 1) != 0))
        return ssched_i_chk_violation(c, "%s moves a piece but the file says \"split\": false", where),
               SSCHED_OK;
    int taken = ssched_i_chk_ports_take(c, &S->ports, edge, S->start, S->end, where);
    if (taken <= 0)
        return taken < 0 ? SSCHED_ENOMEM : SSCHED_OK;
    if (mpq_cmp(S->end, c->makespan) > 0)
        mpq_set(c->makespan, S->end);
    /* a batch moves the same range of each operation's message: each
     * counts, as if it had moved alone over the same times */
    for (size_t b = 0; b < batch && st == SSCHED_OK && c->report->valid; b++)
        st = move_op(c, S, edge, type, op + b, where);
    return st;
}

ssched_status_t ssched_i_chk_unrolled(chk_t *c, json_t *root, const chk_extent_t *tr)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return ssched_i_chk_bad(c, "missing positive integer \"operations\"");
    const char *format = json_string_value(json_object_get(root, "format"));
    int strict = format && !strcmp(format, "ssched-unrolled/2");
    int whole_only = json_is_false(json_object_get(root, "split"));
    sim_t S;
    memset(&S, 0, sizeof S);
    S.K = (size_t)json_integer_value(kj);
    size_t nt = c->n_types, nn = c->n_nodes;
    if (nt != 0 && S.K > ((uint64_t)1 << 40) / nt)
        return ssched_i_chk_bad(c, "too many operations to check (%zu)", S.K);
    mpq_t peak;
    mpq_init(peak);
    size_t peak_node = 0, count = 0;
    int fast = ssched_i_chk_fast_unrolled(c, tr, S.K, whole_only, peak, &peak_node, &count);
    if (fast != 0) {
        ssched_status_t st = SSCHED_OK;
        if (fast < 0) {
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        } else {
            c->report->n_transfers = count;
            st = ssched_i_chk_unrolled_claims(c, root, S.K, c->makespan, peak, peak_node);
        }
        mpq_clear(peak);
        return st;
    }
    S.buf = ssched_i_chk_buf_new(nn);
    S.done = calloc((nt * S.K + 7) / 8 + 1, 1);
    int ports_ok = ssched_i_chk_ports_init(&S.ports, nn, c->n_edges, c->n_links);
    if (!S.done || !ports_ok || !S.buf) {
        free(S.done); ssched_i_chk_ports_free(&S.ports); ssched_i_chk_buf_free(S.buf); mpq_clear(peak);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_inits(S.prev_start, S.start, S.end, S.off, S.len, S.hi, S.q, S.d, NULL);
    mpq_set_ui(c->makespan, 0, 1);
    chk_iter_t it;
    ssched_i_chk_iter_init(&it, tr, "transfers");
    ssched_status_t st = SSCHED_OK;
    size_t n = 0;
    for (;;) {
        json_t *x;
        if ((st = ssched_i_chk_iter_next(&it, &x, c->err)) != SSCHED_OK || !x)
            break;
        st = one_transfer(c, &S, x, n++, strict, whole_only);
        json_decref(x);
        if (st != SSCHED_OK)
            break;
    }
    c->report->n_transfers = n;
    for (uint64_t id = 0; id < (uint64_t)nt * S.K && c->report->valid && st == SSCHED_OK; id++) {
        size_t t = (size_t)(id / S.K);
        if (!(S.done[id / 8] & (1u << (id % 8))) && c->type_origin[t] != c->type_dest[t])
            ssched_i_chk_violation(c, "target %s never receives all of message %zu from %s",
                          c->names[c->type_dest[t]], (size_t)(id % S.K),
                          c->names[c->type_origin[t]]);
    }
    if (c->report->valid && st == SSCHED_OK && !ssched_i_chk_buf_finish(S.buf, peak, &peak_node))
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    if (c->report->valid && st == SSCHED_OK)
        st = ssched_i_chk_unrolled_claims(c, root, S.K, c->makespan, peak, peak_node);
    ssched_i_chk_buf_free(S.buf);
    mpq_clear(peak);
    for (size_t k = 0; k < S.map.cap; k++)
        if (S.map.m[k].key)
            free_msg(&S.map.m[k]);
    free(S.map.m);
    ssched_i_chk_ports_free(&S.ports);
    mpq_clears(S.prev_start, S.start, S.end, S.off, S.len, S.hi, S.q, S.d, NULL);
    free(S.done);
    return st;
}
