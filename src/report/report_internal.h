/* Private: what the report computed, shared by its section writers. */
#ifndef SSCHED_REPORT_INTERNAL_H
#define SSCHED_REPORT_INTERNAL_H

#include "ssched/report.h"
#include "ssched/schedule.h"
#include "src/report/report_gantt.h"
#include "src/util/internal.h"

#define REPORT_MAX_DRAWINGS 12
#define REPORT_K_POINTS 12

typedef struct {
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    const ssched_report_options_t *opt;
    ssched_steady_t st;
    ssched_schedule_t period;         /* one period at TP                  */
    char *period_json;
    ssched_check_report_t period_check;
    int unrolled_ok;                  /* else unroll_error says why        */
    char unroll_error[SSCHED_ERROR_MSG_MAX];
    ssched_schedule_t pattern;        /* chosen for K (ssched_unroll_plan) */
    ssched_unrolled_t unrolled;
    char *unrolled_json;
    ssched_check_report_t unrolled_check;
    ssched_i_report_k_point_t k_points[REPORT_K_POINTS];
    char *k_exact[REPORT_K_POINTS][2]; /* exact makespan and LB(K) texts   */
    size_t n_k_points;
    double *x, *y;                    /* layout                            */
} report_t;

/* The sections, in page order (src/report/report_sections.c). */
SSCHED_INTERNAL void ssched_i_report_summary(FILE *out, const report_t *r);
SSCHED_INTERNAL ssched_status_t ssched_i_report_platform(FILE *out, const report_t *r,
                                                         ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_report_structures(FILE *out, const report_t *r,
                                                           ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_report_timelines(FILE *out, const report_t *r,
                                                          ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_report_downloads(FILE *out, const report_t *r);

/* An exact rational as text in out ("?" if out of memory). */
SSCHED_INTERNAL void ssched_i_report_q(FILE *out, const mpq_t q);

#endif
