/* The MPI executor (issue 13): ssched-exec runs generated schedules under mpirun with --verify (real
 * payloads checked at their destination), rejects bad input with exit
 * status 2 and one line, stops every rank on a callback error, holds no
 * more buffers than the schedule; broadcasts reach every other node once,
 * multicasts every target once (relays forward);
 * tests/mpi_op_prog.c covers the library's
 * in-memory setup and MPI_Op combine; under SMPI (ssched-exec-smpi) the
 * simulated makespan is the schedule's to 1e-9.
 * Registered only when MPI is found (tests/CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define MPIRUN "OMPI_MCA_mpi_yield_when_idle=1 " SSCHED_MPIRUN " --allow-run-as-root --oversubscribe -q"

static int ranks_of(const char *plat)
{
    return !strcmp(plat, "fig2") ? 5 : !strcmp(plat, "fig6") ? 3 : 20;
}

/* Write the unrolled schedule; returns its path.  whole: --no-split;
 * extra: more options of ssched schedule (or NULL). */
static const char *unroll_with(const char *plat, const char *kind, unsigned long K, int whole,
                               const char *extra)
{
    static char path[512];
    char opts[512], name[64];
    snprintf(name, sizeof name, "%s-%s-%lu-%d%s.json", plat, kind, K, whole, extra ? "x" : "");
    snprintf(path, sizeof path, "%s", tu_tmp_path(name));
    tu_run_t r;
    tu_run(&r, "schedule '%s/examples/%s.graphml' %s --operations %lu --unroll %s %s -o '%s'",
           SSCHED_SOURCE_DIR, plat, tu_example_problem(plat, kind, opts, sizeof opts), K,
           whole ? "--no-split" : "", extra ? extra : "", path);
    if (r.status != 0)
        fprintf(stderr, "\n  ssched schedule failed: %s", r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    return path;
}

static const char *unroll(const char *plat, const char *kind, unsigned long K, int whole)
{
    return unroll_with(plat, kind, K, whole, NULL);
}

/* An unrolled broadcast from src (NULL: fig6's P0, tiers-small's wan0),
 * in whole messages; extra (or NULL): --targets (a multicast) or
 * --routers switch, whose relays forward without delivering; tag names
 * the variant in the file name. */
static const char *unroll_bcast_with(const char *plat, unsigned long K, const char *src,
                                     const char *extra, const char *tag)
{
    static char path[512];
    char name[96];
    if (!src)
        src = !strcmp(plat, "fig6") ? "P0" : "wan0";
    snprintf(name, sizeof name, "%s-broadcast-%s-%lu%s.json", plat, src, K, tag ? tag : "");
    snprintf(path, sizeof path, "%s", tu_tmp_path(name));
    tu_run_t r;
    tu_run(&r, "schedule '%s/examples/%s.graphml' --problem broadcast --source %s %s "
           "--operations %lu --unroll -o '%s'", SSCHED_SOURCE_DIR, plat, src,
           extra ? extra : "", K, path);
    if (r.status != 0)
        fprintf(stderr, "\n  ssched schedule (broadcast) failed: %s", r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    return path;
}

static const char *unroll_bcast_from(const char *plat, unsigned long K, const char *src)
{
    return unroll_bcast_with(plat, K, src, NULL, NULL);
}

static const char *unroll_bcast(const char *plat, unsigned long K)
{
    return unroll_bcast_from(plat, K, NULL);
}

/* An unrolled all-reduce: fig6's P0,P1,P2, tiers-small's three hosts
 * (their best root, lan0_0_0, is a router: it only forwards copies) or
 * four when four; extra: more options (--commutative) or NULL. */
static const char *unroll_allreduce(const char *plat, unsigned long K, int four,
                                    const char *extra)
{
    static char path[512];
    char name[96];
    const char *parts = !strcmp(plat, "fig6") ? "P0,P1,P2"
                        : four ? "h0_0_0_0,h0_0_1_0,h1_0_0_1,h1_0_1_2"
                               : "h0_0_0_0,h0_0_1_0,h1_0_0_1";
    snprintf(name, sizeof name, "%s-allreduce-%lu-%d%s.json", plat, K, four, extra ? "x" : "");
    snprintf(path, sizeof path, "%s", tu_tmp_path(name));
    tu_run_t r;
    tu_run(&r, "schedule '%s/examples/%s.graphml' --problem allreduce --participants %s %s "
           "--operations %lu --unroll -o '%s'", SSCHED_SOURCE_DIR, plat, parts,
           extra ? extra : "", K, path);
    if (r.status != 0)
        fprintf(stderr, "\n  ssched schedule (allreduce) failed: %s", r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    return path;
}

/* mpirun ssched-exec FILE --verify --json: 1 if "verified": true. */
static int run_verified(const char *path, int np, const char *extra)
{
    tu_run_t r;
    tu_sh(&r, MPIRUN " -np %d '%s' '%s' --verify --json --unit-bytes 640 %s", np, SSCHED_EXEC,
          path, extra ? extra : "");
    const char *last = r.out ? strrchr(r.out, '{') : NULL;
    int ok = r.status == 0 && last && strstr(last, "\"verified\": true");
    if (!ok)
        fprintf(stderr, "\n  %s (np %d): status %d\n  out: %s\n  err: %s", path, np, r.status,
                r.out ? r.out : "", r.err ? r.err : "");
    tu_run_free(&r);
    return ok;
}

/* The small platforms: every problem, K = 1, 7, 100, pieces and whole. */
static void test_exec_small(void)
{
    const char *runs[][2] = {{"fig2", "scatter"}, {"fig2", "gossip"}, {"fig6", "scatter"},
                             {"fig6", "gossip"}, {"fig6", "reduce"}};
    const unsigned long Ks[] = {1, 7, 100};
    for (size_t c = 0; c < sizeof runs / sizeof *runs; c++)
        for (size_t k = 0; k < 3; k++)
            for (int whole = 0; whole < 2; whole++)
                CU_ASSERT(run_verified(unroll(runs[c][0], runs[c][1], Ks[k], whole),
                                       ranks_of(runs[c][0]), NULL));
}

/* Broadcasts: every node but the source gets each message once, byte for
 * byte the source's (copies forwarded only once whole). */
static void test_exec_broadcast(void)
{
    const unsigned long Ks[] = {1, 7, 100};
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT(run_verified(unroll_bcast("fig6", Ks[k]), 3, NULL));
        CU_ASSERT(run_verified(unroll_bcast("tiers-small", Ks[k]), 20, NULL));
    }
    /* a source that is not rank 0, and ranks mapped in reverse node order */
    const char *map = tu_tmp_path("bcast-rev.map");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(map, "h1_0_1_2\nh1_0_1_1\nh1_0_1_0\nlan1_0_1\nh1_0_0_2\n"
                                             "h1_0_0_1\nh1_0_0_0\nlan1_0_0\nh0_0_1_2\nh0_0_1_1\n"
                                             "h0_0_1_0\nlan0_0_1\nh0_0_0_2\nh0_0_0_1\nh0_0_0_0\n"
                                             "lan0_0_0\nman1_0\nman0_0\nwan1\nwan0\n"),
                          0);
    char extra[600];
    snprintf(extra, sizeof extra, "--map '%s'", map);
    const char *h = unroll_bcast_from("tiers-small", 7, "h0_0_0_0");
    CU_ASSERT(run_verified(h, 20, NULL));
    CU_ASSERT(run_verified(h, 20, extra));
    /* multicasts: relays (routers, hosts off the list, switches) receive
     * and forward; --verify checks every target's K messages */
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT(run_verified(unroll_bcast_with("tiers-small", Ks[k], NULL,
                                                 "--targets h0_0_0_0,h0_0_1_1,h1_0_0_0,h1_0_1_2",
                                                 "-mc"),
                               20, NULL));
        CU_ASSERT(run_verified(unroll_bcast_with("tiers-small", Ks[k], "h0_0_0_0",
                                                 "--routers switch", "-sw"),
                               20, NULL));
    }
}

/* All-reduces: every participant ends with each op's reduced value (the
 * ordered 2x2-matrix product, or the counting sum when commutative), the
 * root's own and copies elsewhere, forwarded only once whole. */
static void test_exec_allreduce(void)
{
    const unsigned long Ks[] = {1, 7, 100};
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT(run_verified(unroll_allreduce("fig6", Ks[k], 0, NULL), 3, NULL));
        CU_ASSERT(run_verified(unroll_allreduce("fig6", Ks[k], 0, "--commutative"), 3, NULL));
        CU_ASSERT(run_verified(unroll_allreduce("tiers-small", Ks[k], 0, NULL), 20, NULL));
    }
    CU_ASSERT(run_verified(unroll_allreduce("tiers-small", 7, 0, "--commutative"), 20, NULL));
    CU_ASSERT(run_verified(unroll_allreduce("tiers-small", 100, 1, NULL), 20, NULL));
    CU_ASSERT(run_verified(unroll_allreduce("fig6", 7, 0, "--no-split"), 3, NULL));
}

/* Messages in pieces (byte ranges) on fig2: a fixed period of 2 (scatter),
 * 4 (gossip) cuts them. */
static void test_exec_pieces(void)
{
    const unsigned long Ks[] = {1, 7, 100};
    for (size_t k = 0; k < 3; k++) {
        const char *path = unroll_with("fig2", "scatter", Ks[k], 0, "--fixed-period 2");
        char *text = tu_read_file(path);
        CU_ASSERT(text && (Ks[k] == 1 || strstr(text, "\"piece\"")));
        free(text);
        CU_ASSERT(run_verified(path, 5, NULL));
        CU_ASSERT(run_verified(unroll_with("fig2", "gossip", Ks[k], 0, "--fixed-period 4"), 5, NULL));
    }
}

/* tiers-small: 20 ranks (kept few: they share the machine's cores). */
static void test_exec_tiers(void)
{
    CU_ASSERT(run_verified(unroll("tiers-small", "scatter", 7, 0), 20, NULL));
    CU_ASSERT(run_verified(unroll("tiers-small", "gossip", 7, 0), 20, NULL));
    const char *r7 = unroll("tiers-small", "reduce", 7, 0);
    char *text = tu_read_file(r7);
    CU_ASSERT(text && strstr(text, "\"piece\""));
    free(text);
    CU_ASSERT(run_verified(r7, 20, NULL));
    CU_ASSERT(run_verified(unroll("tiers-small", "reduce", 100, 0), 20, NULL));
    CU_ASSERT(run_verified(unroll("tiers-small", "scatter", 100, 1), 20, NULL));
    CU_ASSERT(run_verified(unroll("tiers-small", "gossip", 1, 1), 20, NULL));
    /* more transfers in flight per port than the schedule overlaps */
    CU_ASSERT(run_verified(unroll("tiers-small", "scatter", 100, 1), 20, "--window 8"));
    CU_ASSERT(run_verified(unroll("tiers-small", "reduce", 100, 0), 20, "--window 3"));
    CU_ASSERT(run_verified(unroll_bcast("tiers-small", 100), 20, "--window 100000"));
}

/* Another node-to-rank map: reversed. */
static void test_exec_map(void)
{
    const char *map = tu_tmp_path("map.txt");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(map, "# reversed\nP2\nP1\n\nP0\n"), 0);
    char extra[600];
    snprintf(extra, sizeof extra, "--map '%s'", map);
    CU_ASSERT(run_verified(unroll("fig6", "reduce", 7, 0), 3, extra));
    CU_ASSERT(run_verified(unroll("fig6", "gossip", 7, 0), 3, extra));
}

/* Exit status 2 and exactly one line of ours on stderr. */
static void expect_bad(int np, const char *args, const char *needle, int want);

/* Commutative reduces (issue 14): values keyed by sets, merged in any
 * order.  --verify sums words mod 2^31-1 whose first N words count the
 * participants, so a result that misses or repeats one is caught: with
 * SSCHED_EXEC_SCALE_VALUE=k,m participant k's value counts m times. */
static void test_exec_commutative(void)
{
    const unsigned long Ks[] = {1, 7, 100};
    for (size_t k = 0; k < 3; k++)
        for (int whole = 0; whole < 2; whole++)
            CU_ASSERT(run_verified(unroll_with("fig6", "reduce", Ks[k], whole, "--commutative"),
                                   3, NULL));
    const char *t7 = unroll_with("tiers-small", "reduce", 7, 0, "--commutative");
    char *text = tu_read_file(t7);
    CU_ASSERT(text && strstr(text, "\"merge\"") && strstr(text, "\"set\""));
    free(text);
    CU_ASSERT(run_verified(t7, 20, NULL));
    static const char *const scale[] = {"1,0", "1,2"}; /* lost, counted twice */
    char args[700];
    snprintf(args, sizeof args, "'%s' --verify", unroll_with("fig6", "reduce", 7, 0, "--commutative"));
    for (size_t k = 0; k < 2; k++) {
        setenv("SSCHED_EXEC_SCALE_VALUE", scale[k], 1);
        expect_bad(3, args, "verification failed", 1);
        unsetenv("SSCHED_EXEC_SCALE_VALUE");
    }
}

static void expect_bad(int np, const char *args, const char *needle, int want)
{
    tu_run_t r;
    tu_sh(&r, MPIRUN " -np %d '%s' %s", np, SSCHED_EXEC, args);
    int ours = 0;
    for (const char *s = r.err; s && (s = strstr(s, "ssched-exec:")); s++)
        ours++;
    if (r.status != want || ours != 1 || !strstr(r.err, needle))
        fprintf(stderr, "\n  %s: status %d, err: %s", args, r.status, r.err);
    CU_ASSERT_EQUAL(r.status, want);
    CU_ASSERT_EQUAL(ours, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle));
    tu_run_free(&r);
}

static void test_exec_bad_input(void)
{
    char args[1200];
    const char *good = unroll("fig6", "reduce", 3, 0);
    /* an invalid schedule: the first transfer made to end later */
    char *text = tu_read_file(good);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *at = strstr(text, "\"end\": \"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memmove(at + 9, at + 8, strlen(at + 8) + 1);
    at[8] = '9';
    const char *bad = tu_tmp_path("invalid.json");
    CU_ASSERT_EQUAL(tu_write_file(bad, text), 0);
    free(text);
    snprintf(args, sizeof args, "'%s'", bad);
    expect_bad(3, args, "invalid schedule", 2);
    expect_bad(3, "/nonexistent/schedule.json", "nonexistent", 2);
    snprintf(args, sizeof args, "'%s'", good);
    expect_bad(2, args, "mpirun -np 3", 2);
    const char *map = tu_tmp_path("badmap.txt");
    CU_ASSERT_EQUAL(tu_write_file(map, "P0\nP7\nP1\n"), 0);
    snprintf(args, sizeof args, "'%s' --map '%s'", good, map);
    expect_bad(3, args, "unknown node 'P7'", 2);
    CU_ASSERT_EQUAL(tu_write_file(map, "P0\nP1\nP1\n"), 0);
    expect_bad(3, args, "mapped twice", 2);
    snprintf(args, sizeof args, "'%s' --unit-bytes zero", good);
    expect_bad(3, args, "--unit-bytes", 2);
    snprintf(args, sizeof args, "'%s' --window -3", good);
    expect_bad(3, args, "--window", 2);
    snprintf(args, sizeof args, "'%s' --pace 0", good);
    expect_bad(3, args, "--pace", 2);
}

/* A delivery callback fails mid-run: every rank stops, one line, no hang. */
static void test_exec_callback_error(void)
{
    const char *kinds[][2] = {{"fig6", "gossip"}, {"tiers-small", "scatter"}, {"fig6", "reduce"}};
    for (size_t k = 0; k < 3; k++) {
        char args[700];
        snprintf(args, sizeof args, "'%s'", unroll(kinds[k][0], kinds[k][1], 20, 0));
        setenv("SSCHED_EXEC_FAIL_OP", "3", 1);
        expect_bad(ranks_of(kinds[k][0]), args, "callback returned 7", 1);
        unsetenv("SSCHED_EXEC_FAIL_OP");
    }
}

/* SMPI, exact configuration (bench/smpi_exact.sh --print-cfg B: CM02, the
 * 16-byte envelope cancelled by ssched-exec-smpi): the simulated makespan
 * is the schedule's up to float rounding.  Measured on tiers-small, K = 100:
 * 1 + 5e-13 (reduce, 6600 pieces), 1 + 1e-13 (scatter), 1 + 1e-14 (gossip),
 * 1 - 3e-15 (broadcast from wan0), 1 + 7e-13 (commutative reduce),
 * 1 + 1.3e-13 (allreduce of three hosts, root lan0_0_0);
 * 1e-9 is far above that, yet catches the envelope (1.6e-5) and the byte
 * rounding of pieces passed on by a tight dependency (8e-8).  SimGrid is
 * deterministic: no flakiness.  The gossip is unrolled in whole messages
 * (--no-split), as the planner chose before it ranked pieces on their real
 * rate: in pieces (1.0067 of K/TP instead of 1.0209) the executor, which
 * knows no release times, runs 1.4e-6 ahead of the schedule (ratio
 * 0.9999986), a valid gain this equality test would flag. */
static void test_smpi_makespan(void)
{
#if defined(SSCHED_EXEC_SMPI) && defined(SSCHED_SMPIRUN)
    const char *xml = tu_tmp_path("ts.xml"), *hosts = tu_tmp_path("ts.hosts");
    tu_run_t r;
    tu_run(&r, "export simgrid '%s/examples/tiers-small.graphml' -o '%s' --hostfile '%s'",
           SSCHED_SOURCE_DIR, xml, hosts);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    tu_run_free(&r);
    const char *kinds[] = {"reduce", "scatter", "gossip", "broadcast", "commutative reduce",
                           "allreduce"};
    for (size_t k = 0; k < 6; k++) {
        const char *path = k == 3   ? unroll_bcast("tiers-small", 100)
                           : k == 4 ? unroll_with("tiers-small", "reduce", 100, 0, "--commutative")
                           : k == 5 ? unroll_allreduce("tiers-small", 100, 0, NULL)
                                    : unroll("tiers-small", kinds[k], 100, k == 2);
        tu_sh(&r, SSCHED_SMPIRUN " -np 20 -platform '%s' -hostfile '%s' "
              "$(sh '%s/bench/smpi_exact.sh' --print-cfg B) --log=root.thres:warning '%s' '%s' "
              "--json --verify", xml, hosts, SSCHED_SOURCE_DIR, SSCHED_EXEC_SMPI, path);
        const char *m = r.out ? strstr(r.out, "\"ratio\": ") : NULL;
        double ratio = m ? atof(m + 9) : 0;
        int ok = ratio > 1 - 1e-9 && ratio < 1 + 1e-9 && strstr(r.out, "\"verified\": true");
        if (!ok)
            fprintf(stderr, "\n  smpi %s: status %d ratio %.17g\n%s\n%s", kinds[k], r.status,
                    ratio, r.out ? r.out : "", r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
    }
#endif
}

/* The file's "buffer_peak" (the most messages a node holds at once). */
static double file_peak(const char *path)
{
    char *text = tu_read_file(path);
    const char *m = text ? strstr(text, "\"buffer_peak\": ") : NULL;
    double v = -1;
    if (m) { /* a number or a "p/q" string */
        m += 15;
        if (*m == '"')
            m++;
        char *end;
        v = strtod(m, &end);
        if (*end == '/')
            v /= strtod(end + 1, NULL);
    }
    free(text);
    return v;
}

/* A node never runs ahead of the schedule on its fast links: the most
 * buffers a rank holds is the schedule's peak (up to one per resource,
 * operations ending exactly when another starts).  Without the node's
 * local order a scatter's router held 1016 instead of 84 (K = 100). */
static void test_exec_buffers(void)
{
    const char *kinds[] = {"scatter", "gossip", "reduce", "broadcast", "allreduce"};
    for (size_t k = 0; k < 5; k++) {
        const char *path = k == 3   ? unroll_bcast("tiers-small", 100)
                           : k == 4 ? unroll_allreduce("tiers-small", 100, 0, NULL)
                                    : unroll("tiers-small", kinds[k], 100, 0);
        double want = file_peak(path);
        tu_run_t r;
        tu_sh(&r, MPIRUN " -np 20 '%s' '%s' --json --unit-bytes 640", SSCHED_EXEC, path);
        const char *m = r.out ? strstr(r.out, "\"buffer_peak\": ") : NULL;
        double got = m ? atof(m + 15) : -1;
        int ok = r.status == 0 && want > 0 && got > 0 && got <= want + 3;
        if (!ok)
            fprintf(stderr, "\n  %s: status %d, buffer peak %g, schedule's %g\n%s", kinds[k],
                    r.status, got, want, r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
    }
}

/* Plans shipped in chunks (the int count of MPI): 5 values a message. */
static void test_exec_plan_chunks(void)
{
    setenv("SSCHED_MPI_PLAN_CHUNK", "5", 1);
    CU_ASSERT(run_verified(unroll("tiers-small", "reduce", 7, 0), 20, NULL));
    CU_ASSERT(run_verified(unroll("fig2", "gossip", 7, 0), 5, NULL));
    unsetenv("SSCHED_MPI_PLAN_CHUNK");
}

/* The library without ssched-exec (tests/mpi_op_prog.c): setup from a
 * schedule built in memory, a reduce combined by a non-commutative user
 * MPI_Op (then MPI_BXOR, a second run of the same setup), the one-line
 * errors of a setup without schedule and of a reduce without combine. */
static void test_lib_mpi_op(void)
{
    const char *runs[][5] = {
        {"fig6", "3", "reduce", "P0,P1,P2", "P0"},
        {"fig6", "3", "reduce", "P2,P0", "P1"},
        {"tiers-small", "20", "reduce", "h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_2", "h1_0_0_1"},
        {"fig2", "5", "gossip", "Ps,Pb", "P0,P1"},
        {"tiers-small", "20", "scatter", "h0_0_0_0", "h0_0_1_0,h1_0_0_0,h1_0_1_2,h0_0_0_2"},
    };
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++)
        for (int errors = 0; errors < 2; errors++) {
            if (errors && k != 0 && k != 3)
                continue;
            tu_run_t r;
            tu_sh(&r, MPIRUN " -np %s '%s' '%s/examples/%s.graphml' %s 20 %s %s %s", runs[k][1],
                  SSCHED_MPI_OP_PROG, SSCHED_SOURCE_DIR, runs[k][0], runs[k][2], runs[k][3],
                  runs[k][4], errors ? "errors" : "");
            int ok = r.status == 0 && r.out && strstr(r.out, "mpi_op_prog: ok");
            if (!ok)
                fprintf(stderr, "\n  mpi_op_prog %s %s%s: status %d\n%s\n%s", runs[k][0],
                        runs[k][2], errors ? " errors" : "", r.status, r.out ? r.out : "",
                        r.err ? r.err : "");
            CU_ASSERT(ok);
            tu_run_free(&r);
        }
}

/* mpi_lat_prog (schedules with latencies and batches built in memory)
 * under mpirun: every payload checked at its destination.  Batches of 1,
 * 3 and 5 operations; one rank per node (5) and one per node used (4: the
 * router X carries nothing); as soon as possible and paced (1 ms per
 * schedule time unit). */
static void test_exec_batches(void)
{
    const char *kinds[] = {"bcast", "scatter"};
    const char *batch[] = {"1", "3", "5"};
    for (size_t k = 0; k < 2; k++)
        for (size_t b = 0; b < 3; b++)
            for (int np = 4; np <= 5; np++) {
                const char *pace = b == 1 && np == 4 ? "0.001" : "0";
                tu_run_t r;
                tu_sh(&r, MPIRUN " -np %d '%s' %s 15 %s 1/100 %s", np, SSCHED_MPI_LAT_PROG,
                      kinds[k], batch[b], pace);
                int ok = r.status == 0 && r.out && strstr(r.out, "mpi_lat_prog: ok");
                if (!ok)
                    fprintf(stderr, "\n  mpi_lat_prog %s batch %s np %d: status %d\n%s\n%s",
                            kinds[k], batch[b], np, r.status, r.out ? r.out : "",
                            r.err ? r.err : "");
                CU_ASSERT(ok);
                tu_run_free(&r);
            }
}

/* The number in "... uses N of ..." of an error line, or 0. */
static int used_count(const char *err)
{
    const char *m = err ? strstr(err, "uses ") : NULL;
    return m ? atoi(m + 5) : 0;
}

/* Hosts-only execution: routers no transfer crosses need no rank.  A
 * reduce of two hosts of one LAN on tiers-small uses a few of the 20
 * nodes: 20 ranks run it, so does one rank per node used (node order, or
 * a map); any other count is refused (exit 2, one line naming both). */
static void test_exec_hosts_only(void)
{
    const char *path = tu_tmp_path("ts-reduce-lan.json");
    tu_run_t r;
    tu_run(&r, "schedule '%s/examples/tiers-small.graphml' --problem reduce --participants "
           "h0_0_0_0,h0_0_0_1,h0_0_0_2 --target h0_0_0_1 --operations 7 --unroll -o '%s'",
           SSCHED_SOURCE_DIR, path);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    tu_run_free(&r);
    CU_ASSERT(run_verified(path, 20, NULL));
    char args[700];
    snprintf(args, sizeof args, "'%s'", path);
    tu_sh(&r, MPIRUN " -np 2 '%s' %s", SSCHED_EXEC, args);
    int n = used_count(r.err);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT(n > 2 && n < 20);
    CU_ASSERT_PTR_NOT_NULL(r.err ? strstr(r.err, "one rank per node used") : NULL);
    tu_run_free(&r);
    if (n <= 2 || n >= 20)
        return;
    CU_ASSERT(run_verified(path, n, NULL));
    expect_bad(n + 1, args, "of the platform's 20 nodes", 2);
    /* a map of the used nodes in reverse order; then one missing a node */
    const char *map = tu_tmp_path("hosts-only.map");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(map, "h0_0_0_2\nh0_0_0_1\nh0_0_0_0\nlan0_0_0\n"), 0);
    snprintf(args, sizeof args, "--map '%s'", map);
    if (n == 4) /* the three hosts and their LAN router */
        CU_ASSERT(run_verified(path, 4, args));
    CU_ASSERT_EQUAL_FATAL(tu_write_file(map, "h0_0_0_2\nh0_0_0_1\nh0_0_0_0\n"), 0);
    snprintf(args, sizeof args, "'%s' --map '%s'", path, map);
    expect_bad(3, args, "no rank runs it", 2);
}

/* Routed schedules (a SimGrid platform read by libsimgrid: hosts only,
 * host pairs on SimGrid's routes) run under mpirun with one rank per host,
 * every payload verified: scatter, ordered reduce, broadcast. */
static void test_exec_routed(void)
{
    const char *xml = SSCHED_DATA_DIR "/simgrid/small_platform.xml";
    const char *hosts = "Tremblay,Jupiter,Fafard,Ginette,Bourassa,Jacquelin,Boivin";
    char problem[3][256];
    snprintf(problem[0], sizeof problem[0], "scatter --source Tremblay --targets %s", hosts + 9);
    snprintf(problem[1], sizeof problem[1], "reduce --participants %s --target Fafard", hosts);
    snprintf(problem[2], sizeof problem[2], "broadcast --source Jupiter");
    const char *path = tu_tmp_path("routed-exec.json");
    for (int k = 0; k < 3; k++) {
        tu_run_t r;
        int rc = tu_run(&r, "schedule '%s' --problem %s --unit-bytes 1000000 --operations 10 "
                            "--unroll --quiet -o '%s'",
                        xml, problem[k], path);
        CU_ASSERT_EQUAL(rc, 0);
        tu_run_free(&r);
        if (rc == 0)
            CU_ASSERT(run_verified(path, 7, NULL));
    }
}

/* --json: the measured time against the schedule's own time scale. */
static void test_exec_json_units(void)
{
    tu_run_t r;
    tu_sh(&r, MPIRUN " -np 3 '%s' '%s' --json --unit-bytes 640 --pace 0.0001", SSCHED_EXEC,
          unroll("fig6", "reduce", 7, 0));
    const char *j = r.out ? strrchr(r.out, '{') : NULL;
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const char *ms = strstr(j, "\"measured_seconds\": "), *us = strstr(j, "\"unit_seconds\": ");
    const char *mu = strstr(j, "\"measured_units\": "), *ra = strstr(j, "\"ratio\": ");
    const char *sm = strstr(j, "\"schedule_makespan_approx\": ");
    CU_ASSERT(ms && us && mu && ra && sm && strstr(j, "\"paced\": true"));
    if (ms && us && mu && ra && sm) {
        double s = atof(ms + 20), u = atof(us + 16), m = atof(mu + 18), q = atof(ra + 9);
        double mk = atof(sm + 28);
        CU_ASSERT(u == 0.0001);
        CU_ASSERT(m > 0 && m == s / u);
        CU_ASSERT(q > 0 && q < m / mk * (1 + 1e-12) && q > m / mk * (1 - 1e-12));
    }
    tu_run_free(&r);
}

/* A callback out of memory says so (not "returned 1"). */
static void test_exec_out_of_memory(void)
{
#ifndef SSCHED_SANITIZED /* ASan's shadow memory cannot start under ulimit -v */
    /* 2^30-byte values under a 1.5 GB address-space limit per rank: the
     * value callback's scratch cannot be had */
    tu_run_t r;
    tu_sh(&r, MPIRUN " -np 3 sh -c 'ulimit -v 1500000 && exec \"$0\" \"$@\"' '%s' '%s' "
          "--unit-bytes 1073741824", SSCHED_EXEC, unroll("fig6", "reduce", 1, 1));
    int ours = 0;
    for (const char *x = r.err; x && (x = strstr(x, "ssched-exec:")); x++)
        ours++;
    if (r.status != 1 || !strstr(r.err, "out of memory") || strstr(r.err, "returned"))
        fprintf(stderr, "\n  out of memory: status %d, err: %s", r.status, r.err);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(ours, 1);
    CU_ASSERT_PTR_NOT_NULL(r.err ? strstr(r.err, "out of memory") : NULL);
    CU_ASSERT_PTR_NULL(r.err ? strstr(r.err, "returned") : NULL);
    tu_run_free(&r);
#endif
}

/* SMPI with latencies (mpi_lat_prog_smpi, exact configuration): paced by
 * default, the simulated makespan is the schedule's (asked: 1 %; measured:
 * 1 + 4e-16 at worst), with batches and the router X without a rank (4
 * ranks).  As soon as possible instead (unit_seconds 0) the payloads are
 * still right, and the time is not the schedule's: 0.65-0.71 here (SMPI's
 * hosts are not one-port: R feeds A and B at once) up to 1.16-1.31 (the
 * transfers the schedule spreads over a latency share the link). */
static void test_smpi_latency(void)
{
#if defined(SSCHED_MPI_LAT_PROG_SMPI) && defined(SSCHED_SMPIRUN)
    const char *xml = tu_tmp_path("lat.xml"), *hosts = tu_tmp_path("lat.hosts");
    /* the last two: transfers of 7e-10 s, so paced events closer than
     * SimGrid's precision (1e-9 s); run_pace.c's now_paced says why this
     * spun (no end in 10 s here, none in 900 s for a 1 KB gossip on
     * tiers-small) until a fired timer counted as its time reached */
    const char *runs[][4] = {{"bcast", "40", "1", "1/10"}, {"bcast", "40", "4", "1/10"},
                             {"scatter", "20", "1", "1"}, {"scatter", "20", "5", "1/100"},
                             {"bcast", "20", "2", "1/100:7/10000000000"},
                             {"scatter", "20", "2", "1/100:7/10000000000"}};
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++)
        for (int asap = 0; asap < 2; asap++) {
            tu_run_t r;
            tu_sh(&r, SSCHED_MPIRUN " --allow-run-as-root -q -np 1 '%s' %s %s %s %s -1 '%s' '%s'",
                  SSCHED_MPI_LAT_PROG, runs[k][0], runs[k][1], runs[k][2], runs[k][3], xml, hosts);
            CU_ASSERT_EQUAL_FATAL(r.status, 0);
            tu_run_free(&r);
            tu_sh(&r, "timeout 300 " SSCHED_SMPIRUN " -np 4 -platform '%s' -hostfile '%s' "
                  "$(sh '%s/bench/smpi_exact.sh' --print-cfg B) --log=root.thres:warning '%s' "
                  "%s %s %s %s %s", xml, hosts, SSCHED_SOURCE_DIR, SSCHED_MPI_LAT_PROG_SMPI,
                  runs[k][0], runs[k][1], runs[k][2], runs[k][3], asap ? "0" : "-1");
            const char *m = r.out ? strstr(r.out, "ok ratio ") : NULL;
            double ratio = m ? atof(m + 9) : 0;
            int ok = asap ? ratio > 0 : ratio > 1 - 0.01 && ratio < 1 + 0.01;
            if (!ok || (!asap && (ratio < 1 - 1e-9 || ratio > 1 + 1e-9)))
                fprintf(stderr, "\n  smpi %s K %s batch %s lat %s %s: status %d ratio %.17g"
                        "\n%s\n%s",
                        runs[k][0], runs[k][1], runs[k][2], runs[k][3], asap ? "asap" : "paced",
                        r.status, ratio, r.out ? r.out : "", r.err ? r.err : "");
            CU_ASSERT(ok);
            tu_run_free(&r);
        }
#endif
}

/* ssched-exec-smpi warns (one line) outside the exact configuration; the
 * wrapper ssched-exec-smpirun adds it (the same options as
 * bench/smpi_exact.sh --print-cfg B) and finds the program by its path. */
static void test_smpi_config(void)
{
#if defined(SSCHED_EXEC_SMPI) && defined(SSCHED_SMPIRUN)
    const char *xml = tu_tmp_path("f6.xml"), *hosts = tu_tmp_path("f6.hosts");
    tu_run_t r;
    tu_run(&r, "export simgrid '%s/examples/fig6.graphml' -o '%s' --hostfile '%s'",
           SSCHED_SOURCE_DIR, xml, hosts);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    tu_run_free(&r);
    const char *path = unroll("fig6", "reduce", 7, 0);
    const char *wrapper = SSCHED_EXEC_SMPIRUN;
    tu_sh(&r, "'%s' --print-cfg; sh '%s/bench/smpi_exact.sh' --print-cfg B", wrapper,
          SSCHED_SOURCE_DIR);
    char *nl = r.out ? strchr(r.out, '\n') : NULL;
    CU_ASSERT(r.status == 0 && nl && !strncmp(r.out, nl + 1, (size_t)(nl - r.out)));
    tu_run_free(&r);
    for (int how = 0; how < 3; how++) { /* default cfg, exact cfg, wrapper */
        if (how < 2)
            tu_sh(&r, SSCHED_SMPIRUN " -np 3 -platform '%s' -hostfile '%s' %s "
                  "--log=root.thres:warning '%s' '%s' --json --verify", xml, hosts,
                  how ? "$(sh '" SSCHED_SOURCE_DIR "/bench/smpi_exact.sh' --print-cfg B)" : "",
                  SSCHED_EXEC_SMPI, path);
        else
            tu_sh(&r, "'%s' -np 3 -platform '%s' -hostfile '%s' --log=root.thres:warning '%s' "
                  "--json --verify", wrapper, xml, hosts, path);
        int warned = r.err && strstr(r.err, "warning: not SMPI's exact configuration");
        const char *m = r.out ? strstr(r.out, "\"ratio\": ") : NULL;
        double ratio = m ? atof(m + 9) : 0;
        int ok = r.status == 0 && strstr(r.out, "\"verified\": true") &&
                 (how ? !warned && ratio > 1 - 1e-9 && ratio < 1 + 1e-9 : warned);
        if (!ok)
            fprintf(stderr, "\n  smpi config %d: status %d ratio %.17g\n%s\n%s", how, r.status,
                    ratio, r.out ? r.out : "", r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
    }
#endif
}

int main(void)
{
    /* Open MPI under ASan: its own allocations are reported as leaks */
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    /* Open MPI's session directories in this suite's own scratch directory:
     * under the shared /tmp default, an mpirun of another process that
     * cleans up can remove the tree this one is creating (seen as
     * ORTE_ERROR_LOG in session_dir.c) */
    char ompi_tmp[512];
    snprintf(ompi_tmp, sizeof ompi_tmp, "%s", tu_tmp_path("ompi"));
    if (mkdir(ompi_tmp, 0700) == 0)
        setenv("OMPI_MCA_orte_tmpdir_base", ompi_tmp, 1);
    const tu_test_t tests[] = {
        {"fig2, fig6: every problem, K = 1, 7, 100, pieces and whole", test_exec_small},
        {"broadcast and multicast: fig6, tiers-small, K = 1, 7, 100", test_exec_broadcast},
        {"allreduce: fig6, tiers-small, K = 1, 7, 100, ordered and commutative",
         test_exec_allreduce},
        {"fig2: messages in pieces, K = 1, 7, 100", test_exec_pieces},
        {"tiers-small, 20 ranks (reduces in pieces)", test_exec_tiers},
        {"commutative reduces: fig6, tiers-small; a lost or repeated value is caught",
         test_exec_commutative},
        {"a node-to-rank map", test_exec_map},
        {"bad input: exit status 2, one line", test_exec_bad_input},
        {"a callback error stops every rank", test_exec_callback_error},
        {"no rank holds more buffers than the schedule", test_exec_buffers},
        {"plans shipped in chunks", test_exec_plan_chunks},
        {"library: in-memory setup, MPI_Op combine, errors", test_lib_mpi_op},
        {"SMPI makespan = the schedule's (1e-9)", test_smpi_makespan},
        {"latencies and batches (in memory): payloads under mpirun", test_exec_batches},
        {"hosts-only: one rank per node the schedule uses", test_exec_hosts_only},
        {"routed schedules of a SimGrid file: one rank per host", test_exec_routed},
        {"--json: measured time in the schedule's time unit", test_exec_json_units},
        {"a callback out of memory says so", test_exec_out_of_memory},
        {"SMPI with latencies and batches: paced = the schedule's", test_smpi_latency},
        {"SMPI: a warning outside the exact configuration; the wrapper", test_smpi_config},
        {NULL, NULL}};
    return tu_main("mpi_exec", tests);
}
