/* Choosing the periodic pattern to unroll for K operations
 * (schedule.h: ssched_unroll_plan).
 *
 * A long period delays everything: the pipeline fills one period per level
 * of a route or tree, so K operations take about (ceil(K/n) + depth) x
 * period for n operations per period.  Scatter and gossip lose no
 * throughput with a short period (amounts become pieces of messages), so n
 * = 1 and period 1/TP is best unless whole messages are asked for.  A
 * reduce operation is one tree instance: with n instances per period the
 * counts are rounded (RR-4872 §4.6 floors, then the greedy fill), and the
 * best n balances rounding loss against start-up; the solution's own
 * pattern (throughput exactly TP) is a candidate too, so the ratio to K/TP
 * tends to 1 as K grows.  Every candidate is a real schedule.  When
 * replaying it costs at most 2*10^6 events it is ranked by its exact time
 * for K (a replay with no output: the left shift hides most of the start-up
 * the estimate counts), else by two shorter replays extrapolated (rank).
 *
 * Unit-free (issue 22): every candidate is fixed by operation counts (m/TP,
 * n tree instances, the least whole counts of a broadcast or all-reduce
 * solution), ranked by times that all scale with the unit, and unrolled
 * on a time scale that never refuses (exact ticks, else the rounded grid
 * of unroll_internal.h): scaling every cost by f scales the schedule. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* Levels a batch needs: the deepest tree (reduce) or the longest route. */
static size_t pattern_depth(const ssched_platform_t *p, const ssched_schedule_t *s)
{
    if (s->kind != SSCHED_PROBLEM_REDUCE)
        return p->n_nodes; /* a route has fewer hops than nodes */
    size_t d = 0;
    for (size_t t = 0; t < s->trees.n_trees; t++)
        for (size_t x = 0; x < s->trees.trees[t].n_tasks; x++)
            if (s->trees.trees[t].tasks[x].depth + 1 > d)
                d = s->trees.trees[t].tasks[x].depth + 1;
    return d;
}

/* Hops of the longest flow path is costly to compute exactly; the number
 * of slots a message can cross per period is one, so the real depth of a
 * flow pattern is its longest route.  Bounded here by the edges used. */
static size_t flow_depth(const ssched_platform_t *p, const ssched_schedule_t *s)
{
    size_t used = 0;
    unsigned char *u = ssched_i_calloc(p->n_edges, 1);
    if (!u)
        return p->n_nodes;
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++)
            if (!u[s->slots[k].transfers[t].edge]++)
                used++;
    free(u);
    return used < p->n_nodes ? used : p->n_nodes;
}

/* (ceil(K / ops) + depth) * period */
static void estimate(const ssched_platform_t *p, const ssched_schedule_t *s, size_t K,
                     mpq_t out)
{
    mpz_t b;
    mpz_init_set_ui(b, K);
    mpz_cdiv_q(b, b, s->ops_per_period);
    size_t depth = s->kind == SSCHED_PROBLEM_REDUCE ? pattern_depth(p, s) : flow_depth(p, s);
    mpz_add_ui(b, b, depth);
    mpq_set_z(out, b);
    mpq_mul(out, out, s->period);
    mpz_clear(b);
}

static ssched_status_t null_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    (void)sk;
    (void)ev;
    (void)err;
    return SSCHED_OK;
}

/* A pattern the driver walks: at most 10^7 events per period (the limit
 * of ssched_i_sched_unroll_run). */
static int walkable(const ssched_schedule_t *s)
{
    if (!mpz_fits_ulong_p(s->ops_per_period))
        return 0;
    return ssched_i_sched_estimate_events(s, mpz_get_ui(s->ops_per_period)) <= 10000000ULL;
}

/* The replay's makespan for K operations with no output (0 on failure). */
static int replay_time(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_schedule_t *s, size_t K, unsigned long long budget, mpq_t out)
{
    ssched_unroll_limits_t lim = {0, budget, 0, NULL, NULL};
    sched_sink_t sink = {NULL, null_emit, 1, 0};
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    int ok = ssched_i_sched_unroll_run(p, pb, s, K, &lim, &sink, &fig, NULL) == SSCHED_OK;
    if (ok)
        mpq_set(out, fig.makespan);
    ssched_unroll_figures_free(&fig);
    return ok;
}

/* The time for K on a candidate: the exact replay when it costs at most
 * `budget` events.  Else two prefixes within the budget, K1 = K2 / 2 and
 * K2, measure the pattern's real rate, throughput losses included (the
 * estimate below counts none: a pattern that loses throughput for good
 * looked as good as one that does not, and won the tie):
 * T(K) ~ T(K2) + (K - K2) (T(K2) - T(K1)) / (K2 - K1).  Every figure is a
 * time or a count of operations, so the ranking does not depend on the
 * unit of time.  Last resort: the estimate. */
static void rank(const ssched_platform_t *p, const ssched_problem_t *pb,
                 const ssched_schedule_t *s, size_t K, unsigned long long budget, mpq_t out)
{
    if (replay_time(p, pb, s, K, budget, out))
        return;
    unsigned long long per = ssched_i_sched_estimate_events(s, 1);
    size_t K2 = (size_t)(budget / 2 / (per ? per : 1));
    if (K2 >= K)
        K2 = K / 2;
    size_t K1 = K2 / 2;
    mpq_t t1, slope;
    mpq_inits(t1, slope, NULL);
    if (K1 >= 1 && replay_time(p, pb, s, K1, budget, t1) &&
        replay_time(p, pb, s, K2, budget, out)) {
        mpq_sub(slope, out, t1);
        mpq_set_ui(t1, (unsigned long)(K - K2), (unsigned long)(K2 - K1));
        mpq_canonicalize(t1);
        mpq_mul(slope, slope, t1);
        mpq_add(out, out, slope);
    } else {
        estimate(p, s, K, out);
    }
    mpq_clears(t1, slope, NULL);
}

/* Scatter, gossip: whole messages give fewer, simpler events, but even
 * when every route carries a whole number of messages per operation they
 * can lose throughput for good: a message moves whole at the first slot of
 * its edge, not in the pieces the matchings spread over several slots (a
 * Tiers gossip kept 2.3 % over K/TP at K = 10^4).  Both replays are ranked
 * (rank: exact, or extrapolated from two prefixes); ties go to whole
 * messages. */
static void choose_whole(const ssched_platform_t *p, const ssched_problem_t *pb,
                         ssched_schedule_t *s, size_t K)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    s->unroll_whole = 0;
    rank(p, pb, s, K, 2000000ULL, a);
    s->unroll_whole = 1;
    rank(p, pb, s, K, 2000000ULL, b);
    s->unroll_whole = mpq_cmp(b, a) <= 0;
    mpq_clears(a, b, NULL);
}

/* Broadcast: the arborescence pattern (period T, the LCM of the weights'
 * denominators: every weight y_i T is a whole number of messages, so every
 * message moves whole down one arborescence at TP exactly).  no_split
 * changes nothing: the no-split pattern only multiplies the period and
 * every count by L (far more events per period, the same rates).
 * All-reduce: its own pattern likewise (the period is the LCM of the trees'
 * and arborescences' rates; a fixed period is not built for it), with
 * no_split moving the reduce values whole. */
static ssched_status_t plan_broadcast(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_steady_t *steady, size_t K,
                                      mpq_srcptr max_period, int no_split,
                                      ssched_schedule_t *out, ssched_error_t *err)
{
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "K (operations) must be at least 1");
    if (mpq_sgn(steady->throughput) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "TP = 0: there is nothing to schedule");
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    ssched_status_t st = ssched_schedule_build(p, pb, steady, &so, out, err);
    /* all-reduce: the reduce values move in pieces unless no_split (copies
     * are whole messages either way) */
    if (st == SSCHED_OK)
        ssched_i_sched_shortest_pattern(out);
    if (st == SSCHED_OK && max_period && mpq_cmp(out->period, max_period) > 0)
        st = ssched_error_set(err, SSCHED_EINPUT,
                              all ? "no periodic pattern fits in max_period: the all-reduce "
                                    "pattern's period is the LCM of its trees' and "
                                    "arborescences' rates"
                                  : "no periodic pattern fits in max_period: the broadcast "
                                    "pattern's period is that of the least whole counts in "
                                    "the arborescences' ratio");
    if (st == SSCHED_OK)
        out->unroll_whole = all ? no_split : 1;
    return st;
}

/* A pattern whose exact times do not fit 62-bit ticks is skipped. */
static ssched_status_t scale_fits(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_schedule_t *s, size_t K, ssched_error_t *e)
{
    sched_scale_t sc;
    ssched_status_t ok = ssched_i_sched_scale_init(&sc, p, pb, s, ssched_i_sched_replay_periods(p, s, K), e);
    ssched_i_sched_scale_free(&sc);
    return ok;
}

ssched_status_t ssched_i_sched_plan_consider(const ssched_platform_t *p,
                                             const ssched_problem_t *pb, size_t K,
                                             mpq_srcptr max_period, ssched_schedule_t *cand,
                                             ssched_schedule_t *out, mpq_t best, mpq_t est,
                                             int *have, ssched_error_t *err)
{
    if (!walkable(cand) || (max_period && mpq_cmp(cand->period, max_period) > 0))
        return SSCHED_OK;
    ssched_error_t e;
    ssched_status_t r = scale_fits(p, pb, cand, K, &e);
    if (r == SSCHED_ENOMEM)
        return ssched_error_set(err, r, "%s", e.message);
    if (r != SSCHED_OK)
        return SSCHED_OK;
    cand->unroll_order = 0;
    rank(p, pb, cand, K, 2000000ULL, est);
    /* routed reduce, all-reduce: the replay's orders (unroll_plan_routed.c) */
    if (p->routes && (pb->kind == SSCHED_PROBLEM_REDUCE || pb->kind == SSCHED_PROBLEM_ALLREDUCE))
        ssched_i_sched_plan_choose_order(p, pb, cand, K, *have ? best : NULL, est);
    if (!*have || mpq_cmp(est, best) < 0) {
        ssched_schedule_t tmp = *out;
        *out = *cand;
        *cand = tmp;
        mpq_set(best, est);
        *have = 1;
    }
    return SSCHED_OK;
}

void ssched_i_sched_plan_rank(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, size_t K, mpq_t out)
{
    rank(p, pb, s, K, 2000000ULL, out);
}

void ssched_i_sched_plan_choose_whole(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      ssched_schedule_t *s, size_t K)
{
    choose_whole(p, pb, s, K);
}

/* The short pattern of n operations from the solution st: kept in *out
 * when its exact time for K beats *best (ssched_i_sched_plan_consider).
 * ENOMEM only is an error; a pattern that cannot be built is skipped. */
static ssched_status_t try_short(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_steady_t *st, size_t n, size_t K,
                                 mpq_srcptr max_period, int no_split, ssched_schedule_t *cand,
                                 ssched_schedule_t *out, mpq_t best, mpq_t est, int *have,
                                 ssched_error_t *err)
{
    ssched_error_t e;
    ssched_status_t r = ssched_i_sched_allreduce_pattern(p, pb, st, n, cand, &e);
    if (r == SSCHED_ENOMEM)
        return ssched_error_set(err, r, "%s", e.message);
    if (r != SSCHED_OK)
        return SSCHED_OK;
    cand->unroll_whole = pb->kind == SSCHED_PROBLEM_ALLREDUCE ? no_split : 1;
    return ssched_i_sched_plan_consider(p, pb, K, max_period, cand, out, best, est, have, err);
}

/* All-reduce, broadcast, multicast: the solution's own pattern (the LCM
 * period, shortest: its counts divided by their gcd) when the driver can
 * walk it, and short ones of n operations (unroll_allreduce_plan.c),
 * ranked as the others.  Broadcast copies move whole. */
static ssched_status_t plan_allreduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_steady_t *steady, size_t K,
                                      mpq_srcptr max_period, int no_split,
                                      ssched_schedule_t *out, ssched_error_t *err)
{
    static const size_t ns[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    ssched_error_t first;
    ssched_status_t st = plan_broadcast(p, pb, steady, K, max_period, no_split, out, &first);
    if (st == SSCHED_ENOMEM)
        return ssched_error_set(err, st, "%s", first.message);
    if (st == SSCHED_OK && (st = scale_fits(p, pb, out, K, &first)) == SSCHED_ENOMEM)
        return ssched_error_set(err, st, "%s", first.message);
    if (st == SSCHED_OK && !walkable(out))
        st = ssched_error_set(&first, SSCHED_EINPUT,
                              "the solution's own pattern has too many events per period");
    int have = st == SSCHED_OK;
    mpq_t best, est;
    mpq_inits(best, est, NULL);
    if (have)
        rank(p, pb, out, K, 2000000ULL, best);
    ssched_schedule_t cand;
    ssched_schedule_init(&cand);
    st = SSCHED_OK;
    size_t n_ns = sizeof ns / sizeof *ns;
    for (size_t k = 0; k < n_ns && (ns[k] == 1 || ns[k] / 2 <= K) && st == SSCHED_OK; k++)
        st = try_short(p, pb, steady, ns[k], K, max_period, no_split, &cand, out, best, est,
                       &have, err);
    if (st == SSCHED_OK && p->routes)
        st = ssched_i_sched_plan_routed(p, pb, steady, K, max_period, no_split, &cand, out, best,
                                        est, &have, err);
    if (st == SSCHED_OK && !have && max_period)
        st = ssched_error_set(err, SSCHED_EINPUT,
                              pb->kind == SSCHED_PROBLEM_ALLREDUCE
                                  ? "no periodic pattern fits in max_period: one all-reduce "
                                    "needs a period of at least 1/TP"
                                  : "no periodic pattern fits in max_period: one broadcast "
                                    "needs a period of at least 1/TP");
    else if (st == SSCHED_OK && !have)
        st = ssched_error_set(err, first.status, "%s", first.message);
    ssched_schedule_free(&cand);
    mpq_clears(best, est, NULL);
    return st;
}

static ssched_status_t plan_pattern(const ssched_platform_t *p, const ssched_problem_t *pb,
                                    const ssched_steady_t *steady, size_t K,
                                    mpq_srcptr max_period, int no_split,
                                    ssched_schedule_t *out, ssched_error_t *err)
{
    static const size_t mult[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128,
                                         192, 256, 384, 512, 1024};
    if (pb->kind == SSCHED_PROBLEM_BROADCAST || pb->kind == SSCHED_PROBLEM_ALLREDUCE)
        return plan_allreduce(p, pb, steady, K, max_period, no_split, out, err);
    if (K == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "K (operations) must be at least 1");
    if (mpq_sgn(steady->throughput) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "TP = 0: there is nothing to schedule");
    if (max_period && mpq_sgn(max_period) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "max_period must be positive");
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    /* whole messages are replayed from the split pattern (see schedule.h) */
    ssched_schedule_t cand;
    ssched_schedule_init(&cand);
    mpq_t tf, est, best;
    mpq_inits(tf, est, best, NULL);
    int have = 0;
    ssched_status_t st = SSCHED_OK;
    ssched_error_t last;
    ssched_error_clear(&last);
    /* candidate periods: multiples m/TP, (reduce) the tight periods of n
     * apportioned tree instances, and the longest period allowed */
    enum { CAND = 64 };
    mpq_t cands[CAND];
    size_t n_cand = 0;
    for (size_t k = 0; k < CAND; k++)
        mpq_init(cands[k]);
    size_t n_mult = pb->kind != SSCHED_PROBLEM_REDUCE ? 1 : sizeof mult / sizeof *mult;
    /* (scatter and gossip keep TP at every n, pieces or whole messages
     * spread over routes: one operation per period starts up fastest) */
    for (size_t k = 0; k < n_mult && (mult[k] == 1 || mult[k] / 2 <= K); k++) {
        mpq_set_ui(cands[n_cand], mult[k], 1);
        mpq_div(cands[n_cand], cands[n_cand], steady->throughput);
        n_cand++;
    }
    if (pb->kind == SSCHED_PROBLEM_REDUCE)
        n_cand += ssched_i_sched_apportioned_periods(p, pb, steady, cands + n_cand,
                                                      CAND - 1 - n_cand);
    if (max_period)
        mpq_set(cands[n_cand++], max_period); /* the longest period allowed */
    /* reduce: also the solution's own pattern (its LCM period divided by
     * the gcd of its counts), the one of throughput exactly TP, for K
     * large enough to amortize its longer period */
    size_t n_all = n_cand + (pb->kind == SSCHED_PROBLEM_REDUCE);
    for (size_t k = 0; k < n_all && st == SSCHED_OK; k++) {
        if (k < n_cand) {
            mpq_set(tf, cands[k]);
            if (max_period && mpq_cmp(tf, max_period) > 0)
                continue;
        }
        so.fixed_period = k < n_cand ? tf : NULL;
        ssched_error_t e;
        ssched_status_t r = ssched_schedule_build(p, pb, steady, &so, &cand, &e);
        if (r == SSCHED_OK && k == n_cand) {
            ssched_i_sched_shortest_pattern(&cand);
            if ((max_period && mpq_cmp(cand.period, max_period) > 0) || !walkable(&cand))
                continue;
        }
        if (r == SSCHED_ENOMEM) {
            st = ssched_error_set(err, r, "%s", e.message);
            break;
        }
        if (r != SSCHED_OK || mpz_sgn(cand.ops_per_period) == 0) {
            if (r != SSCHED_OK)
                last = e;
            continue;
        }
        if (pb->kind == SSCHED_PROBLEM_REDUCE) {
            ssched_error_t e2;
            ssched_status_t ok = scale_fits(p, pb, &cand, K, &e2);
            if (ok == SSCHED_ENOMEM) {
                st = ssched_error_set(err, ok, "%s", e2.message);
                break;
            }
            if (ok != SSCHED_OK) {
                last = e2;
                continue;
            }
        }
        cand.unroll_whole = no_split;
        if (pb->kind != SSCHED_PROBLEM_REDUCE && !no_split)
            choose_whole(p, pb, &cand, K);
        rank(p, pb, &cand, K, 2000000ULL, est);
        ssched_i_sched_plan_groups(p, pb, &cand, K, est); /* routed reduce */
        if (!have || mpq_cmp(est, best) < 0) {
            ssched_schedule_t tmp = *out;
            *out = cand;
            cand = tmp;
            mpq_set(best, est);
            have = 1;
        }
    }
    /* routed: relay routes (scatter, gossip), spread trees (reduce) */
    if (st == SSCHED_OK && p->routes)
        st = ssched_i_sched_plan_routed(p, pb, steady, K, max_period, no_split, &cand, out, best,
                                        est, &have, err);
    if (st == SSCHED_OK && !have) {
        if (last.status != SSCHED_OK)
            st = ssched_error_set(err, last.status, "%s", last.message);
        else
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "no periodic pattern fits in max_period: one operation "
                                  "needs a period of at least 1/TP");
    }
    ssched_schedule_free(&cand);
    mpq_clears(tf, est, best, NULL);
    for (size_t k = 0; k < CAND; k++)
        mpq_clear(cands[k]);
    return st;
}

/* The pattern, then (with latencies) the batch and the pieces of the least
 * exact makespan on it (unroll_batch.c). */
ssched_status_t ssched_unroll_plan(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *steady, size_t K,
                                   mpq_srcptr max_period, int no_split,
                                   ssched_schedule_t *out, ssched_error_t *err)
{
    return ssched_unroll_plan_pattern(p, pb, steady, K, max_period, no_split,
                                      SSCHED_PATTERN_AUTO, out, err);
}

/* The LP pattern, then the direct one as a candidate (unroll_direct.c):
 * the plan is never worse, for K, than the best pattern it considered. */
ssched_status_t ssched_unroll_plan_pattern(const ssched_platform_t *p,
                                           const ssched_problem_t *pb,
                                           const ssched_steady_t *steady, size_t K,
                                           mpq_srcptr max_period, int no_split,
                                           ssched_pattern_t which, ssched_schedule_t *out,
                                           ssched_error_t *err)
{
    if (which == SSCHED_PATTERN_DIRECT) {
        if (K == 0)
            return ssched_error_set(err, SSCHED_EINPUT, "K (operations) must be at least 1");
        return ssched_i_sched_direct_choose(p, pb, steady, K, max_period, no_split, 1, out, err);
    }
    ssched_status_t st = plan_pattern(p, pb, steady, K, max_period, no_split, out, err);
    if (st == SSCHED_OK)
        st = ssched_i_sched_choose_batch(p, pb, out, K, no_split, err);
    if (st == SSCHED_OK && which == SSCHED_PATTERN_AUTO)
        st = ssched_i_sched_direct_choose(p, pb, steady, K, max_period, no_split, 0, out, err);
    return st;
}
