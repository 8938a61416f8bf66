/* Test helpers for routed schedules (tu_routed_*, SimGrid files) and their
 * runs under SMPI (tu_smpi_*): declared in test_util.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

void tu_unroll_planned(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_steady_t *st, size_t K, int no_split, ssched_schedule_t *s,
                       ssched_unrolled_t *u)
{
    ssched_error_t err;
    ssched_status_t r = ssched_unroll_plan(p, pb, st, K, NULL, no_split, s, &err);
    if (r != SSCHED_OK)
        fprintf(stderr, "\n  plan: %s\n", err.message);
    CU_ASSERT_FATAL(r == SSCHED_OK);
    r = ssched_unroll(p, pb, s, K, u, &err);
    if (r != SSCHED_OK)
        fprintf(stderr, "\n  unroll: %s\n", err.message);
    CU_ASSERT_FATAL(r == SSCHED_OK);
}

/* Solve, plan and unroll K operations; the file must pass the checker;
 * *makespan and *ktp (K / TP) are returned. */
void tu_routed_plan(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K, mpq_t makespan,
                    mpq_t ktp)
{
    ssched_error_t err;
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_unrolled_t u;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    ssched_unrolled_init(&u);
    CU_ASSERT_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err) == SSCHED_OK);
    tu_unroll_planned(p, pb, &st, K, 0, &s, &u);
    mpq_set_ui(ktp, K, 1);
    mpq_div(ktp, ktp, st.throughput);
    mpq_set(makespan, u.fig.makespan);
    CU_ASSERT(mpq_cmp(ktp, makespan) <= 0);
    char why[512];
    char *text = tu_unrolled_json(p, pb, &s, &u);
    CU_ASSERT_FATAL(text != NULL);
    int v = tu_check_text(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  unrolled: %s\n", why);
    CU_ASSERT(v == 1);
    free(text);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
}

void tu_routed_expect(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                      const char *ktp, const char *slack)
{
    mpq_t m, q;
    mpq_inits(m, q, NULL);
    tu_routed_plan(p, pb, K, m, q); /* checked inside */
    if (ktp)
        CU_ASSERT(tu_mpq_equals(q, ktp));
    if (slack)
        CU_ASSERT(tu_within(m, q, slack));
    mpq_clears(m, q, NULL);
}

/* A shipped SimGrid file, 1 MB units, 10^7 flops per task. */
void tu_load_simgrid(ssched_platform_t *p, const char *file)
{
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    mpq_t u, f;
    mpq_inits(u, f, NULL);
    mpq_set_ui(u, 1000000, 1);
    mpq_set_ui(f, 10000000, 1);
    ro.unit_bytes = u;
    ro.flops_per_task = f;
    ssched_platform_init(p);
    char path[512];
    snprintf(path, sizeof path, "%s/simgrid/%s", SSCHED_DATA_DIR, file);
    ssched_error_t err;
    ssched_status_t st = ssched_platform_load(p, path, &ro, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  %s: %s\n", path, err.message);
    CU_ASSERT_FATAL(st == SSCHED_OK);
    mpq_clears(u, f, NULL);
}

/* makespan <= (1 + slack) K/TP, slack a fraction text */
int tu_within(const mpq_t m, const mpq_t ktp, const char *slack)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_str(q, slack, 10);
    mpq_canonicalize(q);
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    mpq_add(q, q, one);
    mpq_mul(q, q, ktp);
    int ok = mpq_cmp(m, q) <= 0;
    if (!ok)
        fprintf(stderr, "\n  makespan %.6f > (1 + %s) K/TP = %.6f\n", mpq_get_d(m), slack,
                mpq_get_d(q));
    mpq_clears(q, one, NULL);
    return ok;
}

int tu_smpi_runner(char *runner, size_t cap)
{
    snprintf(runner, cap, "%s/ssched-exec-smpirun", SSCHED_BUILD_DIR);
    tu_run_t r;
    tu_sh(&r, "command -v smpirun >/dev/null && test -x '%s'", runner);
    int have = r.status == 0;
    tu_run_free(&r);
    if (!have)
        fprintf(stderr, "\n  skipped: smpirun or ssched-exec-smpirun absent\n");
    return have;
}

const char *tu_hostfile(const char *xml, const char *name)
{
    const char *hosts = tu_tmp_path(name);
    tu_run_t r;
    tu_run(&r, "export hostfile '%s' -o '%s'", xml, hosts);
    int st = r.status;
    tu_run_free(&r);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    return hosts;
}

int tu_smpi_within(const char *label, const char *runner, int np, const char *xml,
                   const char *hosts, const char *plan, const char *units, double tol,
                   const char *expect)
{
    tu_run_t r;
    tu_sh(&r, "'%s' -np %d -platform '%s' -hostfile '%s' --log=root.thres:critical '%s' %s "
          "--verify --json", runner, np, xml, hosts, plan, units);
    const char *m = r.out ? strstr(r.out, "\"ratio\": ") : NULL;
    double ratio = m ? atof(m + 9) : 0;
    int ok = r.status == 0 && r.out && strstr(r.out, "\"verified\": true") &&
             (!expect || strstr(r.out, expect)) && ratio > 1 - tol && ratio < 1 + tol;
    if (!ok)
        fprintf(stderr, "\n  %s: status %d ratio %.17g\n%s\n%s", label, r.status, ratio,
                r.out ? r.out : "", r.err ? r.err : "");
    tu_run_free(&r);
    return ok;
}

const char *tu_cluster4_xml(const char *name)
{
    const char *xml = tu_tmp_path(name);
    CU_ASSERT_FATAL(tu_write_file(xml,
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"c\" prefix=\"node-\" radical=\"0-3\" suffix=\"\" speed=\"1Gf\" "
        "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>\n"
        "</platform>\n") == 0);
    return xml;
}
