/* Private interfaces of schedule/ (not installed). */
#ifndef SSCHED_SCHEDULE_INTERNAL_H
#define SSCHED_SCHEDULE_INTERNAL_H

#include "ssched/schedule.h"

/* Remove every directed cycle from the positive part of flow[] (one value
 * per platform edge) by subtracting its bottleneck; exact.  Returns 1, or 0
 * on allocation failure. */
int sched_cancel_cycles(const ssched_platform_t *p, mpq_t *flow);

#endif
