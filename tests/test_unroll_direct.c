/* The direct (one-level) pattern as a candidate of the unrolling planner
 * (issue 22; schedule/unroll_direct.c): it wins, strictly, where the LP
 * pattern's relay pays a large latency, and the file passes the checker;
 * it loses, and the LP pattern is kept, where relaying costs nothing; the
 * plan (auto) is never worse than either pattern alone, on every problem
 * (commutative reduces too) and model; the CLI's --pattern and its summary
 * line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define TIERS SSCHED_SOURCE_DIR "/examples/tiers-small.graphml"

static void set_q(mpq_t q, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(mpq_set_str(q, text, 10), 0);
    mpq_canonicalize(q);
}

/* S -> A (c 1), A -> B (c 1, latency `lat`), S -> B (c 2); one-port.  A
 * scatter from S to A and B: the LP sends B's messages through A (S's
 * port: 1 + 1 per operation, TP 1/2), the direct pattern on S -> B (S's
 * port: 1 + 2, 1/3). */
static void relay_platform(ssched_platform_t *p, const char *lat)
{
    ssched_error_t err;
    ssched_platform_init(p);
    mpq_t one, two, l;
    mpq_inits(one, two, l, NULL);
    mpq_set_ui(one, 1, 1);
    mpq_set_ui(two, 2, 1);
    set_q(l, lat);
    const char *names[] = {"S", "A", "B"};
    for (int i = 0; i < 3; i++) {
        size_t id;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, names[i], one, &id, &err), SSCHED_OK);
    }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, 0, 1, one, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, 1, 2, one, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, 0, 2, two, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(p, 1, l, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, &err), SSCHED_OK);
    mpq_clears(one, two, l, NULL);
}

/* Plan with `which`, unroll in memory, check the JSON with the independent
 * checker (the TP claim solved again); makespan into ms; returns
 * unroll_direct (-1 when the plan is refused). */
static int plan_checked(const ssched_platform_t *p, const ssched_problem_t *pb,
                        const ssched_steady_t *st, size_t K, ssched_pattern_t which, mpq_t ms)
{
    ssched_error_t err;
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    if (ssched_unroll_plan_pattern(p, pb, st, K, NULL, 0, which, &s, &err) != SSCHED_OK) {
        ssched_schedule_free(&s);
        return -1;
    }
    int direct = s.unroll_direct;
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    ssched_status_t rc = ssched_unroll(p, pb, &s, K, &u, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  unroll: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    char *text = tu_unrolled_json(p, pb, &s, &u);
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 1)
        fprintf(stderr, "\n  kind %d K=%zu pattern %s: %s\n", (int)pb->kind, K,
                ssched_pattern_name(which), why);
    CU_ASSERT_EQUAL(valid, 1);
    /* the file claims the problem's certified TP, whichever pattern */
    CU_ASSERT(mpq_equal(u.fig.throughput, st->throughput));
    free(text);
    mpq_set(ms, u.fig.makespan);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    return direct;
}

static void scatter_relay(const char *lat, size_t K, mpq_t lp, mpq_t direct, mpq_t aut,
                          int *chosen)
{
    ssched_platform_t p;
    relay_platform(&p, lat);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "S", "A,B", &err), SSCHED_OK);
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(st.throughput, "1/2"));
    CU_ASSERT_EQUAL(plan_checked(&p, &pb, &st, K, SSCHED_PATTERN_LP, lp), 0);
    CU_ASSERT_EQUAL(plan_checked(&p, &pb, &st, K, SSCHED_PATTERN_DIRECT, direct), 1);
    *chosen = plan_checked(&p, &pb, &st, K, SSCHED_PATTERN_AUTO, aut);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Latency 1000 on the relay's hop, K = 10: the LP pattern waits for it
 * (more than 1000), the direct one does not (3 per operation: about 30). */
static void test_direct_wins(void)
{
    mpq_t lp, direct, aut;
    mpq_inits(lp, direct, aut, NULL);
    int chosen = -1;
    scatter_relay("1000", 10, lp, direct, aut, &chosen);
    CU_ASSERT(mpq_cmp_ui(lp, 1000, 1) > 0);
    CU_ASSERT(mpq_cmp_ui(direct, 40, 1) < 0);
    CU_ASSERT(mpq_cmp(direct, lp) < 0);
    CU_ASSERT_EQUAL(chosen, 1);
    CU_ASSERT(mpq_equal(aut, direct));
    mpq_clears(lp, direct, aut, NULL);
}

/* A reduce of T's and A's values to T: A -> R (c 1), R -> T (c 1, latency
 * 1000), A -> T (c 2), R a router, w = 1/10.  The LP relays A's value
 * through R (TP 1), the direct pattern sends it on A -> T (1/2); for K = 10
 * the relay's latency makes the direct pattern faster, and it is chosen. */
static void test_direct_reduce_wins(void)
{
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_init(&p);
    mpq_t one, two, w, l;
    mpq_inits(one, two, w, l, NULL);
    mpq_set_ui(one, 1, 1);
    mpq_set_ui(two, 2, 1);
    set_q(w, "1/10");
    set_q(l, "1000");
    size_t T, A, R;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&p, "T", w, &T, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&p, "A", w, &A, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&p, "R", NULL, &R, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&p, A, R, one, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&p, R, T, one, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&p, A, T, two, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(&p, 1, l, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, &err), SSCHED_OK);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "T,A", "T", &err), SSCHED_OK);
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(st.throughput, "1"));
    mpq_t lp, direct, aut;
    mpq_inits(lp, direct, aut, NULL);
    CU_ASSERT_EQUAL(plan_checked(&p, &pb, &st, 10, SSCHED_PATTERN_LP, lp), 0);
    CU_ASSERT_EQUAL(plan_checked(&p, &pb, &st, 10, SSCHED_PATTERN_DIRECT, direct), 1);
    CU_ASSERT_EQUAL(plan_checked(&p, &pb, &st, 10, SSCHED_PATTERN_AUTO, aut), 1);
    CU_ASSERT(mpq_cmp_ui(lp, 1000, 1) > 0);
    CU_ASSERT(mpq_cmp_ui(direct, 40, 1) < 0);
    CU_ASSERT(mpq_equal(aut, direct));
    mpq_clears(lp, direct, aut, one, two, w, l, NULL);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* No latency, K = 100: the LP pattern (2 per operation) beats the direct
 * one (3) and is kept. */
static void test_direct_loses(void)
{
    mpq_t lp, direct, aut;
    mpq_inits(lp, direct, aut, NULL);
    int chosen = -1;
    scatter_relay("0", 100, lp, direct, aut, &chosen);
    CU_ASSERT(mpq_cmp(lp, direct) < 0);
    CU_ASSERT(mpq_cmp_ui(direct, 300, 1) >= 0);
    CU_ASSERT_EQUAL(chosen, 0);
    CU_ASSERT(mpq_equal(aut, lp));
    mpq_clears(lp, direct, aut, NULL);
}

/* tiers-small, 1 KB messages (c, w x 1024/10^8) with tier latencies, one
 * port and routers as switches: every problem's auto plan is no worse than
 * the LP pattern alone nor than the direct one alone, and all pass the
 * checker. */
static void test_never_worse(void)
{
    static const char *const kinds[] = {"scatter",   "gossip",    "reduce",   "broadcast",
                                        "allreduce", "reduce c.", "allreduce c."};
    mpq_t f, l, lp, direct, aut;
    mpq_inits(f, l, lp, direct, aut, NULL);
    set_q(f, "1024/100000000");
    for (int sw = 0; sw < 2; sw++) {
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            ssched_platform_t p;
            ssched_platform_init(&p);
            ssched_error_t err;
            CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, TIERS, &err), SSCHED_OK);
            for (size_t e = 0; e < p.n_edges; e++) {
                const char *a = p.names[p.from[e]], *b = p.names[p.to[e]];
                int wan = !strncmp(a, "wan", 3) || !strncmp(b, "wan", 3);
                set_q(l, wan ? "1/1000" : (a[0] == 'h' || b[0] == 'h') ? "1/100000" : "1/10000");
                mpq_mul(p.c[e], p.c[e], f);
                CU_ASSERT_EQUAL(ssched_platform_set_latency(&p, e, l, &err), SSCHED_OK);
            }
            for (size_t i = 0; i < p.n_nodes; i++)
                mpq_mul(p.w[i], p.w[i], f);
            /* --routers switch: the routers (no w) become switches */
            CU_ASSERT_PTR_NOT_NULL_FATAL(p.multiport);
            for (size_t i = 0; sw && i < p.n_nodes; i++)
                p.multiport[i] = !p.has_w[i];
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            ssched_status_t ps;
            const char *three = "h0_0_1_0,h1_0_0_1,h1_0_1_2";
            switch (k) {
            case 0: ps = ssched_problem_set_scatter(&pb, &p, "h0_0_0_0", three, &err); break;
            case 1: ps = ssched_problem_set_gossip(&pb, &p, "h0_0_0_0,h0_0_1_0,h1_0_0_1",
                                                   "h0_0_0_0,h0_0_1_0,h1_0_0_1", &err);
                break;
            case 2: ps = ssched_problem_set_reduce(&pb, &p, "h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0",
                                                   "h0_0_0_0", &err);
                break;
            case 3: ps = ssched_problem_set_broadcast(&pb, &p, "h0_0_0_0", sw ? three : NULL, &err);
                break;
            case 5:
                ps = ssched_problem_set_reduce(&pb, &p, "h0_0_0_0,h0_0_1_0,h1_0_0_1", "h0_0_0_0",
                                               &err);
                pb.commutative = 1;
                break;
            default:
                ps = ssched_problem_set_allreduce(&pb, &p, "h0_0_0_0,h0_0_1_0,h1_0_0_1,h1_0_1_2",
                                                  NULL, k == 6, &err);
                break;
            }
            CU_ASSERT_EQUAL_FATAL(ps, SSCHED_OK);
            ssched_steady_t st;
            ssched_steady_init(&st);
            CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
            size_t K = 20;
            CU_ASSERT_EQUAL(plan_checked(&p, &pb, &st, K, SSCHED_PATTERN_LP, lp), 0);
            int d = plan_checked(&p, &pb, &st, K, SSCHED_PATTERN_DIRECT, direct);
            CU_ASSERT_EQUAL(d, 1);
            int a = plan_checked(&p, &pb, &st, K, SSCHED_PATTERN_AUTO, aut);
            CU_ASSERT(a == 0 || a == 1);
            CU_ASSERT(mpq_cmp(aut, lp) <= 0);
            if (d == 1)
                CU_ASSERT(mpq_cmp(aut, direct) <= 0);
            ssched_steady_free(&st);
            ssched_problem_free(&pb);
            ssched_platform_free(&p);
        }
    }
    mpq_clears(f, l, lp, direct, aut, NULL);
}

/* The CLI: --pattern, its summary line, the file checked; bad uses exit 2
 * with one line. */
static void test_cli(void)
{
    char plat[512], out[512];
    snprintf(plat, sizeof plat, "%s", tu_tmp_path("relay.graphml"));
    snprintf(out, sizeof out, "%s", tu_tmp_path("relay.json"));
    CU_ASSERT_EQUAL_FATAL(tu_write_file(
        plat, "<?xml version=\"1.0\"?>\n"
              "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
              "  <key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
              "  <key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
              "  <key id=\"l\" for=\"edge\" attr.name=\"l\" attr.type=\"string\"/>\n"
              "  <graph edgedefault=\"directed\">\n"
              "    <node id=\"S\"><data key=\"w\">1</data></node>\n"
              "    <node id=\"A\"><data key=\"w\">1</data></node>\n"
              "    <node id=\"B\"><data key=\"w\">1</data></node>\n"
              "    <edge source=\"S\" target=\"A\"><data key=\"c\">1</data></edge>\n"
              "    <edge source=\"A\" target=\"B\"><data key=\"c\">1</data>"
              "<data key=\"l\">1000</data></edge>\n"
              "    <edge source=\"S\" target=\"B\"><data key=\"c\">2</data></edge>\n"
              "  </graph>\n</graphml>\n"),
                          0);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scatter --source S --targets A,B "
                               "--operations 10 --unroll -o %s",
                           plat, out),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pattern: direct"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checked: valid"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check %s", out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scatter --source S --targets A,B "
                               "--operations 10 --unroll --pattern lp -o %s",
                           plat, out),
                    0);
    CU_ASSERT_PTR_NULL(strstr(r.out, "pattern: direct"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pattern: period"));
    tu_run_free(&r);
    static const char *const bad[] = {"--operations 10 --unroll --pattern some -o X",
                                      "--pattern lp",
                                      "--operations 10 --unroll --pattern lp --pattern lp -o X",
                                      "--fixed-period 4 --operations 10 --unroll --pattern lp "
                                      "-o X"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scatter --source S --targets A,B %s",
                               plat, bad[k]),
                        2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
}

/* The makespan the CLI's summary states ("time for K operations: X (").
 * 0 if absent. */
static int summary_makespan(const char *text, mpq_t out)
{
    const char *k = text ? strstr(text, "time for K operations: ") : NULL;
    if (!k)
        return 0;
    k += strlen("time for K operations: ");
    char buf[256];
    size_t n = strcspn(k, " ");
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, k, n);
    buf[n] = 0;
    if (mpq_set_str(out, buf, 10) != 0)
        return 0;
    mpq_canonicalize(out);
    return 1;
}

/* A routed platform (tiers-small exported to SimGrid and read back, so
 * every host pair is one overlay edge with its route): every problem plans
 * a direct pattern that passes the checker, and auto is no worse than
 * either pattern alone. */
static void test_routed(void)
{
    char xml[512], hosts[512], out[512];
    snprintf(xml, sizeof xml, "%s", tu_tmp_path("tiers.xml"));
    snprintf(hosts, sizeof hosts, "%s", tu_tmp_path("tiers.hosts"));
    snprintf(out, sizeof out, "%s", tu_tmp_path("routed.json"));
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "export simgrid %s -o %s --hostfile %s --unit-bytes 1000",
                                 TIERS, xml, hosts),
                          0);
    tu_run_free(&r);
    static const char *const problems[] = {
        "--problem scatter --source h0_0_0_0 --targets h0_0_1_0,h1_0_0_1,h1_0_1_2",
        "--problem gossip --sources h0_0_0_0,h1_0_0_1 --targets h0_0_1_0,h1_0_1_2",
        "--problem reduce --participants h0_0_0_0,h0_0_1_0,h1_0_0_1 --target h0_0_0_0",
        "--problem broadcast --source h0_0_0_0 --targets h0_0_1_0,h1_0_0_1,h1_0_1_2",
        "--problem allreduce --participants h0_0_0_0,h0_0_1_0,h1_0_0_1"};
    static const char *const pats[] = {"lp", "direct", "auto"};
    mpq_t t[3];
    for (int k = 0; k < 3; k++)
        mpq_init(t[k]);
    for (size_t i = 0; i < sizeof problems / sizeof *problems; i++) {
        for (int k = 0; k < 3; k++) {
            CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --unit-bytes 1000 %s --operations 20 "
                                       "--unroll --pattern %s -o %s",
                                   xml, problems[i], pats[k], out),
                            0);
            CU_ASSERT(summary_makespan(r.out, t[k]));
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checked: valid"));
            if (k == 1)
                CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pattern: direct"));
            tu_run_free(&r);
        }
        CU_ASSERT(mpq_cmp(t[2], t[0]) <= 0);
        CU_ASSERT(mpq_cmp(t[2], t[1]) <= 0);
    }
    for (int k = 0; k < 3; k++)
        mpq_clear(t[k]);
}

int main(void)
{
    const tu_test_t tests[] = {
        {"a relay with a large latency: the direct pattern wins, checked", test_direct_wins},
        {"a reduce behind a slow relay: the direct pattern wins", test_direct_reduce_wins},
        {"no latency: the LP pattern is kept", test_direct_loses},
        {"tiers-small 1 KB: never worse than either pattern", test_never_worse},
        {"--pattern and the summary", test_cli},
        {"routed (SimGrid) platform: direct patterns checked, auto no worse", test_routed},
        {NULL, NULL}};
    return tu_main("unroll_direct", tests);
}
