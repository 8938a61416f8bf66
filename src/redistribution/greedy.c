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
 * Then (issue 26) no rank[] and no scan of R_i: R_i is a bit row, and the
 * receiver of least key in R_i is the first of order[] whose bit is set, so
 * the scan stops at the first hit instead of reading all of R_i (P·K²/2
 * gathers), and moving j back is one memmove (no rank updates).
 *
 * Exact times on machine words (issue 26).  Every time of the schedule is a
 * sum of message costs, so with L the LCM of the costs' denominators it is
 * an integer multiple of 1/L, and it never exceeds the sum of all costs.
 * Times are therefore held as numerators over L in NL limbs, NL chosen from
 * that sum (no carry can leave them: the bound is proved, not hoped), and
 * compared/added with mpn_cmp/mpn_add_n on contiguous arrays.  mpq_add
 * canonicalised every end by gcds of ~300-bit numbers (L = lcm(10..200)
 * at bandwidths 10..200) and the mpq times lay scattered on the heap.  The
 * stored records stay canonical mpq: an end is t/L reduced once; a start is
 * 0 or a copy of the end of the transfer that freed that processor.
 * Guarantee (seed 003 Lemma): completion <= one row sum + one column sum of C
 * <= twice the lower bound. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "src/util/internal.h"
#include "ssched/rational.h"

/* Times: NL limbs each, time p at base + p·NL. */
typedef struct {
    mp_limb_t *v;
    size_t nl;
} times_t;

static const mp_limb_t *tm(const times_t *t, size_t p)
{
    return t->v + p * t->nl;
}

static int tcmp(const times_t *t, size_t a, size_t b)
{
    return mpn_cmp(tm(t, a), tm(t, b), (mp_size_t)t->nl);
}

typedef struct {
    size_t *heap, n;
    const times_t *key; /* sendavail: times 0..P-1 */
} heap_t;

static int less(const heap_t *h, size_t a, size_t b)
{
    int c = tcmp(h->key, a, b);
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

/* Receivers sorted by (recvavail, index) in order[]. */
typedef struct {
    uint32_t *order;
    size_t P;
} ranking_t;

/* recvavail[j] of the receiver j = order[q] has just risen: move it back to
 * its place, shifting the receivers it passes one place forward. */
static void rerank(ranking_t *k, const times_t *avail, size_t P, size_t q, uint32_t j)
{
    size_t lo = q + 1, hi = k->P; /* new place in [lo - 1, hi - 1] */
    while (lo < hi) {             /* first q with key(order[q]) > key(j) */
        size_t mid = lo + (hi - lo) / 2;
        uint32_t o = k->order[mid];
        int c = tcmp(avail, P + o, P + j); /* receiver times follow the P senders' */
        if (c > 0 || (c == 0 && o > j))
            hi = mid;
        else
            lo = mid + 1;
    }
    memmove(k->order + q, k->order + q + 1, (lo - 1 - q) * sizeof *k->order);
    k->order[lo - 1] = j;
}

/* Costs as numerators over L in nl limbs (w[e·nl ..]), L and nl chosen as
 * the header says.  0 or -1 (ENOMEM). */
static int scale_costs(const ssched_redist_t *r, mpz_t L, mp_limb_t **w_out, size_t *nl_out)
{
    size_t M = r->n_messages;
    mpz_t we, sum;
    mpz_init(we);
    mpz_init(sum);
    mpz_set_ui(L, 1);
    for (size_t e = 0; e < M; e++)
        ssched_rational_lcm_den(L, r->messages[e].cost);
    for (size_t e = 0; e < M; e++) {
        mpz_divexact(we, L, mpq_denref(r->messages[e].cost));
        mpz_addmul(sum, we, mpq_numref(r->messages[e].cost));
    }
    /* every time <= sum: nl limbs hold it (and a transfer's end) */
    size_t nl = mpz_size(sum) + 1;
    mp_limb_t *w = ssched_i_calloc(M * nl, sizeof *w);
    for (size_t e = 0; w && e < M; e++) {
        mpz_divexact(we, L, mpq_denref(r->messages[e].cost));
        mpz_mul(we, we, mpq_numref(r->messages[e].cost));
        mpz_export(w + e * nl, NULL, -1, sizeof *w, 0, 0, we);
    }
    mpz_clear(we);
    mpz_clear(sum);
    *w_out = w;
    *nl_out = nl;
    return w ? 0 : -1;
}

ssched_status_t ssched_i_rd_greedy(const ssched_redist_t *r, ssched_redist_schedule_t *s,
                                   ssched_error_t *err)
{
    size_t P = r->P, M = r->n_messages, nl = 1, W = (P + 63) / 64;
    mpz_t L;
    mpz_init(L);
    mp_limb_t *w = NULL;
    int wfail = scale_costs(r, L, &w, &nl);
    /* R_i: a bit per receiver (row i of member), left[i] of them set;
     * msg[i·P + j] = the message i -> j */
    uint64_t *member = ssched_i_calloc(P * W, sizeof *member);
    size_t *left = calloc(P, sizeof *left);
    uint32_t *msg = ssched_i_alloc(P * P, sizeof *msg);
    uint32_t *order = ssched_i_alloc(P, sizeof *order);
    size_t *heap = malloc(P * sizeof *heap);
    /* per processor (senders 0..P-1, receivers P..2P-1): its free time and
     * the transfer whose end that is (SIZE_MAX: time 0) */
    mp_limb_t *avail = ssched_i_calloc(2 * P * nl, sizeof *avail);
    size_t *freed_by = ssched_i_alloc(2 * P, sizeof *freed_by);
    mp_limb_t *end = ssched_i_alloc(nl, sizeof *end);
    if (wfail || !member || !left || !msg || !order || !heap || !avail || !freed_by || !end) {
        free(w);
        free(member);
        free(left);
        free(msg);
        free(order);
        free(heap);
        free(avail);
        free(freed_by);
        free(end);
        mpz_clear(L);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the greedy schedule");
    }
    times_t av = {avail, nl};
    mpq_t zero, qend, amount;
    mpq_init(zero);
    mpq_init(qend);
    mpq_init(amount);
    for (size_t p = 0; p < 2 * P; p++)
        freed_by[p] = SIZE_MAX;
    ranking_t rk = {order, P};
    for (size_t p = 0; p < P; p++) /* every recvavail is 0: index order */
        order[p] = (uint32_t)p;
    for (size_t e = 0; e < M; e++) {
        size_t i = r->messages[e].src, j = r->messages[e].dst;
        member[i * W + j / 64] |= (uint64_t)1 << (j % 64);
        msg[i * P + j] = (uint32_t)e; /* M < P² <= 2^20 */
        left[i]++;
    }
    heap_t h = {heap, 0, &av};
    for (size_t p = 0; p < P; p++)
        if (left[p])
            heap_push(&h, p);

    ssched_status_t st = SSCHED_OK;
    while (h.n > 0) {
        size_t i = heap_pop(&h), q = 0;
        uint64_t *row = member + i * W;
        /* the receiver of R_i of least key: the first of order[] in R_i
         * (R_i is not empty: i is in the queue) */
        while (!(row[order[q] / 64] >> (order[q] % 64) & 1))
            q++;
        uint32_t j = order[q];
        size_t e = msg[i * P + j];
        size_t from = tcmp(&av, i, P + j) >= 0 ? i : P + j; /* t = the later free time */
        mp_limb_t carry = mpn_add_n(end, tm(&av, from), w + e * nl, (mp_size_t)nl);
        if (carry) { /* impossible by the bound on nl: never a wrong number */
            st = ssched_error_set(err, SSCHED_EINTERNAL, "greedy: time beyond its proved bound");
            break;
        }
        mpz_t num;
        mpq_set_num(qend, mpz_roinit_n(num, end, (mp_size_t)nl));
        mpq_set_den(qend, L);
        mpq_canonicalize(qend);
        mpq_set_ui(amount, r->messages[e].elements, 1);
        size_t fb = freed_by[from];
        if (ssched_i_rd_add_transfer(s, e, zero, qend, amount)) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the greedy schedule");
            break;
        }
        if (fb != SIZE_MAX) /* the start is the end of the transfer that freed it */
            mpq_set(s->transfers[s->n_transfers - 1].start, s->transfers[fb].end);
        memcpy(avail + i * nl, end, nl * sizeof *end);
        memcpy(avail + (P + j) * nl, end, nl * sizeof *end);
        freed_by[i] = freed_by[P + j] = s->n_transfers - 1;
        rerank(&rk, &av, P, q, j);
        row[j / 64] &= ~((uint64_t)1 << (j % 64)); /* delete j from R_i */
        if (--left[i])
            heap_push(&h, i);
    }
    mpq_clear(zero);
    mpq_clear(qend);
    mpq_clear(amount);
    mpz_clear(L);
    free(w);
    free(member);
    free(left);
    free(msg);
    free(order);
    free(heap);
    free(avail);
    free(freed_by);
    free(end);
    return st;
}
