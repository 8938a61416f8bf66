/* Pricing for the commutative reduce (colgen_comm.h): the cheapest
 * reduction in-tree under per-edge message costs and per-node merge costs.
 *
 * The template lp/colgen_comm_price.inc is compiled for doubles (the float
 * phase: candidate trees, floating-point Chu-Liu/Edmonds of
 * lp/colgen_comm_arb.c) and for exact rationals (the certifying pass: every
 * bound below is exact).  Shortest platform paths from every sending
 * vertex (Dijkstra), then minimum-cost
 * arborescences of the auxiliary vertices (ssched_arborescence_min_cost on
 * the reversed arcs, rooted at the root vertex):
 *  - P + root: the optional merge points only forward (inside paths).  This
 *    is the exact optimum when there is no optional merge point.
 *  - P + root + every optional merge point o, each with a dummy arc
 *    o -> root costing w(o)*pi_cpu(o) (o unused): a LOWER BOUND on every
 *    tree's cost.  Proof: extend the optimal tree T* by the dummy arcs of
 *    the points it does not use; the arborescence costs cost(T*) + sum over
 *    all points of w*pi (each point's first input is charged a merge too,
 *    and the dummy arcs charge the unused ones), which the correction
 *    -sum w*pi cancels; the minimum is at most that.  Its internal points
 *    seed a candidate tree (heuristic).
 *  - greedy insertion of single points into the best candidate's set.
 *  - exact: branch and bound over the points (n_opt <= CGC_EXACT_OPT in
 *    play, lp/colgen_comm_bb.inc), the heuristics' tree as its first
 *    incumbent; run to the end it returns a cheapest tree, whose cost is
 *    then the lower bound.  (A plain enumeration of the subsets S was not
 *    exact: the arborescence of S may leave a point of S as a leaf, and
 *    its correction rewards a merge that never happens.)
 * The lower bound is the larger of those computed; the tree is proven
 * cheapest when its exact cost equals it.  A point left without input in
 * a candidate is pruned (it would send nothing) and the cost recomputed
 * from the tree itself, so every returned cost is a real tree's. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "lp/internal.h"
#include "src/util/internal.h"

#define NONE SIZE_MAX

void ssched_i_cgc_tree_free(cgc_tree_t *t)
{
    free(t->parent);
    free(t->off);
    free(t->edges);
    memset(t, 0, sizeof *t);
}

/* Merges of a vertex of kind `kind` with k children. */
static size_t merges_of(unsigned char kind, size_t k)
{
    switch ((cgc_kind_t)kind) {
    case CGC_PART: return k;
    case CGC_OPT:
    case CGC_ROOT_FREE: return k ? k - 1 : 0;
    default: return 0;
    }
}

size_t ssched_i_cgc_merges(const cgc_graph_t *g, const cgc_tree_t *t, size_t v)
{
    size_t k = 0;
    for (size_t u = 0; u < t->nv; u++)
        k += t->parent[u] == v;
    return merges_of(g->kind[v], k);
}

int ssched_i_cgc_merges_all(const cgc_graph_t *g, const cgc_tree_t *t, size_t *mg)
{
    size_t *kids = calloc(t->nv ? t->nv : 1, sizeof *kids);
    if (!kids)
        return 0;
    for (size_t u = 0; u < t->nv; u++)
        if (t->parent[u] != NONE)
            kids[t->parent[u]]++;
    for (size_t v = 0; v < t->nv; v++)
        mg[v] = merges_of(g->kind[v], kids[v]);
    free(kids);
    return 1;
}

/* Does vertex v merge each of its inputs (so an arc into it is charged a
 * merge)?  The first-input-free kinds are corrected once afterwards. */
static int charges_merge(const cgc_graph_t *g, size_t v)
{
    return g->kind[v] == CGC_PART || g->kind[v] == CGC_OPT || g->kind[v] == CGC_ROOT_FREE;
}

/* Tree from parent[] (paths from the shortest-path trees): 1, or -1. */
static int make_tree(const cgc_graph_t *g, const size_t *pred, const size_t *pos,
                     const size_t *parent, cgc_tree_t *t)
{
    size_t nv = g->nv, n = g->n, total = 0;
    for (size_t u = 0; u < nv; u++)
        for (size_t x = parent[u] == NONE ? g->node[u] : g->node[parent[u]]; x != g->node[u];
             x = g->p->from[pred[pos[u] * n + x]])
            total++;
    t->nv = nv;
    t->parent = malloc(nv * sizeof *t->parent);
    t->off = malloc((nv + 1) * sizeof *t->off);
    t->edges = ssched_i_alloc(total, sizeof *t->edges);
    if (!t->parent || !t->off || !t->edges) {
        ssched_i_cgc_tree_free(t);
        return -1;
    }
    memcpy(t->parent, parent, nv * sizeof *parent);
    size_t k = 0;
    for (size_t u = 0; u < nv; u++) {
        t->off[u] = k;
        if (parent[u] == NONE)
            continue;
        size_t len = 0;
        for (size_t x = g->node[parent[u]]; x != g->node[u]; x = g->p->from[pred[pos[u] * n + x]])
            len++;
        size_t x = g->node[parent[u]];
        for (size_t j = len; j-- > 0; x = g->p->from[pred[pos[u] * n + x]])
            t->edges[k + j] = pred[pos[u] * n + x];
        k += len;
    }
    t->off[nv] = k;
    return 1;
}


/* The minimum arborescence of arcs from -> to (exact): chosen[] flags,
 * weight its cost. */
static ssched_status_t min_arb_q(size_t nv, size_t m, const size_t *from, const size_t *to,
                                 const mpq_t *cost, size_t root, const unsigned char *req,
                                 unsigned char *chosen, mpq_ptr weight, int *found,
                                 ssched_error_t *err)
{
    ssched_arborescence_t arb;
    ssched_arborescence_init(&arb);
    ssched_status_t st = ssched_arborescence_min_cost(nv, m, from, to, cost, root, req, found,
                                                      &arb, err);
    memset(chosen, 0, m);
    for (size_t k = 0; st == SSCHED_OK && *found && k < arb.n_arcs; k++)
        chosen[arb.arcs[k]] = 1;
    mpq_set(weight, arb.weight);
    ssched_arborescence_free(&arb);
    return st;
}

/* The same in doubles (lp/colgen_comm_arb.c): a candidate only. */
static ssched_status_t min_arb_d(size_t nv, size_t m, const size_t *from, const size_t *to,
                                 const double *cost, size_t root, const unsigned char *req,
                                 unsigned char *chosen, double *weight, int *found,
                                 ssched_error_t *err)
{
    int r = ssched_i_cgc_min_arb_d(nv, m, from, to, cost, root, req, chosen);
    *found = r == 1;
    *weight = 0;
    for (size_t a = 0; r == 1 && a < m; a++)
        if (chosen[a])
            *weight += cost[a];
    return r < 0 ? ssched_error_set(err, SSCHED_ENOMEM, "out of memory") : SSCHED_OK;
}

/* A node of the exact pricing's branch and bound (lp/colgen_comm_bb.inc):
 * per vertex the status of a point and a fixed parent (NONE: free), per
 * pair of vertices in play (child index * na + parent index) a ban. */
enum { CGC_BB_FREE, CGC_BB_OUT, CGC_BB_IN };

typedef struct {
    unsigned char *state;
    size_t *fixpar;
    unsigned char *ban;
} cgc_bb_t;

static void cgc_bb_free(cgc_bb_t *k)
{
    free(k->state);
    free(k->fixpar);
    free(k->ban);
    free(k);
}

/* ---- doubles: the float phase's candidates ---- */
#define CG_NUM_DOUBLE
#include "lp/colgen_num.h"
#include "lp/colgen_comm_price.inc"
#undef CG_NUM_DOUBLE

/* ---- exact rationals: the certificate ---- */
#define CG_NUM_MPQ
#include "lp/colgen_num.h"
#include "lp/colgen_comm_price.inc"
#undef CG_NUM_MPQ

int ssched_i_cgc_price(const cgc_graph_t *g, const mpq_t *ecost, const mpq_t *mcost, int exact,
              cgc_tree_t *tree, mpq_ptr cost, mpq_ptr lower, int *proven,
              ssched_status_t *status, ssched_error_t *err)
{
    long nodes;
    return price_q(g, ecost, mcost, exact, CGC_BB_NODES, &nodes, tree, cost, lower, proven, status,
                   err);
}

/* The price of one message over e: the duals of the rows e uses. */
static double edge_price_d(const cgc_graph_t *g, const cg_prices_d *y, size_t e)
{
    size_t i = g->p->from[e], j = g->p->to[e];
    if (g->p->routes) /* every resource of the route at its own time (the
                       * caller multiplies by sc[e] = size*c(e)) */
        return ssched_i_edge_price_d(g->p, e, g->pb->size, y->out, y->in, y->link) /
               mpq_get_d(g->sc[e]);
    return (cg_is_switch(g->p, i) ? 0.0 : y->out[i]) + (cg_is_switch(g->p, j) ? 0.0 : y->in[j]) +
           (cg_is_switch(g->p, i) || cg_is_switch(g->p, j) ? y->link[e] : 0.0);
}

int ssched_i_cgc_price_d(const cgc_graph_t *g, const cg_prices_d *y, int exact, cgc_tree_t *tree,
                double *cost, ssched_status_t *status, ssched_error_t *err)
{
    size_t ne = g->ne, n = g->n;
    double *ed = ssched_i_alloc(ne, sizeof *ed), *md = malloc(n * sizeof *md);
    int r = -1;
    if (ed && md) {
        for (size_t e = 0; e < ne; e++)
            ed[e] = edge_price_d(g, y, e) * mpq_get_d(g->sc[e]);
        for (size_t v = 0; v < n; v++)
            md[v] = g->p->has_w[v] ? y->cpu[v] * mpq_get_d(g->p->w[v]) : 0.0;
        double lower;
        int proven;
        long nodes;
        r = price_d(g, ed, md, exact, CGC_BB_NODES_FLOAT, &nodes, tree, cost, &lower, &proven,
                    status, err);
    } else {
        *status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    free(ed);
    free(md);
    return r;
}

double ssched_i_cgc_tree_cost_d(const cgc_graph_t *g, const cg_prices_d *y, const cgc_tree_t *t,
                                size_t *mg)
{
    double cost = 0;
    for (size_t k = 0; k < t->off[t->nv]; k++)
        cost += edge_price_d(g, y, t->edges[k]) * mpq_get_d(g->sc[t->edges[k]]);
    if (!ssched_i_cgc_merges_all(g, t, mg))
        return NAN;
    for (size_t v = 0; v < t->nv; v++)
        if (mg[v] && g->p->has_w[g->node[v]])
            cost += (double)mg[v] * y->cpu[g->node[v]] * mpq_get_d(g->p->w[g->node[v]]);
    return cost;
}

int ssched_i_cgc_price_q(const cgc_graph_t *g, const cg_prices_q *y, int exact, cgc_tree_t *tree,
                mpq_ptr cost, mpq_ptr lower, int *proven, ssched_status_t *status,
                ssched_error_t *err)
{
    size_t ne = g->ne, n = g->n;
    mpq_t *eq = ssched_i_mpq_vec_new(ne), *mq = ssched_i_mpq_vec_new(n);
    int r = -1;
    if (eq && mq) {
        for (size_t e = 0; e < ne; e++) {
            size_t i = g->p->from[e], j = g->p->to[e];
            if (g->p->routes) {
                ssched_i_edge_price_q(g->p, e, g->pb->size, (const mpq_t *)y->out,
                                      (const mpq_t *)y->in, (const mpq_t *)y->link, eq[e]);
                continue;
            }
            if (!cg_is_switch(g->p, i))
                mpq_add(eq[e], eq[e], y->out[i]);
            if (!cg_is_switch(g->p, j))
                mpq_add(eq[e], eq[e], y->in[j]);
            if (cg_is_switch(g->p, i) || cg_is_switch(g->p, j))
                mpq_add(eq[e], eq[e], y->link[e]);
            mpq_mul(eq[e], eq[e], g->sc[e]);
        }
        for (size_t v = 0; v < n; v++)
            if (g->p->has_w[v])
                mpq_mul(mq[v], y->cpu[v], g->p->w[v]);
        long nodes;
        r = price_q(g, (const mpq_t *)eq, (const mpq_t *)mq, exact, CGC_BB_NODES, &nodes, tree,
                    cost, lower, proven,
                    status, err);
    } else {
        *status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    ssched_i_mpq_vec_free(eq, ne);
    ssched_i_mpq_vec_free(mq, n);
    return r;
}
