/* The all-reduce master as an exact LP, and its certified solution read
 * back as a steady state (lp/colgen_allreduce.h).  The reading reuses the
 * reduce and broadcast interpreters: the exact master's columns are laid
 * out trees first, then arborescences, then TP, over the reduce master's
 * capacity rows, so each interpreter sees its own columns and the shared
 * duals. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/internal.h"

/* Add one column (capacity coefficients of `view`, -1 in `link`). */
static ssched_status_t add_exact_col(const car_master_t *m, ssched_lp_t *lp, const char *name,
                                     const cg_column_t *view, size_t link, mpq_t *coef,
                                     ssched_error_t *err)
{
    size_t col;
    ssched_status_t st = ssched_lp_add_col(lp, name, NULL, &col, err);
    if (st != SSCHED_OK)
        return st;
    ssched_i_cg_column_coefs(&m->r, view, coef);
    for (size_t r = 0; r < m->r.n_rows && st == SSCHED_OK; r++)
        st = ssched_lp_add_coef(lp, r, col, coef[r], err);
    mpq_t minus;
    mpq_init(minus);
    mpq_set_si(minus, -1, 1);
    if (st == SSCHED_OK)
        st = ssched_lp_add_coef(lp, link, col, minus, err);
    mpq_clear(minus);
    return st;
}

ssched_status_t ssched_i_car_exact_master(const car_master_t *m, ssched_lp_t *lp, ssched_error_t *err)
{
    /* the capacity rows (with their names) are the reduce master's */
    cg_master_t caps = m->r;
    caps.n_cols = 0;
    ssched_status_t st = ssched_i_cg_exact_master(&caps, lp, err);
    /* the copy may have built its own column index (lp/colgen_master.c,
     * for its zero columns): it is not the master's, free it here */
    if (caps.idx != m->r.idx)
        ssched_i_cg_index_free(&caps);
    if (st != SSCHED_OK)
        return st;
    mpq_t zero, one;
    mpq_inits(zero, one, NULL);
    mpq_set_ui(one, 1, 1);
    st = ssched_lp_add_row(lp, "reduce_link", SSCHED_ROW_LE, zero, NULL, err);
    if (st == SSCHED_OK)
        st = ssched_lp_add_row(lp, "bcast_link", SSCHED_ROW_LE, zero, NULL, err);
    mpq_t *coef = ssched_i_mpq_vec_new(m->r.n_rows);
    if (!coef && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    char name[48];
    for (size_t k = 0; k < m->r.n_cols && st == SSCHED_OK; k++) {
        snprintf(name, sizeof name, "tree%zu", k);
        st = add_exact_col(m, lp, name, &m->r.cols[k], m->row_r, coef, err);
    }
    for (size_t k = 0; k < m->b.n_cols && st == SSCHED_OK; k++) {
        cg_column_t v = ssched_i_car_arb_view(&m->b.cols[k]);
        snprintf(name, sizeof name, "arb%zu", k);
        st = add_exact_col(m, lp, name, &v, m->row_b, coef, err);
    }
    size_t tp;
    if (st == SSCHED_OK)
        st = ssched_lp_add_col(lp, "TP", one, &tp, err);
    if (st == SSCHED_OK)
        st = ssched_lp_add_coef(lp, m->row_r, tp, one, err);
    if (st == SSCHED_OK)
        st = ssched_lp_add_coef(lp, m->row_b, tp, one, err);
    if (coef)
        for (size_t r = 0; r < m->r.n_rows; r++)
            mpq_clear(coef[r]);
    free(coef);
    mpq_clears(zero, one, NULL);
    return st;
}

/* out += b's vectors (port and link occupations of the copies). */
static void add_vec(mpq_t *to, const mpq_t *from, size_t n)
{
    for (size_t k = 0; k < n; k++)
        mpq_add(to[k], to[k], from[k]);
}

/* Scale x[0..k) so that it sums to tp when it sums to more (the linking
 * rows only ask TP <= sum): capacity rows only get less busy, the linking
 * row becomes tight, the objective and the exact duals are unchanged, so
 * the point stays certified (as lp/colgen_result.c for the reduce alone). */
static void at_most_tp(mpq_t *x, size_t k, mpq_srcptr tp)
{
    mpq_t sum;
    mpq_init(sum);
    for (size_t i = 0; i < k; i++)
        mpq_add(sum, sum, x[i]);
    if (mpq_cmp(sum, tp) > 0) {
        mpq_div(sum, tp, sum);
        for (size_t i = 0; i < k; i++)
            mpq_mul(x[i], x[i], sum);
    }
    mpq_clear(sum);
}

ssched_status_t ssched_i_car_interpret(car_master_t *m, ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = m->r.p;
    size_t n = p->n_nodes, ne = p->n_edges, nt = m->r.n_cols;
    ssched_lp_solution_t *sol = &out->lp;
    /* both parts deliver exactly TP operations per time unit: as many
     * results reduced as broadcast (a schedule holds no surplus) */
    at_most_tp(sol->x, nt, sol->objective);
    at_most_tp(sol->x + nt, m->b.n_cols, sol->objective);
    /* reduce part: trees (x[0..nt)), tasks, interval rates, prices; it sets
     * throughput to the objective, the certified TP */
    ssched_status_t st = m->comm ? ssched_i_cgc_interpret(&m->cg, &m->r, m->ctrees, out, err)
                                 : ssched_i_cg_interpret(&m->r, out, err);
    if (st != SSCHED_OK)
        return st;
    /* broadcast part into a scratch solution that borrows x and y */
    ssched_steady_t b;
    ssched_steady_init(&b);
    mpq_t *x0 = b.lp.x, *y0 = b.lp.y;
    b.lp.x = sol->x + nt;
    b.lp.y = sol->y;
    st = ssched_i_cgb_interpret(&m->b, &b, err);
    b.lp.x = x0;
    b.lp.y = y0;
    ssched_flow_t *flows = NULL;
    if (st == SSCHED_OK) {
        flows = realloc(out->flows, (out->n_flows + b.n_flows + 1) * sizeof *flows);
        if (!flows)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    if (st == SSCHED_OK) {
        /* copies are their own message type, after the reduce's */
        out->flows = flows;
        for (size_t k = 0; k < b.n_flows; k++) {
            flows[out->n_flows] = b.flows[k];
            flows[out->n_flows++].type = ssched_allreduce_copy_type(out);
        }
        b.n_flows = 0; /* moved: their rates belong to out now */
        qsort(out->flows, out->n_flows, sizeof *out->flows, ssched_i_lp_flow_by_edge_then_type);
        add_vec(out->out_busy, (const mpq_t *)b.out_busy, n);
        add_vec(out->in_busy, (const mpq_t *)b.in_busy, n);
        add_vec(out->link_busy, (const mpq_t *)b.link_busy, ne);
        out->arborescences = b.arborescences;
        out->n_arborescences = b.n_arborescences;
        b.arborescences = NULL;
        b.n_arborescences = 0;
    }
    ssched_steady_free(&b);
    return st;
}
