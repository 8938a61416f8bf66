/* Loads for the spread reduce patterns (unroll_pack_reduce.c): edges'
 * usage in double (searching only), a touched-resources set, the
 * reservations of messages every operation surely costs, and the
 * all-reduce's arborescences grown on the same loads (issue 23). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* Edge e's usage, sparse in double (from ssched_i_sched_edge_usage). */
int ssched_i_sched_pk_edge_use(sched_pk_t *k, size_t e)
{
    if (k->ures[e])
        return 1;
    const ssched_platform_t *p = k->p;
    size_t n = p->n_nodes, idx[4096], c = 0;
    ssched_i_sched_edge_usage(p, e, k->size, k->scratch);
    idx[c++] = p->from[e];
    idx[c++] = n + p->to[e];
    idx[c++] = 3 * n + e;
    if (p->routes)
        for (size_t r = p->routes->route_start[e];
             r < p->routes->route_start[e + 1] && c < 4096; r++)
            idx[c++] = 3 * n + p->n_edges + p->routes->route_links[r];
    k->ures[e] = ssched_i_alloc(c, sizeof **k->ures);
    k->uval[e] = ssched_i_alloc(c, sizeof **k->uval);
    if (!k->ures[e] || !k->uval[e])
        return 0;
    size_t z = 0;
    for (size_t i = 0; i < c; i++)
        if (mpq_sgn(k->scratch[idx[i]]) != 0) {
            k->ures[e][z] = idx[i];
            k->uval[e][z++] = mpq_get_d(k->scratch[idx[i]]);
            mpq_set_ui(k->scratch[idx[i]], 0, 1);
        }
    k->nu[e] = z;
    return 1;
}

/* Touched resources of one option (small, deduplicated). */
void ssched_i_sched_pk_touch(sched_touch_t *t, size_t r, double v)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->res[i] == r) {
            t->add[i] += v;
            return;
        }
    if (t->n < 64) {
        t->res[t->n] = r;
        t->add[t->n++] = v;
    }
}

int ssched_i_sched_pk_touch_edge(sched_pk_t *k, sched_touch_t *t, size_t a, size_t b)
{
    if (a == b)
        return 1;
    size_t e = k->edge[a * k->n + b];
    if (e == SIZE_MAX || !ssched_i_sched_pk_edge_use(k, e))
        return 0;
    for (size_t i = 0; i < k->nu[e]; i++)
        ssched_i_sched_pk_touch(t, k->ures[e][i], k->uval[e][i]);
    return 1;
}

/* Grow one tree on k->load (updated) into tr; 0 on ENOMEM or no route. */

/* The resources every edge into (out = 0) or out of (out = 1) node
 * crosses, each with its least use: what one message there surely takes.
 * 0 on ENOMEM. */
int ssched_i_sched_pk_reserve(sched_pk_t *k, size_t node, int out, sched_touch_t *r)
{
    const ssched_platform_t *p = k->p;
    int first = 1;
    r->n = 0;
    for (size_t e = 0; e < p->n_edges; e++) {
        if ((out ? p->from[e] : p->to[e]) != node || p->from[e] == p->to[e])
            continue;
        if (!ssched_i_sched_pk_edge_use(k, e))
            return 0;
        if (first) {
            first = 0;
            for (size_t i = 0; i < k->nu[e]; i++)
                ssched_i_sched_pk_touch(r, k->ures[e][i], k->uval[e][i]);
            continue;
        }
        for (size_t x = 0; x < r->n;) { /* keep the common ones, least use */
            size_t i = 0;
            while (i < k->nu[e] && k->ures[e][i] != r->res[x])
                i++;
            if (i == k->nu[e]) {
                r->res[x] = r->res[r->n - 1];
                r->add[x] = r->add[--r->n];
                continue;
            }
            if (k->uval[e][i] < r->add[x])
                r->add[x] = k->uval[e][i];
            x++;
        }
        if (r->n == 0)
            break;
    }
    return 1;
}

/* Adding t: the busiest load it touches after (*max) and the rise of the
 * sum of squared loads (*sq), the search's two criteria. */
void ssched_i_sched_pk_score(const sched_pk_t *k, const sched_touch_t *t, double *max, double *sq)
{
    double s1 = 0, s2 = 0;
    for (size_t x = 0; x < t->n; x++) {
        double o = k->load[t->res[x]], nw = o + t->add[x];
        if (nw > s1)
            s1 = nw;
        s2 += nw * nw - o * o;
    }
    *max = s1;
    *sq = s2;
}

void ssched_i_sched_pk_add(sched_pk_t *k, const sched_touch_t *t, double f)
{
    for (size_t x = 0; x < t->n; x++)
        k->load[t->res[x]] += f * t->add[x];
}

/* Grow one arborescence from root to the participants on k->load
 * (updated): each step joins an unreached participant v, directly from a
 * reached node u (the root or a helper) or through a helper h not
 * reached yet (u -> h -> v),
 * whichever keeps the busiest touched resource least busy (ties: the
 * least sum of squared loads).  Arcs sorted by head node.  0 on ENOMEM. */
int ssched_i_sched_pk_grow_arb(sched_pk_t *k, const ssched_problem_t *pb, size_t root,
                               int free_fwd, ssched_arborescence_t *a)
{
    const ssched_platform_t *p = k->p;
    size_t nn = p->n_nodes;
    unsigned char *reached = ssched_i_calloc(nn, 1), *part = ssched_i_calloc(nn, 1);
    a->arcs = ssched_i_alloc(2 * pb->n_participants + 2, sizeof *a->arcs);
    a->n_arcs = 0;
    int ok = reached && part && a->arcs;
    size_t left = 0;
    for (size_t j = 0; ok && j < pb->n_participants; j++)
        if (pb->participants[j] != root && !part[pb->participants[j]]) {
            part[pb->participants[j]] = 1;
            left++;
        }
    if (ok)
        reached[root] = 1;
    /* the join loop shared with the gathered all-reduce's copies
     * (unroll_arb_grow.c): any non-participant relays, the root forwards */
    sched_grow_t g = {NULL, free_fwd, 1, 0, NULL, NULL};
    ok = ok && ssched_i_sched_pk_grow_join(k, &g, reached, part, root, left, a);
    if (ok)
        ssched_i_sched_arcs_by_head(p, a);
    free(reached);
    free(part);
    return ok;
}

