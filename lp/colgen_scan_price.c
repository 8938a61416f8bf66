/* Pricing of the scan's prefix structures: the anchor-chain dynamic
 * program lp/colgen_scan_dp.inc compiled for doubles and for rationals. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_scan.h"

/* Append a send (edge, interval) to column c of capacity *cap. */
static int cgs_push_send(cg_column_t *c, size_t *cap, size_t edge, size_t interval)
{
    if (c->n_sends == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        size_t *a = realloc(c->send_edge, nc * sizeof *a);
        if (!a)
            return 0;
        c->send_edge = a;
        size_t *b = realloc(c->send_interval, nc * sizeof *b);
        if (!b)
            return 0;
        c->send_interval = b;
        *cap = nc;
    }
    c->send_edge[c->n_sends] = edge;
    c->send_interval[c->n_sends++] = interval;
    return 1;
}

static int by_interval_edge(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Sort the sends by (interval, edge) and drop repeats: one physical send
 * per (edge, interval) serves every use (the union; a canonical form for
 * the master's column index). */
static void cgs_column_normalise(cg_column_t *c)
{
    size_t n = c->n_sends, k = 0;
    size_t *pair = malloc((2 * n + 1) * sizeof *pair);
    if (!pair) { /* out of memory: keep the order, drop nothing */
        return;
    }
    for (size_t x = 0; x < n; x++) {
        pair[2 * x] = c->send_interval[x];
        pair[2 * x + 1] = c->send_edge[x];
    }
    qsort(pair, n, 2 * sizeof *pair, by_interval_edge);
    for (size_t x = 0; x < n; x++) {
        if (k && pair[2 * x] == c->send_interval[k - 1] && pair[2 * x + 1] == c->send_edge[k - 1])
            continue;
        c->send_interval[k] = pair[2 * x];
        c->send_edge[k++] = pair[2 * x + 1];
    }
    c->n_sends = k;
    free(pair);
}

#define CG_NUM_DOUBLE
#include "lp/colgen_num.h"
#include "lp/colgen_heap.inc"
#include "lp/colgen_scan_dp.inc"
#undef CG_NUM_DOUBLE

#define CG_NUM_MPQ
#include "lp/colgen_num.h"
#include "lp/colgen_heap.inc"
#include "lp/colgen_scan_dp.inc"
#undef CG_NUM_MPQ

int ssched_i_cgs_price_d(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const cg_prices_d *y, cg_column_t *col, double *cost)
{
    size_t n = p->n_nodes, ne = p->n_edges;
    double *w = malloc((ne + 1) * sizeof *w), *mc = malloc((n + 1) * sizeof *mc);
    int r = -1;
    memset(col, 0, sizeof *col);
    if (w && mc) {
        /* ties broken towards fewer transfers: at zero prices every route
         * costs 0 and a chain could wander over unpriced ports; a weight of
         * 1e-9 size*c(e) per transfer keeps the cheapest chain short, and
         * only the float phase sees it (the exact pass prices exactly) */
        double eps = 1e-9 * mpq_get_d(pb->size);
        for (size_t e = 0; e < ne; e++)
            w[e] = ssched_i_edge_price_d(p, e, pb->size, y->out, y->in, y->link) +
                   eps * mpq_get_d(p->c[e]);
        for (size_t i = 0; i < n; i++)
            mc[i] = p->has_w[i] ? y->cpu[i] * mpq_get_d(p->w[i]) : 0.0;
        r = scan_price_d(p, pb, w, mc, col, cost);
    }
    free(w);
    free(mc);
    return r;
}

int ssched_i_cgs_price_q(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const cg_prices_q *y, cg_column_t *col, mpq_ptr cost)
{
    size_t n = p->n_nodes, ne = p->n_edges;
    mpq_t *w = ssched_i_mpq_vec_new(ne), *mc = ssched_i_mpq_vec_new(n);
    int r = -1;
    memset(col, 0, sizeof *col);
    if (w && mc) {
        for (size_t e = 0; e < ne; e++)
            ssched_i_edge_price_q(p, e, pb->size, (const mpq_t *)y->out, (const mpq_t *)y->in,
                                  (const mpq_t *)y->link, w[e]);
        for (size_t i = 0; i < n; i++)
            if (p->has_w[i])
                mpq_mul(mc[i], y->cpu[i], p->w[i]);
        r = scan_price_q(p, pb, (const mpq_t *)w, (const mpq_t *)mc, col, cost);
    }
    ssched_i_mpq_vec_free(w, ne);
    ssched_i_mpq_vec_free(mc, n);
    return r;
}
