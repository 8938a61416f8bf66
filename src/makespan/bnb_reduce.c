/* Optimal reduce by branch-and-bound over earliest-possible sequences
 * (seed 000 §6.2).
 *
 * Every valid schedule can be turned into an EP schedule no longer than it
 * (§3), and an EP schedule is fixed by its sender sequence, so the optimum
 * is the best EP sequence.  Processors of equal time are interchangeable:
 * the search tree is over sequences of time classes (this is also the tree
 * whose size N the seed's Table 1 reports).  A node is a prefix; EP is
 * incremental, so each child costs O(n).
 *
 * Techniques (options):
 *  - theory_order: children slowest class first, so the first leaf is SNF;
 *  - theory_prune (Corollary 1 / Lemma 2): a sender may not start at a time
 *    when a FASTER sender completes.  Sound: if q ends at s(p) and
 *    t(p) > t(q), exchanging them (p in q's window, q right after p) keeps
 *    the schedule valid with the same end (Lemma 2), and the resulting
 *    sequence is lexicographically slower-first; so the lexicographically
 *    slowest-first optimal sequence never shows the pattern;
 *  - bound: prune a prefix whose lower bound reaches the best makespan found;
 *    the partial cost (latest end so far) or, with strong_bound, also the
 *    relaxation in which every remaining transfer lasts the smallest
 *    remaining time: merging the free processors and the pending completions
 *    two at a time, earliest first, is then optimal (max(a,b)+c merging);
 *  - symmetry: senders starting at the same instant lead to the same state
 *    in any order, so only slowest-first order is explored among them. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

typedef struct {
    int64_t end, tick;
} act_t;

typedef struct {
    int64_t time;      /* EP clock: start time of the next sender if free >= 2 */
    int64_t batch_min; /* fastest tick among transfers ending at `time`       */
    int64_t maxend;    /* partial cost: latest end so far                      */
    size_t free;       /* free processors (seed 000 Fig. 2)                    */
    size_t nact;       /* active transfers, act sorted by end                  */
    size_t last_cls;   /* class of the last sender                             */
} rstate_t;

typedef struct {
    const mk_classes_t *k;
    const ssched_mk_bnb_options_t *opt;
    size_t m, cap;
    size_t *remain, *order, *seq, *best_seq;
    rstate_t *st;
    act_t *act;        /* (m+1) x cap */
    int64_t *q1, *q2;  /* merge-bound queues */
    int64_t best;
    uint64_t nodes, leaves;
    int stopped;
} rsearch_t;

/* Lower bound of the strong relaxation (see the file comment). */
static int64_t merge_bound(rsearch_t *S, const rstate_t *t, const act_t *act, int64_t tmin)
{
    size_t n1 = 0, h1 = 0, n2 = 0, h2 = 0;
    for (size_t i = 0; i < t->free; i++)
        S->q1[n1++] = t->time;
    for (size_t i = 0; i < t->nact; i++)
        S->q1[n1++] = act[i].end;
    int64_t last = t->maxend;
    while ((n1 - h1) + (n2 - h2) >= 2) {
        int64_t x[2];
        for (int j = 0; j < 2; j++) {
            if (h2 < n2 && (h1 >= n1 || S->q2[h2] < S->q1[h1]))
                x[j] = S->q2[h2++];
            else
                x[j] = S->q1[h1++];
        }
        last = x[1] + tmin; /* x[1] >= x[0] */
        S->q2[n2++] = last;
    }
    return last;
}

/* Lower bound of a prefix state; the prefix's remaining counts are in
 * S->remain. */
static int64_t bound(rsearch_t *S, const rstate_t *t, const act_t *act)
{
    int64_t lb = t->maxend;
    if (!S->opt->strong_bound)
        return lb;
    int64_t tmin = MK_INF, tmax = 0;
    for (size_t j = 0; j < S->k->k; j++)
        if (S->remain[j]) {
            if (S->k->tick[j] < tmin)
                tmin = S->k->tick[j];
            tmax = S->k->tick[j];
        }
    if (tmin == MK_INF)
        return lb;
    if (t->time + tmax > lb)
        lb = t->time + tmax;
    int64_t mb = merge_bound(S, t, act, tmin);
    return mb > lb ? mb : lb;
}

/* State after appending class j to the prefix of state d; returns 0 if
 * Corollary 1 rejects it. */
static int extend(rsearch_t *S, size_t d, size_t j)
{
    const rstate_t *s = &S->st[d];
    rstate_t *t = &S->st[d + 1];
    const act_t *a = S->act + d * S->cap;
    act_t *b = S->act + (d + 1) * S->cap;
    *t = *s;
    size_t h = 0; /* act[h..] still active */
    while (t->free < 2) {
        /* EP: jump to the next completion; all transfers ending then free
         * their receivers together. */
        int64_t e = a[h].end, fastest = MK_INF;
        while (h < s->nact && a[h].end == e) {
            if (a[h].tick < fastest)
                fastest = a[h].tick;
            h++;
            t->free++;
        }
        t->time = e;
        t->batch_min = fastest;
    }
    int64_t tick = S->k->tick[j];
    if (S->opt->theory_prune && t->time > 0 && tick > t->batch_min)
        return 0;
    int64_t end = t->time + tick;
    size_t o = 0;
    int placed = 0;
    for (size_t i = h; i < s->nact; i++) { /* insert keeping ends sorted */
        if (!placed && a[i].end > end) {
            b[o++] = (act_t){end, tick};
            placed = 1;
        }
        b[o++] = a[i];
    }
    if (!placed)
        b[o++] = (act_t){end, tick};
    t->nact = o;
    t->free -= 2;
    if (end > t->maxend)
        t->maxend = end;
    t->last_cls = j;
    return 1;
}

/* Depth-first search below the prefix of length d (state S->st[d]):
 * children in the chosen class order, each evaluated (counted as a node),
 * pruned by Corollary 1 / symmetry / the bound against the best leaf. */
static void dfs(rsearch_t *S, size_t d)
{
    const mk_classes_t *k = S->k;
    for (size_t r = 0; r < k->k && !S->stopped; r++) {
        size_t j = S->order[r];
        if (!S->remain[j])
            continue;
        /* Symmetry: the next sender starts now (free >= 2) like the last one. */
        if (S->opt->symmetry && d > 0 && S->st[d].free >= 2 && j > S->st[d].last_cls)
            continue;
        if (S->opt->max_nodes && S->nodes >= S->opt->max_nodes) {
            S->stopped = 1;
            return;
        }
        if (++S->nodes % (1u << 12) == 0 && S->opt->progress)
            S->opt->progress(S->opt->progress_ctx, S->nodes);
        if (!extend(S, d, j))
            continue;
        S->seq[d] = j;
        S->remain[j]--;
        const rstate_t *t = &S->st[d + 1];
        if (d + 1 == S->m) {
            S->leaves++;
            if (t->maxend < S->best) {
                S->best = t->maxend;
                memcpy(S->best_seq, S->seq, S->m * sizeof *S->seq);
            }
        } else if (bound(S, t, S->act + (d + 1) * S->cap) < S->best) {
            dfs(S, d + 1);
        }
        S->remain[j]++;
    }
}

long double ssched_i_mk_bnb_reduce_bytes(size_t n)
{
    /* the allocations of ssched_mk_reduce_bnb below, m = n - 1 senders */
    long double m = n ? (long double)n - 1 : 0, cap = m / 2 + 2;
    return (m + 1) * cap * sizeof(act_t) + (m + 1) * sizeof(rstate_t) +
           m * 3 * sizeof(size_t) + ((long double)n + 1) * 2 * sizeof(int64_t);
}

/* See makespan.h: run the search on classes, then map the best class
 * sequence to processors and rebuild its EP schedule exactly. */
ssched_status_t ssched_mk_reduce_bnb(const ssched_mk_cluster_t *c, size_t dest,
                                     const ssched_mk_bnb_options_t *opt,
                                     ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                     ssched_error_t *err)
{
    ssched_i_mk_stats_reset(stats, "bnb");
    ssched_mk_bnb_options_t dflt;
    if (!opt) {
        ssched_mk_bnb_options(&dflt, SSCHED_MK_BNB_FULL);
        opt = &dflt;
    }
    mk_classes_t k;
    ssched_status_t st = ssched_i_mk_classes_build(c, dest, 0, "destination", &k, err);
    if (st != SSCHED_OK)
        return st;
    size_t m = c->n - 1;
    if (m == 0) {
        ssched_i_mk_classes_free(&k);
        return ssched_mk_schedule_alloc(out, SSCHED_MK_REDUCE, c->n, dest, 0, err);
    }
    rsearch_t S = {0};
    S.k = &k;
    S.opt = opt;
    S.m = m;
    S.cap = m / 2 + 2;
    S.best = MK_INF;
    S.remain = malloc(k.k * sizeof *S.remain);
    S.order = malloc(k.k * sizeof *S.order);
    S.seq = malloc(m * sizeof *S.seq);
    S.best_seq = malloc(m * sizeof *S.best_seq);
    S.st = malloc((m + 1) * sizeof *S.st);
    S.act = malloc((m + 1) * S.cap * sizeof *S.act);
    S.q1 = malloc((c->n + 1) * sizeof *S.q1);
    S.q2 = malloc((c->n + 1) * sizeof *S.q2);
    size_t *procs = malloc(m * sizeof *procs);
    if (!S.remain || !S.order || !S.seq || !S.best_seq || !S.st || !S.act || !S.q1 || !S.q2 ||
        !procs) {
        st = ssched_i_mk_nomem(err);
        goto done;
    }
    for (size_t j = 0; j < k.k; j++) {
        S.remain[j] = k.count[j];
        /* slowest first, or classes as they appear in the input */
        S.order[j] = opt->theory_order ? k.k - 1 - j : k.input_rank[j];
    }
    S.st[0] = (rstate_t){0, MK_INF, 0, c->n, 0, k.k};
    dfs(&S, 0);
    if (stats) {
        stats->nodes = S.nodes;
        stats->leaves = S.leaves;
        stats->complete = !S.stopped;
    }
    if (S.best == MK_INF) { /* stopped before any leaf: fall back to SNF */
        st = ssched_mk_reduce_snf(c, dest, out, err);
    } else {
        st = ssched_i_mk_classes_to_order(&k, S.best_seq, m, procs, err);
        if (st == SSCHED_OK)
            st = ssched_mk_reduce_ep(c, dest, procs, out, err);
        if (st == SSCHED_OK && !ssched_i_mk_mpq_equals_ticks(out->makespan, S.best, k.scale))
            st = ssched_error_set(err, SSCHED_EINTERNAL, "reduce bnb: EP of the best sequence disagrees");
    }
    if (st == SSCHED_OK && S.stopped)
        st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                              "reduce branch-and-bound stopped after %llu nodes; the schedule "
                              "returned is the best found, not proven optimal",
                              (unsigned long long)S.nodes);
done:
    free(S.remain);
    free(S.order);
    free(S.seq);
    free(S.best_seq);
    free(S.st);
    free(S.act);
    free(S.q1);
    free(S.q2);
    free(procs);
    ssched_i_mk_classes_free(&k);
    return st;
}
