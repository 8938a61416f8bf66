/* Issue 23's execution paths under a real mpirun (issue 25's measurements):
 * segmented unrolled files (`ssched schedule --unroll --segments P`,
 * schedule/unroll_seg.c) and shared-rate groups (schedule/unroll_shared.c,
 * chosen by the routed reduce planner when strictly shorter) had run only
 * under smpirun.  Here ssched-exec --verify runs them under Open MPI's
 * mpirun, one rank per host, every payload checked at its destination:
 *  - a segmented all-reduce (ordered 2x2 matrix products, and
 *    --commutative) on a 4-host cluster, a segmented ordered reduce on
 *    small_platform.xml (7 hosts, routed), a segmented broadcast on
 *    tiers-small (graph model, 20 ranks);
 *  - the shared-rate star of tests/test_shared_rates.c (three values into
 *    h3 through one SHARED link, planned as one group per operation): the
 *    file is first checked to hold groups (three transfers into h3 of one
 *    operation with one start and one end), so this test runs that path;
 *    the same star in 2 segments; and the latency-weighted star (unequal
 *    route latencies, schedule/unroll_shared_w.c), checked to overlap
 *    transfers into h3 (a group) before it runs.
 * Segment sizes: the executor sends --unit-bytes x size bytes per transfer
 * and a segment holds whole 32-byte elements (2x2 matrices of doubles), so
 * --unit-bytes 6400 is used with P dividing 200. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "test_util.h"

#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
/* Open MPI's own allocations read as leaks under ASan (test_mpi_exec.c) */
#define MPIRUN                                                                                    \
    "ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_mpi_yield_when_idle=1 " SSCHED_MPIRUN                  \
    " --allow-run-as-root --oversubscribe -q -x ASAN_OPTIONS"
#endif

static const char *UNITS = "--unit-bytes 6400 --flops-per-task 10000";

static const char *cluster4(void)
{
    const char *xml = tu_tmp_path("ep_cluster4.xml");
    CU_ASSERT_FATAL(tu_write_file(xml,
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"c\" prefix=\"node-\" radical=\"0-3\" suffix=\"\" speed=\"1Gf\" "
        "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>\n"
        "</platform>\n") == 0);
    return xml;
}

/* tests/test_shared_rates.c's stars: equal route latencies, shares of L 1,
 * 0.8 and 0.7 (weighted = 0); or unequal latencies (weighted = 1: p1 75
 * MB/s 250 us, p2 70 MB/s 600 us), SimGrid's latency-weighted shares */
static const char *star(int weighted)
{
    const char *xml = tu_tmp_path(weighted ? "ep_star_w.xml" : "ep_star.xml");
    char text[2048];
    snprintf(text, sizeof text,
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"z\" routing=\"Full\">\n"
        "    <host id=\"h0\" speed=\"10Mf\"/>\n"
        "    <host id=\"h1\" speed=\"10Mf\"/>\n"
        "    <host id=\"h2\" speed=\"10Mf\"/>\n"
        "    <host id=\"h3\" speed=\"1Gf\"/>\n"
        "    <link id=\"p0\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
        "    <link id=\"p1\" bandwidth=\"%s\" latency=\"%s\"/>\n"
        "    <link id=\"p2\" bandwidth=\"70MBps\" latency=\"%s\"/>\n"
        "    <link id=\"L\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
        "    <route src=\"h0\" dst=\"h3\"><link_ctn id=\"p0\"/><link_ctn id=\"L\"/></route>\n"
        "    <route src=\"h1\" dst=\"h3\"><link_ctn id=\"p1\"/><link_ctn id=\"L\"/></route>\n"
        "    <route src=\"h2\" dst=\"h3\"><link_ctn id=\"p2\"/><link_ctn id=\"L\"/></route>\n"
        "    <route src=\"h0\" dst=\"h1\"><link_ctn id=\"p0\"/><link_ctn id=\"p1\"/></route>\n"
        "    <route src=\"h0\" dst=\"h2\"><link_ctn id=\"p0\"/><link_ctn id=\"p2\"/></route>\n"
        "    <route src=\"h1\" dst=\"h2\"><link_ctn id=\"p1\"/><link_ctn id=\"p2\"/></route>\n"
        "  </zone>\n"
        "</platform>\n", weighted ? "75MBps" : "80MBps", weighted ? "250us" : "100us",
        weighted ? "600us" : "100us");
    CU_ASSERT_FATAL(tu_write_file(xml, text) == 0);
    return xml;
}

/* ssched schedule PLAT PROB --operations K --unroll [--segments P] into
 * path (checked before it is written); 0 on success */
static int plan(const char *plat, const char *prob, int K, int P, const char *path)
{
    char seg[64] = "";
    if (P > 1)
        snprintf(seg, sizeof seg, "--segments %d", P);
    tu_run_t r;
    /* a GraphML's costs are per unit message already: units for SimGrid files only */
    const char *units = strstr(plat, ".graphml") ? "" : UNITS;
    tu_run(&r, "schedule '%s' %s %s --operations %d --unroll %s --quiet -o '%s'", plat, prob, units,
           K, seg, path);
    int st = r.status;
    if (st != 0)
        fprintf(stderr, "\n  schedule %s: %s", prob, r.err ? r.err : "");
    tu_run_free(&r);
    return st;
}

/* the file's "segments" (1 when absent) and "operations" */
static void file_counts(const char *path, long *segments, long *ops)
{
    json_t *root = json_load_file(path, 0, NULL);
    CU_ASSERT_FATAL(root != NULL);
    json_t *s = json_object_get(root, "segments");
    *segments = s ? (long)json_integer_value(s) : 1;
    *ops = (long)json_integer_value(json_object_get(root, "operations"));
    json_decref(root);
}

#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
/* mpirun -np np ssched-exec FILE --verify --json UNITS extra: 1 if the last
 * JSON line says "verified": true and the run counted ops operations */
static int run_verified(const char *path, int np, long ops, const char *extra)
{
    tu_run_t r;
    tu_sh(&r, MPIRUN " -np %d '%s' '%s' --verify --json %s %s", np, SSCHED_EXEC, path, UNITS,
          extra ? extra : "");
    const char *last = r.out ? strrchr(r.out, '{') : NULL;
    char want[64];
    snprintf(want, sizeof want, "\"operations\": %ld", ops);
    int ok = r.status == 0 && last && strstr(last, "\"verified\": true") && strstr(last, want);
    if (!ok)
        fprintf(stderr, "\n  %s (np %d): status %d\n  out: %s\n  err: %s", path, np, r.status,
                r.out ? r.out : "", r.err ? r.err : "");
    tu_run_free(&r);
    return ok;
}
#endif

/* Segmented files: all-reduce (ordered, commutative), ordered reduce
 * (routed, small_platform), broadcast (graph model, tiers-small). */
static void test_segments(void)
{
    char tiers[512], small[512];
    snprintf(tiers, sizeof tiers, "%s/examples/tiers-small.graphml", SSCHED_SOURCE_DIR);
    snprintf(small, sizeof small, "%s/simgrid/small_platform.xml", SSCHED_DATA_DIR);
    const struct {
        const char *plat, *prob;
        int K, P, np;
    } runs[] = {
        {NULL, "--problem allreduce --participants node-0,node-1,node-2,node-3", 3, 2, 4},
        {NULL, "--problem allreduce --participants node-0,node-1,node-2,node-3", 2, 5, 4},
        {NULL, "--problem allreduce --participants node-0,node-1,node-3 --commutative", 3, 4, 4},
        {small, "--problem reduce --participants Tremblay,Jupiter,Fafard,Ginette,Bourassa "
                "--target Fafard", 3, 4, 7},
        {tiers, "--problem broadcast --source h0_0_0_0", 3, 4, 20},
    };
    const char *c4 = cluster4();
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        char name[64];
        snprintf(name, sizeof name, "ep_seg%zu.json", k);
        const char *path = tu_tmp_path(name);
        if (plan(runs[k].plat ? runs[k].plat : c4, runs[k].prob, runs[k].K, runs[k].P, path) != 0) {
            CU_FAIL("schedule --segments failed");
            continue;
        }
        long seg, ops;
        file_counts(path, &seg, &ops);
        CU_ASSERT_EQUAL(seg, runs[k].P);
        CU_ASSERT_EQUAL(ops, (long)runs[k].K * runs[k].P);
#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
        CU_ASSERT(run_verified(path, runs[k].np, ops, NULL));
        if (k == 0) { /* a segment's result callback that fails: the run fails */
            tu_run_t r;
            tu_sh(&r, "SSCHED_EXEC_FAIL_OP=3 " MPIRUN " -np 4 '%s' '%s' --verify %s", SSCHED_EXEC,
                  path, UNITS);
            CU_ASSERT_NOT_EQUAL(r.status, 0);
            CU_ASSERT_PTR_NOT_NULL(r.err ? strstr(r.err, "operation 3") : NULL);
            tu_run_free(&r);
        }
#endif
    }
}

/* 1 if some operation's values from h0, h1 and h2 into h3 share one start
 * and one end (a shared-rate group; full rates would serialise them) */
static int has_group(const char *path)
{
    json_t *root = json_load_file(path, 0, NULL);
    CU_ASSERT_FATAL(root != NULL);
    json_t *tr = json_object_get(root, "transfers");
    int found = 0;
    for (size_t a = 0; a < json_array_size(tr) && !found; a++) {
        json_t *x = json_array_get(tr, a);
        if (strcmp(json_string_value(json_object_get(x, "to")), "h3"))
            continue;
        int same = 0;
        for (size_t b = 0; b < json_array_size(tr); b++) {
            json_t *y = json_array_get(tr, b);
            same += !strcmp(json_string_value(json_object_get(y, "to")), "h3") &&
                    json_integer_value(json_object_get(y, "op")) ==
                        json_integer_value(json_object_get(x, "op")) &&
                    !strcmp(json_string_value(json_object_get(y, "start")),
                            json_string_value(json_object_get(x, "start"))) &&
                    !strcmp(json_string_value(json_object_get(y, "end")),
                            json_string_value(json_object_get(x, "end")));
        }
        found = same >= 3;
    }
    json_decref(root);
    return found;
}

static double frac(json_t *x, const char *key)
{
    const char *t = json_string_value(json_object_get(x, key));
    const char *slash = t ? strchr(t, '/') : NULL;
    return t ? strtod(t, NULL) / (slash ? strtod(slash + 1, NULL) : 1) : -1;
}

/* 1 if two values of one operation from different hosts into h3 overlap
 * in time: at full rates they cross L one after the other, so an overlap
 * is a shared-rate group (weighted members end at different times) */
static int has_overlap(const char *path)
{
    json_t *root = json_load_file(path, 0, NULL);
    CU_ASSERT_FATAL(root != NULL);
    json_t *tr = json_object_get(root, "transfers");
    int found = 0;
    for (size_t a = 0; a < json_array_size(tr) && !found; a++)
        for (size_t b = 0; b < json_array_size(tr) && !found; b++) {
            json_t *x = json_array_get(tr, a), *y = json_array_get(tr, b);
            found = a != b && !strcmp(json_string_value(json_object_get(x, "to")), "h3") &&
                    !strcmp(json_string_value(json_object_get(y, "to")), "h3") &&
                    strcmp(json_string_value(json_object_get(x, "from")),
                           json_string_value(json_object_get(y, "from"))) &&
                    json_integer_value(json_object_get(x, "op")) ==
                        json_integer_value(json_object_get(y, "op")) &&
                    frac(x, "start") <= frac(y, "start") &&
                    frac(y, "start") < frac(x, "end") - 1e-9;
        }
    json_decref(root);
    return found;
}

/* Shared-rate groups: the star's reduce, whole and in 2 segments; the
 * latency-weighted star whole. */
static void test_shared_groups(void)
{
    const char *xml = star(0);
    const char *prob = "--problem reduce --participants h0,h1,h2,h3 --target h3";
    for (int P = 1; P <= 2; P++) {
        const char *path = tu_tmp_path(P == 1 ? "ep_star.json" : "ep_star_seg.json");
        CU_ASSERT_FATAL(plan(xml, prob, 8, P, path) == 0);
        if (P == 1) {
            CU_ASSERT(has_group(path));
        } else if (!has_group(path)) {
            fprintf(stderr, "\n  (no shared-rate group in the segmented star file)");
        }
        long seg, ops;
        file_counts(path, &seg, &ops);
        CU_ASSERT_EQUAL(ops, 8L * P);
#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
        CU_ASSERT(run_verified(path, 4, ops, NULL));
#endif
    }
    const char *path = tu_tmp_path("ep_star_w.json");
    CU_ASSERT_FATAL(plan(star(1), prob, 8, 1, path) == 0);
    CU_ASSERT(has_overlap(path));
#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
    CU_ASSERT(run_verified(path, 4, 8, NULL));
#endif
}

int main(void)
{
#if defined(SSCHED_EXEC) && defined(SSCHED_MPIRUN)
    /* Open MPI's session directories in this suite's scratch directory
     * (test_mpi_exec.c says why) */
    char ompi_tmp[512];
    snprintf(ompi_tmp, sizeof ompi_tmp, "%s", tu_tmp_path("ompi"));
    if (mkdir(ompi_tmp, 0700) == 0)
        setenv("OMPI_MCA_orte_tmpdir_base", ompi_tmp, 1);
#else
    fprintf(stderr, "test_exec_paths: no MPI: plans checked, not run\n");
#endif
    static const tu_test_t tests[] = {
        {"segmented files under mpirun: all-reduce, reduce, broadcast, verified", test_segments},
        {"shared-rate groups under mpirun, verified", test_shared_groups},
        {NULL, NULL},
    };
    return tu_main("exec_paths", tests);
}
