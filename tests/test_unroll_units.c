/* Unit-free unrolling (issue 22 item 0).
 *  - Every problem kind on tiers-small (scatter, gossip, reduce,
 *    commutative reduce, broadcast, multicast, all-reduce), its costs and
 *    task times multiplied by 1, 65536/10^8 and 10^6 (exact rationals):
 *    the unrolled schedule is emitted, passes the checker, its makespan is
 *    the unscaled one times the factor exactly, the pattern's period too,
 *    with the same operations per period and the same makespan / LB(K).
 *  - Random dense digraphs of 7-9 nodes with small rational costs: the
 *    gossip among every node unrolls (K = 1 and 50) into a valid schedule
 *    (these were refused: piece resolution or ticks over 62 bits, or the
 *    pattern delivered more than TP of a type).
 *  - 30-digit costs: every kind unrolls (the rounded time grid) into a
 *    valid schedule with exact times; broadcasts and multicasts over
 *    several arborescences too (short apportioned patterns).
 *  - Large K: the unrolled gossip's makespan / (K/TP) at K = 10^4 is below
 *    1.01 (exact figures). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define TIERS SSCHED_SOURCE_DIR "/examples/tiers-small.graphml"

/* dst := src with every c and w multiplied by f. */
static void scaled(const ssched_platform_t *src, const mpq_t f, ssched_platform_t *dst)
{
    ssched_platform_init(dst);
    mpq_t x;
    mpq_init(x);
    for (size_t i = 0; i < src->n_nodes; i++) {
        mpq_mul(x, src->w[i], f);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(dst, src->names[i],
                                                       src->has_w[i] ? x : NULL, NULL, NULL),
                              SSCHED_OK);
    }
    for (size_t e = 0; e < src->n_edges; e++) {
        mpq_mul(x, src->c[e], f);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(dst, src->from[e], src->to[e], x, NULL),
                              SSCHED_OK);
    }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(dst, NULL), SSCHED_OK);
    for (size_t e = 0; src->l && e < src->n_edges; e++) {
        mpq_mul(x, src->l[e], f);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(dst, e, x, NULL), SSCHED_OK);
    }
    mpq_clear(x);
}

typedef struct {
    mpq_t makespan, ratio, period, steady;
    unsigned long ops;
} result_t;

static void result_init(result_t *r)
{
    mpq_inits(r->makespan, r->ratio, r->period, r->steady, NULL);
    r->ops = 0;
}

static void result_free(result_t *r)
{
    mpq_clears(r->makespan, r->ratio, r->period, r->steady, NULL);
}

/* Solve, plan, unroll K operations, write and check the file; 1 if all
 * went well (the figures in r). */
static int unroll_case(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                       result_t *r, const char *what)
{
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_unrolled_t u;
    ssched_error_t err;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    ssched_unrolled_init(&u);
    int ok = 0;
    if (ssched_steady_solve(p, pb, NULL, &st, &err) != SSCHED_OK)
        fprintf(stderr, "%s: solve: %s\n", what, err.message);
    else if (ssched_unroll_plan(p, pb, &st, K, NULL, 0, &s, &err) != SSCHED_OK)
        fprintf(stderr, "%s: plan: %s\n", what, err.message);
    else if (ssched_unroll(p, pb, &s, K, &u, &err) != SSCHED_OK)
        fprintf(stderr, "%s: unroll: %s\n", what, err.message);
    else {
        char *text = tu_unrolled_json(p, pb, &s, &u), why[512];
        int v = text ? tu_check_text(text, why, sizeof why) : -1;
        if (v != 1)
            fprintf(stderr, "%s: check: %s\n", what, text ? why : "no text");
        free(text);
        ok = v == 1;
        mpq_set(r->makespan, u.fig.makespan);
        mpq_set(r->ratio, u.fig.ratio);
        mpq_set(r->period, u.fig.period);
        mpq_set(r->steady, u.fig.steady_time);
        r->ops = mpz_get_ui(u.fig.ops_per_period);
    }
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    return ok;
}

static const char *const HOSTS =
    "h0_0_0_0,h0_0_0_1,h0_0_0_2,h0_0_1_0,h0_0_1_1,h0_0_1_2,h1_0_0_0,h1_0_0_1,h1_0_0_2,"
    "h1_0_1_0,h1_0_1_1,h1_0_1_2";

/* Problem `kind` (0..6) on a tiers-small-named platform. */
static void set_problem(const ssched_platform_t *p, int kind, ssched_problem_t *pb)
{
    ssched_problem_init(pb);
    ssched_status_t st = SSCHED_EINPUT;
    switch (kind) {
    case 0:
        st = ssched_problem_set_scatter(pb, p, "h0_0_0_0", HOSTS + strlen("h0_0_0_0,"), NULL);
        break;
    case 1:
        st = ssched_problem_set_gossip(pb, p, "h0_0_0_0,h0_0_1_1,h1_0_0_2,h1_0_1_0",
                                       "h0_0_0_0,h0_0_1_1,h1_0_0_2,h1_0_1_0", NULL);
        break;
    case 2:
    case 3:
        st = ssched_problem_set_reduce(pb, p, "h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_0", "h0_0_0_1",
                                       NULL);
        pb->commutative = kind == 3;
        break;
    case 4:
        st = ssched_problem_set_broadcast(pb, p, "h0_0_0_0", NULL, NULL);
        break;
    case 5:
        st = ssched_problem_set_broadcast(pb, p, "h0_0_0_0", "h0_0_1_2,h1_0_0_1,h1_0_1_2", NULL);
        break;
    default:
        st = ssched_problem_set_allreduce(pb, p, "h0_0_0_0,h0_0_1_0,h1_0_0_0", "h0_0_0_1", 0,
                                          NULL);
        break;
    }
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
}

static const char *const KIND[] = {"scatter",   "gossip",    "reduce",   "commutative reduce",
                                   "broadcast", "multicast", "all-reduce"};

/* with_latency: every edge also has a latency, lat_ratio times its c */
static void scaled_units(const char *lat_ratio)
{
    ssched_platform_t base;
    ssched_platform_init(&base);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&base, TIERS, NULL), SSCHED_OK);
    if (lat_ratio) {
        mpq_t r, l;
        mpq_inits(r, l, NULL);
        mpq_set_str(r, lat_ratio, 10);
        mpq_canonicalize(r);
        for (size_t e = 0; e < base.n_edges; e++) {
            mpq_mul(l, base.c[e], r);
            CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(&base, e, l, NULL), SSCHED_OK);
        }
        mpq_clears(r, l, NULL);
    }
    static const char *const factors[] = {"65536/100000000", "1000000"};
    mpq_t f, x;
    mpq_inits(f, x, NULL);
    for (int kind = 0; kind < 7; kind++) {
        size_t K = kind == 6 ? 12 : 30;
        ssched_problem_t pb;
        set_problem(&base, kind, &pb);
        result_t r1;
        result_init(&r1);
        char what[128];
        snprintf(what, sizeof what, "%s x 1%s", KIND[kind], lat_ratio ? " (latencies)" : "");
        CU_ASSERT(unroll_case(&base, &pb, K, &r1, what));
        ssched_problem_free(&pb);
        for (size_t k = 0; k < sizeof factors / sizeof *factors; k++) {
            mpq_set_str(f, factors[k], 10);
            mpq_canonicalize(f);
            ssched_platform_t sp;
            scaled(&base, f, &sp);
            set_problem(&sp, kind, &pb);
            result_t r;
            result_init(&r);
            snprintf(what, sizeof what, "%s x %s", KIND[kind], factors[k]);
            CU_ASSERT(unroll_case(&sp, &pb, K, &r, what));
            mpq_mul(x, r1.makespan, f);
            if (!mpq_equal(x, r.makespan))
                fprintf(stderr, "%s: makespan %s, expected %s\n", what,
                        mpq_get_str(NULL, 10, r.makespan), mpq_get_str(NULL, 10, x));
            CU_ASSERT(mpq_equal(x, r.makespan));
            CU_ASSERT(mpq_equal(r1.ratio, r.ratio));
            mpq_mul(x, r1.period, f);
            CU_ASSERT(mpq_equal(x, r.period));
            CU_ASSERT_EQUAL(r1.ops, r.ops);
            result_free(&r);
            ssched_problem_free(&pb);
            ssched_platform_free(&sp);
        }
        result_free(&r1);
    }
    mpq_clears(f, x, NULL);
    ssched_platform_free(&base);
}

static void test_scaled_units(void)
{
    scaled_units(NULL);
}

/* Latencies scale with the unit too: l(e) = 37/10 c(e) everywhere. */
static void test_scaled_latencies(void)
{
    scaled_units("37/10");
}

/* A SimGrid platform read with 1-byte unit messages: every latency is
 * 10^3 to 10^5 times a unit's transfer time and their exact denominators
 * make fine ticks; every kind still unrolls (the time bound counts the
 * latencies and picks the rounded grid) into a checked schedule. */
static void test_latency_dominated(void)
{
    const char *plat = SSCHED_DATA_DIR "/simgrid/small_platform.xml";
    const char *h = "Tremblay,Jupiter,Fafard,Ginette,Bourassa,Jacquelin";
    char problem[5][256];
    snprintf(problem[0], sizeof problem[0], "scatter --source Tremblay --targets %s", h + 9);
    snprintf(problem[1], sizeof problem[1], "gossip --sources %s --targets %s", h, h);
    snprintf(problem[2], sizeof problem[2], "reduce --participants %s --target Tremblay", h);
    snprintf(problem[3], sizeof problem[3], "broadcast --source Tremblay");
    snprintf(problem[4], sizeof problem[4], "allreduce --participants %s", h);
    for (int k = 0; k < 5; k++) {
        tu_run_t r;
        int rc = tu_run(&r, "schedule '%s' --problem %s --operations 50 --unroll --quiet -o '%s'",
                        plat, problem[k], tu_tmp_path("lat1byte.json"));
        if (rc != 0)
            fprintf(stderr, "%s: exit %d: %s", problem[k], rc, r.err);
        CU_ASSERT_EQUAL(rc, 0);
        tu_run_free(&r);
    }
}

/* A dense random digraph on n nodes (a ring plus each other arc with
 * probability 3/5), costs a/b with a in 1..30, b in 1..12 (digits = 0), or
 * 30-digit numerators and denominators; every node computes. */
static void random_platform(ssched_platform_t *p, unsigned n, int digits)
{
    ssched_platform_init(p);
    mpq_t x;
    mpq_init(x);
    char name[16], num[64], den[64], text[160];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "n%u", i);
        mpq_set_ui(x, 1 + tu_pick(50), 1 + tu_pick(12));
        mpq_canonicalize(x);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, name, x, NULL, NULL), SSCHED_OK);
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            if (i == j || (j != (i + 1) % n && tu_pick(5) >= 3))
                continue;
            if (digits) {
                num[0] = (char)('1' + tu_pick(9));
                den[0] = (char)('1' + tu_pick(9));
                for (int d = 1; d < digits; d++) {
                    num[d] = (char)('0' + tu_pick(10));
                    den[d] = (char)('0' + tu_pick(10));
                }
                num[digits] = den[digits] = '\0';
                snprintf(text, sizeof text, "%s/%s", num, den);
                mpq_set_str(x, text, 10);
                mpq_canonicalize(x);
            } else {
                mpq_set_ui(x, 1 + tu_pick(30), 1 + tu_pick(12));
                mpq_canonicalize(x);
            }
            CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, i, j, x, NULL), SSCHED_OK);
        }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
    mpq_clear(x);
}

static void all_nodes(unsigned n, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < n && k + 8 < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "%sn%u", i ? "," : "", i);
}

static void test_random_gossips(void)
{
    char nodes[128], what[64];
    for (unsigned g = 0; g < 8; g++) {
        unsigned n = 7 + g % 3;
        ssched_platform_t p;
        random_platform(&p, n, 0);
        all_nodes(n, nodes, sizeof nodes);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, &p, nodes, nodes, NULL), SSCHED_OK);
        static const size_t Ks[] = {1, 50};
        for (size_t k = 0; k < 2; k++) {
            result_t r;
            result_init(&r);
            snprintf(what, sizeof what, "random gossip %u (%u nodes) K=%zu", g, n, Ks[k]);
            CU_ASSERT(unroll_case(&p, &pb, Ks[k], &r, what));
            CU_ASSERT(mpq_cmp(r.makespan, r.steady) >= 0);
            result_free(&r);
        }
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

static void test_thirty_digits(void)
{
    ssched_platform_t p;
    random_platform(&p, 5, 30);
    char what[64];
    for (int kind = 0; kind < 6; kind++) {
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        ssched_status_t st = SSCHED_OK;
        switch (kind) {
        case 0: st = ssched_problem_set_scatter(&pb, &p, "n0", "n1,n2,n3,n4", NULL); break;
        case 1: st = ssched_problem_set_gossip(&pb, &p, "n0,n1,n2,n3,n4", "n0,n1,n2,n3,n4", NULL); break;
        case 2: st = ssched_problem_set_reduce(&pb, &p, "n0,n1,n2", "n3", NULL); break;
        case 3:
            st = ssched_problem_set_reduce(&pb, &p, "n0,n1,n2", "n3", NULL);
            pb.commutative = 1;
            break;
        case 4: st = ssched_problem_set_broadcast(&pb, &p, "n0", NULL, NULL); break;
        default: st = ssched_problem_set_allreduce(&pb, &p, "n0,n1,n2", "n3", 0, NULL); break;
        }
        CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
        result_t r;
        result_init(&r);
        snprintf(what, sizeof what, "30-digit %s", KIND[kind == 5 ? 6 : kind]);
        CU_ASSERT(unroll_case(&p, &pb, 10, &r, what));
        CU_ASSERT(mpq_cmp(r.makespan, r.steady) >= 0);
        result_free(&r);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
    /* broadcasts and multicasts over several arborescences: the least
     * whole counts of 30-digit rates are 30-digit numbers of operations,
     * so short apportioned patterns are unrolled instead */
    for (unsigned g = 0; g < 3; g++) {
        random_platform(&p, 8, 30);
        for (int multi = 0; multi < 2; multi++) {
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "n0",
                                                               multi ? "n3,n5,n7" : NULL, NULL),
                                  SSCHED_OK);
            result_t r;
            result_init(&r);
            snprintf(what, sizeof what, "30-digit %s %u", multi ? "multicast" : "broadcast", g);
            CU_ASSERT(unroll_case(&p, &pb, 10, &r, what));
            result_free(&r);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
}

/* The exact fraction after `key` in text (up to a space). */
static int figure(const char *text, const char *key, mpq_t out)
{
    const char *at = strstr(text, key);
    if (!at)
        return 0;
    at += strlen(key);
    size_t n = strcspn(at, " \n");
    char buf[256];
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, at, n);
    buf[n] = '\0';
    if (mpq_set_str(out, buf, 10) != 0)
        return 0;
    mpq_canonicalize(out);
    return 1;
}

/* A one-port Tiers gossip among 6 hosts (gen tiers --seed 6 --nodes 30)
 * where whole messages kept 2.3 % over K/TP at every K: the planner now
 * ranks pieces against whole messages on their real rate, and at K = 10^4
 * makespan / (K/TP) is below 1.01 (the CLI's exact figures; the 3.6 * 10^6
 * transfers go to /dev/null). */
static void test_gossip_large_k(void)
{
    char plat[512];
    snprintf(plat, sizeof plat, "%s", tu_tmp_path("tiers30.graphml"));
    tu_run_t r;
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "gen tiers --seed 6 --nodes 30 -o '%s'", plat), 0);
    tu_run_free(&r);
    const char *g = "h0_0_0_0,h0_0_1_0,h0_1_0_0,h0_1_1_0,h1_0_0_0,h1_0_1_0";
    CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' --problem gossip --sources %s --targets %s "
                                     "--operations 10000 --unroll --no-check --quiet -o /dev/null",
                                 plat, g, g),
                          0);
    mpq_t mk, steady, bound;
    mpq_inits(mk, steady, bound, NULL);
    CU_ASSERT(figure(r.out, "time for K operations: ", mk));
    CU_ASSERT(figure(r.out, "K/TP = ", steady));
    CU_ASSERT(mpq_sgn(steady) > 0);
    mpq_set_ui(bound, 101, 100);
    mpq_mul(bound, bound, steady);
    CU_ASSERT(mpq_cmp(mk, steady) >= 0);
    CU_ASSERT(mpq_cmp(mk, bound) < 0);
    mpq_clears(mk, steady, bound, NULL);
    tu_run_free(&r);
}

static const tu_test_t tests[] = {
    {"scaled platforms: the same schedule, scaled", test_scaled_units},
    {"scaled latencies: the same schedule, scaled", test_scaled_latencies},
    {"latencies far above a unit's time unroll", test_latency_dominated},
    {"random small gossips unroll at K = 1 and 50", test_random_gossips},
    {"30-digit costs unroll", test_thirty_digits},
    {"gossip at K = 10^4 within 1 % of K/TP", test_gossip_large_k},
    {NULL, NULL},
};

int main(void)
{
    return tu_main("unroll_units", tests);
}
