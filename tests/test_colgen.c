/* Column generation against the edge LP: equal certified optima on random
 * instances of all three problems, schedules from the master's trees pass
 * the checker, progress reports, and the CLI method switch. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "test_util.h"

static int reports;

static void count_progress(void *ctx, const ssched_progress_t *info)
{
    (void)ctx;
    CU_ASSERT(info->lower <= info->upper + 1e-9);
    reports++;
}

static void solve_both(const ssched_platform_t *p, const ssched_problem_t *pb, int schedule)
{
    ssched_steady_options_t a, b;
    ssched_steady_options_default(&a);
    ssched_steady_options_default(&b);
    a.method = SSCHED_METHOD_LP;
    b.method = SSCHED_METHOD_COLGEN;
    b.progress = count_progress;
    b.progress_interval = 0; /* report every round */
    ssched_steady_t sa, sb;
    ssched_steady_init(&sa);
    ssched_steady_init(&sb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, pb, &a, &sa, &err), SSCHED_OK);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, &b, &sb, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  colgen: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    CU_ASSERT_EQUAL(sb.method, SSCHED_METHOD_COLGEN);
    if (!mpq_equal(sa.throughput, sb.throughput)) {
        char *x = ssched_rational_to_string(sa.throughput), *y = ssched_rational_to_string(sb.throughput);
        fprintf(stderr, "\n  %s: LP %s, colgen %s\n", ssched_problem_kind_name(pb->kind), x, y);
        free(x);
        free(y);
        CU_FAIL("methods disagree");
    }
    /* the master's duals are port/processor prices whose sum is TP */
    mpq_t sum;
    mpq_init(sum);
    for (size_t i = 0; i < p->n_nodes; i++) {
        mpq_add(sum, sum, sb.out_price[i]);
        mpq_add(sum, sum, sb.in_price[i]);
        mpq_add(sum, sum, sb.compute_price[i]);
        CU_ASSERT(mpq_cmp_ui(sb.out_busy[i], 1, 1) <= 0);
        CU_ASSERT(mpq_cmp_ui(sb.in_busy[i], 1, 1) <= 0);
        CU_ASSERT(mpq_cmp_ui(sb.compute_busy[i], 1, 1) <= 0);
    }
    CU_ASSERT(mpq_equal(sum, sb.throughput));
    mpq_clear(sum);
    if (schedule && mpq_sgn(sb.throughput) > 0) {
        ssched_schedule_options_t so;
        ssched_schedule_options_default(&so);
        so.no_split = 1;
        ssched_schedule_t s;
        ssched_schedule_init(&s);
        CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(p, pb, &sb, &so, &s, &err), SSCHED_OK);
        char *text = tu_schedule_json(p, pb, &s);
        ssched_check_report_t rep;
        CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, &err), SSCHED_OK);
        if (!rep.valid)
            fprintf(stderr, "\n  colgen schedule: %s\n", rep.violation);
        CU_ASSERT(rep.valid);
        free(text);
        /* unrolled: the short pattern the planner picks for K = 9 */
        ssched_schedule_t s9;
        ssched_schedule_init(&s9);
        CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(p, pb, &sb, 9, NULL, 0, &s9, &err), SSCHED_OK);
        ssched_unrolled_t u;
        ssched_unrolled_init(&u);
        CU_ASSERT_EQUAL(ssched_unroll(p, pb, &s9, 9, &u, &err), SSCHED_OK);
        text = tu_unrolled_json(p, pb, &s9, &u);
        ssched_schedule_free(&s9);
        CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, &err), SSCHED_OK);
        CU_ASSERT(rep.valid);
        free(text);
        ssched_unrolled_free(&u);
        ssched_schedule_free(&s);
    }
    ssched_steady_free(&sa);
    ssched_steady_free(&sb);
}

static void random_problem(ssched_problem_t *pb, ssched_platform_t *p, unsigned n, int kind)
{
    ssched_problem_init(pb);
    pb->kind = kind;
    if (kind == SSCHED_PROBLEM_REDUCE) {
        for (unsigned i = 0; i < n; i++)
            if (tu_pick(4)) {
                p->has_w[i] = 1;
                mpq_set_ui(p->w[i], tu_pick(5) + 1, tu_pick(3) + 1);
                mpq_canonicalize(p->w[i]);
            }
        size_t N = 2 + tu_pick(n - 1 < 4 ? n - 1 : 4), start = tu_pick(n);
        pb->participants = malloc(N * sizeof(size_t));
        for (size_t i = 0; i < N; i++) /* N <= n distinct nodes */
            pb->participants[pb->n_participants++] = (start + i) % n;
        pb->target = tu_pick(n);
        return;
    }
    pb->sources = malloc(n * sizeof(size_t));
    pb->targets = malloc(n * sizeof(size_t));
    for (unsigned i = 0; i < n; i++) {
        if (kind == SSCHED_PROBLEM_SCATTER ? i == 0 : (tu_pick(2) || !pb->n_sources))
            pb->sources[pb->n_sources++] = i;
        if (i != 0 && (tu_pick(3) || (i == n - 1 && !pb->n_targets)))
            pb->targets[pb->n_targets++] = i;
    }
    if (tu_pick(3) == 0)
        mpq_set_ui(pb->size, 3, 2);
}

static void test_random(void)
{
    int solved = 0;
    for (int k = 0; k < 90; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(6);
        tu_random_platform(&p, n);
        ssched_problem_t pb;
        random_problem(&pb, &p, n, k % 3);
        if (ssched_problem_validate(&pb, &p, NULL) == SSCHED_OK) {
            solve_both(&p, &pb, k % 4 == 0);
            solved++;
        }
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT(solved >= 70);
    CU_ASSERT(reports > 0);
}

static void test_no_tree(void)
{
    /* two routers (no w): the values can never be merged, TP = 0 for both
     * methods, with the explanation on the CLI */
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_platform_add_node(&p, "a", NULL, NULL, NULL);
    ssched_platform_add_node(&p, "b", NULL, NULL, NULL);
    mpq_t c;
    mpq_init(c);
    mpq_set_ui(c, 1, 1);
    ssched_platform_add_edge(&p, 0, 1, c, NULL);
    ssched_platform_add_edge(&p, 1, 0, c, NULL);
    mpq_clear(c);
    ssched_platform_finalize(&p, NULL);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "a,b", "a", NULL), SSCHED_OK);
    solve_both(&p, &pb, 0);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_cli_method(void)
{
    const char *fig6 = SSCHED_SOURCE_DIR "/examples/fig6.graphml";
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--method colgen --json", fig6), 0);
    json_t *root = json_loads(r.out, 0, NULL);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "throughput")), "1");
    json_t *solver = json_object_get(root, "solver");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(solver, "method")), "colgen");
    CU_ASSERT(json_integer_value(json_object_get(solver, "exact_pricing_passes")) >= 1);
    json_decref(root);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--method simplex", fig6), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"colgen equals the edge LP on random instances", test_random},
        {"no reduction tree: TP = 0", test_no_tree},
        {"CLI --method", test_cli_method},
        {NULL, NULL}};
    return tu_main("colgen", tests);
}
