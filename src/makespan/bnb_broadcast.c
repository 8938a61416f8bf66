/* Optimal broadcast by branch-and-bound over receive sequences
 * (seed 002 §5).
 *
 * With no idle processor (Theorem 4.1) a broadcast is fixed by the order in
 * which processors become ready (eq. (1)); processors of equal time are
 * interchangeable, so the search tree is over sequences of time classes.  A
 * node keeps the informed processors' next completion times in a heap.
 *
 * Techniques (options):
 *  - theory_order: children fastest class first, so the first leaf is FNF;
 *  - theory_prune: Theorem 4.2 — no non-source sender is slower than its
 *    receiver.  Receptions that happen at the same instant can be matched to
 *    the senders completing then in any way, so a batch is rejected only
 *    when no such matching exists (sorted senders vs sorted receivers; the
 *    source matches anyone).  When the source is a fastest processor,
 *    Theorem 4.3 also applies: all fastest processors are served first;
 *  - bound: prune when the last ready time (the partial cost) reaches the
 *    best makespan; with strong_bound, the relaxation in which every
 *    remaining processor has the smallest remaining time, where serving the
 *    earliest completions first is optimal;
 *  - symmetry: receptions at the same instant give the same state in any
 *    order, so only fastest-first order is explored among them. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

typedef struct {
    int64_t time; /* next send completion          */
    int64_t tick; /* the sender's time             */
    int src;      /* the sender is the source      */
} slot_t;

typedef struct {
    int64_t ready;     /* ready time of the last receiver (partial cost)    */
    int64_t batch;     /* instant of the current batch of receptions        */
    size_t nslot;      /* informed processors (heap size)                  */
    size_t nbs, nbr;   /* batch senders (ticks, source = 0) and receivers   */
    size_t last_cls;   /* class of the last receiver                        */
} bstate_t;

typedef struct {
    mk_bnb_t b;        /* classes, counts, sequences (mirrored.c) */
    size_t cap;
    int src_fastest;
    bstate_t *st;
    slot_t *heap;      /* (m+1) x cap */
    int64_t *bs, *br;  /* (m+1) x cap each: sorted batch ticks */
    slot_t *scratch;   /* bound simulation */
} bsearch_t;

/* Heap order of send completions (ties: faster sender first). */
static int slot_lt(const slot_t *a, const slot_t *b)
{
    return a->time < b->time || (a->time == b->time && a->tick < b->tick);
}

static void heap_push(slot_t *h, size_t *n, slot_t x)
{
    size_t i = (*n)++;
    while (i > 0 && slot_lt(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static slot_t heap_pop(slot_t *h, size_t *n)
{
    slot_t top = h[0], x = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const slot_t *best = &x;
        if (l < *n && slot_lt(&h[l], best))
            best = &h[m = l];
        if (r < *n && slot_lt(&h[r], best))
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    if (*n > 0)
        h[i] = x;
    return top;
}

/* Insert v into the ascending array a of *n entries. */
static void insert_sorted(int64_t *a, size_t *n, int64_t v)
{
    size_t i = (*n)++;
    while (i > 0 && a[i - 1] > v) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = v;
}

/* Relaxed lower bound: the remaining processors all take the smallest
 * remaining time; the last of them is ready at the returned instant. */
static int64_t relaxed_bound(bsearch_t *S, const bstate_t *t, const slot_t *h)
{
    size_t left = 0;
    int64_t tmin = MK_INF;
    for (size_t j = 0; j < S->b.k->k; j++)
        if (S->b.remain[j]) {
            left += S->b.remain[j];
            if (S->b.k->tick[j] < tmin)
                tmin = S->b.k->tick[j];
        }
    if (left == 0)
        return t->ready;
    size_t n = t->nslot;
    memcpy(S->scratch, h, n * sizeof *h);
    int64_t last = t->ready;
    while (left-- > 0) {
        slot_t s = heap_pop(S->scratch, &n);
        last = s.time;
        heap_push(S->scratch, &n, (slot_t){s.time + s.tick, s.tick, s.src});
        heap_push(S->scratch, &n, (slot_t){s.time + tmin, tmin, 0});
    }
    return last;
}

/* State after appending a receiver of class j to the prefix of state d;
 * returns 0 if Theorem 4.2 rejects the batch. */
static int extend(bsearch_t *S, size_t d, size_t j)
{
    const bstate_t *s = &S->st[d];
    bstate_t *t = &S->st[d + 1];
    const slot_t *h0 = S->heap + d * S->cap;
    slot_t *h = S->heap + (d + 1) * S->cap;
    int64_t *bs = S->bs + (d + 1) * S->cap, *br = S->br + (d + 1) * S->cap;
    *t = *s;
    memcpy(h, h0, s->nslot * sizeof *h);
    int64_t tau = h[0].time;
    if (d == 0 || tau != s->batch) {
        /* A new instant: the senders completing now are fixed already. */
        t->batch = tau;
        t->nbs = t->nbr = 0;
        for (size_t i = 0; i < s->nslot; i++)
            if (h[i].time == tau)
                insert_sorted(bs, &t->nbs, h[i].src ? 0 : h[i].tick);
    } else {
        memcpy(bs, S->bs + d * S->cap, s->nbs * sizeof *bs);
        memcpy(br, S->br + d * S->cap, s->nbr * sizeof *br);
    }
    int64_t tick = S->b.k->tick[j];
    insert_sorted(br, &t->nbr, tick);
    if (S->b.opt->theory_prune)
        for (size_t i = 0; i < t->nbr; i++)
            if (bs[i] > br[i]) /* no matching: a slower sender must serve a faster receiver */
                return 0;
    slot_t e = heap_pop(h, &t->nslot);
    heap_push(h, &t->nslot, (slot_t){tau + e.tick, e.tick, e.src});
    heap_push(h, &t->nslot, (slot_t){tau + tick, tick, 0});
    t->ready = tau;
    t->last_cls = j;
    return 1;
}

/* Depth-first search below the prefix of length d, as in bnb_reduce.c:
 * Theorem 4.3 and symmetry restrict the children, Theorem 4.2 and the
 * bound prune them. */
static void dfs(bsearch_t *S, size_t d)
{
    const mk_classes_t *k = S->b.k;
    for (size_t r = 0; r < k->k && !S->b.stopped; r++) {
        size_t j = S->b.order[r];
        if (!S->b.remain[j])
            continue;
        /* Theorem 4.3: with a fastest source, fastest processors first. */
        if (S->b.opt->theory_prune && S->src_fastest && j != 0 && S->b.remain[0])
            continue;
        /* Symmetry: this reception happens at the same instant as the last. */
        if (S->b.opt->symmetry && d > 0 && S->heap[d * S->cap].time == S->st[d].ready &&
            j < S->st[d].last_cls)
            continue;
        if (!ssched_i_mk_bnb_visit(&S->b))
            return;
        if (!extend(S, d, j))
            continue;
        S->b.seq[d] = j;
        S->b.remain[j]--;
        const bstate_t *t = &S->st[d + 1];
        if (d + 1 == S->b.m) {
            ssched_i_mk_bnb_leaf(&S->b, t->ready);
        } else {
            int64_t lb = S->b.opt->strong_bound
                             ? relaxed_bound(S, t, S->heap + (d + 1) * S->cap)
                             : t->ready;
            if (lb < S->b.best)
                dfs(S, d + 1);
        }
        S->b.remain[j]++;
    }
}

long double ssched_i_mk_bnb_broadcast_bytes(size_t n)
{
    /* the allocations of ssched_mk_broadcast_bnb below, m = n - 1 receivers */
    long double m = n ? (long double)n - 1 : 0, cap = (long double)n + 2;
    return (m + 1) * cap * (sizeof(slot_t) + 2 * sizeof(int64_t)) + (m + 1) * sizeof(bstate_t) +
           m * 3 * sizeof(size_t) + (2 * (long double)n + 2) * sizeof(slot_t);
}

/* See makespan.h: run the search on classes, then map the best class
 * sequence to processors and re-time it with eq. (1) exactly. */
ssched_status_t ssched_mk_broadcast_bnb(const ssched_mk_cluster_t *c, size_t src,
                                        const ssched_mk_bnb_options_t *opt,
                                        ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                        ssched_error_t *err)
{
    bsearch_t S = {0};
    int done;
    ssched_status_t st = ssched_i_mk_bnb_start(&S.b, c, src, 1, opt, out, stats, &done, err);
    if (st != SSCHED_OK || done)
        return st;
    const mk_classes_t *k = S.b.k;
    size_t m = S.b.m;
    S.cap = c->n + 2;
    S.src_fastest = k->cls[src] == 0 && k->count[0] > 0;
    S.st = malloc((m + 1) * sizeof *S.st);
    S.heap = malloc((m + 1) * S.cap * sizeof *S.heap);
    S.bs = malloc((m + 1) * S.cap * sizeof *S.bs);
    S.br = malloc((m + 1) * S.cap * sizeof *S.br);
    S.scratch = malloc((2 * c->n + 2) * sizeof *S.scratch);
    if (!S.st || !S.heap || !S.bs || !S.br || !S.scratch) {
        st = ssched_i_mk_nomem(err);
    } else {
        S.st[0] = (bstate_t){0, -1, 1, 0, 0, 0};
        S.heap[0] = (slot_t){k->tick[k->cls[src]], k->tick[k->cls[src]], 1};
        dfs(&S, 0);
        st = ssched_i_mk_bnb_finish(&S.b, c, src, out, stats, err);
    }
    free(S.st);
    free(S.heap);
    free(S.bs);
    free(S.br);
    free(S.scratch);
    ssched_i_mk_bnb_free(&S.b);
    return st;
}
