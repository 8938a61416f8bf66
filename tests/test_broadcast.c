/* Series of broadcasts (issue 14, part 1): the steady-state LP of Beaumont,
 * Legrand, Marchal, Robert (IPDPS 2004), certified exactly.
 *
 *   - hand-derived TPs: a star (1/3), a chain (broadcast 1, scatter 1/2),
 *     a triangle where relaying beats the scatter (3/4 against 1/2), a
 *     switch hub (one-port 1/3, switch upper bound 1), message sizes;
 *   - multicast (targets a strict subset): flagged as an upper bound;
 *   - random platforms and random Tiers-like platforms: the certified TP
 *     equals QSopt_ex's (esolver) on the exported LP; TP = sum of prices;
 *     broadcast >= scatter to the same targets; fewer targets never lower it;
 *   - the CLI: solve (text, JSON), lp, and refusals (exit 2, one line);
 *     periodic schedules: test_broadcast_schedule.c. */
#include <stdlib.h>
#include <string.h>

#include "ssched/gen.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

/* A platform from "a>b:c" items (directed; "a-b:c" = both ways); nodes in
 * order of appearance, routers (no w) unless listed in `hosts` ("a,b"). */
static void platform_of(ssched_platform_t *p, const char *spec, const char *hosts)
{
    ssched_platform_init(p);
    char *text = strdup(spec), *save = NULL;
    mpq_t c, one;
    mpq_inits(c, one, NULL);
    mpq_set_ui(one, 1, 1);
    for (char *it = strtok_r(text, " ", &save); it; it = strtok_r(NULL, " ", &save)) {
        char a[32], b[32], q[32], sep;
        CU_ASSERT_EQUAL_FATAL(sscanf(it, "%31[^>-]%c%31[^:]:%31s", a, &sep, b, q), 4);
        size_t ia, ib;
        const char *names[2] = {a, b};
        size_t *idx[2] = {&ia, &ib};
        for (int k = 0; k < 2; k++)
            if (ssched_platform_find_node(p, names[k], idx[k], NULL) != SSCHED_OK) {
                char pat[40];
                snprintf(pat, sizeof pat, ",%s,", names[k]);
                char list[256];
                snprintf(list, sizeof list, ",%s,", hosts ? hosts : "");
                CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, names[k],
                                                               strstr(list, pat) ? one : NULL,
                                                               idx[k], NULL), SSCHED_OK);
            }
        CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(c, q, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, ia, ib, c, NULL), SSCHED_OK);
        if (sep == '-')
            CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, ib, ia, c, NULL), SSCHED_OK);
    }
    free(text);
    mpq_clears(c, one, NULL);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void set_switch(ssched_platform_t *p, const char *name)
{
    size_t i;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_find_node(p, name, &i, NULL), SSCHED_OK);
    p->multiport[i] = 1;
}

/* Solve (edge LP, certified) into s; check TP = want (NULL: no check), the
 * multicast flag and the certificate (TP = sum of prices). */
static void solve_bc(const ssched_platform_t *p, const char *source, const char *targets,
                     const char *want, int want_multicast, ssched_steady_t *s)
{
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, p, source, targets, &err), SSCHED_OK);
    ssched_steady_options_t opt; /* the edge LP (auto picks colgen for broadcast-to-all) */
    ssched_steady_options_default(&opt);
    opt.method = SSCHED_METHOD_LP;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, &pb, &opt, s, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(s->kind, SSCHED_PROBLEM_BROADCAST);
    CU_ASSERT_EQUAL(s->method, SSCHED_METHOD_LP);
    CU_ASSERT_EQUAL(s->multicast, want_multicast);
    if (want && !tu_mpq_equals(s->throughput, want)) {
        char *got = ssched_rational_to_string(s->throughput);
        fprintf(stderr, "\n  broadcast from %s: TP %s, expected %s\n", source, got, want);
        free(got);
        CU_FAIL("broadcast TP");
    }
    tu_check_certificate(p, pb.size, s);
    ssched_problem_free(&pb);
}

static void solve_scatter(const ssched_platform_t *p, const char *source, const char *targets,
                          const char *want)
{
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, p, source, targets, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, &pb, NULL, &s, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.throughput, want));
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
}

static int price_is(const ssched_platform_t *p, const ssched_steady_t *s, const char *node,
                    int out, const char *want)
{
    size_t i;
    if (ssched_platform_find_node(p, node, &i, NULL) != SSCHED_OK)
        return 0;
    return tu_mpq_equals(out ? s->out_price[i] : s->in_price[i], want);
}

/* ---- hand-derived cases ------------------------------------------------- */

/* Source at the centre, c = 1 to 3 leaves: one-port, each message goes out
 * three times, TP = 1/3 (as the scatter); the source's out-port bounds it. */
static void test_star(void)
{
    ssched_platform_t p;
    platform_of(&p, "s>a:1 s>b:1 s>d:1", NULL);
    ssched_steady_t s;
    ssched_steady_init(&s);
    solve_bc(&p, "s", NULL, "1/3", 0, &s);
    CU_ASSERT(price_is(&p, &s, "s", 1, "1/3"));
    CU_ASSERT_EQUAL(s.n_flows, 3);
    for (size_t k = 0; k < s.n_flows; k++)
        CU_ASSERT(tu_mpq_equals(s.flows[k].rate, "1/3"));
    CU_ASSERT_EQUAL(s.n_commodities, 3);
    solve_scatter(&p, "s", "a,b,d", "1/3");
    ssched_steady_free(&s);
    ssched_platform_free(&p);
}

/* P0 -> P1 -> P2, c = 1: P1 forwards the copy it received, every port busy
 * 1 per message: broadcast TP = 1; the scatter sends two messages over
 * P0 -> P1 per operation: 1/2. */
static void test_chain(void)
{
    ssched_platform_t p;
    platform_of(&p, "P0>P1:1 P1>P2:1", NULL);
    ssched_steady_t s;
    ssched_steady_init(&s);
    solve_bc(&p, "P0", NULL, "1", 0, &s);
    CU_ASSERT_EQUAL(s.n_flows, 2);
    solve_scatter(&p, "P0", "P1,P2", "1/2");
    /* from the end of the chain nothing is reachable: TP = 0, named */
    solve_bc(&p, "P2", NULL, "0", 0, &s);
    CU_ASSERT(s.unreachable[0] && s.unreachable[1]);
    /* to P2 alone: a multicast (P1 only relays): the LP bound is 1 */
    solve_bc(&p, "P0", "P2", "1", 1, &s);
    ssched_steady_free(&s);
    ssched_platform_free(&p);
}

/* s -> a, s -> b at c = 1, a <-> b at c = 2.  The spanning arborescences
 * are T1 = {sa, sb}, T2 = {sa, ab}, T3 = {sb, ba}; with weights w:
 *   s out: 2w1 + w2 + w3 <= 1,  a in: w1 + w2 + 2w3 <= 1,  b in: w1 + 2w2 + w3 <= 1
 * (a out 2w2, b out 2w3 are looser); w = (1/4,1/4,1/4) gives 3/4, and the
 * dual (1/4, 1/4, 1/4) on these three ports proves it optimal.  A scatter
 * must send two messages out of s at cost >= 1 each: 1/2. */
static void test_relay_beats_scatter(void)
{
    ssched_platform_t p;
    platform_of(&p, "s>a:1 s>b:1 a-b:2", NULL);
    ssched_steady_t s;
    ssched_steady_init(&s);
    solve_bc(&p, "s", NULL, "3/4", 0, &s);
    solve_scatter(&p, "s", "a,b", "1/2");
    /* message size 2: every busy time doubles, TP halves */
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "s", NULL, NULL), SSCHED_OK);
    mpq_set_ui(pb.size, 2, 1);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.throughput, "3/8"));
    tu_check_certificate(&p, pb.size, &s);
    ssched_problem_free(&pb);
    ssched_steady_free(&s);
    ssched_platform_free(&p);
}

/* Hub r linked both ways (c = 1) to hosts s, a, b, d.  One-port: r is a
 * target too and sends three copies out of one port: 1/3.  r a switch: the
 * default targets are a, b, d (a switch is never a target), every link its
 * own resource: the LP bound is 1, flagged as a multicast bound. */
static void test_switch_hub(void)
{
    ssched_platform_t p;
    platform_of(&p, "r-s:1 r-a:1 r-b:1 r-d:1", "s,a,b,d");
    ssched_steady_t s;
    ssched_steady_init(&s);
    solve_bc(&p, "s", NULL, "1/3", 0, &s);
    CU_ASSERT(price_is(&p, &s, "r", 1, "1/3"));
    set_switch(&p, "r");
    solve_bc(&p, "s", NULL, "1", 1, &s);
    CU_ASSERT_EQUAL(s.n_commodities, 3);
    ssched_steady_free(&s);
    ssched_platform_free(&p);
}

static void test_bad_problems(void)
{
    ssched_platform_t p;
    platform_of(&p, "s>a:1 s>b:1 r-a:1", NULL);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_problem_set_broadcast(&pb, &p, "s", "a,s", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "among its own targets"));
    CU_ASSERT_EQUAL(ssched_problem_set_broadcast(&pb, &p, "zz", NULL, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "unknown node 'zz'"));
    CU_ASSERT_EQUAL(ssched_problem_set_broadcast(&pb, &p, "s", "a,a", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "listed twice"));
    CU_ASSERT_EQUAL(ssched_problem_set_broadcast(&pb, &p, "s", "a,q", &err), SSCHED_EINPUT);
    set_switch(&p, "r");
    CU_ASSERT_EQUAL(ssched_problem_set_broadcast(&pb, &p, "s", "a,r", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "switch"));
    /* default targets skip the switch */
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "s", NULL, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(pb.n_targets, 2);
    CU_ASSERT_STRING_EQUAL(ssched_problem_kind_name(pb.kind), "broadcast");
    /* column generation (test_broadcast_colgen.c): the switch is a relay
     * only, so an achievable TP below or at the edge LP's bound */
    ssched_steady_options_t opt;
    ssched_steady_options_default(&opt);
    opt.method = SSCHED_METHOD_COLGEN;
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL(ssched_steady_solve_opts(&p, &pb, &opt, &s, &err), SSCHED_OK);
    CU_ASSERT(s.multicast && mpq_cmp(s.throughput, s.upper_bound) <= 0);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* ---- random instances against esolver ------------------------------------ */

/* esolver on the exported LP, the certificate, and the returned TP. */
static void cross_check(const ssched_platform_t *p, const ssched_problem_t *pb, mpq_t tp,
                        int *agree)
{
    ssched_model_t m;
    ssched_model_init(&m);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_model_build(p, pb, &m, &err), SSCHED_OK);
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &s, &err), SSCHED_OK);
    tu_check_certificate(p, pb->size, &s);
    mpq_t ref;
    mpq_init(ref);
    CU_ASSERT_EQUAL_FATAL(tu_esolver_optimum(&m.lp, ref), 0);
    if (mpq_equal(ref, s.throughput)) {
        (*agree)++;
    } else {
        char *a = ssched_rational_to_string(s.throughput), *b = ssched_rational_to_string(ref);
        fprintf(stderr, "\n  ssched broadcast TP %s != esolver %s\n", a, b);
        free(a);
        free(b);
        CU_FAIL("broadcast TP differs from esolver");
    }
    mpq_set(tp, s.throughput);
    mpq_clear(ref);
    ssched_steady_free(&s);
    ssched_model_free(&m);
}

/* Random platforms (4..7 nodes), random source and target subsets: TP equals
 * esolver's; broadcast >= scatter to the same targets (a scatter's flows
 * are a broadcast's, copies = their sum); a subset's bound >= all's TP. */
static void test_random_vs_esolver(void)
{
    int agree = 0, runs = 0;
    mpq_t all, sub;
    mpq_inits(all, sub, NULL);
    for (int k = 0; k < 40; k++) {
        ssched_platform_t p;
        unsigned n = 4 + tu_pick(4);
        tu_random_platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        char src[16];
        snprintf(src, sizeof src, "P%u", tu_pick(n));
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, src, NULL, NULL), SSCHED_OK);
        cross_check(&p, &pb, all, &agree);
        runs++;
        /* a random strict subset of the targets */
        size_t keep = 0;
        for (size_t t = 0; t < pb.n_targets; t++)
            if (tu_pick(2) || (keep == 0 && t + 1 == pb.n_targets))
                pb.targets[keep++] = pb.targets[t];
        if (keep < pb.n_targets) {
            pb.n_targets = keep;
            cross_check(&p, &pb, sub, &agree);
            runs++;
            CU_ASSERT(mpq_cmp(sub, all) >= 0);
        }
        ssched_steady_t s;
        ssched_steady_init(&s);
        pb.kind = SSCHED_PROBLEM_SCATTER;
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
        CU_ASSERT(mpq_cmp(keep < n - 1 ? sub : all, s.throughput) >= 0);
        ssched_steady_free(&s);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(agree, runs);
    mpq_clears(all, sub, NULL);
}

/* Small `gen tiers` platforms: broadcast from a host to every other node
 * (one-port), and to the hosts with the routers made switches. */
static void test_tiers_vs_esolver(void)
{
    int agree = 0, runs = 0;
    mpq_t tp;
    mpq_init(tp);
    for (unsigned seed = 1; seed <= 6; seed++) {
        ssched_platform_t p;
        tu_small_tiers(&p, seed);
        size_t host = SIZE_MAX, seen = 0;
        for (size_t i = 0; i < p.n_nodes; i++)
            if (p.has_w[i] && seen++ == seed % 3)
                host = i;
        CU_ASSERT_FATAL(host != SIZE_MAX);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, p.names[host], NULL, NULL),
                              SSCHED_OK);
        cross_check(&p, &pb, tp, &agree);
        CU_ASSERT(mpq_sgn(tp) > 0);
        runs++;
        for (size_t i = 0; i < p.n_nodes; i++)
            p.multiport[i] = !p.has_w[i];
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, p.names[host], NULL, NULL),
                              SSCHED_OK);
        cross_check(&p, &pb, tp, &agree);
        runs++;
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(agree, runs);
    mpq_clear(tp);
}

/* ---- the command line ---------------------------------------------------- */

static const char *write_platform(const char *name, const char *edges)
{
    const char *path = tu_tmp_path(name);
    char text[4096];
    snprintf(text, sizeof text,
             "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
             "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
             "<graph id=\"G\" edgedefault=\"directed\">\n%s</graph></graphml>\n", edges);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, text), 0);
    return path;
}

#define EDGE(a, b) "<edge source=\"" a "\" target=\"" b "\"><data key=\"c\">1</data></edge>\n"

static void expect_refusal(tu_run_t *r, const char *what)
{
    CU_ASSERT_EQUAL(r->status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r->err), 1);
    if (!strstr(r->err, what)) {
        fprintf(stderr, "\n  stderr: %s  (expected '%s')\n", r->err, what);
        CU_FAIL("refusal message");
    }
    tu_run_free(r);
}

static void test_cli(void)
{
    const char *chain = write_platform("chain.graphml",
                                       "<node id=\"P0\"/><node id=\"P1\"/><node id=\"P2\"/>\n"
                                       EDGE("P0", "P1") EDGE("P1", "P2"));
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem broadcast --source P0", chain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "throughput TP = 1 (1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "P1 -> P2  1"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem broadcast --source P0 --json", chain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"throughput\": \"1\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"certified\": true"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "upper_bound"));
    tu_run_free(&r);
    /* multicast by the edge LP alone: an upper bound, never called a
     * throughput (the default, column generation, also gives the
     * achievable TP: tests/test_broadcast_colgen.c) */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem broadcast --source P0 --targets P2 "
                               "--method lp", chain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "upper bound on TP = 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "not computed yet"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem broadcast --source P0 --targets P2 --json "
                               "--method lp", chain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"upper_bound\": \"1\""));
    CU_ASSERT_PTR_NULL(strstr(r.out, "\"throughput\""));
    tu_run_free(&r);
    /* the exported LP has the same optimum for an independent exact solver */
    const char *lp = tu_tmp_path("chain.lp");
    CU_ASSERT_EQUAL(tu_run(&r, "lp '%s' --problem broadcast --source P0 -o '%s'", chain, lp), 0);
    tu_run_free(&r);
    tu_sh(&r, "cd '%s/..' && esolver -L -O bsol.txt '%s' >/dev/null 2>&1; grep 'Value = ' bsol.txt",
          lp, lp);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Value = 1"));
    tu_run_free(&r);
    /* bad input: exit 2, one line */
    tu_run(&r, "solve '%s' --problem broadcast --source P0 --targets P1,P0", chain);
    expect_refusal(&r, "the source 'P0' is listed among its own targets");
    tu_run(&r, "solve '%s' --problem broadcast --source Q", chain);
    expect_refusal(&r, "unknown node 'Q'");
    tu_run(&r, "solve '%s' --problem broadcast --targets P1", chain);
    expect_refusal(&r, "broadcast: missing --source");
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem broadcast --source P0 --method colgen",
                           chain), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "certified optimal"));
    tu_run_free(&r);
    /* periodic schedules are built (test_broadcast_schedule.c), and
     * unrolled ones (test_unroll_broadcast.c) */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem broadcast --source P0 --operations 5 "
                               "--unroll -o '%s'", chain, tu_tmp_path("u.json")), 0);
    tu_run_free(&r);
    /* a scatter's schedule relabelled as a broadcast's */
    const char *sc = tu_tmp_path("scatter.json"), *bogus = tu_tmp_path("bcast.json");
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' --problem scatter --source P0 --targets P1,P2 "
                                     "-o '%s'", chain, sc), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "sed 's/\"kind\": *\"scatter\"/\"kind\": \"broadcast\"/' "
                                    "'%s' > '%s' && grep -c broadcast '%s'", sc, bogus, bogus), 0);
    tu_run_free(&r);
    tu_run(&r, "check '%s'", bogus); /* no arborescences prove the copies */
    expect_refusal(&r, "missing \"arborescences\" array");
    /* the same for an unrolled file, by the checker and by the reader the
     * MPI executor uses */
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' --problem scatter --source P0 --targets P1,P2 "
                                     "--operations 3 --unroll -o '%s'", chain, sc), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "sed 's/\"kind\": *\"scatter\"/\"kind\": \"broadcast\"/' "
                                    "'%s' > '%s' && grep -c broadcast '%s'", sc, bogus, bogus), 0);
    tu_run_free(&r);
    tu_run(&r, "check '%s'", bogus); /* pieces, origin and dest: not a broadcast's */
    CU_ASSERT_NOT_EQUAL(r.status, 0);
    tu_run_free(&r);
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_unrolled_t u;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_unrolled_init(&u);
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_unrolled_read_file(bogus, &p, &pb, &u, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "names no origin"));
    ssched_unrolled_free(&u);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"star: TP 1/3, the source's out-port", test_star},
        {"chain: broadcast 1, scatter 1/2; unreachable; multicast bound", test_chain},
        {"relaying beats the scatter: 3/4 against 1/2; size 2", test_relay_beats_scatter},
        {"switch hub: one-port 1/3, switch multicast bound 1", test_switch_hub},
        {"bad problems and colgen refused", test_bad_problems},
        {"random platforms equal esolver's optimum", test_random_vs_esolver},
        {"gen tiers platforms equal esolver's optimum", test_tiers_vs_esolver},
        {"command line: solve, json, lp, refusals", test_cli},
        {NULL, NULL}};
    return tu_main("broadcast steady state", tests);
}
