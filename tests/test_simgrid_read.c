/* SimGrid platform files in (issue 23 item 1): the shipped example
 * platforms read through libsimgrid, exact numbers, SimGrid's errors as one
 * line and exit 2, and the export's round trip (issue 23 item 5, issue 24
 * item 2). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "test_util.h"

static ssched_status_t load(ssched_platform_t *p, const char *path, const char *unit,
                            ssched_error_t *err)
{
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    mpq_t u;
    mpq_init(u);
    if (unit) {
        mpq_set_str(u, unit, 10);
        ro.unit_bytes = u;
    }
    ssched_platform_init(p);
    ssched_status_t st = ssched_platform_load(p, path, &ro, err);
    mpq_clear(u);
    return st;
}

static size_t node(const ssched_platform_t *p, const char *name)
{
    size_t i = 0;
    CU_ASSERT_FATAL(ssched_platform_find_node(p, name, &i, NULL) == SSCHED_OK);
    return i;
}

/* The names of edge e's route, joined by spaces. */
static void route_text(const ssched_platform_t *p, size_t e, char *out, size_t cap)
{
    const ssched_routes_t *r = p->routes;
    out[0] = '\0';
    for (size_t a = r->route_start[e]; a < r->route_start[e + 1]; a++) {
        if (a > r->route_start[e])
            strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, r->link_names[r->route_links[a]], cap - strlen(out) - 1);
    }
}

static void test_small_platform(void)
{
    ssched_platform_t p;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load(&p, SSCHED_DATA_DIR "/simgrid/small_platform.xml", "1000000",
                               &err), SSCHED_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p.routes);
    CU_ASSERT(p.seconds);
    CU_ASSERT_EQUAL(p.n_nodes, 7);
    CU_ASSERT_EQUAL(p.n_edges, 42); /* Full routing: every ordered pair */
    /* SimGrid's host order (by name in 3.32) */
    CU_ASSERT_STRING_EQUAL(p.names[0], "Boivin");
    CU_ASSERT_STRING_EQUAL(p.names[6], "Tremblay");
    /* 98.095Mf, flops per task 1: w = 1/98095000 exactly */
    CU_ASSERT(tu_mpq_equals(p.w[node(&p, "Tremblay")], "1/98095000"));
    size_t e = ssched_platform_edge_index(&p, node(&p, "Tremblay"), node(&p, "Fafard"));
    CU_ASSERT_FATAL(e != (size_t)-1);
    char text[256];
    route_text(&p, e, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "4 3 2 0 1 8");
    /* bottleneck 8.158MBps: c = 10^6 / 8158000; latencies 479.78 + 514.433 +
     * 136.931 + 59.904 + 514.433 + 270.544 us */
    CU_ASSERT(tu_mpq_equals(p.c[e], "500/4079"));
    CU_ASSERT(tu_mpq_equals(p.l[e], "79041/40000000"));
    /* link 3: 34.285625MBps, 514.433us, exactly */
    size_t k = 0;
    while (k < p.routes->n_links && strcmp(p.routes->link_names[k], "3"))
        k++;
    CU_ASSERT_FATAL(k < p.routes->n_links);
    CU_ASSERT(tu_mpq_equals(p.routes->link_c[k], "1600/54857"));
    CU_ASSERT(tu_mpq_equals(p.routes->link_latency[k], "514433/1000000000"));
    CU_ASSERT_EQUAL(p.routes->sharing[k], SSCHED_LINK_SHARED);
    ssched_platform_free(&p);
}

static void test_clusters(void)
{
    ssched_platform_t p;
    ssched_error_t err;
    /* a flat cluster, SPLITDUPLEX private links and a SHARED backbone */
    CU_ASSERT_EQUAL_FATAL(load(&p, SSCHED_DATA_DIR "/simgrid/cluster_backbone.xml", NULL, &err),
                          SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 100);
    CU_ASSERT_EQUAL(p.n_edges, 9900);
    CU_ASSERT_EQUAL(p.routes->n_links, 201); /* 100 x (UP, DOWN) + the backbone */
    size_t e = ssched_platform_edge_index(&p, node(&p, "node-0.simgrid.org"),
                                          node(&p, "node-1.simgrid.org"));
    char text[256];
    route_text(&p, e, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "cluster0_link_0_UP cluster0_backbone cluster0_link_1_DOWN");
    CU_ASSERT(tu_mpq_equals(p.c[e], "1/125000000"));    /* unit 1 byte */
    CU_ASSERT(tu_mpq_equals(p.l[e], "3/5000"));         /* 50 + 500 + 50 us */
    ssched_platform_free(&p);

    /* two clusters joined through their gateways and a backbone */
    CU_ASSERT_EQUAL_FATAL(load(&p, SSCHED_DATA_DIR "/simgrid/two_clusters.xml", NULL, &err),
                          SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 4);
    CU_ASSERT_EQUAL(p.n_edges, 12);
    e = ssched_platform_edge_index(&p, node(&p, "bob0.hamburger.edu"),
                                   node(&p, "alice1.crepe.fr"));
    route_text(&p, e, text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "backbone"));
    CU_ASSERT(tu_mpq_equals(p.c[e], "1/125000000"));
    ssched_platform_free(&p);

    /* a fat tree: SimGrid computes the routes */
    CU_ASSERT_EQUAL_FATAL(load(&p, SSCHED_DATA_DIR "/simgrid/cluster_fat_tree.xml", NULL, &err),
                          SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 16);
    CU_ASSERT_EQUAL(p.n_edges, 240);
    ssched_platform_free(&p);
}

static const char *write_platform(const char *name, const char *body)
{
    const char *path = tu_tmp_path(name);
    char text[4096];
    snprintf(text, sizeof text,
             "<?xml version='1.0'?>\n"
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n%s</platform>\n", body);
    CU_ASSERT_FATAL(tu_write_file(path, text) == 0);
    return path;
}

/* Topologies and routings SimGrid computes: torus, dragonfly, Dijkstra
 * through a router, nested zones joined by a zoneRoute. */
static void test_topologies(void)
{
    static const struct { const char *name, *body; size_t hosts, edges, route_len; } cases[] = {
        {"sg_torus.xml", "<cluster id=\"t\" topology=\"TORUS\" topo_parameters=\"2,2,2\" "
         "prefix=\"t-\" radical=\"0-7\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" "
         "lat=\"50us\"/>\n", 8, 56, 1},
        {"sg_dragonfly.xml", "<cluster id=\"d\" topology=\"DRAGONFLY\" "
         "topo_parameters=\"2,1;2,1;2,1;2\" prefix=\"d-\" radical=\"0-15\" suffix=\"\" "
         "speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\"/>\n", 16, 240, 2},
        {"sg_dijkstra.xml", "<zone id=\"z\" routing=\"Dijkstra\">\n"
         "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"2Gf\"/><router id=\"r\"/>\n"
         "<link id=\"ar\" bandwidth=\"1MBps\" latency=\"1ms\"/>"
         "<link id=\"rb\" bandwidth=\"2MBps\" latency=\"2ms\"/>\n"
         "<route src=\"a\" dst=\"r\"><link_ctn id=\"ar\"/></route>\n"
         "<route src=\"r\" dst=\"b\"><link_ctn id=\"rb\"/></route>\n</zone>\n", 2, 2, 2},
        {"sg_nested.xml", "<zone id=\"top\" routing=\"Full\">\n"
         "<zone id=\"z1\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n"
         "<zone id=\"z2\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>\n"
         "<link id=\"wan\" bandwidth=\"10MBps\" latency=\"10ms\"/>\n"
         "<zoneRoute src=\"z1\" dst=\"z2\" gw_src=\"a\" gw_dst=\"b\">"
         "<link_ctn id=\"wan\"/></zoneRoute>\n</zone>\n", 2, 2, 1},
        {"sg_one_host.xml", "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>"
         "</zone>\n", 1, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *path = write_platform(cases[k].name, cases[k].body);
        ssched_platform_t p;
        ssched_error_t err;
        ssched_status_t st = load(&p, path, NULL, &err);
        if (st != SSCHED_OK)
            fprintf(stderr, "\n  %s: %s\n", cases[k].name, err.message);
        CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
        CU_ASSERT_EQUAL(p.n_nodes, cases[k].hosts);
        CU_ASSERT_EQUAL(p.n_edges, cases[k].edges);
        if (p.n_edges)
            CU_ASSERT_EQUAL(p.routes->route_start[1] - p.routes->route_start[0],
                            cases[k].route_len);
        ssched_platform_free(&p);
    }
}

/* SimGrid's errors (exceptions and aborts) are one line and exit 2. */
static void test_bad_files(void)
{
    static const struct { const char *name, *body, *expect; } cases[] = {
        {"sg_malformed.xml", "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>\n",
         "Invalid XML"},
        {"sg_unknown.xml", "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>\n"
         "<teapot/></zone>\n", "sg_unknown.xml:5"},
        {"sg_bad_bw.xml", "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>"
         "<host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"12 parsecs\" latency=\"0\"/>\n"
         "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route></zone>\n", "unknown unit"},
        {"sg_zero_bw.xml", "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>"
         "<host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"0Bps\" latency=\"0\"/>\n"
         "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route></zone>\n", "link 'l': bandwidth"},
        /* Dijkstra without a route between two hosts: SimGrid aborts */
        {"sg_abort.xml", "<zone id=\"z\" routing=\"Dijkstra\"><host id=\"a\" speed=\"1Gf\"/>"
         "<host id=\"b\" speed=\"1Gf\"/>\n</zone>\n", "at the route from a to b"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *path = write_platform(cases[k].name, cases[k].body);
        tu_run_t r;
        int status = tu_run(&r, "export hostfile '%s' -o -", path);
        int ok = status == 2 && tu_count_lines(r.err) == 1 && r.err &&
                 strstr(r.err, cases[k].expect) && strstr(r.err, cases[k].name);
        if (!ok)
            fprintf(stderr, "\n  %s: status %d, stderr '%s'\n", cases[k].name, status,
                    r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
    }
    /* a file that does not exist, and standard input */
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    ro.format = SSCHED_PLATFORM_SIMGRID;
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL(ssched_platform_load(&p, "/nonexistent/p.xml", &ro, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/p.xml"));
    CU_ASSERT_EQUAL(ssched_platform_load(&p, "-", &ro, &err), SSCHED_EINPUT);
    ssched_platform_free(&p);
}

/* Detection by the root element, and --format simgrid. */
static void test_detection(void)
{
    CU_ASSERT_EQUAL(ssched_platform_format_of(SSCHED_DATA_DIR "/simgrid/small_platform.xml",
                                              SSCHED_PLATFORM_AUTO), SSCHED_PLATFORM_SIMGRID);
    CU_ASSERT_EQUAL(ssched_platform_format_of(SSCHED_SOURCE_DIR "/examples/fig2.graphml",
                                              SSCHED_PLATFORM_AUTO), SSCHED_PLATFORM_AUTO);
    CU_ASSERT_EQUAL(ssched_platform_format_of("m.csv", SSCHED_PLATFORM_AUTO),
                    SSCHED_PLATFORM_MATRIX);
    CU_ASSERT_EQUAL(ssched_platform_format_of("x.graphml", SSCHED_PLATFORM_SIMGRID),
                    SSCHED_PLATFORM_SIMGRID);
    ssched_platform_format_t f;
    CU_ASSERT_EQUAL(ssched_platform_format_parse("simgrid", &f, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(f, SSCHED_PLATFORM_SIMGRID);
    /* detected without --format, solved in the routed model */
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s/simgrid/small_platform.xml' --problem scatter "
                           "--source Tremblay --targets Jupiter --unit-bytes 1000000",
                           SSCHED_DATA_DIR), 0);
    CU_ASSERT_PTR_NOT_NULL(r.out && strstr(r.out, "routed"));
    tu_run_free(&r);
}

/* Exported files are well-formed XML and read back the same (hosts, link
 * count, each route's c and l). */
static void round_trip(const char *src, const char *xml, const char *hosts, const char *unit)
{
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "export simgrid '%s' -o '%s' --hostfile '%s' --unit-bytes %s",
                                 src, xml, hosts, unit), 0);
    tu_run_free(&r);
    xmlDocPtr doc = xmlReadFile(xml, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                               XML_PARSE_NOWARNING);
    CU_ASSERT_PTR_NOT_NULL(doc);
    xmlFreeDoc(doc);
    ssched_platform_t a, b;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load(&a, src, unit, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(load(&b, xml, unit, &err), SSCHED_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b.routes);
    /* hosts (the graph's switches become routers, not hosts) */
    size_t hosts_a = 0;
    for (size_t i = 0; i < a.n_nodes; i++)
        hosts_a += a.routes || !a.multiport[i];
    CU_ASSERT_EQUAL(b.n_nodes, hosts_a);
    if (a.routes) {
        CU_ASSERT_EQUAL(b.routes->n_links, a.routes->n_links);
        CU_ASSERT_EQUAL(b.n_edges, a.n_edges);
    }
    for (size_t e = 0; e < a.n_edges; e++) {
        size_t i, j;
        if (ssched_platform_find_node(&b, a.names[a.from[e]], &i, NULL) != SSCHED_OK ||
            ssched_platform_find_node(&b, a.names[a.to[e]], &j, NULL) != SSCHED_OK)
            continue; /* a router's edge */
        size_t f = ssched_platform_edge_index(&b, i, j);
        CU_ASSERT_FATAL(f != (size_t)-1);
        CU_ASSERT(mpq_equal(a.c[e], b.c[f]));
        CU_ASSERT(mpq_equal(a.l[e], b.l[f]));
    }
    char *h = tu_read_file(hosts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL((size_t)tu_count_lines(h), b.n_nodes);
    CU_ASSERT(b.n_nodes > 0 && !strncmp(h, b.names[0], strlen(b.names[0])));
    free(h);
    ssched_platform_free(&a);
    ssched_platform_free(&b);
}

static void test_round_trip(void)
{
    round_trip(SSCHED_DATA_DIR "/simgrid/small_platform.xml", tu_tmp_path("rt1.xml"),
               tu_tmp_path("rt1.hosts"), "1000000");
    round_trip(SSCHED_DATA_DIR "/simgrid/cluster_fat_tree.xml", tu_tmp_path("rt2.xml"),
               tu_tmp_path("rt2.hosts"), "1000000");
    /* a GraphML platform with a switch: the switch is a router (bandwidths
     * unit / c are short decimals: SimGrid's doubles keep them exact) */
    const char *g = tu_tmp_path("rt_switch.graphml");
    CU_ASSERT_FATAL(tu_write_file(g,
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
        "<key id=\"p\" for=\"node\" attr.name=\"ports\" attr.type=\"string\"/>\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        "<graph edgedefault=\"undirected\">\n"
        "<node id=\"a\"><data key=\"w\">2</data></node><node id=\"b\"/><node id=\"d\"/>\n"
        "<node id=\"s\"><data key=\"p\">multi</data></node>\n"
        "<edge source=\"a\" target=\"s\"><data key=\"c\">1/4</data></edge>\n"
        "<edge source=\"s\" target=\"b\"><data key=\"c\">1/2</data></edge>\n"
        "<edge source=\"a\" target=\"d\"><data key=\"c\">5</data></edge>\n"
        "</graph></graphml>\n") == 0);
    const char *xml = tu_tmp_path("rt_switch.xml");
    round_trip(g, xml, tu_tmp_path("rt_switch.hosts"), "1000");
    char *x = tu_read_file(xml);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<router id=\"s\"/>"));
    CU_ASSERT_PTR_NULL(strstr(x, "<host id=\"s\""));
    free(x);
    /* SimGrid composes a -> s -> b (Floyd): the reader sees that route */
    ssched_platform_t b;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load(&b, xml, "1000", &err), SSCHED_OK);
    CU_ASSERT_EQUAL(b.n_nodes, 3);
    size_t e = ssched_platform_edge_index(&b, node(&b, "a"), node(&b, "b"));
    CU_ASSERT_FATAL(e != (size_t)-1);
    CU_ASSERT_EQUAL(b.routes->route_start[e + 1] - b.routes->route_start[e], 2);
    CU_ASSERT(tu_mpq_equals(b.c[e], "1/2"));
    ssched_platform_free(&b);
}

/* Export refusals: nothing is created (issue 24 item 2). */
static void test_export_refusals(void)
{
    const char *xml = tu_tmp_path("refused.xml"), *hosts = tu_tmp_path("refused.hosts");
    const char *g = tu_tmp_path("huge_w.graphml");
    CU_ASSERT_FATAL(tu_write_file(g,
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        "<graph edgedefault=\"directed\">\n"
        "<node id=\"a\"><data key=\"w\">1e-400</data></node><node id=\"b\"/>\n"
        "<edge source=\"a\" target=\"b\"><data key=\"c\">1</data></edge>\n"
        "</graph></graphml>\n") == 0);
    const char *cmds[][2] = {
        {"export simgrid '%s' -o '%s' --hostfile '%s'", "speed"},
        {"export simgrid '%s' -o '%s' --hostfile '%s' --unit-bytes 1e-400", "bandwidth"},
    };
    for (size_t k = 0; k < 2; k++) {
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, cmds[k][0], k ? SSCHED_SOURCE_DIR "/examples/fig2.graphml" : g,
                               xml, hosts), 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        CU_ASSERT_PTR_NOT_NULL(r.err && strstr(r.err, cmds[k][1]));
        tu_run_free(&r);
        CU_ASSERT_PTR_NULL(tu_read_file(xml));
        CU_ASSERT_PTR_NULL(tu_read_file(hosts));
    }
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "export simgrid '%s/examples/fig2.graphml' -o '%s' "
                           "--hostfile '%s'", SSCHED_SOURCE_DIR, xml, xml), 2);
    CU_ASSERT_PTR_NOT_NULL(r.err && strstr(r.err, "same file"));
    tu_run_free(&r);
    CU_ASSERT_PTR_NULL(tu_read_file(xml));
    /* a device is written in place, never replaced by a rename */
    CU_ASSERT_EQUAL(tu_run(&r, "export hostfile '%s/examples/fig2.graphml' -o /dev/null",
                           SSCHED_SOURCE_DIR), 0);
    tu_run_free(&r);
    struct stat st;
    CU_ASSERT(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CU_ASSERT_EQUAL(tu_run(&r, "export hostfile '%s/examples/fig2.graphml' -o /dev/full",
                           SSCHED_SOURCE_DIR), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

int main(void)
{
    const tu_test_t tests[] = {{"small_platform: hosts, routes, exact c and l", test_small_platform},
                               {"clusters, gateways, fat tree", test_clusters},
                               {"torus, dragonfly, Dijkstra, nested zones", test_topologies},
                               {"SimGrid errors: one line, exit 2", test_bad_files},
                               {"detection and the routed guard", test_detection},
                               {"export round trip", test_round_trip},
                               {"export refusals create nothing", test_export_refusals},
                               {NULL, NULL}};
    return tu_main("simgrid_read", tests);
}
