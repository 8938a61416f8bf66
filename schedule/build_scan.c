/* Periodic scan schedules (issue 27 item 4; docs/model.md "Parallel
 * prefix: periodic schedules").
 *
 * Column generation hands over a certified packing of prefix structures
 * S with rates x_S summing to the achievable TP (lp/colgen_scan.c; every
 * structure passed ssched_scan_structure_check).  As for a broadcast's
 * arborescences (build_broadcast.c) and a reduce's trees (build_reduce.c),
 * the period T is the LCM of the denominators of TP, of every x_S and of
 * every per-edge and per-task rate and busy time (so that the file's
 * figures.lcm_period is what the checker recomputes): structure S is then
 * used n_S = x_S T times per period, a whole number, and TP T operations
 * complete per period.  Per period, the transfers of interval I over edge
 * e are sum_S n_S [S sends I over e] (a structure sends a value at most
 * once per edge, copies included), the tasks likewise; the master's rows
 * keep every port, link and processor within 1 per time unit, so within T
 * per period, and the weighted bipartite edge-colouring (slots.c,
 * matching/) turns the per-edge busy times into slots (one-port hosts,
 * switches one link at a time, a routed platform one fluid slot).  Each
 * operation follows one structure, so every participant gets its prefix
 * once per operation. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

typedef struct {
    size_t a, b, c, d; /* (edge, type, 0, 0) or (node, k, l, m) */
    size_t s;          /* the structure */
} ent_t;

static int cmp_ent(const void *x, const void *y)
{
    const ent_t *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    if (p->c != q->c) return p->c < q->c ? -1 : 1;
    return p->d < q->d ? -1 : p->d > q->d;
}

static int same_key(const ent_t *x, const ent_t *y)
{
    return x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

/* The solution's structures copied into out (rates kept for now), their
 * indices checked against the platform and the problem. */
static ssched_status_t copy_structures(const ssched_platform_t *p, size_t N,
                                       const ssched_steady_t *st, ssched_schedule_t *out,
                                       ssched_error_t *err)
{
    size_t ns = st->n_scan_structures;
    out->scan_structures = ssched_i_calloc(ns, sizeof *out->scan_structures);
    if (!out->scan_structures)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < ns; k++) {
        const ssched_scan_structure_t *x = &st->scan_structures[k];
        ssched_scan_structure_t *y = &out->scan_structures[out->n_scan_structures++];
        mpq_init(y->rate);
        mpq_set(y->rate, x->rate);
        y->tasks = ssched_i_alloc(x->n_tasks ? x->n_tasks : 1, sizeof *y->tasks);
        y->sends = ssched_i_alloc(x->n_sends ? x->n_sends : 1, sizeof *y->sends);
        if (!y->tasks || !y->sends)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        if (x->n_tasks)
            memcpy(y->tasks, x->tasks, x->n_tasks * sizeof *x->tasks);
        if (x->n_sends)
            memcpy(y->sends, x->sends, x->n_sends * sizeof *x->sends);
        y->n_tasks = x->n_tasks;
        y->n_sends = x->n_sends;
        if (mpq_sgn(x->rate) <= 0)
            return ssched_error_set(err, SSCHED_EINTERNAL,
                                    "scan: prefix structure %zu has no positive rate", k);
        for (size_t t = 0; t < x->n_tasks; t++) {
            const ssched_scan_task_t *a = &x->tasks[t];
            if (a->node >= p->n_nodes || !(a->k <= a->l && a->l < a->m && a->m < N))
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "scan: prefix structure %zu has a bad task", k);
        }
        for (size_t t = 0; t < x->n_sends; t++) {
            const ssched_scan_send_t *a = &x->sends[t];
            if (a->edge >= p->n_edges || a->k > a->m || a->m >= N)
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "scan: prefix structure %zu has a bad send", k);
        }
    }
    return SSCHED_OK;
}

/* The entries of every structure's sends (edge, interval type) and tasks,
 * sorted by key; *n_sends of them are sends (first), *n_tasks tasks. */
static ent_t *structure_entries(size_t N, const ssched_schedule_t *out, size_t *n_sends,
                                size_t *n_tasks)
{
    size_t ns = 0, nt = 0;
    for (size_t k = 0; k < out->n_scan_structures; k++) {
        ns += out->scan_structures[k].n_sends;
        nt += out->scan_structures[k].n_tasks;
    }
    ent_t *e = ssched_i_alloc(ns + nt ? ns + nt : 1, sizeof *e);
    if (!e)
        return NULL;
    size_t a = 0, b = ns;
    for (size_t k = 0; k < out->n_scan_structures; k++) {
        const ssched_scan_structure_t *x = &out->scan_structures[k];
        for (size_t t = 0; t < x->n_sends; t++)
            e[a++] = (ent_t){x->sends[t].edge, ssched_interval_index(N, x->sends[t].k, x->sends[t].m),
                             0, 0, k};
        for (size_t t = 0; t < x->n_tasks; t++)
            e[b++] = (ent_t){x->tasks[t].node, x->tasks[t].k, x->tasks[t].l, x->tasks[t].m, k};
    }
    qsort(e, ns, sizeof *e, cmp_ent);
    qsort(e + ns, nt, sizeof *e, cmp_ent);
    *n_sends = ns;
    *n_tasks = nt;
    return e;
}

/* T = LCM of the denominators of TP, of every structure's rate, of every
 * (edge, interval)'s and task's summed rate and of every busy time per
 * time unit (rate * size * c(e)). */
static void scan_period(const ssched_platform_t *p, const ssched_problem_t *pb,
                        const ssched_steady_t *st, const ssched_schedule_t *out, const ent_t *e,
                        size_t ns, size_t nt, mpz_t T)
{
    mpq_t sum, tmp;
    mpq_inits(sum, tmp, NULL);
    mpz_set(T, mpq_denref(st->throughput));
    for (size_t k = 0; k < out->n_scan_structures; k++)
        mpz_lcm(T, T, mpq_denref(out->scan_structures[k].rate));
    for (size_t k = 0; k < ns + nt; k++) {
        mpq_add(sum, sum, out->scan_structures[e[k].s].rate);
        int last = k + 1 == ns + nt || k + 1 == ns || !same_key(&e[k], &e[k + 1]);
        if (!last)
            continue;
        if (k < ns)
            ssched_i_period_add_flow(T, sum, p->c[e[k].a], pb->size, tmp);
        else
            mpz_lcm(T, T, mpq_denref(sum));
        mpq_set_ui(sum, 0, 1);
    }
    mpq_clears(sum, tmp, NULL);
}

/* Per-period loads (sorted by edge, then type) and computations from the
 * structures' counts (their `rate` is now instances per period). */
static ssched_status_t period_totals(const ent_t *e, size_t ns, size_t nt, ssched_schedule_t *out,
                                     sched_load_t **loads_out, size_t *n_loads_out,
                                     ssched_error_t *err)
{
    sched_load_t *loads = ssched_i_alloc(ns ? ns : 1, sizeof *loads);
    out->computations = ssched_i_alloc(nt ? nt : 1, sizeof *out->computations);
    if (!loads || !out->computations) {
        free(loads);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    size_t n_loads = 0;
    for (size_t k = 0; k < ns; k++) {
        const mpq_t *w = (const mpq_t *)&out->scan_structures[e[k].s].rate;
        if (k > 0 && same_key(&e[k], &e[k - 1])) {
            mpq_add(loads[n_loads - 1].count, loads[n_loads - 1].count, *w);
            continue;
        }
        sched_load_t *l = &loads[n_loads++];
        l->edge = e[k].a;
        l->type = e[k].b;
        mpq_init(l->count);
        mpq_set(l->count, *w);
    }
    for (size_t k = ns; k < ns + nt; k++) {
        const mpq_t *w = (const mpq_t *)&out->scan_structures[e[k].s].rate;
        if (k > ns && same_key(&e[k], &e[k - 1])) {
            ssched_computation_t *c = &out->computations[out->n_computations - 1];
            mpz_add(c->count, c->count, mpq_numref(*w));
            continue;
        }
        ssched_computation_t *c = &out->computations[out->n_computations++];
        c->node = e[k].a;
        c->k = e[k].b;
        c->l = e[k].c;
        c->m = e[k].d;
        mpz_init_set(c->count, mpq_numref(*w));
    }
    *loads_out = loads;
    *n_loads_out = n_loads;
    return SSCHED_OK;
}

/* Resources (ssched_i_sched_n_resources) one instance of structure x
 * uses: its sends (each once: copies) and its tasks. */
static void structure_usage(const ssched_platform_t *p, const ssched_problem_t *pb,
                            const ssched_scan_structure_t *x, mpq_t *use)
{
    size_t n = p->n_nodes;
    for (size_t i = 0; i < ssched_i_sched_n_resources(p); i++)
        mpq_set_ui(use[i], 0, 1);
    for (size_t t = 0; t < x->n_sends; t++)
        ssched_i_sched_edge_usage(p, x->sends[t].edge, pb->size, use);
    for (size_t t = 0; t < x->n_tasks; t++)
        mpq_add(use[2 * n + x->tasks[t].node], use[2 * n + x->tasks[t].node],
                p->w[x->tasks[t].node]);
}

/* A fixed period TF (RR-4872 §4.6, as build_reduce.c does for trees):
 * structure S runs r_S = floor(x_S TF) times (x_S TF = n_S TF / T fits,
 * since the rates do), then, largest rate first, as many extra instances
 * as every resource it uses still allows within TF.  Resources add up
 * linearly over instances (a structure's copies are its own), so every
 * port, link and processor stays within TF and the slots fit.  The
 * `rate` of each structure becomes its instances per period; those left
 * with none are dropped. */
static ssched_status_t fix_period(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  ssched_schedule_t *out, mpq_srcptr TF, ssched_error_t *err)
{
    size_t ns = out->n_scan_structures, nr = ssched_i_sched_n_resources(p);
    mpq_t *cap = ssched_i_mpq_vec_new(nr), *use = ssched_i_mpq_vec_new(nr);
    if (!cap || !use) {
        ssched_i_mpq_vec_free(cap, nr);
        ssched_i_mpq_vec_free(use, nr);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_t q, card;
    mpz_t r, extra, total;
    mpq_inits(q, card, NULL);
    mpz_inits(r, extra, total, NULL);
    for (size_t i = 0; i < nr; i++)
        mpq_set(cap[i], TF);
    /* largest rate first, for the extras (an insertion sort: the
     * packing's structures are few) */
    for (size_t a = 1; a < ns; a++)
        for (size_t b = a; b > 0 && mpq_cmp(out->scan_structures[b].rate,
                                            out->scan_structures[b - 1].rate) > 0; b--) {
            ssched_scan_structure_t t = out->scan_structures[b];
            out->scan_structures[b] = out->scan_structures[b - 1];
            out->scan_structures[b - 1] = t;
        }
    for (size_t k = 0; k < ns; k++) {
        ssched_scan_structure_t *x = &out->scan_structures[k];
        mpq_mul(q, x->rate, TF);
        mpz_fdiv_q(r, mpq_numref(q), mpq_denref(q));
        mpq_set_z(x->rate, r);
        mpz_add(total, total, r);
        structure_usage(p, pb, x, use);
        for (size_t i = 0; i < nr; i++) {
            mpq_mul(use[i], use[i], x->rate);
            mpq_sub(cap[i], cap[i], use[i]);
        }
    }
    mpq_set_z(out->floor_throughput, total);
    mpq_div(out->floor_throughput, out->floor_throughput, TF);
    mpq_set_ui(card, ns, 1);
    mpq_div(card, card, TF);
    mpq_sub(out->report_bound, out->optimal_throughput, card);
    mpz_set_ui(out->extra_instances, 0);
    for (size_t k = 0; k < ns; k++) {
        ssched_scan_structure_t *x = &out->scan_structures[k];
        structure_usage(p, pb, x, use);
        if (!ssched_i_sched_extra_fit(nr, cap, use, extra, q, r))
            continue;
        mpq_set_z(q, extra);
        mpq_add(x->rate, x->rate, q);
        mpz_add(total, total, extra);
        mpz_add(out->extra_instances, out->extra_instances, extra);
        for (size_t i = 0; i < nr; i++) {
            mpq_mul(use[i], use[i], q);
            mpq_sub(cap[i], cap[i], use[i]);
        }
    }
    size_t kept = 0;
    for (size_t k = 0; k < ns; k++) {
        ssched_scan_structure_t *x = &out->scan_structures[k];
        if (mpq_sgn(x->rate) == 0) {
            free(x->tasks);
            free(x->sends);
            mpq_clear(x->rate);
        } else {
            out->scan_structures[kept++] = *x;
        }
    }
    out->n_scan_structures = kept;
    mpz_set(out->ops_per_period, total);
    mpq_set(out->period, TF);
    mpq_set_z(out->throughput, total);
    mpq_div(out->throughput, out->throughput, TF);
    out->fixed = 1;
    ssched_i_mpq_vec_free(cap, nr);
    ssched_i_mpq_vec_free(use, nr);
    mpq_clears(q, card, NULL);
    mpz_clears(r, extra, total, NULL);
    if (kept == 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "scan: options.fixed_period is too short for one operation of "
                                "any prefix structure");
    return SSCHED_OK;
}

ssched_status_t ssched_i_sched_build_scan(const ssched_platform_t *p, const ssched_problem_t *pb,
                                          const ssched_steady_t *st,
                                          const ssched_schedule_options_t *opt,
                                          ssched_schedule_t *out, ssched_error_t *err)
{
    size_t N = pb->n_participants;
    if (st->n_scan_structures == 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "scan: the solution has no prefix structures to schedule (the edge "
                                "LP gives only an upper bound: use method auto or colgen)");
    if (opt->fixed_period && mpq_sgn(opt->fixed_period) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "options.fixed_period must be positive");
    out->n_intervals = N * (N + 1) / 2;
    out->intervals = ssched_i_alloc(out->n_intervals, sizeof *out->intervals);
    if (!out->intervals)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < N; k++)
        for (size_t m = k; m < N; m++) {
            size_t t = ssched_interval_index(N, k, m);
            out->intervals[t].k = k;
            out->intervals[t].m = m;
        }
    mpq_set(out->upper_bound, st->upper_bound);
    out->optimal = st->optimal;
    ssched_status_t status = copy_structures(p, N, st, out, err);
    if (status != SSCHED_OK)
        return status;
    mpq_t sum;
    mpq_init(sum);
    for (size_t k = 0; k < out->n_scan_structures; k++)
        mpq_add(sum, sum, out->scan_structures[k].rate);
    int sums = mpq_equal(sum, st->throughput);
    mpq_clear(sum);
    if (!sums)
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "scan: the prefix structures' rates do not sum to TP");
    size_t ns, nt;
    ent_t *e = structure_entries(N, out, &ns, &nt);
    if (!e)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    scan_period(p, pb, st, out, e, ns, nt, out->lcm_period);
    free(e);
    if (opt->fixed_period) {
        status = fix_period(p, pb, out, opt->fixed_period, err);
        if (status != SSCHED_OK)
            return status;
    } else {
        mpq_set_z(out->period, out->lcm_period);
        for (size_t k = 0; k < out->n_scan_structures; k++)
            mpq_mul(out->scan_structures[k].rate, out->scan_structures[k].rate, out->period);
        mpq_t q;
        mpq_init(q);
        mpq_mul(q, st->throughput, out->period);
        mpz_set(out->ops_per_period, mpq_numref(q));
        mpq_clear(q);
    }
    /* the entries again: a fixed period may have dropped structures */
    e = structure_entries(N, out, &ns, &nt);
    if (!e)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    sched_load_t *loads = NULL;
    size_t n_loads = 0;
    status = period_totals(e, ns, nt, out, &loads, &n_loads, err);
    free(e);
    if (status == SSCHED_OK)
        status = ssched_i_sched_make_slots(p, loads, n_loads, opt->rule, out, err);
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(loads[k].count);
    free(loads);
    if (status == SSCHED_OK && opt->no_split) {
        ssched_i_sched_scale_no_split(out);
        mpq_t L;
        mpq_init(L);
        mpq_set_z(L, out->nosplit_factor);
        for (size_t k = 0; k < out->n_scan_structures; k++)
            mpq_mul(out->scan_structures[k].rate, out->scan_structures[k].rate, L);
        mpq_clear(L);
    }
    return status;
}
