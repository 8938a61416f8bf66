/* Private interfaces of the unrolled scan (schedule/unroll_scan*.c). */
#ifndef SSCHED_SCHEDULE_SCAN_INTERNAL_H
#define SSCHED_SCHEDULE_SCAN_INTERNAL_H

#include "src/util/internal.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"

/* The figures of the unrolled scan u of K operations (u->fig and its
 * shorthands): makespan, TP (st's achievable throughput), K / TP, LB1
 * (ssched_scan_lb1), LB(K), ratio; the "pattern" is one operation per
 * 1 / TP (the rate the assignment follows). */
SSCHED_INTERNAL ssched_status_t ssched_i_scan_figures(const ssched_platform_t *p,
                                                      const ssched_problem_t *pb,
                                                      const ssched_steady_t *st, size_t K,
                                                      ssched_unrolled_t *u, ssched_error_t *err);

#endif
