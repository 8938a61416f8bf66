/* Problem options shared by solve, lp and schedule (CLI contract in
 * design.md): PLATFORM --problem KIND and the node lists of each kind. */
#ifndef SSCHED_CLI_PROBLEM_OPTS_H
#define SSCHED_CLI_PROBLEM_OPTS_H

#include <getopt.h>

#include "src/cli/cli_options.h"

#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/steady.h"

enum {
    OPT_PROBLEM = 1000, OPT_SOURCE, OPT_SOURCES, OPT_TARGETS, OPT_PARTICIPANTS,
    OPT_TARGET, OPT_SIZE, OPT_METHOD, OPT_QUIET, OPT_ROUTERS, OPT_COMMUTATIVE, OPT_ROOT,
    OPT_COST_FROM, OPT_UNIT_BYTES, OPT_SPEED_FROM, OPT_FLOPS_PER_TASK, OPT_FORMAT,
    OPT_VERBOSE, OPT_MODEL, OPT_HOSTS, OPT_LATENCY_FROM, OPT_SPEED, OPT_MISSING_COST,
    OPT_NAMES_FROM, OPT_EXCLUSIVE,
    OPT_PROBLEM_LAST
};

/* The problem options' table (the help of solve, schedule, lp, report):
 * give it to cli_longopts/cli_print_help beside the command's own. */
extern const cli_opt_t cli_problem_table[];

typedef struct {
    const char *platform_path;
    const char *problem, *source, *sources, *targets, *participants, *target, *size;
    const char *root;     /* allreduce: --root, or NULL for the best root   */
    int commutative;      /* --commutative (reduce, allreduce)              */
    int exclusive;        /* --exclusive (scan: MPI_Exscan)                 */
    /* platform file: --format graphml|gml|simgrid|matrix, --cost-from ATTR --unit-bytes B,
     * --speed-from ATTR --flops-per-task F, --latency-from ATTR (seconds,
     * with --cost-from) (ssched_platform_load) */
    const char *format, *cost_from, *unit_bytes, *speed_from, *flops_per_task;
    const char *latency_from;
    const char *speed;         /* --speed S: every node computes at speed S */
    const char *missing_cost;  /* --missing-cost skip|error                 */
    const char *names_from;    /* --names-from ATTR (GraphML node names)    */
    const char *method;
    const char *routers;  /* --routers one-port|switch, or NULL (the file's) */
    const char *model;    /* --model graph|routed, or NULL (the file's)     */
    const char *hosts;    /* --hosts one-port|multi-port (routed platforms) */
    int quiet, verbose;   /* --quiet: no progress; --verbose: progress from the
                             start and lp_solve's log */
    const char *repeated; /* first single-value option given twice, or NULL */
} cli_problem_opts_t;

/* Record a problem option; returns 1 if `opt` was one.  A single-value
 * option given twice is remembered and reported by cli_problem_load (one
 * line, exit 2) rather than last-wins. */
int cli_problem_option(cli_problem_opts_t *o, int opt, const char *arg);

/* Load the platform and build the problem.  Prints one line and returns 2
 * on bad input, 1 on failure, 0 on success.  --routers one-port makes every
 * node one-port (RR-4872), whatever the file's `ports` say; --routers switch
 * makes every node without w that the problem does not name a switch;
 * without it the file's `ports` attributes hold (default one-port).  Node lists are "a,b,c" or
 * "@FILE" (one node name per line, blank lines ignored), so that names
 * containing commas can be given; --source and --target take one whole name.
 * The platform is GraphML or GML (--format, else by extension or content),
 * with times from bandwidths/speeds when --cost-from/--speed-from are given
 * and latencies in seconds from --latency-from (with --cost-from only).
 * --model routed turns a graph platform into a routed one
 * (ssched_platform_route): hosts are the nodes with w or named by the
 * problem, routers the others (the nodes --routers switch would make
 * switches); the problem is rebuilt on the hosts by name.  --hosts
 * one-port|multi-port applies to routed platforms (default multi-port). */
int cli_problem_load(const char *cmd, const cli_problem_opts_t *o, ssched_platform_t *p,
                     ssched_problem_t *pb);

/* Solver options from --method (lp, colgen, auto) and --quiet; progress of
 * long solves goes to stderr unless quiet.  Prints one line and returns 2
 * on a bad method, 0 otherwise. */
int cli_steady_options(const char *cmd, const cli_problem_opts_t *o, ssched_steady_options_t *opt);

/* ssched schedule --segments P (schedule_seg.c): is a segment of
 * unit_bytes x size / P a whole number of the executor's elements (8
 * bytes summed, 32 multiplied in order; 1 for a broadcast; always when
 * no --unit-bytes)?  The next candidate of --segments auto after prev
 * (the largest such P <= 2 prev, else the least above; 0: none).  And the segment problem of
 * (p, pb) (ssched_unroll_segments) with that check, an exit status. */
int cli_segments_whole(long segments, const cli_problem_opts_t *po);
long cli_segments_next(long prev, const cli_problem_opts_t *po);
int cli_segments_apply(long segments, const cli_problem_opts_t *po, ssched_platform_t *p,
                       ssched_problem_t *pb);

/* The option loop of a command on one platform with problem options
 * (src/cli/cli_command.c): getopt_long over tables; problem and platform
 * options into po; -o FILE (once) into *output; -h prints the help and
 * sets *help; any other option to own(ctx, c, arg) (NULL: none), which
 * returns CLI_EXIT_OK when it took it, 2 after its one line, -1 when the
 * command has no such option (bad input); then PLATFORM, the only
 * argument.  CLI_EXIT_OK or 2 after one line on stderr. */
int cli_command_options(const char *cmd, int argc, char **argv, const char *synopsis,
                        const cli_opt_t *const *tables, const char *const *titles,
                        cli_problem_opts_t *po, const char **output, int *help,
                        int (*own)(void *ctx, int c, const char *arg), void *ctx);

#endif
