/* Pictures as users render them: several trees in one DOT file render with
 * `dot` (one cluster each), and --gantt / --trees-dot / --dot work with
 * --unroll (or are refused with exit 2, never ignored). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define FIG6 SSCHED_SOURCE_DIR "/examples/fig6.graphml"
#define REDUCE "--problem reduce --participants P0,P1,P2 --target P0"

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *s = text; s && (s = strstr(s, what)); s += strlen(what))
        n++;
    return n;
}

/* fig6 by the edge LP has two reduction trees: both must be in the one
 * graph dot draws */
static void test_trees_dot_renders_every_tree(void)
{
    const char *dotfile = tu_tmp_path("trees.dot"), *svg = tu_tmp_path("trees.svg");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule %s " REDUCE " --method lp --trees-dot '%s'", FIG6,
                                 dotfile),
                          0);
    tu_run_free(&r);
    char *dot = tu_read_file(dotfile);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
    CU_ASSERT_EQUAL(count(dot, "digraph"), 1);
    CU_ASSERT_EQUAL(count(dot, "subgraph \"cluster_tree"), 2);
    free(dot);
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "dot -Tsvg '%s' -o '%s'", dotfile, svg), 0);
    tu_run_free(&r);
    char *out = tu_read_file(svg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(count(out, "class=\"cluster\""), 2);
    free(out);
}

static void test_unroll_pictures(void)
{
    const char *json = tu_tmp_path("u.json"), *gantt = tu_tmp_path("u.svg");
    const char *trees = tu_tmp_path("u-trees.dot"), *dot = tu_tmp_path("u.dot");
    tu_run_t r;
    int st = tu_run(&r, "schedule %s " REDUCE " --operations 12 --unroll -o '%s' --gantt '%s' "
                        "--trees-dot '%s' --dot '%s' --quiet",
                    FIG6, json, gantt, trees, dot);
    if (st != 0)
        fprintf(stderr, "\n  %s\n", r.err);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    tu_run_free(&r);
    char *svg = tu_read_file(gantt);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    /* 12 operations of 2 transfers and 2 tasks: a bar per port end and
     * per task, the phases shaded, every bar labelled or titled "op N" */
    CU_ASSERT(count(svg, "class=\"bar\"") >= 12 * 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">start-up<"));
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "op 11:"));
    free(svg);
    CU_ASSERT_EQUAL(tu_sh(&r, "dot -Tsvg '%s' >/dev/null && dot -Tsvg '%s' >/dev/null", trees,
                          dot),
                    0);
    tu_run_free(&r);
    /* the unrolled Gantt chart keeps every event in memory: bounded */
    st = tu_run(&r, "schedule %s " REDUCE " --operations 10001 --unroll -o '%s' --gantt '%s'",
                FIG6, json, gantt);
    CU_ASSERT_EQUAL(st, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    st = tu_run(&r, "schedule %s " REDUCE " --operations 3 --unroll -o '%s' --json", FIG6, json);
    CU_ASSERT_EQUAL(st, 2);
    tu_run_free(&r);
}

/* -o - : the schedule (periodic or unrolled) alone on stdout, valid */
static void test_schedules_on_stdout(void)
{
    const char *file = tu_tmp_path("stdout.json");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "'%s' schedule %s " REDUCE " --operations 4 --unroll -o - "
                                    "2>/dev/null > '%s' && '%s' check '%s'",
                                SSCHED_BIN, FIG6, file, SSCHED_BIN, file),
                          0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "'%s' schedule %s " REDUCE " -o - > '%s' && '%s' check '%s'",
                                SSCHED_BIN, FIG6, file, SSCHED_BIN, file),
                          0);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"trees in one DOT file render", test_trees_dot_renders_every_tree},
        {"--unroll with --gantt, --trees-dot, --dot", test_unroll_pictures},
        {"schedules on stdout", test_schedules_on_stdout},
        {NULL, NULL}};
    return tu_main("pictures", tests);
}
