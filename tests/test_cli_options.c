/* Command-line gaps (issue 11, item 6): node lists from files (@FILE, one
 * name per line, so names may contain commas) and single-value options
 * given twice (exit 2 and one stderr line naming the option, never
 * last-wins). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define FIG6 SSCHED_SOURCE_DIR "/examples/fig6.graphml"

static void expect_bad(tu_run_t *r, const char *needle)
{
    CU_ASSERT_EQUAL(r->status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r->err), 1);
    CU_ASSERT_STRING_EQUAL(r->out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, needle));
    if (r->status != 2 || !strstr(r->err, needle))
        fprintf(stderr, "\n  expected '%s', got status %d, stderr: %s\n", needle, r->status,
                r->err);
}

/* Every command rejects a repeated single-value option with one line. */
static void test_repeated_options(void)
{
    static const struct {
        const char *args, *option;
    } cases[] = {
        {"solve " FIG6 " --problem reduce --participants P0,P1 --target P0 --target P1", "--target"},
        {"solve " FIG6 " --problem scatter --source P0 --source P1 --targets P2", "--source"},
        {"solve " FIG6 " --problem scatter --problem reduce --source P0 --targets P1", "--problem"},
        {"solve " FIG6 " --problem gossip --sources P0 --targets P1 --targets P2", "--targets"},
        {"solve " FIG6 " --problem gossip --sources P0 --sources P1 --targets P2", "--sources"},
        {"solve " FIG6 " --problem reduce --participants P0,P1 --participants P1,P2 --target P0",
         "--participants"},
        {"solve " FIG6 " --problem scatter --source P0 --targets P1 --size 2 --size 3", "--size"},
        {"solve " FIG6 " --problem scatter --source P0 --targets P1 --method lp --method colgen",
         "--method"},
        {"lp " FIG6 " --problem scatter --source P0 --source P1 --targets P2 -o x.lp", "--source"},
        {"schedule " FIG6 " --problem scatter --source P0 --targets P1 --targets P2", "--targets"},
        {"makespan reduce --times 1,2 --times 3,4 --root 0 --algorithm snf", "--times"},
        {"makespan reduce --times 1,2 --root 0 --root 1 --algorithm snf", "--root"},
        {"makespan reduce --times 1,2 --root 0 --algorithm snf --algorithm optimal", "--algorithm"},
        {"makespan reduce --times 1,2 --root 0 --algorithm snf --max-memory 1 --max-memory 2",
         "--max-memory"},
        {"makespan reduce --times 1,2 --root 0 --algorithm snf --max-work 1 --max-work 2",
         "--max-work"},
        {"scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 10 --items 20", "--items"},
        {"scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 10 --algorithm dp "
         "--algorithm exact", "--algorithm"},
        {"scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 10 --root caseb "
         "--root sekhmet", "--root"},
        {"scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 10 --order given "
         "--order given", "--order"},
        {"scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 10 --holder caseb "
         "--holder caseb", "--holder"},
        {"redistribute --P 4 --P 5 --K 2 --N 8 --bw-min 1 --bw-max 2 --algorithm direct", "--P"},
        {"redistribute --P 4 --K 2 --N 8 --bw-min 1 --bw-max 2 --algorithm direct "
         "--algorithm greedy", "--algorithm"},
        {"redistribute --P 4 --K 2 --N 8 --bw-min 1 --bw-min 1 --bw-max 2 --algorithm direct",
         "--bw-min"},
        {"redistribute --P 4 --K 2 --N 8 --bw-min 1 --bw-max 2 --seed 1 --seed 2 "
         "--algorithm direct", "--seed"},
        {"redistribute --P 4 --K 2 --N 8 --bw-min 1 --bw-max 2 --algorithm direct --startup 0 "
         "--startup 1", "--startup"},
        {"lp " FIG6 " --problem scatter --source P0 --targets P1 -o a.lp -o b.lp", "-o/--output"},
        {"gen tiers --nodes 20 --nodes 30", "--nodes"},
        {"gen tiers --seed 1 --seed 2", "--seed"},
        {"gen tiers --nodes 20 -o a.graphml --output b.graphml", "-o/--output"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tu_run_t r;
        tu_run(&r, "%s", cases[i].args);
        char needle[64];
        snprintf(needle, sizeof needle, "option %s given twice", cases[i].option);
        expect_bad(&r, needle);
        tu_run_free(&r);
    }
    /* flags may repeat harmlessly; once is fine everywhere */
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "makespan reduce --times 1,2 --root 0 --algorithm snf --json "
                               "--json"), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve %s --problem scatter --source P0 --targets P1 --quiet "
                               "--quiet", FIG6), 0);
    tu_run_free(&r);
}

static const char *comma_platform =
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    "  <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
    "  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
    "  <graph id=\"G\" edgedefault=\"undirected\">\n"
    "    <node id=\"s,0\"><data key=\"w\">1</data></node>\n"
    "    <node id=\"a,1\"><data key=\"w\">1/2</data></node>\n"
    "    <node id=\"b\"><data key=\"w\">1</data></node>\n"
    "    <edge source=\"s,0\" target=\"a,1\"><data key=\"c\">1/3</data></edge>\n"
    "    <edge source=\"s,0\" target=\"b\"><data key=\"c\">1</data></edge>\n"
    "    <edge source=\"a,1\" target=\"b\"><data key=\"c\">1/2</data></edge>\n"
    "  </graph>\n"
    "</graphml>\n";

/* Node ids with commas, named through @FILE lists (and --source/--target,
 * which take one whole name). */
static void test_list_files(void)
{
    const char *plat = tu_tmp_path("comma.graphml");
    const char *targets = tu_tmp_path("targets.txt");
    const char *parts = tu_tmp_path("parts.txt");
    const char *bad = tu_tmp_path("bad.txt");
    const char *dup = tu_tmp_path("dup.txt");
    const char *empty = tu_tmp_path("empty.txt");
    CU_ASSERT(tu_write_file(plat, comma_platform) == 0);
    CU_ASSERT(tu_write_file(targets, "a,1\r\n\nb\n") == 0); /* CRLF, blank lines */
    CU_ASSERT(tu_write_file(parts, "b\ns,0\na,1") == 0);    /* no final newline */
    CU_ASSERT(tu_write_file(bad, "a,1\nzz\n") == 0);
    CU_ASSERT(tu_write_file(dup, "b\nb\n") == 0);
    CU_ASSERT(tu_write_file(empty, "\n\n") == 0);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets @'%s'", plat,
                           targets), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "scatter from s,0 to a,1,b"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem gossip --sources @'%s' --targets @'%s'",
                           plat, targets, parts), 0);
    tu_run_free(&r);
    /* reduce participants keep the file's order */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem reduce --participants @'%s' --target a,1",
                           plat, parts), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "reduce of b,s,0,a,1 (in this order) to a,1"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scatter --source s,0 --targets @'%s'",
                           plat, targets), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' --problem scatter --source s,0 --targets @'%s' -o '%s'",
                           plat, targets, tu_tmp_path("m.lp")), 0);
    tu_run_free(&r);

    /* the same throughput from a file as from the comma list */
    const char *fig6_targets = tu_tmp_path("fig6.txt");
    CU_ASSERT(tu_write_file(fig6_targets, "P1\nP2\n") == 0);
    tu_run_t a, b;
    CU_ASSERT_EQUAL(tu_run(&a, "solve %s --problem scatter --source P0 --targets P1,P2 --json",
                           FIG6), 0);
    CU_ASSERT_EQUAL(tu_run(&b, "solve %s --problem scatter --source P0 --targets @%s --json", FIG6,
                           fig6_targets), 0);
    const char *ta = strstr(a.out, "\"throughput\""), *tb = strstr(b.out, "\"throughput\"");
    CU_ASSERT(ta && tb && !strncmp(ta, tb, 30));
    tu_run_free(&a);
    tu_run_free(&b);

    /* errors name the option, the file and the line */
    tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets @'%s'", plat, bad);
    expect_bad(&r, "--targets @");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "bad.txt:2: unknown node 'zz'"));
    tu_run_free(&r);
    tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets @'%s'", plat, dup);
    expect_bad(&r, "dup.txt:2: node 'b' listed twice");
    tu_run_free(&r);
    tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets @'%s'", plat, empty);
    expect_bad(&r, "no node names in the file");
    tu_run_free(&r);
    tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets @%s", plat,
           tu_tmp_path("missing.txt"));
    expect_bad(&r, "cannot open the file");
    tu_run_free(&r);
    tu_run(&r, "solve '%s' --problem reduce --participants @'%s' --target zz", plat, parts);
    expect_bad(&r, "--target: unknown node 'zz'");
    tu_run_free(&r);
    /* a comma list still splits at commas */
    tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets a,1,b", plat);
    expect_bad(&r, "--targets: unknown node 'a'");
    tu_run_free(&r);
    /* the source is one name: "s,0" exists, "s" does not */
    tu_run(&r, "solve '%s' --problem scatter --source s --targets b", plat);
    expect_bad(&r, "--source: unknown node 's'");
    tu_run_free(&r);
    tu_run(&r, "solve '%s' --problem scatter --source s,0 --targets @'%s'", plat, parts);
    expect_bad(&r, "listed among its own targets");
    tu_run_free(&r);
}

/* --verbose shows branch-and-bound progress from the start; --quiet
 * silences it (the search runs well under a second either way). */
static void test_quiet_verbose(void)
{
    /* 18 distinct times: branch-and-bound, about 0.1 s */
    const char *args = "makespan reduce --times 3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59,61,67 "
                       "--root 0 --algorithm optimal";
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "%s --verbose", args), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "branch-and-bound"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "%s --quiet", args), 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    tu_run_free(&r);
    /* solve --verbose: lp_solve's log and progress on stderr, stdout stays
     * the JSON alone; -o writes it to a file */
    const char *fig6 = SSCHED_SOURCE_DIR "/examples/fig6.graphml --problem reduce "
                       "--participants P0,P1,P2 --target P0";
    CU_ASSERT_EQUAL(tu_run(&r, "solve %s --method lp --verbose --json", fig6), 0);
    CU_ASSERT(r.out && r.out[0] == '{');
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "Model name"));
    tu_run_free(&r);
    const char *out = tu_tmp_path("solve.json");
    CU_ASSERT_EQUAL(tu_run(&r, "solve %s --json -o '%s'", fig6, out), 0);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    tu_run_free(&r);
    char *text = tu_read_file(out);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "\"throughput\": \"1\""));
    free(text);
    CU_ASSERT_EQUAL(tu_run(&r, "solve %s --quiet --verbose", fig6), 2);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "redistribute --P 3 --K 2 --N 12 --bw-min 1 --bw-max 3 "
                               "--algorithm greedy --verbose"),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "scheduled in"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "compare --times 1,2,3 --root 0 --verbose"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "unrolling and checking M = 1"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "compare --times 1,2,3 --root 0 --quiet"), 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance '%s/seed004_table1.csv' --items 200 --quiet "
                               "--algorithm dp-fast",
                           SSCHED_DATA_DIR),
                    0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    tu_run_free(&r);
}

/* solve --json reports each solver phase apart: the exact pricing passes
 * and master solves counted, the multicast's bound LP on its own */
static void test_solver_phases(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "solve '%s/examples/tiers-small.graphml' --problem broadcast "
                                     "--source lan0_0_0 --targets lan1_0_0,lan1_0_1 --json",
                                 SSCHED_SOURCE_DIR),
                          0);
    json_error_t e;
    json_t *root = json_loads(r.out, 0, &e);
    tu_run_free(&r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *solver = json_object_get(root, "solver"), *ph = json_object_get(solver, "phases");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ph);
    json_int_t passes = json_integer_value(json_object_get(solver, "exact_pricing_passes"));
    CU_ASSERT(passes >= 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(ph, "exact_pricing"),
                                                       "passes")),
                    passes);
    CU_ASSERT(json_integer_value(json_object_get(json_object_get(ph, "exact_master"), "solves")) >=
              passes);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(ph, "float_iterations"),
                                                       "iterations")),
                    json_integer_value(json_object_get(solver, "iterations")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(ph, "upper_bound_lp"),
                                                       "solves")),
                    1);
    json_decref(root);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"repeated single-value options", test_repeated_options},
        {"--quiet and --verbose", test_quiet_verbose},
        {"solver figures per phase", test_solver_phases},
        {"node lists from @FILE", test_list_files},
        {NULL, NULL}};
    return tu_main("cli_options", tests);
}
