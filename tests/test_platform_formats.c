/* Platforms users already have (ssched_platform_load): GML through
 * igraph's reader, bandwidths and speeds turned into exact times, stdin,
 * and `-o -` for standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/platform.h"
#include "ssched/rational.h"
#include "test_util.h"

/* Undirected by default; labels as names; a bare 0.1 and a quoted 1/3;
 * a repeated label; two parallel links a--b (the cheaper one is kept). */
static const char *const zoo_gml =
    "Creator \"hand\"\n"
    "graph [\n"
    "  node [ id 0 label \"Paris\" speed 2 ]\n"
    "  node [ id 1 label \"Lyon\" ]\n"
    "  node [ id 2 label \"Nice\" speed \"1/3\" ]\n"
    "  node [ id 3 label \"Lyon\" ]\n"
    "  edge [ source 0 target 1 c 0.1 bw 10 ]\n"
    "  edge [ source 1 target 2 c \"1/3\" bw 4 ]\n"
    "  edge [ source 1 target 2 c 2 bw 3 ]\n"
    "  edge [ source 2 target 3 c 5 bw \"2.5\" ]\n"
    "]\n";

static size_t node(const ssched_platform_t *p, const char *name)
{
    size_t i = (size_t)-1;
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_platform_find_node(p, name, &i, &err), SSCHED_OK);
    return i;
}

static void expect_c(const ssched_platform_t *p, const char *a, const char *b, const char *c)
{
    size_t e = ssched_platform_edge_index(p, node(p, a), node(p, b));
    CU_ASSERT_FATAL(e != (size_t)-1);
    if (!tu_mpq_equals(p->c[e], c)) {
        char *s = ssched_rational_to_string(p->c[e]);
        fprintf(stderr, "\n  c(%s->%s) = %s, want %s\n", a, b, s, c);
        free(s);
    }
    CU_ASSERT(tu_mpq_equals(p->c[e], c));
}

static void test_gml_exact(void)
{
    const char *path = tu_tmp_path("zoo.gml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, zoo_gml), 0);
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    if (ssched_platform_load(&p, path, NULL, &err) != SSCHED_OK)
        fprintf(stderr, "\n  %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(p.n_nodes, 4);
    CU_ASSERT_STRING_EQUAL(p.names[3], "Lyon (id 3)");
    /* undirected: both ways; the parallel Lyon--Nice links keep 1/3 */
    CU_ASSERT_EQUAL(p.n_edges, 6);
    expect_c(&p, "Paris", "Lyon", "1/10");
    expect_c(&p, "Lyon", "Paris", "1/10");
    expect_c(&p, "Lyon", "Nice", "1/3");
    expect_c(&p, "Nice", "Lyon", "1/3");
    expect_c(&p, "Nice", "Lyon (id 3)", "5");
    CU_ASSERT(!p.has_w[0]); /* no attribute w: routers */

    /* bandwidths and speeds: c = B / bw, w = F / speed, exactly */
    mpq_t B, F;
    mpq_inits(B, F, NULL);
    mpq_set_ui(B, 1000, 1);
    mpq_set_ui(F, 6, 1);
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    ro.cost_from = "bw";
    ro.unit_bytes = B;
    ro.speed_from = "speed";
    ro.flops_per_task = F;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load(&p, path, &ro, &err), SSCHED_OK);
    expect_c(&p, "Paris", "Lyon", "100");
    expect_c(&p, "Lyon", "Nice", "250"); /* the faster of bw 4 and 3 */
    expect_c(&p, "Nice", "Lyon (id 3)", "400");
    CU_ASSERT(p.has_w[node(&p, "Paris")] && tu_mpq_equals(p.w[node(&p, "Paris")], "3"));
    CU_ASSERT(p.has_w[node(&p, "Nice")] && tu_mpq_equals(p.w[node(&p, "Nice")], "18"));
    CU_ASSERT(!p.has_w[node(&p, "Lyon")]);
    mpq_clears(B, F, NULL);
    ssched_platform_free(&p);
}

static void test_gml_directed_and_cli(void)
{
    const char *path = tu_tmp_path("chain.gml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, "graph [ directed 1\n"
                                              " node [ id 5 name \"s\" ] node [ id 7 name \"t\" ]\n"
                                              " edge [ source 5 target 7 c 2 ] ]\n"),
                          0);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source s --targets t", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/2"));
    tu_run_free(&r);
    /* directed: t cannot reach s */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source t --targets s", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 0"));
    tu_run_free(&r);
    /* the same file through stdin (content sniffing), and --format */
    CU_ASSERT_EQUAL(tu_sh(&r, "cat '%s' | '%s' solve - --problem scatter --source s --targets t",
                          path, SSCHED_BIN),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/2"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_sh(&r, "cat '%s' | '%s' solve - --format gml --problem scatter --source s "
                              "--targets t",
                          path, SSCHED_BIN),
                    0);
    tu_run_free(&r);
}

/* A Topology-Zoo-like GraphML: undirected, bandwidth in bits per second
 * on key LinkSpeedRaw, no c at all. */
static void test_graphml_bandwidth(void)
{
    const char *path = tu_tmp_path("zoo.graphml");
    CU_ASSERT_EQUAL_FATAL(
        tu_write_file(path,
                      "<?xml version=\"1.0\"?>\n"
                      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                      "<key id=\"d1\" for=\"edge\" attr.name=\"LinkSpeedRaw\" attr.type=\"double\"/>\n"
                      "<graph edgedefault=\"undirected\">\n"
                      "<node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>\n"
                      "<edge source=\"a\" target=\"b\"><data key=\"d1\">1e9</data></edge>\n"
                      "<edge source=\"b\" target=\"c\"><data key=\"d1\">2.5e8</data></edge>\n"
                      "</graph></graphml>\n"),
        0);
    tu_run_t r;
    /* unit message 1e8 bits: c(a,b) = 1/10, c(b,c) = 2/5; a scatter a -> b,c
     * sends 2 messages a->b per operation: TP = 1/(1/10 + 1/10) = 5, and
     * b's out-port 2/5: TP <= 5/2 */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --unit-bytes 1e8 --problem "
                               "scatter --source a --targets b,c",
                           path),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 5/2"));
    if (!strstr(r.out, "TP = 5/2"))
        fprintf(stderr, "\n  %s %s\n", r.out, r.err);
    tu_run_free(&r);
    /* without --cost-from the file has no c */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source a --targets b", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no edge attribute 'c'"));
    tu_run_free(&r);
}

static void test_bad_inputs(void)
{
    const char *broken = tu_tmp_path("broken.gml");
    const char *zero = tu_tmp_path("zero.gml");
    const char *nocost = tu_tmp_path("nocost.gml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(broken, "graph [ node [ id 0 ] edge [ source 0 "), 0);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(zero, "graph [ node [ id 0 label \"x\" ] node [ id 1 "
                                              "label \"y\" ] edge [ source 0 target 1 bw 0 ] ]"),
                          0);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(nocost, "graph [ node [ id 0 label \"x\" ] node [ id 1 "
                                                "label \"y\" ] edge [ source 0 target 1 ] ]"),
                          0);
    const char *P = "--problem scatter --source x --targets y";
    char cmd[7][1024];
    snprintf(cmd[0], sizeof cmd[0], "solve '%s' %s", broken, P);
    snprintf(cmd[1], sizeof cmd[1], "solve '%s' --cost-from bw --unit-bytes 8 %s", zero, P);
    snprintf(cmd[2], sizeof cmd[2], "solve '%s' %s", nocost, P);
    snprintf(cmd[3], sizeof cmd[3], "solve '%s' --unit-bytes 8 %s", zero, P);
    snprintf(cmd[4], sizeof cmd[4], "solve '%s' --format dot %s", zero, P);
    snprintf(cmd[5], sizeof cmd[5], "solve '%s' --cost-from bw --unit-bytes -1 %s", zero, P);
    snprintf(cmd[6], sizeof cmd[6], "solve '%s' --speed-from s --flops-per-task 0 %s", zero, P);
    static const char *const want[7] = {"not a readable GML", "bw must be positive",
                                        "no edge attribute 'c'",
                                        "--unit-bytes is used with --cost-from", "--format",
                                        "positive", "positive"};
    for (int k = 0; k < 7; k++) {
        tu_run_t r;
        int st = tu_run(&r, "%s", cmd[k]);
        if (st != 2 || tu_count_lines(r.err) != 1 || !strstr(r.err, want[k]))
            fprintf(stderr, "\n  %s: status %d, stderr %s\n", cmd[k], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want[k]));
        tu_run_free(&r);
    }
}

/* -o - writes to standard output and creates no file named "-" */
static void test_stdout_outputs(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_sh(&r, "cd '%s' && '%s' gen tiers --nodes 20 -o - | head -c 5",
                          tu_tmp_path(""), SSCHED_BIN),
                    0);
    CU_ASSERT_STRING_EQUAL(r.out, "<?xml");
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_sh(&r, "cd '%s' && '%s' lp '%s/examples/fig6.graphml' --problem reduce "
                              "--participants P0,P1,P2 --target P0 -o - && test ! -e -",
                          tu_tmp_path(""), SSCHED_BIN, SSCHED_SOURCE_DIR),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Maximize"));
    tu_run_free(&r);
}

/* The MPS export is free-format MPS, which glpsol reads with --freemps:
 * it minimizes -TP, so the optimum -1 is fig6's TP = 1. */
static void test_mps_for_glpsol(void)
{
    const char *mps = tu_tmp_path("fig6.mps");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "lp '%s/examples/fig6.graphml' --problem reduce --participants "
                                     "P0,P1,P2 --target P0 -o '%s'",
                                 SSCHED_SOURCE_DIR, mps),
                          0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_sh(&r, "glpsol --freemps '%s' --exact -o /dev/stdout", mps), 0);
    CU_ASSERT_PTR_NOT_NULL(r.out && strstr(r.out, "obj = -1"));
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {{"gml exact values", test_gml_exact},
                                      {"gml directed, stdin, cli", test_gml_directed_and_cli},
                                      {"graphml bandwidths", test_graphml_bandwidth},
                                      {"bad inputs", test_bad_inputs},
                                      {"-o - is stdout", test_stdout_outputs},
                                      {"mps read by glpsol --freemps", test_mps_for_glpsol},
                                      {NULL, NULL}};
    return tu_main("platform formats", tests);
}
