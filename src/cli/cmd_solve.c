/* ssched solve: certified optimal steady-state throughput. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "ssched/export.h"
#include "ssched/steady.h"

static const char *synopsis =
    "usage: ssched solve PLATFORM --problem scatter --source S --targets A,B,... [--json]\n"
    "       ssched solve PLATFORM --problem gossip --sources A,B,.. --targets C,D,.. [--json]\n"
    "       ssched solve PLATFORM --problem reduce --participants P0,P1,.. --target T [--json]\n"
    "         [--commutative] (a set operator, e.g. MPI_SUM: column generation over\n"
    "         reduction in-trees; an upper bound and the gap unless proven optimal)\n"
    "       ssched solve PLATFORM --problem broadcast --source S [--targets A,B,..] [--json]\n"
    "       ssched solve PLATFORM --problem allreduce --participants P0,P1,.. [--root R] [--json]\n"
    "         (reduce to R then broadcast from R, one steady state; without --root: the\n"
    "         best root over every node that is not a switch)\n"
    "         (default targets: every other node that is not a switch; to a strict subset\n"
    "         of the other nodes the LP value is only an upper bound, printed as such;\n"
    "         --method colgen adds an achievable TP packing Steiner arborescences)\n"
    "       ssched solve PLATFORM --problem scan --participants P0,P1,.. [--exclusive] [--json]\n"
    "         (parallel prefix: Pi gets v[0,i], or v[0,i-1] with --exclusive: an achievable\n"
    "         TP packing prefix structures, the certified upper bound of the scan edge LP\n"
    "         (docs/model.md \"Parallel prefix\") and the gap; --method lp: the bound only)\n";

static const cli_opt_t solve_table[] = {
    {{"json", no_argument, NULL, 'j'}, NULL, "the result as JSON (README: solve --json)"},
    {{"output", required_argument, NULL, 'o'}, "FILE", "write the result to FILE (- : stdout)"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const solve_tables[] = {cli_problem_table, solve_table, NULL};
static const char *const solve_titles[] = {"problem and platform options:", "options:", NULL};

/* --json */
static int solve_option(void *json, int c, const char *arg)
{
    (void)arg;
    if (c != 'j')
        return -1;
    *(int *)json = 1;
    return CLI_EXIT_OK;
}

int cli_cmd_solve(int argc, char **argv)
{
    cli_problem_opts_t po = {0};
    int json = 0, help;
    const char *output = NULL;
    int rc0 = cli_command_options("solve", argc, argv, synopsis, solve_tables, solve_titles, &po,
                                  &output, &help, solve_option, &json);
    if (rc0 != CLI_EXIT_OK || help)
        return rc0;

    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    int rc = cli_problem_load("solve", &po, &p, &pb);
    if (rc == CLI_EXIT_OK) {
        ssched_steady_options_t opt;
        rc = cli_steady_options("solve", &po, &opt);
        ssched_steady_t s;
        ssched_steady_init(&s);
        ssched_error_t err;
        ssched_error_clear(&err);
        if (rc != CLI_EXIT_OK) {
            /* bad --method: already reported */
        } else if (ssched_steady_solve_opts(&p, &pb, &opt, &s, &err) != SSCHED_OK) {
            rc = cli_report("solve", &err);
        } else {
            /* -o FILE (- : stdout) takes the text or the JSON */
            cli_out_t out;
            rc = cli_out_open(&out, "solve", "-o", output);
            if (rc == CLI_EXIT_OK) {
                ssched_error_t werr;
                ssched_error_clear(&werr);
                ssched_status_t ws = json ? ssched_write_steady_json(out.f, &p, &pb, &s, &werr)
                                          : ssched_write_steady_text(out.f, po.platform_path, &p,
                                                                     &pb, &s, &werr);
                rc = cli_out_finish(&out, "solve", ws, &werr);
            }
        }
        ssched_steady_free(&s);
    }
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return rc;
}
