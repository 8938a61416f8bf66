/* Small jansson helpers shared by the JSON writers (private). */
#ifndef SSCHED_EXPORT_JSON_UTIL_H
#define SSCHED_EXPORT_JSON_UTIL_H

#include <stdio.h>
#include <gmp.h>
#include <jansson.h>

#include "ssched/platform.h"
#include "ssched/problem.h"
#include "src/util/internal.h"

/* Exact "p/q" (or "p") string. */
SSCHED_INTERNAL json_t *ssched_i_json_mpq(const mpq_t q);
SSCHED_INTERNAL json_t *ssched_i_json_mpz(const mpz_t z);
/* {"kind": ..., node lists ..., "size": ...} */
SSCHED_INTERNAL json_t *ssched_i_problem_json(const ssched_platform_t *p,
                                              const ssched_problem_t *pb);
/* {"nodes": [{"id","w"}], "edges": [{"from","to","c"}]} */
SSCHED_INTERNAL json_t *ssched_i_platform_json(const ssched_platform_t *p);
/* {"format", "problem", "platform", "throughput"} of a schedule file. */
#include "ssched/schedule.h"
SSCHED_INTERNAL json_t *ssched_i_schedule_json_header(const char *format,
                                                      const ssched_platform_t *p,
                                                      const ssched_problem_t *pb,
                                                      const ssched_schedule_t *s);

/* Write root (consumed) as text with the json_dumps flags, then a
 * newline; ENOMEM, or EINPUT "write error" when the stream fails. */
SSCHED_INTERNAL ssched_status_t ssched_i_write_json(FILE *out, json_t *root, size_t flags,
                                                    ssched_error_t *err);

#endif
