/* Steady-state throughput of scatters and gossips on instances whose optimum
 * is derived by hand (comments give the derivation). */
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

/* Build a platform from "a b c; ..." edge triples (c exact text). */
static void make_platform(ssched_platform_t *p, const char *nodes, const char *edges)
{
    ssched_platform_init(p);
    ssched_error_t err;
    char *copy = strdup(nodes), *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, tok, NULL, NULL, &err), SSCHED_OK);
    free(copy);
    copy = strdup(edges);
    mpq_t c;
    mpq_init(c);
    for (char *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char a[32], b[32], cs[64];
        CU_ASSERT_EQUAL_FATAL(sscanf(tok, "%31s %31s %63s", a, b, cs), 3);
        size_t ia, ib;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_find_node(p, a, &ia, &err), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_find_node(p, b, &ib, &err), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(c, cs, &err), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, ia, ib, c, &err), SSCHED_OK);
    }
    mpq_clear(c);
    free(copy);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, &err), SSCHED_OK);
}

/* Solve and compare TP with the expected exact value; also re-check the
 * certificate independently and that every port is within capacity. */
static void expect_tp(const ssched_platform_t *p, ssched_problem_t *pb, const char *tp)
{
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_steady_solve(p, pb, NULL, &s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "solve failed: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    if (!tu_mpq_equals(s.throughput, tp)) {
        char *got = ssched_rational_to_string(s.throughput);
        fprintf(stderr, "\n  TP = %s, expected %s\n", got, tp);
        free(got);
        CU_FAIL("wrong throughput");
    }
    /* TP equals the sum of the port prices (strong duality; port rows are
     * the only rows with a nonzero right-hand side). */
    mpq_t sum;
    mpq_init(sum);
    for (size_t i = 0; i < p->n_nodes; i++) {
        mpq_add(sum, sum, s.out_price[i]);
        mpq_add(sum, sum, s.in_price[i]);
        CU_ASSERT(mpq_cmp_ui(s.out_busy[i], 1, 1) <= 0);
        CU_ASSERT(mpq_cmp_ui(s.in_busy[i], 1, 1) <= 0);
        /* a priced port is saturated (complementary slackness) */
        if (mpq_sgn(s.out_price[i]) > 0)
            CU_ASSERT(mpq_cmp_ui(s.out_busy[i], 1, 1) == 0);
    }
    CU_ASSERT(mpq_equal(sum, s.throughput));
    mpq_clear(sum);
    ssched_steady_free(&s);
}

static void scatter(const ssched_platform_t *p, const char *src, const char *targets,
                    const char *tp)
{
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, p, src, targets, &err), SSCHED_OK);
    expect_tp(p, &pb, tp);
    ssched_problem_free(&pb);
}

static void gossip(const ssched_platform_t *p, const char *srcs, const char *targets,
                   const char *tp)
{
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, p, srcs, targets, &err), SSCHED_OK);
    expect_tp(p, &pb, tp);
    ssched_problem_free(&pb);
}

static void test_star(void)
{
    /* The source's out-port sends one message to each leaf per operation:
     * TP (1 + 2 + 3) <= 1, so TP = 1/6. */
    ssched_platform_t p;
    make_platform(&p, "s a b c", "s a 1; s b 2; s c 3; a s 1; b s 1; c s 1");
    scatter(&p, "s", "a,b,c", "1/6");
    scatter(&p, "s", "c", "1/3");
    ssched_platform_free(&p);
}

static void test_chain(void)
{
    /* s -1-> a -2-> b -3-> c.  Targets a,b,c: s's out-port carries 3 TP,
     * a's out-port 2*2 TP, b's out-port 3 TP, b's in-port 4 TP: TP = 1/4.
     * Target c only: max(1, 2, 3) TP <= 1, TP = 1/3. */
    ssched_platform_t p;
    make_platform(&p, "s a b c", "s a 1; a b 2; b c 3");
    scatter(&p, "s", "a,b,c", "1/4");
    scatter(&p, "s", "c", "1/3");
    scatter(&p, "s", "b,c", "1/4");
    ssched_platform_free(&p);
}

static void test_split_routes(void)
{
    /* Two routes s->a->t (costs 1, 3) and s->b->t (3, 1).  One route alone
     * gives 1/3 (s's out-port or t's in-port).  Splitting x over a and y over
     * b: s out x + 3y <= 1, t in 3x + y <= 1, so x = y = 1/4 and TP = 1/2:
     * messages of one target must use both routes (RR-4872 Fig. 2's point). */
    ssched_platform_t p, pa, pb2;
    make_platform(&p, "s a b t", "s a 1; a t 3; s b 3; b t 1");
    make_platform(&pa, "s a b t", "s a 1; a t 3; s b 3");
    make_platform(&pb2, "s a b t", "s b 3; b t 1; s a 1");
    scatter(&p, "s", "t", "1/2");
    scatter(&pa, "s", "t", "1/3");
    scatter(&pb2, "s", "t", "1/3");
    ssched_platform_free(&p);
    ssched_platform_free(&pa);
    ssched_platform_free(&pb2);
}

static void test_gossip(void)
{
    /* Two nodes, one link each way: each sends TP messages: TP = 1. */
    ssched_platform_t p2, p3;
    make_platform(&p2, "a b", "a b 1; b a 1");
    gossip(&p2, "a,b", "a,b", "1");
    /* Complete graph on 3 nodes, c = 1: every node sends 2 TP (relaying only
     * costs more), so TP = 1/2. */
    make_platform(&p3, "a b c", "a b 1; b a 1; a c 1; c a 1; b c 1; c b 1");
    gossip(&p3, "a,b,c", "a,b,c", "1/2");
    /* One source to two targets is a scatter: the same TP. */
    gossip(&p3, "a", "b,c", "1/2");
    scatter(&p3, "a", "b,c", "1/2");
    /* Sources a,b to target c only: c's in-port takes 2 TP: TP = 1/2. */
    gossip(&p3, "a,b", "c", "1/2");
    ssched_platform_free(&p2);
    ssched_platform_free(&p3);
}

static void test_destination_never_forwards(void)
{
    /* s -> a (c=1) and a -> b (c=1), plus a slow direct s -> b (c=4).
     * Targets a, b.  Without the correction a could keep a's messages
     * circulating; with it: route b's messages via a: s out 2TP, a in 2TP,
     * a out TP: TP = 1/2; direct s->b: s out TP + 4TP: 1/5.  Mixed:
     * s out: TP + x + 4(TP - x) <= 1 and a in: TP + x <= 1 -> x = TP:
     * TP = 1/2. */
    ssched_platform_t p;
    make_platform(&p, "s a b", "s a 1; a b 1; s b 4");
    scatter(&p, "s", "a,b", "1/2");
    ssched_platform_free(&p);
}

static void test_awkward_numbers(void)
{
    /* Star with costs 1/3, 1e-7, 123456789/987654321: TP = 1 / sum. */
    ssched_platform_t p;
    make_platform(&p, "s a b c", "s a 1/3; s b 1e-7; s c 123456789/987654321");
    mpq_t sum, q;
    mpq_inits(sum, q, NULL);
    mpq_set_str(q, "1/3", 10);
    mpq_add(sum, sum, q);
    mpq_set_str(q, "1/10000000", 10);
    mpq_add(sum, sum, q);
    mpq_set_str(q, "123456789/987654321", 10);
    mpq_canonicalize(q);
    mpq_add(sum, sum, q);
    mpq_inv(sum, sum);
    char *expect = ssched_rational_to_string(sum);
    scatter(&p, "s", "a,b,c", expect);
    free(expect);
    mpq_clears(sum, q, NULL);
    ssched_platform_free(&p);
}

static void test_unreachable(void)
{
    /* b cannot be reached from s: TP = 0, and b is reported. */
    ssched_platform_t p;
    make_platform(&p, "s a b", "s a 1; b s 1");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "s", "a,b", &err), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, &err), SSCHED_OK);
    CU_ASSERT(mpq_sgn(s.throughput) == 0);
    int flagged = 0;
    for (size_t t = 0; t < s.n_commodities; t++)
        if (s.unreachable[t]) {
            CU_ASSERT_STRING_EQUAL(p.names[s.commodities[t].dest], "b");
            flagged++;
        }
    CU_ASSERT_EQUAL(flagged, 1);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_message_size(void)
{
    /* Size 3 triples every transfer time: the star TP drops to 1/18. */
    ssched_platform_t p;
    make_platform(&p, "s a b c", "s a 1; s b 2; s c 3");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "s", "a,b,c", &err), SSCHED_OK);
    mpq_set_ui(pb.size, 3, 1);
    expect_tp(&p, &pb, "1/18");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"star 1/sum(c)", test_star},
        {"chain", test_chain},
        {"split over two routes", test_split_routes},
        {"small gossips", test_gossip},
        {"destination never forwards", test_destination_never_forwards},
        {"awkward numbers", test_awkward_numbers},
        {"unreachable target gives 0", test_unreachable},
        {"message size", test_message_size},
        {NULL, NULL}};
    return tu_main("steady", tests);
}
