/* Private interfaces of the unrolled scan (schedule/unroll_scan*.c). */
#ifndef SSCHED_SCHEDULE_SCAN_INTERNAL_H
#define SSCHED_SCHEDULE_SCAN_INTERNAL_H

#include "src/util/internal.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"

/* The figures of the unrolled scan u of K operations (u->fig and its
 * shorthands): makespan, TP (st's achievable throughput), K / TP, LB1
 * (ssched_scan_lb1), LB(K), ratio; the "pattern" is one operation per
 * 1 / TP (the rate the assignment follows). */
SSCHED_INTERNAL ssched_status_t ssched_i_scan_figures(const ssched_platform_t *p,
                                                      const ssched_problem_t *pb,
                                                      const ssched_steady_t *st, size_t K,
                                                      ssched_unrolled_t *u, ssched_error_t *err);

/* The unrolled scan's placement state (schedule/unroll_scan*.c). */
/* A resource's busy intervals [lo, hi), disjoint, sorted. */
typedef struct {
    mpq_t *lo, *hi;
    size_t n, cap;
    /* mind > 0: no event on this resource holds it for less; then the
     * first `dense` intervals have only gaps shorter than mind between
     * them, which no event can use (gaps only shrink as intervals come) */
    mpq_t mind;
    size_t dense;
} tl_t;

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    size_t N, nI, nn;
    tl_t *res;                 /* send ports, receive ports, processors
                                  (nn each), then switch links (per edge) */
    mpq_t *avail;              /* nn x nI: when the value is at the node    */
    unsigned *stamp;           /* avail[x] is set iff stamp[x] == cur       */
    unsigned cur;
    mpq_t t, u, best, dur, lat;
    /* modulo placement (a pattern repeated every P): resources hold the
     * offsets in [0, P) of what one pattern uses; fail: no room */
    int modulo, fail;
    mpq_t P, off, t0, v;
} scan_ctx_t;

/* v[k,m]'s type: intervals in row order (k, then m), sum_{k' < k} (N - k')
 * before row k. */
static inline size_t ssched_i_scan_iv(const scan_ctx_t *c, size_t k, size_t m)
{
    return k == 0 ? m : k * c->N - k * (k - 1) / 2 + (m - k);
}

/* unroll_scan_busy.c: the least t' >= t at which [t', t' + d) is idle on
 * every resource of rs[0..n) (modulo c->P when c->modulo; c->fail when a
 * whole period has no room; fit prefers a start abutting held intervals,
 * fit_earliest does not); the least packing offset (see there); hold
 * [lo, hi) on r (0: out of memory). */
SSCHED_INTERNAL void ssched_i_scan_fit(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t,
                                       const mpq_t d);
SSCHED_INTERNAL void ssched_i_scan_fit_earliest(scan_ctx_t *c, tl_t *const *rs, int n, mpq_t t,
                                                const mpq_t d);
SSCHED_INTERNAL int ssched_i_scan_first_offset(scan_ctx_t *c, tl_t *const *rs, int n,
                                               const mpq_t d, mpq_t out);
SSCHED_INTERNAL int ssched_i_scan_hold(scan_ctx_t *c, tl_t *r, const mpq_t lo, const mpq_t hi);

/* unroll_scan_greedy.c: the resources of a transfer over e (bandwidth
 * phase) into rs, their count; the structure of each of n operations by
 * the deficit rule; operations 0..n-1 placed into u (emptied first),
 * modulo c->P when modulo. */
SSCHED_INTERNAL int ssched_i_scan_transfer_res(scan_ctx_t *c, size_t e, tl_t **rs);
/* The pieces of an event (a send x < n_sends, else a task) shared by the
 * greedy and the offset placements: when its inputs are there (0 if one
 * is missing); the resources it holds, its latency and held length; a new
 * operation begun (only every v[k,k] at r_k); the event emitted at start
 * (resources held when hold). */
SSCHED_INTERNAL int ssched_i_scan_ready(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x,
                                        mpq_t t);
SSCHED_INTERNAL int ssched_i_scan_event(scan_ctx_t *c, const ssched_scan_structure_t *s, size_t x,
                                        tl_t **rs, mpq_t lat, mpq_t d);
SSCHED_INTERNAL void ssched_i_scan_begin_op(scan_ctx_t *c);
SSCHED_INTERNAL ssched_status_t ssched_i_scan_emit(scan_ctx_t *c, const ssched_scan_structure_t *s,
                                                   size_t x, size_t op, const mpq_t start, int hold,
                                                   ssched_unrolled_t *u, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_scan_assign(scan_ctx_t *c, const ssched_steady_t *st, size_t n,
                                          size_t *count, size_t *pick_out);
SSCHED_INTERNAL ssched_status_t ssched_i_scan_run_ops(scan_ctx_t *c, const ssched_steady_t *st,
                                                      size_t n, int modulo, size_t *count,
                                                      unsigned char *done, ssched_unrolled_t *u,
                                                      ssched_error_t *err);

/* unroll_scan_modulo.c: the modulo pattern repeated (see there); the
 * events of u cleared (its arrays kept). */
SSCHED_INTERNAL ssched_status_t ssched_i_scan_try_modulo(scan_ctx_t *c, const ssched_steady_t *st,
                                                         size_t K, size_t *count,
                                                         unsigned char *done,
                                                         ssched_unrolled_t *out, mpq_t ratio,
                                                         ssched_error_t *err);
/* unroll_scan_offset.c: n operations (structures by the deficit rule)
 * placed modulo c->P offsets first (hybrid: only the busiest resources'
 * events, the others at their earliest room in data order), into pat (its
 * events appended); *placed = 0 when an event finds no room. */
SSCHED_INTERNAL ssched_status_t ssched_i_scan_offset_place(scan_ctx_t *c,
                                                           const ssched_steady_t *st, size_t n,
                                                           int hybrid, size_t *count,
                                                           ssched_unrolled_t *pat, int *placed,
                                                           ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_scan_clear_events(ssched_unrolled_t *u);

/* unroll_scan.c: n initialised rationals (NULL on out of memory). */
SSCHED_INTERNAL mpq_t *ssched_i_scan_q_array(size_t n);

#endif
