/* The adaptive greedy heuristic of seed 003 §4.3.
 *
 * Every processor is a sender and a receiver.  sendavail[i] / recvavail[j]
 * are the times at which sender i / receiver j become free (initially 0).
 * Senders are processed in increasing order of availability (ties by index:
 * the seed allows any order, a fixed one makes the result reproducible).
 * When sender i becomes available it scans its remaining receiver set R_i,
 * picks the receiver j that becomes free first (ties: smallest j), and sends
 * to it at t = max(sendavail[i], recvavail[j]); both are then busy until
 * t + C(i,j).  A sender with an empty R_i leaves the queue.
 *
 * Cost.  P·K events; each scans at most K receivers.  The scan compared
 * exact rationals (mpq_cmp, 37 % of the time and most of the GMP time at
 * P = 512), so that P·K² exact comparisons made P = 1024, K = 1023 take
 * 87 s.  The receivers are now kept sorted by the key (recvavail[j], j) in
 * order[], with rank[j] = position of j: the receiver of least key in R_i is
 * the one of least rank, an integer comparison on a small array.  An event
 * raises only its receiver's key (end > recvavail[j], every cost being
 * positive), so j moves towards the back of order[]: its new place is found
 * by a binary search (O(log P) exact comparisons) and the receivers it
 * passes move one place forward (O(P) integer moves).  Total: O(PK·(K + P))
 * integer steps and O(PK log P) exact comparisons; the choice of every event
 * is the same as the rational scan's, since ranks order the same keys.
 * Guarantee (seed 003 Lemma): completion <= one row sum + one column sum of C
 * <= twice the lower bound. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "src/util/internal.h"

typedef struct {
    size_t *heap, n;
    const mpq_t *key; /* sendavail */
} heap_t;

static int less(const heap_t *h, size_t a, size_t b)
{
    int c = mpq_cmp(h->key[a], h->key[b]);
    return c < 0 || (c == 0 && a < b);
}

static void heap_push(heap_t *h, size_t x)
{
    size_t i = h->n++;
    h->heap[i] = x;
    while (i > 0 && less(h, h->heap[i], h->heap[(i - 1) / 2])) {
        size_t t = h->heap[i];
        h->heap[i] = h->heap[(i - 1) / 2];
        h->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static size_t heap_pop(heap_t *h)
{
    size_t top = h->heap[0];
    h->heap[0] = h->heap[--h->n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && less(h, h->heap[l], h->heap[m]))
            m = l;
        if (r < h->n && less(h, h->heap[r], h->heap[m]))
            m = r;
        if (m == i)
            break;
        size_t t = h->heap[i];
        h->heap[i] = h->heap[m];
        h->heap[m] = t;
        i = m;
    }
    return top;
}

/* Receivers sorted by (recvavail, index): order[rank[j]] = j. */
typedef struct {
    uint32_t *order, *rank;
    size_t P;
} ranking_t;

/* recvavail[j] has just risen: move j back to its place, shifting the
 * receivers it passes one place forward. */
static void rerank(ranking_t *k, const mpq_t *recvavail, uint32_t j)
{
    size_t lo = (size_t)k->rank[j] + 1, hi = k->P; /* new place in [lo - 1, hi - 1] */
    while (lo < hi) {                              /* first q with key(order[q]) > key(j) */
        size_t mid = lo + (hi - lo) / 2;
        uint32_t o = k->order[mid];
        int c = mpq_cmp(recvavail[o], recvavail[j]);
        if (c > 0 || (c == 0 && o > j))
            hi = mid;
        else
            lo = mid + 1;
    }
    for (size_t q = k->rank[j]; q + 1 < lo; q++) {
        k->order[q] = k->order[q + 1];
        k->rank[k->order[q]] = (uint32_t)q;
    }
    k->order[lo - 1] = j;
    k->rank[j] = (uint32_t)(lo - 1);
}

ssched_status_t ssched_i_rd_greedy(const ssched_redist_t *r, ssched_redist_schedule_t *s,
                                   ssched_error_t *err)
{
    size_t P = r->P, M = r->n_messages;
    /* R_i: messages of sender i (r->messages is sorted by source), as a
     * compactable list: rset[first[i] .. first[i] + left[i]), with their
     * receivers beside them in rdst (the scan reads only rdst and rank). */
    size_t *first = calloc(P + 1, sizeof *first), *left = calloc(P, sizeof *left);
    size_t *rset = ssched_i_alloc(M, sizeof *rset);
    uint32_t *rdst = ssched_i_alloc(M, sizeof *rdst);
    uint32_t *ranks = ssched_i_alloc(2 * P, sizeof *ranks);
    size_t *heap = malloc(P * sizeof *heap);
    mpq_t *avail = malloc(2 * P * sizeof *avail), t, end, amount;
    if (!first || !left || !rset || !rdst || !ranks || !heap || !avail) {
        free(first);
        free(left);
        free(rset);
        free(rdst);
        free(ranks);
        free(heap);
        free(avail);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the greedy schedule");
    }
    mpq_t *sendavail = avail, *recvavail = avail + P;
    for (size_t p = 0; p < 2 * P; p++)
        mpq_init(avail[p]);
    mpq_init(t);
    mpq_init(end);
    mpq_init(amount);
    ranking_t rk = {ranks, ranks + P, P};
    for (size_t p = 0; p < P; p++) /* every recvavail is 0: index order */
        rk.order[p] = rk.rank[p] = (uint32_t)p;
    for (size_t e = 0; e < M; e++) {
        first[r->messages[e].src + 1]++;
        rset[e] = e;
        rdst[e] = (uint32_t)r->messages[e].dst;
    }
    for (size_t p = 0; p < P; p++) {
        left[p] = first[p + 1];
        first[p + 1] += first[p];
    }
    heap_t h = {heap, 0, (const mpq_t *)sendavail};
    for (size_t p = 0; p < P; p++)
        if (left[p])
            heap_push(&h, p);

    ssched_status_t st = SSCHED_OK;
    while (h.n > 0) {
        size_t i = heap_pop(&h), n = left[i], best = 0;
        size_t *R = rset + first[i];
        const uint32_t *D = rdst + first[i], *rank = rk.rank;
        uint32_t best_rank = rank[D[0]];
        for (size_t k = 1; k < n; k++)
            if (rank[D[k]] < best_rank) {
                best_rank = rank[D[k]];
                best = k;
            }
        const ssched_redist_message_t *m = &r->messages[R[best]];
        mpq_set(t,
                mpq_cmp(sendavail[i], recvavail[m->dst]) >= 0 ? sendavail[i] : recvavail[m->dst]);
        mpq_add(end, t, m->cost);
        mpq_set_ui(amount, m->elements, 1);
        if (ssched_i_rd_add_transfer(s, R[best], t, end, amount)) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the greedy schedule");
            break;
        }
        mpq_set(sendavail[i], end);
        mpq_set(recvavail[m->dst], end);
        rerank(&rk, (const mpq_t *)recvavail, (uint32_t)m->dst);
        R[best] = R[--left[i]]; /* delete j from R_i */
        rdst[first[i] + best] = rdst[first[i] + left[i]];
        if (left[i])
            heap_push(&h, i);
    }
    for (size_t p = 0; p < 2 * P; p++)
        mpq_clear(avail[p]);
    mpq_clear(t);
    mpq_clear(end);
    mpq_clear(amount);
    free(first);
    free(left);
    free(rset);
    free(rdst);
    free(ranks);
    free(heap);
    free(avail);
    return st;
}
