/* The achievable TP of a scan by column generation over prefix structures
 * (lp/colgen_scan.h): the ordered reduce's master (one operation per
 * column; ports, processors, links) with the anchor-chain pricer, on the
 * engine (lp/colgen_engine.h), read back as a certified feasible packing. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_scan.h"
#include "src/util/internal.h"

typedef struct {
    cg_master_t *m;
    cg_scratch_t s;
    mpq_t cost, one;
    int blocked; /* TP = 0: nothing to price (certify the empty master) */
} cgs_ctx_t;

/* Float pricing: the cheapest chain; Farley's bound z / cost. */
static ssched_status_t price_d(void *vctx, cg_engine_t *e, const double *y, double z, int *added,
                               double *upper, ssched_error_t *err)
{
    (void)e;
    cgs_ctx_t *x = vctx;
    cg_prices_d pr = ssched_i_cg_prices_d(x->m, y, &x->s);
    cg_column_t c;
    double cost = 0;
    *upper = z;
    int r = ssched_i_cgs_price_d(x->m->p, x->m->pb, &pr, &c, &cost);
    if (r < 0)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (r == 0)
        return SSCHED_OK;
    if (cost > 0 && z / cost > z)
        *upper = z / cost;
    if (cost < 1 - 1e-9 && !ssched_i_cg_known(x->m, &c) && ssched_i_cg_master_add(x->m, &c))
        *added = 1;
    else
        ssched_i_cg_column_free(&c);
    return SSCHED_OK;
}

/* Exact pricing: a chain costing less than 1 (its reduced cost 1 - cost >
 * 0) is added; none left: the master is optimal over every anchor chain. */
static ssched_status_t price_q(void *vctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err)
{
    (void)e;
    cgs_ctx_t *x = vctx;
    if (x->blocked)
        return SSCHED_OK;
    const cg_prices_q *pr = ssched_i_cg_prices_q(x->m, (const mpq_t *)sol->y, &x->s);
    cg_column_t c;
    int r = ssched_i_cgs_price_q(x->m->p, x->m->pb, pr, &c, x->cost);
    if (r < 0)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (r == 0)
        return SSCHED_OK;
    if (mpq_cmp(x->cost, x->one) >= 0) {
        ssched_i_cg_column_free(&c);
        return SSCHED_OK;
    }
    if (ssched_i_cg_known(x->m, &c) || !ssched_i_cg_master_add(x->m, &c)) {
        ssched_i_cg_column_free(&c);
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "scan: exact pricing repeats a column of the master");
    }
    *added = 1;
    return SSCHED_OK;
}

/* the master's adapters: the context starts with the master's pointer */
_Static_assert(offsetof(cgs_ctx_t, m) == 0, "cgs_ctx_t: m first (ssched_i_cge_master_exact)");
static const cg_pricer_t pricer = {price_d, price_q, ssched_i_cge_master_exact,
                                    ssched_i_cge_master_n_columns, 0};

/* Column c as a public structure (rate unset). */
static int to_structure(const ssched_steady_t *out, const cg_column_t *c,
                        ssched_scan_structure_t *s)
{
    s->tasks = ssched_i_alloc(c->n_merges + 1, sizeof *s->tasks);
    s->sends = ssched_i_alloc(c->n_sends + 1, sizeof *s->sends);
    mpq_init(s->rate);
    if (!s->tasks || !s->sends)
        return 0;
    for (size_t x = 0; x < c->n_merges; x++)
        s->tasks[s->n_tasks++] = (ssched_scan_task_t){c->merge_node[x], c->merge_k[x],
                                                      c->merge_l[x], c->merge_m[x]};
    for (size_t x = 0; x < c->n_sends; x++) {
        const ssched_interval_t *I = &out->intervals[c->send_interval[x]];
        s->sends[s->n_sends++] = (ssched_scan_send_t){c->send_edge[x], I->k, I->m};
    }
    return 1;
}

/* The certified master as a steady state: the structures with a nonzero
 * rate (each checked), rates per (edge, interval), tasks, busy times and
 * prices. */
static ssched_status_t interpret(cg_master_t *m, const ssched_problem_t *pb, ssched_steady_t *out,
                                 ssched_error_t *err)
{
    const ssched_platform_t *p = m->p;
    size_t n = m->n, ne = p->n_edges, nI = out->n_intervals;
    const ssched_lp_solution_t *sol = &out->lp;
    mpq_set(out->throughput, sol->objective);
    mpq_t *rate = ssched_i_mpq_vec_new(ne * nI);
    size_t n_merges = 0;
    for (size_t k = 0; k < m->n_cols; k++)
        n_merges += m->cols[k].n_merges;
    out->tasks = ssched_i_alloc(n_merges + 1, sizeof *out->tasks);
    out->scan_structures = ssched_i_calloc(m->n_cols + 1, sizeof *out->scan_structures);
    out->flows = ssched_i_alloc(ne * nI + 1, sizeof *out->flows);
    if (!rate || !out->tasks || !out->scan_structures || !out->flows ||
        !ssched_i_steady_resources(out, n, ne)) {
        ssched_i_mpq_vec_free(rate, ne * nI);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        mpq_srcptr lambda = sol->x[k];
        if (mpq_sgn(lambda) == 0)
            continue;
        const cg_column_t *c = &m->cols[k];
        ssched_scan_structure_t *s = &out->scan_structures[out->n_scan_structures++];
        if (!to_structure(out, c, s)) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        mpq_set(s->rate, lambda);
        ssched_check_report_t rep;
        st = ssched_scan_structure_check(p, pb, s, &rep, err);
        if (st == SSCHED_OK && !rep.valid)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "scan: a generated structure is "
                                  "invalid: %s", rep.violation);
        for (size_t x = 0; x < c->n_sends; x++) {
            size_t r = c->send_interval[x] * ne + c->send_edge[x];
            mpq_add(rate[r], rate[r], lambda);
        }
        ssched_i_cg_add_merges(p, c, lambda, out, q);
    }
    for (size_t k = 0; k < ne * nI && st == SSCHED_OK; k++) {
        if (mpq_sgn(rate[k]) == 0)
            continue;
        ssched_flow_t *f = &out->flows[out->n_flows++];
        f->edge = k % ne;
        f->type = k / ne;
        mpq_init(f->rate);
        mpq_set(f->rate, rate[k]);
        mpq_mul(q, rate[k], p->c[f->edge]);
        mpq_mul(q, q, pb->size);
        ssched_i_cg_add_busy(p, out, f->edge, q);
    }
    qsort(out->flows, out->n_flows, sizeof *out->flows, ssched_i_lp_flow_by_edge_then_type);
    if (st == SSCHED_OK)
        st = ssched_i_cg_set_prices(m, sol, out, err);
    ssched_i_mpq_vec_free(rate, ne * nI);
    mpq_clear(q);
    return st;
}

ssched_status_t ssched_i_cgs_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_options_t *opt, ssched_steady_t *out,
                                   ssched_error_t *err)
{
    cg_master_t m;
    /* one operation per column, every row a capacity row */
    ssched_status_t st = ssched_i_cg_master_start(&m, p, pb, 1, out, err);
    if (st != SSCHED_OK)
        return st;
    st = ssched_i_cg_master_rows(&m, 0, err);
    cg_engine_t eng;
    memset(&eng, 0, sizeof eng);
    if (st == SSCHED_OK)
        st = ssched_i_cge_init(&eng, m.n_rows, NULL, opt, out, err);
    m.eng = &eng;
    cgs_ctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.m = &m;
    mpq_inits(ctx.cost, ctx.one, NULL);
    mpq_set_ui(ctx.one, 1, 1);
    if (!ssched_i_cg_scratch_init(&ctx.s, m.n, m.nres) && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* the first column: the cheapest chain when every resource costs 1
     * (none: the values never meet on a node with w, TP = 0) */
    if (st == SSCHED_OK) {
        double *ones = ssched_i_alloc(3 * m.n + m.nres + 1, sizeof *ones);
        if (!ones)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; ones && k < 3 * m.n + m.nres; k++)
            ones[k] = 1.0;
        cg_column_t c;
        double cost;
        int r = ones ? ssched_i_cgs_price_d(p, pb,
                                            &(cg_prices_d){ones, ones + m.n, ones + 2 * m.n,
                                                           ones + 3 * m.n},
                                            &c, &cost)
                     : 0;
        if (r < 0)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (r == 0)
            ctx.blocked = 1;
        else if (!ssched_i_cg_master_add(&m, &c)) {
            ssched_i_cg_column_free(&c);
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        free(ones);
    }
    if (st == SSCHED_OK)
        st = ssched_i_cge_run(&eng, &pricer, &ctx, !ctx.blocked, err);
    ssched_i_cg_scratch_free(&ctx.s);
    mpq_clears(ctx.cost, ctx.one, NULL);
    out->cg_columns = m.n_cols;
    out->cg_pricing_exact = 1; /* exact over the family: every chain priced */
    if (st == SSCHED_OK)
        st = interpret(&m, pb, out, err);
    ssched_i_cge_free(&eng);
    for (size_t k = 0; k < m.n_cols; k++)
        ssched_i_cg_column_free(&m.cols[k]);
    free(m.cols);
    ssched_i_cg_index_free(&m);
    free(m.cpu_row);
    free(m.link_row);
    free(m.link_edge);
    return st;
}
