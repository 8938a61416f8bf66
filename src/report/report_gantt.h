/* Private: the report's time pictures (src/report/report_gantt.c). */
#ifndef SSCHED_REPORT_GANTT_H
#define SSCHED_REPORT_GANTT_H

#include <stdio.h>
#include <string.h>

#include "ssched/schedule.h"
#include "src/report/report_util.h"

/* K unrolled operations as an SVG Gantt chart: a row per used out-port,
 * in-port, processor and switch link; bars coloured by operation and
 * labelled sender->receiver where they have room; start-up (until
 * operation 0 completes) and clean-up (from the first event of the last
 * operation) shaded.  s is the pattern u was unrolled from (type labels).
 * Past 30000 events only the first and last 8 operations are drawn
 * (ssched_i_report_unrolled_elided() says so). */
ssched_status_t ssched_i_report_unrolled_svg(FILE *out, const ssched_platform_t *p,
                                             const ssched_schedule_t *s,
                                             const ssched_unrolled_t *u, const char *id,
                                             ssched_error_t *err);
int ssched_i_report_unrolled_elided(const ssched_unrolled_t *u);

/* One unrolled run: K, its makespan and LB(K) (doubles for drawing only;
 * the table beside the chart prints the exact values). */
typedef struct {
    double k, makespan, lower_bound;
} ssched_k_point_t;

/* Time per operation against K (log scale): makespan/K, LB(K)/K and 1/TP. */
void ssched_i_report_k_chart(FILE *out, const ssched_k_point_t *pt, size_t n, double tp,
                             const char *id);

#endif
