/* The independent schedule checker (schedule.h: ssched_check_schedule_text).
 *
 * It trusts nothing but the file: it rebuilds the platform and the problem
 * from the JSON, then re-verifies every property of design.md.  It shares no
 * code with the schedule builder (only the exact number parser).  Malformed
 * files are SSCHED_EINPUT; a well-formed file that breaks a property is
 * reported with report->valid = 0 and the first violation stated plainly. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"
#include "ssched/rational.h"

void ssched_i_chk_init(chk_t *c)
{
    memset(c, 0, sizeof *c);
    mpq_inits(c->size, c->throughput, c->makespan, NULL);
}

void ssched_i_chk_free(chk_t *c)
{
    for (size_t i = 0; i < c->n_nodes; i++) {
        free(c->names[i]);
        if (c->w)
            mpq_clear(c->w[i]);
    }
    for (size_t e = 0; e < c->n_edges; e++)
        mpq_clear(c->cost[e]);
    free(c->has_w);
    free(c->multi);
    free(c->w);
    free(c->participants);
    free(c->names);
    free(c->by_name);
    free(c->edge_at);
    free(c->type_at);
    free(c->from);
    free(c->to);
    free(c->cost);
    free(c->type_origin);
    free(c->type_dest);
    ssched_sets_free(&c->sets);
    free(c->scratch);
    mpq_clears(c->size, c->throughput, c->makespan, NULL);
    memset(c, 0, sizeof *c);
}

int ssched_i_chk_violation(chk_t *c, const char *fmt, ...)
{
    if (c->report->valid) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->report->violation, sizeof c->report->violation, fmt, ap);
        va_end(ap);
        c->report->valid = 0;
    }
    return 0;
}

ssched_status_t ssched_i_chk_bad(chk_t *c, const char *fmt, ...)
{
    char msg[SSCHED_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ssched_error_set(c->err, SSCHED_EINPUT, "schedule file: %s", msg);
}

ssched_status_t ssched_i_chk_get_q(chk_t *c, json_t *obj, const char *key, const char *where, mpq_t out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return ssched_i_chk_bad(c, "%s: missing exact string field \"%s\"", where, key);
    /* the common form "p" or "p/q" (digits only) straight into GMP */
    const char *t = json_string_value(v);
    size_t n = strspn(t, "0123456789");
    if (n > 0 && n < 64 && (t[n] == 0 || (t[n] == '/' && t[n + 1] != '0' &&
                                          strspn(t + n + 1, "0123456789") > 0 &&
                                          t[n + 1 + strspn(t + n + 1, "0123456789")] == 0)) &&
        strlen(t) < 128 && mpq_set_str(out, t, 10) == 0) {
        mpq_canonicalize(out);
        return SSCHED_OK;
    }
    ssched_error_t e;
    ssched_status_t st = ssched_rational_parse(out, json_string_value(v), &e);
    if (st == SSCHED_ENOMEM) /* not a property of the file */
        return ssched_error_set(c->err, st, "%s", e.message);
    if (st != SSCHED_OK)
        return ssched_i_chk_bad(c, "%s: field \"%s\": %s", where, key, e.message);
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_get_node(chk_t *c, json_t *obj, const char *key, const char *where,
                             size_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return ssched_i_chk_bad(c, "%s: missing node field \"%s\"", where, key);
    const char *name = json_string_value(v);
    if (c->by_name) {
        size_t lo = 0, hi = c->n_nodes;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int r = strcmp(c->names[c->by_name[mid]], name);
            if (r == 0) {
                *out = c->by_name[mid];
                return SSCHED_OK;
            }
            if (r < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        return ssched_i_chk_bad(c, "%s: unknown node '%s'", where, name);
    }
    for (size_t i = 0; i < c->n_nodes; i++)
        if (!strcmp(c->names[i], name)) {
            *out = i;
            return SSCHED_OK;
        }
    return ssched_i_chk_bad(c, "%s: unknown node '%s'", where, name);
}

static const chk_t *sort_ctx;
static int by_name_cmp(const void *a, const void *b)
{
    return strcmp(sort_ctx->names[*(const size_t *)a], sort_ctx->names[*(const size_t *)b]);
}

void ssched_i_chk_index(chk_t *c)
{
    size_t nn = c->n_nodes;
    if (c->by_name || nn == 0 || nn > 4096)
        return;
    c->by_name = malloc(nn * sizeof *c->by_name);
    c->edge_at = malloc(nn * nn * sizeof *c->edge_at);
    c->type_at = c->reduce ? NULL : malloc(nn * nn * sizeof *c->type_at);
    if (!c->by_name || !c->edge_at || (!c->reduce && !c->type_at)) {
        free(c->by_name);
        free(c->edge_at);
        free(c->type_at);
        c->by_name = c->edge_at = c->type_at = NULL;
        return;
    }
    for (size_t i = 0; i < nn; i++)
        c->by_name[i] = i;
    sort_ctx = c;
    qsort(c->by_name, nn, sizeof *c->by_name, by_name_cmp);
    for (size_t k = 0; k < nn * nn; k++)
        c->edge_at[k] = (size_t)-1;
    for (size_t e = c->n_edges; e-- > 0;) /* the first edge wins, as the scan */
        c->edge_at[c->from[e] * nn + c->to[e]] = e;
    if (c->type_at) {
        for (size_t k = 0; k < nn * nn; k++)
            c->type_at[k] = (size_t)-1;
        for (size_t t = c->n_types; t-- > 0;)
            c->type_at[c->type_origin[t] * nn + c->type_dest[t]] = t;
    }
}

ssched_status_t ssched_i_chk_keys(chk_t *c, json_t *obj, const char *where, const char *const *allowed)
{
    if (!json_is_object(obj))
        return ssched_i_chk_bad(c, "%s: must be an object", where);
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        size_t k = 0;
        while (allowed[k] && strcmp(allowed[k], key))
            k++;
        if (!allowed[k])
            return ssched_i_chk_bad(c, "%s: unknown key \"%s\"", where, key);
    }
    return SSCHED_OK;
}

size_t ssched_i_chk_edge(const chk_t *c, size_t from, size_t to)
{
    if (c->edge_at)
        return c->edge_at[from * c->n_nodes + to];
    for (size_t e = 0; e < c->n_edges; e++)
        if (c->from[e] == from && c->to[e] == to)
            return e;
    return (size_t)-1;
}

size_t ssched_i_chk_type(const chk_t *c, size_t origin, size_t dest)
{
    if (c->type_at)
        return c->type_at[origin * c->n_nodes + dest];
    for (size_t t = 0; t < c->n_types; t++)
        if (c->type_origin[t] == origin && c->type_dest[t] == dest)
            return t;
    return (size_t)-1;
}

/* strict (periodic files): every key must be one the format defines, and
 * a node states "w" explicitly (null when it only routes). */
static ssched_status_t read_platform(chk_t *c, json_t *root, int strict)
{
    static const char *const pl_keys[] = {"nodes", "edges", NULL};
    static const char *const node_keys[] = {"id", "w", "ports", NULL};
    static const char *const edge_keys[] = {"from", "to", "c", NULL};
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
    if (!c->from || !c->to || !c->cost)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    char where[64];
    for (size_t e = 0; e < m; e++) {
        json_t *o = json_array_get(edges, e);
        snprintf(where, sizeof where, "platform.edges[%zu]", e);
        mpq_init(c->cost[e]);
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
        if (ssched_i_chk_edge(c, c->from[e], c->to[e]) != e)
            return ssched_i_chk_bad(c, "%s: parallel edge", where);
    }
    return SSCHED_OK;
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

static ssched_status_t read_problem_nodes(chk_t *c, json_t *root, int strict);

/* A switch only forwards (issue 12): it is never a source, target or
 * participant, so the roles of the problem must all be one-port nodes. */
static ssched_status_t read_problem(chk_t *c, json_t *root, int strict)
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
    json_t *pb = json_object_get(root, "problem");
    const char *kind = json_string_value(json_object_get(pb, "kind"));
    if (!kind)
        return ssched_i_chk_bad(c, "missing problem.kind");
    if (strict) {
        const char *const *keys = !strcmp(kind, "scatter")  ? scatter_keys
                                  : !strcmp(kind, "gossip") ? gossip_keys
                                  : !strcmp(kind, "reduce") ? reduce_keys
                                  : !strcmp(kind, "allreduce") ? allreduce_keys
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
        if (st == SSCHED_OK && json_object_get(pb, "size"))
            st = ssched_i_chk_get_q(c, pb, "size", "problem", c->size);
        else if (st == SSCHED_OK)
            mpq_set_ui(c->size, 1, 1);
        if (st == SSCHED_OK && mpq_sgn(c->size) <= 0)
            st = ssched_i_chk_bad(c, "problem.size must be positive");
        /* types are the intervals [k,m], k-major */
        size_t nI = c->N * (c->N + 1) / 2;
        if (st == SSCHED_OK && !c->comm) {
            c->type_origin = malloc(nI * sizeof(size_t));
            c->type_dest = malloc(nI * sizeof(size_t));
            if (!c->type_origin || !c->type_dest)
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            for (size_t k = 0; k < c->N && st == SSCHED_OK; k++)
                for (size_t m = k; m < c->N; m++) {
                    c->type_origin[c->n_types] = k;
                    c->type_dest[c->n_types++] = m;
                }
        }
        return st;
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
    if (st == SSCHED_OK && json_object_get(pb, "size"))
        st = ssched_i_chk_get_q(c, pb, "size", "problem", c->size);
    else if (st == SSCHED_OK)
        mpq_set_ui(c->size, 1, 1);
    if (st == SSCHED_OK && mpq_sgn(c->size) <= 0)
        st = ssched_i_chk_bad(c, "problem.size must be positive");
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

size_t ssched_i_chk_interval(const chk_t *c, size_t k, size_t m)
{
    if (k > m || m >= c->N)
        return (size_t)-1;
    return ssched_interval_index(c->N, k, m);
}

int ssched_i_chk_int_array(json_t *a, size_t len, size_t *out)
{
    if (!json_is_array(a) || json_array_size(a) != len)
        return 0;
    for (size_t k = 0; k < len; k++) {
        json_t *v = json_array_get(a, k);
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return 0;
        out[k] = (size_t)json_integer_value(v);
    }
    return 1;
}

/* The (edge, type) of a transfer object; SSCHED_EINPUT if malformed. */
ssched_status_t ssched_i_chk_transfer(chk_t *c, json_t *x, const char *where, size_t *edge,
                             size_t *type)
{
    size_t from, to, origin, dest;
    ssched_status_t st;
    if ((st = ssched_i_chk_get_node(c, x, "from", where, &from)) != SSCHED_OK ||
        (st = ssched_i_chk_get_node(c, x, "to", where, &to)) != SSCHED_OK)
        return st;
    *edge = ssched_i_chk_edge(c, from, to);
    if (*edge == (size_t)-1)
        return ssched_i_chk_bad(c, "%s: no platform edge %s->%s", where, c->names[from], c->names[to]);
    if (c->bcast) { /* the one message of the broadcast */
        *type = 0;
        return SSCHED_OK;
    }
    if (c->allreduce && json_object_get(x, "copy")) { /* the broadcast of the result */
        if (!json_is_true(json_object_get(x, "copy")))
            return ssched_i_chk_bad(c, "%s: \"copy\" must be true", where);
        *type = CHK_COPY;
        return SSCHED_OK;
    }
    if (c->reduce && c->comm) {
        json_t *set = json_object_get(x, "set");
        if (!set)
            return ssched_i_chk_bad(c, "%s: missing \"set\": [participant indices]", where);
        return ssched_i_chk_read_set(c, set, where, type);
    }
    if (c->reduce) {
        size_t km[2];
        if (!ssched_i_chk_int_array(json_object_get(x, "interval"), 2, km))
            return ssched_i_chk_bad(c, "%s: missing \"interval\": [k, m]", where);
        *type = ssched_i_chk_interval(c, km[0], km[1]);
        if (*type == (size_t)-1)
            return ssched_i_chk_bad(c, "%s: interval [%zu,%zu] is not within the participants", where,
                           km[0], km[1]);
        return SSCHED_OK;
    }
    if ((st = ssched_i_chk_get_node(c, x, "origin", where, &origin)) != SSCHED_OK ||
        (st = ssched_i_chk_get_node(c, x, "dest", where, &dest)) != SSCHED_OK)
        return st;
    *type = ssched_i_chk_type(c, origin, dest);
    if (*type == (size_t)-1)
        return ssched_i_chk_bad(c, "%s: %s->%s is not a message type of the problem", where,
                       c->names[origin], c->names[dest]);
    return SSCHED_OK;
}

/* Unrolled files are read as a stream (check_stream.c): a header object,
 * then the event arrays one element at a time. */
static ssched_status_t check_unrolled_text(json_t *root, const chk_extent_t *tr,
                                           const chk_extent_t *co, ssched_check_report_t *report,
                                           ssched_error_t *err)
{
    chk_t c;
    ssched_i_chk_init(&c);
    c.report = report;
    c.err = err;
    const char *format = json_string_value(json_object_get(root, "format"));
    int strict = !strcmp(format, "ssched-unrolled/2");
    report->unrolled = 1;
    ssched_status_t st;
    if ((st = read_platform(&c, root, strict)) == SSCHED_OK &&
        (st = read_problem(&c, root, strict)) == SSCHED_OK &&
        (st = ssched_i_chk_get_q(&c, root, "throughput", "schedule", c.throughput)) == SSCHED_OK) {
        ssched_i_chk_index(&c);
        if (!tr->present)
            st = ssched_i_chk_bad(&c, "missing \"transfers\" array");
        else if (c.bcast)
            st = co->present ? ssched_i_chk_bad(&c, "\"computations\" in a broadcast schedule")
                             : ssched_i_chk_unrolled_broadcast(&c, root, tr);
        else if (c.reduce)
            st = co->present ? ssched_i_chk_unrolled_reduce(&c, root, tr, co)
                             : ssched_i_chk_bad(&c, "missing \"computations\" array");
        else if (co->present)
            st = ssched_i_chk_bad(&c, "\"computations\" in a scatter or gossip schedule");
        else
            st = ssched_i_chk_unrolled(&c, root, tr);
    }
    ssched_i_chk_free(&c);
    return st;
}

ssched_status_t ssched_check_schedule_text(const char *text, ssched_check_report_t *report,
                                           ssched_error_t *err)
{
    return ssched_check_schedule_buffer(text, strlen(text), report, err);
}

ssched_status_t ssched_check_schedule_buffer(const char *text, size_t len,
                                             ssched_check_report_t *report, ssched_error_t *err)
{
    return ssched_i_chk_check_buffer(text, len, 0, report, err);
}

ssched_status_t ssched_i_chk_check_buffer(const char *text, size_t len, int mapped,
                                 ssched_check_report_t *report, ssched_error_t *err)
{
    memset(report, 0, sizeof *report);
    report->valid = 1;
    size_t nul = ssched_i_chk_find_nul(text, len, mapped);
    if (nul != SIZE_MAX)
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: NUL byte at offset %zu", nul);
    {
        /* unrolled files are never loaded whole: split the top level first */
        json_t *top;
        chk_extent_t tr, co;
        if (ssched_i_chk_split_top(text, len, mapped, &top, &tr, &co, NULL) == SSCHED_OK) {
            const char *f = json_string_value(json_object_get(top, "format"));
            ssched_status_t st = SSCHED_OK;
            int unrolled = f && (!strcmp(f, "ssched-unrolled/1") || !strcmp(f, "ssched-unrolled/2"));
            if (unrolled)
                st = check_unrolled_text(top, &tr, &co, report, err);
            json_decref(top);
            if (unrolled)
                return st;
        }
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    if (!root)
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: invalid JSON at line %d: %s",
                                jerr.line, jerr.text);
    chk_t c;
    ssched_i_chk_init(&c);
    c.report = report;
    c.err = err;
    ssched_status_t st;
    const char *format = json_string_value(json_object_get(root, "format"));
    /* strict reading (every key interpreted, no duplicates) for the
     * current formats; "ssched-unrolled/1" files predate it */
    int periodic = format && (!strcmp(format, "ssched-schedule/1") ||
                              !strcmp(format, "ssched-unrolled/2"));
    if (periodic) {
        /* a key given twice would let a file show one value and be read
         * with the other: refused, like every field the checker cannot
         * interpret */
        json_t *strict = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
        if (!strict) {
            ssched_i_chk_free(&c);
            json_decref(root);
            return ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %d: %s", jerr.line,
                                    jerr.text);
        }
        json_decref(strict);
    }
    if (!format)
        st = ssched_i_chk_bad(&c, "missing \"format\"");
    else if (strcmp(format, "ssched-schedule/1") && strcmp(format, "ssched-unrolled/1") &&
             strcmp(format, "ssched-unrolled/2"))
        st = ssched_i_chk_bad(&c, "unknown format '%s'", format);
    else if ((st = read_platform(&c, root, periodic)) == SSCHED_OK &&
             (st = read_problem(&c, root, periodic)) == SSCHED_OK &&
             (st = ssched_i_chk_get_q(&c, root, "throughput", "schedule", c.throughput)) == SSCHED_OK) {
        if (!strcmp(format, "ssched-schedule/1")) {
            st = c.allreduce ? ssched_i_chk_allreduce(&c, root)
                 : c.bcast   ? ssched_i_chk_broadcast(&c, root)
                             : ssched_i_chk_periodic(&c, root);
        } else {
            /* an unrolled format the stream reader did not take: malformed */
            st = ssched_i_chk_bad(&c, "unrolled file that is not a well-formed JSON object");
        }
    }
    ssched_i_chk_free(&c);
    json_decref(root);
    return st;
}
