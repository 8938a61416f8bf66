/* One period of a periodic broadcast or multicast schedule (Beaumont,
 * Legrand, Marchal, Robert, IPDPS 2004; RR-4872 §3.3 for the slots).
 *
 * A schedule needs weighted arborescences A_i rooted at the source that
 * reach every target, of weights y_i summing to the throughput: each
 * message travels down one of them, so a period in which A_i is used
 * y_i T times (an integer) delivers TP T whole messages to every target.
 *  - Column generation hands them over (steady->arborescences): spanning
 *    ones for a broadcast to every other node, Steiner ones (relays, and
 *    switches, may forward; non-target nodes may be left out) for a
 *    multicast, whose TP is then the achievable one and whose upper bound
 *    is the edge LP's.  The master's rows keep their loads within every
 *    port and link.
 *  - The edge LP gives copies(e) per edge only.  For a broadcast to every
 *    other node Edmonds' branching theorem says they contain weighted
 *    spanning arborescences of total weight TP, and
 *    ssched_arborescence_pack() finds them exactly (loads never above the
 *    copies).  For a multicast the LP value is only an upper bound (no
 *    such theorem for Steiner arborescences): refused.
 * The per-edge loads of the arborescences make the bipartite graph. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

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
    mpq_t *sum = ssched_i_alloc(ne, sizeof *sum);
    sched_load_t *loads = ssched_i_alloc(ne, sizeof *loads);
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

/* Drop the arcs into non-target leaves, repeatedly: such a copy reaches
 * nobody who needs it, and the unrolled checker refuses a message moving
 * after every target has it.  Only loads fall, so the rates stay feasible.
 * deg is scratch (n_nodes). */
static void prune_relay_leaves(const ssched_platform_t *p, const unsigned char *target,
                               size_t *deg, ssched_arborescence_t *y)
{
    for (int changed = 1; changed;) {
        changed = 0;
        memset(deg, 0, p->n_nodes * sizeof *deg);
        for (size_t k = 0; k < y->n_arcs; k++)
            deg[p->from[y->arcs[k]]]++;
        size_t kept = 0;
        for (size_t k = 0; k < y->n_arcs; k++) {
            size_t v = p->to[y->arcs[k]];
            if (!target[v] && deg[v] == 0)
                changed = 1;
            else
                y->arcs[kept++] = y->arcs[k];
        }
        y->n_arcs = kept;
    }
}

/* The solution's own weighted arborescences (column generation), copied
 * (relay leaves pruned) and verified against the problem: arcs are
 * platform edges, the weights are positive and sum to TP, and every one
 * reaches every target (checked by the caller on a->spanned). */
static ssched_status_t copy_rated(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_steady_t *st, ssched_arborescences_t *a,
                                  ssched_error_t *err)
{
    size_t nn = p->n_nodes, na = st->n_arborescences, root = pb->sources[0];
    a->items = calloc(na, sizeof *a->items);
    a->spanned = ssched_i_alloc(nn, 1);
    unsigned char *mark = ssched_i_alloc(nn, 1), *target = ssched_i_calloc(nn, 1);
    size_t *deg = ssched_i_alloc(nn, sizeof *deg);
    if (!a->items || !a->spanned || !mark || !target || !deg) {
        free(mark);
        free(target);
        free(deg);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < pb->n_targets; t++)
        target[pb->targets[t]] = 1;
    a->n_nodes = nn;
    memset(a->spanned, 1, nn);
    mpq_set_ui(a->value, 0, 1);
    ssched_status_t status = SSCHED_OK;
    for (size_t i = 0; i < na && status == SSCHED_OK; i++) {
        const ssched_arborescence_t *x = &st->arborescences[i];
        ssched_arborescence_t *y = &a->items[a->count++];
        ssched_arborescence_init(y);
        y->arcs = ssched_i_alloc(x->n_arcs, sizeof *y->arcs);
        if (!y->arcs) {
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        for (size_t k = 0; k < x->n_arcs && status == SSCHED_OK; k++) {
            if (x->arcs[k] >= p->n_edges)
                status = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "broadcast: arborescence %zu has no edge %zu", i,
                                          x->arcs[k]);
            else
                y->arcs[y->n_arcs++] = x->arcs[k];
        }
        prune_relay_leaves(p, target, deg, y);
        memset(mark, 0, nn);
        mark[root] = 1;
        for (size_t k = 0; k < y->n_arcs; k++)
            mark[p->to[y->arcs[k]]] = 1;
        if (mpq_sgn(x->weight) <= 0)
            status = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "broadcast: arborescence %zu has no positive rate", i);
        mpq_set(y->weight, x->weight);
        mpq_add(a->value, a->value, x->weight);
        for (size_t v = 0; v < nn; v++)
            a->spanned[v] &= mark[v];
    }
    free(mark);
    free(target);
    free(deg);
    if (status == SSCHED_OK && !mpq_equal(a->value, st->throughput))
        status = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "broadcast: the arborescences' rates do not sum to TP");
    return status;
}

/* The edge LP's copies packed into spanning arborescences (Edmonds). */
static ssched_status_t pack_copies(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *st, ssched_arborescences_t *a,
                                   ssched_error_t *err)
{
    size_t nn = p->n_nodes, ne = p->n_edges;
    mpq_t *cap = ssched_i_alloc(ne, sizeof *cap);
    unsigned char *required = ssched_i_alloc(nn, 1);
    if (!cap || !required) {
        free(cap);
        free(required);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    /* every node is required: nothing may be pruned from a broadcast */
    memset(required, 1, nn);
    for (size_t e = 0; e < ne; e++)
        mpq_init(cap[e]);
    ssched_status_t status = copies_per_edge(p, st, cap, err);
    if (status == SSCHED_OK)
        status = ssched_arborescence_pack(nn, ne, p->from, p->to, cap, pb->sources[0],
                                          st->throughput, required, a, err);
    for (size_t e = 0; e < ne; e++)
        mpq_clear(cap[e]);
    free(cap);
    free(required);
    return status;
}

ssched_status_t ssched_i_sched_build_broadcast(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_steady_t *st,
                                     const ssched_schedule_options_t *opt,
                                     ssched_schedule_t *out, ssched_error_t *err)
{
    int multicast = st->multicast || pb->n_targets + 1 != p->n_nodes;
    if (multicast && st->n_arborescences == 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "multicast: the edge LP gives only an upper bound, no "
                                "arborescences to schedule (use options.method colgen or auto)");
    if (opt->fixed_period)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "broadcast: options.fixed_period is not supported (the period is the "
                                "LCM of the arborescences' weights)");
    if (pb->n_sources != 1 || pb->sources[0] >= p->n_nodes)
        return ssched_error_set(err, SSCHED_EINPUT, "broadcast: exactly one source");
    size_t root = pb->sources[0];
    out->multicast = multicast;
    /* a broadcast to every other node is solved exactly (Edmonds) */
    out->optimal = multicast ? st->optimal : 1;
    mpq_set(out->upper_bound, multicast ? st->upper_bound : st->throughput);
    out->n_commodities = 1; /* one message type: exports label it by the source */
    out->commodities = malloc(sizeof *out->commodities);
    if (!out->commodities)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    out->commodities[0].origin = out->commodities[0].dest = root;
    ssched_arborescences_t *a = &out->arborescences;
    ssched_status_t status = st->n_arborescences > 0 ? copy_rated(p, pb, st, a, err)
                                                     : pack_copies(p, pb, st, a, err);
    for (size_t t = 0; status == SSCHED_OK && t < pb->n_targets; t++)
        if (!a->spanned[pb->targets[t]])
            status = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "broadcast: the arborescences do not reach target '%s'",
                                      p->names[pb->targets[t]]);
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
        status = ssched_i_sched_make_slots(p, loads, n_loads, opt->rule, out, err);
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(loads[k].count);
    free(loads);
    if (status == SSCHED_OK && opt->no_split)
        ssched_i_sched_scale_no_split(out);
    return status;
}
