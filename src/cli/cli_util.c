#include "src/cli/cli.h"
#include "src/util/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/rational.h"

/* The library names the fields and inputs it checks; the CLI shows the
 * option that sets each (phrases first: they contain field names).  The
 * problem's fields are renamed where the problem is built
 * (problem_opts.c): "problem.size" also names a schedule file's field. */
static const char *const field_options[][2] = {
    {"export the LP of a given root, problem.target)", "export it with ssched lp --root R)"},
    {"(set problem.target)", "(give --root)"},
    {"raise it with options.max_memory (bytes)", "raise it with --max-memory MB"},
    {"K (operations)", "--operations"},
    {"platform.multiport", "--routers switch"},
    {"params.max_den", "--max-den"},
    {"options.max_ops", "--max-ops"},
    {"options.crossover_limit", "--max-crossover"},
    {"limits.max_operations", "--max-operations"},
    {"limits.max_events", "--max-events"},
    {"max_period", "--max-period"},
    {"options.no_split", "--no-split"},
    {"options.fixed_period", "--fixed-period"},
    {"options.method", "--method"},
    {"unit_bytes must", "--unit-bytes must"},
    {"flops_per_task must", "--flops-per-task must"}};

void cli_name_options(ssched_error_t *err)
{
    for (size_t i = 0; i < sizeof field_options / sizeof *field_options; i++)
        ssched_error_rename(err, field_options[i][0], field_options[i][1]);
}

int cli_report(const char *cmd, const ssched_error_t *err_in)
{
    ssched_error_t named = *err_in, *err = &named;
    cli_name_options(err);
    fprintf(stderr, "ssched %s: %s\n", cmd,
            err->message[0] ? err->message : ssched_status_name(err->status));
    /* a refused or stopped over-limit request is the caller's to raise */
    return err->status == SSCHED_EINPUT || err->status == SSCHED_ELIMIT ? CLI_EXIT_BADINPUT
                                                                         : CLI_EXIT_FAILURE;
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

int cli_once(const char *cmd, const char *option, int *seen)
{
    if (*seen) {
        cli_bad_input(cmd, "option %s given twice (it takes a single value)", option);
        return 0;
    }
    *seen = 1;
    return 1;
}

void cli_format_bytes(double bytes, char *buf, size_t size)
{
    static const char *unit[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    size_t u = 0;
    while (bytes >= 1024 && u + 1 < sizeof unit / sizeof *unit) {
        bytes /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%.0f bytes", bytes);
    else
        snprintf(buf, size, "%.1f %s", bytes, unit[u]);
}

int cli_refuse(const char *cmd, const char *what, const char *estimate, const char *limit,
               const char *option)
{
    return cli_bad_input(cmd, "%s needs about %s (estimate); limit %s, raise it with %s", what,
                         estimate, limit, option);
}

double cli_now(void)
{
    return ssched_i_wall_now();
}

void cli_progress_init(cli_progress_t *p, int level)
{
    p->start = p->last = cli_now();
    p->level = level;
    if (level >= 2)
        p->last = p->start - 1; /* the first call prints */
}

int cli_progress_due(cli_progress_t *p)
{
    if (p->level <= 0)
        return 0;
    double now = cli_now();
    if ((p->level == 1 && now - p->start < 1.0) || now - p->last < 1.0)
        return 0;
    p->last = now;
    return 1;
}
