/* MPI plans of reduces and all-reduces (see plan.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/mpi/plan_internal.h"

/* ---- reduce --------------------------------------------------------------- */

/* Values are keyed by type: an interval v[k,m] (its row-order index) or,
 * for a commutative reduce, a set (an index into u->sets). */
static size_t interval(const bld_t *b, size_t k, size_t m)
{
    return ssched_interval_index(b->pb->n_participants, k, m);
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

val_t *ssched_i_plan_val(bld_t *b, size_t node, size_t I, size_t op, int insert)
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
static int64_t take(bld_t *b, size_t node, size_t I, size_t op, vec_t *deps)
{
    size_t k = I == SIZE_MAX ? SIZE_MAX : own_of(b, I);
    if (k != SIZE_MAX && b->pb->participants[k] == node) {
        int64_t *leaf = &b->leaf[k * b->u->operations + op];
        if (*leaf < 0)
            *leaf = ssched_i_plan_add_buf(b, node, BUF_VALUE, (int64_t)k, (int64_t)op);
        return *leaf;
    }
    val_t *v = I == SIZE_MAX ? NULL : ssched_i_plan_val(b, node, I, op, 0);
    if (!v || !v->present)
        return b->broken = 1, -1;
    v->present = 0;
    if (v->prod.n && !ssched_i_plan_push(deps, v->prod.v, v->prod.n))
        b->nomem = 1;
    return v->buf;
}

static val_t *put(bld_t *b, size_t node, size_t I, size_t op)
{
    val_t *v = ssched_i_plan_val(b, node, I, op, 1);
    if (!v)
        return NULL;
    if (v->present)
        b->broken = 1;
    v->present = 1;
    v->prod.n = v->sprod.n = 0;
    v->buf = ssched_i_plan_add_buf(b, node, BUF_NONE, 0, 0);
    return v;
}

void ssched_i_plan_reduce_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    size_t i = b->p->from[t->edge], j = b->p->to[t->edge];
    size_t I = t->type;
    int64_t lo, hi, *snd, *rcv;
    ssched_i_plan_frame(b, t, &lo, &hi, &snd, &rcv);
    val_t *v;
    if (mpq_sgn(t->piece_offset) == 0) { /* the first piece takes it from i */
        vec_t deps = {0};
        int64_t sbuf = take(b, i, I, (t->op + b->bk), &deps);
        if (!(v = put(b, j, I, (t->op + b->bk)))) {
            free(deps.v);
            return;
        }
        free(v->sprod.v);
        v->sprod = deps;
        v->sbuf = sbuf;
    } else if (!(v = ssched_i_plan_val(b, j, I, (t->op + b->bk), 0))) {
        return (void)(b->broken = 1);
    }
    int64_t id = (int64_t)(t->op + b->bk);
    int64_t send = ssched_i_plan_add_op(b, i, OP_SEND, b->rank_of[j], v->sbuf, -1, -1, lo, hi, id);
    ssched_i_plan_chain(b, i, snd, send, t->start, t->end);
    for (size_t d = 0; d < v->sprod.n; d++)
        ssched_i_plan_add_dep(b, i, v->sprod.v[d], send);
    int64_t recv = ssched_i_plan_add_op(b, j, OP_RECV, b->rank_of[i], v->buf, -1, -1, lo, hi, id);
    ssched_i_plan_chain(b, j, rcv, recv, t->start, t->end);
    if (!ssched_i_plan_push(&v->prod, &recv, 1))
        b->nomem = 1;
}

void ssched_i_plan_reduce_computation(bld_t *b, const ssched_timed_computation_t *c)
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
        int64_t comp = ssched_i_plan_add_op(b, c->node, OP_COMP, -1, v->buf, left, right, 0, b->B,
                              (int64_t)c->op);
        ssched_i_plan_chain(b, c->node, &b->last[2 * b->p->n_nodes + c->node], comp, c->start,
                            c->end);
        for (size_t d = 0; d < deps.n; d++)
            ssched_i_plan_add_dep(b, c->node, deps.v[d], comp);
        if (!ssched_i_plan_push(&v->prod, &comp, 1))
            b->nomem = 1;
    }
    free(deps.v);
}

/* All-reduce: the complete result of op at the root (present: the checker
 * saw every copy leave after it), or NULL. */
val_t *ssched_i_plan_root_result(bld_t *b, size_t op)
{
    size_t full = full_type(b);
    val_t *v = full == SIZE_MAX ? NULL : ssched_i_plan_val(b, b->pb->target, full, op, 0);
    return v && v->present ? v : NULL;
}

void ssched_i_plan_reduce_deliveries(bld_t *b)
{
    size_t target = b->pb->target, full = full_type(b);
    for (size_t op = 0; op < b->u->operations && !b->nomem && !b->broken; op++) {
        vec_t deps = {0};
        int64_t buf = take(b, target, full, op, &deps);
        int64_t del = ssched_i_plan_add_op(b, target, OP_DELIVER, -1, buf, -1, -1, 0, b->B,
                                           (int64_t)op);
        for (size_t d = 0; d < deps.n; d++)
            ssched_i_plan_add_dep(b, target, deps.v[d], del);
        free(deps.v);
    }
}
