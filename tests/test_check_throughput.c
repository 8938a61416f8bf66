/* `check` verifies the throughput a file claims by solving its problem
 * again (issue 24, item 1): an unrolled file whose throughput (with its
 * steady_time, overhead, lower_bound and ratio made consistent with it) is
 * x10, x2, x1.1, x0.9 or TP + 1/10^9 is refused, on every problem kind;
 * periodic files' upper_bound, optimal and fixed_period.optimal_throughput
 * likewise; honest files pass; a problem above --max-solve-size is refused
 * with exit 2 naming the limit, never accepted unverified. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "test_util.h"

#define TIERS SSCHED_SOURCE_DIR "/examples/tiers-small.graphml"
#define FIG6 SSCHED_SOURCE_DIR "/examples/fig6.graphml"
#define HOSTS3 "h0_0_0_0,h0_0_1_0,h1_0_0_1"

/* Every kind on tiers-small, where no port cut is tight (only solving
 * again tells a forged throughput). */
static const char *const kinds[][2] = {
    {"scatter", "--problem scatter --source h0_0_0_0 --targets h0_0_1_0,h1_0_0_0,h1_0_1_2"},
    {"gossip", "--problem gossip --sources h0_0_0_0,h1_0_0_0 --targets h0_0_1_1,h1_0_1_1"},
    {"reduce", "--problem reduce --participants " HOSTS3 " --target h0_0_0_1"},
    {"commutative reduce",
     "--problem reduce --commutative --participants " HOSTS3 " --target h0_0_0_1"},
    {"allreduce", "--problem allreduce --participants " HOSTS3 " --root h0_0_0_1"},
    {"broadcast", "--problem broadcast --source h0_0_0_0"},
    {"multicast", "--problem broadcast --source h0_0_0_0 --targets h0_0_1_0,h1_0_0_0,h1_0_1_2"}};
#define N_KINDS (sizeof kinds / sizeof *kinds)

/* A file made by `schedule` (extra: options after the problem), parsed. */
static json_t *make(const char *platform, const char *problem, const char *extra)
{
    static int n;
    char name[32];
    snprintf(name, sizeof name, "tp%d.json", n++);
    const char *path = tu_tmp_path(name);
    tu_run_t r;
    int st = tu_run(&r, "schedule '%s' %s %s --quiet -o '%s'", platform, problem, extra, path);
    if (st != 0)
        fprintf(stderr, "\n  schedule %s %s: %s\n", problem, extra, r.err ? r.err : "");
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    return root;
}

static void get(json_t *obj, const char *key, mpq_t out)
{
    CU_ASSERT_EQUAL_FATAL(mpq_set_str(out, json_string_value(json_object_get(obj, key)), 10), 0);
    mpq_canonicalize(out);
}

static void put(json_t *obj, const char *key, const mpq_t q)
{
    char *t = mpq_get_str(NULL, 10, q);
    json_object_set_new(obj, key, json_string(t));
    free(t);
}

/* Check root (not consumed): 1 valid, 0 invalid (violation in why), -1
 * malformed. */
static int verdict(json_t *root, char *why, size_t cap)
{
    char *text = json_dumps(root, JSON_PRESERVE_ORDER);
    int v = tu_check_text(text, why, cap);
    free(text);
    return v;
}

/* The unrolled file with throughput TP * num / den (+ add), and every
 * figure derived from it made consistent: steady_time = K / TP, overhead,
 * lower_bound = max(steady_time, lb1), ratio. */
static json_t *forge_unrolled(json_t *honest, const char *factor, const char *add)
{
    json_t *r = json_deep_copy(honest);
    mpq_t tp, f, K, mk, lb1, st, q;
    mpq_inits(tp, f, K, mk, lb1, st, q, NULL);
    get(r, "throughput", tp);
    CU_ASSERT_EQUAL(mpq_set_str(f, factor, 10), 0);
    mpq_canonicalize(f);
    mpq_mul(tp, tp, f);
    if (add) {
        CU_ASSERT_EQUAL(mpq_set_str(q, add, 10), 0);
        mpq_canonicalize(q);
        mpq_add(tp, tp, q);
    }
    put(r, "throughput", tp);
    mpq_set_ui(K, (unsigned long)json_integer_value(json_object_get(r, "operations")), 1);
    get(r, "makespan", mk);
    get(r, "lb1", lb1);
    mpq_div(st, K, tp);
    put(r, "steady_time", st);
    mpq_sub(q, mk, st);
    put(r, "overhead", q);
    mpq_set(q, mpq_cmp(st, lb1) > 0 ? st : lb1);
    put(r, "lower_bound", q);
    mpq_div(q, mk, q);
    put(r, "ratio", q);
    mpq_clears(tp, f, K, mk, lb1, st, q, NULL);
    return r;
}

static void test_unrolled_forged(void)
{
    static const char *const forged[][2] = {{"10", NULL}, {"2", NULL}, {"11/10", NULL},
                                            {"9/10", NULL}, {"1", "1/1000000000"},
                                            {"1", "-1/1000000000"}};
    for (size_t k = 0; k < N_KINDS; k++) {
        json_t *honest = make(TIERS, kinds[k][1], "--operations 4 --unroll");
        char why[600];
        int v = verdict(honest, why, sizeof why);
        if (v != 1)
            fprintf(stderr, "\n  %s: honest unrolled file: %s\n", kinds[k][0], why);
        CU_ASSERT_EQUAL(v, 1);
        for (size_t f = 0; f < sizeof forged / sizeof *forged; f++) {
            json_t *bad = forge_unrolled(honest, forged[f][0], forged[f][1]);
            v = verdict(bad, why, sizeof why);
            if (v != 0)
                fprintf(stderr, "\n  %s: throughput x%s + %s accepted (%d)\n", kinds[k][0],
                        forged[f][0], forged[f][1] ? forged[f][1] : "0", v);
            CU_ASSERT_EQUAL(v, 0);
            /* only solving again tells TP + 1/10^9 (within every port cut) */
            if (forged[f][1] && forged[f][1][0] != '-')
                CU_ASSERT_PTR_NOT_NULL(strstr(why, "solved again"));
            json_decref(bad);
        }
        json_decref(honest);
    }
}

/* The periodic claims: upper_bound forged (and "optimal" made consistent
 * with it, so that only solving again tells), "optimal" flipped. */
static void test_periodic_forged(void)
{
    for (size_t k = 0; k < N_KINDS; k++) {
        json_t *honest = make(TIERS, kinds[k][1], "");
        char why[600];
        int v = verdict(honest, why, sizeof why);
        if (v != 1)
            fprintf(stderr, "\n  %s: honest periodic file: %s\n", kinds[k][0], why);
        CU_ASSERT_EQUAL(v, 1);
        if (!json_object_get(honest, "upper_bound")) {
            json_decref(honest);
            continue;
        }
        static const char *const factors[] = {"10", "2", "11/10"};
        mpq_t ub, f;
        mpq_inits(ub, f, NULL);
        for (size_t x = 0; x < 4; x++) {
            json_t *bad = json_deep_copy(honest);
            get(bad, "upper_bound", ub);
            if (x < 3) {
                mpq_set_str(f, factors[x], 10);
                mpq_canonicalize(f);
                mpq_mul(ub, ub, f);
            } else {
                mpq_set_ui(f, 1, 1000000000);
                mpq_add(ub, ub, f);
            }
            put(bad, "upper_bound", ub);
            json_object_set_new(bad, "optimal", json_false());
            v = verdict(bad, why, sizeof why);
            CU_ASSERT_EQUAL(v, 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(why, "solved again"));
            json_decref(bad);
        }
        /* "optimal" flipped alone */
        json_t *bad = json_deep_copy(honest);
        json_object_set_new(bad, "optimal", json_boolean(!json_is_true(json_object_get(honest, "optimal"))));
        CU_ASSERT_EQUAL(verdict(bad, why, sizeof why), 0);
        json_decref(bad);
        mpq_clears(ub, f, NULL);
        json_decref(honest);
    }
}

/* A reduce with a fixed period states the optimum it gave up from. */
static void test_fixed_period_forged(void)
{
    json_t *honest = make(FIG6, "--problem reduce --participants P0,P1,P2 --target P0",
                          "--fixed-period 10");
    char why[600];
    CU_ASSERT_EQUAL(verdict(honest, why, sizeof why), 1);
    json_t *fixed = json_object_get(honest, "fixed_period");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fixed);
    /* optimal_throughput raised by 1 (lcm_period 1: still whole operations;
     * report_bound kept, so card(TREES) grows by TF and the floors stay
     * within card(TREES) / TF of it): only the optimum solved again tells */
    json_t *bad = json_deep_copy(honest);
    json_t *bf = json_object_get(bad, "fixed_period");
    mpq_t q, d;
    mpq_inits(q, d, NULL);
    mpq_set_ui(d, 1, 1);
    get(bf, "optimal_throughput", q);
    mpq_add(q, q, d);
    put(bf, "optimal_throughput", q);
    CU_ASSERT_EQUAL(verdict(bad, why, sizeof why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "solved again"));
    json_decref(bad);
    mpq_clears(q, d, NULL);
    json_decref(honest);
}

/* Above --max-solve-size: exit 2, one line naming the limit; raised: valid. */
static void test_limit(void)
{
    json_t *root = make(TIERS, kinds[1][1], "--operations 2 --unroll");
    const char *path = tu_tmp_path("limit.json");
    CU_ASSERT_EQUAL_FATAL(json_dump_file(root, path, 0), 0);
    json_decref(root);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s' --max-solve-size 10", path), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-solve-size"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "above the limit 10"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, path));
    CU_ASSERT_EQUAL(r.out[0], 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s' --max-solve-size 100000", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid unrolled schedule"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s' --max-solve-size 0", path), 2);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s' --bogus", path), 2);
    tu_run_free(&r);
    /* the library: SSCHED_ELIMIT */
    char *text = tu_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    ssched_check_options_t opt;
    ssched_check_options_default(&opt);
    opt.max_solve_size = 10;
    ssched_check_report_t rep;
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_check_schedule_buffer_opts(text, strlen(text), &opt, &rep, &err),
                    SSCHED_ELIMIT);
    free(text);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"unrolled files: forged throughput refused on every kind", test_unrolled_forged},
        {"periodic files: forged upper_bound and optimal refused", test_periodic_forged},
        {"fixed period: forged optimal_throughput refused", test_fixed_period_forged},
        {"a problem too large to solve again: exit 2 naming the limit", test_limit},
        {NULL, NULL}};
    return tu_main("check throughput claims", tests);
}
