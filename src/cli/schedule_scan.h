/* ssched schedule for a scan (src/cli/schedule_scan.c). */
#ifndef SSCHED_CLI_SCHEDULE_SCAN_H
#define SSCHED_CLI_SCHEDULE_SCAN_H

#include <stddef.h>

#include "ssched/problem.h"
#include "ssched/matching.h"
#include "ssched/steady.h"

/* Unroll K operations of the solved scan st, check them, write them to
 * output ("-": standard output, the summary then on stderr unless quiet);
 * the exit status. */
int cli_schedule_scan(const char *output, size_t K, int quiet, const ssched_platform_t *p,
                      const ssched_problem_t *pb, const ssched_steady_t *st);

/* One period of the scan schedule (schedule/build_scan.c) from the solved
 * st, checked, written as JSON to output (NULL: none; "-": standard output,
 * as with json); fixed_period: TF or NULL; a summary on stdout (stderr when the JSON goes there);
 * the exit status. */
int cli_schedule_scan_periodic(const char *output, int json, int no_split,
                               ssched_matching_rule_t rule, mpq_srcptr fixed_period,
                               const ssched_platform_t *p,
                               const ssched_problem_t *pb, const ssched_steady_t *st);

#endif
