/* ssched schedule for a scan (src/cli/schedule_scan.c). */
#ifndef SSCHED_CLI_SCHEDULE_SCAN_H
#define SSCHED_CLI_SCHEDULE_SCAN_H

#include <stddef.h>

#include "ssched/problem.h"
#include "ssched/steady.h"

/* Unroll K operations of the solved scan st, check them, write them to
 * output ("-": standard output, the summary then on stderr unless quiet);
 * the exit status. */
int cli_schedule_scan(const char *output, size_t K, int quiet, const ssched_platform_t *p,
                      const ssched_problem_t *pb, const ssched_steady_t *st);

#endif
