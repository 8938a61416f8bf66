/* The greedy placement of the unrolled scan (list scheduling inside one
 * operation, operations in order; schedule/unroll_scan.c gives the rules)
 * and the deficit rule that gives each operation its structure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/scan_internal.h"
#include "src/util/internal.h"

/* The resources of a transfer over e (bandwidth phase) into rs. */
int ssched_i_scan_transfer_res(scan_ctx_t *c, size_t e, tl_t **rs)
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

/* When the inputs of event x (a send if x < n_sends, else a task) are
 * all there, into t; 0 if an input is missing. */
int ssched_i_scan_ready(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x, mpq_t t)
{
    const ssched_platform_t *p = c->p;
    if (x < s->n_sends) {
        const ssched_scan_send_t *d = &s->sends[x];
        size_t a = p->from[d->edge], I = ssched_i_scan_iv(c, d->k, d->m);
        if (!present(c, a, I))
            return 0;
        mpq_set(t, c->avail[a * c->nI + I]);
        return 1;
    }
    const ssched_scan_task_t *k = &s->tasks[x - s->n_sends];
    size_t I1 = ssched_i_scan_iv(c, k->k, k->l), I2 = ssched_i_scan_iv(c, k->l + 1, k->m);
    size_t n = k->node;
    if (!present(c, n, I1) || !present(c, n, I2))
        return 0;
    mpq_set(t, c->avail[n * c->nI + I1]);
    if (mpq_cmp(c->avail[n * c->nI + I2], t) > 0)
        mpq_set(t, c->avail[n * c->nI + I2]);
    return 1;
}

/* The resources event x holds into rs (their count), its latency (0 for a
 * task) and its held length into lat and d: it holds [start + lat, start +
 * lat + d). */
int ssched_i_scan_event(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x, tl_t **rs,
                        mpq_t lat, mpq_t d)
{
    const ssched_platform_t *p = c->p;
    if (x < s->n_sends) {
        size_t e = s->sends[x].edge;
        mpq_set(lat, p->l[e]);
        mpq_mul(d, c->pb->size, p->c[e]);
        return ssched_i_scan_transfer_res(c, e, rs);
    }
    size_t n = s->tasks[x - s->n_sends].node;
    mpq_set_ui(lat, 0, 1);
    mpq_set(d, p->w[n]);
    rs[0] = &c->res[2 * c->nn + n];
    return 1;
}

/* The earliest start of event x into c->t; 0 if an input is missing. */
static int earliest(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x)
{
    tl_t *rs[3];
    if (!ssched_i_scan_ready(c, s, x, c->t))
        return 0;
    /* the held phase [start + l, end) fits the resources */
    int n = ssched_i_scan_event(c, s, x, rs, c->lat, c->dur);
    mpq_add(c->t, c->t, c->lat);
    ssched_i_scan_fit(c, rs, n, c->t, c->dur);
    mpq_sub(c->t, c->t, c->lat);
    return 1;
}

static void arrive(scan_ctx_t *c, size_t node, size_t I, const mpq_t at)
{
    size_t x = node * c->nI + I;
    if (c->stamp[x] != c->cur || mpq_cmp(at, c->avail[x]) < 0)
        mpq_set(c->avail[x], at);
    c->stamp[x] = c->cur;
}

/* A new operation: only every v[k,k] at r_k, from time 0. */
void ssched_i_scan_begin_op(scan_ctx_t *c)
{
    c->cur++;
    for (size_t k = 0; k < c->N; k++) {
        mpq_set_ui(c->t, 0, 1);
        arrive(c, c->pb->participants[k], ssched_i_scan_iv(c, k, k), c->t);
    }
}

/* Event x of operation op (structure s) starts at start: appended to u,
 * its resources held when hold, its value arrives at its end. */
ssched_status_t ssched_i_scan_emit(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x,
                                   size_t op, const mpq_t start, int hold,
                                   ssched_unrolled_t *u, ssched_error_t *err)
{
    const ssched_platform_t *p = c->p;
    if (x < s->n_sends) {
        const ssched_scan_send_t *d = &s->sends[x];
        size_t e = d->edge, b = p->to[e];
        ssched_timed_transfer_t *tr = &u->transfers[u->n_transfers++];
        mpq_inits(tr->start, tr->end, tr->piece_offset, tr->piece_length, NULL);
        mpq_set(tr->start, start);
        mpq_mul(tr->end, c->pb->size, p->c[e]);
        mpq_add(tr->end, tr->end, p->l[e]);
        mpq_add(tr->end, tr->end, start);
        mpq_set_ui(tr->piece_length, 1, 1);
        tr->edge = e;
        tr->type = ssched_i_scan_iv(c, d->k, d->m);
        tr->op = op;
        tr->batch = 1;
        tl_t *rs[3];
        int n = ssched_i_scan_transfer_res(c, e, rs);
        mpq_add(c->u, tr->start, p->l[e]);
        for (int r = 0; r < n && hold; r++)
            if (!ssched_i_scan_hold(c, rs[r], c->u, tr->end))
                return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        arrive(c, b, tr->type, tr->end);
        return SSCHED_OK;
    }
    const ssched_scan_task_t *k = &s->tasks[x - s->n_sends];
    ssched_timed_computation_t *co = &u->computations[u->n_computations++];
    mpq_inits(co->start, co->end, NULL);
    mpq_set(co->start, start);
    mpq_add(co->end, start, p->w[k->node]);
    co->node = k->node;
    co->k = k->k;
    co->l = k->l;
    co->m = k->m;
    co->op = op;
    if (hold && !ssched_i_scan_hold(c, &c->res[2 * c->nn + k->node], co->start, co->end))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    arrive(c, k->node, ssched_i_scan_iv(c, k->k, k->m), co->end);
    return SSCHED_OK;
}

/* Place operation op on structure s: its events appended to u. */
static ssched_status_t place(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t op,
                             unsigned char *done, ssched_unrolled_t *u, ssched_error_t *err)
{
    size_t n_ev = s->n_sends + s->n_tasks;
    ssched_i_scan_begin_op(c);
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
        ssched_status_t rc = ssched_i_scan_emit(c, s, pick, op, c->best, 1, u, err);
        if (rc != SSCHED_OK)
            return rc;
    }
    return SSCHED_OK;
}

/* The structure of each of n operations by the deficit rule
 * (schedule/unroll_scan.c). */
void ssched_i_scan_assign(scan_ctx_t *c, const ssched_steady_t *st, size_t n, size_t *count,
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
        c->res[r].n = c->res[r].dense = 0;
    c->fail = 0;
}

/* Place operations 0..n-1 (structures by assign) into u, emptied first. */
ssched_status_t ssched_i_scan_run_ops(scan_ctx_t *c, const ssched_steady_t *st, size_t n,
                                      int modulo, size_t *count, unsigned char *done,
                                      ssched_unrolled_t *u, ssched_error_t *err)
{
    size_t *pick = ssched_i_alloc(n, sizeof *pick);
    if (!pick)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_i_scan_assign(c, st, n, count, pick);
    reset(c);
    c->modulo = modulo;
    ssched_status_t rc = SSCHED_OK;
    for (size_t q = 0; q < n && rc == SSCHED_OK && !c->fail; q++)
        rc = place(c, &st->scan_structures[pick[q]], q, done, u, err);
    free(pick);
    return rc;
}

