/* The parallel-prefix (scan) edge LP: a certified UPPER BOUND on the
 * steady-state throughput of a series of scans (RR-4872 §6's open problem;
 * docs/model.md, "Parallel prefix", proves it valid).
 *
 * Participants r_0..r_{N-1} in operator order (associative, not
 * commutative); message types are the intervals v[k,m] of the ordered
 * reduce (lp/build_reduce.c).  Demand j (j = 1..N-1) is the pair (a_j, d_j):
 * v[0,a_j] must reach d_j = r_j, with a_j = j (inclusive, MPI_Scan) or
 * j - 1 (exclusive, MPI_Exscan).  Inclusive r_0 already holds v[0,0];
 * exclusive r_0 gets nothing: neither is a demand.
 *
 * Columns: the PHYSICAL rates x(e,I) (transfers of interval I over edge e
 * per time unit) and t(i,T) (tasks T = T_{k,l,m} on node i per time unit),
 * which carry the resources; and per demand j a reduce flow
 * f_j(e,I), g_j(i,T) over the intervals inside [0,a_j].
 *
 *   maximize TP
 *   ports/links  sum size*c(e)*x(e,I) <= 1   as every problem (one-port,
 *                switch links, routed resources: lp/build_flow.c)
 *   compute      sum_T w(i)*t(i,T) <= 1                        per node with w
 *   demand j's reduce LP (RR-4872 eq. 10-11 with the correction of
 *                lp/build_reduce.c): per node i and interval I in [0,a_j]
 *                in_j(i,I) + prod_j(i,I) = out_j(i,I) + cons_j(i,I),
 *                except v[k,k] at r_k (free) and v[0,a_j] at d_j, where
 *                in_j + prod_j = TP and no f_j sends v[0,a_j] out of d_j;
 *   copies       f_j(e,I) <= x(e,I),  g_j(i,T) <= t(i,T)      per j
 *
 * The copy rows are the linearised max_j: one physical transfer (task) may
 * serve every demand, as a broadcast's one copy over an edge serves every
 * target's flow ("ssb", lp/build_flow.c): that is how a partial result is
 * used more than once (v[0,j] is r_j's answer and an operand of v[0,j+1]).
 * The relaxation: demands share transfers and tasks freely (no check that
 * the shared parts fit together in one schedule), so the optimum bounds the
 * scan TP from above; it is not known to be achievable. */
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
    size_t N, nI, n;
    size_t a, d;          /* the current demand: v[0,a] to node d          */
    size_t dem;           /* its number (the row and column names)         */
    size_t *xcol;         /* xcol[e*nI + I]: x(e,I) or SSCHED_NO_ROW       */
    size_t *tcol;         /* tcol[((i*N+k)*N+l)*N+m]: t(i,T) or NO_ROW     */
    size_t *bal;          /* bal[i*nI + I]: the current demand's balance   */
    size_t deliver;       /* the current demand's delivery row             */
    size_t cap_sends, cap_cons;
} scan_builder_t;

static ssched_status_t coef(scan_builder_t *b, size_t row, size_t col, long v,
                            ssched_error_t *err)
{
    return ssched_i_model_int_coef(b->m, row, col, v, err);
}

static ssched_status_t row_le_eq(scan_builder_t *b, const char *name, ssched_row_sense_t sense,
                                 long rhs, size_t *row, ssched_error_t *err)
{
    return ssched_i_model_int_row(b->m, name, sense, rhs, row, err);
}

/* The current demand's balance row of interval I at node i (created on
 * first use); NO_ROW for v[k,k] at its owner, the delivery row for v[0,a]
 * at d. */
static ssched_status_t balance_row(scan_builder_t *b, size_t i, size_t I, size_t *row,
                                   ssched_error_t *err)
{
    const ssched_interval_t *iv = &b->m->intervals[I];
    *row = SSCHED_NO_ROW;
    if (iv->k == iv->m && b->pb->participants[iv->k] == i)
        return SSCHED_OK;
    if (iv->k == 0 && iv->m == b->a && i == b->d) {
        *row = b->deliver;
        return SSCHED_OK;
    }
    size_t *r = &b->bal[i * b->nI + I];
    if (*r == SSCHED_NO_ROW) {
        char name[96];
        snprintf(name, sizeof name, "bal_d%zu_n%zu_v%zu_%zu", b->dem, i, iv->k, iv->m);
        ssched_status_t st = row_le_eq(b, name, SSCHED_ROW_EQ, 0, r, err);
        if (st != SSCHED_OK)
            return st;
    }
    *row = *r;
    return SSCHED_OK;
}

/* x(e,I), created with its port/link coefficients on first use. */
static ssched_status_t phys_send(scan_builder_t *b, size_t e, size_t I, size_t *col,
                                 ssched_error_t *err)
{
    size_t *slot = &b->xcol[e * b->nI + I];
    ssched_status_t st = SSCHED_OK;
    if (*slot == SSCHED_NO_ROW)
        st = ssched_i_model_new_interval_send(b->p, b->pb, b->m, &b->cap_sends, e, I, slot, err);
    *col = *slot;
    return st;
}

/* t(i,T_{k,l,mm}), created with its processor coefficient on first use. */
static ssched_status_t phys_task(scan_builder_t *b, size_t i, size_t k, size_t l, size_t mm,
                                 size_t *col, ssched_error_t *err)
{
    size_t N = b->N, *slot = &b->tcol[((i * N + k) * N + l) * N + mm];
    ssched_status_t st = SSCHED_OK;
    if (*slot == SSCHED_NO_ROW)
        st = ssched_i_model_new_task(b->p, b->m, &b->cap_cons, i, k, l, mm, slot, err);
    *col = *slot;
    return st;
}

/* The copy row  demand_col - phys_col <= 0. */
static ssched_status_t copy_row(scan_builder_t *b, const char *name, size_t dcol, size_t pcol,
                                ssched_error_t *err)
{
    size_t r;
    ssched_status_t st = row_le_eq(b, name, SSCHED_ROW_LE, 0, &r, err);
    if (st == SSCHED_OK)
        st = coef(b, r, dcol, 1, err);
    return st == SSCHED_OK ? coef(b, r, pcol, -1, err) : st;
}

/* Demand b->dem's reduce flow: its sends, tasks, balance and copy rows. */
static ssched_status_t add_demand(scan_builder_t *b, ssched_error_t *err)
{
    const ssched_platform_t *p = b->p;
    ssched_model_t *m = b->m;
    size_t N = b->N, a = b->a;
    char name[128];
    for (size_t k = 0; k < b->n * b->nI; k++)
        b->bal[k] = SSCHED_NO_ROW;
    snprintf(name, sizeof name, "deliver_d%zu", b->dem);
    ssched_status_t st = row_le_eq(b, name, SSCHED_ROW_EQ, 0, &b->deliver, err);
    if (st == SSCHED_OK)
        st = coef(b, b->deliver, m->tp_col, -1, err);
    for (size_t e = 0; e < p->n_edges && st == SSCHED_OK; e++)
        for (size_t k = 0; k <= a && st == SSCHED_OK; k++)
            for (size_t mm = k; mm <= a && st == SSCHED_OK; mm++) {
                if (k == 0 && mm == a && p->from[e] == b->d)
                    continue; /* the answer never leaves d (reduce's correction) */
                if (k == mm && p->to[e] == b->pb->participants[k])
                    continue; /* never to its owner */
                size_t I = ssched_interval_index(N, k, mm), x = 0, f = 0, r;
                snprintf(name, sizeof name, "f_d%zu_e%zu_v%zu_%zu", b->dem, e, k, mm);
                if ((st = phys_send(b, e, I, &x, err)) != SSCHED_OK ||
                    (st = ssched_lp_add_col(&m->lp, name, NULL, &f, err)) != SSCHED_OK ||
                    (st = balance_row(b, p->from[e], I, &r, err)) != SSCHED_OK ||
                    (st = coef(b, r, f, -1, err)) != SSCHED_OK ||
                    (st = balance_row(b, p->to[e], I, &r, err)) != SSCHED_OK ||
                    (st = coef(b, r, f, 1, err)) != SSCHED_OK)
                    break;
                snprintf(name, sizeof name, "cs_d%zu_e%zu_v%zu_%zu", b->dem, e, k, mm);
                st = copy_row(b, name, f, x, err);
            }
    for (size_t i = 0; i < b->n && st == SSCHED_OK; i++) {
        if (!p->has_w[i])
            continue; /* routers only route */
        for (size_t k = 0; k <= a && st == SSCHED_OK; k++)
            for (size_t mm = k + 1; mm <= a && st == SSCHED_OK; mm++)
                for (size_t l = k; l < mm && st == SSCHED_OK; l++) {
                    size_t t = 0, g = 0, r;
                    snprintf(name, sizeof name, "g_d%zu_n%zu_%zu_%zu_%zu", b->dem, i, k, l, mm);
                    if ((st = phys_task(b, i, k, l, mm, &t, err)) != SSCHED_OK ||
                        (st = ssched_lp_add_col(&m->lp, name, NULL, &g, err)) != SSCHED_OK ||
                        (st = balance_row(b, i, ssched_interval_index(N, k, mm), &r, err)) !=
                            SSCHED_OK ||
                        (st = coef(b, r, g, 1, err)) != SSCHED_OK ||
                        (st = balance_row(b, i, ssched_interval_index(N, k, l), &r, err)) !=
                            SSCHED_OK ||
                        (st = coef(b, r, g, -1, err)) != SSCHED_OK ||
                        (st = balance_row(b, i, ssched_interval_index(N, l + 1, mm), &r, err)) !=
                            SSCHED_OK ||
                        (st = coef(b, r, g, -1, err)) != SSCHED_OK)
                        break;
                    snprintf(name, sizeof name, "ct_d%zu_n%zu_%zu_%zu_%zu", b->dem, i, k, l, mm);
                    st = copy_row(b, name, g, t, err);
                }
    }
    return st;
}

/* The LP over the demands j with demand[j] set (NULL: every demand). */
static ssched_status_t build(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const unsigned char *demand, ssched_model_t *m, ssched_error_t *err)
{
    scan_builder_t b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.p = p;
    b.pb = pb;
    b.N = pb->n_participants;
    b.n = p->n_nodes;
    size_t N = b.N, n = b.n;
    b.nI = N * (N + 1) / 2;
    m->n_intervals = b.nI;
    m->intervals = ssched_i_alloc(b.nI, sizeof *m->intervals);
    m->out_row = ssched_i_alloc(n, sizeof *m->out_row);
    m->in_row = ssched_i_alloc(n, sizeof *m->in_row);
    m->compute_row = ssched_i_alloc(n, sizeof *m->compute_row);
    b.xcol = ssched_i_alloc(p->n_edges * b.nI, sizeof *b.xcol);
    b.tcol = ssched_i_alloc(n * N * N * N, sizeof *b.tcol);
    b.bal = ssched_i_alloc(n * b.nI, sizeof *b.bal);
    ssched_status_t st = SSCHED_OK;
    if (!m->intervals || !m->out_row || !m->in_row || !m->compute_row || !b.xcol || !b.tcol ||
        !b.bal)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK) {
        size_t I = 0;
        for (size_t k = 0; k < N; k++)
            for (size_t mm = k; mm < N; mm++) {
                m->intervals[I].k = k;
                m->intervals[I++].m = mm; /* I = ssched_interval_index(N, k, mm) */
            }
        for (size_t i = 0; i < n; i++)
            m->out_row[i] = m->in_row[i] = m->compute_row[i] = SSCHED_NO_ROW;
        for (size_t k = 0; k < p->n_edges * b.nI; k++)
            b.xcol[k] = SSCHED_NO_ROW;
        for (size_t k = 0; k < n * N * N * N; k++)
            b.tcol[k] = SSCHED_NO_ROW;
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        st = ssched_lp_add_col(&m->lp, "TP", one, &m->tp_col, err);
        mpq_clear(one);
    }
    for (size_t j = 1; j < N && st == SSCHED_OK; j++) {
        if (demand && !demand[j])
            continue;
        b.dem = j;
        b.a = pb->exclusive ? j - 1 : j;
        b.d = pb->participants[j];
        st = add_demand(&b, err);
    }
    free(b.xcol);
    free(b.tcol);
    free(b.bal);
    return st;
}

ssched_status_t ssched_i_model_build_scan(const ssched_platform_t *p, const ssched_problem_t *pb,
                                          ssched_model_t *m, ssched_error_t *err)
{
    return build(p, pb, NULL, m, err);
}

/* A subset of the demands: the theorem's proof (docs/model.md) restricted
 * to those demands, so its optimum bounds the scan TP too. */
ssched_status_t ssched_i_model_build_scan_subset(const ssched_platform_t *p,
                                                 const ssched_problem_t *pb,
                                                 const unsigned char *demand, ssched_model_t *m,
                                                 ssched_error_t *err)
{
    ssched_model_free(m);
    if (ssched_lp_init(&m->lp, "ssscan_subset") != SSCHED_OK)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = ssched_problem_validate(pb, p, err);
    if (st != SSCHED_OK)
        return st;
    if (pb->kind != SSCHED_PROBLEM_SCAN)
        return ssched_error_set(err, SSCHED_EINPUT, "scan subset LP: not a scan");
    size_t nres = ssched_i_res_count(p); /* as ssched_model_build (lp/build_flow.c) */
    m->link_row = ssched_i_alloc(nres, sizeof *m->link_row);
    if (!m->link_row)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < nres; k++)
        m->link_row[k] = SSCHED_NO_ROW;
    return build(p, pb, demand, m, err);
}
