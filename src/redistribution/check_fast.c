/* The checker's fast path (issue 26): the same properties as check.c, decided
 * on integers over one unit instead of on scattered rationals.
 *
 * Why: at P = 1024 the schedule has 10^6 transfers whose six mpz limbs lie
 * all over the heap; check.c reached each time through its pointers once per
 * transfer and twice more along the per-processor lists (cache misses), and
 * cross-multiplied ~300-bit fractions for every comparison.  Here one pass in
 * transfer order (the order the records were allocated in, so memory is read
 * almost sequentially) writes every start and end as an integer numerator
 * over a unit U in a fixed number of limbs, contiguous; the list pass then
 * compares those with mpn_cmp.
 *
 * The unit is derived from the instance alone (nothing the scheduler
 * computed is trusted): U = lcm(den(startup), num(B(i,j)) over the message
 * pairs).  A message's cost startup + m/B has a denominator dividing U, so
 * every schedule built from whole costs and start-ups has its times in
 * (1/U)Z.  A time whose denominator does not divide U (e.g. a preemptive
 * piece with a start-up) is not an error: the fast path then declines and
 * check.c decides.  A unit of more than MAX_UNIT_LIMBS limbs (a matrix of
 * unrelated rationals) declines too.
 *
 * Soundness: the fast path only ever answers "valid"; any property it cannot
 * establish, including a real violation, sends the caller to check.c, which
 * also writes the violation message (so a failing schedule is reported
 * exactly as before).  Every test below is an exact integer inequality
 * equivalent to check.c's:
 *   - duration: (E - S)/U >= startup + a/B.  For a piece carrying the whole
 *     message (a = m, the common case) this is E - S >= ceil(U·startup +
 *     U·m·den(B)/num(B)), U·startup being an integer since den(startup) | U;
 *     otherwise it is cross-multiplied.
 *   - order and one-port: S[prev] <= S[cur] and E[prev] <= S[cur].
 *   - completion: its denominator divides U and its numerator over U equals
 *     the largest E. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "src/util/internal.h"

#define MAX_UNIT_LIMBS 64

/* mpz view of n limbs (normalised: leading zero limbs dropped). */
static mpz_srcptr view(mpz_t z, const mp_limb_t *v, size_t n)
{
    while (n > 0 && v[n - 1] == 0)
        n--;
    return mpz_roinit_n(z, v, (mp_size_t)n);
}

/* U = lcm(den(startup), num(B) over the pairs that carry a message); 0 if
 * it grows past MAX_UNIT_LIMBS. */
static int unit_of(const ssched_redist_t *r, mpz_t U)
{
    mpz_set(U, mpq_denref(r->startup));
    for (size_t e = 0; e < r->n_messages; e++) {
        const ssched_redist_message_t *m = &r->messages[e];
        mpz_srcptr b = mpq_numref(r->bandwidth[m->src * r->P + m->dst]);
        if (!mpz_divisible_p(U, b)) {
            mpz_lcm(U, U, b);
            if (mpz_size(U) > MAX_UNIT_LIMBS)
                return 0;
        }
    }
    return 1;
}

/* t·U as nl limbs at v; 0 if den(t) does not divide U, t < 0 or too wide. */
static int to_unit(const mpq_t t, const mpz_t U, mpz_t q, mpz_t rem, mp_limb_t *v, size_t nl)
{
    if (mpq_sgn(t) < 0)
        return 0;
    mpz_tdiv_qr(q, rem, U, mpq_denref(t));
    if (mpz_sgn(rem) != 0)
        return 0;
    mpz_mul(q, q, mpq_numref(t));
    if (mpz_size(q) > nl)
        return 0;
    memset(v, 0, nl * sizeof *v);
    mpz_export(v, NULL, -1, sizeof *v, 0, 0, q);
    return 1;
}

typedef struct {
    const ssched_redist_t *r;
    const ssched_redist_schedule_t *s;
    mpz_t U, Us_num, q, rem, lhs, rhs;
    mp_limb_t *S, *E, *dur; /* n·nl each for S and E, nl for dur */
    mp_limb_t *minD;        /* M·nl: a whole message's least duration · U */
    size_t nl;
} fast_t;

/* minD[e] = ceil(U·startup + U·m·den(B)/num(B)) for every message e, in
 * message order (the bandwidths are then read in table order, not at random
 * along the transfers); U·startup = Us_num exactly.  0 if one is too wide. */
static int least_durations(fast_t *f)
{
    const ssched_redist_t *r = f->r;
    size_t nl = f->nl;
    for (size_t e = 0; e < r->n_messages; e++) {
        const ssched_redist_message_t *m = &r->messages[e];
        const mpq_t *bw = (const mpq_t *)&r->bandwidth[m->src * r->P + m->dst];
        mpz_mul_ui(f->rhs, f->U, m->elements);
        mpz_mul(f->rhs, f->rhs, mpq_denref(*bw));
        mpz_cdiv_q(f->rhs, f->rhs, mpq_numref(*bw));
        mpz_add(f->rhs, f->rhs, f->Us_num);
        if (mpz_size(f->rhs) > nl)
            return 0;
        memset(f->minD + e * nl, 0, nl * sizeof *f->minD);
        mpz_export(f->minD + e * nl, NULL, -1, sizeof *f->minD, 0, 0, f->rhs);
    }
    return 1;
}

/* (E - S)/U >= startup + amount/B for transfer i (S, E already written):
 * for a piece carrying the whole message (a = m, the common case) the
 * integer test E - S >= minD[e]; otherwise cross-multiplied. */
static int long_enough(fast_t *f, size_t i, const ssched_redist_transfer_t *t,
                       const ssched_redist_message_t *m, int whole)
{
    size_t nl = f->nl;
    if (mpn_sub_n(f->dur, f->E + i * nl, f->S + i * nl, (mp_size_t)nl))
        return 0; /* end before start */
    if (whole)
        return mpn_cmp(f->dur, f->minD + t->message * nl, (mp_size_t)nl) >= 0;
    mpz_t dz;
    mpz_srcptr d = view(dz, f->dur, nl);
    const mpq_t *bw = (const mpq_t *)&f->r->bandwidth[m->src * f->r->P + m->dst];
    /* d/U - startup >= a/B  <=>  (d - U·startup)·num(B)·den(a) >= num(a)·den(B)·U */
    mpz_sub(f->lhs, d, f->Us_num);
    if (mpz_sgn(f->lhs) <= 0)
        return 0;
    mpz_mul(f->lhs, f->lhs, mpq_numref(*bw));
    mpz_mul(f->lhs, f->lhs, mpq_denref(t->amount));
    mpz_mul(f->rhs, mpq_numref(t->amount), mpq_denref(*bw));
    mpz_mul(f->rhs, f->rhs, f->U);
    return mpz_cmp(f->lhs, f->rhs) >= 0;
}

/* Fetch ahead along the transfers: the record and least duration of
 * i + 16's message and the limbs of i + 4's times and amount (a hint only;
 * the messages are visited in scheduling order, all over memory, and these
 * loads were most of the pass). */
static void prefetch(const fast_t *f, size_t i)
{
    const ssched_redist_schedule_t *s = f->s;
    const ssched_redist_t *r = f->r;
    size_t n = s->n_transfers, M = r->n_messages;
    if (i + 16 < n && s->transfers[i + 16].message < M) {
        size_t e = s->transfers[i + 16].message;
        __builtin_prefetch(&r->messages[e]);
        __builtin_prefetch(f->minD + e * f->nl);
    }
    if (i + 4 < n) {
        const ssched_redist_transfer_t *a = &s->transfers[i + 4];
        __builtin_prefetch(mpq_numref(a->start)->_mp_d);
        __builtin_prefetch(mpq_denref(a->start)->_mp_d);
        __builtin_prefetch(mpq_numref(a->end)->_mp_d);
        __builtin_prefetch(mpq_denref(a->end)->_mp_d);
        __builtin_prefetch(mpq_numref(a->amount)->_mp_d);
    }
}

/* Delivered amounts: a piece carrying the whole message counts in whole[e];
 * any other piece adds its amount times V = U·den(B) to part[e] (initialised
 * on first use, has_part[e]), an integer when den(amount) | V (a preemptive
 * piece without start-up carries B·λ/L elements, L | U; other pieces
 * decline).  A message is delivered exactly iff whole = 1 and no other
 * piece, or whole = 0 and the other pieces add up to m·V. */
typedef struct {
    uint32_t *whole;
    char *has_part;
    mpz_t *part;
} deliver_t;

/* The transfers in their own order: ranges, signs, times over U, durations,
 * delivered amounts, latest end (into last).  1 if all hold. */
static int pass_transfers(fast_t *f, deliver_t *g, mp_limb_t *last)
{
    const ssched_redist_t *r = f->r;
    const ssched_redist_schedule_t *s = f->s;
    size_t nl = f->nl;
    memset(last, 0, nl * sizeof *last);
    for (size_t i = 0; i < s->n_transfers; i++) {
        const ssched_redist_transfer_t *t = &s->transfers[i];
        prefetch(f, i);
        if (t->message >= r->n_messages || mpq_sgn(t->amount) <= 0)
            return 0;
        const ssched_redist_message_t *m = &r->messages[t->message];
        size_t e = t->message;
        int whole = mpz_cmp_ui(mpq_denref(t->amount), 1) == 0 &&
                    mpz_cmp_ui(mpq_numref(t->amount), m->elements) == 0;
        if (!to_unit(t->start, f->U, f->q, f->rem, f->S + i * nl, nl) ||
            !to_unit(t->end, f->U, f->q, f->rem, f->E + i * nl, nl) ||
            !long_enough(f, i, t, m, whole))
            return 0;
        if (mpn_cmp(f->E + i * nl, last, (mp_size_t)nl) > 0)
            memcpy(last, f->E + i * nl, nl * sizeof *last);
        if (whole) {
            if (g->whole[e]++)
                return 0; /* the whole message twice */
            continue;
        }
        /* over V = U·den(B): den(amount) | V for the pieces meant here */
        const mpq_t *bw = (const mpq_t *)&r->bandwidth[m->src * r->P + m->dst];
        mpz_mul(f->lhs, f->U, mpq_denref(*bw));
        mpz_tdiv_qr(f->q, f->rem, f->lhs, mpq_denref(t->amount));
        if (mpz_sgn(f->rem) != 0)
            return 0;
        if (!g->has_part[e]) {
            g->has_part[e] = 1;
            mpz_init(g->part[e]);
        }
        mpz_addmul(g->part[e], f->q, mpq_numref(t->amount));
    }
    for (size_t e = 0; e < r->n_messages; e++) {
        if (g->has_part[e]) {
            const ssched_redist_message_t *m = &r->messages[e];
            mpz_mul(f->rhs, f->U, mpq_denref(r->bandwidth[m->src * r->P + m->dst]));
            mpz_mul_ui(f->rhs, f->rhs, m->elements);
            if (g->whole[e] || mpz_cmp(g->part[e], f->rhs) != 0)
                return 0;
        } else if (g->whole[e] != 1) {
            return 0;
        }
    }
    return 1;
}

/* One side's lists: a permutation of that side's transfers, each at its own
 * processor, in start order, consecutive ones not overlapping. */
static int pass_side(const fast_t *f, int by_src, const size_t *start, const size_t *list,
                     char *seen)
{
    const ssched_redist_t *r = f->r;
    size_t P = r->P, n = f->s->n_transfers, nl = f->nl;
    if (!start || !list || start[0] != 0 || start[P] != n)
        return 0;
    memset(seen, 0, n);
    for (size_t p = 0; p < P; p++) {
        if (start[p + 1] < start[p])
            return 0;
        for (size_t k = start[p]; k < start[p + 1]; k++) {
            size_t i = list[k];
            if (k + 8 < start[p + 1] && list[k + 8] < n) {
                __builtin_prefetch(f->S + list[k + 8] * nl);
                __builtin_prefetch(&f->s->transfers[list[k + 8]].message);
            }
            if (i >= n || seen[i])
                return 0;
            seen[i] = 1;
            const ssched_redist_message_t *m = &r->messages[f->s->transfers[i].message];
            if ((by_src ? m->src : m->dst) != p)
                return 0;
            if (k > start[p]) {
                size_t a = list[k - 1];
                if (mpn_cmp(f->S + a * nl, f->S + i * nl, (mp_size_t)nl) > 0 ||
                    mpn_cmp(f->E + a * nl, f->S + i * nl, (mp_size_t)nl) > 0)
                    return 0;
            }
        }
    }
    return 1;
}

/* Every time's numerator over U, t·U < 2^(64·(size(num) - size(den) + 1))
 * · U: the widest needs at most that many limbs (read from the mpz headers,
 * which lie in the records). */
static size_t width(const ssched_redist_schedule_t *s, const mpz_t U)
{
    mp_size_t w = 1;
    for (size_t i = 0; i < s->n_transfers; i++) {
        const ssched_redist_transfer_t *t = &s->transfers[i];
        mp_size_t a = mpq_numref(t->start)->_mp_size - mpq_denref(t->start)->_mp_size;
        mp_size_t b = mpq_numref(t->end)->_mp_size - mpq_denref(t->end)->_mp_size;
        if (a > w)
            w = a;
        if (b > w)
            w = b;
    }
    return (size_t)w + 1 + mpz_size(U);
}

int ssched_i_rd_check_fast(const ssched_redist_t *r, const ssched_redist_schedule_t *s)
{
    size_t n = s->n_transfers, M = r->n_messages;
    if (n == 0 || s->P != r->P)
        return 0;
    fast_t f;
    memset(&f, 0, sizeof f);
    f.r = r;
    f.s = s;
    mpz_inits(f.U, f.Us_num, f.q, f.rem, f.lhs, f.rhs, NULL);
    int ok = unit_of(r, f.U);
    f.nl = ok ? width(s, f.U) : 1;
    f.S = ok ? ssched_i_alloc(n * f.nl, sizeof *f.S) : NULL;
    f.E = ok ? ssched_i_alloc(n * f.nl, sizeof *f.E) : NULL;
    f.dur = ssched_i_alloc(2 * f.nl, sizeof *f.dur);
    f.minD = ok ? ssched_i_alloc(M * f.nl, sizeof *f.minD) : NULL;
    deliver_t g = {ssched_i_calloc(M, sizeof *g.whole), ssched_i_calloc(M, 1),
                   ssched_i_alloc(M, sizeof *g.part)};
    char *seen = ok ? ssched_i_alloc(n, 1) : NULL;
    ok = ok && f.S && f.E && f.dur && f.minD && g.whole && g.has_part && g.part && seen;
    if (ok) {
        /* U·startup is an integer: den(startup) | U */
        mpz_divexact(f.Us_num, f.U, mpq_denref(r->startup));
        mpz_mul(f.Us_num, f.Us_num, mpq_numref(r->startup));
        mp_limb_t *last = f.dur + f.nl;
        ok = least_durations(&f) && pass_transfers(&f, &g, last) && pass_side(&f, 1, s->send_start, s->send_list, seen) &&
             pass_side(&f, 0, s->recv_start, s->recv_list, seen);
        if (ok) { /* completion = the latest end, >= the lower bound */
            mpz_t lz;
            ok = to_unit(s->completion, f.U, f.q, f.rem, f.dur, f.nl) &&
                 mpz_cmp(view(lz, last, f.nl), f.q) == 0 &&
                 mpq_cmp(s->completion, r->lower_bound) >= 0;
        }
    }
    for (size_t e = 0; g.has_part && e < M; e++)
        if (g.has_part[e])
            mpz_clear(g.part[e]);
    free(g.whole);
    free(g.has_part);
    free(g.part);
    free(seen);
    free(f.S);
    free(f.E);
    free(f.dur);
    free(f.minD);
    mpz_clears(f.U, f.Us_num, f.q, f.rem, f.lhs, f.rhs, NULL);
    return ok;
}
