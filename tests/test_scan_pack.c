/* The achievable scan throughput (issue 27 item 3): column generation over
 * anchor-chain prefix structures (lp/colgen_scan*.c).
 *
 * Every solution here is re-checked independently of the solver: each
 * structure by ssched_scan_structure_check (the fixpoint of its own sends
 * and tasks delivers every prefix), and the packing by a recount of every
 * port and processor's load from the structures' sends and tasks (<= 1),
 * with the rates summing to TP.  So the reported TP is achievable whatever
 * the LP code did; with the upper bounds proven in tests/test_scan.c, the
 * hand cases are optimal.  Brute force: on 3-4-node platforms every anchor
 * chain (anchors, forks and every simple path of every route) is
 * enumerated, its master built here from the platform alone and solved
 * exactly (ssched_lp_solve and esolver): colgen's TP must equal it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/internal.h"
#include "ssched/rational.h"
#include "ssched/steady.h"
#include "test_util.h"

static void scan_problem(ssched_problem_t *pb, const size_t *list, size_t N, int exclusive)
{
    ssched_problem_init(pb);
    pb->kind = SSCHED_PROBLEM_SCAN;
    pb->exclusive = exclusive;
    pb->participants = malloc(N * sizeof *pb->participants);
    CU_ASSERT_FATAL(pb->participants != NULL);
    memcpy(pb->participants, list, N * sizeof *list);
    pb->n_participants = N;
}

/* The independent recount: every structure valid, rates sum to TP, and per
 * node the out-port, in-port (one-port graph model) and processor loads of
 * the structures' sends and tasks at most 1. */
static void recount(const ssched_platform_t *p, const ssched_problem_t *pb,
                    const ssched_steady_t *s)
{
    size_t n = p->n_nodes;
    mpq_t *load = malloc(3 * n * sizeof *load), sum, q;
    CU_ASSERT_FATAL(load != NULL);
    for (size_t i = 0; i < 3 * n; i++)
        mpq_init(load[i]);
    mpq_inits(sum, q, NULL);
    for (size_t k = 0; k < s->n_scan_structures; k++) {
        const ssched_scan_structure_t *st = &s->scan_structures[k];
        ssched_check_report_t rep;
        CU_ASSERT_EQUAL(ssched_scan_structure_check(p, pb, st, &rep, NULL), SSCHED_OK);
        if (!rep.valid)
            fprintf(stderr, "\n  structure %zu: %s\n", k, rep.violation);
        CU_ASSERT(rep.valid);
        CU_ASSERT(mpq_sgn(st->rate) > 0);
        mpq_add(sum, sum, st->rate);
        for (size_t x = 0; x < st->n_sends; x++) {
            size_t e = st->sends[x].edge;
            mpq_mul(q, st->rate, p->c[e]);
            mpq_mul(q, q, pb->size);
            if (!p->multiport[p->from[e]])
                mpq_add(load[p->from[e]], load[p->from[e]], q);
            if (!p->multiport[p->to[e]])
                mpq_add(load[n + p->to[e]], load[n + p->to[e]], q);
        }
        for (size_t x = 0; x < st->n_tasks; x++) {
            size_t i = st->tasks[x].node;
            mpq_mul(q, st->rate, p->w[i]);
            mpq_add(load[2 * n + i], load[2 * n + i], q);
        }
    }
    CU_ASSERT(mpq_equal(sum, s->throughput));
    for (size_t i = 0; i < 3 * n; i++) {
        CU_ASSERT(mpq_cmp_ui(load[i], 1, 1) <= 0);
        mpq_clear(load[i]);
    }
    free(load);
    mpq_clears(sum, q, NULL);
}

/* Solve by the default method (column generation): TP into tp, the bound
 * into ub; the packing recounted. */
static void solve_pack(const ssched_platform_t *p, const ssched_problem_t *pb, mpq_t tp, mpq_t ub)
{
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, NULL, &s, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    CU_ASSERT_EQUAL(s.method, SSCHED_METHOD_COLGEN);
    CU_ASSERT(mpq_cmp(s.throughput, s.upper_bound) <= 0);
    CU_ASSERT_EQUAL(s.optimal, mpq_equal(s.throughput, s.upper_bound));
    tu_check_certificate(p, pb->size, &s); /* the master's TP = sum of prices */
    recount(p, pb, &s);
    mpq_set(tp, s.throughput);
    mpq_set(ub, s.upper_bound);
    ssched_steady_free(&s);
}

static void expect_optimal(const ssched_platform_t *p, const size_t *list, size_t N,
                           int exclusive, const char *want)
{
    ssched_problem_t pb;
    scan_problem(&pb, list, N, exclusive);
    mpq_t tp, ub;
    mpq_inits(tp, ub, NULL);
    solve_pack(p, &pb, tp, ub);
    if (!tu_mpq_equals(tp, want) || !tu_mpq_equals(ub, want)) {
        char *a = ssched_rational_to_string(tp), *b = ssched_rational_to_string(ub);
        fprintf(stderr, "\n  scan%s N=%zu: TP %s, bound %s, expected %s\n",
                exclusive ? " (exclusive)" : "", N, a, b, want);
        free(a);
        free(b);
        CU_FAIL("scan packing");
    }
    mpq_clears(tp, ub, NULL);
    ssched_problem_free(&pb);
}

static void test_hand_cases(void)
{
    /* Upper bounds (proved in tests/test_scan.c, token arguments):
     * chain P0-P1-P2: in-port of the last participant, 1;
     * star with leaves P0..P2: C's out-port carries v0 to P1 and a prefix
     * to P2, 1/2 (C a switch: every link its own resource, 1);
     * K_n, w = 1: in-port(r_1), 1; w = 2: n-1 distinct prefixes no node
     * owns, each formed by a task, at most 1/2 per node: n/(2(n-1)) --
     * 3/4 (n = 3), 2/3 (n = 4).  Lower bounds: the packing found, whose
     * feasibility is recounted here without the solver.  Equal: gap 0. */
    ssched_platform_t p;
    ssched_platform_init(&p);
    tu_node(&p, "P0", "1");
    tu_node(&p, "P1", "1");
    tu_node(&p, "P2", "1");
    tu_link2(&p, 0, 1, "1");
    tu_link2(&p, 1, 2, "1");
    ssched_platform_finalize(&p, NULL);
    size_t l[] = {0, 1, 2, 3}, r[] = {2, 1, 0};
    expect_optimal(&p, l, 3, 0, "1");
    expect_optimal(&p, l, 3, 1, "1");
    expect_optimal(&p, r, 3, 0, "1");
    ssched_platform_free(&p);
    for (int sw = 0; sw < 2; sw++) {
        ssched_platform_init(&p);
        tu_node(&p, "C", sw ? NULL : "1");
        tu_node(&p, "P0", "1");
        tu_node(&p, "P1", "1");
        tu_node(&p, "P2", "1");
        tu_link2(&p, 0, 1, "1");
        tu_link2(&p, 0, 2, "1");
        tu_link2(&p, 0, 3, "1");
        ssched_platform_finalize(&p, NULL);
        if (sw)
            p.multiport[0] = 1;
        size_t s[] = {1, 2, 3};
        expect_optimal(&p, s, 3, 0, sw ? "1" : "1/2");
        expect_optimal(&p, s, 3, 1, sw ? "1" : "1/2");
        ssched_platform_free(&p);
    }
    static const struct {
        size_t n;
        const char *w, *tp;
    } kn[] = {{3, "1", "1"}, {4, "1", "1"}, {3, "2", "3/4"}, {4, "2", "2/3"}};
    for (size_t k = 0; k < sizeof kn / sizeof kn[0]; k++) {
        tu_complete(&p, kn[k].n, kn[k].w);
        expect_optimal(&p, l, kn[k].n, 0, kn[k].tp);
        ssched_platform_free(&p);
    }
}

/* ---- brute force ---- */

#define MAXP 64 /* simple paths kept per (x, y) */
typedef struct {
    size_t n, e[4];
} path_t;

typedef struct {
    const ssched_platform_t *p;
    size_t n_paths[16];
    path_t paths[16][MAXP];
} paths_t;

static void dfs(const ssched_platform_t *p, size_t x, size_t y, path_t *cur, unsigned char *seen,
                path_t *out, size_t *k)
{
    if (x == y) {
        if (*k < MAXP)
            out[(*k)++] = *cur;
        return;
    }
    for (size_t a = p->out_start[x]; a < p->out_start[x + 1]; a++) {
        size_t e = p->out_list[a], v = p->to[e];
        if (seen[v] || cur->n == 4)
            continue;
        seen[v] = 1;
        cur->e[cur->n++] = e;
        dfs(p, v, y, cur, seen, out, k);
        cur->n--;
        seen[v] = 0;
    }
}

static void all_paths(const ssched_platform_t *p, paths_t *P)
{
    size_t n = p->n_nodes;
    P->p = p;
    for (size_t x = 0; x < n; x++)
        for (size_t y = 0; y < n; y++) {
            path_t cur = {0, {0}};
            unsigned char seen[4] = {0};
            seen[x] = 1;
            size_t k = 0;
            dfs(p, x, y, &cur, seen, P->paths[x * n + y], &k);
            P->n_paths[x * n + y] = k;
        }
}

/* A route request: interval I from x to y (y == SIZE_MAX: none). */
typedef struct {
    size_t x, y, I;
} route_t;

#define BITS 128 /* (edge, interval) pairs: 12 edges x 10 intervals at most */
typedef struct {
    unsigned char bit[BITS];
    size_t anchor[4]; /* b_1..b_T, SIZE_MAX beyond */
} column_key_t;

typedef struct {
    column_key_t *a;
    size_t n, cap;
} keys_t;

static void keys_push(keys_t *K, const column_key_t *c)
{
    if (K->n == K->cap) {
        K->cap = K->cap ? 2 * K->cap : 1024;
        K->a = realloc(K->a, K->cap * sizeof *K->a);
        CU_ASSERT_FATAL(K->a != NULL);
    }
    K->a[K->n++] = *c;
}

static int key_cmp(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(column_key_t));
}

/* Every combination of simple paths for routes[0..nr). */
static void choose(const paths_t *P, const route_t *routes, size_t nr, size_t at,
                   column_key_t *cur, keys_t *K)
{
    if (at == nr) {
        keys_push(K, cur);
        return;
    }
    const route_t *r = &routes[at];
    if (r->y == SIZE_MAX || r->x == r->y) {
        choose(P, routes, nr, at + 1, cur, K);
        return;
    }
    size_t n = P->p->n_nodes, ne = P->p->n_edges;
    const path_t *ps = P->paths[r->x * n + r->y];
    for (size_t k = 0; k < P->n_paths[r->x * n + r->y]; k++) {
        column_key_t save = *cur;
        for (size_t x = 0; x < ps[k].n; x++)
            cur->bit[r->I * ne + ps[k].e[x]] = 1;
        choose(P, routes, nr, at + 1, cur, K);
        *cur = save;
    }
}

/* Every anchor chain of scan pb on p (N <= 4), as unique keys. */
static void enumerate(const ssched_platform_t *p, const ssched_problem_t *pb, keys_t *K)
{
    size_t n = p->n_nodes, N = pb->n_participants, T = pb->exclusive ? N - 2 : N - 1;
    paths_t *P = calloc(1, sizeof *P);
    CU_ASSERT_FATAL(P != NULL);
    all_paths(p, P);
    size_t total = 1;
    for (size_t t = 0; t < 2 * T; t++)
        total *= n;
    for (size_t code = 0; code < total; code++) {
        size_t c = code, b[5], s[4];
        b[0] = pb->participants[0];
        int ok = 1;
        for (size_t t = 1; t <= T; t++) {
            b[t] = c % n;
            c /= n;
            ok &= p->has_w[b[t]] != 0;
        }
        for (size_t t = 0; t < T; t++) {
            s[t] = c % n;
            c /= n;
        }
        if (!ok)
            continue;
        route_t routes[16];
        size_t nr = 0;
        for (size_t t = 0; t <= T; t++) {
            size_t D = pb->exclusive ? pb->participants[t + 1]
                                     : (t ? pb->participants[t] : SIZE_MAX);
            size_t I = ssched_interval_index(N, 0, t);
            if (t == T) {
                routes[nr++] = (route_t){b[t], D, I};
                break;
            }
            routes[nr++] = (route_t){b[t], s[t], I};
            routes[nr++] = (route_t){s[t], D, I};
            routes[nr++] = (route_t){s[t], b[t + 1], I};
            routes[nr++] = (route_t){pb->participants[t + 1], b[t + 1],
                                     ssched_interval_index(N, t + 1, t + 1)};
        }
        column_key_t cur;
        memset(&cur, 0, sizeof cur);
        for (size_t t = 0; t < 4; t++)
            cur.anchor[t] = t < T ? b[t + 1] : SIZE_MAX;
        choose(P, routes, nr, 0, &cur, K);
    }
    free(P);
    if (K->n)
        qsort(K->a, K->n, sizeof *K->a, key_cmp);
    size_t u = 0;
    for (size_t k = 0; k < K->n; k++)
        if (!u || key_cmp(&K->a[u - 1], &K->a[k]))
            K->a[u++] = K->a[k];
    K->n = u;
}

/* The master over keys K, built from the platform: max sum lambda s.t.
 * out-port, in-port and processor time <= 1 (graph model, one-port). */
static void brute_master(const ssched_platform_t *p, const ssched_problem_t *pb, const keys_t *K,
                         ssched_lp_t *lp)
{
    size_t n = p->n_nodes, ne = p->n_edges, N = pb->n_participants;
    CU_ASSERT_EQUAL_FATAL(ssched_lp_init(lp, "brute_scan"), SSCHED_OK);
    mpq_t one, q;
    mpq_inits(one, q, NULL);
    mpq_set_ui(one, 1, 1);
    char name[32];
    for (size_t r = 0; r < 3 * n; r++) {
        snprintf(name, sizeof name, "r%zu", r);
        CU_ASSERT_EQUAL_FATAL(ssched_lp_add_row(lp, name, SSCHED_ROW_LE, one, NULL, NULL),
                              SSCHED_OK);
    }
    mpq_t *coef = malloc(3 * n * sizeof *coef);
    for (size_t r = 0; r < 3 * n; r++)
        mpq_init(coef[r]);
    for (size_t k = 0; k < K->n; k++) {
        size_t col;
        snprintf(name, sizeof name, "s%zu", k);
        CU_ASSERT_EQUAL_FATAL(ssched_lp_add_col(lp, name, one, &col, NULL), SSCHED_OK);
        for (size_t r = 0; r < 3 * n; r++)
            mpq_set_ui(coef[r], 0, 1);
        for (size_t b = 0; b < ne * (N * (N + 1) / 2); b++) {
            if (!K->a[k].bit[b])
                continue;
            size_t e = b % ne;
            mpq_mul(q, p->c[e], pb->size);
            mpq_add(coef[p->from[e]], coef[p->from[e]], q);
            mpq_add(coef[n + p->to[e]], coef[n + p->to[e]], q);
        }
        for (size_t t = 0; t < 4 && K->a[k].anchor[t] != SIZE_MAX; t++)
            mpq_add(coef[2 * n + K->a[k].anchor[t]], coef[2 * n + K->a[k].anchor[t]],
                    p->w[K->a[k].anchor[t]]);
        for (size_t r = 0; r < 3 * n; r++)
            if (mpq_sgn(coef[r]))
                CU_ASSERT_EQUAL_FATAL(ssched_lp_add_coef(lp, r, col, coef[r], NULL), SSCHED_OK);
    }
    for (size_t r = 0; r < 3 * n; r++)
        mpq_clear(coef[r]);
    free(coef);
    mpq_clears(one, q, NULL);
}

static void random_platform(ssched_platform_t *p, unsigned n)
{
    tu_random_platform(p, n);
    for (unsigned i = 0; i < n; i++)
        if (tu_pick(4)) {
            p->has_w[i] = 1;
            mpq_set_ui(p->w[i], tu_pick(3) + 1, tu_pick(6) + 1); /* cheap: routes matter */
            mpq_canonicalize(p->w[i]);
        }
}

static void test_brute_force(void)
{
    tu_run_t r;
    int have_esolver = tu_sh(&r, "command -v esolver >/dev/null") == 0;
    tu_run_free(&r);
    if (!have_esolver)
        fprintf(stderr, "\n  esolver absent: the esolver cross-check is skipped\n");
    int compared = 0, positive = 0;
    for (int k = 0; k < 12; k++) {
        ssched_platform_t p;
        /* n = 3: N = 3 both kinds; n = 4: N = 3 exclusive and N = 2
         * inclusive (larger chains multiply the path choices past a test) */
        unsigned n = k < 8 ? 3 : 4;
        random_platform(&p, n);
        int exclusive = k < 8 ? k % 2 : k < 10;
        size_t N = k < 10 ? 3 : 2, l[4], start = tu_pick(n);
        for (size_t i = 0; i < N; i++)
            l[i] = (start + (k % 4 >= 2 ? n - i : i)) % n;
        ssched_problem_t pb;
        scan_problem(&pb, l, N, exclusive);
        if (k % 5 == 1)
            mpq_set_ui(pb.size, 3, 2);
        keys_t K = {NULL, 0, 0};
        enumerate(&p, &pb, &K);
        ssched_lp_t lp;
        brute_master(&p, &pb, &K, &lp);
        ssched_lp_solution_t sol;
        ssched_lp_solution_init(&sol);
        mpq_t tp, ub;
        mpq_inits(tp, ub, NULL);
        solve_pack(&p, &pb, tp, ub);
        if (K.n) {
            CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&lp, NULL, &sol, NULL), SSCHED_OK);
            if (!mpq_equal(sol.objective, tp)) {
                char *a = ssched_rational_to_string(tp);
                char *b = ssched_rational_to_string(sol.objective);
                fprintf(stderr, "\n  case %d: colgen TP %s, brute force (%zu structures) %s\n", k,
                        a, K.n, b);
                free(a);
                free(b);
                CU_FAIL("colgen differs from the brute force");
            }
            if (have_esolver) {
                mpq_t ref;
                mpq_init(ref);
                CU_ASSERT_EQUAL(tu_esolver_optimum(&lp, ref), 0);
                CU_ASSERT(mpq_equal(ref, tp));
                mpq_clear(ref);
            }
            positive += mpq_sgn(tp) > 0;
        } else {
            CU_ASSERT_EQUAL(mpq_sgn(tp), 0); /* no chain at all */
        }
        compared++;
        if (getenv("SCAN_PACK_VERBOSE")) gmp_fprintf(stderr, "\n  case %d: %zu structures, TP %Qd bound %Qd", k, K.n, tp, ub);
        mpq_clears(tp, ub, NULL);
        ssched_lp_solution_free(&sol);
        ssched_lp_free(&lp);
        free(K.a);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT_EQUAL(compared, 12);
    CU_ASSERT(positive >= 6);
}

/* A valid structure on the chain P0 - P1 - P2 (inclusive): P0 -> P1 v0, P1
 * computes v[0,1], P1 -> P2 v[0,1], P2 computes v[0,2]; then mutations. */
static void test_checker(void)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    tu_node(&p, "P0", "1");
    tu_node(&p, "P1", "1");
    tu_node(&p, "P2", NULL);
    tu_link2(&p, 0, 1, "1"); /* edges 0: P0->P1, 1: P1->P0 */
    tu_link2(&p, 1, 2, "1"); /* 2: P1->P2, 3: P2->P1 */
    ssched_platform_finalize(&p, NULL);
    size_t l[] = {0, 1, 2};
    ssched_problem_t pb;
    scan_problem(&pb, l, 3, 0);
    ssched_scan_task_t tasks[3] = {{1, 0, 0, 1}, {1, 0, 1, 2}, {0, 0, 0, 1}};
    ssched_scan_send_t sends[4] = {{0, 0, 0}, {3, 2, 2}, {2, 0, 2}, {2, 0, 2}};
    ssched_scan_structure_t s = {.n_tasks = 2, .n_sends = 3, .tasks = tasks, .sends = sends};
    mpq_init(s.rate);
    ssched_check_report_t rep;
    /* v[0,2] formed at P1 (P2 has no w) and sent to P2; v[0,1] stays at
     * P1, its owner's prefix: P1 holds v[0,1], P2 v[0,2] */
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(rep.valid);
    s.n_sends = 4; /* v[0,2] twice over P1 -> P2 */
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "twice"));
    s.n_sends = 2; /* P2 never gets v[0,2] */
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "never receives v[0,2]"));
    s.n_sends = 3;
    s.n_tasks = 3; /* P0 merges v[0,1] but never gets v1 */
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "operand never reaches"));
    s.n_tasks = 2;
    tasks[1].node = 2; /* P2 has no w */
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "no w"));
    tasks[1].node = 1;
    tasks[1].l = 2; /* T(0,2,2): l must be below m */
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "out of range"));
    tasks[1].l = 1;
    sends[0].k = 1; /* P0 sends v1, which it never holds */
    sends[0].m = 1;
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "never holds"));
    sends[0].k = sends[0].m = 0;
    sends[1].edge = 99;
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid && strstr(rep.violation, "out of range"));
    sends[1].edge = 3;
    /* a cycle does not justify itself: P1 <-> P2 passing v[0,2] around
     * without anyone forming it */
    ssched_scan_send_t cyc[2] = {{2, 0, 2}, {3, 0, 2}};
    ssched_scan_structure_t c = {.n_tasks = 0, .n_sends = 2, .tasks = tasks, .sends = cyc};
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &c, &rep, NULL), SSCHED_OK);
    CU_ASSERT(!rep.valid);
    /* exclusive: P1 needs v0 only, P2 v[0,1] */
    pb.exclusive = 1;
    ssched_scan_send_t ex[2] = {{0, 0, 0}, {2, 0, 1}};
    ssched_scan_structure_t e = {.n_tasks = 1, .n_sends = 2, .tasks = tasks, .sends = ex};
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &e, &rep, NULL), SSCHED_OK);
    CU_ASSERT(rep.valid);
    /* not a scan: bad input */
    pb.kind = SSCHED_PROBLEM_REDUCE;
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, &err), SSCHED_EINPUT);
    pb.kind = SSCHED_PROBLEM_SCAN;
    pb.participants[2] = 7;
    CU_ASSERT_EQUAL(ssched_scan_structure_check(&p, &pb, &s, &rep, &err), SSCHED_EINPUT);
    mpq_clear(s.rate);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_cli(void)
{
    const char *tiers = SSCHED_SOURCE_DIR "/examples/tiers-small.graphml";
    tu_run_t r;
    static const char *const models[] = {"", "--routers switch", "--model routed"};
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants "
                                   "h0_0_0_0,h0_0_1_0,h1_0_0_0,h0_0_0_1 %s --json --quiet",
                               tiers, models[k]), 0);
        CU_ASSERT(r.out && strstr(r.out, "\"throughput\"") && strstr(r.out, "\"upper_bound\"") &&
                  strstr(r.out, "\"gap\"") && strstr(r.out, "\"scan_structures\"") &&
                  strstr(r.out, "\"bound_source\""));
        tu_run_free(&r);
    }
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --problem scan --participants "
                               "h0_0_0_0,h0_0_1_0,h1_0_0_0 --exclusive --method colgen", tiers), 0);
    CU_ASSERT(r.out && strstr(r.out, "throughput (achievable, certified feasible) TP = ") &&
              strstr(r.out, "upper bound (") && strstr(r.out, "gap = ") &&
              strstr(r.out, "prefix structures"));
    tu_run_free(&r);
    static const char *const bad[] = {
        "solve '%s' --problem scan --participants h0_0_0_0,nowhere",
        "solve '%s' --problem scan --participants h0_0_0_0 --method colgen",
        "solve '%s' --problem scan --participants h0_0_0_0,h0_0_0_0,h0_0_1_0",
        NULL};
    for (size_t k = 0; bad[k]; k++) {
        int st = tu_run(&r, bad[k], tiers);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        CU_ASSERT(r.out == NULL || r.out[0] == 0);
        tu_run_free(&r);
    }
}

/* The exact optimum of the scan edge LP over the demands in take (NULL:
 * the whole LP through ssched_model_build). */
static void subset_value(const ssched_platform_t *p, const ssched_problem_t *pb,
                         const unsigned char *take, mpq_t v)
{
    ssched_model_t m;
    ssched_model_init(&m);
    ssched_status_t st = take ? ssched_i_model_build_scan_subset(p, pb, take, &m, NULL)
                              : ssched_model_build(p, pb, &m, NULL);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    CU_ASSERT_EQUAL_FATAL(ssched_lp_solve(&m.lp, NULL, &sol, NULL), SSCHED_OK);
    mpq_set(v, sol.objective);
    ssched_lp_solution_free(&sol);
    ssched_model_free(&m);
}

static void test_bounds(void)
{
    /* The bounds behind upper_bound (docs/model.md): the edge LP over a
     * subset of the demands relaxes the whole edge LP (>=), equals it
     * with every demand, and over one demand j with a_j >= 1 it is the
     * ordered reduce LP of v[0,a_j] to r_j; the achievable TP is below
     * all of them. */
    for (int k = 0; k < 10; k++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(2);
        random_platform(&p, n);
        size_t N = 3 + (n == 4 ? tu_pick(2) : 0), l[4], start = tu_pick(n);
        for (size_t i = 0; i < N; i++)
            l[i] = (start + i) % n;
        ssched_problem_t pb;
        scan_problem(&pb, l, N, k % 2);
        mpq_t whole, v, tp, ub;
        mpq_inits(whole, v, tp, ub, NULL);
        subset_value(&p, &pb, NULL, whole);
        solve_pack(&p, &pb, tp, ub);
        CU_ASSERT(mpq_cmp(tp, whole) <= 0);
        CU_ASSERT(mpq_cmp(whole, ub) <= 0);
        unsigned char take[4];
        memset(take, 1, sizeof take);
        subset_value(&p, &pb, take, v);
        CU_ASSERT(mpq_equal(v, whole));
        for (size_t j = 1; j < N; j++) {
            memset(take, 0, sizeof take);
            take[j] = 1;
            subset_value(&p, &pb, take, v);
            CU_ASSERT(mpq_cmp(v, whole) >= 0);
            size_t a = pb.exclusive ? j - 1 : j;
            if (a == 0)
                continue;
            ssched_problem_t red;
            ssched_problem_init(&red);
            red.kind = SSCHED_PROBLEM_REDUCE;
            red.participants = malloc((a + 1) * sizeof(size_t));
            memcpy(red.participants, l, (a + 1) * sizeof(size_t));
            red.n_participants = a + 1;
            red.target = l[j];
            mpq_t r;
            mpq_init(r);
            subset_value(&p, &red, NULL, r);
            CU_ASSERT(mpq_equal(v, r));
            mpq_clear(r);
            ssched_problem_free(&red);
        }
        mpq_clears(whole, v, tp, ub, NULL);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"hand cases: achievable = bound (chain, star, complete)", test_hand_cases},
        {"brute force: every anchor chain, exact master = colgen", test_brute_force},
        {"bounds: subset edge LPs, reduce LPs, achievable below", test_bounds},
        {"structure checker: valid, mutations, bad input", test_checker},
        {"CLI: achievable, bound, gap, structures; bad input", test_cli},
        {NULL, NULL}};
    return tu_main("scan_pack", tests);
}
