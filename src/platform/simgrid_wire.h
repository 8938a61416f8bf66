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
 * Returns the child's exit status: 0 done, 1 an error streamed ('E'),
 * 3 the pipe failed. */
SSCHED_INTERNAL int ssched_i_simgrid_child(const char *path, int fd);

#ifdef __cplusplus
}
#endif
#endif
