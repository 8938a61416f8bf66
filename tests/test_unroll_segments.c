/* Segments (issue 23; schedule/unroll_seg.c): `ssched schedule --unroll
 * --segments P` plans K element-wise operations as K*P operations of size
 * / P (merges w / P), the file saying "segments": P.
 *
 * On a 4-host cluster (cluster_backbone.xml's cluster cut to 4 hosts: 125
 * MB/s private links, 50 us, a 2.25 GB/s backbone; 1 MB messages, 10^7
 * flops per merge), the all-reduce of 20 operations runs 0.3278 s whole and
 * 0.279 s in 5 segments (K/TP = 24/95 both: the segment problem's TP is 5
 * times the original's, exactly; a segment holds whole 32-byte elements,
 * the executor's 2x2 matrices), and ssched-exec-smpirun runs the
 * segmented file with the ORIGINAL --unit-bytes and --flops-per-task (the
 * executor sends unit x size bytes and runs flops x size per merge), every
 * segment's result verified, simulated = planned.  The checker accepts the
 * file and rejects a "segments" that does not divide the operations or a
 * non-element-wise problem that claims it. */
#include <CUnit/Basic.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/platform.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

static const char *UNITS = "--unit-bytes 1000000 --flops-per-task 10000000";
static const char *AR = "--problem allreduce --participants node-0,node-1,node-2,node-3";

static const char *cluster4(void)
{
    return tu_cluster4_xml("seg_cluster4.xml");
}

/* plan K operations in P segments (P = NULL: whole) into path */
static int plan(const char *xml, const char *prob, int K, const char *P, const char *path)
{
    tu_run_t r;
    char seg[64] = "";
    if (P)
        snprintf(seg, sizeof seg, "--segments %s", P);
    tu_run(&r, "schedule '%s' %s %s --operations %d --unroll %s --quiet -o '%s'", xml, prob, UNITS,
           K, seg, path);
    int st = r.status;
    if (st != 0)
        fprintf(stderr, "\n  schedule: %s", r.err ? r.err : "");
    tu_run_free(&r);
    return st;
}

static void fig(json_t *root, const char *key, mpq_t q)
{
    const char *t = json_string_value(json_object_get(root, key));
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_FATAL(mpq_set_str(q, t, 10) == 0);
    mpq_canonicalize(q);
}

/* the segmented plan: K*P operations of size 1/P, "segments": P, the same
 * K/TP, a shorter makespan; without --segments the option fails */
static void test_cli_segments(void)
{
    const char *xml = cluster4(), *whole = tu_tmp_path("seg_whole.json"),
               *cut = tu_tmp_path("seg_cut.json");
    CU_ASSERT_FATAL(plan(xml, AR, 20, NULL, whole) == 0);
    CU_ASSERT_FATAL(plan(xml, AR, 20, "5", cut) == 0);
    json_t *a = json_load_file(whole, 0, NULL), *b = json_load_file(cut, 0, NULL);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT(json_object_get(a, "segments") == NULL);
    CU_ASSERT(json_integer_value(json_object_get(b, "segments")) == 5);
    CU_ASSERT(json_integer_value(json_object_get(b, "operations")) == 100);
    CU_ASSERT(!strcmp(json_string_value(json_object_get(json_object_get(b, "problem"), "size")),
                      "1/5"));
    mpq_t ma, mb, sa, sb;
    mpq_inits(ma, mb, sa, sb, NULL);
    fig(a, "makespan", ma);
    fig(b, "makespan", mb);
    fig(a, "steady_time", sa);
    fig(b, "steady_time", sb);
    CU_ASSERT(mpq_equal(sa, sb));      /* K*P / TP_P = K / TP */
    CU_ASSERT(mpq_cmp(mb, ma) < 0);    /* the fill shrinks   */
    CU_ASSERT(mpq_cmp(sb, mb) <= 0);
    mpq_clears(ma, mb, sa, sb, NULL);
    json_decref(a);
    json_decref(b);
}

/* the checker: the file is valid; "segments" 3 does not divide 80; a
 * non-integer is bad input; a scatter cannot be segments */
static void test_check_segments(void)
{
    const char *xml = cluster4(), *cut = tu_tmp_path("seg_cut2.json"),
               *mut = tu_tmp_path("seg_mut.json"), *sc = tu_tmp_path("seg_scatter.json");
    CU_ASSERT_FATAL(plan(xml, AR, 5, "2", cut) == 0);
    tu_run_t r;
    tu_run(&r, "check '%s'", cut);
    CU_ASSERT(r.status == 0);
    tu_run_free(&r);
    json_t *root = json_load_file(cut, 0, NULL);
    CU_ASSERT_FATAL(root != NULL);
    json_object_set_new(root, "segments", json_integer(3));
    CU_ASSERT_FATAL(json_dump_file(root, mut, 0) == 0);
    tu_run(&r, "check '%s'", mut);
    CU_ASSERT(r.status == 1);
    CU_ASSERT(r.out && strstr(r.out, "\"segments\": 3 does not divide the 10 operations"));
    tu_run_free(&r);
    json_object_set_new(root, "segments", json_string("2"));
    CU_ASSERT_FATAL(json_dump_file(root, mut, 0) == 0);
    tu_run(&r, "check '%s'", mut);
    CU_ASSERT(r.status == 2);
    CU_ASSERT(tu_count_lines(r.err) == 1);
    tu_run_free(&r);
    json_decref(root);
    CU_ASSERT_FATAL(plan(xml, "--problem scatter --source node-0 --targets node-1,node-2", 4,
                         NULL, sc) == 0);
    root = json_load_file(sc, 0, NULL);
    CU_ASSERT_FATAL(root != NULL);
    json_object_set_new(root, "segments", json_integer(2));
    CU_ASSERT_FATAL(json_dump_file(root, mut, 0) == 0);
    tu_run(&r, "check '%s'", mut);
    CU_ASSERT(r.status == 1);
    CU_ASSERT(r.out && strstr(r.out, "element-wise"));
    tu_run_free(&r);
    json_decref(root);
}

/* bad input: one line, exit 2 */
static void test_cli_bad(void)
{
    const char *xml = cluster4(), *out = tu_tmp_path("seg_bad.json");
    static const char *cases[][2] = {
        {"--segments 2", "--segments is used with --unroll"},
        {"--operations 4 --unroll --segments 3", "not a whole number of 32-byte elements"},
        {"--operations 4 --unroll --segments 4", "not a whole number of 32-byte elements"},
        {"--operations 4 --unroll --segments 0", "--segments"},
        {"--operations 4 --unroll --segments 2 --segments 2", "given twice"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        tu_run_t r;
        tu_run(&r, "schedule '%s' %s %s %s -o '%s'", xml, AR, UNITS, cases[k][0], out);
        CU_ASSERT(r.status == 2);
        CU_ASSERT(tu_count_lines(r.err) == 1);
        CU_ASSERT(r.err && strstr(r.err, cases[k][1]));
        tu_run_free(&r);
    }
    tu_run_t r;
    tu_run(&r, "schedule '%s' --problem scatter --source node-0 --targets node-1 %s "
           "--operations 4 --unroll --segments 2 -o '%s'", xml, UNITS, out);
    CU_ASSERT(r.status == 2);
    CU_ASSERT(r.err && strstr(r.err, "element-wise"));
    tu_run_free(&r);
}

/* --segments auto picks P >= 2 here (measured at K = 4: P = 1, 2, 5, 10,
 * 25, 50 tried, 50 kept, 0.0559 s against 0.1018 whole) */
static void test_cli_auto(void)
{
    const char *xml = cluster4(), *out = tu_tmp_path("seg_auto.json");
    CU_ASSERT_FATAL(plan(xml, AR, 4, "auto", out) == 0);
    json_t *root = json_load_file(out, 0, NULL);
    CU_ASSERT_FATAL(root != NULL);
    json_int_t P = json_integer_value(json_object_get(root, "segments"));
    CU_ASSERT(P >= 2);
    CU_ASSERT(json_integer_value(json_object_get(root, "operations")) == 4 * P);
    json_decref(root);
}

/* (a) of schedule/unroll_seg.c: TP of the segment problem = P x TP,
 * exactly; other kinds are refused */
static void test_tp_identity(void)
{
    ssched_platform_t p;
    tu_load_simgrid(&p, "cluster_fat_tree.xml");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_problem_set_allreduce(&pb, &p, "node-0.simgrid.org,node-10.simgrid.org,"
                                                 "node-12.simgrid.org,node-2.simgrid.org", NULL,
                                                 0, &err) == SSCHED_OK);
    ssched_steady_t a, b;
    ssched_steady_init(&a);
    ssched_steady_init(&b);
    CU_ASSERT_FATAL(ssched_steady_solve(&p, &pb, NULL, &a, &err) == SSCHED_OK);
    CU_ASSERT_FATAL(ssched_unroll_segments(&p, &pb, 8, &err) == SSCHED_OK);
    CU_ASSERT_FATAL(ssched_steady_solve(&p, &pb, NULL, &b, &err) == SSCHED_OK);
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, 8, 1);
    mpq_mul(q, q, a.throughput);
    CU_ASSERT(mpq_equal(q, b.throughput));
    CU_ASSERT(tu_mpq_equals(pb.size, "1/8"));
    mpq_clear(q);
    pb.kind = SSCHED_PROBLEM_SCATTER;
    CU_ASSERT(ssched_unroll_segments(&p, &pb, 2, &err) == SSCHED_EINPUT);
    pb.kind = SSCHED_PROBLEM_ALLREDUCE;
    ssched_steady_free(&a);
    ssched_steady_free(&b);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* SMPI (exact configuration), skipped without it: the segmented file runs
 * with the ORIGINAL units, each segment verified, simulated = planned */
static void test_exec_segments(void)
{
    char runner[1024];
    if (!tu_smpi_runner(runner, sizeof runner))
        return;
    const char *xml = cluster4(), *hosts = tu_hostfile(xml, "seg_hosts.txt"),
               *cut = tu_tmp_path("seg_exec.json");
    CU_ASSERT_FATAL(plan(xml, AR, 3, "2", cut) == 0);
    /* 3 operations in 2 segments: 6 run, each verified */
    CU_ASSERT(tu_smpi_within("segments", runner, 4, xml, hosts, cut, UNITS, 1e-6,
                             "\"operations\": 6"));
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"--segments 5: K*5 operations of size 1/5, the same K/TP, a shorter makespan",
         test_cli_segments},
        {"check: \"segments\" must divide the operations, element-wise problems only",
         test_check_segments},
        {"--segments: bad input (one line, exit 2)", test_cli_bad},
        {"--segments auto chooses P >= 2 on the 4-host cluster", test_cli_auto},
        {"the segment problem's TP is P x TP exactly", test_tp_identity},
        {"SMPI: a segmented file runs with the original units, verified, = plan",
         test_exec_segments},
        {NULL, NULL},
    };
    return tu_main("unroll segments", tests);
}
