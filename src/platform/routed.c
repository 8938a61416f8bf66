/* A graph platform as a routed one (platform.h, ssched_platform_route;
 * docs/model.md "Routed model", `--model routed`).
 *
 * Hosts are the nodes that are not routers, in graph order, with their
 * names and w.  Link resource k is graph edge k (a directed edge: an
 * undirected GraphML edge, two directed edges, is a full-duplex cable),
 * named "FROM->TO", SHARED, link_c = c(k), latency = l(k).  The route from
 * host a to host b is a shortest a->b path by total c in the whole graph
 * (its intermediate nodes may be routers or hosts: a SimGrid route is a
 * list of links, whatever they join).  Ties: fewest hops; then the path
 * Dijkstra's rule below finds, nodes settled by increasing (distance, hops,
 * index) and an arc kept only when strictly better, so the last hop comes
 * from the earliest-settled node that achieves the optimum.  A host pair
 * with no path gets no edge. */
#include "src/util/internal.h"
#include "ssched/platform.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Binary heap of (dist, hops, node) entries, least first; stale entries
 * (a node reached again more cheaply) are skipped when popped. */
typedef struct {
    size_t n, cap;
    size_t *node, *hops;
    mpq_t *dist;
} heap_t;

static int before(const heap_t *h, size_t a, size_t b)
{
    int c = mpq_cmp(h->dist[a], h->dist[b]);
    if (c)
        return c < 0;
    if (h->hops[a] != h->hops[b])
        return h->hops[a] < h->hops[b];
    return h->node[a] < h->node[b];
}

static void swap(heap_t *h, size_t a, size_t b)
{
    size_t t = h->node[a];
    h->node[a] = h->node[b];
    h->node[b] = t;
    t = h->hops[a];
    h->hops[a] = h->hops[b];
    h->hops[b] = t;
    mpq_swap(h->dist[a], h->dist[b]);
}

static int push(heap_t *h, size_t node, mpq_srcptr dist, size_t hops)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        size_t *nn = realloc(h->node, cap * sizeof *nn);
        if (nn)
            h->node = nn;
        size_t *nh = nn ? realloc(h->hops, cap * sizeof *nh) : NULL;
        if (nh)
            h->hops = nh;
        mpq_t *nd = nh ? realloc(h->dist, cap * sizeof *nd) : NULL;
        if (!nd)
            return 0;
        h->dist = nd;
        for (size_t k = h->cap; k < cap; k++)
            mpq_init(h->dist[k]);
        h->cap = cap;
    }
    size_t i = h->n++;
    h->node[i] = node;
    h->hops[i] = hops;
    mpq_set(h->dist[i], dist);
    for (; i > 0 && before(h, i, (i - 1) / 2); i = (i - 1) / 2)
        swap(h, i, (i - 1) / 2);
    return 1;
}

static void pop(heap_t *h)
{
    swap(h, 0, --h->n);
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && before(h, l, m))
            m = l;
        if (r < h->n && before(h, r, m))
            m = r;
        if (m == i)
            break;
        swap(h, i, m);
        i = m;
    }
}

/* Shortest paths from s: dist/hops per node, pred = the arc into it
 * (SIZE_MAX: unreached or s), done[v] = v reached.  Nodes are settled by
 * increasing (dist, hops, index); an arc replaces a node's label only when
 * strictly better.  O(m log m), exact.  0 on ENOMEM. */
static int shortest_from(const ssched_platform_t *g, size_t s, mpq_t *dist, size_t *hops,
                         size_t *pred, unsigned char *done, unsigned char *seen, heap_t *h)
{
    size_t n = g->n_nodes;
    mpq_t cand;
    mpq_init(cand);
    memset(done, 0, n);
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++)
        pred[i] = SIZE_MAX;
    mpq_set_ui(dist[s], 0, 1);
    hops[s] = 0;
    seen[s] = 1;
    h->n = 0;
    int ok = push(h, s, dist[s], 0);
    while (ok && h->n) {
        size_t u = h->node[0];
        int stale = done[u] || h->hops[0] != hops[u] || !mpq_equal(h->dist[0], dist[u]);
        pop(h);
        if (stale)
            continue;
        done[u] = 1;
        for (size_t k = g->out_start[u]; ok && k < g->out_start[u + 1]; k++) {
            size_t e = g->out_list[k], v = g->to[e];
            if (done[v])
                continue;
            mpq_add(cand, dist[u], g->c[e]);
            int c = seen[v] ? mpq_cmp(cand, dist[v]) : -1;
            if (c < 0 || (c == 0 && hops[u] + 1 < hops[v])) {
                mpq_set(dist[v], cand);
                hops[v] = hops[u] + 1;
                pred[v] = e;
                seen[v] = 1;
                ok = push(h, v, dist[v], hops[v]);
            }
        }
    }
    mpq_clear(cand);
    return ok;
}

static ssched_status_t add_links(const ssched_platform_t *g, ssched_platform_t *r,
                                 ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    for (size_t e = 0; e < g->n_edges && st == SSCHED_OK; e++) {
        const char *a = g->names[g->from[e]], *b = g->names[g->to[e]];
        size_t len = strlen(a) + strlen(b) + 32;
        char *name = ssched_i_alloc(len, 1);
        if (!name)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        snprintf(name, len, "%s->%s", a, b);
        for (size_t k = 0; k < r->routes->n_links; k++)
            if (!strcmp(r->routes->link_names[k], name)) { /* names holding "->" */
                snprintf(name, len, "%s->%s#%zu", a, b, e);
                break;
            }
        st = ssched_platform_add_link(r, name, g->c[e], g->l ? g->l[e] : NULL,
                                      SSCHED_LINK_SHARED, NULL, err);
        free(name);
    }
    return st;
}

ssched_status_t ssched_platform_route(const ssched_platform_t *g, const unsigned char *router,
                                      ssched_platform_t *r, ssched_error_t *err)
{
    size_t n = g->n_nodes;
    ssched_platform_init(r);
    if (g->routes)
        return ssched_error_set(err, SSCHED_EINPUT, "the platform is routed already");
    if (!g->out_start)
        return ssched_error_set(err, SSCHED_EINPUT, "the platform is not finalized");
    ssched_status_t st = ssched_platform_make_routed(r, err);
    size_t *host = ssched_i_alloc(n, sizeof *host); /* graph node -> host, or SIZE_MAX */
    size_t *hops = ssched_i_alloc(n, sizeof *hops), *pred = ssched_i_alloc(n, sizeof *pred);
    size_t *path = ssched_i_alloc(n, sizeof *path);
    unsigned char *done = ssched_i_alloc(n, 1), *seen = ssched_i_alloc(n, 1);
    mpq_t *dist = ssched_i_mpq_vec_new(n);
    heap_t heap = {0, 0, NULL, NULL, NULL};
    if (st == SSCHED_OK && (!host || !hops || !pred || !path || !done || !seen || !dist))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < n && st == SSCHED_OK; i++) {
        int is_router = router ? router[i] : (g->multiport && g->multiport[i]);
        host[i] = SIZE_MAX;
        if (!is_router)
            st = ssched_platform_add_node(r, g->names[i], g->has_w[i] ? g->w[i] : NULL,
                                          &host[i], err);
    }
    if (st == SSCHED_OK && r->n_nodes == 0)
        st = ssched_error_set(err, SSCHED_EINPUT, "every node is a router: no host");
    if (st == SSCHED_OK)
        st = add_links(g, r, err);
    for (size_t a = 0; a < n && st == SSCHED_OK; a++) {
        if (host[a] == SIZE_MAX)
            continue;
        if (!shortest_from(g, a, dist, hops, pred, done, seen, &heap)) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        for (size_t b = 0; b < n && st == SSCHED_OK; b++) {
            if (b == a || host[b] == SIZE_MAX || !done[b])
                continue;
            size_t len = hops[b];
            for (size_t v = b, k = len; v != a; v = g->from[pred[v]])
                path[--k] = pred[v]; /* link k = graph edge k */
            st = ssched_platform_add_routed_edge(r, host[a], host[b], path, len, err);
        }
    }
    if (st == SSCHED_OK)
        st = ssched_platform_finalize(r, err);
    free(host);
    free(hops);
    free(pred);
    free(path);
    free(done);
    free(seen);
    ssched_i_mpq_vec_free(dist, n);
    ssched_i_mpq_vec_free(heap.dist, heap.cap);
    free(heap.node);
    free(heap.hops);
    if (st != SSCHED_OK) {
        ssched_platform_free(r);
        ssched_platform_init(r);
    }
    return st;
}
