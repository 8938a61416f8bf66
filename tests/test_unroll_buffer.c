/* Buffer needs of unrolled schedules (schedule.h: ssched_unroll_figures_t,
 * "buffer_peak" and "buffer_node"): hand-derived values on a path and on
 * RR-4872 Fig. 2 (pieces of messages), and on random Tiers instances the
 * engine's figure equals a direct sweep over the emitted events, the files
 * carry it and pass the checker. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/gen.h"
#include "ssched/schedule.h"
#include "test_util.h"

/* ---------------------------------------------------------------------- */
/* Reference: the definition, applied to the in-memory events. */

typedef struct {
    mpq_t t, amount;
    int acquire;
    size_t node;
} item_t;

typedef struct {
    item_t *x;
    size_t n, cap;
} items_t;

static void add(items_t *it, const mpq_t t, int acquire, size_t node, const mpq_t amount)
{
    if (it->n == it->cap) {
        it->cap = it->cap ? 2 * it->cap : 256;
        it->x = realloc(it->x, it->cap * sizeof *it->x);
    }
    item_t *x = &it->x[it->n++];
    mpq_inits(x->t, x->amount, NULL);
    mpq_set(x->t, t);
    mpq_set(x->amount, amount);
    x->acquire = acquire;
    x->node = node;
}

static int by_time(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    int c = mpq_cmp(x->t, y->t);
    return c ? c : x->acquire - y->acquire; /* releases first */
}

/* Reduce: is [k,m] counted at v? */
static int counted(const ssched_problem_t *pb, size_t k, size_t m, size_t v)
{
    size_t N = pb->n_participants;
    if (k == m && pb->participants[k] == v)
        return 0;
    return !(k == 0 && m == N - 1 && v == pb->target);
}

static void reference(const ssched_platform_t *p, const ssched_problem_t *pb,
                      const ssched_schedule_t *s, const ssched_unrolled_t *u, mpq_t peak,
                      size_t *node)
{
    items_t it = {NULL, 0, 0};
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    for (size_t k = 0; k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *x = &u->transfers[k];
        size_t from = p->from[x->edge], to = p->to[x->edge];
        int cf, ct;
        if (s->kind == SSCHED_PROBLEM_REDUCE) {
            cf = counted(pb, s->intervals[x->type].k, s->intervals[x->type].m, from);
            ct = counted(pb, s->intervals[x->type].k, s->intervals[x->type].m, to);
        } else {
            size_t o = s->commodities[x->type].origin, d = s->commodities[x->type].dest;
            cf = from != o && from != d;
            ct = to != o && to != d;
        }
        if (ct)
            add(&it, x->start, 1, to, x->piece_length);
        if (cf)
            add(&it, x->end, 0, from, x->piece_length);
    }
    for (size_t k = 0; k < u->n_computations; k++) {
        const ssched_timed_computation_t *x = &u->computations[k];
        if (counted(pb, x->k, x->m, x->node))
            add(&it, x->start, 1, x->node, one);
        if (counted(pb, x->k, x->l, x->node))
            add(&it, x->end, 0, x->node, one);
        if (counted(pb, x->l + 1, x->m, x->node))
            add(&it, x->end, 0, x->node, one);
    }
    if (it.n)
        qsort(it.x, it.n, sizeof *it.x, by_time);
    mpq_t *held = malloc(p->n_nodes * sizeof *held), *pk = malloc(p->n_nodes * sizeof *pk);
    for (size_t v = 0; v < p->n_nodes; v++)
        mpq_inits(held[v], pk[v], NULL);
    for (size_t k = 0; k < it.n; k++) {
        item_t *x = &it.x[k];
        if (x->acquire) {
            mpq_add(held[x->node], held[x->node], x->amount);
            if (mpq_cmp(held[x->node], pk[x->node]) > 0)
                mpq_set(pk[x->node], held[x->node]);
        } else {
            mpq_sub(held[x->node], held[x->node], x->amount);
        }
        mpq_clears(x->t, x->amount, NULL);
    }
    *node = 0;
    for (size_t v = 1; v < p->n_nodes; v++)
        if (mpq_cmp(pk[v], pk[*node]) > 0)
            *node = v;
    mpq_set(peak, pk[*node]);
    for (size_t v = 0; v < p->n_nodes; v++)
        mpq_clears(held[v], pk[v], NULL);
    free(held);
    free(pk);
    free(it.x);
    mpq_clear(one);
}

/* ---------------------------------------------------------------------- */

/* The JSON text's "buffer_peak" and "buffer_node" are the figures. */
static void check_text(const char *text, const ssched_platform_t *p, const mpq_t peak,
                       size_t node)
{
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *bp = json_object_get(root, "buffer_peak"), *bn = json_object_get(root, "buffer_node");
    CU_ASSERT(json_is_string(bp) && tu_mpq_equals(peak, json_string_value(bp)));
    CU_ASSERT(json_is_string(bn) && !strcmp(json_string_value(bn), p->names[node]));
    /* after "ratio", last */
    const char *k1 = strstr(text, "\"ratio\""), *k2 = strstr(text, "\"buffer_peak\""),
               *k3 = strstr(text, "\"buffer_node\"");
    CU_ASSERT(k1 && k2 && k3 && k1 < k2 && k2 < k3);
    json_decref(root);
}

/* Unroll s (in memory and streamed) and compare with the reference; both
 * texts pass the checker.  Returns the figures' peak in peak_out. */
static void unroll_compare(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_schedule_t *s, unsigned long K, mpq_t peak_out,
                           size_t *node_out)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(p, pb, s, K, &u, &err), SSCHED_OK);
    mpq_t ref;
    mpq_init(ref);
    size_t ref_node;
    reference(p, pb, s, &u, ref, &ref_node);
    CU_ASSERT(mpq_equal(ref, u.fig.buffer_peak));
    CU_ASSERT_EQUAL(ref_node, u.fig.buffer_node);
    if (!mpq_equal(ref, u.fig.buffer_peak) || ref_node != u.fig.buffer_node) {
        gmp_fprintf(stderr, "\n  K=%lu: reference %Qd at %s, engine %Qd at %s\n", K, ref,
                    p->names[ref_node], u.fig.buffer_peak, p->names[u.fig.buffer_node]);
    }
    char *text = tu_unrolled_json(p, pb, s, &u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    check_text(text, p, u.fig.buffer_peak, u.fig.buffer_node);
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 1)
        fprintf(stderr, "\n  in memory K=%lu: %s\n", K, why);
    CU_ASSERT_EQUAL(valid, 1);
    free(text);
    /* streamed: the same figures */
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    const char *path = tu_stream_checked(p, pb, s, K, "unroll_buffer.json", &fig, "buffer");
    CU_ASSERT(mpq_equal(fig.buffer_peak, u.fig.buffer_peak));
    CU_ASSERT_EQUAL(fig.buffer_node, u.fig.buffer_node);
    char *ftext = tu_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ftext);
    check_text(ftext, p, fig.buffer_peak, fig.buffer_node);
    free(ftext);
    if (peak_out)
        mpq_set(peak_out, u.fig.buffer_peak);
    if (node_out)
        *node_out = u.fig.buffer_node;
    ssched_unroll_figures_free(&fig);
    mpq_clear(ref);
    ssched_unrolled_free(&u);
}

/* Solve pb on p and build its periodic schedule (pieces allowed). */
static void build(const ssched_platform_t *p, const ssched_problem_t *pb, ssched_schedule_t *s)
{
    ssched_error_t err;
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err), SSCHED_OK);
    ssched_schedule_options_t opt;
    ssched_schedule_options_default(&opt);
    ssched_schedule_init(s);
    CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(p, pb, &st, &opt, s, &err), SSCHED_OK);
    ssched_steady_free(&st);
}

/* A -> B -> C, c = 1: message t crosses A -> B in [t, t+1] and B -> C in
 * [t+1, t+2].  B holds message t from t to t+2: alone for K = 1; from
 * K = 2 on, at time t+1 message t-1 leaves (released first) and t+1
 * arrives, so B holds 2. */
static void test_path(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    size_t a, b, c;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&p, "A", one, &a, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&p, "B", one, &b, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(&p, "C", one, &c, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&p, a, b, one, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(&p, b, c, one, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_finalize(&p, &err), SSCHED_OK);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "A", "C", &err), SSCHED_OK);
    ssched_schedule_t s;
    build(&p, &pb, &s);
    mpq_t peak;
    mpq_init(peak);
    size_t node = 99;
    unroll_compare(&p, &pb, &s, 1, peak, &node);
    CU_ASSERT(tu_mpq_equals(peak, "1"));
    CU_ASSERT_EQUAL(node, b);
    for (unsigned long K = 2; K <= 20; K += 6) {
        unroll_compare(&p, &pb, &s, K, peak, &node);
        CU_ASSERT(tu_mpq_equals(peak, "2"));
        CU_ASSERT_EQUAL(node, b);
    }
    /* reduce A, C to C over the same path: only B relays A's value; B has
     * no value of its own, so it holds [0,0] from the start of A -> B to
     * the end of B -> C */
    ssched_problem_t pr;
    ssched_problem_init(&pr);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pr, &p, "A,C", "C", &err), SSCHED_OK);
    ssched_schedule_t sr;
    build(&p, &pr, &sr);
    unroll_compare(&p, &pr, &sr, 1, peak, &node);
    CU_ASSERT(tu_mpq_equals(peak, "1"));
    CU_ASSERT_EQUAL(node, b);
    unroll_compare(&p, &pr, &sr, 10, NULL, NULL);
    ssched_schedule_free(&sr);
    ssched_problem_free(&pr);
    mpq_clears(one, peak, NULL);
    ssched_schedule_free(&s);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* RR-4872 Fig. 2, K = 4: the plan takes period 2, one scatter a period,
 * P0's message split ([0, 1/2) to Pa in two pieces of 1/4, [1/2, 1) to Pb)
 * and P1's whole to Pb, forwarded in halves.  Operation t (times + 2t):
 *   Ps -> Pa [0, 1/2], [1/2, 1]        Ps -> Pb  P0 half [1, 4/3], P1 [4/3, 2]
 *   Pb -> P1 [2, 5/2], [5/2, 3]        Pb -> P0  half [3, 4]
 * so Pb holds 1/2 + 1 = 3/2 at 4/3, drops to 1/2 at 3 (P1's halves sent),
 * takes operation 1's half (1) and at 10/3 its P1 message: 2, the peak;
 * at 4 operation 0's half leaves.  Pa holds at most 3/4. */
static void test_fig2_pieces(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, SSCHED_SOURCE_DIR
                                                       "/examples/fig2.graphml", &err),
                          SSCHED_OK);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "Ps", "P0,P1", &err), SSCHED_OK);
    ssched_steady_t st;
    ssched_steady_init(&st);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
    size_t pbn;
    CU_ASSERT_EQUAL_FATAL(ssched_platform_find_node(&p, "Pb", &pbn, &err), SSCHED_OK);
    mpq_t peak;
    mpq_init(peak);
    for (unsigned long K = 1; K <= 12; K++) {
        ssched_schedule_t s;
        ssched_schedule_init(&s);
        CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, K, NULL, 0, &s, &err), SSCHED_OK);
        size_t node = 99;
        unroll_compare(&p, &pb, &s, K, peak, &node);
        if (K == 4) {
            CU_ASSERT(tu_mpq_equals(s.period, "2"));
            CU_ASSERT(tu_mpq_equals(peak, "2"));
            CU_ASSERT_EQUAL(node, pbn);
        }
        ssched_schedule_free(&s);
    }
    /* and the streamed file's piece count for K = 4 */
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, 4, NULL, 0, &s, &err), SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, 4, &u, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(u.fig.pieces, 28);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    mpq_clear(peak);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Random Tiers instances, the three problems, pieces and whole messages:
 * the engine's figure is the reference sweep's, and the files pass. */
static void test_random_tiers(void)
{
    static const unsigned long Ks[] = {1, 7, 60};
    for (unsigned seed = 11; seed <= 13; seed++) {
        ssched_gen_tiers_params_t gp;
        ssched_gen_tiers_params_init(&gp);
        gp.seed = seed;
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers_shape_for_nodes(&gp, 20, NULL), SSCHED_OK);
        ssched_platform_t p;
        ssched_platform_init(&p);
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&gp, &p, NULL), SSCHED_OK);
        ssched_gen_tiers_params_free(&gp);
        for (int kind = 0; kind < 3; kind++) {
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            ssched_error_t err;
            ssched_status_t rc = tu_host_problem(&p, kind, 6, 1, &pb);
            CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
            ssched_steady_t st;
            ssched_steady_init(&st);
            CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
            for (size_t k = 0; mpq_sgn(st.throughput) > 0 && k < sizeof Ks / sizeof *Ks; k++)
                for (int whole = 0; whole < 2; whole++) {
                    ssched_schedule_t s;
                    ssched_schedule_init(&s);
                    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, Ks[k], NULL, whole, &s,
                                                             &err),
                                          SSCHED_OK);
                    unroll_compare(&p, &pb, &s, Ks[k], NULL, NULL);
                    ssched_schedule_free(&s);
                }
            ssched_steady_free(&st);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
}

/* The command line prints the figure; --no-check skips the self-check, and
 * `ssched check` then accepts the file. */
static void test_cli(void)
{
    const char *g = SSCHED_SOURCE_DIR "/examples/fig2.graphml";
    const char *out = tu_tmp_path("buffer_cli.json");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scatter --source Ps --targets P0,P1 "
                               "--operations 4 --unroll --no-check -o '%s'", g, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "buffer: at most 2 messages held at once, at node Pb"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "not checked (--no-check)"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "checked: valid"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scatter --source Ps --targets P0,P1 "
                               "--operations 4 --unroll -o '%s'", g, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checked: valid"));
    tu_run_free(&r);
    /* --no-check without --unroll is a usage error; --help documents it */
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem scatter --source Ps --targets P0,P1 "
                               "--no-check", g), 2);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule --help"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--no-check"));
    tu_run_free(&r);
}

int main(void)
{
    const tu_test_t tests[] = {
        {"path A -> B -> C: B holds 1, then 2 (scatter, reduce)", test_path},
        {"Fig. 2 with pieces: Pb holds 2 for K = 4", test_fig2_pieces},
        {"random Tiers: engine = reference sweep, files checked", test_random_tiers},
        {"command line: summary line, --no-check", test_cli},
        {NULL, NULL}};
    return tu_main("unroll_buffer", tests);
}
