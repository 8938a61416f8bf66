/* What the reduce and broadcast searches share (mk_internal.h): the
 * sequence check of EP and of the broadcast re-timing, the prologue of the
 * class-based drivers, the crossover search of the class-count programs
 * and the bookkeeping of the two branch-and-bound searches.  Each pair
 * mirrors the other's algorithm on a different state; these parts do not
 * depend on the state, so they are written once. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

ssched_status_t ssched_i_mk_check_order(const ssched_mk_cluster_t *c, size_t root,
                                        const size_t *order, const char *what,
                                        const char *root_name, const char *verb,
                                        ssched_error_t *err)
{
    size_t m = c->n - 1;
    if (m > 0 && !order)
        return ssched_error_set(err, SSCHED_EINPUT, "missing %s order", what);
    unsigned char *seen = calloc(c->n, 1);
    if (!seen)
        return ssched_i_mk_nomem(err);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < m && st == SSCHED_OK; i++) {
        size_t p = order[i];
        if (p >= c->n)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "%s order position %zu: processor %zu out of range", what, i, p);
        else if (p == root)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s order position %zu: %s %zu does not %s",
                                  what, i, root_name, p, verb);
        else if (seen[p]++)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "%s order position %zu: processor %zu appears twice", what, i, p);
    }
    free(seen);
    return st;
}

ssched_status_t ssched_i_mk_classes_begin(const ssched_mk_cluster_t *c, size_t root,
                                          int broadcast, mk_classes_t *k,
                                          ssched_mk_schedule_t *out, int *done,
                                          ssched_error_t *err)
{
    *done = 1;
    ssched_status_t st = ssched_i_mk_classes_build(c, root, broadcast,
                                                   broadcast ? "source" : "destination", k, err);
    if (st != SSCHED_OK)
        return st;
    if (c->n - 1 == 0) {
        ssched_i_mk_classes_free(k);
        return ssched_mk_schedule_alloc(out, broadcast ? SSCHED_MK_BROADCAST : SSCHED_MK_REDUCE,
                                        c->n, root, 0, err);
    }
    *done = 0;
    return SSCHED_OK;
}

ssched_status_t ssched_i_mk_dpk_too_big(const mk_classes_t *k, ssched_error_t *err)
{
    return ssched_error_set(err, SSCHED_EINPUT,
                            "the class-count program would need more than 2^23 entries "
                            "(%zu distinct times); use branch-and-bound", k->k);
}

int64_t ssched_i_mk_crossover(const int64_t *L, const int64_t *R, size_t n, size_t s,
                              size_t *pick, uint64_t *refs)
{
    size_t lo = 0, hi = n;
    (*refs)++;
    int64_t l = L[0], r = R[hi * s];
    if (l >= r || hi == 0) { /* the left term dominates (or a single point) */
        *pick = 0;
        return l > r ? l : r;
    }
    int64_t vlo = r;
    (*refs)++;
    l = L[hi * s];
    r = R[0];
    if (l <= r) { /* the right term dominates */
        *pick = hi;
        return r;
    }
    int64_t vhi = l;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        (*refs)++;
        l = L[mid * s];
        r = R[(n - mid) * s];
        if (l >= r) {
            hi = mid;
            vhi = l;
        } else {
            lo = mid;
            vlo = r;
        }
    }
    *pick = vlo <= vhi ? lo : hi;
    return vlo <= vhi ? vlo : vhi;
}

int ssched_i_mk_odometer_next(size_t *a, const size_t *cr, const size_t *stride, size_t last,
                              size_t *ia)
{
    size_t i = 0;
    while (i < last && a[i] == cr[i]) {
        *ia -= a[i] * stride[i];
        a[i] = 0;
        i++;
    }
    if (i >= last)
        return 0;
    a[i]++;
    *ia += stride[i];
    return 1;
}

ssched_status_t ssched_i_mk_bnb_start(mk_bnb_t *b, const ssched_mk_cluster_t *c, size_t root,
                                      int broadcast, const ssched_mk_bnb_options_t *opt,
                                      ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                      int *done, ssched_error_t *err)
{
    memset(b, 0, sizeof *b);
    ssched_i_mk_stats_reset(stats, "bnb");
    if (!opt) {
        ssched_mk_bnb_options(&b->dflt, SSCHED_MK_BNB_FULL);
        opt = &b->dflt;
    }
    b->opt = opt;
    b->broadcast = broadcast;
    ssched_status_t st = ssched_i_mk_classes_begin(c, root, broadcast, &b->classes, out, done, err);
    if (st != SSCHED_OK || *done)
        return st;
    const mk_classes_t *k = b->k = &b->classes;
    size_t m = b->m = c->n - 1;
    b->best = MK_INF;
    b->remain = malloc((2 * k->k + 3 * m) * sizeof *b->remain);
    if (!b->remain) {
        ssched_i_mk_bnb_free(b);
        *done = 1;
        return ssched_i_mk_nomem(err);
    }
    b->order = b->remain + k->k;
    b->seq = b->order + k->k;
    b->best_seq = b->seq + m;
    b->procs = b->best_seq + m;
    for (size_t j = 0; j < k->k; j++) {
        b->remain[j] = k->count[j];
        /* fastest first (broadcast) or slowest first (reduce: the first leaf
         * is then FNF / SNF), or classes as they appear in the input */
        b->order[j] = !opt->theory_order ? k->input_rank[j] : broadcast ? j : k->k - 1 - j;
    }
    return SSCHED_OK;
}

int ssched_i_mk_bnb_visit(mk_bnb_t *b)
{
    if (b->opt->max_nodes && b->nodes >= b->opt->max_nodes) {
        b->stopped = 1;
        return 0;
    }
    if (++b->nodes % (1u << 12) == 0 && b->opt->progress)
        b->opt->progress(b->opt->progress_ctx, b->nodes);
    return 1;
}

void ssched_i_mk_bnb_leaf(mk_bnb_t *b, int64_t v)
{
    b->leaves++;
    if (v < b->best) {
        b->best = v;
        memcpy(b->best_seq, b->seq, b->m * sizeof *b->seq);
    }
}

ssched_status_t ssched_i_mk_bnb_finish(mk_bnb_t *b, const ssched_mk_cluster_t *c, size_t root,
                                       ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                       ssched_error_t *err)
{
    if (stats) {
        stats->nodes = b->nodes;
        stats->leaves = b->leaves;
        stats->complete = !b->stopped;
    }
    ssched_status_t st;
    if (b->best == MK_INF) { /* stopped before any leaf: fall back to FNF / SNF */
        st = b->broadcast ? ssched_mk_broadcast_fnf(c, root, out, err)
                          : ssched_mk_reduce_snf(c, root, out, err);
    } else {
        st = ssched_i_mk_classes_to_order(b->k, b->best_seq, b->m, b->procs, err);
        if (st == SSCHED_OK)
            st = b->broadcast ? ssched_mk_broadcast_sequence(c, root, b->procs, out, err)
                              : ssched_mk_reduce_ep(c, root, b->procs, out, err);
        if (st == SSCHED_OK && !ssched_i_mk_mpq_equals_ticks(out->makespan, b->best, b->k->scale))
            st = ssched_error_set(err, SSCHED_EINTERNAL, "%s",
                                  b->broadcast ? "broadcast bnb: the best sequence re-timed disagrees"
                                               : "reduce bnb: EP of the best sequence disagrees");
    }
    if (st == SSCHED_OK && b->stopped)
        st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                              "%s branch-and-bound stopped after %llu nodes; the schedule "
                              "returned is the best found, not proven optimal",
                              b->broadcast ? "broadcast" : "reduce", (unsigned long long)b->nodes);
    return st;
}

void ssched_i_mk_bnb_free(mk_bnb_t *b)
{
    free(b->remain); /* the block of all five arrays */
    b->remain = b->order = b->seq = b->best_seq = b->procs = NULL;
    if (b->k)
        ssched_i_mk_classes_free(&b->classes);
    b->k = NULL;
}
