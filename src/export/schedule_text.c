/* Human-readable views of a periodic schedule: a table like RR-4872 Fig. 4,
 * a Gantt chart (SVG, one row per port) and the platform with per-period
 * message counts (Graphviz DOT). */
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/schedule.h"

/* "[origin->dest]" or "v[k,m]" */
static void type_label(const ssched_platform_t *p, const ssched_schedule_t *s, size_t type,
                       char *buf, size_t len)
{
    if (s->kind == SSCHED_PROBLEM_REDUCE)
        snprintf(buf, len, "v[%zu,%zu]", s->intervals[type].k, s->intervals[type].m);
    else
        snprintf(buf, len, "[%s->%s]", p->names[s->commodities[type].origin],
                 p->names[s->commodities[type].dest]);
}

static void fq(FILE *out, const mpq_t q)
{
    char *s = ssched_rational_to_string(q);
    fputs(s, out);
    free(s);
}

void ssched_schedule_write_table(const ssched_platform_t *p, const ssched_schedule_t *s, FILE *out)
{
    fputs("period ", out);
    mpq_out_str(out, 10, s->period);
    fputs(", ", out);
    mpz_out_str(out, 10, s->ops_per_period);
    fprintf(out, " operations per period, %s amounts, %zu slots\n",
            s->split ? "split (fractional)" : "whole", s->n_slots);
    fprintf(out, "%-16s  %s\n", "slot", s->kind == SSCHED_PROBLEM_REDUCE
                                     ? "transfers: sender -> receiver  amount x v[k,m]"
                                     : "transfers: sender -> receiver  amount x [origin->dest]");
    for (size_t k = 0; k < s->n_slots; k++) {
        const ssched_slot_t *sl = &s->slots[k];
        char *a = ssched_rational_to_string(sl->start), *b = ssched_rational_to_string(sl->end);
        char span[64];
        snprintf(span, sizeof span, "[%s, %s)", a, b);
        free(a);
        free(b);
        fprintf(out, "%-16s ", span);
        for (size_t t = 0; t < sl->n_transfers; t++) {
            const ssched_transfer_t *tr = &sl->transfers[t];
            char label[128];
            type_label(p, s, tr->type, label, sizeof label);
            fprintf(out, "%s %s->%s ", t ? "," : "", p->names[p->from[tr->edge]],
                    p->names[p->to[tr->edge]]);
            fq(out, tr->amount);
            fprintf(out, " x %s", label);
        }
        fputc('\n', out);
    }
    if (s->n_computations) {
        fputs("computations per period:", out);
        for (size_t k = 0; k < s->n_computations; k++) {
            const ssched_computation_t *c = &s->computations[k];
            fprintf(out, "%s %s T(%zu,%zu,%zu) x ", k ? "," : "", p->names[c->node], c->k, c->l, c->m);
            mpz_out_str(out, 10, c->count);
        }
        fputc('\n', out);
    }
}

/* Colour of a message type: spread hues evenly. */
static void type_colour(size_t type, size_t n, char *buf, size_t len)
{
    snprintf(buf, len, "hsl(%zu,65%%,55%%)", n ? (type * 360 / n) : 0);
}

ssched_status_t ssched_schedule_write_gantt(const ssched_platform_t *p,
                                            const ssched_schedule_t *s, FILE *out,
                                            ssched_error_t *err)
{
    /* Rows: every node's out-port and in-port that is used at all. */
    size_t nn = p->n_nodes;
    int *row_out = malloc((nn ? nn : 1) * sizeof *row_out);
    int *row_in = malloc((nn ? nn : 1) * sizeof *row_in);
    if (!row_out || !row_in) {
        free(row_out);
        free(row_in);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nn; i++)
        row_out[i] = row_in[i] = -1;
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            size_t e = s->slots[k].transfers[t].edge;
            row_out[p->from[e]] = 0;
            row_in[p->to[e]] = 0;
        }
    int rows = 0;
    for (size_t i = 0; i < nn; i++) {
        if (row_out[i] == 0)
            row_out[i] = rows++;
        if (row_in[i] == 0)
            row_in[i] = rows++;
    }
    const double left = 130, width = 900, row_h = 22, top = 30;
    double period = mpq_get_d(s->period);
    double scale = period > 0 ? width / period : 1;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"11\">\n",
            left + width + 20, top + rows * row_h + 40);
    fputs("<title>ssched: one period of the schedule</title>\n", out);
    fprintf(out, "<text x=\"%.0f\" y=\"18\">one period = ", left);
    mpq_out_str(out, 10, s->period);
    fputs(" time units; colour = message type</text>\n", out);
    for (size_t i = 0; i < nn; i++)
        for (int dir = 0; dir < 2; dir++) {
            int r = dir ? row_in[i] : row_out[i];
            if (r < 0)
                continue;
            fprintf(out, "<text x=\"4\" y=\"%.1f\">%s %s</text>\n", top + r * row_h + 15,
                    p->names[i], dir ? "in" : "out");
            fprintf(out, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                         "fill=\"#f4f4f4\"/>\n", left, top + r * row_h + 2, width, row_h - 4);
        }
    mpq_t cur, len;
    mpq_inits(cur, len, NULL);
    char colour[32];
    for (size_t k = 0; k < s->n_slots; k++) {
        const ssched_slot_t *sl = &s->slots[k];
        for (size_t t = 0; t < sl->n_transfers; t++) {
            const ssched_transfer_t *tr = &sl->transfers[t];
            size_t e = tr->edge;
            /* position inside the slot: after the earlier transfers of this link */
            mpq_set(cur, sl->start);
            for (size_t u = 0; u < t; u++)
                if (sl->transfers[u].edge == e) {
                    mpq_mul(len, sl->transfers[u].amount, p->c[e]);
                    mpq_mul(len, len, s->size);
                    mpq_add(cur, cur, len);
                }
            mpq_mul(len, tr->amount, p->c[e]);
            mpq_mul(len, len, s->size);
            type_colour(tr->type, s->kind == SSCHED_PROBLEM_REDUCE ? s->n_intervals : s->n_commodities,
                        colour, sizeof colour);
            char label[128];
            type_label(p, s, tr->type, label, sizeof label);
            for (int dir = 0; dir < 2; dir++) {
                int r = dir ? row_in[p->to[e]] : row_out[p->from[e]];
                fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                             "fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"><title>%s-&gt;%s "
                             "%s</title></rect>\n",
                        left + mpq_get_d(cur) * scale, top + r * row_h + 2,
                        mpq_get_d(len) * scale, row_h - 4, colour, p->names[p->from[e]],
                        p->names[p->to[e]], label);
            }
        }
    }
    fputs("</svg>\n", out);
    mpq_clears(cur, len, NULL);
    free(row_out);
    free(row_in);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}

ssched_status_t ssched_schedule_write_dot(const ssched_platform_t *p,
                                          const ssched_schedule_t *s, FILE *out,
                                          ssched_error_t *err)
{
    size_t ne = p->n_edges;
    size_t nt = s->kind == SSCHED_PROBLEM_REDUCE ? s->n_intervals : s->n_commodities;
    mpq_t *count = malloc((ne * nt > 0 ? ne * nt : 1) * sizeof *count);
    if (!count)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < ne * nt; k++)
        mpq_init(count[k]);
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            const ssched_transfer_t *tr = &s->slots[k].transfers[t];
            mpq_add(count[tr->type * ne + tr->edge], count[tr->type * ne + tr->edge], tr->amount);
        }
    fputs("digraph ssched {\n  rankdir=LR;\n  label=\"messages per period = ", out);
    mpq_out_str(out, 10, s->period);
    fputs(" time units\";\n", out);
    for (size_t i = 0; i < p->n_nodes; i++)
        fprintf(out, "  \"%s\" [shape=%s];\n", p->names[i], p->has_w[i] ? "box" : "ellipse");
    for (size_t e = 0; e < ne; e++) {
        int used = 0;
        for (size_t t = 0; t < nt; t++)
            used |= mpq_sgn(count[t * ne + e]) != 0;
        fprintf(out, "  \"%s\" -> \"%s\" [", p->names[p->from[e]], p->names[p->to[e]]);
        if (!used) {
            fputs("style=dotted, color=gray];\n", out);
            continue;
        }
        fputs("label=\"", out);
        int first = 1;
        for (size_t t = 0; t < nt; t++) {
            if (mpq_sgn(count[t * ne + e]) == 0)
                continue;
            char label[128];
            type_label(p, s, t, label, sizeof label);
            fprintf(out, "%s%s: ", first ? "" : "\\n", label);
            fq(out, count[t * ne + e]);
            first = 0;
        }
        fputs("\", penwidth=2];\n", out);
    }
    fputs("}\n", out);
    for (size_t k = 0; k < ne * nt; k++)
        mpq_clear(count[k]);
    free(count);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}
