/* Human-readable views of a periodic schedule: a table like RR-4872 Fig. 4,
 * a Gantt chart (SVG, one row per port) and the platform with per-period
 * message counts (Graphviz DOT). */
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "src/util/internal.h"
#include "src/export/export_internal.h"

SSCHED_INTERNAL void ssched_i_sched_type_label(const ssched_platform_t *p,
                                               const ssched_schedule_t *s, size_t type, char *buf,
                                               size_t len);

/* "[origin->dest]" or "v[k,m]" (shared with gantt.c) */
void ssched_i_sched_type_label(const ssched_platform_t *p, const ssched_schedule_t *s, size_t type,
                       char *buf, size_t len)
{
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE && type == ssched_schedule_copy_type(s)) {
        snprintf(buf, len, "copy"); /* the broadcast of the result */
    } else if ((s->kind == SSCHED_PROBLEM_REDUCE || s->kind == SSCHED_PROBLEM_ALLREDUCE) &&
               s->commutative) { /* the set, "{0,2}" */
        size_t at = 0;
        for (size_t j = 0; j < 64 * s->sets.words && at + 24 < len; j++)
            if (ssched_sets_has(&s->sets, type, j))
                at += (size_t)snprintf(buf + at, len - at, "%s%zu", at ? "," : "{", j);
        snprintf(buf + at, len - at, "}");
    } else if (s->kind == SSCHED_PROBLEM_REDUCE || s->kind == SSCHED_PROBLEM_ALLREDUCE)
        snprintf(buf, len, "v[%zu,%zu]", s->intervals[type].k, s->intervals[type].m);
    else if (s->kind == SSCHED_PROBLEM_BROADCAST && s->n_commodities)
        snprintf(buf, len, "[bcast %s]", p->names[s->commodities[0].origin]);
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

ssched_status_t ssched_write_schedule_table(FILE *out, const ssched_platform_t *p,
                                            const ssched_schedule_t *s, ssched_error_t *err)
{
    fputs("period ", out);
    mpq_out_str(out, 10, s->period);
    fputs(", ", out);
    mpz_out_str(out, 10, s->ops_per_period);
    fprintf(out, " operations per period, %s amounts, %zu slots\n",
            s->split ? "split (fractional)" : "whole", s->n_slots);
    fprintf(out, "%-16s  %s\n", "slot", s->kind == SSCHED_PROBLEM_ALLREDUCE
                                     ? "transfers: sender -> receiver  amount x v[k,m] | {set} | copy"
                                     : s->kind == SSCHED_PROBLEM_REDUCE
                                     ? "transfers: sender -> receiver  amount x v[k,m]"
                                     : s->kind == SSCHED_PROBLEM_BROADCAST
                                     ? "transfers: sender -> receiver  amount x [bcast source]"
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
            ssched_i_sched_type_label(p, s, tr->type, label, sizeof label);
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
            if (s->commutative) { /* the two merged sets */
                char a[256], b[256];
                ssched_i_sched_type_label(p, s, c->k, a, sizeof a);
                ssched_i_sched_type_label(p, s, c->l, b, sizeof b);
                fprintf(out, "%s %s %s+%s x ", k ? "," : "", p->names[c->node], a, b);
            } else {
                fprintf(out, "%s %s T(%zu,%zu,%zu) x ", k ? "," : "", p->names[c->node], c->k,
                        c->l, c->m);
            }
            mpz_out_str(out, 10, c->count);
        }
        fputc('\n', out);
    }
    return ssched_i_write_status(out, err);
}

ssched_status_t ssched_write_schedule_dot(FILE *out, const ssched_platform_t *p,
                                          const ssched_schedule_t *s, ssched_error_t *err)
{
    size_t ne = p->n_edges;
    size_t nt = s->kind != SSCHED_PROBLEM_REDUCE ? s->n_commodities
                : s->commutative                 ? s->sets.n
                                                 : s->n_intervals;
    mpq_t *count = ssched_i_alloc(ne * nt, sizeof *count);
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
    for (size_t i = 0; i < p->n_nodes; i++) {
        fputs("  \"", out);
        ssched_i_dot_text(out, p->names[i]);
        fprintf(out, "\" [shape=%s];\n", p->has_w[i] ? "box" : "ellipse");
    }
    for (size_t e = 0; e < ne; e++) {
        int used = 0;
        for (size_t t = 0; t < nt; t++)
            used |= mpq_sgn(count[t * ne + e]) != 0;
        fputs("  \"", out);
        ssched_i_dot_text(out, p->names[p->from[e]]);
        fputs("\" -> \"", out);
        ssched_i_dot_text(out, p->names[p->to[e]]);
        fputs("\" [", out);
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
            ssched_i_sched_type_label(p, s, t, label, sizeof label);
            fputs(first ? "" : "\\n", out);
            ssched_i_dot_text(out, label);
            fputs(": ", out);
            fq(out, count[t * ne + e]);
            first = 0;
        }
        fputs("\", penwidth=2];\n", out);
    }
    fputs("}\n", out);
    for (size_t k = 0; k < ne * nt; k++)
        mpq_clear(count[k]);
    free(count);
    return ssched_i_write_status(out, err);
}
