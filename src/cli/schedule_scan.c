/* ssched schedule --problem scan (issue 27 item 4): one period
 * (schedule/build_scan.c) or, with --unroll, the unrolled scan of K
 * operations (schedule/unroll_scan.c), from the certified packing of prefix
 * structures, passed through the independent checker, then written to -o
 * and summed up against its bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/schedule_scan.h"
#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"

static void put_q(FILE *out, const char *label, const mpq_t q, const char *tail)
{
    char *t = ssched_rational_to_string(q);
    fprintf(out, "%s%s (%.9g)%s", label, t ? t : "?", mpq_get_d(q), tail);
    free(t);
}

static void summary(FILE *out, const ssched_steady_t *st, const ssched_unrolled_t *u)
{
    const ssched_unroll_figures_t *f = &u->fig;
    fprintf(out, "unrolled scan for %zu operations: %zu transfers, %zu computations, %zu prefix "
                 "structures by rate\n", f->operations, f->transfers, f->computations,
            st->n_scan_structures);
    put_q(out, "time for K operations: ", f->makespan, "\n");
    put_q(out, "achievable TP (certified packing) = ", st->throughput, ", ");
    put_q(out, "upper bound UB = ", st->upper_bound, "\n");
    put_q(out, "K/TP = ", f->steady_time, ", ");
    put_q(out, "LB1 = ", f->lb1, "\n");
    mpq_t kub;
    mpq_init(kub);
    mpq_set_ui(kub, f->operations, 1);
    mpq_div(kub, kub, st->upper_bound);
    put_q(out, "every scan schedule needs at least max(K/UB, LB1): K/UB = ", kub, "\n");
    if (mpq_cmp(kub, f->lb1) < 0)
        mpq_set(kub, f->lb1);
    mpq_div(kub, f->makespan, kub);
    put_q(out, "makespan / LB(K) = ", f->ratio, ", ");
    put_q(out, "makespan / max(K/UB, LB1) = ", kub, "\n");
    mpq_clear(kub);
}

int cli_schedule_scan(const char *output, size_t K, int quiet, const ssched_platform_t *p,
                      const ssched_problem_t *pb, const ssched_steady_t *st)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_t s;
    ssched_unrolled_t u;
    ssched_schedule_init(&s);
    ssched_unrolled_init(&u);
    int rc = CLI_EXIT_OK;
    if (ssched_scan_unroll(p, pb, st, K, &s, &u, &err) != SSCHED_OK ||
        ssched_unrolled_self_check(p, pb, &s, &u, NULL, &err) != SSCHED_OK) {
        rc = cli_report("schedule", &err);
    } else {
        cli_out_t o;
        if ((rc = cli_out_open(&o, "schedule", "-o", output)) == CLI_EXIT_OK)
            rc = cli_out_finish(&o, "schedule", ssched_write_unrolled_json(o.f, p, pb, &s, &u, &err),
                                &err);
        if (rc == CLI_EXIT_OK && !(quiet && output[0] == '-' && !output[1])) {
            FILE *out = output[0] == '-' && !output[1] ? stderr : stdout;
            summary(out, st, &u);
            fprintf(out, "checked: valid (ssched check %s)\n", output);
        }
    }
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    return rc;
}

int cli_schedule_scan_periodic(const char *output, int json, int no_split,
                               ssched_matching_rule_t rule, mpq_srcptr fixed_period,
                               const ssched_platform_t *p,
                               const ssched_problem_t *pb, const ssched_steady_t *st)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    so.no_split = no_split;
    so.rule = rule;
    so.fixed_period = fixed_period;
    int rc = CLI_EXIT_OK;
    if (ssched_schedule_build(p, pb, st, &so, &s, &err) != SSCHED_OK ||
        ssched_schedule_self_check(p, pb, &s, NULL, &err) != SSCHED_OK) {
        ssched_schedule_free(&s);
        return cli_report("schedule", &err);
    }
    int to_stdout = (output && !strcmp(output, "-")) || (json && !output);
    cli_out_t o;
    if ((output || json) && (rc = cli_out_open(&o, "schedule", "-o", output ? output : "-")) ==
                                CLI_EXIT_OK)
        rc = cli_out_finish(&o, "schedule", ssched_write_schedule_json(o.f, p, pb, &s, &err), &err);
    if (rc == CLI_EXIT_OK) {
        FILE *out = to_stdout ? stderr : stdout;
        size_t nt = 0;
        for (size_t k = 0; k < s.n_slots; k++)
            nt += s.slots[k].n_transfers;
        fprintf(out, "periodic scan schedule (%s): %zu prefix structures by rate, %zu slots, "
                     "%zu transfers, %zu computations per period%s\n",
                pb->exclusive ? "exclusive" : "inclusive", s.n_scan_structures, s.n_slots, nt,
                s.n_computations, s.split ? "" : " (no split)");
        put_q(out, "period = ", s.period, ", ");
        gmp_fprintf(out, "operations per period = %Zd\n", s.ops_per_period);
        if (s.fixed) {
            put_q(out, "throughput in the fixed period = ", s.throughput, "\n");
            put_q(out, "  achievable TP (certified packing) = ", s.optimal_throughput, ", ");
            put_q(out, "floors only = ", s.floor_throughput, ", ");
            gmp_fprintf(out, "extra instances = %Zd\n", s.extra_instances);
        } else {
            put_q(out, "throughput = achievable TP (certified packing) = ", s.throughput, "\n");
        }
        put_q(out, "upper bound UB = ", s.upper_bound, s.optimal ? " (optimal)\n" : "\n");
        if (output && !to_stdout)
            fprintf(out, "checked: valid (ssched check %s)\n", output);
        else
            fprintf(out, "checked: valid\n");
    }
    ssched_schedule_free(&s);
    return rc;
}
