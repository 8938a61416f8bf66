/* MPI plans of scans (issue 27; see plan.c).  As a reduce's (plan_reduce.c)
 * but a value is never consumed: once at a node it stays there, so a
 * transfer sends it (its buffer gains a reader) and a merge reads it, as
 * often as the schedule says (a prefix v[0,j] is r_j's answer and an
 * operand of v[0,j+1]).  Participant j (j >= 1) delivers v[0,j] (exclusive:
 * v[0,j-1]) of every operation through the result callback. */
#include <stdint.h>
#include <stdlib.h>

#include "src/mpi/plan_internal.h"

static size_t iv(const bld_t *b, size_t k, size_t m)
{
    return ssched_interval_index(b->pb->n_participants, k, m);
}

/* The buffer of value I of op at node (a participant's own value is
 * always there), its producers appended to deps; -1 (b->broken) if it is
 * not there. */
static int64_t peek(bld_t *b, size_t node, size_t I, size_t op, vec_t *deps)
{
    size_t N = b->pb->n_participants;
    for (size_t k = 0; k < N; k++)
        if (I == iv(b, k, k) && b->pb->participants[k] == node) {
            int64_t *leaf = &b->leaf[k * b->u->operations + op];
            if (*leaf < 0)
                *leaf = ssched_i_plan_add_buf(b, node, BUF_VALUE, (int64_t)k, (int64_t)op);
            return *leaf;
        }
    val_t *v = ssched_i_plan_val(b, node, I, op, 0);
    if (!v || !v->present)
        return b->broken = 1, -1;
    if (v->prod.n && !ssched_i_plan_push(deps, v->prod.v, v->prod.n))
        b->nomem = 1;
    return v->buf;
}

/* A new buffer for value I of op arriving at node; the value keeps
 * its first arrival (a later copy only fills its own buffer). */
static int64_t arrive(bld_t *b, size_t node, size_t I, size_t op, val_t **first)
{
    val_t *v = ssched_i_plan_val(b, node, I, op, 1);
    *first = NULL;
    if (!v)
        return -1;
    int64_t buf = ssched_i_plan_add_buf(b, node, BUF_NONE, 0, 0);
    if (!v->present) {
        v->present = 1;
        v->prod.n = 0;
        v->buf = buf;
        *first = v;
    }
    return buf;
}

void ssched_i_plan_scan_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    size_t i = b->p->from[t->edge], j = b->p->to[t->edge], op = t->op + b->bk;
    int64_t lo, hi, *snd, *rcv;
    ssched_i_plan_frame(b, t, &lo, &hi, &snd, &rcv);
    vec_t deps = {0};
    int64_t sbuf = peek(b, i, t->type, op, &deps);
    val_t *v = NULL;
    int64_t rbuf = b->broken ? -1 : arrive(b, j, t->type, op, &v);
    if (b->broken || b->nomem) {
        free(deps.v);
        return;
    }
    int64_t send = ssched_i_plan_add_op(b, i, OP_SEND, b->rank_of[j], sbuf, -1, -1, lo, hi,
                                        (int64_t)op);
    ssched_i_plan_chain(b, i, snd, send, t->start, t->end);
    for (size_t d = 0; d < deps.n; d++)
        ssched_i_plan_add_dep(b, i, deps.v[d], send);
    free(deps.v);
    int64_t recv = ssched_i_plan_add_op(b, j, OP_RECV, b->rank_of[i], rbuf, -1, -1, lo, hi,
                                        (int64_t)op);
    ssched_i_plan_chain(b, j, rcv, recv, t->start, t->end);
    if (v && !ssched_i_plan_push(&v->prod, &recv, 1))
        b->nomem = 1;
}

void ssched_i_plan_scan_computation(bld_t *b, const ssched_timed_computation_t *c)
{
    vec_t deps = {0};
    int64_t left = peek(b, c->node, iv(b, c->k, c->l), c->op, &deps);
    int64_t right = peek(b, c->node, iv(b, c->l + 1, c->m), c->op, &deps);
    val_t *v = NULL;
    int64_t buf = b->broken ? -1 : arrive(b, c->node, iv(b, c->k, c->m), c->op, &v);
    if (!b->broken && !b->nomem) {
        int64_t comp = ssched_i_plan_add_op(b, c->node, OP_COMP, -1, buf, left, right, 0, b->B,
                                            (int64_t)c->op);
        ssched_i_plan_chain(b, c->node, &b->last[2 * b->p->n_nodes + c->node], comp, c->start,
                            c->end);
        for (size_t d = 0; d < deps.n; d++)
            ssched_i_plan_add_dep(b, c->node, deps.v[d], comp);
        if (v && !ssched_i_plan_push(&v->prod, &comp, 1))
            b->nomem = 1;
    }
    free(deps.v);
}

void ssched_i_plan_scan_deliveries(bld_t *b)
{
    size_t N = b->pb->n_participants;
    for (size_t op = 0; op < b->u->operations && !b->nomem && !b->broken; op++)
        for (size_t j = 1; j < N && !b->nomem && !b->broken; j++) {
            size_t node = b->pb->participants[j], a = b->pb->exclusive ? j - 1 : j;
            vec_t deps = {0};
            int64_t buf = peek(b, node, iv(b, 0, a), op, &deps);
            int64_t del = buf < 0 ? -1
                                  : ssched_i_plan_add_op(b, node, OP_DELIVER, -1, buf, -1, -1, 0,
                                                         b->B, (int64_t)op);
            for (size_t d = 0; d < deps.n; d++)
                ssched_i_plan_add_dep(b, node, deps.v[d], del);
            free(deps.v);
        }
}
