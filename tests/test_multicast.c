/* Multicast schedules (issue 14, items 1, 5 and 6): periodic schedules from
 * the solution's weighted Steiner arborescences, their unrolled form, and
 * the checker's multicast semantics.
 *
 * Hand case (derived below): a multicast whose achievable TP (1/2) is
 * strictly below the edge LP's upper bound (2/3); its schedule is built,
 * checked, unrolled and checked, and hand-broken copies of both files are
 * rejected with the violation named.  A broadcast on `gen tiers` with the
 * routers as switches (a multicast: a switch is never a target) is built,
 * unrolled and checked.  Bad input: the source among its own targets, a
 * multicast by the edge LP alone (only an upper bound: nothing to
 * schedule). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/gen.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define EDGE(a, b, c) "<edge source=\"" a "\" target=\"" b "\"><data key=\"c\">" c "</data></edge>\n"

/* r -> a, b, c (c = 1); a -> t1, t2; b -> t2, t3; c -> t3, t1 (c = 1/10);
 * multicast r -> t1, t2, t3.
 *  - Edge LP: copies r->x = TP/2 for every relay x and x -> its two
 *    targets TP/2 each; every target then gets TP/2 from each of its two
 *    relays, a flow of TP; r's out-port is busy 3 TP/2 <= 1: bound 2/3.
 *  - Achievable: no relay reaches all three targets, so every Steiner
 *    arborescence sends at least two copies out of r (cost 1 each): TP <=
 *    1/2, reached by r->a, r->b, a->t1, a->t2, b->t3 (the relays' ports
 *    are busy 2/10 and 1/10 per message).  Optimal multicast TP = 1/2 <
 *    2/3; the pricing is exact (3 relays <= 12), so it is proven optimal. */
static const char *relay_platform(void)
{
    const char *path = tu_tmp_path("relays.graphml");
    static const char text[] =
        "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        "<graph edgedefault=\"directed\">\n"
        "<node id=\"r\"/><node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>"
        "<node id=\"t1\"/><node id=\"t2\"/><node id=\"t3\"/>\n"
        EDGE("r", "a", "1") EDGE("r", "b", "1") EDGE("r", "c", "1")
        EDGE("a", "t1", "1/10") EDGE("a", "t2", "1/10") EDGE("b", "t2", "1/10")
        EDGE("b", "t3", "1/10") EDGE("c", "t3", "1/10") EDGE("c", "t1", "1/10")
        "</graph></graphml>\n";
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    return path;
}

static void expect(const char *text, int want, const char *msg)
{
    char why[600];
    int v = tu_check_text(text, why, sizeof why);
    if (v != want || (msg && !strstr(why, msg)))
        fprintf(stderr, "\n  expected %d '%s', got %d: %s\n", want, msg ? msg : "", v, why);
    CU_ASSERT_EQUAL(v, want);
    if (msg)
        CU_ASSERT_PTR_NOT_NULL(strstr(why, msg));
}

/* Check a mutated copy of root (consumed). */
static void expect_json(json_t *root, int want, const char *msg)
{
    char *t = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    expect(t, want, msg);
    free(t);
    json_decref(root);
}

typedef struct {
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t st;
} instance_t;

static void instance_load(instance_t *x, const char *source, const char *targets)
{
    ssched_platform_init(&x->p);
    ssched_problem_init(&x->pb);
    ssched_steady_init(&x->st);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&x->p, relay_platform(), &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&x->pb, &x->p, source, targets, &err),
                          SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&x->p, &x->pb, NULL, &x->st, &err), SSCHED_OK);
}

static void instance_free(instance_t *x)
{
    ssched_steady_free(&x->st);
    ssched_problem_free(&x->pb);
    ssched_platform_free(&x->p);
}

static json_t *arb_arcs(json_t *r, size_t i)
{
    return json_object_get(json_array_get(json_object_get(r, "arborescences"), i), "arcs");
}

/* The periodic schedule of the hand case and hand-broken copies of it. */
static void test_hand_periodic(void)
{
    instance_t x;
    instance_load(&x, "r", "t1,t2,t3");
    CU_ASSERT(x.st.multicast);
    CU_ASSERT(tu_mpq_equals(x.st.throughput, "1/2"));
    CU_ASSERT(tu_mpq_equals(x.st.upper_bound, "2/3"));
    CU_ASSERT(x.st.optimal);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&x.p, &x.pb, &x.st, NULL, &s, &err), SSCHED_OK);
    CU_ASSERT(s.multicast);
    CU_ASSERT(tu_mpq_equals(s.throughput, "1/2"));
    CU_ASSERT(tu_mpq_equals(s.upper_bound, "2/3"));
    /* every arborescence: two relays (no relay reaches all three targets),
     * so five arcs, and never a relay leaf */
    for (size_t i = 0; i < s.arborescences.count; i++)
        CU_ASSERT_EQUAL(s.arborescences.items[i].n_arcs, 5);
    char *text = tu_schedule_json(&x.p, &x.pb, &s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    expect(text, 1, NULL);
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "upper_bound")), "2/3");
    CU_ASSERT(json_is_true(json_object_get(root, "optimal")));

    /* a target left out: drop the arborescence's last arc (into a target,
     * the arcs being sorted by head) */
    json_t *b = json_deep_copy(root);
    json_t *arcs = arb_arcs(b, 0);
    const char *head = json_string_value(json_array_get(json_array_get(arcs, 4), 1));
    CU_ASSERT(head && head[0] == 't');
    json_array_remove(arcs, 4);
    expect_json(b, 0, "does not reach node t");
    /* a relay that forwards without being reached: drop the first arc,
     * r -> a relay (arcs sorted by head: relays come before targets) */
    b = json_deep_copy(root);
    arcs = arb_arcs(b, 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_array_get(arcs, 0), 0)), "r");
    json_array_remove(arcs, 0);
    expect_json(b, 0, "does not reach node");
    /* the bound and the optimality claim */
    b = json_deep_copy(root);
    json_object_set_new(b, "upper_bound", json_string("1/3"));
    expect_json(b, 0, "upper_bound is below the throughput");
    b = json_deep_copy(root);
    json_object_set_new(b, "upper_bound", json_string("1/2"));
    json_object_set_new(b, "optimal", json_false());
    expect_json(b, 0, "optimal is false but the throughput reaches upper_bound");
    b = json_deep_copy(root);
    json_object_del(b, "upper_bound");
    expect_json(b, -1, "a multicast schedule states \"upper_bound\"");
    /* a count raised: the counts no longer add up, and the slots no longer
     * carry what the arborescences send */
    b = json_deep_copy(root);
    json_t *a0 = json_array_get(json_object_get(b, "arborescences"), 0);
    mpq_t q;
    mpq_init(q);
    mpq_set_str(q, json_string_value(json_object_get(a0, "count")), 10);
    mpq_add(q, q, q);
    char *cs = mpq_get_str(NULL, 10, q);
    json_object_set_new(a0, "count", json_string(cs));
    free(cs);
    mpq_clear(q);
    expect_json(b, 0, "add up to a number other than operations_per_period");
    /* the source listed among its own targets (malformed) */
    b = json_deep_copy(root);
    json_array_append_new(json_object_get(json_object_get(b, "problem"), "targets"),
                          json_string("r"));
    expect_json(b, -1, "listed among its targets");
    json_decref(root);
    free(text);
    ssched_schedule_free(&s);
    instance_free(&x);
}

static json_t *transfer(json_t *r, size_t k)
{
    return json_array_get(json_object_get(r, "transfers"), k);
}

static const char *field(json_t *x, const char *key)
{
    return json_string_value(json_object_get(x, key));
}

/* The unrolled hand case (K = 20) and hand-broken copies of it. */
static void test_hand_unrolled(void)
{
    instance_t x;
    instance_load(&x, "r", "t1,t2,t3");
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&x.p, &x.pb, &x.st, 20, NULL, 0, &s, &err),
                          SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&x.p, &x.pb, &s, 20, &u, &err), SSCHED_OK);
    /* five whole transfers per operation (two relays, three targets) */
    CU_ASSERT_EQUAL(u.n_transfers, 20 * 5);
    /* TP = 1/2: K / TP = 40; r's out-port sends 2 messages per operation
     * back to back, the last relay hop adds 1/10 */
    CU_ASSERT(tu_mpq_equals(u.fig.steady_time, "40"));
    CU_ASSERT(tu_mpq_equals(u.fig.makespan, "401/10"));
    CU_ASSERT(tu_mpq_equals(u.fig.lb1, "11/10"));
    char *text = tu_unrolled_json(&x.p, &x.pb, &s, &u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    expect(text, 1, NULL);
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    /* transfer 0 is op 0 from r to a relay over [0, 1] */
    json_t *t0 = transfer(root, 0);
    CU_ASSERT_STRING_EQUAL(field(t0, "from"), "r");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(t0, "op")), 0);
    const char *relay = field(t0, "to");
    /* op 0's first forward from that relay */
    size_t fwd = 0, into_target = 0;
    for (size_t k = json_array_size(json_object_get(root, "transfers")); k-- > 0;) {
        json_t *y = transfer(root, k);
        if (json_integer_value(json_object_get(y, "op")) != 0)
            continue;
        if (!strcmp(field(y, "from"), relay))
            fwd = k;
        if (field(y, "to")[0] == 't')
            into_target = k;
    }
    CU_ASSERT_FATAL(fwd > 0 && into_target > 0);
    /* a copy forwarded by a relay before it fully arrived: moved to
     * [1/2, 6/10], still in start order after transfer 0 */
    json_t *b = json_deep_copy(root), *tr = json_object_get(b, "transfers");
    json_t *y = json_deep_copy(json_array_get(tr, fwd));
    json_object_set_new(y, "start", json_string("1/2"));
    json_object_set_new(y, "end", json_string("3/5"));
    json_array_remove(tr, fwd);
    json_array_insert_new(tr, 1, y);
    expect_json(b, 0, "before it has fully arrived");
    /* a relay forwarding what it never received: transfer 0 becomes a
     * forward out of a relay that has nothing yet */
    b = json_deep_copy(root);
    y = transfer(b, 0);
    json_object_set_new(y, "from", json_string("a"));
    json_object_set_new(y, "to", json_string("t1"));
    json_object_set_new(y, "end", json_string("1/10"));
    expect_json(b, 0, "node a forwards message 0 before receiving it");
    /* a target missing an operation */
    b = json_deep_copy(root);
    json_array_remove(json_object_get(b, "transfers"), into_target);
    expect_json(b, 0, "never receives message 0");
    /* a useless copy once every target has op 0 */
    b = json_deep_copy(root);
    json_array_append_new(json_object_get(b, "transfers"),
                          json_pack("{ssssssssso}", "start", "1000", "end", "1001", "from", "r",
                                    "to", "c", "op", json_integer(0)));
    expect_json(b, 0, "message 0 moves to c after every target has it");
    /* LB1 is the farthest TARGET (1 + 1/10), not the farthest node */
    b = json_deep_copy(root);
    json_object_set_new(b, "lb1", json_string("1"));
    expect_json(b, 0, "\"lb1\" is not what the events give");
    json_decref(root);
    free(text);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    instance_free(&x);
}

/* Through the command line: schedule (text and file), check, unroll,
 * check; the figures printed. */
static void test_cli(void)
{
    const char *plat = relay_platform(), *out = tu_tmp_path("mc.json");
    const char *un = tu_tmp_path("mc_unrolled.json");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source r --targets t1,t2,t3 "
                               "-o '%s'", plat, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "achievable (certified feasible); upper bound 2/3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP proven optimal"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Steiner arborescences"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source r --targets t1,t2,t3 "
                               "--no-split --json", plat), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"upper_bound\": \"2/3\""));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source r --targets t1,t2,t3 "
                               "--operations 100 --unroll -o '%s'", plat, un), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checked: valid"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", un), 0);
    tu_run_free(&r);
    /* bad input: one line, exit 2 */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source r --targets t1,r "
                               "--operations 5 --unroll -o '%s'", plat, un), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the source 'r' is listed among its own targets"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source r --targets t1,t2,t3 "
                               "--method lp", plat), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "only an upper bound"));
    tu_run_free(&r);
}

/* Unroll K operations of s, check the file (streamed), return
 * makespan / (K / TP). */
static double unroll_checked(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const ssched_steady_t *st, unsigned long K)
{
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(p, pb, st, K, NULL, 0, &s, &err), SSCHED_OK);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    tu_stream_checked(p, pb, &s, K, "mc_stream.json", &fig, "multicast");
    mpq_t q;
    mpq_init(q);
    mpq_div(q, fig.makespan, fig.steady_time);
    double ratio = mpq_get_d(q);
    mpq_clear(q);
    ssched_unroll_figures_free(&fig);
    ssched_schedule_free(&s);
    return ratio;
}

/* `gen tiers` with the routers as switches: every host is a target, the
 * routers relay on all their links at once.  Periodic (split and no-split)
 * and unrolled schedules check; the throughput never exceeds the bound. */
static void test_switches(void)
{
    for (unsigned seed = 1; seed <= 3; seed++) {
        ssched_platform_t p;
        tu_small_tiers(&p, seed);
        ssched_error_t err;
        ssched_error_clear(&err);
        size_t host = tu_first_host(&p);
        for (size_t i = 0; i < p.n_nodes; i++)
            p.multiport[i] = !p.has_w[i];
        ssched_problem_t pb;
        ssched_steady_t st;
        ssched_problem_init(&pb);
        ssched_steady_init(&st);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, p.names[host], NULL, &err),
                              SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
        CU_ASSERT(st.multicast);
        CU_ASSERT(mpq_cmp(st.throughput, st.upper_bound) <= 0);
        for (int ns = 0; ns <= 1; ns++) {
            ssched_schedule_options_t so;
            ssched_schedule_options_default(&so);
            so.no_split = ns;
            ssched_schedule_t s;
            ssched_schedule_init(&s);
            CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&p, &pb, &st, &so, &s, &err), SSCHED_OK);
            CU_ASSERT(mpq_equal(s.throughput, st.throughput));
            char *text = tu_schedule_json(&p, &pb, &s);
            CU_ASSERT_PTR_NOT_NULL_FATAL(text);
            CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"ports\": \"multi\""));
            expect(text, 1, NULL);
            free(text);
            ssched_schedule_free(&s);
        }
        static const unsigned long Ks[] = {1, 7, 60};
        for (size_t k = 0; k < 3; k++)
            fprintf(stderr, "[switch tiers %u K=%lu: %.4f] ", seed, Ks[k],
                    unroll_checked(&p, &pb, &st, Ks[k]));
        ssched_steady_free(&st);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* Random small platforms, multicasts from P0 to every second other node:
 * TP <= bound; periodic (split, no-split) and unrolled schedules check. */
static void test_random(void)
{
    int built = 0, gaps = 0;
    for (unsigned n = 4; n <= 8; n++)
        for (unsigned rep = 0; rep < 3; rep++) {
            ssched_platform_t p;
            tu_random_platform(&p, n);
            char targets[256] = "";
            for (unsigned v = 1; v < n; v += 2)
                snprintf(targets + strlen(targets), sizeof targets - strlen(targets), "%sP%u",
                         v > 1 ? "," : "", v);
            ssched_problem_t pb;
            ssched_steady_t st;
            ssched_problem_init(&pb);
            ssched_steady_init(&st);
            ssched_error_t err;
            ssched_error_clear(&err);
            CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "P0", targets, &err),
                                  SSCHED_OK);
            CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
            CU_ASSERT(mpq_cmp(st.throughput, st.upper_bound) <= 0);
            gaps += mpq_cmp(st.throughput, st.upper_bound) < 0;
            for (int ns = 0; mpq_sgn(st.throughput) > 0 && ns <= 1; ns++) {
                ssched_schedule_options_t so;
                ssched_schedule_options_default(&so);
                so.no_split = ns;
                ssched_schedule_t s;
                ssched_schedule_init(&s);
                CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&p, &pb, &st, &so, &s, &err),
                                      SSCHED_OK);
                char *text = tu_schedule_json(&p, &pb, &s);
                CU_ASSERT_PTR_NOT_NULL_FATAL(text);
                expect(text, 1, NULL);
                free(text);
                ssched_schedule_free(&s);
                built++;
            }
            static const unsigned long Ks[] = {1, 5, 20};
            for (size_t k = 0; mpq_sgn(st.throughput) > 0 && k < 3; k++)
                unroll_checked(&p, &pb, &st, Ks[k]);
            ssched_steady_free(&st);
            ssched_problem_free(&pb);
            ssched_platform_free(&p);
        }
    fprintf(stderr, "[%d schedules, %d instances below the bound] ", built, gaps);
    CU_ASSERT(built >= 20);
}

/* tiers-46: multicasts to a few hosts (Steiner packing) and the broadcast
 * with switch routers, through the CLI; every file checks.  Prints the
 * achievable TP against the bound and makespan / (K/TP). */
static void test_tiers46(void)
{
    const char *plat = SSCHED_SOURCE_DIR "/examples/tiers-46.graphml";
    const char *out = tu_tmp_path("t46.json");
    char hosts[4096];
    ssched_platform_t p;
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, plat, NULL), SSCHED_OK);
    size_t src = 0;
    while (!p.has_w[src])
        src++;
    tu_host_list(&p, 6, 5, 1, hosts, sizeof hosts); /* not host 0, the source */
    char opts[2][4200];
    snprintf(opts[0], sizeof opts[0], "--source %s --targets %s", p.names[src], hosts);
    snprintf(opts[1], sizeof opts[1], "--source %s --routers switch", p.names[src]);
    for (int k = 0; k < 2; k++) {
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast %s -o '%s'", plat, opts[k],
                               out), 0);
        const char *line = strstr(r.out, "throughput TP");
        if (line)
            fprintf(stderr, "[tiers-46 %s: %.*s] ", k ? "switch" : "multicast",
                    (int)strcspn(line, "\n"), line);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast %s --operations 100 "
                                   "--unroll -o '%s'", plat, opts[k], out), 0);
        line = strstr(r.out, "makespan / LB(K)");
        if (line)
            fprintf(stderr, "[K=100 %.*s] ", (int)strcspn(line, "\n"), line);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
        tu_run_free(&r);
    }
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"hand multicast (TP 1/2 < bound 2/3): periodic schedule, broken files",
         test_hand_periodic},
        {"hand multicast unrolled, broken files", test_hand_unrolled},
        {"CLI: schedule, check, unroll; bad input", test_cli},
        {"gen tiers with switch routers: periodic and unrolled", test_switches},
        {"random platforms: multicast schedules, periodic and unrolled", test_random},
        {"tiers-46: multicast and switch broadcast through the CLI", test_tiers46},
        {NULL, NULL}};
    return tu_main("multicast schedules", tests);
}
