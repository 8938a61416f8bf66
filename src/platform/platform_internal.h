/* Internal platform helpers shared by the files of src/platform/. */
#ifndef SSCHED_PLATFORM_INTERNAL_H
#define SSCHED_PLATFORM_INTERNAL_H

#include "ssched/platform.h"
#include "src/util/internal.h"

/* ssched_platform_add_node() for a non-empty name: refuses a name with a
 * control character (every reader goes through here) and a duplicate (the
 * platform's name index: O(1) expected). */
SSCHED_INTERNAL ssched_status_t ssched_i_platform_add_node_new(
        ssched_platform_t *p, const char *name, mpq_srcptr w, size_t *index, ssched_error_t *err);

/* Read a GraphML or GML file ("-": stdin) with the attribute names read as
 * w and c (the loader's --speed-from / --cost-from); AUTO reads a ".gml"
 * file as GML, a ".graphml" or ".xml" one as GraphML, and anything else
 * (stdin included) as GML if it starts like GML, else as GraphML.
 * src/platform/graphml_read.c. */
SSCHED_INTERNAL ssched_status_t ssched_i_platform_read(ssched_platform_t *p, const char *path,
                                       ssched_platform_format_t format, const char *w_name,
                                       const char *c_name, int c_is_bandwidth,
                                       ssched_error_t *err);

/* The attributes a GraphML or GML reader takes the platform's numbers
 * from: node attribute w (a task time, or a speed with --speed-from), edge
 * attribute c (a time, or a bandwidth when c_is_bandwidth), edge attribute
 * l (a latency, same unit as the times; absent = 0).  w_required: the
 * attribute was named by the user (--speed-from): it must be declared for
 * nodes and some node must carry it; l_required: likewise declared for
 * edges (--latency-from), an edge without it has latency 0. */
typedef struct {
    const char *w, *c, *l;
    int c_is_bandwidth, w_required, l_required;
    int skip_missing_c; /* an edge without c is left out, not refused */
    const char *names;  /* GraphML: node attribute giving names, or NULL */
} ssched_i_attrs_t;

/* ssched_i_platform_read with every attribute named (above). */
SSCHED_INTERNAL ssched_status_t ssched_i_platform_read_attrs(ssched_platform_t *p, const char *path,
                                                             ssched_platform_format_t format,
                                                             const ssched_i_attrs_t *a,
                                                             ssched_error_t *err);

/* The GML reader (igraph's); src/platform/gml_read.c.  text is the whole
 * file, `shown` its name in messages. */
SSCHED_INTERNAL ssched_status_t ssched_i_gml_read(ssched_platform_t *p, const char *text,
                                                  size_t len, const char *shown,
                                                  const ssched_i_attrs_t *a, ssched_error_t *err);

/* SimGrid platform files and measured matrices (ssched/platform.h): the
 * readers (simgrid_read.c, matrix_read.c; unit_bytes and flops_per_task
 * NULL = 1), the format AUTO resolves to for a path (SIMGRID for a file
 * whose root element is <platform>, MATRIX for a ".csv" name, else AUTO
 * unchanged: GraphML or GML), and the exact rational a double SimGrid
 * computed from a file's decimal stands for (0 if not finite). */
SSCHED_INTERNAL ssched_status_t ssched_i_simgrid_read(ssched_platform_t *p, const char *path,
                                                      mpq_srcptr unit_bytes,
                                                      mpq_srcptr flops_per_task,
                                                      ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_matrix_read(ssched_platform_t *p, const char *path,
                                                     mpq_srcptr unit_bytes,
                                                     mpq_srcptr flops_per_task,
                                                     ssched_error_t *err);
SSCHED_INTERNAL ssched_platform_format_t ssched_i_platform_detect(const char *path,
                                                  ssched_platform_format_t format);
SSCHED_INTERNAL int ssched_i_looks_like_simgrid(const char *path);
SSCHED_INTERNAL int ssched_i_mpq_from_shown_double(mpq_t out, double d);

#endif
