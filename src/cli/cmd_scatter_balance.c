/* ssched scatter-balance: load-balanced scatter of n items (seed 004). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/cli_options.h"
#include "ssched/export.h"
#include "ssched/scatter_balance.h"

#define CMD "scatter-balance"

static const char *synopsis =
    "usage: ssched scatter-balance FILE.csv --items N [options]\n"
    "  ALG:   exact (default; exact integer optimum, fast), dp (Algorithm 1), dp-fast\n"
    "         (Algorithm 2), lp (LP (3) + rounding), closed-form (Theorems 1-2 +\n"
    "         rounding), uniform (MPI_Scatter)\n"
    "  ORDER: given (default), bandwidth-desc, bandwidth-asc; the root is always last\n"
    "  FILE:  name,mu,lambda[,mu0,lambda0][,cpu]  or  name,items,comm,comp (tables)\n"
    "         one processor per line; x items cost processor i the computation time\n"
    "         mu*x + mu0 and the communication time lambda*x + lambda0 (seconds; mu:\n"
    "         compute time per item, lambda: transfer time per item, mu0/lambda0:\n"
    "         start-up terms, default 0)\n"
    "  Limits: dp makes (p-1)(N+1)(N+2)/2 evaluations and is refused up front (exit 2)\n"
    "  above --max-work (default 10000000000, about 10 s; 0 = none); dp-fast stops\n"
    "  with exit 2 when it passes that budget; both are refused when their tables\n"
    "  would exceed --max-memory MB (default 4096).  Progress after a second\n"
    "  (--quiet: never; --verbose: from the start).\n";

static const cli_opt_t sb_table[] = {
    {{"items", required_argument, NULL, 'n'}, "N", "the items to scatter"},
    {{"algorithm", required_argument, NULL, 'a'}, "ALG", "as above (default exact)"},
    {{"order", required_argument, NULL, 'o'}, "ORDER", "as above (default given)"},
    {{"root", required_argument, NULL, 'r'}, "NAME", "the processor that scatters"},
    {{"choose-root", no_argument, NULL, 'c'}, NULL, "try every processor as the root"},
    {{"holder", required_argument, NULL, 'H'}, "NAME",
     "the processor holding the data, if not the root"},
    {{"json", no_argument, NULL, 'j'}, NULL, "the distribution as JSON"},
    {{"plot", required_argument, NULL, 'p'}, "FILE.svg", "a chart of the distribution"},
    {{"max-memory", required_argument, NULL, 'M'}, "MB", "limit on the tables (default 4096)"},
    {{"max-work", required_argument, NULL, 'W'}, "EVALUATIONS",
     "limit on dp's evaluations (default 10000000000; 0 = none)"},
    {{"quiet", no_argument, NULL, 'q'}, NULL, "no progress lines"},
    {{"verbose", no_argument, NULL, 'v'}, NULL, "progress from the start"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const sb_tables[] = {sb_table, NULL};
static const char *const sb_titles[] = {"options:", NULL};

#define DEFAULT_MAX_WORK 10000000000LL

typedef struct {
    const char *path, *root_name, *holder_name, *plot;
    long n, max_memory;
    long max_work;
    int have_n, json, choose_root;
    ssched_sb_algorithm_t alg;
    ssched_sb_order_t order;
    int progress; /* cli_progress_t level: --quiet 0, default 1, --verbose 2 */
} opts_t;

static int parse_args(int argc, char **argv, opts_t *o, int *exit_now)
{
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(sb_tables, longopts);
    memset(o, 0, sizeof *o);
    o->alg = SSCHED_SB_EXACT;
    o->order = SSCHED_SB_ORDER_GIVEN;
    o->max_memory = CLI_DEFAULT_MAX_MEMORY_MB;
    o->max_work = (long)DEFAULT_MAX_WORK;
    o->progress = 1;
    int c, seen_n = 0, seen_a = 0, seen_o = 0, seen_r = 0, seen_H = 0, seen_p = 0, seen_M = 0,
           seen_W = 0;
    opterr = 0;
    optind = 1;
    *exit_now = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (!cli_once(CMD, "--items", &seen_n) ||
                !cli_parse_long(CMD, "--items", optarg, 0, LONG_MAX / 4, &o->n))
                return CLI_EXIT_BADINPUT;
            o->have_n = 1;
            break;
        case 'a':
            if (!cli_once(CMD, "--algorithm", &seen_a))
                return CLI_EXIT_BADINPUT;
            if (ssched_sb_algorithm_parse(optarg, &o->alg, NULL) != SSCHED_OK)
                return cli_bad_input(CMD, "unknown algorithm '%s' (dp, dp-fast, exact, lp, "
                                          "closed-form, uniform)", optarg);
            break;
        case 'o':
            if (!cli_once(CMD, "--order", &seen_o))
                return CLI_EXIT_BADINPUT;
            if (ssched_sb_order_parse(optarg, &o->order, NULL) != SSCHED_OK)
                return cli_bad_input(CMD, "unknown order '%s' (given, bandwidth-desc, "
                                          "bandwidth-asc)", optarg);
            break;
        case 'r':
            if (!cli_once(CMD, "--root", &seen_r))
                return CLI_EXIT_BADINPUT;
            o->root_name = optarg;
            break;
        case 'H':
            if (!cli_once(CMD, "--holder", &seen_H))
                return CLI_EXIT_BADINPUT;
            o->holder_name = optarg;
            break;
        case 'M':
            if (!cli_once(CMD, "--max-memory", &seen_M) ||
                !cli_parse_long(CMD, "--max-memory", optarg, 0, CLI_MAX_MEMORY_MB_LIMIT,
                                &o->max_memory))
                return CLI_EXIT_BADINPUT;
            break;
        case 'W':
            if (!cli_once(CMD, "--max-work", &seen_W) ||
                !cli_parse_long(CMD, "--max-work", optarg, 0, LONG_MAX, &o->max_work))
                return CLI_EXIT_BADINPUT;
            break;
        case 'c': o->choose_root = 1; break;
        case 'q': o->progress = 0; break;
        case 'v': o->progress = 2; break;
        case 'j': o->json = 1; break;
        case 'p':
            if (!cli_once(CMD, "--plot", &seen_p))
                return CLI_EXIT_BADINPUT;
            o->plot = optarg;
            break;
        case 'h':
            cli_print_help(stdout, synopsis, sb_tables, sb_titles);
            *exit_now = 1;
            return CLI_EXIT_OK;
        default:
            return cli_bad_input(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        o->path = argv[optind++];
    if (optind < argc)
        return cli_bad_input(CMD, "unexpected argument '%s'", argv[optind]);
    if (!o->path)
        return cli_bad_input(CMD, "missing FILE.csv (see ssched scatter-balance --help)");
    if (!o->have_n)
        return cli_bad_input(CMD, "missing --items N");
    if (o->choose_root && o->root_name)
        return cli_bad_input(CMD, "--root and --choose-root exclude each other");
    return CLI_EXIT_OK;
}

static int write_plot(const opts_t *o, const ssched_sb_report_t *r)
{
    cli_out_t out;
    int rc = cli_out_open(&out, CMD, "--plot", o->plot);
    if (rc != CLI_EXIT_OK)
        return rc;
    char title[256];
    snprintf(title, sizeof title, "%s: %ld items, %s, order %s", o->path, r->result->n,
             ssched_sb_algorithm_name(r->result->algorithm), ssched_sb_order_name(o->order));
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_write_sb_svg(out.f, r->instance, r->result, title, &err);
    return cli_out_finish(&out, CMD, st, &err);
}

/* DP progress on stderr (cli_progress_t: --quiet, --verbose). */
static void progress_line(void *ctx, long long evaluations, double done)
{
    cli_progress_t *p = ctx;
    if (cli_progress_due(p))
        fprintf(stderr, "ssched %s: %.1f s, %.0f%% of the DP levels, %lld evaluations\n", CMD,
                cli_now() - p->start, 100 * done, evaluations);
}

/* Refuse up front what the limits cannot hold; 0 if it may run. */
static int check_limits(const opts_t *o, const ssched_sb_platform_t *pl)
{
    double bytes, evals;
    ssched_sb_estimate(pl, o->n, o->alg, &bytes, &evals);
    /* --choose-root solves once per candidate root */
    double runs = o->choose_root ? (double)pl->p + 1 : 1;
    char est[64], lim[64], what[160];
    snprintf(what, sizeof what, "--algorithm %s with --items %ld on %zu processors",
             ssched_sb_algorithm_name(o->alg), o->n, pl->p);
    if (o->max_memory && bytes > (double)o->max_memory * 1048576.0) {
        cli_format_bytes(bytes, est, sizeof est);
        snprintf(lim, sizeof lim, "%ld MB", o->max_memory);
        return cli_refuse(CMD, what, est, lim, "--max-memory MB");
    }
    if (o->max_work && o->alg == SSCHED_SB_DP && evals * runs > (double)o->max_work) {
        snprintf(est, sizeof est, "%.2g evaluations", evals * runs);
        snprintf(lim, sizeof lim, "%ld", o->max_work);
        return cli_refuse(CMD, what, est, lim, "--max-work EVALUATIONS (or use --algorithm exact)");
    }
    return CLI_EXIT_OK;
}

static long find_proc(const ssched_sb_platform_t *pl, const char *name, const char *opt, int *rc)
{
    long k = ssched_sb_platform_find(pl, name);
    if (k < 0)
        *rc = cli_bad_input(CMD, "%s: unknown processor '%s'", opt, name);
    return k;
}

int cli_cmd_scatter_balance(int argc, char **argv)
{
    opts_t o;
    int exit_now;
    int rc = parse_args(argc, argv, &o, &exit_now);
    if (rc != CLI_EXIT_OK || exit_now)
        return rc;

    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_sb_platform_t pl, inst;
    ssched_sb_platform_init(&pl);
    ssched_sb_platform_init(&inst);
    ssched_sb_result_t res;
    ssched_sb_result_init(&res);
    ssched_sb_root_eval_t *evals = NULL;
    mpq_t pre;
    mpq_init(pre);
    size_t holder = 0, root = 0;
    cli_progress_t prog;
    cli_progress_init(&prog, o.progress);
    ssched_sb_limits_t lim = {o.max_work, progress_line, &prog};

    if (ssched_sb_platform_load_csv(&pl, o.path, &err) != SSCHED_OK) {
        rc = cli_report(CMD, &err);
        goto out;
    }
    if ((rc = check_limits(&o, &pl)) != CLI_EXIT_OK)
        goto out;
    holder = ssched_sb_platform_holder(&pl);
    if (o.holder_name) {
        long k = find_proc(&pl, o.holder_name, "--holder", &rc);
        if (k < 0)
            goto out;
        holder = (size_t)k;
    }
    root = holder;
    if (o.root_name) {
        long k = find_proc(&pl, o.root_name, "--root", &rc);
        if (k < 0)
            goto out;
        root = (size_t)k;
    }
    if (o.choose_root) {
        evals = calloc(pl.p, sizeof *evals);
        if (!evals) {
            rc = CLI_EXIT_FAILURE;
            fprintf(stderr, "ssched %s: out of memory\n", CMD);
            goto out;
        }
        if (ssched_sb_choose_root(&pl, holder, o.order, o.n, o.alg, &root, evals, &err) !=
            SSCHED_OK) {
            rc = cli_report(CMD, &err);
            goto out;
        }
    }
    if (ssched_sb_arrange(&pl, holder, root, o.order, o.n, &inst, pre, &err) != SSCHED_OK ||
        ssched_sb_solve_limited(&inst, o.n, o.alg, &lim, &res, &err) != SSCHED_OK) {
        if (err.status == SSCHED_ELIMIT) {
            rc = cli_bad_input(CMD, "--algorithm %s with --items %ld: %s; raise it with "
                                    "--max-work EVALUATIONS (or use --algorithm exact)",
                               ssched_sb_algorithm_name(o.alg), o.n, err.message);
            goto out;
        }
        rc = cli_report(CMD, &err);
        goto out;
    }
    ssched_sb_report_t r = {o.path, &pl, &inst, holder, root, o.order, pre, &res, evals};
    if (o.plot && (rc = write_plot(&o, &r)) != CLI_EXIT_OK)
        goto out;
    if ((o.json ? ssched_write_sb_json : ssched_write_sb_text)(stdout, &r, &err) != SSCHED_OK)
        rc = cli_report(CMD, &err);
out:
    if (evals) {
        ssched_sb_root_evals_free(evals, pl.p);
        free(evals);
    }
    mpq_clear(pre);
    ssched_sb_result_free(&res);
    ssched_sb_platform_free(&inst);
    ssched_sb_platform_free(&pl);
    return rc;
}
