/* The column-generation pricers against independent references on random
 * instances with random prices: the reduce pricing (exact: on integers,
 * int64 or mpz by the size of the denominators; doubles) against a plain
 * rational interval program with a Bellman-Ford closure, and the path
 * pricing against Bellman-Ford.  Equal exact costs, each returned column's
 * own cost equal to the one returned, the double pricers within 1e-9. */
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/colgen_price.h"
#include "test_util.h"

/* Random prices: small denominators (the integer program fits int64) or
 * large, pairwise different ones (their lcm needs mpz). */
static void random_prices(size_t n, size_t ne, int large, cg_prices_q *q, cg_prices_d *d)
{
    q->out = ssched_i_mpq_vec_new(n);
    q->in = ssched_i_mpq_vec_new(n);
    q->cpu = ssched_i_mpq_vec_new(n);
    q->link = ssched_i_mpq_vec_new(ne);
    d->out = calloc(n, sizeof(double));
    d->in = calloc(n, sizeof(double));
    d->cpu = calloc(n, sizeof(double));
    d->link = calloc(ne + 1, sizeof(double));
    mpq_t *v[3] = {q->out, q->in, q->cpu};
    double *dv[3] = {d->out, d->in, d->cpu};
    for (int s = 0; s < 3; s++)
        for (size_t i = 0; i < n; i++) {
            unsigned long num = tu_pick(4) ? tu_pick(9) : 0, den = tu_pick(7) + 1;
            if (large)
                den = 2147483629ul - 2 * (unsigned long)(s * n + i); /* odd, near 2^31 */
            mpq_set_ui(v[s][i], num, den);
            mpq_canonicalize(v[s][i]);
            dv[s][i] = mpq_get_d(v[s][i]);
        }
}

static void free_prices(size_t n, size_t ne, cg_prices_q *q, cg_prices_d *d)
{
    ssched_i_mpq_vec_free(q->out, n);
    ssched_i_mpq_vec_free(q->in, n);
    ssched_i_mpq_vec_free(q->cpu, n);
    ssched_i_mpq_vec_free(q->link, ne);
    free(d->out);
    free(d->in);
    free(d->cpu);
    free(d->link);
}

/* The dual cost of edge e (no switches here): size c(e) (out[from] + in[to]). */
static void edge_cost(const ssched_platform_t *p, const ssched_problem_t *pb, const cg_prices_q *y,
                      size_t e, mpq_t out)
{
    mpq_add(out, y->out[p->from[e]], y->in[p->to[e]]);
    mpq_mul(out, out, p->c[e]);
    mpq_mul(out, out, pb->size);
}

/* Bellman-Ford closure of d (flags r) under the edge costs w. */
static void bellman_ford(const ssched_platform_t *p, const mpq_t *w, mpq_t *d, int *r)
{
    mpq_t c;
    mpq_init(c);
    for (size_t pass = 0; pass < p->n_nodes; pass++)
        for (size_t e = 0; e < p->n_edges; e++) {
            size_t a = p->from[e], b = p->to[e];
            if (!r[a])
                continue;
            mpq_add(c, d[a], w[e]);
            if (!r[b] || mpq_cmp(c, d[b]) < 0) {
                mpq_set(d[b], c);
                r[b] = 1;
            }
        }
    mpq_clear(c);
}

/* Reference: the cheapest reduction tree's cost, or 0 if none (returns 0). */
static int reference_reduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                            const cg_prices_q *y, const mpq_t *w, mpq_t out)
{
    size_t n = p->n_nodes, N = pb->n_participants;
    mpq_t *cost = ssched_i_mpq_vec_new(N * N * n), c;
    int *r = calloc(N * N * n, sizeof *r);
    mpq_init(c);
    for (size_t len = 0; len < N; len++)
        for (size_t k = 0; k + len < N; k++) {
            size_t m = k + len;
            mpq_t *d = cost + (k * N + m) * n;
            int *rr = r + (k * N + m) * n;
            if (len == 0) {
                mpq_set_ui(d[pb->participants[k]], 0, 1);
                rr[pb->participants[k]] = 1;
            }
            for (size_t i = 0; i < n && len > 0; i++) {
                if (!p->has_w[i])
                    continue;
                for (size_t l = k; l < m; l++) {
                    size_t a = (k * N + l) * n + i, b = ((l + 1) * N + m) * n + i;
                    if (!r[a] || !r[b])
                        continue;
                    mpq_add(c, cost[a], cost[b]);
                    if (!rr[i] || mpq_cmp(c, d[i]) < 0) {
                        mpq_set(d[i], c);
                        rr[i] = 1;
                    }
                }
                if (rr[i]) {
                    mpq_mul(c, y->cpu[i], p->w[i]);
                    mpq_add(d[i], d[i], c);
                }
            }
            bellman_ford(p, w, d, rr);
        }
    size_t root = (N - 1) * n + pb->target;
    int found = r[root];
    if (found)
        mpq_set(out, cost[root]);
    mpq_clear(c);
    ssched_i_mpq_vec_free(cost, N * N * n);
    free(r);
    return found;
}

/* The column's own cost: its sends' edge costs and its merges' costs. */
static void column_cost(const ssched_platform_t *p, const cg_prices_q *y, const mpq_t *w,
                        const cg_column_t *c, mpq_t out)
{
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k < c->n_sends; k++)
        mpq_add(out, out, w[c->send_edge[k]]);
    for (size_t k = 0; k < c->n_merges; k++) {
        mpq_mul(t, y->cpu[c->merge_node[k]], p->w[c->merge_node[k]]);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

/* A random platform of n nodes, every third one routing-only: a ring on the
 * first n - n/3 nodes plus random chords, and the last n/3 nodes pendant
 * (one neighbour, joined by an edge up, down or both: the closure's
 * shortcut for them, lp/colgen_rdp.inc, is then exercised). */
static void platform(ssched_platform_t *p, unsigned n)
{
    ssched_platform_init(p);
    mpq_t w;
    mpq_init(w);
    char name[16];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%u", i);
        mpq_set_ui(w, tu_pick(9) + 1, tu_pick(4) + 1);
        mpq_canonicalize(w);
        CU_ASSERT_EQUAL(ssched_platform_add_node(p, name, i % 3 == 2 ? NULL : w, NULL, NULL),
                        SSCHED_OK);
    }
    unsigned core = n - n / 3;
    for (unsigned i = 0; i < core; i++)
        for (unsigned j = 0; j < core; j++) {
            if (i == j || (j != (i + 1) % core && tu_pick(100) >= 35))
                continue;
            mpq_set_ui(w, tu_pick(9) + 1, tu_pick(6) + 1);
            mpq_canonicalize(w);
            ssched_platform_add_edge(p, i, j, w, NULL);
        }
    for (unsigned v = core; v < n; v++) {
        unsigned r = tu_pick(core), how = tu_pick(4); /* 0 up, 1 down, else both */
        mpq_set_ui(w, tu_pick(9) + 1, tu_pick(6) + 1);
        mpq_canonicalize(w);
        if (how != 1)
            ssched_platform_add_edge(p, v, r, w, NULL);
        if (how != 0)
            ssched_platform_add_edge(p, r, v, w, NULL);
    }
    mpq_clear(w);
    CU_ASSERT_EQUAL(ssched_platform_finalize(p, NULL), SSCHED_OK);
}

static void check_reduce(int large)
{
    for (int round = 0; round < 24; round++) {
        ssched_platform_t p;
        unsigned n = 4 + tu_pick(6), N = 2 + tu_pick(4);
        platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        pb.kind = SSCHED_PROBLEM_REDUCE;
        pb.n_participants = N;
        pb.participants = calloc(N, sizeof *pb.participants);
        for (unsigned k = 0; k < N; k++)
            pb.participants[k] = tu_pick(n); /* repeats allowed: the program does not care */
        pb.target = tu_pick(n);
        mpq_set_ui(pb.size, tu_pick(3) + 1, tu_pick(2) + 1);
        mpq_canonicalize(pb.size);
        cg_prices_q yq;
        cg_prices_d yd;
        random_prices(n, p.n_edges, large, &yq, &yd);
        mpq_t *w = ssched_i_mpq_vec_new(p.n_edges), ref, got, own;
        mpq_inits(ref, got, own, NULL);
        for (size_t e = 0; e < p.n_edges; e++)
            edge_cost(&p, &pb, &yq, e, w[e]);
        int found = reference_reduce(&p, &pb, &yq, (const mpq_t *)w, ref);
        cg_column_t c;
        int r = ssched_i_cg_price_reduce_q(&p, &pb, &yq, &c, got);
        CU_ASSERT_EQUAL(r, found);
        if (r == 1 && found) {
            CU_ASSERT(mpq_equal(got, ref));
            column_cost(&p, &yq, (const mpq_t *)w, &c, own);
            CU_ASSERT(mpq_equal(own, got));
            ssched_i_cg_column_free(&c);
        }
        double dc = 0;
        r = ssched_i_cg_price_reduce_d(&p, &pb, &yd, &c, &dc);
        CU_ASSERT_EQUAL(r, found);
        if (r == 1 && found) {
            double x = mpq_get_d(ref);
            CU_ASSERT(dc >= x - 1e-9 * (1 + x) && dc <= x + 1e-9 * (1 + x));
            column_cost(&p, &yq, (const mpq_t *)w, &c, own);
            x = mpq_get_d(own);
            CU_ASSERT(dc >= x - 1e-9 * (1 + x) && dc <= x + 1e-9 * (1 + x));
            ssched_i_cg_column_free(&c);
        }
        mpq_clears(ref, got, own, NULL);
        ssched_i_mpq_vec_free(w, p.n_edges);
        free_prices(n, p.n_edges, &yq, &yd);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

static void test_reduce_small(void)
{
    check_reduce(0);
}

static void test_reduce_large(void)
{
    check_reduce(1);
}

/* Paths: every (origin, dest) pair against Bellman-Ford from the origin
 * (the cheapest path never needs to pass its own destination or origin). */
static void check_paths(int large)
{
    for (int round = 0; round < 16; round++) {
        ssched_platform_t p;
        unsigned n = 3 + tu_pick(7);
        platform(&p, n);
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        pb.kind = SSCHED_PROBLEM_GOSSIP;
        cg_prices_q yq;
        cg_prices_d yd;
        random_prices(n, p.n_edges, large, &yq, &yd);
        mpq_t *w = ssched_i_mpq_vec_new(p.n_edges), *d = ssched_i_mpq_vec_new(n), got, own;
        int *r = calloc(n, sizeof *r);
        mpq_inits(got, own, NULL);
        for (size_t e = 0; e < p.n_edges; e++)
            edge_cost(&p, &pb, &yq, e, w[e]);
        for (size_t o = 0; o < n; o++) {
            memset(r, 0, n * sizeof *r);
            r[o] = 1;
            mpq_set_ui(d[o], 0, 1);
            bellman_ford(&p, (const mpq_t *)w, d, r);
            for (size_t t = 0; t < n; t++) {
                if (t == o)
                    continue;
                cg_column_t c;
                int f = ssched_i_cg_price_path_q(&p, &pb, o, t, &yq, &c, got);
                CU_ASSERT_EQUAL(f, r[t]);
                if (f == 1 && r[t]) {
                    CU_ASSERT(mpq_equal(got, d[t]));
                    column_cost(&p, &yq, (const mpq_t *)w, &c, own);
                    CU_ASSERT(mpq_equal(own, got));
                    ssched_i_cg_column_free(&c);
                }
                double dc = 0;
                f = ssched_i_cg_price_path_d(&p, &pb, o, t, &yd, &c, &dc);
                CU_ASSERT_EQUAL(f, r[t]);
                if (f == 1 && r[t]) {
                    double x = mpq_get_d(d[t]);
                    CU_ASSERT(dc >= x - 1e-9 * (1 + x) && dc <= x + 1e-9 * (1 + x));
                    ssched_i_cg_column_free(&c);
                }
            }
        }
        mpq_clears(got, own, NULL);
        free(r);
        ssched_i_mpq_vec_free(d, n);
        ssched_i_mpq_vec_free(w, p.n_edges);
        free_prices(n, p.n_edges, &yq, &yd);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

static void test_paths(void)
{
    check_paths(0);
    ssched_i_cg_price_memo_release();
    check_paths(1);
    ssched_i_cg_price_memo_release();
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"reduce pricing = reference (int64 scale)", test_reduce_small},
        {"reduce pricing = reference (mpz scale)", test_reduce_large},
        {"path pricing = Bellman-Ford", test_paths},
        {NULL, NULL}};
    return tu_main("colgen_pricers", tests);
}
