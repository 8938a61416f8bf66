/* EXTRACT_TREES / FIND_TREE (RR-4872 Fig. 8) and the exactness check. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/check_report.h"
#include "src/util/internal.h"
#include "trees/internal.h"

void ssched_trees_init(ssched_trees_t *t)
{
    memset(t, 0, sizeof *t);
    mpz_inits(t->period, t->ops_per_period, NULL);
}

void ssched_trees_free(ssched_trees_t *t)
{
    for (size_t k = 0; k < t->n_trees; k++) {
        mpz_clear(t->trees[k].weight);
        free(t->trees[k].tasks);
        free(t->trees[k].order);
    }
    free(t->trees);
    mpz_clears(t->period, t->ops_per_period, NULL);
    memset(t, 0, sizeof *t);
}

/* The type of v[k,m] in s (numbered by ssched_interval_index), SIZE_MAX
 * when s does not list it there. */
static size_t interval_of(const ssched_steady_t *s, size_t N, size_t k, size_t m)
{
    size_t I = ssched_interval_index(N, k, m);
    return I < s->n_intervals && s->intervals[I].k == k && s->intervals[I].m == m ? I : SIZE_MAX;
}

typedef struct {
    size_t k, m, node, parent, depth;
} input_t;

/* FIND_TREE: explain v[0,N-1] on the target by positive tasks of sol. */
static ssched_status_t find_tree(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_steady_t *s, const tr_solution_t *sol,
                                 ssched_tree_t *tree, size_t **refs, ssched_error_t *err)
{
    size_t N = pb->n_participants;
    /* a tree has at most N-1 computations and, per interval, a simple path */
    size_t cap = (2 * N - 1) * (p->n_nodes + 1);
    input_t *stack = malloc(cap * sizeof *stack);
    tree->tasks = malloc(cap * sizeof *tree->tasks);
    *refs = malloc(cap * sizeof **refs); /* index into sends or n_sends + cons */
    if (!stack || !tree->tasks || !*refs) {
        free(stack);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    size_t top = 0;
    stack[top++] = (input_t){0, N - 1, pb->target, SIZE_MAX, 0};
    tree->n_tasks = 0;
    ssched_status_t st = SSCHED_OK;
    while (top && st == SSCHED_OK) {
        input_t in = stack[--top];
        if (in.k == in.m && pb->participants[in.k] == in.node)
            continue; /* a participant's own value: a leaf */
        if (tree->n_tasks + 2 > cap || top + 2 > cap) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "reduction tree grows without bound");
            break;
        }
        ssched_tree_task_t *t = &tree->tasks[tree->n_tasks];
        size_t b, e;
        ssched_i_tr_find_cons(sol, in.node, in.k, in.m, &b, &e);
        for (; b < e && mpz_sgn(sol->cons[b].count) == 0; b++)
            ;
        if (b < e) { /* computed in place */
            *t = (ssched_tree_task_t){SSCHED_TREE_COMPUTE, 0, in.node, in.k, sol->cons[b].l, in.m,
                                      in.parent, in.depth};
            (*refs)[tree->n_tasks] = sol->n_sends + b;
            stack[top++] = (input_t){sol->cons[b].l + 1, in.m, in.node, tree->n_tasks, in.depth + 1};
            stack[top++] = (input_t){in.k, sol->cons[b].l, in.node, tree->n_tasks, in.depth + 1};
            tree->n_tasks++;
            continue;
        }
        size_t I = interval_of(s, N, in.k, in.m);
        ssched_i_tr_find_sends(sol, in.node, I, &b, &e);
        for (; b < e && mpz_sgn(sol->sends[b].count) == 0; b++)
            ;
        if (b == e) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "no task produces v[%zu,%zu] on %s: solution not conserved",
                                  in.k, in.m, p->names[in.node]);
            break;
        }
        size_t edge = sol->sends[b].edge;
        *t = (ssched_tree_task_t){SSCHED_TREE_SEND, edge, 0, in.k, 0, in.m, in.parent, in.depth};
        (*refs)[tree->n_tasks] = b;
        stack[top++] = (input_t){in.k, in.m, p->from[edge], tree->n_tasks, in.depth + 1};
        tree->n_tasks++;
    }
    free(stack);
    return st;
}

static mpz_t *ref_count(tr_solution_t *sol, size_t ref)
{
    return ref < sol->n_sends ? &sol->sends[ref].count : &sol->cons[ref - sol->n_sends].count;
}

ssched_status_t ssched_trees_extract(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_steady_t *s, ssched_trees_t *out,
                                     ssched_error_t *err)
{
    ssched_trees_free(out);
    ssched_trees_init(out);
    if (pb->kind != SSCHED_PROBLEM_REDUCE || s->kind != SSCHED_PROBLEM_REDUCE)
        return ssched_error_set(err, SSCHED_EINPUT, "trees: not a reduce solution");
    if (mpq_sgn(s->throughput) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "trees: TP = 0, there is nothing to extract");
    ssched_steady_period(p, pb, s, out->period);
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, out->period);
    mpq_mul(q, q, s->throughput);
    mpz_set(out->ops_per_period, mpq_numref(q));
    mpq_clear(q);
    tr_solution_t sol;
    ssched_status_t st = ssched_i_tr_solution_build(p, s, out->period, &sol, err);
    mpz_t done;
    mpz_init(done);
    size_t cap = 0;
    /* each round zeroes at least one task, so there are at most this many */
    size_t max_rounds = sol.n_sends + sol.n_cons;
    while (st == SSCHED_OK && mpz_cmp(done, out->ops_per_period) < 0) {
        if (out->n_trees == max_rounds) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "tree extraction does not terminate");
            break;
        }
        if (out->n_trees == cap) {
            cap = cap ? 2 * cap : 8;
            ssched_tree_t *t = realloc(out->trees, cap * sizeof *t);
            if (!t) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            out->trees = t;
        }
        ssched_tree_t *tree = &out->trees[out->n_trees++];
        memset(tree, 0, sizeof *tree);
        mpz_init(tree->weight);
        size_t *refs = NULL;
        st = find_tree(p, pb, s, &sol, tree, &refs, err);
        if (st == SSCHED_OK && tree->n_tasks == 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "empty reduction tree");
        if (st == SSCHED_OK) {
            /* w(T) = min count; never more than what remains to deliver */
            mpz_sub(tree->weight, out->ops_per_period, done);
            for (size_t k = 0; k < tree->n_tasks; k++)
                if (mpz_cmp(*ref_count(&sol, refs[k]), tree->weight) < 0)
                    mpz_set(tree->weight, *ref_count(&sol, refs[k]));
            for (size_t k = 0; k < tree->n_tasks; k++)
                mpz_sub(*ref_count(&sol, refs[k]), *ref_count(&sol, refs[k]), tree->weight);
            mpz_add(done, done, tree->weight);
        }
        free(refs);
    }
    /* Lemma 2: the trees account for the whole solution. */
    for (size_t k = 0; k < sol.n_sends && st == SSCHED_OK; k++)
        if (mpz_sgn(sol.sends[k].count) != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "trees leave a transfer of the solution unexplained");
    for (size_t k = 0; k < sol.n_cons && st == SSCHED_OK; k++)
        if (mpz_sgn(sol.cons[k].count) != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "trees leave a computation of the solution unexplained");
    mpz_clear(done);
    ssched_i_tr_solution_free(&sol);
    return st;
}

/* The recount; a mismatch (and a period that does not clear a rate) is
 * EINTERNAL in err, what extraction reports for its own trees. */
static ssched_status_t recount(const ssched_platform_t *p, const ssched_steady_t *s,
                               const ssched_trees_t *trees, ssched_error_t *err)
{
    tr_solution_t sol;
    ssched_status_t st = ssched_i_tr_solution_build(p, s, trees->period, &sol, err);
    mpz_t total;
    mpz_init(total);
    /* subtract weight * chi_T for every tree; everything must land on 0 */
    for (size_t t = 0; t < trees->n_trees && st == SSCHED_OK; t++) {
        const ssched_tree_t *tr = &trees->trees[t];
        mpz_add(total, total, tr->weight);
        for (size_t k = 0; k < tr->n_tasks && st == SSCHED_OK; k++) {
            const ssched_tree_task_t *x = &tr->tasks[k];
            size_t b, e;
            mpz_t *cnt = NULL;
            if (x->kind == SSCHED_TREE_COMPUTE) {
                ssched_i_tr_find_cons(&sol, x->node, x->k, x->m, &b, &e);
                for (; b < e; b++)
                    if (sol.cons[b].l == x->l)
                        cnt = &sol.cons[b].count;
            } else {
                size_t I = SIZE_MAX;
                for (size_t y = 0; y < s->n_intervals; y++)
                    if (s->intervals[y].k == x->k && s->intervals[y].m == x->m)
                        I = y;
                ssched_i_tr_find_sends(&sol, p->to[x->edge], I, &b, &e);
                for (; b < e; b++)
                    if (sol.sends[b].edge == x->edge)
                        cnt = &sol.sends[b].count;
            }
            if (!cnt)
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "tree %zu uses a task absent from the solution", t);
            else
                mpz_sub(*cnt, *cnt, tr->weight);
        }
    }
    for (size_t k = 0; k < sol.n_sends && st == SSCHED_OK; k++)
        if (mpz_sgn(sol.sends[k].count) != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "sum of weighted trees differs from the solution on a transfer");
    for (size_t k = 0; k < sol.n_cons && st == SSCHED_OK; k++)
        if (mpz_sgn(sol.cons[k].count) != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "sum of weighted trees differs from the solution on a computation");
    if (st == SSCHED_OK && mpz_cmp(total, trees->ops_per_period) != 0)
        st = ssched_error_set(err, SSCHED_EINTERNAL, "tree weights do not add up to TP * T");
    mpz_clear(total);
    ssched_i_tr_solution_free(&sol);
    return st;
}

ssched_status_t ssched_trees_check(const ssched_platform_t *p, const ssched_steady_t *s,
                                   const ssched_trees_t *trees, ssched_check_report_t *report,
                                   ssched_error_t *err)
{
    ssched_error_t verr;
    ssched_error_clear(&verr);
    ssched_status_t st = recount(p, s, trees, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINTERNAL, &verr, report, err);
}

/* Commutative trees (tree->order set): the schedule's types are SETS of
 * participants, and its checker recomputes the period from the busy time
 * per (edge, set), which the per-edge flows of a commutative solution
 * (lp/colgen_comm_result.c) do not show.  Every other per-key rate is a sum
 * of tree rates times integers, already covered by the tree rates.  Sends
 * are keyed by edge and the set's bitmask (N bits). */
typedef struct {
    size_t edge, tree, words;
    const uint64_t *set;
} set_send_t;

static int cmp_set_send(const void *a, const void *b)
{
    const set_send_t *x = a, *y = b;
    if (x->edge != y->edge)
        return x->edge < y->edge ? -1 : 1;
    return memcmp(x->set, y->set, x->words * sizeof *x->set);
}

static int commutative_period(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_steady_t *s, mpz_t T)
{
    size_t W = (pb->n_participants + 63) / 64, n = 0;
    for (size_t k = 0; k < s->n_rated_trees; k++)
        for (size_t x = 0; x < s->rated_trees[k].n_tasks; x++)
            n += s->rated_trees[k].tasks[x].kind == SSCHED_TREE_SEND;
    set_send_t *e = ssched_i_alloc(n, sizeof *e);
    uint64_t *bits = calloc(n * W + 1, sizeof *bits);
    if (!e || !bits) {
        free(e);
        free(bits);
        return 0;
    }
    n = 0;
    for (size_t k = 0; k < s->n_rated_trees; k++) {
        const ssched_tree_t *t = &s->rated_trees[k];
        for (size_t x = 0; x < t->n_tasks; x++) {
            if (t->tasks[x].kind != SSCHED_TREE_SEND || !t->order)
                continue;
            uint64_t *b = bits + n * W;
            for (size_t i = t->tasks[x].k; i <= t->tasks[x].m; i++)
                b[t->order[i] / 64] |= (uint64_t)1 << (t->order[i] % 64);
            e[n++] = (set_send_t){t->tasks[x].edge, k, W, b};
        }
    }
    qsort(e, n, sizeof *e, cmp_set_send);
    mpq_t sum, q;
    mpq_inits(sum, q, NULL);
    for (size_t i = 0; i < n; i++) {
        mpq_add(sum, sum, s->tree_rates[e[i].tree]);
        if (i + 1 < n && !cmp_set_send(&e[i], &e[i + 1]))
            continue;
        mpq_mul(q, sum, p->c[e[i].edge]); /* busy time of this (edge, set) */
        mpq_mul(q, q, pb->size);
        mpz_lcm(T, T, mpq_denref(q));
        mpq_set_ui(sum, 0, 1);
    }
    mpq_clears(sum, q, NULL);
    free(e);
    free(bits);
    return 1;
}

ssched_status_t ssched_trees_from_rates(const ssched_platform_t *p, const ssched_problem_t *pb,
                                        const ssched_steady_t *s, ssched_trees_t *out,
                                        ssched_error_t *err)
{
    ssched_trees_free(out);
    ssched_trees_init(out);
    if (s->n_rated_trees == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "trees: the solution has no rated trees");
    ssched_steady_period(p, pb, s, out->period);
    for (size_t k = 0; k < s->n_rated_trees; k++)
        mpz_lcm(out->period, out->period, mpq_denref(s->tree_rates[k]));
    /* the commutative counterpart of the period's flow terms; like them
     * it applies to a solution that states its flows (a short unrolling
     * pattern, unroll_allreduce_plan.c, states none: it needs no period
     * making every busy rate integral) */
    if (pb->commutative && s->n_flows > 0 && !commutative_period(p, pb, s, out->period))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    out->trees = calloc(s->n_rated_trees, sizeof *out->trees);
    if (!out->trees)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t q, T;
    mpq_inits(q, T, NULL);
    mpq_set_z(T, out->period);
    for (size_t k = 0; k < s->n_rated_trees; k++) {
        const ssched_tree_t *src = &s->rated_trees[k];
        ssched_tree_t *t = &out->trees[out->n_trees++];
        mpz_init(t->weight);
        mpq_mul(q, s->tree_rates[k], T);
        mpz_set(t->weight, mpq_numref(q)); /* integral by the choice of T */
        mpz_add(out->ops_per_period, out->ops_per_period, t->weight);
        t->tasks = ssched_i_alloc(src->n_tasks, sizeof *t->tasks);
        if (!t->tasks) {
            mpq_clears(q, T, NULL);
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        }
        memcpy(t->tasks, src->tasks, src->n_tasks * sizeof *t->tasks);
        t->n_tasks = src->n_tasks;
        if (src->order) {
            t->order = malloc(pb->n_participants * sizeof *t->order);
            if (!t->order) {
                mpq_clears(q, T, NULL);
                return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            }
            memcpy(t->order, src->order, pb->n_participants * sizeof *t->order);
        }
    }
    mpq_clears(q, T, NULL);
    return SSCHED_OK;
}
