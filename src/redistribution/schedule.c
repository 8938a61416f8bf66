/* Schedule records: storage, per-processor ordering, the "as soon as possible
 * in step order" placement shared by the step-based algorithms, and the
 * dispatcher that runs an algorithm and the checker. */
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "src/util/internal.h"

void ssched_redist_schedule_init(ssched_redist_schedule_t *s)
{
    memset(s, 0, sizeof *s);
    mpq_init(s->completion);
}

static void schedule_reset(ssched_redist_schedule_t *s)
{
    for (size_t i = 0; i < s->n_transfers; i++) {
        mpq_clear(s->transfers[i].start);
        mpq_clear(s->transfers[i].end);
        mpq_clear(s->transfers[i].amount);
    }
    free(s->transfers);
    free(s->send_start);
    free(s->send_list);
    free(s->recv_start);
    free(s->recv_list);
    s->transfers = NULL;
    s->send_start = s->send_list = s->recv_start = s->recv_list = NULL;
    s->n_transfers = s->n_steps = s->n_split = s->P = 0;
    mpq_set_ui(s->completion, 0, 1);
}

void ssched_redist_schedule_free(ssched_redist_schedule_t *s)
{
    schedule_reset(s);
    mpq_clear(s->completion);
}

int ssched_i_rd_add_transfer(ssched_redist_schedule_t *s, size_t message, const mpq_t start, const mpq_t end,
                    const mpq_t amount)
{
    /* capacity = the next power of two >= n_transfers (none stored) */
    size_t n = s->n_transfers;
    if ((n & (n - 1)) == 0) {
        size_t cap = n ? 2 * n : 1;
        ssched_redist_transfer_t *t = realloc(s->transfers, cap * sizeof *t);
        if (!t)
            return -1;
        s->transfers = t;
    }
    ssched_redist_transfer_t *t = &s->transfers[n];
    t->message = message;
    mpq_init(t->start);
    mpq_init(t->end);
    mpq_init(t->amount);
    mpq_set(t->start, start);
    mpq_set(t->end, end);
    mpq_set(t->amount, amount);
    s->n_transfers++;
    return 0;
}

ssched_status_t ssched_i_rd_place_pieces(const ssched_redist_t *r, const size_t *message,
                                const mpq_t *amount, size_t n, ssched_redist_schedule_t *s,
                                ssched_error_t *err)
{
    size_t P = r->P;
    mpq_t *send_free = malloc(2 * P * sizeof *send_free);
    size_t *last = malloc(2 * P * sizeof *last); /* last transfer per sender / receiver */
    if (!send_free || !last) {
        free(send_free);
        free(last);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory placing transfers");
    }
    mpq_t *recv_free = send_free + P, start, end;
    size_t *last_send = last, *last_recv = last + P;
    for (size_t p = 0; p < 2 * P; p++) {
        mpq_init(send_free[p]);
        last[p] = (size_t)-1;
    }
    mpq_init(start);
    mpq_init(end);
    ssched_status_t st = SSCHED_OK;
    for (size_t q = 0; q < n && st == SSCHED_OK; q++) {
        size_t e = message[q];
        const ssched_redist_message_t *m = &r->messages[e];
        const mpq_t *bw = (const mpq_t *)&r->bandwidth[m->src * P + m->dst];
        size_t prev = last_send[m->src];
        if (prev != (size_t)-1 && prev == last_recv[m->dst] && s->transfers[prev].message == e) {
            /* The previous piece of this message was the last thing both
             * ends did: continue that transfer instead of paying a new
             * start-up (both ends are free exactly at its end). */
            ssched_redist_transfer_t *t = &s->transfers[prev];
            mpq_div(end, amount[q], *bw);
            mpq_add(t->end, t->end, end);
            mpq_add(t->amount, t->amount, amount[q]);
            mpq_set(send_free[m->src], t->end);
            mpq_set(recv_free[m->dst], t->end);
            continue;
        }
        mpq_set(start, mpq_cmp(send_free[m->src], recv_free[m->dst]) >= 0 ? send_free[m->src]
                                                                          : recv_free[m->dst]);
        mpq_div(end, amount[q], *bw);
        mpq_add(end, end, r->startup);
        mpq_add(end, end, start);
        mpq_set(send_free[m->src], end);
        mpq_set(recv_free[m->dst], end);
        if (ssched_i_rd_add_transfer(s, e, start, end, amount[q])) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory placing transfers");
            break;
        }
        last_send[m->src] = last_recv[m->dst] = s->n_transfers - 1;
    }
    for (size_t p = 0; p < 2 * P; p++)
        mpq_clear(send_free[p]);
    free(send_free);
    free(last);
    mpq_clear(start);
    mpq_clear(end);
    return st;
}

/* Ordering (issue 26): no comparison at all.  Bucketing by processor is
 * stable, so each processor's list holds its transfers in creation order,
 * and every algorithm creates a processor's transfers in strictly
 * increasing start order: greedy starts a transfer at
 * max(sendavail, recvavail), at or after the end of both ends' previous
 * transfers, and ssched_i_rd_place_pieces does the same (a coalesced piece
 * only moves the end of the last transfer of both its ends); every
 * duration is positive (amount > 0, bandwidth finite), so each start is
 * after the previous one's start.  The lists are therefore in start order
 * as built.  This is not trusted: the checker verifies the order (and
 * reports EINTERNAL if it failed), it only saves the n - 1 exact
 * comparisons of cross-multiplied rationals, made along the lists all over
 * memory, that the former sort check cost (most of finalize at P = 1024). */

/* Build one side's lists (sender side if by_src).  0 or -1 (ENOMEM). */
static int build_lists(const ssched_redist_t *r, ssched_redist_schedule_t *s, int by_src,
                       size_t **start_out, size_t **list_out)
{
    size_t P = r->P, n = s->n_transfers;
    size_t *start = calloc(P + 1, sizeof *start), *list = ssched_i_alloc(n, sizeof *list);
    size_t *fill = calloc(P, sizeof *fill);
    if (!start || !list || !fill) {
        free(start);
        free(list);
        free(fill);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const ssched_redist_message_t *m = &r->messages[s->transfers[i].message];
        start[(by_src ? m->src : m->dst) + 1]++;
    }
    for (size_t p = 0; p < P; p++)
        start[p + 1] += start[p];
    for (size_t i = 0; i < n; i++) {
        const ssched_redist_message_t *m = &r->messages[s->transfers[i].message];
        size_t p = by_src ? m->src : m->dst;
        list[start[p] + fill[p]++] = i;
    }
    free(fill);
    *start_out = start;
    *list_out = list;
    return 0;
}

/* Per-processor lists, completion, number of split messages. */
static ssched_status_t finalize(const ssched_redist_t *r, ssched_redist_schedule_t *s,
                                ssched_error_t *err)
{
    s->P = r->P;
    if (build_lists(r, s, 1, &s->send_start, &s->send_list) ||
        build_lists(r, s, 0, &s->recv_start, &s->recv_list))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory ordering transfers");
    mpq_set_ui(s->completion, 0, 1);
    size_t *pieces = ssched_i_calloc(r->n_messages, sizeof *pieces);
    if (!pieces)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory ordering transfers");
    for (size_t i = 0; i < s->n_transfers; i++) {
        if (mpq_cmp(s->transfers[i].end, s->completion) > 0)
            mpq_set(s->completion, s->transfers[i].end);
        pieces[s->transfers[i].message]++;
    }
    s->n_split = 0;
    for (size_t e = 0; e < r->n_messages; e++)
        s->n_split += pieces[e] > 1;
    free(pieces);
    return SSCHED_OK;
}

ssched_status_t ssched_redist_schedule(const ssched_redist_t *r,
                                       ssched_redist_algorithm_t algorithm,
                                       ssched_redist_schedule_t *s, ssched_error_t *err)
{
    schedule_reset(s);
    s->algorithm = algorithm;
    if (!r->bandwidth || !r->local)
        return ssched_error_set(err, SSCHED_EINPUT, "redistribution instance not built");
    ssched_status_t st;
    switch (algorithm) {
    case SSCHED_REDIST_DIRECT: st = ssched_i_rd_direct(r, s, err); break;
    case SSCHED_REDIST_GREEDY: st = ssched_i_rd_greedy(r, s, err); break;
    case SSCHED_REDIST_PREEMPTIVE: st = ssched_i_rd_preemptive(r, s, err); break;
    default: return ssched_error_set(err, SSCHED_EINPUT, "unknown algorithm %d", (int)algorithm);
    }
    if (st == SSCHED_OK)
        st = finalize(r, s, err);
    if (st == SSCHED_OK) {
        ssched_check_report_t rep;
        st = ssched_redist_check(r, s, &rep, err);
        if (st == SSCHED_OK && !rep.valid) /* our own schedule is wrong: a bug */
            st = ssched_error_set(err, SSCHED_EINTERNAL, "%s schedule fails its check: %s",
                                  ssched_redist_algorithm_name(algorithm), rep.violation);
    }
    if (st != SSCHED_OK) {
        schedule_reset(s);
        s->algorithm = algorithm;
    }
    return st;
}

void ssched_redist_estimate(const ssched_redist_t *r, ssched_redist_algorithm_t algorithm,
                            int json, double *bytes, double *work)
{
    double M = (double)r->n_messages, P = (double)r->P, K = (double)r->K;
    /* per message: the schedule, its report and (JSON) the jansson tree
     * of the report, about ten bytes per byte written (measured at
     * P = 512: 864 MB for an 89 MB JSON file, 183 MB for 15 MB of text) */
    double per_message = json ? 3500 : 700;
    if (algorithm == SSCHED_REDIST_PREEMPTIVE)
        per_message *= 2.2; /* split messages: more transfers */
    *bytes = M * per_message + P * P * 64 + (1 << 20);
    switch (algorithm) {
    case SSCHED_REDIST_GREEDY: *work = P * K * K + M; break;
    case SSCHED_REDIST_PREEMPTIVE: *work = 10 * M * P; break;
    default: *work = M * P; break;
    }
}
