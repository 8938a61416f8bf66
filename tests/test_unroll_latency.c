/* Unrolled schedules with latencies and batches (SEMANTICS.md: a transfer
 * of z over e started at s ends at s + l(e) + batch z size c(e) and holds
 * its ports only in [s + l(e), end)): hand cases whose makespan the
 * semantics give exactly, the per-hop latency of a relay, batches chosen
 * where they pay, every problem kind with latencies and batches passing the
 * independent checker, and l = 0 leaving the schedules as they were. */
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define TIERS SSCHED_SOURCE_DIR "/examples/tiers-small.graphml"

static void set_q(mpq_t q, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(mpq_set_str(q, text, 10), 0);
    mpq_canonicalize(q);
}

/* A chain h0 <-> h1 <-> h2, c = 1 each way, w = 1, latency `lat` on every
 * edge. */
static void chain(ssched_platform_t *p, const char *lat)
{
    ssched_error_t err;
    ssched_platform_init(p);
    mpq_t one, l;
    mpq_inits(one, l, NULL);
    mpq_set_ui(one, 1, 1);
    set_q(l, lat);
    const char *names[] = {"h0", "h1", "h2"};
    for (int i = 0; i < 3; i++) {
        size_t id;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, names[i], one, &id, &err), SSCHED_OK);
    }
    static const size_t ends[4][2] = {{0, 1}, {1, 0}, {1, 2}, {2, 1}};
    for (int k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, ends[k][0], ends[k][1], one, &err),
                              SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_set_latency(p, (size_t)k, l, &err), SSCHED_OK);
    }
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, &err), SSCHED_OK);
    mpq_clears(one, l, NULL);
}

/* Latencies on tiers-small by tier, in its time unit: `host` on edges with
 * a host end, `wan` on edges with a WAN end, `mid` between LAN and MAN. */
static void tiers_latencies(ssched_platform_t *p, const char *host, const char *mid,
                            const char *wan)
{
    ssched_error_t err;
    mpq_t l;
    mpq_init(l);
    for (size_t e = 0; e < p->n_edges; e++) {
        const char *a = p->names[p->from[e]], *b = p->names[p->to[e]];
        int wa = !strncmp(a, "wan", 3) || !strncmp(b, "wan", 3);
        int ho = a[0] == 'h' || b[0] == 'h';
        set_q(l, wa ? wan : ho ? host : mid);
        CU_ASSERT_EQUAL(ssched_platform_set_latency(p, e, l, &err), SSCHED_OK);
    }
    mpq_clear(l);
}

/* Multiply every c and w of p by f (message size f in the platform's unit). */
static void scale_costs(ssched_platform_t *p, const char *f)
{
    mpq_t q;
    mpq_init(q);
    set_q(q, f);
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_mul(p->c[e], p->c[e], q);
    for (size_t i = 0; i < p->n_nodes; i++)
        mpq_mul(p->w[i], p->w[i], q);
    mpq_clear(q);
}

/* Every transfer lasts exactly l + batch * length * size * c, and every
 * operation of 0..K-1 is carried by some transfer into the target (the
 * checker verifies the rest independently). */
static void check_durations(const ssched_platform_t *p, const ssched_problem_t *pb,
                            const ssched_unrolled_t *u)
{
    mpq_t d, want;
    mpq_inits(d, want, NULL);
    int bad = 0;
    for (size_t k = 0; k < u->n_transfers && !bad; k++) {
        const ssched_timed_transfer_t *t = &u->transfers[k];
        mpq_sub(d, t->end, t->start);
        mpq_set_ui(want, t->batch, 1);
        mpq_mul(want, want, t->piece_length);
        mpq_mul(want, want, pb->size);
        mpq_mul(want, want, p->c[t->edge]);
        mpq_add(want, want, p->l[t->edge]);
        bad = !mpq_equal(d, want) || t->batch < 1 || t->op + t->batch > u->operations;
    }
    CU_ASSERT_FALSE(bad);
    mpq_clears(d, want, NULL);
}

/* Plan (or force a batch), unroll in memory, check the durations and the
 * JSON with the independent checker; the makespan into ms (if not NULL). */
static void unroll_checked(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                           size_t batch, size_t *chosen, mpq_t ms)
{
    ssched_error_t err;
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err), SSCHED_OK);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_status_t rc = ssched_unroll_plan(p, pb, &st, K, NULL, 0, &s, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  plan: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    if (chosen)
        *chosen = s.unroll_batch > 1 ? s.unroll_batch : 1;
    if (batch)
        s.unroll_batch = batch;
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    rc = ssched_unroll(p, pb, &s, K, &u, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  unroll: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    check_durations(p, pb, &u);
    char *text = tu_unrolled_json(p, pb, &s, &u);
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 1)
        fprintf(stderr, "\n  kind %d K=%zu batch %zu: %s\n", (int)pb->kind, K, batch, why);
    CU_ASSERT_EQUAL(valid, 1);
    free(text);
    if (ms)
        mpq_set(ms, u.fig.makespan);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
}

/* One edge h0 -> h1, latency 3: the sender overlaps each message's latency
 * with the previous one's bandwidth phase, so K messages take K + 3, not
 * K (1 + 3); a relay (h0 -> h1 -> h2) pays the latency per hop and one
 * message more: K + 1 + 2 x 3. */
static void test_chain_exact(void)
{
    ssched_platform_t p;
    chain(&p, "3");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    mpq_t ms;
    mpq_init(ms);
    static const size_t Ks[] = {1, 2, 10, 37};
    for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++) {
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "h0", "h1", &err), SSCHED_OK);
        unroll_checked(&p, &pb, Ks[k], 0, NULL, ms);
        CU_ASSERT(mpq_cmp_ui(ms, Ks[k] + 3, 1) == 0);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "h0", "h2", &err), SSCHED_OK);
        unroll_checked(&p, &pb, Ks[k], 0, NULL, ms);
        CU_ASSERT(mpq_cmp_ui(ms, Ks[k] + 1 + 2 * 3, 1) == 0);
        /* a batch of n: ceil(K/n) - 1 batches then the last one's m
         * messages, placed as a whole batch (K = 10, n = 4: the last batch
         * starts on h0 at 8, on h1 at 15, and ends at 15 + 3 + 2 = 20) */
        if (Ks[k] == 10) {
            unroll_checked(&p, &pb, 10, 4, NULL, ms);
            CU_ASSERT(mpq_cmp_ui(ms, 20, 1) == 0);
        }
    }
    mpq_clear(ms);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* A fractional latency and size: times stay exact (1/7 + 10 x 2/3). */
static void test_chain_fractions(void)
{
    ssched_platform_t p;
    chain(&p, "1/7");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "h0", "h1", &err), SSCHED_OK);
    set_q(pb.size, "2/3");
    mpq_t ms, want;
    mpq_inits(ms, want, NULL);
    unroll_checked(&p, &pb, 10, 0, NULL, ms);
    set_q(want, "143/21"); /* 1/7 + 20/3 */
    CU_ASSERT(mpq_equal(ms, want));
    mpq_clears(ms, want, NULL);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Every kind on tiers-small with latencies (in its unit of time), planned
 * and with forced batches (K = 10, batch 3: a shorter last batch): valid;
 * one-port, switches, and 30-digit costs and latencies (a rounded grid). */
static void test_every_kind_checked(void)
{
    static const char *const H = "h0_0_0_0,h0_0_0_1,h0_0_1_0,h1_0_0_0,h1_0_0_1,h1_0_1_2";
    for (int sw = 0; sw < 3; sw++) {
        ssched_platform_t p;
        ssched_platform_init(&p);
        ssched_error_t err;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, TIERS, &err), SSCHED_OK);
        for (size_t i = 0; sw == 1 && i < p.n_nodes; i++)
            if (!p.has_w[i]) /* --routers switch */
                p.multiport[i] = 1;
        if (sw == 2) { /* 30-digit costs: the rounded time grid */
            scale_costs(&p, "1000000000000000000000000000/999999999999999999999999999937");
            tiers_latencies(&p, "1/999999999999999999999999999989", "1/3", "7/11");
        } else {
            tiers_latencies(&p, "1/10", "1", "5");
        }
        for (int kind = 0; kind < 5; kind++) {
            if (sw == 1 && (kind == 3 || kind == 4))
                continue; /* with switches a broadcast is a multicast */
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            ssched_status_t rc =
                kind == 0 ? ssched_problem_set_scatter(&pb, &p, "h0_0_0_0",
                                                       "h0_0_1_0,h1_0_0_0,h1_0_1_2", &err)
                : kind == 1 ? ssched_problem_set_gossip(&pb, &p, "h0_0_0_0,h1_0_0_0",
                                                        "h0_0_1_0,h1_0_1_2", &err)
                : kind == 2 ? ssched_problem_set_reduce(&pb, &p, H, "h0_0_0_0", &err)
                : kind == 3 ? ssched_problem_set_broadcast(&pb, &p, "h0_0_0_0", NULL, &err)
                            : ssched_problem_set_allreduce(
                                  &pb, &p, "h0_0_0_0,h0_0_1_0,h1_0_0_1,h1_0_1_2", NULL, 0, &err);
            CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
            unroll_checked(&p, &pb, 10, 0, NULL, NULL);
            if (sw < 2) /* (a batch refuses a rounded grid with no room left) */
                unroll_checked(&p, &pb, 10, 3, NULL, NULL);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
}

/* A gossip of 1 KB messages on tiers-small (c, w in seconds for 10^8-byte
 * units scaled by 10^3 / 10^8) with 10 us / 100 us / 1 ms latencies: the
 * relays' latency stalls the pattern's order, and a batch amortizes it:
 * the plan chooses a batch > 1, strictly better than batch 1, and no worse
 * than any other batch tried. */
static void test_batch_pays(void)
{
    static const char *const H = "h0_0_0_0,h0_0_0_1,h0_0_1_0,h1_0_0_0,h1_0_0_1,h1_0_1_2";
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, TIERS, &err), SSCHED_OK);
    scale_costs(&p, "1/100000");
    tiers_latencies(&p, "1/100000", "1/10000", "1/1000");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_gossip(&pb, &p, H, H, &err), SSCHED_OK);
    size_t chosen = 0;
    mpq_t best, one, other;
    mpq_inits(best, one, other, NULL);
    unroll_checked(&p, &pb, 100, 0, &chosen, best);
    CU_ASSERT(chosen > 1);
    unroll_checked(&p, &pb, 100, 1, NULL, one);
    CU_ASSERT(mpq_cmp(best, one) < 0);
    for (size_t n = 2; n <= 8; n *= 2) {
        unroll_checked(&p, &pb, 100, n, NULL, other);
        CU_ASSERT(mpq_cmp(best, other) <= 0);
    }
    mpq_clears(best, one, other, NULL);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* The unrolled JSON of the plan for K operations (batch chosen). */
static char *plan_text(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                       size_t *chosen)
{
    ssched_error_t err;
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err), SSCHED_OK);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(p, pb, &st, K, NULL, 0, &s, &err), SSCHED_OK);
    *chosen = s.unroll_batch > 1 ? s.unroll_batch : 1;
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(p, pb, &s, K, &u, &err), SSCHED_OK);
    char *text = tu_unrolled_json(p, pb, &s, &u);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    return text;
}

/* l = 0 set on every edge: the plan keeps batch 1 and the unrolled file is
 * byte for byte the one of the platform with no latency (tiers-small,
 * K = 20, every kind); scatter and reduce keep the makespans they had
 * before the latency work. */
static void test_zero_latency_unchanged(void)
{
    static const char *const H = "h0_0_0_0,h0_0_0_1,h0_0_1_0,h1_0_0_0,h1_0_0_1,h1_0_1_2";
    ssched_platform_t p, p0;
    ssched_platform_init(&p);
    ssched_platform_init(&p0);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, TIERS, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p0, TIERS, &err), SSCHED_OK);
    tiers_latencies(&p, "0", "0", "0");
    for (int kind = 0; kind < 5; kind++) {
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        ssched_status_t rc =
            kind == 0 ? ssched_problem_set_scatter(&pb, &p, "h0_0_0_0",
                                                   "h0_0_1_0,h1_0_0_0,h1_0_1_2", &err)
            : kind == 1 ? ssched_problem_set_gossip(&pb, &p, "h0_0_0_0,h1_0_0_0",
                                                    "h0_0_1_0,h1_0_1_2", &err)
            : kind == 2 ? ssched_problem_set_reduce(&pb, &p, H, "h0_0_0_0", &err)
            : kind == 3 ? ssched_problem_set_broadcast(&pb, &p, "h0_0_0_0", NULL, &err)
                        : ssched_problem_set_allreduce(&pb, &p, "h0_0_0_0,h1_0_1_2", NULL, 0,
                                                       &err);
        CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
        size_t chosen, chosen0;
        char *a = plan_text(&p, &pb, 20, &chosen), *b = plan_text(&p0, &pb, 20, &chosen0);
        CU_ASSERT_EQUAL(chosen, 1);
        CU_ASSERT_PTR_NOT_NULL(a);
        CU_ASSERT_PTR_NOT_NULL(b);
        CU_ASSERT(a && b && !strcmp(a, b));
        /* the makespans the unrolling gave before latencies existed (the
         * patterns of the other kinds changed since, for other reasons) */
        if (a && kind == 0)
            CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"makespan\": \"131851/360\""));
        if (a && kind == 2)
            CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"makespan\": \"355351/1260\""));
        free(a);
        free(b);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
    ssched_platform_free(&p0);
}

/* The CLI: --batch and --pieces are used with --unroll, checked values. */
static void test_cli_options(void)
{
    const char *out = tu_tmp_path("lat.json");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scatter --source h0_0_0_0 --targets "
                               "h0_0_1_0,h1_0_1_2 --operations 7 --unroll --batch 3 "
                               "--pieces split -o %s",
                           TIERS, out),
                    0);
    tu_run_free(&r);
    char *text = tu_read_file(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"batch\": 3"));
    free(text);
    static const char *const bad[] = {"--batch 0", "--batch x", "--pieces some",
                                      "--batch 9" /* > K */};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scatter --source h0_0_0_0 "
                                   "--targets h0_0_1_0 --operations 7 --unroll %s -o %s",
                               TIERS, bad[k], out),
                        2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
    CU_ASSERT_EQUAL(tu_run(&r, "schedule %s --problem scatter --source h0_0_0_0 --targets "
                               "h0_0_1_0 --batch 2",
                           TIERS),
                    2);
    tu_run_free(&r);
}

int main(void)
{
    const tu_test_t tests[] = {
        {"chain: overlap, relay per hop, batches, exact makespans", test_chain_exact},
        {"chain: fractional latency and size", test_chain_fractions},
        {"every kind with latencies and batches passes the checker", test_every_kind_checked},
        {"1 KB gossip: the chosen batch beats batch 1", test_batch_pays},
        {"l = 0 leaves the schedules unchanged", test_zero_latency_unchanged},
        {"--batch and --pieces", test_cli_options},
        {NULL, NULL}};
    return tu_main("unroll_latency", tests);
}
