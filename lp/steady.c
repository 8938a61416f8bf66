/* ssched_steady_solve: build, solve exactly, and read the solution back in
 * platform terms (steady.h). */
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/colgen_bcast.h"
#include "lp/colgen_comm.h"
#include "lp/colgen_internal.h"
#include "lp/colgen_price.h"
#include "lp/colgen_scan.h"
#include "lp/internal.h"
#include "src/util/check_report.h"
#include "src/util/enum_names.h"
#include "src/util/internal.h"
#include "ssched/steady.h"

void ssched_steady_init(ssched_steady_t *s)
{
    memset(s, 0, sizeof *s);
    mpq_init(s->throughput);
    mpq_init(s->upper_bound);
    ssched_lp_solution_init(&s->lp);
}

void ssched_steady_free(ssched_steady_t *s)
{
    for (size_t k = 0; k < s->n_flows; k++)
        mpq_clear(s->flows[k].rate);
    free(s->flows);
    free(s->commodities);
    free(s->intervals);
    for (size_t k = 0; k < s->n_tasks; k++)
        mpq_clear(s->tasks[k].rate);
    free(s->tasks);
    ssched_i_mpq_vec_free(s->compute_busy, s->n_nodes);
    ssched_i_mpq_vec_free(s->compute_price, s->n_nodes);
    for (size_t k = 0; k < s->n_rated_trees; k++) {
        mpz_clear(s->rated_trees[k].weight);
        free(s->rated_trees[k].tasks);
        free(s->rated_trees[k].order);
        mpq_clear(s->tree_rates[k]);
    }
    free(s->rated_trees);
    free(s->tree_rates);
    free(s->unreachable);
    ssched_i_mpq_vec_free(s->out_busy, s->n_nodes);
    ssched_i_mpq_vec_free(s->in_busy, s->n_nodes);
    ssched_i_mpq_vec_free(s->out_price, s->n_nodes);
    ssched_i_mpq_vec_free(s->in_price, s->n_nodes);
    ssched_i_mpq_vec_free(s->link_busy, s->n_edges);
    ssched_i_mpq_vec_free(s->link_price, s->n_edges);
    ssched_i_mpq_vec_free(s->route_link_busy, s->n_links);
    ssched_i_mpq_vec_free(s->route_link_price, s->n_links);
    for (size_t k = 0; k < s->n_arborescences; k++)
        ssched_arborescence_free(&s->arborescences[k]);
    free(s->arborescences);
    free(s->root_candidates);
    ssched_i_mpq_vec_free(s->root_throughput, s->n_root_candidates);
    ssched_i_mpq_vec_free(s->root_upper_bound, s->n_root_candidates);
    free(s->root_pruned);
    for (size_t k = 0; k < s->n_scan_structures; k++) {
        free(s->scan_structures[k].tasks);
        free(s->scan_structures[k].sends);
        mpq_clear(s->scan_structures[k].rate);
    }
    free(s->scan_structures);
    mpq_clear(s->throughput);
    mpq_clear(s->upper_bound);
    ssched_lp_solution_free(&s->lp);
    memset(s, 0, sizeof *s);
}

/* SSCHED_METHOD_AUTO is column generation for every problem: it is not
 * chosen per instance.  bench/colgen.sh measured it faster than the edge LP
 * on every class it ran (reduces 41x to 1854x, broadcasts 110x, scatter
 * and gossip on 500 nodes where the edge LP does not finish in a minute),
 * and for a multicast, a commutative reduce and an all-reduce only column
 * generation gives the achievable TP a schedule can reach (their edge LPs
 * only bound it).  Column generation prices switch links like ports
 * (lp/colgen*.c), so it serves platforms with switches too.  --method lp
 * stays for cross-checks and exports. */

void ssched_steady_options_default(ssched_steady_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    ssched_lp_options_default(&opt->lp);
    opt->method = SSCHED_METHOD_AUTO;
    opt->progress_interval = 1.0;
}

/* The edge LP of RR-4872, solved and certified exactly. */
static ssched_status_t solve_edge_lp(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_lp_options_t *opt, ssched_steady_t *out,
                                     ssched_error_t *err);

/* Broadcast by column generation; a multicast also gets the edge LP's
 * certified optimum as its upper bound (its own solve: the Steiner master
 * only shows what is achievable). */
static ssched_status_t solve_broadcast_colgen(const ssched_platform_t *p,
                                             const ssched_problem_t *pb,
                                             const ssched_steady_options_t *opt,
                                             ssched_steady_t *out, ssched_error_t *err)
{
    ssched_status_t st = ssched_i_cgb_solve(p, pb, opt, out, err);
    if (st != SSCHED_OK)
        return st;
    if (!out->multicast) {
        mpq_set(out->upper_bound, out->throughput);
        out->optimal = 1;
        return SSCHED_OK;
    }
    ssched_steady_t ub;
    ssched_steady_init(&ub);
    st = solve_edge_lp(p, pb, &opt->lp, &ub, err);
    out->phase_bound.wall_seconds += ub.lp.float_seconds + ub.lp.exact_seconds;
    out->phase_bound.cpu_seconds += ub.lp.float_cpu_seconds + ub.lp.exact_cpu_seconds;
    out->phase_bound.count++;
    if (st == SSCHED_OK) {
        mpq_set(out->upper_bound, ub.throughput);
        out->lp.float_seconds += ub.lp.float_seconds;
        out->lp.exact_seconds += ub.lp.exact_seconds;
        if (mpq_cmp(out->throughput, ub.throughput) > 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "multicast: achievable TP above the edge LP's upper bound");
        out->optimal = out->cg_pricing_exact || mpq_equal(out->throughput, ub.throughput);
    }
    ssched_steady_free(&ub);
    return st;
}

ssched_status_t ssched_steady_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                                    const ssched_lp_options_t *lp_opt, ssched_steady_t *out,
                                    ssched_error_t *err)
{
    ssched_steady_options_t opt;
    ssched_steady_options_default(&opt);
    if (lp_opt)
        opt.lp = *lp_opt;
    return ssched_steady_solve_opts(p, pb, &opt, out, err);
}

static ssched_status_t dispatch(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_steady_options_t *opt, ssched_steady_t *out,
                                ssched_error_t *err);

ssched_status_t ssched_steady_solve_opts(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_options_t *opt,
                                         ssched_steady_t *out, ssched_error_t *err)
{
    ssched_steady_options_t defaults;
    if (!opt) {
        ssched_steady_options_default(&defaults);
        opt = &defaults;
    }
    ssched_steady_free(out);
    ssched_steady_init(out);
    ssched_status_t st = ssched_problem_validate(pb, p, err);
    if (st == SSCHED_OK)
        st = dispatch(p, pb, opt, out, err);
    if (st == SSCHED_OK) /* routed platforms: the link resources' loads */
        st = ssched_i_steady_routed_finish(p, out, err);
    return st;
}

static ssched_status_t dispatch(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_steady_options_t *opt, ssched_steady_t *out,
                                ssched_error_t *err)
{
    /* all-reduce: column generation over trees and arborescences in one
     * master (lp/colgen_allreduce.h); its edge LP only bounds the TP (the
     * broadcast part is a multicast), so --method lp is refused there */
    if (pb->kind == SSCHED_PROBLEM_ALLREDUCE)
        return ssched_i_car_solve(p, pb, opt, out, err);
    /* issue 14, in progress: refused until its solver lands */
    if (pb->commutative && pb->kind == SSCHED_PROBLEM_REDUCE)
        /* column generation over reduction in-trees (lp/colgen_comm.h);
         * the relaxation LP is only an upper bound, so no edge-LP method */
        return ssched_i_cgc_solve(p, pb, opt, out, err);
    if (pb->commutative)
        return ssched_error_set(err, SSCHED_EINPUT, "problem.commutative: not supported yet");
    /* scan (issue 27): --method lp the edge LP's upper bound alone; auto
     * and colgen the achievable packing of prefix structures and the bound */
    if (pb->kind == SSCHED_PROBLEM_SCAN && opt->method == SSCHED_METHOD_LP)
        return solve_edge_lp(p, pb, &opt->lp, out, err);
    if (pb->kind == SSCHED_PROBLEM_SCAN)
        return ssched_i_cgs_solve_bounded(p, pb, opt, out, err);
    ssched_method_t method = opt->method;
    if (method == SSCHED_METHOD_AUTO)
        method = SSCHED_METHOD_COLGEN;
    if (method == SSCHED_METHOD_COLGEN && pb->kind == SSCHED_PROBLEM_BROADCAST)
        return solve_broadcast_colgen(p, pb, opt, out, err);
    if (method == SSCHED_METHOD_COLGEN) {
        ssched_status_t st = ssched_i_cg_solve(p, pb, opt, out, err);
        ssched_i_cg_price_memo_release(); /* the path pricers' memo lives one solve */
        return st;
    }
    return solve_edge_lp(p, pb, &opt->lp, out, err);
}

/* Broadcast: lower every copies(e) to max_t send(e,t), the copies the
 * flows use (an optimal vertex may leave spare copies on a port whose price
 * is 0), and certify the lowered solution again: ports only get less busy,
 * every copy bound still holds, the objective and the duals are unchanged. */
static ssched_status_t tighten_copies(const ssched_model_t *m, ssched_lp_solution_t *sol,
                                      size_t n_edges, ssched_error_t *err)
{
    for (size_t e = 0; e < n_edges; e++)
        if (m->copy_col[e] != SSCHED_NO_ROW)
            mpq_set_ui(sol->x[m->copy_col[e]], 0, 1);
    for (size_t k = 0; k < m->n_sends; k++) {
        mpq_ptr c = sol->x[m->copy_col[m->send_edge[k]]];
        if (mpq_cmp(sol->x[m->send_col[k]], c) > 0)
            mpq_set(c, sol->x[m->send_col[k]]);
    }
    ssched_check_report_t rep;
    return ssched_i_report_require(
        ssched_lp_certify(&m->lp, (const mpq_t *)sol->x, (const mpq_t *)sol->y, NULL, &rep, err),
        &rep, SSCHED_EUNCERTIFIED, err);
}

/* Scan: lower every physical x(e,I) and t(i,T) to the largest demand flow
 * it bounds (the copy rows "cs_*" and "ct_*" of lp/build_scan.c: +1 on the
 * demand's column, -1 on the physical one), as tighten_copies does for a
 * broadcast, and certify again: resources only get less busy, the copy
 * rows still hold, objective and duals are unchanged. */
static ssched_status_t tighten_scan(const ssched_model_t *m, ssched_lp_solution_t *sol,
                                    ssched_error_t *err)
{
    for (size_t k = 0; k < m->n_sends; k++)
        mpq_set_ui(sol->x[m->send_col[k]], 0, 1);
    for (size_t k = 0; k < m->n_cons; k++)
        mpq_set_ui(sol->x[m->cons_col[k]], 0, 1);
    for (size_t r = 0; r < m->lp.n_rows; r++) {
        const ssched_lp_row_t *row = &m->lp.rows[r];
        if (row->nnz != 2 || (strncmp(row->name, "cs_", 3) && strncmp(row->name, "ct_", 3)))
            continue;
        size_t dem = mpq_sgn(row->vals[0]) > 0 ? 0 : 1;
        mpq_ptr phys = sol->x[row->cols[1 - dem]];
        if (mpq_cmp(sol->x[row->cols[dem]], phys) > 0)
            mpq_set(phys, sol->x[row->cols[dem]]);
    }
    ssched_check_report_t rep;
    return ssched_i_report_require(
        ssched_lp_certify(&m->lp, (const mpq_t *)sol->x, (const mpq_t *)sol->y, NULL, &rep, err),
        &rep, SSCHED_EUNCERTIFIED, err);
}

static ssched_status_t solve_edge_lp(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_lp_options_t *opt, ssched_steady_t *out,
                                     ssched_error_t *err)
{
    out->method = SSCHED_METHOD_LP;
    ssched_model_t m;
    ssched_model_init(&m);
    ssched_status_t st = ssched_model_build(p, pb, &m, err);
    if (st != SSCHED_OK) {
        ssched_model_free(&m);
        return st;
    }
    out->lp_rows = m.lp.n_rows;
    out->lp_cols = m.lp.n_cols;
    st = ssched_lp_solve(&m.lp, opt, &out->lp, err);
    out->phase_float = (ssched_phase_t){out->lp.float_seconds, out->lp.float_cpu_seconds,
                                        out->lp.float_solves};
    out->phase_master = (ssched_phase_t){out->lp.exact_seconds, out->lp.exact_cpu_seconds, 1};
    if (st == SSCHED_OK && m.copy_col)
        st = tighten_copies(&m, &out->lp, p->n_edges, err);
    if (st == SSCHED_OK && pb->kind == SSCHED_PROBLEM_SCAN)
        st = tighten_scan(&m, &out->lp, err);
    size_t n = p->n_nodes, nt = m.n_commodities;
    out->kind = pb->kind;
    if (st == SSCHED_OK) {
        out->n_nodes = n;
        out->compute_busy = ssched_i_mpq_vec_new(n);
        out->compute_price = ssched_i_mpq_vec_new(n);
        out->n_intervals = m.n_intervals;
        out->intervals = ssched_i_alloc(m.n_intervals, sizeof *out->intervals);
        out->tasks = ssched_i_alloc(m.n_cons, sizeof *out->tasks);
        if (!out->compute_busy || !out->compute_price || !out->intervals || !out->tasks) {
            ssched_model_free(&m);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        if (m.n_intervals) /* memcpy from NULL is undefined even for 0 bytes */
            memcpy(out->intervals, m.intervals, m.n_intervals * sizeof *m.intervals);
        for (size_t k = 0; k < m.n_cons; k++) {
            mpq_srcptr x = out->lp.x[m.cons_col[k]];
            if (mpq_sgn(x) == 0)
                continue;
            ssched_task_t *t = &out->tasks[out->n_tasks++];
            *t = m.cons[k];
            mpq_init(t->rate);
            mpq_set(t->rate, x);
            mpq_t busy;
            mpq_init(busy);
            mpq_mul(busy, x, p->w[t->node]);
            mpq_add(out->compute_busy[t->node], out->compute_busy[t->node], busy);
            mpq_clear(busy);
        }
        for (size_t i = 0; i < n; i++)
            if (m.compute_row && m.compute_row[i] != SSCHED_NO_ROW)
                mpq_set(out->compute_price[i], out->lp.y[m.compute_row[i]]);
        out->n_commodities = nt;
        out->commodities = ssched_i_alloc(nt, sizeof *out->commodities);
        size_t n_unreach = pb->kind == SSCHED_PROBLEM_REDUCE || pb->kind == SSCHED_PROBLEM_SCAN
                               ? pb->n_participants
                               : nt;
        out->unreachable = ssched_i_calloc(n_unreach, 1);
        out->flows = ssched_i_alloc(m.n_sends, sizeof *out->flows);
        out->out_busy = ssched_i_mpq_vec_new(n);
        out->in_busy = ssched_i_mpq_vec_new(n);
        out->out_price = ssched_i_mpq_vec_new(n);
        out->in_price = ssched_i_mpq_vec_new(n);
        out->n_edges = p->n_edges;
        out->link_busy = ssched_i_mpq_vec_new(p->n_edges);
        out->link_price = ssched_i_mpq_vec_new(p->n_edges);
        unsigned char *reach = ssched_i_alloc(n, 1);
        if (!out->commodities || !out->unreachable || !out->flows || !out->out_busy ||
            !out->in_busy || !out->out_price || !out->in_price || !out->link_busy ||
            !out->link_price || !reach) {
            free(reach);
            ssched_model_free(&m);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        if (nt)
            memcpy(out->commodities, m.commodities, nt * sizeof *m.commodities);
        for (size_t t = 0; t < nt && st == SSCHED_OK; t++) {
            st = ssched_platform_reachable(p, m.commodities[t].origin, 0, reach, err);
            out->unreachable[t] = !reach[m.commodities[t].dest];
        }
        if (pb->kind == SSCHED_PROBLEM_REDUCE && st == SSCHED_OK) {
            /* every value must travel (maybe merged) to the target */
            st = ssched_platform_reachable(p, pb->target, 1, reach, err);
            for (size_t k = 0; k < pb->n_participants; k++)
                out->unreachable[k] = !reach[pb->participants[k]];
        }
        if (pb->kind == SSCHED_PROBLEM_SCAN && st == SSCHED_OK)
            st = ssched_i_scan_unreachable(p, pb, reach, out->unreachable, err);
        free(reach);
        mpq_set(out->throughput, out->lp.x[m.tp_col]);
        mpq_t busy;
        mpq_init(busy);
        /* the rates that use the ports: every send, or (broadcast) the
         * copies per edge, which bound the targets' flows */
        int bcast = pb->kind == SSCHED_PROBLEM_BROADCAST;
        out->multicast = bcast && pb->n_targets + 1 < n; /* not every other node */
        for (size_t k = 0; k < (bcast ? p->n_edges : m.n_sends); k++) {
            size_t col = bcast ? m.copy_col[k] : m.send_col[k];
            if (col == SSCHED_NO_ROW || mpq_sgn(out->lp.x[col]) == 0)
                continue;
            mpq_srcptr x = out->lp.x[col];
            ssched_flow_t *f = &out->flows[out->n_flows++];
            f->edge = bcast ? k : m.send_edge[k];
            f->type = bcast ? 0 : m.send_type[k];
            mpq_init(f->rate);
            mpq_set(f->rate, x);
            mpq_mul(busy, x, p->c[f->edge]);
            mpq_mul(busy, busy, pb->size);
            /* a switch has no port: its links carry the load instead */
            if (m.out_row[p->from[f->edge]] != SSCHED_NO_ROW)
                mpq_add(out->out_busy[p->from[f->edge]], out->out_busy[p->from[f->edge]], busy);
            if (m.in_row[p->to[f->edge]] != SSCHED_NO_ROW)
                mpq_add(out->in_busy[p->to[f->edge]], out->in_busy[p->to[f->edge]], busy);
            if (ssched_i_edge_tracks_load(p, f->edge))
                mpq_add(out->link_busy[f->edge], out->link_busy[f->edge], busy);
        }
        mpq_clear(busy);
        qsort(out->flows, out->n_flows, sizeof *out->flows, ssched_i_lp_flow_by_edge_then_type);
        for (size_t i = 0; i < n; i++) {
            if (m.out_row[i] != SSCHED_NO_ROW)
                mpq_set(out->out_price[i], out->lp.y[m.out_row[i]]);
            if (m.in_row[i] != SSCHED_NO_ROW)
                mpq_set(out->in_price[i], out->lp.y[m.in_row[i]]);
        }
        for (size_t k = 0; k < ssched_i_res_count(p) && st == SSCHED_OK; k++)
            if (m.link_row[k] != SSCHED_NO_ROW &&
                !ssched_i_res_set_price(p, out, k, out->lp.y[m.link_row[k]]))
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    ssched_model_free(&m);
    return st;
}

SSCHED_I_ENUM_FUNCTIONS(method, ssched_method_t, "method", "auto", "lp", "colgen")
