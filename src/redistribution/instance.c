/* A redistribution instance: messages, exact costs and the lower bound.
 *
 * Lower bound (seed 003 §4.2): a processor sends its messages one after the
 * other and receives its messages one after the other, so no schedule ends
 * before the largest total send time or total receive time at one
 * processor (the largest column or row sum of the seed's matrix C). */
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "src/util/enum_names.h"
#include "src/util/internal.h"

void ssched_redist_init(ssched_redist_t *r)
{
    memset(r, 0, sizeof *r);
    mpq_init(r->startup);
    mpq_init(r->lower_bound);
}

static void clear_messages(ssched_redist_t *r)
{
    for (size_t i = 0; i < r->n_messages; i++)
        mpq_clear(r->messages[i].cost);
    free(r->messages);
    free(r->local);
    r->messages = NULL;
    r->local = NULL;
    r->n_messages = 0;
}

void ssched_redist_free(ssched_redist_t *r)
{
    clear_messages(r);
    if (r->bandwidth)
        for (size_t i = 0; i < r->P * r->P; i++)
            mpq_clear(r->bandwidth[i]);
    free(r->bandwidth);
    r->bandwidth = NULL;
    r->P = 0;
    mpq_clear(r->startup);
    mpq_clear(r->lower_bound);
}

ssched_status_t ssched_redist_build(ssched_redist_t *r, size_t K, size_t N, size_t x,
                                    const mpq_t startup, ssched_error_t *err)
{
    if (!r->bandwidth || r->P == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "no network: set the bandwidths first");
    if (mpq_sgn(startup) < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "start-up time must not be negative");
    size_t P = r->P;
    size_t *sizes = malloc(P * P * sizeof *sizes);
    if (!sizes)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the pattern");
    ssched_status_t st = ssched_redist_pattern(P, K, N, x, sizes, err);
    if (st != SSCHED_OK) {
        free(sizes);
        return st;
    }
    clear_messages(r);
    r->K = K;
    r->N = N;
    r->x = x;
    mpq_set(r->startup, startup);
    size_t n = 0;
    for (size_t s = 0; s < P; s++)
        for (size_t d = 0; d < P; d++)
            n += s != d && sizes[s * P + d] > 0;
    r->messages = ssched_i_alloc(n, sizeof *r->messages);
    r->local = malloc(P * sizeof *r->local);
    mpq_t *send = malloc(2 * P * sizeof *send), *recv = send ? send + P : NULL;
    if (!r->messages || !r->local || !send) {
        free(sizes);
        free(send);
        clear_messages(r);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the messages");
    }
    for (size_t p = 0; p < 2 * P; p++)
        mpq_init(send[p]);
    mpz_t L;
    mpz_init_set_ui(L, 1);
    int over_l = 1; /* loads as integers over L, the costs' LCM (below) */
    for (size_t s = 0; s < P; s++) {
        r->local[s] = sizes[s * P + s];
        for (size_t d = 0; d < P; d++) {
            if (s == d || sizes[s * P + d] == 0)
                continue;
            ssched_redist_message_t *m = &r->messages[r->n_messages++];
            m->src = s;
            m->dst = d;
            m->elements = sizes[s * P + d];
            mpq_init(m->cost);
            mpq_set_ui(m->cost, m->elements, 1);
            mpq_div(m->cost, m->cost, r->bandwidth[s * P + d]);
            mpq_add(m->cost, m->cost, startup);
            if (over_l && !mpz_divisible_p(L, mpq_denref(m->cost))) {
                mpz_lcm(L, L, mpq_denref(m->cost));
                over_l = mpz_size(L) <= 64;
            }
        }
    }
    /* The loads are sums of up to P costs: adding them as mpq canonicalised
     * every partial sum by a gcd of ~300-bit numbers (P = 1024: most of this
     * function).  Over the common denominator L they are integer sums, and
     * one canonicalisation gives the bound.  L of more than 64 limbs (a
     * matrix of unrelated rationals) keeps the mpq sums. */
    mpz_t q;
    mpz_init(q);
    for (size_t e = 0; e < r->n_messages; e++) {
        const ssched_redist_message_t *m = &r->messages[e];
        if (over_l) {
            mpz_divexact(q, L, mpq_denref(m->cost));
            mpz_addmul(mpq_numref(send[m->src]), q, mpq_numref(m->cost));
            mpz_addmul(mpq_numref(recv[m->dst]), q, mpq_numref(m->cost));
        } else {
            mpq_add(send[m->src], send[m->src], m->cost);
            mpq_add(recv[m->dst], recv[m->dst], m->cost);
        }
    }
    mpz_clear(q);
    mpq_set_ui(r->lower_bound, 0, 1);
    size_t best = 0;
    for (size_t p = 0; p < 2 * P; p++) /* numerators over L: integers */
        if (over_l ? mpz_cmp(mpq_numref(send[p]), mpq_numref(send[best])) > 0
                   : mpq_cmp(send[p], send[best]) > 0)
            best = p;
    mpq_set(r->lower_bound, send[best]);
    if (over_l) {
        mpz_set(mpq_denref(r->lower_bound), L);
        mpq_canonicalize(r->lower_bound);
    }
    for (size_t p = 0; p < 2 * P; p++)
        mpq_clear(send[p]);
    mpz_clear(L);
    free(send);
    free(sizes);
    return SSCHED_OK;
}

SSCHED_I_ENUM_FUNCTIONS(redist_algorithm, ssched_redist_algorithm_t, "algorithm", "direct",
                        "greedy", "preemptive")
