/* ssched check: the independent schedule checker.
 * Exit 0 valid; 1 with the first violation; 2 unreadable or malformed file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "ssched/schedule.h"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    if (buf)
        buf[len] = '\0';
    *n = len;
    fclose(f);
    return buf;
}

int cli_cmd_check(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: ssched check SCHEDULE.json   (exit 0 valid, 1 invalid, 2 bad file)");
        return CLI_EXIT_OK;
    }
    if (argc != 2)
        return cli_bad_input("check", "expected exactly one SCHEDULE.json argument");
    size_t len = 0;
    char *text = slurp(argv[1], &len);
    if (!text)
        return cli_bad_input("check", "%s: cannot read the file", argv[1]);
    /* the checker reads a C string: bytes after a NUL would go unchecked */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        size_t at = (size_t)(nul - text);
        free(text);
        return cli_bad_input("check", "%s: NUL byte at offset %zu", argv[1], at);
    }
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &rep, &err);
    free(text);
    if (st != SSCHED_OK) {
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
