/* The unrolling driver shared by the in-memory and streamed forms
 * (schedule.h: ssched_unroll*): limits, the replay of the periods, the
 * final flush. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

int ssched_i_sched_route_shared(const ssched_platform_t *p, size_t e)
{
    const ssched_routes_t *rt = p->routes;
    for (size_t r = rt->route_start[e]; r < rt->route_start[e + 1]; r++)
        if (rt->sharing[rt->route_links[r]] == SSCHED_LINK_SHARED)
            return 1;
    return 0;
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
unsigned long long ssched_i_sched_estimate_events(const ssched_schedule_t *s, size_t K)
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

/* The driver's sink in front of the caller's: on a rounded scale it gives
 * each event its exact times (start on the grid, end = start + the exact
 * duration) and keeps the exact makespan, the latest exact end.  A member
 * of a shared-rate group (unroll_shared.c) starts l(e) before its phase,
 * t = (start + lat) ticks (lat = ceil(l / tick)), and ends at t + g z
 * link_c(L): its exact start lies in [start, start + 1) ticks, so the
 * members of one start tick are held until an event of a later tick
 * comes and passed on in exact start order (the other events of their
 * tick start no later, those of a later tick no earlier).  Only members
 * are held: they move whole values (no piece text, which the engine
 * reuses). */
typedef struct {
    sched_sink_t base;
    sched_sink_t *inner;
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    mpq_t xs, xe, d, makespan;
    int64_t tmax;               /* exact scale: the latest end in ticks of
                                   the events without gdur                 */
    int weighted;               /* exact scale: some event had gdur (its
                                   exact end in makespan)                  */
    sched_event_t *held;        /* events of one start tick, exact times in */
    mpq_t *hx;                  /* hx[2k], hx[2k + 1]                       */
    size_t n_held, cap_held;
} exact_sink_t;

static ssched_status_t exact_flush(exact_sink_t *w, ssched_error_t *err)
{
    size_t n = w->n_held;
    /* stable insertion sort on the exact start (a tick's events are few) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && mpq_cmp(w->hx[2 * j - 2], w->hx[2 * j]) > 0; j--) {
            sched_event_t t = w->held[j];
            w->held[j] = w->held[j - 1];
            w->held[j - 1] = t;
            mpq_swap(w->hx[2 * j], w->hx[2 * j - 2]);
            mpq_swap(w->hx[2 * j + 1], w->hx[2 * j - 1]);
        }
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
        w->held[k].xstart = w->hx[2 * k];
        w->held[k].xend = w->hx[2 * k + 1];
        st = w->inner->emit(w->inner, &w->held[k], err);
    }
    w->n_held = 0;
    return st;
}

static ssched_status_t exact_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    exact_sink_t *w = (exact_sink_t *)sk;
    w->inner->bu = sk->bu; /* the engine's buffer units (the batching sink) */
    if (!sk->sc->rounded && !ev->gdur) {
        if (ev->end > w->tmax)
            w->tmax = ev->end;
        return w->inner->emit(w->inner, ev, err);
    }
    if (!sk->sc->rounded) { /* a weighted member, exact ticks: end exact */
        sched_event_t x = *ev;
        ssched_i_sched_ticks_to_q(sk->sc, ev->start, w->xs);
        ssched_i_sched_ticks_to_q(sk->sc, ev->start + ev->lat, w->xe);
        mpq_add(w->xe, w->xe, ev->gdur);
        if (!w->weighted || mpq_cmp(w->xe, w->makespan) > 0)
            mpq_set(w->makespan, w->xe);
        w->weighted = 1;
        x.xstart = w->xs;
        x.xend = w->xe;
        return w->inner->emit(w->inner, &x, err);
    }
    if (ev->gdur) { /* a weighted member (unroll_shared_w.c) */
        ssched_i_sched_ticks_to_q(sk->sc, ev->start + ev->lat, w->xe);
        mpq_sub(w->xs, w->xe, w->p->l[ev->edge]);
        mpq_add(w->xe, w->xe, ev->gdur);
    } else if (ev->group) {
        ssched_i_sched_ticks_to_q(sk->sc, ev->start + ev->lat, w->xe); /* the phase */
        mpq_set_si(w->d, (long)ev->len, (unsigned long)sk->sc->a);
        mpq_canonicalize(w->d);
        mpq_mul(w->d, w->d, w->pb->size);
        mpq_mul(w->d, w->d, w->p->routes->link_c[ev->group_link]);
        mpz_mul_ui(mpq_numref(w->d), mpq_numref(w->d), ev->group);
        mpq_canonicalize(w->d);
        mpq_sub(w->xs, w->xe, w->p->l[ev->edge]);
        mpq_add(w->xe, w->xe, w->d);
    } else {
        ssched_i_sched_ticks_to_q(sk->sc, ev->start, w->xs);
        ssched_i_sched_exact_dur(w->p, w->pb, sk->sc, ev, w->d);
        mpq_add(w->xe, w->xs, w->d);
    }
    if (mpq_cmp(w->xe, w->makespan) > 0)
        mpq_set(w->makespan, w->xe);
    ssched_status_t st = SSCHED_OK;
    if (w->n_held && w->held[0].start != ev->start)
        st = exact_flush(w, err);
    if (st == SSCHED_OK && !ev->group) {
        sched_event_t x = *ev;
        x.xstart = w->xs;
        x.xend = w->xe;
        return w->inner->emit(w->inner, &x, err);
    }
    if (st == SSCHED_OK && w->n_held == w->cap_held) {
        size_t cap = w->cap_held ? 2 * w->cap_held : 16;
        sched_event_t *h = realloc(w->held, cap * sizeof *h);
        if (h)
            w->held = h;
        mpq_t *x = realloc(w->hx, 2 * cap * sizeof *x);
        if (x)
            w->hx = x;
        if (!h || !x)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 2 * w->cap_held; k < 2 * cap; k++)
            mpq_init(w->hx[k]);
        w->cap_held = cap;
    }
    if (st == SSCHED_OK) {
        w->held[w->n_held] = *ev;
        mpq_set(w->hx[2 * w->n_held], w->xs);
        mpq_set(w->hx[2 * w->n_held + 1], w->xe);
        w->n_held++;
    }
    return st;
}

ssched_status_t ssched_i_sched_unroll_run(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_schedule_t *s, size_t K,
                                 const ssched_unroll_limits_t *limits, sched_sink_t *sink,
                                 ssched_unroll_figures_t *fig, ssched_error_t *err)
{
    if (s->unroll_batch > 1) /* operations in batches (unroll_batch.c) */
        return ssched_i_sched_unroll_batched(p, pb, s, K, limits, sink, fig, err);
    size_t max_ops = limits && limits->max_operations ? limits->max_operations : 10000000UL;
    unsigned long long max_events =
        limits && limits->max_events ? limits->max_events : 500000000ULL;
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "K (operations) must be at least 1");
    if (K > max_ops)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "K (operations) %zu is above the limit %zu (raise it "
                                "with limits.max_operations)", K, max_ops);
    if (mpq_sgn(s->throughput) == 0 || mpz_sgn(s->ops_per_period) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "throughput is 0: no operation can complete");
    /* the pattern itself is walked every period: it must be short */
    unsigned long long per_period = ssched_i_sched_estimate_events(s, mpz_fits_ulong_p(s->ops_per_period)
                                                          ? mpz_get_ui(s->ops_per_period) : ~0UL);
    if (per_period > 10000000ULL)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "the periodic pattern has about %llu events per period; unroll "
                                "a shorter one (ssched_unroll_plan, max_period)", per_period);
    unsigned long long events = ssched_i_sched_estimate_events(s, K);
    if (events > max_events)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "about %llu events for %zu operations, above the limit %llu "
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
    exact_sink_t xs;
    memset(&xs, 0, sizeof xs);
    xs.base.emit = exact_emit;
    xs.base.no_buffers = sink->no_buffers;
    xs.inner = sink;
    xs.p = p;
    xs.pb = pb;
    mpq_inits(xs.xs, xs.xe, xs.d, xs.makespan, NULL);
    e.sink = &xs.base;
    size_t nn = p->n_nodes;
    ssched_status_t st =
        ssched_i_sched_scale_init(&e.sc, p, pb, s, ssched_i_sched_replay_periods(p, s, K), err);
    e.send_free = ssched_i_calloc(nn, sizeof *e.send_free);
    e.recv_free = ssched_i_calloc(nn, sizeof *e.recv_free);
    e.cpu_free = ssched_i_calloc(nn, sizeof *e.cpu_free);
    e.sends = ssched_i_calloc(nn, 1);
    e.link_free = ssched_i_calloc(p->n_edges, sizeof *e.link_free);
    e.link_sends = ssched_i_calloc(p->n_edges, 1);
    size_t nl = p->routes ? p->routes->n_links : 0;
    int links_ok = ssched_i_sched_links_init(&e);
    e.rlink_used = ssched_i_calloc(nl + 1, 1);
    e.computes = ssched_i_calloc(nn, 1);
    int buffers_ok = ssched_i_sched_buffers_init(&e.buf, p, pb, s);
    /* reduce: whole numbers of 1/A; scatter, gossip: set by the replay */
    e.buf.bu = sched_reduce_like(s) ? e.sc.a : 1;
    if (st == SSCHED_OK && (!e.send_free || !e.recv_free || !e.cpu_free || !e.sends ||
                            !e.computes || !e.link_free || !e.link_sends || !buffers_ok ||
                            !links_ok || !e.rlink_used))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < s->n_slots && e.sends && e.link_sends && e.rlink_used; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            size_t x = s->slots[k].transfers[t].edge;
            if (p->routes) { /* the resources place_transfer holds */
                const ssched_routes_t *rt = p->routes;
                for (size_t r = rt->route_start[x]; r < rt->route_start[x + 1]; r++)
                    if (rt->sharing[rt->route_links[r]] == SSCHED_LINK_SHARED)
                        e.rlink_used[rt->route_links[r]] = 1;
                if (rt->hosts_one_port)
                    e.sends[p->from[x]] = 1;
                else if (!ssched_i_sched_route_shared(p, x))
                    e.link_sends[x] = 1;
            } else if (p->multiport && p->multiport[p->from[x]])
                e.link_sends[x] = 1;
            else
                e.sends[p->from[x]] = 1;
        }
    for (size_t k = 0; k < s->n_computations && e.computes; k++)
        e.computes[s->computations[k].node] = 1;
    size_t periods = 0;
    mpq_init(e.period_ticks);
    sink->sc = xs.base.sc = &e.sc;
    e.limits = limits;
    e.started = e.reported = ssched_i_wall_now();
    e.periods_total = (size_t)ssched_i_sched_replay_periods(p, s, K) - 2 * p->n_nodes - 4;
    if (st == SSCHED_OK)
        st = s->kind == SSCHED_PROBLEM_REDUCE      ? ssched_i_sched_replay_reduce(&e, pb, K, &periods, err)
             : s->kind == SSCHED_PROBLEM_BROADCAST ? ssched_i_sched_replay_broadcast(&e, pb, K, &periods, err)
             : s->kind == SSCHED_PROBLEM_ALLREDUCE ? ssched_i_sched_replay_allreduce(&e, pb, K, &periods, err)
                                                   : ssched_i_sched_replay_flow(&e, pb, K, &periods, err);
    if (st == SSCHED_OK && xs.n_held)
        st = exact_flush(&xs, err);
    if (st == SSCHED_OK) {
        fig->operations = K;
        if (e.sc.rounded) {
            mpq_set(fig->makespan, xs.makespan);
        } else if (xs.weighted) { /* members' exact ends, others' ticks */
            ssched_i_sched_ticks_to_q(&e.sc, xs.tmax, fig->makespan);
            if (mpq_cmp(xs.makespan, fig->makespan) > 0)
                mpq_set(fig->makespan, xs.makespan);
        } else {
            ssched_i_sched_ticks_to_q(&e.sc, e.makespan, fig->makespan);
        }
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
    ssched_i_sched_engine_free_runs(&e);
    ssched_i_sched_scale_free(&e.sc);
    mpq_clear(e.period_ticks);
    mpq_clears(xs.xs, xs.xe, xs.d, xs.makespan, NULL);
    for (size_t k = 0; k < 2 * xs.cap_held; k++)
        mpq_clear(xs.hx[k]);
    free(xs.hx);
    free(xs.held);
    free(e.sends);
    free(e.computes);
    free(e.link_free);
    free(e.link_sends);
    ssched_i_sched_links_free(&e);
    free(e.rlink_used);
    free(e.send_free);
    free(e.recv_free);
    free(e.cpu_free);
    return st;
}
