/* Bandwidths B(i,j) of the virtual fully connected network (seed 003 §4.1):
 * drawn from a seed, read from a matrix file, or given as an array. */
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "ssched/rational.h"

/* Bandwidths are drawn with ssched_i_splitmix64 (src/util/internal.h), so a
 * seed gives the same bandwidths on every machine and libc. */

/* Replace r's network by a fresh P x P table of zeros. */
static ssched_status_t reset_network(ssched_redist_t *r, size_t P, ssched_error_t *err)
{
    if (P < 1 || P > SSCHED_REDIST_MAX_P)
        return ssched_error_set(err, SSCHED_EINPUT, "P = %zu is not in [1, %d]", P,
                                SSCHED_REDIST_MAX_P);
    ssched_redist_free(r);
    ssched_redist_init(r);
    r->bandwidth = malloc(P * P * sizeof *r->bandwidth);
    if (!r->bandwidth)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for %zu bandwidths", P * P);
    for (size_t i = 0; i < P * P; i++)
        mpq_init(r->bandwidth[i]);
    r->P = P;
    return SSCHED_OK;
}

ssched_status_t ssched_redist_network_random(ssched_redist_t *r, size_t P, const mpq_t bw_min,
                                             const mpq_t bw_max, uint64_t seed, ssched_error_t *err)
{
    if (mpq_sgn(bw_min) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "bandwidth minimum must be positive");
    if (mpq_cmp(bw_min, bw_max) > 0)
        return ssched_error_set(err, SSCHED_EINPUT, "bandwidth minimum exceeds the maximum");
    ssched_status_t st = reset_network(r, P, err);
    if (st != SSCHED_OK)
        return st;
    mpq_t diff, step;
    mpq_init(diff);
    mpq_init(step);
    mpq_sub(diff, bw_max, bw_min);
    size_t G = 100;
    if (mpz_cmp_ui(mpq_denref(diff), 1) == 0 && mpz_sgn(mpq_numref(diff)) > 0 &&
        mpz_cmp_ui(mpq_numref(diff), 1000000UL) <= 0)
        G = mpz_get_ui(mpq_numref(diff));
    mpq_set_ui(step, 1, G);
    mpq_mul(step, step, diff);
    uint64_t state = seed;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < P; j++) {
            if (i == j)
                continue; /* local copies use no network */
            size_t k = (unsigned long)(ssched_i_splitmix64(&state) % (G + 1));
            mpq_set_ui(r->bandwidth[i * P + j], k, 1);
            mpq_mul(r->bandwidth[i * P + j], r->bandwidth[i * P + j], step);
            mpq_add(r->bandwidth[i * P + j], r->bandwidth[i * P + j], bw_min);
        }
    mpq_clear(diff);
    mpq_clear(step);
    return SSCHED_OK;
}

/* Check one entry: off-diagonal > 0, diagonal >= 0.  where = "name:line". */
static ssched_status_t check_entry(const mpq_t b, size_t i, size_t j, const char *where,
                                   ssched_error_t *err)
{
    if (i == j ? mpq_sgn(b) < 0 : mpq_sgn(b) <= 0) {
        char *s = ssched_rational_to_string(b);
        ssched_error_set(err, SSCHED_EINPUT, "%s: column %zu: bandwidth %s is not positive", where,
                         j + 1, s ? s : "?");
        free(s);
        return SSCHED_EINPUT;
    }
    return SSCHED_OK;
}

ssched_status_t ssched_redist_network_set(ssched_redist_t *r, size_t P, const mpq_t *bandwidth,
                                          ssched_error_t *err)
{
    ssched_status_t st = reset_network(r, P, err);
    for (size_t i = 0; i < P && st == SSCHED_OK; i++)
        for (size_t j = 0; j < P && st == SSCHED_OK; j++) {
            char where[64];
            snprintf(where, sizeof where, "bandwidth row %zu", i + 1);
            st = check_entry(bandwidth[i * P + j], i, j, where, err);
            if (st == SSCHED_OK)
                mpq_set(r->bandwidth[i * P + j], bandwidth[i * P + j]);
        }
    if (st != SSCHED_OK) {
        ssched_redist_free(r);
        ssched_redist_init(r);
    }
    return st;
}

ssched_status_t ssched_redist_network_read(ssched_redist_t *r, size_t P, FILE *in, const char *name,
                                           ssched_error_t *err)
{
    ssched_status_t st = reset_network(r, P, err);
    if (st != SSCHED_OK)
        return st;
    char *line = NULL;
    size_t cap = 0, lineno = 0, row = 0;
    ssize_t len;
    while (st == SSCHED_OK && (len = getline(&line, &cap, in)) != -1) {
        lineno++;
        char where[300];
        snprintf(where, sizeof where, "%s:%zu", name, lineno);
        if ((size_t)len != strlen(line)) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: NUL byte in the line", where);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *tok = strtok_r(line, " \t\r\n,;", &save);
        if (!tok)
            continue; /* blank or comment-only line */
        if (row == P) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: more than P = %zu rows", where, P);
            break;
        }
        size_t col = 0;
        for (; tok; tok = strtok_r(NULL, " \t\r\n,;", &save), col++) {
            if (col == P) {
                st =
                    ssched_error_set(err, SSCHED_EINPUT, "%s: more than P = %zu numbers", where, P);
                break;
            }
            ssched_error_t perr;
            ssched_error_clear(&perr);
            mpq_t *b = &r->bandwidth[row * P + col];
            if (ssched_rational_parse(*b, tok, &perr) != SSCHED_OK) {
                st = ssched_error_set(err, SSCHED_EINPUT, "%s: column %zu: %s", where, col + 1,
                                      perr.message);
                break;
            }
            st = check_entry(*b, row, col, where, err);
            if (st != SSCHED_OK)
                break;
        }
        if (st == SSCHED_OK && col < P)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: expected %zu numbers, found %zu", where,
                                  P, col);
        row++;
    }
    free(line);
    if (st == SSCHED_OK && ferror(in))
        st = ssched_error_set(err, SSCHED_EINPUT, "%s: read error", name);
    if (st == SSCHED_OK && row < P)
        st = ssched_error_set(err, SSCHED_EINPUT, "%s:%zu: expected %zu rows, found %zu", name,
                              lineno, P, row);
    if (st != SSCHED_OK) {
        ssched_redist_free(r);
        ssched_redist_init(r);
    }
    return st;
}
