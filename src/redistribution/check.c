/* Independent checker of a redistribution schedule (seed 003 §4.1 model).
 *
 * It trusts nothing computed by the algorithms: it recomputes each transfer's
 * minimum duration from the bandwidth table, sums the delivered amounts per
 * message, and re-derives the one-port property from the per-processor
 * lists after checking that those lists are exactly the processor's
 * transfers in start order.
 *
 * Cost (issue 26): every test is a sign or a comparison, so it is decided on
 * unnormalised fractions (cross-multiplication, mpz_mul only).  mpq_add /
 * mpq_div canonicalise each result by gcds of ~300-bit numbers at P = 1024
 * (lcm(10..200) denominators), which made the check a quarter of the greedy
 * row.  The tests are the same exact inequalities. */
#include <stdlib.h>

#include "src/redistribution/internal.h"
#include "src/util/check_report.h"
#include "src/util/internal.h"
#include "ssched/rational.h"

/* a < b, a == b or a > b for canonical rationals: equal denominators (the
 * common case for times of one processor) compare numerators only. */
static int qcmp(const mpq_t a, const mpq_t b)
{
    if (mpz_cmp(mpq_denref(a), mpq_denref(b)) == 0)
        return mpz_cmp(mpq_numref(a), mpq_numref(b));
    return mpq_cmp(a, b);
}

/* The lists visit transfers all over memory: fetch the record of entry
 * k + 16 and the limbs of entry k + 8 ahead (a hint only: no effect on any
 * result; indices are range-checked first). */
static void prefetch(const ssched_redist_schedule_t *s, const size_t *list, size_t k, size_t end)
{
    if (k + 16 < end && list[k + 16] < s->n_transfers)
        __builtin_prefetch(&s->transfers[list[k + 16]]);
    if (k + 8 < end && list[k + 8] < s->n_transfers) {
        const ssched_redist_transfer_t *t = &s->transfers[list[k + 8]];
        __builtin_prefetch(mpq_numref(t->start)->_mp_d);
        __builtin_prefetch(mpq_denref(t->start)->_mp_d);
        __builtin_prefetch(mpq_numref(t->end)->_mp_d);
        __builtin_prefetch(mpq_denref(t->end)->_mp_d);
    }
}

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
            prefetch(s, list, k, start[p + 1]);
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
                if (qcmp(a->start, b->start) > 0)
                    return ssched_error_set(err, SSCHED_EINTERNAL,
                                            "processor %zu: transfers out of start order at %zu", p,
                                            i);
                if (qcmp(a->end, b->start) > 0)
                    return ssched_error_set(err, SSCHED_EINTERNAL,
                                            "processor %zu: %s transfers %zu and %zu overlap "
                                            "(one-port violated)",
                                            p, what, list[k - 1], i);
            }
        }
    }
    return SSCHED_OK;
}

/* sum += a (canonical, > 0).  Equal or unit denominators, the common cases,
 * need no multiplication of denominators; a denominator that grows past
 * 4096 bits (a message in very many pieces) is reduced once. */
void ssched_i_rd_sum_add(ssched_i_rd_sum_t *g, mpq_srcptr a, mpz_ptr tmp)
{
    if (mpz_cmp(g->den, mpq_denref(a)) == 0) {
        mpz_add(g->num, g->num, mpq_numref(a));
    } else if (mpz_cmp_ui(mpq_denref(a), 1) == 0) {
        mpz_addmul(g->num, mpq_numref(a), g->den);
    } else {
        mpz_mul(g->num, g->num, mpq_denref(a));
        mpz_addmul(g->num, mpq_numref(a), g->den);
        mpz_mul(g->den, g->den, mpq_denref(a));
        if (mpz_sizeinbase(g->den, 2) > 4096) {
            mpz_gcd(tmp, g->num, g->den);
            mpz_divexact(g->num, g->num, tmp);
            mpz_divexact(g->den, g->den, tmp);
        }
    }
}

/* Is end - start >= startup + amount / bw?  With x = end - start - startup
 * as the fraction xn/xd (xd > 0), the test is xn·bn·ad >= an·xd·bd. */
static int long_enough(const mpq_t start, const mpq_t end, const mpq_t startup,
                       const mpq_t amount, const mpq_t bw, mpz_t xn, mpz_t xd, mpz_t rhs)
{
    if (mpz_cmp(mpq_denref(end), mpq_denref(start)) == 0) {
        mpz_sub(xn, mpq_numref(end), mpq_numref(start));
        mpz_set(xd, mpq_denref(end));
    } else {
        mpz_mul(xn, mpq_numref(end), mpq_denref(start));
        mpz_submul(xn, mpq_numref(start), mpq_denref(end));
        mpz_mul(xd, mpq_denref(end), mpq_denref(start));
    }
    if (mpq_sgn(startup) != 0) {
        mpz_mul(xn, xn, mpq_denref(startup));
        mpz_submul(xn, mpq_numref(startup), xd);
        mpz_mul(xd, xd, mpq_denref(startup));
    }
    if (mpz_sgn(xn) <= 0) /* amount / bw > 0 */
        return 0;
    mpz_mul(xn, xn, mpq_numref(bw));
    mpz_mul(xn, xn, mpq_denref(amount));
    mpz_mul(rhs, mpq_numref(amount), xd);
    mpz_mul(rhs, rhs, mpq_denref(bw));
    return mpz_cmp(xn, rhs) >= 0;
}

/* Every property of a schedule for r's processors; a failing one is
 * EINTERNAL in err (what the schedulers report for their own output). */
static ssched_status_t check_schedule(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                                      int fast, ssched_error_t *err)
{
    /* the integer fast path (check_fast.c) certifies the common case; what
     * it cannot certify, including every violation, is decided here */
    if (fast && ssched_i_rd_check_fast(r, s))
        return SSCHED_OK;
    size_t n = s->n_transfers, M = r->n_messages, P = r->P;
    ssched_i_rd_sum_t *got = ssched_i_alloc(M, sizeof *got);
    char *seen = ssched_i_alloc(n, 1);
    if (!got || !seen) {
        free(got);
        free(seen);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory checking the schedule");
    }
    mpq_t latest;
    mpz_t xn, xd, rhs;
    for (size_t e = 0; e < M; e++) {
        mpz_init(got[e].num);
        mpz_init_set_ui(got[e].den, 1);
    }
    mpq_init(latest);
    mpz_init(xn);
    mpz_init(xd);
    mpz_init(rhs);
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
        if (!long_enough(t->start, t->end, r->startup, t->amount,
                         r->bandwidth[m->src * P + m->dst], xn, xd, rhs)) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "transfer %zu (message %zu) is shorter than start-up + amount / "
                                  "bandwidth",
                                  i, t->message);
            break;
        }
        if (qcmp(t->end, latest) > 0)
            mpq_set(latest, t->end);
        ssched_i_rd_sum_add(&got[t->message], t->amount, rhs);
    }
    for (size_t e = 0; e < M && st == SSCHED_OK; e++) {
        mpz_mul_ui(rhs, got[e].den, r->messages[e].elements);
        if (mpz_cmp(got[e].num, rhs) != 0)
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
    for (size_t e = 0; e < M; e++) {
        mpz_clear(got[e].num);
        mpz_clear(got[e].den);
    }
    free(got);
    free(seen);
    mpq_clear(latest);
    mpz_clear(xn);
    mpz_clear(xd);
    mpz_clear(rhs);
    return st;
}

static ssched_status_t check(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                             int fast, ssched_check_report_t *report, ssched_error_t *err)
{
    if (s->P != r->P)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "schedule is for %zu processors, instance has %zu", s->P, r->P);
    ssched_error_t verr;
    ssched_error_clear(&verr);
    ssched_status_t st = check_schedule(r, s, fast, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINTERNAL, &verr, report, err);
}

ssched_status_t ssched_redist_check(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                                    ssched_check_report_t *report, ssched_error_t *err)
{
    return check(r, s, 1, report, err);
}

ssched_status_t ssched_i_rd_check_exact(const ssched_redist_t *r,
                                        const ssched_redist_schedule_t *s,
                                        ssched_check_report_t *report, ssched_error_t *err)
{
    return check(r, s, 0, report, err);
}
