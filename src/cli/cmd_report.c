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

int cli_cmd_report(int argc, char **argv)
{
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(report_tables, longopts);
    cli_problem_opts_t po = {0};
    const char *output = NULL, *ops = NULL;
    int c, seen_ops = 0, seen_output = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        if (cli_problem_option(&po, c, optarg))
            continue;
        switch (c) {
        case 'K':
            if (!cli_once("report", "--operations", &seen_ops))
                return CLI_EXIT_BADINPUT;
            ops = optarg;
            break;
        case 'o':
            if (!cli_once("report", "-o/--output", &seen_output))
                return CLI_EXIT_BADINPUT;
            output = optarg;
            break;
        case 'h': cli_print_help(stdout, synopsis, report_tables, report_titles); return CLI_EXIT_OK;
        default:
            return cli_bad_input("report", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        po.platform_path = argv[optind++];
    if (optind < argc)
        return cli_bad_input("report", "unexpected argument '%s'", argv[optind]);
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
