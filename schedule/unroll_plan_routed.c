/* The planner's routed candidates (ssched_unroll_plan, issue 23), each a
 * real periodic schedule ranked like every other candidate
 * (ssched_i_sched_plan_consider: exact replay for K, or extrapolated):
 *  - broadcast, all-reduce: the short patterns again with the solution's
 *    arborescences replaced by one (unroll_pack_arb.c: a chain through the
 *    targets on a cluster, at TP when no link is crossed twice), its rate
 *    the whole TP.  A broadcast has one candidate (one operation per
 *    period: more only lengthen the period at the same rate); an
 *    all-reduce one per n, as its trees are apportioned;
 *  - scatter, gossip: the relay-route pattern (unroll_pack_routes.c);
 *  - ordered reduce, all-reduce: patterns of n operations whose trees are
 *    grown for them with merges spread over the hosts
 *    (unroll_pack_reduce.c), tournament and free shapes; an all-reduce's
 *    broadcast part from the solution's arborescences and from the single
 *    arborescence above. */
#include <stdlib.h>

#include "schedule/unroll_internal.h"

/* The replay's orders of a reduce pattern's period (ssched_schedule_t
 * unroll_order: bits 0-1 the order, 2-3 lag + 1 of a batch release, 4-5
 * the solo batches; unroll_reduce.c).  Slot order (0) places a period's
 * transfers edge by edge, so at the fill a young operation's first
 * transfer may take the link an old one's last transfer needs
 * (cluster_fat_tree: operation 0's fourth hop waited 12 ms for a host's
 * up-link that operations 3 and 5 had taken).  Oldest operation first
 * (1), or within a batch shallow trees first (2, the bottleneck target is
 * fed sooner) or deep ones (3, the longest path starts first); a batch
 * release (lag 1: batch b starts no earlier than b - 1 periods) keeps the
 * later batches from taking the first ones' resources at the start; solo
 * batches (1 or 2) are placed alone, every level, before the others fill
 * the gaps they leave.  All are valid (a task still follows its inputs);
 * each is ranked exactly like the candidate, tried only when the
 * candidate in slot order is within 5 % of the best so far (the gains are
 * a few %; every replay costs). */
static const int orders[] = {1,          2,          3,          1 | 2 << 2, 3 | 2 << 2,
                             1 | 1 << 4, 3 | 1 << 4, 1 | 2 << 4, 0 | 1 << 4};

void ssched_i_sched_plan_choose_order(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      ssched_schedule_t *s, size_t K, mpq_srcptr best, mpq_t est)
{
    mpq_t o;
    mpq_init(o);
    if (best) { /* est > 1.05 best: not worth the replays */
        mpq_set_ui(o, 21, 20);
        mpq_mul(o, o, best);
    }
    int bo = 0;
    for (size_t v = 0; v < sizeof orders / sizeof *orders && (!best || mpq_cmp(est, o) <= 0);
         v++) {
        s->unroll_order = orders[v];
        mpq_t t;
        mpq_init(t);
        ssched_i_sched_plan_rank(p, pb, s, K, t);
        if (mpq_cmp(t, est) < 0) { /* ties: the earlier order */
            mpq_set(est, t);
            bo = orders[v];
        }
        mpq_clear(t);
    }
    s->unroll_order = bo;
    ssched_i_sched_plan_groups(p, pb, s, K, est); /* unroll_shared.c */
    mpq_clear(o);
}

/* operations per pattern tried (single arborescences) */
static const size_t ns[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};

/* the spread trees' (a tree is grown per operation: up to 32, and the
 * odd counts that the rounding of a few whole trees may favour) */
static const size_t nred[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32};

/* the pattern's counts n worth trying for K (n = 1 always) */
static int n_ok(size_t k, size_t K)
{
    return k < sizeof ns / sizeof *ns && (ns[k] == 1 || ns[k] / 2 <= K);
}

static ssched_status_t pack_reduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *st, int n_flags, size_t K,
                                   mpq_srcptr max_period,
                                   int no_split, ssched_schedule_t *cand, ssched_schedule_t *out,
                                   mpq_t best, mpq_t est, int *have, ssched_error_t *err)
{
    ssched_status_t r = SSCHED_OK;
    /* flags (ssched_i_sched_reduce_pack) 0, 1, 16, 17, 32, 48 and the
     * balanced shape 64 with a kept value (80; 112 shallow ties; 64
     * alone never won on the shipped files) (reduce), 0..3, 6, 7
     * (all-reduce), each also with 8 (regrown) */
    static const int fl[] = {0, 1, 2, 3, 6, 7}, fr[] = {0, 1, 16, 17, 32, 48, 80, 112};
    int red = pb->kind == SSCHED_PROBLEM_REDUCE;
    size_t m = red ? sizeof fr / sizeof *fr : n_flags == 2 ? 2 : 6;
    for (size_t f = 0; f < 2 * m && r == SSCHED_OK; f++) {
        int bal = (red ? fr : fl)[f % m] | (f >= m ? 8 : 0);
        for (size_t k = 0; k < sizeof nred / sizeof *nred && (nred[k] == 1 || nred[k] / 2 <= K) &&
                           r == SSCHED_OK;
             k++) {
            ssched_error_t e;
            r = ssched_i_sched_reduce_pack(p, pb, st, nred[k], bal, cand, &e);
            if (r == SSCHED_ENOMEM)
                return ssched_error_set(err, r, "%s", e.message);
            if (r != SSCHED_OK) {
                r = SSCHED_OK;
                break; /* none for this problem */
            }
            cand->unroll_whole = no_split;
            r = ssched_i_sched_plan_consider(p, pb, K, max_period, cand, out, best, est, have,
                                             err);
        }
    }
    return r;
}

static ssched_status_t single_arb(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_steady_t *steady, size_t K,
                                  mpq_srcptr max_period, int no_split, ssched_schedule_t *cand,
                                  ssched_schedule_t *out, mpq_t best, mpq_t est, int *have,
                                  ssched_error_t *err)
{
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    if (all && !steady->n_rated_trees)
        return SSCHED_OK;
    size_t root = all ? steady->allreduce_root : pb->sources[0];
    ssched_status_t st = SSCHED_OK;
    for (int blocking = 0; blocking < 2 && st == SSCHED_OK; blocking++) {
        ssched_arborescence_t arb;
        ssched_arborescence_init(&arb);
        ssched_error_t e;
        st = ssched_i_sched_best_arborescence(p, pb, steady, root,
                                              all ? pb->participants : pb->targets,
                                              all ? pb->n_participants : pb->n_targets, blocking,
                                              &arb, &e);
        if (st == SSCHED_ENOMEM) {
            st = ssched_error_set(err, st, "%s", e.message);
        } else if (st == SSCHED_OK) {
            ssched_steady_t syn = *steady; /* shallow: only the arborescences differ */
            syn.n_arborescences = 1;
            syn.arborescences = &arb;
            for (size_t k = 0; (all ? n_ok(k, K) : k < 1) && st == SSCHED_OK; k++) {
                ssched_status_t r = ssched_i_sched_allreduce_pattern(p, pb, &syn, ns[k], cand, &e);
                if (r == SSCHED_ENOMEM)
                    st = ssched_error_set(err, r, "%s", e.message);
                if (r != SSCHED_OK)
                    continue;
                cand->unroll_whole = all ? no_split : 1;
                st = ssched_i_sched_plan_consider(p, pb, K, max_period, cand, out, best, est,
                                                  have, err);
            }
            /* the spread reduce trees with this broadcast part */
            if (st == SSCHED_OK && all)
                st = pack_reduce(p, pb, &syn, 2, K, max_period, no_split, cand, out, best, est,
                                 have, err);
        } else {
            st = SSCHED_OK; /* no such arborescence: nothing to add */
        }
        ssched_arborescence_free(&arb);
    }
    return st;
}

/* All-reduce: the gathered-groups patterns (unroll_ar_gather.c), one or
 * two groups, copies placed by arrival within the loads of n / TP, with
 * no extra relay or one (placing copies by load alone, letting
 * participants forward, or three groups never won on the shipped files).
 * Counts below 4 never reach TP there (a gathering helper merges 5
 * values: 50 ms where 1/TP is 8 ms); per variant the counts grow until two
 * patterns at TP in a row beat nothing: a longer one only adds fill. */
static const size_t ngat[] = {4, 6, 7, 8, 10, 12, 16, 24};

static ssched_status_t gathered(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_steady_t *st, size_t K, mpq_srcptr max_period,
                                int no_split, ssched_schedule_t *cand, ssched_schedule_t *out,
                                mpq_t best, mpq_t est, int *have, ssched_error_t *err)
{
    ssched_status_t r = SSCHED_OK;
    mpq_t before;
    mpq_init(before);
    for (size_t v = 0; v < 4 && r == SSCHED_OK; v++) {
        /* v: 1 to 2 groups, with no extra relay or one */
        size_t g = 1 + v / 2;
        int flags = 2 | (int)(v % 2) << 2;
        if (2 * g > pb->n_participants)
            break;
        int idle = 0; /* patterns at TP in a row that beat nothing */
        for (size_t k = 0; k < sizeof ngat / sizeof *ngat && ngat[k] / 2 <= K &&
                           r == SSCHED_OK && idle < 2;
             k++) {
            ssched_error_t e;
            r = ssched_i_sched_ar_gather(p, pb, st, ngat[k], g, flags, cand, &e);
            if (r == SSCHED_ENOMEM) {
                r = ssched_error_set(err, r, "%s", e.message);
                break;
            }
            if (r != SSCHED_OK) {
                r = SSCHED_OK;
                break; /* none for this platform */
            }
            cand->unroll_whole = no_split;
            /* the pattern's throughput reaches the certified TP */
            int at_tp = mpq_cmp(cand->throughput, st->throughput) >= 0, had = *have;
            mpq_set(before, best);
            r = ssched_i_sched_plan_consider(p, pb, K, max_period, cand, out, best, est, have,
                                             err);
            idle = at_tp && had && mpq_cmp(best, before) >= 0 ? idle + 1 : 0;
        }
    }
    mpq_clear(before);
    return r;
}

static ssched_status_t relays(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_steady_t *steady, size_t K, mpq_srcptr max_period,
                              int no_split, ssched_schedule_t *cand, ssched_schedule_t *out,
                              mpq_t best, mpq_t est, int *have, ssched_error_t *err)
{
    ssched_status_t r = ssched_i_sched_relay_pattern(p, pb, steady, max_period, cand);
    if (r != SSCHED_OK)
        return r == SSCHED_ENOMEM ? ssched_error_set(err, r, "out of memory")
                                  : SSCHED_OK; /* none: nothing to add */
    cand->unroll_whole = no_split;
    if (!no_split)
        ssched_i_sched_plan_choose_whole(p, pb, cand, K);
    ssched_i_sched_plan_rank(p, pb, cand, K, est);
    if (!*have || mpq_cmp(est, best) < 0) {
        ssched_schedule_t tmp = *out;
        *out = *cand;
        *cand = tmp;
        mpq_set(best, est);
        *have = 1;
    }
    return SSCHED_OK;
}

ssched_status_t ssched_i_sched_plan_routed(const ssched_platform_t *p, const ssched_problem_t *pb,
                                           const ssched_steady_t *steady, size_t K,
                                           mpq_srcptr max_period, int no_split,
                                           ssched_schedule_t *cand, ssched_schedule_t *out,
                                           mpq_t best, mpq_t est, int *have, ssched_error_t *err)
{
    if (!p->routes)
        return SSCHED_OK;
    switch (pb->kind) {
    case SSCHED_PROBLEM_SCATTER:
    case SSCHED_PROBLEM_GOSSIP:
        return *have ? relays(p, pb, steady, K, max_period, no_split, cand, out, best, est, have,
                              err)
                     : SSCHED_OK;
    case SSCHED_PROBLEM_REDUCE:
        return pack_reduce(p, pb, steady, 2, K, max_period, no_split, cand, out, best, est, have,
                           err);
    case SSCHED_PROBLEM_ALLREDUCE: {
        ssched_status_t st = pack_reduce(p, pb, steady, 8, K, max_period, no_split, cand, out,
                                         best, est, have, err);
        if (st == SSCHED_OK)
            st = gathered(p, pb, steady, K, max_period, no_split, cand, out, best, est, have,
                          err);
        return st == SSCHED_OK ? single_arb(p, pb, steady, K, max_period, no_split, cand, out,
                                            best, est, have, err)
                               : st;
    }
    case SSCHED_PROBLEM_BROADCAST:
        return single_arb(p, pb, steady, K, max_period, no_split, cand, out, best, est, have,
                          err);
    default:
        return SSCHED_OK;
    }
}
