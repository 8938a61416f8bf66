/* ssched-probe under SMPI (issue 23 item 4): on a SimGrid platform, under
 * the exact configuration (bench/smpi_exact.sh --print-cfg B), the probed
 * matrix matches every route's latency sum and bottleneck bandwidth within
 * 2 %.  Runs only when smpirun and ssched-probe-smpi exist. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ssched/platform.h"
#include "test_util.h"

#if defined(SSCHED_PROBE_SMPI) && defined(SSCHED_SMPIRUN)
static int close_to(mpq_srcptr a, mpq_srcptr b)
{
    double x = mpq_get_d(a), y = mpq_get_d(b);
    return fabs(x - y) <= 0.02 * fabs(y);
}

static void probe_platform(const char *platform, int np)
{
    const char *hosts = tu_tmp_path("probe.hosts"), *csv = tu_tmp_path("probe.csv");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "export hostfile '%s' -o '%s'", platform, hosts), 0);
    tu_run_free(&r);
    int status = tu_sh(&r, SSCHED_SMPIRUN " -np %d -platform '%s' -hostfile '%s' "
                       "$(sh '%s/bench/smpi_exact.sh' --print-cfg B) --log=root.thres:warning "
                       "'%s' -o '%s' --reps 1", np, platform, hosts, SSCHED_SOURCE_DIR,
                       SSCHED_PROBE_SMPI, csv);
    if (status != 0)
        fprintf(stderr, "\n  smpirun: %d\n%s\n%s\n", status, r.out ? r.out : "",
                r.err ? r.err : "");
    CU_ASSERT_EQUAL_FATAL(status, 0);
    tu_run_free(&r);
    ssched_platform_t m, s;
    ssched_error_t err;
    ssched_platform_init(&m);
    ssched_platform_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load(&m, csv, NULL, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load(&s, platform, NULL, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(m.n_edges, (size_t)np * (size_t)(np - 1));
    size_t checked = 0;
    for (size_t e = 0; e < m.n_edges; e++) {
        size_t i, j;
        CU_ASSERT_FATAL(ssched_platform_find_node(&s, m.names[m.from[e]], &i, NULL) == SSCHED_OK);
        CU_ASSERT_FATAL(ssched_platform_find_node(&s, m.names[m.to[e]], &j, NULL) == SSCHED_OK);
        size_t f = ssched_platform_edge_index(&s, i, j);
        CU_ASSERT_FATAL(f != (size_t)-1);
        int ok = close_to(m.c[e], s.c[f]) && close_to(m.l[e], s.l[f]);
        if (!ok)
            fprintf(stderr, "\n  %s -> %s: probed 1/B %g L %g, route %g %g\n", m.names[m.from[e]],
                    m.names[m.to[e]], mpq_get_d(m.c[e]), mpq_get_d(m.l[e]), mpq_get_d(s.c[f]),
                    mpq_get_d(s.l[f]));
        CU_ASSERT(ok);
        checked++;
    }
    CU_ASSERT(checked > 0);
    ssched_platform_free(&m);
    ssched_platform_free(&s);
}
#endif

/* Under mpirun (real timings vary: only the file's shape is checked):
 * 3 ranks on one machine, told apart as name#RANK, 6 pairs that load. */
static void test_probe_mpirun(void)
{
#if defined(SSCHED_PROBE) && defined(SSCHED_MPIRUN)
    const char *csv = tu_tmp_path("probe_mpi.csv");
    tu_run_t r;
    int status = tu_sh(&r, "OMPI_MCA_mpi_yield_when_idle=1 " SSCHED_MPIRUN " --allow-run-as-root "
                       "--oversubscribe -q -np 3 '%s' -o '%s' --reps 2 --large 65536",
                       SSCHED_PROBE, csv);
    if (status != 0)
        fprintf(stderr, "\n  mpirun: %d\n%s\n", status, r.err ? r.err : "");
    CU_ASSERT_EQUAL_FATAL(status, 0);
    /* a pair whose large message was not slower (timer noise on a loaded
     * machine) is left out, and said so */
    size_t left_out = 0;
    for (const char *at = r.err; at && (at = strstr(at, "pair left out")); at++)
        left_out++;
    tu_run_free(&r);
    ssched_platform_t m;
    ssched_error_t err;
    ssched_platform_init(&m);
    ssched_status_t st = ssched_platform_load(&m, csv, NULL, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    CU_ASSERT_EQUAL(m.n_nodes, 3);
    CU_ASSERT_EQUAL(m.n_edges + left_out, 6);
    for (size_t e = 0; e < m.n_edges; e++)
        CU_ASSERT(mpq_sgn(m.c[e]) > 0 && mpq_sgn(m.l[e]) >= 0);
    ssched_platform_free(&m);
    /* a bad option: exit 2 */
    CU_ASSERT_EQUAL(tu_sh(&r, SSCHED_MPIRUN " --allow-run-as-root --oversubscribe -q -np 2 '%s' "
                          "-o '%s' --large 0", SSCHED_PROBE, csv) != 0, 1);
    tu_run_free(&r);
#endif
}

static void test_probe_smpi(void)
{
#if defined(SSCHED_PROBE_SMPI) && defined(SSCHED_SMPIRUN)
    probe_platform(SSCHED_DATA_DIR "/simgrid/two_clusters.xml", 4);
    probe_platform(SSCHED_DATA_DIR "/simgrid/small_platform.xml", 7);
#endif
}

int main(void)
{
    /* Open MPI under ASan: its own allocations are reported as leaks */
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    /* Open MPI's session directories in this suite's scratch directory
     * (as test_mpi_exec: a concurrent mpirun may clean the shared /tmp) */
    char ompi_tmp[512];
    snprintf(ompi_tmp, sizeof ompi_tmp, "%s", tu_tmp_path("ompi"));
    if (mkdir(ompi_tmp, 0700) == 0)
        setenv("OMPI_MCA_orte_tmpdir_base", ompi_tmp, 1);
    const tu_test_t tests[] = {{"probe under SMPI matches the routes", test_probe_smpi},
                               {"probe under mpirun writes a matrix", test_probe_mpirun},
                               {NULL, NULL}};
    return tu_main("probe", tests);
}
