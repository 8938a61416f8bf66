/* Growing an arborescence's copies on shared loads (routed patterns):
 * the join loop and the helper chooser that unroll_ar_gather.c's
 * broadcast part and unroll_pack_reduce_loads.c's ssched_i_sched_pk_grow_arb
 * both run (one parametrised copy; unroll_internal.h, sched_grow_t).
 *
 * Each step joins an unreached participant v from a reached node u,
 * directly or through one relay h not reached yet (u -> h -> v), the
 * candidate of least key: without a latency mode, the busiest touched
 * resource after the step, then the rise of the sum of squared loads; in
 * the latency mode (cap > 0), candidates keeping every touched load within
 * cap first, ranked by the copy's estimated arrival at v (a node's copies
 * leave one at a time: ready, nfree), then the others by load.  Ties keep
 * the first candidate in (u, v, h) order, so the search is deterministic;
 * its floats only guide it (the pattern is recounted exactly). */
#include <math.h>
#include <stdint.h>

#include "schedule/unroll_internal.h"

/* a -> b's message time with latency, in double (latency mode only) */
static double msg_time(const sched_pk_t *k, size_t a, size_t b)
{
    size_t e = k->edge[a * k->n + b];
    return mpq_get_d(k->size) * mpq_get_d(k->p->c[e]) + mpq_get_d(k->p->l[e]);
}

double ssched_i_sched_grow_msg_time(const sched_pk_t *k, size_t a, size_t b)
{
    return msg_time(k, a, b);
}

size_t ssched_i_sched_pk_best_relay(sched_pk_t *k, const unsigned char *helper,
                                    const unsigned char *reached, size_t from,
                                    const unsigned char *fan, sched_touch_t *best)
{
    size_t nn = k->p->n_nodes, bh = SIZE_MAX;
    double b1 = INFINITY, b2 = INFINITY;
    sched_touch_t t;
    for (size_t h = 0; h < nn; h++) {
        if (!helper[h] || (reached && reached[h]))
            continue;
        t.n = 0;
        int ok = ssched_i_sched_pk_touch_edge(k, &t, from, h);
        for (size_t v = 0; ok && fan && v < nn; v++)
            if (fan[v])
                ok = ssched_i_sched_pk_touch_edge(k, &t, h, v);
        if (ok && ssched_i_sched_pk_keep_best(k, &t, &b1, &b2, best))
            bh = h;
    }
    return bh;
}

/* may u forward copies?  (the root: only with root_fwd) */
static int forwards(const sched_grow_t *g, const unsigned char *reached,
                    const unsigned char *part, size_t root, size_t u)
{
    return reached[u] && (!part[u] || g->free_fwd) && (u != root || g->root_fwd);
}

/* may u send through relay h (nn: directly)?  The root's direct copies
 * only with free_fwd: a greedy step cannot see that a direct copy from
 * the root leaves nobody free to forward (unroll_pack_reduce_loads.c). */
static int via(const sched_grow_t *g, const unsigned char *reached, const unsigned char *part,
               size_t nn, size_t root, size_t u, size_t h)
{
    if (h == nn)
        return u != root || g->free_fwd;
    return !reached[h] && (g->helper ? g->helper[h] : !part[h]);
}

int ssched_i_sched_pk_grow_join(sched_pk_t *k, const sched_grow_t *g, unsigned char *reached,
                                const unsigned char *part, size_t root, size_t left,
                                ssched_arborescence_t *a)
{
    size_t nn = k->p->n_nodes;
    double *ready = g->ready, *nfree = g->nfree;
    sched_touch_t t, bt;
    while (left > 0) {
        double b1 = INFINITY, b2 = INFINITY;
        int bover = 2;
        size_t bu = SIZE_MAX, bh = SIZE_MAX, bv = SIZE_MAX;
        for (size_t u = 0; u < nn; u++) {
            if (!forwards(g, reached, part, root, u))
                continue;
            for (size_t v = 0; v < nn; v++) {
                if (!part[v] || reached[v])
                    continue;
                for (size_t h = 0; h <= nn; h++) { /* h = nn: direct */
                    if (!via(g, reached, part, nn, root, u, h))
                        continue;
                    t.n = 0;
                    if (h == nn ? !ssched_i_sched_pk_touch_edge(k, &t, u, v)
                                : !ssched_i_sched_pk_touch_edge(k, &t, u, h) ||
                                      !ssched_i_sched_pk_touch_edge(k, &t, h, v))
                        continue;
                    double s1, s2;
                    ssched_i_sched_pk_score(k, &t, &s1, &s2);
                    int over = 0;
                    if (g->cap > 0) {
                        over = s1 > g->cap * (1 + 1e-9);
                        if (!over) { /* the copy's arrival at v */
                            double go = ready[u] > nfree[u] ? ready[u] : nfree[u];
                            s1 = h == nn ? go + msg_time(k, u, v)
                                         : go + msg_time(k, u, h) + msg_time(k, h, v);
                        }
                    }
                    if (over < bover ||
                        (over == bover && ssched_i_sched_pk_lex_better(s1, s2, b1, b2))) {
                        bover = over;
                        b1 = s1;
                        b2 = s2;
                        bu = u;
                        bh = h;
                        bv = v;
                        bt = t;
                    }
                }
            }
        }
        if (bv == SIZE_MAX)
            return 0;
        ssched_i_sched_pk_add(k, &bt, 1);
        double go = ready ? (ready[bu] > nfree[bu] ? ready[bu] : nfree[bu]) : 0;
        if (bh < nn) {
            a->arcs[a->n_arcs++] = k->edge[bu * nn + bh];
            reached[bh] = 1;
            if (ready) {
                nfree[bu] = go + msg_time(k, bu, bh);
                ready[bh] = nfree[bh] = nfree[bu];
                go = ready[bh];
            }
            bu = bh;
        }
        a->arcs[a->n_arcs++] = k->edge[bu * nn + bv];
        reached[bv] = 1;
        if (ready)
            nfree[bu] = ready[bv] = go + msg_time(k, bu, bv);
        left--;
    }
    return 1;
}

void ssched_i_sched_arcs_by_head(const ssched_platform_t *p, ssched_arborescence_t *a)
{
    /* insertion: a handful of arcs */
    for (size_t i = 1; i < a->n_arcs; i++)
        for (size_t j = i; j > 0 && p->to[a->arcs[j - 1]] > p->to[a->arcs[j]]; j--) {
            size_t x = a->arcs[j];
            a->arcs[j] = a->arcs[j - 1];
            a->arcs[j - 1] = x;
        }
}
