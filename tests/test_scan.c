/* Parallel prefix (scan, issue 27): the certified upper-bound edge LP of
 * lp/build_scan.c.  Hand cases with a proof of the LP optimum (chain, star,
 * complete graphs), the degenerate N = 2 cases against independent
 * formulations (N = 2 inclusive is the ordered reduce to r_1; exclusive,
 * the one-target broadcast LP), the bound below every per-demand reduce,
 * random 3-4-node instances against esolver, switches, and bad input.
 *
 * The proofs use "tokens": an interval containing participant k's index
 * carries v_k.  A task merges two disjoint intervals, so it consumes exactly
 * one interval holding k and produces one (when k is in its output); a send
 * moves one.  In demand j's flow (docs/model.md, "Parallel prefix") v[0,a_j]
 * is delivered at r_j at rate TP, so tokens of every k <= a_j that r_j does
 * not own enter r_j at rate >= TP, each entry a send x(e,I) >= f_j(e,I). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

/* n rational zeros (the chain schedule's loads). */
static mpq_t *loads_new(size_t n)
{
    mpq_t *v = malloc(n * sizeof *v);
    CU_ASSERT_FATAL(v != NULL);
    for (size_t i = 0; i < n; i++)
        mpq_init(v[i]);
    return v;
}

static void loads_free(mpq_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mpq_clear(v[i]);
    free(v);
}

/* A scan of participants list[0..N-1] (node indices). */
static void scan_problem(ssched_problem_t *pb, const size_t *list, size_t N, int exclusive)
{
    ssched_problem_init(pb);
    pb->kind = SSCHED_PROBLEM_SCAN;
    pb->exclusive = exclusive;
    pb->participants = malloc(N * sizeof *pb->participants);
    CU_ASSERT_FATAL(pb->participants != NULL);
    memcpy(pb->participants, list, N * sizeof *list);
    pb->n_participants = N;
}

/* The certified value: the edge LP's (--method lp), or auto's achievable TP. */
static void solve_value(const ssched_platform_t *p, const ssched_problem_t *pb,
                        ssched_method_t method, mpq_t tp)
{
    ssched_steady_options_t o;
    ssched_steady_options_default(&o);
    o.method = method;
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, &o, &s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    if (pb->kind == SSCHED_PROBLEM_SCAN || method == SSCHED_METHOD_LP)
        tu_check_certificate(p, pb->size, &s); /* TP = sum of prices, ... */
    mpq_set(tp, s.throughput);
    ssched_steady_free(&s);
}

static void expect(const ssched_platform_t *p, const size_t *list, size_t N, int exclusive,
                   const char *want)
{
    ssched_problem_t pb;
    scan_problem(&pb, list, N, exclusive);
    mpq_t tp;
    mpq_init(tp);
    solve_value(p, &pb, SSCHED_METHOD_LP, tp); /* the bound (tests/test_scan_pack.c: achievable) */
    if (!tu_mpq_equals(tp, want)) {
        char *a = ssched_rational_to_string(tp);
        fprintf(stderr, "\n  scan%s N=%zu: TP %s, expected %s\n", exclusive ? " (exclusive)" : "",
                N, a, want);
        free(a);
        CU_FAIL("scan LP value");
    }
    mpq_clear(tp);
    ssched_problem_free(&pb);
}

static void test_chain(void)
{
    /* P0 - P1 - P2, c = 1 both ways, w = 1.  Upper bound: r_2 = P2 must
     * get a v_0 token, and its only in-edge is from P1: in-port(P2) >= TP,
     * so TP <= 1 (inclusive and exclusive alike).  Lower bound: the schedule
     * P0 -> P1 v0, P1 computes v[0,1], P1 -> P2 v[0,1], P2 computes v[0,2]
     * (exclusive: no task at P2) keeps every resource busy at most 1 per
     * operation; every real schedule is a feasible point (docs/model.md),
     * so the LP optimum is exactly 1. */
    ssched_platform_t p;
    ssched_platform_init(&p);
    tu_node(&p, "P0", "1");
    tu_node(&p, "P1", "1");
    tu_node(&p, "P2", "1");
    tu_link2(&p, 0, 1, "1");
    tu_link2(&p, 1, 2, "1");
    ssched_platform_finalize(&p, NULL);
    size_t l[] = {0, 1, 2};
    expect(&p, l, 3, 0, "1");
    expect(&p, l, 3, 1, "1");
    /* the chain reversed: r_0 = P2, r_2 = P0; the same argument at P0 */
    size_t r[] = {2, 1, 0};
    expect(&p, r, 3, 0, "1");
    ssched_platform_free(&p);
}

static void test_star(void)
{
    /* Centre C (w = 1) and leaves P0, P1, P2 (w = 1), c = 1 both ways;
     * participants the leaves.  Upper bound: r_1 = P1 and r_2 = P2 each
     * need a v_0 token, entering over C->P1 and C->P2 (their only in-edges,
     * two distinct edges): out-port(C) >= 2 TP, TP <= 1/2.  Lower bound:
     * P0 -> C v0, P1 -> C v1, C -> P1 v0, C computes v[0,1], C -> P2 v[0,1],
     * P1 and P2 compute their prefixes (exclusive: C -> P2 v[0,1] is P2's
     * answer): C's ports carry 2 messages per operation: TP = 1/2.  With C
     * a switch (no w, --routers switch) every link is its own resource:
     * P0 -> C -> P1 v0, P1 computes v[0,1], P1 -> C -> P2 v[0,1], P2
     * computes: one message per link and port: TP = 1 (and <= 1 by
     * in-port(P2) as in the chain). */
    for (int sw = 0; sw < 2; sw++) {
        ssched_platform_t p;
        ssched_platform_init(&p);
        tu_node(&p, "C", sw ? NULL : "1");
        tu_node(&p, "P0", "1");
        tu_node(&p, "P1", "1");
        tu_node(&p, "P2", "1");
        tu_link2(&p, 0, 1, "1");
        tu_link2(&p, 0, 2, "1");
        tu_link2(&p, 0, 3, "1");
        ssched_platform_finalize(&p, NULL);
        if (sw)
            p.multiport[0] = 1;
        size_t l[] = {1, 2, 3};
        expect(&p, l, 3, 0, sw ? "1" : "1/2");
        expect(&p, l, 3, 1, sw ? "1" : "1/2");
        ssched_platform_free(&p);
    }
}

static void test_complete(void)
{
    /* K_n, c = 1, every node a participant, inclusive.
     * w = 1: TP <= 1 by in-port(r_1) (a v_0 token enters r_1); the chain
     * schedule r_0 -> r_1 -> .. (each computing its prefix) reaches 1.
     * w = 2: v[0,1], .., v[0,n-1] are n-1 distinct intervals that no node
     * owns, each produced at rate >= TP (demand j's balance: its answer is
     * produced somewhere, g_j <= t), by distinct tasks: sum_i sum_T t(i,T)
     * >= (n-1) TP, and sum_T t(i,T) <= 1/w = 1/2: TP <= n / (2(n-1)):
     * 3/4 (n = 3), 2/3 (n = 4).  Equality: for n = 3 a real schedule does
     * it: per 3 operations, A: P1 computes v[0,1] from v0 (P0 -> P1), P2
     * computes v[0,2] from it (P1 -> P2); C: P0 computes v[0,1] (P1 -> P0
     * v1) and sends it to P1 and P2, P2 computes v[0,2]; E: P0 computes
     * v[0,1] (P1 -> P0 v1) and sends it to P1, P1 computes v[0,2] (P2 -> P1
     * v2) and sends it to P2: 2 tasks (4 time units) per node, ports at
     * most 4 messages per 3 operations: period 4, TP = 3/4.  For n = 4 the
     * exact certifier checks the LP point it returns (primal feasible and
     * dual feasible with equal objectives), so 2/3 is the LP optimum. */
    ssched_platform_t p;
    size_t l[] = {0, 1, 2, 3};
    tu_complete(&p, 3, "1");
    expect(&p, l, 3, 0, "1");
    ssched_platform_free(&p);
    tu_complete(&p, 4, "1");
    expect(&p, l, 4, 0, "1");
    ssched_platform_free(&p);
    tu_complete(&p, 3, "2");
    expect(&p, l, 3, 0, "3/4");
    ssched_platform_free(&p);
    tu_complete(&p, 4, "2");
    expect(&p, l, 4, 0, "2/3");
    ssched_platform_free(&p);
}

/* A random 3-4-node platform, most nodes computing. */
static void random_platform(ssched_platform_t *p, unsigned n)
{
    tu_random_platform(p, n);
    for (unsigned i = 0; i < n; i++)
        if (tu_pick(4)) {
            p->has_w[i] = 1;
            mpq_set_ui(p->w[i], tu_pick(5) + 1, tu_pick(3) + 1);
            mpq_canonicalize(p->w[i]);
        }
}

static void test_two_participants(void)
{
    /* N = 2 inclusive: the one demand is v[0,1] to r_1, its flow exactly
     * the ordered reduce LP of (r_0, r_1) to r_1 (lp/build_reduce.c), and
     * the copy rows are single bounds: equal optima.  Exclusive: v0 to r_1,
     * the broadcast LP from r_0 to the one target r_1. */
    int compared = 0;
    for (int k = 0; k < 20; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(2);
        random_platform(&p, n);
        size_t l[2] = {tu_pick(n), 0};
        l[1] = (l[0] + 1 + tu_pick(n - 1)) % n;
        ssched_problem_t sc, red, bc;
        scan_problem(&sc, l, 2, 0);
        if (k % 3 == 0)
            mpq_set_ui(sc.size, 2, 3);
        ssched_problem_init(&red);
        red.kind = SSCHED_PROBLEM_REDUCE;
        red.participants = malloc(2 * sizeof(size_t));
        memcpy(red.participants, l, sizeof l);
        red.n_participants = 2;
        red.target = l[1];
        mpq_set(red.size, sc.size);
        ssched_problem_init(&bc);
        bc.kind = SSCHED_PROBLEM_BROADCAST;
        bc.sources = malloc(sizeof(size_t));
        bc.targets = malloc(sizeof(size_t));
        bc.sources[0] = l[0];
        bc.targets[0] = l[1];
        bc.n_sources = bc.n_targets = 1;
        mpq_set(bc.size, sc.size);
        mpq_t a, b;
        mpq_inits(a, b, NULL);
        solve_value(&p, &sc, SSCHED_METHOD_LP, a);
        solve_value(&p, &red, SSCHED_METHOD_LP, b);
        CU_ASSERT(mpq_equal(a, b));
        sc.exclusive = 1;
        solve_value(&p, &sc, SSCHED_METHOD_LP, a);
        solve_value(&p, &bc, SSCHED_METHOD_LP, b);
        CU_ASSERT(mpq_equal(a, b));
        compared++;
        mpq_clears(a, b, NULL);
        ssched_problem_free(&sc);
        ssched_problem_free(&red);
        ssched_problem_free(&bc);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(compared, 20);
}

static void test_random_bounds(void)
{
    /* Random 3-4-node platforms, N = 3 or 4: the scan LP is at most every
     * demand's own reduce LP (a scan point restricted to demand j is a
     * reduce point at the same TP), positive when the platform is strongly
     * connected and computes, and equal to esolver's exact optimum of the
     * exported LP (QSopt_ex shares nothing with ssched but the file). */
    tu_run_t r;
    int have_esolver = tu_sh(&r, "command -v esolver >/dev/null") == 0;
    tu_run_free(&r);
    if (!have_esolver)
        fprintf(stderr, "\n  esolver absent: the exact cross-check is skipped\n");
    int cross = 0;
    for (int k = 0; k < 16; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(2);
        random_platform(&p, n);
        size_t N = 3 + (n == 4 ? tu_pick(2) : 0), l[4], start = tu_pick(n);
        for (size_t i = 0; i < N; i++)
            l[i] = (start + (k % 2 ? n - i : i)) % n; /* distinct, either way round */
        int exclusive = k % 4 >= 2;
        ssched_problem_t sc;
        scan_problem(&sc, l, N, exclusive);
        mpq_t tp, red;
        mpq_inits(tp, red, NULL);
        solve_value(&p, &sc, SSCHED_METHOD_LP, tp);
        for (size_t j = 1; j < N; j++) {
            size_t a = exclusive ? j - 1 : j;
            if (a == 0)
                continue; /* v0 alone: no reduce */
            ssched_problem_t rp;
            ssched_problem_init(&rp);
            rp.kind = SSCHED_PROBLEM_REDUCE;
            rp.participants = malloc((a + 1) * sizeof(size_t));
            memcpy(rp.participants, l, (a + 1) * sizeof(size_t));
            rp.n_participants = a + 1;
            rp.target = l[j];
            solve_value(&p, &rp, SSCHED_METHOD_LP, red);
            CU_ASSERT(mpq_cmp(tp, red) <= 0);
            ssched_problem_free(&rp);
        }
        if (have_esolver) {
            ssched_model_t m;
            ssched_model_init(&m);
            CU_ASSERT_EQUAL_FATAL(ssched_model_build(&p, &sc, &m, NULL), SSCHED_OK);
            mpq_t ref;
            mpq_init(ref);
            CU_ASSERT_EQUAL_FATAL(tu_esolver_optimum(&m.lp, ref), 0);
            if (!mpq_equal(ref, tp)) {
                char *a = ssched_rational_to_string(tp), *b = ssched_rational_to_string(ref);
                fprintf(stderr, "\n  scan TP %s, esolver %s\n", a, b);
                free(a);
                free(b);
                CU_FAIL("scan LP differs from esolver");
            }
            cross++;
            mpq_clear(ref);
            ssched_model_free(&m);
        }
        mpq_clears(tp, red, NULL);
        ssched_problem_free(&sc);
        ssched_platform_free(&p);
    }
    CU_ASSERT(!have_esolver || cross == 16);
}

/* The edge a -> b of p, or SIZE_MAX. */
static size_t edge_of(const ssched_platform_t *p, size_t a, size_t b)
{
    for (size_t e = 0; e < p->n_edges; e++)
        if (p->from[e] == a && p->to[e] == b)
            return e;
    return SIZE_MAX;
}

static void test_below_chain_schedule(void)
{
    /* Validity on random instances (the theorem of docs/model.md): a real
     * schedule's throughput never exceeds the LP.  The chain schedule along
     * the ring r_0 -> r_1 -> .. (r_{j-1} sends v[0,j-1] to r_j, which
     * computes v[0,j] unless it is the last of an exclusive scan) is one
     * periodic structure: its throughput is 1 / its largest resource load
     * per operation (RR-4872's steady-state reconstruction), computed here
     * independently of lp/. */
    for (int k = 0; k < 12; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(2);
        tu_random_platform(&p, n);
        for (unsigned i = 0; i < n; i++) {
            p.has_w[i] = 1;
            mpq_set_ui(p.w[i], tu_pick(5) + 1, tu_pick(3) + 1);
            mpq_canonicalize(p.w[i]);
        }
        size_t N = n, l[4], start = tu_pick(n);
        for (size_t i = 0; i < N; i++)
            l[i] = (start + i) % n; /* ring edges i -> i+1 always exist */
        int exclusive = k % 2;
        mpq_t *out = loads_new(n), *in = loads_new(n),
              *cpu = loads_new(n);
        for (size_t j = 1; j < N; j++) {
            size_t e = edge_of(&p, l[j - 1], l[j]);
            CU_ASSERT_FATAL(e != SIZE_MAX);
            mpq_add(out[l[j - 1]], out[l[j - 1]], p.c[e]);
            mpq_add(in[l[j]], in[l[j]], p.c[e]);
            if (!(exclusive && j == N - 1))
                mpq_add(cpu[l[j]], cpu[l[j]], p.w[l[j]]);
        }
        mpq_t worst, tp, chain;
        mpq_inits(worst, tp, chain, NULL);
        for (size_t i = 0; i < n; i++) {
            if (mpq_cmp(out[i], worst) > 0) mpq_set(worst, out[i]);
            if (mpq_cmp(in[i], worst) > 0) mpq_set(worst, in[i]);
            if (mpq_cmp(cpu[i], worst) > 0) mpq_set(worst, cpu[i]);
        }
        mpq_inv(chain, worst);
        ssched_problem_t sc;
        scan_problem(&sc, l, N, exclusive);
        solve_value(&p, &sc, SSCHED_METHOD_LP, tp);
        CU_ASSERT(mpq_cmp(chain, tp) <= 0);
        loads_free(out, n);
        loads_free(in, n);
        loads_free(cpu, n);
        mpq_clears(worst, tp, chain, NULL);
        ssched_problem_free(&sc);
        ssched_platform_free(&p);
    }
}

static void test_cli(void)
{
    const char *fig6 = SSCHED_SOURCE_DIR "/examples/fig6.graphml";
    tu_run_t r;
    /* RR-4872 Fig. 6 (P0 w = 1/2, P1, P2 w = 1, c = 1): the chain
     * schedule of test_chain fits (P1, P2 compute one task each): 1 is
     * reached, and out-port(P0) >= TP (v_0 must leave P0) bounds it. */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants P0,P1,P2", fig6), 0);
    CU_ASSERT(r.out && strstr(r.out, "throughput (achievable, certified feasible) TP = 1 (1)") &&
              strstr(r.out, "certified optimum) = 1 (1); gap = 0"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants P0,P1,P2 --method lp",
                           fig6), 0);
    CU_ASSERT(r.out && strstr(r.out, "upper bound on TP = 1 (1)"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants P0,P1,P2 --exclusive "
                               "--json", fig6), 0);
    CU_ASSERT(r.out && strstr(r.out, "\"upper_bound\": \"1\"") &&
              strstr(r.out, "\"throughput\": \"1\"") && strstr(r.out, "\"optimal\": true") &&
              strstr(r.out, "\"scan_structures\"") && strstr(r.out, "\"exclusive\": true") && strstr(r.out, "\"kind\": \"scan\""));
    tu_run_free(&r);
    const char *lp = tu_tmp_path("scan.lp");
    CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' --problem scan --participants P0,P1,P2 -o '%s'", fig6,
                           lp), 0);
    tu_run_free(&r);
    char *text = tu_read_file(lp);
    CU_ASSERT(text && strstr(text, "ssscan") && strstr(text, "deliver_d2") &&
              strstr(text, "cs_d1_"));
    free(text);
    /* switches and the routed model: the same transfer rows as every
     * problem (lp/resources.c) */
    const char *tiers = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    static const char *const models[] = {"--routers switch", "--model routed", ""};
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants "
                                   "h0_0_0_0,h0_0_1_0,h1_0_0_0 %s --json --quiet", tiers,
                               models[k]), 0);
        CU_ASSERT(r.out && strstr(r.out, "\"upper_bound\""));
        tu_run_free(&r);
    }
    /* TP = 0, said why: no node computes; a value cannot reach a later
     * participant (edges a -> b -> z only, w everywhere) */
    const char *now = tu_tmp_path("now.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(now,
        "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
        "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
        "<graph id=\"G\" edgedefault=\"directed\"><node id=\"a\"/><node id=\"b\"/>"
        "<node id=\"z\"/><node id=\"y\"><data key=\"w\">1</data></node>\n"
        "<edge source=\"a\" target=\"b\"><data key=\"c\">1</data></edge>\n"
        "<edge source=\"b\" target=\"z\"><data key=\"c\">1</data></edge>\n"
        "</graph></graphml>\n"), 0);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants a,b,z", now), 0);
    CU_ASSERT(r.out && strstr(r.out, "TP = 0 ") && strstr(r.out, "prefixes cannot be formed"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants z,a --exclusive", now),
                    0);
    CU_ASSERT(r.out && strstr(r.out, "TP = 0 ") &&
              strstr(r.out, "cannot be reached from participant z"));
    tu_run_free(&r);
    /* bad input: exit 2, one line */
    static const char *const bad[] = {
        "solve '%s' --problem scan --participants P0",
        "solve '%s' --problem scan --participants P0,P1,P0",
        "solve '%s' --problem scan --participants P0,PX",
        "solve '%s' --problem scan",
        "solve '%s' --problem scan --participants P0,P1 --target P2",
        "solve '%s' --problem reduce --participants P0,P1 --target P2 --exclusive",
        "solve '%s' --problem scan --participants P0,P1 --commutative",
        "schedule '%s' --problem scan --participants P0,P1 --gantt /dev/null",
        "report '%s' --problem scan --participants P0,P1 -o /dev/null",
        NULL};
    for (size_t k = 0; bad[k]; k++) {
        int st = tu_run(&r, bad[k], fig6);
        if (st != 2 || tu_count_lines(r.err) != 1)
            fprintf(stderr, "\n  '%s': exit %d, stderr '%s'\n", bad[k], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"chain: TP = 1 (proof in the test)", test_chain},
        {"star: 1/2 one-port, 1 through a switch", test_star},
        {"complete graphs: 1, 3/4, 2/3", test_complete},
        {"N = 2: the reduce LP and the one-target broadcast LP", test_two_participants},
        {"random: below each demand's reduce, equal to esolver", test_random_bounds},
        {"random: above the chain schedule's throughput", test_below_chain_schedule},
        {"CLI: solve, lp, bad input", test_cli},
        {NULL, NULL}};
    return tu_main("scan", tests);
}
