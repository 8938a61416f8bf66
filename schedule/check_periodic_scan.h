/* Private to the periodic scan checker (check_periodic_scan*.c): sparse
 * per-period totals keyed by (a, b, c, d) — (edge, interval, 0, 0) for
 * transfers, (node, k, l, m) for tasks, (node, interval, 0, 0) for what a
 * node holds. */
#ifndef SSCHED_SCHEDULE_CHECK_PERIODIC_SCAN_H
#define SSCHED_SCHEDULE_CHECK_PERIODIC_SCAN_H

#include "schedule/check_internal.h"

typedef struct {
    size_t a, b, c, d;
    mpq_t q;
} cps_ent_t;

typedef struct {
    cps_ent_t *v;
    size_t n, cap;
} cps_list_t;

/* Add q at key (a, b, c, d) (a new entry; merged later); 0 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_cps_push(cps_list_t *L, size_t a, size_t b, size_t c, size_t d,
                                      const mpq_t q);
/* Sort by key and add up equal keys. */
SSCHED_INTERNAL void ssched_i_cps_merge(cps_list_t *L);
/* The merged entry of a key, or NULL. */
SSCHED_INTERNAL const cps_ent_t *ssched_i_cps_find(const cps_list_t *L, size_t a, size_t b,
                                                   size_t c, size_t d);
SSCHED_INTERNAL void ssched_i_cps_free(cps_list_t *L);

/* The "structures" of a periodic scan file (check_periodic_scan_struct.c):
 * each one checked as one operation's derivation, their weights summing to
 * ops, and their sends and tasks, weighted, equal to the slots' totals
 * (sends: merged (edge, type)) and the computations (comps: merged (node,
 * k, l, m)).  A violation is recorded; EINPUT for a malformed field. */
SSCHED_INTERNAL ssched_status_t ssched_i_cps_structures(chk_t *c, json_t *root, const mpq_t ops,
                                                        const cps_list_t *sends,
                                                        const cps_list_t *comps);

/* The whole file (check_periodic_scan.c): the checks its comment lists
 * but the throughput claims (check_solve.c, called after it). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_periodic_scan(chk_t *c, json_t *root);

#endif
