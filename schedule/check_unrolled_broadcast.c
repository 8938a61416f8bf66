/* Checker: an unrolled broadcast or multicast ("ssched-unrolled/2",
 * "split": false), read as a stream in start order, independent of the
 * generator.
 *
 * Every transfer moves the whole message of operation "op" over a platform
 * edge in exactly l + size * c (l the edge's latency, 0 when the platform
 * gives none); with "batch": n it moves the messages of operations op ..
 * op+n-1 as one message, in l + n * size * c, each of them checked as if
 * it moved alone.  Ports are busy in the bandwidth phase [start + l, end)
 * only (check_ports.c).  The source holds every message from time 0; a
 * node u other than the source may send op t only if it has received it,
 * and no earlier than the end of the transfer that brought it; a node
 * receives each operation at most once (a second arrival, or any arrival
 * at the source, is a violation).  Relays (non-targets of a multicast,
 * switches included) may receive and forward; an operation is complete
 * once every target has it, and a copy of it moving later (it can reach
 * no target that still needs it) is a violation.  At the end every target
 * has all K messages.  One-port per node (per link at a switch) as for
 * the other unrolled files.
 *
 * Buffers: a message is held at v (not the source) from the start of the
 * transfer bringing it to the end of the last transfer forwarding it from
 * v, and not at all when v never forwards it; releases come before
 * acquisitions at equal times.  The intervals are known once an operation
 * has reached every target (no later transfer of it is valid), and swept
 * at the end. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

/* An operation in flight: per node, the start and end of its arrival and
 * the last end of its forwards. */
typedef struct {
    size_t got;
    unsigned char *has, *fwd;
    mpq_t *in_start, *in_end, *fwd_end;
} op_t;

typedef struct {
    size_t node;
    int acquire;               /* 0: release (first at equal times)         */
    mpq_t t;
} bev_t;

struct chk_bsim {
    size_t K;
    size_t nn, source;
    chk_buf_t *buf;            /* all-reduce: the shared (deferred) buffer
                                  figures instead of ev                     */
    op_t **ops;                /* per op, NULL before its first transfer or
                                  once complete                              */
    unsigned char *complete;   /* per op                                    */
    unsigned char *target;     /* per node                                  */
    size_t n_targets;
    chk_ports_t ports;         /* one-port (per link at a switch)          */
    bev_t *ev;
    size_t n_ev, cap_ev;
    mpq_t prev, start, end, d, q;
};
typedef struct chk_bsim bsim_t;

static void op_free(op_t *o, size_t nn)
{
    if (!o)
        return;
    for (size_t v = 0; v < nn; v++)
        mpq_clears(o->in_start[v], o->in_end[v], o->fwd_end[v], NULL);
    free(o->has);
    free(o->fwd);
    free(o->in_start);
    free(o->in_end);
    free(o->fwd_end);
    free(o);
}

static op_t *op_new(size_t nn)
{
    op_t *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->has = calloc(nn, 1);
    o->fwd = calloc(nn, 1);
    o->in_start = malloc(nn * sizeof *o->in_start);
    o->in_end = malloc(nn * sizeof *o->in_end);
    o->fwd_end = malloc(nn * sizeof *o->fwd_end);
    if (!o->has || !o->fwd || !o->in_start || !o->in_end || !o->fwd_end) {
        free(o->has);
        free(o->fwd);
        free(o->in_start);
        free(o->in_end);
        free(o->fwd_end);
        free(o);
        return NULL;
    }
    for (size_t v = 0; v < nn; v++)
        mpq_inits(o->in_start[v], o->in_end[v], o->fwd_end[v], NULL);
    return o;
}

static int push_ev(bsim_t *S, size_t node, int acquire, const mpq_t t)
{
    if (S->n_ev == S->cap_ev) {
        size_t cap = S->cap_ev ? 2 * S->cap_ev : 1024;
        bev_t *x = realloc(S->ev, cap * sizeof *x);
        if (!x)
            return 0;
        S->ev = x;
        S->cap_ev = cap;
    }
    bev_t *e = &S->ev[S->n_ev++];
    e->node = node;
    e->acquire = acquire;
    mpq_init(e->t);
    mpq_set(e->t, t);
    return 1;
}

/* Operation complete: its buffer intervals are final. */
static int op_done(bsim_t *S, size_t op)
{
    op_t *o = S->ops[op];
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    for (size_t v = 0; v < S->nn && S->buf; v++)
        if (o->fwd[v]) {
            ssched_i_chk_buf_acquire(S->buf, v, o->in_start[v], one);
            ssched_i_chk_buf_release(S->buf, v, o->fwd_end[v], one);
        }
    mpq_clear(one);
    for (size_t v = 0; v < S->nn && !S->buf; v++)
        if (o->fwd[v] && (!push_ev(S, v, 1, o->in_start[v]) || !push_ev(S, v, 0, o->fwd_end[v])))
            return 0;
    op_free(o, S->nn);
    S->ops[op] = NULL;
    S->complete[op] = 1;
    return 1;
}

static ssched_status_t one(chk_t *c, bsim_t *S, json_t *x, size_t k)
{
    static const char *const keys[] = {"start", "end", "from", "to", "op", "batch", NULL};
    char where[64];
    snprintf(where, sizeof where, "transfers[%zu]", k);
    ssched_status_t st;
    size_t edge, type, batch;
    if ((st = ssched_i_chk_keys(c, x, where, keys)) != SSCHED_OK ||
        (st = ssched_i_chk_transfer(c, x, where, &edge, &type)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "start", where, S->start)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "end", where, S->end)) != SSCHED_OK ||
        (st = ssched_i_chk_batch(c, x, where, &batch)) != SSCHED_OK)
        return st;
    size_t op;
    int go;
    st = ssched_i_chk_transfer_op(c, x, where, k, batch, S->K, S->start, S->prev, &op, &go);
    if (st != SSCHED_OK || !go)
        return st;
    mpq_set_ui(S->q, 1, 1);
    if (!ssched_i_chk_duration(c, edge, batch, S->q, S->start, S->end, where, S->d))
        return SSCHED_OK;
    int taken = ssched_i_chk_ports_take(c, &S->ports, edge, S->start, S->end, where);
    if (taken <= 0)
        return taken < 0 ? SSCHED_ENOMEM : SSCHED_OK;
    if (mpq_cmp(S->end, c->makespan) > 0)
        mpq_set(c->makespan, S->end);
    /* a batch: each operation's message moves as if alone */
    for (size_t b = 0; b < batch && st == SSCHED_OK && c->report->valid; b++)
        st = ssched_i_chk_bsim_move(c, S, edge, op + b, S->start, S->end, where);
    return st;
}

ssched_status_t ssched_i_chk_bsim_move(chk_t *c, bsim_t *S, size_t edge, size_t op,
                              const mpq_t start, const mpq_t end, const char *where)
{
    size_t i = c->from[edge], j = c->to[edge], src = S->source;
    if (j == src)
        return ssched_i_chk_violation(c, "%s: message %zu is sent to its source %s", where, op,
                             c->names[src]), SSCHED_OK;
    if (S->complete[op] && S->n_targets + 1 == S->nn)
        return ssched_i_chk_violation(c, "%s: node %s receives message %zu a second time", where,
                             c->names[j], op), SSCHED_OK;
    if (S->complete[op])
        return ssched_i_chk_violation(c, "%s: message %zu moves to %s after every target has it", where,
                             op, c->names[j]), SSCHED_OK;
    if (!S->ops[op] && !(S->ops[op] = op_new(S->nn)))
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    op_t *o = S->ops[op];
    if (i != src) {
        if (!o->has[i])
            return ssched_i_chk_violation(c, "%s: node %s forwards message %zu before receiving it", where,
                                 c->names[i], op), SSCHED_OK;
        if (mpq_cmp(start, o->in_end[i]) < 0)
            return ssched_i_chk_violation(c, "%s: node %s forwards message %zu before it has fully "
                                 "arrived", where, c->names[i], op), SSCHED_OK;
        if (!o->fwd[i] || mpq_cmp(end, o->fwd_end[i]) > 0)
            mpq_set(o->fwd_end[i], end);
        o->fwd[i] = 1;
    }
    if (o->has[j])
        return ssched_i_chk_violation(c, "%s: node %s receives message %zu a second time", where,
                             c->names[j], op), SSCHED_OK;
    o->has[j] = 1;
    mpq_set(o->in_start[j], start);
    mpq_set(o->in_end[j], end);
    if (S->target[j] && ++o->got == S->n_targets && !op_done(S, op))
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    return SSCHED_OK;
}

static int bev_cmp(const void *a, const void *b)
{
    const bev_t *x = a, *y = b;
    int r = mpq_cmp(x->t, y->t);
    return r ? r : x->acquire - y->acquire;
}

/* The peak number of messages a node holds, the first node attaining it. */
static int sweep(bsim_t *S, mpq_t peak, size_t *node)
{
    size_t *held = ssched_i_calloc(S->nn, sizeof *held);
    size_t *top = ssched_i_calloc(S->nn, sizeof *top);
    if (!held || !top) {
        free(held);
        free(top);
        return 0;
    }
    if (S->n_ev > 1)
        qsort(S->ev, S->n_ev, sizeof *S->ev, bev_cmp);
    for (size_t k = 0; k < S->n_ev; k++) {
        size_t v = S->ev[k].node;
        if (!S->ev[k].acquire) {
            held[v]--;
        } else if (++held[v] > top[v]) {
            top[v] = held[v];
        }
    }
    *node = 0;
    for (size_t v = 1; v < S->nn; v++)
        if (top[v] > top[*node])
            *node = v;
    mpq_set_ui(peak, S->nn ? top[*node] : 0, 1);
    free(held);
    free(top);
    return 1;
}

chk_bsim_t *ssched_i_chk_bsim_new(const chk_t *c, size_t K, size_t source, chk_buf_t *buf)
{
    bsim_t *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    S->K = K;
    S->nn = c->n_nodes;
    S->source = source;
    S->buf = buf;
    S->ops = ssched_i_calloc(K, sizeof *S->ops);
    S->complete = ssched_i_calloc(K, 1);
    S->target = ssched_i_calloc(S->nn, 1);
    int ports_ok = ssched_i_chk_ports_init(&S->ports, S->nn, c->n_edges, c->n_links);
    mpq_inits(S->prev, S->start, S->end, S->d, S->q, NULL);
    if (!S->ops || !S->complete || !S->target || !ports_ok) {
        ssched_i_chk_bsim_free(S);
        return NULL;
    }
    /* the targets: the participants (an all-reduce's include its root,
     * which holds the result already) */
    for (size_t t = 0; t < c->N; t++)
        if (c->participants[t] != source && !S->target[c->participants[t]]) {
            S->target[c->participants[t]] = 1;
            S->n_targets++;
        }
    return S;
}

void ssched_i_chk_bsim_free(chk_bsim_t *S)
{
    if (!S)
        return;
    for (size_t op = 0; S->ops && op < S->K; op++)
        op_free(S->ops[op], S->nn);
    for (size_t k = 0; k < S->n_ev; k++)
        mpq_clear(S->ev[k].t);
    ssched_i_chk_ports_free(&S->ports);
    mpq_clears(S->prev, S->start, S->end, S->d, S->q, NULL);
    free(S->ops); free(S->complete); free(S->target); free(S->ev);
    free(S);
}

void ssched_i_chk_bsim_missing(chk_t *c, chk_bsim_t *S)
{
    for (size_t op = 0; op < S->K && c->report->valid; op++) {
        if (S->complete[op] || S->n_targets == 0)
            continue;
        size_t v = 0;
        while (v < S->nn && (!S->target[v] || (S->ops[op] && S->ops[op]->has[v])))
            v++;
        ssched_i_chk_violation(c, "target %s never receives message %zu", c->names[v < S->nn ? v : 0],
                      op);
    }
}

ssched_status_t ssched_i_chk_unrolled_broadcast(chk_t *c, json_t *root, const chk_extent_t *tr)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return ssched_i_chk_bad(c, "missing positive integer \"operations\"");
    const char *format = json_string_value(json_object_get(root, "format"));
    if (!format || strcmp(format, "ssched-unrolled/2"))
        return ssched_i_chk_bad(c, "unrolled broadcasts are \"ssched-unrolled/2\" files");
    if (!json_is_false(json_object_get(root, "split")))
        return ssched_i_chk_bad(c, "unrolled broadcasts move whole messages: \"split\" must be false");
    size_t K = (size_t)json_integer_value(kj);
    if (K > ((size_t)1 << 40))
        return ssched_i_chk_bad(c, "too many operations to check (%zu)", K);
    bsim_t *S = ssched_i_chk_bsim_new(c, K, c->source, NULL);
    if (!S)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = SSCHED_OK;
    mpq_set_ui(c->makespan, 0, 1);
    chk_iter_t it;
    ssched_i_chk_iter_init(&it, tr, "transfers");
    size_t n = 0;
    for (;;) {
        json_t *x;
        if ((st = ssched_i_chk_iter_next(&it, &x, c->err)) != SSCHED_OK || !x)
            break;
        st = one(c, S, x, n++);
        json_decref(x);
        if (st != SSCHED_OK)
            break;
    }
    c->report->n_transfers = n;
    if (st == SSCHED_OK)
        ssched_i_chk_bsim_missing(c, S);
    mpq_t peak;
    mpq_init(peak);
    size_t peak_node = 0;
    if (st == SSCHED_OK && c->report->valid && !sweep(S, peak, &peak_node))
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && c->report->valid)
        st = ssched_i_chk_unrolled_claims(c, root, K, c->makespan, peak, peak_node);
    mpq_clear(peak);
    ssched_i_chk_bsim_free(S);
    return st;
}
