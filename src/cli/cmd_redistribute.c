/* ssched redistribute: schedule a block-cyclic redistribution cyclic(x) ->
 * cyclic(Kx) on a heterogeneous network (seed 003).  A thin layer over
 * include/ssched/redistribution.h. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/cli_options.h"
#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/redistribution.h"

static const char *synopsis =
    "usage: ssched redistribute --P P --K K --N N [--x X]\n"
    "           (--bw-min A --bw-max B [--seed S] | --matrix FILE) [--startup T]\n"
    "           --algorithm direct|greedy|preemptive [options]\n"
    "  Redistributes N elements from cyclic(X) to cyclic(K*X) on P processors (X\n"
    "  divides N; X defaults to 1).  A message of m elements from i to j takes\n"
    "  T + m / B(i,j) time units (T defaults to 0).  Bandwidths are drawn in\n"
    "  [A, B] from seed S (default 1), or read from FILE: P lines of P exact\n"
    "  numbers, line i = bandwidths from processor i.  All numbers are exact\n"
    "  (3, 0.125, 1/3, 2.5e-3).  Prints the lower bound, the completion time and\n"
    "  per processor the ordered sends and receives; --json prints them as JSON\n"
    "  with exact \"p/q\" strings.\n"
    "  Limits: requests whose estimated memory exceeds --max-memory MB (default\n"
    "  4096) or work exceeds --max-work STEPS (default 200000000, about 10 s;\n"
    "  direct M*P, greedy P*K^2, preemptive 10*M*P for M messages; 0 = none)\n"
    "  are refused up front (exit 2).  Runs over a second say so on stderr\n"
    "  (--quiet: never; --verbose: always, with the estimate and the time taken).\n";

#define DEFAULT_MAX_WORK 200000000L

#define CMD "redistribute"

enum {
    OPT_P = 256,
    OPT_K,
    OPT_N,
    OPT_X,
    OPT_BWMIN,
    OPT_BWMAX,
    OPT_SEED,
    OPT_MATRIX,
    OPT_STARTUP,
    OPT_ALGO,
    OPT_JSON,
    OPT_MAX_MEMORY,
    OPT_MAX_WORK,
    OPT_QUIET,  /* flags, not single-value options: after OPT_MAX_WORK */
    OPT_VERBOSE
};

static const cli_opt_t redistribute_table[] = {
    {{"P", required_argument, NULL, OPT_P}, "P", "processors"},
    {{"K", required_argument, NULL, OPT_K}, "K", "from cyclic(X) to cyclic(K*X)"},
    {{"N", required_argument, NULL, OPT_N}, "N", "elements"},
    {{"x", required_argument, NULL, OPT_X}, "X", "block size before (divides N; default 1)"},
    {{"bw-min", required_argument, NULL, OPT_BWMIN}, "A", "bandwidths drawn in [A, B]"},
    {{"bw-max", required_argument, NULL, OPT_BWMAX}, "B", "(with --bw-min)"},
    {{"seed", required_argument, NULL, OPT_SEED}, "S", "of the drawn bandwidths (default 1)"},
    {{"matrix", required_argument, NULL, OPT_MATRIX}, "FILE",
     "P lines of P exact bandwidths instead of drawn ones"},
    {{"startup", required_argument, NULL, OPT_STARTUP}, "T", "start-up time per message (default 0)"},
    {{"algorithm", required_argument, NULL, OPT_ALGO}, "direct|greedy|preemptive", "the algorithm"},
    {{"json", no_argument, NULL, OPT_JSON}, NULL, "the schedule as JSON"},
    {{"max-memory", required_argument, NULL, OPT_MAX_MEMORY}, "MB",
     "limit on the estimated memory (default 4096; 0 = none)"},
    {{"max-work", required_argument, NULL, OPT_MAX_WORK}, "STEPS",
     "limit on the estimated work (default 200000000; 0 = none)"},
    {{"quiet", no_argument, NULL, OPT_QUIET}, NULL, "no progress lines"},
    {{"verbose", no_argument, NULL, OPT_VERBOSE}, NULL, "progress with the estimate and the time"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const redistribute_tables[] = {redistribute_table, NULL};
static const char *const redistribute_titles[] = {"options:", NULL};

int cli_cmd_redistribute(int argc, char **argv)
{
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(redistribute_tables, longopts);
    long P = 0, K = 0, N = 0, x = 1, seed = 1;
    long max_memory = CLI_DEFAULT_MAX_MEMORY_MB, max_work = DEFAULT_MAX_WORK;
    /* single-value options: given twice is an error, not last-wins */
    int seen[OPT_MAX_WORK - OPT_P + 1] = {0};
    static const char *const opt_names[] = {"--P", "--K", "--N", "--x", "--bw-min", "--bw-max",
                                            "--seed", "--matrix", "--startup", "--algorithm",
                                            "--json", "--max-memory", "--max-work"};
    const char *matrix = NULL, *bwmin_text = NULL, *bwmax_text = NULL;
    int algorithm = -1, json = 0, have_seed = 0, rc = CLI_EXIT_BADINPUT, verbosity = 1;
    mpq_t bw_min, bw_max, startup;
    mpq_init(bw_min);
    mpq_init(bw_max);
    mpq_init(startup);
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
        int ok = 1;
        if (c >= OPT_P && c <= OPT_MAX_WORK && c != OPT_JSON &&
            !cli_once(CMD, opt_names[c - OPT_P], &seen[c - OPT_P]))
            goto out;
        switch (c) {
        case OPT_QUIET: verbosity = 0; break;
        case OPT_VERBOSE: verbosity = 2; break;
        case OPT_P: ok = cli_parse_long(CMD, "--P", optarg, 1, SSCHED_REDIST_MAX_P, &P); break;
        case OPT_K: ok = cli_parse_long(CMD, "--K", optarg, 1, SSCHED_REDIST_MAX_K, &K); break;
        case OPT_N: ok = cli_parse_long(CMD, "--N", optarg, 1, LONG_MAX, &N); break;
        case OPT_X: ok = cli_parse_long(CMD, "--x", optarg, 1, LONG_MAX, &x); break;
        case OPT_SEED:
            ok = cli_parse_long(CMD, "--seed", optarg, 0, LONG_MAX, &seed);
            have_seed = 1;
            break;
        case OPT_BWMIN:
            ok = cli_parse_rational(CMD, "--bw-min", optarg, bw_min);
            bwmin_text = optarg;
            break;
        case OPT_BWMAX:
            ok = cli_parse_rational(CMD, "--bw-max", optarg, bw_max);
            bwmax_text = optarg;
            break;
        case OPT_STARTUP:
            ok = cli_parse_rational(CMD, "--startup", optarg, startup);
            if (ok && mpq_sgn(startup) < 0) {
                cli_bad_input(CMD, "option --startup: '%s' is negative", optarg);
                ok = 0;
            }
            break;
        case OPT_MATRIX: matrix = optarg; break;
        case OPT_ALGO: {
            ssched_redist_algorithm_t a;
            algorithm = ssched_redist_algorithm_parse(optarg, &a, NULL) == SSCHED_OK ? (int)a : -1;
            if (algorithm < 0) {
                cli_bad_input(CMD, "option --algorithm: '%s' is not direct, greedy or preemptive",
                              optarg);
                ok = 0;
            }
            break;
        }
        case OPT_JSON: json = 1; break;
        case OPT_MAX_MEMORY:
            ok = cli_parse_long(CMD, "--max-memory", optarg, 0, CLI_MAX_MEMORY_MB_LIMIT,
                                &max_memory);
            break;
        case OPT_MAX_WORK: ok = cli_parse_long(CMD, "--max-work", optarg, 0, LONG_MAX, &max_work); break;
        case 'h':
            cli_print_help(stdout, synopsis, redistribute_tables, redistribute_titles);
            rc = CLI_EXIT_OK;
            goto out;
        default:
            cli_bad_input(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
            goto out;
        }
        if (!ok)
            goto out;
    }
    if (optind < argc) {
        cli_bad_input(CMD, "unexpected argument '%s'", argv[optind]);
        goto out;
    }
    if (!P || !K || !N) {
        cli_bad_input(CMD, "missing option %s (see ssched redistribute --help)",
                      !P   ? "--P"
                      : !K ? "--K"
                           : "--N");
        goto out;
    }
    if (algorithm < 0) {
        cli_bad_input(CMD, "missing option --algorithm direct|greedy|preemptive");
        goto out;
    }
    if (matrix && (bwmin_text || bwmax_text || have_seed)) {
        cli_bad_input(CMD, "--matrix excludes --bw-min, --bw-max and --seed");
        goto out;
    }
    if (!matrix && (!bwmin_text || !bwmax_text)) {
        cli_bad_input(CMD, "missing bandwidths: give --bw-min and --bw-max, or --matrix FILE");
        goto out;
    }
    if (!matrix && mpq_sgn(bw_min) <= 0) {
        cli_bad_input(CMD, "option --bw-min: bandwidth '%s' is not positive", bwmin_text);
        goto out;
    }
    if (!matrix && mpq_cmp(bw_min, bw_max) > 0) {
        cli_bad_input(CMD, "option --bw-min: %s is larger than --bw-max %s", bwmin_text,
                      bwmax_text);
        goto out;
    }

    ssched_redist_t r;
    ssched_redist_schedule_t s;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_redist_init(&r);
    ssched_redist_schedule_init(&s);
    ssched_status_t st;
    if (matrix) {
        FILE *f = fopen(matrix, "r");
        if (!f) {
            st = ssched_error_set(&err, SSCHED_EINPUT, "--matrix %s: cannot open the file", matrix);
        } else {
            st = ssched_redist_network_read(&r, (size_t)P, f, matrix, &err);
            fclose(f);
        }
    } else {
        st = ssched_redist_network_random(&r, (size_t)P, bw_min, bw_max, (uint64_t)seed, &err);
    }
    if (st == SSCHED_OK)
        st = ssched_redist_build(&r, (size_t)K, (unsigned long)N, (unsigned long)x, startup, &err);
    if (st == SSCHED_OK) {
        /* refuse up front what would not finish in time or fit */
        double bytes, work;
        ssched_redist_estimate(&r, (ssched_redist_algorithm_t)algorithm, json, &bytes, &work);
        char what[160], est[64], lim[64];
        snprintf(what, sizeof what, "--algorithm %s on P = %ld, K = %ld (%zu messages)",
                 ssched_redist_algorithm_name((ssched_redist_algorithm_t)algorithm), P, K,
                 r.n_messages);
        if (max_memory && bytes > (double)max_memory * 1048576.0) {
            cli_format_bytes(bytes, est, sizeof est);
            snprintf(lim, sizeof lim, "%ld MB", max_memory);
            rc = cli_refuse(CMD, what, est, lim, "--max-memory MB");
            goto refused;
        }
        if (max_work && work > (double)max_work) {
            snprintf(est, sizeof est, "%.2g steps", work);
            snprintf(lim, sizeof lim, "%ld", max_work);
            rc = cli_refuse(CMD, what, est, lim, "--max-work STEPS");
            goto refused;
        }
        /* about a second or more (or --verbose): say what is going on */
        if ((work > 2e7 && verbosity >= 1) || verbosity >= 2)
            fprintf(stderr, "ssched %s: scheduling %zu messages with %s: %.3g steps, %.3g bytes, "
                    "about %.1f s (estimate)\n",
                    CMD, r.n_messages,
                    ssched_redist_algorithm_name((ssched_redist_algorithm_t)algorithm), work,
                    bytes, work / 2e7);
        double t0 = cli_now();
        st = ssched_redist_schedule(&r, (ssched_redist_algorithm_t)algorithm, &s, &err);
        if (st == SSCHED_OK && verbosity >= 2)
            fprintf(stderr, "ssched %s: scheduled in %.3f s\n", CMD, cli_now() - t0);
    }
    if (st == SSCHED_OK)
        st = json ? ssched_write_redist_json(stdout, &r, &s, &err)
                  : ssched_write_redist_text(stdout, &r, &s, &err);
    rc = st == SSCHED_OK ? CLI_EXIT_OK : cli_report(CMD, &err);
refused:
    ssched_redist_schedule_free(&s);
    ssched_redist_free(&r);
out:
    mpq_clear(bw_min);
    mpq_clear(bw_max);
    mpq_clear(startup);
    return rc;
}
