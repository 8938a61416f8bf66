/* Private helpers shared by the writers of ssched/export.h. */
#ifndef SSCHED_EXPORT_INTERNAL_H
#define SSCHED_EXPORT_INTERNAL_H

#include <stdio.h>

#include "ssched/export.h"
#include "src/util/internal.h"

/* SSCHED_OK, or SSCHED_EINPUT "write error" when the stream has failed:
 * the last statement of a writer. */
SSCHED_INTERNAL ssched_status_t ssched_i_write_status(FILE *out, ssched_error_t *err);

/* Text inside a DOT double-quoted string (an id or a label): '"' and '\\'
 * escaped, so that a node name cannot close the string and inject
 * attributes (issue 24 item 3); control characters never reach here (the
 * loaders refuse them). */
SSCHED_INTERNAL void ssched_i_dot_text(FILE *out, const char *text);

/* Whether resource dir of node i (0 its out-port, 1 its in-port, 2 its
 * processor, a resource for reduce-like problems only) is one the
 * solution's writers report as saturated: busy = 1, or a positive dual
 * price.  If so, *busy and *price point at its figures. */
SSCHED_INTERNAL int ssched_i_saturated(const ssched_steady_t *s, size_t i, int dir,
                                       mpq_srcptr *busy, mpq_srcptr *price);

/* The JSON texts in memory, for the self-checks and the report, which
 * check or embed them (malloc'ed, free() them; NULL on ENOMEM).  The
 * schedule's text has no final newline, the unrolled one ends with one. */
SSCHED_INTERNAL char *ssched_i_schedule_json_text(const ssched_platform_t *p,
                                                  const ssched_problem_t *pb,
                                                  const ssched_schedule_t *s);
SSCHED_INTERNAL char *ssched_i_unrolled_json_text(const ssched_platform_t *p,
                                                  const ssched_problem_t *pb,
                                                  const ssched_schedule_t *s,
                                                  const ssched_unrolled_t *u);

#endif
