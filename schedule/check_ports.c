/* Checker: who is busy in an unrolled file whose events come in start
 * order.  One-port at hosts (a node's sends never overlap, nor its
 * receives); at a switch ("ports": "multi") each incident link is the
 * resource instead; a processor runs one task at a time.
 *
 * Latency (docs/model.md, "Latency"): a transfer over e started at s holds
 * its ports (or link) only during its bandwidth phase [s + l(e), end); the
 * latency phase [s, s + l(e)) keeps nothing busy, so a port may have
 * several messages in flight as long as their bandwidth phases are
 * disjoint.  Events come in start order, but bandwidth phases do not
 * (l differs per edge), so each resource keeps the intervals that may
 * still meet a later one: every later event starts at or after `now` (the
 * current event's start) and its phase too, so an interval ending by `now`
 * is forgotten.  With l = 0 at most one interval stays per resource and
 * the rule is the old one, "start before the last end".
 *
 * Overlap: [lo, hi) meets a kept [a, b) iff b > lo and (a < hi or a <= lo):
 * the intervals intersect, and an empty [t, t) (a free merge, w = 0) counts
 * as the point t, busy if some kept interval covers t (as "t before the
 * last end" said). */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

int ssched_i_chk_ports_init(chk_ports_t *P, size_t n_nodes, size_t n_edges, size_t n_links)
{
    P->n_nodes = n_nodes;
    P->n_edges = n_edges;
    P->n_links = n_links;
    P->n_res = 3 * n_nodes + n_edges + n_links;
    P->res = ssched_i_calloc(P->n_res, sizeof *P->res);
    mpq_inits(P->lo, P->sh, P->hit_time, P->hit_sum, NULL);
    P->grp = NULL;
    P->n_grp = P->cap_grp = 0;
    P->wm = NULL;
    P->n_wm = P->cap_wm = 0;
    P->wsh = NULL;
    P->n_wsh = P->cap_wsh = 0;
    P->rw = NULL;
    P->n_rw = 0;
    P->ready = 1;
    return P->res != NULL;
}

void ssched_i_chk_ports_free(chk_ports_t *P)
{
    if (!P->ready)
        return;
    for (size_t r = 0; P->res && r < P->n_res; r++) {
        for (size_t k = 0; k < P->res[r].cap; k++)
            mpq_clears(P->res[r].iv[k].lo, P->res[r].iv[k].hi, NULL);
        free(P->res[r].iv);
    }
    free(P->res);
    for (size_t k = 0; k < P->n_rw; k++)
        mpq_clear(P->rw[k]);
    free(P->rw);
    for (size_t k = 0; k < P->cap_grp; k++)
        mpq_clears(P->grp[k].lo, P->grp[k].hi, NULL);
    free(P->grp);
    ssched_i_chk_wm_free(P);
    mpq_clears(P->lo, P->sh, P->hit_time, P->hit_sum, NULL);
    P->res = NULL;
    P->ready = 0;
}

/* Does [lo, hi) meet a kept interval of resource r?  Prunes what ends by
 * now.  1 yes, 0 no. */
static int meets(chk_res_t *R, const mpq_t now, const mpq_t lo, const mpq_t hi)
{
    size_t w = 0;
    int hit = 0;
    for (size_t k = 0; k < R->n; k++) {
        chk_iv_t *x = &R->iv[k];
        if (mpq_cmp(x->hi, now) <= 0)
            continue; /* no later event reaches it */
        if (!hit && mpq_cmp(x->hi, lo) > 0 && (mpq_cmp(x->lo, hi) < 0 || mpq_cmp(x->lo, lo) <= 0))
            hit = 1;
        if (w != k) {
            mpq_swap(R->iv[w].lo, x->lo);
            mpq_swap(R->iv[w].hi, x->hi);
        }
        w++;
    }
    R->n = w;
    return hit;
}

/* Keep [lo, hi) on resource r; 0 on ENOMEM. */
static int keep(chk_res_t *R, const mpq_t lo, const mpq_t hi)
{
    if (R->n == R->cap) {
        size_t cap = R->cap ? 2 * R->cap : 2;
        chk_iv_t *iv = realloc(R->iv, cap * sizeof *iv);
        if (!iv)
            return 0;
        R->iv = iv;
        for (size_t k = R->cap; k < cap; k++)
            mpq_inits(iv[k].lo, iv[k].hi, NULL);
        R->cap = cap;
    }
    mpq_set(R->iv[R->n].lo, lo);
    mpq_set(R->iv[R->n].hi, hi);
    R->iv[R->n].g = 0;
    R->n++;
    return 1;
}

static int nomem(chk_t *c)
{
    ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    return -1;
}

/* A routed file (docs/model.md, "Routed schedules": bottleneck-rate sharing): a transfer
 * over e runs at 1/c(e) in its bandwidth phase [lo, end) and takes the
 * share f = link_c(L) / c(e) <= 1 of every SHARED link L of its route; at
 * every instant the shares on L sum to at most 1 (a FATPIPE caps each flow
 * alone: no rule).  At those rates every link's load is <= 1 and each flow
 * is alone at f = 1 on its own bottleneck link, saturated: that is the
 * max-min fair (CM02) allocation, so SimGrid gives each flow exactly
 * 1/c(e) and the duration formula holds.  One-port hosts: the sender's
 * out-port and the receiver's in-port are exclusive too.  An empty phase
 * contains no instant: it takes nothing. */

/* The shares, once: 0 on ENOMEM. */
static int route_shares(chk_t *c, chk_ports_t *P)
{
    size_t n = c->route_start[c->n_edges];
    P->rw = ssched_i_alloc(n + 1, sizeof *P->rw);
    if (!P->rw)
        return 0;
    for (size_t e = 0; e < c->n_edges; e++)
        for (size_t k = c->route_start[e]; k < c->route_start[e + 1]; k++) {
            mpq_init(P->rw[k]);
            mpq_div(P->rw[k], c->link_c[c->route_links[k]], c->cost[e]);
        }
    P->n_rw = n;
    return 1;
}

/* The share of SHARED link L that kept phase x takes: link_c(L) / c(e)
 * at the full rate (rw), link_c(L) / (g link_c(gl)) in a shared-rate group
 * (check_shared.c). */
void ssched_i_chk_share(const chk_t *c, const chk_ports_t *P, size_t wi, unsigned long g,
                        size_t gl, size_t L, mpq_t out)
{
    if (!g) {
        mpq_set(out, P->rw[wi]);
        return;
    }
    if (g == CHK_WEIGHTED) { /* a weighted group's peak (check_shared_w.c) */
        mpq_set(out, P->wsh[wi]);
        return;
    }
    mpq_set_ui(out, g, 1);
    mpq_mul(out, out, c->link_c[gl]);
    mpq_div(out, c->link_c[L], out);
}

static void iv_share(const chk_t *c, const chk_ports_t *P, const chk_iv_t *x, size_t L, mpq_t out)
{
    ssched_i_chk_share(c, P, x->wi, x->g, x->gl, L, out);
}

/* Does [lo, hi) (lo < hi) with share f exceed link L (resource R) at some
 * instant?  Prunes what ends by now.  The kept shares' sum is a step
 * function that only rises at a kept interval's start, so its maximum over
 * [lo, hi) is at lo or at such a start inside: 1 (P->hit_time, P->hit_sum
 * set) or 0. */
static int over(const chk_t *c, chk_ports_t *P, chk_res_t *R, size_t L, const mpq_t now,
                const mpq_t lo, const mpq_t hi, const mpq_t f)
{
    size_t w = 0;
    for (size_t k = 0; k < R->n; k++) {
        chk_iv_t *x = &R->iv[k];
        if (mpq_cmp(x->hi, now) <= 0)
            continue; /* no later event reaches it */
        if (w != k) {
            mpq_swap(R->iv[w].lo, x->lo);
            mpq_swap(R->iv[w].hi, x->hi);
            R->iv[w].wi = x->wi;
            R->iv[w].g = x->g;
            R->iv[w].gl = x->gl;
            R->iv[w].edge = x->edge;
        }
        w++;
    }
    R->n = w;
    for (size_t a = 0; a <= R->n; a++) {
        /* the instant t: lo, then each kept start inside (lo, hi) */
        mpq_srcptr t = lo;
        if (a > 0) {
            t = R->iv[a - 1].lo;
            if (mpq_cmp(t, lo) <= 0 || mpq_cmp(t, hi) >= 0)
                continue;
        }
        mpq_set(P->hit_sum, f);
        for (size_t k = 0; k < R->n; k++)
            if (mpq_cmp(R->iv[k].lo, t) <= 0 && mpq_cmp(R->iv[k].hi, t) > 0) {
                iv_share(c, P, &R->iv[k], L, P->sh);
                mpq_add(P->hit_sum, P->hit_sum, P->sh);
            }
        if (mpz_cmp(mpq_numref(P->hit_sum), mpq_denref(P->hit_sum)) > 0) {
            mpq_set(P->hit_time, t);
            return 1;
        }
    }
    return 0;
}

/* 4: the link P->hit_link is over-used (at P->hit_time); 5: the pending
 * group P->hit_link is short; 6: a member without latency.  g > 0: a shared-rate group's member on gl. */
static int take_routed(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start,
                       const mpq_t end, unsigned long g, size_t gl, size_t index)
{
    size_t i = c->from[edge], j = c->to[edge], nn = P->n_nodes;
    chk_res_t *snd = c->hosts_one_port ? &P->res[i] : NULL;
    chk_res_t *rcv = c->hosts_one_port ? &P->res[nn + j] : NULL;
    size_t base = 3 * nn + P->n_edges;
    if (!P->rw && !route_shares(c, P))
        return -1;
    if (P->n_wm) {
        int w = ssched_i_chk_wm_resolve(c, P, start, 0);
        if (w <= 0)
            return w < 0 ? -1 : 7;
    }
    if (g == CHK_WEIGHTED) /* waits for its group */
        return ssched_i_chk_wm_add(c, P, edge, start, end, index) ? 0 : -1;
    if (ssched_i_chk_group_short(P, start))
        return 5;
    mpq_add(P->lo, start, c->lat[edge]); /* the bandwidth phase [lo, end) */
    int r = 0, phase = mpq_cmp(P->lo, end) < 0;
    if (snd && meets(snd, start, P->lo, end))
        r = 1;
    else if (rcv && meets(rcv, start, P->lo, end))
        r = 2;
    mpq_t f;
    mpq_init(f);
    for (size_t k = c->route_start[edge]; phase && r == 0 && k < c->route_start[edge + 1]; k++) {
        size_t L = c->route_links[k];
        if (c->fatpipe[L])
            continue;
        ssched_i_chk_share(c, P, k, g, gl, L, f);
        if (over(c, P, &P->res[base + L], L, start, P->lo, end, f)) {
            P->hit_link = L;
            r = 4;
        }
    }
    mpq_clear(f);
    if (r == 0 && phase && (g || P->n_grp)) {
        int n = ssched_i_chk_group_count(c, P, edge, end, g, gl, index);
        r = n == 0 ? -1 : n == 2 ? 6 : 0;
    }
    if (r == 0) {
        if ((snd && !keep(snd, P->lo, end)) || (rcv && !keep(rcv, P->lo, end)))
            r = -1;
        for (size_t k = c->route_start[edge]; phase && r == 0 && k < c->route_start[edge + 1];
             k++) {
            size_t L = c->route_links[k];
            chk_res_t *R = &P->res[base + L];
            if (c->fatpipe[L])
                continue;
            if (!keep(R, P->lo, end)) {
                r = -1;
            } else {
                R->iv[R->n - 1].wi = k;
                R->iv[R->n - 1].g = g;
                R->iv[R->n - 1].gl = gl;
                R->iv[R->n - 1].edge = edge;
            }
        }
    }
    return r;
}

/* The message of an over-used routed link (what: "messages", "things"). */
static int link_over(chk_t *c, chk_ports_t *P, size_t edge, const char *where)
{
    char *t = mpq_get_str(NULL, 10, P->hit_time), *sum = mpq_get_str(NULL, 10, P->hit_sum);
    int r = ssched_i_chk_violation(c, "SHARED link %s is over its capacity at time %s: the "
                                   "shares link_c/c(e) of the bandwidth phases there sum to %s "
                                   "> 1 with %s (%s->%s)",
                                   c->link_names[P->hit_link], t ? t : "?", sum ? sum : "?",
                                   where, c->names[c->from[edge]], c->names[c->to[edge]]);
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    if (t)
        gfree(t, strlen(t) + 1);
    if (sum)
        gfree(sum, strlen(sum) + 1);
    return r;
}

/* Take the resources of a transfer: 0 fine, 1 the sender's port, 2 the
 * receiver's, 3 the link is busy, 4 a routed link is, -1 out of memory. */
static int take(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start, const mpq_t end)
{
    if (c->routed)
        return take_routed(c, P, edge, start, end, 0, 0, 0);
    size_t i = c->from[edge], j = c->to[edge], nn = P->n_nodes;
    int si = chk_multi(c, i), sj = chk_multi(c, j);
    /* the bandwidth phase */
    if (c->lat)
        mpq_add(P->lo, start, c->lat[edge]);
    else
        mpq_set(P->lo, start);
    chk_res_t *snd = si ? NULL : &P->res[i], *rcv = sj ? NULL : &P->res[nn + j];
    chk_res_t *link = si || sj ? &P->res[2 * nn + edge] : NULL;
    if (snd && meets(snd, start, P->lo, end))
        return 1;
    if (rcv && meets(rcv, start, P->lo, end))
        return 2;
    if (link && meets(link, start, P->lo, end))
        return 3;
    if ((snd && !keep(snd, P->lo, end)) || (rcv && !keep(rcv, P->lo, end)) ||
        (link && !keep(link, P->lo, end)))
        return -1;
    return 0;
}

int ssched_i_chk_ports_take(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start,
                            const mpq_t end, const char *where)
{
    const char *i = c->names[c->from[edge]], *j = c->names[c->to[edge]];
    switch (take(c, P, edge, start, end)) {
    case 0:
        return 1;
    case 1:
        return ssched_i_chk_violation(c, "node %s sends two messages at once (%s overlaps an "
                                      "earlier one)", i, where);
    case 2:
        return ssched_i_chk_violation(c, "node %s receives two messages at once (%s overlaps an "
                                      "earlier one)", j, where);
    case 3:
        return ssched_i_chk_violation(c, "link %s->%s carries two messages at once (%s overlaps "
                                      "an earlier one)", i, j, where);
    case 4:
        return link_over(c, P, edge, where);
    case 5:
        return ssched_i_chk_group_violation(c, P, P->hit_link);
    case 7:
        return 0; /* recorded */
    default:
        return nomem(c);
    }
}

int ssched_i_chk_ports_take_thing(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start,
                                  const mpq_t end, const char *where)
{
    const char *i = c->names[c->from[edge]], *j = c->names[c->to[edge]];
    switch (take(c, P, edge, start, end)) {
    case 0:
        return 1;
    case 1:
        return ssched_i_chk_violation(c, "node %s sends two things at once (at %s)", i, where);
    case 2:
        return ssched_i_chk_violation(c, "node %s receives two things at once (at %s)", j, where);
    case 3:
        return ssched_i_chk_violation(c, "link %s->%s carries two things at once (at %s)", i, j,
                                      where);
    case 4:
        return link_over(c, P, edge, where);
    case 5:
        return ssched_i_chk_group_violation(c, P, P->hit_link);
    case 7:
        return 0; /* recorded */
    default:
        return nomem(c);
    }
}

int ssched_i_chk_ports_take_group(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start,
                                  const mpq_t end, unsigned long g, size_t link, size_t index,
                                  const char *where)
{
    if (!g || !c->routed)
        return ssched_i_chk_ports_take_thing(c, P, edge, start, end, where);
    switch (take_routed(c, P, edge, start, end, g, link, index)) {
    case 0:
        return 1;
    case 7:
        return 0;
    case 4:
        return link_over(c, P, edge, where);
    case 5:
        return ssched_i_chk_group_violation(c, P, P->hit_link);
    case 6:
        return ssched_i_chk_violation(c, "%s (%s->%s) runs below its full rate, as a shared-rate "
                                      "group's member, but its route has no latency (groups "
                                      "need equal positive latencies: SimGrid's sharing "
                                      "penalties)", where, c->names[c->from[edge]],
                                      c->names[c->to[edge]]);
    default:
        return nomem(c);
    }
}

int ssched_i_chk_ports_compute(chk_t *c, chk_ports_t *P, size_t node, const mpq_t start,
                               const mpq_t end, const char *where)
{
    chk_res_t *cpu = &P->res[2 * P->n_nodes + P->n_edges + node]; /* links come after */
    if (meets(cpu, start, start, end))
        return ssched_i_chk_violation(c, "node %s computes two things at once (at %s)",
                                      c->names[node], where);
    return keep(cpu, start, end) ? 1 : nomem(c);
}

int ssched_i_chk_link_hold(chk_t *c, chk_ports_t *P, size_t L, const mpq_t lo, const mpq_t hi,
                           const mpq_t f, size_t edge)
{
    chk_res_t *R = &P->res[3 * P->n_nodes + P->n_edges + L];
    if (!P->rw && !route_shares(c, P))
        return -1;
    if (over(c, P, R, L, lo, lo, hi, f)) {
        P->hit_link = L;
        return 0;
    }
    if (P->n_wsh == P->cap_wsh) {
        size_t cap = P->cap_wsh ? 2 * P->cap_wsh : 8;
        mpq_t *n = realloc(P->wsh, cap * sizeof *n);
        if (!n)
            return -1;
        for (size_t k = P->cap_wsh; k < cap; k++)
            mpq_init(n[k]);
        P->wsh = n;
        P->cap_wsh = cap;
    }
    if (!keep(R, lo, hi))
        return -1;
    mpq_set(P->wsh[P->n_wsh], f);
    R->iv[R->n - 1].wi = P->n_wsh++;
    R->iv[R->n - 1].g = CHK_WEIGHTED;
    R->iv[R->n - 1].gl = L;
    R->iv[R->n - 1].edge = edge;
    return 1;
}
