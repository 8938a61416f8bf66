/* The relaxation LP of a commutative reduce (issue 14): an upper bound on
 * its throughput, exported by `ssched lp --commutative` and solved by the
 * column generation when its pricing cannot prove the optimum
 * (lp/colgen_comm.c).
 *
 *   maximize TP
 *   x(e) >= 0   messages (partial results of any set) per time unit over e
 *   m(v) >= 0   merges per time unit on v, only for v with w
 *   f_p(e) >= 0 participant p's value per time unit over e, p != t
 *               (no edge into p, none out of t: a p -> t flow needs none)
 *   messages    out_x(v) - in_x(v) + m(v) - TP*([v in P] - [v = t]) = 0  per v
 *   flow        out_f_p(v) - in_f_p(v) = 0      per p, v not in {p, t}
 *   delivery    in_f_p(t) - TP = 0                                       per p
 *   carried     f_p(e) - x(e) <= 0                                 per p, e
 *   out-port, in-port, link: sum size*c(e)*x(e) <= 1 (as lp/build_flow.c)
 *   cpu         w(v)*m(v) <= 1
 *
 * It is a relaxation.  Take a reduction tree (colgen_comm.h) and count per
 * node v: every vertex but the root sends one message and receives one per
 * child, every forwarding occurrence inside a path receives and sends one;
 * a participant with w makes k merges for k children, a point or a target
 * outside P with w k-1, a participant without w none and no child, a root
 * without w one child and no merge.  In each case
 *   out - in = [v in P] - merges(v) - [v = t]
 * (the target as a participant without w: its own value leaves, the result
 * arrives, 0 = 1 - 0 - 1).  Participant p's value travels a walk from p to t
 * (up the tree), one message of the tree per step, so the walk is a unit
 * p -> t flow (after removing its cycles) bounded edge by edge by the tree's
 * messages.  The resources are the master's.  So every tree, scaled by its
 * rate, and every sum of them is feasible with TP = the sum of the rates:
 * LP optimum >= every master's optimum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "lp/internal.h"
#include "src/util/internal.h"

static ssched_status_t coef_si(ssched_lp_t *lp, size_t row, size_t col, long v, ssched_error_t *err)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, v, 1);
    ssched_status_t st = ssched_lp_add_coef(lp, row, col, q, err);
    mpq_clear(q);
    return st;
}

static ssched_status_t new_row(ssched_lp_t *lp, ssched_row_sense_t sense, long rhs, size_t *row,
                               const char *fmt, size_t a, size_t b, ssched_error_t *err)
{
    char name[64];
    snprintf(name, sizeof name, fmt, a, b);
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, rhs, 1);
    ssched_status_t st = ssched_lp_add_row(lp, name, sense, q, row, err);
    mpq_clear(q);
    return st;
}

ssched_status_t ssched_i_model_build_commutative(const ssched_platform_t *p,
                                               const ssched_problem_t *pb, ssched_model_t *m,
                                               ssched_error_t *err)
{
    size_t n = p->n_nodes, ne = p->n_edges, N = pb->n_participants, t = pb->target;
    ssched_lp_t *lp = &m->lp;
    m->out_row = ssched_i_alloc(n, sizeof *m->out_row);
    m->in_row = ssched_i_alloc(n, sizeof *m->in_row);
    m->compute_row = ssched_i_alloc(n, sizeof *m->compute_row);
    size_t *xcol = ssched_i_alloc(ne, sizeof *xcol), *msg = ssched_i_alloc(n, sizeof *msg);
    size_t *frow = ssched_i_alloc(n, sizeof *frow);
    if (!m->out_row || !m->in_row || !m->compute_row || !xcol || !msg || !frow) {
        free(xcol); free(msg); free(frow);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        m->out_row[i] = m->in_row[i] = m->compute_row[i] = SSCHED_NO_ROW;
    mpq_t one, q;
    mpq_inits(one, q, NULL);
    mpq_set_ui(one, 1, 1);
    char name[64];
    ssched_status_t st = ssched_lp_add_col(lp, "TP", one, &m->tp_col, err);
    for (size_t v = 0; v < n && st == SSCHED_OK; v++)
        st = new_row(lp, SSCHED_ROW_EQ, 0, &msg[v], "msg_n%zu%.0zu", v, 0, err);
    if (st == SSCHED_OK)
        st = coef_si(lp, msg[t], m->tp_col, 1, err);
    for (size_t k = 0; k < N && st == SSCHED_OK; k++)
        st = coef_si(lp, msg[pb->participants[k]], m->tp_col, -1, err);
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        snprintf(name, sizeof name, "x_e%zu", e);
        st = ssched_lp_add_col(lp, name, NULL, &xcol[e], err);
        if (st == SSCHED_OK)
            st = coef_si(lp, msg[p->from[e]], xcol[e], 1, err);
        if (st == SSCHED_OK)
            st = coef_si(lp, msg[p->to[e]], xcol[e], -1, err);
        mpq_mul(q, p->c[e], pb->size);
        if (st == SSCHED_OK)
            st = ssched_i_model_add_transfer_coefs(p, m, e, xcol[e], q, err);
    }
    for (size_t v = 0; v < n && st == SSCHED_OK; v++) {
        if (!p->has_w[v])
            continue; /* routers and switches only forward */
        size_t col;
        snprintf(name, sizeof name, "m_n%zu", v);
        st = ssched_lp_add_col(lp, name, NULL, &col, err);
        if (st == SSCHED_OK)
            st = coef_si(lp, msg[v], col, 1, err);
        if (st == SSCHED_OK)
            st = new_row(lp, SSCHED_ROW_LE, 1, &m->compute_row[v], "cpu_n%zu%.0zu", v, 0, err);
        if (st == SSCHED_OK)
            st = ssched_lp_add_coef(lp, m->compute_row[v], col, p->w[v], err);
    }
    for (size_t k = 0; k < N && st == SSCHED_OK; k++) {
        size_t s = pb->participants[k], del;
        if (s == t)
            continue;
        for (size_t v = 0; v < n && st == SSCHED_OK; v++) {
            frow[v] = SSCHED_NO_ROW;
            if (v != s && v != t)
                st = new_row(lp, SSCHED_ROW_EQ, 0, &frow[v], "flow_p%zu_n%zu", k, v, err);
        }
        if (st == SSCHED_OK)
            st = new_row(lp, SSCHED_ROW_EQ, 0, &del, "deliver_p%zu%.0zu", k, 0, err);
        if (st == SSCHED_OK)
            st = coef_si(lp, del, m->tp_col, -1, err);
        for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
            size_t i = p->from[e], j = p->to[e], col, cap;
            if (j == s || i == t)
                continue;
            snprintf(name, sizeof name, "f_p%zu_e%zu", k, e);
            st = ssched_lp_add_col(lp, name, NULL, &col, err);
            if (st == SSCHED_OK && frow[i] != SSCHED_NO_ROW)
                st = coef_si(lp, frow[i], col, 1, err);
            if (st == SSCHED_OK) /* in at j; at t it is delivered */
                st = coef_si(lp, j == t ? del : frow[j], col, j == t ? 1 : -1, err);
            if (st == SSCHED_OK)
                st = new_row(lp, SSCHED_ROW_LE, 0, &cap, "carry_p%zu_e%zu", k, e, err);
            if (st == SSCHED_OK)
                st = coef_si(lp, cap, col, 1, err);
            if (st == SSCHED_OK)
                st = coef_si(lp, cap, xcol[e], -1, err);
        }
    }
    mpq_clears(one, q, NULL);
    free(xcol);
    free(msg);
    free(frow);
    return st;
}
