/* Reduction trees to explicit reduce schedules: start times and the
 * destination assignment of seed 000 Lemma 1. */
#include <stdlib.h>

#include "src/makespan/mk_internal.h"

/* See mk_internal.h.  Why the receivers are valid (Lemma 1): a node starts
 * only after both children ended; giving the children the node's sender
 * and receiver as destinations makes each processor's activities a chain
 * (receive, receive, ..., send) along one path of the tree, so no
 * processor is in two overlapping transfers, and every processor has
 * received all its data when it sends.  The tree being rooted at the
 * destination, everything reaches it. */
ssched_status_t ssched_i_mk_reduce_from_tree(const ssched_mk_cluster_t *c, size_t dest, size_t m,
                                    const size_t *sender, const long *kid0, const long *kid1,
                                    mpq_t *start, ssched_mk_schedule_t *out, ssched_error_t *err)
{
    if (m + 1 != c->n)
        return ssched_error_set(err, SSCHED_EINTERNAL, "reduction tree has %zu nodes for %zu processors",
                                m, c->n);
    ssched_status_t st = ssched_mk_schedule_alloc(out, SSCHED_MK_REDUCE, c->n, dest, m, err);
    if (st != SSCHED_OK || m == 0)
        return st;
    size_t *recv = malloc(m * sizeof *recv);
    if (!recv)
        return ssched_i_mk_nomem(err);
    /* Times bottom-up: children have smaller indices. */
    for (size_t v = 0; v < m; v++) {
        ssched_mk_message_t *msg = &out->msg[v];
        long kids[2] = {kid0[v], kid1[v]};
        mpq_set_ui(msg->start, 0, 1);
        for (int j = 0; j < 2; j++) {
            if (kids[j] < 0)
                continue;
            if ((size_t)kids[j] >= v) {
                free(recv);
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "reduction tree: child %ld of node %zu is not earlier",
                                        kids[j], v);
            }
            if (!start && mpq_cmp(out->msg[kids[j]].end, msg->start) > 0)
                mpq_set(msg->start, out->msg[kids[j]].end);
        }
        if (start)
            mpq_set(msg->start, start[v]);
        mpq_add(msg->end, msg->start, c->time[sender[v]]);
        msg->sender = sender[v];
    }
    /* Receivers top-down (Lemma 1): parents have larger indices. */
    recv[m - 1] = dest;
    for (size_t v = m; v-- > 0;) {
        long a = kid0[v], b = kid1[v];
        if (a < 0) { /* a lone child takes the sender's role */
            a = b;
            b = -1;
        }
        if (a >= 0)
            recv[a] = sender[v];
        if (b >= 0)
            recv[b] = recv[v];
    }
    for (size_t v = 0; v < m; v++)
        out->msg[v].receiver = recv[v];
    free(recv);
    mpq_set(out->makespan, out->msg[m - 1].end);
    mpq_set(out->reduce_makespan, out->makespan);
    ssched_i_mk_sort_messages(out);
    return SSCHED_OK;
}
