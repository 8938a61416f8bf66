/* Periodic broadcast schedules (issue 14, items 1 and 5): weighted spanning
 * arborescences packed from the LP's copies, slots by weighted edge
 * colouring, and the independent checker's broadcast path.
 *
 *   - hand cases: chain P0->P1->P2 (TP 1, one arborescence, one slot),
 *     triangle s->a, s->b (c=1), a<->b (c=2) (TP 3/4, three arborescences,
 *     period 4, two slots), star s->a,b,c (TP 1/3, period 3, three slots);
 *   - hand-broken files are rejected with the violation named;
 *   - random platforms and `gen tiers` instances: split and no-split
 *     schedules pass the checker (library and CLI);
 *   - refusals (exit 2): --fixed-period, --trees-dot; multicasts (switch
 *     routers included) are scheduled: tests/test_multicast.c. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/gen.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define EDGE(a, b, c) "<edge source=\"" a "\" target=\"" b "\"><data key=\"c\">" c "</data></edge>\n"

static const char *write_platform(const char *name, const char *body)
{
    const char *path = tu_tmp_path(name);
    char text[4096];
    snprintf(text, sizeof text,
             "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
             "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
             "<graph edgedefault=\"directed\">\n%s</graph></graphml>\n", body);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    return path;
}

/* Solve and build a broadcast schedule from `source` to every other node;
 * returns the JSON text (malloc'ed) or NULL when build fails (status in
 * *st).  Asserts the schedule's own invariants. */
static char *build(const ssched_platform_t *p, const char *source, int no_split,
                   ssched_schedule_t *s, ssched_status_t *st)
{
    ssched_problem_t pb;
    ssched_steady_t sol;
    ssched_problem_init(&pb);
    ssched_steady_init(&sol);
    ssched_error_t err;
    ssched_error_clear(&err);
    char *text = NULL;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, p, source, NULL, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, &pb, NULL, &sol, &err), SSCHED_OK);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    so.no_split = no_split;
    *st = ssched_schedule_build(p, &pb, &sol, &so, s, &err);
    if (*st == SSCHED_OK) {
        /* throughput = ops / period = the certified TP; counts sum to ops */
        mpq_t q;
        mpq_init(q);
        mpq_set_z(q, s->ops_per_period);
        mpq_div(q, q, s->period);
        CU_ASSERT(mpq_equal(q, sol.throughput));
        CU_ASSERT(mpq_equal(s->throughput, sol.throughput));
        mpq_set_ui(q, 0, 1);
        for (size_t i = 0; i < s->arborescences.count; i++) {
            CU_ASSERT_EQUAL(s->arborescences.items[i].n_arcs, p->n_nodes - 1);
            CU_ASSERT(mpz_cmp_ui(mpq_denref(s->arborescences.items[i].weight), 1) == 0);
            mpq_add(q, q, s->arborescences.items[i].weight);
        }
        CU_ASSERT(mpz_cmp(mpq_numref(q), s->ops_per_period) == 0);
        mpq_clear(q);
        text = tu_schedule_json(p, &pb, s);
        CU_ASSERT_PTR_NOT_NULL(text);
    }
    ssched_steady_free(&sol);
    ssched_problem_free(&pb);
    return text;
}

static void expect_valid(const char *text)
{
    char why[600];
    int v = tu_check_text(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  checker: %s\n", why);
    CU_ASSERT_EQUAL(v, 1);
}

static void load_graphml(ssched_platform_t *p, const char *path)
{
    ssched_platform_init(p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(p, path, NULL), SSCHED_OK);
}

/* Build from a GraphML file; check period, ops, arborescences and slots. */
static char *hand_case(const char *path, const char *period, const char *ops, size_t n_arbs,
                       size_t n_slots)
{
    ssched_platform_t p;
    load_graphml(&p, path);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_status_t st;
    char *text = build(&p, p.names[0], 0, &s, &st);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.period, period));
    CU_ASSERT(mpz_cmp_ui(s.ops_per_period, (unsigned long)atol(ops)) == 0);
    CU_ASSERT_EQUAL(s.arborescences.count, n_arbs);
    CU_ASSERT_EQUAL(s.n_slots, n_slots);
    expect_valid(text);
    ssched_schedule_free(&s);
    ssched_platform_free(&p);
    return text;
}

static const char *chain_path(void)
{
    return write_platform("chain.graphml", "<node id=\"P0\"/><node id=\"P1\"/><node id=\"P2\"/>\n"
                                           EDGE("P0", "P1", "1") EDGE("P1", "P2", "1"));
}

static const char *triangle_path(void)
{
    return write_platform("tri.graphml", "<node id=\"s\"/><node id=\"a\"/><node id=\"b\"/>\n"
                                         EDGE("s", "a", "1") EDGE("s", "b", "1")
                                         EDGE("a", "b", "2") EDGE("b", "a", "2"));
}

static void test_hand_cases(void)
{
    /* chain: one arborescence used once per unit; both links in one slot */
    free(hand_case(chain_path(), "1", "1", 1, 1));
    /* triangle: y = 1/4 each for {sa,sb}, {sa,ab}, {sb,ba}: period 4, 3
     * messages; s's out-port is busy 4 (two slots of 2) */
    free(hand_case(triangle_path(), "4", "3", 3, 2));
    /* star: the source's out-port sends three copies per message */
    const char *star = write_platform("star.graphml",
                                      "<node id=\"s\"/><node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>\n"
                                      EDGE("s", "a", "1") EDGE("s", "b", "1") EDGE("s", "c", "1"));
    free(hand_case(star, "3", "1", 1, 3));
}

/* Apply `edit` (a small jansson program) to a copy of text and expect the
 * checker to say `want` (1 valid, 0 invalid, -1 malformed) and, for an
 * invalid file, a violation containing `msg`. */
static void broken(const char *text, void (*edit)(json_t *), int want, const char *msg)
{
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    edit(root);
    char *t = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    char why[600];
    int v = tu_check_text(t, why, sizeof why);
    if (v != want || (msg && !strstr(why, msg)))
        fprintf(stderr, "\n  expected %d '%s', got %d: %s\n", want, msg ? msg : "", v, why);
    CU_ASSERT_EQUAL(v, want);
    if (msg)
        CU_ASSERT_PTR_NOT_NULL(strstr(why, msg));
    free(t);
}

static json_t *arb(json_t *r, size_t i)
{
    return json_array_get(json_object_get(r, "arborescences"), i);
}

static json_t *transfer(json_t *r, size_t slot, size_t t)
{
    return json_array_get(json_object_get(json_array_get(json_object_get(r, "slots"), slot),
                                          "transfers"), t);
}

/* The triangle's file: slot 0 = s->a 2, a->b 1; slot 1 = s->b 2, b->a 1;
 * arborescences {sa,sb}, {sa,ab}, {ba,sb}, one each. */
static void drop_arc(json_t *r) { json_array_remove(json_object_get(arb(r, 0), "arcs"), 1); }
static void count_up(json_t *r) { json_object_set_new(arb(r, 0), "count", json_string("2")); }
static void amount_down(json_t *r) { json_object_set_new(transfer(r, 0, 0), "amount", json_string("1")); }
static void amount_up(json_t *r) { json_object_set_new(transfer(r, 0, 0), "amount", json_string("3")); }
static void two_sends(json_t *r)
{
    /* one of s->b's two messages moved into slot 0, where s also sends to a */
    json_object_set_new(transfer(r, 1, 0), "amount", json_string("1"));
    json_array_append_new(json_object_get(json_array_get(json_object_get(r, "slots"), 0), "transfers"),
                          json_pack("{ssssss}", "from", "s", "to", "b", "amount", "1"));
}
static void cycle(json_t *r)
{
    json_object_set_new(arb(r, 0), "arcs", json_pack("[[ss][ss]]", "a", "b", "b", "a"));
}
static void two_in(json_t *r)
{
    json_array_append_new(json_object_get(arb(r, 0), "arcs"), json_pack("[ss]", "b", "a"));
}
static void no_edge(json_t *r)
{
    json_array_append_new(json_object_get(arb(r, 0), "arcs"), json_pack("[ss]", "a", "s"));
}
static void tp_wrong(json_t *r) { json_object_set_new(r, "throughput", json_string("1")); }
static void multicast(json_t *r)
{
    json_object_set_new(json_object_get(r, "problem"), "targets", json_pack("[s]", "a"));
}
static void multicast_unbounded(json_t *r)
{
    multicast(r);
    json_object_del(r, "upper_bound");
}
static void bound_low(json_t *r) { json_object_set_new(r, "upper_bound", json_string("1/2")); }
static void no_arbs(json_t *r) { json_object_del(r, "arborescences"); }
static void origin_key(json_t *r) { json_object_set_new(transfer(r, 0, 0), "origin", json_string("s")); }
static void lcm_wrong(json_t *r)
{
    json_object_set_new(json_object_get(r, "figures"), "lcm_period", json_string("8"));
}
static void nothing(json_t *r) { (void)r; }

static void test_broken_files(void)
{
    char *text = hand_case(triangle_path(), "4", "3", 3, 2);
    broken(text, nothing, 1, NULL);
    broken(text, drop_arc, 0, "does not reach node");
    broken(text, count_up, 0, "add up to a number other than operations_per_period");
    broken(text, amount_down, 0, "edge s->a carries a number of messages per period");
    broken(text, amount_up, 0, NULL);
    broken(text, two_sends, 0, "node s sends to both");
    broken(text, cycle, 0, "does not reach node");
    broken(text, two_in, 0, "node a has two in-arcs");
    broken(text, no_edge, -1, "no platform edge a->s");
    broken(text, tp_wrong, 0, "throughput differs");
    /* the same file to the target a alone is a multicast (b relays, or is
     * a useless leaf): the schedule still delivers to a at TP 3/4, but the
     * claimed bound is then wrong, as solving the problem again shows (the
     * bound to a alone is 1).  Without its bound a multicast file is
     * malformed. */
    broken(text, multicast, 0, "upper_bound 3/4 (0.75) is not the certified upper bound 1");
    broken(text, multicast_unbounded, -1, "a multicast schedule states \"upper_bound\"");
    broken(text, bound_low, 0, "upper_bound is below the throughput");
    broken(text, no_arbs, -1, "missing \"arborescences\"");
    broken(text, origin_key, -1, "origin");
    broken(text, lcm_wrong, 0, "lcm_period");
    free(text);
}

/* Random strongly connected platforms, from every source: split and
 * no-split schedules are valid; the no-split amounts are integers. */
static void test_random(void)
{
    int built = 0;
    for (unsigned n = 3; n <= 6; n++)
        for (unsigned rep = 0; rep < 4; rep++) {
            ssched_platform_t p;
            tu_random_platform(&p, n);
            for (int ns = 0; ns <= 1; ns++) {
                ssched_schedule_t s;
                ssched_schedule_init(&s);
                ssched_status_t st;
                char *text = build(&p, p.names[rep % n], ns, &s, &st);
                if (st == SSCHED_OK) {
                    expect_valid(text);
                    built++;
                    for (size_t k = 0; ns && k < s.n_slots; k++)
                        for (size_t t = 0; t < s.slots[k].n_transfers; t++)
                            CU_ASSERT(mpz_cmp_ui(mpq_denref(s.slots[k].transfers[t].amount), 1) == 0);
                } else {
                    CU_ASSERT_EQUAL(st, SSCHED_EINPUT); /* TP = 0 only */
                }
                free(text);
                ssched_schedule_free(&s);
            }
            ssched_platform_free(&p);
        }
    CU_ASSERT(built >= 24);
}

/* `gen tiers`: one-port schedules are valid (with the routers made
 * switches the broadcast is a multicast: tests/test_multicast.c). */
static void test_tiers(void)
{
    for (unsigned seed = 1; seed <= 3; seed++) {
        ssched_platform_t p;
        tu_small_tiers(&p, seed);
        ssched_error_t err;
        ssched_error_clear(&err);
        size_t host = tu_first_host(&p);
        for (int ns = 0; ns <= 1; ns++) {
            ssched_schedule_t s;
            ssched_schedule_init(&s);
            ssched_status_t st;
            char *text = build(&p, p.names[host], ns, &s, &st);
            CU_ASSERT_EQUAL(st, SSCHED_OK);
            if (text)
                expect_valid(text);
            free(text);
            ssched_schedule_free(&s);
        }
        ssched_platform_free(&p);
    }
}

static void expect_refusal(tu_run_t *r, const char *msg)
{
    CU_ASSERT_EQUAL(r->status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r->err), 1);
    if (!strstr(r->err, msg))
        fprintf(stderr, "\n  expected '%s' in: %s\n", msg, r->err);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, msg));
    tu_run_free(r);
}

static void test_cli(void)
{
    const char *tri = triangle_path(), *out = tu_tmp_path("tri.json");
    const char *svg = tu_tmp_path("tri.svg"), *dot = tu_tmp_path("tri.dot");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source s -o '%s' --gantt '%s' "
                               "--dot '%s'", tri, out, svg, dot), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "3 spanning arborescences"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "period 4, 3 operations per period"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid periodic schedule (2 slots"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_sh(&r, "grep -c '<rect' '%s' && grep -c 'bcast s' '%s'", svg, dot), 0);
    tu_run_free(&r);
    /* a hand-broken file: exit 1 with the violation */
    const char *bad = tu_tmp_path("bad.json");
    CU_ASSERT_EQUAL(tu_sh(&r, "sed '0,/\"count\": \"1\"/s//\"count\": \"2\"/' '%s' > '%s'", out, bad), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", bad), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "INVALID"));
    tu_run_free(&r);
    /* the edge LP's copies packed into spanning arborescences (column
     * generation, the default, hands over its own): the same period */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source s --method lp -o '%s'",
                           tri, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "3 spanning arborescences"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "period 4, 3 operations per period"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
    tu_run_free(&r);
    /* no-split, JSON on stdout */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source s --no-split --json",
                           tri), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"arborescences\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"split\": false"));
    tu_run_free(&r);
    /* gen tiers through the CLI, and its switch variant (a multicast) */
    const char *tiers = tu_tmp_path("tiers.graphml"), *tj = tu_tmp_path("tiers.json");
    CU_ASSERT_EQUAL(tu_run(&r, "gen tiers --seed 3 --wan 2 --man-per-wan 1 --lan-per-man 1 "
                               "--hosts-per-lan 2 -o '%s'", tiers), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source h0_0_0_0 -o '%s'",
                           tiers, tj), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", tj), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source h0_0_0_0 --method lp "
                               "--no-split -o '%s'", tiers, tj), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", tj), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source h0_0_0_0 --routers "
                               "switch -o '%s'", tiers, tj), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", tj), 0);
    tu_run_free(&r);
    /* a multicast to a alone: s -> a directly, TP 1, the bound reached */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source s --targets a", tri),
                    0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1 (1), achievable (certified feasible); upper "
                                         "bound 1 (1), TP proven optimal"));
    tu_run_free(&r);
    /* refusals */
    tu_run(&r, "schedule '%s' --problem broadcast --source s --fixed-period 5", tri);
    expect_refusal(&r, "--fixed-period is not supported");
    tu_run(&r, "schedule '%s' --problem broadcast --source s --trees-dot '%s'", tri, dot);
    expect_refusal(&r, "--trees-dot applies to reduce problems");
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"hand cases: chain, triangle, star", test_hand_cases},
        {"hand-broken files are rejected", test_broken_files},
        {"random platforms: split and no-split schedules check", test_random},
        {"gen tiers: schedules check", test_tiers},
        {"CLI: schedule, check, exports, refusals", test_cli},
        {NULL, NULL}};
    return tu_main("broadcast schedules", tests);
}
