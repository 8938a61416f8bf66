/* Left-shift compaction of an unrolled schedule.
 *
 * The periodic construction starts a message or a merge at fixed points of
 * its period, so during start-up and clean-up resources wait for nothing.
 * Processing events in their original start order, each starts at the latest
 * of: the end of the previous event on the same send port, on the same
 * receive port (or processor, for a merge), and the time its input is
 * available where it runs.  Orders on every port and processor are kept and
 * every input was produced by an event processed earlier (it ended before
 * the consumer started), so by induction every event starts no later than
 * before, one-port holds and data dependencies hold: a semi-active schedule
 * (list scheduling's "left shift").  The steady rate is unchanged; the
 * initialization and clean-up shrink. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"

/* An event: transfer k (is_comp 0) or computation k (is_comp 1). */
typedef struct {
    int is_comp;
    size_t k;
} ev_t;

/* Start order; at equal starts shorter results first (a zero-time merge
 * may feed another starting at the same instant). */
int sched_computation_by_start(const void *a, const void *b)
{
    const ssched_timed_computation_t *x = a, *y = b;
    int c = mpq_cmp(x->start, y->start);
    if (c)
        return c;
    if (x->m - x->k != y->m - y->k)
        return x->m - x->k < y->m - y->k ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

static int ev_before(const ssched_unrolled_t *u, ev_t a, ev_t b)
{
    mpq_srcptr sa = a.is_comp ? u->computations[a.k].start : u->transfers[a.k].start;
    mpq_srcptr sb = b.is_comp ? u->computations[b.k].start : u->transfers[b.k].start;
    int c = mpq_cmp(sa, sb);
    if (c)
        return c < 0;
    /* a zero-length merge may feed an event starting when it does */
    return a.is_comp > b.is_comp;
}

ssched_status_t sched_compact(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, ssched_unrolled_t *u,
                              ssched_error_t *err)
{
    size_t nn = p->n_nodes, K = u->operations;
    int reduce = s->kind == SSCHED_PROBLEM_REDUCE;
    size_t ntypes = reduce ? s->n_intervals : s->n_commodities;
    size_t n = u->n_transfers + u->n_computations;
    ev_t *ev = malloc((n ? n : 1) * sizeof *ev);
    mpq_t *send_free = malloc((nn ? nn : 1) * sizeof *send_free);
    mpq_t *recv_free = malloc((nn ? nn : 1) * sizeof *recv_free);
    mpq_t *cpu_free = malloc((nn ? nn : 1) * sizeof *cpu_free);
    /* avail[type*K + op]: when that message/value is where it currently is */
    mpq_t *avail = malloc((ntypes * K > 0 ? ntypes * K : 1) * sizeof *avail);
    if (!ev || !send_free || !recv_free || !cpu_free || !avail) {
        free(ev); free(send_free); free(recv_free); free(cpu_free); free(avail);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nn; i++)
        mpq_inits(send_free[i], recv_free[i], cpu_free[i], NULL);
    for (size_t x = 0; x < ntypes * K; x++)
        mpq_init(avail[x]);
    /* merge the two lists (each sorted by start) into one event order */
    size_t a = 0, b = 0, m = 0;
    while (a < u->n_transfers || b < u->n_computations) {
        ev_t t = {0, a}, c = {1, b};
        if (b == u->n_computations || (a < u->n_transfers && ev_before(u, t, c)))
            ev[m++] = t, a++;
        else
            ev[m++] = c, b++;
    }
    mpq_t start, dur;
    mpq_inits(start, dur, NULL);
    for (size_t x = 0; x < n; x++) {
        if (ev[x].is_comp) {
            ssched_timed_computation_t *c = &u->computations[ev[x].k];
            size_t left = sched_interval_index(pb->n_participants, c->k, c->l);
            size_t right = sched_interval_index(pb->n_participants, c->l + 1, c->m);
            size_t out = sched_interval_index(pb->n_participants, c->k, c->m);
            mpq_sub(dur, c->end, c->start);
            mpq_set(start, cpu_free[c->node]);
            /* a participant's own value is there from time 0 (avail = 0) */
            if (mpq_cmp(avail[left * K + c->op], start) > 0)
                mpq_set(start, avail[left * K + c->op]);
            if (mpq_cmp(avail[right * K + c->op], start) > 0)
                mpq_set(start, avail[right * K + c->op]);
            mpq_set(c->start, start);
            mpq_add(c->end, start, dur);
            mpq_set(cpu_free[c->node], c->end);
            mpq_set(avail[out * K + c->op], c->end);
        } else {
            ssched_timed_transfer_t *t = &u->transfers[ev[x].k];
            size_t i = p->from[t->edge], j = p->to[t->edge];
            mpq_sub(dur, t->end, t->start);
            mpq_set(start, send_free[i]);
            if (mpq_cmp(recv_free[j], start) > 0)
                mpq_set(start, recv_free[j]);
            int leaf = reduce && s->intervals[t->type].k == s->intervals[t->type].m &&
                       pb->participants[s->intervals[t->type].k] == i;
            if (!leaf && mpq_cmp(avail[t->type * K + t->op], start) > 0)
                mpq_set(start, avail[t->type * K + t->op]);
            mpq_set(t->start, start);
            mpq_add(t->end, start, dur);
            mpq_set(send_free[i], t->end);
            mpq_set(recv_free[j], t->end);
            /* the message (or value) is now at j from the end of the transfer */
            mpq_set(avail[t->type * K + t->op], t->end);
        }
    }
    /* the end of the schedule: the last event */
    mpq_set_ui(u->makespan, 0, 1);
    for (size_t k = 0; k < u->n_transfers; k++)
        if (mpq_cmp(u->transfers[k].end, u->makespan) > 0)
            mpq_set(u->makespan, u->transfers[k].end);
    for (size_t k = 0; k < u->n_computations; k++)
        if (mpq_cmp(u->computations[k].end, u->makespan) > 0)
            mpq_set(u->makespan, u->computations[k].end);
    if (u->n_transfers) /* qsort(NULL, 0) is undefined */
        qsort(u->transfers, u->n_transfers, sizeof *u->transfers, sched_transfer_by_start);
    if (u->n_computations)
        qsort(u->computations, u->n_computations, sizeof *u->computations, sched_computation_by_start);
    mpq_clears(start, dur, NULL);
    for (size_t i = 0; i < nn; i++)
        mpq_clears(send_free[i], recv_free[i], cpu_free[i], NULL);
    for (size_t x = 0; x < ntypes * K; x++)
        mpq_clear(avail[x]);
    free(ev); free(send_free); free(recv_free); free(cpu_free); free(avail);
    return SSCHED_OK;
}
