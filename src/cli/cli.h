/* Internal CLI plumbing shared by the subcommands (not a public header).
 *
 * The CLI is a thin layer over the library: each subcommand parses its
 * options with getopt_long, calls include/ssched/ functions and prints.
 * Exit status: 0 success, 2 bad input (one line on stderr), 1 failure. */
#ifndef SSCHED_CLI_H
#define SSCHED_CLI_H

#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILURE = 1, CLI_EXIT_BADINPUT = 2 };

/* Print "ssched <cmd>: <message>" on one stderr line; return the exit code
 * for the error's status (2 for SSCHED_EINPUT and SSCHED_ELIMIT, 1 otherwise). */
int cli_report(const char *cmd, const ssched_error_t *err);
/* Rename the library's field names in err's message to the options that
 * set them (cli_report does it; for messages printed another way). */
void cli_name_options(ssched_error_t *err);

/* Print a printf-formatted usage/option error on one line; return 2. */
int cli_bad_input(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse an exact rational option value; on failure print one line naming the
 * option and return 0. */
int cli_parse_rational(const char *cmd, const char *option, const char *text,
                       mpq_t out);

/* Parse a non-negative integer option (decimal, fits in long); 0 on failure
 * after printing one line. */
int cli_parse_long(const char *cmd, const char *option, const char *text,
                   long min, long max, long *out);

/* A single-value option given a second time is bad input, not last-wins:
 * returns 1 the first time (and sets *seen), else prints one line naming
 * the option and returns 0. */
int cli_once(const char *cmd, const char *option, int *seen);

/* Resource limits shared by the commands that can be asked for more than a
 * machine has (README, "Limits").  --max-memory MB bounds the estimated
 * memory; commands whose time can explode have their own --max-work. */
#define CLI_DEFAULT_MAX_MEMORY_MB 4096L
#define CLI_MAX_MEMORY_MB_LIMIT (1L << 40)

/* Human-readable size ("9.5 TB", "512.0 MB") of an estimate in bytes. */
void cli_format_bytes(double bytes, char *buf, size_t size);

/* Print the one-line refusal of an over-limit request and return 2:
 * "ssched CMD: WHAT needs about EST (estimate); limit LIMIT, raise it with OPTION". */
int cli_refuse(const char *cmd, const char *what, const char *estimate, const char *limit,
               const char *option);

/* Seconds since an arbitrary fixed origin (monotonic clock), for progress. */
double cli_now(void);

/* Subcommands.  Each returns the process exit status. */
/* Progress lines of long runs on stderr.  level 0 (--quiet): none; 1
 * (default): at most one a second after the first second; 2 (--verbose):
 * at most one a second from the start. */
typedef struct {
    double start, last;
    int level;
} cli_progress_t;

void cli_progress_init(cli_progress_t *p, int level);
/* 1 when a progress line is due now (and the clock is reset). */
int cli_progress_due(cli_progress_t *p);

/* Every output of the CLI goes through cli_out_t (issue 24 item 2): a file
 * is written to a temporary file in its own folder (mkstemp) and renamed
 * onto the path only once complete, so a failed write never leaves a
 * truncated file and never touches the old one; "-" is standard output.
 * A path that exists and is not a regular file (a device such as
 * /dev/full, a FIFO) is written in place and never removed.  A write
 * error is bad input's exit status 2 with one line:
 *   "ssched CMD: write error on standard output: No space left on device"
 *   "ssched CMD: OPTION PATH: write error: No space left on device". */
typedef struct {
    FILE *f;
    const char *path;   /* as given; "-" is standard output */
    const char *option; /* "-o", "--gantt", ... for messages */
    char *tmp;          /* the temporary file, renamed onto `target` */
    char *target;       /* the file replaced (symbolic links resolved) */
    int in_place;       /* written directly (not a regular file) */
} cli_out_t;

/* Open path for writing; CLI_EXIT_OK, or 2 after one line naming option
 * and path. */
int cli_out_open(cli_out_t *o, const char *cmd, const char *option, const char *path);
/* Flush and close (standard output is flushed, closed by main), then
 * rename the temporary onto the path.  ws and err are the writer's status
 * (SSCHED_OK and NULL when there is none): a failed stream is reported as
 * a write error, any other failure with cli_report, and either way the
 * temporary file is removed.  Returns the exit status, 0 on success. */
int cli_out_finish(cli_out_t *o, const char *cmd, ssched_status_t ws, const ssched_error_t *err);
/* Give up an output (the error is already reported): close it and remove
 * the temporary file. */
void cli_out_abandon(cli_out_t *o);
/* main's last step: flush and close standard output; a write error turns
 * a success into exit status 2 with one line (rc is returned otherwise). */
int cli_close_stdout(const char *cmd, int rc);
/* Remove a half-written output file: a regular file only, never a device
 * such as /dev/full (which root could otherwise delete). */
void cli_remove_partial(const char *path);

int cli_cmd_solve(int argc, char **argv);
int cli_cmd_lp(int argc, char **argv);
int cli_cmd_gen(int argc, char **argv);
int cli_cmd_export(int argc, char **argv);
int cli_cmd_redistribute(int argc, char **argv);
int cli_cmd_schedule(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_compare(int argc, char **argv);
int cli_cmd_scatter_balance(int argc, char **argv);
int cli_cmd_makespan(int argc, char **argv);
int cli_cmd_report(int argc, char **argv);
int cli_cmd_plan(int argc, char **argv);

#endif
