/* ssched/rational.h — exact numbers at the boundaries.
 *
 * Every platform number, rate, time and period in ssched is an exact GMP
 * rational (mpq_t) or integer (mpz_t).  These helpers parse user text exactly
 * and format results for text and JSON output. */
#ifndef SSCHED_RATIONAL_H
#define SSCHED_RATIONAL_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>
#include <stdio.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse an exact number: an integer ("3", "-2"), a fraction ("1/3"), a
 * decimal ("0.125", ".5") or scientific notation ("2.5e-3", "1E7").
 * Leading/trailing blanks are ignored.  The result is canonical.
 * Returns SSCHED_EINPUT (message names the text) for anything else,
 * including a zero denominator ("1/0"), "inf" and "nan". */
ssched_status_t ssched_rational_parse(mpq_t out, const char *text,
                                      ssched_error_t *err);

/* The simplest rational (smallest denominator, then smallest numerator in
 * absolute value) that rounds to exactly the same IEEE double as `d` under
 * round-to-nearest-even.  So 0.1 -> 1/10 and 1.0/3 -> 1/3.
 * Returns SSCHED_EINPUT for inf/nan. */
ssched_status_t ssched_rational_from_double(mpq_t out, double d,
                                            ssched_error_t *err);

/* Newly allocated "p/q" (or "p" when integral); free() it. NULL on ENOMEM. */
char *ssched_rational_to_string(const mpq_t q);

/* How ssched_rational_to_decimal counts its digits. */
typedef enum {
    SSCHED_DECIMAL_SIGNIFICANT, /* `digits` significant digits, as printf %g
                                   ("0.333333", "1.5e+20"): display only   */
    SSCHED_DECIMAL_FIXED        /* q rounded half away from zero, exactly, to
                                   `digits` fraction digits ("405.123456",
                                   "-0.01", "7" for 0 digits)              */
} ssched_decimal_style_t;

/* Newly allocated decimal rendering of q, for display; NULL on ENOMEM.
 * free() it.  digits < 1 (significant) or < 0 (fixed) counts as 1 or 0.
 * Writing "p/q" to a stream: ssched_write_rational (ssched/export.h). */
char *ssched_rational_to_decimal(const mpq_t q, int digits, ssched_decimal_style_t style);

/* out = lcm(out, denominator(q)).  Used to build integral periods. */
void ssched_rational_lcm_den(mpz_t out, const mpq_t q);

#ifdef __cplusplus
}
#endif
#endif
