/* MPI plans of scatters, gossips and broadcasts (see plan.c). */
#include <stdlib.h>
#include <string.h>

#include "src/mpi/plan_internal.h"

/* ---- scatter, gossip ---------------------------------------------------- */

static int64_t msg_buffer(bld_t *b, msg_t *m, size_t node, int64_t init, int64_t type, int64_t op)
{
    for (size_t k = 0; k < m->bufs.n; k += 2)
        if (m->bufs.v[k] == (int64_t)node)
            return m->bufs.v[k + 1];
    int64_t x[2] = {(int64_t)node, ssched_i_plan_add_buf(b, node, init, type, op)};
    if (x[1] < 0 || !ssched_i_plan_push(&m->bufs, x, 2))
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

void ssched_i_plan_flow_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    const ssched_problem_t *pb = b->pb;
    size_t n = b->p->n_nodes, i = b->p->from[t->edge], j = b->p->to[t->edge];
    int64_t id = (int64_t)(t->type * b->u->operations + (t->op + b->bk)), lo, hi, *snd, *rcv;
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
    ssched_i_plan_frame(b, t, &lo, &hi, &snd, &rcv);
    int64_t bi = msg_buffer(b, m, i, i == origin ? BUF_FILL : BUF_NONE, (int64_t)t->type,
                            (int64_t)(t->op + b->bk));
    int64_t bj = msg_buffer(b, m, j, BUF_NONE, (int64_t)t->type, (int64_t)(t->op + b->bk));
    if (bi < 0 || bj < 0 || !split(m, lo) || !split(m, hi))
        return (void)(b->nomem = 1);
    int64_t send = ssched_i_plan_add_op(b, i, OP_SEND, b->rank_of[j], bi, -1, -1, lo, hi, id);
    ssched_i_plan_chain(b, i, snd, send, t->start, t->end);
    int64_t recv = ssched_i_plan_add_op(b, j, OP_RECV, b->rank_of[i], bj, -1, -1, lo, hi, id);
    ssched_i_plan_chain(b, j, rcv, recv, t->start, t->end);
    for (size_t k = 0; k < m->n; k++)
        if (m->s[k].lo >= lo && m->s[k].hi <= hi) {
            if (m->s[k].node != (int64_t)i)
                b->broken = 1;
            ssched_i_plan_add_dep(b, i, m->s[k].prod, send);
            m->s[k].node = (int64_t)j;
            m->s[k].prod = recv;
        }
}

void ssched_i_plan_flow_deliveries(bld_t *b)
{
    size_t K = b->u->operations;
    size_t t = 0;
    for (size_t a = 0; a < b->pb->n_sources; a++)
        for (size_t c = 0; c < b->pb->n_targets; c++) {
            size_t o = b->pb->sources[a], d = b->pb->targets[c];
            if (o == d)
                continue;
            for (size_t op = 0; op < K && !b->nomem; op++) {
                int64_t id = (int64_t)(t * K + op);
                msg_t *m = &b->msgs[id];
                int64_t buf = msg_buffer(b, m, d, BUF_NONE, (int64_t)t, (int64_t)op);
                int64_t del = ssched_i_plan_add_op(b, d, OP_DELIVER, -1, buf, -1, -1, 0, b->B, id);
                if (m->n == 0 && b->B > 0)
                    b->broken = 1;
                for (size_t k = 0; k < m->n; k++) {
                    if (m->s[k].node != (int64_t)d)
                        b->broken = 1;
                    ssched_i_plan_add_dep(b, d, m->s[k].prod, del);
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

void ssched_i_plan_bcast_transfer(bld_t *b, const ssched_timed_transfer_t *t)
{
    size_t n = b->p->n_nodes, i = b->p->from[t->edge], j = b->p->to[t->edge];
    size_t src = bcast_source(b), ki = (t->op + b->bk) * n + i, kj = (t->op + b->bk) * n + j;
    int64_t lo, hi, *snd, *rcv, op = (int64_t)(t->op + b->bk);
    ssched_i_plan_frame(b, t, &lo, &hi, &snd, &rcv);
    val_t *res = NULL; /* all-reduce: the result the root's copies send */
    if (i == src && b->pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        if (!(res = ssched_i_plan_root_result(b, (t->op + b->bk))))
            return (void)(b->broken = 1);
        b->bbuf[ki] = res->buf;
        b->bprod[ki] = -1;
    } else if (i == src && b->bbuf[ki] < 0) {
        b->bbuf[ki] = ssched_i_plan_add_buf(b, i, BUF_FILL, 0, op);
        b->bprod[ki] = -1;
    }
    if (b->nomem)
        return;
    /* sent from where it is not whole, or received twice (or back at the source) */
    if (b->bprod[ki] < -1 || j == src || b->bbuf[kj] >= 0)
        return (void)(b->broken = 1);
    int64_t send = ssched_i_plan_add_op(b, i, OP_SEND, b->rank_of[j], b->bbuf[ki], -1, -1, lo,
                                        hi, op);
    ssched_i_plan_chain(b, i, snd, send, t->start, t->end);
    ssched_i_plan_add_dep(b, i, b->bprod[ki], send);
    for (size_t d = 0; res && d < res->prod.n; d++) /* the whole result, every piece */
        ssched_i_plan_add_dep(b, i, res->prod.v[d], send);
    if ((b->bbuf[kj] = ssched_i_plan_add_buf(b, j, BUF_NONE, 0, op)) < 0)
        return;
    int64_t recv = ssched_i_plan_add_op(b, j, OP_RECV, b->rank_of[i], b->bbuf[kj], -1, -1, lo,
                                        hi, op);
    ssched_i_plan_chain(b, j, rcv, recv, t->start, t->end);
    b->bprod[kj] = recv;
}

/* Every target delivers each message once (a multicast's relays only
 * forward: their copies are freed after their last forward). */
void ssched_i_plan_bcast_deliveries(bld_t *b)
{
    size_t n = b->p->n_nodes, src = bcast_source(b);
    int all = b->pb->kind == SSCHED_PROBLEM_ALLREDUCE; /* targets: the participants */
    size_t nt = all ? b->pb->n_participants : b->pb->n_targets;
    for (size_t c = 0; c < nt && !b->nomem && !b->broken; c++) {
        size_t d = all ? b->pb->participants[c] : b->pb->targets[c];
        if (d == src)
            continue;
        for (size_t op = 0; op < b->u->operations && !b->nomem; op++) {
            size_t k = op * n + d;
            if (b->bprod[k] < 0)
                return (void)(b->broken = 1);
            int64_t del = ssched_i_plan_add_op(b, d, OP_DELIVER, -1, b->bbuf[k], -1, -1, 0, b->B,
                                               (int64_t)op);
            ssched_i_plan_add_dep(b, d, b->bprod[k], del);
        }
    }
}
