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

/* The tail of a one-shot run: s (built with status st) passed through
 * ssched_mk_check (a failure is EINTERNAL: a bug), its makespan into out;
 * s is freed.  Returns the status. */
SSCHED_INTERNAL ssched_status_t ssched_i_compare_checked(const ssched_mk_cluster_t *c,
                                                         ssched_mk_schedule_t *s,
                                                         ssched_status_t st, mpq_t out,
                                                         ssched_error_t *err);
/* ssched_compare_run for o->op == SSCHED_MK_SCAN (compare_scan.c); out is
 * initialised and empty. */
SSCHED_INTERNAL ssched_status_t ssched_i_compare_scan(const ssched_mk_cluster_t *c,
                                                      const ssched_compare_options_t *o,
                                                      ssched_compare_t *out, ssched_error_t *err);

/* ELIMIT (naming what, "the steady-state solve" or the like, and n
 * processors) when the estimate of bytes is above options.max_memory
 * (default 4 GB), else OK. */
SSCHED_INTERNAL ssched_status_t ssched_i_compare_memory(const ssched_compare_options_t *o, size_t n,
                                                        double bytes, const char *what,
                                                        ssched_error_t *err);
/* The rows of out for o->ops: M and the one-at-a-time column M x
 * out->one_shot; the pipelined column initialised (0) for the caller. */
SSCHED_INTERNAL ssched_status_t ssched_i_compare_rows(const ssched_compare_options_t *o,
                                                      ssched_compare_t *out, ssched_error_t *err);

#endif
