/* The CLI under valgrind: no invalid access and no leak on the main paths
 * (solve, schedule, unrolled schedule, check, bad input).  Skipped in the
 * sanitizer build, where ASan/LSan watch the same paths. */
#include <string.h>

#include "test_util.h"

#define VG "valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "

#ifndef SSCHED_SANITIZED
static void run_clean(const char *args, int expected)
{
    tu_run_t r;
    int st = tu_sh(&r, VG "'%s' %s", SSCHED_BIN, args);
    if (st != expected)
        fprintf(stderr, "\n  valgrind %s -> %d\n%s\n", args, st, r.err);
    CU_ASSERT_EQUAL(st, expected);
    tu_run_free(&r);
}
#endif

static void test_cli_paths(void)
{
#ifdef SSCHED_SANITIZED
    fputs("(sanitizer build: valgrind checks skipped) ", stderr);
    return;
#else
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "command -v valgrind"), 0);
    tu_run_free(&r);
    const char *ex = SSCHED_SOURCE_DIR "/examples";
    char args[1024];
    const char *out = tu_tmp_path("vg.json");
    snprintf(args, sizeof args, "solve %s/fig2.graphml --problem scatter --source Ps --targets P0,P1 --json", ex);
    run_clean(args, 0);
    snprintf(args, sizeof args, "schedule %s/fig2.graphml --problem scatter --source Ps --targets P0,P1 "
             "--no-split -o %s --gantt /dev/null --dot /dev/null", ex, out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "check %s", out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "schedule %s/fig6.graphml --problem reduce --participants P0,P1,P2 "
             "--target P0 --fixed-period 7/2 --trees-dot /dev/null -o %s", ex, out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "schedule %s/fig6.graphml --problem reduce --participants P0,P1,P2 "
             "--target P0 --operations 20 --unroll -o %s", ex, out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "check %s", out);
    run_clean(args, 0);
    /* pieces of messages (period 1/TP), whole messages on routes, switches */
    snprintf(args, sizeof args, "schedule %s/fig2.graphml --problem scatter --source Ps --targets P0,P1 "
             "--fixed-period 2 --operations 12 --unroll -o %s", ex, out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "check %s", out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "schedule %s/fig6.graphml --problem gossip --sources P0,P1 --targets P1,P2 "
             "--operations 9 --unroll --no-split -o %s", ex, out);
    run_clean(args, 0);
    snprintf(args, sizeof args, "schedule %s/tiers-small.graphml --problem scatter --source h0_0_0_0 "
             "--targets h0_0_0_1,h1_0_0_0,h1_0_1_2 --routers switch --operations 5 --unroll -o %s",
             ex, out);
    run_clean(args, 0);
    run_clean("compare --times 1,2,3,5,8 --root 0 --ops 1,10", 0);
    snprintf(args, sizeof args, "solve %s/fig6.graphml --problem gossip --sources P0,P1 --targets P1,P2", ex);
    run_clean(args, 0);
    snprintf(args, sizeof args, "solve %s/fig2.graphml --problem scatter --source Ps --targets P0,nope", ex);
    run_clean(args, 2);
    run_clean("solve /nonexistent.graphml --problem scatter --source a --targets b", 2);
    snprintf(args, sizeof args, "lp %s/fig6.graphml --problem reduce --participants P0,P1,P2 --target P0 -o %s.lp", ex, out);
    run_clean(args, 0);
#endif
}

int main(void)
{
    static const tu_test_t tests[] = {{"CLI paths are valgrind-clean", test_cli_paths}, {NULL, NULL}};
    return tu_main("valgrind", tests);
}
