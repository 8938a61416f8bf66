/* Unrolled finite schedules for K operations (RR-4872 §3.4).
 *
 * The periodic pattern is replayed period after period.  A node forwards a
 * message only if it reached the node in an earlier period: every buffer
 * then holds at least what one period sends once the pipeline is full
 * (initialization), and messages never leave before they arrive.  The
 * origin emits operations 0..K-1 of each type in order and then stops; the
 * buffers drain (clean-up).  With cycle-free flows every message keeps
 * moving toward its destination, so the clean-up ends within a number of
 * periods bounded by the longest route: the overhead over K/TP does not grow
 * with K. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"

void ssched_unrolled_init(ssched_unrolled_t *u)
{
    memset(u, 0, sizeof *u);
    mpq_inits(u->makespan, u->steady_time, u->overhead, NULL);
}

void ssched_unrolled_free(ssched_unrolled_t *u)
{
    for (size_t k = 0; k < u->n_transfers; k++)
        mpq_clears(u->transfers[k].start, u->transfers[k].end, NULL);
    for (size_t k = 0; k < u->n_computations; k++)
        mpq_clears(u->computations[k].start, u->computations[k].end, NULL);
    free(u->transfers);
    free(u->computations);
    mpq_clears(u->makespan, u->steady_time, u->overhead, NULL);
    memset(u, 0, sizeof *u);
}

/* FIFO of (operation, period of arrival) for one type at one node. */
typedef struct {
    size_t head, tail, cap;
    unsigned long *op;
    size_t *period;
} fifo_t;

static int fifo_push(fifo_t *f, unsigned long op, size_t period)
{
    if (f->tail == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        unsigned long *o = realloc(f->op, cap * sizeof *o);
        if (o)
            f->op = o;
        size_t *p = o ? realloc(f->period, cap * sizeof *p) : NULL;
        if (!p)
            return 0;
        f->period = p;
        f->cap = cap;
    }
    f->op[f->tail] = op;
    f->period[f->tail++] = period;
    return 1;
}

int sched_record_transfer(ssched_unrolled_t *u, const mpq_t start, const mpq_t end, size_t edge,
                          size_t type, unsigned long op);

int sched_record_transfer(ssched_unrolled_t *u, const mpq_t start, const mpq_t end, size_t edge,
                  size_t type, unsigned long op)
{
    if (u->n_transfers == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 256;
        ssched_timed_transfer_t *t = realloc(u->transfers, cap * sizeof *t);
        if (!t)
            return 0;
        u->transfers = t;
        u->cap = cap;
    }
    ssched_timed_transfer_t *t = &u->transfers[u->n_transfers++];
    mpq_inits(t->start, t->end, NULL);
    mpq_set(t->start, start);
    mpq_set(t->end, end);
    t->edge = edge;
    t->type = type;
    t->op = op;
    return 1;
}

int sched_transfer_by_start(const void *a, const void *b);

int sched_transfer_by_start(const void *a, const void *b)
{
    const ssched_timed_transfer_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    if (c)
        return c;
    return x->edge < y->edge ? -1 : x->edge > y->edge;
}

ssched_status_t ssched_unroll(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, unsigned long K,
                              ssched_unrolled_t *u, ssched_error_t *err)
{
    ssched_unrolled_free(u);
    ssched_unrolled_init(u);
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "--operations must be at least 1");
    if (s->split)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "unrolling needs whole messages: build the schedule with no_split");
    if (mpq_sgn(s->throughput) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "throughput is 0: no operation can complete");
    if (s->kind == SSCHED_PROBLEM_REDUCE)
        return sched_unroll_reduce(p, pb, s, K, u, err);
    size_t nt = s->n_commodities, nn = p->n_nodes;
    fifo_t *q = calloc(nt * nn > 0 ? nt * nn : 1, sizeof *q);
    unsigned long *emitted = calloc(nt ? nt : 1, sizeof *emitted);
    unsigned long *delivered = calloc(nt ? nt : 1, sizeof *delivered);
    mpq_t *cursor = malloc((p->n_edges ? p->n_edges : 1) * sizeof *cursor);
    if (!q || !emitted || !delivered || !cursor) {
        free(q); free(emitted); free(delivered); free(cursor);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_init(cursor[e]);
    mpq_t base, per, msg, start, end;
    mpq_inits(base, per, msg, start, end, NULL);
    mpq_set(per, s->period);
    ssched_status_t st = SSCHED_OK;
    size_t done_types = 0, period = 0, idle = 0;
    int seen_full = 0;
    u->operations = K;
    /* The route of a message has at most nn - 1 hops, each taking one
     * period at most to be forwarded; anything beyond is a bug. */
    size_t ops = mpz_fits_ulong_p(s->ops_per_period) ? mpz_get_ui(s->ops_per_period) : K;
    size_t max_periods = K / (ops ? ops : 1) + 2 * nn + 4;
    while (done_types < nt && st == SSCHED_OK) {
        if (period > max_periods) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "unrolled schedule does not terminate");
            break;
        }
        mpq_set_ui(base, period, 1);
        mpq_mul(base, base, per);
        int full = 1;
        size_t moved = 0;
        for (size_t k = 0; k < s->n_slots && st == SSCHED_OK; k++) {
            const ssched_slot_t *sl = &s->slots[k];
            for (size_t t = 0; t < sl->n_transfers; t++)
                mpq_set(cursor[sl->transfers[t].edge], sl->start);
            for (size_t t = 0; t < sl->n_transfers && st == SSCHED_OK; t++) {
                const ssched_transfer_t *tr = &sl->transfers[t];
                size_t e = tr->edge, ty = tr->type, i = p->from[e], j = p->to[e];
                unsigned long want = mpz_get_ui(mpq_numref(tr->amount)), sent = 0;
                mpq_mul(msg, p->c[e], pb->size);
                while (sent < want) {
                    unsigned long op;
                    if (i == s->commodities[ty].origin) {
                        if (emitted[ty] == K)
                            break;
                        op = emitted[ty]++;
                    } else {
                        fifo_t *f = &q[ty * nn + i];
                        if (f->head == f->tail || f->period[f->head] >= period)
                            break; /* only messages of earlier periods leave */
                        op = f->op[f->head++];
                    }
                    mpq_add(start, base, cursor[e]);
                    mpq_add(end, start, msg);
                    mpq_add(cursor[e], cursor[e], msg);
                    if (!sched_record_transfer(u, start, end, e, ty, op)) {
                        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                        break;
                    }
                    if (j == s->commodities[ty].dest) {
                        if (++delivered[ty] == K)
                            done_types++;
                        if (mpq_cmp(end, u->makespan) > 0)
                            mpq_set(u->makespan, end);
                    } else if (!fifo_push(&q[ty * nn + j], op, period)) {
                        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                        break;
                    }
                    sent++;
                    moved++;
                }
                if (sent < want)
                    full = 0;
            }
        }
        if (full && !seen_full) {
            seen_full = 1;
            u->init_periods = period;
        }
        idle = moved ? 0 : idle + 1;
        if (idle > 1 && done_types < nt && st == SSCHED_OK)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "unrolled schedule stalls");
        period++;
    }
    u->periods = period;
    if (u->n_transfers) /* qsort(NULL, 0) is undefined */
        qsort(u->transfers, u->n_transfers, sizeof *u->transfers, sched_transfer_by_start);
    if (st == SSCHED_OK)
        st = sched_compact(p, pb, s, u, err);
    mpq_set_ui(u->steady_time, K, 1);
    mpq_div(u->steady_time, u->steady_time, s->throughput);
    mpq_sub(u->overhead, u->makespan, u->steady_time);
    for (size_t k = 0; k < nt * nn; k++) {
        free(q[k].op);
        free(q[k].period);
    }
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_clear(cursor[e]);
    free(q); free(emitted); free(delivered); free(cursor);
    mpq_clears(base, per, msg, start, end, NULL);
    return st;
}
