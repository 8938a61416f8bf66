/* Series of reduces: the corrected SSR LP (2-node case), RR-4872 Fig. 6,
 * random instances against esolver, the tree identity, every schedule
 * through the checker, fixed-period guarantees, unrolled schedules with a
 * non-commutative operator, and bad inputs. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "ssched/trees.h"
#include "test_util.h"

static int checker_valid(const char *text)
{
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ssched_check_schedule_text(text, &rep, &err) != SSCHED_OK) {
        fprintf(stderr, "\n  malformed schedule: %s\n", err.message);
        return 0;
    }
    if (!rep.valid)
        fprintf(stderr, "\n  invalid schedule: %s\n", rep.violation);
    return rep.valid;
}

static void test_two_node_correction(void)
{
    /* A, B with w = 4, c = 1 both ways; reduce v0 (+) v1 to A.  Each
     * reduction needs one task of time 4 somewhere; two processors give at
     * most 2 tasks per 4 time units: TP = 1/2. */
    ssched_platform_t p;
    ssched_platform_init(&p);
    tu_node(&p, "A", "4");
    tu_node(&p, "B", "4");
    tu_edge(&p, 0, 1, "1");
    tu_edge(&p, 1, 0, "1");
    ssched_platform_finalize(&p, NULL);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "A,B", "A", NULL), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.throughput, "1/2"));
    /* The literal report LP also lets the target emit v[0,1]: add that
     * column (out of A, into B, +1 in B's balance of v[0,1]) and the
     * optimum becomes 1 - the overstatement the correction removes. */
    ssched_model_t m;
    ssched_model_init(&m);
    CU_ASSERT_EQUAL_FATAL(ssched_model_build(&p, &pb, &m, NULL), SSCHED_OK);
    size_t col, out_a = SIZE_MAX, in_b = SIZE_MAX, bal_b = SIZE_MAX;
    for (size_t i = 0; i < m.lp.n_rows; i++) {
        if (!strcmp(m.lp.rows[i].name, "out_n0")) out_a = i;
        if (!strcmp(m.lp.rows[i].name, "in_n1")) in_b = i;
        if (!strcmp(m.lp.rows[i].name, "bal_n1_v0_1")) bal_b = i;
    }
    CU_ASSERT_FATAL(out_a != SIZE_MAX && in_b != SIZE_MAX && bal_b != SIZE_MAX);
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    ssched_lp_add_col(&m.lp, "literal_A_B_v0_1", NULL, &col, NULL);
    ssched_lp_add_coef(&m.lp, out_a, col, one, NULL);
    ssched_lp_add_coef(&m.lp, in_b, col, one, NULL);
    ssched_lp_add_coef(&m.lp, bal_b, col, one, NULL);
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&m.lp, NULL, &sol, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(sol.objective, "1"));
    ssched_lp_solution_free(&sol);
    mpq_clear(one);
    ssched_model_free(&m);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Everything downstream of a solve: trees, schedules, fixed periods,
 * unrolled.  Returns the certified TP in tp. */
static void full_pipeline(const ssched_platform_t *p, const ssched_problem_t *pb, int unroll)
{
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &s, &err), SSCHED_OK);
    if (mpq_sgn(s.throughput) == 0) {
        ssched_steady_free(&s);
        return;
    }
    ssched_trees_t t;
    ssched_trees_init(&t);
    ssched_status_t st = ssched_trees_extract(p, pb, &s, &t, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  trees: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL(ssched_trees_check(p, &s, &t, &rep, &err), SSCHED_OK); /* Lemma 2's identity */
    CU_ASSERT_EQUAL(rep.valid, 1);
    CU_ASSERT(t.n_trees >= 1);
    if (t.n_trees >= 1) { /* one more operation in a tree: the recount no longer matches */
        mpz_add_ui(t.trees[0].weight, t.trees[0].weight, 1);
        CU_ASSERT_EQUAL(ssched_trees_check(p, &s, &t, &rep, &err), SSCHED_OK);
        CU_ASSERT_EQUAL(rep.valid, 0);
        CU_ASSERT(rep.violation[0] != '\0');
        mpz_sub_ui(t.trees[0].weight, t.trees[0].weight, 1);
    }
    ssched_trees_free(&t);
    const char *periods[] = {NULL, "1", "3", "7/2", "10", "1000"};
    for (int f = 0; f < 6; f++)
        for (int no_split = 0; no_split < 2; no_split++) {
            ssched_schedule_options_t opt;
            ssched_schedule_options_default(&opt);
            opt.no_split = no_split;
            mpq_t tf;
            mpq_init(tf);
            if (periods[f]) {
                ssched_rational_parse(tf, periods[f], NULL);
                opt.fixed_period = tf;
            }
            ssched_schedule_t sch;
            ssched_schedule_init(&sch);
            st = ssched_schedule_build(p, pb, &s, &opt, &sch, &err);
            if (st != SSCHED_OK)
                fprintf(stderr, "\n  schedule (TF %s): %s\n", periods[f] ? periods[f] : "-", err.message);
            CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
            if (periods[f]) {
                /* floor version >= the report's bound; ours >= floor; <= TP */
                CU_ASSERT(mpq_cmp(sch.floor_throughput, sch.report_bound) >= 0);
                CU_ASSERT(mpq_cmp(sch.throughput, sch.floor_throughput) >= 0);
                CU_ASSERT(mpq_cmp(sch.throughput, s.throughput) <= 0);
            } else {
                CU_ASSERT(mpq_equal(sch.throughput, s.throughput));
            }
            char *text = tu_schedule_json(p, pb, &sch);
            CU_ASSERT(checker_valid(text));
            free(text);
            if (unroll && no_split && mpz_sgn(sch.ops_per_period) > 0) {
                ssched_unrolled_t u;
                ssched_unrolled_init(&u);
                CU_ASSERT_EQUAL_FATAL(ssched_unroll(p, pb, &sch, 17, &u, &err), SSCHED_OK);
                text = tu_unrolled_json(p, pb, &sch, &u);
                CU_ASSERT(checker_valid(text));
                free(text);
                ssched_unrolled_free(&u);
            }
            ssched_schedule_free(&sch);
            mpq_clear(tf);
        }
    ssched_steady_free(&s);
}

static void fig6(ssched_platform_t *p)
{
    ssched_platform_init(p);
    tu_node(p, "P0", "1/2");
    tu_node(p, "P1", "1");
    tu_node(p, "P2", "1");
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++)
            if (a != b)
                tu_edge(p, a, b, "1");
    ssched_platform_finalize(p, NULL);
}

static void test_fig6(void)
{
    /* RR-4872 Fig. 6: TP = 1 (three reductions every three time units). */
    ssched_platform_t p;
    fig6(&p);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "P0,P1,P2", "P0", NULL), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.throughput, "1"));
    ssched_steady_free(&s);
    full_pipeline(&p, &pb, 1);
    /* the order matters: reversed participants, another target */
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "P2,P0,P1", "P1", NULL), SSCHED_OK);
    full_pipeline(&p, &pb, 1);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_target_not_participant(void)
{
    /* A router target (no w) that is not a participant only receives the
     * result: two hosts merge and send v[0,1] to it. */
    ssched_platform_t p;
    ssched_platform_init(&p);
    tu_node(&p, "a", "1");
    tu_node(&p, "b", "2");
    tu_node(&p, "r", NULL);
    tu_edge(&p, 0, 1, "1");
    tu_edge(&p, 1, 0, "1");
    tu_edge(&p, 0, 2, "1/2");
    tu_edge(&p, 1, 2, "1/2");
    ssched_platform_finalize(&p, NULL);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "a,b", "r", NULL), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
    /* x reductions per time unit merged on a (w = 1), y on b (w = 2), each
     * result sent to r (c = 1/2).  a computes x <= 1, b computes 2y <= 1;
     * a's out-port carries v0 to b and its results: y + x/2 <= 1; b's out:
     * x + y/2 <= 1; r's in-port: (x + y)/2 <= 1.  With y = 1/2, b's out-port
     * allows x = 3/4 and a's out-port 1/2 + 3/8 <= 1: TP = 5/4, and no
     * better since x + y/2 <= 1 and y <= 1/2 give x + y <= 1 + y/2 <= 5/4. */
    CU_ASSERT(tu_mpq_equals(s.throughput, "5/4"));
    ssched_steady_free(&s);
    full_pipeline(&p, &pb, 1);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static int esolver_value(const ssched_lp_t *lp, mpq_t out)
{
    const char *path = tu_tmp_path("reduce.lp");
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    ssched_write_lp(f, lp, NULL);
    fclose(f);
    tu_run_t r;
    tu_sh(&r, "cd '%s/..' && esolver -L -O red.sol '%s' >/dev/null 2>&1; grep 'Value = ' red.sol", path, path);
    const char *v = strstr(r.out, "Value = ");
    int ok = -1;
    if (v) {
        char buf[256];
        sscanf(v + 8, "%255s", buf);
        ok = ssched_rational_parse(out, buf, NULL) == SSCHED_OK ? 0 : -1;
    }
    tu_run_free(&r);
    return ok;
}

static void test_random_against_esolver(void)
{
    int compared = 0;
    for (int k = 0; k < 30; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(3);
        tu_random_platform(&p, n);
        /* give most nodes a task time */
        for (unsigned i = 0; i < n; i++)
            if (tu_pick(4)) {
                p.has_w[i] = 1;
                mpq_set_ui(p.w[i], tu_pick(5) + 1, tu_pick(3) + 1);
                mpq_canonicalize(p.w[i]);
            }
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        pb.kind = SSCHED_PROBLEM_REDUCE;
        size_t N = 2 + tu_pick(n - 1 < 3 ? n - 1 : 3);
        pb.participants = malloc(N * sizeof(size_t));
        size_t start = tu_pick(n);
        for (size_t i = 0; i < N; i++) /* N <= n: distinct nodes, random rotation */
            pb.participants[pb.n_participants++] = (start + i) % n;
        pb.target = tu_pick(n);
        if (k % 3 == 0)
            mpq_set_ui(pb.size, 2, 3);
        if (ssched_problem_validate(&pb, &p, NULL) == SSCHED_OK) {
            ssched_model_t m;
            ssched_model_init(&m);
            CU_ASSERT_EQUAL_FATAL(ssched_model_build(&p, &pb, &m, NULL), SSCHED_OK);
            ssched_steady_t s;
            ssched_steady_init(&s);
            CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
            mpq_t ref;
            mpq_init(ref);
            CU_ASSERT_EQUAL_FATAL(esolver_value(&m.lp, ref), 0);
            if (!mpq_equal(ref, s.throughput)) {
                char *a = ssched_rational_to_string(s.throughput), *b = ssched_rational_to_string(ref);
                fprintf(stderr, "\n  reduce TP %s, esolver %s\n", a, b);
                free(a);
                free(b);
            }
            CU_ASSERT(mpq_equal(ref, s.throughput));
            compared++;
            mpq_clear(ref);
            ssched_steady_free(&s);
            ssched_model_free(&m);
            full_pipeline(&p, &pb, k % 5 == 0);
        }
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT(compared >= 20);
}

/* fig6's reduce of P0, P1, P2 to P0: solved, scheduled with whole
 * messages (--no-split); everything initialised here. */
static void fig6_whole_schedule(ssched_platform_t *p, ssched_problem_t *pb, ssched_steady_t *s,
                                ssched_schedule_t *sch)
{
    fig6(p);
    ssched_problem_init(pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(pb, p, "P0,P1,P2", "P0", NULL), SSCHED_OK);
    ssched_steady_init(s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, s, NULL), SSCHED_OK);
    ssched_schedule_options_t opt;
    ssched_schedule_options_default(&opt);
    opt.no_split = 1;
    ssched_schedule_init(sch);
    CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(p, pb, s, &opt, sch, NULL), SSCHED_OK);
}

static void test_unrolled_overhead(void)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t s;
    ssched_schedule_t sch;
    fig6_whole_schedule(&p, &pb, &s, &sch);
    unsigned long ops = mpz_get_ui(sch.ops_per_period);
    mpq_t first;
    mpq_init(first);
    unsigned long periods[] = {10, 100, 1000};
    for (int k = 0; k < 3; k++) {
        ssched_unrolled_t u;
        ssched_unrolled_init(&u);
        CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &sch, periods[k] * ops, &u, NULL), SSCHED_OK);
        char *text = tu_unrolled_json(&p, &pb, &sch, &u);
        CU_ASSERT(checker_valid(text));
        free(text);
        if (k == 0)
            mpq_set(first, u.overhead);
        CU_ASSERT(mpq_equal(u.overhead, first)); /* the overhead does not grow with K */
        ssched_unrolled_free(&u);
    }
    mpq_clear(first);
    ssched_schedule_free(&sch);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* A broken unrolled reduce: swapping the operands' time-stamps or removing a
 * computation must be caught by the simulation. */
static void test_checker_catches_reduce_errors(void)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t s;
    ssched_schedule_t sch;
    fig6_whole_schedule(&p, &pb, &s, &sch);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    ssched_unroll(&p, &pb, &sch, 12, &u, NULL);
    char *text = tu_unrolled_json(&p, &pb, &sch, &u);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    /* a computation of time-stamp 3 relabelled 4: time-stamp 4's values get
     * used twice / 3's never, or merged out of order */
    json_t *comps = json_object_get(root, "computations");
    json_t *copy = json_deep_copy(root);
    json_t *c0 = json_array_get(json_object_get(copy, "computations"), 0);
    json_object_set_new(c0, "op", json_integer(json_integer_value(json_object_get(c0, "op")) + 1));
    text = json_dumps(copy, 0);
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 0);
    free(text);
    json_decref(copy);
    /* a computation removed: its result never exists */
    copy = json_deep_copy(root);
    json_array_remove(json_object_get(copy, "computations"), json_array_size(comps) - 1);
    text = json_dumps(copy, 0);
    CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 0);
    free(text);
    json_decref(copy);
    /* a merge split differently from the values that exist: T(0,0,2)
     * becomes T(0,1,2), whose operands v[0,1], v[2,2] are not there */
    copy = json_deep_copy(root);
    json_t *cs = json_object_get(copy, "computations");
    int flipped = 0;
    for (size_t i = 0; i < json_array_size(cs) && !flipped; i++) {
        json_t *task = json_object_get(json_array_get(cs, i), "task");
        json_int_t k = json_integer_value(json_array_get(task, 0));
        json_int_t l = json_integer_value(json_array_get(task, 1));
        json_int_t m = json_integer_value(json_array_get(task, 2));
        if (m - k == 2) {
            json_array_set_new(task, 1, json_integer(l == k ? k + 1 : k));
            flipped = 1;
        }
    }
    CU_ASSERT(flipped);
    text = json_dumps(copy, 0);
    CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 0);
    free(text);
    json_decref(copy);
    json_decref(root);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&sch);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* The trees of a periodic reduce file must be reduction trees whose
 * weighted sum is exactly the file's transfers and computations. */
static void test_checker_catches_tree_errors(void)
{
    ssched_platform_t p;
    fig6(&p);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_problem_set_reduce(&pb, &p, "P0,P1,P2", "P0", NULL);
    ssched_steady_options_t so;
    ssched_steady_options_default(&so);
    so.method = SSCHED_METHOD_LP; /* two trees */
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(&p, &pb, &so, &s, NULL), SSCHED_OK);
    ssched_schedule_t sch;
    ssched_schedule_init(&sch);
    CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&p, &pb, &s, NULL, &sch, NULL), SSCHED_OK);
    char *text = tu_schedule_json(&p, &pb, &sch);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    CU_ASSERT_FATAL(json_array_size(json_object_get(root, "trees")) == 2);
    ssched_check_report_t rep;
    const char *expect[] = {"do not add up", "differ", "root", "neither produced"};
    for (int k = 0; k < 4; k++) {
        json_t *copy = json_deep_copy(root);
        json_t *t0 = json_array_get(json_object_get(copy, "trees"), 0);
        json_t *tasks = json_object_get(t0, "tasks");
        if (k == 0) /* one more instance of a tree than the slots carry */
            json_object_set_new(t0, "weight", json_string("2"));
        if (k == 1) { /* move weight from one tree to the other */
            json_t *t1 = json_array_get(json_object_get(copy, "trees"), 1);
            json_object_set_new(t0, "weight", json_string("2"));
            json_object_set_new(t1, "weight", json_string("0"));
            expect[1] = "positive integer";
        }
        if (k == 2) /* a second root */
            json_object_set_new(json_array_get(tasks, json_array_size(tasks) - 1), "parent",
                                json_integer(-1));
        if (k == 3) /* a task disappears: its parent's input is missing */
            json_array_remove(tasks, json_array_size(tasks) - 1);
        char *bad = json_dumps(copy, 0);
        CU_ASSERT_EQUAL(ssched_check_schedule_text(bad, &rep, NULL), SSCHED_OK);
        if (rep.valid || !strstr(rep.violation, expect[k]))
            fprintf(stderr, "\n  tree mutation %d: valid %d '%s'\n", k, rep.valid, rep.violation);
        CU_ASSERT_EQUAL(rep.valid, 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, expect[k]));
        free(bad);
        json_decref(copy);
    }
    json_decref(root);
    ssched_schedule_free(&sch);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_bad_inputs(void)
{
    const char *fig6 = SSCHED_SOURCE_DIR "/examples/fig6.graphml";
    struct { const char *args, *frag; } bad[] = {
        {"--problem reduce --participants P0 --target P0", "at least 2 participants"},
        {"--problem reduce --participants P0,P1,P0 --target P0", "listed twice"},
        {"--problem reduce --participants P0,P1 --target Q", "unknown node 'Q'"},
        {"--problem reduce --participants P0,P9 --target P0", "unknown node 'P9'"},
        {"--problem reduce --participants P0,P1", "missing --target"},
        {"--problem reduce --target P0", "missing --participants"},
        {"--problem reduce --participants P0,P1 --target P0 --source P2", "--participants and --target only"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        tu_run_t r;
        int st = tu_run(&r, "solve '%s' %s", fig6, bad[k].args);
        if (st != 2 || !strstr(r.err, bad[k].frag))
            fprintf(stderr, "\n  %s -> %d %s", bad[k].args, st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, bad[k].frag));
        tu_run_free(&r);
    }
    /* a participant that cannot reach the target: TP = 0, named; nothing
     * to schedule (exit 2, one line) */
    const char *iso = tu_tmp_path("iso.graphml");
    tu_write_file(iso,
        "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        "<graph id=\"G\" edgedefault=\"directed\">\n"
        "<node id=\"a\"><data key=\"w\">1</data></node><node id=\"b\"><data key=\"w\">1</data></node>"
        "<node id=\"z\"><data key=\"w\">1</data></node>\n"
        "<edge source=\"a\" target=\"b\"><data key=\"c\">1</data></edge>\n"
        "<edge source=\"b\" target=\"a\"><data key=\"c\">1</data></edge>\n"
        "<edge source=\"a\" target=\"z\"><data key=\"c\">1</data></edge>\n"
        "</graph></graphml>\n");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem reduce --participants a,z --target b", iso), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 0 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cannot be reached from participant z"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants a,z --target b", iso), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    /* --fixed-period must be a positive number; only for reduce */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--fixed-period 0", fig6), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scatter --source P0 --targets P1 "
                               "--fixed-period 1/1000", fig6), 2); /* shorter than 1/TP */
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

static void test_cli_reduce(void)
{
    const char *fig6 = SSCHED_SOURCE_DIR "/examples/fig6.graphml";
    const char *json = tu_tmp_path("red.json"), *dot = tu_tmp_path("trees.dot");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem reduce --participants P0,P1,P2 --target P0 --json", fig6), 0);
    json_t *root = json_loads(r.out, 0, NULL);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "throughput")), "1");
    CU_ASSERT(json_is_array(json_object_get(root, "tasks")));
    json_decref(root);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "-o '%s' --trees-dot '%s'", fig6, json, dot), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "reduction trees"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", json), 0);
    tu_run_free(&r);
    char *text = tu_read_file(json);
    root = json_loads(text, 0, NULL);
    free(text);
    CU_ASSERT(json_is_array(json_object_get(root, "computations")));
    CU_ASSERT(json_is_array(json_object_get(root, "trees")));
    json_t *t0 = json_array_get(json_object_get(json_array_get(json_object_get(root, "slots"), 0),
                                                "transfers"), 0);
    CU_ASSERT(json_is_array(json_object_get(t0, "interval")));
    json_decref(root);
    text = tu_read_file(dot);
    CU_ASSERT(text && strstr(text, "digraph"));
    free(text);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"two-node correction: 1/2, literal LP 1", test_two_node_correction},
        {"RR-4872 Fig. 6", test_fig6},
        {"target not a participant", test_target_not_participant},
        {"random reduces equal esolver; full pipeline checked", test_random_against_esolver},
        {"unrolled overhead does not grow", test_unrolled_overhead},
        {"checker catches broken reduce schedules", test_checker_catches_reduce_errors},
        {"checker catches inconsistent trees", test_checker_catches_tree_errors},
        {"bad inputs", test_bad_inputs},
        {"CLI reduce", test_cli_reduce},
        {NULL, NULL}};
    return tu_main("reduce", tests);
}
