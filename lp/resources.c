/* The capacity resources a transfer over edge e charges besides the ports:
 * one place for every LP and pricer of lp/ (lp/internal.h).
 *
 * Graph model (RR-4872 with switches): resource k is edge k, it exists when
 * either end of the edge is a switch, and one unit message over e keeps it
 * busy c(e).
 *
 * Routed model (platform.h, docs/model.md "Routed model"): resources
 * 0 .. n_links-1 are the SHARED link resources (row: sum over the edges e
 * through it of amount(e) * link_c <= 1); resource n_links + e is edge e's
 * FATPIPE row amount(e) * link_c(f) <= 1, f the FATPIPE link of largest
 * link_c on e's route (the first one on the route among equals).  That one
 * row stands for the rows of every FATPIPE link of the route (each is
 * amount(e) * link_c <= 1 with a smaller or equal link_c), and it exists
 * only when it is not implied by another row of e: a SHARED link of the
 * route with link_c >= link_c(f) (its row contains amount(e) * link_c), or
 * one-port hosts (the port rows charge c(e) = the route's largest link_c).
 * Dropping implied rows changes no feasible set, hence no optimum. */
#include <stdio.h>
#include <stdlib.h>

#include "lp/internal.h"
#include "ssched/steady.h"

size_t ssched_i_res_count(const ssched_platform_t *p)
{
    return p->routes ? p->routes->n_links + p->n_edges : p->n_edges;
}

int ssched_i_has_ports(const ssched_platform_t *p, size_t i)
{
    if (p->routes)
        return p->routes->hosts_one_port != 0;
    return !(p->multiport && p->multiport[i]);
}

/* Routed: the FATPIPE link of edge e's row, or SIZE_MAX when e has none. */
static size_t fatpipe_of(const ssched_platform_t *p, size_t e)
{
    const ssched_routes_t *r = p->routes;
    if (r->hosts_one_port)
        return SIZE_MAX;
    size_t fp = SIZE_MAX, sh = SIZE_MAX;
    for (size_t a = r->route_start[e]; a < r->route_start[e + 1]; a++) {
        size_t l = r->route_links[a];
        size_t *best = r->sharing[l] == SSCHED_LINK_FATPIPE ? &fp : &sh;
        if (*best == SIZE_MAX || mpq_cmp(r->link_c[l], r->link_c[*best]) > 0)
            *best = l;
    }
    if (fp != SIZE_MAX && sh != SIZE_MAX && mpq_cmp(r->link_c[sh], r->link_c[fp]) >= 0)
        return SIZE_MAX;
    return fp;
}

size_t ssched_i_res_link(const ssched_platform_t *p, size_t k)
{
    if (!p->routes)
        return k;
    if (k < p->routes->n_links)
        return k;
    return fatpipe_of(p, k - p->routes->n_links);
}

mpq_srcptr ssched_i_res_time(const ssched_platform_t *p, size_t k)
{
    if (!p->routes)
        return p->c[k];
    return p->routes->link_c[ssched_i_res_link(p, k)];
}

void ssched_i_res_begin(ssched_i_res_iter_t *it, const ssched_platform_t *p, size_t e)
{
    it->p = p;
    it->e = e;
    it->pos = p->routes ? p->routes->route_start[e] : 0;
    it->done = 0;
}

int ssched_i_res_next(ssched_i_res_iter_t *it, size_t *k)
{
    const ssched_platform_t *p = it->p;
    size_t e = it->e;
    if (it->done)
        return 0;
    if (!p->routes) {
        it->done = 1;
        if (ssched_i_has_ports(p, p->from[e]) && ssched_i_has_ports(p, p->to[e]))
            return 0;
        *k = e;
        return 1;
    }
    const ssched_routes_t *r = p->routes;
    for (; it->pos < r->route_start[e + 1]; it->pos++) {
        size_t l = r->route_links[it->pos];
        if (r->sharing[l] == SSCHED_LINK_SHARED) {
            it->pos++;
            *k = l;
            return 1;
        }
    }
    it->done = 1;
    if (fatpipe_of(p, e) == SIZE_MAX)
        return 0;
    *k = r->n_links + e;
    return 1;
}

unsigned char *ssched_i_res_used_flags(const ssched_platform_t *p)
{
    size_t nr = ssched_i_res_count(p);
    unsigned char *used = ssched_i_calloc(nr, 1);
    if (!used)
        return NULL;
    for (size_t e = 0; e < p->n_edges; e++) {
        ssched_i_res_iter_t it;
        size_t k;
        ssched_i_res_begin(&it, p, e);
        while (ssched_i_res_next(&it, &k))
            used[k] = 1;
    }
    return used;
}

void ssched_i_res_name(const ssched_platform_t *p, size_t k, char *buf, size_t len)
{
    if (!p->routes)
        snprintf(buf, len, "link_e%zu", k);
    else if (k < p->routes->n_links)
        snprintf(buf, len, "link_r%zu", k);
    else
        snprintf(buf, len, "fatpipe_e%zu", k - p->routes->n_links);
}

void ssched_i_edge_price_q(const ssched_platform_t *p, size_t e, mpq_srcptr size,
                           const mpq_t *out, const mpq_t *in, const mpq_t *link, mpq_ptr price)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(price, 0, 1);
    if (ssched_i_has_ports(p, p->from[e]))
        mpq_add(price, price, out[p->from[e]]);
    if (ssched_i_has_ports(p, p->to[e]))
        mpq_add(price, price, in[p->to[e]]);
    mpq_mul(price, price, p->c[e]);
    ssched_i_res_iter_t it;
    size_t k;
    ssched_i_res_begin(&it, p, e);
    while (ssched_i_res_next(&it, &k)) {
        mpq_mul(q, link[k], ssched_i_res_time(p, k));
        mpq_add(price, price, q);
    }
    mpq_mul(price, price, size);
    mpq_clear(q);
}

double ssched_i_edge_price_d(const ssched_platform_t *p, size_t e, mpq_srcptr size,
                             const double *out, const double *in, const double *link)
{
    double s = 0;
    if (ssched_i_has_ports(p, p->from[e]))
        s += out[p->from[e]];
    if (ssched_i_has_ports(p, p->to[e]))
        s += in[p->to[e]];
    s *= mpq_get_d(p->c[e]);
    ssched_i_res_iter_t it;
    size_t k;
    ssched_i_res_begin(&it, p, e);
    while (ssched_i_res_next(&it, &k))
        s += link[k] * mpq_get_d(ssched_i_res_time(p, k));
    return s * mpq_get_d(size);
}

int ssched_i_edge_tracks_load(const ssched_platform_t *p, size_t e)
{
    return p->routes || !ssched_i_has_ports(p, p->from[e]) || !ssched_i_has_ports(p, p->to[e]);
}

int ssched_i_res_set_price(const ssched_platform_t *p, ssched_steady_t *out, size_t k,
                           mpq_srcptr y)
{
    if (!p->routes) {
        mpq_set(out->link_price[k], y);
        return 1;
    }
    if (!out->route_link_price) {
        out->route_link_price = ssched_i_mpq_vec_new(p->routes->n_links);
        if (!out->route_link_price)
            return 0;
        out->n_links = p->routes->n_links; /* what ssched_steady_free clears */
    }
    size_t l = ssched_i_res_link(p, k);
    mpq_add(out->route_link_price[l], out->route_link_price[l], y);
    return 1;
}

/* Busy fraction of every link resource from the edges' loads (link_busy[e]
 * = amount(e) * size * c(e)): a SHARED link adds amount(e) * size * link_c
 * over the edges through it; a FATPIPE link keeps the largest one flow. */
ssched_status_t ssched_i_steady_routed_finish(const ssched_platform_t *p, ssched_steady_t *out,
                                              ssched_error_t *err)
{
    const ssched_routes_t *r = p->routes;
    if (!r)
        return SSCHED_OK;
    out->n_links = r->n_links;
    if (!out->route_link_price)
        out->route_link_price = ssched_i_mpq_vec_new(r->n_links);
    out->route_link_busy = ssched_i_mpq_vec_new(r->n_links);
    if (!out->route_link_price || !out->route_link_busy)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (!out->link_busy || out->n_edges != p->n_edges)
        return SSCHED_OK; /* no per-edge loads (TP = 0 without a solution) */
    mpq_t q;
    mpq_init(q);
    for (size_t e = 0; e < p->n_edges; e++) {
        if (mpq_sgn(out->link_busy[e]) == 0)
            continue;
        for (size_t a = r->route_start[e]; a < r->route_start[e + 1]; a++) {
            size_t l = r->route_links[a];
            mpq_div(q, out->link_busy[e], p->c[e]);
            mpq_mul(q, q, r->link_c[l]);
            if (r->sharing[l] == SSCHED_LINK_SHARED)
                mpq_add(out->route_link_busy[l], out->route_link_busy[l], q);
            else if (mpq_cmp(q, out->route_link_busy[l]) > 0)
                mpq_set(out->route_link_busy[l], q);
        }
    }
    mpq_clear(q);
    return SSCHED_OK;
}
