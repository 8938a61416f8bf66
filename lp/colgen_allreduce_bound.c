/* Farley's bound for the all-reduce master (lp/colgen_allreduce.h) and the
 * lower bound on every arborescence's cost it needs when the Steiner
 * pricing is heuristic. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* The farthest target by shortest path from the root (Dijkstra, O(n E):
 * the graphs are small): an arborescence holds a path to every target.
 * 0 if some target is unreachable. */
static int farthest(const car_master_t *m, const mpq_t *cost, mpq_t *d, unsigned char *have,
                    mpq_ptr out)
{
    const ssched_platform_t *p = m->r.p;
    size_t n = p->n_nodes;
    unsigned char *done = ssched_i_calloc(n, 1);
    if (!done)
        return 0;
    memset(have, 0, n);
    have[m->b.g.root] = 1;
    mpq_set_ui(d[m->b.g.root], 0, 1);
    for (;;) {
        size_t u = SIZE_MAX;
        for (size_t v = 0; v < n; v++)
            if (have[v] && !done[v] && (u == SIZE_MAX || mpq_cmp(d[v], d[u]) < 0))
                u = v;
        if (u == SIZE_MAX)
            break;
        done[u] = 1;
        for (size_t e = 0; e < p->n_edges; e++) {
            size_t v = p->to[e];
            if (p->from[e] != u || done[v])
                continue;
            mpq_add(out, d[u], cost[e]);
            if (!have[v] || mpq_cmp(out, d[v]) < 0) {
                mpq_set(d[v], out);
                have[v] = 1;
            }
        }
    }
    free(done);
    int ok = 1;
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k < m->bc.n_targets && ok; k++) {
        size_t t = m->bc.targets[k];
        ok = have[t];
        if (ok && mpq_cmp(d[t], out) > 0)
            mpq_set(out, d[t]);
    }
    return ok;
}

/* Wong's dual ascent (1984) for the directed Steiner problem: while some
 * target's component (the nodes reaching it by arcs of reduced cost 0)
 * does not hold the root, raise that cut's dual by the cheapest reduced
 * cost of the arcs entering it and lower those arcs' reduced costs by as
 * much.  The duals are a feasible packing of cuts each arborescence
 * crosses, so their sum is a lower bound on its cost.  rc: per-edge
 * scratch, in: per-node scratch.  0 if some target cannot be reached. */
static int dual_ascent(const car_master_t *m, const mpq_t *cost, mpq_t *rc, unsigned char *in,
                       size_t *queue, mpq_ptr out)
{
    const ssched_platform_t *p = m->r.p;
    size_t n = p->n_nodes, ne = p->n_edges;
    for (size_t e = 0; e < ne; e++)
        mpq_set(rc[e], cost[e]);
    mpq_set_ui(out, 0, 1);
    mpq_t delta;
    mpq_init(delta);
    int ok = 1;
    for (size_t k = 0; k < m->bc.n_targets && ok;) {
        /* the component of target k: reverse search along zero arcs */
        memset(in, 0, n);
        size_t head = 0, tail = 0, t = m->bc.targets[k];
        in[t] = 1;
        queue[tail++] = t;
        while (head < tail) {
            size_t v = queue[head++];
            for (size_t e = 0; e < ne; e++)
                if (p->to[e] == v && !in[p->from[e]] && mpq_sgn(rc[e]) == 0) {
                    in[p->from[e]] = 1;
                    queue[tail++] = p->from[e];
                }
        }
        if (in[m->b.g.root]) {
            k++; /* connected: the next target */
            continue;
        }
        int any = 0;
        for (size_t e = 0; e < ne; e++)
            if (in[p->to[e]] && !in[p->from[e]] && (!any || mpq_cmp(rc[e], delta) < 0)) {
                mpq_set(delta, rc[e]);
                any = 1;
            }
        ok = any;
        if (!ok)
            break;
        mpq_add(out, out, delta);
        for (size_t e = 0; e < ne; e++)
            if (in[p->to[e]] && !in[p->from[e]])
                mpq_sub(rc[e], rc[e], delta);
    }
    mpq_clear(delta);
    return ok;
}

/* A lower bound on every arborescence's cost: the larger of the two. */
int ssched_i_car_arb_lower(const car_master_t *m, const mpq_t *cost, mpq_ptr out)
{
    size_t n = m->r.p->n_nodes, ne = m->r.p->n_edges;
    mpq_t *d = ssched_i_mpq_vec_new(n), *rc = ssched_i_mpq_vec_new(ne);
    unsigned char *mark = ssched_i_alloc(n, 1);
    size_t *queue = ssched_i_alloc(n, sizeof *queue);
    mpq_t da;
    mpq_init(da);
    int ok = d && rc && mark && queue && farthest(m, cost, d, mark, out) &&
             dual_ascent(m, cost, rc, mark, queue, da);
    if (ok && mpq_cmp(da, out) > 0)
        mpq_set(out, da);
    mpq_clear(da);
    for (size_t v = 0; d && v < n; v++)
        mpq_clear(d[v]);
    for (size_t e = 0; rc && e < ne; e++)
        mpq_clear(rc[e]);
    free(d);
    free(rc);
    free(mark);
    free(queue);
    return ok;
}

int ssched_i_car_farley_bound(const car_master_t *m, const mpq_t *y, const mpq_t *cost, int tree_proven,
                     mpq_srcptr tree_lower, int arb_exact, mpq_srcptr z, mpq_ptr out)
{
    mpq_t sr, sb, lb;
    mpq_inits(sr, sb, lb, NULL);
    mpq_set(sr, y[m->row_r]);
    mpq_set(sb, y[m->row_b]);
    int ok = 1;
    if (!tree_proven && mpq_cmp(tree_lower, sr) < 0)
        mpq_set(sr, mpq_sgn(tree_lower) > 0 ? tree_lower : lb); /* lb is 0 here */
    if (!arb_exact && (ok = ssched_i_car_arb_lower(m, cost, lb)) && mpq_cmp(lb, sb) < 0)
        mpq_set(sb, lb);
    mpq_add(lb, sr, sb);
    ok = ok && mpq_sgn(lb) > 0;
    if (ok)
        mpq_div(out, z, lb);
    mpq_clears(sr, sb, lb, NULL);
    return ok;
}
