/* The invariants of a loaded platform (ssched/platform.h), checked by the
 * platform readers' harnesses: unique non-empty names without control
 * characters, endpoints in range, no self-loop, c > 0, l >= 0, w > 0 where
 * present, adjacency lists consistent.  Any violation aborts. */
#ifndef SSCHED_FUZZ_PLATFORM_H
#define SSCHED_FUZZ_PLATFORM_H

#include <stdlib.h>
#include <string.h>

#include "ssched/platform.h"

static void fuzz_check_platform(const ssched_platform_t *p)
{
    for (size_t i = 0; i < p->n_nodes; i++) {
        if (!p->names[i] || !p->names[i][0])
            abort();
        for (size_t j = 0; j < i; j++)
            if (!strcmp(p->names[i], p->names[j]))
                abort();
        if (p->has_w[i] ? mpq_sgn(p->w[i]) <= 0 : mpq_sgn(p->w[i]) != 0)
            abort();
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        if (p->from[e] >= p->n_nodes || p->to[e] >= p->n_nodes || p->from[e] == p->to[e])
            abort();
        if (mpq_sgn(p->c[e]) <= 0 || mpq_sgn(p->l[e]) < 0)
            abort();
        if (ssched_platform_edge_index(p, p->from[e], p->to[e]) != e)
            abort();
    }
    if (p->n_nodes > 0 && (p->out_start[p->n_nodes] != p->n_edges ||
                           p->in_start[p->n_nodes] != p->n_edges))
        abort();
}

#endif
