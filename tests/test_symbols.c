/* Symbol hygiene: every global symbol the libraries define starts with
 * ssched_ (public API ssched_<stage>_..., private cross-file names
 * ssched_i_..., as igraph's igraph_i_), so linking ssched into a program
 * never clashes with its names or with jansson's json_* namespace.  The
 * private names are moreover hidden (SSCHED_INTERNAL), so a shared object
 * built from libssched.a does not export them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* The output of a shell script run with $a = the archive's path; NULL if
 * the script failed. */
static char *archive_query(const char *archive, const char *script)
{
    tu_run_t r;
    int st = tu_sh(&r, "a='%s'; %s", archive, script);
    char *out = st == 0 && r.out ? strdup(r.out) : NULL;
    tu_run_free(&r);
    return out;
}

/* The defined global names of an archive not starting with ssched_, one
 * per line ("" when there is none); NULL if nm failed.  DW.ref.* are the
 * hidden COMDAT personality references g++ emits for a try block in PIC
 * code (src/platform/simgrid_child.cpp): no name a program can clash with.
 * Nor are the weak (vague-linkage) copies of the C++ standard library's
 * inline functions that an unoptimised build of that file keeps
 * (std::exception's constructors): every copy is the same definition. */
static char *foreign_symbols(const char *archive)
{
    return archive_query(archive, "test -f \"$a\" && nm -g --defined-only \"$a\" | "
                                  "awk 'NF == 3 && $2 ~ /[TDBRCVW]/ && "
                                  "!($2 ~ /[VW]/ && $3 ~ /^_Z(N|NK|TV|TI|TS)?St/) {print $3}' | "
                                  "sort -u | "
                                  "grep -v '^ssched_' | grep -v '^DW\\.ref\\.' || true");
}

/* The defined GLOBAL symbols of an archive whose visibility contradicts
 * their name, one per line ("" when there is none; NULL if readelf failed):
 * a private ssched_i_ name that is not HIDDEN (SSCHED_INTERNAL missing on
 * its declaration, src/util/internal.h), or a public ssched_ name that is. */
static char *misplaced_visibility(const char *archive)
{
    return archive_query(archive, "readelf -sW \"$a\" > /dev/null && readelf -sW \"$a\" | "
                                  "awk '$5 == \"GLOBAL\" && $7 != \"UND\" && $8 ~ /^ssched_/ && "
                                  "(($8 ~ /^ssched_i_/) != ($6 == \"HIDDEN\")) "
                                  "{print $8 \" (\" $6 \")\"}' | sort -u");
}

/* Path of libs[k] in the build tree, 0 if it was not built (only the MPI
 * library may be missing: it needs MPI). */
static const char *const libs[] = {"libssched.a", "libssched_mpi.a"};

static int lib_path(size_t k, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", SSCHED_BUILD_DIR, libs[k]);
    tu_run_t r;
    int exists = tu_sh(&r, "test -f '%s'", path) == 0;
    tu_run_free(&r);
    if (k == 0)
        CU_ASSERT_FATAL(exists);
    return exists;
}

/* Run query on every built library; fail, printing `complaint` and what it
 * found, unless it finds nothing. */
static void check_libraries(char *(*query)(const char *archive), const char *complaint)
{
    for (size_t k = 0; k < sizeof libs / sizeof *libs; k++) {
        char path[1024];
        if (!lib_path(k, path, sizeof path))
            continue;
        char *found = query(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(found);
        if (*found)
            fprintf(stderr, "\n  %s: %s:\n%.2000s\n", libs[k], complaint, found);
        CU_ASSERT_STRING_EQUAL(found, "");
        free(found);
    }
}

static void test_library_symbols(void)
{
    check_libraries(foreign_symbols, "exports names without the ssched_ prefix");
}

/* The defined public (ssched_, not ssched_i_) names of an archive that no
 * installed header (include/ssched.h or one under include/ssched/) declares: a
 * cross-file helper that should be ssched_i_, or a function missing from
 * the API's documentation. */
static char *undeclared_public(const char *archive)
{
    char script[2048];
    snprintf(script, sizeof script,
             "test -f \"$a\" && nm -g --defined-only \"$a\" | "
             "awk 'NF == 3 && $2 ~ /[TDBRCVW]/ && $3 ~ /^ssched_/ && $3 !~ /^ssched_i_/ "
             "{print $3}' | sort -u | while read s; do "
             "grep -qw \"$s\" '%s'/include/ssched.h '%s'/include/ssched/*.h || echo \"$s\"; done",
             SSCHED_SOURCE_DIR, SSCHED_SOURCE_DIR);
    return archive_query(archive, script);
}

static void test_public_symbols_declared(void)
{
    check_libraries(undeclared_public, "public names no installed header declares");
}

static void test_private_symbols_hidden(void)
{
    check_libraries(misplaced_visibility, "ssched_i_ names must be hidden, public names not");
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"every global symbol starts with ssched_", test_library_symbols},
        {"ssched_i_ symbols are hidden, public ones are not", test_private_symbols_hidden},
        {"every public symbol is declared in an installed header", test_public_symbols_declared},
        {NULL, NULL}};
    return tu_main("symbols", tests);
}
