/* libFuzzer harness: the scatter-balance platform CSV reader
 * (ssched_sb_platform_read_csv, the stream behind _load_csv).
 *
 * Properties: no crash, leak or UB; the status is OK or EINPUT with a
 * message; a loaded platform has at least one processor with unique
 * non-empty names and valid cost functions (tables start at 0 items and
 * rise strictly, every value >= 0), and evaluating a small uniform
 * distribution through the costs works. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/scatter_balance.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_cost(const ssched_sb_cost_t *f)
{
    if (f->kind == SSCHED_SB_COST_AFFINE) {
        if (mpq_sgn(f->slope) < 0 || mpq_sgn(f->offset) < 0)
            abort();
        return;
    }
    if (f->n_points < 1 || f->xs[0] != 0)
        abort();
    for (size_t k = 0; k < f->n_points; k++) {
        if (mpq_sgn(f->ys[k]) < 0)
            abort();
        if (k > 0 && f->xs[k] <= f->xs[k - 1])
            abort();
    }
    if (ssched_sb_cost_domain(f) != f->xs[f->n_points - 1])
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 64 * 1024)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    ssched_sb_platform_t pl;
    ssched_sb_platform_init(&pl);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_sb_platform_read_csv(&pl, in, "fuzz.csv", &err);
    fclose(in);
    if (st == SSCHED_OK) {
        if (pl.p < 1)
            abort();
        long dom = 10;
        for (size_t i = 0; i < pl.p; i++) {
            if (!pl.procs[i].name || !pl.procs[i].name[0])
                abort();
            for (size_t j = 0; j < i; j++)
                if (!strcmp(pl.procs[i].name, pl.procs[j].name))
                    abort();
            check_cost(&pl.procs[i].comm);
            check_cost(&pl.procs[i].comp);
            long d = ssched_sb_cost_domain(&pl.procs[i].comm);
            if (d < dom)
                dom = d;
            d = ssched_sb_cost_domain(&pl.procs[i].comp);
            if (d < dom)
                dom = d;
        }
        if (ssched_sb_platform_holder(&pl) >= pl.p)
            abort();
        (void)ssched_sb_platform_costs(&pl);
        /* Every processor gets min(domain, 10) items: inside every table. */
        long *items = calloc(pl.p, sizeof *items);
        mpq_t makespan;
        mpq_init(makespan);
        if (!items)
            abort();
        for (size_t i = 0; i < pl.p; i++)
            items[i] = dom;
        if (ssched_sb_evaluate(&pl, items, makespan, NULL, NULL, &err) != SSCHED_OK ||
            mpq_sgn(makespan) < 0)
            abort();
        mpq_clear(makespan);
        free(items);
    } else if (st != SSCHED_EINPUT || err.message[0] == '\0') {
        abort();
    }
    ssched_sb_platform_free(&pl);
    return 0;
}
