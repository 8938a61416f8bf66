/* The baseline: MPI_Scatter's even distribution (section 2.2).  Seed 004
 * leaves the n mod p remaining items out; here the first n mod p processors
 * of the sending order take one more, as an MPI_Scatterv would. */
#include "src/scatter/internal.h"

ssched_status_t ssched_i_sb_uniform(const ssched_sb_platform_t *inst, long n, ssched_sb_result_t *r,
                           ssched_error_t *err)
{
    long p = (long)inst->p, q = n / p, rem = n % p;
    for (long i = 0; i < p; i++)
        r->items[i] = q + (i < rem);
    return ssched_i_sb_result_finish(inst, r, err);
}
