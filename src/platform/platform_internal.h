/* Internal platform helpers shared by the files of src/platform/. */
#ifndef SSCHED_PLATFORM_INTERNAL_H
#define SSCHED_PLATFORM_INTERNAL_H

#include "ssched/platform.h"

/* ssched_platform_add_node() without its O(n) duplicate-name search: the
 * caller guarantees `name` is non-empty and not yet in p (the GraphML
 * reader checks this with a hash index, keeping loading near-linear). */
ssched_status_t ssched_platform_add_node_new(ssched_platform_t *p, const char *name,
                                             mpq_srcptr w, size_t *index,
                                             ssched_error_t *err);

#endif
