/* ssched's fast exact method: Algorithm 1's recursion, evaluated top-down
 * from the single state (n, P_1) and pruned by a rational lower bound.
 *
 * Algorithm 1 fills cost[d, i] for all d <= n although the answer only needs
 * cost[n, 1], which needs cost[n - e, 2] for the e worth trying, and so on.
 * For nondecreasing costs we bound
 *     V(e) = T_comm(i, e) + max(T_comp(i, e), cost[d - e, i + 1])
 * from below without recursing:
 *   - every cost has an affine minorant f(x) >= m x + c (m = min f(x)/x,
 *     c = min f(x) - m x, both >= 0; for seed 004's linear costs, f itself);
 *   - on those minorants, Theorem 2's recursion (closed_form.c) gives the
 *     rational optimum D_{i+1} * d' of P_{i+1..p} for d' items, and the
 *     constants add at least K_{i+1} = min_k (sum_{j=i+1..k} c_j + c'_k), so
 *     cost[d', i+1] >= D_{i+1} d' + K_{i+1}  (an integer schedule is a
 *     rational one);
 *   - hence V(e) >= phi(e) = max(A(e), B(e)) with A, B affine in e; phi is
 *     convex, so its minimum over any interval of e is exact and cheap.
 * The e-loop starts at phi's minimizer (the rational optimum's share) and
 * walks outwards; a direction stops when no e left in it can beat the best
 * value found:  going up, T_comm + T_comp is nondecreasing (Algorithm 2's
 * e_max argument) or phi's minimum over [e, d] is too large; going down,
 * T_comm(i, 0) + cost[d - e - 1, i + 1] (cost[., i+1] is nondecreasing:
 * Algorithm 2's break) or phi's minimum over [0, e] is too large.  Only the
 * states (d', i) actually reached are solved, and memoized per level.
 *
 * Exactness does not depend on the bound's tightness: any valid lower bound
 * gives the same optimum as Algorithms 1 and 2 (tests check it on many
 * random instances, linear, affine and tables).  Speed does: with linear or
 * affine costs the gap between cost[] and its bound stays within eq. (4)'s
 * guarantee, so only O(guarantee / |D_{i+1} - lambda_i|) shares are tried per
 * state and the reached states form bands of that width; seed 004's
 * instance (n = 817,101, p = 16) takes a few thousand states.  In the worst
 * case (lambda_i = D_{i+1}, or loose table minorants) it degrades to
 * Algorithm 1's work.  Recursion depth is p. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/scatter/internal.h"
#include "src/util/internal.h"

#define CHUNK 4096

typedef struct {
    long d, sol;
    mpz_t cost; /* scaled cost[d, i] */
} ex_entry_t;

typedef struct {
    ex_entry_t **chunks;
    size_t nchunks, count;
    size_t *slots; /* open addressing: entry index + 1, 0 = empty */
    size_t nslots;
} ex_memo_t;

typedef struct {
    const sb_scaled_t *sc;
    size_t p;
    ex_memo_t *memo;
    /* per level i < p-1, in units of 1/(Q_i L):  Q phi(e) = max(aA e + bA,
     * aB e + bB0 + bBd d) and Q_i itself */
    mpz_t *aA, *bA, *aB, *bB0, *bBd, *Q;
    mpz_t t1, t2, t3, t4; /* scratch for the bound (never held across a recursion) */
    long long evals;
    ssched_error_t *err;
} ex_t;

static size_t hash_long(long d, size_t mask)
{
    uint64_t h = (uint64_t)d * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 17) & mask;
}

static ex_entry_t *memo_entry(const ex_memo_t *m, size_t idx)
{
    return &m->chunks[idx / CHUNK][idx % CHUNK];
}

static ex_entry_t *memo_find(const ex_memo_t *m, long d)
{
    if (!m->nslots)
        return NULL;
    size_t mask = m->nslots - 1;
    for (size_t s = hash_long(d, mask);; s = (s + 1) & mask) {
        if (!m->slots[s])
            return NULL;
        ex_entry_t *e = memo_entry(m, m->slots[s] - 1);
        if (e->d == d)
            return e;
    }
}

static int memo_rehash(ex_memo_t *m)
{
    size_t ns = m->nslots ? 2 * m->nslots : 64;
    size_t *slots = calloc(ns, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t k = 0; k < m->count; k++) {
        size_t s = hash_long(memo_entry(m, k)->d, ns - 1);
        while (slots[s])
            s = (s + 1) & (ns - 1);
        slots[s] = k + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = ns;
    return 1;
}

/* Insert a state known to be absent; entries never move (chunks). */
static ex_entry_t *memo_insert(ex_memo_t *m, long d, long sol, const mpz_t cost)
{
    if (2 * (m->count + 1) > m->nslots && !memo_rehash(m))
        return NULL;
    if (m->count == m->nchunks * CHUNK) {
        ex_entry_t **ch = realloc(m->chunks, (m->nchunks + 1) * sizeof *ch);
        if (!ch)
            return NULL;
        m->chunks = ch;
        ch[m->nchunks] = malloc(CHUNK * sizeof **ch);
        if (!ch[m->nchunks])
            return NULL;
        m->nchunks++;
    }
    ex_entry_t *e = memo_entry(m, m->count);
    e->d = d;
    e->sol = sol;
    mpz_init_set(e->cost, cost);
    size_t mask = m->nslots - 1, s = hash_long(d, mask);
    while (m->slots[s])
        s = (s + 1) & mask;
    m->slots[s] = ++m->count;
    return e;
}

static void memo_free(ex_memo_t *m)
{
    for (size_t k = 0; k < m->count; k++)
        mpz_clear(memo_entry(m, k)->cost);
    for (size_t c = 0; c < m->nchunks; c++)
        free(m->chunks[c]);
    free(m->chunks);
    free(m->slots);
}

/* Q phi(e) for level i and d into out. */
static void phi_at(ex_t *x, size_t i, long d, long e, mpz_t out)
{
    mpz_mul_si(out, x->aA[i], e);
    mpz_add(out, out, x->bA[i]);
    mpz_mul_si(x->t4, x->aB[i], e);
    mpz_add(x->t4, x->t4, x->bB0[i]);
    mpz_addmul_ui(x->t4, x->bBd[i], (unsigned long)d);
    if (mpz_cmp(x->t4, out) > 0)
        mpz_set(out, x->t4);
}

/* 1 if min over real e in [lo, hi] of phi(e) >= best (scaled), i.e. no
 * share in [lo, hi] can improve on best.  phi = max(A, B), A nondecreasing:
 * the minimum is at lo when B does not decrease, else at the crossing
 * e_c = (bB - bA) / (aA - aB) clamped to [lo, hi]. */
static int phi_min_ge(ex_t *x, size_t i, long d, long lo, long hi, const mpz_t best)
{
    mpz_mul(x->t3, best, x->Q[i]); /* Q * best */
    if (mpz_sgn(x->aB[i]) >= 0) {
        phi_at(x, i, d, lo, x->t1);
        return mpz_cmp(x->t1, x->t3) >= 0;
    }
    /* num = bB - bA, den = aA - aB > 0 */
    mpz_set(x->t1, x->bB0[i]);
    mpz_addmul_ui(x->t1, x->bBd[i], (unsigned long)d);
    mpz_sub(x->t1, x->t1, x->bA[i]);
    mpz_sub(x->t2, x->aA[i], x->aB[i]);
    /* e_c <= lo  <=>  num <= lo * den */
    mpz_mul_si(x->t4, x->t2, lo);
    if (mpz_cmp(x->t1, x->t4) <= 0) {
        phi_at(x, i, d, lo, x->t1);
        return mpz_cmp(x->t1, x->t3) >= 0;
    }
    mpz_mul_si(x->t4, x->t2, hi);
    if (mpz_cmp(x->t1, x->t4) >= 0) {
        phi_at(x, i, d, hi, x->t1);
        return mpz_cmp(x->t1, x->t3) >= 0;
    }
    /* interior: Q phi(e_c) = (aA num + bA den) / den >= Q best ? */
    mpz_mul(x->t1, x->t1, x->aA[i]);
    mpz_addmul(x->t1, x->bA[i], x->t2);
    mpz_mul(x->t3, x->t3, x->t2);
    return mpz_cmp(x->t1, x->t3) >= 0;
}

/* phi's minimizer over integers, near the crossing: the rational optimum's
 * share for P_i, a good first guess. */
static long phi_guess(ex_t *x, size_t i, long d)
{
    if (mpz_sgn(x->aB[i]) >= 0)
        return 0;
    mpz_set(x->t1, x->bB0[i]);
    mpz_addmul_ui(x->t1, x->bBd[i], (unsigned long)d);
    mpz_sub(x->t1, x->t1, x->bA[i]);
    mpz_sub(x->t2, x->aA[i], x->aB[i]);
    if (mpz_sgn(x->t1) <= 0)
        return 0;
    mpz_fdiv_q(x->t1, x->t1, x->t2);
    if (mpz_cmp_si(x->t1, d) >= 0)
        return d;
    return mpz_get_si(x->t1);
}

static ex_entry_t *ex_get(ex_t *x, size_t i, long d);

/* v = C_i(e) + max(W_i(e), cost[d - e, i + 1]); *sub = that state.  c and w
 * are scratch owned by the caller's frame.  0 on error (err set). */
static int ex_value(ex_t *x, size_t i, long d, long e, mpz_t v, mpz_t c, mpz_t w,
                    const ex_entry_t **sub)
{
    const ex_entry_t *s = ex_get(x, i + 1, d - e);
    if (!s)
        return 0;
    x->evals++;
    sb_sfn_evalz(c, &x->sc->comm[i], e);
    sb_sfn_evalz(w, &x->sc->comp[i], e);
    mpz_add(v, c, mpz_cmp(w, s->cost) >= 0 ? w : s->cost);
    *sub = s;
    return 1;
}

/* The state (d, i): memoized cost[d, i] and its optimal share. */
static ex_entry_t *ex_get(ex_t *x, size_t i, long d)
{
    ex_entry_t *found = memo_find(&x->memo[i], d);
    if (found)
        return found;
    mpz_t best, v, c, w;
    mpz_inits(best, v, c, w, NULL);
    long sol;
    int ok = 1;
    const sb_scaled_t *sc = x->sc;
    if (i == x->p - 1) {
        sb_sfn_evalz(best, &sc->comm[i], d);
        sb_sfn_evalz(w, &sc->comp[i], d);
        mpz_add(best, best, w);
        sol = d;
    } else {
        const ex_entry_t *sub;
        long e0 = phi_guess(x, i, d);
        ok = ex_value(x, i, d, e0, best, c, w, &sub);
        sol = e0;
        /* upwards: e0 < e <= d */
        for (long e = e0 + 1; ok && e <= d; e++) {
            sb_sfn_evalz(c, &sc->comm[i], e);
            sb_sfn_evalz(w, &sc->comp[i], e);
            mpz_add(v, c, w);
            if (mpz_cmp(v, best) >= 0 || phi_min_ge(x, i, d, e, d, best))
                break;
            ok = ex_value(x, i, d, e, v, c, w, &sub);
            if (ok && mpz_cmp(v, best) < 0) {
                mpz_set(best, v);
                sol = e;
            }
        }
        /* downwards: 0 <= e < e0; `last` is cost[d - (e + 1), i + 1] */
        const ex_entry_t *last = ok ? ex_get(x, i + 1, d - e0) : NULL;
        ok = ok && last;
        for (long e = e0 - 1; ok && e >= 0; e--) {
            sb_sfn_evalz(v, &sc->comm[i], 0);
            mpz_add(v, v, last->cost);
            if (mpz_cmp(v, best) >= 0 || phi_min_ge(x, i, d, 0, e, best))
                break;
            ok = ex_value(x, i, d, e, v, c, w, &sub);
            if (ok) {
                last = sub;
                if (mpz_cmp(v, best) < 0) {
                    mpz_set(best, v);
                    sol = e;
                }
            }
        }
    }
    ex_entry_t *en = NULL;
    if (ok) {
        en = memo_insert(&x->memo[i], d, sol, best);
        if (!en)
            ssched_error_set(x->err, SSCHED_ENOMEM, "out of memory for the exact search");
    }
    mpz_clears(best, v, c, w, NULL);
    return en;
}

/* Affine minorant of a cost: f(x) >= m x + c on the domain. */
static void minorant(const ssched_sb_cost_t *f, mpq_t m, mpq_t c)
{
    ssched_i_sb_cost_minorant_slope(m, f);
    if (f->kind == SSCHED_SB_COST_AFFINE) {
        mpq_set(c, f->offset);
        return;
    }
    mpq_t t;
    mpq_init(t);
    for (size_t k = 0; k < f->n_points; k++) {
        mpq_set_si(t, f->xs[k], 1);
        mpq_mul(t, t, m);
        mpq_sub(t, f->ys[k], t);
        if (k == 0 || mpq_cmp(t, c) < 0)
            mpq_set(c, t);
    }
    mpq_clear(t);
}

static mpq_t *qarray(size_t n)
{
    mpq_t *a = ssched_i_alloc(n, sizeof *a);
    if (a)
        for (size_t k = 0; k < n; k++)
            mpq_init(a[k]);
    return a;
}

static void qarray_free(mpq_t *a, size_t n)
{
    if (!a)
        return;
    for (size_t k = 0; k < n; k++)
        mpq_clear(a[k]);
    free(a);
}

/* Integer coefficients of Q_i phi for every level i < p-1 (see ex_t). */
static ssched_status_t ex_bounds(ex_t *x, const ssched_sb_platform_t *inst)
{
    size_t p = inst->p;
    mpq_t *lam = qarray(p), *mu = qarray(p), *cc = qarray(p), *wc = qarray(p);
    mpq_t *D = qarray(p), *K = qarray(p);
    ssched_status_t st = SSCHED_OK;
    if (!lam || !mu || !cc || !wc || !D || !K) {
        st = ssched_error_set(x->err, SSCHED_ENOMEM, "out of memory for the exact search");
        goto done;
    }
    for (size_t i = 0; i < p; i++) {
        minorant(&inst->procs[i].comm, lam[i], cc[i]);
        minorant(&inst->procs[i].comp, mu[i], wc[i]);
    }
    ssched_i_sb_theorem2(p, lam, mu, D, NULL);
    /* K_i = min_{k >= i} (sum_{j=i..k} cc_j + wc_k) = cc_i + min(wc_i, K_{i+1}) */
    mpq_add(K[p - 1], cc[p - 1], wc[p - 1]);
    for (size_t i = p - 1; i-- > 0;) {
        mpq_set(K[i], mpq_cmp(wc[i], K[i + 1]) < 0 ? wc[i] : K[i + 1]);
        mpq_add(K[i], K[i], cc[i]);
    }
    mpq_t r[5], Lq;
    for (int k = 0; k < 5; k++)
        mpq_init(r[k]);
    mpq_init(Lq);
    mpq_set_z(Lq, x->sc->scale);
    for (size_t i = 0; i + 1 < p; i++) {
        mpq_add(r[0], lam[i], mu[i]);   /* aA: slope of A  */
        mpq_add(r[1], cc[i], wc[i]);    /* bA              */
        mpq_sub(r[2], lam[i], D[i + 1]);/* aB: slope of B  */
        mpq_add(r[3], cc[i], K[i + 1]); /* bB0             */
        mpq_set(r[4], D[i + 1]);        /* bBd: times d    */
        mpz_set_ui(x->Q[i], 1);
        for (int k = 0; k < 5; k++) {
            mpq_mul(r[k], r[k], Lq);
            mpz_lcm(x->Q[i], x->Q[i], mpq_denref(r[k]));
        }
        mpz_t *dst[5] = {&x->aA[i], &x->bA[i], &x->aB[i], &x->bB0[i], &x->bBd[i]};
        for (int k = 0; k < 5; k++) {
            mpz_mul(*dst[k], mpq_numref(r[k]), x->Q[i]);
            mpz_divexact(*dst[k], *dst[k], mpq_denref(r[k]));
        }
    }
    for (int k = 0; k < 5; k++)
        mpq_clear(r[k]);
    mpq_clear(Lq);
done:
    qarray_free(lam, p);
    qarray_free(mu, p);
    qarray_free(cc, p);
    qarray_free(wc, p);
    qarray_free(D, p);
    qarray_free(K, p);
    return st;
}

static mpz_t *zarray(size_t n)
{
    mpz_t *a = ssched_i_alloc(n, sizeof *a);
    if (a)
        for (size_t k = 0; k < n; k++)
            mpz_init(a[k]);
    return a;
}

static void zarray_free(mpz_t *a, size_t n)
{
    if (!a)
        return;
    for (size_t k = 0; k < n; k++)
        mpz_clear(a[k]);
    free(a);
}

ssched_status_t ssched_i_sb_exact(const ssched_sb_platform_t *inst, long n, ssched_sb_result_t *r,
                         ssched_error_t *err)
{
    sb_scaled_t sc;
    ssched_status_t st = ssched_i_sb_scaled_init(&sc, inst, n, err);
    if (st != SSCHED_OK)
        return st;
    size_t p = inst->p;
    ex_t x;
    memset(&x, 0, sizeof x);
    x.sc = &sc;
    x.p = p;
    x.err = err;
    x.memo = calloc(p, sizeof *x.memo);
    mpz_t **arrs[6] = {&x.aA, &x.bA, &x.aB, &x.bB0, &x.bBd, &x.Q};
    for (int k = 0; k < 6; k++)
        *arrs[k] = zarray(p);
    mpz_inits(x.t1, x.t2, x.t3, x.t4, NULL);
    int alloc_ok = x.memo != NULL;
    for (int k = 0; k < 6; k++)
        alloc_ok = alloc_ok && *arrs[k];
    if (!alloc_ok)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the exact search");
    if (st == SSCHED_OK)
        st = ex_bounds(&x, inst);
    const ex_entry_t *top = NULL;
    if (st == SSCHED_OK) {
        top = ex_get(&x, 0, n);
        if (!top)
            st = err && err->status != SSCHED_OK
                     ? err->status
                     : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    if (st == SSCHED_OK) {
        long d = n;
        for (size_t i = 0; i < p; i++) {
            const ex_entry_t *e = memo_find(&x.memo[i], d);
            if (!e) {
                st = ssched_error_set(err, SSCHED_EINTERNAL, "exact search lost state (%ld, %zu)",
                                      d, i);
                break;
            }
            r->items[i] = e->sol;
            d -= e->sol;
        }
    }
    if (st == SSCHED_OK) {
        r->optimal = 1;
        r->evaluations = x.evals;
        for (size_t i = 0; i < p; i++)
            r->states += (long long)x.memo[i].count;
        st = ssched_i_sb_result_finish(inst, r, err);
    }
    if (st == SSCHED_OK) {
        mpq_t q;
        mpq_init(q);
        mpq_set_num(q, top->cost);
        mpq_set_den(q, sc.scale);
        mpq_canonicalize(q);
        if (!mpq_equal(q, r->makespan))
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "exact search optimum differs from the checker's makespan");
        mpq_clear(q);
    }
    if (x.memo)
        for (size_t i = 0; i < p; i++)
            memo_free(&x.memo[i]);
    free(x.memo);
    for (int k = 0; k < 6; k++)
        zarray_free(*arrs[k], p);
    mpz_clears(x.t1, x.t2, x.t3, x.t4, NULL);
    ssched_i_sb_scaled_free(&sc);
    return st;
}
