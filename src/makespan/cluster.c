/* Clusters, schedules, time classes and small shared helpers for the
 * makespan algorithms (see include/ssched/makespan.h). */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"
#include "src/util/internal.h"
#include "ssched/rational.h"

ssched_status_t ssched_i_mk_nomem(ssched_error_t *err)
{
    return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
}

/* ---------------------------------------------------------------- cluster */

ssched_status_t ssched_mk_cluster_init(ssched_mk_cluster_t *c, size_t n, ssched_error_t *err)
{
    c->n = 0;
    c->time = NULL;
    if (n == 0)
        return SSCHED_OK;
    c->time = malloc(n * sizeof *c->time);
    if (!c->time)
        return ssched_i_mk_nomem(err);
    for (size_t p = 0; p < n; p++)
        mpq_init(c->time[p]);
    c->n = n;
    return SSCHED_OK;
}

void ssched_mk_cluster_free(ssched_mk_cluster_t *c)
{
    if (!c)
        return;
    for (size_t p = 0; p < c->n; p++)
        mpq_clear(c->time[p]);
    free(c->time);
    c->time = NULL;
    c->n = 0;
}

/* Parse "t0,t1,..." element by element; every element must be a positive
 * exact number.  Errors name the 1-based element so the user can find it. */
ssched_status_t ssched_mk_cluster_parse(ssched_mk_cluster_t *c, const char *list,
                                        ssched_error_t *err)
{
    c->n = 0;
    c->time = NULL;
    if (!list || strspn(list, " \t") == strlen(list))
        return ssched_error_set(err, SSCHED_EINPUT, "empty list of times");
    size_t n = 1;
    for (const char *q = list; *q; q++)
        n += *q == ',';
    ssched_status_t st = ssched_mk_cluster_init(c, n, err);
    if (st != SSCHED_OK)
        return st;
    char *copy = strdup(list);
    if (!copy) {
        ssched_mk_cluster_free(c);
        return ssched_i_mk_nomem(err);
    }
    char *item = copy;
    for (size_t p = 0; p < n && st == SSCHED_OK; p++) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (strspn(item, " \t") == strlen(item)) {
            st = ssched_error_set(err, SSCHED_EINPUT, "element %zu of the list is empty", p + 1);
        } else if ((st = ssched_rational_parse(c->time[p], item, err)) != SSCHED_OK) {
            ssched_error_prefix(err, "element %zu: ", p + 1);
        } else if (mpq_sgn(c->time[p]) <= 0) {
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "element %zu ('%.40s'): time must be positive", p + 1, item);
        }
        item = comma ? comma + 1 : item + strlen(item);
    }
    free(copy);
    if (st != SSCHED_OK)
        ssched_mk_cluster_free(c);
    return st;
}

ssched_status_t ssched_mk_cluster_validate(const ssched_mk_cluster_t *c, size_t root,
                                           const char *role, ssched_error_t *err)
{
    if (!c || c->n == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "the cluster has no processor");
    for (size_t p = 0; p < c->n; p++)
        if (mpq_sgn(c->time[p]) <= 0)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "processor %zu: transmission time must be positive", p);
    if (root >= c->n)
        return ssched_error_set(err, SSCHED_EINPUT, "%s %zu out of range (processors 0..%zu)",
                                role ? role : "root", root, c->n - 1);
    return SSCHED_OK;
}

/* --------------------------------------------------------------- schedule */

void ssched_mk_schedule_init(ssched_mk_schedule_t *s)
{
    memset(s, 0, sizeof *s);
    mpq_init(s->makespan);
    mpq_init(s->reduce_makespan);
}

/* Free the messages of s, leaving it empty. */
static void release_messages(ssched_mk_schedule_t *s)
{
    for (size_t i = 0; i < s->count; i++) {
        mpq_clear(s->msg[i].start);
        mpq_clear(s->msg[i].end);
    }
    free(s->msg);
    s->msg = NULL;
    s->count = 0;
}

void ssched_mk_schedule_free(ssched_mk_schedule_t *s)
{
    if (!s)
        return;
    release_messages(s);
    mpq_clear(s->makespan);
    mpq_clear(s->reduce_makespan);
}

ssched_status_t ssched_mk_schedule_alloc(ssched_mk_schedule_t *s, ssched_mk_op_t op,
                                         size_t n, size_t root, size_t count,
                                         ssched_error_t *err)
{
    release_messages(s);
    s->op = op;
    s->n = n;
    s->root = root;
    s->exclusive = 0;
    mpq_set_ui(s->makespan, 0, 1);
    mpq_set_ui(s->reduce_makespan, 0, 1);
    if (count == 0)
        return SSCHED_OK;
    s->msg = calloc(count, sizeof *s->msg);
    if (!s->msg)
        return ssched_i_mk_nomem(err);
    for (size_t i = 0; i < count; i++) {
        mpq_init(s->msg[i].start);
        mpq_init(s->msg[i].end);
    }
    s->count = count;
    return SSCHED_OK;
}

/* Insertion-merge sort on message indices would need copies of mpq_t; a
 * stable merge sort of the structs (shallow moves are fine for GMP values
 * as long as each ends up in exactly one place) keeps ties in order. */
static void merge_sort_msgs(ssched_mk_message_t *a, ssched_mk_message_t *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort_msgs(a, tmp, h);
    merge_sort_msgs(a + h, tmp, n - h);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = mpq_cmp(a[j].start, a[i].start) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[o++] = a[i++];
    while (j < n)
        tmp[o++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

void ssched_i_mk_sort_messages(ssched_mk_schedule_t *s)
{
    if (s->count < 2)
        return;
    ssched_mk_message_t *tmp = malloc(s->count * sizeof *tmp);
    if (!tmp) { /* fall back to a stable insertion sort, no allocation */
        for (size_t i = 1; i < s->count; i++)
            for (size_t j = i; j > 0 && mpq_cmp(s->msg[j].start, s->msg[j - 1].start) < 0; j--) {
                ssched_mk_message_t t = s->msg[j];
                s->msg[j] = s->msg[j - 1];
                s->msg[j - 1] = t;
            }
        return;
    }
    merge_sort_msgs(s->msg, tmp, s->count);
    free(tmp);
}

void ssched_i_mk_stats_reset(ssched_mk_stats_t *stats, const char *method)
{
    if (!stats)
        return;
    memset(stats, 0, sizeof *stats);
    stats->method = method;
    stats->complete = 1;
}

/* ---------------------------------------------------------------- classes */

/* Set z to a non-negative int64 without assuming 64-bit longs. */
static void mpz_set_i64(mpz_t z, int64_t v)
{
    uint64_t u = (uint64_t)v;
    mpz_set_ui(z, (unsigned long)(u >> 32));
    mpz_mul_2exp(z, z, 32);
    mpz_add_ui(z, z, (unsigned long)(u & 0xffffffffu));
}

/* The value of a non-negative z < 2^63. */
static int64_t mpz_get_i64(const mpz_t z)
{
    mpz_t hi;
    mpz_init(hi);
    mpz_fdiv_q_2exp(hi, z, 32);
    uint64_t u = ((uint64_t)mpz_get_ui(hi) << 32) | (uint64_t)(mpz_get_ui(z) & 0xffffffffu);
    mpz_clear(hi);
    return (int64_t)u;
}

void ssched_i_mk_ticks_to_mpq(mpq_t out, int64_t ticks, const mpz_t scale)
{
    mpz_set_i64(mpq_numref(out), ticks);
    mpz_set(mpq_denref(out), scale);
    mpq_canonicalize(out);
}

int ssched_i_mk_mpq_equals_ticks(const mpq_t q, int64_t ticks, const mpz_t scale)
{
    mpq_t t;
    mpq_init(t);
    ssched_i_mk_ticks_to_mpq(t, ticks, scale);
    int eq = mpq_equal(q, t);
    mpq_clear(t);
    return eq;
}

static int cmp_by_time(const void *ctx, size_t p, size_t q)
{
    const ssched_mk_cluster_t *c = ctx;
    return mpq_cmp(c->time[p], c->time[q]); /* stable: ties keep index order */
}

void ssched_i_mk_classes_free(mk_classes_t *k)
{
    free(k->tick);
    free(k->count);
    free(k->first);
    free(k->member);
    free(k->cls);
    free(k->input_rank);
    mpz_clear(k->scale);
    memset(k, 0, sizeof *k);
}

/* Group the processors by equal time (ascending), scale the class times to
 * integers and check the tick bound that keeps every sum of at most ~4n
 * times below 2^62.  Processors are compared with mpq_cmp, so equal times
 * written differently ("0.5", "1/2") share a class. */
ssched_status_t ssched_i_mk_classes_build(const ssched_mk_cluster_t *c, size_t root, int with_root_time,
                                 const char *role, mk_classes_t *k, ssched_error_t *err)
{
    memset(k, 0, sizeof *k);
    mpz_init(k->scale);
    ssched_status_t st = ssched_mk_cluster_validate(c, root, role, err);
    if (st != SSCHED_OK)
        return st;
    size_t n = c->n;
    size_t *idx = malloc(n * sizeof *idx);
    k->tick = malloc(n * sizeof *k->tick);
    k->count = calloc(n, sizeof *k->count);
    k->first = calloc(n, sizeof *k->first);
    k->member = malloc(n * sizeof *k->member);
    k->cls = malloc(n * sizeof *k->cls);
    k->input_rank = malloc(n * sizeof *k->input_rank);
    if (!idx || !k->tick || !k->count || !k->first || !k->member || !k->cls || !k->input_rank) {
        free(idx);
        ssched_i_mk_classes_free(k);
        return ssched_i_mk_nomem(err);
    }
    k->n = n;
    k->root = root;
    size_t m = 0;
    for (size_t p = 0; p < n; p++)
        if (p != root || with_root_time)
            idx[m++] = p;
    if (ssched_i_mk_sort_indices(idx, m, cmp_by_time, c, err) != SSCHED_OK) {
        free(idx);
        ssched_i_mk_classes_free(k);
        return SSCHED_ENOMEM;
    }

    mpz_t lcm, t, limit;
    mpz_inits(lcm, t, limit, NULL);
    mpz_set_ui(lcm, 1);
    for (size_t i = 0; i < m; i++)
        mpz_lcm(lcm, lcm, mpq_denref(c->time[idx[i]]));
    mpz_set(k->scale, lcm);
    /* tick * 4(n+2) < 2^62 */
    mpz_set_ui(limit, 1);
    mpz_mul_2exp(limit, limit, 62);
    mpz_fdiv_q_ui(limit, limit, 4 * ((unsigned long)n + 2));

    for (size_t p = 0; p < n; p++)
        k->cls[p] = SIZE_MAX;
    size_t nk = 0;
    for (size_t i = 0; i < m && st == SSCHED_OK; i++) {
        size_t p = idx[i];
        if (i == 0 || mpq_cmp(c->time[p], c->time[idx[i - 1]]) != 0) {
            mpz_divexact(t, lcm, mpq_denref(c->time[p]));
            mpz_mul(t, t, mpq_numref(c->time[p]));
            if (mpz_cmp(t, limit) >= 0) {
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "processor %zu: times too large or too finely divided for "
                                      "the exact search (scaled to the common denominator they "
                                      "exceed 2^62/(4(n+2)))", p);
                break;
            }
            k->tick[nk++] = mpz_get_i64(t);
        }
        k->cls[p] = nk - 1;
    }
    mpz_clears(lcm, t, limit, NULL);
    if (st != SSCHED_OK) {
        free(idx);
        ssched_i_mk_classes_free(k);
        return st;
    }
    k->k = nk;
    /* Members (non-root) grouped by class, ascending index inside a class. */
    for (size_t p = 0; p < n; p++)
        if (p != root)
            k->count[k->cls[p]]++;
    for (size_t i = 1; i < nk; i++)
        k->first[i] = k->first[i - 1] + k->count[i - 1];
    size_t *fill = ssched_i_calloc(nk, sizeof *fill);
    if (!fill) {
        free(idx);
        ssched_i_mk_classes_free(k);
        return ssched_i_mk_nomem(err);
    }
    for (size_t p = 0; p < n; p++)
        if (p != root) {
            size_t i = k->cls[p];
            k->member[k->first[i] + fill[i]++] = p;
        }
    /* Generic branch-and-bound order: classes as they first appear. */
    size_t r = 0;
    for (size_t i = 0; i < nk; i++)
        fill[i] = 0;
    for (size_t p = 0; p < n; p++)
        if (p != root && !fill[k->cls[p]]) {
            fill[k->cls[p]] = 1;
            k->input_rank[r++] = k->cls[p];
        }
    for (size_t i = 0; i < nk; i++) /* root-only class last */
        if (!fill[i])
            k->input_rank[r++] = i;
    free(fill);
    free(idx);
    return SSCHED_OK;
}

ssched_status_t ssched_i_mk_classes_to_order(const mk_classes_t *k, const size_t *seq, size_t len,
                                    size_t *out, ssched_error_t *err)
{
    size_t *used = ssched_i_calloc(k->k, sizeof *used);
    if (!used)
        return ssched_i_mk_nomem(err);
    for (size_t i = 0; i < len; i++) {
        size_t j = seq[i];
        out[i] = k->member[k->first[j] + used[j]++];
    }
    free(used);
    return SSCHED_OK;
}
