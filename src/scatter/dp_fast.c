/* Algorithm 2 of seed 004: the optimized dynamic program (nondecreasing
 * costs), on exactly scaled integers like Algorithm 1. */
#include <stdint.h>
#include <stdlib.h>

#include "src/scatter/internal.h"

#define SB_VAL_I64
#include "src/scatter/dp_values.h"
#include "src/scatter/dp_arrays.inc"
#include "src/scatter/dp_alg2.inc"
#undef SB_VAL_I64

#define SB_VAL_MPZ
#include "src/scatter/dp_values.h"
#include "src/scatter/dp_arrays.inc"
#include "src/scatter/dp_alg2.inc"
#undef SB_VAL_MPZ

ssched_status_t ssched_i_sb_dp_alg2(const ssched_sb_platform_t *inst, long n, ssched_sb_result_t *r,
                           ssched_error_t *err)
{
    return ssched_i_sb_dp_drive(inst, n, r, alg2_i64, alg2_mpz, NULL, err);
}

ssched_status_t ssched_i_sb_dp_alg2_limited(const ssched_sb_platform_t *inst, long n,
                                   ssched_sb_result_t *r, const ssched_sb_limits_t *lim,
                                   ssched_error_t *err)
{
    return ssched_i_sb_dp_drive(inst, n, r, alg2_i64, alg2_mpz, lim, err);
}
