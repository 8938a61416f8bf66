/* The values present somewhere during an unrolled check (reduce and scan,
 * schedule/check_unrolled_reduce.c and check_unrolled_scan.c): an
 * open-addressing table (linear probing) keyed by (node, interval,
 * time-stamp). */
#ifndef SSCHED_SCHEDULE_CHECK_VALUES_H
#define SSCHED_SCHEDULE_CHECK_VALUES_H

#include <stddef.h>

#include <gmp.h>

#include "src/util/internal.h"

typedef struct {
    size_t node, interval;
    size_t op;
    int used;
    char *value;
    mpq_t since;   /* time it became available at the node */
    int partial;   /* reduce: arriving in pieces, not usable yet */
    size_t from;   /* reduce: the node the pieces come from      */
    mpq_t got;     /* reduce: the length received so far         */
} chk_val_t;

typedef struct {
    size_t cap, n;
    chk_val_t *s;
} chk_vals_t;

/* The slot of (node, interval, op); insert: make it (value NULL, since and
 * got 0, not partial) when missing.  NULL when missing and not insert, or
 * out of memory. */
SSCHED_INTERNAL chk_val_t *ssched_i_chk_val_find(chk_vals_t *t, size_t node, size_t interval,
                                                 size_t op, int insert);
/* Remove x (its value freed). */
SSCHED_INTERNAL void ssched_i_chk_val_erase(chk_vals_t *t, chk_val_t *x);
/* Free every slot and the table (left empty). */
SSCHED_INTERNAL void ssched_i_chk_vals_free(chk_vals_t *t);

#endif
