/* A floating-point Chu-Liu/Edmonds for the float phase of the commutative
 * column generation (colgen_comm.h).
 *
 * Why a second implementation: the auxiliary graph of a commutative reduce
 * is dense (one arc per pair of vertices: 63,000 arcs for 252
 * participants), and ssched_arborescence_min_cost (trees/arborescence_tarjan.c,
 * exact rationals) then spends ~0.2 s per call, i.e. most of the solve
 * over a hundred iterations.  During the iterations a pricing answer is
 * only a candidate column, so doubles suffice; the exact pricing pass that
 * certifies the result still uses the exact implementation.
 *
 * Same algorithm (see trees/arborescence_levels.c for why it is optimal): every
 * node but the root picks its cheapest entering arc; a cycle of picks is
 * contracted, the arcs entering a cycle node v get cost - pick(v), and at
 * the end each contraction is expanded (the cycle's picks except the one
 * into the node where the chosen arc enters).  Here on a dense matrix,
 * contracting as soon as a walk along the picks closes a cycle (Tarjan's
 * dense form, O(n^2) per contraction at worst instead of O(m) per level of
 * the level-by-level form, which made ~170 levels on 252 vertices). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"

#define NONE SIZE_MAX

typedef struct {
    size_t n, root;
    double *W;           /* n x n: cheapest (reduced) cost of an arc x -> y
                            between current super-nodes, INFINITY if none */
    size_t *A;           /* n x n: that arc's index                        */
    size_t *uf;          /* node -> node it was merged into (union-find)  */
    unsigned char *alive;
    size_t *pick;        /* per super-node: entering arc index            */
    double *pcost;       /* its reduced cost                              */
    size_t *sid, *up;    /* rep -> super-node id; id -> enclosing id       */
    size_t *rec_start, *rec_mem, *rec_pick, n_rec, n_mem; /* contractions  */
    const size_t *from;
    unsigned char *in;   /* scratch: the cycle being contracted           */
    size_t *cyc;         /* scratch: its members (reps)                    */
} dense_t;

static size_t find(dense_t *d, size_t v)
{
    while (d->uf[v] != v)
        v = d->uf[v] = d->uf[d->uf[v]];
    return v;
}

/* The cheapest arc entering super-node y. */
static void repick(dense_t *d, size_t y)
{
    d->pick[y] = NONE;
    for (size_t x = 0; x < d->n; x++)
        if (d->alive[x] && x != y && d->W[x * d->n + y] < INFINITY &&
            (d->pick[y] == NONE || d->W[x * d->n + y] < d->pcost[y])) {
            d->pick[y] = d->A[x * d->n + y];
            d->pcost[y] = d->W[x * d->n + y];
        }
}

/* Contract the cycle through super-node u (following picks) into u. */
static void contract(dense_t *d, size_t u)
{
    size_t n = d->n, s = n + d->n_rec;
    d->rec_start[d->n_rec] = d->n_mem;
    size_t v = u;
    do { /* record the members and their picks */
        d->rec_mem[d->n_mem] = d->sid[v];
        d->rec_pick[d->n_mem++] = d->pick[v];
        d->up[d->sid[v]] = s;
        v = find(d, d->from[d->pick[v]]);
    } while (v != u);
    d->rec_start[++d->n_rec] = d->n_mem;
    /* merge rows and columns into u: entering costs reduced by the member's
     * pick, leaving costs the cheapest */
    unsigned char *in = d->in;
    size_t k = 0;
    memset(in, 0, n);
    v = u;
    do {
        in[v] = 1;
        d->cyc[k++] = v;
        v = find(d, d->from[d->pick[v]]);
    } while (v != u);
    for (size_t x = 0; x < n; x++) {
        if (!d->alive[x] || in[x])
            continue;
        double bi = INFINITY, bo = INFINITY;
        size_t ai = NONE, ao = NONE;
        for (size_t j = 0; j < k; j++) {
            size_t y = d->cyc[j];
            double wi = d->W[x * n + y] - d->pcost[y];
            if (d->W[x * n + y] < INFINITY && wi < bi) {
                bi = wi;
                ai = d->A[x * n + y];
            }
            if (d->W[y * n + x] < bo) {
                bo = d->W[y * n + x];
                ao = d->A[y * n + x];
            }
        }
        d->W[x * n + u] = bi;
        d->A[x * n + u] = ai;
        d->W[u * n + x] = bo;
        d->A[u * n + x] = ao;
    }
    for (size_t j = 0; j < k; j++)
        if (d->cyc[j] != u) {
            d->alive[d->cyc[j]] = 0;
            d->uf[d->cyc[j]] = u;
        }
    d->sid[u] = s;
    repick(d, u);
}

/* Every node of 0..n-1 is reached from root.  chosen[e] set for the arcs of
 * a minimum arborescence.  Dense form: W holds the cheapest arc per pair
 * of super-nodes, so a contraction costs O(n * cycle length) and only the
 * new super-node picks again (the other picks stay valid: their entering
 * arcs are unchanged).  1, or -1 on ENOMEM. */
static int dense_arb(size_t n, size_t m, const size_t *from, const size_t *to, const double *c,
                     size_t root, unsigned char *chosen)
{
    dense_t d = {n, root, malloc(n * n * sizeof(double)), malloc(n * n * sizeof(size_t)),
                 malloc(n * sizeof(size_t)), malloc(n), malloc(n * sizeof(size_t)),
                 malloc(n * sizeof(double)), malloc(n * sizeof(size_t)),
                 malloc(2 * n * sizeof(size_t)), malloc((n + 1) * sizeof(size_t)),
                 malloc(2 * n * sizeof(size_t)), malloc(2 * n * sizeof(size_t)), 0, 0, from,
                 malloc(n), malloc(n * sizeof(size_t))};
    size_t *mark = malloc(n * sizeof *mark), *enter = malloc(2 * n * sizeof *enter);
    unsigned char *done = calloc(n, 1);
    int r = d.W && d.A && d.uf && d.alive && d.pick && d.pcost && d.sid && d.up && d.rec_start &&
            d.rec_mem && d.rec_pick && d.in && d.cyc && mark && enter && done ? 1 : -1;
    for (size_t k = 0; r == 1 && k < n * n; k++) {
        d.W[k] = INFINITY;
        d.A[k] = NONE;
    }
    for (size_t e = 0; r == 1 && e < m; e++)
        if (from[e] != to[e] && to[e] != root && c[e] < d.W[from[e] * n + to[e]]) {
            d.W[from[e] * n + to[e]] = c[e];
            d.A[from[e] * n + to[e]] = e;
        }
    for (size_t v = 0; r == 1 && v < n; v++) {
        d.uf[v] = v;
        d.alive[v] = 1;
        d.sid[v] = v;
        d.up[v] = NONE;
        mark[v] = NONE;
    }
    for (size_t v = 0; r == 1 && v < n; v++)
        if (v != root)
            repick(&d, v);
    done[root] = 1;
    /* follow picks from every node; a cycle is contracted on the spot and
     * the walk goes on from the new super-node */
    for (size_t v = 0; r == 1 && v < n; v++) {
        size_t u = find(&d, v);
        while (!done[u] && r == 1) {
            if (d.pick[u] == NONE) { /* not reached: excluded by the caller */
                r = -1;
                break;
            }
            if (mark[u] == v) {
                contract(&d, u);
                mark[u] = NONE; /* u now stands for the cycle, with a new pick */
                continue;
            }
            mark[u] = v;
            u = find(&d, from[d.pick[u]]);
        }
        for (u = find(&d, v); r == 1 && !done[u]; u = find(&d, from[d.pick[u]]))
            done[u] = 1;
    }
    /* expand: the final picks enter the outermost super-nodes; inside a
     * contraction the member holding the entering arc's head takes it, the
     * others keep their picks */
    for (size_t v = 0; r == 1 && v < n; v++)
        if (d.alive[v] && v != root)
            enter[d.sid[v]] = d.pick[v];
    for (size_t k = d.n_rec; r == 1 && k-- > 0;) {
        size_t s = n + k, e = enter[s], h = to[e];
        while (d.up[h] != s)
            h = d.up[h];
        for (size_t x = d.rec_start[k]; x < d.rec_start[k + 1]; x++)
            enter[d.rec_mem[x]] = d.rec_mem[x] == h ? e : d.rec_pick[x];
    }
    for (size_t v = 0; r == 1 && v < n; v++)
        if (v != root)
            chosen[enter[v]] = 1;
    free(d.W); free(d.A); free(d.uf); free(d.alive); free(d.pick); free(d.pcost);
    free(d.sid); free(d.up); free(d.rec_start); free(d.rec_mem); free(d.rec_pick); free(d.in);
    free(d.cyc);
    free(mark); free(enter); free(done);
    return r;
}

int ssched_i_cgc_min_arb_d(size_t n, size_t m, const size_t *from, const size_t *to, const double *cost,
                  size_t root, const unsigned char *required, unsigned char *chosen)
{
    /* the nodes reached from the root, relabelled (the root first) */
    size_t *lab = malloc(n * sizeof *lab), *queue = malloc(n * sizeof *queue);
    size_t *start = calloc(n + 1, sizeof *start), *adj = malloc((m + 1) * sizeof *adj);
    size_t *f2 = malloc((3 * m + 1) * sizeof *f2);
    double *c2 = malloc((m + 1) * sizeof *c2);
    unsigned char *ch2 = calloc(m + 1, 1);
    int r = lab && queue && start && adj && f2 && c2 && ch2 ? 1 : -1;
    size_t nr = 0;
    if (r == 1) {
        memset(chosen, 0, m);
        for (size_t e = 0; e < m; e++)
            start[from[e] + 1]++;
        for (size_t v = 0; v < n; v++)
            start[v + 1] += start[v];
        for (size_t e = 0; e < m; e++)
            adj[start[from[e]]++] = e;
        for (size_t v = n; v > 0; v--)
            start[v] = start[v - 1];
        start[0] = 0;
        for (size_t v = 0; v < n; v++)
            lab[v] = NONE;
        lab[root] = nr;
        queue[nr++] = root;
        for (size_t q = 0; q < nr; q++)
            for (size_t k = start[queue[q]]; k < start[queue[q] + 1]; k++)
                if (lab[to[adj[k]]] == NONE) {
                    lab[to[adj[k]]] = nr;
                    queue[nr++] = to[adj[k]];
                }
        for (size_t v = 0; v < n && r == 1; v++)
            if (lab[v] == NONE && (!required || required[v]))
                r = 0;
    }
    if (r == 1) {
        size_t *t2 = f2 + m, *orig = t2 + m, m2 = 0;
        for (size_t e = 0; e < m; e++)
            if (lab[from[e]] != NONE && lab[to[e]] != NONE) {
                f2[m2] = lab[from[e]];
                t2[m2] = lab[to[e]];
                c2[m2] = cost[e];
                orig[m2++] = e;
            }
        r = dense_arb(nr, m2, f2, t2, c2, 0, ch2);
        for (size_t k = 0; r == 1 && k < m2; k++)
            chosen[orig[k]] = ch2[k];
    }
    free(lab); free(queue); free(start); free(adj); free(f2); free(c2); free(ch2);
    return r;
}
