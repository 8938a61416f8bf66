/* Exact number parsing and the double -> simplest rational conversion. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "test_util.h"

static void expect_parse(const char *text, const char *value)
{
    mpq_t q;
    mpq_init(q);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(q, text, &err), SSCHED_OK);
    if (!tu_mpq_equals(q, value)) {
        char *s = ssched_rational_to_string(q);
        fprintf(stderr, "parse '%s' gave %s, expected %s\n", text, s, value);
        free(s);
        CU_FAIL("wrong value");
    }
    mpq_clear(q);
}

static void expect_reject(const char *text, const char *fragment)
{
    mpq_t q;
    mpq_init(q);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_rational_parse(q, text, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, fragment));
    mpq_clear(q);
}

static void test_parse_exact(void)
{
    expect_parse("3", "3");
    expect_parse("0.125", "1/8");
    expect_parse("1/3", "1/3");
    expect_parse("2.5e-3", "1/400");
    expect_parse("2.5E+3", "2500");
    expect_parse("-7/14", "-1/2");
    expect_parse("  42 ", "42");
    expect_parse(".5", "1/2");
    expect_parse("5.", "5");
    expect_parse("1e-7", "1/10000000");
    expect_parse("123456789/987654321", "13717421/109739369");
    expect_parse("0.1", "1/10");
    expect_parse("+4", "4");
}

static void test_parse_rejects(void)
{
    expect_reject("", "empty");
    expect_reject("   ", "empty");
    expect_reject("abc", "not a number");
    expect_reject("1/0", "zero denominator");
    expect_reject("1/-3", "not a number");
    expect_reject("1.2.3", "not a number");
    expect_reject("--1", "not a number");
    expect_reject("inf", "not a number");
    expect_reject("nan", "not a number");
    expect_reject("1e", "not a number");
    expect_reject("1e999999999", "not a number");
    expect_reject("0x10", "not a number");
    expect_reject("1/", "not a number");
    expect_reject("/2", "not a number");
}

/* q rounds to d iff |q - d| < half the gap to the neighbour on that side,
 * or equal to it with d's last significand bit even (ties to even). */
static int rounds_to(const mpq_t q, double d)
{
    mpq_t dq, diff, half;
    mpq_inits(dq, diff, half, NULL);
    mpq_set_d(dq, d);
    mpq_sub(diff, q, dq);
    double nb = mpq_sgn(diff) >= 0 ? nextafter(d, INFINITY) : nextafter(d, -INFINITY);
    mpq_set_d(half, nb);
    mpq_sub(half, half, dq);
    mpq_div_2exp(half, half, 1);
    mpq_abs(diff, diff);
    mpq_abs(half, half);
    int c = mpq_cmp(diff, half);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int ok = c < 0 || (c == 0 && (bits & 1) == 0);
    mpq_clears(dq, diff, half, NULL);
    return ok;
}

static void expect_from_double(double d, const char *value)
{
    mpq_t q;
    mpq_init(q);
    CU_ASSERT_EQUAL_FATAL(ssched_rational_from_double(q, d, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(q, value));
    CU_ASSERT(rounds_to(q, d));
    mpq_clear(q);
}

static void test_from_double(void)
{
    expect_from_double(0.1, "1/10");
    expect_from_double(1.0 / 3.0, "1/3");
    expect_from_double(0.125, "1/8");
    expect_from_double(2.5e-3, "1/400");
    expect_from_double(-0.75, "-3/4");
    expect_from_double(3.0, "3");
    expect_from_double(0.0, "0");
    expect_from_double(1e-7, "1/10000000");
    expect_from_double(123456789.0 / 987654321.0, "13717421/109739369");
    mpq_t q;
    mpq_init(q);
    CU_ASSERT_EQUAL(ssched_rational_from_double(q, NAN, NULL), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_rational_from_double(q, INFINITY, NULL), SSCHED_EINPUT);
    mpq_clear(q);
}

/* Property: for many doubles, the result rounds back to the same double and
 * no simpler fraction does (checked against every smaller denominator for
 * small results). */
static void test_from_double_property(void)
{
    uint64_t state = 12345;
    mpq_t q, cand;
    mpq_inits(q, cand, NULL);
    double specials[] = {DBL_MAX, DBL_MIN, 4.9e-324, 1e300, 1e-300, 0.3, 2.0 / 7.0};
    for (int k = 0; k < 2000; k++) {
        double d;
        if (k < 7) {
            d = specials[k];
        } else {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            int num = (int)((state >> 40) % 1000) + 1;
            int den = (int)((state >> 20) % 997) + 1;
            d = (double)num / (double)den;
        }
        CU_ASSERT_EQUAL_FATAL(ssched_rational_from_double(q, d, NULL), SSCHED_OK);
        CU_ASSERT_FATAL(rounds_to(q, d));
        if (k >= 7) {
            /* a smaller denominator b would need round(d*b)/b to round to d */
            unsigned long den = mpz_get_ui(mpq_denref(q));
            for (unsigned long b = 1; b < den; b++) {
                double a = floor(d * (double)b + 0.5);
                mpq_set_ui(cand, (unsigned long)a, b);
                mpq_canonicalize(cand);
                CU_ASSERT_FATAL(!rounds_to(cand, d));
            }
        }
    }
    mpq_clears(q, cand, NULL);
}

static void test_format(void)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, -2, 6);
    mpq_canonicalize(q);
    char *s = ssched_rational_to_string(q);
    CU_ASSERT_STRING_EQUAL(s, "-1/3");
    free(s);
    s = ssched_rational_to_decimal(q, 6, SSCHED_DECIMAL_SIGNIFICANT);
    CU_ASSERT_STRING_EQUAL(s, "-0.333333");
    free(s);
    mpz_t l;
    mpz_init_set_ui(l, 0);
    ssched_rational_lcm_den(l, q);
    mpq_set_ui(q, 1, 4);
    ssched_rational_lcm_den(l, q);
    CU_ASSERT_EQUAL(mpz_get_ui(l), 12);
    mpz_clear(l);
    mpq_clear(q);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"parse exact forms", test_parse_exact},
        {"parse rejects", test_parse_rejects},
        {"double to simplest rational", test_from_double},
        {"double conversion property", test_from_double_property},
        {"formatting", test_format},
        {NULL, NULL}};
    return tu_main("rational", tests);
}
