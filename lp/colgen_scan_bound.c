/* The scan's certified upper bounds beside its achievable packing
 * (lp/colgen_scan.h): the ordered reduce of each demand's prefix, and the
 * edge LP of lp/build_scan.c over as many demands as its size allows; and
 * which participants are cut off. */
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_scan.h"
#include "src/util/internal.h"

/* Scan: participant k is unreachable when some r_j, j > k (whose prefix
 * holds v_k), cannot be reached from r_k. */
ssched_status_t ssched_i_scan_unreachable(const ssched_platform_t *p, const ssched_problem_t *pb,
                                          unsigned char *reach, unsigned char *unreachable,
                                          ssched_error_t *err)
{
    size_t N = pb->n_participants;
    for (size_t k = 0; k < N; k++) {
        ssched_status_t st = ssched_platform_reachable(p, pb->participants[k], 0, reach, err);
        if (st != SSCHED_OK)
            return st;
        for (size_t j = k + 1; j < N; j++)
            if (!reach[pb->participants[j]])
                unreachable[k] = 1;
    }
    return SSCHED_OK;
}

/* The scan edge LP's size estimate, columns, of demand j: one send per
 * (edge, interval in [0,a_j]) and one task per (node with w, T in [0,a_j]).
 * The bound LP takes demands while their sum stays within
 * SCAN_EDGE_LP_MAX_COLS (a third of it routed, whose resource rows are
 * denser): bench/scan.sh, tiers-small N = 8 (about 7000 columns) takes 3.5 s
 * graph and 350 s routed. */
#define SCAN_EDGE_LP_MAX_COLS 12000.0
static double scan_demand_size(const ssched_platform_t *p, const ssched_problem_t *pb, size_t j)
{
    double nw = 0, a = (double)(pb->exclusive ? j - 1 : j);
    for (size_t i = 0; i < p->n_nodes; i++)
        nw += p->has_w[i] != 0;
    return (double)p->n_edges * (a + 1) * (a + 2) / 2 + nw * (a + 1) * a * (a - 1) / 6;
}

/* The edge LP over a subset of the demands (a relaxation: docs/model.md):
 * the reduce bound's demand first, then the others by increasing prefix
 * while the size allows; certified exactly.  Lowers out->upper_bound when
 * smaller (scan_bound_demand = 0, scan_bound_lp_demands = how many). */
static ssched_status_t scan_edge_bound(const ssched_platform_t *p, const ssched_problem_t *pb,
                                       const ssched_steady_options_t *opt, int have,
                                       ssched_steady_t *out, ssched_error_t *err)
{
    size_t N = pb->n_participants, count = 0;
    double cap = SCAN_EDGE_LP_MAX_COLS / (p->routes ? 3 : 1), used = 0;
    unsigned char *take = ssched_i_calloc(N, 1);
    if (!take)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (have && scan_demand_size(p, pb, out->scan_bound_demand) <= cap) {
        take[out->scan_bound_demand] = 1;
        used = scan_demand_size(p, pb, out->scan_bound_demand);
        count = 1;
    }
    for (size_t j = 1; j < N; j++) /* sizes grow with j */
        if (!take[j] && used + scan_demand_size(p, pb, j) <= cap) {
            take[j] = 1;
            used += scan_demand_size(p, pb, j);
            count++;
        }
    ssched_status_t st = SSCHED_OK;
    /* demand j* alone is its reduce LP again: nothing to gain */
    if (count && !(have && count == 1 && take[out->scan_bound_demand])) {
        ssched_model_t m;
        ssched_model_init(&m);
        ssched_lp_solution_t sol;
        ssched_lp_solution_init(&sol);
        st = ssched_i_model_build_scan_subset(p, pb, take, &m, err);
        if (st == SSCHED_OK)
            st = ssched_lp_solve(&m.lp, &opt->lp, &sol, err);
        out->phase_bound.count++;
        if (st == SSCHED_OK && (!have || mpq_cmp(sol.objective, out->upper_bound) < 0)) {
            mpq_set(out->upper_bound, sol.objective);
            out->scan_bound_demand = 0;
            out->scan_bound_lp_demands = count;
        }
        ssched_lp_solution_free(&sol);
        ssched_model_free(&m);
    }
    free(take);
    return st;
}

/* The reduce bounds (docs/model.md, "Parallel prefix", the cheap bound):
 * demand j alone -- v[0,a_j] of r_0..r_{a_j} delivered to r_j at rate TP --
 * is an ordered reduce to r_j, so the certified optimum of that reduce
 * (column generation) bounds the scan TP; the smallest over the demands
 * with a_j >= 1 into out->upper_bound, its demand in out->scan_bound_demand.
 * *have = 0 when there is none (N = 2 exclusive). */
static ssched_status_t scan_reduce_bounds(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_options_t *opt, ssched_steady_t *out,
                                         int *have, ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    *have = 0;
    for (size_t j = 1; j < pb->n_participants && st == SSCHED_OK; j++) {
        size_t a = pb->exclusive ? j - 1 : j;
        if (a == 0)
            continue;
        ssched_problem_t red;
        ssched_problem_init(&red);
        red.kind = SSCHED_PROBLEM_REDUCE;
        red.participants = ssched_i_alloc(a + 1, sizeof *red.participants);
        if (!red.participants) {
            ssched_problem_free(&red);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        memcpy(red.participants, pb->participants, (a + 1) * sizeof *red.participants);
        red.n_participants = a + 1;
        red.target = pb->participants[j];
        mpq_set(red.size, pb->size);
        ssched_steady_options_t o = *opt;
        o.method = SSCHED_METHOD_COLGEN;
        ssched_steady_t r;
        ssched_steady_init(&r);
        st = ssched_steady_solve_opts(p, &red, &o, &r, err);
        if (st == SSCHED_OK && (!*have || mpq_cmp(r.throughput, out->upper_bound) < 0)) {
            mpq_set(out->upper_bound, r.throughput);
            out->scan_bound_demand = j;
            *have = 1;
        }
        ssched_steady_free(&r);
        ssched_problem_free(&red);
    }
    return st;
}

/* Scan by column generation (lp/colgen_scan.h): the achievable TP of a
 * packing of prefix structures, then certified upper bounds: the reduce
 * bounds, and unless they already meet the achievable TP, the scan edge
 * LP over as many demands as its size allows (every demand on small
 * instances: the whole edge LP); upper_bound is the smallest. */
ssched_status_t ssched_i_cgs_solve_bounded(const ssched_platform_t *p, const ssched_problem_t *pb,
                                          const ssched_steady_options_t *opt, ssched_steady_t *out,
                                          ssched_error_t *err)
{
    ssched_status_t st = ssched_i_cgs_solve(p, pb, opt, out, err);
    unsigned char *reach = ssched_i_alloc(p->n_nodes + 1, 1);
    out->unreachable = ssched_i_calloc(pb->n_participants, 1);
    if (st == SSCHED_OK && (!reach || !out->unreachable))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = ssched_i_scan_unreachable(p, pb, reach, out->unreachable, err);
    free(reach);
    if (st != SSCHED_OK)
        return st;
    cg_clock_t c0 = cg_clock();
    int have = 0;
    mpq_t tp;
    mpq_init(tp);
    mpq_set(tp, out->throughput); /* the bounds' solves must not touch it */
    st = scan_reduce_bounds(p, pb, opt, out, &have, err);
    out->phase_bound.count += pb->n_participants - 1;
    if (st == SSCHED_OK && (!have || !mpq_equal(out->upper_bound, tp)))
        st = scan_edge_bound(p, pb, opt, have, out, err);
    cg_phase_add(&out->phase_bound, c0);
    if (st == SSCHED_OK && mpq_cmp(tp, out->upper_bound) > 0)
        st = ssched_error_set(err, SSCHED_EINTERNAL,
                              "scan: achievable TP above a certified upper bound");
    out->optimal = mpq_equal(tp, out->upper_bound);
    mpq_clear(tp);
    return st;
}
