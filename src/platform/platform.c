/* Platform graph construction, lookup and reachability (platform.h). */
#include "src/util/internal.h"
#include "ssched/platform.h"
#include "src/platform/name_index.h"
#include "src/platform/platform_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void ssched_platform_init(ssched_platform_t *p)
{
    memset(p, 0, sizeof *p);
}

static int grow(void **ptr, size_t elem, size_t need)
{
    void *q = realloc(*ptr, elem * (need ? need : 1));
    if (!q)
        return 0;
    *ptr = q;
    return 1;
}

static void routes_free(ssched_routes_t *r)
{
    if (!r)
        return;
    for (size_t k = 0; k < r->n_links; k++) {
        free(r->link_names[k]);
        mpq_clear(r->link_c[k]);
        mpq_clear(r->link_latency[k]);
    }
    free(r->link_names);
    free(r->link_c);
    free(r->link_latency);
    free(r->sharing);
    free(r->route_start);
    free(r->route_links);
    free(r);
}

void ssched_platform_free(ssched_platform_t *p)
{
    for (size_t i = 0; i < p->n_nodes; i++) {
        free(p->names[i]);
        mpq_clear(p->w[i]);
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        mpq_clear(p->c[e]);
        mpq_clear(p->l[e]);
    }
    free(p->l);
    if (p->name_index) {
        ssched_i_name_index_free(p->name_index);
        free(p->name_index);
    }
    routes_free(p->routes);
    free(p->names);
    free(p->has_w);
    free(p->multiport);
    free(p->w);
    free(p->from);
    free(p->to);
    free(p->c);
    free(p->out_start);
    free(p->out_list);
    free(p->in_start);
    free(p->in_list);
    memset(p, 0, sizeof *p);
}


/* A name that reaches text output must not hold a control character (it
 * could forge a line of a table or a message): every reader adds its nodes
 * through ssched_i_platform_add_node_new, so this one check covers them. */
static ssched_status_t check_name(const char *kind, const char *name, ssched_error_t *err)
{
    long bad = ssched_i_name_control(name);
    if (bad < 0)
        return SSCHED_OK;
    char shown[160];
    return ssched_error_set(err, SSCHED_EINPUT,
                            "%s '%s': control character 0x%02x in the name (at byte %ld)", kind,
                            ssched_i_name_shown(name, shown, sizeof shown),
                            (unsigned)(unsigned char)name[bad], bad);
}

ssched_status_t ssched_platform_add_node(ssched_platform_t *p, const char *name,
                                         mpq_srcptr w, size_t *index,
                                         ssched_error_t *err)
{
    if (!name || !*name)
        return ssched_error_set(err, SSCHED_EINPUT, "node with an empty name");
    /* the name index makes the duplicate check O(1) (add_node_new refuses
     * a duplicate) */
    return ssched_i_platform_add_node_new(p, name, w, index, err);
}

ssched_status_t ssched_i_platform_add_node_new(ssched_platform_t *p, const char *name,
                                             mpq_srcptr w, size_t *index,
                                             ssched_error_t *err)
{
    ssched_status_t st = check_name("node", name, err);
    if (st != SSCHED_OK)
        return st;
    if (w && mpq_sgn(w) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "node '%s': w must be positive", name);
    if (!p->name_index && !(p->name_index = ssched_i_calloc(1, sizeof(ssched_name_index_t))))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (ssched_i_name_index_find(p->name_index, (const char *const *)p->names, name) !=
        (size_t)-1)
        return ssched_error_set(err, SSCHED_EINPUT, "duplicate node '%s'", name);
    if (p->n_nodes == p->node_cap) {
        size_t cap = p->node_cap ? 2 * p->node_cap : 16;
        if (!grow((void **)&p->names, sizeof *p->names, cap) ||
            !grow((void **)&p->has_w, sizeof *p->has_w, cap) ||
            !grow((void **)&p->multiport, sizeof *p->multiport, cap) ||
            !grow((void **)&p->w, sizeof *p->w, cap))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        p->node_cap = cap;
    }
    size_t i = p->n_nodes;
    p->names[i] = strdup(name);
    if (!p->names[i])
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (ssched_i_name_index_add(p->name_index, (const char *const *)p->names, i, NULL) < 0) {
        free(p->names[i]);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_init(p->w[i]);
    p->has_w[i] = w != NULL;
    p->multiport[i] = 0; /* one-port (RR-4872) until marked a switch */
    if (w)
        mpq_set(p->w[i], w);
    p->n_nodes++;
    if (index)
        *index = i;
    return SSCHED_OK;
}

static ssched_status_t add_edge_raw(ssched_platform_t *p, size_t from, size_t to,
                                    mpq_srcptr c, ssched_error_t *err);

ssched_status_t ssched_platform_add_edge(ssched_platform_t *p, size_t from,
                                         size_t to, const mpq_t c,
                                         ssched_error_t *err)
{
    if (p->routes)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "an edge of a routed platform needs its route");
    return add_edge_raw(p, from, to, c, err);
}

static ssched_status_t add_edge_raw(ssched_platform_t *p, size_t from, size_t to,
                                    mpq_srcptr c, ssched_error_t *err)
{
    if (from >= p->n_nodes || to >= p->n_nodes)
        return ssched_error_set(err, SSCHED_EINPUT, "edge endpoint out of range");
    if (from == to)
        return ssched_error_set(err, SSCHED_EINPUT, "self-loop on node '%s'",
                                p->names[from]);
    if (mpq_sgn(c) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "edge %s->%s: c must be positive",
                                p->names[from], p->names[to]);
    if (p->n_edges == p->edge_cap) {
        size_t cap = p->edge_cap ? 2 * p->edge_cap : 32;
        if (!grow((void **)&p->from, sizeof *p->from, cap) ||
            !grow((void **)&p->to, sizeof *p->to, cap) ||
            !grow((void **)&p->c, sizeof *p->c, cap) ||
            !grow((void **)&p->l, sizeof *p->l, cap))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        p->edge_cap = cap;
    }
    size_t e = p->n_edges++;
    p->from[e] = from;
    p->to[e] = to;
    mpq_init(p->c[e]);
    mpq_set(p->c[e], c);
    mpq_init(p->l[e]);
    return SSCHED_OK;
}

ssched_status_t ssched_platform_set_latency(ssched_platform_t *p, size_t e, mpq_srcptr l,
                                            ssched_error_t *err)
{
    if (e >= p->n_edges)
        return ssched_error_set(err, SSCHED_EINPUT, "latency of an edge out of range");
    if (mpq_sgn(l) < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "edge %s->%s: latency must not be negative",
                                p->names[p->from[e]], p->names[p->to[e]]);
    mpq_set(p->l[e], l);
    return SSCHED_OK;
}

int ssched_platform_has_latency(const ssched_platform_t *p)
{
    for (size_t e = 0; e < p->n_edges; e++)
        if (mpq_sgn(p->l[e]) > 0)
            return 1;
    return 0;
}

ssched_status_t ssched_platform_make_routed(ssched_platform_t *p, ssched_error_t *err)
{
    if (p->routes)
        return SSCHED_OK;
    if (p->n_edges)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "a platform becomes routed before its first edge");
    p->routes = calloc(1, sizeof *p->routes);
    if (!p->routes)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    p->routes->route_start = calloc(1, sizeof *p->routes->route_start);
    if (!p->routes->route_start) {
        free(p->routes);
        p->routes = NULL;
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    return SSCHED_OK;
}

ssched_status_t ssched_platform_add_link(ssched_platform_t *p, const char *name,
                                         mpq_srcptr link_c, mpq_srcptr latency,
                                         ssched_link_sharing_t sharing, size_t *index,
                                         ssched_error_t *err)
{
    ssched_routes_t *r = p->routes;
    if (!r)
        return ssched_error_set(err, SSCHED_EINPUT, "links need a routed platform");
    if (!name || !*name)
        return ssched_error_set(err, SSCHED_EINPUT, "link with an empty name");
    if (check_name("link", name, err) != SSCHED_OK)
        return SSCHED_EINPUT;
    if (mpq_sgn(link_c) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "link '%s': bandwidth must be positive",
                                name);
    if (latency && mpq_sgn(latency) < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "link '%s': latency must not be negative",
                                name);
    if (sharing != SSCHED_LINK_SHARED && sharing != SSCHED_LINK_FATPIPE)
        return ssched_error_set(err, SSCHED_EINPUT, "link '%s': unknown sharing policy", name);
    if (r->n_links == r->link_cap) {
        size_t cap = r->link_cap ? 2 * r->link_cap : 16;
        if (!grow((void **)&r->link_names, sizeof *r->link_names, cap) ||
            !grow((void **)&r->link_c, sizeof *r->link_c, cap) ||
            !grow((void **)&r->link_latency, sizeof *r->link_latency, cap) ||
            !grow((void **)&r->sharing, sizeof *r->sharing, cap))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        r->link_cap = cap;
    }
    size_t k = r->n_links;
    r->link_names[k] = strdup(name);
    if (!r->link_names[k])
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_init(r->link_c[k]);
    mpq_set(r->link_c[k], link_c);
    mpq_init(r->link_latency[k]);
    if (latency)
        mpq_set(r->link_latency[k], latency);
    r->sharing[k] = sharing;
    r->n_links++;
    if (index)
        *index = k;
    return SSCHED_OK;
}

ssched_status_t ssched_platform_add_routed_edge(ssched_platform_t *p, size_t from, size_t to,
                                                const size_t *links, size_t n,
                                                ssched_error_t *err)
{
    ssched_routes_t *r = p->routes;
    if (!r)
        return ssched_error_set(err, SSCHED_EINPUT, "routes need a routed platform");
    if (n == 0 || from >= p->n_nodes || to >= p->n_nodes)
        return ssched_error_set(err, SSCHED_EINPUT, "route without links");
    for (size_t a = 0; a < n; a++) {
        if (links[a] >= r->n_links)
            return ssched_error_set(err, SSCHED_EINPUT, "route %s->%s: link out of range",
                                    p->names[from], p->names[to]);
        for (size_t b = 0; b < a; b++)
            if (links[a] == links[b])
                return ssched_error_set(err, SSCHED_EINPUT,
                                        "route %s->%s crosses link '%s' twice", p->names[from],
                                        p->names[to], r->link_names[links[a]]);
    }
    size_t used = r->route_start[p->n_edges];
    if (used + n > r->route_cap) {
        size_t cap = r->route_cap ? 2 * r->route_cap : 64;
        while (cap < used + n)
            cap *= 2;
        if (!grow((void **)&r->route_links, sizeof *r->route_links, cap))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        r->route_cap = cap;
    }
    if (p->n_edges + 2 > r->edge_cap) {
        size_t cap = r->edge_cap ? 2 * r->edge_cap : 32;
        while (cap < p->n_edges + 2)
            cap *= 2;
        if (!grow((void **)&r->route_start, sizeof *r->route_start, cap))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        r->edge_cap = cap;
    }
    /* The lone message's time per unit is its bottleneck link's; the
     * latencies add up once per message (CM02). */
    mpq_t c, l;
    mpq_init(c);
    mpq_init(l);
    for (size_t a = 0; a < n; a++) {
        if (mpq_cmp(r->link_c[links[a]], c) > 0)
            mpq_set(c, r->link_c[links[a]]);
        mpq_add(l, l, r->link_latency[links[a]]);
    }
    ssched_status_t st = add_edge_raw(p, from, to, c, err);
    if (st == SSCHED_OK) {
        mpq_set(p->l[p->n_edges - 1], l);
        memcpy(r->route_links + used, links, n * sizeof *links);
        r->route_start[p->n_edges] = used + n;
    }
    mpq_clear(c);
    mpq_clear(l);
    return st;
}

/* Counting sort of edge indices by key (from or to): edges keep ascending
 * order inside each bucket, so adjacency lists are deterministic. */
static int bucket_edges(size_t n, size_t m, const size_t *key, size_t **start,
                        size_t **list)
{
    *start = calloc(n + 1, sizeof **start);
    *list = ssched_i_alloc(m, sizeof **list);
    if (!*start || !*list)
        return 0;
    for (size_t e = 0; e < m; e++)
        (*start)[key[e] + 1]++;
    for (size_t i = 0; i < n; i++)
        (*start)[i + 1] += (*start)[i];
    size_t *fill = ssched_i_alloc(n, sizeof *fill);
    if (!fill)
        return 0;
    memcpy(fill, *start, n * sizeof *fill);
    for (size_t e = 0; e < m; e++)
        (*list)[fill[key[e]]++] = e;
    free(fill);
    return 1;
}

ssched_status_t ssched_platform_finalize(ssched_platform_t *p, ssched_error_t *err)
{
    free(p->out_start);
    free(p->out_list);
    free(p->in_start);
    free(p->in_list);
    p->out_start = p->out_list = p->in_start = p->in_list = NULL;
    if (!bucket_edges(p->n_nodes, p->n_edges, p->from, &p->out_start, &p->out_list) ||
        !bucket_edges(p->n_nodes, p->n_edges, p->to, &p->in_start, &p->in_list))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* Parallel edges: within one out-list, heads must be distinct.  A
     * one-port LP has no use for two links between the same ordered pair,
     * and a platform file that lists one twice is almost surely a mistake. */
    size_t *seen = ssched_i_alloc(p->n_nodes, sizeof *seen);
    if (!seen)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->n_nodes; i++)
        seen[i] = SIZE_MAX;
    for (size_t i = 0; i < p->n_nodes; i++) {
        for (size_t k = p->out_start[i]; k < p->out_start[i + 1]; k++) {
            size_t e = p->out_list[k];
            if (seen[p->to[e]] == i) {
                free(seen);
                return ssched_error_set(err, SSCHED_EINPUT, "parallel edges %s->%s",
                                        p->names[i], p->names[p->to[e]]);
            }
            seen[p->to[e]] = i;
        }
    }
    free(seen);
    return SSCHED_OK;
}

size_t ssched_platform_edge_index(const ssched_platform_t *p, size_t from, size_t to)
{
    if (!p->out_start || from >= p->n_nodes)
        return (size_t)-1;
    for (size_t k = p->out_start[from]; k < p->out_start[from + 1]; k++)
        if (p->to[p->out_list[k]] == to)
            return p->out_list[k];
    return (size_t)-1;
}

/* The name index answers in O(1) expected time; a platform whose nodes
 * were all added by ssched_platform_add_node has one (an empty platform
 * has none and no node). */
static size_t lookup(const ssched_platform_t *p, const char *name)
{
    if (!p->name_index)
        return (size_t)-1;
    return ssched_i_name_index_find(p->name_index, (const char *const *)p->names, name);
}

ssched_status_t ssched_platform_find_node(const ssched_platform_t *p,
                                          const char *name, size_t *index,
                                          ssched_error_t *err)
{
    size_t i = lookup(p, name);
    if (i == (size_t)-1) {
        char shown[160];
        return ssched_error_set(err, SSCHED_EINPUT, "unknown node '%s'",
                                ssched_i_name_shown(name, shown, sizeof shown));
    }
    *index = i;
    return SSCHED_OK;
}

/* O(length + n_nodes): one index lookup per item, duplicates by a mark per
 * node (the old linear search per name and pairwise duplicate check took
 * minutes for 10^4 targets, issue 24 item 5). */
ssched_status_t ssched_platform_parse_node_list(const ssched_platform_t *p,
                                                const char *text, const char *what,
                                                size_t **list, size_t *count,
                                                ssched_error_t *err)
{
    *list = NULL;
    *count = 0;
    if (!text || !*text)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: empty node list", what);
    char *copy = strdup(text);
    size_t cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == ',';
    size_t *out = ssched_i_alloc(cap, sizeof *out);
    unsigned char *listed = ssched_i_calloc(p->n_nodes, 1);
    if (!copy || !out || !listed) {
        free(copy);
        free(out);
        free(listed);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    size_t n = 0;
    ssched_status_t st = SSCHED_OK;
    char *item = copy;
    char shown[160];
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (!*item) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: empty item in '%s'", what,
                                  ssched_i_name_shown(text, shown, sizeof shown));
            break;
        }
        size_t idx = lookup(p, item);
        if (idx == (size_t)-1) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: unknown node '%s'", what,
                                  ssched_i_name_shown(item, shown, sizeof shown));
            break;
        }
        if (listed[idx]) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: node '%s' listed twice", what,
                                  ssched_i_name_shown(item, shown, sizeof shown));
            break;
        }
        listed[idx] = 1;
        out[n++] = idx;
        if (!comma)
            break;
        item = comma + 1;
    }
    free(copy);
    free(listed);
    if (st != SSCHED_OK) {
        free(out);
        return st;
    }
    *list = out;
    *count = n;
    return SSCHED_OK;
}

ssched_status_t ssched_platform_reachable(const ssched_platform_t *p, size_t node,
                                          int reverse, unsigned char *reach,
                                          ssched_error_t *err)
{
    memset(reach, 0, p->n_nodes);
    size_t *stack = ssched_i_alloc(p->n_nodes, sizeof *stack);
    if (!stack)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    const size_t *start = reverse ? p->in_start : p->out_start;
    const size_t *list = reverse ? p->in_list : p->out_list;
    const size_t *other = reverse ? p->from : p->to;
    size_t top = 0;
    reach[node] = 1;
    stack[top++] = node;
    while (top) {
        size_t i = stack[--top];
        for (size_t k = start[i]; k < start[i + 1]; k++) {
            size_t j = other[list[k]];
            if (!reach[j]) {
                reach[j] = 1;
                stack[top++] = j;
            }
        }
    }
    free(stack);
    return SSCHED_OK;
}
