/* cmake --install puts the library, the headers, the CLI and ssched.pc in
 * place, and a program builds against them through pkg-config alone. */
#include <string.h>

#include "test_util.h"

#ifdef SSCHED_SANITIZED /* an instrumented libssched.a needs the runtimes */
#define EXTRA_FLAGS "-fsanitize=address,undefined"
#else
#define EXTRA_FLAGS ""
#endif

static void test_install_and_build(void)
{
    const char *prefix = tu_tmp_path("prefix");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "cmake --install '%s' --prefix '%s'", SSCHED_BUILD_DIR, prefix), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_sh(&r, "test -x '%s/bin/ssched' && test -f '%s/include/ssched/steady.h' && "
                              "test -f '%s/include/ssched/export.h'",
                          prefix, prefix, prefix), 0);
    tu_run_free(&r);
    /* the man page is installed and man(1) formats it without warnings */
    CU_ASSERT_EQUAL(tu_sh(&r, "f=$(find '%s' -name ssched.1) && test -n \"$f\" && "
                              "LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l \"$f\" 2>&1 >/dev/null",
                          prefix), 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    CU_ASSERT_STRING_EQUAL(r.out, "");
    tu_run_free(&r);
    const char *exe = tu_tmp_path("api_example");
    /* the installed .pc finds its prefix relative to itself */
    int st = tu_sh(&r, "pc=$(find '%s' -name ssched.pc | head -1); "
                       "PKG_CONFIG_PATH=$(dirname \"$pc\") && export PKG_CONFIG_PATH && "
                       "'%s' -std=c11 " EXTRA_FLAGS " '%s/examples/api_example.c' "
                       "$(pkg-config --cflags --libs --static ssched) -o '%s'",
                       prefix, SSCHED_C_COMPILER, SSCHED_SOURCE_DIR, exe);
    if (st != 0)
        fprintf(stderr, "\n%s\n", r.err);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    tu_run_free(&r);
    /* (the linker may have taken libssched.so: the program then finds it by
     * LD_LIBRARY_PATH, as an installed user's would by ld.so.conf) */
    CU_ASSERT_EQUAL(tu_sh(&r, "LD_LIBRARY_PATH=$(dirname $(find '%s' -name 'libssched.a' | head -1)) "
                              "'%s' '%s/examples/fig2.graphml' Ps",
                          prefix, exe, SSCHED_SOURCE_DIR), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/4"));
    tu_run_free(&r);
    /* the umbrella header alone gives the whole API, warning-free */
    const char *umbrella = tu_tmp_path("umbrella.c");
    CU_ASSERT_EQUAL_FATAL(
        tu_write_file(umbrella, "#include <ssched.h>\n"
                                "int main(void)\n{\n    ssched_platform_t p;\n"
                                "    ssched_platform_init(&p);\n"
                                "    ssched_write_platform_graphml(stdout, &p, NULL);\n"
                                "    ssched_platform_free(&p);\n"
                                "    ssched_report_options_t o;\n"
                                "    ssched_report_options_default(&o);\n    return 0;\n}\n"),
        0);
    st = tu_sh(&r, "pc=$(find '%s' -name ssched.pc | head -1); "
                   "PKG_CONFIG_PATH=$(dirname \"$pc\") && export PKG_CONFIG_PATH && "
                   "'%s' -std=c11 -Wall -Wextra -Werror " EXTRA_FLAGS " '%s' "
                   "$(pkg-config --cflags --libs --static ssched) -o '%s'",
               prefix, SSCHED_C_COMPILER, umbrella, tu_tmp_path("umbrella"));
    if (st != 0)
        fprintf(stderr, "\n%s\n", r.err);
    CU_ASSERT_EQUAL(st, 0);
    tu_run_free(&r);
}

/* A user's plain `pkg-config --libs ssched` (no --static) links against the
 * shared library, which exports the public API and nothing of the static
 * archives linked into it; ssched_mpi.pc names the MPI library. */
static void test_shared_library(void)
{
    const char *prefix = tu_tmp_path("prefix_shared");
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "cmake --install '%s' --prefix '%s'", SSCHED_BUILD_DIR, prefix), 0);
    tu_run_free(&r);
    const char *exe = tu_tmp_path("api_example_shared");
    int st = tu_sh(&r, "pc=$(find '%s' -name ssched.pc | head -1); "
                       "PKG_CONFIG_PATH=$(dirname \"$pc\") && export PKG_CONFIG_PATH && "
                       "'%s' -std=c11 " EXTRA_FLAGS " '%s/examples/api_example.c' "
                       "$(pkg-config --cflags --libs ssched) -o '%s'",
                       prefix, SSCHED_C_COMPILER, SSCHED_SOURCE_DIR, exe);
    if (st != 0)
        fprintf(stderr, "\n%s\n", r.err);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    tu_run_free(&r);
    /* it really is the shared library that the program loads */
    CU_ASSERT_EQUAL(tu_sh(&r, "lib=$(dirname $(find '%s' -name 'libssched.so' | head -1)); "
                              "LD_LIBRARY_PATH=\"$lib\" ldd '%s' | grep -q 'libssched.so' && "
                              "LD_LIBRARY_PATH=\"$lib\" '%s' '%s/examples/fig2.graphml' Ps",
                          prefix, exe, exe, SSCHED_SOURCE_DIR), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TP = 1/4"));
    tu_run_free(&r);
    /* every dynamic symbol the library defines is ssched_* (lp_solve's and
     * colamd's are hidden by --exclude-libs; the library's private ones by
     * visibility) */
    CU_ASSERT_EQUAL(tu_sh(&r, "nm -D --defined-only $(find '%s' -name 'libssched.so' | head -1) "
                              "| awk '$2 ~ /^[TDBR]$/ && $3 !~ /^ssched_/ && $3 !~ /^_/' | head -5",
                          prefix), 0);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    tu_run_free(&r);
    /* ssched_mpi.pc is installed when the MPI library is */
    CU_ASSERT_EQUAL(tu_sh(&r, "if find '%s' -name 'libssched_mpi.a' | grep -q .; then "
                              "pc=$(find '%s' -name ssched_mpi.pc | head -1); test -n \"$pc\" && "
                              "PKG_CONFIG_PATH=$(dirname \"$pc\") pkg-config --libs ssched_mpi "
                              "| grep -q -- '-lssched_mpi'; fi",
                          prefix, prefix), 0);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {{"install and build against ssched.pc", test_install_and_build},
                                      {"the shared library through pkg-config", test_shared_library},
                                      {NULL, NULL}};
    return tu_main("install", tests);
}
