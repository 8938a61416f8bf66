/* Private interfaces of the unrolling engine (schedule/unroll*.c).
 *
 * Times are exact integers of ticks, 1/Q time unit each, and amounts exact
 * integers of units, 1/A message each: Q and A are chosen so that every
 * duration the pattern can produce is a whole number of ticks (Q is a
 * multiple of the denominator of size*c/A on every used edge and of w on
 * every computing node).  The left shift only adds durations and takes
 * maxima, so every time stays a multiple of 1/Q: int64 arithmetic is exact
 * once the largest possible time (the sum of every duration) is known to
 * fit, which ssched_i_sched_scale_init checks.
 *
 * When exact ticks would need more than 62 bits (30-digit costs, LP
 * amounts with large denominators), the scale is a rounded grid instead
 * (`rounded`): a tick is period / M (M a power of two, as large as the
 * times allow), so the grid follows the pattern, not the unit of time.  A
 * duration d holds its resources for ceil(d / tick) ticks, and the event
 * is written with its exact end, start + d (ssched_i_sched_exact_end): the
 * reserved interval contains the real one, data is used no earlier than
 * the reserved end, so the schedule stays valid; the loss is under one
 * tick per event.  Starts are whole ticks, so `end <= start` compares the
 * same on the exact and the reserved ends (buffer releases, ties).  A
 * rounded scale moves whole messages (A = 1) except scatter and gossip
 * pieces, whose ends are ceilings of exact ends too.  Latency (l(e) > 0,
 * not yet added by the engine): an exact scale already divides every l(e)
 * (ssched_i_sched_lcm_latency); on the rounded grid the bandwidth phase
 * must be reserved from floor((start + l) / tick) to the ceiling of the
 * exact end, so that the reserved interval still contains the real one. */
#ifndef SSCHED_SCHEDULE_UNROLL_INTERNAL_H
#define SSCHED_SCHEDULE_UNROLL_INTERNAL_H

#include <stdint.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

typedef struct {
    mpz_t Q, A;                 /* ticks per time unit, units per message   */
    int64_t q, a;               /* Q, A                                      */
    int whole;                  /* reduce: A would not fit 62 bits, so each
                                   value moves whole (A = 1) at its first
                                   slot; the left shift keeps it valid     */
    int64_t *unit_ticks;        /* per edge: ticks of one unit (size*c*Q/A) */
    int64_t *task_ticks;        /* per node: ticks of one task (w*Q)        */
    int rounded;                /* the rounded grid (above): tick = period/M */
    mpq_t tick;                 /* time units per tick (1/Q when exact)     */
} sched_scale_t;

/* One event, as generated (times already left-shifted). */
typedef struct {
    int is_comp;
    size_t edge, type;          /* transfer                                  */
    size_t node, k, l, m;       /* computation                               */
    size_t op;
    size_t batch;               /* transfer: operations op .. op+batch-1 in
                                   one message (JSON "batch"); 0 or 1: one  */
    int64_t start, end;         /* ticks                                     */
    int64_t off, len;           /* units; whole message: 0, A                */
    /* scatter, gossip: the piece as exact fractions and as JSON text
     * ("[\"o\", \"l\"]"), or NULL for a whole message */
    mpq_srcptr piece_off, piece_len;
    const char *piece_json;
    int64_t bamt;               /* transfer: the amount in buffer units     */
    unsigned char bacq, brel;   /* broadcast: the receiver holds the message
                                   (it forwards it); the last forward from
                                   the sender (its copy is released at end) */
    int64_t lat;                /* transfer: its edge's latency in ticks: the
                                   bandwidth phase is [start + lat, end)    */
    unsigned long group;        /* transfer: 0, or a shared-rate group's size
                                   g on SHARED link group_link: its phase
                                   [start + lat, end) reserves ticks; exact,
                                   it is [t, t + g z link_c) with t = (start
                                   + lat) ticks, sent l(e) earlier        */
    size_t group_link;
    mpq_srcptr gdur;            /* a latency-weighted group's member
                                   (unroll_shared_w.c): its exact bandwidth
                                   phase, from t = (start + lat) ticks;
                                   NULL otherwise                          */
    /* the exact times when the scale is rounded (set by the driver just
     * before the sink gets the event; NULL otherwise: start, end in ticks) */
    mpq_srcptr xstart, xend;
} sched_event_t;

/* Events waiting for the sink: those generated since the last flush
 * (in generation order), then sorted runs, one per flush that had new
 * events, each stably sorted on start; the sink receives the runs merged,
 * older runs first at equal starts, so (start, order generated). */
typedef struct {
    sched_event_t *ev;
    size_t n, pos, cap;
    int64_t head;               /* ev[pos].start                            */
    unsigned long long id;      /* creation order                           */
} sched_run_t;

typedef struct {
    int64_t start;
    size_t idx;
} sched_key_t;

/* A buffer release waiting for its time (end of an event). */
typedef struct {
    int64_t end;
    size_t node;
    int64_t amount;             /* buffer units                             */
} sched_release_t;

/* Buffer needs (schedule.h, ssched_unroll_figures_t), tracked on the
 * events as the sink receives them (in start order).  Amounts are whole
 * numbers of 1/bu message; held and peak per node are int64 while no sum
 * can overflow (every addition is checked) and GMP from then on. */
typedef struct {
    int64_t bu;                 /* buffer units per message (0: not tracked) */
    size_t *excl;               /* per type: the 2 nodes where it never counts */
    int64_t *held, *peak;       /* per node                                 */
    mpz_t *wheld, *wpeak;       /* per node, once int64 could overflow      */
    sched_release_t *rel;       /* min-heap on end                          */
    size_t n_rel, cap_rel;
    size_t *touched;            /* nodes acquired at time `now`             */
    size_t n_touched, cap_touched;
    int64_t now;
    int any;                    /* an event was seen                        */
    /* scatter, gossip pieces whose 1/bu would need more than 62 bits:
     * amounts are exact (GMP, units of 1/wbu) and an event's bamt is the
     * index of its amount in wamt (ssched_i_sched_buffers_wide) */
    int wide;
    mpz_t wbu;
    mpz_t *wamt;
    size_t n_wamt;
} sched_buffers_t;

/* Where events go: into memory or a JSON stream. */
typedef struct sched_sink_s {
    const sched_scale_t *sc;    /* set by the engine before the first event */
    ssched_status_t (*emit)(struct sched_sink_s *sk, const sched_event_t *ev,
                            ssched_error_t *err);
    int no_buffers;             /* skip the buffer needs (planning replays) */
    int64_t bu;                 /* set by the engine with sc: buffer units
                                   per message of the events' bamt          */
} sched_sink_t;

/* A SHARED link's usage: u[k] on [t[k], t[k+1]), u[n-1] = 0 (unroll_links.c). */
typedef struct {
    int64_t *t, *u;
    size_t n, cap;
    int64_t front;              /* the latest phase start placed (only
                                   grows): see rlag                       */
} sched_profile_t;

/* The engine's running state, shared by the scatter and reduce loops. */
typedef struct {
    const ssched_platform_t *p;
    const ssched_schedule_t *s;
    sched_scale_t sc;
    int64_t *send_free, *recv_free, *cpu_free; /* per node, ticks           */
    int64_t *link_free;         /* per edge, ticks: the link's own resource
                                   at a switch end (platform multiport)      */
    /* routed platforms (docs/model.md, "Routed schedules": bottleneck-rate sharing): a
     * transfer over e takes w = link_c(L) / c(e) D_L of every SHARED link
     * L of its route during its bandwidth phase (unroll_links.c), and the
     * hosts' ports only when hosts are one-port */
    sched_profile_t *rprof;     /* per link, then per edge: usage over time */
    int64_t *rlink_cap;         /* per link, then per edge: D, the whole    */
    int64_t *rroute_w;          /* per route position: w                    */
    int64_t *redge_w;           /* per edge, multi-port hosts: its share of
                                   the edge's own profile rprof[n_links + e]
                                   (the LP's per-edge FATPIPE row), 0: none */
    unsigned char *rlink_used;  /* per link: a SHARED link the pattern uses */
    int64_t rlag;               /* a phase starts no earlier than its links'
                                   fronts less rlag ticks (0: no such rule;
                                   set with the release)                   */
    int64_t makespan;
    size_t transfers, computations, pieces;
    sched_sink_t *sink;
    /* events wait until no later event can start before them, so the
     * sink receives them sorted on (start, order generated) */
    sched_event_t *fresh;       /* generated since the last flush          */
    size_t n_fresh, cap_fresh;
    sched_run_t *runs;          /* min-heap on (head, id)                   */
    size_t n_runs, cap_runs;
    sched_run_t *spare;         /* emptied runs, their arrays kept          */
    size_t n_spare, cap_spare;
    sched_key_t *keys, *keys2;  /* sorting a run                           */
    size_t cap_keys;
    unsigned long long run_id;
    const ssched_problem_t *pb;
    sched_buffers_t buf;
    unsigned char *sends, *computes;  /* per node: used by the pattern     */
    unsigned char *link_sends;  /* per edge: used by the pattern, from a switch */
    /* release times: an event of period b starts no earlier than
     * (b - window) periods, so the left shift cannot let a node run ahead
     * and buffers stay bounded (see ssched_i_sched_engine_period) */
    mpq_t period_ticks;         /* the pattern's period, in ticks           */
    size_t window;              /* periods an event may move earlier        */
    int64_t release;            /* for the period being replayed            */
    /* progress: periods flushed, the expected total, the caller's report */
    size_t periods_done, periods_total;
    double started, reported;
    const ssched_unroll_limits_t *limits;
    /* latencies (SEMANTICS: a transfer ends l + z c after its start and
     * holds its ports only in [start + l, end)): ticks per edge, set at
     * the first transfer, once the replay has fixed the scale; lat_max
     * lowers the flush watermark (a later transfer may start l before its
     * ports are free).  On a rounded scale the reserved interval
     * [start + floor(l), start + ceil(l) + ceil(d)) holds the real
     * [start + l, start + l + d). */
    int64_t *lat_ticks;         /* NULL until set; per edge floor(l / tick):
                                   the bandwidth phase starts no earlier   */
    int64_t *lat_hi;            /* per edge ceil(l / tick) (the same on an
                                   exact scale; -1: not a whole number of
                                   ticks, an edge the scale did not see)   */
    int64_t lat_max;
    /* routed platforms with multi-port hosts: each processor's busy
     * intervals (capacity 1), so a computation placed later may take an
     * earlier idle gap (unroll_links.c); NULL otherwise (cpu_free alone).
     * Sound for the flush: there every later event starts no earlier
     * than its period's release time, the watermark's bound. */
    sched_profile_t *cpuprof;
    /* latency-weighted groups' exact phases (events point into them):
     * chunks of SCHED_GX_CHUNK, kept until the engine is freed */
    mpq_t **gx;
    size_t n_gx, cap_gx;
} sched_engine_t;
#define SCHED_GX_CHUNK 256

/* Start replaying period b (window: the pattern's depth): sets the
 * release time floor((b - window) * period) in ticks.  Every event of
 * period b then lies in [(b - window) P, (b + 1) P] (the left shift never
 * makes an event later than the periodic pattern does), so a message waits
 * at a relay at most window + 2 periods. */
SSCHED_INTERNAL void ssched_i_sched_engine_period(sched_engine_t *e, size_t b);

/* Hand the sink every waiting event that starts no later than any future
 * event can (all of them when final): a future event starts after its
 * ports' and processor's free times, so the watermark is the least free
 * time of the nodes the pattern uses (of the links it uses out of switches). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_engine_flush(sched_engine_t *e, int final,
                                                            ssched_error_t *err);
/* Release the engine's runs, spare runs and sort buffers. */
SSCHED_INTERNAL void ssched_i_sched_engine_free_runs(sched_engine_t *e);

/* Scale of the schedule s (slot amounts, edges, w); EINPUT if a time for K
 * operations over at most max_periods periods could exceed 2^62 ticks. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_scale_init(sched_scale_t *sc,
                                                          const ssched_platform_t *p,
                                                          const ssched_problem_t *pb,
                                                          const ssched_schedule_t *s,
                                                          unsigned long long max_periods,
                                                          ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_sched_scale_free(sched_scale_t *sc);
/* Ticks of an exact duration d: d * Q (exact scale, an integer by
 * construction) or ceil(d / tick) (rounded); -1 if above 62 bits. */
SSCHED_INTERNAL int64_t ssched_i_sched_dur_ticks(const sched_scale_t *sc, const mpq_t d);
/* Make sc the rounded grid for a pattern of this period, whose events of
 * one period last `busy` time units in all and number `events`, replayed
 * over `periods` periods: tick = period / M, M = 2^k the largest with every
 * time below 2^61 ticks.  EINPUT only if not even M = 1 fits. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_scale_round(sched_scale_t *sc, const mpq_t period,
                                                           const mpq_t busy,
                                                           unsigned long long events,
                                                           unsigned long long periods,
                                                           ssched_error_t *err);
/* Q := lcm(Q, the denominator of edge e's latency): an exact scale admits
 * l(e) (0 today; the latency work adds it to durations). */
SSCHED_INTERNAL void ssched_i_sched_lcm_latency(const ssched_platform_t *p, size_t e, mpz_t Q);
/* q += count * l(e): the latencies a time bound must count (the largest
 * time of a replay is at most the sum of every event's latency and
 * duration, so the scale's 62-bit check counts them too). */
SSCHED_INTERNAL void ssched_i_sched_add_latency(const ssched_platform_t *p, size_t e,
                                                unsigned long count, mpq_t q);
/* The exact scale of Q ticks per time unit: tick = 1/Q, q = Q. */
SSCHED_INTERNAL void ssched_i_sched_scale_exact(sched_scale_t *sc);
/* The engine's period in ticks (period / tick). */
SSCHED_INTERNAL void ssched_i_sched_period_ticks(const sched_scale_t *sc, const mpq_t period,
                                                 mpq_t out);
/* The exact duration of an event (w of its node, or l + length * size * c
 * of its edge). */
SSCHED_INTERNAL void ssched_i_sched_exact_dur(const ssched_platform_t *p,
                                              const ssched_problem_t *pb,
                                              const sched_scale_t *sc, const sched_event_t *ev,
                                              mpq_t out);
/* Units of an exact amount (amount * A, an integer by construction). */
SSCHED_INTERNAL int64_t ssched_i_sched_units(const sched_scale_t *sc, const mpq_t amount);
SSCHED_INTERNAL void ssched_i_sched_ticks_to_q(const sched_scale_t *sc, int64_t ticks, mpq_t out);

/* Emit a transfer of `len` units of (type, op) from offset `off`, starting
 * no earlier than `ready` (its input there), left-shifted on both ports;
 * returns its end in *end. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_emit_transfer(
        sched_engine_t *e, size_t edge, size_t type, size_t op, int64_t off, int64_t len,
        int64_t ready, int64_t *end, ssched_error_t *err);
/* The same for a transfer of known duration and piece (scatter, gossip);
 * bamt: its length in buffer units (e->buf.bu for a whole message). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_emit_piece(sched_engine_t *e, size_t edge,
                                                          size_t type, size_t op,
                                                          int64_t dur, mpq_srcptr off,
                                                          mpq_srcptr len, const char *json,
                                                          int64_t bamt, int64_t ready, int64_t *end,
                                                          ssched_error_t *err);
/* Shared-rate groups (docs/model.md, "Shared rates"; unroll_shared.c):
 * whole transfers deferred within a period, then placed alone or as
 * groups of g equal transfers taking 1/g of one SHARED link each, their
 * bandwidth phases together.  av: where the transfer's end goes. */
typedef struct {
    size_t edge, type, op;
    int64_t ready;
    int64_t *av;
} sched_defer_t;
typedef struct {
    sched_defer_t *d;
    unsigned char *done;
    size_t n, cap;
} sched_deferred_t;
/* 0 on ENOMEM */
SSCHED_INTERNAL int ssched_i_sched_defer(sched_deferred_t *q, size_t edge, size_t type, size_t op,
                                         int64_t ready, int64_t *av);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_place_deferred(sched_engine_t *e,
                                                              sched_deferred_t *q,
                                                              ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_sched_deferred_free(sched_deferred_t *q);
/* The events of a group whose members' bandwidth phases are [ph, ph + dur)
 * in ticks (each starts its latency earlier, by lat_hi ticks on a
 * rounded scale, where its exact start is t - l(e), t = ph ticks: the
 * driver's exact sink; the links' profiles are the caller's); each
 * member's end goes to its av. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_emit_group(sched_engine_t *e,
                                                          const sched_defer_t *const *m, size_t g,
                                                          size_t link, int64_t ph, int64_t dur,
                                                          ssched_error_t *err);
/* unroll_shared_w.c: place the group m[0..g) of unequal latencies on
 * SHARED link L at latency-weighted max-min rates: 1 placed, 0 not
 * possible (placed alone then), -1 error (err set). */
SSCHED_INTERNAL int ssched_i_sched_place_weighted(sched_engine_t *e,
                                                  const sched_defer_t *const *m, size_t g,
                                                  size_t L, ssched_error_t *err);
/* Free e->gx. */
SSCHED_INTERNAL void ssched_i_sched_gx_free(sched_engine_t *e);
/* Planning: a routed reduce's pattern s (ranked est) replayed again with
 * shared-rate groups (unroll_order | 64); kept when strictly shorter
 * (est then lowered), else s is left as it was. */
SSCHED_INTERNAL void ssched_i_sched_plan_groups(const ssched_platform_t *p,
                                                const ssched_problem_t *pb, ssched_schedule_t *s,
                                                size_t K, mpq_t est);
/* unroll_engine.c: a placed event to the sink's queue. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_push_event(sched_engine_t *e, sched_event_t *ev,
                                                          ssched_error_t *err);
/* The edges' latencies in ticks (e->lat_ticks, e->lat_hi), once. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_lat_ready(sched_engine_t *e, ssched_error_t *err);
/* unroll_links.c: the earliest p' >= p at which [p', p' + len) takes w[k]
 * more of each SHARED link links[k]; taking them. */
SSCHED_INTERNAL int64_t ssched_i_sched_links_earliest_set(const sched_engine_t *e,
                                                          const size_t *links, const int64_t *w,
                                                          size_t n, int64_t p, int64_t len);
SSCHED_INTERNAL int ssched_i_sched_links_add_set(sched_engine_t *e, const size_t *links,
                                                 const int64_t *w, size_t n, int64_t lo,
                                                 int64_t hi);
/* unroll_shared.c: a group's bandwidth phase [*at, *at + dur): the
 * earliest instant, no sooner than every member's ready time (and the
 * release) plus its latency, at which each SHARED link links[j] has w[j]
 * more room; reserved there.  1 placed, -1 error (err set). */
SSCHED_INTERNAL int ssched_i_sched_group_reserve(sched_engine_t *e,
                                                 const sched_defer_t *const *m, size_t g,
                                                 const size_t *links, const int64_t *w, size_t n,
                                                 int64_t dur, int64_t *at, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_emit_computation(
        sched_engine_t *e, const ssched_tree_task_t *x, size_t op, int64_t ready,
        int64_t *end, ssched_error_t *err);

/* The two replay loops. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_replay_flow(sched_engine_t *e,
                                                           const ssched_problem_t *pb,
                                                           size_t K, size_t *periods,
                                                           ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_replay_reduce(
        sched_engine_t *e, const ssched_problem_t *pb, size_t K, size_t *periods,
        ssched_error_t *err);
/* Broadcast: whole messages down the arborescences (unroll_broadcast.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_replay_broadcast(
        sched_engine_t *e, const ssched_problem_t *pb, size_t K, size_t *periods,
        ssched_error_t *err);
/* The reduce and broadcast replays in steps, so an all-reduce runs both
 * on one engine (unroll_allreduce.c).  begin allocates the state (*out;
 * NULL on error) and sets nothing on the engine but, for a broadcast of
 * its own (own_scale), the time scale; a step generates one period's
 * events (the caller sets the release time before and flushes after). */
typedef struct sched_reduce_replay sched_reduce_replay_t;
typedef struct sched_bcast_replay sched_bcast_replay_t;
SSCHED_INTERNAL ssched_status_t ssched_i_sched_reduce_begin(sched_engine_t *e,
                                                            const ssched_problem_t *pb,
                                                            size_t K,
                                                            sched_reduce_replay_t **out,
                                                            ssched_error_t *err);
/* Periods a batch spans after its first: the trees' deepest level. */
SSCHED_INTERNAL size_t ssched_i_sched_reduce_depth(const sched_reduce_replay_t *r);
/* Batches: ceil(K / operations per period). */
SSCHED_INTERNAL size_t ssched_i_sched_reduce_batches(const sched_reduce_replay_t *r);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_reduce_step(sched_engine_t *e,
                                                           sched_reduce_replay_t *r, size_t period,
                                                           ssched_error_t *err);
/* When the complete result of op is at the target (valid from the period
 * after its batch's last level until depth + 1 periods later). */
SSCHED_INTERNAL int64_t ssched_i_sched_reduce_result(const sched_reduce_replay_t *r,
                                                     size_t op);
SSCHED_INTERNAL void ssched_i_sched_reduce_end(sched_reduce_replay_t *r);
/* The slot transfers of `type` (an all-reduce's copies) are handed to
 * hook as the step meets them, so another part's events interleave with
 * the reduce's in the pattern's slot order. */
SSCHED_INTERNAL void ssched_i_sched_reduce_hook(sched_reduce_replay_t *r, size_t type,
                       ssched_status_t (*hook)(sched_engine_t *e, void *ctx,
                                               const ssched_transfer_t *tr, ssched_error_t *err),
                       void *ctx);
/* Broadcast from root: own_scale (a broadcast problem) sets the engine's
 * scale from the arborescences; else (all-reduce) the engine's scale is
 * used, a whole message lasting A units.  Transfers get type `type`; op's
 * message is at the root from ready(ctx, op) (NULL: time 0), asked when
 * its batch starts. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_bcast_begin(sched_engine_t *e,
                                                           const ssched_problem_t *pb, size_t root,
                                                           size_t type, int own_scale,
                                                           size_t K,
                                                           int64_t (*ready)(void *ctx, size_t op),
                                                           void *ctx, sched_bcast_replay_t **out,
                                                           ssched_error_t *err);
/* Arcs deep: periods a batch spans. */
SSCHED_INTERNAL size_t ssched_i_sched_bcast_depth(const sched_bcast_replay_t *r);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_bcast_step(sched_engine_t *e,
                                                          sched_bcast_replay_t *r, size_t b,
                                                          ssched_error_t *err);
/* The same step in the pattern's slot order (all-reduce): prepare the
 * period's copies, then per slot transfer of a copy over `edge` the copies
 * starting within its amount (whole messages, each at the slot where it
 * would begin), then finish (the copies left, buffer marks). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_bcast_prepare(
        sched_engine_t *e, sched_bcast_replay_t *r, size_t b, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_bcast_slot(sched_engine_t *e,
                                                          sched_bcast_replay_t *r, size_t edge,
                                                          const mpq_t amount, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_bcast_finish(sched_engine_t *e,
                                                            sched_bcast_replay_t *r,
                                                            ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_sched_bcast_end(sched_bcast_replay_t *r);
/* All-reduce: the reduce to the root, then the broadcast of each result
 * (unroll_allreduce.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_replay_allreduce(
        sched_engine_t *e, const ssched_problem_t *pb, size_t K, size_t *periods,
        ssched_error_t *err);
/* A short all-reduce (or broadcast, multicast) pattern of n operations
 * per period: trees and arborescences apportioned by rate, the period the
 * busiest resource's time (unroll_allreduce_plan.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_allreduce_pattern(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        size_t n, ssched_schedule_t *out, ssched_error_t *err);
/* Reduce and all-reduce schedules share the reduce's scale, types and
 * computations. */
static inline int sched_reduce_like(const ssched_schedule_t *s)
{
    return s->kind == SSCHED_PROBLEM_REDUCE || s->kind == SSCHED_PROBLEM_ALLREDUCE;
}
/* Upper bounds used by the limits: periods replayed, events per period. */
SSCHED_INTERNAL unsigned long long ssched_i_sched_replay_periods(
        const ssched_platform_t *p, const ssched_schedule_t *s, size_t K);

/* Batches (unroll_batch.c): s->unroll_batch = n > 1 unrolls ceil(K/n)
 * operations of n times the size (n times w), each event of operation b
 * becoming a transfer of operations bn .. bn+n-1 (fewer for the last) or
 * their n computations one after the other. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_unroll_batched(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_schedule_t *s,
        size_t K, const ssched_unroll_limits_t *limits, sched_sink_t *sink,
        ssched_unroll_figures_t *fig, ssched_error_t *err);
/* The batch (and, scatter and gossip, whole messages or pieces) of the
 * least exact makespan for K on the pattern s, when some edge has a
 * latency: sets s->unroll_batch (and s->unroll_whole). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_choose_batch(const ssched_platform_t *p,
                                                            const ssched_problem_t *pb,
                                                            ssched_schedule_t *s, size_t K,
                                                            int no_split, ssched_error_t *err);

/* The exact makespan for K of s as it is set (batch, pieces): a replay
 * with no output; 0 if it cannot be replayed within 2*10^6 events. */
SSCHED_INTERNAL int ssched_i_sched_exact_makespan(const ssched_platform_t *p,
                                                  const ssched_problem_t *pb,
                                                  const ssched_schedule_t *s, size_t K,
                                                  mpq_t out);
/* Shortest routes from src by l(e) + size c(e) (unroll_direct_routes.c):
 * par[v] = the edge into v on one, SIZE_MAX for src and unreachable nodes;
 * routed platforms: the overlay edge src -> v when there is one.  0 on
 * ENOMEM.  route: the edges src -> dst in order into path (room for
 * n_nodes), their count, SIZE_MAX if dst is unreachable. */
SSCHED_INTERNAL int ssched_i_sched_direct_routes(const ssched_platform_t *p, mpq_srcptr size,
                                                 size_t src, size_t *par);
SSCHED_INTERNAL size_t ssched_i_sched_direct_route(const ssched_platform_t *p, const size_t *par,
                                                   size_t src, size_t dst, size_t *path);
/* The direct (one-level) pattern of one operation per period
 * (unroll_direct.c): scatter, gossip: each message on its shortest route;
 * broadcast: the source's shortest-route arborescence; ordered reduce:
 * every value to the target, merged there in order; all-reduce: both.
 * out->optimal_throughput is the certified TP; unroll_direct is set.
 * EINPUT when the problem has none (one participant, a target that cannot
 * merge, an unreachable node). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_direct_pattern(const ssched_platform_t *p,
                                                              const ssched_problem_t *pb,
                                                              const ssched_steady_t *steady,
                                                              int no_split,
                                                              ssched_schedule_t *out,
                                                              ssched_error_t *err);
/* The direct pattern with its own batch and pieces replaces *out (the LP
 * pattern, batch chosen) when forced, or when its exact makespan for K is
 * strictly less.  Not forced, a direct pattern that cannot be built (or is
 * longer than max_period) is no candidate: SSCHED_OK, *out unchanged. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_direct_choose(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *steady,
        size_t K, mpq_srcptr max_period, int no_split, int forced, ssched_schedule_t *out,
        ssched_error_t *err);

/* A broadcast, all-reduce or reduce pattern built at the solution's LCM
 * period, made the shortest with the same rates: its counts, slots and
 * period divided by the gcd of the counts (unroll_shortest.c). */
SSCHED_INTERNAL void ssched_i_sched_shortest_pattern(ssched_schedule_t *s);

/* Routed platforms: one arborescence rooted at root reaching the targets
 * (root itself skipped) whose own per-operation load is small, found by a
 * local search (unroll_pack_arb.c); blocking: loads that count a copy's
 * whole time on a link it cannot share with another arc's copy; weight =
 * st->throughput.  EINPUT when
 * there is none (or the platform is not routed). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_best_arborescence(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        size_t root, const size_t *targets, size_t n_targets, int blocking,
        ssched_arborescence_t *out, ssched_error_t *err);

/* Whole counts c[0..m) (sum n) of m items using use[t * nr + i] of
 * resource i, with base loads (NULL: none), whose busiest resource is
 * least busy: a branch and bound within a node budget from the caller's
 * counts (kept unless strictly improved), stopping at n / tp
 * (unroll_pack_counts.c).  0 on ENOMEM (c unchanged). */
SSCHED_INTERNAL int ssched_i_sched_best_counts(size_t m, size_t nr, const mpq_t *use,
                                               const mpq_t *base, size_t n, mpq_srcptr tp,
                                               size_t *c);

/* Search state of the spread reduce patterns (unroll_pack_reduce*.c):
 * loads per resource (as ssched_i_sched_tree_usage counts them), in
 * double: they only guide a search whose result is recounted exactly. */
typedef struct {
    const ssched_platform_t *p;
    size_t n, nr;
    size_t *edge;            /* n x n: the edge a -> b (SIZE_MAX: none) */
    size_t **ures;           /* per edge (lazy): its resources          */
    double **uval;
    size_t *nu;
    mpq_t *scratch;          /* nr, zero                                */
    double *load;
    mpq_srcptr size;
} sched_pk_t;

typedef struct {
    size_t n, res[64];
    double add[64];
} sched_touch_t;

SSCHED_INTERNAL int ssched_i_sched_pk_edge_use(sched_pk_t *k, size_t e);
SSCHED_INTERNAL void ssched_i_sched_pk_touch(sched_touch_t *t, size_t r, double v);
SSCHED_INTERNAL int ssched_i_sched_pk_touch_edge(sched_pk_t *k, sched_touch_t *t, size_t a,
                                                 size_t b);
SSCHED_INTERNAL int ssched_i_sched_pk_reserve(sched_pk_t *k, size_t node, int out,
                                              sched_touch_t *r);
SSCHED_INTERNAL void ssched_i_sched_pk_add(sched_pk_t *k, const sched_touch_t *t, double f);
/* The busiest load touched after adding t, and the rise of the sum of
 * squared loads. */
SSCHED_INTERNAL void ssched_i_sched_pk_score(const sched_pk_t *k, const sched_touch_t *t,
                                             double *max, double *sq);
/* Score (x1, x2) beats the best (b1, b2) lexicographically, each level
 * with a relative tolerance of 1e-12 (float loads summed in other orders
 * must tie, so that the first candidate of equal score stays). */
static inline int ssched_i_sched_pk_lex_better(double x1, double x2, double b1, double b2)
{
    return x1 < b1 * (1 - 1e-12) || (x1 <= b1 * (1 + 1e-12) && x2 < b2 * (1 - 1e-12));
}
/* A chooser's step: when the candidate touching t scores better than the
 * best (*b1, *b2) so far (ssched_i_sched_pk_lex_better), it becomes the
 * best (its score in *b1, *b2, its touches in *best) and 1 is returned. */
static inline int ssched_i_sched_pk_keep_best(const sched_pk_t *k, const sched_touch_t *t,
                                              double *b1, double *b2, sched_touch_t *best)
{
    double s1, s2;
    ssched_i_sched_pk_score(k, t, &s1, &s2);
    if (!ssched_i_sched_pk_lex_better(s1, s2, *b1, *b2))
        return 0;
    *b1 = s1;
    *b2 = s2;
    *best = *t;
    return 1;
}
/* Growing an arborescence's copies (unroll_arb_grow.c): join the `left`
 * participants (part) not reached yet, each from a reached node that
 * forwards (participants only with free_fwd; the root only with root_fwd,
 * and directly only with free_fwd), directly or through one relay h not
 * reached (helper[h]; NULL: any non-participant); cap > 0: the latency
 * mode (estimated arrivals in ready/nfree, per node).  Arcs appended to
 * a->arcs (room for 2 per participant); 0 when a participant cannot be
 * joined. */
typedef struct {
    const unsigned char *helper;
    int free_fwd, root_fwd;
    double cap;
    double *ready, *nfree;
} sched_grow_t;
SSCHED_INTERNAL int ssched_i_sched_pk_grow_join(sched_pk_t *k, const sched_grow_t *g,
                                                unsigned char *reached, const unsigned char *part,
                                                size_t root, size_t left,
                                                ssched_arborescence_t *a);
/* The relay h (helper[h], not reached when reached != NULL) whose arc
 * from `from` (and, with fan, its arcs to every fan[v] node) keeps the
 * busiest touched load least busy, then the least sum of squares; its
 * touches in *best; SIZE_MAX when none has the routes. */
SSCHED_INTERNAL size_t ssched_i_sched_pk_best_relay(sched_pk_t *k, const unsigned char *helper,
                                                    const unsigned char *reached, size_t from,
                                                    const unsigned char *fan, sched_touch_t *best);
/* A whole message's time over a -> b, latency included (double). */
SSCHED_INTERNAL double ssched_i_sched_grow_msg_time(const sched_pk_t *k, size_t a, size_t b);
/* Sort an arborescence's arcs by head node. */
SSCHED_INTERNAL void ssched_i_sched_arcs_by_head(const ssched_platform_t *p,
                                                 ssched_arborescence_t *a);
SSCHED_INTERNAL int ssched_i_sched_pk_grow_arb(sched_pk_t *k, const ssched_problem_t *pb,
                                               size_t root, int free_fwd,
                                               ssched_arborescence_t *a);
/* Routed ordered reduce and all-reduce: a pattern of n operations whose n
 * trees are grown for it on shared loads, merges spread over every host
 * that computes (unroll_pack_reduce.c); flags bit 0: tournament trees
 * (pairs of least level first); bit 1 (all-reduce): the broadcast part's
 * arborescences grown with the trees, one per operation, instead of the
 * solution's apportioned; bit 2 (with bit 1): participants may forward
 * copies; bit 3: every tree ripped up and regrown on the others' loads
 * (a few passes, kept when the busiest load or the sum of squares drops);
 * bits 4, 5 (reduce): the target keeps its value for the last merge, ties
 * to the shallower; bit 6 (reduce): only the merges of the balanced
 * binary tree over the values (the least depth).  out->optimal_throughput is the certified TP.
 * EINPUT when there is none (not routed, commutative, no route). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_reduce_pack(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        size_t n, int flags, ssched_schedule_t *out, ssched_error_t *err);
/* Routed all-reduce: a pattern of n operations, each the participants'
 * values gathered in `groups` groups of consecutive ones on helpers that
 * merge them, the result passed through the root, and an arborescence
 * grown from the root (unroll_ar_gather.c; flags bit 0: participants
 * forward copies; bit 1: the arborescence's copies placed by their
 * estimated arrival while the loads stay within n / TP).  EINPUT when
 * there is none. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_ar_gather(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        size_t n, size_t groups, int flags, ssched_schedule_t *out, ssched_error_t *err);
/* Candidate ranking shared by unroll_plan.c and unroll_plan_routed.c: a
 * built pattern cand (unroll_whole set) that can be walked, fits
 * max_period and 62-bit ticks replaces *out when its time for K (exact
 * replay, or extrapolated) beats *best.  ENOMEM only is an error. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_plan_consider(
        const ssched_platform_t *p, const ssched_problem_t *pb, size_t K, mpq_srcptr max_period,
        ssched_schedule_t *cand, ssched_schedule_t *out, mpq_t best, mpq_t est, int *have,
        ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_sched_plan_choose_whole(const ssched_platform_t *p,
                                                      const ssched_problem_t *pb,
                                                      ssched_schedule_t *s, size_t K);
SSCHED_INTERNAL void ssched_i_sched_plan_rank(const ssched_platform_t *p,
                                              const ssched_problem_t *pb,
                                              const ssched_schedule_t *s, size_t K, mpq_t out);
/* Routed reduce, all-reduce: the replay order of s (unroll_order) whose
 * exact rank for K is least, est its rank in slot order on entry and the
 * chosen one's on return; best (or NULL) the best candidate's so far. */
SSCHED_INTERNAL void ssched_i_sched_plan_choose_order(const ssched_platform_t *p,
                                                      const ssched_problem_t *pb,
                                                      ssched_schedule_t *s, size_t K,
                                                      mpq_srcptr best, mpq_t est);
/* The routed candidates of the planner (unroll_plan_routed.c): single
 * arborescences (broadcast, all-reduce), relay routes (scatter, gossip),
 * spread reduce trees (ordered reduce, all-reduce). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_plan_routed(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *steady,
        size_t K, mpq_srcptr max_period, int no_split, ssched_schedule_t *cand,
        ssched_schedule_t *out, mpq_t best, mpq_t est, int *have, ssched_error_t *err);
/* Reduce: the tight periods of n = 1, 2, 3, ... 256 tree instances
 * apportioned by rate (routed: whole counts by branch and bound), up to
 * cap into tf[]; their number (unroll_pack_counts.c). */
SSCHED_INTERNAL size_t ssched_i_sched_apportioned_periods(const ssched_platform_t *p,
                                                          const ssched_problem_t *pb,
                                                          const ssched_steady_t *steady,
                                                          mpq_t *tf, size_t cap);
/* Routed scatter, gossip: per commodity of st, relay[t] = a relay host
 * for its message (SIZE_MAX: direct) whose blocking loads beat the direct
 * routes' (unroll_pack_routes.c); 1 iff some relay was chosen. */
SSCHED_INTERNAL int ssched_i_sched_relay_routes(const ssched_platform_t *p,
                                                const ssched_problem_t *pb,
                                                const ssched_steady_t *st, size_t *relay);
/* Those routes as a pattern of one operation per period (the routes'
 * exact fluid busiest-resource time; longer than max_period: none) into
 * cand: SSCHED_OK, SSCHED_EINPUT when there is none, SSCHED_ENOMEM. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_relay_pattern(const ssched_platform_t *p,
                                                             const ssched_problem_t *pb,
                                                             const ssched_steady_t *steady,
                                                             mpq_srcptr max_period,
                                                             ssched_schedule_t *cand);

/* Events written for K operations (a bound: each slot transfer's ceiling
 * per period, the tasks). */
SSCHED_INTERNAL unsigned long long ssched_i_sched_estimate_events(const ssched_schedule_t *s,
                                                                  size_t K);

/* SHARED link profiles (unroll_links.c).  init: the weights, 0 on ENOMEM;
 * earliest: the least p' >= p at which a bandwidth phase of len ticks over
 * edge fits every SHARED link of its route; add: take [lo, hi) (0 on
 * ENOMEM); prune: forget what ends by mark (no later phase starts before). */
SSCHED_INTERNAL int ssched_i_sched_links_init(sched_engine_t *e);
SSCHED_INTERNAL void ssched_i_sched_links_free(sched_engine_t *e);
SSCHED_INTERNAL int64_t ssched_i_sched_links_earliest(const sched_engine_t *e, size_t edge,
                                                      int64_t p, int64_t len);
SSCHED_INTERNAL int ssched_i_sched_links_add(sched_engine_t *e, size_t edge, int64_t lo,
                                             int64_t hi);
SSCHED_INTERNAL void ssched_i_sched_links_prune(sched_engine_t *e, int64_t mark);
/* Processor profiles (e->cpuprof, unroll_links.c): the least p' >= p at
 * which a task of len ticks fits node's idle time; take [lo, hi) (0 on
 * ENOMEM). */
SSCHED_INTERNAL int64_t ssched_i_sched_cpu_earliest(const sched_engine_t *e, size_t node,
                                                    int64_t p, int64_t len);
SSCHED_INTERNAL int ssched_i_sched_cpu_add(sched_engine_t *e, size_t node, int64_t lo,
                                           int64_t hi);

/* 1 iff routed edge e's route crosses a SHARED link. */
SSCHED_INTERNAL int ssched_i_sched_route_shared(const ssched_platform_t *p, size_t e);

/* Run the engine on s for K operations into sink; fills fig. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_unroll_run(const ssched_platform_t *p,
                                                          const ssched_problem_t *pb,
                                                          const ssched_schedule_t *s,
                                                          size_t K,
                                                          const ssched_unroll_limits_t *limits,
                                                          sched_sink_t *sink,
                                                          ssched_unroll_figures_t *fig,
                                                          ssched_error_t *err);

/* Buffer needs (unroll_buffer.c); each returns 0 on allocation failure. */
SSCHED_INTERNAL int ssched_i_sched_buffers_init(sched_buffers_t *b, const ssched_platform_t *p,
                       const ssched_problem_t *pb, const ssched_schedule_t *s);
SSCHED_INTERNAL void ssched_i_sched_buffers_free(sched_buffers_t *b, size_t nn);
/* Exact amounts for pieces of these lengths (messages): wbu = the LCM of
 * their denominators, wamt[k] = lens[k] * wbu; 0 on allocation failure. */
SSCHED_INTERNAL int ssched_i_sched_buffers_wide(sched_buffers_t *b, size_t nn, const mpq_t *lens,
                                               size_t n);
/* Account one event, in start order. */
SSCHED_INTERNAL int ssched_i_sched_buffers_event(sched_engine_t *e, const sched_event_t *ev);
/* buffer_peak and buffer_node of fig (pending releases applied first). */
SSCHED_INTERNAL int ssched_i_sched_buffers_result(sched_buffers_t *b, size_t nn,
                                                  ssched_unroll_figures_t *fig);

/* RR-4872 section 4.6's greedy fill: `rest` more instances, each of the
 * item (of m; use: m x nr resource loads per instance) whose addition
 * keeps the busiest of the nr loads least, into c[] and load[]
 * (unroll_allreduce_plan.c). */
SSCHED_INTERNAL void ssched_i_sched_fill_rest(size_t m, size_t nr, const mpq_t *use, size_t rest,
                                              size_t *c, mpq_t *load);

#endif
