/* The cluster model of a platform file (ssched/compare.h). */
#include "ssched/compare.h"

ssched_status_t ssched_compare_cluster_from_platform(const ssched_platform_t *p,
                                                     ssched_mk_cluster_t *c, ssched_error_t *err)
{
    if (p->n_edges != p->n_nodes * (p->n_nodes - 1))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "not a complete graph (every ordered pair needs an edge)");
    ssched_status_t st = ssched_mk_cluster_init(c, p->n_nodes, err);
    for (size_t i = 0; i < p->n_nodes && st == SSCHED_OK; i++) {
        if (p->out_start[i] < p->out_start[i + 1]) /* a lone node sends nothing */
            mpq_set(c->time[i], p->c[p->out_list[p->out_start[i]]]);
        for (size_t k = p->out_start[i]; k < p->out_start[i + 1] && st == SSCHED_OK; k++)
            if (!mpq_equal(p->c[p->out_list[k]], c->time[i])) {
                ssched_mk_cluster_free(c);
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "edges leaving node '%s' have different costs (the "
                                      "cluster model needs c(i,j) = t(i))",
                                      p->names[i]);
            }
    }
    return st;
}
