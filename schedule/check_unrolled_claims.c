/* Checker: what an unrolled file states besides its events.
 *
 * Every figure is recomputed from the events, the platform and the
 * problem, independently of the builder:
 *  - makespan: the end of the last event;
 *  - steady_time = K / throughput, overhead = makespan - steady_time;
 *  - lb1: recomputed here (shortest paths, each hop l + size * c; for
 *    scatter and gossip, whose pieces may pipeline, latency-only paths plus
 *    the cheapest port time; the same definition as
 *    schedule.h documents, by this file's own code; an all-reduce adds
 *    the root's farthest participant to its reduce bound);
 *  - lower_bound = max(steady_time, lb1), ratio = makespan / lower_bound;
 *  - pattern: pattern_throughput = operations_per_period / period, at most
 *    the throughput;
 *  - throughput: first two facts that need no solve: K / TP <= makespan (a
 *    finite schedule of K operations never beats the optimal steady
 *    state), and port cuts (an origin's out-port sends one message per
 *    destination, a destination's in-port receives one per origin, each
 *    taking at least size times the cheapest link) give TP <= 1 /
 *    (messages x size x cheapest c) per port; then, once the events are
 *    valid, the problem solved again (check_solve.c) must give exactly it.
 *  - split: false means every transfer moves a whole message;
 *  - buffer_peak, buffer_node (optional): the most messages a node holds
 *    for others at once and the first node (in the file's order) holding
 *    that much, measured by the simulation of the events.
 * Keys of the file that are none of these are refused. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_chk_piece(chk_t *c, json_t *x, const char *where, mpq_t off, mpq_t len)
{
    json_t *pc = json_object_get(x, "piece");
    mpq_set_ui(off, 0, 1);
    mpq_set_ui(len, 1, 1);
    if (!pc)
        return SSCHED_OK;
    if (!json_is_array(pc) || json_array_size(pc) != 2)
        return ssched_i_chk_bad(c, "%s: \"piece\" must be [offset, length]", where);
    json_t *wrap = json_pack("{sOsO}", "o", json_array_get(pc, 0), "l", json_array_get(pc, 1));
    if (!wrap)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = ssched_i_chk_get_q(c, wrap, "o", where, off);
    if (st == SSCHED_OK)
        st = ssched_i_chk_get_q(c, wrap, "l", where, len);
    json_decref(wrap);
    if (st != SSCHED_OK)
        return st;
    mpq_t end;
    mpq_init(end);
    mpq_add(end, off, len);
    if (c->report->valid && (mpq_sgn(off) < 0 || mpq_sgn(len) <= 0 || mpq_cmp_ui(end, 1, 1) > 0))
        ssched_i_chk_violation(c, "%s: piece [%s] is not a non-empty range of [0, 1)", where,
                      mpq_sgn(len) <= 0 ? "empty" : "outside");
    mpq_clear(end);
    return SSCHED_OK;
}

/* Exact shortest transfer times (l + size * c per hop; l alone when
 * latency_only) from src, or to src when reverse; unreachable: -1.
 * Bellman-Ford: independent of the builder's Dijkstra, and platforms are
 * small. */
static void distances(const chk_t *c, size_t src, int reverse, int latency_only, mpq_t *d)
{
    mpq_t q;
    mpq_init(q);
    for (size_t v = 0; v < c->n_nodes; v++)
        mpq_set_si(d[v], -1, 1);
    mpq_set_ui(d[src], 0, 1);
    for (size_t round = 0; round < c->n_nodes; round++) {
        int changed = 0;
        for (size_t e = 0; e < c->n_edges; e++) {
            size_t a = reverse ? c->to[e] : c->from[e], b = reverse ? c->from[e] : c->to[e];
            if (mpq_sgn(d[a]) < 0)
                continue;
            if (latency_only)
                mpq_set_ui(q, 0, 1);
            else
                mpq_mul(q, c->cost[e], c->size);
            if (c->lat)
                mpq_add(q, q, c->lat[e]); /* each hop pays its latency */
            mpq_add(q, q, d[a]);
            if (mpq_sgn(d[b]) < 0 || mpq_cmp(q, d[b]) < 0) {
                mpq_set(d[b], q);
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    mpq_clear(q);
}

/* The cheapest c and the cheapest latency of a node's out (in) edges;
 * none (*any = 0) for a routed file's multi-port hosts, whose edges are
 * not one resource (docs/model.md, "Routed schedules": they hold only their routes' links), so no
 * port bound or cut applies to them. */
static void cheapest(const chk_t *c, size_t node, int out, mpq_t best, mpq_t lat, int *any)
{
    *any = 0;
    if (c->routed && !c->hosts_one_port)
        return;
    for (size_t e = 0; e < c->n_edges; e++) {
        if ((out ? c->from[e] : c->to[e]) != node)
            continue;
        if (!*any || mpq_cmp(c->cost[e], best) < 0)
            mpq_set(best, c->cost[e]);
        if (c->lat && (!*any || mpq_cmp(c->lat[e], lat) < 0))
            mpq_set(lat, c->lat[e]);
        else if (!c->lat)
            mpq_set_ui(lat, 0, 1);
        *any = 1;
    }
}

/* lb = max(lb, cheapest latency + count * size * cheapest c of the port);
 * tp_cut likewise for 1 / (count * size * cheapest c), the throughput
 * bound of the port (latency keeps no port busy). */
static void port(const chk_t *c, size_t node, int out, size_t count, mpq_t lb, mpq_t tp_cut,
                 int *have_cut)
{
    mpq_t best, lat, q;
    mpq_inits(best, lat, q, NULL);
    int any;
    cheapest(c, node, out, best, lat, &any);
    if (any && count > 0) {
        mpq_set_ui(q, count, 1);
        mpq_mul(q, q, best);
        mpq_mul(q, q, c->size);
        if (mpq_sgn(q) > 0) {
            mpq_t r;
            mpq_init(r);
            mpq_inv(r, q);
            if (!*have_cut || mpq_cmp(r, tp_cut) < 0)
                mpq_set(tp_cut, r);
            *have_cut = 1;
            mpq_clear(r);
        }
        mpq_add(q, q, lat);
        if (mpq_cmp(q, lb) > 0)
            mpq_set(lb, q);
    }
    mpq_clears(best, lat, q, NULL);
}

/* A scatter or gossip message o -> d whose pieces may pipeline along a
 * path: dl(o, d) (latencies only) + size * the larger of the cheapest c out
 * of o and into d (schedule/unroll_lb.c has the proof). */
static void piece(const chk_t *c, size_t o, size_t d, const mpq_t dl, mpq_t lb)
{
    if (mpq_sgn(dl) < 0)
        return;
    mpq_t co, ci, lat, q;
    mpq_inits(co, ci, lat, q, NULL);
    int ho, hi;
    cheapest(c, o, 1, co, lat, &ho);
    cheapest(c, d, 0, ci, lat, &hi);
    mpq_set_ui(q, 0, 1);
    if (ho)
        mpq_set(q, co);
    if (hi && mpq_cmp(ci, q) > 0)
        mpq_set(q, ci);
    mpq_mul(q, q, c->size);
    mpq_add(q, q, dl);
    if (mpq_cmp(q, lb) > 0)
        mpq_set(lb, q);
    mpq_clears(co, ci, lat, q, NULL);
}

/* A value whose node's distances are a[] (from it) must be merged on
 * some node x that computes before the result travels b[x] (to its
 * destination): lb = max(lb, min_x a[x] + w(x) + b[x]); q, best scratch. */
static void merged_first(const chk_t *c, mpq_t *a, mpq_t *b, mpq_t q, mpq_t best, mpq_t lb)
{
    int any = 0;
    for (size_t x = 0; x < c->n_nodes; x++) {
        if (!c->has_w[x] || mpq_sgn(a[x]) < 0 || mpq_sgn(b[x]) < 0)
            continue;
        mpq_add(q, a[x], c->w[x]);
        mpq_add(q, q, b[x]);
        if (!any || mpq_cmp(q, best) < 0)
            mpq_set(best, q);
        any = 1;
    }
    if (any && mpq_cmp(best, lb) > 0)
        mpq_set(lb, best);
}

/* LB1 and the port cut on TP. */
static void bounds(const chk_t *c, mpq_t lb, mpq_t cut, int *have_cut, mpq_t *a, mpq_t *b)
{
    mpq_t q, best;
    mpq_inits(q, best, NULL);
    mpq_set_ui(lb, 0, 1);
    *have_cut = 0;
    if (c->bcast) {
        /* LB1: the message's shortest path to the farthest target; cuts:
         * each message leaves the source once and enters every target once
         * (the targets are c->participants; a multicast's relays need not
         * receive it) */
        distances(c, c->source, 0, 0, a);
        for (size_t t = 0; t < c->N; t++)
            if (mpq_cmp(a[c->participants[t]], lb) > 0)
                mpq_set(lb, a[c->participants[t]]);
        mpq_t dummy;
        mpq_init(dummy);
        port(c, c->source, 1, 1, dummy, cut, have_cut);
        for (size_t t = 0; t < c->N; t++)
            port(c, c->participants[t], 0, 1, dummy, cut, have_cut);
        mpq_clear(dummy);
    } else if (c->scan) {
        /* LB1 of a scan: demand j (v[0,a_j] at r_j, j >= 1) needs every
         * v[k,k], k <= a_j, merged on some x that computes and then a
         * value reaching r_j: max_k min_x d(r_k,x) + w(x) + d(x,r_j); with
         * a_j = 0 (exclusive j = 1) v[0,0] travels, d(r_0,r_1).  No cut. */
        for (size_t j = 1; j < c->N; j++) {
            size_t aj = c->exclusive ? j - 1 : j, dj = c->participants[j];
            if (aj == 0) {
                distances(c, c->participants[0], 0, 0, a);
                if (mpq_sgn(a[dj]) >= 0 && mpq_cmp(a[dj], lb) > 0)
                    mpq_set(lb, a[dj]);
                continue;
            }
            distances(c, dj, 1, 0, b);
            for (size_t k = 0; k <= aj; k++) {
                distances(c, c->participants[k], 0, 0, a);
                merged_first(c, a, b, q, best, lb);
            }
        }
    } else if (!c->reduce) {
        /* message types are (origin, dest) pairs */
        for (size_t v = 0; v < c->n_nodes; v++) {
            size_t as_origin = 0, as_dest = 0;
            for (size_t t = 0; t < c->n_types; t++) {
                as_origin += c->type_origin[t] == v;
                as_dest += c->type_dest[t] == v;
            }
            if (as_origin) {
                distances(c, v, 0, 1, a);
                for (size_t t = 0; t < c->n_types; t++)
                    if (c->type_origin[t] == v)
                        piece(c, v, c->type_dest[t], a[c->type_dest[t]], lb);
                port(c, v, 1, as_origin, lb, cut, have_cut);
            }
            if (as_dest)
                port(c, v, 0, as_dest, lb, cut, have_cut);
        }
    } else {
        distances(c, c->target, 1, 0, b);
        for (size_t k = 0; k < c->N; k++) {
            size_t pk = c->participants[k];
            if (c->N == 1) {
                if (mpq_cmp(b[pk], lb) > 0)
                    mpq_set(lb, b[pk]);
                continue;
            }
            distances(c, pk, 0, 0, a);
            merged_first(c, a, b, q, best, lb);
            /* a value that is not born on the target leaves its node */
            if (pk != c->target) {
                mpq_t dummy;
                mpq_init(dummy);
                port(c, pk, 1, 1, dummy, cut, have_cut);
                port(c, c->target, 0, 1, dummy, cut, have_cut);
                mpq_clear(dummy);
            }
        }
        if (c->allreduce) {
            /* then the result leaves the root, complete, and reaches the
             * farthest participant */
            distances(c, c->target, 0, 0, a);
            mpq_set_ui(best, 0, 1);
            for (size_t k = 0; k < c->N; k++)
                if (mpq_cmp(a[c->participants[k]], best) > 0)
                    mpq_set(best, a[c->participants[k]]);
            mpq_add(lb, lb, best);
        }
    }
    mpq_clears(q, best, NULL);
}

static int claim(chk_t *c, json_t *root, const char *key, const mpq_t want, ssched_status_t *st)
{
    if (!json_object_get(root, key))
        return 1; /* "ssched-unrolled/1" files state fewer figures */
    mpq_t q;
    mpq_init(q);
    *st = ssched_i_chk_get_q(c, root, key, "schedule", q);
    int ok = *st != SSCHED_OK || mpq_equal(q, want);
    mpq_clear(q);
    if (!ok)
        ssched_i_chk_violation(c, "\"%s\" is not what the events give", key);
    return ok;
}

ssched_status_t ssched_i_chk_unrolled_claims(chk_t *c, json_t *root, size_t K,
                                    const mpq_t makespan, const mpq_t buf_peak, size_t buf_node)
{
    static const char *const keys[] = {
        "format", "problem", "platform", "throughput", "operations", "split", "transfers",
        "computations", "operations_per_period", "period", "pattern_throughput", "makespan",
        "steady_time", "overhead", "lb1", "lower_bound", "ratio", "periods", "buffer_peak",
        "buffer_node", "segments", NULL};
    const char *format = json_string_value(json_object_get(root, "format"));
    int v2 = format && !strcmp(format, "ssched-unrolled/2");
    ssched_status_t st = v2 ? ssched_i_chk_keys(c, root, "schedule", keys) : SSCHED_OK;
    if (st == SSCHED_OK && v2)
        st = ssched_i_chk_segments(c, root, K);
    if (st != SSCHED_OK)
        return st;
    size_t nn = c->n_nodes;
    mpq_t *a = ssched_i_alloc(nn, sizeof *a), *b = ssched_i_alloc(nn, sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < nn; v++)
        mpq_inits(a[v], b[v], NULL);
    mpq_t steady, over, lb1, lb, ratio, cut, ops, per, q;
    mpq_inits(steady, over, lb1, lb, ratio, cut, ops, per, q, NULL);
    int have_cut;
    if (mpq_sgn(c->throughput) <= 0) {
        ssched_i_chk_violation(c, "the throughput must be positive");
        goto out;
    }
    mpq_set_ui(steady, K, 1);
    mpq_div(steady, steady, c->throughput);
    mpq_sub(over, makespan, steady);
    bounds(c, lb1, cut, &have_cut, a, b);
    mpq_set(lb, mpq_cmp(lb1, steady) > 0 ? lb1 : steady);
    if (mpq_sgn(lb) > 0)
        mpq_div(ratio, makespan, lb);
    if (!claim(c, root, "makespan", makespan, &st) || st != SSCHED_OK ||
        !claim(c, root, "steady_time", steady, &st) || st != SSCHED_OK ||
        !claim(c, root, "overhead", over, &st) || st != SSCHED_OK ||
        !claim(c, root, "lb1", lb1, &st) || st != SSCHED_OK ||
        !claim(c, root, "lower_bound", lb, &st) || st != SSCHED_OK ||
        !claim(c, root, "ratio", ratio, &st) || st != SSCHED_OK ||
        !claim(c, root, "buffer_peak", buf_peak, &st) || st != SSCHED_OK)
        goto out;
    if (json_object_get(root, "buffer_node")) {
        size_t v;
        if ((st = ssched_i_chk_get_node(c, root, "buffer_node", "schedule", &v)) != SSCHED_OK)
            goto out;
        if (v != buf_node) {
            ssched_i_chk_violation(c, "\"buffer_node\" is not what the events give (%s, not %s)",
                          c->names[buf_node], c->names[v]);
            goto out;
        }
    }
    if (mpq_cmp(steady, makespan) > 0) {
        ssched_i_chk_violation(c, "the events end before K / throughput: the stated throughput is too low");
        goto out;
    }
    if (have_cut && mpq_cmp(c->throughput, cut) > 0) {
        ssched_i_chk_violation(c, "the stated throughput exceeds a port's capacity");
        goto out;
    }
    if (v2) {
        if ((st = ssched_i_chk_get_q(c, root, "operations_per_period", "schedule", ops)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, root, "period", "schedule", per)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, root, "pattern_throughput", "schedule", q)) != SSCHED_OK)
            goto out;
        if (mpq_sgn(per) <= 0 || mpq_sgn(ops) <= 0 || mpz_cmp_ui(mpq_denref(ops), 1) != 0) {
            ssched_i_chk_violation(c, "the pattern needs a positive period and a positive integer "
                             "operations_per_period");
            goto out;
        }
        mpq_div(ops, ops, per);
        if (!mpq_equal(ops, q))
            ssched_i_chk_violation(c, "\"pattern_throughput\" is not operations_per_period / period");
        else if (mpq_cmp(q, c->throughput) > 0)
            ssched_i_chk_violation(c, "the pattern's throughput exceeds the optimal throughput");
        if (!json_is_boolean(json_object_get(root, "split")))
            st = ssched_i_chk_bad(c, "missing boolean \"split\"");
        /* "split": false (whole messages) is checked per transfer */
    }
out:
    for (size_t v = 0; v < nn; v++)
        mpq_clears(a[v], b[v], NULL);
    free(a);
    free(b);
    mpq_clears(steady, over, lb1, lb, ratio, cut, ops, per, q, NULL);
    return st;
}
