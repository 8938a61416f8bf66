/* Unrolled scan schedules (issue 27 item 4): K operations of the certified
 * packing of prefix structures (steady.h, ssched_scan_structure_t).
 *
 * Assignment.  Operation q runs one structure: the one furthest below its
 * share, argmax_s (q + 1) x_s - TP n_s (x_s its rate, TP = sum x_s, n_s the
 * operations given to s so far; ties to the first).  After q operations
 * every n_s is within one of q x_s / TP (the apportionment of RR-4872
 * section 4.6), so the operations' summed load on any port, link or
 * processor is at most K / TP plus one operation per structure: the
 * master's rows (sum_s x_s load_s(r) <= 1) bound the average.
 *
 * Placement.  Operations in order; inside one, list scheduling: among the
 * sends and tasks whose inputs are there (v[k,k] at r_k from time 0; a
 * value at a node from the end of the event that made it or brought it),
 * the one that can start first is placed at that start, exact rationals.
 * A resource is reserved append-only: a one-port host's send and receive
 * ports, the link of an edge at a switch ("ports": "multi"), a processor
 * (one task at a time); a transfer over e lasts l(e) + size c(e) and holds
 * its ports only in its bandwidth phase [start + l(e), end) (docs/model.md,
 * "Latency").  A value is kept at a node once there, so it can be sent
 * again (copies) and merged: the structure's sends and tasks are exactly
 * the events of the operation.  Every resource serves the operations in
 * order, so the makespan is the longest chain of events linked by a
 * resource or by data; along it each resource's events are at most its
 * load over the operations it spans, hence makespan <= K / TP + a term
 * independent of K when the structures share their bottleneck (measured:
 * bench/scan.sh, tests/test_scan_unroll.c).
 *
 * The graph model (switches included); routed platforms are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stddef.h>

#include "schedule/internal.h"
#include "schedule/scan_internal.h"
#include "src/util/internal.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"

/* A resource's busy intervals [lo, hi), disjoint, sorted. */
typedef struct {
    mpq_t *lo, *hi;
    size_t n, cap;
} tl_t;

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    size_t N, nI, nn;
    tl_t *res;                 /* send ports, receive ports, processors
                                  (nn each), then switch links (per edge) */
    mpq_t *avail;              /* nn x nI: when the value is at the node    */
    unsigned *stamp;           /* avail[x] is set iff stamp[x] == cur       */
    unsigned cur;
    mpq_t t, u, best, dur;
    /* modulo placement (a pattern repeated every P): resources hold the
     * offsets in [0, P) of what one pattern uses; fail: no room */
    int modulo, fail;
    mpq_t P, off, t0, v;
} scan_ctx_t;

/* v[k,m]'s type: intervals in row order (k, then m), sum_{k' < k} (N - k')
 * before row k. */
static size_t iv(const scan_ctx_t *c, size_t k, size_t m)
{
    return k == 0 ? m : k * c->N - k * (k - 1) / 2 + (m - k);
}

/* The first interval of r ending after t: it conflicts with [t, t + d)
 * when it starts before t + d (or at t for an empty one, as the checker's
 * check_ports.c counts a point); then the earliest later start is its end. */
static int conflict(const tl_t *r, const mpq_t t, const mpq_t td, int empty, size_t *at)
{
    size_t a = 0, b = r->n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (mpq_cmp(r->hi[mid], t) > 0)
            b = mid;
        else
            a = mid + 1;
    }
    *at = a;
    if (a == r->n)
        return 0;
    int c = mpq_cmp(r->lo[a], td) < 0;
    return c || (empty && mpq_cmp(r->lo[a], t) <= 0);
}

/* The least t' >= t at which [t', t' + d) is idle on every resource of
 * rs[0..n) (gaps between earlier events are used). */
static void fit_mod(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d);

static void fit(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    if (c->modulo) {
        fit_mod(c, rs, n, t, d);
        return;
    }
    int empty = mpq_sgn(d) == 0, moved = 1;
    while (moved) {
        moved = 0;
        for (int k = 0; k < n; k++) {
            size_t at;
            for (;;) {
                mpq_add(c->u, t, d);
                if (!conflict(rs[k], t, c->u, empty, &at))
                    break;
                mpq_set(t, rs[k]->hi[at]);
                moved = 1;
            }
        }
    }
}

/* t mod P into c->off. */
static void mod_p(scan_ctx_t *c, const mpq_t t)
{
    mpq_div(c->off, t, c->P);
    mpz_fdiv_q(mpq_numref(c->v), mpq_numref(c->off), mpq_denref(c->off));
    mpz_set_ui(mpq_denref(c->v), 1);
    mpq_mul(c->v, c->v, c->P);
    mpq_sub(c->off, t, c->v);
}

/* fit() for a pattern repeated every P: [t, t + d) taken modulo P (in
 * one or two pieces) must miss every offset interval held; c->fail when a
 * whole period was scanned without room. */
/* Is [t, t + d) modulo P idle on r?  Touches c->off, c->u, c->v. */
static int idle_mod(scan_ctx_t *c, const tl_t *r, const mpq_t t, const mpq_t d)
{
    size_t at;
    int empty = mpq_sgn(d) == 0;
    mod_p(c, t);
    mpq_add(c->u, c->off, d);
    if (mpq_cmp(c->u, c->P) <= 0)
        return !conflict(r, c->off, c->u, empty, &at);
    if (conflict(r, c->off, c->P, 0, &at))
        return 0;
    mpq_sub(c->u, c->u, c->P);
    mpq_set_ui(c->v, 0, 1);
    return !conflict(r, c->v, c->u, 0, &at);
}

/* Modulo placement packs a saturated resource only if its events abut:
 * a start at t (ready) may leave a sliver before it that no later event
 * fills.  So the candidates are t and, on each resource, every start in
 * [t, t + P) whose offset is the end of an interval held there (left
 * adjacent) or whose end's offset is the start of one (right adjacent);
 * the idle candidate adjacent on the most resources wins, the earliest
 * at a tie.  0 when none is idle (then fit_mod's scan). */
static int fit_adjacent(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    mpq_t cand, best, base;
    mpq_inits(cand, best, base, NULL);
    mpq_set(base, t);
    mod_p(c, base);
    mpq_t base_off;
    mpq_init(base_off);
    mpq_set(base_off, c->off);
    int best_score = -1;
    for (int k = 0; k < n; k++)
        for (size_t x = 0; x <= 2 * rs[k]->n; x++) {
            if (x == 0) {
                if (k > 0)
                    continue;
                mpq_set(cand, base);
            } else {
                /* the target offset: an end, or a start less d */
                size_t i = (x - 1) / 2;
                if ((x - 1) % 2 == 0)
                    mpq_set(cand, rs[k]->hi[i]);
                else
                    mpq_sub(cand, rs[k]->lo[i], d);
                mpq_sub(cand, cand, base_off); /* offset difference */
                mod_p(c, cand);
                mpq_add(cand, base, c->off);
            }
            int ok = 1;
            for (int j = 0; j < n && ok; j++)
                ok = idle_mod(c, rs[j], cand, d);
            if (!ok)
                continue;
            int score = 0;
            mod_p(c, cand);
            mpq_set(c->t0, c->off);
            for (int j = 0; j < n; j++) {
                int adj = 0;
                mpq_add(c->u, c->t0, d);
                if (mpq_cmp(c->u, c->P) >= 0)
                    mpq_sub(c->u, c->u, c->P);
                for (size_t i = 0; i < rs[j]->n && !adj; i++)
                    adj = mpq_equal(rs[j]->hi[i], c->t0) || mpq_equal(rs[j]->lo[i], c->u) ||
                          (mpq_sgn(c->t0) == 0 && mpq_equal(rs[j]->hi[i], c->P));
                score += adj;
            }
            if (score > best_score || (score == best_score && mpq_cmp(cand, best) < 0)) {
                best_score = score;
                mpq_set(best, cand);
            }
        }
    if (best_score >= 0)
        mpq_set(t, best);
    mpq_clears(cand, best, base, base_off, NULL);
    return best_score >= 0;
}

static void fit_mod(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    if (fit_adjacent(c, rs, n, t, d))
        return;
    int empty = mpq_sgn(d) == 0, moved = 1;
    mpq_set(c->t0, t);
    mpq_add(c->t0, c->t0, c->P);
    while (moved && !c->fail) {
        moved = 0;
        for (int k = 0; k < n && !c->fail; k++) {
            size_t at;
            for (;;) {
                mod_p(c, t);
                mpq_add(c->u, c->off, d);
                if (mpq_cmp(c->u, c->P) <= 0) {
                    if (!conflict(rs[k], c->off, c->u, empty, &at))
                        break;
                    mpq_sub(c->v, rs[k]->hi[at], c->off);
                } else if (conflict(rs[k], c->off, c->P, 0, &at)) {
                    mpq_sub(c->v, rs[k]->hi[at], c->off);
                } else {
                    mpq_sub(c->u, c->u, c->P);
                    mpq_set_ui(c->v, 0, 1);
                    if (!conflict(rs[k], c->v, c->u, 0, &at))
                        break;
                    mpq_sub(c->v, c->P, c->off);
                    mpq_add(c->v, c->v, rs[k]->hi[at]);
                }
                mpq_add(t, t, c->v);
                moved = 1;
                if (mpq_cmp(t, c->t0) > 0) {
                    c->fail = 1;
                    break;
                }
            }
        }
    }
}

/* Take [lo, hi) on r; 0 on out of memory. */
static int take(tl_t *r, const mpq_t lo, const mpq_t hi)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        mpq_t *a = realloc(r->lo, cap * sizeof *a), *b;
        if (!a)
            return 0;
        r->lo = a;
        if (!(b = realloc(r->hi, cap * sizeof *b)))
            return 0;
        r->hi = b;
        for (size_t x = r->cap; x < cap; x++)
            mpq_inits(r->lo[x], r->hi[x], NULL);
        r->cap = cap;
    }
    size_t pos = r->n;
    while (pos > 0 && mpq_cmp(r->lo[pos - 1], lo) > 0)
        pos--;
    /* rotate the spare initialised slot r->n into pos */
    __mpq_struct sl = r->lo[r->n][0], sh = r->hi[r->n][0];
    memmove(&r->lo[pos + 1], &r->lo[pos], (r->n - pos) * sizeof *r->lo);
    memmove(&r->hi[pos + 1], &r->hi[pos], (r->n - pos) * sizeof *r->hi);
    r->lo[pos][0] = sl;
    r->hi[pos][0] = sh;
    mpq_set(r->lo[pos], lo);
    mpq_set(r->hi[pos], hi);
    r->n++;
    return 1;
}

/* Hold [lo, hi) on r, modulo P when the placement is modulo. */
static int hold(scan_ctx_t *c, tl_t *r, const mpq_t lo, const mpq_t hi)
{
    if (!c->modulo)
        return take(r, lo, hi);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mod_p(c, lo);
    mpq_set(a, c->off);
    mpq_sub(b, hi, lo);
    mpq_add(b, b, a);
    int ok;
    if (mpq_cmp(b, c->P) <= 0) {
        ok = take(r, a, b);
    } else {
        ok = take(r, a, c->P);
        mpq_sub(b, b, c->P);
        mpq_set_ui(a, 0, 1);
        ok = ok && take(r, a, b);
    }
    mpq_clears(a, b, NULL);
    return ok;
}

/* The resources of a transfer over e (bandwidth phase) into rs. */
static int transfer_res(scan_ctx_t *c, size_t e, tl_t **rs)
{
    const ssched_platform_t *p = c->p;
    size_t a = p->from[e], b = p->to[e];
    int ma = p->multiport && p->multiport[a], mb = p->multiport && p->multiport[b], n = 0;
    if (!ma)
        rs[n++] = &c->res[a];
    if (!mb)
        rs[n++] = &c->res[c->nn + b];
    if (ma || mb)
        rs[n++] = &c->res[3 * c->nn + e];
    return n;
}

static int present(const scan_ctx_t *c, size_t node, size_t I)
{
    return c->stamp[node * c->nI + I] == c->cur;
}

/* The earliest start of event x (a send if x < n_sends, else a task) into
 * c->t; 0 if an input is missing. */
static int earliest(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x)
{
    const ssched_platform_t *p = c->p;
    tl_t *rs[3];
    if (x < s->n_sends) {
        const ssched_scan_send_t *d = &s->sends[x];
        size_t e = d->edge, a = p->from[e], I = iv(c, d->k, d->m);
        if (!present(c, a, I))
            return 0;
        /* the bandwidth phase [start + l, end) fits the ports */
        mpq_add(c->t, c->avail[a * c->nI + I], p->l[e]);
        mpq_mul(c->dur, c->pb->size, p->c[e]);
        fit(c, rs, transfer_res(c, e, rs), c->t, c->dur);
        mpq_sub(c->t, c->t, p->l[e]);
        return 1;
    }
    const ssched_scan_task_t *k = &s->tasks[x - s->n_sends];
    size_t I1 = iv(c, k->k, k->l), I2 = iv(c, k->l + 1, k->m), n = k->node;
    if (!present(c, n, I1) || !present(c, n, I2))
        return 0;
    mpq_set(c->t, c->avail[n * c->nI + I1]);
    if (mpq_cmp(c->avail[n * c->nI + I2], c->t) > 0)
        mpq_set(c->t, c->avail[n * c->nI + I2]);
    rs[0] = &c->res[2 * c->nn + n];
    fit(c, rs, 1, c->t, p->w[n]);
    return 1;
}

static void arrive(scan_ctx_t *c, size_t node, size_t I, const mpq_t at)
{
    size_t x = node * c->nI + I;
    if (c->stamp[x] != c->cur || mpq_cmp(at, c->avail[x]) < 0)
        mpq_set(c->avail[x], at);
    c->stamp[x] = c->cur;
}

/* Place operation op on structure s: its events appended to u. */
static ssched_status_t place(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t op,
                             unsigned char *done, ssched_unrolled_t *u, ssched_error_t *err)
{
    const ssched_platform_t *p = c->p;
    size_t n_ev = s->n_sends + s->n_tasks;
    c->cur++;
    for (size_t k = 0; k < c->N; k++) {
        mpq_set_ui(c->t, 0, 1);
        arrive(c, c->pb->participants[k], iv(c, k, k), c->t);
    }
    memset(done, 0, n_ev);
    for (size_t step = 0; step < n_ev; step++) {
        size_t pick = SIZE_MAX;
        for (size_t x = 0; x < n_ev; x++)
            if (!done[x] && earliest(c, s, x) && (pick == SIZE_MAX || mpq_cmp(c->t, c->best) < 0)) {
                pick = x;
                mpq_set(c->best, c->t);
            }
        if (pick == SIZE_MAX)
            return ssched_error_set(err, SSCHED_EINTERNAL, "internal error: scan structure "
                                    "cannot be replayed (an input is never produced)");
        done[pick] = 1;
        if (pick < s->n_sends) {
            const ssched_scan_send_t *d = &s->sends[pick];
            size_t e = d->edge, a = p->from[e], b = p->to[e];
            ssched_timed_transfer_t *tr = &u->transfers[u->n_transfers++];
            mpq_inits(tr->start, tr->end, tr->piece_offset, tr->piece_length, NULL);
            mpq_set(tr->start, c->best);
            mpq_mul(tr->end, c->pb->size, p->c[e]);
            mpq_add(tr->end, tr->end, p->l[e]);
            mpq_add(tr->end, tr->end, c->best);
            mpq_set_ui(tr->piece_length, 1, 1);
            tr->edge = e;
            tr->type = iv(c, d->k, d->m);
            tr->op = op;
            tr->batch = 1;
            tl_t *rs[3];
            int n = transfer_res(c, e, rs);
            mpq_add(c->u, tr->start, p->l[e]);
            for (int r = 0; r < n; r++)
                if (!hold(c, rs[r], c->u, tr->end))
                    return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            (void)a;
            arrive(c, b, tr->type, tr->end);
        } else {
            const ssched_scan_task_t *k = &s->tasks[pick - s->n_sends];
            ssched_timed_computation_t *co = &u->computations[u->n_computations++];
            mpq_inits(co->start, co->end, NULL);
            mpq_set(co->start, c->best);
            mpq_add(co->end, c->best, p->w[k->node]);
            co->node = k->node;
            co->k = k->k;
            co->l = k->l;
            co->m = k->m;
            co->op = op;
            if (!hold(c, &c->res[2 * c->nn + k->node], co->start, co->end))
                return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            arrive(c, k->node, iv(c, k->k, k->m), co->end);
        }
    }
    return SSCHED_OK;
}

/* Events in start order (generation order at equal starts), as the file
 * lists them. */
typedef struct {
    mpq_srcptr start;
    size_t idx;
} key_t_;

static int key_cmp(const void *a, const void *b)
{
    const key_t_ *x = a, *y = b;
    int r = mpq_cmp(x->start, y->start);
    return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

static int sort_events(void *arr, size_t n, size_t size, size_t start_off)
{
    if (n < 2)
        return 1;
    key_t_ *key = ssched_i_alloc(n, sizeof *key);
    char *copy = ssched_i_alloc(n, size);
    if (!key || !copy) {
        free(key);
        free(copy);
        return 0;
    }
    char *base = arr;
    for (size_t x = 0; x < n; x++) {
        key[x].start = *(mpq_t *)(void *)(base + x * size + start_off);
        key[x].idx = x;
    }
    qsort(key, n, sizeof *key, key_cmp);
    for (size_t x = 0; x < n; x++)
        memcpy(copy + x * size, base + key[x].idx * size, size); /* moves the mpq_t */
    memcpy(base, copy, n * size);
    free(key);
    free(copy);
    return 1;
}

static void ctx_free(scan_ctx_t *c)
{
    for (size_t r = 0; c->res && r < 3 * c->nn + c->p->n_edges; r++) {
        for (size_t x = 0; x < c->res[r].cap; x++)
            mpq_clears(c->res[r].lo[x], c->res[r].hi[x], NULL);
        free(c->res[r].lo);
        free(c->res[r].hi);
    }
    free(c->res);
    for (size_t x = 0; c->avail && x < c->nn * c->nI; x++)
        mpq_clear(c->avail[x]);
    free(c->avail);
    free(c->stamp);
    mpq_clears(c->t, c->u, c->best, c->dur, c->P, c->off, c->t0, c->v, NULL);
}

static mpq_t *q_array(size_t n)
{
    mpq_t *a = ssched_i_alloc(n ? n : 1, sizeof *a);
    for (size_t x = 0; a && x < n; x++)
        mpq_init(a[x]);
    return a;
}

/* The header schedule of the unrolled file: kind scan, the intervals as
 * transfer types, TP the certified achievable throughput. */
static int header_schedule(const ssched_problem_t *pb, const ssched_steady_t *st, size_t N,
                           ssched_schedule_t *s)
{
    s->kind = SSCHED_PROBLEM_SCAN;
    s->n_intervals = N * (N + 1) / 2;
    s->intervals = ssched_i_calloc(s->n_intervals, sizeof *s->intervals);
    if (!s->intervals)
        return 0;
    size_t t = 0;
    for (size_t k = 0; k < N; k++)
        for (size_t m = k; m < N; m++) {
            s->intervals[t].k = k;
            s->intervals[t++].m = m;
        }
    mpq_set(s->throughput, st->throughput);
    mpq_set(s->optimal_throughput, st->throughput);
    mpq_set(s->size, pb->size);
    mpq_inv(s->period, st->throughput);
    mpz_set_ui(s->ops_per_period, 1);
    s->split = 0;
    s->unroll_whole = 1;
    return 1;
}

/* The structure of each of n operations by the deficit rule (above). */
static void assign(scan_ctx_t *c, const ssched_steady_t *st, size_t n, size_t *count,
                   size_t *pick_out)
{
    size_t m = st->n_scan_structures;
    memset(count, 0, m * sizeof *count);
    mpq_t score, bs;
    mpq_inits(score, bs, NULL);
    for (size_t q = 0; q < n; q++) {
        size_t pick = SIZE_MAX;
        for (size_t k = 0; k < m; k++) {
            const ssched_scan_structure_t *x = &st->scan_structures[k];
            if (mpq_sgn(x->rate) <= 0)
                continue;
            /* (q + 1) x_s - TP n_s: how far s is below its share */
            mpq_set_ui(c->t, q + 1, 1);
            mpq_mul(score, c->t, x->rate);
            mpq_set_ui(c->t, count[k], 1);
            mpq_mul(c->t, c->t, st->throughput);
            mpq_sub(score, score, c->t);
            if (pick == SIZE_MAX || mpq_cmp(score, bs) > 0) {
                pick = k;
                mpq_set(bs, score);
            }
        }
        count[pick]++;
        pick_out[q] = pick;
    }
    mpq_clears(score, bs, NULL);
}

static void reset(scan_ctx_t *c)
{
    for (size_t r = 0; r < 3 * c->nn + c->p->n_edges; r++)
        c->res[r].n = 0;
    c->fail = 0;
}

/* Place operations 0..n-1 (structures by assign) into u, emptied first. */
static ssched_status_t run_ops(scan_ctx_t *c, const ssched_steady_t *st, size_t n, int modulo,
                               size_t *count, unsigned char *done, ssched_unrolled_t *u,
                               ssched_error_t *err)
{
    size_t *pick = ssched_i_alloc(n, sizeof *pick);
    if (!pick)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    assign(c, st, n, count, pick);
    reset(c);
    c->modulo = modulo;
    ssched_status_t rc = SSCHED_OK;
    for (size_t q = 0; q < n && rc == SSCHED_OK && !c->fail; q++)
        rc = place(c, &st->scan_structures[pick[q]], q, done, u, err);
    free(pick);
    return rc;
}

/* Move the events of u (not its arrays) into v's arrays, v emptied. */
static void clear_events(ssched_unrolled_t *u)
{
    for (size_t k = 0; k < u->n_transfers; k++)
        mpq_clears(u->transfers[k].start, u->transfers[k].end, u->transfers[k].piece_offset,
                   u->transfers[k].piece_length, NULL);
    for (size_t k = 0; k < u->n_computations; k++)
        mpq_clears(u->computations[k].start, u->computations[k].end, NULL);
    u->n_transfers = u->n_computations = 0;
}

/* c->P := the busiest resource's load over n operations (structures by
 * assign), at least n / TP: no pattern of them repeats faster. */
static int initial_period(scan_ctx_t *c, const ssched_steady_t *st, size_t n, size_t *count,
                          mpq_t *load, size_t *pick)
{
    const ssched_platform_t *p = c->p;
    size_t nr = 3 * c->nn + p->n_edges, m = st->n_scan_structures;
    assign(c, st, n, count, pick);
    for (size_t r = 0; r < nr; r++)
        mpq_set_ui(load[r], 0, 1);
    mpq_set_ui(c->P, n, 1);
    mpq_div(c->P, c->P, st->throughput);
    for (size_t k = 0; k < m; k++) {
        const ssched_scan_structure_t *x = &st->scan_structures[k];
        mpq_set_ui(c->v, count[k], 1);
        for (size_t d = 0; d < x->n_sends; d++) {
            tl_t *rs[3];
            int nrs = transfer_res(c, x->sends[d].edge, rs);
            mpq_mul(c->u, c->pb->size, p->c[x->sends[d].edge]);
            mpq_mul(c->u, c->u, c->v);
            for (int r = 0; r < nrs; r++)
                mpq_add(load[rs[r] - c->res], load[rs[r] - c->res], c->u);
        }
        for (size_t d = 0; d < x->n_tasks; d++) {
            mpq_mul(c->u, p->w[x->tasks[d].node], c->v);
            mpq_add(load[2 * c->nn + x->tasks[d].node], load[2 * c->nn + x->tasks[d].node], c->u);
        }
    }
    for (size_t r = 0; r < nr; r++)
        if (mpq_cmp(load[r], c->P) > 0)
            mpq_set(c->P, load[r]);
    return 1;
}

/* Place n operations modulo c->P into pat, raising P by P/32 while there
 * is no room (at most tries attempts); *placed says whether it fit. */
static ssched_status_t modulo_place(scan_ctx_t *c, const ssched_steady_t *st, size_t n,
                                    size_t *count, unsigned char *done, ssched_unrolled_t *pat,
                                    int tries, int *placed, ssched_error_t *err)
{
    ssched_status_t rc = SSCHED_OK;
    *placed = 0;
    mpq_t step;
    mpq_init(step); /* P0 / 32: the periods stay on a grid of few digits */
    mpq_set_ui(step, 1, 32);
    mpq_mul(step, step, c->P);
    for (int attempt = 0; attempt < tries && rc == SSCHED_OK && !*placed; attempt++) {
        clear_events(pat);
        rc = run_ops(c, st, n, 1, count, done, pat, err);
        *placed = rc == SSCHED_OK && !c->fail;
        if (!*placed) /* no room: a longer period */
            mpq_add(c->P, c->P, step);
    }
    mpq_clear(step);
    c->modulo = 0;
    return rc;
}

/* The modulo pattern: n operations (n = 1..16, at most K) placed modulo P,
 * P from the busiest resource's load over them (initial_period), raised
 * while the placement finds no room; the least P / n wins, repeated:
 * operation bn + j is the pattern's j shifted by bP.  Replaces out's
 * events when out has none or its makespan is less; *ratio := P TP / n
 * (0: no pattern). */
static ssched_status_t try_modulo(scan_ctx_t *c, const ssched_steady_t *st, size_t K,
                                  size_t *count, unsigned char *done, ssched_unrolled_t *out,
                                  mpq_t ratio, ssched_error_t *err)
{
    const ssched_platform_t *p = c->p;
    size_t nmax = K < 16 ? K : 16, nr = 3 * c->nn + p->n_edges, n = 0;
    size_t most = 0;
    for (size_t k = 0; k < st->n_scan_structures; k++)
        if (st->scan_structures[k].n_sends + st->scan_structures[k].n_tasks > most)
            most = st->scan_structures[k].n_sends + st->scan_structures[k].n_tasks;
    size_t *pick = ssched_i_alloc(nmax, sizeof *pick);
    mpq_t *load = q_array(nr);
    ssched_unrolled_t pat;
    ssched_unrolled_init(&pat);
    pat.transfers = ssched_i_alloc(nmax * most + 1, sizeof *pat.transfers);
    pat.computations = ssched_i_alloc(nmax * most + 1, sizeof *pat.computations);
    ssched_status_t rc = SSCHED_OK;
    mpq_t bestP, r;
    mpq_inits(bestP, r, NULL);
    mpq_set_ui(ratio, 0, 1);
    if (!pick || !load || !pat.transfers || !pat.computations) {
        rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t nn = 1; nn <= nmax && rc == SSCHED_OK; nn++) {
        initial_period(c, st, nn, count, load, pick);
        mpq_set_ui(r, nn, 1);
        mpq_div(r, c->P, r);
        mpq_mul(r, r, st->throughput);
        if (n && mpq_cmp(r, ratio) >= 0)
            continue; /* cannot beat the best */
        int placed;
        rc = modulo_place(c, st, nn, count, done, &pat, 24, &placed, err);
        if (rc != SSCHED_OK || !placed)
            continue;
        mpq_set_ui(r, nn, 1);
        mpq_div(r, c->P, r);
        mpq_mul(r, r, st->throughput);
        if (!n || mpq_cmp(r, ratio) < 0) {
            n = nn;
            mpq_set(ratio, r);
            mpq_set(bestP, c->P);
        }
        if (mpq_cmp_ui(ratio, 1, 1) <= 0)
            break; /* the certified TP itself */
    }
    if (getenv("SSCHED_SCAN_DEBUG"))
        fprintf(stderr, "modulo: n %zu P*TP/n %.6f\n", n, mpq_get_d(ratio));
    int placed = 0;
    if (rc == SSCHED_OK && n) {
        mpq_set(c->P, bestP);
        rc = modulo_place(c, st, n, count, done, &pat, 1, &placed, err);
    }
    if (rc != SSCHED_OK || !placed) {
        mpq_set_ui(ratio, 0, 1);
        goto done;
    }
    /* the repeated pattern's makespan: the pattern's events shifted */
    size_t *t_first = ssched_i_calloc(n + 1, sizeof *t_first);
    size_t *c_first = ssched_i_calloc(n + 1, sizeof *c_first);
    if (!t_first || !c_first) {
        free(t_first);
        free(c_first);
        rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    /* place() appends each operation's events in turn */
    for (size_t k = 0; k < pat.n_transfers; k++)
        t_first[pat.transfers[k].op + 1] = k + 1;
    for (size_t k = 0; k < pat.n_computations; k++)
        c_first[pat.computations[k].op + 1] = k + 1;
    for (size_t j = 1; j <= n; j++) {
        if (t_first[j] < t_first[j - 1])
            t_first[j] = t_first[j - 1];
        if (c_first[j] < c_first[j - 1])
            c_first[j] = c_first[j - 1];
    }
    mpq_t mk, best, shift;
    mpq_inits(mk, best, shift, NULL);
    for (size_t k = 0; k < out->n_transfers; k++)
        if (mpq_cmp(out->transfers[k].end, best) > 0)
            mpq_set(best, out->transfers[k].end);
    for (size_t k = 0; k < out->n_computations; k++)
        if (mpq_cmp(out->computations[k].end, best) > 0)
            mpq_set(best, out->computations[k].end);
    for (size_t j = 0; j < n; j++) {
        size_t lastb = (K - 1 - j) / n; /* the last block holding op j */
        mpq_set_ui(shift, lastb, 1);
        mpq_mul(shift, shift, c->P);
        for (size_t k = t_first[j]; k < t_first[j + 1]; k++) {
            mpq_add(c->u, pat.transfers[k].end, shift);
            if (mpq_cmp(c->u, mk) > 0)
                mpq_set(mk, c->u);
        }
        for (size_t k = c_first[j]; k < c_first[j + 1]; k++) {
            mpq_add(c->u, pat.computations[k].end, shift);
            if (mpq_cmp(c->u, mk) > 0)
                mpq_set(mk, c->u);
        }
    }
    if ((!out->n_transfers && !out->n_computations) || mpq_cmp(mk, best) < 0) {
        clear_events(out);
        for (size_t q = 0; q < K; q++) {
            size_t j = q % n;
            mpq_set_ui(shift, q / n, 1);
            mpq_mul(shift, shift, c->P);
            for (size_t k = t_first[j]; k < t_first[j + 1]; k++) {
                ssched_timed_transfer_t *a = &out->transfers[out->n_transfers++], *b = &pat.transfers[k];
                mpq_inits(a->start, a->end, a->piece_offset, a->piece_length, NULL);
                mpq_add(a->start, b->start, shift);
                mpq_add(a->end, b->end, shift);
                mpq_set_ui(a->piece_length, 1, 1);
                a->edge = b->edge;
                a->type = b->type;
                a->op = q;
                a->batch = 1;
            }
            for (size_t k = c_first[j]; k < c_first[j + 1]; k++) {
                ssched_timed_computation_t *a = &out->computations[out->n_computations++];
                const ssched_timed_computation_t *b = &pat.computations[k];
                mpq_inits(a->start, a->end, NULL);
                mpq_add(a->start, b->start, shift);
                mpq_add(a->end, b->end, shift);
                a->node = b->node;
                a->k = b->k;
                a->l = b->l;
                a->m = b->m;
                a->op = q;
            }
        }
    }
    mpq_clears(mk, best, shift, NULL);
    free(t_first);
    free(c_first);
done:
    for (size_t x = 0; load && x < nr; x++)
        mpq_clear(load[x]);
    free(load);
    free(pick);
    mpq_clears(bestP, r, NULL);
    ssched_unrolled_free(&pat);
    return rc;
}

/* The end of u's last event into t (0 when u has none). */
static void end_of(const ssched_unrolled_t *u, mpq_t t)
{
    mpq_set_ui(t, 0, 1);
    for (size_t k = 0; k < u->n_transfers; k++)
        if (mpq_cmp(u->transfers[k].end, t) > 0)
            mpq_set(t, u->transfers[k].end);
    for (size_t k = 0; k < u->n_computations; k++)
        if (mpq_cmp(u->computations[k].end, t) > 0)
            mpq_set(t, u->computations[k].end);
}

/* out takes g's events when it has none or g ends strictly earlier (g
 * then holds out's, freed by the caller). */
static void keep_shorter(ssched_unrolled_t *out, ssched_unrolled_t *g)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    end_of(out, a);
    end_of(g, b);
    if ((!out->n_transfers && !out->n_computations) || mpq_cmp(b, a) < 0) {
        ssched_unrolled_t t = *out;
        out->transfers = g->transfers;
        out->computations = g->computations;
        out->n_transfers = g->n_transfers;
        out->n_computations = g->n_computations;
        g->transfers = t.transfers;
        g->computations = t.computations;
        g->n_transfers = t.n_transfers;
        g->n_computations = t.n_computations;
    }
    mpq_clears(a, b, NULL);
}

ssched_status_t ssched_scan_unroll(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *st, size_t K, ssched_schedule_t *s,
                                   ssched_unrolled_t *out, ssched_error_t *err)
{
    if (pb->kind != SSCHED_PROBLEM_SCAN || st->kind != SSCHED_PROBLEM_SCAN)
        return ssched_error_set(err, SSCHED_EINPUT, "scan unroll: the problem is not a scan");
    if (p->routes)
        return ssched_error_set(err, SSCHED_EINPUT, "scan: --unroll supports the graph model "
                                "only (not --model routed) so far");
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "unroll: K must be at least 1");
    if (!st->n_scan_structures || mpq_sgn(st->throughput) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "scan: the solution has no prefix "
                                "structures to unroll (solve with --method colgen or auto)");
    size_t N = pb->n_participants, m = st->n_scan_structures, most = 0;
    for (size_t k = 0; k < m; k++)
        if (st->scan_structures[k].n_sends + st->scan_structures[k].n_tasks > most)
            most = st->scan_structures[k].n_sends + st->scan_structures[k].n_tasks;
    if (K > (size_t)50000000 / (most ? most : 1))
        return ssched_error_set(err, SSCHED_EINPUT, "scan: --operations %zu would hold about "
                                "%zu events in memory (at most 5*10^7)", K, K * most);
    scan_ctx_t c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.pb = pb;
    c.N = N;
    c.nI = N * (N + 1) / 2;
    c.nn = p->n_nodes;
    mpq_inits(c.t, c.u, c.best, c.dur, c.P, c.off, c.t0, c.v, NULL);
    c.res = ssched_i_calloc(3 * c.nn + p->n_edges, sizeof *c.res);
    c.avail = q_array(c.nn * c.nI);
    c.stamp = ssched_i_calloc(c.nn * c.nI, sizeof *c.stamp);
    size_t *count = ssched_i_calloc(m, sizeof *count);
    unsigned char *done = ssched_i_alloc(most ? most : 1, 1);
    ssched_status_t rc = SSCHED_OK;
    ssched_unrolled_free(out);
    ssched_unrolled_init(out);
    out->transfers = ssched_i_alloc(K * most + 1, sizeof *out->transfers);
    out->computations = ssched_i_alloc(K * most + 1, sizeof *out->computations);
    if (!c.res || !c.avail || !c.stamp ||
        !count || !done || !out->transfers || !out->computations || !header_schedule(pb, st, N, s))
        rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* the greedy placement of every operation, then a modulo pattern
     * repeated; the shorter is kept */
    mpq_t ratio;
    mpq_init(ratio);
    if (rc == SSCHED_OK)
        rc = try_modulo(&c, st, K, count, done, out, ratio, err);
    /* the greedy placement when the pattern is missing or slow, or K is
     * small (the pattern's start-up then weighs): the shorter is kept */
    mpq_set_ui(c.v, 21, 20);
    if (rc == SSCHED_OK && (mpq_sgn(ratio) == 0 || mpq_cmp(ratio, c.v) > 0 || K <= 200)) {
        ssched_unrolled_t g;
        ssched_unrolled_init(&g);
        g.transfers = ssched_i_alloc(K * most + 1, sizeof *g.transfers);
        g.computations = ssched_i_alloc(K * most + 1, sizeof *g.computations);
        if (!g.transfers || !g.computations)
            rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        if (rc == SSCHED_OK)
            rc = run_ops(&c, st, K, 0, count, done, &g, err);
        if (rc == SSCHED_OK)
            keep_shorter(out, &g);
        ssched_unrolled_free(&g);
    }
    mpq_clear(ratio);
    if (rc == SSCHED_OK &&
        (!sort_events(out->transfers, out->n_transfers, sizeof *out->transfers,
                      offsetof(ssched_timed_transfer_t, start)) ||
         !sort_events(out->computations, out->n_computations, sizeof *out->computations,
                      offsetof(ssched_timed_computation_t, start))))
        rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (rc == SSCHED_OK)
        rc = ssched_i_scan_figures(p, pb, st, K, out, err);
    free(count);
    free(done);
    ctx_free(&c);
    return rc;
}
