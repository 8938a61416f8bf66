/* ssched export simgrid | hostfile: the platform as a SimGrid platform file
 * and an MPI hostfile, to run planned schedules (and MPI's own collectives)
 * in SMPI on the platform they were planned for; or only the hostfile of a
 * platform, e.g. to run on the user's own SimGrid file.
 *
 * Nothing is created before everything is known to be right: the options
 * are checked, the platform is read and both documents are written to
 * memory first; each file is then written to a temporary file in its own
 * folder (cli_out_t) and renamed over PATH only once both are complete
 * (issue 24 item 2). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/cli/cli_options.h"
#include "ssched/export.h"
#include "ssched/platform.h"

static const char *synopsis =
    "usage: ssched export simgrid PLATFORM -o platform.xml --hostfile hosts.txt [options]\n"
    "       ssched export hostfile PLATFORM -o hosts.txt [options]\n"
    "  simgrid: every node a host of speed F / w (a switch, ports=multi, a router),\n"
    "  every directed edge its own link of bandwidth B / c B/s and latency l(e) s,\n"
    "  Floyd routing; a SimGrid or matrix PLATFORM keeps its links and routes (Full\n"
    "  routing).  hostfile: the hosts in node order, rank i on the i-th host; for a\n"
    "  SimGrid file, SimGrid's own host order, so that\n"
    "    smpirun -platform PLATFORM.xml -hostfile hosts.txt ssched-exec-smpi plan.json\n"
    "  runs on the original file.  Simulate with the exact configuration\n"
    "  (bench/smpi_exact.sh --print-cfg B): with SMPI's 16-byte envelope cancelled,\n"
    "  as ssched-exec-smpi does, B bytes over an edge take exactly l + c seconds and\n"
    "  a task w seconds.  --cost-from/--speed-from read GraphML/GML bandwidths and\n"
    "  speeds with the same B and F.\n";

enum { O_HOSTFILE = 1, O_UNIT, O_FLOPS, O_FORMAT, O_COST, O_SPEED };
static const cli_opt_t export_table[] = {
    {{"output", required_argument, NULL, 'o'}, "FILE",
     "simgrid: the platform file; hostfile: the hostfile"},
    {{"hostfile", required_argument, NULL, O_HOSTFILE}, "FILE", "simgrid: the hostfile too"},
    {{"unit-bytes", required_argument, NULL, O_UNIT}, "B",
     "bytes of a unit message (default 1000000)"},
    {{"flops-per-task", required_argument, NULL, O_FLOPS}, "F",
     "flops of a reduction task (default 1e9)"},
    {{"format", required_argument, NULL, O_FORMAT}, "graphml|gml|simgrid|matrix",
     "the platform file's format (default: by extension, else by content)"},
    {{"cost-from", required_argument, NULL, O_COST}, "ATTR",
     "edge attribute ATTR is a bandwidth in bytes per second"},
    {{"speed-from", required_argument, NULL, O_SPEED}, "ATTR",
     "node attribute ATTR is a speed in flops per second"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const export_tables[] = {export_table, NULL};
static const char *const export_titles[] = {"options:", NULL};

/* The same file? (names equal, or both existing with one inode) */
static int same_file(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return 1;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* The documents to their paths ("-": stdout), all or nothing as far as a
 * rename allows: every output is opened (a temporary file beside its path,
 * cli_out_t) and written before the first is renamed into place. */
static int write_outputs(size_t k, const char *const *paths, char *const *data,
                         const size_t *len)
{
    static const char *const option[2] = {"-o", "--hostfile"};
    cli_out_t out[2];
    size_t opened = 0;
    int rc = CLI_EXIT_OK;
    for (; opened < k && rc == CLI_EXIT_OK; opened++) {
        rc = cli_out_open(&out[opened], "export", option[opened], paths[opened]);
        if (rc != CLI_EXIT_OK)
            break;
        fwrite(data[opened], 1, len[opened], out[opened].f); /* errors: at finish */
    }
    for (size_t i = 0; i < opened; i++) {
        if (rc != CLI_EXIT_OK)
            cli_out_abandon(&out[i]);
        else
            rc = cli_out_finish(&out[i], "export", SSCHED_OK, NULL);
    }
    return rc;
}

typedef struct {
    const char *output, *hostfile, *format, *cost_from, *speed_from, *path;
    int unit_given, flops_given;
} export_opts_t;

static int parse(int argc, char **argv, export_opts_t *o, mpq_t unit, mpq_t flops)
{
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(export_tables, longopts);
    int seen[7] = {0}, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        int slot = c == 'o' ? 0 : (c >= O_HOSTFILE && c <= O_SPEED) ? c : -1;
        if (slot >= 0 && seen[slot]++)
            return cli_bad_input("export", "option %s given twice", argv[optind - 1]);
        switch (c) {
        case 'o': o->output = optarg; break;
        case O_HOSTFILE: o->hostfile = optarg; break;
        case O_FORMAT: o->format = optarg; break;
        case O_COST: o->cost_from = optarg; break;
        case O_SPEED: o->speed_from = optarg; break;
        case O_UNIT:
            o->unit_given = 1;
            if (!cli_parse_rational("export", "--unit-bytes", optarg, unit))
                return CLI_EXIT_BADINPUT;
            break;
        case O_FLOPS:
            o->flops_given = 1;
            if (!cli_parse_rational("export", "--flops-per-task", optarg, flops))
                return CLI_EXIT_BADINPUT;
            break;
        case 'h': cli_print_help(stdout, synopsis, export_tables, export_titles); return -1;
        default:
            return cli_bad_input("export", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    o->path = optind < argc ? argv[optind++] : NULL;
    if (optind < argc)
        return cli_bad_input("export", "unexpected argument '%s'", argv[optind]);
    if (!o->path)
        return cli_bad_input("export", "missing PLATFORM");
    if (mpq_sgn(unit) <= 0 || mpq_sgn(flops) <= 0)
        return cli_bad_input("export", "%s must be positive",
                             mpq_sgn(unit) <= 0 ? "--unit-bytes" : "--flops-per-task");
    return CLI_EXIT_OK;
}

static int check_paths(int simgrid, const export_opts_t *o)
{
    if (simgrid && (!o->output || !o->hostfile))
        return cli_bad_input("export", "missing -o platform.xml or --hostfile hosts.txt");
    if (!simgrid && !o->output)
        return cli_bad_input("export", "missing -o hosts.txt");
    if (!simgrid && o->hostfile)
        return cli_bad_input("export", "export hostfile writes only -o hosts.txt (--hostfile "
                             "belongs to export simgrid)");
    if (simgrid && same_file(o->output, o->hostfile))
        return cli_bad_input("export", "-o and --hostfile name the same file '%s'",
                             !strcmp(o->output, "-") ? "-" : o->output);
    return CLI_EXIT_OK;
}

int cli_cmd_export(int argc, char **argv)
{
    int simgrid = argc >= 2 && !strcmp(argv[1], "simgrid");
    if (!simgrid && !(argc >= 2 && !strcmp(argv[1], "hostfile"))) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            cli_print_help(stdout, synopsis, export_tables, export_titles);
            return CLI_EXIT_OK;
        }
        return cli_bad_input("export", "expected the format 'simgrid' (ssched export simgrid "
                             "PLATFORM -o platform.xml --hostfile hosts.txt) or 'hostfile'");
    }
    export_opts_t o = {0};
    mpq_t unit, flops;
    mpq_inits(unit, flops, NULL);
    mpq_set_ui(unit, 1000000, 1);
    mpq_set_ui(flops, 1000000000, 1);
    int rc = parse(argc - 1, argv + 1, &o, unit, flops);
    if (rc < 0) { /* --help */
        mpq_clears(unit, flops, NULL);
        return CLI_EXIT_OK;
    }
    if (rc == CLI_EXIT_OK)
        rc = check_paths(simgrid, &o);
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    if (rc == CLI_EXIT_OK && o.format &&
        (ssched_platform_format_parse(o.format, &ro.format, NULL) != SSCHED_OK ||
         ro.format == SSCHED_PLATFORM_AUTO))
        rc = cli_bad_input("export", "--format: unknown platform format '%s' (graphml, gml, "
                           "simgrid or matrix)", o.format);
    ro.cost_from = o.cost_from;
    ro.speed_from = o.speed_from;
    ro.unit_bytes = unit;
    ro.flops_per_task = flops;
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    ssched_error_clear(&err);
    if (rc == CLI_EXIT_OK && ssched_platform_load(&p, o.path, &ro, &err) != SSCHED_OK)
        rc = cli_report("export", &err);
    char *data[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    if (rc == CLI_EXIT_OK) {
        FILE *m0 = open_memstream(&data[0], &len[0]);
        FILE *m1 = simgrid && m0 ? open_memstream(&data[1], &len[1]) : NULL;
        ssched_status_t st = SSCHED_ENOMEM;
        if (m0 && (m1 || !simgrid)) {
            ssched_error_set(&err, SSCHED_ENOMEM, "out of memory");
            st = simgrid ? ssched_write_platform_simgrid(m0, m1, &p, unit, flops, &err)
                         : ssched_write_platform_hostfile(m0, &p, &err);
        }
        if (m0 && fclose(m0) != 0 && st == SSCHED_OK)
            st = ssched_error_set(&err, SSCHED_ENOMEM, "out of memory");
        if (m1 && fclose(m1) != 0 && st == SSCHED_OK)
            st = ssched_error_set(&err, SSCHED_ENOMEM, "out of memory");
        if (st != SSCHED_OK)
            rc = cli_report("export", &err);
    }
    if (rc == CLI_EXIT_OK) {
        const char *paths[2] = {o.output, o.hostfile};
        rc = write_outputs(simgrid ? 2 : 1, paths, data, len);
    }
    size_t hosts = 0;
    for (size_t i = 0; i < p.n_nodes; i++)
        hosts += p.routes || !p.multiport[i];
    /* the summary line would corrupt a file written to stdout */
    if (rc == CLI_EXIT_OK && strcmp(o.output, "-") && (!simgrid || strcmp(o.hostfile, "-"))) {
        if (simgrid)
            printf("wrote %s (%zu hosts, %zu routers, %zu links) and %s\n", o.output, hosts,
                   p.n_nodes - hosts, p.routes ? p.routes->n_links : p.n_edges, o.hostfile);
        else
            printf("wrote %s (%zu hosts)\n", o.output, hosts);
    }
    free(data[0]);
    free(data[1]);
    ssched_platform_free(&p);
    mpq_clears(unit, flops, NULL);
    return rc;
}
