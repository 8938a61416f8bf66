/* Switches (issue 12): routers that forward on all their links at once.
 * A switch has no port rule; every edge with a switch at either end is its
 * own resource (busy <= 1 per time unit); hosts stay one-port.
 *
 *   - hand-derived TPs on a star, a line and a reduce, one-port against switch;
 *   - the certificate: TP = sum of the prices of ports, links and processors;
 *   - random platforms with random switch sets: the exported LP solved by
 *     QSopt_ex (esolver) has exactly ssched's TP, and switches never lower TP;
 *   - the CLI: --routers, ports="multi", JSON, the LP export, bad inputs. */
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

/* ---- platforms ----------------------------------------------------------- */

static size_t add_node(ssched_platform_t *p, const char *name, const char *w)
{
    size_t idx = 0;
    mpq_t q;
    mpq_init(q);
    if (w)
        CU_ASSERT_EQUAL(ssched_rational_parse(q, w, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_platform_add_node(p, name, w ? q : NULL, &idx, NULL), SSCHED_OK);
    mpq_clear(q);
    return idx;
}

/* Both directions, cost c each. */
static void add_link(ssched_platform_t *p, size_t a, size_t b, const char *c)
{
    mpq_t q;
    mpq_init(q);
    CU_ASSERT_EQUAL(ssched_rational_parse(q, c, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_platform_add_edge(p, a, b, q, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_platform_add_edge(p, b, a, q, NULL), SSCHED_OK);
    mpq_clear(q);
}

/* Star: hub r (no w) and hosts h0..h4 (w = 1) with c(r,hi) = 1,1,2,3,2. */
static void star(ssched_platform_t *p)
{
    static const char *const cost[] = {"1", "1", "2", "3", "2"};
    ssched_platform_init(p);
    size_t r = add_node(p, "r", NULL);
    char name[8];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "h%d", i);
        size_t h = add_node(p, name, "1");
        add_link(p, r, h, cost[i]);
    }
    CU_ASSERT_EQUAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void set_switch(ssched_platform_t *p, const char *name, int on)
{
    size_t idx;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_find_node(p, name, &idx, NULL), SSCHED_OK);
    p->multiport[idx] = (unsigned char)on;
}

/* ---- the certificate ----------------------------------------------------- */

/* Solve by auto (column generation, switches included), check the
 * certificate, and compare TP with `expect`. */
static void expect_tp(const ssched_platform_t *p, const ssched_problem_t *pb, const char *expect)
{
    ssched_steady_options_t opt;
    ssched_steady_options_default(&opt);
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, pb, &opt, &s, &err), SSCHED_OK);
    if (!tu_mpq_equals(s.throughput, expect)) {
        char *a = ssched_rational_to_string(s.throughput);
        fprintf(stderr, "\n  TP %s, expected %s\n", a, expect);
        free(a);
        CU_FAIL("TP differs from the hand-derived value");
    }
    tu_check_certificate(p, pb->size, &s);
    int any_switch = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        any_switch |= p->multiport[i];
    if (any_switch)
        CU_ASSERT_EQUAL(s.method, SSCHED_METHOD_COLGEN);
    ssched_steady_free(&s);
}

static void scatter_pb(const ssched_platform_t *p, ssched_problem_t *pb, const char *src,
                       const char *targets)
{
    ssched_problem_init(pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(pb, p, src, targets, NULL), SSCHED_OK);
}

/* ---- (a) hand-derived cases ---------------------------------------------- */

/* Scatter h0 -> h1..h4.  One-port: r's out-port sends 1+2+3+2 = 8 per
 * operation, TP = 1/8.  Switch: each link is its own resource; h0 -> r
 * carries 4 messages of cost 1 (h0's out-port too), r -> h3 one of cost 3:
 * TP = 1/4 = 1 / (the source's link time), not limited by the switch. */
static void test_star_scatter(void)
{
    ssched_platform_t p;
    star(&p);
    ssched_problem_t pb;
    scatter_pb(&p, &pb, "h0", "h1,h2,h3,h4");
    expect_tp(&p, &pb, "1/8");
    set_switch(&p, "r", 1);
    expect_tp(&p, &pb, "1/4");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Gossip among all five hosts.  One-port: r receives 4·(1+1+2+3+2) = 36
 * per operation (and sends as much): TP = 1/36.  Switch: link h3 -> r
 * carries 4 messages of cost 3: TP = 1/12. */
static void test_star_gossip(void)
{
    ssched_platform_t p;
    star(&p);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, &p, "h0,h1,h2,h3,h4", "h0,h1,h2,h3,h4", NULL),
                          SSCHED_OK);
    expect_tp(&p, &pb, "1/36");
    set_switch(&p, "r", 1);
    expect_tp(&p, &pb, "1/12");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Line a - s1 - s2 - b with c = 1, 2, 1; gossip between a and b.  One-port:
 * s1 receives 1 (from a) + 2 (from s2) per operation: TP = 1/3.  Two
 * switches: every directed link carries one message; the s1 <-> s2 links
 * (cost 2) bind: TP = 1/2.  A scatter a -> b is 1/2 either way. */
static void test_line_two_switches(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    size_t a = add_node(&p, "a", NULL), s1 = add_node(&p, "s1", NULL);
    size_t s2 = add_node(&p, "s2", NULL), b = add_node(&p, "b", NULL);
    add_link(&p, a, s1, "1");
    add_link(&p, s1, s2, "2");
    add_link(&p, s2, b, "1");
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, &p, "a,b", "a,b", NULL), SSCHED_OK);
    expect_tp(&p, &pb, "1/3");
    set_switch(&p, "s1", 1);
    set_switch(&p, "s2", 1);
    expect_tp(&p, &pb, "1/2");
    ssched_problem_free(&pb);
    scatter_pb(&p, &pb, "a", "b");
    expect_tp(&p, &pb, "1/2");
    set_switch(&p, "s1", 0);
    set_switch(&p, "s2", 0);
    expect_tp(&p, &pb, "1/2");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* (c) Reduce of a, b to t (all w = 1) around hub r, c = 1 everywhere.
 * One-port: whatever the merge node, two messages per operation enter r
 * (both values, or one value and the result): TP = 1/2.  Switch: a -> r ->
 * b, b merges (w = 1), b -> r -> t: every link and port carries at most one
 * message per operation: TP = 1, twice as much.  (a's out-port carries at
 * least one message per operation, so 1 is optimal.) */
static void test_reduce_switch_doubles(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    size_t r = add_node(&p, "r", NULL);
    size_t a = add_node(&p, "a", "1"), b = add_node(&p, "b", "1"), t = add_node(&p, "t", "1");
    add_link(&p, r, a, "1");
    add_link(&p, r, b, "1");
    add_link(&p, r, t, "1");
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "a,b", "t", NULL), SSCHED_OK);
    expect_tp(&p, &pb, "1/2");
    set_switch(&p, "r", 1);
    expect_tp(&p, &pb, "1");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* The library accepts colgen with a switch (star scatter h0 -> h1,h2: 1/4,
 * as the edge LP), and refuses a switch in the problem and a switch with w
 * (EINPUT). */
static void test_library_refusals(void)
{
    ssched_platform_t p;
    star(&p);
    set_switch(&p, "r", 1);
    ssched_problem_t pb;
    scatter_pb(&p, &pb, "h0", "h1,h2");
    ssched_steady_options_t opt;
    ssched_steady_options_default(&opt);
    opt.method = SSCHED_METHOD_COLGEN;
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_steady_solve_opts(&p, &pb, &opt, &s, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(s.method, SSCHED_METHOD_COLGEN);
    ssched_steady_t lp;
    ssched_steady_init(&lp);
    opt.method = SSCHED_METHOD_LP;
    CU_ASSERT_EQUAL(ssched_steady_solve_opts(&p, &pb, &opt, &lp, &err), SSCHED_OK);
    CU_ASSERT(mpq_equal(s.throughput, lp.throughput));
    ssched_steady_free(&lp);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL(ssched_problem_set_scatter(&pb, &p, "r", "h1", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "switch"));
    ssched_problem_free(&pb);
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL(ssched_problem_set_reduce(&pb, &p, "h1,h2", "r", &err), SSCHED_EINPUT);
    ssched_problem_free(&pb);
    set_switch(&p, "r", 0);
    set_switch(&p, "h4", 1); /* h4 has w */
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL(ssched_problem_set_scatter(&pb, &p, "h0", "h1", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "never computes"));
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* ---- (b) random platforms against esolver -------------------------------- */

/* n nodes: each a switch (no w) with probability 40%, else a host with
 * w = a/b; a ring plus each other ordered pair with probability 35%. */
static void random_platform(ssched_platform_t *p, unsigned n)
{
    ssched_platform_init(p);
    char name[16];
    mpq_t q;
    mpq_init(q);
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%u", i);
        int sw = tu_pick(5) < 2;
        mpq_set_ui(q, tu_pick(9) + 1, tu_pick(4) + 1);
        mpq_canonicalize(q);
        size_t idx;
        ssched_platform_add_node(p, name, sw ? NULL : q, &idx, NULL);
        p->multiport[idx] = (unsigned char)sw;
    }
    mpq_clear(q);
    tu_random_edges(p, n);
}

/* The hosts of p (nodes that are not switches), in index order. */
static size_t hosts_of(const ssched_platform_t *p, size_t *h)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        if (!p->multiport[i])
            h[n++] = i;
    return n;
}

/* ssched's TP (edge LP, certified) equals esolver's on the exported model;
 * the certificate holds; the one-port TP of the same instance is never
 * larger.  Returns 1 if the instance was checked. */
static int check_random(ssched_platform_t *p, const ssched_problem_t *pb)
{
    if (ssched_problem_validate(pb, p, NULL) != SSCHED_OK)
        return 0;
    ssched_model_t m;
    ssched_model_init(&m);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_model_build(p, pb, &m, &err), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &s, &err), SSCHED_OK);
    tu_check_certificate(p, pb->size, &s);
    mpq_t ref;
    mpq_init(ref);
    CU_ASSERT_EQUAL_FATAL(tu_esolver_optimum(&m.lp, ref), 0);
    if (!mpq_equal(ref, s.throughput)) {
        char *a = ssched_rational_to_string(s.throughput), *b = ssched_rational_to_string(ref);
        fprintf(stderr, "\n  ssched TP %s != esolver %s\n", a, b);
        free(a);
        free(b);
        CU_FAIL("TP differs from esolver");
    }
    /* the same instance with every node one-port */
    unsigned char *saved = malloc(p->n_nodes);
    CU_ASSERT_PTR_NOT_NULL_FATAL(saved);
    memcpy(saved, p->multiport, p->n_nodes);
    memset(p->multiport, 0, p->n_nodes);
    ssched_steady_t one;
    ssched_steady_init(&one);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &one, &err), SSCHED_OK);
    CU_ASSERT(mpq_cmp(one.throughput, s.throughput) <= 0);
    memcpy(p->multiport, saved, p->n_nodes);
    free(saved);
    ssched_steady_free(&one);
    mpq_clear(ref);
    ssched_steady_free(&s);
    ssched_model_free(&m);
    return 1;
}

/* runs random platforms on 4 + tu_pick(spread) nodes, each with a random
 * problem of kind on its hosts when it has 2 (tu_random_host_problem);
 * how many check_random checked */
static int random_runs(int runs, unsigned spread, ssched_problem_kind_t kind, size_t max_part)
{
    int checked = 0;
    for (int k = 0; k < runs; k++) {
        ssched_platform_t p;
        unsigned n = 4 + tu_pick(spread);
        random_platform(&p, n);
        size_t h[16], nh = hosts_of(&p, h);
        if (nh >= 2) {
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            tu_random_host_problem(&pb, kind, h, nh, max_part);
            checked += check_random(&p, &pb);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
    return checked;
}

static void test_random_scatters(void)
{
    CU_ASSERT(random_runs(40, 4, SSCHED_PROBLEM_SCATTER, 0) >= 25);
}

static void test_random_gossips(void)
{
    CU_ASSERT(random_runs(30, 3, SSCHED_PROBLEM_GOSSIP, 0) >= 15);
}

static void test_random_reduces(void)
{
    CU_ASSERT(random_runs(25, 3, SSCHED_PROBLEM_REDUCE, 3) >= 12);
}

/* ---- the CLI ------------------------------------------------------------- */

#define STAR_KEYS                                                                   \
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"                   \
    "  <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"         \
    "  <key id=\"p\" for=\"node\" attr.name=\"ports\" attr.type=\"string\"/>\n"     \
    "  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"         \
    "  <graph id=\"G\" edgedefault=\"undirected\">\n"

static const char *star_file(const char *r_node)
{
    char text[4096];
    snprintf(text, sizeof text, STAR_KEYS
             "    %s\n"
             "    <node id=\"h0\"><data key=\"w\">1</data></node>\n"
             "    <node id=\"h1\"><data key=\"w\">1</data></node>\n"
             "    <node id=\"h2\"><data key=\"w\">1</data></node>\n"
             "    <node id=\"h3\"><data key=\"w\">1</data></node>\n"
             "    <node id=\"h4\"><data key=\"w\">1</data><data key=\"p\">one</data></node>\n"
             "    <edge source=\"r\" target=\"h0\"><data key=\"c\">1</data></edge>\n"
             "    <edge source=\"r\" target=\"h1\"><data key=\"c\">1</data></edge>\n"
             "    <edge source=\"r\" target=\"h2\"><data key=\"c\">2</data></edge>\n"
             "    <edge source=\"r\" target=\"h3\"><data key=\"c\">3</data></edge>\n"
             "    <edge source=\"r\" target=\"h4\"><data key=\"c\">2</data></edge>\n"
             "  </graph>\n</graphml>\n", r_node);
    static int serial;
    char name[32];
    snprintf(name, sizeof name, "star%d.graphml", serial++);
    const char *path = tu_tmp_path(name);
    CU_ASSERT_EQUAL(tu_write_file(path, text), 0);
    return path;
}

static void test_cli_routers(void)
{
    const char *plain = star_file("<node id=\"r\"/>");
    const char *multi = star_file("<node id=\"r\"><data key=\"p\">multi</data></node>");
    tu_run_t r;
    /* default: the file's attributes */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source h0 --targets h1,h2,h3,h4", plain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/8 "));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source h0 --targets h1,h2,h3,h4", multi), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/4 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "switch (no port rule"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ": r;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "link     h0 -> r  busy 1  price "));
    tu_run_free(&r);
    /* --routers overrides the file both ways */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source h0 --targets h1,h2,h3,h4 "
                               "--routers switch", plain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/4 "));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source h0 --targets h1,h2,h3,h4 "
                               "--routers one-port", multi), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/8 "));
    tu_run_free(&r);
    /* gossip and JSON */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem gossip --sources h0,h1,h2,h3,h4 "
                               "--targets h0,h1,h2,h3,h4 --routers switch --json", plain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"throughput\": \"1/12\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"switches\": [\n      \"r\"\n    ]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"link\": [\n        \"h3\",\n        \"r\"\n      ]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"method\": \"colgen\""));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem gossip --sources h0,h1,h2,h3,h4 "
                               "--targets h0,h1,h2,h3,h4 --json", plain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"throughput\": \"1/36\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"switches\": []"));
    tu_run_free(&r);
}

/* solve --routers switch agrees with esolver and glpsol --exact on the LP
 * that `ssched lp --routers switch` exports, on the shipped tiers platform. */
static void test_cli_lp_export_tiers(void)
{
    const char *plat = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    static const char *const problems[] = {
        "--problem scatter --source h0_0_0_0 --targets h0_0_0_1,h0_0_1_0,h1_0_0_0,h1_0_1_2",
        "--problem gossip --sources h0_0_0_0,h1_0_1_0,h0_0_1_1 --targets h0_0_0_0,h1_0_0_2,h0_0_1_1",
        "--problem reduce --participants h0_0_0_0,h1_0_0_0,h0_0_1_0 --target h0_0_0_0"};
    for (int k = 0; k < 3; k++) {
        const char *lp = tu_tmp_path("tiers.lp"), *mps = tu_tmp_path("tiers.mps");
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' %s --routers switch -o '%s'", plat, problems[k], lp), 0);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' %s --routers switch -o '%s'", plat, problems[k], mps), 0);
        tu_run_free(&r);
        tu_sh(&r, "grep -c ' link_e' '%s'", lp);
        CU_ASSERT(atoi(r.out) > 0);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s --routers switch --json --quiet", plat, problems[k]), 0);
        char mine[256] = "";
        const char *v = strstr(r.out, "\"throughput\": \"");
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        sscanf(v + 15, "%255[^\"]", mine);
        tu_run_free(&r);
        tu_sh(&r, "cd '%s/..' && rm -f tsol.txt && esolver -L -O tsol.txt '%s' >/dev/null 2>&1; "
                  "sed -n 's/.*Value = \\([0-9/]*\\).*/\\1/p' tsol.txt", lp, lp);
        char ref[256] = "";
        sscanf(r.out, "%255s", ref);
        tu_run_free(&r);
        CU_ASSERT_STRING_EQUAL(mine, ref);
        /* glpsol --exact on the MPS export (it minimizes -TP) */
        tu_sh(&r, "glpsol --exact --freemps '%s' -o /dev/stdout 2>/dev/null | "
                  "sed -n 's/^Objective: *[^=]*= *\\([-0-9.e+]*\\).*/\\1/p'", mps);
        double g = 0;
        CU_ASSERT_EQUAL(sscanf(r.out, "%lf", &g), 1);
        mpq_t q;
        mpq_init(q);
        CU_ASSERT_EQUAL(ssched_rational_parse(q, mine, NULL), SSCHED_OK);
        double d = mpq_get_d(q);
        CU_ASSERT(g + d < 1e-9 * (d > 1 ? d : 1) && g + d > -1e-9 * (d > 1 ? d : 1));
        mpq_clear(q);
        tu_run_free(&r);
        /* switches never lower TP */
        CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s --json --quiet", plat, problems[k]), 0);
        v = strstr(r.out, "\"throughput\": \"");
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        char theirs[256] = "";
        sscanf(v + 15, "%255[^\"]", theirs);
        tu_run_free(&r);
        mpq_t a, b;
        mpq_inits(a, b, NULL);
        CU_ASSERT_EQUAL(ssched_rational_parse(a, mine, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL(ssched_rational_parse(b, theirs, NULL), SSCHED_OK);
        CU_ASSERT(mpq_cmp(b, a) <= 0);
        mpq_clears(a, b, NULL);
    }
}

/* The GraphML writer keeps switches: write, read back, same flags. */
static void test_graphml_round_trip(void)
{
    ssched_platform_t p, q;
    star(&p);
    set_switch(&p, "r", 1);
    const char *path = tu_tmp_path("written.graphml");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(ssched_write_platform_graphml(f, &p, NULL), SSCHED_OK);
    fclose(f);
    ssched_platform_init(&q);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&q, path, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(q.n_nodes, p.n_nodes);
    for (size_t i = 0; i < p.n_nodes; i++) {
        size_t j;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_find_node(&q, p.names[i], &j, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL(q.multiport[j], p.multiport[i]);
    }
    ssched_platform_free(&q);
    ssched_platform_free(&p);
}

/* (d) bad inputs: exit 2, one line on stderr. */
static void expect_bad(const char *what, const char *args_fmt, const char *arg, const char *needle)
{
    tu_run_t r;
    char args[2048];
    snprintf(args, sizeof args, args_fmt, arg);
    int st = tu_run(&r, "%s", args);
    if (st != 2 || tu_count_lines(r.err) != 1 || !strstr(r.err, needle))
        fprintf(stderr, "\n  %s: status %d, stderr: %s\n", what, st, r.err);
    CU_ASSERT_EQUAL(st, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle));
    tu_run_free(&r);
}

static void test_bad_inputs(void)
{
    const char *bogus = star_file("<node id=\"r\"><data key=\"p\">bogus</data></node>");
    const char *with_w = star_file("<node id=\"r\"><data key=\"w\">1</data><data key=\"p\">multi</data></node>");
    const char *multi = star_file("<node id=\"r\"><data key=\"p\">multi</data></node>");
    const char *plain = star_file("<node id=\"r\"/>");
    char needle[1024];
    snprintf(needle, sizeof needle, "%s:6: node 'r': ports=\"bogus\" must be \"one\" or \"multi\"", bogus);
    expect_bad("ports=bogus", "solve '%s' --problem scatter --source h0 --targets h1", bogus, needle);
    snprintf(needle, sizeof needle, "%s:6: node 'r': ports=\"multi\" with w", with_w);
    expect_bad("multi with w", "solve '%s' --problem scatter --source h0 --targets h1", with_w, needle);
    expect_bad("switch as source", "solve '%s' --problem scatter --source r --targets h1 --routers switch",
               multi, "--source: node 'r' is a switch");
    char lp_args[1024];
    snprintf(lp_args, sizeof lp_args, "lp '%%s' --problem gossip --sources h0 --targets h1,r -o '%s'",
             tu_tmp_path("bad.lp"));
    expect_bad("switch as target", lp_args, multi, "--targets: node 'r' is a switch");
    expect_bad("switch as participant",
               "solve '%s' --problem reduce --participants h0,r --target h1", multi,
               "--participants: node 'r' is a switch");
    expect_bad("switch as reduce target",
               "solve '%s' --problem reduce --participants h0,h1 --target r", multi,
               "--target: node 'r' is a switch");
    expect_bad("bad --routers", "solve '%s' --problem scatter --source h0 --targets h1 --routers multi",
               plain, "--routers: unknown model 'multi'");
    expect_bad("--routers twice",
               "solve '%s' --problem scatter --source h0 --targets h1 --routers switch --routers switch",
               plain, "--routers given twice");
    /* colgen with a switch is no longer refused */
    {
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scatter --source h0 --targets h1 --method colgen "
                                   "--json --quiet", multi), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"method\": \"colgen\""));
        tu_run_free(&r);
    }
    /* a ports key that is not a string */
    const char *typed = tu_tmp_path("typed.graphml");
    CU_ASSERT_EQUAL(tu_write_file(typed,
                                  "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                                  "  <key id=\"p\" for=\"node\" attr.name=\"ports\" attr.type=\"int\"/>\n"
                                  "  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
                                  "  <graph id=\"G\"><node id=\"a\"/><node id=\"b\"/>\n"
                                  "  <edge source=\"a\" target=\"b\"><data key=\"c\">1</data></edge>\n"
                                  "  </graph>\n</graphml>\n"), 0);
    expect_bad("ports key not a string", "solve '%s' --problem scatter --source a --targets b", typed,
               ":2: <key id=\"p\">: attribute 'ports'");
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"star scatter: one-port 1/8, switch 1/4", test_star_scatter},
        {"star gossip: one-port 1/36, switch 1/12", test_star_gossip},
        {"line host-switch-switch-host", test_line_two_switches},
        {"reduce: a switch doubles TP", test_reduce_switch_doubles},
        {"library refusals", test_library_refusals},
        {"random scatters with switches equal esolver", test_random_scatters},
        {"random gossips with switches equal esolver", test_random_gossips},
        {"random reduces with switches equal esolver", test_random_reduces},
        {"CLI --routers, ports=multi, JSON", test_cli_routers},
        {"CLI lp export with switches against esolver and glpsol", test_cli_lp_export_tiers},
        {"GraphML writer keeps switches", test_graphml_round_trip},
        {"bad inputs", test_bad_inputs},
        {NULL, NULL}};
    return tu_main("switches", tests);
}
