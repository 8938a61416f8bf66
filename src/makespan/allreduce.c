/* All-reduce as a reduce to a hub followed by a broadcast from it
 * (seed 000 §5.2). */
#include <string.h>

#include "src/makespan/mk_internal.h"

/* Reduce to hub then broadcast from hub, by the pair of algorithms alg
 * selects; out = the reduce messages, then the broadcast ones shifted by
 * the reduce makespan (the hub holds the result only then). */
/* Node budget left (0 = none, UINT64_MAX-free: a spent budget stops at 1
 * node); adds a search's figures to the running totals. */
static void account(ssched_mk_limits_t *left, ssched_mk_stats_t *total, const ssched_mk_stats_t *s)
{
    if (left->max_nodes)
        left->max_nodes = s->nodes + 1 < left->max_nodes ? left->max_nodes - s->nodes : 1;
    total->nodes += s->nodes;
    total->leaves += s->leaves;
    total->refs += s->refs;
    total->cells += s->cells;
    if (!s->complete && s->method && !strcmp(s->method, "bnb"))
        total->complete = 0;
}

static ssched_status_t compose(const ssched_mk_cluster_t *c, size_t hub,
                               ssched_mk_allreduce_alg_t alg, ssched_mk_limits_t *left,
                               ssched_mk_stats_t *total, ssched_mk_schedule_t *out,
                               ssched_error_t *err)
{
    ssched_mk_schedule_t r, b;
    ssched_mk_schedule_init(&r);
    ssched_mk_schedule_init(&b);
    ssched_mk_stats_t s;
    memset(&s, 0, sizeof s);
    ssched_status_t st = alg == SSCHED_MK_ALLREDUCE_OPTIMAL
                             ? ssched_mk_reduce_optimal_limited(c, hub, left, &r, &s, err)
                             : ssched_mk_reduce_snf(c, hub, &r, err);
    if (alg == SSCHED_MK_ALLREDUCE_OPTIMAL)
        account(left, total, &s);
    memset(&s, 0, sizeof s);
    if (st == SSCHED_OK)
        st = alg == SSCHED_MK_ALLREDUCE_OPTIMAL
                 ? ssched_mk_broadcast_optimal_limited(c, hub, left, &b, &s, err)
                 : ssched_mk_broadcast_fnf(c, hub, &b, err);
    if (alg == SSCHED_MK_ALLREDUCE_OPTIMAL)
        account(left, total, &s);
    if (st == SSCHED_OK)
        st = ssched_mk_schedule_alloc(out, SSCHED_MK_ALLREDUCE, c->n, hub, r.count + b.count, err);
    if (st == SSCHED_OK) {
        for (size_t i = 0; i < r.count; i++) {
            out->msg[i].sender = r.msg[i].sender;
            out->msg[i].receiver = r.msg[i].receiver;
            mpq_set(out->msg[i].start, r.msg[i].start);
            mpq_set(out->msg[i].end, r.msg[i].end);
        }
        for (size_t i = 0; i < b.count; i++) {
            ssched_mk_message_t *m = &out->msg[r.count + i];
            m->sender = b.msg[i].sender;
            m->receiver = b.msg[i].receiver;
            mpq_add(m->start, b.msg[i].start, r.makespan);
            mpq_add(m->end, b.msg[i].end, r.makespan);
        }
        mpq_set(out->reduce_makespan, r.makespan);
        mpq_add(out->makespan, r.makespan, b.makespan);
    }
    ssched_mk_schedule_free(&r);
    ssched_mk_schedule_free(&b);
    return st;
}

/* Default hubs: SNF+FNF uses the fastest processor, as in seed 000 §5.2
 * (FNF is a 1.5-approximation from a fastest source, giving Theorem 3's
 * 3.5); the optimal composition tries one processor per distinct time
 * (processors of equal time give the same result) and keeps the best,
 * lowest index on ties. */
ssched_status_t ssched_mk_allreduce(const ssched_mk_cluster_t *c, size_t hub,
                                    ssched_mk_allreduce_alg_t alg, ssched_mk_schedule_t *out,
                                    ssched_error_t *err)
{
    return ssched_mk_allreduce_limited(c, hub, alg, NULL, out, NULL, err);
}

ssched_status_t ssched_mk_allreduce_limited(const ssched_mk_cluster_t *c, size_t hub,
                                            ssched_mk_allreduce_alg_t alg,
                                            const ssched_mk_limits_t *lim,
                                            ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                            ssched_error_t *err)
{
    ssched_mk_limits_t left = {0};
    if (lim)
        left = *lim;
    ssched_mk_stats_t total;
    memset(&total, 0, sizeof total);
    total.method = alg == SSCHED_MK_ALLREDUCE_OPTIMAL ? "optimal" : "snf+fnf";
    total.complete = 1;
    if (!stats)
        stats = &total;
    else
        *stats = total;
    ssched_status_t st = ssched_mk_cluster_validate(c, hub == SSCHED_MK_ANY_ROOT ? 0 : hub,
                                                    "hub", err);
    if (st != SSCHED_OK)
        return st;
    if (hub != SSCHED_MK_ANY_ROOT)
        return compose(c, hub, alg, &left, stats, out, err);
    if (alg != SSCHED_MK_ALLREDUCE_OPTIMAL) {
        size_t fastest = 0;
        for (size_t p = 1; p < c->n; p++)
            if (mpq_cmp(c->time[p], c->time[fastest]) < 0)
                fastest = p;
        return compose(c, fastest, alg, &left, stats, out, err);
    }
    ssched_mk_schedule_t cand;
    ssched_mk_schedule_init(&cand);
    int have = 0;
    for (size_t p = 0; p < c->n && st == SSCHED_OK; p++) {
        int seen = 0; /* an earlier processor with the same time was tried */
        for (size_t q = 0; q < p && !seen; q++)
            seen = mpq_equal(c->time[p], c->time[q]);
        if (seen)
            continue;
        st = compose(c, p, alg, &left, stats, &cand, err);
        if (st == SSCHED_OK && (!have || mpq_cmp(cand.makespan, out->makespan) < 0)) {
            ssched_mk_schedule_t t = *out; /* swap: out keeps the best */
            *out = cand;
            cand = t;
            have = 1;
        }
    }
    ssched_mk_schedule_free(&cand);
    return st;
}
