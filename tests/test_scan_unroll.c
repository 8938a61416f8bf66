/* Unrolled scan schedules (issue 27 item 4): schedule/unroll_scan.c builds
 * K operations from the certified packing of prefix structures, and the
 * independent checker (schedule/check_unrolled_scan.c) simulates them with
 * string concatenation.  Every file built here must pass the whole checker
 * (its throughput re-solved), end no earlier than K / TP and LB1, and every
 * mutation (wrong operands, a dropped copy, an early send, a wrong
 * receiver) must be rejected with one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The unrolled file of K operations as text (NULL on failure); fig: its
 * makespan / K/TP into ratio when not NULL. */
static char *unrolled_text(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                           mpq_t ratio)
{
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_unrolled_t u;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    ssched_unrolled_init(&u);
    ssched_error_t err;
    ssched_error_clear(&err);
    char *buf = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, pb, NULL, &st, &err), SSCHED_OK);
    ssched_status_t rc = ssched_scan_unroll(p, pb, &st, K, &s, &u, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  unroll: %s\n", err.message);
    CU_ASSERT_EQUAL(rc, SSCHED_OK);
    if (rc == SSCHED_OK) {
        /* never faster than the bounds it states */
        CU_ASSERT(mpq_cmp(u.fig.makespan, u.fig.steady_time) >= 0);
        CU_ASSERT(mpq_cmp(u.fig.makespan, u.fig.lb1) >= 0);
        CU_ASSERT(mpq_equal(u.fig.throughput, st.throughput));
        if (ratio)
            mpq_div(ratio, u.fig.makespan, u.fig.steady_time);
        FILE *f = open_memstream(&buf, &len);
        CU_ASSERT_FATAL(f != NULL);
        CU_ASSERT_EQUAL(ssched_write_unrolled_json(f, p, pb, &s, &u, &err), SSCHED_OK);
        fclose(f);
    }
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    return buf;
}

/* The full checker (throughput solved again): 1 valid, 0 a violation
 * (one line in why), -1 refused as malformed. */
static int check(const char *text, char *why, size_t n)
{
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &rep, &err);
    snprintf(why, n, "%s", st == SSCHED_OK ? rep.violation : err.message);
    if (st != SSCHED_OK)
        return -1;
    return rep.valid;
}

static void expect_valid(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                         mpq_t ratio)
{
    char *text = unrolled_text(p, pb, K, ratio);
    CU_ASSERT_FATAL(text != NULL);
    char why[512];
    int v = check(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  K = %zu: %s\n", K, why);
    CU_ASSERT_EQUAL(v, 1);
    free(text);
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
    if (sw)
        p->multiport[3] = 1;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void test_valid(void)
{
    mpq_t r1, r2;
    mpq_inits(r1, r2, NULL);
    for (int shape = 0; shape < 4; shape++) {
        ssched_platform_t p;
        size_t N = 3;
        if (shape < 2) {
            star(&p, shape);
        } else {
            N = shape == 2 ? 3 : 4;
            tu_complete(&p, N, "2");
        }
        for (int excl = 0; excl < 2; excl++) {
            ssched_problem_t pb;
            scan_problem(&pb, N, excl);
            expect_valid(&p, &pb, 1, NULL);
            expect_valid(&p, &pb, 10, r1);
            expect_valid(&p, &pb, 80, r2);
            /* the start-up is paid once: makespan / (K/TP) falls with K */
            CU_ASSERT(mpq_cmp(r2, r1) <= 0);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
    /* a chain with latencies */
    ssched_platform_t p;
    ssched_platform_init(&p);
    for (size_t k = 0; k < 3; k++)
        tu_node(&p, k == 0 ? "P0" : k == 1 ? "P1" : "P2", "1/2");
    tu_link2(&p, 0, 1, "1");
    tu_link2(&p, 1, 2, "2/3");
    mpq_set_str(r1, "1/4", 10);
    for (size_t e = 0; e < p.n_edges; e++)
        mpq_set(p.l[e], r1);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
    ssched_problem_t pb;
    scan_problem(&pb, 3, 0);
    expect_valid(&p, &pb, 25, NULL);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    mpq_clears(r1, r2, NULL);
}

/* Mutations of a valid file: each must be rejected by a violation whose
 * text names the fault (one line). */
static int cmp_start(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    mpq_t p, q;
    mpq_inits(p, q, NULL);
    mpq_set_str(p, json_string_value(json_object_get(x, "start")), 10);
    mpq_set_str(q, json_string_value(json_object_get(y, "start")), 10);
    mpq_canonicalize(p);
    mpq_canonicalize(q);
    int r = mpq_cmp(p, q);
    mpq_clears(p, q, NULL);
    return r;
}

/* Re-sort an event array on start (stable enough: distinct starts). */
static void resort(json_t *arr)
{
    size_t n = json_array_size(arr);
    json_t **v = malloc(n * sizeof *v);
    CU_ASSERT_FATAL(v != NULL);
    for (size_t k = 0; k < n; k++)
        v[k] = json_incref(json_array_get(arr, k));
    qsort(v, n, sizeof *v, cmp_start);
    json_array_clear(arr);
    for (size_t k = 0; k < n; k++)
        json_array_append_new(arr, v[k]);
    free(v);
}

static void shift(json_t *x, const char *key, const mpq_t by)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_str(q, json_string_value(json_object_get(x, key)), 10);
    mpq_canonicalize(q);
    mpq_add(q, q, by);
    char *t = mpq_get_str(NULL, 10, q);
    json_object_set_new(x, key, json_string(t));
    free(t);
    mpq_clear(q);
}

static void expect_rejected(json_t *root, const char *what, const char *needle)
{
    char *text = json_dumps(root, 0);
    CU_ASSERT_FATAL(text != NULL);
    char why[512];
    int v = check(text, why, sizeof why);
    if (v != 0 || !strstr(why, needle))
        fprintf(stderr, "\n  mutation '%s': %d '%s'\n", what, v, why);
    CU_ASSERT_EQUAL(v, 0);
    CU_ASSERT(strstr(why, needle) != NULL);
    CU_ASSERT(strchr(why, '\n') == NULL);
    free(text);
}

/* The first event of arr whose field key equals the JSON text want. */
static size_t find(json_t *arr, const char *key, const char *want)
{
    for (size_t k = 0; k < json_array_size(arr); k++) {
        char *t = json_dumps(json_object_get(json_array_get(arr, k), key), JSON_ENCODE_ANY | JSON_COMPACT);
        int hit = t && !strcmp(t, want);
        free(t);
        if (hit)
            return k;
    }
    return SIZE_MAX;
}

static void test_mutations(void)
{
    ssched_platform_t p;
    tu_complete(&p, 3, "1");
    ssched_problem_t pb;
    scan_problem(&pb, 3, 0);
    char *text = unrolled_text(&p, &pb, 4, NULL);
    CU_ASSERT_FATAL(text != NULL);
    json_error_t je;
    json_t *orig = json_loads(text, 0, &je);
    CU_ASSERT_FATAL(orig != NULL);
    free(text);
    mpq_t by;
    mpq_init(by);

    /* wrong operands: T(0,1,2) computed as T(0,0,2) (v[0,0] (x) v[1,2]) */
    json_t *r = json_deep_copy(orig);
    json_t *co = json_object_get(r, "computations");
    size_t k = find(co, "task", "[0,1,2]");
    CU_ASSERT_FATAL(k != SIZE_MAX);
    json_object_set_new(json_array_get(co, k), "task", json_pack("[iii]", 0, 0, 2));
    expect_rejected(r, "wrong operands", "uses v[");
    json_decref(r);

    /* a dropped copy: the transfer bringing v[0,1] to P1 (or, if P1
     * computes it, the one bringing v[0,0]) */
    r = json_deep_copy(orig);
    json_t *tr = json_object_get(r, "transfers");
    k = find(tr, "to", "\"P1\"");
    CU_ASSERT_FATAL(k != SIZE_MAX);
    json_array_remove(tr, k);
    expect_rejected(r, "dropped copy", "time-stamp");
    json_decref(r);

    /* an early send: a transfer of a computed prefix moved before it exists */
    r = json_deep_copy(orig);
    tr = json_object_get(r, "transfers");
    co = json_object_get(r, "computations");
    k = SIZE_MAX;
    for (size_t x = 0; x < json_array_size(tr) && k == SIZE_MAX; x++) {
        json_t *iv = json_object_get(json_array_get(tr, x), "interval");
        if (json_integer_value(json_array_get(iv, 1)) > json_integer_value(json_array_get(iv, 0)))
            k = x;
    }
    CU_ASSERT_FATAL(k != SIZE_MAX);
    json_t *ev = json_array_get(tr, k);
    mpq_set_str(by, json_string_value(json_object_get(ev, "start")), 10);
    mpq_canonicalize(by);
    mpq_neg(by, by); /* to time 0: no computed value exists then */
    shift(ev, "start", by);
    shift(ev, "end", by);
    resort(tr);
    expect_rejected(r, "early send", "uses v[");
    json_decref(r);

    /* a wrong receiver: the first transfer to P1 goes to P2 instead */
    r = json_deep_copy(orig);
    tr = json_object_get(r, "transfers");
    k = find(tr, "to", "\"P1\"");
    ev = json_array_get(tr, k);
    const char *from = json_string_value(json_object_get(ev, "from"));
    json_object_set_new(ev, "to", json_string(!strcmp(from, "P2") ? "P0" : "P2"));
    expect_rejected(r, "wrong receiver", "");
    json_decref(r);

    json_decref(orig);
    mpq_clear(by);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_cli(void)
{
    const char *tiers = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    char path[] = "/tmp/ssched-scan-unroll-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scan --participants "
                               "h0_0_0_0,h0_0_1_0,h1_0_0_0 --exclusive --operations 20 --unroll "
                               "-o '%s'", tiers, path), 0);
    CU_ASSERT(r.out && strstr(r.out, "unrolled scan for 20 operations") &&
              strstr(r.out, "checked: valid"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", path), 0);
    CU_ASSERT(r.out && strstr(r.out, "valid"));
    tu_run_free(&r);
    remove(path);
    static const char *const bad[] = {
        "schedule '%s' --problem scan --participants h0_0_0_0,h0_0_1_0 --dot /dev/null",
        "schedule '%s' --problem scan --participants h0_0_0_0,h0_0_1_0 --operations 5 --unroll "
        "--batch 2 -o /dev/null",
        "schedule '%s' --problem scan --participants h0_0_0_0,h0_0_1_0 --operations 5 --unroll "
        "--model routed -o /dev/null",
        NULL};
    for (size_t k = 0; bad[k]; k++) {
        int st = tu_run(&r, bad[k], tiers);
        if (st != 2 || tu_count_lines(r.err) != 1)
            fprintf(stderr, "\n  '%s': exit %d, stderr '%s'\n", bad[k], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
}

/* ssched-exec --verify under mpirun: every participant j >= 1 gets the
 * ordered product of the 2x2 matrices of participants 0..j (exclusive
 * 0..j-1), exactly once per operation; a failing result callback fails
 * the run.  Under SMPI, paced (--pace 1: no event before its planned
 * start), the simulated makespan is the plan's within 1e-9. */
#ifdef SSCHED_MPIRUN
#define MPIRUN "OMPI_MCA_mpi_yield_when_idle=1 " SSCHED_MPIRUN " --allow-run-as-root --oversubscribe -q"
#endif

static const char *scan_file(const char *plat, const char *parts, const char *extra, unsigned long K,
                             const char *name)
{
    const char *path = tu_tmp_path(name);
    tu_run_t r;
    tu_run(&r, "schedule '%s/examples/%s.graphml' --problem scan --participants %s %s "
               "--operations %lu --unroll -o '%s'", SSCHED_SOURCE_DIR, plat, parts, extra, K, path);
    if (r.status != 0)
        fprintf(stderr, "\n  ssched schedule (scan) failed: %s", r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    return path;
}

#define NO_LEAKS "ASAN_OPTIONS=detect_leaks=0 "
static void test_exec(void)
{
#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
    static const struct {
        const char *plat, *parts, *extra;
        int np;
    } runs[] = {{"fig6", "P0,P1,P2", "", 3},
                {"fig6", "P0,P1,P2", "--exclusive", 3},
                {"tiers-small", "h0_0_0_0,h0_0_1_0,h1_0_0_0,h0_0_0_1", "", 20},
                {"tiers-small", "h0_0_0_0,h0_0_1_0,h1_0_0_0,h0_0_0_1", "--exclusive", 20}};
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        char name[64];
        snprintf(name, sizeof name, "scan-exec-%zu.json", k);
        const char *path = scan_file(runs[k].plat, runs[k].parts, runs[k].extra, 40, name);
        tu_run_t r;
        /* Open MPI's own allocations read as leaks under ASan (test_mpi_exec.c) */
        tu_sh(&r, NO_LEAKS MPIRUN " -x ASAN_OPTIONS -np %d '%s' '%s' --verify --json "
                           "--unit-bytes 640",
              runs[k].np, SSCHED_EXEC, path);
        const char *last = r.out ? strrchr(r.out, '{') : NULL;
        int ok = r.status == 0 && last && strstr(last, "\"verified\": true");
        if (!ok)
            fprintf(stderr, "\n  %s: status %d\n%s\n%s", path, r.status, r.out ? r.out : "",
                    r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
        if (k == 0) { /* a result callback that fails: the run fails */
            tu_sh(&r, "SSCHED_EXEC_FAIL_OP=3 " NO_LEAKS MPIRUN " -x ASAN_OPTIONS -np 3 '%s' '%s' "
                      "--verify --unit-bytes 640",
                  SSCHED_EXEC, path);
            CU_ASSERT_NOT_EQUAL(r.status, 0);
            tu_run_free(&r);
        }
    }
#endif
#if defined(SSCHED_EXEC_SMPI) && defined(SSCHED_SMPIRUN)
    const char *xml = tu_tmp_path("scan-ts.xml"), *hosts = tu_tmp_path("scan-ts.hosts");
    tu_run_t s;
    tu_run(&s, "export simgrid '%s/examples/tiers-small.graphml' -o '%s' --hostfile '%s'",
           SSCHED_SOURCE_DIR, xml, hosts);
    CU_ASSERT_EQUAL_FATAL(s.status, 0);
    tu_run_free(&s);
    const char *path = scan_file("tiers-small", "h0_0_0_0,h0_0_1_0,h1_0_0_0", "", 100,
                                 "scan-smpi.json");
    tu_sh(&s, SSCHED_SMPIRUN " -np 20 -platform '%s' -hostfile '%s' "
          "$(sh '%s/bench/smpi_exact.sh' --print-cfg B) --log=root.thres:warning '%s' '%s' "
          "--json --verify --pace 1", xml, hosts, SSCHED_SOURCE_DIR, SSCHED_EXEC_SMPI, path);
    const char *m = s.out ? strstr(s.out, "\"ratio\": ") : NULL;
    double ratio = m ? atof(m + 9) : 0;
    int ok = ratio > 1 - 1e-9 && ratio < 1 + 1e-9 && strstr(s.out, "\"verified\": true");
    if (!ok)
        fprintf(stderr, "\n  smpi scan: status %d ratio %.17g\n%s\n%s", s.status, ratio,
                s.out ? s.out : "", s.err ? s.err : "");
    CU_ASSERT(ok);
    tu_run_free(&s);
#endif
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"valid: star (one-port, switch), complete graphs, latency; bounds", test_valid},
        {"checker mutations: operands, dropped copy, early send, receiver", test_mutations},
        {"CLI: schedule --unroll, check; bad input", test_cli},
        {"ssched-exec --verify under mpirun; SMPI paced = plan within 1e-9", test_exec},
        {NULL, NULL}};
    return tu_main("scan_unroll", tests);
}
