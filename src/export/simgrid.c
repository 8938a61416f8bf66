/* The platform as a SimGrid 3.32 platform file and an MPI hostfile
 * (export.h: ssched_write_platform_simgrid), so that a planned schedule
 * runs in SMPI on the platform it was planned for (design.md, "SimGrid
 * mirror"). */
#include <stdio.h>
#include <string.h>

#include "ssched/platform.h"
#include "ssched/export.h"

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

ssched_status_t ssched_write_platform_simgrid(FILE *xml, FILE *hostfile,
                                              const ssched_platform_t *p,
                                              const mpq_t unit_bytes, const mpq_t flops_per_task,
                                              ssched_error_t *err)
{
    if (mpq_sgn(unit_bytes) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "unit_bytes must be positive");
    if (mpq_sgn(flops_per_task) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "flops_per_task must be positive");
    for (size_t i = 0; i < p->n_nodes; i++)
        if (strpbrk(p->names[i], "\n\r \t"))
            return ssched_error_set(err, SSCHED_EINPUT, "node '%s': a hostfile name cannot hold "
                                    "white space", p->names[i]);
    mpq_t q;
    mpq_init(q);
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- written by ssched export simgrid: one host per node, one link per directed\n"
          "     edge (bandwidth unit_bytes / c, latency 0), Floyd routing. Run with\n"
          "     --cfg=network/model:CM02 --cfg=network/crosstraffic:0\n"
          "     --cfg=network/weight-S:0 --cfg=smpi/simulate-computation:no\n"
          "     --cfg=smpi/wtime:0 --cfg=smpi/test:0 --cfg=smpi/iprobe:0\n"
          "     --cfg=smpi/send-is-detached-thresh:0, in a program that cancels SMPI's\n"
          "     16-byte message envelope (ssched-exec-smpi does), so that unit_bytes\n"
          "     take exactly c. -->\n"
          "<platform version=\"4.1\">\n"
          "  <zone id=\"ssched\" routing=\"Floyd\">\n", xml);
    for (size_t i = 0; i < p->n_nodes; i++) {
        if (p->has_w[i] && mpq_sgn(p->w[i]) > 0)
            mpq_div(q, flops_per_task, p->w[i]);
        else
            mpq_set_ui(q, 1, 1);
        fputs("    <host id=\"", xml);
        xml_attr(xml, p->names[i]);
        fprintf(xml, "\" speed=\"%.17gf\"/>\n", mpq_get_d(q));
        fprintf(hostfile, "%s\n", p->names[i]);
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        mpq_div(q, unit_bytes, p->c[e]);
        fprintf(xml, "    <link id=\"e%zu\" bandwidth=\"%.17gBps\" latency=\"0s\"/>\n", e,
                mpq_get_d(q));
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        fputs("    <route src=\"", xml);
        xml_attr(xml, p->names[p->from[e]]);
        fputs("\" dst=\"", xml);
        xml_attr(xml, p->names[p->to[e]]);
        fprintf(xml, "\" symmetrical=\"NO\"><link_ctn id=\"e%zu\"/></route>\n", e);
    }
    fputs("  </zone>\n</platform>\n", xml);
    mpq_clear(q);
    if (ferror(xml) || ferror(hostfile))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}
