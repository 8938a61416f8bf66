/* Routed unrolled schedules packed close to K/TP (issue 23: docs/model.md,
 * "Routed model", unrolling).  A star cluster built with the library: hosts
 * H0..Hn-1, each with its own up-link and down-link (SHARED, c = 1, no
 * latency; a SimGrid cluster's SPLITDUPLEX private links), the route X -> Y
 * = [X_up, Y_down] (the switch is no resource).
 *
 *  - broadcast H0 -> every other host: TP = 1 (H0's up-link), and a chain
 *    H0 -> Ha -> Hb -> ... crosses every link once per operation, so K
 *    operations take K - 1 + (n - 1) time units: the plan must reach it;
 *  - gossip among 4 hosts: TP = 1/3 (every up-link carries 3 messages per
 *    operation); the pieces of a period in shift rounds (a permutation per
 *    round, schedule/unroll_flow.c) meet K/TP exactly;
 *  (these two small cases the code before issue 23's packing work met
 *  too: they guard the optimum, the file cases below show the gain);
 *  - reduce of 4 hosts whose processors are nearly saturated: valid, and
 *    K/TP <= makespan (the processors' gap filling keeps every task on its
 *    own processor one at a time: the checker verifies it).
 * And on SimGrid's own cluster files (../shared/data/simgrid, 1 MB
 * messages, as bench/simgrid_exec.sh): cluster_fat_tree's broadcast from
 * node-0 to 7 hosts within 7 % of K/TP at K = 100 (the column
 * generation's stars gave 1.70), cluster_backbone's gossip of 6 hosts
 * within 0.1 % (sender-by-sender order gave 1.20), small_platform's
 * scatter from Boivin within 1 % (direct routes only: 1.33).
 * Every file passes the independent checker. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

/* The star of n hosts (w = task time, a fraction text). */
static void star(ssched_platform_t *p, size_t n, const char *w)
{
    ssched_error_t err;
    mpq_t qw, one, zero;
    mpq_inits(qw, one, zero, NULL);
    mpq_set_str(qw, w, 10);
    mpq_canonicalize(qw);
    mpq_set_ui(one, 1, 1);
    ssched_platform_init(p);
    size_t up[8], down[8];
    for (size_t i = 0; i < n; i++) {
        char name[32];
        size_t idx;
        snprintf(name, sizeof name, "H%zu", i);
        CU_ASSERT_FATAL(ssched_platform_add_node(p, name, qw, &idx, &err) == SSCHED_OK);
    }
    CU_ASSERT_FATAL(ssched_platform_make_routed(p, &err) == SSCHED_OK);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "H%zu_up", i);
        CU_ASSERT_FATAL(ssched_platform_add_link(p, name, one, zero, SSCHED_LINK_SHARED, &up[i],
                                                 &err) == SSCHED_OK);
        snprintf(name, sizeof name, "H%zu_down", i);
        CU_ASSERT_FATAL(ssched_platform_add_link(p, name, one, zero, SSCHED_LINK_SHARED,
                                                 &down[i], &err) == SSCHED_OK);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j) {
                size_t r[2] = {up[i], down[j]};
                CU_ASSERT_FATAL(ssched_platform_add_routed_edge(p, i, j, r, 2, &err) ==
                                SSCHED_OK);
            }
    CU_ASSERT_FATAL(ssched_platform_finalize(p, &err) == SSCHED_OK);
    mpq_clears(qw, one, zero, NULL);
}

static void test_broadcast_chain(void)
{
    ssched_platform_t p;
    star(&p, 5, "1");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_problem_set_broadcast(&pb, &p, "H0", "H1,H2,H3,H4", &err) == SSCHED_OK);
    mpq_t m, ktp;
    mpq_inits(m, ktp, NULL);
    tu_routed_plan(&p, &pb, 20, m, ktp);
    CU_ASSERT(tu_mpq_equals(ktp, "20"));
    if (!tu_mpq_equals(m, "23"))
        gmp_fprintf(stderr, "\n  broadcast makespan %Qd (chain: 23)\n", m);
    CU_ASSERT(tu_mpq_equals(m, "23")); /* 19 + 4 hops */
    mpq_clears(m, ktp, NULL);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_gossip_shift(void)
{
    ssched_platform_t p;
    star(&p, 4, "1");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_problem_set_gossip(&pb, &p, "H0,H1,H2,H3", "H0,H1,H2,H3", &err) ==
                    SSCHED_OK);
    mpq_t m, ktp;
    mpq_inits(m, ktp, NULL);
    tu_routed_plan(&p, &pb, 20, m, ktp);
    CU_ASSERT(tu_mpq_equals(ktp, "60"));
    if (!mpq_equal(m, ktp))
        gmp_fprintf(stderr, "\n  gossip makespan %Qd (K/TP %Qd)\n", m, ktp);
    CU_ASSERT(mpq_equal(m, ktp)); /* 3 perfect rounds per operation */
    mpq_clears(m, ktp, NULL);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_reduce_valid(void)
{
    ssched_platform_t p;
    star(&p, 4, "5/4");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_problem_set_reduce(&pb, &p, "H0,H1,H2,H3", "H0", &err) == SSCHED_OK);
    tu_routed_expect(&p, &pb, 30, NULL, NULL); /* checked inside */
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_fat_tree_broadcast(void)
{
    ssched_platform_t p;
    tu_load_simgrid(&p, "cluster_fat_tree.xml");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_problem_set_broadcast(
                            &pb, &p, "node-0.simgrid.org",
                            "node-10.simgrid.org,node-12.simgrid.org,node-14.simgrid.org,"
                            "node-2.simgrid.org,node-4.simgrid.org,node-6.simgrid.org,"
                            "node-8.simgrid.org",
                            &err) == SSCHED_OK);
    tu_routed_expect(&p, &pb, 100, "4/5", "7/100");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_backbone_gossip(void)
{
    ssched_platform_t p;
    tu_load_simgrid(&p, "cluster_backbone.xml");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    const char *g = "node-0.simgrid.org,node-12.simgrid.org,node-23.simgrid.org,"
                    "node-34.simgrid.org,node-45.simgrid.org,node-56.simgrid.org";
    CU_ASSERT_FATAL(ssched_problem_set_gossip(&pb, &p, g, g, &err) == SSCHED_OK);
    tu_routed_expect(&p, &pb, 100, "4", "1/1000");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_small_platform_scatter(void)
{
    ssched_platform_t p;
    tu_load_simgrid(&p, "small_platform.xml");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_problem_set_scatter(&pb, &p, "Boivin",
                                               "Bourassa,Fafard,Ginette,Jacquelin,Jupiter,Tremblay",
                                               &err) == SSCHED_OK);
    tu_routed_expect(&p, &pb, 100, "4800000/82517", "1/100");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"broadcast on a star cluster: one chain at TP", test_broadcast_chain},
        {"gossip on a star cluster: shift rounds meet K/TP", test_gossip_shift},
        {"reduce with busy processors: valid", test_reduce_valid},
        {"cluster_fat_tree.xml broadcast within 7 % of K/TP", test_fat_tree_broadcast},
        {"cluster_backbone.xml gossip within 0.1 % of K/TP", test_backbone_gossip},
        {"small_platform.xml scatter through a relay within 1 % of K/TP",
         test_small_platform_scatter},
        {NULL, NULL},
    };
    return tu_main("routed schedules packed", tests);
}
