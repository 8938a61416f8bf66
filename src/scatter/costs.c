/* Cost functions T_comm(i, x) / T_comp(i, x): affine or piecewise-linear
 * tables, evaluated exactly.  See include/ssched/scatter_balance.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "src/scatter/internal.h"

void ssched_i_sb_cost_init_zero(ssched_sb_cost_t *f)
{
    memset(f, 0, sizeof *f);
    f->kind = SSCHED_SB_COST_AFFINE;
    mpq_init(f->slope);
    mpq_init(f->offset);
}

ssched_status_t ssched_sb_cost_init_affine(ssched_sb_cost_t *f, const mpq_t slope,
                                           const mpq_t offset, ssched_error_t *err)
{
    ssched_i_sb_cost_init_zero(f);
    if (mpq_sgn(slope) < 0 || mpq_sgn(offset) < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "cost coefficients must be non-negative");
    mpq_set(f->slope, slope);
    mpq_set(f->offset, offset);
    return SSCHED_OK;
}

ssched_status_t ssched_sb_cost_init_table(ssched_sb_cost_t *f, size_t n_points,
                                          const long *xs, const mpq_t *ys, ssched_error_t *err)
{
    ssched_i_sb_cost_init_zero(f);
    if (n_points == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "a cost table needs at least one point");
    if (xs[0] != 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "a cost table must start at 0 items (it starts at %ld)", xs[0]);
    for (size_t k = 0; k < n_points; k++) {
        if (k > 0 && xs[k] <= xs[k - 1])
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "cost table item counts must increase (%ld after %ld)",
                                    xs[k], xs[k - 1]);
        if (mpq_sgn(ys[k]) < 0)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "cost table times must be non-negative (at %ld items)", xs[k]);
    }
    long *nx = malloc(n_points * sizeof *nx);
    mpq_t *ny = malloc(n_points * sizeof *ny);
    if (!nx || !ny) {
        free(nx);
        free(ny);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for a cost table");
    }
    for (size_t k = 0; k < n_points; k++) {
        nx[k] = xs[k];
        mpq_init(ny[k]);
        mpq_set(ny[k], ys[k]);
    }
    f->kind = SSCHED_SB_COST_TABLE;
    f->n_points = n_points;
    f->xs = nx;
    f->ys = ny;
    return SSCHED_OK;
}

ssched_status_t ssched_sb_cost_init_copy(ssched_sb_cost_t *out, const ssched_sb_cost_t *f,
                                         ssched_error_t *err)
{
    if (f->kind == SSCHED_SB_COST_AFFINE)
        return ssched_sb_cost_init_affine(out, f->slope, f->offset, err);
    return ssched_sb_cost_init_table(out, f->n_points, f->xs, f->ys, err);
}

void ssched_sb_cost_free(ssched_sb_cost_t *f)
{
    if (!f)
        return;
    mpq_clear(f->slope);
    mpq_clear(f->offset);
    for (size_t k = 0; k < f->n_points; k++)
        mpq_clear(f->ys[k]);
    free(f->xs);
    free(f->ys);
    f->xs = NULL;
    f->ys = NULL;
    f->n_points = 0;
}

long ssched_sb_cost_domain(const ssched_sb_cost_t *f)
{
    return f->kind == SSCHED_SB_COST_AFFINE ? LONG_MAX : f->xs[f->n_points - 1];
}

void ssched_sb_cost_eval(mpq_t out, const ssched_sb_cost_t *f, long x)
{
    if (f->kind == SSCHED_SB_COST_AFFINE) {
        mpq_set_si(out, x, 1);
        mpq_mul(out, out, f->slope);
        mpq_add(out, out, f->offset);
        return;
    }
    /* Last breakpoint <= x, then interpolate towards the next one. */
    size_t lo = 0, hi = f->n_points;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->xs[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    if (f->xs[lo] == x || lo + 1 == f->n_points) {
        mpq_set(out, f->ys[lo]);
        return;
    }
    mpq_t t;
    mpq_init(t);
    mpq_sub(out, f->ys[lo + 1], f->ys[lo]);
    mpq_set_si(t, x - f->xs[lo], (unsigned long)(f->xs[lo + 1] - f->xs[lo]));
    mpq_canonicalize(t);
    mpq_mul(out, out, t);
    mpq_add(out, out, f->ys[lo]);
    mpq_clear(t);
}

int ssched_sb_cost_is_nondecreasing(const ssched_sb_cost_t *f)
{
    if (f->kind == SSCHED_SB_COST_AFFINE)
        return 1; /* slope >= 0 by construction */
    for (size_t k = 1; k < f->n_points; k++)
        if (mpq_cmp(f->ys[k], f->ys[k - 1]) < 0)
            return 0;
    return 1;
}

int ssched_sb_cost_is_linear(const ssched_sb_cost_t *f)
{
    return f->kind == SSCHED_SB_COST_AFFINE && mpq_sgn(f->offset) == 0;
}

/* Merge the breakpoints of f and g (at least one a table) up to the smaller
 * domain and evaluate f + g there: the sum of two functions linear on each
 * merged segment is linear on it, so the table is exact. */
ssched_status_t ssched_sb_cost_init_sum(ssched_sb_cost_t *out, const ssched_sb_cost_t *f,
                                        const ssched_sb_cost_t *g, ssched_error_t *err)
{
    if (f->kind == SSCHED_SB_COST_AFFINE && g->kind == SSCHED_SB_COST_AFFINE) {
        ssched_i_sb_cost_init_zero(out);
        mpq_add(out->slope, f->slope, g->slope);
        mpq_add(out->offset, f->offset, g->offset);
        return SSCHED_OK;
    }
    long dom = ssched_sb_cost_domain(f);
    if (ssched_sb_cost_domain(g) < dom)
        dom = ssched_sb_cost_domain(g);
    size_t cap = (f->kind == SSCHED_SB_COST_TABLE ? f->n_points : 0) +
                 (g->kind == SSCHED_SB_COST_TABLE ? g->n_points : 0);
    long *xs = malloc(cap * sizeof *xs);
    if (!xs) {
        ssched_i_sb_cost_init_zero(out);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for a cost table");
    }
    size_t a = 0, b = 0, m = 0;
    size_t na = f->kind == SSCHED_SB_COST_TABLE ? f->n_points : 0;
    size_t nb = g->kind == SSCHED_SB_COST_TABLE ? g->n_points : 0;
    while (a < na || b < nb) {
        long x;
        if (b >= nb || (a < na && f->xs[a] < g->xs[b]))
            x = f->xs[a++];
        else if (a >= na || g->xs[b] < f->xs[a])
            x = g->xs[b++];
        else {
            x = f->xs[a++];
            b++;
        }
        if (x > dom)
            break;
        xs[m++] = x;
    }
    mpq_t *ys = malloc(m * sizeof *ys);
    if (!ys) {
        free(xs);
        ssched_i_sb_cost_init_zero(out);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for a cost table");
    }
    mpq_t t;
    mpq_init(t);
    for (size_t k = 0; k < m; k++) {
        mpq_init(ys[k]);
        ssched_sb_cost_eval(ys[k], f, xs[k]);
        ssched_sb_cost_eval(t, g, xs[k]);
        mpq_add(ys[k], ys[k], t);
    }
    mpq_clear(t);
    ssched_status_t st = ssched_sb_cost_init_table(out, m, xs, ys, err);
    for (size_t k = 0; k < m; k++)
        mpq_clear(ys[k]);
    free(ys);
    free(xs);
    return st;
}

/* For a table, f(x)/x is monotone on each segment (it is (c + s x)/x), so
 * its minimum over the integers x >= 1 of the domain is reached at a
 * breakpoint x_k >= 1; on the first segment f(x)/x = y_0/x + s decreases
 * since y_0 >= 0, so x = 1..x_1 is covered by x_1 as well. */
void ssched_i_sb_cost_minorant_slope(mpq_t out, const ssched_sb_cost_t *f)
{
    if (f->kind == SSCHED_SB_COST_AFFINE) {
        mpq_set(out, f->slope);
        return;
    }
    int have = 0;
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (size_t k = 1; k < f->n_points; k++) {
        mpq_set_si(t, f->xs[k], 1);
        mpq_div(t, f->ys[k], t);
        if (!have || mpq_cmp(t, out) < 0)
            mpq_set(out, t);
        have = 1;
    }
    mpq_clear(t);
}
