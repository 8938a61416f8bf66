/* The checker of unrolled files has a fast path (its own JSON scanner,
 * 64-bit fractions) and the exact reference (jansson, GMP) it hands over
 * to on anything unusual.  Hand-made scatter files check that both accept
 * the same valid files, verify "buffer_peak" / "buffer_node" (including
 * the rule that releases come before acquisitions at equal times and
 * pieces counted by their length), and that malformed or wrong events get
 * the reference's messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "test_util.h"

/* A, R, B1, B2 (all hosts): A->R, R->B1, R->B2, A->B2, c = 1; scatter of
 * size 1 from A to B1 and B2; TP = 1/2, K = 1.  `node_r` spells R (an
 * escaped or non-ASCII name), `events` the transfers. */
static char *file(const char *node_r, const char *events, const char *makespan,
                  const char *peak, const char *node)
{
    static const char *fmt =
        "{\"format\": \"ssched-unrolled/2\",\n"
        " \"problem\": {\"kind\": \"scatter\", \"source\": \"A\", \"targets\": [\"B1\", \"B2\"],"
        " \"size\": \"1\"},\n"
        " \"platform\": {\"nodes\": [{\"id\": \"A\", \"w\": null}, {\"id\": \"%s\", \"w\": null},"
        " {\"id\": \"B1\", \"w\": null}, {\"id\": \"B2\", \"w\": null}],\n"
        "  \"edges\": [{\"from\": \"A\", \"to\": \"%s\", \"c\": \"1\"}, {\"from\": \"%s\", \"to\":"
        " \"B1\", \"c\": \"1\"}, {\"from\": \"%s\", \"to\": \"B2\", \"c\": \"1\"}, {\"from\":"
        " \"A\", \"to\": \"B2\", \"c\": \"1\"}]},\n"
        " \"throughput\": \"1/2\", \"operations\": 1, \"split\": true,\n"
        " \"transfers\": [\n%s\n ],\n"
        " \"operations_per_period\": \"1\", \"period\": \"2\", \"pattern_throughput\": \"1/2\",\n"
        " \"makespan\": \"%s\"%s%s%s%s%s\n}\n";
    size_t cap = strlen(fmt) + strlen(events) + 4 * strlen(node_r) + 256;
    char *t = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    snprintf(t, cap, fmt, node_r, node_r, node_r, node_r, events, makespan,
             peak ? ",\n \"buffer_peak\": \"" : "", peak ? peak : "", peak ? "\"" : "",
             node ? ",\n \"buffer_node\": " : "", node ? node : "");
    return t;
}

#define EV(s, e, f, t, d, extra)                                                                 \
    "  {\"start\": \"" s "\", \"end\": \"" e "\", \"from\": \"" f "\", \"to\": \"" t            \
    "\", \"origin\": \"A\", \"dest\": \"" d "\", \"op\": 0" extra "}"

/* Two messages wait at R at time 1: peak 2. */
static const char *const TWO = EV("0", "1", "A", "R", "B1", "") ",\n" EV("1", "2", "A", "R", "B2", "")
    ",\n" EV("1", "2", "R", "B1", "B1", "") ",\n" EV("2", "3", "R", "B2", "B2", "");
/* R sends B1's message on at 1-2 and receives B2's at 2: the release at 2
 * comes first, peak 1. */
static const char *const TIE = EV("0", "1", "A", "R", "B1", "") ",\n" EV("1", "2", "R", "B1", "B1", "")
    ",\n" EV("2", "3", "A", "R", "B2", "") ",\n" EV("3", "4", "R", "B2", "B2", "");
/* B1's message in two halves through R, B2's direct: peak 1/2. */
static const char *const HALVES =
    EV("0", "1/2", "A", "R", "B1", ", \"piece\": [\"0\", \"1/2\"]") ",\n"
    EV("1/2", "1", "R", "B1", "B1", ", \"piece\": [\"0\", \"1/2\"]") ",\n"
    EV("1", "3/2", "A", "R", "B1", ", \"piece\": [\"1/2\", \"1/2\"]") ",\n"
    EV("3/2", "2", "R", "B1", "B1", ", \"piece\": [\"1/2\", \"1/2\"]") ",\n"
    EV("2", "3", "A", "B2", "B2", "");

/* Check text (freed): 1 valid, 0 invalid, -1 malformed; why gets the reason. */
static int check(char *text, char *why)
{
    int r = tu_check_text(text, why, 512);
    free(text);
    return r;
}

/* The same file read by the exact checker: a start written "00" (the fast
 * path reads only the plain form of numbers and hands the file over). */
static char *exact(const char *events)
{
    char *t = strdup(events);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char *at = strstr(t, "\"start\": \"0\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    char *out = malloc(strlen(t) + 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    size_t k = (size_t)(at - t) + strlen("\"start\": \"");
    memcpy(out, t, k);
    out[k] = '0';
    strcpy(out + k + 1, t + k);
    free(t);
    return out;
}

static void figures(const char *events, const char *makespan, const char *peak)
{
    char why[512];
    for (int slow = 0; slow < 2; slow++) {
        char *ev = slow ? exact(events) : strdup(events);
        int r = check(file("R", ev, makespan, peak, "\"R\""), why);
        if (r != 1)
            fprintf(stderr, "\n  %s path: %s\n", slow ? "exact" : "fast", why);
        CU_ASSERT_EQUAL(r, 1);
        /* without the figures (they are optional) */
        CU_ASSERT_EQUAL(check(file("R", ev, makespan, NULL, NULL), why), 1);
        CU_ASSERT_EQUAL(check(file("R", ev, makespan, "3/2", "\"R\""), why), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "\"buffer_peak\" is not what the events give"));
        CU_ASSERT_EQUAL(check(file("R", ev, makespan, peak, "\"A\""), why), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "\"buffer_node\" is not what the events give"));
        CU_ASSERT_EQUAL(check(file("R", ev, makespan, peak, "\"Z\""), why), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "unknown node 'Z'"));
        CU_ASSERT_EQUAL(check(file("R", ev, makespan, peak, "3"), why), -1);
        free(ev);
    }
}

static void test_buffer_peak(void)
{
    figures(TWO, "3", "2");
    figures(TIE, "4", "1");
    figures(HALVES, "3", "1/2");
}

/* Any whitespace, any key order, escaped and non-ASCII names. */
static void test_json_forms(void)
{
    char why[512];
    const char *spaced = "{\t\"op\"\r\n:\n0 , \"dest\":\"B1\",\"origin\":\"A\",\"to\":\"R\","
                         "\"from\":\"A\",\"end\":\"1\",\"start\":\"0\"}";
    char ev[2048];
    snprintf(ev, sizeof ev, "%s,%s", spaced, strstr(TWO, "},\n") + 2);
    int r = check(file("R", ev, "3", "2", "\"R\""), why);
    if (r != 1)
        fprintf(stderr, "\n  spaced: %s\n", why);
    CU_ASSERT_EQUAL(r, 1);
    /* R spelled with escapes in the events only */
    snprintf(ev, sizeof ev, "%s", TWO);
    char *p = strstr(ev, "\"to\": \"R\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    memmove(p + 13, p + 8, strlen(p + 8) + 1);
    memcpy(p + 7, "\\u0052", 6);
    CU_ASSERT_EQUAL(check(file("R", ev, "3", "2", "\"\\u0052\""), why), 1);
    /* a non-ASCII name: R\u00e9 in UTF-8 in the events */
    char *u = malloc(4096);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    const char *s = TWO;
    size_t n = 0;
    for (; *s; s++) {
        u[n++] = *s;
        if (*s == 'R' && s[1] == '"')
            u[n++] = (char)0xC3, u[n++] = (char)0xA9;
    }
    u[n] = 0;
    CU_ASSERT_EQUAL(check(file("R\\u00e9", u, "3", "2", "\"R\\u00e9\""), why), 1);
    /* the same name in invalid UTF-8 (a lone continuation byte) */
    for (size_t k = 0; k < n; k++)
        if ((unsigned char)u[k] == 0xC3)
            u[k] = (char)0xA9;
    CU_ASSERT_EQUAL(check(file("R\\u00e9", u, "3", "2", NULL), why), -1);
    free(u);
}

/* Malformed or wrong events: the reference's messages. */
static void test_messages(void)
{
    char why[512], ev[2048];
    static const struct {
        const char *from, *to;
        int expect;
        const char *fragment;
    } cases[] = {
        {"\"op\": 0}", "\"op\": 0, \"op\": 0}", -1, "transfers[0] is not an object"},
        {"\"op\": 0}", "\"op\": 0, \"color\": \"red\"}", -1, "unknown key \"color\""},
        {"\"op\": 0}", "\"op\": 00}", -1, "transfers[0] is not an object"},
        {"\"op\": 0}", "\"op\": 0.0}", -1, "missing non-negative integer \"op\""},
        {"\"end\": \"1\"", "\"end\": \"2\"", 0, "lasts more time units"},
        {"\"start\": \"0\"", "\"start\": \"0\", \"piece\": [\"0\"]", -1, "\"piece\" must be"},
        {"\"B1\", \"op\": 0}", "\"B1\", \"op\": 0}, {\"start\": \"0\"}", -1, "missing"},
        {"\"op\": 0}", "\"op\": 0", -1, "invalid JSON"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(ev, sizeof ev, "%s", TWO);
        char *p = strstr(ev, cases[k].from);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        char rest[2048];
        snprintf(rest, sizeof rest, "%s", p + strlen(cases[k].from));
        snprintf(p, sizeof ev - (size_t)(p - ev), "%s%s", cases[k].to, rest);
        int r = check(file("R", ev, "3", NULL, NULL), why);
        if (r != cases[k].expect || !strstr(why, cases[k].fragment))
            fprintf(stderr, "\n  case %zu: %d '%s'\n", k, r, why);
        CU_ASSERT_EQUAL(r, cases[k].expect);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, cases[k].fragment));
    }
    /* two transfers out of A at once; a message never delivered */
    CU_ASSERT_EQUAL(check(file("R", EV("0", "1", "A", "R", "B1", "") ",\n"
                                    EV("0", "1", "A", "B2", "B2", "") ",\n"
                                    EV("1", "2", "R", "B1", "B1", ""), "2", NULL, NULL), why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "node A sends two messages at once (transfers[1]"));
    CU_ASSERT_EQUAL(check(file("R", EV("0", "1", "A", "R", "B1", "") ",\n"
                                    EV("1", "2", "R", "B1", "B1", ""), "2", NULL, NULL), why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "never receives all of message 0 from A"));
}

/* Times beyond 64 bits: the exact checker decides, exactly. */
static void test_big_numbers(void)
{
    char why[512], ev[4096], mk[64];
    const char *big = "123456789012345678901234567890";
    snprintf(ev, sizeof ev,
             EV("%s0", "%s1", "A", "R", "B1", "") ",\n" EV("%s1", "%s2", "R", "B1", "B1", "") ",\n"
             EV("%s2", "%s3", "A", "B2", "B2", ""),
             big, big, big, big, big, big);
    snprintf(mk, sizeof mk, "%s3", big);
    int r = check(file("R", ev, mk, "1", "\"R\""), why);
    if (r != 1)
        fprintf(stderr, "\n  big: %s\n", why);
    CU_ASSERT_EQUAL(r, 1);
    CU_ASSERT_EQUAL(check(file("R", ev, mk, "2", "\"R\""), why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "\"buffer_peak\""));
    snprintf(mk, sizeof mk, "%s4", big);
    CU_ASSERT_EQUAL(check(file("R", ev, mk, "1", "\"R\""), why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "\"makespan\""));
}

/* Random edits of the events after the first: the file read by both
 * paths (as is, and handed to the exact checker by a "00" at its start)
 * gets the same answer and the same message. */
static void test_differential(void)
{
    static const char pool[] = "0123456789/\"{}[],: \\\n\tuRAB.-e";
    const char *const bases[] = {TWO, TIE, HALVES};
    const char *const spans[] = {"3", "4", "3"}, *const peaks[] = {"2", "1", "1/2"};
    char why[2][512];
    unsigned seed = 12345, agree = 0, total = 0;
    for (int round = 0; round < 3000; round++) {
        int b = round % 3;
        char ev[4096];
        snprintf(ev, sizeof ev, "%s", bases[b]);
        size_t first = (size_t)(strstr(ev, "},") - ev) + 1, len = strlen(ev);
        for (int edits = 1 + round % 3; edits > 0; edits--) {
            seed = seed * 1103515245u + 12345u;
            size_t at = first + (seed >> 8) % (len - first);
            char ch = pool[(seed >> 20) % (sizeof pool - 1)];
            if (seed % 3 == 0) {
                ev[at] = ch;
            } else if (seed % 3 == 1 && len > first + 1) {
                memmove(ev + at, ev + at + 1, len - at);
                len--;
            } else if (len + 1 < sizeof ev) {
                memmove(ev + at + 1, ev + at, len - at + 1);
                ev[at] = ch;
                len++;
            }
        }
        int r[2];
        for (int slow = 0; slow < 2; slow++) {
            char *e = slow ? exact(ev) : strdup(ev);
            r[slow] = check(file("R", e, spans[b], peaks[b], "\"R\""), why[slow]);
            free(e);
        }
        total++;
        if (r[0] == r[1] && !strcmp(why[0], why[1])) {
            agree++;
        } else {
            fprintf(stderr, "\n  round %d: fast %d '%s', exact %d '%s'\n%s\n", round, r[0],
                    why[0], r[1], why[1], ev);
        }
    }
    CU_ASSERT_EQUAL(agree, total);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"buffer_peak and buffer_node verified, both paths", test_buffer_peak},
        {"JSON forms: whitespace, key order, escapes, UTF-8", test_json_forms},
        {"malformed and wrong events: the reference's messages", test_messages},
        {"numbers beyond 64 bits", test_big_numbers},
        {"both paths agree on edited files", test_differential},
        {NULL, NULL}};
    return tu_main("check fast", tests);
}
