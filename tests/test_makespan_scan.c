/* The one-scan makespan (makespan.h "scan"): hand cases with proofs, the
 * exhaustive search against an independent brute force on 3 processors,
 * the checker against broken schedules, bad input and limits. */
#include <stdlib.h>
#include <string.h>

#include "mk_test_util.h"
#include "ssched/compare.h"
#include "ssched/makespan.h"
#include "test_util.h"

/* The optimum of c (search complete, schedule valid) equals `want`. */
static void expect_optimum(const char *times, int exclusive, const char *want)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, times);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_mk_stats_t stats;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_scan_optimal(&c, exclusive, NULL, &s, &stats, &err) == SSCHED_OK);
    CU_ASSERT(stats.complete == 1);
    CU_ASSERT(s.op == SSCHED_MK_SCAN && s.exclusive == exclusive);
    if (!tu_mpq_equals(s.makespan, want))
        gmp_fprintf(stderr, "scan %s (exclusive %d): makespan %Qd, expected %s\n", times,
                    exclusive, s.makespan, want);
    CU_ASSERT(tu_mpq_equals(s.makespan, want));
    assert_valid(&c, &s);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* Proofs of the lower bounds (the search finds schedules that meet them):
 *  - two processors "3,5": processor 1 needs v_0, which only processor 0
 *    holds, so a message of processor 0 (3) reaches it: 3 (both variants);
 *  - "chain" 1,1,1: processors 1 and 2 each need to receive at least one
 *    message; with three processors and one transfer per processor at a
 *    time, at most one transfer runs at once, so >= 2; the chain takes 2;
 *  - "star" 5,5,1 (a fast hub, processor 2): v_0 first leaves processor 0
 *    in a message of length 5, v_1 first leaves processor 1 in one of
 *    length 5 (processor 2 needs both, exclusive too); they are different
 *    messages and at most one transfer runs at a time: >= 10 = the chain;
 *  - 10,1,1: v_0 first leaves processor 0 at 10 at the earliest; then
 *    processors 1 and 2 both need it, and whoever gets it first still
 *    leaves the other one a message (>= 1) to receive: >= 11 = the chain;
 *  - one processor: nothing to do, 0. */
static void test_hand_cases(void)
{
    for (int x = 0; x < 2; x++) {
        expect_optimum("3,5", x, "3");
        expect_optimum("1,1,1", x, "2");
        expect_optimum("5,5,1", x, "10");
        expect_optimum("10,1,1", x, "11");
        expect_optimum("7", x, "0");
    }
    /* beating the chain (6): 1,2,3,4 in 5, a schedule the checker verifies
     * (optimality: the brute force below covers 3 processors only) */
    expect_optimum("1,2,3,4", 0, "5");
}

/* The chain: j-1 sends v[0,j-1] to j when it has it; valid both ways. */
static void test_chain(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,2,3/2,4");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_error_t err;
    for (int x = 0; x < 2; x++) {
        CU_ASSERT_FATAL(ssched_mk_scan_chain(&c, x, &s, &err) == SSCHED_OK);
        CU_ASSERT(s.count == 3 && tu_mpq_equals(s.makespan, "9/2"));
        CU_ASSERT(s.msg[2].sender == 2 && s.msg[2].receiver == 3 && s.msg[2].lo == 0 &&
                  s.msg[2].hi == 2 && tu_mpq_equals(s.msg[2].start, "3"));
        assert_valid(&c, &s);
    }
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* ---- brute force: every sequence of at most BF_LEN messages, each
 * started as soon as its sender and receiver are free, the sender holding
 * the interval from its own value and what it received before.  Any valid
 * schedule, its messages taken by start time, is no faster than this on its
 * own sequence; repeating (re-sorting by the new starts) reaches a sequence
 * whose starts do not decrease, and messages starting together are
 * independent (one port, positive times), so sequences are enumerated with
 * non-decreasing starts, ties in increasing (s, r, lo, hi).  A message
 * whose receiver can already form its interval is never needed.  Shares
 * nothing with the search but the model.  On 3 processors one transfer
 * runs at a time and the optimum is always t(0) + t(1): 4 processors are
 * where the search must find better than the chain. */

#define BF_MAX 4
#define BF_LEN 7

typedef struct {
    int n;
    long t[BF_MAX];
    int exclusive;
    int rs[BF_LEN], rlo[BF_LEN], rhi[BF_LEN]; /* received: receiver, interval */
    int len;
    long best;
} bf_t;

/* Can p form v[lo,hi] from its value and the first `len` messages? */
static int bf_has(const bf_t *b, int p, int lo, int hi)
{
    int have[BF_MAX + 1] = {0}; /* have[x]: v[lo,x-1] formed */
    have[lo] = 1;
    for (int x = lo; x <= hi; x++) {
        if (!have[x])
            continue;
        if (x == p)
            have[x + 1] = 1;
        for (int i = 0; i < b->len; i++)
            if (b->rs[i] == p && b->rlo[i] == x && b->rhi[i] <= hi)
                have[b->rhi[i] + 1] = 1;
    }
    return have[hi + 1];
}

static int bf_done(const bf_t *b)
{
    for (int p = 1; p < b->n; p++)
        if (!bf_has(b, p, 0, b->exclusive ? p - 1 : p))
            return 0;
    return 1;
}

/* prev: start and (s, r, lo, hi) code of the last message */
static void bf_rec(bf_t *b, const long *free_at, long last, long prev_start, int prev_code)
{
    if (last >= b->best)
        return;
    if (bf_done(b)) {
        b->best = last;
        return;
    }
    if (b->len == BF_LEN)
        return;
    int n = b->n;
    for (int s = 0; s < n; s++)
        for (int r = 0; r < n; r++)
            for (int lo = 0; lo < n && r != s; lo++)
                for (int hi = lo; hi < n; hi++) {
                    long start = free_at[s] > free_at[r] ? free_at[s] : free_at[r];
                    int code = ((s * n + r) * n + lo) * n + hi;
                    if (start < prev_start || (start == prev_start && code <= prev_code) ||
                        !bf_has(b, s, lo, hi) || bf_has(b, r, lo, hi))
                        continue;
                    long f[BF_MAX], end = start + b->t[s];
                    memcpy(f, free_at, sizeof f);
                    f[s] = f[r] = end;
                    b->rs[b->len] = r;
                    b->rlo[b->len] = lo;
                    b->rhi[b->len] = hi;
                    b->len++;
                    bf_rec(b, f, end > last ? end : last, start, code);
                    b->len--;
                }
}

static void brute_force(int n, int trials)
{
    char list[96];
    for (int trial = 0; trial < trials; trial++) {
        long num[BF_MAX], den[BF_MAX], D = 6;
        int len = 0;
        for (int p = 0; p < n; p++) {
            num[p] = 1 + (long)tu_pick(6);
            den[p] = trial % 3 ? 1 : 1 + (long)tu_pick(3);
            len += snprintf(list + len, sizeof list - (size_t)len, "%s%ld/%ld", p ? "," : "",
                            num[p], den[p]);
        }
        for (int x = 0; x < 2; x++) {
            bf_t b;
            memset(&b, 0, sizeof b);
            b.n = n;
            b.exclusive = x;
            for (int p = 0; p < n; p++)
                b.t[p] = num[p] * (D / den[p]); /* times x 6: integers */
            b.best = 1000000;
            long zero[BF_MAX] = {0};
            bf_rec(&b, zero, 0, -1, -1);
            ssched_mk_cluster_t c;
            make_cluster(&c, list);
            ssched_mk_schedule_t s;
            ssched_mk_schedule_init(&s);
            ssched_mk_stats_t stats;
            ssched_error_t err;
            CU_ASSERT_FATAL(ssched_mk_scan_optimal(&c, x, NULL, &s, &stats, &err) == SSCHED_OK);
            mpq_t want;
            mpq_init(want);
            mpq_set_si(want, b.best, (unsigned long)D);
            mpq_canonicalize(want);
            if (!mpq_equal(want, s.makespan))
                gmp_fprintf(stderr, "scan %s exclusive %d: search %Qd, brute force %Qd\n", list, x,
                            s.makespan, want);
            CU_ASSERT(mpq_equal(want, s.makespan));
            assert_valid(&c, &s);
            mpq_clear(want);
            ssched_mk_schedule_free(&s);
            ssched_mk_cluster_free(&c);
        }
    }
}

static void test_brute_force(void)
{
    brute_force(3, 30);
    brute_force(4, 8);
}

/* ---- the checker against broken schedules */

typedef struct {
    size_t s, r, lo, hi;
    const char *start, *end;
} smsg_spec_t;

static void build(ssched_mk_schedule_t *out, size_t n, int exclusive, const smsg_spec_t *m,
                  size_t count, const char *makespan)
{
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_schedule_alloc(out, SSCHED_MK_SCAN, n, 0, count, &err) == SSCHED_OK);
    out->exclusive = exclusive;
    for (size_t i = 0; i < count; i++) {
        out->msg[i].sender = m[i].s;
        out->msg[i].receiver = m[i].r;
        out->msg[i].lo = m[i].lo;
        out->msg[i].hi = m[i].hi;
        CU_ASSERT_FATAL(mpq_set_str(out->msg[i].start, m[i].start, 10) == 0);
        CU_ASSERT_FATAL(mpq_set_str(out->msg[i].end, m[i].end, 10) == 0);
    }
    CU_ASSERT_FATAL(mpq_set_str(out->makespan, makespan, 10) == 0);
}

static void expect(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s, const char *what)
{
    ssched_check_report_t rep;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_check(c, s, &rep, &err) == SSCHED_OK);
    if (!what) {
        if (!rep.valid)
            fprintf(stderr, "unexpected violation: %s\n", rep.violation);
        CU_ASSERT(rep.valid);
        return;
    }
    CU_ASSERT(!rep.valid);
    if (!rep.valid && !strstr(rep.violation, what))
        fprintf(stderr, "violation '%s' lacks '%s'\n", rep.violation, what);
    CU_ASSERT(!rep.valid && strstr(rep.violation, what) != NULL);
}

static void test_checker_mutations(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,2,3,4");
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    /* a valid schedule of makespan 5: 0 and 1 build v[0,1] while 3 gets
     * v_2; then 3 and 2 get v[0,1] (2 from 0, a copy of 1's result) */
    const smsg_spec_t good[] = {{0, 1, 0, 0, "0", "1"}, {2, 3, 2, 2, "0", "3"},
                                {1, 0, 0, 1, "1", "3"}, {1, 3, 0, 1, "3", "5"},
                                {0, 2, 0, 1, "3", "4"}};
    build(&s, 4, 0, good, 5, "5");
    expect(&c, &s, NULL);
    smsg_spec_t m[5];
    /* operands out of order: 2 holds v_2 only, not v[1,2] */
    memcpy(m, good, sizeof m);
    m[1].lo = 1;
    build(&s, 4, 0, m, 5, "5");
    expect(&c, &s, "cannot form it");
    /* a copy sent before it arrived: 0 sends v[0,1] at 3 - 1/2 < 3 */
    memcpy(m, good, sizeof m);
    m[4].start = "5/2";
    m[4].end = "7/2";
    build(&s, 4, 0, m, 5, "5");
    expect(&c, &s, "one-port violation");
    /* a partial result sent before it exists, no overlap: 0 never got v_1 */
    const smsg_spec_t early[] = {{0, 1, 0, 0, "0", "1"}, {0, 2, 0, 1, "1", "2"}};
    build(&s, 4, 0, early, 2, "2");
    expect(&c, &s, "data not ready: message 1 (0->2) sends v[0,1] at 1");
    /* a prefix missing: drop 1 -> 3 */
    const smsg_spec_t drop[] = {{0, 1, 0, 0, "0", "1"}, {2, 3, 2, 2, "0", "3"},
                                {1, 0, 0, 1, "1", "3"}, {0, 2, 0, 1, "3", "4"}};
    build(&s, 4, 0, drop, 4, "4");
    expect(&c, &s, "processor 3 never holds its prefix v[0,3]");
    /* read as exclusive it is still valid (3 holds v[0,1] and v_2) ... */
    build(&s, 4, 1, good, 5, "5");
    expect(&c, &s, NULL);
    /* ... but v[0,2] merged at 0 and sent to 2 is no v[0,1]: merges are
     * not undone (on "1,1,1": 2 and 1 send their values to 0) */
    {
        ssched_mk_cluster_t c3;
        make_cluster(&c3, "1,1,1");
        const smsg_spec_t g3[] = {{2, 0, 2, 2, "0", "1"}, {1, 0, 1, 1, "1", "2"},
                                  {0, 2, 0, 2, "2", "3"}, {0, 1, 0, 0, "3", "4"}};
        build(&s, 3, 0, g3, 4, "4");
        expect(&c3, &s, NULL);
        build(&s, 3, 1, g3, 4, "4");
        expect(&c3, &s, "processor 2 never holds its prefix v[0,1]");
        ssched_mk_cluster_free(&c3);
    }
    /* intervals out of range, backwards */
    memcpy(m, good, sizeof m);
    m[0].hi = 4;
    build(&s, 4, 0, m, 5, "5");
    expect(&c, &s, "is not within processors 0..3");
    memcpy(m, good, sizeof m);
    m[1].lo = 3;
    build(&s, 4, 0, m, 5, "5");
    expect(&c, &s, "v[3,2] is not within");
    /* wrong duration, wrong makespan */
    memcpy(m, good, sizeof m);
    m[3].end = "6";
    build(&s, 4, 0, m, 5, "6");
    expect(&c, &s, "lasts 3 but t(1) = 2");
    build(&s, 4, 0, good, 5, "6");
    expect(&c, &s, "makespan 6 but the last message ends at 5");
    /* no message at all */
    build(&s, 4, 0, good, 0, "0");
    expect(&c, &s, "processor 1 never holds its prefix v[0,1]");
    /* inequality (1) is for reduces */
    ssched_check_report_t rep;
    ssched_error_t err;
    build(&s, 4, 0, good, 5, "5");
    CU_ASSERT(ssched_mk_check_inequality1(&c, &s, &rep, &err) == SSCHED_EINPUT);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

/* ---- limits and bad input */

static void test_limits(void)
{
    ssched_mk_cluster_t c;
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_mk_stats_t stats;
    ssched_error_t err;
    make_cluster(&c, "1,1,1,1,1,1,1");
    CU_ASSERT(ssched_mk_scan_optimal(&c, 0, NULL, &s, &stats, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "at most 6 processors, not 7") != NULL);
    ssched_mk_cluster_free(&c);
    /* a node budget: the best found so far (the chain at worst), valid,
     * and EUNCERTIFIED with complete = 0 */
    make_cluster(&c, "5,4,3,2,1");
    ssched_mk_limits_t lim = {1000, NULL, NULL};
    CU_ASSERT(ssched_mk_scan_optimal(&c, 0, &lim, &s, &stats, &err) == SSCHED_EUNCERTIFIED);
    CU_ASSERT(stats.complete == 0 && stats.nodes == 1000);
    assert_valid(&c, &s);
    ssched_mk_cluster_free(&c);
    /* times whose common denominator does not fit */
    make_cluster(&c, "1/1000000007,1/1000000009,1/998244353");
    CU_ASSERT(ssched_mk_scan_optimal(&c, 0, NULL, &s, &stats, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "do not fit") != NULL);
    ssched_mk_cluster_free(&c);
    ssched_mk_schedule_free(&s);
}

/* exit 2 and one line on stderr naming the problem */
static void expect_bad(const char *args, const char *what)
{
    tu_run_t r;
    tu_run(&r, "makespan %s", args);
    CU_ASSERT(r.status == 2);
    CU_ASSERT(tu_count_lines(r.err) == 1);
    if (!strstr(r.err, what))
        fprintf(stderr, "ssched makespan %s: '%s' lacks '%s'\n", args, r.err, what);
    CU_ASSERT(strstr(r.err, what) != NULL);
    CU_ASSERT(r.out[0] == '\0');
    tu_run_free(&r);
}

static void test_cli(void)
{
    tu_run_t r;
    CU_ASSERT(tu_run(&r, "makespan --problem scan --times 1,2,3,4 --algorithm optimal") == 0);
    CU_ASSERT(strstr(r.out, "makespan: 5 (5)") != NULL);
    CU_ASSERT(strstr(r.out, "v[0,1]") != NULL);
    tu_run_free(&r);
    CU_ASSERT(tu_run(&r, "makespan scan --times 1,2,3,4 --algorithm chain --exclusive --json") == 0);
    CU_ASSERT(strstr(r.out, "\"exclusive\": true") != NULL);
    CU_ASSERT(strstr(r.out, "\"makespan\": \"6\"") != NULL);
    tu_run_free(&r);
    expect_bad("scan --times 1,x --algorithm optimal", "element 2");
    expect_bad("scan --times 1,1 --algorithm snf", "'snf' is not valid for scan");
    expect_bad("scan --times 1,1 --algorithm optimal --root 0", "a scan has no root");
    expect_bad("reduce --times 1,1 --root 0 --algorithm optimal --exclusive",
               "--exclusive: applies to scan only");
    expect_bad("scan --times 1,1,1,1,1,1,1 --algorithm optimal", "at most 6 processors, not 7");
    expect_bad("scan --times 5,4,3,2,1 --algorithm optimal --max-work 300000",
               "stopped after 2000 nodes");
    expect_bad("--problem sum --times 1,1 --algorithm optimal", "unknown operation 'sum'");
}

/* compare --operation scan: the one-scan optimum next to M / UB, a lower
 * bound on M pipelined scans (no schedule yet): rows are exact, the bound
 * certified (UB >= the achievable TP once there is one), no crossover. */
static void test_compare(void)
{
    ssched_mk_cluster_t c;
    make_cluster(&c, "1,2,3,4");
    static const size_t ops[] = {1, 10, 1000};
    ssched_compare_options_t o;
    ssched_compare_options_default(&o);
    o.op = SSCHED_MK_SCAN;
    o.optimal = 1;
    o.ops = ops;
    o.n_ops = 3;
    ssched_compare_t r;
    ssched_compare_init(&r);
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_compare_run(&c, &o, &r, &err) == SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(r.one_shot, "5"));
    CU_ASSERT(r.pipelined_is_bound == 1 && r.crossover_found == 0 && r.n_rows == 3);
    CU_ASSERT(mpq_sgn(r.upper_bound) > 0 && mpq_cmp(r.throughput, r.upper_bound) <= 0);
    /* processor 2 must send v_2 (processor 3 needs it) in t(2) = 3 per
     * scan, so UB <= 1/3 */
    CU_ASSERT(mpq_cmp_ui(r.upper_bound, 1, 3) <= 0);
    mpq_t q;
    mpq_init(q);
    for (size_t k = 0; k < r.n_rows; k++) {
        mpq_mul(q, r.pipelined[k], r.upper_bound);
        CU_ASSERT(mpq_cmp_ui(q, ops[k], 1) == 0);
        mpq_set_ui(q, ops[k] * 5, 1);
        CU_ASSERT(mpq_equal(q, r.sequential[k]));
    }
    mpq_inv(q, r.upper_bound);
    CU_ASSERT(r.pipelining_can_win == (mpq_cmp(q, r.one_shot) < 0));
    mpq_clear(q);
    ssched_compare_free(&r);
    ssched_mk_cluster_free(&c);

    tu_run_t t;
    CU_ASSERT(tu_run(&t, "compare --times 1,2,3,4 --operation scan --ops 1,1000") == 0);
    CU_ASSERT(strstr(t.out, "one scan (optimal, exhaustive search): makespan 5 (5)") != NULL);
    CU_ASSERT(strstr(t.out, "K/UB is a lower bound on the time of K pipelined scans") != NULL);
    tu_run_free(&t);
    CU_ASSERT(tu_run(&t, "compare --times 1,1,1 --operation scan --exclusive --algorithm chain "
                         "--json --ops 5") == 0);
    CU_ASSERT(strstr(t.out, "\"pipelined\": \"lower_bound\"") != NULL);
    CU_ASSERT(strstr(t.out, "\"makespan\": \"2\"") != NULL);
    tu_run_free(&t);
    CU_ASSERT(tu_run(&t, "compare --times 1,1,1 --operation scan --root 0") == 2);
    CU_ASSERT(strstr(t.err, "a scan has no root") != NULL && tu_count_lines(t.err) == 1);
    tu_run_free(&t);
    CU_ASSERT(tu_run(&t, "compare --times 1,1,1,1,1,1,1 --operation scan") == 2);
    CU_ASSERT(strstr(t.err, "at most 6 processors, not 7") != NULL && tu_count_lines(t.err) == 1);
    tu_run_free(&t);
    CU_ASSERT(tu_run(&t, "compare --times 1,1 --operation reduce --root 0 --exclusive") == 2);
    CU_ASSERT(strstr(t.err, "--exclusive: applies to --operation scan only") != NULL);
    tu_run_free(&t);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"hand cases with proofs", test_hand_cases},
        {"the chain", test_chain},
        {"brute force on 3 and 4 processors", test_brute_force},
        {"checker mutations", test_checker_mutations},
        {"limits", test_limits},
        {"command line", test_cli},
        {"compare --operation scan", test_compare},
        {NULL, NULL}};
    return tu_main("makespan scan", tests);
}
