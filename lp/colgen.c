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
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* The pricer's context: the master and price scratch. */
typedef struct {
    cg_master_t *m;
    cg_scratch_t s;
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
    cg_prices_d pr = ssched_i_cg_prices_d(m, y, &x->s);
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
    if (x->blocked)
        return SSCHED_OK;
    const cg_prices_q *pr = ssched_i_cg_prices_q(m, (const mpq_t *)sol->y, &x->s);
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
        if (mpq_cmp(x->cost, sol->y[2 * m->n + t2]) < 0)
            st = add_exact(m, &c, added, err);
        else
            ssched_i_cg_column_free(&c);
    }
    return st;
}

/* the master's adapters: the context starts with the master's pointer */
_Static_assert(offsetof(cg_ctx_t, m) == 0, "cg_ctx_t: m first (ssched_i_cge_master_exact)");
/* same_order 1: the exact master is the float master, column for column;
 * the engine starts large exact passes from the float optimum */
static const cg_pricer_t pricer = {price_d, price_q, ssched_i_cge_master_exact,
                                    ssched_i_cge_master_n_columns, 1};

ssched_status_t ssched_i_cg_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const ssched_steady_options_t *opt, ssched_steady_t *out,
                         ssched_error_t *err)
{
    cg_master_t m;
    size_t N = pb->n_participants;
    /* message types: intervals (reduce) or (origin, dest) pairs */
    ssched_status_t st = ssched_i_cg_master_start(&m, p, pb, pb->kind == SSCHED_PROBLEM_REDUCE,
                                                  out, err);
    if (st != SSCHED_OK)
        return st;
    if (!m.reduce) {
        size_t cap = pb->n_sources * pb->n_targets;
        m.types = ssched_i_alloc(cap, sizeof *m.types);
        if (!m.types)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t a = 0; a < pb->n_sources; a++)
            for (size_t b = 0; b < pb->n_targets; b++)
                if (pb->sources[a] != pb->targets[b])
                    m.types[m.n_types++] = (ssched_commodity_t){pb->sources[a], pb->targets[b]};
        out->n_commodities = m.n_types;
        out->commodities = ssched_i_alloc(m.n_types, sizeof *out->commodities);
        if (!out->commodities) {
            free(m.types);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        memcpy(out->commodities, m.types, m.n_types * sizeof *m.types);
    }
    st = ssched_i_cg_master_rows(&m, m.n_types, err);
    size_t ne = m.nres;
    /* the floating-point master: capacity rows <= 1, delivery rows <= 0 */
    cg_engine_t eng;
    memset(&eng, 0, sizeof eng);
    double *rhs = ssched_i_alloc(m.n_rows + 1, sizeof *rhs);
    if (!rhs && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0; rhs && r < m.n_rows; r++)
        rhs[r] = cg_capacity_row(&m, r) ? 1.0 : 0.0;
    if (st == SSCHED_OK)
        st = ssched_i_cge_init(&eng, m.n_rows, rhs, opt, out, err);
    free(rhs);
    m.eng = &eng;
    /* Large ordered reduces: Wentges smoothing of the duals (lp/colgen_engine.c,
     * float_phase).  Weight 0.7 on the centre: rounds / CPU s, pendant closure,
     * no smoothing -> 0.5 -> 0.7 -> 0.8: 100 participants of 250 nodes
     * 30 -> 28 -> 29 -> 29 rounds (1.0 CPU s each), 150 of 375 36 -> 30 -> 24
     * -> 27 (4.8 -> 4.7 -> 3.9 -> 4.0 s), 200 of 500 63 -> 64 -> 51 -> 57
     * (30.5 -> 32.0 -> 27.1 -> 32.8 s); one mispriced round each (the last). */
    if (m.reduce && N >= ssched_i_cg_large_reduce(0))
        eng.smooth = 0.7;
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
    /* crash basis: each type's initial path basic in its delivery row, the
     * other rows' slacks basic (triangular: path t alone has a -1 in
     * delivery row t); TP is engine column 0, path t column t + 1 */
    if (st == SSCHED_OK && !blocked && !m.reduce && m.n_cols == m.n_types) {
        size_t *basic = ssched_i_alloc(m.n_rows + 1, sizeof *basic);
        for (size_t r = 0; basic && r < m.n_rows; r++)
            basic[r] = SIZE_MAX;
        for (size_t t = 0; basic && t < m.n_types; t++)
            basic[2 * m.n + m.cols[t].type] = t + 1;
        if (basic)
            (void)ssched_i_cge_crash(&eng, basic); /* a hint: the slack basis otherwise */
        free(basic);
    }
    /* blocked: TP = 0, certified by the empty master (nothing priced) */
    cg_ctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.m = &m;
    ctx.blocked = blocked;
    mpq_inits(ctx.cost, ctx.one, NULL);
    mpq_set_ui(ctx.one, 1, 1);
    if (!ssched_i_cg_scratch_init(&ctx.s, m.n, m.nres) && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = ssched_i_cge_run(&eng, &pricer, &ctx, !blocked, err);
    ssched_i_cg_scratch_free(&ctx.s);
    mpq_clears(ctx.cost, ctx.one, NULL);
    out->cg_columns = (long)m.n_cols;
    if (st == SSCHED_OK)
        st = ssched_i_cg_interpret(&m, out, err);
    ssched_i_cge_free(&eng);
    for (size_t k = 0; k < m.n_cols; k++)
        ssched_i_cg_column_free(&m.cols[k]);
    free(m.cols);
    ssched_i_cg_index_free(&m);
    free(m.types);
    free(m.cpu_row);
    free(m.link_row);
    free(m.link_edge);
    return st;
}
