/* The column-generation engine is generic (issue 26): a toy pricer that
 * has nothing to do with platforms, the bin-covering LP
 *   max sum_S lambda_S  s.t.  sum_{S ni i} lambda_S <= 1 per item i,
 * over the sets S of items of total weight >= W, priced by a knapsack
 * dynamic program (the cheapest cover under the item duals; S improves iff
 * it costs < 1), certified by the engine, equals the LP over every cover
 * solved exactly. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_engine.h"
#include "ssched/lp.h"
#include "test_util.h"

#define TOY_MAX 8

typedef struct {
    size_t n;
    unsigned w[TOY_MAX], W;
    unsigned sets[1u << TOY_MAX];
    size_t n_cols;
    long d_calls, q_calls;
} toy_t;

/* The cheapest set of weight >= W under prices y (exact DP over the
 * weight reached, capped at W): its mask and cost; 0 if none exists. */
static int cheapest(const toy_t *t, const mpq_t *y, unsigned *mask, mpq_t cost)
{
    unsigned W = t->W;
    mpq_t best[TOY_MAX + 1][64], q;
    int ok[TOY_MAX + 1][64];
    mpq_init(q);
    for (size_t i = 0; i <= t->n; i++)
        for (unsigned c = 0; c <= W; c++) {
            mpq_init(best[i][c]);
            ok[i][c] = 0;
        }
    ok[0][0] = 1; /* best[i][c]: the first i items reaching weight min(., W) = c */
    for (size_t i = 0; i < t->n; i++)
        for (unsigned c = 0; c <= W; c++) {
            if (!ok[i][c])
                continue;
            unsigned d = c + t->w[i] > W ? W : c + t->w[i];
            if (!ok[i + 1][c] || mpq_cmp(best[i][c], best[i + 1][c]) < 0) {
                mpq_set(best[i + 1][c], best[i][c]);
                ok[i + 1][c] = 1;
            }
            mpq_add(q, best[i][c], y[i]);
            if (!ok[i + 1][d] || mpq_cmp(q, best[i + 1][d]) < 0) {
                mpq_set(best[i + 1][d], q);
                ok[i + 1][d] = 1;
            }
        }
    int found = ok[t->n][W];
    if (found) {
        mpq_set(cost, best[t->n][W]);
        /* walk back: item i is taken when skipping it cannot give the cost */
        *mask = 0;
        unsigned c = W;
        mpq_set(q, cost);
        for (size_t i = t->n; i-- > 0;) {
            if (ok[i][c] && mpq_equal(best[i][c], q))
                continue;
            for (unsigned b = 0; b <= W; b++) {
                unsigned d = b + t->w[i] > W ? W : b + t->w[i];
                mpq_t r;
                mpq_init(r);
                mpq_sub(r, q, y[i]);
                int hit = d == c && ok[i][b] && mpq_equal(best[i][b], r);
                if (hit) {
                    *mask |= 1u << i;
                    mpq_set(q, r);
                    c = b;
                }
                mpq_clear(r);
                if (hit)
                    break;
            }
        }
    }
    for (size_t i = 0; i <= t->n; i++)
        for (unsigned c = 0; c <= W; c++)
            mpq_clear(best[i][c]);
    mpq_clear(q);
    return found;
}

static int add(toy_t *t, cg_engine_t *e, unsigned mask)
{
    for (size_t k = 0; k < t->n_cols; k++)
        if (t->sets[k] == mask)
            return 0;
    double val[TOY_MAX + 1];
    int row[TOY_MAX + 1], cnt = 0;
    val[cnt] = 1.0; /* objective */
    row[cnt++] = 0;
    for (size_t i = 0; i < t->n; i++)
        if (mask >> i & 1) {
            val[cnt] = 1.0;
            row[cnt++] = (int)i + 1;
        }
    CU_ASSERT_FATAL(ssched_i_cge_add(e, cnt, val, row));
    t->sets[t->n_cols++] = mask;
    return 1;
}

static ssched_status_t price_d(void *ctx, cg_engine_t *e, const double *y, double z,
                               int *added, double *upper, ssched_error_t *err)
{
    toy_t *t = ctx;
    (void)err;
    t->d_calls++;
    mpq_t yq[TOY_MAX], cost;
    for (size_t i = 0; i < t->n; i++) {
        mpq_init(yq[i]);
        mpq_set_d(yq[i], y[i]);
    }
    mpq_init(cost);
    unsigned mask = 0;
    *upper = NAN;
    if (cheapest(t, (const mpq_t *)yq, &mask, cost)) {
        double c = mpq_get_d(cost);
        if (c > 0)
            *upper = z / c > z ? z / c : z; /* Farley */
        if (c < 1 - 1e-9)
            *added = add(t, e, mask);
    }
    for (size_t i = 0; i < t->n; i++)
        mpq_clear(yq[i]);
    mpq_clear(cost);
    return SSCHED_OK;
}

static ssched_status_t price_q(void *ctx, cg_engine_t *e, const ssched_lp_solution_t *sol,
                               int *added, ssched_error_t *err)
{
    toy_t *t = ctx;
    t->q_calls++;
    mpq_t cost;
    mpq_init(cost);
    unsigned mask = 0;
    ssched_status_t st = SSCHED_OK;
    if (cheapest(t, (const mpq_t *)sol->y, &mask, cost) && mpq_cmp_ui(cost, 1, 1) < 0) {
        *added = add(t, e, mask);
        if (!*added)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "toy: exact pricing repeats a column");
    }
    mpq_clear(cost);
    return st;
}

/* The LP over the columns `sets` (all: every cover). */
static ssched_status_t build(const toy_t *t, const unsigned *sets, size_t n_sets,
                             ssched_lp_t *lp, ssched_error_t *err)
{
    ssched_status_t st = ssched_lp_init(lp, "toy");
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    char name[32];
    for (size_t i = 0; i < t->n && st == SSCHED_OK; i++) {
        snprintf(name, sizeof name, "item%zu", i);
        st = ssched_lp_add_row(lp, name, SSCHED_ROW_LE, one, NULL, err);
    }
    for (size_t k = 0; k < n_sets && st == SSCHED_OK; k++) {
        size_t col;
        snprintf(name, sizeof name, "set%u", sets[k]);
        st = ssched_lp_add_col(lp, name, one, &col, err);
        for (size_t i = 0; i < t->n && st == SSCHED_OK; i++)
            if (sets[k] >> i & 1)
                st = ssched_lp_add_coef(lp, i, col, one, err);
    }
    mpq_clear(one);
    return st;
}

static ssched_status_t exact_master(void *ctx, ssched_lp_t *lp, ssched_error_t *err)
{
    const toy_t *t = ctx;
    return build(t, t->sets, t->n_cols, lp, err);
}

static size_t n_columns(const void *ctx)
{
    return ((const toy_t *)ctx)->n_cols;
}

static void test_toy(void)
{
    /* same_order 1: the exact masters warm-start from the float basis (the
     * only pricer that does today; the optimum must still be the full LP's) */
    static const cg_pricer_t pricer = {price_d, price_q, exact_master, n_columns, 1};
    for (unsigned round = 0; round < 30; round++) {
        toy_t t;
        memset(&t, 0, sizeof t);
        t.n = 4 + tu_pick(TOY_MAX - 3);
        unsigned sum = 0;
        for (size_t i = 0; i < t.n; i++)
            sum += t.w[i] = 1 + tu_pick(9);
        t.W = 1 + tu_pick(sum < 40 ? sum : 40);
        ssched_steady_options_t opt;
        ssched_steady_options_default(&opt);
        ssched_steady_t out;
        ssched_steady_init(&out);
        ssched_error_t err;
        cg_engine_t e;
        double rhs[TOY_MAX];
        for (size_t i = 0; i < t.n; i++)
            rhs[i] = 1.0;
        CU_ASSERT_FATAL(ssched_i_cge_init(&e, t.n, rhs, &opt, &out, &err) == SSCHED_OK);
        add(&t, &e, (1u << t.n) - 1); /* a first column: every item */
        ssched_status_t st = ssched_i_cge_run(&e, &pricer, &t, 1, &err);
        ssched_i_cge_free(&e);
        CU_ASSERT_FATAL(st == SSCHED_OK);
        CU_ASSERT(t.d_calls >= 1 && t.q_calls >= 1);
        CU_ASSERT(out.cg_exact_passes >= 1 && out.cg_iterations >= 1);
        /* the full LP: every cover */
        unsigned all[1u << TOY_MAX];
        size_t n_all = 0;
        for (unsigned s = 1; s < 1u << t.n; s++) {
            unsigned w = 0;
            for (size_t i = 0; i < t.n; i++)
                w += (s >> i & 1) ? t.w[i] : 0;
            if (w >= t.W)
                all[n_all++] = s;
        }
        ssched_lp_t lp;
        CU_ASSERT_FATAL(build(&t, all, n_all, &lp, &err) == SSCHED_OK);
        ssched_lp_options_t lo;
        ssched_lp_options_default(&lo);
        ssched_lp_solution_t sol;
        ssched_lp_solution_init(&sol);
        CU_ASSERT_FATAL(ssched_lp_solve(&lp, &lo, &sol, &err) == SSCHED_OK);
        if (!mpq_equal(sol.objective, out.lp.objective))
            gmp_fprintf(stderr, "\n  toy round %u: engine %Qd, full LP %Qd\n", round,
                        out.lp.objective, sol.objective);
        CU_ASSERT(mpq_equal(sol.objective, out.lp.objective));
        /* a cover exists (W <= the total weight): the optimum is positive */
        CU_ASSERT(mpq_sgn(sol.objective) > 0);
        ssched_lp_solution_free(&sol);
        ssched_lp_free(&lp);
        ssched_steady_free(&out);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {{"a knapsack pricer on the engine equals the full LP",
                                       test_toy},
                                      {NULL, NULL}};
    return tu_main("colgen_toy", tests);
}
