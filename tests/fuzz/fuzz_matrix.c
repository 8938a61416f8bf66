/* libFuzzer harness: the measured-matrix platform reader (ssched_platform_load
 * with format MATRIX: rows FROM,TO,BANDWIDTH,LATENCY or the square form,
 * SimGrid's units, exact).  Each input is written to a private temporary
 * file first.
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
    return fuzz_load_as(data, size, SSCHED_PLATFORM_MATRIX);
}
