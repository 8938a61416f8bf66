/* The optional "segments": p of an unrolled file (schedule/unroll_seg.c):
 * its "operations" K*p are the segments of K operations of the problem
 * the user gave, p consecutive ones per operation.  Each segment operation
 * is checked as any operation (every destination receives all of it, every
 * merge has whole inputs), so the K*p of them deliver the K operations
 * whole exactly when p divides "operations" and the operations are
 * element-wise (all-reduce, reduce, broadcast): what is checked here. */
#include "schedule/check_internal.h"

ssched_status_t ssched_i_chk_segments(chk_t *c, json_t *root, size_t K)
{
    json_t *sj = json_object_get(root, "segments");
    if (!sj)
        return SSCHED_OK;
    if (!json_is_integer(sj) || json_integer_value(sj) < 2)
        return ssched_i_chk_bad(c, "\"segments\" must be an integer >= 2");
    size_t p = (size_t)json_integer_value(sj);
    if (!c->reduce && !c->allreduce && !c->bcast)
        ssched_i_chk_violation(c, "\"segments\": only all-reduce, reduce and broadcast "
                               "operations are element-wise (cut into segments)");
    else if (K % p != 0)
        ssched_i_chk_violation(c, "\"segments\": %zu does not divide the %zu operations (each "
                               "operation is %zu consecutive segment operations)", p, K, p);
    return SSCHED_OK;
}
