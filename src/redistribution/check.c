/* Independent checker of a redistribution schedule (seed 003 §4.1 model).
 *
 * It trusts nothing computed by the algorithms: it recomputes each transfer's
 * minimum duration from the bandwidth table, sums the delivered amounts per
 * message, and re-derives the one-port property from the per-processor
 * lists after checking that those lists are exactly the processor's
 * transfers in start order. */
#include <stdlib.h>

#include "src/redistribution/internal.h"
#include "src/util/check_report.h"
#include "src/util/internal.h"
#include "ssched/rational.h"

/* One side's lists: a permutation of that side's transfers, in start order,
 * and consecutive transfers do not overlap (end <= next start). */
static ssched_status_t check_side(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                                  int by_src, const size_t *start, const size_t *list, char *seen,
                                  ssched_error_t *err)
{
    const char *what = by_src ? "send" : "receive";
    size_t P = r->P, n = s->n_transfers;
    if (!start || !list)
        return ssched_error_set(err, SSCHED_EINTERNAL, "missing per-processor %s lists", what);
    if (start[0] != 0 || start[P] != n)
        return ssched_error_set(err, SSCHED_EINTERNAL, "%s lists cover %zu of %zu transfers", what,
                                start[P], n);
    for (size_t i = 0; i < n; i++)
        seen[i] = 0;
    for (size_t p = 0; p < P; p++) {
        if (start[p + 1] < start[p])
            return ssched_error_set(err, SSCHED_EINTERNAL, "%s list of processor %zu is malformed",
                                    what, p);
        for (size_t k = start[p]; k < start[p + 1]; k++) {
            size_t i = list[k];
            if (i >= n || seen[i])
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "processor %zu lists transfer %zu twice or out of range", p,
                                        i);
            seen[i] = 1;
            const ssched_redist_message_t *m = &r->messages[s->transfers[i].message];
            if ((by_src ? m->src : m->dst) != p)
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "transfer %zu is listed at processor %zu, not its own", i,
                                        p);
            if (k > start[p]) {
                const ssched_redist_transfer_t *a = &s->transfers[list[k - 1]];
                const ssched_redist_transfer_t *b = &s->transfers[i];
                if (mpq_cmp(a->start, b->start) > 0)
                    return ssched_error_set(err, SSCHED_EINTERNAL,
                                            "processor %zu: transfers out of start order at %zu", p,
                                            i);
                if (mpq_cmp(a->end, b->start) > 0)
                    return ssched_error_set(err, SSCHED_EINTERNAL,
                                            "processor %zu: %s transfers %zu and %zu overlap "
                                            "(one-port violated)",
                                            p, what, list[k - 1], i);
            }
        }
    }
    return SSCHED_OK;
}

/* Every property of a schedule for r's processors; a failing one is
 * EINTERNAL in err (what the schedulers report for their own output). */
static ssched_status_t check_schedule(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                                      ssched_error_t *err)
{
    size_t n = s->n_transfers, M = r->n_messages, P = r->P;
    mpq_t *got = ssched_i_alloc(M, sizeof *got), need, latest;
    char *seen = ssched_i_alloc(n, 1);
    if (!got || !seen) {
        free(got);
        free(seen);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory checking the schedule");
    }
    for (size_t e = 0; e < M; e++)
        mpq_init(got[e]);
    mpq_init(need);
    mpq_init(latest);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < n && st == SSCHED_OK; i++) {
        const ssched_redist_transfer_t *t = &s->transfers[i];
        if (t->message >= M) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "transfer %zu names message %zu, which does not exist", i,
                                  t->message);
            break;
        }
        const ssched_redist_message_t *m = &r->messages[t->message];
        if (mpq_sgn(t->amount) <= 0) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "transfer %zu (message %zu) carries no data", i, t->message);
            break;
        }
        if (mpq_sgn(t->start) < 0) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "transfer %zu (message %zu) starts before time 0", i, t->message);
            break;
        }
        mpq_div(need, t->amount, r->bandwidth[m->src * P + m->dst]);
        mpq_add(need, need, r->startup);
        mpq_add(need, need, t->start);
        if (mpq_cmp(t->end, need) < 0) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "transfer %zu (message %zu) is shorter than start-up + amount / "
                                  "bandwidth",
                                  i, t->message);
            break;
        }
        if (mpq_cmp(t->end, latest) > 0)
            mpq_set(latest, t->end);
        mpq_add(got[t->message], got[t->message], t->amount);
    }
    for (size_t e = 0; e < M && st == SSCHED_OK; e++) {
        mpq_set_ui(need, r->messages[e].elements, 1);
        if (!mpq_equal(got[e], need))
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "message %zu (%zu -> %zu) is not delivered exactly", e,
                                  r->messages[e].src, r->messages[e].dst);
    }
    if (st == SSCHED_OK)
        st = check_side(r, s, 1, s->send_start, s->send_list, seen, err);
    if (st == SSCHED_OK)
        st = check_side(r, s, 0, s->recv_start, s->recv_list, seen, err);
    if (st == SSCHED_OK && !mpq_equal(latest, s->completion))
        st = ssched_error_set(err, SSCHED_EINTERNAL,
                              "reported completion is not the latest end of the %zu transfers", n);
    if (st == SSCHED_OK && mpq_cmp(s->completion, r->lower_bound) < 0)
        st = ssched_error_set(err, SSCHED_EINTERNAL,
                              "completion below the lower bound: the model is violated");
    for (size_t e = 0; e < M; e++)
        mpq_clear(got[e]);
    free(got);
    free(seen);
    mpq_clear(need);
    mpq_clear(latest);
    return st;
}

ssched_status_t ssched_redist_check(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                                    ssched_check_report_t *report, ssched_error_t *err)
{
    if (s->P != r->P)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "schedule is for %zu processors, instance has %zu", s->P, r->P);
    ssched_error_t verr;
    ssched_error_clear(&verr);
    ssched_status_t st = check_schedule(r, s, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINTERNAL, &verr, report, err);
}
