/* Optimal reduce for k classes of processors (seed 000 §5.3.5, Theorem 6).
 *
 * T(c) for a vector c of class counts is the minimum critical path of a
 * reduction tree holding c_i nodes of weight t_i.  As in (2), by
 * Observation 1 the root is a node of the fastest class r present in c:
 *   T(c) = t_r + min over a <= c - e_r of max(T(a), T(c - e_r - a)),
 *   T(c) = ceil(log2(c_i+1)) t_i when only class i is present        (3)
 * Lemma 4 holds for the slowest class (removing a slowest leaf never
 * lengthens the critical path), so along that coordinate the two terms
 * cross once and a binary search finds the best split (eq. (4)); the other
 * k-1 coordinates are enumerated.  The table is indexed in mixed radix
 * (count_i + 1), so every sub-vector has a smaller index than its vector
 * and the table fills in index order. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

#define DPK_MAX_ENTRIES ((size_t)1 << 23)
#define SINGLE_CLASS UINT32_MAX /* arg marker: balanced single-class tree */

typedef struct {
    const mk_classes_t *k;
    size_t entries;
    size_t *stride;
    int64_t *T;
    uint32_t *arg; /* index of the left sub-vector a of the optimal split */
    uint64_t refs;
} dpk_t;

static int64_t ceil_log2(size_t x)
{
    int64_t h = 0;
    while (((size_t)1 << h) < x)
        h++;
    return h;
}

/* c = the count vector of table index idx (mixed radix count_i + 1). */
static void decode(const dpk_t *d, size_t idx, size_t *c)
{
    for (size_t i = d->k->k; i-- > 0;) {
        c[i] = idx / d->stride[i];
        idx %= d->stride[i];
    }
}

uint64_t ssched_i_mk_dpk_reduce_work(const mk_classes_t *k)
{
    /* sum over entries c of prod_{i<k-1}(c_i+1) * log2(c_last+2): the
     * enumerated prefixes times the binary search. */
    long double w = 1;
    for (size_t i = 0; i < k->k; i++) {
        long double ci = (long double)k->count[i];
        if (i + 1 < k->k)
            w *= (ci + 1) * (ci + 2) / 2;
        else
            w *= (ci + 1) * (ceil_log2(k->count[i] + 2) + 2);
    }
    return w >= 1.8e19L ? UINT64_MAX : (uint64_t)w;
}

/* Best split of entry c (counts, with the root already removed into cr =
 * c - e_r, index icr): enumerate the first k-1 coordinates of a, halve by
 * symmetry, and binary-search the crossover on the last (slowest) one. */
static int64_t best_split(dpk_t *d, const size_t *cr, size_t icr, uint32_t *arg)
{
    size_t k = d->k->k, last = k - 1;
    size_t a[64]; /* k <= 64 is enforced by the caller */
    memset(a, 0, k * sizeof *a);
    size_t ia = 0; /* index of a restricted to the first k-1 coordinates */
    size_t sl = d->stride[last];
    int64_t best = MK_INF;
    for (;;) {
        size_t ib = icr - ia - cr[last] * sl; /* mirror prefix, last coord 0 */
        /* Symmetry: (a, c-a) and (c-a, a) are the same pair. */
        if (ia <= ib) {
            /* left(x) = T(a' + x e_last), right(x) = T(c' - a' + (cr_last - x) e_last) */
            size_t pick;
            int64_t v = ssched_i_mk_crossover(d->T + ia, d->T + ib, cr[last], sl, &pick, &d->refs);
            if (v < best) {
                best = v;
                *arg = (uint32_t)(ia + pick * sl);
            }
        }
        /* Next prefix a' (odometer over coordinates 0..k-2). */
        if (!ssched_i_mk_odometer_next(a, cr, d->stride, last, &ia))
            break;
    }
    return best;
}

/* Fill T in index order (sub-vectors first).  Entry c: 0 if empty, eq. (3)
 * if one class only, else the fastest present class as root plus the best
 * split of the rest; arg keeps that split for the rebuild. */
static void fill(dpk_t *d)
{
    size_t k = d->k->k;
    size_t c[64];
    d->T[0] = 0;
    d->arg[0] = 0;
    for (size_t idx = 1; idx < d->entries; idx++) {
        decode(d, idx, c);
        size_t r = 0, present = 0;
        while (c[r] == 0)
            r++;
        for (size_t i = 0; i < k; i++)
            present += c[i] > 0;
        if (present == 1) { /* (3) */
            d->T[idx] = ceil_log2(c[r] + 1) * d->k->tick[r];
            d->arg[idx] = SINGLE_CLASS;
            continue;
        }
        c[r]--;
        uint32_t arg = 0;
        int64_t inner = best_split(d, c, idx - d->stride[r], &arg);
        d->T[idx] = d->k->tick[r] + inner;
        d->arg[idx] = arg;
    }
}

typedef struct {
    const dpk_t *d;
    size_t *used; /* members of each class already placed */
    size_t *sender;
    long *kid0, *kid1;
    size_t next;
} rebuild_t;

/* The next unused processor of class cls. */
static size_t take(rebuild_t *r, size_t cls)
{
    const mk_classes_t *k = r->d->k;
    return k->member[k->first[cls] + r->used[cls]++];
}

/* A balanced tree of cnt processors of one class (eq. (3)); its root or -1. */
static long build_single(rebuild_t *r, size_t cls, size_t cnt)
{
    if (cnt == 0)
        return -1;
    size_t left = (cnt - 1) / 2;
    long a = build_single(r, cls, left), b = build_single(r, cls, cnt - 1 - left);
    size_t v = r->next++;
    r->sender[v] = take(r, cls);
    r->kid0[v] = a;
    r->kid1[v] = b;
    return (long)v;
}

/* The optimal tree of entry idx, children numbered before parents. */
static long build(rebuild_t *r, size_t idx)
{
    if (idx == 0)
        return -1;
    size_t c[64];
    decode(r->d, idx, c);
    size_t cls = 0;
    while (c[cls] == 0)
        cls++;
    if (r->d->arg[idx] == SINGLE_CLASS)
        return build_single(r, cls, c[cls]);
    size_t ia = r->d->arg[idx], icr = idx - r->d->stride[cls];
    long a = build(r, ia), b = build(r, icr - ia);
    size_t v = r->next++;
    r->sender[v] = take(r, cls);
    r->kid0[v] = a;
    r->kid1[v] = b;
    return (long)v;
}

/* See makespan.h: fill the table up to the cluster's counts, rebuild the
 * optimal tree from the stored splits and time it exactly. */
ssched_status_t ssched_mk_reduce_dpk(const ssched_mk_cluster_t *c, size_t dest,
                                     ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                     ssched_error_t *err)
{
    ssched_i_mk_stats_reset(stats, "dpk");
    mk_classes_t k;
    int done;
    ssched_status_t st = ssched_i_mk_classes_begin(c, dest, 0, &k, out, &done, err);
    if (st != SSCHED_OK || done)
        return st;
    size_t m = c->n - 1;
    dpk_t d = {&k, 1, NULL, NULL, NULL, 0};
    for (size_t i = 0; i < k.k && st == SSCHED_OK; i++) {
        if (k.k > 64 || d.entries > DPK_MAX_ENTRIES / (k.count[i] + 1))
            st = ssched_i_mk_dpk_too_big(&k, err);
        else
            d.entries *= k.count[i] + 1;
    }
    if (st != SSCHED_OK) {
        ssched_i_mk_classes_free(&k);
        return st;
    }
    d.stride = malloc(k.k * sizeof *d.stride);
    d.T = malloc(d.entries * sizeof *d.T);
    d.arg = malloc(d.entries * sizeof *d.arg);
    size_t *used = calloc(k.k, sizeof *used), *sender = malloc(m * sizeof *sender);
    long *kid0 = malloc(m * sizeof *kid0), *kid1 = malloc(m * sizeof *kid1);
    if (!d.stride || !d.T || !d.arg || !used || !sender || !kid0 || !kid1) {
        st = ssched_i_mk_nomem(err);
    } else {
        d.stride[0] = 1;
        for (size_t i = 1; i < k.k; i++)
            d.stride[i] = d.stride[i - 1] * (k.count[i - 1] + 1);
        fill(&d);
        rebuild_t r = {&d, used, sender, kid0, kid1, 0};
        build(&r, d.entries - 1);
        st = ssched_i_mk_reduce_from_tree(c, dest, m, sender, kid0, kid1, NULL, out, err);
        if (st == SSCHED_OK && !ssched_i_mk_mpq_equals_ticks(out->makespan, d.T[d.entries - 1], k.scale))
            st = ssched_error_set(err, SSCHED_EINTERNAL, "dpk: rebuilt tree does not match T(c)");
        if (stats) {
            stats->refs = d.refs;
            stats->cells = d.entries;
        }
    }
    free(d.stride);
    free(d.T);
    free(d.arg);
    free(used);
    free(sender);
    free(kid0);
    free(kid1);
    ssched_i_mk_classes_free(&k);
    return st;
}
