/* ssched schedule, the unrolled path (src/cli/cmd_schedule.c parses the
 * options and plans): K operations streamed to -o FILE, then the file
 * checked as written; with --segments auto only the makespan of each
 * candidate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/cli/schedule.h"
#include "ssched/export.h"
#include "ssched/schedule.h"

static void unroll_progress(void *ctx, size_t done, size_t total, double seconds)
{
    (void)ctx;
    fprintf(stderr, "ssched schedule: unrolling: period %zu of about %zu (%.0f s)\n", done,
            total, seconds);
}

/* -o - : the file is written to a temporary file first (the self-check
 * reads it back), then copied to standard output; the summary goes to
 * stderr so that stdout holds the JSON only. */
static int copy_to_stdout(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[1 << 16];
    size_t n;
    int ok = 1;
    while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0)
        ok = fwrite(buf, 1, n, stdout) == n;
    ok = ok && !ferror(f) && fflush(stdout) == 0;
    fclose(f);
    return ok;
}

/* --segments auto: the makespan of one candidate (its events streamed to
 * a temporary file, dropped). */
static int eval_unrolled(const sched_opts_t *o, const ssched_platform_t *p,
                         const ssched_problem_t *pb, const ssched_schedule_t *s)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    FILE *t = tmpfile();
    if (!t)
        return cli_bad_input("schedule", "--segments auto: cannot create a temporary file");
    ssched_unroll_limits_t lim = {(unsigned long)o->max_operations,
                                  (unsigned long long)o->max_events, 0, NULL, NULL};
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    ssched_status_t st = ssched_write_unrolled_stream(t, p, pb, s, (unsigned long)o->operations,
                                                      &lim, &fig, &err);
    fclose(t);
    if (st == SSCHED_OK)
        mpq_set(o->eval, fig.makespan);
    ssched_unroll_figures_free(&fig);
    return st == SSCHED_OK ? CLI_EXIT_OK : cli_report("schedule", &err);
}

/* Stream the unrolled schedule to the output file, then check the file. */
int cli_schedule_emit_unrolled(const sched_opts_t *o_in, const ssched_platform_t *p,
                               const ssched_problem_t *pb, const ssched_schedule_t *s)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    sched_opts_t copy = *o_in, *o = &copy;
    if (o->eval)
        return eval_unrolled(o, p, pb, s);
    int to_stdout = !strcmp(o_in->output, "-");
    FILE *f = NULL;
    cli_out_t file = {0};
    if (to_stdout) {
        const char *dir = getenv("TMPDIR");
        static char path[4096];
        snprintf(path, sizeof path, "%s/ssched-unrolled-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(path);
        if (fd < 0 || !(f = fdopen(fd, "w")))
            return cli_bad_input("schedule", "-o -: cannot create a temporary file in %s",
                                 dir && *dir ? dir : "/tmp");
        o->output = path;
    } else if (cli_out_open(&file, "schedule", "-o", o->output) != CLI_EXIT_OK) {
        return CLI_EXIT_BADINPUT;
    } else {
        f = file.f;
    }
    ssched_unroll_limits_t lim = {(unsigned long)o->max_operations,
                                  (unsigned long long)o->max_events, 0, NULL, NULL};
    if (!o->quiet)
        lim.progress = unroll_progress;
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    ssched_status_t st = ssched_write_unrolled_stream(f, p, pb, s, (unsigned long)o->operations,
                                                      &lim, &fig, &err);
    int rc = CLI_EXIT_OK;
    if (!to_stdout) {
        /* complete or nothing: the temporary file is renamed onto -o FILE
         * only once written without error (then checked there) */
        rc = cli_out_finish(&file, "schedule", st, &err);
    } else {
        if (fclose(f) != 0 && st == SSCHED_OK)
            st = ssched_error_set(&err, SSCHED_EINPUT, "-o -: write error: %s", strerror(errno));
        if (st != SSCHED_OK)
            rc = cli_report("schedule", &err);
    }
    if (rc != CLI_EXIT_OK) {
        /* reported; the temporary file is gone */
    } else if (!o->no_check) {
        /* the file as written, checked as a stream (any size) */
        struct stat sb;
        if (!o->quiet && stat(o->output, &sb) == 0 && sb.st_size > (64 << 20))
            fprintf(stderr, "ssched schedule: checking %s (%.0f MB)\n", o->output,
                    (double)sb.st_size / 1048576.0);
        if (ssched_file_self_check(o->output, NULL, &err) != SSCHED_OK)
            rc = cli_report("schedule", &err);
    }
    if (rc == CLI_EXIT_OK && to_stdout && !copy_to_stdout(o->output))
        rc = cli_bad_input("schedule", "write error on standard output: %s", strerror(errno));
    if (rc == CLI_EXIT_OK && !(to_stdout && o->quiet)) {
        FILE *out = to_stdout ? stderr : stdout; /* stdout holds the JSON only */
        if (ssched_write_unrolled_summary(out, p, s, &fig, &err) != SSCHED_OK)
            rc = cli_report("schedule", &err);
        if (o->segments > 1) /* the bound: schedule/unroll_seg.c */
            fprintf(out, "segments: %ld operations cut into %ld each; K/TP is the original "
                    "problem's, LB1 a segment's\n", o->operations / o->segments, o->segments);
        if (o->no_check)
            fprintf(out, "not checked (--no-check): run ssched check %s\n", o_in->output);
        else
            fprintf(out, "checked: valid (ssched check %s)\n", o_in->output);
    }
    if (to_stdout)
        remove(o->output);
    ssched_unroll_figures_free(&fig);
    return rc;
}
