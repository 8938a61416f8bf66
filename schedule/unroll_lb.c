/* LB1, a lower bound on the time of one operation (schedule.h:
 * ssched_unroll_lb1), from exact shortest paths, with latencies.
 *
 * Claim: for any valid schedule of K operations under the model of
 * docs/model.md ("Latency": a transfer of z over e started at s ends at
 * s + l(e) + n*z*size*c(e) for a batch of n, holds its ports and links
 * only during [s + l(e), end), its data usable at the receiver at end),
 * the makespan M satisfies M >= LB(K) = max(K/TP, LB1).
 *
 * Proof.  (K/TP)  Sum, per edge and message type, the amounts the
 * schedule moves and divide by M.  Each port (link at a switch) is busy
 * only during bandwidth phases, which are disjoint and lie in [0, M], and
 * a transfer's phase lasts exactly n*z*size*c(e): the summed busy time per
 * port is at most M, so the averaged rates satisfy the port constraints of
 * the steady-state LP; conservation and delivery hold as without
 * latencies (every destination receives each type K times), so the
 * averages are a feasible point of the LP with throughput K/M <= TP.
 * Latency appears nowhere in these constraints because it keeps nothing
 * busy.  Hence M >= K/TP.
 * (LB1)  Fix one operation.  A transfer lasts at least l(e) + len*size*c(e)
 * (n >= 1), and data is forwarded only after it arrived (the end of the
 * transfer that brought it).
 *  - Whole messages (broadcast, all-reduce copies) and reduce values: a
 *    value crossing edge e in pieces is usable at the receiver when its
 *    last piece ends; the pieces start no earlier than the first one, their
 *    bandwidth phases are disjoint on the sender's port (or link) and sum
 *    to size*c(e), so the value arrives >= (first start) + l(e) + size*c(e).
 *    Store-and-forward along the path it took then gives an arrival time
 *    >= the sum over its hops of l + size*c >= the shortest-path time d
 *    with those weights: broadcast max_k d(S, k); reduce, N >= 2, the value
 *    of P_k is merged first on some computing node x (a merge needs whole
 *    inputs and lasts w(x)) whose result then reaches the target:
 *    min_x d(P_k, x) + w(x) + d(x, target); all-reduce adds
 *    max_j d(R, P_j) for the complete result's copies.
 *  - Scatter, gossip: a message may be cut into pieces that a relay
 *    forwards as soon as each piece arrived, so pieces pipeline along a
 *    path and the sum of size*c over the path is not a bound (a chain
 *    s -> a -> b of c = 1 carries one message in 1 + 1/p with p pieces).
 *    What holds: every piece pays every latency of its path, so the first
 *    data reaches d no earlier than dl(o, d), the latency-only distance;
 *    all of it enters d through d's one in-port, whose disjoint bandwidth
 *    phases sum to >= size * (cheapest c into d) after that; and it leaves
 *    o through o's out-port (>= size * cheapest c out of o) after which its
 *    last piece still crosses latencies >= dl(o, d) in total (o -> u over
 *    e then u ~> d pays l(e) + dl(u, d) >= dl(o, d)).  So the message
 *    arrives >= dl(o, d) + size * max(cheapest out of o, cheapest into d).
 *    Port loads: o's out-port sends one message per destination, the
 *    bandwidth phases disjoint, the first starting >= the cheapest latency
 *    out of o: >= min l(out) + count * size * cheapest c (and the same for
 *    each destination's in-port).
 * Every term is a time some part of the operation must take, so LB1 <= M
 * for each operation, and M >= max(K/TP, LB1).  QED. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

/* Exact Dijkstra; dist[v] < 0 is "unreached".  Hop weight l + size*c
 * (latency_only = 0) or l (latency_only = 1).  reverse: distances to `src`
 * instead of from it.  O(n^2): platforms are small next to the schedules
 * built on them. */
static int dijkstra(const ssched_platform_t *p, const mpq_t size, size_t src, int reverse,
                    int latency_only, mpq_t *dist)
{
    size_t nn = p->n_nodes;
    unsigned char *done = ssched_i_calloc(nn, 1);
    unsigned char *seen = ssched_i_calloc(nn, 1);
    if (!done || !seen) {
        free(done);
        free(seen);
        return 0;
    }
    mpq_t d;
    mpq_init(d);
    for (size_t v = 0; v < nn; v++)
        mpq_set_si(dist[v], -1, 1);
    mpq_set_ui(dist[src], 0, 1);
    seen[src] = 1;
    for (;;) {
        size_t u = nn;
        for (size_t v = 0; v < nn; v++)
            if (seen[v] && !done[v] && (u == nn || mpq_cmp(dist[v], dist[u]) < 0))
                u = v;
        if (u == nn)
            break;
        done[u] = 1;
        for (size_t e = 0; e < p->n_edges; e++) {
            size_t a = reverse ? p->to[e] : p->from[e], b = reverse ? p->from[e] : p->to[e];
            if (a != u || done[b])
                continue;
            if (latency_only)
                mpq_set_ui(d, 0, 1);
            else
                mpq_mul(d, p->c[e], size);
            mpq_add(d, d, p->l[e]);
            mpq_add(d, d, dist[u]);
            if (!seen[b] || mpq_cmp(d, dist[b]) < 0) {
                mpq_set(dist[b], d);
                seen[b] = 1;
            }
        }
    }
    mpq_clear(d);
    free(done);
    free(seen);
    return 1;
}

/* Does node i keep RR-4872's port rule (one send and one receive at a
 * time)?  Switches do not; a routed platform's hosts only when one-port
 * (docs/model.md, "Routed schedules": multi-port hosts hold no port, only their routes' links, so
 * a port term would not bound SimGrid's time). */
static int one_port(const ssched_platform_t *p, size_t i)
{
    if (p->routes)
        return p->routes->hosts_one_port;
    return !(p->multiport && p->multiport[i]);
}

/* The cheapest c and the cheapest l of node i's out (or in) edges; 0 when
 * it has none or no port rule (its edges are not one resource). */
static int cheapest(const ssched_platform_t *p, size_t i, int out, mpq_t c, mpq_t l)
{
    int any = 0;
    for (size_t e = 0; one_port(p, i) && e < p->n_edges; e++) {
        if ((out ? p->from[e] : p->to[e]) != i)
            continue;
        if (!any || mpq_cmp(p->c[e], c) < 0)
            mpq_set(c, p->c[e]);
        if (!any || mpq_cmp(p->l[e], l) < 0)
            mpq_set(l, p->l[e]);
        any = 1;
    }
    return any;
}

/* The port bound: `count` messages through node i's out (or in) port take
 * at least (cheapest latency) + count * size * (cheapest c of that port). */
static void port_bound(const ssched_platform_t *p, const mpq_t size, size_t i, int out,
                       size_t count, mpq_t lb)
{
    mpq_t best, lat, q;
    mpq_inits(best, lat, q, NULL);
    if (cheapest(p, i, out, best, lat)) {
        mpq_set_ui(q, count, 1);
        mpq_mul(q, q, best);
        mpq_mul(q, q, size);
        mpq_add(q, q, lat);
        if (mpq_cmp(q, lb) > 0)
            mpq_set(lb, q);
    }
    mpq_clears(best, lat, q, NULL);
}

/* A scatter or gossip message o -> d, possibly in pipelined pieces: the
 * latency-only distance dl plus the cheapest bandwidth time through o's
 * out-port or d's in-port, whichever is larger (proof above). */
static void piece_bound(const ssched_platform_t *p, const mpq_t size, size_t o, size_t d,
                        const mpq_t dl, mpq_t lb)
{
    if (mpq_sgn(dl) < 0)
        return; /* unreachable: the problem is refused elsewhere */
    mpq_t co, ci, l, q;
    mpq_inits(co, ci, l, q, NULL);
    int ho = cheapest(p, o, 1, co, l), hi = cheapest(p, d, 0, ci, l);
    mpq_set_ui(q, 0, 1);
    if (ho)
        mpq_set(q, co);
    if (hi && mpq_cmp(ci, q) > 0)
        mpq_set(q, ci);
    mpq_mul(q, q, size);
    mpq_add(q, q, dl);
    if (mpq_cmp(q, lb) > 0)
        mpq_set(lb, q);
    mpq_clears(co, ci, l, q, NULL);
}

ssched_status_t ssched_unroll_lb1(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  mpq_t lb, ssched_error_t *err)
{
    size_t nn = p->n_nodes;
    mpq_set_ui(lb, 0, 1);
    mpq_t *a = ssched_i_alloc(nn, sizeof *a), *b = ssched_i_alloc(nn, sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < nn; v++)
        mpq_inits(a[v], b[v], NULL);
    ssched_status_t st = SSCHED_OK;
    mpq_t best, q;
    mpq_inits(best, q, NULL);
    if (pb->kind == SSCHED_PROBLEM_BROADCAST) {
        /* one message from the source: its shortest path to each target */
        if (pb->n_sources != 1 || !dijkstra(p, pb->size, pb->sources[0], 0, 0, a))
            st = pb->n_sources != 1
                     ? ssched_error_set(err, SSCHED_EINPUT, "broadcast: exactly one source")
                     : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t t = 0; t < pb->n_targets && st == SSCHED_OK; t++)
            if (pb->targets[t] != pb->sources[0] && mpq_cmp(a[pb->targets[t]], lb) > 0)
                mpq_set(lb, a[pb->targets[t]]);
    } else if (pb->kind != SSCHED_PROBLEM_REDUCE && pb->kind != SSCHED_PROBLEM_ALLREDUCE) {
        /* every (origin, target) pair is one message, maybe in pieces */
        for (size_t s = 0; s < pb->n_sources && st == SSCHED_OK; s++) {
            size_t o = pb->sources[s], dests = 0;
            if (!dijkstra(p, pb->size, o, 0, 1, a))
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            for (size_t t = 0; t < pb->n_targets && st == SSCHED_OK; t++) {
                size_t d = pb->targets[t];
                if (d == o)
                    continue;
                dests++;
                piece_bound(p, pb->size, o, d, a[d], lb);
            }
            port_bound(p, pb->size, o, 1, dests, lb);
        }
        for (size_t t = 0; t < pb->n_targets; t++) {
            size_t d = pb->targets[t], origins = 0;
            for (size_t s = 0; s < pb->n_sources; s++)
                origins += pb->sources[s] != d;
            port_bound(p, pb->size, d, 0, origins, lb);
        }
    } else if (pb->n_participants == 1) {
        if (!dijkstra(p, pb->size, pb->target, 1, 0, b))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (mpq_sgn(b[pb->participants[0]]) > 0)
            mpq_set(lb, b[pb->participants[0]]);
    } else {
        /* b: to the target; a: from participant k */
        if (!dijkstra(p, pb->size, pb->target, 1, 0, b))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; k < pb->n_participants && st == SSCHED_OK; k++) {
            if (!dijkstra(p, pb->size, pb->participants[k], 0, 0, a)) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            int any = 0;
            for (size_t x = 0; x < nn; x++) {
                if (!p->has_w[x] || mpq_sgn(a[x]) < 0 || mpq_sgn(b[x]) < 0)
                    continue;
                mpq_add(q, a[x], p->w[x]);
                mpq_add(q, q, b[x]);
                if (!any || mpq_cmp(q, best) < 0)
                    mpq_set(best, q);
                any = 1;
            }
            if (any && mpq_cmp(best, lb) > 0)
                mpq_set(lb, best);
        }
    }
    if (st == SSCHED_OK && pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        /* the result leaves the root (pb->target) only once complete, then
         * reaches every participant along some path */
        mpq_set_ui(best, 0, 1);
        if (!dijkstra(p, pb->size, pb->target, 0, 0, a))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; k < pb->n_participants && st == SSCHED_OK; k++)
            if (mpq_cmp(a[pb->participants[k]], best) > 0)
                mpq_set(best, a[pb->participants[k]]);
        mpq_add(lb, lb, best);
    }
    mpq_clears(best, q, NULL);
    for (size_t v = 0; v < nn; v++)
        mpq_clears(a[v], b[v], NULL);
    free(a);
    free(b);
    return st;
}
