/* Gantt chart of K unrolled operations as SVG (ssched/schedule.h): a row
 * per used out-port, in-port, processor and switch link; bars coloured by
 * operation and labelled sender->receiver where they have room; start-up
 * and clean-up shaded.  A transfer's bar is its bandwidth phase, when its
 * ports are busy; its latency before it is a thin line (a batch's title
 * names its operations). */
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/schedule.h"
#include "src/export/export_internal.h"
#include "ssched/export.h"
#include "src/export/svg_util.h"

void ssched_i_sched_type_label(const ssched_platform_t *p, const ssched_schedule_t *s, size_t type,
                      char *buf, size_t len);

#define LEFT 170.0
#define WIDTH 900.0
#define ROW_H 20.0
#define TOP 30.0
/* more events than this: only the first and last operations are drawn */
#define MAX_DRAWN 30000
#define KEEP_OPS 8

static int is_switch(const ssched_platform_t *p, size_t i)
{
    return p->multiport && p->multiport[i];
}

typedef struct {
    FILE *out;
    const ssched_platform_t *p;
    const ssched_schedule_t *s;
    double scale;
    int *row; /* out, in, cpu per node, then a link row per edge */
} gantt_t;

static void bar(gantt_t *g, int row, double t0, double t1, size_t op, const char *label,
                const char *title)
{
    double x = LEFT + t0 * g->scale, w = (t1 - t0) * g->scale, y = TOP + row * ROW_H + 2;
    fprintf(g->out, "<rect class=\"bar\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                    "fill=\"%s\" stroke=\"#333\" stroke-width=\"0.3\"><title>",
            x, y, w > 0.3 ? w : 0.3, ROW_H - 4, ssched_i_svg_colour(op));
    ssched_i_svg_escape(g->out, title);
    fputs("</title></rect>\n", g->out);
    /* the receiver is on the bar itself when it has room (7 px a char) */
    if (label && w >= 7.0 * (double)strlen(label) + 4) {
        fprintf(g->out, "<text x=\"%.2f\" y=\"%.1f\" class=\"blabel\">", x + 2, y + ROW_H - 8);
        ssched_i_svg_escape(g->out, label);
        fputs("</text>\n", g->out);
    }
}

/* A transfer's latency phase [t0, t1): it keeps the port free (the bar
 * is the bandwidth phase), drawn as a thin line before the bar. */
static void latency_line(gantt_t *g, int row, double t0, double t1)
{
    double x = LEFT + t0 * g->scale, w = (t1 - t0) * g->scale, y = TOP + row * ROW_H + ROW_H / 2;
    fprintf(g->out, "<rect class=\"latency\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"1\" "
                    "fill=\"#888\"/>\n", x, y - 0.5, w > 0.3 ? w : 0.3);
}

static int drawn(const ssched_unrolled_t *u, size_t op)
{
    size_t events = u->n_transfers + u->n_computations;
    return events <= MAX_DRAWN || op < KEEP_OPS || op + KEEP_OPS >= u->operations;
}

static int assign_rows(gantt_t *g, const ssched_unrolled_t *u)
{
    const ssched_platform_t *p = g->p;
    size_t nn = p->n_nodes, nr = 3 * nn + p->n_edges;
    for (size_t i = 0; i < nr; i++)
        g->row[i] = -1;
    for (size_t k = 0; k < u->n_transfers; k++) {
        size_t e = u->transfers[k].edge;
        int sw = is_switch(p, p->from[e]) || is_switch(p, p->to[e]);
        if (!is_switch(p, p->from[e]))
            g->row[3 * p->from[e]] = 0;
        if (!is_switch(p, p->to[e]))
            g->row[3 * p->to[e] + 1] = 0;
        if (sw)
            g->row[3 * nn + e] = 0;
    }
    for (size_t k = 0; k < u->n_computations; k++)
        g->row[3 * u->computations[k].node + 2] = 0;
    int rows = 0;
    for (size_t i = 0; i < nr; i++)
        if (g->row[i] == 0)
            g->row[i] = rows++;
    return rows;
}

static void row_labels(gantt_t *g, int rows)
{
    static const char *const what[3] = {"out", "in", "cpu"};
    size_t nn = g->p->n_nodes, nr = 3 * nn + g->p->n_edges;
    for (size_t i = 0; i < nr; i++) {
        if (g->row[i] < 0)
            continue;
        double y = TOP + g->row[i] * ROW_H;
        fprintf(g->out, "<text x=\"4\" y=\"%.1f\">", y + 14);
        if (i >= 3 * nn) {
            ssched_i_svg_escape(g->out, g->p->names[g->p->from[i - 3 * nn]]);
            fputs("\xe2\x86\x92", g->out);
            ssched_i_svg_escape(g->out, g->p->names[g->p->to[i - 3 * nn]]);
            fputs(" link", g->out);
        } else {
            ssched_i_svg_escape(g->out, g->p->names[i / 3]);
            fprintf(g->out, " %s", what[i % 3]);
        }
        fprintf(g->out, "</text><rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                        "fill=\"#f4f4f4\"/>\n",
                LEFT, y + 2, WIDTH, ROW_H - 4);
    }
    (void)rows;
}

static void time_axis(FILE *out, double span, double scale, double y, int seconds)
{
    char lab[32];
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", LEFT,
            y, LEFT + WIDTH, y);
    double step = ssched_i_svg_tick_step(span, 10);
    for (int k = 0; k * step <= span * (1 + 1e-12); k++) {
        double t = k * step, x = LEFT + t * scale;
        ssched_i_svg_time_label(t, lab, sizeof lab);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>"
                     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                x, y, x, y + 4, x, y + 16, lab);
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            LEFT + WIDTH / 2, y + 32,
            seconds ? "time (seconds)" : "time (units of the platform's c and w)");
}

/* Shade [a, b] over the rows with a caption. */
static void shade(FILE *out, double a, double b, double scale, int rows, const char *fill,
                  const char *caption)
{
    if (!(b > a))
        return;
    fprintf(out, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\" "
                 "fill-opacity=\"0.35\"/><text x=\"%.2f\" y=\"%.0f\" class=\"phase\">%s</text>\n",
            LEFT + a * scale, TOP - 4, (b - a) * scale, rows * ROW_H + 4, fill, LEFT + a * scale + 2,
            TOP - 8, caption);
}

ssched_status_t ssched_write_unrolled_gantt(FILE *out, const ssched_platform_t *p,
                                            const ssched_schedule_t *s,
                                            const ssched_unrolled_t *u, ssched_error_t *err)
{
    size_t nn = p->n_nodes, nr = 3 * nn + p->n_edges;
    gantt_t g = {out, p, s, 1, ssched_i_alloc(nr, sizeof(int))};
    if (!g.row)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    int rows = assign_rows(&g, u);
    double span = mpq_get_d(u->fig.makespan);
    g.scale = span > 0 ? WIDTH / span : 1;
    double axis_y = TOP + rows * ROW_H + 6;
    fprintf(out, "<svg id=\"unrolled-svg\" class=\"gantt\" xmlns=\"http://www.w3.org/2000/svg\" "
                 "width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
                 "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            LEFT + WIDTH + 30, axis_y + 44);
    row_labels(&g, rows);
    /* start-up: until operation 0 is complete; clean-up: from the first
     * event of the last operation on */
    double first_done = 0, last_start = span;
    for (size_t k = 0; k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *t = &u->transfers[k];
        if (t->op == 0 && mpq_get_d(t->end) > first_done)
            first_done = mpq_get_d(t->end);
        if (t->op + 1 == u->operations && mpq_get_d(t->start) < last_start)
            last_start = mpq_get_d(t->start);
    }
    for (size_t k = 0; k < u->n_computations; k++) {
        const ssched_timed_computation_t *c = &u->computations[k];
        if (c->op == 0 && mpq_get_d(c->end) > first_done)
            first_done = mpq_get_d(c->end);
        if (c->op + 1 == u->operations && mpq_get_d(c->start) < last_start)
            last_start = mpq_get_d(c->start);
    }
    shade(out, 0, first_done, g.scale, rows, "#A1CAF1", "start-up");
    if (last_start > first_done)
        shade(out, last_start, span, g.scale, rows, "#F99379", "clean-up");
    char label[96], type[160], title[600], t0[64], t1[64];
    for (size_t k = 0; k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *t = &u->transfers[k];
        if (!drawn(u, t->op))
            continue;
        size_t e = t->edge;
        double a = mpq_get_d(t->start), b = mpq_get_d(t->end);
        /* the ports are busy from a + l on (docs/model.md, "Latency") */
        double l = p->l ? mpq_get_d(p->l[e]) : 0, bw = a + l < b ? a + l : b;
        ssched_i_sched_type_label(p, s, t->type, type, sizeof type);
        snprintf(label, sizeof label, "%s\xe2\x86\x92%s", p->names[p->from[e]], p->names[p->to[e]]);
        snprintf(t0, sizeof t0, "%.6g", a);
        snprintf(t1, sizeof t1, "%.6g", b);
        char ops[64], lat[64] = "";
        if (t->batch > 1)
            snprintf(ops, sizeof ops, "ops %zu-%zu", t->op, t->op + t->batch - 1);
        else
            snprintf(ops, sizeof ops, "op %zu", t->op);
        if (l > 0)
            snprintf(lat, sizeof lat, ", latency %.6g", l);
        snprintf(title, sizeof title, "%s: %s, %s, [%s, %s)%s", ops, label, type, t0, t1, lat);
        int rr[3] = {is_switch(p, p->from[e]) ? -1 : g.row[3 * p->from[e]],
                     is_switch(p, p->to[e]) ? -1 : g.row[3 * p->to[e] + 1],
                     is_switch(p, p->from[e]) || is_switch(p, p->to[e]) ? g.row[3 * nn + e] : -1};
        for (int r = 0; r < 3; r++) {
            if (rr[r] < 0)
                continue;
            if (bw > a)
                latency_line(&g, rr[r], a, bw);
            bar(&g, rr[r], bw, b, t->op, label, title);
        }
    }
    for (size_t k = 0; k < u->n_computations; k++) {
        const ssched_timed_computation_t *c = &u->computations[k];
        if (!drawn(u, c->op))
            continue;
        double a = mpq_get_d(c->start), b = mpq_get_d(c->end);
        snprintf(label, sizeof label, "T(%zu,%zu,%zu)", c->k, c->l, c->m);
        snprintf(title, sizeof title, "op %zu: %s computes %s, [%.6g, %.6g)", c->op,
                 p->names[c->node], label, a, b);
        bar(&g, g.row[3 * c->node + 2], a, b, c->op, label, title);
    }
    time_axis(out, span, g.scale, axis_y, p->seconds);
    fputs("</svg>\n", out);
    free(g.row);
    return ssched_i_write_status(out, err);
}

int ssched_unrolled_gantt_elided(const ssched_unrolled_t *u)
{
    return u->n_transfers + u->n_computations > MAX_DRAWN && u->operations > 2 * KEEP_OPS;
}
