/* Numbering of the reduce intervals and the LCM period of a steady state,
 * shared by the LP builders, tree extraction and the schedule builders so
 * that every stage agrees on them. */
#include <gmp.h>

#include "src/util/internal.h"
#include "ssched/steady.h"

size_t ssched_interval_index(size_t N, size_t k, size_t m)
{
    /* rows 0..k-1 hold N, N-1, ..., N-k+1 intervals */
    return k * N - (k ? k * (k - 1) / 2 : 0) + (m - k);
}

void ssched_i_period_add_flow(mpz_t T, const mpq_t rate, const mpq_t c, const mpq_t size,
                              mpq_t tmp)
{
    mpz_lcm(T, T, mpq_denref(rate));
    mpq_mul(tmp, rate, c);
    mpq_mul(tmp, tmp, size);
    mpz_lcm(T, T, mpq_denref(tmp));
}

void ssched_steady_period(const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_steady_t *s, mpz_t T)
{
    mpq_t q;
    mpq_init(q);
    mpz_set(T, mpq_denref(s->throughput));
    for (size_t k = 0; k < s->n_flows; k++)
        ssched_i_period_add_flow(T, s->flows[k].rate, p->c[s->flows[k].edge], pb->size, q);
    for (size_t k = 0; k < s->n_tasks; k++)
        mpz_lcm(T, T, mpq_denref(s->tasks[k].rate));
    mpq_clear(q);
}
