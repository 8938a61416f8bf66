/* Pricing for broadcast column generation (colgen_bcast.h): the cheapest
 * arborescence from the source reaching every target under per-edge
 * costs.  Spanning case: Chu-Liu/Edmonds, exact.  Steiner case (some
 * reachable nodes are not targets): the minimum-cost spanning arborescence
 * pruned of its non-target leaves, and the shortest-path tree to the
 * targets, the cheaper of the two; exactly, by enumerating the relay
 * subsets S and taking the cheapest arborescence of the subgraph induced by
 * root + targets + S (the optimal Steiner arborescence spans exactly its
 * own node set, so its S is among those tried). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_bcast.h"
#include "src/util/internal.h"

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

void ssched_i_cgb_column_cost(const cgb_column_t *c, const mpq_t *cost, mpq_ptr out)
{
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k < c->n_arcs; k++)
        mpq_add(out, out, cost[c->arcs[k]]);
}

/* Drop non-target leaves until none is left: with costs >= 0 this never
 * makes a column dearer, and a leaf that is no target carries nothing. */
static void prune(const cgb_graph_t *g, size_t *arcs, size_t *n_arcs, size_t *outdeg,
                  size_t *in_arc)
{
    const ssched_platform_t *p = g->p;
    for (size_t i = 0; i < g->n; i++) {
        outdeg[i] = 0;
        in_arc[i] = SIZE_MAX;
    }
    for (size_t k = 0; k < *n_arcs; k++) {
        outdeg[p->from[arcs[k]]]++;
        in_arc[p->to[arcs[k]]] = arcs[k];
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (size_t v = 0; v < g->n; v++)
            if (in_arc[v] != SIZE_MAX && !outdeg[v] && !g->target[v]) {
                outdeg[p->from[in_arc[v]]]--;
                in_arc[v] = SIZE_MAX;
                changed = 1;
            }
    }
    size_t k = 0;
    for (size_t v = 0; v < g->n; v++)
        if (in_arc[v] != SIZE_MAX)
            arcs[k++] = in_arc[v];
    *n_arcs = k;
    qsort(arcs, k, sizeof *arcs, cmp_size);
}

/* Minimum-cost arborescence on the arcs kept[] (all edges if NULL),
 * reaching every target; pruned (Steiner case).  1 found, 0 not, -1 err. */
static int min_arb(const cgb_graph_t *g, const mpq_t *cost, size_t m, const size_t *from,
                   const size_t *to, const size_t *edge, cgb_column_t *col, size_t *work,
                   ssched_status_t *status, ssched_error_t *err)
{
    ssched_arborescence_t a;
    ssched_arborescence_init(&a);
    int found = 0;
    ssched_status_t st = ssched_arborescence_min_cost(g->n, m, from, to, cost, g->root, g->target,
                                                      &found, &a, err);
    int r = st != SSCHED_OK ? -1 : found;
    *status = st;
    if (r == 1) {
        col->arcs = ssched_i_alloc(a.n_arcs, sizeof *col->arcs);
        if (!col->arcs) {
            r = -1;
            *status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        } else {
            col->n_arcs = a.n_arcs;
            for (size_t k = 0; k < a.n_arcs; k++)
                col->arcs[k] = edge ? edge[a.arcs[k]] : a.arcs[k];
            prune(g, col->arcs, &col->n_arcs, work, work + g->n);
        }
    }
    ssched_arborescence_free(&a);
    return r;
}

/* Shortest-path tree from the root (Dijkstra in doubles: a heuristic, the
 * column's cost is recomputed exactly), restricted to the targets' paths.
 * 1 found, 0 a target unreachable, -1 ENOMEM. */
static int sp_tree(const cgb_graph_t *g, const mpq_t *cost, cgb_column_t *col, size_t *work)
{
    const ssched_platform_t *p = g->p;
    size_t n = g->n;
    double *d = malloc(n * sizeof *d), *c = ssched_i_alloc(g->ne, sizeof *c);
    size_t *par = malloc(n * sizeof *par);
    unsigned char *done = calloc(n, 1), *used = calloc(n, 1);
    int r = d && c && par && done && used ? 1 : -1;
    for (size_t e = 0; r == 1 && e < g->ne; e++)
        c[e] = mpq_get_d(cost[e]);
    for (size_t i = 0; r == 1 && i < n; i++) {
        d[i] = INFINITY;
        par[i] = SIZE_MAX;
    }
    if (r == 1)
        d[g->root] = 0;
    /* O(n^2 + n m): the platforms priced this way are small or sparse */
    for (size_t it = 0; r == 1 && it < n; it++) {
        size_t u = SIZE_MAX;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && isfinite(d[i]) && (u == SIZE_MAX || d[i] < d[u]))
                u = i;
        if (u == SIZE_MAX)
            break;
        done[u] = 1;
        for (size_t e = 0; e < g->ne; e++)
            if (p->from[e] == u && p->to[e] != g->root && !done[p->to[e]] &&
                d[u] + c[e] < d[p->to[e]]) {
                d[p->to[e]] = d[u] + c[e];
                par[p->to[e]] = e;
            }
    }
    size_t k = 0;
    if (r == 1 && !(col->arcs = malloc(n * sizeof *col->arcs)))
        r = -1;
    for (size_t t = 0; r == 1 && t < n; t++) {
        if (!g->target[t])
            continue;
        if (par[t] == SIZE_MAX) {
            r = 0;
            break;
        }
        for (size_t v = t; v != g->root && !used[v]; v = p->from[par[v]]) {
            used[v] = 1;
            col->arcs[k++] = par[v];
        }
    }
    col->n_arcs = k;
    if (r == 1)
        prune(g, col->arcs, &col->n_arcs, work, work + n);
    else {
        free(col->arcs);
        col->arcs = NULL;
        col->n_arcs = 0;
    }
    free(d);
    free(c);
    free(par);
    free(done);
    free(used);
    return r;
}

/* Keep the cheaper of *best (cost bc, may be empty) and cand (cost cc). */
static void keep_best(cgb_column_t *best, mpq_ptr bc, int *have, cgb_column_t *cand, mpq_ptr cc)
{
    if (!*have || mpq_cmp(cc, bc) < 0) {
        free(best->arcs);
        *best = *cand;
        mpq_set(bc, cc);
        *have = 1;
    } else {
        free(cand->arcs);
    }
    cand->arcs = NULL;
    cand->n_arcs = 0;
}

/* Exact Steiner pricing: every relay subset (n_relays <= CGB_EXACT_RELAYS). */
static int steiner_exact(const cgb_graph_t *g, const mpq_t *cost, cgb_column_t *best, mpq_ptr bc,
                         int *have, size_t *work, ssched_status_t *status, ssched_error_t *err)
{
    const ssched_platform_t *p = g->p;
    size_t *from = ssched_i_alloc(3 * g->ne, sizeof *from);
    mpq_t *sub = ssched_i_mpq_vec_new(g->ne);
    unsigned char *in = malloc(g->n);
    if (!from || !sub || !in) {
        free(from);
        ssched_i_mpq_vec_free(sub, g->ne);
        free(in);
        *status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    size_t *to = from + g->ne, *edge = to + g->ne;
    mpq_t cc;
    mpq_init(cc);
    int r = 0;
    for (size_t mask = 0; mask < (1ul << g->n_relays) && r >= 0; mask++) {
        for (size_t i = 0; i < g->n; i++)
            in[i] = i == g->root || g->target[i];
        for (size_t k = 0; k < g->n_relays; k++)
            if (mask >> k & 1)
                in[g->relays[k]] = 1;
        size_t m = 0;
        for (size_t e = 0; e < g->ne; e++)
            if (in[p->from[e]] && in[p->to[e]]) {
                from[m] = p->from[e];
                to[m] = p->to[e];
                edge[m] = e;
                mpq_set(sub[m++], cost[e]);
            }
        cgb_column_t cand = {0, NULL};
        int f = min_arb(g, (const mpq_t *)sub, m, from, to, edge, &cand, work, status, err);
        if (f < 0)
            r = -1;
        else if (f == 1) {
            ssched_i_cgb_column_cost(&cand, cost, cc);
            keep_best(best, bc, have, &cand, cc);
            r = 1;
        }
    }
    mpq_clear(cc);
    ssched_i_mpq_vec_free(sub, g->ne);
    free(from);
    free(in);
    return r;
}

int ssched_i_cgb_price(const cgb_graph_t *g, const mpq_t *cost, int exact, cgb_column_t *col,
              mpq_ptr col_cost, ssched_status_t *status, ssched_error_t *err)
{
    *status = SSCHED_OK;
    size_t *work = malloc(2 * g->n * sizeof *work);
    if (!work) {
        *status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    col->n_arcs = 0;
    col->arcs = NULL;
    int have = 0, r;
    mpq_t cc;
    mpq_init(cc);
    cgb_column_t cand = {0, NULL};
    r = min_arb(g, cost, g->ne, g->p->from, g->p->to, NULL, &cand, work, status, err);
    if (r == 1) {
        ssched_i_cgb_column_cost(&cand, cost, cc);
        keep_best(col, col_cost, &have, &cand, cc);
    }
    if (r == 1 && !g->all) {
        r = sp_tree(g, cost, &cand, work);
        if (r < 0)
            *status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        if (r == 1) {
            ssched_i_cgb_column_cost(&cand, cost, cc);
            keep_best(col, col_cost, &have, &cand, cc);
        }
        if (r == 1 && exact)
            r = steiner_exact(g, cost, col, col_cost, &have, work, status, err) < 0 ? -1 : 1;
    }
    mpq_clear(cc);
    free(work);
    if (r != 1) {
        free(col->arcs);
        col->arcs = NULL;
        col->n_arcs = 0;
    }
    return r;
}
