/* The GraphML reader against issue 11 items 2 and 3: every construct that
 * used to be read silently wrong is either honoured as GraphML defines it or
 * rejected through the CLI with exit status 2 and exactly one stderr line
 * naming the file, the line and the element. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ssched/platform.h"
#include "ssched/rational.h"
#include "test_util.h"

/* Line 1..5; the first node or edge after HEAD is on line 6. */
#define XMLDECL "<?xml version=\"1.0\"?>\n"
#define GRAPHML "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
#define KEYS(t)                                                                   \
    "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"" t "\"/>\n"          \
    "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"" t "\"/>\n"
#define GRAPH "<graph id=\"G\" edgedefault=\"directed\">\n"
#define HEAD XMLDECL GRAPHML KEYS("string") GRAPH
#define HEADT(t) XMLDECL GRAPHML KEYS(t) GRAPH
#define TAIL "</graph>\n</graphml>\n"
#define E(a, b, c) "<edge source=\"" a "\" target=\"" b "\"><data key=\"c\">" c "</data></edge>\n"
#define N(a) "<node id=\"" a "\"/>\n"
#define NW(a, w) "<node id=\"" a "\"><data key=\"w\">" w "</data></node>\n"
#define SA N("s") N("a")

static const char *write_tmp(const char *name, const char *text)
{
    const char *path = tu_tmp_path(name);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    return path;
}

/* `ssched solve PATH` must exit 2 with one stderr line holding `path`
 * and each non-NULL fragment, and print nothing on stdout. */
static void expect_bad_path(const char *path, const char *frag1, const char *frag2)
{
    tu_run_t r;
    tu_run(&r, "solve '%s' --problem scatter --source s --targets a", path);
    int ok = r.status == 2 && tu_count_lines(r.err) == 1 && strstr(r.err, path) &&
             (!frag1 || strstr(r.err, frag1)) && (!frag2 || strstr(r.err, frag2)) && !r.out[0];
    if (!ok)
        fprintf(stderr, "\n  %s: status %d, stderr: %s  want: [%s] [%s]\n", path, r.status,
                r.err, frag1 ? frag1 : "", frag2 ? frag2 : "");
    CU_ASSERT(ok);
    tu_run_free(&r);
}

/* Write `text` to NAME and expect a rejection mentioning "NAME:LINE:"
 * (when line > 0) and the fragments. */
static void bad(const char *name, const char *text, int line, const char *frag1,
                const char *frag2)
{
    const char *path = write_tmp(name, text);
    char where[600];
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    char copy[600];
    snprintf(copy, sizeof copy, "%s", path);
    if (line > 0) {
        tu_run_t r;
        tu_run(&r, "solve '%s' --problem scatter --source s --targets a", copy);
        if (!strstr(r.err, where))
            fprintf(stderr, "\n  want position '%s', stderr: %s", where, r.err);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, where));
        tu_run_free(&r);
    }
    expect_bad_path(copy, frag1, frag2);
}

/* Load through the library; returns the status and leaves p loaded. */
static ssched_status_t load(const char *name, const char *text, ssched_platform_t *p)
{
    const char *path = write_tmp(name, text);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_platform_init(p);
    ssched_status_t st = ssched_platform_load_graphml(p, path, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  %s: %s\n", name, err.message);
    return st;
}

static size_t node(const ssched_platform_t *p, const char *name)
{
    size_t i = (size_t)-1;
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_platform_find_node(p, name, &i, &err), SSCHED_OK);
    return i;
}

/* ---- item 2: silently wrong reads -------------------------------------- */

static void test_duplicates_and_undeclared(void)
{
    bad("dupnode.graphml", HEAD SA N("s") E("s", "a", "1") TAIL, 8, "node 's'",
        "duplicate node id (first declared on line 6)");
    bad("undeclared_target.graphml", HEAD SA E("s", "a", "1") E("a", "zz", "1") TAIL, 9,
        "edge a->zz", "target 'zz' is not a declared <node>");
    bad("undeclared_source.graphml", HEAD SA E("yy", "a", "1") TAIL, 8, "edge yy->a",
        "source 'yy' is not a declared <node>");
    bad("dupkey.graphml",
        XMLDECL GRAPHML "<key id=\"c\" for=\"node\" attr.name=\"w\"/>\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\"/>\n" GRAPH SA E("s", "a", "1") TAIL, 4,
        "<key id=\"c\">", "duplicate key id (first declared on line 3)");
    bad("twowkeys.graphml",
        XMLDECL GRAPHML KEYS("string") "<key id=\"w2\" for=\"all\" attr.name=\"w\"/>\n" GRAPH SA
        E("s", "a", "1") TAIL, 5, "<key id=\"w2\">", "a second key for node attribute 'w'");
    bad("twodata.graphml",
        HEAD "<node id=\"s\"><data key=\"w\">1</data>\n<data key=\"w\">2</data></node>\n" N("a")
        E("s", "a", "1") TAIL, 7, "node 's'", "a second value for 'w' (first on line 6)");
}

static void test_nan_and_infinity(void)
{
    bad("nanw.graphml", HEADT("double") NW("s", "NaN") N("a") E("s", "a", "1") TAIL, 6,
        "node 's': w:", "'NaN' is not a finite number");
    bad("infc.graphml", HEADT("float") SA E("s", "a", "INF") TAIL, 8, "edge s->a: c:",
        "'INF' is not a finite number");
    bad("nanstring.graphml", HEAD NW("s", "nan") N("a") E("s", "a", "1") TAIL, 6, "node 's': w:",
        "not a number");
}

static void test_unsupported_structure(void)
{
    bad("nested.graphml",
        HEAD "<node id=\"s\">\n<graph id=\"g2\" edgedefault=\"directed\"><node id=\"x\"/></graph>"
        "</node>\n" N("a") E("s", "a", "1") TAIL, 7, "<graph> in node 's'",
        "nested graphs are not supported");
    bad("nested_edge.graphml",
        HEAD SA "<edge source=\"s\" target=\"a\"><data key=\"c\">1</data>\n"
        "<graph edgedefault=\"directed\"/></edge>\n" TAIL, 9, "<graph> in edge s->a",
        "nested graphs");
    bad("twographs.graphml",
        HEAD SA E("s", "a", "1") "</graph>\n<graph id=\"H\" edgedefault=\"directed\">\n" N("b")
        TAIL, 10, "<graph>", "a second graph (first on line 5)");
    bad("hyperedge.graphml",
        HEAD SA "<hyperedge><endpoint node=\"s\"/><endpoint node=\"a\"/></hyperedge>\n"
        E("s", "a", "1") TAIL, 8, "<hyperedge>", "hyperedges are not supported");
    bad("port.graphml", HEAD "<node id=\"s\"><port name=\"p0\"/></node>\n" N("a") E("s", "a", "1") TAIL,
        6, "<port> in node 's'", "ports are not supported");
    bad("edgeport.graphml",
        HEAD SA "<edge source=\"s\" target=\"a\" sourceport=\"p0\"><data key=\"c\">1</data></edge>\n"
        TAIL, 8, "edge s->a", "ports are not supported");
    bad("locator.graphml", HEAD SA "<locator xlink:href=\"x.graphml\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"/>\n" TAIL,
        8, "<locator>", "not supported");
    bad("baddirected.graphml",
        HEAD SA "<edge source=\"s\" target=\"a\" directed=\"maybe\"><data key=\"c\">1</data></edge>\n"
        TAIL, 8, "edge s->a", "directed=\"maybe\"");
    bad("edgedefault.graphml",
        XMLDECL GRAPHML KEYS("string") "<graph edgedefault=\"sideways\">\n" SA TAIL, 5,
        "<graph>", "edgedefault=\"sideways\"");
    bad("unknown.graphml", HEAD SA "<foo/>\n" TAIL, 8, "<foo> in <graph>", "unexpected element");
    bad("entity.graphml",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE graphml [<!ENTITY b \"<node id='b'/>\">]>\n" GRAPHML
        KEYS("string") GRAPH SA "&b;\n" TAIL, 6, "<graph>", "entity reference '&b;'");
    bad("markup.graphml", HEAD "<node id=\"s\"><data key=\"w\"><x>1</x></data></node>\n" N("a") TAIL,
        6, "node 's': w", "found markup");
}

static void test_undirected_edges(void)
{
    /* directed="false" on one edge of a directed graph: the link is usable
     * both ways at the same cost, exactly as an undirected graph's edges. */
    ssched_platform_t p;
    CU_ASSERT_EQUAL_FATAL(load("undirected_edge.graphml",
                               HEAD SA N("b") E("s", "a", "2")
                               "<edge source=\"a\" target=\"b\" directed=\"false\">"
                               "<data key=\"c\">1/3</data></edge>\n" TAIL, &p), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_edges, 3);
    size_t s = node(&p, "s"), a = node(&p, "a"), b = node(&p, "b");
    size_t ab = ssched_platform_edge_index(&p, a, b), ba = ssched_platform_edge_index(&p, b, a);
    CU_ASSERT(ab != (size_t)-1 && ba != (size_t)-1);
    if (ab != (size_t)-1 && ba != (size_t)-1)
        CU_ASSERT(tu_mpq_equals(p.c[ab], "1/3") && tu_mpq_equals(p.c[ba], "1/3"));
    CU_ASSERT(ssched_platform_edge_index(&p, a, s) == (size_t)-1);
    ssched_platform_free(&p);

    /* directed="true" in an undirected graph: one direction only. */
    CU_ASSERT_EQUAL_FATAL(load("directed_in_undirected.graphml",
                               XMLDECL GRAPHML KEYS("string") "<graph edgedefault=\"undirected\">\n"
                               SA N("b") E("s", "a", "2")
                               "<edge source=\"a\" target=\"b\" directed=\"true\">"
                               "<data key=\"c\">1</data></edge>\n" TAIL, &p), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_edges, 3);
    s = node(&p, "s"), a = node(&p, "a"), b = node(&p, "b");
    CU_ASSERT(ssched_platform_edge_index(&p, a, s) != (size_t)-1);
    CU_ASSERT(ssched_platform_edge_index(&p, a, b) != (size_t)-1);
    CU_ASSERT(ssched_platform_edge_index(&p, b, a) == (size_t)-1);
    ssched_platform_free(&p);

    /* an undirected edge doubling a directed one is a parallel edge */
    bad("undirected_parallel.graphml",
        HEAD SA E("a", "s", "1")
        "<edge source=\"s\" target=\"a\" directed=\"false\"><data key=\"c\">1</data></edge>\n" TAIL,
        9, "parallel edges a->s", "also on line 8");
}

static void test_id_attribute_keeps_names(void)
{
    /* Internet Topology Zoo files carry a node data attribute named `id`;
     * node names stay the GraphML node ids. */
    const char *text =
        XMLDECL GRAPHML KEYS("string")
        "<key id=\"d0\" for=\"node\" attr.name=\"id\" attr.type=\"string\"/>\n"
        "<key id=\"d1\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n" GRAPH
        "<node id=\"s\"><data key=\"d0\">0</data><data key=\"d1\">Paris</data></node>\n"
        "<node id=\"a\"><data key=\"d0\">1</data><data key=\"w\">2</data></node>\n"
        E("s", "a", "1") E("a", "s", "1") TAIL;
    ssched_platform_t p;
    CU_ASSERT_EQUAL_FATAL(load("zoo.graphml", text, &p), SSCHED_OK);
    CU_ASSERT_STRING_EQUAL(p.names[0], "s");
    CU_ASSERT_STRING_EQUAL(p.names[1], "a");
    CU_ASSERT(!p.has_w[0] && p.has_w[1] && tu_mpq_equals(p.w[1], "2"));
    ssched_platform_free(&p);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source s --targets a",
                           tu_tmp_path("zoo.graphml")), 0);
    tu_run_free(&r);
}

/* ---- item 3: messages that say what and where -------------------------- */

static void test_missing_attributes(void)
{
    bad("noid.graphml", HEAD SA "<node/>\n" E("s", "a", "1") TAIL, 8, "<node>",
        "missing attribute 'id'");
    bad("nosource.graphml", HEAD SA "<edge target=\"a\"><data key=\"c\">1</data></edge>\n" TAIL, 8,
        "<edge>", "missing attribute 'source'");
    bad("notarget.graphml", HEAD SA "<edge source=\"s\"><data key=\"c\">1</data></edge>\n" TAIL, 8,
        "<edge>", "missing attribute 'target'");
    bad("nokeyid.graphml", XMLDECL GRAPHML "<key for=\"edge\" attr.name=\"c\"/>\n" GRAPH SA TAIL, 3,
        "<key>", "missing attribute 'id'");
    bad("nodatakey.graphml", HEAD "<node id=\"s\"><data>1</data></node>\n" N("a") TAIL, 6,
        "<data> in node 's'", "missing attribute 'key'");
    bad("undeclared_key.graphml", HEAD "<node id=\"s\"><data key=\"zz\">1</data></node>\n" N("a") TAIL,
        6, "<data key=\"zz\"> in node 's'", "no <key id=\"zz\"> is declared");
    bad("wrong_domain.graphml", HEAD "<node id=\"s\"><data key=\"c\">1</data></node>\n" N("a") TAIL,
        6, "<data key=\"c\"> in node 's'", "not declared for node elements");
    bad("emptyw.graphml", HEAD NW("s", "") N("a") E("s", "a", "1") TAIL, 6, "node 's': w:",
        "empty value");
    bad("boolkey.graphml",
        XMLDECL GRAPHML "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"boolean\"/>\n" GRAPH
        SA TAIL, 3, "<key id=\"c\">", "boolean");
    bad("badtype.graphml",
        XMLDECL GRAPHML "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"decimal\"/>\n" GRAPH
        SA TAIL, 3, "<key id=\"c\">", "attr.type=\"decimal\" is not a GraphML type");
    bad("baddefault.graphml",
        XMLDECL GRAPHML "<key id=\"c\" for=\"edge\" attr.name=\"c\"><default>x</default></key>\n"
        GRAPH SA "<edge source=\"s\" target=\"a\"/>\n" TAIL, 3, "edge s->a: c (<default>)",
        "'x' is not a number");
}

static void test_typed_values(void)
{
    bad("int_third.graphml", HEADT("int") SA E("s", "a", "1/3") TAIL, 8, "edge s->a: c:",
        "'1/3' is not an int");
    bad("long_decimal.graphml", HEADT("long") NW("s", "2.5") N("a") E("s", "a", "1") TAIL, 6,
        "node 's': w:", "'2.5' is not a long");
    bad("double_fraction.graphml", HEADT("double") SA E("s", "a", "1/3") TAIL, 8, "edge s->a: c:",
        "'1/3' is not a double");

    /* 1e-320 is below the smallest normal double: it is read exactly as
     * the rational 1/10^320, never through strtod. */
    ssched_platform_t p;
    CU_ASSERT_EQUAL_FATAL(load("tiny.graphml",
                               HEADT("double") NW("s", "  1e-320\n") N("a")
                               E("s", "a", "1e-320") E("a", "s", "2.5E+3") TAIL, &p), SSCHED_OK);
    mpq_t want;
    mpq_init(want);
    mpz_ui_pow_ui(mpq_denref(want), 10, 320);
    mpz_set_ui(mpq_numref(want), 1);
    CU_ASSERT(mpq_equal(p.c[0], want));
    CU_ASSERT(p.has_w[0] && mpq_equal(p.w[0], want));
    CU_ASSERT(tu_mpq_equals(p.c[1], "2500"));
    mpq_clear(want);
    ssched_platform_free(&p);

    CU_ASSERT_EQUAL_FATAL(load("ints.graphml", HEADT("int") NW("s", "+7") N("a") E("s", "a", "3")
                               TAIL, &p), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(p.w[0], "7") && tu_mpq_equals(p.c[0], "3"));
    ssched_platform_free(&p);

    /* a key's <default> applies to every element without a <data> */
    CU_ASSERT_EQUAL_FATAL(load("default.graphml",
                               XMLDECL GRAPHML
                               "<key id=\"k\" for=\"edge\" attr.name=\"c\"><default>5/2</default></key>\n"
                               GRAPH SA "<edge source=\"s\" target=\"a\"/>\n"
                               "<edge source=\"a\" target=\"s\"><data key=\"k\">1</data></edge>\n"
                               TAIL, &p), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(p.c[0], "5/2") && tu_mpq_equals(p.c[1], "1"));
    ssched_platform_free(&p);
}

static void test_documents(void)
{
    bad("nograph.graphml", XMLDECL GRAPHML KEYS("string") "</graphml>\n", 2, "<graphml>",
        "no <graph> element");
    bad("wrongns.graphml",
        XMLDECL "<graphml xmlns=\"http://example.com/graphml\">\n" KEYS("string") GRAPH SA TAIL, 2,
        "<graphml>", "namespace is 'http://example.com/graphml'");
    bad("nons.graphml", XMLDECL "<graphml>\n" KEYS("string") GRAPH SA TAIL, 2, "<graphml>",
        "namespace is missing");
    bad("svg.graphml", XMLDECL "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", 2, "<svg>",
        "root element must be <graphml>");
    bad("gml.graphml", "graph [\n  directed 1\n  node [ id 0 ]\n]\n", 1, "not an XML document",
        "GraphML or GML");
    bad("dot.graphml", "\n\ndigraph G { s -> a; }\n", 3, "'digraph G { s -> a; }'", "GraphML");
    bad("blank.graphml", "  \n\n", 0, "empty file", NULL);
    bad("truncated.graphml", HEAD SA, 8, "malformed XML", NULL);

    const char *dir = tu_tmp_path("adir.graphml");
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    expect_bad_path(dir, "is a directory", NULL);
}

static void test_accepted_layouts(void)
{
    /* edges before their endpoints, <desc>, comments, graphml-level and
     * graph-level data: all valid GraphML */
    const char *text =
        XMLDECL GRAPHML "<desc>test</desc>\n" KEYS("string")
        "<key id=\"g\" for=\"graph\" attr.name=\"name\"/>\n"
        "<key id=\"top\" for=\"graphml\" attr.name=\"author\"/>\n"
        "<data key=\"top\">me</data>\n" GRAPH "<data key=\"g\">chain</data>\n"
        "<!-- edges first -->\n" E("s", "a", "1") "<node id=\"s\"><desc>source</desc></node>\n" N("a")
        TAIL;
    ssched_platform_t p;
    CU_ASSERT_EQUAL_FATAL(load("layout.graphml", text, &p), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 2);
    CU_ASSERT_EQUAL(p.n_edges, 1);
    ssched_platform_free(&p);

    /* PLATFORM "-" reads stdin; errors then name <stdin> */
    const char *path = write_tmp("stdin.graphml", HEAD SA E("s", "a", "1") TAIL);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve - --problem scatter --source s --targets a < '%s'", path), 0);
    tu_run_free(&r);
    path = write_tmp("stdin_bad.graphml", HEAD SA N("s") TAIL);
    CU_ASSERT_EQUAL(tu_run(&r, "solve - --problem scatter --source s --targets a < '%s'", path), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "<stdin>:8: node 's': duplicate node id"));
    tu_run_free(&r);

    /* the library accepts a NULL error record */
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL(ssched_platform_load_graphml(&p, path, NULL), SSCHED_EINPUT);
    ssched_platform_free(&p);
}

static void test_line_numbers_beyond_65535(void)
{
    /* libxml2 keeps 16-bit line numbers unless asked for more */
    const char *path = tu_tmp_path("biglines.graphml");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(HEAD, f);
    for (int i = 0; i < 70000; i++)
        fprintf(f, "<node id=\"n%d\"/>\n", i);
    fputs("<node id=\"n5\"/>\n" TAIL, f);
    fclose(f);
    char copy[600];
    snprintf(copy, sizeof copy, "%s", path);
    tu_run_t r;
    tu_run(&r, "solve '%s' --problem scatter --source n0 --targets n1", copy);
    CU_ASSERT_EQUAL(r.status, 2);
    char want[700];
    snprintf(want, sizeof want, "%s:70006: node 'n5': duplicate node id (first declared on line 11)",
             copy);
    if (!strstr(r.err, want))
        fprintf(stderr, "\n  stderr: %s", r.err);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"duplicates and undeclared nodes", test_duplicates_and_undeclared},
        {"NaN and infinity", test_nan_and_infinity},
        {"unsupported structure", test_unsupported_structure},
        {"undirected edges", test_undirected_edges},
        {"id attribute keeps node names", test_id_attribute_keeps_names},
        {"missing attributes", test_missing_attributes},
        {"typed values, exact", test_typed_values},
        {"documents that are not GraphML", test_documents},
        {"accepted layouts and stdin", test_accepted_layouts},
        {"line numbers beyond 65535", test_line_numbers_beyond_65535},
        {NULL, NULL}};
    return tu_main("graphml_errors", tests);
}
