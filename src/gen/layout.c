/* Tiers-style layout of one routed network (WAN, or one MAN).
 *
 * Tiers (Calvert, Doar, Zegura 1997) places the nodes of each network at
 * random points of a grid, connects them with a Euclidean minimum spanning
 * tree — the cheapest connected network — and then adds redundant links
 * between nearby nodes, since real networks are not trees.  We do the same;
 * the redundancy parameter is a number of extra links, which makes the edge
 * count of a generated platform predictable from its parameters.  Distances
 * are squared integer distances, so the layout involves no floating point. */
#include "src/gen/gen_internal.h"

#include <stdlib.h>

#define GRID 1000u

size_t ssched_i_gen_layout_link_count(size_t n, size_t redundancy)
{
    if (n < 2)
        return 0;
    size_t free_pairs = n * (n - 1) / 2 - (n - 1);
    return (n - 1) + (redundancy < free_pairs ? redundancy : free_pairs);
}

typedef struct {
    uint64_t d2;
    size_t a, b;
} pair_t;

static int pair_cmp(const void *x, const void *y)
{
    const pair_t *p = x, *q = y;
    if (p->d2 != q->d2)
        return p->d2 < q->d2 ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

static uint64_t dist2(const uint64_t *x, const uint64_t *y, size_t a, size_t b)
{
    uint64_t dx = x[a] > x[b] ? x[a] - x[b] : x[b] - x[a];
    uint64_t dy = y[a] > y[b] ? y[a] - y[b] : y[b] - y[a];
    return dx * dx + dy * dy;
}

/* Prim's algorithm, O(n^2), which suits the dense "all pairs" graph. */
static void prim(size_t n, const uint64_t *x, const uint64_t *y, uint64_t *best,
                 size_t *parent, unsigned char *in_tree, gen_link_t *links)
{
    in_tree[0] = 1;
    for (size_t v = 1; v < n; v++) {
        best[v] = dist2(x, y, 0, v);
        parent[v] = 0;
        in_tree[v] = 0;
    }
    for (size_t k = 1; k < n; k++) {
        size_t pick = 0;
        for (size_t v = 1; v < n; v++)
            if (!in_tree[v] && (pick == 0 || best[v] < best[pick]))
                pick = v;
        in_tree[pick] = 1;
        links[k - 1].a = parent[pick];
        links[k - 1].b = pick;
        for (size_t v = 1; v < n; v++) {
            uint64_t d = dist2(x, y, pick, v);
            /* Strict '<' keeps the earliest parent on ties: deterministic. */
            if (!in_tree[v] && d < best[v]) {
                best[v] = d;
                parent[v] = pick;
            }
        }
    }
}

ssched_status_t ssched_i_gen_layout_network(size_t n, size_t redundancy, gen_rng_t *rng,
                                   gen_link_t **links, size_t *n_links,
                                   ssched_error_t *err)
{
    *links = NULL;
    *n_links = 0;
    if (n < 2) {
        /* Every router draws its point, even a lone one, so the layout
         * stream always advances by two draws per router. */
        if (n == 1) {
            ssched_i_gen_rng_below(rng, GRID);
            ssched_i_gen_rng_below(rng, GRID);
        }
        return SSCHED_OK;
    }
    size_t total = ssched_i_gen_layout_link_count(n, redundancy);
    size_t extra = total - (n - 1);
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    uint64_t *best = malloc(n * sizeof *best);
    size_t *parent = malloc(n * sizeof *parent);
    unsigned char *in_tree = malloc(n);
    unsigned char *linked = extra ? calloc(n * n, 1) : NULL;
    gen_link_t *out = malloc(total * sizeof *out);
    pair_t *pairs = NULL;
    ssched_status_t st = SSCHED_OK;
    if (!x || !y || !best || !parent || !in_tree || (extra && !linked) || !out) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t v = 0; v < n; v++) {
        x[v] = ssched_i_gen_rng_below(rng, GRID);
        y[v] = ssched_i_gen_rng_below(rng, GRID);
    }
    prim(n, x, y, best, parent, in_tree, out);
    if (extra) {
        for (size_t k = 0; k + 1 < n; k++) {
            linked[out[k].a * n + out[k].b] = 1;
            linked[out[k].b * n + out[k].a] = 1;
        }
        size_t free_pairs = n * (n - 1) / 2 - (n - 1), m = 0;
        pairs = malloc(free_pairs * sizeof *pairs);
        if (!pairs) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++)
                if (!linked[a * n + b]) {
                    pairs[m].d2 = dist2(x, y, a, b);
                    pairs[m].a = a;
                    pairs[m].b = b;
                    m++;
                }
        qsort(pairs, m, sizeof *pairs, pair_cmp);
        for (size_t k = 0; k < extra; k++) {
            out[n - 1 + k].a = pairs[k].a;
            out[n - 1 + k].b = pairs[k].b;
        }
    }
    *links = out;
    *n_links = total;
    out = NULL;
done:
    free(x);
    free(y);
    free(best);
    free(parent);
    free(in_tree);
    free(linked);
    free(out);
    free(pairs);
    return st;
}
