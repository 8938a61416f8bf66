/* Checker: the routed model's platform keys and its periodic link loads
 * (docs/model.md, routed schedules; include/ssched/platform.h, "The routed model").
 *
 * A routed file's platform object adds "model": "routed", "hosts":
 * "multi-port" | "one-port", "links": [{name, c, latency, sharing}] and on
 * every edge "route": [link indices, route order].  Nothing of it is
 * trusted: each edge's c must be the largest c of its route's links and its
 * l the sum of their latencies (what ssched_platform_add_routed_edge
 * gives), so the durations the rest of the checker derives from c(e) and
 * l(e) are the route's.  A malformed header is SSCHED_EINPUT (exit 2). */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

void ssched_i_chk_routes_free(chk_t *c)
{
    for (size_t k = 0; k < c->n_links; k++) {
        free(c->link_names[k]);
        mpq_clears(c->link_c[k], c->link_lat[k], NULL);
    }
    if (c->link_busy)
        for (size_t k = 0; k < c->n_links + 2 * c->n_nodes; k++)
            mpq_clear(c->link_busy[k]);
    free(c->link_names);
    free(c->link_c);
    free(c->link_lat);
    free(c->fatpipe);
    free(c->route_start);
    free(c->route_links);
    free(c->link_busy);
    c->link_names = NULL;
    c->link_c = c->link_lat = c->link_busy = NULL;
    c->fatpipe = NULL;
    c->route_start = c->route_links = NULL;
    c->n_links = 0;
}

static ssched_status_t nomem(chk_t *c)
{
    return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
}

static ssched_status_t read_links(chk_t *c, json_t *links)
{
    static const char *const link_keys[] = {"name", "c", "latency", "sharing", NULL};
    size_t nl = json_array_size(links);
    c->link_names = ssched_i_calloc(nl ? nl : 1, sizeof *c->link_names);
    c->link_c = ssched_i_alloc(nl ? nl : 1, sizeof *c->link_c);
    c->link_lat = ssched_i_alloc(nl ? nl : 1, sizeof *c->link_lat);
    c->fatpipe = ssched_i_calloc(nl ? nl : 1, 1);
    if (!c->link_names || !c->link_c || !c->link_lat || !c->fatpipe)
        return nomem(c);
    char where[64];
    ssched_status_t st;
    for (size_t k = 0; k < nl; k++) {
        json_t *o = json_array_get(links, k);
        mpq_inits(c->link_c[k], c->link_lat[k], NULL);
        c->n_links++;
        snprintf(where, sizeof where, "platform.links[%zu]", k);
        if ((st = ssched_i_chk_keys(c, o, where, link_keys)) != SSCHED_OK)
            return st;
        const char *name = json_string_value(json_object_get(o, "name"));
        if (!name || !name[0])
            return ssched_i_chk_bad(c, "%s: missing \"name\"", where);
        if (ssched_i_name_control(name) >= 0) {
            char shown[160];
            return ssched_i_chk_bad(c, "%s: control character in link '%s'", where,
                                    ssched_i_name_shown(name, shown, sizeof shown));
        }
        /* links are few (a route's resources): the quadratic scan is fine */
        for (size_t j = 0; j < k; j++)
            if (!strcmp(c->link_names[j], name))
                return ssched_i_chk_bad(c, "%s: duplicate link name '%s' (also links[%zu])",
                                        where, name, j);
        if (!(c->link_names[k] = strdup(name)))
            return nomem(c);
        if ((st = ssched_i_chk_get_q(c, o, "c", where, c->link_c[k])) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "latency", where, c->link_lat[k])) != SSCHED_OK)
            return st;
        if (mpq_sgn(c->link_c[k]) <= 0)
            return ssched_i_chk_bad(c, "%s: c must be positive", where);
        if (mpq_sgn(c->link_lat[k]) < 0)
            return ssched_i_chk_bad(c, "%s: latency must not be negative", where);
        const char *sh = json_string_value(json_object_get(o, "sharing"));
        if (!sh || (strcmp(sh, "shared") && strcmp(sh, "fatpipe")))
            return ssched_i_chk_bad(c, "%s: \"sharing\" must be \"shared\" or \"fatpipe\"",
                                    where);
        c->fatpipe[k] = !strcmp(sh, "fatpipe");
    }
    return SSCHED_OK;
}

/* Edge e's route: indices in range, each link once, non-empty; c(e) = the
 * largest link c, l(e) = the latencies' sum. */
static ssched_status_t read_route(chk_t *c, json_t *edges, size_t e, size_t *cap, mpq_t cmax,
                                  mpq_t lsum)
{
    char where[64];
    snprintf(where, sizeof where, "platform.edges[%zu]", e);
    json_t *r = json_object_get(json_array_get(edges, e), "route");
    if (!json_is_array(r) || json_array_size(r) == 0)
        return ssched_i_chk_bad(c, "%s: missing non-empty \"route\" array (a routed file)", where);
    size_t n = json_array_size(r), at = c->route_start[e];
    if (at + n > *cap) {
        size_t nc = 2 * (at + n);
        size_t *nr = realloc(c->route_links, nc * sizeof *nr);
        if (!nr)
            return nomem(c);
        c->route_links = nr;
        *cap = nc;
    }
    mpq_set_ui(cmax, 0, 1);
    mpq_set_ui(lsum, 0, 1);
    for (size_t k = 0; k < n; k++) {
        json_t *v = json_array_get(r, k);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (json_int_t)c->n_links <= json_integer_value(v))
            return ssched_i_chk_bad(c, "%s.route[%zu]: not a link index (0..%zu)", where, k,
                                    c->n_links ? c->n_links - 1 : 0);
        size_t L = (size_t)json_integer_value(v);
        for (size_t j = 0; j < k; j++)
            if (c->route_links[at + j] == L)
                return ssched_i_chk_bad(c, "%s.route: link '%s' crossed twice", where,
                                        c->link_names[L]);
        c->route_links[at + k] = L;
        if (mpq_cmp(c->link_c[L], cmax) > 0)
            mpq_set(cmax, c->link_c[L]);
        mpq_add(lsum, lsum, c->link_lat[L]);
    }
    c->route_start[e + 1] = at + n;
    if (!mpq_equal(cmax, c->cost[e]))
        return ssched_i_chk_bad(c, "%s: c is not the largest c of its route's links", where);
    if (!mpq_equal(lsum, c->lat[e]))
        return ssched_i_chk_bad(c, "%s: l (0 when absent) is not the sum of its route's link "
                                   "latencies", where);
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_read_routes(chk_t *c, json_t *root)
{
    static const char *const graph_only[] = {"hosts", "links", NULL};
    json_t *pl = json_object_get(root, "platform");
    json_t *edges = json_object_get(pl, "edges");
    json_t *model = json_object_get(pl, "model");
    if (!model) {
        /* a graph-model file: none of the routed keys */
        for (size_t k = 0; graph_only[k]; k++)
            if (json_object_get(pl, graph_only[k]))
                return ssched_i_chk_bad(c, "platform: unknown key \"%s\" (a routed file's, "
                                           "without \"model\": \"routed\")", graph_only[k]);
        for (size_t e = 0; e < json_array_size(edges); e++)
            if (json_object_get(json_array_get(edges, e), "route"))
                return ssched_i_chk_bad(c, "platform.edges[%zu]: unknown key \"route\" (a routed "
                                           "file's, without \"model\": \"routed\")", e);
        return SSCHED_OK;
    }
    const char *mv = json_string_value(model);
    if (!mv || strcmp(mv, "routed"))
        return ssched_i_chk_bad(c, "platform: \"model\" must be \"routed\" (a graph-model file "
                                   "has no \"model\")");
    c->routed = 1;
    const char *hv = json_string_value(json_object_get(pl, "hosts"));
    if (!hv || (strcmp(hv, "multi-port") && strcmp(hv, "one-port")))
        return ssched_i_chk_bad(c, "platform: \"hosts\" must be \"multi-port\" or \"one-port\" "
                                   "(a routed file)");
    c->hosts_one_port = !strcmp(hv, "one-port");
    /* every node is a host: relaying happens only at hosts */
    for (size_t i = 0; i < c->n_nodes; i++)
        if (chk_multi(c, i))
            return ssched_i_chk_bad(c, "platform.nodes[%zu]: \"ports\": \"multi\" in a routed "
                                       "file (its nodes are hosts; \"hosts\" sets their ports)", i);
    json_t *links = json_object_get(pl, "links");
    if (!json_is_array(links) || json_array_size(links) == 0)
        return ssched_i_chk_bad(c, "platform: missing non-empty \"links\" array (a routed file)");
    ssched_status_t st = read_links(c, links);
    if (st != SSCHED_OK)
        return st;
    size_t cap = 0;
    c->route_start = ssched_i_calloc(c->n_edges + 1, sizeof *c->route_start);
    c->link_busy = ssched_i_alloc(c->n_links + 2 * c->n_nodes, sizeof *c->link_busy);
    if (!c->route_start || !c->link_busy) {
        free(c->link_busy);
        c->link_busy = NULL;
        return nomem(c);
    }
    for (size_t k = 0; k < c->n_links + 2 * c->n_nodes; k++)
        mpq_init(c->link_busy[k]);
    mpq_t cmax, lsum;
    mpq_inits(cmax, lsum, NULL);
    for (size_t e = 0; e < c->n_edges && st == SSCHED_OK; e++)
        st = read_route(c, edges, e, &cap, cmax, lsum);
    mpq_clears(cmax, lsum, NULL);
    return st;
}

/* The fluid rules of the routed LP, per slot (docs/model.md, "Routed schedules"). */
int ssched_i_chk_routed_slot(chk_t *c, size_t k, const mpq_t len, const size_t *edge,
                             mpq_t *const amount, size_t n, mpq_t *busy)
{
    size_t nn = c->n_nodes, nl = c->n_links;
    mpq_t *load = c->link_busy, *out = c->link_busy + nl, *in = c->link_busy + nl + nn;
    mpq_t q;
    mpq_init(q);
    /* busy[e]: the amount over e in this slot, times size */
    for (size_t t = 0; t < n; t++) {
        mpq_mul(q, amount[t], c->size);
        mpq_add(busy[edge[t]], busy[edge[t]], q);
    }
    int ok = 1;
    for (size_t t = 0; t < n && ok; t++) {
        size_t e = edge[t];
        if (mpq_sgn(busy[e]) == 0)
            continue; /* this edge was already accounted for */
        for (size_t r = c->route_start[e]; r < c->route_start[e + 1] && ok; r++) {
            size_t L = c->route_links[r];
            mpq_mul(q, busy[e], c->link_c[L]);
            if (c->fatpipe[L]) {
                /* a FATPIPE caps each flow alone (the edge's amount) */
                if (mpq_cmp(q, len) > 0)
                    ok = ssched_i_chk_violation(c, "slot %zu: the flow %s->%s alone is busy "
                                                   "longer than the slot on FATPIPE link %s", k,
                                                c->names[c->from[e]], c->names[c->to[e]],
                                                c->link_names[L]);
            } else {
                mpq_add(load[L], load[L], q);
            }
        }
        mpq_mul(q, busy[e], c->cost[e]);
        mpq_add(out[c->from[e]], out[c->from[e]], q);
        mpq_add(in[c->to[e]], in[c->to[e]], q);
        mpq_set_ui(busy[e], 0, 1);
    }
    for (size_t t = 0; t < n && ok; t++) {
        size_t e = edge[t];
        for (size_t r = c->route_start[e]; r < c->route_start[e + 1] && ok; r++) {
            size_t L = c->route_links[r];
            if (!c->fatpipe[L] && mpq_cmp(load[L], len) > 0)
                ok = ssched_i_chk_violation(c, "slot %zu: SHARED link %s is loaded longer than "
                                               "the slot (its flows' amount x size x c)",
                                            k, c->link_names[L]);
        }
        size_t i = c->from[e], j = c->to[e];
        if (ok && c->hosts_one_port && mpq_cmp(out[i], len) > 0)
            ok = ssched_i_chk_violation(c, "slot %zu: one-port host %s sends longer than the "
                                           "slot", k, c->names[i]);
        else if (ok && c->hosts_one_port && mpq_cmp(in[j], len) > 0)
            ok = ssched_i_chk_violation(c, "slot %zu: one-port host %s receives longer than the "
                                           "slot", k, c->names[j]);
    }
    /* scratch back to 0 */
    for (size_t t = 0; t < n; t++) {
        size_t e = edge[t];
        mpq_set_ui(busy[e], 0, 1);
        for (size_t r = c->route_start[e]; r < c->route_start[e + 1]; r++)
            mpq_set_ui(load[c->route_links[r]], 0, 1);
        mpq_set_ui(out[c->from[e]], 0, 1);
        mpq_set_ui(in[c->to[e]], 0, 1);
    }
    mpq_clear(q);
    return ok;
}
