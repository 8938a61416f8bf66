/* ssched makespan: one-shot reduce, broadcast and all-reduce schedules
 * (include/ssched/makespan.h). */
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/cli_options.h"
#include "ssched/export.h"
#include "ssched/makespan.h"

#define CMD "makespan"

static const char *synopsis =
    "usage: ssched makespan reduce|broadcast|allreduce|scan --times T0,T1,... --algorithm ALG\n"
    "                       [options]\n"
    "       (or ssched makespan --problem OP ...)\n"
    "  Model: processor p sends one message to anyone in time t(p); a processor takes\n"
    "  part in one transfer at a time.  Times are exact numbers (3, 1/3, 0.25, 2.5e-1).\n"
    "  reduce     every processor's data is combined at processor I (--root, required)\n"
    "             ALG: snf      slowest-node-first (Liu, Kuo, Wang), a 2-approximation\n"
    "                  optimal  exact minimum (class-count dynamic program, or\n"
    "                           branch-and-bound when there are many distinct times)\n"
    "  broadcast  processor I (--root, required) sends its data to every processor\n"
    "             ALG: fnf      fastest-node-first (Liu), a 2-approximation\n"
    "                  optimal  exact minimum (as above)\n"
    "  allreduce  every processor gets the combined data: a reduce to a hub followed\n"
    "             by a broadcast from it; --root I fixes the hub\n"
    "             ALG: snf      SNF reduce + FNF broadcast (a 3.5-approximation);\n"
    "                           default hub: the fastest processor\n"
    "                  optimal  optimal reduce + optimal broadcast; default hub: the\n"
    "                           processor giving the shortest such schedule\n"
    "  scan       processor j gets v[0,j] (--exclusive: v[0,j-1]) of the processors'\n"
    "             values in index order (associative, not commutative); a message\n"
    "             carries one partial result v[a,b], which may be sent more than once\n"
    "             ALG: chain    j-1 sends v[0,j-1] to j, one after another\n"
    "                  optimal  exact minimum by exhaustive branch-and-bound (at most\n"
    "                           6 processors)\n"
    "  Output: the makespan (fraction and decimal) and the messages (sender, receiver,\n"
    "  start, end); --json prints {\"makespan\": \"p/q\", \"messages\": [...], ...}.\n"
    "  Limits: --algorithm optimal is refused up front (exit 2) when its estimated\n"
    "  memory exceeds --max-memory MB (default 4096), and stops with exit 2 when\n"
    "  branch-and-bound has spent --max-work STEPS (default 10000000000, about\n"
    "  10 s; a search node costs 150 + 1.5n steps for a reduce, 100 + 60n for a\n"
    "  broadcast or all-reduce, 150 for a scan) without proving optimality;\n"
    "  0 = no limit.\n"
    "  Searches longer than a second report progress on stderr (--quiet: never;\n"
    "  --verbose: from the start).\n"
    "  Exit status: 0 ok, 2 bad input (one line on stderr), 1 failure.\n";

static const cli_opt_t makespan_table[] = {
    {{"times", required_argument, NULL, 't'}, "T0,T1,..", "the processors' send times t(p)"},
    {{"root", required_argument, NULL, 'r'}, "I", "the root (hub of an all-reduce)"},
    {{"algorithm", required_argument, NULL, 'a'}, "snf|fnf|chain|optimal", "as above"},
    {{"exclusive", no_argument, NULL, 'x'}, NULL, "scan: processor j gets v[0,j-1]"},
    {{"json", no_argument, NULL, 'j'}, NULL, "the schedule as JSON"},
    {{"max-memory", required_argument, NULL, 'M'}, "MB",
     "limit on optimal's estimated memory (default 4096)"},
    {{"max-work", required_argument, NULL, 'W'}, "STEPS",
     "limit on branch-and-bound steps (default 10000000000; 0 = none)"},
    {{"quiet", no_argument, NULL, 'q'}, NULL, "no progress lines"},
    {{"verbose", no_argument, NULL, 'v'}, NULL, "progress from the start"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const makespan_tables[] = {makespan_table, NULL};
static const char *const makespan_titles[] = {"options:", NULL};

#define DEFAULT_MAX_WORK 10000000000L

/* Steps one branch-and-bound node costs on n processors (measured: about a
 * nanosecond each; a broadcast node simulates a heap-ordered bound). */
static double node_steps(ssched_mk_op_t op, size_t n)
{
    if (op == SSCHED_MK_SCAN) /* a transfer tried, its bound and state: 70 to 330 ns */
        return 150.0;
    return op == SSCHED_MK_REDUCE ? 150.0 + 1.5 * (double)n : 100.0 + 60.0 * (double)n;
}

/* Branch-and-bound progress on stderr (cli_progress_t: --quiet, --verbose). */
static void progress_line(void *ctx, uint64_t nodes)
{
    cli_progress_t *p = ctx;
    if (cli_progress_due(p))
        fprintf(stderr, "ssched %s: %.1f s, branch-and-bound, %llu nodes\n", CMD,
                cli_now() - p->start, (unsigned long long)nodes);
}

typedef enum { ALG_HEURISTIC, ALG_OPTIMAL } alg_t;

/* Parse --algorithm for the operation; 0 (after one stderr line) if it
 * does not apply. */
static int parse_algorithm(ssched_mk_op_t op, const char *text, alg_t *out)
{
    const char *heuristic = op == SSCHED_MK_BROADCAST ? "fnf" : op == SSCHED_MK_SCAN ? "chain" : "snf";
    if (!strcmp(text, heuristic)) {
        *out = ALG_HEURISTIC;
        return 1;
    }
    if (!strcmp(text, "optimal")) {
        *out = ALG_OPTIMAL;
        return 1;
    }
    cli_bad_input(CMD, "option --algorithm: '%s' is not valid for %s (use %s or optimal%s)", text,
                  ssched_mk_op_name(op), heuristic,
                  op == SSCHED_MK_ALLREDUCE ? "; snf = SNF reduce + FNF broadcast" : "");
    return 0;
}

/* ssched makespan OP --times ... --algorithm ... [--root I] [--json]:
 * parse and validate every option (bad input: one stderr line, exit 2),
 * run the algorithm, verify the schedule with the independent checker
 * (a failure there is an internal error, exit 1), print. */
int cli_cmd_makespan(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--problem")) { /* the other commands' spelling */
        argv++;
        argc--;
    }
    if (argc < 2)
        return cli_bad_input(CMD, "missing operation (reduce, broadcast, allreduce or scan)");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cli_print_help(stdout, synopsis, makespan_tables, makespan_titles);
        return CLI_EXIT_OK;
    }
    ssched_mk_op_t op;
    if (ssched_mk_op_parse(argv[1], &op, NULL) != SSCHED_OK)
        return cli_bad_input(CMD, "unknown operation '%s' (reduce, broadcast, allreduce or scan)",
                             argv[1]);

    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(makespan_tables, longopts);
    const char *times = NULL, *root_text = NULL, *alg_text = NULL;
    int json = 0, c, progress = 1, exclusive = 0;
    long max_memory = CLI_DEFAULT_MAX_MEMORY_MB, max_work = DEFAULT_MAX_WORK;
    int seen_t = 0, seen_r = 0, seen_a = 0, seen_M = 0, seen_W = 0;
    opterr = 0;
    optind = 1;
    int sub_argc = argc - 1;
    char **sub_argv = argv + 1;
    while ((c = getopt_long(sub_argc, sub_argv, "+:t:r:a:jh", longopts, NULL)) != -1) {
        switch (c) {
        case 'q': progress = 0; break;
        case 'v': progress = 2; break;
        case 't':
            if (!cli_once(CMD, "--times", &seen_t))
                return CLI_EXIT_BADINPUT;
            times = optarg;
            break;
        case 'r':
            if (!cli_once(CMD, "--root", &seen_r))
                return CLI_EXIT_BADINPUT;
            root_text = optarg;
            break;
        case 'a':
            if (!cli_once(CMD, "--algorithm", &seen_a))
                return CLI_EXIT_BADINPUT;
            alg_text = optarg;
            break;
        case 'M':
            if (!cli_once(CMD, "--max-memory", &seen_M) ||
                !cli_parse_long(CMD, "--max-memory", optarg, 0, CLI_MAX_MEMORY_MB_LIMIT,
                                &max_memory))
                return CLI_EXIT_BADINPUT;
            break;
        case 'W':
            if (!cli_once(CMD, "--max-work", &seen_W) ||
                !cli_parse_long(CMD, "--max-work", optarg, 0, LONG_MAX, &max_work))
                return CLI_EXIT_BADINPUT;
            break;
        case 'j': json = 1; break;
        case 'x': exclusive = 1; break;
        case 'h': cli_print_help(stdout, synopsis, makespan_tables, makespan_titles); return CLI_EXIT_OK;
        case ':': return cli_bad_input(CMD, "option '%s' needs a value", sub_argv[optind - 1]);
        default: {
            /* long options are reported as written ("--json=3", "--bogus"),
             * short ones by their letter (they may be grouped) */
            const char *arg = sub_argv[optind - 1];
            if (!strncmp(arg, "--", 2) || !optopt)
                return cli_bad_input(CMD, "unknown option or unexpected value '%s'", arg);
            return cli_bad_input(CMD, "unknown option '-%c'", optopt);
        }
        }
    }
    if (optind < sub_argc)
        return cli_bad_input(CMD, "unexpected argument '%s'", sub_argv[optind]);
    if (!times)
        return cli_bad_input(CMD, "missing --times T0,T1,... (one transmission time per processor)");
    if (!alg_text)
        return cli_bad_input(CMD, "missing --algorithm (%s or optimal)",
                             op == SSCHED_MK_BROADCAST ? "fnf" : op == SSCHED_MK_SCAN ? "chain" : "snf");
    if (exclusive && op != SSCHED_MK_SCAN)
        return cli_bad_input(CMD, "option --exclusive: applies to scan only, not %s",
                             ssched_mk_op_name(op));
    if (root_text && op == SSCHED_MK_SCAN)
        return cli_bad_input(CMD, "option --root: a scan has no root (processor j gets the "
                             "prefix ending at j)");
    if (!root_text && op != SSCHED_MK_ALLREDUCE && op != SSCHED_MK_SCAN)
        return cli_bad_input(CMD, "missing --root I (the %s)",
                             op == SSCHED_MK_REDUCE ? "destination" : "source");
    alg_t alg;
    if (!parse_algorithm(op, alg_text, &alg))
        return CLI_EXIT_BADINPUT;

    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_mk_cluster_t cl;
    if (ssched_mk_cluster_parse(&cl, times, &err) != SSCHED_OK)
        return err.status == SSCHED_EINPUT ? cli_bad_input(CMD, "option --times: %s", err.message)
                                           : cli_report(CMD, &err); /* out of memory: exit 1 */
    size_t root = SSCHED_MK_ANY_ROOT;
    if (root_text) {
        long r;
        if (!cli_parse_long(CMD, "--root", root_text, 0, LONG_MAX, &r)) {
            ssched_mk_cluster_free(&cl);
            return CLI_EXIT_BADINPUT;
        }
        if ((unsigned long)r >= cl.n) {
            size_t last = cl.n - 1;
            ssched_mk_cluster_free(&cl);
            return cli_bad_input(CMD, "option --root: processor %ld out of range (0..%zu)", r, last);
        }
        root = (size_t)r;
    }

    if (alg == ALG_OPTIMAL && op == SSCHED_MK_SCAN && cl.n > SSCHED_MK_SCAN_MAX_PROCESSORS) {
        size_t n = cl.n;
        ssched_mk_cluster_free(&cl);
        return cli_bad_input(CMD, "--algorithm optimal: the exhaustive scan search handles at "
                             "most %d processors, not %zu (use --algorithm chain)",
                             SSCHED_MK_SCAN_MAX_PROCESSORS, n);
    }
    if (alg == ALG_OPTIMAL && op != SSCHED_MK_SCAN) {
        /* refuse up front what would not fit (the branch-and-bound stacks
         * grow as n^2: 30000 processors need gigabytes) */
        ssched_mk_estimate_t e;
        if (ssched_mk_optimal_estimate(&cl, root, op, &e, &err) == SSCHED_OK && max_memory &&
            e.bytes > (double)max_memory * 1048576.0) {
            char est[64], lim[64], what[128];
            cli_format_bytes(e.bytes, est, sizeof est);
            snprintf(lim, sizeof lim, "%ld MB", max_memory);
            snprintf(what, sizeof what, "--algorithm optimal (%s) on %zu processors",
                     !strcmp(e.method, "bnb") ? "branch-and-bound" : "class-count program", cl.n);
            ssched_mk_cluster_free(&cl);
            return cli_refuse(CMD, what, est, lim, "--max-memory MB");
        }
    }
    cli_progress_t prog;
    cli_progress_init(&prog, progress);
    /* the work budget in search nodes (at least one: 0 means no limit) */
    double nodes = (double)max_work / node_steps(op, cl.n);
    ssched_mk_limits_t lim = {max_work ? (nodes < 1 ? 1 : (uint64_t)nodes) : 0, progress_line,
                              &prog};
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_mk_stats_t stats;
    memset(&stats, 0, sizeof stats);
    ssched_status_t st;
    const char *method = NULL;
    switch (op) {
    case SSCHED_MK_REDUCE:
        st = alg == ALG_OPTIMAL ? ssched_mk_reduce_optimal_limited(&cl, root, &lim, &s, &stats, &err)
                                : ssched_mk_reduce_snf(&cl, root, &s, &err);
        method = alg == ALG_OPTIMAL ? stats.method : "snf";
        break;
    case SSCHED_MK_BROADCAST:
        st = alg == ALG_OPTIMAL
                 ? ssched_mk_broadcast_optimal_limited(&cl, root, &lim, &s, &stats, &err)
                                : ssched_mk_broadcast_fnf(&cl, root, &s, &err);
        method = alg == ALG_OPTIMAL ? stats.method : "fnf";
        break;
    case SSCHED_MK_SCAN:
        st = alg == ALG_OPTIMAL ? ssched_mk_scan_optimal(&cl, exclusive, &lim, &s, &stats, &err)
                                : ssched_mk_scan_chain(&cl, exclusive, &s, &err);
        method = alg == ALG_OPTIMAL ? stats.method : "chain";
        break;
    default:
        st = ssched_mk_allreduce_limited(&cl, root,
                                         alg == ALG_OPTIMAL ? SSCHED_MK_ALLREDUCE_OPTIMAL
                                                            : SSCHED_MK_ALLREDUCE_SNF_FNF,
                                         &lim, &s, &stats, &err);
        method = alg == ALG_OPTIMAL ? "optimal reduce + optimal broadcast" : "snf + fnf";
        break;
    }
    int rc = CLI_EXIT_OK;
    if (st == SSCHED_EUNCERTIFIED && alg == ALG_OPTIMAL && !stats.complete) {
        /* the node budget ran out: a refusal, not a failure */
        rc = cli_bad_input(CMD, "--algorithm optimal on %zu processors: branch-and-bound stopped "
                                "after %llu nodes (about %.2g steps) without proving optimality; "
                                "limit %ld steps, raise it with --max-work STEPS (0 = none) or "
                                "use --algorithm %s",
                           cl.n, (unsigned long long)stats.nodes,
                           (double)stats.nodes * node_steps(op, cl.n), max_work,
                           op == SSCHED_MK_BROADCAST ? "fnf" : op == SSCHED_MK_SCAN ? "chain" : "snf");
        ssched_mk_schedule_free(&s);
        ssched_mk_cluster_free(&cl);
        return rc;
    }
    ssched_check_report_t rep;
    if (st == SSCHED_OK &&
        ((st = ssched_mk_check(&cl, &s, &rep, &err)) != SSCHED_OK || !rep.valid)) {
        /* a schedule we built fails the model: a bug, not bad input */
        if (st == SSCHED_OK)
            ssched_error_set(&err, SSCHED_EINTERNAL, "%s", rep.violation);
        ssched_error_prefix(&err, "internal error, invalid schedule: ");
        err.status = SSCHED_EINTERNAL;
        st = SSCHED_EINTERNAL;
    }
    if (st == SSCHED_OK)
        st = (json ? ssched_write_makespan_json : ssched_write_makespan_text)(stdout, &cl, &s,
                                                                            alg_text, method, &err);
    if (st != SSCHED_OK)
        rc = cli_report(CMD, &err);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&cl);
    return rc;
}
