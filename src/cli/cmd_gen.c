/* `ssched gen tiers`: write a seeded Tiers-like WAN/MAN/LAN platform as
 * GraphML.  A thin layer over include/ssched/gen.h: parse options into
 * ssched_gen_tiers_params_t, generate, write.  Every bad option is reported
 * on exactly one stderr line with exit status 2. */
#include "src/cli/cli.h"
#include "src/cli/cli_options.h"
#include "ssched/export.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/gen.h"
#include "ssched/platform.h"

#define CMD "gen tiers"

static const char *synopsis =
    "usage: ssched gen tiers [options] [-o FILE]\n"
    "\n"
    "Seeded Tiers-like platform (Calvert, Doar, Zegura 1997): a WAN of routers\n"
    "wan<a>, one MAN of routers man<a>_<b> per WAN router, LANs lan<a>_<b>_<c>\n"
    "attached to MAN routers, each a star of hosts h<a>_<b>_<c>_<d>.  Only hosts\n"
    "have a task time w.  Each link is two directed edges with independent costs.\n"
    "Numbers are exact: 3, 1/3, 0.25, 2.5e-1.  LO:HI may be a single value.\n"
    "\n";

static void gen_usage(FILE *out)
{
    fputs("usage: ssched gen GENERATOR [options]\n\ngenerators:\n"
          "  tiers   hierarchical WAN/MAN/LAN platform (ssched gen tiers --help)\n",
          out);
}

/* Unsigned 64-bit decimal seed; signs, blanks and trailing text are rejected. */
static int parse_seed(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = 0;
    int ok = text[0] >= '0' && text[0] <= '9';
    if (ok) {
        v = strtoull(text, &end, 10);
        ok = !errno && *end == '\0' && v <= UINT64_MAX;
    }
    if (!ok) {
        cli_bad_input(CMD, "option --seed: '%s' is not an unsigned 64-bit integer", text);
        return 0;
    }
    *out = (uint64_t)v;
    return 1;
}

static int parse_count(const char *option, const char *text, size_t *out)
{
    long v;
    if (!cli_parse_long(CMD, option, text, 0, 1000000000L, &v))
        return 0;
    *out = (size_t)v;
    return 1;
}

static int parse_range(const char *option, const char *text, ssched_gen_range_t *r)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ssched_gen_range_parse(r, text, &err) != SSCHED_OK) {
        cli_bad_input(CMD, "option %s: %s", option, err.message);
        return 0;
    }
    return 1;
}

enum {
    OPT_SEED = 256, OPT_NODES, OPT_WAN, OPT_MAN, OPT_LAN, OPT_HOSTS, OPT_WAN_RED,
    OPT_MAN_RED, OPT_C_WAN, OPT_C_MAN, OPT_C_LAN, OPT_W, OPT_MAX_DEN, OPT_COUNTS
};

static const cli_opt_t gen_table[] = {
    {{"seed", required_argument, NULL, OPT_SEED}, "S", "PRNG seed, unsigned 64-bit (default 1)"},
    {{"nodes", required_argument, NULL, OPT_NODES}, "N",
     "pick --wan/--man-per-wan/--lan-per-man/--hosts-per-lan for about N nodes (balanced "
     "shape, see gen.h)"},
    {{"wan", required_argument, NULL, OPT_WAN}, "W", "WAN routers (default 4)"},
    {{"man-per-wan", required_argument, NULL, OPT_MAN}, "M", "MAN routers per WAN router (default 2)"},
    {{"lan-per-man", required_argument, NULL, OPT_LAN}, "L", "LANs per MAN router (default 2)"},
    {{"hosts-per-lan", required_argument, NULL, OPT_HOSTS}, "H", "hosts per LAN (default 3)"},
    {{"wan-redundancy", required_argument, NULL, OPT_WAN_RED}, "R",
     "WAN links beyond the spanning tree (default 2)"},
    {{"man-redundancy", required_argument, NULL, OPT_MAN_RED}, "R",
     "links per MAN beyond its spanning tree (default 1)"},
    {{"c-wan", required_argument, NULL, OPT_C_WAN}, "LO:HI",
     "WAN and MAN-to-WAN link costs (default 2:10)"},
    {{"c-man", required_argument, NULL, OPT_C_MAN}, "LO:HI",
     "MAN and LAN-to-MAN link costs (default 1:4)"},
    {{"c-lan", required_argument, NULL, OPT_C_LAN}, "LO:HI", "host link costs (default 1/10:1)"},
    {{"w-range", required_argument, NULL, OPT_W}, "LO:HI", "host task times (default 1/2:5)"},
    {{"max-den", required_argument, NULL, OPT_MAX_DEN}, "D",
     "values are p/q with q <= D, plus LO and HI (default 10)"},
    {{"counts", no_argument, NULL, OPT_COUNTS}, NULL,
     "print \"nodes N edges E\" instead of the platform"},
    {{"output", required_argument, NULL, 'o'}, "FILE", "write there instead of stdout"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const gen_tables[] = {gen_table, NULL};
static const char *const gen_titles[] = {"options:", NULL};


/* Parse argv (argv[0] == "tiers") into params.  Returns -1 to go on,
 * otherwise the exit status (help printed, or one error line printed). */
static int parse_options(int argc, char **argv, ssched_gen_tiers_params_t *P,
                         const char **output, int *counts_only)
{
    long nodes = 0;
    int shape_set = 0, seen[OPT_COUNTS - OPT_SEED + 2] = {0};
    struct option long_options[CLI_MAX_OPTIONS];
    cli_longopts(gen_tables, long_options);
    opterr = 0;
    optind = 1;
    for (;;) {
        int opt = getopt_long(argc, argv, ":o:h", long_options, NULL);
        if (opt == -1)
            break;
        /* a single-value option given twice is an error, not last-wins */
        if (opt >= OPT_SEED && opt < OPT_COUNTS) {
            char name[40];
            snprintf(name, sizeof name, "--%s", cli_option_name(gen_tables, opt));
            if (!cli_once(CMD, name, &seen[opt - OPT_SEED]))
                return CLI_EXIT_BADINPUT;
        }
        if (opt == 'o' && !cli_once(CMD, "-o/--output", &seen[OPT_COUNTS - OPT_SEED + 1]))
            return CLI_EXIT_BADINPUT;
        int ok = 1;
        switch (opt) {
        case OPT_SEED: ok = parse_seed(optarg, &P->seed); break;
        case OPT_NODES: ok = cli_parse_long(CMD, "--nodes", optarg, 1, SSCHED_GEN_MAX_NODES, &nodes); break;
        case OPT_WAN: ok = parse_count("--wan", optarg, &P->wan); shape_set = 1; break;
        case OPT_MAN: ok = parse_count("--man-per-wan", optarg, &P->man_per_wan); shape_set = 1; break;
        case OPT_LAN: ok = parse_count("--lan-per-man", optarg, &P->lan_per_man); shape_set = 1; break;
        case OPT_HOSTS: ok = parse_count("--hosts-per-lan", optarg, &P->hosts_per_lan); shape_set = 1; break;
        case OPT_WAN_RED: ok = parse_count("--wan-redundancy", optarg, &P->wan_redundancy); break;
        case OPT_MAN_RED: ok = parse_count("--man-redundancy", optarg, &P->man_redundancy); break;
        case OPT_C_WAN: ok = parse_range("--c-wan", optarg, &P->c_wan); break;
        case OPT_C_MAN: ok = parse_range("--c-man", optarg, &P->c_man); break;
        case OPT_C_LAN: ok = parse_range("--c-lan", optarg, &P->c_lan); break;
        case OPT_W: ok = parse_range("--w-range", optarg, &P->w); break;
        case OPT_MAX_DEN: {
            long d;
            ok = cli_parse_long(CMD, "--max-den", optarg, 1, SSCHED_GEN_MAX_DEN, &d);
            if (ok)
                P->max_den = (unsigned long)d;
            break;
        }
        case OPT_COUNTS: *counts_only = 1; break;
        case 'o': *output = optarg; break;
        case 'h': cli_print_help(stdout, synopsis, gen_tables, gen_titles); return CLI_EXIT_OK;
        case ':':
            return cli_bad_input(CMD, "option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt)
                return cli_bad_input(CMD, "unknown option '-%c' (try ssched gen tiers --help)", optopt);
            return cli_bad_input(CMD, "unknown option '%s' (try ssched gen tiers --help)",
                                 argv[optind - 1]);
        }
        if (!ok)
            return CLI_EXIT_BADINPUT;
    }
    if (optind < argc)
        return cli_bad_input(CMD, "unexpected argument '%s'", argv[optind]);
    if (nodes && shape_set)
        return cli_bad_input(CMD, "--nodes cannot be combined with --wan, --man-per-wan, "
                                  "--lan-per-man or --hosts-per-lan");
    if (nodes) {
        ssched_error_t err;
        ssched_error_clear(&err);
        if (ssched_gen_tiers_shape_for_nodes(P, (size_t)nodes, &err) != SSCHED_OK)
            return cli_report(CMD, &err);
    }
    return -1;
}

static int write_platform(const ssched_platform_t *p, const char *output)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    cli_out_t out;
    int rc = cli_out_open(&out, CMD, "-o", output);
    if (rc != CLI_EXIT_OK)
        return rc;
    ssched_status_t st = ssched_write_platform_graphml(out.f, p, &err);
    return cli_out_finish(&out, CMD, st, &err);
}

static int run_tiers(int argc, char **argv)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    const char *output = NULL;
    int counts_only = 0;
    int rc = parse_options(argc, argv, &P, &output, &counts_only);
    if (rc >= 0) {
        ssched_gen_tiers_params_free(&P);
        return rc;
    }
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_platform_t p;
    ssched_platform_init(&p);
    size_t n_nodes, n_edges;
    if (ssched_gen_tiers_counts(&P, &n_nodes, &n_edges, &err) != SSCHED_OK)
        rc = cli_report(CMD, &err);
    else if (counts_only) {
        printf("nodes %zu edges %zu wan %zu man-per-wan %zu lan-per-man %zu hosts-per-lan %zu\n",
               n_nodes, n_edges, P.wan, P.man_per_wan, P.lan_per_man, P.hosts_per_lan);
        rc = CLI_EXIT_OK;
    } else if (ssched_gen_tiers(&P, &p, &err) != SSCHED_OK)
        rc = cli_report(CMD, &err);
    else
        rc = write_platform(&p, output);
    ssched_platform_free(&p);
    ssched_gen_tiers_params_free(&P);
    return rc;
}

int cli_cmd_gen(int argc, char **argv)
{
    if (argc < 2)
        return cli_bad_input("gen", "missing generator name (try ssched gen --help)");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        gen_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "tiers"))
        return run_tiers(argc - 1, argv + 1);
    return cli_bad_input("gen", "unknown generator '%s' (known: tiers)", argv[1]);
}
