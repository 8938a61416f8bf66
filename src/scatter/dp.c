/* Algorithm 1 of seed 004: the exact O(p n^2) dynamic program, on exactly
 * scaled integers (int64 when provably safe, mpz otherwise). */
#include <stdint.h>
#include <stdlib.h>

#include "src/scatter/internal.h"

#define SB_VAL_I64
#include "src/scatter/dp_values.h"
#include "src/scatter/dp_arrays.inc"
#include "src/scatter/dp_alg1.inc"
#undef SB_VAL_I64

#define SB_VAL_MPZ
#include "src/scatter/dp_values.h"
#include "src/scatter/dp_arrays.inc"
#include "src/scatter/dp_alg1.inc"
#undef SB_VAL_MPZ

ssched_status_t ssched_i_sb_dp_alg1(const ssched_sb_platform_t *inst, long n, ssched_sb_result_t *r,
                           ssched_error_t *err)
{
    return ssched_i_sb_dp_drive(inst, n, r, alg1_i64, alg1_mpz, NULL, err);
}

ssched_status_t ssched_i_sb_dp_alg1_limited(const ssched_sb_platform_t *inst, long n,
                                   ssched_sb_result_t *r, const ssched_sb_limits_t *lim,
                                   ssched_error_t *err)
{
    return ssched_i_sb_dp_drive(inst, n, r, alg1_i64, alg1_mpz, lim, err);
}
