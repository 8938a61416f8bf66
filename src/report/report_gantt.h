/* Private: the report's time pictures (src/report/report_gantt.c). */
#ifndef SSCHED_REPORT_GANTT_H
#define SSCHED_REPORT_GANTT_H

#include <stdio.h>
#include <string.h>

#include "ssched/schedule.h"
#include "src/report/report_util.h"
#include "src/util/internal.h"

/* One unrolled run: K, its makespan and LB(K) (doubles for drawing only;
 * the table beside the chart prints the exact values). */
typedef struct {
    double k, makespan, lower_bound;
} ssched_i_report_k_point_t;

/* Time per operation against K (log scale): makespan/K, LB(K)/K and 1/TP. */
SSCHED_INTERNAL void ssched_i_report_k_chart(FILE *out, const ssched_i_report_k_point_t *pt,
                                             size_t n, double tp, const char *id);

#endif
