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

static void test_small_platform(void)
{
    char runner[1024];
    snprintf(runner, sizeof runner, "%s/ssched-exec-smpirun", SSCHED_BUILD_DIR);
    tu_run_t r;
    tu_sh(&r, "command -v smpirun >/dev/null && test -x '%s'", runner);
    int have = r.status == 0;
    tu_run_free(&r);
    if (!have) {
        fprintf(stderr, "\n  skipped: smpirun or ssched-exec-smpirun absent\n");
        return;
    }
    const char *xml = SSCHED_DATA_DIR "/simgrid/small_platform.xml";
    const char *hosts = tu_tmp_path("rs_hosts.txt"), *plan = tu_tmp_path("rs_plan.json");
    tu_run(&r, "export hostfile '%s' -o '%s'", xml, hosts);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    tu_run_free(&r);
    const char *units = "--unit-bytes 1000000 --flops-per-task 10000000";
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        tu_run(&r, "schedule '%s' %s %s --operations 8 --unroll -o '%s'", xml, cases[k][1], units,
               plan);
        CU_ASSERT_EQUAL(r.status, 0);
        int planned = r.status == 0;
        tu_run_free(&r);
        if (!planned)
            continue;
        tu_sh(&r, "'%s' -np 7 -platform '%s' -hostfile '%s' --log=root.thres:critical '%s' %s "
              "--verify --json", runner, xml, hosts, plan, units);
        const char *m = r.out ? strstr(r.out, "\"ratio\": ") : NULL;
        double ratio = m ? atof(m + 9) : 0;
        int ok = r.status == 0 && r.out && strstr(r.out, "\"verified\": true") &&
                 ratio > 1 - 1e-6 && ratio < 1 + 1e-6;
        if (!ok)
            fprintf(stderr, "\n  %s: status %d ratio %.17g\n%s\n%s", cases[k][0], r.status, ratio,
                    r.out ? r.out : "", r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"small_platform.xml: simulated makespan = schedule's", test_small_platform},
        {NULL, NULL},
    };
    return tu_main("routed schedules under SMPI", tests);
}
