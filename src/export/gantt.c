/* Gantt chart of one period as SVG (schedule.h): a row per used out-port
 * and in-port of a one-port node, a row per used link with a switch end
 * (platform multiport: there the link is the resource), and for reduces a
 * row per computing processor, coloured by message type (interval), with a
 * time axis and a legend. */
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "src/export/export_internal.h"
#include "src/export/svg_util.h"

void ssched_i_sched_type_label(const ssched_platform_t *p, const ssched_schedule_t *s, size_t type,
                      char *buf, size_t len);

#define LEFT 150.0
#define WIDTH 880.0
#define ROW_H 22.0
#define TOP 34.0

/* A bar with its tooltip; `label` (sender->receiver) is written on the
 * bar when it has room for it (about 6 px a character at 9 px). */
static void bar(FILE *out, double x, double w, int row, const char *colour, const char *title,
                const char *label)
{
    fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\" "
                 "stroke=\"#333\" stroke-width=\"0.5\"><title>", LEFT + x, TOP + row * ROW_H + 2,
            w, ROW_H - 4, colour);
    ssched_i_svg_escape(out, title);
    fputs("</title></rect>\n", out);
    if (label && w >= 6.0 * (double)strlen(label) + 4) {
        fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\">", LEFT + x + 2,
                TOP + row * ROW_H + ROW_H - 8);
        ssched_i_svg_escape(out, label);
        fputs("</text>\n", out);
    }
}

/* Colours go to the types in use, in type order, so that the first 20
 * used types all differ (colour_of[type], SIZE_MAX if unused). */
static size_t *colour_index(const unsigned char *used, size_t ntypes)
{
    size_t *c = ssched_i_alloc(ntypes, sizeof *c);
    for (size_t t = 0, k = 0; c && t < ntypes; t++)
        c[t] = used[t] ? k++ : (size_t)-1;
    return c;
}

static int is_switch(const ssched_platform_t *p, size_t i)
{
    return p->multiport && p->multiport[i];
}

ssched_status_t ssched_write_schedule_gantt(FILE *out, const ssched_platform_t *p,
                                            const ssched_schedule_t *s, ssched_error_t *err)
{
    size_t nn = p->n_nodes, nr = 3 * nn + p->n_edges, ntypes = s->kind != SSCHED_PROBLEM_REDUCE ? s->n_commodities
                                                                      : s->commutative ? s->sets.n
                                                                      : s->n_intervals;
    /* out, in, cpu per node, then one per link (switch ends) */
    int *row = ssched_i_alloc(nr, sizeof *row);
    unsigned char *used = ssched_i_calloc(ntypes, 1);
    if (!row || !used) {
        free(row);
        free(used);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nr; i++)
        row[i] = -1;
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            size_t e = s->slots[k].transfers[t].edge;
            if (!is_switch(p, p->from[e]))
                row[3 * p->from[e]] = 0;
            if (!is_switch(p, p->to[e]))
                row[3 * p->to[e] + 1] = 0;
            if (is_switch(p, p->from[e]) || is_switch(p, p->to[e]))
                row[3 * nn + e] = 0;
            used[s->slots[k].transfers[t].type] = 1;
        }
    for (size_t k = 0; k < s->n_computations; k++) {
        const ssched_computation_t *c = &s->computations[k];
        row[3 * c->node + 2] = 0;
        if (s->commutative)
            used[c->m] = 1; /* the merged set */
        for (size_t I = 0; I < s->n_intervals; I++)
            if (s->intervals[I].k == c->k && s->intervals[I].m == c->m)
                used[I] = 1; /* computations are coloured by what they produce */
    }
    int rows = 0;
    for (size_t i = 0; i < nr; i++)
        if (row[i] == 0)
            row[i] = rows++;
    size_t n_used = 0;
    for (size_t t = 0; t < ntypes; t++)
        n_used += used[t];
    size_t legend = n_used > 24 ? 24 : n_used;
    size_t *colour_of = colour_index(used, ntypes);
    if (!colour_of) {
        free(row);
        free(used);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    double period = mpq_get_d(s->period), scale = period > 0 ? WIDTH / period : 1;
    double axis_y = TOP + rows * ROW_H + 6;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
                 "fill=\"white\"/>\n", LEFT + WIDTH + 30, axis_y + 40 + 16.0 * ((double)legend + 3) / 4);
    fputs("<title>ssched: one period of the schedule</title>\n", out);
    char *ps = ssched_rational_to_string(s->period), *tp = ssched_rational_to_string(s->throughput);
    fprintf(out, "<text x=\"%.0f\" y=\"20\">one period: %s %s, %s; TP = %s</text>\n", LEFT,
            ps ? ps : "?", p->seconds ? "seconds" : "time units",
            s->split ? "split amounts" : "whole messages", tp ? tp : "?");
    free(ps);
    free(tp);
    static const char *what[3] = {"out", "in", "compute"};
    for (size_t i = 0; i < nr; i++) {
        if (row[i] < 0)
            continue;
        fprintf(out, "<text x=\"4\" y=\"%.1f\">", TOP + row[i] * ROW_H + 15);
        if (i >= 3 * nn) {
            ssched_i_svg_escape(out, p->names[p->from[i - 3 * nn]]);
            fputs("-&gt;", out);
            ssched_i_svg_escape(out, p->names[p->to[i - 3 * nn]]);
        } else {
            ssched_i_svg_escape(out, p->names[i / 3]);
        }
        fprintf(out, " %s</text>\n<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                     "fill=\"#f4f4f4\"/>\n", i >= 3 * nn ? "link" : what[i % 3], LEFT, TOP + row[i] * ROW_H + 2, WIDTH,
                ROW_H - 4);
    }
    /* time axis: 1-2-5 ticks, labels without exponents ("12k") */
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", LEFT,
            axis_y, LEFT + WIDTH, axis_y);
    double step = ssched_i_svg_tick_step(period, 10);
    char tick[32];
    for (int k = 0; k * step <= period * (1 + 1e-12); k++) {
        double t = k * step;
        ssched_i_svg_time_label(t, tick, sizeof tick);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>"
                     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                LEFT + t * scale, axis_y, LEFT + t * scale, axis_y + 4, LEFT + t * scale, axis_y + 16,
                tick);
    }
    mpq_t cur, len;
    mpq_inits(cur, len, NULL);
    char colour[32], label[160], title[400];
    for (size_t k = 0; k < s->n_slots; k++) {
        const ssched_slot_t *sl = &s->slots[k];
        for (size_t t = 0; t < sl->n_transfers; t++) {
            const ssched_transfer_t *tr = &sl->transfers[t];
            size_t e = tr->edge;
            /* after the earlier transfers of this link in the slot */
            mpq_set(cur, sl->start);
            for (size_t u = 0; u < t; u++)
                if (sl->transfers[u].edge == e) {
                    mpq_mul(len, sl->transfers[u].amount, p->c[e]);
                    mpq_mul(len, len, s->size);
                    mpq_add(cur, cur, len);
                }
            mpq_mul(len, tr->amount, p->c[e]);
            mpq_mul(len, len, s->size);
            snprintf(colour, sizeof colour, "%s", ssched_i_svg_colour(colour_of[tr->type]));
            ssched_i_sched_type_label(p, s, tr->type, label, sizeof label);
            char *amount = ssched_rational_to_string(tr->amount);
            snprintf(title, sizeof title, "%s -> %s: %s x %s", p->names[p->from[e]],
                     p->names[p->to[e]], amount ? amount : "?", label);
            free(amount);
            snprintf(label, sizeof label, "%s\xe2\x86\x92%s", p->names[p->from[e]],
                     p->names[p->to[e]]);
            double x = mpq_get_d(cur) * scale, w = mpq_get_d(len) * scale;
            int sw_from = is_switch(p, p->from[e]), sw_to = is_switch(p, p->to[e]);
            if (!sw_from)
                bar(out, x, w, row[3 * p->from[e]], colour, title, label);
            if (!sw_to)
                bar(out, x, w, row[3 * p->to[e] + 1], colour, title, label);
            if (sw_from || sw_to)
                bar(out, x, w, row[3 * nn + e], colour, title, label);
        }
    }
    /* computations, one after the other on each processor from time 0,
     * coloured by the interval they produce */
    for (size_t i = 0; i < nn; i++) {
        mpq_set_ui(cur, 0, 1);
        for (size_t k = 0; k < s->n_computations; k++) {
            const ssched_computation_t *c = &s->computations[k];
            if (c->node != i)
                continue;
            mpq_set_z(len, c->count);
            mpq_mul(len, len, p->w[i]);
            size_t I;
            for (I = 0; I < s->n_intervals; I++)
                if (s->intervals[I].k == c->k && s->intervals[I].m == c->m)
                    break;
            if (s->commutative)
                I = c->m;
            snprintf(colour, sizeof colour, "%s",
                     I < ntypes ? ssched_i_svg_colour(colour_of[I]) : "#848482");
            char *cnt = mpz_get_str(NULL, 10, c->count);
            snprintf(title, sizeof title, "%s computes T(%zu,%zu,%zu) x %s", p->names[i], c->k, c->l,
                     c->m, cnt ? cnt : "?");
            free(cnt);
            bar(out, mpq_get_d(cur) * scale, mpq_get_d(len) * scale, row[3 * i + 2], colour, title,
                NULL);
            mpq_add(cur, cur, len);
        }
    }
    /* legend */
    size_t shown = 0;
    for (size_t t = 0; t < ntypes && shown < legend; t++) {
        if (!used[t])
            continue;
        double x = LEFT + (double)(shown % 4) * 220, y = axis_y + 30 + 16.0 * (double)(shown / 4);
        snprintf(colour, sizeof colour, "%s", ssched_i_svg_colour(colour_of[t]));
        ssched_i_sched_type_label(p, s, t, label, sizeof label);
        fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\" fill=\"%s\"/>"
                     "<text x=\"%.0f\" y=\"%.0f\">", x, y - 9, colour, x + 16, y);
        ssched_i_svg_escape(out, label);
        fputs("</text>\n", out);
        shown++;
    }
    if (n_used > legend)
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">(+%zu more types)</text>\n", LEFT,
                axis_y + 30 + 16.0 * (double)((legend + 3) / 4), n_used - legend);
    fputs("</svg>\n", out);
    mpq_clears(cur, len, NULL);
    free(row);
    free(used);
    free(colour_of);
    return ssched_i_write_status(out, err);
}
