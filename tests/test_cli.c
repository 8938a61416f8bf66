/* The CLI contract end to end: solve/lp/schedule/check on a platform file,
 * exit statuses, one-line errors, and the JSON fields design.md requires. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *platform =
    "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
    "<graph id=\"G\" edgedefault=\"directed\">\n"
    "<node id=\"s\"/><node id=\"a\"/><node id=\"b\"/><node id=\"t\"/><node id=\"u\"/>\n"
    "<edge source=\"s\" target=\"a\"><data key=\"c\">1</data></edge>\n"
    "<edge source=\"a\" target=\"t\"><data key=\"c\">3</data></edge>\n"
    "<edge source=\"s\" target=\"b\"><data key=\"c\">3</data></edge>\n"
    "<edge source=\"b\" target=\"t\"><data key=\"c\">1</data></edge>\n"
    "<edge source=\"a\" target=\"u\"><data key=\"c\">1/2</data></edge>\n"
    "<edge source=\"b\" target=\"u\"><data key=\"c\">2/3</data></edge>\n"
    "</graph></graphml>\n";

static const char *plat(void)
{
    static char path[512];
    if (!path[0]) {
        snprintf(path, sizeof path, "%s", tu_tmp_path("cli.graphml"));
        CU_ASSERT_EQUAL_FATAL(tu_write_file(path, platform), 0);
    }
    return path;
}

#define SCATTER "--problem scatter --source s --targets t,u"

static void test_solve_json(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "solve '%s' " SCATTER " --json", plat()), 0);
    json_t *root = json_loads(r.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "throughput")), "5/13");
    CU_ASSERT(json_is_array(json_object_get(root, "rates")));
    CU_ASSERT(json_is_array(json_object_get(root, "saturated")));
    json_t *solver = json_object_get(root, "solver");
    CU_ASSERT(json_is_integer(json_object_get(solver, "rows")));
    CU_ASSERT(json_is_integer(json_object_get(solver, "columns")));
    CU_ASSERT(json_is_number(json_object_get(solver, "float_seconds")));
    CU_ASSERT(json_is_number(json_object_get(solver, "exact_seconds")));
    CU_ASSERT(json_is_integer(json_object_get(solver, "repair_pivots")));
    /* rates are exact strings */
    json_t *rate = json_object_get(json_array_get(json_object_get(root, "rates"), 0), "rate");
    CU_ASSERT(json_is_string(rate));
    json_decref(root);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' " SCATTER, plat()), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 5/13 (0.3846153846)"));
    tu_run_free(&r);
}

static void test_unreachable_line(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source t --targets u,s", plat()), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 0 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "target u is unreachable from t"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "target s is unreachable from t"));
    tu_run_free(&r);
}

static void test_lp_export_matches_esolver(void)
{
    const char *lp = tu_tmp_path("cli.lp");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "lp '%s' " SCATTER " -o '%s'", plat(), lp), 0);
    tu_run_free(&r);
    tu_sh(&r, "cd '%s/..' && esolver -L -O cli.sol '%s' >/dev/null 2>&1; grep 'Value = ' cli.sol", lp, lp);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Value = 5/13"));
    tu_run_free(&r);
    const char *mps = tu_tmp_path("cli.mps");
    CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' " SCATTER " -o '%s'", plat(), mps), 0);
    tu_run_free(&r);
    tu_sh(&r, "cd '%s/..' && esolver -O cli2.sol '%s' >/dev/null 2>&1; grep 'Value = ' cli2.sol", mps, mps);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Value = -5/13")); /* MPS minimizes -TP */
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' " SCATTER " -o model.txt", plat()), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

static void test_schedule_then_check(void)
{
    const char *files[] = {tu_tmp_path("s1.json"), tu_tmp_path("s2.json"), tu_tmp_path("s3.json")};
    const char *extra[] = {"", "--no-split", "--operations 50 --unroll"};
    for (int k = 0; k < 3; k++) {
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' " SCATTER " %s -o '%s'", plat(), extra[k], files[k]), 0);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", files[k]), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid"));
        tu_run_free(&r);
    }
    /* gantt and dot files are written */
    const char *svg = tu_tmp_path("g.svg"), *dot = tu_tmp_path("g.dot");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' " SCATTER " --gantt '%s' --dot '%s'", plat(), svg, dot), 0);
    tu_run_free(&r);
    char *text = tu_read_file(svg);
    CU_ASSERT(text && strstr(text, "<svg") && strstr(text, "</svg>"));
    free(text);
    text = tu_read_file(dot);
    CU_ASSERT(text && strstr(text, "digraph"));
    free(text);
    /* --json on stdout has the design.md fields */
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' " SCATTER " --json", plat()), 0);
    json_t *root = json_loads(r.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "format")), "ssched-schedule/1");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "throughput")), "5/13");
    CU_ASSERT(json_is_string(json_object_get(root, "period")));
    CU_ASSERT(json_is_string(json_object_get(root, "operations_per_period")));
    CU_ASSERT(json_is_array(json_object_get(root, "slots")));
    json_decref(root);
    tu_run_free(&r);
}

static void test_check_statuses(void)
{
    tu_run_t r;
    const char *good = tu_tmp_path("good.json");
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' " SCATTER " -o '%s'", plat(), good), 0);
    tu_run_free(&r);
    /* invalid: exit 1, the violation on one line */
    char *text = tu_read_file(good);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    json_object_set_new(root, "operations_per_period", json_string("1"));
    json_object_set_new(root, "throughput", json_string("1/26"));
    const char *bad = tu_tmp_path("bad.json");
    json_dump_file(root, bad, 0);
    json_decref(root);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", bad), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "INVALID"));
    CU_ASSERT_EQUAL(tu_count_lines(r.out), 1);
    tu_run_free(&r);
    /* malformed / unreadable: exit 2 and one stderr line */
    const char *junk = tu_tmp_path("junk.json");
    tu_write_file(junk, "{\"format\": ");
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", junk), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check /nonexistent.json"), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check"), 2);
    tu_run_free(&r);
}

static void test_schedule_bad_options(void)
{
    const char *bad[] = {"--unroll", "--operations 5", "--operations 0 --unroll -o x.json",
                         "--operations abc --unroll -o x.json", "--matching random",
                         "--gantt /nonexistent/dir/g.svg"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        tu_run_t r;
        int st = tu_run(&r, "schedule '%s' " SCATTER " %s", plat(), bad[k]);
        if (st != 2 || tu_count_lines(r.err) != 1)
            fprintf(stderr, "\n  %s: status %d stderr %s\n", bad[k], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scatter --source t --targets u", plat()), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "TP = 0"));
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"solve --json fields", test_solve_json},
        {"unreachable target named", test_unreachable_line},
        {"lp export equals esolver", test_lp_export_matches_esolver},
        {"schedule then check", test_schedule_then_check},
        {"check exit statuses", test_check_statuses},
        {"schedule bad options", test_schedule_bad_options},
        {NULL, NULL}};
    return tu_main("cli", tests);
}
