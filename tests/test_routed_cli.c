/* The routed model from the CLI: --model routed on a GraphML with a
 * router (routes through it, a direct link left unused), --hosts, the
 * model line and the saturated link resources in text and JSON, and the
 * refusals (bad values, --hosts on a graph platform, schedules and reports
 * of a routed platform), each one line with exit status 2. */
#include <string.h>

#include "test_util.h"

/* Hosts A, B, C (w = 1) on a router R; a direct A-B link dearer than the
 * way through R.  Routes: A->B = A->R, R->B (2 < 5), A->C = A->R, R->C. */
static const char *star_graphml =
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
    "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
    "<graph id=\"G\" edgedefault=\"undirected\">\n"
    "<node id=\"A\"><data key=\"w\">1</data></node>\n"
    "<node id=\"B\"><data key=\"w\">1</data></node>\n"
    "<node id=\"C\"><data key=\"w\">1</data></node>\n"
    "<node id=\"R\"/>\n"
    "<edge source=\"A\" target=\"R\"><data key=\"c\">1</data></edge>\n"
    "<edge source=\"B\" target=\"R\"><data key=\"c\">1</data></edge>\n"
    "<edge source=\"C\" target=\"R\"><data key=\"c\">2</data></edge>\n"
    "<edge source=\"A\" target=\"B\"><data key=\"c\">5</data></edge>\n"
    "</graph></graphml>\n";

static void test_cli_model_routed(void)
{
    const char *plat = tu_tmp_path("star.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(plat, star_graphml), 0);
    const char *scatter = "--problem scatter --source A --targets B,C --quiet";
    tu_run_t r;
    /* both flows leave A on its link to R: 2 TP * 1 <= 1 */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s --model routed", plat, scatter), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "model: routed, hosts multi-port (3 hosts, 8 link"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "throughput TP = 1/2 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "link     A->R (shared)  busy 1  price 1/2"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s --model routed --method lp --json", plat, scatter),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"throughput\": \"1/2\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"link_resource\": \"A->R\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"hosts\": \"multi-port\""));
    tu_run_free(&r);
    /* one-port hosts: c(A->B) = 1, c(A->C) = c(B->C) = 2; A sends both
     * messages to B (out-port A: 2 TP), B relays C's (out-port B: 2 TP) */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s --model routed --hosts one-port", plat, scatter), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "model: routed, hosts one-port"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "throughput TP = 1/2 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "out-port A            busy 1  price 1/4"));
    tu_run_free(&r);
    /* the graph model is unchanged: R is a one-port router there */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s", plat, scatter), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "model: every node one-port"));
    tu_run_free(&r);
    /* refusals: one line, exit 2 */
    static const char *bad[][2] = {
        {"solve", "--hosts one-port"},
        {"solve", "--model tree"},
        {"solve", "--model routed --hosts two-port"},
        {"solve", "--model routed --routers one-port"}};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        CU_ASSERT_EQUAL(tu_run(&r, "%s '%s' %s %s", bad[k][0], plat, scatter, bad[k][1]), 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
    /* schedules for the routed model (docs/model.md, routed schedules), checked before written */
    const char *out = tu_tmp_path("routed_cli.json");
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' %s --model routed -o '%s'", plat, scatter, out), 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "checked: valid") : NULL);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' %s --model routed --unroll --operations 10 -o '%s'",
                           plat, scatter, out), 0);
    CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, "checked: valid") : NULL);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"--model routed, --hosts, link resources in the output, refusals", test_cli_model_routed},
        {NULL, NULL}};
    return tu_main("routed_cli", tests);
}
