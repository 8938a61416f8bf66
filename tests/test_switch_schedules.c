/* Schedules on platforms with switches (issue 12, item 3): routers marked
 * multiport (p.multiport[i] = 1) have no port rule, each of their links is
 * its own resource.  Periodic and unrolled schedules of scatters, gossips and
 * reduces on tiers-small with every router a switch pass the independent
 * checker; the switch schedule of a steady solution is never longer than
 * the one-port one; hand-made files show that the checker enforces one-port
 * at hosts and per-link exclusivity at switches, from the file's own model. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#define TIERS SSCHED_SOURCE_DIR "/examples/tiers-small.graphml"

static void load(ssched_platform_t *p)
{
    ssched_platform_init(p);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(p, TIERS, NULL), SSCHED_OK);
}

/* every node without w (a router) becomes a switch */
static void set_switches(ssched_platform_t *p, int on)
{
    for (size_t i = 0; i < p->n_nodes; i++)
        p->multiport[i] = (unsigned char)(on && !p->has_w[i]);
}

/* Hosts (nodes with w), comma-separated: at most n, skipping the first
 * `skip`. */
static void hosts(const ssched_platform_t *p, size_t skip, size_t n, char *out, size_t cap)
{
    out[0] = 0;
    size_t seen = 0, got = 0;
    for (size_t i = 0; i < p->n_nodes && got < n; i++) {
        if (!p->has_w[i] || seen++ < skip)
            continue;
        if (got++)
            strncat(out, ",", cap - strlen(out) - 1);
        strncat(out, p->names[i], cap - strlen(out) - 1);
    }
}

static void expect_valid(const char *text, const char *what)
{
    char why[512];
    int v = tu_check_text(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  %s: %s\n", what, why);
    CU_ASSERT_EQUAL(v, 1);
}

/* kind 0 scatter h0_0_0_0 -> every other host, 1 gossip 3 x 3 hosts,
 * 2 reduce of 4 hosts to the first */
static void make_problem(const ssched_platform_t *p, int kind, ssched_problem_t *pb)
{
    char a[1024], b[1024];
    ssched_problem_init(pb);
    ssched_status_t rc;
    if (kind == 0) {
        hosts(p, 1, 100, b, sizeof b);
        rc = ssched_problem_set_scatter(pb, p, "h0_0_0_0", b, NULL);
    } else if (kind == 1) {
        hosts(p, 0, 3, a, sizeof a);
        hosts(p, 6, 3, b, sizeof b);
        rc = ssched_problem_set_gossip(pb, p, a, b, NULL);
    } else {
        hosts(p, 3, 4, a, sizeof a);
        rc = ssched_problem_set_reduce(pb, p, a, "h0_0_0_0", NULL);
    }
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
}

static void solve(const ssched_platform_t *p, const ssched_problem_t *pb, ssched_steady_t *st)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_steady_init(st);
    ssched_status_t rc = ssched_steady_solve(p, pb, NULL, st, &err);
    if (rc != SSCHED_OK)
        fprintf(stderr, "\n  solve: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
    CU_ASSERT_FATAL(mpq_sgn(st->throughput) > 0);
}

/* Build (and check) a periodic schedule; returns the status. */
static ssched_status_t build(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const ssched_steady_t *st, int no_split, mpq_srcptr fixed,
                             ssched_schedule_t *s, const char *what)
{
    ssched_schedule_options_t opt;
    ssched_schedule_options_default(&opt);
    opt.no_split = no_split;
    opt.fixed_period = fixed;
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_schedule_init(s);
    ssched_status_t rc = ssched_schedule_build(p, pb, st, &opt, s, &err);
    if (rc != SSCHED_OK) {
        fprintf(stderr, "\n  %s: build: %s\n", what, err.message);
        return rc;
    }
    char *text = tu_schedule_json(p, pb, s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    expect_valid(text, what);
    /* switches, and only they, carry "ports": "multi" */
    size_t n_multi = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        n_multi += p->multiport[i] != 0;
    const char *x = text;
    size_t found = 0;
    while ((x = strstr(x, "\"multi\"")) != NULL) {
        found++;
        x++;
    }
    CU_ASSERT_EQUAL(found, n_multi);
    CU_ASSERT_PTR_NULL(strstr(text, "\"one\""));
    free(text);
    return rc;
}

/* the end of the last slot: the busy part of the period */
static void busy_end(const ssched_schedule_t *s, mpq_t out)
{
    mpq_set_ui(out, 0, 1);
    if (s->n_slots)
        mpq_set(out, s->slots[s->n_slots - 1].end);
}

/* Periodic schedules, split and whole, one-port and switch solutions. */
static void test_periodic(void)
{
    ssched_platform_t p;
    load(&p);
    for (int kind = 0; kind < 3; kind++) {
        ssched_problem_t pb;
        make_problem(&p, kind, &pb);
        /* the one-port solution, scheduled one-port and with switches */
        ssched_steady_t st1;
        set_switches(&p, 0);
        solve(&p, &pb, &st1);
        for (int no_split = 0; no_split < 2; no_split++) {
            ssched_schedule_t s1, s2;
            set_switches(&p, 0);
            ssched_status_t r1 = build(&p, &pb, &st1, no_split, NULL, &s1, "one-port");
            set_switches(&p, 1);
            ssched_status_t r2 = build(&p, &pb, &st1, no_split, NULL, &s2, "switch");
            CU_ASSERT_EQUAL(r1, SSCHED_OK);
            CU_ASSERT_EQUAL(r2, SSCHED_OK);
            if (r1 == SSCHED_OK && r2 == SSCHED_OK) {
                /* same solution: the switch period is never longer, nor is
                 * the time its slots use */
                mpq_t e1, e2;
                mpq_inits(e1, e2, NULL);
                busy_end(&s1, e1);
                busy_end(&s2, e2);
                if (getenv("SSCHED_TEST_VERBOSE"))
                    gmp_fprintf(stderr, "\n  kind %d no_split %d: period %Qd / %Qd, busy %Qd / %Qd",
                                kind, no_split, s1.period, s2.period, e1, e2);
                CU_ASSERT(mpq_cmp(s2.period, s1.period) <= 0);
                CU_ASSERT(mpq_cmp(e2, e1) <= 0);
                CU_ASSERT(s2.n_slots <= s1.n_slots || mpq_cmp(e2, e1) <= 0);
                mpq_clears(e1, e2, NULL);
            }
            ssched_schedule_free(&s1);
            ssched_schedule_free(&s2);
        }
        /* the solution of the switch model (whatever the LP does with it) */
        set_switches(&p, 1);
        ssched_steady_t st2;
        solve(&p, &pb, &st2);
        CU_ASSERT(mpq_cmp(st2.throughput, st1.throughput) >= 0);
        for (int no_split = 0; no_split < 2; no_split++) {
            ssched_schedule_t s;
            CU_ASSERT_EQUAL(build(&p, &pb, &st2, no_split, NULL, &s, "switch LP"), SSCHED_OK);
            ssched_schedule_free(&s);
        }
        if (kind == 2) {
            /* fixed periods: the greedy fill counts loads per link at switches */
            static const char *const tfs[] = {"10", "37/2", "100"};
            for (size_t k = 0; k < sizeof tfs / sizeof *tfs; k++) {
                mpq_t tf;
                mpq_init(tf);
                mpq_set_str(tf, tfs[k], 10);
                mpq_canonicalize(tf);
                /* each solution on its own model: the one-port optimum is
                 * not the optimum of the switch platform, and a fixed-period
                 * file states its optimum (the greedy fill may beat it) */
                for (int which = 0; which < 2; which++) {
                    ssched_schedule_t s;
                    set_switches(&p, which);
                    ssched_status_t rc = build(&p, &pb, which ? &st2 : &st1, 0, tf, &s,
                                               "fixed period");
                    CU_ASSERT(rc == SSCHED_OK || rc == SSCHED_EINPUT);
                    ssched_schedule_free(&s);
                }
                mpq_clear(tf);
            }
        }
        ssched_steady_free(&st1);
        ssched_steady_free(&st2);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
}

/* The measurement of the report: scatter h0_0_0_0 -> every other host. */
static void test_scatter_period_figures(void)
{
    ssched_platform_t p;
    load(&p);
    ssched_problem_t pb;
    make_problem(&p, 0, &pb);
    ssched_steady_t st1, st2;
    set_switches(&p, 0);
    solve(&p, &pb, &st1);
    ssched_schedule_t s1, s2, s3;
    CU_ASSERT_EQUAL(build(&p, &pb, &st1, 0, NULL, &s1, "one-port"), SSCHED_OK);
    set_switches(&p, 1);
    CU_ASSERT_EQUAL(build(&p, &pb, &st1, 0, NULL, &s2, "switch, one-port LP"), SSCHED_OK);
    solve(&p, &pb, &st2);
    CU_ASSERT_EQUAL(build(&p, &pb, &st2, 0, NULL, &s3, "switch LP"), SSCHED_OK);
    /* the Gantt chart draws a switch's links as rows of their own */
    const char *svg = tu_tmp_path("switch-gantt.svg");
    FILE *f = fopen(svg, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(ssched_write_schedule_gantt(f, &p, &s3, NULL), SSCHED_OK);
    fclose(f);
    char *g = tu_read_file(svg);
    CU_ASSERT_PTR_NOT_NULL(g && strstr(g, " link</text>"));
    free(g);
    if (getenv("SSCHED_TEST_VERBOSE")) {
        mpq_t e;
        mpq_init(e);
        const ssched_schedule_t *all[3] = {&s1, &s2, &s3};
        const char *names[3] = {"one-port", "switch schedule of the one-port LP",
                                "switch LP"};
        for (int k = 0; k < 3; k++) {
            busy_end(all[k], e);
            gmp_fprintf(stderr, "\n  %s: TP %Qd period %Qd ops %Zd slots %zu busy %Qd",
                        names[k], all[k]->throughput, all[k]->period, all[k]->ops_per_period,
                        all[k]->n_slots, e);
        }
        mpq_clear(e);
    }
    ssched_schedule_free(&s1);
    ssched_schedule_free(&s2);
    ssched_schedule_free(&s3);
    ssched_steady_free(&st1);
    ssched_steady_free(&st2);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Unrolled schedules, K = 1, 10, 100, pieces and whole messages. */
static void test_unrolled(void)
{
    static const unsigned long Ks[] = {1, 10, 100};
    ssched_platform_t p;
    load(&p);
    for (int kind = 0; kind < 3; kind++) {
        ssched_problem_t pb;
        make_problem(&p, kind, &pb);
        ssched_steady_t best;
        set_switches(&p, 1);
        solve(&p, &pb, &best);
        for (int lp = 0; lp < 2; lp++) {
            ssched_steady_t st;
            set_switches(&p, lp);
            solve(&p, &pb, &st);
            set_switches(&p, 1);
            /* an unrolled file states the optimum TP and that K / TP is a
             * lower bound: the one-port solution serves only where it is
             * also optimal with switches */
            if (!mpq_equal(st.throughput, best.throughput)) {
                CU_ASSERT(mpq_cmp(st.throughput, best.throughput) < 0);
                ssched_steady_free(&st);
                continue;
            }
            for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++)
                for (int whole = 0; whole < 2; whole++) {
                    ssched_error_t err;
                    ssched_error_clear(&err);
                    ssched_schedule_t s;
                    ssched_schedule_init(&s);
                    ssched_status_t rc = ssched_unroll_plan(&p, &pb, &st, Ks[k], NULL, whole,
                                                            &s, &err);
                    if (rc != SSCHED_OK)
                        fprintf(stderr, "\n  plan kind %d K=%lu: %s\n", kind, Ks[k],
                                err.message);
                    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
                    ssched_unrolled_t u;
                    ssched_unrolled_init(&u);
                    rc = ssched_unroll(&p, &pb, &s, Ks[k], &u, &err);
                    if (rc != SSCHED_OK)
                        fprintf(stderr, "\n  unroll kind %d K=%lu: %s\n", kind, Ks[k],
                                err.message);
                    CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
                    char *text = tu_unrolled_json(&p, &pb, &s, &u);
                    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
                    char what[96];
                    snprintf(what, sizeof what, "unrolled kind %d lp %d K=%lu whole %d", kind, lp,
                             Ks[k], whole);
                    expect_valid(text, what);
                    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"multi\""));
                    /* the streamed form agrees */
                    ssched_unroll_figures_t fig;
                    ssched_unroll_figures_init(&fig);
                    tu_stream_checked(&p, &pb, &s, Ks[k], "switch-unrolled.json", &fig, what);
                    CU_ASSERT(mpq_equal(fig.makespan, u.fig.makespan));
                    ssched_unroll_figures_free(&fig);
                    free(text);
                    ssched_unrolled_free(&u);
                    ssched_schedule_free(&s);
                }
            ssched_steady_free(&st);
        }
        ssched_steady_free(&best);
        ssched_problem_free(&pb);
    }
    ssched_platform_free(&p);
}

/* ---------------------------------------------------------------------- */
/* Hand-made files: host a, switches s1 and s2, hosts b and c; a scatter
 * a -> {b, c} over a->s1->s2->{b,c} (a->s2 also exists). */

static const char *node_json(const char *id, int host, const char *ports)
{
    static char buf[8][128];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 128, "{\"id\": \"%s\", \"w\": %s%s%s%s}", id, host ? "\"1\"" : "null",
             ports ? ", \"ports\": \"" : "", ports ? ports : "", ports ? "\"" : "");
    return b;
}

/* platform JSON; ports_X = NULL (no key), "one" or "multi" */
static void platform_json(char *out, size_t cap, const char *pa, const char *ps1,
                          const char *ps2, const char *pb, const char *pr)
{
    snprintf(out, cap,
             "\"platform\": {\"nodes\": [%s, %s, %s, %s, %s, %s], \"edges\": ["
             "{\"from\": \"a\", \"to\": \"s1\", \"c\": \"1\"},"
             "{\"from\": \"a\", \"to\": \"s2\", \"c\": \"1\"},"
             "{\"from\": \"s1\", \"to\": \"s2\", \"c\": \"1\"},"
             "{\"from\": \"s2\", \"to\": \"b\", \"c\": \"1\"},"
             "{\"from\": \"s2\", \"to\": \"c\", \"c\": \"1\"},"
             "{\"from\": \"s1\", \"to\": \"r\", \"c\": \"1\"},"
             "{\"from\": \"r\", \"to\": \"b\", \"c\": \"1\"},"
             "{\"from\": \"r\", \"to\": \"c\", \"c\": \"1\"}]}",
             node_json("a", 1, pa), node_json("s1", 0, ps1), node_json("s2", 0, ps2),
             node_json("b", 1, pb), node_json("c", 1, NULL), node_json("r", 1, pr));
}

static const char *PROBLEM =
    "\"problem\": {\"kind\": \"scatter\", \"source\": \"a\", \"targets\": [\"b\", \"c\"], "
    "\"size\": \"1\"}";

/* An unrolled file (format /1: no figures needed) with the given events;
 * its throughput is the certified optimum (a's out-port: 2 messages per
 * operation), which the checker verifies by solving the problem again. */
static char *unrolled(const char *platform, const char *events)
{
    size_t cap = strlen(platform) + strlen(events) + 1024;
    char *t = malloc(cap);
    snprintf(t, cap,
             "{\"format\": \"ssched-unrolled/1\", %s, %s, \"throughput\": \"1/2\", "
             "\"operations\": 1, \"transfers\": [%s]}",
             PROBLEM, platform, events);
    return t;
}

#define EV(s, e, f, t, d) \
    "{\"start\": \"" s "\", \"end\": \"" e "\", \"from\": \"" f "\", \"to\": \"" t \
    "\", \"origin\": \"a\", \"dest\": \"" d "\", \"op\": 0}"

static void expect(const char *text, int valid, const char *needle)
{
    char why[512];
    int v = tu_check_text(text, why, sizeof why);
    if (v != valid || (needle && !strstr(why, needle)))
        fprintf(stderr, "\n  expected %d (%s), got %d: %s\n", valid, needle ? needle : "",
                v, why);
    CU_ASSERT_EQUAL(v, valid);
    if (needle)
        CU_ASSERT_PTR_NOT_NULL(strstr(why, needle));
}

static void test_hand_unrolled(void)
{
    char pl[4096], pl_one[4096], pl_hostmulti[4096];
    platform_json(pl, sizeof pl, NULL, "multi", "multi", NULL, NULL);
    platform_json(pl_one, sizeof pl_one, "one", NULL, "one", NULL, NULL);
    /* s2 sends to b and c at once: fine for a switch, not for a one-port
     * router */
    const char *par = EV("0", "1", "a", "s1", "b") "," EV("1", "2", "a", "s1", "c") ","
                      EV("1", "2", "s1", "s2", "b") "," EV("2", "3", "s1", "s2", "c") ","
                      EV("3", "4", "s2", "b", "b") "," EV("3", "4", "s2", "c", "c");
    char *t = unrolled(pl, par);
    expect(t, 1, NULL);
    free(t);
    t = unrolled(pl_one, par);
    expect(t, 0, "s2 sends two messages at once");
    free(t);
    /* two transfers at once on the switch-to-switch link s1->s2 */
    const char *link = EV("0", "1", "a", "s1", "b") "," EV("1", "2", "a", "s1", "c") ","
                       EV("2", "3", "s1", "s2", "b") "," EV("5/2", "7/2", "s1", "s2", "c") ","
                       EV("3", "4", "s2", "b", "b") "," EV("4", "5", "s2", "c", "c");
    t = unrolled(pl, link);
    expect(t, 0, "link s1->s2 carries two messages at once");
    free(t);
    /* host a sends on two links at once, both to switches */
    const char *host = EV("0", "1", "a", "s1", "b") "," EV("1/2", "3/2", "a", "s2", "c") ","
                       EV("1", "2", "s1", "s2", "b") "," EV("2", "3", "s2", "b", "b") ","
                       EV("3", "4", "s2", "c", "c");
    t = unrolled(pl, host);
    expect(t, 0, "node a sends two messages at once");
    free(t);
    /* the file's model, used consistently: relay host r marked "multi"
     * may send to b and c at once; the same events with r one-port are
     * rejected at r */
    const char *relay = EV("0", "1", "a", "s1", "b") "," EV("1", "2", "a", "s1", "c") ","
                        EV("1", "2", "s1", "r", "b") "," EV("2", "3", "s1", "r", "c") ","
                        EV("3", "4", "r", "b", "b") "," EV("3", "4", "r", "c", "c");
    platform_json(pl_hostmulti, sizeof pl_hostmulti, NULL, "multi", "multi", NULL, "multi");
    t = unrolled(pl_hostmulti, relay);
    expect(t, 1, NULL);
    free(t);
    t = unrolled(pl, relay);
    expect(t, 0, "node r sends two messages at once");
    free(t);
    /* a host marked "multi" that is a target: the model forbids it */
    platform_json(pl_hostmulti, sizeof pl_hostmulti, NULL, "multi", "multi", "multi", NULL);
    t = unrolled(pl_hostmulti, par);
    expect(t, -1, NULL);
    free(t);
    /* a bad "ports" value */
    platform_json(pl_hostmulti, sizeof pl_hostmulti, NULL, "many", "multi", NULL, NULL);
    t = unrolled(pl_hostmulti, par);
    expect(t, -1, NULL);
    free(t);
}

/* A periodic file (period 4, one operation) with the given slots. */
static char *periodic(const char *platform, const char *slots)
{
    size_t cap = strlen(platform) + strlen(slots) + 1024;
    char *t = malloc(cap);
    snprintf(t, cap,
             "{\"format\": \"ssched-schedule/1\", %s, %s, \"throughput\": \"1/4\", "
             "\"period\": \"4\", \"operations_per_period\": \"1\", \"split\": true, "
             "\"slots\": [%s]}",
             PROBLEM, platform, slots);
    return t;
}

#define TR(f, t, d, amt) \
    "{\"from\": \"" f "\", \"to\": \"" t "\", \"origin\": \"a\", \"dest\": \"" d \
    "\", \"amount\": \"" amt "\"}"
#define SLOT(s, e, trs) "{\"start\": \"" s "\", \"end\": \"" e "\", \"transfers\": [" trs "]}"

static void test_hand_periodic(void)
{
    char pl[4096], pl_old[4096];
    platform_json(pl, sizeof pl, NULL, "multi", "multi", NULL, NULL);
    platform_json(pl_old, sizeof pl_old, NULL, NULL, NULL, NULL, NULL);
    /* s2 sends to b and c in the same slot */
    const char *ok = SLOT("0", "1", TR("a", "s1", "b", "1")) ","
                     SLOT("1", "2", TR("a", "s1", "c", "1") "," TR("s1", "s2", "b", "1")) ","
                     SLOT("2", "3", TR("s1", "s2", "c", "1")) ","
                     SLOT("3", "4", TR("s2", "b", "b", "1") "," TR("s2", "c", "c", "1"));
    char *t = periodic(pl, ok);
    expect(t, 1, NULL);
    free(t);
    t = periodic(pl_old, ok);
    expect(t, 0, "s2 sends to both");
    free(t);
    /* a switch link busy longer than its slot */
    const char *busy = SLOT("0", "2", TR("a", "s1", "b", "1") "," TR("s1", "s2", "c", "1")) ","
                       SLOT("2", "3", TR("a", "s1", "c", "1") "," TR("s1", "s2", "b", "1") ","
                                      TR("s1", "s2", "c", "1")) ","
                       SLOT("3", "4", TR("s2", "b", "b", "1") "," TR("s2", "c", "c", "1"));
    t = periodic(pl, busy);
    expect(t, 0, "busy longer than the slot");
    free(t);
    /* host a sends to two switches in one slot */
    const char *host = SLOT("0", "1", TR("a", "s1", "b", "1") "," TR("a", "s2", "c", "1")) ","
                       SLOT("1", "2", TR("s1", "s2", "b", "1")) ","
                       SLOT("3", "4", TR("s2", "b", "b", "1") "," TR("s2", "c", "c", "1"));
    t = periodic(pl, host);
    expect(t, 0, "node a sends to both");
    free(t);
    /* host b receives from two nodes in one slot (one of them a switch,
     * the other a host marked "multi") */
    const char *recv = SLOT("0", "1", TR("a", "s1", "b", "1")) ","
                       SLOT("1", "2", TR("s1", "s2", "b", "1/2") "," TR("s1", "r", "b", "1/2")) ","
                       SLOT("2", "3", TR("s2", "b", "b", "1/2") "," TR("r", "b", "b", "1/2")) ","
                       SLOT("3", "4", TR("a", "s2", "c", "1"));
    platform_json(pl_old, sizeof pl_old, NULL, "multi", "multi", NULL, "multi");
    t = periodic(pl_old, recv);
    expect(t, 0, "node b receives from both");
    free(t);
}

/* Old one-port files stay valid: the same schedule written before switches
 * existed (no "ports" key) still checks, and a one-port platform writes no
 * "ports" key at all. */
static void test_old_files(void)
{
    ssched_platform_t p;
    load(&p);
    set_switches(&p, 0);
    ssched_problem_t pb;
    make_problem(&p, 0, &pb);
    ssched_steady_t st;
    solve(&p, &pb, &st);
    ssched_schedule_t s;
    CU_ASSERT_EQUAL(build(&p, &pb, &st, 0, NULL, &s, "one-port"), SSCHED_OK);
    char *text = tu_schedule_json(&p, &pb, &s);
    CU_ASSERT_PTR_NULL(strstr(text, "\"ports\""));
    expect_valid(text, "old one-port file");
    /* "ports": "one" stated explicitly means the same */
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *nodes = json_object_get(json_object_get(root, "platform"), "nodes");
    for (size_t i = 0; i < json_array_size(nodes); i++)
        json_object_set_new(json_array_get(nodes, i), "ports", json_string("one"));
    char *t2 = json_dumps(root, 0);
    expect_valid(t2, "explicit one-port file");
    free(t2);
    json_decref(root);
    free(text);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* A switch never computes: a reduce file whose computing relay is marked
 * "multi" is rejected (the file's model, used consistently). */
static void test_switch_computes(void)
{
    ssched_platform_t p;
    load(&p);
    set_switches(&p, 1);
    ssched_problem_t pb;
    make_problem(&p, 2, &pb);
    ssched_steady_t st;
    solve(&p, &pb, &st);
    ssched_schedule_t s;
    CU_ASSERT_EQUAL_FATAL(build(&p, &pb, &st, 0, NULL, &s, "reduce"), SSCHED_OK);
    char *text = tu_schedule_json(&p, &pb, &s);
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *comps = json_object_get(root, "computations");
    const char *relay = NULL;
    for (size_t x = 0; x < json_array_size(comps) && !relay; x++) {
        const char *n = json_string_value(json_object_get(json_array_get(comps, x), "node"));
        int named = !strcmp(n, "h0_0_0_0");
        for (size_t k = 0; k < pb.n_participants; k++)
            named |= !strcmp(n, p.names[pb.participants[k]]);
        if (!named)
            relay = n;
    }
    /* whether the optimum computes on a relay depends on the LP; mark a
     * computing participant otherwise: refused as malformed */
    if (!relay)
        relay = json_string_value(json_object_get(json_array_get(comps, 0), "node"));
    json_t *nodes = json_object_get(json_object_get(root, "platform"), "nodes");
    for (size_t i = 0; i < json_array_size(nodes); i++) {
        json_t *n = json_array_get(nodes, i);
        if (!strcmp(json_string_value(json_object_get(n, "id")), relay))
            json_object_set_new(n, "ports", json_string("multi"));
    }
    char *t2 = json_dumps(root, 0);
    char why[512];
    int v = tu_check_text(t2, why, sizeof why);
    CU_ASSERT(v == 0 || v == -1);
    if (v == 0)
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "computes"));
    free(t2);
    json_decref(root);
    free(text);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

/* Random platforms: the nodes not named in the problem are switches;
 * periodic (split and whole) and unrolled schedules of scatters and
 * gossips all pass the checker. */
static void test_random(void)
{
    for (unsigned round = 0; round < 12; round++) {
        ssched_platform_t p;
        tu_random_platform(&p, 7);
        for (size_t i = 4; i < p.n_nodes; i++)
            p.multiport[i] = 1;
        ssched_problem_t pb;
        ssched_problem_init(&pb);
        ssched_status_t rc = round % 2 ? ssched_problem_set_gossip(&pb, &p, "P0,P1", "P2,P3,P1", NULL)
                                       : ssched_problem_set_scatter(&pb, &p, "P0", "P1,P2,P3", NULL);
        CU_ASSERT_EQUAL_FATAL(rc, SSCHED_OK);
        ssched_steady_t st;
        ssched_steady_init(&st);
        CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, NULL), SSCHED_OK);
        if (mpq_sgn(st.throughput) > 0) {
            for (int no_split = 0; no_split < 2; no_split++) {
                ssched_schedule_t s;
                CU_ASSERT_EQUAL(build(&p, &pb, &st, no_split, NULL, &s, "random"), SSCHED_OK);
                ssched_schedule_free(&s);
            }
            for (int whole = 0; whole < 2; whole++) {
                ssched_error_t err;
                ssched_error_clear(&err);
                ssched_schedule_t s;
                ssched_schedule_init(&s);
                CU_ASSERT_EQUAL_FATAL(ssched_unroll_plan(&p, &pb, &st, 7, NULL, whole, &s, &err),
                                      SSCHED_OK);
                ssched_unrolled_t u;
                ssched_unrolled_init(&u);
                CU_ASSERT_EQUAL_FATAL(ssched_unroll(&p, &pb, &s, 7, &u, &err), SSCHED_OK);
                char *text = tu_unrolled_json(&p, &pb, &s, &u);
                expect_valid(text, "random unrolled");
                free(text);
                ssched_unrolled_free(&u);
                ssched_schedule_free(&s);
            }
        }
        ssched_steady_free(&st);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"periodic schedules with switches", test_periodic},
        {"scatter period one-port vs switch", test_scatter_period_figures},
        {"unrolled schedules with switches", test_unrolled},
        {"hand-made unrolled files", test_hand_unrolled},
        {"hand-made periodic files", test_hand_periodic},
        {"old one-port files", test_old_files},
        {"a switch never computes", test_switch_computes},
        {"random platforms with switches", test_random},
        {NULL, NULL}};
    return tu_main("switch schedules", tests);
}
