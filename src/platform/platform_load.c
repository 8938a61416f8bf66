/* ssched_platform_load(): GraphML or GML, with times read directly or
 * derived from bandwidths and speeds (ssched/platform.h). */
#include <string.h>
#include <strings.h>

#include "src/platform/platform_internal.h"
#include "src/util/enum_names.h"

void ssched_platform_read_options_default(ssched_platform_read_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
}

/* value := scale / value for every entry (each already checked > 0 by the
 * readers: a bandwidth or speed of 0 is refused there). */
static void invert(mpq_t *v, size_t n, const int *present, mpq_srcptr scale)
{
    for (size_t i = 0; i < n; i++) {
        if (present && !present[i])
            continue;
        mpq_inv(v[i], v[i]);
        if (scale)
            mpq_mul(v[i], v[i], scale);
    }
}

ssched_status_t ssched_platform_load(ssched_platform_t *p, const char *path,
                                     const ssched_platform_read_options_t *opt,
                                     ssched_error_t *err)
{
    ssched_platform_read_options_t defaults;
    if (!opt) {
        ssched_platform_read_options_default(&defaults);
        opt = &defaults;
    }
    if ((opt->unit_bytes && mpq_sgn(opt->unit_bytes) <= 0) ||
        (opt->flops_per_task && mpq_sgn(opt->flops_per_task) <= 0))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "%s: the unit message size and the work per task must be positive",
                                path);
    /* SimGrid and matrix files carry bandwidths and speeds themselves */
    ssched_platform_format_t format = ssched_i_platform_detect(path, opt->format);
    if (format == SSCHED_PLATFORM_SIMGRID || format == SSCHED_PLATFORM_MATRIX) {
        if (opt->cost_from || opt->speed_from || opt->latency_from)
            return ssched_error_set(err, SSCHED_EINPUT, "%s: --cost-from, --speed-from and "
                                    "--latency-from name GraphML or GML attributes; a %s file "
                                    "gives bandwidths, latencies and speeds itself", path,
                                    ssched_platform_format_name(format));
        ssched_status_t st =
            format == SSCHED_PLATFORM_SIMGRID
                ? ssched_i_simgrid_read(p, path, opt->unit_bytes, opt->flops_per_task, err)
                : ssched_i_matrix_read(p, path, opt->unit_bytes, opt->flops_per_task, err);
        if (st == SSCHED_OK)
            p->seconds = 1; /* bandwidths in bytes per second, latencies in seconds */
        return st;
    }
    if (opt->speed && (opt->speed_from || mpq_sgn(opt->speed) <= 0))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "%s: a uniform speed (--speed) must be positive and replaces "
                                "--speed-from", path);
    /* a latency in seconds needs times in seconds: those of --cost-from */
    if (opt->latency_from && !opt->cost_from)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "%s: a latency attribute (--latency-from %s) is in seconds and "
                                "needs the costs from bandwidths (--cost-from ATTR), whose time "
                                "unit is the second", path, opt->latency_from);
    ssched_i_attrs_t a = {opt->speed_from ? opt->speed_from : "w",
                          opt->cost_from ? opt->cost_from : "c",
                          opt->latency_from ? opt->latency_from : "l",
                          opt->cost_from != NULL, opt->speed_from != NULL,
                          opt->latency_from != NULL, opt->skip_missing_cost, opt->names_from};
    ssched_platform_t tmp;
    ssched_platform_init(&tmp);
    ssched_status_t st = ssched_i_platform_read_attrs(&tmp, path, opt->format, &a, err);
    if (st == SSCHED_OK) {
        if (opt->cost_from) {
            invert(tmp.c, tmp.n_edges, NULL, opt->unit_bytes);
            tmp.seconds = 1; /* bytes per second in, seconds out */
        }
        if (opt->speed_from)
            invert(tmp.w, tmp.n_nodes, tmp.has_w, opt->flops_per_task);
        if (opt->speed) /* every node computes a task in F / S */
            for (size_t i = 0; i < tmp.n_nodes; i++) {
                tmp.has_w[i] = 1;
                mpq_inv(tmp.w[i], opt->speed);
                if (opt->flops_per_task)
                    mpq_mul(tmp.w[i], tmp.w[i], opt->flops_per_task);
            }
        ssched_platform_free(p);
        *p = tmp;
    } else {
        ssched_platform_free(&tmp);
    }
    return st;
}

ssched_platform_format_t ssched_i_platform_detect(const char *path,
                                                  ssched_platform_format_t format)
{
    if (format != SSCHED_PLATFORM_AUTO)
        return format;
    size_t n = strlen(path);
    if (n >= 4 && !strcasecmp(path + n - 4, ".csv"))
        return SSCHED_PLATFORM_MATRIX;
    return ssched_i_looks_like_simgrid(path) ? SSCHED_PLATFORM_SIMGRID : SSCHED_PLATFORM_AUTO;
}

ssched_platform_format_t ssched_platform_format_of(const char *path,
                                                   ssched_platform_format_t format)
{
    return ssched_i_platform_detect(path, format);
}

SSCHED_I_ENUM_FUNCTIONS(platform_format, ssched_platform_format_t, "platform format", "auto",
                        "graphml", "gml", "simgrid", "matrix")
