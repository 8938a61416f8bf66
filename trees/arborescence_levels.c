/* Minimum-cost arborescences level by level (Chu & Liu 1965, Edmonds
 * 1967): O(levels * m) exact operations.  The library uses the O(m log n)
 * version (trees/arborescence_tarjan.c); this one stays as the reference
 * the tests compare it with (same arcs, ties included).
 *
 * Chu–Liu/Edmonds, as implemented here: at each level every non-root node
 * picks its cheapest entering arc.  Without a cycle the picks are optimal
 * (each node needs one in-arc, and these are the cheapest).  A cycle C
 * among the picks is contracted after subtracting, from every arc entering
 * a node v, the cost of v's pick: every arborescence pays exactly
 * sum_v pick(v) more than under the reduced costs, and some optimal one
 * enters C once (Edmonds 1967, Karp 1971), so an optimal arborescence of
 * the contracted graph expands to an optimal one of the original by adding
 * C's picks except the one into the node where it enters.  Each level
 * removes >= 1 node, so <= n levels of O(m) exact operations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/check_report.h"
#include "ssched/trees.h"
#include "src/util/internal.h"
#include "trees/arborescence_internal.h"

#define NONE SIZE_MAX

/* One contraction level: comp maps its nodes to the next level's. */
typedef struct {
    size_t n, root;
    size_t *pick;  /* cheapest in-arc of each node (NONE for the root) */
    size_t *comp;  /* node -> node of the next level (NULL at the last) */
    size_t *cycle; /* cycle id or NONE */
    size_t *rep;   /* an original node of each node (its set's root)     */
} cl_level_t;

/* The nodes of each level are sets of original nodes, kept as a union-find
 * whose links carry the level that made them (union by size, no path
 * compression: a persistent union-find).  The root of v's set as it was at
 * level l, i.e. the rep of the level-l node holding v, follows only the
 * links made below l: O(log n) a query (walking the levels' comp maps,
 * as before, was O(levels) a query: 60 s at 10^4 nodes). */
static size_t set_at_level(const size_t *parent, const size_t *when, size_t l, size_t v)
{
    while (parent[v] != v && when[v] < l)
        v = parent[v];
    return v;
}

static void levels_free(cl_level_t *lv, size_t nl)
{
    for (size_t i = 0; i < nl; i++) {
        free(lv[i].pick);
        free(lv[i].comp);
        free(lv[i].cycle);
        free(lv[i].rep);
    }
    free(lv);
}

ssched_status_t ssched_i_arborescence_min_cost_levels(size_t n, size_t m, const size_t *from,
                                                      const size_t *to, const mpq_t *cost,
                                                      size_t root, const unsigned char *required,
                                                      int *found, ssched_arborescence_t *out,
                                                      ssched_error_t *err)
{
    ssched_status_t pst = ssched_i_arborescence_begin(n, m, from, to, cost, root, found, out, err);
    if (pst != SSCHED_OK)
        return pst;

    ssched_status_t st = SSCHED_OK;
    size_t *lab0 = malloc(n * sizeof *lab0), *tail = ssched_i_alloc(m, sizeof *tail);
    size_t *head = ssched_i_alloc(m, sizeof *head), *stamp = malloc(n * sizeof *stamp);
    size_t *in_arc = malloc(n * sizeof *in_arc), *nxt = malloc(n * sizeof *nxt);
    unsigned char *alive = ssched_i_alloc(m, 1);
    mpq_t *c = ssched_i_mpq_vec_new(m), *pick_cost = ssched_i_mpq_vec_new(n);
    cl_level_t *lv = calloc(n, sizeof *lv);
    size_t *parent = malloc(n * sizeof *parent), *when = malloc(n * sizeof *when);
    size_t *set_size = malloc(n * sizeof *set_size), *cur_rep = NULL;
    size_t n_lv = 0, nr = 0;
    if (!lab0 || !tail || !head || !stamp || !in_arc || !nxt || !alive || !c || !pick_cost || !lv ||
        !parent || !when || !set_size) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }

    /* reachable nodes, relabelled 0..nr-1 (the root first), in stamp */
    nr = ssched_i_arborescence_reach(n, m, from, to, root, required, lab0, stamp, tail, head, alive);
    if (nr == SIZE_MAX) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    if (nr == 0)
        goto done; /* *found = 0 */
    for (size_t e = 0; e < m; e++)
        if (alive[e])
            mpq_set(c[e], cost[e]);

    for (size_t v = 0; v < n; v++) {
        parent[v] = v;
        when[v] = NONE;
        set_size[v] = 1;
    }
    if (!(cur_rep = ssched_i_alloc(nr, sizeof *cur_rep))) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(cur_rep, stamp, nr * sizeof *cur_rep); /* level 0: the BFS order */
    size_t cur_n = nr, cur_root = 0;
    for (;;) {
        cl_level_t *L = &lv[n_lv++];
        L->n = cur_n;
        L->root = cur_root;
        L->rep = cur_rep;
        cur_rep = NULL;
        L->pick = malloc(cur_n * sizeof *L->pick);
        L->cycle = malloc(cur_n * sizeof *L->cycle);
        if (!L->pick || !L->cycle) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t v = 0; v < cur_n; v++) {
            L->pick[v] = NONE;
            L->cycle[v] = NONE;
            stamp[v] = NONE;
        }
        for (size_t e = 0; e < m; e++)
            if (alive[e] && (L->pick[head[e]] == NONE || mpq_cmp(c[e], c[L->pick[head[e]]]) < 0))
                L->pick[head[e]] = e;
        /* cycles of the picks: walk tails from each node, stamped by start */
        size_t n_cyc = 0;
        for (size_t s = 0; s < cur_n; s++) {
            size_t u = s;
            while (u != cur_root && stamp[u] == NONE) {
                stamp[u] = s;
                if (L->pick[u] == NONE) { /* cannot happen: reachability survives contraction */
                    st = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "arborescence: node without in-arc");
                    goto done;
                }
                u = tail[L->pick[u]];
            }
            if (u != cur_root && stamp[u] == s && L->cycle[u] == NONE) {
                for (size_t w = u; L->cycle[w] == NONE; w = tail[L->pick[w]])
                    L->cycle[w] = n_cyc;
                n_cyc++;
            }
        }
        if (!n_cyc) {
            for (size_t v = 0; v < cur_n; v++)
                in_arc[v] = L->pick[v];
            break;
        }
        /* contract: cycle k -> node k, other nodes after them */
        L->comp = malloc(cur_n * sizeof *L->comp);
        if (!L->comp) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            goto done;
        }
        size_t next_n = n_cyc;
        for (size_t v = 0; v < cur_n; v++)
            L->comp[v] = L->cycle[v] != NONE ? L->cycle[v] : next_n++;
        /* the next level's sets: a cycle's members united under the largest */
        if (!(cur_rep = ssched_i_alloc(next_n, sizeof *cur_rep))) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t k = 0; k < n_cyc; k++)
            nxt[k] = NONE; /* largest member of cycle k */
        for (size_t v = 0; v < cur_n; v++) {
            size_t k = L->cycle[v];
            if (k == NONE)
                cur_rep[L->comp[v]] = L->rep[v];
            else if (nxt[k] == NONE || set_size[L->rep[v]] > set_size[L->rep[nxt[k]]])
                nxt[k] = v;
        }
        for (size_t k = 0; k < n_cyc; k++)
            cur_rep[k] = L->rep[nxt[k]];
        for (size_t v = 0; v < cur_n; v++) {
            size_t k = L->cycle[v], r = L->rep[v];
            if (k == NONE || r == cur_rep[k])
                continue;
            parent[r] = cur_rep[k];
            when[r] = n_lv - 1;
            set_size[cur_rep[k]] += set_size[r];
        }
        for (size_t v = 0; v < cur_n; v++)
            if (v != cur_root)
                mpq_set(pick_cost[v], c[L->pick[v]]);
        for (size_t e = 0; e < m; e++) {
            if (!alive[e])
                continue;
            mpq_sub(c[e], c[e], pick_cost[head[e]]);
            tail[e] = L->comp[tail[e]];
            head[e] = L->comp[head[e]];
            if (tail[e] == head[e] || head[e] == L->comp[cur_root])
                alive[e] = 0;
        }
        cur_root = L->comp[cur_root];
        cur_n = next_n;
    }
    /* expand: in_arc holds the last level's in-arcs; walk back down */
    for (size_t l = n_lv - 1; l-- > 0;) {
        cl_level_t *L = &lv[l];
        for (size_t v = 0; v < L->n; v++)
            nxt[v] = NONE;
        for (size_t v = 0; v < L->n; v++) {
            if (v == L->root)
                continue;
            if (L->cycle[v] == NONE) {
                nxt[v] = in_arc[L->comp[v]];
            } else {
                size_t a = in_arc[L->comp[v]];
                nxt[v] = set_at_level(parent, when, l, to[a]) == L->rep[v] ? a : L->pick[v];
            }
        }
        memcpy(in_arc, nxt, L->n * sizeof *in_arc);
    }
    out->arcs = ssched_i_alloc(nr, sizeof *out->arcs);
    if (!out->arcs) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t v = 0; v < n; v++) /* by head node, original order */
        if (lab0[v] != NONE && v != root) {
            size_t e = in_arc[lab0[v]];
            out->arcs[out->n_arcs++] = e;
            mpq_add(out->weight, out->weight, cost[e]);
        }
    *found = 1;
done:
    free(parent);
    free(when);
    free(set_size);
    free(cur_rep);
    ssched_i_mpq_vec_free(c, m);
    ssched_i_mpq_vec_free(pick_cost, n);
    if (lv)
        levels_free(lv, n_lv);
    free(lab0);
    free(tail);
    free(head);
    free(stamp);
    free(in_arc);
    free(nxt);
    free(alive);
    return st;
}

