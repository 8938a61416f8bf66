/* The caller's bipartite multigraph: construction, validation, degrees.
 * See include/ssched/matching.h. */
#include "src/util/internal.h"
#include "ssched/matching.h"

#include <stdlib.h>

#include "matching/internal.h"
#include "src/util/enum_names.h"

void ssched_bipartite_init(ssched_bipartite_t *g, size_t n_left, size_t n_right)
{
    g->n_left = n_left;
    g->n_right = n_right;
    g->n_edges = 0;
    g->edge_cap = 0;
    g->edges = NULL;
}

void ssched_bipartite_free(ssched_bipartite_t *g)
{
    for (size_t i = 0; i < g->n_edges; i++)
        mpz_clear(g->edges[i].weight);
    free(g->edges);
    g->edges = NULL;
    g->n_edges = g->edge_cap = 0;
}

/* Validate one edge; i is its index, for the message. */
static ssched_status_t check_edge(const ssched_bipartite_t *g, size_t i, size_t left, size_t right,
                                  const mpz_t weight, ssched_error_t *err)
{
    if (left >= g->n_left)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "edge %zu: sender %zu out of range (%zu senders)", i, left,
                                g->n_left);
    if (right >= g->n_right)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "edge %zu: receiver %zu out of range (%zu receivers)", i, right,
                                g->n_right);
    if (mpz_sgn(weight) <= 0) {
        char *s = mpz_get_str(NULL, 10, weight);
        ssched_error_set(err, SSCHED_EINPUT,
                         "edge %zu (sender %zu -> receiver %zu): weight %s is not positive", i,
                         left, right, s ? s : "?");
        free(s);
        return SSCHED_EINPUT;
    }
    return SSCHED_OK;
}

ssched_status_t ssched_bipartite_add_edge(ssched_bipartite_t *g, size_t left, size_t right,
                                          const mpz_t weight, size_t *index, ssched_error_t *err)
{
    ssched_status_t st = check_edge(g, g->n_edges, left, right, weight, err);
    if (st != SSCHED_OK)
        return st;
    if (g->n_edges == g->edge_cap) {
        size_t cap = g->edge_cap ? 2 * g->edge_cap : 16;
        ssched_bipartite_edge_t *e = realloc(g->edges, cap * sizeof *e);
        if (!e)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory adding edge %zu",
                                    g->n_edges);
        g->edges = e;
        g->edge_cap = cap;
    }
    ssched_bipartite_edge_t *e = &g->edges[g->n_edges];
    e->left = left;
    e->right = right;
    mpz_init_set(e->weight, weight);
    if (index)
        *index = g->n_edges;
    g->n_edges++;
    return SSCHED_OK;
}

ssched_status_t ssched_bipartite_check(const ssched_bipartite_t *g, ssched_error_t *err)
{
    if (g->n_edges && !g->edges)
        return ssched_error_set(err, SSCHED_EINPUT, "graph has %zu edges but no edge array",
                                g->n_edges);
    for (size_t i = 0; i < g->n_edges; i++) {
        const ssched_bipartite_edge_t *e = &g->edges[i];
        ssched_status_t st = check_edge(g, i, e->left, e->right, e->weight, err);
        if (st != SSCHED_OK)
            return st;
    }
    return SSCHED_OK;
}

/* Weighted degrees of all nodes.  Precondition: g passed the check.
 * deg_left/deg_right are arrays of initialised mpz_t, overwritten. */
void ssched_i_mt_degrees(const ssched_bipartite_t *g, mpz_t *deg_left, mpz_t *deg_right)
{
    for (size_t u = 0; u < g->n_left; u++)
        mpz_set_ui(deg_left[u], 0);
    for (size_t v = 0; v < g->n_right; v++)
        mpz_set_ui(deg_right[v], 0);
    for (size_t i = 0; i < g->n_edges; i++) {
        mpz_add(deg_left[g->edges[i].left], deg_left[g->edges[i].left], g->edges[i].weight);
        mpz_add(deg_right[g->edges[i].right], deg_right[g->edges[i].right], g->edges[i].weight);
    }
}

mpz_t *ssched_i_mt_mpz_array(size_t n)
{
    mpz_t *a = ssched_i_alloc(n, sizeof *a);
    if (a)
        for (size_t i = 0; i < n; i++)
            mpz_init(a[i]);
    return a;
}

void ssched_i_mt_mpz_array_free(mpz_t *a, size_t n)
{
    if (!a)
        return;
    for (size_t i = 0; i < n; i++)
        mpz_clear(a[i]);
    free(a);
}

/* Validate g and T and compute D.  When T != NULL, every node must have
 * weighted degree <= T (the one-port feasibility of the period); the first
 * offender is named with its degree.  On success *D holds the max degree. */
ssched_status_t ssched_i_mt_check_input(const ssched_bipartite_t *g, const mpz_t T, mpz_t D,
                               ssched_error_t *err)
{
    ssched_status_t st = ssched_bipartite_check(g, err);
    if (st != SSCHED_OK)
        return st;
    if (T && mpz_sgn(T) < 0) {
        char *s = mpz_get_str(NULL, 10, T);
        ssched_error_set(err, SSCHED_EINPUT, "bound T = %s is negative", s ? s : "?");
        free(s);
        return SSCHED_EINPUT;
    }
    mpz_t *dl = ssched_i_mt_mpz_array(g->n_left), *dr = ssched_i_mt_mpz_array(g->n_right);
    if (!dl || !dr) {
        ssched_i_mt_mpz_array_free(dl, g->n_left);
        ssched_i_mt_mpz_array_free(dr, g->n_right);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory computing degrees");
    }
    ssched_i_mt_degrees(g, dl, dr);
    mpz_set_ui(D, 0);
    st = SSCHED_OK;
    for (int side = 0; side < 2 && st == SSCHED_OK; side++) {
        size_t n = side ? g->n_right : g->n_left;
        mpz_t *deg = side ? dr : dl;
        for (size_t x = 0; x < n; x++) {
            if (T && mpz_cmp(deg[x], T) > 0) {
                char *sd = mpz_get_str(NULL, 10, deg[x]);
                char *st_ = mpz_get_str(NULL, 10, T);
                ssched_error_set(err, SSCHED_EINPUT, "%s %zu has weighted degree %s > bound T = %s",
                                 side ? "receiver" : "sender", x, sd ? sd : "?", st_ ? st_ : "?");
                free(sd);
                free(st_);
                st = SSCHED_EINPUT;
                break;
            }
            if (mpz_cmp(deg[x], D) > 0)
                mpz_set(D, deg[x]);
        }
    }
    ssched_i_mt_mpz_array_free(dl, g->n_left);
    ssched_i_mt_mpz_array_free(dr, g->n_right);
    return st;
}

ssched_status_t ssched_bipartite_max_degree(const ssched_bipartite_t *g, mpz_t out,
                                            ssched_error_t *err)
{
    return ssched_i_mt_check_input(g, NULL, out, err);
}

SSCHED_I_ENUM_FUNCTIONS(matching_rule, ssched_matching_rule_t, "matching rule", "bottleneck",
                        "arbitrary")
