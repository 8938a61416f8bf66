/* Unrolled all-reduces (schedule/unroll_allreduce.c): on fig6 and
 * tiers-small, ordered and commutative, every file (in memory and
 * streamed) passes the independent checker and the JSON Schema, the reader
 * takes it back, and a reference written here re-derives the rules from
 * the events (every participant but the root receives each op's result
 * exactly once; a copy leaves the root only after the op's reduce result
 * is complete there, and any other node only after it arrived); the
 * makespan stays within the targets of K / TP; hand-broken files (nine
 * kinds) are rejected with the right violation; the CLI writes, checks and
 * refuses what it does not support. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define EX SSCHED_SOURCE_DIR "/examples/"

static void load(ssched_platform_t *p, const char *path)
{
    ssched_platform_init(p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(p, path, NULL), SSCHED_OK);
}

static void ar_solve(const ssched_platform_t *p, const char *parts, int commutative,
                     ssched_problem_t *pb, ssched_steady_t *s)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_problem_init(pb);
    ssched_steady_init(s);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_allreduce(pb, p, parts, NULL, commutative, &err),
                          SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, s, &err), SSCHED_OK);
}

/* The rules, re-derived from the in-memory events (not the checker's
 * code): the root's result time is the end of the last reduce event of the
 * op that involves the root; copies as stated above. */
static void reference(const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_schedule_t *s, const ssched_unrolled_t *u)
{
    size_t nn = p->n_nodes, K = u->operations, root = s->root;
    size_t copy = ssched_schedule_copy_type(s);
    mpq_t *ready = malloc(K * sizeof *ready), *arr = malloc(K * nn * sizeof *arr);
    unsigned char *got = calloc(K * nn, 1);
    for (size_t k = 0; k < K; k++)
        mpq_init(ready[k]);
    for (size_t k = 0; k < K * nn; k++)
        mpq_init(arr[k]);
    for (size_t k = 0; k < u->n_computations; k++)
        if (u->computations[k].node == root &&
            mpq_cmp(u->computations[k].end, ready[u->computations[k].op]) > 0)
            mpq_set(ready[u->computations[k].op], u->computations[k].end);
    for (size_t k = 0; k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *x = &u->transfers[k];
        if (x->type != copy && p->to[x->edge] == root && mpq_cmp(x->end, ready[x->op]) > 0)
            mpq_set(ready[x->op], x->end);
    }
    /* copies in start order (the array is sorted on start) */
    for (size_t k = 0; k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *x = &u->transfers[k];
        if (x->type != copy)
            continue;
        size_t a = p->from[x->edge], b = p->to[x->edge];
        CU_ASSERT(mpq_cmp_ui(x->piece_length, 1, 1) == 0);
        CU_ASSERT_NOT_EQUAL(b, root);
        if (a == root) {
            CU_ASSERT(mpq_cmp(x->start, ready[x->op]) >= 0);
        } else {
            CU_ASSERT(got[x->op * nn + a] && mpq_cmp(x->start, arr[x->op * nn + a]) >= 0);
        }
        CU_ASSERT(!got[x->op * nn + b]);
        got[x->op * nn + b] = 1;
        mpq_set(arr[x->op * nn + b], x->end);
    }
    for (size_t t = 0; t < K; t++)
        for (size_t j = 0; j < pb->n_participants; j++)
            if (pb->participants[j] != root)
                CU_ASSERT(got[t * nn + pb->participants[j]]);
    for (size_t k = 0; k < K; k++)
        mpq_clear(ready[k]);
    for (size_t k = 0; k < K * nn; k++)
        mpq_clear(arr[k]);
    free(ready), free(arr), free(got);
}

/* Plan and unroll K all-reduces (in memory and streamed); check both, the
 * schema and the reader; returns makespan / (K / TP). */
static double run_case(const char *plat, const char *parts, int commutative, unsigned long K,
                       int no_split, int schema)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t st;
    load(&p, plat);
    ar_solve(&p, parts, commutative, &pb, &st);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, K, NULL, no_split, &s, &err),
                          SSCHED_OK);
    CU_ASSERT_EQUAL(s.kind, SSCHED_PROBLEM_ALLREDUCE);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, K, &u, &err), SSCHED_OK);
    reference(&p, &pb, &s, &u);
    char *text = tu_unrolled_json(&p, &pb, &s, &u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"copy\": true"));
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 1)
        fprintf(stderr, "\n  in memory %s K=%lu: %s\n", parts, K, why);
    CU_ASSERT_EQUAL(valid, 1);
    free(text);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    const char *path = tu_stream_checked(&p, &pb, &s, K, "aru.json", &fig, parts);
    CU_ASSERT(mpq_equal(fig.makespan, u.fig.makespan));
    CU_ASSERT(mpq_equal(fig.buffer_peak, u.fig.buffer_peak));
    CU_ASSERT(mpq_sgn(fig.buffer_peak) > 0);
    if (schema) {
        tu_run_t r;
        int rc = tu_sh(&r, "/usr/bin/python3 '%s/tests/validate_json.py' "
                       "'%s/schemas/ssched-unrolled-2.schema.json' '%s'",
                       SSCHED_SOURCE_DIR, SSCHED_SOURCE_DIR, path);
        CU_ASSERT_EQUAL(rc, 0);
        tu_run_free(&r);
    }
    /* the reader: the problem, the root, copies typed after the reduce's */
    ssched_platform_t p2;
    ssched_problem_t pb2;
    ssched_unrolled_t u2;
    ssched_platform_init(&p2);
    ssched_problem_init(&pb2);
    ssched_unrolled_init(&u2);
    CU_ASSERT_EQUAL(ssched_unrolled_read_file(path, &p2, &pb2, &u2, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(pb2.kind, SSCHED_PROBLEM_ALLREDUCE);
    CU_ASSERT_EQUAL(pb2.target, s.root);
    CU_ASSERT_EQUAL(pb2.commutative, commutative);
    CU_ASSERT_EQUAL(u2.n_transfers, u.n_transfers);
    CU_ASSERT_EQUAL(u2.n_computations, u.n_computations);
    size_t copies = 0, copies2 = 0;
    size_t copy = ssched_schedule_copy_type(&s);
    size_t copy2 = commutative ? u2.sets.n : pb.n_participants * (pb.n_participants + 1) / 2;
    for (size_t k = 0; k < u.n_transfers; k++)
        copies += u.transfers[k].type == copy;
    for (size_t k = 0; k < u2.n_transfers; k++)
        copies2 += u2.transfers[k].type == copy2;
    CU_ASSERT_EQUAL(copies, copies2);
    CU_ASSERT(copies >= K * (pb.n_participants - 1));
    ssched_unrolled_free(&u2);
    ssched_problem_free(&pb2);
    ssched_platform_free(&p2);
    mpq_t q;
    mpq_init(q);
    mpq_div(q, u.fig.makespan, u.fig.steady_time);
    double ratio = mpq_get_d(q);
    mpq_clear(q);
    ssched_unroll_figures_free(&fig);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return ratio;
}

static const char *const TIERS3 = "h0_0_0_0,h0_0_1_0,h1_0_0_1";
static const char *const TIERS4 = "h0_0_0_0,h0_0_1_0,h1_0_0_1,h1_0_1_2";

static void test_small_k(void)
{
    static const unsigned long Ks[] = {1, 2, 7};
    for (int comm = 0; comm < 2; comm++)
        for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++) {
            run_case(EX "fig6.graphml", "P0,P1,P2", comm, Ks[k], 0, k == 2);
            run_case(EX "tiers-small.graphml", TIERS3, comm, Ks[k], k == 1, 0);
        }
    run_case(EX "fig6.graphml", "P0,P1,P2", 0, 7, 1, 0); /* whole values */
}

/* The targets of the brief: makespan / (K / TP) <= 1.25 at K = 100 and
 * <= 1.05 at K = 1000. */
static void test_makespan(void)
{
    const char *plat[] = {EX "fig6.graphml", EX "tiers-small.graphml", EX "tiers-small.graphml"};
    const char *parts[] = {"P0,P1,P2", TIERS3, TIERS4};
    for (size_t i = 0; i < 3; i++)
        for (int comm = 0; comm < 2; comm++) {
            double r100 = run_case(plat[i], parts[i], comm, 100, 0, 0);
            double r1000 = run_case(plat[i], parts[i], comm, 1000, 0, 0);
            fprintf(stderr, "\n  %s %s%s: K=100 %.4f, K=1000 %.4f", strrchr(plat[i], '/') + 1,
                    parts[i], comm ? " commutative" : "", r100, r1000);
            CU_ASSERT(r100 <= 1.25);
            CU_ASSERT(r1000 <= 1.05);
        }
}

/* ---------------------------------------------------------------------- */
/* Broken files. */

static json_t *unrolled_fig6(unsigned long K)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t st;
    load(&p, EX "fig6.graphml");
    ar_solve(&p, "P0,P1,P2", 0, &pb, &st);
    ssched_error_t err;
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    /* the LP pattern (its relay P1 is mutated below; the direct pattern
     * has no relay) */
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan_pattern(&p, &pb, &st, K, NULL, 0, SSCHED_PATTERN_LP,
                                                     &s, &err),
                          SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, K, &u, &err), SSCHED_OK);
    char *text = tu_unrolled_json(&p, &pb, &s, &u);
    json_t *j = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    free(text);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return j;
}

static int is_copy(json_t *x)
{
    return json_is_true(json_object_get(x, "copy"));
}

static const char *str(json_t *x, const char *k)
{
    return json_string_value(json_object_get(x, k));
}

/* The index of the first copy from (or, out = 0, into) node name, or of
 * the first reduce transfer when copy = 0; -1 if none. */
static long find(json_t *tr, int copy, const char *node, int out)
{
    for (size_t k = 0; k < json_array_size(tr); k++) {
        json_t *x = json_array_get(tr, k);
        if (is_copy(x) == copy && (!node || !strcmp(str(x, out ? "from" : "to"), node)))
            return (long)k;
    }
    return -1;
}

static void expect_invalid(json_t *j, const char *what, const char *needle)
{
    char *text = json_dumps(j, JSON_PRESERVE_ORDER);
    char why[512] = "";
    int valid = tu_check_text(text, why, sizeof why);
    CU_ASSERT_EQUAL(valid, 0);
    if (valid != 0 || !strstr(why, needle))
        fprintf(stderr, "\n  %s: expected '%s', got (%d) '%s'\n", what, needle, valid, why);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, needle));
    free(text);
    json_decref(j);
}

/* A copy appended after every event (its ports are free then). */
static void append_copy(json_t *j, const char *from, const char *to, json_int_t op)
{
    json_t *tr = json_object_get(j, "transfers");
    mpq_t t;
    mpq_init(t);
    mpq_set_str(t, str(j, "makespan"), 10);
    char a[64], b[64];
    gmp_snprintf(a, sizeof a, "%Qd", t);
    mpq_set_ui(t, 1, 1); /* fig6: every c is 1, size 1 */
    mpq_t e;
    mpq_init(e);
    mpq_set_str(e, a, 10);
    mpq_add(e, e, t);
    gmp_snprintf(b, sizeof b, "%Qd", e);
    json_array_append_new(tr, json_pack("{s:s,s:s,s:s,s:s,s:b,s:I}", "start", a, "end", b,
                                        "from", from, "to", to, "copy", 1, "op", op));
    mpq_clears(t, e, NULL);
}

static void test_broken(void)
{
    json_t *j, *tr;
    long k;
    /* 1. a participant never gets a result */
    j = unrolled_fig6(7);
    tr = json_object_get(j, "transfers");
    for (k = (long)json_array_size(tr) - 1; k >= 0; k--)
        if (is_copy(json_array_get(tr, (size_t)k)))
            break;
    CU_ASSERT_FATAL(k >= 0);
    json_array_remove(tr, (size_t)k);
    expect_invalid(j, "missing copy", "never receives");
    /* 2. a participant gets a result twice */
    j = unrolled_fig6(7);
    append_copy(j, "P0", "P1", 0);
    expect_invalid(j, "second copy", "a second time");
    /* 3. a copy to the root */
    j = unrolled_fig6(7);
    append_copy(j, "P1", "P0", 0);
    expect_invalid(j, "copy to the root", "sent to its source");
    /* 4. a copy leaves the root before the op's result is complete */
    j = unrolled_fig6(7);
    tr = json_object_get(j, "transfers");
    k = find(tr, 1, "P0", 1);
    CU_ASSERT_FATAL(k >= 0);
    json_object_set_new(json_array_get(tr, (size_t)k), "op", json_integer(6));
    expect_invalid(j, "early copy", "before its reduce result is complete");
    /* 5. a copy leaves a relay before the relay has it */
    j = unrolled_fig6(7);
    tr = json_object_get(j, "transfers");
    k = find(tr, 1, "P1", 1);
    if (k < 0)
        k = find(tr, 1, "P2", 1);
    CU_ASSERT_FATAL(k >= 0);
    json_object_set_new(json_array_get(tr, (size_t)k), "op", json_integer(6));
    expect_invalid(j, "relay too early", "before receiving it");
    /* 6. one port, across both parts: a copy at the start of a reduce
     * transfer of the same sender */
    j = unrolled_fig6(7);
    tr = json_object_get(j, "transfers");
    k = find(tr, 1, "P1", 1);
    const char *relay = "P1";
    if (k < 0)
        k = find(tr, 1, relay = "P2", 1);
    CU_ASSERT_FATAL(k >= 0);
    long r = find(tr, 0, relay, 1);
    CU_ASSERT_FATAL(r >= 0 && r < k);
    json_t *x = json_incref(json_array_get(tr, (size_t)k)), *y = json_array_get(tr, (size_t)r);
    json_object_set(x, "start", json_object_get(y, "start"));
    json_object_set(x, "end", json_object_get(y, "end"));
    json_array_remove(tr, (size_t)k);
    json_array_insert_new(tr, (size_t)r + 1, x);
    expect_invalid(j, "port shared", "two things at once");
    /* 7. a copy in pieces */
    j = unrolled_fig6(7);
    tr = json_object_get(j, "transfers");
    k = find(tr, 1, NULL, 1);
    x = json_array_get(tr, (size_t)k);
    json_object_set_new(x, "piece", json_pack("[ss]", "0", "1/2"));
    mpq_t h;
    mpq_init(h);
    mpq_set_str(h, str(x, "start"), 10);
    mpq_set_ui(h, 1, 2); /* fig6: c = 1, size 1: half a message lasts 1/2 */
    mpq_t s0;
    mpq_init(s0);
    mpq_set_str(s0, str(x, "start"), 10);
    mpq_add(h, h, s0);
    char b[64];
    gmp_snprintf(b, sizeof b, "%Qd", h);
    json_object_set_new(x, "end", json_string(b));
    mpq_clears(h, s0, NULL);
    expect_invalid(j, "piece", "whole message");
    /* 8. a wrong figure */
    j = unrolled_fig6(7);
    json_object_set_new(j, "buffer_peak", json_string("1000"));
    expect_invalid(j, "buffer", "\"buffer_peak\" is not what the events give");
    /* 9. the reduce part: a value missing at the root */
    j = unrolled_fig6(7);
    tr = json_object_get(j, "transfers");
    k = find(tr, 0, "P0", 0);
    CU_ASSERT_FATAL(k >= 0);
    json_array_remove(tr, (size_t)k);
    expect_invalid(j, "reduce value", "which is not there");
}

static void test_cli(void)
{
    const char *path = tu_tmp_path("aru_cli.json");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem allreduce --participants %s "
                           "--operations 20 --unroll -o '%s'", EX "tiers-small.graphml",
                           TIERS3, path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "unrolled schedule for 20 operations"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem allreduce --participants P0,P1,P2 "
                           "--commutative --operations 5 --no-split --unroll -o '%s'",
                           EX "fig6.graphml", path), 0);
    tu_run_free(&r);
    /* still refused, one line, exit 2 */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem allreduce --participants P0,P1,P2 "
                           "--operations 5 --unroll --fixed-period 4 -o '%s'",
                           EX "fig6.graphml", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--fixed-period"));
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    /* no pattern within --max-period (one operation needs 1/TP = 4/3) */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem allreduce --participants P0,P1,P2 "
                           "--operations 5 --unroll --max-period 1 -o '%s'",
                           EX "fig6.graphml", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-period"));
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    /* a short pattern within it is used (the solution's own pattern, its
     * counts divided by their gcd: one operation per period) */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem allreduce --participants %s "
                           "--operations 30 --unroll --max-period 200 --pattern lp -o '%s'",
                           EX "tiers-small.graphml", TIERS3, path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pattern: period 133/8 "));
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"small K, checked, schema, reader", test_small_k},
        {"makespan against K / TP", test_makespan},
        {"broken files rejected", test_broken},
        {"CLI", test_cli},
        {NULL, NULL},
    };
    return tu_main("allreduce_unroll", tests);
}
