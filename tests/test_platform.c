/* Platform loading, and every bad input of issue #2 item 3 through the CLI:
 * exit status 2, exactly one line on stderr naming the file and element. */
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "ssched/rational.h"
#include "test_util.h"

#define HEAD                                                                       \
    "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n" \
    "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"          \
    "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"          \
    "<graph id=\"G\" edgedefault=\"directed\">\n"
#define TAIL "</graph>\n</graphml>\n"
#define E(a, b, c) "<edge source=\"" a "\" target=\"" b "\"><data key=\"c\">" c "</data></edge>\n"
#define N(a) "<node id=\"" a "\"/>\n"
#define NW(a, w) "<node id=\"" a "\"><data key=\"w\">" w "</data></node>\n"

static const char *write_tmp(const char *name, const char *text)
{
    const char *path = tu_tmp_path(name);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    return path;
}

static void test_load_exact_values(void)
{
    const char *path = write_tmp("ok.graphml", HEAD NW("s", "1/3") N("a") NW("b", "2.5e-3")
                                 E("s", "a", "0.125") E("a", "b", "3") E("b", "s", "1/3") TAIL);
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, path, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 3);
    CU_ASSERT_EQUAL(p.n_edges, 3);
    CU_ASSERT_STRING_EQUAL(p.names[0], "s");
    CU_ASSERT(p.has_w[0] && tu_mpq_equals(p.w[0], "1/3"));
    CU_ASSERT(!p.has_w[1]);
    CU_ASSERT(tu_mpq_equals(p.w[2], "1/400"));
    size_t e = ssched_platform_edge_index(&p, 0, 1);
    CU_ASSERT(e != (size_t)-1 && tu_mpq_equals(p.c[e], "1/8"));
    CU_ASSERT(ssched_platform_edge_index(&p, 1, 0) == (size_t)-1);
    unsigned char reach[3];
    CU_ASSERT_EQUAL(ssched_platform_reachable(&p, 1, 0, reach, &err), SSCHED_OK);
    CU_ASSERT(reach[0] && reach[1] && reach[2]);
    ssched_platform_free(&p);
}

static void test_load_numeric_attributes(void)
{
    /* Numeric GraphML attributes are the exact rational their lexical text
     * denotes (never rounded through a double). */
    const char *path = write_tmp("num.graphml",
        "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"double\"/>\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"double\"/>\n"
        "<graph id=\"G\" edgedefault=\"directed\">\n"
        "<node id=\"x\"><data key=\"w\">0.1</data></node><node id=\"y\"/>\n"
        "<edge source=\"x\" target=\"y\"><data key=\"c\">0.3333333333333333</data></edge>\n"
        TAIL);
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, path, &err), SSCHED_OK);
    CU_ASSERT(p.has_w[0] && tu_mpq_equals(p.w[0], "1/10"));
    CU_ASSERT(!p.has_w[1]);
    CU_ASSERT(tu_mpq_equals(p.c[0], "3333333333333333/10000000000000000"));
    ssched_platform_free(&p);
}

static void test_write_roundtrip(void)
{
    const char *path = write_tmp("rt.graphml", HEAD NW("a&amp;b", "7/3") N("c") E("a&amp;b", "c", "5/7")
                                 E("c", "a&amp;b", "1e-7") TAIL);
    ssched_platform_t p, q;
    ssched_platform_init(&p);
    ssched_platform_init(&q);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, path, &err), SSCHED_OK);
    CU_ASSERT_STRING_EQUAL(p.names[0], "a&b");
    const char *out = tu_tmp_path("rt2.graphml");
    FILE *f = fopen(out, "w");
    CU_ASSERT_EQUAL(ssched_write_platform_graphml(f, &p, &err), SSCHED_OK);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&q, out, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(q.n_nodes, p.n_nodes);
    CU_ASSERT_EQUAL(q.n_edges, p.n_edges);
    for (size_t e = 0; e < p.n_edges; e++) {
        CU_ASSERT(mpq_equal(p.c[e], q.c[e]));
        CU_ASSERT_EQUAL(p.from[e], q.from[e]);
    }
    CU_ASSERT(mpq_equal(p.w[0], q.w[0]));
    ssched_platform_free(&p);
    ssched_platform_free(&q);
}

/* Run `ssched solve` on a bad input; require status 2, one stderr line
 * containing every given fragment, and nothing on stdout. */
static void expect_bad(const char *args, const char *frag1, const char *frag2)
{
    tu_run_t r;
    tu_run(&r, "solve %s", args);
    if (r.status != 2 || tu_count_lines(r.err) != 1 || (frag1 && !strstr(r.err, frag1)) ||
        (frag2 && !strstr(r.err, frag2)) || r.out[0])
        fprintf(stderr, "\n  args: %s\n  status %d, stderr: %s  stdout: %.200s\n", args,
                r.status, r.err, r.out);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    if (frag1)
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, frag1));
    if (frag2)
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, frag2));
    CU_ASSERT_STRING_EQUAL(r.out, "");
    tu_run_free(&r);
}

static void bad_file(const char *name, const char *text, const char *frag)
{
    const char *path = write_tmp(name, text);
    char args[1024];
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a", path);
    expect_bad(args, name, frag);
}

static void test_bad_files(void)
{
    expect_bad("/nonexistent/p.graphml --problem scatter --source s --targets a",
               "/nonexistent/p.graphml", "cannot open");
    bad_file("empty.graphml", "", "empty file");
    bad_file("garbage.graphml", "this is not xml <<<", "not an XML document");
    bad_file("truncated.graphml", HEAD N("s") N("a"), "malformed");
    bad_file("nonodes.graphml", HEAD TAIL, "no nodes");
    bad_file("nockey.graphml",
             "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
             "<graph id=\"G\" edgedefault=\"directed\">\n" N("s") N("a")
             "<edge source=\"s\" target=\"a\"/>\n" TAIL, "no edge attribute 'c'");
    bad_file("missingc.graphml", HEAD N("s") N("a") E("s", "a", "1")
             "<edge source=\"a\" target=\"s\"/>\n" TAIL, "edge a->s: missing c");
    bad_file("czero.graphml", HEAD N("s") N("a") E("s", "a", "0") TAIL, "edge s->a: c must be positive");
    bad_file("cneg.graphml", HEAD N("s") N("a") E("s", "a", "-1/2") TAIL, "edge s->a: c must be positive");
    bad_file("wzero.graphml", HEAD NW("s", "0") N("a") E("s", "a", "1") TAIL, "node 's': w must be positive");
    bad_file("wneg.graphml", HEAD N("s") NW("a", "-3") E("s", "a", "1") TAIL, "node 'a': w must be positive");
    bad_file("cbad.graphml", HEAD N("s") N("a") E("s", "a", "fast") TAIL, "edge s->a: c: 'fast' is not a number");
    bad_file("wbad.graphml", HEAD NW("s", "1..2") N("a") E("s", "a", "1") TAIL, "node 's': w:");
    bad_file("zeroden.graphml", HEAD N("s") N("a") E("s", "a", "3/0") TAIL, "zero denominator");
    bad_file("loop.graphml", HEAD N("s") N("a") E("s", "a", "1") E("a", "a", "1") TAIL, "self-loop");
    bad_file("parallel.graphml", HEAD N("s") N("a") E("s", "a", "1") E("s", "a", "2") TAIL,
             "parallel edges s->a");
}

static void test_bad_options(void)
{
    const char *path = write_tmp("good.graphml", HEAD N("s") N("a") N("b") E("s", "a", "1")
                                 E("s", "b", "1") E("a", "b", "1") TAIL);
    char args[1024];
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a,zz", path);
    expect_bad(args, "--targets", "unknown node 'zz'");
    snprintf(args, sizeof args, "'%s' --problem scatter --source q --targets a", path);
    expect_bad(args, "--source", "unknown node 'q'");
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a,b,a", path);
    expect_bad(args, "--targets", "listed twice");
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a,s", path);
    expect_bad(args, "source 's'", "among its own targets");
    snprintf(args, sizeof args, "'%s' --problem gossip --sources s,s --targets a", path);
    expect_bad(args, "--sources", "listed twice");
    snprintf(args, sizeof args, "'%s' --problem gossip --sources a --targets a", path);
    expect_bad(args, "no (source, target) pair", NULL);
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a,,b", path);
    expect_bad(args, "empty item", NULL);
    snprintf(args, sizeof args, "'%s' --problem allgather --source s --targets a", path);
    expect_bad(args, "unknown problem 'allgather'", NULL);
    snprintf(args, sizeof args, "'%s' --problem scatter --targets a", path);
    expect_bad(args, "missing --source", NULL);
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a --size 0", path);
    expect_bad(args, "size", "positive");
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a --size x", path);
    expect_bad(args, "--size", "not a number");
    snprintf(args, sizeof args, "'%s' --problem scatter --source s --targets a --bogus", path);
    expect_bad(args, "--bogus", NULL);
    expect_bad("--problem scatter --source s --targets a", "missing PLATFORM", NULL);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "frobnicate"), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"load exact values", test_load_exact_values},
        {"numeric attributes", test_load_numeric_attributes},
        {"write/load round trip", test_write_roundtrip},
        {"bad platform files", test_bad_files},
        {"bad problem options", test_bad_options},
        {NULL, NULL}};
    return tu_main("platform", tests);
}
