/* Routed schedules run on the ORIGINAL SimGrid file (issue 23, item 3):
 * `ssched schedule small_platform.xml ... --unroll` (checked before it is
 * written), `ssched export hostfile`, then ssched-exec-smpirun (SMPI's
 * exact configuration) with one rank per host of the file.  The simulated
 * makespan must be the schedule's to 1e-6 relative, every payload
 * verified.  Measured: 1 +- 5e-14 (the pacing and computation wake-ups no
 * longer pay the file's 15 us loopback latency, src/mpi/run_pace.c and
 * run_ops.c).  Skipped when smpirun or ssched-exec-smpirun is absent. */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *cases[][2] = {
    {"scatter", "--problem scatter --source Tremblay --targets Jupiter,Fafard,Ginette,Bourassa"},
    {"broadcast", "--problem broadcast --source Tremblay"},
    {"reduce", "--problem reduce --participants Tremblay,Jupiter,Fafard,Ginette,Bourassa,"
               "Jacquelin --target Tremblay"},
    {"gossip", "--problem gossip --sources Tremblay,Jupiter,Fafard --targets "
               "Ginette,Bourassa,Boivin"},
};

static int run_exact(const char *label, const char *runner, int np, const char *xml,
                     const char *hosts, const char *plan, const char *units)
{
    return tu_smpi_within(label, runner, np, xml, hosts, plan, units, 1e-6, NULL);
}

static void test_small_platform(void)
{
    char runner[1024];
    if (!tu_smpi_runner(runner, sizeof runner))
        return;
    tu_run_t r;
    const char *xml = SSCHED_DATA_DIR "/simgrid/small_platform.xml";
    const char *hosts = tu_hostfile(xml, "rs_hosts.txt"), *plan = tu_tmp_path("rs_plan.json");
    const char *units = "--unit-bytes 1000000 --flops-per-task 10000000";
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        tu_run(&r, "schedule '%s' %s %s --operations 8 --unroll -o '%s'", xml, cases[k][1], units,
               plan);
        CU_ASSERT_EQUAL(r.status, 0);
        int planned = r.status == 0;
        tu_run_free(&r);
        if (!planned)
            continue;
        CU_ASSERT(run_exact(cases[k][0], runner, 7, xml, hosts, plan, units));
    }
}

/* A cluster whose backbone (2.25 GB/s, SHARED) is 18 times faster than the
 * hosts' private links (125 MB/s, SPLITDUPLEX): cluster_backbone.xml's
 * cluster cut to 4 hosts.  Bottleneck-rate sharing (docs/model.md, "Routed schedules") lets up
 * to 18 flows cross the backbone at once, each at its private link's rate:
 * the gossip's 12 flows of a period share it.  The simulated makespan is
 * still the schedule's to 1e-6 (measured: 1 + 2e-12), and the plan is
 * within 1 % of LB(K) (measured 241/240; exclusive links gave 12 flows one
 * after the other). */
static void test_cluster_backbone(void)
{
    char runner[1024];
    if (!tu_smpi_runner(runner, sizeof runner))
        return;
    tu_run_t r;
    const char *xml = tu_cluster4_xml("rs_cluster4.xml");
    const char *hosts = tu_hostfile(xml, "rs_hosts4.txt"), *plan = tu_tmp_path("rs_plan4.json");
    const char *units = "--unit-bytes 1000000 --flops-per-task 10000000";
    const char *g = "node-0,node-1,node-2,node-3";
    static const char *probs[] = {"gossip --sources %s --targets %s",
                                  "reduce --participants %s --target node-0 %s"};
    for (size_t k = 0; k < 2; k++) {
        char prob[256];
        snprintf(prob, sizeof prob, probs[k], g, k ? "" : g);
        tu_run(&r, "schedule '%s' --problem %s %s --operations 6 --unroll -o '%s'", xml, prob,
               units, plan);
        CU_ASSERT(r.status == 0);
        int planned = r.status == 0;
        tu_run_free(&r);
        if (!planned)
            continue;
        char *text = tu_read_file(plan);
        CU_ASSERT_FATAL(text != NULL);
        if (k == 0) {
            /* the first period's 4 flows start together on the backbone,
             * and the plan is LB(K) to 1 % */
            size_t together = 0;
            for (const char *q = text; (q = strstr(q, "\"start\": \"0\"")); q++)
                together++;
            CU_ASSERT(together >= 4);
            CU_ASSERT(strstr(text, "\"ratio\": \"241/240\"") != NULL);
        }
        free(text);
        CU_ASSERT(run_exact(k ? "cluster reduce" : "cluster gossip", runner, 4, xml, hosts, plan,
                            units));
    }
}

/* two_clusters.xml's 4 hosts, an all-reduce of K = 7: its flows share the
 * cluster and inter-cluster backbones, and some operations become ready
 * less than one loopback latency (600 us: a cluster host's loopback
 * crosses its private links and the backbone) before their time, after a
 * computation.  The executor then sleeps to that time instead of arming a
 * timer whose wake-up would land late (was: simulated / plan 1.0020). */
static void test_two_clusters(void)
{
    char runner[1024];
    if (!tu_smpi_runner(runner, sizeof runner))
        return;
    tu_run_t r;
    const char *xml = SSCHED_DATA_DIR "/simgrid/two_clusters.xml";
    const char *hosts = tu_hostfile(xml, "rs_hosts2.txt"), *plan = tu_tmp_path("rs_plan2.json");
    const char *units = "--unit-bytes 1000000 --flops-per-task 10000000";
    tu_run(&r, "schedule '%s' --problem allreduce --participants alice0.crepe.fr,"
           "alice1.crepe.fr,bob0.hamburger.edu,bob1.hamburger.edu %s --operations 7 --unroll "
           "-o '%s'", xml, units, plan);
    CU_ASSERT_FATAL(r.status == 0);
    tu_run_free(&r);
    CU_ASSERT(run_exact("two_clusters", runner, 4, xml, hosts, plan, units));
}

/* `ssched plan` on two_clusters.xml: a reduce and an all-reduce of 4 MB in
 * K = 256 segments of 16 KB.  Events are 16 us apart, the hosts' loopback
 * latency is 600 us: the metronome (src/mpi/run_pace.c) announces each one
 * in time, and a combine started at its time ends on a tick.  Simulated /
 * plan within 1e-3 (measured: reduce 1 + 1e-12; at K = 1024 the reduce was
 * 1.41 and the all-reduce 1.17 times the plan without the metronome). */
static void test_two_clusters_segments(void)
{
    char runner[1024];
    if (!tu_smpi_runner(runner, sizeof runner))
        return;
    tu_run_t r;
    const char *xml = SSCHED_DATA_DIR "/simgrid/two_clusters.xml";
    const char *hosts = tu_hostfile(xml, "rs_hosts2s.txt"), *dir = tu_tmp_path("rs_plans2s");
    static const char *probs[][2] = {{"reduce --target alice0.crepe.fr", "reduce"},
                                     {"allreduce", "allreduce"}};
    for (size_t k = 0; k < 2; k++) {
        tu_run(&r, "plan '%s' --problem %s --hostfile '%s' --bytes 4194304 --segment 16384 "
               "--datatype-size 8 -o '%s'", xml, probs[k][0], hosts, dir);
        CU_ASSERT(r.status == 0);
        int planned = r.status == 0;
        tu_run_free(&r);
        if (!planned)
            continue;
        char plan[1024];
        snprintf(plan, sizeof plan, "%s/%s-4194304-r0.unrolled.json", dir, probs[k][1]);
        CU_ASSERT(tu_smpi_within(probs[k][1], runner, 4, xml, hosts, plan,
                                 "--unit-bytes 16384 --flops-per-task 16384", 1e-3, NULL));
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"small_platform.xml: simulated makespan = schedule's", test_small_platform},
        {"4-host cluster, flows sharing its backbone: simulated = schedule's",
         test_cluster_backbone},
        {"two_clusters.xml all-reduce: operations ready just before their time",
         test_two_clusters},
        {"two_clusters.xml, 16 KB segments (events closer than the loopback latency): "
         "simulated = plan to 1e-3", test_two_clusters_segments},
        {NULL, NULL},
    };
    return tu_main("routed schedules under SMPI", tests);
}
