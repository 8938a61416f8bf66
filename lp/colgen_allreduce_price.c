/* Columns and pricing of the all-reduce master (lp/colgen_allreduce.h):
 * adding trees and arborescences to the float master, their exact
 * coefficients (ssched_i_cg_column_coefs, the reduce master's rows), the per-edge
 * prices of the broadcast pricing, and the tree pricing, ordered
 * (lp/colgen_price.inc) or commutative (lp/colgen_comm.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/internal.h"

/* An arborescence seen as a send-only reduce column, so ssched_i_cg_column_coefs
 * gives its exact capacity coefficients (the same rows, the same size*c). */
cg_column_t ssched_i_car_arb_view(const cgb_column_t *a)
{
    cg_column_t v;
    memset(&v, 0, sizeof v);
    v.n_sends = a->n_arcs;
    v.send_edge = a->arcs;
    return v;
}

int ssched_i_car_arb_known(const cgb_master_t *b, const cgb_column_t *c)
{
    for (size_t k = 0; k < b->n_cols; k++)
        if (b->cols[k].n_arcs == c->n_arcs &&
            !memcmp(b->cols[k].arcs, c->arcs, c->n_arcs * sizeof *c->arcs))
            return 1;
    return 0;
}

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 1;
    size_t c = *cap ? 2 * *cap : 64;
    void *a = realloc(*arr, c * elem);
    if (!a)
        return 0;
    *arr = a;
    *cap = c;
    return 1;
}

/* Add a column (capacity coefficients of `view`, -1 in `link`) to the float
 * master.  1 on success. */
static int float_add(car_master_t *m, const cg_column_t *view, size_t link)
{
    size_t nr = m->r.n_rows;
    mpq_t *coef = ssched_i_mpq_vec_new(nr);
    double *val = malloc((nr + 1) * sizeof *val);
    int *row = malloc((nr + 1) * sizeof *row);
    int ok = coef && val && row, cnt = 0;
    if (ok) {
        ssched_i_cg_column_coefs(&m->r, view, coef);
        for (size_t r = 0; r < nr; r++)
            if (mpq_sgn(coef[r]) != 0) {
                val[cnt] = mpq_get_d(coef[r]);
                row[cnt++] = (int)r + 1;
            }
        val[cnt] = -1.0;
        row[cnt++] = (int)link + 1;
        ok = ssched_i_cge_add(m->eng, cnt, val, row);
    }
    if (coef)
        for (size_t r = 0; r < nr; r++)
            mpq_clear(coef[r]);
    free(coef);
    free(val);
    free(row);
    return ok;
}

/* Take ownership of tree c (and t) (1) or leave them to the caller (0). */
int ssched_i_car_add_tree(car_master_t *m, cg_column_t *c, cgc_tree_t *t)
{
    /* commutative: the tree beside its column, for ssched_i_cgc_interpret */
    if (m->comm && !grow((void **)&m->ctrees, &m->ctree_cap, m->r.n_cols, sizeof *m->ctrees))
        return 0;
    if (!grow((void **)&m->r.cols, &m->r.cap, m->r.n_cols, sizeof *m->r.cols) ||
        !float_add(m, c, m->row_r))
        return 0;
    if (m->comm)
        m->ctrees[m->r.n_cols] = *t;
    m->r.cols[m->r.n_cols++] = *c;
    return 1;
}

int ssched_i_car_add_arb(car_master_t *m, cgb_column_t *c)
{
    cg_column_t v = ssched_i_car_arb_view(c);
    if (!grow((void **)&m->b.cols, &m->b.cap, m->b.n_cols, sizeof *m->b.cols) ||
        !float_add(m, &v, m->row_b))
        return 0;
    m->b.cols[m->b.n_cols++] = *c;
    return 1;
}

/* Per-edge broadcast pricing costs size*c(e) * (prices of e's rows). */
double ssched_i_car_edge_price_d(const car_master_t *m, const double *y, size_t e)
{
    const ssched_platform_t *p = m->r.p;
    size_t i = p->from[e], j = p->to[e];
    if (p->routes) { /* each resource of the route at its own time */
        double s = cg_is_switch(p, i) ? 0.0 : y[i] * mpq_get_d(p->c[e]);
        s += cg_is_switch(p, j) ? 0.0 : y[m->r.n + j] * mpq_get_d(p->c[e]);
        ssched_i_res_iter_t it;
        size_t k;
        ssched_i_res_begin(&it, p, e);
        while (ssched_i_res_next(&it, &k))
            s += y[m->r.link_row[k]] * mpq_get_d(ssched_i_res_time(p, k));
        return s * mpq_get_d(m->r.pb->size);
    }
    double s = (cg_is_switch(p, i) ? 0.0 : y[i]) + (cg_is_switch(p, j) ? 0.0 : y[m->r.n + j]);
    if (m->r.link_row[e] != SIZE_MAX)
        s += y[m->r.link_row[e]];
    return s * mpq_get_d(m->b.g.w[e]);
}

void ssched_i_car_edge_price_q(const car_master_t *m, const mpq_t *y, size_t e, mpq_ptr out)
{
    const ssched_platform_t *p = m->r.p;
    size_t i = p->from[e], j = p->to[e];
    mpq_set_ui(out, 0, 1);
    if (p->routes) { /* each resource of the route at its own time */
        mpq_t q;
        mpq_init(q);
        if (!cg_is_switch(p, i))
            mpq_add(out, out, y[i]);
        if (!cg_is_switch(p, j))
            mpq_add(out, out, y[m->r.n + j]);
        mpq_mul(out, out, p->c[e]);
        ssched_i_res_iter_t it;
        size_t k;
        ssched_i_res_begin(&it, p, e);
        while (ssched_i_res_next(&it, &k)) {
            mpq_mul(q, y[m->r.link_row[k]], ssched_i_res_time(p, k));
            mpq_add(out, out, q);
        }
        mpq_mul(out, out, m->r.pb->size);
        mpq_clear(q);
        return;
    }
    if (!cg_is_switch(p, i))
        mpq_add(out, out, y[i]);
    if (!cg_is_switch(p, j))
        mpq_add(out, out, y[m->r.n + j]);
    if (m->r.link_row[e] != SIZE_MAX)
        mpq_add(out, out, y[m->r.link_row[e]]);
    mpq_mul(out, out, m->b.g.w[e]);
}

int ssched_i_car_arb_exact(const car_master_t *m)
{
    return m->b.g.all || m->b.g.n_relays <= CGB_EXACT_RELAYS;
}

int ssched_i_car_tree_exact(const car_master_t *m)
{
    return !m->comm || m->cg.n_opt <= CGC_EXACT_OPT;
}

void ssched_i_car_drop_tree(const car_master_t *m, cg_column_t *c, cgc_tree_t *t)
{
    ssched_i_cg_column_free(c);
    if (m->comm)
        ssched_i_cgc_tree_free(t);
}

/* A commutative tree as its column; 0 (tree freed) on ENOMEM. */
static int comm_column(const car_master_t *m, cgc_tree_t *t, cg_column_t *c)
{
    if (ssched_i_cgc_tree_column(&m->cg, t, c))
        return 1;
    ssched_i_cgc_tree_free(t);
    return 0;
}

int ssched_i_car_price_tree_d(const car_master_t *m, const cg_prices_d *y, int exact, cg_column_t *c,
                     cgc_tree_t *t, double *cost, ssched_status_t *st, ssched_error_t *err)
{
    if (!m->comm) {
        int r = ssched_i_cg_price_reduce_d(m->r.p, &m->red, y, c, cost);
        if (r < 0)
            *st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return r;
    }
    int r = ssched_i_cgc_price_d(&m->cg, y, exact, t, cost, st, err);
    if (r == 1 && !comm_column(m, t, c)) {
        *st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    return r;
}

int ssched_i_car_price_tree_q(const car_master_t *m, const cg_prices_q *y, cg_column_t *c,
                     cgc_tree_t *t, mpq_ptr cost, mpq_ptr lower, int *proven,
                     ssched_status_t *st, ssched_error_t *err)
{
    if (!m->comm) {
        int r = ssched_i_cg_price_reduce_q(m->r.p, &m->red, y, c, cost);
        if (r < 0)
            *st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        /* exact: the cheapest tree, or none at all */
        mpq_set(lower, cost);
        *proven = 1;
        return r;
    }
    int r = ssched_i_cgc_price_q(&m->cg, y, ssched_i_car_tree_exact(m), t, cost, lower, proven, st, err);
    if (r == 1 && !comm_column(m, t, c)) {
        *st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    return r;
}
