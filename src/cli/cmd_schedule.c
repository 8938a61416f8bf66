/* ssched schedule: a periodic one-port schedule at the certified TP, or its
 * unrolled form for K operations.  Every schedule is passed through the
 * independent checker before it is written (an unrolled file after it is
 * written, unless --no-check). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "src/cli/schedule.h"
#include "src/cli/schedule_scan.h"
#include "ssched/schedule.h"

static const char *synopsis =
    "usage: ssched schedule PLATFORM <problem options> [options]\n"
    "       ssched schedule PLATFORM <problem options> --operations K --unroll \\\n"
    "           -o FILE\n"
    "  One period of a schedule at the certified TP (checked before it is written),\n"
    "  or, with --unroll, the explicit timed transfers of K operations.\n";

enum { O_NOSPLIT = OPT_PROBLEM_LAST + 1, O_JSON, O_OPS, O_UNROLL, O_GANTT, O_DOT, O_MATCH,
       O_FIXED, O_TREES_DOT, O_MAXP, O_MAXOPS, O_MAXEV, O_NOCHECK, O_BATCH, O_PIECES,
       O_PATTERN, O_SEGMENTS };
static const cli_opt_t schedule_table[] = {
    {{"json", no_argument, NULL, O_JSON}, NULL, "ssched-schedule/1 JSON instead of the table"},
    {{"output", required_argument, NULL, 'o'}, "FILE", "write the schedule (JSON) to FILE"},
    {{"no-split", no_argument, NULL, O_NOSPLIT}, NULL,
     "whole messages in every slot (period x LCM of amounts)"},
    {{"fixed-period", required_argument, NULL, O_FIXED}, "TF",
     "a schedule of period TF: reduce, RR-4872 4.6 floors plus a greedy fill;\n"
     "scatter, gossip: floor(TP TF) operations in a period of that many 1/TP"},
    {{"matching", required_argument, NULL, O_MATCH}, "bottleneck|arbitrary",
     "matching rule of the edge colouring (default bottleneck)"},
    {{"operations", required_argument, NULL, O_OPS}, "K",
     "with --unroll: the number of operations"},
    {{"unroll", no_argument, NULL, O_UNROLL}, NULL,
     "explicit timed transfers for K operations (start-up, steady state,\n"
     "clean-up), ssched-unrolled/2 JSON streamed to -o FILE, then checked;\n"
     "the pattern is chosen to minimise the time for K"},
    {{"max-period", required_argument, NULL, O_MAXP}, "TF",
     "with --unroll: only patterns of period <= TF"},
    {{"max-operations", required_argument, NULL, O_MAXOPS}, "N",
     "limit on K (default 10000000)"},
    {{"max-events", required_argument, NULL, O_MAXEV}, "N",
     "limit on the events written (default 500000000)"},
    {{"batch", required_argument, NULL, O_BATCH}, "N",
     "with --unroll: every transfer carries N operations' messages (one\n"
     "latency for N); default: chosen with the pieces for the least makespan\n"
     "when the platform has latencies, else 1"},
    {{"pieces", required_argument, NULL, O_PIECES}, "whole|split",
     "with --unroll: messages (reduce: values) move whole or in the pattern's\n"
     "pieces; default: chosen (split unless whole messages lose nothing)"},
    {{"pattern", required_argument, NULL, O_PATTERN}, "auto|lp|direct",
     "with --unroll: the periodic pattern: lp, derived from the certified\n"
     "steady state; direct, every message straight to its destination on its\n"
     "shortest route (reduce: every value to the target, merged there);\n"
     "auto (default): both, the direct one when strictly faster for K"},
    {{"segments", required_argument, NULL, O_SEGMENTS}, "P|auto",
     "with --unroll (all-reduce, reduce, broadcast): cut each operation into\n"
     "P segments planned as K*P operations of size/P (each may take its own\n"
     "trees and root; merges take w/P); the file says \"segments\": P;\n"
     "auto: P from 1 about doubling up to 64, the least exact makespan\n"
     "(a segment must hold whole elements of ssched-exec: 8 bytes summed,\n"
     "32 multiplied in order)"},
    {{"no-check", no_argument, NULL, O_NOCHECK}, NULL,
     "with --unroll: skip the self-check of the written file\n"
     "(check it later with `ssched check FILE`)"},
    {{"gantt", required_argument, NULL, O_GANTT}, "FILE.svg",
     "Gantt chart of one period, one row per port (with --unroll: of the\n"
     "K operations, K <= 10000)"},
    {{"dot", required_argument, NULL, O_DOT}, "FILE",
     "per-period message counts on the platform (Graphviz)"},
    {{"trees-dot", required_argument, NULL, O_TREES_DOT}, "FILE",
     "reduce: the weighted reduction trees as Graphviz, one cluster each\n"
     "(with --unroll: the pattern's trees)"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const schedule_tables[] = {cli_problem_table, schedule_table, NULL};
static const char *const schedule_titles[] = {"problem and platform options:", "options:", NULL};

static int run_schedule(int argc, char **argv, sched_opts_t *o);
static int plan_once(sched_opts_t *o, cli_problem_opts_t *po);
static int auto_segments(sched_opts_t *o, cli_problem_opts_t *po);

int cli_cmd_schedule(int argc, char **argv)
{
    sched_opts_t o = {0};
    o.rule = SSCHED_MATCHING_BOTTLENECK;
    o.pieces = -1;
    mpq_inits(o.fixed_period, o.max_period, NULL);
    int rc = run_schedule(argc, argv, &o);
    mpq_clears(o.fixed_period, o.max_period, NULL);
    return rc;
}

static int run_schedule(int argc, char **argv, sched_opts_t *o)
{
    cli_problem_opts_t po = {0};
    int c;
    opterr = 0;
    optind = 1;
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(schedule_tables, longopts);
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        if (cli_problem_option(&po, c, optarg))
            continue;
        switch (c) {
        case O_NOSPLIT: o->no_split = 1; break;
        case O_JSON: o->json = 1; break;
        case O_UNROLL: o->unroll = 1; break;
        case O_NOCHECK: o->no_check = 1; break;
        case O_OPS:
            if (o->operations)
                return cli_bad_input("schedule", "--operations given twice");
            if (!cli_parse_long("schedule", "--operations", optarg, 1, 1000000000L, &o->operations))
                return CLI_EXIT_BADINPUT;
            break;
        case O_SEGMENTS:
            if (o->segments || o->seg_auto)
                return cli_bad_input("schedule", "--segments given twice");
            if (!strcmp(optarg, "auto"))
                o->seg_auto = 1;
            else if (!cli_parse_long("schedule", "--segments", optarg, 1, 65536L, &o->segments))
                return CLI_EXIT_BADINPUT;
            break;
        case O_BATCH:
            if (o->batch)
                return cli_bad_input("schedule", "--batch given twice");
            if (!cli_parse_long("schedule", "--batch", optarg, 1, 1000000000L, &o->batch))
                return CLI_EXIT_BADINPUT;
            break;
        case O_PIECES:
            if (o->pieces >= 0)
                return cli_bad_input("schedule", "--pieces given twice");
            if (strcmp(optarg, "whole") && strcmp(optarg, "split"))
                return cli_bad_input("schedule", "--pieces: '%s' is not whole or split", optarg);
            o->pieces = !strcmp(optarg, "whole");
            break;
        case O_MAXOPS:
            if (!cli_parse_long("schedule", "--max-operations", optarg, 1, 1000000000L,
                                &o->max_operations))
                return CLI_EXIT_BADINPUT;
            break;
        case O_MAXEV:
            if (!cli_parse_long("schedule", "--max-events", optarg, 1, 4000000000000L,
                                &o->max_events))
                return CLI_EXIT_BADINPUT;
            break;
        case O_MAXP:
            if (o->has_max_period)
                return cli_bad_input("schedule", "--max-period given twice");
            if (!cli_parse_rational("schedule", "--max-period", optarg, o->max_period))
                return CLI_EXIT_BADINPUT;
            if (mpq_sgn(o->max_period) <= 0)
                return cli_bad_input("schedule", "--max-period: TF must be positive");
            o->has_max_period = 1;
            break;
        case O_PATTERN:
            if (o->has_pattern)
                return cli_bad_input("schedule", "--pattern given twice");
            if (ssched_pattern_parse(optarg, &o->pattern, NULL) != SSCHED_OK)
                return cli_bad_input("schedule", "--pattern: unknown pattern '%s' "
                                     "(auto, lp or direct)", optarg);
            o->has_pattern = 1;
            break;
        case O_GANTT: o->gantt = optarg; break;
        case O_DOT: o->dot = optarg; break;
        case O_MATCH:
            if (ssched_matching_rule_parse(optarg, &o->rule, NULL) != SSCHED_OK)
                return cli_bad_input("schedule", "--matching: unknown rule '%s' "
                                     "(bottleneck or arbitrary)", optarg);
            break;
        case O_FIXED:
            if (o->fixed)
                return cli_bad_input("schedule", "--fixed-period given twice");
            if (!cli_parse_rational("schedule", "--fixed-period", optarg, o->fixed_period))
                return CLI_EXIT_BADINPUT;
            if (mpq_sgn(o->fixed_period) <= 0)
                return cli_bad_input("schedule", "--fixed-period: TF must be positive");
            o->fixed = 1;
            break;
        case O_TREES_DOT: o->trees_dot = optarg; break;
        case 'o':
            if (o->output)
                return cli_bad_input("schedule", "option -o given twice");
            o->output = optarg;
            break;
        case 'h': cli_print_help(stdout, synopsis, schedule_tables, schedule_titles); return CLI_EXIT_OK;
        default:
            return cli_bad_input("schedule", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        po.platform_path = argv[optind++];
    if (optind < argc)
        return cli_bad_input("schedule", "unexpected argument '%s'", argv[optind]);
    if (o->unroll && (!o->operations || !o->output))
        return cli_bad_input("schedule", "--unroll needs --operations K and -o FILE");
    if (o->operations && !o->unroll)
        return cli_bad_input("schedule", "--operations is used with --unroll");
    o->quiet = po.quiet;
    if (o->has_max_period && !o->unroll)
        return cli_bad_input("schedule", "--max-period is used with --unroll");
    if (o->has_max_period && o->fixed)
        return cli_bad_input("schedule", "--max-period and --fixed-period exclude each other");
    if (o->has_pattern && !o->unroll)
        return cli_bad_input("schedule", "--pattern is used with --unroll");
    if (o->has_pattern && o->fixed)
        return cli_bad_input("schedule", "--pattern and --fixed-period exclude each other");
    if (o->unroll && o->json)
        return cli_bad_input("schedule", "--unroll writes the unrolled schedule (JSON) to -o; "
                             "--json is for one period");
    if (o->unroll && o->gantt && o->operations > GANTT_MAX_OPERATIONS)
        return cli_bad_input("schedule", "--unroll --gantt draws every event: at most %d "
                             "operations (got %ld)", GANTT_MAX_OPERATIONS, o->operations);
    if ((o->batch || o->pieces >= 0) && !o->unroll)
        return cli_bad_input("schedule", "--batch and --pieces are used with --unroll");
    if (o->batch > o->operations && o->unroll && o->operations)
        return cli_bad_input("schedule", "--batch %ld is above K = %ld operations", o->batch,
                             o->operations);
    if ((o->segments || o->seg_auto) && !o->unroll)
        return cli_bad_input("schedule", "--segments is used with --unroll");
    if (o->segments > 1 && o->operations > 1000000000L / o->segments)
        return cli_bad_input("schedule", "--operations x --segments is above 10^9");
    if (o->no_check && !o->unroll)
        return cli_bad_input("schedule", "--no-check is used with --unroll");
    if ((o->max_operations || o->max_events) && !o->unroll)
        return cli_bad_input("schedule", "--max-operations and --max-events are used with --unroll");
    if (o->unroll && o->max_operations == 0 && o->operations > 10000000L)
        return cli_bad_input("schedule", "--operations %ld is above the limit 10000000 (raise it "
                             "with --max-operations)", o->operations);
    return o->seg_auto ? auto_segments(o, &po) : plan_once(o, &po);
}

/* --segments auto: P = 1, then each time the largest P' <= 2P whose
 * segment is whole elements (1 MB of 32-byte matrices: 1, 2, 5, 10, 25,
 * 50), up to 64, each
 * planned for its exact makespan; stop at the first P no better than the
 * best so far (the fill shrinks with P, the latencies paid grow with it)
 * or less than 0.5 % better; then the best one is planned again and
 * written. */
static int auto_segments(sched_opts_t *o, cli_problem_opts_t *po)
{
    long K = o->operations, best = 1;
    mpq_t m, bm;
    mpq_inits(m, bm, NULL);
    int rc = CLI_EXIT_OK;
    for (long P = 1; P >= 1 && P <= 64 && rc == CLI_EXIT_OK; P = cli_segments_next(P, po)) {
        o->segments = P, o->operations = K, o->eval = m;
        if ((rc = plan_once(o, po)) != CLI_EXIT_OK)
            break;
        if (!o->quiet)
            gmp_fprintf(stderr, "ssched schedule: --segments %ld: makespan %Qd (%.6g)\n", P, m,
                        mpq_get_d(m));
        if (P > 1 && mpq_cmp(m, bm) >= 0)
            break;
        /* a doubling that gains less than 0.5 % ends the search: the
         * planning time grows with P, the fill left is small */
        int small = P > 1 && 200 * mpq_get_d(m) > 199 * mpq_get_d(bm);
        best = P;
        mpq_set(bm, m);
        if (small)
            break;
    }
    mpq_clears(m, bm, NULL);
    o->segments = best, o->operations = K, o->eval = NULL;
    return rc == CLI_EXIT_OK ? plan_once(o, po) : rc;
}

/* Load, solve, plan and write (or, with o->eval, only measure) one
 * schedule; o->operations is multiplied by o->segments on the way. */
static int plan_once(sched_opts_t *o, cli_problem_opts_t *po)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    int rc = cli_problem_load("schedule", po, &p, &pb);
    if (rc == CLI_EXIT_OK && o->segments > 1) {
        rc = cli_segments_apply(o->segments, po, &p, &pb);
        o->operations *= o->segments;
        if (rc == CLI_EXIT_OK && o->batch > o->operations)
            rc = cli_bad_input("schedule", "--batch %ld is above K x P = %ld", o->batch,
                               o->operations);
    }
    /* an unrolled all-reduce replays its own pattern (the LCM of the
     * trees' and arborescences' rates): no fixed or bounded period */
    if (rc == CLI_EXIT_OK && pb.kind == SSCHED_PROBLEM_ALLREDUCE && o->unroll && o->fixed)
        rc = cli_bad_input("schedule", "allreduce: --unroll with --fixed-period is not "
                           "supported (the pattern's period is the LCM of its rates)");
    if (rc == CLI_EXIT_OK && pb.kind == SSCHED_PROBLEM_ALLREDUCE &&
        (o->gantt || o->dot || o->trees_dot))
        rc = cli_bad_input("schedule", "allreduce: --gantt, --dot and --trees-dot are not "
                           "supported yet");
    /* scan (issue 27): periodic or unrolled (src/cli/schedule_scan.c) */
    if (rc == CLI_EXIT_OK && pb.kind == SSCHED_PROBLEM_SCAN) {
        if (!o->unroll && (o->gantt || o->dot || o->trees_dot))
            rc = cli_bad_input("schedule", "scan: a periodic schedule takes no --gantt, --dot "
                               "or --trees-dot");
        else if (!o->unroll)
            ;
        else if (o->fixed || o->has_max_period || o->has_pattern || o->batch || o->pieces >= 0 ||
                 o->no_check || o->gantt || o->dot || o->trees_dot || o->no_split)
            rc = cli_bad_input("schedule", "scan: --unroll takes no --fixed-period, --max-period, "
                               "--pattern, --batch, --pieces, --no-split, --no-check, --gantt, "
                               "--dot or --trees-dot");
        ssched_steady_t st;
        ssched_steady_init(&st);
        ssched_steady_options_t sopt;
        ssched_error_t err;
        ssched_error_clear(&err);
        if (rc != CLI_EXIT_OK)
            ;
        else if ((rc = cli_steady_options("schedule", po, &sopt)) != CLI_EXIT_OK)
            ; /* bad --method: already reported */
        else if (ssched_steady_solve_opts(&p, &pb, &sopt, &st, &err) != SSCHED_OK)
            rc = cli_report("schedule", &err);
        else if (mpq_sgn(st.throughput) == 0)
            rc = cli_bad_input("schedule", "TP = 0 (a target is unreachable): nothing to schedule");
        else if (!o->unroll)
            rc = cli_schedule_scan_periodic(o->output, o->json, o->no_split, o->rule,
                                            o->fixed ? o->fixed_period : NULL, &p, &pb, &st);
        else
            rc = cli_schedule_scan(o->output, (size_t)o->operations, o->quiet, &p, &pb, &st);
        ssched_steady_free(&st);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
        return rc;
    }
    if (rc == CLI_EXIT_OK) {
        ssched_steady_t st;
        ssched_schedule_t s;
        ssched_steady_init(&st);
        ssched_schedule_init(&s);
        ssched_error_t err;
        ssched_error_clear(&err);
        ssched_schedule_options_t so;
        ssched_schedule_options_default(&so);
        so.no_split = o->no_split;
        so.rule = o->rule;
        so.fixed_period = o->fixed ? o->fixed_period : NULL;
        ssched_steady_options_t sopt;
        if ((rc = cli_steady_options("schedule", po, &sopt)) != CLI_EXIT_OK)
            ; /* bad --method: already reported */
        else if (ssched_steady_solve_opts(&p, &pb, &sopt, &st, &err) != SSCHED_OK)
            rc = cli_report("schedule", &err);
        else if (mpq_sgn(st.throughput) == 0)
            rc = cli_bad_input("schedule", "TP = 0 (a target is unreachable): nothing to schedule");
        else if ((o->unroll && !o->fixed
                      ? ssched_unroll_plan_pattern(&p, &pb, &st, (unsigned long)o->operations,
                                                   o->has_max_period ? o->max_period : NULL,
                                                   o->no_split, o->pattern, &s, &err)
                      : ssched_schedule_build(&p, &pb, &st, &so, &s, &err)) != SSCHED_OK)
            rc = cli_report("schedule", &err);
        else if (mpq_sgn(st.throughput) == 0)
            rc = cli_bad_input("schedule", "TP = 0 (a target is unreachable): nothing to schedule");
        else if (o->pieces == 0 && (pb.kind == SSCHED_PROBLEM_BROADCAST ||
                                    (pb.kind == SSCHED_PROBLEM_ALLREDUCE && o->no_split)))
            rc = cli_bad_input("schedule", "--pieces split: %s", pb.kind == SSCHED_PROBLEM_BROADCAST
                                   ? "a broadcast moves whole messages"
                                   : "--no-split moves the all-reduce's values whole");
        else {
            /* the overrides of the planned batch and pieces */
            if (o->batch)
                s.unroll_batch = (size_t)o->batch;
            if (o->pieces >= 0)
                s.unroll_whole = o->pieces;
            s.segments = o->segments > 1 ? (size_t)o->segments : 0;
            rc = cli_schedule_emit(o, &p, &pb, &st, &s);
        }
        ssched_schedule_free(&s);
        ssched_steady_free(&st);
    }
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return rc;
}
