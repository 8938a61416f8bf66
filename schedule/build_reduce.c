/* Reduce schedules (RR-4872 §4.3, §4.6): weighted reduction trees ->
 * per-period transfers and computations -> slots.  A commutative reduce
 * uses the same trees (each ordered by its own `order`), with sets of
 * participants as types (commut_sets.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

typedef struct {
    size_t a, b, c, d;   /* (edge, interval) or (node, k, l, m) */
    const mpz_t *w;
} entry_t;

static int cmp_entry(const void *x, const void *y)
{
    const entry_t *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    if (p->c != q->c) return p->c < q->c ? -1 : 1;
    return p->d < q->d ? -1 : p->d > q->d;
}

size_t ssched_i_sched_n_resources(const ssched_platform_t *p)
{
    return 3 * p->n_nodes + p->n_edges + (p->routes ? p->routes->n_links : 0);
}

/* One message over edge e.  Graph model: the out-port of its sender if
 * that is a one-port host, else (a switch) its link; likewise the in-port
 * of its receiver or the link (once when both ends are switches).  Routed
 * model (docs/model.md, routed schedules): every SHARED link of the route, the edge's own FATPIPE
 * cap (its largest FATPIPE link_c: each flow alone), and the hosts' ports
 * only when hosts are one-port. */
void ssched_i_sched_edge_usage(const ssched_platform_t *p, size_t e, mpq_srcptr size, mpq_t *use)
{
    size_t n = p->n_nodes, i = p->from[e], j = p->to[e];
    mpq_t q;
    mpq_init(q);
    if (p->routes) {
        const ssched_routes_t *rt = p->routes;
        mpq_t fat;
        mpq_init(fat);
        for (size_t k = rt->route_start[e]; k < rt->route_start[e + 1]; k++) {
            size_t L = rt->route_links[k];
            if (rt->sharing[L] == SSCHED_LINK_FATPIPE) {
                if (mpq_cmp(rt->link_c[L], fat) > 0)
                    mpq_set(fat, rt->link_c[L]);
                continue;
            }
            mpq_mul(q, rt->link_c[L], size);
            mpq_add(use[3 * n + p->n_edges + L], use[3 * n + p->n_edges + L], q);
        }
        mpq_mul(q, fat, size);
        mpq_add(use[3 * n + e], use[3 * n + e], q);
        mpq_clear(fat);
        if (rt->hosts_one_port) {
            mpq_mul(q, p->c[e], size);
            mpq_add(use[i], use[i], q);
            mpq_add(use[n + j], use[n + j], q);
        }
        mpq_clear(q);
        return;
    }
    int si = p->multiport && p->multiport[i], sj = p->multiport && p->multiport[j];
    mpq_mul(q, p->c[e], size);
    if (!si)
        mpq_add(use[i], use[i], q);
    if (!sj)
        mpq_add(use[n + j], use[n + j], q);
    if (si || sj)
        mpq_add(use[3 * n + e], use[3 * n + e], q);
    mpq_clear(q);
}

/* Resource usage of one instance of a tree (ssched_i_sched_n_resources
 * values): its transfers (ssched_i_sched_edge_usage) and computations. */
int ssched_i_sched_extra_fit(size_t nr, mpq_t *cap, mpq_t *use, mpz_t extra,
                             mpq_t q, mpz_t r)
{
    int limited = 0;
    for (size_t i = 0; i < nr; i++) {
        if (mpq_sgn(use[i]) == 0)
            continue;
        mpq_div(q, cap[i], use[i]);
        mpz_fdiv_q(r, mpq_numref(q), mpq_denref(q));
        if (!limited || mpz_cmp(r, extra) < 0)
            mpz_set(extra, r);
        limited = 1;
    }
    return limited && mpz_sgn(extra) > 0;
}

void ssched_i_sched_tree_usage(const ssched_platform_t *p, const ssched_tree_t *t, mpq_srcptr size,
                      mpq_t *use)
{
    size_t n = p->n_nodes;
    for (size_t i = 0; i < ssched_i_sched_n_resources(p); i++)
        mpq_set_ui(use[i], 0, 1);
    for (size_t k = 0; k < t->n_tasks; k++) {
        const ssched_tree_task_t *x = &t->tasks[k];
        if (x->kind == SSCHED_TREE_SEND)
            ssched_i_sched_edge_usage(p, x->edge, size, use);
        else
            mpq_add(use[2 * n + x->node], use[2 * n + x->node], p->w[x->node]);
    }
}

/* RR-4872 §4.6, then better: r(T) = floor(w(T) TF / T); then, tree by tree
 * (largest weight first), add as many extra instances as every resource it
 * uses still allows within TF.  The floors fit because w(T)/T does; extras
 * are checked against the remaining capacity, so the result is feasible and
 * never below the floor version. */
static ssched_status_t fix_period(const ssched_platform_t *p, ssched_schedule_t *out,
                                  mpq_srcptr TF, ssched_error_t *err)
{
    size_t nt = out->trees.n_trees, nr = ssched_i_sched_n_resources(p);
    mpq_t *cap = malloc(nr * sizeof *cap), *use = malloc(nr * sizeof *use);
    size_t *order = ssched_i_alloc(nt, sizeof *order);
    if (!cap || !use || !order) {
        free(cap); free(use); free(order);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nr; i++) {
        mpq_init(cap[i]);
        mpq_init(use[i]);
        mpq_set(cap[i], TF);
    }
    mpq_t q, T;
    mpz_t r, extra, total;
    mpq_inits(q, T, NULL);
    mpz_inits(r, extra, total, NULL);
    mpq_set_z(T, out->trees.period);
    for (size_t k = 0; k < nt; k++) {
        ssched_tree_t *t = &out->trees.trees[k];
        mpq_set_z(q, t->weight);
        mpq_mul(q, q, TF);
        mpq_div(q, q, T);
        mpz_fdiv_q(r, mpq_numref(q), mpq_denref(q));
        mpz_set(t->weight, r);
        mpz_add(total, total, r);
        ssched_i_sched_tree_usage(p, t, out->size, use);
        mpq_set_z(q, r);
        for (size_t i = 0; i < nr; i++) {
            mpq_mul(use[i], use[i], q);
            mpq_sub(cap[i], cap[i], use[i]);
        }
        order[k] = k;
    }
    /* floor throughput and the report's bound */
    mpq_set_z(out->floor_throughput, total);
    mpq_div(out->floor_throughput, out->floor_throughput, TF);
    mpq_set_ui(q, nt, 1);
    mpq_div(q, q, TF);
    mpq_sub(out->report_bound, out->optimal_throughput, q);
    /* order: original weights were sorted by extraction; keep largest first */
    for (size_t a = 1; a < nt; a++)
        for (size_t b = a; b > 0 && mpz_cmp(out->trees.trees[order[b]].weight,
                                            out->trees.trees[order[b - 1]].weight) > 0; b--) {
            size_t x = order[b];
            order[b] = order[b - 1];
            order[b - 1] = x;
        }
    mpz_set_ui(out->extra_instances, 0);
    for (size_t a = 0; a < nt; a++) {
        ssched_tree_t *t = &out->trees.trees[order[a]];
        ssched_i_sched_tree_usage(p, t, out->size, use);
        if (!ssched_i_sched_extra_fit(nr, cap, use, extra, q, r))
            continue;
        mpz_add(t->weight, t->weight, extra);
        mpz_add(total, total, extra);
        mpz_add(out->extra_instances, out->extra_instances, extra);
        mpq_set_z(q, extra);
        for (size_t i = 0; i < nr; i++) {
            mpq_mul(use[i], use[i], q);
            mpq_sub(cap[i], cap[i], use[i]);
        }
    }
    /* trees left with no instance are not part of this schedule */
    size_t kept = 0;
    for (size_t k = 0; k < nt; k++) {
        ssched_tree_t *t = &out->trees.trees[k];
        if (mpz_sgn(t->weight) == 0) {
            mpz_clear(t->weight);
            free(t->tasks);
            free(t->order);
        } else {
            out->trees.trees[kept++] = *t;
        }
    }
    out->trees.n_trees = kept;
    mpz_set(out->ops_per_period, total);
    mpz_set(out->trees.ops_per_period, total);
    mpq_set(out->period, TF);
    mpq_set_z(out->throughput, total);
    mpq_div(out->throughput, out->throughput, TF);
    out->fixed = 1;
    for (size_t i = 0; i < nr; i++) {
        mpq_clear(cap[i]);
        mpq_clear(use[i]);
    }
    free(cap); free(use); free(order);
    mpq_clears(q, T, NULL);
    mpz_clears(r, extra, total, NULL);
    return SSCHED_OK;
}

ssched_status_t ssched_i_sched_build_reduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *st, const ssched_schedule_options_t *opt,
                                   ssched_schedule_t *out, ssched_error_t *err)
{
    size_t N = pb->n_participants;
    /* Column generation hands over its master's trees; the edge LP's
     * solution is decomposed by EXTRACT_TREES. */
    ssched_status_t status = st->n_rated_trees ? ssched_trees_from_rates(p, pb, st, &out->trees, err)
                                               : ssched_trees_extract(p, pb, st, &out->trees, err);
    if (status != SSCHED_OK)
        return status;
    out->n_intervals = pb->commutative ? 0 : st->n_intervals; /* commutative: sets */
    out->intervals = ssched_i_alloc(st->n_intervals, sizeof *out->intervals);
    if (!out->intervals)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st->n_intervals)
        memcpy(out->intervals, st->intervals, st->n_intervals * sizeof *st->intervals);
    mpz_set(out->lcm_period, out->trees.period);
    if (opt->fixed_period) {
        if (mpq_sgn(opt->fixed_period) <= 0)
            return ssched_error_set(err, SSCHED_EINPUT, "options.fixed_period must be positive");
        status = fix_period(p, out, opt->fixed_period, err);
        if (status != SSCHED_OK)
            return status;
    } else {
        mpq_set_z(out->period, out->trees.period);
        mpz_set(out->ops_per_period, out->trees.ops_per_period);
    }
    /* per-period totals of the trees' tasks, merged by key */
    size_t total = 0;
    for (size_t t = 0; t < out->trees.n_trees; t++)
        total += out->trees.trees[t].n_tasks;
    entry_t *sends = ssched_i_alloc(total, sizeof *sends);
    entry_t *comps = ssched_i_alloc(total, sizeof *comps);
    sched_load_t *loads = ssched_i_alloc(total, sizeof *loads);
    out->computations = ssched_i_alloc(total, sizeof *out->computations);
    if (!sends || !comps || !loads || !out->computations) {
        free(sends); free(comps); free(loads);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    size_t ns = 0, nc = 0;
    /* commutative: the types are sets, so that the same partial result of
     * two trees (different orders) is one type */
    uint64_t *scratch = NULL;
    if (pb->commutative) {
        out->commutative = 1;
        ssched_sets_init(&out->sets, N);
        scratch = malloc(out->sets.words * sizeof *scratch);
        if (!scratch)
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < out->trees.n_trees && status == SSCHED_OK; t++) {
        const ssched_tree_t *tr = &out->trees.trees[t];
        if (mpz_sgn(tr->weight) == 0)
            continue;
        for (size_t k = 0; k < tr->n_tasks && status == SSCHED_OK; k++) {
            const ssched_tree_task_t *x = &tr->tasks[k];
            const mpz_t *w = (const mpz_t *)&tr->weight;
            size_t set[3] = {0, 0, 0}; /* read only when commutative, then set */
            if (pb->commutative &&
                (status = ssched_i_sched_tree_task_sets(&out->sets, tr, k, set, scratch, err)) != SSCHED_OK)
                break;
            if (x->kind == SSCHED_TREE_SEND)
                sends[ns++] = (entry_t){x->edge, pb->commutative ? set[0]
                                        : ssched_interval_index(N, x->k, x->m), 0, 0, w};
            else if (pb->commutative) /* a merge is unordered: smaller set index first */
                comps[nc++] = (entry_t){x->node, set[1] < set[2] ? set[1] : set[2],
                                        set[1] < set[2] ? set[2] : set[1], set[0], w};
            else
                comps[nc++] = (entry_t){x->node, x->k, x->l, x->m, w};
        }
    }
    free(scratch);
    if (status != SSCHED_OK) {
        free(sends); free(comps); free(loads);
        return status;
    }
    qsort(sends, ns, sizeof *sends, cmp_entry);
    qsort(comps, nc, sizeof *comps, cmp_entry);
    size_t n_loads = 0;
    for (size_t k = 0; k < ns; k++) {
        if (n_loads && loads[n_loads - 1].edge == sends[k].a && loads[n_loads - 1].type == sends[k].b) {
            mpq_t w;
            mpq_init(w);
            mpq_set_z(w, *sends[k].w);
            mpq_add(loads[n_loads - 1].count, loads[n_loads - 1].count, w);
            mpq_clear(w);
            continue;
        }
        sched_load_t *l = &loads[n_loads++];
        l->edge = sends[k].a;
        l->type = sends[k].b;
        mpq_init(l->count);
        mpq_set_z(l->count, *sends[k].w);
    }
    for (size_t k = 0; k < nc; k++) {
        ssched_computation_t *last = out->n_computations ? &out->computations[out->n_computations - 1] : NULL;
        if (last && last->node == comps[k].a && last->k == comps[k].b && last->l == comps[k].c &&
            last->m == comps[k].d) {
            mpz_add(last->count, last->count, *comps[k].w);
            continue;
        }
        ssched_computation_t *c = &out->computations[out->n_computations++];
        c->node = comps[k].a;
        c->k = comps[k].b;
        c->l = comps[k].c;
        c->m = comps[k].d;
        mpz_init_set(c->count, *comps[k].w);
    }
    free(sends);
    free(comps);
    status = ssched_i_sched_make_slots(p, loads, n_loads, opt->rule, out, err);
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(loads[k].count);
    free(loads);
    return status;
}
