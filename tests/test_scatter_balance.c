/* Load-balanced scatter (seed 004): every algorithm against brute force,
 * Algorithm 1 == Algorithm 2 == the exact search, the checker, the rounding
 * scheme, the CSV reader, the arrangement and the root choice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/scatter_balance.h"
#include "test_util.h"

/* ---- an independent model of the costs ------------------------------------
 * The brute force below evaluates eq. (1)-(2) with its own arithmetic on this
 * description, never with the library's cost code. */

#define MAXP 12
#define MAXPTS 8

typedef struct {
    int table;                /* 0: a*x + b; 1: table */
    long a_num, a_den, b_num, b_den;
    int npts;
    long xs[MAXPTS];
    long y_num[MAXPTS], y_den[MAXPTS];
} tcost_t;

typedef struct {
    int p;
    tcost_t comm[MAXP], comp[MAXP];
} tinst_t;

static unsigned long long rng_state = 88172645463325252ULL;
static long rnd(long lo, long hi) /* inclusive */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (long)(rng_state % (unsigned long long)(hi - lo + 1));
}

static void tcost_eval(mpq_t out, const tcost_t *f, long x)
{
    if (!f->table) {
        mpq_t t;
        mpq_init(t);
        mpq_set_si(out, f->a_num * x, (unsigned long)f->a_den);
        mpq_canonicalize(out);
        mpq_set_si(t, f->b_num, (unsigned long)f->b_den);
        mpq_canonicalize(t);
        mpq_add(out, out, t);
        mpq_clear(t);
        return;
    }
    int k = 0;
    while (k + 1 < f->npts && f->xs[k + 1] <= x)
        k++;
    mpq_t y0, y1;
    mpq_inits(y0, y1, NULL);
    mpq_set_si(y0, f->y_num[k], (unsigned long)f->y_den[k]);
    mpq_canonicalize(y0);
    if (f->xs[k] == x || k + 1 == f->npts) {
        mpq_set(out, y0);
    } else {
        mpq_set_si(y1, f->y_num[k + 1], (unsigned long)f->y_den[k + 1]);
        mpq_canonicalize(y1);
        /* y0 + (y1 - y0) (x - x_k) / (x_{k+1} - x_k) */
        mpq_sub(y1, y1, y0);
        mpq_set_si(out, x - f->xs[k], (unsigned long)(f->xs[k + 1] - f->xs[k]));
        mpq_canonicalize(out);
        mpq_mul(out, out, y1);
        mpq_add(out, out, y0);
    }
    mpq_clears(y0, y1, NULL);
}

/* eq. (1)-(2), written out independently */
static void tmakespan(const tinst_t *ti, const long *n, mpq_t out)
{
    mpq_t sent, t, fin;
    mpq_inits(sent, t, fin, NULL);
    mpq_set_ui(out, 0, 1);
    for (int i = 0; i < ti->p; i++) {
        tcost_eval(t, &ti->comm[i], n[i]);
        mpq_add(sent, sent, t);
        tcost_eval(t, &ti->comp[i], n[i]);
        mpq_add(fin, sent, t);
        if (mpq_cmp(fin, out) > 0)
            mpq_set(out, fin);
    }
    mpq_clears(sent, t, fin, NULL);
}

/* Enumerate all distributions of n items over p processors. */
static void brute_rec(const tinst_t *ti, long *n, int i, long left, mpq_t best, int *have,
                      mpq_t tmp)
{
    if (i == ti->p - 1) {
        n[i] = left;
        tmakespan(ti, n, tmp);
        if (!*have || mpq_cmp(tmp, best) < 0) {
            mpq_set(best, tmp);
            *have = 1;
        }
        return;
    }
    for (long e = 0; e <= left; e++) {
        n[i] = e;
        brute_rec(ti, n, i + 1, left - e, best, have, tmp);
    }
}

static void brute_force(const tinst_t *ti, long n, mpq_t best)
{
    long d[MAXP];
    int have = 0;
    mpq_t tmp;
    mpq_init(tmp);
    brute_rec(ti, d, 0, n, best, &have, tmp);
    mpq_clear(tmp);
}

/* Random costs.  kind 0: linear, 1: affine, 2: nondecreasing tables,
 * 3: arbitrary non-negative tables (Algorithm 1 only).  The root sometimes
 * has free communication, as in seed 004. */
static void random_cost(tcost_t *f, int kind, long maxn, int is_comm)
{
    memset(f, 0, sizeof *f);
    if (kind <= 1) {
        f->a_num = rnd(is_comm ? 0 : 1, 12);
        f->a_den = rnd(1, 6);
        f->b_num = kind == 1 ? rnd(0, 5) : 0;
        f->b_den = rnd(1, 4);
        return;
    }
    f->table = 1;
    f->npts = (int)rnd(2, 5);
    long x = 0;
    long y = rnd(0, 3);
    for (int k = 0; k < f->npts; k++) {
        f->xs[k] = x;
        f->y_num[k] = kind == 2 ? y : rnd(0, 40);
        f->y_den[k] = kind == 2 ? 3 : rnd(1, 3);
        y += rnd(0, 15);
        x += rnd(1, maxn / 2 + 1);
    }
    if (f->xs[f->npts - 1] < maxn)
        f->xs[f->npts - 1] = maxn; /* the table must reach n */
}

static void random_inst(tinst_t *ti, int p, int kind, long maxn)
{
    ti->p = p;
    for (int i = 0; i < p; i++) {
        random_cost(&ti->comm[i], kind, maxn, 1);
        random_cost(&ti->comp[i], kind, maxn, 0);
    }
    if (rnd(0, 1) && kind <= 1) {
        ti->comm[p - 1].a_num = 0; /* the root sends to itself for free */
        ti->comm[p - 1].b_num = 0;
    }
}

static void to_cost(ssched_sb_cost_t *f, const tcost_t *t)
{
    ssched_error_t err;
    if (!t->table) {
        mpq_t a, b;
        mpq_inits(a, b, NULL);
        mpq_set_si(a, t->a_num, (unsigned long)t->a_den);
        mpq_canonicalize(a);
        mpq_set_si(b, t->b_num, (unsigned long)t->b_den);
        mpq_canonicalize(b);
        CU_ASSERT_EQUAL(ssched_sb_cost_init_affine(f, a, b, &err), SSCHED_OK);
        mpq_clears(a, b, NULL);
        return;
    }
    mpq_t ys[MAXPTS];
    for (int k = 0; k < t->npts; k++) {
        mpq_init(ys[k]);
        mpq_set_si(ys[k], t->y_num[k], (unsigned long)t->y_den[k]);
        mpq_canonicalize(ys[k]);
    }
    CU_ASSERT_EQUAL(ssched_sb_cost_init_table(f, (size_t)t->npts, t->xs, ys, &err), SSCHED_OK);
    for (int k = 0; k < t->npts; k++)
        mpq_clear(ys[k]);
}

static void to_platform(ssched_sb_platform_t *pl, const tinst_t *ti)
{
    ssched_sb_platform_init(pl);
    for (int i = 0; i < ti->p; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i + 1);
        ssched_sb_cost_t c, w;
        to_cost(&c, &ti->comm[i]);
        to_cost(&w, &ti->comp[i]);
        ssched_error_t err;
        CU_ASSERT_EQUAL(ssched_sb_platform_add(pl, name, &c, &w, &err), SSCHED_OK);
        ssched_sb_cost_free(&c);
        ssched_sb_cost_free(&w);
    }
}

/* Solve; check the distribution sums to n and that the reported makespan is
 * the independent eq. (1)-(2) value of the distribution. */
static void solve_checked(const ssched_sb_platform_t *pl, const tinst_t *ti, long n,
                          ssched_sb_algorithm_t alg, mpq_t makespan, ssched_sb_result_t *r)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_sb_solve(pl, n, alg, r, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "solve %s failed: %s\n", ssched_sb_algorithm_name(alg), err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    long sum = 0;
    for (size_t i = 0; i < pl->p; i++) {
        CU_ASSERT(r->items[i] >= 0);
        sum += r->items[i];
    }
    CU_ASSERT_EQUAL(sum, n);
    tmakespan(ti, r->items, makespan);
    CU_ASSERT(mpq_equal(makespan, r->makespan));
}

/* ---- brute force on small cases ------------------------------------------- */

static void test_brute_force_all_algorithms(void)
{
    rng_state = 12345;
    int checked = 0;
    for (int kind = 0; kind <= 3; kind++) {
        for (int rep = 0; rep < 100; rep++) {
            int p = (int)rnd(1, 4);
            long n = rnd(0, 12);
            tinst_t ti;
            random_inst(&ti, p, kind, n);
            ssched_sb_platform_t pl;
            to_platform(&pl, &ti);
            mpq_t opt, ms;
            mpq_inits(opt, ms, NULL);
            brute_force(&ti, n, opt);
            ssched_sb_result_t r;
            ssched_sb_result_init(&r);
            /* exact algorithms: the brute-force optimum */
            solve_checked(&pl, &ti, n, SSCHED_SB_DP, ms, &r);
            CU_ASSERT(mpq_equal(ms, opt));
            CU_ASSERT(r.optimal);
            if (kind <= 2) {
                solve_checked(&pl, &ti, n, SSCHED_SB_DP_FAST, ms, &r);
                CU_ASSERT(mpq_equal(ms, opt));
                solve_checked(&pl, &ti, n, SSCHED_SB_EXACT, ms, &r);
                CU_ASSERT(mpq_equal(ms, opt));
            }
            /* heuristics: never below the optimum; eq. (4) above it */
            solve_checked(&pl, &ti, n, SSCHED_SB_UNIFORM, ms, &r);
            CU_ASSERT(mpq_cmp(ms, opt) >= 0);
            if (kind <= 1) {
                solve_checked(&pl, &ti, n, SSCHED_SB_LP, ms, &r);
                CU_ASSERT(mpq_cmp(ms, opt) >= 0);
                CU_ASSERT(mpq_cmp(r.relaxed_makespan, opt) <= 0);
                mpq_t b;
                mpq_init(b);
                mpq_add(b, opt, r.guarantee);
                CU_ASSERT(mpq_cmp(ms, b) <= 0);
                mpq_clear(b);
            }
            if (kind == 0) {
                solve_checked(&pl, &ti, n, SSCHED_SB_CLOSED_FORM, ms, &r);
                CU_ASSERT(mpq_cmp(ms, opt) >= 0);
                CU_ASSERT(mpq_cmp(r.relaxed_makespan, opt) <= 0);
            }
            checked++;
            ssched_sb_result_free(&r);
            mpq_clears(opt, ms, NULL);
            ssched_sb_platform_free(&pl);
        }
    }
    CU_ASSERT_EQUAL(checked, 400);
}

/* The brute force itself must see the exhaustive space: p = 4, n = 12. */
static void test_brute_force_largest(void)
{
    rng_state = 777;
    for (int kind = 0; kind <= 2; kind++) {
        tinst_t ti;
        random_inst(&ti, 4, kind, 12);
        ssched_sb_platform_t pl;
        to_platform(&pl, &ti);
        mpq_t opt, ms;
        mpq_inits(opt, ms, NULL);
        brute_force(&ti, 12, opt);
        ssched_sb_result_t r;
        ssched_sb_result_init(&r);
        for (int a = SSCHED_SB_DP; a <= SSCHED_SB_EXACT; a++) {
            solve_checked(&pl, &ti, 12, (ssched_sb_algorithm_t)a, ms, &r);
            CU_ASSERT(mpq_equal(ms, opt));
        }
        ssched_sb_result_free(&r);
        mpq_clears(opt, ms, NULL);
        ssched_sb_platform_free(&pl);
    }
}

/* ---- Algorithm 1 == Algorithm 2 == exact search on larger instances ------- */

/* Algorithm 1, Algorithm 2 and the exact search on ti with n tasks, each
 * result checked (solve_checked): the three makespans must be equal; 1 if
 * they are. */
static int three_agree(const tinst_t *ti, long n)
{
    ssched_sb_platform_t pl;
    to_platform(&pl, ti);
    mpq_t m1, m2, m3;
    mpq_inits(m1, m2, m3, NULL);
    ssched_sb_result_t r;
    ssched_sb_result_init(&r);
    solve_checked(&pl, ti, n, SSCHED_SB_DP, m1, &r);
    solve_checked(&pl, ti, n, SSCHED_SB_DP_FAST, m2, &r);
    solve_checked(&pl, ti, n, SSCHED_SB_EXACT, m3, &r);
    CU_ASSERT(mpq_equal(m1, m2));
    CU_ASSERT(mpq_equal(m1, m3));
    int same = mpq_equal(m1, m2) && mpq_equal(m1, m3);
    ssched_sb_result_free(&r);
    mpq_clears(m1, m2, m3, NULL);
    ssched_sb_platform_free(&pl);
    return same;
}

static void compare_exact_three(int kind, int reps, int maxp, long maxn)
{
    for (int rep = 0; rep < reps; rep++) {
        int p = (int)rnd(1, maxp);
        long n = rnd(0, maxn);
        tinst_t ti;
        random_inst(&ti, p, kind, n);
        if (!three_agree(&ti, n))
            fprintf(stderr, "mismatch: kind %d p %d n %ld\n", kind, p, n);
    }
}

static void test_dp_equals_fast_equals_exact(void)
{
    rng_state = 4242;
    compare_exact_three(0, 300, 10, 400); /* linear */
    compare_exact_three(1, 200, 10, 400); /* affine */
    compare_exact_three(2, 200, 6, 200);  /* nondecreasing tables */
}

/* Seed 004's shape: many processors, the root with free communication and
 * a fast network relative to computation (lambda << mu), plus processors
 * Theorem 2 drops (lambda > D) in the middle of the order. */
static void test_exact_with_useless_processors(void)
{
    rng_state = 99;
    for (int rep = 0; rep < 40; rep++) {
        tinst_t ti;
        int p = (int)rnd(2, 7);
        ti.p = p;
        for (int i = 0; i < p; i++) {
            memset(&ti.comm[i], 0, sizeof ti.comm[i]);
            memset(&ti.comp[i], 0, sizeof ti.comp[i]);
            int slow_link = rnd(0, 3) == 0;
            ti.comm[i].a_num = slow_link ? rnd(20, 60) : rnd(0, 2);
            ti.comm[i].a_den = slow_link ? 1 : 10;
            ti.comm[i].b_den = ti.comp[i].b_den = 1;
            ti.comp[i].a_num = rnd(5, 30);
            ti.comp[i].a_den = 1;
        }
        ti.comm[p - 1].a_num = 0;
        long n = rnd(50, 400);
        three_agree(&ti, n);
    }
}

/* Mixed cost kinds per processor, zero slopes, large constant terms and
 * flat table segments: the exact search's bounds must stay valid. */
static void test_exact_stress_mixed(void)
{
    rng_state = 2024;
    for (int rep = 0; rep < 250; rep++) {
        tinst_t ti;
        int p = (int)rnd(1, 9);
        long n = rnd(0, 300);
        ti.p = p;
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < 2; j++) {
                tcost_t *f = j ? &ti.comp[i] : &ti.comm[i];
                int kind = (int)rnd(0, 2);
                random_cost(f, kind, n, j == 0);
                if (!f->table && rnd(0, 3) == 0)
                    f->a_num = 0;                 /* free comm or comp */
                if (!f->table && rnd(0, 3) == 0)
                    f->b_num = rnd(0, 200);       /* a large latency */
                if (f->table && rnd(0, 2) == 0)
                    for (int k = 1; k < f->npts; k++) { /* flat pieces */
                        f->y_num[k] = f->y_num[k - 1];
                        f->y_den[k] = f->y_den[k - 1];
                    }
            }
        }
        if (!three_agree(&ti, n))
            fprintf(stderr, "mismatch (mixed): rep %d p %d n %ld\n", rep, p, n);
    }
}

/* Denominators whose LCM exceeds 2^61: the DPs must take the mpz path and
 * still agree with the brute force. */
static void test_mpz_path(void)
{
    static const long primes[] = {1000003, 1000033, 1000037, 1000039, 1000081, 1000099,
                                  1000117, 1000121};
    tinst_t ti;
    ti.p = 4;
    for (int i = 0; i < 4; i++) {
        memset(&ti.comm[i], 0, sizeof ti.comm[i]);
        memset(&ti.comp[i], 0, sizeof ti.comp[i]);
        ti.comm[i].a_num = 3 + i;
        ti.comm[i].a_den = primes[2 * i];
        ti.comm[i].b_den = 1;
        ti.comp[i].a_num = 5 * primes[2 * i + 1] / 3 + i;
        ti.comp[i].a_den = primes[2 * i + 1];
        ti.comp[i].b_den = 1;
    }
    ssched_sb_platform_t pl;
    to_platform(&pl, &ti);
    mpq_t opt, ms;
    mpq_inits(opt, ms, NULL);
    brute_force(&ti, 12, opt);
    ssched_sb_result_t r;
    ssched_sb_result_init(&r);
    solve_checked(&pl, &ti, 12, SSCHED_SB_DP, ms, &r);
    CU_ASSERT_EQUAL(r.int64_path, 0);
    CU_ASSERT(mpq_equal(ms, opt));
    solve_checked(&pl, &ti, 12, SSCHED_SB_DP_FAST, ms, &r);
    CU_ASSERT_EQUAL(r.int64_path, 0);
    CU_ASSERT(mpq_equal(ms, opt));
    solve_checked(&pl, &ti, 12, SSCHED_SB_EXACT, ms, &r);
    CU_ASSERT(mpq_equal(ms, opt));
    ssched_sb_result_free(&r);
    mpq_clears(opt, ms, NULL);
    ssched_sb_platform_free(&pl);
}

/* ---- the checker ------------------------------------------------------------ */

static void test_checker_by_hand(void)
{
    /* P1: comm 1/2 per item, comp 3 per item; P2: comm 1 + 1/4 x, comp 2x;
     * root P3: comm 0, comp x + 1.  Items (2, 4, 1):
     * P1 receives until 1, ends 1 + 6 = 7; P2 receives until 1 + 2 = 3,
     * ends 3 + 8 = 11; P3 receives until 3, ends 3 + 2 = 5.  T = 11. */
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    ssched_sb_cost_t c, w;
    ssched_error_t err;
    const char *spec[3][4] = {{"1/2", "0", "3", "0"}, {"1/4", "1", "2", "0"}, {"0", "0", "1", "1"}};
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i + 1);
        ssched_rational_parse(a, spec[i][0], &err);
        ssched_rational_parse(b, spec[i][1], &err);
        ssched_sb_cost_init_affine(&c, a, b, &err);
        ssched_rational_parse(a, spec[i][2], &err);
        ssched_rational_parse(b, spec[i][3], &err);
        ssched_sb_cost_init_affine(&w, a, b, &err);
        CU_ASSERT_EQUAL(ssched_sb_platform_add(&pl, name, &c, &w, &err), SSCHED_OK);
        ssched_sb_cost_free(&c);
        ssched_sb_cost_free(&w);
    }
    long items[3] = {2, 4, 1};
    mpq_t ms, fin[3], se[3];
    mpq_init(ms);
    for (int i = 0; i < 3; i++) {
        mpq_init(fin[i]);
        mpq_init(se[i]);
    }
    CU_ASSERT_EQUAL(ssched_sb_evaluate(&pl, items, ms, fin, se, &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(ms, "11"));
    CU_ASSERT(tu_mpq_equals(fin[0], "7"));
    CU_ASSERT(tu_mpq_equals(fin[1], "11"));
    CU_ASSERT(tu_mpq_equals(fin[2], "5"));
    CU_ASSERT(tu_mpq_equals(se[1], "3"));
    long bad[3] = {2, -1, 1};
    CU_ASSERT_EQUAL(ssched_sb_evaluate(&pl, bad, ms, NULL, NULL, &err), SSCHED_EINPUT);
    /* the guarantee of eq. (4): 1/2 + 5/4 + 0 + max(3, 2, 2) */
    ssched_sb_guarantee(&pl, a);
    CU_ASSERT(tu_mpq_equals(a, "19/4"));
    mpq_clear(ms);
    for (int i = 0; i < 3; i++) {
        mpq_clear(fin[i]);
        mpq_clear(se[i]);
    }
    mpq_clears(a, b, NULL);
    ssched_sb_platform_free(&pl);
}

/* ---- rounding scheme ---------------------------------------------------------- */

static void test_rounding_scheme(void)
{
    ssched_error_t err;
    /* 2.9, 1.3, 3.8: 2.9 is nearest an integer -> 3 (e = +0.1); then round
     * down the one nearest its floor, 1.3 -> 1 (e = -0.2); 3.8 absorbs: 4. */
    mpq_t r[5];
    for (int i = 0; i < 5; i++)
        mpq_init(r[i]);
    mpq_set_si(r[0], 29, 10);
    mpq_set_si(r[1], 13, 10);
    mpq_set_si(r[2], 38, 10);
    mpq_canonicalize(r[2]);
    long out[5];
    CU_ASSERT_EQUAL(ssched_sb_round(3, r, 8, out, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(out[0], 3);
    CU_ASSERT_EQUAL(out[1], 1);
    CU_ASSERT_EQUAL(out[2], 4);
    /* a wrong sum is refused */
    CU_ASSERT_EQUAL(ssched_sb_round(3, r, 9, out, &err), SSCHED_EINPUT);
    /* random property check: same sum, every |n' - n| < 1 */
    rng_state = 5;
    for (int rep = 0; rep < 300; rep++) {
        int p = (int)rnd(1, 5);
        long n = rnd(0, 50);
        /* random rational shares summing to n */
        long w[5], tot = 0;
        for (int i = 0; i < p; i++)
            tot += (w[i] = rnd(1, 9));
        for (int i = 0; i < p; i++) {
            mpq_set_si(r[i], n * w[i], (unsigned long)tot);
            mpq_canonicalize(r[i]);
        }
        CU_ASSERT_EQUAL_FATAL(ssched_sb_round((size_t)p, r, n, out, &err), SSCHED_OK);
        long s = 0;
        mpq_t d, one;
        mpq_inits(d, one, NULL);
        mpq_set_ui(one, 1, 1);
        for (int i = 0; i < p; i++) {
            s += out[i];
            mpq_set_si(d, out[i], 1);
            mpq_sub(d, d, r[i]);
            mpq_abs(d, d);
            CU_ASSERT(mpq_cmp(d, one) < 0);
            CU_ASSERT(out[i] >= 0);
        }
        mpq_clears(d, one, NULL);
        CU_ASSERT_EQUAL(s, n);
    }
    for (int i = 0; i < 5; i++)
        mpq_clear(r[i]);
}

/* ---- CSV, arrangement, relay model, root choice ---------------------------- */

static const char *table1(void)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/seed004_table1.csv", SSCHED_DATA_DIR);
    return path;
}

static void test_csv_table1_exact(void)
{
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, table1(), &err), SSCHED_OK);
    CU_ASSERT_EQUAL(pl.p, 16);
    CU_ASSERT_STRING_EQUAL(pl.procs[0].name, "dinadan");
    CU_ASSERT(tu_mpq_equals(pl.procs[0].comp.slope, "9288/1000000"));
    CU_ASSERT(tu_mpq_equals(pl.procs[1].comm.slope, "112/10000000"));
    CU_ASSERT(tu_mpq_equals(pl.procs[4].comm.slope, "815/10000000"));
    CU_ASSERT_EQUAL(ssched_sb_platform_costs(&pl), SSCHED_SB_LINEAR);
    CU_ASSERT_EQUAL(ssched_sb_platform_holder(&pl), 0);
    ssched_sb_platform_free(&pl);
}

static void test_csv_affine_and_tables(void)
{
    const char *p1 = tu_tmp_path("affine.csv");
    tu_write_file(p1, "# affine\r\nname, mu, lambda, mu0, lambda0\r\n\r\na,1/3,0.5,2,1e-1\r\n"
                      "root,2,0,0,0\r\n");
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, p1, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(pl.p, 2);
    CU_ASSERT(tu_mpq_equals(pl.procs[0].comp.slope, "1/3"));
    CU_ASSERT(tu_mpq_equals(pl.procs[0].comp.offset, "2"));
    CU_ASSERT(tu_mpq_equals(pl.procs[0].comm.offset, "1/10"));
    CU_ASSERT_EQUAL(ssched_sb_platform_costs(&pl), SSCHED_SB_AFFINE);
    CU_ASSERT_EQUAL(ssched_sb_platform_holder(&pl), 1);
    ssched_sb_platform_free(&pl);

    const char *p2 = tu_tmp_path("tables.csv");
    tu_write_file(p2, "name,items,comm,comp\nA,0,0,0\nB,0,0,1\nA,10,1,5\nA,20,3,12\nB,20,0,9\n");
    ssched_sb_platform_init(&pl);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, p2, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(pl.p, 2);
    CU_ASSERT_EQUAL(ssched_sb_platform_costs(&pl), SSCHED_SB_GENERAL);
    mpq_t v;
    mpq_init(v);
    ssched_sb_cost_eval(v, &pl.procs[0].comp, 15); /* 5 + (12-5)/2 */
    CU_ASSERT(tu_mpq_equals(v, "17/2"));
    ssched_sb_cost_eval(v, &pl.procs[1].comp, 5); /* 1 + 8/4 */
    CU_ASSERT(tu_mpq_equals(v, "3"));
    CU_ASSERT_EQUAL(ssched_sb_cost_domain(&pl.procs[0].comm), 20);
    mpq_clear(v);
    /* a table that does not reach n is refused by the algorithms */
    ssched_sb_result_t r;
    ssched_sb_result_init(&r);
    CU_ASSERT_EQUAL(ssched_sb_solve(&pl, 21, SSCHED_SB_DP, &r, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "stops at 20"));
    CU_ASSERT_EQUAL(ssched_sb_solve(&pl, 20, SSCHED_SB_LP, &r, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_sb_solve(&pl, 20, SSCHED_SB_EXACT, &r, &err), SSCHED_OK);
    ssched_sb_result_free(&r);
    ssched_sb_platform_free(&pl);
}

static void expect_csv_error(const char *text, const char *fragment)
{
    const char *path = tu_tmp_path("bad.csv");
    tu_write_file(path, text);
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_sb_platform_load_csv(&pl, path, &err), SSCHED_EINPUT);
    if (!strstr(err.message, fragment)) {
        fprintf(stderr, "expected '%s' in '%s'\n", fragment, err.message);
        CU_FAIL("wrong message");
    }
    CU_ASSERT_PTR_NULL(strchr(err.message, '\n'));
    ssched_sb_platform_free(&pl);
}

static void test_csv_errors(void)
{
    expect_csv_error("", "no header");
    expect_csv_error("name,mu,lambda\n", "no processors");
    expect_csv_error("name,mu,lambda\na,1,2\nb,1\n", ":3: expected 3 fields");
    expect_csv_error("name,mu,lambda\na,1,x\n", ":2: column lambda");
    expect_csv_error("name,mu,lambda\na,-1,0\n", ":2: negative mu");
    expect_csv_error("name,mu,lambda\na,1,0\na,2,0\n", ":3: duplicate processor name 'a'");
    expect_csv_error("name,mu,speed\n", ":1: unknown column 'speed'");
    expect_csv_error("name,mu\n", "missing column 'lambda'");
    expect_csv_error("name,items,comm,comp\na,1,0,0\n", "must start at 0");
    expect_csv_error("name,items,comm,comp\na,0,0,0\na,0,1,1\n", "must increase");
    expect_csv_error("name,items,comm,comp\na,0,0,0\na,x,1,1\n", ":3: column items");
    expect_csv_error("name,items,comm,comp,mu\n", "cannot be mixed");
    expect_csv_error("name,mu,lambda\n,1,0\n", "empty processor name");
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_sb_platform_load_csv(&pl, "/nonexistent/x.csv", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot open"));
    ssched_sb_platform_free(&pl);
}

static void names_of(const ssched_sb_platform_t *pl, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (size_t i = 0; i < pl->p; i++) {
        strncat(buf, pl->procs[i].name, cap - strlen(buf) - 2);
        strncat(buf, " ", cap - strlen(buf) - 1);
    }
}

static void test_arrange_orders(void)
{
    ssched_sb_platform_t pl, a;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, table1(), &err), SSCHED_OK);
    mpq_t pre;
    mpq_init(pre);
    char buf[1024];
    ssched_sb_platform_init(&a);
    CU_ASSERT_EQUAL(ssched_sb_arrange(&pl, 0, 0, SSCHED_SB_ORDER_BANDWIDTH_DESC, 100, &a, pre, &err),
                    SSCHED_OK);
    names_of(&a, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "caseb pellinore sekhmet seven-a seven-b leda-1 leda-2 leda-3 "
                                "leda-4 leda-5 leda-6 leda-7 leda-8 merlin-a merlin-b dinadan ");
    CU_ASSERT_EQUAL(mpq_sgn(pre), 0);
    ssched_sb_platform_free(&a);
    ssched_sb_platform_init(&a);
    CU_ASSERT_EQUAL(ssched_sb_arrange(&pl, 0, 0, SSCHED_SB_ORDER_BANDWIDTH_ASC, 100, &a, pre, &err),
                    SSCHED_OK);
    names_of(&a, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "merlin-a merlin-b leda-1 leda-2 leda-3 leda-4 leda-5 leda-6 "
                                "leda-7 leda-8 seven-a seven-b sekhmet pellinore caseb dinadan ");
    ssched_sb_platform_free(&a);
    ssched_sb_platform_init(&a);
    CU_ASSERT_EQUAL(ssched_sb_arrange(&pl, 0, 0, SSCHED_SB_ORDER_GIVEN, 100, &a, pre, &err),
                    SSCHED_OK);
    CU_ASSERT_STRING_EQUAL(a.procs[0].name, "pellinore");
    CU_ASSERT_STRING_EQUAL(a.procs[15].name, "dinadan");
    ssched_sb_platform_free(&a);
    /* relay model: root caseb (lambda 1e-5): pre-transfer 1e-5 * 100, and
     * pellinore now costs 1.12e-5 + 1e-5 per item, caseb nothing */
    ssched_sb_platform_init(&a);
    CU_ASSERT_EQUAL(ssched_sb_arrange(&pl, 0, 2, SSCHED_SB_ORDER_GIVEN, 100, &a, pre, &err),
                    SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(pre, "1/1000"));
    CU_ASSERT_STRING_EQUAL(a.procs[15].name, "caseb");
    CU_ASSERT(tu_mpq_equals(a.procs[15].comm.slope, "0"));
    CU_ASSERT_STRING_EQUAL(a.procs[0].name, "dinadan");
    CU_ASSERT(tu_mpq_equals(a.procs[0].comm.slope, "1/100000"));
    CU_ASSERT(tu_mpq_equals(a.procs[1].comm.slope, "212/10000000"));
    ssched_sb_platform_free(&a);
    mpq_clear(pre);
    ssched_sb_platform_free(&pl);
}

static void test_choose_root(void)
{
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, table1(), &err), SSCHED_OK);
    long n = 2000;
    size_t best = 99;
    ssched_sb_root_eval_t ev[16];
    CU_ASSERT_EQUAL_FATAL(ssched_sb_choose_root(&pl, 0, SSCHED_SB_ORDER_BANDWIDTH_DESC, n,
                                                SSCHED_SB_EXACT, &best, ev, &err),
                          SSCHED_OK);
    /* recompute every candidate by hand: arrange + Algorithm 2 */
    mpq_t pre, tot, mn;
    mpq_inits(pre, tot, mn, NULL);
    size_t arg = 0;
    for (size_t k = 0; k < pl.p; k++) {
        ssched_sb_platform_t a;
        ssched_sb_platform_init(&a);
        ssched_sb_result_t r;
        ssched_sb_result_init(&r);
        CU_ASSERT_EQUAL(ssched_sb_arrange(&pl, 0, k, SSCHED_SB_ORDER_BANDWIDTH_DESC, n, &a, pre, &err),
                        SSCHED_OK);
        CU_ASSERT_EQUAL(ssched_sb_solve(&a, n, SSCHED_SB_DP_FAST, &r, &err), SSCHED_OK);
        mpq_add(tot, pre, r.makespan);
        CU_ASSERT(mpq_equal(tot, ev[k].total));
        if (k == 0 || mpq_cmp(tot, mn) < 0) {
            mpq_set(mn, tot);
            arg = k;
        }
        ssched_sb_result_free(&r);
        ssched_sb_platform_free(&a);
    }
    CU_ASSERT_EQUAL(best, arg);
    CU_ASSERT_EQUAL(best, 0); /* dinadan holds the data and has the fastest links */
    ssched_sb_root_evals_free(ev, pl.p);
    mpq_clears(pre, tot, mn, NULL);
    ssched_sb_platform_free(&pl);
}

/* Seed 004's instance at the paper's size: the exact search, the LP
 * heuristic and the closed form on the descending order (the values are
 * this model's predictions; Algorithm 2 confirms them in the bench). */
static void test_table1_full_size(void)
{
    ssched_sb_platform_t pl, a;
    ssched_sb_platform_init(&pl);
    ssched_sb_platform_init(&a);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, table1(), &err), SSCHED_OK);
    mpq_t pre, b;
    mpq_inits(pre, b, NULL);
    long n = 817101;
    CU_ASSERT_EQUAL_FATAL(
        ssched_sb_arrange(&pl, 0, 0, SSCHED_SB_ORDER_BANDWIDTH_DESC, n, &a, pre, &err), SSCHED_OK);
    ssched_sb_result_t ex, lp, cf;
    ssched_sb_result_init(&ex);
    ssched_sb_result_init(&lp);
    ssched_sb_result_init(&cf);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_solve(&a, n, SSCHED_SB_EXACT, &ex, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_solve(&a, n, SSCHED_SB_CLOSED_FORM, &cf, &err), SSCHED_OK);
    CU_ASSERT(mpq_cmp(cf.relaxed_makespan, ex.makespan) <= 0);
    CU_ASSERT(mpq_cmp(cf.makespan, ex.makespan) >= 0);
    mpq_add(b, ex.makespan, cf.guarantee);
    CU_ASSERT(mpq_cmp(cf.makespan, b) <= 0);
    if (ssched_sb_solve(&a, n, SSCHED_SB_LP, &lp, &err) == SSCHED_OK) {
        CU_ASSERT(mpq_equal(lp.relaxed_makespan, cf.relaxed_makespan));
        CU_ASSERT(mpq_cmp(lp.makespan, b) <= 0);
    } else {
        fprintf(stderr, "LP: %s\n", err.message);
        CU_FAIL("LP heuristic failed");
    }
    /* every processor is useful on this platform (Theorem 2) */
    for (size_t i = 0; i < a.p; i++)
        CU_ASSERT(cf.useful[i]);
    ssched_sb_result_free(&ex);
    ssched_sb_result_free(&lp);
    ssched_sb_result_free(&cf);
    mpq_clears(pre, b, NULL);
    ssched_sb_platform_free(&a);
    ssched_sb_platform_free(&pl);
}

static void test_svg(void)
{
    ssched_sb_platform_t pl, a;
    ssched_sb_platform_init(&pl);
    ssched_sb_platform_init(&a);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, table1(), &err), SSCHED_OK);
    mpq_t pre;
    mpq_init(pre);
    CU_ASSERT_EQUAL(ssched_sb_arrange(&pl, 0, 0, SSCHED_SB_ORDER_BANDWIDTH_DESC, 1000, &a, pre, &err),
                    SSCHED_OK);
    ssched_sb_result_t r;
    ssched_sb_result_init(&r);
    CU_ASSERT_EQUAL(ssched_sb_solve(&a, 1000, SSCHED_SB_UNIFORM, &r, &err), SSCHED_OK);
    const char *path = tu_tmp_path("plot.svg");
    FILE *f = fopen(path, "w");
    CU_ASSERT_EQUAL(ssched_write_sb_svg(f, &a, &r, "t<&>", &err), SSCHED_OK);
    fclose(f);
    char *text = tu_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<svg"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "</svg>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "t&lt;&amp;&gt;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ">merlin-b<"));
    free(text);
    ssched_sb_result_free(&r);
    mpq_clear(pre);
    ssched_sb_platform_free(&a);
    ssched_sb_platform_free(&pl);
}

static void test_decimal(void)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, 504969037, 1250000);
    char *s = ssched_rational_to_decimal(q, 6, SSCHED_DECIMAL_FIXED);
    CU_ASSERT_STRING_EQUAL(s, "403.975230");
    free(s);
    mpq_set_si(q, 1, 3);
    s = ssched_rational_to_decimal(q, 2, SSCHED_DECIMAL_FIXED);
    CU_ASSERT_STRING_EQUAL(s, "0.33");
    free(s);
    mpq_set_si(q, -5, 1000);
    s = ssched_rational_to_decimal(q, 2, SSCHED_DECIMAL_FIXED);
    CU_ASSERT_STRING_EQUAL(s, "-0.01");
    free(s);
    mpq_set_si(q, 7, 1);
    s = ssched_rational_to_decimal(q, 0, SSCHED_DECIMAL_FIXED);
    CU_ASSERT_STRING_EQUAL(s, "7");
    free(s);
    mpq_clear(q);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"all algorithms vs brute force (p<=4, n<=12)", test_brute_force_all_algorithms},
        {"brute force at p=4, n=12", test_brute_force_largest},
        {"Algorithm 1 == Algorithm 2 == exact search", test_dp_equals_fast_equals_exact},
        {"exact search with useless processors", test_exact_with_useless_processors},
        {"exact search stress: mixed kinds, zeros, latencies", test_exact_stress_mixed},
        {"mpz path of the DPs", test_mpz_path},
        {"checker eq. (1)-(2) by hand", test_checker_by_hand},
        {"rounding scheme of section 3.3", test_rounding_scheme},
        {"CSV: Table 1 parsed exactly", test_csv_table1_exact},
        {"CSV: affine and table formats", test_csv_affine_and_tables},
        {"CSV: errors name file and line", test_csv_errors},
        {"arrangement: orders and relay model", test_arrange_orders},
        {"root choice of section 3.4", test_choose_root},
        {"Table 1 at n = 817101", test_table1_full_size},
        {"SVG stair diagram", test_svg},
        {"decimal rendering", test_decimal},
        {NULL, NULL}};
    return tu_main("scatter_balance", tests);
}
