/* The exact sparse LU (lp/sparse.c) and what is built on it (issue 26):
 * one factorization solves K z = b and K^T y = c (checked exactly against
 * the matrix), singular matrices are reported as such (checked against a
 * dense elimination), the basis kernel of lp/basis.c gives the basic
 * solution and duals of random bases (checked against their definition),
 * and the all-reduce's cross-root price bound (lp/colgen_allreduce.c)
 * never falls below the TP a root actually reaches. */
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/internal.h"
#include "ssched/steady.h"
#include "test_util.h"

#define SSCHED_EX SSCHED_SOURCE_DIR "/examples/"

/* A random n x n matrix, dense (0 = no entry), of small rationals. */
static void random_dense(mpq_t *a, size_t n, unsigned density, int slacky)
{
    for (size_t i = 0; i < n * n; i++)
        mpq_set_ui(a[i], 0, 1);
    for (size_t i = 0; i < n; i++) {
        if (slacky && tu_pick(3) != 0) { /* a slack row: one unit entry */
            mpq_set_si(a[i * n + tu_pick((unsigned)n)], tu_pick(2) ? 1 : -1, 1);
            continue;
        }
        for (size_t j = 0; j < n; j++)
            if (tu_pick(100) < density || i == j) {
                long num = (long)tu_pick(9) + 1;
                mpq_set_si(a[i * n + j], tu_pick(2) ? num : -num, tu_pick(4) ? 1 : tu_pick(6) + 1);
                mpq_canonicalize(a[i * n + j]);
            }
    }
}

static spvec_t *rows_of(mpq_t *a, size_t n)
{
    spvec_t *rows = calloc(n ? n : 1, sizeof *rows);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (mpq_sgn(a[i * n + j]))
                CU_ASSERT_FATAL(ssched_i_spvec_push(&rows[i], j, a[i * n + j]));
    return rows;
}

/* Rank of a (dense Gaussian elimination on a copy): the reference. */
static size_t dense_rank(mpq_t *a, size_t n)
{
    mpq_t *b = ssched_i_mpq_vec_new(n * n);
    mpq_t f, t;
    mpq_inits(f, t, NULL);
    for (size_t i = 0; i < n * n; i++)
        mpq_set(b[i], a[i]);
    size_t rank = 0;
    for (size_t c = 0; c < n && rank < n; c++) {
        size_t p = rank;
        while (p < n && mpq_sgn(b[p * n + c]) == 0)
            p++;
        if (p == n)
            continue;
        for (size_t j = 0; j < n; j++)
            mpq_swap(b[p * n + j], b[rank * n + j]);
        for (size_t r = rank + 1; r < n; r++) {
            if (mpq_sgn(b[r * n + c]) == 0)
                continue;
            mpq_div(f, b[r * n + c], b[rank * n + c]);
            for (size_t j = c; j < n; j++) {
                mpq_mul(t, f, b[rank * n + j]);
                mpq_sub(b[r * n + j], b[r * n + j], t);
            }
        }
        rank++;
    }
    mpq_clears(f, t, NULL);
    ssched_i_mpq_vec_free(b, n * n);
    return rank;
}

/* Is sum_j a[i][j] z[j] == b[i] for every i (transposed: a[j][i])? */
static int check_solution(mpq_t *a, size_t n, mpq_t *z, mpq_t *b, int transposed)
{
    mpq_t acc, t;
    mpq_inits(acc, t, NULL);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        mpq_set_ui(acc, 0, 1);
        for (size_t j = 0; j < n; j++) {
            mpq_mul(t, transposed ? a[j * n + i] : a[i * n + j], z[j]);
            mpq_add(acc, acc, t);
        }
        ok &= mpq_equal(acc, b[i]) != 0;
    }
    mpq_clears(acc, t, NULL);
    return ok;
}

static void lu_case(size_t n, unsigned density, int slacky, int *n_singular, int *n_regular)
{
    mpq_t *a = ssched_i_mpq_vec_new(n * n), *b = ssched_i_mpq_vec_new(n),
          *c = ssched_i_mpq_vec_new(n), *z = ssched_i_mpq_vec_new(n), *y = ssched_i_mpq_vec_new(n);
    random_dense(a, n, density, slacky);
    for (size_t i = 0; i < n; i++) {
        mpq_set_si(b[i], (long)tu_pick(19) - 9, 1);
        mpq_set_si(c[i], (long)tu_pick(19) - 9, tu_pick(3) + 1);
        mpq_canonicalize(c[i]);
        mpq_set(z[i], b[i]);
        mpq_set(y[i], c[i]);
    }
    sp_lu_t lu;
    int r = ssched_i_lu_factor(&lu, n, rows_of(a, n));
    size_t rank = dense_rank(a, n);
    CU_ASSERT_EQUAL(r, rank == n ? 1 : 0);
    if (r == 1) {
        CU_ASSERT_EQUAL(ssched_i_lu_solve(&lu, z), 1);
        CU_ASSERT_EQUAL(ssched_i_lu_solve_t(&lu, y), 1);
        CU_ASSERT(check_solution(a, n, z, b, 0));
        CU_ASSERT(check_solution(a, n, y, c, 1));
        /* a second solve with the same factors */
        for (size_t i = 0; i < n; i++)
            mpq_set(z[i], c[i]);
        CU_ASSERT_EQUAL(ssched_i_lu_solve(&lu, z), 1);
        CU_ASSERT(check_solution(a, n, z, c, 0));
        ++*n_regular;
    } else {
        ++*n_singular;
    }
    ssched_i_lu_free(&lu);
    ssched_i_mpq_vec_free(a, n * n);
    ssched_i_mpq_vec_free(b, n);
    ssched_i_mpq_vec_free(c, n);
    ssched_i_mpq_vec_free(z, n);
    ssched_i_mpq_vec_free(y, n);
}

static void test_lu_both_solves(void)
{
    int singular = 0, regular = 0;
    for (int k = 0; k < 300; k++)
        lu_case(1 + tu_pick(24), 5 + tu_pick(30), (int)tu_pick(2), &singular, &regular);
    /* both outcomes were exercised */
    CU_ASSERT(singular >= 10);
    CU_ASSERT(regular >= 100);
}

/* A random LP: m rows (le/ge/eq, small rhs), n columns. */
static void random_lp(ssched_lp_t *lp, size_t m, size_t n)
{
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_init(lp, "random"), SSCHED_OK);
    mpq_t q;
    mpq_init(q);
    char name[32];
    for (size_t j = 0; j < n; j++) {
        snprintf(name, sizeof name, "x%zu", j);
        mpq_set_si(q, (long)tu_pick(7) - 2, tu_pick(3) + 1);
        mpq_canonicalize(q);
        CU_ASSERT_EQUAL_FATAL(ssched_lp_add_col(lp, name, q, NULL, &err), SSCHED_OK);
    }
    for (size_t i = 0; i < m; i++) {
        snprintf(name, sizeof name, "r%zu", i);
        mpq_set_si(q, (long)tu_pick(5), 1);
        ssched_row_sense_t sense = tu_pick(3) == 0 ? SSCHED_ROW_EQ
                                   : tu_pick(2)    ? SSCHED_ROW_LE
                                                   : SSCHED_ROW_GE;
        CU_ASSERT_EQUAL_FATAL(ssched_lp_add_row(lp, name, sense, q, NULL, &err), SSCHED_OK);
        for (size_t j = 0; j < n; j++)
            if (tu_pick(100) < 40) {
                mpq_set_si(q, (long)tu_pick(9) - 4, tu_pick(2) + 1);
                mpq_canonicalize(q);
                CU_ASSERT_EQUAL_FATAL(ssched_lp_add_coef(lp, i, j, q, &err), SSCHED_OK);
            }
    }
    mpq_clear(q);
}

/* The basis matrix of `basis` ([A | I] restricted to it), dense m x m. */
static void basis_matrix(const ssched_lp_t *lp, const unsigned char *basis, mpq_t *bm)
{
    size_t m = lp->n_rows, p = 0;
    for (size_t i = 0; i < m * m; i++)
        mpq_set_ui(bm[i], 0, 1);
    for (size_t v = 0; v < lp->n_cols + m; v++) {
        if (!basis[v])
            continue;
        if (v >= lp->n_cols)
            mpq_set_ui(bm[(v - lp->n_cols) * m + p], 1, 1);
        else
            for (size_t i = 0; i < m; i++)
                for (size_t k = 0; k < lp->rows[i].nnz; k++)
                    if (lp->rows[i].cols[k] == v)
                        mpq_set(bm[i * m + p], lp->rows[i].vals[k]);
        p++;
    }
}

static void test_basis_kernel(void)
{
    int solved = 0, singular = 0;
    for (int it = 0; it < 200; it++) {
        size_t m = 1 + tu_pick(7), n = 1 + tu_pick(8), total = m + n;
        ssched_lp_t lp;
        random_lp(&lp, m, n);
        csc_t a;
        CU_ASSERT_FATAL(ssched_i_csc_build(&a, &lp));
        unsigned char *basis = calloc(total, 1);
        /* m distinct variables: a random subset */
        for (size_t k = 0; k < m;) {
            size_t v = tu_pick((unsigned)total);
            if (!basis[v]) {
                basis[v] = 1;
                k++;
            }
        }
        mpq_t *x = ssched_i_mpq_vec_new(total), *y = ssched_i_mpq_vec_new(m);
        mpq_t *bm = ssched_i_mpq_vec_new(m * m), *xb = ssched_i_mpq_vec_new(m),
              *rhs = ssched_i_mpq_vec_new(m), *cb = ssched_i_mpq_vec_new(m);
        int r = ssched_i_basis_solve(&lp, &a, basis, x, y);
        basis_matrix(&lp, basis, bm);
        CU_ASSERT_EQUAL(r, dense_rank(bm, m) == m ? 1 : 0);
        if (r == 1) {
            size_t p = 0;
            for (size_t v = 0; v < total; v++) {
                if (basis[v]) {
                    mpq_set(xb[p], x[v]);
                    mpq_set_ui(cb[p], 0, 1);
                    if (v < n)
                        mpq_set(cb[p], lp.obj[v]);
                    p++;
                } else {
                    CU_ASSERT_EQUAL(mpq_sgn(x[v]), 0); /* nonbasic at 0 */
                }
            }
            for (size_t i = 0; i < m; i++)
                mpq_set(rhs[i], lp.rows[i].rhs);
            CU_ASSERT(check_solution(bm, m, xb, rhs, 0)); /* B x_B = b */
            CU_ASSERT(check_solution(bm, m, y, cb, 1));   /* B^T y = c_B */
            solved++;
        } else {
            singular++;
        }
        ssched_i_mpq_vec_free(x, total);
        ssched_i_mpq_vec_free(y, m);
        ssched_i_mpq_vec_free(bm, m * m);
        ssched_i_mpq_vec_free(xb, m);
        ssched_i_mpq_vec_free(rhs, m);
        ssched_i_mpq_vec_free(cb, m);
        free(basis);
        ssched_i_csc_free(&a);
        ssched_lp_free(&lp);
    }
    CU_ASSERT(solved >= 50);
    CU_ASSERT(singular >= 5);
}

/* The cross-root bound from root A's exact duals bounds every root's TP. */
static void price_bound_on(const char *file, const char *parts)
{
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, file, &err), SSCHED_OK);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_allreduce(&pb, &p, parts, NULL, 0, &err), SSCHED_OK);
    ssched_steady_t best;
    ssched_steady_init(&best);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &best, &err), SSCHED_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(best.lp.y);
    int bounded = 0, tight = 0;
    mpq_t bound;
    mpq_init(bound);
    for (size_t r = 0; r < p.n_nodes; r++) {
        ssched_problem_t one = pb;
        one.target = r;
        int b = 0;
        CU_ASSERT_EQUAL(ssched_i_car_price_bound(&p, &one, (const mpq_t *)best.lp.y, best.lp.n_rows,
                                                 &b, bound, &err),
                        SSCHED_OK);
        if (!b)
            continue;
        ssched_steady_t s;
        ssched_steady_init(&s);
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &one, NULL, &s, &err), SSCHED_OK);
        CU_ASSERT(mpq_cmp(s.throughput, bound) <= 0);
        tight += mpq_cmp(bound, best.throughput) <= 0; /* such a root is pruned */
        bounded++;
        ssched_steady_free(&s);
    }
    CU_ASSERT(bounded > 0);
    CU_ASSERT(tight > 0);
    /* prices of the wrong length give no bound */
    int b = 1;
    ssched_problem_t one = pb;
    one.target = 0;
    CU_ASSERT_EQUAL(ssched_i_car_price_bound(&p, &one, (const mpq_t *)best.lp.y,
                                             best.lp.n_rows - 1, &b, bound, &err),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(b, 0);
    mpq_clear(bound);
    ssched_steady_free(&best);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_price_bound(void)
{
    price_bound_on(SSCHED_EX "tiers-small.graphml", "h0_0_0_0,h0_0_1_0,h1_0_0_1,h1_0_1_2");
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"one LU solves K z = b and K^T y = c; singular stays singular", test_lu_both_solves},
        {"the basis kernel gives B x_B = b and B^T y = c_B", test_basis_kernel},
        {"the all-reduce cross-root price bound holds", test_price_bound},
        {NULL, NULL},
    };
    return tu_main("sparse_lu", tests);
}
