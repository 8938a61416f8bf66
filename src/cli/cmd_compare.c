/* ssched compare: M collectives one at a time (makespan) against the
 * pipelined steady state, on the same cluster. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/cli_options.h"
#include "ssched/compare.h"
#include "ssched/export.h"
#include "ssched/platform.h"

static const char *synopsis =
    "usage: ssched compare (--times t0,t1,... | PLATFORM) --root I [options]\n"
    "       ssched compare (--times t0,t1,... | PLATFORM) --operation scan [--exclusive]\n"
    "  The time for M reduces (or broadcasts) done one after another with the SNF/FNF\n"
    "  or optimal one-shot schedule, against the pipelined steady state on the complete\n"
    "  graph with c(i,j) = t(i): exact TP from the LP plus the measured initialization\n"
    "  and clean-up of the unrolled schedule (a broadcast is pipelined down weighted\n"
    "  spanning arborescences at its certified TP).  A PLATFORM must be complete with\n"
    "  sender-determined costs (every edge leaving i costs t(i)); --root is then a node\n"
    "  name, else a processor index.  Prints a table over M and the crossover M.\n"
    "  scan: processor j gets v[0,j] (--exclusive: v[0,j-1]), processors in index\n"
    "  order; one scan is the exact optimum (at most 6 processors) or the chain; the\n"
    "  pipelined side is M/UB with UB the certified upper bound on the scan\n"
    "  throughput: a lower bound on the time of M scans (no schedule planned), so\n"
    "  no crossover is claimed.\n";

enum { O_TIMES = 1, O_ROOT, O_OP, O_ALG, O_OPS, O_MAX, O_PLOT, O_MAXOPS, O_MAXMEM, O_QUIET,
       O_VERBOSE, O_EXCL, O_JSON };
static const cli_opt_t compare_table[] = {
    {{"times", required_argument, NULL, O_TIMES}, "t0,t1,..",
     "processor times of a cluster (instead of PLATFORM)"},
    {{"root", required_argument, NULL, O_ROOT}, "I", "the root: an index, or a node of PLATFORM"},
    {{"operation", required_argument, NULL, O_OP}, "reduce|broadcast|scan", "default reduce"},
    {{"exclusive", no_argument, NULL, O_EXCL}, NULL, "scan: processor j gets v[0,j-1]"},
    {{"algorithm", required_argument, NULL, O_ALG}, "snf|fnf|chain|optimal",
     "the one-shot schedule repeated M times"},
    {{"ops", required_argument, NULL, O_OPS}, "M1,M2,..", "the values of M in the table"},
    {{"max-crossover", required_argument, NULL, O_MAX}, "N",
     "search the crossover M up to N (default 2000)"},
    {{"plot", required_argument, NULL, O_PLOT}, "FILE.svg", "time per operation against M"},
    {{"json", no_argument, NULL, O_JSON}, NULL, "the table as JSON"},
    {{"max-ops", required_argument, NULL, O_MAXOPS}, "N", "limit on M (default 100000)"},
    {{"max-memory", required_argument, NULL, O_MAXMEM}, "MB",
     "limit on the estimated memory (default 4096)"},
    {{"quiet", no_argument, NULL, O_QUIET}, NULL, "no progress lines"},
    {{"verbose", no_argument, NULL, O_VERBOSE}, NULL, "progress from the start"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const compare_tables[] = {compare_table, NULL};
static const char *const compare_titles[] = {"options:", NULL};

/* A complete platform whose edges leaving i all cost the same t(i). */
static int platform_cluster(const char *path, const char *root_name, ssched_mk_cluster_t *c,
                            size_t *root)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    ssched_error_clear(&err);
    int rc = CLI_EXIT_OK;
    *root = 0;
    if (ssched_platform_load(&p, path, NULL, &err) != SSCHED_OK) {
        rc = cli_report("compare", &err);
    } else if (root_name && ssched_platform_find_node(&p, root_name, root, &err) != SSCHED_OK) {
        rc = cli_bad_input("compare", "--root: unknown node '%s'", root_name);
    } else if (ssched_compare_cluster_from_platform(&p, c, &err) != SSCHED_OK) {
        ssched_error_prefix(&err, "%s: ", path);
        rc = cli_report("compare", &err);
    }
    ssched_platform_free(&p);
    return rc;
}

static int parse_ops(const char *text, size_t **ops, size_t *n)
{
    size_t cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == ',';
    *ops = malloc(cap * sizeof **ops);
    *n = 0;
    if (!*ops)
        return 0;
    const char *s = text;
    for (;;) {
        char *end;
        if (*s < '0' || *s > '9')
            return 0;
        size_t v = strtoul(s, &end, 10);
        if (v == 0 || v > 1000000000UL || (*n && v <= (*ops)[*n - 1]))
            return 0;
        (*ops)[(*n)++] = v;
        if (*end == '\0')
            return 1;
        if (*end != ',')
            return 0;
        s = end + 1;
    }
}

/* One line per pipelined time computed (cli_progress_t: --quiet, --verbose). */
static void progress_line(void *ctx, size_t M)
{
    cli_progress_t *p = ctx;
    if (cli_progress_due(p))
        fprintf(stderr, "ssched compare: %.1f s, unrolling and checking M = %zu\n",
                cli_now() - p->start, M);
}

int cli_cmd_compare(int argc, char **argv)
{
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(compare_tables, longopts);
    const char *times = NULL, *root_text = NULL, *alg = NULL, *ops_text = NULL, *plot = NULL;
    int json = 0, c, progress = 1;
    long max_cross = 2000;
    ssched_compare_options_t o;
    ssched_compare_options_default(&o);
    opterr = 0;
    optind = 1;
    int seen[O_JSON + 1] = {0};
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        /* every option of compare takes one value: once */
        if (c > 0 && c <= O_JSON && seen[c]++) {
            for (size_t k = 0; longopts[k].name; k++)
                if (longopts[k].val == c)
                    return cli_bad_input("compare", "option --%s given twice", longopts[k].name);
        }
        switch (c) {
        case O_TIMES: times = optarg; break;
        case O_ROOT: root_text = optarg; break;
        case O_OP:
            /* the library's names; compare has no all-reduce */
            if (ssched_mk_op_parse(optarg, &o.op, NULL) != SSCHED_OK || o.op == SSCHED_MK_ALLREDUCE)
                return cli_bad_input("compare", "--operation: '%s' is not reduce, broadcast or scan",
                                     optarg);
            break;
        case O_EXCL: o.exclusive = 1; break;
        case O_ALG: alg = optarg; break;
        case O_OPS: ops_text = optarg; break;
        case O_MAX:
            if (!cli_parse_long("compare", "--max-crossover", optarg, 1, 1000000, &max_cross))
                return CLI_EXIT_BADINPUT;
            break;
        case O_PLOT: plot = optarg; break;
        case O_MAXOPS: {
            long v;
            if (!cli_parse_long("compare", "--max-ops", optarg, 1, 1000000000L, &v))
                return CLI_EXIT_BADINPUT;
            o.max_ops = (unsigned long)v;
            break;
        }
        case O_MAXMEM: {
            long v;
            if (!cli_parse_long("compare", "--max-memory", optarg, 1, 100000000L, &v))
                return CLI_EXIT_BADINPUT;
            o.max_memory = (unsigned long long)v << 20;
            break;
        }
        case O_JSON: json = 1; break;
        case O_QUIET: progress = 0; break;
        case O_VERBOSE: progress = 2; break;
        case 'h': cli_print_help(stdout, synopsis, compare_tables, compare_titles); return CLI_EXIT_OK;
        default: return cli_bad_input("compare", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    const char *path = optind < argc ? argv[optind++] : NULL;
    if (optind < argc)
        return cli_bad_input("compare", "unexpected argument '%s'", argv[optind]);
    if (!!path == !!times)
        return cli_bad_input("compare", "give either --times t0,t1,... or a PLATFORM file");
    int scan = o.op == SSCHED_MK_SCAN;
    if (!root_text && !scan)
        return cli_bad_input("compare", "missing --root");
    if (root_text && scan)
        return cli_bad_input("compare", "--root: a scan has no root (processor j gets the prefix "
                             "ending at j)");
    if (o.exclusive && !scan)
        return cli_bad_input("compare", "--exclusive: applies to --operation scan only");
    const char *heuristic = scan ? "chain" : o.op == SSCHED_MK_REDUCE ? "snf" : "fnf";
    if (alg) {
        if (!strcmp(alg, "optimal"))
            o.optimal = 1;
        else if (!strcmp(alg, heuristic))
            o.optimal = 0;
        else
            return cli_bad_input("compare", "--algorithm: '%s' is not valid for a %s (use %s or optimal)",
                                 alg, ssched_mk_op_name(o.op), heuristic);
    } else if (scan) {
        o.optimal = 1; /* the one-operation view: the best single scan */
    }
    o.crossover_limit = (unsigned long)max_cross;
    size_t *ops = NULL;
    size_t n_ops = 0;
    if (ops_text) {
        if (!parse_ops(ops_text, &ops, &n_ops)) {
            free(ops);
            return cli_bad_input("compare", "--ops: '%s' is not an increasing list of positive "
                                 "integers", ops_text);
        }
        o.ops = ops;
        o.n_ops = n_ops;
    }
    ssched_mk_cluster_t cl;
    ssched_error_t err;
    ssched_error_clear(&err);
    int rc;
    if (times) {
        long r = 0;
        if (ssched_mk_cluster_parse(&cl, times, &err) != SSCHED_OK) {
            free(ops);
            ssched_error_prefix(&err, "--times: ");
            return cli_report("compare", &err);
        }
        if (root_text && !cli_parse_long("compare", "--root", root_text, 0, (long)cl.n - 1, &r)) {
            ssched_mk_cluster_free(&cl);
            free(ops);
            return CLI_EXIT_BADINPUT;
        }
        o.root = root_text ? (size_t)r : 0;
    } else if ((rc = platform_cluster(path, root_text, &cl, &o.root)) != CLI_EXIT_OK) {
        free(ops);
        return rc;
    }
    ssched_compare_t res;
    ssched_compare_init(&res);
    rc = CLI_EXIT_OK;
    cli_progress_t prog;
    cli_progress_init(&prog, progress);
    o.progress = progress_line;
    o.progress_ctx = &prog;
    if (ssched_compare_run(&cl, &o, &res, &err) != SSCHED_OK) {
        rc = cli_report("compare", &err);
    } else if ((json ? ssched_write_compare_json(stdout, &o, &res, &err)
                     : ssched_write_compare_text(stdout, &cl, &o, &res, &err)) != SSCHED_OK) {
        rc = cli_report("compare", &err);
    }
    if (rc == CLI_EXIT_OK && plot) {
        cli_out_t out;
        rc = cli_out_open(&out, "compare", "--plot", plot);
        if (rc == CLI_EXIT_OK) {
            ssched_status_t ws = ssched_write_compare_svg(out.f, &res, &err);
            rc = cli_out_finish(&out, "compare", ws, &err);
        }
    }
    ssched_compare_free(&res);
    ssched_mk_cluster_free(&cl);
    free(ops);
    return rc;
}
