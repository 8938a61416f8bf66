/* Shared by the latency checker tests (test_latency_check.c,
 * test_latency_random.c): the hand platform and unrolled files on it.
 *
 * The platform: S -> R (c = 1, l = 1/2), R -> T (c = 1, l = 1/4),
 * R -> S (c = 1, l = 1); every node computes (w = 1); size 1, K = 2.
 * Scatter S -> T, broadcast from S and reduce of S, R to S all have
 * TP = 1 (one message per operation through R's or S's ports). */
#ifndef SSCHED_TESTS_LATENCY_FILES_H
#define SSCHED_TESTS_LATENCY_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *const PLATFORM =
    " \"platform\": {\"nodes\": [{\"id\": \"S\", \"w\": \"1\"}, {\"id\": \"R\", \"w\": \"1\"},"
    " {\"id\": \"T\", \"w\": \"1\"}],\n"
    "  \"edges\": [{\"from\": \"S\", \"to\": \"R\", \"c\": \"1\", \"l\": \"1/2\"},"
    " {\"from\": \"R\", \"to\": \"T\", \"c\": \"1\", \"l\": \"1/4\"},"
    " {\"from\": \"R\", \"to\": \"S\", \"c\": \"1\", \"l\": \"1\"}]},\n";

/* A whole file: problem, split, events (transfers, then computations when
 * not NULL) and the figures makespan, overhead, lb1, lower_bound, ratio,
 * buffer_peak, buffer_node. */
static inline char *file(const char *problem, int split, const char *transfers, const char *comps,
                  const char *makespan, const char *overhead, const char *lb1, const char *lb,
                  const char *ratio, const char *peak, const char *node)
{
    size_t cap = 4096 + strlen(transfers) + (comps ? strlen(comps) : 0);
    char *t = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    snprintf(t, cap,
             "{\"format\": \"ssched-unrolled/2\",\n \"problem\": %s,\n%s"
             " \"throughput\": \"1\", \"operations\": 2, \"split\": %s,\n"
             " \"transfers\": [\n%s\n ],\n%s%s%s"
             " \"operations_per_period\": \"1\", \"period\": \"1\", \"pattern_throughput\": \"1\",\n"
             " \"makespan\": \"%s\", \"steady_time\": \"2\", \"overhead\": \"%s\", \"lb1\": \"%s\",\n"
             " \"lower_bound\": \"%s\", \"ratio\": \"%s\", \"buffer_peak\": \"%s\","
             " \"buffer_node\": \"%s\"}\n",
             problem, PLATFORM, split ? "true" : "false", transfers,
             comps ? " \"computations\": [\n" : "", comps ? comps : "", comps ? "\n ],\n" : "",
             makespan, overhead, lb1, lb, ratio, peak, node);
    return t;
}

/* 1 valid, 0 invalid, -1 malformed; why: the reason.  Frees text. */
static inline int check(char *text, char *why)
{
    int r = tu_check_text(text, why, 512);
    free(text);
    return r;
}

/* The same file with its first start written with a leading 0 ("00",
 * "05/4"): the checker's fast path (64-bit fractions, scatter and gossip)
 * reads only plain numbers and hands such a file to the exact checker,
 * which must agree. */
static inline char *exact_only(const char *text)
{
    const char *at = strstr(text, "\"start\": \"");
    if (!at)
        return NULL;
    size_t k = (size_t)(at - text) + strlen("\"start\": \"");
    char *t = malloc(strlen(text) + 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    memcpy(t, text, k);
    t[k] = '0';
    strcpy(t + k + 1, text + k);
    return t;
}

static inline void expect(char *text, int want, const char *needle)
{
    char why[512], why2[512];
    char *slow = exact_only(text);
    if (slow) {
        int r2 = check(slow, why2);
        CU_ASSERT_EQUAL(r2, want);
        if (needle)
            CU_ASSERT_PTR_NOT_NULL(strstr(why2, needle));
    }
    int r = check(text, why);
    if (r != want || (needle && !strstr(why, needle)))
        fprintf(stderr, "\n  got %d (%s), wanted %d (%s)\n", r, why, want, needle ? needle : "");
    CU_ASSERT_EQUAL(r, want);
    if (needle)
        CU_ASSERT_PTR_NOT_NULL(strstr(why, needle));
}

/* ---- scatter S -> T through R ------------------------------------------- */

static const char *const SCATTER =
    "{\"kind\": \"scatter\", \"source\": \"S\", \"targets\": [\"T\"], \"size\": \"1\"}";

#define ST(s, e, f, t, op, extra)                                                                \
    "  {\"start\": \"" s "\", \"end\": \"" e "\", \"from\": \"" f "\", \"to\": \"" t            \
    "\", \"origin\": \"S\", \"dest\": \"T\", \"op\": " op extra "}"

/* Op 1 starts on S's port while op 0's bandwidth phase [1/2, 3/2) runs:
 * its latency phase [1, 3/2) overlaps, its bandwidth phase [3/2, 5/2)
 * follows.  R forwards each op when it has arrived (3/2, 5/2). */
#define SC_T0 ST("0", "3/2", "S", "R", "0", "")
#define SC_T1 ST("1", "5/2", "S", "R", "1", "")
#define SC_T2 ST("3/2", "11/4", "R", "T", "0", "")
#define SC_T3 ST("5/2", "15/4", "R", "T", "1", "")

#endif
