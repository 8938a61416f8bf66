/* Shared-rate groups (docs/model.md, "Shared rates"; schedule/unroll_shared.c,
 * schedule/check_shared.c): three hosts send their values over private
 * links of 100, 80 and 70 MB/s and one SHARED link L of 100 MB/s into the
 * target h3 (every route 200 us: equal latencies, SimGrid's sharing
 * penalties).  Their shares of L are 1, 0.8 and 0.7: at full rates they
 * cross L one after the other (3.68 units of L's time), in a group each
 * at 1/3 of L together (3 units).  The planner keeps the groups (strictly
 * shorter); the checker accepts them and refuses a group short of a member
 * or a member out of phase; under smpirun (exact configuration) the
 * simulated makespan is the plan's to 1e-6 (measured: 1 + 2.4e-14). */
#include <CUnit/Basic.h>
#include <gmp.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static const char *star =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"z\" routing=\"Full\">\n"
    "    <host id=\"h0\" speed=\"10Mf\"/>\n"
    "    <host id=\"h1\" speed=\"10Mf\"/>\n"
    "    <host id=\"h2\" speed=\"10Mf\"/>\n"
    "    <host id=\"h3\" speed=\"1Gf\"/>\n"
    "    <link id=\"p0\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
    "    <link id=\"p1\" bandwidth=\"80MBps\" latency=\"100us\"/>\n"
    "    <link id=\"p2\" bandwidth=\"70MBps\" latency=\"100us\"/>\n"
    "    <link id=\"L\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
    "    <route src=\"h0\" dst=\"h3\"><link_ctn id=\"p0\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h1\" dst=\"h3\"><link_ctn id=\"p1\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h2\" dst=\"h3\"><link_ctn id=\"p2\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h0\" dst=\"h1\"><link_ctn id=\"p0\"/><link_ctn id=\"p1\"/></route>\n"
    "    <route src=\"h0\" dst=\"h2\"><link_ctn id=\"p0\"/><link_ctn id=\"p2\"/></route>\n"
    "    <route src=\"h1\" dst=\"h2\"><link_ctn id=\"p1\"/><link_ctn id=\"p2\"/></route>\n"
    "  </zone>\n"
    "</platform>\n";

/* Unequal latencies (routes 200, 350 and 700 us; h1's link 75 MB/s):
 * latency-weighted groups (schedule/unroll_shared_w.c, check_shared_w.c).
 * Operation 0's three values share L in proportion 1/200 : 1/350 : 1/700
 * (53.8, 30.8, 15.4 MB/s), h0 ends its 1 MB after 13/700 s, then h1 and h2
 * take 2/3 and 1/3 (h1 ends at 1/40 s), then h2 runs alone at its 70 MB/s
 * and ends at 9/280 s (one after the other at full rates: 36.8 ms). */
static const char *star_w =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"z\" routing=\"Full\">\n"
    "    <host id=\"h0\" speed=\"10Mf\"/>\n"
    "    <host id=\"h1\" speed=\"10Mf\"/>\n"
    "    <host id=\"h2\" speed=\"10Mf\"/>\n"
    "    <host id=\"h3\" speed=\"1Gf\"/>\n"
    "    <link id=\"p0\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
    "    <link id=\"p1\" bandwidth=\"75MBps\" latency=\"250us\"/>\n"
    "    <link id=\"p2\" bandwidth=\"70MBps\" latency=\"600us\"/>\n"
    "    <link id=\"L\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
    "    <route src=\"h0\" dst=\"h3\"><link_ctn id=\"p0\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h1\" dst=\"h3\"><link_ctn id=\"p1\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h2\" dst=\"h3\"><link_ctn id=\"p2\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h0\" dst=\"h1\"><link_ctn id=\"p0\"/><link_ctn id=\"p1\"/></route>\n"
    "    <route src=\"h0\" dst=\"h2\"><link_ctn id=\"p0\"/><link_ctn id=\"p2\"/></route>\n"
    "    <route src=\"h1\" dst=\"h2\"><link_ctn id=\"p1\"/><link_ctn id=\"p2\"/></route>\n"
    "  </zone>\n"
    "</platform>\n";

/* Two links filled in turn: h1's and h2's routes also cross q (90 MB/s,
 * 50 us: routes of 200, 400 and 750 us).  While the three share L, q
 * carries 43 MB/s; once h0 ends, h1 and h2 would take 65 + 35 MB/s of L,
 * so q fills first and their rates come from q (as link 4 on
 * small_platform, shared by Jupiter's and Tremblay's routes). */
static const char *star_q =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"z\" routing=\"Full\">\n"
    "    <host id=\"h0\" speed=\"10Mf\"/>\n"
    "    <host id=\"h1\" speed=\"10Mf\"/>\n"
    "    <host id=\"h2\" speed=\"10Mf\"/>\n"
    "    <host id=\"h3\" speed=\"1Gf\"/>\n"
    "    <link id=\"p0\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
    "    <link id=\"p1\" bandwidth=\"75MBps\" latency=\"250us\"/>\n"
    "    <link id=\"p2\" bandwidth=\"70MBps\" latency=\"600us\"/>\n"
    "    <link id=\"q\" bandwidth=\"90MBps\" latency=\"50us\"/>\n"
    "    <link id=\"L\" bandwidth=\"100MBps\" latency=\"100us\"/>\n"
    "    <route src=\"h0\" dst=\"h3\"><link_ctn id=\"p0\"/><link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h1\" dst=\"h3\"><link_ctn id=\"p1\"/><link_ctn id=\"q\"/>"
    "<link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h2\" dst=\"h3\"><link_ctn id=\"p2\"/><link_ctn id=\"q\"/>"
    "<link_ctn id=\"L\"/></route>\n"
    "    <route src=\"h0\" dst=\"h1\"><link_ctn id=\"p0\"/><link_ctn id=\"p1\"/></route>\n"
    "    <route src=\"h0\" dst=\"h2\"><link_ctn id=\"p0\"/><link_ctn id=\"p2\"/></route>\n"
    "    <route src=\"h1\" dst=\"h2\"><link_ctn id=\"p1\"/><link_ctn id=\"p2\"/></route>\n"
    "  </zone>\n"
    "</platform>\n";

static const char *units = "--unit-bytes 1000000 --flops-per-task 10000000";

/* The planned file (8 operations) on platform text (file names tagged), or NULL. */
static json_t *plan_on(const char *text, const char *tag, const char **xml, const char **hosts,
                       const char **file)
{
    char name[64];
    snprintf(name, sizeof name, "sr_%s.xml", tag);
    *xml = tu_tmp_path(name);
    snprintf(name, sizeof name, "sr_%s_hosts.txt", tag);
    *hosts = tu_tmp_path(name);
    snprintf(name, sizeof name, "sr_%s_plan.json", tag);
    *file = tu_tmp_path(name);
    if (tu_write_file(*xml, text) != 0)
        return NULL;
    tu_run_t r;
    tu_run(&r, "export hostfile '%s' -o '%s'", *xml, *hosts);
    int ok = r.status == 0;
    tu_run_free(&r);
    tu_run(&r, "schedule '%s' --problem reduce --participants h0,h1,h2,h3 --target h3 %s "
           "--operations 8 --unroll -o '%s'", *xml, units, *file);
    ok = ok && r.status == 0;
    if (!ok)
        fprintf(stderr, "\n%s\n%s", r.out ? r.out : "", r.err ? r.err : "");
    tu_run_free(&r);
    return ok ? json_load_file(*file, 0, NULL) : NULL;
}

static json_t *plan(const char **xml, const char **hosts, const char **file)
{
    return plan_on(star, "star", xml, hosts, file);
}

/* 1 valid, 0 invalid, -1 malformed; why: the violation. */
static int check(json_t *root, char *why, size_t cap)
{
    char *text = json_dumps(root, JSON_INDENT(1));
    CU_ASSERT_FATAL(text != NULL);
    int r = tu_check_text(text, why, cap);
    free(text);
    return r;
}

/* The transfer from -> h3 of operation op. */
static size_t find(json_t *tr, const char *from, json_int_t op)
{
    for (size_t k = 0; k < json_array_size(tr); k++) {
        json_t *x = json_array_get(tr, k);
        if (!strcmp(json_string_value(json_object_get(x, "from")), from) &&
            !strcmp(json_string_value(json_object_get(x, "to")), "h3") &&
            json_integer_value(json_object_get(x, "op")) == op)
            return k;
    }
    return (size_t)-1;
}

static void test_groups(void)
{
    const char *xml, *hosts, *file;
    json_t *root = plan(&xml, &hosts, &file);
    CU_ASSERT_FATAL(root != NULL);
    json_t *tr = json_object_get(root, "transfers");
    /* operation 0's three values: one phase, [200 us, 30.2 ms), 10 ms of
     * L each (full rates: 10, 12.5 and 14.3 ms one after the other) */
    const char *from[] = {"h0", "h1", "h2"};
    for (int k = 0; k < 3; k++) {
        size_t i = find(tr, from[k], 0);
        CU_ASSERT_FATAL(i != (size_t)-1);
        json_t *x = json_array_get(tr, i);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(x, "start")), "0");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(x, "end")), "151/5000");
    }
    char why[512];
    CU_ASSERT(check(root, why, sizeof why) == 1);

    /* a member out of phase (h1's 0.1 ms later): L over its capacity */
    json_t *m = json_deep_copy(root);
    json_t *x = json_array_get(json_object_get(m, "transfers"), find(tr, "h1", 0));
    json_object_set_new(x, "start", json_string("1/10000"));
    json_object_set_new(x, "end", json_string("303/10000"));
    /* start order: it goes after every transfer starting at 0 */
    json_t *mt = json_object_get(m, "transfers");
    json_incref(x);
    json_array_remove(mt, find(mt, "h1", 0));
    size_t at = 0;
    while (at < json_array_size(mt) &&
           !strcmp(json_string_value(json_object_get(json_array_get(mt, at), "start")), "0"))
        at++;
    json_array_insert_new(mt, at, x);
    int got = check(m, why, sizeof why);
    CU_ASSERT(got == 0);
    if (got != 0 || !strstr(why, "SHARED link"))
        fprintf(stderr, "\nout of phase: %d %s\n", got, why);
    json_decref(m);

    /* a group short of a member: h2's value of operation 0 moved to the
     * end at its full rate (the group of 1/3 shares is then 2/3 of L) */
    m = json_deep_copy(root);
    mt = json_object_get(m, "transfers");
    size_t i2 = find(mt, "h2", 0);
    x = json_array_get(mt, i2);
    json_incref(x);
    json_array_remove(mt, i2);
    json_object_set_new(x, "start", json_string("10"));
    /* 200 us + 1 MB at 70 MB/s */
    json_object_set_new(x, "end", json_string("350507/35000"));
    json_array_append_new(mt, x);
    got = check(m, why, sizeof why);
    CU_ASSERT(got == 0);
    CU_ASSERT(strstr(why, "group") != NULL);
    if (got != 0 || !strstr(why, "group"))
        fprintf(stderr, "\nshort group: %d %s\n", got, why);
    json_decref(m);

    /* a member slower than any group of L (no whole g) */
    m = json_deep_copy(root);
    x = json_array_get(json_object_get(m, "transfers"), find(tr, "h0", 0));
    json_object_set_new(x, "end", json_string("152/5000"));
    got = check(m, why, sizeof why);
    CU_ASSERT(got == 0);
    /* (alone at its phase start: no latency-weighted group either) */
    CU_ASSERT(strstr(why, "below its full rate") != NULL);
    if (got != 0 || !strstr(why, "below its full rate"))
        fprintf(stderr, "\nno whole g: %d %s\n", got, why);
    json_decref(m);
    json_decref(root);
}

static const char *end_of(json_t *tr, const char *from, json_int_t op)
{
    size_t i = find(tr, from, op);
    return i == (size_t)-1 ? "" : json_string_value(json_object_get(json_array_get(tr, i), "end"));
}

static void test_weighted(void)
{
    const char *xml, *hosts, *file;
    json_t *root = plan_on(star_w, "w", &xml, &hosts, &file);
    CU_ASSERT_FATAL(root != NULL);
    json_t *tr = json_object_get(root, "transfers");
    /* operation 0: phases from 700 us (h2 sent at 0), the ends above */
    size_t i2 = find(tr, "h2", 0);
    CU_ASSERT_FATAL(i2 != (size_t)-1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tr, i2), "start")),
                           "0");
    CU_ASSERT_STRING_EQUAL(end_of(tr, "h0", 0), "1349/70000"); /* 7/10000 + 13/700 */
    CU_ASSERT_STRING_EQUAL(end_of(tr, "h1", 0), "257/10000"); /* 7/10000 + 1/40 */
    CU_ASSERT_STRING_EQUAL(end_of(tr, "h2", 0), "2299/70000"); /* 7/10000 + 9/280 */
    char why[512];
    int got = check(root, why, sizeof why);
    CU_ASSERT(got == 1);
    if (got != 1)
        fprintf(stderr, "\nweighted: %d %s\n", got, why);

    /* h1 claimed to end 1 us earlier: the shares give 257/10000 */
    json_t *m = json_deep_copy(root);
    json_t *x = json_array_get(json_object_get(m, "transfers"), find(tr, "h1", 0));
    json_object_set_new(x, "end", json_string("2569/100000"));
    got = check(m, why, sizeof why);
    CU_ASSERT(got == 0);
    CU_ASSERT(strstr(why, "latency-weighted") != NULL);
    if (got != 0 || !strstr(why, "latency-weighted"))
        fprintf(stderr, "\nweighted end: %d %s\n", got, why);
    json_decref(m);

    /* h0's value of operation 0 leaves the group (moved to the end at its
     * full rate): the two left share L otherwise, their ends are wrong */
    m = json_deep_copy(root);
    json_t *mt = json_object_get(m, "transfers");
    size_t i0 = find(mt, "h0", 0);
    x = json_array_get(mt, i0);
    json_incref(x);
    json_array_remove(mt, i0);
    json_object_set_new(x, "start", json_string("10"));
    json_object_set_new(x, "end", json_string("10102/1000")); /* 200 us + 10 ms */
    json_array_append_new(mt, x);
    got = check(m, why, sizeof why);
    CU_ASSERT(got == 0);
    CU_ASSERT(strstr(why, "latency-weighted") != NULL);
    if (got != 0 || !strstr(why, "latency-weighted"))
        fprintf(stderr, "\nweighted short: %d %s\n", got, why);
    json_decref(m);

    /* h0's value of operation 1 moved into the group's time, started
     * before the group's phase: at its full rate it takes all of L, which
     * the group fills (peak 1) */
    m = json_deep_copy(root);
    mt = json_object_get(m, "transfers");
    size_t i1 = find(mt, "h0", 1);
    CU_ASSERT_FATAL(i1 != (size_t)-1);
    x = json_array_get(mt, i1);
    json_incref(x);
    json_array_remove(mt, i1);
    json_object_set_new(x, "start", json_string("1/10000"));
    json_object_set_new(x, "end", json_string("103/10000")); /* 200 us + 10 ms */
    json_array_insert_new(mt, 1, x); /* after h2's, which starts at 0 */
    got = check(m, why, sizeof why);
    CU_ASSERT(got == 0);
    CU_ASSERT(strstr(why, "over its capacity") && strstr(why, "latency-weighted group"));
    if (got != 0 || !strstr(why, "latency-weighted group"))
        fprintf(stderr, "\nweighted peak: %d %s\n", got, why);
    json_decref(m);
    json_decref(root);
}

static void smpi_on(const char *text, const char *tag)
{
    char runner[1024];
    snprintf(runner, sizeof runner, "%s/ssched-exec-smpirun", SSCHED_BUILD_DIR);
    tu_run_t r;
    tu_sh(&r, "command -v smpirun >/dev/null && test -x '%s'", runner);
    int have = r.status == 0;
    tu_run_free(&r);
    if (!have) {
        fprintf(stderr, "\n  skipped: smpirun or ssched-exec-smpirun absent\n");
        return;
    }
    const char *xml, *hosts, *file;
    json_t *root = plan_on(text, tag, &xml, &hosts, &file);
    CU_ASSERT_FATAL(root != NULL);
    json_decref(root);
    tu_sh(&r, "'%s' -np 4 -platform '%s' -hostfile '%s' --log=root.thres:critical '%s' %s "
          "--verify --json", runner, xml, hosts, file, units);
    const char *m = r.out ? strstr(r.out, "\"ratio\": ") : NULL;
    double ratio = m ? atof(m + 9) : 0;
    int ok = r.status == 0 && r.out && strstr(r.out, "\"verified\": true") &&
             ratio > 1 - 1e-6 && ratio < 1 + 1e-6;
    if (!ok)
        fprintf(stderr, "\n  status %d ratio %.17g\n%s\n%s", r.status, ratio,
                r.out ? r.out : "", r.err ? r.err : "");
    CU_ASSERT(ok);
    tu_run_free(&r);
}

static void test_smpi(void)
{
    smpi_on(star, "star");
}

/* latency-weighted (measured: 1 + 1.7e-14); two links filled in turn (1 + 2.2e-14) */
static void test_smpi_weighted(void)
{
    smpi_on(star_w, "w");
    smpi_on(star_q, "q");
}

/* star_q: the planned file is checked valid (plan_on), and operation 0's
 * three values are a weighted group: one phase start, each slower than
 * its full rate (h1's 1 MB at 75 MB/s: 13.3 ms; h2's at 70: 14.3 ms). */
static void test_two_links(void)
{
    const char *xml, *hosts, *file;
    json_t *root = plan_on(star_q, "q", &xml, &hosts, &file);
    CU_ASSERT_FATAL(root != NULL);
    json_t *tr = json_object_get(root, "transfers");
    const char *from[] = {"h0", "h1", "h2"};
    const char *lat[] = {"1/5000", "1/2500", "3/4000"};          /* route latencies */
    const char *full[] = {"51/5000", "103/7500", "421/28000"};  /* l + 1 MB at 100, 75, 70 */
    mpq_t ph, t, a, b;
    mpq_inits(ph, t, a, b, NULL);
    for (int k = 0; k < 3; k++) {
        size_t i = find(tr, from[k], 0);
        CU_ASSERT_FATAL(i != (size_t)-1);
        json_t *x = json_array_get(tr, i);
        mpq_set_str(a, json_string_value(json_object_get(x, "start")), 10);
        mpq_set_str(b, json_string_value(json_object_get(x, "end")), 10);
        mpq_set_str(t, lat[k], 10);
        mpq_add(t, t, a); /* the phase start */
        if (k == 0)
            mpq_set(ph, t);
        CU_ASSERT(mpq_equal(t, ph));
        mpq_sub(b, b, a);
        mpq_set_str(t, full[k], 10);
        CU_ASSERT(mpq_cmp(b, t) > 0);
    }
    mpq_clears(ph, t, a, b, NULL);
    char why[512];
    CU_ASSERT(check(root, why, sizeof why) == 1);
    json_decref(root);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"groups planned, checked, mutations refused", test_groups},
        {"simulated = planned under smpirun", test_smpi},
        {"latency-weighted groups: exact ends, checked, mutations refused", test_weighted},
        {"latency-weighted groups: two links filled in turn", test_two_links},
        {"latency-weighted groups: simulated = planned under smpirun", test_smpi_weighted},
        {NULL, NULL},
    };
    return tu_main("shared_rates", tests);
}
