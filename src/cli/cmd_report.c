/* ssched report: the whole pipeline as one self-contained HTML page
 * (ssched/report.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "ssched/report.h"

static const char *synopsis =
    "usage: ssched report PLATFORM <problem options> [--operations K] -o report.html\n"
    "  One HTML file, with no external resource, holding: the problem and the certified TP\n"
    "  with its certificate; the platform with link loads and bottlenecks (positive dual\n"
    "  prices); the trees, flows or arborescences; one period's Gantt chart; K unrolled\n"
    "  operations (start-up and clean-up shaded); makespan against K/TP and LB(K); and\n"
    "  both schedule files to download.  Every schedule shown passed `ssched check`.\n"
    ;

static const cli_opt_t report_table[] = {
    {{"operations", required_argument, NULL, 'K'}, "K",
     "operations unrolled in the page (1..10000, default 100)"},
    {{"output", required_argument, NULL, 'o'}, "FILE", "the HTML page (- for standard output)"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const report_tables[] = {cli_problem_table, report_table, NULL};
static const char *const report_titles[] = {"problem and platform options:", "options:", NULL};

/* A line as each stage of a report starts, once the report has run a
 * second (from the start with --verbose; none with --quiet). */
static void report_stage(void *ctx, const char *what)
{
    cli_progress_t *p = ctx;
    double t = cli_now() - p->start;
    if (p->level >= 2 || (p->level == 1 && t >= 1.0))
        fprintf(stderr, "ssched report: %.1f s, %s\n", t, what);
}

/* --operations K (once) */
typedef struct {
    const char *ops;
    int seen;
} report_own_t;

static int report_option(void *ctx, int c, const char *arg)
{
    report_own_t *x = ctx;
    if (c != 'K')
        return -1;
    if (!cli_once("report", "--operations", &x->seen))
        return CLI_EXIT_BADINPUT;
    x->ops = arg;
    return CLI_EXIT_OK;
}

int cli_cmd_report(int argc, char **argv)
{
    cli_problem_opts_t po = {0};
    const char *output = NULL;
    report_own_t own = {NULL, 0};
    int help;
    int rc0 = cli_command_options("report", argc, argv, synopsis, report_tables, report_titles,
                                  &po, &output, &help, report_option, &own);
    if (rc0 != CLI_EXIT_OK || help)
        return rc0;
    const char *ops = own.ops;
    if (!output)
        return cli_bad_input("report", "missing -o FILE (the HTML page; - for standard output)");
    ssched_report_options_t opt;
    ssched_report_options_default(&opt);
    long K = 100;
    if (ops && !cli_parse_long("report", "--operations", ops, 1,
                               (long)SSCHED_REPORT_MAX_OPERATIONS, &K))
        return CLI_EXIT_BADINPUT;
    opt.operations = (unsigned long)K;

    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    int rc = cli_problem_load("report", &po, &p, &pb);
    if (rc == CLI_EXIT_OK)
        rc = cli_steady_options("report", &po, &opt.steady);
    if (rc == CLI_EXIT_OK) {
        const char *slash = strrchr(po.platform_path, '/');
        opt.title = slash ? slash + 1 : po.platform_path;
        cli_progress_t prog;
        cli_progress_init(&prog, po.quiet ? 0 : po.verbose ? 2 : 1);
        opt.stage = report_stage;
        opt.stage_ctx = &prog;
        /* no half-written page: a temporary file, renamed when complete */
        cli_out_t out;
        ssched_error_t err;
        ssched_error_clear(&err);
        rc = cli_out_open(&out, "report", "-o", output);
        if (rc == CLI_EXIT_OK) {
            ssched_status_t ws = ssched_write_report(out.f, &p, &pb, &opt, &err);
            rc = cli_out_finish(&out, "report", ws, &err);
        }
    }
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return rc;
}
