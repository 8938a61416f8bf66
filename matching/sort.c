/* Stable merge sort of index arrays by exact (mpz) keys.
 *
 * qsort() has no context argument in C11 and is not stable; the decomposition
 * needs both (pairs ranked by weight with ties in a reproducible order, and
 * split points ordered along a step). */
#include <string.h>

#include "matching/internal.h"

static int before(const mpz_t *key, size_t a, size_t b, int descending)
{
    int c = mpz_cmp(key[a], key[b]);
    return descending ? c > 0 : c < 0;
}

/* Bottom-up merge sort: O(n log n) comparisons, no recursion.  Ties keep
 * their input order because the left run wins them. */
void ssched_i_mt_sort_by_mpz(size_t *idx, size_t n, const mpz_t *key, int descending, size_t *tmp)
{
    size_t *src = idx, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = before(key, src[j], src[i], descending) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        size_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != idx)
        memcpy(idx, src, n * sizeof *idx);
}
