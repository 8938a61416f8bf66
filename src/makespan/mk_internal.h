/* Private helpers shared by the src/makespan sources (not installed). */
#ifndef SSCHED_MK_INTERNAL_H
#define SSCHED_MK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "ssched/makespan.h"
#include "src/util/internal.h"

/* "Infinity" for tick arithmetic; every finite value stays far below it
 * (ssched_i_mk_classes_build guarantees tick * 4(n+2) < 2^62). */
#define MK_INF INT64_MAX

/* Time classes: the distinct transmission times of a cluster, ascending,
 * scaled to integers ("ticks") by the LCM of their denominators.  The
 * searches work on classes because processors of equal time are
 * interchangeable; results are converted back and re-timed exactly. */
typedef struct {
    size_t n;           /* processors                                         */
    size_t root;        /* destination / source (not counted in count[])      */
    size_t k;           /* number of classes                                  */
    int64_t *tick;      /* tick[i]: time of class i in ticks, strictly ascending */
    size_t *count;      /* non-root processors of class i                     */
    size_t *first;      /* member[first[i] .. first[i]+count[i]) are class i  */
    size_t *member;     /* the n-1 non-root processors grouped by class       */
    size_t *cls;        /* class of each processor; SIZE_MAX for an excluded root */
    size_t *input_rank; /* class order of first appearance in the input       */
    mpz_t scale;        /* time = ticks / scale                               */
} mk_classes_t;

/* Validate the cluster and root, then build the classes of the non-root
 * processors (plus the root's own time when with_root_time, as broadcasts
 * need it).  SSCHED_EINPUT when the scaled times do not fit the tick bound.
 * On success the caller owns *k and frees it with ssched_i_mk_classes_free. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_classes_build(const ssched_mk_cluster_t *c, size_t root,
                                                          int with_root_time, const char *role,
                                                          mk_classes_t *k, ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_mk_classes_free(mk_classes_t *k);

/* out = ticks / scale. */
SSCHED_INTERNAL void ssched_i_mk_ticks_to_mpq(mpq_t out, int64_t ticks, const mpz_t scale);
/* 1 iff q == ticks / scale. */
SSCHED_INTERNAL int ssched_i_mk_mpq_equals_ticks(const mpq_t q, int64_t ticks, const mpz_t scale);

/* Reset stats (may be NULL) to zero with the given method name. */
SSCHED_INTERNAL void ssched_i_mk_stats_reset(ssched_mk_stats_t *stats, const char *method);

/* Sort the messages of s by start time, keeping the current order on ties. */
SSCHED_INTERNAL void ssched_i_mk_sort_messages(ssched_mk_schedule_t *s);

/* Build a reduce schedule from a reduction tree (seed 000 §3.1, §5.3.1).
 * Node v (0 <= v < m = n-1) is the transmission of processor sender[v]; it
 * waits for its children kid0[v], kid1[v] (-1 when absent), every child has a
 * smaller index than its parent and node m-1 is the root (the last
 * transmission, which goes to dest).  start (may be NULL) gives the start
 * times, else each node starts as soon as its children have ended.
 * Receivers follow Lemma 1: the root sends to dest and the children of a
 * node with sender s and receiver r send to s and to r respectively.
 * Fills out (already initialised) with op = SSCHED_MK_REDUCE. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_reduce_from_tree(
        const ssched_mk_cluster_t *c, size_t dest, size_t m, const size_t *sender,
        const long *kid0, const long *kid1, mpq_t *start, ssched_mk_schedule_t *out,
        ssched_error_t *err);

/* Map a sequence of classes to processors: the j-th occurrence of class i
 * becomes member j of class i.  out has as many entries as seq. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_classes_to_order(
        const mk_classes_t *k, const size_t *seq, size_t len, size_t *out, ssched_error_t *err);

/* The scan properties of ssched_mk_check (scan_check.c): every message's
 * interval is within 0..n-1 and formable by its sender at its start, every
 * processor can form its prefix in the end; a failure is EINPUT in err. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_check_scan(const ssched_mk_cluster_t *c,
                                                       const ssched_mk_schedule_t *s,
                                                       ssched_error_t *err);

/* Record SSCHED_ENOMEM ("out of memory") in err and return it. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_nomem(ssched_error_t *err);

/* Estimated work (pair evaluations) of the class-count programs, saturating
 * at UINT64_MAX; used to choose between them and branch-and-bound. */
SSCHED_INTERNAL uint64_t ssched_i_mk_dpk_reduce_work(const mk_classes_t *k);
SSCHED_INTERNAL uint64_t ssched_i_mk_dpk_broadcast_work(const mk_classes_t *k);

/* Bytes the branch-and-bound searches allocate for n processors (their
 * per-depth state stacks grow as n^2), for up-front memory estimates. */
SSCHED_INTERNAL long double ssched_i_mk_bnb_reduce_bytes(size_t n);
SSCHED_INTERNAL long double ssched_i_mk_bnb_broadcast_bytes(size_t n);

/* A binary min-heap of item indices ordered by a caller's comparison (the
 * keys are exact rationals kept by the caller).  Capacity fixed at init. */
typedef struct {
    size_t *item;
    size_t len, cap;
    int (*less)(const void *ctx, size_t a, size_t b);
    const void *ctx;
} mk_heap_t;

SSCHED_INTERNAL ssched_status_t ssched_i_mk_heap_init(mk_heap_t *h, size_t cap,
                             int (*less)(const void *ctx, size_t a, size_t b), const void *ctx,
                             ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_mk_heap_free(mk_heap_t *h);
SSCHED_INTERNAL void ssched_i_mk_heap_push(mk_heap_t *h, size_t x); /* precondition: len < cap */
SSCHED_INTERNAL size_t ssched_i_mk_heap_pop(mk_heap_t *h);          /* precondition: len > 0   */

/* Stable sort of idx[0..n) by cmp (negative, zero, positive). */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_sort_indices(size_t *idx, size_t n,
                                int (*cmp)(const void *ctx, size_t a, size_t b), const void *ctx,
                                ssched_error_t *err);
/* Every processor of c but skip, stably sorted by cmp (ctx: c), into
 * *order (n - 1 of them, malloc'ed; NULL on failure). */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_others_sorted(const ssched_mk_cluster_t *c,
                                size_t skip, int (*cmp)(const void *ctx, size_t a, size_t b),
                                size_t **order, ssched_error_t *err);

/* ---- mirrored.c: what the reduce and broadcast searches share ---- */

/* Check that order lists every processor except root exactly once; the
 * messages read "<what> order position i: <root_name> r does not <verb>"
 * and the like (EP: "sender", "the destination", "send"). */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_check_order(const ssched_mk_cluster_t *c, size_t root,
                                                        const size_t *order, const char *what,
                                                        const char *root_name, const char *verb,
                                                        ssched_error_t *err);

/* Prologue of the class-based drivers: the classes of c around root (a
 * broadcast's source keeps its own time and is the "source", a reduce's
 * root is the "destination").  *done = 1 when the driver has nothing more
 * to do: on failure, or with no processor but the root (out is then the
 * empty schedule and the classes are already freed). */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_classes_begin(const ssched_mk_cluster_t *c, size_t root,
                                                          int broadcast, mk_classes_t *k,
                                                          ssched_mk_schedule_t *out, int *done,
                                                          ssched_error_t *err);

/* The EINPUT of a class-count program beyond its 2^23 table entries. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_dpk_too_big(const mk_classes_t *k, ssched_error_t *err);

/* min over x in [0, n] of max(L[x s], R[(n - x) s]) for L non-decreasing
 * and R non-increasing in x (seed 000 eq. (4) and the class-count
 * programs' split along their last coordinate): check the two ends (one
 * term dominating), else binary-search the crossover (Theorem 5); *pick the
 * x kept, the smaller on ties; *refs counts the pairs read. */
SSCHED_INTERNAL int64_t ssched_i_mk_crossover(const int64_t *L, const int64_t *R, size_t n,
                                              size_t s, size_t *pick, uint64_t *refs);
/* Next prefix a <= cr over coordinates 0..last-1 (an odometer) with *ia
 * its index under stride; 0 once every prefix was visited. */
SSCHED_INTERNAL int ssched_i_mk_odometer_next(size_t *a, const size_t *cr, const size_t *stride,
                                              size_t last, size_t *ia);

/* Bookkeeping of the branch-and-bound searches over class sequences
 * (bnb_reduce.c, bnb_broadcast.c): the remaining count of each class, the
 * order children are tried in, the current and best sequences and the
 * node counts. */
typedef struct {
    mk_classes_t classes;
    const mk_classes_t *k; /* &classes                                      */
    const ssched_mk_bnb_options_t *opt;
    ssched_mk_bnb_options_t dflt;
    int broadcast;
    size_t m;              /* sequence length: the processors but the root   */
    size_t *remain, *order, *seq, *best_seq, *procs; /* parts of one block */
    int64_t best;          /* best leaf value, MK_INF before any             */
    uint64_t nodes, leaves;
    int stopped;
} mk_bnb_t;

/* Reset stats, take the options (NULL: SSCHED_MK_BNB_FULL), build the
 * classes and the bookkeeping; children are tried fastest class first for
 * a broadcast, slowest first for a reduce (theory_order), else in input
 * order.  *done as for ssched_i_mk_classes_begin (also on ENOMEM: nothing
 * is left to free). */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_bnb_start(mk_bnb_t *b, const ssched_mk_cluster_t *c,
                                                      size_t root, int broadcast,
                                                      const ssched_mk_bnb_options_t *opt,
                                                      ssched_mk_schedule_t *out,
                                                      ssched_mk_stats_t *stats, int *done,
                                                      ssched_error_t *err);
/* Count a node; 0 (and stopped) once max_nodes is reached. */
SSCHED_INTERNAL int ssched_i_mk_bnb_visit(mk_bnb_t *b);
/* A complete sequence of value v: keep it if it beats the best. */
SSCHED_INTERNAL void ssched_i_mk_bnb_leaf(mk_bnb_t *b, int64_t v);
/* After the search: stats, then the best sequence mapped to processors and
 * re-timed exactly (EP, eq. (1)), or SNF/FNF when stopped before any leaf;
 * EUNCERTIFIED when stopped. */
SSCHED_INTERNAL ssched_status_t ssched_i_mk_bnb_finish(mk_bnb_t *b, const ssched_mk_cluster_t *c,
                                                       size_t root, ssched_mk_schedule_t *out,
                                                       ssched_mk_stats_t *stats,
                                                       ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_mk_bnb_free(mk_bnb_t *b);

#endif
