/* GML platforms, read by igraph's GML reader (igraph_read_graph_gml with
 * the C attribute handler), then turned into an exact ssched platform.
 *
 * Node names: the node's `label`, else its `name`, else its GML `id`
 * (Internet Topology Zoo files label nodes with city names).  A name given
 * twice gets " (id N)" appended to its later copies so every name stays
 * unique and the file still loads; the GML id is always unique.
 * Values: the node attribute a->w (default `w`, absent = a router), the
 * edge attribute a->c (default `c`, required), the edge attribute a->l
 * (default `l`: the latency, absent = 0, never negative), the node
 * attribute `ports` ("one" | "multi", a string: a number is refused).  A quoted string value is parsed exactly
 * ("1/3", "0.1"); a bare number went through igraph as a double, and is
 * taken as the simplest rational rounding to that double
 * (ssched_rational_from_double: 0.1 -> 1/10), which is the number written
 * whenever it has at most 15 significant digits.  `directed 1` keeps edges
 * directed; otherwise (the GML default) every edge is a link usable both
 * ways, as GraphML's undirected edges.
 *
 * Messages name the file and the line of the node or edge (igraph keeps no
 * positions: gml_lines() finds the n-th node and edge block in the text).
 *
 * igraph reports errors through a process-wide handler and attributes
 * through a process-wide table: both are swapped for the call and restored,
 * so this reader is not thread-safe (documented in ssched/platform.h). */
#include <igraph/igraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/rational.h"
#include "src/platform/name_index.h"
#include "src/platform/platform_internal.h"

static char gml_error[256];

static void keep_error(const char *reason, const char *file, int line, igraph_error_t e)
{
    (void)file;
    (void)line;
    snprintf(gml_error, sizeof gml_error, "%s (%s)", reason ? reason : "error",
             igraph_strerror(e));
    IGRAPH_FINALLY_FREE();
}

static void ignore_warning(const char *reason, const char *file, int line)
{
    (void)reason;
    (void)file;
    (void)line;
}

/* Lines of the node and edge blocks, in file order (igraph numbers
 * vertices and edges in that order): a GML scanner of its own, keys and
 * values separated by blanks, strings in double quotes, '#' comments to the
 * end of the line, lists in [ ].  A "node" or "edge" key followed by a list
 * directly inside the top-level "graph" list is a block.  Best effort: a
 * line 0 (unknown) only drops the line from messages. */
typedef struct {
    long *node, *edge;
    size_t n_node, n_edge;
} gml_lines_t;

static void gml_lines(const char *t, size_t len, gml_lines_t *L)
{
    size_t cap_n = 64, cap_e = 64;
    L->node = malloc(cap_n * sizeof *L->node);
    L->edge = malloc(cap_e * sizeof *L->edge);
    L->n_node = L->n_edge = 0;
    if (!L->node || !L->edge)
        return;
    long line = 1, key_line = 0;
    int depth = 0, in_graph = 0, expect_value = 0, key_kind = 0; /* 1 node, 2 edge, 3 graph */
    for (size_t i = 0; i < len;) {
        char ch = t[i];
        if (ch == '\n') {
            line++;
            i++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r') {
            i++;
        } else if (ch == '#') {
            while (i < len && t[i] != '\n')
                i++;
        } else if (ch == '"') {
            for (i++; i < len && t[i] != '"'; i++)
                line += t[i] == '\n';
            i++;
            expect_value = 0;
        } else if (ch == '[') {
            if (expect_value && key_kind == 3 && depth == 0)
                in_graph = 1;
            else if (expect_value && in_graph && depth == 1 && (key_kind == 1 || key_kind == 2)) {
                long **a = key_kind == 1 ? &L->node : &L->edge;
                size_t *n = key_kind == 1 ? &L->n_node : &L->n_edge;
                size_t *cap = key_kind == 1 ? &cap_n : &cap_e;
                if (*n == *cap) {
                    long *b = realloc(*a, 2 * *cap * sizeof **a);
                    if (!b)
                        return;
                    *a = b;
                    *cap *= 2;
                }
                (*a)[(*n)++] = key_line;
            }
            depth++;
            expect_value = 0;
            i++;
        } else if (ch == ']') {
            if (depth > 0 && --depth == 0)
                in_graph = 0;
            expect_value = 0;
            i++;
        } else {
            size_t b = i;
            while (i < len && t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n' &&
                   t[i] != '[' && t[i] != ']' && t[i] != '"' && t[i] != '#')
                i++;
            if (expect_value) { /* a bare value */
                expect_value = 0;
            } else {
                size_t n = i - b;
                key_kind = n == 4 && !strncmp(t + b, "node", 4)   ? 1
                           : n == 4 && !strncmp(t + b, "edge", 4) ? 2
                           : n == 5 && !strncmp(t + b, "graph", 5) ? 3 : 0;
                key_line = line;
                expect_value = 1;
            }
        }
    }
}

static void gml_lines_free(gml_lines_t *L)
{
    free(L->node);
    free(L->edge);
}

/* "FILE:LINE" or "FILE" when the line is unknown. */
static const char *where_at(char *buf, size_t cap, const char *shown, const long *lines,
                            size_t n, size_t k)
{
    if (lines && k < n && lines[k] > 0)
        snprintf(buf, cap, "%s:%ld", shown, lines[k]);
    else
        snprintf(buf, cap, "%s", shown);
    return buf;
}

/* Type of attribute `name` on vertices (is_edge 0) or edges, or -1. */
static int attr_type(const igraph_t *g, int is_edge, const char *name)
{
    igraph_strvector_t gn, vn, en;
    igraph_vector_int_t gt, vt, et;
    int type = -1;
    if (igraph_strvector_init(&gn, 0) || igraph_strvector_init(&vn, 0) ||
        igraph_strvector_init(&en, 0))
        return -2;
    igraph_vector_int_init(&gt, 0);
    igraph_vector_int_init(&vt, 0);
    igraph_vector_int_init(&et, 0);
    if (igraph_cattribute_list(g, &gn, &gt, &vn, &vt, &en, &et) == IGRAPH_SUCCESS) {
        igraph_strvector_t *names = is_edge ? &en : &vn;
        igraph_vector_int_t *types = is_edge ? &et : &vt;
        for (igraph_integer_t i = 0; i < igraph_strvector_size(names); i++)
            if (!strcmp(igraph_strvector_get(names, i), name))
                type = (int)VECTOR(*types)[i];
    }
    igraph_strvector_destroy(&gn);
    igraph_strvector_destroy(&vn);
    igraph_strvector_destroy(&en);
    igraph_vector_int_destroy(&gt);
    igraph_vector_int_destroy(&vt);
    igraph_vector_int_destroy(&et);
    return type;
}

/* The exact value of an attribute of item i: 1 and q set, 0 if absent
 * (NaN or empty string), -1 if it is not a number (err set). */
static int value_of(const igraph_t *g, int is_edge, int type, const char *name, igraph_integer_t i,
                    mpq_t q, ssched_error_t *err)
{
    if (type == IGRAPH_ATTRIBUTE_NUMERIC) {
        double d = is_edge ? EAN(g, name, i) : VAN(g, name, i);
        if (d != d)
            return 0;
        return ssched_rational_from_double(q, d, err) == SSCHED_OK ? 1 : -1;
    }
    if (type == IGRAPH_ATTRIBUTE_STRING) {
        const char *s = is_edge ? EAS(g, name, i) : VAS(g, name, i);
        if (!s || !*s)
            return 0;
        return ssched_rational_parse(q, s, err) == SSCHED_OK ? 1 : -1;
    }
    ssched_error_set(err, SSCHED_EINPUT, "attribute '%s' is not a number", name);
    return -1;
}

/* label, else name, else the GML id, made unique */
static char *node_name(const igraph_t *g, igraph_integer_t v, int label_t, int name_t, int id_t)
{
    const char *s = NULL;
    if (label_t == IGRAPH_ATTRIBUTE_STRING && *VAS(g, "label", v))
        s = VAS(g, "label", v);
    else if (name_t == IGRAPH_ATTRIBUTE_STRING && *VAS(g, "name", v))
        s = VAS(g, "name", v);
    char buf[64];
    if (!s) {
        double id = id_t == IGRAPH_ATTRIBUTE_NUMERIC ? VAN(g, "id", v) : (double)v;
        snprintf(buf, sizeof buf, "%.0f", id);
        s = buf;
    }
    return strdup(s);
}

/* The message of err (a value's parse error) prefixed with the item and
 * the attribute: the old message is not its own format argument. */
static ssched_status_t value_error(ssched_error_t *err, const char *at, const char *item,
                                   const char *attr)
{
    ssched_error_prefix(err, "%s: %s: %s: ", at, item, attr);
    if (err)
        err->status = SSCHED_EINPUT;
    return SSCHED_EINPUT;
}

static ssched_status_t add_nodes(ssched_platform_t *p, const igraph_t *g, const char *shown,
                                 const ssched_i_attrs_t *at, const gml_lines_t *L,
                                 ssched_error_t *err)
{
    int label_t = attr_type(g, 0, "label"), name_t = attr_type(g, 0, "name");
    int id_t = attr_type(g, 0, "id"), w_t = attr_type(g, 0, at->w);
    int ports_t = attr_type(g, 0, "ports");
    /* --speed-from ATTR: checked as --cost-from is (the attribute exists,
     * on nodes), else every node would silently only route */
    if (at->w_required && w_t < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: --speed-from %s: %s", shown, at->w,
                                attr_type(g, 1, at->w) >= 0
                                    ? "it is an edge attribute, not a node attribute"
                                    : "no node has this attribute");
    ssched_name_index_t index;
    ssched_i_name_index_init(&index);
    mpq_t w;
    mpq_init(w);
    ssched_status_t st = SSCHED_OK;
    size_t with_w = 0;
    char pos[512], item[300];
    for (igraph_integer_t v = 0; st == SSCHED_OK && v < igraph_vcount(g); v++) {
        char *name = node_name(g, v, label_t, name_t, id_t);
        if (!name) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        where_at(pos, sizeof pos, shown, L->node, L->n_node, (size_t)v);
        const char *const *names = (const char *const *)p->names;
        if (p->n_nodes && ssched_i_name_index_find(&index, names, name) != (size_t)-1) {
            char *longer = malloc(strlen(name) + 48);
            if (longer)
                sprintf(longer, "%s (id %.0f)", name,
                        id_t == IGRAPH_ATTRIBUTE_NUMERIC ? VAN(g, "id", v) : (double)v);
            if (!longer) {
                free(name);
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            /* the longer name taken too (a label "a (id 3)"): refuse */
            if (ssched_i_name_index_find(&index, names, longer) != (size_t)-1) {
                st = ssched_error_set(err, SSCHED_EINPUT, "%s: node '%.200s': its name and '%.200s' "
                                      "are both taken by earlier nodes", pos, name, longer);
                free(longer);
                free(name);
                break;
            }
            free(name);
            name = longer;
        }
        snprintf(item, sizeof item, "node '%.200s'", name);
        int have = w_t < 0 ? 0 : value_of(g, 0, w_t, at->w, v, w, err);
        if (have < 0)
            st = value_error(err, pos, item, at->w);
        else if (have && mpq_sgn(w) <= 0)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: %s: %s must be positive", pos, item,
                                  at->w);
        with_w += have > 0;
        size_t ix = 0;
        if (st == SSCHED_OK &&
            (st = ssched_i_platform_add_node_new(p, name, have ? w : NULL, &ix, err)) != SSCHED_OK &&
            st == SSCHED_EINPUT)
            ssched_error_prefix(err, "%s: %s: ", pos, item);
        if (st == SSCHED_OK) {
            size_t first;
            if (ssched_i_name_index_add(&index, (const char *const *)p->names, ix, &first) < 0)
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        /* ports: "one" or "multi", a string; a number (ports 2) would
         * otherwise be ignored without a word */
        if (st == SSCHED_OK && ports_t == IGRAPH_ATTRIBUTE_STRING) {
            const char *ports = VAS(g, "ports", v);
            if (!strcmp(ports, "multi"))
                p->multiport[ix] = 1;
            else if (*ports && strcmp(ports, "one"))
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "%s: %s: ports must be \"one\" or \"multi\", not "
                                      "\"%.64s\"", pos, item, ports);
            else if (p->multiport[ix] && have)
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "%s: %s: a switch (ports \"multi\") has no w", pos, item);
        } else if (st == SSCHED_OK && ports_t >= 0) {
            double d = ports_t == IGRAPH_ATTRIBUTE_NUMERIC ? VAN(g, "ports", v) : 0;
            if (d == d) /* NaN: the node has no ports */
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "%s: %s: ports must be the string \"one\" or \"multi\" "
                                      "(quoted), not a number", pos, item);
        }
        free(name);
    }
    if (st == SSCHED_OK && at->w_required && with_w == 0)
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: --speed-from %s: no node has a value for "
                              "this attribute", shown, at->w);
    mpq_clear(w);
    ssched_i_name_index_free(&index);
    return st;
}

typedef struct {
    size_t a, b;
    mpq_t c, l;
} arc_t;

static int cmp_arc(const void *x, const void *y)
{
    const arc_t *u = x, *v = y;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    if (u->b != v->b)
        return u->b < v->b ? -1 : 1;
    int r = mpq_cmp(u->c, v->c);
    return r ? r : mpq_cmp(u->l, v->l); /* equal costs: the shorter latency */
}

/* the same, largest value first (bandwidths: the largest is the fastest) */
static int cmp_arc_desc(const void *x, const void *y)
{
    const arc_t *u = x, *v = y;
    if (u->a != v->a || u->b != v->b)
        return cmp_arc(x, y);
    int r = mpq_cmp(v->c, u->c);
    return r ? r : mpq_cmp(u->l, v->l);
}

/* The GML edges as arcs (both ways when undirected), exact costs and
 * latencies.  Every arc's values are initialised, even on error. */
static ssched_status_t read_arcs(const ssched_platform_t *p, const igraph_t *g, const char *shown,
                                 const ssched_i_attrs_t *at, const gml_lines_t *L, arc_t *arcs,
                                 size_t *n, ssched_error_t *err)
{
    int c_t = attr_type(g, 1, at->c), l_t = attr_type(g, 1, at->l), directed = igraph_is_directed(g);
    if (igraph_ecount(g) > 0 && c_t < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: no edge attribute '%s'", shown, at->c);
    if (at->l_required && l_t < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: --latency-from %s: %s", shown, at->l,
                                attr_type(g, 0, at->l) >= 0
                                    ? "it is a node attribute, not an edge attribute"
                                    : "no edge has this attribute");
    const char *sep = directed ? "->" : "--";
    char pos[512], item[600];
    for (igraph_integer_t e = 0; e < igraph_ecount(g); e++) {
        size_t a = (size_t)IGRAPH_FROM(g, e), b = (size_t)IGRAPH_TO(g, e);
        arc_t *x = &arcs[(*n)++];
        x->a = a;
        x->b = b;
        mpq_inits(x->c, x->l, NULL);
        where_at(pos, sizeof pos, shown, L->edge, L->n_edge, (size_t)e);
        snprintf(item, sizeof item, "edge %.200s%s%.200s", p->names[a], sep, p->names[b]);
        int have = value_of(g, 1, c_t, at->c, e, x->c, err);
        if (have < 0)
            return value_error(err, pos, item, at->c);
        if (!have)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: %s: missing %s", pos, item, at->c);
        if (mpq_sgn(x->c) <= 0)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: %s: %s must be positive", pos, item,
                                    at->c);
        if (a == b)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: %s: a self-loop", pos, item);
        have = l_t < 0 ? 0 : value_of(g, 1, l_t, at->l, e, x->l, err);
        if (have < 0)
            return value_error(err, pos, item, at->l);
        if (have && mpq_sgn(x->l) < 0)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: %s: %s (a latency) must not be "
                                    "negative", pos, item, at->l);
        if (!directed) {
            arc_t *y = &arcs[(*n)++];
            y->a = b;
            y->b = a;
            mpq_inits(y->c, y->l, NULL);
            mpq_set(y->c, x->c);
            mpq_set(y->l, x->l);
        }
    }
    return SSCHED_OK;
}

/* Parallel links between the same two nodes (common in Topology Zoo
 * files) become the cheapest one: a one-port node uses one link at a time,
 * so the faster link is the only one a schedule would use (the largest
 * value when the attribute is a bandwidth), with its latency. */
static ssched_status_t add_edges(ssched_platform_t *p, const igraph_t *g, const char *shown,
                                 const ssched_i_attrs_t *at, const gml_lines_t *L,
                                 ssched_error_t *err)
{
    size_t cap = 2 * (size_t)igraph_ecount(g), n = 0;
    arc_t *arcs = ssched_i_alloc(cap, sizeof *arcs);
    if (!arcs)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = read_arcs(p, g, shown, at, L, arcs, &n, err);
    if (st == SSCHED_OK)
        qsort(arcs, n, sizeof *arcs, at->c_is_bandwidth ? cmp_arc_desc : cmp_arc);
    for (size_t k = 0; st == SSCHED_OK && k < n; k++)
        if (k == 0 || arcs[k].a != arcs[k - 1].a || arcs[k].b != arcs[k - 1].b) {
            st = ssched_platform_add_edge(p, arcs[k].a, arcs[k].b, arcs[k].c, err);
            if (st == SSCHED_OK)
                st = ssched_platform_set_latency(p, p->n_edges - 1, arcs[k].l, err);
            if (st == SSCHED_EINPUT)
                ssched_error_prefix(err, "%s: ", shown);
        }
    for (size_t k = 0; k < n; k++)
        mpq_clears(arcs[k].c, arcs[k].l, NULL);
    free(arcs);
    return st;
}

ssched_status_t ssched_i_gml_read(ssched_platform_t *p, const char *text, size_t len,
                                  const char *shown, const ssched_i_attrs_t *at,
                                  ssched_error_t *err)
{
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    igraph_error_handler_t *old_error = igraph_set_error_handler(keep_error);
    igraph_warning_handler_t *old_warning = igraph_set_warning_handler(ignore_warning);
    igraph_attribute_table_t *old_table = igraph_set_attribute_table(&igraph_cattribute_table);
    gml_error[0] = '\0';
    igraph_t g;
    igraph_error_t rc = igraph_read_graph_gml(&g, f);
    fclose(f);
    ssched_status_t st = SSCHED_OK;
    if (rc != IGRAPH_SUCCESS) {
        st = ssched_error_set(err, rc == IGRAPH_ENOMEM ? SSCHED_ENOMEM : SSCHED_EINPUT,
                              "%s: not a readable GML file: %s", shown,
                              gml_error[0] ? gml_error : "parse error");
    } else {
        gml_lines_t L;
        gml_lines(text, len, &L);
        ssched_platform_t tmp;
        ssched_platform_init(&tmp);
        st = add_nodes(&tmp, &g, shown, at, &L, err);
        if (st == SSCHED_OK)
            st = add_edges(&tmp, &g, shown, at, &L, err);
        if (st == SSCHED_OK && (st = ssched_platform_finalize(&tmp, err)) == SSCHED_EINPUT)
            ssched_error_prefix(err, "%s: ", shown);
        if (st == SSCHED_OK) {
            ssched_platform_free(p);
            *p = tmp;
        } else {
            ssched_platform_free(&tmp);
        }
        gml_lines_free(&L);
        igraph_destroy(&g);
    }
    igraph_set_attribute_table(old_table);
    igraph_set_warning_handler(old_warning);
    igraph_set_error_handler(old_error);
    return st;
}
