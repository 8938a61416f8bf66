/* The platform drawing of the HTML report: nodes at the igraph layout,
 * each directed edge a curve (two directions between the same nodes bend
 * apart), its width the link's load, red where a price is positive. */
#include <math.h>

#include "src/report/report_util.h"

#define MARGIN 40.0

static int is_switch(const ssched_platform_t *p, size_t i)
{
    return p->multiport && p->multiport[i];
}

static void node_point(const ssched_i_report_drawing_t *d, size_t i, double *px, double *py)
{
    *px = MARGIN + d->x[i] * (d->width - 2 * MARGIN);
    *py = MARGIN + d->y[i] * (d->height - 2 * MARGIN);
}

static void draw_edge(FILE *out, const ssched_platform_t *p, const ssched_i_report_drawing_t *d,
                      size_t e)
{
    double x0, y0, x1, y1;
    node_point(d, p->from[e], &x0, &y0);
    node_point(d, p->to[e], &x1, &y1);
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-9)
        return;
    /* stop short of the nodes, bend to the right of the direction */
    double ux = dx / len, uy = dy / len, r = 9;
    x0 += ux * r;
    y0 += uy * r;
    x1 -= ux * r;
    y1 -= uy * r;
    double bend = len * 0.08 + 4, cx = (x0 + x1) / 2 - uy * bend, cy = (y0 + y1) / 2 + ux * bend;
    int labelled = d->label && d->label[e];
    double load = d->edge_load ? d->edge_load[e] : 0;
    const char *colour = d->hot && d->hot[e] ? "#BE0032"
                         : labelled          ? "#0067A5"
                         : load > 0          ? "#0067A5"
                                             : "#b8b8b8";
    double width = labelled ? 2.5 : 0.8 + 5 * load;
    double opacity = d->fade && !labelled ? 0.25 : 1;
    fprintf(out, "<path class=\"edge\" d=\"M%.1f %.1f Q%.1f %.1f %.1f %.1f\" fill=\"none\" "
                 "stroke=\"%s\" stroke-width=\"%.2f\" stroke-opacity=\"%.2f\" "
                 "marker-end=\"url(#%s-arrow)\"><title>",
            x0, y0, cx, cy, x1, y1, colour, width, opacity, d->id);
    ssched_i_svg_escape(out, p->names[p->from[e]]);
    fputs(" \xe2\x86\x92 ", out);
    ssched_i_svg_escape(out, p->names[p->to[e]]);
    if (d->edge_title && d->edge_title[e]) {
        fputs(": ", out);
        ssched_i_svg_escape(out, d->edge_title[e]);
    }
    fputs("</title></path>\n", out);
    if (labelled) {
        /* the label sits at the curve's midpoint */
        double mx = (x0 + 2 * cx + x1) / 4, my = (y0 + 2 * cy + y1) / 4;
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"elabel\" text-anchor=\"middle\">", mx,
                my - 3);
        ssched_i_svg_escape(out, d->label[e]);
        fputs("</text>\n", out);
    }
}

void ssched_i_report_platform_svg(FILE *out, const ssched_platform_t *p,
                                  const ssched_i_report_drawing_t *d)
{
    fprintf(out, "<svg id=\"%s\" class=\"platform\" xmlns=\"http://www.w3.org/2000/svg\" "
                 "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
                 "font-size=\"10\">\n",
            d->id, d->width, d->height, d->width, d->height);
    fprintf(out, "<defs><marker id=\"%s-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
                 "markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" "
                 "orient=\"auto-start-reverse\">"
                 "<path d=\"M0 0 L10 5 L0 10 z\" fill=\"#555\"/></marker></defs>\n",
            d->id);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
    for (size_t e = 0; e < p->n_edges; e++)
        draw_edge(out, p, d, e);
    for (size_t i = 0; i < p->n_nodes; i++) {
        double x, y;
        node_point(d, i, &x, &y);
        int hot = d->hot_node && d->hot_node[i];
        const char *stroke = hot ? "#BE0032" : "#333";
        double sw = hot ? 3 : 1;
        if (is_switch(p, i))
            fprintf(out, "<rect class=\"node\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
                         "fill=\"#ddd\" stroke=\"%s\" stroke-width=\"%.0f\"><title>",
                    x - 6, y - 6, stroke, sw);
        else
            fprintf(out, "<circle class=\"node\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\" fill=\"%s\" "
                         "stroke=\"%s\" stroke-width=\"%.0f\"><title>",
                    x, y, p->has_w[i] ? 7.0 : 5.0, p->has_w[i] ? "#F3C300" : "#eee", stroke, sw);
        ssched_i_svg_escape(out, p->names[i]);
        if (d->node_title && d->node_title[i]) {
            fputs(": ", out);
            ssched_i_svg_escape(out, d->node_title[i]);
        }
        fputs(is_switch(p, i) ? "</title></rect>\n" : "</title></circle>\n", out);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"nlabel\">", x + 9, y + 4);
        ssched_i_svg_escape(out, p->names[i]);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
}
