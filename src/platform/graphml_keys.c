/* The GraphML reader's messages, XML helpers, <key> declarations and exact
 * values (graphml_internal.h; the document walk is graphml_read.c). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ssched/rational.h"
#include "src/platform/graphml_internal.h"

static const char *const type_names[] = {"boolean", "int", "long", "float", "double", "string"};

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

ssched_status_t ssched_i_graphml_fail(reader_t *r, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ssched_status_t st = vfail(r, line, fmt, ap);
    va_end(ap);
    return st;
}

ssched_status_t ssched_i_graphml_nomem(reader_t *r)
{
    return ssched_error_set(r->err, SSCHED_ENOMEM, "%s: out of memory", r->path);
}

/* ---- small XML helpers -------------------------------------------------- */

/* Elements carry their exact line in psvi (see record_line); libxml2's own
 * field is 16 bits wide and only estimated beyond line 65535. */
long ssched_i_graphml_line_of(xmlNodePtr n)
{
    if (!n)
        return 0;
    if (n->type == XML_ELEMENT_NODE && n->psvi)
        return (long)(intptr_t)n->psvi;
    return xmlGetLineNo(n);
}

int ssched_i_graphml_is_graphml(xmlNodePtr n)
{
    return n->ns && n->ns->href && !strcmp((const char *)n->ns->href, GRAPHML_NS);
}

/* Is n the GraphML element <name>? */
int ssched_i_graphml_is_el(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && ssched_i_graphml_is_graphml(n) &&
           !strcmp((const char *)n->name, name);
}

/* "<prefix:name>" of an element, for messages. */
const char *ssched_i_graphml_el_name(xmlNodePtr n, char *buf, size_t size)
{
    if (n->ns && n->ns->prefix)
        snprintf(buf, size, "<%s:%s>", (const char *)n->ns->prefix, (const char *)n->name);
    else
        snprintf(buf, size, "<%s>", (const char *)n->name);
    return buf;
}

char *ssched_i_graphml_get_attr(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetNoNsProp(n, (const xmlChar *)name);
}

/* Children that are neither elements nor ignorable (text, comments,
 * processing instructions) would hide content: an entity reference whose
 * replacement holds <node> elements must not be silently skipped. */
ssched_status_t ssched_i_graphml_check_child_kind(reader_t *r, xmlNodePtr c,
                                                                  const char *where)
{
    if (c->type == XML_ENTITY_REF_NODE)
        return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c->parent),
                                     "%s: entity reference '&%s;' is not supported here", where,
                                     (const char *)c->name);
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

ssched_status_t ssched_i_graphml_read_key(reader_t *r, xmlNodePtr el)
{
    long line = ssched_i_graphml_line_of(el);
    gkey_t k = {0};
    k.line = line;
    k.id = ssched_i_graphml_get_attr(el, "id");
    if (!k.id)
        return ssched_i_graphml_fail(r, line, "<key>: missing attribute 'id'");
    ssched_status_t st = SSCHED_OK;
    char *dom = ssched_i_graphml_get_attr(el, "for"),
         *type = ssched_i_graphml_get_attr(el, "attr.type");
    k.name = ssched_i_graphml_get_attr(el, "attr.name");
    k.domain = dom ? parse_domain(dom) : D_ALL;
    k.type = T_STRING;
    if (!k.domain) {
        st = ssched_i_graphml_fail(r, line, "<key id=\"%s\">: for=\"%s\" is not a GraphML domain "
                  "(graphml, graph, node, edge, hyperedge, port, endpoint, all)", k.id, dom);
    } else if (type) {
        size_t t = 0;
        while (t < sizeof type_names / sizeof *type_names && strcmp(type, type_names[t]))
            t++;
        if (t == sizeof type_names / sizeof *type_names)
            st = ssched_i_graphml_fail(r, line,
                                       "<key id=\"%s\">: attr.type=\"%s\" is not a GraphML type "
                                       "(boolean, int, long, float, double, string)",
                                       k.id, type);
        k.type = (value_type_t)t;
    }
    xmlFree(dom);
    xmlFree(type);
    if (st == SSCHED_OK && !k.name && !(k.name = (char *)xmlStrdup((const xmlChar *)k.id)))
        st = ssched_i_graphml_nomem(r);
    for (xmlNodePtr c = el->children; c && st == SSCHED_OK; c = c->next) {
        char buf[128];
        st = ssched_i_graphml_check_child_kind(r, c, "<key>");
        if (st != SSCHED_OK || c->type != XML_ELEMENT_NODE || ssched_i_graphml_is_el(c, "desc"))
            continue;
        if (!ssched_i_graphml_is_el(c, "default")) {
            st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                       "%s in <key id=\"%s\">: unexpected element",
                                       ssched_i_graphml_el_name(c, buf, sizeof buf), k.id);
        } else if (k.def) {
            st = ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                       "<default> in <key id=\"%s\">: a second <default>", k.id);
        } else if (!(k.def = (char *)xmlNodeGetContent(c))) {
            st = ssched_i_graphml_nomem(r);
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
        return ssched_i_graphml_nomem(r);
    }
    size_t pos = r->n_keys++;
    r->keys[pos] = k;
    r->key_ids[pos] = k.id;
    size_t first = 0;
    int added = ssched_i_name_index_add(&r->key_index, r->key_ids, pos, &first);
    if (added < 0)
        return ssched_i_graphml_nomem(r);
    if (added == 0)
        return ssched_i_graphml_fail(
            r, line, "<key id=\"%s\">: duplicate key id (first declared on line %ld)", k.id,
            r->keys[first].line);
    /* The platform attributes, found by attr.name as igraph did. */
    const struct { const char *name; int domain; } wanted[] = {
        {r->w_name, D_NODE}, {r->c_name, D_EDGE}, {"ports", D_NODE}, {r->l_name, D_EDGE}};
    for (size_t a = 0; a < 4; a++) {
        size_t *slot = a == 0 ? &r->w_key : a == 1 ? &r->c_key : a == 2 ? &r->ports_key : &r->l_key;
        if (strcmp(k.name, wanted[a].name) || !(k.domain & wanted[a].domain))
            continue;
        if (*slot != NO_INDEX)
            return ssched_i_graphml_fail(r, line,
                                         "<key id=\"%s\">: a second key for %s attribute '%s' "
                                         "(first: <key id=\"%s\"> on line %ld)",
                                         k.id, a % 2 ? "edge" : "node", k.name, r->keys[*slot].id,
                                         r->keys[*slot].line);
        if (a == 2 && k.type != T_STRING)
            return ssched_i_graphml_fail(r, line,
                                         "<key id=\"%s\">: attribute 'ports' (one|multi) needs "
                                         "attr.type=\"string\"",
                                         k.id);
        if (k.type == T_BOOLEAN)
            return ssched_i_graphml_fail(
                r, line,
                "<key id=\"%s\">: attribute '%s' is a number; attr.type=\"boolean\" "
                "is not allowed",
                k.id, k.name);
        *slot = pos;
    }
    /* --names-from: a node attribute (e.g. Topology Zoo's label) names the
     * nodes that carry it; ids still connect the edges */
    if (r->names_name && !strcmp(k.name, r->names_name) && (k.domain & D_NODE)) {
        if (r->names_key != NO_INDEX)
            return ssched_i_graphml_fail(
                r, line, "<key id=\"%s\">: a second key for node attribute '%s'", k.id, k.name);
        r->names_key = pos;
    }
    return SSCHED_OK;
}

/* ---- exact values ------------------------------------------------------- */

int ssched_i_graphml_xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Parse the lexical value `text` of attribute key (w or c) exactly.  On
 * error the message (without position) is in r->err and EINPUT returned. */
static ssched_status_t parse_value(reader_t *r, const gkey_t *key, const char *text, mpq_t q)
{
    while (ssched_i_graphml_xml_space(*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && ssched_i_graphml_xml_space(text[n - 1]))
        n--;
    char *s = malloc(n + 1);
    if (!s)
        return ssched_i_graphml_nomem(r);
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
ssched_status_t ssched_i_graphml_check_data(reader_t *r, xmlNodePtr d, int domain,
                                                            const char *where)
{
    long line = ssched_i_graphml_line_of(d);
    char *key = ssched_i_graphml_get_attr(d, "key");
    if (!key)
        return ssched_i_graphml_fail(r, line, "<data> in %s: missing attribute 'key'", where);
    size_t k = ssched_i_name_index_find(&r->key_index, r->key_ids, key);
    ssched_status_t st = SSCHED_OK;
    if (k == NO_INDEX)
        st = ssched_i_graphml_fail(
            r, line, "<data key=\"%s\"> in %s: no <key id=\"%s\"> is declared", key, where, key);
    else if (!(r->keys[k].domain & domain))
        st = ssched_i_graphml_fail(
            r, line,
            "<data key=\"%s\"> in %s: <key id=\"%s\"> (line %ld) is not declared for "
            "%s elements",
            key, where, key, r->keys[k].line, domain_name(domain));
    xmlFree(key);
    return st;
}

/* Check every child of a <node> or <edge>: <desc> and <data> only (nested
 * graphs, ports and locators are refused).  The <data> for key `want`
 * (NO_INDEX: none) is returned in *value, NULL if absent. */
ssched_status_t ssched_i_graphml_scan_item_children(reader_t *r, xmlNodePtr el,
                                                                    int domain, const char *where,
                                                                    size_t want, xmlNodePtr *value)
{
    *value = NULL;
    for (xmlNodePtr c = el->children; c; c = c->next) {
        char buf[128];
        ssched_status_t st = ssched_i_graphml_check_child_kind(r, c, where);
        if (st != SSCHED_OK)
            return st;
        if (c->type != XML_ELEMENT_NODE || ssched_i_graphml_is_el(c, "desc"))
            continue;
        if (ssched_i_graphml_is_el(c, "data")) {
            if ((st = ssched_i_graphml_check_data(r, c, domain, where)) != SSCHED_OK)
                return st;
            if (want == NO_INDEX)
                continue;
            char *key = ssched_i_graphml_get_attr(c, "key");
            int match = key && !strcmp(key, r->keys[want].id);
            xmlFree(key);
            if (!match)
                continue;
            if (*value)
                return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                             "<data key=\"%s\"> in %s: a second value for '%s' "
                                             "(first on line %ld)",
                                             r->keys[want].id, where, r->keys[want].name,
                                             ssched_i_graphml_line_of(*value));
            *value = c;
        } else if (ssched_i_graphml_is_el(c, "graph")) {
            return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                         "<graph> in %s: nested graphs are not supported", where);
        } else if (ssched_i_graphml_is_el(c, "port")) {
            return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                         "<port> in %s: ports are not supported", where);
        } else if (ssched_i_graphml_is_el(c, "locator")) {
            return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                         "<locator> in %s: external graphs are not supported",
                                         where);
        } else {
            return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(c),
                                         "%s in %s: unexpected element",
                                         ssched_i_graphml_el_name(c, buf, sizeof buf), where);
        }
    }
    return SSCHED_OK;
}

/* The value of key `k` for an element: its <data>, else the key's
 * <default>.  Returns 1 with q set, 0 if there is neither, or -1 (error
 * set, prefixed with `where`). */
int ssched_i_graphml_item_value(reader_t *r, size_t k, xmlNodePtr data, long line,
                                                const char *where, mpq_t q)
{
    if (k == NO_INDEX)
        return 0;
    const gkey_t *key = &r->keys[k];
    const char *text = key->def;
    char *content = NULL;
    if (data) {
        for (xmlNodePtr c = data->children; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE || c->type == XML_ENTITY_REF_NODE) {
                ssched_i_graphml_fail(r, ssched_i_graphml_line_of(data),
                                      "%s: %s: expected a number, found markup", where, key->name);
                return -1;
            }
        if (!(content = (char *)xmlNodeGetContent(data)))
            content = (char *)xmlStrdup((const xmlChar *)"");
        if (!content) {
            ssched_i_graphml_nomem(r);
            return -1;
        }
        text = content;
        line = ssched_i_graphml_line_of(data);
    } else if (text) {
        line = key->line;
    }
    if (!text)
        return 0;
    int rc = 1;
    if (parse_value(r, key, text, q) != SSCHED_OK) {
        if (r->err && r->err->status == SSCHED_EINPUT)
            ssched_i_graphml_fail(r, line, "%s: %s%s: %s", where, key->name,
                                  data ? "" : " (<default>)", r->err->message);
        rc = -1;
    }
    xmlFree(content);
    return rc;
}

/* The `ports` value of a node (its <data>, else the key's <default>):
 * *multi = 1 for "multi" (a switch), 0 for "one" or when absent. */
ssched_status_t ssched_i_graphml_ports_value(reader_t *r, xmlNodePtr data,
                                                             long line, const char *where,
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
                return ssched_i_graphml_fail(r, ssched_i_graphml_line_of(data),
                                             "%s: ports: expected one or multi, found markup",
                                             where);
        if (!(content = (char *)xmlNodeGetContent(data)))
            return ssched_i_graphml_nomem(r);
        text = content;
        line = ssched_i_graphml_line_of(data);
    } else if (text) {
        line = key->line;
    }
    if (!text)
        return SSCHED_OK;
    while (ssched_i_graphml_xml_space(*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && ssched_i_graphml_xml_space(text[n - 1]))
        n--;
    ssched_status_t st = SSCHED_OK;
    if (n == 3 && !strncmp(text, "one", 3))
        *multi = 0;
    else if (n == 5 && !strncmp(text, "multi", 5))
        *multi = 1;
    else
        st = ssched_i_graphml_fail(r, line, "%s: ports%s=\"%.*s\" must be \"one\" or \"multi\"",
                                   where, data ? "" : " (<default>)", (int)(n > 64 ? 64 : n), text);
    xmlFree(content);
    return st;
}
