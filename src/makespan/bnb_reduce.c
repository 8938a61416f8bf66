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
    mk_bnb_t b;        /* classes, counts, sequences (mirrored.c) */
    size_t cap;
    rstate_t *st;
    act_t *act;        /* (m+1) x cap */
    int64_t *q1, *q2;  /* merge-bound queues */
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
 * S->b.remain. */
static int64_t bound(rsearch_t *S, const rstate_t *t, const act_t *act)
{
    int64_t lb = t->maxend;
    if (!S->b.opt->strong_bound)
        return lb;
    int64_t tmin = MK_INF, tmax = 0;
    for (size_t j = 0; j < S->b.k->k; j++)
        if (S->b.remain[j]) {
            if (S->b.k->tick[j] < tmin)
                tmin = S->b.k->tick[j];
            tmax = S->b.k->tick[j];
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
    int64_t tick = S->b.k->tick[j];
    if (S->b.opt->theory_prune && t->time > 0 && tick > t->batch_min)
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
    const mk_classes_t *k = S->b.k;
    for (size_t r = 0; r < k->k && !S->b.stopped; r++) {
        size_t j = S->b.order[r];
        if (!S->b.remain[j])
            continue;
        /* Symmetry: the next sender starts now (free >= 2) like the last one. */
        if (S->b.opt->symmetry && d > 0 && S->st[d].free >= 2 && j > S->st[d].last_cls)
            continue;
        if (!ssched_i_mk_bnb_visit(&S->b))
            return;
        if (!extend(S, d, j))
            continue;
        S->b.seq[d] = j;
        S->b.remain[j]--;
        const rstate_t *t = &S->st[d + 1];
        if (d + 1 == S->b.m)
            ssched_i_mk_bnb_leaf(&S->b, t->maxend);
        else if (bound(S, t, S->act + (d + 1) * S->cap) < S->b.best)
            dfs(S, d + 1);
        S->b.remain[j]++;
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
    rsearch_t S = {0};
    int done;
    ssched_status_t st = ssched_i_mk_bnb_start(&S.b, c, dest, 0, opt, out, stats, &done, err);
    if (st != SSCHED_OK || done)
        return st;
    size_t m = S.b.m;
    S.cap = m / 2 + 2;
    S.st = malloc((m + 1) * sizeof *S.st);
    S.act = malloc((m + 1) * S.cap * sizeof *S.act);
    S.q1 = malloc((c->n + 1) * sizeof *S.q1);
    S.q2 = malloc((c->n + 1) * sizeof *S.q2);
    if (!S.st || !S.act || !S.q1 || !S.q2) {
        st = ssched_i_mk_nomem(err);
    } else {
        S.st[0] = (rstate_t){0, MK_INF, 0, c->n, 0, S.b.k->k};
        dfs(&S, 0);
        st = ssched_i_mk_bnb_finish(&S.b, c, dest, out, stats, err);
    }
    free(S.st);
    free(S.act);
    free(S.q1);
    free(S.q2);
    ssched_i_mk_bnb_free(&S.b);
    return st;
}
