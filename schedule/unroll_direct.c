/* The direct (one-level) pattern, a candidate of ssched_unroll_plan
 * (issue 22: "when a direct pattern is predicted faster, it is a candidate
 * like any other: the plan is never worse than the best it considered").
 *
 * Structure, one operation per period:
 *  - scatter, gossip: each message from its origin to its destination on
 *    one route, the shortest by l(e) + size c(e) (on a routed platform the
 *    overlay edge origin -> destination when there is one);
 *  - broadcast, multicast: the source's shortest-route arborescence (routed:
 *    the source's own edge to a node when there is one), pruned to the
 *    targets and the nodes on their routes;
 *  - reduce: every participant's value on its shortest route to the
 *    target, which merges them in participant order (T_{0,m-1,m} for m =
 *    1 .. N-1: a flat reduction tree; a commutative operator gets the same
 *    tree with the identity order, its partial results the sets {0..m},
 *    which the commutative checker accepts as any order is allowed);
 *  - all-reduce: that flat reduce to a root, then the broadcast of the
 *    result down the root's shortest-route arborescence.
 *
 * Its throughput is exact: 1 / (the busiest port, link or processor's time
 * for one operation, ssched_i_sched_edge_usage / tree_usage), since the
 * structure is fixed.  The pattern is made by the builders from a steady
 * state describing that structure (flows, one rated tree, one rated
 * arborescence), so it is a periodic schedule the unroller and the checker
 * already know; the certified TP of the problem stays its
 * optimal_throughput, so the unrolled file claims the problem's TP and
 * LB(K) = max(K/TP, LB1) (a valid bound for every schedule, this one
 * included).  The candidate gets its own batch and pieces
 * (ssched_i_sched_choose_batch) and replaces the LP pattern only when its
 * exact makespan for K is strictly less. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/enum_names.h"
#include "src/util/internal.h"

/* The largest of the usages (the period of one operation). */
static void busiest(const mpq_t *use, size_t nr, mpq_t out)
{
    mpq_set_ui(out, 0, 1);
    for (size_t i = 0; i < nr; i++)
        if (mpq_cmp(use[i], out) > 0)
            mpq_set(out, use[i]);
}

/* Scatter, gossip: flows of rate 1/P on each type's route, built at the
 * fixed period P (one operation per period). */
static ssched_status_t direct_flow(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *st, ssched_schedule_t *out,
                                   ssched_error_t *err)
{
    size_t n = p->n_nodes, nt = st->n_commodities, nr = ssched_i_sched_n_resources(p);
    size_t *par = ssched_i_alloc(n, sizeof *par), *path = ssched_i_alloc(n, sizeof *path);
    ssched_flow_t *fl = ssched_i_alloc(nt * n, sizeof *fl);
    mpq_t *use = ssched_i_mpq_vec_new(nr);
    size_t nf = 0;
    ssched_status_t status = SSCHED_OK;
    if (!par || !path || !fl || (!use && nr))
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt && status == SSCHED_OK; t++) {
        size_t o = st->commodities[t].origin, d = st->commodities[t].dest;
        /* the types come grouped by origin: one search per origin */
        int fresh = t == 0 || o != st->commodities[t - 1].origin;
        if (fresh && !ssched_i_sched_direct_routes(p, pb->size, o, par)) {
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        size_t h = ssched_i_sched_direct_route(p, par, o, d, path);
        if (h == SIZE_MAX || h == 0) {
            status = ssched_error_set(err, SSCHED_EINPUT, "direct pattern: no route to a target");
            break;
        }
        for (size_t k = 0; k < h; k++) {
            fl[nf].edge = path[k];
            fl[nf].type = t;
            mpq_init(fl[nf++].rate);
            ssched_i_sched_edge_usage(p, path[k], pb->size, use);
        }
    }
    mpq_t P;
    mpq_init(P);
    if (status == SSCHED_OK) {
        busiest(use, nr, P);
        if (mpq_sgn(P) == 0)
            status = ssched_error_set(err, SSCHED_EINPUT, "direct pattern: no busy resource");
    }
    if (status == SSCHED_OK) {
        ssched_steady_t syn = *st; /* shallow: the flows and TP are ours */
        syn.flows = fl;
        syn.n_flows = nf;
        mpq_init(syn.throughput);
        mpq_inv(syn.throughput, P);
        for (size_t k = 0; k < nf; k++)
            mpq_set(fl[k].rate, syn.throughput);
        ssched_schedule_options_t so;
        ssched_schedule_options_default(&so);
        so.fixed_period = P;
        status = ssched_schedule_build(p, pb, &syn, &so, out, err);
        mpq_clear(syn.throughput);
    }
    for (size_t k = 0; k < nf; k++)
        mpq_clear(fl[k].rate);
    mpq_clear(P);
    ssched_i_mpq_vec_free(use, nr);
    free(par);
    free(path);
    free(fl);
    return status;
}

/* The flat reduction tree of the participants to `target` (module
 * comment), tasks in pre-order: T_{0,N-2,N-1} .. T_{0,0,1} on the target,
 * then each participant's sends, last hop first.  0 on ENOMEM or when a
 * participant cannot reach the target (*bad set). */
static int flat_tree(const ssched_platform_t *p, const ssched_problem_t *pb, size_t target,
                     ssched_tree_t *tr, int *bad)
{
    size_t N = pb->n_participants, n = p->n_nodes;
    memset(tr, 0, sizeof *tr);
    mpz_init_set_ui(tr->weight, 1);
    if (!p->has_w[target]) { /* the target merges every value */
        *bad = 2;
        return 0;
    }
    tr->tasks = ssched_i_alloc(N * (n + 1), sizeof *tr->tasks);
    size_t *par = ssched_i_alloc(n, sizeof *par), *path = ssched_i_alloc(n, sizeof *path);
    if (!tr->tasks || !par || !path) {
        free(par);
        free(path);
        return 0;
    }
    if (pb->commutative) { /* sets {0..m}: the participants in their order */
        tr->order = ssched_i_alloc(N, sizeof *tr->order);
        if (!tr->order) {
            free(par);
            free(path);
            return 0;
        }
        for (size_t j = 0; j < N; j++)
            tr->order[j] = j;
    }
    size_t x = 0;
    for (size_t m = N - 1; m >= 1; m--) /* C(m) at index N-1-m */
        tr->tasks[x++] = (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, target, 0, m - 1, m,
                                              m == N - 1 ? SIZE_MAX : N - 2 - m, N - 1 - m};
    int ok = 1;
    for (size_t j = 0; j < N && ok; j++) {
        size_t src = pb->participants[j];
        if (src == target)
            continue; /* its value is already there: a leaf */
        ok = ssched_i_sched_direct_routes(p, pb->size, src, par);
        size_t h = ok ? ssched_i_sched_direct_route(p, par, src, target, path) : 0;
        if (ok && (h == SIZE_MAX || h == 0)) {
            *bad = 1;
            ok = 0;
            break;
        }
        size_t cons = N - 1 - (j ? j : 1), depth = tr->tasks[cons].depth + 1;
        for (size_t k = h; k-- > 0; depth++) {
            tr->tasks[x] = (ssched_tree_task_t){SSCHED_TREE_SEND, path[k], 0, j, 0, j, cons,
                                                depth};
            cons = x++;
        }
    }
    tr->n_tasks = x;
    free(par);
    free(path);
    return ok;
}

/* The arborescence from root reaching every node flagged in want[], by
 * shortest routes; arcs sorted by head node.  0 on ENOMEM or unreachable. */
static int direct_arb(const ssched_platform_t *p, mpq_srcptr size, size_t root,
                      const unsigned char *want, ssched_arborescence_t *a, int *bad)
{
    size_t n = p->n_nodes;
    size_t *par = ssched_i_alloc(n, sizeof *par);
    unsigned char *keep = ssched_i_calloc(n, 1);
    a->arcs = ssched_i_alloc(n, sizeof *a->arcs);
    int ok = par && keep && a->arcs && ssched_i_sched_direct_routes(p, size, root, par);
    for (size_t v = 0; v < n && ok; v++) {
        if (!want[v] || v == root)
            continue;
        for (size_t u = v, hops = 0; u != root && !keep[u]; u = p->from[par[u]], hops++) {
            if (par[u] == SIZE_MAX || hops > n) {
                *bad = 1;
                ok = 0;
                break;
            }
            keep[u] = 1;
        }
    }
    a->n_arcs = 0;
    for (size_t v = 0; v < n && ok; v++) /* by head node */
        if (keep[v])
            a->arcs[a->n_arcs++] = par[v];
    free(par);
    free(keep);
    return ok;
}

/* Broadcast, multicast, all-reduce: one arborescence (and one flat tree),
 * the pattern of one operation (ssched_i_sched_allreduce_pattern: its
 * period is the busiest resource's time). */
static ssched_status_t direct_tree_pattern(const ssched_platform_t *p,
                                           const ssched_problem_t *pb, const ssched_steady_t *st,
                                           size_t root, ssched_schedule_t *out,
                                           ssched_error_t *err)
{
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    size_t n = p->n_nodes;
    unsigned char *want = ssched_i_calloc(n ? n : 1, 1);
    ssched_arborescence_t arb;
    ssched_arborescence_init(&arb);
    ssched_tree_t tree;
    memset(&tree, 0, sizeof tree);
    mpz_init(tree.weight);
    int bad = 0, ok = want != NULL && root < n;
    if (ok && all) {
        mpz_clear(tree.weight);
        ok = flat_tree(p, pb, root, &tree, &bad);
        for (size_t j = 0; j < pb->n_participants; j++)
            want[pb->participants[j]] = 1;
    } else if (ok) {
        for (size_t j = 0; j < pb->n_targets; j++)
            want[pb->targets[j]] = 1;
    }
    ok = ok && direct_arb(p, pb->size, root, want, &arb, &bad);
    ssched_status_t status = SSCHED_OK;
    if (!ok)
        status = bad == 2 ? ssched_error_set(err, SSCHED_EINPUT,
                                             "direct pattern: the root %s cannot merge the "
                                             "values (no w)", p->names[root])
                 : bad ? ssched_error_set(err, SSCHED_EINPUT,
                                          "direct pattern: a node is unreachable")
                     : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (status == SSCHED_OK) {
        /* one tree and one arborescence of rate 1: the pattern builder
         * apportions 1 instance of each and takes the busiest resource */
        ssched_steady_t syn = *st;
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        mpq_init(syn.throughput);
        mpq_set_ui(syn.throughput, 1, 1);
        mpq_set_ui(arb.weight, 1, 1);
        syn.arborescences = &arb;
        syn.n_arborescences = 1;
        syn.rated_trees = all ? &tree : NULL;
        syn.tree_rates = all ? &one : NULL;
        syn.n_rated_trees = all;
        syn.n_flows = 0;
        syn.n_tasks = 0;
        syn.allreduce_root = root;
        status = ssched_i_sched_allreduce_pattern(p, pb, &syn, 1, out, err);
        mpq_clears(one, syn.throughput, NULL);
    }
    ssched_arborescence_free(&arb);
    free(tree.tasks);
    free(tree.order);
    mpz_clear(tree.weight);
    free(want);
    return status;
}

/* All-reduce: the problem's root when it names one; else (best root) the
 * solution's root or a participant, able to compute, whose direct pattern
 * has the shortest period (the solution's root may be a router, which
 * cannot merge); ties to the first tried.  The checker solves a best-root
 * problem for every root, so the file's TP claim holds with any root. */
static ssched_status_t direct_allreduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                        const ssched_steady_t *st, ssched_schedule_t *out,
                                        ssched_error_t *err)
{
    ssched_schedule_t cand;
    ssched_schedule_init(&cand);
    ssched_error_t e, first;
    ssched_error_clear(&first);
    int have = 0;
    ssched_status_t status = SSCHED_OK;
    int fixed = pb->target != SIZE_MAX;
    for (size_t j = 0; j <= (fixed ? 0 : pb->n_participants); j++) {
        size_t r = fixed ? pb->target : j == 0 ? st->allreduce_root : pb->participants[j - 1];
        if (r >= p->n_nodes || !p->has_w[r] || (j > 0 && r == st->allreduce_root))
            continue;
        ssched_status_t s = direct_tree_pattern(p, pb, st, r, &cand, &e);
        if (s == SSCHED_ENOMEM) {
            status = ssched_error_set(err, s, "%s", e.message);
            break;
        }
        if (s != SSCHED_OK) {
            if (first.status == SSCHED_OK)
                first = e;
            continue;
        }
        if (!have || mpq_cmp(cand.period, out->period) < 0) {
            ssched_schedule_t tmp = *out;
            *out = cand;
            cand = tmp;
            have = 1;
        }
    }
    ssched_schedule_free(&cand);
    if (status == SSCHED_OK && !have)
        status = first.status != SSCHED_OK
                     ? ssched_error_set(err, first.status, "%s", first.message)
                     : ssched_error_set(err, SSCHED_EINPUT,
                                        "direct pattern: no participant can merge the values");
    return status;
}

/* Ordered reduce: the flat tree at rate 1/P, built at its LCM period and
 * made the shortest (one operation per period P). */
static ssched_status_t direct_reduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_steady_t *st, ssched_schedule_t *out,
                                     ssched_error_t *err)
{
    size_t nr = ssched_i_sched_n_resources(p);
    ssched_tree_t tree;
    int bad = 0;
    if (!flat_tree(p, pb, pb->target, &tree, &bad)) {
        free(tree.tasks);
        free(tree.order);
        mpz_clear(tree.weight);
        return bad == 2 ? ssched_error_set(err, SSCHED_EINPUT,
                                           "direct pattern: the target %s cannot merge the "
                                           "values (no w)", p->names[pb->target])
               : bad ? ssched_error_set(err, SSCHED_EINPUT, "direct pattern: a node is unreachable")
                     : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_t *use = ssched_i_mpq_vec_new(nr);
    mpq_t P, rate;
    mpq_inits(P, rate, NULL);
    ssched_status_t status = SSCHED_OK;
    if (!use && nr)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (status == SSCHED_OK) {
        ssched_i_sched_tree_usage(p, &tree, pb->size, use);
        busiest(use, nr, P);
        if (mpq_sgn(P) == 0)
            status = ssched_error_set(err, SSCHED_EINPUT, "direct pattern: no busy resource");
    }
    if (status == SSCHED_OK) {
        ssched_steady_t syn = *st;
        mpq_inv(rate, P);
        mpq_init(syn.throughput);
        mpq_set(syn.throughput, rate);
        syn.rated_trees = &tree;
        syn.tree_rates = &rate;
        syn.n_rated_trees = 1;
        syn.n_flows = 0;
        syn.n_tasks = 0;
        ssched_schedule_options_t so;
        ssched_schedule_options_default(&so);
        status = ssched_schedule_build(p, pb, &syn, &so, out, err);
        if (status == SSCHED_OK)
            ssched_i_sched_shortest_pattern(out);
        mpq_clear(syn.throughput);
    }
    ssched_i_mpq_vec_free(use, nr);
    mpq_clears(P, rate, NULL);
    free(tree.tasks);
    free(tree.order);
    mpz_clear(tree.weight);
    return status;
}

ssched_status_t ssched_i_sched_direct_pattern(const ssched_platform_t *p,
                                              const ssched_problem_t *pb,
                                              const ssched_steady_t *steady, int no_split,
                                              ssched_schedule_t *out, ssched_error_t *err)
{
    if (mpq_sgn(steady->throughput) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "TP = 0: there is nothing to schedule");
    ssched_status_t st;
    switch (pb->kind) {
    case SSCHED_PROBLEM_SCATTER:
    case SSCHED_PROBLEM_GOSSIP:
        st = direct_flow(p, pb, steady, out, err);
        break;
    case SSCHED_PROBLEM_BROADCAST:
        st = direct_tree_pattern(p, pb, steady, pb->sources[0], out, err);
        break;
    case SSCHED_PROBLEM_REDUCE:
    case SSCHED_PROBLEM_ALLREDUCE:
        if (pb->n_participants < 2)
            return ssched_error_set(err, SSCHED_EINPUT, "direct pattern: one participant");
        st = pb->kind == SSCHED_PROBLEM_REDUCE ? direct_reduce(p, pb, steady, out, err)
                                               : direct_allreduce(p, pb, steady, out, err);
        break;
    default:
        return ssched_error_set(err, SSCHED_EINPUT, "direct pattern: unknown problem");
    }
    if (st != SSCHED_OK)
        return st;
    /* the file claims the problem's certified TP, not the pattern's */
    mpq_set(out->optimal_throughput, steady->throughput);
    if (pb->kind == SSCHED_PROBLEM_BROADCAST || pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        mpq_set(out->upper_bound, steady->multicast || pb->kind == SSCHED_PROBLEM_ALLREDUCE
                                      ? steady->upper_bound
                                      : steady->throughput);
        out->optimal = steady->multicast || pb->kind == SSCHED_PROBLEM_ALLREDUCE ? steady->optimal
                                                                                  : 1;
    }
    out->unroll_whole = pb->kind == SSCHED_PROBLEM_BROADCAST ? 1 : no_split;
    out->unroll_batch = 1;
    out->unroll_direct = 1;
    return SSCHED_OK;
}

ssched_status_t ssched_i_sched_direct_choose(const ssched_platform_t *p,
                                             const ssched_problem_t *pb,
                                             const ssched_steady_t *steady, size_t K,
                                             mpq_srcptr max_period, int no_split, int forced,
                                             ssched_schedule_t *out, ssched_error_t *err)
{
    ssched_schedule_t cand;
    ssched_schedule_init(&cand);
    ssched_error_t e;
    ssched_error_clear(&e);
    ssched_status_t st = ssched_i_sched_direct_pattern(p, pb, steady, no_split, &cand, &e);
    if (st == SSCHED_OK && max_period && mpq_cmp(cand.period, max_period) > 0)
        st = ssched_error_set(&e, SSCHED_EINPUT,
                              "no direct pattern fits in max_period: its period is the busiest "
                              "resource's time for one operation");
    if (st == SSCHED_OK)
        st = ssched_i_sched_choose_batch(p, pb, &cand, K, no_split, &e);
    if (st == SSCHED_OK && !forced) {
        mpq_t a, b;
        mpq_inits(a, b, NULL);
        /* strictly faster for K, or the LP pattern stays */
        if (ssched_i_sched_exact_makespan(p, pb, &cand, K, b) &&
            ssched_i_sched_exact_makespan(p, pb, out, K, a) && mpq_cmp(b, a) < 0) {
            ssched_schedule_t tmp = *out;
            *out = cand;
            cand = tmp;
        }
        mpq_clears(a, b, NULL);
    } else if (st == SSCHED_OK) {
        ssched_schedule_t tmp = *out;
        *out = cand;
        cand = tmp;
    }
    ssched_schedule_free(&cand);
    if (st == SSCHED_ENOMEM || (st != SSCHED_OK && forced))
        return ssched_error_set(err, st, "%s", e.message);
    return SSCHED_OK; /* auto: a direct pattern that cannot be built is no candidate */
}

SSCHED_I_ENUM_FUNCTIONS(pattern, ssched_pattern_t, "pattern", "auto", "lp", "direct")
