/* Small helpers shared by the lp/ files. */
#include <stdio.h>
#include <stdlib.h>

#include <lpsolve/lp_lib.h>
#include <time.h>

#include "lp/internal.h"
#include "ssched/steady.h"

double ssched_i_lp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double ssched_i_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

mpq_t *ssched_i_lp_new_vec(size_t n)
{
    mpq_t *v = malloc((n ? n : 1) * sizeof *v);
    if (v)
        for (size_t i = 0; i < n; i++)
            mpq_init(v[i]);
    return v;
}

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
    out->out_busy = ssched_i_lp_new_vec(n);
    out->in_busy = ssched_i_lp_new_vec(n);
    out->out_price = ssched_i_lp_new_vec(n);
    out->in_price = ssched_i_lp_new_vec(n);
    out->compute_busy = ssched_i_lp_new_vec(n);
    out->compute_price = ssched_i_lp_new_vec(n);
    out->link_busy = ssched_i_lp_new_vec(ne);
    out->link_price = ssched_i_lp_new_vec(ne);
    return out->out_busy && out->in_busy && out->out_price && out->in_price &&
           out->compute_busy && out->compute_price && out->link_busy && out->link_price;
}
