/* One option table per command: getopt_long's array and the help text are
 * both generated from it, so that `ssched COMMAND --help` lists exactly the
 * options the parser takes (tests/test_cli_help.c compares them). */
#ifndef SSCHED_CLI_OPTIONS_H
#define SSCHED_CLI_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

typedef struct {
    struct option opt; /* as getopt_long takes it ("output" is shown as -o) */
    const char *arg;   /* the argument's name in the help ("FILE"), or NULL */
    const char *help;  /* what it does (wrapped to the terminal's 80 columns) */
} cli_opt_t;

#define CLI_OPT_END {{NULL, 0, NULL, 0}, NULL, NULL}
#define CLI_MAX_OPTIONS 96

/* getopt_long's array of the tables (NULL-terminated list of tables, each
 * ended by CLI_OPT_END), in out[CLI_MAX_OPTIONS]; ends with a zero entry. */
void cli_longopts(const cli_opt_t *const *tables, struct option *out);

/* The help: the synopsis as given, then one entry per option of every
 * table ("  --name ARG" and its help lines, aligned), table titles from
 * `titles` (one per table, NULL for none). */
void cli_print_help(FILE *out, const char *synopsis, const cli_opt_t *const *tables,
                    const char *const *titles);

/* The long name of getopt value `val` in the tables ("?" if none). */
const char *cli_option_name(const cli_opt_t *const *tables, int val);

#endif
