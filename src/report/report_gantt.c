/* The report's chart of the time per operation against K (the unrolled
 * Gantt chart is ssched_write_unrolled_gantt, src/export/gantt_unrolled.c). */
#include <math.h>
#include <stdlib.h>

#include "src/report/report_gantt.h"

/* x position of K on a log axis over [1, kmax] */
static double log_x(double k, double kmax, double x0, double w)
{
    return kmax > 1 ? x0 + w * log(k) / log(kmax) : x0 + w / 2;
}

void ssched_i_report_k_chart(FILE *out, const ssched_i_report_k_point_t *pt, size_t n, double tp,
                             const char *id)
{
    const double x0 = 70, w = 600, y0 = 20, h = 260;
    double kmax = 1, ymax = tp > 0 ? 1 / tp : 1;
    for (size_t i = 0; i < n; i++) {
        kmax = pt[i].k > kmax ? pt[i].k : kmax;
        double per = pt[i].makespan / pt[i].k;
        ymax = per > ymax ? per : ymax;
    }
    ymax *= 1.1;
    fprintf(out, "<svg id=\"%s\" class=\"kchart\" xmlns=\"http://www.w3.org/2000/svg\" "
                 "width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
                 "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            id, x0 + w + 190, y0 + h + 50);
    char lab[32];
    double step = ssched_i_svg_tick_step(ymax, 6);
    for (int k = 0; k * step <= ymax; k++) {
        double y = y0 + h - h * k * step / ymax;
        ssched_i_svg_time_label(k * step, lab, sizeof lab);
        fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                     "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                x0, y, x0 + w, y, x0 - 4, y + 4, lab);
    }
    for (size_t i = 0; i < n; i++) {
        double x = log_x(pt[i].k, kmax, x0, w);
        fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f</text>\n", x,
                y0 + h + 16, pt[i].k);
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">operations K (log scale)"
                 "</text>\n<text transform=\"translate(16 %.0f) rotate(-90)\" "
                 "text-anchor=\"middle\">time per operation</text>\n",
            x0 + w / 2, y0 + h + 36, y0 + h / 2);
    static const char *const names[3] = {"makespan / K", "LB(K) / K", "1 / TP (steady state)"};
    static const char *const colours[3] = {"#BE0032", "#0067A5", "#008856"};
    for (int s = 0; s < 3; s++) {
        fprintf(out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                     "%spoints=\"",
                colours[s], s == 2 ? "stroke-dasharray=\"6 4\" " : "");
        for (size_t i = 0; i < n; i++) {
            double v = s == 0 ? pt[i].makespan / pt[i].k : s == 1 ? pt[i].lower_bound / pt[i].k
                                                                  : (tp > 0 ? 1 / tp : 0);
            fprintf(out, "%.1f,%.1f ", log_x(pt[i].k, kmax, x0, w), y0 + h - h * v / ymax);
        }
        fputs("\"/>\n", out);
        fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                     "stroke-width=\"2\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                x0 + w + 14, y0 + 14 + 18.0 * s, x0 + w + 34, y0 + 14 + 18.0 * s, colours[s],
                x0 + w + 40, y0 + 18 + 18.0 * s, names[s]);
    }
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>"
                 "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n</svg>\n",
            x0, y0 + h, x0 + w, y0 + h, x0, y0, x0, y0 + h);
}
