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
    if (sched_reduce_like(s))
        ssched_i_sched_lat_lcm(p, sc->Q); /* whole ticks of latency */
    /* the largest time is at most the sum of every duration: periods x the
     * busy ticks of one period */
    mpz_t busy, t;
    mpz_inits(busy, t, NULL);
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
    sc->q = fits63(sc->Q) ? (int64_t)mpz_get_ui(sc->Q) : 1;
    mpz_clears(busy, t, NULL);
    mpq_clear(q);
    free(used);
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
    return st;
}

void ssched_i_sched_scale_free(sched_scale_t *sc)
{
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
    mpz_set_si(mpq_numref(out), (long)ticks);
    mpz_set(mpq_denref(out), sc->Q);
    mpq_canonicalize(out);
}
