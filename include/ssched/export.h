/* ssched/export.h — every writer of the library, in one shape.
 *
 *   ssched_status_t ssched_write_<what>(FILE *out, <inputs>, ssched_error_t *err);
 *
 * The stream comes first and the error record last.  A writer returns
 * SSCHED_OK once everything is handed to the stream; a stream error seen
 * on the way (ferror; the unrolled writers also fflush) is SSCHED_EINPUT
 * with "write error" in the message (the library has no separate I/O
 * status: an unwritable output is the caller's to fix, like any other bad
 * input), running out of memory SSCHED_ENOMEM.  Writers neither flush nor
 * close `out` otherwise: data still buffered may fail only at the caller's
 * fflush or fclose, which the caller checks.  A JSON document ends with a
 * newline.  To get the text in memory, write to open_memstream().
 *
 * ssched_write_report (HTML, ssched/report.h) has this shape too; it stays
 * declared in report.h with its options. */
#ifndef SSCHED_EXPORT_H
#define SSCHED_EXPORT_H

#include <stdio.h> /* before gmp.h: it then declares mpz_out_str & co. */
#include <gmp.h>

#include "ssched/compare.h"
#include "ssched/error.h"
#include "ssched/lp.h"
#include "ssched/makespan.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/redistribution.h"
#include "ssched/scatter_balance.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "ssched/trees.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- numbers ------------------------------------------------------------ */

/* "p/q" (or "p"), exact. */
ssched_status_t ssched_write_rational(FILE *out, const mpq_t q, ssched_error_t *err);

/* ---- LP ------------------------------------------------------------------ */

/* CPLEX LP format / free MPS.  Each row is multiplied by the LCM of its
 * denominators so every coefficient is an integer: the file states exactly
 * the same feasible set and optimum, readable by glpsol --exact and
 * QSopt_ex's esolver.  The objective is scaled by the LCM of its own
 * denominators (1 for ssched's LPs, stated in a comment); the MPS file
 * minimizes the negated objective because not every reader knows OBJSENSE. */
ssched_status_t ssched_write_lp(FILE *out, const ssched_lp_t *lp, ssched_error_t *err);
ssched_status_t ssched_write_mps(FILE *out, const ssched_lp_t *lp, ssched_error_t *err);

/* ---- platforms ------------------------------------------------------------ */

/* The platform as GraphML with exact string attributes. */
ssched_status_t ssched_write_platform_graphml(FILE *out, const ssched_platform_t *p,
                                              ssched_error_t *err);

/* The platform for SimGrid 3.32 (platform version 4.1) to `out` and the
 * matching MPI hostfile (ssched_write_platform_hostfile) to `hostfile`
 * (NULL: none).  A switch (multiport[i], GraphML ports=multi) is a SimGrid
 * router; every other node is a host, of speed flops_per_task / w flop/s
 * (1 flop/s for a node without w, which never computes).  Graph model:
 * every directed edge its own link of bandwidth unit_bytes / c B/s and
 * latency l(e) seconds (the time unit of c), one route per edge, Floyd
 * routing (it composes longer ones).  Routed platform: its link resources
 * (bandwidth unit_bytes / link_c, latency, FATPIPE or SHARED) and one route
 * per edge, Full routing.  Under the CM02 network model with bandwidth and
 * latency factors 1 and cross-traffic off, a message of unit_bytes x size
 * bytes over edge e then takes l(e) + size x c(e), as in the model (numbers
 * are printed as the shortest decimal that reads back as the same double:
 * SimGrid reads doubles).  Every
 * number is checked before anything is written: EINPUT for non-positive
 * unit_bytes or flops_per_task, a bandwidth or speed that is zero or not
 * finite as a double, a host name with white space.  The XML is
 * well-formed (its comment holds no "--"). */
ssched_status_t ssched_write_platform_simgrid(FILE *out, FILE *hostfile,
                                              const ssched_platform_t *p,
                                              const mpq_t unit_bytes, const mpq_t flops_per_task,
                                              ssched_error_t *err);

/* The MPI hostfile of p: its hosts (every node but the switches of a
 * graph platform), one name a line, in node order: rank i runs on the i-th
 * host.  For a platform read from a SimGrid file, that is SimGrid's host
 * order, so `smpirun -platform THE_FILE.xml -hostfile hosts.txt` places
 * rank i on node i.  EINPUT for a host name with white space. */
ssched_status_t ssched_write_platform_hostfile(FILE *out, const ssched_platform_t *p,
                                               ssched_error_t *err);

/* ---- steady state and schedules ------------------------------------------ */

/* The problem in one line ("scatter from s to a,b", "reduce of a,b,c (in
 * this order) to t", ...; no newline). */
ssched_status_t ssched_write_problem_text(FILE *out, const ssched_platform_t *p,
                                          const ssched_problem_t *pb, ssched_error_t *err);

/* The steady-state solution as text, what `ssched solve` prints: the
 * platform (named platform_name) and problem, the throughput with its
 * certificate or bounds, the saturated resources with their prices, the
 * rates, trees or arborescences, and the solver's figures. */
ssched_status_t ssched_write_steady_text(FILE *out, const char *platform_name,
                                         const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_t *s, ssched_error_t *err);

/* The steady-state solution as JSON: "throughput" (exact "p/q"; a multicast
 * gives "upper_bound" and a "note" instead), per-edge per-type (broadcast:
 * copies) "rates", "saturated" ports with their dual prices, "unreachable"
 * types and "solver" figures. */
ssched_status_t ssched_write_steady_json(FILE *out, const ssched_platform_t *p,
                                         const ssched_problem_t *pb, const ssched_steady_t *s,
                                         ssched_error_t *err);

/* One tree as indented text (root first) or as a Graphviz digraph named
 * `name`; every tree in one Graphviz digraph, a cluster each (`dot`
 * renders only the first graph of a file). */
ssched_status_t ssched_write_tree_text(FILE *out, const ssched_platform_t *p,
                                       const ssched_problem_t *pb, const ssched_tree_t *tree,
                                       ssched_error_t *err);
ssched_status_t ssched_write_tree_dot(FILE *out, const ssched_platform_t *p,
                                      const ssched_problem_t *pb, const ssched_tree_t *tree,
                                      const char *name, ssched_error_t *err);
ssched_status_t ssched_write_trees_dot(FILE *out, const ssched_platform_t *p,
                                       const ssched_problem_t *pb, const ssched_trees_t *trees,
                                       ssched_error_t *err);

/* "ssched-schedule/1" JSON (docs/model.md) of a periodic schedule, or
 * "ssched-unrolled/2" of a schedule unrolled in memory.  A commutative
 * reduce (problem "commutative": true) names sets instead of intervals:
 * transfers "set": [sorted participant indices], computations "merge":
 * [[set], [set]] (the result is the union), and in a periodic file's trees
 * send tasks {"send", "set", "parent"} and merge tasks {"compute", "merge",
 * "parent"} (README, "Schedule format").  An all-reduce's copies of the
 * result are transfers "copy": true (whole, no interval or set), and its
 * unrolled file's problem names the root. */
ssched_status_t ssched_write_schedule_json(FILE *out, const ssched_platform_t *p,
                                           const ssched_problem_t *pb,
                                           const ssched_schedule_t *s, ssched_error_t *err);
ssched_status_t ssched_write_unrolled_json(FILE *out, const ssched_platform_t *p,
                                           const ssched_problem_t *pb,
                                           const ssched_schedule_t *s,
                                           const ssched_unrolled_t *u, ssched_error_t *err);

/* Unroll s for K >= 1 operations as ssched_unroll_limited does, streaming
 * the "ssched-unrolled/2" JSON to `out` while it is generated (memory
 * independent of K); the figures are returned in fig (initialised by the
 * caller).  limits may be NULL. */
ssched_status_t ssched_write_unrolled_stream(FILE *out, const ssched_platform_t *p,
                                             const ssched_problem_t *pb,
                                             const ssched_schedule_t *s, size_t K,
                                             const ssched_unroll_limits_t *limits,
                                             ssched_unroll_figures_t *fig, ssched_error_t *err);

/* A readable table of one period (one line per slot, as RR-4872 Fig. 4). */
ssched_status_t ssched_write_schedule_table(FILE *out, const ssched_platform_t *p,
                                            const ssched_schedule_t *s, ssched_error_t *err);
/* Gantt chart of one period as SVG: one row per port (out and in). */
ssched_status_t ssched_write_schedule_gantt(FILE *out, const ssched_platform_t *p,
                                            const ssched_schedule_t *s, ssched_error_t *err);
/* Gantt chart of K unrolled operations (u, unrolled from the pattern s) as
 * SVG: a row per used out-port, in-port, processor and switch link; bars
 * coloured by operation and labelled sender->receiver where they have
 * room; start-up (until operation 0 completes) and clean-up (from the
 * first event of the last operation) shaded.  Past 30000 events only the
 * first and last 8 operations are drawn (ssched_unrolled_gantt_elided). */
ssched_status_t ssched_write_unrolled_gantt(FILE *out, const ssched_platform_t *p,
                                            const ssched_schedule_t *s,
                                            const ssched_unrolled_t *u, ssched_error_t *err);
/* The platform with the per-period message counts on the edges (Graphviz). */
ssched_status_t ssched_write_schedule_dot(FILE *out, const ssched_platform_t *p,
                                          const ssched_schedule_t *s, ssched_error_t *err);

/* What `ssched schedule` prints about one period: the throughput (and
 * the upper bound where TP is only achievable), the matchings, a
 * reduce's trees or a broadcast's arborescences, then the table.  The
 * text states "schedule checked: valid": write it after
 * ssched_schedule_self_check returned SSCHED_OK.  st is the solution s
 * was built from. */
ssched_status_t ssched_write_schedule_summary(FILE *out, const ssched_platform_t *p,
                                              const ssched_problem_t *pb,
                                              const ssched_steady_t *st,
                                              const ssched_schedule_t *s, ssched_error_t *err);
/* What an unrolled schedule achieves (fig, as ssched_write_unrolled_stream
 * or ssched_unroll returned it for the pattern s) against its lower bounds:
 * events, period, time for K, LB(K), overhead, buffer peak. */
ssched_status_t ssched_write_unrolled_summary(FILE *out, const ssched_platform_t *p,
                                              const ssched_schedule_t *s,
                                              const ssched_unroll_figures_t *fig,
                                              ssched_error_t *err);

/* ---- one-shot collectives and the comparison ----------------------------- */

/* A one-shot schedule on cluster c as text (header, makespan as fraction
 * and decimal, the reduce phase's end for an all-reduce, one line per
 * message) or as "ssched-makespan/1" JSON, every time an exact "p/q"
 * string: the algorithm as the caller names it, and the method (the
 * procedure that ran; omitted when NULL, or in the text when it is the
 * algorithm's name). */
ssched_status_t ssched_write_makespan_text(FILE *out, const ssched_mk_cluster_t *c,
                                           const ssched_mk_schedule_t *s, const char *algorithm,
                                           const char *method, ssched_error_t *err);
ssched_status_t ssched_write_makespan_json(FILE *out, const ssched_mk_cluster_t *c,
                                           const ssched_mk_schedule_t *s, const char *algorithm,
                                           const char *method, ssched_error_t *err);

/* A comparison run on cluster c with options o, as a table over M with
 * the crossover, or as "ssched-compare/1" JSON. */
ssched_status_t ssched_write_compare_text(FILE *out, const ssched_mk_cluster_t *c,
                                          const ssched_compare_options_t *o,
                                          const ssched_compare_t *r, ssched_error_t *err);
ssched_status_t ssched_write_compare_json(FILE *out, const ssched_compare_options_t *o,
                                          const ssched_compare_t *r, ssched_error_t *err);
/* Time against M for both strategies as an SVG line chart (log-scale M). */
ssched_status_t ssched_write_compare_svg(FILE *out, const ssched_compare_t *r,
                                         ssched_error_t *err);

/* ---- load-balanced scatter ----------------------------------------------- */

/* What a scatter-balance JSON report states: the platform as loaded, the
 * instance arranged for the root, the result, and how it was asked for. */
typedef struct {
    const char *file;                    /* "file": the platform file's name  */
    const ssched_sb_platform_t *platform;/* as loaded (root, holder names)    */
    const ssched_sb_platform_t *instance;/* arranged by ssched_sb_arrange      */
    size_t holder, root;                 /* indices in platform               */
    ssched_sb_order_t order;
    mpq_srcptr pre_transfer;             /* holder -> root time                */
    const ssched_sb_result_t *result;
    const ssched_sb_root_eval_t *evals;  /* platform->p entries, or NULL when
                                            the root was not chosen           */
} ssched_sb_report_t;

/* The report as text (header, makespan, the relaxation's bounds, one line
 * per processor, the root choice) or as "ssched-scatter-balance/1" JSON:
 * exact "p/q" times, decimals rounded to 6 fraction digits. */
ssched_status_t ssched_write_sb_text(FILE *out, const ssched_sb_report_t *r, ssched_error_t *err);
ssched_status_t ssched_write_sb_json(FILE *out, const ssched_sb_report_t *r, ssched_error_t *err);

/* The stair diagram of seed 004 Figs. 2-4 as a standalone SVG document: one
 * column per processor in sending order, waiting (white), receiving (black)
 * and computing (grey) from time 0 upwards, the stair of reception ends
 * dashed, the makespan as a horizontal line.  Coordinates are rounded for
 * display only. */
ssched_status_t ssched_write_sb_svg(FILE *out, const ssched_sb_platform_t *inst,
                                    const ssched_sb_result_t *res, const char *title,
                                    ssched_error_t *err);

/* ---- redistribution ------------------------------------------------------ */

/* Human-readable report: header, lower bound, completion, then per
 * processor its ordered sends and receives with exact times. */
ssched_status_t ssched_write_redist_text(FILE *out, const ssched_redist_t *r,
                                         const ssched_redist_schedule_t *s, ssched_error_t *err);
/* JSON ("format": "ssched-redistribution/1") with exact "p/q" strings:
 * completion, lower_bound, the messages and per-processor sends/receives. */
ssched_status_t ssched_write_redist_json(FILE *out, const ssched_redist_t *r,
                                         const ssched_redist_schedule_t *s, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
