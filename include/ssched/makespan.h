/* ssched/makespan.h — one-shot (makespan) reduce, broadcast and all-reduce.
 *
 * Companion to the steady-state solver: instead of a throughput, these
 * functions minimise the completion time of ONE collective.
 *
 * Model (Banikazemi et al., used by both seeds):
 *   - n processors, fully connected; processor p sends one message to anyone
 *     in t(p) > 0 time units (the cost is set by the sender);
 *   - one port: a processor takes part in at most one transfer (as sender or
 *     receiver) at a time;
 *   - reduce: every processor except the destination sends exactly one
 *     message, after it has received everything it will receive
 *     (Liu, Kuo, Wang, "An approximation algorithm and dynamic programming for
 *     reduction in heterogeneous environments" — "seed 000" below);
 *   - broadcast: every processor except the source receives exactly once and
 *     may forward to anyone after that (Liu, "Broadcast scheduling optimization
 *     for heterogeneous cluster systems" — "seed 002");
 *   - all-reduce: a reduce to a hub followed by a broadcast from it (seed 000
 *     §5.2).
 *
 * Every time is an exact GMP rational.  The exhaustive searches (dynamic
 * programs, branch-and-bound) run internally on integers obtained by scaling
 * all times by the LCM of their denominators; they return SSCHED_EINPUT when
 * that scaling does not fit in 62 bits, and every schedule they return is
 * rebuilt and timed in exact rationals.
 *
 * Conventions: the library never prints; a function returning
 * ssched_status_t fills `err` (may be NULL) when it is not SSCHED_OK.  Every
 * struct has an init/free (or new/free) pair; output schedules must have been
 * initialised by ssched_mk_schedule_init and are overwritten. */
#ifndef SSCHED_MAKESPAN_H
#define SSCHED_MAKESPAN_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- cluster */

/* A cluster: time[p] is the transmission time t(p) of processor p. */
typedef struct {
    size_t n;
    mpq_t *time;
} ssched_mk_cluster_t;

/* n processors with every time 0 (to be set by the caller).  n may be 0. */
ssched_status_t ssched_mk_cluster_init(ssched_mk_cluster_t *c, size_t n,
                                       ssched_error_t *err);
void ssched_mk_cluster_free(ssched_mk_cluster_t *c);

/* Initialise c from a comma-separated list of exact numbers ("1,3/2,2.5e0").
 * SSCHED_EINPUT names the element (1-based) for an empty list, an empty
 * element, an unparsable number or a non-positive time; c is then left
 * empty (n = 0) and needs no free. */
ssched_status_t ssched_mk_cluster_parse(ssched_mk_cluster_t *c, const char *list,
                                        ssched_error_t *err);

/* SSCHED_EINPUT unless n >= 1, every time is > 0 and root < n.  `role`
 * ("destination", "source", "hub") is used in the message. */
ssched_status_t ssched_mk_cluster_validate(const ssched_mk_cluster_t *c, size_t root,
                                           const char *role, ssched_error_t *err);

/* --------------------------------------------------------------- schedule */

typedef struct {
    size_t sender, receiver;
    mpq_t start, end; /* end = start + t(sender) */
    size_t lo, hi;    /* scan only: the message carries v[lo,hi] (else 0) */
} ssched_mk_message_t;

typedef enum {
    SSCHED_MK_REDUCE = 0,
    SSCHED_MK_BROADCAST,
    SSCHED_MK_ALLREDUCE,
    SSCHED_MK_SCAN    /* parallel prefix (see "scan" below) */
} ssched_mk_op_t;

/* "reduce", "broadcast", "allreduce", "scan" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_mk_op_name(ssched_mk_op_t v);
ssched_status_t ssched_mk_op_parse(const char *text, ssched_mk_op_t *out, ssched_error_t *err);

/* A complete schedule.  For SSCHED_MK_ALLREDUCE the first n-1 messages are
 * the reduce to `root` (the hub), the last n-1 the broadcast from it, and
 * reduce_makespan is when the hub holds the result.  For a reduce
 * reduce_makespan = makespan, for a broadcast it is 0.  Messages are sorted
 * by start time (ties by index of creation). */
typedef struct {
    ssched_mk_op_t op;
    size_t n;
    size_t root;
    size_t count;
    ssched_mk_message_t *msg;
    mpq_t makespan;
    mpq_t reduce_makespan;
    int exclusive;    /* scan: processor j ends with v[0,j-1] (else v[0,j]) */
} ssched_mk_schedule_t;

void ssched_mk_schedule_init(ssched_mk_schedule_t *s);
void ssched_mk_schedule_free(ssched_mk_schedule_t *s);

/* Allocate an empty schedule frame of `count` messages (all times 0,
 * sender = receiver = 0) — for callers building schedules by hand, e.g. to
 * feed the checker.  Any previous content of s is released. */
ssched_status_t ssched_mk_schedule_alloc(ssched_mk_schedule_t *s, ssched_mk_op_t op,
                                         size_t n, size_t root, size_t count,
                                         ssched_error_t *err);

/* ------------------------------------------------------------ statistics */

/* What an exact algorithm did.  Fields that do not apply stay 0. */
typedef struct {
    const char *method; /* static name: "ep", "snf", "dp2", "dpk", "bnb", "fnf" */
    uint64_t nodes;     /* branch-and-bound: search-tree nodes examined       */
    uint64_t leaves;    /* branch-and-bound: complete sequences evaluated     */
    uint64_t refs;      /* dynamic programs: pair references (seed 000 §6.3)  */
    uint64_t cells;     /* dynamic programs: table entries computed           */
    int complete;       /* 1 when optimality is proven (always, unless a
                           branch-and-bound node limit stopped the search)    */
} ssched_mk_stats_t;

/* ------------------------------------------------------------------ reduce */

/* Earliest-possible schedule EP (seed 000 Fig. 2) of the n-1 senders in
 * `order` (every processor except dest exactly once), with receivers from
 * the destination assignment of Lemma 1.  Start times are non-decreasing in
 * `order`. */
ssched_status_t ssched_mk_reduce_ep(const ssched_mk_cluster_t *c, size_t dest,
                                    const size_t *order, ssched_mk_schedule_t *out,
                                    ssched_error_t *err);

/* Slowest-node-first (seed 000 §4): EP on the senders sorted by
 * non-increasing time (ties by index).  A 2-approximation (Theorem 2),
 * optimal for power-of-2 clusters (Theorem 1) and for two classes whose
 * ratio is >= 2 (Theorem 4). */
ssched_status_t ssched_mk_reduce_snf(const ssched_mk_cluster_t *c, size_t dest,
                                     ssched_mk_schedule_t *out, ssched_error_t *err);

/* The three two-class dynamic programs of seed 000 §5.3 / §6.3. */
typedef enum {
    SSCHED_MK_DP2_NAIVE = 0, /* eqs. (2)-(3): every split                       */
    SSCHED_MK_DP2_MONO_S,    /* + Lemma 4: binary search of the crossover (4)   */
    SSCHED_MK_DP2_MONO_SF    /* + Lemma 5: monotone-in-f pruning, lower bounds  */
} ssched_mk_dp2_variant_t;

/* "naive", "mono-s", "mono-sf" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_mk_dp2_variant_name(ssched_mk_dp2_variant_t v);
ssched_status_t ssched_mk_dp2_variant_parse(const char *text, ssched_mk_dp2_variant_t *out,
                                            ssched_error_t *err);

/* Optimal reduce for a cluster whose senders have at most two distinct times
 * (SSCHED_EINPUT otherwise), by the two-class dynamic program. */
ssched_status_t ssched_mk_reduce_dp2(const ssched_mk_cluster_t *c, size_t dest,
                                     ssched_mk_dp2_variant_t variant,
                                     ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                     ssched_error_t *err);

/* Optimal reduce for any number k of distinct sender times by the k-class
 * program of Theorem 6 (table over class counts, binary search along the
 * slowest class).  Cost grows like n^(2k-1) log n: intended for few classes.
 * SSCHED_EINPUT if the table would exceed 2^23 entries. */
ssched_status_t ssched_mk_reduce_dpk(const ssched_mk_cluster_t *c, size_t dest,
                                     ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                     ssched_error_t *err);

/* ------------------------------------------------------- branch-and-bound */

/* Search over EP sender sequences (reduce, seed 000 §6.2) or receive
 * sequences (broadcast, seed 002 §5); processors of equal time are
 * interchangeable, so the search tree is over sequences of time classes. */
typedef struct {
    int theory_order;  /* children slowest-first (reduce) / fastest-first
                          (broadcast): the first leaf is SNF / FNF; 0 = the
                          order in which the classes appear in the input    */
    int theory_prune;  /* reduce: Corollary 1 (no sender starts when a faster
                          one completes); broadcast: Theorem 4.2 (no slower
                          non-source sender to a faster receiver) and, when
                          the source is a fastest processor, Theorem 4.3
                          (fastest processors first)                         */
    int strong_bound;  /* relaxation lower bounds instead of the partial cost */
    int symmetry;      /* simultaneous starts (reduce) / receptions
                          (broadcast) only in canonical class order          */
    uint64_t max_nodes;/* stop after this many nodes (0 = no limit)           */
    /* called every 2^12 nodes with the count so far (may be NULL), so a
     * long search can report progress; it must not touch the search */
    void (*progress)(void *ctx, uint64_t nodes);
    void *progress_ctx;
} ssched_mk_bnb_options_t;

typedef enum {
    SSCHED_MK_BNB_GENERIC = 0, /* plain branch-and-bound: partial-cost pruning */
    SSCHED_MK_BNB_PAPER,       /* the three techniques of the seeds          */
    SSCHED_MK_BNB_FULL         /* paper + relaxation bounds + symmetry        */
} ssched_mk_bnb_preset_t;

/* "generic", "paper", "full" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_mk_bnb_preset_name(ssched_mk_bnb_preset_t v);
ssched_status_t ssched_mk_bnb_preset_parse(const char *text, ssched_mk_bnb_preset_t *out,
                                           ssched_error_t *err);

void ssched_mk_bnb_options(ssched_mk_bnb_options_t *o, ssched_mk_bnb_preset_t preset);

/* Optimal reduce by branch-and-bound.  If max_nodes stops the search, the
 * best schedule found is returned with status SSCHED_EUNCERTIFIED and
 * stats->complete = 0. */
ssched_status_t ssched_mk_reduce_bnb(const ssched_mk_cluster_t *c, size_t dest,
                                     const ssched_mk_bnb_options_t *opt,
                                     ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                     ssched_error_t *err);

/* Optimal reduce: the k-class program when its table is small, else the
 * full branch-and-bound.  stats->method says which. */
ssched_status_t ssched_mk_reduce_optimal(const ssched_mk_cluster_t *c, size_t dest,
                                         ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                         ssched_error_t *err);

/* Resource limits of the exact methods, so that a caller can refuse an
 * instance up front (estimate) and bound the search time (node budget). */
typedef struct {
    uint64_t max_nodes; /* branch-and-bound nodes over the whole call (0 = no
                           limit); when reached, SSCHED_EUNCERTIFIED as for
                           ssched_mk_reduce_bnb with stats->complete = 0    */
    void (*progress)(void *ctx, uint64_t nodes); /* as in the bnb options */
    void *progress_ctx;
} ssched_mk_limits_t;

/* What ssched_mk_{reduce,broadcast}_optimal (op REDUCE / BROADCAST) or the
 * optimal all-reduce would run on this cluster: the method ("dpk" or "bnb")
 * and the memory it would allocate, in bytes (an estimate within a small
 * factor; the branch-and-bound stacks grow as n^2).  Cheap: O(n log n). */
typedef struct {
    const char *method;
    double bytes;
} ssched_mk_estimate_t;

ssched_status_t ssched_mk_optimal_estimate(const ssched_mk_cluster_t *c, size_t root,
                                           ssched_mk_op_t op, ssched_mk_estimate_t *out,
                                           ssched_error_t *err);

/* ssched_mk_reduce_optimal / ssched_mk_broadcast_optimal under limits
 * (NULL = none). */
ssched_status_t ssched_mk_reduce_optimal_limited(const ssched_mk_cluster_t *c, size_t dest,
                                                 const ssched_mk_limits_t *lim,
                                                 ssched_mk_schedule_t *out,
                                                 ssched_mk_stats_t *stats, ssched_error_t *err);
ssched_status_t ssched_mk_broadcast_optimal_limited(const ssched_mk_cluster_t *c, size_t src,
                                                    const ssched_mk_limits_t *lim,
                                                    ssched_mk_schedule_t *out,
                                                    ssched_mk_stats_t *stats,
                                                    ssched_error_t *err);

/* The table T(f, s) of eqs. (2)-(3) for f <= F fast and s <= S slow senders
 * with times t_fast < t_slow, for seed 000 Tables 2-4. */
typedef struct ssched_mk_dp2_table ssched_mk_dp2_table_t;

ssched_status_t ssched_mk_dp2_table_new(ssched_mk_dp2_table_t **out, const mpq_t t_fast,
                                        const mpq_t t_slow, size_t F, size_t S,
                                        ssched_mk_dp2_variant_t variant, ssched_error_t *err);
void ssched_mk_dp2_table_free(ssched_mk_dp2_table_t *t);
/* out = T(f, s); f <= F, s <= S. */
void ssched_mk_dp2_table_value(const ssched_mk_dp2_table_t *t, size_t f, size_t s, mpq_t out);
/* Pair references spent computing the single entry T(f, s). */
uint64_t ssched_mk_dp2_table_refs(const ssched_mk_dp2_table_t *t, size_t f, size_t s);

/* --------------------------------------------------------------- broadcast */

/* The schedule in which the processors other than src become ready in the
 * given order (n-1 entries), each message leaving the informed processor
 * that can finish it first (seed 002 eq. (1); no processor idles,
 * Theorem 4.1).  Ties go to the faster, then lower-indexed, sender. */
ssched_status_t ssched_mk_broadcast_sequence(const ssched_mk_cluster_t *c, size_t src,
                                             const size_t *order, ssched_mk_schedule_t *out,
                                             ssched_error_t *err);

/* Fastest-node-first (seed 002 §3): receivers by non-decreasing time. */
ssched_status_t ssched_mk_broadcast_fnf(const ssched_mk_cluster_t *c, size_t src,
                                        ssched_mk_schedule_t *out, ssched_error_t *err);

/* Optimal broadcast by branch-and-bound (seed 002 §5); node limit as for
 * ssched_mk_reduce_bnb. */
ssched_status_t ssched_mk_broadcast_bnb(const ssched_mk_cluster_t *c, size_t src,
                                        const ssched_mk_bnb_options_t *opt,
                                        ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                        ssched_error_t *err);

/* Optimal broadcast by a program over class counts: the source's first
 * message splits the remaining processors between the source and the first
 * receiver, B(i, c) = t_i + min_j,split max(B(i, a), B(j, b)).  Exact for any
 * source; polynomial for a fixed number of distinct times. */
ssched_status_t ssched_mk_broadcast_dpk(const ssched_mk_cluster_t *c, size_t src,
                                        ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                        ssched_error_t *err);

/* Optimal broadcast: dpk when its table is small, else branch-and-bound. */
ssched_status_t ssched_mk_broadcast_optimal(const ssched_mk_cluster_t *c, size_t src,
                                            ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                            ssched_error_t *err);

/* -------------------------------------------------------------- all-reduce */

#define SSCHED_MK_ANY_ROOT ((size_t)-1)

typedef enum {
    SSCHED_MK_ALLREDUCE_SNF_FNF = 0, /* SNF reduce + FNF broadcast (seed 000
                                        §5.2, Theorem 3); default hub: the
                                        fastest processor (lowest index)    */
    SSCHED_MK_ALLREDUCE_OPTIMAL      /* optimal reduce + optimal broadcast;
                                        default hub: the best processor     */
} ssched_mk_allreduce_alg_t;

/* "snf-fnf", "optimal" ("unknown" for any other value); parse: SSCHED_EINPUT
 * naming the text and the accepted names. */
const char *ssched_mk_allreduce_alg_name(ssched_mk_allreduce_alg_t v);
ssched_status_t ssched_mk_allreduce_alg_parse(const char *text, ssched_mk_allreduce_alg_t *out,
                                              ssched_error_t *err);

/* Reduce to `hub`, then broadcast from it.  hub = SSCHED_MK_ANY_ROOT picks
 * the default hub of the algorithm (see above). */
ssched_status_t ssched_mk_allreduce(const ssched_mk_cluster_t *c, size_t hub,
                                    ssched_mk_allreduce_alg_t alg, ssched_mk_schedule_t *out,
                                    ssched_error_t *err);

/* ssched_mk_allreduce under limits (NULL = none); max_nodes bounds the
 * branch-and-bound nodes of all the hubs tried together.  stats (may be
 * NULL) sums nodes and leaves; complete = 0 if the budget stopped a search. */
ssched_status_t ssched_mk_allreduce_limited(const ssched_mk_cluster_t *c, size_t hub,
                                            ssched_mk_allreduce_alg_t alg,
                                            const ssched_mk_limits_t *lim,
                                            ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                            ssched_error_t *err);

/* -------------------------------------------------------------------- scan */

/* Parallel prefix (MPI_Scan, MPI_Exscan; issue 27) in the same model.
 * Processor j holds v_j; the operator is associative, NOT commutative.  A
 * message carries one interval v[lo,hi] = v_lo (+) ... (+) v_hi that its
 * sender can form when it starts; merging two adjacent intervals is free
 * and instantaneous, and a partial result can be used any number of times
 * (sent again, merged again: copies).  At the end processor j holds
 * v[0,j] (inclusive) or v[0,j-1] (exclusive; processor 0 needs nothing).
 * The makespan is the end of the last message, when every processor has
 * its prefix.  Schedules have op SSCHED_MK_SCAN, root 0, any number of
 * messages (lo, hi set) and `exclusive`. */

/* The largest cluster the exhaustive scan search accepts (SSCHED_EINPUT
 * beyond, naming this limit): the search space grows like n^(4n). */
#define SSCHED_MK_SCAN_MAX_PROCESSORS 6

/* The chain: processor j-1 sends v[0,j-1] to processor j when it has it
 * (j = 1..n-1), makespan t(0) + ... + t(n-2); valid for both variants. */
ssched_status_t ssched_mk_scan_chain(const ssched_mk_cluster_t *c, int exclusive,
                                     ssched_mk_schedule_t *out, ssched_error_t *err);

/* The optimal scan by exhaustive branch-and-bound over left-shifted
 * schedules (src/makespan/scan_search.c says why it is complete).
 * lim (may be NULL) bounds the nodes: when reached, the best schedule found
 * (at worst the chain) is returned with SSCHED_EUNCERTIFIED and
 * stats->complete = 0.  stats->method = "bnb". */
ssched_status_t ssched_mk_scan_optimal(const ssched_mk_cluster_t *c, int exclusive,
                                       const ssched_mk_limits_t *lim,
                                       ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                       ssched_error_t *err);

/* ------------------------------------------------------------------ checks */

/* Both checkers follow error.h's convention: SSCHED_OK when the schedule
 * could be checked, report->valid = 0 with what and where when a property
 * fails; SSCHED_EINPUT only for an invalid cluster or root, a schedule for
 * another number of processors or an unknown operation. */

/* Inequality (1) of seed 000 on the senders' start times of a reduce
 * schedule: 2A(s,t) + C(s,t) <= n at every t.  EINPUT for a broadcast. */
ssched_status_t ssched_mk_check_inequality1(const ssched_mk_cluster_t *c,
                                            const ssched_mk_schedule_t *s,
                                            ssched_check_report_t *report, ssched_error_t *err);

/* Full validity check of a schedule against the model, dispatching on s->op:
 * message count and roles, end = start + t(sender), data ready before each
 * send, explicit one-port check of the messages, inequality (1) for reduces,
 * and makespan = last end.  Scan: every message's interval can be formed
 * by its sender at its start (own value and intervals received by then,
 * concatenated in operator order) and every processor can form its prefix
 * by the makespan. */
ssched_status_t ssched_mk_check(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s,
                                ssched_check_report_t *report, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
