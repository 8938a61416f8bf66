/* Checker: the throughput a file claims, against its problem solved again.
 *
 * A schedule file holds its platform and its problem, so nothing it claims
 * about the throughput has to be taken on trust: the problem is solved
 * again here exactly as `solve` and `schedule` solve it (the library's
 * solver with default options: column generation, certified exactly), and
 * the claims are compared with the result.  The checker's other parts share
 * no code with the builders; this one deliberately shares the solver, whose
 * results carry their own exact certificates (steady.h).
 *
 * What is recomputable (schedule.h: ssched_check_options_t):
 *  - scatter, gossip, ordered reduce, broadcast to every other node: the
 *    certified optimum TP*, unique (an LP optimum), whatever the method;
 *  - multicast, commutative reduce, all-reduce: column generation gives an
 *    achievable TP (a certified feasible packing) and a certified upper
 *    bound.  Neither is a property of the instance alone: both depend on
 *    the columns the pricing found, but the solve is deterministic (no
 *    timing decides anything), so solving again gives the same pair.  An
 *    unrolled file states no structure that reaches its "throughput" (its
 *    pattern may be slower) and derives its lower bound K / throughput
 *    from it, so that number must be the achievable TP solved again; a
 *    periodic file's throughput is reached by its own slots, trees and
 *    arborescences (checked before this), so it need only stay below the
 *    bound, while "upper_bound" and "optimal" are claims about the solve
 *    and must be what it gives.
 * The work is bounded: message types x edges (x candidate roots for a
 * best-root all-reduce) above the limit is refused (SSCHED_ELIMIT), never
 * accepted unverified. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"
#include "ssched/steady.h"

typedef struct {
    mpq_t tp, ub;   /* the solve's TP (optimum or achievable) and its bound */
    int exact;      /* tp is the unique certified optimum                   */
    int optimal;    /* the solve proved tp optimal                          */
} ref_t;

/* The file's platform as the library's (from the checker's own reading). */
static ssched_status_t make_platform(chk_t *c, ssched_platform_t *p)
{
    ssched_error_t e;
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < c->n_nodes && st == SSCHED_OK; i++) {
        size_t index;
        /* a switch never computes (the checker refuses its computations),
         * so a w the file gives it changes nothing: the library refuses it */
        int w = c->has_w[i] && !chk_multi(c, i);
        st = ssched_platform_add_node(p, c->names[i], w ? c->w[i] : NULL, &index, &e);
        if (st == SSCHED_OK && chk_multi(c, i))
            p->multiport[index] = 1;
    }
    /* a routed file: its links and routes, from which the library derives
     * c(e) and l(e) again (the checker verified the file states those) */
    if (st == SSCHED_OK && c->routed)
        st = ssched_platform_make_routed(p, &e);
    for (size_t k = 0; k < c->n_links && st == SSCHED_OK; k++)
        st = ssched_platform_add_link(p, c->link_names[k], c->link_c[k], c->link_lat[k],
                                      c->fatpipe[k] ? SSCHED_LINK_FATPIPE : SSCHED_LINK_SHARED,
                                      NULL, &e);
    if (st == SSCHED_OK && c->routed)
        p->routes->hosts_one_port = c->hosts_one_port;
    for (size_t k = 0; k < c->n_edges && st == SSCHED_OK; k++) {
        if (c->routed)
            st = ssched_platform_add_routed_edge(p, c->from[k], c->to[k],
                                                 c->route_links + c->route_start[k],
                                                 c->route_start[k + 1] - c->route_start[k], &e);
        else
            st = ssched_platform_add_edge(p, c->from[k], c->to[k], c->cost[k], &e);
    }
    if (st == SSCHED_OK)
        st = ssched_platform_finalize(p, &e);
    if (st == SSCHED_ENOMEM)
        return ssched_error_set(c->err, st, "out of memory");
    if (st != SSCHED_OK)
        return ssched_i_chk_bad(c, "the platform cannot be solved on: %s", e.message);
    return SSCHED_OK;
}

/* A node list of the problem object (already read by the checker). */
static ssched_status_t node_list(chk_t *c, json_t *pb, const char *key, size_t **out, size_t *n)
{
    json_t *a = json_object_get(pb, key);
    if (json_is_string(a)) { /* a scatter's or broadcast's one "source" */
        json_t *one = json_pack("[O]", a);
        ssched_status_t st = one ? node_list(c, one, NULL, out, n)
                                 : ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        json_decref(one);
        return st;
    }
    if (key == NULL)
        a = pb;
    *n = json_array_size(a);
    *out = ssched_i_alloc(*n ? *n : 1, sizeof **out);
    if (!*out)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < *n; k++) {
        json_t *wrap = json_pack("{sO}", "n", json_array_get(a, k));
        ssched_status_t st = wrap ? ssched_i_chk_get_node(c, wrap, "n", "problem", &(*out)[k])
                                  : ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        json_decref(wrap);
        if (st != SSCHED_OK)
            return st;
    }
    return SSCHED_OK;
}

/* The file's problem as the library's.  An all-reduce whose problem leaves
 * the root open (null) was solved for the best root: so again. */
static ssched_status_t make_problem(chk_t *c, json_t *root, ssched_problem_t *pb)
{
    json_t *o = json_object_get(root, "problem");
    mpq_set(pb->size, c->size);
    ssched_status_t st = SSCHED_OK;
    if (c->bcast) {
        pb->kind = SSCHED_PROBLEM_BROADCAST;
        st = node_list(c, o, "source", &pb->sources, &pb->n_sources);
        if (st == SSCHED_OK)
            st = node_list(c, o, "targets", &pb->targets, &pb->n_targets);
    } else if (c->scan) {
        pb->kind = SSCHED_PROBLEM_SCAN;
        pb->exclusive = c->exclusive;
        st = node_list(c, o, "participants", &pb->participants, &pb->n_participants);
    } else if (c->reduce) {
        pb->kind = c->allreduce ? SSCHED_PROBLEM_ALLREDUCE : SSCHED_PROBLEM_REDUCE;
        pb->commutative = c->comm;
        st = node_list(c, o, "participants", &pb->participants, &pb->n_participants);
        json_t *r = json_object_get(o, "root");
        pb->target = c->allreduce && (!r || json_is_null(r)) ? SIZE_MAX : c->target;
    } else {
        const char *kind = json_string_value(json_object_get(o, "kind"));
        int scatter = kind && !strcmp(kind, "scatter");
        pb->kind = scatter ? SSCHED_PROBLEM_SCATTER : SSCHED_PROBLEM_GOSSIP;
        st = node_list(c, o, scatter ? "source" : "sources", &pb->sources, &pb->n_sources);
        if (st == SSCHED_OK)
            st = node_list(c, o, "targets", &pb->targets, &pb->n_targets);
    }
    return st;
}

/* The size of the solve (message types x edges; a best-root all-reduce
 * solves once per candidate root), saturating. */
static size_t solve_size(const chk_t *c, const ssched_problem_t *pb)
{
    size_t types = c->n_types; /* scatter, gossip: the pairs */
    if (c->bcast)
        types = c->N;
    else if (c->reduce) /* intervals, or sets counted as participants */
        types = (c->comm ? c->N : c->N * (c->N + 1) / 2) + (c->allreduce ? c->N : 0);
    size_t roots = 1;
    if (pb->kind == SSCHED_PROBLEM_ALLREDUCE && pb->target == SIZE_MAX)
        for (size_t i = roots = 0; i < c->n_nodes; i++)
            roots += !chk_multi(c, i);
    size_t e = c->n_edges ? c->n_edges : 1;
    if (types > SIZE_MAX / e || types * e > SIZE_MAX / (roots ? roots : 1))
        return SIZE_MAX;
    return types * e * (roots ? roots : 1);
}

static ssched_status_t solve_again(chk_t *c, json_t *root, ref_t *ref)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t s;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_steady_init(&s);
    ssched_status_t st = make_platform(c, &p);
    if (st == SSCHED_OK)
        st = make_problem(c, root, &pb);
    size_t limit = c->opt->max_solve_size ? c->opt->max_solve_size : SSCHED_CHECK_MAX_SOLVE_SIZE;
    size_t size = st == SSCHED_OK ? solve_size(c, &pb) : 0;
    if (st == SSCHED_OK && size > limit)
        st = ssched_error_set(c->err, SSCHED_ELIMIT,
                              "schedule file: verifying its throughput means solving its problem "
                              "again, of size %zu (message types x edges), above the limit %zu "
                              "(raise it with options.max_solve_size)",
                              size, limit);
    ssched_error_t e;
    ssched_error_clear(&e);
    if (st == SSCHED_OK && (st = ssched_steady_solve_opts(&p, &pb, NULL, &s, &e)) != SSCHED_OK) {
        if (st == SSCHED_EINPUT)
            st = ssched_i_chk_bad(c, "its problem cannot be solved again to verify the "
                                     "throughput: %s", e.message);
        else
            st = ssched_error_set(c->err, st, "%s", e.message);
    }
    if (st == SSCHED_OK) {
        int multicast = c->bcast && s.multicast;
        ref->exact = !(multicast || c->comm || c->allreduce || c->scan);
        mpq_set(ref->tp, s.throughput);
        mpq_set(ref->ub, ref->exact ? s.throughput : s.upper_bound);
        ref->optimal = ref->exact || s.optimal;
    }
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return st;
}

/* "q (about d)" of a rational, for a violation message. */
static void show(const mpq_t q, char *buf, size_t len)
{
    char *t = mpq_get_str(NULL, 10, q);
    snprintf(buf, len, "%.40s%s (%.9g)", t ? t : "?", t && strlen(t) > 40 ? "..." : "",
             mpq_get_d(q));
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    if (t)
        freefunc(t, strlen(t) + 1);
}

/* A claim that must equal want exactly (absent: nothing claimed). */
static ssched_status_t equal_claim(chk_t *c, json_t *obj, const char *key, const char *where,
                                   const mpq_t want, const char *what)
{
    if (!json_object_get(obj, key) || !c->report->valid)
        return SSCHED_OK;
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = ssched_i_chk_get_q(c, obj, key, where, q);
    if (st == SSCHED_OK && !mpq_equal(q, want)) {
        char a[96], b[96];
        show(q, a, sizeof a);
        show(want, b, sizeof b);
        ssched_i_chk_violation(c, "%s%s%s %s is not %s %s (its problem solved again)",
                               strcmp(where, "schedule") ? where : "",
                               strcmp(where, "schedule") ? "." : "", key, a, what, b);
    }
    mpq_clear(q);
    return st;
}

ssched_status_t ssched_i_chk_throughput_claims(chk_t *c, json_t *root)
{
    if (c->opt->trust_throughput)
        return SSCHED_OK;
    ref_t ref;
    mpq_inits(ref.tp, ref.ub, NULL);
    ssched_status_t st = solve_again(c, root, &ref);
    const char *what = ref.exact ? "the certified optimum" : "the achievable TP column generation certifies";
    json_t *fixed = json_object_get(root, "fixed_period");
    char a[96], b[96];
    if (st != SSCHED_OK)
        ;
    else if (c->report->unrolled) {
        /* steady_time, lower_bound and ratio were recomputed from it */
        st = equal_claim(c, root, "throughput", "schedule", ref.tp, what);
    } else if (c->scan) {
        /* a periodic scan's throughput is its structures' packing: exactly
         * the achievable TP re-derived here, never a number taken on trust
         * (a fixed period: the packing's TP is optimal_throughput, and the
         * floors and extras stay below it) */
        if (fixed && mpq_cmp(c->throughput, ref.tp) > 0) {
            show(c->throughput, a, sizeof a);
            show(ref.tp, b, sizeof b);
            ssched_i_chk_violation(c, "the throughput %s exceeds %s %s (its problem solved "
                                      "again)", a, what, b);
        }
        if ((st = equal_claim(c, fixed ? fixed : root, fixed ? "optimal_throughput" : "throughput",
                              fixed ? "fixed_period" : "schedule", ref.tp, what)) == SSCHED_OK &&
            (st = equal_claim(c, root, "upper_bound", "schedule", ref.ub,
                              "the certified upper bound")) == SSCHED_OK && c->report->valid &&
            json_is_true(json_object_get(root, "optimal")) != mpq_equal(ref.tp, ref.ub))
            ssched_i_chk_violation(c, "\"optimal\" does not say whether the achievable TP reaches "
                                      "the certified upper bound (its problem solved again)");
    } else if (mpq_cmp(c->throughput, ref.ub) > 0) {
        /* the slots reach it, so only a checker or solver bug gets here */
        show(c->throughput, a, sizeof a);
        show(ref.ub, b, sizeof b);
        ssched_i_chk_violation(c, "the throughput %s exceeds %s %s (its problem solved again)", a,
                               ref.exact ? "the certified optimum" : "the certified upper bound",
                               b);
    } else if ((st = equal_claim(c, fixed, "optimal_throughput", "fixed_period", ref.tp, what)) ==
                   SSCHED_OK &&
               (st = equal_claim(c, root, "upper_bound", "schedule", ref.ub,
                                 ref.exact ? "the certified optimum"
                                           : "the certified upper bound")) == SSCHED_OK &&
               c->report->valid && json_is_boolean(json_object_get(root, "optimal"))) {
        int claimed = json_is_true(json_object_get(root, "optimal"));
        int proven = mpq_equal(c->throughput, ref.ub) ||
                     (ref.optimal && mpq_equal(c->throughput, ref.tp));
        if (claimed != proven)
            ssched_i_chk_violation(c, "\"optimal\" is %s but the throughput %s (its problem "
                                      "solved again)",
                                   claimed ? "true" : "false",
                                   claimed ? "is not proven optimal"
                                           : "is proven optimal");
    }
    mpq_clears(ref.tp, ref.ub, NULL);
    return st;
}
