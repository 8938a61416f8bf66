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

#include "ssched/platform.h"
#include "ssched/schedule.h"
#include "latency_files.h"
#include "test_util.h"

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

/* Pieces pipelined through R: op 0 is at T by 9/4, before the path sum
 * (1/2 + 1) + (1/4 + 1) = 11/4, which is why LB1 counts only what every
 * piece pays for a scatter (7/4). */
static void test_scatter_pipelined(void)
{
#define H1 ", \"piece\": [\"0\", \"1/2\"]"
#define H2 ", \"piece\": [\"1/2\", \"1/2\"]"
    expect(file(SCATTER, 1,
                ST("0", "1", "S", "R", "0", H1) ",\n" ST("1/2", "3/2", "S", "R", "0", H2) ",\n"
                ST("1", "7/4", "R", "T", "0", H1) ",\n" ST("1", "2", "S", "R", "1", H1) ",\n"
                ST("3/2", "9/4", "R", "T", "0", H2) ",\n" ST("3/2", "5/2", "S", "R", "1", H2) ",\n"
                ST("2", "11/4", "R", "T", "1", H1) ",\n" ST("5/2", "13/4", "R", "T", "1", H2),
                NULL, "13/4", "5/4", "7/4", "2", "13/8", "2", "R"),
           1, NULL);
#undef H1
#undef H2
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

int main(void)
{
    static const tu_test_t tests[] = {
        {"scatter: overlapping latencies, valid", test_scatter_overlap_valid},
        {"scatter: a batch, valid", test_scatter_batch_valid},
        {"scatter: pieces pipelined beat the path sum", test_scatter_pipelined},
        {"bandwidth phases out of start order", test_phases_out_of_order},
        {"scatter: overlap, durations, forward before arrival", test_scatter_mutations},
        {"scatter: batches that double-deliver or miss an op", test_scatter_batch_mutations},
        {"broadcast with latencies and batches", test_broadcast},
        {"reduce with latencies and batches", test_reduce},
        {"all-reduce copies with latencies and batches", test_allreduce},
        {NULL, NULL}};
    return tu_main("latency_check", tests);
}
