/* Private helpers shared by the src/compare sources (not installed). */
#ifndef SSCHED_COMPARE_INTERNAL_H
#define SSCHED_COMPARE_INTERNAL_H

#include "ssched/compare.h"
#include "src/util/internal.h"

/* The complete graph c(i,j) = t(i) on nodes "p0".."p{n-1}" (free merges:
 * w = 0), finalized, into an initialised platform. */
SSCHED_INTERNAL ssched_status_t ssched_i_compare_cluster_platform(const ssched_mk_cluster_t *c,
                                                                  ssched_platform_t *p,
                                                                  ssched_error_t *err);

/* ssched_compare_run for o->op == SSCHED_MK_SCAN (compare_scan.c); out is
 * initialised and empty. */
/* The tail of a one-shot run: s (built with status st) passed through
 * ssched_mk_check (a failure is EINTERNAL: a bug), its makespan into out;
 * s is freed.  Returns the status. */
SSCHED_INTERNAL ssched_status_t ssched_i_compare_checked(const ssched_mk_cluster_t *c,
                                                         ssched_mk_schedule_t *s,
                                                         ssched_status_t st, mpq_t out,
                                                         ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_compare_scan(const ssched_mk_cluster_t *c,
                                                      const ssched_compare_options_t *o,
                                                      ssched_compare_t *out, ssched_error_t *err);

#endif
