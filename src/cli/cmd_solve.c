/* ssched solve: certified optimal steady-state throughput. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "ssched/export.h"
#include "ssched/steady.h"

static const char *usage_text =
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
    "options: --size Z (message size, default 1)  -o FILE (- : stdout)\n"
    "         --verbose (progress from the start, lp_solve log)\n"
    "         --method lp|colgen|auto (edge LP, or column generation over trees/paths/\n"
    "         arborescences, both certified exactly; auto = colgen, the faster on\n"
    "         every class measured)  --quiet (no progress lines)\n"
    "         --routers one-port|switch (switch: every node without w not named in the\n"
    "         problem forwards on all its links at once; default: the file's ports)\n";

int cli_cmd_solve(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_PROBLEM_LONGOPTS,
        {"json", no_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cli_problem_opts_t po = {0};
    int json = 0, c, seen_output = 0;
    const char *output = NULL;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        if (cli_problem_option(&po, c, optarg))
            continue;
        switch (c) {
        case 'j': json = 1; break;
        case 'o':
            if (!cli_once("solve", "-o/--output", &seen_output))
                return CLI_EXIT_BADINPUT;
            output = optarg;
            break;
        case 'h': fputs(usage_text, stdout); return CLI_EXIT_OK;
        default:
            return cli_bad_input("solve", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        po.platform_path = argv[optind++];
    if (optind < argc)
        return cli_bad_input("solve", "unexpected argument '%s'", argv[optind]);

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
