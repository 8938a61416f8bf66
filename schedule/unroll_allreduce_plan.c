/* Short all-reduce and broadcast patterns for unrolling (ssched_unroll_plan).
 *
 * The all-reduce pattern of the certified solution has a period T, the LCM
 * of every tree's and arborescence's rate denominators: on a Tiers platform
 * T is tens of thousands of time units holding thousands of operations,
 * so K = 100 or 1000 operations fit in one period and are not pipelined
 * at all.  As the reduce planner does (tree instances apportioned by
 * rate), a pattern of n operations is built here: n tree instances and n
 * arborescence instances, first the floors of n x rate / TP, then one at
 * a time to the tree (then arborescence) whose addition keeps the busiest
 * resource (out-port, in-port, processor, link at a switch) least busy.
 * The period T' is that busiest resource's time for the chosen counts, so
 * the pattern's throughput n / T' is at most TP (equal when the rates
 * round exactly).  The schedule itself is made by the all-reduce builder
 * from a solution whose rates are these counts over T' (the same trees
 * and arborescences, the certified TP kept as the optimum the figures
 * compare with).  A broadcast or multicast is the same without trees:
 * its own pattern holds the least whole counts in the ratio of the rates,
 * which with 30-digit costs are 30-digit numbers of operations. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"

/* Resources (as ssched_i_sched_tree_usage) one instance of arborescence a uses. */
static void arb_usage(const ssched_platform_t *p, const ssched_arborescence_t *a,
                      mpq_srcptr size, mpq_t *use)
{
    for (size_t i = 0; i < ssched_i_sched_n_resources(p); i++)
        mpq_set_ui(use[i], 0, 1);
    for (size_t k = 0; k < a->n_arcs; k++)
        ssched_i_sched_edge_usage(p, a->arcs[k], size, use);
}

void ssched_i_sched_fill_rest(size_t m, size_t nr, const mpq_t *use, size_t rest, size_t *c,
                              mpq_t *load)
{
    mpq_t q, worst, best;
    mpq_inits(q, worst, best, NULL);
    for (; rest > 0; rest--) {
        size_t pick = 0;
        for (size_t t = 0; t < m; t++) {
            mpq_set_ui(worst, 0, 1);
            for (size_t i = 0; i < nr; i++) {
                mpq_add(q, load[i], use[t * nr + i]);
                if (mpq_cmp(q, worst) > 0)
                    mpq_set(worst, q);
            }
            if (t == 0 || mpq_cmp(worst, best) < 0) {
                mpq_set(best, worst);
                pick = t;
            }
        }
        c[pick]++;
        for (size_t i = 0; i < nr; i++)
            mpq_add(load[i], load[i], use[pick * nr + i]);
    }
    mpq_clears(q, worst, best, NULL);
}

/* n instances over m items of rates rate[] (sum TP) into c[], loads into
 * load[] (nr resources; use: m x nr). */
static void apportion(size_t m, const mpq_t *rate, const mpq_t tp, const mpq_t *use, size_t nr,
                      size_t n, size_t *c, mpq_t *load)
{
    if (m == 0)
        return; /* a broadcast has no trees: nothing to place (the rest
                   loop below would count n instances of item 0, which
                   is then the first arborescence: twice its load) */
    mpq_t q;
    mpq_init(q);
    size_t placed = 0;
    for (size_t t = 0; t < m; t++) {
        mpq_set_ui(q, n, 1);
        mpq_mul(q, q, rate[t]);
        mpq_div(q, q, tp);
        mpz_fdiv_q(mpq_numref(q), mpq_numref(q), mpq_denref(q));
        c[t] = mpz_get_ui(mpq_numref(q));
        placed += c[t];
        for (size_t i = 0; i < nr; i++)
            for (size_t x = 0; x < c[t]; x++)
                mpq_add(load[i], load[i], use[t * nr + i]);
    }
    ssched_i_sched_fill_rest(m, nr, use, n - placed, c, load);
    mpq_clear(q);
}

ssched_status_t ssched_i_sched_allreduce_pattern(const ssched_platform_t *p, const ssched_problem_t *pb,
                                        const ssched_steady_t *st, size_t n,
                                        ssched_schedule_t *out, ssched_error_t *err)
{
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE;
    size_t mt = all ? st->n_rated_trees : 0, ma = st->n_arborescences;
    size_t nr = ssched_i_sched_n_resources(p);
    if ((all && !mt) || !ma || n == 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "allreduce: the solution carries no rated trees and arborescences");
    mpq_t *use = malloc((mt + ma) * nr * sizeof *use), *load = malloc(nr * sizeof *load);
    mpq_t *arate = malloc(ma * sizeof *arate);
    size_t *c = calloc(mt + ma, sizeof *c);
    ssched_tree_t *trees = calloc(mt + 1, sizeof *trees);
    ssched_arborescence_t *arbs = calloc(ma, sizeof *arbs);
    mpq_t *trate = malloc((mt + 1) * sizeof *trate);
    if (!use || !load || !arate || !c || !trees || !arbs || !trate) {
        free(use); free(load); free(arate); free(c); free(trees); free(arbs); free(trate);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < (mt + ma) * nr; k++)
        mpq_init(use[k]);
    for (size_t i = 0; i < nr; i++)
        mpq_init(load[i]);
    for (size_t t = 0; t < mt; t++)
        ssched_i_sched_tree_usage(p, &st->rated_trees[t], pb->size, use + t * nr);
    for (size_t a = 0; a < ma; a++) {
        arb_usage(p, &st->arborescences[a], pb->size, use + (mt + a) * nr);
        mpq_init(arate[a]);
        mpq_set(arate[a], st->arborescences[a].weight);
    }
    apportion(mt, st->tree_rates, st->throughput, use, nr, n, c, load);
    apportion(ma, arate, st->throughput, use + mt * nr, nr, n, c + mt, load);
    /* routed: better whole tree counts by branch and bound over the
     * arborescences' loads (unroll_pack_counts.c); loads recomputed exactly */
    if (p->routes && mt > 0) {
        mpq_t *base = malloc(nr * sizeof *base);
        if (base) {
            for (size_t i = 0; i < nr; i++) {
                mpq_init(base[i]);
                for (size_t a = 0; a < ma; a++)
                    for (size_t x = 0; x < c[mt + a]; x++)
                        mpq_add(base[i], base[i], use[(mt + a) * nr + i]);
            }
            if (ssched_i_sched_best_counts(mt, nr, use, base, n, st->throughput, c))
                for (size_t i = 0; i < nr; i++) {
                    mpq_set(load[i], base[i]);
                    for (size_t t = 0; t < mt; t++)
                        for (size_t x = 0; x < c[t]; x++)
                            mpq_add(load[i], load[i], use[t * nr + i]);
                }
            for (size_t i = 0; i < nr; i++)
                mpq_clear(base[i]);
            free(base);
        }
    }
    mpq_t period;
    mpq_init(period);
    for (size_t i = 0; i < nr; i++)
        if (mpq_cmp(load[i], period) > 0)
            mpq_set(period, load[i]);
    /* the solution the builder takes: the chosen instances over T' (the
     * trees' and arborescences' arrays are shallow copies; their rates and
     * weights are fresh numbers) */
    ssched_steady_t syn = *st;
    syn.n_flows = 0;   /* the edge rates of the optimum would only */
    syn.n_tasks = 0;   /* lengthen the period's LCM                */
    syn.n_rated_trees = syn.n_arborescences = 0;
    syn.rated_trees = trees;
    syn.tree_rates = trate;
    syn.arborescences = arbs;
    mpq_init(syn.throughput);
    mpq_set_ui(syn.throughput, n, 1);
    mpq_div(syn.throughput, syn.throughput, period);
    for (size_t t = 0; t < mt; t++) {
        if (!c[t])
            continue;
        trees[syn.n_rated_trees] = st->rated_trees[t];
        mpq_init(trate[syn.n_rated_trees]);
        mpq_set_ui(trate[syn.n_rated_trees], c[t], 1);
        mpq_div(trate[syn.n_rated_trees], trate[syn.n_rated_trees], period);
        syn.n_rated_trees++;
    }
    for (size_t a = 0; a < ma; a++) {
        if (!c[mt + a])
            continue;
        arbs[syn.n_arborescences] = st->arborescences[a];
        mpq_ptr w = arbs[syn.n_arborescences].weight;
        mpq_init(w);
        mpq_set_ui(w, c[mt + a], 1);
        mpq_div(w, w, period);
        syn.n_arborescences++;
    }
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    ssched_status_t status = mpq_sgn(period) > 0
                                 ? ssched_schedule_build(p, pb, &syn, &so, out, err)
                                 : ssched_error_set(err, SSCHED_EINTERNAL, "an empty pattern");
    if (status == SSCHED_OK) /* the figures compare with the certified optimum */
        mpq_set(out->optimal_throughput, st->throughput);
    /* the builder's period is the LCM of the rates' denominators, c / T':
     * back to the counts chosen here (a gcd apart), whatever the unit */
    if (status == SSCHED_OK)
        ssched_i_sched_shortest_pattern(out);
    for (size_t t = 0; t < syn.n_rated_trees; t++)
        mpq_clear(trate[t]);
    for (size_t a = 0; a < syn.n_arborescences; a++)
        mpq_clear(arbs[a].weight);
    for (size_t a = 0; a < ma; a++)
        mpq_clear(arate[a]);
    for (size_t k = 0; k < (mt + ma) * nr; k++)
        mpq_clear(use[k]);
    for (size_t i = 0; i < nr; i++)
        mpq_clear(load[i]);
    mpq_clears(period, syn.throughput, NULL);
    free(use); free(load); free(arate); free(c); free(trees); free(arbs); free(trate);
    return status;
}
