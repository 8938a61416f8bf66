/* Fast text output for the streamed writers (src/export/text_out.c):
 * a block buffer over a FILE, integers, and exact fractions of a fixed
 * denominator printed in lowest terms without GMP. */
#ifndef SSCHED_EXPORT_TEXT_OUT_H
#define SSCHED_EXPORT_TEXT_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "src/util/internal.h"

/* Buffered output: each event is built in memory and written in blocks
 * of about 1 MB (stdio per field costs more than the engine). */
#define OBUF_CAP (1u << 20)

typedef struct {
    FILE *f;
    char *b;
    size_t n, cap;
    int failed;
} obuf_t;

SSCHED_INTERNAL int ssched_i_obuf_init(obuf_t *o, FILE *f);      /* 0 on ENOMEM                   */
SSCHED_INTERNAL void ssched_i_obuf_flush(obuf_t *o);
/* Room for `need` more bytes; NULL (and failed) on ENOMEM. */
SSCHED_INTERNAL char *ssched_i_obuf_room(obuf_t *o, size_t need);
SSCHED_INTERNAL void ssched_i_obuf_free(obuf_t *o);

SSCHED_INTERNAL char *ssched_i_put_str(char *p, const char *s, size_t n);
#define PUT_LIT(p, lit) ssched_i_put_str((p), (lit), sizeof(lit) - 1)
/* Decimal digits of x (at most 20); returns the end. */
SSCHED_INTERNAL char *ssched_i_put_u64(char *p, uint64_t x);
SSCHED_INTERNAL uint64_t ssched_i_gcd_u64(uint64_t a, uint64_t b);

/* Fractions x / den in lowest terms, den > 0 fixed: x = i den + r, and
 * with g = gcd(r, den), x / den = (i (den/g) + r/g) / (den/g); that
 * numerator is x / g <= x, so nothing overflows.  For a small den the
 * pairs (r/g, den/g) are tabulated: one division per fraction. */
#define FRAC_TABLE 65536

typedef struct {
    uint64_t den;
    double inv;                /* 1 / den, to divide by multiplying         */
    uint64_t *rq;              /* [2r]: r/g, [2r+1]: den/g; NULL: no table */
} frac_t;

SSCHED_INTERNAL int ssched_i_frac_init(frac_t *f, int64_t den, int table); /* 0 on ENOMEM         */
SSCHED_INTERNAL void ssched_i_frac_free(frac_t *f);
/* x / den, at most 42 bytes; returns the end. */
SSCHED_INTERNAL char *ssched_i_put_frac(char *p, const frac_t *f, int64_t x);

#endif
