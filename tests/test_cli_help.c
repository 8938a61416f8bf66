/* `ssched COMMAND --help` and the parser agree (issue 24, "the first
 * hour"): the help is generated from the command's option table
 * (src/cli/cli_options.h), and this suite checks the other direction too:
 * every --option the help mentions, synopsis included, is one the parser
 * takes; and the platform options a new user needs are listed by every
 * command that reads a platform. */
#include <ctype.h>
#include <string.h>

#include "test_util.h"

static const char *const commands[] = {"solve", "schedule", "lp", "report", "check", "compare",
                                       "makespan", "redistribute", "scatter-balance", "gen",
                                       "export", NULL};

/* Options of other programs that a help text shows in a command line
 * (glpsol's, smpirun's): "command --option". */
static const char *const foreign[] = {"lp --exact", "lp --lp", "lp --freemps", "lp --mps",
                                      "export --cfg", "export --print-cfg", NULL};

static int is_foreign(const char *cmd, const char *word)
{
    char key[128];
    snprintf(key, sizeof key, "%.40s %.40s", cmd, word);
    for (size_t k = 0; foreign[k]; k++)
        if (!strcmp(foreign[k], key))
            return 1;
    return 0;
}

/* Every "--word" of text, once each, into words (NUL-separated). */
static size_t option_words(const char *text, char words[][40], size_t cap)
{
    size_t n = 0;
    for (const char *s = text; (s = strstr(s, "--")) != NULL; s += 2) {
        if (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '-'))
            continue;
        size_t len = 0;
        while (isalnum((unsigned char)s[2 + len]) || s[2 + len] == '-')
            len++;
        if (len == 0 || len >= 38)
            continue;
        char w[40];
        memcpy(w, s, len + 2);
        w[len + 2] = '\0';
        size_t k = 0;
        while (k < n && strcmp(words[k], w))
            k++;
        if (k == n && n < cap)
            strcpy(words[n++], w);
    }
    return n;
}

static void test_help_options_parse(void)
{
    for (size_t c = 0; commands[c]; c++) {
        tu_run_t r;
        const char *cmd = commands[c];
        /* gen and makespan take a sub-command first */
        const char *sub = !strcmp(cmd, "gen") ? " tiers" : !strcmp(cmd, "makespan") ? " reduce"
                          : !strcmp(cmd, "export") ? " simgrid" : "";
        CU_ASSERT_EQUAL(tu_run(&r, "%s%s --help", cmd, sub), 0);
        char words[128][40];
        size_t n = option_words(r.out, words, 128);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "usage: ssched"));
        tu_run_free(&r);
        for (size_t k = 0; k < n; k++) {
            if (!strcmp(words[k], "--help") || is_foreign(cmd, words[k]))
                continue;
            tu_run(&r, "%s%s %s x", cmd, sub, words[k]);
            char refusal[128];
            snprintf(refusal, sizeof refusal, "unknown or incomplete option '%.40s'", words[k]);
            int unknown = strstr(r.err, refusal) != NULL;
            if (unknown)
                fprintf(stderr, "\n  %s: the help names %s, the parser refuses it: %s", cmd,
                        words[k], r.err);
            CU_ASSERT(!unknown);
            tu_run_free(&r);
        }
    }
}

/* The options README promises to every platform-reading command. */
static void test_platform_options_listed(void)
{
    static const char *const platform_cmds[] = {"solve", "schedule", "lp", "report", NULL};
    static const char *const needed[] = {"--format", "--cost-from", "--unit-bytes", "--speed-from",
                                         "--flops-per-task", "--routers", "--size", NULL};
    for (size_t c = 0; platform_cmds[c]; c++) {
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "%s --help", platform_cmds[c]), 0);
        for (size_t k = 0; needed[k]; k++) {
            int listed = strstr(r.out, needed[k]) != NULL;
            if (!listed)
                fprintf(stderr, "\n  %s --help does not list %s", platform_cmds[c], needed[k]);
            CU_ASSERT(listed);
        }
        tu_run_free(&r);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"every option in the help is parsed", test_help_options_parse},
        {"platform options in the help", test_platform_options_listed},
        {NULL, NULL}};
    return tu_main("cli_help", tests);
}
