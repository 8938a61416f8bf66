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

#include "src/mpi/plan_internal.h"
#include "src/util/internal.h"

int ssched_i_plan_push(vec_t *x, const int64_t *vals, size_t k)
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

int64_t ssched_i_plan_add_buf(bld_t *b, size_t node, int64_t init, int64_t a, int64_t op)
{
    int64_t x[B_WIDTH] = {b->B, init, a, op, 0};
    vec_t *v = &b->nodes[node].bufs;
    if (!ssched_i_plan_push(v, x, B_WIDTH))
        return b->nomem = 1, -1;
    return (int64_t)(v->n / B_WIDTH) - 1;
}

int64_t ssched_i_plan_add_op(bld_t *b, size_t node, int64_t kind, int64_t peer, int64_t buf,
                      int64_t left, int64_t right, int64_t lo, int64_t hi, int64_t id)
{
    node_t *n = &b->nodes[node];
    /* a batch: the first operation it carries makes the send and the
     * receive, the others add their buffer (same byte range) to them */
    int64_t *cur = kind == OP_SEND ? &b->bsend : kind == OP_RECV ? &b->brecv : NULL;
    if (cur && *cur >= 0) {
        int64_t *o = &n->ops.v[*cur * O_WIDTH];
        if (o[O_NXB] == 0)
            o[O_XB0] = (int64_t)n->xbufs.n;
        if (buf < 0 || !ssched_i_plan_push(&n->xbufs, &buf, 1))
            return b->nomem = 1, -1;
        o[O_NXB]++;
        n->bufs.v[buf * B_WIDTH + B_REFS]++;
        return *cur;
    }
    int64_t o[O_WIDTH] = {0};
    o[O_KIND] = kind, o[O_PEER] = peer, o[O_BUF] = buf, o[O_LEFT] = left, o[O_RIGHT] = right;
    o[O_LO] = lo, o[O_HI] = hi, o[O_ID] = id, o[O_AFTER] = -1, o[O_NEXT] = -1;
    if (!ssched_i_plan_push(&n->ops, o, O_WIDTH))
        return b->nomem = 1, -1;
    /* a buffer lives until every operation using it has completed */
    int64_t use[3] = {buf, left, right};
    for (int k = 0; k < 3; k++)
        if (use[k] >= 0)
            n->bufs.v[use[k] * B_WIDTH + B_REFS]++;
    int64_t at = (int64_t)(n->ops.n / O_WIDTH) - 1;
    if (cur && b->batching)
        *cur = at;
    return at;
}

void ssched_i_plan_add_dep(bld_t *b, size_t node, int64_t pred, int64_t succ)
{
    if (pred < 0 || succ < 0)
        return;
    int64_t e[2] = {pred, succ};
    if (!ssched_i_plan_push(&b->nodes[node].edges, e, 2))
        b->nomem = 1;
    else
        b->nodes[node].ops.v[succ * O_WIDTH + O_NDEPS]++;
}

/* The resource's order: op is posted after the previous operation on it
 * (O_AFTER: MPI's non-overtaking rule then matches each edge's sends and
 * receives in the schedule's order) and waits for the completion of the
 * last one that ended, in the schedule, no later than op starts (with
 * latencies a transfer ends after the next one on its port has started:
 * the port is busy only for the bandwidth phase [start + l, end), so
 * several transfers of one port are in flight at once).  And the node's
 * local order across its resources: op, starting at `start` in the
 * schedule, also waits for every operation of the node that ended strictly
 * before on another resource (through the last of them on each).  Without
 * it an intermediate node runs ahead of the schedule on its
 * non-bottleneck links and holds O(K) messages (a scatter on tiers-46 with
 * K = 1000 needed tens of GB); with it, buffers live at once in the run
 * are live at once in the schedule, up to the one operation per resource
 * ending exactly at `start`: a node holds at most its schedule peak plus a
 * few.  Those exact ties on other resources are left out on purpose: a
 * piece moves whole bytes, [floor(off B), floor((off + len) B)), up to one
 * byte (c / B s) more than len B, and a tight edge would pass that delay
 * on (measured: 8e-8 relative on the tiers-small reduce, B = 1e6).  Every
 * edge goes from an operation ending no later than the other starts, so
 * the schedule satisfies them all: no deadlock, and the run ends no
 * later.  With a window W (an option) the waits are for the operations W
 * further back, on its own resource (W more transfers in flight than the
 * schedule has) and on the others (a node runs up to W operations per
 * resource ahead): for networks whose latency the schedule ignores, at the
 * price of up to W more buffers per resource.  (Ends
 * need not increase along a resource when latencies differ
 * between edges; the scan then stops early and adds fewer edges, which is
 * safe.) */
void ssched_i_plan_chain(bld_t *b, size_t node, int64_t *last, int64_t op, mpq_srcptr start,
                  mpq_srcptr end)
{
    if (op < 0 || *last == op) /* a batch's later operations: chained once */
        return;
    int64_t prev = *last, *ops = b->nodes[node].ops.v;
    *last = op;
    double s = mpq_get_d(start);
    memcpy(&ops[op * O_WIDTH + O_START], &s, sizeof s);
    if (prev >= 0) {
        ops[op * O_WIDTH + O_AFTER] = prev;
        ops[prev * O_WIDTH + O_NEXT] = op;
    }
    size_t own = (size_t)(last - b->last), n0 = b->slot0[node], lr = b->slot0[node + 1] - n0;
    int64_t *seen = &b->seen[b->seen0[node] + b->lidx[own] * lr];
    for (size_t k = n0; k < n0 + lr; k++) {
        size_t r = b->slots[k];
        size_t *ptr = r == own ? &b->q_own[r] : &b->q_ptr[r];
        int tie = r == own; /* on its own resource, an end at `start` counts */
        while (*ptr < b->q_n[r] && mpq_cmp(b->q_end[r][*ptr], start) < tie)
            (*ptr)++;
        /* a window W: W more in flight on its own resource, and the wait
         * on the others is for the operation W further back */
        size_t at = *ptr, lim = b->q_n[r] > b->window ? b->q_n[r] - b->window : 0;
        if (r != own)
            lim = at > b->window ? at - b->window : 0;
        if (at > lim)
            at = lim;
        if (at == 0)
            continue;
        int64_t d = b->q_op[r][at - 1];
        if (seen[k - n0] != d) /* else an earlier op on `own` waits for it already */
            ssched_i_plan_add_dep(b, node, d, op), seen[k - n0] = d;
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
    b->q_own = calloc(ns + 1, sizeof *b->q_own);
    b->slot0 = calloc(n + 1, sizeof *b->slot0);
    b->slots = malloc((ns + 1) * sizeof *b->slots);
    b->lidx = malloc((ns + 1) * sizeof *b->lidx);
    b->seen0 = malloc((n + 1) * sizeof *b->seen0);
    if (!b->q_end || !b->q_op || !b->q_n || !b->q_cap || !b->q_ptr || !b->q_own || !b->slot0 ||
        !b->slots ||
        !b->lidx || !b->seen0)
        return 0;
    /* a multi-port node's slots: the link ends the schedule uses only (a
     * routed platform has an edge per host pair: n^2 slots otherwise),
     * placed after the node's own three in one pass over the edges */
    unsigned char *used = calloc(p->n_edges + 1, 1);
    size_t *pos = calloc(n + 1, sizeof *pos);
    if (!used || !pos)
        return free(used), free(pos), 0;
    for (size_t t = 0; t < b->u->n_transfers; t++)
        used[b->u->transfers[t].edge] = 1;
    const unsigned char *mp = p->multiport;
    for (size_t e = 0; mp && e < p->n_edges; e++)
        if (used[e]) {
            pos[p->from[e]] += mp[p->from[e]] != 0;
            pos[p->to[e]] += mp[p->to[e]] != 0;
        }
    size_t at = 0, nseen = 0;
    for (size_t k = 0; k < n; k++) { /* pos: first the count, then the fill point */
        size_t lr = 3 + pos[k];
        b->slot0[k] = at;
        b->slots[at] = k, b->slots[at + 1] = n + k, b->slots[at + 2] = 2 * n + k;
        pos[k] = at + 3;
        at += lr;
        b->seen0[k] = nseen;
        nseen += lr * lr;
    }
    for (size_t e = 0; mp && e < p->n_edges; e++)
        if (used[e]) {
            if (mp[p->from[e]])
                b->slots[pos[p->from[e]]++] = 3 * n + 2 * e;
            if (mp[p->to[e]])
                b->slots[pos[p->to[e]]++] = 3 * n + 2 * e + 1;
        }
    for (size_t k = 0; k < n; k++)
        for (size_t x = b->slot0[k]; x < (k + 1 < n ? b->slot0[k + 1] : at); x++)
            b->lidx[b->slots[x]] = x - b->slot0[k];
    free(pos);
    b->slot0[n] = at;
    free(used);
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
    free(b->q_end), free(b->q_op), free(b->q_n), free(b->q_cap), free(b->q_ptr), free(b->q_own);
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
void ssched_i_plan_frame(bld_t *b, const ssched_timed_transfer_t *t, int64_t *lo, int64_t *hi,
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

/* ---- output --------------------------------------------------------------- */

static int finish(node_t *n, mpi_plan_t *out)
{
    size_t no = n->ops.n / O_WIDTH, ne = n->edges.n / 2;
    out->n_ops = (int64_t)no;
    out->n_bufs = (int64_t)(n->bufs.n / B_WIDTH);
    out->n_succ = (int64_t)ne;
    out->ops = n->ops.v ? n->ops.v : malloc(sizeof(int64_t));
    out->bufs = n->bufs.v ? n->bufs.v : malloc(sizeof(int64_t));
    out->succ = ssched_i_alloc(ne, sizeof *out->succ);
    out->n_xbufs = (int64_t)n->xbufs.n;
    out->xbufs = n->xbufs.v ? n->xbufs.v : malloc(sizeof(int64_t));
    n->ops.v = n->bufs.v = n->xbufs.v = NULL;
    if (!out->ops || !out->bufs || !out->succ || !out->xbufs)
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
    free(pl->xbufs);
    memset(pl, 0, sizeof *pl);
}

ssched_status_t ssched_i_mpi_build_plans(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_unrolled_t *u, uint64_t msg_bytes,
                                const int *rank_of_node, size_t window, mpi_plan_t *plans,
                                ssched_error_t *err)
{
    if (msg_bytes > INT_MAX)
        return ssched_error_set(err, SSCHED_EINPUT, "a message of %llu bytes is above MPI's "
                                "count limit (%d): lower options.unit_bytes",
                                (unsigned long long)msg_bytes, INT_MAX);
    bld_t b;
    memset(&b, 0, sizeof b);
    b.p = p, b.pb = pb, b.u = u, b.B = (int64_t)msg_bytes, b.rank_of = rank_of_node;
    b.bsend = b.brecv = -1;
    b.window = window;
    size_t n = p->n_nodes, K = u->operations, N = pb->n_participants;
    /* an all-reduce is both: its reduce values, then copies of the results */
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    int reduce = pb->kind == SSCHED_PROBLEM_REDUCE || all;
    int bcast = pb->kind == SSCHED_PROBLEM_BROADCAST || all;
    int scan = pb->kind == SSCHED_PROBLEM_SCAN; /* values as a reduce's, copied (plan_scan.c) */
    reduce |= scan;
    size_t copy = all ? (pb->commutative ? u->sets.n : N * (N + 1) / 2) : SIZE_MAX;
    b.origin = malloc((pb->n_sources * pb->n_targets + 1) * sizeof *b.origin);
    for (size_t a = 0; b.origin && a < pb->n_sources; a++)
        for (size_t c = 0; c < pb->n_targets; c++)
            if (pb->sources[a] != pb->targets[c])
                b.origin[b.n_types++] = pb->sources[a];
    b.nodes = ssched_i_calloc(n, sizeof *b.nodes);
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
        if (comp) {
            if (scan)
                ssched_i_plan_scan_computation(&b, &u->computations[ic++]);
            else
                ssched_i_plan_reduce_computation(&b, &u->computations[ic++]);
            continue;
        }
        /* a batch of n operations is replayed as n transfers, each for one
         * of them, that share one send and one receive (add_op) */
        const ssched_timed_transfer_t *t = &u->transfers[it++];
        size_t nb = t->batch ? t->batch : 1;
        if (t->op + nb > K) {
            b.broken = 1;
            break;
        }
        b.batching = nb > 1;
        for (b.bk = 0; b.bk < nb && !b.nomem && !b.broken; b.bk++) {
            if (bcast && (!all || t->type == copy))
                ssched_i_plan_bcast_transfer(&b, t);
            else if (scan)
                ssched_i_plan_scan_transfer(&b, t);
            else if (reduce)
                ssched_i_plan_reduce_transfer(&b, t);
            else
                ssched_i_plan_flow_transfer(&b, t);
        }
        b.batching = 0;
        b.bk = 0;
        b.bsend = b.brecv = -1;
    }
    if (!b.nomem && !b.broken) {
        /* an all-reduce's root delivers only if it is a participant (else
         * it is a router that only sends the copies) */
        int root_takes = !all;
        for (size_t k = 0; all && k < N; k++)
            root_takes |= pb->participants[k] == pb->target;
        if (scan)
            ssched_i_plan_scan_deliveries(&b);
        else if (reduce && root_takes)
            ssched_i_plan_reduce_deliveries(&b);
        if (bcast)
            ssched_i_plan_bcast_deliveries(&b);
        if (!reduce && !bcast)
            ssched_i_plan_flow_deliveries(&b);
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
        free(b.nodes[k].xbufs.v);
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
