/* Option tables (cli_options.h): the parser's array and the help from one
 * source. */
#include "src/cli/cli_options.h"

#include <string.h>

void cli_longopts(const cli_opt_t *const *tables, struct option *out)
{
    size_t n = 0;
    for (size_t t = 0; tables[t]; t++)
        for (size_t k = 0; tables[t][k].opt.name && n + 1 < CLI_MAX_OPTIONS; k++)
            out[n++] = tables[t][k].opt;
    memset(&out[n], 0, sizeof out[n]);
}

const char *cli_option_name(const cli_opt_t *const *tables, int val)
{
    for (size_t t = 0; tables[t]; t++)
        for (size_t k = 0; tables[t][k].opt.name; k++)
            if (tables[t][k].opt.val == val)
                return tables[t][k].opt.name;
    return "?";
}

/* The help column starts here and lines end by column 79; a longer option
 * name pushes its help to the next line, and the help is wrapped at spaces
 * (a '\n' in a help string is a space: the tables wrap their source lines). */
enum { HELP_COLUMN = 28, HELP_WIDTH = 79 - HELP_COLUMN };

static void print_entry(FILE *out, const cli_opt_t *o)
{
    char head[96];
    int len = snprintf(head, sizeof head, "  %s--%s%s%s", !strcmp(o->opt.name, "output") ? "-o, " : "",
                       o->opt.name, o->arg ? " " : "", o->arg ? o->arg : "");
    fputs(head, out);
    const char *h = o->help ? o->help : "";
    int col = len; /* where the cursor is; > HELP_COLUMN - 2: start a new line */
    int line_used = -1; /* characters of help on the current line, -1: none yet */
    if (col + 2 <= HELP_COLUMN) {
        fprintf(out, "%*s", HELP_COLUMN - col, "");
        line_used = 0;
    }
    while (*h) {
        size_t word = strcspn(h, " \n");
        if (line_used < 0 || line_used + (line_used ? 1 : 0) + (int)word > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_COLUMN, "");
            line_used = 0;
        } else if (line_used) {
            fputc(' ', out);
            line_used++;
        }
        fwrite(h, 1, word, out);
        line_used += (int)word;
        h += word;
        while (*h == ' ' || *h == '\n')
            h++;
    }
    fputc('\n', out);
}

void cli_print_help(FILE *out, const char *synopsis, const cli_opt_t *const *tables,
                    const char *const *titles)
{
    fputs(synopsis, out);
    for (size_t t = 0; tables[t]; t++) {
        if (titles && titles[t])
            fprintf(out, "%s\n", titles[t]);
        for (size_t k = 0; tables[t][k].opt.name; k++)
            print_entry(out, &tables[t][k]);
    }
}
