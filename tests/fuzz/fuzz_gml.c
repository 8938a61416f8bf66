/* libFuzzer harness: the GML platform reader (ssched_platform_load with
 * format GML: igraph's GML parser, then ssched's attribute reading).  Each
 * input is written to a private temporary file first.
 *
 * Properties: no crash, leak or UB; the status is OK or EINPUT with a
 * one-line message; a loaded platform satisfies platform.h's invariants
 * (fuzz_platform.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ssched/platform.h"
#include "fuzz_platform.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_tmp_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    fuzz_write_tmp(data, size);

    ssched_platform_read_options_t opt;
    ssched_platform_read_options_default(&opt);
    opt.format = SSCHED_PLATFORM_GML;
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_platform_load(&p, fuzz_tmp_path, &opt, &err);
    if (st == SSCHED_OK)
        fuzz_check_platform(&p);
    else if (st != SSCHED_EINPUT || err.message[0] == '\0' || strchr(err.message, '\n'))
        abort();
    ssched_platform_free(&p);
    return 0;
}
