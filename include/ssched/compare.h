/* ssched/compare.h — one collective at a time (makespan) against a pipelined
 * series (steady state), on the same cluster.
 *
 * Cluster model of seeds 000/002: processor p sends a message to anyone in
 * t(p).  M operations done one after another with the one-shot schedule
 * (SNF/FNF or the exact optimum) take M * makespan.  The pipelined series
 * runs on the complete graph with c(i,j) = t(i): its throughput TP is the
 * certified optimum of ssched's LP, and its time for M operations is the
 * measured end of the unrolled schedule (initialization, steady state,
 * clean-up), every one passed through the independent checker.
 *
 * Differences between the two models, stated so results are read right:
 *  - ssched's one-port model lets a node send and receive at the same time
 *    (full duplex); the seeds allow one transfer per processor at a time;
 *  - merging is free in both (the seeds fold it into t(p)), so nodes get
 *    w = 0;
 *  - reduce: ssched's LP keeps the participants' order (non-commutative);
 *    the seeds' operators are commutative, so the pipelined TP shown is
 *    what the given order achieves;
 *  - broadcast: the pipelined side is ssched's broadcast (IPDPS 2004): any
 *    node holding the message may forward copies, TP is the certified
 *    optimal broadcast throughput (column generation over spanning
 *    arborescences, exact by Edmonds' branching theorem) and the unrolled
 *    schedule copies each message down one weighted arborescence;
 *  - scan (op SSCHED_MK_SCAN, issue 27): the one-shot side is the exact
 *    optimum of one scan (ssched_mk_scan_optimal, at most 6 processors) or
 *    the chain; the pipelined side plans no scan schedule, so its rows
 *    are M / UB with UB the certified upper bound on the scan throughput
 *    (ssched_steady_t's upper_bound, or its throughput while upper_bound is
 *    unset): a LOWER bound on the time of M pipelined scans, not a measured
 *    time, and no crossover is claimed.  Where the steady state also gives
 *    an achievable TP (upper_bound set, throughput achievable), it is
 *    reported beside it. */
#ifndef SSCHED_COMPARE_H
#define SSCHED_COMPARE_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"
#include "ssched/makespan.h"
#include "ssched/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    ssched_mk_op_t op;          /* SSCHED_MK_REDUCE, _BROADCAST or _SCAN     */
    size_t root;                /* reduce destination / broadcast source     */
    int optimal;                /* 0: SNF (reduce) / FNF (broadcast) / chain
                                   (scan)                                    */
    int exclusive;              /* scan: MPI_Exscan (v[0,j-1] at j)          */
    const size_t *ops;          /* the M values of the table (ascending)     */
    size_t n_ops;
    size_t crossover_limit;        /* largest M scanned for the crossover   */
    /* refused up front (SSCHED_ELIMIT, naming the estimate) beyond these;
     * 0: the defaults, M <= 10^5 and 4096 MB for the steady-state solve,
     * estimated as 64 bytes x n^2 edges x message types (n(n+1)/2
     * intervals for a reduce, n - 1 targets for a broadcast), the measured
     * growth of the exact solve on the complete graph */
    size_t max_ops;
    size_t max_memory;
    /* called before each pipelined time is computed (unrolled and checked
     * for M operations); NULL: none */
    void (*progress)(void *ctx, size_t M);
    void *progress_ctx;
} ssched_compare_options_t;

typedef struct {
    mpq_t one_shot;             /* makespan of one operation                  */
    mpq_t throughput;           /* certified pipelined TP                     */
    size_t n_rows;
    size_t *M;
    mpq_t *sequential;          /* M * one_shot                               */
    mpq_t *pipelined;           /* end of the unrolled schedule for M ops     */
    int pipelining_can_win;     /* 1 iff 1/TP < one_shot                      */
    int crossover_found;
    size_t crossover;           /* smallest M whose pipelined time is shorter */
    /* scan: pipelined[k] = M / upper_bound, a lower bound on the time
     * (pipelined_is_bound = 1); achievable_known = 1 when `throughput` is
     * an achievable TP below or at upper_bound, else throughput =
     * upper_bound.  Other operations: upper_bound = throughput, both 0. */
    mpq_t upper_bound;
    int pipelined_is_bound;
    int achievable_known;
} ssched_compare_t;

void ssched_compare_options_default(ssched_compare_options_t *o);
void ssched_compare_init(ssched_compare_t *r);
void ssched_compare_free(ssched_compare_t *r);

/* Run the comparison on cluster c (every t(p) > 0, root < n). */
ssched_status_t ssched_compare_run(const ssched_mk_cluster_t *c,
                                   const ssched_compare_options_t *o,
                                   ssched_compare_t *out, ssched_error_t *err);

/* The cluster of a platform (finalized, as loaded): complete (an edge for
 * every ordered pair of nodes) with sender-determined costs (every edge
 * leaving node i costs the same t(i)); processor i is node i.  c is
 * initialised here, to be freed on SSCHED_OK only.  EINPUT names what is
 * wrong: not a complete graph, or the node whose edges differ. */
ssched_status_t ssched_compare_cluster_from_platform(const ssched_platform_t *p,
                                                     ssched_mk_cluster_t *c, ssched_error_t *err);

/* Writers (JSON, SVG): ssched/export.h. */

#ifdef __cplusplus
}
#endif
#endif
