/* The communication pattern of cyclic(x) -> cyclic(Kx) on P processors
 * (seed 003 §2, Fig. 1-2).
 *
 * Block i (x elements) starts on processor i mod P and ends inside block
 * floor(i/K) of size Kx, which lives on processor floor(i/K) mod P.  The pair
 * (i mod P, floor(i/K) mod P) is periodic in i with period K·P (after K·P
 * blocks both the source and the destination have wrapped around), so one
 * period is enumerated and multiplied: O(min(N/x, K·P)) instead of O(N). */
#include <string.h>

#include "src/redistribution/internal.h"

ssched_status_t ssched_redist_pattern(size_t P, size_t K, size_t N, size_t x,
                                      size_t *sizes, ssched_error_t *err)
{
    if (P < 1 || P > SSCHED_REDIST_MAX_P)
        return ssched_error_set(err, SSCHED_EINPUT, "P = %zu is not in [1, %d]", P,
                                SSCHED_REDIST_MAX_P);
    if (K < 1 || K > SSCHED_REDIST_MAX_K)
        return ssched_error_set(err, SSCHED_EINPUT, "K = %zu is not in [1, %d]", K,
                                SSCHED_REDIST_MAX_K);
    if (x < 1)
        return ssched_error_set(err, SSCHED_EINPUT, "block size x must be at least 1");
    if (N < 1 || N % x != 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "N = %zu is not a positive multiple of x = %zu: the blocks "
                                "must cover the array exactly",
                                N, x);
    size_t blocks = N / x, period = (unsigned long)K * P;
    size_t q = blocks / period, rem = blocks % period;
    size_t lim = blocks < period ? blocks : period;
    memset(sizes, 0, P * P * sizeof *sizes);
    for (size_t i = 0; i < lim; i++) {
        size_t s = (size_t)(i % P), d = (size_t)((i / K) % P);
        sizes[s * P + d] += x * (q + (i < rem ? 1 : 0));
    }
    return SSCHED_OK;
}
