/* Hash index of names for the platform loader (internal, not installed).
 *
 * Maps a string to its position in a caller-owned array of names, so a
 * platform with n nodes is read in O(n) expected time instead of the
 * O(n^2) of a linear search per node (issue 11 item 5).  The index stores
 * positions only; the caller passes the names array on every call (it may
 * have been reallocated in between) and keeps the strings alive. */
#ifndef SSCHED_PLATFORM_NAME_INDEX_H
#define SSCHED_PLATFORM_NAME_INDEX_H

#include <stddef.h>
#include "src/util/internal.h"

typedef struct {
    size_t *slots; /* position + 1, or 0 for an empty slot */
    size_t mask;   /* capacity - 1 (capacity is a power of two)  */
    size_t count;
} ssched_name_index_t;

SSCHED_INTERNAL void ssched_i_name_index_init(ssched_name_index_t *ix);
SSCHED_INTERNAL void ssched_i_name_index_free(ssched_name_index_t *ix);

/* Position of `name` in names[], or (size_t)-1 if absent. */
SSCHED_INTERNAL size_t ssched_i_name_index_find(const ssched_name_index_t *ix,
                                                const char *const *names, const char *name);

/* Add names[pos].  Returns 1 if added, 0 if an equal name is already
 * indexed (its position in *existing, nothing added), -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_name_index_add(ssched_name_index_t *ix, const char *const *names,
                                            size_t pos, size_t *existing);

#endif
