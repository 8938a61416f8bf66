/* The routed model (platform.h, docs/model.md "Routed model"): hosts
 * only, a route of link resources per host pair, one capacity row per
 * SHARED link, a per-flow cap per FATPIPE link, hosts multi-port unless
 * hosts_one_port.
 *
 *   - hand cases: two flows through one SHARED link share it (TP halves),
 *     a FATPIPE caps each flow alone, a split-duplex link (two resources)
 *     carries both directions at full rate, one-port hosts pay their ports;
 *   - every problem kind solves on a routed platform; column generation and
 *     the edge LP agree exactly, and TP is the sum of the reported prices;
 *   - an independent formulation (test_routed_lp.inc): every host pair's
 *     route expanded by hand into a CPLEX LP file solved by QSopt_ex's
 *     esolver, equal to ssched's certified TP for scatter, gossip, reduce
 *     and broadcast, and bounding (equal when spanning) the certified
 *     upper bound of a multicast and an all-reduce through H0, on small
 *     random routed platforms;
 *   - a 32-host cluster (992 host pairs): column generation solves it.
 * The CLI's side (--model routed, --hosts): test_routed_cli.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/problem.h"
#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

/* ---- building routed platforms ------------------------------------- */

static void q_of(mpq_t q, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(q, text, NULL), SSCHED_OK);
}

/* n hosts H0.. (w = 1) of a fresh routed platform. */
static void hosts(ssched_platform_t *p, unsigned n)
{
    ssched_platform_init(p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_make_routed(p, NULL), SSCHED_OK);
    mpq_t w;
    mpq_init(w);
    mpq_set_ui(w, 1, 1);
    char name[16];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "H%u", i);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, name, w, NULL, NULL), SSCHED_OK);
    }
    mpq_clear(w);
}

static size_t link(ssched_platform_t *p, const char *name, const char *c, int fatpipe)
{
    mpq_t q;
    mpq_init(q);
    q_of(q, c);
    size_t k = SIZE_MAX;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_link(p, name, q, NULL,
                                                   fatpipe ? SSCHED_LINK_FATPIPE
                                                           : SSCHED_LINK_SHARED,
                                                   &k, NULL),
                          SSCHED_OK);
    mpq_clear(q);
    return k;
}

static void route(ssched_platform_t *p, size_t a, size_t b, size_t n, const size_t *links)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_routed_edge(p, a, b, links, n, &err), SSCHED_OK);
}

/* TP of a problem on p by `method`, with the certificate checked: TP = sum
 * of every price (ports, processors, link resources), no resource over 1,
 * a priced one saturated. */
static void solve(const ssched_platform_t *p, const ssched_problem_t *pb, ssched_method_t method,
                  mpq_t tp)
{
    ssched_steady_options_t opt;
    ssched_steady_options_default(&opt);
    opt.method = method;
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, &opt, &s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    mpq_set(tp, s.throughput);
    mpq_t sum;
    mpq_init(sum);
    for (size_t i = 0; i < p->n_nodes; i++) {
        mpq_srcptr busy[3] = {s.out_busy[i], s.in_busy[i], s.compute_busy[i]};
        mpq_srcptr price[3] = {s.out_price[i], s.in_price[i], s.compute_price[i]};
        for (int k = 0; k < 3; k++) {
            mpq_add(sum, sum, price[k]);
            CU_ASSERT(mpq_cmp_ui(busy[k], 1, 1) <= 0);
            if (mpq_sgn(price[k]) > 0)
                CU_ASSERT(mpq_cmp_ui(busy[k], 1, 1) == 0);
        }
        if (!p->routes->hosts_one_port)
            CU_ASSERT(mpq_sgn(s.out_busy[i]) == 0 && mpq_sgn(s.in_price[i]) == 0);
    }
    CU_ASSERT_EQUAL_FATAL(s.n_links, p->routes->n_links);
    for (size_t l = 0; l < s.n_links; l++) {
        mpq_add(sum, sum, s.route_link_price[l]);
        CU_ASSERT(mpq_sgn(s.route_link_price[l]) >= 0);
        CU_ASSERT(mpq_cmp_ui(s.route_link_busy[l], 1, 1) <= 0);
        if (mpq_sgn(s.route_link_price[l]) > 0)
            CU_ASSERT(mpq_cmp_ui(s.route_link_busy[l], 1, 1) == 0);
    }
    if (!s.multicast)
        CU_ASSERT(mpq_equal(sum, s.throughput)); /* duality: TP = sum of prices */
    mpq_clear(sum);
    ssched_steady_free(&s);
}

/* Both methods; they must agree; returns the TP in tp. */
static void solve_both(const ssched_platform_t *p, const ssched_problem_t *pb, mpq_t tp)
{
    mpq_t lp;
    mpq_init(lp);
    solve(p, pb, SSCHED_METHOD_COLGEN, tp);
    int multicast = pb->kind == SSCHED_PROBLEM_BROADCAST && pb->n_targets + 1 < p->n_nodes;
    if (pb->kind != SSCHED_PROBLEM_ALLREDUCE && !pb->commutative && !multicast) {
        solve(p, pb, SSCHED_METHOD_LP, lp);
        if (!mpq_equal(tp, lp))
            gmp_fprintf(stderr, "\n  colgen %Qd, edge LP %Qd\n", tp, lp);
        CU_ASSERT(mpq_equal(tp, lp));
    }
    mpq_clear(lp);
}

static void expect_tp(const ssched_platform_t *p, const ssched_problem_t *pb, const char *want)
{
    mpq_t tp;
    mpq_init(tp);
    solve_both(p, pb, tp);
    if (!tu_mpq_equals(tp, want))
        gmp_fprintf(stderr, "\n  TP %Qd, expected %s\n", tp, want);
    CU_ASSERT(tu_mpq_equals(tp, want));
    mpq_clear(tp);
}

#include "test_routed_lp.inc"

/* ---- hand cases ------------------------------------------------------ */

/* Scatter H0 -> H1, H2: routes H0->H1 = [a1, M, b1], H0->H2 = [a2, M, b2];
 * the private links are fast (1/10), M costs 1: M carries both flows. */
static void two_flows(ssched_platform_t *p, int fatpipe, int one_port)
{
    hosts(p, 3);
    p->routes->hosts_one_port = one_port;
    size_t a1 = link(p, "a1", "1/10", 0), a2 = link(p, "a2", "1/10", 0);
    size_t m = link(p, "M", "1", fatpipe);
    size_t b1 = link(p, "b1", "1/10", 0), b2 = link(p, "b2", "1/10", 0);
    size_t r1[3] = {a1, m, b1}, r2[3] = {a2, m, b2};
    route(p, 0, 1, 3, r1);
    route(p, 0, 2, 3, r2);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void test_shared_link(void)
{
    ssched_platform_t p;
    two_flows(&p, 0, 0);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "H0", "H1,H2", NULL), SSCHED_OK);
    expect_tp(&p, &pb, "1/2"); /* 2 TP * 1 <= 1 on M */
    /* the certificate names M: saturated, price 1/2 */
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.route_link_busy[2], "1"));
    CU_ASSERT(tu_mpq_equals(s.route_link_price[2], "1/2"));
    CU_ASSERT(tu_mpq_equals(s.route_link_busy[0], "1/20"));
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_fatpipe(void)
{
    ssched_platform_t p;
    two_flows(&p, 1, 0);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "H0", "H1,H2", NULL), SSCHED_OK);
    expect_tp(&p, &pb, "1"); /* each flow alone: TP * 1 <= 1 */
    ssched_steady_t s;
    ssched_steady_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &s, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(s.route_link_busy[2], "1")); /* the largest one flow */
    CU_ASSERT(tu_mpq_equals(s.route_link_price[2], "1"));
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    /* one-port hosts: H0's out-port carries both flows at c = 1 */
    two_flows(&p, 1, 1);
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "H0", "H1,H2", NULL), SSCHED_OK);
    expect_tp(&p, &pb, "1/2");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Gossip between H0 and H1 over one cable: SHARED (one resource for both
 * directions) halves TP; split duplex (L_UP, L_DOWN) gives both at full rate. */
static void test_split_duplex(void)
{
    for (int split = 0; split < 2; split++) {
        ssched_platform_t p;
        hosts(&p, 2);
        size_t up = link(&p, split ? "L_UP" : "L", "1/3", 0);
        size_t down = split ? link(&p, "L_DOWN", "1/3", 0) : up;
        route(&p, 0, 1, 1, &up);
        route(&p, 1, 0, 1, &down);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, &p, "H0,H1", "H0,H1", NULL),
                              SSCHED_OK);
        expect_tp(&p, &pb, split ? "3" : "3/2");
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* Scatter H0 -> H1, H2 over separate links of cost 1: multi-port hosts
 * send both at once (TP 1), one-port hosts one at a time (TP 1/2). */
static void test_hosts_ports(void)
{
    for (int one_port = 0; one_port < 2; one_port++) {
        ssched_platform_t p;
        hosts(&p, 3);
        p.routes->hosts_one_port = one_port;
        size_t l1 = link(&p, "l1", "1", 0), l2 = link(&p, "l2", "1", 0);
        route(&p, 0, 1, 1, &l1);
        route(&p, 0, 2, 1, &l2);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "H0", "H1,H2", NULL),
                              SSCHED_OK);
        expect_tp(&p, &pb, one_port ? "1/2" : "1");
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* ---- random routed platforms ------------------------------------------ */

/* A star-of-switches cluster: every host Hi has a private SHARED link
 * up_i (i -> core) and down_i (core -> i) (split duplex) or one link both
 * ways; nb backbone links B0.. (SHARED or FATPIPE) between pairs of
 * "sites"; host i is on site i % ns; route a->b = [up_a, (backbone of the
 * two sites if they differ), down_b].  Costs are small random fractions. */
static void random_routed(ssched_platform_t *p, unsigned n, unsigned ns, int one_port)
{
    hosts(p, n);
    p->routes->hosts_one_port = one_port;
    char name[32], c[16];
    size_t up[40], down[40], bb[8][8];
    for (unsigned i = 0; i < n; i++) {
        int duplex = (int)tu_pick(2);
        snprintf(name, sizeof name, duplex ? "h%u_UP" : "h%u", i);
        snprintf(c, sizeof c, "%u/%u", tu_pick(5) + 1, tu_pick(6) + 1);
        up[i] = link(p, name, c, 0);
        if (duplex) {
            snprintf(name, sizeof name, "h%u_DOWN", i);
            snprintf(c, sizeof c, "%u/%u", tu_pick(5) + 1, tu_pick(6) + 1);
            down[i] = link(p, name, c, 0);
        } else {
            down[i] = up[i];
        }
    }
    for (unsigned a = 0; a < ns; a++)
        for (unsigned b = a + 1; b < ns; b++) {
            snprintf(name, sizeof name, "bb%u_%u", a, b);
            snprintf(c, sizeof c, "%u/%u", tu_pick(9) + 1, tu_pick(4) + 1);
            bb[a][b] = bb[b][a] = link(p, name, c, (int)(tu_pick(3) == 0));
        }
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = 0; b < n; b++) {
            if (a == b || tu_pick(10) < 2) /* a few pairs have no route */
                continue;
            size_t r[3], k = 0;
            r[k++] = up[a];
            if (a % ns != b % ns)
                r[k++] = bb[a % ns][b % ns];
            if (down[b] != up[a])
                r[k++] = down[b];
            route(p, a, b, k, r);
        }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void hostlist(char *out, size_t cap, unsigned from, unsigned step, unsigned count,
                     unsigned n)
{
    out[0] = '\0';
    for (unsigned k = 0; k < count; k++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%sH%u", k ? "," : "", (from + k * step) % n);
    }
}

/* One problem of each kind on p (n hosts); kind 0 scatter, 1 gossip,
 * 2 ordered reduce, 3 broadcast, 4 multicast, 5 commutative reduce,
 * 6 all-reduce through H0, 7 all-reduce with the best root. */
static void make_problem(const ssched_platform_t *p, unsigned n, int kind, ssched_problem_t *pb)
{
    char a[256], b[256];
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = SSCHED_OK;
    ssched_problem_init(pb);
    switch (kind) {
    case 0:
        hostlist(b, sizeof b, 1, 1, n - 1, n);
        st = ssched_problem_set_scatter(pb, p, "H0", b, &err);
        break;
    case 1:
        hostlist(a, sizeof a, 0, 2, 2, n);
        hostlist(b, sizeof b, 1, 2, 2, n);
        st = ssched_problem_set_gossip(pb, p, a, b, &err);
        break;
    case 2:
    case 5:
        hostlist(a, sizeof a, 0, 1, n < 4 ? n : 4, n);
        st = ssched_problem_set_reduce(pb, p, a, "H1", &err);
        pb->commutative = kind == 5;
        break;
    case 3:
        st = ssched_problem_set_broadcast(pb, p, "H0", NULL, &err);
        break;
    case 4:
        hostlist(b, sizeof b, 1, 2, n / 2, n);
        st = ssched_problem_set_broadcast(pb, p, "H0", b, &err);
        break;
    default:
        hostlist(a, sizeof a, 0, 1, n < 4 ? n : 4, n);
        st = ssched_problem_set_allreduce(pb, p, a, kind == 6 ? "H0" : NULL, 0, &err);
        break;
    }
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  problem: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
}

static void test_every_kind(void)
{
    for (unsigned inst = 0; inst < 6; inst++) {
        ssched_platform_t p;
        unsigned n = 4 + tu_pick(3);
        random_routed(&p, n, 2 + tu_pick(2), inst % 3 == 2);
        for (int kind = 0; kind <= 7; kind++) {
            ssched_problem_t pb;
            make_problem(&p, n, kind, &pb);
            mpq_t tp;
            mpq_init(tp);
            solve_both(&p, &pb, tp);
            mpq_clear(tp);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
}

/* The independent formulation (test_routed_lp.inc) on small random routed
 * platforms, multi-port and one-port hosts: scatter, gossip, reduce,
 * broadcast, multicast, all-reduce through H0. */
static void test_independent(void)
{
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_sh(&r, "command -v esolver"), 0);
    tu_run_free(&r);
    static const int kinds[] = {0, 1, 2, 3, 4, 6};
    for (unsigned inst = 0; inst < 8; inst++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(3);
        random_routed(&p, n, 2 + tu_pick(2), inst % 4 == 3);
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            if (kinds[k] == 4 && n < 4) /* a multicast needs a non-target */
                continue;
            ssched_problem_t pb;
            make_problem(&p, n, kinds[k], &pb);
            if (inst % 2)
                mpq_set_ui(pb.size, 3, 2);
            ir_compare(&p, &pb);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
}

/* 32 hosts on 4 sites (992 host pairs, every one routed): column
 * generation, the default, solves a scatter, a gossip, a reduce and a
 * broadcast. */
static void test_cluster32(void)
{
    ssched_platform_t p;
    hosts(&p, 32);
    char name[32];
    size_t up[32], bb[4][4];
    for (unsigned i = 0; i < 32; i++) {
        snprintf(name, sizeof name, "h%u", i);
        up[i] = link(&p, name, i % 3 ? "1/8" : "1/4", 0);
    }
    for (unsigned a = 0; a < 4; a++)
        for (unsigned b = a + 1; b < 4; b++) {
            snprintf(name, sizeof name, "bb%u_%u", a, b);
            bb[a][b] = bb[b][a] = link(&p, name, "1/2", 0);
        }
    for (unsigned a = 0; a < 32; a++)
        for (unsigned b = 0; b < 32; b++)
            if (a != b) {
                size_t r[3] = {up[a], bb[a % 4][b % 4], up[b]};
                if (a % 4 == b % 4)
                    r[1] = up[b];
                route(&p, a, b, a % 4 == b % 4 ? 2 : 3, r);
            }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_edges, 992);
    for (int kind = 0; kind <= 3; kind++) {
        ssched_problem_t pb;
        make_problem(&p, 32, kind, &pb);
        mpq_t tp;
        mpq_init(tp);
        solve(&p, &pb, SSCHED_METHOD_AUTO, tp);
        CU_ASSERT(mpq_sgn(tp) > 0);
        mpq_clear(tp);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
}

/* ssched_platform_route: shortest by c, then fewest hops, then the node
 * settled first; links named FROM->TO with the edges' c and latency. */
static void test_platform_route(void)
{
    for (int direct = 0; direct < 2; direct++) {
        ssched_platform_t g, r;
        ssched_platform_init(&g);
        mpq_t q;
        mpq_init(q);
        mpq_set_ui(q, 1, 1);
        size_t A, X, Y, B;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&g, "A", q, &A, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&g, "X", NULL, &X, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&g, "Y", NULL, &Y, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&g, "B", q, &B, NULL), SSCHED_OK);
        size_t ends[4][2] = {{A, X}, {X, B}, {A, Y}, {Y, B}};
        for (int k = 0; k < 4; k++)
            CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&g, ends[k][0], ends[k][1], q, NULL),
                                  SSCHED_OK);
        mpq_set_ui(q, 1, 3);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(&g, 1, q, NULL), SSCHED_OK);
        mpq_set_ui(q, 2, 1); /* as long as the two-hop paths, one hop */
        if (direct)
            CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&g, A, B, q, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&g, NULL), SSCHED_OK);
        unsigned char router[4] = {0, 1, 1, 0};
        CU_ASSERT_EQUAL_FATAL(ssched_platform_route(&g, router, &r, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL(r.n_nodes, 2);
        CU_ASSERT_EQUAL_FATAL(r.n_edges, 1); /* B has no way back to A */
        CU_ASSERT_STRING_EQUAL(r.routes->link_names[1], "X->B");
        const ssched_routes_t *rt = r.routes;
        size_t len = rt->route_start[1] - rt->route_start[0];
        if (direct) { /* the fewest hops */
            CU_ASSERT_EQUAL(len, 1);
            CU_ASSERT_STRING_EQUAL(rt->link_names[rt->route_links[0]], "A->B");
            CU_ASSERT(tu_mpq_equals(r.c[0], "2"));
        } else { /* X settles before Y: A->X, X->B */
            CU_ASSERT_EQUAL_FATAL(len, 2);
            CU_ASSERT_EQUAL(rt->route_links[0], 0);
            CU_ASSERT_EQUAL(rt->route_links[1], 1);
            CU_ASSERT(tu_mpq_equals(r.c[0], "1"));
            CU_ASSERT(tu_mpq_equals(r.l[0], "1/3"));
        }
        ssched_platform_free(&r);
        ssched_platform_free(&g);
        mpq_clear(q);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"two flows through one SHARED link halve TP", test_shared_link},
        {"a FATPIPE caps each flow, not their sum", test_fatpipe},
        {"split duplex: both directions at full rate", test_split_duplex},
        {"hosts multi-port vs one-port", test_hosts_ports},
        {"every problem kind: colgen = edge LP, TP = sum of prices", test_every_kind},
        {"an independent LP (routes expanded by hand, esolver) agrees", test_independent},
        {"32-host cluster by column generation", test_cluster32},
        {"ssched_platform_route: shortest, fewest hops, ties", test_platform_route},
        {NULL, NULL}};
    return tu_main("routed", tests);
}
