/* A floating-point Chu-Liu/Edmonds for the float phase of the commutative
 * column generation (colgen_comm.h), and the buffers that phase keeps
 * across pricing calls (cgc_ws_t).
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
 * the level-by-level form, which made ~170 levels on 252 vertices).
 *
 * The matrix is stored by entering vertex (row y holds the arcs into y),
 * so that a node's pick scans one contiguous row, and it lives in the
 * workspace: the float pricing of lp/colgen_comm_price.inc fills it
 * straight from its path costs (no arc list), and a call no longer
 * allocates and faults in two fresh n x n matrices (issue 26, commut1000:
 * most of the float phase was page faults and arc-list copies). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"

#define NONE SIZE_MAX

struct cgc_ws {
    void *buf[CGC_WS_SLOTS];
    size_t size[CGC_WS_SLOTS];
};

cgc_ws_t *ssched_i_cgc_ws_new(void)
{
    return calloc(1, sizeof(cgc_ws_t));
}

void ssched_i_cgc_ws_free(cgc_ws_t *ws)
{
    for (size_t k = 0; ws && k < CGC_WS_SLOTS; k++)
        free(ws->buf[k]);
    free(ws);
}

void *ssched_i_cgc_ws_get(cgc_ws_t *ws, int slot, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (ws->size[slot] < bytes) { /* the contents need not survive */
        free(ws->buf[slot]);
        ws->buf[slot] = malloc(bytes);
        ws->size[slot] = ws->buf[slot] ? bytes : 0;
    }
    return ws->buf[slot];
}

int ssched_i_cgc_arb_matrix(cgc_ws_t *ws, size_t n, double **W, size_t **A)
{
    if (n && n > SIZE_MAX / n / sizeof(double))
        return 0;
    *W = ssched_i_cgc_ws_get(ws, CGC_WS_W, n * n * sizeof **W);
    *A = ssched_i_cgc_ws_get(ws, CGC_WS_A, n * n * sizeof **A);
    return *W && *A;
}

typedef struct {
    size_t n, nn, root;
    double *W;           /* W[y * n + x]: cheapest (reduced) cost of an arc
                            x -> y between current super-nodes, INFINITY if none */
    size_t *A;           /* that arc's code, for the entries of a row or
                            column rewritten by a contraction (sup[] set) */
    unsigned char *sup;  /* node: a super-node whose row/column were rewritten */
    const unsigned char *alt; /* node y: W[y*n + root] is the second arc   */
    size_t *uf;          /* node -> node it was merged into (union-find)  */
    unsigned char *alive;
    size_t *pick;        /* per super-node: entering arc code             */
    double *pcost;       /* its reduced cost                              */
    size_t *sid, *up;    /* rep -> super-node id; id -> enclosing id       */
    size_t *rec_start, *rec_mem, *rec_pick, n_rec, n_mem; /* contractions  */
    unsigned char *in;   /* scratch: the cycle being contracted           */
    size_t *cyc;         /* scratch: its members (reps)                    */
} dense_t;

/* The code of the entry x -> y: an original pair's is implied (why: the
 * fill then writes W alone, half the traffic of a call). */
static size_t code(const dense_t *d, size_t y, size_t x)
{
    if (d->sup[y] || d->sup[x])
        return d->A[y * d->n + x];
    return x == d->root && d->alt && d->alt[y] ? d->nn + y : y * d->n + x;
}

/* The ends of the arc with code a. */
static size_t arc_from(const dense_t *d, size_t a)
{
    return a < d->nn ? a % d->n : d->root;
}

static size_t arc_to(const dense_t *d, size_t a)
{
    return a < d->nn ? a / d->n : a - d->nn;
}

static size_t find(dense_t *d, size_t v)
{
    while (d->uf[v] != v)
        v = d->uf[v] = d->uf[d->uf[v]];
    return v;
}

/* The cheapest arc entering super-node y (the first of equals). */
static void repick(dense_t *d, size_t y)
{
    const double *row = d->W + y * d->n;
    const unsigned char *alive = d->alive;
    double best = INFINITY;
    size_t bx = NONE;
    for (size_t x = 0; x < d->n; x++)
        if (row[x] < best && alive[x] && x != y) {
            best = row[x];
            bx = x;
        }
    d->pick[y] = bx == NONE ? NONE : code(d, y, bx);
    d->pcost[y] = best;
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
        v = find(d, arc_from(d, d->pick[v]));
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
        v = find(d, arc_from(d, d->pick[v]));
    } while (v != u);
    for (size_t x = 0; x < n; x++) {
        if (!d->alive[x] || in[x])
            continue;
        double bi = INFINITY, bo = INFINITY;
        size_t ai = NONE, ao = NONE;
        for (size_t j = 0; j < k; j++) {
            size_t y = d->cyc[j];
            double wi = d->W[y * n + x] - d->pcost[y];
            if (d->W[y * n + x] < INFINITY && wi < bi) {
                bi = wi;
                ai = code(d, y, x);
            }
            if (d->W[x * n + y] < bo) {
                bo = d->W[x * n + y];
                ao = code(d, x, y);
            }
        }
        d->W[u * n + x] = bi;
        d->A[u * n + x] = ai;
        d->W[x * n + u] = bo;
        d->A[x * n + u] = ao;
    }
    for (size_t j = 0; j < k; j++)
        if (d->cyc[j] != u) {
            d->alive[d->cyc[j]] = 0;
            d->uf[d->cyc[j]] = u;
        }
    d->sup[u] = 1; /* after the loop: its old entries were read as originals */
    d->sid[u] = s;
    repick(d, u);
}

/* Dense form on the workspace's matrix: W costs a contraction O(n * cycle
 * length) and only the new super-node picks again (the other picks stay
 * valid: their entering arcs are unchanged).  1, or -1 on ENOMEM or when a
 * node has no entering arc. */
int ssched_i_cgc_arb_dense(cgc_ws_t *ws, size_t n, size_t root, const unsigned char *alt,
                           size_t *enter)
{
    dense_t d = {n, n * n, root, ws->buf[CGC_WS_W], ws->buf[CGC_WS_A], NULL, alt, NULL, NULL,
                 NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL};
    /* per-node arrays in one block: n doubles, 14 n + 1 words, 4 n bytes */
    double *blk = ssched_i_cgc_ws_get(ws, CGC_WS_ARB, n * sizeof(double) +
                                                  (14 * n + 1) * sizeof(size_t) + 4 * n);
    if (!blk || n == 0 || ws->size[CGC_WS_W] < n * n * sizeof(double))
        return -1;
    d.pcost = blk;
    d.uf = (size_t *)(blk + n);
    d.pick = d.uf + n;
    d.sid = d.pick + n;
    d.up = d.sid + n;                /* 2n */
    d.rec_start = d.up + 2 * n;      /* n + 1 */
    d.rec_mem = d.rec_start + n + 1; /* 2n */
    d.rec_pick = d.rec_mem + 2 * n;  /* 2n */
    d.cyc = d.rec_pick + 2 * n;
    size_t *mark = d.cyc + n, *ent = mark + n; /* 2n */
    d.alive = (unsigned char *)(ent + 2 * n);
    d.in = d.alive + n;
    unsigned char *done = d.in + n;
    d.sup = done + n;
    int r = 1;
    for (size_t v = 0; v < n; v++) {
        d.uf[v] = v;
        d.alive[v] = 1;
        d.sid[v] = v;
        d.up[v] = NONE;
        mark[v] = NONE;
        done[v] = 0;
        d.sup[v] = 0;
    }
    for (size_t v = 0; v < n; v++)
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
            u = find(&d, arc_from(&d, d.pick[u]));
        }
        for (u = find(&d, v); r == 1 && !done[u]; u = find(&d, arc_from(&d, d.pick[u])))
            done[u] = 1;
    }
    /* expand: the final picks enter the outermost super-nodes; inside a
     * contraction the member holding the entering arc's head takes it, the
     * others keep their picks */
    for (size_t v = 0; r == 1 && v < n; v++)
        if (d.alive[v] && v != root)
            ent[d.sid[v]] = d.pick[v];
    for (size_t k = d.n_rec; r == 1 && k-- > 0;) {
        size_t s = n + k, e = ent[s], h = arc_to(&d, e);
        while (d.up[h] != s)
            h = d.up[h];
        for (size_t x = d.rec_start[k]; x < d.rec_start[k + 1]; x++)
            ent[d.rec_mem[x]] = d.rec_mem[x] == h ? e : d.rec_pick[x];
    }
    for (size_t v = 0; r == 1 && v < n; v++)
        enter[v] = v == root ? NONE : ent[v];
    return r;
}

int ssched_i_cgc_min_arb_d(size_t n, size_t m, const size_t *from, const size_t *to, const double *cost,
                  size_t root, const unsigned char *required, unsigned char *chosen)
{
    /* the nodes reached from the root, relabelled (the root first) */
    size_t *lab = malloc(n * sizeof *lab), *queue = malloc(n * sizeof *queue);
    size_t *start = calloc(n + 1, sizeof *start), *adj = malloc((m + 1) * sizeof *adj);
    size_t *enter = malloc((n + 1) * sizeof *enter);
    cgc_ws_t *ws = ssched_i_cgc_ws_new();
    int r = lab && queue && start && adj && enter && ws ? 1 : -1;
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
    double *W;
    size_t *A, *side = NULL;
    if (r == 1 && (!ssched_i_cgc_arb_matrix(ws, nr, &W, &A) ||
                   !(side = ssched_i_cgc_ws_get(ws, CGC_WS_SIDE, nr * nr * sizeof *side))))
        r = -1;
    if (r == 1) {
        /* the cheapest arc per pair (the first of equals), its index aside */
        for (size_t k = 0; k < nr * nr; k++)
            W[k] = INFINITY;
        for (size_t e = 0; e < m; e++) {
            size_t f = lab[from[e]], t = lab[to[e]];
            if (f == NONE || t == NONE || f == t || t == 0 || !(cost[e] < W[t * nr + f]))
                continue;
            W[t * nr + f] = cost[e];
            side[t * nr + f] = e;
        }
        r = ssched_i_cgc_arb_dense(ws, nr, 0, NULL, enter);
        for (size_t v = 1; r == 1 && v < nr; v++)
            chosen[side[enter[v]]] = 1;
    }
    free(lab); free(queue); free(start); free(adj); free(enter);
    ssched_i_cgc_ws_free(ws);
    return r;
}
