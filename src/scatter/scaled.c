/* Exact integer scaling of an instance for the dynamic programs.
 *
 * Every cost is piecewise linear with rational pieces.  With L the LCM of the
 * denominators of the piece values and slopes (restricted to [0, n]), L*f(x)
 * is an integer at every integer x, and minimizing L*T minimizes T.  A DP
 * value is a sum of comm costs of distinct processors plus one comp cost, so
 * it never exceeds B = sum_i max C_i + max_i max W_i (maxima over [0, n]);
 * when B <= 2^61 every value, sum and segment offset fits in int64 with room
 * to spare, and the DPs run on int64, otherwise on mpz. */
#include <stdlib.h>
#include <string.h>

#include "src/scatter/internal.h"

static void sfn_free(sb_sfn_t *f)
{
    for (size_t k = 0; k < f->nseg; k++) {
        mpz_clear(f->y0[k]);
        mpz_clear(f->s[k]);
    }
    free(f->x0);
    free(f->y0);
    free(f->s);
    free(f->y0_64);
    free(f->s_64);
    memset(f, 0, sizeof *f);
}

/* Segments of f that start at or before n: [(x0, value at x0, slope)]. */
static size_t segments_upto(const ssched_sb_cost_t *f, long n)
{
    if (f->kind == SSCHED_SB_COST_AFFINE || f->n_points == 1)
        return 1;
    size_t k = 1;
    while (k < f->n_points - 1 && f->xs[k] < n)
        k++;
    return k;
}

static void segment(const ssched_sb_cost_t *f, size_t k, long *x0, mpq_t y0, mpq_t s)
{
    if (f->kind == SSCHED_SB_COST_AFFINE) {
        *x0 = 0;
        mpq_set(y0, f->offset);
        mpq_set(s, f->slope);
        return;
    }
    *x0 = f->xs[k];
    mpq_set(y0, f->ys[k]);
    if (f->n_points == 1) {
        mpq_set_ui(s, 0, 1);
        return;
    }
    mpq_t dx;
    mpq_init(dx);
    mpq_sub(s, f->ys[k + 1], f->ys[k]);
    mpq_set_si(dx, f->xs[k + 1] - f->xs[k], 1);
    mpq_div(s, s, dx);
    mpq_clear(dx);
}

static void lcm_den(mpz_t l, const mpq_t q)
{
    mpz_lcm(l, l, mpq_denref(q));
}

/* Scale f by L into out; also out_max = max of L*f over [0, n]. */
static ssched_status_t sfn_init(sb_sfn_t *out, const ssched_sb_cost_t *f, long n,
                                const mpz_t L, mpz_t out_max, ssched_error_t *err)
{
    size_t m = segments_upto(f, n);
    memset(out, 0, sizeof *out);
    out->x0 = malloc(m * sizeof *out->x0);
    out->y0 = malloc(m * sizeof *out->y0);
    out->s = malloc(m * sizeof *out->s);
    out->y0_64 = calloc(m, sizeof *out->y0_64);
    out->s_64 = calloc(m, sizeof *out->s_64);
    if (!out->x0 || !out->y0 || !out->s || !out->y0_64 || !out->s_64) {
        free(out->x0);
        free(out->y0);
        free(out->s);
        free(out->y0_64);
        free(out->s_64);
        memset(out, 0, sizeof *out);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory scaling costs");
    }
    mpq_t y, s;
    mpq_inits(y, s, NULL);
    mpz_t v;
    mpz_init(v);
    mpz_set_ui(out_max, 0);
    for (size_t k = 0; k < m; k++) {
        segment(f, k, &out->x0[k], y, s);
        mpz_init(out->y0[k]);
        mpz_init(out->s[k]);
        mpz_mul(out->y0[k], mpq_numref(y), L);
        mpz_divexact(out->y0[k], out->y0[k], mpq_denref(y));
        mpz_mul(out->s[k], mpq_numref(s), L);
        mpz_divexact(out->s[k], out->s[k], mpq_denref(s));
        out->nseg = k + 1;
        /* values at the segment start and at min(segment end, n) */
        if (mpz_cmp(out->y0[k], out_max) > 0)
            mpz_set(out_max, out->y0[k]);
    }
    sb_sfn_evalz(v, out, n);
    if (mpz_cmp(v, out_max) > 0)
        mpz_set(out_max, v);
    mpz_clear(v);
    mpq_clears(y, s, NULL);
    return SSCHED_OK;
}

/* The int64 copies: only called when the bound holds, so every value used
 * (x <= n) fits; segment data are within 2B as well. */
static void sfn_fill64(sb_sfn_t *f)
{
    for (size_t k = 0; k < f->nseg; k++) {
        f->y0_64[k] = (int64_t)mpz_get_si(f->y0[k]);
        f->s_64[k] = (int64_t)mpz_get_si(f->s[k]);
    }
}

ssched_status_t ssched_i_sb_scaled_init(sb_scaled_t *sc, const ssched_sb_platform_t *inst, long n,
                               ssched_error_t *err)
{
    memset(sc, 0, sizeof *sc);
    mpz_init_set_ui(sc->scale, 1);
    sc->p = inst->p;
    sc->n = n;
    sc->comm = calloc(inst->p, sizeof *sc->comm);
    sc->comp = calloc(inst->p, sizeof *sc->comp);
    if (!sc->comm || !sc->comp) {
        ssched_i_sb_scaled_free(sc);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory scaling costs");
    }
    mpq_t y, s;
    mpq_inits(y, s, NULL);
    for (size_t i = 0; i < inst->p; i++) {
        const ssched_sb_cost_t *f[2] = {&inst->procs[i].comm, &inst->procs[i].comp};
        for (int j = 0; j < 2; j++) {
            size_t m = segments_upto(f[j], n);
            for (size_t k = 0; k < m; k++) {
                long x0;
                segment(f[j], k, &x0, y, s);
                lcm_den(sc->scale, y);
                lcm_den(sc->scale, s);
            }
        }
    }
    mpq_clears(y, s, NULL);

    mpz_t bound, mx, maxw;
    mpz_inits(bound, mx, maxw, NULL);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < inst->p && st == SSCHED_OK; i++) {
        st = sfn_init(&sc->comm[i], &inst->procs[i].comm, n, sc->scale, mx, err);
        mpz_add(bound, bound, mx);
        if (st == SSCHED_OK)
            st = sfn_init(&sc->comp[i], &inst->procs[i].comp, n, sc->scale, mx, err);
        if (mpz_cmp(mx, maxw) > 0)
            mpz_set(maxw, mx);
    }
    mpz_add(bound, bound, maxw);
    if (st == SSCHED_OK && mpz_sizeinbase(bound, 2) <= 61) {
        sc->fits64 = 1;
        for (size_t i = 0; i < inst->p; i++) {
            sfn_fill64(&sc->comm[i]);
            sfn_fill64(&sc->comp[i]);
        }
    }
    mpz_clears(bound, mx, maxw, NULL);
    if (st != SSCHED_OK)
        ssched_i_sb_scaled_free(sc);
    return st;
}

void ssched_i_sb_scaled_free(sb_scaled_t *sc)
{
    for (size_t i = 0; i < sc->p; i++) {
        if (sc->comm)
            sfn_free(&sc->comm[i]);
        if (sc->comp)
            sfn_free(&sc->comp[i]);
    }
    free(sc->comm);
    free(sc->comp);
    mpz_clear(sc->scale);
    memset(sc, 0, sizeof *sc);
}
