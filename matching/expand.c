/* From rounds on the padded graph back to steps on the caller's edges.
 *
 * A pair of the padded graph stands for a run of the caller's parallel edges
 * followed by its slack (regularize.c).  Each pair is consumed front to back
 * like a tape: a round that holds pair p for λ units consumes the next λ
 * units of p's timeline.  When a timeline boundary (the end of one caller
 * edge, or the start of the slack) falls strictly inside the round, the
 * round is cut there: before the cut the sender works on one message, after
 * it on the next one (that is the RR-4872 §3.3 "split" of a transfer).
 * Within each piece every padded node still uses exactly one pair, so every
 * piece is a matching of caller edges; slack segments are simply left out.
 *
 * Cost of the cuts (the bound reported in the result): a boundary is crossed
 * once in the whole decomposition, so the cuts add at most
 * Σ_p (segments(p) - 1) steps to the number of rounds.
 *
 * Lazy mode (arbitrary rule, qheap.c): instead of advancing all n matched
 * timelines by λ each round (two GMP calls per pair per round), a matched
 * pair keeps the absolute time nb at which its current segment ends; only
 * the pairs with nb <= S + λ, taken from the heap, run the walk below, with
 * used[] brought up to date first.  Same events, same pieces. */
#include <stdlib.h>
#include <string.h>

#include "matching/internal.h"
#include "src/util/internal.h"

void ssched_i_mt_expand_free(mt_expand_t *x)
{
    free(x->seg);
    ssched_i_mt_mpz_array_free(x->used, x->pg ? x->pg->n_pairs : 0);
    free(x->ev_node);
    free(x->ev_order);
    free(x->ev_tmp);
    ssched_i_mt_mpz_array_free(x->ev_offset, x->event_cap);
    free(x->cur);
    free(x->piece);
    mpz_clear(x->remaining);
    mpz_clear(x->offset);
    mpz_clear(x->len);
    if (x->lazy) {
        ssched_i_mt_mpz_array_free(x->nb, x->nb ? x->pg->n_pairs : 0);
        free(x->prev);
        ssched_i_mt_qheap_free(&x->q);
        mpz_clear(x->S);
        mpz_clear(x->E);
    }
    memset(x, 0, sizeof *x);
}

ssched_status_t ssched_i_mt_expand_lazy(mt_expand_t *x)
{
    size_t n = x->pg->n;
    x->lazy = 1;
    mpz_init(x->S);
    mpz_init(x->E);
    x->nb = ssched_i_mt_mpz_array(x->pg->n_pairs);
    x->prev = ssched_i_alloc(n, sizeof *x->prev);
    if (!x->nb || !x->prev ||
        ssched_i_mt_qheap_init(&x->q, x->pg->n_pairs, (const mpz_t *)x->nb) != SSCHED_OK)
        return SSCHED_ENOMEM;
    for (size_t u = 0; u < n; u++)
        x->prev[u] = MT_NONE;
    return SSCHED_OK;
}

/* Returns SSCHED_OK or SSCHED_ENOMEM (x is then freed). */
ssched_status_t ssched_i_mt_expand_init(mt_expand_t *x, const ssched_bipartite_t *g, const mt_padded_t *pg)
{
    memset(x, 0, sizeof *x);
    x->g = g;
    x->pg = pg;
    mpz_init(x->remaining);
    mpz_init(x->offset);
    mpz_init(x->len);
    size_t n = pg->n ? pg->n : 1;
    x->seg = ssched_i_calloc(pg->n_pairs, sizeof *x->seg);
    x->used = ssched_i_mt_mpz_array(pg->n_pairs);
    x->cur = malloc(n * sizeof *x->cur);
    x->piece = malloc(n * sizeof *x->piece);
    if (!x->seg || !x->used || !x->cur || !x->piece) {
        ssched_i_mt_expand_free(x);
        return SSCHED_ENOMEM;
    }
    return SSCHED_OK;
}

/* Number of timeline segments of pair p and the length of segment s. */
static size_t n_segments(const mt_expand_t *x, size_t p)
{
    const mt_padded_t *pg = x->pg;
    return pg->edge_start[p + 1] - pg->edge_start[p] + (mpz_sgn(pg->slack[p]) ? 1 : 0);
}

static const mpz_t *segment_length(const mt_expand_t *x, size_t p, size_t s)
{
    const mt_padded_t *pg = x->pg;
    size_t k = pg->edge_start[p + 1] - pg->edge_start[p];
    if (s < k)
        return (const mpz_t *)&x->g->edges[pg->edges[pg->edge_start[p] + s]].weight;
    return (const mpz_t *)&pg->slack[p];
}

static int push_event(mt_expand_t *x, size_t u, const mpz_t offset)
{
    if (x->n_events == x->event_cap) {
        size_t cap = x->event_cap ? 2 * x->event_cap : 64;
        size_t *a = realloc(x->ev_node, cap * sizeof *a);
        if (!a)
            return -1;
        x->ev_node = a;
        size_t *b = realloc(x->ev_order, cap * sizeof *b);
        if (!b)
            return -1;
        x->ev_order = b;
        size_t *c = realloc(x->ev_tmp, cap * sizeof *c);
        if (!c)
            return -1;
        x->ev_tmp = c;
        mpz_t *o = realloc(x->ev_offset, cap * sizeof *o);
        if (!o)
            return -1;
        for (size_t i = x->event_cap; i < cap; i++)
            mpz_init(o[i]);
        x->ev_offset = o;
        x->event_cap = cap;
    }
    x->ev_node[x->n_events] = u;
    mpz_set(x->ev_offset[x->n_events], offset);
    x->n_events++;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Append the piece "current segments of every matched pair, for `length`
 * units" to out, leaving out slack segments; an all-slack piece is dropped. */
static int emit_piece(mt_expand_t *x, const size_t *mate_l, const mpz_t length,
                      ssched_matching_result_t *out)
{
    const mt_padded_t *pg = x->pg;
    size_t k = 0;
    for (size_t u = 0; u < pg->n; u++) {
        size_t p = mate_l[u], s = x->cur[u];
        if (s < pg->edge_start[p + 1] - pg->edge_start[p])
            x->piece[k++] = pg->edges[pg->edge_start[p] + s];
    }
    if (k == 0)
        return 0;
    if (out->n_matchings == x->out_cap) {
        size_t cap = x->out_cap ? 2 * x->out_cap : 16;
        ssched_matching_t *m = realloc(out->matchings, cap * sizeof *m);
        if (!m)
            return -1;
        out->matchings = m;
        x->out_cap = cap;
    }
    size_t *edges = malloc(k * sizeof *edges);
    if (!edges)
        return -1;
    memcpy(edges, x->piece, k * sizeof *edges);
    size_t sorted = 1; /* edges sorted by sender come sorted: check first */
    while (sorted < k && edges[sorted - 1] < edges[sorted])
        sorted++;
    if (sorted < k)
        qsort(edges, k, sizeof *edges, cmp_size);
    ssched_matching_t *m = &out->matchings[out->n_matchings++];
    mpz_init_set(m->lambda, length);
    m->n_edges = k;
    m->edges = edges;
    return 0;
}

/* One round: walk every matched pair's timeline for lambda units, record the
 * boundaries crossed strictly inside (0, lambda) as events, then emit the
 * pieces between consecutive distinct event offsets.
 * Precondition: mate_l is a perfect matching of live pairs, lambda > 0 and
 * <= every matched pair's residual weight.
 * Returns SSCHED_OK, SSCHED_ENOMEM or SSCHED_EINTERNAL (timeline overrun). */
/* Walk pair p (matched to left node u) for lambda units from used[p],
 * recording the boundaries crossed strictly inside the round. */
static ssched_status_t walk(mt_expand_t *x, size_t u, size_t p, const mpz_t lambda,
                            ssched_error_t *err)
{
    mpz_set(x->remaining, lambda);
    mpz_set_ui(x->offset, 0);
    for (;;) {
        if (x->seg[p] >= n_segments(x, p))
            return ssched_error_set(err, SSCHED_EINTERNAL,
                                    "matching: round overruns pair %zu's timeline", p);
        mpz_sub(x->len, *segment_length(x, p, x->seg[p]), x->used[p]);
        if (mpz_cmp(x->len, x->remaining) > 0) {
            mpz_add(x->used[p], x->used[p], x->remaining);
            break;
        }
        mpz_add(x->offset, x->offset, x->len);
        mpz_sub(x->remaining, x->remaining, x->len);
        x->seg[p]++;
        mpz_set_ui(x->used[p], 0);
        if (mpz_sgn(x->remaining) == 0)
            break;
        if (push_event(x, u, x->offset))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory splitting a step");
    }
    return SSCHED_OK;
}

static ssched_status_t emit_round(mt_expand_t *x, const size_t *mate_l, const mpz_t lambda,
                                  ssched_matching_result_t *out, ssched_error_t *err);
static ssched_status_t expand_lazy(mt_expand_t *x, const size_t *mate_l, const mpz_t lambda,
                                   ssched_matching_result_t *out, ssched_error_t *err);

ssched_status_t ssched_i_mt_expand_round(mt_expand_t *x, const size_t *mate_l, const mpz_t lambda,
                                ssched_matching_result_t *out, ssched_error_t *err)
{
    if (x->lazy)
        return expand_lazy(x, mate_l, lambda, out, err);
    const mt_padded_t *pg = x->pg;
    x->n_events = 0;
    ssched_status_t st;
    for (size_t u = 0; u < pg->n; u++) {
        size_t p = mate_l[u];
        x->cur[u] = x->seg[p];
        /* the common case, the round ends inside the current segment
         * (used + lambda < its length): two GMP calls instead of five,
         * for each of the n pairs of every round */
        if (x->seg[p] < n_segments(x, p)) {
            mpz_add(x->len, x->used[p], lambda);
            if (mpz_cmp(x->len, *segment_length(x, p, x->seg[p])) < 0) {
                mpz_swap(x->used[p], x->len);
                continue;
            }
        }
        st = walk(x, u, p, lambda, err);
        if (st != SSCHED_OK)
            return st;
    }
    return emit_round(x, mate_l, lambda, out, err);
}

/* Lazy mode of ssched_i_mt_expand_round (see the header). */
static ssched_status_t expand_lazy(mt_expand_t *x, const size_t *mate_l, const mpz_t lambda,
                                   ssched_matching_result_t *out, ssched_error_t *err)
{
    const mt_padded_t *pg = x->pg;
    x->n_events = 0;
    for (size_t u = 0; u < pg->n; u++) {
        size_t old = x->prev[u], p = mate_l[u];
        if (old != p) {
            if (old != MT_NONE && x->q.pos[old] != MT_NONE) { /* dropped: bring used up to date */
                ssched_i_mt_qheap_remove(&x->q, old);
                mpz_sub(x->len, x->nb[old], x->S);
                mpz_sub(x->used[old], *segment_length(x, old, x->seg[old]), x->len);
            }
            if (x->seg[p] < n_segments(x, p)) {
                mpz_sub(x->nb[p], *segment_length(x, p, x->seg[p]), x->used[p]);
                mpz_add(x->nb[p], x->nb[p], x->S);
                ssched_i_mt_qheap_push(&x->q, p);
            }
            x->prev[u] = p;
        }
        x->cur[u] = x->seg[p];
    }
    mpz_add(x->E, x->S, lambda);
    while (x->q.n > 0 && mpz_cmp(x->nb[x->q.heap[0]], x->E) <= 0) {
        size_t p = x->q.heap[0];
        ssched_i_mt_qheap_remove(&x->q, p);
        mpz_sub(x->len, x->nb[p], x->S);
        mpz_sub(x->used[p], *segment_length(x, p, x->seg[p]), x->len);
        ssched_status_t st = walk(x, pg->pu[p], p, lambda, err);
        if (st != SSCHED_OK)
            return st;
        if (x->seg[p] < n_segments(x, p)) {
            mpz_sub(x->nb[p], *segment_length(x, p, x->seg[p]), x->used[p]);
            mpz_add(x->nb[p], x->nb[p], x->E);
            ssched_i_mt_qheap_push(&x->q, p);
        }
    }
    /* every pair left in q ends this round inside its segment (nb > E):
     * the eager walk's common case */
    mpz_swap(x->S, x->E);
    return emit_round(x, mate_l, lambda, out, err);
}

/* Emit the pieces of a round from its events. */
static ssched_status_t emit_round(mt_expand_t *x, const size_t *mate_l, const mpz_t lambda,
                                  ssched_matching_result_t *out, ssched_error_t *err)
{
    for (size_t i = 0; i < x->n_events; i++)
        x->ev_order[i] = i;
    ssched_i_mt_sort_by_mpz(x->ev_order, x->n_events, (const mpz_t *)x->ev_offset, 0, x->ev_tmp);
    mpz_set_ui(x->offset, 0); /* start of the current piece */
    size_t i = 0;
    while (i < x->n_events) {
        const mpz_t *at = (const mpz_t *)&x->ev_offset[x->ev_order[i]];
        mpz_sub(x->len, *at, x->offset);
        if (emit_piece(x, mate_l, x->len, out))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory storing a step");
        mpz_set(x->offset, *at);
        while (i < x->n_events && mpz_cmp(x->ev_offset[x->ev_order[i]], x->offset) == 0)
            x->cur[x->ev_node[x->ev_order[i++]]]++;
    }
    mpz_sub(x->len, lambda, x->offset);
    if (emit_piece(x, mate_l, x->len, out))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory storing a step");
    return SSCHED_OK;
}

/* Order steps by (size, edge list) to find equal ones. */
static int cmp_matching(const void *a, const void *b)
{
    const ssched_matching_t *x = *(const ssched_matching_t *const *)a;
    const ssched_matching_t *y = *(const ssched_matching_t *const *)b;
    if (x->n_edges != y->n_edges)
        return x->n_edges < y->n_edges ? -1 : 1;
    for (size_t i = 0; i < x->n_edges; i++)
        if (x->edges[i] != y->edges[i])
            return x->edges[i] < y->edges[i] ? -1 : 1;
    return x < y ? -1 : x > y; /* ties by position: first occurrence first */
}

/* Two steps with the same edge set are one step of the summed length (the
 * steps of a period can be played in any order).  Keeps the first
 * occurrence's position.  Returns SSCHED_OK or SSCHED_ENOMEM. */
ssched_status_t ssched_i_mt_merge_equal(ssched_matching_result_t *out, ssched_error_t *err)
{
    size_t r = out->n_matchings;
    if (r < 2)
        return SSCHED_OK;
    ssched_matching_t **ptr = malloc(r * sizeof *ptr);
    char *gone = calloc(r, 1);
    if (!ptr || !gone) {
        free(ptr);
        free(gone);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory merging steps");
    }
    for (size_t i = 0; i < r; i++)
        ptr[i] = &out->matchings[i];
    qsort(ptr, r, sizeof *ptr, cmp_matching);
    for (size_t i = 0; i < r;) {
        size_t j = i + 1;
        while (j < r && ptr[j]->n_edges == ptr[i]->n_edges &&
               !memcmp(ptr[j]->edges, ptr[i]->edges, ptr[i]->n_edges * sizeof *ptr[i]->edges)) {
            mpz_add(ptr[i]->lambda, ptr[i]->lambda, ptr[j]->lambda);
            gone[ptr[j] - out->matchings] = 1;
            j++;
        }
        i = j;
    }
    size_t k = 0;
    for (size_t i = 0; i < r; i++) {
        if (gone[i]) {
            mpz_clear(out->matchings[i].lambda);
            free(out->matchings[i].edges);
        } else {
            out->matchings[k++] = out->matchings[i];
        }
    }
    out->n_matchings = k;
    free(ptr);
    free(gone);
    return SSCHED_OK;
}
