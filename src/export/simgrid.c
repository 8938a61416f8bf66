/* The platform as a SimGrid 3.32 platform file and an MPI hostfile
 * (export.h: ssched_write_platform_simgrid), so that a planned schedule
 * runs in SMPI on the platform it was planned for (design.md, "SimGrid
 * mirror"); a routed platform (read from a SimGrid or matrix file) is
 * written with its own links and routes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/platform.h"

/* XML attribute text: the five special characters escaped. */
static void xml_attr(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* A switch (ports=multi) is a SimGrid router; every other node is a host. */
static int is_router(const ssched_platform_t *p, size_t i)
{
    return !p->routes && p->multiport[i];
}

/* The double nearest to q (mpq_get_d truncates towards zero: 6932556/10^9
 * would become 0.0069325559999999994, not the double of "0.006932556"). */
static double nearest(mpq_srcptr q)
{
    double d = mpq_get_d(q);
    if (!isfinite(d))
        return d;
    double up = nextafter(d, mpq_sgn(q) >= 0 ? INFINITY : -INFINITY);
    if (!isfinite(up))
        return d;
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_set_d(a, d);
    mpq_sub(a, a, q);
    mpq_abs(a, a);
    mpq_set_d(b, up);
    mpq_sub(b, b, q);
    mpq_abs(b, b);
    int closer = mpq_cmp(b, a) < 0;
    mpq_clears(a, b, NULL);
    return closer ? up : d;
}

/* d = num / den as a double SimGrid can take: finite and > 0 (or >= 0 when
 * zero_ok).  0 if not. */
static int rate(double *d, mpq_srcptr num, mpq_srcptr den, int zero_ok)
{
    mpq_t q;
    mpq_init(q);
    if (mpq_sgn(den) == 0)
        mpq_set_ui(q, 0, 1);
    else
        mpq_div(q, num, den);
    *d = nearest(q);
    int ok = mpq_sgn(q) >= 0 && isfinite(*d) && (*d > 0 || (zero_ok && mpq_sgn(q) == 0));
    mpq_clear(q);
    return ok;
}

/* Every number the file will hold, checked before anything is written. */
static ssched_status_t validate(const ssched_platform_t *p, mpq_srcptr unit, mpq_srcptr flops,
                                ssched_error_t *err)
{
    double d;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < p->n_nodes && st == SSCHED_OK; i++) {
        if (strpbrk(p->names[i], "\n\r \t") && !is_router(p, i))
            st = ssched_error_set(err, SSCHED_EINPUT, "node '%s': a hostfile name cannot hold "
                                  "white space", p->names[i]);
        else if (p->has_w[i] && !rate(&d, flops, p->w[i], 0))
            st = ssched_error_set(err, SSCHED_EINPUT, "node '%s': speed flops_per_task / w is "
                                  "zero or too large for SimGrid (a double)", p->names[i]);
    }
    const ssched_routes_t *r = p->routes;
    size_t n = r ? r->n_links : p->n_edges;
    for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
        mpq_srcptr c = r ? r->link_c[k] : p->c[k], l = r ? r->link_latency[k] : p->l[k];
        const char *what = r ? "link" : "edge";
        const char *a = r ? r->link_names[k] : p->names[p->from[k]];
        const char *b = r ? "" : p->names[p->to[k]];
        if (!rate(&d, unit, c, 0))
            st = ssched_error_set(err, SSCHED_EINPUT, "%s %s%s%s: bandwidth unit_bytes / c is "
                                  "zero or too large for SimGrid (a double)", what, a,
                                  r ? "" : "->", b);
        else if (!rate(&d, l, one, 1))
            st = ssched_error_set(err, SSCHED_EINPUT, "%s %s%s%s: latency too large for SimGrid "
                                  "(a double)", what, a, r ? "" : "->", b);
    }
    mpq_clear(one);
    return st;
}

ssched_status_t ssched_write_platform_hostfile(FILE *out, const ssched_platform_t *p,
                                               ssched_error_t *err)
{
    for (size_t i = 0; i < p->n_nodes; i++)
        if (!is_router(p, i) && strpbrk(p->names[i], "\n\r \t"))
            return ssched_error_set(err, SSCHED_EINPUT, "node '%s': a hostfile name cannot hold "
                                    "white space", p->names[i]);
    for (size_t i = 0; i < p->n_nodes; i++)
        if (!is_router(p, i))
            fprintf(out, "%s\n", p->names[i]);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}

/* d with the fewest significant digits that read back as d (SimGrid
 * parses with strtod): "0.006932556", not "0.0069325559999999994". */
static const char *shortest(char *buf, size_t size, double d)
{
    if (d == floor(d) && fabs(d) < 1e17) { /* "1500", not "1.5e+03" */
        snprintf(buf, size, "%.0f", d);
        return buf;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return buf;
}

static void write_link(FILE *xml, const char *id, size_t number, mpq_srcptr unit, mpq_srcptr c,
                       mpq_srcptr l, int fatpipe)
{
    double bw, lat;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    rate(&bw, unit, c, 0);
    rate(&lat, l, one, 1);
    mpq_clear(one);
    fputs("    <link id=\"", xml);
    if (id)
        xml_attr(xml, id);
    else
        fprintf(xml, "e%zu", number);
    char b1[40], b2[40];
    fprintf(xml, "\" bandwidth=\"%sBps\" latency=\"%ss\"%s/>\n", shortest(b1, sizeof b1, bw),
            shortest(b2, sizeof b2, lat), fatpipe ? " sharing_policy=\"FATPIPE\"" : "");
}

ssched_status_t ssched_write_platform_simgrid(FILE *xml, FILE *hostfile,
                                              const ssched_platform_t *p,
                                              const mpq_t unit_bytes, const mpq_t flops_per_task,
                                              ssched_error_t *err)
{
    if (mpq_sgn(unit_bytes) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "unit_bytes must be positive");
    if (mpq_sgn(flops_per_task) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "flops_per_task must be positive");
    ssched_status_t st = validate(p, unit_bytes, flops_per_task, err);
    if (st != SSCHED_OK)
        return st;
    const ssched_routes_t *r = p->routes;
    /* No double hyphen in an XML comment (XML 1.0, section 2.5). */
    fprintf(xml,
            "<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<!-- written by ssched export simgrid: %s.\n"
            "     Simulate under the exact configuration that bench/smpi_exact.sh prints\n"
            "     (option print-cfg B) with a program that cancels SMPI's 16-byte\n"
            "     message envelope (ssched-exec-smpi does): a message of unit_bytes\n"
            "     then takes exactly c seconds, plus the latency. -->\n"
            "<platform version=\"4.1\">\n"
            "  <zone id=\"ssched\" routing=\"%s\">\n",
            r ? "the routed platform, one route of links per host pair, Full routing"
              : "one host per node (a router per switch), one link per directed edge of\n"
                "     bandwidth unit_bytes / c and latency l, Floyd routing",
            r ? "Full" : "Floyd");
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < p->n_nodes; i++) {
        if (is_router(p, i)) {
            fputs("    <router id=\"", xml);
            xml_attr(xml, p->names[i]);
            fputs("\"/>\n", xml);
            continue;
        }
        double speed = 1;
        if (p->has_w[i]) {
            mpq_div(q, flops_per_task, p->w[i]);
            speed = nearest(q);
        }
        fputs("    <host id=\"", xml);
        xml_attr(xml, p->names[i]);
        char b1[40];
        fprintf(xml, "\" speed=\"%sf\"/>\n", shortest(b1, sizeof b1, speed));
    }
    mpq_clear(q);
    if (r) {
        for (size_t k = 0; k < r->n_links; k++)
            write_link(xml, r->link_names[k], k, unit_bytes, r->link_c[k], r->link_latency[k],
                       r->sharing[k] == SSCHED_LINK_FATPIPE);
    } else {
        for (size_t e = 0; e < p->n_edges; e++)
            write_link(xml, NULL, e, unit_bytes, p->c[e], p->l[e], 0);
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        fputs("    <route src=\"", xml);
        xml_attr(xml, p->names[p->from[e]]);
        fputs("\" dst=\"", xml);
        xml_attr(xml, p->names[p->to[e]]);
        fputs("\" symmetrical=\"NO\">", xml);
        if (r) {
            for (size_t a = r->route_start[e]; a < r->route_start[e + 1]; a++) {
                fputs("<link_ctn id=\"", xml);
                xml_attr(xml, r->link_names[r->route_links[a]]);
                fputs("\"/>", xml);
            }
        } else {
            fprintf(xml, "<link_ctn id=\"e%zu\"/>", e);
        }
        fputs("</route>\n", xml);
    }
    fputs("  </zone>\n</platform>\n", xml);
    if (hostfile && (st = ssched_write_platform_hostfile(hostfile, p, err)) != SSCHED_OK)
        return st;
    if (ferror(xml))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}
