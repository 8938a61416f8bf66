/* Ordering utilities shared by the makespan algorithms: a binary min-heap
 * and a stable sort of index arrays, both with a caller context (qsort has
 * none, and a global would not be thread-safe). */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_mk_heap_init(mk_heap_t *h, size_t cap,
                             int (*less)(const void *ctx, size_t a, size_t b), const void *ctx,
                             ssched_error_t *err)
{
    h->len = 0;
    h->cap = cap;
    h->less = less;
    h->ctx = ctx;
    h->item = ssched_i_alloc(cap, sizeof *h->item);
    return h->item ? SSCHED_OK : ssched_i_mk_nomem(err);
}

void ssched_i_mk_heap_free(mk_heap_t *h)
{
    free(h->item);
    h->item = NULL;
    h->len = h->cap = 0;
}

void ssched_i_mk_heap_push(mk_heap_t *h, size_t x)
{
    size_t i = h->len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!h->less(h->ctx, x, h->item[parent]))
            break;
        h->item[i] = h->item[parent];
        i = parent;
    }
    h->item[i] = x;
}

size_t ssched_i_mk_heap_pop(mk_heap_t *h)
{
    size_t top = h->item[0], x = h->item[--h->len], i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        size_t best = x;
        if (l < h->len && h->less(h->ctx, h->item[l], best)) {
            m = l;
            best = h->item[l];
        }
        if (r < h->len && h->less(h->ctx, h->item[r], best))
            m = r;
        if (m == i)
            break;
        h->item[i] = h->item[m];
        i = m;
    }
    if (h->len > 0)
        h->item[i] = x;
    return top;
}

static void merge_pass(size_t *a, size_t *tmp, size_t n,
                       int (*cmp)(const void *ctx, size_t a, size_t b), const void *ctx)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_pass(a, tmp, h, cmp, ctx);
    merge_pass(a + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = cmp(ctx, a[j], a[i]) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[o++] = a[i++];
    while (j < n)
        tmp[o++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

ssched_status_t ssched_i_mk_sort_indices(size_t *idx, size_t n,
                                int (*cmp)(const void *ctx, size_t a, size_t b), const void *ctx,
                                ssched_error_t *err)
{
    if (n < 2)
        return SSCHED_OK;
    size_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return ssched_i_mk_nomem(err);
    merge_pass(idx, tmp, n, cmp, ctx);
    free(tmp);
    return SSCHED_OK;
}

ssched_status_t ssched_i_mk_others_sorted(const ssched_mk_cluster_t *c, size_t skip,
                                          int (*cmp)(const void *ctx, size_t a, size_t b),
                                          size_t **order, ssched_error_t *err)
{
    size_t m = c->n - 1;
    if (!(*order = ssched_i_alloc(m, sizeof **order)))
        return ssched_i_mk_nomem(err);
    for (size_t p = 0, i = 0; p < c->n; p++)
        if (p != skip)
            (*order)[i++] = p;
    ssched_status_t st = ssched_i_mk_sort_indices(*order, m, cmp, c, err);
    if (st != SSCHED_OK) {
        free(*order);
        *order = NULL;
    }
    return st;
}
