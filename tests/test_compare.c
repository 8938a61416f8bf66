/* ssched compare: the table's invariants, the crossover's definition, and
 * bad inputs. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/compare.h"
#include "test_util.h"

static void test_invariants(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_mk_cluster_parse(&c, "1,1,2,2", &err), SSCHED_OK);
    static const unsigned long ops[] = {1, 10, 50, 100, 200};
    ssched_compare_options_t o;
    ssched_compare_options_default(&o);
    o.ops = ops;
    o.n_ops = 5;
    ssched_compare_t r;
    ssched_compare_init(&r);
    CU_ASSERT_EQUAL_FATAL(ssched_compare_run(&c, &o, &r, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(r.n_rows, 5);
    mpq_t q;
    mpq_init(q);
    for (size_t k = 0; k < r.n_rows; k++) {
        /* one at a time: exactly M times the one-shot makespan */
        mpq_set_ui(q, r.M[k], 1);
        mpq_mul(q, q, r.one_shot);
        CU_ASSERT(mpq_equal(q, r.sequential[k]));
        /* pipelined: never faster than M / TP (RR-4872 Lemma 1) */
        mpq_set_ui(q, r.M[k], 1);
        mpq_div(q, q, r.throughput);
        CU_ASSERT(mpq_cmp(r.pipelined[k], q) >= 0);
    }
    /* SNF on 1,1,2,2 to processor 0 is optimal here: 3 time units */
    CU_ASSERT(mpq_cmp_ui(r.one_shot, 3, 1) == 0);
    CU_ASSERT(r.pipelining_can_win);
    CU_ASSERT_FATAL(r.crossover_found);
    /* the crossover is the first M where the pipelined schedule is faster */
    static const unsigned long around[2] = {0, 0};
    (void)around;
    unsigned long M = r.crossover;
    unsigned long probe[2] = {M - 1, M};
    ssched_compare_options_t o2 = o;
    o2.ops = M > 1 ? probe : probe + 1;
    o2.n_ops = M > 1 ? 2 : 1;
    o2.crossover_limit = 0;
    ssched_compare_t r2;
    ssched_compare_init(&r2);
    CU_ASSERT_EQUAL_FATAL(ssched_compare_run(&c, &o2, &r2, &err), SSCHED_OK);
    size_t last = r2.n_rows - 1;
    CU_ASSERT(mpq_cmp(r2.pipelined[last], r2.sequential[last]) < 0);
    if (r2.n_rows == 2)
        CU_ASSERT(mpq_cmp(r2.pipelined[0], r2.sequential[0]) >= 0);
    ssched_compare_free(&r2);
    const char *svg = tu_tmp_path("cmp.svg");
    FILE *f = fopen(svg, "w");
    CU_ASSERT_EQUAL(ssched_write_compare_svg(f, &r, &err), SSCHED_OK);
    fclose(f);
    char *text = tu_read_file(svg);
    CU_ASSERT(text && strstr(text, "<svg") && strstr(text, "crossover"));
    free(text);
    mpq_clear(q);
    ssched_compare_free(&r);
    ssched_mk_cluster_free(&c);
}

static void test_never(void)
{
    /* broadcast from p0 on times 1,5: the one-shot schedule sends once, in
     * 1; any pipelined series sends every message out of p0 at least once,
     * so TP <= 1 (reached): 1/TP = makespan, pipelining never wins */
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_mk_cluster_parse(&c, "1,5", &err), SSCHED_OK);
    ssched_compare_options_t o;
    ssched_compare_options_default(&o);
    static const unsigned long ops[] = {1, 10};
    o.ops = ops;
    o.n_ops = 2;
    o.op = SSCHED_MK_BROADCAST;
    o.optimal = 1;
    ssched_compare_t r;
    ssched_compare_init(&r);
    CU_ASSERT_EQUAL_FATAL(ssched_compare_run(&c, &o, &r, &err), SSCHED_OK);
    CU_ASSERT(mpq_cmp_ui(r.one_shot, 1, 1) == 0);
    CU_ASSERT(mpq_cmp_ui(r.throughput, 1, 1) == 0);
    CU_ASSERT(!r.pipelining_can_win);
    CU_ASSERT(!r.crossover_found);
    ssched_compare_free(&r);
    ssched_mk_cluster_free(&c);
}

/* The true pipelined broadcast on times 1,1,1,1 from p0: a node holding
 * the message forwards copies, so the chain p0 -> p1 -> p2 -> p3 sends
 * one copy per port and message: TP = 1 (p0 sends each message at least
 * once, so no more).  The series of scatters compare used to stand in with
 * sends three messages out of p0 per operation: TP 1/3, and 1/TP = 3 above
 * the one-shot makespan 2 (FNF: p0 -> p1, then p0 -> p2 and p1 -> p3), so
 * it never won; the broadcast does. */
static void test_broadcast(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_mk_cluster_parse(&c, "1,1,1,1", &err), SSCHED_OK);
    ssched_compare_options_t o;
    ssched_compare_options_default(&o);
    static const unsigned long ops[] = {1, 10, 100};
    o.ops = ops;
    o.n_ops = 3;
    o.op = SSCHED_MK_BROADCAST;
    ssched_compare_t r;
    ssched_compare_init(&r);
    CU_ASSERT_EQUAL_FATAL(ssched_compare_run(&c, &o, &r, &err), SSCHED_OK);
    CU_ASSERT(mpq_cmp_ui(r.one_shot, 2, 1) == 0);
    CU_ASSERT(mpq_cmp_ui(r.throughput, 1, 1) == 0);
    CU_ASSERT(r.pipelining_can_win);
    CU_ASSERT(r.crossover_found);
    for (size_t k = 0; k < r.n_rows; k++) /* never below M / TP = M */
        CU_ASSERT(mpq_cmp_ui(r.pipelined[k], r.M[k], 1) >= 0);
    /* 100 broadcasts pipelined beat 100 one at a time (200) */
    CU_ASSERT(mpq_cmp(r.pipelined[2], r.sequential[2]) < 0);
    ssched_compare_free(&r);
    ssched_mk_cluster_free(&c);
}

static void test_cli(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "compare --times 1,1,2,2 --root 0 --ops 1,100 --json"), 0);
    json_t *root = json_loads(r.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "makespan")), "3");
    CU_ASSERT(json_is_integer(json_object_get(root, "crossover")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(root, "rows")), 2);
    json_decref(root);
    tu_run_free(&r);
    const char *bad[] = {"--times 1,2 --root 5", "--times 1,2", "--times 1,0,2 --root 0",
                         "--times 1,2 --root 0 --algorithm fnf", "--times 1,2 --root 0 --ops 5,3",
                         "--times 1,2 --root 0 --operation gather", "--root 0",
                         "--times 1,2 --root 0 --ops 0", "/nonexistent.graphml --root a",
                         "--times 1,2 --root 0 --bogus"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int st = tu_run(&r, "compare %s", bad[k]);
        if (st != 2 || tu_count_lines(r.err) != 1)
            fprintf(stderr, "\n  compare %s -> %d: %s", bad[k], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
    /* a platform file that is not a sender-determined complete graph */
    CU_ASSERT_EQUAL(tu_run(&r, "compare '%s/examples/fig2.graphml' --root Ps", SSCHED_SOURCE_DIR), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "complete"));
    tu_run_free(&r);
    /* fig6 is complete with c = 1 everywhere: a cluster of times 1,1,1 */
    CU_ASSERT_EQUAL(tu_run(&r, "compare '%s/examples/fig6.graphml' --root P0 --ops 1,2", SSCHED_SOURCE_DIR), 0);
    tu_run_free(&r);
}

/* Requests beyond the limits are refused up front, naming the estimate
 * and the option; the example finishes with a crossover. */
static void test_limits(void)
{
    tu_run_t r;
    char times[1024] = "";
    for (int i = 0; i < 200; i++)
        snprintf(times + strlen(times), sizeof times - strlen(times), "%s%d", i ? "," : "",
                 1 + i % 7);
    CU_ASSERT_EQUAL(tu_run(&r, "compare --times %s --root 0 --ops 1,10", times), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-memory"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "MB (estimate)"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "compare --times 1,2,3,5,8 --root 0 --ops 1000000"), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-ops"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "compare --times 1,2,3,5,8 --root 0"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "crossover: pipelining is faster from M = "));
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"table invariants and crossover", test_invariants},
        {"pipelining that never wins", test_never},
        {"the true pipelined broadcast: TP 1 where scatters gave 1/3", test_broadcast},
        {"CLI and bad inputs", test_cli},
        {"limits refused up front; the times 1,2,3,5,8 example", test_limits},
        {NULL, NULL}};
    return tu_main("compare", tests);
}
