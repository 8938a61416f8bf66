/* ssched check: the independent schedule checker.
 * Exit 0 valid; 1 with the first violation; 2 unreadable or malformed file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "ssched/schedule.h"

int cli_cmd_check(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: ssched check SCHEDULE.json   (exit 0 valid, 1 invalid, 2 bad file)");
        return CLI_EXIT_OK;
    }
    if (argc != 2)
        return cli_bad_input("check", "expected exactly one SCHEDULE.json argument");
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    /* mapped, not read: unrolled files may be many gigabytes; a NUL byte
     * is refused with its offset */
    ssched_status_t st = ssched_check_schedule_file(argv[1], &rep, &err);
    if (st != SSCHED_OK) {
        if (!strstr(err.message, argv[1]))
            ssched_error_prefix(&err, "%s: ", argv[1]);
        return cli_report("check", &err);
    }
    if (!rep.valid) {
        printf("%s: INVALID: %s\n", argv[1], rep.violation);
        return CLI_EXIT_FAILURE;
    }
    printf("%s: valid %s schedule (%zu %s, %zu transfers)\n", argv[1],
           rep.unrolled ? "unrolled" : "periodic", rep.unrolled ? rep.n_transfers : rep.n_slots,
           rep.unrolled ? "timed transfers" : "slots", rep.n_transfers);
    return CLI_EXIT_OK;
}
