/* Short reduce patterns whose merges are spread over the hosts (issue 23).
 *
 * A routed cluster's certified TP is often reached with every host
 * merging: on cluster_fat_tree (16 hosts, a merge 10 ms, 1/TP = 8 ms) an
 * operation's 7 merges need 70 ms of processor time, so at 1/TP per
 * operation they must be spread over at least 9 hosts.  The solution's
 * trees each put most merges of one operation on one host (60 ms), so a
 * short pattern of a few whole trees runs far below TP: no whole counts
 * of those trees balance the processors (unroll_pack_counts.c).
 *
 * Here the n trees of a pattern of n operations are built for it, one
 * after the other, on shared loads (per resource, as
 * ssched_i_sched_tree_usage counts them: processors, links, FATPIPE caps,
 * one-port ports): each tree is an ordered binary merge tree grown bottom
 * up, one merge at a time, choosing the pair of adjacent partial results
 * v[k,l], v[l+1,m] and the host (every host that computes, ranks or not)
 * whose addition keeps the busiest touched resource least busy, the
 * transfers of the inputs to that host and (last merge) of the result to
 * the target included.  Ties: the least sum of squared loads touched
 * (spreading), then the shallower result.  `balanced` restricts each step
 * to the pairs of least level (a tournament: depth log2 N, a shorter
 * pipeline fill) instead of every adjacent pair.  Floating point only
 * searches; the period is the busiest resource's exact time for the n
 * trees, and the pattern is made by the builders from a steady state of
 * those trees at their exact rates (1 / period each), so it is a periodic
 * schedule the unroller and the checker already know.  All-reduce: the
 * loads start from the broadcast part's arborescence instances, and the
 * pattern is built by ssched_i_sched_allreduce_pattern.  Ordered reduce
 * only (a commutative one keeps its other candidates). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* One partial result being grown: interval [k, m] on host loc. */
typedef struct {
    size_t k, m, loc, level;
    size_t left, right, split; /* children (value ids; SIZE_MAX: a leaf) */
} val_t;

/* Is [a, b] a node of the balanced binary tree over [lo, hi] (node
 * [x, y] has the children [x, mid], [mid + 1, y], mid = (x + y) / 2)?
 * Its depth, ceil(log2(hi - lo + 1)), is the least of any merge tree. */
static int balanced_node(size_t lo, size_t hi, size_t a, size_t b)
{
    while (lo < hi && a >= lo && b <= hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a == lo && b == hi)
            return 1;
        if (b <= mid)
            hi = mid;
        else if (a > mid)
            lo = mid + 1;
        else
            return 0;
    }
    return 0;
}

static int grow_tree(sched_pk_t *k, const ssched_problem_t *pb, size_t target, int balanced,
                     double keep_cap, ssched_tree_t *tr)
{
    /* balanced & 32: ties on the busiest load go to the shallower result
     * before the spreading (a shorter pipeline fill) */
    int shallow = (balanced & 32) != 0;
    const ssched_platform_t *p = k->p;
    size_t N = pb->n_participants, nv = 0;
    /* keep_cap > 0: the target keeps its own value (an end participant)
     * for the last merge, while its processor stays within keep_cap (the
     * pattern's period at TP): else the greedy sends that value out as a
     * cheap first merge and leaves the target's processor idle */
    int keep = keep_cap > 0 && p->has_w[target] &&
               (pb->participants[0] == target || pb->participants[N - 1] == target) &&
               k->load[2 * p->n_nodes + target] + mpq_get_d(p->w[target]) <=
                   keep_cap * (1 + 1e-9);
    size_t lo = keep && pb->participants[0] == target ? 1 : 0;
    size_t hi = keep && pb->participants[0] != target ? N - 2 : N - 1;
    val_t *v = ssched_i_alloc(2 * N, sizeof *v);
    size_t *cur = ssched_i_alloc(N, sizeof *cur), ncur = N;
    size_t *stack = ssched_i_alloc(2 * N, sizeof *stack);
    int ok = v && cur && stack;
    for (size_t j = 0; ok && j < N; j++) {
        v[nv] = (val_t){j, j, pb->participants[j], 0, SIZE_MAX, SIZE_MAX, 0};
        cur[j] = nv++;
    }
    sched_touch_t t, bt;
    while (ok && ncur > 1) {
        size_t minlev = SIZE_MAX;
        for (size_t i = 0; i + 1 < ncur; i++) {
            size_t la = v[cur[i]].level, lb = v[cur[i + 1]].level, lv = la > lb ? la : lb;
            /* a kept target value merges only last: its pair is no
             * tournament pair before that */
            if (keep && ncur > 2 && (v[cur[i]].loc == target || v[cur[i + 1]].loc == target))
                continue;
            if (lv < minlev)
                minlev = lv;
        }
        double b1 = INFINITY, b2 = INFINITY;
        size_t bl = SIZE_MAX, bi = SIZE_MAX, bh = SIZE_MAX;
        for (size_t i = 0; i + 1 < ncur; i++) {
            const val_t *a = &v[cur[i]], *b = &v[cur[i + 1]];
            size_t lv = (a->level > b->level ? a->level : b->level) + 1;
            if ((balanced & 1) && lv - 1 != minlev)
                continue;
            /* balanced & 64: only the merges of the balanced tree over the
             * values (a kept target value merges last, outside it): the
             * shallowest shape, the shortest fill; the hosts are still
             * chosen by load */
            if ((balanced & 64) && ncur > 2 && !balanced_node(lo, hi, a->k, b->m))
                continue;
            for (size_t h = 0; h < p->n_nodes; h++) {
                /* the target merges only the last: any earlier merge
                 * there costs it a second message in (its value goes
                 * out, or another input comes in) */
                if (!p->has_w[h] || (h == target && ncur > 2) ||
                    (keep && h != target && (a->loc == target || b->loc == target)))
                    continue;
                t.n = 0;
                ssched_i_sched_pk_touch(&t, 2 * p->n_nodes + h, mpq_get_d(p->w[h]));
                if (!ssched_i_sched_pk_touch_edge(k, &t, a->loc, h) ||
                    !ssched_i_sched_pk_touch_edge(k, &t, b->loc, h) ||
                    (ncur == 2 && !ssched_i_sched_pk_touch_edge(k, &t, h, target)))
                    continue;
                double s1, s2;
                ssched_i_sched_pk_score(k, &t, &s1, &s2);
                int better = s1 < b1 * (1 - 1e-12) ||
                             (s1 <= b1 * (1 + 1e-12) &&
                              (shallow ? (lv < bl || (lv == bl && s2 < b2 * (1 - 1e-12)))
                              : (s2 < b2 * (1 - 1e-12) || (s2 <= b2 * (1 + 1e-12) && lv < bl))));
                if (better) {
                    b1 = s1;
                    b2 = s2;
                    bl = lv;
                    bi = i;
                    bh = h;
                    bt = t;
                }
            }
        }
        if (bi == SIZE_MAX) {
            ok = 0;
            break;
        }
        for (size_t x = 0; x < bt.n; x++)
            k->load[bt.res[x]] += bt.add[x];
        v[nv] = (val_t){v[cur[bi]].k, v[cur[bi + 1]].m, bh, bl, cur[bi], cur[bi + 1],
                        v[cur[bi]].m};
        cur[bi] = nv++;
        memmove(&cur[bi + 1], &cur[bi + 2], (ncur - bi - 2) * sizeof *cur);
        ncur--;
    }
    /* pre-order from the root: a value is sent to its consumer's host
     * (when elsewhere), then made there by its merge */
    memset(tr, 0, sizeof *tr);
    mpz_init_set_ui(tr->weight, 1);
    if (ok)
        tr->tasks = ssched_i_alloc(4 * N + 2, sizeof *tr->tasks);
    ok = ok && tr->tasks;
    size_t x = 0, sp = 0;
    /* (parent, depth) per stack item */
    size_t *dest = ok ? ssched_i_alloc(2 * N, 2 * sizeof *dest) : NULL;
    size_t *host = ok ? ssched_i_alloc(2 * N, sizeof *host) : NULL;
    ok = ok && dest && host;
    if (ok) {
        stack[sp] = cur[0];
        dest[2 * sp] = SIZE_MAX;
        dest[2 * sp + 1] = 0;
        host[sp++] = target;
    }
    while (ok && sp > 0) {
        sp--;
        const val_t *a = &v[stack[sp]];
        size_t par = dest[2 * sp], depth = dest[2 * sp + 1], to = host[sp];
        if (a->loc != to) {
            tr->tasks[x] = (ssched_tree_task_t){SSCHED_TREE_SEND, k->edge[a->loc * k->n + to], 0,
                                                a->k, 0, a->m, par, depth};
            par = x++;
            depth++;
        }
        if (a->left == SIZE_MAX)
            continue;
        tr->tasks[x] = (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, a->loc, a->k, a->split, a->m,
                                            par, depth};
        par = x++;
        for (int c = 0; c < 2; c++) {
            stack[sp] = c ? a->right : a->left;
            dest[2 * sp] = par;
            dest[2 * sp + 1] = depth + 1;
            host[sp++] = a->loc;
        }
    }
    tr->n_tasks = x;
    free(v); free(cur); free(stack); free(dest); free(host);
    return ok;
}
static void tree_free(ssched_tree_t *t)
{
    free(t->tasks);
    free(t->order);
    mpz_clear(t->weight);
}

/* f x the loads of tree t (f = 1: add, -1: take away); 0 on ENOMEM. */
static int tree_add(sched_pk_t *k, const ssched_tree_t *t, double f)
{
    const ssched_platform_t *p = k->p;
    for (size_t x = 0; x < t->n_tasks; x++) {
        const ssched_tree_task_t *a = &t->tasks[x];
        if (a->kind == SSCHED_TREE_COMPUTE) {
            k->load[2 * p->n_nodes + a->node] += f * mpq_get_d(p->w[a->node]);
            continue;
        }
        if (!ssched_i_sched_pk_edge_use(k, a->edge))
            return 0;
        for (size_t i = 0; i < k->nu[a->edge]; i++)
            k->load[k->ures[a->edge][i]] += f * k->uval[a->edge][i];
    }
    return 1;
}

/* (busiest load, sum of squared loads): the search's objective */
static void score(const sched_pk_t *k, double *mx, double *sq)
{
    *mx = 0;
    *sq = 0;
    for (size_t i = 0; i < k->nr; i++) {
        if (k->load[i] > *mx)
            *mx = k->load[i];
        *sq += k->load[i] * k->load[i];
    }
}

/* Rip up and regrow (a few passes): each tree is grown again with every
 * other tree's loads known, kept when the objective improves.  The greedy
 * placed the first trees blind to the later ones. */
static void regrow(sched_pk_t *k, const ssched_problem_t *pb, size_t target, int balanced,
                   double keep_cap, ssched_tree_t *trees, size_t n)
{
    for (int pass = 0; pass < 3; pass++) {
        int changed = 0;
        for (size_t t = 0; t < n; t++) {
            double m0, q0, m1, q1;
            score(k, &m0, &q0);
            ssched_tree_t nt;
            if (!tree_add(k, &trees[t], -1))
                return;
            if (!grow_tree(k, pb, target, balanced, keep_cap, &nt)) {
                tree_free(&nt);
                tree_add(k, &trees[t], 1);
                return;
            }
            score(k, &m1, &q1);
            if (ssched_i_sched_pk_lex_better(m1, q1, m0, q0)) {
                tree_free(&trees[t]);
                trees[t] = nt;
                changed = 1;
            } else {
                tree_add(k, &nt, -1);
                tree_free(&nt);
                tree_add(k, &trees[t], 1);
            }
        }
        if (!changed)
            break;
    }
}

ssched_status_t ssched_i_sched_reduce_pack(const ssched_platform_t *p, const ssched_problem_t *pb,
                                           const ssched_steady_t *st, size_t n, int flags,
                                           ssched_schedule_t *out, ssched_error_t *err)
{
    int all = pb->kind == SSCHED_PROBLEM_ALLREDUCE, balanced = flags & 97,
        own = all && (flags & 2);
    size_t N = pb->n_participants, nn = p->n_nodes, nr = ssched_i_sched_n_resources(p);
    size_t target = all ? st->allreduce_root : pb->target;
    /* flag 16 (reduce): n/TP, the period a pattern at TP has */
    double keep_cap = !all && (flags & 16) && mpq_sgn(st->throughput) > 0
                          ? (double)n / mpq_get_d(st->throughput)
                          : 0;
    if (!p->routes || pb->commutative || N < 2 || n == 0 || target >= nn ||
        (all && st->n_arborescences == 0) ||
        (pb->kind != SSCHED_PROBLEM_REDUCE && !all))
        return ssched_error_set(err, SSCHED_EINPUT, "reduce packing: not an ordered routed reduce");
    sched_pk_t k = {p, nn, nr, NULL, NULL, NULL, NULL, NULL, NULL, pb->size};
    k.edge = ssched_i_alloc(nn * nn, sizeof *k.edge);
    k.ures = ssched_i_calloc(p->n_edges, sizeof *k.ures);
    k.uval = ssched_i_calloc(p->n_edges, sizeof *k.uval);
    k.nu = ssched_i_calloc(p->n_edges, sizeof *k.nu);
    k.load = ssched_i_calloc(nr, sizeof *k.load);
    k.scratch = ssched_i_mpq_vec_new(nr);
    ssched_tree_t *trees = ssched_i_calloc(n, sizeof *trees);
    mpq_t *rates = ssched_i_mpq_vec_new(n);
    size_t *acount = all ? ssched_i_calloc(st->n_arborescences, sizeof *acount) : NULL;
    mpq_t *use = ssched_i_mpq_vec_new(nr), *tot = ssched_i_mpq_vec_new(nr);
    ssched_status_t status = SSCHED_OK;
    if (!k.edge || !k.ures || !k.uval || !k.nu || !k.load || !k.scratch || !trees || !rates ||
        (all && !acount) || !use || !tot)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t built = 0;
    mpq_t q, period;
    mpq_inits(q, period, NULL);
    if (status == SSCHED_OK) {
        for (size_t i = 0; i < nn * nn; i++)
            k.edge[i] = SIZE_MAX;
        for (size_t e = 0; e < p->n_edges; e++)
            if (k.edge[p->from[e] * nn + p->to[e]] == SIZE_MAX)
                k.edge[p->from[e] * nn + p->to[e]] = e;
    }
    ssched_arborescence_t *oarbs = own ? ssched_i_calloc(n, sizeof *oarbs) : NULL;
    for (size_t a = 0; oarbs && a < n; a++)
        ssched_arborescence_init(&oarbs[a]);
    if (own && !oarbs && status == SSCHED_OK)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (status == SSCHED_OK && all && !own) {
        /* the broadcast part: n arborescence instances by largest
         * remainders of n y_a / sum y, their loads the base */
        mpq_t sum;
        mpq_init(sum);
        for (size_t a = 0; a < st->n_arborescences; a++)
            mpq_add(sum, sum, st->arborescences[a].weight);
        size_t placed = 0;
        double *fr = ssched_i_calloc(st->n_arborescences, sizeof *fr);
        if (!fr || mpq_sgn(sum) <= 0)
            status = ssched_error_set(err, fr ? SSCHED_EINPUT : SSCHED_ENOMEM,
                                      fr ? "reduce packing: no broadcast part" : "out of memory");
        for (size_t a = 0; status == SSCHED_OK && a < st->n_arborescences; a++) {
            mpq_set_ui(q, n, 1);
            mpq_mul(q, q, st->arborescences[a].weight);
            mpq_div(q, q, sum);
            acount[a] = (size_t)mpq_get_d(q);
            fr[a] = mpq_get_d(q) - (double)acount[a];
            placed += acount[a];
        }
        for (; status == SSCHED_OK && placed < n; placed++) {
            size_t b = 0;
            for (size_t a = 1; a < st->n_arborescences; a++)
                if (fr[a] > fr[b])
                    b = a;
            acount[b]++;
            fr[b] = -1;
        }
        for (size_t a = 0; status == SSCHED_OK && a < st->n_arborescences; a++)
            for (size_t c = 0; c < acount[a]; c++)
                for (size_t r = 0; r < st->arborescences[a].n_arcs; r++)
                    ssched_i_sched_edge_usage(p, st->arborescences[a].arcs[r], pb->size, tot);
        for (size_t i = 0; status == SSCHED_OK && i < nr; i++)
            k.load[i] = mpq_get_d(tot[i]);
        free(fr);
        mpq_clear(sum);
    }
    /* every tree ends with one message into the target (its last merge
     * there takes one input in, or the result comes in): the resources
     * every edge into the target crosses are reserved for the trees not
     * grown yet, so that no earlier merge spends them.  Own arborescences
     * likewise reserve one message out of the root and one into every
     * other participant per operation, and one out of every other
     * participant per tree (its value, which it cannot merge with
     * anything coming in: its way in carries the copy). */
    size_t nres = own ? 2 + 2 * N : 1;
    sched_touch_t *res = ssched_i_calloc(nres, sizeof *res);
    if (!res && status == SSCHED_OK)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0; status == SSCHED_OK && r < nres; r++) {
        int okr = r == 0 ? ssched_i_sched_pk_reserve(&k, target, 0, &res[r])
                  : r == 1 ? ssched_i_sched_pk_reserve(&k, target, 1, &res[r])
                  : pb->participants[(r - 2) % N] == target ? 1
                  : ssched_i_sched_pk_reserve(&k, pb->participants[(r - 2) % N], r >= 2 + N,
                                              &res[r]);
        if (!okr)
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else
            ssched_i_sched_pk_add(&k, &res[r], (double)n);
    }
    while (status == SSCHED_OK && built < n) {
        int grown = 1;
        if (own) {
            for (size_t r = 1; r < 2 + N; r++)
                ssched_i_sched_pk_add(&k, &res[r], -1);
            grown = ssched_i_sched_pk_grow_arb(&k, pb, target, (flags & 4) != 0, &oarbs[built]);
        }
        ssched_i_sched_pk_add(&k, &res[0], -1);
        for (size_t r = 2 + N; r < nres; r++)
            ssched_i_sched_pk_add(&k, &res[r], -1);
        grown = grow_tree(&k, pb, target, balanced, keep_cap, &trees[built]) && grown;
        built++; /* its weight and tasks are freed below either way */
        if (!grown)
            status = ssched_error_set(err, SSCHED_EINPUT, "reduce packing: no tree");
    }
    free(res);
    if (status == SSCHED_OK && (flags & 8))
        regrow(&k, pb, target, balanced, keep_cap, trees, n);
    /* the exact period: the busiest resource for the n trees (and arcs) */
    for (size_t t = 0; status == SSCHED_OK && t < n; t++) {
        ssched_i_sched_tree_usage(p, &trees[t], pb->size, use);
        for (size_t i = 0; i < nr; i++)
            mpq_add(tot[i], tot[i], use[i]);
    }
    for (size_t i = 0; status == SSCHED_OK && i < nr; i++)
        if (mpq_cmp(tot[i], period) > 0)
            mpq_set(period, tot[i]);
    if (status == SSCHED_OK && mpq_sgn(period) == 0)
        status = ssched_error_set(err, SSCHED_EINPUT, "reduce packing: an empty pattern");
    if (status == SSCHED_OK) {
        ssched_steady_t syn = *st; /* shallow: the trees (and rates) differ */
        syn.n_flows = 0;
        syn.n_tasks = 0;
        syn.rated_trees = trees;
        syn.tree_rates = rates;
        syn.n_rated_trees = n;
        mpq_init(syn.throughput);
        ssched_arborescence_t *arbs = NULL;
        if (all) {
            /* every tree and arborescence instance at rate 1 (TP = n): the
             * pattern builder apportions exactly these counts */
            size_t ma = own ? n : st->n_arborescences;
            arbs = ssched_i_calloc(ma, sizeof *arbs);
            syn.n_arborescences = 0;
            syn.arborescences = arbs;
            for (size_t a = 0; arbs && a < ma; a++) {
                if (!own && !acount[a])
                    continue;
                arbs[syn.n_arborescences] = own ? oarbs[a] : st->arborescences[a];
                mpq_init(arbs[syn.n_arborescences].weight);
                mpq_set_ui(arbs[syn.n_arborescences++].weight, own ? 1 : acount[a], 1);
            }
            for (size_t t = 0; t < n; t++)
                mpq_set_ui(rates[t], 1, 1);
            mpq_set_ui(syn.throughput, n, 1);
            status = arbs ? ssched_i_sched_allreduce_pattern(p, pb, &syn, n, out, err)
                          : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            for (size_t a = 0; a < syn.n_arborescences; a++)
                mpq_clear(arbs[a].weight);
            free(arbs);
        } else {
            mpq_inv(q, period);
            for (size_t t = 0; t < n; t++)
                mpq_set(rates[t], q);
            mpq_set_ui(syn.throughput, n, 1);
            mpq_div(syn.throughput, syn.throughput, period);
            ssched_schedule_options_t so;
            ssched_schedule_options_default(&so);
            status = ssched_schedule_build(p, pb, &syn, &so, out, err);
            if (status == SSCHED_OK)
                ssched_i_sched_shortest_pattern(out);
        }
        mpq_clear(syn.throughput);
        /* the file claims the problem's certified TP, not the pattern's */
        if (status == SSCHED_OK)
            mpq_set(out->optimal_throughput, st->throughput);
    }
    for (size_t t = 0; t < built; t++)
        tree_free(&trees[t]);
    for (size_t a = 0; oarbs && a < n; a++)
        ssched_arborescence_free(&oarbs[a]);
    free(oarbs);
    for (size_t e = 0; k.ures && e < p->n_edges; e++) {
        free(k.ures[e]);
        free(k.uval[e]);
    }
    ssched_i_mpq_vec_free(k.scratch, nr);
    ssched_i_mpq_vec_free(rates, n);
    ssched_i_mpq_vec_free(use, nr);
    ssched_i_mpq_vec_free(tot, nr);
    mpq_clears(q, period, NULL);
    free(k.edge); free(k.ures); free(k.uval); free(k.nu); free(k.load); free(trees); free(acount);
    return status;
}

