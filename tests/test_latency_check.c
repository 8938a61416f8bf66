/* Latencies and batches in unrolled files (docs/model.md, "Latency"),
 * checked on files written by hand (not by the engine): a transfer over e
 * lasts l(e) + batch * length * size * c(e), holds its ports only in its
 * bandwidth phase [start + l(e), end), its data is at the receiver at the
 * end; "batch": n carries operations op .. op+n-1.  Every figure of the
 * valid files is computed by hand below, lb1 with latencies included.
 *
 * The platform: S -> R (c = 1, l = 1/2), R -> T (c = 1, l = 1/4),
 * R -> S (c = 1, l = 1); every node computes (w = 1); size 1, K = 2.
 * Scatter S -> T, broadcast from S and reduce of S, R to S all have
 * TP = 1 (one message per operation through R's or S's ports). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
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
static char *file(const char *problem, int split, const char *transfers, const char *comps,
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
static int check(char *text, char *why)
{
    int r = tu_check_text(text, why, 512);
    free(text);
    return r;
}

/* The same file with its first start written with a leading 0 ("00",
 * "05/4"): the checker's fast path (64-bit fractions, scatter and gossip)
 * reads only plain numbers and hands such a file to the exact checker,
 * which must agree. */
static char *exact_only(const char *text)
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

static void expect(char *text, int want, const char *needle)
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

/* LB1 of the scatter: dl(S, T) = 1/2 + 1/4, plus size * max(cheapest c
 * out of S, into T) = 1: 7/4 (the port loads are 1/2 + 1 and 1/4 + 1);
 * K/TP = 2 is the larger. */
static char *scatter(const char *events, const char *makespan, const char *overhead,
                     const char *ratio)
{
    return file(SCATTER, 0, events, NULL, makespan, overhead, "7/4", "2", ratio, "2", "R");
}

static void test_scatter_overlap_valid(void)
{
    expect(scatter(SC_T0 ",\n" SC_T1 ",\n" SC_T2 ",\n" SC_T3, "15/4", "7/4", "15/8"), 1, NULL);
}

static void test_scatter_batch_valid(void)
{
    /* both operations in one message of 2: 1/2 + 2, then 1/4 + 2 */
    expect(scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                   ST("5/2", "19/4", "R", "T", "0", ", \"batch\": 2"),
                   "19/4", "11/4", "19/8"),
           1, NULL);
}

static void test_scatter_mutations(void)
{
    /* bandwidth phases [1/2, 3/2) and [1, 2) on S's port */
    expect(scatter(SC_T0 ",\n" ST("1/2", "2", "S", "R", "1", "") ",\n" SC_T2 ",\n" SC_T3, "15/4",
                   "7/4", "15/8"),
           0, "node S sends two messages at once");
    /* the latency left out: 1 instead of 1/2 + 1 */
    expect(scatter(ST("0", "1", "S", "R", "0", "") ",\n" SC_T1 ",\n" SC_T2 ",\n" SC_T3, "15/4",
                   "7/4", "15/8"),
           0, "lasts fewer time units");
    /* a latency too many */
    expect(scatter(SC_T0 ",\n" SC_T1 ",\n" ST("3/2", "3", "R", "T", "0", "") ",\n" SC_T3, "15/4",
                   "7/4", "15/8"),
           0, "lasts more time units");
    /* R forwards op 0 at 5/4, before it arrived at 3/2 */
    expect(scatter(SC_T0 ",\n" SC_T1 ",\n" ST("5/4", "5/2", "R", "T", "0", "") ",\n" SC_T3, "15/4",
                   "7/4", "15/8"),
           0, "leaves before it arrived");
    /* a wrong lb1 (the path sum 11/4 is no bound for pieces) */
    expect(file(SCATTER, 0, SC_T0 ",\n" SC_T1 ",\n" SC_T2 ",\n" SC_T3, NULL, "15/4", "7/4", "11/4",
                "11/4", "15/11", "2", "R"),
           0, "\"lb1\" is not what the events give");
}

static void test_scatter_batch_mutations(void)
{
    /* op 1 delivered by the batch, then moved again */
    expect(scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                   ST("5/2", "19/4", "R", "T", "0", ", \"batch\": 2") ",\n"
                   ST("19/4", "6", "R", "T", "1", ""),
                   "6", "4", "3"),
           0, "moves after it was delivered");
    /* the batch brings ops 0 and 1 to R, only op 0 goes on */
    expect(scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                   ST("5/2", "15/4", "R", "T", "0", ""),
                   "15/4", "7/4", "15/8"),
           0, "never receives all of message 1");
    /* a batch past the last operation */
    expect(scatter(ST("0", "5/2", "S", "R", "1", ", \"batch\": 2") ",\n"
                   ST("5/2", "19/4", "R", "T", "0", ", \"batch\": 2"),
                   "19/4", "11/4", "19/8"),
           0, "operation 2 is outside 0..1");
    /* a batch of 2 lasting as one message */
    expect(scatter(ST("0", "3/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                   ST("3/2", "15/4", "R", "T", "0", ", \"batch\": 2"),
                   "15/4", "7/4", "15/8"),
           0, "lasts fewer time units");
    /* R forwards the batch before it fully arrived */
    expect(scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                   ST("2", "17/4", "R", "T", "0", ", \"batch\": 2"),
                   "17/4", "9/4", "17/8"),
           0, "leaves before it arrived");
    /* not a positive integer: a malformed file */
    expect(scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 0") ",\n"
                   ST("5/2", "19/4", "R", "T", "0", ", \"batch\": 2"),
                   "19/4", "11/4", "19/8"),
           -1, "\"batch\" must be a positive integer");
}

/* Starts in order, bandwidth phases not: R sends to S (l = 1) at 0, phase
 * [1, 2), and half of T's message (l = 1/4) at 0 too, phase [1/4, 3/4):
 * no overlap, though "start before the last end" would say there is.
 * Scatter from R to S and T, K = 1, TP = 1/2 (two messages out of R). */
static char *two_out(const char *third)
{
    char *t = malloc(4096);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    snprintf(t, 4096,
             "{\"format\": \"ssched-unrolled/2\",\n \"problem\": {\"kind\": \"scatter\","
             " \"source\": \"R\", \"targets\": [\"S\", \"T\"], \"size\": \"1\"},\n%s"
             " \"throughput\": \"1/2\", \"operations\": 1, \"split\": true,\n \"transfers\": [\n"
             "  {\"start\": \"0\", \"end\": \"2\", \"from\": \"R\", \"to\": \"S\", \"origin\":"
             " \"R\", \"dest\": \"S\", \"op\": 0},\n"
             "  {\"start\": \"0\", \"end\": \"3/4\", \"from\": \"R\", \"to\": \"T\", \"origin\":"
             " \"R\", \"dest\": \"T\", \"op\": 0, \"piece\": [\"0\", \"1/2\"]},\n%s\n ],\n"
             " \"operations_per_period\": \"1\", \"period\": \"2\", \"pattern_throughput\":"
             " \"1/2\",\n \"makespan\": \"5/2\", \"steady_time\": \"2\", \"overhead\": \"1/2\","
             " \"lb1\": \"9/4\", \"lower_bound\": \"9/4\", \"ratio\": \"10/9\"}\n",
             PLATFORM, third);
    return t;
}

static void test_phases_out_of_order(void)
{
    /* LB1: R's out-port sends 2 messages after its cheapest latency 1/4 */
    expect(two_out("  {\"start\": \"7/4\", \"end\": \"5/2\", \"from\": \"R\", \"to\": \"T\","
                   " \"origin\": \"R\", \"dest\": \"T\", \"op\": 0, \"piece\": [\"1/2\", \"1/2\"]}"),
           1, NULL);
    /* the second half at 3/4: phase [1, 3/2) meets [1, 2) */
    expect(two_out("  {\"start\": \"3/4\", \"end\": \"3/2\", \"from\": \"R\", \"to\": \"T\","
                   " \"origin\": \"R\", \"dest\": \"T\", \"op\": 0, \"piece\": [\"1/2\", \"1/2\"]}"),
           0, "node R sends two messages at once");
}

/* ---- broadcast from S --------------------------------------------------- */

static const char *const BCAST =
    "{\"kind\": \"broadcast\", \"source\": \"S\", \"targets\": [\"R\", \"T\"], \"size\": \"1\"}";

#define BT(s, e, f, t, op, extra)                                                                \
    "  {\"start\": \"" s "\", \"end\": \"" e "\", \"from\": \"" f "\", \"to\": \"" t            \
    "\", \"op\": " op extra "}"

/* LB1 = d(S, T) = (1/2 + 1) + (1/4 + 1) = 11/4 > K/TP = 2. */
static void test_broadcast(void)
{
    const char *ok = BT("0", "3/2", "S", "R", "0", "") ",\n" BT("1", "5/2", "S", "R", "1", "")
        ",\n" BT("3/2", "11/4", "R", "T", "0", "") ",\n" BT("5/2", "15/4", "R", "T", "1", "");
    expect(file(BCAST, 0, ok, NULL, "15/4", "7/4", "11/4", "11/4", "15/11", "2", "R"), 1, NULL);
    /* lb1 without the latencies */
    expect(file(BCAST, 0, ok, NULL, "15/4", "7/4", "2", "2", "15/8", "2", "R"), 0,
           "\"lb1\" is not what the events give");
    const char *batch = BT("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
        BT("5/2", "19/4", "R", "T", "0", ", \"batch\": 2");
    expect(file(BCAST, 0, batch, NULL, "19/4", "11/4", "11/4", "11/4", "19/11", "2", "R"), 1, NULL);
    /* R gets op 1 twice: in the batch and alone */
    expect(file(BCAST, 0,
                BT("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                BT("5/2", "4", "S", "R", "1", "") ",\n"
                BT("4", "25/4", "R", "T", "0", ", \"batch\": 2"),
                NULL, "25/4", "17/4", "11/4", "11/4", "25/11", "2", "R"),
           0, "receives message 1 a second time");
    /* T misses op 1 */
    expect(file(BCAST, 0,
                BT("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                BT("5/2", "15/4", "R", "T", "0", ""),
                NULL, "15/4", "7/4", "11/4", "11/4", "15/11", "2", "R"),
           0, "never receives message 1");
    /* forwarded before fully arrived */
    expect(file(BCAST, 0,
                BT("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                BT("2", "17/4", "R", "T", "0", ", \"batch\": 2"),
                NULL, "17/4", "9/4", "11/4", "11/4", "17/11", "2", "R"),
           0, "before it has fully arrived");
    /* send phases [1/2, 3/2) and [1, 2) at S */
    expect(file(BCAST, 0,
                BT("0", "3/2", "S", "R", "0", "") ",\n" BT("1/2", "2", "S", "R", "1", "")
                ",\n" BT("3/2", "11/4", "R", "T", "0", "") ",\n" BT("11/4", "4", "R", "T", "1", ""),
                NULL, "4", "2", "11/4", "11/4", "16/11", "2", "R"),
           0, "node S sends two messages at once");
}

/* ---- reduce of S, R to S ------------------------------------------------- */

static const char *const REDUCE =
    "{\"kind\": \"reduce\", \"participants\": [\"S\", \"R\"], \"target\": \"S\", \"size\": \"1\"}";

#define RT(s, e, op, extra)                                                                      \
    "  {\"start\": \"" s "\", \"end\": \"" e "\", \"from\": \"R\", \"to\": \"S\", \"interval\":" \
    " [1, 1], \"op\": " op extra "}"
#define RC(s, e, op)                                                                             \
    "  {\"start\": \"" s "\", \"end\": \"" e "\", \"node\": \"S\", \"task\": [0, 0, 1], \"op\": " \
    op "}"

/* LB1: R's value reaches a processor and the result S: via x = S,
 * (1 + 1) + w = 3, via x = R, w + (1 + 1) = 3: 3 > K/TP = 2.  Buffer: R's
 * values wait at S from the start of the transfer to the end of the merge. */
static void test_reduce(void)
{
    expect(file(REDUCE, 1, RT("0", "2", "0", "") ",\n" RT("1", "3", "1", ""),
                RC("2", "3", "0") ",\n" RC("3", "4", "1"), "4", "2", "3", "3", "4/3", "2", "S"),
           1, NULL);
    expect(file(REDUCE, 1, RT("0", "3", "0", ", \"batch\": 2"),
                RC("3", "4", "0") ",\n" RC("4", "5", "1"), "5", "3", "3", "3", "5/3", "2", "S"),
           1, NULL);
    /* the merge of op 0 before the batch arrived */
    expect(file(REDUCE, 1, RT("0", "3", "0", ", \"batch\": 2"),
                RC("2", "3", "0") ",\n" RC("4", "5", "1"), "5", "3", "3", "3", "5/3", "2", "S"),
           0, "before it exists");
    /* the batch leaves op 1 out: op 1 is never reduced */
    expect(file(REDUCE, 1, RT("0", "2", "0", ""), RC("2", "3", "0") ",\n" RC("3", "4", "1"), "4",
                "2", "3", "3", "4/3", "2", "S"),
           0, "which is not there");
    /* op 1 carried twice */
    expect(file(REDUCE, 1, RT("0", "3", "0", ", \"batch\": 2") ",\n" RT("2", "4", "1", ""),
                RC("4", "5", "0") ",\n" RC("5", "6", "1"), "6", "4", "3", "3", "2", "2", "S"),
           0, "twice");
    /* send phases [1, 2) and [3/2, 5/2) at R */
    expect(file(REDUCE, 1, RT("0", "2", "0", "") ",\n" RT("1/2", "5/2", "1", ""),
                RC("2", "3", "0") ",\n" RC("3", "4", "1"), "4", "2", "3", "3", "4/3", "2", "S"),
           0, "two things at once");
    /* a batch lasting as one message */
    expect(file(REDUCE, 1, RT("0", "2", "0", ", \"batch\": 2"),
                RC("2", "3", "0") ",\n" RC("3", "4", "1"), "4", "2", "3", "3", "4/3", "2", "S"),
           0, "lasts fewer time units");
}

/* ---- all-reduce of S, R with root S -------------------------------------- */

static const char *const ALLRED =
    "{\"kind\": \"allreduce\", \"participants\": [\"S\", \"R\"], \"root\": \"S\", "
    "\"size\": \"1\"}";

#define CP(s, e, op, extra)                                                                      \
    "  {\"start\": \"" s "\", \"end\": \"" e "\", \"from\": \"S\", \"to\": \"R\", \"copy\":" \
    " true, \"op\": " op extra "}"

/* LB1: the reduce bound to S (3) plus d(S, R) = 1/2 + 1 for the result:
 * 9/2.  The copies of each result leave S once its merge ended. */
static void test_allreduce(void)
{
    const char *merges = RC("3", "4", "0") ",\n" RC("4", "5", "1");
    expect(file(ALLRED, 1, RT("0", "3", "0", ", \"batch\": 2") ",\n" CP("4", "11/2", "0", "")
                ",\n" CP("5", "13/2", "1", ""),
                merges, "13/2", "9/2", "9/2", "9/2", "13/9", "2", "S"),
           1, NULL);
    /* both results in one copy, after the second merge */
    expect(file(ALLRED, 1, RT("0", "3", "0", ", \"batch\": 2") ",\n" CP("5", "15/2", "0",
                ", \"batch\": 2"),
                merges, "15/2", "11/2", "9/2", "9/2", "5/3", "2", "S"),
           1, NULL);
    /* the batched copy leaves before op 1's result is complete (at 5) */
    expect(file(ALLRED, 1, RT("0", "3", "0", ", \"batch\": 2") ",\n" CP("4", "13/2", "0",
                ", \"batch\": 2"),
                merges, "13/2", "9/2", "9/2", "9/2", "13/9", "2", "S"),
           0, "before its reduce result is complete");
    /* R gets the result of op 1 twice */
    expect(file(ALLRED, 1, RT("0", "3", "0", ", \"batch\": 2") ",\n" CP("5", "15/2", "0",
                ", \"batch\": 2") ",\n" CP("15/2", "9", "1", ""),
                merges, "9", "7", "9/2", "9/2", "2", "2", "S"),
           0, "message 1 moves to R after every target has it");
    /* a copy without its latency */
    expect(file(ALLRED, 1, RT("0", "3", "0", ", \"batch\": 2") ",\n" CP("4", "5", "0", "")
                ",\n" CP("5", "13/2", "1", ""),
                merges, "13/2", "9/2", "9/2", "9/2", "13/9", "2", "S"),
           0, "lasts fewer time units");
}

/* ---- the fast path against the exact checker, random files ------------- */

typedef struct {
    int num, den;       /* start */
    int edge, op, batch, half; /* half: 0 whole, 1 first half, 2 second */
} rev_t;

static int cmp_rev(const void *a, const void *b)
{
    const rev_t *x = a, *y = b;
    long l = (long)x->num * y->den, r = (long)y->num * x->den;
    return (l > r) - (l < r);
}

/* Random scatters S -> T (K = 3) over the latency platform: each op's
 * message, whole or in halves, possibly batched, over S -> R then R -> T,
 * at random starts (quarters) with exact durations; often valid, often
 * not.  The fast path and the exact checker must give the same verdict
 * and the same message on every one. */
static void test_fast_equals_exact(void)
{
    int valid = 0, invalid = 0;
    mpq_t t, d, mk, ov, ra;
    mpq_inits(t, d, mk, ov, ra, NULL);
    for (int inst = 0; inst < 400; inst++) {
        rev_t ev[24];
        size_t n = 0;
        for (int op = 0; op < 3; op++) {
            int batch = op < 2 && tu_pick(3) == 0 ? 2 : 1, halves = tu_pick(3) == 0;
            for (int edge = 0; edge < 2; edge++)
                for (int h = 0; h < (halves ? 2 : 1); h++) {
                    rev_t *e = &ev[n++];
                    /* a valid base (S -> R at 3 op, R -> T from 3 op + 3,
                     * a second half 1 (5/4) later), jittered half the time */
                    e->den = 4;
                    e->num = 12 * op + 12 * edge + h * (4 + edge) +
                             (tu_pick(2) ? (int)tu_pick(5) - 2 : 0);
                    if (e->num < 0)
                        e->num = 0;
                    e->edge = edge;
                    e->op = op;
                    e->batch = batch;
                    e->half = halves ? h + 1 : 0;
                }
            if (batch == 2)
                op++; /* op + 1 travels in the batch */
        }
        qsort(ev, n, sizeof *ev, cmp_rev);
        char body[8192] = "";
        size_t at = 0;
        mpq_set_ui(mk, 0, 1);
        for (size_t k = 0; k < n; k++) {
            /* end = start + l + batch * len * 1 */
            mpq_set_si(t, ev[k].num, (unsigned long)ev[k].den);
            mpq_canonicalize(t);
            mpq_set_ui(d, ev[k].edge ? 1 : 2, 4);
            mpq_canonicalize(d);
            mpq_add(d, d, t);
            mpq_t len;
            mpq_init(len);
            mpq_set_ui(len, (unsigned long)ev[k].batch, ev[k].half ? 2 : 1);
            mpq_canonicalize(len);
            mpq_add(d, d, len);
            mpq_clear(len);
            if (mpq_cmp(d, mk) > 0)
                mpq_set(mk, d);
            char *ts = mpq_get_str(NULL, 10, t), *ds = mpq_get_str(NULL, 10, d);
            at += (size_t)snprintf(body + at, sizeof body - at,
                                   "%s  {\"start\": \"%s\", \"end\": \"%s\", \"from\": \"%s\","
                                   " \"to\": \"%s\", \"origin\": \"S\", \"dest\": \"T\","
                                   " \"op\": %d%s%s}",
                                   k ? ",\n" : "", ts, ds, ev[k].edge ? "R" : "S",
                                   ev[k].edge ? "T" : "R", ev[k].op,
                                   ev[k].batch == 2 ? ", \"batch\": 2" : "",
                                   ev[k].half == 1   ? ", \"piece\": [\"0\", \"1/2\"]"
                                   : ev[k].half == 2 ? ", \"piece\": [\"1/2\", \"1/2\"]"
                                                     : "");
            free(ts);
            free(ds);
        }
        /* K/TP = 3 > LB1 = 7/4 */
        mpq_set_ui(t, 3, 1);
        mpq_sub(ov, mk, t);
        mpq_div(ra, mk, t);
        char *mks = mpq_get_str(NULL, 10, mk), *ovs = mpq_get_str(NULL, 10, ov),
             *ras = mpq_get_str(NULL, 10, ra);
        char *text = malloc(16384);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        snprintf(text, 16384,
                 "{\"format\": \"ssched-unrolled/2\",\n \"problem\": %s,\n%s"
                 " \"throughput\": \"1\", \"operations\": 3, \"split\": true,\n"
                 " \"transfers\": [\n%s\n ],\n"
                 " \"operations_per_period\": \"1\", \"period\": \"1\", \"pattern_throughput\":"
                 " \"1\",\n \"makespan\": \"%s\", \"steady_time\": \"3\", \"overhead\": \"%s\","
                 " \"lb1\": \"7/4\", \"lower_bound\": \"3\", \"ratio\": \"%s\"}\n",
                 SCATTER, PLATFORM, body, mks, ovs, ras);
        free(mks);
        free(ovs);
        free(ras);
        char why[512], why2[512];
        char *slow = exact_only(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
        int r = check(text, why), r2 = check(slow, why2);
        if (r != r2 || strcmp(why, why2))
            fprintf(stderr, "\n  instance %d: fast %d (%s), exact %d (%s)\n", inst, r, why, r2,
                    why2);
        CU_ASSERT_EQUAL(r, r2);
        CU_ASSERT_STRING_EQUAL(why, why2);
        valid += r == 1;
        invalid += r == 0;
    }
    printf(" (%d valid, %d invalid) ", valid, invalid);
    mpq_clears(t, d, mk, ov, ra, NULL);
    /* the instances are of both kinds */
    CU_ASSERT(valid >= 10);
    CU_ASSERT(invalid >= 10);
}

/* ---- the unrolled reader and writer ------------------------------------- */

/* A batched file with latencies reads back (batch 2, l = 1/2) and is
 * written again with its "batch" and "l", still valid. */
static void test_read_write_batch(void)
{
    char *text = scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 2") ",\n"
                         ST("5/2", "19/4", "R", "T", "0", ", \"batch\": 2"),
                         "19/4", "11/4", "19/8");
    const char *path = tu_tmp_path("batch.json");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    free(text);
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_unrolled_t u;
    ssched_error_t err;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_unrolled_init(&u);
    ssched_status_t rc = ssched_unrolled_read_file(path, &p, &pb, &u, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  read: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(u.n_transfers, 2);
    CU_ASSERT_EQUAL(u.transfers[0].batch, 2);
    CU_ASSERT_EQUAL(u.transfers[1].batch, 2);
    CU_ASSERT(tu_mpq_equals(p.l[ssched_platform_edge_index(&p, 0, 1)], "1/2"));
    CU_ASSERT(tu_mpq_equals(p.l[ssched_platform_edge_index(&p, 1, 2)], "1/4"));
    /* written again: the schedule's header from a plan of the same problem */
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(st.throughput, "1"));
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, 2, NULL, 0, &s, &err), SSCHED_OK);
    char *again = tu_unrolled_json(&p, &pb, &s, &u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_PTR_NOT_NULL(strstr(again, "\"op\": 0, \"batch\": 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(again, "\"l\": \"1/2\""));
    char why[512];
    int ok = tu_check_text(again, why, sizeof why);
    if (ok != 1)
        fprintf(stderr, "\n  written again: %s\n", why);
    CU_ASSERT_EQUAL(ok, 1);
    free(again);
    /* a batch of 0 is refused by the reader, naming the transfer */
    text = scatter(ST("0", "5/2", "S", "R", "0", ", \"batch\": 0") ",\n"
                   ST("5/2", "19/4", "R", "T", "0", ", \"batch\": 2"),
                   "19/4", "11/4", "19/8");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    free(text);
    ssched_unrolled_t v;
    ssched_platform_t p2;
    ssched_problem_t pb2;
    ssched_platform_init(&p2);
    ssched_problem_init(&pb2);
    ssched_unrolled_init(&v);
    CU_ASSERT_EQUAL(ssched_unrolled_read_file(path, &p2, &pb2, &v, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "transfers[0]: \"batch\" must be a positive integer"));
    ssched_unrolled_free(&v);
    ssched_problem_free(&pb2);
    ssched_platform_free(&p2);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_unrolled_free(&u);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* ---- LB1 with latencies on hand cases ------------------------------------ */

/* A chain P0 -> P1 -> ... -> P(n-1), c = i + 1, l = 1/(i + 2) on hop i. */
static void chain(ssched_platform_t *p, size_t n)
{
    ssched_platform_init(p);
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%zu", i);
        mpq_set_ui(q, 1, 1);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, name, q, NULL, NULL), SSCHED_OK);
    }
    for (size_t i = 0; i + 1 < n; i++) {
        mpq_set_ui(q, (unsigned long)i + 1, 1);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, i, i + 1, q, NULL), SSCHED_OK);
        mpq_set_ui(q, 1, (unsigned long)i + 2);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(p, i, q, NULL), SSCHED_OK);
    }
    mpq_clear(q);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void test_lb1_chain(void)
{
    ssched_platform_t p;
    chain(&p, 4); /* hops: 1 + 1/2, 2 + 1/3, 3 + 1/4 */
    ssched_problem_t pb;
    mpq_t lb;
    mpq_init(lb);
    /* broadcast from P0, size 2: the sum over the chain of l + 2c = 12 + 13/12 */
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "P0", NULL, NULL), SSCHED_OK);
    mpq_set_ui(pb.size, 2, 1);
    CU_ASSERT_EQUAL(ssched_unroll_lb1(&p, &pb, lb, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(lb, "157/12"));
    ssched_problem_free(&pb);
    /* reduce of P0, P3 to P3, size 1: P0's value merges at P3 after the
     * chain (6 + 13/12) and w = 1: 97/12 */
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "P0,P3", "P3", NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_unroll_lb1(&p, &pb, lb, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(lb, "97/12"));
    ssched_problem_free(&pb);
    /* scatter P0 -> P3, size 1: latencies 13/12 + max(c out of P0 = 1,
     * c into P3 = 3) = 49/12; the port loads are 1/2 + 1 and 1/4 + 3 */
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "P0", "P3", NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_unroll_lb1(&p, &pb, lb, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(lb, "49/12"));
    ssched_problem_free(&pb);
    /* without latencies the broadcast bound is the plain sum 2 * 6 */
    mpq_t z;
    mpq_init(z);
    for (size_t e = 0; e < p.n_edges; e++)
        ssched_platform_set_latency(&p, e, z, NULL);
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "P0", NULL, NULL), SSCHED_OK);
    mpq_set_ui(pb.size, 2, 1);
    CU_ASSERT_EQUAL(ssched_unroll_lb1(&p, &pb, lb, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(lb, "12"));
    ssched_problem_free(&pb);
    mpq_clears(z, lb, NULL);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"scatter: overlapping latencies, valid", test_scatter_overlap_valid},
        {"scatter: a batch, valid", test_scatter_batch_valid},
        {"bandwidth phases out of start order", test_phases_out_of_order},
        {"scatter: overlap, durations, forward before arrival", test_scatter_mutations},
        {"scatter: batches that double-deliver or miss an op", test_scatter_batch_mutations},
        {"broadcast with latencies and batches", test_broadcast},
        {"reduce with latencies and batches", test_reduce},
        {"all-reduce copies with latencies and batches", test_allreduce},
        {"fast path = exact checker on random files", test_fast_equals_exact},
        {"LB1 with latencies on a chain", test_lb1_chain},
        {"unrolled reader and writer: batch and l", test_read_write_batch},
        {NULL, NULL}};
    return tu_main("latency_check", tests);
}
