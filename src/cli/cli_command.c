/* The option loop of the commands on one platform with problem options
 * (solve, lp, report): one place for -o once, --help, unknown options and
 * the PLATFORM argument (cli_command_options, problem_opts.h). */
#include <getopt.h>
#include <stdio.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"

int cli_command_options(const char *cmd, int argc, char **argv, const char *synopsis,
                        const cli_opt_t *const *tables, const char *const *titles,
                        cli_problem_opts_t *po, const char **output, int *help,
                        int (*own)(void *ctx, int c, const char *arg), void *ctx)
{
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(tables, longopts);
    int c, seen_output = 0, rc;
    *help = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        if (cli_problem_option(po, c, optarg))
            continue;
        switch (c) {
        case 'o':
            /* a single-value option given twice is an error, not last-wins */
            if (!cli_once(cmd, "-o/--output", &seen_output))
                return CLI_EXIT_BADINPUT;
            *output = optarg;
            break;
        case 'h':
            cli_print_help(stdout, synopsis, tables, titles);
            *help = 1;
            return CLI_EXIT_OK;
        default: /* the command's own: taken (0), bad (2, reported) or unknown (-1) */
            rc = own ? own(ctx, c, optarg) : -1;
            if (rc < 0)
                return cli_bad_input(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
            if (rc != CLI_EXIT_OK)
                return rc;
        }
    }
    if (optind < argc)
        po->platform_path = argv[optind++];
    if (optind < argc)
        return cli_bad_input(cmd, "unexpected argument '%s'", argv[optind]);
    return CLI_EXIT_OK;
}
