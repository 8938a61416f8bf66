/* ssched makespan: outputs (text and JSON with exact strings) and bad
 * inputs (exit status 2, exactly one stderr line, nothing on stdout). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "test_util.h"

/* Run, parse stdout as JSON, return the object (or NULL). */
static json_t *run_json(const char *args)
{
    tu_run_t r;
    tu_run(&r, "makespan %s --json", args);
    CU_ASSERT(r.status == 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    json_error_t jerr;
    json_t *o = json_loads(r.out, 0, &jerr);
    CU_ASSERT(o != NULL);
    tu_run_free(&r);
    return o;
}

static const char *jstr(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "(missing)";
}

static void test_text_reduce(void)
{
    tu_run_t r;
    CU_ASSERT(tu_run(&r, "makespan reduce --times 10,5,5,5,4,2,2 --root 0 --algorithm snf") == 0);
    CU_ASSERT(strstr(r.out, "makespan: 11 (11)") != NULL);
    CU_ASSERT(strstr(r.out, "messages: 6") != NULL);
    CU_ASSERT(strstr(r.out, "sender receiver") != NULL);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    tu_run_free(&r);
    /* fractions and decimals: Fig. 8 with x = 5/4 */
    CU_ASSERT(tu_run(&r, "makespan reduce --times 5/4,5/4,5/4,5/4,1,1,1,1,1,1,1,1 --root 0 "
                         "--algorithm snf") == 0);
    CU_ASSERT(strstr(r.out, "makespan: 17/4 (4.25)") != NULL);
    tu_run_free(&r);
    CU_ASSERT(tu_run(&r, "makespan reduce --times 5/4,5/4,5/4,5/4,1,1,1,1,1,1,1,1 --root 0 "
                         "--algorithm optimal") == 0);
    CU_ASSERT(strstr(r.out, "makespan: 4 (4)") != NULL);
    CU_ASSERT(strstr(r.out, "method dpk") != NULL);
    tu_run_free(&r);
    CU_ASSERT(tu_run(&r, "makespan --help") == 0);
    CU_ASSERT(strstr(r.out, "allreduce") != NULL && strstr(r.out, "snf") != NULL);
    tu_run_free(&r);
}

static void test_json_outputs(void)
{
    json_t *o = run_json("reduce --times 10,5,5,5,4,2,2 --root 0 --algorithm snf");
    if (o) {
        CU_ASSERT_STRING_EQUAL(jstr(o, "makespan"), "11");
        json_t *m = json_object_get(o, "messages");
        CU_ASSERT(json_array_size(m) == 6);
        json_t *last = json_array_get(m, 5);
        CU_ASSERT(json_integer_value(json_object_get(last, "sender")) == 6);
        CU_ASSERT(json_integer_value(json_object_get(last, "receiver")) == 0);
        CU_ASSERT_STRING_EQUAL(jstr(last, "start"), "9");
        CU_ASSERT_STRING_EQUAL(jstr(last, "end"), "11");
        json_decref(o);
    }
    o = run_json("broadcast --times 1,2,3,3,3,3,3 --root 0 --algorithm fnf");
    if (o) {
        CU_ASSERT_STRING_EQUAL(jstr(o, "makespan"), "5");
        json_decref(o);
    }
    o = run_json("broadcast --times 1,2,3,3,3,3,3 --root 0 --algorithm optimal");
    if (o) {
        CU_ASSERT_STRING_EQUAL(jstr(o, "makespan"), "4");
        CU_ASSERT(json_array_size(json_object_get(o, "messages")) == 6);
        json_decref(o);
    }
    o = run_json("reduce --times 1/3,0.5,2.5e-1,7/11 --root 0 --algorithm optimal");
    if (o) {
        json_t *t = json_object_get(o, "times");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(t, 1)), "1/2");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(t, 2)), "1/4");
        CU_ASSERT(strchr(jstr(o, "makespan"), '.') == NULL); /* exact, not decimal */
        json_decref(o);
    }
    o = run_json("allreduce --times 3,2,5/2,1,2,3,1 --algorithm snf");
    if (o) {
        CU_ASSERT(json_integer_value(json_object_get(o, "root")) == 3); /* fastest */
        CU_ASSERT(json_array_size(json_object_get(o, "messages")) == 12);
        CU_ASSERT(strcmp(jstr(o, "reduce_makespan"), "(missing)") != 0);
        json_decref(o);
    }
    o = run_json("allreduce --times 3,2,5/2,1,2,3,1 --algorithm optimal --root 1");
    if (o) {
        CU_ASSERT(json_integer_value(json_object_get(o, "root")) == 1);
        json_decref(o);
    }
}

/* Every bad input: status 2, one stderr line naming the problem, no stdout. */
static void expect_bad(const char *args, const char *what)
{
    tu_run_t r;
    int st = tu_run(&r, "makespan %s", args);
    CU_ASSERT_EQUAL(st, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    if (!strstr(r.err, what))
        fprintf(stderr, "[%s] expected '%s' in: %s", args, what, r.err);
    CU_ASSERT(strstr(r.err, what) != NULL);
    tu_run_free(&r);
}

static void test_bad_inputs(void)
{
    expect_bad("", "missing operation");
    expect_bad("gather --times 1,2 --root 0 --algorithm snf", "unknown operation 'gather'");
    expect_bad("reduce --times '' --root 0 --algorithm snf", "option --times: empty list");
    expect_bad("reduce --times 1,,2 --root 0 --algorithm snf", "element 2 of the list is empty");
    expect_bad("reduce --times 1,2, --root 0 --algorithm snf", "element 3 of the list is empty");
    expect_bad("reduce --times 1,abc --root 0 --algorithm snf", "element 2: 'abc' is not a number");
    expect_bad("reduce --times 1,1/0 --root 0 --algorithm snf", "element 2: zero denominator");
    expect_bad("reduce --times 1,0,2 --root 0 --algorithm snf", "element 2 ('0'): time must be positive");
    expect_bad("broadcast --times 1,-3 --root 0 --algorithm fnf", "element 2 ('-3'): time must be positive");
    expect_bad("reduce --times 1,2,3 --root 3 --algorithm snf", "option --root: processor 3 out of range (0..2)");
    expect_bad("broadcast --times 1,2,3 --root x --algorithm fnf", "option --root: 'x' is not an integer");
    expect_bad("broadcast --times 1,2,3 --root -1 --algorithm fnf", "option --root: '-1'");
    expect_bad("reduce --times 1,2 --root 0 --algorithm fnf", "'fnf' is not valid for reduce");
    expect_bad("broadcast --times 1,2 --root 0 --algorithm snf", "'snf' is not valid for broadcast");
    expect_bad("allreduce --times 1,2 --algorithm fnf", "'fnf' is not valid for allreduce");
    expect_bad("reduce --times 1,2 --root 0 --algorithm best", "'best' is not valid for reduce");
    expect_bad("reduce --times 1,2 --root 0 --algorithm snf --frobnicate", "unknown option or unexpected value '--frobnicate'");
    expect_bad("reduce --times 1,2 --root 0 --algorithm snf -x", "unknown option '-x'");
    expect_bad("reduce --times 1,2 --root 0 --algorithm snf --json=yes", "'--json=yes'");
    expect_bad("reduce --root 0 --algorithm snf --times", "option '--times' needs a value");
    expect_bad("reduce --root 0 --algorithm snf", "missing --times");
    expect_bad("reduce --times 1,2 --root 0", "missing --algorithm");
    expect_bad("reduce --times 1,2 --algorithm snf", "missing --root I (the destination)");
    expect_bad("broadcast --times 1,2 --algorithm fnf", "missing --root I (the source)");
    expect_bad("reduce --times 1,2 --root 0 --algorithm snf extra", "unexpected argument 'extra'");
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"text output", test_text_reduce},
        {"JSON output with exact strings", test_json_outputs},
        {"bad inputs: exit 2 and one stderr line", test_bad_inputs},
        {NULL, NULL}};
    return tu_main("makespan CLI", tests);
}
