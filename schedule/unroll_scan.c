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
 * Two placements, the shorter kept: a modulo pattern of n <= 16
 * operations repeated every P (unroll_scan_modulo.c; its events placed in
 * data order, or offsets first / hybrid, unroll_scan_offset.c), and the
 * greedy above over all K operations (unroll_scan_greedy.c) when the
 * pattern is slower than 1.05 x K / TP or K <= 200.  Busy intervals and
 * the search for room: unroll_scan_busy.c.  Figures: unroll_scan_fig.c.
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
        mpq_clear(c->res[r].mind);
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
    mpq_clears(c->t, c->u, c->best, c->dur, c->lat, c->P, c->off, c->t0, c->v, NULL);
}

mpq_t *ssched_i_scan_q_array(size_t n)
{
    mpq_t *a = ssched_i_alloc(n ? n : 1, sizeof *a);
    for (size_t x = 0; a && x < n; x++)
        mpq_init(a[x]);
    return a;
}

/* Each resource's least hold (tl_t.mind): size c(e) over the edges whose
 * transfers hold it, w for a processor (0 when none: the dense prefix is
 * then not used). */
static void least_holds(scan_ctx_t *c)
{
    const ssched_platform_t *p = c->p;
    size_t nr = 3 * c->nn + p->n_edges;
    unsigned char *set = ssched_i_calloc(nr, 1);
    for (size_t r = 0; r < nr; r++)
        mpq_init(c->res[r].mind);
    if (!set)
        return; /* all 0: correct, only slower */
    for (size_t e = 0; e < p->n_edges; e++) {
        tl_t *rs[3];
        int n = ssched_i_scan_transfer_res(c, e, rs);
        mpq_mul(c->dur, c->pb->size, p->c[e]);
        for (int k = 0; k < n; k++) {
            size_t r = (size_t)(rs[k] - c->res);
            if (!set[r] || mpq_cmp(c->dur, rs[k]->mind) < 0)
                mpq_set(rs[k]->mind, c->dur);
            set[r] = 1;
        }
    }
    for (size_t v = 0; v < c->nn; v++)
        if (mpq_sgn(p->w[v]) > 0)
            mpq_set(c->res[2 * c->nn + v].mind, p->w[v]);
    free(set);
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
    mpq_inits(c.t, c.u, c.best, c.dur, c.lat, c.P, c.off, c.t0, c.v, NULL);
    c.res = ssched_i_calloc(3 * c.nn + p->n_edges, sizeof *c.res);
    if (c.res)
        least_holds(&c);
    c.avail = ssched_i_scan_q_array(c.nn * c.nI);
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
        rc = ssched_i_scan_try_modulo(&c, st, K, count, done, out, ratio, err);
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
            rc = ssched_i_scan_run_ops(&c, st, K, 0, count, done, &g, err);
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
