/* The columns of the interval-typed edge LPs (the ordered reduce,
 * lp/build_reduce.c, and the scan bound, lp/build_scan.c): a send x(e,I) of
 * interval I over edge e and a task t(i,T_{k,l,m}), each recorded in the
 * model (so that solutions name them) and charged on its resource rows.
 * Both builders create them in the same order as before they shared this
 * file, so their LPs are unchanged row for row and column for column.  Also
 * their integer row and coefficient helpers. */
#include <stdio.h>
#include <stdlib.h>

#include "lp/internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_model_new_interval_send(const ssched_platform_t *p,
                                                 const ssched_problem_t *pb, ssched_model_t *m,
                                                 size_t *cap, size_t e, size_t I, size_t *col,
                                                 ssched_error_t *err)
{
    if (m->n_sends == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        size_t *x = realloc(m->send_edge, *cap * sizeof *x);
        if (x) m->send_edge = x;
        size_t *y = x ? realloc(m->send_type, *cap * sizeof *y) : NULL;
        if (y) m->send_type = y;
        size_t *z = y ? realloc(m->send_col, *cap * sizeof *z) : NULL;
        if (!z)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        m->send_col = z;
    }
    char name[64];
    snprintf(name, sizeof name, "x_e%zu_v%zu_%zu", e, m->intervals[I].k, m->intervals[I].m);
    ssched_status_t st = ssched_lp_add_col(&m->lp, name, NULL, col, err);
    if (st != SSCHED_OK)
        return st;
    m->send_edge[m->n_sends] = e;
    m->send_type[m->n_sends] = I;
    m->send_col[m->n_sends++] = *col;
    /* one unit message of the interval keeps e's ports / links size*c(e) */
    mpq_t c;
    mpq_init(c);
    mpq_mul(c, p->c[e], pb->size);
    st = ssched_i_model_add_transfer_coefs(p, m, e, *col, c, err);
    mpq_clear(c);
    return st;
}

ssched_status_t ssched_i_model_new_task(const ssched_platform_t *p, ssched_model_t *m,
                                        size_t *cap, size_t i, size_t k, size_t l, size_t mm,
                                        size_t *col, ssched_error_t *err)
{
    if (m->n_cons == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        size_t *x = realloc(m->cons_col, *cap * sizeof *x);
        if (x) m->cons_col = x;
        ssched_task_t *t = x ? realloc(m->cons, *cap * sizeof *t) : NULL;
        if (!t)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        m->cons = t;
    }
    char name[96];
    snprintf(name, sizeof name, "t_n%zu_%zu_%zu_%zu", i, k, l, mm);
    ssched_status_t st = ssched_lp_add_col(&m->lp, name, NULL, col, err);
    if (st != SSCHED_OK)
        return st;
    m->cons_col[m->n_cons] = *col;
    ssched_task_t *t = &m->cons[m->n_cons++];
    t->node = i;
    t->k = k;
    t->l = l;
    t->m = mm;
    if (m->compute_row[i] == SSCHED_NO_ROW) { /* cpu_n<i>: sum w(i) t <= 1 */
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        snprintf(name, sizeof name, "cpu_n%zu", i);
        st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_LE, one, &m->compute_row[i], err);
        mpq_clear(one);
        if (st != SSCHED_OK)
            return st;
    }
    return ssched_lp_add_coef(&m->lp, m->compute_row[i], *col, p->w[i], err);
}

ssched_status_t ssched_i_model_int_coef(ssched_model_t *m, size_t row, size_t col, long v,
                                        ssched_error_t *err)
{
    if (row == SSCHED_NO_ROW)
        return SSCHED_OK;
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, v, 1);
    ssched_status_t st = ssched_lp_add_coef(&m->lp, row, col, q, err);
    mpq_clear(q);
    return st;
}

ssched_status_t ssched_i_model_int_row(ssched_model_t *m, const char *name,
                                       ssched_row_sense_t sense, long rhs, size_t *row,
                                       ssched_error_t *err)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, rhs, 1);
    ssched_status_t st = ssched_lp_add_row(&m->lp, name, sense, q, row, err);
    mpq_clear(q);
    return st;
}
