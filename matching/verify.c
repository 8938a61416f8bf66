/* Independent checker of a decomposition into weighted matchings.
 *
 * It shares nothing with the construction but the input validation: it
 * re-derives every property from the caller's graph and the result alone, so
 * a bug in the padding, the matching search or the splitting shows up here. */
#include <stdio.h>
#include <stdlib.h>

#include "matching/internal.h"
#include "src/util/check_report.h"
#include "src/util/internal.h"

/* Format "what: a vs b" with two mpz values into err. */
static ssched_status_t fail2(ssched_error_t *err, const char *what, const mpz_t a, const mpz_t b)
{
    char *sa = mpz_get_str(NULL, 10, a), *sb = mpz_get_str(NULL, 10, b);
    ssched_error_set(err, SSCHED_EINTERNAL, "%s: %s vs %s", what, sa ? sa : "?", sb ? sb : "?");
    free(sa);
    free(sb);
    return SSCHED_EINTERNAL;
}

/* Every property of r for a valid g and T; a failing one is EINTERNAL in
 * err (the status the decomposition reported for it before the checker
 * had a report). */
static ssched_status_t check_decomposition(const ssched_bipartite_t *g, const mpz_t T,
                                           const ssched_matching_result_t *r, ssched_error_t *err)
{
    mpz_t total;
    mpz_init(total);
    ssched_status_t st = SSCHED_OK;
    size_t E = g->n_edges;
    mpz_t *sum = NULL;
    size_t *seen_l = NULL, *seen_r = NULL, *by_l = NULL, *by_r = NULL;
    if (r->n_matchings && !r->matchings) {
        st = ssched_error_set(err, SSCHED_EINTERNAL, "%zu matchings but no array", r->n_matchings);
        goto done;
    }
    sum = ssched_i_mt_mpz_array(E);
    /* seen_x[node] = 1 + index of the last matching that used the node,
     * by_x[node] = the edge that used it there (for the message). */
    seen_l = ssched_i_calloc(g->n_left, sizeof *seen_l);
    seen_r = ssched_i_calloc(g->n_right, sizeof *seen_r);
    by_l = ssched_i_calloc(g->n_left, sizeof *by_l);
    by_r = ssched_i_calloc(g->n_right, sizeof *by_r);
    if (!sum || !seen_l || !seen_r || !by_l || !by_r) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory verifying matchings");
        goto done;
    }
    for (size_t i = 0; i < r->n_matchings && st == SSCHED_OK; i++) {
        const ssched_matching_t *m = &r->matchings[i];
        if (mpz_sgn(m->lambda) <= 0) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "matching %zu has a non-positive length",
                                  i);
            break;
        }
        if (m->n_edges && !m->edges) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "matching %zu has no edge array", i);
            break;
        }
        mpz_add(total, total, m->lambda);
        for (size_t j = 0; j < m->n_edges; j++) {
            size_t e = m->edges[j];
            if (e >= E) {
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "matching %zu lists edge %zu, but the graph has %zu edges", i,
                                      e, E);
                break;
            }
            size_t u = g->edges[e].left, v = g->edges[e].right;
            if (seen_l[u] == i + 1) {
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "matching %zu uses sender %zu twice (edges %zu and %zu)", i,
                                      u, by_l[u], e);
                break;
            }
            if (seen_r[v] == i + 1) {
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "matching %zu uses receiver %zu twice (edges %zu and %zu)", i,
                                      v, by_r[v], e);
                break;
            }
            seen_l[u] = seen_r[v] = i + 1;
            by_l[u] = by_r[v] = e;
            mpz_add(sum[e], sum[e], m->lambda);
        }
    }
    if (st != SSCHED_OK)
        goto done;
    for (size_t e = 0; e < E; e++)
        if (mpz_cmp(sum[e], g->edges[e].weight) != 0) {
            char what[96];
            snprintf(what, sizeof what, "edge %zu: total length of its matchings vs its weight", e);
            st = fail2(err, what, sum[e], g->edges[e].weight);
            goto done;
        }
    if (mpz_cmp(total, r->total) != 0) {
        st = fail2(err, "sum of the lengths vs the reported total", total, r->total);
        goto done;
    }
    if (mpz_cmp(total, T) > 0)
        st = fail2(err, "sum of the lengths exceeds the bound T", total, T);

done:
    ssched_i_mt_mpz_array_free(sum, E);
    free(seen_l);
    free(seen_r);
    free(by_l);
    free(by_r);
    mpz_clear(total);
    return st;
}

ssched_status_t ssched_matching_check(const ssched_bipartite_t *g, const mpz_t T,
                                      const ssched_matching_result_t *r,
                                      ssched_check_report_t *report, ssched_error_t *err)
{
    mpz_t D;
    mpz_init(D);
    ssched_status_t st = ssched_i_mt_check_input(g, T, D, err);
    mpz_clear(D);
    if (st != SSCHED_OK)
        return st;
    ssched_error_t verr;
    ssched_error_clear(&verr);
    st = check_decomposition(g, T, r, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINTERNAL, &verr, report, err);
}
