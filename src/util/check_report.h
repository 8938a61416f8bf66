/* Private helpers shared by the independent checkers (error.h:
 * ssched_check_report_t).  Each checker's core records a violation as an
 * error of one status in a private record, so its loops stop at the first
 * one as they did; the public entry point then turns that status into
 * report->valid = 0 and passes every other failure on. */
#ifndef SSCHED_UTIL_CHECK_REPORT_H
#define SSCHED_UTIL_CHECK_REPORT_H

#include "ssched/error.h"
#include "src/util/internal.h"

/* valid = 1, no violation, the schedule-only fields zero. */
SSCHED_INTERNAL void ssched_i_report_reset(ssched_check_report_t *report);

/* Outcome of a checker core that returned st with its message in verr:
 * st == violation: report->valid = 0 with verr's message, SSCHED_OK;
 * another failure: copied into err and returned; SSCHED_OK: report valid. */
SSCHED_INTERNAL ssched_status_t ssched_i_report_outcome(ssched_status_t st,
                                                        ssched_status_t violation,
                                                        const ssched_error_t *verr,
                                                        ssched_check_report_t *report,
                                                        ssched_error_t *err);

/* For library code checking its own output: st when the check failed,
 * `invalid` with the violation as message when the output is invalid
 * (SSCHED_EINTERNAL for a builder: a bug; SSCHED_EUNCERTIFIED for the LP
 * solver), else SSCHED_OK. */
SSCHED_INTERNAL ssched_status_t ssched_i_report_require(ssched_status_t st,
                                                        const ssched_check_report_t *report,
                                                        ssched_status_t invalid,
                                                        ssched_error_t *err);

#endif
