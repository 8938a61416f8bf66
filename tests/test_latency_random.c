/* Latencies and batches, continued (test_latency_check.c has the hand
 * cases): the checker's fast path agrees with the exact checker on random
 * files, the unrolled reader and writer keep "batch" and "l", and LB1 with
 * latencies on a chain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_files.h"
#include "ssched/export.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

/* The scatter's figures (LB1 = 7/4 < K/TP = 2, buffer 2 at R). */
static char *scatter(const char *events, const char *makespan, const char *overhead,
                     const char *ratio)
{
    return file(SCATTER, 0, events, NULL, makespan, overhead, "7/4", "2", ratio, "2", "R");
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
        char name[32];
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
        {"fast path = exact checker on random files", test_fast_equals_exact},
        {"LB1 with latencies on a chain", test_lb1_chain},
        {"unrolled reader and writer: batch and l", test_read_write_batch},
        {NULL, NULL}};
    return tu_main("latency_random", tests);
}
