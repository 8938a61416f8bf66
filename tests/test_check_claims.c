/* `check` verifies every number a periodic schedule file claims and
 * refuses every field it cannot interpret (issue 11, item 1): unknown or
 * repeated keys, a missing "split" or "size", duplicate targets, figures
 * that do not match the slots, fixed-period claims that do not follow from
 * the trees, and (CLI) bytes hidden after a NUL. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "test_util.h"

#define FIG2 SSCHED_SOURCE_DIR "/examples/fig2.graphml"
#define FIG6 SSCHED_SOURCE_DIR "/examples/fig6.graphml"
#define REDUCE "--problem reduce --participants P0,P1,P2 --target P0"
#define SCATTER "--problem scatter --source Ps --targets P0,P1"
#define GOSSIP "--problem gossip --sources Ps,Pb --targets P0,P1"

/* A schedule file made by the CLI, parsed. */
static json_t *make(const char *platform, const char *options)
{
    static int n;
    char name[32];
    snprintf(name, sizeof name, "claims%d.json", n++);
    const char *path = tu_tmp_path(name);
    tu_run_t r;
    int st = tu_run(&r, "schedule '%s' %s --quiet -o '%s'", platform, options, path);
    if (st != 0)
        fprintf(stderr, "\n  schedule %s: %s\n", options, r.err ? r.err : "");
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    char *text = tu_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    return root;
}

/* Check root (consumed): SSCHED_EINPUT whose message contains `fragment`. */
static void expect_bad(json_t *root, const char *fragment)
{
    char *text = json_dumps(root, JSON_PRESERVE_ORDER);
    json_decref(root);
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &rep, &err);
    if (st != SSCHED_EINPUT || !strstr(err.message, fragment))
        fprintf(stderr, "\n  expected bad input '%s': status %d '%s' (valid %d '%s')\n", fragment,
                (int)st, err.message, rep.valid, rep.violation);
    CU_ASSERT_EQUAL(st, SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, fragment));
    free(text);
}

/* Check root (consumed): a checked file, invalid, violation contains `fragment`. */
static void expect_invalid(json_t *root, const char *fragment)
{
    char *text = json_dumps(root, JSON_PRESERVE_ORDER);
    json_decref(root);
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &rep, &err);
    if (st != SSCHED_OK || rep.valid || !strstr(rep.violation, fragment))
        fprintf(stderr, "\n  expected violation '%s': status %d '%s', valid %d '%s'\n", fragment,
                (int)st, err.message, rep.valid, rep.violation);
    CU_ASSERT_EQUAL(st, SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, fragment));
    free(text);
}

/* Check root (consumed): valid. */
static void expect_valid(json_t *root)
{
    char *text = json_dumps(root, JSON_PRESERVE_ORDER);
    json_decref(root);
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &rep, &err);
    if (st != SSCHED_OK || !rep.valid)
        fprintf(stderr, "\n  expected valid: status %d '%s', '%s'\n", (int)st, err.message,
                rep.violation);
    CU_ASSERT_EQUAL(st, SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 1);
    free(text);
}

static json_t *first_transfer(json_t *root)
{
    json_t *slots = json_object_get(root, "slots");
    for (size_t k = 0; k < json_array_size(slots); k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        if (json_array_size(tr))
            return json_array_get(tr, 0);
    }
    return NULL;
}

static void set_q(json_t *obj, const char *key, const char *value)
{
    json_object_set_new(obj, key, json_string(value));
}

/* q = value of obj.key + delta, written back as text. */
static void add_q(json_t *obj, const char *key, const char *delta)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    CU_ASSERT_EQUAL(mpq_set_str(a, json_string_value(json_object_get(obj, key)), 10), 0);
    mpq_canonicalize(a);
    CU_ASSERT_EQUAL(mpq_set_str(b, delta, 10), 0);
    mpq_canonicalize(b);
    mpq_add(a, a, b);
    char *text = mpq_get_str(NULL, 10, a);
    set_q(obj, key, text);
    free(text);
    mpq_clears(a, b, NULL);
}

static void test_valid_variants(void)
{
    const char *platform[] = {FIG2, FIG2, FIG2, FIG2, FIG6, FIG6, FIG6, FIG6, FIG6};
    const char *options[] = {SCATTER, SCATTER " --no-split", GOSSIP, GOSSIP " --no-split",
                             REDUCE, REDUCE " --no-split", REDUCE " --method lp",
                             REDUCE " --fixed-period 10", REDUCE " --fixed-period 7/2 --no-split"};
    for (size_t k = 0; k < sizeof options / sizeof *options; k++)
        expect_valid(make(platform[k], options[k]));
    json_t *r = make(FIG6, REDUCE " --fixed-period 10");
    CU_ASSERT_PTR_NOT_NULL(json_object_get(r, "fixed_period"));
    json_decref(r);
}

/* Every field the checker cannot interpret is refused, with its name. */
static void test_unknown_keys(void)
{
    json_t *r = make(FIG2, SCATTER);
    json_object_set_new(r, "comment", json_string("x"));
    expect_bad(r, "unknown key \"comment\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_object_get(r, "problem"), "root", json_string("Ps"));
    expect_bad(r, "problem: unknown key \"root\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_object_get(r, "platform"), "links", json_array());
    expect_bad(r, "platform: unknown key \"links\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_array_get(json_object_get(json_object_get(r, "platform"), "nodes"), 0),
                        "speed", json_string("2"));
    expect_bad(r, "platform.nodes[0]: unknown key \"speed\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_array_get(json_object_get(json_object_get(r, "platform"), "edges"), 0),
                        "bw", json_string("2"));
    expect_bad(r, "platform.edges[0]: unknown key \"bw\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_array_get(json_object_get(r, "slots"), 0), "length", json_string("1"));
    expect_bad(r, "slots[0]: unknown key \"length\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(first_transfer(r), "interval", json_pack("[ii]", 0, 1));
    expect_bad(r, "unknown key \"interval\"");

    r = make(FIG6, REDUCE);
    json_object_set_new(first_transfer(r), "origin", json_string("P0"));
    expect_bad(r, "unknown key \"origin\"");

    r = make(FIG6, REDUCE);
    json_object_set_new(json_array_get(json_object_get(r, "computations"), 0), "start",
                        json_string("0"));
    expect_bad(r, "computations[0]: unknown key \"start\"");

    r = make(FIG6, REDUCE);
    json_object_set_new(json_array_get(json_object_get(r, "trees"), 0), "rate", json_string("1"));
    expect_bad(r, "trees[0]: unknown key \"rate\"");

    r = make(FIG6, REDUCE);
    json_t *task = json_array_get(json_object_get(json_array_get(json_object_get(r, "trees"), 0),
                                                  "tasks"), 0);
    json_object_set_new(task, "op", json_integer(0));
    expect_bad(r, "unknown key \"op\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_object_get(r, "figures"), "seconds", json_real(1));
    expect_bad(r, "figures: unknown key \"seconds\"");

    r = make(FIG6, REDUCE " --fixed-period 10");
    json_object_set_new(json_object_get(r, "fixed_period"), "TF", json_string("10"));
    expect_bad(r, "fixed_period: unknown key \"TF\"");

    /* fixed_period is a reduce notion: a scatter file cannot carry it */
    r = make(FIG2, SCATTER);
    json_object_set_new(r, "fixed_period", json_object());
    expect_bad(r, "unknown key \"fixed_period\"");

    /* a key given twice: the file shows one value, a reader may take the other */
    r = make(FIG2, SCATTER);
    char *text = json_dumps(r, JSON_PRESERVE_ORDER);
    json_decref(r);
    char *at = strstr(text, "\"throughput\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    size_t len = strlen(text);
    char *twice = malloc(len + 64);
    size_t head = (size_t)(at - text);
    memcpy(twice, text, head);
    sprintf(twice + head, "\"throughput\": \"1000\", %s", at);
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_check_schedule_text(twice, &rep, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "throughput"));
    free(twice);
    free(text);
}

/* Nothing silently defaults; lists name each node once. */
static void test_no_defaults_no_duplicates(void)
{
    json_t *r = make(FIG2, SCATTER);
    json_object_del(r, "split");
    expect_bad(r, "\"split\"");

    r = make(FIG2, SCATTER);
    json_object_set_new(r, "split", json_string("false"));
    expect_bad(r, "\"split\"");

    r = make(FIG2, SCATTER);
    json_object_del(json_object_get(r, "problem"), "size");
    expect_bad(r, "\"size\"");

    r = make(FIG2, SCATTER);
    json_object_del(json_array_get(json_object_get(json_object_get(r, "platform"), "nodes"), 1), "w");
    expect_bad(r, "platform.nodes[1]: missing \"w\"");

    r = make(FIG2, SCATTER);
    json_array_append_new(json_object_get(json_object_get(r, "problem"), "targets"),
                          json_string("P1"));
    expect_bad(r, "problem.targets: 'P1' listed twice");

    r = make(FIG2, GOSSIP);
    json_array_append_new(json_object_get(json_object_get(r, "problem"), "sources"),
                          json_string("Ps"));
    expect_bad(r, "problem.sources: 'Ps' listed twice");

    r = make(FIG2, SCATTER);
    json_array_append_new(json_object_get(json_object_get(r, "problem"), "targets"),
                          json_string("Ps"));
    expect_bad(r, "source 'Ps' is listed among its targets");
}

/* figures: each number is recomputed from the slots. */
static void test_figures(void)
{
    json_t *r = make(FIG2, SCATTER);
    json_t *f = json_object_get(r, "figures");
    json_object_set_new(f, "matchings", json_integer(json_integer_value(json_object_get(f, "matchings")) + 1));
    json_object_set_new(f, "bound", json_integer(1000));
    expect_invalid(r, "figures.matchings");

    r = make(FIG2, SCATTER);
    f = json_object_get(r, "figures");
    json_object_set_new(f, "bound", json_integer(json_integer_value(json_object_get(f, "matchings")) - 1));
    expect_invalid(r, "exceed the stated bound");

    r = make(FIG2, GOSSIP);
    f = json_object_get(r, "figures");
    json_object_set_new(f, "bipartite_edges",
                        json_integer(json_integer_value(json_object_get(f, "bipartite_edges")) + 1));
    expect_invalid(r, "figures.bipartite_edges");

    r = make(FIG2, SCATTER);
    add_q(json_object_get(r, "figures"), "lcm_period", "1");
    expect_invalid(r, "figures.lcm_period");

    r = make(FIG6, REDUCE);
    add_q(json_object_get(r, "figures"), "lcm_period", "1");
    expect_invalid(r, "figures.lcm_period");

    /* a schedule stretched over twice its period (every slot, amount and
     * count doubled) is still valid, but not at the stated lcm_period */
    /* a scatter pattern shorter than the LCM period (n operations in n / TP)
     * states its own period, or the solution's LCM, nothing else */
    r = make(FIG2, SCATTER " --fixed-period 5");
    expect_valid(json_deep_copy(r));
    set_q(json_object_get(r, "figures"), "lcm_period", "7");
    expect_invalid(r, "figures.lcm_period is neither");
    r = make(FIG2, SCATTER " --fixed-period 5");
    set_q(json_object_get(r, "figures"), "lcm_period", "12");
    expect_valid(r);

    r = make(FIG2, SCATTER " --no-split");
    add_q(json_object_get(r, "figures"), "nosplit_factor", "1");
    expect_invalid(r, "nosplit_factor");

    r = make(FIG2, SCATTER);
    set_q(json_object_get(r, "figures"), "nosplit_factor", "2");
    expect_invalid(r, "nosplit_factor");

    r = make(FIG2, SCATTER);
    set_q(json_object_get(r, "figures"), "lcm_period", "1/2");
    expect_invalid(r, "positive integers");

    r = make(FIG2, SCATTER);
    json_object_set_new(json_object_get(r, "figures"), "decompose_seconds", json_string("0.1"));
    expect_bad(r, "decompose_seconds");

    r = make(FIG2, SCATTER);
    json_object_del(json_object_get(r, "figures"), "bound");
    expect_bad(r, "\"bound\"");
}

/* fixed_period: every claim against what the trees and TF imply. */
static void test_fixed_period(void)
{
    json_t *r = make(FIG6, REDUCE " --fixed-period 10");
    json_t *fx = json_object_get(r, "fixed_period");
    set_q(fx, "optimal_throughput", "1/1000");
    expect_invalid(r, "below the schedule's own throughput");

    r = make(FIG6, REDUCE " --fixed-period 10");
    add_q(json_object_get(r, "fixed_period"), "optimal_throughput", "1/7");
    expect_invalid(r, "optimal_throughput x figures.lcm_period");

    r = make(FIG6, REDUCE " --fixed-period 10");
    add_q(json_object_get(r, "fixed_period"), "floor_throughput", "1/10");
    expect_invalid(r, "floor_throughput x TF + extra_instances");

    r = make(FIG6, REDUCE " --fixed-period 10");
    add_q(json_object_get(r, "fixed_period"), "floor_throughput", "1/20");
    expect_invalid(r, "not a whole number of tree instances");

    r = make(FIG6, REDUCE " --fixed-period 10");
    add_q(json_object_get(r, "fixed_period"), "extra_instances", "1");
    expect_invalid(r, "extra_instances");

    r = make(FIG6, REDUCE " --fixed-period 10");
    add_q(json_object_get(r, "fixed_period"), "report_bound", "1/1000");
    expect_invalid(r, "report_bound");

    /* a bound counting no tree at all */
    r = make(FIG6, REDUCE " --fixed-period 10");
    fx = json_object_get(r, "fixed_period");
    json_object_set(fx, "report_bound", json_object_get(fx, "optimal_throughput"));
    expect_invalid(r, "report_bound");

    /* the floors cannot lie card(TREES)/TF or more below the optimum:
     * claiming a larger optimum (kept integral over lcm_period, and the
     * bound moved with it) exposes the floors */
    r = make(FIG6, REDUCE " --fixed-period 10");
    fx = json_object_get(r, "fixed_period");
    json_t *fg = json_object_get(r, "figures");
    mpq_t opt, lcm, step;
    mpq_inits(opt, lcm, step, NULL);
    mpq_set_str(lcm, json_string_value(json_object_get(fg, "lcm_period")), 10);
    mpq_canonicalize(lcm);
    mpq_inv(step, lcm);
    mpq_set_ui(opt, 10, 1); /* + 10 operations per time unit */
    char *txt = mpq_get_str(NULL, 10, opt);
    add_q(fx, "optimal_throughput", txt);
    add_q(fx, "report_bound", txt);
    free(txt);
    mpq_clears(opt, lcm, step, NULL);
    expect_invalid(r, "floor_throughput is not the floors");

    r = make(FIG6, REDUCE " --fixed-period 10");
    json_object_del(r, "trees");
    expect_bad(r, "trees");

    r = make(FIG6, REDUCE " --fixed-period 10");
    json_object_del(json_object_get(r, "fixed_period"), "report_bound");
    expect_bad(r, "report_bound");

    /* a fixed-period file's period is TF x nosplit_factor, not lcm_period */
    r = make(FIG6, REDUCE);
    json_object_set_new(r, "fixed_period",
                        json_pack("{ssssssss}", "optimal_throughput",
                                  json_string_value(json_object_get(r, "throughput")),
                                  "floor_throughput", "0", "report_bound", "0",
                                  "extra_instances", "0"));
    expect_invalid(r, "fixed_period");
}

/* The CLI refuses a file with a NUL byte: the checker would not see past it. */
static void test_nul_byte(void)
{
    json_t *r = make(FIG2, SCATTER);
    char *text = json_dumps(r, JSON_PRESERVE_ORDER);
    json_decref(r);
    const char *path = tu_tmp_path("nul.json");
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(text, 1, strlen(text), f);
    fputc('\0', f);
    fputs("{\"format\": \"anything\"}", f);
    fclose(f);
    tu_run_t run;
    CU_ASSERT_EQUAL(tu_run(&run, "check '%s'", path), 2);
    CU_ASSERT_EQUAL(tu_count_lines(run.err), 1);
    char expect[64];
    snprintf(expect, sizeof expect, "NUL byte at offset %zu", strlen(text));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, expect));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, path));
    tu_run_free(&run);
    free(text);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"files the CLI writes are valid", test_valid_variants},
        {"unknown and repeated keys are refused by name", test_unknown_keys},
        {"no silent defaults, no duplicate nodes", test_no_defaults_no_duplicates},
        {"figures recomputed from the slots", test_figures},
        {"fixed-period claims verified", test_fixed_period},
        {"CLI: NUL byte refused with its offset", test_nul_byte},
        {NULL, NULL}};
    return tu_main("check claims", tests);
}
