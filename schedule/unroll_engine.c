/* The unrolling engine: left-shifted emission of events into sorted runs,
 * merged and written in start order (unroll_scale.c: its time scale;
 * unroll_run.c: the driver). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_sched_push_event(sched_engine_t *e, sched_event_t *ev, ssched_error_t *err)
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

void ssched_i_sched_engine_free_runs(sched_engine_t *e)
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
    free(e->lat_ticks);
    free(e->lat_hi);
    ssched_i_sched_gx_free(e);
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
    /* routed: a phase may fill a gap of a link's profile, but none more
     * than window + 1 periods before the link's front (its latest phase
     * start), so the profile keeps only that much (unroll_links.c): when
     * the run falls behind the pattern (non-preemptive transfers do not
     * pack like the fluid LP) memory and search time would else grow */
    mpz_set_ui(t, (unsigned long)(e->window + 1));
    mpz_mul(t, t, mpq_numref(e->period_ticks));
    mpz_cdiv_q(t, t, mpq_denref(e->period_ticks));
    e->rlag = mpz_fits_slong_p(t) && mpz_sgn(t) > 0 ? mpz_get_si(t) : 0;
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
    if (!final && mark != INT64_MAX)
        mark -= e->lat_max; /* a transfer starts up to its latency before */
    /* routed, multi-port hosts: a transfer over a SHARED route holds no
     * resource whose free time only grows (it may fill a gap of a link's
     * profile); every later event starts no earlier than its period's
     * release time, which only grows (ssched_i_sched_engine_period) */
    int shared_only = 0;
    for (size_t k = 0; e->p->routes && !e->p->routes->hosts_one_port &&
                       k < e->p->routes->n_links; k++)
        shared_only |= e->rlink_used[k];
    if (!final && (shared_only || e->cpuprof) && e->release < mark)
        mark = e->release; /* a computation may also fill a processor's gap */
    if (!final && e->p->routes)
        ssched_i_sched_links_prune(e, mark); /* no later phase starts before */
    ssched_status_t st = make_run(e, err);
    int track = !e->sink->no_buffers;
    e->sink->bu = e->buf.wide ? 0 : e->buf.bu; /* 0: amounts are indices (wide) */
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

/* Each edge's latency in ticks of the scale the replay has fixed: exact
 * (Q a multiple of the denominator of every used edge's latency,
 * ssched_i_sched_lcm_latency) or the floor and ceiling on a rounded grid. */
static ssched_status_t lat_init(sched_engine_t *e, ssched_error_t *err)
{
    if (e->lat_ticks)
        return SSCHED_OK;
    const ssched_platform_t *p = e->p;
    const sched_scale_t *sc = &e->sc;
    e->lat_ticks = ssched_i_calloc(p->n_edges, sizeof *e->lat_ticks);
    e->lat_hi = ssched_i_calloc(p->n_edges, sizeof *e->lat_hi);
    if (!e->lat_ticks || !e->lat_hi)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpz_t t, u;
    mpz_inits(t, u, NULL);
    ssched_status_t st = SSCHED_OK;
    for (size_t x = 0; p->l && x < p->n_edges && st == SSCHED_OK; x++) {
        if (mpq_sgn(p->l[x]) <= 0)
            continue;
        if (sc->rounded) { /* l / tick */
            mpz_mul(t, mpq_numref(p->l[x]), mpq_denref(sc->tick));
            mpz_mul(u, mpq_denref(p->l[x]), mpq_numref(sc->tick));
        } else {
            mpz_mul(t, mpq_numref(p->l[x]), sc->Q);
            mpz_set(u, mpq_denref(p->l[x]));
        }
        int whole = mpz_divisible_p(t, u);
        mpz_fdiv_q(t, t, u);
        if (mpz_sizeinbase(t, 2) > 60) {
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "a latency overflows 60 bits of ticks; use fewer operations "
                                  "or a shorter period (max_period)");
            break;
        }
        e->lat_ticks[x] = (int64_t)mpz_get_ui(t);
        e->lat_hi[x] = sc->rounded ? e->lat_ticks[x] + !whole : whole ? e->lat_ticks[x] : -1;
        if (e->lat_ticks[x] > e->lat_max)
            e->lat_max = e->lat_ticks[x];
    }
    mpz_clears(t, u, NULL);
    return st;
}

ssched_status_t ssched_i_sched_lat_ready(sched_engine_t *e, ssched_error_t *err)
{
    return lat_init(e, err);
}

/* Place a transfer of `dur` ticks (its bandwidth phase) over `edge`: as
 * early as its input (`ready`), the release time, both ports and (routed)
 * the profiles of its SHARED links allow.  With latency l it starts at s, holds its resources in
 * [s + l, s + l + dur) only (SEMANTICS.md), so s + l must be no earlier
 * than each resource's free time: a port starts its next message while the
 * previous one is in its latency phase.  Each port still serves its
 * bandwidth phases one at a time, in placement order; a link's profile
 * may take a later-placed phase into an earlier gap.  Returns the event
 * with start and end set, or an error (a time beyond 2^62 ticks). */
static ssched_status_t place_transfer(sched_engine_t *e, size_t edge, size_t type, size_t op,
                                      int64_t dur, int64_t ready, sched_event_t *out,
                                      ssched_error_t *err)
{
    if (!e->lat_ticks) {
        ssched_status_t st = lat_init(e, err);
        if (st != SSCHED_OK)
            return st;
    }
    int64_t lat = e->lat_ticks[edge], hi = e->lat_hi[edge];
    if (hi < 0)
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "unroll: the time scale does not hold edge %zu's latency", edge);
    /* the resources held in the bandwidth phase: both ports (graph model),
     * or a share of every SHARED link of the route and, one-port hosts, the
     * ports; a
     * route of FATPIPE links only, between multi-port hosts, holds the
     * edge itself: the LP caps the edge's flow, not each message's, so its
     * messages go one at a time (still exact in SimGrid: each alone) */
    int64_t *held[2] = {NULL, NULL}, **res = held;
    size_t n_res = 0;
    const ssched_routes_t *rt = e->p->routes;
    if (!rt || rt->hosts_one_port) {
        held[0] = rt ? &e->send_free[e->p->from[edge]] : sender_res(e, edge);
        held[1] = rt ? &e->recv_free[e->p->to[edge]] : receiver_res(e, edge);
        n_res = 2;
    } else if (!ssched_i_sched_route_shared(e->p, edge)) {
        held[0] = &e->link_free[edge];
        n_res = 1;
    }
    int64_t start = ready > e->release ? ready : e->release;
    for (size_t k = 0; k < n_res; k++)
        if (*res[k] - lat > start)
            start = *res[k] - lat;
    /* the reserved phase [start + lat, start + hi + dur) must fit under
     * every SHARED link's profile (bottleneck-rate sharing) */
    if (rt && dur > INT64_MAX / 4 - hi)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "the unrolled schedule's times need more than 62 bits of "
                                "ticks; use fewer operations or a shorter period (max_period)");
    int64_t len = hi - lat + dur;
    if (rt)
        start = ssched_i_sched_links_earliest(e, edge, start + lat, len) - lat;
    sched_event_t ev = {0};
    ev.edge = edge;
    ev.type = type;
    ev.op = op;
    ev.start = start;
    ev.lat = hi;
    if (__builtin_add_overflow(start, hi, &ev.end) ||
        __builtin_add_overflow(ev.end, dur, &ev.end) || ev.end > INT64_MAX / 4)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "the unrolled schedule's times need more than 62 bits of "
                                "ticks; use fewer operations or a shorter period (max_period)");
    for (size_t k = 0; k < n_res; k++)
        *res[k] = ev.end;
    if (rt && !ssched_i_sched_links_add(e, edge, start + lat, ev.end))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (ev.end > e->makespan)
        e->makespan = ev.end;
    e->transfers++;
    *out = ev;
    return SSCHED_OK;
}

ssched_status_t ssched_i_sched_emit_transfer(sched_engine_t *e, size_t edge, size_t type,
                                    size_t op, int64_t off, int64_t len, int64_t ready,
                                    int64_t *end, ssched_error_t *err)
{
    sched_event_t ev;
    ssched_status_t st = place_transfer(e, edge, type, op, len * e->sc.unit_ticks[edge], ready,
                                        &ev, err);
    if (st != SSCHED_OK)
        return st;
    ev.off = off;
    ev.len = len;
    ev.bamt = len;
    if (len != e->sc.a)
        e->pieces++;
    *end = ev.end;
    return ssched_i_sched_push_event(e, &ev, err);
}

ssched_status_t ssched_i_sched_emit_piece(sched_engine_t *e, size_t edge, size_t type, size_t op,
                                 int64_t dur, mpq_srcptr off, mpq_srcptr len, const char *json,
                                 int64_t bamt, int64_t ready, int64_t *end, ssched_error_t *err)
{
    sched_event_t ev;
    ssched_status_t st = place_transfer(e, edge, type, op, dur, ready, &ev, err);
    if (st != SSCHED_OK)
        return st;
    ev.bamt = bamt;
    ev.piece_off = off;
    ev.piece_len = len;
    ev.piece_json = json;
    ev.off = 0;
    ev.len = e->sc.a; /* whole when there is no piece text */
    if (json)
        e->pieces++;
    *end = ev.end;
    return ssched_i_sched_push_event(e, &ev, err);
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
    if (e->cpuprof) {
        /* routed, multi-port hosts: the earliest idle gap from ready
         * (flush: the watermark is at most the release time there) */
        ev.start = ssched_i_sched_cpu_earliest(e, x->node, ready, e->sc.task_ticks[x->node]);
        ev.end = ev.start + e->sc.task_ticks[x->node];
        if (!ssched_i_sched_cpu_add(e, x->node, ev.start, ev.end))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        if (ev.end > e->cpu_free[x->node])
            e->cpu_free[x->node] = ev.end;
    } else {
        ev.start = ready > e->cpu_free[x->node] ? ready : e->cpu_free[x->node];
        ev.end = ev.start + e->sc.task_ticks[x->node];
        e->cpu_free[x->node] = ev.end;
    }
    if (ev.end > e->makespan)
        e->makespan = ev.end;
    e->computations++;
    *end = ev.end;
    return ssched_i_sched_push_event(e, &ev, err);
}
