/* Cancelling flow cycles of one message type (platform.h).
 *
 * An optimal LP vertex may route part of a type around a cycle through
 * relays: conservation holds, nothing is delivered, port time is wasted.
 * Removing such circulations keeps every constraint (ports only get less
 * busy) and the throughput, gives unrolled schedules a flow in which every
 * message progresses, and makes reduction-tree extraction terminate. */
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/platform.h"

/* Find a directed cycle among edges with flow[e] > 0 (iterative DFS with
 * colours).  On success the cycle's edges are written to cyc and its length
 * returned; 0 if the positive-flow subgraph is acyclic; -1 on ENOMEM. */
static long find_cycle(const ssched_platform_t *p, mpq_t *flow, size_t *cyc)
{
    size_t n = p->n_nodes;
    unsigned char *colour = ssched_i_calloc(n, 1); /* 0 new, 1 on stack, 2 done */
    size_t *via = ssched_i_alloc(n, sizeof *via);   /* edge used to enter  */
    size_t *next = ssched_i_alloc(n, sizeof *next); /* adjacency cursor    */
    size_t *stack = ssched_i_alloc(n, sizeof *stack);
    long len = -1;
    if (!colour || !via || !next || !stack)
        goto out;
    len = 0;
    for (size_t root = 0; root < n && len == 0; root++) {
        if (colour[root])
            continue;
        size_t top = 0;
        stack[top++] = root;
        colour[root] = 1;
        next[root] = p->out_start[root];
        while (top && len == 0) {
            size_t u = stack[top - 1];
            if (next[u] == p->out_start[u + 1]) {
                colour[u] = 2;
                top--;
                continue;
            }
            size_t e = p->out_list[next[u]++];
            if (mpq_sgn(flow[e]) <= 0)
                continue;
            size_t v = p->to[e];
            if (colour[v] == 1) {
                /* cycle: v -> ... -> u -> v, read back through `via` */
                cyc[len++] = e;
                for (size_t w = u; w != v; w = p->from[via[w]])
                    cyc[len++] = via[w];
            } else if (colour[v] == 0) {
                colour[v] = 1;
                via[v] = e;
                next[v] = p->out_start[v];
                stack[top++] = v;
            }
        }
    }
out:
    free(colour);
    free(via);
    free(next);
    free(stack);
    return len;
}

int ssched_platform_cancel_cycles(const ssched_platform_t *p, mpq_t *flow)
{
    size_t *cyc = ssched_i_alloc(p->n_nodes, sizeof *cyc);
    if (!cyc)
        return 0;
    mpq_t m;
    mpq_init(m);
    long len;
    /* Each round zeroes at least one edge, so at most |E| rounds. */
    while ((len = find_cycle(p, flow, cyc)) > 0) {
        mpq_set(m, flow[cyc[0]]);
        for (long k = 1; k < len; k++)
            if (mpq_cmp(flow[cyc[k]], m) < 0)
                mpq_set(m, flow[cyc[k]]);
        for (long k = 0; k < len; k++)
            mpq_sub(flow[cyc[k]], flow[cyc[k]], m);
    }
    mpq_clear(m);
    free(cyc);
    return len == 0;
}
