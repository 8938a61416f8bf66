/* Broadcast and multicast by column generation over arborescences
 * (issue 14, items 1 and 4; lp/colgen_broadcast.c).
 *
 *   - broadcast to every other node: the certified colgen TP equals the
 *     edge LP's exactly (Edmonds' branching theorem) on random platforms and
 *     small `gen tiers` platforms; the arborescences sum to the copies and TP;
 *   - multicast (targets a strict subset, or switches as relays): the
 *     achievable TP is <= the edge LP bound; with exact pricing it equals the
 *     optimum of an exact LP over EVERY Steiner arborescence, enumerated by
 *     brute force on tiny graphs;
 *   - a hand case where the achievable TP is strictly below the LP bound;
 *   - the CLI's text and JSON output for a multicast. */
#include <stdlib.h>
#include <string.h>

#include "ssched/gen.h"
#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

static void solve(const ssched_platform_t *p, const ssched_problem_t *pb, ssched_method_t method,
                  ssched_steady_t *s)
{
    ssched_steady_options_t opt;
    ssched_steady_options_default(&opt);
    opt.method = method;
    ssched_error_t err;
    ssched_steady_init(s);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, &opt, s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
}

/* The arborescences: each reaches every target from the source with one
 * in-arc per spanned node; their weights sum to TP and to the copies. */
static void check_arborescences(const ssched_platform_t *p, const ssched_problem_t *pb,
                                const ssched_steady_t *s)
{
    size_t n = p->n_nodes;
    mpq_t sum, *load = malloc(p->n_edges * sizeof *load);
    mpq_init(sum);
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_init(load[e]);
    size_t *in = malloc(n * sizeof *in);
    unsigned char *seen = malloc(n);
    for (size_t k = 0; k < s->n_arborescences; k++) {
        const ssched_arborescence_t *a = &s->arborescences[k];
        CU_ASSERT(mpq_sgn(a->weight) > 0);
        mpq_add(sum, sum, a->weight);
        for (size_t i = 0; i < n; i++)
            in[i] = SIZE_MAX;
        for (size_t j = 0; j < a->n_arcs; j++) {
            size_t e = a->arcs[j];
            CU_ASSERT_FATAL(e < p->n_edges);
            CU_ASSERT(in[p->to[e]] == SIZE_MAX && p->to[e] != pb->sources[0]);
            CU_ASSERT(j == 0 || p->to[a->arcs[j - 1]] < p->to[e]); /* sorted by head */
            in[p->to[e]] = e;
            mpq_add(load[e], load[e], a->weight);
        }
        for (size_t t = 0; t < pb->n_targets; t++) { /* walk up to the root */
            size_t v = pb->targets[t], steps = 0;
            while (v != pb->sources[0] && in[v] != SIZE_MAX && steps++ < n)
                v = p->from[in[v]];
            CU_ASSERT(v == pb->sources[0]);
        }
        (void)seen;
    }
    CU_ASSERT(mpq_equal(sum, s->throughput));
    size_t f = 0;
    for (size_t e = 0; e < p->n_edges; e++) {
        if (mpq_sgn(load[e]) == 0)
            continue;
        CU_ASSERT_FATAL(f < s->n_flows);
        CU_ASSERT(s->flows[f].edge == e && mpq_equal(s->flows[f].rate, load[e]));
        f++;
    }
    CU_ASSERT(f == s->n_flows);
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_clear(load[e]);
    free(load);
    free(in);
    free(seen);
    mpq_clear(sum);
}

/* colgen against the edge LP; returns 1 iff the TPs are equal.  For a
 * multicast the colgen TP is <= the LP bound, which it also carries. */
static int compare(const ssched_platform_t *p, const ssched_problem_t *pb)
{
    ssched_steady_t a, b;
    solve(p, pb, SSCHED_METHOD_COLGEN, &a);
    solve(p, pb, SSCHED_METHOD_LP, &b);
    tu_check_certificate(p, pb->size, &a);
    check_arborescences(p, pb, &a);
    CU_ASSERT(mpq_cmp(a.throughput, b.throughput) <= 0);
    CU_ASSERT(mpq_equal(a.upper_bound, b.throughput));
    int eq = mpq_equal(a.throughput, b.throughput);
    CU_ASSERT(a.multicast == b.multicast);
    if (!a.multicast) {
        CU_ASSERT(a.optimal && a.cg_pricing_exact);
        if (!eq) {
            char *x = ssched_rational_to_string(a.throughput), *y = ssched_rational_to_string(b.throughput);
            fprintf(stderr, "\n  colgen %s != edge LP %s\n", x, y);
            free(x);
            free(y);
            CU_FAIL("broadcast colgen differs from the edge LP");
        }
    } else {
        CU_ASSERT(a.optimal == (a.cg_pricing_exact || eq));
    }
    ssched_steady_free(&a);
    ssched_steady_free(&b);
    return eq;
}

static void test_random_broadcast(void)
{
    for (int run = 0; run < 40; run++) {
        ssched_platform_t p;
        tu_random_platform(&p, 3 + tu_pick(6));
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, p.names[tu_pick((unsigned)p.n_nodes)],
                                                           NULL, NULL), SSCHED_OK);
        if (run % 3 == 0)
            mpq_set_ui(pb.size, 3, 2);
        compare(&p, &pb);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* Small Tiers platforms: one-port broadcast to all (equal), and with the
 * routers made switches (a multicast to the hosts: <= the bound). */
static void test_tiers(void)
{
    for (unsigned seed = 1; seed <= 6; seed++) {
        ssched_gen_tiers_params_t P;
        ssched_gen_tiers_params_init(&P);
        P.seed = seed;
        P.wan = 2 + seed % 2;
        P.man_per_wan = 1 + seed % 2;
        P.lan_per_man = 1 + seed % 2;
        P.hosts_per_lan = 2;
        ssched_platform_t p;
        ssched_platform_init(&p);
        ssched_error_t err;
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&P, &p, &err), SSCHED_OK);
        ssched_gen_tiers_params_free(&P);
        size_t host = SIZE_MAX, seen = 0;
        for (size_t i = 0; i < p.n_nodes; i++)
            if (p.has_w[i] && seen++ == seed % 3)
                host = i;
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, p.names[host], NULL, NULL),
                              SSCHED_OK);
        CU_ASSERT(compare(&p, &pb));
        for (size_t i = 0; i < p.n_nodes; i++)
            p.multiport[i] = !p.has_w[i];
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, p.names[host], NULL, NULL),
                              SSCHED_OK);
        compare(&p, &pb);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

#include "test_broadcast_colgen_brute.inc"

static const tu_test_t tests[] = {
    {"broadcast colgen = edge LP on random platforms", test_random_broadcast},
    {"broadcast colgen on gen tiers, one-port and switches", test_tiers},
    {"multicast: exact pricing = brute force over Steiner arborescences", test_brute},
    {"multicast hand case below the LP bound", test_hand_case},
    {"CLI: multicast text and JSON", test_cli},
    {NULL, NULL},
};

int main(void)
{
    return tu_main("broadcast_colgen", tests);
}
