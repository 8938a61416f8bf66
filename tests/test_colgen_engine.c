/* The column-generation engine (issue 26 item 1) against the values the
 * four separate engines certified before it: every problem kind solved by
 * column generation (ordered reduce, scatter, gossip, commutative reduce
 * with and without optional merge points, broadcast, multicast, ordered
 * and commutative all-reduce, best root), on the graph model (one-port and
 * --routers switch) and the routed model (SimGrid files), must certify the
 * same TP, upper bound and optimal flag, after the same number of rounds,
 * exact passes and columns.  The expected values were recorded from main
 * before the refactor (SSCHED_RECORD=1 prints the table again). */
#include <stdlib.h>
#include <string.h>

#include "ssched/gen.h"
#include "ssched/rational.h"
#include "lp/colgen_engine.h"
#include "lp/colgen_internal.h"
#include "test_util.h"

typedef struct {
    const char *plat;  /* ex:FILE (examples/), gen:NODES:SEED, sg:FILE (routed) */
    const char *prob;  /* scatter gossip reduce creduce creduce_all bcast mcast
                          allreduce callreduce callreduce_best             */
    int sw;            /* --routers switch                                  */
    const char *tp, *ub;
    int optimal, pricing_exact;
    long it, passes, cols;
} case_t;

static void load(ssched_platform_t *p, const char *spec)
{
    ssched_error_t err;
    char path[512];
    if (!strncmp(spec, "sg:", 3)) {
        tu_load_simgrid(p, spec + 3);
        return;
    }
    ssched_platform_init(p);
    if (!strncmp(spec, "ex:", 3)) {
        snprintf(path, sizeof path, "%s/examples/%s", SSCHED_SOURCE_DIR, spec + 3);
        CU_ASSERT_FATAL(ssched_platform_load_graphml(p, path, &err) == SSCHED_OK);
        return;
    }
    unsigned nodes = 0, seed = 0;
    CU_ASSERT_FATAL(sscanf(spec, "gen:%u:%u", &nodes, &seed) == 2);
    ssched_gen_tiers_params_t gp;
    ssched_gen_tiers_params_init(&gp);
    gp.seed = seed;
    CU_ASSERT_FATAL(ssched_gen_tiers_shape_for_nodes(&gp, nodes, &err) == SSCHED_OK);
    ssched_status_t st = ssched_gen_tiers(&gp, p, &err);
    ssched_gen_tiers_params_free(&gp);
    CU_ASSERT_FATAL(st == SSCHED_OK);
}

/* The problem on the hosts of p (tu_host_list order). */
static void problem(const ssched_platform_t *p, const char *kind, ssched_problem_t *pb)
{
    char a[2048], b[2048];
    ssched_error_t err;
    ssched_status_t st;
    if (!strcmp(kind, "scatter")) {
        tu_host_list(p, 9, 1, 0, a, sizeof a);
        char *comma = strchr(a, ',');
        CU_ASSERT_FATAL(comma != NULL);
        *comma = 0;
        st = ssched_problem_set_scatter(pb, p, a, comma + 1, &err);
    } else if (!strcmp(kind, "gossip")) {
        tu_host_list(p, 3, 3, 0, a, sizeof a);
        tu_host_list(p, 4, 3, 1, b, sizeof b);
        st = ssched_problem_set_gossip(pb, p, a, b, &err);
    } else if (!strcmp(kind, "reduce")) {
        tu_host_list(p, 6, 2, 0, a, sizeof a);
        tu_host_list(p, 1, 1, 1, b, sizeof b);
        st = ssched_problem_set_reduce(pb, p, a, b, &err);
    } else if (!strcmp(kind, "creduce") || !strcmp(kind, "creduce_all")) {
        tu_host_list(p, kind[7] ? 1000 : 6, kind[7] ? 1 : 2, 0, a, sizeof a);
        tu_host_list(p, 1, 1, 1, b, sizeof b);
        st = ssched_problem_set_reduce(pb, p, a, b, &err);
        pb->commutative = 1;
    } else if (!strcmp(kind, "bcast") || !strcmp(kind, "mcast")) {
        tu_host_list(p, 1, 1, 0, a, sizeof a);
        tu_host_list(p, 5, 2, 1, b, sizeof b);
        st = ssched_problem_set_broadcast(pb, p, a, kind[0] == 'm' ? b : NULL, &err);
    } else {
        int comm = kind[0] == 'c', best = strstr(kind, "best") != NULL;
        tu_host_list(p, 5, 2, 0, a, sizeof a);
        tu_host_list(p, 1, 1, 1, b, sizeof b);
        st = ssched_problem_set_allreduce(pb, p, a, best ? NULL : b, comm, &err);
    }
    CU_ASSERT_FATAL(st == SSCHED_OK);
}

/* --routers switch as the CLI applies it: every node without w that the
 * problem does not name becomes a switch. */
static void switches(ssched_platform_t *p, const ssched_problem_t *pb)
{
    unsigned char *named = calloc(p->n_nodes, 1);
    for (size_t k = 0; k < pb->n_sources; k++)
        named[pb->sources[k]] = 1;
    for (size_t k = 0; k < pb->n_targets; k++)
        named[pb->targets[k]] = 1;
    for (size_t k = 0; k < pb->n_participants; k++)
        named[pb->participants[k]] = 1;
    if (pb->target != SIZE_MAX && pb->kind != SSCHED_PROBLEM_SCATTER &&
        pb->kind != SSCHED_PROBLEM_GOSSIP && pb->kind != SSCHED_PROBLEM_BROADCAST)
        named[pb->target] = 1;
    for (size_t i = 0; i < p->n_nodes; i++)
        if (!p->has_w[i] && !named[i])
            p->multiport[i] = 1;
    free(named);
}

static const case_t cases[] = {
#include "test_colgen_engine.inc"
    {NULL, NULL, 0, NULL, NULL, 0, 0, 0, 0, 0}};

/* record: 1 prints the table row; 2 checks it without the exact passes
 * and columns; 3 checks the values only (TP, bound, optimal flag). */
static void run(const case_t *c, int record)
{
    ssched_platform_t p;
    load(&p, c->plat);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    problem(&p, c->prob, &pb);
    if (c->sw)
        switches(&p, &pb);
    ssched_steady_options_t o;
    ssched_steady_options_default(&o);
    o.method = SSCHED_METHOD_COLGEN;
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    ssched_status_t st = ssched_steady_solve_opts(&p, &pb, &o, &s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  %s %s: %s\n", c->plat, c->prob, err.message);
    CU_ASSERT_FATAL(st == SSCHED_OK);
    char *tp = ssched_rational_to_string(s.throughput);
    char *ub = ssched_rational_to_string(s.upper_bound);
    if (record == 1) {
        printf("    {\"%s\", \"%s\", %d, \"%s\", \"%s\", %d, %d, %zu, %zu, %zu},\n", c->plat,
               c->prob, c->sw, tp, ub, s.optimal, s.cg_pricing_exact, s.cg_iterations,
               s.cg_exact_passes, s.cg_columns);
    } else {
        int same = !strcmp(tp, c->tp) && !strcmp(ub, c->ub) && s.optimal == c->optimal &&
                   s.cg_pricing_exact == c->pricing_exact;
        int counts = record == 3 ||
                     ((long)s.cg_iterations == c->it &&
                      (record == 2 || ((long)s.cg_exact_passes == c->passes &&
                                       (long)s.cg_columns == c->cols)));
        if (!same || !counts)
            fprintf(stderr, "\n  %s %s sw=%d: TP %s ub %s opt %d exact %d it %zu passes %zu "
                            "cols %zu; expected %s %s %d %d %ld %ld %ld\n",
                    c->plat, c->prob, c->sw, tp, ub, s.optimal, s.cg_pricing_exact,
                    s.cg_iterations, s.cg_exact_passes, s.cg_columns, c->tp, c->ub, c->optimal,
                    c->pricing_exact, c->it, c->passes, c->cols);
        CU_ASSERT(same);
        CU_ASSERT(counts);
    }
    free(tp);
    free(ub);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_same_values(void)
{
    const char *rec = getenv("SSCHED_RECORD");
    if (rec && *rec) {
        static const char *const plats[] = {"ex:fig6.graphml", "ex:tiers-small.graphml",
                                            "ex:tiers-46.graphml", "gen:30:3", "gen:60:7",
                                            "sg:small_platform.xml", "sg:two_clusters.xml"};
        static const char *const probs[] = {"scatter", "gossip", "reduce", "creduce",
                                            "creduce_all", "bcast", "mcast", "allreduce",
                                            "callreduce", "callreduce_best"};
        for (size_t i = 0; i < sizeof plats / sizeof *plats; i++)
            for (size_t j = 0; j < sizeof probs / sizeof *probs; j++)
                for (int sw = 0; sw <= (plats[i][0] != 's'); sw++) {
                    case_t c = {plats[i], probs[j], sw, NULL, NULL, 0, 0, 0, 0, 0};
                    run(&c, 1);
                }
        return;
    }
    for (const case_t *c = cases; c->plat; c++)
        run(c, 0);
}

/* The exact pass started from the float master's optimum (reconstructed
 * rationals certified, or its basis; by default only for masters of 1000
 * columns and more) certifies the same TP, bound and optimal flag on every
 * case: any optimal dual solution is a certificate.  Rounds are the float
 * phase's and do not change; exact passes and columns may (other optimal
 * duals price other columns). */
static void test_warm_exact_pass(void)
{
    size_t old = ssched_i_cge_set_warm_min_cols(0);
    for (const case_t *c = cases; c->plat; c++)
        run(c, 2);
    ssched_i_cge_set_warm_min_cols(old);
}

/* The pricing of large ordered reduces (the pendant closure, smoothed
 * duals: ssched_i_cg_large_reduce), forced on every recorded reduce case
 * (graph model with and without switches, routed model): the same TP,
 * bound and optimal flag, whatever rounds it takes. */
static void test_large_reduce(void)
{
    size_t old = ssched_i_cg_large_reduce(1);
    size_t n = 0;
    for (const case_t *c = cases; c->plat; c++)
        if (!strcmp(c->prob, "reduce")) {
            run(c, 3);
            n++;
        }
    CU_ASSERT(n >= 10);
    CU_ASSERT_EQUAL(ssched_i_cg_large_reduce(old), 1);
}

/* Progress is the engine's for every kind: a line per float round and
 * per exact pass (interval 0), the exact ones with lower == upper, the
 * float ones with lower <= upper when a bound is known. */
static long lines, exact_lines, bad_lines;

static void on_progress(void *ctx, const ssched_progress_t *info)
{
    (void)ctx;
    lines++;
    exact_lines += info->exact;
    if (info->exact ? info->lower != info->upper : info->lower > info->upper + 1e-9)
        bad_lines++;
}

/* One problem on tiers-small with a progress line per round and pass. */
static void progress_case(const char *prob)
{
    ssched_platform_t p;
    load(&p, "ex:tiers-small.graphml");
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    problem(&p, prob, &pb);
    ssched_steady_options_t o;
    ssched_steady_options_default(&o);
    o.method = SSCHED_METHOD_COLGEN;
    o.progress = on_progress;
    o.progress_interval = 0;
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    lines = exact_lines = bad_lines = 0;
    CU_ASSERT_FATAL(ssched_steady_solve_opts(&p, &pb, &o, &s, &err) == SSCHED_OK);
    CU_ASSERT_EQUAL(lines, (long)(s.cg_iterations + s.cg_exact_passes));
    CU_ASSERT_EQUAL(exact_lines, (long)s.cg_exact_passes);
    CU_ASSERT_EQUAL(bad_lines, 0);
    ssched_steady_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_progress(void)
{
    static const char *const probs[] = {"scatter", "reduce", "creduce_all", "bcast", "mcast",
                                        "callreduce"};
    for (size_t j = 0; j < sizeof probs / sizeof *probs; j++)
        progress_case(probs[j]);
    /* smoothed duals: their upper bounds too stay above the master's value */
    size_t old = ssched_i_cg_large_reduce(1);
    progress_case("reduce");
    ssched_i_cg_large_reduce(old);
}

/* The comparison can fail: a wrong expected TP is reported. */
static void test_can_fail(void)
{
    CU_ASSERT(cases[0].plat != NULL);
}

int main(void)
{
    static const tu_test_t tests[] = {{"same certified values as before the engine",
                                       test_same_values},
                                      {"the warm exact pass certifies the same values",
                                       test_warm_exact_pass},
                                      {"large-reduce pricing certifies the same values",
                                       test_large_reduce},
                                      {"progress lines for every kind", test_progress},
                                      {"table present", test_can_fail},
                                      {NULL, NULL}};
    return tu_main("colgen_engine", tests);
}
