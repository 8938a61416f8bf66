/* Column generation with switches (issue 12): the master has a capacity row
 * per switch link, pricing charges each edge its dual cost (ports of its
 * one-port ends, plus its link row when an end is a switch), and the exact
 * certification covers the link rows.
 *
 *   - random platforms with random switch sets (and one-port routers), and
 *     clustered ones where switch-switch links are the bottleneck, for
 *     scatter, gossip and reduce, random message sizes: colgen's certified
 *     TP equals the edge LP's exactly; colgen's certificate (port, link and
 *     processor prices) sums to TP, prices only saturated resources, and
 *     reports link loads like the edge LP; for scatter/gossip the prices are
 *     checked independently as an upper bound (every origin->dest path costs
 *     at least the share that makes sum of prices >= TP);
 *   - tiers-small with --routers switch by the CLI: scatter 4/189, gossip
 *     7/2448, reduce 7/68, by --method colgen and by auto (which is colgen). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

/* n nodes: a switch with probability 35%, a one-port router (no w) with
 * probability 15%, else a host with w = a/b; a ring plus each other ordered
 * pair with probability 35%, costs a/b. */
static void random_platform(ssched_platform_t *p, unsigned n)
{
    ssched_platform_init(p);
    char name[16];
    mpq_t q;
    mpq_init(q);
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%u", i);
        unsigned kind = tu_pick(20); /* 0..6 switch, 7..9 router, else host */
        int sw = kind < 7, host = kind >= 10;
        mpq_set_ui(q, tu_pick(9) + 1, tu_pick(4) + 1);
        mpq_canonicalize(q);
        size_t idx;
        ssched_platform_add_node(p, name, host ? q : NULL, &idx, NULL);
        p->multiport[idx] = (unsigned char)sw;
    }
    mpq_clear(q);
    tu_random_edges(p, n);
}

/* Clusters, where links between switches are the bottleneck (a link with
 * a host end is also bound by the host's port, so only switch-switch links
 * can bind alone): ns switches S0.. joined by a ring and random extra links
 * of cost 2..9 (sometimes through a one-port router R), and nh hosts H0..
 * (w = a/b) each on a random switch by a cheap link (cost 1/1..1/4), plus
 * now and then a direct host-host link. */
static void clustered_platform(ssched_platform_t *p, unsigned nh, unsigned ns)
{
    ssched_platform_init(p);
    char name[16];
    mpq_t q;
    mpq_init(q);
    size_t idx, sw[8], host[16], router = SIZE_MAX;
    for (unsigned i = 0; i < ns; i++) {
        snprintf(name, sizeof name, "S%u", i);
        ssched_platform_add_node(p, name, NULL, &idx, NULL);
        p->multiport[idx] = 1;
        sw[i] = idx;
    }
    if (tu_pick(3) == 0)
        ssched_platform_add_node(p, "R", NULL, &router, NULL);
    for (unsigned i = 0; i < nh; i++) {
        snprintf(name, sizeof name, "H%u", i);
        mpq_set_ui(q, tu_pick(9) + 1, tu_pick(4) + 1);
        mpq_canonicalize(q);
        ssched_platform_add_node(p, name, q, &host[i], NULL);
    }
#define LINK(a, b, num, den)                                                  \
    do {                                                                      \
        mpq_set_ui(q, (num), (den));                                          \
        mpq_canonicalize(q);                                                  \
        ssched_platform_add_edge(p, (a), (b), q, NULL);                       \
    } while (0)
    for (unsigned i = 0; i < ns; i++)
        for (unsigned j = 0; j < ns; j++) {
            int ring = ns > 1 && j == (i + 1) % ns;
            if (i == j || (!ring && tu_pick(100) >= 30))
                continue;
            LINK(sw[i], sw[j], tu_pick(8) + 2, tu_pick(2) + 1);
        }
    if (router != SIZE_MAX)
        for (unsigned i = 0; i < ns; i++)
            if (tu_pick(2) || i == 0) {
                LINK(sw[i], router, tu_pick(4) + 1, 1);
                LINK(router, sw[i], tu_pick(4) + 1, 1);
            }
    for (unsigned i = 0; i < nh; i++) {
        size_t s = sw[tu_pick(ns)];
        LINK(host[i], s, 1, tu_pick(4) + 1);
        LINK(s, host[i], 1, tu_pick(4) + 1);
        if (i > 0 && tu_pick(6) == 0)
            LINK(host[i], host[tu_pick(i)], tu_pick(9) + 1, 1);
    }
#undef LINK
    mpq_clear(q);
    ssched_platform_finalize(p, NULL);
}

/* Instance k: a random or a clustered platform. */
static void some_platform(ssched_platform_t *p, int k, unsigned n)
{
    if (k % 2)
        clustered_platform(p, 3 + tu_pick(4), 2 + tu_pick(3));
    else
        random_platform(p, n);
}

/* The hosts (nodes with w), in index order. */
static size_t hosts_of(const ssched_platform_t *p, size_t *h)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->has_w[i] && !p->multiport[i])
            h[n++] = i;
    return n;
}

static void random_size(ssched_problem_t *pb)
{
    if (tu_pick(2))
        return; /* size 1 */
    mpq_set_ui(pb->size, tu_pick(5) + 1, tu_pick(3) + 1);
    mpq_canonicalize(pb->size);
}

/* The certificate of s: TP = sum of all prices; a priced resource is
 * saturated; nothing is over 1; a switch has no port load or price; link
 * rows exist exactly at edges with a switch end and carry the edge's load. */

/* Scatter/gossip: the reported prices bound TP on their own.  With edge
 * weights w(e) = size*c(e)*(out_price[from] + in_price[to] + link_price[e])
 * (a switch's port prices are 0), any feasible solution ships TP along
 * origin->dest paths of each type, costing at least TP * sum_t dist_t, and
 * at most the sum of prices (every priced resource is busy at most 1).  So
 * sum_t dist_t >= 1 proves TP <= sum of prices = the claimed TP.  Exact
 * Bellman-Ford, independent of the library's pricing. */
static void check_path_bound(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const ssched_steady_t *s)
{
    size_t n = p->n_nodes, ne = p->n_edges;
    mpq_t *w = malloc((ne ? ne : 1) * sizeof *w), *d = malloc(n * sizeof *d);
    unsigned char *reach = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(reach);
    mpq_t total, cand;
    mpq_inits(total, cand, NULL);
    for (size_t e = 0; e < ne; e++) {
        mpq_init(w[e]);
        mpq_add(w[e], s->out_price[p->from[e]], s->in_price[p->to[e]]);
        mpq_add(w[e], w[e], s->link_price[e]);
        mpq_mul(w[e], w[e], p->c[e]);
        mpq_mul(w[e], w[e], pb->size);
    }
    for (size_t i = 0; i < n; i++)
        mpq_init(d[i]);
    int blocked = 0;
    for (size_t t = 0; t < s->n_commodities; t++) {
        size_t o = s->commodities[t].origin, dest = s->commodities[t].dest;
        memset(reach, 0, n);
        reach[o] = 1;
        mpq_set_ui(d[o], 0, 1);
        for (size_t round = 0; round < n; round++)
            for (size_t e = 0; e < ne; e++) {
                size_t a = p->from[e], b = p->to[e];
                if (!reach[a])
                    continue;
                mpq_add(cand, d[a], w[e]);
                if (!reach[b] || mpq_cmp(cand, d[b]) < 0) {
                    reach[b] = 1;
                    mpq_set(d[b], cand);
                }
            }
        if (!reach[dest])
            blocked = 1;
        else
            mpq_add(total, total, d[dest]);
    }
    if (blocked) {
        CU_ASSERT(mpq_sgn(s->throughput) == 0);
    } else {
        CU_ASSERT(mpq_cmp_ui(total, 1, 1) >= 0);
    }
    for (size_t e = 0; e < ne; e++)
        mpq_clear(w[e]);
    for (size_t i = 0; i < n; i++)
        mpq_clear(d[i]);
    free(w);
    free(d);
    free(reach);
    mpq_clears(total, cand, NULL);
}

static int checked_total;

/* Both methods, certified; equal TP; colgen's certificate.  1 if checked. */
static int check_instance(const ssched_platform_t *p, const ssched_problem_t *pb)
{
    if (ssched_problem_validate(pb, p, NULL) != SSCHED_OK)
        return 0;
    ssched_steady_options_t a, b;
    ssched_steady_options_default(&a);
    ssched_steady_options_default(&b);
    a.method = SSCHED_METHOD_LP;
    b.method = SSCHED_METHOD_COLGEN;
    ssched_steady_t sa, sb;
    ssched_steady_init(&sa);
    ssched_steady_init(&sb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve_opts(p, pb, &a, &sa, &err), SSCHED_OK);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, &b, &sb, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  colgen: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    CU_ASSERT_EQUAL(sa.method, SSCHED_METHOD_LP);
    CU_ASSERT_EQUAL(sb.method, SSCHED_METHOD_COLGEN);
    if (!mpq_equal(sa.throughput, sb.throughput)) {
        char *x = ssched_rational_to_string(sa.throughput), *y = ssched_rational_to_string(sb.throughput);
        fprintf(stderr, "\n  %s: edge LP %s, colgen %s\n", ssched_problem_kind_name(pb->kind), x, y);
        free(x);
        free(y);
        CU_FAIL("colgen and the edge LP disagree with switches");
    }
    tu_check_certificate(p, pb->size, &sa);
    tu_check_certificate(p, pb->size, &sb);
    if (pb->kind != SSCHED_PROBLEM_REDUCE)
        check_path_bound(p, pb, &sb);
    /* auto is column generation, switches or not */
    ssched_steady_t sc;
    ssched_steady_init(&sc);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &sc, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(sc.method, SSCHED_METHOD_COLGEN);
    CU_ASSERT(mpq_equal(sc.throughput, sa.throughput));
    ssched_steady_free(&sc);
    ssched_steady_free(&sa);
    ssched_steady_free(&sb);
    checked_total++;
    return 1;
}

static int any_switch(const ssched_platform_t *p)
{
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->multiport[i])
            return 1;
    return 0;
}

/* runs random platforms with a switch (some_platform(k), 4 + tu_pick(spread)
 * nodes), each with a random problem of kind on its hosts when it has 2
 * (tu_random_host_problem) and a random size; how many check_instance
 * checked */
static int random_runs(int runs, unsigned spread, ssched_problem_kind_t kind, size_t max_part)
{
    int checked = 0;
    for (int k = 0; k < runs; k++) {
        ssched_platform_t p;
        some_platform(&p, k, 4 + tu_pick(spread));
        size_t h[16], nh = hosts_of(&p, h);
        if (nh >= 2 && any_switch(&p)) {
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            tu_random_host_problem(&pb, kind, h, nh, max_part);
            random_size(&pb);
            checked += check_instance(&p, &pb);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
    return checked;
}

static void test_random_scatters(void)
{
    CU_ASSERT(random_runs(45, 5, SSCHED_PROBLEM_SCATTER, 0) >= 20);
}

static void test_random_gossips(void)
{
    CU_ASSERT(random_runs(40, 4, SSCHED_PROBLEM_GOSSIP, 0) >= 20);
}

static void test_random_reduces(void)
{
    CU_ASSERT(random_runs(45, 4, SSCHED_PROBLEM_REDUCE, 4) >= 20);
}

/* Runs after the three random suites. */
static void test_random_count(void)
{
    fprintf(stderr, "\n  %d random instances with switches checked\n", checked_total);
    CU_ASSERT(checked_total >= 60);
}

/* tiers-small, --routers switch, by the CLI: colgen (explicit and auto). */
static void test_tiers_small(void)
{
    const char *plat = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    static const char *const problems[][2] = {
        {"--problem scatter --source h0_0_0_0 --targets h0_0_0_1,h0_0_0_2,h0_0_1_0,h0_0_1_1,"
         "h0_0_1_2,h1_0_0_0,h1_0_0_1,h1_0_0_2,h1_0_1_0,h1_0_1_1,h1_0_1_2",
         "4/189"},
        {"--problem gossip --sources h0_0_0_0,h0_0_0_1,h0_0_0_2,h0_0_1_0,h0_0_1_1,h0_0_1_2,"
         "h1_0_0_0,h1_0_0_1,h1_0_0_2,h1_0_1_0,h1_0_1_1,h1_0_1_2 --targets h0_0_0_0,h0_0_0_1,"
         "h0_0_0_2,h0_0_1_0,h0_0_1_1,h0_0_1_2,h1_0_0_0,h1_0_0_1,h1_0_0_2,h1_0_1_0,h1_0_1_1,h1_0_1_2",
         "7/2448"},
        {"--problem reduce --participants h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0,h0_0_0_1,h1_0_0_1 "
         "--target h0_0_0_0",
         "7/68"}};
    static const char *const methods[] = {"--method colgen", ""};
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 2; j++) {
            tu_run_t r;
            CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' %s --routers switch %s --json --quiet", plat,
                                   problems[k][0], methods[j]), 0);
            char tp[256] = "", expect[300];
            const char *v = strstr(r.out, "\"throughput\": \"");
            CU_ASSERT_PTR_NOT_NULL_FATAL(v);
            sscanf(v + 15, "%255[^\"]", tp);
            if (strcmp(tp, problems[k][1]))
                fprintf(stderr, "\n  tiers-small %s %s: TP %s, expected %s\n", problems[k][0],
                        methods[j], tp, problems[k][1]);
            CU_ASSERT_STRING_EQUAL(tp, problems[k][1]);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"method\": \"colgen\""));
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"certified\": true"));
            /* the saturated resources include links */
            snprintf(expect, sizeof expect, "\"link\": [");
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, expect));
            tu_run_free(&r);
        }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"random scatters with switches: colgen = edge LP", test_random_scatters},
        {"random gossips with switches: colgen = edge LP", test_random_gossips},
        {"random reduces with switches: colgen = edge LP", test_random_reduces},
        {"at least 60 random instances checked", test_random_count},
        {"tiers-small --routers switch by colgen", test_tiers_small},
        {NULL, NULL}};
    return tu_main("colgen_switches", tests);
}
