/* The checker on routed-model schedule files (docs/model.md, routed schedules): the platform's
 * "model", "hosts", "links" and per-edge "route" keys, the periodic link
 * and host loads, the unrolled exclusive SHARED links and one-port hosts,
 * and the throughput solved again on the routed platform.
 *
 * The files are made by hand from what `ssched schedule` writes for a
 * graph platform (three hosts, every ordered pair an edge): each edge gets
 * a route through a link of its own with the edge's c and latency, so its
 * c and l are the route's, and with one-port hosts the routed LP is the
 * graph LP (same TP).  An optional link "bus" (c = 1, no latency, at most
 * every edge's c) is put first on every route: SHARED it joins every
 * transfer's resources, FATPIPE it caps each flow alone. */
#include <CUnit/Basic.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "test_util.h"

static const char *tri_graphml =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
    "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
    "<key id=\"l\" for=\"edge\" attr.name=\"l\" attr.type=\"string\"/>\n"
    "<graph id=\"G\" edgedefault=\"directed\">\n"
    "<node id=\"A\"><data key=\"w\">1</data></node>\n"
    "<node id=\"B\"><data key=\"w\">1</data></node>\n"
    "<node id=\"C\"><data key=\"w\">2</data></node>\n"
    "<edge source=\"A\" target=\"B\"><data key=\"c\">1</data><data key=\"l\">1/10</data></edge>\n"
    "<edge source=\"B\" target=\"A\"><data key=\"c\">1</data><data key=\"l\">1/10</data></edge>\n"
    "<edge source=\"A\" target=\"C\"><data key=\"c\">2</data><data key=\"l\">1/5</data></edge>\n"
    "<edge source=\"C\" target=\"A\"><data key=\"c\">2</data><data key=\"l\">1/5</data></edge>\n"
    "<edge source=\"B\" target=\"C\"><data key=\"c\">1</data><data key=\"l\">1/10</data></edge>\n"
    "<edge source=\"C\" target=\"B\"><data key=\"c\">1</data><data key=\"l\">1/10</data></edge>\n"
    "</graph>\n</graphml>\n";

static const char *problems[] = {
    "--problem scatter --source A --targets B,C",
    "--problem reduce --participants A,B,C --target A",
    "--problem broadcast --source A",
    "--problem gossip --sources A,B --targets B,C",
    "--problem reduce --participants A,B,C --target A --commutative",
    "--problem allreduce --participants A,B,C --root A",
};
enum { SCATTER, REDUCE, BROADCAST, GOSSIP, COMMUTATIVE, ALLREDUCE, N_KINDS };

/* The graph schedule of problem `kind` (unrolled: K = 4), loaded. */
static json_t *graph_file(int kind, int unrolled)
{
    const char *plat = tu_tmp_path("tri.graphml");
    CU_ASSERT_FATAL(tu_write_file(plat, tri_graphml) == 0);
    const char *out = tu_tmp_path("graph.json");
    tu_run_t r;
    tu_run(&r, "schedule %s %s %s -o %s", plat, problems[kind],
           unrolled ? "--operations 4 --unroll" : "", out);
    CU_ASSERT_FATAL(r.status == 0);
    tu_run_free(&r);
    char *text = tu_read_file(out);
    CU_ASSERT_FATAL(text != NULL);
    json_error_t e;
    json_t *root = json_loads(text, 0, &e);
    free(text);
    CU_ASSERT_FATAL(root != NULL);
    return root;
}

/* Make root routed: hosts "one-port" or "multi-port"; bus NULL, "shared"
 * or "fatpipe". */
static json_t *routed(int kind, int unrolled, const char *hosts, const char *bus)
{
    json_t *root = graph_file(kind, unrolled);
    json_t *pl = json_object_get(root, "platform"), *edges = json_object_get(pl, "edges");
    json_t *links = json_array();
    size_t n = json_array_size(edges), off = bus ? 1 : 0;
    if (bus)
        json_array_append_new(links, json_pack("{s:s,s:s,s:s,s:s}", "name", "bus", "c", "1",
                                               "latency", "0", "sharing", bus));
    for (size_t e = 0; e < n; e++) {
        json_t *o = json_array_get(edges, e);
        char name[64];
        snprintf(name, sizeof name, "%s->%s", json_string_value(json_object_get(o, "from")),
                 json_string_value(json_object_get(o, "to")));
        json_t *l = json_object_get(o, "l");
        json_array_append_new(links, json_pack("{s:s,s:O,s:s,s:s}", "name", name, "c",
                                               json_object_get(o, "c"), "latency",
                                               l ? json_string_value(l) : "0", "sharing",
                                               "shared"));
        json_object_set_new(o, "route", bus ? json_pack("[i,i]", 0, (int)(e + off))
                                            : json_pack("[i]", (int)e));
    }
    json_object_set_new(pl, "model", json_string("routed"));
    json_object_set_new(pl, "hosts", json_string(hosts));
    json_object_set_new(pl, "links", links);
    return root;
}

/* 1 valid, 0 invalid, -1 malformed (why: the message); root is freed. */
static int check(json_t *root, char *why, size_t cap, int trust)
{
    char *text = json_dumps(root, JSON_INDENT(1));
    json_decref(root);
    CU_ASSERT_FATAL(text != NULL);
    ssched_check_options_t opt;
    ssched_check_options_default(&opt);
    opt.trust_throughput = trust;
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    int r;
    if (ssched_check_schedule_buffer_opts(text, strlen(text), &opt, &rep, &err) != SSCHED_OK) {
        snprintf(why, cap, "%s", err.message);
        r = -1;
    } else {
        snprintf(why, cap, "%s", rep.violation);
        r = rep.valid;
    }
    free(text);
    return r;
}

#define EXPECT(root, want, text)                                                          \
    do {                                                                                  \
        char why_[512];                                                                   \
        int got_ = check((root), why_, sizeof why_, 0);                                   \
        if (got_ != (want) || !strstr(why_, (text)))                                      \
            fprintf(stderr, "\n%s:%d: got %d '%s', wanted %d '%s'\n", __FILE__, __LINE__, \
                    got_, why_, (want), (text));                                          \
        CU_ASSERT(got_ == (want));                                                        \
        CU_ASSERT(strstr(why_, (text)) != NULL);                                          \
    } while (0)

static json_t *edge(json_t *root, size_t e)
{
    return json_array_get(json_object_get(json_object_get(root, "platform"), "edges"), e);
}
static json_t *link_(json_t *root, size_t k)
{
    return json_array_get(json_object_get(json_object_get(root, "platform"), "links"), k);
}

/* Every problem, periodic and unrolled, one-port hosts on private links:
 * valid, the throughput solved again on the routed platform included. */
static void test_valid(void)
{
    for (int kind = SCATTER; kind < N_KINDS; kind++)
        for (int u = 0; u <= 1; u++) {
            EXPECT(routed(kind, u, "one-port", NULL), 1, "");
            /* a FATPIPE bus caps each flow at what its edge already does */
            EXPECT(routed(kind, u, "one-port", "fatpipe"), 1, "");
            /* the graph file it came from stays valid */
            EXPECT(graph_file(kind, u), 1, "");
        }
}

/* A malformed routed header: SSCHED_EINPUT, one message naming it. */
static void test_header(void)
{
    for (int u = 0; u <= 1; u++) {
        json_t *r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(edge(r, 0), "c", json_string("3"));
        EXPECT(r, -1, "platform.edges[0]: c is not the largest c of its route's links");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(edge(r, 2), "l", json_string("1/3"));
        EXPECT(r, -1, "platform.edges[2]: l (0 when absent) is not the sum");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_del(edge(r, 1), "l");
        EXPECT(r, -1, "platform.edges[1]: l (0 when absent) is not the sum");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(edge(r, 1), "route", json_pack("[i]", 6));
        EXPECT(r, -1, "platform.edges[1].route[0]: not a link index (0..5)");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(edge(r, 1), "route", json_pack("[i]", -1));
        EXPECT(r, -1, "not a link index");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(edge(r, 1), "route", json_array());
        EXPECT(r, -1, "platform.edges[1]: missing non-empty \"route\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_del(edge(r, 4), "route");
        EXPECT(r, -1, "platform.edges[4]: missing non-empty \"route\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(edge(r, 0), "route", json_pack("[i,i]", 0, 0));
        EXPECT(r, -1, "crossed twice");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(link_(r, 3), "name", json_string("A->B"));
        EXPECT(r, -1, "platform.links[3]: duplicate link name 'A->B' (also links[0])");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(link_(r, 3), "name", json_string("a\nb"));
        EXPECT(r, -1, "control character in link");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(link_(r, 0), "sharing", json_string("splitduplex"));
        EXPECT(r, -1, "platform.links[0]: \"sharing\" must be \"shared\" or \"fatpipe\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(link_(r, 0), "c", json_string("0"));
        EXPECT(r, -1, "platform.links[0]: c must be positive");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(link_(r, 0), "latency", json_string("-1"));
        EXPECT(r, -1, "latency must not be negative");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(link_(r, 0), "bandwidth", json_string("1"));
        EXPECT(r, -1, "platform.links[0]: unknown key \"bandwidth\"");
        r = routed(SCATTER, u, "two-port", NULL);
        EXPECT(r, -1, "\"hosts\" must be \"multi-port\" or \"one-port\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(json_object_get(r, "platform"), "model", json_string("graph"));
        EXPECT(r, -1, "\"model\" must be \"routed\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_del(json_object_get(r, "platform"), "model");
        EXPECT(r, -1, "without \"model\": \"routed\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(json_object_get(r, "platform"), "links", json_array());
        EXPECT(r, -1, "missing non-empty \"links\"");
        r = routed(SCATTER, u, "one-port", NULL);
        json_object_set_new(json_array_get(json_object_get(json_object_get(r, "platform"),
                                                           "nodes"), 1),
                            "ports", json_string("multi"));
        EXPECT(r, -1, "\"ports\": \"multi\" in a routed file");
        /* a graph file with a route */
        r = graph_file(SCATTER, u);
        json_object_set_new(edge(r, 0), "route", json_pack("[i]", 0));
        EXPECT(r, -1, "platform.edges[0]: unknown key \"route\" (a routed file's, without "
                      "\"model\": \"routed\")");
    }
}

/* Periodic: a SHARED link's load over the slot; a FATPIPE per flow. */
static void test_periodic_links(void)
{
    /* slot [0,1) of the scatter moves A->B and B->C, 1 each: 2 on the bus */
    EXPECT(routed(SCATTER, 0, "one-port", "shared"), 0,
           "slot 0: SHARED link bus is loaded longer than the slot");
    EXPECT(routed(SCATTER, 0, "multi-port", "shared"), 0, "SHARED link bus");
    EXPECT(routed(REDUCE, 0, "one-port", "shared"), 0, "SHARED link bus");
    for (int kind = BROADCAST; kind < N_KINDS; kind++)
        EXPECT(routed(kind, 0, "one-port", "shared"), 0, "SHARED link bus is loaded longer");
    /* one flow of 2 over the FATPIPE bus (its first link) in [0,1) */
    json_t *r = routed(SCATTER, 0, "one-port", "fatpipe");
    json_t *x = json_array_get(json_object_get(json_array_get(json_object_get(r, "slots"), 0),
                                               "transfers"), 0);
    json_object_set_new(x, "amount", json_string("2"));
    EXPECT(r, 0, "slot 0: the flow A->B alone is busy longer than the slot on FATPIPE link bus");
}

/* Periodic one-port hosts: a host's sends add up within the slot; a
 * multi-port host has no such rule. */
static void test_periodic_hosts(void)
{
    for (int one = 0; one <= 1; one++) {
        json_t *r = routed(SCATTER, 0, one ? "one-port" : "multi-port", NULL);
        json_t *slots = json_pack(
                "[{s:s,s:s,s:[{s:s,s:s,s:s,s:s,s:s},{s:s,s:s,s:s,s:s,s:s}]}]", "start", "0",
                "end", "1", "transfers", "from", "A", "to", "B", "origin", "A", "dest", "B",
                "amount", "1", "from", "A", "to", "C", "origin", "A", "dest", "C", "amount",
                "1/2");
        json_object_set_new(r, "slots", slots);
        json_object_del(r, "figures");
        char why[512];
        int got = check(r, why, sizeof why, 0);
        CU_ASSERT(got == 0);
        if (one) {
            CU_ASSERT(strstr(why, "slot 0: one-port host A sends longer than the slot") != NULL);
        } else { /* the slot is fine; what it carries is not the problem's */
            CU_ASSERT(strstr(why, "host") == NULL);
        }
    }
}

/* A broadcast from A at TP 3/2 with multi-port hosts: A sends on both of
 * its links at once (A->B 2 and A->C 1 x c 2 in a period of 2), which the
 * graph model's whole-period port rule would refuse; one-port hosts may
 * not. */
static void test_periodic_multiport_broadcast(void)
{
    for (int one = 0; one <= 1; one++) {
        json_t *r = routed(BROADCAST, 0, one ? "one-port" : "multi-port", NULL);
        json_t *upd = json_pack(
                "{s:s,s:s,s:s,s:[{s:s,s:s,s:[{s:s,s:s,s:s},{s:s,s:s,s:s},{s:s,s:s,s:s},"
                "{s:s,s:s,s:s}]}],s:[{s:s,s:[[s,s],[s,s]]},{s:s,s:[[s,s],[s,s]]}],s:s,s:b,"
                "s:{s:i,s:i,s:i,s:f,s:s,s:s}}",
                "throughput", "3/2", "period", "2", "operations_per_period", "3", "slots",
                "start", "0", "end", "2", "transfers", "from", "A", "to", "B", "amount", "2",
                "from", "B", "to", "C", "amount", "2", "from", "A", "to", "C", "amount", "1",
                "from", "C", "to", "B", "amount", "1", "arborescences", "count", "2", "arcs", "A",
                "B", "B", "C", "count", "1", "arcs", "A", "C", "C", "B", "upper_bound", "3/2",
                "optimal", 1, "figures", "matchings", 1, "bound", 1, "bipartite_edges", 4,
                "decompose_seconds", 0.0, "lcm_period", "2", "nosplit_factor", "1");
        CU_ASSERT_FATAL(upd != NULL);
        json_object_update(r, upd);
        json_decref(upd);
        if (one)
            EXPECT(r, 0, "slot 0: one-port host A sends longer than the slot");
        else
            EXPECT(r, 1, "");
    }
}

/* Unrolled: two bandwidth phases on one SHARED link, each its bottleneck
 * (share 1): over capacity; none on a FATPIPE. */
static void test_unrolled_links(void)
{
    EXPECT(routed(SCATTER, 1, "one-port", "shared"), 0,
           "SHARED link bus is over its capacity at time");
    EXPECT(routed(SCATTER, 1, "multi-port", "shared"), 0, "SHARED link bus is over its capacity");
    EXPECT(routed(REDUCE, 1, "one-port", "shared"), 0, "SHARED link bus is over its capacity");
    for (int kind = BROADCAST; kind < N_KINDS; kind++)
        EXPECT(routed(kind, 1, "one-port", "shared"), 0, "SHARED link bus is over its capacity");
    /* latency phases take no link: with l = 0 on the bus only the private
     * links' latencies separate them, and the FATPIPE holds nothing */
    EXPECT(routed(SCATTER, 1, "one-port", "fatpipe"), 1, "");
}

/* Unrolled one-port hosts: A's second send (op 0's A->C message, sent
 * direct at 1 for 1/5 + 2) overlaps its send of op 1 at 2. */
static void test_unrolled_hosts(void)
{
    for (int one = 0; one <= 1; one++) {
        json_t *r = routed(SCATTER, 1, one ? "one-port" : "multi-port", NULL);
        json_t *x = json_array_get(json_object_get(r, "transfers"), 1);
        CU_ASSERT_FATAL(!strcmp(json_string_value(json_object_get(x, "dest")), "C"));
        CU_ASSERT_FATAL(!strcmp(json_string_value(json_object_get(x, "start")), "1"));
        json_object_set_new(x, "to", json_string("C"));
        json_object_set_new(x, "end", json_string("16/5"));
        char why[512];
        int got = check(r, why, sizeof why, 0);
        CU_ASSERT(got == 0);
        if (one) {
            CU_ASSERT(strstr(why, "node A sends two messages at once") != NULL);
        } else { /* multi-port: the sends may overlap; op 0 reaches C twice */
            CU_ASSERT(strstr(why, "sends two") == NULL);
        }
    }
}

/* Multi-port hosts hold no port: A sends op 0 to B and to C at once, on
 * private links (K = 1; every figure for the routed optimum 3/4, LB1 = the
 * latency to C).  Valid (the fast path and the exact one alike); with
 * one-port hosts A sends two messages at once. */
static void test_unrolled_concurrent_sends(void)
{
    for (int one = 0; one <= 1; one++) {
        json_t *r = routed(SCATTER, 1, one ? "one-port" : "multi-port", NULL);
        json_t *upd = json_pack(
                "{s:i,s:[{s:s,s:s,s:s,s:s,s:s,s:s,s:i},{s:s,s:s,s:s,s:s,s:s,s:s,s:i}],"
                "s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}",
                "operations", 1, "transfers", "start", "0", "end", "11/10", "from", "A", "to",
                "B", "origin", "A", "dest", "B", "op", 0, "start", "0", "end", "11/5", "from",
                "A", "to", "C", "origin", "A", "dest", "C", "op", 0, "throughput", "3/4",
                "operations_per_period", "1", "period", "4/3", "pattern_throughput", "3/4",
                "makespan", "11/5", "steady_time", "4/3", "overhead", "13/15", "lb1", "1/5",
                "lower_bound", "4/3", "ratio", "33/20", "buffer_peak", "0");
        CU_ASSERT_FATAL(upd != NULL);
        json_object_update(r, upd);
        json_decref(upd);
        json_object_del(r, "periods");
        json_object_del(r, "buffer_node");
        if (one)
            EXPECT(r, 0, "node A sends two messages at once");
        else
            EXPECT(r, 1, "");
    }
}

/* The throughput of a routed file is the routed platform's: the same
 * events with multi-port hosts claim less than the routed optimum. */
static json_t *multi_scatter(void)
{
    /* LB1 without ports (multi-port hosts hold none): the scatter's
     * latency-only distance to C, 1/5, not the one-port 21/10 */
    json_t *r = routed(SCATTER, 1, "multi-port", NULL);
    CU_ASSERT(!strcmp(json_string_value(json_object_get(r, "lb1")), "21/10"));
    json_object_set_new(r, "lb1", json_string("1/5"));
    return r;
}

static void test_throughput(void)
{
    EXPECT(routed(SCATTER, 1, "multi-port", NULL), 0, "\"lb1\" is not what the events give");
    EXPECT(multi_scatter(), 0, "throughput 1/2 (0.5) is not the certified optimum 3/4");
    EXPECT(routed(REDUCE, 1, "multi-port", NULL), 0, "is not the certified optimum 5/4");
    /* trusted, the events themselves are valid */
    char why[512];
    CU_ASSERT(check(multi_scatter(), why, sizeof why, 1) == 1);
    /* forged: the one-port file claiming 4/9 (< 1/2, the routed optimum),
     * every figure derived from the claim stated consistently with it */
    json_t *r = routed(SCATTER, 1, "one-port", NULL);
    CU_ASSERT_FATAL(!strcmp(json_string_value(json_object_get(r, "makespan")), "46/5"));
    static const char *const forged[][2] = {
        {"throughput", "4/9"}, {"steady_time", "9"}, {"overhead", "1/5"},
        {"lower_bound", "9"}, {"ratio", "46/45"}, {"period", "9/4"},
        {"pattern_throughput", "4/9"}};
    for (size_t k = 0; k < sizeof forged / sizeof forged[0]; k++)
        json_object_set_new(r, forged[k][0], json_string(forged[k][1]));
    EXPECT(r, 0, "throughput 4/9 (0.444444444) is not the certified optimum 1/2");
}

/* `ssched check` on routed files: exit 2 with one line for a malformed
 * header, 1 with the violation for a broken rule. */
static void test_cli(void)
{
    json_t *r = routed(SCATTER, 0, "one-port", NULL);
    json_object_set_new(link_(r, 0), "sharing", json_string("half"));
    char *text = json_dumps(r, 0);
    json_decref(r);
    const char *bad = tu_tmp_path("bad_routed.json");
    CU_ASSERT_FATAL(tu_write_file(bad, text) == 0);
    free(text);
    tu_run_t run;
    tu_run(&run, "check %s", bad);
    CU_ASSERT(run.status == 2);
    CU_ASSERT(tu_count_lines(run.err) == 1);
    CU_ASSERT(strstr(run.err, "platform.links[0]: \"sharing\" must be") != NULL);
    tu_run_free(&run);
    r = routed(SCATTER, 1, "one-port", "shared");
    text = json_dumps(r, 0);
    json_decref(r);
    const char *inv = tu_tmp_path("inv_routed.json");
    CU_ASSERT_FATAL(tu_write_file(inv, text) == 0);
    free(text);
    tu_run(&run, "check %s", inv);
    CU_ASSERT(run.status == 1);
    CU_ASSERT(strstr(run.out, "INVALID: SHARED link bus is over its capacity at time") != NULL);
    tu_run_free(&run);
    r = routed(REDUCE, 1, "one-port", NULL);
    text = json_dumps(r, 0);
    json_decref(r);
    CU_ASSERT_FATAL(tu_write_file(inv, text) == 0);
    free(text);
    tu_run(&run, "check %s", inv);
    CU_ASSERT(run.status == 0);
    tu_run_free(&run);
}

/* The routed keys are in the JSON Schemas (schemas/, as test_schemas.c
 * validates): routed files of both formats validate; the routed keys
 * come together. */
static int schema_valid(json_t *root, const char *schema)
{
    char *text = json_dumps(root, JSON_INDENT(1));
    json_decref(root);
    const char *doc = tu_tmp_path("schema_doc.json");
    CU_ASSERT_FATAL(text && tu_write_file(doc, text) == 0);
    free(text);
    tu_run_t r;
    int st = tu_sh(&r, "/usr/bin/python3 '%s/tests/validate_json.py' "
                       "'%s/schemas/ssched-%s.schema.json' '%s'",
                   SSCHED_SOURCE_DIR, SSCHED_SOURCE_DIR, schema, doc);
    if (st != 0)
        fprintf(stderr, "\n  %s: %s", schema, r.err ? r.err : "");
    tu_run_free(&r);
    return st == 0;
}

static void test_schemas(void)
{
    for (int kind = SCATTER; kind < N_KINDS; kind++) {
        CU_ASSERT(schema_valid(routed(kind, 0, "one-port", "fatpipe"), "schedule-1"));
        CU_ASSERT(schema_valid(routed(kind, 1, "multi-port", NULL), "unrolled-2"));
    }
    json_t *r = routed(SCATTER, 0, "one-port", NULL);
    json_object_del(json_object_get(r, "platform"), "model");
    CU_ASSERT(!schema_valid(r, "schedule-1"));
    r = routed(SCATTER, 1, "one-port", NULL);
    json_object_set_new(link_(r, 0), "sharing", json_string("splitduplex"));
    CU_ASSERT(!schema_valid(r, "unrolled-2"));
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"valid routed files", test_valid},
        {"malformed routed headers", test_header},
        {"periodic link loads", test_periodic_links},
        {"periodic one-port hosts", test_periodic_hosts},
        {"periodic multi-port broadcast", test_periodic_multiport_broadcast},
        {"unrolled exclusive SHARED links", test_unrolled_links},
        {"unrolled one-port hosts", test_unrolled_hosts},
        {"unrolled concurrent sends of multi-port hosts", test_unrolled_concurrent_sends},
        {"throughput solved on the routed platform", test_throughput},
        {"ssched check on routed files", test_cli},
        {"routed keys in the JSON Schemas", test_schemas},
        {NULL, NULL},
    };
    return tu_main("check_routed", tests);
}
