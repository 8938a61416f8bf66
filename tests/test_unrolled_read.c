/* ssched_unrolled_read_file: an unrolled schedule written by
 * ssched_write_unrolled_json reads back to the same events (names, times, pieces,
 * operations, canonical type numbers), and malformed files give one line
 * naming the file.  (The MPI executor reads schedules this way.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

static void test_read_round_trip(void)
{
    const char *cases[][2] = {{"fig2", "scatter"}, {"fig6", "reduce"}, {"fig6", "gossip"},
                              {"tiers-small", "reduce"}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char file[512], opts[512];
        snprintf(file, sizeof file, "%s/examples/%s.graphml", SSCHED_SOURCE_DIR, cases[c][0]);
        tu_example_problem(cases[c][0], cases[c][1], opts, sizeof opts);
        ssched_platform_t p;
        ssched_problem_t pb;
        ssched_error_t err;
        ssched_platform_init(&p);
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, file, &err), SSCHED_OK);
        /* the problem from the option text: "--problem K --x A --y B" */
        char kind[16], o1[32], a[512], o2[32], b[512];
        CU_ASSERT_EQUAL_FATAL(sscanf(opts, "--problem %15s %31s %511s %31s %511s", kind, o1, a, o2, b), 5);
        ssched_status_t rc = !strcmp(kind, "scatter") ? ssched_problem_set_scatter(&pb, &p, a, b, &err)
                             : !strcmp(kind, "gossip") ? ssched_problem_set_gossip(&pb, &p, a, b, &err)
                                                       : ssched_problem_set_reduce(&pb, &p, a, b, &err);
        CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
        ssched_steady_t st;
        ssched_schedule_t s;
        ssched_unrolled_t u, v;
        ssched_steady_init(&st);
        ssched_schedule_init(&s);
        ssched_unrolled_init(&u);
        ssched_unrolled_init(&v);
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, 7, NULL, 0, &s, &err), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, 7, &u, &err), SSCHED_OK);
        char *text = tu_unrolled_json(&p, &pb, &s, &u);
        const char *path = tu_tmp_path("round.json");
        CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
        free(text);
        ssched_platform_t p2;
        ssched_problem_t pb2;
        ssched_platform_init(&p2);
        ssched_problem_init(&pb2);
        rc = ssched_unrolled_read_file(path, &p2, &pb2, &v, &err);
        if (rc != SSCHED_OK)
            fprintf(stderr, "\n  read: %s", err.message);
        CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
        CU_ASSERT_EQUAL(p2.n_nodes, p.n_nodes);
        CU_ASSERT_EQUAL(p2.n_edges, p.n_edges);
        CU_ASSERT_EQUAL(v.operations, 7);
        CU_ASSERT(mpq_equal(v.fig.makespan, u.fig.makespan));
        CU_ASSERT_EQUAL_FATAL(v.n_transfers, u.n_transfers);
        CU_ASSERT_EQUAL_FATAL(v.n_computations, u.n_computations);
        for (size_t k = 0; k < u.n_transfers; k++) {
            const ssched_timed_transfer_t *x = &u.transfers[k], *y = &v.transfers[k];
            CU_ASSERT(mpq_equal(x->start, y->start) && mpq_equal(x->end, y->end));
            CU_ASSERT(mpq_equal(x->piece_offset, y->piece_offset) &&
                      mpq_equal(x->piece_length, y->piece_length));
            CU_ASSERT_EQUAL(x->op, y->op);
            CU_ASSERT_STRING_EQUAL(p.names[p.from[x->edge]], p2.names[p2.from[y->edge]]);
            CU_ASSERT_STRING_EQUAL(p.names[p.to[x->edge]], p2.names[p2.to[y->edge]]);
            /* the same message type, in the schedule's and the canonical numbering */
            if (pb.kind == SSCHED_PROBLEM_REDUCE) {
                size_t N = pb.n_participants, kk = s.intervals[x->type].k, m = s.intervals[x->type].m;
                CU_ASSERT_EQUAL(y->type, kk * N - kk * (kk - 1) / 2 + (m - kk));
            } else {
                CU_ASSERT_EQUAL(y->type, x->type);
            }
        }
        for (size_t k = 0; k < u.n_computations; k++) {
            const ssched_timed_computation_t *x = &u.computations[k], *y = &v.computations[k];
            CU_ASSERT(mpq_equal(x->start, y->start) && x->op == y->op && x->k == y->k &&
                      x->l == y->l && x->m == y->m);
            CU_ASSERT_STRING_EQUAL(p.names[x->node], p2.names[y->node]);
        }
        ssched_unrolled_free(&u);
        ssched_unrolled_free(&v);
        ssched_schedule_free(&s);
        ssched_steady_free(&st);
        ssched_problem_free(&pb2);
        ssched_platform_free(&p2);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

static void test_read_errors(void)
{
    const char *path = tu_tmp_path("bad.json");
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_unrolled_t u;
    ssched_error_t err;
    const char *texts[] = {"{", "{\"format\": \"ssched-unrolled/1\"}",
                           "{\"format\": \"ssched-unrolled/2\", \"operations\": 0}",
                           "{\"format\": \"ssched-unrolled/2\", \"operations\": 1, \"platform\": "
                           "{\"nodes\": [{\"id\": \"a\", \"w\": null}], \"edges\": []}, \"problem\": "
                           "{\"kind\": \"scatter\", \"source\": \"a\", \"targets\": [\"b\"], \"size\": \"1\"}}"};
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        CU_ASSERT_EQUAL_FATAL(tu_write_file(path, texts[k]), 0);
        ssched_platform_init(&p);
        ssched_problem_init(&pb);
        ssched_unrolled_init(&u);
        CU_ASSERT_EQUAL(ssched_unrolled_read_file(path, &p, &pb, &u, &err), SSCHED_EINPUT);
        CU_ASSERT_PTR_NULL(strchr(err.message, '\n'));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bad.json"));
        ssched_unrolled_free(&u);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

int main(void)
{
    const tu_test_t tests[] = {
        {"unrolled file read back: same events", test_read_round_trip},
        {"unrolled file reader: one-line errors", test_read_errors},
        {NULL, NULL}};
    return tu_main("unrolled_read", tests);
}
