/* Sparse rational vectors and exact sparse Gaussian elimination. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/internal.h"

void ssched_i_spvec_init(spvec_t *v)
{
    memset(v, 0, sizeof *v);
}

void ssched_i_spvec_free(spvec_t *v)
{
    for (size_t k = 0; k < v->nnz; k++)
        mpq_clear(v->vals[k]);
    free(v->idx);
    free(v->vals);
    memset(v, 0, sizeof *v);
}

static int spvec_reserve(spvec_t *v, size_t cap)
{
    if (cap <= v->cap)
        return 1;
    size_t *idx = realloc(v->idx, cap * sizeof *idx);
    if (!idx)
        return 0;
    v->idx = idx;
    mpq_t *vals = realloc(v->vals, cap * sizeof *vals);
    if (!vals)
        return 0;
    v->vals = vals;
    v->cap = cap;
    return 1;
}

int ssched_i_spvec_push(spvec_t *v, size_t i, const mpq_t q)
{
    if (v->nnz == v->cap && !spvec_reserve(v, v->cap ? 2 * v->cap : 4))
        return 0;
    v->idx[v->nnz] = i;
    mpq_init(v->vals[v->nnz]);
    mpq_set(v->vals[v->nnz], q);
    v->nnz++;
    return 1;
}

/* dst = dst - f * src over the columns still active (dst and src sorted).
 * New fill-in positions are reported through col_rows so the elimination
 * can find every row holding a column. */
typedef struct {
    size_t n;
    size_t **rows;   /* per column: row ids that may hold it (stale allowed) */
    size_t *len, *cap;
} colmap_t;

static int colmap_add(colmap_t *m, size_t col, size_t row)
{
    if (m->len[col] == m->cap[col]) {
        size_t cap = m->cap[col] ? 2 * m->cap[col] : 4;
        size_t *r = realloc(m->rows[col], cap * sizeof *r);
        if (!r)
            return 0;
        m->rows[col] = r;
        m->cap[col] = cap;
    }
    m->rows[col][m->len[col]++] = row;
    return 1;
}

static int axpy_row(spvec_t *dst, size_t dst_id, const spvec_t *src, const mpq_t f,
                    colmap_t *map, size_t *colcount, mpq_t tmp)
{
    spvec_t out;
    ssched_i_spvec_init(&out);
    if (!spvec_reserve(&out, dst->nnz + src->nnz)) {
        ssched_i_spvec_free(&out); /* idx may have been allocated before vals failed */
        return 0;
    }
    size_t a = 0, b = 0;
    while (a < dst->nnz || b < src->nnz) {
        size_t ia = a < dst->nnz ? dst->idx[a] : SIZE_MAX;
        size_t ib = b < src->nnz ? src->idx[b] : SIZE_MAX;
        if (ia < ib) {
            out.idx[out.nnz] = ia;
            mpq_init(out.vals[out.nnz]);
            mpq_swap(out.vals[out.nnz], dst->vals[a]);
            out.nnz++;
            a++;
        } else if (ib < ia) {
            mpq_mul(tmp, f, src->vals[b]);
            mpq_neg(tmp, tmp);
            out.idx[out.nnz] = ib;
            mpq_init(out.vals[out.nnz]);
            mpq_swap(out.vals[out.nnz], tmp);
            out.nnz++;
            colcount[ib]++;
            if (!colmap_add(map, ib, dst_id)) {
                ssched_i_spvec_free(&out);
                return 0;
            }
            b++;
        } else {
            mpq_mul(tmp, f, src->vals[b]);
            mpq_sub(tmp, dst->vals[a], tmp);
            if (mpq_sgn(tmp) != 0) {
                out.idx[out.nnz] = ia;
                mpq_init(out.vals[out.nnz]);
                mpq_swap(out.vals[out.nnz], tmp);
                out.nnz++;
            } else {
                colcount[ia]--;
            }
            a++;
            b++;
        }
    }
    ssched_i_spvec_free(dst);
    *dst = out;
    return 1;
}

/* Position of column `col` in row r (binary search), or SIZE_MAX. */
static size_t find_col(const spvec_t *r, size_t col)
{
    size_t lo = 0, hi = r->nnz;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r->idx[mid] < col)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < r->nnz && r->idx[lo] == col) ? lo : SIZE_MAX;
}

/* Pivot queue: a binary min-heap of (entry count, row id) pairs with lazy
 * deletion.  Every change of a row's length pushes a fresh pair; a pair is
 * current while its row is active and still has that length, and stale
 * pairs are dropped when they reach the top.  The current top is therefore
 * the active row with fewest entries, lowest row id first among equals:
 * the row the former linear scan chose (first row with at most one entry,
 * else the first row of minimum length), at O(log n) cost per change instead
 * of O(n) per elimination step.  (One difference: an empty active row now
 * ends the elimination as soon as it appears, where the scan could still
 * pivot an earlier one-entry row first; both report a singular matrix.)
 * When stale pairs make the heap exceed 2n + 64 entries it is rebuilt from
 * the active rows, so memory stays O(n) and the rebuilds cost O(1)
 * amortized per push. */
typedef struct {
    size_t len, row;
} pq_item_t;

typedef struct {
    pq_item_t *a;
    size_t n, cap;
} pq_t;

static int pq_less(pq_item_t x, pq_item_t y)
{
    return x.len < y.len || (x.len == y.len && x.row < y.row);
}

static int pq_push(pq_t *q, size_t len, size_t row)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 64;
        pq_item_t *a = realloc(q->a, cap * sizeof *a);
        if (!a)
            return 0;
        q->a = a;
        q->cap = cap;
    }
    pq_item_t it = {len, row};
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!pq_less(it, q->a[parent]))
            break;
        q->a[i] = q->a[parent];
        i = parent;
    }
    q->a[i] = it;
    return 1;
}

/* Move the item at i down to its place among q->a[0 .. q->n). */
static void pq_sift_down(pq_t *q, size_t i, pq_item_t it)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && pq_less(q->a[c + 1], q->a[c]))
            c++;
        if (!pq_less(q->a[c], it))
            break;
        q->a[i] = q->a[c];
        i = c;
    }
    q->a[i] = it;
}

static void pq_pop(pq_t *q)
{
    pq_item_t last = q->a[--q->n];
    if (q->n > 0)
        pq_sift_down(q, 0, last);
}

/* Replace the contents by one current pair per active row (heapified). */
static void pq_rebuild(pq_t *q, size_t n, const spvec_t *rows, const unsigned char *row_done)
{
    q->n = 0;
    for (size_t i = 0; i < n; i++)
        if (!row_done[i])
            q->a[q->n++] = (pq_item_t){rows[i].nnz, i};
    for (size_t i = q->n / 2; i-- > 0;)
        pq_sift_down(q, i, q->a[i]);
}

int ssched_i_sparse_solve(size_t n, spvec_t *rows, mpq_t *rhs)
{
    if (n == 0)
        return 1;
    int result = -1;
    colmap_t map = {n, calloc(n, sizeof(size_t *)), calloc(n, sizeof(size_t)),
                    calloc(n, sizeof(size_t))};
    size_t *colcount = calloc(n, sizeof *colcount);
    unsigned char *row_done = calloc(n, 1), *col_done = calloc(n, 1);
    size_t *piv_row = malloc(n * sizeof *piv_row), *piv_col = malloc(n * sizeof *piv_col);
    pq_t queue = {NULL, 0, 0};
    mpq_t f, tmp;
    mpq_inits(f, tmp, NULL);
    if (!map.rows || !map.len || !map.cap || !colcount || !row_done || !col_done ||
        !piv_row || !piv_col)
        goto done;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < rows[i].nnz; k++) {
            colcount[rows[i].idx[k]]++;
            if (!colmap_add(&map, rows[i].idx[k], i))
                goto done;
        }
        if (!pq_push(&queue, rows[i].nnz, i))
            goto done;
    }

    for (size_t step = 0; step < n; step++) {
        /* Pivot choice: the active row with fewest entries (lowest id among
         * equals); inside it the column used by fewest rows (a cheap
         * Markowitz approximation). */
        while (queue.n > 0 && (row_done[queue.a[0].row] ||
                               rows[queue.a[0].row].nnz != queue.a[0].len))
            pq_pop(&queue); /* stale: row pivoted, or its length changed */
        if (queue.n == 0 || queue.a[0].len == 0) {
            /* An active row with no active column: singular.  (An empty
             * queue cannot happen: every active row has a current pair.) */
            result = 0;
            goto done;
        }
        size_t best_row = queue.a[0].row;
        pq_pop(&queue);
        spvec_t *pr = &rows[best_row];
        size_t best_k = 0;
        for (size_t k = 1; k < pr->nnz; k++)
            if (colcount[pr->idx[k]] < colcount[pr->idx[best_k]])
                best_k = k;
        size_t pc = pr->idx[best_k];
        piv_row[step] = best_row;
        piv_col[step] = pc;
        row_done[best_row] = 1;
        col_done[pc] = 1;
        for (size_t k = 0; k < pr->nnz; k++)
            colcount[pr->idx[k]]--;
        /* Eliminate pc from every other active row holding it. */
        for (size_t t = 0; t < map.len[pc]; t++) {
            size_t r = map.rows[pc][t];
            if (row_done[r])
                continue;
            size_t pos = find_col(&rows[r], pc);
            if (pos == SIZE_MAX)
                continue;
            mpq_div(f, rows[r].vals[pos], pr->vals[best_k]);
            /* rhs_r -= f * rhs_p */
            mpq_mul(tmp, f, rhs[best_row]);
            mpq_sub(rhs[r], rhs[r], tmp);
            /* colcount is only a pivoting heuristic: axpy_row keeps it
             * roughly right (fill-in counts up, cancellation down). */
            if (!axpy_row(&rows[r], r, pr, f, &map, colcount, tmp))
                goto done;
            if (queue.n >= 2 * n + 64)
                pq_rebuild(&queue, n, rows, row_done); /* r is active: included */
            else if (!pq_push(&queue, rows[r].nnz, r))
                goto done;
        }
    }
    /* Back substitution in reverse pivot order: the pivot row of step s
     * only holds columns pivoted at steps >= s. */
    mpq_t *z = malloc(n * sizeof *z);
    if (!z)
        goto done;
    for (size_t i = 0; i < n; i++)
        mpq_init(z[i]);
    for (size_t s = n; s-- > 0;) {
        const spvec_t *pr = &rows[piv_row[s]];
        mpq_set(f, rhs[piv_row[s]]);
        mpq_t *diag = NULL;
        for (size_t k = 0; k < pr->nnz; k++) {
            if (pr->idx[k] == piv_col[s]) {
                diag = &pr->vals[k];
                continue;
            }
            mpq_mul(tmp, pr->vals[k], z[pr->idx[k]]);
            mpq_sub(f, f, tmp);
        }
        mpq_div(z[piv_col[s]], f, *diag);
    }
    for (size_t i = 0; i < n; i++) {
        mpq_swap(rhs[i], z[i]);
        mpq_clear(z[i]);
    }
    free(z);
    result = 1;
done:
    if (map.rows)
        for (size_t c = 0; c < n; c++)
            free(map.rows[c]);
    free(map.rows);
    free(map.len);
    free(map.cap);
    free(colcount);
    free(row_done);
    free(col_done);
    free(piv_row);
    free(piv_col);
    free(queue.a);
    mpq_clears(f, tmp, NULL);
    return result;
}
