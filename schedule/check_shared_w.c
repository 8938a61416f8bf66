/* Checker: latency-weighted shared-rate groups (docs/model.md, "Shared
 * rates"; the engine's side: unroll_shared_w.c, whose water-filling this
 * file does not use: the rates are re-derived here).
 *
 * SimGrid 3.32's CM02 shares the links among the flows in their bandwidth
 * phases by weighted max-min: a flow's sharing penalty p is its route's
 * latency (weight-S 0), it runs at lambda / p at the level lambda where a
 * link of its route fills (a FATPIPE link caps each flow alone), and the
 * flows are re-shared whenever one ends.  A routed transfer (multi-port
 * hosts, whole value, latency > 0) slower than its full rate that is no
 * equal-rate member (check_shared.c) is a weighted member; the members
 * whose bandwidth phases start at one instant t0 form the group (g >= 2).
 * Rule: each member ends at t0 + its end under the weighted max-min among
 * the members alone over their routes' links (capacity 1 / link_c),
 * re-solved piece by piece; over [t0, last end) the group takes, on each
 * SHARED link of the union, its members' peak use (a fraction of the
 * link, 1 where they fill it), under the capacity rule with every other
 * phase.  Why that is SimGrid's allocation: every other phase is a
 * full-rate flow alone on its saturated bottleneck, or an equal-rate group
 * alone on its link, or another weighted group alone on the links it
 * fills; the members' bottlenecks are filled by members only, where their
 * rate x penalty is the largest; so every flow meets the weighted max-min
 * bottleneck condition, and that allocation is unique. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

struct chk_wm {
    mpq_t start, lo, end; /* lo: the bandwidth phase's start */
    size_t edge, index;
};

void ssched_i_chk_wm_free(chk_ports_t *P)
{
    for (size_t k = 0; k < P->cap_wm; k++)
        mpq_clears(P->wm[k].start, P->wm[k].lo, P->wm[k].end, NULL);
    free(P->wm);
    for (size_t k = 0; k < P->cap_wsh; k++)
        mpq_clear(P->wsh[k]);
    free(P->wsh);
    P->wm = NULL;
    P->wsh = NULL;
    P->n_wm = P->cap_wm = P->n_wsh = P->cap_wsh = 0;
}

int ssched_i_chk_wm_add(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start, const mpq_t end,
                        size_t index)
{
    if (P->n_wm == P->cap_wm) {
        size_t cap = P->cap_wm ? 2 * P->cap_wm : 8;
        struct chk_wm *n = realloc(P->wm, cap * sizeof *n);
        if (!n) {
            ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            return 0;
        }
        for (size_t k = P->cap_wm; k < cap; k++)
            mpq_inits(n[k].start, n[k].lo, n[k].end, NULL);
        P->wm = n;
        P->cap_wm = cap;
    }
    struct chk_wm *m = &P->wm[P->n_wm++];
    mpq_set(m->start, start);
    mpq_add(m->lo, start, c->lat[edge]);
    mpq_set(m->end, end);
    m->edge = edge;
    m->index = index;
    return 1;
}

/* One group's flows: weights 1/p, the links (l[j], SHARED or FATPIPE),
 * who crosses what. */
typedef struct {
    size_t g, n;
    size_t *mem;         /* indexes into P->wm */
    size_t *l;
    unsigned char *x;    /* x[k * n + j] */
    mpq_t *w, *left, *r, *fin, *peak;
    unsigned char *on, *fixed;
} grp_t;

/* Rates of the flows still on: bottleneck after bottleneck, the link whose
 * remaining capacity per unit of weight is least (a FATPIPE link caps each
 * flow alone: capacity / weight for that flow); its flows get that level
 * times their weight. */
static void rates(const chk_t *c, grp_t *G, mpq_t lev, mpq_t t, mpq_t sum)
{
    for (size_t k = 0; k < G->g; k++)
        G->fixed[k] = !G->on[k];
    for (;;) {
        size_t bj = SIZE_MAX, bk = SIZE_MAX;
        for (size_t j = 0; j < G->n; j++) {
            size_t L = G->l[j];
            if (c->fatpipe[L]) { /* each flow alone: level = capacity / w */
                for (size_t k = 0; k < G->g; k++) {
                    if (G->fixed[k] || !G->x[k * G->n + j])
                        continue;
                    mpq_mul(t, c->link_c[L], G->w[k]);
                    mpq_inv(t, t);
                    if (bj == SIZE_MAX || mpq_cmp(t, lev) < 0) {
                        mpq_set(lev, t);
                        bj = j;
                        bk = k;
                    }
                }
                continue;
            }
            mpq_inv(t, c->link_c[L]); /* the capacity, less the fixed flows */
            mpq_set_ui(sum, 0, 1);
            for (size_t k = 0; k < G->g; k++) {
                if (!G->on[k] || !G->x[k * G->n + j])
                    continue;
                if (G->fixed[k])
                    mpq_sub(t, t, G->r[k]);
                else
                    mpq_add(sum, sum, G->w[k]);
            }
            if (mpq_sgn(sum) == 0)
                continue;
            mpq_div(t, t, sum);
            if (bj == SIZE_MAX || mpq_cmp(t, lev) < 0) {
                mpq_set(lev, t);
                bj = j;
                bk = SIZE_MAX;
            }
        }
        if (bj == SIZE_MAX)
            return;
        for (size_t k = 0; k < G->g; k++)
            if (!G->fixed[k] && G->x[k * G->n + bj] && (bk == SIZE_MAX || bk == k)) {
                mpq_mul(G->r[k], lev, G->w[k]);
                G->fixed[k] = 1;
            }
    }
}

/* Piece by piece from 0: each member's end (fin, relative) and each
 * link's peak use. */
static void pieces(const chk_t *c, grp_t *G)
{
    mpq_t now, lev, t, sum;
    mpq_inits(now, lev, t, sum, NULL);
    size_t on = G->g;
    while (on) {
        rates(c, G, lev, t, sum);
        int have = 0;
        for (size_t k = 0; k < G->g; k++)
            if (G->on[k]) {
                mpq_div(t, G->left[k], G->r[k]);
                if (!have || mpq_cmp(t, lev) < 0)
                    mpq_set(lev, t); /* the piece's length */
                have = 1;
            }
        for (size_t j = 0; j < G->n; j++) {
            mpq_set_ui(sum, 0, 1);
            for (size_t k = 0; k < G->g; k++)
                if (G->on[k] && G->x[k * G->n + j])
                    mpq_add(sum, sum, G->r[k]);
            mpq_mul(sum, sum, c->link_c[G->l[j]]);
            if (mpq_cmp(sum, G->peak[j]) > 0)
                mpq_set(G->peak[j], sum);
        }
        mpq_add(now, now, lev);
        for (size_t k = 0; k < G->g; k++)
            if (G->on[k]) {
                mpq_mul(t, G->r[k], lev);
                mpq_sub(G->left[k], G->left[k], t);
                if (mpq_sgn(G->left[k]) <= 0) {
                    G->on[k] = 0;
                    mpq_set(G->fin[k], now);
                    on--;
                }
            }
    }
    mpq_clears(now, lev, t, sum, NULL);
}

static void name_free(char *s)
{
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    if (s)
        gfree(s, strlen(s) + 1);
}

/* Check the group of the pending members with phase start t0 = P->wm[i0].lo. */
static int resolve_one(chk_t *c, chk_ports_t *P, size_t i0)
{
    grp_t G = {0};
    size_t cap = 0;
    for (size_t k = 0; k < P->n_wm; k++)
        if (mpq_equal(P->wm[k].lo, P->wm[i0].lo)) {
            G.g++;
            cap += c->route_start[P->wm[k].edge + 1] - c->route_start[P->wm[k].edge];
        }
    if (G.g < 2) {
        struct chk_wm *m = &P->wm[i0];
        return ssched_i_chk_violation(
            c, "transfer %zu (%s->%s) runs below its full rate, but no other transfer's bandwidth "
               "phase starts with its own (a latency-weighted shared-rate group is g >= 2 phases "
               "starting together)", m->index, c->names[c->from[m->edge]], c->names[c->to[m->edge]]);
    }
    G.mem = ssched_i_alloc(G.g, sizeof *G.mem);
    G.l = ssched_i_alloc(cap, sizeof *G.l);
    G.x = ssched_i_calloc(cap * G.g, 1);
    G.w = ssched_i_alloc(G.g, sizeof *G.w);
    G.left = ssched_i_alloc(G.g, sizeof *G.left);
    G.r = ssched_i_alloc(G.g, sizeof *G.r);
    G.fin = ssched_i_alloc(G.g, sizeof *G.fin);
    G.peak = ssched_i_alloc(cap, sizeof *G.peak);
    G.on = ssched_i_alloc(G.g, 1);
    G.fixed = ssched_i_alloc(G.g, 1);
    int r = 1, inited = 0;
    if (!G.mem || !G.l || !G.x || !G.w || !G.left || !G.r || !G.fin || !G.peak || !G.on ||
        !G.fixed) {
        ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        r = -1;
        goto out;
    }
    size_t g = 0;
    for (size_t k = 0; k < P->n_wm; k++)
        if (mpq_equal(P->wm[k].lo, P->wm[i0].lo))
            G.mem[g++] = k;
    /* the links: rows of stride cap while n grows */
    for (size_t k = 0; k < G.g; k++) {
        size_t e = P->wm[G.mem[k]].edge;
        for (size_t q = c->route_start[e]; q < c->route_start[e + 1]; q++) {
            size_t j = 0;
            while (j < G.n && G.l[j] != c->route_links[q])
                j++;
            if (j == G.n)
                G.l[G.n++] = c->route_links[q];
            G.x[k * cap + j] = 1;
        }
    }
    for (size_t k = 1; k < G.g; k++)
        memmove(G.x + k * G.n, G.x + k * cap, G.n);
    for (size_t k = 0; k < G.g; k++) {
        mpq_inits(G.w[k], G.left[k], G.r[k], G.fin[k], NULL);
        mpq_inv(G.w[k], c->lat[P->wm[G.mem[k]].edge]); /* lat > 0: see duration */
        mpq_set(G.left[k], c->size);
        G.on[k] = 1;
    }
    for (size_t j = 0; j < G.n; j++)
        mpq_init(G.peak[j]);
    inited = 1;
    pieces(c, &G);
    mpq_t t, hi;
    mpq_inits(t, hi, NULL);
    mpq_set(hi, P->wm[i0].lo);
    for (size_t k = 0; k < G.g && r == 1; k++) {
        struct chk_wm *m = &P->wm[G.mem[k]];
        mpq_add(t, m->lo, G.fin[k]);
        if (mpq_cmp(t, hi) > 0)
            mpq_set(hi, t);
        if (!mpq_equal(t, m->end)) {
            char *a = mpq_get_str(NULL, 10, m->end), *b = mpq_get_str(NULL, 10, t);
            r = ssched_i_chk_violation(
                c, "transfer %zu (%s->%s) ends at %s, but in its latency-weighted group of %zu "
                   "(max-min shares weighted by 1/route latency, SimGrid's CM02) it ends at %s",
                m->index, c->names[c->from[m->edge]], c->names[c->to[m->edge]], a ? a : "?",
                G.g, b ? b : "?");
            name_free(a);
            name_free(b);
        }
    }
    for (size_t j = 0; j < G.n && r == 1; j++) {
        if (c->fatpipe[G.l[j]] || mpq_sgn(G.peak[j]) == 0)
            continue;
        int h = ssched_i_chk_link_hold(c, P, G.l[j], P->wm[i0].lo, hi, G.peak[j],
                                       P->wm[G.mem[0]].edge);
        if (h < 0) {
            ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            r = -1;
        } else if (h == 0) {
            char *a = mpq_get_str(NULL, 10, P->hit_time), *b = mpq_get_str(NULL, 10, P->hit_sum);
            r = ssched_i_chk_violation(
                c, "SHARED link %s is over its capacity at time %s: the shares there sum to %s > 1 "
                   "with the latency-weighted group of transfer %zu (its peak use of the link)",
                c->link_names[G.l[j]], a ? a : "?", b ? b : "?", P->wm[i0].index);
            name_free(a);
            name_free(b);
        }
    }
    mpq_clears(t, hi, NULL);
out:
    for (size_t k = 0; inited && k < G.g; k++)
        mpq_clears(G.w[k], G.left[k], G.r[k], G.fin[k], NULL);
    for (size_t j = 0; inited && j < G.n; j++)
        mpq_clear(G.peak[j]);
    /* the group leaves the pending list (t0 copied: entries move) */
    mpq_t t0;
    mpq_init(t0);
    mpq_set(t0, P->wm[i0].lo);
    size_t kept = 0;
    for (size_t k = 0; k < P->n_wm; k++) {
        if (mpq_equal(P->wm[k].lo, t0))
            continue;
        struct chk_wm tmp = P->wm[kept];
        P->wm[kept++] = P->wm[k];
        P->wm[k] = tmp;
    }
    P->n_wm = kept;
    mpq_clear(t0);
    free(G.mem);
    free(G.l);
    free(G.x);
    free(G.w);
    free(G.left);
    free(G.r);
    free(G.fin);
    free(G.peak);
    free(G.on);
    free(G.fixed);
    return r;
}

int ssched_i_chk_wm_resolve(chk_t *c, chk_ports_t *P, const mpq_t now, int all)
{
    for (;;) {
        /* the earliest phase start among the pending, if due */
        size_t i0 = SIZE_MAX;
        for (size_t k = 0; k < P->n_wm; k++)
            if (i0 == SIZE_MAX || mpq_cmp(P->wm[k].lo, P->wm[i0].lo) < 0)
                i0 = k;
        if (i0 == SIZE_MAX || (!all && mpq_cmp(P->wm[i0].lo, now) > 0))
            return 1;
        int r = resolve_one(c, P, i0);
        if (r <= 0)
            return r;
    }
}
