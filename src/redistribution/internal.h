/* src/redistribution/internal.h — shared by the files of this folder only.
 *
 *   pattern.c     which elements go from whom to whom (seed 003 §2)
 *   network.c     bandwidths: seeded grid draw, matrix file, array
 *   instance.c    messages, exact costs, lower bound (seed 003 §4.2)
 *   schedule.c    schedule records, per-processor ordering, dispatch
 *   direct.c      K-step contention-free schedule (König colouring)
 *   greedy.c      the adaptive heuristic of seed 003 §4.3
 *   preemptive.c  optimal preemptive schedule from matching/
 *   check.c       the independent checker
 *   check_fast.c  its fast path on integers over one unit
 *   output.c      text and JSON writers */
#ifndef SSCHED_REDIST_INTERNAL_H
#define SSCHED_REDIST_INTERNAL_H

#include "ssched/redistribution.h"
#include "src/util/internal.h"

/* schedule.c: append a transfer (copies the mpq values). 0 or -1 (ENOMEM). */
SSCHED_INTERNAL int ssched_i_rd_add_transfer(ssched_redist_schedule_t *s, size_t message,
                                             const mpq_t start, const mpq_t end,
                                             const mpq_t amount);

/* "As soon as possible in step order": pieces[0..n) in the order of their
 * steps (within one step each processor sends at most one piece and
 * receives at most one piece, so the order inside a step does not matter).
 * Piece q carries amount[q] elements of message[q] and lasts
 * startup + amount / B; it starts when its sender has finished its previous
 * send and its receiver its previous receive.  A piece whose message was the
 * last transfer of both its sender and its receiver extends that transfer
 * (no new start-up).  Implemented in schedule.c, used by direct.c and
 * preemptive.c. */
SSCHED_INTERNAL ssched_status_t ssched_i_rd_place_pieces(const ssched_redist_t *r,
                                                         const size_t *message, const mpq_t *amount,
                                                         size_t n, ssched_redist_schedule_t *s,
                                                         ssched_error_t *err);

SSCHED_INTERNAL ssched_status_t ssched_i_rd_direct(const ssched_redist_t *r,
                                                   ssched_redist_schedule_t *s,
                                                   ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_rd_greedy(const ssched_redist_t *r,
                                                   ssched_redist_schedule_t *s,
                                                   ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_rd_preemptive(const ssched_redist_t *r,
                                                       ssched_redist_schedule_t *s,
                                                       ssched_error_t *err);

/* check.c: the amounts delivered to one message, an unnormalised fraction
 * num/den (den > 0); sum += a (a canonical, > 0; tmp: scratch). */
typedef struct {
    mpz_t num, den;
} ssched_i_rd_sum_t;
SSCHED_INTERNAL void ssched_i_rd_sum_add(ssched_i_rd_sum_t *g, mpq_srcptr a, mpz_ptr tmp);

/* check_fast.c: 1 if every property of ssched_redist_check() holds, decided
 * on integers over a unit derived from r; 0 if not, or if it could not be
 * decided that way (the caller then runs the full check). */
SSCHED_INTERNAL int ssched_i_rd_check_fast(const ssched_redist_t *r,
                                           const ssched_redist_schedule_t *s);

/* check.c: ssched_redist_check() without the fast path (tests compare the
 * two verdicts). */
SSCHED_INTERNAL ssched_status_t ssched_i_rd_check_exact(const ssched_redist_t *r,
                                                        const ssched_redist_schedule_t *s,
                                                        ssched_check_report_t *report,
                                                        ssched_error_t *err);

#endif
