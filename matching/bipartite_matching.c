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
    h->saved = NULL;
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
    if (!h->adj_start || !h->adj_len || !h->adj || !h->rank || !h->mate_l || !h->mate_r ||
        !h->dist || !h->queue || !h->iter || !h->stack || !h->via || !h->saved) {
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
void ssched_i_mt_hk_compact(mt_hk_t *h)
{
    for (size_t u = 0; u < h->n; u++) {
        if (h->mate_l[u] == MT_NONE || h->rank[h->mate_l[u]] != MT_NONE)
            continue;
        size_t *a = h->adj + h->adj_start[u], k = 0;
        for (size_t i = 0; i < h->adj_len[u]; i++)
            if (h->rank[a[i]] != MT_NONE)
                a[k++] = a[i];
        h->adj_len[u] = k;
    }
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
    while (h->size < h->n && hk_bfs(h, limit)) {
        for (size_t u = 0; u < h->n; u++)
            h->iter[u] = 0;
        for (size_t u = 0; u < h->n; u++)
            if (h->mate_l[u] == MT_NONE && hk_dfs(h, u, limit))
                h->size++;
    }
    return h->size;
}
