/* Text forms of a problem and of its certified steady-state solution
 * (ssched/export.h): what `ssched solve` prints. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/export/export_internal.h"
#include "ssched/rational.h"

static void print_list(FILE *out, const ssched_platform_t *p, const size_t *l, size_t n)
{
    for (size_t k = 0; k < n; k++)
        fprintf(out, "%s%s", k ? "," : "", p->names[l[k]]);
}

ssched_status_t ssched_write_problem_text(FILE *out, const ssched_platform_t *p,
                                          const ssched_problem_t *pb, ssched_error_t *err)
{
    if (pb->kind == SSCHED_PROBLEM_BROADCAST && pb->n_targets + 1 == p->n_nodes) {
        fprintf(out, "broadcast from %s to every other node (%zu)", p->names[pb->sources[0]],
                pb->n_targets);
        if (mpq_cmp_ui(pb->size, 1, 1) != 0) {
            fputs(", message size ", out);
            mpq_out_str(out, 10, pb->size);
        }
        return ssched_i_write_status(out, err);
    }
    if (pb->kind == SSCHED_PROBLEM_SCAN) {
        fputs(pb->exclusive ? "exclusive scan (prefix v[0,i-1] to each) of "
                            : "scan (prefix v[0,i] to each) of ", out);
        print_list(out, p, pb->participants, pb->n_participants);
        fputs(" (in this order)", out);
        if (mpq_cmp_ui(pb->size, 1, 1) != 0) {
            fputs(", message size ", out);
            mpq_out_str(out, 10, pb->size);
        }
        return ssched_i_write_status(out, err);
    }
    if (pb->kind == SSCHED_PROBLEM_REDUCE || pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        fputs(pb->kind == SSCHED_PROBLEM_REDUCE ? "reduce of " : "allreduce of ", out);
        print_list(out, p, pb->participants, pb->n_participants);
        fputs(pb->commutative ? " (commutative)" : " (in this order)", out);
        if (pb->kind == SSCHED_PROBLEM_REDUCE)
            fprintf(out, " to %s", p->names[pb->target]);
        else if (pb->target != SIZE_MAX)
            fprintf(out, " through root %s", p->names[pb->target]);
        else
            fputs(", best root", out);
        if (mpq_cmp_ui(pb->size, 1, 1) != 0) {
            fputs(", message size ", out);
            mpq_out_str(out, 10, pb->size);
        }
        return ssched_i_write_status(out, err);
    }
    fprintf(out, "%s from ", pb->kind == SSCHED_PROBLEM_BROADCAST
                                 ? "broadcast (multicast: not every other node is a target)"
                                 : ssched_problem_kind_name(pb->kind));
    print_list(out, p, pb->sources, pb->n_sources);
    fputs(" to ", out);
    print_list(out, p, pb->targets, pb->n_targets);
    if (mpq_cmp_ui(pb->size, 1, 1) != 0) {
        fputs(", message size ", out);
        mpq_out_str(out, 10, pb->size);
    }
    return ssched_i_write_status(out, err);
}

/* p/q, and beside it its decimal when the fraction is long enough to be
 * hard to read (times in seconds give fractions of many digits). */
static void print_q(FILE *out, const mpq_t q)
{
    char *s = ssched_rational_to_string(q);
    fputs(s, out);
    free(s);
}

static void print_qd(FILE *out, const mpq_t q)
{
    char *s = ssched_rational_to_string(q);
    fputs(s, out);
    if (s && strlen(s) > 9 && mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        char *d = ssched_rational_to_decimal(q, 6, SSCHED_DECIMAL_SIGNIFICANT);
        fprintf(out, " (%s)", d ? d : "?");
        free(d);
    }
    free(s);
}

/* The time unit's name in "per time unit" (a second when the costs came
 * from bandwidths). */
static const char *unit_of(const ssched_platform_t *p)
{
    return p->seconds ? "second" : "time unit";
}

/* All-reduce: the achievable TP, its bound, the root (and, for a best-root
 * solve, every candidate). */
static void print_allreduce(FILE *out, const ssched_platform_t *p, const ssched_steady_t *s,
                            const char *dec)
{
    fputs("\nthroughput (achievable, certified feasible) TP = ", out);
    print_q(out, s->throughput);
    fprintf(out, " (%s) all-reduces per %s%s, root %s\n", dec, unit_of(p),
            s->optimal ? ", optimal" : "", p->names[s->allreduce_root]);
    fputs("upper bound (certified) = ", out);
    print_q(out, s->upper_bound);
    mpq_t gap;
    mpq_init(gap);
    mpq_sub(gap, s->upper_bound, s->throughput);
    fputs("; gap = ", out);
    print_qd(out, gap);
    mpq_clear(gap);
    fprintf(out, "\nnote: reduction trees to the root and arborescences from it in one steady "
                 "state;\n      pricing %s\n",
            s->cg_pricing_exact ? "exact (no column improves: the TP is optimal for this root)"
            : "heuristic (Steiner arborescences with many relays, or commutative trees with many\n"
              "      optional merge points): the bound is Farley's from the exact duals or the\n"
              "      combined edge LP's, the smaller");
    if (s->n_root_candidates) {
        fprintf(out, "best root %s, certified as the maximum over %zu candidate roots:\n",
                p->names[s->allreduce_root], s->n_root_candidates);
        for (size_t k = 0; k < s->n_root_candidates; k++) {
            fprintf(out, "  %-12s ", p->names[s->root_candidates[k]]);
            if (s->root_pruned[k]) {
                fputs("pruned: bound ", out);
            } else {
                fputs("TP ", out);
                print_q(out, s->root_throughput[k]);
                fputs("  bound ", out);
            }
            print_q(out, s->root_upper_bound[k]);
            fputc('\n', out);
        }
    }
}

/* Commutative reduce: the achievable TP and, unless it is proven optimal,
 * its certified upper bound and the gap. */
static void print_commutative(FILE *out, const ssched_platform_t *p, const ssched_steady_t *s,
                              const char *dec)
{
    fputs("\nthroughput (achievable, certified feasible) TP = ", out);
    print_q(out, s->throughput);
    fprintf(out, " (%s) operations per %s%s\n", dec, unit_of(p),
            s->optimal ? ", certified optimal" : "");
    if (!s->optimal) {
        mpq_t gap;
        mpq_init(gap);
        mpq_sub(gap, s->upper_bound, s->throughput);
        fputs("upper bound (certified) = ", out);
        print_q(out, s->upper_bound);
        fputs("; gap = ", out);
        print_qd(out, gap);
        mpq_clear(gap);
        fputs("\nnote: optional merge points (nodes with w outside the problem) make pricing\n"
              "      Steiner-like and not proven exact: the optimal TP lies between the two\n", out);
    }
    fprintf(out, "note: commutative (partial results are sets): column generation over "
                 "reduction in-trees, %s pricing\n", s->cg_pricing_exact ? "exact" : "heuristic");
}

ssched_status_t ssched_write_steady_text(FILE *out, const char *platform_name,
                                         const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_t *s, ssched_error_t *err)
{
    fprintf(out, "platform: %s (%zu nodes, %zu edges)\nproblem: ", platform_name, p->n_nodes,
            p->n_edges);
    ssched_write_problem_text(out, p, pb, NULL);
    size_t n_switches = 0;
    for (size_t i = 0; i < p->n_nodes && !p->routes; i++)
        n_switches += p->multiport && p->multiport[i];
    if (p->routes) {
        fprintf(out, "\nmodel: routed, hosts %s (%zu hosts, %zu link resources; a message "
                     "follows its route's links)",
                p->routes->hosts_one_port ? "one-port" : "multi-port", p->n_nodes,
                p->routes->n_links);
    } else if (n_switches) {
        fprintf(out, "\nmodel: %zu switch%s (no port rule; each incident link is its own resource): ",
                n_switches, n_switches == 1 ? "" : "es");
        for (size_t i = 0, k = 0; i < p->n_nodes; i++)
            if (p->multiport[i])
                fprintf(out, "%s%s", k++ ? "," : "", p->names[i]);
        fputs("; every other node one-port", out);
    } else {
        fputs("\nmodel: every node one-port (RR-4872)", out);
    }
    char *dec = ssched_rational_to_decimal(s->throughput, 10, SSCHED_DECIMAL_SIGNIFICANT);
    /* a scan by column generation: achievable TP, bound and gap as a multicast */
    int scan_cg = pb->kind == SSCHED_PROBLEM_SCAN && s->method == SSCHED_METHOD_COLGEN;
    int achieved = (s->multicast && s->method == SSCHED_METHOD_COLGEN) || scan_cg;
    int allreduce = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    int comm = pb->kind == SSCHED_PROBLEM_REDUCE && pb->commutative;
    if (allreduce) {
        print_allreduce(out, p, s, dec);
    } else if (comm) {
        print_commutative(out, p, s, dec);
    } else if (achieved) {
        fputs("\nthroughput (achievable, certified feasible) TP = ", out);
        print_q(out, s->throughput);
        fprintf(out, " (%s) operations per %s%s\n", dec, unit_of(p),
                s->optimal ? ", optimal" : "");
        char *ub = ssched_rational_to_decimal(s->upper_bound, 10, SSCHED_DECIMAL_SIGNIFICANT);
        if (scan_cg && s->scan_bound_demand)
            fprintf(out, "upper bound (ordered reduce of v[0,%zu] to %s, certified optimum) = ",
                    pb->exclusive ? s->scan_bound_demand - 1 : s->scan_bound_demand,
                    p->names[pb->participants[s->scan_bound_demand]]);
        else if (scan_cg && s->scan_bound_lp_demands + 1 < pb->n_participants)
            fprintf(out, "upper bound (scan edge LP over %zu of the %zu demands, certified "
                         "optimum) = ", s->scan_bound_lp_demands, pb->n_participants - 1);
        else
            fputs(scan_cg ? "upper bound (scan edge LP, certified optimum) = "
                          : "upper bound (broadcast edge LP, certified optimum) = ", out);
        print_q(out, s->upper_bound);
        mpq_t gap;
        mpq_init(gap);
        mpq_sub(gap, s->upper_bound, s->throughput);
        fprintf(out, " (%s); gap = ", ub);
        print_qd(out, gap);
        mpq_clear(gap);
        free(ub);
        if (scan_cg)
            fprintf(out, "\nnote: scan: TP packs %zu prefix structures (anchor chains, priced "
                         "exactly over that family);\n      %s\n", s->n_scan_structures,
                    s->optimal ? "it reaches the upper bound, so it is the optimal scan TP"
                               : "the optimal scan TP lies between the two");
        else
        fprintf(out, "\nnote: multicast (the targets are not every other node): TP packs Steiner "
                     "arborescences, %s pricing;\n      %s\n",
                s->cg_pricing_exact ? "exact" : "heuristic",
                s->cg_pricing_exact ? "no arborescence improves it, so it is the optimal multicast TP"
                : mpq_equal(s->throughput, s->upper_bound) ? "it reaches the upper bound, so it is optimal"
                : "too many relays for exact pricing: optimal TP lies between the two");
    } else {
        fputs(s->multicast || pb->kind == SSCHED_PROBLEM_SCAN ? "\nupper bound on TP = "
                                                                : "\nthroughput TP = ", out);
        print_q(out, s->throughput);
    }
    if (allreduce || comm)
        ; /* printed above */
    else if (pb->kind == SSCHED_PROBLEM_SCAN && !achieved)
        fprintf(out, " (%s) operations per %s: certified optimum of the scan edge LP\n"
                     "note: a relaxation (docs/model.md, \"Parallel prefix\"): every scan schedule\n"
                     "      fits it, so this bounds the scan TP from above; the achievable TP is\n"
                     "      computed by --method auto or colgen\n", dec, unit_of(p));
    else if (s->multicast && !achieved)
        fprintf(out, " (%s) operations per %s: certified optimum of the broadcast LP\n"
                     "note: the targets are not every other node (a multicast), so this LP value\n"
                     "      is an upper bound only; the achievable TP is not computed yet by\n"
                     "      --method lp (--method colgen computes it)\n", dec, unit_of(p));
    else if (!achieved)
        fprintf(out, " (%s) operations per %s, certified optimal%s\n", dec, unit_of(p),
                pb->kind == SSCHED_PROBLEM_BROADCAST
                    ? "\n(broadcast to every other node: the copies decompose into weighted "
                      "spanning arborescences, Edmonds)" : "");
    free(dec);
    for (size_t t = 0; t < s->n_commodities; t++)
        if (s->unreachable[t])
            fprintf(out, "note: target %s is unreachable from %s, so TP = 0\n",
                    p->names[s->commodities[t].dest], p->names[s->commodities[t].origin]);
    if (pb->kind == SSCHED_PROBLEM_SCAN) {
        int any = 0;
        for (size_t k = 0; k < pb->n_participants; k++)
            if (s->unreachable[k]) {
                fprintf(out, "note: a later participant cannot be reached from participant %s, "
                             "so TP = 0\n", p->names[pb->participants[k]]);
                any = 1;
            }
        if (!any && mpq_sgn(s->throughput) == 0)
            fputs("note: the prefixes cannot be formed (the values never meet on a node with w "
                  "to be merged), so TP = 0\n", out);
    }
    if (pb->kind == SSCHED_PROBLEM_REDUCE || allreduce) {
        int any = 0;
        for (size_t k = 0; k < pb->n_participants; k++)
            if (s->unreachable[k]) {
                fprintf(out, allreduce ? "note: the root %s and participant %s are not connected "
                                         "both ways, so TP = 0\n"
                                       : "note: the target %s cannot be reached from participant "
                                         "%s, so TP = 0\n",
                        p->names[allreduce ? s->allreduce_root : pb->target],
                        p->names[pb->participants[k]]);
                any = 1;
            }
        if (!any && mpq_sgn(s->throughput) == 0) {
            fputs("note: no reduction tree exists (the values can never meet on a node with w "
                  "to be merged), so TP = 0\n", out);
            size_t computing = 0;
            for (size_t i = 0; i < p->n_nodes; i++)
                computing += p->has_w[i] != 0;
            if (computing == 0) /* a platform without speeds: one option away */
                fputs("note: no node of this platform computes (no w): give every node a speed "
                      "with --speed S [--flops-per-task F], or read speeds with --speed-from "
                      "ATTR\n", out);
        }
    }

    fputs("saturated resources (busy = 1; price > 0 marks those that bound TP, "
          "and TP = sum of prices):\n", out);
    int any = 0;
    static const char *what[] = {"out-port", "in-port", "compute"};
    for (size_t i = 0; i < p->n_nodes; i++)
        for (int dir = 0; dir < 3; dir++) {
            mpq_srcptr busy, price;
            if (!ssched_i_saturated(s, i, dir, &busy, &price))
                continue;
            fprintf(out, "  %-8s %-12s busy ", what[dir], p->names[i]);
            print_q(out, busy);
            fputs("  price ", out);
            print_qd(out, price);
            fputc('\n', out);
            any = 1;
        }
    /* routed: the link resources (per edge, link_busy is the edge's load) */
    for (size_t l = 0; p->routes && s->route_link_busy && l < s->n_links; l++) {
        if (mpq_cmp_ui(s->route_link_busy[l], 1, 1) != 0 && mpq_sgn(s->route_link_price[l]) == 0)
            continue;
        fprintf(out, "  %-8s %s (%s)  busy ", "link", p->routes->link_names[l],
                p->routes->sharing[l] == SSCHED_LINK_FATPIPE ? "fatpipe: largest flow" : "shared");
        print_q(out, s->route_link_busy[l]);
        fputs("  price ", out);
        print_qd(out, s->route_link_price[l]);
        fputc('\n', out);
        any = 1;
    }
    for (size_t e = 0; !p->routes && s->link_busy && s->link_price && e < s->n_edges &&
                       e < p->n_edges; e++) {
        if (mpq_cmp_ui(s->link_busy[e], 1, 1) != 0 && mpq_sgn(s->link_price[e]) == 0)
            continue;
        fprintf(out, "  %-8s %s -> %s  busy ", "link", p->names[p->from[e]], p->names[p->to[e]]);
        print_q(out, s->link_busy[e]);
        fputs("  price ", out);
        print_qd(out, s->link_price[e]);
        fputc('\n', out);
        any = 1;
    }
    if (!any)
        fputs("  (none)\n", out);
    fprintf(out, "rates (%s per %s):\n",
            pb->kind == SSCHED_PROBLEM_BROADCAST ? "copies of the message" : "messages", unit_of(p));
    for (size_t k = 0; k < s->n_flows; k++) {
        const ssched_flow_t *f = &s->flows[k];
        fprintf(out, "  %s -> %s  ", p->names[p->from[f->edge]], p->names[p->to[f->edge]]);
        if (allreduce && f->type == ssched_allreduce_copy_type(s))
            fputs("copy  ", out); /* the broadcast of the result */
        else if (comm || (allreduce && pb->commutative))
            ; /* messages: partial results of any set */
        else if (pb->kind == SSCHED_PROBLEM_REDUCE || allreduce || pb->kind == SSCHED_PROBLEM_SCAN)
            fprintf(out, "v[%zu,%zu]  ", s->intervals[f->type].k, s->intervals[f->type].m);
        else if (pb->kind == SSCHED_PROBLEM_BROADCAST)
            ; /* one message: its copies */
        else
            fprintf(out, "[%s->%s]  ", p->names[s->commodities[f->type].origin],
                    p->names[s->commodities[f->type].dest]);
        print_qd(out, f->rate);
        fputc('\n', out);
    }
    if (comm || (allreduce && pb->commutative)) {
        /* a merge's operands are sets of participants, per tree */
        fprintf(out, "merges (per %s):\n", unit_of(p));
        mpq_t q;
        mpq_init(q);
        for (size_t i = 0; i < p->n_nodes; i++)
            if (p->has_w[i] && mpq_sgn(s->compute_busy[i])) {
                mpq_div(q, s->compute_busy[i], p->w[i]);
                fprintf(out, "  %s  ", p->names[i]);
                print_qd(out, q);
                fputc('\n', out);
            }
        mpq_clear(q);
        fprintf(out, "reduction trees: %zu, rates", s->n_rated_trees);
        for (size_t k = 0; k < s->n_rated_trees; k++) {
            fputc(' ', out);
            print_qd(out, s->tree_rates[k]);
        }
        fputc('\n', out);
    } else if (pb->kind == SSCHED_PROBLEM_REDUCE || allreduce || pb->kind == SSCHED_PROBLEM_SCAN) {
        fprintf(out, "tasks (per %s):\n", unit_of(p));
        for (size_t k = 0; k < s->n_tasks; k++) {
            const ssched_task_t *t = &s->tasks[k];
            fprintf(out, "  %s computes T[%zu,%zu,%zu]  ", p->names[t->node], t->k, t->l, t->m);
            print_qd(out, t->rate);
            fputc('\n', out);
        }
    }
    if (s->n_arborescences) {
        fprintf(out, "arborescences (rate per %s: arcs):\n", unit_of(p));
        for (size_t k = 0; k < s->n_arborescences; k++) {
            const ssched_arborescence_t *a = &s->arborescences[k];
            fputs("  ", out);
            print_qd(out, a->weight);
            fputc(':', out);
            for (size_t j = 0; j < a->n_arcs; j++)
                fprintf(out, " %s->%s", p->names[p->from[a->arcs[j]]], p->names[p->to[a->arcs[j]]]);
            fputc('\n', out);
        }
    }
    if (s->method == SSCHED_METHOD_COLGEN)
        fprintf(out, "solver: column generation, %ld iterations, %ld columns, %ld exact pricing "
                     "passes; master %zu rows; float %.3f s, exact %.3f s, pricing %.3f s\n",
                s->cg_iterations, s->cg_columns, s->cg_exact_passes, s->lp_rows, s->lp.float_seconds,
                s->lp.exact_seconds, s->cg_pricing_seconds);
    else
        fprintf(out, "solver: edge LP, %zu rows, %zu columns; float %.3f s, exact %.3f s, "
                     "%ld repair pivots\n",
                s->lp_rows, s->lp_cols, s->lp.float_seconds, s->lp.exact_seconds, s->lp.repair_pivots);
    return ssched_i_write_status(out, err);
}
