/* GML platforms, read by igraph's GML reader (igraph_read_graph_gml with
 * the C attribute handler), then turned into an exact ssched platform.
 *
 * Node names: the node's `label`, else its `name`, else its GML `id`
 * (Internet Topology Zoo files label nodes with city names).  A name given
 * twice gets " (id N)" appended to its later copies so every name stays
 * unique and the file still loads; the GML id is always unique.
 * Values: the node attribute w_name (default `w`, absent = a router), the
 * edge attribute c_name (default `c`, required), the node attribute
 * `ports` ("one" | "multi").  A quoted string value is parsed exactly
 * ("1/3", "0.1"); a bare number went through igraph as a double, and is
 * taken as the simplest rational rounding to that double
 * (ssched_rational_from_double: 0.1 -> 1/10), which is the number written
 * whenever it has at most 15 significant digits.  `directed 1` keeps edges
 * directed; otherwise (the GML default) every edge is a link usable both
 * ways, as GraphML's undirected edges.
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

static ssched_status_t add_nodes(ssched_platform_t *p, const igraph_t *g, const char *shown,
                                 const char *w_name, ssched_error_t *err)
{
    int label_t = attr_type(g, 0, "label"), name_t = attr_type(g, 0, "name");
    int id_t = attr_type(g, 0, "id"), w_t = attr_type(g, 0, w_name);
    int ports_t = attr_type(g, 0, "ports");
    mpq_t w;
    mpq_init(w);
    ssched_status_t st = SSCHED_OK;
    for (igraph_integer_t v = 0; st == SSCHED_OK && v < igraph_vcount(g); v++) {
        char *name = node_name(g, v, label_t, name_t, id_t);
        if (!name) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        size_t dup;
        if (ssched_platform_find_node(p, name, &dup, NULL) == SSCHED_OK) {
            char *longer = malloc(strlen(name) + 48);
            if (longer)
                sprintf(longer, "%s (id %.0f)", name,
                        id_t == IGRAPH_ATTRIBUTE_NUMERIC ? VAN(g, "id", v) : (double)v);
            free(name);
            if (!(name = longer)) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
        }
        int have = w_t < 0 ? 0 : value_of(g, 0, w_t, w_name, v, w, err);
        if (have < 0)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: node '%s': %s: %s", shown, name, w_name,
                                  err ? err->message : "not a number");
        else if (have && mpq_sgn(w) <= 0)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: node '%s': %s must be positive", shown,
                                  name, w_name);
        size_t index;
        if (st == SSCHED_OK)
            st = ssched_platform_add_node(p, name, have ? w : NULL, &index, err);
        if (st == SSCHED_OK && ports_t == IGRAPH_ATTRIBUTE_STRING) {
            const char *ports = VAS(g, "ports", v);
            if (!strcmp(ports, "multi"))
                p->multiport[index] = 1;
            else if (*ports && strcmp(ports, "one"))
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "%s: node '%s': ports must be \"one\" or \"multi\", not "
                                      "\"%s\"", shown, name, ports);
            else if (p->multiport[index] && have)
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "%s: node '%s': a switch (ports \"multi\") has no w", shown,
                                      name);
        }
        free(name);
    }
    mpq_clear(w);
    return st;
}

typedef struct {
    size_t a, b;
    mpq_t c;
} arc_t;

static int cmp_arc(const void *x, const void *y)
{
    const arc_t *u = x, *v = y;
    if (u->a != v->a)
        return u->a < v->a ? -1 : 1;
    if (u->b != v->b)
        return u->b < v->b ? -1 : 1;
    return mpq_cmp(u->c, v->c);
}

/* the same, largest value first (bandwidths: the largest is the fastest) */
static int cmp_arc_desc(const void *x, const void *y)
{
    const arc_t *u = x, *v = y;
    if (u->a != v->a || u->b != v->b)
        return cmp_arc(x, y);
    return mpq_cmp(v->c, u->c);
}

/* The GML edges as arcs (both ways when undirected), exact costs. */
static ssched_status_t read_arcs(const ssched_platform_t *p, const igraph_t *g, const char *shown,
                                 const char *c_name, arc_t *arcs, size_t *n, ssched_error_t *err)
{
    int c_t = attr_type(g, 1, c_name), directed = igraph_is_directed(g);
    if (igraph_ecount(g) > 0 && c_t < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: no edge attribute '%s'", shown, c_name);
    const char *sep = directed ? "->" : "--";
    for (igraph_integer_t e = 0; e < igraph_ecount(g); e++) {
        size_t a = (size_t)IGRAPH_FROM(g, e), b = (size_t)IGRAPH_TO(g, e);
        arc_t *x = &arcs[(*n)++];
        x->a = a;
        x->b = b;
        mpq_init(x->c);
        int have = value_of(g, 1, c_t, c_name, e, x->c, err);
        if (have < 0)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: edge %s%s%s: %s: %s", shown,
                                    p->names[a], sep, p->names[b], c_name, err->message);
        if (!have)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: edge %s%s%s: missing %s", shown,
                                    p->names[a], sep, p->names[b], c_name);
        if (mpq_sgn(x->c) <= 0)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: edge %s%s%s: %s must be positive",
                                    shown, p->names[a], sep, p->names[b], c_name);
        if (a == b)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: edge %s%s%s: a self-loop", shown,
                                    p->names[a], sep, p->names[b]);
        if (!directed) {
            arc_t *y = &arcs[(*n)++];
            y->a = b;
            y->b = a;
            mpq_init(y->c);
            mpq_set(y->c, x->c);
        }
    }
    return SSCHED_OK;
}

/* Parallel links between the same two nodes (common in Topology Zoo
 * files) become the cheapest one: a one-port node uses one link at a time,
 * so the faster link is the only one a schedule would use (the largest
 * value when the attribute is a bandwidth). */
static ssched_status_t add_edges(ssched_platform_t *p, const igraph_t *g, const char *shown,
                                 const char *c_name, int c_is_bandwidth, ssched_error_t *err)
{
    size_t cap = 2 * (size_t)igraph_ecount(g), n = 0;
    arc_t *arcs = ssched_i_alloc(cap, sizeof *arcs);
    if (!arcs)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = read_arcs(p, g, shown, c_name, arcs, &n, err);
    if (st == SSCHED_OK)
        qsort(arcs, n, sizeof *arcs, c_is_bandwidth ? cmp_arc_desc : cmp_arc);
    for (size_t k = 0; st == SSCHED_OK && k < n; k++)
        if (k == 0 || arcs[k].a != arcs[k - 1].a || arcs[k].b != arcs[k - 1].b)
            st = ssched_platform_add_edge(p, arcs[k].a, arcs[k].b, arcs[k].c, err);
    for (size_t k = 0; k < n; k++)
        mpq_clear(arcs[k].c);
    free(arcs);
    return st;
}

ssched_status_t ssched_i_gml_read(ssched_platform_t *p, const char *text, size_t len,
                                  const char *shown, const char *w_name, const char *c_name,
                                  int c_is_bandwidth, ssched_error_t *err)
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
        ssched_platform_t tmp;
        ssched_platform_init(&tmp);
        st = add_nodes(&tmp, &g, shown, w_name, err);
        if (st == SSCHED_OK)
            st = add_edges(&tmp, &g, shown, c_name, c_is_bandwidth, err);
        if (st == SSCHED_OK)
            st = ssched_platform_finalize(&tmp, err);
        if (st == SSCHED_OK) {
            ssched_platform_free(p);
            *p = tmp;
        } else {
            ssched_platform_free(&tmp);
        }
        igraph_destroy(&g);
    }
    igraph_set_attribute_table(old_table);
    igraph_set_warning_handler(old_warning);
    igraph_set_error_handler(old_error);
    return st;
}
