/* Every certified column-generation solution can be scheduled (issue 24,
 * item 1b): on random dense digraphs (7 to 9 nodes, about 70% of the
 * ordered pairs, random rational costs) a gossip's master used to deliver
 * a message type above TP (1.06x to 1.64x), which no periodic schedule of
 * TP operations holds.  Here every solution must deliver exactly TP per
 * type (scatter, gossip), per tree family (reduce, commutative reduce),
 * per arborescence family (broadcast, multicast) and both (all-reduce),
 * and its periodic schedule must build and pass the checker, the
 * throughput claims included (the problem solved again).  Under the
 * sanitizers (SSCHED_SANITIZED) fewer instances run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#ifdef SSCHED_SANITIZED
#define INSTANCES 24
#define OTHERS 6
#else
#define INSTANCES 120
#define OTHERS 20
#endif

/* n nodes n0.. (each computing, w = a/b), every ordered pair an edge with
 * probability 7/10, costs a/b with a, b in 1..9. */
static void dense_platform(ssched_platform_t *p, unsigned n)
{
    ssched_error_t err;
    mpq_t q;
    mpq_init(q);
    for (unsigned i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%u", i);
        mpq_set_ui(q, 1 + tu_pick(9), 1 + tu_pick(5));
        mpq_canonicalize(q);
        size_t index;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, name, q, &index, &err), SSCHED_OK);
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            if (i != j && tu_pick(10) < 7) {
                mpq_set_ui(q, 1 + tu_pick(9), 1 + tu_pick(9));
                mpq_canonicalize(q);
                CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, i, j, q, &err), SSCHED_OK);
            }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, &err), SSCHED_OK);
    mpq_clear(q);
}

/* "n<from>,n<from+1>,...,n<to-1>" */
static void names(char *buf, size_t cap, unsigned from, unsigned to)
{
    buf[0] = 0;
    for (unsigned i = from; i < to; i++)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%sn%u", i > from ? "," : "", i);
}

/* Net messages of type t into `node` per time unit. */
static void net_in(const ssched_platform_t *p, const ssched_steady_t *s, size_t t, size_t node,
                   mpq_t out)
{
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k < s->n_flows; k++) {
        const ssched_flow_t *f = &s->flows[k];
        if (f->type != t)
            continue;
        if (p->to[f->edge] == node)
            mpq_add(out, out, f->rate);
        if (p->from[f->edge] == node)
            mpq_sub(out, out, f->rate);
    }
}

/* Exactly TP per type / tree family / arborescence family; 1 if so. */
static int delivers_tp(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_steady_t *s)
{
    mpq_t q;
    mpq_init(q);
    int ok = 1;
    if (pb->kind == SSCHED_PROBLEM_SCATTER || pb->kind == SSCHED_PROBLEM_GOSSIP) {
        for (size_t t = 0; t < s->n_commodities && ok; t++) {
            net_in(p, s, t, s->commodities[t].dest, q);
            ok = mpq_equal(q, s->throughput);
            if (!ok)
                gmp_fprintf(stderr, "\n  type %zu delivered %Qd, TP %Qd\n", t, q, s->throughput);
        }
    }
    if (pb->kind == SSCHED_PROBLEM_REDUCE || pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        mpq_set_ui(q, 0, 1);
        for (size_t k = 0; k < s->n_rated_trees; k++)
            mpq_add(q, q, s->tree_rates[k]);
        ok = ok && mpq_equal(q, s->throughput);
    }
    if (pb->kind == SSCHED_PROBLEM_BROADCAST || pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        mpq_set_ui(q, 0, 1);
        for (size_t k = 0; k < s->n_arborescences; k++)
            mpq_add(q, q, s->arborescences[k].weight);
        ok = ok && mpq_equal(q, s->throughput);
    }
    mpq_clear(q);
    return ok;
}

/* Solve, check the deliveries, build the schedule and check it fully.
 * Returns 1 when TP > 0 (a schedule was made). */
static int one(const ssched_platform_t *p, const ssched_problem_t *pb, const char *what,
               unsigned inst)
{
    ssched_steady_t s;
    ssched_schedule_t sc;
    ssched_steady_init(&s);
    ssched_schedule_init(&sc);
    ssched_error_t err;
    ssched_error_clear(&err);
    int made = 0;
    ssched_status_t st = ssched_steady_solve_opts(p, pb, NULL, &s, &err);
    CU_ASSERT_EQUAL(st, SSCHED_OK);
    if (st == SSCHED_OK && mpq_sgn(s.throughput) > 0) {
        int ok = delivers_tp(p, pb, &s);
        if (!ok)
            fprintf(stderr, "\n  %s, instance %u: not exactly TP per type\n", what, inst);
        CU_ASSERT(ok);
        st = ssched_schedule_build(p, pb, &s, NULL, &sc, &err);
        if (st != SSCHED_OK)
            fprintf(stderr, "\n  %s, instance %u: %s\n", what, inst, err.message);
        CU_ASSERT_EQUAL(st, SSCHED_OK);
        char *text = st == SSCHED_OK ? tu_schedule_json(p, pb, &sc) : NULL;
        char why[600] = "";
        int v = text ? tu_check_text(text, why, sizeof why) : -1;
        if (v != 1)
            fprintf(stderr, "\n  %s, instance %u: %s\n", what, inst, why);
        CU_ASSERT_EQUAL(v, 1);
        free(text);
        made = 1;
    }
    ssched_schedule_free(&sc);
    ssched_steady_free(&s);
    return made;
}

static void test_scatter_gossip(void)
{
    unsigned made = 0;
    for (unsigned inst = 0; inst < INSTANCES; inst++) {
        unsigned n = 7 + tu_pick(3);
        ssched_platform_t p;
        ssched_platform_init(&p);
        dense_platform(&p, n);
        char all[128], others[128];
        names(all, sizeof all, 0, n);
        names(others, sizeof others, 1, n);
        ssched_error_t err;
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "n0", others, &err), SSCHED_OK);
        made += one(&p, &pb, "scatter", inst);
        ssched_problem_free(&pb);
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, &p, all, all, &err), SSCHED_OK);
        made += one(&p, &pb, "gossip", inst);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    /* most instances are strongly connected: the test schedules something */
    CU_ASSERT(made > INSTANCES);
}

static void test_other_kinds(void)
{
    unsigned made = 0;
    for (unsigned inst = 0; inst < OTHERS; inst++) {
        unsigned n = 7 + tu_pick(3);
        ssched_platform_t p;
        ssched_platform_init(&p);
        dense_platform(&p, n);
        char four[64], three[64];
        names(four, sizeof four, 0, 4);
        names(three, sizeof three, 1, 4);
        ssched_error_t err;
        for (int kind = 0; kind < 6; kind++) {
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            ssched_status_t st;
            const char *what;
            switch (kind) {
            case 0: what = "reduce"; st = ssched_problem_set_reduce(&pb, &p, four, "n0", &err); break;
            case 1:
                what = "commutative reduce";
                st = ssched_problem_set_reduce(&pb, &p, four, "n0", &err);
                pb.commutative = 1;
                break;
            case 2: what = "broadcast"; st = ssched_problem_set_broadcast(&pb, &p, "n0", NULL, &err); break;
            case 3: what = "multicast"; st = ssched_problem_set_broadcast(&pb, &p, "n0", three, &err); break;
            case 4: what = "allreduce"; st = ssched_problem_set_allreduce(&pb, &p, three, "n0", 0, &err); break;
            default:
                what = "commutative allreduce";
                st = ssched_problem_set_allreduce(&pb, &p, three, "n0", 1, &err);
                break;
            }
            CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
            made += one(&p, &pb, what, inst);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
    CU_ASSERT(made > OTHERS);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"random dense digraphs: scatter and gossip solutions schedule and check",
         test_scatter_gossip},
        {"random dense digraphs: reduce, broadcast, all-reduce deliver exactly TP",
         test_other_kinds},
        {NULL, NULL}};
    return tu_main("column generation on dense digraphs", tests);
}
