/* The column-generation engine (lp/colgen_engine.h): the float master, the
 * float phase, the exact certification pass, progress and figures, for
 * every pricer.  The only colgen code that calls lp_solve. */
#include <lpsolve/lp_lib.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_engine.h"
#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_cge_init(cg_engine_t *e, size_t n_rows, const double *rhs,
                                  const ssched_steady_options_t *opt, ssched_steady_t *out,
                                  ssched_error_t *err)
{
    memset(e, 0, sizeof *e);
    e->n_rows = n_rows;
    e->opt = opt;
    e->out = out;
    e->t0 = e->last = ssched_i_wall_now();
    lprec *lp = make_lp((int)n_rows, 0);
    if (!lp)
        return ssched_error_set(err, SSCHED_ESOLVER, "lp_solve: cannot create the master");
    e->lp = lp;
    ssched_i_lp_log(lp, opt->lp.verbose);
    set_maxim(lp);
    /* the duals only: PRESOLVE_SENSDUALS would also range every dual and
     * objective coefficient after each solve (one ftran per variable) */
    set_presolve(lp, PRESOLVE_DUALS, get_presolveloops(lp));
    e->rhs = ssched_i_alloc(n_rows + 1, sizeof *e->rhs);
    if (!e->rhs)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0; r < n_rows; r++) {
        e->rhs[r] = rhs ? rhs[r] : 1.0;
        set_constr_type(lp, (int)r + 1, LE);
        set_rh(lp, (int)r + 1, e->rhs[r]);
    }
    return SSCHED_OK;
}

void ssched_i_cge_free(cg_engine_t *e)
{
    if (e->lp)
        delete_lp((lprec *)e->lp);
    e->lp = NULL;
    free(e->rhs);
    e->rhs = NULL;
}

int ssched_i_cge_add(cg_engine_t *e, int cnt, const double *val, const int *row)
{
    if (e->y_check) { /* smoothing: does it improve at the master's duals? */
        double rc = 0;
        for (int k = 0; k < cnt; k++)
            rc += row[k] == 0 ? val[k] : -val[k] * e->y_check[row[k] - 1];
        if (rc > 1e-9)
            e->n_improving++;
    }
    /* add_columnex takes non-const arrays but does not write them */
    return add_columnex((lprec *)e->lp, cnt, (REAL *)(uintptr_t)val, (int *)(uintptr_t)row);
}

int ssched_i_cge_crash(cg_engine_t *e, const size_t *basic_col)
{
    lprec *lp = e->lp;
    int m = get_Nrows(lp), n = get_Ncolumns(lp);
    if ((size_t)m != e->n_rows)
        return 0;
    int *bas = malloc((size_t)(m + 1) * sizeof *bas);
    if (!bas)
        return 0;
    bas[0] = 0;
    /* rows 1..m, then columns m+1..m+n; negative: at its lower bound */
    for (int r = 1; r <= m; r++)
        bas[r] = basic_col[r - 1] < (size_t)n ? -(m + 1 + (int)basic_col[r - 1]) : -r;
    int ok = set_basis(lp, bas, FALSE);
    free(bas);
    return ok;
}

void ssched_i_cge_tick(cg_engine_t *e, const char *stage, size_t done, size_t total)
{
    const ssched_steady_options_t *opt = e->opt;
    if (!opt->step)
        return;
    double t = ssched_i_wall_now();
    if (t - e->last < opt->progress_interval)
        return;
    e->last = t;
    opt->step(opt->progress_ctx, stage, done, total, t - e->t0);
}

static void report(cg_engine_t *e, const cg_pricer_t *pr, void *ctx, long it, double lower,
                   double upper, int exact)
{
    const ssched_steady_options_t *opt = e->opt;
    if (!opt->progress)
        return;
    double t = ssched_i_wall_now();
    if (t - e->last < opt->progress_interval)
        return;
    e->last = t;
    ssched_progress_t info = {it, (long)pr->n_columns(ctx), lower, upper, t - e->t0, exact};
    opt->progress(opt->progress_ctx, &info);
}

/* The duals of the float master lp_solve has just solved, as non-negative
 * prices y[0..n_rows).  lp_solve's dual sign for a maximization is fixed
 * by strong duality: the objective equals the sum of rhs x dual over the
 * rows.  0 if lp_solve has no duals. */
static int float_duals(lprec *lp, size_t n_rows, double *y)
{
    REAL *duals = NULL;
    if (!get_ptr_sensitivity_rhs(lp, &duals, NULL, NULL) || !duals)
        return 0;
    double z = get_objective(lp), sum = 0;
    for (size_t r = 0; r < n_rows; r++)
        sum += get_rh(lp, (int)r + 1) * duals[r];
    double sign = fabs(sum - z) <= fabs(sum + z) ? 1.0 : -1.0;
    for (size_t r = 0; r < n_rows; r++)
        y[r] = sign * duals[r] > 0 ? sign * duals[r] : 0.0;
    return 1;
}

/* Float phase: add the pricer's columns while they improve the master.
 *
 * Dual smoothing (Wentges 1997, "Weighted Dantzig-Wolfe decomposition for
 * linear mixed-integer programming"), when e->smooth = a > 0: the master's
 * duals y oscillate from round to round (the ordered reduce's Farley bound
 * jumps up and down by a factor 2), so the pricer is given
 * ys = a c + (1 - a) y instead, c (the centre) being the priced point
 * with the best upper bound so far; its bound is valid at any non-negative
 * prices (rhs.ys over the cheapest column's cost ratio).  A column priced
 * at ys is kept when it improves at ys; the round is good when one of them
 * also improves at y (ssched_i_cge_add checks each against y).  Else
 * (mispricing) the round prices again at y itself, so the phase still
 * stops only when nothing improves at the master's own duals: smoothing
 * changes which columns come, never the certified optimum. */
static ssched_status_t float_phase(cg_engine_t *e, const cg_pricer_t *pr, void *ctx,
                                   ssched_error_t *err)
{
    ssched_steady_t *out = e->out;
    lprec *lp = e->lp;
    size_t nr = e->n_rows;
    int smooth = e->smooth > 0 && e->smooth < 1;
    double *y = malloc((nr + 1) * sizeof *y);
    double *ys = smooth ? malloc((nr + 1) * sizeof *ys) : NULL;
    double *centre = smooth ? malloc((nr + 1) * sizeof *centre) : NULL;
    if (!y || (smooth && (!ys || !centre))) {
        free(y);
        free(ys);
        free(centre);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    double best_ub = INFINITY;
    int have_centre = 0;
    ssched_status_t st = SSCHED_OK;
    e->last = ssched_i_wall_now();
    for (long it = 0; st == SSCHED_OK; it++) {
        double t = ssched_i_wall_now();
        int ret = solve(lp);
        out->lp.float_seconds += ssched_i_wall_now() - t;
        out->lp.float_solves++;
        if (ret != OPTIMAL || !float_duals(lp, nr, y))
            break; /* leave it to the exact phase */
        double z = get_objective(lp), upper = NAN, bound = NAN;
        int added = 0, at_y = 1, good = 0;
        t = ssched_i_wall_now();
        if (have_centre) {
            double zs = 0;
            for (size_t r = 0; r < nr; r++) {
                ys[r] = e->smooth * centre[r] + (1 - e->smooth) * y[r];
                zs += e->rhs[r] * ys[r];
            }
            e->y_check = y;
            e->n_improving = 0;
            st = pr->price_d(ctx, e, ys, zs, &added, &bound, err);
            e->y_check = NULL;
            good = e->n_improving > 0;
            at_y = st == SSCHED_OK && !good;
            e->mispriced += at_y;
            if (bound < best_ub) {
                best_ub = bound;
                memcpy(centre, ys, nr * sizeof *ys);
            }
            upper = bound;
        }
        if (at_y) {
            added = 0;
            bound = NAN;
            st = pr->price_d(ctx, e, y, z, &added, &bound, err);
            good = added > 0;
            if (smooth && (!have_centre || bound < best_ub)) {
                best_ub = bound;
                memcpy(centre, y, nr * sizeof *y);
                have_centre = 1;
            }
            upper = isnan(upper) || bound < upper ? bound : upper;
        }
        out->cg_pricing_seconds += ssched_i_wall_now() - t;
        out->cg_iterations++;
        report(e, pr, ctx, it, z, upper, 0);
        if (!good)
            break;
    }
    free(y);
    free(ys);
    free(centre);
    return st;
}

/* The float master's optimal basis as ssched_lp_solve's start_basis
 * (n_cols + n_rows flags, 1 = basic; columns then rows), and its solution
 * in *xd (n_cols column values) and *yd (n_rows non-negative duals), or
 * NULL.  The float master is re-solved first: lp_solve starts from its
 * last basis, the columns added since enter non-basic, so this costs a few
 * pivots. */
static unsigned char *float_basis(cg_engine_t *e, size_t n_cols, size_t n_rows, double **xd,
                                  double **yd)
{
    lprec *lp = e->lp;
    int m = get_Nrows(lp), n = get_Ncolumns(lp);
    *xd = *yd = NULL;
    if ((size_t)m != n_rows || (size_t)n != n_cols)
        return NULL;
    double t = ssched_i_wall_now();
    int ret = solve(lp);
    e->out->lp.float_seconds += ssched_i_wall_now() - t;
    e->out->lp.float_solves++;
    if (ret != OPTIMAL && ret != PRESOLVED)
        return NULL;
    int *bas = malloc((size_t)(m + 1) * sizeof *bas);
    unsigned char *basis = ssched_i_calloc(n_cols + n_rows, 1);
    if (!bas || !basis || !get_basis(lp, bas, FALSE)) {
        free(bas);
        free(basis);
        return NULL;
    }
    /* lp_solve numbers rows 1..m, then columns m+1..m+n */
    for (int k = 1; k <= m; k++) {
        int a = abs(bas[k]);
        if (a >= 1 && a <= m)
            basis[n_cols + (size_t)(a - 1)] = 1;
        else if (a > m && a <= m + n)
            basis[(size_t)(a - m - 1)] = 1;
    }
    free(bas);
    REAL *xv = NULL;
    *xd = ssched_i_alloc(n_cols, sizeof **xd);
    *yd = ssched_i_alloc(n_rows, sizeof **yd);
    if (*xd && *yd && get_ptr_variables(lp, &xv) && xv && float_duals(lp, n_rows, *yd)) {
        for (size_t j = 0; j < n_cols; j++)
            (*xd)[j] = xv[j];
    } else {
        free(*xd);
        free(*yd);
        *xd = *yd = NULL;
    }
    return basis;
}

/* Masters of fewer columns than this are solved exactly from scratch
 * (ssched_lp_solve's own float solve): there the solve takes milliseconds,
 * and the optimal vertex it reaches is the one every earlier release
 * printed (another optimal vertex certifies the same TP with other rates
 * and prices).  From this size on, the exact pass starts from the float
 * master's optimum (gossip among 80 hosts of 500 nodes, 7121 columns: the
 * exact master 10.7 CPU s from scratch, 5.4 s warm-started, 0.13 s
 * reconstructed). */
#define WARM_MIN_COLS 1000
static size_t warm_min_cols = WARM_MIN_COLS;

size_t ssched_i_cge_set_warm_min_cols(size_t n)
{
    size_t old = warm_min_cols;
    warm_min_cols = n;
    return old;
}

/* Exact repair pivots allowed from the float master's basis before the
 * engine falls back to ssched_lp_solve's own floating-point solve: a basis
 * that needs more is not worth repairing exactly. */
#define WARM_REPAIR_PIVOTS 64

/* Solve an exact master (consumed: freed here), record its size in
 * out->lp_rows/lp_cols and add its solver figures to out->lp.  With warm,
 * start from the float master's basis first (same optimum: the certificate
 * decides, whatever basis it starts from). */
static ssched_status_t solve_master(cg_engine_t *e, ssched_lp_t *lp, int warm,
                                    ssched_lp_solution_t *sol, ssched_error_t *err)
{
    ssched_steady_t *out = e->out;
    cg_clock_t c0 = cg_clock();
    ssched_status_t st = SSCHED_EUNCERTIFIED;
    double *xd = NULL, *yd = NULL;
    unsigned char *basis = warm ? float_basis(e, lp->n_cols, lp->n_rows, &xd, &yd) : NULL;
    if (xd && yd) {
        /* the float optimum's values, reconstructed and certified: no
         * exact basis solve at all when they pass */
        st = ssched_i_cg_rational_solution(lp, get_objective((lprec *)e->lp), xd, yd, sol);
        if (st == SSCHED_ENOMEM)
            ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (st == SSCHED_OK)
            cg_add_solve_figures(out, sol);
        else
            out->lp.exact_seconds += sol->exact_seconds;
    }
    if (basis && st != SSCHED_OK && st != SSCHED_ENOMEM) {
        ssched_lp_options_t o = e->opt->lp;
        o.start_basis = basis;
        if (!o.max_repair_pivots || o.max_repair_pivots > WARM_REPAIR_PIVOTS)
            o.max_repair_pivots = WARM_REPAIR_PIVOTS;
        st = ssched_lp_solve(lp, &o, sol, NULL);
        if (st == SSCHED_ENOMEM)
            ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (st == SSCHED_OK)
            cg_add_solve_figures(out, sol);
    }
    free(basis);
    free(xd);
    free(yd);
    if (st != SSCHED_OK && st != SSCHED_ENOMEM) {
        st = ssched_lp_solve(lp, &e->opt->lp, sol, err);
        cg_add_solve_figures(out, sol);
    }
    cg_phase_add(&out->phase_master, c0);
    out->phase_master.count++;
    out->lp_rows = lp->n_rows;
    out->lp_cols = lp->n_cols;
    ssched_lp_free(lp);
    return st;
}

/* Exact phase: certify, adding exactly priced columns until none helps. */
static ssched_status_t exact_phase(cg_engine_t *e, const cg_pricer_t *pr, void *ctx,
                                   ssched_error_t *err)
{
    ssched_steady_t *out = e->out;
    ssched_status_t st = SSCHED_OK;
    e->last = ssched_i_wall_now();
    for (;;) {
        ssched_lp_t lp;
        if ((st = pr->exact_master(ctx, &lp, err)) != SSCHED_OK) {
            ssched_lp_free(&lp);
            break;
        }
        ssched_lp_solution_t sol;
        ssched_lp_solution_init(&sol);
        int warm = pr->same_order && e->warm && lp.n_cols >= warm_min_cols;
        st = solve_master(e, &lp, warm, &sol, err);
        int added = 0;
        if (st == SSCHED_OK) {
            out->cg_exact_passes++;
            double t = ssched_i_wall_now();
            st = pr->price_q(ctx, e, &sol, &added, err);
            out->cg_pricing_seconds += ssched_i_wall_now() - t;
            double z = mpq_get_d(sol.objective);
            report(e, pr, ctx, (long)out->cg_iterations, z, z, 1);
        }
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
    return st;
}

ssched_status_t ssched_i_cge_master_exact(void *ctx, ssched_lp_t *lp, ssched_error_t *err)
{
    return ssched_i_cg_exact_master(*(cg_master_t *const *)ctx, lp, err);
}

size_t ssched_i_cge_master_n_columns(const void *ctx)
{
    return (*(const cg_master_t *const *)ctx)->n_cols;
}

ssched_status_t ssched_i_cge_run(cg_engine_t *e, const cg_pricer_t *pr, void *ctx, int do_float,
                                 ssched_error_t *err)
{
    ssched_steady_t *out = e->out;
    ssched_status_t st = SSCHED_OK;
    if (do_float) {
        cg_clock_t c_float = cg_clock();
        st = float_phase(e, pr, ctx, err);
        cg_phase_add(&out->phase_float, c_float);
        e->warm = 1;
        out->phase_float.count = out->cg_iterations;
    }
    if (st == SSCHED_OK) {
        cg_clock_t c_exact = cg_clock();
        ssched_phase_t master0 = out->phase_master;
        st = exact_phase(e, pr, ctx, err);
        cg_exact_phase_done(out, c_exact, master0);
    }
    return st;
}
