/* Checker: a transfer's duration, at its full rate or as a member of a
 * shared-rate group (docs/model.md, "Routed schedules" and "Shared
 * rates").
 *
 * Full rate: a transfer over e of z = batch * length * size units lasts
 * l(e) + z c(e), c(e) its route's slowest link.
 *
 * Shared rate (routed, multi-port hosts): g >= 2 transfers of equal z whose
 * bandwidth phases start and end at the same instants, all crossing one
 * SHARED link L, each at rate 1 / (g link_c(L)) < 1 / c(e) (no faster than
 * its own bottleneck).  Each takes 1/g of L, so L is saturated by the g of
 * them alone (the capacity rule of check_ports.c keeps every other phase
 * off L then), and the share link_c(L') / (g link_c(L)) <= link_c(L') / c(e)
 * of each other SHARED link L' of its route.  Why SimGrid gives each member
 * exactly that rate (CM02, weight-S 0: max-min without penalties): every
 * member has a saturated link, L, on which its rate is the largest (they
 * are equal); a full-rate flow keeps its own saturated bottleneck L0 (f =
 * 1) where its rate 1/link_c(L0) is the largest, since a member crossing
 * L0 runs slower than its own bottleneck, itself no faster than
 * 1/link_c(L0).  Every flow has such a link: the allocation is the max-min
 * fair one, unique.  The checker re-derives g and L from the times alone:
 * the phase is end - start - l(e); g = phase / (z link_c(L)) must be a whole
 * number >= 2 for a SHARED link L of the route (the first such link in
 * route order), and the group is counted by check_ports.c.  A slower
 * transfer that fits no whole g is a latency-weighted member
 * (check_shared_w.c) when it moves one whole value over a route with a
 * latency. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

void ssched_i_chk_transfer_time(const chk_t *c, size_t edge, size_t batch, const mpq_t len,
                                mpq_t d)
{
    mpq_mul(d, c->cost[edge], c->size);
    mpq_mul(d, d, len);
    if (batch > 1) {
        mpq_t b;
        mpq_init(b);
        mpq_set_ui(b, (unsigned long)batch, 1);
        mpq_mul(d, d, b);
        mpq_clear(b);
    }
    if (c->lat)
        mpq_add(d, d, c->lat[edge]);
}

/* z = batch * len * size: the amount the phase moves. */
static void amount(const chk_t *c, size_t batch, const mpq_t len, mpq_t z)
{
    mpq_mul(z, c->size, len);
    if (batch > 1) {
        mpq_t b;
        mpq_init(b);
        mpq_set_ui(b, (unsigned long)batch, 1);
        mpq_mul(z, z, b);
        mpq_clear(b);
    }
}

int ssched_i_chk_duration_group(chk_t *c, size_t edge, size_t batch, const mpq_t len,
                                const mpq_t start, const mpq_t end, const char *where, mpq_t d,
                                unsigned long *g, size_t *link)
{
    *g = 0;
    mpq_t q, z;
    mpq_inits(q, z, NULL);
    mpq_sub(q, end, start);
    ssched_i_chk_transfer_time(c, edge, batch, len, d);
    int ok = mpq_equal(q, d);
    if (!ok && c->routed && !c->hosts_one_port && mpq_cmp(q, d) > 0) {
        /* slower than the full rate: phase / (z link_c(L)) a whole g >= 2 */
        if (c->lat)
            mpq_sub(q, q, c->lat[edge]); /* the bandwidth phase */
        amount(c, batch, len, z);
        for (size_t k = c->route_start[edge]; !ok && k < c->route_start[edge + 1]; k++) {
            size_t L = c->route_links[k];
            if (c->fatpipe[L] || mpq_sgn(z) == 0)
                continue;
            mpq_mul(d, z, c->link_c[L]);
            mpq_div(d, q, d);
            if (mpz_cmp_ui(mpq_denref(d), 1) == 0 && mpz_cmp_ui(mpq_numref(d), 2) >= 0 &&
                mpz_fits_ulong_p(mpq_numref(d))) {
                *g = mpz_get_ui(mpq_numref(d));
                *link = L;
                ok = 1;
            }
        }
        mpq_sub(q, end, start);
        ssched_i_chk_transfer_time(c, edge, batch, len, d);
        /* else a latency-weighted member (check_shared_w.c): one whole
         * value, a positive latency (its sharing penalty); its end is
         * checked with its group's */
        if (!ok && c->lat && mpq_sgn(c->lat[edge]) > 0 && batch <= 1 &&
            mpq_cmp_ui(len, 1, 1) == 0) {
            *g = CHK_WEIGHTED;
            *link = 0;
            ok = 1;
        }
    }
    if (!ok)
        ssched_i_chk_violation(c, "%s: lasts %s time units than %s", where,
                               mpq_cmp(q, d) < 0 ? "fewer" : "more",
                               c->has_lat ? "l + batch*length*size*c" : "length*size*c");
    mpq_clears(q, z, NULL);
    return ok;
}

/* The groups of check_ports.c's routed takes. */

/* Pending groups whose phase starts
 * before now are short (every member starts by its phase's start, and
 * events come in start order): 1 with P->hit_link the group's index. */
int ssched_i_chk_group_short(chk_ports_t *P, const mpq_t now)
{
    for (size_t k = 0; k < P->n_grp; k++)
        if (mpq_cmp(P->grp[k].lo, now) < 0) {
            P->hit_link = k;
            return 1;
        }
    return 0;
}

static void group_drop(chk_ports_t *P, size_t k)
{
    chk_group_t t = P->grp[k];
    P->grp[k] = P->grp[--P->n_grp];
    P->grp[P->n_grp] = t; /* its mpqs stay initialised for reuse */
}

/* Count the phase [P->lo, end) on the pending groups it belongs to: same
 * phase and latency (SimGrid's sharing penalty: equal penalties, equal
 * rates), crossing the group's link, taking 1/g there (a full-rate
 * transfer whose share is 1/g runs exactly as a member).  A member (g > 0)
 * with no pending group opens one per SHARED link of its route of that
 * link_c (its shares do not depend on which: z link_c(L') / phase), each
 * counting the kept phases that qualify; when one is complete its
 * siblings go.  Must run before the phase is kept; 0 on ENOMEM, 2 a
 * member with no latency (SimGrid's penalty 0: no group rule). */
int ssched_i_chk_group_count(const chk_t *c, chk_ports_t *P, size_t edge, const mpq_t end,
                             unsigned long g, size_t gl, size_t index)
{
    int found = 0;
    for (size_t k = 0; k < P->n_grp; k++) {
        chk_group_t *G = &P->grp[k];
        if (!mpq_equal(G->lo, P->lo) || !mpq_equal(G->hi, end) ||
            !mpq_equal(c->lat[G->edge], c->lat[edge]))
            continue;
        int in = 0;
        for (size_t r = c->route_start[edge]; r < c->route_start[edge + 1]; r++) {
            if (c->route_links[r] != G->link)
                continue;
            ssched_i_chk_share(c, P, r, g, gl, G->link, P->sh);
            in = mpz_cmp_ui(mpq_numref(P->sh), 1) == 0 && mpz_cmp_ui(mpq_denref(P->sh), G->g) == 0;
        }
        if (in) {
            G->count++;
            found |= g != 0;
        }
    }
    if (g && !found && mpq_sgn(c->lat[edge]) <= 0)
        return 2;
    for (size_t r = c->route_start[edge]; g && !found && r < c->route_start[edge + 1]; r++) {
        size_t L = c->route_links[r];
        if (c->fatpipe[L] || !mpq_equal(c->link_c[L], c->link_c[gl]))
            continue;
        if (P->n_grp == P->cap_grp) {
            size_t cap = P->cap_grp ? 2 * P->cap_grp : 4;
            chk_group_t *n = realloc(P->grp, cap * sizeof *n);
            if (!n)
                return 0;
            for (size_t k = P->cap_grp; k < cap; k++)
                mpq_inits(n[k].lo, n[k].hi, NULL);
            P->grp = n;
            P->cap_grp = cap;
        }
        chk_group_t *G = &P->grp[P->n_grp++];
        mpq_set(G->lo, P->lo);
        mpq_set(G->hi, end);
        G->link = L;
        G->g = g;
        G->edge = edge;
        G->index = index;
        G->count = 1;
        /* the members placed before it (kept: they end after now) */
        chk_res_t *R = &P->res[3 * P->n_nodes + P->n_edges + L];
        for (size_t k = 0; k < R->n; k++) {
            if (!mpq_equal(R->iv[k].lo, P->lo) || !mpq_equal(R->iv[k].hi, end) ||
                !mpq_equal(c->lat[R->iv[k].edge], c->lat[edge]))
                continue;
            ssched_i_chk_share(c, P, R->iv[k].wi, R->iv[k].g, R->iv[k].gl, L, P->sh);
            if (mpz_cmp_ui(mpq_numref(P->sh), 1) == 0 && mpz_cmp_ui(mpq_denref(P->sh), g) == 0)
                G->count++;
        }
    }
    for (size_t k = P->n_grp; k-- > 0;) {
        if (k >= P->n_grp || P->grp[k].count < P->grp[k].g)
            continue;
        /* complete (the capacity rule keeps its link theirs): it and its
         * siblings (same phase, opened by the same transfer) go */
        size_t opener = P->grp[k].index;
        mpq_set(P->sh, P->grp[k].lo);
        for (size_t j = P->n_grp; j-- > 0;)
            if (P->grp[j].index == opener && mpq_equal(P->grp[j].lo, P->sh))
                group_drop(P, j);
        k = P->n_grp;
    }
    return 1;
}

/* A short group's message (the group P->grp[k]). */
int ssched_i_chk_group_violation(chk_t *c, chk_ports_t *P, size_t k)
{
    chk_group_t *G = &P->grp[k];
    char *t = mpq_get_str(NULL, 10, G->lo);
    int r = ssched_i_chk_violation(
        c, "transfer %zu (%s->%s) runs at 1/%lu of SHARED link %s's rate, but only %lu "
           "transfer(s) of its group share its bandwidth phase from time %s (a shared-rate "
           "group is %lu equal phases taking 1/%lu of the link each)",
        G->index, c->names[c->from[G->edge]], c->names[c->to[G->edge]], G->g,
        c->link_names[G->link], G->count, t ? t : "?", G->g, G->g);
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    if (t)
        gfree(t, strlen(t) + 1);
    return r;
}

int ssched_i_chk_ports_finish(chk_t *c, chk_ports_t *P)
{
    if (P->n_wm) {
        int w = ssched_i_chk_wm_resolve(c, P, P->lo, 1);
        if (w <= 0)
            return w;
    }
    return P->n_grp ? ssched_i_chk_group_violation(c, P, 0) : 1;
}
