/* One arborescence for short routed broadcast patterns (issue 23).
 *
 * The column generation's arborescences are an optimal MIXTURE: on a
 * cluster of identical links (cluster_fat_tree.xml) it hands over stars
 * from relays, each relay's up-link carrying 7 copies of one broadcast,
 * so that only thousands of operations per period reach TP; apportioned
 * to n = 1 .. 128 operations they lose up to a half of it, and the list
 * scheduler packs their whole-message transfers badly.  A single
 * arborescence whose own per-operation load (the busiest resource's time
 * for one copy down every arc: SHARED links at link_c, the edge's FATPIPE
 * cap, one-port ports) is 1/TP, e.g. a chain through every target when
 * no link is crossed twice, is a pattern of one operation per period at
 * TP exactly, and it pipelines: every arc's message waits only for its
 * parent's.
 *
 * The search is a heuristic (floating point: it only proposes; the
 * pattern is then built exactly, its period the exact busiest resource's
 * time, and ranked by its exact replay against the other candidates):
 * greedy insertion of the targets (each at the arc keeping the busiest
 * resource least busy), the solution's own arborescences as other
 * starts, then first-improvement local search: re-parent a node, insert
 * a relay host above it, remove a relay.  Objective, lexicographic: the
 * largest load (relative tolerance 1e-9), the longest root-to-target time
 * (sum of l + size c per hop: the pipeline's fill), the sum of loads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

typedef struct {
    const ssched_platform_t *p;
    size_t n, nr, root;
    size_t *eidx;              /* n x n: edge u -> v, or SIZE_MAX           */
    const unsigned char *need; /* per node: a target                        */
    double size;
    double *load;              /* nr scratch                                */
    size_t *touched;           /* resources touched by the evaluation       */
    size_t n_touched, cap_touched;
    double *arr;               /* per node: arrival time (scratch)          */
    size_t *order;             /* scratch: nodes in tree order              */
    int blocking;              /* the packing-aware loads (see add_edge)    */
    double *f1, *f2;           /* per link: the two largest f of the arcs   */
} arb_ctx_t;

typedef struct {
    double max, depth, sum;
} arb_cost_t;

static int cost_less(const arb_cost_t *a, const arb_cost_t *b)
{
    double tol = 1e-9 * (fabs(a->max) > fabs(b->max) ? fabs(a->max) : fabs(b->max));
    if (a->max < b->max - tol)
        return 1;
    if (a->max > b->max + tol)
        return 0;
    double dt = 1e-9 * (a->depth > b->depth ? a->depth : b->depth);
    if (a->depth < b->depth - dt)
        return 1;
    if (a->depth > b->depth + dt)
        return 0;
    return a->sum < b->sum * (1 - 1e-12);
}

static int touch(arb_ctx_t *c, size_t r, double x)
{
    if (c->load[r] == 0) {
        if (c->n_touched == c->cap_touched) {
            size_t cap = c->cap_touched ? 2 * c->cap_touched : 64;
            size_t *t = realloc(c->touched, cap * sizeof *t);
            if (!t)
                return 0;
            c->touched = t;
            c->cap_touched = cap;
        }
        c->touched[c->n_touched++] = r;
    }
    c->load[r] += x;
    return 1;
}

/* One copy over edge e, as ssched_i_sched_edge_usage (routed model).
 * Blocking loads: a copy whose share f = link_c / c(e) of a SHARED link
 * cannot run beside the arc of the largest other f there (f + f' > 1:
 * under bottleneck-rate sharing they never overlap) counts its whole
 * time c(e) on that link, not f c(e): on small_platform a copy to
 * Jacquelin (2.6 MB/s) takes a quarter of Boivin's link for 0.39 s, in
 * which no copy at Boivin's link's own rate can start. */
static int add_edge(arb_ctx_t *c, size_t e)
{
    const ssched_platform_t *p = c->p;
    const ssched_routes_t *rt = p->routes;
    size_t n = c->n;
    double fat = 0, ce = mpq_get_d(p->c[e]);
    for (size_t k = rt->route_start[e]; k < rt->route_start[e + 1]; k++) {
        size_t L = rt->route_links[k];
        double lc = mpq_get_d(rt->link_c[L]);
        if (rt->sharing[L] == SSCHED_LINK_FATPIPE) {
            if (lc > fat)
                fat = lc;
            continue;
        }
        if (c->blocking) {
            double f = lc / ce, other = f == c->f1[L] ? c->f2[L] : c->f1[L];
            if (f + other > 1 + 1e-12)
                lc = ce;
        }
        if (!touch(c, 3 * n + p->n_edges + L, lc * c->size))
            return 0;
    }
    if (fat > 0 && !touch(c, 3 * n + e, fat * c->size))
        return 0;
    if (rt->hosts_one_port) {
        double x = mpq_get_d(p->c[e]) * c->size;
        if (!touch(c, p->from[e], x) || !touch(c, n + p->to[e], x))
            return 0;
    }
    return 1;
}

/* The cost of the arborescence par[] (SIZE_MAX: not in it); 0 on ENOMEM
 * or a cycle (never made by the moves; checked anyway). */
static int evaluate(arb_ctx_t *c, const size_t *par, arb_cost_t *out)
{
    const ssched_platform_t *p = c->p;
    for (size_t k = 0; k < c->n_touched; k++)
        c->load[c->touched[k]] = 0;
    c->n_touched = 0;
    out->max = out->depth = out->sum = 0;
    const ssched_routes_t *rt = p->routes;
    if (c->blocking) { /* the two largest f per link (f2 <= f1) */
        for (size_t L = 0; L < rt->n_links; L++)
            c->f1[L] = c->f2[L] = 0;
        for (size_t v = 0; v < c->n; v++) {
            if (par[v] == SIZE_MAX)
                continue;
            size_t e = c->eidx[par[v] * c->n + v];
            double ce = mpq_get_d(p->c[e]);
            for (size_t k = rt->route_start[e]; k < rt->route_start[e + 1]; k++) {
                size_t L = rt->route_links[k];
                double f = mpq_get_d(rt->link_c[L]) / ce;
                if (f > c->f1[L]) {
                    c->f2[L] = c->f1[L];
                    c->f1[L] = f;
                } else if (f > c->f2[L]) {
                    c->f2[L] = f;
                }
            }
        }
    }
    for (size_t v = 0; v < c->n; v++)
        if (par[v] != SIZE_MAX && !add_edge(c, c->eidx[par[v] * c->n + v]))
            return 0;
    for (size_t k = 0; k < c->n_touched; k++) {
        double x = c->load[c->touched[k]];
        out->sum += x;
        if (x > out->max)
            out->max = x;
    }
    /* arrival times: each node after its parent (walk up, memoised) */
    for (size_t v = 0; v < c->n; v++)
        c->arr[v] = -1;
    c->arr[c->root] = 0;
    for (size_t v = 0; v < c->n; v++) {
        if (par[v] == SIZE_MAX || c->arr[v] >= 0)
            continue;
        size_t m = 0, u = v;
        while (c->arr[u] < 0) {
            if (par[u] == SIZE_MAX || m >= c->n)
                return 0; /* detached or a cycle */
            c->order[m++] = u;
            u = par[u];
        }
        while (m-- > 0) {
            size_t w = c->order[m], e = c->eidx[par[w] * c->n + w];
            double l = p->l ? mpq_get_d(p->l[e]) : 0;
            c->arr[w] = c->arr[par[w]] + l + c->size * mpq_get_d(p->c[e]);
        }
    }
    for (size_t v = 0; v < c->n; v++)
        if (c->need[v] && c->arr[v] > out->depth)
            out->depth = c->arr[v];
    return 1;
}

/* u lies in v's subtree (u == v included). */
static int below(const size_t *par, size_t u, size_t v, size_t n)
{
    for (size_t k = 0; u != SIZE_MAX && k <= n; k++, u = par[u])
        if (u == v)
            return 1;
    return 0;
}

/* Drop relay leaves (nodes that are no target and have no child). */
static void prune(const arb_ctx_t *c, size_t *par)
{
    for (int again = 1; again;) {
        again = 0;
        for (size_t v = 0; v < c->n; v++) {
            if (par[v] == SIZE_MAX || c->need[v])
                continue;
            int leaf = 1;
            for (size_t w = 0; w < c->n && leaf; w++)
                leaf = par[w] != v;
            if (leaf) {
                par[v] = SIZE_MAX;
                again = 1;
            }
        }
    }
}

static int in_tree(const arb_ctx_t *c, const size_t *par, size_t v)
{
    return v == c->root || par[v] != SIZE_MAX;
}

/* First-improvement local search from par (cost *cur); 0 on ENOMEM. */
static int improve(arb_ctx_t *c, size_t *par, arb_cost_t *cur, size_t *try)
{
    size_t n = c->n;
    for (size_t round = 0; round < 64 * n; round++) {
        int better = 0;
        arb_cost_t k;
        for (size_t v = 0; v < n && !better; v++) {
            if (v == c->root || par[v] == SIZE_MAX)
                continue;
            /* re-parent v to u */
            for (size_t u = 0; u < n && !better; u++) {
                if (u == par[v] || !in_tree(c, par, u) || below(par, u, v, n) ||
                    c->eidx[u * n + v] == SIZE_MAX)
                    continue;
                memcpy(try, par, n * sizeof *try);
                try[v] = u;
                prune(c, try);
                if (!evaluate(c, try, &k))
                    return 0;
                if (cost_less(&k, cur)) {
                    memcpy(par, try, n * sizeof *par);
                    *cur = k;
                    better = 1;
                }
            }
            /* a relay r between u and v */
            for (size_t r = 0; r < n && !better; r++) {
                if (in_tree(c, par, r) || c->eidx[r * n + v] == SIZE_MAX)
                    continue;
                for (size_t u = 0; u < n && !better; u++) {
                    if (!in_tree(c, par, u) || below(par, u, v, n) ||
                        c->eidx[u * n + r] == SIZE_MAX)
                        continue;
                    memcpy(try, par, n * sizeof *try);
                    try[v] = r;
                    try[r] = u;
                    if (!evaluate(c, try, &k))
                        return 0;
                    if (cost_less(&k, cur)) {
                        memcpy(par, try, n * sizeof *par);
                        *cur = k;
                        better = 1;
                    }
                }
            }
            /* remove relay v: its children go to its parent */
            if (!better && !c->need[v]) {
                memcpy(try, par, n * sizeof *try);
                int ok = 1;
                for (size_t w = 0; w < n; w++)
                    if (try[w] == v) {
                        ok &= c->eidx[par[v] * n + w] != SIZE_MAX;
                        try[w] = par[v];
                    }
                try[v] = SIZE_MAX;
                if (ok) {
                    if (!evaluate(c, try, &k))
                        return 0;
                    if (cost_less(&k, cur)) {
                        memcpy(par, try, n * sizeof *par);
                        *cur = k;
                        better = 1;
                    }
                }
            }
        }
        if (!better)
            break;
    }
    return 1;
}

/* Greedy: targets one at a time, each by the arc from the tree that
 * leaves the least cost; 0 on ENOMEM, -1 if some target is unreachable. */
static int greedy(arb_ctx_t *c, size_t *par, size_t *try)
{
    size_t n = c->n;
    for (size_t v = 0; v < n; v++)
        par[v] = SIZE_MAX;
    for (;;) {
        size_t bu = SIZE_MAX, bv = SIZE_MAX;
        arb_cost_t best = {0, 0, 0}, k;
        for (size_t v = 0; v < n; v++) {
            if (!c->need[v] || in_tree(c, par, v))
                continue;
            for (size_t u = 0; u < n; u++) {
                if (!in_tree(c, par, u) || c->eidx[u * n + v] == SIZE_MAX)
                    continue;
                memcpy(try, par, n * sizeof *try);
                try[v] = u;
                if (!evaluate(c, try, &k))
                    return 0;
                if (bv == SIZE_MAX || cost_less(&k, &best)) {
                    best = k;
                    bu = u;
                    bv = v;
                }
            }
        }
        if (bv == SIZE_MAX)
            break;
        par[bv] = bu;
    }
    for (size_t v = 0; v < n; v++)
        if (c->need[v] && !in_tree(c, par, v))
            return -1;
    return 1;
}

/* One copy over e added to (sign 1) or taken from (sign -1) the loads,
 * without the touched list (the chain search's own bookkeeping); returns
 * the largest load among e's resources after the change. */
static double shift_edge(arb_ctx_t *c, size_t e, double sign)
{
    const ssched_platform_t *p = c->p;
    const ssched_routes_t *rt = p->routes;
    size_t n = c->n;
    double fat = 0, top = 0;
    for (size_t k = rt->route_start[e]; k < rt->route_start[e + 1]; k++) {
        size_t L = rt->route_links[k];
        double lc = mpq_get_d(rt->link_c[L]);
        if (rt->sharing[L] == SSCHED_LINK_FATPIPE) {
            if (lc > fat)
                fat = lc;
            continue;
        }
        double *x = &c->load[3 * n + p->n_edges + L];
        *x += sign * lc * c->size;
        if (*x > top)
            top = *x;
    }
    if (fat > 0) {
        double *x = &c->load[3 * n + e];
        *x += sign * fat * c->size;
        if (*x > top)
            top = *x;
    }
    if (rt->hosts_one_port) {
        double y = mpq_get_d(p->c[e]) * c->size, *a = &c->load[p->from[e]];
        double *b = &c->load[n + p->to[e]];
        *a += sign * y;
        *b += sign * y;
        if (*a > top)
            top = *a;
        if (*b > top)
            top = *b;
    }
    return top;
}

typedef struct {
    size_t *path, *tgt, nt, len;
    unsigned char *used;
    double best, floor;        /* best max load found; the LP's 1/TP      */
    size_t *best_path;
    long budget;
} chain_t;

/* Depth-first search over chains root -> targets (each once), pruned by
 * the best largest load found; stops at the LP's bound or the budget. */
static void chain_dfs(arb_ctx_t *c, chain_t *h, double cur)
{
    if (h->budget <= 0 || h->best <= h->floor * (1 + 1e-9))
        return;
    if (h->len == h->nt + 1) {
        if (cur < h->best * (1 - 1e-9)) {
            h->best = cur;
            memcpy(h->best_path, h->path, h->len * sizeof *h->path);
        }
        return;
    }
    size_t u = h->path[h->len - 1];
    for (size_t t = 0; t < h->nt; t++) {
        size_t v = h->tgt[t], e = c->eidx[u * c->n + v];
        if (h->used[t] || e == SIZE_MAX || h->budget-- <= 0)
            continue;
        double top = shift_edge(c, e, 1), nxt = top > cur ? top : cur;
        if (nxt < h->best * (1 - 1e-9)) {
            h->used[t] = 1;
            h->path[h->len++] = v;
            chain_dfs(c, h, nxt);
            h->len--;
            h->used[t] = 0;
        }
        shift_edge(c, e, -1);
    }
}

/* The best chain (as par[]) the search finds within its budget; 0 if
 * none (ENOMEM included: the chain is only one start). */
static int chain(arb_ctx_t *c, const ssched_steady_t *st, size_t *par)
{
    size_t n = c->n;
    chain_t h = {0};
    h.path = ssched_i_alloc(n + 1, sizeof *h.path);
    h.best_path = ssched_i_alloc(n + 1, sizeof *h.best_path);
    h.tgt = ssched_i_alloc(n, sizeof *h.tgt);
    h.used = ssched_i_calloc(n, 1);
    int ok = h.path && h.best_path && h.tgt && h.used;
    for (size_t v = 0; ok && v < n; v++)
        if (c->need[v])
            h.tgt[h.nt++] = v;
    for (size_t k = 0; k < c->n_touched; k++)
        c->load[c->touched[k]] = 0;
    c->n_touched = 0;
    if (ok) {
        h.best = INFINITY;
        h.floor = mpq_sgn(st->throughput) > 0 ? 1 / mpq_get_d(st->throughput) : 0;
        h.budget = 200000;
        h.path[0] = c->root;
        h.len = 1;
        chain_dfs(c, &h, 0);
        ok = isfinite(h.best);
    }
    for (size_t k = 0; k < c->nr; k++) /* the search leaves rounding dust */
        c->load[k] = 0;
    if (ok) {
        for (size_t v = 0; v < n; v++)
            par[v] = SIZE_MAX;
        for (size_t k = 1; k <= h.nt; k++)
            par[h.best_path[k]] = h.best_path[k - 1];
    }
    free(h.path); free(h.best_path); free(h.tgt); free(h.used);
    return ok;
}

ssched_status_t ssched_i_sched_best_arborescence(const ssched_platform_t *p,
                                                 const ssched_problem_t *pb,
                                                 const ssched_steady_t *st, size_t root,
                                                 const size_t *targets, size_t n_targets,
                                                 int blocking, ssched_arborescence_t *out,
                                                 ssched_error_t *err)
{
    size_t n = p->n_nodes;
    if (!p->routes || n < 2 || n > 1024 || root >= n)
        return ssched_error_set(err, SSCHED_EINPUT, "no single-arborescence search here");
    arb_ctx_t c = {0};
    c.p = p;
    c.n = n;
    c.nr = ssched_i_sched_n_resources(p);
    c.root = root;
    c.blocking = blocking;
    c.f1 = ssched_i_calloc(p->routes->n_links + 1, sizeof *c.f1);
    c.f2 = ssched_i_calloc(p->routes->n_links + 1, sizeof *c.f2);
    c.size = mpq_get_d(pb->size);
    c.eidx = ssched_i_alloc(n * n, sizeof *c.eidx);
    unsigned char *need = ssched_i_calloc(n, 1);
    c.need = need;
    c.load = ssched_i_calloc(c.nr, sizeof *c.load);
    c.arr = ssched_i_alloc(n, sizeof *c.arr);
    c.order = ssched_i_alloc(n + 1, sizeof *c.order);
    size_t *par = ssched_i_alloc(n, sizeof *par), *best = ssched_i_alloc(n, sizeof *best);
    size_t *try = ssched_i_alloc(n, sizeof *try);
    ssched_status_t status = SSCHED_OK;
    if (!c.eidx || !need || !c.load || !c.arr || !c.order || !par || !best || !try || !c.f1 ||
        !c.f2)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    arb_cost_t bc = {0, 0, 0}, k;
    int have = 0;
    if (status == SSCHED_OK) {
        for (size_t x = 0; x < n * n; x++)
            c.eidx[x] = SIZE_MAX;
        for (size_t e = 0; e < p->n_edges; e++)
            c.eidx[p->from[e] * n + p->to[e]] = e;
        for (size_t t = 0; t < n_targets; t++)
            if (targets[t] < n && targets[t] != root)
                need[targets[t]] = 1;
        /* starts: the best chain, the greedy tree, then the solution's
         * arborescences */
        for (size_t s = 0; s <= st->n_arborescences + 1 && status == SSCHED_OK; s++) {
            int ok = 1;
            if (s == 0) {
                ok = chain(&c, st, par);
            } else if (s == 1) {
                int g = greedy(&c, par, try);
                if (g == 0)
                    status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                ok = g > 0;
            } else {
                const ssched_arborescence_t *a = &st->arborescences[s - 2];
                for (size_t v = 0; v < n; v++)
                    par[v] = SIZE_MAX;
                for (size_t q = 0; q < a->n_arcs && ok; q++) {
                    size_t e = a->arcs[q];
                    ok = e < p->n_edges && p->to[e] != root && par[p->to[e]] == SIZE_MAX;
                    if (ok)
                        par[p->to[e]] = p->from[e];
                }
                for (size_t v = 0; v < n && ok; v++)
                    ok = !need[v] || par[v] != SIZE_MAX;
                if (ok)
                    prune(&c, par);
            }
            if (!ok || status != SSCHED_OK)
                continue;
            if (!evaluate(&c, par, &k)) /* a cycle in a given arborescence: skip */
                continue;
            if (!improve(&c, par, &k, try)) {
                status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            if (!have || cost_less(&k, &bc)) {
                memcpy(best, par, n * sizeof *best);
                bc = k;
                have = 1;
            }
        }
    }
    if (status == SSCHED_OK && !have)
        status = ssched_error_set(err, SSCHED_EINPUT, "no arborescence reaches every target");
    if (status == SSCHED_OK) {
        size_t m = 0;
        for (size_t v = 0; v < n; v++)
            m += best[v] != SIZE_MAX;
        free(out->arcs);
        out->arcs = ssched_i_alloc(m ? m : 1, sizeof *out->arcs);
        out->n_arcs = 0;
        if (!out->arcs)
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t v = 0; v < n && status == SSCHED_OK; v++) /* sorted by head */
            if (best[v] != SIZE_MAX)
                out->arcs[out->n_arcs++] = c.eidx[best[v] * n + v];
        mpq_set(out->weight, st->throughput);
    }
    free(c.eidx); free(need); free(c.load); free(c.arr); free(c.order);
    free(c.touched); free(par); free(best); free(try); free(c.f1); free(c.f2);
    return status;
}
