/* The finite set of simple fractions a cost range draws from.
 *
 * Drawing "a random rational in [lo, hi]" needs a discrete set, and the LPs
 * built on generated platforms stay readable (and their exact certificates
 * cheap) only if the denominators are small.  So a range becomes
 *   { p/q in lowest terms : 1 <= q <= max_den, lo <= p/q <= hi } U {lo, hi},
 * each distinct value exactly once (a fraction in lowest terms has one
 * representation), in a fixed order so a seed always picks the same value. */
#include "src/gen/gen_internal.h"

#include <stdlib.h>

/* Append q to the set, growing the array geometrically. */
static int push(gen_value_set_t *set, size_t *cap, const mpq_t q)
{
    if (set->count == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        mpq_t *nv = realloc(set->values, ncap * sizeof *nv);
        if (!nv)
            return 0;
        set->values = nv;
        *cap = ncap;
    }
    mpq_init(set->values[set->count]);
    mpq_set(set->values[set->count], q);
    set->count++;
    return 1;
}

void ssched_i_gen_value_set_free(gen_value_set_t *set)
{
    for (size_t i = 0; i < set->count; i++)
        mpq_clear(set->values[i]);
    free(set->values);
    set->values = NULL;
    set->count = 0;
}

ssched_status_t ssched_i_gen_value_set_build(gen_value_set_t *set, const ssched_gen_range_t *range,
                                    unsigned long max_den, const char *what,
                                    ssched_error_t *err)
{
    set->count = 0;
    set->values = NULL;
    size_t cap = 0;
    ssched_status_t st = SSCHED_OK;
    mpz_t p, last, t;
    mpq_t v;
    mpz_inits(p, last, t, NULL);
    mpq_init(v);
    for (unsigned long q = 1; q <= max_den && st == SSCHED_OK; q++) {
        /* p runs over ceil(lo*q) .. floor(hi*q). */
        mpz_mul_ui(t, mpq_numref(range->lo), q);
        mpz_cdiv_q(p, t, mpq_denref(range->lo));
        mpz_mul_ui(t, mpq_numref(range->hi), q);
        mpz_fdiv_q(last, t, mpq_denref(range->hi));
        for (; mpz_cmp(p, last) <= 0; mpz_add_ui(p, p, 1)) {
            if (mpz_gcd_ui(NULL, p, q) != 1)
                continue; /* not in lowest terms: met at a smaller q */
            if (set->count >= SSCHED_GEN_MAX_RANGE_VALUES) {
                st = ssched_error_set(err, SSCHED_EINPUT,
                                      "%s range is too wide: more than %u values with "
                                      "denominator <= %lu (narrow it or lower params.max_den)",
                                      what, SSCHED_GEN_MAX_RANGE_VALUES, max_den);
                break;
            }
            mpq_set_num(v, p);
            mpz_set_ui(mpq_denref(v), q);
            if (!push(set, &cap, v)) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
        }
    }
    /* The bounds themselves are always possible values, so a range with no
     * simple fraction inside (e.g. 1/13:1/12 with max_den 10) still works. */
    if (st == SSCHED_OK && mpz_cmp_ui(mpq_denref(range->lo), max_den) > 0 &&
        !push(set, &cap, range->lo))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && mpz_cmp_ui(mpq_denref(range->hi), max_den) > 0 &&
        !mpq_equal(range->lo, range->hi) && !push(set, &cap, range->hi))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpz_clears(p, last, t, NULL);
    mpq_clear(v);
    if (st != SSCHED_OK)
        ssched_i_gen_value_set_free(set);
    return st;
}

void ssched_i_gen_value_set_draw(const gen_value_set_t *set, gen_rng_t *rng, mpq_t out)
{
    mpq_set(out, set->values[ssched_i_gen_rng_below(rng, set->count)]);
}
