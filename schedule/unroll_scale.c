/* The unrolling engine's exact integer time scale (one tick divides every
 * time the unrolled schedule can hold) and the unrolling figures
 * (schedule.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

void ssched_unroll_figures_init(ssched_unroll_figures_t *f)
{
    memset(f, 0, sizeof *f);
    mpq_inits(f->makespan, f->throughput, f->steady_time, f->overhead, f->lb1, f->lower_bound,
              f->ratio, f->period, f->pattern_throughput, f->buffer_peak, NULL);
    mpz_init(f->ops_per_period);
}

void ssched_unroll_figures_free(ssched_unroll_figures_t *f)
{
    mpq_clears(f->makespan, f->throughput, f->steady_time, f->overhead, f->lb1, f->lower_bound,
               f->ratio, f->period, f->pattern_throughput, f->buffer_peak, NULL);
    mpz_clear(f->ops_per_period);
    memset(f, 0, sizeof *f);
}

static int fits63(const mpz_t z)
{
    return mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= 62;
}

static ssched_status_t scale_init(sched_scale_t *sc, const ssched_platform_t *p,
                                  const ssched_problem_t *pb, const ssched_schedule_t *s,
                                  unsigned long long max_periods, int force_whole,
                                  ssched_error_t *err)
{
    size_t ne = p->n_edges, nn = p->n_nodes;
    memset(sc, 0, sizeof *sc);
    mpz_inits(sc->Q, sc->A, NULL);
    mpq_init(sc->tick);
    sc->unit_ticks = ssched_i_calloc(ne, sizeof *sc->unit_ticks);
    sc->task_ticks = ssched_i_calloc(nn, sizeof *sc->task_ticks);
    if (!sc->unit_ticks || !sc->task_ticks)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    unsigned char *used = ssched_i_calloc(ne, 1);
    if (!used)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpz_set_ui(sc->A, 1);
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            mpz_lcm(sc->A, sc->A, mpq_denref(s->slots[k].transfers[t].amount));
            used[s->slots[k].transfers[t].edge] = 1;
        }
    mpq_t q;
    mpq_init(q);
    mpz_set_ui(sc->Q, 1);
    if (!sched_reduce_like(s)) {
        /* scatter, gossip, broadcast: the replay sets its own scale */
        sc->q = sc->a = 1;
        mpq_set_ui(sc->tick, 1, 1);
        mpq_clear(q);
        free(used);
        return SSCHED_OK;
    }
    for (int pass = 0; pass < 2; pass++) {
        mpz_set_ui(sc->Q, 1);
        for (size_t e = 0; e < ne; e++) {
            if (!used[e])
                continue;
            mpq_mul(q, p->c[e], pb->size);
            mpz_mul(mpq_denref(q), mpq_denref(q), sc->A);
            mpq_canonicalize(q);
            mpz_lcm(sc->Q, sc->Q, mpq_denref(q));
            ssched_i_sched_lcm_latency(p, e, sc->Q);
        }
        if (fits63(sc->A) && fits63(sc->Q) && !s->unroll_whole && !force_whole)
            break;
        /* pieces would need too fine a resolution: move whole values */
        mpz_set_ui(sc->A, 1);
        sc->whole = 1;
    }
    for (size_t i = 0; i < nn && sched_reduce_like(s); i++)
        if (p->has_w[i])
            mpz_lcm(sc->Q, sc->Q, mpq_denref(p->w[i]));
    /* the largest time is at most the sum of every duration: periods x the
     * busy ticks of one period */
    mpz_t busy, t, lt;
    mpz_inits(busy, t, lt, NULL);
    ssched_status_t st = SSCHED_OK;
    if (!fits63(sc->A) || !fits63(sc->Q))
        st = ssched_error_set(err, SSCHED_EINPUT,
                              "the pattern's time resolution needs more than 62 bits "
                              "(1/%zu-digit ticks); choose a shorter period (max_period)",
                              mpz_sizeinbase(sc->Q, 10));
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        if (!used[e])
            continue;
        mpq_mul(q, p->c[e], pb->size);
        mpz_mul(mpq_numref(q), mpq_numref(q), sc->Q);
        mpz_mul(mpq_denref(q), mpq_denref(q), sc->A);
        mpq_canonicalize(q);
        if (!fits63(mpq_numref(q)))
            st = ssched_error_set(err, SSCHED_EINPUT, "a transfer time overflows 62 bits of ticks");
        else
            sc->unit_ticks[e] = (int64_t)mpz_get_ui(mpq_numref(q));
    }
    for (size_t i = 0; i < nn && st == SSCHED_OK && sched_reduce_like(s); i++) {
        if (!p->has_w[i])
            continue;
        mpz_mul(t, mpq_numref(p->w[i]), sc->Q);
        mpz_divexact(t, t, mpq_denref(p->w[i]));
        if (!fits63(t))
            st = ssched_error_set(err, SSCHED_EINPUT, "a task time overflows 62 bits of ticks");
        else
            sc->task_ticks[i] = (int64_t)mpz_get_ui(t);
    }
    for (size_t k = 0; k < s->n_slots && st == SSCHED_OK; k++)
        for (size_t x = 0; x < s->slots[k].n_transfers; x++) {
            const ssched_transfer_t *tr = &s->slots[k].transfers[x];
            mpz_mul(t, mpq_numref(tr->amount), sc->A);
            mpz_cdiv_q(t, t, mpq_denref(tr->amount));
            mpz_addmul_ui(busy, t, (unsigned long)sc->unit_ticks[tr->edge]);
            if (p->l && mpq_sgn(p->l[tr->edge]) > 0) {
                /* each message waits its latency too: a slot transfer of
                 * `amount` values is at most ceil(amount) + 1 messages
                 * (whole values and the pieces at both ends) */
                mpz_mul(lt, mpq_numref(p->l[tr->edge]), sc->Q);
                mpz_cdiv_q(lt, lt, mpq_denref(p->l[tr->edge]));
                mpz_cdiv_q(t, mpq_numref(tr->amount), mpq_denref(tr->amount));
                mpz_add_ui(t, t, 1);
                mpz_addmul(busy, lt, t);
            }
        }
    for (size_t k = 0; k < s->n_computations && st == SSCHED_OK; k++)
        mpz_addmul_ui(busy, s->computations[k].count,
                      (unsigned long)sc->task_ticks[s->computations[k].node]);
    if (st == SSCHED_OK) {
        mpz_mul_ui(busy, busy, (unsigned long)(max_periods + 1));
        if (!fits63(busy))
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "the unrolled schedule's times need more than 62 bits of "
                                  "ticks; use fewer operations or a shorter period (max_period)");
    }
    sc->a = fits63(sc->A) ? (int64_t)mpz_get_ui(sc->A) : 1;
    if (fits63(sc->Q))
        ssched_i_sched_scale_exact(sc);
    else
        sc->q = 1;
    mpz_clears(busy, t, lt, NULL);
    mpq_clear(q);
    free(used);
    return st;
}

/* Reduce, all-reduce on the rounded grid: whole values (A = 1); one
 * period's events are at most ceil(amount) values per slot transfer and
 * the tasks. */
static ssched_status_t scale_round_reduce(sched_scale_t *sc, const ssched_platform_t *p,
                                          const ssched_problem_t *pb, const ssched_schedule_t *s,
                                          unsigned long long max_periods, ssched_error_t *err)
{
    size_t ne = p->n_edges, nn = p->n_nodes;
    memset(sc, 0, sizeof *sc);
    mpz_inits(sc->Q, sc->A, NULL);
    mpq_init(sc->tick);
    mpz_set_ui(sc->A, 1);
    mpz_set_ui(sc->Q, 1);
    sc->a = 1;
    sc->whole = 1;
    sc->unit_ticks = ssched_i_calloc(ne, sizeof *sc->unit_ticks);
    sc->task_ticks = ssched_i_calloc(nn, sizeof *sc->task_ticks);
    if (!sc->unit_ticks || !sc->task_ticks)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t busy, d;
    mpz_t n;
    mpq_inits(busy, d, NULL);
    mpz_init(n);
    unsigned long long events = 0;
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t x = 0; x < s->slots[k].n_transfers; x++) {
            const ssched_transfer_t *tr = &s->slots[k].transfers[x];
            mpz_cdiv_q(n, mpq_numref(tr->amount), mpq_denref(tr->amount));
            mpq_mul(d, p->c[tr->edge], pb->size);
            mpz_mul(mpq_numref(d), mpq_numref(d), n);
            mpq_canonicalize(d);
            mpq_add(busy, busy, d);
            ssched_i_sched_add_latency(p, tr->edge, mpz_fits_ulong_p(n) ? mpz_get_ui(n) : 0, busy);
            events += mpz_fits_ulong_p(n) ? mpz_get_ui(n) : 1ULL << 40;
        }
    for (size_t k = 0; k < s->n_computations; k++) {
        const ssched_computation_t *c = &s->computations[k];
        if (!p->has_w[c->node])
            continue;
        mpq_set_z(d, c->count);
        mpq_mul(d, d, p->w[c->node]);
        mpq_add(busy, busy, d);
        events += mpz_fits_ulong_p(c->count) ? mpz_get_ui(c->count) : 1ULL << 40;
    }
    ssched_status_t st = ssched_i_sched_scale_round(sc, s->period, busy, events, max_periods, err);
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        mpq_mul(d, p->c[e], pb->size);
        int64_t t = ssched_i_sched_dur_ticks(sc, d);
        sc->unit_ticks[e] = t < 0 ? 0 : t; /* an edge the pattern uses fits (busy) */
    }
    for (size_t i = 0; i < nn && st == SSCHED_OK; i++) {
        int64_t t = p->has_w[i] ? ssched_i_sched_dur_ticks(sc, p->w[i]) : 0;
        sc->task_ticks[i] = t < 0 ? 0 : t;
    }
    mpq_clears(busy, d, NULL);
    mpz_clear(n);
    return st;
}

ssched_status_t ssched_i_sched_scale_init(sched_scale_t *sc, const ssched_platform_t *p,
                                 const ssched_problem_t *pb, const ssched_schedule_t *s,
                                 unsigned long long max_periods, ssched_error_t *err)
{
    ssched_status_t st = scale_init(sc, p, pb, s, max_periods, 0, err);
    if (st == SSCHED_EINPUT && sched_reduce_like(s) && !sc->whole) {
        /* the pieces' resolution (1/A message) makes the times too long:
         * whole values need far fewer ticks, and stay valid */
        ssched_i_sched_scale_free(sc);
        st = scale_init(sc, p, pb, s, max_periods, 1, err);
    }
    if (st == SSCHED_EINPUT && sched_reduce_like(s)) {
        /* not even whole values fit exact ticks: the rounded grid */
        ssched_i_sched_scale_free(sc);
        st = scale_round_reduce(sc, p, pb, s, max_periods, err);
    }
    return st;
}

void ssched_i_sched_lcm_latency(const ssched_platform_t *p, size_t e, mpz_t Q)
{
    if (p->l)
        mpz_lcm(Q, Q, mpq_denref(p->l[e]));
}

void ssched_i_sched_add_latency(const ssched_platform_t *p, size_t e, unsigned long count,
                                mpq_t q)
{
    if (!p->l || mpq_sgn(p->l[e]) == 0 || count == 0)
        return;
    mpq_t x;
    mpq_init(x);
    mpz_mul_ui(mpq_numref(x), mpq_numref(p->l[e]), count);
    mpz_set(mpq_denref(x), mpq_denref(p->l[e]));
    mpq_canonicalize(x);
    mpq_add(q, q, x);
    mpq_clear(x);
}

void ssched_i_sched_scale_exact(sched_scale_t *sc)
{
    sc->rounded = 0;
    mpq_set_z(sc->tick, sc->Q);
    mpq_inv(sc->tick, sc->tick);
    sc->q = fits63(sc->Q) ? (int64_t)mpz_get_ui(sc->Q) : 1;
}

ssched_status_t ssched_i_sched_scale_round(sched_scale_t *sc, const mpq_t period,
                                           const mpq_t busy, unsigned long long events,
                                           unsigned long long periods, ssched_error_t *err)
{
    /* every time <= (periods + 1) (busy M / period + events + M): the sum
     * of every rounded duration (each under d / tick + 1) and the release
     * times (at most periods x M) */
    mpq_t r;
    mpz_t bound, m;
    mpq_init(r);
    mpz_inits(bound, m, NULL);
    mpq_div(r, busy, period);
    int k = 61;
    for (; k >= 0; k--) {
        mpz_set_ui(m, 1);
        mpz_mul_2exp(m, m, (mp_bitcnt_t)k);
        mpz_mul(bound, mpq_numref(r), m);
        mpz_cdiv_q(bound, bound, mpq_denref(r));
        mpz_add_ui(bound, bound, events);
        mpz_add(bound, bound, m);
        mpz_mul_ui(bound, bound, (unsigned long)periods + 1);
        if (mpz_sizeinbase(bound, 2) <= 61)
            break;
    }
    ssched_status_t st = SSCHED_OK;
    if (k < 0)
        st = ssched_error_set(err, SSCHED_EINPUT,
                              "the unrolled schedule has too many events for 62-bit times");
    sc->rounded = 1;
    sc->q = 1;
    mpq_set(sc->tick, period);
    mpz_mul_2exp(mpq_denref(sc->tick), mpq_denref(sc->tick), (mp_bitcnt_t)(k < 0 ? 0 : k));
    mpq_canonicalize(sc->tick);
    mpq_clear(r);
    mpz_clears(bound, m, NULL);
    return st;
}

int64_t ssched_i_sched_dur_ticks(const sched_scale_t *sc, const mpq_t d)
{
    mpz_t t;
    mpz_init(t);
    if (sc->rounded) { /* ceil(d / tick) */
        mpz_mul(t, mpq_numref(d), mpq_denref(sc->tick));
        mpz_t u;
        mpz_init(u);
        mpz_mul(u, mpq_denref(d), mpq_numref(sc->tick));
        mpz_cdiv_q(t, t, u);
        mpz_clear(u);
    } else {
        mpz_mul(t, mpq_numref(d), sc->Q);
        mpz_divexact(t, t, mpq_denref(d));
    }
    int64_t r = fits63(t) ? (int64_t)mpz_get_ui(t) : -1;
    mpz_clear(t);
    return r;
}

void ssched_i_sched_period_ticks(const sched_scale_t *sc, const mpq_t period, mpq_t out)
{
    mpq_div(out, period, sc->tick);
}

void ssched_i_sched_exact_dur(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const sched_scale_t *sc, const sched_event_t *ev, mpq_t out)
{
    if (ev->is_comp) {
        mpq_set(out, p->w[ev->node]);
        return;
    }
    if (ev->piece_len) {
        mpq_set(out, ev->piece_len);
    } else {
        mpq_set_si(out, (long)ev->len, (unsigned long)sc->a);
        mpq_canonicalize(out);
    }
    mpq_mul(out, out, p->c[ev->edge]);
    mpq_mul(out, out, pb->size);
    if (p->l) /* the latency phase, then the bandwidth phase (SEMANTICS.md) */
        mpq_add(out, out, p->l[ev->edge]);
}

void ssched_i_sched_scale_free(sched_scale_t *sc)
{
    mpq_clear(sc->tick);
    mpz_clears(sc->Q, sc->A, NULL);
    free(sc->unit_ticks);
    free(sc->task_ticks);
    memset(sc, 0, sizeof *sc);
}

int64_t ssched_i_sched_units(const sched_scale_t *sc, const mpq_t amount)
{
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, mpq_numref(amount), sc->A);
    mpz_divexact(t, t, mpq_denref(amount));
    int64_t u = (int64_t)mpz_get_ui(t);
    mpz_clear(t);
    return u;
}

void ssched_i_sched_ticks_to_q(const sched_scale_t *sc, int64_t ticks, mpq_t out)
{
    if (sc->rounded) {
        mpq_set_si(out, (long)ticks, 1);
        mpq_mul(out, out, sc->tick);
        return;
    }
    mpz_set_si(mpq_numref(out), (long)ticks);
    mpz_set(mpq_denref(out), sc->Q);
    mpq_canonicalize(out);
}
