/* Drop-in (issue 25): `ssched plan` cuts one collective of M bytes into
 * segments and writes a checked plan; libssched_pmpi runs those plans under
 * an unmodified MPI program (tests/pmpi_prog.c, preloaded under mpirun;
 * linked under smpirun) with results identical to plain MPI's, falls back
 * to MPI for every call no plan covers, and for a bad plan directory says
 * so in one line and runs plain MPI.  Registered only when MPI is found
 * (tests/CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_util.h"

#define MPIRUN "OMPI_MCA_mpi_yield_when_idle=1 " SSCHED_MPIRUN " --allow-run-as-root --oversubscribe -q"
#define PLAT SSCHED_DATA_DIR "/simgrid/small_platform.xml"

/* rank r on line r: the platform's (sorted) host order, reversed so that
 * the rank map is not the identity */
static const char *hostfile(void)
{
    static char path[512];
    if (!path[0]) {
        snprintf(path, sizeof path, "%s", tu_tmp_path("hosts.txt"));
        CU_ASSERT_EQUAL_FATAL(tu_write_file(path, "Tremblay\nJupiter\nJacquelin\nGinette\n"
                                                  "Fafard\nBoivin\nBourassa\n"), 0);
    }
    return path;
}

/* The plans pmpi_prog's calls use, in dir. */
static void make_plans(const char *dir)
{
    tu_run_t r;
    /* (a broadcast plan of bytes serves a call of MPI_INT) */
    tu_run(&r, "plan '%s' --problem broadcast --source Jupiter --hostfile '%s' --bytes 100004 "
           "-o '%s' --quiet --max-segments 64", PLAT, hostfile(), dir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "chosen: segment"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "bcast-100004-r1"));
    tu_run_free(&r);
    tu_run(&r, "plan '%s' --problem reduce --target Jacquelin --hostfile '%s' --bytes 48016 "
           "--datatype-size 16 -o '%s' --quiet --max-segments 64", PLAT, hostfile(), dir);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    tu_run(&r, "plan '%s' --problem allreduce --hostfile '%s' --bytes 48016 --datatype-size 16 "
           "-o '%s' --quiet --max-segments 64", PLAT, hostfile(), dir);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
}

/* ssched plan: one line per candidate, the choice, a descriptor */
static void test_plan_cli(void)
{
    const char *dir = tu_tmp_path("plan-cli");
    tu_run_t r;
    tu_run(&r, "plan '%s' --problem broadcast --source Jupiter --hostfile '%s' --bytes 10000 "
           "-o '%s' --quiet", PLAT, hostfile(), dir);
    CU_ASSERT_EQUAL(r.status, 0);
    /* candidates 1024, 2048, 4096, 8192, 10000, then eighths of the best */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "        1024       10"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "       10000        1"));
    /* the whole message's bound, below every candidate's prediction */
    const char *b = strstr(r.out, "bound: any schedule of the 10000 bytes takes at least ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    double bound = atof(b + strlen("bound: any schedule of the 10000 bytes takes at least "));
    const char *c = strstr(r.out, "predicted ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(bound > 0 && bound <= atof(c + strlen("predicted ")));
    tu_run_free(&r);
    /* the per-call prediction: the plan + --overhead-seconds, printed and
     * written */
    tu_run(&r, "plan '%s' --problem broadcast --source Jupiter --hostfile '%s' --bytes 10000 "
           "-o '%s' --quiet --overhead-seconds 1/4", PLAT, hostfile(), dir);
    CU_ASSERT_EQUAL(r.status, 0);
    c = strstr(r.out, "chosen: segment ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    c = strstr(c, "predicted ");
    const char *pc = strstr(r.out, "per call (+ the overhead 1/4) ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
    CU_ASSERT_DOUBLE_EQUAL(atof(pc + strlen("per call (+ the overhead 1/4) ")),
                           atof(c + strlen("predicted ")) + 0.25, 1e-6);
    tu_run_free(&r);
    char path[600];
    snprintf(path, sizeof path, "%s/bcast-10000-r1.plan.json", dir);
    char *d = tu_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"comm_size\": 7"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"root\": 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"mpi_predicted_seconds\": null"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"predicted_call_seconds\": "));
    free(d);
    snprintf(path, sizeof path, "%s/bcast-10000-r1.map", dir);
    d = tu_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(strncmp(d, "Tremblay\nJupiter\n", 17), 0);
    free(d);
    /* the schedule passes the checker */
    tu_run(&r, "check '%s/bcast-10000-r1.unrolled.json'", dir);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    /* no gain against a baseline: nothing written */
    const char *none = tu_tmp_path("plan-none");
    tu_run(&r, "plan '%s' --problem broadcast --source Jupiter --hostfile '%s' --bytes 10000 "
           "-o '%s' --quiet --baseline-seconds 1/10 --overhead-seconds 1/10", PLAT, hostfile(),
           none);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "no gain"));
    tu_run_free(&r);
    snprintf(path, sizeof path, "%s/bcast-10000-r1.plan.json", none);
    struct stat sb;
    CU_ASSERT_NOT_EQUAL(stat(path, &sb), 0);
    /* bad input: one line, exit 2 */
    const char *bad[] = {
        "--problem broadcast --source Jupiter --bytes 10001 --datatype-size 4 -o '%s'",
        "--problem reduce --participants Jupiter,Tremblay --target Jupiter --bytes 1000 -o '%s'",
        "--problem broadcast --source Jupiter --bytes 1000",
        "--problem scatter --source Jupiter --bytes 1000 -o '%s'",
        "--problem broadcast --source Jupiter --bytes 1000 --size 2 -o '%s'",
        "--problem broadcast --source Jupiter --bytes 1000 --overhead-seconds x -o '%s'",
        NULL};
    for (int k = 0; bad[k]; k++) {
        char opts[512];
        snprintf(opts, sizeof opts, bad[k], dir);
        tu_run(&r, "plan '%s' %s --quiet", PLAT, opts);
        CU_ASSERT_EQUAL(r.status, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
    /* a GraphML's c and w are times of a message of unknown bytes */
    tu_run(&r, "plan '%s/examples/fig6.graphml' --problem reduce --participants P0,P1,P2 "
           "--target P0 --bytes 1000 -o '%s' --quiet", SSCHED_SOURCE_DIR, dir);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--unit-message-bytes"));
    tu_run_free(&r);
    tu_run(&r, "plan '%s/examples/fig6.graphml' --problem reduce --participants P0,P1,P2 "
           "--target P0 --bytes 1000 -o '%s' --quiet --unit-message-bytes 1000", SSCHED_SOURCE_DIR,
           dir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "reduce-1000-r0"));
    tu_run_free(&r);
}

/* The predicted makespan of candidate `seg` in a `ssched plan` table, or
 * -1 when absent or pruned. */
static double candidate(const char *out, long seg)
{
    char key[64];
    snprintf(key, sizeof key, "\n%12ld ", seg);
    const char *l = strstr(out, key);
    long s, K;
    double t;
    return l && sscanf(l + 1, "%ld %ld %lf", &s, &K, &t) == 3 ? t : -1;
}

/* Pruning: a candidate whose lower bound is not below the best makespan
 * found is not planned; planning every candidate (--no-prune) gives each
 * pruned one a makespan at least its printed bound, and the same choice */
static void test_plan_prune(void)
{
    const char *dir = tu_tmp_path("plan-prune");
    tu_run_t r, all;
    const char *cmd = "plan '%s' --problem allreduce --hostfile '%s' --bytes 1000000 "
                      "--datatype-size 8 -o '%s' --quiet --max-segments 64%s";
    tu_run(&r, cmd, PLAT, hostfile(), dir, "");
    tu_run(&all, cmd, PLAT, hostfile(), dir, " --no-prune");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(all.status, 0);
    CU_ASSERT_PTR_NULL(strstr(all.out, "pruned"));
    const char *c = strstr(r.out, "chosen: "), *ca = strstr(all.out, "chosen: ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ca);
    CU_ASSERT_EQUAL(strcspn(c, "\n"), strcspn(ca, "\n"));
    CU_ASSERT_EQUAL(strncmp(c, ca, strcspn(c, "\n")), 0);
    double best = atof(strstr(c, "predicted ") + strlen("predicted "));
    int pruned = 0;
    for (const char *l = strstr(r.out, " pruned "); l; l = strstr(l + 1, " pruned ")) {
        const char *bol = l;
        while (bol > r.out && bol[-1] != '\n')
            bol--;
        long seg = atol(bol);
        const char *b = strstr(l, "lower bound ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        double lb = atof(b + strlen("lower bound "));
        double t = candidate(all.out, seg);
        CU_ASSERT(t > 0 && t >= lb * (1 - 1e-9) && lb >= best * (1 - 1e-9));
        CU_ASSERT(strstr(l, "(K/TP)") == strchr(l, '(') || strstr(l, "(LB1)") == strchr(l, '('));
        pruned++;
    }
    CU_ASSERT(pruned > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "candidates (lower bound not below"));
    tu_run_free(&r);
    tu_run_free(&all);
}

/* mpirun -np 7 pmpi_prog with the interposer preloaded and SSCHED_PLANS=dir:
 * status, stdout and stderr in r */
/* Under ASan, for the MPI program only: Open MPI's own allocations are
 * reported as leaks (as in test_mpi_exec.c), and the preloaded library
 * comes before ASan's runtime, an order ASan's start-up check refuses. */
#ifdef SSCHED_SANITIZED
#define PROG_ENV "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 "
#define PROG_X "-x ASAN_OPTIONS "
#else
#define PROG_ENV ""
#define PROG_X ""
#endif

static void run_prog_with(tu_run_t *r, const char *dir, const char *arg)
{
    tu_sh(r, PROG_ENV "SSCHED_PLANS='%s' SSCHED_PMPI_STATS=1 " MPIRUN " -x SSCHED_PLANS "
          "-x SSCHED_PMPI_STATS " PROG_X "-x LD_PRELOAD='%s' -np 7 '%s' %s", dir, SSCHED_PMPI_LIB,
          SSCHED_PMPI_PROG, arg);
}

static void run_prog(tu_run_t *r, const char *dir)
{
    run_prog_with(r, dir, "");
}

static void test_mpirun(void)
{
    const char *dir = tu_tmp_path("plans");
    make_plans(dir);
    tu_run_t r;
    run_prog(&r, dir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    /* six calls planned; the bcast of another size and the reduce to
     * another root went to MPI */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "6 calls ran plans, 2 went to MPI"));
    if (r.status)
        fprintf(stderr, "%s%s", r.out, r.err);
    tu_run_free(&r);
    /* MPI_Init_thread: plans at MPI_THREAD_FUNNELED; none (one line) when
     * MPI_THREAD_MULTIPLE is provided */
    run_prog_with(&r, dir, "funneled");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "6 calls ran plans, 2 went to MPI"));
    tu_run_free(&r);
    run_prog_with(&r, dir, "multiple");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    CU_ASSERT(strstr(r.err, "0 calls ran plans, 8 went to MPI") ||
              strstr(r.err, "6 calls ran plans, 2 went to MPI"));
    if (strstr(r.err, "0 calls ran plans"))
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "MPI_THREAD_MULTIPLE: plans are not used"));
    tu_run_free(&r);
}

static void test_bad_dirs(void)
{
    tu_run_t r;
    /* missing directory */
    run_prog(&r, tu_tmp_path("no-such-dir"));
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cannot open the directory; plain MPI"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "0 calls ran plans, 8 went to MPI"));
    tu_run_free(&r);
    /* a malformed descriptor beside good ones: none is used */
    const char *dir = tu_tmp_path("plans-bad");
    make_plans(dir);
    char path[600];
    snprintf(path, sizeof path, "%s/zz.plan.json", dir);
    CU_ASSERT_EQUAL(tu_write_file(path, "{\"format\": \"ssched-plan/1\","), 0);
    run_prog(&r, dir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "zz.plan.json"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "0 calls ran plans"));
    tu_run_free(&r);
    /* a descriptor naming a missing schedule: that plan is skipped */
    remove(path);
    snprintf(path, sizeof path, "%s/bcast-100004-r1.unrolled.json", dir);
    CU_ASSERT_EQUAL(remove(path), 0);
    run_prog(&r, dir);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "this plan is not used"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "5 calls ran plans, 3 went to MPI"));
    tu_run_free(&r);
}

#ifdef SSCHED_PMPI_PROG_SMPI
/* the same program linked with libssched_pmpi_smpi.a under smpirun */
static void test_smpirun(void)
{
    const char *dir = tu_tmp_path("plans-smpi");
    make_plans(dir);
    tu_run_t r;
    tu_sh(&r, "SSCHED_PLANS='%s' SSCHED_PMPI_STATS=1 '%s' -np 7 -platform '%s' -hostfile '%s' "
          "--cfg=smpi/simulate-computation:no '%s'", dir, SSCHED_SMPIRUN, PLAT, hostfile(),
          SSCHED_PMPI_PROG_SMPI);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "6 calls ran plans, 2 went to MPI"));
    if (r.status)
        fprintf(stderr, "%s%s", r.out, r.err);
    tu_run_free(&r);
    /* a bad plan directory under smpirun too: one line, plain MPI */
    tu_sh(&r, "SSCHED_PLANS='%s' SSCHED_PMPI_STATS=1 '%s' -np 7 -platform '%s' -hostfile '%s' "
          "--cfg=smpi/simulate-computation:no '%s'", tu_tmp_path("no-such-dir-smpi"),
          SSCHED_SMPIRUN, PLAT, hostfile(), SSCHED_PMPI_PROG_SMPI);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmpi_prog: 8 results identical"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cannot open the directory; plain MPI"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "0 calls ran plans, 8 went to MPI"));
    tu_run_free(&r);
}
#endif

int main(void)
{
    char ompi_tmp[512];
    snprintf(ompi_tmp, sizeof ompi_tmp, "%s", tu_tmp_path("ompi"));
    if (mkdir(ompi_tmp, 0700) == 0)
        setenv("OMPI_MCA_orte_tmpdir_base", ompi_tmp, 1);
    const tu_test_t tests[] = {
        {"ssched plan: candidates, choice, descriptor, bad input", test_plan_cli},
        {"ssched plan: pruned candidates cannot win (--no-prune: the same choice)",
         test_plan_prune},
        {"mpirun + LD_PRELOAD: results identical to plain MPI; fallback", test_mpirun},
        {"bad plan directories: one line, plain MPI", test_bad_dirs},
#ifdef SSCHED_PMPI_PROG_SMPI
        {"smpirun, linked: results identical to plain MPI", test_smpirun},
#endif
        {NULL, NULL}};
    return tu_main("pmpi", tests);
}
