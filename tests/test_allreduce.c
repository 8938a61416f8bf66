/* Series of all-reduces (issue 14 item 3): the reduce to a root R and the
 * broadcast of its result from R in one steady state, by column generation
 * over reduction trees and arborescences (lp/colgen_allreduce*.c), its
 * combined edge LP (lp/build_allreduce.c), the best root, periodic
 * schedules and their checker (schedule/build_allreduce.c, check_allreduce.c), and the CLI.
 *
 *   - hand cases: two nodes (w = 1 and w = 2), fig6 (every root);
 *   - fig6: TP <= min(reduce TP, broadcast TP); the combined edge LP gives
 *     the same value, solved by ssched and by esolver (independent);
 *   - random platforms, every node a participant: column generation ==
 *     the combined edge LP (Edmonds + RR-4872 Lemma 2); a strict subset:
 *     TP <= the certified bound;
 *   - best root = the maximum over explicit --root solves;
 *   - every schedule built passes the checker; mutated ones do not;
 *   - bad input through the CLI (exit 2). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define EX SSCHED_SOURCE_DIR "/examples/"

static void load(ssched_platform_t *p, const char *path)
{
    ssched_platform_init(p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(p, path, NULL), SSCHED_OK);
}

/* Solve the all-reduce of `parts` to `root` (NULL: best root). */
static int commutative; /* the operator of the next ar_solve calls */
static void ar_solve(const ssched_platform_t *p, const char *parts, const char *root,
                  ssched_problem_t *pb, ssched_steady_t *s)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_problem_init(pb);
    ssched_steady_init(s);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_allreduce(pb, p, parts, root, commutative, &err), SSCHED_OK);
    ssched_status_t st = ssched_steady_solve(p, pb, NULL, s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    /* the certificate: TP = sum of the prices, nothing over capacity */
    tu_check_certificate(p, pb->size, s);
    CU_ASSERT(mpq_cmp(s->throughput, s->upper_bound) <= 0);
    CU_ASSERT(s->n_rated_trees > 0 && s->n_arborescences > 0);
}

/* Build (split and no-split) and check the schedule; returns the split
 * JSON text (malloc'ed). */
static char *schedule_checked(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_steady_t *s)
{
    char *keep = NULL;
    for (int no_split = 0; no_split < 2; no_split++) {
        ssched_schedule_t sc;
        ssched_schedule_init(&sc);
        ssched_schedule_options_t so;
        ssched_schedule_options_default(&so);
        so.no_split = no_split;
        ssched_error_t err;
        ssched_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(p, pb, s, &so, &sc, &err), SSCHED_OK);
        CU_ASSERT(mpq_equal(sc.throughput, s->throughput));
        char *text = tu_schedule_json(p, pb, &sc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        char why[512];
        int v = tu_check_text(text, why, sizeof why);
        if (v != 1)
            fprintf(stderr, "checker: %s\n", why);
        CU_ASSERT_EQUAL(v, 1);
        if (no_split)
            free(text);
        else
            keep = text;
        ssched_schedule_free(&sc);
    }
    return keep;
}

/* A GraphML file of the given nodes and edges (c and w keys declared). */
static const char *platform(const char *name, const char *body)
{
    const char *path = tu_tmp_path(name);
    char text[2048];
    snprintf(text, sizeof text,
             "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
             "<key id=\"w\" for=\"node\" attr.name=\"w\" attr.type=\"string\"/>\n"
             "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
             "<graph edgedefault=\"directed\">\n%s</graph></graphml>\n", body);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    return path;
}
#define NODE(n, w) "<node id=\"" n "\"><data key=\"w\">" w "</data></node>\n"
#define EDGE(a, b) "<edge source=\"" a "\" target=\"" b "\"><data key=\"c\">1</data></edge>\n" \
                   "<edge source=\"" b "\" target=\"" a "\"><data key=\"c\">1</data></edge>\n"

static const char *two_nodes(const char *w)
{
    char body[512];
    snprintf(body, sizeof body,
             "<node id=\"A\"><data key=\"w\">%s</data></node>\n"
             "<node id=\"B\"><data key=\"w\">%s</data></node>\n" EDGE("A", "B"), w, w);
    return platform(w[0] == '1' ? "two1.graphml" : "two2.graphml", body);
}

/* Participants A, B (in this order), root A, c = 1 both ways.  An
 * operation merges v0 and v1 on A (B sends v1: B out, A in, A computes)
 * or on B (A sends v0: A out, B in, B computes, then B sends v[0,1] to A:
 * B out, A in); either way B's out-port and A's in-port carry one message
 * per operation, and the broadcast adds A -> B (A out, B in).  With a
 * fraction f of the operations merged on B, per time unit:
 *   B out, A in: TP;  A out, B in: (1 + f) TP;  A cpu (1 - f) w TP;
 *   B cpu f w TP.
 * w = 1: f = 0 gives TP = 1 (every port and A's cpu busy 1), and no
 * schedule beats 1 (B's out-port).  w = 2: maximise TP with (1 + f) TP <= 1
 * and 2 (1 - f) TP <= 1: equal at f = 1/3, TP = 3/4. */
static void test_two_nodes(void)
{
    const char *w[2] = {"1", "2"}, *tp[2] = {"1", "3/4"};
    for (int k = 0; k < 2; k++) {
        ssched_platform_t p;
        load(&p, two_nodes(w[k]));
        ssched_problem_t pb;
        ssched_steady_t s;
        ar_solve(&p, "A,B", "A", &pb, &s);
        CU_ASSERT(tu_mpq_equals(s.throughput, tp[k]));
        CU_ASSERT(s.optimal && s.cg_pricing_exact);
        CU_ASSERT_EQUAL(s.allreduce_root, 0);
        free(schedule_checked(&p, &pb, &s));
        ssched_steady_free(&s);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* The combined edge LP of pb (root given), solved exactly; with esolver,
 * also by QSopt_ex (counted in esolver_runs). */
static int esolver_runs;
static void edge_lp(const ssched_platform_t *p, const ssched_problem_t *pb, mpq_t out,
                    int esolver)
{
    ssched_lp_t lp;
    CU_ASSERT_EQUAL_FATAL(ssched_i_car_build_edge_lp(p, pb, &lp, NULL, NULL), SSCHED_OK);
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&lp, NULL, &sol, NULL), SSCHED_OK);
    mpq_set(out, sol.objective);
    if (esolver) {
        /* QSopt_ex on the exported file: shares nothing with ssched */
        mpq_t ref;
        mpq_init(ref);
        if (tu_esolver_optimum(&lp, ref) == 0) {
            CU_ASSERT(mpq_equal(ref, out));
            esolver_runs++;
        }
        mpq_clear(ref);
    }
    ssched_lp_solution_free(&sol);
    ssched_lp_free(&lp);
}

/* fig6 (RR-4872 Fig. 6: three nodes fully connected, c = 1).  Root P0: the
 * reduce needs at least two transfers per operation (P1 and P2 each send
 * something: their value is needed elsewhere) and the broadcast two copies
 * (P1 and P2 each receive the result), four out-port time units per
 * operation over three out-ports: TP <= 3/4, and 3/4 is reached.  P2 as
 * the root is the same by symmetry of the order (v0 and v1 adjacent); P1
 * in the middle of the order gives 2/3. */
static void test_fig6(void)
{
    ssched_platform_t p;
    load(&p, EX "fig6.graphml");
    const char *roots[3] = {"P0", "P1", "P2"}, *tp[3] = {"3/4", "2/3", "3/4"};
    for (int k = 0; k < 3; k++) {
        ssched_problem_t pb;
        ssched_steady_t s;
        ar_solve(&p, "P0,P1,P2", roots[k], &pb, &s);
        CU_ASSERT(tu_mpq_equals(s.throughput, tp[k]));
        CU_ASSERT(s.optimal);
        mpq_t lp;
        mpq_init(lp);
        edge_lp(&p, &pb, lp, 1);
        CU_ASSERT(mpq_equal(lp, s.throughput)); /* every node takes part */
        /* below the reduce alone and the broadcast alone */
        ssched_problem_t one;
        ssched_steady_t r;
        ssched_problem_init(&one);
        ssched_steady_init(&r);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&one, &p, "P0,P1,P2", roots[k], NULL),
                              SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &one, NULL, &r, NULL), SSCHED_OK);
        CU_ASSERT(mpq_cmp(s.throughput, r.throughput) <= 0);
        ssched_problem_free(&one);
        ssched_problem_init(&one);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&one, &p, roots[k], NULL, NULL),
                              SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &one, NULL, &r, NULL), SSCHED_OK);
        CU_ASSERT(mpq_cmp(s.throughput, r.throughput) <= 0);
        ssched_problem_free(&one);
        ssched_steady_free(&r);
        free(schedule_checked(&p, &pb, &s));
        mpq_clear(lp);
        ssched_steady_free(&s);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
    /* the independent solve did run where esolver is installed */
    tu_run_t r;
    if (tu_sh(&r, "command -v esolver >/dev/null") == 0) {
        CU_ASSERT(esolver_runs == 3);
    }
    tu_run_free(&r);
}

/* Random platforms (w on most nodes): with every node a participant the
 * column generation (exact pricing) equals the combined edge LP; with a
 * strict subset, TP <= the certified bound, and the edge LP is that bound
 * or above it. */
static void test_random(void)
{
    int solved = 0;
    for (int k = 0; k < 40; k++) {
        ssched_platform_t p;
        ssched_platform_init(&p);
        unsigned n = 3 + tu_pick(4);
        char name[16], parts[64] = "";
        mpq_t w;
        mpq_init(w);
        for (unsigned i = 0; i < n; i++) {
            snprintf(name, sizeof name, "P%u", i);
            mpq_set_ui(w, tu_pick(5) + 1, tu_pick(3) + 1);
            ssched_platform_add_node(&p, name, i % 4 == 3 ? NULL : w, NULL, NULL);
        }
        mpq_clear(w);
        tu_random_edges(&p, n);
        int all = k % 2 == 0;
        /* participants in a shuffled order: P(s), P(s+1), ... */
        unsigned start = tu_pick(n), np = all ? n : 2 + tu_pick(n - 2);
        for (unsigned i = 0; i < np; i++)
            snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "%sP%u", i ? "," : "",
                     (start + i) % n);
        snprintf(name, sizeof name, "P%u", tu_pick(n));
        ssched_problem_t pb;
        ssched_steady_t s;
        ar_solve(&p, parts, name, &pb, &s);
        mpq_t lp;
        mpq_init(lp);
        edge_lp(&p, &pb, lp, k < 6);
        if (all) {
            CU_ASSERT(mpq_equal(lp, s.throughput));
        }
        CU_ASSERT(mpq_cmp(s.throughput, lp) <= 0);
        if (mpq_sgn(s.throughput) > 0) {
            free(schedule_checked(&p, &pb, &s));
            solved++;
        }
        mpq_clear(lp);
        ssched_steady_free(&s);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT(solved >= 30);
}

/* Best root: the maximum over explicit roots, every candidate listed. */
static void best_root_of(const char *path, const char *parts)
{
    ssched_platform_t p;
    load(&p, path);
    ssched_problem_t pb;
    ssched_steady_t s;
    ar_solve(&p, parts, NULL, &pb, &s);
    CU_ASSERT(s.n_root_candidates > 0);
    mpq_t best;
    mpq_init(best);
    for (size_t k = 0; k < s.n_root_candidates; k++) {
        ssched_problem_t one;
        ssched_steady_t r;
        ar_solve(&p, parts, p.names[s.root_candidates[k]], &one, &r);
        if (mpq_cmp(r.throughput, best) > 0)
            mpq_set(best, r.throughput);
        if (s.root_pruned[k]) { /* its bound could not beat the best */
            CU_ASSERT(mpq_cmp(r.throughput, s.throughput) <= 0);
        } else {
            CU_ASSERT(mpq_equal(r.throughput, s.root_throughput[k]));
        }
        CU_ASSERT(mpq_cmp(r.throughput, s.root_upper_bound[k]) <= 0);
        CU_ASSERT(mpq_cmp(s.root_upper_bound[k], s.upper_bound) <= 0);
        ssched_steady_free(&r);
        ssched_problem_free(&one);
    }
    CU_ASSERT(mpq_equal(best, s.throughput));
    ssched_problem_t at;
    ssched_steady_t r;
    ar_solve(&p, parts, p.names[s.allreduce_root], &at, &r);
    CU_ASSERT(mpq_equal(r.throughput, s.throughput));
    ssched_steady_free(&r);
    ssched_problem_free(&at);
    free(schedule_checked(&p, &pb, &s));
    mpq_clear(best);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_best_root(void)
{
    best_root_of(EX "fig6.graphml", "P0,P1,P2");
    best_root_of(EX "fig6.graphml", "P1,P0");
    best_root_of(EX "tiers-small.graphml", "h0_0_0_0,h0_0_1_0,h1_0_0_1");
}

/* Steiner pricing with too many relays (tiers-small, tiers-46: a few
 * hosts of 20 and 46 nodes): TP is certified feasible; the bound (Farley's
 * from the exact duals with Wong's dual ascent, or the edge LP's) lies
 * between TP and the combined edge LP; on these instances Farley's bound
 * proves TP optimal, and the edge LP agrees. */
static void test_tiers(void)
{
    const char *plat[2] = {EX "tiers-small.graphml", EX "tiers-46.graphml"};
    const char *parts[2] = {"h0_0_0_0,h0_0_1_0,h1_0_0_1",
                            "h0_0_0_0,h0_0_1_2,h0_1_1_0,h1_0_0_2,h1_1_0_0,h1_1_1_2"};
    const char *root[2][2] = {{"h0_0_0_0", "lan1_0_0"}, {"h0_1_1_0", "wan0"}};
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < 2; r++) {
            ssched_platform_t p;
            load(&p, plat[k]);
            ssched_problem_t pb;
            ssched_steady_t s;
            ar_solve(&p, parts[k], root[k][r], &pb, &s);
            CU_ASSERT(!s.cg_pricing_exact);
            mpq_t lp;
            mpq_init(lp);
            edge_lp(&p, &pb, lp, 0);
            CU_ASSERT(mpq_cmp(s.throughput, s.upper_bound) <= 0);
            CU_ASSERT(mpq_cmp(s.upper_bound, lp) <= 0);
            CU_ASSERT(s.optimal == mpq_equal(s.throughput, s.upper_bound));
            CU_ASSERT(s.optimal && mpq_equal(lp, s.throughput));
            mpq_clear(lp);
            if (k == 0)
                free(schedule_checked(&p, &pb, &s));
            ssched_steady_free(&s);
            ssched_problem_free(&pb);
            ssched_platform_free(&p);
        }
}

/* Routers as switches (tiers-small): link rows in the master, one use
 * per link and slot in the schedule; every root a host (a switch is never
 * a root), the best one scheduled and checked, below the one-port TP's
 * bound never (the switch model only relaxes the routers' ports). */
static void test_switches(void)
{
    ssched_platform_t p;
    load(&p, EX "tiers-small.graphml");
    const char *parts = "h0_0_0_0,h0_0_1_0,h1_0_0_1,h1_0_1_2";
    ssched_problem_t pb;
    ssched_steady_t one, sw;
    ar_solve(&p, parts, NULL, &pb, &one);
    ssched_problem_free(&pb);
    for (size_t i = 0; i < p.n_nodes; i++)
        p.multiport[i] = !p.has_w[i];
    ar_solve(&p, parts, NULL, &pb, &sw);
    for (size_t k = 0; k < sw.n_root_candidates; k++)
        CU_ASSERT(p.has_w[sw.root_candidates[k]]);
    CU_ASSERT(mpq_cmp(one.throughput, sw.upper_bound) <= 0);
    free(schedule_checked(&p, &pb, &sw));
    ssched_steady_free(&one);
    ssched_steady_free(&sw);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

#include "test_allreduce_cases.inc"

int main(void)
{
    static const tu_test_t tests[] = {
        {"two nodes by hand (w = 1: TP 1; w = 2: TP 3/4)", test_two_nodes},
        {"fig6: every root, below reduce and broadcast, edge LP and esolver", test_fig6},
        {"random platforms against the combined edge LP", test_random},
        {"best root = maximum over explicit roots", test_best_root},
        {"tiers: heuristic Steiner pricing, certified bound", test_tiers},
        {"routers as switches (tiers-small, best root)", test_switches},
        {"mutated schedules are rejected", test_mutations},
        {"commutative: chain by hand (1/2 against 2/5 ordered), fig6, tiers", test_commutative},
        {"CLI and bad input", test_cli},
        {NULL, NULL}};
    return tu_main("allreduce", tests);
}
