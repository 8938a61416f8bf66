/* Shared-rate groups in the unrolling engine (docs/model.md, "Shared
 * rates"; the checker's rule: check_shared.c).
 *
 * Bottleneck-rate sharing runs every transfer at its full rate 1/c(e): two
 * transfers whose shares of one SHARED link L sum above 1 run one after
 * the other there.  On small_platform.xml four values go into Bourassa
 * each operation with shares 0.702, 1, 0.621 and 0.869 of its link "7":
 * 14.62 ms one after the other, where the link's fluid load is 11.28 ms.
 * A group runs g such transfers of one whole value each (equal amounts z)
 * together: bandwidth phases starting at one instant (each sent its latency
 * earlier) and ending at one, each at rate 1 / (g link_c(L)), taking 1/g of
 * L (which they saturate alone) and link_c(L') / (g link_c(L)) of each other
 * SHARED link L' of its route; CM02's max-min gives each member exactly
 * that rate (check_shared.c says why).  The group lasts g z link_c(L):
 * 11.28 ms for the four.
 *
 * Rule of this engine (a candidate the planner ranks by exact makespan,
 * unroll_order bit 64): the whole transfers of a period are deferred, then
 * taken in their order; a transfer t whose route's SHARED link L carries
 * more than half of it (f(t, L) > 1/2: two such transfers never overlap at
 * full rates) is grouped with the later deferred transfers of the same
 * operation that also take more than half of L (the L gathering most;
 * at most 8), when the group beats them one after the other on L (some
 * member's f < 1: the serial time z link_c(L) sum 1/f exceeds g z link_c(L)),
 * every member's route is SHARED links only, latencies are whole ticks and
 * the group's duration is too.  The group's phase starts at the least time
 * no earlier than every member's input (and release) plus its latency at
 * which it fits under the profiles: all of L (its whole capacity D_L) and,
 * on every other link, the members' shares rounded up to whole units of
 * the profile (never less than the true share: the profile is at least as
 * strict as the checker).  Members of unequal latencies (SimGrid's
 * sharing penalties differ) form a latency-weighted group instead
 * (unroll_shared_w.c).  Any other transfer is placed alone as before. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

#define GROUP_MAX 8

int ssched_i_sched_defer(sched_deferred_t *q, size_t edge, size_t type, size_t op, int64_t ready,
                         int64_t *av)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 32;
        sched_defer_t *d = realloc(q->d, cap * sizeof *d);
        if (d)
            q->d = d;
        unsigned char *done = realloc(q->done, cap);
        if (done)
            q->done = done;
        if (!d || !done)
            return 0;
        q->cap = cap;
    }
    q->d[q->n] = (sched_defer_t){edge, type, op, ready, av};
    q->done[q->n++] = 0;
    return 1;
}

void ssched_i_sched_deferred_free(sched_deferred_t *q)
{
    free(q->d);
    free(q->done);
    memset(q, 0, sizeof *q);
}

ssched_status_t ssched_i_sched_emit_group(sched_engine_t *e, const sched_defer_t *const *m,
                                          size_t g, size_t link, int64_t ph, int64_t dur,
                                          ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < g && st == SSCHED_OK; k++) {
        sched_event_t ev = {0};
        ev.edge = m[k]->edge;
        ev.type = m[k]->type;
        ev.op = m[k]->op;
        ev.lat = e->lat_hi[ev.edge];
        ev.start = ph - ev.lat;
        ev.group = (unsigned long)g;
        ev.group_link = link;
        ev.end = ph + dur;
        ev.off = 0;
        ev.len = ev.bamt = e->sc.a;
        if (ev.end > e->makespan)
            e->makespan = ev.end;
        e->transfers++;
        *m[k]->av = ev.end;
        st = ssched_i_sched_push_event(e, &ev, err);
    }
    return st;
}

/* May edge x be in a group: routed, SHARED links only, a positive latency
 * (SimGrid's sharing penalty) the scale holds. */
static int eligible(const sched_engine_t *e, size_t x)
{
    const ssched_routes_t *rt = e->p->routes;
    if (!rt || rt->hosts_one_port || e->redge_w[x] != 0 || e->lat_hi[x] < 0 || !e->p->l ||
        mpq_sgn(e->p->l[x]) <= 0)
        return 0;
    for (size_t k = rt->route_start[x]; k < rt->route_start[x + 1]; k++)
        if (rt->sharing[rt->route_links[k]] != SSCHED_LINK_SHARED)
            return 0;
    return 1;
}

/* The route position of link L on edge x's route whose share is more than
 * half (2 w > D_L), or SIZE_MAX. */
static size_t heavy_at(const sched_engine_t *e, size_t x, size_t L)
{
    const ssched_routes_t *rt = e->p->routes;
    for (size_t k = rt->route_start[x]; k < rt->route_start[x + 1]; k++)
        if (rt->route_links[k] == L)
            return 2 * e->rroute_w[k] > e->rlink_cap[L] ? k : SIZE_MAX;
    return SIZE_MAX;
}

/* The group's phase in ticks, g z link_c(L) / tick (z = size: one whole
 * value): exact, or (rounded scale) its ceiling, the reserved phase
 * holding the real one; -1 unless a whole number (exact scale) that int64
 * holds. */
static int64_t group_ticks(const sched_engine_t *e, size_t g, size_t L)
{
    mpq_t d;
    mpq_init(d);
    mpq_mul(d, e->p->routes->link_c[L], e->pb->size);
    mpz_mul_ui(mpq_numref(d), mpq_numref(d), (unsigned long)g);
    mpq_canonicalize(d);
    mpq_div(d, d, e->sc.tick);
    int64_t r = -1;
    if (e->sc.rounded)
        mpz_cdiv_q(mpq_numref(d), mpq_numref(d), mpq_denref(d));
    if ((e->sc.rounded || mpz_cmp_ui(mpq_denref(d), 1) == 0) &&
        mpz_sizeinbase(mpq_numref(d), 2) <= 60)
        r = mpz_get_si(mpq_numref(d));
    mpq_clear(d);
    return r;
}

int ssched_i_sched_group_reserve(sched_engine_t *e, const sched_defer_t *const *m, size_t g,
                                const size_t *links, const int64_t *w, size_t n, int64_t dur,
                                int64_t *at, ssched_error_t *err)
{
    int64_t ph = 0;
    for (size_t k = 0; k < g; k++) {
        /* lat_hi: at least l(e) (a rounded scale's ceiling) */
        int64_t p = (m[k]->ready > e->release ? m[k]->ready : e->release) +
                    e->lat_hi[m[k]->edge];
        if (p > ph)
            ph = p;
    }
    ph = ssched_i_sched_links_earliest_set(e, links, w, n, ph, dur);
    if (ph > INT64_MAX / 4 - dur) {
        ssched_error_set(err, SSCHED_EINPUT,
                         "the unrolled schedule's times need more than 62 bits of ticks; "
                         "use fewer operations or a shorter period (max_period)");
        return -1;
    }
    if (!ssched_i_sched_links_add_set(e, links, w, n, ph, ph + dur)) {
        ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    *at = ph;
    return 1;
}

/* Place the group m[0..g) on L: 1 placed, 0 not possible (placed alone
 * then), -1 error (err set). */
static int place_group(sched_engine_t *e, const sched_defer_t *const *m, size_t g, size_t L,
                       ssched_error_t *err)
{
    const ssched_routes_t *rt = e->p->routes;
    int64_t dur = group_ticks(e, g, L);
    if (dur <= 0)
        return 0;
    /* the union of the routes' links and the group's weight on each */
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < g; k++)
        cap += rt->route_start[m[k]->edge + 1] - rt->route_start[m[k]->edge];
    size_t *links = ssched_i_alloc(cap, sizeof *links);
    int64_t *w = ssched_i_alloc(cap, sizeof *w);
    if (!links || !w) {
        free(links);
        free(w);
        ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return -1;
    }
    mpq_t sh;
    mpz_t up;
    mpq_init(sh);
    mpz_init(up);
    int ok = 1;
    for (size_t k = 0; k < g && ok; k++) {
        size_t x = m[k]->edge;
        for (size_t r = rt->route_start[x]; r < rt->route_start[x + 1] && ok; r++) {
            size_t l = rt->route_links[r], at = 0;
            while (at < n && links[at] != l)
                at++;
            if (at == n) {
                links[n] = l;
                w[n++] = 0;
            }
            if (l == L) {
                w[at] = e->rlink_cap[L]; /* all of it: 1/g each */
                continue;
            }
            /* ceil(D_l link_c(l) / (g link_c(L))) */
            mpq_set_ui(sh, (unsigned long)g, 1);
            mpq_mul(sh, sh, rt->link_c[L]);
            mpq_div(sh, rt->link_c[l], sh);
            mpz_mul_si(up, mpq_numref(sh), e->rlink_cap[l]);
            mpz_cdiv_q(up, up, mpq_denref(sh));
            if (mpz_cmp_si(up, e->rlink_cap[l] - w[at]) > 0)
                ok = 0; /* the group alone would overfill l */
            else
                w[at] += mpz_get_si(up);
        }
    }
    mpq_clear(sh);
    mpz_clear(up);
    int64_t ph = 0;
    int r = ok ? ssched_i_sched_group_reserve(e, m, g, links, w, n, dur, &ph, err) : 0;
    if (r == 1)
        r = ssched_i_sched_emit_group(e, m, g, L, ph, dur, err) == SSCHED_OK ? 1 : -1;
    free(links);
    free(w);
    return r;
}

/* The best group led by q->d[i]: its link (SIZE_MAX: none) and members. */
static size_t find_group(const sched_engine_t *e, const sched_deferred_t *q, size_t i,
                         const sched_defer_t **m, size_t *g)
{
    const ssched_routes_t *rt = e->p->routes;
    size_t x = q->d[i].edge, best = SIZE_MAX;
    *g = 0;
    if (!eligible(e, x))
        return SIZE_MAX;
    for (size_t r = rt->route_start[x]; r < rt->route_start[x + 1]; r++) {
        size_t L = rt->route_links[r];
        if (heavy_at(e, x, L) == SIZE_MAX)
            continue;
        const sched_defer_t *c[GROUP_MAX];
        size_t n = 0;
        int gain = e->rroute_w[r] < e->rlink_cap[L];
        c[n++] = &q->d[i];
        for (size_t j = i + 1; j < q->n && n < GROUP_MAX; j++) {
            size_t y = q->d[j].edge, at;
            /* unequal latencies: a latency-weighted group (unroll_shared_w.c) */
            if (q->done[j] || q->d[j].op != q->d[i].op || !eligible(e, y) ||
                (at = heavy_at(e, y, L)) == SIZE_MAX)
                continue;
            gain |= e->rroute_w[at] < e->rlink_cap[L];
            c[n++] = &q->d[j];
        }
        if (n >= 2 && gain && n > *g) {
            memcpy(m, c, n * sizeof *c);
            *g = n;
            best = L;
        }
    }
    return best;
}

ssched_status_t ssched_i_sched_place_deferred(sched_engine_t *e, sched_deferred_t *q,
                                              ssched_error_t *err)
{
    ssched_status_t st = q->n ? ssched_i_sched_lat_ready(e, err) : SSCHED_OK;
    for (size_t i = 0; i < q->n && st == SSCHED_OK; i++) {
        if (q->done[i])
            continue;
        const sched_defer_t *m[GROUP_MAX];
        size_t g;
        size_t L = find_group(e, q, i, m, &g);
        int same = 1;
        for (size_t k = 1; k < g && L != SIZE_MAX; k++)
            same &= mpq_equal(e->p->l[m[k]->edge], e->p->l[m[0]->edge]);
        int placed = L == SIZE_MAX ? 0
                     : same        ? place_group(e, m, g, L, err)
                                   : ssched_i_sched_place_weighted(e, m, g, L, err);
        if (placed < 0)
            return err->status != SSCHED_OK ? err->status : SSCHED_EINTERNAL;
        if (placed) {
            for (size_t k = 0; k < g; k++)
                q->done[(size_t)(m[k] - q->d)] = 1;
            continue;
        }
        int64_t end;
        st = ssched_i_sched_emit_transfer(e, q->d[i].edge, q->d[i].type, q->d[i].op, 0, e->sc.a,
                                          q->d[i].ready, &end, err);
        *q->d[i].av = end;
        q->done[i] = 1;
    }
    q->n = 0;
    return st;
}

/* Does edge x take more than half of SHARED link L (route position k)? */
static int heavy_q(const ssched_platform_t *p, size_t x, size_t k, mpq_t t)
{
    const ssched_routes_t *rt = p->routes;
    size_t L = rt->route_links[k];
    if (rt->sharing[L] != SSCHED_LINK_SHARED)
        return 0;
    mpq_add(t, rt->link_c[L], rt->link_c[L]);
    return mpq_cmp(t, p->c[x]) > 0;
}

/* Could edges x and y form a group (the engine's rule, necessary
 * conditions): positive latencies, both taking more than half of a
 * common SHARED link, one of them less than all of it. */
static int pair_possible(const ssched_platform_t *p, size_t x, size_t y, mpq_t t)
{
    const ssched_routes_t *rt = p->routes;
    if (x == y || !p->l || mpq_sgn(p->l[x]) <= 0 || mpq_sgn(p->l[y]) <= 0)
        return 0;
    for (size_t i = rt->route_start[x]; i < rt->route_start[x + 1]; i++)
        for (size_t j = rt->route_start[y]; j < rt->route_start[y + 1]; j++) {
            size_t L = rt->route_links[i];
            if (L == rt->route_links[j] && heavy_q(p, x, i, t) && heavy_q(p, y, j, t) &&
                (mpq_cmp(rt->link_c[L], p->c[x]) != 0 || mpq_cmp(rt->link_c[L], p->c[y]) != 0))
                return 1;
        }
    return 0;
}

/* Could the pattern hold a group at all: members are transfers of one
 * operation, so two sends of one tree.  Spares the planner a replay per
 * candidate where none can form. */
static int groups_possible(const ssched_platform_t *p, const ssched_schedule_t *s)
{
    mpq_t t;
    mpq_init(t);
    int found = 0;
    for (size_t k = 0; k < s->trees.n_trees && !found; k++) {
        const ssched_tree_t *tr = &s->trees.trees[k];
        for (size_t a = 0; a < tr->n_tasks && !found; a++)
            for (size_t b = a + 1; b < tr->n_tasks && !found; b++)
                found = tr->tasks[a].kind == SSCHED_TREE_SEND &&
                        tr->tasks[b].kind == SSCHED_TREE_SEND &&
                        pair_possible(p, tr->tasks[a].edge, tr->tasks[b].edge, t);
    }
    mpq_clear(t);
    return found;
}

void ssched_i_sched_plan_groups(const ssched_platform_t *p, const ssched_problem_t *pb,
                                ssched_schedule_t *s, size_t K, mpq_t est)
{
    if (!p->routes || p->routes->hosts_one_port || pb->kind != SSCHED_PROBLEM_REDUCE ||
        (s->unroll_order & 64) || !groups_possible(p, s))
        return;
    int was = s->unroll_order;
    s->unroll_order = was | 64;
    mpq_t t;
    mpq_init(t);
    ssched_i_sched_plan_rank(p, pb, s, K, t);
    if (mpq_sgn(t) > 0 && mpq_cmp(t, est) < 0)
        mpq_set(est, t);
    else
        s->unroll_order = was;
    mpq_clear(t);
}
