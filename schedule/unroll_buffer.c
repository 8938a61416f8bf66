/* Buffer needs of an unrolled schedule (schedule.h: ssched_unroll_figures_t),
 * tracked on the events as the engine's sink receives them in start order:
 * what each node holds for forwarding (or merging), with releases applied
 * before acquisitions at equal times.  Split from unroll_engine.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

void ssched_i_sched_buffers_free(sched_buffers_t *b, size_t nn)
{
    if (b->wheld) {
        for (size_t i = 0; i < nn; i++)
            mpz_clears(b->wheld[i], b->wpeak[i], NULL);
    }
    free(b->wheld);
    free(b->wpeak);
    if (b->wide) {
        for (size_t k = 0; k < b->n_wamt; k++)
            mpz_clear(b->wamt[k]);
        mpz_clear(b->wbu);
    }
    free(b->wamt);
    free(b->excl);
    free(b->held);
    free(b->peak);
    free(b->rel);
    free(b->touched);
    memset(b, 0, sizeof *b);
}

/* The per-type exclusions: scatter, gossip: the message's origin and
 * destination; reduce: P_k for [k,k], the target for [0,N-1]. */
int ssched_i_sched_buffers_init(sched_buffers_t *b, const ssched_platform_t *p,
                        const ssched_problem_t *pb, const ssched_schedule_t *s)
{
    size_t nn = p->n_nodes;
    size_t nt = sched_reduce_like(s)                  ? (s->commutative ? s->sets.n : s->n_intervals)
                : s->kind == SSCHED_PROBLEM_BROADCAST ? 0
                                                      : s->n_commodities;
    memset(b, 0, sizeof *b);
    b->excl = ssched_i_alloc(2 * nt, sizeof *b->excl);
    b->held = ssched_i_calloc(nn, sizeof *b->held);
    b->peak = ssched_i_calloc(nn, sizeof *b->peak);
    if (!b->excl || !b->held || !b->peak)
        return 0;
    for (size_t t = 0; t < nt; t++) {
        size_t *x = &b->excl[2 * t];
        x[0] = x[1] = SIZE_MAX;
        if (!sched_reduce_like(s)) {
            x[0] = s->commodities[t].origin;
            x[1] = s->commodities[t].dest;
            continue;
        }
        size_t N = pb->n_participants;
        if (s->commutative) { /* a singleton {j} at P_j, the full set at the target */
            size_t members = 0, j = 0;
            for (size_t i = 0; i < N; i++)
                if (ssched_sets_has(&s->sets, t, i))
                    members++, j = i;
            if (members == 1)
                x[0] = pb->participants[j];
            if (members == N)
                x[1] = pb->target;
            continue;
        }
        size_t k = s->intervals[t].k, m = s->intervals[t].m;
        if (k == m && k < N)
            x[0] = pb->participants[k];
        if (k == 0 && N > 0 && m == N - 1)
            x[1] = pb->target;
    }
    return 1;
}

/* Reduce: is value [k,m] counted at node v? */
static int counted(const sched_engine_t *e, size_t k, size_t m, size_t v)
{
    size_t N = e->pb->n_participants;
    if (k == m && k < N && e->pb->participants[k] == v)
        return 0;
    return !(k == 0 && N > 0 && m == N - 1 && v == e->pb->target);
}

/* From int64 to GMP for every node (an addition would overflow). */
static int buffers_widen(sched_buffers_t *b, size_t nn)
{
    b->wheld = ssched_i_alloc(nn, sizeof *b->wheld);
    b->wpeak = ssched_i_alloc(nn, sizeof *b->wpeak);
    if (!b->wheld || !b->wpeak) {
        free(b->wheld);
        free(b->wpeak);
        b->wheld = b->wpeak = NULL;
        return 0;
    }
    for (size_t i = 0; i < nn; i++) {
        mpz_inits(b->wheld[i], b->wpeak[i], NULL);
        mpz_set_si(b->wheld[i], (long)b->held[i]);
        mpz_set_si(b->wpeak[i], (long)b->peak[i]);
    }
    return 1;
}

/* held(v) += d (d may be negative, |d| < 2^63). */
static int buffers_add(sched_buffers_t *b, size_t nn, size_t v, int64_t d)
{
    if (!b->wheld) {
        int64_t h = b->held[v];
        if (d >= 0 ? h <= INT64_MAX - d : h >= INT64_MIN - d) {
            b->held[v] = h + d;
            return 1;
        }
        if (!buffers_widen(b, nn))
            return 0;
    }
    if (d >= 0)
        mpz_add_ui(b->wheld[v], b->wheld[v], (unsigned long)d);
    else
        mpz_sub_ui(b->wheld[v], b->wheld[v], (unsigned long)(-(d + 1)) + 1UL);
    return 1;
}

/* held(v) += sign * amount of an event (wide: wamt[amount]). */
static int buffers_add_amount(sched_buffers_t *b, size_t nn, size_t v, int64_t amount, int sign)
{
    if (!b->wide)
        return buffers_add(b, nn, v, sign * amount);
    if (sign > 0)
        mpz_add(b->wheld[v], b->wheld[v], b->wamt[amount]);
    else
        mpz_sub(b->wheld[v], b->wheld[v], b->wamt[amount]);
    return 1;
}

int ssched_i_sched_buffers_wide(sched_buffers_t *b, size_t nn, const mpq_t *lens, size_t n)
{
    if (!b->wheld && !buffers_widen(b, nn))
        return 0;
    b->wamt = ssched_i_alloc(n ? n : 1, sizeof *b->wamt);
    if (!b->wamt)
        return 0;
    b->wide = 1;
    b->n_wamt = n;
    mpz_init_set_ui(b->wbu, 1);
    for (size_t k = 0; k < n; k++)
        mpz_lcm(b->wbu, b->wbu, mpq_denref(lens[k]));
    for (size_t k = 0; k < n; k++) {
        mpz_init(b->wamt[k]);
        mpz_divexact(b->wamt[k], b->wbu, mpq_denref(lens[k]));
        mpz_mul(b->wamt[k], b->wamt[k], mpq_numref(lens[k]));
    }
    b->bu = 1; /* unused while wide */
    return 1;
}

static int buffers_touch(sched_buffers_t *b, size_t v)
{
    if (b->n_touched == b->cap_touched) {
        size_t cap = b->cap_touched ? 2 * b->cap_touched : 64;
        size_t *t = realloc(b->touched, cap * sizeof *t);
        if (!t)
            return 0;
        b->touched = t;
        b->cap_touched = cap;
    }
    b->touched[b->n_touched++] = v;
    return 1;
}

static int buffers_push(sched_buffers_t *b, int64_t end, size_t v, int64_t amount)
{
    if (b->n_rel == b->cap_rel) {
        size_t cap = b->cap_rel ? 2 * b->cap_rel : 256;
        sched_release_t *r = realloc(b->rel, cap * sizeof *r);
        if (!r)
            return 0;
        b->rel = r;
        b->cap_rel = cap;
    }
    sched_release_t x = {end, v, amount};
    size_t k = b->n_rel++;
    while (k > 0 && x.end < b->rel[(k - 1) / 2].end) {
        b->rel[k] = b->rel[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    b->rel[k] = x;
    return 1;
}

/* Close time b->now: apply every release up to it, then take the peaks of
 * the nodes that acquired at it (acquisitions were added as they came:
 * sums commute, and releases at equal times come first). */
static int buffers_settle(sched_buffers_t *b, size_t nn)
{
    while (b->n_rel > 0 && b->rel[0].end <= b->now) {
        sched_release_t top = b->rel[0], last = b->rel[--b->n_rel];
        size_t k = 0, n = b->n_rel;
        for (;;) {
            size_t c = 2 * k + 1;
            if (c >= n)
                break;
            if (c + 1 < n && b->rel[c + 1].end < b->rel[c].end)
                c++;
            if (b->rel[c].end >= last.end)
                break;
            b->rel[k] = b->rel[c];
            k = c;
        }
        if (n)
            b->rel[k] = last;
        if (!buffers_add_amount(b, nn, top.node, top.amount, -1))
            return 0;
    }
    for (size_t k = 0; k < b->n_touched; k++) {
        size_t v = b->touched[k];
        if (b->wheld) {
            if (mpz_cmp(b->wheld[v], b->wpeak[v]) > 0)
                mpz_set(b->wpeak[v], b->wheld[v]);
        } else if (b->held[v] > b->peak[v]) {
            b->peak[v] = b->held[v];
        }
    }
    b->n_touched = 0;
    return 1;
}

static int buffers_acquire(sched_buffers_t *b, size_t nn, size_t v, int64_t amount)
{
    return buffers_add(b, nn, v, amount) && buffers_touch(b, v);
}

/* One event, in start order. */
int ssched_i_sched_buffers_event(sched_engine_t *e, const sched_event_t *ev)
{
    sched_buffers_t *b = &e->buf;
    size_t nn = e->p->n_nodes;
    if (b->any && ev->start > b->now && !buffers_settle(b, nn))
        return 0;
    b->any = 1;
    b->now = ev->start;
    if (ev->is_comp && e->s->commutative) {
        /* sets: ev->k, ev->l are the inputs, ev->m the result (types) */
        size_t v = ev->node;
        const size_t *x = b->excl;
        if (v != x[2 * ev->m] && v != x[2 * ev->m + 1] && !buffers_acquire(b, nn, v, b->bu))
            return 0;
        int64_t used = (int64_t)(v != x[2 * ev->k] && v != x[2 * ev->k + 1]) +
                       (v != x[2 * ev->l] && v != x[2 * ev->l + 1]);
        return used == 0 || buffers_push(b, ev->end, v, used * b->bu);
    }
    if (ev->is_comp) {
        size_t v = ev->node;
        if (counted(e, ev->k, ev->m, v) && !buffers_acquire(b, nn, v, b->bu))
            return 0;
        int64_t used = (int64_t)counted(e, ev->k, ev->l, v) + counted(e, ev->l + 1, ev->m, v);
        /* 2 bu < 2^63: bu = A has at most 62 bits */
        return used == 0 || buffers_push(b, ev->end, v, used * b->bu);
    }
    if (e->s->kind == SSCHED_PROBLEM_BROADCAST ||
        (e->s->kind == SSCHED_PROBLEM_ALLREDUCE && ev->type == ssched_schedule_copy_type(e->s))) {
        /* a broadcast's message, or an all-reduce's copy of the result:
         * held from the start of the transfer bringing it (if forwarded)
         * to the end of the last forward */
        int64_t amt = b->bu; /* a batch holds its operations' copies */
        if (ev->batch > 1 && __builtin_mul_overflow(amt, (int64_t)ev->batch, &amt))
            return 0;
        if (ev->bacq && !buffers_acquire(b, nn, e->p->to[ev->edge], amt))
            return 0;
        return !ev->brel || buffers_push(b, ev->end, e->p->from[ev->edge], amt);
    }
    const size_t *x = &b->excl[2 * ev->type];
    size_t u = e->p->from[ev->edge], v = e->p->to[ev->edge];
    /* a batch holds its operations' ranges (the batching sink's tracker,
     * never wide: unroll_batch.c refuses wide buffer units) */
    int64_t amt = ev->bamt;
    if (ev->batch > 1 && (b->wide || __builtin_mul_overflow(amt, (int64_t)ev->batch, &amt)))
        return 0;
    if (v != x[0] && v != x[1] &&
        !(buffers_add_amount(b, nn, v, amt, 1) && buffers_touch(b, v)))
        return 0;
    return u == x[0] || u == x[1] || buffers_push(b, ev->end, u, amt);
}

/* buffer_peak, buffer_node of the figures. */
int ssched_i_sched_buffers_result(sched_buffers_t *b, size_t nn, ssched_unroll_figures_t *fig)
{
    if (b->any && !buffers_settle(b, nn))
        return 0;
    size_t best = 0;
    for (size_t i = 1; i < nn; i++)
        if (b->wheld ? mpz_cmp(b->wpeak[i], b->wpeak[best]) > 0 : b->peak[i] > b->peak[best])
            best = i;
    fig->buffer_node = best;
    if (nn == 0 || b->bu <= 0) {
        mpq_set_ui(fig->buffer_peak, 0, 1);
        return 1;
    }
    if (b->wheld)
        mpz_set(mpq_numref(fig->buffer_peak), b->wpeak[best]);
    else
        mpz_set_si(mpq_numref(fig->buffer_peak), (long)b->peak[best]);
    if (b->wide)
        mpz_set(mpq_denref(fig->buffer_peak), b->wbu);
    else
        mpz_set_si(mpq_denref(fig->buffer_peak), (long)b->bu);
    mpq_canonicalize(fig->buffer_peak);
    return 1;
}
