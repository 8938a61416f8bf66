/* ssched command-line entry point: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "ssched/error.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command_t;

static const command_t commands[] = {
    {"solve", cli_cmd_solve, "certified optimal steady-state throughput of a series of collectives"},
    {"schedule", cli_cmd_schedule, "periodic one-port schedule at the certified throughput"},
    {"check", cli_cmd_check, "independent checker for schedule files"},
    {"compare", cli_cmd_compare, "M collectives one at a time vs pipelined: table and crossover"},
    {"lp", cli_cmd_lp, "export the steady-state LP (.lp or .mps) for cross-checking"},
    {"gen", cli_cmd_gen, "generate platforms (gen tiers: WAN/MAN/LAN hierarchy)"},
    {"export", cli_cmd_export, "export simgrid: the platform for SimGrid/SMPI, with a hostfile"},
    {"scatter-balance", cli_cmd_scatter_balance, "load-balanced scatter: optimal distribution of n items (seed 004)"},
    {"redistribute", cli_cmd_redistribute, "schedule a block-cyclic redistribution cyclic(x) -> cyclic(Kx)"},
    {"makespan", cli_cmd_makespan, "one-shot reduce/broadcast/allreduce schedules (SNF, FNF, optimal)"},
    {"report", cli_cmd_report, "one self-contained HTML page: TP, platform, trees, Gantt charts"},
    {"plan", cli_cmd_plan, "one large MPI collective as segments: the plan for libssched_pmpi"},
    {NULL, NULL, NULL}};

static void usage(FILE *out)
{
    fprintf(out, "usage: ssched COMMAND [options]   (ssched COMMAND --help for details)\n\ncommands:\n");
    for (const command_t *c = commands; c->name; c++)
        fprintf(out, "  %-16s %s\n", c->name, c->summary);
}

int main(int argc, char **argv)
{
    /* A GMP allocation failure ends with one line and exit 1, not SIGABRT
     * (ssched's own allocation failures already report SSCHED_ENOMEM). */
    ssched_gmp_exit_on_oom("ssched");
    if (argc < 2) {
        fputs("ssched: missing command (try ssched --help)\n", stderr);
        return CLI_EXIT_BADINPUT;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return cli_close_stdout("", CLI_EXIT_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ssched 0.1.0\n");
        return cli_close_stdout("", CLI_EXIT_OK);
    }
    for (const command_t *c = commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            return cli_close_stdout(c->name, c->run(argc - 1, argv + 1));
    fprintf(stderr, "ssched: unknown command '%s' (try ssched --help)\n", argv[1]);
    return CLI_EXIT_BADINPUT;
}
