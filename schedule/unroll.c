/* The in-memory form of an unrolled schedule (schedule.h: ssched_unroll):
 * a sink that keeps every event as exact fractions. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"

void ssched_unrolled_init(ssched_unrolled_t *u)
{
    memset(u, 0, sizeof *u);
    ssched_unroll_figures_init(&u->fig);
    mpq_inits(u->makespan, u->steady_time, u->overhead, NULL);
}

void ssched_unrolled_free(ssched_unrolled_t *u)
{
    for (size_t k = 0; k < u->n_transfers; k++)
        mpq_clears(u->transfers[k].start, u->transfers[k].end, u->transfers[k].piece_offset,
                   u->transfers[k].piece_length, NULL);
    for (size_t k = 0; k < u->n_computations; k++)
        mpq_clears(u->computations[k].start, u->computations[k].end, NULL);
    free(u->transfers);
    free(u->computations);
    ssched_sets_free(&u->sets);
    ssched_unroll_figures_free(&u->fig);
    mpq_clears(u->makespan, u->steady_time, u->overhead, NULL);
    memset(u, 0, sizeof *u);
}

/* ---------------------------------------------------------------------- */
/* The in-memory sink. */

typedef struct {
    sched_sink_t base;
    ssched_unrolled_t *u;
} memory_sink_t;

/* An event's times: exact ones when the scale is rounded, else ticks. */
static void times(const sched_scale_t *sc, const sched_event_t *ev, mpq_t start, mpq_t end)
{
    if (ev->xstart) {
        mpq_set(start, ev->xstart);
        mpq_set(end, ev->xend);
        return;
    }
    ssched_i_sched_ticks_to_q(sc, ev->start, start);
    ssched_i_sched_ticks_to_q(sc, ev->end, end);
}

static ssched_status_t memory_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    memory_sink_t *m = (memory_sink_t *)sk;
    ssched_unrolled_t *u = m->u;
    if (ev->is_comp) {
        if (u->n_computations == u->comp_cap) {
            size_t cap = u->comp_cap ? 2 * u->comp_cap : 256;
            ssched_timed_computation_t *c = realloc(u->computations, cap * sizeof *c);
            if (!c)
                return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            u->computations = c;
            u->comp_cap = cap;
        }
        ssched_timed_computation_t *c = &u->computations[u->n_computations++];
        mpq_inits(c->start, c->end, NULL);
        times(sk->sc, ev, c->start, c->end);
        c->node = ev->node;
        c->k = ev->k;
        c->l = ev->l;
        c->m = ev->m;
        c->op = ev->op;
        return SSCHED_OK;
    }
    if (u->n_transfers == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 256;
        ssched_timed_transfer_t *t = realloc(u->transfers, cap * sizeof *t);
        if (!t)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        u->transfers = t;
        u->cap = cap;
    }
    ssched_timed_transfer_t *t = &u->transfers[u->n_transfers++];
    mpq_inits(t->start, t->end, t->piece_offset, t->piece_length, NULL);
    times(sk->sc, ev, t->start, t->end);
    if (ev->piece_json) {
        mpq_set(t->piece_offset, ev->piece_off);
        mpq_set(t->piece_length, ev->piece_len);
    } else if (!ev->piece_off) {
        mpq_set_si(t->piece_offset, (long)ev->off, (unsigned long)sk->sc->a);
        mpq_set_si(t->piece_length, (long)ev->len, (unsigned long)sk->sc->a);
        mpq_canonicalize(t->piece_offset);
        mpq_canonicalize(t->piece_length);
    } else {
        mpq_set_ui(t->piece_length, 1, 1);
    }
    t->edge = ev->edge;
    t->type = ev->type;
    t->op = ev->op;
    t->batch = ev->batch > 1 ? ev->batch : 1;
    return SSCHED_OK;
}

static int by_start(const void *a, const void *b)
{
    const ssched_timed_transfer_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    if (c)
        return c;
    return x->edge < y->edge ? -1 : x->edge > y->edge;
}

static int comp_by_start(const void *a, const void *b)
{
    const ssched_timed_computation_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    if (c)
        return c;
    return x->node < y->node ? -1 : x->node > y->node;
}

ssched_status_t ssched_unroll_limited(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_schedule_t *s, size_t K,
                                      const ssched_unroll_limits_t *limits,
                                      ssched_unrolled_t *u, ssched_error_t *err)
{
    ssched_unrolled_free(u);
    ssched_unrolled_init(u);
    if ((pb->kind == SSCHED_PROBLEM_BROADCAST) != (s->kind == SSCHED_PROBLEM_BROADCAST) ||
        (pb->kind == SSCHED_PROBLEM_ALLREDUCE) != (s->kind == SSCHED_PROBLEM_ALLREDUCE))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "unroll: the schedule is not of the problem's kind");
    memory_sink_t m;
    memset(&m, 0, sizeof m);
    m.base.emit = memory_emit;
    m.u = u;
    ssched_status_t st = ssched_i_sched_unroll_run(p, pb, s, K, limits, &m.base, &u->fig, err);
    if (st != SSCHED_OK)
        return st;
    if (s->commutative && !ssched_sets_copy(&u->sets, &s->sets)) /* the types' meaning */
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (u->n_transfers) /* qsort(NULL, 0) is undefined */
        qsort(u->transfers, u->n_transfers, sizeof *u->transfers, by_start);
    if (u->n_computations)
        qsort(u->computations, u->n_computations, sizeof *u->computations, comp_by_start);
    u->operations = K;
    mpq_set(u->makespan, u->fig.makespan);
    mpq_set(u->steady_time, u->fig.steady_time);
    mpq_set(u->overhead, u->fig.overhead);
    u->periods = u->fig.periods;
    return st;
}

ssched_status_t ssched_unroll(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, size_t K,
                              ssched_unrolled_t *u, ssched_error_t *err)
{
    return ssched_unroll_limited(p, pb, s, K, NULL, u, err);
}
