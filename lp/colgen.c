/* Column generation for the steady-state problems, certified exactly
 * (colgen_internal.h).
 *
 * Iterations run on a floating-point master (lp_solve, columns added in
 * place) priced in doubles.  The result is then certified once: the final
 * master is solved exactly (lp/solve.c: exact basis, exact certificate), and
 * the exact duals are priced with the exact dynamic program; any column
 * with a positive reduced cost is added and the exact solve repeats.  When
 * none is left, the exact master optimum is the optimum of the full problem
 * (every feasible solution is a combination of trees or paths, RR-4872
 * Lemma 2, and the exact duals price every one of them non-positively). */
#include <lpsolve/lp_lib.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"

static void report(const cg_master_t *m, const ssched_steady_options_t *opt, double *last,
                   long it, double lower, double upper, int exact)
{
    if (!opt->progress)
        return;
    double t = ssched_i_wall_now();
    if (t - *last < opt->progress_interval)
        return;
    *last = t;
    ssched_progress_t info = {it, (long)m->n_cols, lower, upper, t - m->t0, exact};
    opt->progress(opt->progress_ctx, &info);
}

/* Progress inside a long step (one pricing per message type: 10^4 types
 * took minutes without a line, issue 24 item 5); rate-limited as report(). */
static void tick(const cg_master_t *m, const ssched_steady_options_t *opt, double *last,
                 const char *stage, size_t done, size_t total)
{
    if (!opt->step)
        return;
    double t = ssched_i_wall_now();
    if (t - *last < opt->progress_interval)
        return;
    *last = t;
    opt->step(opt->progress_ctx, stage, done, total, t - m->t0);
}

/* Float phase: add the cheapest column(s) while they improve the master. */
static ssched_status_t float_phase(cg_master_t *m, const ssched_steady_options_t *opt,
                                   ssched_steady_t *out, ssched_error_t *err)
{
    double *y = malloc(m->n_rows * sizeof *y);
    if (!y)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    cg_prices_d pr = {y, y + m->n, NULL, NULL};
    size_t ne = m->nres;
    double *cpu = ssched_i_calloc(m->n, sizeof *cpu);
    double *link = ssched_i_calloc(ne, sizeof *link);
    if (!cpu || !link) {
        free(y);
        free(cpu);
        free(link);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    pr.cpu = cpu;
    pr.link = link;
    ssched_status_t st = SSCHED_OK;
    double last = ssched_i_wall_now();
    for (long it = 0; st == SSCHED_OK; it++) {
        double t = ssched_i_wall_now();
        int ret = solve(m->lp);
        out->lp.float_seconds += ssched_i_wall_now() - t;
        out->lp.float_solves++;
        if (ret != OPTIMAL) {
            st = SSCHED_OK; /* leave it to the exact phase */
            break;
        }
        if (!ssched_i_cg_float_duals(m->lp, m->n_rows, y)) {
            st = ssched_error_set(err, SSCHED_ESOLVER, "lp_solve gave no duals");
            break;
        }
        if (m->reduce)
            for (size_t i = 0; i < m->n; i++)
                cpu[i] = m->cpu_row[i] == SIZE_MAX ? 0.0 : y[m->cpu_row[i]];
        for (size_t e = 0; e < ne; e++)
            link[e] = m->link_row[e] == SIZE_MAX ? 0.0 : y[m->link_row[e]];
        double z = get_objective(m->lp), bound = z;
        int added = 0;
        t = ssched_i_wall_now();
        if (m->reduce) {
            cg_column_t c;
            double cost = 0;
            int r = ssched_i_cg_price_reduce_d(m->p, m->pb, &pr, &c, &cost);
            if (r < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else if (r == 1) {
                if (cost > 0)
                    bound = z / cost < z ? z : z / cost; /* Farley's bound */
                if (cost < 1 - 1e-9 && !ssched_i_cg_known(m, &c)) {
                    added = ssched_i_cg_master_add(m, &c);
                    if (!added)
                        ssched_i_cg_column_free(&c);
                } else {
                    ssched_i_cg_column_free(&c);
                }
            }
        } else {
            double ratio = 1;
            for (size_t t2 = 0; t2 < m->n_types && st == SSCHED_OK; t2++) {
                cg_column_t c;
                double cost = 0, mu = y[2 * m->n + t2];
                tick(m, opt, &last, "pricing paths", t2, m->n_types);
                int r = ssched_i_cg_price_path_d(m->p, m->pb, m->types[t2].origin, m->types[t2].dest, &pr,
                                        &c, &cost);
                if (r < 0) {
                    st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                    break;
                }
                if (r == 0)
                    continue;
                c.type = t2;
                if (cost > 0 && mu / cost > ratio)
                    ratio = mu / cost;
                if (cost < mu - 1e-9 && !ssched_i_cg_known(m, &c)) {
                    if (ssched_i_cg_master_add(m, &c))
                        added++;
                    else
                        ssched_i_cg_column_free(&c);
                } else {
                    ssched_i_cg_column_free(&c);
                }
            }
            bound = z * ratio;
        }
        out->cg_pricing_seconds += ssched_i_wall_now() - t;
        out->cg_iterations++;
        report(m, opt, &last, it, z, bound, 0);
        if (!added)
            break;
    }
    free(y);
    free(cpu);
    free(link);
    return st;
}

/* Exact phase: certify, adding exactly-priced columns until none helps. */
static ssched_status_t exact_phase(cg_master_t *m, const ssched_steady_options_t *opt,
                                   ssched_lp_t *lp, ssched_steady_t *out, ssched_error_t *err)
{
    size_t n = m->n, ne = m->nres;
    cg_prices_q pr;
    pr.out = ssched_i_alloc(n, sizeof(mpq_t));
    pr.in = ssched_i_alloc(n, sizeof(mpq_t));
    pr.cpu = ssched_i_alloc(n, sizeof(mpq_t));
    pr.link = ssched_i_alloc(ne, sizeof(mpq_t));
    if (!pr.out || !pr.in || !pr.cpu || !pr.link) {
        free(pr.out); free(pr.in); free(pr.cpu); free(pr.link);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        mpq_inits(pr.out[i], pr.in[i], pr.cpu[i], NULL);
    for (size_t e = 0; e < ne; e++)
        mpq_init(pr.link[e]);
    mpq_t cost, one;
    mpq_inits(cost, one, NULL);
    mpq_set_ui(one, 1, 1);
    ssched_status_t st = SSCHED_OK;
    double last = ssched_i_wall_now();
    for (;;) {
        ssched_lp_free(lp);
        if ((st = ssched_i_cg_exact_master(m, lp, err)) != SSCHED_OK)
            break;
        ssched_lp_solution_t sol;
        ssched_lp_solution_init(&sol);
        cg_clock_t c0 = cg_clock();
        st = ssched_lp_solve(lp, &opt->lp, &sol, err);
        cg_phase_add(&out->phase_master, c0);
        out->phase_master.count++;
        cg_add_solve_figures(out, &sol);
        if (st != SSCHED_OK) {
            ssched_lp_solution_free(&sol);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            mpq_set(pr.out[i], sol.y[i]);
            mpq_set(pr.in[i], sol.y[n + i]);
            mpq_set_ui(pr.cpu[i], 0, 1);
            if (m->reduce && m->cpu_row[i] != SIZE_MAX)
                mpq_set(pr.cpu[i], sol.y[m->cpu_row[i]]);
        }
        /* the link rows' exact duals: the certificate covers them too */
        for (size_t e = 0; e < ne; e++) {
            if (m->link_row[e] == SIZE_MAX)
                mpq_set_ui(pr.link[e], 0, 1);
            else
                mpq_set(pr.link[e], sol.y[m->link_row[e]]);
        }
        out->cg_exact_passes++;
        double t = ssched_i_wall_now();
        int added = 0;
        if (m->reduce) {
            cg_column_t c;
            int r = ssched_i_cg_price_reduce_q(m->p, m->pb, &pr, &c, cost);
            if (r < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else if (r == 1 && mpq_cmp(cost, one) < 0) {
                if (ssched_i_cg_known(m, &c) || !ssched_i_cg_master_add(m, &c)) {
                    ssched_i_cg_column_free(&c);
                    st = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "exact pricing repeats a column of the master");
                } else {
                    added = 1;
                }
            } else if (r == 1) {
                ssched_i_cg_column_free(&c);
            }
        } else {
            for (size_t t2 = 0; t2 < m->n_types && st == SSCHED_OK; t2++) {
                cg_column_t c;
                tick(m, opt, &last, "exact pricing of paths", t2, m->n_types);
                int r = ssched_i_cg_price_path_q(m->p, m->pb, m->types[t2].origin, m->types[t2].dest, &pr,
                                        &c, cost);
                if (r < 0) {
                    st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                    break;
                }
                if (r == 0)
                    continue;
                c.type = t2;
                if (mpq_cmp(cost, sol.y[2 * n + t2]) < 0) {
                    if (ssched_i_cg_known(m, &c) || !ssched_i_cg_master_add(m, &c)) {
                        ssched_i_cg_column_free(&c);
                        st = ssched_error_set(err, SSCHED_EINTERNAL,
                                              "exact pricing repeats a column of the master");
                    } else {
                        added++;
                    }
                } else {
                    ssched_i_cg_column_free(&c);
                }
            }
        }
        out->cg_pricing_seconds += ssched_i_wall_now() - t;
        double z = mpq_get_d(sol.objective);
        report(m, opt, &last, out->cg_iterations, z, z, 1);
        if (st == SSCHED_OK && !added) {
            /* certified: keep the exact solution */
            ssched_lp_solution_free(&out->lp);
            out->lp = sol;
            break;
        }
        ssched_lp_solution_free(&sol);
        if (st != SSCHED_OK)
            break;
    }
    for (size_t i = 0; i < n; i++)
        mpq_clears(pr.out[i], pr.in[i], pr.cpu[i], NULL);
    for (size_t e = 0; e < ne; e++)
        mpq_clear(pr.link[e]);
    free(pr.out); free(pr.in); free(pr.cpu); free(pr.link);
    mpq_clears(cost, one, NULL);
    return st;
}

ssched_status_t ssched_i_cg_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const ssched_steady_options_t *opt, ssched_steady_t *out,
                         ssched_error_t *err)
{
    cg_master_t m;
    memset(&m, 0, sizeof m);
    m.p = p;
    m.pb = pb;
    m.t0 = ssched_i_wall_now();
    m.reduce = pb->kind == SSCHED_PROBLEM_REDUCE;
    m.n = p->n_nodes;
    out->method = SSCHED_METHOD_COLGEN;
    out->kind = pb->kind;
    ssched_status_t st = SSCHED_OK;
    size_t N = pb->n_participants;
    /* message types */
    if (m.reduce) {
        out->n_intervals = N * (N + 1) / 2;
        out->intervals = malloc(out->n_intervals * sizeof *out->intervals);
        m.cpu_row = malloc(m.n * sizeof *m.cpu_row);
        if (!out->intervals || !m.cpu_row) {
            free(m.cpu_row);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        size_t I = 0;
        for (size_t k = 0; k < N; k++)
            for (size_t mm = k; mm < N; mm++)
                out->intervals[I++] = (ssched_interval_t){k, mm};
        m.n_rows = 2 * m.n;
        for (size_t i = 0; i < m.n; i++)
            m.cpu_row[i] = p->has_w[i] ? m.n_rows++ : SIZE_MAX;
    } else {
        size_t cap = pb->n_sources * pb->n_targets;
        m.types = ssched_i_alloc(cap, sizeof *m.types);
        if (!m.types)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t a = 0; a < pb->n_sources; a++)
            for (size_t b = 0; b < pb->n_targets; b++)
                if (pb->sources[a] != pb->targets[b])
                    m.types[m.n_types++] = (ssched_commodity_t){pb->sources[a], pb->targets[b]};
        m.n_rows = 2 * m.n + m.n_types;
        out->n_commodities = m.n_types;
        out->commodities = ssched_i_alloc(m.n_types, sizeof *out->commodities);
        if (!out->commodities) {
            free(m.types);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        memcpy(out->commodities, m.types, m.n_types * sizeof *m.types);
    }
    /* link rows: one per link resource some edge charges (an edge with a
     * switch at either end; routed: SHARED links, FATPIPE rows), after the
     * cpu / delivery rows */
    size_t ne = m.nres = ssched_i_res_count(p);
    m.link0 = m.n_rows;
    m.link_row = ssched_i_alloc(ne, sizeof *m.link_row);
    m.link_edge = ssched_i_alloc(ne, sizeof *m.link_edge);
    unsigned char *used = ssched_i_res_used_flags(p);
    if (!m.link_row || !m.link_edge || !used) {
        free(m.link_row);
        free(m.link_edge);
        free(used);
        free(m.types);
        free(m.cpu_row);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < ne; e++) {
        m.link_row[e] = SIZE_MAX;
        if (used[e]) {
            m.link_edge[m.n_rows - m.link0] = e;
            m.link_row[e] = m.n_rows++;
        }
    }
    free(used);
    /* reachability: a type or participant that cannot get through means
     * TP = 0, with nothing to generate */
    size_t n_unreach = m.reduce ? N : m.n_types;
    out->unreachable = ssched_i_calloc(n_unreach, 1);
    unsigned char *reach = ssched_i_alloc(m.n, 1);
    int blocked = 0;
    if (!out->unreachable || !reach)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && m.reduce) {
        st = ssched_platform_reachable(p, pb->target, 1, reach, err);
        for (size_t k = 0; k < N && st == SSCHED_OK; k++)
            blocked |= out->unreachable[k] = !reach[pb->participants[k]];
    }
    double last = ssched_i_wall_now();
    for (size_t t = 0; t < m.n_types && st == SSCHED_OK; t++) {
        /* types are grouped by origin: one search per origin */
        tick(&m, opt, &last, "reachability", t, m.n_types);
        if (t == 0 || m.types[t].origin != m.types[t - 1].origin)
            st = ssched_platform_reachable(p, m.types[t].origin, 0, reach, err);
        blocked |= out->unreachable[t] = !reach[m.types[t].dest];
    }
    free(reach);
    /* the floating-point master */
    if (st == SSCHED_OK) {
        m.lp = make_lp((int)m.n_rows, 0);
        if (!m.lp)
            st = ssched_error_set(err, SSCHED_ESOLVER, "lp_solve: cannot create the master");
    }
    if (st == SSCHED_OK) {
        ssched_i_lp_log(m.lp, opt->lp.verbose);
        set_maxim(m.lp);
        set_presolve(m.lp, PRESOLVE_SENSDUALS, get_presolveloops(m.lp));
        for (size_t r = 0; r < m.n_rows; r++) {
            set_constr_type(m.lp, (int)r + 1, LE);
            set_rh(m.lp, (int)r + 1, cg_capacity_row(&m, r) ? 1.0 : 0.0);
        }
        if (!m.reduce) { /* TP: objective 1, +1 in every delivery row */
            REAL *val = malloc((m.n_types + 1) * sizeof *val);
            int *row = malloc((m.n_types + 1) * sizeof *row);
            if (!val || !row) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            } else {
                val[0] = 1.0;
                row[0] = 0;
                for (size_t t = 0; t < m.n_types; t++) {
                    val[t + 1] = 1.0;
                    row[t + 1] = (int)(2 * m.n + t) + 1;
                }
                if (!add_columnex(m.lp, (int)m.n_types + 1, val, row))
                    st = ssched_error_set(err, SSCHED_ESOLVER, "lp_solve: cannot add TP");
            }
            free(val);
            free(row);
        }
    }
    /* initial columns: the cheapest trees/paths at zero prices */
    if (st == SSCHED_OK && !blocked) {
        double *zero = calloc(3 * m.n + ne + 1, sizeof *zero);
        cg_prices_d pr = {zero, zero + m.n, zero + 2 * m.n, zero + 3 * m.n};
        if (!zero)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t t = 0; st == SSCHED_OK && !blocked && t < (m.reduce ? 1 : m.n_types); t++) {
            cg_column_t c;
            double cost;
            tick(&m, opt, &last, "initial paths", t, m.n_types);
            int r = m.reduce ? ssched_i_cg_price_reduce_d(p, pb, &pr, &c, &cost)
                             : ssched_i_cg_price_path_d(p, pb, m.types[t].origin, m.types[t].dest, &pr, &c, &cost);
            if (r < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else if (r == 0)
                /* no tree at all (nowhere to merge: no node with w where
                 * the values can meet): TP = 0, certified below */
                blocked = 1;
            else {
                c.type = m.reduce ? 0 : t;
                if (!ssched_i_cg_master_add(&m, &c)) {
                    ssched_i_cg_column_free(&c);
                    st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                }
            }
        }
        free(zero);
    }
    if (st == SSCHED_OK && !blocked) {
        cg_clock_t c_float = cg_clock();
        st = float_phase(&m, opt, out, err);
        cg_phase_add(&out->phase_float, c_float);
        out->phase_float.count = out->cg_iterations;
    }
    ssched_lp_t lp;
    if (ssched_lp_init(&lp, "master") != SSCHED_OK && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && !blocked) {
        double t = ssched_i_wall_now();
        cg_clock_t c_exact = cg_clock();
        ssched_phase_t master0 = out->phase_master;
        st = exact_phase(&m, opt, &lp, out, err);
        cg_exact_phase_done(out, c_exact, master0);
        (void)t;
    }
    if (st == SSCHED_OK && blocked) {
        /* TP = 0: certified by the empty master (no column can exist) */
        ssched_lp_free(&lp);
        st = ssched_i_cg_exact_master(&m, &lp, err);
        if (st == SSCHED_OK)
            st = ssched_lp_solve(&lp, &opt->lp, &out->lp, err);
    }
    out->lp_rows = lp.n_rows;
    out->lp_cols = lp.n_cols;
    out->cg_columns = (long)m.n_cols;
    if (st == SSCHED_OK)
        st = ssched_i_cg_interpret(&m, out, err);
    ssched_lp_free(&lp);
    if (m.lp)
        delete_lp(m.lp);
    for (size_t k = 0; k < m.n_cols; k++)
        ssched_i_cg_column_free(&m.cols[k]);
    free(m.cols);
    free(m.types);
    free(m.cpu_row);
    free(m.link_row);
    free(m.link_edge);
    return st;
}
