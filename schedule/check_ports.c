/* Checker: who is busy in an unrolled file whose transfers come in start
 * order.  One-port at hosts (a node's sends never overlap, nor its
 * receives); at a switch ("ports": "multi") each incident link is the
 * resource instead.  Since starts never decrease, the last end per port
 * (per link) is all that must be remembered. */
#include <stdlib.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

int ssched_i_chk_ports_init(chk_ports_t *P, size_t n_nodes, size_t n_edges)
{
    P->n_nodes = n_nodes;
    P->n_edges = n_edges;
    P->send_end = ssched_i_alloc(n_nodes, sizeof *P->send_end);
    P->recv_end = ssched_i_alloc(n_nodes, sizeof *P->recv_end);
    P->link_end = ssched_i_alloc(n_edges, sizeof *P->link_end);
    P->sent = ssched_i_calloc(n_nodes, 1);
    P->received = ssched_i_calloc(n_nodes, 1);
    P->link_used = ssched_i_calloc(n_edges, 1);
    if (!P->send_end || !P->recv_end || !P->link_end || !P->sent || !P->received ||
        !P->link_used) {
        free(P->send_end); free(P->recv_end); free(P->link_end);
        free(P->sent); free(P->received); free(P->link_used);
        P->send_end = P->recv_end = P->link_end = NULL;
        P->sent = P->received = P->link_used = NULL;
        return 0;
    }
    for (size_t i = 0; i < n_nodes; i++)
        mpq_inits(P->send_end[i], P->recv_end[i], NULL);
    for (size_t e = 0; e < n_edges; e++)
        mpq_init(P->link_end[e]);
    return 1;
}

void ssched_i_chk_ports_free(chk_ports_t *P)
{
    if (!P->send_end)
        return;
    for (size_t i = 0; i < P->n_nodes; i++)
        mpq_clears(P->send_end[i], P->recv_end[i], NULL);
    for (size_t e = 0; e < P->n_edges; e++)
        mpq_clear(P->link_end[e]);
    free(P->send_end); free(P->recv_end); free(P->link_end);
    free(P->sent); free(P->received); free(P->link_used);
    P->send_end = NULL;
}

int ssched_i_chk_ports_take(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start, const mpq_t end,
                   const char *where)
{
    size_t i = c->from[edge], j = c->to[edge];
    int si = chk_multi(c, i), sj = chk_multi(c, j);
    if (!si && P->sent[i] && mpq_cmp(start, P->send_end[i]) < 0)
        return ssched_i_chk_violation(c, "node %s sends two messages at once (%s overlaps an earlier one)",
                             c->names[i], where);
    if (!sj && P->received[j] && mpq_cmp(start, P->recv_end[j]) < 0)
        return ssched_i_chk_violation(c, "node %s receives two messages at once (%s overlaps an earlier "
                             "one)", c->names[j], where);
    if ((si || sj) && P->link_used[edge] && mpq_cmp(start, P->link_end[edge]) < 0)
        return ssched_i_chk_violation(c, "link %s->%s carries two messages at once (%s overlaps an "
                             "earlier one)", c->names[i], c->names[j], where);
    if (!si) {
        P->sent[i] = 1;
        mpq_set(P->send_end[i], end);
    }
    if (!sj) {
        P->received[j] = 1;
        mpq_set(P->recv_end[j], end);
    }
    if (si || sj) {
        P->link_used[edge] = 1;
        mpq_set(P->link_end[edge], end);
    }
    return 1;
}
