/* Checker: an unrolled all-reduce ("ssched-unrolled/2", problem kind
 * "allreduce"), independent of the generator.
 *
 * The file is read by the unrolled reduce checker (check_unrolled_reduce.c:
 * one stream of transfers and computations in start order, one-port per
 * host, per link at a switch, one task at a time per processor, across
 * every event), which simulates the reduce values to the root R exactly as
 * for a reduce to R and hands each copy ("copy": true) here.  A copy is a
 * whole message; a copy of operation t may leave R only once R holds t's
 * complete result (every participant exactly once, in order unless the
 * operator is commutative) by the copy's start; from there the copies are
 * followed by the broadcast simulation (check_unrolled_broadcast.c): a
 * copy leaves any other node only after it fully arrived there, no node
 * receives t twice (R none at all), and at the end every participant but
 * R has every result.  Buffers: the reduce values as for a reduce to R,
 * plus a copy held at a node that forwards it from the start of its
 * arrival to the end of its last forward (as for a broadcast), in one
 * figure (a deferred buffer, check_buffer.c). */
#include "schedule/check_internal.h"

ssched_status_t ssched_i_chk_allreduce_copy(chk_t *c, chk_bsim_t *copies, size_t edge, size_t op,
                                   const mpq_t off, const mpq_t len, const mpq_t start,
                                   const mpq_t end, const char *root_value, const char *where)
{
    if (mpq_sgn(off) != 0 || mpq_cmp_ui(len, 1, 1) != 0)
        return ssched_i_chk_violation(c, "%s: a copy of the result moves a whole message", where),
               SSCHED_OK;
    if (c->from[edge] == c->target) {
        if (!root_value)
            return ssched_i_chk_violation(c, "%s: a copy of operation %zu leaves the root %s before its "
                                 "reduce result is complete there", where, op,
                                 c->names[c->target]), SSCHED_OK;
        int ok = ssched_i_chk_reduce_result_ok(c, root_value, op);
        if (ok < 0)
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        if (!ok)
            return ssched_i_chk_violation(c, "%s: the root's result of operation %zu is not the "
                                 "reduction of every participant", where, op), SSCHED_OK;
    }
    return ssched_i_chk_bsim_move(c, copies, edge, op, start, end, where);
}
