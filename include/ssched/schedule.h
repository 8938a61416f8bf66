/* ssched/schedule.h — periodic one-port schedules (RR-4872 §3.3–3.4), their
 * unrolled finite form, and the independent checker.
 *
 * From a certified steady-state solution:
 *  1. period T = LCM of the denominators of TP, of every rate and of every
 *     link's busy time per time unit, so that per period every message
 *     count and every busy time is an integer (mpz_t: T may exceed 64 bits);
 *  2. the bipartite graph senders x receivers, one edge per used link
 *     weighted by its busy time per period, is decomposed into weighted
 *     matchings (matching.h) whose weights sum to at most T;
 *  3. each matching becomes a slot of that length in which every link of
 *     the matching transfers its message types in turn.
 * In the split variant an amount may be fractional (a message is sent in
 * several slots, RR-4872 Fig. 4(a)); with no_split the period is multiplied
 * by the LCM L of the denominators of all slot amounts, so every amount is a
 * whole number of messages (Fig. 4(b)).
 *
 * The checker shares no code with the builder: it reads the JSON text and
 * re-verifies every property docs/model.md lists. */
#ifndef SSCHED_SCHEDULE_H
#define SSCHED_SCHEDULE_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ssched/error.h"
#include "ssched/matching.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/steady.h"
#include "ssched/trees.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Commutative reduce (problem->commutative): a partial result is a SET of
 * participants, and message types are the sets the trees use, numbered in
 * a table.  Set t holds participant j iff
 *     bits[t * words + j / 64] >> (j % 64) & 1
 * (words = ceil(N / 64)).  ssched_sets_intern returns the index of a set,
 * adding it if new (SIZE_MAX: out of memory); ssched_sets_find the index or
 * SIZE_MAX.  A zeroed or freed table is empty (init before interning).
 * The checker numbers the sets of a file with this container too; what
 * the sets mean (disjoint merges, unions, balances) it derives itself. */
typedef struct {
    size_t n, words, cap;      /* sets, words per set, allocated sets       */
    uint64_t *bits;            /* n * words                                 */
    size_t *hash, hash_cap;    /* open addressing: set index + 1, 0 = empty */
} ssched_sets_t;

void ssched_sets_init(ssched_sets_t *s, size_t n_participants);
void ssched_sets_free(ssched_sets_t *s);
size_t ssched_sets_intern(ssched_sets_t *s, const uint64_t *bits);
size_t ssched_sets_find(const ssched_sets_t *s, const uint64_t *bits);
/* dst becomes a copy of src (dst initialised or zeroed); 0 on ENOMEM. */
int ssched_sets_copy(ssched_sets_t *dst, const ssched_sets_t *src);
static inline int ssched_sets_has(const ssched_sets_t *s, size_t set, size_t j)
{
    return (int)(s->bits[set * s->words + j / 64] >> (j % 64) & 1);
}
/* Members of set t in increasing order into out (room for N); the count. */
size_t ssched_sets_members(const ssched_sets_t *s, size_t set, size_t N, size_t *out);

/* `amount` messages of type `type` over platform edge `edge`; the type is a
 * commodity (scatter, gossip), an interval v[k,m] (reduce) or a set index
 * of ssched_schedule_t.sets (commutative reduce). */
typedef struct {
    size_t edge, type;
    mpq_t amount;
} ssched_transfer_t;

/* `count` tasks T_{k,l,m} on `node` per period (reduce).  Commutative
 * reduce: the merge of sets k and l (indices into sets, disjoint, k < l)
 * into set m = k u l. */
typedef struct {
    size_t node, k, l, m;
    mpz_t count;
} ssched_computation_t;

/* A communication step [start, end): a matching of the platform's links. */
typedef struct {
    mpq_t start, end;
    size_t n_transfers;
    ssched_transfer_t *transfers;
} ssched_slot_t;

typedef struct {
    ssched_problem_kind_t kind;
    size_t n_commodities;      /* scatter, gossip: transfer types           */
    ssched_commodity_t *commodities;
    size_t n_intervals;        /* reduce: transfer types v[k,m]             */
    ssched_interval_t *intervals;
    size_t n_computations;     /* reduce: tasks per period                  */
    ssched_computation_t *computations;
    ssched_trees_t trees;      /* reduce: the weighted trees used           */
    int commutative;           /* reduce with a commutative operator: types
                                  and computations refer to sets            */
    ssched_sets_t sets;        /* commutative reduce: the transfer types    */
    ssched_arborescences_t arborescences; /* broadcast: arborescences rooted
                                  at the source reaching every target (to
                                  every other node: spanning; a multicast:
                                  Steiner, relays allowed); arcs = edge
                                  indices; weight = instances per period, an
                                  integer */
    int multicast;             /* broadcast to a strict subset of the other
                                  nodes (or with switches): throughput is the
                                  achievable TP of the solution's Steiner
                                  arborescences, upper_bound the edge LP's */
    size_t n_scan_structures;  /* scan (schedule/build_scan.c): the prefix
                                  structures of the certified packing, each
                                  `rate` = its instances per period (an
                                  integer); transfer types are the
                                  intervals, computations the tasks        */
    ssched_scan_structure_t *scan_structures;
    size_t root;               /* allreduce: the root the trees reduce to
                                  and the arborescences broadcast from;
                                  transfers of type n_intervals are the
                                  copies of the result                      */
    mpq_t upper_bound;         /* broadcast: certified bound on the optimal
                                  TP (= throughput when not a multicast)    */
    int optimal;               /* broadcast: throughput proven optimal      */
    mpq_t throughput;          /* = ops_per_period / period                 */
    mpq_t size;                /* message size (a transfer takes amount*size*c) */
    mpq_t period;              /* T (times L with no_split), or TF          */
    mpz_t ops_per_period;      /* operations completed per period           */
    mpz_t lcm_period;          /* T before the no-split scaling             */
    mpz_t nosplit_factor;      /* L (1 in the split variant)                */
    int split;                 /* 0: every amount is an integer             */
    int unroll_whole;          /* unrolling moves every message whole, each
                                  on one route (ssched_unroll_plan with
                                  no_split); the pattern only orders them  */
    size_t unroll_batch;       /* unrolling: operations each transfer
                                  carries (a batch: op .. op+n-1, one
                                  message of n times the range, one latency);
                                  0 or 1: one.  ssched_unroll_plan chooses it
                                  from the latencies, K and the size          */
    size_t segments;           /* unrolling: 0 or 1, whole operations; p > 1:
                                  the operations are segments, p per
                                  operation of the problem the user gave
                                  (ssched_unroll_segments; "segments": p) */
    int unroll_direct;         /* unrolling: the direct (one-level) pattern of
                                  ssched_unroll_plan_pattern, not one derived
                                  from the steady state                      */
    int unroll_order;          /* unrolling a reduce or all-reduce: 0 the
                                  slot order; else bits 0-1 the order of a
                                  period's reduce transfers when values move
                                  whole (1 oldest operation first, after the
                                  all-reduce's copies; 2, 3 shallow, deep
                                  trees first in a batch), bits 2-3 lag + 1
                                  of a batch release, bits 4-5 the first
                                  batches placed alone (unroll_reduce.c);
                                  ssched_unroll_plan chooses it (routed)    */
    size_t n_slots;
    ssched_slot_t *slots;      /* consecutive, starting at 0                */
    /* matching figures */
    size_t n_matchings, matching_bound, bipartite_edges;
    double decompose_seconds;
    /* fixed period (reduce, RR-4872 §4.6) */
    int fixed;                 /* 1 if built for a given period TF          */
    mpq_t optimal_throughput;  /* the certified TP                          */
    mpq_t floor_throughput;    /* sum_T floor(w(T) TF / T) / TF             */
    mpq_t report_bound;        /* TP - card(TREES) / TF                     */
    mpz_t extra_instances;     /* tree instances added beyond the floors    */
} ssched_schedule_t;

typedef struct {
    int no_split;                   /* integral amounts (period x L)       */
    ssched_matching_rule_t rule;    /* bottleneck (default) or arbitrary   */
    mpq_srcptr fixed_period;        /* period TF > 0, or NULL (reduce: tree
                                       counts floor(w TF / T) + greedy fill;
                                       scatter, gossip: floor(TP TF) whole
                                       operations, period = that / TP)    */
} ssched_schedule_options_t;

void ssched_schedule_options_default(ssched_schedule_options_t *opt);

/* All-reduce: the transfer type of the broadcast's copies, one past the
 * reduce's types (the intervals, or the sets of a commutative operator). */
static inline size_t ssched_schedule_copy_type(const ssched_schedule_t *s)
{
    return s->commutative ? s->sets.n : s->n_intervals;
}
void ssched_schedule_init(ssched_schedule_t *s);
void ssched_schedule_free(ssched_schedule_t *s);

/* Build one period of a schedule reaching exactly steady->throughput.
 * Broadcast: weighted arborescences A_i of weights y_i (sum = TP) are
 * either the solution's own (column generation: steady->arborescences,
 * Steiner ones for a multicast) or, for the edge LP of a broadcast to
 * every other node, the copies per edge packed into spanning ones
 * (trees.h); the period T is the LCM of the denominators of the y_i, so
 * each A_i is used y_i T times per period and TP T messages are
 * broadcast; the loads of the arborescences (not the copies, which may be
 * larger) make the bipartite graph.  Split: an amount may be a fraction of
 * the message; no_split as above (period x L, every count x L).  A
 * multicast solved by the edge LP alone (no arborescences: only an upper
 * bound is known) and a fixed period are refused (EINPUT).
 * Scatter and gossip: flow cycles of the LP solution (useless
 * circulations) are cancelled first.  Reduce: the solution is decomposed
 * into weighted reduction trees (trees.h); the transfers of the trees make
 * the bipartite graph (RR-4872 §4.3) and their computations are listed per
 * period.  With opt->fixed_period (reduce), every tree T of weight w(T) is
 * used r(T) = floor(w(T) TF / T) times per period TF (RR-4872 §4.6), then
 * extra tree instances are added greedily while every port and processor
 * still fits in TF, so the throughput is never below the report's floor
 * version (both figures are kept). */
ssched_status_t ssched_schedule_build(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_steady_t *steady,
                                      const ssched_schedule_options_t *opt,
                                      ssched_schedule_t *out, ssched_error_t *err);

/* ---------------------------------------------------------------------- */
/* Unrolled finite schedule for K operations (RR-4872 §3.4).
 *
 * The periodic pattern is replayed period after period; a node forwards
 * only what reached it in an earlier period, so every value is sent or
 * merged after it exists.  Amounts may be fractional: a message is then
 * moved as explicit pieces, byte ranges [offset, offset + length) given as
 * fractions of one message, and a piece leaves a node only once that whole
 * range has arrived there.  Scatter and gossip messages flow through each
 * node first in, first out; reduce operations are tree instances (a task of
 * level L runs for batch b in period b + L) and computations take whole
 * values.  Every event is then started as early as its ports, processor
 * and inputs allow, in the pattern's order on every port and processor (a
 * left shift: still valid, start-up and clean-up shrink), as it is
 * generated: time and memory are linear in K x (events of one operation)
 * and never depend on the digits of the period.  Use a short period
 * (ssched_unroll_plan) for a small start-up.
 *
 * All-reduce: operation t's reduce part is an unrolled reduce to the
 * schedule's root R along one tree (as above); then t's result leaves R
 * no earlier than its complete value is there and goes down one
 * arborescence as whole copies (transfers of type
 * ssched_schedule_copy_type(s)), a copy leaving a node only after it has
 * fully arrived there.  Both parts are replayed together, in the pattern's
 * slot order, on the same ports, links and processors.
 *
 * Lower bound: LB(K) = max(K / TP, LB1).  K / TP holds for every K (a
 * schedule of K operations averaged over its makespan is a feasible point
 * of the steady-state LP).  LB1 bounds one operation (ssched_unroll_lb1). */

/* A timed transfer; type: as the schedule's (all-reduce: the copies of
 * the result are ssched_schedule_copy_type(s), whole messages). */
typedef struct {
    mpq_t start, end;
    size_t edge, type;
    size_t op;                 /* operation index, 0 .. K-1                 */
    size_t batch;              /* operations carried: op .. op+batch-1 (>= 1),
                                  the same range of each one's message, in
                                  one message of batch * length (JSON
                                  "batch": n, absent = 1)                    */
    mpq_t piece_offset;        /* the range moved, as fractions of one      */
    mpq_t piece_length;        /* message: [0, 1) when whole                */
} ssched_timed_transfer_t;

/* Reduce: task T_{k,l,m} of operation `op` computed on `node`
 * (commutative: the merge of sets k and l into set m, as above). */
typedef struct {
    mpq_t start, end;
    size_t node, k, l, m;
    size_t op;
} ssched_timed_computation_t;

/* The figures of an unrolled schedule (all exact).
 *
 * Buffer needs: the most messages any node holds at once, in messages (a
 * piece of length L counts L, a whole message or reduce value 1; not
 * multiplied by the problem size).
 *  - Scatter, gossip: at node v, a range of a message is held from the
 *    start of a transfer that brings it to v (v not that message's origin
 *    or destination) until the end of the transfer that sends it on from v:
 *    held(v) rises by L at each incoming relay transfer's start and falls by
 *    L at each outgoing forward's end.  Data at its origin and at its
 *    destination is never counted.
 *  - Reduce: a value (interval [k,m] of operation op) is held at v from the
 *    start of the transfer that brings it (by L) or of the computation at v
 *    that produces it (by 1), until the end of the transfer that sends it
 *    away from v (by L) or of the computation at v that consumes it (by 1
 *    per input).  A participant's own value [k,k] at its node P_k and the
 *    final result [0,N-1] at the target are never counted.
 *  - Broadcast: a message is held at v (not the source) from the start of
 *    the transfer bringing it to the end of the last transfer forwarding
 *    it from v (not at all if v does not forward it).
 *  - All-reduce: the reduce values as for a reduce to the root, plus the
 *    copies of the results as for a broadcast from the root, added.
 * At equal times releases (ends) are applied before acquisitions (starts).
 * The peak of v is the largest held(v) after an acquisition (0 if none);
 * buffer_peak is the largest peak and buffer_node the first node (in node
 * order) attaining it. */
typedef struct {
    size_t operations;         /* K                                         */
    mpq_t makespan;            /* end of the last event                     */
    mpq_t throughput;          /* the certified TP                          */
    mpq_t steady_time;         /* K / TP                                    */
    mpq_t overhead;            /* makespan - K / TP                         */
    mpq_t lb1;                 /* lower bound on one operation's time       */
    mpq_t lower_bound;         /* LB(K) = max(K / TP, LB1)                  */
    mpq_t ratio;               /* makespan / LB(K)                          */
    mpq_t period;              /* period of the pattern replayed            */
    mpz_t ops_per_period;      /* operations per period of the pattern      */
    mpq_t pattern_throughput;  /* ops_per_period / period                   */
    size_t periods;            /* periods replayed                          */
    size_t transfers, computations, pieces; /* events written; pieces: the
                                  transfers that move part of a message     */
    mpq_t buffer_peak;         /* the most messages a node holds at once    */
    size_t buffer_node;        /* the first node holding buffer_peak        */
} ssched_unroll_figures_t;

typedef struct {
    size_t operations;         /* K                                         */
    size_t n_transfers, cap;
    ssched_timed_transfer_t *transfers;  /* sorted by start time            */
    size_t n_computations, comp_cap;     /* reduce                          */
    ssched_timed_computation_t *computations;
    ssched_sets_t sets;                  /* commutative reduce: the types    */
    ssched_unroll_figures_t fig;
    /* shorthands of fig, kept for callers of the first version */
    mpq_t makespan, steady_time, overhead;
    size_t periods;
} ssched_unrolled_t;

void ssched_unrolled_init(ssched_unrolled_t *u);
void ssched_unrolled_free(ssched_unrolled_t *u);
void ssched_unroll_figures_init(ssched_unroll_figures_t *f);
void ssched_unroll_figures_free(ssched_unroll_figures_t *f);

/* Resource limits of an unrolling, checked before any work (0: default). */
typedef struct {
    size_t max_operations;          /* default 10^7                        */
    size_t max_events;              /* transfers + computations written;
                                       default 5 * 10^8                     */
    size_t max_memory;              /* bytes kept at once; default 2^31     */
    /* called about once a second during a long unrolling (may be NULL):
     * periods replayed so far out of about `total` */
    void (*progress)(void *ctx, size_t done, size_t total, double seconds);
    void *progress_ctx;
} ssched_unroll_limits_t;

/* Unroll s for K >= 1 operations into memory (u).  EINPUT if K == 0 or a
 * limit would be exceeded (the message names the estimate); EINPUT too if
 * the time resolution needs more than 63 bits (then use a shorter period).
 * limits may be NULL. */
ssched_status_t ssched_unroll(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, size_t K,
                              ssched_unrolled_t *out, ssched_error_t *err);
ssched_status_t ssched_unroll_limited(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_schedule_t *s, size_t K,
                                      const ssched_unroll_limits_t *limits,
                                      ssched_unrolled_t *out, ssched_error_t *err);

/* Scan (issue 27; schedule/unroll_scan.c): K >= 1 operations of the
 * certified packing of prefix structures st->scan_structures (a scan
 * solution by column generation), operation q on the structure furthest
 * below its share x_s / TP, its sends and tasks list-scheduled in exact
 * time on one-port hosts, switch links and processors (whole values, a
 * value kept where it arrives, so it can be sent again and merged).  s
 * receives the header of the unrolled file (kind scan, intervals as types,
 * throughput = the achievable TP), out the events in start order and the
 * figures; write them with ssched_write_unrolled_json.  EINPUT for a
 * routed platform, a solution without structures, K = 0 or more than
 * 5*10^7 events. */
ssched_status_t ssched_scan_unroll(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *st, size_t K, ssched_schedule_t *s,
                                   ssched_unrolled_t *out, ssched_error_t *err);

/* The same streamed to a file while it is generated:
 * ssched_write_unrolled_stream (ssched/export.h). */

/* LB1: a lower bound on the time of one operation, from exact shortest
 * paths where a hop over e costs l(e) + size * c(e) (its latency, then its
 * transfer time; data moves store-and-forward):
 *  - scatter, gossip: a message may travel in pieces that relays forward
 *    as soon as each arrives (pipelining along a path), so only what every
 *    piece pays is counted: for each (origin o, destination d) the
 *    latency-only shortest path dl(o, d) plus size * the larger of the
 *    cheapest c out of o and into d (all of the message crosses o's
 *    out-port and d's in-port); and the time an origin's out-port needs
 *    for one message per destination, count * size * cheapest c plus the
 *    port's cheapest latency (the same for in-ports);
 *  - reduce, N >= 2: every participant's value is merged at least once, on
 *    some node x with a processor, and the result reaches the target:
 *    max_k min_x (d(P_k, x) + w(x) + d(x, target)); N = 1: d(P_0, target)
 *    (values move whole between merges, even when cut in pieces over one
 *    edge);
 *  - all-reduce (pb->target = the root R): the reduce bound to R plus
 *    max_j d(R, P_j) (the result leaves R complete, then reaches each
 *    participant);
 *  - broadcast: the message reaches every target k along some path, so
 *    max_k d(S, k) from the source S.
 * With latencies LB(K) = max(K / TP, LB1) stays a lower bound on the
 * makespan of K operations (proof: schedule/unroll_lb.c). */
ssched_status_t ssched_unroll_lb1(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  mpq_t lb1, ssched_error_t *err);

/* A periodic schedule chosen for K operations.
 *  - Scatter, gossip: period 1/TP with one operation (TP kept exactly);
 *    messages move whole on routes when every route carries whole messages
 *    per operation, else pieces or whole, whichever is faster.
 *  - Reduce: candidate periods m/TP (tree counts as for --fixed-period) and
 *    the tight periods of n = 1..256 instances apportioned by tree rates.
 *  - Broadcast (multicasts included): the arborescence pattern itself, period T = LCM of the denominators of
 *    the weights y_i (so y_i T instances per period are whole messages and
 *    TP is kept exactly; no_split changes nothing, messages are whole
 *    anyway); operation t's message goes down the arborescence furthest
 *    below its share y_i / TP and crosses each arc whole, a copy leaving a
 *    node only after the message has fully arrived there.
 *  - All-reduce: the solution's own pattern (period: the LCM of the trees'
 *    and arborescences' rates) and short ones of n = 1..128 operations (n
 *    tree and n arborescence instances apportioned by rate, the period the
 *    busiest resource's time; pattern_throughput <= TP); max_period bounds
 *    them; no_split moves the reduce values whole (copies always are).
 * Candidates are ranked by their exact time for K (a replay without output)
 * when that costs at most 2*10^6 events, else by (ceil(K/n) + depth) x
 * period.  With max_period only periods <= max_period are tried (and
 * max_period itself).  no_split: whole messages (operation t's message of
 * each type takes the route furthest below its share; values of a reduce
 * move whole).  out receives the chosen schedule (its unroll_whole flag
 * says how messages move). */
ssched_status_t ssched_unroll_plan(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_steady_t *steady, size_t K,
                                   mpq_srcptr max_period, int no_split,
                                   ssched_schedule_t *out, ssched_error_t *err);

/* Which periodic patterns ssched_unroll_plan_pattern considers. */
typedef enum {
    SSCHED_PATTERN_AUTO = 0, /* the steady-state (LP) pattern and the direct
                                one; the direct one only when its exact
                                makespan for K is strictly less             */
    SSCHED_PATTERN_LP,       /* the pattern derived from the certified steady
                                state only (ssched_unroll_plan before issue 22) */
    SSCHED_PATTERN_DIRECT    /* the direct (one-level) pattern only         */
} ssched_pattern_t;

/* "auto", "lp", "direct" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_pattern_name(ssched_pattern_t v);
ssched_status_t ssched_pattern_parse(const char *text, ssched_pattern_t *out,
                                     ssched_error_t *err);

/* ssched_unroll_plan with a choice of patterns (ssched_unroll_plan is
 * SSCHED_PATTERN_AUTO).  The direct pattern holds one operation per period:
 * scatter, gossip: each message from its origin to its destination on one
 * route, the shortest by l + size c (routed: the overlay edge when there is
 * one); broadcast, multicast: the source's shortest-route arborescence;
 * reduce: every participant's value to the target, merged there in
 * participant order (commutative too); all-reduce: that reduce to the
 * problem's root (best root: the solution's or a participant, the shortest
 * period), then the root's arborescence.  Its period is the busiest port,
 * link or processor's time for one operation (its throughput, exact); it
 * gets its own batch and pieces.  With latencies, where the LP pattern's
 * relays pay one latency per hop, it is often faster for small messages.
 * The unrolled file still claims the certified TP (LB(K) unchanged);
 * out->unroll_direct says which pattern was chosen.  DIRECT is refused
 * (EINPUT) for one participant and when the reduce's target (or every
 * candidate root) cannot merge (no w). */
ssched_status_t ssched_unroll_plan_pattern(const ssched_platform_t *p,
                                           const ssched_problem_t *pb,
                                           const ssched_steady_t *steady, size_t K,
                                           mpq_srcptr max_period, int no_split,
                                           ssched_pattern_t which, ssched_schedule_t *out,
                                           ssched_error_t *err);

/* Segments: K operations of an element-wise problem (all-reduce, reduce,
 * broadcast) cut into p segments are K*p independent operations of size
 * size/p, each merge of a segment taking w/p (the executor: flops per task
 * x size).  ssched_unroll_segments turns p (platform, problem) into the
 * segment problem (size and every w divided by p; 1: unchanged; EINPUT for
 * another kind); plan it for K*p operations and set out->segments = p so
 * the file says "segments": p.  The file's LB(K*p) is then max(K/TP,
 * LB1(size/p)), TP the original problem's: a bound on every segmented
 * schedule, K/TP on every schedule (proof: schedule/unroll_seg.c). */
int ssched_unroll_segmentable(ssched_problem_kind_t kind);
ssched_status_t ssched_unroll_segments(ssched_platform_t *p, ssched_problem_t *pb,
                                       unsigned long segments, ssched_error_t *err);

/* ---------------------------------------------------------------------- */
/* Export. */

/* Writers (JSON, table, Gantt charts, Graphviz): ssched/export.h.  Past
 * 30000 events an unrolled Gantt chart draws only the first and last 8
 * operations; this says whether u is that large. */
int ssched_unrolled_gantt_elided(const ssched_unrolled_t *u);

/* Read an "ssched-unrolled/2" file (as ssched_write_unrolled_stream or
 * ssched_write_unrolled_json wrote it) back into memory: its platform (with the
 * switches' "ports": "multi"), its problem and its events in file order,
 * with the figures the file states (u->fig.makespan etc.; periods stays 0).
 * p, pb, u must be initialised and empty; free them as usual afterwards,
 * also on error.  Event types use the canonical numbering of the
 * steady-state model: scatter, gossip: (source, target) pairs in problem
 * order, source != target; reduce: intervals [k, m] in row order (k, then
 * m); commutative reduce: sets, numbered as they first appear in the file,
 * in u->sets (a computation's k, l are its input sets, m their union);
 * all-reduce (pb->kind SSCHED_PROBLEM_ALLREDUCE, pb->target = the root):
 * the reduce's types, and the copies ("copy": true) the type after them
 * (N(N+1)/2, or u->sets.n when commutative).
 * The file is parsed, not checked: run ssched_check_schedule_file for
 * validity.  EINPUT names the file and the first malformed field. */
ssched_status_t ssched_unrolled_read_file(const char *path, ssched_platform_t *p,
                                          ssched_problem_t *pb, ssched_unrolled_t *u,
                                          ssched_error_t *err);

/* ---------------------------------------------------------------------- */
/* Independent checker. */

/* ssched_check_report_t is in error.h (shared by every checker); its
 * unrolled, n_slots and n_transfers fields are filled here. */

/* Check a schedule given as JSON text (either format).  Returns SSCHED_OK
 * when the text could be checked (then report->valid says whether it is a
 * valid schedule), SSCHED_EINPUT if it is not a well-formed schedule file
 * (unparsable JSON, missing or mistyped fields, unknown nodes or edges). */
ssched_status_t ssched_check_schedule_text(const char *json_text,
                                           ssched_check_report_t *report,
                                           ssched_error_t *err);
/* The same for len bytes (no terminating NUL needed; a NUL byte inside is
 * malformed input).  Unrolled files are read as a stream: the event arrays
 * are never loaded whole, and they must list events in start order. */
ssched_status_t ssched_check_schedule_buffer(const char *json_text, size_t len,
                                             ssched_check_report_t *report,
                                             ssched_error_t *err);
/* Check a schedule file, mapped into memory rather than read (a file of
 * any size).  EINPUT names the file when it cannot be read. */
ssched_status_t ssched_check_schedule_file(const char *path, ssched_check_report_t *report,
                                           ssched_error_t *err);

/* The throughput a file claims.  The file holds its platform and its
 * problem, so the checker solves that problem again, as `solve` does
 * (default options: column generation, certified exactly), and holds the
 * file to the result (schedule/check_solve.c states the rule):
 *  - scatter, gossip, ordered reduce, broadcast to every other node (TP is
 *    the certified optimum, unique): an unrolled file's "throughput" and a
 *    fixed-period file's "optimal_throughput" must equal it; a periodic
 *    file's throughput (operations_per_period / period, reached by its
 *    slots) must not exceed it, its "upper_bound" must equal it and
 *    "optimal" say whether the throughput reaches it;
 *  - multicast, commutative reduce, all-reduce (column generation gives an
 *    achievable TP and a certified upper bound, both deterministic): an
 *    unrolled file's "throughput" (and a fixed period's
 *    "optimal_throughput") must equal the achievable TP solved again; a
 *    periodic file's throughput is what its own slots, trees and
 *    arborescences reach and must not exceed the bound; "upper_bound" must
 *    equal the bound solved again, and "optimal" is true exactly when the
 *    throughput reaches the bound or equals the achievable TP that the
 *    solve proved optimal.
 * lower_bound, steady_time and ratio follow from the verified throughput.
 * The re-solve is bounded: a problem whose size (message types x edges,
 * times the candidate roots of a best-root all-reduce) is above
 * max_solve_size is refused with SSCHED_ELIMIT naming the limit, never
 * accepted unverified. */
#define SSCHED_CHECK_MAX_SOLVE_SIZE 2000000u
typedef struct {
    size_t max_solve_size;     /* 0: SSCHED_CHECK_MAX_SOLVE_SIZE              */
    int trust_throughput;      /* 1: take the throughput claims as stated (no
                                  solve).  Only for the self-checks of what
                                  ssched built from a solution it certified
                                  itself; never for a file of unknown origin */
} ssched_check_options_t;

void ssched_check_options_default(ssched_check_options_t *opt);
/* ssched_check_schedule_buffer / _file with options (NULL: defaults). */
ssched_status_t ssched_check_schedule_buffer_opts(const char *json_text, size_t len,
                                                  const ssched_check_options_t *opt,
                                                  ssched_check_report_t *report,
                                                  ssched_error_t *err);
ssched_status_t ssched_check_schedule_file_opts(const char *path,
                                                const ssched_check_options_t *opt,
                                                ssched_check_report_t *report,
                                                ssched_error_t *err);

/* Self-checks of what ssched itself emits: the schedule s as
 * ssched_write_schedule_json writes it, the unrolled schedule u as
 * ssched_write_unrolled_json writes it, or a file ssched wrote, passed
 * through the independent checker above.  SSCHED_OK if it is valid;
 * SSCHED_EINTERNAL if the text is malformed ("emitted schedule is
 * malformed: ...") or fails the checker ("emitted schedule fails the
 * checker: ..."), messages beginning "internal error: " since either is a
 * bug in ssched, not in the input; SSCHED_ENOMEM.  report, if not NULL,
 * receives the checker's report. */
ssched_status_t ssched_schedule_self_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                                           const ssched_schedule_t *s,
                                           ssched_check_report_t *report, ssched_error_t *err);
ssched_status_t ssched_unrolled_self_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                                           const ssched_schedule_t *s, const ssched_unrolled_t *u,
                                           ssched_check_report_t *report, ssched_error_t *err);
ssched_status_t ssched_file_self_check(const char *path, ssched_check_report_t *report,
                                       ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
