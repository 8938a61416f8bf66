/* Between the two halves of the SimGrid platform reader: the C++ child
 * (simgrid_child.cpp, which runs libsimgrid) and the C parent
 * (simgrid_read.c, which builds the routed platform).  The stream format is
 * described in simgrid_child.cpp. */
#ifndef SSCHED_SIMGRID_WIRE_H
#define SSCHED_SIMGRID_WIRE_H

#include "src/util/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Load `path` with SimGrid and stream its hosts and routes to fd.  Runs in
 * a forked child only (it creates SimGrid's engine, one per process).
 * Before asking SimGrid for the route i -> j it stores i + 1 and j in
 * at[0], at[1] (memory shared with the parent, which so names the route
 * SimGrid died on).  Returns the child's exit status: 0 done, 1 an error
 * streamed ('E'), 3 the pipe failed. */
SSCHED_INTERNAL int ssched_i_simgrid_child(const char *path, int fd, volatile uint64_t *at);

#ifdef __cplusplus
}
#endif
#endif
