/* ssched export simgrid: the platform file and hostfile for SMPI. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *s = text; (s = strstr(s, what)); s += strlen(what))
        n++;
    return n;
}

static void test_fig2(void)
{
    const char *xml = tu_tmp_path("fig2.xml"), *hosts = tu_tmp_path("fig2.hosts");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "export simgrid '%s/examples/fig2.graphml' -o '%s' "
                                     "--hostfile '%s' --unit-bytes 3000 --flops-per-task 10",
                                 SSCHED_SOURCE_DIR, xml, hosts), 0);
    tu_run_free(&r);
    char *x = tu_read_file(xml), *h = tu_read_file(hosts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    /* one host per node, one link and one route per directed edge */
    CU_ASSERT_EQUAL(count(x, "<host "), 5);
    CU_ASSERT_EQUAL(count(x, "<link "), 5);
    CU_ASSERT_EQUAL(count(x, "<route "), 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<platform version=\"4.1\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "routing=\"Floyd\""));
    /* Ps -> Pa costs c = 2: bandwidth 3000 / 2; Ps -> Pb costs 2/3: 4500 */
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<link id=\"e0\" bandwidth=\"1500Bps\" latency=\"0s\"/>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<link id=\"e1\" bandwidth=\"4500Bps\" latency=\"0s\"/>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<route src=\"Ps\" dst=\"Pa\" symmetrical=\"NO\">"
                                     "<link_ctn id=\"e0\"/></route>"));
    /* rank i on node i, in the file's node order */
    CU_ASSERT_STRING_EQUAL(h, "Ps\nPa\nPb\nP0\nP1\n");
    free(x);
    free(h);
}

/* Hosts compute at F / w; names are escaped in XML. */
static void test_speeds_and_names(void)
{
    const char *g = tu_tmp_path("amp.graphml");
    CU_ASSERT_FATAL(0 == tu_write_file(g,
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        "<graph edgedefault=\"directed\">\n"
        "<node id=\"a&amp;b\"><data key=\"w\">4</data></node><node id=\"r\"/>\n"
        "<edge source=\"a&amp;b\" target=\"r\"><data key=\"c\">1/4</data></edge>\n"
        "</graph></graphml>\n"));
    const char *xml = tu_tmp_path("amp.xml"), *hosts = tu_tmp_path("amp.hosts");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "export simgrid '%s' -o '%s' --hostfile '%s' "
                                     "--flops-per-task 100", g, xml, hosts), 0);
    tu_run_free(&r);
    char *x = tu_read_file(xml);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<host id=\"a&amp;b\" speed=\"25f\"/>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<host id=\"r\" speed=\"1f\"/>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "bandwidth=\"4000000Bps\""));
    free(x);
}

static void test_bad_inputs(void)
{
    const char *ex = SSCHED_SOURCE_DIR "/examples/fig2.graphml";
    const char *xml = tu_tmp_path("bad.xml"), *hosts = tu_tmp_path("bad.hosts");
    const char *cases[][2] = {
        {"export dot", "simgrid"},
        {"export simgrid %s --hostfile %s", "-o"},
        {"export simgrid %s -o %s", "--hostfile"},
        {"export simgrid %s -o %s --hostfile %s --unit-bytes 0", "--unit-bytes"},
        {"export simgrid %s -o %s --hostfile %s --flops-per-task -1", "--flops-per-task"},
        {"export simgrid %s -o %s --hostfile %s -o %s", "twice"},
        {"export simgrid /nonexistent.graphml -o %s --hostfile %s", "nonexistent"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char cmd[1024];
        if (k == 1)
            snprintf(cmd, sizeof cmd, cases[k][0], ex, hosts);
        else if (k == 2)
            snprintf(cmd, sizeof cmd, cases[k][0], ex, xml);
        else if (k == 5)
            snprintf(cmd, sizeof cmd, cases[k][0], ex, xml, hosts, xml);
        else if (k == 6)
            snprintf(cmd, sizeof cmd, cases[k][0], xml, hosts);
        else
            snprintf(cmd, sizeof cmd, cases[k][0], ex, xml, hosts);
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "%s", cmd), 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        if (!strstr(r.err, cases[k][1]))
            fprintf(stderr, "\n  '%s': '%s'\n", cmd, r.err);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, cases[k][1]));
        tu_run_free(&r);
    }
}

int main(void)
{
    const tu_test_t tests[] = {{"fig2: hosts, links, routes, hostfile", test_fig2},
                               {"speeds F / w and escaped names", test_speeds_and_names},
                               {"bad inputs", test_bad_inputs},
                               {NULL, NULL}};
    return tu_main("export", tests);
}
