/* One period of a periodic broadcast schedule (Beaumont, Legrand, Marchal,
 * Robert, IPDPS 2004; RR-4872 §3.3 for the slots).
 *
 * The broadcast LP gives copies(e) per time unit on every edge.  For a
 * broadcast to every other node, Edmonds' branching theorem says that the
 * copies contain weighted spanning arborescences of total weight TP;
 * ssched_arborescence_pack() finds them exactly.  Each message then
 * travels down one arborescence, so a period in which arborescence A_i is
 * used y_i T times (an integer) delivers TP T whole messages to every node,
 * and its per-edge loads are those of the arborescences, never above the
 * copies, hence within every port's capacity. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"

/* copies(e) of the solution, 0 on unused edges */
static ssched_status_t copies_per_edge(const ssched_platform_t *p, const ssched_steady_t *st,
                                       mpq_t *cap, ssched_error_t *err)
{
    for (size_t k = 0; k < st->n_flows; k++) {
        const ssched_flow_t *f = &st->flows[k];
        if (f->edge >= p->n_edges || f->type != 0)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "broadcast: the solution's flows are not copies per edge");
        mpq_set(cap[f->edge], f->rate);
    }
    return SSCHED_OK;
}

/* Per-edge loads (messages per period) of the arborescences, by edge. */
static ssched_status_t arborescence_loads(const ssched_platform_t *p,
                                          const ssched_arborescences_t *a, sched_load_t **out,
                                          size_t *n_out, ssched_error_t *err)
{
    size_t ne = p->n_edges, n = 0;
    mpq_t *sum = malloc((ne ? ne : 1) * sizeof *sum);
    sched_load_t *loads = malloc((ne ? ne : 1) * sizeof *loads);
    if (!sum || !loads) {
        free(sum);
        free(loads);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e < ne; e++)
        mpq_init(sum[e]);
    for (size_t i = 0; i < a->count; i++)
        for (size_t k = 0; k < a->items[i].n_arcs; k++) {
            size_t e = a->items[i].arcs[k];
            mpq_add(sum[e], sum[e], a->items[i].weight);
        }
    for (size_t e = 0; e < ne; e++) {
        if (mpq_sgn(sum[e]) != 0) {
            loads[n].edge = e;
            loads[n].type = 0;
            mpq_init(loads[n].count);
            mpq_set(loads[n].count, sum[e]);
            n++;
        }
        mpq_clear(sum[e]);
    }
    free(sum);
    *out = loads;
    *n_out = n;
    return SSCHED_OK;
}

ssched_status_t sched_build_broadcast(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_steady_t *st,
                                     const ssched_schedule_options_t *opt,
                                     ssched_schedule_t *out, ssched_error_t *err)
{
    /* only an upper bound is known for a multicast: packing Steiner trees
     * has no min-cut theorem, so the LP value may not be reachable */
    if (st->multicast || pb->n_targets + 1 != p->n_nodes)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "multicast: the achievable throughput is not computed yet");
    if (opt->fixed_period)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "broadcast: --fixed-period is not supported (the period is the "
                                "LCM of the arborescences' weights)");
    if (pb->n_sources != 1 || pb->sources[0] >= p->n_nodes)
        return ssched_error_set(err, SSCHED_EINPUT, "broadcast: exactly one source");
    size_t nn = p->n_nodes, ne = p->n_edges, root = pb->sources[0];
    out->n_commodities = 1; /* one message type: exports label it by the source */
    out->commodities = malloc(sizeof *out->commodities);
    mpq_t *cap = malloc((ne ? ne : 1) * sizeof *cap);
    unsigned char *required = malloc(nn ? nn : 1);
    if (!out->commodities || !cap || !required) {
        free(cap);
        free(required);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    out->commodities[0].origin = out->commodities[0].dest = root;
    memset(required, 1, nn);
    for (size_t e = 0; e < ne; e++)
        mpq_init(cap[e]);
    ssched_arborescences_t *a = &out->arborescences;
    ssched_status_t status = copies_per_edge(p, st, cap, err);
    /* every node is required: nothing may be pruned from a broadcast */
    if (status == SSCHED_OK)
        status = ssched_arborescence_pack(nn, ne, p->from, p->to, cap, root, st->throughput,
                                          required, a, err);
    for (size_t v = 0; status == SSCHED_OK && v < nn; v++)
        if (!a->spanned[v])
            status = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "broadcast: the arborescences do not span node '%s'",
                                      p->names[v]);
    for (size_t e = 0; e < ne; e++)
        mpq_clear(cap[e]);
    free(cap);
    free(required);
    if (status != SSCHED_OK)
        return status;

    /* T = LCM of the weights' denominators: every y_i T is an integer, and
     * so is TP T = sum y_i T */
    mpz_set_ui(out->lcm_period, 1);
    for (size_t i = 0; i < a->count; i++)
        mpz_lcm(out->lcm_period, out->lcm_period, mpq_denref(a->items[i].weight));
    mpq_set_z(out->period, out->lcm_period);
    for (size_t i = 0; i < a->count; i++)
        mpq_mul(a->items[i].weight, a->items[i].weight, out->period);
    mpq_mul(a->value, a->value, out->period);
    mpz_set(out->ops_per_period, mpq_numref(a->value));
    if (mpz_cmp_ui(mpq_denref(a->value), 1) != 0)
        return ssched_error_set(err, SSCHED_EINTERNAL, "broadcast: TP x T is not an integer");

    sched_load_t *loads = NULL;
    size_t n_loads = 0;
    status = arborescence_loads(p, a, &loads, &n_loads, err);
    if (status == SSCHED_OK)
        status = sched_make_slots(p, loads, n_loads, opt->rule, out, err);
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(loads[k].count);
    free(loads);
    if (status == SSCHED_OK && opt->no_split)
        sched_scale_no_split(out);
    return status;
}
