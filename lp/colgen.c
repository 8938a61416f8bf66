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

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    int reduce;
    size_t n, n_types;                 /* nodes; scatter/gossip types   */
    ssched_commodity_t *types;
    size_t n_rows;                     /* out n, in n, then cpu / delivery */
    size_t *cpu_row;                   /* reduce: node -> row or SIZE_MAX */
    size_t n_cols, cap;
    cg_column_t *cols;
    lprec *lp;                         /* the floating-point master     */
    double t0;
} master_t;

/* Exact coefficients of column c (rows touched, values), TP excluded. */
static void column_coefs(const master_t *m, const cg_column_t *c, mpq_t *coef)
{
    mpq_t q;
    mpq_init(q);
    for (size_t r = 0; r < m->n_rows; r++)
        mpq_set_ui(coef[r], 0, 1);
    for (size_t k = 0; k < c->n_sends; k++) {
        size_t e = c->send_edge[k];
        mpq_mul(q, m->p->c[e], m->pb->size);
        mpq_add(coef[m->p->from[e]], coef[m->p->from[e]], q);
        mpq_add(coef[m->n + m->p->to[e]], coef[m->n + m->p->to[e]], q);
    }
    for (size_t k = 0; k < c->n_merges; k++) {
        size_t i = c->merge_node[k];
        mpq_add(coef[m->cpu_row[i]], coef[m->cpu_row[i]], m->p->w[i]);
    }
    if (!m->reduce)
        mpq_set_si(coef[2 * m->n + c->type], -1, 1);
    mpq_clear(q);
}

/* Add column c to the master (taking ownership) and to the float model. */
static int master_add(master_t *m, cg_column_t *c)
{
    if (m->n_cols == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        cg_column_t *cols = realloc(m->cols, cap * sizeof *cols);
        if (!cols)
            return 0;
        m->cols = cols;
        m->cap = cap;
    }
    mpq_t *coef = malloc(m->n_rows * sizeof *coef);
    REAL *val = malloc((m->n_rows + 1) * sizeof *val);
    int *row = malloc((m->n_rows + 1) * sizeof *row);
    int ok = coef && val && row;
    if (ok) {
        for (size_t r = 0; r < m->n_rows; r++)
            mpq_init(coef[r]);
        column_coefs(m, c, coef);
        int cnt = 0;
        if (m->reduce) { /* objective: one reduction per tree instance */
            val[cnt] = 1.0;
            row[cnt++] = 0;
        }
        for (size_t r = 0; r < m->n_rows; r++)
            if (mpq_sgn(coef[r]) != 0) {
                val[cnt] = mpq_get_d(coef[r]);
                row[cnt++] = (int)r + 1;
            }
        ok = add_columnex(m->lp, cnt, val, row);
        for (size_t r = 0; r < m->n_rows; r++)
            mpq_clear(coef[r]);
    }
    free(coef);
    free(val);
    free(row);
    if (ok)
        m->cols[m->n_cols++] = *c;
    return ok;
}

static int same_column(const cg_column_t *a, const cg_column_t *b)
{
    if (a->n_sends != b->n_sends || a->n_merges != b->n_merges || a->type != b->type)
        return 0;
    for (size_t k = 0; k < a->n_sends; k++)
        if (a->send_edge[k] != b->send_edge[k] || a->send_interval[k] != b->send_interval[k])
            return 0;
    for (size_t k = 0; k < a->n_merges; k++)
        if (a->merge_node[k] != b->merge_node[k] || a->merge_l[k] != b->merge_l[k] ||
            a->merge_k[k] != b->merge_k[k] || a->merge_m[k] != b->merge_m[k])
            return 0;
    return 1;
}

static int known(const master_t *m, const cg_column_t *c)
{
    for (size_t k = 0; k < m->n_cols; k++)
        if (same_column(&m->cols[k], c))
            return 1;
    return 0;
}

/* Float duals of the master, as non-negative prices.  lp_solve's sign
 * convention for a maximization is checked against strong duality. */
static int float_prices(master_t *m, double *y)
{
    REAL *duals = NULL;
    if (!get_ptr_sensitivity_rhs(m->lp, &duals, NULL, NULL) || !duals)
        return 0;
    double obj = get_objective(m->lp), sum = 0;
    for (size_t r = 0; r < m->n_rows; r++) {
        y[r] = duals[r];
        sum += (r < 2 * m->n || (m->reduce && r >= 2 * m->n)) ? duals[r] : 0.0;
    }
    double sign = (fabs(sum - obj) <= fabs(sum + obj)) ? 1.0 : -1.0;
    for (size_t r = 0; r < m->n_rows; r++) {
        y[r] *= sign;
        if (y[r] < 0)
            y[r] = 0;
    }
    return 1;
}

static void report(const master_t *m, const ssched_steady_options_t *opt, double *last,
                   long it, double lower, double upper, int exact)
{
    if (!opt->progress)
        return;
    double t = lp_now();
    if (t - *last < opt->progress_interval)
        return;
    *last = t;
    ssched_progress_t info = {it, (long)m->n_cols, lower, upper, t - m->t0, exact};
    opt->progress(opt->progress_ctx, &info);
}

/* Float phase: add the cheapest column(s) while they improve the master. */
static ssched_status_t float_phase(master_t *m, const ssched_steady_options_t *opt,
                                   ssched_steady_t *out, ssched_error_t *err)
{
    double *y = malloc(m->n_rows * sizeof *y);
    if (!y)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    cg_prices_d pr = {y, y + m->n, NULL};
    double *cpu = calloc(m->n ? m->n : 1, sizeof *cpu);
    pr.cpu = cpu;
    ssched_status_t st = SSCHED_OK;
    double last = lp_now();
    for (long it = 0; st == SSCHED_OK; it++) {
        double t = lp_now();
        int ret = solve(m->lp);
        out->lp.float_seconds += lp_now() - t;
        out->lp.float_solves++;
        if (ret != OPTIMAL) {
            st = SSCHED_OK; /* leave it to the exact phase */
            break;
        }
        if (!float_prices(m, y)) {
            st = ssched_error_set(err, SSCHED_ESOLVER, "lp_solve gave no duals");
            break;
        }
        if (m->reduce)
            for (size_t i = 0; i < m->n; i++)
                cpu[i] = m->cpu_row[i] == SIZE_MAX ? 0.0 : y[m->cpu_row[i]];
        double z = get_objective(m->lp), bound = z;
        int added = 0;
        t = lp_now();
        if (m->reduce) {
            cg_column_t c;
            double cost = 0;
            int r = cg_price_reduce_d(m->p, m->pb, &pr, &c, &cost);
            if (r < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else if (r == 1) {
                if (cost > 0)
                    bound = z / cost < z ? z : z / cost; /* Farley's bound */
                if (cost < 1 - 1e-9 && !known(m, &c)) {
                    added = master_add(m, &c);
                    if (!added)
                        cg_column_free(&c);
                } else {
                    cg_column_free(&c);
                }
            }
        } else {
            double ratio = 1;
            for (size_t t2 = 0; t2 < m->n_types && st == SSCHED_OK; t2++) {
                cg_column_t c;
                double cost = 0, mu = y[2 * m->n + t2];
                int r = cg_price_path_d(m->p, m->pb, m->types[t2].origin, m->types[t2].dest, &pr,
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
                if (cost < mu - 1e-9 && !known(m, &c)) {
                    if (master_add(m, &c))
                        added++;
                    else
                        cg_column_free(&c);
                } else {
                    cg_column_free(&c);
                }
            }
            bound = z * ratio;
        }
        out->cg_pricing_seconds += lp_now() - t;
        out->cg_iterations++;
        report(m, opt, &last, it, z, bound, 0);
        if (!added)
            break;
    }
    free(y);
    free(cpu);
    return st;
}

/* Build the exact master as an ssched_lp_t over the current columns. */
static ssched_status_t exact_master(const master_t *m, ssched_lp_t *lp, ssched_error_t *err)
{
    ssched_lp_init(lp, m->reduce ? "master_trees" : "master_paths");
    mpq_t one, zero;
    mpq_inits(one, zero, NULL);
    mpq_set_ui(one, 1, 1);
    ssched_status_t st = SSCHED_OK;
    char name[48];
    for (size_t r = 0; r < m->n_rows && st == SSCHED_OK; r++) {
        int deliver = !m->reduce && r >= 2 * m->n;
        if (r < m->n)
            snprintf(name, sizeof name, "out_n%zu", r);
        else if (r < 2 * m->n)
            snprintf(name, sizeof name, "in_n%zu", r - m->n);
        else
            snprintf(name, sizeof name, deliver ? "deliver_t%zu" : "cpu_%zu", r - 2 * m->n);
        st = ssched_lp_add_row(lp, name, SSCHED_ROW_LE, deliver ? zero : one, NULL, err);
    }
    size_t tp = 0;
    if (!m->reduce && st == SSCHED_OK) {
        st = ssched_lp_add_col(lp, "TP", one, &tp, err);
        for (size_t t = 0; t < m->n_types && st == SSCHED_OK; t++)
            st = ssched_lp_add_coef(lp, 2 * m->n + t, tp, one, err);
    }
    mpq_t *coef = malloc(m->n_rows * sizeof *coef);
    if (!coef && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0; coef && r < m->n_rows; r++)
        mpq_init(coef[r]);
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        size_t col;
        snprintf(name, sizeof name, "%s%zu", m->reduce ? "tree" : "path", k);
        st = ssched_lp_add_col(lp, name, m->reduce ? one : NULL, &col, err);
        column_coefs(m, &m->cols[k], coef);
        for (size_t r = 0; r < m->n_rows && st == SSCHED_OK; r++)
            st = ssched_lp_add_coef(lp, r, col, coef[r], err);
    }
    for (size_t r = 0; coef && r < m->n_rows; r++)
        mpq_clear(coef[r]);
    free(coef);
    mpq_clears(one, zero, NULL);
    return st;
}

/* Exact phase: certify, adding exactly-priced columns until none helps. */
static ssched_status_t exact_phase(master_t *m, const ssched_steady_options_t *opt,
                                   ssched_lp_t *lp, ssched_steady_t *out, ssched_error_t *err)
{
    size_t n = m->n;
    cg_prices_q pr;
    pr.out = malloc(n * sizeof(mpq_t));
    pr.in = malloc(n * sizeof(mpq_t));
    pr.cpu = malloc(n * sizeof(mpq_t));
    if (!pr.out || !pr.in || !pr.cpu) {
        free(pr.out); free(pr.in); free(pr.cpu);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        mpq_inits(pr.out[i], pr.in[i], pr.cpu[i], NULL);
    mpq_t cost, one;
    mpq_inits(cost, one, NULL);
    mpq_set_ui(one, 1, 1);
    ssched_status_t st = SSCHED_OK;
    double last = lp_now();
    for (;;) {
        ssched_lp_free(lp);
        if ((st = exact_master(m, lp, err)) != SSCHED_OK)
            break;
        ssched_lp_solution_t sol;
        ssched_lp_solution_init(&sol);
        st = ssched_lp_solve(lp, &opt->lp, &sol, err);
        out->lp.float_seconds += sol.float_seconds;
        out->lp.exact_seconds += sol.exact_seconds;
        out->lp.repair_pivots += sol.repair_pivots;
        out->lp.float_solves += sol.float_solves;
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
        out->cg_exact_passes++;
        double t = lp_now();
        int added = 0;
        if (m->reduce) {
            cg_column_t c;
            int r = cg_price_reduce_q(m->p, m->pb, &pr, &c, cost);
            if (r < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else if (r == 1 && mpq_cmp(cost, one) < 0) {
                if (known(m, &c) || !master_add(m, &c)) {
                    cg_column_free(&c);
                    st = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "exact pricing repeats a column of the master");
                } else {
                    added = 1;
                }
            } else if (r == 1) {
                cg_column_free(&c);
            }
        } else {
            for (size_t t2 = 0; t2 < m->n_types && st == SSCHED_OK; t2++) {
                cg_column_t c;
                int r = cg_price_path_q(m->p, m->pb, m->types[t2].origin, m->types[t2].dest, &pr,
                                        &c, cost);
                if (r < 0) {
                    st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                    break;
                }
                if (r == 0)
                    continue;
                c.type = t2;
                if (mpq_cmp(cost, sol.y[2 * n + t2]) < 0) {
                    if (known(m, &c) || !master_add(m, &c)) {
                        cg_column_free(&c);
                        st = ssched_error_set(err, SSCHED_EINTERNAL,
                                              "exact pricing repeats a column of the master");
                    } else {
                        added++;
                    }
                } else {
                    cg_column_free(&c);
                }
            }
        }
        out->cg_pricing_seconds += lp_now() - t;
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
    free(pr.out); free(pr.in); free(pr.cpu);
    mpq_clears(cost, one, NULL);
    return st;
}

/* The master's tree as an ssched_tree_t (tasks in pre-order from the root,
 * with parents), found by walking the column's own tasks from v[0,N-1] on
 * the target as FIND_TREE does. */
static int column_to_tree(const master_t *m, const ssched_steady_t *s, const cg_column_t *c,
                          ssched_tree_t *t)
{
    size_t N = m->pb->n_participants, total = c->n_sends + c->n_merges;
    memset(t, 0, sizeof *t);
    mpz_init(t->weight);
    t->tasks = malloc((total ? total : 1) * sizeof *t->tasks);
    size_t *stack = malloc(3 * (total + 1) * sizeof *stack);
    if (!t->tasks || !stack) {
        free(stack);
        return 0;
    }
    size_t top = 0;
    /* entries: (k, m, node, parent, depth) packed in 5 slots */
    size_t *st5 = realloc(stack, 5 * (total + 1) * sizeof *st5);
    if (!st5) {
        free(stack);
        return 0;
    }
    stack = st5;
    stack[0] = 0; stack[1] = N - 1; stack[2] = m->pb->target; stack[3] = SIZE_MAX; stack[4] = 0;
    top = 1;
    int ok = 1;
    while (top && ok) {
        top--;
        size_t k = stack[5 * top], mm = stack[5 * top + 1], node = stack[5 * top + 2];
        size_t parent = stack[5 * top + 3], depth = stack[5 * top + 4];
        if (k == mm && m->pb->participants[k] == node)
            continue;
        int found = 0;
        for (size_t x = 0; x < c->n_merges && !found; x++)
            if (c->merge_node[x] == node && c->merge_k[x] == k && c->merge_m[x] == mm) {
                size_t l = c->merge_l[x], me = t->n_tasks;
                t->tasks[t->n_tasks++] = (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, node, k, l, mm,
                                                              parent, depth};
                size_t *e = stack + 5 * top;
                e[0] = l + 1; e[1] = mm; e[2] = node; e[3] = me; e[4] = depth + 1;
                e += 5;
                e[0] = k; e[1] = l; e[2] = node; e[3] = me; e[4] = depth + 1;
                top += 2;
                found = 1;
            }
        for (size_t x = 0; x < c->n_sends && !found; x++) {
            size_t e = c->send_edge[x], I = c->send_interval[x];
            if (m->p->to[e] == node && s->intervals[I].k == k && s->intervals[I].m == mm) {
                size_t me = t->n_tasks;
                t->tasks[t->n_tasks++] = (ssched_tree_task_t){SSCHED_TREE_SEND, e, 0, k, 0, mm,
                                                              parent, depth};
                size_t *f = stack + 5 * top;
                f[0] = k; f[1] = mm; f[2] = m->p->from[e]; f[3] = me; f[4] = depth + 1;
                top++;
                found = 1;
            }
        }
        if (!found || t->n_tasks > total)
            ok = 0;
    }
    free(stack);
    return ok && t->n_tasks == total;
}

/* Interpret the certified master: rates per (edge, type/interval), tasks,
 * port and processor occupation and prices, the rated trees. */
static ssched_status_t interpret(master_t *m, ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = m->p;
    size_t n = m->n, nt = m->reduce ? out->n_intervals : m->n_types;
    size_t first_col = m->reduce ? 0 : 1; /* the TP column comes first */
    ssched_lp_solution_t *sol = &out->lp;
    mpq_set(out->throughput, sol->objective);
    size_t ne = p->n_edges;
    mpq_t *rate = lp_new_vec(ne * nt);
    out->out_busy = lp_new_vec(n);
    out->in_busy = lp_new_vec(n);
    out->out_price = lp_new_vec(n);
    out->in_price = lp_new_vec(n);
    out->compute_busy = lp_new_vec(n);
    out->compute_price = lp_new_vec(n);
    if (!rate || !out->out_busy || !out->in_busy || !out->out_price || !out->in_price ||
        !out->compute_busy || !out->compute_price)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    out->n_nodes = n;
    size_t n_merges = 0;
    for (size_t k = 0; k < m->n_cols; k++)
        n_merges += m->cols[k].n_merges;
    out->tasks = malloc((n_merges ? n_merges : 1) * sizeof *out->tasks);
    if (m->reduce) {
        out->rated_trees = calloc(m->n_cols ? m->n_cols : 1, sizeof *out->rated_trees);
        out->tree_rates = malloc((m->n_cols ? m->n_cols : 1) * sizeof *out->tree_rates);
    }
    if (!out->tasks || (m->reduce && (!out->rated_trees || !out->tree_rates)))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        mpq_srcptr lambda = sol->x[first_col + k];
        if (mpq_sgn(lambda) == 0)
            continue;
        const cg_column_t *c = &m->cols[k];
        for (size_t x = 0; x < c->n_sends; x++) {
            size_t e = c->send_edge[x], ty = m->reduce ? c->send_interval[x] : c->type;
            mpq_add(rate[ty * ne + e], rate[ty * ne + e], lambda);
        }
        for (size_t x = 0; x < c->n_merges; x++) {
            size_t y;
            for (y = 0; y < out->n_tasks; y++)
                if (out->tasks[y].node == c->merge_node[x] && out->tasks[y].k == c->merge_k[x] &&
                    out->tasks[y].l == c->merge_l[x] && out->tasks[y].m == c->merge_m[x])
                    break;
            if (y == out->n_tasks) {
                ssched_task_t *nt2 = &out->tasks[y];
                nt2->node = c->merge_node[x];
                nt2->k = c->merge_k[x];
                nt2->l = c->merge_l[x];
                nt2->m = c->merge_m[x];
                mpq_init(nt2->rate);
                out->n_tasks++;
            }
            mpq_add(out->tasks[y].rate, out->tasks[y].rate, lambda);
            mpq_mul(q, lambda, p->w[c->merge_node[x]]);
            mpq_add(out->compute_busy[c->merge_node[x]], out->compute_busy[c->merge_node[x]], q);
        }
        if (m->reduce) {
            ssched_tree_t *t = &out->rated_trees[out->n_rated_trees];
            if (!column_to_tree(m, out, c, t)) {
                mpz_clear(t->weight);
                free(t->tasks);
                st = ssched_error_set(err, SSCHED_EINTERNAL, "a generated tree is not a reduction tree");
                break;
            }
            mpq_init(out->tree_rates[out->n_rated_trees]);
            mpq_set(out->tree_rates[out->n_rated_trees++], lambda);
        }
    }
    out->flows = malloc((ne * nt > 0 ? ne * nt : 1) * sizeof *out->flows);
    if (!out->flows && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < ne * nt && st == SSCHED_OK; k++) {
        if (mpq_sgn(rate[k]) == 0)
            continue;
        ssched_flow_t *f = &out->flows[out->n_flows++];
        f->edge = k % ne;
        f->type = k / ne;
        mpq_init(f->rate);
        mpq_set(f->rate, rate[k]);
        mpq_mul(q, rate[k], p->c[f->edge]);
        mpq_mul(q, q, m->pb->size);
        mpq_add(out->out_busy[p->from[f->edge]], out->out_busy[p->from[f->edge]], q);
        mpq_add(out->in_busy[p->to[f->edge]], out->in_busy[p->to[f->edge]], q);
    }
    if (out->flows)
        qsort(out->flows, out->n_flows, sizeof *out->flows, lp_flow_by_edge_then_type);
    for (size_t i = 0; i < n; i++) {
        mpq_set(out->out_price[i], sol->y[i]);
        mpq_set(out->in_price[i], sol->y[n + i]);
        if (m->reduce && m->cpu_row[i] != SIZE_MAX)
            mpq_set(out->compute_price[i], sol->y[m->cpu_row[i]]);
    }
    for (size_t k = 0; k < ne * nt; k++)
        mpq_clear(rate[k]);
    free(rate);
    mpq_clear(q);
    return st;
}

ssched_status_t cg_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const ssched_steady_options_t *opt, ssched_steady_t *out,
                         ssched_error_t *err)
{
    master_t m;
    memset(&m, 0, sizeof m);
    m.p = p;
    m.pb = pb;
    m.t0 = lp_now();
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
        if (!out->intervals || !m.cpu_row)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        size_t I = 0;
        for (size_t k = 0; k < N; k++)
            for (size_t mm = k; mm < N; mm++)
                out->intervals[I++] = (ssched_interval_t){k, mm};
        m.n_rows = 2 * m.n;
        for (size_t i = 0; i < m.n; i++)
            m.cpu_row[i] = p->has_w[i] ? m.n_rows++ : SIZE_MAX;
    } else {
        size_t cap = pb->n_sources * pb->n_targets;
        m.types = malloc((cap ? cap : 1) * sizeof *m.types);
        if (!m.types)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t a = 0; a < pb->n_sources; a++)
            for (size_t b = 0; b < pb->n_targets; b++)
                if (pb->sources[a] != pb->targets[b])
                    m.types[m.n_types++] = (ssched_commodity_t){pb->sources[a], pb->targets[b]};
        m.n_rows = 2 * m.n + m.n_types;
        out->n_commodities = m.n_types;
        out->commodities = malloc((m.n_types ? m.n_types : 1) * sizeof *out->commodities);
        if (!out->commodities) {
            free(m.types);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        memcpy(out->commodities, m.types, m.n_types * sizeof *m.types);
    }
    /* reachability: a type or participant that cannot get through means
     * TP = 0, with nothing to generate */
    size_t n_unreach = m.reduce ? N : m.n_types;
    out->unreachable = calloc(n_unreach ? n_unreach : 1, 1);
    unsigned char *reach = malloc(m.n ? m.n : 1);
    int blocked = 0;
    if (!out->unreachable || !reach)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && m.reduce) {
        st = ssched_platform_reachable(p, pb->target, 1, reach, err);
        for (size_t k = 0; k < N && st == SSCHED_OK; k++)
            blocked |= out->unreachable[k] = !reach[pb->participants[k]];
    }
    for (size_t t = 0; t < m.n_types && st == SSCHED_OK; t++) {
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
        set_verbose(m.lp, opt->lp.verbose ? NORMAL : NEUTRAL);
        set_maxim(m.lp);
        set_presolve(m.lp, PRESOLVE_SENSDUALS, get_presolveloops(m.lp));
        for (size_t r = 0; r < m.n_rows; r++) {
            set_constr_type(m.lp, (int)r + 1, LE);
            set_rh(m.lp, (int)r + 1, (!m.reduce && r >= 2 * m.n) ? 0.0 : 1.0);
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
        double *zero = calloc(3 * m.n + 1, sizeof *zero);
        cg_prices_d pr = {zero, zero + m.n, zero + 2 * m.n};
        if (!zero)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t t = 0; st == SSCHED_OK && !blocked && t < (m.reduce ? 1 : m.n_types); t++) {
            cg_column_t c;
            double cost;
            int r = m.reduce ? cg_price_reduce_d(p, pb, &pr, &c, &cost)
                             : cg_price_path_d(p, pb, m.types[t].origin, m.types[t].dest, &pr, &c, &cost);
            if (r < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            else if (r == 0)
                /* no tree at all (nowhere to merge: no node with w where
                 * the values can meet): TP = 0, certified below */
                blocked = 1;
            else {
                c.type = m.reduce ? 0 : t;
                if (!master_add(&m, &c)) {
                    cg_column_free(&c);
                    st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                }
            }
        }
        free(zero);
    }
    if (st == SSCHED_OK && !blocked)
        st = float_phase(&m, opt, out, err);
    ssched_lp_t lp;
    ssched_lp_init(&lp, "master");
    if (st == SSCHED_OK && !blocked) {
        double t = lp_now();
        st = exact_phase(&m, opt, &lp, out, err);
        (void)t;
    }
    if (st == SSCHED_OK && blocked) {
        /* TP = 0: certified by the empty master (no column can exist) */
        ssched_lp_free(&lp);
        st = exact_master(&m, &lp, err);
        if (st == SSCHED_OK)
            st = ssched_lp_solve(&lp, &opt->lp, &out->lp, err);
    }
    out->lp_rows = lp.n_rows;
    out->lp_cols = lp.n_cols;
    out->cg_columns = (long)m.n_cols;
    if (st == SSCHED_OK)
        st = interpret(&m, out, err);
    ssched_lp_free(&lp);
    if (m.lp)
        delete_lp(m.lp);
    for (size_t k = 0; k < m.n_cols; k++)
        cg_column_free(&m.cols[k]);
    free(m.cols);
    free(m.types);
    free(m.cpu_row);
    return st;
}
