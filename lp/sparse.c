/* Sparse rational vectors and an exact sparse LU factorization.
 *
 * The factorization is the Gaussian elimination ssched has always done
 * (sparsest row first, least-used column inside it), but it now records
 * its row operations, so that one factorization M K = U' (M the product of
 * the elimination steps, U' the pivot rows: upper triangular up to the
 * pivot permutations) solves both K z = b and K^T y = c: the exact basis
 * solve needs the primal and the dual of the same basis (lp/basis.c).
 * Rows are updated in place; an mpq moves between arrays as a plain struct
 * copy (GMP values own their limbs through a pointer), so the elimination
 * allocates per fill-in, never per surviving entry. */
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
    /* realloc moves the mpq structs bitwise: their limbs stay valid */
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

/* Per column: the rows that may hold it (stale entries allowed: a row that
 * lost the column by cancellation stays listed). */
typedef struct {
    size_t **rows;
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

/* dst -= f * src, where src is the pivot row and dst holds its pivot column
 * pc (which cancels exactly and is dropped).  Both sorted.  Entries that
 * cancel are dropped; fill-in is reported through map and colcount (a
 * pivoting heuristic only: kept roughly right). */
static int axpy_row(spvec_t *dst, size_t dst_id, const spvec_t *src, size_t pc, const mpq_t f,
                    colmap_t *map, size_t *colcount, mpq_t tmp)
{
    int ok = 1; /* a failed colmap_add: finish the row (kept whole), then fail */
    size_t fill = 0;
    for (size_t a = 0, b = 0; b < src->nnz; b++) {
        while (a < dst->nnz && dst->idx[a] < src->idx[b])
            a++;
        if (a == dst->nnz || dst->idx[a] != src->idx[b])
            fill++;
    }
    if (fill > 0) {
        /* merge into fresh arrays: structs move, fill entries are new */
        size_t cap = dst->nnz + fill;
        size_t *idx = malloc(cap * sizeof *idx);
        mpq_t *vals = malloc(cap * sizeof *vals);
        if (!idx || !vals) {
            free(idx);
            free(vals);
            return 0;
        }
        size_t a = 0, b = 0, o = 0;
        while (a < dst->nnz || b < src->nnz) {
            size_t ia = a < dst->nnz ? dst->idx[a] : SIZE_MAX;
            size_t ib = b < src->nnz ? src->idx[b] : SIZE_MAX;
            if (ia <= ib) {
                idx[o] = ia;
                vals[o][0] = dst->vals[a][0];
                if (ia == ib) {
                    if (ib != pc) { /* the pivot column cancels: dropped below */
                        mpq_mul(tmp, f, src->vals[b]);
                        mpq_sub(vals[o], vals[o], tmp);
                    }
                    b++;
                }
                a++;
            } else {
                idx[o] = ib;
                mpq_init(vals[o]);
                mpq_mul(vals[o], f, src->vals[b]);
                mpq_neg(vals[o], vals[o]);
                colcount[ib]++;
                ok &= colmap_add(map, ib, dst_id);
                b++;
            }
            o++;
        }
        free(dst->idx);
        free(dst->vals);
        dst->idx = idx;
        dst->vals = vals;
        dst->nnz = o;
        dst->cap = cap;
    } else {
        for (size_t a = 0, b = 0; b < src->nnz; b++) {
            while (dst->idx[a] < src->idx[b])
                a++;
            if (src->idx[b] == pc)
                continue;
            mpq_mul(tmp, f, src->vals[b]);
            mpq_sub(dst->vals[a], dst->vals[a], tmp);
        }
    }
    /* drop the cancelled entries (the pivot column always cancels) */
    size_t o = 0;
    for (size_t a = 0; a < dst->nnz; a++) {
        if (dst->idx[a] == pc || mpq_sgn(dst->vals[a]) == 0) {
            if (dst->idx[a] != pc)
                colcount[dst->idx[a]]--;
            mpq_clear(dst->vals[a]);
            continue;
        }
        if (o != a) {
            dst->idx[o] = dst->idx[a];
            dst->vals[o][0] = dst->vals[a][0];
        }
        o++;
    }
    dst->nnz = o;
    return ok;
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
 * the active row with fewest entries, lowest row id first among equals, at
 * O(log n) cost per change.  An empty active row ends the elimination as
 * soon as it appears (singular).  When stale pairs make the heap exceed
 * 2n + 64 entries it is rebuilt from the active rows, so memory stays O(n)
 * and the rebuilds cost O(1) amortized per push. */
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

/* Record one elimination step (row r -= f * row p). */
static int lu_push_op(sp_lu_t *lu, size_t p, size_t r, const mpq_t f)
{
    if (lu->n_ops == lu->cap_ops) {
        size_t cap = lu->cap_ops ? 2 * lu->cap_ops : 256;
        size_t *op = realloc(lu->op, 2 * cap * sizeof *op);
        if (!op)
            return 0;
        lu->op = op;
        mpq_t *fs = realloc(lu->op_f, cap * sizeof *fs);
        if (!fs)
            return 0;
        lu->op_f = fs;
        lu->cap_ops = cap;
    }
    lu->op[2 * lu->n_ops] = p;
    lu->op[2 * lu->n_ops + 1] = r;
    mpq_init(lu->op_f[lu->n_ops]);
    mpq_set(lu->op_f[lu->n_ops], f);
    lu->n_ops++;
    return 1;
}

void ssched_i_lu_free(sp_lu_t *lu)
{
    if (lu->rows)
        for (size_t i = 0; i < lu->n; i++)
            ssched_i_spvec_free(&lu->rows[i]);
    free(lu->rows);
    for (size_t k = 0; k < lu->n_ops; k++)
        mpq_clear(lu->op_f[k]);
    free(lu->op);
    free(lu->op_f);
    free(lu->piv_row);
    free(lu->piv_col);
    free(lu->diag);
    memset(lu, 0, sizeof *lu);
}

int ssched_i_lu_factor(sp_lu_t *lu, size_t n, spvec_t *rows)
{
    memset(lu, 0, sizeof *lu);
    lu->n = n;
    lu->rows = rows;
    if (n == 0)
        return 1;
    int result = -1;
    colmap_t map = {calloc(n, sizeof(size_t *)), calloc(n, sizeof(size_t)),
                    calloc(n, sizeof(size_t))};
    size_t *colcount = calloc(n, sizeof *colcount);
    unsigned char *row_done = calloc(n, 1);
    lu->piv_row = malloc(n * sizeof *lu->piv_row);
    lu->piv_col = malloc(n * sizeof *lu->piv_col);
    lu->diag = malloc(n * sizeof *lu->diag);
    pq_t queue = {NULL, 0, 0};
    mpq_t f, tmp;
    mpq_inits(f, tmp, NULL);
    if (!map.rows || !map.len || !map.cap || !colcount || !row_done || !lu->piv_row ||
        !lu->piv_col || !lu->diag)
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
            result = 0; /* an active row with no active column: singular */
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
        lu->piv_row[step] = best_row;
        lu->piv_col[step] = pc;
        lu->diag[step] = best_k;
        row_done[best_row] = 1;
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
            if (!lu_push_op(lu, best_row, r, f) ||
                !axpy_row(&rows[r], r, pr, pc, f, &map, colcount, tmp))
                goto done;
            if (queue.n >= 2 * n + 64)
                pq_rebuild(&queue, n, rows, row_done); /* r is active: included */
            else if (!pq_push(&queue, rows[r].nnz, r))
                goto done;
        }
        /* the column is done: its list is not read again */
        free(map.rows[pc]);
        map.rows[pc] = NULL;
        map.len[pc] = map.cap[pc] = 0;
    }
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
    free(queue.a);
    mpq_clears(f, tmp, NULL);
    return result;
}

int ssched_i_lu_solve(const sp_lu_t *lu, mpq_t *rhs)
{
    size_t n = lu->n;
    mpq_t tmp, acc;
    mpq_inits(tmp, acc, NULL);
    /* rhs := M rhs, the recorded row operations in order */
    for (size_t k = 0; k < lu->n_ops; k++) {
        size_t p = lu->op[2 * k], r = lu->op[2 * k + 1];
        if (mpq_sgn(rhs[p]) == 0)
            continue;
        mpq_mul(tmp, lu->op_f[k], rhs[p]);
        mpq_sub(rhs[r], rhs[r], tmp);
    }
    /* U' z = rhs, in reverse pivot order: the pivot row of step s only
     * holds columns pivoted at steps >= s */
    mpq_t *z = malloc((n ? n : 1) * sizeof *z);
    if (!z) {
        mpq_clears(tmp, acc, NULL);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        mpq_init(z[i]);
    for (size_t s = n; s-- > 0;) {
        const spvec_t *pr = &lu->rows[lu->piv_row[s]];
        mpq_swap(acc, rhs[lu->piv_row[s]]);
        for (size_t k = 0; k < pr->nnz; k++) {
            if (k == lu->diag[s] || mpq_sgn(z[pr->idx[k]]) == 0)
                continue;
            mpq_mul(tmp, pr->vals[k], z[pr->idx[k]]);
            mpq_sub(acc, acc, tmp);
        }
        mpq_div(z[lu->piv_col[s]], acc, pr->vals[lu->diag[s]]);
    }
    for (size_t i = 0; i < n; i++) {
        mpq_swap(rhs[i], z[i]);
        mpq_clear(z[i]);
    }
    free(z);
    mpq_clears(tmp, acc, NULL);
    return 1;
}

int ssched_i_lu_solve_t(const sp_lu_t *lu, mpq_t *rhs)
{
    size_t n = lu->n;
    mpq_t tmp;
    mpq_init(tmp);
    /* U'^T w = rhs (rhs indexed by column), in pivot order: column q_s is
     * held by the pivot rows of steps <= s only.  w is indexed by row. */
    mpq_t *w = malloc((n ? n : 1) * sizeof *w);
    if (!w) {
        mpq_clear(tmp);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        mpq_init(w[i]);
    for (size_t s = 0; s < n; s++) {
        size_t p = lu->piv_row[s];
        const spvec_t *pr = &lu->rows[p];
        mpq_ptr wp = w[p];
        mpq_div(wp, rhs[lu->piv_col[s]], pr->vals[lu->diag[s]]);
        if (mpq_sgn(wp) == 0)
            continue;
        for (size_t k = 0; k < pr->nnz; k++) {
            if (k == lu->diag[s])
                continue;
            mpq_mul(tmp, pr->vals[k], wp);
            mpq_sub(rhs[pr->idx[k]], rhs[pr->idx[k]], tmp);
        }
    }
    /* y = M^T w: the transposed row operations in reverse order
     * (row r -= f row p transposes to w_p -= f w_r) */
    for (size_t k = lu->n_ops; k-- > 0;) {
        size_t p = lu->op[2 * k], r = lu->op[2 * k + 1];
        if (mpq_sgn(w[r]) == 0)
            continue;
        mpq_mul(tmp, lu->op_f[k], w[r]);
        mpq_sub(w[p], w[p], tmp);
    }
    for (size_t i = 0; i < n; i++) {
        mpq_swap(rhs[i], w[i]);
        mpq_clear(w[i]);
    }
    free(w);
    mpq_clear(tmp);
    return 1;
}

int ssched_i_sparse_solve(size_t n, spvec_t *rows, mpq_t *rhs)
{
    sp_lu_t lu;
    int r = ssched_i_lu_factor(&lu, n, rows);
    if (r == 1)
        r = ssched_i_lu_solve(&lu, rhs);
    /* the rows belong to the caller (consumed: left as the factors) */
    lu.rows = NULL;
    ssched_i_lu_free(&lu);
    return r;
}
