/* Periodic schedules: every schedule produced goes through the independent
 * checker; no-split amounts are integral; matchings stay within the bound;
 * unrolled schedules reach K operations in K/TP + a constant; the checker
 * rejects hand-broken schedules. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "test_util.h"

static void add_edge(ssched_platform_t *p, size_t a, size_t b, const char *c)
{
    mpq_t q;
    mpq_init(q);
    ssched_rational_parse(q, c, NULL);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, a, b, q, NULL), SSCHED_OK);
    mpq_clear(q);
}

/* s -> a -> t, s -> b -> t, a -> u, b -> u: two targets, split routes,
 * fractional costs. */
static void split_platform(ssched_platform_t *p)
{
    ssched_platform_init(p);
    const char *names[] = {"s", "a", "b", "t", "u"};
    for (int i = 0; i < 5; i++)
        ssched_platform_add_node(p, names[i], NULL, NULL, NULL);
    add_edge(p, 0, 1, "1");
    add_edge(p, 1, 3, "3");
    add_edge(p, 0, 2, "3");
    add_edge(p, 2, 3, "1");
    add_edge(p, 1, 4, "1/2");
    add_edge(p, 2, 4, "2/3");
    add_edge(p, 4, 0, "5/7");
    ssched_platform_finalize(p, NULL);
}

static int check_json(const char *text, char *violation, size_t len)
{
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &rep, &err);
    if (st != SSCHED_OK) {
        snprintf(violation, len, "malformed: %.400s", err.message);
        return -1;
    }
    snprintf(violation, len, "%.480s", rep.violation);
    return rep.valid;
}

/* Solve, build split and no-split schedules, and verify them. */
static void schedule_and_check(const ssched_platform_t *p, const ssched_problem_t *pb)
{
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err), SSCHED_OK);
    if (mpq_sgn(st.throughput) == 0) {
        ssched_steady_free(&st);
        return;
    }
    for (int no_split = 0; no_split < 2; no_split++)
        for (int rule = 0; rule < 2; rule++) {
            ssched_schedule_options_t opt;
            ssched_schedule_options_default(&opt);
            opt.no_split = no_split;
            opt.rule = rule ? SSCHED_MATCHING_ARBITRARY : SSCHED_MATCHING_BOTTLENECK;
            ssched_schedule_t s;
            ssched_schedule_init(&s);
            ssched_status_t status = ssched_schedule_build(p, pb, &st, &opt, &s, &err);
            if (status != SSCHED_OK)
                fprintf(stderr, "\n  build: %s\n", err.message);
            CU_ASSERT_EQUAL_FATAL(status, SSCHED_OK);
            CU_ASSERT(mpq_equal(s.throughput, st.throughput));
            CU_ASSERT(s.n_matchings <= s.matching_bound);
            /* throughput = ops / period exactly */
            mpq_t q;
            mpq_init(q);
            mpq_set_z(q, s.ops_per_period);
            mpq_div(q, q, s.period);
            CU_ASSERT(mpq_equal(q, st.throughput));
            mpq_clear(q);
            if (no_split)
                for (size_t k = 0; k < s.n_slots; k++)
                    for (size_t t = 0; t < s.slots[k].n_transfers; t++)
                        CU_ASSERT(mpz_cmp_ui(mpq_denref(s.slots[k].transfers[t].amount), 1) == 0);
            char *text = tu_schedule_json(p, pb, &s);
            char why[512];
            int valid = check_json(text, why, sizeof why);
            if (valid != 1)
                fprintf(stderr, "\n  checker: %s\n", why);
            CU_ASSERT_EQUAL(valid, 1);
            free(text);
            ssched_schedule_free(&s);
        }
    ssched_steady_free(&st);
}

static void test_split_instance(void)
{
    ssched_platform_t p;
    split_platform(&p);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "s", "t,u", NULL), SSCHED_OK);
    schedule_and_check(&p, &pb);
    mpq_set_ui(pb.size, 3, 2);
    schedule_and_check(&p, &pb);
    ssched_problem_set_gossip(&pb, &p, "s,a,b", "t,u,s", NULL);
    schedule_and_check(&p, &pb);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_random_instances(void)
{
    for (int k = 0; k < 40; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(5);
        tu_random_platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        pb.kind = k % 2 ? SSCHED_PROBLEM_GOSSIP : SSCHED_PROBLEM_SCATTER;
        pb.sources = malloc(n * sizeof(size_t));
        pb.targets = malloc(n * sizeof(size_t));
        for (unsigned i = 0; i < n; i++) {
            if (pb.kind == SSCHED_PROBLEM_GOSSIP ? tu_pick(2) || !pb.n_sources : i == 0)
                pb.sources[pb.n_sources++] = i;
            if (i != 0 && (tu_pick(2) || (i == n - 1 && !pb.n_targets)))
                pb.targets[pb.n_targets++] = i;
        }
        if (ssched_problem_validate(&pb, &p, NULL) == SSCHED_OK)
            schedule_and_check(&p, &pb);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* Unrolled for K = 10, 100, 1000 periods' worth of operations: valid,
 * operations/time -> TP, and the overhead over K/TP does not grow. */
static void test_unrolled(void)
{
    ssched_platform_t p;
    split_platform(&p);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "s", "t,u", NULL), SSCHED_OK);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_schedule_options_t opt;
    ssched_schedule_options_default(&opt);
    opt.no_split = 1;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&p, &pb, &st, &opt, &s, NULL), SSCHED_OK);
    unsigned long ops = mpz_get_ui(s.ops_per_period);
    mpq_t first_overhead, rate, err_now, err_prev;
    mpq_inits(first_overhead, rate, err_now, err_prev, NULL);
    unsigned long periods[] = {10, 100, 1000};
    for (int k = 0; k < 3; k++) {
        unsigned long K = periods[k] * ops;
        ssched_unrolled_t u;
        ssched_unrolled_init(&u);
        CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, K, &u, NULL), SSCHED_OK);
        char *text = tu_unrolled_json(&p, &pb, &s, &u);
        char why[512];
        int valid = check_json(text, why, sizeof why);
        if (valid != 1)
            fprintf(stderr, "\n  unrolled K=%lu: %s\n", K, why);
        CU_ASSERT_EQUAL(valid, 1);
        free(text);
        CU_ASSERT(mpq_sgn(u.overhead) >= 0);
        if (k == 0)
            mpq_set(first_overhead, u.overhead);
        else
            CU_ASSERT(mpq_cmp(u.overhead, first_overhead) <= 0);
        /* |K/makespan - TP| shrinks as K grows */
        mpq_set_ui(rate, K, 1);
        mpq_div(rate, rate, u.makespan);
        mpq_sub(err_now, st.throughput, rate);
        CU_ASSERT(mpq_sgn(err_now) >= 0);
        if (k > 0)
            CU_ASSERT(mpq_cmp(err_now, err_prev) < 0);
        mpq_set(err_prev, err_now);
        ssched_unrolled_free(&u);
    }
    mpq_clears(first_overhead, rate, err_now, err_prev, NULL);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* A valid schedule as a jansson object to break by hand. */
static json_t *valid_schedule(int unrolled)
{
    ssched_platform_t p;
    split_platform(&p);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_problem_set_scatter(&pb, &p, "s", "t,u", NULL);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_schedule_options_t opt;
    ssched_schedule_options_default(&opt);
    opt.no_split = 1;
    ssched_steady_solve(&p, &pb, NULL, &st, NULL);
    ssched_schedule_build(&p, &pb, &st, &opt, &s, NULL);
    char *text;
    if (unrolled) {
        ssched_unrolled_t u;
        ssched_unrolled_init(&u);
        ssched_unroll(&p, &pb, &s, 30, &u, NULL);
        text = tu_unrolled_json(&p, &pb, &s, &u);
        ssched_unrolled_free(&u);
    } else {
        text = tu_schedule_json(&p, &pb, &s);
    }
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return root;
}

static int start_cmp(const void *a, const void *b)
{
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    mpq_set_str(x, json_string_value(json_object_get(*(json_t *const *)a, "start")), 10);
    mpq_set_str(y, json_string_value(json_object_get(*(json_t *const *)b, "start")), 10);
    mpq_canonicalize(x);
    mpq_canonicalize(y);
    int c = mpq_cmp(x, y);
    mpq_clears(x, y, NULL);
    return c;
}

/* Re-sort an event array after a mutation moved an event in time. */
static void sort_by_start(json_t *arr)
{
    size_t n = json_array_size(arr);
    json_t **v = malloc((n ? n : 1) * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = json_incref(json_array_get(arr, k));
    qsort(v, n, sizeof *v, start_cmp);
    json_array_clear(arr);
    for (size_t k = 0; k < n; k++)
        json_array_append_new(arr, v[k]);
    free(v);
}

static void expect_invalid(json_t *root, const char *fragment)
{
    char *text = json_dumps(root, 0);
    char why[512];
    int valid = check_json(text, why, sizeof why);
    if (valid != 0 || !strstr(why, fragment))
        fprintf(stderr, "\n  expected violation '%s', got %d '%s'\n", fragment, valid, why);
    CU_ASSERT_EQUAL(valid, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, fragment));
    free(text);
    json_decref(root);
}

static json_t *transfer(json_t *root, size_t slot, size_t k)
{
    return json_array_get(json_object_get(json_array_get(json_object_get(root, "slots"), slot),
                                          "transfers"), k);
}

static void test_checker_rejects_periodic(void)
{
    json_t *r = valid_schedule(0);
    char *text = json_dumps(r, 0);
    char why[512];
    CU_ASSERT_EQUAL(check_json(text, why, sizeof why), 1);
    free(text);
    json_decref(r);

    /* overlap: a sender talks to two receivers in one slot */
    r = valid_schedule(0);
    json_t *x = json_deep_copy(transfer(r, 0, 0));
    json_object_set_new(x, "to", json_string("b"));
    json_array_append_new(json_object_get(json_array_get(json_object_get(r, "slots"), 0), "transfers"), x);
    expect_invalid(r, "sends to both");

    /* too much on one link for the slot length */
    r = valid_schedule(0);
    json_object_set_new(transfer(r, 0, 0), "amount", json_string("1000"));
    expect_invalid(r, "busy longer than the slot");

    /* wrong count: operations_per_period no longer matches deliveries */
    r = valid_schedule(0);
    json_object_set_new(r, "operations_per_period", json_string("1"));
    json_object_set_new(r, "throughput", json_string("1/26"));
    expect_invalid(r, "receives a number of messages");

    /* throughput inconsistent with ops/period */
    r = valid_schedule(0);
    json_object_set_new(r, "throughput", json_string("1"));
    expect_invalid(r, "throughput differs");

    /* a fractional amount in a no-split schedule */
    r = valid_schedule(0);
    json_object_set_new(transfer(r, 0, 0), "amount", json_string("1/2"));
    expect_invalid(r, "not an integer");

    /* lost messages: a relay's transfer removed breaks conservation */
    r = valid_schedule(0);
    json_t *slots = json_object_get(r, "slots");
    int removed = 0;
    for (size_t k = 0; k < json_array_size(slots) && !removed; k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        for (size_t t = 0; t < json_array_size(tr) && !removed; t++)
            if (!strcmp(json_string_value(json_object_get(json_array_get(tr, t), "from")), "a")) {
                json_array_remove(tr, t);
                removed = 1;
            }
    }
    CU_ASSERT(removed);
    expect_invalid(r, "receives a number of messages");

    /* a slot that ends after the period */
    r = valid_schedule(0);
    json_object_set_new(r, "period", json_string("3"));
    json_object_set_new(r, "operations_per_period", json_string("30/26"));
    expect_invalid(r, "ends after the period");
}

static void test_checker_rejects_unrolled(void)
{
    json_t *r = valid_schedule(1);
    char *text = json_dumps(r, 0);
    char why[512];
    CU_ASSERT_EQUAL(check_json(text, why, sizeof why), 1);
    free(text);
    json_decref(r);

    /* lost message: drop the last transfer */
    r = valid_schedule(1);
    json_t *tr = json_object_get(r, "transfers");
    json_array_remove(tr, json_array_size(tr) - 1);
    expect_invalid(r, "never receives");

    /* double send: the first transfer repeated later from the same node */
    r = valid_schedule(1);
    tr = json_object_get(r, "transfers");
    json_t *x = json_deep_copy(json_array_get(tr, 0));
    json_object_set_new(x, "start", json_string("100000"));
    json_object_set_new(x, "end", json_string("100001"));
    json_array_append_new(tr, x);
    expect_invalid(r, "after it was delivered");

    /* overlap on one port: shift a transfer onto its successor */
    r = valid_schedule(1);
    tr = json_object_get(r, "transfers");
    json_t *a = json_array_get(tr, 0);
    json_t *b = NULL;
    for (size_t k = 1; k < json_array_size(tr) && !b; k++)
        if (json_equal(json_object_get(json_array_get(tr, k), "from"), json_object_get(a, "from")))
            b = json_array_get(tr, k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    json_object_set(b, "start", json_object_get(a, "start"));
    json_object_set(b, "end", json_object_get(a, "end"));
    expect_invalid(r, "two messages at once");

    /* a message forwarded before it arrived: move a relay's send to time 0 */
    r = valid_schedule(1);
    tr = json_object_get(r, "transfers");
    for (size_t k = 0; k < json_array_size(tr); k++) {
        json_t *t = json_array_get(tr, k);
        if (!strcmp(json_string_value(json_object_get(t, "from")), "a") &&
            !strcmp(json_string_value(json_object_get(t, "to")), "t")) {
            json_object_set_new(t, "start", json_string("0"));
            json_object_set_new(t, "end", json_string("3"));
            break;
        }
    }
    sort_by_start(tr); /* unrolled files list events in start order */
    expect_invalid(r, "before it arrived");
}

static void test_checker_malformed(void)
{
    ssched_check_report_t rep;
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_check_schedule_text("{not json", &rep, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_check_schedule_text("{\"format\": \"other/9\"}", &rep, &err), SSCHED_EINPUT);
    json_t *r = valid_schedule(0);
    json_object_set_new(transfer(r, 0, 0), "from", json_string("nowhere"));
    char *text = json_dumps(r, 0);
    CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "unknown node 'nowhere'"));
    free(text);
    json_decref(r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"split-route instance, all variants checked", test_split_instance},
        {"random instances, all variants checked", test_random_instances},
        {"unrolled K = 10, 100, 1000 periods", test_unrolled},
        {"checker rejects broken periodic schedules", test_checker_rejects_periodic},
        {"checker rejects broken unrolled schedules", test_checker_rejects_unrolled},
        {"checker refuses malformed files", test_checker_malformed},
        {NULL, NULL}};
    return tu_main("schedule", tests);
}
