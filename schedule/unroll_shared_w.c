/* Latency-weighted shared-rate groups in the unrolling engine (docs/model.md,
 * "Shared rates"; the checker's rule, re-derived by its own code:
 * check_shared_w.c).
 *
 * SimGrid 3.32's CM02 (network_cm02.cpp, NetworkCm02Model::communicate)
 * gives a communication the sharing penalty p = its route's latency (plus
 * weight-S / bandwidth per link: 0 in the exact configuration), a variable
 * of penalty 0 (disabled) during its latency, then of penalty p; its bound
 * is tcp-gamma / (2 p) (infinite there); each link of its route a
 * constraint of weight 1 (a FATPIPE link's is not shared: a cap per flow).
 * The lmm solver's allocation is the weighted max-min one: raising a level
 * lambda, every unfrozen flow at rate lambda / p, a constraint saturates
 * when its capacity is used, and the flows crossing it freeze (progressive
 * filling, bottleneck after bottleneck); it is unique.  Whenever a flow
 * ends, the rest are re-shared.
 *
 * A weighted group: g >= 2 whole values (amount z each) whose bandwidth
 * phases start at one instant t0 (each sent its latency earlier), routes of
 * SHARED links only, unequal latencies.  Rates are the weighted max-min
 * among the members alone over every link of their routes, re-solved as
 * members end; each member's end is exact (rationals).  Why SimGrid gives
 * exactly these rates with the other traffic around: on every link the
 * group holds, over [t0, last end), its peak total use (rounded up to the
 * profile's units) and, where the members saturate it at some time, all
 * of it; every other flow runs at its full rate, so its bottleneck is
 * wholly its own (saturated by it alone: its bottleneck criterion holds);
 * a member's bottleneck in the members' allocation is saturated by
 * members only, where its normalised rate (rate x penalty) is the largest;
 * so the allocation satisfies the weighted max-min bottleneck criterion
 * for every flow, and it is unique.  A member must end later than at its
 * full rate (the checker tells members by that) and not at a whole g' z
 * link_c(L') (the equal-rate rule's durations). */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

#define WG_MAX 8

void ssched_i_sched_gx_free(sched_engine_t *e)
{
    for (size_t k = 0; k < e->n_gx; k++) {
        size_t c = k / SCHED_GX_CHUNK, i = k % SCHED_GX_CHUNK;
        mpq_clear(e->gx[c][i]);
    }
    for (size_t c = 0; c * SCHED_GX_CHUNK < e->cap_gx; c++)
        free(e->gx[c]);
    free(e->gx);
    e->gx = NULL;
    e->n_gx = e->cap_gx = 0;
}

/* A new exact value kept until the engine is freed (NULL on ENOMEM). */
static mpq_ptr gx_new(sched_engine_t *e)
{
    if (e->n_gx == e->cap_gx) {
        size_t nc = e->cap_gx / SCHED_GX_CHUNK;
        mpq_t **a = realloc(e->gx, (nc + 1) * sizeof *a);
        if (!a)
            return NULL;
        e->gx = a;
        e->gx[nc] = malloc(SCHED_GX_CHUNK * sizeof **a);
        if (!e->gx[nc])
            return NULL;
        e->cap_gx += SCHED_GX_CHUNK;
    }
    size_t k = e->n_gx++;
    mpq_ptr q = e->gx[k / SCHED_GX_CHUNK][k % SCHED_GX_CHUNK];
    mpq_init(q);
    return q;
}

/* The members' weighted max-min over n links (cap[j] units per time,
 * inc[k * n + j]: member k crosses link j), amounts z, penalties pen[k]:
 * each member's phase E[k] and each link's peak use peak[j] (a fraction of
 * its capacity).  Progressive filling per piece: the least level lambda at
 * which an unfrozen link fills, (cap - frozen use) / (sum of 1/p of its
 * unfrozen members), freezes its members at lambda / p. */
static void wfill(size_t g, size_t n, const unsigned char *inc, const mpq_t *cap,
                  const mpq_t *pen, const mpq_t z, mpq_t *E, mpq_t *peak)
{
    mpq_t rem[WG_MAX], rate[WG_MAX], t, lam, best, sw, use, dt;
    unsigned char alive[WG_MAX], frozen[WG_MAX];
    mpq_inits(t, lam, best, sw, use, dt, NULL);
    for (size_t k = 0; k < g; k++) {
        mpq_inits(rem[k], rate[k], NULL);
        mpq_set(rem[k], z);
        alive[k] = 1;
    }
    for (size_t j = 0; j < n; j++)
        mpq_set_ui(peak[j], 0, 1);
    size_t left = g;
    while (left) {
        for (size_t k = 0; k < g; k++)
            frozen[k] = !alive[k];
        for (;;) {
            int have = 0;
            size_t bj = 0;
            for (size_t j = 0; j < n; j++) {
                mpq_set_ui(sw, 0, 1);
                mpq_set(use, cap[j]);
                int any = 0;
                for (size_t k = 0; k < g; k++) {
                    if (!inc[k * n + j] || !alive[k])
                        continue;
                    if (frozen[k]) {
                        mpq_sub(use, use, rate[k]);
                    } else {
                        mpq_inv(lam, pen[k]);
                        mpq_add(sw, sw, lam);
                        any = 1;
                    }
                }
                if (!any)
                    continue;
                mpq_div(lam, use, sw);
                if (!have || mpq_cmp(lam, best) < 0) {
                    mpq_set(best, lam);
                    bj = j;
                    have = 1;
                }
            }
            if (!have)
                break;
            for (size_t k = 0; k < g; k++)
                if (alive[k] && !frozen[k] && inc[k * n + bj]) {
                    mpq_div(rate[k], best, pen[k]);
                    frozen[k] = 1;
                }
        }
        /* the piece: until the first member ends */
        int have = 0;
        for (size_t k = 0; k < g; k++) {
            if (!alive[k])
                continue;
            mpq_div(lam, rem[k], rate[k]);
            if (!have || mpq_cmp(lam, dt) < 0)
                mpq_set(dt, lam);
            have = 1;
        }
        for (size_t j = 0; j < n; j++) {
            mpq_set_ui(use, 0, 1);
            for (size_t k = 0; k < g; k++)
                if (alive[k] && inc[k * n + j])
                    mpq_add(use, use, rate[k]);
            mpq_div(use, use, cap[j]);
            if (mpq_cmp(use, peak[j]) > 0)
                mpq_set(peak[j], use);
        }
        mpq_add(t, t, dt);
        for (size_t k = 0; k < g; k++) {
            if (!alive[k])
                continue;
            mpq_mul(lam, rate[k], dt);
            mpq_sub(rem[k], rem[k], lam);
            if (mpq_sgn(rem[k]) == 0) {
                mpq_set(E[k], t);
                alive[k] = 0;
                left--;
            }
        }
    }
    for (size_t k = 0; k < g; k++)
        mpq_clears(rem[k], rate[k], NULL);
    mpq_clears(t, lam, best, sw, use, dt, NULL);
}

/* ceil(q / tick), or -1 above 60 bits. */
static int64_t ticks_up(const sched_engine_t *e, const mpq_t q, mpq_t s)
{
    mpq_div(s, q, e->sc.tick);
    mpz_cdiv_q(mpq_numref(s), mpq_numref(s), mpq_denref(s));
    return mpz_sizeinbase(mpq_numref(s), 2) <= 60 ? mpz_get_si(mpq_numref(s)) : -1;
}

/* Does phase d of edge x equal l(e)-free g' z link_c(L') for a whole g' >= 2
 * and a SHARED link L' of its route (the equal-rate rule would claim it)? */
static int looks_equal_rate(const sched_engine_t *e, size_t x, const mpq_t d, const mpq_t z,
                            mpq_t s)
{
    const ssched_routes_t *rt = e->p->routes;
    for (size_t r = rt->route_start[x]; r < rt->route_start[x + 1]; r++) {
        mpq_mul(s, z, rt->link_c[rt->route_links[r]]);
        mpq_div(s, d, s);
        if (mpz_cmp_ui(mpq_denref(s), 1) == 0 && mpz_cmp_ui(mpq_numref(s), 2) >= 0)
            return 1;
    }
    return 0;
}

int ssched_i_sched_place_weighted(sched_engine_t *e, const sched_defer_t *const *m, size_t g,
                                  size_t L, ssched_error_t *err)
{
    const ssched_routes_t *rt = e->p->routes;
    if (g < 2 || g > WG_MAX)
        return 0;
    size_t cap = 0;
    for (size_t k = 0; k < g; k++)
        cap += rt->route_start[m[k]->edge + 1] - rt->route_start[m[k]->edge];
    size_t *links = ssched_i_alloc(cap, sizeof *links);
    int64_t *w = ssched_i_alloc(cap, sizeof *w);
    unsigned char *inc = ssched_i_calloc(cap * g, 1);
    mpq_t *lc = ssched_i_alloc(cap, sizeof *lc), *peak = ssched_i_alloc(cap, sizeof *peak);
    if (!links || !w || !inc || !lc || !peak) {
        free(links);
        free(w);
        free(inc);
        free(lc);
        free(peak);
        ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    size_t n = 0;
    for (size_t k = 0; k < g; k++)
        for (size_t r = rt->route_start[m[k]->edge]; r < rt->route_start[m[k]->edge + 1]; r++) {
            size_t l = rt->route_links[r], at = 0;
            while (at < n && links[at] != l)
                at++;
            if (at == n)
                links[n++] = l;
            inc[k * cap + at] = 1;
        }
    /* inc rows of stride cap: compact to stride n */
    for (size_t k = 1; k < g; k++)
        memmove(inc + k * n, inc + k * cap, n);
    mpq_t pen[WG_MAX], E[WG_MAX], z, s, serial;
    mpq_inits(z, s, serial, NULL);
    for (size_t j = 0; j < n; j++) {
        mpq_inits(lc[j], peak[j], NULL);
        mpq_inv(lc[j], rt->link_c[links[j]]);
    }
    for (size_t k = 0; k < g; k++) {
        mpq_inits(pen[k], E[k], NULL);
        mpq_set(pen[k], e->p->l[m[k]->edge]);
    }
    mpq_set(z, e->pb->size); /* one whole value */
    wfill(g, n, inc, (const mpq_t *)lc, (const mpq_t *)pen, z, E, peak);
    int ok = 1;
    size_t last = 0;
    for (size_t k = 0; k < g && ok; k++) {
        mpq_mul(s, z, e->p->c[m[k]->edge]);
        mpq_add(serial, serial, s);
        /* slower than its full rate, not an equal-rate duration */
        ok = mpq_cmp(E[k], s) > 0 && !looks_equal_rate(e, m[k]->edge, E[k], z, s);
        if (mpq_cmp(E[k], E[last]) > 0)
            last = k;
    }
    /* shorter than the members one after the other at full rates */
    ok = ok && mpq_cmp(E[last], serial) < 0;
    int64_t dur = ok ? ticks_up(e, E[last], s) : -1, endt[WG_MAX];
    ok = dur > 0;
    for (size_t k = 0; k < g && ok; k++)
        ok = (endt[k] = ticks_up(e, E[k], s)) > 0;
    for (size_t j = 0; j < n && ok; j++) {
        /* the peak, rounded up to the profile's units; all where saturated */
        int64_t D = e->rlink_cap[links[j]];
        mpz_mul_si(mpq_numref(s), mpq_numref(peak[j]), D);
        mpz_cdiv_q(mpq_numref(s), mpq_numref(s), mpq_denref(peak[j]));
        w[j] = mpz_cmp_si(mpq_numref(s), D) >= 0 ? D : mpz_get_si(mpq_numref(s));
    }
    int64_t ph = 0;
    int r = ok ? ssched_i_sched_group_reserve(e, m, g, links, w, n, dur, &ph, err) : 0;
    if (r == 1) {
        for (size_t k = 0; k < g && r == 1; k++) {
            mpq_ptr x = gx_new(e);
            if (!x) {
                ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                r = -1;
                break;
            }
            mpq_set(x, E[k]);
            sched_event_t ev = {0};
            ev.edge = m[k]->edge;
            ev.type = m[k]->type;
            ev.op = m[k]->op;
            ev.lat = e->lat_hi[ev.edge];
            ev.start = ph - ev.lat;
            ev.group = (unsigned long)g;
            ev.group_link = L;
            ev.gdur = x;
            ev.end = ph + endt[k];
            ev.off = 0;
            ev.len = ev.bamt = e->sc.a;
            if (ev.end > e->makespan)
                e->makespan = ev.end;
            e->transfers++;
            *m[k]->av = ev.end;
            if (ssched_i_sched_push_event(e, &ev, err) != SSCHED_OK)
                r = -1;
        }
    }
    for (size_t j = 0; j < n; j++)
        mpq_clears(lc[j], peak[j], NULL);
    for (size_t k = 0; k < g; k++)
        mpq_clears(pen[k], E[k], NULL);
    mpq_clears(z, s, serial, NULL);
    free(links);
    free(w);
    free(inc);
    free(lc);
    free(peak);
    return r;
}
