/* Commutative reduce schedules (issue 14 items 2 and 5), the unrolled
 * side: hand-made solutions (tests/test_commutative_fixture.inc) and the
 * solver's, unrolled in memory and streamed, checked, read back; the
 * makespan / (K / TP) ratios; mutations the unrolled checker must reject;
 * the CLI end to end. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#include "test_commutative_fixture.inc"


/* Unroll K operations (planned, in memory and streamed), check both and
 * read the file back; returns makespan / (K / TP) as a double. */
static double unroll(inst_t *x, unsigned long K, char **text_out)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_status_t rc = ssched_unroll_plan(&x->p, &x->pb, &x->st, K, NULL, 0, &s, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  plan: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&x->p, &x->pb, &s, K, &u, &err), SSCHED_OK);
    char *text = tu_unrolled_json(&x->p, &x->pb, &s, &u), why[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(check(text, why, sizeof why), 1);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    const char *path = tu_stream_checked(&x->p, &x->pb, &s, K, "commut-unrolled.json", &fig,
                                         "commutative");
    CU_ASSERT(mpq_equal(fig.makespan, u.fig.makespan));
    CU_ASSERT(mpq_equal(fig.buffer_peak, u.fig.buffer_peak));
    /* read back: same problem kind, sets and events */
    ssched_platform_t p2;
    ssched_problem_t pb2;
    ssched_unrolled_t u2;
    ssched_platform_init(&p2);
    ssched_problem_init(&pb2);
    ssched_unrolled_init(&u2);
    rc = ssched_unrolled_read_file(path, &p2, &pb2, &u2, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  read: %s\n", err.message);
    CU_ASSERT_EQUAL(rc, SSCHED_OK);
    CU_ASSERT(pb2.commutative);
    CU_ASSERT_EQUAL(u2.n_transfers, u.n_transfers);
    CU_ASSERT_EQUAL(u2.n_computations, u.n_computations);
    CU_ASSERT(u2.sets.n > 0 && u2.sets.n <= s.sets.n);
    for (size_t k = 0; k < u2.n_computations && k < u.n_computations; k++) {
        /* the merged set has the members of both inputs */
        const ssched_timed_computation_t *c = &u2.computations[k];
        for (size_t j = 0; j < pb2.n_participants; j++)
            CU_ASSERT_EQUAL(ssched_sets_has(&u2.sets, c->m, j),
                            ssched_sets_has(&u2.sets, c->k, j) || ssched_sets_has(&u2.sets, c->l, j));
    }
    ssched_unrolled_free(&u2);
    ssched_problem_free(&pb2);
    ssched_platform_free(&p2);
    mpq_t r;
    mpq_init(r);
    mpq_div(r, u.fig.makespan, u.fig.steady_time);
    double ratio = mpq_get_d(r);
    mpq_clear(r);
    ssched_unroll_figures_free(&fig);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    if (text_out)
        *text_out = text;
    else
        free(text);
    return ratio;
}

static void test_unrolled(void)
{
    inst_t x;
    chain(&x);
    double r100 = unroll(&x, 100, NULL), r1000 = unroll(&x, 1000, NULL);
    fprintf(stderr, "\n  chain: makespan/(K/TP) = %.4f (K=100), %.4f (K=1000)\n", r100, r1000);
    CU_ASSERT(r100 <= 1.25);
    CU_ASSERT(r1000 <= 1.05);
    inst_free(&x);
    two_orders(&x);
    r100 = unroll(&x, 100, NULL);
    r1000 = unroll(&x, 1000, NULL);
    fprintf(stderr, "  two orders: makespan/(K/TP) = %.4f (K=100), %.4f (K=1000)\n", r100, r1000);
    CU_ASSERT(r100 <= 1.25);
    CU_ASSERT(r1000 <= 1.05);
    inst_free(&x);
}

/* unrolled P2 merges {0} with {0,2} */
static void unrolled_overlap(json_t *root)
{
    json_t *m = json_object_get(first_comp(root, "P2"), "merge");
    json_array_set_new(m, 1, json_pack("[ii]", 0, 2));
}
/* the first value P0 sends is {2}, which P0 does not have */
static void unrolled_wrong_set(json_t *root)
{
    json_object_set_new(first_transfer(root, "P0"), "set", json_pack("[i]", 2));
}
/* P1's first merge takes {0,2} as {2}: the result would miss v0 (and
 * nobody brought {2} to P1) */
static void unrolled_missing(json_t *root)
{
    json_t *m = json_object_get(first_comp(root, "P1"), "merge");
    json_array_set_new(m, 1, json_pack("[i]", 2));
}

static void test_unrolled_mutations(void)
{
    inst_t x;
    chain(&x);
    char *text = NULL;
    unroll(&x, 4, &text);
    mutate(text, unrolled_overlap, 0, "share a participant");
    mutate(text, unrolled_wrong_set, 0, "not there");
    mutate(text, unrolled_missing, 0, "{2}");
    free(text);
    inst_free(&x);
}

/* End to end through the solver (lp/colgen_comm*.c): the demo reduce of
 * scripts/demo.sh made commutative, unrolled for K = 100 and 1000 with
 * the ordered reduce's targets for makespan / (K / TP). */
static void test_demo_reduce(void)
{
    inst_t x;
    char path[512];
    snprintf(path, sizeof path, "%s/examples/tiers-small.graphml", SSCHED_SOURCE_DIR);
    ssched_platform_init(&x.p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&x.p, path, NULL), SSCHED_OK);
    problem(&x, "h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0,h0_0_0_1,h1_0_0_1", "h0_0_0_0");
    ssched_steady_init(&x.st);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t rc = ssched_steady_solve(&x.p, &x.pb, NULL, &x.st, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    ssched_schedule_t s;
    char *text = build_json(&x, &s), why[512];
    CU_ASSERT_EQUAL(check(text, why, sizeof why), 1);
    free(text);
    ssched_schedule_free(&s);
    double r100 = unroll(&x, 100, NULL), r1000 = unroll(&x, 1000, NULL);
    fprintf(stderr, "\n  demo reduce: makespan/(K/TP) = %.4f (K=100), %.4f (K=1000)\n", r100,
            r1000);
    CU_ASSERT(r100 <= 1.25);
    CU_ASSERT(r1000 <= 1.05);
    inst_free(&x);
}

/* The CLI on the chain: TP 1, a checked periodic file, a checked unrolled
 * one (ssched schedule checks what it writes; check again here). */
static void test_cli_chain(void)
{
    const char *plat = tu_tmp_path("chain.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(plat,
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        " <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
        " <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        " <graph id=\"G\" edgedefault=\"directed\">\n"
        "  <node id=\"P0\"><data key=\"w\">1</data></node>\n"
        "  <node id=\"P1\"><data key=\"w\">1</data></node>\n"
        "  <node id=\"P2\"><data key=\"w\">1</data></node>\n"
        "  <edge source=\"P0\" target=\"P2\"><data key=\"c\">1</data></edge>\n"
        "  <edge source=\"P2\" target=\"P1\"><data key=\"c\">1</data></edge>\n"
        " </graph>\n</graphml>\n"), 0);
    const char *per = tu_tmp_path("chain-periodic.json"), *unr = tu_tmp_path("chain-unrolled.json");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P1 "
                              "--commutative --json -o '%s'", plat, per), 0);
    tu_run_free(&r);
    char *text = tu_read_file(per), why[512];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(check(text, why, sizeof why), 1);
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "throughput")), "1");
    json_decref(root);
    free(text);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P1 "
                              "--commutative --operations 50 --unroll -o '%s'", plat, unr), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", unr), 0);
    CU_ASSERT_PTR_NOT_NULL(r.out && strstr(r.out, "valid"));
    tu_run_free(&r);
}

int main(void)
{
    const tu_test_t tests[] = {
        {"unrolled, checked, read back, ratios", test_unrolled},
        {"unrolled checker rejects mutations", test_unrolled_mutations},
        {"solver to unrolled schedule: the demo reduce, ratios", test_demo_reduce},
        {"CLI: chain P0 -> P2 -> P1, TP 1, checked files", test_cli_chain},
        {NULL, NULL}};
    return tu_main("commutative_unroll", tests);
}
