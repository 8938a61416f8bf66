/* The rational LP core: exact solve on hand LPs, the certificate check
 * rejecting perturbed solutions (mutation test), and exact repair from a
 * basis that is not optimal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/lp.h"
#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

static void q(mpq_t out, const char *s)
{
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(out, s, NULL), SSCHED_OK);
}

/* max x + y  s.t.  x + 2y <= 4,  3x + y <= 6,  x - y >= -1,  x + y + z = 3
 * Vertex of the first two rows: x = 8/5, y = 6/5, objective 14/5 with z = 1/5. */
static void build_small(ssched_lp_t *lp)
{
    CU_ASSERT_EQUAL_FATAL(ssched_lp_init(lp, "small"), SSCHED_OK);
    mpq_t v;
    mpq_init(v);
    size_t x, y, z, r;
    q(v, "1");
    ssched_lp_add_col(lp, "x", v, &x, NULL);
    ssched_lp_add_col(lp, "y", v, &y, NULL);
    ssched_lp_add_col(lp, "z", NULL, &z, NULL);
    q(v, "4");
    ssched_lp_add_row(lp, "r1", SSCHED_ROW_LE, v, &r, NULL);
    q(v, "1"); ssched_lp_add_coef(lp, r, x, v, NULL);
    q(v, "2"); ssched_lp_add_coef(lp, r, y, v, NULL);
    q(v, "6");
    ssched_lp_add_row(lp, "r2", SSCHED_ROW_LE, v, &r, NULL);
    q(v, "3"); ssched_lp_add_coef(lp, r, x, v, NULL);
    q(v, "1"); ssched_lp_add_coef(lp, r, y, v, NULL);
    q(v, "-1");
    ssched_lp_add_row(lp, "r3", SSCHED_ROW_GE, v, &r, NULL);
    q(v, "1"); ssched_lp_add_coef(lp, r, x, v, NULL);
    q(v, "-1"); ssched_lp_add_coef(lp, r, y, v, NULL);
    q(v, "3");
    ssched_lp_add_row(lp, "r4", SSCHED_ROW_EQ, v, &r, NULL);
    q(v, "1");
    ssched_lp_add_coef(lp, r, x, v, NULL);
    ssched_lp_add_coef(lp, r, y, v, NULL);
    ssched_lp_add_coef(lp, r, z, v, NULL);
    mpq_clear(v);
}

static void test_small_lp(void)
{
    ssched_lp_t lp;
    build_small(&lp);
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&lp, NULL, &sol, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(sol.objective, "14/5"));
    CU_ASSERT(tu_mpq_equals(sol.x[0], "8/5"));
    CU_ASSERT(tu_mpq_equals(sol.x[1], "6/5"));
    CU_ASSERT(tu_mpq_equals(sol.x[2], "1/5"));
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL(
        ssched_lp_certify(&lp, (const mpq_t *)sol.x, (const mpq_t *)sol.y, NULL, &rep, &err),
        SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 1);
    ssched_lp_solution_free(&sol);
    ssched_lp_free(&lp);
}

static void test_add_coef_accumulates(void)
{
    ssched_lp_t lp;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_init(&lp, "acc"), SSCHED_OK);
    mpq_t v;
    mpq_init(v);
    size_t x, r;
    ssched_lp_add_col(&lp, "x", NULL, &x, NULL);
    ssched_lp_add_row(&lp, "r", SSCHED_ROW_LE, v, &r, NULL);
    q(v, "1/3");
    ssched_lp_add_coef(&lp, r, x, v, NULL);
    ssched_lp_add_coef(&lp, r, x, v, NULL);
    CU_ASSERT_EQUAL(lp.rows[r].nnz, 1);
    CU_ASSERT(tu_mpq_equals(lp.rows[r].vals[0], "2/3"));
    q(v, "-2/3");
    ssched_lp_add_coef(&lp, r, x, v, NULL);
    CU_ASSERT_EQUAL(lp.rows[r].nnz, 0);
    mpq_clear(v);
    ssched_lp_free(&lp);
}

/* A solved scatter LP for the mutation tests: the split-route instance. */
static void solved_scatter(ssched_platform_t *p, ssched_model_t *m, ssched_lp_solution_t *sol)
{
    ssched_platform_init(p);
    ssched_error_t err;
    const char *names[] = {"s", "a", "b", "t"};
    for (int i = 0; i < 4; i++)
        ssched_platform_add_node(p, names[i], NULL, NULL, &err);
    mpq_t c;
    mpq_init(c);
    int edges[][3] = {{0, 1, 1}, {1, 3, 3}, {0, 2, 3}, {2, 3, 1}, {1, 2, 2}};
    for (int e = 0; e < 5; e++) {
        mpq_set_ui(c, (unsigned long)edges[e][2], 1);
        ssched_platform_add_edge(p, (size_t)edges[e][0], (size_t)edges[e][1], c, &err);
    }
    mpq_clear(c);
    ssched_platform_finalize(p, &err);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, p, "s", "t,b", &err), SSCHED_OK);
    ssched_model_init(m);
    CU_ASSERT_EQUAL_FATAL(ssched_model_build(p, &pb, m, &err), SSCHED_OK);
    ssched_problem_free(&pb);
    ssched_lp_solution_init(sol);
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&m->lp, NULL, sol, &err), SSCHED_OK);
}

static void test_certificate_rejects_mutations(void)
{
    ssched_platform_t p;
    ssched_model_t m;
    ssched_lp_solution_t sol;
    solved_scatter(&p, &m, &sol);
    const ssched_lp_t *lp = &m.lp;
    ssched_error_t err;
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL_FATAL(
        ssched_lp_certify(lp, (const mpq_t *)sol.x, (const mpq_t *)sol.y, NULL, &rep, &err),
        SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(rep.valid, 1);
    mpq_t eps, saved;
    mpq_inits(eps, saved, NULL);
    mpq_set_ui(eps, 1, 1000000);
    int rejected = 0, total = 0;
    /* Every single-coordinate perturbation of x or y must be refused: a
     * primal change breaks a row or the duality equality, a dual change
     * breaks a sign, a dual constraint or the duality equality. */
    for (size_t j = 0; j < lp->n_cols; j++)
        for (int sign = -1; sign <= 1; sign += 2) {
            mpq_set(saved, sol.x[j]);
            if (sign > 0)
                mpq_add(sol.x[j], sol.x[j], eps);
            else
                mpq_sub(sol.x[j], sol.x[j], eps);
            total++;
            if (ssched_lp_certify(lp, (const mpq_t *)sol.x, (const mpq_t *)sol.y, NULL, &rep,
                                  &err) == SSCHED_OK &&
                !rep.valid)
                rejected++;
            mpq_set(sol.x[j], saved);
        }
    CU_ASSERT_EQUAL(rejected, total);
    /* Duals are not unique: moving y on a balance row (rhs 0) can give
     * another valid certificate.  Moving y on a port row (rhs 1) changes
     * the dual objective, so the gap check must refuse it. */
    rejected = total = 0;
    for (size_t i = 0; i < lp->n_rows; i++)
        for (int sign = -1; sign <= 1 && mpq_sgn(lp->rows[i].rhs) != 0; sign += 2) {
            mpq_set(saved, sol.y[i]);
            if (sign > 0)
                mpq_add(sol.y[i], sol.y[i], eps);
            else
                mpq_sub(sol.y[i], sol.y[i], eps);
            total++;
            if (ssched_lp_certify(lp, (const mpq_t *)sol.x, (const mpq_t *)sol.y, NULL, &rep,
                                  &err) == SSCHED_OK &&
                !rep.valid)
                rejected++;
            mpq_set(sol.y[i], saved);
        }
    CU_ASSERT_EQUAL(rejected, total);
    /* A feasible but suboptimal x (half the optimum) is refused too. */
    for (size_t j = 0; j < lp->n_cols; j++)
        mpq_div_2exp(sol.x[j], sol.x[j], 1);
    CU_ASSERT_EQUAL(
        ssched_lp_certify(lp, (const mpq_t *)sol.x, (const mpq_t *)sol.y, NULL, &rep, &err),
        SSCHED_OK);
    CU_ASSERT_EQUAL(rep.valid, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, "duality gap"));
    mpq_clears(eps, saved, NULL);
    ssched_lp_solution_free(&sol);
    ssched_model_free(&m);
    ssched_platform_free(&p);
}

static void test_repair_from_bad_basis(void)
{
    ssched_platform_t p;
    ssched_model_t m;
    ssched_lp_solution_t ref;
    solved_scatter(&p, &m, &ref);
    size_t total = m.lp.n_cols + m.lp.n_rows;
    /* The all-slack basis is feasible (x = 0) but far from optimal: the
     * exact simplex must pivot to the same certified optimum. */
    unsigned char *basis = calloc(total, 1);
    memset(basis + m.lp.n_cols, 1, m.lp.n_rows);
    ssched_lp_options_t opt;
    ssched_lp_options_default(&opt);
    opt.start_basis = basis;
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&m.lp, &opt, &sol, &err), SSCHED_OK);
    CU_ASSERT(sol.repair_pivots > 0);
    CU_ASSERT(mpq_equal(sol.objective, ref.objective));
    CU_ASSERT_EQUAL(sol.float_solves, 0);
    /* A singular "basis" (no variable basic) falls back to the slack basis. */
    memset(basis, 0, total);
    ssched_lp_solution_t sol2;
    ssched_lp_solution_init(&sol2);
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&m.lp, &opt, &sol2, &err), SSCHED_OK);
    CU_ASSERT(mpq_equal(sol2.objective, ref.objective));
    ssched_lp_solution_free(&sol2);
    free(basis);
    ssched_lp_solution_free(&sol);
    ssched_lp_solution_free(&ref);
    ssched_model_free(&m);
    ssched_platform_free(&p);
}

static void test_export_formats(void)
{
    ssched_lp_t lp;
    build_small(&lp);
    /* rows with fractions are scaled to integers */
    mpq_t v;
    mpq_init(v);
    size_t r;
    q(v, "1/2");
    ssched_lp_add_row(&lp, "frac", SSCHED_ROW_LE, v, &r, NULL);
    q(v, "1/3");
    ssched_lp_add_coef(&lp, r, 0, v, NULL);
    q(v, "1/4");
    ssched_lp_add_coef(&lp, r, 1, v, NULL);
    mpq_clear(v);
    const char *lpath = tu_tmp_path("small.lp"), *mpath = tu_tmp_path("small.mps");
    FILE *f = fopen(lpath, "w");
    CU_ASSERT_EQUAL(ssched_write_lp(f, &lp, NULL), SSCHED_OK);
    fclose(f);
    f = fopen(mpath, "w");
    CU_ASSERT_EQUAL(ssched_write_mps(f, &lp, NULL), SSCHED_OK);
    fclose(f);
    char *text = tu_read_file(lpath);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "frac: 4 x + 3 y <= 6"));
    free(text);
    /* Both files give the same exact optimum as ssched, checked by glpsol --exact. */
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&lp, NULL, &sol, NULL), SSCHED_OK);
    /* with 4x + 3y <= 6 the optimum moves to frac and r3: x = 3/7, y = 10/7 */
    CU_ASSERT(tu_mpq_equals(sol.objective, "13/7"));
    const char *fmt[] = {"glpsol --exact --lp '%s' -o /dev/stdout | grep '^Objective'",
                         "glpsol --exact --freemps '%s' -o /dev/stdout | grep '^Objective'"};
    const char *files[] = {lpath, mpath};
    for (int k = 0; k < 2; k++) {
        tu_run_t run;
        tu_sh(&run, fmt[k], files[k]);
        CU_ASSERT_EQUAL(run.status, 0);
        const char *at = strstr(run.out, "obj = ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        CU_ASSERT_DOUBLE_EQUAL(fabs(atof(at + 6)), 13.0 / 7.0, 1e-6); /* MPS minimizes -obj */
        tu_run_free(&run);
    }
    ssched_lp_solution_free(&sol);
    ssched_lp_free(&lp);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"small LP exact optimum", test_small_lp},
        {"add_coef accumulates and cancels", test_add_coef_accumulates},
        {"certificate rejects perturbed solutions", test_certificate_rejects_mutations},
        {"exact repair from a non-optimal basis", test_repair_from_bad_basis},
        {"LP and MPS export", test_export_formats},
        {NULL, NULL}};
    return tu_main("lp", tests);
}
