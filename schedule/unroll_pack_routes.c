/* Relay routes for short routed scatter and gossip patterns (issue 23).
 *
 * The routed LP may send every message directly: on small_platform.xml a
 * scatter from Boivin sends Jacquelin's copy over Boivin's link (10 MB/s)
 * and on to Jacquelin's (2.6 MB/s).  In the fluid LP it takes a quarter of
 * Boivin's link; under bottleneck-rate sharing (docs/model.md) it holds
 * that quarter for 0.39 s, during which no transfer at Boivin's link's own
 * rate (share 1) may start: the unrolled scatter took 1.33 x K/TP.  Sent
 * to a relay host first (at the full rate of Boivin's link) and from there
 * over a route that avoids Boivin's link, the message blocks nothing.
 *
 * Per commodity (origin -> dest), one route: direct or through one relay
 * host, chosen by first-improvement local search on the *blocking* loads
 * of one operation (a transfer that cannot share a SHARED link with the
 * transfer of the largest other share there, f + f' > 1, counts its whole
 * time c(e) on it; else link_c), lexicographic: the busiest link, then
 * the sum.  Floating point only proposes: the pattern is built exactly
 * (ssched_i_sched_relay_pattern: the flow builder on a solution of these
 * routes, one operation per period T' = their busiest resource's exact
 * fluid time, the certified TP kept as the optimum) and the planner ranks
 * it by its replay. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

typedef struct {
    const ssched_platform_t *p;
    size_t n, nl;
    size_t *eidx;          /* n x n                                        */
    double *load, *f1, *f2; /* per link                                    */
    double size;
} rt_ctx_t;

/* Push edge e's SHARED links' shares into f1/f2 (pass 0) or its loads
 * (pass 1). */
static void visit(rt_ctx_t *c, size_t e, int pass)
{
    const ssched_routes_t *rt = c->p->routes;
    double ce = mpq_get_d(c->p->c[e]);
    for (size_t k = rt->route_start[e]; k < rt->route_start[e + 1]; k++) {
        size_t L = rt->route_links[k];
        if (rt->sharing[L] != SSCHED_LINK_SHARED)
            continue;
        double lc = mpq_get_d(rt->link_c[L]), f = lc / ce;
        if (pass == 0) {
            if (f > c->f1[L]) {
                c->f2[L] = c->f1[L];
                c->f1[L] = f;
            } else if (f > c->f2[L]) {
                c->f2[L] = f;
            }
        } else {
            double other = f == c->f1[L] ? c->f2[L] : c->f1[L];
            c->load[L] += (f + other > 1 + 1e-12 ? ce : lc) * c->size;
        }
    }
}

/* The hops of commodity t's route: origin -> dest, or via relay r. */
static size_t hops(const rt_ctx_t *c, const ssched_commodity_t *cm, size_t r, size_t *out)
{
    if (r == SIZE_MAX) {
        out[0] = c->eidx[cm->origin * c->n + cm->dest];
        return 1;
    }
    out[0] = c->eidx[cm->origin * c->n + r];
    out[1] = c->eidx[r * c->n + cm->dest];
    return 2;
}

static void cost(rt_ctx_t *c, const ssched_steady_t *st, const size_t *relay, double *mx,
                 double *sum)
{
    for (size_t L = 0; L < c->nl; L++)
        c->load[L] = c->f1[L] = c->f2[L] = 0;
    size_t h[2];
    for (int pass = 0; pass < 2; pass++)
        for (size_t t = 0; t < st->n_commodities; t++) {
            size_t m = hops(c, &st->commodities[t], relay[t], h);
            for (size_t k = 0; k < m; k++)
                visit(c, h[k], pass);
        }
    *mx = *sum = 0;
    for (size_t L = 0; L < c->nl; L++) {
        *sum += c->load[L];
        if (c->load[L] > *mx)
            *mx = c->load[L];
    }
}

static int better(double m1, double s1, double m0, double s0)
{
    if (m1 < m0 * (1 - 1e-9))
        return 1;
    return m1 <= m0 * (1 + 1e-9) && s1 < s0 * (1 - 1e-9);
}

int ssched_i_sched_relay_routes(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_steady_t *st, size_t *relay)
{
    size_t n = p->n_nodes, nt = st->n_commodities;
    if (!p->routes || p->routes->hosts_one_port || n > 1024 || nt == 0)
        return 0;
    rt_ctx_t c = {p, n, p->routes->n_links, NULL, NULL, NULL, NULL, mpq_get_d(pb->size)};
    c.eidx = ssched_i_alloc(n * n, sizeof *c.eidx);
    c.load = ssched_i_calloc(c.nl + 1, sizeof *c.load);
    c.f1 = ssched_i_calloc(c.nl + 1, sizeof *c.f1);
    c.f2 = ssched_i_calloc(c.nl + 1, sizeof *c.f2);
    int changed = 0;
    if (c.eidx && c.load && c.f1 && c.f2) {
        for (size_t x = 0; x < n * n; x++)
            c.eidx[x] = SIZE_MAX;
        for (size_t e = 0; e < p->n_edges; e++)
            c.eidx[p->from[e] * n + p->to[e]] = e;
        int ok = 1;
        for (size_t t = 0; t < nt; t++) {
            relay[t] = SIZE_MAX;
            ok &= c.eidx[st->commodities[t].origin * n + st->commodities[t].dest] != SIZE_MAX;
        }
        double m0, s0, m1, s1;
        if (ok)
            cost(&c, st, relay, &m0, &s0);
        for (size_t round = 0; ok && round < 8 * nt; round++) {
            int moved = 0;
            for (size_t t = 0; t < nt; t++) {
                const ssched_commodity_t *cm = &st->commodities[t];
                size_t keep = relay[t];
                for (size_t r = 0; r <= n; r++) {
                    size_t cand = r == n ? SIZE_MAX : r;
                    if (cand == keep || (cand != SIZE_MAX &&
                                         (cand == cm->origin || cand == cm->dest ||
                                          c.eidx[cm->origin * n + cand] == SIZE_MAX ||
                                          c.eidx[cand * n + cm->dest] == SIZE_MAX)))
                        continue;
                    relay[t] = cand;
                    cost(&c, st, relay, &m1, &s1);
                    if (better(m1, s1, m0, s0)) {
                        m0 = m1;
                        s0 = s1;
                        keep = cand;
                        moved = 1;
                    }
                    relay[t] = keep;
                }
            }
            if (!moved)
                break;
        }
        for (size_t t = 0; ok && t < nt; t++)
            changed |= relay[t] != SIZE_MAX;
    }
    free(c.eidx); free(c.load); free(c.f1); free(c.f2);
    return changed;
}

/* The relay routes as a pattern (unroll_internal.h). */
ssched_status_t ssched_i_sched_relay_pattern(const ssched_platform_t *p,
                                             const ssched_problem_t *pb,
                                             const ssched_steady_t *steady,
                                             mpq_srcptr max_period, ssched_schedule_t *cand)
{
    size_t nt = steady->n_commodities, nr = ssched_i_sched_n_resources(p);
    size_t *relay = ssched_i_alloc(nt ? nt : 1, sizeof *relay);
    if (!relay)
        return SSCHED_ENOMEM;
    if (!ssched_i_sched_relay_routes(p, pb, steady, relay)) {
        free(relay);
        return SSCHED_EINPUT; /* nothing better than the direct routes */
    }
    ssched_flow_t *flows = ssched_i_calloc(2 * nt, sizeof *flows);
    mpq_t *use = ssched_i_mpq_vec_new(nr);
    if (!flows || !use) {
        free(relay);
        free(flows);
        ssched_i_mpq_vec_free(use, nr);
        return SSCHED_ENOMEM;
    }
    size_t nf = 0;
    for (size_t t = 0; t < nt; t++) {
        const ssched_commodity_t *cm = &steady->commodities[t];
        size_t a = cm->origin, hop[2] = {relay[t], cm->dest};
        for (size_t k = relay[t] == SIZE_MAX ? 1 : 0; k < 2; k++) {
            for (size_t e = 0; e < p->n_edges; e++)
                if (p->from[e] == a && p->to[e] == hop[k]) {
                    flows[nf].edge = e;
                    flows[nf].type = t;
                    mpq_init(flows[nf++].rate);
                    ssched_i_sched_edge_usage(p, e, pb->size, use);
                    break;
                }
            a = hop[k];
        }
    }
    /* T' = the busiest resource's fluid time for one operation */
    mpq_t period;
    mpq_init(period);
    for (size_t i = 0; i < nr; i++)
        if (mpq_cmp(use[i], period) > 0)
            mpq_set(period, use[i]);
    ssched_status_t st = SSCHED_EINPUT;
    if (mpq_sgn(period) > 0 && !(max_period && mpq_cmp(period, max_period) > 0)) {
        ssched_steady_t syn = *steady; /* shallow: flows and TP are fresh */
        mpq_init(syn.throughput);
        mpq_inv(syn.throughput, period);
        for (size_t k = 0; k < nf; k++)
            mpq_set(flows[k].rate, syn.throughput);
        syn.flows = flows;
        syn.n_flows = nf;
        ssched_schedule_options_t so;
        ssched_schedule_options_default(&so);
        so.fixed_period = period; /* one operation per period */
        ssched_error_t e;
        st = ssched_schedule_build(p, pb, &syn, &so, cand, &e);
        if (st == SSCHED_OK && mpz_sgn(cand->ops_per_period) == 0)
            st = SSCHED_EINPUT;
        if (st == SSCHED_OK) /* the figures compare with the certified optimum */
            mpq_set(cand->optimal_throughput, steady->throughput);
        mpq_clear(syn.throughput);
    }
    mpq_clear(period);
    for (size_t k = 0; k < nf; k++)
        mpq_clear(flows[k].rate);
    free(flows);
    free(relay);
    ssched_i_mpq_vec_free(use, nr);
    return st;
}
