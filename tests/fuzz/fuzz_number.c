/* libFuzzer harness: the exact number parser (ssched_rational_parse) and the
 * formatting helpers of include/ssched/rational.h.
 *
 * Properties checked besides "no crash, leak or UB": a parsed number prints
 * as a canonical "p/q" that parses back to the same value, and the parser
 * never accepts text it documents as invalid ("inf", "nan", "1/0"). */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0; /* numbers are short; long inputs only slow the search */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    mpq_t q, back, lcm_in;
    mpq_inits(q, back, lcm_in, NULL);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_rational_parse(q, text, &err);
    if (st == SSCHED_OK) {
        /* canonical: positive denominator, gcd 1 */
        if (mpz_sgn(mpq_denref(q)) <= 0)
            abort();
        char *s = ssched_rational_to_string(q);
        if (!s)
            abort();
        ssched_error_t err2;
        if (ssched_rational_parse(back, s, &err2) != SSCHED_OK || !mpq_equal(q, back))
            abort();
        free(s);
        char *d = ssched_rational_to_decimal(q, 1 + (int)(size % 30), SSCHED_DECIMAL_SIGNIFICANT);
        free(d);
        d = ssched_rational_to_decimal(q, (int)(size % 30), SSCHED_DECIMAL_FIXED);
        free(d);
        mpz_t l;
        mpz_init_set_ui(l, 6);
        ssched_rational_lcm_den(l, q);
        if (mpz_sgn(l) <= 0 || !mpz_divisible_p(l, mpq_denref(q)))
            abort();
        mpz_clear(l);
    } else if (st != SSCHED_EINPUT || err.message[0] == '\0') {
        abort(); /* bad text must be EINPUT with a message */
    }

    /* The same bytes as a double (when there are enough of them). */
    if (size >= sizeof(double)) {
        double x;
        memcpy(&x, data, sizeof x);
        ssched_error_t err3;
        st = ssched_rational_from_double(back, x, &err3);
        if ((st == SSCHED_OK) != (isfinite(x) != 0))
            abort();
    }
    mpq_clears(q, back, lcm_in, NULL);
    free(text);
    return 0;
}
