/* The modulo pattern of the unrolled scan: n operations placed modulo a
 * period P, repeated every P (schedule/unroll_scan.c keeps it when shorter
 * than the greedy placement). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/scan_internal.h"
#include "src/util/internal.h"

/* Clear u's events (its arrays kept). */
void ssched_i_scan_clear_events(ssched_unrolled_t *u)
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
    ssched_i_scan_assign(c, st, n, count, pick);
    for (size_t r = 0; r < nr; r++)
        mpq_set_ui(load[r], 0, 1);
    mpq_set_ui(c->P, n, 1);
    mpq_div(c->P, c->P, st->throughput);
    for (size_t k = 0; k < m; k++) {
        const ssched_scan_structure_t *x = &st->scan_structures[k];
        mpq_set_ui(c->v, count[k], 1);
        for (size_t d = 0; d < x->n_sends; d++) {
            tl_t *rs[3];
            int nrs = ssched_i_scan_transfer_res(c, x->sends[d].edge, rs);
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

/* Place n operations modulo c->P into pat by method (0: in data order,
 * run_ops modulo; 1: hybrid offsets; 2: offsets first,
 * unroll_scan_offset.c), raising P by P/32 while there is no room (at
 * most tries attempts); *placed says whether it fit. */
static ssched_status_t modulo_place(scan_ctx_t *c, const ssched_steady_t *st, size_t n,
                                    int method, size_t *count, unsigned char *done,
                                    ssched_unrolled_t *pat, int tries, int *placed,
                                    ssched_error_t *err)
{
    ssched_status_t rc = SSCHED_OK;
    *placed = 0;
    mpq_t step;
    mpq_init(step); /* P0 / 32: the periods stay on a grid of few digits */
    mpq_set_ui(step, 1, 32);
    mpq_mul(step, step, c->P);
    for (int attempt = 0; attempt < tries && rc == SSCHED_OK && !*placed; attempt++) {
        ssched_i_scan_clear_events(pat);
        if (method) {
            rc = ssched_i_scan_offset_place(c, st, n, method == 1, count, pat, placed, err);
        } else {
            rc = ssched_i_scan_run_ops(c, st, n, 1, count, done, pat, err);
            *placed = rc == SSCHED_OK && !c->fail;
        }
        if (!*placed) /* no room: a longer period */
            mpq_add(c->P, c->P, step);
    }
    mpq_clear(step);
    c->modulo = 0;
    return rc;
}

/* The end of the pattern pat (n operations, period P) repeated over K
 * operations into mk: operation j of the pattern last runs in block
 * (K - 1 - j) / n. */
static void repeated_end(const ssched_unrolled_t *pat, size_t n, size_t K, const mpq_t P,
                         mpq_t mk, mpq_t tmp)
{
    mpq_set_ui(mk, 0, 1);
    for (size_t k = 0; k < pat->n_transfers + pat->n_computations; k++) {
        int tr = k < pat->n_transfers;
        size_t j = tr ? pat->transfers[k].op : pat->computations[k - pat->n_transfers].op;
        mpq_set_ui(tmp, (K - 1 - j) / n, 1);
        mpq_mul(tmp, tmp, P);
        mpq_add(tmp, tmp, tr ? pat->transfers[k].end : pat->computations[k - pat->n_transfers].end);
        if (mpq_cmp(tmp, mk) > 0)
            mpq_set(mk, tmp);
    }
}

/* The modulo pattern: n operations (n = 1..16, at most K) placed modulo P,
 * P from the busiest resource's load over them (initial_period), raised
 * while the placement finds no room; the least P / n wins, repeated:
 * operation bn + j is the pattern's j shifted by bP.  Replaces out's
 * events when out has none or its makespan is less; *ratio := P TP / n
 * (0: no pattern). */
ssched_status_t ssched_i_scan_try_modulo(scan_ctx_t *c, const ssched_steady_t *st, size_t K,
                                         size_t *count, unsigned char *done,
                                         ssched_unrolled_t *out, mpq_t ratio, ssched_error_t *err)
{
    const ssched_platform_t *p = c->p;
    size_t nmax = K < 16 ? K : 16, nr = 3 * c->nn + p->n_edges, n = 0;
    size_t most = 0;
    for (size_t k = 0; k < st->n_scan_structures; k++)
        if (st->scan_structures[k].n_sends + st->scan_structures[k].n_tasks > most)
            most = st->scan_structures[k].n_sends + st->scan_structures[k].n_tasks;
    size_t *pick = ssched_i_alloc(nmax, sizeof *pick);
    mpq_t *load = ssched_i_scan_q_array(nr);
    ssched_unrolled_t pat;
    ssched_unrolled_init(&pat);
    pat.transfers = ssched_i_alloc(nmax * most + 1, sizeof *pat.transfers);
    pat.computations = ssched_i_alloc(nmax * most + 1, sizeof *pat.computations);
    ssched_status_t rc = SSCHED_OK;
    mpq_t bestP, r, P0, mk0, bestmk;
    mpq_inits(bestP, r, P0, mk0, bestmk, NULL);
    mpq_set_ui(ratio, 0, 1);
    if (!pick || !load || !pat.transfers || !pat.computations) {
        rc = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    /* every n, every method: the least P where it fits; the least
     * makespan for K wins (the first at a tie) */
    int method = 0;
    for (size_t nn = 1; nn <= nmax && rc == SSCHED_OK; nn++) {
        initial_period(c, st, nn, count, load, pick);
        mpq_set_ui(r, nn, 1);
        mpq_div(r, c->P, r);
        mpq_mul(r, r, st->throughput);
        if (n && mpq_cmp(r, ratio) >= 0)
            continue; /* cannot beat the best */
        mpq_set(P0, c->P);
        for (int m = 0; m < 3 && rc == SSCHED_OK; m++) {
            int placed;
            mpq_set(c->P, P0);
            rc = modulo_place(c, st, nn, m, count, done, &pat, 24, &placed, err);
            if (rc != SSCHED_OK || !placed)
                continue;
            repeated_end(&pat, nn, K, c->P, mk0, r);
            if (!n || mpq_cmp(mk0, bestmk) < 0) {
                n = nn;
                method = m;
                mpq_set_ui(r, nn, 1);
                mpq_div(r, c->P, r);
                mpq_mul(ratio, r, st->throughput);
                mpq_set(bestP, c->P);
                mpq_set(bestmk, mk0);
            }
        }
        if (n && mpq_cmp_ui(ratio, 1, 1) <= 0)
            break; /* the certified TP itself */
    }
    if (getenv("SSCHED_SCAN_DEBUG"))
        fprintf(stderr, "modulo: n %zu method %d P*TP/n %.6f\n", n, method, mpq_get_d(ratio));
    int placed = 0;
    if (rc == SSCHED_OK && n) {
        mpq_set(c->P, bestP);
        rc = modulo_place(c, st, n, method, count, done, &pat, 1, &placed, err);
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
        ssched_i_scan_clear_events(out);
        for (size_t q = 0; q < K; q++) {
            size_t j = q % n;
            mpq_set_ui(shift, q / n, 1);
            mpq_mul(shift, shift, c->P);
            for (size_t k = t_first[j]; k < t_first[j + 1]; k++) {
                ssched_timed_transfer_t *a = &out->transfers[out->n_transfers++];
                const ssched_timed_transfer_t *b = &pat.transfers[k];
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
    mpq_clears(bestP, r, P0, mk0, bestmk, NULL);
    ssched_unrolled_free(&pat);
    return rc;
}

/* The end of u's last event into t (0 when u has none). */
