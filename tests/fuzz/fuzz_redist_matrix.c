/* libFuzzer harness: the redistribution bandwidth-matrix reader
 * (ssched_redist_network_read, behind `ssched redistribute --matrix`).
 *
 * Input: the first byte chooses P ('1'..'9' mean 1..9, so seed files stay
 * readable text; any other byte b means b % 16 + 1), the rest is the matrix
 * text.  Properties: no crash, leak or UB; OK or EINPUT with a message; on
 * success r.P == P, off-diagonal bandwidths > 0 and the diagonal >= 0, and
 * building a small redistribution on that network works; on failure r is
 * left empty. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/redistribution.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 64 * 1024)
        return 0;
    size_t P = data[0] >= '1' && data[0] <= '9' ? (size_t)(data[0] - '0') : (size_t)(data[0] % 16) + 1;
    FILE *in = fmemopen((void *)(data + 1), size - 1, "r");
    if (!in)
        abort();
    ssched_redist_t r;
    ssched_redist_init(&r);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_redist_network_read(&r, P, in, "fuzz.txt", &err);
    fclose(in);
    if (st == SSCHED_OK) {
        if (r.P != P || !r.bandwidth)
            abort();
        for (size_t i = 0; i < P; i++)
            for (size_t j = 0; j < P; j++)
                if (i == j ? mpq_sgn(r.bandwidth[i * P + j]) < 0
                           : mpq_sgn(r.bandwidth[i * P + j]) <= 0)
                    abort();
        mpq_t startup;
        mpq_init(startup);
        /* cyclic(1) -> cyclic(2) of 2P elements: every message is tiny */
        if (ssched_redist_build(&r, 2, 2 * (unsigned long)P, 1, startup, &err) != SSCHED_OK)
            abort();
        mpq_clear(startup);
    } else if (st != SSCHED_EINPUT || err.message[0] == '\0' || r.bandwidth != NULL) {
        abort();
    }
    ssched_redist_free(&r);
    return 0;
}
