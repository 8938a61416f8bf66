/* Rank 0: every node's plan (internal.h) from a valid unrolled schedule.
 *
 * The events are replayed in the checker's order (start order; at equal
 * starts computations first, schedule/check_unrolled_reduce.c), tracking
 * where each byte range of each message (scatter, gossip) or each value
 * (reduce), or each copy of a broadcast message, is and which local
 * operation put it there: that operation is
 * the data dependency of whatever uses the range next on that node.  The
 * schedule was checked before, so a range missing where it is used is a
 * bug (EINTERNAL). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "src/mpi/internal.h"

typedef struct {
    int64_t *v;
    size_t n, cap;
} vec_t;

static int push(vec_t *x, const int64_t *vals, size_t k)
{
    if (x->n + k > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        while (cap < x->n + k)
            cap *= 2;
        int64_t *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return 0;
        x->v = v;
        x->cap = cap;
    }
    memcpy(x->v + x->n, vals, k * sizeof *vals);
    x->n += k;
    return 1;
}

typedef struct {
    vec_t ops, bufs, edges;    /* edges: (pred, succ) pairs                 */
} node_t;

/* scatter, gossip: a byte range of a message at a node since `prod` (-1:
 * the origin's own data) */
typedef struct {
    int64_t lo, hi, node, prod;
} seg_t;
typedef struct {
    seg_t *s;
    size_t n, cap;
    vec_t bufs;                /* (node, buffer) pairs                      */
} msg_t;

/* reduce: a value at a node (key: node, interval, op) */
typedef struct {
    uint64_t key;
    int present;
    int64_t buf, sbuf;         /* here / at the sender of its pieces        */
    vec_t prod, sprod;         /* the operations it waits for (here / there) */
} val_t;

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    const ssched_unrolled_t *u;
    int64_t B;
    const int *rank_of;
    node_t *nodes;
    int64_t *last;             /* out, in, proc per node; tail, head per edge */
    /* local order (see chain): per resource slot (index in last) its
     * operations' ends in start order, and how many ended so far */
    mpq_srcptr **q_end;
    int64_t **q_op;
    size_t *q_n, *q_cap, *q_ptr;
    size_t *slot0, *slots;     /* node k's slots: slots[slot0[k] .. slot0[k+1]) */
    size_t *lidx, *seen0;      /* a slot's index among its node's; node's seen */
    int64_t *seen;             /* [node][own slot][other slot]: last dep added */
    int nomem, broken;
    msg_t *msgs;
    size_t n_types, *origin;   /* scatter, gossip: canonical type -> origin */
    val_t *vals;               /* open addressing on key                    */
    size_t vcap, vn;
    int64_t *leaf;             /* reduce: leaf buffer of (participant, op)  */
    int64_t *bbuf, *bprod;     /* broadcast, [op][node]: the copy's buffer
                                  (-1: none yet) and the operation that
                                  brought it (-1: the source's fill, -2:
                                  not there)                             */
} bld_t;

static int64_t add_buf(bld_t *b, size_t node, int64_t init, int64_t a, int64_t op)
{
    int64_t x[B_WIDTH] = {b->B, init, a, op, 0};
    vec_t *v = &b->nodes[node].bufs;
    if (!push(v, x, B_WIDTH))
        return b->nomem = 1, -1;
    return (int64_t)(v->n / B_WIDTH) - 1;
}

static int64_t add_op(bld_t *b, size_t node, int64_t kind, int64_t peer, int64_t buf,
                      int64_t left, int64_t right, int64_t lo, int64_t hi, int64_t id)
{
    int64_t o[O_WIDTH] = {0};
    o[O_KIND] = kind, o[O_PEER] = peer, o[O_BUF] = buf, o[O_LEFT] = left, o[O_RIGHT] = right;
    o[O_LO] = lo, o[O_HI] = hi, o[O_ID] = id;
    node_t *n = &b->nodes[node];
    if (!push(&n->ops, o, O_WIDTH))
        return b->nomem = 1, -1;
    /* a buffer lives until every operation using it has completed */
    int64_t use[3] = {buf, left, right};
    for (int k = 0; k < 3; k++)
        if (use[k] >= 0)
            n->bufs.v[use[k] * B_WIDTH + B_REFS]++;
    return (int64_t)(n->ops.n / O_WIDTH) - 1;
}

static void add_dep(bld_t *b, size_t node, int64_t pred, int64_t succ)
{
    if (pred < 0 || succ < 0)
        return;
    int64_t e[2] = {pred, succ};
    if (!push(&b->nodes[node].edges, e, 2))
        b->nomem = 1;
    else
        b->nodes[node].ops.v[succ * O_WIDTH + O_NDEPS]++;
}

/* The resource's order: op follows the previous operation on it.  And the
 * node's local order across its resources: op, starting at `start` in the
 * schedule, also follows every operation of the node that ended strictly
 * before on another resource (through the last of them on each: ends
 * increase along a resource).  Without it an intermediate node runs ahead
 * of the schedule on its non-bottleneck links and holds O(K) messages (a
 * scatter on tiers-46 with K = 1000 needed tens of GB); with it, buffers
 * live at once in the run are live at once in the schedule, up to the one
 * operation per resource ending exactly at `start`: a node holds at most
 * its schedule peak plus a few.  Those exact ties are left out on purpose:
 * a piece moves whole bytes, [floor(off B), floor((off + len) B)), up to
 * one byte (c / B s) more than len B, and a tight edge would pass that
 * delay on (measured: 8e-8 relative on the tiers-small reduce, B = 1e6).
 * Every edge goes from an operation ending before the other starts, so the
 * schedule satisfies them all: no deadlock, and the run ends no later. */
static void chain(bld_t *b, size_t node, int64_t *last, int64_t op, mpq_srcptr start,
                  mpq_srcptr end)
{
    if (op < 0)
        return;
    add_dep(b, node, *last, op);
    *last = op;
    size_t own = (size_t)(last - b->last), n0 = b->slot0[node], lr = b->slot0[node + 1] - n0;
    int64_t *seen = &b->seen[b->seen0[node] + b->lidx[own] * lr];
    for (size_t k = n0; k < n0 + lr; k++) {
        size_t r = b->slots[k];
        if (r == own)
            continue;
        while (b->q_ptr[r] < b->q_n[r] && mpq_cmp(b->q_end[r][b->q_ptr[r]], start) < 0)
            b->q_ptr[r]++;
        if (b->q_ptr[r] == 0)
            continue;
        int64_t d = b->q_op[r][b->q_ptr[r] - 1];
        if (seen[k - n0] != d) /* else an earlier op on `own` waits for it already */
            add_dep(b, node, d, op), seen[k - n0] = d;
    }
    if (b->q_n[own] == b->q_cap[own]) {
        size_t cap = b->q_cap[own] ? 2 * b->q_cap[own] : 16;
        mpq_srcptr *e = realloc(b->q_end[own], cap * sizeof *e);
        if (e)
            b->q_end[own] = e;
        int64_t *o = realloc(b->q_op[own], cap * sizeof *o);
        if (o)
            b->q_op[own] = o;
        if (!e || !o)
            return (void)(b->nomem = 1);
        b->q_cap[own] = cap;
    }
    b->q_end[own][b->q_n[own]] = end;
    b->q_op[own][b->q_n[own]++] = op;
}

/* The resource slots of every node (out, in, proc; at a switch one per
 * incident link end), for chain's local order. */
static int local_order_init(bld_t *b)
{
    const ssched_platform_t *p = b->p;
    size_t n = p->n_nodes, ns = 3 * n + 2 * p->n_edges;
    b->q_end = calloc(ns + 1, sizeof *b->q_end);
    b->q_op = calloc(ns + 1, sizeof *b->q_op);
    b->q_n = calloc(ns + 1, sizeof *b->q_n);
    b->q_cap = calloc(ns + 1, sizeof *b->q_cap);
    b->q_ptr = calloc(ns + 1, sizeof *b->q_ptr);
    b->slot0 = calloc(n + 1, sizeof *b->slot0);
    b->slots = malloc((ns + 1) * sizeof *b->slots);
    b->lidx = malloc((ns + 1) * sizeof *b->lidx);
    b->seen0 = malloc((n + 1) * sizeof *b->seen0);
    if (!b->q_end || !b->q_op || !b->q_n || !b->q_cap || !b->q_ptr || !b->slot0 || !b->slots ||
        !b->lidx || !b->seen0)
        return 0;
    size_t at = 0, nseen = 0;
    for (size_t k = 0; k < n; k++) {
        b->slot0[k] = at;
        size_t own[3] = {k, n + k, 2 * n + k};
        for (int r = 0; r < 3; r++)
            b->slots[at++] = own[r];
        if (p->multiport && p->multiport[k])
            for (size_t e = 0; e < p->n_edges; e++) {
                if (p->from[e] == k)
                    b->slots[at++] = 3 * n + 2 * e;
                if (p->to[e] == k)
                    b->slots[at++] = 3 * n + 2 * e + 1;
            }
        for (size_t s = b->slot0[k]; s < at; s++)
            b->lidx[b->slots[s]] = s - b->slot0[k];
        b->seen0[k] = nseen;
        nseen += (at - b->slot0[k]) * (at - b->slot0[k]);
    }
    b->slot0[n] = at;
    if (!(b->seen = malloc((nseen + 1) * sizeof *b->seen)))
        return 0;
    for (size_t k = 0; k < nseen; k++)
        b->seen[k] = -1;
    return 1;
}

static void local_order_free(bld_t *b)
{
    size_t ns = 3 * b->p->n_nodes + 2 * b->p->n_edges;
    for (size_t k = 0; k < ns; k++) {
        if (b->q_end)
            free(b->q_end[k]);
        if (b->q_op)
            free(b->q_op[k]);
    }
    free(b->q_end), free(b->q_op), free(b->q_n), free(b->q_cap), free(b->q_ptr);
    free(b->slot0), free(b->slots), free(b->lidx), free(b->seen0), free(b->seen);
}

static int64_t byte_at(const mpq_t x, int64_t B)
{
    mpz_t t;
    mpz_init(t);
    mpz_mul_si(t, mpq_numref(x), (long)B);
    mpz_fdiv_q(t, t, mpq_denref(x));
    int64_t v = mpz_get_si(t);
    mpz_clear(t);
    return v;
}

/* The transfer's byte range [lo, hi) and the two resource slots. */
static void transfer_frame(bld_t *b, const ssched_timed_transfer_t *t, int64_t *lo, int64_t *hi,
                           int64_t **snd, int64_t **rcv)
{
    mpq_t end;
    mpq_init(end);
    mpq_add(end, t->piece_offset, t->piece_length);
    *lo = byte_at(t->piece_offset, b->B);
    *hi = byte_at(end, b->B);
    mpq_clear(end);
    size_t n = b->p->n_nodes, i = b->p->from[t->edge], j = b->p->to[t->edge];
    int si = b->p->multiport && b->p->multiport[i], sj = b->p->multiport && b->p->multiport[j];
    *snd = si ? &b->last[3 * n + 2 * t->edge] : &b->last[i];
    *rcv = sj ? &b->last[3 * n + 2 * t->edge + 1] : &b->last[n + j];
}

/* ---- scatter, gossip ---------------------------------------------------- */

static int64_t msg_buffer(bld_t *b, msg_t *m, size_t node, int64_t init, int64_t type, int64_t op)
{
    for (size_t k = 0; k < m->bufs.n; k += 2)
        if (m->bufs.v[k] == (int64_t)node)
            return m->bufs.v[k + 1];
    int64_t x[2] = {(int64_t)node, add_buf(b, node, init, type, op)};
    if (x[1] < 0 || !push(&m->bufs, x, 2))
        return b->nomem = 1, -1;
    return x[1];
}

static int split(msg_t *m, int64_t at)
{
    for (size_t k = 0; k < m->n; k++)
        if (m->s[k].lo < at && at < m->s[k].hi) {
            if (m->n == m->cap) {
                size_t cap = 2 * m->cap + 2;
                seg_t *s = realloc(m->s, cap * sizeof *s);
                if (!s)
                    return 0;
                m->s = s;
                m->cap = cap;
            }
            memmove(&m->s[k + 2], &m->s[k + 1], (m->n - k - 1) * sizeof *m->s);
            m->n++;
            m->s[k + 1] = m->s[k];
            m->s[k + 1].lo = at;
            m->s[k].hi = at;
            return 1;
        }
    return 1;
}

static void flow_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    const ssched_problem_t *pb = b->pb;
    size_t n = b->p->n_nodes, i = b->p->from[t->edge], j = b->p->to[t->edge];
    int64_t id = (int64_t)(t->type * b->u->operations + t->op), lo, hi, *snd, *rcv;
    msg_t *m = &b->msgs[id];
    size_t origin = b->origin[t->type];
    (void)n;
    (void)pb;
    if (m->n == 0) {
        if (!(m->s = malloc(2 * sizeof *m->s)))
            return (void)(b->nomem = 1);
        m->cap = 2;
        m->n = 1;
        m->s[0] = (seg_t){0, b->B, (int64_t)origin, -1};
    }
    transfer_frame(b, t, &lo, &hi, &snd, &rcv);
    int64_t bi = msg_buffer(b, m, i, i == origin ? BUF_FILL : BUF_NONE, (int64_t)t->type,
                            (int64_t)t->op);
    int64_t bj = msg_buffer(b, m, j, BUF_NONE, (int64_t)t->type, (int64_t)t->op);
    if (bi < 0 || bj < 0 || !split(m, lo) || !split(m, hi))
        return (void)(b->nomem = 1);
    int64_t send = add_op(b, i, OP_SEND, b->rank_of[j], bi, -1, -1, lo, hi, id);
    chain(b, i, snd, send, t->start, t->end);
    int64_t recv = add_op(b, j, OP_RECV, b->rank_of[i], bj, -1, -1, lo, hi, id);
    chain(b, j, rcv, recv, t->start, t->end);
    for (size_t k = 0; k < m->n; k++)
        if (m->s[k].lo >= lo && m->s[k].hi <= hi) {
            if (m->s[k].node != (int64_t)i)
                b->broken = 1;
            add_dep(b, i, m->s[k].prod, send);
            m->s[k].node = (int64_t)j;
            m->s[k].prod = recv;
        }
}

static void flow_deliveries(bld_t *b)
{
    unsigned long K = b->u->operations;
    size_t t = 0;
    for (size_t a = 0; a < b->pb->n_sources; a++)
        for (size_t c = 0; c < b->pb->n_targets; c++) {
            size_t o = b->pb->sources[a], d = b->pb->targets[c];
            if (o == d)
                continue;
            for (unsigned long op = 0; op < K && !b->nomem; op++) {
                int64_t id = (int64_t)(t * K + op);
                msg_t *m = &b->msgs[id];
                int64_t buf = msg_buffer(b, m, d, BUF_NONE, (int64_t)t, (int64_t)op);
                int64_t del = add_op(b, d, OP_DELIVER, -1, buf, -1, -1, 0, b->B, id);
                if (m->n == 0 && b->B > 0)
                    b->broken = 1;
                for (size_t k = 0; k < m->n; k++) {
                    if (m->s[k].node != (int64_t)d)
                        b->broken = 1;
                    add_dep(b, d, m->s[k].prod, del);
                }
            }
            t++;
        }
}

/* ---- broadcast ------------------------------------------------------------ */

/* Transfers carry whole messages and a copy leaves a node only once it has
 * fully arrived (the checker saw to both), so a node's copy has a single
 * producer: the receive that brought it, or the fill at the source.  A
 * forwarded copy is a send of the same buffer, which lives until its last
 * forward and its delivery (B_REFS).  An all-reduce's copies leave its
 * root from the reduce's result there (root_result), which stays for the
 * root's own delivery. */
static size_t bcast_source(const bld_t *b)
{
    return b->pb->kind == SSCHED_PROBLEM_ALLREDUCE ? b->pb->target : b->pb->sources[0];
}

static val_t *root_result(bld_t *b, unsigned long op);

static void bcast_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    size_t n = b->p->n_nodes, i = b->p->from[t->edge], j = b->p->to[t->edge];
    size_t src = bcast_source(b), ki = t->op * n + i, kj = t->op * n + j;
    int64_t lo, hi, *snd, *rcv, op = (int64_t)t->op;
    transfer_frame(b, t, &lo, &hi, &snd, &rcv);
    val_t *res = NULL; /* all-reduce: the result the root's copies send */
    if (i == src && b->pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        if (!(res = root_result(b, t->op)))
            return (void)(b->broken = 1);
        b->bbuf[ki] = res->buf;
        b->bprod[ki] = -1;
    } else if (i == src && b->bbuf[ki] < 0) {
        b->bbuf[ki] = add_buf(b, i, BUF_FILL, 0, op);
        b->bprod[ki] = -1;
    }
    if (b->nomem)
        return;
    /* sent from where it is not whole, or received twice (or back at the source) */
    if (b->bprod[ki] < -1 || j == src || b->bbuf[kj] >= 0)
        return (void)(b->broken = 1);
    int64_t send = add_op(b, i, OP_SEND, b->rank_of[j], b->bbuf[ki], -1, -1, lo, hi, op);
    chain(b, i, snd, send, t->start, t->end);
    add_dep(b, i, b->bprod[ki], send);
    for (size_t d = 0; res && d < res->prod.n; d++) /* the whole result, every piece */
        add_dep(b, i, res->prod.v[d], send);
    if ((b->bbuf[kj] = add_buf(b, j, BUF_NONE, 0, op)) < 0)
        return;
    int64_t recv = add_op(b, j, OP_RECV, b->rank_of[i], b->bbuf[kj], -1, -1, lo, hi, op);
    chain(b, j, rcv, recv, t->start, t->end);
    b->bprod[kj] = recv;
}

/* Every target delivers each message once (a multicast's relays only
 * forward: their copies are freed after their last forward). */
static void bcast_deliveries(bld_t *b)
{
    size_t n = b->p->n_nodes, src = bcast_source(b);
    int all = b->pb->kind == SSCHED_PROBLEM_ALLREDUCE; /* targets: the participants */
    size_t nt = all ? b->pb->n_participants : b->pb->n_targets;
    for (size_t c = 0; c < nt && !b->nomem && !b->broken; c++) {
        size_t d = all ? b->pb->participants[c] : b->pb->targets[c];
        if (d == src)
            continue;
        for (unsigned long op = 0; op < b->u->operations && !b->nomem; op++) {
            size_t k = op * n + d;
            if (b->bprod[k] < 0)
                return (void)(b->broken = 1);
            int64_t del = add_op(b, d, OP_DELIVER, -1, b->bbuf[k], -1, -1, 0, b->B, (int64_t)op);
            add_dep(b, d, b->bprod[k], del);
        }
    }
}

/* ---- reduce --------------------------------------------------------------- */

/* Values are keyed by type: an interval v[k,m] (its row-order index) or,
 * for a commutative reduce, a set (an index into u->sets). */
static size_t interval(const bld_t *b, size_t k, size_t m)
{
    size_t N = b->pb->n_participants;
    return k * N - k * (k - 1) / 2 + (m - k);
}

static size_t n_value_types(const bld_t *b)
{
    size_t N = b->pb->n_participants;
    return b->pb->commutative ? b->u->sets.n : N * (N + 1) / 2;
}

/* The participant whose own value type I is ([k,k] or {k}), or SIZE_MAX. */
static size_t own_of(const bld_t *b, size_t I)
{
    size_t N = b->pb->n_participants, k = 0, n = 0;
    if (b->pb->commutative) {
        for (size_t j = 0; j < N; j++)
            if (ssched_sets_has(&b->u->sets, I, j))
                k = j, n++;
        return n == 1 ? k : SIZE_MAX;
    }
    while (k + 1 < N && interval(b, k + 1, k + 1) <= I) /* interval index -> [k, m] */
        k++;
    return I == interval(b, k, k) ? k : SIZE_MAX;
}

/* The type of the whole result; SIZE_MAX if no event makes it. */
static size_t full_type(const bld_t *b)
{
    size_t N = b->pb->n_participants;
    if (!b->pb->commutative)
        return interval(b, 0, N - 1);
    for (size_t I = 0; I < b->u->sets.n; I++) {
        size_t n = 0;
        for (size_t j = 0; j < N; j++)
            n += (size_t)ssched_sets_has(&b->u->sets, I, j);
        if (n == N)
            return I;
    }
    return SIZE_MAX;
}

static val_t *val(bld_t *b, size_t node, size_t I, unsigned long op, int insert)
{
    uint64_t key = ((uint64_t)node * n_value_types(b) + I) * b->u->operations + op + 1;
    if (insert && 2 * (b->vn + 1) > b->vcap) {
        size_t cap = b->vcap ? 2 * b->vcap : 1024;
        val_t *v = calloc(cap, sizeof *v);
        if (!v)
            return b->nomem = 1, NULL;
        for (size_t k = 0; k < b->vcap; k++)
            if (b->vals[k].key) {
                size_t h = (size_t)(b->vals[k].key * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
                while (v[h].key)
                    h = (h + 1) & (cap - 1);
                v[h] = b->vals[k];
            }
        free(b->vals);
        b->vals = v;
        b->vcap = cap;
    }
    if (!b->vcap)
        return NULL;
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15ULL >> 20) & (b->vcap - 1);
    while (b->vals[h].key && b->vals[h].key != key)
        h = (h + 1) & (b->vcap - 1);
    if (!b->vals[h].key) {
        if (!insert)
            return NULL;
        b->vals[h].key = key;
        b->vn++;
    }
    return &b->vals[h];
}

/* Take the whole value of type I of op at node: its buffer, and its
 * producers appended to deps.  A participant's own value is always there. */
static int64_t take(bld_t *b, size_t node, size_t I, unsigned long op, vec_t *deps)
{
    size_t k = I == SIZE_MAX ? SIZE_MAX : own_of(b, I);
    if (k != SIZE_MAX && b->pb->participants[k] == node) {
        int64_t *leaf = &b->leaf[k * b->u->operations + op];
        if (*leaf < 0)
            *leaf = add_buf(b, node, BUF_VALUE, (int64_t)k, (int64_t)op);
        return *leaf;
    }
    val_t *v = I == SIZE_MAX ? NULL : val(b, node, I, op, 0);
    if (!v || !v->present)
        return b->broken = 1, -1;
    v->present = 0;
    if (v->prod.n && !push(deps, v->prod.v, v->prod.n))
        b->nomem = 1;
    return v->buf;
}

static val_t *put(bld_t *b, size_t node, size_t I, unsigned long op)
{
    val_t *v = val(b, node, I, op, 1);
    if (!v)
        return NULL;
    if (v->present)
        b->broken = 1;
    v->present = 1;
    v->prod.n = v->sprod.n = 0;
    v->buf = add_buf(b, node, BUF_NONE, 0, 0);
    return v;
}

static void reduce_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    size_t i = b->p->from[t->edge], j = b->p->to[t->edge];
    size_t I = t->type;
    int64_t lo, hi, *snd, *rcv;
    transfer_frame(b, t, &lo, &hi, &snd, &rcv);
    val_t *v;
    if (mpq_sgn(t->piece_offset) == 0) { /* the first piece takes it from i */
        vec_t deps = {0};
        int64_t sbuf = take(b, i, I, t->op, &deps);
        if (!(v = put(b, j, I, t->op))) {
            free(deps.v);
            return;
        }
        free(v->sprod.v);
        v->sprod = deps;
        v->sbuf = sbuf;
    } else if (!(v = val(b, j, I, t->op, 0))) {
        return (void)(b->broken = 1);
    }
    int64_t id = (int64_t)t->op;
    int64_t send = add_op(b, i, OP_SEND, b->rank_of[j], v->sbuf, -1, -1, lo, hi, id);
    chain(b, i, snd, send, t->start, t->end);
    for (size_t d = 0; d < v->sprod.n; d++)
        add_dep(b, i, v->sprod.v[d], send);
    int64_t recv = add_op(b, j, OP_RECV, b->rank_of[i], v->buf, -1, -1, lo, hi, id);
    chain(b, j, rcv, recv, t->start, t->end);
    if (!push(&v->prod, &recv, 1))
        b->nomem = 1;
}

static void reduce_computation(bld_t *b, const ssched_timed_computation_t *c)
{
    vec_t deps = {0};
    /* commutative: k, l are the input sets and m the merged one */
    int comm = b->pb->commutative;
    size_t in_l = comm ? c->k : interval(b, c->k, c->l);
    size_t in_r = comm ? c->l : interval(b, c->l + 1, c->m);
    int64_t left = take(b, c->node, in_l, c->op, &deps);
    int64_t right = take(b, c->node, in_r, c->op, &deps);
    val_t *v = put(b, c->node, comm ? c->m : interval(b, c->k, c->m), c->op);
    if (v) {
        int64_t comp = add_op(b, c->node, OP_COMP, -1, v->buf, left, right, 0, b->B,
                              (int64_t)c->op);
        chain(b, c->node, &b->last[2 * b->p->n_nodes + c->node], comp, c->start, c->end);
        for (size_t d = 0; d < deps.n; d++)
            add_dep(b, c->node, deps.v[d], comp);
        if (!push(&v->prod, &comp, 1))
            b->nomem = 1;
    }
    free(deps.v);
}

/* All-reduce: the complete result of op at the root (present: the checker
 * saw every copy leave after it), or NULL. */
static val_t *root_result(bld_t *b, unsigned long op)
{
    size_t full = full_type(b);
    val_t *v = full == SIZE_MAX ? NULL : val(b, b->pb->target, full, op, 0);
    return v && v->present ? v : NULL;
}

static void reduce_deliveries(bld_t *b)
{
    size_t target = b->pb->target, full = full_type(b);
    for (unsigned long op = 0; op < b->u->operations && !b->nomem && !b->broken; op++) {
        vec_t deps = {0};
        int64_t buf = take(b, target, full, op, &deps);
        int64_t del = add_op(b, target, OP_DELIVER, -1, buf, -1, -1, 0, b->B, (int64_t)op);
        for (size_t d = 0; d < deps.n; d++)
            add_dep(b, target, deps.v[d], del);
        free(deps.v);
    }
}

/* ---- output --------------------------------------------------------------- */

static int finish(node_t *n, mpi_plan_t *out)
{
    size_t no = n->ops.n / O_WIDTH, ne = n->edges.n / 2;
    out->n_ops = (int64_t)no;
    out->n_bufs = (int64_t)(n->bufs.n / B_WIDTH);
    out->n_succ = (int64_t)ne;
    out->ops = n->ops.v ? n->ops.v : malloc(sizeof(int64_t));
    out->bufs = n->bufs.v ? n->bufs.v : malloc(sizeof(int64_t));
    out->succ = malloc((ne ? ne : 1) * sizeof *out->succ);
    n->ops.v = n->bufs.v = NULL;
    if (!out->ops || !out->bufs || !out->succ)
        return 0;
    for (size_t k = 0; k < ne; k++) /* counts, then offsets, then fill */
        out->ops[n->edges.v[2 * k] * O_WIDTH + O_NSUCC]++;
    int64_t at = 0;
    for (size_t k = 0; k < no; k++) {
        out->ops[k * O_WIDTH + O_SUCC0] = at;
        at += out->ops[k * O_WIDTH + O_NSUCC];
        out->ops[k * O_WIDTH + O_NSUCC] = 0;
    }
    for (size_t k = 0; k < ne; k++) {
        int64_t *o = &out->ops[n->edges.v[2 * k] * O_WIDTH];
        out->succ[o[O_SUCC0] + o[O_NSUCC]++] = n->edges.v[2 * k + 1];
    }
    return 1;
}

void ssched_i_mpi_plan_free(mpi_plan_t *pl)
{
    free(pl->ops);
    free(pl->bufs);
    free(pl->succ);
    memset(pl, 0, sizeof *pl);
}

ssched_status_t ssched_i_mpi_build_plans(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_unrolled_t *u, uint64_t msg_bytes,
                                const int *rank_of_node, mpi_plan_t *plans, ssched_error_t *err)
{
    if (msg_bytes > INT_MAX)
        return ssched_error_set(err, SSCHED_EINPUT, "a message of %llu bytes is above MPI's "
                                "count limit (%d): lower options.unit_bytes",
                                (unsigned long long)msg_bytes, INT_MAX);
    bld_t b;
    memset(&b, 0, sizeof b);
    b.p = p, b.pb = pb, b.u = u, b.B = (int64_t)msg_bytes, b.rank_of = rank_of_node;
    size_t n = p->n_nodes, K = u->operations, N = pb->n_participants;
    /* an all-reduce is both: its reduce values, then copies of the results */
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    int reduce = pb->kind == SSCHED_PROBLEM_REDUCE || all;
    int bcast = pb->kind == SSCHED_PROBLEM_BROADCAST || all;
    size_t copy = all ? (pb->commutative ? u->sets.n : N * (N + 1) / 2) : SIZE_MAX;
    b.origin = malloc((pb->n_sources * pb->n_targets + 1) * sizeof *b.origin);
    for (size_t a = 0; b.origin && a < pb->n_sources; a++)
        for (size_t c = 0; c < pb->n_targets; c++)
            if (pb->sources[a] != pb->targets[c])
                b.origin[b.n_types++] = pb->sources[a];
    b.nodes = calloc(n ? n : 1, sizeof *b.nodes);
    b.last = malloc((3 * n + 2 * p->n_edges + 1) * sizeof *b.last);
    b.msgs = reduce || bcast ? NULL : calloc(b.n_types * K + 1, sizeof *b.msgs);
    b.bbuf = bcast ? malloc((n * K + 1) * sizeof *b.bbuf) : NULL;
    b.bprod = bcast ? malloc((n * K + 1) * sizeof *b.bprod) : NULL;
    b.leaf = reduce ? malloc((N * K + 1) * sizeof *b.leaf) : NULL;
    ssched_status_t st = SSCHED_OK;
    if (!b.origin || !b.nodes || !b.last || (!reduce && !bcast && !b.msgs) ||
        (reduce && !b.leaf) || (bcast && (!b.bbuf || !b.bprod)) || !local_order_init(&b))
        b.nomem = 1;
    for (size_t k = 0; !b.nomem && k < 3 * n + 2 * p->n_edges; k++)
        b.last[k] = -1;
    for (size_t k = 0; reduce && !b.nomem && k < N * K; k++)
        b.leaf[k] = -1;
    for (size_t k = 0; bcast && !b.nomem && k < n * K; k++)
        b.bbuf[k] = -1, b.bprod[k] = -2;
    size_t it = 0, ic = 0;
    while (!b.nomem && !b.broken && (it < u->n_transfers || ic < u->n_computations)) {
        /* at equal starts computations first, as the checker */
        int comp = ic < u->n_computations &&
                   (it == u->n_transfers ||
                    mpq_cmp(u->computations[ic].start, u->transfers[it].start) <= 0);
        if (comp)
            reduce_computation(&b, &u->computations[ic++]);
        else if (bcast && (!all || u->transfers[it].type == copy))
            bcast_transfer(&b, &u->transfers[it++]);
        else if (reduce)
            reduce_transfer(&b, &u->transfers[it++]);
        else
            flow_transfer(&b, &u->transfers[it++]);
    }
    if (!b.nomem && !b.broken) {
        /* an all-reduce's root delivers only if it is a participant (else
         * it is a router that only sends the copies) */
        int root_takes = !all;
        for (size_t k = 0; all && k < N; k++)
            root_takes |= pb->participants[k] == pb->target;
        if (reduce && root_takes)
            reduce_deliveries(&b);
        if (bcast)
            bcast_deliveries(&b);
        if (!reduce && !bcast)
            flow_deliveries(&b);
    }
    for (size_t k = 0; !b.nomem && !b.broken && k < n; k++)
        if (!finish(&b.nodes[k], &plans[k]))
            b.nomem = 1;
    if (b.nomem)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory building the MPI plans");
    else if (b.broken)
        st = ssched_error_set(err, SSCHED_EINTERNAL, "the schedule uses data where it is not "
                              "(it should have failed the check)");
    for (size_t k = 0; b.nodes && k < n; k++) {
        free(b.nodes[k].ops.v);
        free(b.nodes[k].bufs.v);
        free(b.nodes[k].edges.v);
    }
    for (size_t k = 0; b.msgs && k < b.n_types * K; k++) {
        free(b.msgs[k].s);
        free(b.msgs[k].bufs.v);
    }
    for (size_t k = 0; k < b.vcap; k++) {
        free(b.vals[k].prod.v);
        free(b.vals[k].sprod.v);
    }
    free(b.vals);
    local_order_free(&b);
    free(b.origin);
    free(b.nodes);
    free(b.last);
    free(b.msgs);
    free(b.leaf);
    free(b.bbuf);
    free(b.bprod);
    return st;
}
