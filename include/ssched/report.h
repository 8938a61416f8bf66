/* ssched/report.h — one self-contained HTML report of a planned series of
 * collectives (the whole pipeline on one page).
 *
 * ssched_write_report() solves the problem (certified), builds one period
 * of the schedule and K unrolled operations, checks both with the
 * independent checker (ssched_check_schedule_text: a report never shows a
 * schedule that fails it), and writes one HTML file with no external
 * resource (inline CSS, SVG and a few lines of JavaScript):
 *  - the problem, the exact TP and the certificate summary (method, LP
 *    size, solver figures; upper bound and gap when TP is only achievable);
 *  - the platform drawn at an igraph Kamada–Kawai layout, each link's width
 *    its load, bottleneck resources (positive dual prices) in red;
 *  - the reduction trees, routing flows or arborescences, each drawn over
 *    the platform (at most 12, the rest listed);
 *  - the Gantt chart of one period, and of the K unrolled operations with
 *    start-up and clean-up shaded;
 *  - makespan against K/TP and LB(K) for K = 1, 2, 5, ... up to K;
 *  - the schedule files (periodic and unrolled JSON) as downloads.
 * The page sets <body data-ready="1"> once its script ran, and records
 * script errors in data-errors (the tests load it in headless Chromium). */
#ifndef SSCHED_REPORT_H
#define SSCHED_REPORT_H

#include <stdio.h>

#include "ssched/error.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/steady.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SSCHED_REPORT_MAX_OPERATIONS 10000UL

typedef struct {
    size_t operations;              /* K, 1..SSCHED_REPORT_MAX_OPERATIONS;
                                       default 100                         */
    ssched_steady_options_t steady; /* how to solve                        */
    const char *title;              /* shown on top (e.g. the platform file
                                       name); NULL: none                   */
    /* called as each stage starts ("scheduling", "laying out 5000 nodes",
     * ...) so that a caller can say what a long report is doing; NULL:
     * none (the solve reports through steady.progress) */
    void (*stage)(void *ctx, const char *what);
    void *stage_ctx;
} ssched_report_options_t;

void ssched_report_options_default(ssched_report_options_t *opt);

/* Write the report of (p, pb) to out.  EINPUT for a bad K, a problem with
 * TP = 0 or anything the solver refuses; EINTERNAL if a schedule fails the
 * checker (never written). */
ssched_status_t ssched_write_report(FILE *out, const ssched_platform_t *p,
                                    const ssched_problem_t *pb,
                                    const ssched_report_options_t *opt, ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
