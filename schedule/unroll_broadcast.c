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
 * that holds every forward of (operation, v) is generated. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"

typedef struct {
    size_t rank, h, edge;
    unsigned long q;
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
    o->arcs = malloc((n ? n : 1) * sizeof *o->arcs);
    o->depth = malloc((n ? n : 1) * sizeof *o->depth);
    o->fwd = calloc(nn ? nn : 1, 1);
    size_t *nd = malloc((nn ? nn : 1) * sizeof *nd);
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
 * fits 62 bits. */
static ssched_status_t bscale(sched_engine_t *e, const ssched_problem_t *pb, unsigned long n,
                             size_t periods, int64_t *wt, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_arborescences_t *A = &e->s->arborescences;
    mpq_t q;
    mpz_t busy, t, mx;
    mpq_init(q);
    mpz_inits(busy, t, mx, NULL);
    mpz_set_ui(e->sc.Q, 1);
    for (size_t i = 0; i < A->count; i++)
        for (size_t k = 0; k < A->items[i].n_arcs; k++) {
            mpq_mul(q, p->c[A->items[i].arcs[k]], pb->size);
            mpz_lcm(e->sc.Q, e->sc.Q, mpq_denref(q));
        }
    ssched_status_t st = SSCHED_OK;
    if (mpz_sizeinbase(e->sc.Q, 2) > 62)
        st = ssched_error_set(err, SSCHED_EINPUT,
                              "the unrolled schedule's times need more than 62 bits of ticks");
    for (size_t i = 0; i < A->count && st == SSCHED_OK; i++)
        for (size_t k = 0; k < A->items[i].n_arcs; k++) {
            size_t x = A->items[i].arcs[k];
            mpq_mul(q, p->c[x], pb->size);
            mpz_mul(t, mpq_numref(q), e->sc.Q);
            mpz_divexact(t, t, mpq_denref(q));
            if (mpz_cmp(t, mx) > 0)
                mpz_set(mx, t);
            wt[x] = mpz_sizeinbase(t, 2) <= 62 ? mpz_get_si(t) : 0;
        }
    /* per period: n messages over n_nodes - 1 arcs each, plus the period */
    mpz_mul_ui(busy, mx, n);
    mpz_mul_ui(busy, busy, (unsigned long)(p->n_nodes ? p->n_nodes : 1));
    mpz_mul(t, e->sc.Q, mpq_numref(e->s->period));
    mpz_cdiv_q(t, t, mpq_denref(e->s->period));
    mpz_add(busy, busy, t);
    mpz_mul_ui(busy, busy, (unsigned long)periods + 1);
    if (st == SSCHED_OK && mpz_sizeinbase(busy, 2) > 62)
        st = ssched_error_set(err, SSCHED_EINPUT,
                              "the unrolled schedule's times need more than 62 bits of ticks; "
                              "use fewer operations");
    e->sc.q = st == SSCHED_OK ? (int64_t)mpz_get_ui(e->sc.Q) : 1;
    mpq_set_z(e->period_ticks, e->sc.Q);
    mpq_mul(e->period_ticks, e->period_ticks, e->s->period);
    e->sc.a = 1;
    e->buf.bu = 1;
    mpq_clear(q);
    mpz_clears(busy, t, mx, NULL);
    return st;
}

ssched_status_t sched_replay_broadcast(sched_engine_t *e, const ssched_problem_t *pb,
                                       unsigned long K, size_t *periods_out, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_schedule_t *s = e->s;
    const ssched_arborescences_t *A = &s->arborescences;
    size_t nn = p->n_nodes, ne = p->n_edges, na = A->count;
    if (!mpz_fits_ulong_p(s->ops_per_period) || mpz_sgn(s->ops_per_period) == 0 || na == 0 ||
        pb->n_sources != 1)
        return ssched_error_set(err, SSCHED_EINPUT, "broadcast: no arborescence to unroll");
    unsigned long n = mpz_get_ui(s->ops_per_period);
    size_t root = pb->sources[0];
    size_t *rank = malloc((ne ? ne : 1) * sizeof *rank);
    arb_t *arb = calloc(na, sizeof *arb);
    double *share = calloc(na, sizeof *share), *count = calloc(na, sizeof *count);
    int64_t *wt = calloc(ne ? ne : 1, sizeof *wt);
    ssched_status_t st = SSCHED_OK;
    if (!rank || !arb || !share || !count || !wt)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t next = 0, H = 1;
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
        if (!arb_make(p, &A->items[i], root, rank, &arb[i]))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (arb[i].H > H)
            H = arb[i].H;
        share[i] = mpq_get_d(A->items[i].weight);
        total += share[i];
    }
    for (size_t i = 0; i < na && st == SSCHED_OK; i++)
        share[i] = total > 0 ? share[i] / total : 0;
    unsigned long batches = (K + n - 1) / n;
    size_t periods = (size_t)batches + H - 1;
    if (st == SSCHED_OK)
        st = bscale(e, pb, n, periods, wt, err);
    e->window = H;
    /* per batch slot (H + 1 of them): the arborescence of each op, arrival
     * per (op, node); the latest forward per (op, node) of this period */
    size_t cells = (H + 1) * n;
    size_t *arb_of = st == SSCHED_OK ? malloc(cells * sizeof *arb_of) : NULL;
    int64_t *arrived = st == SSCHED_OK ? malloc(cells * nn * sizeof *arrived) : NULL;
    size_t *lastf = st == SSCHED_OK ? malloc(cells * nn * sizeof *lastf) : NULL;
    size_t *touched = NULL, n_touched = 0;
    item_t *items = NULL;
    size_t cap_items = 0;
    if (st == SSCHED_OK && (!arb_of || !arrived || !lastf))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; lastf && k < cells * nn; k++)
        lastf[k] = SIZE_MAX;
    for (size_t b = 0; b < periods && st == SSCHED_OK; b++) {
        sched_engine_period(e, b);
        if (b < batches) {
            size_t base = (b % (H + 1)) * n;
            for (unsigned long q = 0; q < n; q++) {
                double t = (double)(b * n + q) + 1, best = -1e300;
                size_t pick = 0;
                for (size_t i = 0; i < na; i++)
                    if (share[i] * t - count[i] > best) {
                        best = share[i] * t - count[i];
                        pick = i;
                    }
                count[pick] += 1;
                arb_of[base + q] = pick;
                for (size_t v = 0; v < nn; v++)
                    arrived[(base + q) * nn + v] = 0;
            }
        }
        /* this period's transfers: depth h of batch b - h */
        size_t n_items = 0;
        for (size_t h = 0; h < H && h <= b && st == SSCHED_OK; h++) {
            size_t batch = b - h;
            if (batch >= batches)
                continue;
            size_t base = (batch % (H + 1)) * n;
            for (unsigned long q = 0; q < n && st == SSCHED_OK; q++) {
                if ((unsigned long)batch * n + q >= K)
                    break;
                const arb_t *x = &arb[arb_of[base + q]];
                for (size_t k = 0; k < x->n; k++) {
                    if (x->depth[k] != h)
                        continue;
                    if (n_items == cap_items) {
                        size_t cap = cap_items ? 2 * cap_items : 256;
                        item_t *it = realloc(items, cap * sizeof *it);
                        if (!it) {
                            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                            break;
                        }
                        items = it;
                        cap_items = cap;
                    }
                    items[n_items++] = (item_t){rank[x->arcs[k]], h, x->arcs[k], q};
                }
            }
        }
        if (n_items > 1)
            qsort(items, n_items, sizeof *items, item_cmp);
        if (st == SSCHED_OK && n_items > 0) {
            size_t *tt = realloc(touched, n_items * sizeof *tt);
            if (!tt)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else
                touched = tt;
        }
        n_touched = 0;
        for (size_t k = 0; k < n_items && st == SSCHED_OK; k++) {
            const item_t *it = &items[k];
            size_t batch = b - it->h, cell = (batch % (H + 1)) * n + it->q;
            unsigned long op = (unsigned long)batch * n + it->q;
            size_t u = p->from[it->edge], v = p->to[it->edge];
            int64_t end;
            st = sched_emit_piece(e, it->edge, 0, op, wt[it->edge], NULL, NULL, NULL, 1,
                                  arrived[cell * nn + u], &end, err);
            if (st != SSCHED_OK)
                break;
            arrived[cell * nn + v] = end;
            sched_event_t *ev = &e->fresh[e->n_fresh - 1];
            ev->bacq = v != root && arb[arb_of[cell]].fwd[v];
            if (u == root)
                continue;
            size_t *l = &lastf[cell * nn + u];
            if (*l == SIZE_MAX)
                touched[n_touched++] = cell * nn + u;
            if (*l == SIZE_MAX || e->fresh[*l].end < end)
                *l = e->n_fresh - 1;
        }
        for (size_t k = 0; k < n_touched && st == SSCHED_OK; k++) {
            e->fresh[lastf[touched[k]]].brel = 1;
            lastf[touched[k]] = SIZE_MAX;
        }
        if (st == SSCHED_OK)
            st = sched_engine_flush(e, 0, err);
    }
    if (st == SSCHED_OK)
        st = sched_engine_flush(e, 1, err);
    *periods_out = periods;
    for (size_t i = 0; arb && i < na; i++) {
        free(arb[i].arcs);
        free(arb[i].depth);
        free(arb[i].fwd);
    }
    free(arb);
    free(rank);
    free(share);
    free(count);
    free(wt);
    free(arb_of);
    free(arrived);
    free(lastf);
    free(touched);
    free(items);
    return st;
}
