/* Private helpers shared by the writers of ssched/export.h. */
#ifndef SSCHED_EXPORT_INTERNAL_H
#define SSCHED_EXPORT_INTERNAL_H

#include <stdio.h>

#include "ssched/export.h"

/* SSCHED_OK, or SSCHED_EINPUT "write error" when the stream has failed:
 * the last statement of a writer. */
ssched_status_t ssched_i_write_status(FILE *out, ssched_error_t *err);

/* The JSON texts in memory, for the self-checks and the report, which
 * check or embed them (malloc'ed, free() them; NULL on ENOMEM).  The
 * schedule's text has no final newline, the unrolled one ends with one. */
char *ssched_i_schedule_json_text(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_schedule_t *s);
char *ssched_i_unrolled_json_text(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_schedule_t *s, const ssched_unrolled_t *u);

#endif
