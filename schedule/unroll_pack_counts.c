/* Whole counts of tree instances for a short pattern (issue 23).
 *
 * A pattern of n reduce operations per period holds c_t instances of tree
 * t (sum n); its period is the busiest resource's time, max_i sum_t c_t
 * use(t, i).  The greedy apportionment (floors of n rate_t / TP, then one
 * at a time) is fast but on a routed cluster whose processors and links
 * are all nearly saturated at TP (two_clusters, cluster_fat_tree: every
 * host merges 80 % of the time) it lands 20 % above n / TP, where another
 * choice of counts sits within a few %.  This is a small integer program;
 * a depth-first branch and bound over the trees (rate order, counts from
 * the largest down), pruned by the incumbent, finds better counts within
 * a node budget and stops at the LP's bound n / TP.  Floating point only
 * searches: the caller recomputes the period exactly from the counts. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

typedef struct {
    size_t m, n;
    size_t **res;          /* per item: its resources                   */
    double **val;          /* per item: its use of each                 */
    size_t *nres;
    double *load;          /* dense, per resource                       */
    size_t *cur, *best;    /* counts                                    */
    double best_max, floor;
    long budget;
} bb_t;

static void dfs(bb_t *b, size_t t, size_t left, double cur)
{
    if (b->budget-- <= 0 || b->best_max <= b->floor * (1 + 1e-9))
        return;
    if (t + 1 == b->m || left == 0) {
        /* the last item takes what is left */
        double mx = cur;
        if (left > 0)
            for (size_t k = 0; k < b->nres[t]; k++) {
                double x = b->load[b->res[t][k]] + (double)left * b->val[t][k];
                if (x > mx)
                    mx = x;
            }
        if (mx < b->best_max * (1 - 1e-9)) {
            b->best_max = mx;
            memcpy(b->best, b->cur, b->m * sizeof *b->best);
            for (size_t u = t + 1; u < b->m; u++)
                b->best[u] = 0;
            b->best[t] = left;
        }
        return;
    }
    for (size_t c = left + 1; c-- > 0;) {
        double mx = cur;
        for (size_t k = 0; k < b->nres[t]; k++) {
            double x = b->load[b->res[t][k]] + (double)c * b->val[t][k];
            if (x > mx)
                mx = x;
        }
        if (mx >= b->best_max * (1 - 1e-9))
            continue; /* loads only grow */
        for (size_t k = 0; k < b->nres[t]; k++)
            b->load[b->res[t][k]] += (double)c * b->val[t][k];
        b->cur[t] = c;
        dfs(b, t + 1, left - c, mx);
        b->cur[t] = 0;
        for (size_t k = 0; k < b->nres[t]; k++)
            b->load[b->res[t][k]] -= (double)c * b->val[t][k];
        if (b->budget <= 0)
            return;
    }
}

int ssched_i_sched_best_counts(size_t m, size_t nr, const mpq_t *use, const mpq_t *base,
                               size_t n, mpq_srcptr tp, size_t *c)
{
    if (m == 0 || n == 0)
        return 1;
    bb_t b = {0};
    b.m = m;
    b.n = n;
    b.res = ssched_i_calloc(m, sizeof *b.res);
    b.val = ssched_i_calloc(m, sizeof *b.val);
    b.nres = ssched_i_calloc(m, sizeof *b.nres);
    b.load = ssched_i_calloc(nr, sizeof *b.load);
    b.cur = ssched_i_calloc(m, sizeof *b.cur);
    b.best = ssched_i_alloc(m, sizeof *b.best);
    int ok = b.res && b.val && b.nres && b.load && b.cur && b.best;
    for (size_t t = 0; ok && t < m; t++) {
        size_t z = 0;
        for (size_t i = 0; i < nr; i++)
            z += mpq_sgn(use[t * nr + i]) != 0;
        b.res[t] = ssched_i_alloc(z ? z : 1, sizeof **b.res);
        b.val[t] = ssched_i_alloc(z ? z : 1, sizeof **b.val);
        ok = b.res[t] && b.val[t];
        for (size_t i = 0; ok && i < nr; i++)
            if (mpq_sgn(use[t * nr + i]) != 0) {
                b.res[t][b.nres[t]] = i;
                b.val[t][b.nres[t]++] = mpq_get_d(use[t * nr + i]);
            }
    }
    if (ok) {
        double base_max = 0;
        for (size_t i = 0; base && i < nr; i++) {
            b.load[i] = mpq_get_d(base[i]);
            if (b.load[i] > base_max)
                base_max = b.load[i];
        }
        /* the incumbent: the caller's counts */
        double *tmp = ssched_i_calloc(nr, sizeof *tmp);
        ok = tmp != NULL;
        b.best_max = 0;
        for (size_t i = 0; ok && i < nr; i++)
            tmp[i] = b.load[i];
        for (size_t t = 0; ok && t < m; t++)
            for (size_t k = 0; k < b.nres[t]; k++)
                tmp[b.res[t][k]] += (double)c[t] * b.val[t][k];
        for (size_t i = 0; ok && i < nr; i++)
            if (tmp[i] > b.best_max)
                b.best_max = tmp[i];
        free(tmp);
        memcpy(b.best, c, m * sizeof *c);
        double incumbent = b.best_max;
        b.floor = mpq_sgn(tp) > 0 ? (double)n / mpq_get_d(tp) : 0;
        b.budget = 300000;
        if (ok)
            dfs(&b, 0, n, base_max);
        if (ok && b.best_max < incumbent * (1 - 1e-9))
            memcpy(c, b.best, m * sizeof *c);
    }
    for (size_t t = 0; t < m; t++) {
        if (b.res)
            free(b.res[t]);
        if (b.val)
            free(b.val[t]);
    }
    free(b.res); free(b.val); free(b.nres); free(b.load); free(b.cur); free(b.best);
    return ok;
}

/* (moved from unroll_plan.c, whose candidate periods it makes) */
/* Reduce: periods that fit n tree instances tightly.  The n instances are
 * apportioned to the trees by their rates (floors, then one at a time to
 * the tree whose addition keeps the busiest resource least busy); the
 * period is then that busiest resource's time.  The fixed-period builder,
 * given this period, finds at least as good counts or better ones, with no
 * slack lost to floors of w(T) TF / T. Appends to tf[] (up to cap). */
size_t ssched_i_sched_apportioned_periods(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_t *steady, mpq_t *tf, size_t cap)
{
    static const size_t ns[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64,
                                       96, 128, 192, 256};
    ssched_trees_t trees;
    ssched_trees_init(&trees);
    size_t got = 0;
    if ((steady->n_rated_trees ? ssched_trees_from_rates(p, pb, steady, &trees, NULL)
                               : ssched_trees_extract(p, pb, steady, &trees, NULL)) != SSCHED_OK ||
        trees.n_trees == 0) {
        ssched_trees_free(&trees);
        return 0;
    }
    size_t nt = trees.n_trees, nr = ssched_i_sched_n_resources(p);
    mpq_t *use = malloc(nt * nr * sizeof *use), *load = malloc(nr * sizeof *load);
    size_t *c = malloc(nt * sizeof *c);
    if (!use || !load || !c) {
        free(use); free(load); free(c);
        ssched_trees_free(&trees);
        return 0;
    }
    for (size_t k = 0; k < nt * nr; k++)
        mpq_init(use[k]);
    for (size_t i = 0; i < nr; i++)
        mpq_init(load[i]);
    for (size_t t = 0; t < nt; t++)
        ssched_i_sched_tree_usage(p, &trees.trees[t], pb->size, use + t * nr);
    mpq_t q, worst;
    mpq_inits(q, worst, NULL);
    mpz_t f;
    mpz_init(f);
    for (size_t a = 0; a < sizeof ns / sizeof *ns && got < cap; a++) {
        size_t n = ns[a], placed = 0;
        for (size_t i = 0; i < nr; i++)
            mpq_set_ui(load[i], 0, 1);
        for (size_t t = 0; t < nt; t++) { /* floors of n w(T) / sum w */
            mpz_mul_ui(f, trees.trees[t].weight, n);
            mpz_fdiv_q(f, f, trees.ops_per_period);
            c[t] = mpz_get_ui(f);
            placed += c[t];
            mpq_set_z(q, f);
            for (size_t i = 0; i < nr; i++) {
                mpq_t u;
                mpq_init(u);
                mpq_mul(u, use[t * nr + i], q);
                mpq_add(load[i], load[i], u);
                mpq_clear(u);
            }
        }
        ssched_i_sched_fill_rest(nt, nr, use, n - placed, c, load); /* the rest, one by one */
        /* routed: better whole counts by branch and bound (unroll_pack_counts.c),
         * the period then recomputed exactly from them */
        if (p->routes && ssched_i_sched_best_counts(nt, nr, use, NULL, n, steady->throughput, c))
            for (size_t i = 0; i < nr; i++) {
                mpq_set_ui(load[i], 0, 1);
                for (size_t t = 0; t < nt; t++)
                    for (size_t x = 0; x < c[t]; x++)
                        mpq_add(load[i], load[i], use[t * nr + i]);
            }
        mpq_set_ui(worst, 0, 1);
        for (size_t i = 0; i < nr; i++)
            if (mpq_cmp(load[i], worst) > 0)
                mpq_set(worst, load[i]);
        if (mpq_sgn(worst) > 0)
            mpq_set(tf[got++], worst);
    }
    mpz_clear(f);
    mpq_clears(q, worst, NULL);
    for (size_t k = 0; k < nt * nr; k++)
        mpq_clear(use[k]);
    for (size_t i = 0; i < nr; i++)
        mpq_clear(load[i]);
    free(use); free(load); free(c);
    ssched_trees_free(&trees);
    return got;
}
