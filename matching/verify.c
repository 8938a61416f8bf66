/* Independent checker of a decomposition into weighted matchings.
 *
 * It shares nothing with the construction but the input validation: it
 * re-derives every property from the caller's graph and the result alone, so
 * a bug in the padding, the matching search or the splitting shows up here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * had a report).
 *
 * Cost (issue 26): an edge's total length is the sum of λ over the
 * matchings that list it, and successive matchings mostly keep their edges
 * (the warm-started search repairs the previous one), so an edge appears in
 * runs of consecutive matchings.  With the prefix sums Pre[k] = λ_0 + .. +
 * λ_{k-1}, a run i..j adds Pre[j+1] - Pre[i]: one subtraction and one
 * addition per run instead of an mpz_add per listed edge (10^8 of them,
 * each on a separately allocated sum, for the P = 512 preemptive
 * redistribution).  The sums are exact integers of nl limbs, nl covering
 * Σ λ, which bounds every edge's sum (an edge is listed at most once per
 * matching: a second listing uses its sender twice and is reported). */
static ssched_status_t check_decomposition(const ssched_bipartite_t *g, const mpz_t T,
                                           const ssched_matching_result_t *r, ssched_error_t *err)
{
    mpz_t total, a, b; /* b: a read-only view of an edge's sum, never cleared */
    mpz_inits(total, a, NULL);
    ssched_status_t st = SSCHED_OK;
    size_t E = g->n_edges, R = r->n_matchings, nl = 1;
    mp_limb_t *pre = NULL, *sum = NULL;
    size_t *seen_l = NULL, *seen_r = NULL, *by_l = NULL, *by_r = NULL, *run = NULL, *last = NULL;
    if (R && !r->matchings) {
        st = ssched_error_set(err, SSCHED_EINTERNAL, "%zu matchings but no array", R);
        goto done;
    }
    for (size_t i = 0; i < R; i++) {
        if (mpz_sgn(r->matchings[i].lambda) <= 0) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "matching %zu has a non-positive length",
                                  i);
            goto done;
        }
        mpz_add(total, total, r->matchings[i].lambda);
    }
    nl = mpz_size(total) + 1;
    pre = ssched_i_alloc((R + 1) * nl, sizeof *pre);
    sum = ssched_i_calloc(E * nl, sizeof *sum);
    /* seen_x[node] = 1 + index of the last matching that used the node,
     * by_x[node] = the edge that used it there (for the message);
     * edge e's current run is run[e]..last[e] (last[e] = MT_NONE: none) */
    seen_l = ssched_i_calloc(g->n_left, sizeof *seen_l);
    seen_r = ssched_i_calloc(g->n_right, sizeof *seen_r);
    by_l = ssched_i_calloc(g->n_left, sizeof *by_l);
    by_r = ssched_i_calloc(g->n_right, sizeof *by_r);
    run = ssched_i_alloc(E, sizeof *run);
    last = ssched_i_alloc(E, sizeof *last);
    if (!pre || !sum || !seen_l || !seen_r || !by_l || !by_r || !run || !last) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory verifying matchings");
        goto done;
    }
    mpz_set_ui(a, 0);
    for (size_t i = 0; i <= R; i++) { /* Pre[i], exact: each <= Σ λ < 2^(64·nl) */
        memset(pre + i * nl, 0, nl * sizeof *pre);
        mpz_export(pre + i * nl, NULL, -1, sizeof *pre, 0, 0, a);
        if (i < R)
            mpz_add(a, a, r->matchings[i].lambda);
    }
    for (size_t e = 0; e < E; e++)
        last[e] = MT_NONE;
    mp_limb_t carry = 0;
    for (size_t i = 0; i < R && st == SSCHED_OK; i++) {
        const ssched_matching_t *m = &r->matchings[i];
        if (m->n_edges && !m->edges) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "matching %zu has no edge array", i);
            break;
        }
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
            if (last[e] != MT_NONE && last[e] + 1 == i) { /* the run goes on */
                last[e] = i;
                continue;
            }
            if (last[e] != MT_NONE) { /* close the run run[e]..last[e] */
                carry |= mpn_add_n(sum + e * nl, sum + e * nl, pre + (last[e] + 1) * nl,
                                   (mp_size_t)nl);
                carry |= mpn_sub_n(sum + e * nl, sum + e * nl, pre + run[e] * nl, (mp_size_t)nl);
            }
            run[e] = last[e] = i;
        }
    }
    if (st != SSCHED_OK)
        goto done;
    for (size_t e = 0; e < E; e++)
        if (last[e] != MT_NONE) {
            carry |= mpn_add_n(sum + e * nl, sum + e * nl, pre + (last[e] + 1) * nl, (mp_size_t)nl);
            carry |= mpn_sub_n(sum + e * nl, sum + e * nl, pre + run[e] * nl, (mp_size_t)nl);
        }
    if (carry) { /* impossible: every partial sum lies in [0, Σ λ] */
        st = ssched_error_set(err, SSCHED_EINTERNAL, "matching check: edge sums out of range");
        goto done;
    }
    for (size_t e = 0; e < E; e++) {
        size_t k = nl;
        while (k > 0 && sum[e * nl + k - 1] == 0)
            k--;
        mpz_srcptr se = mpz_roinit_n(b, sum + e * nl, (mp_size_t)k);
        if (mpz_cmp(se, g->edges[e].weight) != 0) {
            char what[96];
            snprintf(what, sizeof what, "edge %zu: total length of its matchings vs its weight", e);
            st = fail2(err, what, se, g->edges[e].weight);
            goto done;
        }
    }
    if (mpz_cmp(total, r->total) != 0) {
        st = fail2(err, "sum of the lengths vs the reported total", total, r->total);
        goto done;
    }
    if (mpz_cmp(total, T) > 0)
        st = fail2(err, "sum of the lengths exceeds the bound T", total, T);

done:
    free(pre);
    free(sum);
    free(seen_l);
    free(seen_r);
    free(by_l);
    free(by_r);
    free(run);
    free(last);
    mpz_clears(total, a, NULL);
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
