/* Private state of the independent checker (schedule/check*.c). */
#ifndef SSCHED_SCHEDULE_CHECK_INTERNAL_H
#define SSCHED_SCHEDULE_CHECK_INTERNAL_H

#include <jansson.h>

#include "ssched/schedule.h"

typedef struct {
    size_t n_nodes, n_edges, n_types;
    char **names;
    size_t *from, *to;
    mpq_t *cost;
    size_t *type_origin, *type_dest;
    mpq_t size, throughput;
    ssched_check_report_t *report;
    ssched_error_t *err;
} chk_t;

void chk_init(chk_t *c);
void chk_free(chk_t *c);
/* Record the first violation; returns 0 so callers can `return chk_violation(...)`. */
int chk_violation(chk_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A malformed file: SSCHED_EINPUT with the message. */
ssched_status_t chk_bad(chk_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
ssched_status_t chk_get_q(chk_t *c, json_t *obj, const char *key, const char *where, mpq_t out);
ssched_status_t chk_get_node(chk_t *c, json_t *obj, const char *key, const char *where,
                             size_t *out);
ssched_status_t chk_transfer(chk_t *c, json_t *x, const char *where, size_t *edge,
                             size_t *type);
size_t chk_edge(const chk_t *c, size_t from, size_t to);
size_t chk_type(const chk_t *c, size_t origin, size_t dest);

ssched_status_t chk_periodic(chk_t *c, json_t *root);
ssched_status_t chk_unrolled(chk_t *c, json_t *root);

#endif
