/* Periodic scan schedules (issue 27 item 4): schedule/build_scan.c builds
 * one period from the certified packing of prefix structures, and the
 * independent checker (schedule/check_periodic_scan*.c) verifies it, its
 * throughput re-derived by solving the problem again.  Hand cases with a
 * proven optimum (tests/test_scan_pack.c gives the proofs) must reach it
 * exactly; random small platforms must pass; every mutation (a dropped
 * copy, swapped operands, a wrong receiver, an over-full slot, an
 * inflated throughput, a wrong prefix, a broken structure) must be
 * rejected with one line; bad CLI options exit 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

static void scan_problem(ssched_problem_t *pb, size_t N, int exclusive)
{
    ssched_problem_init(pb);
    pb->kind = SSCHED_PROBLEM_SCAN;
    pb->exclusive = exclusive;
    pb->participants = malloc(N * sizeof *pb->participants);
    CU_ASSERT_FATAL(pb->participants != NULL);
    for (size_t k = 0; k < N; k++)
        pb->participants[k] = k;
    pb->n_participants = N;
}

/* Solve, build one period (no_split as given), write it; the text (NULL
 * on failure) and, when tp is not NULL, the schedule's throughput. */
static char *periodic_text(const ssched_platform_t *p, const ssched_problem_t *pb, int no_split,
                           mpq_t tp, mpq_t ub)
{
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    so.no_split = no_split;
    char *text = NULL;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, pb, NULL, &st, &err), SSCHED_OK);
    ssched_status_t rc = ssched_schedule_build(p, pb, &st, &so, &s, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  build: %s\n", err.message);
    CU_ASSERT_EQUAL(rc, SSCHED_OK);
    if (rc == SSCHED_OK) {
        /* the throughput is the certified packing's, reached per period */
        CU_ASSERT(mpq_equal(s.throughput, st.throughput));
        mpq_t q;
        mpq_init(q);
        mpq_set_z(q, s.ops_per_period);
        mpq_div(q, q, s.period);
        CU_ASSERT(mpq_equal(q, s.throughput));
        mpq_clear(q);
        CU_ASSERT(s.n_scan_structures > 0);
        CU_ASSERT_EQUAL(s.split, !no_split);
        if (tp)
            mpq_set(tp, s.throughput);
        if (ub)
            mpq_set(ub, s.upper_bound);
        text = tu_schedule_json(p, pb, &s);
    }
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    return text;
}

static void expect_valid_text(const char *text, const char *what)
{
    CU_ASSERT_FATAL(text != NULL);
    char why[600];
    int v = tu_check_text(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  %s: %s\n", what, why);
    CU_ASSERT_EQUAL(v, 1);
}

static void expect_hand(const ssched_platform_t *p, size_t N, int exclusive, const char *want)
{
    ssched_problem_t pb;
    scan_problem(&pb, N, exclusive);
    mpq_t tp, ub;
    mpq_inits(tp, ub, NULL);
    for (int ns = 0; ns < 2; ns++) {
        char *text = periodic_text(p, &pb, ns, tp, ub);
        expect_valid_text(text, want);
        free(text);
        if (!tu_mpq_equals(tp, want) || !tu_mpq_equals(ub, want)) {
            fprintf(stderr, "\n  N = %zu%s: TP %g, bound %g, expected %s\n", N,
                    exclusive ? " exclusive" : "", mpq_get_d(tp), mpq_get_d(ub), want);
            CU_FAIL("hand case");
        }
    }
    mpq_clears(tp, ub, NULL);
    ssched_problem_free(&pb);
}

static void star(ssched_platform_t *p, int sw)
{
    ssched_platform_init(p);
    tu_node(p, "P0", "1");
    tu_node(p, "P1", "1");
    tu_node(p, "P2", "1");
    tu_node(p, "C", sw ? NULL : "1");
    for (size_t k = 0; k < 3; k++)
        tu_link2(p, k, 3, "1");
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
    if (sw)
        p->multiport[3] = 1;
}

static void chain(ssched_platform_t *p)
{
    ssched_platform_init(p);
    tu_node(p, "P0", "1");
    tu_node(p, "P1", "1");
    tu_node(p, "P2", "1");
    tu_link2(p, 0, 1, "1");
    tu_link2(p, 1, 2, "1");
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

/* Optima proven in tests/test_scan_pack.c (upper bounds by token
 * arguments, reached by the packing): the periodic schedule reaches them
 * exactly, split and not split. */
static void test_hand_cases(void)
{
    ssched_platform_t p;
    chain(&p);
    expect_hand(&p, 3, 0, "1");
    expect_hand(&p, 3, 1, "1");
    ssched_platform_free(&p);
    for (int sw = 0; sw < 2; sw++) {
        star(&p, sw);
        expect_hand(&p, 3, 0, sw ? "1" : "1/2");
        expect_hand(&p, 3, 1, sw ? "1" : "1/2");
        ssched_platform_free(&p);
    }
    static const struct {
        size_t n;
        const char *w, *tp;
    } kn[] = {{3, "1", "1"}, {3, "2", "3/4"}, {4, "2", "2/3"}};
    for (size_t k = 0; k < sizeof kn / sizeof kn[0]; k++) {
        tu_complete(&p, kn[k].n, kn[k].w);
        expect_hand(&p, kn[k].n, 0, kn[k].tp);
        ssched_platform_free(&p);
    }
}

/* Random platforms of 3-5 nodes with processors, N = 3 or 4, the last
 * node a switch every other time there is one to spare: every schedule
 * built passes the whole checker. */
static void test_random(void)
{
    for (int rep = 0; rep < 16; rep++) {
        unsigned n = 3 + tu_pick(3);
        size_t N = n > 3 && tu_pick(2) ? 4 : 3;
        int sw = n > N && rep % 4 >= 2;
        ssched_platform_t p;
        ssched_platform_init(&p);
        char name[16], w[16];
        for (unsigned i = 0; i < n; i++) {
            snprintf(name, sizeof name, "P%u", i);
            snprintf(w, sizeof w, "%u/%u", tu_pick(5) + 1, tu_pick(3) + 1);
            tu_node(&p, name, sw && i == n - 1 ? NULL : w);
        }
        tu_random_edges(&p, n);
        if (sw)
            p.multiport[n - 1] = 1;
        ssched_problem_t pb;
        scan_problem(&pb, N, rep % 2);
        char *text = periodic_text(&p, &pb, rep % 3 == 0, NULL, NULL);
        expect_valid_text(text, "random platform");
        free(text);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* --fixed-period TF: floor(x_S TF) instances of each structure plus
 * greedy extras, within TF on every resource: valid, between the floors'
 * throughput and the achievable TP; a TF too short for any instance is
 * refused; a claimed optimal_throughput is re-derived. */
static void test_fixed_period(void)
{
    ssched_platform_t p;
    tu_complete(&p, 4, "2");
    ssched_problem_t pb;
    scan_problem(&pb, 4, 0);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(&p, &pb, NULL, &st, &err), SSCHED_OK);
    static const char *const tfs[] = {"3", "10", "37/2", "100"};
    mpq_t tf;
    mpq_init(tf);
    for (size_t k = 0; k < sizeof tfs / sizeof tfs[0]; k++)
        for (int ns = 0; ns < 2; ns++) {
            mpq_set_str(tf, tfs[k], 10);
            ssched_schedule_t s;
            ssched_schedule_init(&s);
            ssched_schedule_options_t so;
            ssched_schedule_options_default(&so);
            so.fixed_period = tf;
            so.no_split = ns;
            CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&p, &pb, &st, &so, &s, &err), SSCHED_OK);
            CU_ASSERT(s.fixed);
            CU_ASSERT(mpq_cmp(s.throughput, st.throughput) <= 0);
            CU_ASSERT(mpq_cmp(s.throughput, s.floor_throughput) >= 0);
            CU_ASSERT(mpq_equal(s.optimal_throughput, st.throughput));
            char *text = tu_schedule_json(&p, &pb, &s);
            expect_valid_text(text, tfs[k]);
            if (ns == 0 && k == 1) {
                json_error_t je;
                json_t *r = json_loads(text, 0, &je);
                CU_ASSERT_FATAL(r != NULL);
                json_t *f = json_object_get(r, "fixed_period");
                json_object_set_new(f, "optimal_throughput", json_string("1"));
                char *bad = json_dumps(r, 0);
                char why[600];
                CU_ASSERT_EQUAL(tu_check_text(bad, why, sizeof why), 0);
                free(bad);
                json_decref(r);
            }
            free(text);
            ssched_schedule_free(&s);
        }
    mpq_set_str(tf, "1/100", 10);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    so.fixed_period = tf;
    CU_ASSERT_EQUAL(ssched_schedule_build(&p, &pb, &st, &so, &s, &err), SSCHED_EINPUT);
    ssched_schedule_free(&s);
    mpq_clear(tf);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* ---- mutations ---- */

static void expect_rejected(json_t *root, const char *what, const char *needle)
{
    char *text = json_dumps(root, 0);
    CU_ASSERT_FATAL(text != NULL);
    char why[600];
    int v = tu_check_text(text, why, sizeof why);
    int ok = v != 1 && !strchr(why, '\n') && why[0] && (!needle || strstr(why, needle));
    if (!ok || getenv("TU_VERBOSE"))
        fprintf(stderr, "\n  mutation '%s': %d '%s'\n", what, v, why);
    CU_ASSERT(ok);
    free(text);
}

/* A transfer of an interval the file sends over two different edges (a
 * copy): slot and index into *slot, *tr; 0 if none. */
static int find_copy(json_t *root, size_t *slot, size_t *tr)
{
    json_t *slots = json_object_get(root, "slots");
    for (size_t a = 0; a < json_array_size(slots); a++) {
        json_t *ta = json_object_get(json_array_get(slots, a), "transfers");
        for (size_t x = 0; x < json_array_size(ta); x++) {
            json_t *X = json_array_get(ta, x);
            for (size_t b = 0; b < json_array_size(slots); b++) {
                json_t *tb = json_object_get(json_array_get(slots, b), "transfers");
                for (size_t y = 0; y < json_array_size(tb); y++) {
                    json_t *Y = json_array_get(tb, y);
                    if (json_equal(json_object_get(X, "interval"), json_object_get(Y, "interval")) &&
                        json_equal(json_object_get(X, "from"), json_object_get(Y, "from")) &&
                        !json_equal(json_object_get(X, "to"), json_object_get(Y, "to"))) {
                        *slot = a;
                        *tr = x;
                        return 1;
                    }
                }
            }
        }
    }
    return 0;
}

static void scale(json_t *obj, const char *key, const char *by)
{
    mpq_t q, f;
    mpq_inits(q, f, NULL);
    json_t *v = json_object_get(obj, key);
    if (json_is_string(v))
        mpq_set_str(q, json_string_value(v), 10);
    else
        mpq_set_si(q, (long)json_integer_value(v), 1);
    mpq_set_str(f, by, 10);
    mpq_canonicalize(f);
    mpq_mul(q, q, f);
    char *t = mpq_get_str(NULL, 10, q);
    json_object_set_new(obj, key, json_string(t));
    free(t);
    mpq_clears(q, f, NULL);
}

static void test_mutations(void)
{
    /* P1 - P0 - P2, P0 in the middle: P0 forms v[0,1] and sends it both
     * to P1 (its answer) and to P2 (an operand of v[0,2]): a copy */
    ssched_platform_t p;
    ssched_platform_init(&p);
    tu_node(&p, "P0", "1");
    tu_node(&p, "P1", "1");
    tu_node(&p, "P2", "1");
    tu_link2(&p, 0, 1, "1");
    tu_link2(&p, 0, 2, "1");
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
    ssched_problem_t pb;
    scan_problem(&pb, 3, 0);
    char *text = periodic_text(&p, &pb, 0, NULL, NULL);
    CU_ASSERT_FATAL(text != NULL);
    expect_valid_text(text, "star");
    json_error_t je;
    json_t *orig = json_loads(text, 0, &je);
    CU_ASSERT_FATAL(orig != NULL);
    free(text);
    size_t a = 0, x = 0;
    /* a dropped copy */
    json_t *r = json_deep_copy(orig);
    CU_ASSERT_FATAL(find_copy(r, &a, &x));
    json_array_remove(json_object_get(json_array_get(json_object_get(r, "slots"), a), "transfers"),
                      x);
    expect_rejected(r, "dropped copy", NULL);
    json_decref(r);
    /* swapped operands: v[l+1,m] (x) v[k,l] is no adjacent join in order */
    r = json_deep_copy(orig);
    json_t *c0 = json_array_get(json_object_get(r, "computations"), 0);
    CU_ASSERT_FATAL(c0 != NULL);
    size_t v[3];
    for (int k = 0; k < 3; k++)
        v[k] = (size_t)json_integer_value(json_array_get(json_object_get(c0, "task"), k));
    json_object_set_new(c0, "task", json_pack("[III]", (json_int_t)(v[1] + 1), (json_int_t)v[2],
                                              (json_int_t)v[0]));
    expect_rejected(r, "swapped operands", "adjacent");
    json_decref(r);
    /* a wrong receiver: a transfer out of the centre goes to the other
     * leaf; one into it comes from the other leaf (the only edges) */
    r = json_deep_copy(orig);
    json_t *t0 = json_array_get(json_object_get(json_array_get(json_object_get(r, "slots"), 0),
                                                "transfers"), 0);
    const char *to = json_string_value(json_object_get(t0, "to"));
    const char *from = json_string_value(json_object_get(t0, "from"));
    if (!strcmp(from, "P0"))
        json_object_set_new(t0, "to", json_string(strcmp(to, "P1") ? "P1" : "P2"));
    else
        json_object_set_new(t0, "from", json_string(strcmp(from, "P1") ? "P1" : "P2"));
    expect_rejected(r, "wrong receiver", NULL);
    json_decref(r);
    /* an over-full slot */
    r = json_deep_copy(orig);
    t0 = json_array_get(json_object_get(json_array_get(json_object_get(r, "slots"), 0),
                                        "transfers"), 0);
    scale(t0, "amount", "2");
    expect_rejected(r, "over-full slot", "longer than the slot");
    json_decref(r);
    /* an inflated throughput: alone, then with operations_per_period */
    r = json_deep_copy(orig);
    scale(r, "throughput", "10");
    expect_rejected(r, "throughput x 10", "throughput");
    scale(r, "operations_per_period", "10");
    expect_rejected(r, "throughput and operations x 10", NULL);
    json_decref(r);
    /* a claimed bound the problem does not give */
    r = json_deep_copy(orig);
    scale(r, "upper_bound", "10");
    expect_rejected(r, "upper bound x 10", "upper_bound");
    json_decref(r);
    /* a structure that sends a value before anything makes it */
    r = json_deep_copy(orig);
    json_t *s0 = json_array_get(json_object_get(r, "structures"), 0);
    json_array_remove(json_object_get(s0, "tasks"), 0);
    expect_rejected(r, "structure without a task", "structures[0]");
    json_decref(r);
    json_decref(orig);
    ssched_problem_free(&pb);

    /* a wrong prefix: an exclusive schedule read as inclusive delivers
     * v[0,j-1] where v[0,j] is due */
    scan_problem(&pb, 3, 1);
    text = periodic_text(&p, &pb, 0, NULL, NULL);
    CU_ASSERT_FATAL(text != NULL);
    r = json_loads(text, 0, &je);
    free(text);
    CU_ASSERT_FATAL(r != NULL);
    json_object_set_new(json_object_get(r, "problem"), "exclusive", json_false());
    expect_rejected(r, "wrong prefix", "prefix");
    json_decref(r);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Malformed or inconsistent fields: refused (malformed, -1) or a
 * violation (0), one line either way, never a crash. */
static void test_malformed(void)
{
    ssched_platform_t p;
    tu_complete(&p, 3, "2");
    ssched_problem_t pb;
    scan_problem(&pb, 3, 0);
    char *text = periodic_text(&p, &pb, 0, NULL, NULL);
    CU_ASSERT_FATAL(text != NULL);
    json_error_t je;
    json_t *orig = json_loads(text, 0, &je);
    free(text);
    CU_ASSERT_FATAL(orig != NULL);
    static const struct {
        const char *path, *key, *value; /* value: JSON text; NULL deletes the key */
        int want;                       /* -1 malformed, 0 violation */
    } cases[] = {
        {"", "structures", NULL, -1},
        {"", "optimal", NULL, -1},
        {"", "trees", "[]", -1},
        {"s0", "weight", "\"-1\"", 0},
        {"s0", "weight", "\"1/2\"", 0},
        {"s0", "sends", "[5]", -1},
        {"s0", "sends", "[{\"from\": \"P0\", \"to\": \"P1\", \"interval\": [2, 1]}]", -1},
        {"s0", "sends", "[{\"from\": \"P0\", \"to\": \"P1\", \"interval\": [0, 0]}, "
                        "{\"from\": \"P0\", \"to\": \"P1\", \"interval\": [0, 0]}]", 0},
        {"s0", "tasks", "[{\"node\": \"P9\", \"task\": [0, 0, 1]}]", -1},
        {"s0", "tasks", "{}", -1},
        {"c0", "task", "[0, 1]", -1},
        {"c0", "count", "\"1/2\"", 0},
        {"c0", "count", "\"0\"", 0},
        {"t0", "amount", "\"-1\"", 0},
        {"t0", "interval", "[0, 7]", -1},
        {"", "operations_per_period", "\"0\"", 0},
        {"", "period", "\"-1\"", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        json_t *r = json_deep_copy(orig), *obj = r;
        if (!strcmp(cases[k].path, "s0"))
            obj = json_array_get(json_object_get(r, "structures"), 0);
        else if (!strcmp(cases[k].path, "c0"))
            obj = json_array_get(json_object_get(r, "computations"), 0);
        else if (!strcmp(cases[k].path, "t0"))
            obj = json_array_get(json_object_get(json_array_get(json_object_get(r, "slots"), 0),
                                                 "transfers"), 0);
        CU_ASSERT_FATAL(obj != NULL);
        if (cases[k].value)
            json_object_set_new(obj, cases[k].key, json_loads(cases[k].value, JSON_DECODE_ANY, &je));
        else
            json_object_del(obj, cases[k].key);
        char *bad = json_dumps(r, 0), why[600];
        int v = tu_check_text(bad, why, sizeof why);
        if (v != cases[k].want || strchr(why, '\n') || !why[0])
            fprintf(stderr, "\n  case %zu (%s.%s): %d '%s'\n", k, cases[k].path, cases[k].key, v,
                    why);
        CU_ASSERT_EQUAL(v, cases[k].want);
        CU_ASSERT(!strchr(why, '\n') && why[0]);
        free(bad);
        json_decref(r);
    }
    json_decref(orig);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* The CLI: a periodic scan file written and checked again; what it does
 * not support refused with exit 2 and one line. */
static void test_cli(void)
{
    const char *plat = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    const char *list = "lan0_0_0,h0_0_0_0,h0_0_0_1,h0_0_0_2";
    const char *out = tu_tmp_path("scan_periodic.json");
    tu_run_t r;
    for (int excl = 0; excl < 2; excl++) {
        CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scan --participants %s %s -o %s", plat,
                               list, excl ? "--exclusive" : "", out), 0);
        CU_ASSERT(strstr(r.out, "checked: valid") != NULL);
        tu_run_free(&r);
        CU_ASSERT_EQUAL(tu_run(&r, "check %s", out), 0);
        tu_run_free(&r);
    }
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scan --participants %s --no-split "
                               "--routers switch -o %s", plat, list, out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check %s", out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scan --participants %s --model routed "
                               "-o %s", plat, list, out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check %s", out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scan --participants %s --fixed-period 100 "
                               "-o %s", plat, list, out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check %s", out), 0);
    tu_run_free(&r);
    static const char *const bad[] = {"--fixed-period 1/100", "--gantt /dev/null", "--method lp",
                                      "--dot /dev/null"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scan --participants %s %s", plat, list,
                               bad[k]), 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {{"hand cases reach the proven optimum", test_hand_cases},
                                      {"random platforms pass the checker", test_random},
                                      {"fixed period", test_fixed_period},
                                      {"mutations are rejected", test_mutations},
                                      {"malformed fields", test_malformed},
                                      {"cli", test_cli},
                                      {NULL, NULL}};
    return tu_main("scan_periodic", tests);
}
