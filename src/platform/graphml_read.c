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
#include "ssched/platform.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "ssched/rational.h"
#include "src/platform/name_index.h"
#include "src/platform/platform_internal.h"

#define GRAPHML_NS "http://graphml.graphdrawing.org/xmlns"
#define NO_INDEX ((size_t)-1)

enum { D_GRAPHML = 1, D_GRAPH = 2, D_NODE = 4, D_EDGE = 8, D_HYPEREDGE = 16, D_PORT = 32,
       D_ENDPOINT = 64, D_ALL = 127 };

typedef enum { T_BOOLEAN, T_INT, T_LONG, T_FLOAT, T_DOUBLE, T_STRING } value_type_t;

static const char *const type_names[] = {"boolean", "int", "long", "float", "double", "string"};

typedef struct {
    char *id;          /* xmlFree */
    char *name;        /* attr.name, or a copy of id; xmlFree */
    int domain;        /* D_* mask */
    value_type_t type;
    char *def;         /* text of <default>, or NULL; xmlFree */
    long line;
} gkey_t;

typedef struct {
    const char *path;  /* as shown in messages */
    ssched_error_t *err;
    gkey_t *keys;
    size_t n_keys;
    const char **key_ids;          /* views of keys[k].id, for the index */
    ssched_name_index_t key_index;
    const char *w_name, *c_name;   /* attr.names read as w and c      */
    int skip_missing_c;            /* --missing-cost skip              */
    const char *l_name;            /* attr.name read as the latency    */
    int w_required, l_required;    /* named by --speed-from / --latency-from */
    size_t w_key, c_key, l_key;    /* indices into keys, or NO_INDEX */
    size_t ports_key;              /* node key 'ports' (one|multi), or NO_INDEX */
    const char *names_name;        /* --names-from: node attr. giving names, or NULL */
    size_t names_key;              /* its key, or NO_INDEX                */
    char **node_ids;               /* xmlFree each */
    long *node_line;
    size_t n_nodes, node_cap;
    ssched_name_index_t node_index;
    xmlNodePtr *edges;
    size_t n_edge_elems, edge_elem_cap;
    long *edge_line;               /* per platform edge */
    size_t edge_line_cap;
} reader_t;

/* ---- messages ----------------------------------------------------------- */

/* Every rejection goes through here: "PATH:LINE: " + text, on one line
 * (control characters in the path, in node names or in libxml2 messages
 * become spaces; libxml2's messages end with a newline). */
static ssched_status_t vfail(reader_t *r, long line, const char *fmt, va_list ap)
{
    char text[SSCHED_ERROR_MSG_MAX];
    vsnprintf(text, sizeof text, fmt, ap);
    size_t n = strlen(text);
    while (n > 0 && ((unsigned char)text[n - 1] <= ' '))
        text[--n] = '\0';
    if (line > 0)
        ssched_error_set(r->err, SSCHED_EINPUT, "%s:%ld: %s", r->path, line, text);
    else
        ssched_error_set(r->err, SSCHED_EINPUT, "%s: %s", r->path, text);
    for (char *s = r->err->message; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
    return SSCHED_EINPUT;
}

static ssched_status_t fail(reader_t *r, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static ssched_status_t fail(reader_t *r, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ssched_status_t st = vfail(r, line, fmt, ap);
    va_end(ap);
    return st;
}

static ssched_status_t nomem(reader_t *r)
{
    return ssched_error_set(r->err, SSCHED_ENOMEM, "%s: out of memory", r->path);
}

/* ---- small XML helpers -------------------------------------------------- */

/* Elements carry their exact line in psvi (see record_line); libxml2's own
 * field is 16 bits wide and only estimated beyond line 65535. */
static long line_of(xmlNodePtr n)
{
    if (!n)
        return 0;
    if (n->type == XML_ELEMENT_NODE && n->psvi)
        return (long)(intptr_t)n->psvi;
    return xmlGetLineNo(n);
}

static int is_graphml(xmlNodePtr n)
{
    return n->ns && n->ns->href && !strcmp((const char *)n->ns->href, GRAPHML_NS);
}

/* Is n the GraphML element <name>? */
static int is_el(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && is_graphml(n) && !strcmp((const char *)n->name, name);
}

/* "<prefix:name>" of an element, for messages. */
static const char *el_name(xmlNodePtr n, char *buf, size_t size)
{
    if (n->ns && n->ns->prefix)
        snprintf(buf, size, "<%s:%s>", (const char *)n->ns->prefix, (const char *)n->name);
    else
        snprintf(buf, size, "<%s>", (const char *)n->name);
    return buf;
}

static char *get_attr(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetNoNsProp(n, (const xmlChar *)name);
}

/* Children that are neither elements nor ignorable (text, comments,
 * processing instructions) would hide content: an entity reference whose
 * replacement holds <node> elements must not be silently skipped. */
static ssched_status_t check_child_kind(reader_t *r, xmlNodePtr c, const char *where)
{
    if (c->type == XML_ENTITY_REF_NODE)
        return fail(r, line_of(c->parent), "%s: entity reference '&%s;' is not supported here",
                    where, (const char *)c->name);
    return SSCHED_OK;
}

/* ---- keys --------------------------------------------------------------- */

static int parse_domain(const char *s)
{
    static const struct { const char *name; int d; } doms[] = {
        {"graphml", D_GRAPHML}, {"graph", D_GRAPH}, {"node", D_NODE}, {"edge", D_EDGE},
        {"hyperedge", D_HYPEREDGE}, {"port", D_PORT}, {"endpoint", D_ENDPOINT}, {"all", D_ALL}};
    for (size_t k = 0; k < sizeof doms / sizeof *doms; k++)
        if (!strcmp(s, doms[k].name))
            return doms[k].d;
    return 0;
}

static ssched_status_t read_key(reader_t *r, xmlNodePtr el)
{
    long line = line_of(el);
    gkey_t k = {0};
    k.line = line;
    k.id = get_attr(el, "id");
    if (!k.id)
        return fail(r, line, "<key>: missing attribute 'id'");
    ssched_status_t st = SSCHED_OK;
    char *dom = get_attr(el, "for"), *type = get_attr(el, "attr.type");
    k.name = get_attr(el, "attr.name");
    k.domain = dom ? parse_domain(dom) : D_ALL;
    k.type = T_STRING;
    if (!k.domain) {
        st = fail(r, line, "<key id=\"%s\">: for=\"%s\" is not a GraphML domain "
                  "(graphml, graph, node, edge, hyperedge, port, endpoint, all)", k.id, dom);
    } else if (type) {
        size_t t = 0;
        while (t < sizeof type_names / sizeof *type_names && strcmp(type, type_names[t]))
            t++;
        if (t == sizeof type_names / sizeof *type_names)
            st = fail(r, line, "<key id=\"%s\">: attr.type=\"%s\" is not a GraphML type "
                      "(boolean, int, long, float, double, string)", k.id, type);
        k.type = (value_type_t)t;
    }
    xmlFree(dom);
    xmlFree(type);
    if (st == SSCHED_OK && !k.name && !(k.name = (char *)xmlStrdup((const xmlChar *)k.id)))
        st = nomem(r);
    for (xmlNodePtr c = el->children; c && st == SSCHED_OK; c = c->next) {
        char buf[128];
        st = check_child_kind(r, c, "<key>");
        if (st != SSCHED_OK || c->type != XML_ELEMENT_NODE || is_el(c, "desc"))
            continue;
        if (!is_el(c, "default")) {
            st = fail(r, line_of(c), "%s in <key id=\"%s\">: unexpected element", el_name(c, buf, sizeof buf), k.id);
        } else if (k.def) {
            st = fail(r, line_of(c), "<default> in <key id=\"%s\">: a second <default>", k.id);
        } else if (!(k.def = (char *)xmlNodeGetContent(c))) {
            st = nomem(r);
        }
    }
    if (st != SSCHED_OK) {
        xmlFree(k.id);
        xmlFree(k.name);
        xmlFree(k.def);
        return st;
    }
    gkey_t *keys = realloc(r->keys, (r->n_keys + 1) * sizeof *keys);
    const char **ids = keys ? realloc(r->key_ids, (r->n_keys + 1) * sizeof *ids) : NULL;
    if (keys)
        r->keys = keys;
    if (ids)
        r->key_ids = ids;
    if (!keys || !ids) {
        xmlFree(k.id);
        xmlFree(k.name);
        xmlFree(k.def);
        return nomem(r);
    }
    size_t pos = r->n_keys++;
    r->keys[pos] = k;
    r->key_ids[pos] = k.id;
    size_t first = 0;
    int added = ssched_i_name_index_add(&r->key_index, r->key_ids, pos, &first);
    if (added < 0)
        return nomem(r);
    if (added == 0)
        return fail(r, line, "<key id=\"%s\">: duplicate key id (first declared on line %ld)",
                    k.id, r->keys[first].line);
    /* The platform attributes, found by attr.name as igraph did. */
    const struct { const char *name; int domain; } wanted[] = {
        {r->w_name, D_NODE}, {r->c_name, D_EDGE}, {"ports", D_NODE}, {r->l_name, D_EDGE}};
    for (size_t a = 0; a < 4; a++) {
        size_t *slot = a == 0 ? &r->w_key : a == 1 ? &r->c_key : a == 2 ? &r->ports_key : &r->l_key;
        if (strcmp(k.name, wanted[a].name) || !(k.domain & wanted[a].domain))
            continue;
        if (*slot != NO_INDEX)
            return fail(r, line, "<key id=\"%s\">: a second key for %s attribute '%s' "
                        "(first: <key id=\"%s\"> on line %ld)", k.id,
                        a % 2 ? "edge" : "node", k.name, r->keys[*slot].id, r->keys[*slot].line);
        if (a == 2 && k.type != T_STRING)
            return fail(r, line, "<key id=\"%s\">: attribute 'ports' (one|multi) needs "
                        "attr.type=\"string\"", k.id);
        if (k.type == T_BOOLEAN)
            return fail(r, line, "<key id=\"%s\">: attribute '%s' is a number; attr.type=\"boolean\" "
                        "is not allowed", k.id, k.name);
        *slot = pos;
    }
    /* --names-from: a node attribute (e.g. Topology Zoo's label) names the
     * nodes that carry it; ids still connect the edges */
    if (r->names_name && !strcmp(k.name, r->names_name) && (k.domain & D_NODE)) {
        if (r->names_key != NO_INDEX)
            return fail(r, line, "<key id=\"%s\">: a second key for node attribute '%s'", k.id,
                        k.name);
        r->names_key = pos;
    }
    return SSCHED_OK;
}

/* ---- exact values ------------------------------------------------------- */

static int xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Parse the lexical value `text` of attribute key (w or c) exactly.  On
 * error the message (without position) is in r->err and EINPUT returned. */
static ssched_status_t parse_value(reader_t *r, const gkey_t *key, const char *text, mpq_t q)
{
    while (xml_space(*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && xml_space(text[n - 1]))
        n--;
    char *s = malloc(n + 1);
    if (!s)
        return nomem(r);
    memcpy(s, text, n);
    s[n] = '\0';
    ssched_status_t st = SSCHED_OK;
    const char *tn = type_names[key->type];
    if (!n) {
        st = ssched_error_set(r->err, SSCHED_EINPUT, "empty value");
    } else if (key->type == T_INT || key->type == T_LONG) {
        size_t i = s[0] == '+' || s[0] == '-';
        int ok = i < n;
        for (; i < n && ok; i++)
            ok = isdigit((unsigned char)s[i]) != 0;
        if (!ok)
            st = ssched_error_set(r->err, SSCHED_EINPUT, "'%s' is not %s %s (attr.type=\"%s\")",
                                  s, key->type == T_INT ? "an" : "a", tn, tn);
    } else if (key->type == T_FLOAT || key->type == T_DOUBLE) {
        const char *u = s + (s[0] == '+' || s[0] == '-');
        if (!strcmp(u, "NaN") || !strcmp(u, "INF") || !strcasecmp(u, "nan") ||
            !strcasecmp(u, "inf") || !strcasecmp(u, "infinity"))
            st = ssched_error_set(r->err, SSCHED_EINPUT, "'%s' is not a finite number", s);
        else if (strspn(s, "0123456789.eE+-") != n)
            st = ssched_error_set(r->err, SSCHED_EINPUT, "'%s' is not a %s (attr.type=\"%s\")",
                                  s, tn, tn);
    }
    if (st == SSCHED_OK)
        st = ssched_rational_parse(q, s, r->err);
    free(s);
    return st;
}

/* ---- data children ------------------------------------------------------ */

static const char *domain_name(int d)
{
    switch (d) {
    case D_GRAPHML: return "graphml";
    case D_GRAPH: return "graph";
    case D_NODE: return "node";
    case D_EDGE: return "edge";
    default: return "element";
    }
}

/* A <data> element inside a `domain` element (described by `where`): its
 * key must be declared, and declared for that domain (or for all). */
static ssched_status_t check_data(reader_t *r, xmlNodePtr d, int domain, const char *where)
{
    long line = line_of(d);
    char *key = get_attr(d, "key");
    if (!key)
        return fail(r, line, "<data> in %s: missing attribute 'key'", where);
    size_t k = ssched_i_name_index_find(&r->key_index, r->key_ids, key);
    ssched_status_t st = SSCHED_OK;
    if (k == NO_INDEX)
        st = fail(r, line, "<data key=\"%s\"> in %s: no <key id=\"%s\"> is declared", key, where, key);
    else if (!(r->keys[k].domain & domain))
        st = fail(r, line, "<data key=\"%s\"> in %s: <key id=\"%s\"> (line %ld) is not declared for "
                  "%s elements", key, where, key, r->keys[k].line, domain_name(domain));
    xmlFree(key);
    return st;
}

/* Check every child of a <node> or <edge>: <desc> and <data> only (nested
 * graphs, ports and locators are refused).  The <data> for key `want`
 * (NO_INDEX: none) is returned in *value, NULL if absent. */
static ssched_status_t scan_item_children(reader_t *r, xmlNodePtr el, int domain, const char *where,
                                          size_t want, xmlNodePtr *value)
{
    *value = NULL;
    for (xmlNodePtr c = el->children; c; c = c->next) {
        char buf[128];
        ssched_status_t st = check_child_kind(r, c, where);
        if (st != SSCHED_OK)
            return st;
        if (c->type != XML_ELEMENT_NODE || is_el(c, "desc"))
            continue;
        if (is_el(c, "data")) {
            if ((st = check_data(r, c, domain, where)) != SSCHED_OK)
                return st;
            if (want == NO_INDEX)
                continue;
            char *key = get_attr(c, "key");
            int match = key && !strcmp(key, r->keys[want].id);
            xmlFree(key);
            if (!match)
                continue;
            if (*value)
                return fail(r, line_of(c), "<data key=\"%s\"> in %s: a second value for '%s' "
                            "(first on line %ld)", r->keys[want].id, where, r->keys[want].name,
                            line_of(*value));
            *value = c;
        } else if (is_el(c, "graph")) {
            return fail(r, line_of(c), "<graph> in %s: nested graphs are not supported", where);
        } else if (is_el(c, "port")) {
            return fail(r, line_of(c), "<port> in %s: ports are not supported", where);
        } else if (is_el(c, "locator")) {
            return fail(r, line_of(c), "<locator> in %s: external graphs are not supported", where);
        } else {
            return fail(r, line_of(c), "%s in %s: unexpected element", el_name(c, buf, sizeof buf),
                        where);
        }
    }
    return SSCHED_OK;
}

/* The value of key `k` for an element: its <data>, else the key's
 * <default>.  Returns 1 with q set, 0 if there is neither, or -1 (error
 * set, prefixed with `where`). */
static int item_value(reader_t *r, size_t k, xmlNodePtr data, long line, const char *where,
                      mpq_t q)
{
    if (k == NO_INDEX)
        return 0;
    const gkey_t *key = &r->keys[k];
    const char *text = key->def;
    char *content = NULL;
    if (data) {
        for (xmlNodePtr c = data->children; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE || c->type == XML_ENTITY_REF_NODE) {
                fail(r, line_of(data), "%s: %s: expected a number, found markup", where, key->name);
                return -1;
            }
        if (!(content = (char *)xmlNodeGetContent(data)))
            content = (char *)xmlStrdup((const xmlChar *)"");
        if (!content) {
            nomem(r);
            return -1;
        }
        text = content;
        line = line_of(data);
    } else if (text) {
        line = key->line;
    }
    if (!text)
        return 0;
    int rc = 1;
    if (parse_value(r, key, text, q) != SSCHED_OK) {
        if (r->err && r->err->status == SSCHED_EINPUT)
            fail(r, line, "%s: %s%s: %s", where, key->name, data ? "" : " (<default>)",
                 r->err->message);
        rc = -1;
    }
    xmlFree(content);
    return rc;
}

/* The `ports` value of a node (its <data>, else the key's <default>):
 * *multi = 1 for "multi" (a switch), 0 for "one" or when absent. */
static ssched_status_t ports_value(reader_t *r, xmlNodePtr data, long line, const char *where,
                                   int *multi)
{
    *multi = 0;
    if (r->ports_key == NO_INDEX)
        return SSCHED_OK;
    const gkey_t *key = &r->keys[r->ports_key];
    const char *text = key->def;
    char *content = NULL;
    if (data) {
        for (xmlNodePtr c = data->children; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE || c->type == XML_ENTITY_REF_NODE)
                return fail(r, line_of(data), "%s: ports: expected one or multi, found markup",
                            where);
        if (!(content = (char *)xmlNodeGetContent(data)))
            return nomem(r);
        text = content;
        line = line_of(data);
    } else if (text) {
        line = key->line;
    }
    if (!text)
        return SSCHED_OK;
    while (xml_space(*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && xml_space(text[n - 1]))
        n--;
    ssched_status_t st = SSCHED_OK;
    if (n == 3 && !strncmp(text, "one", 3))
        *multi = 0;
    else if (n == 5 && !strncmp(text, "multi", 5))
        *multi = 1;
    else
        st = fail(r, line, "%s: ports%s=\"%.*s\" must be \"one\" or \"multi\"", where,
                  data ? "" : " (<default>)", (int)(n > 64 ? 64 : n), text);
    xmlFree(content);
    return st;
}

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
    ssched_status_t st = scan_item_children(r, el, D_NODE, where, r->names_key, &data);
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
        return nomem(r);
    return SSCHED_OK;
}

static ssched_status_t read_node(reader_t *r, ssched_platform_t *p, xmlNodePtr el, mpq_t q)
{
    long line = line_of(el);
    char *id = get_attr(el, "id");
    if (!id)
        return fail(r, line, "<node>: missing attribute 'id'");
    if (!*id) {
        xmlFree(id);
        return fail(r, line, "<node id=\"\">: empty node id");
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
            return nomem(r);
        }
        r->node_cap = cap;
    }
    size_t pos = r->n_nodes++;
    r->node_ids[pos] = id;
    r->node_line[pos] = line;
    size_t first = 0;
    int added = ssched_i_name_index_add(&r->node_index, (const char *const *)r->node_ids, pos, &first);
    if (added < 0)
        return nomem(r);
    if (added == 0)
        return fail(r, line, "node '%s': duplicate node id (first declared on line %ld)", id,
                    r->node_line[first]);
    char where[SSCHED_ERROR_MSG_MAX];
    snprintf(where, sizeof where, "node '%s'", id);
    xmlNodePtr data;
    ssched_status_t st = scan_item_children(r, el, D_NODE, where, r->w_key, &data);
    if (st != SSCHED_OK)
        return st;
    int have = item_value(r, r->w_key, data, line, where, q);
    if (have < 0)
        return r->err ? r->err->status : SSCHED_EINPUT;
    if (have && mpq_sgn(q) <= 0)
        return fail(r, data ? line_of(data) : line, "%s: %s must be positive", where, r->w_name);
    xmlNodePtr ports_data = NULL;
    int multi = 0;
    if (r->ports_key != NO_INDEX &&
        ((st = scan_item_children(r, el, D_NODE, where, r->ports_key, &ports_data)) != SSCHED_OK ||
         (st = ports_value(r, ports_data, line, where, &multi)) != SSCHED_OK))
        return st;
    if (multi && have)
        return fail(r, ports_data ? line_of(ports_data) : line,
                    "%s: ports=\"multi\" with w: a switch never computes", where);
    char *label = NULL;
    if (r->names_key != NO_INDEX && (st = node_label(r, p, el, where, id, &label)) != SSCHED_OK)
        return st;
    size_t index = 0;
    st = ssched_i_platform_add_node_new(p, label ? label : id, have ? q : NULL, &index, r->err);
    free(label);
    if (st != SSCHED_OK)
        return st == SSCHED_EINPUT ? fail(r, line, "%s: %s", where, r->err->message) : st;
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
            return nomem(r);
        r->edge_line = lines;
        r->edge_line_cap = cap;
    }
    r->edge_line[p->n_edges] = line;
    ssched_status_t st = ssched_platform_add_edge(p, a, b, q, r->err);
    if (st == SSCHED_EINPUT)
        return fail(r, line, "%s", r->err->message);
    return st;
}

static ssched_status_t read_edge(reader_t *r, ssched_platform_t *p, xmlNodePtr el,
                                 int graph_directed, mpq_t q)
{
    long line = line_of(el);
    char *src = get_attr(el, "source"), *dst = get_attr(el, "target");
    char *dir = get_attr(el, "directed");
    char *sport = get_attr(el, "sourceport"), *tport = get_attr(el, "targetport");
    char where[SSCHED_ERROR_MSG_MAX];
    snprintf(where, sizeof where, "edge %s->%s", src ? src : "?", dst ? dst : "?");
    ssched_status_t st = SSCHED_OK;
    size_t a = NO_INDEX, b = NO_INDEX;
    int directed = graph_directed;
    if (!src || !dst) {
        st = fail(r, line, "<edge>: missing attribute '%s'", !src ? "source" : "target");
    } else if (sport || tport) {
        st = fail(r, line, "%s: %s=\"%s\": ports are not supported", where,
                  sport ? "sourceport" : "targetport", sport ? sport : tport);
    } else if (dir && strcmp(dir, "true") && strcmp(dir, "false")) {
        st = fail(r, line, "%s: directed=\"%s\" must be \"true\" or \"false\"", where, dir);
    } else if ((a = ssched_i_name_index_find(&r->node_index, (const char *const *)r->node_ids, src)) ==
               NO_INDEX) {
        st = fail(r, line, "%s: source '%s' is not a declared <node>", where, src);
    } else if ((b = ssched_i_name_index_find(&r->node_index, (const char *const *)r->node_ids, dst)) ==
               NO_INDEX) {
        st = fail(r, line, "%s: target '%s' is not a declared <node>", where, dst);
    } else if (a == b) {
        st = fail(r, line, "%s: self-loop", where);
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
    st = scan_item_children(r, el, D_EDGE, where, r->c_key, &data);
    if (st != SSCHED_OK)
        return st;
    if (r->c_key == NO_INDEX)
        return fail(r, line, "%s: no edge attribute '%s' (a <key for=\"edge\" attr.name=\"%s\"> "
                    "is required)", where, r->c_name, r->c_name);
    int have = item_value(r, r->c_key, data, line, where, q);
    if (have < 0)
        return r->err ? r->err->status : SSCHED_EINPUT;
    if (!have && r->skip_missing_c)
        return SSCHED_OK; /* --missing-cost skip: the link is left out */
    if (!have)
        return fail(r, line, "%s: missing %s (--missing-cost skip leaves such edges out)", where,
                    r->c_name);
    if (mpq_sgn(q) <= 0)
        return fail(r, data ? line_of(data) : line, "%s: %s must be positive", where, r->c_name);
    st = add_edge(r, p, a, b, q, line);
    /* An undirected edge is one link usable both ways at cost c. */
    if (st == SSCHED_OK && !directed)
        st = add_edge(r, p, b, a, q, line);
    if (st != SSCHED_OK || r->l_key == NO_INDEX)
        return st;
    /* the latency (absent: 0), the same both ways */
    xmlNodePtr ldata;
    if ((st = scan_item_children(r, el, D_EDGE, where, r->l_key, &ldata)) != SSCHED_OK)
        return st;
    have = item_value(r, r->l_key, ldata, line, where, q);
    if (have < 0)
        return r->err ? r->err->status : SSCHED_EINPUT;
    if (!have)
        return SSCHED_OK;
    if (mpq_sgn(q) < 0)
        return fail(r, ldata ? line_of(ldata) : line, "%s: %s (a latency) must not be negative",
                    where, r->l_name);
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
        return nomem(r);
    for (size_t e = 0; e < p->n_edges; e++)
        order[e] = (pair_t){p->from[e], p->to[e], e};
    qsort(order, p->n_edges, sizeof *order, cmp_pair);
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 1; k < p->n_edges && st == SSCHED_OK; k++) {
        const pair_t *e = &order[k - 1], *f = &order[k];
        if (e->from == f->from && e->to == f->to)
            st = fail(r, r->edge_line[f->edge], "edge %s->%s: parallel edges %s->%s (also on line %ld)",
                      p->names[f->from], p->names[f->to], p->names[f->from], p->names[f->to],
                      r->edge_line[e->edge]);
    }
    free(order);
    return st;
}

/* ---- graph and document ------------------------------------------------- */

static ssched_status_t read_graph(reader_t *r, ssched_platform_t *p, xmlNodePtr g)
{
    long line = line_of(g);
    char *ed = get_attr(g, "edgedefault");
    int directed = 1;
    ssched_status_t st = SSCHED_OK;
    if (ed && strcmp(ed, "directed") && strcmp(ed, "undirected"))
        st = fail(r, line, "<graph>: edgedefault=\"%s\" must be \"directed\" or \"undirected\"", ed);
    else if (ed)
        directed = !strcmp(ed, "directed");
    xmlFree(ed);
    mpq_t q;
    mpq_init(q);
    for (xmlNodePtr c = g->children; c && st == SSCHED_OK; c = c->next) {
        char buf[128];
        st = check_child_kind(r, c, "<graph>");
        if (st != SSCHED_OK || c->type != XML_ELEMENT_NODE || is_el(c, "desc"))
            continue;
        if (is_el(c, "node")) {
            st = read_node(r, p, c, q);
        } else if (is_el(c, "edge")) {
            if (r->n_edge_elems == r->edge_elem_cap) {
                size_t cap = r->edge_elem_cap ? 2 * r->edge_elem_cap : 64;
                xmlNodePtr *e = realloc(r->edges, cap * sizeof *e);
                if (!e) {
                    st = nomem(r);
                    break;
                }
                r->edges = e;
                r->edge_elem_cap = cap;
            }
            r->edges[r->n_edge_elems++] = c;
        } else if (is_el(c, "data")) {
            st = check_data(r, c, D_GRAPH, "<graph>");
        } else if (is_el(c, "hyperedge")) {
            st = fail(r, line_of(c), "<hyperedge>: hyperedges are not supported");
        } else if (is_el(c, "locator")) {
            st = fail(r, line_of(c), "<locator> in <graph>: external graphs are not supported");
        } else {
            st = fail(r, line_of(c), "%s in <graph>: unexpected element", el_name(c, buf, sizeof buf));
        }
    }
    /* Edges after all nodes: GraphML lets an edge precede its endpoints. */
    for (size_t k = 0; k < r->n_edge_elems && st == SSCHED_OK; k++)
        st = read_edge(r, p, r->edges[k], directed, q);
    mpq_clear(q);
    if (st == SSCHED_OK && p->n_nodes == 0)
        st = fail(r, line, "<graph>: the graph has no nodes");
    /* --speed-from ATTR: a speed nowhere would make every node a router */
    size_t with_w = 0;
    for (size_t i = 0; st == SSCHED_OK && r->w_required && i < p->n_nodes; i++)
        with_w += p->has_w[i] != 0;
    if (st == SSCHED_OK && r->w_required && with_w == 0)
        st = fail(r, r->keys[r->w_key].line, "<key id=\"%s\">: no node has a value for "
                  "attribute '%s' (--speed-from)", r->keys[r->w_key].id, r->w_name);
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
            return fail(r, r->keys[k].line, "<key id=\"%s\">: %s %s: '%s' is not %s attribute "
                        "(for=\"%s\")", r->keys[k].id, option, name, name,
                        domain == D_NODE ? "a node" : "an edge",
                        r->keys[k].domain == D_EDGE ? "edge" : r->keys[k].domain == D_NODE
                                                                   ? "node" : "graph");
    return fail(r, line_of(root), "<graphml>: %s %s: no %s attribute '%s' (a <key for=\"%s\" "
                "attr.name=\"%s\"> is required)", option, name, what, name, what, name);
}

static ssched_status_t read_document(reader_t *r, ssched_platform_t *p, xmlDocPtr doc)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    char buf[128];
    if (!root)
        return fail(r, 0, "no root element (a GraphML file starts with <graphml>)");
    if (strcmp((const char *)root->name, "graphml"))
        return fail(r, line_of(root), "%s: not a GraphML document (the root element must be "
                    "<graphml>)", el_name(root, buf, sizeof buf));
    if (!is_graphml(root))
        return fail(r, line_of(root), "%s: namespace is %s%s%s, expected xmlns=\"" GRAPHML_NS "\"",
                    el_name(root, buf, sizeof buf), root->ns ? "'" : "missing",
                    root->ns ? (const char *)root->ns->href : "", root->ns ? "'" : "");
    ssched_status_t st = SSCHED_OK;
    for (xmlNodePtr c = root->children; c && st == SSCHED_OK; c = c->next) {
        st = check_child_kind(r, c, "<graphml>");
        if (st == SSCHED_OK && is_el(c, "key"))
            st = read_key(r, c);
    }
    if (st == SSCHED_OK && r->w_required && r->w_key == NO_INDEX)
        st = missing_attribute(r, root, r->w_name, D_NODE, "--speed-from");
    if (st == SSCHED_OK && r->l_required && r->l_key == NO_INDEX)
        st = missing_attribute(r, root, r->l_name, D_EDGE, "--latency-from");
    if (st == SSCHED_OK && r->names_name && r->names_key == NO_INDEX)
        st = missing_attribute(r, root, r->names_name, D_NODE, "--names-from");
    xmlNodePtr graph = NULL;
    for (xmlNodePtr c = root->children; c && st == SSCHED_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || is_el(c, "key") || is_el(c, "desc"))
            continue;
        if (is_el(c, "data")) {
            st = check_data(r, c, D_GRAPHML, "<graphml>");
        } else if (is_el(c, "graph")) {
            if (graph)
                st = fail(r, line_of(c), "<graph>: a second graph (first on line %ld); a platform "
                          "file holds exactly one <graph>", line_of(graph));
            graph = c;
        } else {
            st = fail(r, line_of(c), "%s in <graphml>: unexpected element",
                      el_name(c, buf, sizeof buf));
        }
    }
    if (st == SSCHED_OK && !graph)
        st = fail(r, line_of(root), "<graphml>: no <graph> element");
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
            return fail(r, 0, "cannot open file (%s)", strerror(errno));
        if (S_ISDIR(sb.st_mode))
            return fail(r, 0, "is a directory, not a GraphML file");
        if (!(f = fopen(path, "rb")))
            return fail(r, 0, "cannot open file (%s)", strerror(errno));
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ssched_status_t st = buf ? SSCHED_OK : nomem(r);
    while (st == SSCHED_OK) {
        if (n + 1 >= cap) {
            char *b = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!b) {
                st = nomem(r);
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                st = fail(r, 0, "read error (%s)", strerror(errno));
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
    while (i < len && (xml_space(text[i]) || text[i] == '\0'))
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
    for (; i < len && (xml_space(text[i]) || text[i] == '\0'); i++)
        line += text[i] == '\n';
    if (i == len)
        return fail(r, 0, "empty file");
    if (text[i] == '<')
        return SSCHED_OK;
    char head[24];
    size_t n = 0;
    for (; i < len && n + 1 < sizeof head && text[i] != '\n' && text[i] != '\r'; i++)
        head[n++] = isprint((unsigned char)text[i]) ? text[i] : '?';
    head[n] = '\0';
    return fail(r, line, "not an XML document: it starts with '%s'; a platform is GraphML or GML "
                "(DOT is not read)", head);
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
        return fail(&r, 0, "file too large (%zu bytes)", len);
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
        st = nomem(&r);
    } else if (!doc || !well_formed) {
        st = fail(&r, failure.have ? failure.line : 0, "malformed XML: %s",
                  failure.have ? failure.message : "parse error");
    } else {
        ssched_platform_t tmp;
        ssched_platform_init(&tmp);
        st = read_document(&r, &tmp, doc);
        if (st == SSCHED_OK) {
            st = ssched_platform_finalize(&tmp, r.err);
            if (st == SSCHED_EINPUT)
                fail(&r, 0, "%s", r.err->message);
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
