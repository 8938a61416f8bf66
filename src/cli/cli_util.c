#include "src/cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ssched/rational.h"

int cli_report(const char *cmd, const ssched_error_t *err)
{
    fprintf(stderr, "ssched %s: %s\n", cmd,
            err->message[0] ? err->message : ssched_status_name(err->status));
    return err->status == SSCHED_EINPUT ? CLI_EXIT_BADINPUT : CLI_EXIT_FAILURE;
}

int cli_bad_input(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ssched %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_BADINPUT;
}

int cli_parse_rational(const char *cmd, const char *option, const char *text,
                       mpq_t out)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ssched_rational_parse(out, text, &err) != SSCHED_OK) {
        cli_bad_input(cmd, "option %s: %s", option, err.message);
        return 0;
    }
    return 1;
}

int cli_parse_long(const char *cmd, const char *option, const char *text,
                   long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < min || v > max) {
        cli_bad_input(cmd, "option %s: '%s' is not an integer in [%ld, %ld]",
                      option, text, min, max);
        return 0;
    }
    *out = v;
    return 1;
}
