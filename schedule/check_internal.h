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
    int *has_w;
    unsigned char *multi;          /* per node: 1 = switch ("ports":
                                      "multi": each incident link is its own
                                      resource), 0 = one-port (default)   */
    mpq_t *w;                      /* task time per node (reduce)       */
    int reduce;                    /* reduce: types are intervals        */
    size_t N, target;              /* reduce: participants, target       */
    size_t *participants;
    size_t *type_origin, *type_dest; /* scatter/gossip: (origin, dest);
                                      reduce: (k, m) of the interval     */
    mpq_t size, throughput;
    mpq_t makespan;                /* unrolled: end of the last event     */
    /* lookups for files with many events (chk_index): names sorted, and
     * edge and type numbers per (node, node); NULL until built */
    size_t *by_name, *edge_at, *type_at;
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
/* SSCHED_EINPUT naming the first key of obj not in the NULL-terminated
 * allowed list (or if obj is not an object). */
ssched_status_t chk_keys(chk_t *c, json_t *obj, const char *where, const char *const *allowed);
size_t chk_edge(const chk_t *c, size_t from, size_t to);
/* Is node i a switch of the file's platform? */
static inline int chk_multi(const chk_t *c, size_t i)
{
    return c->multi && c->multi[i];
}
/* Build the lookups above (scatter and gossip types; reduce has none);
 * without memory the linear searches stay in use. */
void chk_index(chk_t *c);
size_t chk_type(const chk_t *c, size_t origin, size_t dest);

/* Interval number of [k,m] (reduce), or SIZE_MAX. */
size_t chk_interval(const chk_t *c, size_t k, size_t m);
/* Parse a JSON array of `len` non-negative integers into out. */
int chk_int_array(json_t *a, size_t len, size_t *out);

/* Streamed unrolled files (check_stream.c): the top-level object split into
 * a header (every key but the event arrays) and the arrays' extents. */
typedef struct {
    int present;
    int mapped;                    /* buf is a private file mapping: read
                                      pages may be dropped                */
    const char *buf;
    size_t begin, end;             /* [begin, end) holds "[ ... ]"        */
} chk_extent_t;
typedef struct {
    chk_extent_t x;
    const char *name;
    size_t pos, index, dropped;    /* dropped: pages released up to here  */
    int done;
} chk_iter_t;
ssched_status_t chk_split_top(const char *buf, size_t len, int mapped, json_t **header,
                              chk_extent_t *tr, chk_extent_t *co, ssched_error_t *err);
/* Offset of the first NUL byte, or SIZE_MAX; a mapping's pages are
 * released as the scan passes them. */
size_t chk_find_nul(const char *buf, size_t len, int mapped);
/* ssched_check_schedule_buffer, told whether buf is a file mapping. */
ssched_status_t chk_check_buffer(const char *buf, size_t len, int mapped,
                                 ssched_check_report_t *report, ssched_error_t *err);
void chk_iter_init(chk_iter_t *it, const chk_extent_t *x, const char *name);
/* The next element (an object the caller decrefs), or NULL at the end. */
ssched_status_t chk_iter_next(chk_iter_t *it, json_t **out, ssched_error_t *err);

ssched_status_t chk_periodic(chk_t *c, json_t *root);
ssched_status_t chk_reduce_balance(chk_t *c, json_t *root, mpq_t *const net, const mpq_t period,
                                   const mpq_t ops);
ssched_status_t chk_unrolled_reduce(chk_t *c, json_t *root, const chk_extent_t *tr,
                                    const chk_extent_t *co);
ssched_status_t chk_reduce_trees(chk_t *c, json_t *root, const mpq_t ops);
ssched_status_t chk_unrolled(chk_t *c, json_t *root, const chk_extent_t *tr);
/* Unrolled files (check_unrolled_claims.c): the optional "piece":
 * [offset, length] of a transfer ([0, 1) when absent), checked to lie in
 * [0, 1) with a positive length; and every figure the file states. */
ssched_status_t chk_piece(chk_t *c, json_t *x, const char *where, mpq_t off, mpq_t len);
ssched_status_t chk_unrolled_claims(chk_t *c, json_t *root, unsigned long K,
                                    const mpq_t makespan);

#endif
