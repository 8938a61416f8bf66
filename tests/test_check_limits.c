/* The checker's readers at scale (issue 24, item 4): a periodic schedule
 * too large for the memory allowed ends in "out of memory", exit 1, not in
 * a JSON syntax error; an unrolled file stating 10^9 operations is refused
 * up front by one rule for every kind (exit 2 naming the bound) or checked
 * without running out of memory, never "out of memory" for a file of a few
 * kilobytes.  The memory limit is a `ulimit -v` in a child shell (not
 * under the sanitizers, which reserve far more address space). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define TIERS SSCHED_SOURCE_DIR "/examples/tiers-small.graphml"
#define HOSTS3 "h0_0_0_0,h0_0_1_0,h1_0_0_1"

static void test_periodic_out_of_memory(void)
{
#ifdef SSCHED_SANITIZED
    return;
#else
    /* about 28 MB of slots: some 400 MB once parsed, above the limit */
    const char *path = tu_tmp_path("big.json");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("{\"format\": \"ssched-schedule/1\", \"slots\": [{\"start\": \"0\", \"end\": \"1\", "
          "\"transfers\": [", f);
    for (int k = 0; k < 400000; k++)
        fprintf(f, "%s{\"from\": \"a\", \"to\": \"b\", \"origin\": \"a\", \"dest\": \"b\", "
                   "\"amount\": \"1\"}", k ? ", " : "");
    fputs("]}]}", f);
    CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
    tu_run_t r;
    tu_sh(&r, "ulimit -v 250000 && '%s' check '%s'", SSCHED_BIN, path);
    if (r.status != 1 || !strstr(r.err, "out of memory"))
        fprintf(stderr, "\n  exit %d: %s\n", r.status, r.err);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "out of memory"));
    CU_ASSERT_PTR_NULL(strstr(r.err, "JSON"));
    tu_run_free(&r);
#endif
}

static void test_operations_bound(void)
{
    static const char *const kinds[] = {
        "--problem broadcast --source h0_0_0_0",
        "--problem broadcast --source h0_0_0_0 --targets h0_0_1_0,h1_0_0_0",
        "--problem reduce --participants " HOSTS3 " --target h0_0_0_1",
        "--problem reduce --commutative --participants " HOSTS3 " --target h0_0_0_1",
        "--problem allreduce --participants " HOSTS3 " --root h0_0_0_1",
        "--problem scatter --source h0_0_0_0 --targets h0_0_1_0,h1_0_0_0",
        "--problem gossip --sources h0_0_0_0,h1_0_0_0 --targets h0_0_1_1,h1_0_1_1"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        const char *path = tu_tmp_path("ops.json");
        tu_run_t r;
        CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' %s --operations 3 --unroll --quiet -o '%s'",
                                     TIERS, kinds[k], path), 0);
        tu_run_free(&r);
        json_t *root = json_load_file(path, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(root);
        json_object_set_new(root, "operations", json_integer(1000000000));
        CU_ASSERT_EQUAL_FATAL(json_dump_file(root, path, 0), 0);
        json_decref(root);
        int per_op = k < 5; /* broadcast, reduce, all-reduce keep state per operation */
#ifdef SSCHED_SANITIZED
        tu_run(&r, "check '%s'", path);
#else
        tu_sh(&r, "ulimit -v 1000000 && '%s' check '%s'", SSCHED_BIN, path);
#endif
        if (per_op ? r.status != 2 : r.status != 1)
            fprintf(stderr, "\n  %s: exit %d: %s%s\n", kinds[k], r.status, r.out, r.err);
        CU_ASSERT_PTR_NULL(strstr(r.err, "out of memory"));
        if (per_op) {
            CU_ASSERT_EQUAL(r.status, 2);
            CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "too many operations to check (1000000000; at most"));
        } else { /* checked: the events miss most operations */
            CU_ASSERT_EQUAL(r.status, 1);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "INVALID"));
        }
        tu_run_free(&r);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"a periodic file beyond the memory limit: out of memory, exit 1",
         test_periodic_out_of_memory},
        {"10^9 operations: one rule for every kind, never out of memory",
         test_operations_bound},
        {NULL, NULL}};
    return tu_main("checker limits", tests);
}
