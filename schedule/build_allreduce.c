/* One period of a periodic all-reduce schedule (issue 14 item 3; RR-4872
 * §3.3 for the slots).
 *
 * The solution (lp/colgen_allreduce*.c) carries rated reduction trees to
 * the root R (ordered, or commutative ones with their participant order)
 * and rated arborescences from R.  The reduce part is built as a reduce
 * schedule (ssched_i_sched_build_reduce: the trees scaled to a period T_r, the LCM
 * of the denominators of TP, of every rate and busy time, copies included,
 * and of every tree rate; their transfers by interval or set, their
 * computations).  The period T is then the LCM of T_r and of the
 * denominators of the arborescence rates: per period tree t is used
 * rate(t) T times, arborescence a rate(a) T times, and TP T operations
 * complete.  The slots are made once more for the reduce transfers and the
 * copies together (a distinct type, ssched_schedule_copy_type), so both
 * share ports and links as in the steady state. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

static int cmp_load(const void *a, const void *b)
{
    const sched_load_t *x = a, *y = b;
    if (x->edge != y->edge)
        return x->edge < y->edge ? -1 : 1;
    return x->type < y->type ? -1 : x->type > y->type;
}

/* The reduce slots' transfers as loads times f (merged per edge and type),
 * then one copy load per edge: the arborescences' counts per period T. */
static ssched_status_t make_loads(const ssched_platform_t *p, const ssched_schedule_t *s,
                                  const mpz_t f, sched_load_t **out, size_t *n_out,
                                  ssched_error_t *err)
{
    size_t n = p->n_edges;
    for (size_t k = 0; k < s->n_slots; k++)
        n += s->slots[k].n_transfers;
    sched_load_t *l = ssched_i_alloc(n, sizeof *l);
    if (!l)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t m = 0, ne = p->n_edges;
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            const ssched_transfer_t *x = &s->slots[k].transfers[t];
            l[m].edge = x->edge;
            l[m].type = x->type;
            mpq_init(l[m].count);
            mpq_set_z(l[m].count, f);
            mpq_mul(l[m].count, l[m].count, x->amount);
            m++;
        }
    size_t first_copy = m, copy = ssched_schedule_copy_type(s);
    for (size_t e = 0; e < ne; e++) {
        l[m].edge = e;
        l[m].type = copy;
        mpq_init(l[m].count);
        m++;
    }
    const ssched_arborescences_t *a = &s->arborescences;
    for (size_t i = 0; i < a->count; i++)
        for (size_t k = 0; k < a->items[i].n_arcs; k++) {
            mpq_ptr c = l[first_copy + a->items[i].arcs[k]].count;
            mpq_add(c, c, a->items[i].weight);
        }
    qsort(l, m, sizeof *l, cmp_load);
    size_t kept = 0; /* merge equal keys, drop empty loads */
    for (size_t k = 0; k < m; k++) {
        if (kept && l[kept - 1].edge == l[k].edge && l[kept - 1].type == l[k].type) {
            mpq_add(l[kept - 1].count, l[kept - 1].count, l[k].count);
            mpq_clear(l[k].count);
        } else if (mpq_sgn(l[k].count) == 0) {
            mpq_clear(l[k].count);
        } else {
            l[kept++] = l[k];
        }
    }
    *out = l;
    *n_out = kept;
    return SSCHED_OK;
}

/* The solution's arborescences as counts per period T. */
static ssched_status_t copy_arborescences(const ssched_steady_t *st, const mpq_t T,
                                          ssched_arborescences_t *a, ssched_error_t *err)
{
    a->items = calloc(st->n_arborescences, sizeof *a->items);
    if (!a->items)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_set_ui(a->value, 0, 1);
    for (size_t i = 0; i < st->n_arborescences; i++) {
        const ssched_arborescence_t *x = &st->arborescences[i];
        ssched_arborescence_t *y = &a->items[a->count++];
        ssched_arborescence_init(y);
        y->arcs = ssched_i_alloc(x->n_arcs, sizeof *y->arcs);
        if (!y->arcs)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        memcpy(y->arcs, x->arcs, x->n_arcs * sizeof *x->arcs);
        y->n_arcs = x->n_arcs;
        mpq_mul(y->weight, x->weight, T);
        mpq_add(a->value, a->value, y->weight);
    }
    return SSCHED_OK;
}

static void free_slots(ssched_schedule_t *s)
{
    for (size_t k = 0; k < s->n_slots; k++) {
        for (size_t t = 0; t < s->slots[k].n_transfers; t++)
            mpq_clear(s->slots[k].transfers[t].amount);
        free(s->slots[k].transfers);
        mpq_clears(s->slots[k].start, s->slots[k].end, NULL);
    }
    free(s->slots);
    s->slots = NULL;
    s->n_slots = 0;
}

ssched_status_t ssched_i_sched_build_allreduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_steady_t *st,
                                      const ssched_schedule_options_t *opt,
                                      ssched_schedule_t *out, ssched_error_t *err)
{
    if (opt->fixed_period)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "allreduce: options.fixed_period is not supported (the period is the "
                                "LCM of the trees' and arborescences' rates)");
    if (!st->n_rated_trees || !st->n_arborescences || st->allreduce_root >= p->n_nodes)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "allreduce: the solution carries no rated trees and arborescences");
    /* the reduce part: a reduce to the root (shallow copies, read only) */
    ssched_problem_t red = *pb;
    red.kind = SSCHED_PROBLEM_REDUCE;
    red.target = st->allreduce_root;
    ssched_steady_t sr = *st;
    sr.kind = SSCHED_PROBLEM_REDUCE;
    ssched_schedule_options_t o = *opt;
    o.no_split = 0; /* applied below, to both kinds */
    ssched_status_t status = ssched_i_sched_build_reduce(p, &red, &sr, &o, out, err);
    if (status != SSCHED_OK)
        return status;
    out->kind = SSCHED_PROBLEM_ALLREDUCE;
    out->root = st->allreduce_root;
    out->optimal = st->optimal;
    mpq_set(out->upper_bound, st->upper_bound);
    /* T = lcm(T_r, the arborescence rates' denominators); f = T / T_r */
    mpz_t f;
    mpz_init_set(f, out->lcm_period);
    for (size_t i = 0; i < st->n_arborescences; i++)
        mpz_lcm(out->lcm_period, out->lcm_period, mpq_denref(st->arborescences[i].weight));
    mpz_divexact(f, out->lcm_period, f);
    mpq_set_z(out->period, out->lcm_period);
    mpz_mul(out->ops_per_period, out->ops_per_period, f);
    mpz_mul(out->trees.ops_per_period, out->trees.ops_per_period, f);
    mpz_set(out->trees.period, out->lcm_period);
    for (size_t k = 0; k < out->trees.n_trees; k++)
        mpz_mul(out->trees.trees[k].weight, out->trees.trees[k].weight, f);
    for (size_t k = 0; k < out->n_computations; k++)
        mpz_mul(out->computations[k].count, out->computations[k].count, f);
    status = copy_arborescences(st, out->period, &out->arborescences, err);
    mpq_t q;
    mpq_init(q);
    mpq_mul(q, st->throughput, out->period);
    if (status == SSCHED_OK && (!mpq_equal(out->arborescences.value, q) ||
                                mpz_cmp(mpq_numref(q), out->ops_per_period) != 0))
        status = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "allreduce: the trees' and arborescences' rates differ from TP");
    mpq_clear(q);
    sched_load_t *loads = NULL;
    size_t n_loads = 0;
    if (status == SSCHED_OK)
        status = make_loads(p, out, f, &loads, &n_loads, err);
    mpz_clear(f);
    if (status == SSCHED_OK) {
        free_slots(out);
        status = ssched_i_sched_make_slots(p, loads, n_loads, opt->rule, out, err);
    }
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(loads[k].count);
    free(loads);
    if (status == SSCHED_OK && opt->no_split)
        ssched_i_sched_scale_no_split(out);
    return status;
}
