/* Validity checks of makespan schedules against the model: roles, message
 * durations, data readiness, an explicit one-port check and seed 000's
 * inequality (1).  Independent of how the schedule was built. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"
#include "src/util/check_report.h"

/* "p/q" of a time into buf (for error messages). */
static const char *qstr(char *buf, size_t size, const mpq_t q)
{
    gmp_snprintf(buf, size, "%Qd", q);
    return buf;
}

/* Per-message sanity: processors in range, no self-message, exact
 * duration t(sender), non-negative start. */
static ssched_status_t check_messages(const ssched_mk_cluster_t *c,
                                      const ssched_mk_message_t *msg, size_t first, size_t count,
                                      ssched_error_t *err)
{
    mpq_t d;
    mpq_init(d);
    ssched_status_t st = SSCHED_OK;
    char b1[64], b2[64];
    for (size_t i = first; i < first + count && st == SSCHED_OK; i++) {
        const ssched_mk_message_t *m = &msg[i];
        if (m->sender >= c->n || m->receiver >= c->n) {
            st = ssched_error_set(err, SSCHED_EINPUT, "message %zu: processor out of range (%zu->%zu)",
                                  i, m->sender, m->receiver);
        } else if (m->sender == m->receiver) {
            st = ssched_error_set(err, SSCHED_EINPUT, "message %zu: processor %zu sends to itself", i,
                                  m->sender);
        } else if (mpq_sgn(m->start) < 0) {
            st = ssched_error_set(err, SSCHED_EINPUT, "message %zu (%zu->%zu): negative start %s", i,
                                  m->sender, m->receiver, qstr(b1, sizeof b1, m->start));
        } else {
            mpq_sub(d, m->end, m->start);
            if (!mpq_equal(d, c->time[m->sender]))
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "message %zu (%zu->%zu): lasts %s but t(%zu) = %s", i,
                                      m->sender, m->receiver, qstr(b1, sizeof b1, d), m->sender,
                                      qstr(b2, sizeof b2, c->time[m->sender]));
        }
    }
    mpq_clear(d);
    return st;
}

typedef struct {
    const ssched_mk_message_t *msg;
    const size_t *proc; /* processor of each interval */
    size_t first;
} port_ctx_t;

static int by_proc_then_start(const void *ctx, size_t a, size_t b)
{
    const port_ctx_t *p = ctx;
    if (p->proc[a] != p->proc[b])
        return p->proc[a] < p->proc[b] ? -1 : 1;
    return mpq_cmp(p->msg[p->first + a / 2].start, p->msg[p->first + b / 2].start);
}

/* One port: every message occupies its sender and its receiver during
 * [start, end); sort each processor's intervals and require each to end
 * no later than the next starts. */
static ssched_status_t check_one_port(const ssched_mk_message_t *msg, size_t first, size_t count,
                                      ssched_error_t *err)
{
    if (count < 2)
        return SSCHED_OK;
    size_t *iv = malloc(2 * count * sizeof *iv), *proc = malloc(2 * count * sizeof *proc);
    if (!iv || !proc) {
        free(iv);
        free(proc);
        return ssched_i_mk_nomem(err);
    }
    for (size_t i = 0; i < count; i++) { /* interval 2i: sender side, 2i+1: receiver side */
        iv[2 * i] = 2 * i;
        iv[2 * i + 1] = 2 * i + 1;
        proc[2 * i] = msg[first + i].sender;
        proc[2 * i + 1] = msg[first + i].receiver;
    }
    port_ctx_t ctx = {msg, proc, first};
    ssched_status_t st = ssched_i_mk_sort_indices(iv, 2 * count, by_proc_then_start, &ctx, err);
    char b1[64], b2[64], b3[64], b4[64];
    for (size_t x = 1; x < 2 * count && st == SSCHED_OK; x++) {
        size_t a = iv[x - 1], b = iv[x];
        if (proc[a] != proc[b])
            continue;
        const ssched_mk_message_t *ma = &msg[first + a / 2], *mb = &msg[first + b / 2];
        if (mpq_cmp(ma->end, mb->start) > 0)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "one-port violation: processor %zu is in message %zu (%zu->%zu, "
                                  "[%s, %s]) and message %zu (%zu->%zu, [%s, %s]) at once",
                                  proc[a], first + a / 2, ma->sender, ma->receiver,
                                  qstr(b1, sizeof b1, ma->start), qstr(b2, sizeof b2, ma->end),
                                  first + b / 2, mb->sender, mb->receiver,
                                  qstr(b3, sizeof b3, mb->start), qstr(b4, sizeof b4, mb->end));
    }
    free(iv);
    free(proc);
    return st;
}

/* out = the latest end among messages [first, first+count), 0 if none. */
static void last_end(const ssched_mk_message_t *msg, size_t first, size_t count, mpq_t out)
{
    mpq_set_ui(out, 0, 1);
    for (size_t i = first; i < first + count; i++)
        if (mpq_cmp(msg[i].end, out) > 0)
            mpq_set(out, msg[i].end);
}

static int cmp_mpq_ptr(const void *ctx, size_t a, size_t b)
{
    const mpq_t *const *v = ctx;
    return mpq_cmp(*v[a], *v[b]);
}

/* Inequality (1) on messages [first, first+count): at any time t,
 * 2A(s,t) + C(s,t) = 2 #{starts <= t} - #{ends <= t} <= n.  The left side
 * only grows at start times, so checking those suffices. */
static ssched_status_t inequality1(const ssched_mk_cluster_t *c, const ssched_mk_message_t *msg,
                                   size_t first, size_t count, ssched_error_t *err)
{
    if (count == 0)
        return SSCHED_OK;
    const mpq_t **starts = malloc(count * sizeof *starts), **ends = malloc(count * sizeof *ends);
    size_t *si = malloc(count * sizeof *si), *ei = malloc(count * sizeof *ei);
    ssched_status_t st = SSCHED_OK;
    if (!starts || !ends || !si || !ei) {
        st = ssched_i_mk_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        starts[i] = &msg[first + i].start;
        ends[i] = &msg[first + i].end;
        si[i] = ei[i] = i;
    }
    if ((st = ssched_i_mk_sort_indices(si, count, cmp_mpq_ptr, starts, err)) != SSCHED_OK ||
        (st = ssched_i_mk_sort_indices(ei, count, cmp_mpq_ptr, ends, err)) != SSCHED_OK)
        goto done;
    size_t e = 0;
    for (size_t x = 0; x < count; x++) {
        const mpq_t *t = starts[si[x]];
        if (x + 1 < count && mpq_equal(*t, *starts[si[x + 1]]))
            continue; /* count every start at this instant first */
        while (e < count && mpq_cmp(*ends[ei[e]], *t) <= 0)
            e++;
        size_t lhs = 2 * (x + 1) - e;
        if (lhs > c->n) {
            char b[64];
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "inequality (1) fails at time %s: 2A + C = %zu > n = %zu",
                                  qstr(b, sizeof b, *t), lhs, c->n);
            break;
        }
    }
done:
    free(starts);
    free(ends);
    free(si);
    free(ei);
    return st;
}

/* Reduce roles: every processor but dest sends exactly once, after every
 * message it receives has ended.  With positive times this also rules out
 * cycles, so everything flows to dest. */
static ssched_status_t check_reduce(const ssched_mk_cluster_t *c, const ssched_mk_message_t *msg,
                                    size_t first, size_t dest, ssched_error_t *err)
{
    size_t n = c->n, m = n - 1;
    size_t *sent = malloc(n * sizeof *sent);
    if (!sent)
        return ssched_i_mk_nomem(err);
    for (size_t p = 0; p < n; p++)
        sent[p] = SIZE_MAX;
    ssched_status_t st = SSCHED_OK;
    for (size_t i = first; i < first + m && st == SSCHED_OK; i++) {
        size_t p = msg[i].sender;
        if (p == dest)
            st = ssched_error_set(err, SSCHED_EINPUT, "message %zu: the destination %zu sends", i, p);
        else if (sent[p] != SIZE_MAX)
            st = ssched_error_set(err, SSCHED_EINPUT, "messages %zu and %zu: processor %zu sends twice",
                                  sent[p], i, p);
        else
            sent[p] = i;
    }
    char b1[64], b2[64];
    for (size_t i = first; i < first + m && st == SSCHED_OK; i++) {
        size_t r = msg[i].receiver;
        if (r == dest)
            continue;
        const ssched_mk_message_t *out = &msg[sent[r]];
        if (mpq_cmp(msg[i].end, out->start) > 0)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "data not ready: processor %zu sends (message %zu, start %s) "
                                  "before receiving message %zu (end %s)",
                                  r, sent[r], qstr(b1, sizeof b1, out->start), i,
                                  qstr(b2, sizeof b2, msg[i].end));
    }
    free(sent);
    if (st == SSCHED_OK)
        st = inequality1(c, msg, first, m, err);
    return st;
}

/* Broadcast roles: every processor but src receives exactly once, and only
 * processors holding the data (src from `ready0`, others once their
 * reception ended) send. */
static ssched_status_t check_broadcast(const ssched_mk_cluster_t *c,
                                       const ssched_mk_message_t *msg, size_t first, size_t src,
                                       const mpq_t ready0, ssched_error_t *err)
{
    size_t n = c->n, m = n - 1;
    size_t *got = malloc(n * sizeof *got);
    if (!got)
        return ssched_i_mk_nomem(err);
    for (size_t p = 0; p < n; p++)
        got[p] = SIZE_MAX;
    ssched_status_t st = SSCHED_OK;
    for (size_t i = first; i < first + m && st == SSCHED_OK; i++) {
        size_t r = msg[i].receiver;
        if (r == src)
            st = ssched_error_set(err, SSCHED_EINPUT, "message %zu: the source %zu receives", i, r);
        else if (got[r] != SIZE_MAX)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "messages %zu and %zu: processor %zu receives twice", got[r], i, r);
        else
            got[r] = i;
    }
    char b1[64], b2[64];
    for (size_t i = first; i < first + m && st == SSCHED_OK; i++) {
        size_t p = msg[i].sender;
        mpq_srcptr ready = p == src ? ready0 : got[p] != SIZE_MAX ? msg[got[p]].end : NULL;
        if (!ready)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "message %zu: processor %zu sends but never receives the data", i, p);
        else if (mpq_cmp(msg[i].start, ready) < 0)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "data not ready: message %zu (%zu->%zu) starts at %s but "
                                  "processor %zu has the data only at %s",
                                  i, p, msg[i].receiver, qstr(b1, sizeof b1, msg[i].start), p,
                                  qstr(b2, sizeof b2, ready));
    }
    free(got);
    return st;
}

ssched_status_t ssched_mk_check_inequality1(const ssched_mk_cluster_t *c,
                                            const ssched_mk_schedule_t *s,
                                            ssched_check_report_t *report, ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, s->root, "root", err);
    if (st != SSCHED_OK)
        return st;
    if (s->op == SSCHED_MK_BROADCAST || s->op == SSCHED_MK_SCAN)
        return ssched_error_set(err, SSCHED_EINPUT, "inequality (1) concerns reduce schedules");
    /* Below, every EINPUT in verr is a property of the schedule that fails. */
    ssched_error_t verr;
    ssched_error_clear(&verr);
    size_t m = c->n - 1;
    if (s->count < m)
        st = ssched_error_set(&verr, SSCHED_EINPUT, "%zu messages for %zu senders", s->count, m);
    else
        st = inequality1(c, s->msg, 0, m, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINPUT, &verr, report, err);
}

/* Every property of a schedule for c with a known operation; a failing
 * property is EINPUT in err. */
static ssched_status_t check_schedule(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s,
                                      ssched_error_t *err)
{
    size_t m = c->n - 1, want = s->op == SSCHED_MK_ALLREDUCE ? 2 * m : m;
    if (s->op != SSCHED_MK_SCAN && s->count != want) /* a scan may copy: any count */
        return ssched_error_set(err, SSCHED_EINPUT, "%zu messages, expected %zu", s->count, want);
    ssched_status_t st;
    if ((st = check_messages(c, s->msg, 0, s->count, err)) != SSCHED_OK ||
        (st = check_one_port(s->msg, 0, s->count, err)) != SSCHED_OK)
        return st;
    mpq_t last, zero;
    mpq_inits(last, zero, NULL);
    char b1[64], b2[64];
    switch (s->op) {
    case SSCHED_MK_REDUCE:
        st = check_reduce(c, s->msg, 0, s->root, err);
        break;
    case SSCHED_MK_BROADCAST:
        st = check_broadcast(c, s->msg, 0, s->root, zero, err);
        break;
    case SSCHED_MK_ALLREDUCE:
        st = check_reduce(c, s->msg, 0, s->root, err);
        if (st == SSCHED_OK) {
            last_end(s->msg, 0, m, last);
            if (!mpq_equal(last, s->reduce_makespan))
                st = ssched_error_set(err, SSCHED_EINPUT, "reduce phase ends at %s, not at %s",
                                      qstr(b1, sizeof b1, last),
                                      qstr(b2, sizeof b2, s->reduce_makespan));
        }
        if (st == SSCHED_OK) /* the hub has the result when the reduce ends */
            st = check_broadcast(c, s->msg, m, s->root, last, err);
        break;
    case SSCHED_MK_SCAN:
        st = ssched_i_mk_check_scan(c, s, err);
        break;
    }
    if (st == SSCHED_OK) {
        last_end(s->msg, 0, s->count, last);
        if (!mpq_equal(last, s->makespan))
            st = ssched_error_set(err, SSCHED_EINPUT, "makespan %s but the last message ends at %s",
                                  qstr(b1, sizeof b1, s->makespan), qstr(b2, sizeof b2, last));
    }
    mpq_clears(last, zero, NULL);
    return st;
}

ssched_status_t ssched_mk_check(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s,
                                ssched_check_report_t *report, ssched_error_t *err)
{
    /* What makes the schedule uncheckable is EINPUT in err; the rest are
     * violations. */
    ssched_status_t st = ssched_mk_cluster_validate(c, s->root, "root", err);
    if (st != SSCHED_OK)
        return st;
    if (s->n != c->n)
        return ssched_error_set(err, SSCHED_EINPUT, "schedule for %zu processors, cluster has %zu",
                                s->n, c->n);
    if (s->op != SSCHED_MK_REDUCE && s->op != SSCHED_MK_BROADCAST && s->op != SSCHED_MK_ALLREDUCE &&
        s->op != SSCHED_MK_SCAN)
        return ssched_error_set(err, SSCHED_EINPUT, "unknown operation %d", (int)s->op);
    ssched_error_t verr;
    ssched_error_clear(&verr);
    st = check_schedule(c, s, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINPUT, &verr, report, err);
}
