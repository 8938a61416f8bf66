/* Reading the certified commutative master back as a steady-state solution
 * (colgen_comm.h).  THE OUTPUT CONTRACT of a commutative reduce
 * (pb->commutative, method = SSCHED_METHOD_COLGEN):
 *
 *  throughput      the exact master optimum: certified achievable (the
 *                  rated trees below realise it); upper_bound >= it,
 *                  optimal = (upper_bound == throughput), cg_pricing_exact
 *                  = 1 when the last exact pricing proved that no tree
 *                  improves the master (then upper_bound == throughput).
 *                  Both are about the column class of colgen_comm.h
 *                  (a node plays at most two roles: its own value's and
 *                  one merge point); when pricing is not exact the bound
 *                  (Farley's or the relaxation LP's) covers that class, and
 *                  the relaxation LP's covers every reduction tree.
 *  rated_trees,    every master tree with a nonzero rate (reductions per
 *  tree_rates      time unit; they sum to throughput).  Each is an
 *                  ssched_tree_t in the ORDERED task form of the ordered
 *                  colgen (lp/colgen_result.c): tasks in pre-order from the
 *                  root task (the one producing [0,N-1] on the target),
 *                  `parent` / `depth` set, a compute task T_{k,l,m} on
 *                  `node` merging [k,l] and [l+1,m] (both present on node),
 *                  a send task carrying [k,m] over `edge` to p->to[edge]
 *                  (produced on p->from[edge] by its child task, or, for
 *                  k == m, the participant order[k]'s own value when
 *                  p->from[edge] is that participant's node).  tree->order
 *                  (N entries) maps positions to participant indices: the
 *                  participants in the tree's depth-first order, so that
 *                  every partial result is an interval [k,m] = the set
 *                  {order[k..m]}.  weight is 0 (unused, as in the ordered
 *                  colgen).  A tree makes exactly N-1 merges.
 *  flows           per edge with a nonzero rate: messages (partial results of
 *                  any set) per time unit over the edge, type 0, sorted by
 *                  edge; out/in/link busy = sum of rate*size*c as usual.
 *  n_intervals,    0 / NULL: a commutative message is a set, not an interval
 *  intervals,      of the problem's order; n_tasks = 0 (merges are per tree,
 *  tasks           in rated_trees); compute_busy[v] = w(v) * merges on v
 *                  per time unit.
 *  prices          out/in/compute/link_price: the exact master duals.
 *  unreachable     per participant: cannot reach the target (then TP = 0).
 *
 * ssched_trees_from_rates (trees/extract.c) scales the rates by the LCM of
 * the denominators of TP, every flow rate and busy time and every tree rate,
 * as for the ordered colgen. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "lp/internal.h"
#include "src/util/internal.h"

typedef struct {
    const cgc_graph_t *g;
    const cgc_tree_t *t;
    size_t *first, *next;   /* children lists, by vertex index           */
    size_t *lo, *hi;        /* the interval of each vertex's subtree     */
    size_t pos;
    ssched_tree_t *out;
} build_t;

/* Positions: a vertex's own value, then its children's subtrees. */
static void assign(build_t *b, size_t v)
{
    b->lo[v] = b->pos;
    if (v < b->g->N)
        b->out->order[b->pos++] = v;
    for (size_t c = b->first[v]; c != SIZE_MAX; c = b->next[c])
        assign(b, c);
    b->hi[v] = b->pos - 1;
}

static size_t emit(build_t *b, ssched_tree_task_t task)
{
    b->out->tasks[b->out->n_tasks] = task;
    return b->out->n_tasks++;
}

static void emit_vertex(build_t *b, size_t v, size_t parent, size_t depth);

/* The partial of child c arriving at its parent's node: its path's sends,
 * last hop first, then what c itself does. */
static void emit_arrival(build_t *b, size_t c, size_t parent, size_t depth)
{
    const cgc_tree_t *t = b->t;
    for (size_t k = t->off[c + 1]; k-- > t->off[c];)
        parent = emit(b, (ssched_tree_task_t){SSCHED_TREE_SEND, t->edges[k], 0, b->lo[c], 0,
                                              b->hi[c], parent, depth++});
    emit_vertex(b, c, parent, depth);
}

/* Operand j of vertex v (its own value first when it has one, then its
 * children) merged onto the operands before it. */
static void emit_prefix(build_t *b, size_t v, size_t j, size_t parent, size_t depth)
{
    size_t own = v < b->g->N, c = b->first[v];
    for (size_t x = own; x < j; x++)
        c = b->next[c];
    /* c: operand j's vertex unless j is the own value */
    if (j == 0) {
        if (!own)
            emit_arrival(b, c, parent, depth);
        return;
    }
    size_t me = emit(b, (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, b->g->node[v], b->lo[v],
                                             b->lo[c] - 1, b->hi[c], parent, depth});
    emit_prefix(b, v, j - 1, me, depth + 1);
    emit_arrival(b, c, me, depth + 1);
}

static void emit_vertex(build_t *b, size_t v, size_t parent, size_t depth)
{
    size_t q = v < b->g->N;
    for (size_t c = b->first[v]; c != SIZE_MAX; c = b->next[c])
        q++;
    if (q)
        emit_prefix(b, v, q - 1, parent, depth);
}

/* The tree as an ssched_tree_t (see the contract above).  0 on ENOMEM. */
static int to_tree(const cgc_graph_t *g, const cgc_tree_t *t, ssched_tree_t *out)
{
    size_t nv = t->nv, total = t->off[nv] + g->N - 1;
    memset(out, 0, sizeof *out);
    mpz_init(out->weight);
    out->tasks = ssched_i_alloc(total, sizeof *out->tasks);
    out->order = malloc(g->N * sizeof *out->order);
    size_t *w = malloc(4 * nv * sizeof *w);
    if (!out->tasks || !out->order || !w) {
        free(w);
        return 0;
    }
    build_t b = {g, t, w, w + nv, w + 2 * nv, w + 3 * nv, 0, out};
    for (size_t v = 0; v < nv; v++)
        b.first[v] = b.next[v] = SIZE_MAX;
    for (size_t v = nv; v-- > 0;) /* children in increasing vertex order */
        if (t->parent[v] != SIZE_MAX) {
            b.next[v] = b.first[t->parent[v]];
            b.first[t->parent[v]] = v;
        }
    assign(&b, g->root);
    emit_vertex(&b, g->root, SIZE_MAX, 0);
    free(w);
    return 1;
}

ssched_status_t ssched_i_cgc_interpret(const cgc_graph_t *g, const cg_master_t *m, const cgc_tree_t *trees,
                              ssched_steady_t *out, ssched_error_t *err)
{
    const ssched_platform_t *p = g->p;
    size_t n = g->n, ne = g->ne;
    const ssched_lp_solution_t *sol = &out->lp;
    mpq_set(out->throughput, sol->objective);
    int vectors = ssched_i_steady_resources(out, n, ne);
    mpq_t *rate = ssched_i_mpq_vec_new(ne);
    size_t nc = m->n_cols ? m->n_cols : 1;
    out->flows = ssched_i_alloc(ne, sizeof *out->flows);
    out->rated_trees = calloc(nc, sizeof *out->rated_trees);
    out->tree_rates = malloc(nc * sizeof *out->tree_rates);
    ssched_status_t st = SSCHED_OK;
    if (!vectors || !rate || !out->flows || !out->rated_trees || !out->tree_rates)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t q;
    mpq_init(q);
    for (size_t k = 0; k < m->n_cols && st == SSCHED_OK; k++) {
        mpq_srcptr y = sol->x[k];
        if (mpq_sgn(y) == 0)
            continue;
        const cg_column_t *c = &m->cols[k];
        for (size_t x = 0; x < c->n_sends; x++)
            mpq_add(rate[c->send_edge[x]], rate[c->send_edge[x]], y);
        for (size_t x = 0; x < c->n_merges; x++) {
            size_t v = c->merge_node[x];
            mpq_mul(q, y, p->w[v]);
            mpq_add(out->compute_busy[v], out->compute_busy[v], q);
        }
        ssched_tree_t *t = &out->rated_trees[out->n_rated_trees];
        if (!to_tree(g, &trees[k], t)) {
            mpz_clear(t->weight);
            free(t->tasks);
            free(t->order);
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        mpq_init(out->tree_rates[out->n_rated_trees]);
        mpq_set(out->tree_rates[out->n_rated_trees++], y);
    }
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        if (mpq_sgn(rate[e]) == 0)
            continue;
        ssched_flow_t *f = &out->flows[out->n_flows++];
        f->edge = e;
        f->type = 0;
        mpq_init(f->rate);
        mpq_set(f->rate, rate[e]);
        mpq_mul(q, rate[e], g->sc[e]);
        ssched_i_cg_add_busy(p, out, e, q);
    }
    if (st == SSCHED_OK)
        st = ssched_i_cg_set_prices(m, sol, out, err);
    mpq_clear(q);
    for (size_t e = 0; rate && e < ne; e++)
        mpq_clear(rate[e]);
    free(rate);
    return st;
}
