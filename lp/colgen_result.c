/* Reading a certified column-generation master back as a steady-state
 * solution: rates, tasks, occupations, prices and the rated trees. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* The master's tree as an ssched_tree_t (tasks in pre-order from the root,
 * with parents), found by walking the column's own tasks from v[0,N-1] on
 * the target as FIND_TREE does.  1 on success, 0 if the column is not a
 * reduction tree, -1 when out of memory. */
static int column_to_tree(const cg_master_t *m, const ssched_steady_t *s, const cg_column_t *c,
                          ssched_tree_t *t)
{
    size_t N = m->pb->n_participants, total = c->n_sends + c->n_merges;
    memset(t, 0, sizeof *t);
    mpz_init(t->weight);
    t->tasks = ssched_i_alloc(total, sizeof *t->tasks);
    size_t *stack = malloc(3 * (total + 1) * sizeof *stack);
    if (!t->tasks || !stack) {
        free(stack);
        return -1;
    }
    size_t top = 0;
    /* entries: (k, m, node, parent, depth) packed in 5 slots */
    size_t *st5 = realloc(stack, 5 * (total + 1) * sizeof *st5);
    if (!st5) {
        free(stack);
        return -1;
    }
    stack = st5;
    stack[0] = 0; stack[1] = N - 1; stack[2] = m->pb->target; stack[3] = SIZE_MAX; stack[4] = 0;
    top = 1;
    int ok = 1;
    while (top && ok) {
        top--;
        size_t k = stack[5 * top], mm = stack[5 * top + 1], node = stack[5 * top + 2];
        size_t parent = stack[5 * top + 3], depth = stack[5 * top + 4];
        if (k == mm && m->pb->participants[k] == node)
            continue;
        int found = 0;
        for (size_t x = 0; x < c->n_merges && !found; x++)
            if (c->merge_node[x] == node && c->merge_k[x] == k && c->merge_m[x] == mm) {
                size_t l = c->merge_l[x], me = t->n_tasks;
                t->tasks[t->n_tasks++] = (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, node, k, l, mm,
                                                              parent, depth};
                size_t *e = stack + 5 * top;
                e[0] = l + 1; e[1] = mm; e[2] = node; e[3] = me; e[4] = depth + 1;
                e += 5;
                e[0] = k; e[1] = l; e[2] = node; e[3] = me; e[4] = depth + 1;
                top += 2;
                found = 1;
            }
        for (size_t x = 0; x < c->n_sends && !found; x++) {
            size_t e = c->send_edge[x], I = c->send_interval[x];
            if (m->p->to[e] == node && s->intervals[I].k == k && s->intervals[I].m == mm) {
                size_t me = t->n_tasks;
                t->tasks[t->n_tasks++] = (ssched_tree_task_t){SSCHED_TREE_SEND, e, 0, k, 0, mm,
                                                              parent, depth};
                size_t *f = stack + 5 * top;
                f[0] = k; f[1] = mm; f[2] = m->p->from[e]; f[3] = me; f[4] = depth + 1;
                top++;
                found = 1;
            }
        }
        if (!found || t->n_tasks > total)
            ok = 0;
    }
    free(stack);
    return ok && t->n_tasks == total;
}

/* Every type delivered exactly TP.  The master only asks TP <= sum of the
 * rates of a type's paths (a reduce's trees, within an all-reduce: TP <=
 * sum of the tree rates), so an optimal vertex may deliver a type more
 * (issue 24, 1b: 1.06x to 1.64x TP on random dense gossips), which no
 * periodic schedule of TP operations can hold.  Scaling that type's rates
 * by TP / delivered keeps the point certified: every capacity row has
 * nonnegative coefficients, so it only gets less busy; the type's row
 * becomes tight; the objective (TP) and the exact duals, hence the
 * certificate b'y = TP, are unchanged. */
static void deliver_exactly_tp(const cg_master_t *m, ssched_lp_solution_t *sol, size_t first_col)
{
    size_t groups = m->reduce ? 1 : m->n_types; /* a reduce: every tree is one result */
    mpq_t *sum = ssched_i_mpq_vec_new(groups);
    if (!sum)
        return; /* out of memory: interpret reports it on its own allocations */
    for (size_t k = 0; k < m->n_cols; k++)
        mpq_add(sum[m->reduce ? 0 : m->cols[k].type], sum[m->reduce ? 0 : m->cols[k].type],
                sol->x[first_col + k]);
    mpq_t f;
    mpq_init(f);
    for (size_t k = 0; k < m->n_cols; k++) {
        mpq_srcptr d = sum[m->reduce ? 0 : m->cols[k].type];
        if (mpq_cmp(d, sol->objective) <= 0 || mpq_sgn(sol->x[first_col + k]) == 0)
            continue;
        mpq_div(f, sol->objective, d);
        mpq_mul(sol->x[first_col + k], sol->x[first_col + k], f);
    }
    mpq_clear(f);
    ssched_i_mpq_vec_free(sum, groups);
}

/* One send of a column in use: key type * ne + edge (the dense ne x nt
 * array of rates it replaces held 16M rationals on a 3000-node scatter). */
typedef struct {
    size_t key, col;
} rate_ref_t;

static int rate_ref_cmp(const void *a, const void *b)
{
    const rate_ref_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/* Interpret the certified master: rates per (edge, type/interval), tasks,
 * port and processor occupation and prices, the rated trees. */
void ssched_i_cg_add_merges(const ssched_platform_t *p, const cg_column_t *c, mpq_srcptr lambda,
                            ssched_steady_t *out, mpq_t q)
{
    for (size_t x = 0; x < c->n_merges; x++) {
        size_t y;
        for (y = 0; y < out->n_tasks; y++)
            if (out->tasks[y].node == c->merge_node[x] && out->tasks[y].k == c->merge_k[x] &&
                out->tasks[y].l == c->merge_l[x] && out->tasks[y].m == c->merge_m[x])
                break;
        if (y == out->n_tasks) {
            out->tasks[y] = (ssched_task_t){.node = c->merge_node[x], .k = c->merge_k[x],
                                            .l = c->merge_l[x], .m = c->merge_m[x]};
            mpq_init(out->tasks[y].rate);
            out->n_tasks++;
        }
        mpq_add(out->tasks[y].rate, out->tasks[y].rate, lambda);
        mpq_mul(q, lambda, p->w[c->merge_node[x]]);
        mpq_add(out->compute_busy[c->merge_node[x]], out->compute_busy[c->merge_node[x]], q);
    }
}

void ssched_i_cg_add_busy(const ssched_platform_t *p, ssched_steady_t *out, size_t e, const mpq_t q)
{
    if (!cg_is_switch(p, p->from[e]))
        mpq_add(out->out_busy[p->from[e]], out->out_busy[p->from[e]], q);
    if (!cg_is_switch(p, p->to[e]))
        mpq_add(out->in_busy[p->to[e]], out->in_busy[p->to[e]], q);
    if (ssched_i_edge_tracks_load(p, e))
        mpq_add(out->link_busy[e], out->link_busy[e], q);
}

ssched_status_t ssched_i_cg_set_prices(const cg_master_t *m, const ssched_lp_solution_t *sol,
                                       ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = m->p;
    size_t n = p->n_nodes;
    for (size_t i = 0; i < n; i++) {
        if (!cg_is_switch(p, i)) { /* a switch's port rows are empty */
            mpq_set(out->out_price[i], sol->y[i]);
            mpq_set(out->in_price[i], sol->y[n + i]);
        }
        if (m->reduce && m->cpu_row[i] != SIZE_MAX)
            mpq_set(out->compute_price[i], sol->y[m->cpu_row[i]]);
    }
    for (size_t k = 0; k < m->nres; k++)
        if (m->link_row[k] != SIZE_MAX && !ssched_i_res_set_price(p, out, k, sol->y[m->link_row[k]]))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    return SSCHED_OK;
}

ssched_status_t ssched_i_cg_interpret(cg_master_t *m, ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = m->p;
    size_t n = m->n;
    size_t first_col = m->reduce ? 0 : 1; /* the TP column comes first */
    ssched_lp_solution_t *sol = &out->lp;
    deliver_exactly_tp(m, sol, first_col);
    mpq_set(out->throughput, sol->objective);
    size_t ne = p->n_edges, n_refs = 0, n_sends = 0;
    for (size_t k = 0; k < m->n_cols; k++)
        n_sends += m->cols[k].n_sends;
    rate_ref_t *refs = ssched_i_alloc(n_sends, sizeof *refs);
    /* links: busy time and price of the link row of an edge with a switch
     * end, 0 elsewhere, as in the edge LP (steady.c) */
    int vectors = ssched_i_steady_resources(out, n, ne);
    if (!refs || !vectors) {
        free(refs);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    size_t n_merges = 0;
    for (size_t k = 0; k < m->n_cols; k++)
        n_merges += m->cols[k].n_merges;
    out->tasks = ssched_i_alloc(n_merges, sizeof *out->tasks);
    if (m->reduce) {
        out->rated_trees = ssched_i_calloc(m->n_cols, sizeof *out->rated_trees);
        out->tree_rates = ssched_i_alloc(m->n_cols, sizeof *out->tree_rates);
    }
    if (!out->tasks || (m->reduce && (!out->rated_trees || !out->tree_rates))) {
        free(refs);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        mpq_srcptr lambda = sol->x[first_col + k];
        if (mpq_sgn(lambda) == 0)
            continue;
        const cg_column_t *c = &m->cols[k];
        for (size_t x = 0; x < c->n_sends; x++) {
            size_t e = c->send_edge[x], ty = m->reduce ? c->send_interval[x] : c->type;
            refs[n_refs++] = (rate_ref_t){ty * ne + e, first_col + k};
        }
        ssched_i_cg_add_merges(p, c, lambda, out, q);
        if (m->reduce) {
            ssched_tree_t *t = &out->rated_trees[out->n_rated_trees];
            int made = column_to_tree(m, out, c, t);
            if (made <= 0) {
                mpz_clear(t->weight);
                free(t->tasks);
                free(t->order);
                st = made < 0 ? ssched_error_set(err, SSCHED_ENOMEM, "out of memory")
                              : ssched_error_set(err, SSCHED_EINTERNAL,
                                                 "a generated tree is not a reduction tree");
                break;
            }
            mpq_init(out->tree_rates[out->n_rated_trees]);
            mpq_set(out->tree_rates[out->n_rated_trees++], lambda);
        }
    }
    qsort(refs, n_refs, sizeof *refs, rate_ref_cmp);
    size_t n_keys = 0;
    for (size_t r = 0; r < n_refs; r++)
        n_keys += r == 0 || refs[r].key != refs[r - 1].key;
    out->flows = ssched_i_alloc(n_keys, sizeof *out->flows);
    if (!out->flows && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t r = 0, r2; r < n_refs && st == SSCHED_OK; r = r2) {
        size_t k = refs[r].key;
        ssched_flow_t *f = &out->flows[out->n_flows++];
        f->edge = k % ne;
        f->type = k / ne;
        mpq_init(f->rate);
        for (r2 = r; r2 < n_refs && refs[r2].key == k; r2++)
            mpq_add(f->rate, f->rate, sol->x[refs[r2].col]);
        mpq_mul(q, f->rate, p->c[f->edge]);
        mpq_mul(q, q, m->pb->size);
        ssched_i_cg_add_busy(p, out, f->edge, q);
    }
    if (out->flows)
        qsort(out->flows, out->n_flows, sizeof *out->flows, ssched_i_lp_flow_by_edge_then_type);
    if (st == SSCHED_OK)
        st = ssched_i_cg_set_prices(m, sol, out, err);
    free(refs);
    mpq_clear(q);
    return st;
}
