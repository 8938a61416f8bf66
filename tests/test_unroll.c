/* Unrolled schedules for K operations (schedule.h: ssched_unroll_plan,
 * ssched_unroll, ssched_write_unrolled_stream, ssched_unroll_lb1): every schedule
 * passes the independent checker, hand-broken files are rejected, and LB1
 * never exceeds the best makespan a brute force finds on tiny instances. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/gen.h"
#include "ssched/schedule.h"
#include "test_util.h"

/* Plan, unroll in memory and streamed, check both; the figures agree. */
static void unroll_and_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const ssched_steady_t *st, unsigned long K, int no_split)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_status_t rc = ssched_unroll_plan(p, pb, st, K, NULL, no_split, &s, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  plan K=%lu no_split=%d: %s\n", K, no_split, err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    rc = ssched_unroll(p, pb, &s, K, &u, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  unroll K=%lu no_split=%d: %s\n", K, no_split, err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    char *text = tu_unrolled_json(p, pb, &s, &u);
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 1)
        fprintf(stderr, "\n  K=%lu no_split=%d: %s\n", K, no_split, why);
    CU_ASSERT_EQUAL(valid, 1);
    free(text);
    /* K/TP <= makespan, and the makespan is at least LB(K) */
    CU_ASSERT(mpq_cmp(u.fig.makespan, u.fig.lower_bound) >= 0);
    /* the streamed file: same figures, same verdict */
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    tu_stream_checked(p, pb, &s, K, "unroll.json", &fig, no_split ? "no-split" : "split");
    CU_ASSERT(mpq_equal(fig.makespan, u.fig.makespan));
    CU_ASSERT(mpq_equal(fig.lower_bound, u.fig.lower_bound));
    /* whole messages: no piece */
    if (no_split)
        CU_ASSERT_EQUAL(fig.pieces, 0);
    ssched_unroll_figures_free(&fig);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
}

static void tiers(ssched_platform_t *p, unsigned seed, size_t nodes)
{
    ssched_gen_tiers_params_t gp;
    ssched_gen_tiers_params_init(&gp);
    gp.seed = seed;
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers_shape_for_nodes(&gp, nodes, NULL), SSCHED_OK);
    gp.wan_redundancy = 2;
    gp.man_redundancy = 2;
    ssched_platform_init(p);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&gp, p, NULL), SSCHED_OK);
    ssched_gen_tiers_params_free(&gp);
}

static void test_random_tiers(void)
{
    static const unsigned long Ks[] = {1, 2, 10, 100};
    for (unsigned seed = 1; seed <= 3; seed++) {
        ssched_platform_t p;
        tiers(&p, seed, 24);
        for (int kind = 0; kind < 3; kind++) {
            ssched_problem_t pb;
            ssched_problem_init(&pb);
            ssched_error_t err;
            ssched_status_t rc = tu_host_problem(&p, kind, 5, 0, &pb);
            CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
            ssched_steady_t st;
            ssched_steady_init(&st);
            CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err), SSCHED_OK);
            if (mpq_sgn(st.throughput) > 0)
                for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++)
                    for (int whole = 0; whole < 2; whole++)
                        unroll_and_check(&p, &pb, &st, Ks[k], whole);
            ssched_steady_free(&st);
            ssched_problem_free(&pb);
        }
        ssched_platform_free(&p);
    }
}

/* The demo's failure: a K = 1 reduce on tiers-46 (issue "Executable
 * schedules"), through the command line. */
static void test_k1_reduce_tiers46(void)
{
    const char *g = SSCHED_SOURCE_DIR "/examples/tiers-46.graphml";
    ssched_platform_t p;
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, g, NULL), SSCHED_OK);
    char parts[1024];
    tu_host_list(&p, 6, 2, 0, parts, sizeof parts);
    char target[64];
    snprintf(target, sizeof target, "%.*s", (int)strcspn(parts, ","), parts);
    tu_run_t r;
    const char *out = tu_tmp_path("k1.json");
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants %s --target %s "
                               "--operations 1 --unroll -o '%s'", g, parts, target, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checked: valid"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "LB1"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "check '%s'", out), 0);
    tu_run_free(&r);
    ssched_platform_free(&p);
}

/* A valid unrolled scatter with pieces (tiers-small, K = 3) as JSON. */
static json_t *scatter_with_pieces(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_platform_load_graphml(&p, SSCHED_SOURCE_DIR "/examples/tiers-small.graphml", NULL);
    char src[64], dst[1024];
    tu_host_list(&p, 1, 1, 0, src, sizeof src);
    tu_host_list(&p, 100, 1, 1, dst, sizeof dst);
    char *rest = strchr(dst, ',') + 1; /* every host but the first */
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_problem_set_scatter(&pb, &p, src, rest, NULL);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_steady_solve(&p, &pb, NULL, &st, NULL);
    /* period 1/TP, one operation: messages cut into pieces by the slots
     * (the planner would send this instance's messages whole) */
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    mpq_t tf;
    mpq_init(tf);
    mpq_inv(tf, st.throughput);
    so.fixed_period = tf;
    ssched_schedule_build(&p, &pb, &st, &so, &s, NULL);
    mpq_clear(tf);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    ssched_unroll(&p, &pb, &s, 3, &u, NULL);
    char *text = tu_unrolled_json(&p, &pb, &s, &u);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return root;
}

static int q_cmp(json_t *a, json_t *b, const char *key)
{
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    mpq_set_str(x, json_string_value(json_object_get(a, key)), 10);
    mpq_set_str(y, json_string_value(json_object_get(b, key)), 10);
    mpq_canonicalize(x);
    mpq_canonicalize(y);
    int c = mpq_cmp(x, y);
    mpq_clears(x, y, NULL);
    return c;
}

static int by_start(const void *a, const void *b)
{
    return q_cmp(*(json_t *const *)a, *(json_t *const *)b, "start");
}

static void resort(json_t *arr)
{
    size_t n = json_array_size(arr);
    json_t **v = malloc((n ? n : 1) * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = json_incref(json_array_get(arr, k));
    qsort(v, n, sizeof *v, by_start);
    json_array_clear(arr);
    for (size_t k = 0; k < n; k++)
        json_array_append_new(arr, v[k]);
    free(v);
}

static void expect_violation(json_t *root, const char *fragment)
{
    char *text = json_dumps(root, 0);
    char why[512];
    int valid = tu_check_text(text, why, sizeof why);
    if (valid != 0 || !strstr(why, fragment))
        fprintf(stderr, "\n  expected '%s', got %d '%s'\n", fragment, valid, why);
    CU_ASSERT_EQUAL(valid, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, fragment));
    free(text);
    json_decref(root);
}

static int same(json_t *a, json_t *b, const char *key)
{
    return json_equal(json_object_get(a, key), json_object_get(b, key));
}

/* The piece range of a transfer ([0, 1) when whole). */
static void range(json_t *x, mpq_t lo, mpq_t hi)
{
    json_t *pc = json_object_get(x, "piece");
    mpq_set_ui(lo, 0, 1);
    mpq_set_ui(hi, 1, 1);
    if (!pc)
        return;
    mpq_set_str(lo, json_string_value(json_array_get(pc, 0)), 10);
    mpq_set_str(hi, json_string_value(json_array_get(pc, 1)), 10);
    mpq_canonicalize(lo);
    mpq_canonicalize(hi);
    mpq_add(hi, hi, lo);
}

static int overlap(json_t *x, json_t *y)
{
    mpq_t a, b, c, d;
    mpq_inits(a, b, c, d, NULL);
    range(x, a, b);
    range(y, c, d);
    int o = mpq_cmp(a, d) < 0 && mpq_cmp(c, b) < 0;
    mpq_clears(a, b, c, d, NULL);
    return o;
}

static void test_checker_rejects_broken_pieces(void)
{
    json_t *root = scatter_with_pieces();
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    char why[512];
    char *text = json_dumps(root, 0);
    CU_ASSERT_EQUAL(tu_check_text(text, why, sizeof why), 1);
    free(text);
    json_t *tr = json_object_get(root, "transfers");
    /* find a piece that a relay forwards: in = X -> R, out = R -> Y, same
     * message, same range */
    size_t in = SIZE_MAX, out = SIZE_MAX;
    for (size_t a = 0; a < json_array_size(tr) && out == SIZE_MAX; a++) {
        json_t *x = json_array_get(tr, a);
        if (!json_object_get(x, "piece"))
            continue;
        for (size_t b = a + 1; b < json_array_size(tr); b++) {
            json_t *y = json_array_get(tr, b);
            if (same(x, y, "origin") && same(x, y, "dest") && same(x, y, "op") &&
                json_equal(json_object_get(x, "to"), json_object_get(y, "from")) &&
                overlap(x, y)) {
                in = a;
                out = b;
                break;
            }
        }
    }
    CU_ASSERT_FATAL(out != SIZE_MAX);

    /* 1. forwarded before it fully arrived: the relay starts sending the
     * piece while it is still arriving */
    json_t *r = json_deep_copy(root);
    tr = json_object_get(r, "transfers");
    json_t *x = json_array_get(tr, in), *y = json_array_get(tr, out);
    mpq_t s, e, d;
    mpq_inits(s, e, d, NULL);
    mpq_set_str(s, json_string_value(json_object_get(x, "end")), 10);
    mpq_canonicalize(s);
    mpq_set_str(e, json_string_value(json_object_get(y, "end")), 10);
    mpq_set_str(d, json_string_value(json_object_get(y, "start")), 10);
    mpq_canonicalize(e);
    mpq_canonicalize(d);
    mpq_sub(d, e, d);           /* its duration */
    mpq_set_ui(e, 1, 1000000);  /* a moment before the arrival ends */
    mpq_sub(s, s, e);
    mpq_add(e, s, d);
    char *ss = mpq_get_str(NULL, 10, s), *es = mpq_get_str(NULL, 10, e);
    json_object_set_new(y, "start", json_string(ss));
    json_object_set_new(y, "end", json_string(es));
    free(ss);
    free(es);
    mpq_clears(s, e, d, NULL);
    resort(tr);
    char *t1 = json_dumps(r, 0);
    int v1 = tu_check_text(t1, why, sizeof why);
    free(t1);
    if (v1 != 0 || !strstr(why, "before it arrived"))
        fprintf(stderr, "\n  early forward: %d '%s'\n", v1, why);
    CU_ASSERT_EQUAL(v1, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "before it arrived"));
    json_decref(r);

    /* 2. a piece sent twice: the origin's piece again, much later */
    r = json_deep_copy(root);
    tr = json_object_get(r, "transfers");
    json_t *again = json_deep_copy(json_array_get(tr, 0));
    json_t *first = json_array_get(tr, 0);
    mpq_t a0, a1;
    mpq_inits(a0, a1, NULL);
    mpq_set_str(a0, json_string_value(json_object_get(first, "start")), 10);
    mpq_set_str(a1, json_string_value(json_object_get(first, "end")), 10);
    mpq_canonicalize(a0);
    mpq_canonicalize(a1);
    mpq_sub(a1, a1, a0);
    mpq_set_ui(a0, 1000000, 1);
    mpq_add(a1, a1, a0);
    char *s0 = mpq_get_str(NULL, 10, a0), *s1 = mpq_get_str(NULL, 10, a1);
    json_object_set_new(again, "start", json_string(s0));
    json_object_set_new(again, "end", json_string(s1));
    free(s0);
    free(s1);
    mpq_clears(a0, a1, NULL);
    json_array_append_new(tr, again);
    char *t2 = json_dumps(r, 0);
    int v2 = tu_check_text(t2, why, sizeof why);
    free(t2);
    CU_ASSERT_EQUAL(v2, 0);
    CU_ASSERT(strstr(why, "is not at the sender") || strstr(why, "after it was delivered"));
    json_decref(r);

    /* 3. a range outside [0, 1) */
    r = json_deep_copy(root);
    tr = json_object_get(r, "transfers");
    json_object_set_new(json_array_get(tr, in), "piece", json_pack("[ss]", "1/2", "3/4"));
    expect_violation(r, "not a non-empty range");

    /* 4. a false figure */
    r = json_deep_copy(root);
    json_object_set_new(r, "lb1", json_string("0"));
    expect_violation(r, "\"lb1\" is not what the events give");
    json_decref(root);
}

/* A reduce reduced in the wrong order: the format ties every merge to one
 * time-stamp and names its operands, so a wrong order can only come from
 * merges exchanging their time-stamps; the string simulation rejects it. */
static void test_checker_rejects_wrong_order(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_platform_load_graphml(&p, SSCHED_SOURCE_DIR "/examples/fig6.graphml", NULL);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_problem_set_reduce(&pb, &p, "P0,P1,P2", "P0", NULL);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_steady_solve(&p, &pb, NULL, &st, NULL);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, 4, NULL, 0, &s, NULL), SSCHED_OK);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, 4, &u, NULL), SSCHED_OK);
    char *text = tu_unrolled_json(&p, &pb, &s, &u);
    json_t *root = json_loads(text, 0, NULL);
    free(text);
    /* the interval of the final merge's left input swapped with its right:
     * task [k,l,m] becomes a merge whose inputs do not match */
    json_t *co = json_object_get(root, "computations");
    CU_ASSERT_FATAL(json_array_size(co) >= 2);
    json_t *a = json_array_get(co, 0), *b = NULL;
    for (size_t k = 1; k < json_array_size(co) && !b; k++)
        if (same(a, json_array_get(co, k), "node") && same(a, json_array_get(co, k), "task"))
            b = json_array_get(co, k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    json_t *op = json_incref(json_object_get(a, "op"));
    json_object_set(a, "op", json_object_get(b, "op"));
    json_object_set_new(b, "op", op);
    char *bad = json_dumps(root, 0);
    char why[512];
    int v = tu_check_text(bad, why, sizeof why);
    free(bad);
    CU_ASSERT_EQUAL(v, 0);
    CU_ASSERT(strstr(why, "ordered reduction") || strstr(why, "not there") ||
              strstr(why, "before it exists"));
    if (v != 0 || !(strstr(why, "ordered reduction") || strstr(why, "not there") || strstr(why, "before it exists")))
        fprintf(stderr, "\n  wrong order: %d '%s'\n", v, why);
    json_decref(root);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* ---------------------------------------------------------------------- */
/* LB1 against brute force: on tiny platforms, every order in which the
 * source can send (scatter), or every merge node and order (2-participant
 * reduce), list-scheduled along shortest paths; LB1 must never exceed the
 * best makespan found. */

static void shortest(const ssched_platform_t *p, size_t src, double *d, size_t *pred)
{
    size_t n = p->n_nodes;
    unsigned char done[16] = {0};
    for (size_t v = 0; v < n; v++) {
        d[v] = 1e300;
        pred[v] = SIZE_MAX;
    }
    d[src] = 0;
    for (;;) {
        size_t u = n;
        for (size_t v = 0; v < n; v++)
            if (!done[v] && d[v] < 1e299 && (u == n || d[v] < d[u]))
                u = v;
        if (u == n)
            break;
        done[u] = 1;
        for (size_t e = 0; e < p->n_edges; e++)
            if (p->from[e] == u && d[u] + mpq_get_d(p->l[e]) + mpq_get_d(p->c[e]) < d[p->to[e]]) {
                d[p->to[e]] = d[u] + mpq_get_d(p->l[e]) + mpq_get_d(p->c[e]);
                pred[p->to[e]] = e;
            }
    }
}

/* Send along the shortest path (l + c per hop) from src to dst starting no earlier than
 * `ready`, list-scheduled on the one-port free times; returns arrival. */
static double route(const ssched_platform_t *p, size_t src, size_t dst, double ready,
                    double *sfree, double *rfree)
{
    double d[16];
    size_t pred[16], path[16], n = 0;
    shortest(p, src, d, pred);
    for (size_t v = dst; v != src; v = p->from[pred[v]])
        path[n++] = pred[v];
    double t = ready;
    while (n-- > 0) {
        size_t e = path[n], i = p->from[e], j = p->to[e];
        double s = t > sfree[i] ? t : sfree[i];
        if (rfree[j] > s)
            s = rfree[j];
        /* a latency keeps the ports too here: a valid, if slower, schedule */
        t = s + mpq_get_d(p->l[e]) + mpq_get_d(p->c[e]);
        sfree[i] = rfree[j] = t;
    }
    return t;
}

static int next_perm(size_t *a, size_t n)
{
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    size_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

static void test_lb1_brute_force(void)
{
    int checked = 0;
    for (int inst = 0; inst < 60; inst++) {
        unsigned n = 3 + tu_pick(3);
        ssched_platform_t p;
        tu_random_platform(&p, n); /* strongly connected ring plus chords */
        if (inst % 4 >= 2) /* latencies (LB1 adds them per hop) */
            for (size_t e = 0; e < p.n_edges; e++) {
                mpq_t l;
                mpq_init(l);
                mpq_set_ui(l, tu_pick(3), tu_pick(4) + 1);
                mpq_canonicalize(l);
                ssched_platform_set_latency(&p, e, l, NULL);
                mpq_clear(l);
            }
        for (size_t i = 0; i < n; i++) {
            p.has_w[i] = 1;
            mpq_set_ui(p.w[i], tu_pick(4) + 1, tu_pick(3) + 1);
            mpq_canonicalize(p.w[i]);
        }
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        double best = 1e300;
        if (inst % 2 == 0) { /* scatter P0 -> every other node */
            char t[128] = "";
            for (unsigned k = 1; k < n; k++)
                snprintf(t + strlen(t), sizeof t - strlen(t), "%sP%u", k > 1 ? "," : "", k);
            CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "P0", t, NULL), SSCHED_OK);
            size_t order[8];
            for (size_t k = 0; k < n - 1; k++)
                order[k] = k + 1;
            do {
                double sf[16] = {0}, rf[16] = {0}, end = 0;
                for (size_t k = 0; k < n - 1; k++) {
                    double a = route(&p, 0, order[k], 0, sf, rf);
                    end = a > end ? a : end;
                }
                best = end < best ? end : best;
            } while (next_perm(order, n - 1));
        } else { /* reduce of P1, P2 to P0 */
            CU_ASSERT_EQUAL_FATAL(ssched_problem_set_reduce(&pb, &p, "P1,P2", "P0", NULL),
                                  SSCHED_OK);
            for (size_t x = 0; x < n; x++)
                for (int first = 0; first < 2; first++) {
                    double sf[16] = {0}, rf[16] = {0};
                    size_t a = first ? 2 : 1, b = first ? 1 : 2;
                    double ta = a == x ? 0 : route(&p, a, x, 0, sf, rf);
                    double tb = b == x ? 0 : route(&p, b, x, 0, sf, rf);
                    double m = (ta > tb ? ta : tb) + mpq_get_d(p.w[x]);
                    double end = x == 0 ? m : route(&p, x, 0, m, sf, rf);
                    best = end < best ? end : best;
                }
        }
        mpq_t lb;
        mpq_init(lb);
        CU_ASSERT_EQUAL(ssched_unroll_lb1(&p, &pb, lb, NULL), SSCHED_OK);
        if (mpq_get_d(lb) > best * (1 + 1e-12))
            fprintf(stderr, "\n  LB1 %g above brute force %g (instance %d)\n", mpq_get_d(lb), best,
                    inst);
        CU_ASSERT(mpq_get_d(lb) <= best * (1 + 1e-12));
        CU_ASSERT(mpq_sgn(lb) > 0);
        checked++;
        mpq_clear(lb);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(checked, 60);
}

/* Bad requests: K = 0, K above the limit, a period below 1/TP. */
static void test_bad_requests(void)
{
    const char *g = SSCHED_SOURCE_DIR "/examples/fig6.graphml";
    const char *out = tu_tmp_path("bad.json");
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--operations 0 --unroll -o '%s'", g, out), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--operations 20000000 --unroll -o '%s'", g, out), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-operations"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--operations 100 --unroll --max-events 10 -o '%s'", g, out), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--max-events"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--operations 10 --unroll --max-period 1/1000 -o '%s'", g, out), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --problem reduce --participants P0,P1,P2 --target P0 "
                               "--operations 10 --unroll --max-period 5 --max-period 6 -o '%s'",
                           g, out), 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

int main(void)
{
    const tu_test_t tests[] = {
        {"random Tiers instances, 3 problems, K = 1..100, pieces and whole", test_random_tiers},
        {"K = 1 reduce on tiers-46", test_k1_reduce_tiers46},
        {"checker rejects broken pieces and figures", test_checker_rejects_broken_pieces},
        {"checker rejects a reduce merged out of order", test_checker_rejects_wrong_order},
        {"LB1 never above brute force", test_lb1_brute_force},
        {"bad requests", test_bad_requests},
        {NULL, NULL}};
    return tu_main("unroll", tests);
}
