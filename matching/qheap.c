/* An indexed binary min-heap of pairs keyed by exact integers (mpz), for
 * the lazy rounds of the arbitrary rule (decompose.c, expand.c).
 *
 * Why: a round of the decomposition lasts λ = the smallest residual weight
 * of its n matched pairs, subtracts λ from all n and advances all n pair
 * timelines by λ (expand.c).  Done eagerly that is ~4n GMP calls per round
 * for rounds ≈ pairs: Θ(pairs·n) multi-limb operations, 40 % of the P = 512
 * preemptive redistribution (2.6·10^5 rounds × 512 pairs).  Kept lazily, a
 * matched pair stores the absolute time (Σ λ so far) at which its next event
 * falls (its death, or the end of its current timeline segment); the heap
 * gives the next one, and a pair is touched only when its event falls in
 * the round or when the matching drops it.  Ties by pair index: the order
 * only decides which equal-time event is handled first, never a value. */
#include <stdlib.h>

#include "matching/internal.h"

ssched_status_t ssched_i_mt_qheap_init(mt_qheap_t *q, size_t n_pairs, const mpz_t *key)
{
    size_t m = n_pairs ? n_pairs : 1;
    q->heap = malloc(m * sizeof *q->heap);
    q->pos = malloc(m * sizeof *q->pos);
    q->n = 0;
    q->key = key;
    if (!q->heap || !q->pos) {
        ssched_i_mt_qheap_free(q);
        return SSCHED_ENOMEM;
    }
    for (size_t p = 0; p < n_pairs; p++)
        q->pos[p] = MT_NONE;
    return SSCHED_OK;
}

void ssched_i_mt_qheap_free(mt_qheap_t *q)
{
    free(q->heap);
    free(q->pos);
    q->heap = q->pos = NULL;
    q->n = 0;
}

static int qless(const mt_qheap_t *q, size_t a, size_t b)
{
    int c = mpz_cmp(q->key[a], q->key[b]);
    return c < 0 || (c == 0 && a < b);
}

static void place(mt_qheap_t *q, size_t i, size_t p)
{
    q->heap[i] = p;
    q->pos[p] = i;
}

static void sift_up(mt_qheap_t *q, size_t i)
{
    size_t p = q->heap[i];
    while (i > 0 && qless(q, p, q->heap[(i - 1) / 2])) {
        place(q, i, q->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    place(q, i, p);
}

static void sift_down(mt_qheap_t *q, size_t i)
{
    size_t p = q->heap[i];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = l;
        if (l >= q->n)
            break;
        if (r < q->n && qless(q, q->heap[r], q->heap[l]))
            m = r;
        if (!qless(q, q->heap[m], p))
            break;
        place(q, i, q->heap[m]);
        i = m;
    }
    place(q, i, p);
}

void ssched_i_mt_qheap_push(mt_qheap_t *q, size_t p)
{
    q->heap[q->n] = p;
    q->pos[p] = q->n;
    sift_up(q, q->n++);
}

void ssched_i_mt_qheap_remove(mt_qheap_t *q, size_t p)
{
    size_t i = q->pos[p];
    q->pos[p] = MT_NONE;
    if (i == --q->n)
        return;
    size_t last = q->heap[q->n];
    place(q, i, last);
    if (i > 0 && qless(q, last, q->heap[(i - 1) / 2]))
        sift_up(q, i);
    else
        sift_down(q, i);
}
