/* Helpers shared by the makespan test programs (static inline: each
 * program uses a subset). */
#ifndef SSCHED_MK_TEST_UTIL_H
#define SSCHED_MK_TEST_UTIL_H

#include <stdio.h>

#include "ssched/makespan.h"
#include "test_util.h"

/* The programs' pseudo-random numbers in [0, bound): a 64-bit LCG
 * (Knuth's MMIX constants), high bits; a program defines MK_RNG_SEED
 * before including this header to get rnd(). */
#ifdef MK_RNG_SEED
static unsigned long long rng_state = MK_RNG_SEED;
static inline unsigned rnd(unsigned bound)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % bound);
}
#endif

/* The generic branch-and-bound with only technique `bit` on (0 the
 * theory order, 1 theory pruning, 2 the strong bound, 3 symmetry). */
static inline void mk_bnb_one_technique(ssched_mk_bnb_options_t *o, int bit)
{
    ssched_mk_bnb_options(o, SSCHED_MK_BNB_GENERIC);
    o->theory_order = bit == 0;
    o->theory_prune = bit == 1;
    o->strong_bound = bit == 2;
    o->symmetry = bit == 3;
}

/* A cluster from "t0,t1,..." (the test fails if it does not parse). */
static inline void make_cluster(ssched_mk_cluster_t *c, const char *list)
{
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(c, list, &err) == SSCHED_OK);
}

/* The schedule passes the model checker. */
static inline void assert_valid(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s)
{
    ssched_error_t err;
    ssched_check_report_t rep;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_mk_check(c, s, &rep, &err);
    if (st != SSCHED_OK || !rep.valid)
        fprintf(stderr, "invalid schedule: %s\n", st != SSCHED_OK ? err.message : rep.violation);
    CU_ASSERT(st == SSCHED_OK && rep.valid);
}

/* Message m is sender -> receiver over [start, end]. */
static inline int msg_is(const ssched_mk_message_t *m, size_t s, size_t r, const char *start,
                         const char *end)
{
    return m->sender == s && m->receiver == r && tu_mpq_equals(m->start, start) &&
           tu_mpq_equals(m->end, end);
}

#endif
