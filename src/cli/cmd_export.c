/* ssched export simgrid: the platform as a SimGrid platform file and an MPI
 * hostfile, to run planned schedules (and MPI's own collectives) in SMPI on
 * the platform they were planned for. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "ssched/export.h"
#include "ssched/platform.h"

static const char *usage_text =
    "usage: ssched export simgrid PLATFORM -o platform.xml --hostfile hosts.txt\n"
    "                     [--unit-bytes B (default 1000000)] [--flops-per-task F (default 1e9)]\n"
    "  every node a host of speed F / w, every directed edge its own link of\n"
    "  bandwidth B / c B/s and latency 0, Floyd routing; the hostfile puts rank i\n"
    "  on node i.  Simulate with smpirun --cfg=network/model:CM02\n"
    "  --cfg=network/crosstraffic:0 --cfg=network/weight-S:0\n"
    "  --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/test:0\n"
    "  --cfg=smpi/iprobe:0 --cfg=smpi/send-is-detached-thresh:0 (bench/smpi_exact.sh\n"
    "  --print-cfg B): with SMPI's 16-byte envelope cancelled, as ssched-exec-smpi\n"
    "  does, B bytes over an edge take exactly c seconds and a task w seconds.\n";

int cli_cmd_export(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "simgrid")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            fputs(usage_text, stdout);
            return CLI_EXIT_OK;
        }
        return cli_bad_input("export", "expected the format 'simgrid' (ssched export simgrid "
                             "PLATFORM -o platform.xml --hostfile hosts.txt)");
    }
    enum { O_HOSTFILE = 1, O_UNIT, O_FLOPS };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"hostfile", required_argument, NULL, O_HOSTFILE},
        {"unit-bytes", required_argument, NULL, O_UNIT},
        {"flops-per-task", required_argument, NULL, O_FLOPS},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *output = NULL, *hostfile = NULL;
    int seen[4] = {0}, c, rc = CLI_EXIT_OK;
    mpq_t unit, flops;
    mpq_inits(unit, flops, NULL);
    mpq_set_ui(unit, 1000000, 1);
    mpq_set_ui(flops, 1000000000, 1);
    opterr = 0;
    optind = 1;
    argc--;
    argv++;
    while (rc == CLI_EXIT_OK && (c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        int slot = c == 'o' ? 0 : c == O_HOSTFILE ? 1 : c == O_UNIT ? 2 : c == O_FLOPS ? 3 : -1;
        if (slot >= 0 && seen[slot]++) {
            rc = cli_bad_input("export", "option %s given twice", argv[optind - 1]);
            break;
        }
        switch (c) {
        case 'o': output = optarg; break;
        case O_HOSTFILE: hostfile = optarg; break;
        case O_UNIT:
            if (!cli_parse_rational("export", "--unit-bytes", optarg, unit))
                rc = CLI_EXIT_BADINPUT;
            break;
        case O_FLOPS:
            if (!cli_parse_rational("export", "--flops-per-task", optarg, flops))
                rc = CLI_EXIT_BADINPUT;
            break;
        case 'h': fputs(usage_text, stdout); mpq_clears(unit, flops, NULL); return CLI_EXIT_OK;
        default:
            rc = cli_bad_input("export", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    const char *path = rc == CLI_EXIT_OK && optind < argc ? argv[optind++] : NULL;
    if (rc == CLI_EXIT_OK && optind < argc)
        rc = cli_bad_input("export", "unexpected argument '%s'", argv[optind]);
    else if (rc == CLI_EXIT_OK && !path)
        rc = cli_bad_input("export", "missing PLATFORM");
    else if (rc == CLI_EXIT_OK && (!output || !hostfile))
        rc = cli_bad_input("export", "missing -o platform.xml or --hostfile hosts.txt");
    else if (rc == CLI_EXIT_OK && !strcmp(output, "-") && !strcmp(hostfile, "-"))
        rc = cli_bad_input("export", "-o - and --hostfile -: only one of them can be stdout");
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    ssched_error_clear(&err);
    if (rc == CLI_EXIT_OK && ssched_platform_load(&p, path, NULL, &err) != SSCHED_OK)
        rc = cli_report("export", &err);
    if (rc == CLI_EXIT_OK) {
        FILE *x = cli_open_output(output), *h = x ? cli_open_output(hostfile) : NULL;
        if (!x || !h) {
            rc = cli_bad_input("export", "%s: cannot write the file", !x ? output : hostfile);
        } else if (ssched_write_platform_simgrid(x, h, &p, unit, flops, &err) != SSCHED_OK) {
            rc = cli_report("export", &err);
        }
        if (x && cli_close_output(x) != 0 && rc == CLI_EXIT_OK)
            rc = cli_bad_input("export", "%s: write error", output);
        if (h && cli_close_output(h) != 0 && rc == CLI_EXIT_OK)
            rc = cli_bad_input("export", "%s: write error", hostfile);
        /* the summary line would corrupt a file written to stdout */
        if (rc == CLI_EXIT_OK && strcmp(output, "-") && strcmp(hostfile, "-"))
            printf("wrote %s (%zu hosts, %zu links) and %s\n", output, p.n_nodes, p.n_edges,
                   hostfile);
    }
    ssched_platform_free(&p);
    mpq_clears(unit, flops, NULL);
    return rc;
}
