/* Routed all-reduce patterns of gathered groups (issue 23).
 *
 * On a routed cluster the all-reduce's certified TP has every participant's
 * up-link carry its value and its down-link the result, once per
 * operation (cluster_fat_tree, cluster_backbone: those links are the
 * binding rows), so every merge and every relay is a helper's (a host
 * that is neither a participant nor the root), and the root itself passes
 * each result through (its down-link takes one message per operation: it
 * cannot take the two inputs of a merge every time).  A binary merge tree
 * spends two messages of helper down-link per merge; gathering g
 * consecutive participants' values on ONE helper spends g messages for
 * g - 1 merges.  On cluster_fat_tree the binary trees of
 * unroll_pack_reduce.c leave no helper down-link for the copies' relays,
 * and no pattern of them reached TP (the best ran at 0.83 TP).
 *
 * Here operation j of a pattern of n is: the participants cut into G
 * groups of consecutive ones (sizes within one, at least 2: each group
 * merges on its helper), group g's values sent to
 * one helper H_g that merges them in order as they arrive (a chain) and
 * then with the partial result of groups 0..g-1 sent from H_{g-1}; H_{G-1}
 * sends the result to the root; then an arborescence from the root grown
 * on the same loads (grow_bcast: the root's one copy to a helper B that
 * fans out; in the latency mode each copy goes where it arrives first
 * while the loads stay within n / TP, after optional extra relays fed
 * first, so that B's copies do not leave one at a time: on
 * cluster_backbone the broadcast part of an operation took 57 ms from B
 * alone, 42 ms with one extra relay).  Each H_g is the helper whose addition keeps the
 * busiest touched resource least busy (ties: the least sum of squared
 * loads), operations one after the other on shared loads, so the groups
 * rotate over the helpers.  Floating point only searches: the pattern is
 * made by ssched_i_sched_allreduce_pattern from a steady state of these
 * trees and arborescences at rate 1 each (the exact period is the busiest
 * resource's exact time), ranked by its exact replay and checked like
 * every other candidate; the file claims the certified TP. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* A partial result: interval [k, m] on host loc, merged from left and
 * right (SIZE_MAX: a participant's value). */
typedef struct {
    size_t k, m, loc, left, right, split;
} gv_t;

/* The helper for one group: least busiest touched load (then sum of
 * squares) with the group's values sent in, its merges, the previous
 * partial sent in (prev != SIZE_MAX) and, last group, the result sent to
 * the root.  SIZE_MAX when no helper has routes for it. */
static size_t pick_host(sched_pk_t *k, const ssched_problem_t *pb, const unsigned char *helper,
                        size_t s, size_t e, size_t prev, size_t root, int last,
                        sched_touch_t *best)
{
    const ssched_platform_t *p = k->p;
    double b1 = INFINITY, b2 = INFINITY;
    size_t bh = SIZE_MAX;
    sched_touch_t t;
    for (size_t h = 0; h < p->n_nodes; h++) {
        if (!helper[h])
            continue;
        t.n = 0;
        size_t merges = e - s + (prev != SIZE_MAX);
        if (merges)
            ssched_i_sched_pk_touch(&t, 2 * p->n_nodes + h, (double)merges * mpq_get_d(p->w[h]));
        int ok = 1;
        for (size_t i = s; ok && i <= e; i++)
            ok = ssched_i_sched_pk_touch_edge(k, &t, pb->participants[i], h);
        if (ok && prev != SIZE_MAX)
            ok = ssched_i_sched_pk_touch_edge(k, &t, prev, h);
        if (ok && last)
            ok = ssched_i_sched_pk_touch_edge(k, &t, h, root);
        if (ok && ssched_i_sched_pk_keep_best(k, &t, &b1, &b2, best))
            bh = h;
    }
    return bh;
}

/* Tasks of the merge tree whose result is v[top] (pre-order from the
 * root, as the tree extraction writes them): a value is sent to its
 * consumer's host when elsewhere, then made there by its merge.  0 on
 * ENOMEM or a missing edge. */
static int emit(const sched_pk_t *k, const gv_t *v, size_t top, size_t root, size_t N,
                ssched_tree_t *tr)
{
    size_t cap = 4 * N + 2, sp = 0, x = 0;
    tr->tasks = ssched_i_alloc(cap, sizeof *tr->tasks);
    size_t *st = ssched_i_alloc(2 * N, 4 * sizeof *st); /* value, parent, depth, to */
    int ok = tr->tasks && st;
    if (ok) {
        st[0] = top;
        st[1] = SIZE_MAX;
        st[2] = 0;
        st[3] = root;
        sp = 1;
    }
    while (ok && sp > 0) {
        sp--;
        const gv_t *a = &v[st[4 * sp]];
        size_t par = st[4 * sp + 1], depth = st[4 * sp + 2], to = st[4 * sp + 3];
        if (a->loc != to) {
            size_t ed = k->edge[a->loc * k->n + to];
            if (ed == SIZE_MAX || x >= cap) {
                ok = 0;
                break;
            }
            tr->tasks[x] = (ssched_tree_task_t){SSCHED_TREE_SEND, ed, 0, a->k, 0, a->m, par, depth};
            par = x++;
            depth++;
        }
        if (a->left == SIZE_MAX)
            continue;
        if (x >= cap) {
            ok = 0;
            break;
        }
        tr->tasks[x] = (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, a->loc, a->k, a->split, a->m,
                                            par, depth};
        par = x++;
        for (int c = 0; c < 2; c++) {
            st[4 * sp] = c ? a->right : a->left;
            st[4 * sp + 1] = par;
            st[4 * sp + 2] = depth + 1;
            st[4 * sp + 3] = a->loc;
            sp++;
        }
    }
    tr->n_tasks = x;
    free(st);
    return ok;
}

/* One operation: groups placed on k->load (updated), its tree in tr. */
static int grow_op(sched_pk_t *k, const ssched_problem_t *pb, const unsigned char *helper,
                   size_t root, size_t G, gv_t *v, ssched_tree_t *tr)
{
    size_t N = pb->n_participants, nv = 0, acc = SIZE_MAX, prev = SIZE_MAX;
    memset(tr, 0, sizeof *tr);
    mpz_init_set_ui(tr->weight, 1);
    for (size_t j = 0; j < N; j++)
        v[nv++] = (gv_t){j, j, pb->participants[j], SIZE_MAX, SIZE_MAX, 0};
    for (size_t g = 0; g < G; g++) {
        size_t s = g * N / G, e = (g + 1) * N / G - 1;
        sched_touch_t t;
        size_t h = pick_host(k, pb, helper, s, e, prev, root, g + 1 == G, &t);
        if (h == SIZE_MAX)
            return 0;
        ssched_i_sched_pk_add(k, &t, 1);
        size_t cur = s;
        for (size_t i = s + 1; i <= e; i++) {
            v[nv] = (gv_t){s, i, h, cur, i, i - 1};
            cur = nv++;
        }
        if (acc != SIZE_MAX) {
            v[nv] = (gv_t){0, e, h, acc, cur, s - 1};
            cur = nv++;
        }
        acc = cur;
        prev = h;
    }
    return emit(k, v, acc, root, N, tr);
}

/* The broadcast part of one operation on k->load (updated): the root's
 * ONE copy to a helper B (its up-link carries one message per operation
 * at TP: a second copy from it would overload it, which a greedy step
 * cannot see), B chosen as if it sent every copy itself; then each
 * participant joined from a reached node other than the root, directly or
 * through a helper not reached yet, whichever keeps the busiest touched
 * resource least busy (ties: the least sum of squares); participants
 * forward only with free_fwd.  Arcs sorted by head node.  0 on ENOMEM or
 * no route. */
static int grow_bcast(sched_pk_t *k, const ssched_problem_t *pb, const unsigned char *helper,
                      size_t root, int free_fwd, double cap, size_t relays,
                      ssched_arborescence_t *a)
{
    const ssched_platform_t *p = k->p;
    size_t nn = p->n_nodes, N = pb->n_participants;
    unsigned char *reached = ssched_i_calloc(nn, 1), *part = ssched_i_calloc(nn, 1);
    /* latency mode (cap > 0): per node its copy's estimated arrival and
     * the time its way out is free again (copies leave one at a time) */
    double *ready = ssched_i_calloc(nn, sizeof *ready), *nfree = ssched_i_calloc(nn, sizeof *nfree);
    a->arcs = ssched_i_alloc(2 * N + 2 + relays, sizeof *a->arcs);
    a->n_arcs = 0;
    int ok = reached && part && ready && nfree && a->arcs;
    size_t left = 0;
    for (size_t j = 0; ok && j < N; j++)
        if (pb->participants[j] != root && !part[pb->participants[j]]) {
            part[pb->participants[j]] = 1;
            left++;
        }
    sched_touch_t t;
    /* B: chosen as if it sent every copy itself */
    size_t bb = ok ? ssched_i_sched_pk_best_relay(k, helper, NULL, root, part, &t) : SIZE_MAX;
    ok = ok && bb != SIZE_MAX;
    if (ok) {
        t.n = 0;
        ok = ssched_i_sched_pk_touch_edge(k, &t, root, bb);
        ssched_i_sched_pk_add(k, &t, 1);
        a->arcs[a->n_arcs++] = k->edge[root * nn + bb];
        reached[bb] = 1;
        reached[root] = 1;
        ready[bb] = ssched_i_sched_grow_msg_time(k, root, bb);
        nfree[bb] = ready[bb];
    }
    /* latency mode: `relays` more helpers get the copy first, each from
     * the holder whose way out is free first (B's fan-out of 6 copies
     * takes 48 ms on a cluster; with one more relay the copies go out two
     * at a time), each the helper least loaded by that arc */
    for (size_t x = 0; ok && cap > 0 && x < relays; x++) {
        size_t bu = SIZE_MAX;
        for (size_t u = 0; u < nn; u++)
            if (reached[u] && u != root && !part[u] &&
                (bu == SIZE_MAX || (ready[u] > nfree[u] ? ready[u] : nfree[u]) <
                                       (ready[bu] > nfree[bu] ? ready[bu] : nfree[bu])))
                bu = u;
        size_t bh = bu == SIZE_MAX ? SIZE_MAX
                                   : ssched_i_sched_pk_best_relay(k, helper, reached, bu, NULL, &t);
        if (bh == SIZE_MAX)
            break;
        ssched_i_sched_pk_add(k, &t, 1);
        a->arcs[a->n_arcs++] = k->edge[bu * nn + bh];
        reached[bh] = 1;
        double go = ready[bu] > nfree[bu] ? ready[bu] : nfree[bu];
        nfree[bu] = ready[bh] = nfree[bh] = go + ssched_i_sched_grow_msg_time(k, bu, bh);
    }
    /* the participants, from reached helpers (never the root: its one
     * copy went to B) */
    sched_grow_t g = {helper, free_fwd, 0, cap, ready, nfree};
    ok = ok && ssched_i_sched_pk_grow_join(k, &g, reached, part, root, left, a);
    if (ok)
        ssched_i_sched_arcs_by_head(p, a);
    free(reached);
    free(part);
    free(ready);
    free(nfree);
    return ok;
}

/* f x the loads of operation t (its tree and arborescence); 0 on ENOMEM */
static int op_add(sched_pk_t *k, const ssched_tree_t *tr, const ssched_arborescence_t *a,
                  double f)
{
    const ssched_platform_t *p = k->p;
    for (size_t x = 0; x < tr->n_tasks + a->n_arcs; x++) {
        const ssched_tree_task_t *q = x < tr->n_tasks ? &tr->tasks[x] : NULL;
        if (q && q->kind == SSCHED_TREE_COMPUTE) {
            k->load[2 * p->n_nodes + q->node] += f * mpq_get_d(p->w[q->node]);
            continue;
        }
        size_t e = q ? q->edge : a->arcs[x - tr->n_tasks];
        if (!ssched_i_sched_pk_edge_use(k, e))
            return 0;
        for (size_t i = 0; i < k->nu[e]; i++)
            k->load[k->ures[e][i]] += f * k->uval[e][i];
    }
    return 1;
}

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

/* Rip up and regrow (a few passes): each operation grown again on every
 * other one's loads, kept when the busiest load (then the sum of squared
 * loads) drops: the greedy placed the first operations blind to the
 * later ones.  0 on ENOMEM or no growth. */
static int regrow(sched_pk_t *k, const ssched_problem_t *pb, const unsigned char *helper,
                  size_t root, size_t G, int free_fwd, double cap, size_t relays, gv_t *v,
                  ssched_tree_t *trees,
                  ssched_arborescence_t *arbs, size_t n)
{
    for (int pass = 0; pass < 4; pass++) {
        int changed = 0;
        for (size_t t = 0; t < n; t++) {
            double m0, q0, m1, q1;
            score(k, &m0, &q0);
            if (!op_add(k, &trees[t], &arbs[t], -1))
                return 0;
            ssched_tree_t nt;
            ssched_arborescence_t na;
            ssched_arborescence_init(&na);
            int ok = grow_op(k, pb, helper, root, G, v, &nt);
            ok = grow_bcast(k, pb, helper, root, free_fwd, cap, relays, &na) && ok;
            score(k, &m1, &q1);
            int better = ok && ssched_i_sched_pk_lex_better(m1, q1, m0, q0);
            ssched_tree_t *drop = better ? &trees[t] : &nt;
            ssched_arborescence_t *dropa = better ? &arbs[t] : &na;
            if (ok && !better)
                op_add(k, &nt, &na, -1);
            if (!ok) { /* partly added: recount from scratch is simpler */
                free(nt.tasks);
                mpz_clear(nt.weight);
                ssched_arborescence_free(&na);
                return 0;
            }
            free(drop->tasks);
            mpz_clear(drop->weight);
            ssched_arborescence_free(dropa);
            if (better) {
                trees[t] = nt;
                arbs[t] = na;
                changed = 1;
            } else {
                op_add(k, &trees[t], &arbs[t], 1);
            }
        }
        if (!changed)
            break;
    }
    return 1;
}

ssched_status_t ssched_i_sched_ar_gather(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_t *st, size_t n, size_t groups,
                                         int flags, ssched_schedule_t *out,
                                         ssched_error_t *err)
{
    /* flags bit 0: participants forward copies; bit 1: latency mode (the
     * broadcast part joins each participant where its copy arrives
     * first among the options within the period n / TP) */
    int free_fwd = flags & 1;
    size_t relays = (size_t)(flags >> 2 & 3); /* bits 2-3: latency mode's extra relays */
    double cap = (flags & 2) && mpq_sgn(st->throughput) > 0
                     ? (double)n / mpq_get_d(st->throughput)
                     : 0;
    size_t N = pb->n_participants, nn = p->n_nodes, nr = ssched_i_sched_n_resources(p);
    size_t root = st->allreduce_root;
    if (!p->routes || pb->commutative || pb->kind != SSCHED_PROBLEM_ALLREDUCE || N < 2 ||
        n == 0 || root >= nn || groups == 0 || 2 * groups > N)
        return ssched_error_set(err, SSCHED_EINPUT, "gathered all-reduce: not a routed one");
    sched_pk_t k = {p, nn, nr, NULL, NULL, NULL, NULL, NULL, NULL, pb->size};
    k.edge = ssched_i_alloc(nn * nn, sizeof *k.edge);
    k.ures = ssched_i_calloc(p->n_edges, sizeof *k.ures);
    k.uval = ssched_i_calloc(p->n_edges, sizeof *k.uval);
    k.nu = ssched_i_calloc(p->n_edges, sizeof *k.nu);
    k.load = ssched_i_calloc(nr, sizeof *k.load);
    k.scratch = ssched_i_mpq_vec_new(nr);
    unsigned char *helper = ssched_i_calloc(nn, 1);
    gv_t *v = ssched_i_alloc(2 * N + 2, sizeof *v);
    ssched_tree_t *trees = ssched_i_calloc(n, sizeof *trees);
    ssched_arborescence_t *arbs = ssched_i_calloc(n, sizeof *arbs);
    mpq_t *rates = ssched_i_mpq_vec_new(n);
    ssched_status_t status = SSCHED_OK;
    if (!k.edge || !k.ures || !k.uval || !k.nu || !k.load || !k.scratch || !helper || !v ||
        !trees || !arbs || !rates)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t nh = 0;
    if (status == SSCHED_OK) {
        for (size_t i = 0; i < nn * nn; i++)
            k.edge[i] = SIZE_MAX;
        for (size_t e = 0; e < p->n_edges; e++)
            if (k.edge[p->from[e] * nn + p->to[e]] == SIZE_MAX)
                k.edge[p->from[e] * nn + p->to[e]] = e;
        /* helpers: hosts that compute, neither the root nor a participant */
        for (size_t h = 0; h < nn; h++)
            helper[h] = p->has_w[h] && h != root;
        for (size_t j = 0; j < N; j++)
            helper[pb->participants[j]] = 0;
        for (size_t h = 0; h < nn; h++)
            nh += helper[h];
        if (nh == 0)
            status = ssched_error_set(err, SSCHED_EINPUT, "gathered all-reduce: no helper");
    }
    for (size_t a = 0; a < n && arbs; a++)
        ssched_arborescence_init(&arbs[a]);
    size_t built = 0;
    while (status == SSCHED_OK && built < n) {
        int ok = grow_op(&k, pb, helper, root, groups, v, &trees[built]);
        ok = grow_bcast(&k, pb, helper, root, free_fwd, cap, relays, &arbs[built]) && ok;
        built++; /* freed below either way */
        if (!ok)
            status = ssched_error_set(err, SSCHED_EINPUT, "gathered all-reduce: no pattern");
    }
    if (status == SSCHED_OK && !regrow(&k, pb, helper, root, groups, free_fwd, cap, relays, v, trees, arbs, n))
        status = ssched_error_set(err, SSCHED_EINPUT, "gathered all-reduce: no pattern");
    if (status == SSCHED_OK) {
        /* every tree and arborescence at rate 1 (TP = n): the pattern
         * builder apportions exactly these counts and recounts the
         * period exactly */
        ssched_steady_t syn = *st; /* shallow: trees and arborescences differ */
        syn.n_flows = 0;
        syn.n_tasks = 0;
        syn.rated_trees = trees;
        syn.tree_rates = rates;
        syn.n_rated_trees = n;
        syn.arborescences = arbs;
        syn.n_arborescences = n;
        mpq_init(syn.throughput);
        mpq_set_ui(syn.throughput, n, 1);
        for (size_t t = 0; t < n; t++) {
            mpq_set_ui(rates[t], 1, 1);
            mpq_set_ui(arbs[t].weight, 1, 1);
        }
        status = ssched_i_sched_allreduce_pattern(p, pb, &syn, n, out, err);
        mpq_clear(syn.throughput);
        if (status == SSCHED_OK) /* the file claims the certified TP */
            mpq_set(out->optimal_throughput, st->throughput);
    }
    for (size_t t = 0; t < built; t++) {
        free(trees[t].tasks);
        free(trees[t].order);
        mpz_clear(trees[t].weight);
    }
    for (size_t a = 0; arbs && a < n; a++)
        ssched_arborescence_free(&arbs[a]);
    for (size_t e = 0; k.ures && e < p->n_edges; e++) {
        free(k.ures[e]);
        free(k.uval[e]);
    }
    ssched_i_mpq_vec_free(k.scratch, nr);
    ssched_i_mpq_vec_free(rates, n);
    free(k.edge); free(k.ures); free(k.uval); free(k.nu); free(k.load);
    free(helper); free(v); free(trees); free(arbs);
    return status;
}
