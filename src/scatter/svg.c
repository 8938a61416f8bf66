/* The stair diagram of seed 004 Figs. 2-4, written as SVG by hand.
 * Doubles are used for coordinates only (display); every printed time is
 * the exact value rounded by ssched_rational_to_decimal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/export/svg_util.h"
#include "ssched/export.h"
#include "ssched/rational.h"
#include "src/scatter/internal.h"

ssched_status_t ssched_write_sb_svg(FILE *out, const ssched_sb_platform_t *inst,
                                    const ssched_sb_result_t *res, const char *title,
                                    ssched_error_t *err)
{
    if (res->p != inst->p || !res->finish || !res->send_end)
        return ssched_error_set(err, SSCHED_EINPUT, "result does not match the instance");
    size_t p = inst->p;
    const double left = 80, top = 62, plot_h = 420, bottom = 130;
    double colw = p ? 900.0 / (double)p : 60;
    if (colw > 70)
        colw = 70;
    if (colw < 18)
        colw = 18;
    const double width = left + colw * (double)p + 40, height = top + plot_h + bottom;
    double tmax = mpq_get_d(res->makespan);
    if (!(tmax > 0))
        tmax = 1;
    double step = ssched_i_svg_tick_step(tmax, 5), ymax = ceil(tmax / step) * step;
#define Y(t) (top + plot_h - (t) / ymax * plot_h)

    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    fprintf(out, "<text x=\"%.1f\" y=\"24\" font-size=\"15\">", left);
    ssched_i_svg_escape(out, title ? title : "scatter");
    fputs("</text>\n", out);
    /* y axis with ticks */
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
            left, top, left, top + plot_h);
    for (double t = 0; t <= ymax * (1 + 1e-9); t += step) {
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                left, Y(t), left + colw * (double)p, Y(t), left - 6, Y(t) + 4, t);
    }
    fprintf(out,
            "<text transform=\"translate(20,%.1f) rotate(-90)\" text-anchor=\"middle\">"
            "time (s)</text>\n",
            top + plot_h / 2);
    /* one column per processor: waiting, receiving, computing */
    const double gap = colw * 0.15;
    for (size_t i = 0; i < p; i++) {
        double x = left + colw * (double)i + gap, w = colw - 2 * gap;
        double t0 = i ? mpq_get_d(res->send_end[i - 1]) : 0;
        double t1 = mpq_get_d(res->send_end[i]), t2 = mpq_get_d(res->finish[i]);
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"white\" "
                "stroke=\"#999\"/>\n",
                x, Y(t0), w, Y(0) - Y(t0));
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"black\"/>\n",
                x, Y(t1), w, Y(t0) - Y(t1));
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" fill=\"#9a9a9a\" "
                "stroke=\"#555\"/>\n",
                x, Y(t2), w, Y(t1) - Y(t2));
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%ld</text>\n",
                x + w / 2, Y(t2) - 4, res->items[i]);
        fprintf(out,
                "<text transform=\"translate(%.1f,%.1f) rotate(-60)\" text-anchor=\"end\">",
                x + w / 2, top + plot_h + 14);
        ssched_i_svg_escape(out, inst->procs[i].name);
        fputs("</text>\n", out);
    }
    /* the stair: ends of the receptions (dashed, as in Figs. 2-4) */
    fputs("<polyline fill=\"none\" stroke=\"#c00\" stroke-dasharray=\"5,3\" points=\"", out);
    for (size_t i = 0; i < p; i++) {
        double t0 = i ? mpq_get_d(res->send_end[i - 1]) : 0, t1 = mpq_get_d(res->send_end[i]);
        fprintf(out, "%.1f,%.2f %.1f,%.2f ", left + colw * (double)i, Y(t0),
                left + colw * (double)(i + 1), Y(t1));
    }
    fputs("\"/>\n", out);
    /* the makespan line, labelled on the title row: a label on the line
     * itself would sit on the item count of the last processor to finish */
    char *ms = ssched_rational_to_decimal(res->makespan, 3, SSCHED_DECIMAL_FIXED);
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#06c\"/>\n"
            "<text x=\"%.1f\" y=\"44\" text-anchor=\"end\" fill=\"#06c\">makespan %s s "
            "(blue line)</text>\n",
            left, Y(tmax), left + colw * (double)p, Y(tmax), width - 10, ms ? ms : "?");
    free(ms);
    const double ly = height - 22;
    fprintf(out,
            "<g font-size=\"11\">"
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"white\" "
            "stroke=\"#999\"/><text x=\"%.1f\" y=\"%.1f\">waiting</text>"
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"black\"/>"
            "<text x=\"%.1f\" y=\"%.1f\">receiving</text>"
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#9a9a9a\"/>"
            "<text x=\"%.1f\" y=\"%.1f\">computing</text>"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
            "stroke-dasharray=\"5,3\"/><text x=\"%.1f\" y=\"%.1f\">end of receptions</text>"
            "</g>\n</svg>\n",
            left, ly, left + 14, ly + 9, left + 80, ly, left + 94, ly + 9, left + 170, ly,
            left + 184, ly + 9, left + 260, ly + 5, left + 285, ly + 5, left + 290, ly + 9);
#undef Y
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error on the SVG output");
    return SSCHED_OK;
}
