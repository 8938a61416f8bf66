/* GraphML platform reader (libxml2 DOM, validated by ssched itself).
 *
 * igraph's GraphML reader used to do this job, but it hides too much: it
 * invents nodes for undeclared edge endpoints, lets a later duplicate node
 * id win, renames nodes after an `id` data attribute, ignores nested graphs,
 * ports and hyperedges, and loses line numbers.  This reader walks the XML
 * tree and either honours each GraphML construct as the GraphML primer
 * defines it or rejects it with one line "FILE:LINE: element: what is wrong".
 *
 * What is honoured:
 *   - <key> declarations with `for` (default all), `attr.name` (default:
 *     the key id) and `attr.type` (default string), and their <default>;
 *     <data> on <graphml>, <graph>, <node>, <edge> checked against the
 *     declared keys; data for keys other than w/c/ports is ignored (node names
 *     are always the GraphML node ids, never an `id` data attribute);
 *   - edgedefault (absent means directed) and a per-edge `directed`
 *     attribute: an undirected edge {a,b} is the two directed edges a->b and
 *     b->a, each of cost c (one link usable both ways);
 *   - nodes and edges in any order (an edge may precede its endpoints).
 * What is rejected: a missing or second <graph>, nested graphs, hyperedges,
 * ports, <locator>, duplicate node or key ids, edges to undeclared nodes,
 * self-loops, parallel edges, entity references in element content.
 *
 * Edge key `l` (or the --latency-from attribute): the latency of the edge
 * (>= 0, same time unit as c, absent = 0; an undirected edge has it both
 * ways).  With --speed-from ATTR, ATTR must be a node key that some node
 * uses, and with --latency-from ATTR an edge key: otherwise one line names
 * the attribute (an edge attribute given for a node one says so).
 *
 * Node key `ports` (attr.type string): "one" (default, the one-port model
 * of RR-4872) or "multi" (a switch: no port rule, each incident link its
 * own resource); a switch with w is refused (a switch never computes).
 *
 * Values are exact.  The lexical text of w and c is parsed as the rational it
 * denotes, whatever attr.type says (never through a double): "1e-320" with
 * attr.type="double" is 1/10^320.  attr.type int/long requires an integer,
 * float/double a decimal or scientific literal (NaN and INF are rejected),
 * string accepts also fractions ("1/3"); boolean is rejected. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "ssched/rational.h"
#include "src/platform/graphml_internal.h"

/* ---- nodes and edges ---------------------------------------------------- */

/* The name --names-from gives node `id` (*out = NULL: the node has no
 * such value, or an empty one, and keeps its id).  A name already taken
 * (two Zoo nodes called "Lyon", or a label equal to another node's id)
 * becomes "NAME (id ID)", as the GML reader does. */
static ssched_status_t node_label(reader_t *r, const ssched_platform_t *p, xmlNodePtr el,
                                  const char *where, const char *id, char **out)
{
    *out = NULL;
    xmlNodePtr data;
    ssched_status_t st =
        ssched_i_graphml_scan_item_children(r, el, D_NODE, where, r->names_key, &data);
    if (st != SSCHED_OK)
        return st;
    const char *def = r->keys[r->names_key].def;
    char *text = data ? (char *)xmlNodeGetContent(data) : NULL;
    const char *name = data ? text : def;
    int named = name && *name;
    if (named) {
        size_t len = strlen(name) + strlen(id) + 8;
        *out = malloc(len);
        size_t other;
        if (*out && ssched_platform_find_node(p, name, &other, NULL) == SSCHED_OK)
            snprintf(*out, len, "%s (id %s)", name, id);
        else if (*out)
            snprintf(*out, len, "%s", name);
    }
    if (text)
        xmlFree(text);
    if (named && !*out)
        return ssched_i_graphml_nomem(r);
    return SSCHED_OK;
}

static ssched_status_t read_node(reader_t *r, ssched_platform_t *p, xmlNodePtr el, mpq_t q)
{
    long line = ssched_i_graphml_line_of(el);
    char *id = ssched_i_graphml_get_attr(el, "id");
    if (!id)
        return ssched_i_graphml_fail(r, line, "<node>: missing attribute 'id'");
    if (!*id) {
        xmlFree(id);
        return ssched_i_graphml_fail(r, line, "<node id=\"\">: empty node id");
    }
    if (r->n_nodes == r->node_cap) {
        size_t cap = r->node_cap ? 2 * r->node_cap : 64;
        char **ids = realloc(r->node_ids, cap * sizeof *ids);
        if (ids)
            r->node_ids = ids;
        long *lines = ids ? realloc(r->node_line, cap * sizeof *lines) : NULL;
        if (lines)
            r->node_line = lines;
        if (!ids || !lines) {
            xmlFree(id);
            return ssched_i_graphml_nomem(r);
        }
        r->node_cap = cap;
    }
    size_t pos = r->n_nodes++;
    r->node_ids[pos] = id;
    r->node_line[pos] = line;
    size_t first = 0;
    int added =
        ssched_i_name_index_add(&r->node_index, (const char *const *)r->node_ids, pos, &first);
    if (added < 0)
        return ssched_i_graphml_nomem(r);
    if (added == 0)
        return ssched_i_graphml_fail(r, line,
                                     "node '%s': duplicate node id (first declared on line %ld)",
                                     id, r->node_line[first]);
    char where[SSCHED_ERROR_MSG_MAX];
    snprintf(where, sizeof where, "node '%s'", id);
    xmlNodePtr data;
    ssched_status_t st = ssched_i_graphml_scan_item_children(r, el, D_NODE, where, r->w_key, &data);
    if (st != SSCHED_OK)
        return st;
    int have = ssched_i_graphml_item_value(r, r->w_key, data, line, where, q);
    if (have < 0)
        return r->err ? r->err->status : SSCHED_EINPUT;
    if (have && mpq_sgn(q) <= 0)
        return ssched_i_graphml_fail(r, data ? ssched_i_graphml_line_of(data) : line,
                                     "%s: %s must be positive", where, r->w_name);
    xmlNodePtr ports_data = NULL;
    int multi = 0;
    if (r->ports_key != NO_INDEX &&
        ((st = ssched_i_graphml_scan_item_children(r, el, D_NODE, where, r->ports_key,
                                                   &ports_data)) != SSCHED_OK ||
         (st = ssched_i_graphml_ports_value(r, ports_data, line, where, &multi)) != SSCHED_OK))
        return st;
    if (multi && have)
        return ssched_i_graphml_fail(r, ports_data ? ssched_i_graphml_line_of(ports_data) : line,
                    "%s: ports=\"multi\" with w: a switch never computes", where);
    char *label = NULL;
    if (r->names_key != NO_INDEX && (st = node_label(r, p, el, where, id, &label)) != SSCHED_OK)
        return st;
    size_t index = 0;
    st = ssched_i_platform_add_node_new(p, label ? label : id, have ? q : NULL, &index, r->err);
    free(label);
    if (st != SSCHED_OK)
        return st == SSCHED_EINPUT
                   ? ssched_i_graphml_fail(r, line, "%s: %s", where, r->err->message)
                   : st;
    p->multiport[index] = (unsigned char)multi;
    return SSCHED_OK;
}

static ssched_status_t add_edge(reader_t *r, ssched_platform_t *p, size_t a, size_t b,
                                const mpq_t q, long line)
{
    if (p->n_edges == r->edge_line_cap) {
        size_t cap = r->edge_line_cap ? 2 * r->edge_line_cap : 64;
        long *lines = realloc(r->edge_line, cap * sizeof *lines);
        if (!lines)
            return ssched_i_graphml_nomem(r);
        r->edge_line = lines;
        r->edge_line_cap = cap;
    }
    r->edge_line[p->n_edges] = line;
    ssched_status_t st = ssched_platform_add_edge(p, a, b, q, r->err);
    if (st == SSCHED_EINPUT)
        return ssched_i_graphml_fail(r, line, "%s", r->err->message);
    return st;
}

static ssched_status_t read_edge(reader_t *r, ssched_platform_t *p, xmlNodePtr el,
                                 int graph_directed, mpq_t q)
{
    long line = ssched_i_graphml_line_of(el);
    char *src = ssched_i_graphml_get_attr(el, "source"),
         *dst = ssched_i_graphml_get_attr(el, "target");
    char *dir = ssched_i_graphml_get_attr(el, "directed");
    char *sport = ssched_i_graphml_get_attr(el, "sourceport"),
         *tport = ssched_i_graphml_get_attr(el, "targetport");
    char where[SSCHED_ERROR_MSG_MAX];
    snprintf(where, sizeof where, "edge %s->%s", src ? src : "?", dst ? dst : "?");
    ssched_status_t st = SSCHED_OK;
    size_t a = NO_INDEX, b = NO_INDEX;
    int directed = graph_directed;
    if (!src || !dst) {
        st = ssched_i_graphml_fail(r, line, "<edge>: missing attribute '%s'",
                                   !src ? "source" : "target");
    } else if (sport || tport) {
        st = ssched_i_graphml_fail(r, line, "%s: %s=\"%s\": ports are not supported", where,
                  sport ? "sourceport" : "targetport", sport ? sport : tport);
    } else if (dir && strcmp(dir, "true") && strcmp(dir, "false")) {
        st = ssched_i_graphml_fail(r, line, "%s: directed=\"%s\" must be \"true\" or \"false\"",
                                   where, dir);
    } else if ((a = ssched_i_name_index_find(&r->node_index, (const char *const *)r->node_ids,
                                             src)) == NO_INDEX) {
        st = ssched_i_graphml_fail(r, line, "%s: source '%s' is not a declared <node>", where, src);
    } else if ((b = ssched_i_name_index_find(&r->node_index, (const char *const *)r->node_ids,
                                             dst)) == NO_INDEX) {
        st = ssched_i_graphml_fail(r, line, "%s: target '%s' is not a declared <node>", where, dst);
    } else if (a == b) {
        st = ssched_i_graphml_fail(r, line, "%s: self-loop", where);
    }
    if (dir && st == SSCHED_OK)
        directed = !strcmp(dir, "true");
    xmlFree(src);
    xmlFree(dst);
    xmlFree(dir);
    xmlFree(sport);
    xmlFree(tport);
    if (st != SSCHED_OK)
        return st;
    xmlNodePtr data;
    st = ssched_i_graphml_scan_item_children(r, el, D_EDGE, where, r->c_key, &data);
    if (st != SSCHED_OK)
        return st;
    if (r->c_key == NO_INDEX)
        return ssched_i_graphml_fail(
            r, line,
            "%s: no edge attribute '%s' (a <key for=\"edge\" attr.name=\"%s\"> "
            "is required)",
            where, r->c_name, r->c_name);
    int have = ssched_i_graphml_item_value(r, r->c_key, data, line, where, q);
    if (have < 0)
        return r->err ? r->err->status : SSCHED_EINPUT;
    if (!have && r->skip_missing_c)
        return SSCHED_OK; /* --missing-cost skip: the link is left out */
    if (!have)
        return ssched_i_graphml_fail(r, line,
                                     "%s: missing %s (--missing-cost skip leaves such edges out)",
                                     where, r->c_name);
    if (mpq_sgn(q) <= 0)
        return ssched_i_graphml_fail(r, data ? ssched_i_graphml_line_of(data) : line,
                                     "%s: %s must be positive", where, r->c_name);
    st = add_edge(r, p, a, b, q, line);
    /* An undirected edge is one link usable both ways at cost c. */
    if (st == SSCHED_OK && !directed)
        st = add_edge(r, p, b, a, q, line);
    if (st != SSCHED_OK || r->l_key == NO_INDEX)
        return st;
    /* the latency (absent: 0), the same both ways */
    xmlNodePtr ldata;
    if ((st = ssched_i_graphml_scan_item_children(r, el, D_EDGE, where, r->l_key, &ldata)) !=
        SSCHED_OK)
        return st;
    have = ssched_i_graphml_item_value(r, r->l_key, ldata, line, where, q);
    if (have < 0)
        return r->err ? r->err->status : SSCHED_EINPUT;
    if (!have)
        return SSCHED_OK;
    if (mpq_sgn(q) < 0)
        return ssched_i_graphml_fail(r, ldata ? ssched_i_graphml_line_of(ldata) : line,
                                     "%s: %s (a latency) must not be negative", where, r->l_name);
    size_t last = p->n_edges - 1;
    if ((st = ssched_platform_set_latency(p, last, q, r->err)) == SSCHED_OK && !directed)
        st = ssched_platform_set_latency(p, last - 1, q, r->err);
    return st;
}

/* Parallel edges (the same ordered pair twice, possibly through an
 * undirected edge), reported with both lines.  O(m log m). */
typedef struct {
    size_t from, to, edge;
} pair_t;

static int cmp_pair(const void *x, const void *y)
{
    const pair_t *a = x, *b = y;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    return (a->edge > b->edge) - (a->edge < b->edge);
}

static ssched_status_t check_parallel(reader_t *r, const ssched_platform_t *p)
{
    if (p->n_edges < 2)
        return SSCHED_OK;
    pair_t *order = malloc(p->n_edges * sizeof *order);
    if (!order)
        return ssched_i_graphml_nomem(r);
    for (size_t e = 0; e < p->n_edges; e++)
        order[e] = (pair_t){p->from[e], p->to[e], e};
    qsort(order, p->n_edges, sizeof *order, cmp_pair);
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 1; k < p->n_edges && st == SSCHED_OK; k++) {
        const pair_t *e = &order[k - 1], *f = &order[k];
        if (e->from == f->from && e->to == f->to)
            st = ssched_i_graphml_fail(r, r->edge_line[f->edge],
                                       "edge %s->%s: parallel edges %s->%s (also on line %ld)",
                                       p->names[f->from], p->names[f->to], p->names[f->from],
                                       p->names[f->to], r->edge_line[e->edge]);
    }
    free(order);
    return st;
}

/* ---- graph and document ------------------------------------------------- */

static ssched_status_t read_graph(reader_t *r, ssched_platform_t *p, xmlNodePtr g)
{
    long line = ssched_i_graphml_line_of(g);
    char *ed = ssched_i_graphml_get_attr(g, "edgedefault");
    int directed = 1;
    ssched_status_t st = SSCHED_OK;
    if (ed && strcmp(ed, "directed") && strcmp(ed, "undirected"))
        st = ssched_i_graphml_fail(
            r, line, "<graph>: edgedefault=\"%s\" must be \"directed\" or \"undirected\"", ed);
    else if (ed)
        directed = !strcmp(ed, "directed");
    xmlFree(ed);
    mpq_t q;
    mpq_init(q);
    for (xmlNodePtr c = g->children; c && st == SSCHED_OK; c = c->next) {
        char buf[128];
        st = ssched_i_graphml_check_child_kind(r, c, "<graph>");
        if (st != SSCHED_OK || c->type != XML_ELEMENT_NODE || ssched_i_graphml_is_el(c, "desc"))
            continue;
        if (ssched_i_graphml_is_el(c, "node")) {
            st = read_node(r, p, c, q);
        } else if (ssched_i_graphml_is_el(c, "edge")) {
            if (r->n_edge_elems == r->edge_elem_cap) {
                size_t cap = r->edge_elem_cap ? 2 * r->edge_elem_cap : 64;
                xmlNodePtr *e = realloc(r->edges, cap * sizeof *e);
                if (!e) {
                    st = ssched_i_graphml_nomem(r);
                    break;
                }
                r->edges = e;
                r->edge_elem_cap = cap;
            }
            r->edges[r->n_edge_elems++] = c;
        } else if (ssched_i_graphml_is_el(c, "data")) {
            st = ssched_i_graphml_check_data(r, c, D_GRAPH, "<graph>");
        } else if (ssched_i_graphml_is_el(c, "hyperedge")) {
            st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                       "<hyperedge>: hyperedges are not supported");
        } else if (ssched_i_graphml_is_el(c, "locator")) {
            st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                       "<locator> in <graph>: external graphs are not supported");
        } else {
            st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                       "%s in <graph>: unexpected element",
                                       ssched_i_graphml_el_name(c, buf, sizeof buf));
        }
    }
    /* Edges after all nodes: GraphML lets an edge precede its endpoints. */
    for (size_t k = 0; k < r->n_edge_elems && st == SSCHED_OK; k++)
        st = read_edge(r, p, r->edges[k], directed, q);
    mpq_clear(q);
    if (st == SSCHED_OK && p->n_nodes == 0)
        st = ssched_i_graphml_fail(r, line, "<graph>: the graph has no nodes");
    /* --speed-from ATTR: a speed nowhere would make every node a router */
    size_t with_w = 0;
    for (size_t i = 0; st == SSCHED_OK && r->w_required && i < p->n_nodes; i++)
        with_w += p->has_w[i] != 0;
    if (st == SSCHED_OK && r->w_required && with_w == 0)
        st = ssched_i_graphml_fail(r, r->keys[r->w_key].line,
                                   "<key id=\"%s\">: no node has a value for "
                                   "attribute '%s' (--speed-from)",
                                   r->keys[r->w_key].id, r->w_name);
    if (st == SSCHED_OK)
        st = check_parallel(r, p);
    return st;
}

/* An attribute named by an option is not declared for its domain: say
 * whether it exists for the other one (an edge attribute given to
 * --speed-from, say). */
static ssched_status_t missing_attribute(reader_t *r, xmlNodePtr root, const char *name,
                                         int domain, const char *option)
{
    const char *what = domain == D_NODE ? "node" : "edge";
    for (size_t k = 0; k < r->n_keys; k++)
        if (!strcmp(r->keys[k].name, name))
            return ssched_i_graphml_fail(r, r->keys[k].line,
                                         "<key id=\"%s\">: %s %s: '%s' is not %s attribute "
                                         "(for=\"%s\")",
                                         r->keys[k].id, option, name, name,
                                         domain == D_NODE ? "a node" : "an edge",
                                         r->keys[k].domain == D_EDGE   ? "edge"
                                         : r->keys[k].domain == D_NODE ? "node"
                                                                       : "graph");
    return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(root),
                                 "<graphml>: %s %s: no %s attribute '%s' (a <key for=\"%s\" "
                                 "attr.name=\"%s\"> is required)",
                                 option, name, what, name, what, name);
}

static ssched_status_t read_document(reader_t *r, ssched_platform_t *p, xmlDocPtr doc)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    char buf[128];
    if (!root)
        return ssched_i_graphml_fail(r, 0,
                                     "no root element (a GraphML file starts with <graphml>)");
    if (strcmp((const char *)root->name, "graphml"))
        return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(root),
                                     "%s: not a GraphML document (the root element must be "
                                     "<graphml>)",
                                     ssched_i_graphml_el_name(root, buf, sizeof buf));
    if (!ssched_i_graphml_is_graphml(root))
        return ssched_i_graphml_fail(
            r, ssched_i_graphml_line_of(root),
            "%s: namespace is %s%s%s, expected xmlns=\"" GRAPHML_NS "\"",
            ssched_i_graphml_el_name(root, buf, sizeof buf), root->ns ? "'" : "missing",
            root->ns ? (const char *)root->ns->href : "", root->ns ? "'" : "");
    ssched_status_t st = SSCHED_OK;
    for (xmlNodePtr c = root->children; c && st == SSCHED_OK; c = c->next) {
        st = ssched_i_graphml_check_child_kind(r, c, "<graphml>");
        if (st == SSCHED_OK && ssched_i_graphml_is_el(c, "key"))
            st = ssched_i_graphml_read_key(r, c);
    }
    if (st == SSCHED_OK && r->w_required && r->w_key == NO_INDEX)
        st = missing_attribute(r, root, r->w_name, D_NODE, "--speed-from");
    if (st == SSCHED_OK && r->l_required && r->l_key == NO_INDEX)
        st = missing_attribute(r, root, r->l_name, D_EDGE, "--latency-from");
    if (st == SSCHED_OK && r->names_name && r->names_key == NO_INDEX)
        st = missing_attribute(r, root, r->names_name, D_NODE, "--names-from");
    xmlNodePtr graph = NULL;
    for (xmlNodePtr c = root->children; c && st == SSCHED_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || ssched_i_graphml_is_el(c, "key") ||
            ssched_i_graphml_is_el(c, "desc"))
            continue;
        if (ssched_i_graphml_is_el(c, "data")) {
            st = ssched_i_graphml_check_data(r, c, D_GRAPHML, "<graphml>");
        } else if (ssched_i_graphml_is_el(c, "graph")) {
            if (graph)
                st =
                    ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                          "<graph>: a second graph (first on line %ld); a platform "
                                          "file holds exactly one <graph>",
                                          ssched_i_graphml_line_of(graph));
            graph = c;
        } else {
            st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                       "%s in <graphml>: unexpected element",
                                       ssched_i_graphml_el_name(c, buf, sizeof buf));
        }
    }
    if (st == SSCHED_OK && !graph)
        st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(root),
                                   "<graphml>: no <graph> element");
    if (st == SSCHED_OK)
        st = read_graph(r, p, graph);
    return st;
}

/* ---- file input and XML errors ------------------------------------------ */

typedef struct {
    int have;
    long line;
    char message[256];
} xml_failure_t;

/* libxml2 prints diagnostics on stderr by default; the CLI must print
 * exactly one line, so the first error is kept and reported by ssched. */
static void keep_xml_error(void *ctx, xmlErrorPtr error)
{
    xml_failure_t *f = ctx;
    if (f->have || !error || error->level < XML_ERR_ERROR)
        return;
    f->have = 1;
    f->line = error->line;
    snprintf(f->message, sizeof f->message, "%s", error->message ? error->message : "parse error");
}

/* The DOM builder's start-element callback, plus the element's full line
 * number kept in psvi (unused without schema validation). */
static void record_line(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                        const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                        int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    xmlParserCtxtPtr ctxt = ctx;
    xmlNodePtr before = ctxt->node;
    xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                          nb_defaulted, attributes);
    if (ctxt->node && ctxt->node != before && ctxt->input && ctxt->input->line > 0)
        ctxt->node->psvi = (void *)(intptr_t)ctxt->input->line;
}

static void silent_generic(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

/* Read a whole file, or stdin for "-".  *len excludes the added NUL. */
static ssched_status_t slurp(reader_t *r, const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *f = stdin;
    if (strcmp(path, "-")) {
        struct stat sb;
        if (stat(path, &sb) != 0)
            return ssched_i_graphml_fail(r, 0, "cannot open file (%s)", strerror(errno));
        if (S_ISDIR(sb.st_mode))
            return ssched_i_graphml_fail(r, 0, "is a directory, not a GraphML file");
        if (!(f = fopen(path, "rb")))
            return ssched_i_graphml_fail(r, 0, "cannot open file (%s)", strerror(errno));
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ssched_status_t st = buf ? SSCHED_OK : ssched_i_graphml_nomem(r);
    while (st == SSCHED_OK) {
        if (n + 1 >= cap) {
            char *b = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!b) {
                st = ssched_i_graphml_nomem(r);
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                st = ssched_i_graphml_fail(r, 0, "read error (%s)", strerror(errno));
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    if (st != SSCHED_OK) {
        free(buf);
        return st;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return SSCHED_OK;
}

/* Does the text look like GML (after blanks: a "graph [" block, or the
 * "Creator"/"Version" header lines or '#' comments that precede it)? */
static int looks_like_gml(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (ssched_i_graphml_xml_space(text[i]) || text[i] == '\0'))
        i++;
    static const char *const heads[] = {"graph", "Creator", "Version", "#"};
    for (size_t k = 0; k < sizeof heads / sizeof *heads; k++)
        if (len - i >= strlen(heads[k]) && !strncmp(text + i, heads[k], strlen(heads[k])))
            return 1;
    return 0;
}

/* A GraphML platform must be XML: say so plainly when the file is not XML
 * at all (GML "graph [", DOT "digraph {"), instead of libxml2's
 * "Document is empty". */
static ssched_status_t sniff(reader_t *r, const char *text, size_t len)
{
    size_t i = 0;
    long line = 1;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        i = 3;
    for (; i < len && (ssched_i_graphml_xml_space(text[i]) || text[i] == '\0'); i++)
        line += text[i] == '\n';
    if (i == len)
        return ssched_i_graphml_fail(r, 0, "empty file");
    if (text[i] == '<')
        return SSCHED_OK;
    char head[24];
    size_t n = 0;
    for (; i < len && n + 1 < sizeof head && text[i] != '\n' && text[i] != '\r'; i++)
        head[n++] = isprint((unsigned char)text[i]) ? text[i] : '?';
    head[n] = '\0';
    return ssched_i_graphml_fail(
        r, line,
        "not an XML document: it starts with '%s'; a platform is GraphML or GML "
        "(DOT is not read)",
        head);
}

static void reader_free(reader_t *r)
{
    for (size_t k = 0; k < r->n_keys; k++) {
        xmlFree(r->keys[k].id);
        xmlFree(r->keys[k].name);
        xmlFree(r->keys[k].def);
    }
    free(r->keys);
    free(r->key_ids);
    ssched_i_name_index_free(&r->key_index);
    for (size_t i = 0; i < r->n_nodes; i++)
        xmlFree(r->node_ids[i]);
    free(r->node_ids);
    free(r->node_line);
    ssched_i_name_index_free(&r->node_index);
    free(r->edges);
    free(r->edge_line);
}

ssched_status_t ssched_platform_load_graphml(ssched_platform_t *p, const char *path,
                                             ssched_error_t *err)
{
    return ssched_i_platform_read(p, path, SSCHED_PLATFORM_GRAPHML, "w", "c", 0, err);
}

ssched_status_t ssched_i_platform_read(ssched_platform_t *p, const char *path,
                                       ssched_platform_format_t format, const char *w_name,
                                       const char *c_name, int c_is_bandwidth,
                                       ssched_error_t *err)
{
    ssched_i_attrs_t a = {w_name, c_name, "l", c_is_bandwidth, 0, 0, 0, NULL};
    return ssched_i_platform_read_attrs(p, path, format, &a, err);
}

ssched_status_t ssched_i_platform_read_attrs(ssched_platform_t *p, const char *path,
                                             ssched_platform_format_t format,
                                             const ssched_i_attrs_t *a, ssched_error_t *err)
{
    ssched_error_t local;
    reader_t r = {0};
    r.w_name = a->w;
    r.c_name = a->c;
    r.l_name = a->l;
    r.w_required = a->w_required;
    r.l_required = a->l_required;
    r.skip_missing_c = a->skip_missing_c;
    r.path = strcmp(path, "-") ? path : "<stdin>";
    r.err = err ? err : &local;
    r.w_key = r.c_key = r.ports_key = r.l_key = r.names_key = NO_INDEX;
    r.names_name = a->names;
    ssched_i_name_index_init(&r.key_index);
    ssched_i_name_index_init(&r.node_index);
    ssched_error_clear(r.err);

    char *text;
    size_t len;
    ssched_status_t st = slurp(&r, path, &text, &len);
    if (st != SSCHED_OK)
        return st;
    /* AUTO: the file name's extension decides, else the content */
    size_t n = strlen(path);
    int named_gml = n >= 4 && !strcasecmp(path + n - 4, ".gml");
    int named_xml = (n >= 8 && !strcasecmp(path + n - 8, ".graphml")) ||
                    (n >= 4 && !strcasecmp(path + n - 4, ".xml"));
    int gml = format == SSCHED_PLATFORM_GML ||
              (format == SSCHED_PLATFORM_AUTO &&
               (named_gml || (!named_xml && looks_like_gml(text, len))));
    if (gml) {
        st = ssched_i_gml_read(p, text, len, r.path, a, r.err);
        free(text);
        return st;
    }
    if ((st = sniff(&r, text, len)) != SSCHED_OK) {
        free(text);
        return st;
    }
    if (len > INT_MAX) {
        free(text);
        return ssched_i_graphml_fail(&r, 0, "file too large (%zu bytes)", len);
    }

    xmlInitParser();
    xml_failure_t failure = {0};
    xmlStructuredErrorFunc old_structured = xmlStructuredError;
    void *old_structured_ctx = xmlStructuredErrorContext;
    xmlGenericErrorFunc old_generic = xmlGenericError;
    void *old_generic_ctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(&failure, keep_xml_error);
    xmlSetGenericErrorFunc(NULL, silent_generic);
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    xmlDocPtr doc = NULL;
    if (ctxt && ctxt->sax)
        ctxt->sax->startElementNs = record_line;
    if (ctxt)
        doc = xmlCtxtReadMemory(ctxt, text, (int)len, r.path, NULL,
                                XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING |
                                    XML_PARSE_COMPACT);
    int well_formed = ctxt && ctxt->wellFormed;
    xmlSetStructuredErrorFunc(old_structured_ctx, old_structured);
    xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
    free(text);

    if (!ctxt) {
        st = ssched_i_graphml_nomem(&r);
    } else if (!doc || !well_formed) {
        st = ssched_i_graphml_fail(&r, failure.have ? failure.line : 0, "malformed XML: %s",
                  failure.have ? failure.message : "parse error");
    } else {
        ssched_platform_t tmp;
        ssched_platform_init(&tmp);
        st = read_document(&r, &tmp, doc);
        if (st == SSCHED_OK) {
            st = ssched_platform_finalize(&tmp, r.err);
            if (st == SSCHED_EINPUT)
                ssched_i_graphml_fail(&r, 0, "%s", r.err->message);
        }
        if (st == SSCHED_OK) {
            ssched_platform_free(p);
            *p = tmp;
        } else {
            ssched_platform_free(&tmp);
        }
    }
    xmlFreeDoc(doc);
    if (ctxt)
        xmlFreeParserCtxt(ctxt);
    reader_free(&r);
    return st;
}
