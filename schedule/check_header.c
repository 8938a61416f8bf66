/* Checker: a schedule file's platform and problem objects, read into the
 * checker's own state (check.c calls them for both formats). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

/* strict (periodic files): every key must be one the format defines, and
 * a node states "w" explicitly (null when it only routes). */
ssched_status_t ssched_i_chk_read_platform(chk_t *c, json_t *root, int strict)
{
    static const char *const pl_keys[] = {"nodes", "edges", "model", "hosts", "links", NULL};
    static const char *const node_keys[] = {"id", "w", "ports", NULL};
    static const char *const edge_keys[] = {"from", "to", "c", "l", "route", NULL};
    json_t *pl = json_object_get(root, "platform");
    json_t *nodes = json_object_get(pl, "nodes"), *edges = json_object_get(pl, "edges");
    if (!json_is_array(nodes) || !json_is_array(edges))
        return ssched_i_chk_bad(c, "missing platform.nodes / platform.edges arrays");
    ssched_status_t kst;
    if (strict && (kst = ssched_i_chk_keys(c, pl, "platform", pl_keys)) != SSCHED_OK)
        return kst;
    size_t nn = json_array_size(nodes);
    c->names = ssched_i_calloc(nn, sizeof *c->names);
    c->has_w = ssched_i_calloc(nn, sizeof *c->has_w);
    c->w = ssched_i_alloc(nn, sizeof *c->w);
    c->multi = ssched_i_calloc(nn, 1);
    if (!c->names || !c->has_w || !c->w || !c->multi)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < nn; i++) {
        json_t *node = json_array_get(nodes, i);
        json_t *id = json_object_get(node, "id");
        mpq_init(c->w[i]);
        c->n_nodes++;
        char nwhere[64];
        snprintf(nwhere, sizeof nwhere, "platform.nodes[%zu]", i);
        if (strict && (kst = ssched_i_chk_keys(c, node, nwhere, node_keys)) != SSCHED_OK)
            return kst;
        if (strict && !json_object_get(node, "w"))
            return ssched_i_chk_bad(c, "%s: missing \"w\" (null for a node that only routes)", nwhere);
        if (!json_is_string(id))
            return ssched_i_chk_bad(c, "platform.nodes[%zu]: missing \"id\"", i);
        if (ssched_i_name_control(json_string_value(id)) >= 0) { /* forged lines (issue 24) */
            char shown[160];
            return ssched_i_chk_bad(c, "platform.nodes[%zu]: control character in node '%s'", i,
                                    ssched_i_name_shown(json_string_value(id), shown,
                                                        sizeof shown));
        }
        for (size_t k = 0; k < i; k++)
            if (!strcmp(c->names[k], json_string_value(id)))
                return ssched_i_chk_bad(c, "platform.nodes: duplicate node '%s'", c->names[k]);
        c->names[i] = strdup(json_string_value(id));
        if (!c->names[i])
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        /* the port model (issue 12): "one" (the default, RR-4872) or
         * "multi" (a switch: each incident link is its own resource) */
        json_t *ports = json_object_get(node, "ports");
        if (ports) {
            const char *pv = json_string_value(ports);
            if (!pv || (strcmp(pv, "one") && strcmp(pv, "multi")))
                return ssched_i_chk_bad(c, "%s: \"ports\" must be \"one\" or \"multi\"", nwhere);
            c->multi[i] = !strcmp(pv, "multi");
        }
        json_t *w = json_object_get(node, "w");
        if (w && !json_is_null(w)) {
            char where[64];
            snprintf(where, sizeof where, "platform.nodes[%zu]", i);
            ssched_status_t st = ssched_i_chk_get_q(c, node, "w", where, c->w[i]);
            if (st != SSCHED_OK)
                return st;
            /* w = 0 (free merges) occurs in makespan comparisons, where the
             * cluster model folds merge time into the transfer time */
            if (mpq_sgn(c->w[i]) < 0)
                return ssched_i_chk_bad(c, "%s: w must not be negative", where);
            c->has_w[i] = 1;
        }
    }
    size_t m = json_array_size(edges);
    c->from = ssched_i_alloc(m, sizeof *c->from);
    c->to = ssched_i_alloc(m, sizeof *c->to);
    c->cost = ssched_i_alloc(m, sizeof *c->cost);
    c->lat = ssched_i_alloc(m, sizeof *c->lat);
    if (!c->from || !c->to || !c->cost || !c->lat)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    char where[64];
    for (size_t e = 0; e < m; e++) {
        json_t *o = json_array_get(edges, e);
        snprintf(where, sizeof where, "platform.edges[%zu]", e);
        mpq_inits(c->cost[e], c->lat[e], NULL);
        c->n_edges++;
        ssched_status_t st;
        if (strict && (st = ssched_i_chk_keys(c, o, where, edge_keys)) != SSCHED_OK)
            return st;
        if ((st = ssched_i_chk_get_node(c, o, "from", where, &c->from[e])) != SSCHED_OK ||
            (st = ssched_i_chk_get_node(c, o, "to", where, &c->to[e])) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "c", where, c->cost[e])) != SSCHED_OK)
            return st;
        if (mpq_sgn(c->cost[e]) <= 0)
            return ssched_i_chk_bad(c, "%s: c must be positive", where);
        /* the latency (docs/model.md "Latency"): optional, >= 0 */
        if (json_object_get(o, "l")) {
            if ((st = ssched_i_chk_get_q(c, o, "l", where, c->lat[e])) != SSCHED_OK)
                return st;
            if (mpq_sgn(c->lat[e]) < 0)
                return ssched_i_chk_bad(c, "%s: l must not be negative", where);
            c->has_lat |= mpq_sgn(c->lat[e]) > 0;
        }
        if (ssched_i_chk_edge(c, c->from[e], c->to[e]) != e)
            return ssched_i_chk_bad(c, "%s: parallel edge", where);
    }
    /* the routed model's keys (docs/model.md, routed schedules), or none of them */
    return ssched_i_chk_read_routes(c, root);
}

/* strict: a node listed twice is refused (it would claim two types that
 * are one). */
static ssched_status_t node_list(chk_t *c, json_t *pb, const char *key, size_t **out, size_t *n,
                                 int strict)
{
    json_t *a = json_object_get(pb, key);
    if (!json_is_array(a) || json_array_size(a) == 0)
        return ssched_i_chk_bad(c, "problem.%s: missing node list", key);
    *n = json_array_size(a);
    *out = malloc(*n * sizeof **out);
    if (!*out)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    char where[64];
    snprintf(where, sizeof where, "problem.%s", key);
    for (size_t k = 0; k < *n; k++) {
        json_t *wrap = json_pack("{sO}", "n", json_array_get(a, k));
        ssched_status_t st = ssched_i_chk_get_node(c, wrap, "n", where, &(*out)[k]);
        json_decref(wrap);
        if (st != SSCHED_OK)
            return st;
        for (size_t j = 0; strict && j < k; j++)
            if ((*out)[j] == (*out)[k])
                return ssched_i_chk_bad(c, "%s: '%s' listed twice", where, c->names[(*out)[k]]);
    }
    return SSCHED_OK;
}

/* problem.size: a positive exact number, 1 when absent. */
static ssched_status_t read_size(chk_t *c, json_t *pb)
{
    if (!json_object_get(pb, "size")) {
        mpq_set_ui(c->size, 1, 1);
        return SSCHED_OK;
    }
    ssched_status_t st = ssched_i_chk_get_q(c, pb, "size", "problem", c->size);
    if (st == SSCHED_OK && mpq_sgn(c->size) <= 0)
        st = ssched_i_chk_bad(c, "problem.size must be positive");
    return st;
}

/* A reduce's or scan's message types: the intervals [k,m] of the N
 * participants, k-major (type_origin = k, type_dest = m). */
static ssched_status_t interval_types(chk_t *c)
{
    size_t nI = c->N * (c->N + 1) / 2;
    c->type_origin = malloc(nI * sizeof(size_t));
    c->type_dest = malloc(nI * sizeof(size_t));
    if (!c->type_origin || !c->type_dest)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < c->N; k++)
        for (size_t m = k; m < c->N; m++) {
            c->type_origin[c->n_types] = k;
            c->type_dest[c->n_types++] = m;
        }
    return SSCHED_OK;
}

static ssched_status_t read_problem_nodes(chk_t *c, json_t *root, int strict);

/* A switch only forwards (issue 12): it is never a source, target or
 * participant, so the roles of the problem must all be one-port nodes. */
ssched_status_t ssched_i_chk_read_problem(chk_t *c, json_t *root, int strict)
{
    ssched_status_t st = read_problem_nodes(c, root, strict);
    if (st != SSCHED_OK)
        return st;
    if (c->reduce) {
        for (size_t k = 0; k < c->N; k++)
            if (chk_multi(c, c->participants[k]))
                return ssched_i_chk_bad(c, "problem.participants: '%s' is a switch (\"ports\": "
                               "\"multi\"), which never computes", c->names[c->participants[k]]);
        if (chk_multi(c, c->target))
            return ssched_i_chk_bad(c, "problem.target: '%s' is a switch (\"ports\": \"multi\")",
                           c->names[c->target]);
        return SSCHED_OK;
    }
    for (size_t t = 0; t < c->n_types; t++)
        if (chk_multi(c, c->type_origin[t]) || chk_multi(c, c->type_dest[t])) {
            size_t v = chk_multi(c, c->type_origin[t]) ? c->type_origin[t] : c->type_dest[t];
            return ssched_i_chk_bad(c, "problem: '%s' is a switch (\"ports\": \"multi\"), never a "
                           "source or target", c->names[v]);
        }
    return SSCHED_OK;
}

/* Message types of the problem: (source, target) pairs of distinct nodes. */
static ssched_status_t read_problem_nodes(chk_t *c, json_t *root, int strict)
{
    static const char *const scatter_keys[] = {"kind", "source", "targets", "size", NULL};
    static const char *const gossip_keys[] = {"kind", "sources", "targets", "size", NULL};
    static const char *const reduce_keys[] = {"kind", "participants", "target", "size",
                                              "commutative", NULL};
    static const char *const allreduce_keys[] = {"kind", "participants", "root", "size",
                                                 "commutative", NULL};
    static const char *const scan_keys[] = {"kind", "participants", "exclusive", "size", NULL};
    json_t *pb = json_object_get(root, "problem");
    const char *kind = json_string_value(json_object_get(pb, "kind"));
    if (!kind)
        return ssched_i_chk_bad(c, "missing problem.kind");
    if (strict) {
        const char *const *keys = !strcmp(kind, "scatter")  ? scatter_keys
                                  : !strcmp(kind, "gossip") ? gossip_keys
                                  : !strcmp(kind, "reduce") ? reduce_keys
                                  : !strcmp(kind, "allreduce") ? allreduce_keys
                                  : !strcmp(kind, "scan")      ? scan_keys
                                                            : NULL;
        ssched_status_t kst = keys ? ssched_i_chk_keys(c, pb, "problem", keys) : SSCHED_OK;
        if (kst != SSCHED_OK)
            return kst;
        /* the size scales every busy time: it is stated, never assumed */
        if (keys && !json_object_get(pb, "size"))
            return ssched_i_chk_bad(c, "problem: missing exact string field \"size\"");
    }
    size_t *src = NULL, *dst = NULL, ns = 0, nd = 0;
    ssched_status_t st = SSCHED_OK;
    if (!strcmp(kind, "scatter")) {
        json_t *s = json_object_get(pb, "source");
        json_t *wrap = json_pack("{s[O]}", "source", s ? s : json_null());
        st = node_list(c, wrap, "source", &src, &ns, strict);
        json_decref(wrap);
    } else if (!strcmp(kind, "gossip")) {
        st = node_list(c, pb, "sources", &src, &ns, strict);
    } else if (!strcmp(kind, "scan")) {
        /* intervals as a reduce's; participant j ends with its prefix
         * (check_unrolled_scan.c); "target" is the last participant, for
         * the shared reduce code only */
        c->reduce = c->scan = 1;
        json_t *x = json_object_get(pb, "exclusive");
        if (x && !json_is_boolean(x))
            return ssched_i_chk_bad(c, "problem.exclusive must be true or false");
        c->exclusive = json_is_true(x);
        st = node_list(c, pb, "participants", &c->participants, &c->N, 0);
        if (st == SSCHED_OK && c->N < 2)
            st = ssched_i_chk_bad(c, "problem.participants: a scan needs at least 2 participants");
        for (size_t a = 0; a < c->N && st == SSCHED_OK; a++)
            for (size_t b = 0; b < a; b++)
                if (c->participants[a] == c->participants[b])
                    st = ssched_i_chk_bad(c, "problem.participants: '%s' listed twice",
                                          c->names[c->participants[a]]);
        if (st == SSCHED_OK)
            c->target = c->participants[c->N - 1];
        if (st == SSCHED_OK)
            st = read_size(c, pb);
        return st == SSCHED_OK ? interval_types(c) : st;
    } else if (!strcmp(kind, "reduce") || !strcmp(kind, "allreduce")) {
        /* an all-reduce's reduce part is checked as a reduce to its root
         * (the file's "root" when the problem left it open) */
        c->reduce = 1;
        c->allreduce = !strcmp(kind, "allreduce");
        json_t *comm = json_object_get(pb, "commutative");
        if (comm && !json_is_boolean(comm))
            return ssched_i_chk_bad(c, "problem.commutative must be true or false");
        c->comm = json_is_true(comm); /* types are sets, numbered as met (check_commut.c) */
        st = node_list(c, pb, "participants", &c->participants, &c->N, 0);
        json_t *r = json_object_get(pb, "root");
        if (st == SSCHED_OK && c->allreduce && (!r || json_is_null(r)))
            st = ssched_i_chk_get_node(c, root, "root", "schedule", &c->target);
        else if (st == SSCHED_OK)
            st = ssched_i_chk_get_node(c, pb, c->allreduce ? "root" : "target", "problem", &c->target);
        if (st == SSCHED_OK && c->N < 2)
            st = ssched_i_chk_bad(c, "problem.participants: a reduce needs at least 2 participants");
        for (size_t a = 0; a < c->N && st == SSCHED_OK; a++)
            for (size_t b = 0; b < a; b++)
                if (c->participants[a] == c->participants[b])
                    st = ssched_i_chk_bad(c, "problem.participants: '%s' listed twice",
                                 c->names[c->participants[a]]);
        if (st == SSCHED_OK)
            st = read_size(c, pb);
        return st == SSCHED_OK && !c->comm ? interval_types(c) : st;
    } else if (!strcmp(kind, "broadcast")) {
        return ssched_i_chk_broadcast_problem(c, pb, strict);
    } else {
        return ssched_i_chk_bad(c, "problem.kind '%s' is not supported by this checker", kind);
    }
    if (st == SSCHED_OK)
        st = node_list(c, pb, "targets", &dst, &nd, strict);
    /* a scatter's source is not one of its own targets (the CLI refuses it) */
    for (size_t b = 0; strict && st == SSCHED_OK && ns == 1 && !strcmp(kind, "scatter") && b < nd; b++)
        if (dst[b] == src[0])
            st = ssched_i_chk_bad(c, "problem.targets: the source '%s' is listed among its targets",
                         c->names[src[0]]);
    if (st == SSCHED_OK)
        st = read_size(c, pb);
    if (st == SSCHED_OK) {
        c->type_origin = ssched_i_alloc(ns * nd, sizeof(size_t));
        c->type_dest = ssched_i_alloc(ns * nd, sizeof(size_t));
        if (!c->type_origin || !c->type_dest)
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        for (size_t a = 0; a < ns && st == SSCHED_OK; a++)
            for (size_t b = 0; b < nd; b++)
                if (src[a] != dst[b] && ssched_i_chk_type(c, src[a], dst[b]) == (size_t)-1) {
                    c->type_origin[c->n_types] = src[a];
                    c->type_dest[c->n_types] = dst[b];
                    c->n_types++;
                }
        if (st == SSCHED_OK && c->n_types == 0)
            st = ssched_i_chk_bad(c, "problem has no (source, target) pair of distinct nodes");
    }
    free(src);
    free(dst);
    return st;
}
