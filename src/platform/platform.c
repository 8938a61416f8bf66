/* Platform graph construction, lookup and reachability (platform.h). */
#include "src/util/internal.h"
#include "ssched/platform.h"
#include "src/platform/platform_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void ssched_platform_init(ssched_platform_t *p)
{
    memset(p, 0, sizeof *p);
}

void ssched_platform_free(ssched_platform_t *p)
{
    for (size_t i = 0; i < p->n_nodes; i++) {
        free(p->names[i]);
        mpq_clear(p->w[i]);
    }
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_clear(p->c[e]);
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

static int grow(void **ptr, size_t elem, size_t need)
{
    void *q = realloc(*ptr, elem * (need ? need : 1));
    if (!q)
        return 0;
    *ptr = q;
    return 1;
}

ssched_status_t ssched_platform_add_node(ssched_platform_t *p, const char *name,
                                         mpq_srcptr w, size_t *index,
                                         ssched_error_t *err)
{
    if (!name || !*name)
        return ssched_error_set(err, SSCHED_EINPUT, "node with an empty name");
    for (size_t i = 0; i < p->n_nodes; i++)
        if (!strcmp(p->names[i], name))
            return ssched_error_set(err, SSCHED_EINPUT, "duplicate node '%s'", name);
    return ssched_i_platform_add_node_new(p, name, w, index, err);
}

ssched_status_t ssched_i_platform_add_node_new(ssched_platform_t *p, const char *name,
                                             mpq_srcptr w, size_t *index,
                                             ssched_error_t *err)
{
    if (w && mpq_sgn(w) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "node '%s': w must be positive", name);
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

ssched_status_t ssched_platform_add_edge(ssched_platform_t *p, size_t from,
                                         size_t to, const mpq_t c,
                                         ssched_error_t *err)
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
            !grow((void **)&p->c, sizeof *p->c, cap))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        p->edge_cap = cap;
    }
    size_t e = p->n_edges++;
    p->from[e] = from;
    p->to[e] = to;
    mpq_init(p->c[e]);
    mpq_set(p->c[e], c);
    return SSCHED_OK;
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

ssched_status_t ssched_platform_find_node(const ssched_platform_t *p,
                                          const char *name, size_t *index,
                                          ssched_error_t *err)
{
    for (size_t i = 0; i < p->n_nodes; i++)
        if (!strcmp(p->names[i], name)) {
            *index = i;
            return SSCHED_OK;
        }
    return ssched_error_set(err, SSCHED_EINPUT, "unknown node '%s'", name);
}

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
    size_t *out = malloc(cap * sizeof *out);
    if (!copy || !out) {
        free(copy);
        free(out);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    size_t n = 0;
    ssched_status_t st = SSCHED_OK;
    char *item = copy;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (!*item) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: empty item in '%s'", what, text);
            break;
        }
        size_t idx = 0;
        if (ssched_platform_find_node(p, item, &idx, err) != SSCHED_OK) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: unknown node '%s'", what, item);
            break;
        }
        for (size_t k = 0; k < n && st == SSCHED_OK; k++)
            if (out[k] == idx)
                st = ssched_error_set(err, SSCHED_EINPUT, "%s: node '%s' listed twice",
                                      what, item);
        if (st != SSCHED_OK)
            break;
        out[n++] = idx;
        if (!comma)
            break;
        item = comma + 1;
    }
    free(copy);
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
