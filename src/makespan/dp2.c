/* Optimal reduce for two classes of processors: the dynamic programs of
 * seed 000 §5.3.2–5.3.4 and the reference counts of its §6.3 (Tables 2–4).
 *
 * T(f, s) is the minimum critical path (MCP) of a binary tree holding f fast
 * nodes (weight t_f) and s slow nodes (weight t_s): the tree is the
 * time-reversed reduce, a node's children being the two transfers it waits
 * for (§5.3.1).  By Observation 1 the root is a fast node when f > 0:
 *   T(f, s) = t_f + min over fl+fr = f-1, sl+sr = s of max(T(fl,sl), T(fr,sr))   (2)
 *   T(0, s) = ceil(log2(s+1)) t_s                                               (3)
 * Values are kept in integer ticks (both times scaled by the LCM of their
 * denominators) and converted back exactly. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

struct ssched_mk_dp2_table {
    size_t F, S;
    int64_t tf, ts;   /* ticks                                   */
    mpz_t scale;      /* time = ticks / scale                    */
    int64_t *T;       /* T[f*(S+1)+s]                            */
    uint32_t *arg_fl; /* optimal split of (2): left fast count   */
    uint32_t *arg_sl; /*                        left slow count   */
    uint64_t *refs;   /* pair references spent on each entry     */
};

#define CELL(t, f, s) ((size_t)(f) * ((t)->S + 1) + (size_t)(s))
#define TV(t, f, s) ((t)->T[CELL(t, f, s)])

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int64_t ceil_log2(size_t x) /* smallest h with 2^h >= x, x >= 1 */
{
    int64_t h = 0;
    while (((size_t)1 << h) < x)
        h++;
    return h;
}

/* Naive evaluation of (2): every split, each unordered pair once. */
static int64_t cell_naive(const ssched_mk_dp2_table_t *t, size_t f, size_t s, uint32_t *afl,
                          uint32_t *asl, uint64_t *refs)
{
    int64_t best = MK_INF;
    for (size_t fl = 0; 2 * fl <= f - 1; fl++) {
        size_t fr = f - 1 - fl;
        for (size_t sl = 0; sl <= s; sl++) {
            size_t sr = s - sl;
            if (fl == fr && sl > sr)
                break; /* mirror of a pair already seen */
            (*refs)++;
            int64_t v = max64(TV(t, fl, sl), TV(t, fr, sr));
            if (v < best) {
                best = v;
                *afl = (uint32_t)fl;
                *asl = (uint32_t)sl;
            }
        }
    }
    return best;
}

/* Equation (4): min over sl in [0, s] of max(T(fl, sl), T(fr, s - sl)).
 * By Lemma 4 the first term is non-decreasing and the second
 * non-increasing in sl, so the minimum sits at their crossover: check the
 * two ends (one function dominating the other), else binary-search the
 * first sl where the left term catches up (Theorem 5). */
static int64_t crossover_min(const ssched_mk_dp2_table_t *t, size_t fl, size_t fr, size_t s,
                             uint32_t *arg_sl, uint64_t *refs)
{
    size_t pick;
    int64_t v = ssched_i_mk_crossover(&TV(t, fl, 0), &TV(t, fr, 0), s, 1, &pick, refs);
    *arg_sl = (uint32_t)pick;
    return v;
}

/* §5.3.3: one crossover search per (fl, fr) pair. */
static int64_t cell_mono_s(const ssched_mk_dp2_table_t *t, size_t f, size_t s, uint32_t *afl,
                           uint32_t *asl, uint64_t *refs)
{
    int64_t best = MK_INF;
    for (size_t fl = 0; 2 * fl <= f - 1; fl++) {
        uint32_t sl;
        int64_t v = crossover_min(t, fl, f - 1 - fl, s, &sl, refs);
        if (v < best) {
            best = v;
            *afl = (uint32_t)fl;
            *asl = sl;
        }
    }
    return best;
}

/* §5.3.4: the crossover search plus what monotonicity in both coordinates
 * proves without looking at more pairs:
 *  - a lower bound on the entry: T(f,s) >= T(f,s-1) (Lemma 4) and
 *    T(f,s) >= T(f-1,s) when f-1 >= s-1 (Lemma 5); once a split reaches it
 *    the entry is final;
 *  - a lower bound per (fl, fr): every split is >= max(T(fl,0), T(fr,0))
 *    (Lemma 4), so pairs that cannot beat the best so far are skipped;
 *  - splits are tried from the balanced one outwards, where the optimum
 *    usually lies, so the bounds bite early. */
static int64_t cell_mono_sf(const ssched_mk_dp2_table_t *t, size_t f, size_t s, uint32_t *afl,
                            uint32_t *asl, uint64_t *refs)
{
    int64_t lb = 0;
    (*refs)++; /* one look at the two neighbouring entries */
    if (s > 0)
        lb = TV(t, f, s - 1) - t->tf;
    if (f >= s) /* Lemma 5 with f-1 >= s-1 */
        lb = max64(lb, TV(t, f - 1, s) - t->tf);
    int64_t best = MK_INF;
    for (size_t fl = (f - 1) / 2 + 1; fl-- > 0;) {
        size_t fr = f - 1 - fl;
        if (best <= lb)
            break;
        (*refs)++;
        if (max64(TV(t, fl, 0), TV(t, fr, 0)) >= best)
            continue;
        uint32_t sl;
        int64_t v = crossover_min(t, fl, fr, s, &sl, refs);
        if (v < best) {
            best = v;
            *afl = (uint32_t)fl;
            *asl = sl;
        }
    }
    return best;
}

/* Fill the whole table in increasing (f, s); entries only depend on
 * entries with fewer fast processors or (for the bounds) the previous s. */
static void fill_table(ssched_mk_dp2_table_t *t, ssched_mk_dp2_variant_t variant)
{
    for (size_t f = 0; f <= t->F; f++)
        for (size_t s = 0; s <= t->S; s++) {
            size_t at = CELL(t, f, s);
            uint32_t afl = 0, asl = 0;
            uint64_t refs = 0;
            if (f == 0) {
                t->T[at] = ceil_log2(s + 1) * t->ts; /* (3): a balanced tree */
            } else {
                int64_t inner;
                switch (variant) {
                case SSCHED_MK_DP2_NAIVE: inner = cell_naive(t, f, s, &afl, &asl, &refs); break;
                case SSCHED_MK_DP2_MONO_S: inner = cell_mono_s(t, f, s, &afl, &asl, &refs); break;
                default: inner = cell_mono_sf(t, f, s, &afl, &asl, &refs); break;
                }
                t->T[at] = t->tf + inner;
            }
            t->arg_fl[at] = afl;
            t->arg_sl[at] = asl;
            t->refs[at] = refs;
        }
}

void ssched_mk_dp2_table_free(ssched_mk_dp2_table_t *t)
{
    if (!t)
        return;
    free(t->T);
    free(t->arg_fl);
    free(t->arg_sl);
    free(t->refs);
    mpz_clear(t->scale);
    free(t);
}

/* Allocate and fill a table for tick times tf < ts (or ts alone when F = 0). */
static ssched_status_t table_alloc(ssched_mk_dp2_table_t **out, int64_t tf, int64_t ts,
                                   const mpz_t scale, size_t F, size_t S,
                                   ssched_mk_dp2_variant_t variant, ssched_error_t *err)
{
    *out = NULL;
    if (F >= UINT32_MAX || S >= UINT32_MAX || (S + 1) > SIZE_MAX / 16 / (F + 1))
        return ssched_error_set(err, SSCHED_EINPUT, "two-class table %zu x %zu is too large",
                                F + 1, S + 1);
    ssched_mk_dp2_table_t *t = calloc(1, sizeof *t);
    if (!t)
        return ssched_i_mk_nomem(err);
    mpz_init_set(t->scale, scale);
    t->F = F;
    t->S = S;
    t->tf = tf;
    t->ts = ts;
    size_t cells = (F + 1) * (S + 1);
    t->T = malloc(cells * sizeof *t->T);
    t->arg_fl = malloc(cells * sizeof *t->arg_fl);
    t->arg_sl = malloc(cells * sizeof *t->arg_sl);
    t->refs = malloc(cells * sizeof *t->refs);
    if (!t->T || !t->arg_fl || !t->arg_sl || !t->refs) {
        ssched_mk_dp2_table_free(t);
        return ssched_i_mk_nomem(err);
    }
    fill_table(t, variant);
    *out = t;
    return SSCHED_OK;
}

ssched_status_t ssched_mk_dp2_table_new(ssched_mk_dp2_table_t **out, const mpq_t t_fast,
                                        const mpq_t t_slow, size_t F, size_t S,
                                        ssched_mk_dp2_variant_t variant, ssched_error_t *err)
{
    *out = NULL;
    if (mpq_sgn(t_fast) <= 0 || mpq_cmp(t_fast, t_slow) >= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "two-class table needs 0 < t_fast < t_slow");
    ssched_mk_cluster_t c;
    ssched_status_t st = ssched_mk_cluster_init(&c, F + S + 2, err);
    if (st != SSCHED_OK)
        return st;
    /* Reuse the class builder for scaling and the overflow guard: F fast,
     * S slow senders and a destination. */
    for (size_t p = 0; p < c.n; p++)
        mpq_set(c.time[p], p <= F ? t_fast : t_slow);
    mk_classes_t k;
    st = ssched_i_mk_classes_build(&c, c.n - 1, 1, "destination", &k, err);
    ssched_mk_cluster_free(&c);
    if (st != SSCHED_OK)
        return st;
    st = table_alloc(out, k.tick[0], k.tick[k.k - 1], k.scale, F, S, variant, err);
    ssched_i_mk_classes_free(&k);
    return st;
}

void ssched_mk_dp2_table_value(const ssched_mk_dp2_table_t *t, size_t f, size_t s, mpq_t out)
{
    ssched_i_mk_ticks_to_mpq(out, TV(t, f, s), t->scale);
}

uint64_t ssched_mk_dp2_table_refs(const ssched_mk_dp2_table_t *t, size_t f, size_t s)
{
    return t->refs[CELL(t, f, s)];
}

/* ------------------------------------------------------- reconstruction */

typedef struct {
    const ssched_mk_dp2_table_t *t;
    const size_t *fast, *slow; /* processors of each class          */
    size_t nfast, nslow;       /* next unused member of each class   */
    size_t *sender;
    long *kid0, *kid1;
    size_t next;               /* next node index (post-order)       */
} rebuild_t;

/* A balanced tree of s slow nodes (eq. (3)); returns its root or -1. */
static long build_slow(rebuild_t *r, size_t s)
{
    if (s == 0)
        return -1;
    size_t left = (s - 1) / 2;
    long a = build_slow(r, left), b = build_slow(r, s - 1 - left);
    size_t v = r->next++;
    r->sender[v] = r->slow[r->nslow++];
    r->kid0[v] = a;
    r->kid1[v] = b;
    return (long)v;
}

/* The optimal tree of entry (f, s), children numbered before parents. */
static long build(rebuild_t *r, size_t f, size_t s)
{
    if (f == 0)
        return build_slow(r, s);
    size_t at = CELL(r->t, f, s);
    size_t fl = r->t->arg_fl[at], sl = r->t->arg_sl[at];
    long a = build(r, fl, sl), b = build(r, f - 1 - fl, s - sl);
    size_t v = r->next++;
    r->sender[v] = r->fast[r->nfast++];
    r->kid0[v] = a;
    r->kid1[v] = b;
    return (long)v;
}

/* Optimal reduce with at most two distinct sender times: fill the table up
 * to the cluster's counts, rebuild the optimal tree and time it exactly. */
ssched_status_t ssched_mk_reduce_dp2(const ssched_mk_cluster_t *c, size_t dest,
                                     ssched_mk_dp2_variant_t variant,
                                     ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                     ssched_error_t *err)
{
    ssched_i_mk_stats_reset(stats, "dp2");
    mk_classes_t k;
    ssched_status_t st = ssched_i_mk_classes_build(c, dest, 0, "destination", &k, err);
    if (st != SSCHED_OK)
        return st;
    if (k.k > 2) {
        st = ssched_error_set(err, SSCHED_EINPUT,
                              "the two-class program needs at most two distinct sender times "
                              "(found %zu)", k.k);
        ssched_i_mk_classes_free(&k);
        return st;
    }
    size_t m = c->n - 1;
    if (m == 0) {
        ssched_i_mk_classes_free(&k);
        return ssched_mk_schedule_alloc(out, SSCHED_MK_REDUCE, c->n, dest, 0, err);
    }
    /* One class: all senders are "slow" and (3) applies directly. */
    size_t F = k.k == 2 ? k.count[0] : 0, S = k.count[k.k - 1];
    int64_t tf = k.tick[0], ts = k.tick[k.k - 1]; /* tf unused with one class */
    ssched_mk_dp2_table_t *t = NULL;
    st = table_alloc(&t, tf, ts, k.scale, F, S, variant, err);
    size_t *sender = malloc(m * sizeof *sender);
    long *kid0 = malloc(m * sizeof *kid0), *kid1 = malloc(m * sizeof *kid1);
    if (st == SSCHED_OK && (!sender || !kid0 || !kid1))
        st = ssched_i_mk_nomem(err);
    if (st == SSCHED_OK) {
        rebuild_t r = {t, k.k == 2 ? k.member + k.first[0] : NULL,
                       k.member + k.first[k.k - 1], 0, 0, sender, kid0, kid1, 0};
        build(&r, F, S);
        st = ssched_i_mk_reduce_from_tree(c, dest, m, sender, kid0, kid1, NULL, out, err);
        if (st == SSCHED_OK && !ssched_i_mk_mpq_equals_ticks(out->makespan, TV(t, F, S), t->scale))
            st = ssched_error_set(err, SSCHED_EINTERNAL, "dp2: rebuilt tree does not match T(f,s)");
        if (stats) {
            for (size_t i = 0; i < (F + 1) * (S + 1); i++)
                stats->refs += t->refs[i];
            stats->cells = (F + 1) * (S + 1);
        }
    }
    free(sender);
    free(kid0);
    free(kid1);
    ssched_mk_dp2_table_free(t);
    ssched_i_mk_classes_free(&k);
    return st;
}
