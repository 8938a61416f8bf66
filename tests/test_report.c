/* ssched report (ssched/report.h): the page holds every figure the issue
 * lists, its embedded schedules pass the checker, it renders in headless
 * Chromium with no script error, and bad input is one line with exit 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ssched/report.h"
#include "ssched/schedule.h"
#include "test_util.h"

#define EX SSCHED_SOURCE_DIR "/examples/"

static const struct {
    const char *name, *args, *tp;
} cases[] = {
    {"fig2-scatter", EX "fig2.graphml --problem scatter --source Ps --targets P0,P1", "1/2"},
    {"fig6-reduce", EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target P0", "1"},
    {"tiers-broadcast", EX "tiers-small.graphml --problem broadcast --source lan0_0_0", NULL},
    {"tiers-gossip",
     EX "tiers-small.graphml --problem gossip --sources lan0_0_0,lan1_0_0 --targets "
        "lan0_0_1,lan1_0_1",
     NULL},
    /* a routed platform: SimGrid's own file, hosts only, link resources */
    {"simgrid-reduce",
     SSCHED_DATA_DIR "/simgrid/small_platform.xml --problem reduce --participants "
                     "Tremblay,Jupiter,Fafard,Ginette --target Tremblay --unit-bytes 1000000 "
                     "--flops-per-task 10000000",
     NULL},
};

/* Decode the base64 of a data: URI (RFC 4648) into a NUL-terminated text. */
static char *decode_base64(const char *s, size_t n)
{
    char *out = malloc(n / 4 * 3 + 1);
    size_t k = 0;
    unsigned long v = 0;
    int bits = 0;
    for (size_t i = 0; out && i < n && s[i] != '='; i++) {
        const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char *p = strchr(a, s[i]);
        if (!p) {
            free(out);
            return NULL;
        }
        v = v << 6 | (unsigned long)(p - a);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (char)(v >> bits & 0xff);
        }
    }
    if (out)
        out[k] = '\0';
    return out;
}

/* The schedule embedded under download link `id` passes the checker. */
static void embedded_schedule_valid(const char *html, const char *id)
{
    char key[96];
    snprintf(key, sizeof key, "id=\"%s\"", id);
    const char *a = strstr(html, key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    const char *b = strstr(a, "base64,");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    b += 7;
    size_t n = strcspn(b, "\"");
    char *json = decode_base64(b, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    char why[512];
    if (tu_check_text(json, why, sizeof why) != 1)
        fprintf(stderr, "\n  %s: %s\n", id, why);
    CU_ASSERT_EQUAL(tu_check_text(json, why, sizeof why), 1);
    free(json);
}

static void test_cli_pages(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char name[64];
        snprintf(name, sizeof name, "%s.html", cases[c].name);
        const char *path = tu_tmp_path(name);
        tu_run_t r;
        int st = tu_run(&r, "report %s --operations 20 -o '%s'", cases[c].args, path);
        if (st != 0)
            fprintf(stderr, "\n  %s: %s\n", cases[c].name, r.err);
        CU_ASSERT_EQUAL_FATAL(st, 0);
        tu_run_free(&r);
        char *html = tu_read_file(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(html);
        static const char *const ids[] = {"id=\"tp-exact\"", "id=\"certificate\"",
                                          "id=\"platform-svg\"", "id=\"bottlenecks\"",
                                          "id=\"structure-0\"", "id=\"period-gantt\"",
                                          "id=\"unrolled-svg\"", "id=\"k-chart\"", "id=\"k-table\"",
                                          "id=\"k-figures\""};
        for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) {
            if (!strstr(html, ids[k]))
                fprintf(stderr, "\n  %s: no %s\n", cases[c].name, ids[k]);
            CU_ASSERT_PTR_NOT_NULL(strstr(html, ids[k]));
        }
        if (cases[c].tp) {
            char want[64];
            snprintf(want, sizeof want, "id=\"tp-exact\">%s<", cases[c].tp);
            CU_ASSERT_PTR_NOT_NULL(strstr(html, want));
        }
        if (strstr(cases[c].args, "simgrid")) {
            /* the bottlenecks are the file's links, times in seconds */
            CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr class=\"route-link\"><td>link (SHARED) "));
            CU_ASSERT_PTR_NOT_NULL(strstr(html, "on a routed platform of 7 hosts (multi-port)"));
            CU_ASSERT_PTR_NOT_NULL(strstr(html, "operations per second"));
            CU_ASSERT_PTR_NOT_NULL(strstr(html, "time (seconds)"));
        }
        /* start-up and clean-up are shaded on the unrolled chart */
        CU_ASSERT_PTR_NOT_NULL(strstr(html, ">start-up<"));
        embedded_schedule_valid(html, "download-schedule");
        embedded_schedule_valid(html, "download-unrolled");
        /* self-contained: nothing is fetched */
        CU_ASSERT_PTR_NULL(strstr(html, "src=\"http"));
        CU_ASSERT_PTR_NULL(strstr(html, "href=\"http"));
        free(html);
    }
}

/* Headless Chromium loads the page: its script ran (data-ready), no
 * script error was recorded, and a screenshot is produced. */
static void test_chromium_renders(void)
{
    tu_run_t r;
    int have = tu_sh(&r, "command -v chromium");
    tu_run_free(&r);
    if (have != 0)
        fprintf(stderr, "\n  chromium is not installed (scripts/install-deps.sh installs it)\n");
    CU_ASSERT_EQUAL_FATAL(have, 0);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char name[64], shot[64];
        snprintf(name, sizeof name, "%s.html", cases[c].name);
        snprintf(shot, sizeof shot, "%s.png", cases[c].name);
        const char *page = tu_tmp_path(name);
        char png[512];
        snprintf(png, sizeof png, "%s", tu_tmp_path(shot));
        CU_ASSERT_EQUAL_FATAL(tu_run(&r, "report %s --operations 10 -o '%s'", cases[c].args, page),
                              0);
        tu_run_free(&r);
        const char *flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars "
                            "--user-data-dir=\"$(mktemp -d)\"";
        int st = tu_sh(&r, "timeout 120 chromium %s --dump-dom 'file://%s' 2>/dev/null", flags,
                       page);
        CU_ASSERT_EQUAL(st, 0);
        /* the attributes the page's script sets on <body> */
        const char *body = r.out ? strstr(r.out, "<body") : NULL;
        char tag[1024] = "";
        if (body)
            snprintf(tag, sizeof tag, "%.*s", (int)strcspn(body, ">"), body);
        CU_ASSERT_PTR_NOT_NULL(strstr(tag, "data-ready=\"1\""));
        if (strstr(tag, "data-errors"))
            fprintf(stderr, "\n  %s: script errors: %s\n", cases[c].name, tag);
        CU_ASSERT_PTR_NULL(strstr(tag, "data-errors"));
        /* the DOM Chromium built still holds every chart */
        CU_ASSERT_PTR_NOT_NULL(r.out && strstr(r.out, "id=\"unrolled-svg\""));
        CU_ASSERT_PTR_NOT_NULL(r.out && strstr(r.out, "id=\"platform-svg\""));
        tu_run_free(&r);
        st = tu_sh(&r, "timeout 120 chromium %s --window-size=1250,3000 --screenshot='%s' "
                       "'file://%s' >/dev/null 2>&1",
                   flags, png, page);
        CU_ASSERT_EQUAL(st, 0);
        tu_run_free(&r);
        struct stat sb;
        CU_ASSERT_EQUAL(stat(png, &sb), 0);
        CU_ASSERT(sb.st_size > 20000); /* a blank 1250x3000 PNG is a few kB */
    }
}

static void test_library_bad_input(void)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_error_t err;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&p, EX "fig2.graphml", &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "Ps", "P0,P1", &err), SSCHED_OK);
    ssched_report_options_t opt;
    ssched_report_options_default(&opt);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    opt.operations = 0;
    CU_ASSERT_EQUAL(ssched_write_report(f, &p, &pb, &opt, &err), SSCHED_EINPUT);
    opt.operations = SSCHED_REPORT_MAX_OPERATIONS + 1;
    CU_ASSERT_EQUAL(ssched_write_report(f, &p, &pb, &opt, &err), SSCHED_EINPUT);
    /* unreachable target: TP = 0 is refused, not drawn */
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&pb, &p, "P0", "P1", &err), SSCHED_OK);
    opt.operations = 5;
    CU_ASSERT_EQUAL(ssched_write_report(f, &p, &pb, &opt, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "TP = 0"));
    fclose(f);
    free(buf);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

static void test_cli_bad_input(void)
{
    const char *bad[] = {
        "report " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1",
        "report " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1 --operations 0 "
        "-o x.html",
        "report " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1 --operations "
        "10001 -o x.html",
        "report " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1 -o x.html -o y",
        "report " EX "fig2.graphml --problem scatter --source Ps --targets Q -o x.html",
        "report " EX "fig2.graphml --problem scatter --source P0 --targets P1 -o x.html",
        "report " EX "fig2.graphml --problem scatter --source Ps --targets P0 -o /nonexistent/x",
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        tu_run_t r;
        int st = tu_run(&r, "%s", bad[k]);
        if (st != 2 || tu_count_lines(r.err) != 1)
            fprintf(stderr, "\n  %s: status %d stderr %s\n", bad[k], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        tu_run_free(&r);
    }
    /* a refused page leaves no file behind */
    struct stat sb;
    CU_ASSERT_NOT_EQUAL(stat("x.html", &sb), 0);
}

int main(void)
{
    static const tu_test_t tests[] = {{"pages hold every figure", test_cli_pages},
                                      {"headless chromium renders", test_chromium_renders},
                                      {"library bad input", test_library_bad_input},
                                      {"cli bad input", test_cli_bad_input},
                                      {NULL, NULL}};
    return tu_main("report", tests);
}
