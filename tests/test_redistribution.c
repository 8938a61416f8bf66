/* Tests of src/redistribution/: cyclic(x) -> cyclic(Kx) on heterogeneous
 * networks (seed 003) and the `ssched redistribute` command. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/redistribution.h"
#include "test_util.h"

static void q_set(mpq_t q, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(q, text, NULL), SSCHED_OK);
}

/* Element-by-element enumeration, straight from the definition (seed 003
 * §2): element g is in block floor(g/x) on processor floor(g/x) mod P, and
 * in block floor(g/(Kx)) on processor floor(g/(Kx)) mod P afterwards. */
static void brute_pattern(size_t P, size_t K, unsigned long N, unsigned long x,
                          unsigned long *sizes)
{
    memset(sizes, 0, P * P * sizeof *sizes);
    for (unsigned long g = 0; g < N; g++)
        sizes[((g / x) % P) * P + (g / (K * x)) % P]++;
}

static void test_pattern_bruteforce(void)
{
    unsigned long a[64], b[64];
    int cases = 0;
    for (size_t P = 1; P <= 8; P++)
        for (size_t K = 1; K <= 9; K++)
            for (unsigned long x = 1; x <= 3; x++)
                for (unsigned long nb = 1; nb <= 2 * K * P + 3; nb += 1 + nb / 4) {
                    unsigned long N = nb * x;
                    CU_ASSERT_EQUAL_FATAL(ssched_redist_pattern(P, K, N, x, a, NULL), SSCHED_OK);
                    brute_pattern(P, K, N, x, b);
                    CU_ASSERT(memcmp(a, b, P * P * sizeof *a) == 0);
                    cases++;
                }
    CU_ASSERT(cases > 1000);
}

/* Seed 003 Fig. 1: R_2(3, 4) with N = 48.  Every processor sends to K = 3
 * processors and receives from 3 (one of them itself: a local copy). */
static void test_pattern_fig1(void)
{
    unsigned long s[16];
    CU_ASSERT_EQUAL_FATAL(ssched_redist_pattern(4, 3, 48, 2, s, NULL), SSCHED_OK);
    for (size_t i = 0; i < 4; i++) {
        int out = 0, in = 0;
        unsigned long total = 0;
        for (size_t j = 0; j < 4; j++) {
            out += s[i * 4 + j] > 0;
            in += s[j * 4 + i] > 0;
            total += s[i * 4 + j];
        }
        CU_ASSERT_EQUAL(out, 3);
        CU_ASSERT_EQUAL(in, 3);
        CU_ASSERT_EQUAL(total, 12); /* 6 blocks of 2 elements each */
    }
    /* P0 holds blocks 0,4,8,12,16,20 -> new blocks 0,1,2,4,5,6 -> P0,P1,P2,P0,P1,P2 */
    CU_ASSERT_EQUAL(s[0 * 4 + 0], 4);
    CU_ASSERT_EQUAL(s[0 * 4 + 1], 4);
    CU_ASSERT_EQUAL(s[0 * 4 + 2], 4);
    CU_ASSERT_EQUAL(s[0 * 4 + 3], 0);
}

static void test_pattern_rejects(void)
{
    unsigned long s[16];
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_redist_pattern(0, 3, 48, 2, s, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_redist_pattern(4, 0, 48, 2, s, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_redist_pattern(4, 3, 48, 0, s, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_redist_pattern(4, 3, 0, 2, s, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_redist_pattern(4, 3, 49, 2, s, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not a positive multiple of x"));
}

/* Build a random instance. */
static void make(ssched_redist_t *r, size_t P, size_t K, unsigned long N, unsigned long x,
                 const char *bmin, const char *bmax, uint64_t seed, const char *startup)
{
    mpq_t a, b, t;
    mpq_inits(a, b, t, NULL);
    q_set(a, bmin);
    q_set(b, bmax);
    q_set(t, startup);
    ssched_redist_init(r);
    CU_ASSERT_EQUAL_FATAL(ssched_redist_network_random(r, P, a, b, seed, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_redist_build(r, K, N, x, t, NULL), SSCHED_OK);
    mpq_clears(a, b, t, NULL);
}

/* Run all three algorithms; check what the theory guarantees. */
/* The checker's verdict on s: 1 valid, 0 invalid (rep, if not NULL, says
 * why), -1 if it could not check. */
static int redist_verdict(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                          ssched_check_report_t *rep)
{
    ssched_check_report_t own;
    ssched_error_t err;
    if (!rep)
        rep = &own;
    if (ssched_redist_check(r, s, rep, &err) != SSCHED_OK)
        return -1;
    return rep->valid;
}

static void run_all(const ssched_redist_t *r, mpq_t completion[3])
{
    mpq_t two_lb, bound;
    mpq_inits(two_lb, bound, NULL);
    mpq_add(two_lb, r->lower_bound, r->lower_bound);
    for (int a = 0; a < 3; a++) {
        ssched_redist_schedule_t s;
        ssched_error_t err;
        ssched_redist_schedule_init(&s);
        ssched_status_t st = ssched_redist_schedule(r, (ssched_redist_algorithm_t)a, &s, &err);
        CU_ASSERT_EQUAL(st, SSCHED_OK);
        if (st != SSCHED_OK) {
            fprintf(stderr, "%s\n", err.message);
            ssched_redist_schedule_free(&s);
            continue;
        }
        CU_ASSERT_EQUAL(redist_verdict(r, &s, NULL), 1);
        CU_ASSERT(mpq_cmp(s.completion, r->lower_bound) >= 0);
        if (a == SSCHED_REDIST_GREEDY) /* seed 003 Lemma: within twice optimal */
            CU_ASSERT(mpq_cmp(s.completion, two_lb) <= 0);
        if (a == SSCHED_REDIST_DIRECT) {
            CU_ASSERT(s.n_steps <= r->K);
            CU_ASSERT_EQUAL(s.n_split, 0);
        }
        if (a != SSCHED_REDIST_PREEMPTIVE)
            CU_ASSERT_EQUAL(s.n_transfers, r->n_messages);
        if (a == SSCHED_REDIST_PREEMPTIVE) {
            if (mpq_sgn(r->startup) == 0) {
                CU_ASSERT(mpq_equal(s.completion, r->lower_bound));
            } else {
                /* each step costs at most one extra start-up */
                mpq_set_ui(bound, s.n_steps, 1);
                mpq_mul(bound, bound, r->startup);
                mpq_add(bound, bound, r->lower_bound);
                CU_ASSERT(mpq_cmp(s.completion, bound) <= 0);
            }
        }
        if (completion)
            mpq_set(completion[a], s.completion);
        ssched_redist_schedule_free(&s);
    }
    mpq_clears(two_lb, bound, NULL);
}

static void test_algorithms_random(void)
{
    static const struct {
        size_t P, K;
        unsigned long N, x;
        const char *bmin, *bmax, *startup;
    } cases[] = {{1, 1, 10, 1, "1", "1", "0"},         {2, 1, 12, 2, "1", "5", "0"},
                 {4, 3, 48, 2, "10", "200", "0"},      {4, 3, 48, 2, "10", "200", "1/2"},
                 {5, 2, 100, 1, "1/3", "7/2", "0"},    {6, 5, 997, 1, "10", "20", "0"},
                 {8, 7, 1000, 5, "10", "200", "3"},    {8, 12, 960, 1, "2", "9", "0"},
                 {16, 9, 100000, 1, "10", "200", "0"}, {16, 15, 100000, 4, "10", "200", "1/10"},
                 {7, 3, 21, 1, "1", "2", "0"},         {3, 5, 45, 3, "0.5", "2.5", "2"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ssched_redist_t r;
            make(&r, cases[c].P, cases[c].K, cases[c].N, cases[c].x, cases[c].bmin, cases[c].bmax,
                 seed, cases[c].startup);
            run_all(&r, NULL);
            ssched_redist_free(&r);
        }
}

/* The greedy heuristic straight from its definition (seed 003 §4.3), with
 * the exact rational scans of the first implementation: the free sender of
 * least (sendavail, index) sends to its remaining receiver of least
 * (recvavail, index).  O(M·(P + K)) exact comparisons, fine for tests.  The
 * library keeps receivers ranked instead (src/redistribution/greedy.c); its
 * transfers must be these, in this order, with the same exact times. */
static void reference_greedy(const ssched_redist_t *r, const ssched_redist_schedule_t *s)
{
    size_t P = r->P, M = r->n_messages;
    mpq_t *sa = malloc(2 * P * sizeof *sa), *ra = sa + P, t, end;
    char *done = calloc(M ? M : 1, 1);
    mpq_inits(t, end, NULL);
    for (size_t p = 0; p < 2 * P; p++)
        mpq_init(sa[p]);
    CU_ASSERT_EQUAL_FATAL(s->n_transfers, M);
    for (size_t n = 0; n < M; n++) {
        size_t i = P, best = M;
        for (size_t p = 0; p < P; p++) { /* senders with something left */
            int left = 0;
            for (size_t e = 0; e < M && !left; e++)
                left = !done[e] && r->messages[e].src == p;
            if (left && (i == P || mpq_cmp(sa[p], sa[i]) < 0))
                i = p;
        }
        for (size_t e = 0; e < M; e++) {
            if (done[e] || r->messages[e].src != i)
                continue;
            size_t d = r->messages[e].dst;
            if (best == M || mpq_cmp(ra[d], ra[r->messages[best].dst]) < 0 ||
                (mpq_cmp(ra[d], ra[r->messages[best].dst]) == 0 && d < r->messages[best].dst))
                best = e;
        }
        const ssched_redist_message_t *m = &r->messages[best];
        mpq_set(t, mpq_cmp(sa[i], ra[m->dst]) >= 0 ? sa[i] : ra[m->dst]);
        mpq_add(end, t, m->cost);
        const ssched_redist_transfer_t *got = &s->transfers[n];
        CU_ASSERT_EQUAL(got->message, best);
        CU_ASSERT(mpq_equal(got->start, t));
        CU_ASSERT(mpq_equal(got->end, end));
        if (got->message != best)
            break;
        mpq_set(sa[i], end);
        mpq_set(ra[m->dst], end);
        done[best] = 1;
    }
    for (size_t p = 0; p < 2 * P; p++)
        mpq_clear(sa[p]);
    mpq_clears(t, end, NULL);
    free(sa);
    free(done);
}

/* Random instances, many with equal bandwidths (ties in both choices). */
static void test_greedy_reference(void)
{
    static const char *ranges[][2] = {{"1", "1"}, {"1", "2"}, {"10", "12"}, {"10", "200"},
                                      {"1/3", "7/2"}};
    static const char *startups[] = {"0", "1", "1/7"};
    uint64_t z = 12345;
    int cases = 0;
    for (int c = 0; c < 120; c++) {
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t P = 1 + (z >> 33) % 13, K = 1 + (z >> 20) % 17;
        size_t x = 1 + (z >> 45) % 3, N = x * (1 + (z >> 50) % (2 * K * P + 5));
        const char **bw = ranges[(z >> 10) % 5];
        ssched_redist_t r;
        make(&r, P, K, N, x, bw[0], bw[1], (uint64_t)c + 1, startups[(z >> 7) % 3]);
        ssched_redist_schedule_t s;
        ssched_redist_schedule_init(&s);
        CU_ASSERT_EQUAL_FATAL(ssched_redist_schedule(&r, SSCHED_REDIST_GREEDY, &s, NULL),
                              SSCHED_OK);
        reference_greedy(&r, &s);
        cases += r.n_messages > 1;
        ssched_redist_schedule_free(&s);
        ssched_redist_free(&r);
    }
    CU_ASSERT(cases > 80);
}

/* Homogeneous network, whole periods, no start-up: every message has the same
 * cost and the K-step direct schedule is optimal (why it is the classical
 * choice on homogeneous machines). */
static void test_direct_homogeneous(void)
{
    ssched_redist_t r;
    mpq_t c[3];
    mpq_inits(c[0], c[1], c[2], NULL);
    make(&r, 8, 3, 8 * 3 * 5 * 2, 5, "4", "4", 1, "0");
    run_all(&r, c);
    CU_ASSERT(mpq_equal(c[SSCHED_REDIST_DIRECT], r.lower_bound));
    CU_ASSERT(mpq_equal(c[SSCHED_REDIST_PREEMPTIVE], r.lower_bound));
    ssched_redist_free(&r);
    mpq_clears(c[0], c[1], c[2], NULL);
}

/* Same seed, same network; the draw stays on the documented grid. */
static void test_network_random(void)
{
    ssched_redist_t a, b;
    mpq_t lo, hi;
    mpq_inits(lo, hi, NULL);
    q_set(lo, "10");
    q_set(hi, "200");
    ssched_redist_init(&a);
    ssched_redist_init(&b);
    CU_ASSERT_EQUAL(ssched_redist_network_random(&a, 6, lo, hi, 7, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_redist_network_random(&b, 6, lo, hi, 7, NULL), SSCHED_OK);
    int distinct = 0;
    for (size_t i = 0; i < 36; i++) {
        CU_ASSERT(mpq_equal(a.bandwidth[i], b.bandwidth[i]));
        if (i % 7 == 0)
            continue; /* diagonal: unused */
        CU_ASSERT(mpq_cmp(a.bandwidth[i], lo) >= 0 && mpq_cmp(a.bandwidth[i], hi) <= 0);
        CU_ASSERT(mpz_cmp_ui(mpq_denref(a.bandwidth[i]), 1) == 0); /* integral grid */
        distinct += !mpq_equal(a.bandwidth[i], a.bandwidth[1]);
    }
    CU_ASSERT(distinct > 0);
    CU_ASSERT_EQUAL(ssched_redist_network_random(&b, 6, lo, hi, 8, NULL), SSCHED_OK);
    int differ = 0;
    for (size_t i = 0; i < 36; i++)
        differ += !mpq_equal(a.bandwidth[i], b.bandwidth[i]);
    CU_ASSERT(differ > 0);
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_redist_network_random(&b, 6, hi, lo, 8, &err), SSCHED_EINPUT);
    mpq_set_ui(lo, 0, 1);
    CU_ASSERT_EQUAL(ssched_redist_network_random(&b, 6, lo, hi, 8, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_redist_network_random(&b, 0, hi, hi, 8, &err), SSCHED_EINPUT);
    ssched_redist_free(&a);
    ssched_redist_free(&b);
    mpq_clears(lo, hi, NULL);
}

static ssched_status_t read_text(ssched_redist_t *r, size_t P, const char *text,
                                 ssched_error_t *err)
{
    const char *path = tu_tmp_path("bw.txt");
    CU_ASSERT_EQUAL(tu_write_file(path, text), 0);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ssched_status_t st = ssched_redist_network_read(r, P, f, "bw.txt", err);
    fclose(f);
    return st;
}

static void test_network_file(void)
{
    ssched_redist_t r;
    ssched_error_t err;
    ssched_redist_init(&r);
    CU_ASSERT_EQUAL(
        read_text(&r, 3, "# bandwidths\n0 1 2\n\n3 0 1/2  # row 2\n0.25 2.5e1 0\n", &err),
        SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(r.bandwidth[1 * 3 + 2], "1/2"));
    CU_ASSERT(tu_mpq_equals(r.bandwidth[2 * 3 + 0], "1/4"));
    CU_ASSERT(tu_mpq_equals(r.bandwidth[2 * 3 + 1], "25"));
    mpq_t t;
    mpq_init(t);
    CU_ASSERT_EQUAL(ssched_redist_build(&r, 2, 12, 1, t, NULL), SSCHED_OK);
    run_all(&r, NULL);
    mpq_clear(t);

    CU_ASSERT_EQUAL(read_text(&r, 3, "0 1 2\n3 0\n1 1 0\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:2: expected 3 numbers, found 2"));
    CU_ASSERT_EQUAL(read_text(&r, 3, "0 1 2\n3 0 1\n1 x 0\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:3: column 2"));
    CU_ASSERT_EQUAL(read_text(&r, 3, "0 1 2\n3 0 -1\n1 1 0\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:2: column 3: bandwidth -1 is not positive"));
    CU_ASSERT_EQUAL(read_text(&r, 3, "0 0 2\n3 0 1\n1 1 0\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:1: column 2"));
    CU_ASSERT_EQUAL(read_text(&r, 3, "0 1 2\n3 0 1\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "expected 3 rows, found 2"));
    CU_ASSERT_EQUAL(read_text(&r, 2, "0 1\n1 0\n1 1\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:3: more than P = 2 rows"));
    CU_ASSERT_EQUAL(read_text(&r, 2, "0 1 5\n1 0\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:1: more than P = 2 numbers"));
    CU_ASSERT_EQUAL(read_text(&r, 2, "0 1/0\n1 0\n", &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "bw.txt:1: column 2"));
    /* after a failure the instance is empty again */
    CU_ASSERT_EQUAL(r.P, 0);
    mpq_init(t);
    CU_ASSERT_EQUAL(ssched_redist_build(&r, 2, 12, 1, t, &err), SSCHED_EINPUT);
    mpq_set_si(t, -1, 1);
    CU_ASSERT_EQUAL(read_text(&r, 2, "0 1\n1 0\n", &err), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_redist_build(&r, 2, 12, 1, t, &err), SSCHED_EINPUT);
    mpq_clear(t);
    ssched_redist_free(&r);
}

/* The checker must catch each kind of broken schedule. */
static void test_check_rejects(void)
{
    ssched_redist_t r;
    ssched_redist_schedule_t s;
    ssched_error_t err;
    ssched_check_report_t rep;
    make(&r, 4, 3, 48, 2, "10", "200", 5, "0");
    ssched_redist_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_redist_schedule(&r, SSCHED_REDIST_GREEDY, &s, NULL), SSCHED_OK);
    CU_ASSERT_FATAL(s.send_start[1] - s.send_start[0] >= 2);
    ssched_redist_transfer_t *first = &s.transfers[s.send_list[s.send_start[0]]];
    ssched_redist_transfer_t *second = &s.transfers[s.send_list[s.send_start[0] + 1]];
    mpq_t keep_s, keep_e, d;
    mpq_inits(keep_s, keep_e, d, NULL);

    /* P0's second send moved onto its first: one-port violated */
    mpq_set(keep_s, second->start);
    mpq_set(keep_e, second->end);
    mpq_sub(d, second->end, second->start);
    mpq_set(second->start, first->start);
    mpq_add(second->end, first->start, d);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    mpq_set(second->start, keep_s);
    mpq_set(second->end, keep_e);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, NULL), 1);

    /* too short */
    mpq_set(first->end, first->start);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, "shorter"));
    mpq_add(first->end, first->start, r.messages[first->message].cost);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, NULL), 1);

    /* a message not fully delivered */
    mpq_set_ui(d, 1, 2);
    mpq_sub(first->amount, first->amount, d);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.violation, "not delivered exactly"));
    mpq_add(first->amount, first->amount, d);

    /* wrong completion */
    mpq_add(s.completion, s.completion, d);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    mpq_sub(s.completion, s.completion, d);

    /* negative start */
    mpq_set_si(keep_s, -1, 1);
    mpq_swap(first->start, keep_s);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    mpq_swap(first->start, keep_s);

    /* lists out of order */
    size_t t = s.send_list[s.send_start[0]];
    s.send_list[s.send_start[0]] = s.send_list[s.send_start[0] + 1];
    s.send_list[s.send_start[0] + 1] = t;
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    s.send_list[s.send_start[0] + 1] = s.send_list[s.send_start[0]];
    s.send_list[s.send_start[0]] = t;

    /* transfer of a non-existent message */
    size_t m = first->message;
    first->message = r.n_messages + 1;
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    first->message = m;
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, NULL), 1);

    /* a receive overlap: two transfers to the same receiver at once */
    size_t p = 0;
    while (s.recv_start[p + 1] - s.recv_start[p] < 2)
        p++;
    ssched_redist_transfer_t *ra = &s.transfers[s.recv_list[s.recv_start[p]]];
    ssched_redist_transfer_t *rb = &s.transfers[s.recv_list[s.recv_start[p] + 1]];
    mpq_set(keep_s, rb->start);
    mpq_set(rb->start, ra->start); /* rb now starts with ra and lasts longer */
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, &rep), 0);
    mpq_set(rb->start, keep_s);
    CU_ASSERT_EQUAL(redist_verdict(&r, &s, NULL), 1);

    /* a schedule for another platform cannot be checked */
    s.P++;
    CU_ASSERT_EQUAL(ssched_redist_check(&r, &s, &rep, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "processors"));
    s.P--;

    mpq_clears(keep_s, keep_e, d, NULL);
    ssched_redist_schedule_free(&s);
    ssched_redist_free(&r);
}

static void test_writers(void)
{
    ssched_redist_t r;
    ssched_redist_schedule_t s;
    make(&r, 4, 3, 48, 2, "10", "200", 5, "0");
    ssched_redist_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_redist_schedule(&r, SSCHED_REDIST_PREEMPTIVE, &s, NULL),
                          SSCHED_OK);
    const char *path = tu_tmp_path("sched.json");
    FILE *f = fopen(path, "w");
    CU_ASSERT_EQUAL(ssched_write_redist_json(f, &r, &s, NULL), SSCHED_OK);
    fclose(f);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    const char *c = json_string_value(json_object_get(root, "completion"));
    const char *lb = json_string_value(json_object_get(root, "lower_bound"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lb);
    CU_ASSERT(tu_mpq_equals(s.completion, c));
    CU_ASSERT_STRING_EQUAL(c, lb);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(root, "processors")), 4);
    json_decref(root);
    f = fopen(tu_tmp_path("sched.txt"), "w");
    CU_ASSERT_EQUAL(ssched_write_redist_text(f, &r, &s, NULL), SSCHED_OK);
    fclose(f);
    char *text = tu_read_file(tu_tmp_path("sched.txt"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "P3 receives:"));
    free(text);
    ssched_redist_schedule_free(&s);
    ssched_redist_free(&r);
}

/* --- CLI ---------------------------------------------------------------- */

static void expect_bad(const char *args)
{
    tu_run_t r;
    tu_run(&r, "redistribute %s", args);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    if (r.status != 2 || tu_count_lines(r.err) != 1)
        fprintf(stderr, "\n  args: %s\n  status %d, stderr: %s", args, r.status, r.err);
    tu_run_free(&r);
}

static void test_cli_ok(void)
{
    tu_run_t r;
    const char *algos[] = {"direct", "greedy", "preemptive"};
    for (int a = 0; a < 3; a++) {
        tu_run(&r,
               "redistribute --P 6 --K 4 --N 480 --x 2 --bw-min 10 --bw-max 200 --seed 3 "
               "--algorithm %s --json",
               algos[a]);
        CU_ASSERT_EQUAL(r.status, 0);
        json_error_t jerr;
        json_t *root = json_loads(r.out, 0, &jerr);
        CU_ASSERT_PTR_NOT_NULL(root);
        if (root) {
            const char *c = json_string_value(json_object_get(root, "completion"));
            const char *lb = json_string_value(json_object_get(root, "lower_bound"));
            CU_ASSERT_PTR_NOT_NULL(c);
            CU_ASSERT_PTR_NOT_NULL(lb);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "algorithm")), algos[a]);
            if (c && lb && a == 2)
                CU_ASSERT_STRING_EQUAL(c, lb);
            json_decref(root);
        }
        tu_run_free(&r);
    }
    tu_run(&r, "redistribute --P 4 --K 3 --N 48 --x 2 --bw-min 1 --bw-max 1 --algorithm direct");
    CU_ASSERT_EQUAL(r.status, 0);
    /* homogeneous, 4 elements per message at bandwidth 1, 2 network messages
     * per processor (the third destination is itself) */
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "lower bound: 8\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "completion:  8\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "P0 sends:"));
    tu_run_free(&r);

    const char *m = tu_tmp_path("m.txt");
    tu_write_file(m, "0 2 4\n1 0 1/2\n3 3 0\n");
    tu_run(&r, "redistribute --P 3 --K 2 --N 12 --matrix '%s' --startup 1/4 --algorithm greedy", m);
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
    tu_run(&r, "redistribute --help");
    CU_ASSERT_EQUAL(r.status, 0);
    tu_run_free(&r);
}

static void test_cli_bad(void)
{
    const char *base = "--bw-min 1 --bw-max 2 --algorithm greedy";
    char buf[512];
    expect_bad("--K 3 --N 48 --bw-min 1 --bw-max 2 --algorithm greedy"); /* no --P */
    snprintf(buf, sizeof buf, "--P 0 --K 3 --N 48 %s", base);
    expect_bad(buf);
    snprintf(buf, sizeof buf, "--P 4 --K 0 --N 48 %s", base);
    expect_bad(buf);
    snprintf(buf, sizeof buf, "--P 4 --K -2 --N 48 %s", base);
    expect_bad(buf);
    snprintf(buf, sizeof buf, "--P 4 --K 3 --N 49 --x 2 %s", base); /* N not covering */
    expect_bad(buf);
    snprintf(buf, sizeof buf, "--P 4 --K 3 --N 0 %s", base);
    expect_bad(buf);
    snprintf(buf, sizeof buf, "--P four --K 3 --N 48 %s", base);
    expect_bad(buf);
    expect_bad("--P 4 --K 3 --N 48 --bw-min 5 --bw-max 2 --algorithm greedy");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 0 --bw-max 2 --algorithm greedy");
    expect_bad("--P 4 --K 3 --N 48 --bw-min -1 --bw-max 2 --algorithm greedy");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1/0 --bw-max 2 --algorithm greedy");
    expect_bad("--P 4 --K 3 --N 48 --bw-max 2 --algorithm greedy");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1 --bw-max 2");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1 --bw-max 2 --algorithm fastest");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1 --bw-max 2 --algorithm greedy --startup -1");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1 --bw-max 2 --algorithm greedy --frobnicate");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1 --bw-max 2 --algorithm greedy extra");
    expect_bad("--P 4 --K 3 --N 48 --bw-min 1 --bw-max 2 --algorithm greedy --P");
    expect_bad("--P 2 --K 3 --N 48 --matrix /nonexistent/bw.txt --algorithm greedy");
    const char *m = tu_tmp_path("bad.txt");
    tu_write_file(m, "0 1\n1 oops\n");
    snprintf(buf, sizeof buf, "--P 2 --K 3 --N 48 --matrix '%s' --algorithm greedy", m);
    expect_bad(buf);
    tu_run_t r;
    tu_run(&r, "redistribute %s", buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "bad.txt:2: column 2"));
    tu_run_free(&r);
    tu_write_file(m, "0 1\n0 0\n");
    expect_bad(buf); /* non-positive bandwidth */
    tu_write_file(m, "0 1\n");
    expect_bad(buf); /* too few rows */
    snprintf(buf, sizeof buf, "--P 2 --K 3 --N 48 --matrix '%s' --seed 3 --algorithm greedy", m);
    expect_bad(buf); /* matrix and seed */
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"pattern = element enumeration", test_pattern_bruteforce},
        {"pattern of seed 003 Fig. 1", test_pattern_fig1},
        {"pattern rejects bad sizes", test_pattern_rejects},
        {"all algorithms on random instances", test_algorithms_random},
        {"greedy = its definition on random instances", test_greedy_reference},
        {"direct is optimal on homogeneous networks", test_direct_homogeneous},
        {"seeded bandwidths", test_network_random},
        {"bandwidth matrix files", test_network_file},
        {"checker rejects broken schedules", test_check_rejects},
        {"text and JSON writers", test_writers},
        {"CLI runs", test_cli_ok},
        {"CLI bad input", test_cli_bad},
        {NULL, NULL}};
    return tu_main("redistribution", tests);
}
