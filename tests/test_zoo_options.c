/* Platforms as Topology Zoo ships them (issue 24, "the first hour"):
 * links without the cost attribute (--missing-cost skip|error) and no
 * speeds at all (--speed S gives every node one). */
#include <string.h>

#include "test_util.h"

static const char *const zoo =
    "<?xml version=\"1.0\"?>\n"
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    "<key id=\"bw\" for=\"edge\" attr.name=\"LinkSpeedRaw\" attr.type=\"double\"/>\n"
    "<graph edgedefault=\"undirected\">\n"
    "<node id=\"0\"/><node id=\"1\"/><node id=\"2\"/>\n"
    "<edge source=\"0\" target=\"1\"><data key=\"bw\">1000000000</data></edge>\n"
    "<edge source=\"1\" target=\"2\"><data key=\"bw\">100000000</data></edge>\n"
    "<edge source=\"0\" target=\"2\"/>\n"
    "</graph></graphml>\n";

static const char *const zoo_gml =
    "graph [\n"
    "  node [ id 0 label \"A\" ]\n  node [ id 1 label \"B\" ]\n  node [ id 2 label \"C\" ]\n"
    "  edge [ source 0 target 1 bw 1000 ]\n  edge [ source 1 target 2 bw 500 ]\n"
    "  edge [ source 0 target 2 ]\n"
    "]\n";

static void test_missing_cost(void)
{
    const char *path = tu_tmp_path("zoo.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, zoo), 0);
    tu_run_t r;
    /* default: refused, naming the edge and the option that skips it */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --unit-bytes 1e6 "
                               "--problem scatter --source 0 --targets 2", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "missing LinkSpeedRaw"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--missing-cost skip"));
    tu_run_free(&r);
    /* skip: the link 0--2 is left out, so 0 reaches 2 through 1 */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --unit-bytes 1e6 "
                               "--missing-cost skip --problem scatter --source 0 --targets 2",
                           path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "4 edges)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 100 "));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --missing-cost maybe "
                               "--problem scatter --source 0 --targets 2", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--missing-cost"));
    tu_run_free(&r);
    /* the same in GML */
    const char *gml = tu_tmp_path("zoo.gml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(gml, zoo_gml), 0);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from bw --problem scatter --source A "
                               "--targets C", gml), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "missing bw"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from bw --missing-cost skip --problem scatter "
                               "--source A --targets C", gml), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 500 "));
    tu_run_free(&r);
}

static void test_uniform_speed(void)
{
    const char *path = tu_tmp_path("zoo2.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, zoo), 0);
    tu_run_t r;
    /* without speeds a reduce has TP 0, and the note names the option */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --unit-bytes 1e6 "
                               "--missing-cost skip --problem reduce --participants 0,2 "
                               "--target 1", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 0 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--speed S"));
    tu_run_free(&r);
    /* one option away: every node computes a task of 10^6 flops at 10^9
     * flops/s; the target merges two values arriving at 1000 and 100 per
     * second, one message per port at a time: TP = 1/(1/1000 + 1/100) */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --unit-bytes 1e6 "
                               "--missing-cost skip --speed 1e9 --flops-per-task 1e6 "
                               "--problem reduce --participants 0,2 --target 1", path), 0);
    CU_ASSERT_PTR_NULL(strstr(r.out, "TP = 0 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "operations per second"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --missing-cost skip "
                               "--speed 0 --problem reduce --participants 0,2 --target 1", path),
                    2);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from LinkSpeedRaw --missing-cost skip "
                               "--speed 1 --speed-from x --problem reduce --participants 0,2 "
                               "--target 1", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--speed"));
    tu_run_free(&r);
}

/* --names-from label: the Zoo's node labels as names; a repeated label
 * gets its id; a node without one keeps its id; ids still join edges. */
static void test_names_from(void)
{
    const char *path = tu_tmp_path("labels.graphml");
    CU_ASSERT_EQUAL_FATAL(
        tu_write_file(path,
                      "<?xml version=\"1.0\"?>\n"
                      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                      "<key id=\"d0\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n"
                      "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
                      "<graph edgedefault=\"directed\">\n"
                      "<node id=\"0\"><data key=\"d0\">Paris</data></node>\n"
                      "<node id=\"1\"><data key=\"d0\">Lyon</data></node>\n"
                      "<node id=\"2\"><data key=\"d0\">Lyon</data></node>\n"
                      "<node id=\"3\"/>\n"
                      "<edge source=\"0\" target=\"1\"><data key=\"c\">1</data></edge>\n"
                      "<edge source=\"0\" target=\"2\"><data key=\"c\">2</data></edge>\n"
                      "<edge source=\"0\" target=\"3\"><data key=\"c\">4</data></edge>\n"
                      "</graph></graphml>\n"),
        0);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --names-from label --problem scatter --source Paris "
                               "--targets 'Lyon,Lyon (id 2),3' --json", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"throughput\": \"1/7\""));
    tu_run_free(&r);
    /* without the option the ids are the names */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source 0 --targets 1,2,3", path),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/7"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --names-from lable --problem scatter --source 0 "
                               "--targets 1", path), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--names-from lable"));
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {{"--missing-cost", test_missing_cost},
                                      {"--speed", test_uniform_speed},
                                      {"--names-from", test_names_from},
                                      {NULL, NULL}};
    return tu_main("zoo_options", tests);
}
