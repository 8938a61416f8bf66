/* The unrolling engine's SHARED link profiles on a routed platform
 * (docs/model.md, "Routed schedules": bottleneck-rate sharing).
 *
 * A transfer over edge e runs at 1/c(e) during its bandwidth phase and
 * takes f(e, L) = link_c(L) / c(e) <= 1 of every SHARED link L of its
 * route; the rule is that at every instant the fractions on L sum to at
 * most 1.  Exact integers: per link L, D_L = the LCM of the denominators of
 * its fractions and w(e, L) = f(e, L) D_L, so the rule reads "sum of w <=
 * D_L".  When D_L would need more than 62 bits, every w on L is 1 and
 * D_L = 1: exclusive use of L (the v1 rule), stricter, still valid.
 *
 * The LP bounds a FATPIPE link's load per edge, not per flow (docs/model.md,
 * "Routed schedules"): with multi-port hosts, the transfers of one edge e whose
 * route crosses a FATPIPE also share a profile of e's own, each taking
 * g(e) = max over those links of link_c / c(e), so that the time average
 * stays the LP's row and K / TP <= makespan (the checker's claim).  (A
 * route of FATPIPE links only has g = 1: one message at a time, the rule
 * the engine already keeps with link_free.)  SimGrid needs no such rule:
 * it only delays.
 *
 * A profile is a step function: breakpoints t[0] < ... < t[n-1], usage
 * u[k] on [t[k], t[k+1]), u[n-1] = 0 (free from the last breakpoint on),
 * and 0 before t[0] as far as any future query goes: prune drops only the
 * segments ending by the flush mark, before which no future phase starts,
 * or by the profile's front less rlag (no phase fills a gap further back:
 * unroll_internal.h, so the profile and its searches stay bounded when
 * the run falls behind the pattern). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

int ssched_i_sched_links_init(sched_engine_t *e)
{
    const ssched_routes_t *rt = e->p->routes;
    size_t ne = e->p->n_edges, nl = rt ? rt->n_links : 0, nr = rt ? rt->route_start[ne] : 0;
    e->rprof = ssched_i_calloc(nl + ne + 1, sizeof *e->rprof);
    e->rlink_cap = ssched_i_calloc(nl + ne + 1, sizeof *e->rlink_cap);
    e->rroute_w = ssched_i_calloc(nr + 1, sizeof *e->rroute_w);
    e->redge_w = ssched_i_calloc(ne + 1, sizeof *e->redge_w);
    if (!e->rprof || !e->rlink_cap || !e->rroute_w || !e->redge_w)
        return 0;
    if (!rt)
        return 1;
    if (!rt->hosts_one_port) {
        e->cpuprof = ssched_i_calloc(e->p->n_nodes + 1, sizeof *e->cpuprof);
        if (!e->cpuprof)
            return 0;
    }
    mpz_t *D = ssched_i_alloc(nl, sizeof *D);
    if (!D)
        return 0;
    mpq_t f;
    mpz_t w;
    mpq_init(f);
    mpz_init(w);
    for (size_t L = 0; L < nl; L++)
        mpz_init_set_ui(D[L], 1);
    /* D_L: the LCM of the denominators of link_c(L) / c(e) */
    for (size_t x = 0; x < e->p->n_edges; x++)
        for (size_t k = rt->route_start[x]; k < rt->route_start[x + 1]; k++) {
            size_t L = rt->route_links[k];
            if (rt->sharing[L] != SSCHED_LINK_SHARED || mpz_sizeinbase(D[L], 2) > 62)
                continue;
            mpq_div(f, rt->link_c[L], e->p->c[x]);
            mpz_lcm(D[L], D[L], mpq_denref(f));
        }
    for (size_t L = 0; L < nl; L++)
        e->rlink_cap[L] = mpz_sizeinbase(D[L], 2) <= 62 ? (int64_t)mpz_get_ui(D[L]) : 1;
    for (size_t x = 0; x < e->p->n_edges; x++)
        for (size_t k = rt->route_start[x]; k < rt->route_start[x + 1]; k++) {
            size_t L = rt->route_links[k];
            if (rt->sharing[L] != SSCHED_LINK_SHARED)
                continue;
            if (mpz_sizeinbase(D[L], 2) > 62) {
                e->rroute_w[k] = 1; /* exclusive: the v1 rule */
                continue;
            }
            /* w = f D_L, a whole number <= D_L (c(e) is the route's
             * largest link c, so f <= 1) */
            mpq_div(f, rt->link_c[L], e->p->c[x]);
            mpz_divexact(w, D[L], mpq_denref(f));
            mpz_mul(w, w, mpq_numref(f));
            e->rroute_w[k] = (int64_t)mpz_get_ui(w);
        }
    /* the edges' own profiles: g(e), exact as num / den */
    mpq_t g;
    mpq_init(g);
    for (size_t x = 0; !rt->hosts_one_port && x < ne; x++) {
        mpq_set_ui(g, 0, 1);
        for (size_t k = rt->route_start[x]; k < rt->route_start[x + 1]; k++) {
            size_t L = rt->route_links[k];
            if (rt->sharing[L] == SSCHED_LINK_SHARED)
                continue;
            mpq_div(f, rt->link_c[L], e->p->c[x]);
            if (mpq_cmp(f, g) > 0)
                mpq_set(g, f);
        }
        if (mpq_sgn(g) == 0 || !ssched_i_sched_route_shared(e->p, x))
            continue; /* no FATPIPE; or FATPIPE only: link_free holds e */
        int fits = mpz_sizeinbase(mpq_denref(g), 2) <= 62;
        e->rlink_cap[nl + x] = fits ? (int64_t)mpz_get_ui(mpq_denref(g)) : 1;
        e->redge_w[x] = fits ? (int64_t)mpz_get_ui(mpq_numref(g)) : 1;
    }
    mpq_clear(g);
    for (size_t L = 0; L < nl; L++)
        mpz_clear(D[L]);
    free(D);
    mpq_clear(f);
    mpz_clear(w);
    return 1;
}

void ssched_i_sched_links_free(sched_engine_t *e)
{
    size_t nl = e->p->routes ? e->p->routes->n_links + e->p->n_edges : 0;
    for (size_t L = 0; e->rprof && L < nl; L++) {
        free(e->rprof[L].t);
        free(e->rprof[L].u);
    }
    free(e->rprof);
    for (size_t v = 0; e->cpuprof && v < e->p->n_nodes; v++) {
        free(e->cpuprof[v].t);
        free(e->cpuprof[v].u);
    }
    free(e->cpuprof);
    free(e->rlink_cap);
    free(e->rroute_w);
    free(e->redge_w);
}

/* The segment holding time x: the largest k with t[k] <= x, or -1 (x
 * before every breakpoint: usage 0 up to t[0]). */
static ptrdiff_t seg_of(const sched_profile_t *P, int64_t x)
{
    size_t lo = 0, hi = P->n; /* answer in [lo - 1, hi - 1] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (P->t[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

/* The earliest p' >= p such that [p', p' + len) (a point when len = 0)
 * takes w more of the profile without exceeding cap. */
static int64_t earliest(const sched_profile_t *P, int64_t w, int64_t cap, int64_t p, int64_t len,
                        int64_t lag)
{
    if (lag > 0 && P->front - lag > p)
        p = P->front - lag; /* no gap further back than lag */
    ptrdiff_t k = seg_of(P, p);
    if (k < 0)
        k = 0; /* before t[0]: free, the next segment to look at is 0 */
    else if (P->u[k] + w > cap)
        p = P->t[++k]; /* the last segment has u = 0: k + 1 < n */
    else
        k++;
    /* segment k - 1 holds p and fits; look at those starting before p + len */
    while ((size_t)k < P->n && P->t[k] < p + len) {
        if (P->u[k] + w > cap)
            p = P->t[k + 1];
        k++;
    }
    return p;
}

int64_t ssched_i_sched_links_earliest(const sched_engine_t *e, size_t edge, int64_t p, int64_t len)
{
    if (len <= 0)
        return p; /* an empty phase contains no instant: it takes nothing */
    const ssched_routes_t *rt = e->p->routes;
    size_t r0 = rt->route_start[edge], r1 = rt->route_start[edge + 1];
    /* the ratchet: each link's feasible starts are a union of intervals;
     * raising p to each link's earliest fit from p until none moves it
     * ends at the least common fit (no step passes it) */
    for (int moved = 1; moved;) {
        moved = 0;
        for (size_t k = r0; k < r1; k++) {
            size_t L = rt->route_links[k];
            if (rt->sharing[L] != SSCHED_LINK_SHARED)
                continue;
            int64_t q = earliest(&e->rprof[L], e->rroute_w[k], e->rlink_cap[L], p, len, e->rlag);
            if (q > p) {
                p = q;
                moved = 1;
            }
        }
        size_t x = rt->n_links + edge;
        if (e->redge_w[edge] > 0) {
            int64_t q = earliest(&e->rprof[x], e->redge_w[edge], e->rlink_cap[x], p, len, e->rlag);
            if (q > p) {
                p = q;
                moved = 1;
            }
        }
    }
    return p;
}

int64_t ssched_i_sched_links_earliest_set(const sched_engine_t *e, const size_t *links,
                                          const int64_t *w, size_t n, int64_t p, int64_t len)
{
    if (len <= 0)
        return p;
    for (int moved = 1; moved;) { /* the ratchet, as above */
        moved = 0;
        for (size_t k = 0; k < n; k++) {
            int64_t q = earliest(&e->rprof[links[k]], w[k], e->rlink_cap[links[k]], p, len,
                                 e->rlag);
            if (q > p) {
                p = q;
                moved = 1;
            }
        }
    }
    return p;
}

/* Make x a breakpoint; its index, -1 on ENOMEM. */
static ptrdiff_t breakpoint(sched_profile_t *P, int64_t x)
{
    ptrdiff_t k = seg_of(P, x);
    if (k >= 0 && P->t[k] == x)
        return k;
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 16;
        int64_t *t = realloc(P->t, cap * sizeof *t);
        if (t)
            P->t = t;
        int64_t *u = realloc(P->u, cap * sizeof *u);
        if (u)
            P->u = u;
        if (!t || !u)
            return -1;
        P->cap = cap;
    }
    size_t at = (size_t)(k + 1);
    memmove(P->t + at + 1, P->t + at, (P->n - at) * sizeof *P->t);
    memmove(P->u + at + 1, P->u + at, (P->n - at) * sizeof *P->u);
    P->t[at] = x;
    P->u[at] = k >= 0 ? P->u[k] : 0; /* a split keeps the usage */
    P->n++;
    return (ptrdiff_t)at;
}

/* Remove breakpoint k when it separates equal usages (or, k = 0, starts
 * a free segment: usage is 0 before it too), so a link busy without a
 * break is one segment and a search crosses it in one step. */
static void merge_at(sched_profile_t *P, size_t k)
{
    if (k >= P->n || (k > 0 ? P->u[k - 1] != P->u[k] : P->u[0] != 0))
        return;
    memmove(P->t + k, P->t + k + 1, (P->n - k - 1) * sizeof *P->t);
    memmove(P->u + k, P->u + k + 1, (P->n - k - 1) * sizeof *P->u);
    P->n--;
}

/* Take w more of P over [lo, hi); 0 on ENOMEM. */
static int profile_add(sched_profile_t *P, int64_t w, int64_t lo, int64_t hi)
{
    if (lo > P->front)
        P->front = lo;
    ptrdiff_t a = breakpoint(P, lo), b = a < 0 ? -1 : breakpoint(P, hi);
    if (a < 0 || b < 0)
        return 0;
    a = seg_of(P, lo); /* inserting hi may not move lo (hi > lo) */
    for (ptrdiff_t j = a; j < b; j++)
        P->u[j] += w;
    merge_at(P, (size_t)b); /* the later one first: a's index stays */
    merge_at(P, (size_t)a);
    return 1;
}

int64_t ssched_i_sched_cpu_earliest(const sched_engine_t *e, size_t node, int64_t p, int64_t len)
{
    if (len <= 0)
        return p;
    return earliest(&e->cpuprof[node], 1, 1, p, len, e->rlag);
}

int ssched_i_sched_cpu_add(sched_engine_t *e, size_t node, int64_t lo, int64_t hi)
{
    return hi <= lo || profile_add(&e->cpuprof[node], 1, lo, hi);
}

int ssched_i_sched_links_add(sched_engine_t *e, size_t edge, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return 1; /* an empty phase takes nothing */
    const ssched_routes_t *rt = e->p->routes;
    size_t r0 = rt->route_start[edge], r1 = rt->route_start[edge + 1];
    for (size_t k = r0; k <= r1; k++) {
        /* the route's SHARED links, then (k = r1) the edge's own profile */
        size_t L = k < r1 ? rt->route_links[k] : rt->n_links + edge;
        int64_t w = k < r1 ? e->rroute_w[k] : e->redge_w[edge];
        if ((k < r1 && rt->sharing[L] != SSCHED_LINK_SHARED) || w == 0)
            continue;
        if (!profile_add(&e->rprof[L], w, lo, hi))
            return 0;
    }
    return 1;
}

int ssched_i_sched_links_add_set(sched_engine_t *e, const size_t *links, const int64_t *w,
                                 size_t n, int64_t lo, int64_t hi)
{
    for (size_t k = 0; hi > lo && k < n; k++)
        if (w[k] > 0 && !profile_add(&e->rprof[links[k]], w[k], lo, hi))
            return 0;
    return 1;
}

void ssched_i_sched_links_prune(sched_engine_t *e, int64_t mark)
{
    size_t nl = e->p->routes ? e->p->routes->n_links + e->p->n_edges : 0;
    size_t nc = e->cpuprof ? e->p->n_nodes : 0;
    for (size_t L = 0; L < nl + nc; L++) {
        sched_profile_t *P = L < nl ? &e->rprof[L] : &e->cpuprof[L - nl];
        int64_t cut = e->rlag > 0 && P->front - e->rlag > mark ? P->front - e->rlag : mark;
        size_t drop = 0; /* the segments [t[k], t[k+1]) with t[k+1] <= cut */
        while (drop + 1 < P->n && P->t[drop + 1] <= cut)
            drop++;
        if (drop == 0)
            continue;
        memmove(P->t, P->t + drop, (P->n - drop) * sizeof *P->t);
        memmove(P->u, P->u + drop, (P->n - drop) * sizeof *P->u);
        P->n -= drop;
    }
}
