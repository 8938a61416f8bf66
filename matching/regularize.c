/* Padding the caller's graph to a D-regular bipartite graph.
 *
 * Why: a D-regular bipartite multigraph has a perfect matching (König; Hall's
 * condition holds because any k nodes of one side carry k·D weight, which
 * needs at least k neighbours), and subtracting λ from the edges of a perfect
 * matching leaves a (D-λ)-regular graph.  That invariant is what makes the
 * round loop of decompose.c always succeed (Schrijver vol. A, Thm 20.1 and
 * the weighted form, Cor. 20.1a).
 *
 * How, keeping the padding small:
 *   - D is the maximum weighted degree, not the caller's T: every unit of
 *     T - D would only be slack to pad and match away;
 *   - nodes of degree 0 are left out entirely;
 *   - dummy nodes are added only to the smaller side, to equalise the sides;
 *   - the slack first goes onto existing (sender, receiver) pairs, which
 *     adds no new edge to the support, and each such step exhausts the slack
 *     of one of its endpoints;
 *   - the remaining slack is laid out with the north-west-corner rule of the
 *     transportation problem: each new dummy edge exhausts the slack of at
 *     least one node, so at most (#nodes with slack left) - 1 are added.
 * Real nodes are never merged: merging two senders whose degrees add up to
 * at most D would shrink the padding but forbid them to send at the same
 * time, which can only lengthen the decomposition (two disjoint edges of
 * weight 1, D = 2: one matching unmerged, two merged). */
#include <stdlib.h>
#include <string.h>

#include "matching/internal.h"
#include "src/util/internal.h"

void ssched_i_mt_padded_free(mt_padded_t *p)
{
    free(p->pu);
    free(p->pv);
    free(p->edge_start);
    free(p->edges);
    ssched_i_mt_mpz_array_free(p->w, p->n_pairs);
    ssched_i_mt_mpz_array_free(p->slack, p->n_pairs);
    mpz_clear(p->degree);
    memset(p, 0, sizeof *p);
}

/* Stable counting sort of idx[0..n) by key(idx) in [0, n_keys). */
static int counting_sort(size_t *idx, size_t n, const ssched_bipartite_t *g, int by_right,
                         size_t n_keys)
{
    size_t *count = calloc(n_keys + 1, sizeof *count);
    size_t *tmp = ssched_i_alloc(n, sizeof *tmp);
    if (!count || !tmp) {
        free(count);
        free(tmp);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const ssched_bipartite_edge_t *e = &g->edges[idx[i]];
        count[(by_right ? e->right : e->left) + 1]++;
    }
    for (size_t k = 0; k < n_keys; k++)
        count[k + 1] += count[k];
    for (size_t i = 0; i < n; i++) {
        const ssched_bipartite_edge_t *e = &g->edges[idx[i]];
        tmp[count[by_right ? e->right : e->left]++] = idx[i];
    }
    memcpy(idx, tmp, n * sizeof *idx);
    free(count);
    free(tmp);
    return 0;
}

/* Build the padded graph (see the file comment).  Preconditions: g valid
 * with at least one edge, D = its max weighted degree.  Returns SSCHED_OK,
 * SSCHED_ENOMEM, or SSCHED_EINTERNAL if the degrees do not come out equal. */
ssched_status_t ssched_i_mt_regularize(const ssched_bipartite_t *g, const mpz_t D, mt_padded_t *out,
                              ssched_error_t *err)
{
    ssched_status_t st = SSCHED_ENOMEM;
    size_t E = g->n_edges;
    mpz_t *dl = ssched_i_mt_mpz_array(g->n_left), *dr = ssched_i_mt_mpz_array(g->n_right);
    size_t *map_l = ssched_i_alloc(g->n_left, sizeof *map_l);
    size_t *map_r = ssched_i_alloc(g->n_right, sizeof *map_r);
    size_t *order = ssched_i_alloc(E, sizeof *order);
    mpz_t *def_l = NULL, *def_r = NULL, a;
    size_t n = 0, cap = 0;

    memset(out, 0, sizeof *out);
    mpz_init_set(out->degree, D);
    mpz_init(a);
    if (!dl || !dr || !map_l || !map_r || !order)
        goto done;
    ssched_i_mt_degrees(g, dl, dr);

    /* Active nodes only: an isolated node needs no step at all. */
    size_t al = 0, ar = 0;
    for (size_t u = 0; u < g->n_left; u++)
        map_l[u] = mpz_sgn(dl[u]) ? al++ : MT_NONE;
    for (size_t v = 0; v < g->n_right; v++)
        map_r[v] = mpz_sgn(dr[v]) ? ar++ : MT_NONE;
    n = al > ar ? al : ar;

    /* Group parallel edges: sort by (left, right), stable on the index. */
    for (size_t i = 0; i < E; i++)
        order[i] = i;
    if (counting_sort(order, E, g, 1, g->n_right) || counting_sort(order, E, g, 0, g->n_left))
        goto done;
    size_t m_real = 0;
    for (size_t i = 0; i < E; i++)
        if (i == 0 || g->edges[order[i]].left != g->edges[order[i - 1]].left ||
            g->edges[order[i]].right != g->edges[order[i - 1]].right)
            m_real++;

    /* North-west corner adds at most 2n - 1 pairs. */
    cap = m_real + 2 * n;
    out->pu = malloc(cap * sizeof *out->pu);
    out->pv = malloc(cap * sizeof *out->pv);
    out->edge_start = malloc((cap + 1) * sizeof *out->edge_start);
    out->edges = order;
    order = NULL;
    out->w = ssched_i_mt_mpz_array(cap);
    out->slack = ssched_i_mt_mpz_array(cap);
    out->n_pairs = cap; /* so that ssched_i_mt_padded_free clears every mpz */
    def_l = ssched_i_mt_mpz_array(n);
    def_r = ssched_i_mt_mpz_array(n);
    if (!out->pu || !out->pv || !out->edge_start || !out->w || !out->slack || !def_l || !def_r)
        goto done;
    out->n = n;

    size_t p = 0;
    for (size_t i = 0; i < E; i++) {
        const ssched_bipartite_edge_t *e = &g->edges[out->edges[i]];
        if (i == 0 || e->left != g->edges[out->edges[i - 1]].left ||
            e->right != g->edges[out->edges[i - 1]].right) {
            out->edge_start[p] = i;
            out->pu[p] = map_l[e->left];
            out->pv[p] = map_r[e->right];
            p++;
        }
        mpz_add(out->w[p - 1], out->w[p - 1], e->weight);
    }

    /* Deficits; dummy nodes (index >= al or >= ar) have the full D. */
    for (size_t x = 0; x < n; x++) {
        mpz_set(def_l[x], D);
        mpz_set(def_r[x], D);
    }
    for (size_t u = 0; u < g->n_left; u++)
        if (map_l[u] != MT_NONE)
            mpz_sub(def_l[map_l[u]], D, dl[u]);
    for (size_t v = 0; v < g->n_right; v++)
        if (map_r[v] != MT_NONE)
            mpz_sub(def_r[map_r[v]], D, dr[v]);

    /* Slack on existing pairs first: no new support edge. */
    for (size_t q = 0; q < p; q++) {
        mpz_t *x = &def_l[out->pu[q]], *y = &def_r[out->pv[q]];
        if (mpz_sgn(*x) == 0 || mpz_sgn(*y) == 0)
            continue;
        mpz_set(a, mpz_cmp(*x, *y) < 0 ? *x : *y);
        mpz_set(out->slack[q], a);
        mpz_add(out->w[q], out->w[q], a);
        mpz_sub(*x, *x, a);
        mpz_sub(*y, *y, a);
        out->n_slack++;
    }

    /* North-west corner for the rest. */
    size_t i = 0, j = 0;
    for (;;) {
        while (i < n && mpz_sgn(def_l[i]) == 0)
            i++;
        while (j < n && mpz_sgn(def_r[j]) == 0)
            j++;
        if (i == n || j == n || p == cap)
            break;
        mpz_set(a, mpz_cmp(def_l[i], def_r[j]) < 0 ? def_l[i] : def_r[j]);
        out->edge_start[p] = E;
        out->pu[p] = i;
        out->pv[p] = j;
        mpz_set(out->w[p], a);
        mpz_set(out->slack[p], a);
        mpz_sub(def_l[i], def_l[i], a);
        mpz_sub(def_r[j], def_r[j], a);
        out->n_slack++;
        p++;
    }
    out->edge_start[p] = E;
    for (size_t x = 0; x < n; x++)
        if (mpz_sgn(def_l[x]) || mpz_sgn(def_r[x])) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "matching: padding left padded node %zu unbalanced", x);
            goto done;
        }
    /* Shrink the bookkeeping to the pairs actually used. */
    for (size_t q = p; q < cap; q++) {
        mpz_clear(out->w[q]);
        mpz_clear(out->slack[q]);
    }
    out->n_pairs = p;
    st = SSCHED_OK;

done:
    if (st == SSCHED_ENOMEM)
        ssched_error_set(err, SSCHED_ENOMEM, "out of memory padding the bipartite graph");
    if (st != SSCHED_OK)
        ssched_i_mt_padded_free(out);
    mpz_clear(a);
    ssched_i_mt_mpz_array_free(def_l, n);
    ssched_i_mt_mpz_array_free(def_r, n);
    ssched_i_mt_mpz_array_free(dl, g->n_left);
    ssched_i_mt_mpz_array_free(dr, g->n_right);
    free(map_l);
    free(map_r);
    free(order);
    return st;
}
