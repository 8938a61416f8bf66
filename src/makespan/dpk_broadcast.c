/* Optimal broadcast by a dynamic program over class counts (beyond the
 * seeds: exact and polynomial for a fixed number of distinct times).
 *
 * Decomposition: a processor p of time t_i, ready at 0, that must inform a
 * set with class counts c sends its first message (no idling, Theorem 4.1)
 * to some processor q of class j, which is ready at t_i.  From then on p
 * (again free at t_i) and q inform disjoint parts a and b of the rest, in
 * parallel:
 *   B(i, 0) = 0
 *   B(i, c) = t_i + min over j with c_j > 0, a + b = c - e_j of
 *                   max(B(i, a), B(j, b)).
 * Every broadcast tree decomposes this way, so the program is exact for any
 * source, with no appeal to Theorems 4.2/4.3.
 * B(i, .) is non-decreasing in the count of the slowest non-source class:
 * dropping such a processor X and moving any leaf into X's place (the leaf
 * is no slower) delays nobody.  So, as in seed 000 Theorem 6, the split
 * along that coordinate is found by binary search for the crossover of a
 * non-decreasing and a non-increasing term. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"
#include "src/util/internal.h"

#define DPB_MAX_CELLS ((size_t)1 << 23)

typedef struct {
    const mk_classes_t *k;
    size_t nc;        /* coordinates: the non-source classes with count > 0 */
    size_t cls[64];   /* class of each coordinate (ascending time)          */
    size_t cnt[64];   /* its count                                          */
    size_t stride[64];
    size_t entries;   /* prod (cnt+1)                                        */
    int64_t *B;       /* B[i * entries + idx], i = sender class              */
    uint32_t *arg_a;  /* index of the part a the sender keeps                */
    uint8_t *arg_q;   /* coordinate of the first receiver                    */
    uint64_t refs;
} dpb_t;

/* Pair evaluations, roughly: sender classes x receiver classes x, over all
 * entries, the enumerated prefixes times a binary search. */
uint64_t ssched_i_mk_dpk_broadcast_work(const mk_classes_t *k)
{
    size_t nc = 0;
    for (size_t i = 0; i < k->k; i++)
        nc += k->count[i] > 0;
    long double w = (long double)k->k * (long double)nc;
    for (size_t i = 0, seen = 0; i < k->k; i++) {
        if (!k->count[i])
            continue;
        long double ci = (long double)k->count[i];
        w *= ++seen < nc ? (ci + 1) * (ci + 2) / 2 : (ci + 1) * 8;
    }
    return w >= 1.8e19L ? UINT64_MAX : (uint64_t)w;
}

/* The table B(i, .) of sender class i. */
static int64_t *row(const dpb_t *d, size_t i) { return d->B + i * d->entries; }

/* min over a <= cr of max(B(i, a), B(j, cr - a)) for the class j of the
 * first receiver; last coordinate by binary search (see file comment). */
static int64_t best_split(dpb_t *d, size_t i, size_t j, const size_t *cr, size_t icr,
                          uint32_t *arg)
{
    size_t last = d->nc - 1, sl = d->stride[last], a[64];
    const int64_t *Bi = row(d, i), *Bj = row(d, j);
    memset(a, 0, d->nc * sizeof *a);
    size_t ia = 0;
    int64_t best = MK_INF;
    for (;;) {
        size_t ib = icr - ia - cr[last] * sl; /* complement prefix, last coord 0 */
        size_t pick;
        int64_t v = ssched_i_mk_crossover(Bi + ia, Bj + ib, cr[last], sl, &pick, &d->refs);
        if (v < best) {
            best = v;
            *arg = (uint32_t)(ia + pick * sl);
        }
        if (!ssched_i_mk_odometer_next(a, cr, d->stride, last, &ia))
            break;
    }
    return best;
}

/* Fill B for every sender class, entries in index order (every part a,
 * b of an entry has a smaller index).  For each sender class i and entry
 * c, try every class of first receiver and keep the best split. */
static void fill(dpb_t *d)
{
    size_t k = d->k->k, c[64];
    for (size_t i = 0; i < k; i++)
        row(d, i)[0] = 0;
    for (size_t idx = 1; idx < d->entries; idx++) {
        size_t rest = idx;
        for (size_t q = d->nc; q-- > 0;) {
            c[q] = rest / d->stride[q];
            rest %= d->stride[q];
        }
        for (size_t i = 0; i < k; i++) {
            int64_t best = MK_INF;
            uint32_t barg = 0;
            uint8_t bq = 0;
            for (size_t q = 0; q < d->nc; q++) {
                if (!c[q])
                    continue;
                c[q]--;
                uint32_t arg = 0;
                int64_t v = best_split(d, i, d->cls[q], c, idx - d->stride[q], &arg);
                c[q]++;
                if (v < best) {
                    best = v;
                    barg = arg;
                    bq = (uint8_t)q;
                }
            }
            row(d, i)[idx] = d->k->tick[i] + best;
            d->arg_a[i * d->entries + idx] = barg;
            d->arg_q[i * d->entries + idx] = bq;
        }
    }
}

typedef struct {
    const dpb_t *d;
    const ssched_mk_cluster_t *c;
    size_t *used;
    ssched_mk_schedule_t *out;
    size_t next;
} rebuild_t;

/* Processor p (class i), ready at `ready`, informs the set of entry idx. */
static void build(rebuild_t *r, size_t p, size_t i, size_t idx, const mpq_t ready)
{
    if (idx == 0)
        return;
    const dpb_t *d = r->d;
    const mk_classes_t *k = d->k;
    size_t q = d->arg_q[i * d->entries + idx], ia = d->arg_a[i * d->entries + idx];
    size_t j = d->cls[q];
    size_t recv = k->member[k->first[j] + r->used[j]++];
    ssched_mk_message_t *msg = &r->out->msg[r->next++];
    msg->sender = p;
    msg->receiver = recv;
    mpq_set(msg->start, ready);
    mpq_add(msg->end, ready, r->c->time[p]);
    if (mpq_cmp(msg->end, r->out->makespan) > 0)
        mpq_set(r->out->makespan, msg->end);
    /* Both are free again when the message ends (the array never moves). */
    size_t icr = idx - d->stride[q];
    build(r, p, i, ia, msg->end);
    build(r, recv, j, icr - ia, msg->end);
}

/* See makespan.h: coordinates are the non-source classes present; the
 * table is filled for every sender class, then the optimal tree is rebuilt
 * from the source and timed exactly. */
ssched_status_t ssched_mk_broadcast_dpk(const ssched_mk_cluster_t *c, size_t src,
                                        ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                        ssched_error_t *err)
{
    ssched_i_mk_stats_reset(stats, "dpk");
    mk_classes_t k;
    int done;
    ssched_status_t st = ssched_i_mk_classes_begin(c, src, 1, &k, out, &done, err);
    if (st != SSCHED_OK || done)
        return st;
    size_t m = c->n - 1;
    dpb_t d = {0};
    d.k = &k;
    d.entries = 1;
    for (size_t i = 0; i < k.k && st == SSCHED_OK; i++) {
        if (!k.count[i])
            continue;
        if (d.nc == 64 || k.k > 255 ||
            d.entries > DPB_MAX_CELLS / k.k / (k.count[i] + 1)) {
            st = ssched_i_mk_dpk_too_big(&k, err);
            break;
        }
        d.cls[d.nc] = i;
        d.cnt[d.nc] = k.count[i];
        d.stride[d.nc] = d.entries;
        d.entries *= k.count[i] + 1;
        d.nc++;
    }
    size_t *used = ssched_i_calloc(k.k, sizeof *used);
    if (st == SSCHED_OK) {
        d.B = malloc(k.k * d.entries * sizeof *d.B);
        d.arg_a = malloc(k.k * d.entries * sizeof *d.arg_a);
        d.arg_q = malloc(k.k * d.entries * sizeof *d.arg_q);
        if (!d.B || !d.arg_a || !d.arg_q || !used)
            st = ssched_i_mk_nomem(err);
    }
    if (st == SSCHED_OK)
        st = ssched_mk_schedule_alloc(out, SSCHED_MK_BROADCAST, c->n, src, m, err);
    if (st == SSCHED_OK) {
        fill(&d);
        rebuild_t r = {&d, c, used, out, 0};
        mpq_t zero;
        mpq_init(zero);
        build(&r, src, k.cls[src], d.entries - 1, zero);
        mpq_clear(zero);
        ssched_i_mk_sort_messages(out);
        if (!ssched_i_mk_mpq_equals_ticks(out->makespan, row(&d, k.cls[src])[d.entries - 1], k.scale))
            st = ssched_error_set(err, SSCHED_EINTERNAL, "broadcast dpk: rebuilt tree disagrees");
        if (stats) {
            stats->refs = d.refs;
            stats->cells = k.k * d.entries;
        }
    }
    free(d.B);
    free(d.arg_a);
    free(d.arg_q);
    free(used);
    ssched_i_mk_classes_free(&k);
    return st;
}
