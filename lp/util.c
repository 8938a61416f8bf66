/* Small helpers shared by the lp/ files. */
#include <stdio.h>
#include <stdlib.h>

#include <lpsolve/lp_lib.h>

#include "lp/internal.h"
#include "ssched/steady.h"

int ssched_i_lp_flow_by_edge_then_type(const void *a, const void *b)
{
    const ssched_flow_t *x = a, *y = b;
    if (x->edge != y->edge)
        return x->edge < y->edge ? -1 : 1;
    return x->type < y->type ? -1 : x->type > y->type;
}

void ssched_i_lp_log(struct _lprec *lp, int verbose)
{
    set_verbose(lp, verbose ? NORMAL : NEUTRAL);
    if (verbose)
        set_outputstream(lp, stderr);
}

int ssched_i_steady_resources(ssched_steady_t *out, size_t n, size_t ne)
{
    out->n_nodes = n;
    out->n_edges = ne;
    out->out_busy = ssched_i_mpq_vec_new(n);
    out->in_busy = ssched_i_mpq_vec_new(n);
    out->out_price = ssched_i_mpq_vec_new(n);
    out->in_price = ssched_i_mpq_vec_new(n);
    out->compute_busy = ssched_i_mpq_vec_new(n);
    out->compute_price = ssched_i_mpq_vec_new(n);
    out->link_busy = ssched_i_mpq_vec_new(ne);
    out->link_price = ssched_i_mpq_vec_new(ne);
    return out->out_busy && out->in_busy && out->out_price && out->in_price &&
           out->compute_busy && out->compute_price && out->link_busy && out->link_price;
}
