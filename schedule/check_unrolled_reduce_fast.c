/* Checker: the events of an unrolled ordered reduce read without jansson.
 *
 * Profile of `ssched check` on a reduce of 12 participants on tiers-99
 * unrolled for K = 2000 (138000 transfers, 22000 computations): 42 % of the
 * time in json_loadb/json_delete (one document per event), 6 % in
 * snprintf naming the event, the rest in the simulation.  Events written
 * by ssched are regular: this reader takes the common form of one event
 * (the keys the format defines, each once; exact times "p" or "p/q";
 * names without escapes) straight from the bytes, and only when the event
 * is also correct in every field that parse_event checks (known nodes, an
 * edge, an interval within the participants, a piece within [0, 1), its
 * duration, a task of w, the time-stamps within 0..K-1).  Anything else --
 * another spelling, a mistake, a violation -- returns 0 without moving,
 * and the caller reads the same bytes with jansson and the exact checks,
 * which name the error as before.  So the fast reader decides nothing:
 * on every event it accepts, parse_event would have produced the same
 * fields and recorded nothing. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

typedef struct {
    const char *s;
    size_t len;
} span_t;

enum { F_START, F_END, F_FROM, F_TO, F_NODE, F_INTERVAL, F_TASK, F_OP, F_BATCH, F_PIECE, F_N };

static size_t ws(const char *b, size_t n, size_t i)
{
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
        i++;
    return i;
}

/* A string without escapes, control or non-ASCII bytes: i past it, or 0. */
static size_t plain_string(const char *b, size_t n, size_t i, span_t *out)
{
    if (i >= n || b[i] != '"')
        return 0;
    size_t from = ++i;
    for (; i < n; i++) {
        unsigned char u = (unsigned char)b[i];
        if (u == '"') {
            out->s = b + from;
            out->len = i - from;
            return i + 1;
        }
        if (u < 0x20 || u >= 0x80 || u == '\\')
            return 0;
    }
    return 0;
}

/* A non-negative integer as jansson reads one (no sign, leading zero,
 * fraction or exponent; at most 18 digits): i past it, or 0. */
static size_t integer(const char *b, size_t n, size_t i, size_t *out)
{
    size_t from = i, x = 0;
    for (; i < n && b[i] >= '0' && b[i] <= '9' && i - from < 18; i++)
        x = x * 10 + (size_t)(b[i] - '0');
    if (i == from || (b[from] == '0' && i - from > 1) || i >= n ||
        (b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' &&
         b[i] != '\t' && b[i] != '\r'))
        return 0;
    *out = x;
    return i;
}

/* [v0, v1, ...] of len integers or plain strings: i past it, or 0. */
static size_t array(const char *b, size_t n, size_t i, size_t len, size_t *ints, span_t *strs)
{
    if (i >= n || b[i] != '[')
        return 0;
    for (size_t k = 0; k < len; k++) {
        i = ws(b, n, i + 1); /* past '[' or ',' */
        i = ints ? integer(b, n, i, &ints[k]) : plain_string(b, n, i, &strs[k]);
        if (!i)
            return 0;
        i = ws(b, n, i);
        if (i >= n || b[i] != (k + 1 < len ? ',' : ']'))
            return 0;
    }
    return i + 1;
}

static int key_of(const char *k, size_t len, int compute)
{
    static const char *const names[F_N] = {"start", "end", "from", "to", "node", "interval",
                                           "task", "op", "batch", "piece"};
    for (int f = 0; f < F_N; f++)
        if (strlen(names[f]) == len && !memcmp(names[f], k, len)) {
            int for_compute = f == F_NODE || f == F_TASK;
            int for_transfer = f == F_FROM || f == F_TO || f == F_INTERVAL || f == F_BATCH ||
                               f == F_PIECE;
            return (compute ? for_transfer : for_compute) ? -1 : f;
        }
    return -1;
}

/* An exact time as ssched_i_chk_get_q reads it without ssched_rational_parse:
 * digits, or digits '/' digits not starting with 0.  1, or 0: another form. */
static int exact(const span_t *v, mpq_t out)
{
    char buf[128];
    size_t n = 0;
    while (n < v->len && v->s[n] >= '0' && v->s[n] <= '9')
        n++;
    if (n == 0 || n >= 64 || v->len >= sizeof buf)
        return 0;
    if (n < v->len) {
        size_t d = n + 1;
        if (v->s[n] != '/' || d >= v->len || v->s[d] == '0')
            return 0;
        for (size_t k = d; k < v->len; k++)
            if (v->s[k] < '0' || v->s[k] > '9')
                return 0;
    }
    memcpy(buf, v->s, v->len);
    buf[v->len] = 0;
    if (mpq_set_str(out, buf, 10) != 0)
        return 0;
    mpq_canonicalize(out);
    return 1;
}

int ssched_i_chk_reduce_fast_event(chk_t *c, const struct chk_names *names, chk_iter_t *it,
                                   int compute, size_t K, chk_rev_t *e, mpq_t scratch)
{
    if (it->done || !names)
        return 0;
    const char *b = it->x.buf;
    size_t n = it->x.end, i = it->pos;
    span_t str[F_N];
    span_t piece[2];
    size_t iv[3] = {0, 0, 0}, op = 0, batch = 1;
    unsigned seen = 0;
    if (i >= n || b[i] != '{')
        return 0;
    i = ws(b, n, i + 1);
    for (;;) {
        span_t k;
        if (!(i = plain_string(b, n, i, &k)))
            return 0;
        int f = key_of(k.s, k.len, compute);
        if (f < 0 || (seen >> f & 1))
            return 0;
        seen |= 1u << f;
        i = ws(b, n, i);
        if (i >= n || b[i] != ':')
            return 0;
        i = ws(b, n, i + 1);
        if (f == F_OP || f == F_BATCH)
            i = integer(b, n, i, f == F_OP ? &op : &batch);
        else if (f == F_INTERVAL || f == F_TASK)
            i = array(b, n, i, f == F_TASK ? 3 : 2, iv, NULL);
        else if (f == F_PIECE)
            i = array(b, n, i, 2, NULL, piece);
        else
            i = plain_string(b, n, i, &str[f]);
        if (!i)
            return 0;
        i = ws(b, n, i);
        if (i < n && b[i] == '}')
            break;
        if (i >= n || b[i] != ',')
            return 0;
        i = ws(b, n, i + 1);
    }
    size_t after = ws(b, n, i + 1);
    if (after >= n || (b[after] != ',' && b[after] != ']'))
        return 0;
    unsigned need = compute ? (1u << F_START | 1u << F_END | 1u << F_NODE | 1u << F_TASK | 1u << F_OP)
                            : (1u << F_START | 1u << F_END | 1u << F_FROM | 1u << F_TO |
                               1u << F_INTERVAL | 1u << F_OP);
    if ((seen & need) != need || (seen & (1u << F_BATCH) && batch < 1))
        return 0;
    if (!exact(&str[F_START], e->start) || !exact(&str[F_END], e->end))
        return 0;
    if (op >= K || batch > K - op)
        return 0;
    mpq_sub(scratch, e->end, e->start);
    if (compute) {
        size_t node = ssched_i_chk_names_find(names, str[F_NODE].s, str[F_NODE].len);
        if (node == SIZE_MAX || !(iv[0] <= iv[1] && iv[1] < iv[2] && iv[2] < c->N) ||
            !c->has_w[node] || !mpq_equal(scratch, c->w[node]))
            return 0;
        e->node_or_edge = node;
        e->t[0] = ssched_i_chk_interval(c, iv[0], iv[2]);
        e->t[1] = ssched_i_chk_interval(c, iv[0], iv[1]);
        e->t[2] = ssched_i_chk_interval(c, iv[1] + 1, iv[2]);
        mpq_set_ui(e->off, 0, 1);
        mpq_set_ui(e->len, 1, 1);
        batch = 1;
    } else {
        size_t from = ssched_i_chk_names_find(names, str[F_FROM].s, str[F_FROM].len);
        size_t to = ssched_i_chk_names_find(names, str[F_TO].s, str[F_TO].len);
        if (from == SIZE_MAX || to == SIZE_MAX)
            return 0;
        size_t edge = ssched_i_chk_edge(c, from, to), type = ssched_i_chk_interval(c, iv[0], iv[1]);
        if (edge == (size_t)-1 || type == (size_t)-1)
            return 0;
        if (seen & (1u << F_PIECE)) {
            if (!exact(&piece[0], e->off) || !exact(&piece[1], e->len) || mpq_sgn(e->len) <= 0)
                return 0;
            mpq_add(e->start, e->off, e->len); /* e->start is read again below */
            if (mpq_cmp_ui(e->start, 1, 1) > 0 || !exact(&str[F_START], e->start))
                return 0;
        } else {
            mpq_set_ui(e->off, 0, 1);
            mpq_set_ui(e->len, 1, 1);
        }
        /* end - start = l + batch * len * size * c, as ssched_i_chk_duration
         * (a shared-rate group's member is left to the exact reader) */
        mpq_t d;
        mpq_init(d);
        ssched_i_chk_transfer_time(c, edge, batch, e->len, d);
        int ok = mpq_equal(scratch, d);
        mpq_clear(d);
        if (!ok)
            return 0;
        e->node_or_edge = edge;
        e->interval = type;
    }
    e->compute = compute;
    e->index = it->index;
    e->op = op;
    e->batch = batch;
    e->group = 0;
    if (mpq_cmp(e->end, c->makespan) > 0)
        mpq_set(c->makespan, e->end);
    ssched_i_chk_iter_skip(it, after);
    return 1;
}
