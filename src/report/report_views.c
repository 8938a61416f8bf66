/* The report's structure drawings (trees, flows, arborescences), its time
 * charts and its downloads. */
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/export.h"
#include "ssched/rational.h"
#include "src/report/report_internal.h"

#define SMALL_W 380.0
#define SMALL_H 285.0

/* Append text to an edge's label ("a, b"). */
static int add_label(char **label, size_t e, const char *text)
{
    size_t old = label[e] ? strlen(label[e]) : 0;
    char *s = realloc(label[e], old + strlen(text) + 3);
    if (!s)
        return 0;
    if (old)
        strcpy(s + old, ", ");
    strcpy(s + (old ? old + 2 : 0), text);
    label[e] = s;
    return 1;
}

static void clear_labels(char **label, size_t n)
{
    for (size_t e = 0; e < n; e++) {
        free(label[e]);
        label[e] = NULL;
    }
}

static void small_drawing(FILE *out, const report_t *r, char **label, size_t i, const char *what)
{
    char id[48];
    snprintf(id, sizeof id, "structure-%zu", i);
    fputs("<figure>", out);
    ssched_i_report_drawing_t d = {r->x, r->y, SMALL_W, SMALL_H, NULL, NULL, NULL, label, NULL,
                                   NULL, 1, id};
    ssched_i_report_platform_svg(out, r->p, &d);
    fputs("<figcaption>", out);
    ssched_i_svg_escape(out, what);
    fputs("</figcaption></figure>\n", out);
}

/* Label each tree's sends with the type they carry; one drawing per tree. */
static int draw_trees(FILE *out, const report_t *r, char **label)
{
    const ssched_trees_t *t = &r->period.trees;
    char text[96], caption[160];
    for (size_t i = 0; i < t->n_trees && i < REPORT_MAX_DRAWINGS; i++) {
        const ssched_tree_t *tr = &t->trees[i];
        for (size_t k = 0; k < tr->n_tasks; k++) {
            const ssched_tree_task_t *task = &tr->tasks[k];
            if (task->kind != SSCHED_TREE_SEND)
                continue;
            if (tr->order)
                snprintf(text, sizeof text, "%zu values", task->m - task->k + 1);
            else
                snprintf(text, sizeof text, "v[%zu,%zu]", task->k, task->m);
            if (!add_label(label, task->edge, text))
                return 0;
        }
        char *w = mpz_get_str(NULL, 10, tr->weight);
        snprintf(caption, sizeof caption, "reduction tree %zu: %s per period", i + 1, w ? w : "?");
        free(w);
        small_drawing(out, r, label, i, caption);
        clear_labels(label, r->p->n_edges);
    }
    return 1;
}

/* first: index of the first drawing (an all-reduce draws its trees first) */
static int draw_arborescences(FILE *out, const report_t *r, char **label, size_t first)
{
    const ssched_arborescences_t *a = &r->period.arborescences;
    char caption[160];
    for (size_t i = 0; i < a->count && i < REPORT_MAX_DRAWINGS; i++) {
        for (size_t k = 0; k < a->items[i].n_arcs; k++)
            if (!add_label(label, a->items[i].arcs[k], "copy"))
                return 0;
        char *w = ssched_rational_to_string(a->items[i].weight);
        snprintf(caption, sizeof caption, "arborescence %zu: %s messages per period", i + 1,
                 w ? w : "?");
        free(w);
        small_drawing(out, r, label, first + i, caption);
        clear_labels(label, r->p->n_edges);
    }
    return 1;
}

/* Scatter and gossip: the flow of each message type, rates per time unit. */
static int draw_flows(FILE *out, const report_t *r, char **label)
{
    const ssched_steady_t *st = &r->st;
    char caption[256];
    for (size_t c = 0; c < st->n_commodities && c < REPORT_MAX_DRAWINGS; c++) {
        for (size_t k = 0; k < st->n_flows; k++) {
            if (st->flows[k].type != c)
                continue;
            char *q = ssched_rational_to_string(st->flows[k].rate);
            int ok = add_label(label, st->flows[k].edge, q ? q : "?");
            free(q);
            if (!ok)
                return 0;
        }
        snprintf(caption, sizeof caption, "messages %s \xe2\x86\x92 %s per %s",
                 r->p->names[st->commodities[c].origin], r->p->names[st->commodities[c].dest],
                 r->p->seconds ? "second" : "time unit");
        small_drawing(out, r, label, c, caption);
        clear_labels(label, r->p->n_edges);
    }
    return 1;
}

ssched_status_t ssched_i_report_structures(FILE *out, const report_t *r, ssched_error_t *err)
{
    size_t nt = r->period.trees.n_trees, na = r->period.arborescences.count;
    size_t total = nt || na ? nt + na : r->st.n_commodities;
    const char *what = nt && na ? "reduction trees and arborescences"
                       : nt     ? "reduction trees"
                       : na     ? "arborescences"
                                : "routing flows";
    fprintf(out, "<h2 id=\"structures\">The %s</h2>\n<p class=\"note\">%zu in all", what, total);
    if (nt > REPORT_MAX_DRAWINGS || na > REPORT_MAX_DRAWINGS ||
        (!nt && !na && total > REPORT_MAX_DRAWINGS))
        fprintf(out, ", the first %d of each kind drawn (the schedule file lists every one)",
                REPORT_MAX_DRAWINGS);
    fputs(". Blue edges carry what their label says.</p>\n<div class=\"drawings\">\n", out);
    char **label = ssched_i_calloc(r->p->n_edges, sizeof *label);
    if (!label)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    int ok = 1;
    if (nt)
        ok = draw_trees(out, r, label);
    if (ok && na)
        ok = draw_arborescences(out, r, label, nt < REPORT_MAX_DRAWINGS ? nt : REPORT_MAX_DRAWINGS);
    if (ok && !nt && !na)
        ok = draw_flows(out, r, label);
    clear_labels(label, r->p->n_edges);
    free(label);
    fputs("</div>\n", out);
    return ok ? SSCHED_OK : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
}

static void figure_row(FILE *out, const char *name, const mpq_t q)
{
    fprintf(out, "<tr><th>%s</th><td>", name);
    ssched_i_report_q(out, q);
    char *d = ssched_rational_to_decimal(q, 6, SSCHED_DECIMAL_SIGNIFICANT);
    fprintf(out, " (&asymp; %s)</td></tr>\n", d ? d : "?");
    free(d);
}

ssched_status_t ssched_i_report_timelines(FILE *out, const report_t *r, ssched_error_t *err)
{
    fputs("<h2 id=\"period\">One period</h2>\n<div class=\"figure\" id=\"period-gantt\">", out);
    ssched_status_t st = ssched_write_schedule_gantt(out, r->p, &r->period, err);
    if (st != SSCHED_OK)
        return st;
    fprintf(out, "</div>\n<h2 id=\"unrolled\">%zu operations</h2>\n", r->opt->operations);
    if (!r->unrolled_ok) {
        fputs("<p id=\"unrolled-missing\">Not unrolled: ", out);
        ssched_i_svg_escape(out, r->unroll_error);
        fputs("</p>\n", out);
        return SSCHED_OK;
    }
    const ssched_unroll_figures_t *f = &r->unrolled.fig;
    fputs("<table id=\"k-figures\">", out);
    fprintf(out, "<tr><th>operations K</th><td>%zu</td></tr>\n", f->operations);
    figure_row(out, "makespan", f->makespan);
    figure_row(out, "K / TP", f->steady_time);
    figure_row(out, "LB(K) = max(K/TP, LB1)", f->lower_bound);
    figure_row(out, "makespan / LB(K)", f->ratio);
    figure_row(out, "start-up + clean-up overhead", f->overhead);
    figure_row(out, "most messages a node holds", f->buffer_peak);
    fprintf(out, "<tr><th>events</th><td>%zu transfers, %zu computations; <span class=\"ok\">"
                 "valid</span> for the independent checker</td></tr></table>\n",
            f->transfers, f->computations);
    if (ssched_unrolled_gantt_elided(&r->unrolled))
        fputs("<p class=\"note\">Only the first and last 8 operations are drawn.</p>\n", out);
    fputs("<p class=\"note\">Bars are coloured by operation and labelled sender&rarr;receiver "
          "where they have room; hover for the type and exact times.</p>\n"
          "<div class=\"figure\">", out);
    if ((st = ssched_write_unrolled_gantt(out, r->p, &r->pattern, &r->unrolled, err)) != SSCHED_OK)
        return st;
    fputs("</div>\n<h2 id=\"k-chart-title\">Time for K operations</h2>\n<div class=\"figure\">", out);
    ssched_i_report_k_chart(out, r->k_points, r->n_k_points, mpq_get_d(r->st.throughput),
                            "k-chart");
    fputs("</div>\n<table id=\"k-table\"><tr><th>K</th><th>makespan</th><th>LB(K)</th></tr>\n",
          out);
    for (size_t i = 0; i < r->n_k_points; i++)
        fprintf(out, "<tr><td>%.0f</td><td>%s</td><td>%s</td></tr>\n", r->k_points[i].k,
                r->k_exact[i][0] ? r->k_exact[i][0] : "?",
                r->k_exact[i][1] ? r->k_exact[i][1] : "?");
    fputs("</table>\n", out);
    return SSCHED_OK;
}

static void download(FILE *out, const char *id, const char *file, const char *text,
                     const char *what)
{
    fprintf(out, "<a class=\"download\" id=\"%s\" download=\"%s\" "
                 "href=\"data:application/json;base64,", id, file);
    ssched_i_report_base64(out, (const unsigned char *)text, strlen(text));
    fprintf(out, "\">%s (%zu bytes)</a>\n", what, strlen(text));
}

void ssched_i_report_downloads(FILE *out, const report_t *r)
{
    fputs("<h2 id=\"downloads\">Schedule files</h2>\n<p>", out);
    download(out, "download-schedule", "schedule.json", r->period_json,
             "one period (ssched-schedule/1)");
    if (r->unrolled_ok)
        download(out, "download-unrolled", "unrolled.json", r->unrolled_json,
                 "K operations (ssched-unrolled)");
    fputs("</p>\n<p class=\"note\">Check either with <code>ssched check FILE</code>; run the "
          "unrolled one with <code>mpirun -np N ssched-exec FILE</code>.</p>\n", out);
}
