/* libssched_pmpi: reading the plan directory at MPI_Init.
 *
 * Every rank reads the descriptors (NAME.plan.json, ssched-plan/1, as
 * `ssched plan` writes them); the ranks agree on the verdict (an
 * all-reduce) so that they all take the same plans or none, and every
 * plan's setup (ssched_mpi_setup_file, collective) is entered by all. */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/mpi/internal.h"
#include "src/pmpi/pmpi_internal.h"

typedef struct {
    pmpi_plan_t plan;
    char *schedule, *map;      /* paths */
    double flops;
} desc_t;

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Descriptor `name` in dir into d; 0 and why in `why` if malformed. */
static int read_desc(const char *dir, const char *name, desc_t *d, char *why, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        return snprintf(why, len, "%.512s:%d: %s", path, je.line, je.text), 0;
    const char *fmt = NULL, *coll = NULL, *sched = NULL, *map = NULL;
    json_int_t size = 0, root = 0, dts = 0, bmin = 0, bmax = 0, seg = 0, K = 0, unit = 0;
    int comm = 0;
    double flops = 1;
    int ok = !json_unpack_ex(j, &je, 0,
                             "{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:s, s:s,"
                             " s?:F}",
                             "format", &fmt, "collective", &coll, "comm_size", &size, "root",
                             &root, "datatype_size", &dts, "bytes_min", &bmin, "bytes_max", &bmax,
                             "segment_bytes", &seg, "segments", &K, "unit_bytes", &unit,
                             "commutative", &comm, "schedule", &sched, "map", &map,
                             "flops_per_task", &flops);
    if (!ok)
        snprintf(why, len, "%.512s: %s", path, je.text);
    else if (strcmp(fmt, "ssched-plan/1"))
        ok = 0, snprintf(why, len, "%.512s: format '%s' is not ssched-plan/1", path, fmt);
    else if (strcmp(coll, "bcast") && strcmp(coll, "reduce") && strcmp(coll, "allreduce"))
        ok = 0, snprintf(why, len, "%.512s: unknown collective '%s'", path, coll);
    else if (size < 1 || root < 0 || root >= size || dts < 1 || seg < 1 || seg % dts ||
             bmin != bmax || bmin < 1 || bmin % dts || K != (bmin + seg - 1) / seg || unit != seg ||
             !(flops > 0) || strchr(sched, '/') || strchr(map, '/'))
        ok = 0, snprintf(why, len, "%.512s: inconsistent numbers or file names", path);
    if (ok) {
        d->plan.coll = !strcmp(coll, "bcast") ? PMPI_BCAST
                       : !strcmp(coll, "reduce") ? PMPI_REDUCE : PMPI_ALLREDUCE;
        d->plan.comm_size = (int)size;
        d->plan.root = (int)root;
        d->plan.dtsize = (size_t)dts;
        d->plan.bytes = (size_t)bmin;
        d->plan.seg = (size_t)seg;
        d->plan.K = (size_t)K;
        d->plan.commutative = comm;
        d->flops = flops;
        size_t n = strlen(dir) + 2;
        d->schedule = malloc(n + strlen(sched));
        d->map = malloc(n + strlen(map));
        if (d->schedule && d->map) {
            sprintf(d->schedule, "%s/%s", dir, sched);
            sprintf(d->map, "%s/%s", dir, map);
        } else {
            ok = 0, snprintf(why, len, "out of memory");
        }
    }
    json_decref(j);
    return ok;
}

/* The descriptors of dir, sorted by name; 0 and why on any error. */
static int read_dir(const char *dir, desc_t **out, size_t *n, char *why, size_t len)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return snprintf(why, len, "SSCHED_PLANS=%.512s: cannot open the directory", dir), 0;
    char **names = NULL;
    size_t cnt = 0, cap = 0;
    int ok = 1;
    struct dirent *e;
    while (ok && (e = readdir(dp))) {
        size_t l = strlen(e->d_name);
        if (l <= 10 || strcmp(e->d_name + l - 10, ".plan.json"))
            continue;
        if (cnt == cap) {
            cap = cap ? 2 * cap : 8;
            char **g = realloc(names, cap * sizeof *g);
            if (!g) {
                ok = 0;
                break;
            }
            names = g;
        }
        if (!(names[cnt] = strdup(e->d_name)))
            ok = 0;
        else
            cnt++;
    }
    closedir(dp);
    if (!ok)
        snprintf(why, len, "out of memory");
    else if (cnt)
        qsort(names, cnt, sizeof *names, cmp_names);
    desc_t *d = ok && cnt ? calloc(cnt, sizeof *d) : NULL;
    if (ok && cnt && !d)
        ok = 0, snprintf(why, len, "out of memory");
    for (size_t k = 0; ok && k < cnt; k++)
        ok = read_desc(dir, names[k], &d[k], why, len);
    for (size_t k = 0; k < cnt; k++)
        free(names[k]);
    free(names);
    if (!ok && d) {
        for (size_t k = 0; k < cnt; k++)
            free(d[k].schedule), free(d[k].map);
        free(d);
        d = NULL;
    }
    *out = d;
    *n = ok ? cnt : 0;
    return ok;
}

void ssched_i_pmpi_load(pmpi_state_t *s)
{
    s->plans = NULL;
    s->n = 0;
    s->comm = MPI_COMM_NULL;
    const char *dir = getenv("SSCHED_PLANS");
    if (!dir)
        return;
    int rank, size;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    char why[1024] = "";
    desc_t *d = NULL;
    size_t n = 0;
    int ok = read_dir(dir, &d, &n, why, sizeof why), all;
    /* every rank takes the plans, or none does */
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        if (rank == 0)
            fprintf(stderr, "libssched_pmpi: %s; plain MPI\n",
                    ok ? "a rank could not read the plans" : why);
        for (size_t k = 0; k < n; k++)
            free(d[k].schedule), free(d[k].map);
        free(d);
        return;
    }
    PMPI_Comm_dup(MPI_COMM_WORLD, &s->comm);
    s->plans = n ? calloc(n, sizeof *s->plans) : NULL;
    for (size_t k = 0; k < n; k++) {
        if (d[k].plan.comm_size != size || !s->plans)
            continue; /* (the same on every rank) */
        pmpi_plan_t *p = &s->plans[s->n];
        *p = d[k].plan;
        ssched_mpi_options_t opt;
        ssched_mpi_options_default(&opt);
        opt.unit_bytes = p->seg;
        opt.flops_per_task = d[k].flops;
        opt.map_file = d[k].map;
#ifdef SSCHED_SMPI
        /* SMPI: paced where the platform has latencies (the executor's
         * default), computations as simulated flops: the plan's time */
        opt.unit_seconds = -1;
#else
        /* a real MPI: as soon as possible, combines inline */
        opt.unit_seconds = 0;
#endif
        ssched_error_t err;
        ssched_error_clear(&err);
        ssched_mpi_init(&p->x);
        if (ssched_mpi_setup_file(&p->x, d[k].schedule, s->comm, &opt, &err) != SSCHED_OK) {
            if (rank == 0)
                fprintf(stderr, "libssched_pmpi: %s: %s; this plan is not used\n",
                        d[k].schedule, err.message);
            ssched_mpi_free(&p->x);
            continue;
        }
        /* the executor's messages are the plan's segments */
        if (p->x.msg_bytes != p->seg || p->x.operations != p->K) {
            if (rank == 0)
                fprintf(stderr, "libssched_pmpi: %s: %zu operations of %zu bytes, not the "
                        "descriptor's %zu of %zu; this plan is not used\n", d[k].schedule,
                        p->x.operations, p->x.msg_bytes, p->K, p->seg);
            ssched_mpi_free(&p->x);
            continue;
        }
        ssched_i_mpi_lean(&p->x); /* (collective: every rank keeps it) */
        s->n++;
    }
    for (size_t k = 0; k < n; k++)
        free(d[k].schedule), free(d[k].map);
    free(d);
}

void ssched_i_pmpi_unload(pmpi_state_t *s)
{
    for (size_t k = 0; k < s->n; k++)
        ssched_mpi_free(&s->plans[k].x);
    free(s->plans);
    s->plans = NULL;
    s->n = 0;
    /* (a state never loaded is all zero: no communicator) */
    if (s->comm != MPI_COMM_NULL && s->comm != (MPI_Comm)0)
        PMPI_Comm_free(&s->comm);
}
