/* Unrolled broadcasts: whole messages down weighted spanning arborescences.
 *
 * Operation t's message follows one arborescence A_i of the pattern, the
 * one furthest below its share y_i / sum y (cumulative counts, so each
 * arborescence stays within one message of its rate), and crosses each arc
 * of A_i whole.  With n operations per period, batch b's messages cross
 * the arcs at depth h (arcs out of the source: depth 0) in period b + h;
 * within a period, transfers are generated in the order the pattern's slots
 * first use their edges, then by depth and operation.  A copy leaves node u
 * only after the message has fully arrived at u (the arc into u has depth
 * h - 1, generated a period earlier), and the left shift (unroll_engine.c)
 * keeps every port one-port.
 *
 * Buffer needs: a message is held at v (not the source) from the start of
 * the transfer bringing it until the end of the last transfer forwarding
 * it from v (never when v does not forward it): the event into v is marked
 * bacq, and the forward with the latest end is marked brel once the period
 * that holds every forward of (operation, v) is generated.
 *
 * The replay runs in steps (begin, one step per period, end), so an
 * all-reduce (unroll_allreduce.c) drives it next to the reduce replay on
 * one engine: there the message of op t exists at the root only from the
 * time its reduce result is complete (the `ready` hook), the transfers are
 * the copy type, times use the reduce's scale, and a period's copies are
 * emitted slot by slot as the reduce step meets the copies' slot transfers
 * (prepare / slot / finish), so every port sees the pattern's order across
 * both parts: on fig6 the generation order alone (reduce first, then the
 * copies of the period) lost a third of the throughput. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

typedef struct {
    size_t rank, h, edge;
    size_t q;
} item_t;

static int item_cmp(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return x->q < y->q ? -1 : x->q > y->q;
}

/* Per arborescence: arcs sorted by (depth, rank); depth[] of each; whether
 * each node forwards. */
typedef struct {
    size_t n, *arcs, *depth, H;
    unsigned char *fwd;         /* per node                                  */
} arb_t;

static int arb_make(const ssched_platform_t *p, const ssched_arborescence_t *a, size_t root,
                    const size_t *rank, arb_t *o)
{
    size_t nn = p->n_nodes, n = a->n_arcs;
    o->n = n;
    o->arcs = ssched_i_alloc(n, sizeof *o->arcs);
    o->depth = ssched_i_alloc(n, sizeof *o->depth);
    o->fwd = ssched_i_calloc(nn, 1);
    size_t *nd = ssched_i_alloc(nn, sizeof *nd);
    if (!o->arcs || !o->depth || !o->fwd || !nd) {
        free(nd);
        return 0;
    }
    for (size_t v = 0; v < nn; v++)
        nd[v] = SIZE_MAX;
    nd[root] = 0;
    /* depths: relax until stable (at most n passes) */
    for (size_t pass = 0; pass <= n; pass++) {
        int changed = 0;
        for (size_t k = 0; k < n; k++) {
            size_t e = a->arcs[k], u = p->from[e], v = p->to[e];
            if (nd[u] != SIZE_MAX && nd[v] == SIZE_MAX) {
                nd[v] = nd[u] + 1;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    o->H = 0;
    for (size_t k = 0; k < n; k++) {
        size_t e = a->arcs[k], u = p->from[e];
        o->arcs[k] = e;
        o->depth[k] = nd[u] == SIZE_MAX ? 0 : nd[u];
        if (o->depth[k] + 1 > o->H)
            o->H = o->depth[k] + 1;
        o->fwd[u] = 1;
    }
    free(nd);
    /* insertion sort on (depth, rank): arborescences are small */
    for (size_t i = 1; i < n; i++) {
        size_t e = o->arcs[i], d = o->depth[i], j = i;
        while (j > 0 && (o->depth[j - 1] > d ||
                         (o->depth[j - 1] == d && rank[o->arcs[j - 1]] > rank[e]))) {
            o->arcs[j] = o->arcs[j - 1];
            o->depth[j] = o->depth[j - 1];
            j--;
        }
        o->arcs[j] = e;
        o->depth[j] = d;
    }
    return 1;
}

/* Scale: Q makes size * c a whole number of ticks on every arc used, and
 * every time (at most the sum of all durations plus the release times)
 * fits 62 bits; else the rounded grid (unroll_internal.h). */
static ssched_status_t bscale(sched_engine_t *e, const ssched_problem_t *pb, size_t n,
                             size_t periods, int64_t *wt, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_arborescences_t *A = &e->s->arborescences;
    mpq_t q, mq;
    mpz_t busy, t;
    mpq_inits(q, mq, NULL);
    mpz_inits(busy, t, NULL);
    mpz_set_ui(e->sc.Q, 1);
    for (size_t i = 0; i < A->count; i++)
        for (size_t k = 0; k < A->items[i].n_arcs; k++) {
            mpq_mul(q, p->c[A->items[i].arcs[k]], pb->size);
            mpz_lcm(e->sc.Q, e->sc.Q, mpq_denref(q));
            ssched_i_sched_lcm_latency(p, A->items[i].arcs[k], e->sc.Q);
            /* a message's time to its end includes its latency */
            ssched_i_sched_add_latency(p, A->items[i].arcs[k], 1, q);
            if (mpq_cmp(q, mq) > 0)
                mpq_set(mq, q);
        }
    /* per period: n messages over n_nodes - 1 arcs each, plus the period */
    unsigned long long events = (unsigned long long)n * (p->n_nodes ? p->n_nodes : 1);
    mpz_set_ui(t, events);
    mpq_set_z(q, t);
    mpq_mul(mq, mq, q); /* one period's busy time, a bound */
    mpq_add(q, mq, e->s->period);
    mpz_mul(busy, e->sc.Q, mpq_numref(q));
    mpz_cdiv_q(busy, busy, mpq_denref(q));
    mpz_mul_ui(busy, busy, (unsigned long)periods + 1);
    ssched_status_t st = SSCHED_OK;
    if (mpz_sizeinbase(e->sc.Q, 2) <= 62 && mpz_sizeinbase(busy, 2) <= 62)
        ssched_i_sched_scale_exact(&e->sc);
    else
        st = ssched_i_sched_scale_round(&e->sc, e->s->period, mq, events, periods, err);
    for (size_t i = 0; i < A->count && st == SSCHED_OK; i++)
        for (size_t k = 0; k < A->items[i].n_arcs; k++) {
            size_t x = A->items[i].arcs[k];
            mpq_mul(q, p->c[x], pb->size);
            int64_t d = ssched_i_sched_dur_ticks(&e->sc, q);
            wt[x] = d < 0 ? 0 : d; /* fits: busy bounds it */
        }
    ssched_i_sched_period_ticks(&e->sc, e->s->period, e->period_ticks);
    e->sc.a = 1;
    e->buf.bu = 1;
    mpq_clears(q, mq, NULL);
    mpz_clears(busy, t, NULL);
    return st;
}

/* The replay's state between periods. */
struct sched_bcast_replay {
    size_t root, type, na, H;
    size_t n, K, batches;
    size_t *rank;
    arb_t *arb;
    double *share, *count;
    int64_t *wt;                /* per edge: ticks of one whole message      */
    int64_t (*ready)(void *ctx, size_t op);
    void *ctx;
    /* per batch slot (H + 1 of them): the arborescence of each op, arrival
     * per (op, node); the latest forward per (op, node) of this period */
    size_t *arb_of, *lastf, *touched;
    int64_t *arrived;
    item_t *items;
    size_t cap_items, n_items, n_touched, b;
    /* slot mode: per edge, its first item, the next to emit, the units of
     * the slots' amounts met so far */
    size_t *first, *cursor;
    int64_t *acc;
};

void ssched_i_sched_bcast_end(sched_bcast_replay_t *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->arb && i < r->na; i++) {
        free(r->arb[i].arcs);
        free(r->arb[i].depth);
        free(r->arb[i].fwd);
    }
    free(r->arb); free(r->rank); free(r->share); free(r->count); free(r->wt);
    free(r->arb_of); free(r->arrived); free(r->lastf); free(r->touched); free(r->items);
    free(r->first); free(r->cursor); free(r->acc);
    free(r);
}

size_t ssched_i_sched_bcast_depth(const sched_bcast_replay_t *r)
{
    return r->H;
}

ssched_status_t ssched_i_sched_bcast_begin(sched_engine_t *e, const ssched_problem_t *pb, size_t root,
                                  size_t type, int own_scale, size_t K,
                                  int64_t (*ready)(void *ctx, size_t op), void *ctx,
                                  sched_bcast_replay_t **out, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_schedule_t *s = e->s;
    const ssched_arborescences_t *A = &s->arborescences;
    size_t nn = p->n_nodes, ne = p->n_edges, na = A->count;
    *out = NULL;
    if (!mpz_fits_ulong_p(s->ops_per_period) || mpz_sgn(s->ops_per_period) == 0 || na == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "broadcast: no arborescence to unroll");
    sched_bcast_replay_t *r = calloc(1, sizeof *r);
    if (!r)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    r->root = root;
    r->type = type;
    r->na = na;
    r->K = K;
    r->ready = ready;
    r->ctx = ctx;
    size_t n = r->n = mpz_get_ui(s->ops_per_period);
    r->rank = ssched_i_alloc(ne, sizeof *r->rank);
    r->arb = calloc(na, sizeof *r->arb);
    r->share = calloc(na, sizeof *r->share);
    r->count = calloc(na, sizeof *r->count);
    r->wt = ssched_i_calloc(ne, sizeof *r->wt);
    r->first = ssched_i_calloc(ne, sizeof *r->first);
    r->cursor = ssched_i_calloc(ne, sizeof *r->cursor);
    r->acc = ssched_i_calloc(ne, sizeof *r->acc);
    ssched_status_t st = SSCHED_OK;
    if (!r->rank || !r->arb || !r->share || !r->count || !r->wt || !r->first || !r->cursor ||
        !r->acc)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t next = 0, H = 1, *rank = r->rank;
    for (size_t x = 0; rank && x < ne; x++)
        rank[x] = SIZE_MAX;
    for (size_t k = 0; rank && k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++)
            if (rank[s->slots[k].transfers[t].edge] == SIZE_MAX)
                rank[s->slots[k].transfers[t].edge] = next++;
    for (size_t x = 0; rank && x < ne; x++)
        if (rank[x] == SIZE_MAX)
            rank[x] = next++;
    double total = 0;
    for (size_t i = 0; i < na && st == SSCHED_OK; i++) {
        if (!arb_make(p, &A->items[i], root, rank, &r->arb[i]))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (r->arb[i].H > H)
            H = r->arb[i].H;
        r->share[i] = mpq_get_d(A->items[i].weight);
        total += r->share[i];
    }
    for (size_t i = 0; i < na && st == SSCHED_OK; i++)
        r->share[i] = total > 0 ? r->share[i] / total : 0;
    r->H = H;
    r->batches = (K + n - 1) / n;
    if (st == SSCHED_OK && own_scale)
        st = bscale(e, pb, n, (size_t)r->batches + H - 1, r->wt, err);
    /* all-reduce: the reduce's scale, where a whole message is A units
     * (ssched_i_sched_scale_init bounded every time with the copies counted) */
    for (size_t x = 0; x < ne && st == SSCHED_OK && !own_scale; x++) {
        if (e->sc.unit_ticks[x] > INT64_MAX / 4 / e->sc.a)
            st = ssched_error_set(err, SSCHED_EINPUT, "a transfer time overflows 62 bits of ticks");
        else
            r->wt[x] = e->sc.unit_ticks[x] * e->sc.a;
    }
    size_t cells = (H + 1) * n;
    if (st == SSCHED_OK) {
        r->arb_of = malloc(cells * sizeof *r->arb_of);
        r->arrived = malloc(cells * nn * sizeof *r->arrived);
        r->lastf = malloc(cells * nn * sizeof *r->lastf);
        if (!r->arb_of || !r->arrived || !r->lastf)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; st == SSCHED_OK && k < cells * nn; k++)
        r->lastf[k] = SIZE_MAX;
    if (st != SSCHED_OK) {
        ssched_i_sched_bcast_end(r);
        return st;
    }
    *out = r;
    return SSCHED_OK;
}

/* Start period b: new batch's arborescences and root times, then the
 * period's copies as items (depth h of batch b - h), sorted on (key, h,
 * op) where key is the edge's rank, or the edge itself in slot mode. */
static ssched_status_t collect(sched_bcast_replay_t *r, const ssched_platform_t *p, size_t b,
                               int by_edge, ssched_error_t *err)
{
    size_t nn = p->n_nodes, na = r->na, H = r->H, root = r->root;
    size_t n = r->n, K = r->K, batches = r->batches;
    size_t *arb_of = r->arb_of;
    ssched_status_t st = SSCHED_OK;
    r->b = b;
    r->n_items = r->n_touched = 0;
    if (b < batches) {
        size_t base = (b % (H + 1)) * n;
        for (size_t q = 0; q < n; q++) {
            double t = (double)(b * n + q) + 1, best = -1e300;
            size_t pick = 0;
            for (size_t i = 0; i < na; i++)
                if (r->share[i] * t - r->count[i] > best) {
                    best = r->share[i] * t - r->count[i];
                    pick = i;
                }
            r->count[pick] += 1;
            arb_of[base + q] = pick;
            for (size_t v = 0; v < nn; v++)
                r->arrived[(base + q) * nn + v] = 0;
            size_t op = (size_t)b * n + q;
            if (r->ready && op < K) /* the message exists at the root from then */
                r->arrived[(base + q) * nn + root] = r->ready(r->ctx, op);
        }
    }
    for (size_t h = 0; h < H && h <= b && st == SSCHED_OK; h++) {
        size_t batch = b - h;
        if (batch >= batches)
            continue;
        size_t base = (batch % (H + 1)) * n;
        for (size_t q = 0; q < n && st == SSCHED_OK; q++) {
            if ((size_t)batch * n + q >= K)
                break;
            const arb_t *x = &r->arb[arb_of[base + q]];
            for (size_t k = 0; k < x->n; k++) {
                if (x->depth[k] != h)
                    continue;
                if (r->n_items == r->cap_items) {
                    size_t cap = r->cap_items ? 2 * r->cap_items : 256;
                    item_t *it = realloc(r->items, cap * sizeof *it);
                    if (!it) {
                        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                        break;
                    }
                    r->items = it;
                    r->cap_items = cap;
                }
                size_t key = by_edge ? x->arcs[k] : r->rank[x->arcs[k]];
                r->items[r->n_items++] = (item_t){key, h, x->arcs[k], q};
            }
        }
    }
    if (r->n_items > 1)
        qsort(r->items, r->n_items, sizeof *r->items, item_cmp);
    if (st == SSCHED_OK && r->n_items > 0) {
        size_t *tt = realloc(r->touched, r->n_items * sizeof *tt);
        if (!tt)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else
            r->touched = tt;
    }
    return st;
}

/* Emit item k of the period: the copy leaves its sender once it arrived
 * there; marks for the buffer needs. */
static ssched_status_t emit_item(sched_engine_t *e, sched_bcast_replay_t *r, size_t k,
                                 ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    size_t nn = p->n_nodes, H = r->H, root = r->root;
    const item_t *it = &r->items[k];
    size_t batch = r->b - it->h, cell = (batch % (H + 1)) * r->n + it->q;
    size_t op = (unsigned long)batch * r->n + it->q;
    size_t u = p->from[it->edge], v = p->to[it->edge];
    int64_t end;
    ssched_status_t st = ssched_i_sched_emit_piece(e, it->edge, r->type, op, r->wt[it->edge], NULL, NULL,
                                          NULL, e->sc.a, r->arrived[cell * nn + u], &end, err);
    if (st != SSCHED_OK)
        return st;
    r->arrived[cell * nn + v] = end;
    sched_event_t *ev = &e->fresh[e->n_fresh - 1];
    ev->bacq = v != root && r->arb[r->arb_of[cell]].fwd[v];
    if (u == root)
        return SSCHED_OK;
    size_t *l = &r->lastf[cell * nn + u];
    if (*l == SIZE_MAX)
        r->touched[r->n_touched++] = cell * nn + u;
    if (*l == SIZE_MAX || e->fresh[*l].end < end)
        *l = e->n_fresh - 1;
    return SSCHED_OK;
}

/* The last forward of each (op, node) of the period releases its copy. */
static void mark_releases(sched_engine_t *e, sched_bcast_replay_t *r)
{
    for (size_t k = 0; k < r->n_touched; k++) {
        e->fresh[r->lastf[r->touched[k]]].brel = 1;
        r->lastf[r->touched[k]] = SIZE_MAX;
    }
}

ssched_status_t ssched_i_sched_bcast_step(sched_engine_t *e, sched_bcast_replay_t *r, size_t b,
                                 ssched_error_t *err)
{
    ssched_status_t st = collect(r, e->p, b, 0, err);
    for (size_t k = 0; k < r->n_items && st == SSCHED_OK; k++)
        st = emit_item(e, r, k, err);
    if (st == SSCHED_OK)
        mark_releases(e, r);
    return st;
}

ssched_status_t ssched_i_sched_bcast_prepare(sched_engine_t *e, sched_bcast_replay_t *r, size_t b,
                                    ssched_error_t *err)
{
    size_t ne = e->p->n_edges;
    ssched_status_t st = collect(r, e->p, b, 1, err);
    for (size_t x = 0; x < ne; x++) {
        r->first[x] = SIZE_MAX;
        r->acc[x] = 0;
    }
    /* items are sorted on edge: each edge's run and a cursor into it */
    for (size_t k = r->n_items; k-- > 0;)
        r->first[r->items[k].edge] = k;
    for (size_t x = 0; x < ne; x++)
        r->cursor[x] = r->first[x];
    return st;
}

ssched_status_t ssched_i_sched_bcast_slot(sched_engine_t *e, sched_bcast_replay_t *r, size_t edge,
                                 const mpq_t amount, ssched_error_t *err)
{
    size_t *c = &r->cursor[edge];
    if (*c == SIZE_MAX)
        return SSCHED_OK; /* no copy over this edge in this period */
    /* copy i of the edge begins at i whole messages (A units each) into
     * the edge's amounts of the period: it goes in the slot holding that */
    int64_t A = e->sc.a;
    /* whole values (A = 1 may not divide the amounts): every copy of the
     * edge left moves at its first slot, as the reduce's values do */
    int64_t end = e->sc.whole ? INT64_MAX : r->acc[edge] + ssched_i_sched_units(&e->sc, amount);
    ssched_status_t st = SSCHED_OK;
    while (st == SSCHED_OK && *c < r->n_items && r->items[*c].edge == edge &&
           (int64_t)(*c - r->first[edge]) * A < end)
        st = emit_item(e, r, (*c)++, err);
    r->acc[edge] = end;
    return st;
}

ssched_status_t ssched_i_sched_bcast_finish(sched_engine_t *e, sched_bcast_replay_t *r,
                                   ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    /* copies the slots' amounts did not cover (none for the builder's
     * patterns, whose amounts per period are the arborescences' counts) */
    for (size_t k = 0; k < r->n_items && st == SSCHED_OK; k++)
        if (k >= r->cursor[r->items[k].edge])
            st = emit_item(e, r, k, err);
    if (st == SSCHED_OK)
        mark_releases(e, r);
    return st;
}

ssched_status_t ssched_i_sched_replay_broadcast(sched_engine_t *e, const ssched_problem_t *pb,
                                       size_t K, size_t *periods_out, ssched_error_t *err)
{
    if (pb->n_sources != 1)
        return ssched_error_set(err, SSCHED_EINPUT, "broadcast: no arborescence to unroll");
    sched_bcast_replay_t *r;
    ssched_status_t st = ssched_i_sched_bcast_begin(e, pb, pb->sources[0], 0, 1, K, NULL, NULL, &r, err);
    if (st != SSCHED_OK)
        return st;
    size_t periods = (size_t)r->batches + r->H - 1;
    e->window = r->H;
    for (size_t b = 0; b < periods && st == SSCHED_OK; b++) {
        ssched_i_sched_engine_period(e, b);
        st = ssched_i_sched_bcast_step(e, r, b, err);
        if (st == SSCHED_OK)
            st = ssched_i_sched_engine_flush(e, 0, err);
    }
    if (st == SSCHED_OK)
        st = ssched_i_sched_engine_flush(e, 1, err);
    *periods_out = periods;
    ssched_i_sched_bcast_end(r);
    return st;
}
