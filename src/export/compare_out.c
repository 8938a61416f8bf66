/* The comparison of one-shot and pipelined collectives as text or
 * "ssched-compare/1" JSON (ssched/export.h): what `ssched compare` prints. */
#include <jansson.h>
#include <stdlib.h>

#include "src/export/export_internal.h"
#include "src/export/json_util.h"
#include "ssched/rational.h"

static const char *algorithm_name(const ssched_compare_options_t *o)
{
    return o->optimal                  ? "optimal"
           : o->op == SSCHED_MK_SCAN   ? "chain"
           : o->op == SSCHED_MK_REDUCE ? "snf"
                                       : "fnf";
}

static ssched_status_t write_scan_text(FILE *out, const ssched_mk_cluster_t *c,
                                       const ssched_compare_options_t *o,
                                       const ssched_compare_t *r, ssched_error_t *err);

ssched_status_t ssched_write_compare_json(FILE *out, const ssched_compare_options_t *o,
                                          const ssched_compare_t *r, ssched_error_t *err)
{
    json_t *root = json_object(), *rows = json_array();
    json_object_set_new(root, "format", json_string("ssched-compare/1"));
    json_object_set_new(root, "operation", json_string(ssched_mk_op_name(o->op)));
    if (o->op == SSCHED_MK_SCAN) {
        /* rows' "pipelined" = M / upper_bound: a lower bound on the time */
        json_object_set_new(root, "exclusive", json_boolean(o->exclusive));
        json_object_set_new(root, "pipelined", json_string("lower_bound"));
        json_object_set_new(root, "upper_bound", ssched_i_json_mpq(r->upper_bound));
        json_object_set_new(root, "achievable_throughput",
                            r->achievable_known ? ssched_i_json_mpq(r->throughput) : json_null());
        json_object_set_new(root, "pipelining_can_win", json_boolean(r->pipelining_can_win));
    }
    json_object_set_new(root, "algorithm", json_string(algorithm_name(o)));
    json_object_set_new(root, "makespan", ssched_i_json_mpq(r->one_shot));
    json_object_set_new(root, "throughput", ssched_i_json_mpq(r->throughput));
    for (size_t k = 0; k < r->n_rows; k++)
        json_array_append_new(rows, json_pack("{sIsoso}", "M", (json_int_t)r->M[k],
                                               "one_at_a_time", ssched_i_json_mpq(r->sequential[k]),
                                               "pipelined", ssched_i_json_mpq(r->pipelined[k])));
    json_object_set_new(root, "rows", rows);
    json_object_set_new(root, "crossover", r->crossover_found
                                               ? json_integer((json_int_t)r->crossover)
                                               : json_null());
    return ssched_i_write_json(out, root, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err);
}

/* "p/q (decimal)" padded to width. */
static void print_q(FILE *out, const mpq_t q, int width)
{
    char *a = ssched_rational_to_string(q);
    char *b = ssched_rational_to_decimal(q, 8, SSCHED_DECIMAL_SIGNIFICANT);
    char buf[256];
    snprintf(buf, sizeof buf, "%s (%s)", a, b);
    fprintf(out, "%-*s", width, buf);
    free(a);
    free(b);
}

ssched_status_t ssched_write_compare_text(FILE *out, const ssched_mk_cluster_t *c,
                                          const ssched_compare_options_t *o,
                                          const ssched_compare_t *r, ssched_error_t *err)
{
    if (o->op == SSCHED_MK_SCAN)
        return write_scan_text(out, c, o, r, err);
    int reduce = o->op == SSCHED_MK_REDUCE;
    const char *what = reduce ? "reduce" : "broadcast";
    fprintf(out, "cluster of %zu processors, %s %s processor %zu\n", c->n, what,
            reduce ? "to" : "from", o->root);
    fprintf(out, "one %s (%s): makespan ", what, o->optimal ? "optimal" : reduce ? "SNF" : "FNF");
    print_q(out, r->one_shot, 0);
    fprintf(out, "\npipelined: TP = ");
    print_q(out, r->throughput, 0);
    fprintf(out, " per time unit (certified; %s)\n",
            reduce ? "full-duplex one-port, participants in index order, free merges"
                   : "full-duplex one-port, optimal pipelined broadcast down arborescences");
    fprintf(out, "\n%8s  %-34s %-34s %s\n", "M", "one at a time", "pipelined (unrolled, checked)",
            "faster");
    for (size_t k = 0; k < r->n_rows; k++) {
        fprintf(out, "%8lu  ", r->M[k]);
        print_q(out, r->sequential[k], 35);
        print_q(out, r->pipelined[k], 35);
        int c2 = mpq_cmp(r->pipelined[k], r->sequential[k]);
        fputs(c2 < 0 ? "pipelined\n" : c2 > 0 ? "one at a time\n" : "tie\n", out);
    }
    if (!r->pipelining_can_win)
        fprintf(out, "\npipelining never wins: 1/TP >= the one-shot makespan\n");
    else if (r->crossover_found)
        fprintf(out, "\ncrossover: pipelining is faster from M = %zu on\n", r->crossover);
    else
        fprintf(out, "\nno crossover up to M = %zu (--max-crossover)\n", o->crossover_limit);
    return ssched_i_write_status(out, err);
}

/* compare --operation scan (compare.h): the pipelined column is K / UB, a
 * lower bound; an achievable TP, once the steady state has one, beside it. */
static ssched_status_t write_scan_text(FILE *out, const ssched_mk_cluster_t *c,
                                       const ssched_compare_options_t *o,
                                       const ssched_compare_t *r, ssched_error_t *err)
{
    fprintf(out, "cluster of %zu processors, %s scan in processor order (v[0,j%s] at j)\n", c->n,
            o->exclusive ? "exclusive" : "inclusive", o->exclusive ? "-1" : "");
    fprintf(out, "one scan (%s): makespan ", o->optimal ? "optimal, exhaustive search" : "chain");
    print_q(out, r->one_shot, 0);
    fprintf(out, "\npipelined: UB = ");
    print_q(out, r->upper_bound, 0);
    fprintf(out, " scans per time unit (certified upper bound on the TP; full-duplex "
                 "one-port, free merges)\n");
    if (r->achievable_known) {
        fprintf(out, "pipelined: achievable TP = ");
        print_q(out, r->throughput, 0);
        fprintf(out, " (certified packing; steady state only, no schedule yet)\n");
    } else {
        fprintf(out, "pipelined: achievable TP not known yet (no scan packing or schedule)\n");
    }
    fprintf(out, "\n%8s  %-34s %-34s %s\n", "M", "one at a time", "pipelined >= M/UB",
            "one at a time vs bound");
    for (size_t k = 0; k < r->n_rows; k++) {
        fprintf(out, "%8lu  ", r->M[k]);
        print_q(out, r->sequential[k], 35);
        print_q(out, r->pipelined[k], 35);
        int c2 = mpq_cmp(r->pipelined[k], r->sequential[k]);
        fputs(c2 < 0 ? "pipelining may win\n" : "one at a time (proved)\n", out);
    }
    fprintf(out, "\nK/UB is a lower bound on the time of K pipelined scans, not a measured "
                 "time: no crossover is claimed\n");
    if (!r->pipelining_can_win)
        fprintf(out, "pipelining never wins: 1/UB >= the one-shot makespan\n");
    return ssched_i_write_status(out, err);
}
