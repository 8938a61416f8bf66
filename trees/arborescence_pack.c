/* Exact weighted arborescence packing (Edmonds' branching theorem).
 * Contract and API in include/ssched/trees.h.
 *
 * Notation: K the kept nodes, r the root, cuts taken inside G[K], x >= 0 the
 * remaining capacities, lambda the remaining value, d(X) = x(arcs entering
 * X) for nonempty X subset of K - r.  Invariant: d(X) >= lambda for all X
 * (checked up front with |K| - 1 exact max-flows).
 *
 * Round (Lovász 1976, weighted): grow an r-arborescence T in supp(x) such
 * that t(X) = |T entering X| <= 1 for every tight X (d(X) = lambda); then
 * for a small eps > 0, x' = x - eps*T and lambda' = lambda - eps keep the
 * invariant: a tight set loses exactly eps on both sides, the others have
 * slack.  Growth, with eps a formal infinitesimal (values a + b*eps in
 * trees/arborescence_flow.c) and c = x - eps*T: T reaches U; call X
 * critical if c(X) = lambda - eps (tight and entered once) and X is not
 * inside U.  Adding arc uv (u in U, v not in U) is safe unless some
 * critical Y has v in Y, u not in Y: that is one max-flow from {r, u} to v
 * compared with lambda - eps.  Existence: if no critical set exists, any
 * arc of supp(x) leaving U is safe (d(K - U) >= lambda > 0 gives one).
 * Otherwise take X critical and minimal.  Since d(X - U) >= lambda >
 * c(X), x(X cap U -> X - U) > c((K - X) -> X cap U) >= 0: there is an arc
 * uv of supp(x) from X cap U to X - U.  A critical Y with v in Y, u not in
 * Y would give, by submodularity of the cut function of c >= 0, a critical
 * X cap Y (it holds v) strictly inside X (u is not in it): contradiction.
 * The search below follows the proof: when the test of uv fails, the
 * minimal violating sink side Y is critical and every later failing test
 * returns a strictly smaller set (same uncrossing), so a safe arc is found
 * after <= n tests; typically the first one passes.
 *
 * Weight: eps = the largest value with d(X) - eps*t(X) >= lambda - eps for
 * all X, eps <= min_T x and eps <= lambda.  Start at that upper bound;
 * for each v, while the min r->v cut X under x - eps*T is below lambda -
 * eps, set eps = (d(X) - lambda) / (t(X) - 1) (t(X) >= 2 there): Newton's
 * method on a concave piecewise linear function, each step lowers the
 * slope t(X) - 1, so <= n steps per v; lowering eps never breaks a checked
 * v since t >= 1 on every X.
 *
 * Termination and size: in R^{A+1} the rows (chi_delta(X), -1) for tight X
 * and (chi_e, 0) for x(e) = 0 are orthogonal to (x, lambda).  The step
 * direction (chi_T, 1) is orthogonal to every old row (t = 1 on tight
 * sets, T inside supp(x)) but not to the new one (an arc of T reaching 0,
 * or a set with t >= 2 becoming tight), so the rank grows every round but
 * the last (lambda reaching 0), and the rank is <= |A|: at most
 * |supp(x)| + 1 arborescences, |supp(x)| when lambda is the min cut (a
 * tight set exists from the start).  ssched_arborescences_check() checks
 * the result independently before it is returned. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/check_report.h"
#include "ssched/rational.h"
#include "ssched/trees.h"
#include "trees/arborescence_internal.h"

#define NONE SIZE_MAX

typedef struct {
    size_t n, m, root;
    const size_t *from, *to;
    mpq_t *x;               /* remaining capacities                   */
    mpq_t lambda;           /* remaining value                        */
    unsigned char *keep, *dropped, *usable, *src, *side, *in_u, *in_t;
    size_t *in_arc, *queue;
    af_net_t net;
    int net_ok;
    size_t runs;            /* max-flows of the networks already freed */
    af_val_t val, lim;
    mpq_t eps, acc;
} pk_t;

/* keep = nodes reached from the root over arcs of supp(x) avoiding dropped
 * nodes; usable = arcs of supp(x) inside keep (no self-loop, not into r);
 * rebuild the flow network on them. */
static ssched_status_t pk_rebuild(pk_t *pk, ssched_error_t *err)
{
    size_t qn = 0;
    memset(pk->keep, 0, pk->n);
    pk->keep[pk->root] = 1;
    pk->queue[qn++] = pk->root;
    for (size_t qi = 0; qi < qn; qi++)
        for (size_t e = 0; e < pk->m; e++) {
            size_t w = pk->to[e];
            if (pk->from[e] == pk->queue[qi] && !pk->keep[w] && !pk->dropped[w] &&
                mpq_sgn(pk->x[e]) > 0) {
                pk->keep[w] = 1;
                pk->queue[qn++] = w;
            }
        }
    for (size_t e = 0; e < pk->m; e++)
        pk->usable[e] = pk->keep[pk->from[e]] && pk->keep[pk->to[e]] && pk->from[e] != pk->to[e] &&
                        pk->to[e] != pk->root && mpq_sgn(pk->x[e]) > 0;
    if (pk->net_ok) {
        pk->runs += pk->net.runs;
        ssched_i_af_net_free(&pk->net);
    }
    pk->net_ok = 0;
    ssched_status_t st = ssched_i_af_net_init(&pk->net, pk->n, pk->m, pk->from, pk->to, pk->usable, err);
    pk->net_ok = st == SSCHED_OK;
    return st;
}

/* capacities x - eps*T: the eps part formal (b = -1) or numeric */
static void pk_caps(pk_t *pk, int formal, mpq_srcptr eps)
{
    for (size_t e = 0; e < pk->m; e++) {
        if (!pk->usable[e])
            continue;
        mpq_set(pk->net.cap[e].a, pk->x[e]);
        mpq_set_si(pk->net.cap[e].b, formal && pk->in_t[e] ? -1 : 0, 1);
        if (!formal && eps && pk->in_t[e])
            mpq_sub(pk->net.cap[e].a, pk->net.cap[e].a, eps);
    }
}

/* max-flow root -> v under the capacities set, stopping above limit */
static int pk_flow(pk_t *pk, size_t extra_src, size_t v, const af_val_t *limit, unsigned char *side)
{
    memset(pk->src, 0, pk->n);
    pk->src[pk->root] = 1;
    if (extra_src != NONE)
        pk->src[extra_src] = 1;
    return ssched_i_af_maxflow(&pk->net, pk->src, v, limit, &pk->val, side);
}

/* Prune relays and fix lambda (given, or computed when *compute). */
static ssched_status_t pk_prepare(pk_t *pk, int compute, const unsigned char *required,
                                  ssched_error_t *err)
{
    for (int pruned = 0;; pruned = 1) {
        ssched_status_t st = pk_rebuild(pk, err);
        if (st != SSCHED_OK)
            return st;
        for (size_t v = 0; v < pk->n; v++)
            if (!pk->keep[v] && (!required || required[v])) {
                if (compute) {
                    mpq_set_ui(pk->lambda, 0, 1); /* unreachable: nothing to pack */
                    return SSCHED_OK;
                }
                if (mpq_sgn(pk->lambda) > 0)
                    return ssched_error_set(err, SSCHED_EINPUT,
                                            "arborescence packing: node %zu is not reached from "
                                            "root %zu through arcs of positive capacity%s, but "
                                            "lambda > 0", v, pk->root,
                                            pruned ? " once relays with max-flow below lambda "
                                                     "are left out" : "");
            }
        pk_caps(pk, 0, NULL);
        if (compute) {
            int any = 0;
            for (size_t v = 0; v < pk->n; v++)
                if (pk->keep[v] && v != pk->root && (!required || required[v])) {
                    pk_flow(pk, NONE, v, NULL, NULL);
                    if (!any || mpq_cmp(pk->val.a, pk->lambda) < 0)
                        mpq_set(pk->lambda, pk->val.a);
                    any = 1;
                }
            if (!any)
                mpq_set_ui(pk->lambda, 0, 1);
        }
        if (mpq_sgn(pk->lambda) == 0)
            return SSCHED_OK;
        af_val_t *lim = &pk->lim;
        mpq_set(lim->a, pk->lambda);
        mpq_set_ui(lim->b, 0, 1);
        int changed = 0;
        for (size_t v = 0; v < pk->n; v++) {
            if (!pk->keep[v] || v == pk->root || pk_flow(pk, NONE, v, lim, NULL) ||
                mpq_cmp(pk->val.a, pk->lambda) >= 0)
                continue;
            if (!required || required[v]) {
                char *a = ssched_rational_to_string(pk->lambda);
                char *b = ssched_rational_to_string(pk->val.a);
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "arborescence packing: lambda %s exceeds the max-flow %s "
                                      "from root %zu to node %zu", a ? a : "?", b ? b : "?",
                                      pk->root, v);
                free(a);
                free(b);
                return st;
            }
            pk->dropped[v] = 1; /* a relay that cannot be in every arborescence */
            changed = 1;
        }
        if (!changed)
            return SSCHED_OK;
    }
}

/* best arc of supp(x) from U to outside U, inside `within` if non-NULL */
static size_t pk_pick(const pk_t *pk, const unsigned char *within)
{
    size_t best = NONE;
    for (size_t e = 0; e < pk->m; e++) {
        if (!pk->usable[e] || !pk->in_u[pk->from[e]] || pk->in_u[pk->to[e]] ||
            mpq_sgn(pk->x[e]) <= 0)
            continue;
        if (within && (!within[pk->from[e]] || !within[pk->to[e]]))
            continue;
        /* the widest arc: fewer rounds end on an arc reaching zero */
        if (best == NONE || mpq_cmp(pk->x[e], pk->x[best]) > 0)
            best = e;
    }
    return best;
}

/* Grow T (pk->in_t, pk->in_arc) spanning keep; see the proof above. */
static ssched_status_t pk_grow(pk_t *pk, ssched_error_t *err)
{
    size_t n_keep = 0, n_u = 1;
    for (size_t v = 0; v < pk->n; v++) {
        n_keep += pk->keep[v];
        pk->in_arc[v] = NONE;
    }
    memset(pk->in_u, 0, pk->n);
    memset(pk->in_t, 0, pk->m);
    pk->in_u[pk->root] = 1;
    pk_caps(pk, 1, NULL);
    mpq_set(pk->lim.a, pk->lambda);
    mpq_set_si(pk->lim.b, -1, 1);
    while (n_u < n_keep) {
        size_t e = pk_pick(pk, NULL);
        for (size_t tries = 0;; tries++) {
            if (e == NONE || tries > pk->n)
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "arborescence packing: no safe arc (invariant broken)");
            if (pk_flow(pk, pk->from[e], pk->to[e], &pk->lim, pk->side))
                break; /* no critical set separates from[e] from to[e] */
            if (ssched_i_af_val_cmp(&pk->val, &pk->lim) < 0)
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "arborescence packing: cut below lambda - eps");
            e = pk_pick(pk, pk->side); /* inside the minimal critical set found */
        }
        pk->in_t[e] = 1;
        pk->in_arc[pk->to[e]] = e;
        pk->in_u[pk->to[e]] = 1;
        mpq_set_si(pk->net.cap[e].b, -1, 1);
        n_u++;
    }
    return SSCHED_OK;
}

/* The largest weight for T (Newton's method, see above) into pk->eps. */
static ssched_status_t pk_weight(pk_t *pk, ssched_error_t *err)
{
    mpq_set(pk->eps, pk->lambda);
    for (size_t v = 0; v < pk->n; v++)
        if (pk->in_arc[v] != NONE && mpq_cmp(pk->x[pk->in_arc[v]], pk->eps) < 0)
            mpq_set(pk->eps, pk->x[pk->in_arc[v]]);
    for (size_t v = 0; v < pk->n; v++) {
        if (!pk->keep[v] || v == pk->root)
            continue;
        for (size_t steps = 0;; steps++) {
            pk_caps(pk, 0, pk->eps);
            mpq_sub(pk->lim.a, pk->lambda, pk->eps);
            mpq_set_ui(pk->lim.b, 0, 1);
            if (pk_flow(pk, NONE, v, &pk->lim, pk->side) || ssched_i_af_val_cmp(&pk->val, &pk->lim) >= 0)
                break;
            /* X = pk->side violates: eps = (d(X) - lambda) / (t(X) - 1) */
            size_t t = 0;
            mpq_set_ui(pk->acc, 0, 1);
            for (size_t e = 0; e < pk->m; e++)
                if (pk->usable[e] && !pk->side[pk->from[e]] && pk->side[pk->to[e]]) {
                    mpq_add(pk->acc, pk->acc, pk->x[e]);
                    t += pk->in_t[e];
                }
            if (t < 2 || steps > pk->n)
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "arborescence packing: Newton step failed (t = %zu)", t);
            mpq_sub(pk->acc, pk->acc, pk->lambda);
            mpq_set_ui(pk->val.a, t - 1, 1);
            mpq_div(pk->acc, pk->acc, pk->val.a);
            if (mpq_sgn(pk->acc) <= 0 || mpq_cmp(pk->acc, pk->eps) >= 0)
                return ssched_error_set(err, SSCHED_EINTERNAL,
                                        "arborescence packing: Newton step did not decrease");
            mpq_set(pk->eps, pk->acc);
        }
    }
    return SSCHED_OK;
}

static ssched_status_t pk_push(pk_t *pk, ssched_arborescences_t *out, size_t *cap,
                               ssched_error_t *err)
{
    if (out->count == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        ssched_arborescence_t *it = realloc(out->items, nc * sizeof *it);
        if (!it)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        out->items = it;
        *cap = nc;
    }
    ssched_arborescence_t *a = &out->items[out->count];
    ssched_arborescence_init(a);
    out->count++;
    a->arcs = malloc(pk->n * sizeof *a->arcs);
    if (!a->arcs)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t v = 0; v < pk->n; v++)
        if (pk->in_arc[v] != NONE)
            a->arcs[a->n_arcs++] = pk->in_arc[v];
    mpq_set(a->weight, pk->eps);
    return SSCHED_OK;
}

ssched_status_t ssched_arborescence_pack(size_t n, size_t m, const size_t *from, const size_t *to,
                                         const mpq_t *cap, size_t root, mpq_srcptr lambda,
                                         const unsigned char *required,
                                         ssched_arborescences_t *out, ssched_error_t *err)
{
    if (root >= n)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "arborescence packing: root %zu out of range (%zu nodes)", root, n);
    if (m && (!from || !to || !cap))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "arborescence packing: %zu arcs but no arrays", m);
    for (size_t e = 0; e < m; e++) {
        if (from[e] >= n || to[e] >= n)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "arborescence packing: arc %zu (%zu -> %zu) has an end out of "
                                    "range (%zu nodes)", e, from[e], to[e], n);
        if (mpq_sgn(cap[e]) < 0)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "arborescence packing: arc %zu (%zu -> %zu) has a negative "
                                    "capacity", e, from[e], to[e]);
    }
    if (lambda && mpq_sgn(lambda) < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "arborescence packing: negative lambda");
    ssched_arborescences_free(out);
    ssched_arborescences_init(out);

    pk_t pk;
    memset(&pk, 0, sizeof pk);
    pk.n = n;
    pk.m = m;
    pk.root = root;
    pk.from = from;
    pk.to = to;
    mpq_init(pk.lambda);
    mpq_init(pk.eps);
    mpq_init(pk.acc);
    ssched_i_af_val_init(&pk.val);
    ssched_i_af_val_init(&pk.lim);
    size_t mm = m ? m : 1, item_cap = 0;
    pk.x = malloc(mm * sizeof *pk.x);
    pk.usable = malloc(mm);
    pk.in_t = malloc(mm);
    pk.keep = malloc(n);
    pk.dropped = calloc(n, 1);
    pk.src = malloc(n);
    pk.side = malloc(n);
    pk.in_u = malloc(n);
    pk.in_arc = malloc(n * sizeof *pk.in_arc);
    pk.queue = malloc(n * sizeof *pk.queue);
    out->spanned = malloc(n);
    ssched_status_t st = SSCHED_OK;
    if (!pk.x || !pk.usable || !pk.in_t || !pk.keep || !pk.dropped || !pk.src || !pk.side ||
        !pk.in_u || !pk.in_arc || !pk.queue || !out->spanned) {
        free(pk.x);
        pk.x = NULL;
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    out->n_nodes = n;
    for (size_t e = 0; e < m; e++) {
        mpq_init(pk.x[e]);
        mpq_set(pk.x[e], cap[e]);
    }
    if (lambda)
        mpq_set(pk.lambda, lambda);
    memset(pk.in_t, 0, mm);
    st = pk_prepare(&pk, lambda == NULL, required, err);
    if (st != SSCHED_OK)
        goto done;
    mpq_set(out->value, pk.lambda);
    memcpy(out->spanned, pk.keep, n);
    size_t support = 0;
    for (size_t e = 0; e < m; e++)
        support += pk.usable[e];
    while (st == SSCHED_OK && mpq_sgn(pk.lambda) > 0) {
        if (out->count > support) { /* the rank bound: never reached */
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "arborescence packing: more than %zu arborescences", support + 1);
            break;
        }
        if ((st = pk_grow(&pk, err)) != SSCHED_OK || (st = pk_weight(&pk, err)) != SSCHED_OK ||
            (st = pk_push(&pk, out, &item_cap, err)) != SSCHED_OK)
            break;
        for (size_t v = 0; v < n; v++)
            if (pk.in_arc[v] != NONE)
                mpq_sub(pk.x[pk.in_arc[v]], pk.x[pk.in_arc[v]], pk.eps);
        mpq_sub(pk.lambda, pk.lambda, pk.eps);
    }
    out->maxflows = pk.runs + (pk.net_ok ? pk.net.runs : 0);
    if (st == SSCHED_OK) { /* our own packing failing its check is a bug */
        ssched_check_report_t rep;
        st = ssched_i_report_require(
            ssched_arborescences_check(n, m, from, to, cap, root, out, &rep, err), &rep,
            SSCHED_EINTERNAL, err);
    }
done:
    if (pk.x)
        for (size_t e = 0; e < m; e++)
            mpq_clear(pk.x[e]);
    if (pk.net_ok)
        ssched_i_af_net_free(&pk.net);
    free(pk.x);
    free(pk.usable);
    free(pk.in_t);
    free(pk.keep);
    free(pk.dropped);
    free(pk.src);
    free(pk.side);
    free(pk.in_u);
    free(pk.in_arc);
    free(pk.queue);
    mpq_clear(pk.lambda);
    mpq_clear(pk.eps);
    mpq_clear(pk.acc);
    ssched_i_af_val_clear(&pk.val);
    ssched_i_af_val_clear(&pk.lim);
    if (st != SSCHED_OK) { /* nothing half-built reaches the caller */
        ssched_arborescences_free(out);
        ssched_arborescences_init(out);
    }
    return st;
}
