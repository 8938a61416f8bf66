/* The all-reduce edge LP: RR-4872's SSR to the root R (lp/build_reduce.c;
 * commutative: the relaxation LP of lp/build_commutative.c) and the
 * broadcast copies LP from R to the other participants ("ssb",
 * lp/build_flow.c) stated together, with their resource rows merged (one
 * out-port and in-port row per one-port node, one link row per edge with a
 * switch end; processors are the reduce's only) and one TP for both:
 *
 *   max TP  s.t.  SSR(send, cons, TP),  SSB(copies, f, TP),
 *                 port/link: reduce time + copies time <= 1.
 *
 * Every all-reduce schedule gives a feasible point (its reduce part
 * satisfies SSR and its copies the broadcast flows), so the optimum bounds
 * the all-reduce TP from above; the gap to the column generation's TP is
 * only the Steiner part (a multicast may need more than its copies LP). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"

/* Copy src's rows into dst: row r goes to row_map[r] (SSCHED_NO_ROW: a new
 * row), column j to col_map[j]; coefficients accumulate. */
static ssched_status_t merge_lp(ssched_lp_t *dst, const ssched_lp_t *src, const size_t *row_map,
                                const size_t *col_map, ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    for (size_t r = 0; r < src->n_rows && st == SSCHED_OK; r++) {
        const ssched_lp_row_t *row = &src->rows[r];
        size_t to = row_map[r];
        if (to == SSCHED_NO_ROW)
            st = ssched_lp_add_row(dst, row->name, row->sense, row->rhs, &to, err);
        for (size_t k = 0; k < row->nnz && st == SSCHED_OK; k++)
            st = ssched_lp_add_coef(dst, to, col_map[row->cols[k]], row->vals[k], err);
    }
    return st;
}

ssched_status_t ssched_i_car_split(const ssched_problem_t *pb, ssched_problem_t *red,
                          ssched_problem_t *bc, ssched_error_t *err)
{
    *red = *pb; /* shallow: read only */
    red->kind = SSCHED_PROBLEM_REDUCE;
    *bc = *pb;
    bc->kind = SSCHED_PROBLEM_BROADCAST;
    bc->commutative = 0;
    bc->n_sources = 1;
    bc->sources = &red->target;
    bc->n_participants = 0;
    bc->participants = NULL;
    bc->n_targets = 0;
    bc->targets = malloc((pb->n_participants + 1) * sizeof *bc->targets);
    if (!bc->targets)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < pb->n_participants; k++)
        if (pb->participants[k] != pb->target)
            bc->targets[bc->n_targets++] = pb->participants[k];
    return SSCHED_OK;
}

ssched_status_t ssched_i_car_build_edge_lp(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  ssched_lp_t *lp, size_t *tp_col, ssched_error_t *err)
{
    if (ssched_lp_init(lp, "ssar") != SSCHED_OK)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t n = p->n_nodes;
    ssched_problem_t red, bc; /* commutative: the reduce's relaxation LP */
    if (ssched_i_car_split(pb, &red, &bc, err) != SSCHED_OK)
        return SSCHED_ENOMEM;
    ssched_model_t mr, mb;
    ssched_model_init(&mr);
    ssched_model_init(&mb);
    ssched_status_t st = ssched_model_build(p, &red, &mr, err);
    int have_b = 0;
    if (st == SSCHED_OK) {
        st = ssched_model_build(p, &bc, &mb, err);
        have_b = 1;
    }
    size_t *rmap = NULL, *cmap = NULL;
    if (st == SSCHED_OK) {
        size_t nr = mr.lp.n_rows > mb.lp.n_rows ? mr.lp.n_rows : mb.lp.n_rows;
        size_t nc = mr.lp.n_cols > mb.lp.n_cols ? mr.lp.n_cols : mb.lp.n_cols;
        rmap = malloc((nr + 1) * sizeof *rmap);
        cmap = malloc((nc + 1) * sizeof *cmap);
        if (!rmap || !cmap)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    /* the reduce LP as it is */
    for (size_t j = 0; j < mr.lp.n_cols && st == SSCHED_OK; j++) {
        st = ssched_lp_add_col(lp, mr.lp.col_names[j], mr.lp.obj[j], &cmap[j], err);
    }
    for (size_t r = 0; r < mr.lp.n_rows && st == SSCHED_OK; r++)
        rmap[r] = SSCHED_NO_ROW;
    if (st == SSCHED_OK)
        st = merge_lp(lp, &mr.lp, rmap, cmap, err);
    /* the broadcast LP: its TP is the reduce's, its resource rows are the
     * reduce's where those exist (both builders make the same rows) */
    size_t tp = mr.tp_col; /* the reduce's columns keep their indices */
    if (tp_col)
        *tp_col = tp;
    for (size_t j = 0; j < mb.lp.n_cols && st == SSCHED_OK; j++) {
        if (j == mb.tp_col)
            cmap[j] = tp;
        else
            st = ssched_lp_add_col(lp, mb.lp.col_names[j], NULL, &cmap[j], err);
    }
    for (size_t r = 0; r < mb.lp.n_rows && st == SSCHED_OK; r++)
        rmap[r] = SSCHED_NO_ROW;
    for (size_t i = 0; i < n && st == SSCHED_OK; i++) {
        if (mb.out_row[i] != SSCHED_NO_ROW)
            rmap[mb.out_row[i]] = mr.out_row[i];
        if (mb.in_row[i] != SSCHED_NO_ROW)
            rmap[mb.in_row[i]] = mr.in_row[i];
    }
    for (size_t k = 0; k < ssched_i_res_count(p) && st == SSCHED_OK; k++)
        if (mb.link_row[k] != SSCHED_NO_ROW)
            rmap[mb.link_row[k]] = mr.link_row[k];
    if (st == SSCHED_OK)
        st = merge_lp(lp, &mb.lp, rmap, cmap, err);
    free(rmap);
    free(cmap);
    ssched_model_free(&mr);
    if (have_b)
        ssched_model_free(&mb);
    free(bc.targets);
    return st;
}

/* `ssched lp --problem allreduce --root R` (ssched_model_build): the
 * combined edge LP; its row maps stay empty (no solution is read back). */
ssched_status_t ssched_i_car_model_build(const ssched_platform_t *p, const ssched_problem_t *pb,
                                ssched_model_t *m, ssched_error_t *err)
{
    if (pb->target == SIZE_MAX)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "allreduce: the edge LP is stated for one root (set problem.target)");
    ssched_lp_free(&m->lp);
    return ssched_i_car_build_edge_lp(p, pb, &m->lp, &m->tp_col, err);
}
