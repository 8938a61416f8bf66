/* Latencies on platforms (docs/model.md, "Latency"): edge attribute `l`
 * in GraphML and GML (exact, >= 0, absent = 0, the same both ways on an
 * undirected edge), --latency-from ATTR in seconds with --cost-from, the
 * GraphML writer's `l`, and the GML reader's messages (file and line, the
 * reason kept).  The steady state does not change with latencies: solve's
 * certified TP on tiers-small is the same with l on every edge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

static size_t node(const ssched_platform_t *p, const char *name)
{
    size_t i = (size_t)-1;
    CU_ASSERT_EQUAL(ssched_platform_find_node(p, name, &i, NULL), SSCHED_OK);
    return i;
}

/* Latency of a -> b is `l` (and the edge exists). */
static void expect_l(const ssched_platform_t *p, const char *a, const char *b, const char *l)
{
    size_t e = ssched_platform_edge_index(p, node(p, a), node(p, b));
    CU_ASSERT_FATAL(e != (size_t)-1);
    if (!tu_mpq_equals(p->l[e], l)) {
        char *s = ssched_rational_to_string(p->l[e]);
        fprintf(stderr, "\n  l(%s->%s) = %s, want %s\n", a, b, s, l);
        free(s);
    }
    CU_ASSERT(tu_mpq_equals(p->l[e], l));
}

static int load(ssched_platform_t *p, const char *path, const ssched_platform_read_options_t *o,
                ssched_error_t *err)
{
    ssched_platform_init(p);
    ssched_error_clear(err);
    return ssched_platform_load(p, path, o, err);
}

static void test_graphml_l(void)
{
    const char *path = tu_tmp_path("lat.graphml");
    CU_ASSERT_EQUAL_FATAL(
        tu_write_file(path,
                      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                      " <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
                      " <key id=\"lat\" for=\"edge\" attr.name=\"l\" attr.type=\"double\">"
                      "<default>1e-30</default></key>\n"
                      " <graph edgedefault=\"directed\">\n"
                      "  <node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>\n"
                      "  <edge source=\"a\" target=\"b\"><data key=\"c\">2</data>"
                      "<data key=\"lat\">0.1</data></edge>\n"
                      "  <edge source=\"b\" target=\"c\" directed=\"false\"><data key=\"c\">1"
                      "</data><data key=\"lat\">2.5e-6</data></edge>\n"
                      "  <edge source=\"c\" target=\"a\"><data key=\"c\">1</data></edge>\n"
                      " </graph>\n</graphml>\n"),
        0);
    ssched_platform_t p;
    ssched_error_t err;
    int st = load(&p, path, NULL, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    expect_l(&p, "a", "b", "1/10");
    expect_l(&p, "b", "c", "1/400000");
    expect_l(&p, "c", "b", "1/400000"); /* undirected: both ways */
    expect_l(&p, "c", "a", "1/1000000000000000000000000000000"); /* the <default>, exact */
    CU_ASSERT(ssched_platform_has_latency(&p));
    /* written and read back exactly; a platform without latencies is
     * written without the key */
    const char *back = tu_tmp_path("back.graphml");
    FILE *f = fopen(back, "w");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(ssched_write_platform_graphml(f, &p, NULL), SSCHED_OK);
    fclose(f);
    ssched_platform_t q;
    CU_ASSERT_EQUAL_FATAL(load(&q, back, NULL, &err), SSCHED_OK);
    for (size_t e = 0; e < p.n_edges; e++) {
        size_t k = ssched_platform_edge_index(&q, node(&q, p.names[p.from[e]]),
                                              node(&q, p.names[p.to[e]]));
        CU_ASSERT_FATAL(k != (size_t)-1);
        CU_ASSERT(mpq_equal(p.l[e], q.l[k]));
        CU_ASSERT(mpq_equal(p.c[e], q.c[k]));
    }
    ssched_platform_free(&q);
    mpq_t z;
    mpq_init(z);
    for (size_t e = 0; e < p.n_edges; e++)
        ssched_platform_set_latency(&p, e, z, NULL);
    mpq_clear(z);
    f = fopen(back, "w");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(ssched_write_platform_graphml(f, &p, NULL), SSCHED_OK);
    fclose(f);
    char *text = tu_read_file(back);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NULL(strstr(text, "key=\"l\""));
    CU_ASSERT_PTR_NULL(strstr(text, "id=\"l\""));
    free(text);
    ssched_platform_free(&p);
}

/* GML: l exact (quoted or bare), undirected links both ways, parallel
 * links keep the kept link's latency; --latency-from in seconds. */
static void test_gml_l_and_latency_from(void)
{
    const char *path = tu_tmp_path("lat.gml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, "graph [\n"
                                              "  node [ id 0 label \"x\" speed 2 ]\n"
                                              "  node [ id 1 label \"y\" speed 4 ]\n"
                                              "  node [ id 2 label \"z\" ]\n"
                                              "  edge [ source 0 target 1 c 1 l \"1/3\" bw 100 "
                                              "lat 0.002 ]\n"
                                              "  edge [ source 0 target 1 c 2 l 0 bw 50 lat 0 ]\n"
                                              "  edge [ source 1 target 2 c 1 bw 8 ]\n"
                                              "]\n"),
                          0);
    ssched_platform_t p;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load(&p, path, NULL, &err), SSCHED_OK);
    expect_l(&p, "x", "y", "1/3"); /* c = 1 is kept, with its l */
    expect_l(&p, "y", "x", "1/3");
    expect_l(&p, "y", "z", "0");
    ssched_platform_free(&p);
    /* seconds with bandwidths: c = 1000 / bw seconds, l = lat seconds */
    ssched_platform_read_options_t o;
    ssched_platform_read_options_default(&o);
    mpq_t bytes;
    mpq_init(bytes);
    mpq_set_ui(bytes, 1000, 1);
    o.cost_from = "bw";
    o.unit_bytes = bytes;
    o.latency_from = "lat";
    o.speed_from = "speed";
    int st = load(&p, path, &o, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    expect_l(&p, "x", "y", "1/500"); /* bw 100 is kept (the faster link) */
    expect_l(&p, "y", "z", "0");     /* no lat: 0 */
    CU_ASSERT(tu_mpq_equals(p.c[ssched_platform_edge_index(&p, node(&p, "x"), node(&p, "y"))],
                            "10"));
    ssched_platform_free(&p);
    /* without --cost-from: refused, naming the option */
    o.cost_from = NULL;
    o.unit_bytes = NULL;
    CU_ASSERT_EQUAL(load(&p, path, &o, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--latency-from lat"));
    ssched_platform_free(&p);
    mpq_clear(bytes);
}

/* --speed-from and --latency-from name attributes that must exist on the
 * right items; a misspelled one is an error, not TP = 0. */
static void test_attribute_checks(void)
{
    const char *gml = tu_tmp_path("speeds.gml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(gml, "graph [\n"
                                             "  node [ id 0 label \"s\" ]\n"
                                             "  node [ id 1 label \"a\" speed 4 ]\n"
                                             "  edge [ source 0 target 1 bw 10 lat 0.5 ]\n"
                                             "]\n"),
                          0);
    const char *xml = tu_tmp_path("speeds.graphml");
    CU_ASSERT_EQUAL_FATAL(
        tu_write_file(xml, "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                           " <key id=\"sp\" for=\"node\" attr.name=\"speed\" attr.type=\"double\"/>\n"
                           " <key id=\"bw\" for=\"edge\" attr.name=\"bw\" attr.type=\"double\"/>\n"
                           " <key id=\"lat\" for=\"edge\" attr.name=\"lat\" attr.type=\"double\"/>\n"
                           " <key id=\"u\" for=\"node\" attr.name=\"unused\" attr.type=\"double\"/>\n"
                           " <graph edgedefault=\"undirected\">\n"
                           "  <node id=\"s\"/><node id=\"a\"><data key=\"sp\">4</data></node>\n"
                           "  <edge source=\"s\" target=\"a\"><data key=\"bw\">10</data></edge>\n"
                           " </graph>\n</graphml>\n"),
        0);
    static const struct {
        const char *speed, *latency, *want;
    } cases[] = {
        {"speedx", NULL, "--speed-from speedx"},     /* misspelled */
        {"bw", NULL, "not a node attribute"},          /* an edge attribute */
        {"lat", NULL, "not a node attribute"},
        {NULL, "speed", "not an edge attribute"},      /* a node attribute */
        {NULL, "latx", "--latency-from latx"},
    };
    const char *paths[2] = {gml, xml};
    ssched_platform_read_options_t o;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    for (size_t f = 0; f < 2; f++)
        for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
            ssched_platform_read_options_default(&o);
            o.cost_from = "bw";
            o.unit_bytes = one;
            o.speed_from = cases[k].speed;
            o.latency_from = cases[k].latency;
            ssched_platform_t p;
            ssched_error_t err;
            int st = load(&p, paths[f], &o, &err);
            if (st != SSCHED_EINPUT || !strstr(err.message, cases[k].want) ||
                !strstr(err.message, paths[f]))
                fprintf(stderr, "\n  %s: %s\n", paths[f], err.message);
            CU_ASSERT_EQUAL(st, SSCHED_EINPUT);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].want));
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, paths[f]));
            ssched_platform_free(&p);
        }
    /* GraphML: a node key that no node uses */
    ssched_platform_read_options_default(&o);
    o.cost_from = "bw";
    o.speed_from = "unused";
    ssched_platform_t p;
    ssched_error_t err;
    CU_ASSERT_EQUAL(load(&p, xml, &o, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no node has a value for attribute 'unused'"));
    ssched_platform_free(&p);
    /* and the right ones load */
    ssched_platform_read_options_default(&o);
    o.cost_from = "bw";
    o.unit_bytes = one;
    o.speed_from = "speed";
    o.latency_from = "lat";
    for (size_t f = 0; f < 2; f++) {
        CU_ASSERT_EQUAL(load(&p, paths[f], &o, &err), SSCHED_OK);
        CU_ASSERT(p.has_w[node(&p, "a")] && !p.has_w[node(&p, "s")]);
        ssched_platform_free(&p);
    }
    mpq_clear(one);
}

/* GML messages: the reason of a bad value is kept (it was formatted over
 * itself), collisions and ports name the file and the line. */
static void test_gml_messages(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"graph [\n directed 1\n node [ id 0 label \"s\" ]\n node [ id 1 label \"a\" w \"fast\" ]\n"
         " edge [ source 0 target 1 c 1 ]\n]\n",
         ":4: node 'a': w: 'fast' is not a number"},
        {"graph [\n directed 1\n node [ id 0 label \"s\" ]\n node [ id 1 label \"a\" ]\n"
         " edge [ source 0 target 1 c \"1/0\" ]\n]\n",
         ":5: edge s->a: c: zero denominator"},
        {"graph [\n node [ id 0 label \"s\" ports 2 ]\n node [ id 1 label \"a\" ]\n"
         " edge [ source 0 target 1 c 1 ]\n]\n",
         ":2: node 's': ports must be the string"},
        {"graph [\n node [ id 0 label \"a (id 2)\" ]\n node [ id 1 label \"a\" ]\n"
         " node [ id 2 label \"a\" ]\n edge [ source 0 target 1 c 1 ]\n]\n",
         ":4: node 'a': its name and 'a (id 2)' are both taken"},
        {"graph [\n node [ id 0 label \"s\" ]\n node [ id 1 label \"a\" ]\n"
         " edge [ source 0 target 1 c 1 ]\n edge [ source 1 target 0 c 1 l -2 ]\n]\n",
         ":5: edge a--s: l (a latency) must not be negative"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *path = tu_tmp_path("msg.gml");
        CU_ASSERT_EQUAL_FATAL(tu_write_file(path, cases[k].text), 0);
        ssched_platform_t p;
        ssched_error_t err;
        CU_ASSERT_EQUAL(load(&p, path, NULL, &err), SSCHED_EINPUT);
        if (!strstr(err.message, cases[k].want) || strncmp(err.message, path, strlen(path)))
            fprintf(stderr, "\n  case %zu: %s\n", k, err.message);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].want));
        CU_ASSERT_EQUAL(strncmp(err.message, path, strlen(path)), 0);
        ssched_platform_free(&p);
    }
}

/* Item 6 of the latency work: latencies leave the steady state alone. */
static void test_tp_unchanged(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/tiers-small.graphml", SSCHED_SOURCE_DIR);
    for (size_t k = 0; k < 3; k++) {
        mpq_t tp[2];
        for (int with = 0; with < 2; with++) {
            ssched_platform_t p;
            ssched_error_t err;
            CU_ASSERT_EQUAL_FATAL(load(&p, path, NULL, &err), SSCHED_OK);
            if (with) { /* every edge: 1/1000 + e/10^6 */
                mpq_t l;
                mpq_init(l);
                for (size_t e = 0; e < p.n_edges; e++) {
                    mpq_set_ui(l, 1000 + (unsigned long)e, 1000000);
                    mpq_canonicalize(l);
                    CU_ASSERT_EQUAL(ssched_platform_set_latency(&p, e, l, NULL), SSCHED_OK);
                }
                mpq_clear(l);
                CU_ASSERT(ssched_platform_has_latency(&p));
            }
            char hosts[4096];
            tu_host_list(&p, 4, 1, 0, hosts, sizeof hosts);
            char *rest = strchr(hosts, ',');
            CU_ASSERT_FATAL(rest != NULL);
            *rest++ = '\0';
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            ssched_status_t st =
                k == 0   ? ssched_problem_set_scatter(&pb, &p, hosts, rest, &err)
                : k == 1 ? ssched_problem_set_broadcast(&pb, &p, hosts, NULL, &err)
                         : ssched_problem_set_reduce(&pb, &p, rest, hosts, &err);
            CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
            ssched_steady_t s;
            ssched_steady_init(&s);
            CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, &err), SSCHED_OK);
            mpq_init(tp[with]);
            mpq_set(tp[with], s.throughput);
            ssched_steady_free(&s);
            ssched_problem_free(&pb);
            ssched_platform_free(&p);
        }
        CU_ASSERT(mpq_sgn(tp[0]) > 0);
        CU_ASSERT(mpq_equal(tp[0], tp[1]));
        mpq_clears(tp[0], tp[1], NULL);
    }
    /* the CLI too: the same TP line */
    tu_run_t a, b;
    const char *lat = tu_tmp_path("tiers-lat.graphml");
    CU_ASSERT_EQUAL_FATAL(
        tu_sh(&a, "sed 's|<data key=\"c\">\\([^<]*\\)</data>|<data key=\"c\">\\1</data><data "
                  "key=\"l\">1/100</data>|; s|<graph |<key id=\"l\" for=\"edge\" attr.name=\"l\" "
                  "attr.type=\"string\"/><graph |' '%s' > '%s'",
              path, lat),
        0);
    tu_run_free(&a);
    CU_ASSERT_EQUAL(tu_run(&a, "solve '%s' --problem broadcast --source h0_0_0_0", path), 0);
    CU_ASSERT_EQUAL(tu_run(&b, "solve '%s' --problem broadcast --source h0_0_0_0", lat), 0);
    const char *ta = a.out ? strstr(a.out, "throughput TP") : NULL;
    const char *tb = b.out ? strstr(b.out, "throughput TP") : NULL;
    CU_ASSERT_FATAL(ta && tb);
    CU_ASSERT_EQUAL(strcspn(ta, "\n"), strcspn(tb, "\n"));
    CU_ASSERT_EQUAL(strncmp(ta, tb, strcspn(ta, "\n")), 0);
    tu_run_free(&a);
    tu_run_free(&b);
    ssched_platform_t p;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load(&p, lat, NULL, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(p.l[0], "1/100"));
    ssched_platform_free(&p);
    /* the periodic schedule carries the latencies and checks as before */
    const char *sched = tu_tmp_path("periodic-lat.json");
    CU_ASSERT_EQUAL(tu_run(&a, "schedule '%s' --problem broadcast --source h0_0_0_0 --json -o '%s'",
                           lat, sched),
                    0);
    tu_run_free(&a);
    char *text = tu_read_file(sched);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"l\": \"1/100\""));
    free(text);
    CU_ASSERT_EQUAL(tu_run(&a, "check '%s'", sched), 0);
    CU_ASSERT_PTR_NOT_NULL(a.out && strstr(a.out, "valid periodic schedule"));
    tu_run_free(&a);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"graphml l: exact, both ways, default, written back", test_graphml_l},
        {"gml l, parallel links, --latency-from seconds", test_gml_l_and_latency_from},
        {"--speed-from / --latency-from attributes checked", test_attribute_checks},
        {"gml messages: file, line, reason", test_gml_messages},
        {"solve's TP unchanged by latencies (tiers-small)", test_tp_unchanged},
        {NULL, NULL}};
    return tu_main("platform latency", tests);
}
