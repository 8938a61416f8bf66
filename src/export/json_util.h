/* Small jansson helpers shared by the JSON writers (private). */
#ifndef SSCHED_EXPORT_JSON_UTIL_H
#define SSCHED_EXPORT_JSON_UTIL_H

#include <stdio.h>
#include <gmp.h>
#include <jansson.h>

#include "ssched/platform.h"
#include "ssched/problem.h"

/* Exact "p/q" (or "p") string. */
json_t *ssched_i_json_mpq(const mpq_t q);
json_t *ssched_i_json_mpz(const mpz_t z);
/* {"kind": ..., node lists ..., "size": ...} */
json_t *ssched_problem_json(const ssched_platform_t *p, const ssched_problem_t *pb);
/* {"nodes": [{"id","w"}], "edges": [{"from","to","c"}]} */
json_t *ssched_platform_json(const ssched_platform_t *p);
/* {"format", "problem", "platform", "throughput"} of a schedule file. */
#include "ssched/schedule.h"
json_t *ssched_schedule_json_header(const char *format, const ssched_platform_t *p,
                                    const ssched_problem_t *pb, const ssched_schedule_t *s);

/* Write root (consumed) as text with the json_dumps flags, then a
 * newline; ENOMEM, or EINPUT "write error" when the stream fails. */
ssched_status_t ssched_i_write_json(FILE *out, json_t *root, size_t flags, ssched_error_t *err);

#endif
