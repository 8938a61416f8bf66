/* ssched/redistribution.h — block-cyclic redistribution cyclic(x) -> cyclic(Kx)
 * on P processors over a heterogeneous network (Bhat, Prasanna, Raghavendra,
 * "Block-cyclic redistribution over heterogeneous networks", seed 003).
 *
 * Pattern (seed 003 §2): an array of N elements (x divides N) is cut into
 * blocks of x elements, block i on processor i mod P; afterwards blocks of Kx
 * elements, block j on processor j mod P.  Element g therefore moves from
 * processor floor(g/x) mod P to processor floor(g/(Kx)) mod P.  Elements
 * whose two processors coincide are local copies and use no network.
 *
 * Cost model (seed 003 §4.1): a message of m elements from i to j takes
 * startup + m / B(i,j) time units, all exact rationals.  One-port: at any
 * time a processor takes part in at most one send and one receive.
 *
 * Algorithms:
 *   direct      the classical K-step contention-free schedule of homogeneous
 *               networks [seed refs 5, 7, 14]: the message graph is coloured
 *               into D <= K matchings (König) and each processor performs its
 *               transfers in step order, as soon as both ends are free;
 *   greedy      the adaptive heuristic of seed 003 §4.3 (O(PK²), within 2x);
 *   preemptive  the optimal preemptive (open-shop, Gonzalez & Sahni 1976)
 *               schedule from ssched's weighted bipartite edge colouring:
 *               with zero start-up its completion equals the lower bound.
 *               A message sent in k separate pieces pays k start-ups (each
 *               piece is a real transfer), counted in its durations; pieces
 *               in consecutive steps on the same pair are one transfer.  With
 *               start-ups the extra ones cascade and the greedy heuristic is
 *               usually better (bench/redistribution.sh, table 3).
 * The lower bound is the largest total cost at one sender or one receiver. */
#ifndef SSCHED_REDISTRIBUTION_H
#define SSCHED_REDISTRIBUTION_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits enforced by the functions below (keep P×P and K·P tables small). */
#define SSCHED_REDIST_MAX_P 1024
#define SSCHED_REDIST_MAX_K 65536

/* Elements sent from s to d, for all s, d < P: sizes[s*P + d] (the diagonal
 * holds the elements that stay local).  Rejects (EINPUT) P or K outside
 * [1, max], x = 0, N = 0 and N not a multiple of x.  O(min(N/x, K·P) + P²). */
ssched_status_t ssched_redist_pattern(size_t P, size_t K, size_t N,
                                      size_t x, size_t *sizes,
                                      ssched_error_t *err);

typedef struct {
    size_t src, dst;            /* src != dst                               */
    size_t elements;            /* > 0                                      */
    mpq_t cost;                 /* startup + elements / bandwidth(src,dst)  */
} ssched_redist_message_t;

typedef struct {
    size_t P, K;
    size_t N, x;
    mpq_t *bandwidth;           /* P*P, bandwidth[s*P + d], s -> d          */
    mpq_t startup;              /* >= 0, the same for every pair            */
    size_t n_messages;
    ssched_redist_message_t *messages;   /* by (src, dst)                  */
    size_t *local;              /* P: elements that stay in place          */
    mpq_t lower_bound;          /* max over processors of send / receive load */
} ssched_redist_t;

void ssched_redist_init(ssched_redist_t *r);
void ssched_redist_free(ssched_redist_t *r);

/* Network from a seed: every off-diagonal bandwidth is drawn uniformly from
 * the grid bw_min + j·(bw_max - bw_min)/G, j = 0..G, with G = bw_max - bw_min
 * when that is a positive integer (integral bounds give integral
 * bandwidths, which keeps the exact costs' common denominator small) and
 * G = 100 otherwise.  The generator is splitmix64, so a seed gives the same
 * network on every machine.  Rejects bw_min <= 0 and bw_min > bw_max. */
ssched_status_t ssched_redist_network_random(ssched_redist_t *r, size_t P,
                                             const mpq_t bw_min, const mpq_t bw_max,
                                             uint64_t seed, ssched_error_t *err);

/* Network from text: P non-empty lines of P exact numbers (bandwidth from the
 * line's processor to the column's), blank lines and '#' comments ignored.
 * Off-diagonal entries must be > 0; the diagonal is unused (>= 0).  Errors
 * (EINPUT) are "name:line: what". */
ssched_status_t ssched_redist_network_read(ssched_redist_t *r, size_t P, FILE *in,
                                           const char *name, ssched_error_t *err);

/* Network from a P*P array (copied; same rules as the file reader). */
ssched_status_t ssched_redist_network_set(ssched_redist_t *r, size_t P,
                                          const mpq_t *bandwidth, ssched_error_t *err);

/* After a network_* call: the pattern of cyclic(x) -> cyclic(Kx) for N
 * elements, the exact message costs with the given start-up (>= 0), and the
 * lower bound.  Rejects what ssched_redist_pattern() rejects. */
ssched_status_t ssched_redist_build(ssched_redist_t *r, size_t K, size_t N,
                                    size_t x, const mpq_t startup,
                                    ssched_error_t *err);

typedef enum {
    SSCHED_REDIST_DIRECT = 0,
    SSCHED_REDIST_GREEDY,
    SSCHED_REDIST_PREEMPTIVE
} ssched_redist_algorithm_t;

/* "direct", "greedy", "preemptive" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_redist_algorithm_name(ssched_redist_algorithm_t v);
ssched_status_t ssched_redist_algorithm_parse(const char *text, ssched_redist_algorithm_t *out,
                                              ssched_error_t *err);

typedef struct {
    size_t message;             /* index into r->messages                  */
    mpq_t start, end;           /* exact times                             */
    mpq_t amount;               /* elements carried (rational when split)  */
} ssched_redist_transfer_t;

typedef struct {
    ssched_redist_algorithm_t algorithm;
    size_t P;
    size_t n_transfers;
    ssched_redist_transfer_t *transfers;
    /* Per processor, its sends and its receives ordered by start time:
     * transfers send_list[send_start[p] .. send_start[p+1]-1], same for recv. */
    size_t *send_start, *send_list, *recv_start, *recv_list;
    mpq_t completion;           /* latest end (0 without transfers)        */
    size_t n_steps;             /* direct/preemptive: matchings; greedy: 0 */
    size_t n_split;             /* messages sent in more than one piece    */
} ssched_redist_schedule_t;

void ssched_redist_schedule_init(ssched_redist_schedule_t *s);
void ssched_redist_schedule_free(ssched_redist_schedule_t *s);

/* Schedule r's messages with the chosen algorithm (s is reset first).
 * The result passed ssched_redist_check(); a failure there is EINTERNAL. */
ssched_status_t ssched_redist_schedule(const ssched_redist_t *r,
                                       ssched_redist_algorithm_t algorithm,
                                       ssched_redist_schedule_t *s, ssched_error_t *err);

/* Up-front estimates for ssched_redist_schedule(r, algorithm) followed by
 * the text (json = 0) or JSON writer, so that a caller can refuse what
 * would not fit: *bytes of memory and *work in steps of about 50 ns on a
 * 2020s machine (measured: direct M·P, greedy P·K², preemptive 10·M·P for
 * M messages — the weighted edge colouring repairs a P-vertex matching for
 * each of its up to M steps).  Needs ssched_redist_build(). */
void ssched_redist_estimate(const ssched_redist_t *r, ssched_redist_algorithm_t algorithm,
                            int json, double *bytes, double *work);

/* Independent checker: every transfer lies in [0, completion], starts at
 * >= 0, lasts at least startup + amount / bandwidth, carries a positive
 * amount; every message receives exactly its elements in total; no
 * processor's sends overlap and no processor's receives overlap; the
 * per-processor lists list exactly its transfers in start order;
 * completion = the latest end >= lower bound.  Returns SSCHED_OK with
 * report->valid (error.h), the violation naming the first failed property;
 * SSCHED_EINPUT if s is for another number of processors than r. */
ssched_status_t ssched_redist_check(const ssched_redist_t *r,
                                    const ssched_redist_schedule_t *s,
                                    ssched_check_report_t *report, ssched_error_t *err);

/* Writers (text, JSON): ssched/export.h. */

#ifdef __cplusplus
}
#endif
#endif
