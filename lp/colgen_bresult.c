/* Reading the certified broadcast master back as a steady-state solution
 * (colgen_bcast.h): the rated arborescences, the copies per edge they add
 * up to, and the port and link occupations and prices. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_bcast.h"
#include "lp/internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_cgb_interpret(const cgb_master_t *m, ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = m->g.p;
    size_t n = m->g.n, ne = m->g.ne;
    const ssched_lp_solution_t *sol = &out->lp;
    mpq_set(out->throughput, sol->objective);
    int vectors = ssched_i_steady_resources(out, n, ne); /* compute: 0, nothing computes */
    mpq_t *copies = ssched_i_mpq_vec_new(ne);
    out->flows = ssched_i_alloc(ne, sizeof *out->flows);
    out->arborescences = ssched_i_alloc(m->n_cols, sizeof *out->arborescences);
    if (!vectors || !copies || !out->flows || !out->arborescences) {
        if (copies)
            for (size_t e = 0; e < ne; e++)
                mpq_clear(copies[e]);
        free(copies);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        mpq_srcptr y = sol->x[k];
        if (mpq_sgn(y) == 0)
            continue;
        const cgb_column_t *c = &m->cols[k];
        ssched_arborescence_t *a = &out->arborescences[out->n_arborescences];
        ssched_arborescence_init(a);
        out->n_arborescences++;
        mpq_set(a->weight, y);
        a->arcs = ssched_i_alloc(c->n_arcs, sizeof *a->arcs);
        if (!a->arcs) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        a->n_arcs = c->n_arcs;
        memcpy(a->arcs, c->arcs, c->n_arcs * sizeof *c->arcs);
        /* sorted by head node, as ssched_arborescence_t promises (insertion
         * sort: columns are short and each head appears once) */
        for (size_t i = 1; i < a->n_arcs; i++)
            for (size_t j = i; j > 0 && p->to[a->arcs[j - 1]] > p->to[a->arcs[j]]; j--) {
                size_t t = a->arcs[j];
                a->arcs[j] = a->arcs[j - 1];
                a->arcs[j - 1] = t;
            }
        for (size_t i = 0; i < c->n_arcs; i++)
            mpq_add(copies[c->arcs[i]], copies[c->arcs[i]], y);
    }
    mpq_t busy;
    mpq_init(busy);
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        if (mpq_sgn(copies[e]) == 0)
            continue;
        ssched_flow_t *f = &out->flows[out->n_flows++];
        f->edge = e;
        f->type = 0;
        mpq_init(f->rate);
        mpq_set(f->rate, copies[e]);
        mpq_mul(busy, copies[e], m->g.w[e]);
        size_t i = p->from[e], j = p->to[e];
        if (m->out_row[i] != SIZE_MAX)
            mpq_add(out->out_busy[i], out->out_busy[i], busy);
        if (m->in_row[j] != SIZE_MAX)
            mpq_add(out->in_busy[j], out->in_busy[j], busy);
        if (ssched_i_edge_tracks_load(p, e))
            mpq_add(out->link_busy[e], out->link_busy[e], busy);
    }
    mpq_clear(busy);
    for (size_t i = 0; i < n; i++) {
        if (m->out_row[i] != SIZE_MAX)
            mpq_set(out->out_price[i], sol->y[m->out_row[i]]);
        if (m->in_row[i] != SIZE_MAX)
            mpq_set(out->in_price[i], sol->y[m->in_row[i]]);
    }
    for (size_t k = 0; k < m->nres && st == SSCHED_OK; k++)
        if (m->link_row[k] != SIZE_MAX && !ssched_i_res_set_price(p, out, k, sol->y[m->link_row[k]]))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t e = 0; e < ne; e++)
        mpq_clear(copies[e]);
    free(copies);
    return st;
}

