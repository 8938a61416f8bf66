/* Text summaries of a schedule (ssched/export.h): what `ssched schedule`
 * prints about one period or about an unrolled schedule. */
#include <stdlib.h>

#include "src/export/export_internal.h"
#include "ssched/rational.h"

/* "label p/q (decimal)after" with `digits` significant digits. */
static void print_qd(FILE *out, const char *label, const mpq_t q, const char *after, int digits)
{
    char *a = ssched_rational_to_string(q);
    char *b = ssched_rational_to_decimal(q, digits, SSCHED_DECIMAL_SIGNIFICANT);
    fprintf(out, "%s%s (%s)%s", label, a, b, after);
    free(a);
    free(b);
}

static void print_q(FILE *out, const char *label, const mpq_t q, const char *after)
{
    print_qd(out, label, q, after, 6);
}

/* Reduce: a fixed period's figures, then the reduction trees. */
static void reduce_extras(FILE *out, const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_schedule_t *s)
{
    if (s->fixed) {
        print_qd(out, "fixed period TF = ", s->period, "", 10);
        print_qd(out, "\n  throughput with floors r(T) = floor(w(T) TF / T) (RR-4872 4.6): ",
                 s->floor_throughput, "", 10);
        print_qd(out, "\n  report's guarantee TP - card(TREES)/TF: ", s->report_bound, "", 10);
        print_qd(out, "\n  achieved by this schedule (floors plus greedy fill): ",
                 s->throughput, "", 10);
        fprintf(out, "  [");
        mpz_out_str(out, 10, s->extra_instances);
        fprintf(out, " extra tree instances]\n");
    }
    fprintf(out, "%zu reduction trees:\n", s->trees.n_trees);
    for (size_t k = 0; k < s->trees.n_trees; k++) {
        fprintf(out, "tree %zu: ", k + 1);
        ssched_write_tree_text(out, p, pb, &s->trees.trees[k], NULL);
    }
}

/* Broadcast: the arborescences, with their instances per period. */
static void broadcast_extras(FILE *out, const ssched_platform_t *p, const ssched_schedule_t *s)
{
    const ssched_arborescences_t *a = &s->arborescences;
    fprintf(out, "%zu %s arborescences (instances per period: arcs):\n", a->count,
            s->multicast ? "Steiner" : "spanning");
    for (size_t i = 0; i < a->count; i++) {
        fputs("  ", out);
        mpq_out_str(out, 10, a->items[i].weight);
        fputs(" x", out);
        for (size_t k = 0; k < a->items[i].n_arcs; k++) {
            size_t e = a->items[i].arcs[k];
            fprintf(out, "%s %s->%s", k ? "," : "", p->names[p->from[e]], p->names[p->to[e]]);
        }
        fputc('\n', out);
    }
}

ssched_status_t ssched_write_schedule_summary(FILE *out, const ssched_platform_t *p,
                                              const ssched_problem_t *pb,
                                              const ssched_steady_t *st,
                                              const ssched_schedule_t *s, ssched_error_t *err)
{
    char *tp = ssched_rational_to_string(st->throughput);
    char *dec = ssched_rational_to_decimal(st->throughput, 10, SSCHED_DECIMAL_SIGNIFICANT);
    int comm_open = s->kind == SSCHED_PROBLEM_REDUCE && pb->commutative && !st->optimal;
    if ((s->kind == SSCHED_PROBLEM_BROADCAST && s->multicast) ||
        s->kind == SSCHED_PROBLEM_ALLREDUCE || comm_open) {
        /* the Steiner packing's (or the commutative trees') TP is
         * achievable; the edge LP or the relaxation bounds it */
        fprintf(out, "throughput TP = %s (%s), achievable (certified feasible); ", tp, dec);
        print_qd(out, "upper bound ", comm_open ? st->upper_bound : s->upper_bound,
                 (comm_open ? st->optimal : s->optimal) ? ", TP proven optimal"
                                                        : ", TP not proven optimal",
                 10);
        fprintf(out, "; schedule checked: valid\n");
        if (s->kind == SSCHED_PROBLEM_ALLREDUCE)
            fprintf(out, "root %s: %zu reduction trees and %zu arborescences per period\n",
                    p->names[s->root], s->trees.n_trees, s->arborescences.count);
    } else {
        fprintf(out, "throughput TP = %s (%s), certified optimal; schedule checked: valid\n",
                tp, dec);
    }
    fprintf(out, "matchings: %zu (bound %zu) over %zu bipartite edges\n", s->n_matchings,
            s->matching_bound, s->bipartite_edges);
    free(tp);
    free(dec);
    if (s->kind == SSCHED_PROBLEM_REDUCE)
        reduce_extras(out, p, pb, s);
    else if (s->kind == SSCHED_PROBLEM_BROADCAST)
        broadcast_extras(out, p, s);
    return ssched_write_schedule_table(out, p, s, err);
}

ssched_status_t ssched_write_unrolled_summary(FILE *out, const ssched_platform_t *p,
                                              const ssched_schedule_t *s,
                                              const ssched_unroll_figures_t *fig,
                                              ssched_error_t *err)
{
    fprintf(out, "unrolled schedule for %zu operations: %zu transfers (%zu pieces of messages)",
            fig->operations, fig->transfers, fig->pieces);
    if (s->kind == SSCHED_PROBLEM_REDUCE)
        fprintf(out, ", %zu computations", fig->computations);
    fprintf(out, ", %zu periods\n", fig->periods);
    if (s->unroll_batch > 1) /* one message per batch of operations, one latency */
        fprintf(out, "batches: each transfer carries %zu operations (the last fewer)\n",
                s->unroll_batch);
    print_q(out, s->unroll_direct ? "pattern: direct (one level), period " : "pattern: period ",
            fig->period, "");
    fprintf(out, " with ");
    mpz_out_str(out, 10, fig->ops_per_period);
    print_q(out, " operations, throughput ", fig->pattern_throughput, "\n");
    print_q(out, "time for K operations: ", fig->makespan, p->seconds ? " seconds" : "");
    mpq_t achieved; /* the emitted schedule's own throughput */
    mpq_init(achieved);
    if (mpq_sgn(fig->makespan) > 0) {
        mpq_set_ui(achieved, fig->operations, 1);
        mpq_div(achieved, achieved, fig->makespan);
    }
    print_q(out, ", throughput K / makespan = ", achieved, "\n");
    mpq_clear(achieved);
    print_q(out, "lower bound LB(K) = max(K/TP, LB1): K/TP = ", fig->steady_time, ", ");
    print_q(out, "LB1 = ", fig->lb1, "\n");
    if (s->kind == SSCHED_PROBLEM_BROADCAST && s->multicast && s->optimal) {
        /* each message's copies form a Steiner arborescence, so any
         * schedule averages to a packing of them: at most TP */
        fprintf(out, "multicast: TP is proven optimal, so K/TP bounds every schedule\n");
    } else if (s->kind == SSCHED_PROBLEM_BROADCAST && s->multicast) {
        /* K/TP only binds schedules on the pattern's arborescences */
        mpq_t kb;
        mpq_init(kb);
        mpq_set_ui(kb, fig->operations, 1);
        mpq_div(kb, kb, s->upper_bound);
        print_q(out, "multicast: TP is achievable, not proven optimal: any schedule needs K / "
                     "upper bound = ", kb, "\n");
        mpq_clear(kb);
    }
    print_qd(out, "makespan / LB(K) = ", fig->ratio, "", 9);
    print_q(out, ";  overhead over K/TP = ", fig->overhead, "\n");
    char *bp = ssched_rational_to_string(fig->buffer_peak);
    fprintf(out, "buffer: at most %s messages held at once, at node %s\n", bp ? bp : "?",
            fig->buffer_node < p->n_nodes ? p->names[fig->buffer_node] : "-");
    free(bp);
    return ssched_i_write_status(out, err);
}
