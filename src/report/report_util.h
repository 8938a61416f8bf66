/* Private helpers of the HTML report (src/report/): colours, time axes,
 * text escaping and the platform layout shared by its drawings. */
#ifndef SSCHED_REPORT_UTIL_H
#define SSCHED_REPORT_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"
#include "ssched/platform.h"
#include "src/export/svg_util.h"
#include "src/util/internal.h"

/* Base64 (RFC 4648) of len bytes, for a data: URI download link. */
SSCHED_INTERNAL void ssched_i_report_base64(FILE *out, const unsigned char *data, size_t len);

/* Node positions for drawings, in [0,1]^2: Kamada–Kawai on the undirected
 * platform graph (igraph, started from a circle: deterministic) up to
 * SSCHED_I_REPORT_KK_MAX_NODES nodes; above, Fruchterman–Reingold on
 * igraph's grid with SSCHED_I_REPORT_FR_ITERATIONS iterations from the same
 * circle (Kamada–Kawai is quadratic in time and memory: 20 s on 2000
 * nodes, past 120 s on 5000, issue 24 item 5; the grid variant is linear
 * per iteration).  x and y are malloc'ed arrays of p->n_nodes entries. */
#define SSCHED_I_REPORT_KK_MAX_NODES 400
#define SSCHED_I_REPORT_FR_ITERATIONS 300
SSCHED_INTERNAL ssched_status_t ssched_i_report_layout(const ssched_platform_t *p, double **x,
                                                       double **y, ssched_error_t *err);

/* The platform as SVG (width x height pixels) at the given positions.
 * edge_load: per edge, the fraction of time the link is busy in [0,1]
 * (stroke width), or NULL; hot: per edge, 1 to draw it red (a bottleneck),
 * or NULL; hot_node: per node, 1 to ring it red, or NULL; label: per edge,
 * a text drawn on it (NULL entries: none) or NULL; fade: 1 to draw edges
 * without a label faintly (overlays of one tree or path).  Tooltips carry
 * edge_title / node_title texts when given (NULL entries: just names). */
typedef struct {
    const double *x, *y;
    double width, height;
    const double *edge_load;
    const unsigned char *hot, *hot_node;
    char *const *label;
    char *const *edge_title;
    char *const *node_title;
    int fade;
    const char *id;
} ssched_i_report_drawing_t;

SSCHED_INTERNAL void ssched_i_report_platform_svg(FILE *out, const ssched_platform_t *p,
                                  const ssched_i_report_drawing_t *d);

#endif
