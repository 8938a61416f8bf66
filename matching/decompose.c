/* Weighted bipartite edge colouring: the round loop.
 *
 * The algorithm is the constructive proof of the weighted König theorem
 * (Schrijver, Combinatorial Optimization vol. A, ch. 20; RR-4872 §3.3):
 *
 *   1. pad g to a D-regular bipartite graph G' (regularize.c);
 *   2. while G' has an edge: take a perfect matching M of its positive
 *      edges (one exists: G' stays regular), λ = min_{e ∈ M} w(e), emit
 *      (M, λ), subtract λ on M.  G' is now (D-λ)-regular.
 *
 * Σ λ = D because each round lowers the common degree by λ.  Each round
 * zeroes at least one pair and the last one zeroes all n remaining pairs
 * (they form a single perfect matching), so rounds <= m' - n + 1 for m'
 * pairs.  Mapping rounds back to the caller's edges cuts a round at most
 * once per timeline boundary (expand.c), hence
 *     r <= (m' - n + 1) + Σ_p (segments(p) - 1) = |E| + slack - n + 1.
 *
 * The perfect matching of step 2 is a bottleneck one by default
 * (bottleneck.c); pairs are kept sorted by residual weight so the thresholds
 * are ranks.  After a round only the n matched pairs changed, all by the same
 * λ, so their relative order is unchanged: re-sorting is one O(m') merge of
 * two sorted lists instead of a full sort.
 *
 * The arbitrary rule keeps the residual weights lazily (qheap.c): a matched
 * pair holds death[p] = S + w(p), S = Σ λ so far, and λ = min death - S; w
 * is written back only when the matching drops a live pair.  Same λ, same
 * matchings, same output; O(changes · log n) GMP calls per round instead of
 * 2n. */
#include <stdlib.h>
#include <string.h>

#include "matching/internal.h"

void ssched_matching_result_init(ssched_matching_result_t *r)
{
    memset(r, 0, sizeof *r);
    mpz_init(r->total);
}

static void result_reset(ssched_matching_result_t *r)
{
    for (size_t i = 0; i < r->n_matchings; i++) {
        mpz_clear(r->matchings[i].lambda);
        free(r->matchings[i].edges);
    }
    free(r->matchings);
    r->matchings = NULL;
    r->n_matchings = 0;
    mpz_set_ui(r->total, 0);
    r->padded_nodes = r->padded_edges = r->slack_edges = r->rounds = r->bound = 0;
}

void ssched_matching_result_free(ssched_matching_result_t *r)
{
    result_reset(r);
    mpz_clear(r->total);
}

typedef struct {
    size_t *order, *tmp, *b_list; /* live pairs by decreasing weight */
    size_t n_live;
    char *in_m;
} ranking_t;

/* Ranks from the order: equal weights share a rank.  Returns #groups. */
static size_t assign_ranks(const ranking_t *k, const mt_padded_t *pg, size_t *rank)
{
    size_t g = 0;
    for (size_t i = 0; i < k->n_live; i++) {
        if (i > 0 && mpz_cmp(pg->w[k->order[i]], pg->w[k->order[i - 1]]) != 0)
            g++;
        rank[k->order[i]] = g;
    }
    return k->n_live ? g + 1 : 0;
}

/* After subtracting λ on the pairs flagged in_m: drop the dead ones and merge
 * the (still sorted) matched survivors back among the others. */
static void rerank(ranking_t *k, const mt_padded_t *pg)
{
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < k->n_live; i++) {
        size_t p = k->order[i];
        if (!k->in_m[p])
            k->tmp[na++] = p;
        else if (mpz_sgn(pg->w[p]) > 0)
            k->b_list[nb++] = p;
    }
    size_t i = 0, j = 0, o = 0;
    while (i < na && j < nb)
        k->order[o++] =
            mpz_cmp(pg->w[k->b_list[j]], pg->w[k->tmp[i]]) > 0 ? k->b_list[j++] : k->tmp[i++];
    while (i < na)
        k->order[o++] = k->tmp[i++];
    while (j < nb)
        k->order[o++] = k->b_list[j++];
    k->n_live = o;
}

/* Lazy residual weights of the arbitrary rule (see the header). */
typedef struct {
    mt_qheap_t q;     /* matched live pairs by death            */
    mpz_t *death;     /* per pair, valid while in q             */
    size_t *prev;     /* per left node: its pair last round     */
} lazy_t;

static ssched_status_t lazy_init(lazy_t *z, size_t n_pairs, size_t n)
{
    z->death = ssched_i_mt_mpz_array(n_pairs);
    z->prev = ssched_i_alloc(n, sizeof *z->prev);
    if (!z->death || !z->prev || ssched_i_mt_qheap_init(&z->q, n_pairs, (const mpz_t *)z->death))
        return SSCHED_ENOMEM;
    for (size_t u = 0; u < n; u++)
        z->prev[u] = MT_NONE;
    return SSCHED_OK;
}

static void lazy_free(lazy_t *z, size_t n_pairs)
{
    ssched_i_mt_mpz_array_free(z->death, z->death ? n_pairs : 0);
    free(z->prev);
    ssched_i_mt_qheap_free(&z->q);
}

/* After a matching search: a live pair the matching dropped gets its weight
 * back (death - S); a pair it took gets its death (S + w). */
static void lazy_sync(lazy_t *z, mt_padded_t *pg, const size_t *mate_l, const mpz_t S)
{
    for (size_t u = 0; u < pg->n; u++) {
        size_t old = z->prev[u], p = mate_l[u];
        if (old == p)
            continue;
        if (old != MT_NONE && z->q.pos[old] != MT_NONE) {
            ssched_i_mt_qheap_remove(&z->q, old);
            mpz_sub(pg->w[old], z->death[old], S);
        }
        mpz_add(z->death[p], S, pg->w[p]);
        ssched_i_mt_qheap_push(&z->q, p);
        z->prev[u] = p;
    }
}

/* The round loop on the padded graph pg (consumed: its weights reach 0). */
static ssched_status_t run_rounds(const ssched_bipartite_t *g, mt_padded_t *pg,
                                  ssched_matching_rule_t rule, ssched_matching_result_t *out,
                                  ssched_error_t *err)
{
    ssched_status_t st = SSCHED_OK;
    mt_hk_t h;
    mt_expand_t x;
    ranking_t k = {0};
    size_t m = pg->n_pairs ? pg->n_pairs : 1;
    mpz_t lambda, S;
    mpz_init(lambda);
    mpz_init(S);
    lazy_t lz = {0};
    if (ssched_i_mt_hk_init(&h, pg) != SSCHED_OK) {
        mpz_clear(lambda);
        mpz_clear(S);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the matching search");
    }
    if (ssched_i_mt_expand_init(&x, g, pg) != SSCHED_OK) {
        ssched_i_mt_hk_free(&h);
        mpz_clear(lambda);
        mpz_clear(S);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the matching search");
    }
    k.order = malloc(m * sizeof *k.order);
    k.tmp = malloc(m * sizeof *k.tmp);
    k.b_list = malloc(m * sizeof *k.b_list);
    k.in_m = calloc(m, 1);
    int ranked = rule == SSCHED_MATCHING_BOTTLENECK;
    if (!k.order || !k.tmp || !k.b_list || !k.in_m ||
        (!ranked && (lazy_init(&lz, pg->n_pairs, h.n) != SSCHED_OK ||
                     ssched_i_mt_expand_lazy(&x) != SSCHED_OK))) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the matching search");
        goto done;
    }
    /* The arbitrary rule needs no order: every live pair has rank 0. */
    for (size_t p = 0; p < pg->n_pairs; p++)
        k.order[p] = p;
    k.n_live = pg->n_pairs;
    size_t n_groups = 1;
    if (ranked) {
        ssched_i_mt_sort_by_mpz(k.order, k.n_live, (const mpz_t *)pg->w, 1, k.tmp);
        n_groups = assign_ranks(&k, pg, h.rank);
    }

    while (k.n_live > 0) {
        int ok = ranked ? ssched_i_mt_bottleneck_perfect(&h, n_groups) == 0 : ssched_i_mt_hk_maximize(&h, 0) == h.n;
        if (!ok) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "matching: no perfect matching in a regular graph (round %zu)",
                                  out->rounds);
            goto done;
        }
        if (!ranked) {
            lazy_sync(&lz, pg, h.mate_l, S);
            mpz_sub(lambda, lz.death[lz.q.heap[0]], S);
        } else {
            mpz_set(lambda, pg->w[h.mate_l[0]]);
            for (size_t u = 1; u < h.n; u++)
                if (mpz_cmp(pg->w[h.mate_l[u]], lambda) < 0)
                    mpz_set(lambda, pg->w[h.mate_l[u]]);
        }
        st = ssched_i_mt_expand_round(&x, h.mate_l, lambda, out, err);
        if (st != SSCHED_OK)
            goto done;
        out->rounds++;
        if (!ranked) {
            mpz_add(S, S, lambda);
            /* the pairs whose death is now: weight 0, dead (their left
             * nodes, distinct, listed in k.tmp for the compaction) */
            size_t n_dead = 0;
            while (lz.q.n > 0 && mpz_cmp(lz.death[lz.q.heap[0]], S) == 0) {
                size_t p = lz.q.heap[0];
                ssched_i_mt_qheap_remove(&lz.q, p);
                mpz_set_ui(pg->w[p], 0);
                h.rank[p] = MT_NONE; /* dead: ssched_i_mt_hk_maximize unmatches it */
                k.n_live--;
                k.tmp[n_dead++] = pg->pu[p];
            }
            ssched_i_mt_hk_compact_nodes(&h, k.tmp, n_dead);
            continue;
        }
        for (size_t u = 0; u < h.n; u++) {
            size_t p = h.mate_l[u];
            mpz_sub(pg->w[p], pg->w[p], lambda);
            k.in_m[p] = 1;
            if (mpz_sgn(pg->w[p]) == 0)
                h.rank[p] = MT_NONE; /* dead: ssched_i_mt_hk_maximize unmatches it */
        }
        if (ranked) {
            rerank(&k, pg);
            n_groups = assign_ranks(&k, pg, h.rank);
        } else {
            for (size_t u = 0; u < h.n; u++)
                k.n_live -= h.rank[h.mate_l[u]] == MT_NONE;
        }
        for (size_t u = 0; u < h.n; u++)
            k.in_m[h.mate_l[u]] = 0;
        ssched_i_mt_hk_compact(&h);
    }

done:
    free(k.order);
    free(k.tmp);
    free(k.b_list);
    free(k.in_m);
    ssched_i_mt_expand_free(&x);
    ssched_i_mt_hk_free(&h);
    mpz_clear(lambda);
    mpz_clear(S);
    lazy_free(&lz, pg->n_pairs);
    return st;
}

ssched_status_t ssched_matching_decompose(const ssched_bipartite_t *g, const mpz_t T,
                                          ssched_matching_rule_t rule,
                                          ssched_matching_result_t *out, ssched_error_t *err)
{
    if (rule != SSCHED_MATCHING_BOTTLENECK && rule != SSCHED_MATCHING_ARBITRARY)
        return ssched_error_set(err, SSCHED_EINPUT, "unknown matching rule %d", (int)rule);
    result_reset(out);
    out->rule = rule;
    mpz_t D;
    mpz_init(D);
    ssched_status_t st = ssched_i_mt_check_input(g, T, D, err);
    if (st != SSCHED_OK || g->n_edges == 0) {
        mpz_clear(D);
        return st;
    }

    mt_padded_t pg;
    st = ssched_i_mt_regularize(g, D, &pg, err);
    if (st != SSCHED_OK) {
        mpz_clear(D);
        return st;
    }
    out->padded_nodes = pg.n;
    out->padded_edges = pg.n_pairs;
    out->slack_edges = pg.n_slack;
    out->bound = g->n_edges + pg.n_slack - pg.n + 1;
    st = run_rounds(g, &pg, rule, out, err);
    ssched_i_mt_padded_free(&pg);
    if (st == SSCHED_OK)
        st = ssched_i_mt_merge_equal(out, err);
    if (st == SSCHED_OK) {
        for (size_t i = 0; i < out->n_matchings; i++)
            mpz_add(out->total, out->total, out->matchings[i].lambda);
        /* Σλ = D: the max-degree node is busy in every step. */
        if (mpz_cmp(out->total, D) != 0 || out->n_matchings > out->bound)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "matching: decomposition total or count off (r = %zu, bound %zu)",
                                  out->n_matchings, out->bound);
    }
    if (st == SSCHED_OK) {
        ssched_check_report_t rep;
        st = ssched_matching_check(g, T, out, &rep, err);
        if (st == SSCHED_OK && !rep.valid) /* our own result is wrong: a bug */
            st = ssched_error_set(err, SSCHED_EINTERNAL, "matching: self-check failed: %s",
                                  rep.violation);
    }
    if (st != SSCHED_OK)
        result_reset(out);
    mpz_clear(D);
    return st;
}
