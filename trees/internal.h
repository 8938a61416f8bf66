/* Private helpers of trees/ (not installed). */
#ifndef SSCHED_TREES_INTERNAL_H
#define SSCHED_TREES_INTERNAL_H

#include "ssched/steady.h"
#include "ssched/trees.h"
#include "src/util/internal.h"

/* The reduce solution scaled to integer counts per period, transfer cycles
 * of every interval cancelled.  sends sorted by (head node, interval, edge);
 * cons sorted by (node, k, m, l). */
typedef struct {
    size_t edge, interval, head;
    mpz_t count;
} tr_send_t;

typedef struct {
    size_t node, k, l, m;
    mpz_t count;
} tr_cons_t;

typedef struct {
    size_t n_sends, n_cons;
    tr_send_t *sends;
    tr_cons_t *cons;
    size_t cycles_cancelled;
} tr_solution_t;

/* Scale steady's rates by period (an integer multiple of every denominator)
 * after cancelling transfer cycles.  Returns SSCHED_OK or ENOMEM. */
SSCHED_INTERNAL ssched_status_t ssched_i_tr_solution_build(const ssched_platform_t *p,
                                                           const ssched_steady_t *s,
                                                           const mpz_t period, tr_solution_t *out,
                                                           ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_tr_solution_free(tr_solution_t *sol);

/* Index of the first send into `node` of `interval`, and the end of that
 * run; likewise for the computations of v[k,m] on `node`. */
SSCHED_INTERNAL void ssched_i_tr_find_sends(const tr_solution_t *sol, size_t node, size_t interval,
                                            size_t *begin, size_t *end);
SSCHED_INTERNAL void ssched_i_tr_find_cons(const tr_solution_t *sol, size_t node, size_t k,
                                           size_t m, size_t *begin, size_t *end);

#endif
