/* Shortest routes of the direct pattern (unroll_direct.c): Dijkstra by
 * l(e) + size c(e), exact, with an indexed binary heap over the platform's
 * adjacency lists. */
#include <stdint.h>
#include <stdlib.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* Dijkstra's indexed binary heap on dist[]: heap[0..n) node ids, pos[v]
 * their places (SIZE_MAX: not in it). */
typedef struct {
    size_t *heap, *pos, n;
    mpq_t *dist;
} dheap_t;

static void dh_swap(dheap_t *h, size_t a, size_t b)
{
    size_t t = h->heap[a];
    h->heap[a] = h->heap[b];
    h->heap[b] = t;
    h->pos[h->heap[a]] = a;
    h->pos[h->heap[b]] = b;
}

static void dh_up(dheap_t *h, size_t k)
{
    while (k > 0 && mpq_cmp(h->dist[h->heap[k]], h->dist[h->heap[(k - 1) / 2]]) < 0) {
        dh_swap(h, k, (k - 1) / 2);
        k = (k - 1) / 2;
    }
}

static size_t dh_pop(dheap_t *h)
{
    size_t top = h->heap[0];
    h->pos[top] = SIZE_MAX;
    if (--h->n > 0) {
        h->heap[0] = h->heap[h->n];
        h->pos[h->heap[0]] = 0;
        for (size_t k = 0;;) {
            size_t c = 2 * k + 1;
            if (c >= h->n)
                break;
            if (c + 1 < h->n && mpq_cmp(h->dist[h->heap[c + 1]], h->dist[h->heap[c]]) < 0)
                c++;
            if (mpq_cmp(h->dist[h->heap[c]], h->dist[h->heap[k]]) >= 0)
                break;
            dh_swap(h, k, c);
            k = c;
        }
    }
    return top;
}

/* Shortest routes from src by l(e) + size c(e) (exact; Dijkstra with a
 * heap over the adjacency lists, O(m log n)): par[v] = the edge into v on
 * a shortest route, SIZE_MAX for src and the nodes it cannot reach (ties:
 * the first edge found).  Routed platforms: the overlay edge src -> v when
 * there is one (one hop, one route). */
int ssched_i_sched_direct_routes(const ssched_platform_t *p, mpq_srcptr size, size_t src,
                                 size_t *par)
{
    size_t n = p->n_nodes;
    dheap_t h = {ssched_i_alloc(n, sizeof(size_t)), ssched_i_alloc(n, sizeof(size_t)), 0,
                 ssched_i_mpq_vec_new(n)};
    unsigned char *seen = ssched_i_calloc(n, 1);
    if (!h.heap || !h.pos || !h.dist || !seen) {
        free(h.heap);
        free(h.pos);
        ssched_i_mpq_vec_free(h.dist, n);
        free(seen);
        return 0;
    }
    for (size_t v = 0; v < n; v++) {
        par[v] = SIZE_MAX;
        h.pos[v] = SIZE_MAX;
    }
    mpq_t q;
    mpq_init(q);
    seen[src] = 1;
    h.heap[h.n++] = src;
    h.pos[src] = 0;
    while (h.n > 0) {
        size_t u = dh_pop(&h);
        for (size_t k = p->out_start[u]; k < p->out_start[u + 1]; k++) {
            size_t e = p->out_list[k], v = p->to[e];
            if (v == src || (seen[v] && h.pos[v] == SIZE_MAX))
                continue; /* settled */
            mpq_mul(q, p->c[e], size);
            if (p->l)
                mpq_add(q, q, p->l[e]);
            mpq_add(q, q, h.dist[u]);
            if (seen[v] && mpq_cmp(q, h.dist[v]) >= 0)
                continue;
            mpq_set(h.dist[v], q);
            par[v] = e;
            if (!seen[v]) {
                seen[v] = 1;
                h.heap[h.n] = v;
                h.pos[v] = h.n++;
            }
            dh_up(&h, h.pos[v]);
        }
    }
    if (p->routes) /* one overlay edge when it exists */
        for (size_t k = p->out_start[src]; k < p->out_start[src + 1]; k++)
            if (p->to[p->out_list[k]] != src)
                par[p->to[p->out_list[k]]] = p->out_list[k];
    mpq_clear(q);
    free(h.heap);
    free(h.pos);
    ssched_i_mpq_vec_free(h.dist, n);
    free(seen);
    return 1;
}

/* The route src -> dst as edges from src (into path, room for n_nodes);
 * its length, or SIZE_MAX when dst is unreachable. */
size_t ssched_i_sched_direct_route(const ssched_platform_t *p, const size_t *par, size_t src,
                                   size_t dst, size_t *path)
{
    size_t h = 0;
    for (size_t v = dst; v != src; v = p->from[par[v]]) {
        if (par[v] == SIZE_MAX || h == p->n_nodes)
            return SIZE_MAX;
        path[h++] = par[v];
    }
    for (size_t i = 0; i < h / 2; i++) { /* from src */
        size_t t = path[i];
        path[i] = path[h - 1 - i];
        path[h - 1 - i] = t;
    }
    return h;
}
