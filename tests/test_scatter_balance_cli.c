/* ssched scatter-balance: output formats and bad inputs (exit 2, exactly one
 * line on stderr). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *table1(void)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/seed004_table1.csv", SSCHED_DATA_DIR);
    return path;
}

static void test_text_output(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance '%s' --items 817101 --order bandwidth-desc",
                           table1()),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "makespan: 504969037/1250000 = 403.975230 s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "exact integer optimum"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "caseb"));
    CU_ASSERT_STRING_EQUAL(r.err, "");
    tu_run_free(&r);
    /* the heuristics print the rational optimum and eq. (4) */
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance '%s' --items 1000 --algorithm closed-form",
                           table1()),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rational optimum T = "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "eq. (4)"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance '%s' --items 1000 --choose-root", table1()), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<- best"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance --help"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "usage"));
    tu_run_free(&r);
}

static void test_json_output(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "scatter-balance '%s' --items 5000 --algorithm lp --order "
                                     "bandwidth-asc --json",
                                 table1()),
                          0);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "format")),
                           "ssched-scatter-balance/1");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "algorithm")), "lp");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "root")), "dinadan");
    CU_ASSERT(json_is_string(json_object_get(j, "makespan")));
    json_t *dist = json_object_get(j, "distribution");
    CU_ASSERT_EQUAL(json_array_size(dist), 16);
    /* the shares sum to n; the largest finish is the makespan, exactly */
    long sum = 0;
    const char *ms = json_string_value(json_object_get(j, "makespan"));
    int found = 0;
    for (size_t i = 0; i < json_array_size(dist); i++) {
        json_t *e = json_array_get(dist, i);
        sum += (long)json_integer_value(json_object_get(e, "items"));
        if (!strcmp(json_string_value(json_object_get(e, "finish")), ms))
            found = 1;
    }
    CU_ASSERT_EQUAL(sum, 5000);
    CU_ASSERT(found);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(dist, 0), "name")),
                           "merlin-a");
    json_t *rx = json_object_get(j, "relaxation");
    CU_ASSERT(json_is_string(json_object_get(rx, "guarantee")));
    json_decref(j);
    tu_run_free(&r);
}

static void test_plot(void)
{
    const char *svg = tu_tmp_path("stairs.svg");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance '%s' --items 817101 --algorithm uniform "
                               "--order bandwidth-desc --plot '%s'",
                           table1(), svg),
                    0);
    tu_run_free(&r);
    char *text = tu_read_file(svg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<svg"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "stroke-dasharray"));
    free(text);
}

static void expect_bad(const char *args, const char *fragment)
{
    tu_run_t r;
    int st = tu_run(&r, "scatter-balance %s", args);
    if (st != 2 || tu_count_lines(r.err) != 1 || !strstr(r.err, fragment))
        fprintf(stderr, "\n[%s] -> %d, stderr: %s", args, st, r.err);
    CU_ASSERT_EQUAL(st, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, fragment));
    CU_ASSERT_STRING_EQUAL(r.out, "");
    tu_run_free(&r);
}

static void test_bad_inputs(void)
{
    char args[1024];
    const char *t1 = table1();
    expect_bad("/nonexistent/file.csv --items 3", "cannot open");
    snprintf(args, sizeof args, "'%s'", t1);
    expect_bad(args, "missing --items");
    expect_bad("--items 3", "missing FILE.csv");
    snprintf(args, sizeof args, "'%s' --items -1", t1);
    expect_bad(args, "--items");
    snprintf(args, sizeof args, "'%s' --items many", t1);
    expect_bad(args, "--items");
    snprintf(args, sizeof args, "'%s' --items 10 --algorithm magic", t1);
    expect_bad(args, "unknown algorithm 'magic'");
    snprintf(args, sizeof args, "'%s' --items 10 --order random", t1);
    expect_bad(args, "unknown order 'random'");
    snprintf(args, sizeof args, "'%s' --items 10 --root nobody", t1);
    expect_bad(args, "unknown processor 'nobody'");
    snprintf(args, sizeof args, "'%s' --items 10 --holder nobody", t1);
    expect_bad(args, "unknown processor 'nobody'");
    snprintf(args, sizeof args, "'%s' --items 10 --root caseb --choose-root", t1);
    expect_bad(args, "exclude");
    snprintf(args, sizeof args, "'%s' --items 10 --frobnicate", t1);
    expect_bad(args, "--frobnicate");
    snprintf(args, sizeof args, "'%s' extra --items 10", t1);
    expect_bad(args, "unexpected argument 'extra'");
    snprintf(args, sizeof args, "'%s' --items 10 --plot /nonexistent/dir/x.svg", t1);
    expect_bad(args, "--plot");

    struct {
        const char *name, *text, *fragment;
    } files[] = {
        {"empty.csv", "# nothing\n", "no header"},
        {"fields.csv", "name,mu,lambda\na,1,0\nb,2\n", "fields.csv:3: expected 3 fields"},
        {"nan.csv", "name,mu,lambda\na,1,0\nb,abc,0\n", "nan.csv:3: column mu"},
        {"neg.csv", "name,mu,lambda\na,1,-0.5\n", "neg.csv:2: negative lambda"},
        {"dup.csv", "name,mu,lambda\na,1,0\na,2,0\n", "dup.csv:3: duplicate processor name 'a'"},
        {"col.csv", "name,mu,bandwidth\na,1,0\n", "col.csv:1: unknown column 'bandwidth'"},
        {"zero.csv", "name,mu,lambda\na,1,1/0\n", "zero.csv:2: column lambda"},
        {"tab0.csv", "name,items,comm,comp\na,5,0,0\n", "must start at 0"},
        {"tabinc.csv", "name,items,comm,comp\na,0,0,0\na,4,1,1\na,2,1,1\n", "must increase"},
    };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        const char *path = tu_tmp_path(files[k].name);
        tu_write_file(path, files[k].text);
        snprintf(args, sizeof args, "'%s' --items 3", path);
        expect_bad(args, files[k].fragment);
    }
    /* inputs the algorithms refuse */
    const char *tab = tu_tmp_path("tab.csv");
    tu_write_file(tab, "name,items,comm,comp\na,0,0,0\na,10,1,9\na,20,2,3\nroot,0,0,0\nroot,20,0,10\n");
    snprintf(args, sizeof args, "'%s' --items 25", tab);
    expect_bad(args, "stops at 20");
    snprintf(args, sizeof args, "'%s' --items 12 --algorithm dp-fast", tab);
    expect_bad(args, "nondecreasing");
    snprintf(args, sizeof args, "'%s' --items 12 --algorithm lp", tab);
    expect_bad(args, "affine");
    const char *aff = tu_tmp_path("aff.csv");
    tu_write_file(aff, "name,mu,lambda,lambda0\na,1,1,1\nroot,1,0,0\n");
    snprintf(args, sizeof args, "'%s' --items 12 --algorithm closed-form", aff);
    expect_bad(args, "linear");
    /* and the ones they accept */
    tu_run_t r;
    snprintf(args, sizeof args, "scatter-balance '%s' --items 12 --algorithm dp", tab);
    CU_ASSERT_EQUAL(tu_run(&r, "%s", args), 0);
    tu_run_free(&r);
    snprintf(args, sizeof args, "scatter-balance '%s' --items 12 --algorithm lp", aff);
    CU_ASSERT_EQUAL(tu_run(&r, "%s", args), 0);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"text output", test_text_output},
        {"JSON output with exact strings", test_json_output},
        {"SVG plot", test_plot},
        {"bad inputs: exit 2, one stderr line", test_bad_inputs},
        {NULL, NULL}};
    return tu_main("scatter_balance_cli", tests);
}
