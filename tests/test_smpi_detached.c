/* ssched-exec under SMPI's DEFAULT options (bench/results/default-model-
 * 2026-11-28.txt, section 3): sends below smpi/send-is-detached-thresh
 * (65536) are detached there.  The paced run's helper actors (metronome,
 * timers, computation ends: src/mpi/run_pace.c, run_ops.c) used to send
 * their zero-byte wake-ups detached; a detached request completes at once,
 * the actor ended, and its wake-ups still undelivered (many, once
 * network/crosstraffic or the SMPI model's small-message latency factor
 * delays them) were lost with it: every rank waited in MPI_Waitany for a
 * tick that never came, SimGrid's "Deadlock detected" and no output.
 *
 * The smallest case: two_clusters.xml (loopback latencies: the metronome
 * is on), all-reduce of its 4 hosts, 1 MB in 50 segments of 20 KB, K = 1,
 * run by plain smpirun (only the executor's computation kept out of the
 * simulated time), then the exact configuration with only crosstraffic and
 * the detached threshold switched back on, then the PMPI interposer (same
 * run code) with 16 KB segments.  Each must end, every payload verified.  Skipped when smpirun or ssched-exec-smpi is absent. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#define PLAT SSCHED_DATA_DIR "/simgrid/two_clusters.xml"
#define UNITS "--unit-bytes 1000000 --flops-per-task 10000000"

/* ssched-exec-smpi's path in prog; 0 (and a skip line) when it or smpirun
 * is absent. */
static int have_smpi(char *prog, size_t cap)
{
    snprintf(prog, cap, "%s/ssched-exec-smpi", SSCHED_BUILD_DIR);
    tu_run_t r;
    tu_sh(&r, "command -v smpirun >/dev/null && test -x '%s'", prog);
    int have = r.status == 0;
    tu_run_free(&r);
    if (!have)
        fprintf(stderr, "\n  skipped: smpirun or ssched-exec-smpi absent\n");
    return have;
}

/* The hostfile and the 50-segment all-reduce schedule (K = 1, unrolled). */
static int make_case(const char **hosts, const char **plan)
{
    *hosts = tu_tmp_path("dt_hosts.txt");
    *plan = tu_tmp_path("dt_s50.json");
    tu_run_t r;
    tu_run(&r, "export hostfile '%s' -o '%s'", PLAT, *hosts);
    int ok = r.status == 0;
    tu_run_free(&r);
    if (!ok)
        return 0;
    tu_run(&r, "schedule '%s' --problem allreduce --participants alice0.crepe.fr,"
           "alice1.crepe.fr,bob0.hamburger.edu,bob1.hamburger.edu " UNITS " --segments 50 "
           "--operations 1 --unroll --quiet -o '%s'", PLAT, *plan);
    ok = r.status == 0;
    tu_run_free(&r);
    return ok;
}

/* Run the plan under smpirun with the options cfg: exit 0, verified.
 * (timeout: a regression must fail, not hang the suite.) */
static int runs_verified(const char *label, const char *prog, const char *hosts,
                         const char *plan, const char *cfg)
{
    tu_run_t r;
    tu_sh(&r, "timeout 300 smpirun %s -np 4 -platform '%s' -hostfile '%s' "
          "--log=root.thres:critical '%s' '%s' " UNITS " --verify --json",
          cfg, PLAT, hosts, prog, plan);
    int ok = r.status == 0 && r.out && strstr(r.out, "\"verified\": true") &&
             (!r.err || !strstr(r.err, "Deadlock"));
    if (!ok)
        fprintf(stderr, "\n  %s: status %d\n%s\n%s", label, r.status, r.out ? r.out : "",
                r.err ? r.err : "");
    tu_run_free(&r);
    return ok;
}

static void test_default_options(void)
{
    char prog[1024];
    if (!have_smpi(prog, sizeof prog))
        return;
    const char *hosts, *plan;
    CU_ASSERT_FATAL(make_case(&hosts, &plan));
    /* SMPI's defaults: network/model SMPI (crosstraffic on), detached
     * sends below 64 KB; 20 KB segments are all detached */
    CU_ASSERT(runs_verified("default options", prog, hosts, plan,
                            "--cfg=smpi/simulate-computation:no"));
}

static void test_exact_but_detached(void)
{
    char prog[1024];
    if (!have_smpi(prog, sizeof prog))
        return;
    const char *hosts, *plan;
    CU_ASSERT_FATAL(make_case(&hosts, &plan));
    /* the exact configuration (ssched-exec-smpirun) with crosstraffic and
     * the default detached threshold: the smallest change that deadlocked */
    CU_ASSERT(runs_verified("exact + crosstraffic + detached", prog, hosts, plan,
                            "--cfg=network/model:CM02 --cfg=network/crosstraffic:1 "
                            "--cfg=network/weight-S:0 --cfg=network/TCP-gamma:1e30 "
                            "--cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 "
                            "--cfg=smpi/test:0 --cfg=smpi/iprobe:0 "
                            "--cfg=smpi/send-is-detached-thresh:65536"));
}

/* The interposer runs the same executor (libssched_pmpi_smpi): osu_coll's
 * 1 MB all-reduce with a plan of 16 KB segments, SMPI's default options
 * (deadlocked as ssched-exec did).  Skipped when osu_coll_smpi is absent
 * (built with test_pmpi). */
static void test_interposer(void)
{
    char prog[1024], osu[1024];
    if (!have_smpi(prog, sizeof prog))
        return;
    snprintf(osu, sizeof osu, "%s/tests/osu_coll_smpi", SSCHED_BUILD_DIR);
    tu_run_t r;
    tu_sh(&r, "test -x '%s'", osu);
    int have = r.status == 0;
    tu_run_free(&r);
    if (!have) {
        fprintf(stderr, "\n  skipped: osu_coll_smpi absent\n");
        return;
    }
    const char *hosts, *plan, *dir = tu_tmp_path("dt_plans");
    CU_ASSERT_FATAL(make_case(&hosts, &plan));
    tu_run(&r, "plan '%s' --problem allreduce --hostfile '%s' --bytes 1048576 --datatype-size 8 "
           "--segment 16384 -o '%s'", PLAT, hosts, dir);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    tu_run_free(&r);
    tu_sh(&r, "SSCHED_PLANS='%s' timeout 300 smpirun --cfg=smpi/simulate-computation:no -np 4 "
          "-platform '%s' -hostfile '%s' --log=root.thres:critical '%s' allreduce 1048576 "
          "1048576 1 0", dir, PLAT, hosts, osu);
    int ok = r.status == 0 && r.out && strstr(r.out, "size 1048576 time ") &&
             strstr(r.out, "verified yes") && (!r.err || !strstr(r.err, "Deadlock"));
    CU_ASSERT(ok);
    if (!ok)
        fprintf(stderr, "\n  interposer: status %d\n%s\n%s", r.status, r.out ? r.out : "",
                r.err ? r.err : "");
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"two_clusters all-reduce, 20 KB segments, smpirun's default options: runs, verified",
         test_default_options},
        {"the same, exact configuration with crosstraffic and detached sends: runs, verified",
         test_exact_but_detached},
        {"the interposer (osu_coll, 16 KB segments), smpirun's default options: verified",
         test_interposer},
        {NULL, NULL},
    };
    return tu_main("ssched-exec with detached sends (SMPI defaults)", tests);
}
