/* Commutative reduce by column generation over reduction in-trees
 * (issue 14 item 2; lp/colgen_comm.h).
 *
 *   - the chain P0 -> P2 -> P1 (c = 1, w = 1, target P1): ordered
 *     TP = 1/2, commutative TP = 1;
 *   - a star whose in-port bounds TP = 1/4;
 *   - brute force: every reduction in-tree of tiny random platforms
 *     enumerated, their exact master solved by esolver (or ssched's exact
 *     LP), equal to the column generation's certified TP (or between it and
 *     the upper bound when pricing was not proven exact);
 *   - commutative TP >= ordered TP on random instances;
 *   - optional merge points beyond exact enumeration: TP <= upper_bound,
 *     both certified;
 *   - every solution: the rated trees are valid ordered reduction trees of
 *     their DFS order, they add up to the flows and TP, and TP = the sum of
 *     the prices (the certificate);
 *   - the CLI: text, JSON, `lp --commutative`, bad input;
 *   - the float phase's Chu-Liu/Edmonds against the exact one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_comm.h"
#include "ssched/steady.h"
#include "ssched/trees.h"
#include "test_util.h"

/* Nodes P0..P(n-1); w[i] = 0: a router, else w = w[i]. */
static void nodes(ssched_platform_t *p, unsigned n, const unsigned *w)
{
    ssched_platform_init(p);
    char name[16];
    mpq_t q;
    mpq_init(q);
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%u", i);
        mpq_set_ui(q, w ? w[i] : 1, 1);
        CU_ASSERT_EQUAL(ssched_platform_add_node(p, name, w && !w[i] ? NULL : q, NULL, NULL),
                        SSCHED_OK);
    }
    mpq_clear(q);
}

static void edge(ssched_platform_t *p, size_t i, size_t j, unsigned c)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, c, 1);
    CU_ASSERT_EQUAL(ssched_platform_add_edge(p, i, j, q, NULL), SSCHED_OK);
    mpq_clear(q);
}

static void reduce(ssched_problem_t *pb, const ssched_platform_t *p, const char *parts,
                   const char *target, int commutative)
{
    ssched_problem_init(pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(pb, p, parts, target, NULL), SSCHED_OK);
    pb->commutative = commutative;
}

/* Does [k,m] exist on node as a leaf or as the product of a child task of
 * task `parent` in t? */
static int produced(const ssched_platform_t *p, const ssched_problem_t *pb,
                    const ssched_tree_t *t, size_t parent, size_t k, size_t m, size_t node)
{
    if (k == m && pb->participants[t->order[k]] == node)
        return 1;
    for (size_t x = 0; x < t->n_tasks; x++) {
        const ssched_tree_task_t *c = &t->tasks[x];
        if (c->parent != parent || c->k != k || c->m != m)
            continue;
        if (c->kind == SSCHED_TREE_SEND ? p->to[c->edge] == node : c->node == node)
            return 1;
    }
    return 0;
}

/* The output contract (lp/colgen_comm_result.c), checked independently. */
static void check_comm(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_steady_t *s)
{
    size_t N = pb->n_participants, ne = p->n_edges;
    CU_ASSERT(mpq_cmp(s->throughput, s->upper_bound) <= 0);
    CU_ASSERT(s->optimal == mpq_equal(s->throughput, s->upper_bound));
    tu_check_certificate(p, pb->size, s);
    mpq_t sum, *load = malloc((ne + 1) * sizeof *load);
    mpq_init(sum);
    for (size_t e = 0; e < ne; e++)
        mpq_init(load[e]);
    unsigned char *seen = malloc(N);
    for (size_t k = 0; k < s->n_rated_trees; k++) {
        const ssched_tree_t *t = &s->rated_trees[k];
        CU_ASSERT(mpq_sgn(s->tree_rates[k]) > 0);
        mpq_add(sum, sum, s->tree_rates[k]);
        CU_ASSERT_FATAL(t->order != NULL);
        memset(seen, 0, N);
        for (size_t i = 0; i < N; i++) {
            CU_ASSERT_FATAL(t->order[i] < N);
            CU_ASSERT(!seen[t->order[i]]);
            seen[t->order[i]] = 1;
        }
        CU_ASSERT_FATAL(t->n_tasks > 0);
        const ssched_tree_task_t *r = &t->tasks[0];
        CU_ASSERT(r->parent == SIZE_MAX && r->k == 0 && r->m == N - 1);
        CU_ASSERT(r->kind == SSCHED_TREE_SEND ? p->to[r->edge] == pb->target
                                              : r->node == pb->target);
        size_t merges = 0;
        for (size_t x = 0; x < t->n_tasks; x++) {
            const ssched_tree_task_t *a = &t->tasks[x];
            CU_ASSERT(x == 0 || a->parent < x); /* pre-order */
            if (a->kind == SSCHED_TREE_COMPUTE) {
                merges++;
                CU_ASSERT(p->has_w[a->node] && a->k <= a->l && a->l < a->m);
                CU_ASSERT(produced(p, pb, t, x, a->k, a->l, a->node));
                CU_ASSERT(produced(p, pb, t, x, a->l + 1, a->m, a->node));
            } else {
                CU_ASSERT(produced(p, pb, t, x, a->k, a->m, p->from[a->edge]));
                mpq_add(load[a->edge], load[a->edge], s->tree_rates[k]);
            }
        }
        CU_ASSERT(merges == N - 1);
    }
    CU_ASSERT(mpq_equal(sum, s->throughput));
    size_t f = 0;
    for (size_t e = 0; e < ne; e++) {
        if (mpq_sgn(load[e]) == 0)
            continue;
        CU_ASSERT_FATAL(f < s->n_flows);
        CU_ASSERT(s->flows[f].edge == e && s->flows[f].type == 0 &&
                  mpq_equal(s->flows[f].rate, load[e]));
        f++;
    }
    CU_ASSERT(f == s->n_flows);
    /* the schedule builder's view: integral weights per period */
    if (s->n_rated_trees) {
        ssched_trees_t tr;
        ssched_trees_init(&tr);
        CU_ASSERT_EQUAL(ssched_trees_from_rates(p, pb, s, &tr, NULL), SSCHED_OK);
        CU_ASSERT(tr.n_trees == s->n_rated_trees);
        ssched_trees_free(&tr);
    }
    for (size_t e = 0; e < ne; e++)
        mpq_clear(load[e]);
    free(load);
    free(seen);
    mpq_clear(sum);
}

static void comm_solve(const ssched_platform_t *p, const ssched_problem_t *pb, ssched_steady_t *s)
{
    ssched_error_t err;
    ssched_steady_init(s);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, NULL, s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    if (pb->commutative)
        check_comm(p, pb, s);
}

static void test_chain(void)
{
    ssched_platform_t p;
    nodes(&p, 3, NULL);
    edge(&p, 0, 2, 1);
    edge(&p, 2, 1, 1);
    ssched_platform_finalize(&p, NULL);
    for (int comm = 0; comm < 2; comm++) {
        ssched_problem_t pb;
        reduce(&pb, &p, "P0,P1,P2", "P1", comm);
        ssched_steady_t s;
        comm_solve(&p, &pb, &s);
        CU_ASSERT(tu_mpq_equals(s.throughput, comm ? "1" : "1/2"));
        if (comm)
            CU_ASSERT(s.optimal && s.cg_pricing_exact);
        ssched_steady_free(&s);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
}

/* Star: leaves P1..P3 around P0, c(P2 -> P0) = 2, the others 1.  Every
 * value crosses its leaf's edge into P0 at least once, so P0's in-port
 * takes >= 1 + 2 + 1 per reduction: TP = 1/4, reached by sending each
 * value straight to P0. */
static void test_star(void)
{
    ssched_platform_t p;
    nodes(&p, 4, NULL);
    for (size_t i = 1; i < 4; i++) {
        edge(&p, i, 0, i == 2 ? 2 : 1);
        edge(&p, 0, i, 1);
    }
    ssched_platform_finalize(&p, NULL);
    ssched_problem_t pb;
    reduce(&pb, &p, "P0,P1,P2,P3", "P0", 1);
    ssched_steady_t s;
    comm_solve(&p, &pb, &s);
    CU_ASSERT(tu_mpq_equals(s.throughput, "1/4"));
    CU_ASSERT(s.optimal);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

#include "test_commutative_brute.inc"

static const tu_test_t tests[] = {
    {"chain P0 -> P2 -> P1: ordered 1/2, commutative 1", test_chain},
    {"star: the in-port bound 1/4", test_star},
    {"brute force over every reduction in-tree (tiny random platforms)", test_brute},
    {"commutative TP >= ordered TP (random instances)", test_vs_ordered},
    {"optional merge points beyond exact pricing: TP <= certified upper bound", test_optional},
    {"CLI: text, JSON, lp export, bad input", test_cli},
    {"float Chu-Liu/Edmonds of the iterations = the exact one", test_float_arborescence},
    {NULL, NULL}};

int main(void)
{
    return tu_main("commutative", tests);
}
