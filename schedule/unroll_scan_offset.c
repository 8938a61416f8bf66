/* Offset-first modulo placement of the unrolled scan's pattern (the idea of
 * iterative modulo scheduling, B. R. Rau, MICRO-27, 1994: resources first,
 * times after).
 *
 * In a pattern of n operations repeated every P, an event's absolute start
 * only matters modulo P for the resources, and a value that is late only
 * delays the event by whole periods.  So the placement works in two phases:
 *
 * 1. Offsets.  The events of the n operations, most loaded resource first
 *    (an event's key: the largest load over n operations among the
 *    resources it holds; ties in operation and event order), each take the
 *    least offset o in [0, P) where [o, o + d) modulo P is idle on all its
 *    resources, among 0 and the ends of intervals held there
 *    (ssched_i_scan_first_offset).  The busiest resource, placed first, is
 *    packed back to back from 0: a resource whose load is exactly P (the
 *    bottleneck of a single structure at P = 1 / TP) fills its period with
 *    no sliver, which placing events in data order (run_ops modulo) does
 *    not ensure.  Fails when an event finds no room (the caller raises P).
 * 2. Times.  Each operation of the pattern is list-scheduled as in the
 *    greedy (among events whose inputs are there, the earliest start
 *    first): event x starts at the least s >= ready with s + lat = o (mod
 *    P), lat its latency (the resources are held from s + lat).  The
 *    resources held are disjoint modulo P by phase 1, so every repetition
 *    of the pattern is too; data arrive before use by construction.
 *
 * Cost: phase 1 tries O(events) offsets per event, each O(log) per
 * resource: O(E^2 log E) for E = n x events per structure, independent of
 * K (the pattern is then copied K / n times). */
#include <stdlib.h>
#include <string.h>

#include "schedule/scan_internal.h"
#include "src/util/internal.h"

typedef struct {
    mpq_srcptr key;
    size_t idx;
} ord_t;

/* Larger key first, then the event order. */
static int ord_cmp(const void *a, const void *b)
{
    const ord_t *x = a, *y = b;
    int r = mpq_cmp(y->key, x->key);
    return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Phase 2 for operation q (structure s, offsets off): its events into pat. */
static ssched_status_t times(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t q,
                             mpq_t *off, const unsigned char *fixed, unsigned char *done,
                             ssched_unrolled_t *pat, ssched_error_t *err)
{
    size_t n_ev = s->n_sends + s->n_tasks;
    tl_t *rs[3];
    mpq_t st, k;
    mpq_inits(st, k, NULL);
    ssched_i_scan_begin_op(c);
    memset(done, 0, n_ev);
    ssched_status_t rc = SSCHED_OK;
    for (size_t step = 0; step < n_ev && rc == SSCHED_OK; step++) {
        size_t pick = SIZE_MAX;
        for (size_t x = 0; x < n_ev; x++) {
            if (done[x] || !ssched_i_scan_ready(c, s, x, st))
                continue;
            int nrs = ssched_i_scan_event(c, s, x, rs, c->lat, c->dur);
            mpq_add(st, st, c->lat);
            if (!fixed[x]) { /* the earliest room modulo P */
                ssched_i_scan_fit_earliest(c, rs, nrs, st, c->dur);
                if (c->fail)
                    break;
                mpq_sub(st, st, c->lat);
                if (pick == SIZE_MAX || mpq_cmp(st, c->best) < 0) {
                    pick = x;
                    mpq_set(c->best, st);
                }
                continue;
            }
            /* s + lat = off + j P, j = ceil((ready + lat - off) / P) >= 0 */
            mpq_sub(k, st, off[x]);
            if (mpq_sgn(k) <= 0) {
                mpq_set_ui(k, 0, 1);
            } else {
                mpq_div(k, k, c->P);
                mpz_cdiv_q(mpq_numref(k), mpq_numref(k), mpq_denref(k));
                mpz_set_ui(mpq_denref(k), 1);
                mpq_mul(k, k, c->P);
            }
            mpq_add(st, k, off[x]);
            mpq_sub(st, st, c->lat);
            if (pick == SIZE_MAX || mpq_cmp(st, c->best) < 0) {
                pick = x;
                mpq_set(c->best, st);
            }
        }
        if (c->fail)
            break;
        if (pick == SIZE_MAX) {
            rc = ssched_error_set(err, SSCHED_EINTERNAL, "internal error: scan structure "
                                  "cannot be replayed (an input is never produced)");
            break;
        }
        done[pick] = 1;
        rc = ssched_i_scan_emit(c, s, pick, q, c->best, !fixed[pick], pat, err);
    }
    mpq_clears(st, k, NULL);
    return rc;
}

ssched_status_t ssched_i_scan_offset_place(scan_ctx_t *c, const ssched_steady_t *st, size_t n,
                                           int hybrid, size_t *count, ssched_unrolled_t *pat,
                                           int *placed, ssched_error_t *err)
{
    size_t nr = 3 * c->nn + c->p->n_edges, E = 0, most = 1;
    *placed = 0;
    size_t *pick = ssched_i_alloc(n, sizeof *pick);
    if (!pick)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_i_scan_assign(c, st, n, count, pick);
    for (size_t q = 0; q < n; q++) {
        const ssched_scan_structure_t *s = &st->scan_structures[pick[q]];
        E += s->n_sends + s->n_tasks;
        if (s->n_sends + s->n_tasks > most)
            most = s->n_sends + s->n_tasks;
    }
    mpq_t *load = ssched_i_scan_q_array(nr), *key = ssched_i_scan_q_array(E);
    mpq_t *off = ssched_i_scan_q_array(E);
    ord_t *ord = ssched_i_alloc(E ? E : 1, sizeof *ord);
    size_t *first = ssched_i_alloc(n + 1, sizeof *first);
    unsigned char *done = ssched_i_alloc(most, 1), *fixed = ssched_i_calloc(E ? E : 1, 1);
    ssched_status_t rc = SSCHED_OK;
    if (!load || !key || !off || !ord || !first || !done || !fixed) {
        rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t r = 0; r < nr; r++)
        c->res[r].n = c->res[r].dense = 0;
    c->fail = 0;
    c->modulo = 1;
    tl_t *rs[3];
    /* the loads over the n operations, then each event's key */
    for (int pass = 0; pass < 2; pass++)
        for (size_t q = 0, e = 0; q < n; q++) {
            const ssched_scan_structure_t *s = &st->scan_structures[pick[q]];
            first[q] = e;
            for (size_t x = 0; x < s->n_sends + s->n_tasks; x++, e++) {
                int nrs = ssched_i_scan_event(c, s, x, rs, c->lat, c->dur);
                for (int j = 0; j < nrs; j++) {
                    mpq_t *l = &load[rs[j] - c->res];
                    if (pass == 0)
                        mpq_add(*l, *l, c->dur);
                    else if (mpq_cmp(*l, key[e]) > 0)
                        mpq_set(key[e], *l);
                }
                ord[e].key = key[e];
                ord[e].idx = e;
            }
        }
    first[n] = E;
    qsort(ord, E, sizeof *ord, ord_cmp);
    /* phase 1: the offsets */
    int ok = 1;
    for (size_t i = 0; i < E && ok && rc == SSCHED_OK; i++) {
        if (hybrid && mpq_cmp(ord[i].key, ord[0].key) < 0)
            break; /* hybrid: only the busiest resources' events */
        size_t e = ord[i].idx, q = 0;
        fixed[e] = 1;
        while (first[q + 1] <= e)
            q++;
        const ssched_scan_structure_t *s = &st->scan_structures[pick[q]];
        int nrs = ssched_i_scan_event(c, s, e - first[q], rs, c->lat, c->dur);
        ok = ssched_i_scan_first_offset(c, rs, nrs, c->dur, off[e]);
        mpq_add(c->t, off[e], c->dur);
        for (int j = 0; j < nrs && ok; j++)
            if (!ssched_i_scan_hold(c, rs[j], off[e], c->t))
                rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    /* phase 2: the times, operation by operation */
    for (size_t q = 0; q < n && ok && rc == SSCHED_OK; q++)
        rc = times(c, &st->scan_structures[pick[q]], q, off + first[q], fixed + first[q], done,
                   pat, err);
    *placed = ok && rc == SSCHED_OK && !c->fail;
out:
    for (size_t x = 0; load && x < nr; x++)
        mpq_clear(load[x]);
    for (size_t x = 0; key && x < E; x++)
        mpq_clear(key[x]);
    for (size_t x = 0; off && x < E; x++)
        mpq_clear(off[x]);
    free(load);
    free(key);
    free(off);
    free(ord);
    free(first);
    free(done);
    free(fixed);
    free(pick);
    c->modulo = 0;
    return rc;
}
