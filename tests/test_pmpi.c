/* Drop-in (issue 25): `ssched plan` cuts one collective of M bytes into
 * segments and writes a checked plan; libssched_pmpi runs those plans under
 * an unmodified MPI program (tests/pmpi_prog.c, preloaded under mpirun;
 * linked under smpirun) with results identical to plain MPI's, falls back
 * to MPI for every call no plan covers, and for a bad plan directory says
 * so in one line and runs plain MPI.  Registered only when MPI is found
 * (tests/CMakeLists.txt). */
#include <math.h>
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

#ifdef SSCHED_OSU_SMPI
/* SMPI's exact configuration (bench/smpi_exact.sh --print-cfg B) */
#define EXACT_CFG "--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/weight-S:0 " \
    "--cfg=network/TCP-gamma:1e30 --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 " \
    "--cfg=smpi/test:0 --cfg=smpi/iprobe:0 --cfg=smpi/send-is-detached-thresh:0"
#define TWO SSCHED_DATA_DIR "/simgrid/two_clusters.xml"

/* osu_coll (bench/osu_coll.c, the interposer linked) under smpirun on
 * two_clusters: one call of `bytes` with the plans of dir; the simulated
 * time per call, each rank's time in t (SSCHED_PMPI_STATS=2); -1 on failure */
static double osu(const char *coll, long bytes, const char *dir, const char *hosts, double *t)
{
    tu_run_t r;
    tu_sh(&r, "SSCHED_PLANS='%s' SSCHED_PMPI_STATS=2 '%s' -np 4 -platform '%s' -hostfile '%s' "
          EXACT_CFG " '%s' %s %ld %ld 1 0", dir, SSCHED_SMPIRUN, TWO, hosts, SSCHED_OSU_SMPI,
          coll, bytes, bytes);
    CU_ASSERT_EQUAL(r.status, 0);
    double time = -1;
    char key[64];
    snprintf(key, sizeof key, "size %ld time ", bytes);
    const char *l = strstr(r.out, key);
    if (l && strstr(l, "verified yes"))
        time = atof(l + strlen(key));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "1 calls ran plans"));
    for (int k = 0; k < 4; k++) {
        snprintf(key, sizeof key, "libssched_pmpi: rank %d call 1: ", k);
        const char *x = strstr(r.err, key);
        CU_ASSERT_PTR_NOT_NULL(x);
        t[k] = x ? atof(x + strlen(key)) : -1;
    }
    if (time < 0)
        fprintf(stderr, "%s%s", r.out, r.err);
    tu_run_free(&r);
    return time;
}

/* The per-call prediction is the simulated time (issue 25 item 1, within
 * 1 %).  Each rank's fixed cost O_r (its entry to the start) is measured
 * on a one-segment 1 KB call as its time minus its end in that plan
 * (rank_end_seconds); the ranks leave the program's barrier apart (on
 * two_clusters one rank 1 ms early), so a single O, measured where one
 * rank ends last, is off where another does (the 1 MB broadcast: 7.5 %). */
static void test_smpi_prediction(void)
{
    const char *hosts = tu_tmp_path("two-hosts.txt");
    tu_run_t r;
    tu_run(&r, "export hostfile '%s' -o '%s'", TWO, hosts);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    tu_run_free(&r);
    const char *colls[][2] = {{"bcast", "--problem broadcast --source alice0.crepe.fr"},
                              {"reduce", "--problem reduce --target alice0.crepe.fr"}};
    for (int c = 0; c < 2; c++) {
        char d1[512], d2[512], path[700], over[256] = "";
        snprintf(d1, sizeof d1, "%s-%s", tu_tmp_path("osu1k"), colls[c][0]);
        snprintf(d2, sizeof d2, "%s-%s", tu_tmp_path("osu1m"), colls[c][0]);
        tu_run(&r, "plan '%s' %s --hostfile '%s' --bytes 1024 --datatype-size 8 --segment 1024 "
               "-o '%s' --quiet", TWO, colls[c][1], hosts, d1);
        CU_ASSERT_EQUAL_FATAL(r.status, 0);
        tu_run_free(&r);
        double t[4], end[4];
        CU_ASSERT_FATAL(osu(colls[c][0], 1024, d1, hosts, t) > 0);
        snprintf(path, sizeof path, "%s/%s-1024-r0.plan.json", d1, colls[c][0]);
        char *d = tu_read_file(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        const char *e = strstr(d, "\"rank_end_seconds\": [");
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        e += strlen("\"rank_end_seconds\": [");
        for (int k = 0; k < 4; k++) {
            char *next;
            end[k] = strtod(e, &next);
            CU_ASSERT(next != e && end[k] > 0 && end[k] < t[k]);
            e = next + strspn(next, ", \n");
            snprintf(over + strlen(over), sizeof over - strlen(over), "%s%.9f", k ? "," : "",
                     t[k] - end[k]);
        }
        free(d);
        tu_run(&r, "plan '%s' %s --hostfile '%s' --bytes 1048576 --datatype-size 8 "
               "--max-segments 64 -o '%s' --quiet --overhead-seconds %s", TWO, colls[c][1], hosts,
               d2, over);
        CU_ASSERT_EQUAL_FATAL(r.status, 0);
        const char *key = "per call (+ the overhead per rank) ";
        const char *pc = strstr(r.out, key);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
        double pred = atof(pc + strlen(key));
        tu_run_free(&r);
        double sim = osu(colls[c][0], 1048576, d2, hosts, t);
        CU_ASSERT(sim > 0 && fabs(sim / pred - 1) < 0.01);
        if (!(fabs(sim / pred - 1) < 0.01))
            fprintf(stderr, "%s 1 MB: simulated %.9f s, predicted %.9f s\n", colls[c][0], sim,
                    pred);
    }
    /* the list must give one value per rank */
    tu_run(&r, "plan '%s' --problem broadcast --source alice0.crepe.fr --hostfile '%s' "
           "--bytes 4096 -o '%s' --quiet --overhead-seconds 0.1,0.2", TWO, hosts,
           tu_tmp_path("osu-bad"));
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
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
#ifdef SSCHED_OSU_SMPI
        {"smpirun, osu_coll: the per-call prediction is the simulated time (1 %)",
         test_smpi_prediction},
#endif
        {NULL, NULL}};
    return tu_main("pmpi", tests);
}
