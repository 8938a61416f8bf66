/* ssched check: the independent schedule checker.
 * Exit 0 valid; 1 with the first violation; 2 unreadable or malformed file,
 * or a problem too large to solve again within --max-solve-size (the
 * throughput a file claims is verified by solving its problem again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "ssched/schedule.h"

static const char *usage_text =
    "usage: ssched check SCHEDULE.json [--max-solve-size N]\n"
    "  exit 0 valid, 1 invalid (the first violation is printed), 2 bad file\n"
    "  The file's throughput claims (throughput, upper_bound, optimal, lower_bound,\n"
    "  ratio) are verified by solving its problem on its platform again.\n"
    "  A routed-model file (platform \"model\": \"routed\") is held to its links:\n"
    "  SHARED link loads per slot (periodic), no two transfers at once on a\n"
    "  SHARED link (unrolled), and its hosts' ports only when \"one-port\".\n"
    "  --max-solve-size N  refuse (exit 2) a problem larger than N message types x\n"
    "                      edges (default 2000000) instead of solving it\n";

int cli_cmd_check(int argc, char **argv)
{
    ssched_check_options_t opt;
    ssched_check_options_default(&opt);
    const char *path = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
            fputs(usage_text, stdout);
            return CLI_EXIT_OK;
        }
        if (!strcmp(argv[k], "--max-solve-size")) {
            long v;
            if (k + 1 >= argc)
                return cli_bad_input("check", "--max-solve-size needs a value");
            if (!cli_parse_long("check", "--max-solve-size", argv[++k], 1, 4000000000000000000L, &v))
                return CLI_EXIT_BADINPUT;
            opt.max_solve_size = (size_t)v;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            return cli_bad_input("check", "unknown option '%s'", argv[k]);
        } else if (path) {
            return cli_bad_input("check", "expected exactly one SCHEDULE.json argument");
        } else {
            path = argv[k];
        }
    }
    if (!path)
        return cli_bad_input("check", "expected exactly one SCHEDULE.json argument");
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    /* mapped, not read: unrolled files may be many gigabytes; a NUL byte
     * is refused with its offset */
    ssched_status_t st = ssched_check_schedule_file_opts(path, &opt, &rep, &err);
    if (st != SSCHED_OK) {
        ssched_error_rename(&err, "options.max_solve_size", "--max-solve-size N");
        if (!strstr(err.message, path))
            ssched_error_prefix(&err, "%s: ", path);
        return cli_report("check", &err);
    }
    if (!rep.valid) {
        printf("%s: INVALID: %s\n", path, rep.violation);
        return CLI_EXIT_FAILURE;
    }
    printf("%s: valid %s schedule (%zu %s, %zu transfers)\n", path,
           rep.unrolled ? "unrolled" : "periodic", rep.unrolled ? rep.n_transfers : rep.n_slots,
           rep.unrolled ? "timed transfers" : "slots", rep.n_transfers);
    return CLI_EXIT_OK;
}
