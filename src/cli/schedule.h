/* ssched schedule (src/cli/cmd_schedule.c): its options, the periodic
 * path and pictures (src/cli/schedule_emit.c), the unrolled path
 * (src/cli/schedule_unrolled.c). */
#ifndef SSCHED_CLI_SCHEDULE_H
#define SSCHED_CLI_SCHEDULE_H

#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/schedule.h"

/* --unroll --gantt keeps every event in memory to draw it */
#define GANTT_MAX_OPERATIONS 10000

typedef struct {
    int json, no_split, unroll, fixed, has_max_period, quiet, no_check;
    long operations, max_operations, max_events;
    long batch;                 /* --batch N (0: chosen)                     */
    long segments;              /* --segments P (0: whole operations)        */
    int seg_auto;               /* --segments auto                           */
    mpq_ptr eval;               /* non-NULL: plan, store the makespan, no file */
    int pieces;                 /* --pieces: -1 chosen, 0 split, 1 whole     */
    ssched_pattern_t pattern;   /* --pattern (default auto)                  */
    int has_pattern;
    mpq_t max_period;
    const char *output, *gantt, *dot, *trees_dot;
    ssched_matching_rule_t rule;
    mpq_t fixed_period;
} sched_opts_t;

/* Check and write the planned schedule s as the options say (one period,
 * or with o->unroll its K operations), then its pictures; the exit status. */
int cli_schedule_emit(const sched_opts_t *o, const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_steady_t *st, const ssched_schedule_t *s);
/* --unroll: stream the K operations of s to -o, then check the file (with
 * o->eval: only store the makespan); the exit status. */
int cli_schedule_emit_unrolled(const sched_opts_t *o, const ssched_platform_t *p,
                               const ssched_problem_t *pb, const ssched_schedule_t *s);

#endif
