/* Exact number parsing and formatting: see include/ssched/rational.h. */
#include "ssched/rational.h"
#include "ssched/export.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Exponents beyond this are rejected: 10^100000 is not a platform cost, and
 * allowing arbitrary exponents would let one token exhaust memory. */
#define MAX_DECIMAL_EXPONENT 4000

static int all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Parse [sign]digits as an integer into z: 1, 0 if not one, -1 out of memory. */
static int parse_integer(mpz_t z, const char *s, size_t n)
{
    int neg = 0;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    if (!all_digits(s, n))
        return 0;
    char *buf = malloc(n + 1);
    if (!buf)
        return -1; /* out of memory, not a bad number */
    memcpy(buf, s, n);
    buf[n] = '\0';
    int ok = mpz_set_str(z, buf, 10) == 0;
    free(buf);
    if (ok && neg)
        mpz_neg(z, z);
    return ok;
}

/* [sign] digits [ '.' digits ] [ (e|E) [sign] digits ], at least one
 * mantissa digit.  Value = mantissa * 10^(exp - fraction digits).  1, 0 if
 * not such a number, -1 out of memory. */
static int parse_decimal(mpq_t out, const char *s, size_t n)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    size_t int_start = i;
    while (i < n && isdigit((unsigned char)s[i]))
        i++;
    size_t int_len = i - int_start;
    size_t frac_start = i, frac_len = 0;
    if (i < n && s[i] == '.') {
        frac_start = ++i;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
        frac_len = i - frac_start;
    }
    if (int_len + frac_len == 0)
        return 0;
    long exponent = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        size_t e_start = i;
        while (i < n && isdigit((unsigned char)s[i])) {
            if (exponent > MAX_DECIMAL_EXPONENT)
                return 0;
            exponent = exponent * 10 + (s[i] - '0');
            i++;
        }
        if (i == e_start)
            return 0;
        if (eneg)
            exponent = -exponent;
    }
    if (i != n)
        return 0;
    exponent -= (long)frac_len;
    if (exponent > MAX_DECIMAL_EXPONENT || exponent < -MAX_DECIMAL_EXPONENT - 1000)
        return 0;

    char *digits = malloc(int_len + frac_len + 2);
    if (!digits)
        return -1; /* out of memory, not a bad number */
    memcpy(digits, s + int_start, int_len);
    memcpy(digits + int_len, s + frac_start, frac_len);
    digits[int_len + frac_len] = '\0';
    mpz_t mant, pow10;
    mpz_inits(mant, pow10, NULL);
    int ok = mpz_set_str(mant, digits, 10) == 0;
    free(digits);
    if (ok) {
        mpz_ui_pow_ui(pow10, 10, (unsigned long)labs(exponent));
        if (exponent >= 0) {
            mpz_mul(mant, mant, pow10);
            mpq_set_z(out, mant);
        } else {
            mpq_set_num(out, mant);
            mpq_set_den(out, pow10);
            mpq_canonicalize(out);
        }
        if (neg)
            mpq_neg(out, out);
    }
    mpz_clears(mant, pow10, NULL);
    return ok;
}

ssched_status_t ssched_rational_parse(mpq_t out, const char *text,
                                      ssched_error_t *err)
{
    if (!text)
        return ssched_error_set(err, SSCHED_EINPUT, "missing number");
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "empty number");

    const char *slash = memchr(s, '/', n);
    if (slash) {
        mpz_t num, den;
        mpz_inits(num, den, NULL);
        size_t nlen = (size_t)(slash - s), dlen = n - nlen - 1;
        int a = parse_integer(num, s, nlen);
        int b = a > 0 && all_digits(slash + 1, dlen) ? parse_integer(den, slash + 1, dlen) : 0;
        int ok = a > 0 && b > 0;
        ssched_status_t st = SSCHED_OK;
        if (a < 0 || b < 0)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        else if (!ok)
            st = ssched_error_set(err, SSCHED_EINPUT, "'%.*s' is not a number",
                                  (int)(n > 64 ? 64 : n), s);
        else if (mpz_sgn(den) == 0)
            st = ssched_error_set(err, SSCHED_EINPUT, "zero denominator in '%.*s'",
                                  (int)(n > 64 ? 64 : n), s);
        else {
            mpq_set_num(out, num);
            mpq_set_den(out, den);
            mpq_canonicalize(out);
        }
        mpz_clears(num, den, NULL);
        return st;
    }
    int d = parse_decimal(out, s, n);
    if (d < 0)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (!d)
        return ssched_error_set(err, SSCHED_EINPUT, "'%.*s' is not a number",
                                (int)(n > 64 ? 64 : n), s);
    return SSCHED_OK;
}

/* Is p/q simpler than r/s?  Smaller denominator first, then smaller |num|. */
static int simpler(const mpq_t a, const mpq_t b)
{
    int c = mpz_cmp(mpq_denref(a), mpq_denref(b));
    if (c != 0)
        return c < 0;
    return mpz_cmpabs(mpq_numref(a), mpq_numref(b)) < 0;
}

/* Simplest rational in the open interval (lo, hi), 0 <= lo < hi; hi == NULL
 * means +infinity.  Continued-fraction (Stern–Brocot) descent: if an integer
 * lies strictly inside, the least one above lo is the simplest; otherwise
 * strip the common integer part and recurse on the reciprocal interval. */
static void simplest_open(mpq_t out, const mpq_t lo, const mpq_t *hi)
{
    mpz_t fl;
    mpz_init(fl);
    mpz_fdiv_q(fl, mpq_numref(lo), mpq_denref(lo));
    mpq_t cand;
    mpq_init(cand);
    mpz_add_ui(fl, fl, 1);
    mpq_set_z(cand, fl);
    if (!hi || mpq_cmp(cand, *hi) < 0) {
        mpq_set(out, cand);
    } else {
        mpz_sub_ui(fl, fl, 1);
        mpq_t a, b, flq;
        mpq_inits(a, b, flq, NULL);
        mpq_set_z(flq, fl);
        mpq_sub(a, lo, flq);   /* 0 <= a < 1 */
        mpq_sub(b, *hi, flq);  /* a < b <= 1 */
        /* x in (a,b)  <=>  1/x in (1/b, 1/a), with 1/0 = infinity */
        mpq_inv(b, b);
        if (mpq_sgn(a) == 0) {
            simplest_open(cand, b, NULL);
        } else {
            mpq_inv(a, a);
            mpq_t *hip = &a;
            simplest_open(cand, b, (const mpq_t *)hip);
        }
        mpq_inv(cand, cand);
        mpq_add(out, cand, flq);
        mpq_clears(a, b, flq, NULL);
    }
    mpq_clear(cand);
    mpz_clear(fl);
}

ssched_status_t ssched_rational_from_double(mpq_t out, double d,
                                            ssched_error_t *err)
{
    if (!isfinite(d))
        return ssched_error_set(err, SSCHED_EINPUT, "non-finite number %g", d);
    if (d == 0.0) {
        mpq_set_ui(out, 0, 1);
        return SSCHED_OK;
    }
    int neg = d < 0;
    double a = fabs(d);
    double below = nextafter(a, 0.0);
    double above = nextafter(a, INFINITY);
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int closed = (bits & 1u) == 0; /* ties round to even: endpoints belong to d */

    mpq_t q, lo, hi, tmp;
    mpq_inits(q, lo, hi, tmp, NULL);
    mpq_set_d(q, a);
    mpq_set_d(lo, below);
    mpq_add(lo, lo, q);
    mpq_div_2exp(lo, lo, 1);
    if (isinf(above)) { /* a == DBL_MAX: the gap above mirrors the one below */
        mpq_sub(hi, q, lo);
        mpq_add(hi, hi, q);
    } else {
        mpq_set_d(hi, above);
        mpq_add(hi, hi, q);
        mpq_div_2exp(hi, hi, 1);
    }
    simplest_open(out, lo, (const mpq_t *)&hi);
    if (closed) {
        if (simpler(lo, out) && mpq_sgn(lo) > 0)
            mpq_set(out, lo);
        if (simpler(hi, out))
            mpq_set(out, hi);
    }
    if (neg)
        mpq_neg(out, out);
    mpq_clears(q, lo, hi, tmp, NULL);
    return SSCHED_OK;
}

char *ssched_rational_to_string(const mpq_t q)
{
    return mpq_get_str(NULL, 10, q);
}

/* q rounded half away from zero to `decimals` fraction digits, exactly. */
static char *fixed_decimal(const mpq_t q, int decimals)
{
    if (decimals < 0)
        decimals = 0;
    mpz_t scale, num, rem;
    mpz_inits(scale, num, rem, NULL);
    /* round(|q| * 10^decimals) half up, then place the point */
    mpz_ui_pow_ui(scale, 10, (unsigned long)decimals);
    mpz_mul(num, mpq_numref(q), scale);
    mpz_abs(num, num);
    mpz_mul_2exp(num, num, 1);
    mpz_add(num, num, mpq_denref(q));
    mpz_mul_2exp(rem, mpq_denref(q), 1);
    mpz_fdiv_q(num, num, rem);
    char *digits = mpz_get_str(NULL, 10, num);
    char *out = NULL;
    if (digits) {
        size_t len = strlen(digits);
        size_t d = (size_t)decimals;
        size_t ip = len > d ? len - d : 1; /* integer-part digits */
        out = malloc(ip + d + 3);
        if (out) {
            char *o = out;
            if (mpq_sgn(q) < 0 && mpz_sgn(num) != 0)
                *o++ = '-';
            if (len > d) {
                memcpy(o, digits, ip);
                o += ip;
            } else {
                *o++ = '0';
            }
            if (d > 0) {
                *o++ = '.';
                for (size_t k = len; k < d; k++)
                    *o++ = '0';
                memcpy(o, len > d ? digits + ip : digits, len > d ? d : len);
                o += len > d ? d : len;
            }
            *o = '\0';
        }
        void (*freefunc)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &freefunc);
        freefunc(digits, len + 1);
    }
    mpz_clears(scale, num, rem, NULL);
    return out;
}

char *ssched_rational_to_decimal(const mpq_t q, int digits, ssched_decimal_style_t style)
{
    if (style == SSCHED_DECIMAL_FIXED)
        return fixed_decimal(q, digits);
    if (digits < 1)
        digits = 1;
    mpf_t f;
    mpf_init2(f, (mp_bitcnt_t)(digits * 4 + 64));
    mpf_set_q(f, q);
    char *buf = NULL;
    if (gmp_asprintf(&buf, "%.*Fg", digits, f) < 0)
        buf = NULL;
    mpf_clear(f);
    return buf;
}

ssched_status_t ssched_write_rational(FILE *out, const mpq_t q, ssched_error_t *err)
{
    mpq_out_str(out, 10, q);
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}

void ssched_rational_lcm_den(mpz_t out, const mpq_t q)
{
    if (mpz_sgn(out) == 0)
        mpz_set(out, mpq_denref(q));
    else
        mpz_lcm(out, out, mpq_denref(q));
}
