/* SSSP (scatter, RR-4872 §3.1) and SSPA2A (gossip, §3.5) as one
 * multicommodity-flow LP over message types (origin, dest).
 *
 *   maximize TP
 *   out-port  sum_{e=(i,*)} sum_t size*c(e)*send(e,t) <= 1      for every i
 *   in-port   sum_{e=(*,i)} sum_t size*c(e)*send(e,t) <= 1      for every i
 *   balance   in(i,t) - out(i,t) = 0        for every t, i not in {origin, dest}
 *   delivery  in(dest_t, t) - TP = 0                             for every t
 *
 * Switches (p->multiport[i] = 1) have no port rows: every edge e = (i,j) with
 * a switch at either end gets its own link row
 *   link      sum_t size*c(e)*send(e,t) <= 1
 * (a host end keeps its port row as well).  On a routed platform
 * (p->routes) hosts have no port rows unless hosts_one_port, and every
 * SHARED link r gets  sum_{e through r} sum_t size*link_c(r)*send(e,t) <= 1,
 * every edge whose route has a FATPIPE not implied otherwise its FATPIPE
 * row (lp/resources.c).
 *
 * Corrections to the report's laws (design.md): the report writes the
 * conservation law for every node but the destination, so read literally it
 * binds the source too; and it lets a destination re-emit its own type.  Here
 * the origin emits freely and receives nothing of its type back, and a
 * destination has no outgoing send of its own type.
 *
 * Broadcast ("ssb"): the types are (source, k) for every target k, the same
 * balance and delivery rows, but the ports and links are charged on one
 * column copies(e) per edge, and every send is bounded by it:
 *   copy      send(e,t) - copies(e) <= 0                          for every e, t
 *   out-port  sum_{e=(i,*)} size*c(e)*copies(e) <= 1   (in-port, link alike)
 * (one copy over e serves every target's flow through e). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "lp/internal.h"
#include "src/util/internal.h"
#include "ssched/steady.h"

ssched_status_t ssched_i_car_model_build(const ssched_platform_t *p, const ssched_problem_t *pb,
                                ssched_model_t *m, ssched_error_t *err);

void ssched_model_init(ssched_model_t *m)
{
    memset(m, 0, sizeof *m); /* the LP too: ssched_lp_free accepts it */
}

void ssched_model_free(ssched_model_t *m)
{
    ssched_lp_free(&m->lp);
    free(m->commodities);
    free(m->send_edge);
    free(m->send_type);
    free(m->send_col);
    free(m->out_row);
    free(m->in_row);
    free(m->intervals);
    free(m->cons_col);
    free(m->cons);
    free(m->compute_row);
    free(m->link_row);
    free(m->copy_col);
    memset(m, 0, sizeof *m);
}

/* Port rows of node i (out = 1: its out-port, else its in-port), created on
 * first use. */
static ssched_status_t port_row_of(ssched_model_t *m, size_t i, int out, ssched_error_t *err)
{
    size_t *rows = out ? m->out_row : m->in_row;
    if (rows[i] != SSCHED_NO_ROW)
        return SSCHED_OK;
    char name[64];
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    snprintf(name, sizeof name, "%s_n%zu", out ? "out" : "in", i);
    ssched_status_t st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_LE, one, &rows[i], err);
    mpq_clear(one);
    return st;
}

ssched_status_t ssched_i_model_add_transfer_coefs(const ssched_platform_t *p, ssched_model_t *m,
                                                size_t e, size_t col, const mpq_t coef,
                                                ssched_error_t *err);

/* The resource coefficients of send column `col` on edge e = (i,j) (coef =
 * size*c(e)): i's out-port and j's in-port when they have ports, and
 * coef*time(k)/c(e) on every other resource k of e (lp/resources.c): the
 * link row of e when either end is a switch, the route's SHARED links and
 * FATPIPE row on a routed platform.  Rows are created on first use. */
ssched_status_t ssched_i_model_add_transfer_coefs(const ssched_platform_t *p, ssched_model_t *m,
                                                size_t e, size_t col, const mpq_t coef,
                                                ssched_error_t *err)
{
    size_t i = p->from[e], j = p->to[e];
    int pi = ssched_i_has_ports(p, i), pj = ssched_i_has_ports(p, j);
    ssched_status_t st = SSCHED_OK;
    if (pi && (st = port_row_of(m, i, 1, err)) == SSCHED_OK)
        st = ssched_lp_add_coef(&m->lp, m->out_row[i], col, coef, err);
    if (st == SSCHED_OK && pj && (st = port_row_of(m, j, 0, err)) == SSCHED_OK)
        st = ssched_lp_add_coef(&m->lp, m->in_row[j], col, coef, err);
    ssched_i_res_iter_t it;
    size_t k;
    ssched_i_res_begin(&it, p, e);
    mpq_t q;
    mpq_init(q);
    while (st == SSCHED_OK && ssched_i_res_next(&it, &k)) {
        if (m->link_row[k] == SSCHED_NO_ROW) {
            char name[64];
            mpq_t one;
            mpq_init(one);
            mpq_set_ui(one, 1, 1);
            ssched_i_res_name(p, k, name, sizeof name);
            st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_LE, one, &m->link_row[k], err);
            mpq_clear(one);
        }
        if (st != SSCHED_OK)
            break;
        if (p->routes) { /* coef * time(k) / c(e): size * time(k) */
            mpq_div(q, coef, p->c[e]);
            mpq_mul(q, q, ssched_i_res_time(p, k));
            st = ssched_lp_add_coef(&m->lp, m->link_row[k], col, q, err);
        } else {
            st = ssched_lp_add_coef(&m->lp, m->link_row[k], col, coef, err);
        }
    }
    mpq_clear(q);
    return st;
}

/* The message types of a scatter or gossip problem. */
static ssched_status_t list_commodities(const ssched_problem_t *pb, ssched_model_t *m,
                                        ssched_error_t *err)
{
    size_t cap = pb->n_sources * pb->n_targets;
    m->commodities = ssched_i_alloc(cap, sizeof *m->commodities);
    if (!m->commodities)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t a = 0; a < pb->n_sources; a++)
        for (size_t b = 0; b < pb->n_targets; b++)
            if (pb->sources[a] != pb->targets[b]) {
                m->commodities[m->n_commodities].origin = pb->sources[a];
                m->commodities[m->n_commodities].dest = pb->targets[b];
                m->n_commodities++;
            }
    return SSCHED_OK;
}

static ssched_status_t add_send_col(ssched_model_t *m, size_t e, size_t t, size_t *cap,
                                    ssched_error_t *err)
{
    if (m->n_sends == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        size_t *a = realloc(m->send_edge, *cap * sizeof *a);
        if (a) m->send_edge = a;
        size_t *b = a ? realloc(m->send_type, *cap * sizeof *b) : NULL;
        if (b) m->send_type = b;
        size_t *c = b ? realloc(m->send_col, *cap * sizeof *c) : NULL;
        if (!c)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        m->send_col = c;
    }
    char name[64];
    snprintf(name, sizeof name, "x_e%zu_t%zu", e, t);
    size_t col;
    ssched_status_t st = ssched_lp_add_col(&m->lp, name, NULL, &col, err);
    if (st != SSCHED_OK)
        return st;
    m->send_edge[m->n_sends] = e;
    m->send_type[m->n_sends] = t;
    m->send_col[m->n_sends] = col;
    m->n_sends++;
    return SSCHED_OK;
}

/* Create every useful send(e,t) column: e = (i,j) with i reachable from the
 * origin, the destination reachable from j, j != origin, i != dest. */
static ssched_status_t create_columns(const ssched_platform_t *p, ssched_model_t *m,
                                      ssched_error_t *err)
{
    unsigned char *from_o = ssched_i_alloc(p->n_nodes, 1);
    unsigned char *to_d = ssched_i_alloc(p->n_nodes, 1);
    ssched_status_t st = SSCHED_OK;
    size_t cap = 0;
    if (!from_o || !to_d)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t t = 0; t < m->n_commodities && st == SSCHED_OK; t++) {
        size_t o = m->commodities[t].origin, d = m->commodities[t].dest;
        if ((st = ssched_platform_reachable(p, o, 0, from_o, err)) != SSCHED_OK ||
            (st = ssched_platform_reachable(p, d, 1, to_d, err)) != SSCHED_OK)
            break;
        for (size_t e = 0; e < p->n_edges && st == SSCHED_OK; e++) {
            size_t i = p->from[e], j = p->to[e];
            if (from_o[i] && to_d[j] && j != o && i != d)
                st = add_send_col(m, e, t, &cap, err);
        }
    }
    free(from_o);
    free(to_d);
    return st;
}

/* Broadcast: send(e,t) - copies(e) <= 0, creating copies(e) with its port
 * and link coefficients (coef = size*c(e)) on first use. */
static ssched_status_t add_copy_bound(const ssched_platform_t *p, ssched_model_t *m, size_t e,
                                      size_t t, size_t col, const mpq_t coef, ssched_error_t *err)
{
    char name[64];
    ssched_status_t st = SSCHED_OK;
    if (m->copy_col[e] == SSCHED_NO_ROW) {
        snprintf(name, sizeof name, "copies_e%zu", e);
        st = ssched_lp_add_col(&m->lp, name, NULL, &m->copy_col[e], err);
        if (st == SSCHED_OK)
            st = ssched_i_model_add_transfer_coefs(p, m, e, m->copy_col[e], coef, err);
    }
    mpq_t one, zero;
    mpq_inits(one, zero, NULL);
    size_t r = 0;
    snprintf(name, sizeof name, "copy_e%zu_t%zu", e, t);
    if (st == SSCHED_OK)
        st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_LE, zero, &r, err);
    mpq_set_ui(one, 1, 1);
    if (st == SSCHED_OK)
        st = ssched_lp_add_coef(&m->lp, r, col, one, err);
    mpq_set_si(one, -1, 1);
    if (st == SSCHED_OK)
        st = ssched_lp_add_coef(&m->lp, r, m->copy_col[e], one, err);
    mpq_clears(one, zero, NULL);
    return st;
}

ssched_status_t ssched_model_build(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   ssched_model_t *m, ssched_error_t *err)
{
    ssched_model_free(m); /* a model built before is replaced, not leaked */
    if (ssched_lp_init(&m->lp, pb->kind == SSCHED_PROBLEM_SCATTER     ? "sssp"
                               : pb->kind == SSCHED_PROBLEM_GOSSIP    ? "sspa2a"
                               : pb->kind == SSCHED_PROBLEM_BROADCAST ? "ssb"
                               : pb->kind == SSCHED_PROBLEM_SCAN      ? "ssscan"
                                                                      : "ssr") != SSCHED_OK)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = ssched_problem_validate(pb, p, err);
    if (st != SSCHED_OK)
        return st;
    size_t nres = ssched_i_res_count(p); /* lp/resources.c */
    m->link_row = ssched_i_alloc(nres, sizeof *m->link_row);
    if (!m->link_row)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < nres; k++)
        m->link_row[k] = SSCHED_NO_ROW;
    if (pb->kind == SSCHED_PROBLEM_REDUCE && pb->commutative) /* lp/build_commutative.c */
        return ssched_i_model_build_commutative(p, pb, m, err);
    if (pb->kind == SSCHED_PROBLEM_REDUCE)
        return ssched_i_model_build_reduce(p, pb, m, err);
    if (pb->kind == SSCHED_PROBLEM_SCAN) /* lp/build_scan.c: an upper bound */
        return ssched_i_model_build_scan(p, pb, m, err);
    if (pb->kind == SSCHED_PROBLEM_ALLREDUCE) /* lp/build_allreduce.c */
        return ssched_i_car_model_build(p, pb, m, err);
    mpq_t one, zero, coef;
    mpq_inits(one, zero, coef, NULL);
    mpq_set_ui(one, 1, 1);
    size_t n = p->n_nodes;
    size_t *flow_row = NULL, *tp_row = NULL;
    if (st == SSCHED_OK)
        st = list_commodities(pb, m, err);
    if (st == SSCHED_OK)
        st = ssched_lp_add_col(&m->lp, "TP", one, &m->tp_col, err);
    if (st == SSCHED_OK)
        st = create_columns(p, m, err);
    m->out_row = ssched_i_alloc(n, sizeof *m->out_row);
    m->in_row = ssched_i_alloc(n, sizeof *m->in_row);
    /* balance rows are created lazily: flow_row[t*n + i] */
    size_t nt = m->n_commodities;
    flow_row = ssched_i_alloc(nt * n, sizeof *flow_row);
    tp_row = ssched_i_alloc(nt, sizeof *tp_row);
    int bcast = pb->kind == SSCHED_PROBLEM_BROADCAST;
    if (bcast && st == SSCHED_OK &&
        (m->copy_col = ssched_i_alloc(p->n_edges, sizeof *m->copy_col)) != NULL)
        for (size_t e = 0; e < p->n_edges; e++)
            m->copy_col[e] = SSCHED_NO_ROW;
    if (st == SSCHED_OK && (!m->out_row || !m->in_row || !flow_row || !tp_row ||
                            (bcast && !m->copy_col)))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK) {
        for (size_t i = 0; i < n; i++)
            m->out_row[i] = m->in_row[i] = SSCHED_NO_ROW;
        for (size_t k = 0; k < nt * n; k++)
            flow_row[k] = SSCHED_NO_ROW;
    }
    char name[64];
    /* Delivery rows: one per type, even when unreachable (then TP = 0). */
    mpq_set_si(coef, -1, 1);
    for (size_t t = 0; t < nt && st == SSCHED_OK; t++) {
        snprintf(name, sizeof name, "deliver_t%zu", t);
        st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_EQ, zero, &tp_row[t], err);
        if (st == SSCHED_OK)
            st = ssched_lp_add_coef(&m->lp, tp_row[t], m->tp_col, coef, err);
    }
    for (size_t k = 0; k < m->n_sends && st == SSCHED_OK; k++) {
        size_t e = m->send_edge[k], t = m->send_type[k], col = m->send_col[k];
        size_t i = p->from[e], j = p->to[e];
        const ssched_commodity_t *c = &m->commodities[t];
        mpq_mul(coef, p->c[e], pb->size);
        /* port rows (one-port nodes) and link rows (switch links): on the
         * send itself, or (broadcast) on the copies over e that bound it */
        st = bcast ? add_copy_bound(p, m, e, t, col, coef, err)
                   : ssched_i_model_add_transfer_coefs(p, m, e, col, coef, err);
        /* balance at the tail (if a relay) and at the head (relay or dest) */
        if (st == SSCHED_OK && i != c->origin) {
            size_t *r = &flow_row[t * n + i];
            if (*r == SSCHED_NO_ROW) {
                snprintf(name, sizeof name, "flow_n%zu_t%zu", i, t);
                st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_EQ, zero, r, err);
            }
            mpq_set_si(coef, -1, 1);
            if (st == SSCHED_OK)
                st = ssched_lp_add_coef(&m->lp, *r, col, coef, err);
        }
        if (st == SSCHED_OK) {
            size_t r;
            if (j == c->dest) {
                r = tp_row[t];
            } else {
                size_t *rp = &flow_row[t * n + j];
                if (*rp == SSCHED_NO_ROW) {
                    snprintf(name, sizeof name, "flow_n%zu_t%zu", j, t);
                    st = ssched_lp_add_row(&m->lp, name, SSCHED_ROW_EQ, zero, rp, err);
                }
                r = *rp;
            }
            if (st == SSCHED_OK)
                st = ssched_lp_add_coef(&m->lp, r, col, one, err);
        }
    }
    free(flow_row);
    free(tp_row);
    mpq_clears(one, zero, coef, NULL);
    return st;
}
