/* The unrolling engine: exact integer time scale, left-shifted emission of
 * events, limits, and the driver shared by the in-memory and streamed forms
 * (schedule.h: ssched_unroll*). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

#define TICK_LIMIT ((int64_t)1 << 62)

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

static ssched_status_t push_event(sched_engine_t *e, sched_event_t *ev, ssched_error_t *err)
{
    if (e->n_fresh == e->cap_fresh) {
        size_t cap = e->cap_fresh ? 2 * e->cap_fresh : 1024;
        sched_event_t *f = realloc(e->fresh, cap * sizeof *f);
        if (!f)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        e->fresh = f;
        e->cap_fresh = cap;
    }
    e->fresh[e->n_fresh++] = *ev;
    return SSCHED_OK;
}

/* Stable sort of keys[0..n) on start: insertion for a few, else LSD radix
 * on the bytes of start - min (tmp: n more keys). */
static void sort_keys(sched_key_t *keys, sched_key_t *tmp, size_t n)
{
    if (n < 48) {
        for (size_t i = 1; i < n; i++) {
            sched_key_t x = keys[i];
            size_t j = i;
            while (j > 0 && keys[j - 1].start > x.start) {
                keys[j] = keys[j - 1];
                j--;
            }
            keys[j] = x;
        }
        return;
    }
    int64_t lo = keys[0].start, hi = keys[0].start;
    for (size_t i = 1; i < n; i++) {
        if (keys[i].start < lo)
            lo = keys[i].start;
        if (keys[i].start > hi)
            hi = keys[i].start;
    }
    uint64_t range = (uint64_t)hi - (uint64_t)lo;
    sched_key_t *src = keys, *dst = tmp;
    for (unsigned shift = 0; shift < 64 && (range >> shift) != 0; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(((uint64_t)src[i].start - (uint64_t)lo) >> shift & 0xff) + 1]++;
        for (size_t d = 1; d < 257; d++)
            count[d] += count[d - 1];
        for (size_t i = 0; i < n; i++)
            dst[count[((uint64_t)src[i].start - (uint64_t)lo) >> shift & 0xff]++] = src[i];
        sched_key_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

static int run_less(const sched_run_t *a, const sched_run_t *b)
{
    return a->head != b->head ? a->head < b->head : a->id < b->id;
}

static void runs_sift_down(sched_engine_t *e, size_t k)
{
    sched_run_t *h = e->runs, x = h[k];
    size_t n = e->n_runs;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && run_less(&h[c + 1], &h[c]))
            c++;
        if (!run_less(&h[c], &x))
            break;
        h[k] = h[c];
        k = c;
    }
    h[k] = x;
}

/* The events generated since the last flush become a sorted run. */
static ssched_status_t make_run(sched_engine_t *e, ssched_error_t *err)
{
    size_t n = e->n_fresh;
    if (n == 0)
        return SSCHED_OK;
    if (e->cap_keys < n) {
        sched_key_t *k1 = realloc(e->keys, n * sizeof *k1);
        if (k1)
            e->keys = k1;
        sched_key_t *k2 = realloc(e->keys2, n * sizeof *k2);
        if (k2)
            e->keys2 = k2;
        if (!k1 || !k2)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        e->cap_keys = n;
    }
    if (e->n_runs == e->cap_runs) {
        size_t cap = e->cap_runs ? 2 * e->cap_runs : 16;
        sched_run_t *r = realloc(e->runs, cap * sizeof *r);
        if (!r)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        e->runs = r;
        e->cap_runs = cap;
    }
    sched_run_t run = {NULL, 0, 0, 0, 0, 0};
    if (e->n_spare > 0)
        run = e->spare[--e->n_spare];
    if (run.cap < n) {
        sched_event_t *ev = realloc(run.ev, n * sizeof *ev);
        if (!ev) {
            free(run.ev);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        run.ev = ev;
        run.cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        e->keys[i].start = e->fresh[i].start;
        e->keys[i].idx = i;
    }
    sort_keys(e->keys, e->keys2, n);
    for (size_t i = 0; i < n; i++)
        run.ev[i] = e->fresh[e->keys[i].idx];
    run.n = n;
    run.pos = 0;
    run.head = run.ev[0].start;
    run.id = e->run_id++;
    e->n_fresh = 0;
    /* into the heap of runs */
    size_t k = e->n_runs++;
    while (k > 0 && run_less(&run, &e->runs[(k - 1) / 2])) {
        e->runs[k] = e->runs[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    e->runs[k] = run;
    return SSCHED_OK;
}

/* The first run is used up: keep its array for a later run. */
static ssched_status_t drop_run(sched_engine_t *e, ssched_error_t *err)
{
    sched_run_t r = e->runs[0];
    e->runs[0] = e->runs[--e->n_runs];
    if (e->n_runs > 0)
        runs_sift_down(e, 0);
    if (e->n_spare == e->cap_spare) {
        size_t cap = e->cap_spare ? 2 * e->cap_spare : 16;
        sched_run_t *sp = realloc(e->spare, cap * sizeof *sp);
        if (!sp) {
            free(r.ev);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        e->spare = sp;
        e->cap_spare = cap;
    }
    e->spare[e->n_spare++] = r;
    return SSCHED_OK;
}

static void free_runs(sched_engine_t *e)
{
    for (size_t k = 0; k < e->n_runs; k++)
        free(e->runs[k].ev);
    for (size_t k = 0; k < e->n_spare; k++)
        free(e->spare[k].ev);
    free(e->runs);
    free(e->spare);
    free(e->fresh);
    free(e->keys);
    free(e->keys2);
}

void ssched_i_sched_engine_period(sched_engine_t *e, size_t b)
{
    e->release = 0;
    if (b <= e->window)
        return;
    mpz_t t;
    mpz_init_set_ui(t, (unsigned long)(b - e->window));
    mpz_mul(t, t, mpq_numref(e->period_ticks));
    mpz_fdiv_q(t, t, mpq_denref(e->period_ticks));
    /* a later release only delays: clamp to what int64 holds */
    e->release = mpz_fits_slong_p(t) ? mpz_get_si(t) : INT64_MAX / 4;
    mpz_clear(t);
}

ssched_status_t ssched_i_sched_engine_flush(sched_engine_t *e, int final, ssched_error_t *err)
{
    if (!final && e->limits && e->limits->progress && (++e->periods_done & 63) == 0) {
        double t = ssched_i_wall_now();
        if (t - e->reported >= 1.0) {
            e->reported = t;
            e->limits->progress(e->limits->progress_ctx, e->periods_done, e->periods_total,
                                t - e->started);
        }
    }
    int64_t mark = INT64_MAX;
    for (size_t i = 0; i < e->p->n_nodes && !final; i++) {
        if (e->sends[i] && e->send_free[i] < mark)
            mark = e->send_free[i];
        if (e->computes[i] && e->cpu_free[i] < mark)
            mark = e->cpu_free[i];
    }
    for (size_t x = 0; x < e->p->n_edges && !final; x++)
        if (e->link_sends[x] && e->link_free[x] < mark)
            mark = e->link_free[x];
    ssched_status_t st = make_run(e, err);
    int track = !e->sink->no_buffers;
    while (st == SSCHED_OK && e->n_runs > 0 && (final || e->runs[0].head <= mark)) {
        /* the first run's events up to the next run's head (or the mark) */
        sched_run_t *r = &e->runs[0];
        int64_t until = final ? INT64_MAX : mark;
        unsigned long long next_id = 0;
        int64_t next = INT64_MAX;
        if (e->n_runs > 1) {
            size_t c = e->n_runs > 2 && run_less(&e->runs[2], &e->runs[1]) ? 2 : 1;
            next = e->runs[c].head;
            next_id = e->runs[c].id;
        }
        while (st == SSCHED_OK && r->pos < r->n) {
            const sched_event_t *ev = &r->ev[r->pos];
            if (ev->start > until || ev->start > next || (ev->start == next && r->id > next_id))
                break;
            if (track && !ssched_i_sched_buffers_event(e, ev))
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            if (st == SSCHED_OK)
                st = e->sink->emit(e->sink, ev, err);
            r->pos++;
        }
        if (st != SSCHED_OK)
            break;
        if (r->pos == r->n) {
            st = drop_run(e, err);
        } else {
            r->head = r->ev[r->pos].start;
            runs_sift_down(e, 0);
        }
    }
    return st;
}

/* The resources a transfer over `edge` holds: the out-port of its sender
 * if that is a one-port host, else (a switch) the link itself; the in-port
 * of its receiver, or the link at a switch. */
static int64_t *sender_res(sched_engine_t *e, size_t edge)
{
    size_t i = e->p->from[edge];
    return e->p->multiport && e->p->multiport[i] ? &e->link_free[edge] : &e->send_free[i];
}

static int64_t *receiver_res(sched_engine_t *e, size_t edge)
{
    size_t j = e->p->to[edge];
    return e->p->multiport && e->p->multiport[j] ? &e->link_free[edge] : &e->recv_free[j];
}

/* Place a transfer of `dur` ticks over `edge`: as early as its input
 * (`ready`), the release time and both resources allow; returns the event
 * with start and end set. */
static sched_event_t place_transfer(sched_engine_t *e, size_t edge, size_t type,
                                    size_t op, int64_t dur, int64_t ready)
{
    int64_t *snd = sender_res(e, edge), *rcv = receiver_res(e, edge);
    int64_t start = ready > e->release ? ready : e->release;
    if (*snd > start)
        start = *snd;
    if (*rcv > start)
        start = *rcv;
    sched_event_t ev = {0};
    ev.edge = edge;
    ev.type = type;
    ev.op = op;
    ev.start = start;
    ev.end = start + dur;
    *snd = *rcv = ev.end;
    if (ev.end > e->makespan)
        e->makespan = ev.end;
    e->transfers++;
    return ev;
}

ssched_status_t ssched_i_sched_emit_transfer(sched_engine_t *e, size_t edge, size_t type,
                                    size_t op, int64_t off, int64_t len, int64_t ready,
                                    int64_t *end, ssched_error_t *err)
{
    sched_event_t ev = place_transfer(e, edge, type, op, len * e->sc.unit_ticks[edge], ready);
    ev.off = off;
    ev.len = len;
    ev.bamt = len;
    if (len != e->sc.a)
        e->pieces++;
    *end = ev.end;
    return push_event(e, &ev, err);
}

ssched_status_t ssched_i_sched_emit_piece(sched_engine_t *e, size_t edge, size_t type, size_t op,
                                 int64_t dur, mpq_srcptr off, mpq_srcptr len, const char *json,
                                 int64_t bamt, int64_t ready, int64_t *end, ssched_error_t *err)
{
    sched_event_t ev = place_transfer(e, edge, type, op, dur, ready);
    ev.bamt = bamt;
    ev.piece_off = off;
    ev.piece_len = len;
    ev.piece_json = json;
    ev.off = 0;
    ev.len = e->sc.a; /* whole when there is no piece text */
    if (json)
        e->pieces++;
    *end = ev.end;
    return push_event(e, &ev, err);
}

ssched_status_t ssched_i_sched_emit_computation(sched_engine_t *e, const ssched_tree_task_t *x,
                                       size_t op, int64_t ready, int64_t *end,
                                       ssched_error_t *err)
{
    sched_event_t ev = {0};
    ev.is_comp = 1;
    ev.node = x->node;
    ev.k = x->k;
    ev.l = x->l;
    ev.m = x->m;
    ev.op = op;
    if (e->release > ready)
        ready = e->release;
    ev.start = ready > e->cpu_free[x->node] ? ready : e->cpu_free[x->node];
    ev.end = ev.start + e->sc.task_ticks[x->node];
    e->cpu_free[x->node] = ev.end;
    if (ev.end > e->makespan)
        e->makespan = ev.end;
    e->computations++;
    *end = ev.end;
    return push_event(e, &ev, err);
}

unsigned long long ssched_i_sched_replay_periods(const ssched_platform_t *p, const ssched_schedule_t *s,
                                        size_t K)
{
    unsigned long long ops = mpz_fits_ulong_p(s->ops_per_period)
                                 ? mpz_get_ui(s->ops_per_period) : 0xffffffffULL;
    if (ops == 0)
        ops = 1;
    /* a route has fewer than n_nodes hops, a tree fewer levels than tasks */
    size_t depth = 0;
    for (size_t t = 0; t < s->trees.n_trees; t++)
        if (s->trees.trees[t].n_tasks > depth)
            depth = s->trees.trees[t].n_tasks;
    return (K + ops - 1) / ops + depth + 2 * p->n_nodes + 4;
}

/* Events written for K operations: K x (transfers and computations of one
 * operation, counting each slot of a message as one piece). */
static unsigned long long estimate_events(const ssched_schedule_t *s, size_t K)
{
    mpz_t n;
    mpz_init(n);
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            /* ceil(amount) + 1 records at most per slot transfer */
            mpz_t c;
            mpz_init(c);
            mpz_cdiv_q(c, mpq_numref(s->slots[k].transfers[t].amount),
                       mpq_denref(s->slots[k].transfers[t].amount));
            mpz_add(n, n, c);
            mpz_clear(c);
        }
    for (size_t k = 0; k < s->n_computations; k++)
        mpz_add(n, n, s->computations[k].count);
    mpz_mul_ui(n, n, K);
    mpz_cdiv_q(n, n, s->ops_per_period);
    unsigned long long r = mpz_fits_ulong_p(n) ? mpz_get_ui(n) : ~0ULL;
    mpz_clear(n);
    return r;
}

ssched_status_t ssched_i_sched_unroll_run(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_schedule_t *s, size_t K,
                                 const ssched_unroll_limits_t *limits, sched_sink_t *sink,
                                 ssched_unroll_figures_t *fig, ssched_error_t *err)
{
    size_t max_ops = limits && limits->max_operations ? limits->max_operations : 10000000UL;
    unsigned long long max_events =
        limits && limits->max_events ? limits->max_events : 500000000ULL;
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "K (operations) must be at least 1");
    if (K > max_ops)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "K (operations) %lu is above the limit %lu (raise it "
                                "with limits.max_operations)", K, max_ops);
    if (mpq_sgn(s->throughput) == 0 || mpz_sgn(s->ops_per_period) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "throughput is 0: no operation can complete");
    /* the pattern itself is walked every period: it must be short */
    unsigned long long per_period = estimate_events(s, mpz_fits_ulong_p(s->ops_per_period)
                                                          ? mpz_get_ui(s->ops_per_period) : ~0UL);
    if (per_period > 10000000ULL)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "the periodic pattern has about %llu events per period; unroll "
                                "a shorter one (ssched_unroll_plan, max_period)", per_period);
    unsigned long long events = estimate_events(s, K);
    if (events > max_events)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "about %llu events for %lu operations, above the limit %llu "
                                "(raise it with limits.max_events)", events, K, max_events);
    if (sched_reduce_like(s)) {
        /* instances of one period are held at once */
        unsigned long long per = 0;
        for (size_t t = 0; t < s->trees.n_trees; t++)
            per += (unsigned long long)s->trees.trees[t].n_tasks *
                   (mpz_fits_ulong_p(s->trees.trees[t].weight) ? mpz_get_ui(s->trees.trees[t].weight)
                                                               : ~0UL);
        unsigned long long mem = limits && limits->max_memory ? limits->max_memory : 1ULL << 31;
        if (per > mem / 64)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "the pattern's period holds about %llu task instances "
                                    "(%llu MB); choose a shorter period (max_period)",
                                    per, per * 64 >> 20);
    }
    /* an all-reduce's reduce part goes to the schedule's root (the
     * problem may leave it open): buffers and LB1 name it as the target */
    ssched_problem_t to_root;
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE) {
        to_root = *pb;
        to_root.target = s->root;
        pb = &to_root;
    }
    sched_engine_t e;
    memset(&e, 0, sizeof e);
    e.p = p;
    e.s = s;
    e.pb = pb;
    e.sink = sink;
    size_t nn = p->n_nodes;
    ssched_status_t st = ssched_i_sched_scale_init(&e.sc, p, pb, s, ssched_i_sched_replay_periods(p, s, K), err);
    e.send_free = ssched_i_calloc(nn, sizeof *e.send_free);
    e.recv_free = ssched_i_calloc(nn, sizeof *e.recv_free);
    e.cpu_free = ssched_i_calloc(nn, sizeof *e.cpu_free);
    e.sends = ssched_i_calloc(nn, 1);
    e.link_free = ssched_i_calloc(p->n_edges, sizeof *e.link_free);
    e.link_sends = ssched_i_calloc(p->n_edges, 1);
    e.computes = ssched_i_calloc(nn, 1);
    int buffers_ok = ssched_i_sched_buffers_init(&e.buf, p, pb, s);
    /* reduce: whole numbers of 1/A; scatter, gossip: set by the replay */
    e.buf.bu = sched_reduce_like(s) ? e.sc.a : 1;
    if (st == SSCHED_OK && (!e.send_free || !e.recv_free || !e.cpu_free || !e.sends ||
                            !e.computes || !e.link_free || !e.link_sends || !buffers_ok))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < s->n_slots && e.sends && e.link_sends; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            size_t x = s->slots[k].transfers[t].edge;
            if (p->multiport && p->multiport[p->from[x]])
                e.link_sends[x] = 1;
            else
                e.sends[p->from[x]] = 1;
        }
    for (size_t k = 0; k < s->n_computations && e.computes; k++)
        e.computes[s->computations[k].node] = 1;
    size_t periods = 0;
    mpq_init(e.period_ticks);
    sink->sc = &e.sc;
    e.limits = limits;
    e.started = e.reported = ssched_i_wall_now();
    e.periods_total = (size_t)ssched_i_sched_replay_periods(p, s, K) - 2 * p->n_nodes - 4;
    if (st == SSCHED_OK)
        st = s->kind == SSCHED_PROBLEM_REDUCE      ? ssched_i_sched_replay_reduce(&e, pb, K, &periods, err)
             : s->kind == SSCHED_PROBLEM_BROADCAST ? ssched_i_sched_replay_broadcast(&e, pb, K, &periods, err)
             : s->kind == SSCHED_PROBLEM_ALLREDUCE ? ssched_i_sched_replay_allreduce(&e, pb, K, &periods, err)
                                                   : ssched_i_sched_replay_flow(&e, pb, K, &periods, err);
    if (st == SSCHED_OK) {
        fig->operations = K;
        ssched_i_sched_ticks_to_q(&e.sc, e.makespan, fig->makespan);
        mpq_set(fig->throughput, s->optimal_throughput);
        if (mpq_sgn(fig->throughput) == 0)
            mpq_set(fig->throughput, s->throughput);
        mpq_set_ui(fig->steady_time, K, 1);
        mpq_div(fig->steady_time, fig->steady_time, fig->throughput);
        mpq_sub(fig->overhead, fig->makespan, fig->steady_time);
        st = ssched_unroll_lb1(p, pb, fig->lb1, err);
        mpq_set(fig->lower_bound, fig->steady_time);
        if (mpq_cmp(fig->lb1, fig->lower_bound) > 0)
            mpq_set(fig->lower_bound, fig->lb1);
        if (mpq_sgn(fig->lower_bound) > 0)
            mpq_div(fig->ratio, fig->makespan, fig->lower_bound);
        mpq_set(fig->period, s->period);
        mpz_set(fig->ops_per_period, s->ops_per_period);
        mpq_set_z(fig->pattern_throughput, s->ops_per_period);
        mpq_div(fig->pattern_throughput, fig->pattern_throughput, s->period);
        fig->periods = periods;
        fig->transfers = e.transfers;
        fig->computations = e.computations;
        fig->pieces = e.pieces;
        mpq_set_ui(fig->buffer_peak, 0, 1);
        fig->buffer_node = 0;
        if (st == SSCHED_OK && !sink->no_buffers && !ssched_i_sched_buffers_result(&e.buf, nn, fig))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    ssched_i_sched_buffers_free(&e.buf, nn);
    free_runs(&e);
    ssched_i_sched_scale_free(&e.sc);
    mpq_clear(e.period_ticks);
    free(e.sends);
    free(e.computes);
    free(e.link_free);
    free(e.link_sends);
    free(e.send_free);
    free(e.recv_free);
    free(e.cpu_free);
    return st;
}
