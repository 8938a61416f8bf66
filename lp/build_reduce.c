/* SSR, the series-of-reduces LP (RR-4872 §4.2), exactly as design.md states
 * it with the correction.
 *
 * Participants r_0..r_{N-1} are ordered (the operator is associative, not
 * commutative); message types are intervals v[k,m]; task T_{k,l,m} merges
 * v[k,l] and v[l+1,m] into v[k,m] on one node.
 *
 *   maximize TP
 *   out-port, in-port   sum size*c*send <= 1                     per one-port node
 *   link                sum_I size*c(e)*send(e,I) <= 1           per edge at a switch
 *   compute             sum w(i)*cons(i,T) <= 1                  per node with w
 *   balance (eq. 10)    in(i,[k,m]) + produced(i,[k,m])
 *                       = out(i,[k,m]) + consumed(i,[k,m])       per node, interval
 *     except v[k,k] at the owner of participant k (a free source) and
 *     v[0,N-1] at the target (the sink);
 *   delivery (eq. 11)   in(target,[0,N-1]) + produced(target,[0,N-1]) = TP.
 *
 * Correction: read literally the report lets the target re-emit v[0,N-1]
 * (eq. 10 exempts it at the target, eq. 11 counts what reaches it), which
 * overstates TP: on two nodes with w = 4 and c = 1 both ways, the literal LP
 * gives TP = 1, the truth is 1/2.  Here no send of v[0,N-1] leaves the
 * target.  Likewise nothing sends v[k,k] back to its owner (useless, and it
 * would let the owner's free supply absorb flow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp/internal.h"
#include "src/util/internal.h"
#include "ssched/steady.h"

typedef struct {
    ssched_model_t *m;
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    size_t N, nI;
    size_t *owner;        /* owner[k] = node of participant k             */
    size_t *balance;      /* balance[i*nI + I] = row or SSCHED_NO_ROW      */
    size_t tp_row;
    size_t cap_sends, cap_cons;
} reduce_builder_t;

/* The row holding node i's balance of interval I, created on first use; the
 * delivery row for v[0,N-1] at the target; SSCHED_NO_ROW where the balance
 * is exempt (a participant's own value at its owner). */
static ssched_status_t balance_row(reduce_builder_t *b, size_t i, size_t I, size_t *row,
                                   ssched_error_t *err)
{
    const ssched_interval_t *iv = &b->m->intervals[I];
    if (iv->k == iv->m && b->owner[iv->k] == i) {
        *row = SSCHED_NO_ROW;
        return SSCHED_OK;
    }
    if (iv->k == 0 && iv->m == b->N - 1 && i == b->pb->target) {
        *row = b->tp_row;
        return SSCHED_OK;
    }
    size_t *r = &b->balance[i * b->nI + I];
    if (*r == SSCHED_NO_ROW) {
        char name[64];
        snprintf(name, sizeof name, "bal_n%zu_v%zu_%zu", i, iv->k, iv->m);
        ssched_status_t st = ssched_i_model_int_row(b->m, name, SSCHED_ROW_EQ, 0, r, err);
        if (st != SSCHED_OK)
            return st;
    }
    *row = *r;
    return SSCHED_OK;
}

static ssched_status_t add(reduce_builder_t *b, size_t row, size_t col, long coef,
                           ssched_error_t *err)
{
    return ssched_i_model_int_coef(b->m, row, col, coef, err);
}

static ssched_status_t add_send(reduce_builder_t *b, size_t e, size_t I, ssched_error_t *err)
{
    const ssched_platform_t *p = b->p;
    size_t col, r;
    ssched_status_t st =
        ssched_i_model_new_interval_send(p, b->pb, b->m, &b->cap_sends, e, I, &col, err);
    /* leaves p->from[e], enters p->to[e] */
    if (st == SSCHED_OK && (st = balance_row(b, p->from[e], I, &r, err)) == SSCHED_OK &&
        (st = add(b, r, col, -1, err)) == SSCHED_OK &&
        (st = balance_row(b, p->to[e], I, &r, err)) == SSCHED_OK)
        st = add(b, r, col, 1, err);
    return st;
}

static ssched_status_t add_cons(reduce_builder_t *b, size_t i, size_t k, size_t l, size_t mm,
                                ssched_error_t *err)
{
    size_t col, r, N = b->N;
    ssched_status_t st = ssched_i_model_new_task(b->p, b->m, &b->cap_cons, i, k, l, mm, &col, err);
    if (st != SSCHED_OK)
        return st;
    /* produces v[k,m]; consumes v[k,l] and v[l+1,m] */
    if ((st = balance_row(b, i, ssched_interval_index(N, k, mm), &r, err)) != SSCHED_OK ||
        (st = add(b, r, col, 1, err)) != SSCHED_OK ||
        (st = balance_row(b, i, ssched_interval_index(N, k, l), &r, err)) != SSCHED_OK ||
        (st = add(b, r, col, -1, err)) != SSCHED_OK ||
        (st = balance_row(b, i, ssched_interval_index(N, l + 1, mm), &r, err)) != SSCHED_OK)
        return st;
    return add(b, r, col, -1, err);
}

ssched_status_t ssched_i_model_build_reduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                          ssched_model_t *m, ssched_error_t *err)
{
    reduce_builder_t b = {m, p, pb, pb->n_participants, 0, NULL, NULL, 0, 0, 0};
    size_t N = b.N, n = p->n_nodes;
    b.nI = N * (N + 1) / 2;
    m->n_intervals = b.nI;
    m->intervals = malloc(b.nI * sizeof *m->intervals);
    b.owner = pb->participants;
    b.balance = ssched_i_alloc(n * b.nI, sizeof *b.balance);
    m->out_row = ssched_i_alloc(n, sizeof *m->out_row);
    m->in_row = ssched_i_alloc(n, sizeof *m->in_row);
    m->compute_row = ssched_i_alloc(n, sizeof *m->compute_row);
    ssched_status_t st = SSCHED_OK;
    if (!m->intervals || !b.balance || !m->out_row || !m->in_row || !m->compute_row)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK) {
        size_t I = 0;
        for (size_t k = 0; k < N; k++)
            for (size_t mm = k; mm < N; mm++) {
                m->intervals[I].k = k;
                m->intervals[I++].m = mm; /* I = ssched_interval_index(N, k, mm) */
            }
        for (size_t k = 0; k < n * b.nI; k++)
            b.balance[k] = SSCHED_NO_ROW;
        for (size_t i = 0; i < n; i++)
            m->out_row[i] = m->in_row[i] = m->compute_row[i] = SSCHED_NO_ROW;
        mpq_t one, zero;
        mpq_inits(one, zero, NULL);
        mpq_set_ui(one, 1, 1);
        st = ssched_lp_add_col(&m->lp, "TP", one, &m->tp_col, err);
        if (st == SSCHED_OK)
            st = ssched_lp_add_row(&m->lp, "deliver", SSCHED_ROW_EQ, zero, &b.tp_row, err);
        if (st == SSCHED_OK)
            st = add(&b, b.tp_row, m->tp_col, -1, err);
        mpq_clears(one, zero, NULL);
    }
    for (size_t e = 0; e < p->n_edges && st == SSCHED_OK; e++)
        for (size_t I = 0; I < b.nI && st == SSCHED_OK; I++) {
            const ssched_interval_t *iv = &m->intervals[I];
            if (iv->k == 0 && iv->m == N - 1 && p->from[e] == pb->target)
                continue; /* the correction: the result never leaves the target */
            if (iv->k == iv->m && p->to[e] == b.owner[iv->k])
                continue; /* never send a participant its own value */
            st = add_send(&b, e, I, err);
        }
    for (size_t i = 0; i < n && st == SSCHED_OK; i++) {
        if (!p->has_w[i])
            continue; /* routers only route */
        for (size_t k = 0; k < N && st == SSCHED_OK; k++)
            for (size_t mm = k + 1; mm < N && st == SSCHED_OK; mm++)
                for (size_t l = k; l < mm && st == SSCHED_OK; l++)
                    st = add_cons(&b, i, k, l, mm, err);
    }
    free(b.balance);
    return st;
}
