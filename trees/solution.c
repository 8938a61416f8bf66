/* The integer per-period reduce solution that trees are extracted from. */
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "trees/internal.h"

static int cmp_send(const void *a, const void *b)
{
    const tr_send_t *x = a, *y = b;
    if (x->head != y->head)
        return x->head < y->head ? -1 : 1;
    if (x->interval != y->interval)
        return x->interval < y->interval ? -1 : 1;
    return x->edge < y->edge ? -1 : x->edge > y->edge;
}

static int cmp_cons(const void *a, const void *b)
{
    const tr_cons_t *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    if (x->m != y->m)
        return x->m < y->m ? -1 : 1;
    return x->l < y->l ? -1 : x->l > y->l;
}

void ssched_i_tr_solution_free(tr_solution_t *sol)
{
    for (size_t k = 0; k < sol->n_sends; k++)
        mpz_clear(sol->sends[k].count);
    for (size_t k = 0; k < sol->n_cons; k++)
        mpz_clear(sol->cons[k].count);
    free(sol->sends);
    free(sol->cons);
    memset(sol, 0, sizeof *sol);
}

ssched_status_t ssched_i_tr_solution_build(const ssched_platform_t *p, const ssched_steady_t *s,
                                  const mpz_t period, tr_solution_t *out, ssched_error_t *err)
{
    memset(out, 0, sizeof *out);
    size_t ne = p->n_edges;
    out->sends = ssched_i_alloc(s->n_flows, sizeof *out->sends);
    out->cons = ssched_i_alloc(s->n_tasks, sizeof *out->cons);
    mpq_t *flow = ssched_i_mpq_vec_new(ne);
    if (!out->sends || !out->cons || !flow) {
        ssched_i_mpq_vec_free(flow, ne);
        free(out->sends);
        free(out->cons);
        out->sends = NULL;
        out->cons = NULL;
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_t T, q;
    mpq_inits(T, q, NULL);
    mpq_set_z(T, period);
    /* flows are sorted by edge then interval: gather each interval's flow
     * over all edges, cancel its cycles, and keep what is left. */
    ssched_status_t st = SSCHED_OK;
    for (size_t I = 0; I < s->n_intervals && st == SSCHED_OK; I++) {
        int any = 0;
        for (size_t k = 0; k < s->n_flows; k++)
            if (s->flows[k].type == I) {
                mpq_set(flow[s->flows[k].edge], s->flows[k].rate);
                any = 1;
            }
        if (!any)
            continue;
        mpq_t before;
        mpq_init(before);
        for (size_t e = 0; e < ne; e++)
            mpq_add(before, before, flow[e]);
        if (!ssched_platform_cancel_cycles(p, flow))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        mpq_set_ui(q, 0, 1);
        for (size_t e = 0; e < ne; e++)
            mpq_add(q, q, flow[e]);
        if (!mpq_equal(q, before))
            out->cycles_cancelled++;
        mpq_clear(before);
        for (size_t e = 0; e < ne; e++) {
            if (mpq_sgn(flow[e]) > 0) {
                tr_send_t *x = &out->sends[out->n_sends++];
                x->edge = e;
                x->interval = I;
                x->head = p->to[e];
                mpz_init(x->count);
                mpq_mul(q, flow[e], T);
                if (mpz_cmp_ui(mpq_denref(q), 1) != 0)
                    st = ssched_error_set(err, SSCHED_EINTERNAL, "period does not clear a rate");
                mpz_set(x->count, mpq_numref(q));
            }
            mpq_set_ui(flow[e], 0, 1);
        }
    }
    for (size_t k = 0; k < s->n_tasks && st == SSCHED_OK; k++) {
        tr_cons_t *c = &out->cons[out->n_cons++];
        c->node = s->tasks[k].node;
        c->k = s->tasks[k].k;
        c->l = s->tasks[k].l;
        c->m = s->tasks[k].m;
        mpz_init(c->count);
        mpq_mul(q, s->tasks[k].rate, T);
        if (mpz_cmp_ui(mpq_denref(q), 1) != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "period does not clear a task rate");
        mpz_set(c->count, mpq_numref(q));
    }
    qsort(out->sends, out->n_sends, sizeof *out->sends, cmp_send);
    qsort(out->cons, out->n_cons, sizeof *out->cons, cmp_cons);
    ssched_i_mpq_vec_free(flow, ne);
    mpq_clears(T, q, NULL);
    return st;
}

void ssched_i_tr_find_sends(const tr_solution_t *sol, size_t node, size_t interval, size_t *begin,
                   size_t *end)
{
    size_t lo = 0, hi = sol->n_sends;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const tr_send_t *x = &sol->sends[mid];
        if (x->head < node || (x->head == node && x->interval < interval))
            lo = mid + 1;
        else
            hi = mid;
    }
    *begin = lo;
    while (lo < sol->n_sends && sol->sends[lo].head == node && sol->sends[lo].interval == interval)
        lo++;
    *end = lo;
}

void ssched_i_tr_find_cons(const tr_solution_t *sol, size_t node, size_t k, size_t m, size_t *begin,
                  size_t *end)
{
    size_t lo = 0, hi = sol->n_cons;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const tr_cons_t *x = &sol->cons[mid];
        if (x->node < node || (x->node == node && (x->k < k || (x->k == k && x->m < m))))
            lo = mid + 1;
        else
            hi = mid;
    }
    *begin = lo;
    while (lo < sol->n_cons && sol->cons[lo].node == node && sol->cons[lo].k == k &&
           sol->cons[lo].m == m)
        lo++;
    *end = lo;
}
