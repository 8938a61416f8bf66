/* Unrolled broadcasts (whole messages down the arborescences): on a chain,
 * a triangle, a star, random small platforms and `gen tiers` instances,
 * every file (in memory and streamed) passes the checker, the buffer
 * figures equal a direct sweep over the events, the reader takes the file;
 * the makespan stays close to K / TP on tiers-small, for the broadcast and
 * for multicasts (Steiner arborescences: relays forward, every target gets
 * each message once); hand-broken files are rejected
 * (tests/test_multicast.c breaks multicast files). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/gen.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

typedef struct {
    mpq_t t;
    int acquire;
    size_t node;
} item_t;

static int by_time(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    int c = mpq_cmp(x->t, y->t);
    return c ? c : x->acquire - y->acquire;
}

static int is_target(const ssched_problem_t *pb, size_t v)
{
    for (size_t t = 0; t < pb->n_targets; t++)
        if (pb->targets[t] == v)
            return 1;
    return 0;
}

/* The definition: op t is held at v != source from the start of the
 * transfer bringing it to the end of the last forward from v.  Every
 * target gets every operation. */
static void reference(const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_unrolled_t *u, mpq_t peak, size_t *node)
{
    size_t nn = p->n_nodes, K = u->operations, src = pb->sources[0];
    mpq_t *in = malloc(K * nn * sizeof *in), *out = malloc(K * nn * sizeof *out);
    unsigned char *fw = calloc(K * nn, 1), *got = calloc(K * nn, 1);
    for (size_t k = 0; k < K * nn; k++)
        mpq_inits(in[k], out[k], NULL);
    for (size_t k = 0; k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *x = &u->transfers[k];
        size_t a = p->from[x->edge], b = p->to[x->edge];
        CU_ASSERT_EQUAL(x->type, 0);
        CU_ASSERT(mpq_cmp_ui(x->piece_length, 1, 1) == 0);
        CU_ASSERT(!got[x->op * nn + b]);
        got[x->op * nn + b] = 1;
        mpq_set(in[x->op * nn + b], x->start);
        if (a != src && (!fw[x->op * nn + a] || mpq_cmp(x->end, out[x->op * nn + a]) > 0))
            mpq_set(out[x->op * nn + a], x->end);
        if (a != src)
            fw[x->op * nn + a] = 1;
    }
    item_t *it = malloc((2 * K * nn + 1) * sizeof *it);
    size_t n = 0;
    for (size_t k = 0; k < K * nn; k++) {
        CU_ASSERT(got[k] || !is_target(pb, k % nn));
        if (!fw[k])
            continue;
        mpq_init(it[n].t);
        mpq_set(it[n].t, in[k]);
        it[n].acquire = 1;
        it[n++].node = k % nn;
        mpq_init(it[n].t);
        mpq_set(it[n].t, out[k]);
        it[n].acquire = 0;
        it[n++].node = k % nn;
    }
    qsort(it, n, sizeof *it, by_time);
    long *held = calloc(nn, sizeof *held), *top = calloc(nn, sizeof *top);
    for (size_t k = 0; k < n; k++) {
        held[it[k].node] += it[k].acquire ? 1 : -1;
        if (held[it[k].node] > top[it[k].node])
            top[it[k].node] = held[it[k].node];
        mpq_clear(it[k].t);
    }
    *node = 0;
    for (size_t v = 1; v < nn; v++)
        if (top[v] > top[*node])
            *node = v;
    mpq_set_si(peak, top[*node], 1);
    for (size_t k = 0; k < K * nn; k++)
        mpq_clears(in[k], out[k], NULL);
    free(in), free(out), free(fw), free(got), free(it), free(held), free(top);
}

/* Plan and unroll K broadcasts (in memory and streamed), check both and
 * the reader; returns makespan / (K / TP). */
static double run_case(const ssched_platform_t *p, const ssched_problem_t *pb, unsigned long K,
                       int cli)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err), SSCHED_OK);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(p, pb, &st, K, NULL, 0, &s, &err), SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(p, pb, &s, K, &u, &err), SSCHED_OK);
    if (pb->n_targets + 1 == p->n_nodes)
        CU_ASSERT_EQUAL(u.n_transfers, K * (p->n_nodes - 1));
    CU_ASSERT(u.n_transfers >= K * pb->n_targets);
    mpq_t ref, r;
    mpq_inits(ref, r, NULL);
    size_t ref_node = 0;
    reference(p, pb, &u, ref, &ref_node);
    CU_ASSERT(mpq_equal(ref, u.fig.buffer_peak));
    CU_ASSERT_EQUAL(ref_node, u.fig.buffer_node);
    char *text = tu_unrolled_json(p, pb, &s, &u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"split\": false"));
    CU_ASSERT_PTR_NULL(strstr(text, "\"origin\""));
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 1)
        fprintf(stderr, "\n  in memory K=%lu: %s\n", K, why);
    CU_ASSERT_EQUAL(valid, 1);
    free(text);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    const char *path = tu_stream_checked(p, pb, &s, K, "ub.json", &fig, "broadcast");
    CU_ASSERT(mpq_equal(fig.makespan, u.fig.makespan));
    CU_ASSERT(mpq_equal(fig.buffer_peak, u.fig.buffer_peak));
    if (cli) {
        tu_run_t rr;
        CU_ASSERT_EQUAL(tu_run(&rr, "check '%s'", path), 0);
        tu_run_free(&rr);
    }
    /* the reader (for the MPI executor) takes it: every transfer type 0 */
    ssched_platform_t p2;
    ssched_problem_t pb2;
    ssched_unrolled_t u2;
    ssched_platform_init(&p2);
    ssched_problem_init(&pb2);
    ssched_unrolled_init(&u2);
    CU_ASSERT_EQUAL(ssched_unrolled_read_file(path, &p2, &pb2, &u2, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(pb2.kind, SSCHED_PROBLEM_BROADCAST);
    CU_ASSERT_EQUAL(u2.n_transfers, u.n_transfers);
    for (size_t k = 0; k < u2.n_transfers; k++)
        CU_ASSERT_EQUAL(u2.transfers[k].type, 0);
    ssched_unrolled_free(&u2);
    ssched_problem_free(&pb2);
    ssched_platform_free(&p2);
    mpq_div(r, u.fig.makespan, u.fig.steady_time);
    double ratio = mpq_get_d(r);
    mpq_clears(ref, r, NULL);
    ssched_unroll_figures_free(&fig);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    return ratio;
}

static const unsigned long Ks[] = {1, 2, 10, 100};

static void add_edge(ssched_platform_t *p, size_t a, size_t b, const char *c)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_str(q, c, 10);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, a, b, q, NULL), SSCHED_OK);
    mpq_clear(q);
}

/* n nodes N0..; edges "a b c;..." */
static void make(ssched_platform_t *p, size_t n, const int (*e)[2], const char **c, size_t ne)
{
    ssched_platform_init(p);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "N%zu", i);
        size_t id;
        CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, name, NULL, &id, NULL), SSCHED_OK);
    }
    for (size_t k = 0; k < ne; k++)
        add_edge(p, (size_t)e[k][0], (size_t)e[k][1], c[k]);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void hand(size_t n, const int (*e)[2], const char **c, size_t ne, const char *tp,
                 const char *name)
{
    ssched_platform_t p;
    make(&p, n, e, c, ne);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "N0", NULL, NULL), SSCHED_OK);
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, NULL), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(st.throughput, tp));
    ssched_steady_free(&st);
    for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++) {
        double r = run_case(&p, &pb, Ks[k], k == 0);
        fprintf(stderr, "[%s K=%lu: %.4f] ", name, Ks[k], r);
    }
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_hand(void)
{
    static const int chain[][2] = {{0, 1}, {1, 2}};
    static const char *chain_c[] = {"1", "1"};
    hand(3, chain, chain_c, 2, "1", "chain");
    static const int tri[][2] = {{0, 1}, {0, 2}, {1, 2}, {2, 1}};
    static const char *tri_c[] = {"1", "1", "2", "2"};
    hand(3, tri, tri_c, 4, "3/4", "triangle");
    static const int star[][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}};
    static const char *star_c[] = {"1", "1/2", "1", "3/2"};
    hand(5, star, star_c, 4, "1/4", "star");
}

static void test_random(void)
{
    for (unsigned n = 3; n <= 8; n++) {
        ssched_platform_t p;
        tu_random_platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "P0", NULL, NULL), SSCHED_OK);
        if (n % 2)
            mpq_set_ui(pb.size, 3, 2); /* times size * c */
        for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++)
            run_case(&p, &pb, Ks[k], 0);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

static void test_tiers(void)
{
    for (unsigned seed = 1; seed <= 3; seed++) {
        ssched_platform_t p;
        tu_small_tiers(&p, seed);
        size_t host = tu_first_host(&p);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(
            ssched_problem_set_broadcast(&pb, &p, p.names[host], NULL, NULL), SSCHED_OK);
        for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++)
            fprintf(stderr, "[tiers %u K=%lu: %.4f] ", seed, Ks[k], run_case(&p, &pb, Ks[k], 0));
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* tiers-small through the command line: checked files, the ratio, for
 * the broadcast from wan0 and a multicast from it to four hosts. */
static void test_tiers_small(void)
{
    const char *plat = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    const char *out = tu_tmp_path("tiers_bcast.json");
    static const char *const what[2] = {"", "--targets h0_0_0_0,h0_0_1_1,h1_0_0_0,h1_0_1_2"};
    static const unsigned long K[] = {100, 1000};
    for (size_t w = 0; w < 2; w++)
        for (size_t k = 0; k < 2; k++) {
            tu_run_t r;
            CU_ASSERT_EQUAL_FATAL(tu_run(&r, "schedule '%s' --problem broadcast --source wan0 %s "
                                             "--operations %lu --unroll -o '%s'",
                                         plat, what[w], K[k], out),
                                  0);
            tu_run_free(&r);
            CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
            tu_run_free(&r);
            json_t *root = json_load_file(out, 0, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(root);
            mpq_t m, st;
            mpq_inits(m, st, NULL);
            mpq_set_str(m, json_string_value(json_object_get(root, "makespan")), 10);
            mpq_set_str(st, json_string_value(json_object_get(root, "steady_time")), 10);
            mpq_div(m, m, st);
            fprintf(stderr, "[tiers-small %s K=%lu: makespan/(K/TP) = %.4f] ",
                    w ? "multicast" : "broadcast", K[k], mpq_get_d(m));
            if (K[k] == 100)
                CU_ASSERT(mpq_cmp_ui(m, 5, 4) <= 0);
            mpq_clears(m, st, NULL);
            json_decref(root);
        }
}

/* Multicasts on tiers-small in memory (relays forward): to four hosts, and
 * to every host with the routers as switches. */
static void test_multicast(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(
                              &p, SSCHED_SOURCE_DIR "/examples/tiers-small.graphml", NULL),
                          SSCHED_OK);
    for (int sw = 0; sw <= 1; sw++) {
        for (size_t i = 0; sw && i < p.n_nodes; i++)
            p.multiport[i] = !p.has_w[i];
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        CU_ASSERT_EQUAL_FATAL(
            ssched_problem_set_broadcast(&pb, &p, "h0_0_0_0",
                                         sw ? NULL : "h0_0_1_1,h1_0_0_0,h1_0_1_2", NULL),
            SSCHED_OK);
        for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++)
            fprintf(stderr, "[%s K=%lu: %.4f] ", sw ? "switches" : "multicast", Ks[k],
                    run_case(&p, &pb, Ks[k], 0));
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
}

/* Broken by hand: each must be rejected with the reason named. */
static void expect_broken(json_t *root, const char *what)
{
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char why[512];
    int v = tu_check_text(text, why, sizeof why);
    CU_ASSERT_EQUAL(v, 0);
    if (v != 0 || !strstr(why, what)) {
        fprintf(stderr, "\n  got %d '%s' (expected '%s')\n", v, why, what);
        CU_FAIL("rejection reason");
    }
    free(text);
    json_decref(root);
}

static void test_broken(void)
{
    /* chain N0 -> N1 -> N2, c = 1, K = 2 */
    static const int chain[][2] = {{0, 1}, {1, 2}};
    static const char *chain_c[] = {"1", "1"};
    ssched_platform_t p;
    make(&p, 3, chain, chain_c, 2);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_broadcast(&pb, &p, "N0", NULL, NULL), SSCHED_OK);
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, NULL), SSCHED_OK);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, 2, NULL, 0, &s, NULL), SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, 2, &u, NULL), SSCHED_OK);
    char *text = tu_unrolled_json(&p, &pb, &s, &u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char why[512];
    CU_ASSERT_EQUAL(tu_check_text(text, why, sizeof why), 1);
    /* transfers: N0->N1 op 0 [0,1], N0->N1 op 1 [1,2] and N1->N2 op 0 [1,2],
     * N1->N2 op 1 [2,3] */
    json_t *root = json_loads(text, 0, NULL), *tr = json_object_get(root, "transfers");
    CU_ASSERT_EQUAL_FATAL(json_array_size(tr), 4);
    size_t fwd0 = 4;
    for (size_t k = 0; k < 4; k++) {
        json_t *x = json_array_get(tr, k);
        if (!strcmp(json_string_value(json_object_get(x, "from")), "N1") &&
            json_integer_value(json_object_get(x, "op")) == 0)
            fwd0 = k;
    }
    CU_ASSERT_FATAL(fwd0 < 4);
    /* a copy forwarded before it arrived: N1 -> N2 of op 0 at [1/2, 3/2] */
    json_t *b = json_deep_copy(root), *bt = json_object_get(b, "transfers");
    json_t *x = json_deep_copy(json_array_get(bt, fwd0));
    json_object_set_new(x, "start", json_string("1/2"));
    json_object_set_new(x, "end", json_string("3/2"));
    json_array_remove(bt, fwd0);
    json_array_insert_new(bt, 1, x); /* still in start order */
    expect_broken(b, "before it has fully arrived");
    /* forwarded by a node that never received it: from N1, op 1 sent first */
    b = json_deep_copy(root);
    x = json_array_get(json_object_get(b, "transfers"), 0);
    json_object_set_new(x, "from", json_string("N1"));
    json_object_set_new(x, "to", json_string("N2"));
    expect_broken(b, "before receiving it");
    /* received twice: N0 -> N1 of op 0 again at the end */
    b = json_deep_copy(root);
    x = json_pack("{ssssssssso}", "start", "10", "end", "11", "from", "N0", "to", "N1", "op",
                  json_integer(0));
    json_array_append_new(json_object_get(b, "transfers"), x);
    expect_broken(b, "a second time");
    /* an operation missing at a target */
    b = json_deep_copy(root);
    json_array_remove(json_object_get(b, "transfers"), fwd0);
    expect_broken(b, "never receives message 0");
    /* a wrong buffer_peak */
    b = json_deep_copy(root);
    const char *bp = json_string_value(json_object_get(b, "buffer_peak"));
    json_object_set_new(b, "buffer_peak", json_string(strcmp(bp, "1") ? "1" : "2"));
    expect_broken(b, "\"buffer_peak\" is not what the events give");
    /* a piece, an origin: not broadcast keys (malformed) */
    b = json_deep_copy(root);
    json_object_set_new(json_array_get(json_object_get(b, "transfers"), 0), "origin",
                        json_string("N0"));
    char *t2 = json_dumps(b, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    CU_ASSERT_EQUAL(tu_check_text(t2, why, sizeof why), -1);
    free(t2);
    json_decref(b);
    /* a wrong duration */
    b = json_deep_copy(root);
    json_object_set_new(json_array_get(json_object_get(b, "transfers"), 0), "end",
                        json_string("2"));
    expect_broken(b, "lasts more time units");
    json_decref(root);
    free(text);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"chain, triangle, star", test_hand},
        {"random small platforms", test_random},
        {"gen tiers instances", test_tiers},
        {"tiers-small: checked files, makespan / (K/TP)", test_tiers_small},
        {"multicasts and switch routers on tiers-small", test_multicast},
        {"hand-broken files are rejected", test_broken},
        {NULL, NULL}};
    return tu_main("unrolled broadcast", tests);
}
