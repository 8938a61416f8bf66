/* Private helpers of the SVG pictures (src/export/gantt.c, src/report/):
 * a categorical palette, time axes and text escaping. */
#ifndef SSCHED_EXPORT_SVG_UTIL_H
#define SSCHED_EXPORT_SVG_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include "src/util/internal.h"

/* Categorical colour i: Kelly's colours of maximum contrast (K. L. Kelly,
 * "Twenty-two colors of maximum contrast", Color Engineering 3(6), 1965)
 * without white and black, so 20 hues stay distinguishable; beyond 20 the
 * list repeats and the caller shows the key in a legend. */
SSCHED_INTERNAL const char *ssched_i_svg_colour(size_t i);
#define SSCHED_I_SVG_COLOURS 20

/* Tick step for an axis spanning [0, span] with about `want` ticks: 1, 2
 * or 5 times a power of ten. */
SSCHED_INTERNAL double ssched_i_svg_tick_step(double span, int want);

/* A time for an axis label, short and readable at any magnitude
 * ("0.25", "150", "12k", "3.5M"): at most 4 significant digits, no
 * exponent. */
SSCHED_INTERNAL void ssched_i_svg_time_label(double t, char *buf, size_t len);

/* Text and attribute values escaped for HTML/SVG (control characters,
 * not allowed in XML 1.0, are dropped). */
SSCHED_INTERNAL void ssched_i_svg_escape(FILE *out, const char *s);

#endif
