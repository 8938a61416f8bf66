/* Tests of the exact sparse elimination (lp/sparse.c: ssched_i_sparse_solve) on
 * larger random systems of the shapes ssched builds: its pivot order was
 * made near-linear (a priority queue of rows by entry count instead of a
 * scan of every row at each step).  Each system is solved by the current
 * ssched_i_sparse_solve and by the former implementation, kept verbatim below as
 * ref_sparse_solve; the return codes and every solution entry must agree
 * exactly, and each solution must satisfy M z = rhs exactly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/internal.h"
#include "test_util.h"

/* ---- The former implementation (linear pivot scan), for reference. ---- */

static int ref_spvec_reserve(spvec_t *v, size_t cap)
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

/* dst = dst - f * src over the columns still active (dst and src sorted).
 * New fill-in positions are reported through col_rows so the elimination
 * can find every row holding a column. */
typedef struct {
    size_t n;
    size_t **rows;   /* per column: row ids that may hold it (stale allowed) */
    size_t *len, *cap;
} ref_colmap_t;

static int ref_colmap_add(ref_colmap_t *m, size_t col, size_t row)
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

static int ref_axpy_row(spvec_t *dst, size_t dst_id, const spvec_t *src, const mpq_t f,
                    ref_colmap_t *map, size_t *colcount, mpq_t tmp)
{
    spvec_t out;
    ssched_i_spvec_init(&out);
    if (!ref_spvec_reserve(&out, dst->nnz + src->nnz)) {
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
            if (!ref_colmap_add(map, ib, dst_id)) {
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
static size_t ref_find_col(const spvec_t *r, size_t col)
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

static int ref_sparse_solve(size_t n, spvec_t *rows, mpq_t *rhs)
{
    if (n == 0)
        return 1;
    int result = -1;
    ref_colmap_t map = {n, calloc(n, sizeof(size_t *)), calloc(n, sizeof(size_t)),
                    calloc(n, sizeof(size_t))};
    size_t *colcount = calloc(n, sizeof *colcount);
    unsigned char *row_done = calloc(n, 1), *col_done = calloc(n, 1);
    size_t *piv_row = malloc(n * sizeof *piv_row), *piv_col = malloc(n * sizeof *piv_col);
    mpq_t f, tmp;
    mpq_inits(f, tmp, NULL);
    if (!map.rows || !map.len || !map.cap || !colcount || !row_done || !col_done ||
        !piv_row || !piv_col)
        goto done;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < rows[i].nnz; k++) {
            colcount[rows[i].idx[k]]++;
            if (!ref_colmap_add(&map, rows[i].idx[k], i))
                goto done;
        }

    for (size_t step = 0; step < n; step++) {
        /* Pivot choice: the active row with fewest entries; inside it the
         * column used by fewest rows (a cheap Markowitz approximation). */
        size_t best_row = SIZE_MAX, best_len = SIZE_MAX;
        for (size_t i = 0; i < n; i++)
            if (!row_done[i] && rows[i].nnz < best_len) {
                best_len = rows[i].nnz;
                best_row = i;
                if (best_len <= 1)
                    break;
            }
        if (best_row == SIZE_MAX || best_len == 0) {
            result = 0; /* an active row with no active column: singular */
            goto done;
        }
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
            size_t pos = ref_find_col(&rows[r], pc);
            if (pos == SIZE_MAX)
                continue;
            mpq_div(f, rows[r].vals[pos], pr->vals[best_k]);
            /* rhs_r -= f * rhs_p */
            mpq_mul(tmp, f, rhs[best_row]);
            mpq_sub(rhs[r], rhs[r], tmp);
            /* colcount is only a pivoting heuristic: ref_axpy_row keeps it
             * roughly right (fill-in counts up, cancellation down). */
            if (!ref_axpy_row(&rows[r], r, pr, f, &map, colcount, tmp))
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
    mpq_clears(f, tmp, NULL);
    return result;
}

/* ---- Random systems, kept as entry lists so they can be rebuilt. ---- */

typedef struct {
    size_t row, col;
    long num;
    unsigned long den;
} entry_t;

typedef struct {
    size_t n, len, cap;
    entry_t *e;
    long *rhs; /* n */
} system_t;

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t rng_below(size_t n)
{
    return (size_t)(rng_next() % n);
}

static void sys_init(system_t *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->rhs = calloc(n, sizeof *s->rhs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->rhs);
}

static void sys_free(system_t *s)
{
    free(s->e);
    free(s->rhs);
    memset(s, 0, sizeof *s);
}

/* Append (row, col) = num/den; a repeated (row, col) keeps its first value. */
static void sys_add(system_t *s, size_t row, size_t col, long num, unsigned long den)
{
    if (s->len == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->e = realloc(s->e, s->cap * sizeof *s->e);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s->e);
    }
    s->e[s->len++] = (entry_t){row, col, num, den};
}

/* A nonzero coefficient: an integer in [-9, 9] \ {0}, or now and then a
 * fraction with a denominator up to 7. */
static void sys_add_random(system_t *s, size_t row, size_t col)
{
    long num = (long)rng_below(9) + 1;
    if (rng_next() & 1)
        num = -num;
    unsigned long den = rng_below(4) == 0 ? (unsigned long)rng_below(7) + 1 : 1;
    sys_add(s, row, col, num, den);
}

static void sys_random_rhs(system_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        s->rhs[i] = rng_below(3) == 0 ? 0 : (long)rng_below(19) - 9;
}

static int cmp_col(const void *a, const void *b)
{
    const entry_t *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
}

/* Group the entries by row (in order of addition), drop repeated columns
 * (first kept), sort each row by column. */
static void sys_normalize(system_t *s)
{
    size_t *start = calloc(s->n + 1, sizeof *start);
    size_t *seen = malloc(s->n * sizeof *seen);
    entry_t *copy = malloc((s->len ? s->len : 1) * sizeof *copy);
    CU_ASSERT_PTR_NOT_NULL_FATAL(start);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    for (size_t k = 0; k < s->len; k++)
        start[s->e[k].row + 1]++;
    for (size_t i = 0; i < s->n; i++)
        start[i + 1] += start[i];
    for (size_t k = 0; k < s->len; k++)
        copy[start[s->e[k].row]++] = s->e[k];
    for (size_t c = 0; c < s->n; c++)
        seen[c] = SIZE_MAX;
    size_t out = 0;
    for (size_t a = 0; a < s->len;) {
        size_t b = a, row = copy[a].row, first = out;
        while (b < s->len && copy[b].row == row)
            b++;
        for (size_t k = a; k < b; k++)
            if (seen[copy[k].col] != row) {
                seen[copy[k].col] = row;
                s->e[out++] = copy[k];
            }
        qsort(s->e + first, out - first, sizeof *s->e, cmp_col);
        a = b;
    }
    s->len = out;
    free(start);
    free(seen);
    free(copy);
}

/* Fresh rows and right-hand side of s (ssched_i_sparse_solve consumes its input). */
static spvec_t *sys_rows(const system_t *s, mpq_t **rhs)
{
    spvec_t *rows = calloc(s->n, sizeof *rows);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
    mpq_t q;
    mpq_init(q);
    for (size_t k = 0; k < s->len; k++) {
        mpq_set_si(q, s->e[k].num, s->e[k].den);
        mpq_canonicalize(q);
        CU_ASSERT_FATAL(ssched_i_spvec_push(&rows[s->e[k].row], s->e[k].col, q));
    }
    mpq_clear(q);
    *rhs = malloc(s->n * sizeof **rhs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*rhs);
    for (size_t i = 0; i < s->n; i++) {
        mpq_init((*rhs)[i]);
        mpq_set_si((*rhs)[i], s->rhs[i], 1);
    }
    return rows;
}

static void free_rows(spvec_t *rows, mpq_t *rhs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ssched_i_spvec_free(&rows[i]);
        mpq_clear(rhs[i]);
    }
    free(rows);
    free(rhs);
}

/* Does z solve s exactly? */
static int sys_check(const system_t *s, mpq_t *z)
{
    mpq_t *acc = malloc(s->n * sizeof *acc);
    mpq_t q;
    mpq_init(q);
    CU_ASSERT_PTR_NOT_NULL_FATAL(acc);
    for (size_t i = 0; i < s->n; i++)
        mpq_init(acc[i]);
    for (size_t k = 0; k < s->len; k++) {
        mpq_set_si(q, s->e[k].num, s->e[k].den);
        mpq_canonicalize(q);
        mpq_mul(q, q, z[s->e[k].col]);
        mpq_add(acc[s->e[k].row], acc[s->e[k].row], q);
    }
    int ok = 1;
    for (size_t i = 0; i < s->n; i++) {
        mpq_set_si(q, s->rhs[i], 1);
        if (!mpq_equal(acc[i], q))
            ok = 0;
        mpq_clear(acc[i]);
    }
    mpq_clear(q);
    free(acc);
    return ok;
}

/* Solve s with both implementations; they must agree on the outcome and on
 * every value, and a solution must check.  Returns the common outcome. */
static int solve_both(system_t *s)
{
    sys_normalize(s);
    mpq_t *rhs_new, *rhs_ref;
    spvec_t *rows_new = sys_rows(s, &rhs_new), *rows_ref = sys_rows(s, &rhs_ref);
    int r_new = ssched_i_sparse_solve(s->n, rows_new, rhs_new);
    int r_ref = ref_sparse_solve(s->n, rows_ref, rhs_ref);
    CU_ASSERT_EQUAL(r_new, r_ref);
    CU_ASSERT(r_new == 0 || r_new == 1);
    if (r_new == 1 && r_ref == 1) {
        size_t differ = 0;
        for (size_t i = 0; i < s->n; i++)
            differ += !mpq_equal(rhs_new[i], rhs_ref[i]);
        CU_ASSERT_EQUAL(differ, 0);
        CU_ASSERT(sys_check(s, rhs_new));
    }
    free_rows(rows_new, rhs_new, s->n);
    free_rows(rows_ref, rhs_ref, s->n);
    return r_new;
}

/* A random permutation of 0..n-1. */
static size_t *random_perm(size_t n)
{
    size_t *p = malloc((n ? n : 1) * sizeof *p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (size_t i = 0; i < n; i++)
        p[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(i), t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    return p;
}

/* General sparse systems: a scaled permutation (so most are nonsingular)
 * plus about `extra` random entries per row. */
static void random_general(system_t *s, size_t n, size_t extra)
{
    sys_init(s, n);
    size_t *p = random_perm(n);
    for (size_t i = 0; i < n; i++) {
        sys_add_random(s, i, p[i]);
        size_t k = rng_below(2 * extra + 1);
        for (size_t t = 0; t < k; t++)
            sys_add_random(s, i, rng_below(n));
    }
    free(p);
    sys_random_rhs(s);
}

/* Basis matrices like the steady-state LPs': most columns are slacks (one
 * unit entry), the others are flow columns with a port coefficient on two
 * capacity rows and -1/+1 on two balance rows; rows and columns shuffled. */
static void random_network(system_t *s, size_t n, size_t structural)
{
    sys_init(s, n);
    size_t *prow = random_perm(n), *pcol = random_perm(n);
    for (size_t j = 0; j < n; j++) {
        if (j < structural) {
            long c = (long)rng_below(5) + 1;
            unsigned long d = (unsigned long)rng_below(3) + 1;
            sys_add(s, prow[j], pcol[j], c, d); /* out-port of the tail */
            sys_add(s, prow[rng_below(n)], pcol[j], c, d); /* in-port */
            sys_add(s, prow[rng_below(n)], pcol[j], -1, 1);
            sys_add(s, prow[rng_below(n)], pcol[j], 1, 1);
        } else {
            sys_add(s, prow[j], pcol[j], 1, 1);
        }
    }
    free(prow);
    free(pcol);
    sys_random_rhs(s);
}

static void test_general_random(void)
{
    size_t solved = 0;
    rng_state = 11;
    for (int round = 0; round < 60; round++) {
        system_t s;
        size_t n = 2 + rng_below(round < 40 ? 30 : 300);
        random_general(&s, n, 1 + rng_below(3));
        solved += solve_both(&s) == 1;
        sys_free(&s);
    }
    CU_ASSERT(solved > 30);
}

/* Denser systems: heavy fill-in, so rows change length many times (and the
 * pivot queue compacts its stale entries). */
static void test_fill_in(void)
{
    rng_state = 15;
    size_t solved = 0;
    for (int round = 0; round < 12; round++) {
        system_t s;
        size_t n = 40 + rng_below(120);
        random_general(&s, n, n / 10);
        solved += solve_both(&s) == 1;
        sys_free(&s);
    }
    CU_ASSERT(solved >= 6);
}

static void test_network_random(void)
{
    rng_state = 12;
    size_t solved = 0;
    for (int round = 0; round < 20; round++) {
        system_t s;
        size_t n = 50 + rng_below(2000);
        random_network(&s, n, 1 + rng_below(n / 4 + 1));
        solved += solve_both(&s) == 1;
        sys_free(&s);
    }
    CU_ASSERT(solved >= 15);
}

/* The shape of the 2-node scatter on a long chain: tens of thousands of
 * rows, nearly all slack rows, a handful of structural columns. */
static void test_network_large_slack(void)
{
    rng_state = 13;
    system_t s;
    random_network(&s, 20000, 3);
    CU_ASSERT_EQUAL(solve_both(&s), 1);
    sys_free(&s);
}

/* Singular systems: a zero row, a row repeated, a row that is the sum of
 * two others, a column missing everywhere. */
static void test_singular(void)
{
    rng_state = 14;
    for (int kind = 0; kind < 4; kind++)
        for (int round = 0; round < 10; round++) {
            system_t s;
            size_t n = 3 + rng_below(400);
            random_general(&s, n, 1);
            sys_normalize(&s);
            size_t a = rng_below(n), b = (a + 1 + rng_below(n - 1)) % n, c = b;
            while (c == a || c == b)
                c = rng_below(n);
            size_t len = s.len, col = rng_below(n);
            for (size_t k = 0; k < len; k++) {
                entry_t e = s.e[k];
                if (kind == 0 && e.row == a)
                    s.e[k].row = b; /* becomes a repeat, dropped: row a empty */
                else if (kind == 1 && e.row == a)
                    sys_add(&s, b, e.col, e.num, e.den);
                else if (kind == 3 && e.col == col)
                    s.e[k].col = (col + 1) % n; /* merged into the next column */
            }
            if (kind == 1) {
                /* row b := row a exactly (drop b's own entries first) */
                size_t out = 0;
                for (size_t k = 0; k < s.len; k++)
                    if (s.e[k].row != b || k >= len)
                        s.e[out++] = s.e[k];
                s.len = out;
            }
            if (kind == 2) {
                /* row c := row a + row b (as a dense sum) */
                size_t out = 0;
                for (size_t k = 0; k < s.len; k++)
                    if (s.e[k].row != c)
                        s.e[out++] = s.e[k];
                s.len = out;
                sys_normalize(&s);
                mpq_t *sum = malloc(n * sizeof *sum), q;
                CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
                mpq_init(q);
                for (size_t j = 0; j < n; j++)
                    mpq_init(sum[j]);
                for (size_t k = 0; k < s.len; k++)
                    if (s.e[k].row == a || s.e[k].row == b) {
                        mpq_set_si(q, s.e[k].num, s.e[k].den);
                        mpq_canonicalize(q);
                        mpq_add(sum[s.e[k].col], sum[s.e[k].col], q);
                    }
                for (size_t j = 0; j < n; j++) {
                    /* entries are small: numerator and denominator fit */
                    if (mpq_sgn(sum[j]) != 0)
                        sys_add(&s, c, j, mpz_get_si(mpq_numref(sum[j])),
                                mpz_get_ui(mpq_denref(sum[j])));
                    mpq_clear(sum[j]);
                }
                mpq_clear(q);
                free(sum);
            }
            CU_ASSERT_EQUAL(solve_both(&s), 0);
            sys_free(&s);
        }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"general random systems: same results as before", test_general_random},
        {"systems with heavy fill-in: same results as before", test_fill_in},
        {"network-shaped systems: same results as before", test_network_random},
        {"20000 rows, nearly all slacks", test_network_large_slack},
        {"singular systems stay singular", test_singular},
        {NULL, NULL},
    };
    return tu_main("sparse_perf_shape", tests);
}
