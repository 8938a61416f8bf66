/* Batches: unrolled transfers that carry several operations (SEMANTICS:
 * ssched_timed_transfer_t.batch), so that one latency serves n messages.
 *
 * A batch of n is the unrolling of ceil(K/n) operations of n times the
 * message size on the platform whose task times are n times w, over the
 * pattern with period nT (every slot lasts n times longer, nothing else
 * changes).  Its events map back exactly:
 *  - a transfer of super-operation b, range [o, o+z) of its message, is
 *    the transfer of the range [o, o+z) of each of operations bn ..
 *    bn+m-1 (m = n, or K - bn for the last), one message of m z: it
 *    starts at the same time, its latency is the same and its bandwidth
 *    phase lasts m z size c, m/n of the super-transfer's (so the last,
 *    shorter batch ends earlier: resources are held no longer than the
 *    super-schedule held them, data arrive no later; the schedule stays
 *    valid and its makespan is the latest real end);
 *  - a computation of b (n w long) is the m computations of bn .. bn+m-1
 *    one after the other, w each, inside the same interval.
 * Times are rescaled by n (ticks of 1/(nQ)) so that m/n of a duration and
 * w are whole ticks.  The expanded events reach the caller's sink in start
 * order (later computations of a batch wait in a small heap), and the
 * buffer needs are tracked on them (a transfer holds batch x its range).
 *
 * The choice (ssched_i_sched_choose_batch): with no latency nothing is
 * tried (a batch only lengthens the pipeline's fill); else n = 2, 4, 8, ...
 * while the exact makespan for K (a replay with no output) keeps improving
 * or until twice in a row no better, and, scatter and gossip, whole
 * messages against pieces at each n; the least exact makespan wins, ties
 * to the smaller batch, so the result is never worse than batch 1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

typedef struct {
    sched_event_t ev;
    unsigned long long seq;
    mpq_t xs, xe;               /* exact times on a rounded scale           */
} pend_t;

typedef struct {
    sched_sink_t base;          /* what the engine sees                     */
    sched_sink_t *inner;        /* the caller's sink                        */
    size_t n, K;
    sched_scale_t sc;           /* the caller's scale: Q n ticks            */
    int ready;
    int64_t maxend;             /* in the caller's ticks                    */
    int rounded;                /* the engine's scale is a rounded grid: the
                                   events carry exact times (xstart, xend)  */
    mpq_t xmax, xs, xe, d;      /* the latest exact end; the event handed on */
    mpq_t nq, mq;               /* n; m / n of the current event            */
    const ssched_platform_t *p; /* the caller's (latencies)                 */
    size_t computations;
    pend_t *heap;               /* min-heap on (start, seq)                 */
    size_t nh, caph;
    unsigned long long seq;
    sched_engine_t be;          /* buffer tracking on the expanded events   */
    int track, buf_ok;
} batch_sink_t;

static int pend_less(const pend_t *a, const pend_t *b)
{
    return a->ev.start != b->ev.start ? a->ev.start < b->ev.start : a->seq < b->seq;
}

static int heap_push(batch_sink_t *w, const sched_event_t *ev, const mpq_t xs, const mpq_t xe)
{
    if (w->nh == w->caph) {
        size_t cap = w->caph ? 2 * w->caph : 64;
        pend_t *h = realloc(w->heap, cap * sizeof *h);
        if (!h)
            return 0;
        w->heap = h;
        w->caph = cap;
    }
    pend_t x;
    x.ev = *ev;
    x.seq = w->seq++;
    if (w->rounded) { /* moved with the entry, cleared when it leaves */
        mpq_init(x.xs);
        mpq_init(x.xe);
        mpq_set(x.xs, xs);
        mpq_set(x.xe, xe);
    }
    size_t k = w->nh++;
    while (k > 0 && pend_less(&x, &w->heap[(k - 1) / 2])) {
        w->heap[k] = w->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    w->heap[k] = x;
    return 1;
}

static sched_event_t heap_pop(batch_sink_t *w)
{
    sched_event_t top = w->heap[0].ev;
    if (w->rounded) {
        mpq_swap(w->xs, w->heap[0].xs);
        mpq_swap(w->xe, w->heap[0].xe);
        mpq_clears(w->heap[0].xs, w->heap[0].xe, NULL);
        top.xstart = w->xs;
        top.xend = w->xe;
        if (mpq_cmp(w->xe, w->xmax) > 0)
            mpq_set(w->xmax, w->xe);
    }
    pend_t x = w->heap[--w->nh];
    size_t k = 0, n = w->nh;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && pend_less(&w->heap[c + 1], &w->heap[c]))
            c++;
        if (!pend_less(&w->heap[c], &x))
            break;
        w->heap[k] = w->heap[c];
        k = c;
    }
    if (n > 0)
        w->heap[k] = x;
    return top;
}

/* Hand the caller every pending event starting no later than `until`. */
static ssched_status_t release(batch_sink_t *w, int64_t until, ssched_error_t *err)
{
    while (w->nh > 0 && w->heap[0].ev.start <= until) {
        sched_event_t ev = heap_pop(w);
        if (ev.end > w->maxend)
            w->maxend = ev.end;
        if (w->track && !ssched_i_sched_buffers_event(&w->be, &ev))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        ssched_status_t st = w->inner->emit(w->inner, &ev, err);
        if (st != SSCHED_OK)
            return st;
    }
    return SSCHED_OK;
}

static ssched_status_t too_long(const batch_sink_t *w, ssched_error_t *err)
{
    if (w->rounded)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "a batch of %zu needs %zu times finer ticks than this "
                                "pattern's rounded time grid has room for; use batch 1",
                                w->n, w->n);
    return ssched_error_set(err, SSCHED_EINPUT,
                            "the batched schedule's times need more than 62 bits of ticks; "
                            "use a smaller batch or fewer operations");
}

static ssched_status_t batch_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    batch_sink_t *w = (batch_sink_t *)sk;
    int64_t n = (int64_t)w->n;
    if (sk->bu <= 0) /* the pattern's pieces need buffer units beyond 62 bits */
        return ssched_error_set(err, SSCHED_EINPUT,
                                "a batch of %zu with pieces this fine (buffer units beyond 62 "
                                "bits) is not supported; use batch 1 or whole messages",
                                w->n);
    if (!w->ready) {
        /* the engine's scale, n times finer */
        w->sc = *sk->sc;
        mpz_inits(w->sc.Q, w->sc.A, NULL);
        mpq_init(w->sc.tick);
        mpz_mul_ui(w->sc.Q, sk->sc->Q, w->n);
        mpz_set(w->sc.A, sk->sc->A);
        mpq_set_ui(w->sc.tick, 1, w->n);
        mpq_mul(w->sc.tick, w->sc.tick, sk->sc->tick);
        w->ready = 1;
        w->rounded = sk->sc->rounded;
        if (!w->rounded && __builtin_mul_overflow(sk->sc->q, n, &w->sc.q))
            return too_long(w, err);
        w->inner->sc = &w->sc;
        w->inner->bu = sk->bu;
        w->be.buf.bu = sk->bu;
    }
    size_t op0 = ev->op * w->n;
    size_t m = w->K - op0 < w->n ? w->K - op0 : w->n;
    sched_event_t x = *ev;
    if (__builtin_mul_overflow(ev->start, n, &x.start) || x.start > INT64_MAX / 4)
        return too_long(w, err);
    x.op = op0;
    if (!ev->is_comp) {
        int64_t bw = ev->end - ev->start - ev->lat; /* n messages' bandwidth phase */
        x.lat = ev->lat * n;                        /* <= x.start's bound */
        x.batch = m;
        x.end = x.start + x.lat + bw * (int64_t)m;
        if (w->rounded) { /* start + l + m/n of the n messages' bandwidth phase */
            mpq_set_ui(w->mq, m, w->n);
            mpq_canonicalize(w->mq);
            mpq_sub(w->d, ev->xend, ev->xstart);
            if (w->p->l)
                mpq_sub(w->d, w->d, w->p->l[ev->edge]);
            mpq_mul(w->d, w->d, w->mq);
            if (w->p->l)
                mpq_add(w->d, w->d, w->p->l[ev->edge]);
            mpq_add(w->d, w->d, ev->xstart);
        }
        if (!heap_push(w, &x, ev->xstart, w->d))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    } else {
        int64_t d = ev->end - ev->start; /* n w in the engine's ticks: w in ours */
        if (w->rounded) { /* w, exact */
            mpq_sub(w->d, ev->xend, ev->xstart);
            mpq_div(w->d, w->d, w->nq);
            mpq_set(w->xs, ev->xstart);
        }
        for (size_t j = 0; j < m; j++) {
            x.op = op0 + j;
            x.start = ev->start * n + (int64_t)j * d;
            x.end = x.start + d;
            w->computations++;
            if (w->rounded) {
                mpq_add(w->xe, w->xs, w->d);
                if (!heap_push(w, &x, w->xs, w->xe))
                    return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                mpq_set(w->xs, w->xe);
                continue;
            }
            if (!heap_push(w, &x, NULL, NULL))
                return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
    }
    /* later events start no earlier than this one */
    return release(w, ev->start * n, err);
}

/* A shallow copy of what the batch multiplies, with its own numbers. */
typedef struct {
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_schedule_t s;
} super_t;

static int super_init(super_t *x, const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_schedule_t *s, size_t n)
{
    x->p = *p;
    x->pb = *pb;
    x->s = *s;
    x->p.w = ssched_i_mpq_vec_new(p->n_nodes);
    if (!x->p.w && p->n_nodes)
        return 0;
    mpq_t nq;
    mpq_init(nq);
    mpq_set_ui(nq, n, 1);
    for (size_t i = 0; i < p->n_nodes; i++)
        mpq_mul(x->p.w[i], p->w[i], nq);
    mpq_init(x->pb.size);
    mpq_init(x->s.size);
    mpq_inits(x->s.period, x->s.throughput, x->s.optimal_throughput, NULL);
    mpq_mul(x->pb.size, pb->size, nq);
    mpq_mul(x->s.size, s->size, nq);
    mpq_mul(x->s.period, s->period, nq);
    mpq_div(x->s.throughput, s->throughput, nq);
    mpq_div(x->s.optimal_throughput, s->optimal_throughput, nq);
    mpq_clear(nq);
    x->s.unroll_batch = 1;
    return 1;
}

static void super_free(super_t *x)
{
    ssched_i_mpq_vec_free(x->p.w, x->p.n_nodes);
    mpq_clear(x->pb.size);
    mpq_clears(x->s.size, x->s.period, x->s.throughput, x->s.optimal_throughput, NULL);
}

ssched_status_t ssched_i_sched_unroll_batched(const ssched_platform_t *p,
                                              const ssched_problem_t *pb,
                                              const ssched_schedule_t *s, size_t K,
                                              const ssched_unroll_limits_t *limits,
                                              sched_sink_t *sink, ssched_unroll_figures_t *fig,
                                              ssched_error_t *err)
{
    size_t n = s->unroll_batch;
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "K (operations) must be at least 1");
    super_t x;
    if (!super_init(&x, p, pb, s, n))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* an all-reduce's reduce part goes to the schedule's root, as in
     * ssched_i_sched_unroll_run: buffers and LB1 name it as the target */
    ssched_problem_t to_root = *pb;
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE)
        to_root.target = s->root;
    batch_sink_t w;
    memset(&w, 0, sizeof w);
    w.base.emit = batch_emit;
    w.base.no_buffers = 1; /* tracked here, on the expanded events */
    w.inner = sink;
    w.p = p;
    mpq_inits(w.xmax, w.xs, w.xe, w.d, w.nq, w.mq, NULL);
    mpq_set_ui(w.nq, n, 1);
    w.n = n;
    w.K = K;
    w.track = !sink->no_buffers;
    w.be.p = p;
    w.be.pb = &to_root;
    w.be.s = s;
    ssched_status_t st = SSCHED_OK;
    if (w.track && !ssched_i_sched_buffers_init(&w.be.buf, p, &to_root, s))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_unroll_figures_t sf;
    ssched_unroll_figures_init(&sf);
    if (st == SSCHED_OK)
        st = ssched_i_sched_unroll_run(&x.p, &x.pb, &x.s, (K + n - 1) / n, limits, &w.base, &sf,
                                       err);
    if (st == SSCHED_OK)
        st = release(&w, INT64_MAX, err);
    if (st == SSCHED_OK) {
        fig->operations = K;
        if (w.rounded)
            mpq_set(fig->makespan, w.xmax);
        else
            ssched_i_sched_ticks_to_q(&w.sc, w.maxend, fig->makespan);
        mpq_set(fig->throughput, s->optimal_throughput);
        if (mpq_sgn(fig->throughput) == 0)
            mpq_set(fig->throughput, s->throughput);
        mpq_set_ui(fig->steady_time, K, 1);
        mpq_div(fig->steady_time, fig->steady_time, fig->throughput);
        mpq_sub(fig->overhead, fig->makespan, fig->steady_time);
        st = ssched_unroll_lb1(p, &to_root, fig->lb1, err);
        mpq_set(fig->lower_bound, fig->steady_time);
        if (mpq_cmp(fig->lb1, fig->lower_bound) > 0)
            mpq_set(fig->lower_bound, fig->lb1);
        if (mpq_sgn(fig->lower_bound) > 0)
            mpq_div(fig->ratio, fig->makespan, fig->lower_bound);
        /* the pattern in operations: n times the super-operations per
         * period nT, the same rate */
        mpq_set(fig->period, x.s.period);
        mpz_mul_ui(fig->ops_per_period, s->ops_per_period, n);
        mpq_set_z(fig->pattern_throughput, fig->ops_per_period);
        mpq_div(fig->pattern_throughput, fig->pattern_throughput, fig->period);
        fig->periods = sf.periods;
        fig->transfers = sf.transfers;
        fig->computations = w.computations;
        fig->pieces = sf.pieces;
        mpq_set_ui(fig->buffer_peak, 0, 1);
        fig->buffer_node = 0;
        if (st == SSCHED_OK && w.track &&
            !ssched_i_sched_buffers_result(&w.be.buf, p->n_nodes, fig))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    ssched_unroll_figures_free(&sf);
    if (w.track)
        ssched_i_sched_buffers_free(&w.be.buf, p->n_nodes);
    if (w.ready) {
        mpz_clears(w.sc.Q, w.sc.A, NULL);
        mpq_clear(w.sc.tick);
    }
    while (w.rounded && w.nh > 0) /* left by an error */
        (void)heap_pop(&w);
    mpq_clears(w.xmax, w.xs, w.xe, w.d, w.nq, w.mq, NULL);
    free(w.heap);
    super_free(&x);
    return st;
}

static ssched_status_t null_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    (void)sk;
    (void)ev;
    (void)err;
    return SSCHED_OK;
}

/* The exact makespan for K of s as it is set (a replay with no output);
 * 0 if it cannot be replayed within the planning budget. */
int ssched_i_sched_exact_makespan(const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_schedule_t *s, size_t K, mpq_t out)
{
    ssched_unroll_limits_t lim = {0, 2000000ULL, 0, NULL, NULL};
    sched_sink_t sink = {NULL, null_emit, 1, 0};
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    int ok = ssched_i_sched_unroll_run(p, pb, s, K, &lim, &sink, &fig, NULL) == SSCHED_OK;
    if (ok)
        mpq_set(out, fig.makespan);
    ssched_unroll_figures_free(&fig);
    return ok;
}

ssched_status_t ssched_i_sched_choose_batch(const ssched_platform_t *p,
                                            const ssched_problem_t *pb, ssched_schedule_t *s,
                                            size_t K, int no_split, ssched_error_t *err)
{
    (void)err;
    if (!ssched_platform_has_latency(p) || K < 2)
        return SSCHED_OK;
    /* whole messages or pieces: scatter, gossip and reduce may use either
     * (a broadcast moves whole messages, an all-reduce follows no_split) */
    int toggle = !no_split && (s->kind == SSCHED_PROBLEM_SCATTER ||
                               s->kind == SSCHED_PROBLEM_GOSSIP ||
                               s->kind == SSCHED_PROBLEM_REDUCE);
    int whole0 = s->unroll_whole, best_whole = whole0;
    size_t best_n = s->unroll_batch > 1 ? s->unroll_batch : 1;
    mpq_t best, t;
    mpq_inits(best, t, NULL);
    s->unroll_batch = best_n;
    int have = ssched_i_sched_exact_makespan(p, pb, s, K, best);
    for (int pass = 0; pass < 1 + toggle; pass++) {
        s->unroll_whole = pass ? !whole0 : whole0;
        int misses = 0;
        for (size_t n = pass ? 1 : 2; n <= K && misses < 2; n *= 2) {
            s->unroll_batch = n;
            if (!ssched_i_sched_exact_makespan(p, pb, s, K, t))
                break; /* finer batches only cost more events */
            if (!have || mpq_cmp(t, best) < 0) {
                mpq_set(best, t);
                best_n = n;
                best_whole = s->unroll_whole;
                have = 1;
                misses = 0;
            } else {
                misses++;
            }
        }
    }
    s->unroll_batch = best_n;
    s->unroll_whole = best_whole;
    mpq_clears(best, t, NULL);
    return SSCHED_OK;
}
