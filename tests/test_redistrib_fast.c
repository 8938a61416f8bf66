/* The redistribution checker's integer fast path (src/redistribution/
 * check_fast.c, issue 26) against the exact checker it shortcuts:
 *   - it certifies the schedules the algorithms build in the cases it is
 *     meant for (every greedy and direct schedule, preemptive without
 *     start-up), so that the large rows really take it;
 *   - it is sound: on thousands of randomly broken schedules (a time moved
 *     by a tiny amount, with or without a denominator of the unit, an
 *     amount changed, two list entries swapped, the completion moved), it
 *     never says "valid" where the exact checker finds a violation, and it
 *     agrees with it on every unbroken schedule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "ssched/matching.h"
#include "ssched/rational.h"
#include "ssched/redistribution.h"
#include "test_util.h"

static void make(ssched_redist_t *r, size_t P, size_t K, size_t N, const char *lo, const char *hi,
                 uint64_t seed, const char *startup)
{
    mpq_t a, b, st;
    mpq_inits(a, b, st, NULL);
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(a, lo, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(b, hi, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(st, startup, NULL), SSCHED_OK);
    ssched_redist_init(r);
    CU_ASSERT_EQUAL_FATAL(ssched_redist_network_random(r, P, a, b, seed, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_redist_build(r, K, N, 1, st, NULL), SSCHED_OK);
    mpq_clears(a, b, st, NULL);
}

/* 1 if the exact checker (no fast path) finds s valid. */
static int exact_valid(const ssched_redist_t *r, const ssched_redist_schedule_t *s)
{
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL_FATAL(ssched_i_rd_check_exact(r, s, &rep, NULL), SSCHED_OK);
    return rep.valid;
}

static uint64_t rng(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* One random breakage of s (undone by the caller from the copies). */
static void mutate(ssched_redist_schedule_t *s, uint64_t *x, mpq_t d)
{
    size_t i = rng(x) % s->n_transfers;
    ssched_redist_transfer_t *t = &s->transfers[i];
    /* a tiny amount: 1/(L·k) or 1/k (k small), up or down */
    mpq_set_ui(d, 1, 1 + rng(x) % 7);
    if (rng(x) % 2)
        mpq_div_2exp(d, d, 200);
    if (rng(x) % 2)
        mpq_neg(d, d);
    switch (rng(x) % 6) {
    case 0: mpq_add(t->start, t->start, d); break;
    case 1: mpq_add(t->end, t->end, d); break;
    case 2: mpq_add(t->amount, t->amount, d); break;
    case 3: mpq_add(s->completion, s->completion, d); break;
    case 4: { /* swap two neighbours of a send list */
        size_t p = rng(x) % s->P;
        if (s->send_start[p + 1] - s->send_start[p] >= 2) {
            size_t *a = &s->send_list[s->send_start[p]];
            size_t k = a[0];
            a[0] = a[1];
            a[1] = k;
        }
        break;
    }
    default: /* the start moved onto the previous transfer's start */
        if (i > 0)
            mpq_set(t->start, s->transfers[i - 1].start);
        break;
    }
}

static void test_fast_certifies(void)
{
    static const struct {
        size_t P, K, N;
        const char *lo, *hi, *startup;
    } cases[] = {
        {7, 3, 210, "1", "9/2", "0"},       {16, 5, 800, "10", "200", "0"},
        {16, 5, 800, "10", "200", "3/2"},   {33, 32, 3168, "10", "200", "0"},
        {24, 7, 857, "2", "5", "1/3"},      {40, 11, 880, "10", "200", "0"},
        {12, 11, 1200, "1/3", "7/2", "1/7"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ssched_redist_t r;
        make(&r, cases[c].P, cases[c].K, cases[c].N, cases[c].lo, cases[c].hi, c + 1,
             cases[c].startup);
        for (int a = 0; a < 3; a++) {
            ssched_redist_schedule_t s;
            ssched_redist_schedule_init(&s);
            CU_ASSERT_EQUAL_FATAL(ssched_redist_schedule(&r, (ssched_redist_algorithm_t)a, &s, NULL),
                                  SSCHED_OK);
            int fast = ssched_i_rd_check_fast(&r, &s);
            CU_ASSERT(exact_valid(&r, &s));
            /* whole messages (greedy, direct) or no start-up: times in (1/U)Z */
            if (a != SSCHED_REDIST_PREEMPTIVE || mpq_sgn(r.startup) == 0)
                CU_ASSERT_EQUAL(fast, 1);
            ssched_redist_schedule_free(&s);
        }
        ssched_redist_free(&r);
    }
}

static void test_fast_sound(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    size_t broken = 0, agreed_valid = 0;
    mpq_t d, ks, ke, ka, kc;
    mpq_inits(d, ks, ke, ka, kc, NULL);
    for (int c = 0; c < 6; c++) {
        ssched_redist_t r;
        make(&r, 9 + 5 * (size_t)c, 4 + (size_t)c, 700 + 97 * (size_t)c, c % 2 ? "1/2" : "10",
             c % 2 ? "7/3" : "200", (uint64_t)c + 11, c % 3 == 2 ? "1/5" : "0");
        for (int a = 0; a < 3; a++) {
            ssched_redist_schedule_t s;
            ssched_redist_schedule_init(&s);
            CU_ASSERT_EQUAL_FATAL(ssched_redist_schedule(&r, (ssched_redist_algorithm_t)a, &s, NULL),
                                  SSCHED_OK);
            size_t n = s.n_transfers;
            size_t *send = malloc(n * sizeof *send);
            CU_ASSERT_PTR_NOT_NULL_FATAL(send);
            memcpy(send, s.send_list, n * sizeof *send);
            for (int k = 0; k < 150; k++) {
                /* keep every transfer's values: restore after the trial */
                size_t nt = s.n_transfers;
                mpq_t *keep = malloc(3 * nt * sizeof *keep);
                CU_ASSERT_PTR_NOT_NULL_FATAL(keep);
                for (size_t i = 0; i < nt; i++) {
                    mpq_init(keep[3 * i]);
                    mpq_init(keep[3 * i + 1]);
                    mpq_init(keep[3 * i + 2]);
                    mpq_set(keep[3 * i], s.transfers[i].start);
                    mpq_set(keep[3 * i + 1], s.transfers[i].end);
                    mpq_set(keep[3 * i + 2], s.transfers[i].amount);
                }
                mpq_set(kc, s.completion);
                mutate(&s, &x, d);
                int fast = ssched_i_rd_check_fast(&r, &s), exact = exact_valid(&r, &s);
                CU_ASSERT(!fast || exact); /* never valid where it is not */
                broken += !exact;
                agreed_valid += fast && exact;
                for (size_t i = 0; i < nt; i++) {
                    mpq_set(s.transfers[i].start, keep[3 * i]);
                    mpq_set(s.transfers[i].end, keep[3 * i + 1]);
                    mpq_set(s.transfers[i].amount, keep[3 * i + 2]);
                    mpq_clear(keep[3 * i]);
                    mpq_clear(keep[3 * i + 1]);
                    mpq_clear(keep[3 * i + 2]);
                }
                free(keep);
                mpq_set(s.completion, kc);
                memcpy(s.send_list, send, n * sizeof *send);
                CU_ASSERT(exact_valid(&r, &s));
            }
            free(send);
            ssched_redist_schedule_free(&s);
        }
        ssched_redist_free(&r);
    }
    /* the trials did break schedules, and some stayed valid and certified */
    CU_ASSERT(broken > 1000);
    CU_ASSERT(agreed_valid > 10);
    mpq_clears(d, ks, ke, ka, kc, NULL);
}

/* The run-based matching check (matching/verify.c, issue 26) against the
 * definition: every matching is one (no node twice), λ > 0, each edge's
 * λ over the matchings that list it equals its weight, Σλ = total <= T. */
static int naive_valid(const ssched_bipartite_t *g, const mpz_t T,
                       const ssched_matching_result_t *r)
{
    int ok = 1;
    mpz_t *sum = malloc(g->n_edges * sizeof *sum), tot;
    mpz_init(tot);
    for (size_t e = 0; e < g->n_edges; e++)
        mpz_init(sum[e]);
    for (size_t i = 0; i < r->n_matchings && ok; i++) {
        const ssched_matching_t *m = &r->matchings[i];
        ok = mpz_sgn(m->lambda) > 0;
        mpz_add(tot, tot, m->lambda);
        for (size_t j = 0; j < m->n_edges && ok; j++) {
            size_t e = m->edges[j];
            ok = e < g->n_edges;
            for (size_t k = 0; k < j && ok; k++)
                ok = g->edges[m->edges[k]].left != g->edges[e].left &&
                     g->edges[m->edges[k]].right != g->edges[e].right;
            if (ok)
                mpz_add(sum[e], sum[e], m->lambda);
        }
    }
    for (size_t e = 0; e < g->n_edges && ok; e++)
        ok = mpz_cmp(sum[e], g->edges[e].weight) == 0;
    ok = ok && mpz_cmp(tot, r->total) == 0 && mpz_cmp(tot, T) <= 0;
    for (size_t e = 0; e < g->n_edges; e++)
        mpz_clear(sum[e]);
    free(sum);
    mpz_clear(tot);
    return ok;
}

static void test_matching_check_runs(void)
{
    uint64_t x = 0x2545f4914f6cdd1dULL;
    size_t rejected = 0;
    for (int c = 0; c < 12; c++) {
        size_t n = 3 + (size_t)c % 5, m = n * (2 + (size_t)c % 3);
        ssched_bipartite_t g;
        ssched_bipartite_init(&g, n, n);
        mpz_t w, T;
        mpz_inits(w, T, NULL);
        for (size_t k = 0; k < m; k++) {
            mpz_set_ui(w, 1 + rng(&x) % 50);
            CU_ASSERT_EQUAL_FATAL(
                ssched_bipartite_add_edge(&g, rng(&x) % n, rng(&x) % n, w, NULL, NULL), SSCHED_OK);
        }
        CU_ASSERT_EQUAL_FATAL(ssched_bipartite_max_degree(&g, T, NULL), SSCHED_OK);
        ssched_matching_result_t r;
        ssched_matching_result_init(&r);
        CU_ASSERT_EQUAL_FATAL(
            ssched_matching_decompose(&g, T, c % 2 ? SSCHED_MATCHING_ARBITRARY
                                                   : SSCHED_MATCHING_BOTTLENECK, &r, NULL),
            SSCHED_OK);
        for (int k = 0; k < 60 && r.n_matchings > 1; k++) {
            /* drop an edge from a step, or copy one into a neighbour step,
             * or move one unit of length between two steps */
            size_t i = rng(&x) % r.n_matchings, i2 = (i + 1) % r.n_matchings;
            ssched_matching_t *a = &r.matchings[i], *b = &r.matchings[i2];
            int kind = (int)(rng(&x) % 3);
            size_t saved_n = a->n_edges, *grown = NULL;
            if (kind == 0 && a->n_edges > 0) {
                size_t j = rng(&x) % a->n_edges, keep = a->edges[j];
                a->edges[j] = a->edges[a->n_edges - 1];
                a->edges[a->n_edges - 1] = keep;
                a->n_edges--;
            } else if (kind == 1 && b->n_edges > 0) {
                grown = realloc(a->edges, (a->n_edges + 1) * sizeof *grown);
                CU_ASSERT_PTR_NOT_NULL_FATAL(grown);
                a->edges = grown;
                a->edges[a->n_edges++] = b->edges[rng(&x) % b->n_edges];
            } else {
                mpz_add_ui(a->lambda, a->lambda, 1);
                mpz_sub_ui(b->lambda, b->lambda, 1);
            }
            ssched_check_report_t rep;
            CU_ASSERT_EQUAL_FATAL(ssched_matching_check(&g, T, &r, &rep, NULL), SSCHED_OK);
            CU_ASSERT_EQUAL(rep.valid, naive_valid(&g, T, &r));
            rejected += !rep.valid;
            if (kind == 0 && saved_n > 0) {
                a->n_edges++; /* the dropped edge is still at the end */
            } else if (kind == 1 && b->n_edges > 0) {
                a->n_edges--;
            } else {
                mpz_sub_ui(a->lambda, a->lambda, 1);
                mpz_add_ui(b->lambda, b->lambda, 1);
            }
            CU_ASSERT_EQUAL_FATAL(ssched_matching_check(&g, T, &r, &rep, NULL), SSCHED_OK);
            CU_ASSERT(rep.valid);
        }
        ssched_matching_result_free(&r);
        ssched_bipartite_free(&g);
        mpz_clears(w, T, NULL);
    }
    CU_ASSERT(rejected > 100);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"fast path certifies the algorithms' schedules", test_fast_certifies},
        {"fast path never accepts a broken schedule", test_fast_sound},
        {"run-based matching check = the definition", test_matching_check_runs},
        {NULL, NULL}};
    return tu_main("redistrib_fast", tests);
}
