/* Hopcroft–Karp maximum bipartite matching on the padded graph, restricted to
 * the pairs whose rank is at most a threshold, and warm-started from the
 * matching left by the previous call.
 *
 * Why warm starts: successive rounds of the decomposition differ only in the
 * few pairs that were zeroed, and successive probes of the bottleneck search
 * differ only in the pairs above/below the threshold.  Keeping the matching
 * (minus the pairs that became unusable) means most calls need one or two
 * augmenting phases instead of building a matching from scratch.
 *
 * Hopcroft & Karp, SIAM J. Comput. 2(4), 1973: each phase finds a maximal set
 * of vertex-disjoint shortest augmenting paths by one BFS (layering) and one
 * DFS pass; O(sqrt(n)) phases.  The DFS is iterative so that augmenting paths
 * of length ~n cannot overflow the C stack. */
#include <stdlib.h>

#include "matching/internal.h"

#define HK_INF MT_NONE

void ssched_i_mt_hk_free(mt_hk_t *h)
{
    free(h->adj_start);
    free(h->adj_len);
    free(h->adj);
    free(h->rank);
    free(h->mate_l);
    free(h->mate_r);
    free(h->dist);
    free(h->queue);
    free(h->iter);
    free(h->stack);
    free(h->via);
    free(h->saved);
    free(h->radj_start);
    free(h->radj_len);
    free(h->radj);
    h->saved = h->radj_start = h->radj_len = h->radj = NULL;
    h->adj_start = h->adj_len = h->adj = h->rank = NULL;
    h->mate_l = h->mate_r = h->dist = h->queue = h->iter = h->stack = h->via = NULL;
}

/* Build the left adjacency of g's pairs; empty matching, every rank 0.
 * Returns SSCHED_OK or SSCHED_ENOMEM (h is then freed). */
ssched_status_t ssched_i_mt_hk_init(mt_hk_t *h, const mt_padded_t *g)
{
    size_t n = g->n, m = g->n_pairs, nn = n ? n : 1, mm = m ? m : 1;
    h->n = n;
    h->pu = g->pu;
    h->pv = g->pv;
    h->size = 0;
    h->adj_start = calloc(nn + 1, sizeof *h->adj_start);
    h->adj_len = calloc(nn, sizeof *h->adj_len);
    h->adj = malloc(mm * sizeof *h->adj);
    h->rank = calloc(mm, sizeof *h->rank);
    h->mate_l = malloc(nn * sizeof *h->mate_l);
    h->mate_r = malloc(nn * sizeof *h->mate_r);
    h->dist = malloc(nn * sizeof *h->dist);
    h->queue = malloc(nn * sizeof *h->queue);
    h->iter = malloc(nn * sizeof *h->iter);
    h->stack = malloc((nn + 1) * sizeof *h->stack);
    h->via = malloc((nn + 1) * sizeof *h->via);
    h->saved = malloc(nn * sizeof *h->saved);
    h->radj_start = calloc(nn + 1, sizeof *h->radj_start);
    h->radj = malloc(mm * sizeof *h->radj);
    h->radj_len = calloc(nn, sizeof *h->radj_len);
    if (!h->adj_start || !h->adj_len || !h->adj || !h->rank || !h->mate_l || !h->mate_r ||
        !h->dist || !h->queue || !h->iter || !h->stack || !h->via || !h->saved ||
        !h->radj_start || !h->radj || !h->radj_len) {
        ssched_i_mt_hk_free(h);
        return SSCHED_ENOMEM;
    }
    for (size_t p = 0; p < m; p++)
        h->adj_start[g->pu[p] + 1]++;
    for (size_t u = 0; u < n; u++)
        h->adj_start[u + 1] += h->adj_start[u];
    for (size_t p = 0; p < m; p++) {
        size_t u = g->pu[p];
        h->adj[h->adj_start[u] + h->adj_len[u]++] = p;
    }
    for (size_t p = 0; p < m; p++)
        h->radj_start[g->pv[p] + 1]++;
    for (size_t v = 0; v < n; v++)
        h->radj_start[v + 1] += h->radj_start[v];
    for (size_t p = 0; p < m; p++)
        h->radj[h->radj_start[g->pv[p]] + h->radj_len[g->pv[p]]++] = p;
    for (size_t x = 0; x < n; x++)
        h->mate_l[x] = h->mate_r[x] = MT_NONE;
    return SSCHED_OK;
}

/* Only left nodes whose matched pair has just died can hold a dead pair that
 * is not compacted yet (a pair dies only while matched, see decompose.c), so
 * only their lists are rewritten: O(n + their degrees) per round instead of
 * O(pairs), which made the decomposition quadratic in the pairs (rounds are
 * about as many as pairs).  The lists end up exactly as a full pass leaves
 * them, in the same order. */
/* Left node u's matched pair has died: drop the dead pairs from u's list
 * and from that pair's right node's list. */
static void compact_node(mt_hk_t *h, size_t u)
{
    size_t *a = h->adj + h->adj_start[u], k = 0;
    for (size_t i = 0; i < h->adj_len[u]; i++)
        if (h->rank[a[i]] != MT_NONE)
            a[k++] = a[i];
    h->adj_len[u] = k;
    size_t v = h->pv[h->mate_l[u]]; /* the same pair's right list */
    a = h->radj + h->radj_start[v];
    k = 0;
    for (size_t i = 0; i < h->radj_len[v]; i++)
        if (h->rank[a[i]] != MT_NONE)
            a[k++] = a[i];
    h->radj_len[v] = k;
}

void ssched_i_mt_hk_compact(mt_hk_t *h)
{
    for (size_t u = 0; u < h->n; u++)
        if (h->mate_l[u] != MT_NONE && h->rank[h->mate_l[u]] == MT_NONE)
            compact_node(h, u);
}

void ssched_i_mt_hk_compact_nodes(mt_hk_t *h, const size_t *nodes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        compact_node(h, nodes[i]);
}

/* BFS layering from the free left nodes over usable pairs.  Returns 1 if
 * some free right node is reachable (an augmenting path exists). */
static int hk_bfs(mt_hk_t *h, size_t limit)
{
    size_t head = 0, tail = 0, found_layer = HK_INF;
    int found = 0;
    for (size_t u = 0; u < h->n; u++) {
        if (h->mate_l[u] == MT_NONE) {
            h->dist[u] = 0;
            h->queue[tail++] = u;
        } else {
            h->dist[u] = HK_INF;
        }
    }
    while (head < tail) {
        size_t u = h->queue[head++];
        if (found && h->dist[u] > found_layer)
            break; /* only the shortest augmenting paths matter this phase */
        const size_t *a = h->adj + h->adj_start[u];
        for (size_t i = 0; i < h->adj_len[u]; i++) {
            size_t p = a[i];
            if (h->rank[p] > limit)
                continue;
            size_t mp = h->mate_r[h->pv[p]];
            if (mp == MT_NONE) {
                found = 1;
                found_layer = h->dist[u];
            } else {
                size_t w = h->pu[mp];
                if (h->dist[w] == HK_INF) {
                    h->dist[w] = h->dist[u] + 1;
                    h->queue[tail++] = w;
                }
            }
        }
    }
    return found;
}

/* Is some usable pair into right node v from a left node of layer d? */
static int reached_from(const mt_hk_t *h, size_t v, size_t d, size_t limit)
{
    for (size_t k = h->radj_start[v]; k < h->radj_start[v] + h->radj_len[v]; k++) {
        size_t p = h->radj[k];
        if (h->rank[p] <= limit && h->dist[h->pu[p]] == d)
            return 1;
    }
    return 0;
}

/* hk_bfs's layers when one left node u is free (a decomposition round that
 * zeroed one pair), computed without scanning the lists of the layer-1
 * nodes: in a dense graph layer 1 is nearly every left node, so hk_bfs
 * read nearly every pair each round, and the rounds are about as many as
 * the pairs (quadratic: P = 512 redistribution, 2.6·10^5 pairs).
 * hk_bfs stops after the layer where the free right node v is first seen
 * (found_layer); every node of that layer is still scanned, so it gives
 *   layer 0: u;  layer 1: the mates of u's usable neighbours;
 *   found at 0 (u reaches v): nothing else;
 *   found at 1 (a layer-1 node reaches v): layer 2 = every other left node
 *     matched to a right node that a layer-1 node reaches;
 * and every other left node INF.  Those sets are computed here from the
 * right adjacency (the right nodes outside layers 0-1 are few when layer
 * 1 is large); the DFS then runs on the same dist[] and augments along the
 * same path, so the matchings, hence the decomposition, are unchanged.
 * Returns 1 (found, dist[] as hk_bfs leaves it) or -1: v lies deeper, let
 * hk_bfs do it. */
static int layers_one_free(mt_hk_t *h, size_t limit)
{
    size_t u = MT_NONE, v = MT_NONE;
    for (size_t x = 0; x < h->n; x++) {
        h->dist[x] = HK_INF;
        if (h->mate_l[x] == MT_NONE)
            u = x;
        if (h->mate_r[x] == MT_NONE)
            v = x;
    }
    if (u == MT_NONE || v == MT_NONE)
        return -1;
    h->dist[u] = 0;
    int at0 = 0;
    const size_t *a = h->adj + h->adj_start[u];
    for (size_t i = 0; i < h->adj_len[u]; i++) {
        size_t p = a[i];
        if (h->rank[p] > limit)
            continue;
        size_t mp = h->mate_r[h->pv[p]];
        if (mp == MT_NONE)
            at0 = 1;
        else if (h->dist[h->pu[mp]] == HK_INF)
            h->dist[h->pu[mp]] = 1;
    }
    if (at0)
        return 1;
    if (!reached_from(h, v, 1, limit))
        return -1;
    /* layer 2 is the left nodes still INF whose matched right node a
     * layer-1 node reaches.  The DFS reads dist[w] == d + 1 only for a w
     * reached from a node of layer d, so a 2 is read only from layer 1,
     * where "reached from layer 1" holds by itself: any INF node may be
     * given 2.  And from a node w of layer 2 the DFS looks for a free right
     * node (only v) or a node of layer 3 (none): it augments through w iff
     * w has a usable pair to v, and otherwise scans w's whole list, fails
     * and sets dist[w] = INF.  So only those INF nodes with a usable pair
     * to v get 2 (read from v's right list); for the others the DFS now
     * skips at once what it used to enter, scan and abandon, and it takes
     * the same augmenting path.  (Entering those dead ends was most of the
     * search in the sparse rounds of the P = 512 preemptive
     * redistribution.  Before that, the exact layer 2 scanned right lists
     * to their ends each round.) */
    for (size_t k = h->radj_start[v]; k < h->radj_start[v] + h->radj_len[v]; k++) {
        size_t p = h->radj[k], w = h->pu[p];
        if (h->rank[p] <= limit && h->dist[w] == HK_INF)
            h->dist[w] = 2;
    }
    return 1;
}

/* Iterative DFS along the BFS layers from the free left node root; augments
 * and returns 1 on success.  Dead ends get dist = INF so that no later DFS
 * of the same phase revisits them (the O(m) per phase bound). */
static int hk_dfs(mt_hk_t *h, size_t root, size_t limit)
{
    size_t depth = 1;
    h->stack[0] = root;
    while (depth > 0) {
        size_t u = h->stack[depth - 1];
        int advanced = 0;
        const size_t *a = h->adj + h->adj_start[u];
        while (h->iter[u] < h->adj_len[u]) {
            size_t p = a[h->iter[u]++];
            if (h->rank[p] > limit)
                continue;
            size_t mp = h->mate_r[h->pv[p]];
            if (mp == MT_NONE) {
                /* Augment: stack[i] takes via[i]; the last takes p. */
                h->via[depth - 1] = p;
                for (size_t i = 0; i < depth; i++) {
                    size_t q = h->via[i];
                    h->mate_l[h->stack[i]] = q;
                    h->mate_r[h->pv[q]] = q;
                }
                return 1;
            }
            size_t w = h->pu[mp];
            if (h->dist[w] != HK_INF && h->dist[w] == h->dist[u] + 1) {
                h->via[depth - 1] = p;
                h->stack[depth++] = w;
                advanced = 1;
                break;
            }
        }
        if (!advanced) {
            h->dist[u] = HK_INF;
            depth--;
        }
    }
    return 0;
}

size_t ssched_i_mt_hk_maximize(mt_hk_t *h, size_t limit)
{
    /* Warm start: keep every matched pair that is still usable. */
    for (size_t u = 0; u < h->n; u++) {
        size_t p = h->mate_l[u];
        if (p != MT_NONE && h->rank[p] > limit) {
            h->mate_l[u] = MT_NONE;
            h->mate_r[h->pv[p]] = MT_NONE;
            h->size--;
        }
    }
    int layered = h->size + 1 == h->n ? layers_one_free(h, limit) : -1;
    while (h->size < h->n && (layered >= 0 || hk_bfs(h, limit))) {
        layered = -1;
        for (size_t u = 0; u < h->n; u++)
            h->iter[u] = 0;
        for (size_t u = 0; u < h->n; u++)
            if (h->mate_l[u] == MT_NONE && hk_dfs(h, u, limit))
                h->size++;
    }
    return h->size;
}
