/* ssched schedule, the periodic path and the pictures (src/cli/cmd_schedule.c
 * parses the options and plans): one period checked then written as JSON
 * or a table; --gantt, --dot, --trees-dot of the period or of the K
 * unrolled operations (src/cli/schedule_unrolled.c writes those). */
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/schedule.h"
#include "ssched/export.h"
#include "ssched/schedule.h"

/* Write the schedule's JSON to the file at path. */
static int write_json_file(const char *path, const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_schedule_t *s)
{
    cli_out_t out;
    int rc = cli_out_open(&out, "schedule", "-o", path);
    if (rc != CLI_EXIT_OK)
        return rc;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_write_schedule_json(out.f, p, pb, s, &err);
    return cli_out_finish(&out, "schedule", st, &err);
}

static int write_pictures(const sched_opts_t *o, const ssched_platform_t *p,
                          const ssched_problem_t *pb, const ssched_schedule_t *s);

int cli_schedule_emit(const sched_opts_t *o, const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_steady_t *st, const ssched_schedule_t *s)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (o->unroll) {
        int rc = cli_schedule_emit_unrolled(o, p, pb, s);
        return rc == CLI_EXIT_OK && !o->eval ? write_pictures(o, p, pb, s) : rc;
    }
    if (ssched_schedule_self_check(p, pb, s, NULL, &err) != SSCHED_OK)
        return cli_report("schedule", &err);
    int rc = CLI_EXIT_OK;
    int to_stdout = o->output && !strcmp(o->output, "-"); /* JSON only on stdout */
    if (o->output && !to_stdout)
        rc = write_json_file(o->output, p, pb, s);
    if (rc == CLI_EXIT_OK && ((o->json && !o->output) || to_stdout)) {
        cli_out_t out;
        cli_out_open(&out, "schedule", "-o", "-");
        rc = cli_out_finish(&out, "schedule", ssched_write_schedule_json(stdout, p, pb, s, &err),
                            &err);
    } else if (rc == CLI_EXIT_OK && !o->json) {
        cli_out_t out;
        cli_out_open(&out, "schedule", "-o", "-");
        rc = cli_out_finish(&out, "schedule",
                            ssched_write_schedule_summary(stdout, p, pb, st, s, &err), &err);
    }
    return rc == CLI_EXIT_OK ? write_pictures(o, p, pb, s) : rc;
}

/* The Gantt chart of the K unrolled operations (kept in memory: --unroll
 * --gantt is limited to GANTT_MAX_OPERATIONS up front). */
static ssched_status_t unrolled_gantt(const sched_opts_t *o, const ssched_platform_t *p,
                                      const ssched_problem_t *pb, const ssched_schedule_t *s,
                                      FILE *f, ssched_error_t *err)
{
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    ssched_status_t st = ssched_unroll(p, pb, s, (unsigned long)o->operations, &u, err);
    if (st == SSCHED_OK)
        st = ssched_write_unrolled_gantt(f, p, s, &u, err);
    ssched_unrolled_free(&u);
    return st;
}

/* --gantt, --trees-dot and --dot: of the period, or with --unroll the Gantt
 * chart of the K operations and the trees and DOT of the pattern they
 * replay. */
static int write_pictures(const sched_opts_t *o, const ssched_platform_t *p,
                          const ssched_problem_t *pb, const ssched_schedule_t *s)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    int rc = CLI_EXIT_OK;
    cli_out_t out; /* each written whole or not at all */
    if (rc == CLI_EXIT_OK && o->gantt) {
        if ((rc = cli_out_open(&out, "schedule", "--gantt", o->gantt)) != CLI_EXIT_OK)
            return rc;
        ssched_status_t ws = o->unroll ? unrolled_gantt(o, p, pb, s, out.f, &err)
                                       : ssched_write_schedule_gantt(out.f, p, s, &err);
        if ((rc = cli_out_finish(&out, "schedule", ws, &err)) != CLI_EXIT_OK)
            return rc;
    }
    if (rc == CLI_EXIT_OK && o->trees_dot) {
        if (s->kind != SSCHED_PROBLEM_REDUCE)
            return cli_bad_input("schedule", "--trees-dot applies to reduce problems");
        if ((rc = cli_out_open(&out, "schedule", "--trees-dot", o->trees_dot)) != CLI_EXIT_OK)
            return rc;
        ssched_status_t ws = ssched_write_trees_dot(out.f, p, pb, &s->trees, &err);
        if ((rc = cli_out_finish(&out, "schedule", ws, &err)) != CLI_EXIT_OK)
            return rc;
    }
    if (rc == CLI_EXIT_OK && o->dot) {
        if ((rc = cli_out_open(&out, "schedule", "--dot", o->dot)) != CLI_EXIT_OK)
            return rc;
        ssched_status_t ws = ssched_write_schedule_dot(out.f, p, s, &err);
        rc = cli_out_finish(&out, "schedule", ws, &err);
    }
    return rc;
}
