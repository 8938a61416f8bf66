#include "src/report/report_util.h"
#include "src/util/internal.h"

#include <igraph/igraph.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ssched_i_report_base64(FILE *out, const unsigned char *d, size_t len)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < len; i += 3) {
        size_t v = (unsigned long)d[i] << 16;
        if (i + 1 < len)
            v |= (unsigned long)d[i + 1] << 8;
        if (i + 2 < len)
            v |= d[i + 2];
        fputc(a[v >> 18 & 63], out);
        fputc(a[v >> 12 & 63], out);
        fputc(i + 1 < len ? a[v >> 6 & 63] : '=', out);
        fputc(i + 2 < len ? a[v & 63] : '=', out);
    }
}

/* Scale the seed circle to radius r: the grid of the Fruchterman-Reingold
 * layout has cells of a fixed size, so a unit circle would put every node
 * in one cell (quadratic again); FR's own area is about n. */
static int spread(igraph_matrix_t *pos, double r)
{
    igraph_matrix_scale(pos, r);
    return 1;
}

ssched_status_t ssched_i_report_layout(const ssched_platform_t *p, double **x, double **y,
                                       ssched_error_t *err)
{
    size_t n = p->n_nodes;
    *x = ssched_i_alloc(n, sizeof **x);
    *y = ssched_i_alloc(n, sizeof **y);
    if (!*x || !*y) {
        free(*x);
        free(*y);
        *x = *y = NULL;
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    if (n <= 2) {
        for (size_t i = 0; i < n; i++) {
            (*x)[i] = n == 1 ? 0.5 : (double)i;
            (*y)[i] = 0.5;
        }
        return SSCHED_OK;
    }
    /* igraph's default handler aborts the process: ours must return */
    igraph_error_handler_t *old = igraph_set_error_handler(igraph_error_handler_ignore);
    igraph_t g;
    igraph_vector_int_t edges;
    igraph_matrix_t pos;
    int ok = igraph_vector_int_init(&edges, (igraph_integer_t)(2 * p->n_edges)) == IGRAPH_SUCCESS;
    if (ok) {
        for (size_t e = 0; e < p->n_edges; e++) {
            VECTOR(edges)[2 * e] = (igraph_integer_t)p->from[e];
            VECTOR(edges)[2 * e + 1] = (igraph_integer_t)p->to[e];
        }
        ok = igraph_create(&g, &edges, (igraph_integer_t)n, IGRAPH_UNDIRECTED) == IGRAPH_SUCCESS;
        igraph_vector_int_destroy(&edges);
    }
    if (ok) {
        ok = igraph_matrix_init(&pos, 0, 0) == IGRAPH_SUCCESS;
        /* the default of igraph's documentation: kkconst = vcount, 50 vcount
         * iterations, from a circle (use_seed = false) */
        if (ok && n <= SSCHED_I_REPORT_KK_MAX_NODES)
            ok = igraph_layout_kamada_kawai(&g, &pos, 0, (igraph_integer_t)(50 * n), 0,
                                            (igraph_real_t)n, NULL, NULL, NULL, NULL,
                                            NULL) == IGRAPH_SUCCESS;
        else if (ok) /* seeded from a circle: deterministic, no RNG */
            ok = igraph_layout_circle(&g, &pos, igraph_vss_all()) == IGRAPH_SUCCESS &&
                 spread(&pos, sqrt((double)n)) &&
                 igraph_layout_fruchterman_reingold(
                         &g, &pos, 1, SSCHED_I_REPORT_FR_ITERATIONS, sqrt((double)n),
                         IGRAPH_LAYOUT_GRID, NULL, NULL, NULL, NULL, NULL) == IGRAPH_SUCCESS;
        igraph_destroy(&g);
    }
    igraph_set_error_handler(old);
    if (!ok) {
        free(*x);
        free(*y);
        *x = *y = NULL;
        return ssched_error_set(err, SSCHED_EINTERNAL, "report: the platform layout failed");
    }
    double x0 = MATRIX(pos, 0, 0), x1 = x0, y0 = MATRIX(pos, 0, 1), y1 = y0;
    for (size_t i = 0; i < n; i++) {
        double a = MATRIX(pos, i, 0), b = MATRIX(pos, i, 1);
        x0 = a < x0 ? a : x0;
        x1 = a > x1 ? a : x1;
        y0 = b < y0 ? b : y0;
        y1 = b > y1 ? b : y1;
    }
    for (size_t i = 0; i < n; i++) {
        (*x)[i] = x1 > x0 ? (MATRIX(pos, i, 0) - x0) / (x1 - x0) : 0.5;
        (*y)[i] = y1 > y0 ? (MATRIX(pos, i, 1) - y0) / (y1 - y0) : 0.5;
    }
    igraph_matrix_destroy(&pos);
    return SSCHED_OK;
}
