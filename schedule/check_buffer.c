/* Checker: buffer occupancy, exact (GMP), for the reference simulations
 * of unrolled files (check_unrolled.c, check_unrolled_reduce.c).
 *
 * "buffer_peak" is the most a node ever holds for others, in messages
 * (check_internal.h and the callers say what is held when).  Holding
 * starts at an event's start and ends at an event's end; events come in
 * start order but ends do not, so pending releases wait in a min-heap by
 * end.  At equal times releases come first: the acquisitions of one time
 * are queued and applied when time moves on (a zero-length computation
 * listed after them may still release at that time), after every release
 * that ends by then.  During one time only acquisitions happen, so the
 * held amounts after the queue are the peaks of that time.
 *
 * A deferred buffer (ssched_i_chk_buf_new_deferred) takes acquisitions in any
 * order: it keeps every event and replays them sorted at the end (an
 * all-reduce's copies are known to be held only once their forwards are
 * seen, after later reduce events). */
#include <stdlib.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

typedef struct {
    mpq_t end, amount;
    size_t node;
} rel_t;

typedef struct {
    mpq_t amount;
    size_t node;
} acq_t;

/* Deferred mode: an event kept until ssched_i_chk_buf_finish. */
typedef struct {
    mpq_t t, amount;
    size_t node;
    int acquire;                   /* 0: release (first at equal times)  */
} rec_t;

struct chk_buf {
    size_t nn;
    mpq_t *held, *peak, now;
    int started, nomem;
    rel_t *heap;                   /* entries [0, nheap) live; their mpq are
                                      initialized up to capheap           */
    size_t nheap, capheap;
    acq_t *acq;                    /* acquisitions at `now`              */
    size_t nacq, capacq;
    int deferred;                  /* keep events, sort them at the end  */
    rec_t *rec;
    size_t nrec, caprec;
};

chk_buf_t *ssched_i_chk_buf_new(size_t nn)
{
    chk_buf_t *B = calloc(1, sizeof *B);
    if (!B)
        return NULL;
    B->nn = nn;
    B->held = ssched_i_alloc(nn, sizeof *B->held);
    B->peak = ssched_i_alloc(nn, sizeof *B->peak);
    if (!B->held || !B->peak) {
        free(B->held);
        free(B->peak);
        free(B);
        return NULL;
    }
    for (size_t v = 0; v < nn; v++)
        mpq_inits(B->held[v], B->peak[v], NULL);
    mpq_init(B->now);
    return B;
}

void ssched_i_chk_buf_free(chk_buf_t *B)
{
    if (!B)
        return;
    for (size_t v = 0; v < B->nn; v++)
        mpq_clears(B->held[v], B->peak[v], NULL);
    for (size_t k = 0; k < B->capheap; k++)
        mpq_clears(B->heap[k].end, B->heap[k].amount, NULL);
    for (size_t k = 0; k < B->capacq; k++)
        mpq_clear(B->acq[k].amount);
    for (size_t k = 0; k < B->nrec; k++)
        mpq_clears(B->rec[k].t, B->rec[k].amount, NULL);
    free(B->rec);
    mpq_clear(B->now);
    free(B->held);
    free(B->peak);
    free(B->heap);
    free(B->acq);
    free(B);
}

static void swap(rel_t *a, rel_t *b)
{
    rel_t t = *a;
    *a = *b;
    *b = t;
}

/* Pop every release with end <= now, then apply the queued acquisitions. */
static void flush(chk_buf_t *B)
{
    while (B->nheap && mpq_cmp(B->heap[0].end, B->now) <= 0) {
        rel_t *r = &B->heap[0];
        mpq_sub(B->held[r->node], B->held[r->node], r->amount);
        swap(&B->heap[0], &B->heap[--B->nheap]); /* the popped entry stays
                                                    initialized past nheap */
        for (size_t i = 0;;) {
            size_t a = 2 * i + 1, m = i;
            if (a < B->nheap && mpq_cmp(B->heap[a].end, B->heap[m].end) < 0)
                m = a;
            if (a + 1 < B->nheap && mpq_cmp(B->heap[a + 1].end, B->heap[m].end) < 0)
                m = a + 1;
            if (m == i)
                break;
            swap(&B->heap[i], &B->heap[m]);
            i = m;
        }
    }
    for (size_t k = 0; k < B->nacq; k++) {
        size_t v = B->acq[k].node;
        mpq_add(B->held[v], B->held[v], B->acq[k].amount);
        if (mpq_cmp(B->held[v], B->peak[v]) > 0)
            mpq_set(B->peak[v], B->held[v]);
    }
    B->nacq = 0;
}

chk_buf_t *ssched_i_chk_buf_new_deferred(size_t nn)
{
    chk_buf_t *B = ssched_i_chk_buf_new(nn);
    if (B)
        B->deferred = 1;
    return B;
}

static int record(chk_buf_t *B, size_t node, const mpq_t t, const mpq_t amount, int acquire)
{
    if (B->nrec == B->caprec) {
        size_t cap = B->caprec ? 2 * B->caprec : 256;
        rec_t *r = realloc(B->rec, cap * sizeof *r);
        if (!r) {
            B->nomem = 1;
            return 0;
        }
        B->rec = r;
        B->caprec = cap;
    }
    rec_t *r = &B->rec[B->nrec++];
    mpq_inits(r->t, r->amount, NULL);
    mpq_set(r->t, t);
    mpq_set(r->amount, amount);
    r->node = node;
    r->acquire = acquire;
    return 1;
}

static int rec_cmp(const void *a, const void *b)
{
    const rec_t *x = a, *y = b;
    int c = mpq_cmp(x->t, y->t);
    return c ? c : x->acquire - y->acquire;
}

void ssched_i_chk_buf_acquire(chk_buf_t *B, size_t node, const mpq_t at, const mpq_t amount)
{
    if (B->nomem)
        return;
    if (B->deferred) {
        record(B, node, at, amount, 1);
        return;
    }
    if (B->started && mpq_cmp(at, B->now) != 0)
        flush(B);
    B->started = 1;
    mpq_set(B->now, at);
    if (B->nacq == B->capacq) {
        size_t cap = B->capacq ? 2 * B->capacq : 64;
        acq_t *a = realloc(B->acq, cap * sizeof *a);
        if (!a) {
            B->nomem = 1;
            return;
        }
        for (size_t k = B->capacq; k < cap; k++)
            mpq_init(a[k].amount);
        B->acq = a;
        B->capacq = cap;
    }
    B->acq[B->nacq].node = node;
    mpq_set(B->acq[B->nacq++].amount, amount);
}

void ssched_i_chk_buf_release(chk_buf_t *B, size_t node, const mpq_t end, const mpq_t amount)
{
    if (B->nomem)
        return;
    if (B->deferred) {
        record(B, node, end, amount, 0);
        return;
    }
    if (B->nheap == B->capheap) {
        size_t cap = B->capheap ? 2 * B->capheap : 64;
        rel_t *h = realloc(B->heap, cap * sizeof *h);
        if (!h) {
            B->nomem = 1;
            return;
        }
        for (size_t k = B->capheap; k < cap; k++)
            mpq_inits(h[k].end, h[k].amount, NULL);
        B->heap = h;
        B->capheap = cap;
    }
    size_t i = B->nheap++;
    mpq_set(B->heap[i].end, end);
    mpq_set(B->heap[i].amount, amount);
    B->heap[i].node = node;
    while (i && mpq_cmp(B->heap[i].end, B->heap[(i - 1) / 2].end) < 0) {
        swap(&B->heap[i], &B->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
}

int ssched_i_chk_buf_finish(chk_buf_t *B, mpq_t peak, size_t *node)
{
    if (B->nomem)
        return 0;
    if (B->deferred) {
        /* in time order, releases first at equal times: each release is
         * in the heap before time moves past its end, as when streamed */
        if (B->nrec > 1)
            qsort(B->rec, B->nrec, sizeof *B->rec, rec_cmp);
        B->deferred = 0;
        for (size_t k = 0; k < B->nrec; k++)
            (B->rec[k].acquire ? ssched_i_chk_buf_acquire : ssched_i_chk_buf_release)(B, B->rec[k].node,
                                                                  B->rec[k].t,
                                                                  B->rec[k].amount);
        if (B->nomem)
            return 0;
    }
    flush(B);
    size_t best = 0;
    for (size_t v = 1; v < B->nn; v++)
        if (mpq_cmp(B->peak[v], B->peak[best]) > 0)
            best = v;
    if (B->nn)
        mpq_set(peak, B->peak[best]);
    else
        mpq_set_ui(peak, 0, 1);
    *node = best;
    return 1;
}
