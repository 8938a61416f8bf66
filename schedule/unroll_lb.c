/* LB1, a lower bound on the time of one operation (schedule.h:
 * ssched_unroll_lb1), from exact shortest paths. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

/* Exact Dijkstra with transfer times size*c; dist[v] < 0 is "unreached".
 * reverse: distances to `src` instead of from it.  O(n^2): platforms are
 * small next to the schedules built on them. */
static int dijkstra(const ssched_platform_t *p, const mpq_t size, size_t src, int reverse,
                    mpq_t *dist)
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
            mpq_mul(d, p->c[e], size);
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

/* The port bound: `count` messages through node i's out (or in) port take
 * at least count * size * (cheapest link of that port). */
static void port_bound(const ssched_platform_t *p, const mpq_t size, size_t i, int out,
                       size_t count, mpq_t lb)
{
    mpq_t best, q;
    mpq_inits(best, q, NULL);
    int any = 0;
    for (size_t e = 0; e < p->n_edges; e++)
        if ((out ? p->from[e] : p->to[e]) == i && (!any || mpq_cmp(p->c[e], best) < 0)) {
            mpq_set(best, p->c[e]);
            any = 1;
        }
    if (any) {
        mpq_set_ui(q, count, 1);
        mpq_mul(q, q, best);
        mpq_mul(q, q, size);
        if (mpq_cmp(q, lb) > 0)
            mpq_set(lb, q);
    }
    mpq_clears(best, q, NULL);
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
        if (pb->n_sources != 1 || !dijkstra(p, pb->size, pb->sources[0], 0, a))
            st = pb->n_sources != 1
                     ? ssched_error_set(err, SSCHED_EINPUT, "broadcast: exactly one source")
                     : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t t = 0; t < pb->n_targets && st == SSCHED_OK; t++)
            if (pb->targets[t] != pb->sources[0] && mpq_cmp(a[pb->targets[t]], lb) > 0)
                mpq_set(lb, a[pb->targets[t]]);
    } else if (pb->kind != SSCHED_PROBLEM_REDUCE && pb->kind != SSCHED_PROBLEM_ALLREDUCE) {
        /* every (origin, target) pair is one message */
        for (size_t s = 0; s < pb->n_sources && st == SSCHED_OK; s++) {
            size_t o = pb->sources[s], dests = 0;
            if (!dijkstra(p, pb->size, o, 0, a))
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            for (size_t t = 0; t < pb->n_targets && st == SSCHED_OK; t++) {
                size_t d = pb->targets[t];
                if (d == o)
                    continue;
                dests++;
                if (mpq_cmp(a[d], lb) > 0)
                    mpq_set(lb, a[d]);
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
        if (!dijkstra(p, pb->size, pb->target, 1, b))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (mpq_sgn(b[pb->participants[0]]) > 0)
            mpq_set(lb, b[pb->participants[0]]);
    } else {
        /* b: to the target; a: from participant k */
        if (!dijkstra(p, pb->size, pb->target, 1, b))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; k < pb->n_participants && st == SSCHED_OK; k++) {
            if (!dijkstra(p, pb->size, pb->participants[k], 0, a)) {
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
        if (!dijkstra(p, pb->size, pb->target, 0, a))
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
