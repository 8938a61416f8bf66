/* Read an "ssched-unrolled/2" file back into memory (ssched_unrolled_t),
 * with its platform and problem (schedule.h: ssched_unrolled_read_file).
 *
 * The file is loaded whole with jansson: the reader serves programs that
 * run the schedule (the MPI executor), which need every event anyway.  The
 * check of the schedule's validity is ssched_check_schedule_file's job;
 * this reader only insists on a well-formed file and names the first
 * field that is not (one line, EINPUT).  Message types get the canonical
 * numbering of the steady-state model (steady.h), so events read back
 * compare equal to the ones unrolled in memory; a commutative reduce's
 * sets are numbered as met, in u->sets. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/schedule.h"

typedef struct {
    const char *path;
    ssched_error_t *err;
    ssched_platform_t *p;
    ssched_problem_t *pb;
    size_t N;                  /* reduce: participants                     */
    size_t *type_of;           /* scatter, gossip: origin * n + dest -> type */
    ssched_sets_t *sets;       /* commutative reduce: the sets, numbered
                                  as met (u->sets)                         */
    uint64_t *scratch;         /* sets->words words                        */
} reader_t;

static ssched_status_t bad(reader_t *r, const char *fmt, const char *what)
{
    char line[SSCHED_ERROR_MSG_MAX / 2];
    snprintf(line, sizeof line, fmt, what);
    return ssched_error_set(r->err, SSCHED_EINPUT, "%s: %s", r->path, line);
}

/* A rational given as "p/q", "p" or a JSON integer; 1 if well formed. */
static int get_q(json_t *v, mpq_t out)
{
    if (json_is_integer(v)) {
        mpq_set_si(out, (long)json_integer_value(v), 1);
        return 1;
    }
    const char *s = json_string_value(v);
    if (!s || !*s || strspn(s, "-0123456789/") != strlen(s) || mpq_set_str(out, s, 10) != 0 ||
        mpz_sgn(mpq_denref(out)) == 0)
        return 0;
    mpq_canonicalize(out);
    return 1;
}

static ssched_status_t node_of(reader_t *r, json_t *v, const char *where, size_t *out)
{
    const char *s = json_string_value(v);
    ssched_error_t e;
    if (!s || ssched_platform_find_node(r->p, s, out, &e) != SSCHED_OK)
        return bad(r, "%s does not name a node of the platform", where);
    return SSCHED_OK;
}

/* A routed platform (docs/model.md, routed schedules): "model": "routed", "hosts" and the
 * "links" resources; made routed before the first edge. */
static ssched_status_t read_links(reader_t *r, json_t *pl)
{
    json_t *model = json_object_get(pl, "model"), *links = json_object_get(pl, "links");
    const char *hosts = json_string_value(json_object_get(pl, "hosts"));
    if (!model)
        return links || hosts ? bad(r, "%s: \"links\" and \"hosts\" need \"model\": \"routed\"",
                                    "\"platform\"")
                              : SSCHED_OK;
    if (!json_is_string(model) || strcmp(json_string_value(model), "routed"))
        return bad(r, "%s: \"model\" must be \"routed\"", "\"platform\"");
    if (!json_is_array(links) || json_array_size(links) == 0 || !hosts ||
        (strcmp(hosts, "one-port") && strcmp(hosts, "multi-port")))
        return bad(r, "%s: a routed platform needs a non-empty \"links\" array and \"hosts\" "
                   "\"one-port\" or \"multi-port\"", "\"platform\"");
    if (ssched_platform_make_routed(r->p, r->err) != SSCHED_OK)
        return r->err->status;
    r->p->routes->hosts_one_port = !strcmp(hosts, "one-port");
    mpq_t c, l;
    mpq_inits(c, l, NULL);
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < json_array_size(links) && st == SSCHED_OK; k++) {
        json_t *x = json_array_get(links, k);
        const char *name = json_string_value(json_object_get(x, "name"));
        const char *sh = json_string_value(json_object_get(x, "sharing"));
        size_t index;
        if (!name || !sh || (strcmp(sh, "shared") && strcmp(sh, "fatpipe")) ||
            !get_q(json_object_get(x, "c"), c) || !get_q(json_object_get(x, "latency"), l))
            st = bad(r, "platform link %s: needs a string \"name\", rationals \"c\" and "
                     "\"latency\", \"sharing\" \"shared\" or \"fatpipe\"", name ? name : "(no name)");
        else if (ssched_platform_add_link(r->p, name, c, l,
                                          strcmp(sh, "fatpipe") ? SSCHED_LINK_SHARED
                                                                : SSCHED_LINK_FATPIPE,
                                          &index, r->err) != SSCHED_OK)
            st = (ssched_error_prefix(r->err, "%s: ", r->path), r->err->status);
    }
    mpq_clears(c, l, NULL);
    return st;
}

/* Edge x of a routed platform: its route, then "c" and "l" as the route
 * gives them (the file's own numbers must agree). */
static ssched_status_t read_routed_edge(reader_t *r, json_t *x, size_t a, size_t b, mpq_t q)
{
    json_t *route = json_object_get(x, "route");
    size_t n = json_array_size(route), nl = r->p->routes->n_links;
    if (!json_is_array(route) || n == 0 || n > nl)
        return bad(r, "platform edge from %s: a routed edge needs a non-empty \"route\"",
                   r->p->names[a]);
    size_t *links = ssched_i_alloc(n, sizeof *links);
    if (!links)
        return ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
        json_t *v = json_array_get(route, k);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (size_t)json_integer_value(v) >= nl)
            st = bad(r, "platform edge from %s: \"route\" holds link indices", r->p->names[a]);
        else
            links[k] = (size_t)json_integer_value(v);
    }
    if (st == SSCHED_OK &&
        ssched_platform_add_routed_edge(r->p, a, b, links, n, r->err) != SSCHED_OK)
        st = (ssched_error_prefix(r->err, "%s: ", r->path), r->err->status);
    free(links);
    size_t e = r->p->n_edges - 1;
    json_t *l = json_object_get(x, "l");
    if (st == SSCHED_OK && (!get_q(json_object_get(x, "c"), q) || mpq_cmp(q, r->p->c[e])))
        st = bad(r, "platform edge from %s: \"c\" is not its route's largest link c",
                 r->p->names[a]);
    if (st == SSCHED_OK && l && !get_q(l, q))
        st = bad(r, "platform edge from %s: \"l\" must be a rational", r->p->names[a]);
    else if (st == SSCHED_OK && !l)
        mpq_set_ui(q, 0, 1);
    if (st == SSCHED_OK && mpq_cmp(q, r->p->l[e]))
        st = bad(r, "platform edge from %s: \"l\" is not the sum of its route's latencies",
                 r->p->names[a]);
    return st;
}

static ssched_status_t read_platform(reader_t *r, json_t *pl)
{
    json_t *nodes = json_object_get(pl, "nodes"), *edges = json_object_get(pl, "edges");
    if (!json_is_array(nodes) || !json_is_array(edges))
        return bad(r, "%s needs \"nodes\" and \"edges\" arrays", "\"platform\"");
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < json_array_size(nodes) && st == SSCHED_OK; i++) {
        json_t *n = json_array_get(nodes, i), *w = json_object_get(n, "w");
        const char *id = json_string_value(json_object_get(n, "id"));
        const char *ports = json_string_value(json_object_get(n, "ports"));
        size_t index;
        if (!id || (w && !json_is_null(w) && !get_q(w, q)))
            st = bad(r, "platform node %s: needs a string \"id\" and \"w\" null or a rational",
                     id ? id : "(no id)");
        else if (ssched_platform_add_node(r->p, id, w && !json_is_null(w) ? q : NULL, &index,
                                          r->err) != SSCHED_OK)
            st = (ssched_error_prefix(r->err, "%s: ", r->path), r->err->status);
        else if (ports && !strcmp(ports, "multi"))
            r->p->multiport[index] = 1;
    }
    if (st == SSCHED_OK)
        st = read_links(r, pl);
    for (size_t e = 0; e < json_array_size(edges) && st == SSCHED_OK; e++) {
        json_t *x = json_array_get(edges, e);
        size_t a, b;
        if ((st = node_of(r, json_object_get(x, "from"), "a platform edge's \"from\"", &a)) ||
            (st = node_of(r, json_object_get(x, "to"), "a platform edge's \"to\"", &b)))
            break;
        if (r->p->routes) {
            st = read_routed_edge(r, x, a, b, q);
            continue;
        }
        json_t *l = json_object_get(x, "l");
        if (!get_q(json_object_get(x, "c"), q))
            st = bad(r, "platform edge from %s: \"c\" must be a rational", r->p->names[a]);
        else if (ssched_platform_add_edge(r->p, a, b, q, r->err) != SSCHED_OK)
            st = (ssched_error_prefix(r->err, "%s: ", r->path), r->err->status);
        else if (l && !get_q(l, q))
            st = bad(r, "platform edge from %s: \"l\" must be a rational", r->p->names[a]);
        else if (l && ssched_platform_set_latency(r->p, r->p->n_edges - 1, q, r->err) != SSCHED_OK)
            st = (ssched_error_prefix(r->err, "%s: ", r->path), r->err->status);
    }
    mpq_clear(q);
    if (st == SSCHED_OK && ssched_platform_finalize(r->p, r->err) != SSCHED_OK)
        st = r->err->status;
    return st;
}

/* A list of node names into a malloc'ed index array. */
static ssched_status_t node_list(reader_t *r, json_t *a, const char *key, size_t **out, size_t *n)
{
    if (!json_is_array(a) || json_array_size(a) == 0)
        return bad(r, "problem: \"%s\" must be a non-empty array of node names", key);
    *n = json_array_size(a);
    if (!(*out = malloc(*n * sizeof **out)))
        return ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < *n; k++)
        if (node_of(r, json_array_get(a, k), "a node of the problem", &(*out)[k]) != SSCHED_OK)
            return r->err->status;
    return SSCHED_OK;
}

static ssched_status_t read_problem(reader_t *r, json_t *o)
{
    const char *kind = json_string_value(json_object_get(o, "kind"));
    ssched_problem_t *pb = r->pb;
    ssched_status_t st;
    if (!kind)
        return bad(r, "%s needs a string \"kind\"", "\"problem\"");
    if (!get_q(json_object_get(o, "size"), pb->size))
        return bad(r, "problem: %s must be a rational", "\"size\"");
    if (!strcmp(kind, "scatter")) {
        pb->kind = SSCHED_PROBLEM_SCATTER;
        json_t *one = json_array();
        json_array_append(one, json_object_get(o, "source"));
        st = node_list(r, one, "source", &pb->sources, &pb->n_sources);
        json_decref(one);
        if (st == SSCHED_OK)
            st = node_list(r, json_object_get(o, "targets"), "targets", &pb->targets, &pb->n_targets);
    } else if (!strcmp(kind, "gossip")) {
        pb->kind = SSCHED_PROBLEM_GOSSIP;
        if ((st = node_list(r, json_object_get(o, "sources"), "sources", &pb->sources,
                            &pb->n_sources)) == SSCHED_OK)
            st = node_list(r, json_object_get(o, "targets"), "targets", &pb->targets, &pb->n_targets);
    } else if (!strcmp(kind, "reduce") || !strcmp(kind, "allreduce")) {
        /* an all-reduce names the root its events reduce to */
        int all = !strcmp(kind, "allreduce");
        pb->kind = all ? SSCHED_PROBLEM_ALLREDUCE : SSCHED_PROBLEM_REDUCE;
        json_t *comm = json_object_get(o, "commutative");
        if (comm && !json_is_boolean(comm))
            return bad(r, "problem: %s must be true or false", "\"commutative\"");
        pb->commutative = json_is_true(comm);
        if ((st = node_list(r, json_object_get(o, "participants"), "participants",
                            &pb->participants, &pb->n_participants)) == SSCHED_OK)
            st = node_of(r, json_object_get(o, all ? "root" : "target"),
                         all ? "problem \"root\"" : "problem \"target\"", &pb->target);
    } else if (!strcmp(kind, "scan")) {
        /* intervals as a reduce's; participant j ends with its prefix */
        pb->kind = SSCHED_PROBLEM_SCAN;
        json_t *ex = json_object_get(o, "exclusive");
        if (ex && !json_is_boolean(ex))
            return bad(r, "problem: %s must be true or false", "\"exclusive\"");
        pb->exclusive = json_is_true(ex);
        st = node_list(r, json_object_get(o, "participants"), "participants", &pb->participants,
                       &pb->n_participants);
    } else if (!strcmp(kind, "broadcast")) {
        /* whole messages from one source: every transfer is type 0 */
        pb->kind = SSCHED_PROBLEM_BROADCAST;
        json_t *one = json_array();
        json_array_append(one, json_object_get(o, "source"));
        st = node_list(r, one, "source", &pb->sources, &pb->n_sources);
        json_decref(one);
        if (st == SSCHED_OK)
            st = node_list(r, json_object_get(o, "targets"), "targets", &pb->targets, &pb->n_targets);
    } else {
        return bad(r, "problem: unknown kind '%s'", kind);
    }
    if (st == SSCHED_OK && ssched_problem_validate(pb, r->p, r->err) != SSCHED_OK) {
        ssched_error_prefix(r->err, "%s: ", r->path);
        st = r->err->status;
    }
    return st;
}

/* The canonical message types: (source, target) pairs in problem order
 * without source == target (scatter, gossip); intervals [k, m], k <= m, in
 * row order (reduce).  type_of maps back to them. */
static ssched_status_t index_types(reader_t *r)
{
    size_t n = r->p->n_nodes;
    if (r->pb->kind == SSCHED_PROBLEM_REDUCE || r->pb->kind == SSCHED_PROBLEM_ALLREDUCE ||
        r->pb->kind == SSCHED_PROBLEM_SCAN) {
        r->N = r->pb->n_participants;
        if (r->pb->commutative) { /* sets: numbered as they are met */
            ssched_sets_init(r->sets, r->N);
            if (!(r->scratch = calloc(r->sets->words, sizeof *r->scratch)))
                return ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory");
        }
        return SSCHED_OK;
    }
    if (r->pb->kind == SSCHED_PROBLEM_BROADCAST)
        return SSCHED_OK; /* one message type */
    if (!(r->type_of = ssched_i_alloc(n * n, sizeof *r->type_of)))
        return ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < n * n; k++)
        r->type_of[k] = (size_t)-1;
    size_t t = 0;
    for (size_t a = 0; a < r->pb->n_sources; a++)
        for (size_t b = 0; b < r->pb->n_targets; b++)
            if (r->pb->sources[a] != r->pb->targets[b])
                r->type_of[r->pb->sources[a] * n + r->pb->targets[b]] = t++;
    return SSCHED_OK;
}

static ssched_status_t get_interval(reader_t *r, json_t *a, size_t *type, const char *where)
{
    json_int_t k = json_integer_value(json_array_get(a, 0));
    json_int_t m = json_integer_value(json_array_get(a, 1));
    if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_integer(json_array_get(a, 0)) ||
        !json_is_integer(json_array_get(a, 1)) || k < 0 || k > m || (size_t)m >= r->N)
        return bad(r, "%s: \"interval\" must be [k, m] with 0 <= k <= m < participants", where);
    /* row order: rows 0..k-1 hold N, N-1, ..., N-k+1 intervals */
    size_t K = (size_t)k, N = r->N;
    *type = K * N - K * (K - 1) / 2 + ((size_t)m - K);
    return SSCHED_OK;
}

/* Commutative reduce: a set [i, j, ...] (increasing participant indices)
 * into *type; or (union) OR it into scratch only. */
static ssched_status_t get_set(reader_t *r, json_t *a, size_t *type, int union_only,
                               const char *where)
{
    if (!union_only)
        memset(r->scratch, 0, r->sets->words * sizeof *r->scratch);
    for (size_t k = 0; k < json_array_size(a); k++) {
        json_t *v = json_array_get(a, k);
        json_int_t j = json_is_integer(v) ? json_integer_value(v) : -1;
        if (j < 0 || (size_t)j >= r->N ||
            (k > 0 && j <= json_integer_value(json_array_get(a, k - 1))))
            return bad(r, "%s: a set must list participant indices in increasing order", where);
        r->scratch[j / 64] |= (uint64_t)1 << (j % 64);
    }
    if (!json_is_array(a) || json_array_size(a) == 0)
        return bad(r, "%s: a set must be a non-empty array", where);
    if (union_only)
        return SSCHED_OK;
    *type = ssched_sets_intern(r->sets, r->scratch);
    return *type == SIZE_MAX ? ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory") : SSCHED_OK;
}

static ssched_status_t read_transfer(reader_t *r, json_t *x, size_t index,
                                     ssched_timed_transfer_t *t)
{
    char where[64];
    snprintf(where, sizeof where, "transfers[%zu]", index);
    size_t a, b, e;
    json_int_t op = json_integer_value(json_object_get(x, "op"));
    ssched_status_t st;
    if (!get_q(json_object_get(x, "start"), t->start) || !get_q(json_object_get(x, "end"), t->end))
        return bad(r, "%s: \"start\" and \"end\" must be rationals", where);
    if (!json_is_integer(json_object_get(x, "op")) || op < 0)
        return bad(r, "%s: \"op\" must be a non-negative integer", where);
    t->op = (unsigned long)op;
    /* a batch: operations op .. op+batch-1 in one message (absent: 1) */
    json_t *bj = json_object_get(x, "batch");
    if (bj && (!json_is_integer(bj) || json_integer_value(bj) < 1 ||
               (unsigned long long)json_integer_value(bj) > (unsigned long long)SIZE_MAX - t->op))
        return bad(r, "%s: \"batch\" must be a positive integer", where);
    t->batch = bj ? (size_t)json_integer_value(bj) : 1;
    if ((st = node_of(r, json_object_get(x, "from"), where, &a)) ||
        (st = node_of(r, json_object_get(x, "to"), where, &b)))
        return st;
    if ((e = ssched_platform_edge_index(r->p, a, b)) == (size_t)-1)
        return bad(r, "%s: no platform edge joins \"from\" to \"to\"", where);
    t->edge = e;
    if (r->pb->kind == SSCHED_PROBLEM_ALLREDUCE && json_object_get(x, "copy")) {
        /* a copy of the result, whole: its type is set once every set is
         * known (read_events) */
        if (!json_is_true(json_object_get(x, "copy")) || json_object_get(x, "interval") ||
            json_object_get(x, "set") || json_object_get(x, "piece"))
            return bad(r, "%s: a copy (\"copy\": true) moves the whole result and names no "
                          "interval, set or piece", where);
        t->type = SIZE_MAX;
    } else if (r->pb->kind != SSCHED_PROBLEM_BROADCAST && r->pb->commutative) {
        if ((st = get_set(r, json_object_get(x, "set"), &t->type, 0, where)))
            return st;
    } else if (r->pb->kind == SSCHED_PROBLEM_REDUCE ||
               r->pb->kind == SSCHED_PROBLEM_ALLREDUCE || r->pb->kind == SSCHED_PROBLEM_SCAN) {
        if ((st = get_interval(r, json_object_get(x, "interval"), &t->type, where)))
            return st;
    } else if (r->pb->kind == SSCHED_PROBLEM_BROADCAST) {
        /* the one whole message: nothing else names it */
        if (json_object_get(x, "origin") || json_object_get(x, "dest") ||
            json_object_get(x, "interval") || json_object_get(x, "piece"))
            return bad(r, "%s: a broadcast transfer moves the whole message and names no "
                          "origin, dest, interval or piece", where);
        t->type = 0;
    } else {
        size_t o, d;
        if ((st = node_of(r, json_object_get(x, "origin"), where, &o)) ||
            (st = node_of(r, json_object_get(x, "dest"), where, &d)))
            return st;
        if ((t->type = r->type_of[o * r->p->n_nodes + d]) == (size_t)-1)
            return bad(r, "%s: \"origin\" and \"dest\" are not a message of the problem", where);
    }
    json_t *piece = json_object_get(x, "piece");
    mpq_set_ui(t->piece_offset, 0, 1);
    mpq_set_ui(t->piece_length, 1, 1);
    if (piece && (!json_is_array(piece) || json_array_size(piece) != 2 ||
                  !get_q(json_array_get(piece, 0), t->piece_offset) ||
                  !get_q(json_array_get(piece, 1), t->piece_length)))
        return bad(r, "%s: \"piece\" must be [offset, length] (rationals)", where);
    return SSCHED_OK;
}

static ssched_status_t read_computation(reader_t *r, json_t *x, size_t index,
                                        ssched_timed_computation_t *c)
{
    char where[64];
    snprintf(where, sizeof where, "computations[%zu]", index);
    json_t *task = json_object_get(x, "task");
    json_int_t op = json_integer_value(json_object_get(x, "op"));
    json_int_t v[3];
    for (size_t k = 0; k < 3; k++)
        v[k] = json_is_integer(json_array_get(task, k)) ? json_integer_value(json_array_get(task, k))
                                                        : -1;
    if (!get_q(json_object_get(x, "start"), c->start) || !get_q(json_object_get(x, "end"), c->end))
        return bad(r, "%s: \"start\" and \"end\" must be rationals", where);
    if (!json_is_integer(json_object_get(x, "op")) || op < 0)
        return bad(r, "%s: \"op\" must be a non-negative integer", where);
    if (r->pb->commutative) { /* "merge": [[a], [b]]: k, l the inputs, m the union */
        json_t *m = json_object_get(x, "merge");
        size_t in[2];
        ssched_status_t st;
        if (json_array_size(m) != 2)
            return bad(r, "%s: \"merge\" must be [[set], [set]]", where);
        for (size_t k = 0; k < 2; k++)
            if ((st = get_set(r, json_array_get(m, k), &in[k], 0, where)))
                return st;
        memset(r->scratch, 0, r->sets->words * sizeof *r->scratch);
        if ((st = get_set(r, json_array_get(m, 0), NULL, 1, where)) ||
            (st = get_set(r, json_array_get(m, 1), NULL, 1, where)))
            return st;
        c->m = ssched_sets_intern(r->sets, r->scratch);
        if (c->m == SIZE_MAX)
            return ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory");
        c->op = (unsigned long)op;
        c->k = in[0] < in[1] ? in[0] : in[1];
        c->l = in[0] < in[1] ? in[1] : in[0];
        return node_of(r, json_object_get(x, "node"), where, &c->node);
    }
    if (json_array_size(task) != 3 || v[0] < 0 || v[0] > v[1] || v[1] >= v[2] ||
        (size_t)v[2] >= r->N)
        return bad(r, "%s: \"task\" must be [k, l, m] with k <= l < m < participants", where);
    c->op = (unsigned long)op;
    c->k = (size_t)v[0];
    c->l = (size_t)v[1];
    c->m = (size_t)v[2];
    return node_of(r, json_object_get(x, "node"), where, &c->node);
}

static ssched_status_t read_events(reader_t *r, json_t *root, ssched_unrolled_t *u)
{
    json_t *tr = json_object_get(root, "transfers"), *co = json_object_get(root, "computations");
    int reduce = r->pb->kind == SSCHED_PROBLEM_REDUCE || r->pb->kind == SSCHED_PROBLEM_ALLREDUCE ||
                 r->pb->kind == SSCHED_PROBLEM_SCAN;
    if (!json_is_array(tr) || (reduce && !json_is_array(co)))
        return bad(r, "%s", reduce ? "needs \"transfers\" and \"computations\" arrays"
                                   : "needs a \"transfers\" array");
    size_t nt = json_array_size(tr), nc = reduce ? json_array_size(co) : 0;
    u->transfers = ssched_i_alloc(nt, sizeof *u->transfers);
    u->computations = ssched_i_alloc(nc, sizeof *u->computations);
    if (!u->transfers || !u->computations)
        return ssched_error_set(r->err, SSCHED_ENOMEM, "out of memory");
    u->cap = nt;
    u->comp_cap = nc;
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < nt && st == SSCHED_OK; k++) {
        ssched_timed_transfer_t *t = &u->transfers[u->n_transfers++];
        mpq_inits(t->start, t->end, t->piece_offset, t->piece_length, NULL);
        t->batch = 1;
        st = read_transfer(r, json_array_get(tr, k), k, t);
        if (st == SSCHED_OK && (mpq_sgn(t->piece_offset) || mpq_cmp_ui(t->piece_length, 1, 1)))
            u->fig.pieces++;
    }
    for (size_t k = 0; k < nc && st == SSCHED_OK; k++) {
        ssched_timed_computation_t *c = &u->computations[u->n_computations++];
        mpq_inits(c->start, c->end, NULL);
        st = read_computation(r, json_array_get(co, k), k, c);
    }
    /* all-reduce: copies take the type after the reduce's (as
     * ssched_schedule_copy_type), the sets now all numbered */
    size_t copy = r->pb->commutative ? r->sets->n : r->N * (r->N + 1) / 2;
    for (size_t k = 0; k < u->n_transfers && st == SSCHED_OK; k++)
        if (u->transfers[k].type == SIZE_MAX)
            u->transfers[k].type = copy;
    u->fig.transfers = u->n_transfers;
    u->fig.computations = u->n_computations;
    return st;
}

/* The figures the file states (absent ones stay 0: older writers). */
static ssched_status_t read_figures(reader_t *r, json_t *root, ssched_unrolled_t *u)
{
    static const char *const keys[] = {"makespan", "throughput", "steady_time", "overhead",
                                       "lb1", "lower_bound", "ratio", "period",
                                       "pattern_throughput", "buffer_peak"};
    ssched_unroll_figures_t *f = &u->fig;
    mpq_ptr dst[] = {f->makespan, f->throughput, f->steady_time, f->overhead, f->lb1,
                     f->lower_bound, f->ratio, f->period, f->pattern_throughput, f->buffer_peak};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        json_t *v = json_object_get(root, keys[k]);
        if ((v || k == 0) && !get_q(v, dst[k]))
            return bad(r, "\"%s\" must be a rational", keys[k]);
    }
    /* the node holding buffer_peak (null or absent: none named) */
    json_t *bn = json_object_get(root, "buffer_node");
    f->buffer_node = SIZE_MAX;
    if (bn && !json_is_null(bn) &&
        node_of(r, bn, "\"buffer_node\"", &f->buffer_node) != SSCHED_OK)
        return r->err->status;
    const char *opp = json_string_value(json_object_get(root, "operations_per_period"));
    if (opp && mpz_set_str(f->ops_per_period, opp, 10) != 0)
        return bad(r, "%s must be an integer", "\"operations_per_period\"");
    f->operations = u->operations;
    mpq_set(u->makespan, f->makespan);
    mpq_set(u->steady_time, f->steady_time);
    mpq_set(u->overhead, f->overhead);
    return SSCHED_OK;
}

ssched_status_t ssched_unrolled_read_file(const char *path, ssched_platform_t *p,
                                          ssched_problem_t *pb, ssched_unrolled_t *u,
                                          ssched_error_t *err)
{
    reader_t r = {path, err, p, pb, 0, NULL, &u->sets, NULL};
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return je.line > 0 ? ssched_error_set(err, SSCHED_EINPUT, "%s:%d: %s", path, je.line, je.text)
                           : ssched_error_set(err, SSCHED_EINPUT, "%s: %s", path, je.text);
    const char *format = json_string_value(json_object_get(root, "format"));
    json_t *K = json_object_get(root, "operations");
    ssched_status_t st;
    if (!format || strcmp(format, "ssched-unrolled/2"))
        st = bad(&r, "%s is not \"ssched-unrolled/2\"", "\"format\"");
    else if (!json_is_integer(K) || json_integer_value(K) < 1)
        st = bad(&r, "%s must be a positive integer", "\"operations\"");
    else if ((st = read_platform(&r, json_object_get(root, "platform"))) == SSCHED_OK &&
             (st = read_problem(&r, json_object_get(root, "problem"))) == SSCHED_OK &&
             (st = index_types(&r)) == SSCHED_OK) {
        u->operations = (unsigned long)json_integer_value(K);
        if ((st = read_events(&r, root, u)) == SSCHED_OK)
            st = read_figures(&r, root, u);
    }
    free(r.type_of);
    free(r.scratch);
    json_decref(root);
    return st;
}
