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
 * re-verifies every property design.md lists. */
#ifndef SSCHED_SCHEDULE_H
#define SSCHED_SCHEDULE_H

#include <gmp.h>
#include <stddef.h>
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

/* `amount` messages of type `type` over platform edge `edge`; the type is a
 * commodity (scatter, gossip) or an interval v[k,m] (reduce). */
typedef struct {
    size_t edge, type;
    mpq_t amount;
} ssched_transfer_t;

/* `count` tasks T_{k,l,m} on `node` per period (reduce). */
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
    mpq_t throughput;          /* = ops_per_period / period                 */
    mpq_t size;                /* message size (a transfer takes amount*size*c) */
    mpq_t period;              /* T (times L with no_split), or TF          */
    mpz_t ops_per_period;      /* operations completed per period           */
    mpz_t lcm_period;          /* T before the no-split scaling             */
    mpz_t nosplit_factor;      /* L (1 in the split variant)                */
    int split;                 /* 0: every amount is an integer             */
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
    mpq_srcptr fixed_period;        /* reduce: period TF > 0, or NULL      */
} ssched_schedule_options_t;

void ssched_schedule_options_default(ssched_schedule_options_t *opt);
void ssched_schedule_init(ssched_schedule_t *s);
void ssched_schedule_free(ssched_schedule_t *s);

/* Build one period of a schedule reaching exactly steady->throughput.
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
/* Unrolled finite schedule for K operations (RR-4872 §3.4): the periodic
 * pattern repeated, where a node forwards only messages that reached it in
 * an earlier period (initialization fills the buffers; in the clean-up the
 * source has stopped and the buffers drain).  Every message is a whole
 * message with an identity (type, operation index). */

typedef struct {
    mpq_t start, end;
    size_t edge, type;
    unsigned long op;          /* operation index, 0 .. K-1                 */
} ssched_timed_transfer_t;

/* Reduce: task T_{k,l,m} of operation `op` computed on `node`. */
typedef struct {
    mpq_t start, end;
    size_t node, k, l, m;
    unsigned long op;
} ssched_timed_computation_t;

typedef struct {
    unsigned long operations;  /* K                                         */
    size_t n_transfers, cap;
    ssched_timed_transfer_t *transfers;  /* sorted by start time            */
    size_t n_computations, comp_cap;     /* reduce                          */
    ssched_timed_computation_t *computations;
    mpq_t makespan;            /* time the last message arrives             */
    mpq_t steady_time;         /* K / TP, the asymptotic lower bound        */
    mpq_t overhead;            /* makespan - K / TP                         */
    size_t periods;            /* periods simulated                         */
    size_t init_periods;       /* periods before the first full period      */
} ssched_unrolled_t;

void ssched_unrolled_init(ssched_unrolled_t *u);
void ssched_unrolled_free(ssched_unrolled_t *u);

/* Unroll a no-split periodic schedule for K >= 1 operations.  EINPUT if the
 * schedule has fractional amounts or K == 0.
 * Reduce: operation t (time-stamp t) is reduced by one instance of one tree;
 * the instances of period b's batch run their task of level L (leaf-side
 * tasks have level 0, a task's level exceeds its inputs') in period b + L,
 * so every value of time-stamp t is sent or merged only after it exists,
 * and the overhead is at most (max level + 1) periods.
 * Both kinds are then left-shifted: each event starts as soon as its port,
 * processor and input allow, keeping every port's and processor's order
 * (never later than before, so still valid; start-up and clean-up shrink). */
ssched_status_t ssched_unroll(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, unsigned long K,
                              ssched_unrolled_t *out, ssched_error_t *err);

/* ---------------------------------------------------------------------- */
/* Export. */

/* "ssched-schedule/1" JSON (design.md), or "ssched-unrolled/1" for an
 * unrolled schedule.  malloc'ed text; NULL on ENOMEM. */
char *ssched_schedule_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_schedule_t *s);
char *ssched_unrolled_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_schedule_t *s, const ssched_unrolled_t *u);

/* A readable table of one period (one line per slot, as RR-4872 Fig. 4). */
void ssched_schedule_write_table(const ssched_platform_t *p, const ssched_schedule_t *s,
                                 FILE *out);
/* Gantt chart of one period as SVG: one row per port (out and in). */
ssched_status_t ssched_schedule_write_gantt(const ssched_platform_t *p,
                                            const ssched_schedule_t *s, FILE *out,
                                            ssched_error_t *err);
/* The platform with the per-period message counts on the edges (Graphviz). */
ssched_status_t ssched_schedule_write_dot(const ssched_platform_t *p,
                                          const ssched_schedule_t *s, FILE *out,
                                          ssched_error_t *err);

/* ---------------------------------------------------------------------- */
/* Independent checker. */

typedef struct {
    int valid;                       /* 1 if every property holds          */
    char violation[SSCHED_ERROR_MSG_MAX]; /* the first violation, plainly  */
    int unrolled;                    /* the file was an unrolled schedule  */
    size_t n_slots, n_transfers;
} ssched_check_report_t;

/* Check a schedule given as JSON text (either format).  Returns SSCHED_OK
 * when the text could be checked (then report->valid says whether it is a
 * valid schedule), SSCHED_EINPUT if it is not a well-formed schedule file
 * (unparsable JSON, missing or mistyped fields, unknown nodes or edges). */
ssched_status_t ssched_check_schedule_text(const char *json_text,
                                           ssched_check_report_t *report,
                                           ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
