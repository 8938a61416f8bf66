/* Busy intervals of the unrolled scan's resources (schedule/unroll_scan.c
 * says which): a one-port host's send and receive ports, a processor, a
 * switch's link.  Each resource holds disjoint intervals [lo, hi) sorted by
 * lo; fit finds the earliest idle start for an event on several resources
 * at once, plainly or modulo a period P (the pattern of unroll_scan_modulo.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/scan_internal.h"
#include "src/util/internal.h"

/* The first interval of r ending after t: it conflicts with [t, t + d)
 * when it starts before t + d (or at t for an empty one, as the checker's
 * check_ports.c counts a point); then the earliest later start is its end. */
static int conflict(const tl_t *r, const mpq_t t, const mpq_t td, int empty, size_t *at)
{
    size_t a = 0, b = r->n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (mpq_cmp(r->hi[mid], t) > 0)
            b = mid;
        else
            a = mid + 1;
    }
    *at = a;
    if (a == r->n)
        return 0;
    int c = mpq_cmp(r->lo[a], td) < 0;
    return c || (empty && mpq_cmp(r->lo[a], t) <= 0);
}

/* The least t' >= t at which [t', t' + d) is idle on every resource of
 * rs[0..n) (gaps between earlier events are used). */
static void fit_mod(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d);

void ssched_i_scan_fit(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    if (c->modulo) {
        fit_mod(c, rs, n, t, d);
        return;
    }
    int empty = mpq_sgn(d) == 0, moved = 1;
    while (moved) {
        moved = 0;
        for (int k = 0; k < n; k++) {
            size_t at;
            for (;;) {
                mpq_add(c->u, t, d);
                if (!conflict(rs[k], t, c->u, empty, &at))
                    break;
                /* inside the dense prefix no gap holds d >= mind: past it */
                if (at + 1 < rs[k]->dense && !empty && mpq_sgn(rs[k]->mind) > 0 &&
                    mpq_cmp(d, rs[k]->mind) >= 0)
                    at = rs[k]->dense - 1;
                mpq_set(t, rs[k]->hi[at]);
                moved = 1;
            }
        }
    }
}

/* t mod P into c->off. */
static void mod_p(scan_ctx_t *c, const mpq_t t)
{
    mpq_div(c->off, t, c->P);
    mpz_fdiv_q(mpq_numref(c->v), mpq_numref(c->off), mpq_denref(c->off));
    mpz_set_ui(mpq_denref(c->v), 1);
    mpq_mul(c->v, c->v, c->P);
    mpq_sub(c->off, t, c->v);
}

/* fit() for a pattern repeated every P: [t, t + d) taken modulo P (in
 * one or two pieces) must miss every offset interval held; c->fail when a
 * whole period was scanned without room. */
/* Is [t, t + d) modulo P idle on r?  Touches c->off, c->u, c->v. */
static int idle_mod(scan_ctx_t *c, const tl_t *r, const mpq_t t, const mpq_t d)
{
    size_t at;
    int empty = mpq_sgn(d) == 0;
    mod_p(c, t);
    mpq_add(c->u, c->off, d);
    if (mpq_cmp(c->u, c->P) <= 0)
        return !conflict(r, c->off, c->u, empty, &at);
    if (conflict(r, c->off, c->P, 0, &at))
        return 0;
    mpq_sub(c->u, c->u, c->P);
    mpq_set_ui(c->v, 0, 1);
    return !conflict(r, c->v, c->u, 0, &at);
}

/* Modulo placement packs a saturated resource only if its events abut:
 * a start at t (ready) may leave a sliver before it that no later event
 * fills.  So the candidates are t and, on each resource, every start in
 * [t, t + P) whose offset is the end of an interval held there (left
 * adjacent) or whose end's offset is the start of one (right adjacent);
 * the idle candidate adjacent on the most resources wins, the earliest
 * at a tie.  0 when none is idle (then fit_mod's scan). */
static int fit_adjacent(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    mpq_t cand, best, base;
    mpq_inits(cand, best, base, NULL);
    mpq_set(base, t);
    mod_p(c, base);
    mpq_t base_off;
    mpq_init(base_off);
    mpq_set(base_off, c->off);
    int best_score = -1;
    for (int k = 0; k < n; k++)
        for (size_t x = 0; x <= 2 * rs[k]->n; x++) {
            if (x == 0) {
                if (k > 0)
                    continue;
                mpq_set(cand, base);
            } else {
                /* the target offset: an end, or a start less d */
                size_t i = (x - 1) / 2;
                if ((x - 1) % 2 == 0)
                    mpq_set(cand, rs[k]->hi[i]);
                else
                    mpq_sub(cand, rs[k]->lo[i], d);
                mpq_sub(cand, cand, base_off); /* offset difference */
                mod_p(c, cand);
                mpq_add(cand, base, c->off);
            }
            int ok = 1;
            for (int j = 0; j < n && ok; j++)
                ok = idle_mod(c, rs[j], cand, d);
            if (!ok)
                continue;
            int score = 0;
            mod_p(c, cand);
            mpq_set(c->t0, c->off);
            for (int j = 0; j < n; j++) {
                int adj = 0;
                mpq_add(c->u, c->t0, d);
                if (mpq_cmp(c->u, c->P) >= 0)
                    mpq_sub(c->u, c->u, c->P);
                for (size_t i = 0; i < rs[j]->n && !adj; i++)
                    adj = mpq_equal(rs[j]->hi[i], c->t0) || mpq_equal(rs[j]->lo[i], c->u) ||
                          (mpq_sgn(c->t0) == 0 && mpq_equal(rs[j]->hi[i], c->P));
                score += adj;
            }
            if (score > best_score || (score == best_score && mpq_cmp(cand, best) < 0)) {
                best_score = score;
                mpq_set(best, cand);
            }
        }
    if (best_score >= 0)
        mpq_set(t, best);
    mpq_clears(cand, best, base, base_off, NULL);
    return best_score >= 0;
}

static void fit_mod(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    if (!fit_adjacent(c, rs, n, t, d))
        ssched_i_scan_fit_earliest(c, rs, n, t, d);
}

/* The least t' >= t at which [t', t' + d) modulo P is idle on every
 * resource of rs[0..n) (c->fail when a whole period has no room). */
void ssched_i_scan_fit_earliest(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t, const mpq_t d)
{
    int empty = mpq_sgn(d) == 0, moved = 1;
    mpq_set(c->t0, t);
    mpq_add(c->t0, c->t0, c->P);
    while (moved && !c->fail) {
        moved = 0;
        for (int k = 0; k < n && !c->fail; k++) {
            size_t at;
            for (;;) {
                mod_p(c, t);
                mpq_add(c->u, c->off, d);
                if (mpq_cmp(c->u, c->P) <= 0) {
                    if (!conflict(rs[k], c->off, c->u, empty, &at))
                        break;
                    mpq_sub(c->v, rs[k]->hi[at], c->off);
                } else if (conflict(rs[k], c->off, c->P, 0, &at)) {
                    mpq_sub(c->v, rs[k]->hi[at], c->off);
                } else {
                    mpq_sub(c->u, c->u, c->P);
                    mpq_set_ui(c->v, 0, 1);
                    if (!conflict(rs[k], c->v, c->u, 0, &at))
                        break;
                    mpq_sub(c->v, c->P, c->off);
                    mpq_add(c->v, c->v, rs[k]->hi[at]);
                }
                mpq_add(t, t, c->v);
                moved = 1;
                if (mpq_cmp(t, c->t0) > 0) {
                    c->fail = 1;
                    break;
                }
            }
        }
    }
}

static void insert(tl_t *r, size_t pos, const mpq_t lo, const mpq_t hi);
static void extend_dense(tl_t *r);

/* Take [lo, hi) on r; 0 on out of memory. */
static int take(tl_t *r, const mpq_t lo, const mpq_t hi)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        mpq_t *a = realloc(r->lo, cap * sizeof *a), *b;
        if (!a)
            return 0;
        r->lo = a;
        if (!(b = realloc(r->hi, cap * sizeof *b)))
            return 0;
        r->hi = b;
        for (size_t x = r->cap; x < cap; x++)
            mpq_inits(r->lo[x], r->hi[x], NULL);
        r->cap = cap;
    }
    /* pos: after every interval starting at or before lo */
    size_t pos = 0, top = r->n;
    while (pos < top) {
        size_t mid = pos + (top - pos) / 2;
        if (mpq_cmp(r->lo[mid], lo) <= 0)
            pos = mid + 1;
        else
            top = mid;
    }
    /* Abutting non-empty intervals merge: the union answers every query
     * of conflict() alike (an overlap with either is one with the union,
     * and the jump past a conflict lands at the union's end either way),
     * while a resource packed back to back stays one interval, so fit()
     * skips it in one step instead of one per event (the greedy's cost
     * was K x events^2 x intervals).  Empty intervals stay apart. */
    int full = mpq_cmp(lo, hi) < 0;
    int left = full && pos > 0 && mpq_equal(r->hi[pos - 1], lo) &&
               mpq_cmp(r->lo[pos - 1], r->hi[pos - 1]) < 0;
    int right = full && pos < r->n && mpq_equal(r->lo[pos], hi) &&
                mpq_cmp(r->lo[pos], r->hi[pos]) < 0;
    if (left && right) { /* [lo[pos-1], hi[pos]) and pos leaves */
        mpq_swap(r->hi[pos - 1], r->hi[pos]);
        __mpq_struct sl = r->lo[pos][0], sh = r->hi[pos][0];
        memmove(&r->lo[pos], &r->lo[pos + 1], (r->n - pos - 1) * sizeof *r->lo);
        memmove(&r->hi[pos], &r->hi[pos + 1], (r->n - pos - 1) * sizeof *r->hi);
        r->lo[r->n - 1][0] = sl;
        r->hi[r->n - 1][0] = sh;
        r->n--;
        if (pos < r->dense)
            r->dense--;
    } else if (left) {
        mpq_set(r->hi[pos - 1], hi);
    } else if (right) {
        mpq_set(r->lo[pos], lo);
    } else {
        insert(r, pos, lo, hi);
    }
    extend_dense(r);
    return 1;
}

/* A new interval [lo, hi) at index pos (room for it is there). */
static void insert(tl_t *r, size_t pos, const mpq_t lo, const mpq_t hi)
{
    /* rotate the spare initialised slot r->n into pos */
    __mpq_struct sl = r->lo[r->n][0], sh = r->hi[r->n][0];
    memmove(&r->lo[pos + 1], &r->lo[pos], (r->n - pos) * sizeof *r->lo);
    memmove(&r->hi[pos + 1], &r->hi[pos], (r->n - pos) * sizeof *r->hi);
    r->lo[pos][0] = sl;
    r->hi[pos][0] = sh;
    mpq_set(r->lo[pos], lo);
    mpq_set(r->hi[pos], hi);
    r->n++;
    /* inside the dense prefix its gaps only split; first: the prefix
     * starts again (the gap after it is unknown) */
    if (pos == 0)
        r->dense = 0;
    else if (pos < r->dense)
        r->dense++;
}

/* Grow the dense prefix over every gap shorter than mind after it. */
static void extend_dense(tl_t *r)
{
    if (mpq_sgn(r->mind) <= 0)
        return;
    if (r->dense == 0 && r->n > 0)
        r->dense = 1;
    mpq_t g;
    mpq_init(g);
    while (r->dense < r->n) {
        mpq_sub(g, r->lo[r->dense], r->hi[r->dense - 1]);
        if (mpq_cmp(g, r->mind) >= 0)
            break;
        r->dense++;
    }
    mpq_clear(g);
}

/* Hold [lo, hi) on r, modulo P when the placement is modulo. */
int ssched_i_scan_hold(scan_ctx_t *c, tl_t *r, const mpq_t lo, const mpq_t hi)
{
    if (!c->modulo)
        return take(r, lo, hi);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mod_p(c, lo);
    mpq_set(a, c->off);
    mpq_sub(b, hi, lo);
    mpq_add(b, b, a);
    int ok;
    if (mpq_cmp(b, c->P) <= 0) {
        ok = take(r, a, b);
    } else {
        ok = take(r, a, c->P);
        mpq_sub(b, b, c->P);
        mpq_set_ui(a, 0, 1);
        ok = ok && take(r, a, b);
    }
    mpq_clears(a, b, NULL);
    return ok;
}

/* The least offset o in [0, P) such that [o, o + d) modulo P is idle on
 * every resource of rs[0..n), among 0 and the ends of the intervals held
 * there (an idle placement can always slide left onto one of them, so
 * these are the only offsets that pack without slivers), into out; 0 when
 * none is idle (or d > P). */
int ssched_i_scan_first_offset(scan_ctx_t *c, tl_t *const *rs, int n, const mpq_t d, mpq_t out)
{
    if (mpq_cmp(d, c->P) > 0)
        return 0;
    int found = 0;
    mpq_t cand;
    mpq_init(cand);
    for (int k = -1; k < n; k++)
        for (size_t i = 0; i < (k < 0 ? 1 : rs[k]->n); i++) {
            if (k < 0)
                mpq_set_ui(cand, 0, 1);
            else if (mpq_cmp(rs[k]->hi[i], c->P) >= 0)
                continue; /* the end P is the offset 0, tried first */
            else
                mpq_set(cand, rs[k]->hi[i]);
            if (found && mpq_cmp(cand, out) >= 0)
                continue;
            int ok = 1;
            for (int j = 0; j < n && ok; j++)
                ok = idle_mod(c, rs[j], cand, d);
            if (ok) {
                found = 1;
                mpq_set(out, cand);
            }
        }
    mpq_clear(cand);
    return found;
}
