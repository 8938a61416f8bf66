/* Minimum-cost arborescences (ssched_arborescence_min_cost, see
 * include/ssched/trees.h) in O(m log n) operations: Edmonds' algorithm
 * (Chu & Liu 1965, Edmonds 1967) as Tarjan implements it ("Finding optimum
 * branchings", Networks 7, 1977; corrected by Camerini, Fratta & Maffioli,
 * Networks 9, 1979; Gabow, Galil, Spencer & Tarjan, Combinatorica 6,
 * 1986): mergeable heaps of in-arcs with lazy offsets and a union-find of
 * contracted nodes, instead of re-scanning every arc at each contraction
 * level (trees/arborescence_levels.c: 15 s of a broadcast pricing at 10^4
 * nodes).  Exact: the costs are scaled by the lcm of their denominators to
 * integers, int64_t when every key provably fits, mpz_t otherwise (keys
 * stay within [min, max - min] of the scaled costs: each reduction
 * subtracts a heap's minimum, after which every key of that heap is >= 0
 * and no key ever grows). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/trees.h"
#include "src/util/internal.h"
#include "trees/arborescence_internal.h"

#define NONE SIZE_MAX

typedef struct {
    size_t m, nr, n_ids;
    const size_t *tail, *head;  /* relabelled ends */
    const unsigned char *alive; /* arcs in the heaps */
    size_t *heap, *in_edge, *par, *uf, *stack; /* 2 nr supernode ids */
    unsigned char *state;                      /* 0 new, 1 on the path, 2 finished */
    size_t *lch, *rch, *npl;                   /* m heap nodes (the arcs) */
    unsigned char *has_lazy;
} edm_t;

static size_t find(size_t *uf, size_t x)
{
    while (uf[x] != x) { /* path halving */
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

#define K int64_t
#define K_INIT(x) ((x) = 0)
#define K_CLEAR(x) ((void)(x))
#define K_SET(d, s) ((d) = (s))
#define K_ADD(d, a, b) ((d) = (a) + (b))
#define K_NEG(d, s) ((d) = -(s))
#define K_CMP(a, b) (((a) > (b)) - ((a) < (b)))
#define SFX(name) name##_i
#include "trees/arborescence_edm.inc"
#undef K
#undef K_INIT
#undef K_CLEAR
#undef K_SET
#undef K_ADD
#undef K_NEG
#undef K_CMP
#undef SFX

#define K mpz_t
#define K_INIT(x) mpz_init(x)
#define K_CLEAR(x) mpz_clear(x)
#define K_SET(d, s) mpz_set((d), (s))
#define K_ADD(d, a, b) mpz_add((d), (a), (b))
#define K_NEG(d, s) mpz_neg((d), (s))
#define K_CMP(a, b) mpz_cmp((a), (b))
#define SFX(name) name##_z
#include "trees/arborescence_edm.inc"

/* The arborescence from the contraction forest: a supernode x not
 * superseded keeps its arc in_edge[x]; that arc enters x at an original
 * node, and every supernode between that node and x is superseded by it
 * (its cycle is entered there).  Top-down, so O(n) in all. */
static ssched_status_t expand(edm_t *g, size_t *arc_of, ssched_error_t *err)
{
    unsigned char *removed = ssched_i_calloc(g->n_ids, 1);
    if (!removed)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t v = 0; v < g->nr; v++)
        arc_of[v] = NONE;
    ssched_status_t st = SSCHED_OK;
    for (size_t x = g->n_ids; x-- > 1;) {
        if (removed[x])
            continue;
        size_t e = g->in_edge[x], v = g->head[e];
        if (arc_of[v] != NONE) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "arborescence: node entered twice");
            break;
        }
        arc_of[v] = e;
        for (size_t y = v; y != x; y = g->par[y])
            removed[y] = 1;
    }
    for (size_t v = 1; v < g->nr && st == SSCHED_OK; v++)
        if (arc_of[v] == NONE)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "arborescence: node not entered");
    free(removed);
    return st;
}

/* Scaled costs: d = lcm of the alive arcs' denominators, num[e] = c_e d.
 * Returns 1 when every |num[e]| < 2^60 (so keys < 2^61 fit int64_t). */
static int scale_costs(size_t m, const mpq_t *cost, const unsigned char *alive, mpz_t *num)
{
    mpz_t d, t;
    mpz_init_set_ui(d, 1);
    mpz_init(t);
    for (size_t e = 0; e < m; e++)
        if (alive[e])
            mpz_lcm(d, d, mpq_denref(cost[e]));
    int small = 1;
    for (size_t e = 0; e < m; e++) {
        if (!alive[e])
            continue;
        mpz_divexact(t, d, mpq_denref(cost[e]));
        mpz_mul(num[e], mpq_numref(cost[e]), t);
        if (mpz_sizeinbase(num[e], 2) > 60)
            small = 0;
    }
    mpz_clear(d);
    mpz_clear(t);
    return small;
}

static ssched_status_t solve(edm_t *g, const mpq_t *cost, ssched_error_t *err)
{
    size_t m = g->m;
    ssched_status_t st = SSCHED_OK;
    mpz_t *num = ssched_i_mpz_vec_new(m);
    if (!num)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (scale_costs(m, cost, g->alive, num)) {
        int64_t *key = ssched_i_alloc(m, sizeof *key), *lazy = ssched_i_calloc(m, sizeof *lazy);
        if (!key || !lazy) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        } else {
            for (size_t e = 0; e < m; e++)
                key[e] = g->alive[e] ? (int64_t)mpz_get_si(num[e]) : 0;
            st = run_i(g, key, lazy, err);
        }
        free(key);
        free(lazy);
    } else {
        mpz_t *lazy = ssched_i_mpz_vec_new(m);
        if (!lazy)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else
            st = run_z(g, num, lazy, err);
        ssched_i_mpz_vec_free(lazy, m);
    }
    ssched_i_mpz_vec_free(num, m);
    return st;
}

ssched_status_t ssched_arborescence_min_cost(size_t n, size_t m, const size_t *from,
                                             const size_t *to, const mpq_t *cost, size_t root,
                                             const unsigned char *required, int *found,
                                             ssched_arborescence_t *out, ssched_error_t *err)
{
    ssched_status_t pst = ssched_i_arborescence_begin(n, m, from, to, cost, root, found, out, err);
    if (pst != SSCHED_OK)
        return pst;

    ssched_status_t st = SSCHED_OK;
    size_t n2 = 2 * n;
    size_t *lab = ssched_i_alloc(n, sizeof *lab), *order = ssched_i_alloc(n, sizeof *order);
    size_t *tail = ssched_i_alloc(m, sizeof *tail), *head = ssched_i_alloc(m, sizeof *head);
    unsigned char *alive = ssched_i_alloc(m, 1);
    edm_t g = {0};
    g.heap = ssched_i_alloc(n2, sizeof *g.heap);
    g.in_edge = ssched_i_alloc(n2, sizeof *g.in_edge);
    g.par = ssched_i_alloc(n2, sizeof *g.par);
    g.uf = ssched_i_alloc(n2, sizeof *g.uf);
    g.stack = ssched_i_alloc(n2, sizeof *g.stack);
    g.state = ssched_i_calloc(n2, 1);
    g.lch = ssched_i_alloc(m, sizeof *g.lch);
    g.rch = ssched_i_alloc(m, sizeof *g.rch);
    g.npl = ssched_i_alloc(m, sizeof *g.npl);
    g.has_lazy = ssched_i_calloc(m, 1);
    if (!lab || !order || !tail || !head || (m && (!alive || !g.lch ||
        !g.rch || !g.npl || !g.has_lazy)) || !g.heap || !g.in_edge || !g.par || !g.uf ||
        !g.stack || !g.state) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    /* reachable nodes, relabelled 0..nr-1 (the root first), in order */
    size_t nr = ssched_i_arborescence_reach(n, m, from, to, root, required, lab, order, tail, head,
                                            alive);
    if (nr == SIZE_MAX) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    if (nr == 0)
        goto done; /* *found = 0 */
    for (size_t e = 0; e < m; e++) {
        g.lch[e] = g.rch[e] = NONE;
        g.npl[e] = 1;
    }
    for (size_t x = 0; x < n2; x++) {
        g.heap[x] = g.in_edge[x] = g.par[x] = NONE;
        g.uf[x] = x;
    }
    g.m = m;
    g.nr = nr;
    g.n_ids = nr;
    g.tail = tail;
    g.head = head;
    g.alive = alive;
    if ((st = solve(&g, cost, err)) != SSCHED_OK)
        goto done;
    if ((st = expand(&g, order, err)) != SSCHED_OK) /* order: reused as arc_of */
        goto done;
    out->arcs = ssched_i_alloc(nr, sizeof *out->arcs);
    if (!out->arcs) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t v = 0; v < n; v++) /* by head node, original order */
        if (lab[v] != NONE && v != root) {
            size_t e = order[lab[v]];
            out->arcs[out->n_arcs++] = e;
            mpq_add(out->weight, out->weight, cost[e]);
        }
    *found = 1;
done:
    free(lab);
    free(order);
    free(tail);
    free(head);
    free(alive);
    free(g.heap);
    free(g.in_edge);
    free(g.par);
    free(g.uf);
    free(g.stack);
    free(g.state);
    free(g.lch);
    free(g.rch);
    free(g.npl);
    free(g.has_lazy);
    return st;
}
