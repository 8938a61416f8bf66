/* The validity checker rejects hand-broken schedules, each with a message
 * saying what is wrong and where. */
#include <stdlib.h>
#include <string.h>

#include "ssched/makespan.h"
#include "test_util.h"

typedef struct {
    size_t s, r;
    const char *start, *end;
} spec_t;

static void build(ssched_mk_schedule_t *out, ssched_mk_op_t op, size_t n, size_t root,
                  const spec_t *m, size_t count, const char *makespan, const char *reduce_mk)
{
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_schedule_alloc(out, op, n, root, count, &err) == SSCHED_OK);
    for (size_t i = 0; i < count; i++) {
        out->msg[i].sender = m[i].s;
        out->msg[i].receiver = m[i].r;
        mpq_set_str(out->msg[i].start, m[i].start, 10);
        mpq_set_str(out->msg[i].end, m[i].end, 10);
        mpq_canonicalize(out->msg[i].start);
        mpq_canonicalize(out->msg[i].end);
    }
    mpq_set_str(out->makespan, makespan, 10);
    mpq_canonicalize(out->makespan);
    if (reduce_mk) {
        mpq_set_str(out->reduce_makespan, reduce_mk, 10);
        mpq_canonicalize(out->reduce_makespan);
    }
}

/* Expect a checked schedule (SSCHED_OK) that is invalid with `what` in
 * the violation. */
static void expect_reject(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s, const char *what)
{
    ssched_error_t err;
    ssched_check_report_t rep;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_mk_check(c, s, &rep, &err);
    CU_ASSERT(st == SSCHED_OK);
    CU_ASSERT(rep.valid == 0);
    if (!strstr(rep.violation, what))
        fprintf(stderr, "expected '%s' in: %s\n", what, rep.violation);
    CU_ASSERT(strstr(rep.violation, what) != NULL);
}

static void expect_ok(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s)
{
    ssched_error_t err;
    ssched_check_report_t rep;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_mk_check(c, s, &rep, &err);
    if (st != SSCHED_OK || !rep.valid)
        fprintf(stderr, "unexpected: %s%s\n", err.message, rep.violation);
    CU_ASSERT(st == SSCHED_OK && rep.valid == 1 && rep.violation[0] == '\0');
}

/* Seed 000 Fig. 1's cluster and its SNF schedule (see test_makespan_reduce). */
static const spec_t snf7[] = {{1, 4, "0", "5"}, {2, 5, "0", "5"}, {3, 6, "0", "5"},
                              {4, 0, "5", "9"}, {5, 6, "5", "7"}, {6, 0, "9", "11"}};

static void test_reduce_breakages(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "10,5,5,5,4,2,2", &err) == SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    spec_t m[6];

    build(&s, SSCHED_MK_REDUCE, 7, 0, snf7, 6, "11", "11");
    expect_ok(&c, &s);

    /* overlap: C also sends to E while B does */
    memcpy(m, snf7, sizeof m);
    m[1].r = 4;
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    expect_reject(&c, &s, "one-port violation: processor 4");

    /* overlap at a receiver: A receives from E [5,9] and from G moved to [8,10] */
    memcpy(m, snf7, sizeof m);
    m[5].start = "8";
    m[5].end = "10";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "10", NULL);
    expect_reject(&c, &s, "one-port violation: processor 0");

    /* message before data ready, no overlap: F's message reaches G at
     * [11,13], after G already sent at [9,11] */
    memcpy(m, snf7, sizeof m);
    m[4].start = "11";
    m[4].end = "13";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "13", NULL);
    expect_reject(&c, &s, "data not ready: processor 6 sends (message 5, start 9) before receiving message 4 (end 13)");

    /* wrong duration */
    memcpy(m, snf7, sizeof m);
    m[3].end = "8";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    expect_reject(&c, &s, "message 3 (4->0): lasts 3 but t(4) = 4");

    /* the destination sends (to G, which then never sends) */
    memcpy(m, snf7, sizeof m);
    m[5].s = 0;
    m[5].r = 6;
    m[5].end = "19";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "19", NULL);
    expect_reject(&c, &s, "message 5: the destination 0 sends");

    /* a processor sends twice (and G never) */
    memcpy(m, snf7, sizeof m);
    m[5].s = 5;
    m[5].end = "11";
    m[5].start = "9";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    expect_reject(&c, &s, "processor 5 sends twice");

    /* makespan does not match the messages */
    build(&s, SSCHED_MK_REDUCE, 7, 0, snf7, 6, "12", NULL);
    expect_reject(&c, &s, "makespan 12 but the last message ends at 11");

    /* wrong number of messages, processor out of range, self message */
    build(&s, SSCHED_MK_REDUCE, 7, 0, snf7, 5, "11", NULL);
    expect_reject(&c, &s, "5 messages, expected 6");
    memcpy(m, snf7, sizeof m);
    m[0].r = 9;
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    expect_reject(&c, &s, "out of range");
    memcpy(m, snf7, sizeof m);
    m[0].r = 1;
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    expect_reject(&c, &s, "sends to itself");
    memcpy(m, snf7, sizeof m);
    m[0].start = "-1";
    m[0].end = "4";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    expect_reject(&c, &s, "negative start");

    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* A schedule whose receivers are fine for the one-port check but breaks
 * "data ready" without any overlap: 2 sends, then receives. */
static void test_data_not_ready_without_overlap(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "1,1,1", &err) == SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    const spec_t good[] = {{1, 2, "0", "1"}, {2, 0, "1", "2"}};
    const spec_t bad[] = {{2, 0, "0", "1"}, {1, 2, "1", "2"}};
    build(&s, SSCHED_MK_REDUCE, 3, 0, good, 2, "2", NULL);
    expect_ok(&c, &s);
    build(&s, SSCHED_MK_REDUCE, 3, 0, bad, 2, "2", NULL);
    expect_reject(&c, &s, "data not ready: processor 2 sends (message 0, start 0) before receiving message 1 (end 2)");
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* Inequality (1) on start times alone: four senders at time 0 among seven
 * processors need 8 > 7 processors. */
static void test_inequality1(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "10,5,5,5,4,2,2", &err) == SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    build(&s, SSCHED_MK_REDUCE, 7, 0, snf7, 6, "11", NULL);
    ssched_check_report_t rep;
    CU_ASSERT(ssched_mk_check_inequality1(&c, &s, &rep, &err) == SSCHED_OK && rep.valid);
    spec_t m[6];
    memcpy(m, snf7, sizeof m);
    m[3].start = "0"; /* E at [0,4] as well */
    m[3].end = "4";
    build(&s, SSCHED_MK_REDUCE, 7, 0, m, 6, "11", NULL);
    CU_ASSERT(ssched_mk_check_inequality1(&c, &s, &rep, &err) == SSCHED_OK && !rep.valid);
    CU_ASSERT(strstr(rep.violation, "inequality (1) fails at time 0: 2A + C = 8 > n = 7") != NULL);
    CU_ASSERT(ssched_mk_check(&c, &s, &rep, &err) == SSCHED_OK && !rep.valid);
    ssched_mk_cluster_free(&c);
    /* At an instant t, transfers ending at t count as completed (C) and
     * those starting at t as active (A): back to back is fine, overlapping
     * is not. */
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "1,1,1", &err) == SSCHED_OK);
    const spec_t chain[] = {{1, 2, "0", "1"}, {2, 0, "1", "2"}};
    const spec_t early[] = {{1, 2, "0", "1"}, {2, 0, "1/2", "3/2"}};
    build(&s, SSCHED_MK_REDUCE, 3, 0, chain, 2, "2", NULL);
    CU_ASSERT(ssched_mk_check_inequality1(&c, &s, &rep, &err) == SSCHED_OK && rep.valid);
    build(&s, SSCHED_MK_REDUCE, 3, 0, early, 2, "3/2", NULL);
    CU_ASSERT(ssched_mk_check_inequality1(&c, &s, &rep, &err) == SSCHED_OK && !rep.valid);
    CU_ASSERT(strstr(rep.violation, "fails at time 1/2: 2A + C = 4 > n = 3") != NULL);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

static void test_broadcast_breakages(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "1,1,2,3,2", &err) == SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    const spec_t fnf[] = {{0, 1, "0", "1"}, {0, 2, "1", "2"}, {1, 4, "1", "2"}, {0, 3, "2", "3"}};
    spec_t m[4];
    build(&s, SSCHED_MK_BROADCAST, 5, 0, fnf, 4, "3", NULL);
    expect_ok(&c, &s);

    memcpy(m, fnf, sizeof m); /* 1 forwards before it has the data */
    m[2].start = "0";
    m[2].end = "1";
    m[0].start = "1";
    m[0].end = "2";
    m[1].start = "0";
    m[1].end = "1";
    m[1].r = 2;
    build(&s, SSCHED_MK_BROADCAST, 5, 0, m, 4, "3", NULL);
    expect_reject(&c, &s, "data not ready: message 2 (1->4) starts at 0 but processor 1 has the data only at 2");

    memcpy(m, fnf, sizeof m); /* 4 receives twice, 3 never */
    m[3].r = 4;
    build(&s, SSCHED_MK_BROADCAST, 5, 0, m, 4, "3", NULL);
    expect_reject(&c, &s, "processor 4 receives twice");

    memcpy(m, fnf, sizeof m); /* the source receives */
    m[3].s = 1;
    m[3].r = 0;
    build(&s, SSCHED_MK_BROADCAST, 5, 0, m, 4, "3", NULL);
    expect_reject(&c, &s, "the source 0 receives");

    memcpy(m, fnf, sizeof m); /* the source sends two messages at once */
    m[3].start = "1";
    m[3].end = "2";
    build(&s, SSCHED_MK_BROADCAST, 5, 0, m, 4, "2", NULL);
    expect_reject(&c, &s, "one-port violation: processor 0");

    memcpy(m, fnf, sizeof m); /* wrong duration */
    m[3].end = "4";
    build(&s, SSCHED_MK_BROADCAST, 5, 0, m, 4, "4", NULL);
    expect_reject(&c, &s, "message 3 (0->3): lasts 2 but t(0) = 1");
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* All-reduce: the broadcast part obeys the broadcast rules after the hub
 * got the result; the phases share the one-port check. */
static void test_allreduce_breakages(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "1,1,1,1", &err) == SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    CU_ASSERT(ssched_mk_allreduce(&c, 0, SSCHED_MK_ALLREDUCE_SNF_FNF, &s, &err) == SSCHED_OK);
    expect_ok(&c, &s);
    /* SNF to 0 then FNF from 0, by hand */
    const spec_t good[] = {{1, 3, "0", "1"}, {2, 0, "0", "1"}, {3, 0, "1", "2"},
                           {0, 1, "2", "3"}, {0, 2, "3", "4"}, {1, 3, "3", "4"}};
    build(&s, SSCHED_MK_ALLREDUCE, 4, 0, good, 6, "4", "2");
    expect_ok(&c, &s);
    spec_t m[6];
    memcpy(m, good, sizeof m);
    m[5].s = 2; /* 2 forwards at [2,3], but gets the result only at 4 */
    m[5].start = "2";
    m[5].end = "3";
    build(&s, SSCHED_MK_ALLREDUCE, 4, 0, m, 6, "4", "2");
    expect_reject(&c, &s, "data not ready: message 5 (2->3) starts at 2 but processor 2 has the data only at 4");
    memcpy(m, good, sizeof m);
    m[3].start = "1"; /* the hub broadcasts while receiving */
    m[3].end = "2";
    build(&s, SSCHED_MK_ALLREDUCE, 4, 0, m, 6, "4", "2");
    expect_reject(&c, &s, "one-port violation: processor 0");
    build(&s, SSCHED_MK_ALLREDUCE, 4, 0, good, 6, "4", "3");
    expect_reject(&c, &s, "reduce phase ends at 2, not at 3");
    build(&s, SSCHED_MK_ALLREDUCE, 4, 0, good, 5, "4", "2");
    expect_reject(&c, &s, "5 messages, expected 6");
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"reduce: overlaps, data not ready, durations, roles", test_reduce_breakages},
        {"reduce: data not ready without overlap", test_data_not_ready_without_overlap},
        {"inequality (1)", test_inequality1},
        {"broadcast: data not ready, double receive, overlaps", test_broadcast_breakages},
        {"allreduce: broadcast before the reduce ends", test_allreduce_breakages},
        {NULL, NULL}};
    return tu_main("makespan checker", tests);
}
