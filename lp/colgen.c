/* Column generation for the steady-state problems, certified exactly
 * (colgen_internal.h): the ordered reduce (reduction trees) and scatter /
 * gossip (paths) as pricers of the engine (lp/colgen_engine.h).
 *
 * Iterations run on the engine's floating-point master priced in doubles.
 * The result is then certified once: the final master is solved exactly
 * (lp/solve.c: exact basis, exact certificate), and the exact duals are
 * priced with the exact dynamic program; any column with a positive
 * reduced cost is added and the exact solve repeats.  When none is left,
 * the exact master optimum is the optimum of the full problem (every
 * feasible solution is a combination of trees or paths, RR-4872 Lemma 2,
 * and the exact duals price every one of them non-positively). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* The pricer's context: the master and price scratch. */
typedef struct {
    cg_master_t *m;
    double *cpu, *link;   /* float prices per node / link resource        */
    cg_prices_q q;        /* exact prices                                  */
    mpq_t cost, one;
    int blocked;          /* TP = 0: nothing to price (certify the empty master) */
} cg_ctx_t;

/* Float pricing: the cheapest tree, or the cheapest path per type; the
 * upper bound is Farley's (z over the cheapest column's cost ratio). */
static ssched_status_t price_d(void *vctx, cg_engine_t *e, const double *y, double z,
                               int *added, double *upper, ssched_error_t *err)
{
    cg_ctx_t *x = vctx;
    cg_master_t *m = x->m;
    cg_prices_d pr = {(double *)(uintptr_t)y, (double *)(uintptr_t)(y + m->n), x->cpu, x->link};
    if (m->reduce)
        for (size_t i = 0; i < m->n; i++)
            x->cpu[i] = m->cpu_row[i] == SIZE_MAX ? 0.0 : y[m->cpu_row[i]];
    for (size_t k = 0; k < m->nres; k++)
        x->link[k] = m->link_row[k] == SIZE_MAX ? 0.0 : y[m->link_row[k]];
    ssched_status_t st = SSCHED_OK;
    double bound = z;
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
                *added = ssched_i_cg_master_add(m, &c);
                if (!*added)
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
            ssched_i_cge_tick(e, "pricing paths", t2, m->n_types);
            int r = ssched_i_cg_price_path_d(m->p, m->pb, m->types[t2].origin,
                                             m->types[t2].dest, &pr, &c, &cost);
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
                    ++*added;
                else
                    ssched_i_cg_column_free(&c);
            } else {
                ssched_i_cg_column_free(&c);
            }
        }
        bound = z * ratio;
    }
    *upper = bound;
    return st;
}

/* Add an exactly priced improving column; it cannot be in the master
 * already (its reduced cost there is >= 0 under optimal duals). */
static ssched_status_t add_exact(cg_master_t *m, cg_column_t *c, int *added,
                                 ssched_error_t *err)
{
    if (ssched_i_cg_known(m, c) || !ssched_i_cg_master_add(m, c)) {
        ssched_i_cg_column_free(c);
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "exact pricing repeats a column of the master");
    }
    ++*added;
    return SSCHED_OK;
}

/* Exact pricing of the exact duals: the exact dynamic program per tree /
 * per type (paths: a column improves iff it costs less than its type's
 * delivery dual). */
static ssched_status_t price_q(void *vctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err)
{
    cg_ctx_t *x = vctx;
    cg_master_t *m = x->m;
    size_t n = m->n;
    if (x->blocked)
        return SSCHED_OK;
    cg_prices_q *pr = &x->q;
    for (size_t i = 0; i < n; i++) {
        mpq_set(pr->out[i], sol->y[i]);
        mpq_set(pr->in[i], sol->y[n + i]);
        mpq_set_ui(pr->cpu[i], 0, 1);
        if (m->reduce && m->cpu_row[i] != SIZE_MAX)
            mpq_set(pr->cpu[i], sol->y[m->cpu_row[i]]);
    }
    /* the link rows' exact duals: the certificate covers them too */
    for (size_t k = 0; k < m->nres; k++) {
        if (m->link_row[k] == SIZE_MAX)
            mpq_set_ui(pr->link[k], 0, 1);
        else
            mpq_set(pr->link[k], sol->y[m->link_row[k]]);
    }
    ssched_status_t st = SSCHED_OK;
    if (m->reduce) {
        cg_column_t c;
        int r = ssched_i_cg_price_reduce_q(m->p, m->pb, pr, &c, x->cost);
        if (r < 0)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (r == 1 && mpq_cmp(x->cost, x->one) < 0)
            st = add_exact(m, &c, added, err);
        else if (r == 1)
            ssched_i_cg_column_free(&c);
        return st;
    }
    for (size_t t2 = 0; t2 < m->n_types && st == SSCHED_OK; t2++) {
        cg_column_t c;
        ssched_i_cge_tick(e, "exact pricing of paths", t2, m->n_types);
        int r = ssched_i_cg_price_path_q(m->p, m->pb, m->types[t2].origin, m->types[t2].dest,
                                         pr, &c, x->cost);
        if (r < 0)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        if (r == 0)
            continue;
        c.type = t2;
        if (mpq_cmp(x->cost, sol->y[2 * n + t2]) < 0)
            st = add_exact(m, &c, added, err);
        else
            ssched_i_cg_column_free(&c);
    }
    return st;
}

static ssched_status_t exact_master(void *vctx, ssched_lp_t *lp, ssched_error_t *err)
{
    return ssched_i_cg_exact_master(((cg_ctx_t *)vctx)->m, lp, err);
}

static size_t n_columns(const void *vctx)
{
    return ((const cg_ctx_t *)vctx)->m->n_cols;
}

static const cg_pricer_t pricer = {price_d, price_q, exact_master, n_columns};

static int ctx_init(cg_ctx_t *x, cg_master_t *m)
{
    memset(x, 0, sizeof *x);
    x->m = m;
    x->cpu = ssched_i_calloc(m->n + 1, sizeof *x->cpu);
    x->link = ssched_i_calloc(m->nres + 1, sizeof *x->link);
    x->q.out = ssched_i_mpq_vec_new(m->n);
    x->q.in = ssched_i_mpq_vec_new(m->n);
    x->q.cpu = ssched_i_mpq_vec_new(m->n);
    x->q.link = ssched_i_mpq_vec_new(m->nres);
    mpq_inits(x->cost, x->one, NULL);
    mpq_set_ui(x->one, 1, 1);
    return x->cpu && x->link && x->q.out && x->q.in && x->q.cpu && x->q.link;
}

static void ctx_free(cg_ctx_t *x)
{
    free(x->cpu);
    free(x->link);
    ssched_i_mpq_vec_free(x->q.out, x->m->n);
    ssched_i_mpq_vec_free(x->q.in, x->m->n);
    ssched_i_mpq_vec_free(x->q.cpu, x->m->n);
    ssched_i_mpq_vec_free(x->q.link, x->m->nres);
    mpq_clears(x->cost, x->one, NULL);
}

ssched_status_t ssched_i_cg_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const ssched_steady_options_t *opt, ssched_steady_t *out,
                         ssched_error_t *err)
{
    cg_master_t m;
    memset(&m, 0, sizeof m);
    m.p = p;
    m.pb = pb;
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
    /* the floating-point master: capacity rows <= 1, delivery rows <= 0 */
    cg_engine_t eng;
    memset(&eng, 0, sizeof eng);
    double *rhs = ssched_i_alloc(m.n_rows + 1, sizeof *rhs);
    if (!rhs)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0; rhs && r < m.n_rows; r++)
        rhs[r] = cg_capacity_row(&m, r) ? 1.0 : 0.0;
    if (st == SSCHED_OK)
        st = ssched_i_cge_init(&eng, m.n_rows, rhs, opt, out, err);
    free(rhs);
    m.eng = &eng;
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
    for (size_t t = 0; t < m.n_types && st == SSCHED_OK; t++) {
        /* types are grouped by origin: one search per origin */
        ssched_i_cge_tick(&eng, "reachability", t, m.n_types);
        if (t == 0 || m.types[t].origin != m.types[t - 1].origin)
            st = ssched_platform_reachable(p, m.types[t].origin, 0, reach, err);
        blocked |= out->unreachable[t] = !reach[m.types[t].dest];
    }
    free(reach);
    if (st == SSCHED_OK && !m.reduce) { /* TP: objective 1, +1 in every delivery row */
        double *val = malloc((m.n_types + 1) * sizeof *val);
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
            if (!ssched_i_cge_add(&eng, (int)m.n_types + 1, val, row))
                st = ssched_error_set(err, SSCHED_ESOLVER, "lp_solve: cannot add TP");
        }
        free(val);
        free(row);
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
            ssched_i_cge_tick(&eng, "initial paths", t, m.n_types);
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
    /* blocked: TP = 0, certified by the empty master (nothing priced) */
    cg_ctx_t ctx;
    if (!ctx_init(&ctx, &m) && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ctx.blocked = blocked;
    if (st == SSCHED_OK)
        st = ssched_i_cge_run(&eng, &pricer, &ctx, !blocked, err);
    ctx_free(&ctx);
    out->cg_columns = (long)m.n_cols;
    if (st == SSCHED_OK)
        st = ssched_i_cg_interpret(&m, out, err);
    ssched_i_cge_free(&eng);
    for (size_t k = 0; k < m.n_cols; k++)
        ssched_i_cg_column_free(&m.cols[k]);
    free(m.cols);
    free(m.types);
    free(m.cpu_row);
    free(m.link_row);
    free(m.link_edge);
    return st;
}
