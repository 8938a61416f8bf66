/* The unrolled-reduce checker reads events of the common form from their
 * bytes (schedule/check_unrolled_reduce_fast.c) and hands every other
 * event to jansson and the exact checks.  A key spelled with an escape
 * ("st\u0061rt", still "start" to JSON) sends every event to jansson, so
 * the same file is checked both ways: on valid files, on targeted
 * mistakes and on random edits, both must give the same answer and the
 * same message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* text with every "start": key escaped (malloc'ed) */
static char *escaped(const char *text)
{
    const char *key = "\"start\":", *esc = "\"st\\u0061rt\":";
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, key)); p += strlen(key))
        n++;
    char *out = malloc(strlen(text) + n * (strlen(esc) - strlen(key)) + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    char *o = out;
    for (const char *p = text;;) {
        const char *at = strstr(p, key);
        if (!at) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(at - p));
        o += at - p;
        strcpy(o, esc);
        o += strlen(esc);
        p = at + strlen(key);
    }
    return out;
}

/* Both readings of text: 1 if they agree (answer and message). */
static int agree(const char *text, int *answer, char *why)
{
    char w[2][512];
    char *slow = escaped(text);
    int r0 = tu_check_text(text, w[0], sizeof w[0]), r1 = tu_check_text(slow, w[1], sizeof w[1]);
    free(slow);
    if (answer)
        *answer = r0;
    if (why)
        strcpy(why, w[0]);
    /* jansson's syntax errors quote the token near the error: the escaped
     * key itself when it is that token */
    for (int k = 0; k < 2; k++) {
        char *near = strstr(w[k], " near '");
        if (near)
            *near = 0;
    }
    if (r0 != r1 || strcmp(w[0], w[1])) {
        fprintf(stderr, "\n  fast %d '%s'\n  exact %d '%s'\n", r0, w[0], r1, w[1]);
        return 0;
    }
    return 1;
}

/* An unrolled reduce from the CLI (malloc'ed text). */
static char *unrolled(const char *platform, const char *participants, const char *target, int K)
{
    const char *out = tu_tmp_path("reduce_fast.json");
    tu_run_t r;
    int st = tu_run(&r, "schedule '%s/examples/%s' --problem reduce --participants %s --target %s "
                        "--operations %d --unroll --quiet -o '%s'",
                    SSCHED_SOURCE_DIR, platform, participants, target, K, out);
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    char *t = tu_read_file(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static char *fig6(void)
{
    return unrolled("fig6.graphml", "P0,P1,P2", "P0", 4);
}

static void test_valid(void)
{
    char *t = fig6();
    int r;
    CU_ASSERT(agree(t, &r, NULL));
    CU_ASSERT_EQUAL(r, 1);
    free(t);
    /* transfers in pieces, relays through routers */
    t = unrolled("tiers-small.graphml", "h0_0_0_0,h0_0_1_0,h1_0_0_0", "h0_0_0_0", 3);
    CU_ASSERT(agree(t, &r, NULL));
    CU_ASSERT_EQUAL(r, 1);
    free(t);
}

/* Replace the n-th occurrence (0-based) of from by to; 0 if absent. */
static int replace(char **text, const char *from, const char *to, int nth)
{
    char *p = *text;
    for (int k = 0; p && (p = strstr(p, from)) && k < nth; k++)
        p += strlen(from);
    if (!p)
        return 0;
    size_t at = (size_t)(p - *text);
    char *out = malloc(strlen(*text) - strlen(from) + strlen(to) + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    memcpy(out, *text, at);
    strcpy(out + at, to);
    strcat(out, *text + at + strlen(from));
    free(*text);
    *text = out;
    return 1;
}

static void test_mistakes(void)
{
    static const struct {
        const char *from, *to;
        int nth, expect;
    } cases[] = {
        {"\"op\": 1", "\"op\": 4", 0, 0},                  /* time-stamp beyond K */
        {"\"op\": 1", "\"op\": 1, \"op\": 1", 0, -1},      /* twice */
        {"\"op\": 1", "\"op\": 1, \"batch\": 0", 0, -1},   /* batch 0 */
        {"\"op\": 1", "\"op\": 01", 0, -1},                /* not JSON */
        {"\"task\": [", "\"task\": [2, ", 0, -1},          /* four numbers */
        {"\"interval\": [", "\"interval\": [7, ", 0, -1},  /* three numbers */
        {"\"from\": \"P", "\"from\": \"Q", 0, -1},         /* unknown node */
        {"\"node\": \"P", "\"node\": \"Q", 0, -1},         /* unknown node */
        {"\"end\": \"", "\"end\": \"1", 2, 0},             /* too long */
        {"\"end\": \"", "\"end\": \"1", 9, 0},             /* too long */
        {"\"op\": 2}", "\"op\": 2, \"piece\": [\"0\", \"1/2\"]}", 0, 0}, /* half a value */
        {"\"op\": 2}", "\"op\": 2, \"piece\": [\"1/2\", \"1\"]}", 0, 0}, /* beyond 1 */
        {"\"op\": 2}", "\"op\": 2, \"colour\": 1}", 0, -1},              /* unknown key */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *t = fig6(), why[512];
        int r;
        CU_ASSERT_FATAL(replace(&t, cases[k].from, cases[k].to, cases[k].nth));
        CU_ASSERT(agree(t, &r, why));
        if (r != cases[k].expect)
            fprintf(stderr, "\n  case %zu: %d '%s'\n", k, r, why);
        CU_ASSERT_EQUAL(r, cases[k].expect);
        free(t);
    }
}

/* Random edits inside the event arrays. */
static void test_random_edits(void)
{
    static const char pool[] = "0123456789/\"{}[],: \\\nP12.-eopstartendnode";
    char *base = fig6();
    size_t first = (size_t)(strstr(base, "\"transfers\"") - base);
    size_t last = (size_t)(strstr(base, "\"operations_per_period\"") - base);
    CU_ASSERT_FATAL(strstr(base, "\"transfers\"") && strstr(base, "\"operations_per_period\""));
    unsigned seed = 2026, ok = 0, total = 0, valid = 0;
    size_t cap = strlen(base) + 16;
    char *t = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (int round = 0; round < 600; round++) {
        strcpy(t, base);
        size_t len = strlen(t), hi = last;
        for (int edits = 1 + round % 3; edits > 0; edits--) {
            seed = seed * 1103515245u + 12345u;
            size_t at = first + (seed >> 8) % (hi - first);
            char ch = pool[(seed >> 20) % (sizeof pool - 1)];
            if (seed % 3 == 0) {
                t[at] = ch;
            } else if (seed % 3 == 1) {
                memmove(t + at, t + at + 1, len - at);
                len--;
                hi--;
            } else if (len + 1 < cap) {
                memmove(t + at + 1, t + at, len - at + 1);
                t[at] = ch;
                len++;
                hi++;
            }
        }
        int r;
        total++;
        ok += (unsigned)agree(t, &r, NULL);
        valid += r == 1;
    }
    CU_ASSERT_EQUAL(ok, total);
    CU_ASSERT(valid < total); /* the edits did break files */
    free(t);
    free(base);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"valid files: both readings accept", test_valid},
        {"mistakes: the same answer and message", test_mistakes},
        {"random edits: the same answer and message", test_random_edits},
        {NULL, NULL}};
    return tu_main("check reduce fast", tests);
}
