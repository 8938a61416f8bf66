/* Fast text output (text_out.h): block-buffered writes, integers and
 * exact fractions formatted by hand (the streamed unrolled writer prints
 * tens of millions of them; stdio and GMP per field cost more than the
 * engine). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/export/text_out.h"
int ssched_i_obuf_init(obuf_t *o, FILE *f)
{
    o->f = f;
    o->n = 0;
    o->cap = OBUF_CAP;
    o->failed = 0;
    o->b = malloc(o->cap);
    return o->b != NULL;
}

void ssched_i_obuf_flush(obuf_t *o)
{
    if (o->n && o->f && fwrite(o->b, 1, o->n, o->f) != o->n)
        o->failed = 1;
    o->n = 0;
}

/* Room for `need` more bytes; NULL (and failed) on ENOMEM. */
char *ssched_i_obuf_room(obuf_t *o, size_t need)
{
    if (o->cap - o->n < need) {
        ssched_i_obuf_flush(o);
        if (o->cap < need) {
            char *b = realloc(o->b, need);
            if (!b) {
                o->failed = 1;
                return NULL;
            }
            o->b = b;
            o->cap = need;
        }
    }
    return o->b + o->n;
}

void ssched_i_obuf_free(obuf_t *o)
{
    free(o->b);
    o->b = NULL;
}

char *ssched_i_put_str(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}


static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Decimal digits of x (at most 20), written in place from the end. */
char *ssched_i_put_u64(char *p, uint64_t x)
{
    static const uint64_t pow10[20] = {
        1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
        100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
        10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
        100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
    size_t n = 1;
    while (n < 20 && x >= pow10[n])
        n++;
    char *end = p + n, *q = end;
    while (x >= 100) {
        unsigned r = (unsigned)(x % 100);
        x /= 100;
        *--q = digits2[2 * r + 1];
        *--q = digits2[2 * r];
    }
    if (x >= 10) {
        *--q = digits2[2 * x + 1];
        *--q = digits2[2 * x];
    } else {
        *--q = (char)('0' + x);
    }
    return end;
}

uint64_t ssched_i_gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}


int ssched_i_frac_init(frac_t *f, int64_t den, int table)
{
    f->den = den > 0 ? (uint64_t)den : 1;
    f->inv = 1.0 / (double)f->den;
    f->rq = NULL;
    if (!table || f->den > FRAC_TABLE)
        return 1;
    f->rq = malloc(2 * f->den * sizeof *f->rq);
    if (!f->rq)
        return 0;
    for (uint64_t r = 0; r < f->den; r++) {
        uint64_t g = ssched_i_gcd_u64(r, f->den); /* gcd(0, den) = den */
        f->rq[2 * r] = r / g;
        f->rq[2 * r + 1] = f->den / g;
    }
    return 1;
}

void ssched_i_frac_free(frac_t *f)
{
    free(f->rq);
    f->rq = NULL;
}

/* At most 42 bytes. */
char *ssched_i_put_frac(char *p, const frac_t *f, int64_t x)
{
    uint64_t ux = (uint64_t)x;
    if (x < 0) {
        *p++ = '-';
        ux = -ux;
    }
    uint64_t i, r, num, d;
    if (ux < ((uint64_t)1 << 52)) {
        /* the quotient through a double, then corrected: the estimate is
         * within 1 of it (ux and den exact, relative error < 2^-51) */
        i = (uint64_t)((double)ux * f->inv);
        int64_t rr = (int64_t)(ux - i * f->den);
        while (rr < 0) {
            i--;
            rr += (int64_t)f->den;
        }
        while ((uint64_t)rr >= f->den) {
            i++;
            rr -= (int64_t)f->den;
        }
        r = (uint64_t)rr;
    } else {
        i = ux / f->den;
        r = ux % f->den;
    }
    if (f->rq) {
        num = f->rq[2 * r];
        d = f->rq[2 * r + 1];
    } else {
        uint64_t g = ssched_i_gcd_u64(r, f->den);
        num = r / g;
        d = f->den / g;
    }
    if (d == 1)
        return ssched_i_put_u64(p, i);
    p = ssched_i_put_u64(p, i * d + num);
    *p++ = '/';
    return ssched_i_put_u64(p, d);
}
