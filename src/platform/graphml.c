/* GraphML platform reader (through igraph) and writer.
 *
 * igraph parses the XML; ssched then validates every value itself, because
 * exactness matters: a string attribute "1/3" is read as the rational 1/3,
 * a numeric attribute 0.1 as 1/10 (the simplest rational with that double).
 * Every rejection names the file and the offending element. */
#include "ssched/platform.h"

#include <igraph/igraph.h>
#include <libxml/xmlerror.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"

/* igraph reports errors through a global handler; by default it aborts.
 * This one keeps the reason so it can be returned as an ssched_error_t,
 * then lets igraph unwind its own allocations. */
static char igraph_last_reason[256];

static void keep_igraph_error(const char *reason, const char *file, int line,
                              igraph_error_t igraph_errno)
{
    snprintf(igraph_last_reason, sizeof igraph_last_reason, "%s", reason);
    igraph_error_handler_ignore(reason, file, line, igraph_errno);
}

static void ignore_igraph_warning(const char *reason, const char *file, int line)
{
    (void)reason;
    (void)file;
    (void)line;
}

/* libxml2 prints parser diagnostics on stderr by default; the CLI must print
 * exactly one line, so they are silenced here and reported through igraph's
 * error instead. */
static void silent_xml_error(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void silent_xml_structured(void *ctx, xmlErrorPtr error)
{
    (void)ctx;
    (void)error;
}

/* igraph 0.10 hands node ids over with XML character references left in
 * ("a&#38;b" for the id "a&amp;b"); decode them so names are what the file
 * means.  Writes at most strlen(in)+1 bytes (UTF-8 of a code point is never
 * longer than its reference). */
static void decode_references(const char *in, char *out)
{
    static const struct { const char *ent; char c; } named[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    while (*in) {
        int done = 0;
        for (size_t k = 0; k < sizeof named / sizeof *named && !done; k++) {
            size_t n = strlen(named[k].ent);
            if (!strncmp(in, named[k].ent, n)) {
                *out++ = named[k].c;
                in += n;
                done = 1;
            }
        }
        if (!done && in[0] == '&' && in[1] == '#') {
            char *end;
            int hex = in[2] == 'x' || in[2] == 'X';
            unsigned long cp = strtoul(in + (hex ? 3 : 2), &end, hex ? 16 : 10);
            if (*end == ';' && end > in + (hex ? 3 : 2) && cp > 0 && cp <= 0x10FFFF) {
                if (cp < 0x80) {
                    *out++ = (char)cp;
                } else if (cp < 0x800) {
                    *out++ = (char)(0xC0 | (cp >> 6));
                    *out++ = (char)(0x80 | (cp & 0x3F));
                } else if (cp < 0x10000) {
                    *out++ = (char)(0xE0 | (cp >> 12));
                    *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                    *out++ = (char)(0x80 | (cp & 0x3F));
                } else {
                    *out++ = (char)(0xF0 | (cp >> 18));
                    *out++ = (char)(0x80 | ((cp >> 12) & 0x3F));
                    *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                    *out++ = (char)(0x80 | (cp & 0x3F));
                }
                in = end + 1;
                done = 1;
            }
        }
        if (!done)
            *out++ = *in++;
    }
    *out = '\0';
}

/* Type of a vertex/edge attribute, or -1 if absent. */
static int attribute_type(const igraph_t *g, int vertex, const char *name)
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
        igraph_strvector_t *names = vertex ? &vn : &en;
        igraph_vector_int_t *types = vertex ? &vt : &et;
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

/* Read attribute `name` of vertex/edge `id` exactly into q.  Returns 1 if a
 * value is present, 0 if missing, -1 (with err set) if it is unparsable. */
static int read_value(const igraph_t *g, int vertex, int type, const char *name,
                      igraph_integer_t id, mpq_t q, ssched_error_t *err)
{
    if (type == IGRAPH_ATTRIBUTE_STRING) {
        const char *s = vertex ? VAS(g, name, id) : EAS(g, name, id);
        if (!s || !*s)
            return 0;
        return ssched_rational_parse(q, s, err) == SSCHED_OK ? 1 : -1;
    }
    if (type == IGRAPH_ATTRIBUTE_NUMERIC) {
        double d = vertex ? VAN(g, name, id) : EAN(g, name, id);
        if (isnan(d))
            return 0;
        return ssched_rational_from_double(q, d, err) == SSCHED_OK ? 1 : -1;
    }
    ssched_error_set(err, SSCHED_EINPUT, "attribute '%s' must be a string or a number", name);
    return -1;
}

static ssched_status_t convert(const igraph_t *g, ssched_platform_t *p,
                               ssched_error_t *err)
{
    igraph_integer_t n = igraph_vcount(g), m = igraph_ecount(g);
    if (n == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "the graph has no nodes");
    int id_type = attribute_type(g, 1, "id");
    int w_type = attribute_type(g, 1, "w");
    int c_type = attribute_type(g, 0, "c");
    if (c_type < 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "no edge attribute 'c' (a <key for=\"edge\" attr.name=\"c\"> is required)");
    int directed = igraph_is_directed(g);
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    char fallback[32];
    for (igraph_integer_t v = 0; v < n && st == SSCHED_OK; v++) {
        const char *name = NULL;
        if (id_type == IGRAPH_ATTRIBUTE_STRING)
            name = VAS(g, "id", v);
        char *decoded = NULL;
        if (!name || !*name) {
            snprintf(fallback, sizeof fallback, "n%lld", (long long)v);
            name = fallback;
        } else if ((decoded = malloc(strlen(name) + 1)) != NULL) {
            decode_references(name, decoded);
            name = decoded;
        }
        int have = 0;
        if (w_type >= 0) {
            have = read_value(g, 1, w_type, "w", v, q, err);
            if (have < 0) {
                ssched_error_prefix(err, "node '%s': w: ", name);
                st = SSCHED_EINPUT;
            } else if (have && mpq_sgn(q) <= 0) {
                st = ssched_error_set(err, SSCHED_EINPUT, "node '%s': w must be positive", name);
            }
        }
        if (st == SSCHED_OK)
            st = ssched_platform_add_node(p, name, have ? q : NULL, NULL, err);
        free(decoded);
    }
    for (igraph_integer_t e = 0; e < m && st == SSCHED_OK; e++) {
        igraph_integer_t a = IGRAPH_FROM(g, e), b = IGRAPH_TO(g, e);
        const char *an = p->names[a], *bn = p->names[b];
        if (a == b) {
            st = ssched_error_set(err, SSCHED_EINPUT, "edge %s->%s: self-loop", an, bn);
            break;
        }
        int have = read_value(g, 0, c_type, "c", e, q, err);
        if (have < 0) {
            ssched_error_prefix(err, "edge %s->%s: c: ", an, bn);
            st = SSCHED_EINPUT;
        } else if (!have) {
            st = ssched_error_set(err, SSCHED_EINPUT, "edge %s->%s: missing c", an, bn);
        } else if (mpq_sgn(q) <= 0) {
            st = ssched_error_set(err, SSCHED_EINPUT, "edge %s->%s: c must be positive", an, bn);
        } else {
            st = ssched_platform_add_edge(p, (size_t)a, (size_t)b, q, err);
            /* An undirected GraphML edge is a link usable both ways at cost c. */
            if (st == SSCHED_OK && !directed)
                st = ssched_platform_add_edge(p, (size_t)b, (size_t)a, q, err);
        }
    }
    mpq_clear(q);
    if (st == SSCHED_OK)
        st = ssched_platform_finalize(p, err);
    return st;
}

ssched_status_t ssched_platform_load_graphml(ssched_platform_t *p, const char *path,
                                             ssched_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot open file", path);
    int first = fgetc(f);
    if (first == EOF) {
        fclose(f);
        return ssched_error_set(err, SSCHED_EINPUT, "%s: empty file", path);
    }
    rewind(f);

    igraph_set_attribute_table(&igraph_cattribute_table);
    igraph_error_handler_t *old_error = igraph_set_error_handler(keep_igraph_error);
    igraph_warning_handler_t *old_warning = igraph_set_warning_handler(ignore_igraph_warning);
    xmlSetGenericErrorFunc(NULL, silent_xml_error);
    xmlSetStructuredErrorFunc(NULL, silent_xml_structured);
    igraph_last_reason[0] = '\0';

    igraph_t g;
    igraph_error_t ie = igraph_read_graph_graphml(&g, f, 0);
    fclose(f);
    ssched_status_t st;
    if (ie != IGRAPH_SUCCESS) {
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: malformed GraphML (%s)", path,
                              igraph_last_reason[0] ? igraph_last_reason : igraph_strerror(ie));
    } else {
        ssched_platform_t tmp;
        ssched_platform_init(&tmp);
        st = convert(&g, &tmp, err);
        igraph_destroy(&g);
        if (st == SSCHED_OK) {
            ssched_platform_free(p);
            *p = tmp;
        } else {
            ssched_platform_free(&tmp);
            ssched_error_prefix(err, "%s: ", path);
        }
    }
    igraph_set_error_handler(old_error);
    igraph_set_warning_handler(old_warning);
    return st;
}

static void xml_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

ssched_status_t ssched_platform_write_graphml(const ssched_platform_t *p, FILE *out,
                                              ssched_error_t *err)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
          "  <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
          "  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
          "  <graph id=\"G\" edgedefault=\"directed\">\n", out);
    for (size_t i = 0; i < p->n_nodes; i++) {
        fputs("    <node id=\"", out);
        xml_escaped(out, p->names[i]);
        if (p->has_w[i]) {
            fputs("\"><data key=\"w\">", out);
            ssched_rational_fprint(out, p->w[i]);
            fputs("</data></node>\n", out);
        } else {
            fputs("\"/>\n", out);
        }
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        fputs("    <edge source=\"", out);
        xml_escaped(out, p->names[p->from[e]]);
        fputs("\" target=\"", out);
        xml_escaped(out, p->names[p->to[e]]);
        fputs("\"><data key=\"c\">", out);
        ssched_rational_fprint(out, p->c[e]);
        fputs("</data></edge>\n", out);
    }
    fputs("  </graph>\n</graphml>\n", out);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}
