/* GraphML platform writer: exact string attributes, read back exactly by
 * ssched_platform_load_graphml() (src/platform/graphml_read.c); edge key
 * `l` (the latency) only on edges that have one. */
#include "ssched/platform.h"

#include <stdio.h>

#include "ssched/rational.h"
#include "src/export/export_internal.h"

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

ssched_status_t ssched_write_platform_graphml(FILE *out, const ssched_platform_t *p,
                                              ssched_error_t *err)
{
    int any_switch = 0, any_latency = ssched_platform_has_latency(p);
    for (size_t i = 0; i < p->n_nodes; i++)
        any_switch |= p->multiport && p->multiport[i];
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
          "  <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n", out);
    if (any_switch) /* only then, so one-port platforms are written as before */
        fputs("  <key id=\"ports\" for=\"node\" attr.name=\"ports\" attr.type=\"string\">"
              "<default>one</default></key>\n", out);
    fputs("  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n", out);
    if (any_latency) /* likewise: platforms without latencies as before */
        fputs("  <key id=\"l\" for=\"edge\" attr.name=\"l\" attr.type=\"string\"/>\n", out);
    fputs("  <graph id=\"G\" edgedefault=\"directed\">\n", out);
    for (size_t i = 0; i < p->n_nodes; i++) {
        fputs("    <node id=\"", out);
        xml_escaped(out, p->names[i]);
        if (p->multiport && p->multiport[i]) {
            fputs("\"><data key=\"ports\">multi</data></node>\n", out);
        } else if (p->has_w[i]) {
            fputs("\"><data key=\"w\">", out);
            ssched_write_rational(out, p->w[i], NULL);
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
        ssched_write_rational(out, p->c[e], NULL);
        if (mpq_sgn(p->l[e]) > 0) { /* the latency, exact, when there is one */
            fputs("</data><data key=\"l\">", out);
            ssched_write_rational(out, p->l[e], NULL);
        }
        fputs("</data></edge>\n", out);
    }
    fputs("  </graph>\n</graphml>\n", out);
    return ssched_i_write_status(out, err);
}
