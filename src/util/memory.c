/* GMP allocation policy (see ssched_gmp_exit_on_oom in error.h).
 *
 * GMP has no way to report an allocation failure to its caller: its default
 * functions print a message and abort(), which ends the process with
 * SIGABRT.  Unwinding out of a GMP call with longjmp would leave the
 * library's own objects half-built, so ssched does not do that and never
 * replaces GMP's functions behind an application's back.  A program (the
 * ssched CLI does) may instead opt in to functions that end the process
 * cleanly: one line "PREFIX: out of memory" on stderr and exit status 1. */
#include "ssched/error.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

static const char *oom_prefix = "ssched";

static void oom_exit(void)
{
    fprintf(stderr, "%s: out of memory\n", oom_prefix);
    fflush(stderr);
    exit(1);
}

static void *gmp_alloc(size_t size)
{
    void *p = malloc(size);
    if (!p && size)
        oom_exit();
    return p;
}

static void *gmp_realloc(void *old, size_t old_size, size_t new_size)
{
    (void)old_size;
    void *p = realloc(old, new_size);
    if (!p && new_size)
        oom_exit();
    return p;
}

static void gmp_free(void *p, size_t size)
{
    (void)size;
    free(p);
}

void ssched_gmp_exit_on_oom(const char *prefix)
{
    if (prefix)
        oom_prefix = prefix;
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}
