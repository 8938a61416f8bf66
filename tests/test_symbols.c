/* Symbol hygiene: every global symbol the libraries define starts with
 * ssched_ (public API ssched_<stage>_..., private cross-file names
 * ssched_i_..., as igraph's igraph_i_), so linking ssched into a program
 * never clashes with its names or with jansson's json_* namespace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* The defined global names of an archive not starting with ssched_, one
 * per line ("" when there is none); NULL if nm failed. */
static char *foreign_symbols(const char *archive)
{
    tu_run_t r;
    int st = tu_sh(&r, "test -f '%s' && nm -g --defined-only '%s' | "
                       "awk 'NF == 3 && $2 ~ /[TDBRCVW]/ {print $3}' | sort -u | "
                       "grep -v '^ssched_' || true",
                   archive, archive);
    char *out = st == 0 && r.out ? strdup(r.out) : NULL;
    tu_run_free(&r);
    return out;
}

static void test_library_symbols(void)
{
    static const char *const libs[] = {"libssched.a", "libssched_mpi.a"};
    for (size_t k = 0; k < sizeof libs / sizeof *libs; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SSCHED_BUILD_DIR, libs[k]);
        tu_run_t r;
        int exists = tu_sh(&r, "test -f '%s'", path) == 0;
        tu_run_free(&r);
        if (!exists && k > 0)
            continue; /* libssched_mpi is built only with MPI */
        CU_ASSERT_FATAL(exists);
        char *foreign = foreign_symbols(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(foreign);
        if (*foreign)
            fprintf(stderr, "\n  %s exports names without the ssched_ prefix:\n%.2000s\n",
                    libs[k], foreign);
        CU_ASSERT_STRING_EQUAL(foreign, "");
        free(foreign);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {{"every global symbol starts with ssched_", test_library_symbols},
                                      {NULL, NULL}};
    return tu_main("symbols", tests);
}
