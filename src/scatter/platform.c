/* Scatter platforms: processors with their cost functions, the data holder,
 * and the arrangement (root last, sending order, relay costs of section 3.4)
 * that the algorithms schedule. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "src/scatter/internal.h"
#include "src/util/enum_names.h"

void ssched_sb_platform_init(ssched_sb_platform_t *pl)
{
    memset(pl, 0, sizeof *pl);
}

void ssched_sb_platform_free(ssched_sb_platform_t *pl)
{
    if (!pl)
        return;
    for (size_t i = 0; i < pl->p; i++) {
        free(pl->procs[i].name);
        ssched_sb_cost_free(&pl->procs[i].comm);
        ssched_sb_cost_free(&pl->procs[i].comp);
    }
    free(pl->procs);
    memset(pl, 0, sizeof *pl);
}

long ssched_sb_platform_find(const ssched_sb_platform_t *pl, const char *name)
{
    for (size_t i = 0; i < pl->p; i++)
        if (!strcmp(pl->procs[i].name, name))
            return (long)i;
    return -1;
}

ssched_status_t ssched_sb_platform_add(ssched_sb_platform_t *pl, const char *name,
                                       const ssched_sb_cost_t *comm,
                                       const ssched_sb_cost_t *comp, ssched_error_t *err)
{
    if (!name || !name[0])
        return ssched_error_set(err, SSCHED_EINPUT, "empty processor name");
    if (ssched_sb_platform_find(pl, name) >= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "duplicate processor name '%s'", name);
    if (pl->p == pl->cap) {
        size_t cap = pl->cap ? 2 * pl->cap : 16;
        ssched_sb_proc_t *np = realloc(pl->procs, cap * sizeof *np);
        if (!np)
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for processors");
        pl->procs = np;
        pl->cap = cap;
    }
    ssched_sb_proc_t *pr = &pl->procs[pl->p];
    pr->name = strdup(name);
    if (!pr->name)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for processors");
    ssched_status_t st = ssched_sb_cost_init_copy(&pr->comm, comm, err);
    if (st == SSCHED_OK)
        st = ssched_sb_cost_init_copy(&pr->comp, comp, err);
    else
        ssched_i_sb_cost_init_zero(&pr->comp);
    if (st != SSCHED_OK) {
        free(pr->name);
        ssched_sb_cost_free(&pr->comm);
        ssched_sb_cost_free(&pr->comp);
        return st;
    }
    pl->p++;
    return SSCHED_OK;
}

static int cost_is_zero(const ssched_sb_cost_t *f)
{
    if (f->kind == SSCHED_SB_COST_AFFINE)
        return mpq_sgn(f->slope) == 0 && mpq_sgn(f->offset) == 0;
    for (size_t k = 0; k < f->n_points; k++)
        if (mpq_sgn(f->ys[k]) != 0)
            return 0;
    return 1;
}

size_t ssched_sb_platform_holder(const ssched_sb_platform_t *pl)
{
    for (size_t i = 0; i < pl->p; i++)
        if (cost_is_zero(&pl->procs[i].comm))
            return i;
    return 0;
}

ssched_sb_costs_t ssched_sb_platform_costs(const ssched_sb_platform_t *pl)
{
    ssched_sb_costs_t k = SSCHED_SB_LINEAR;
    for (size_t i = 0; i < pl->p; i++) {
        const ssched_sb_cost_t *f[2] = {&pl->procs[i].comm, &pl->procs[i].comp};
        for (int j = 0; j < 2; j++) {
            if (f[j]->kind == SSCHED_SB_COST_TABLE)
                return SSCHED_SB_GENERAL;
            if (!ssched_sb_cost_is_linear(f[j]))
                k = SSCHED_SB_AFFINE;
        }
    }
    return k;
}

typedef struct {
    mpq_t key;
    size_t idx;
    int sign; /* +1 ascending key, -1 descending */
} order_key_t;

/* Ties keep the file order, whatever the direction, so the policy is a
 * stable sort. */
static int cmp_order_key(const void *a, const void *b)
{
    const order_key_t *x = a, *y = b;
    int c = mpq_cmp(x->key, y->key) * x->sign;
    if (c)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Cost of P_j's reception when the root is R, under the relay model: the
 * file's costs are measured from the holder, so R -> j crosses R's path and
 * j's path (R -> R is free).  With R the holder, the file's costs as they
 * are. */
static ssched_status_t arranged_comm(const ssched_sb_platform_t *pl, size_t holder, size_t root,
                                     size_t j, ssched_sb_cost_t *out, ssched_error_t *err)
{
    if (root == holder)
        return ssched_sb_cost_init_copy(out, &pl->procs[j].comm, err);
    if (j == root) {
        ssched_i_sb_cost_init_zero(out);
        return SSCHED_OK;
    }
    return ssched_sb_cost_init_sum(out, &pl->procs[j].comm, &pl->procs[root].comm, err);
}

ssched_status_t ssched_sb_arrange(const ssched_sb_platform_t *pl, size_t holder, size_t root,
                                  ssched_sb_order_t order, long n, ssched_sb_platform_t *out,
                                  mpq_t pre_transfer, ssched_error_t *err)
{
    if (pl->p == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "no processors");
    if (root >= pl->p || holder >= pl->p)
        return ssched_error_set(err, SSCHED_EINPUT, "root or holder index out of range");
    if (n < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "negative number of items (%ld)", n);
    mpq_set_ui(pre_transfer, 0, 1);
    if (root != holder) {
        const ssched_sb_cost_t *rc = &pl->procs[root].comm;
        if (ssched_sb_cost_domain(rc) < n)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "processor '%s': its comm table stops at %ld items, fewer "
                                    "than the %ld to bring to it as root",
                                    pl->procs[root].name, ssched_sb_cost_domain(rc), n);
        ssched_sb_cost_eval(pre_transfer, rc, n);
    }

    size_t p = pl->p, m = 0;
    ssched_sb_cost_t *comm = calloc(p, sizeof *comm);
    order_key_t *keys = calloc(p, sizeof *keys);
    if (!comm || !keys) {
        free(comm);
        free(keys);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory arranging processors");
    }
    ssched_status_t st = SSCHED_OK;
    size_t built = 0;
    for (; built < p && st == SSCHED_OK; built++)
        st = arranged_comm(pl, holder, root, built, &comm[built], err);
    for (size_t j = 0; j < p && st == SSCHED_OK; j++) {
        if (j == root)
            continue;
        mpq_init(keys[m].key);
        keys[m].idx = j;
        keys[m].sign = order == SSCHED_SB_ORDER_BANDWIDTH_ASC ? -1 : 1;
        m++;
        if (order == SSCHED_SB_ORDER_GIVEN)
            continue;
        if (ssched_sb_cost_domain(&comm[j]) < n)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "processor '%s': its comm table stops at %ld items, fewer "
                                  "than the %ld scattered",
                                  pl->procs[j].name, ssched_sb_cost_domain(&comm[j]), n);
        else
            ssched_sb_cost_eval(keys[m - 1].key, &comm[j], n);
    }
    if (st == SSCHED_OK && order != SSCHED_SB_ORDER_GIVEN)
        qsort(keys, m, sizeof *keys, cmp_order_key);
    for (size_t k = 0; k <= m && st == SSCHED_OK; k++) {
        size_t j = k < m ? keys[k].idx : root;
        st = ssched_sb_platform_add(out, pl->procs[j].name, &comm[j], &pl->procs[j].comp, err);
    }
    for (size_t k = 0; k < m; k++)
        mpq_clear(keys[k].key);
    for (size_t j = 0; j < built; j++)
        ssched_sb_cost_free(&comm[j]);
    free(keys);
    free(comm);
    return st;
}

SSCHED_I_ENUM_FUNCTIONS(sb_cost_kind, ssched_sb_cost_kind_t, "cost kind", "affine", "table")

SSCHED_I_ENUM_FUNCTIONS(sb_costs, ssched_sb_costs_t, "cost class", "linear", "affine", "general")

SSCHED_I_ENUM_FUNCTIONS(sb_order, ssched_sb_order_t, "order", "given", "bandwidth-desc",
                        "bandwidth-asc")

SSCHED_I_ENUM_FUNCTIONS(sb_algorithm, ssched_sb_algorithm_t, "algorithm", "dp", "dp-fast", "exact",
                        "lp", "closed-form", "uniform")
