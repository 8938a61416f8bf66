/* The writers of ssched/export.h: what the CLI prints for makespan,
 * scatter-balance and compare (text and JSON) comes byte for byte from the
 * library writers (a C program can produce it), a failing stream is an
 * error, and the library's platform -> cluster conversion and
 * self-checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ssched/compare.h"
#include "ssched/export.h"
#include "ssched/makespan.h"
#include "ssched/scatter_balance.h"
#include "ssched/schedule.h"
#include "test_util.h"

/* A memory stream for a writer, and its text once closed. */
typedef struct {
    char *buf;
    size_t len;
    FILE *f;
} mem_t;

static void mem_open(mem_t *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->f);
}

static char *mem_close(mem_t *m)
{
    CU_ASSERT_EQUAL(fclose(m->f), 0);
    return m->buf;
}

/* The CLI's stdout for args equals text. */
static void expect_cli(const char *args, const char *text)
{
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "%s", args), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(r.out, text);
    tu_run_free(&r);
}

static void test_makespan(void)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_mk_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(ssched_mk_cluster_parse(&c, "1,2,3/2,5", &err), SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_mk_reduce_snf(&c, 1, &s, &err), SSCHED_OK);
    mem_t m;
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_makespan_json(m.f, &c, &s, "snf", "snf", &err), SSCHED_OK);
    char *text = mem_close(&m);
    expect_cli("makespan reduce --times 1,2,3/2,5 --root 1 --algorithm snf --json", text);
    free(text);
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_makespan_text(m.f, &c, &s, "snf", "snf", &err), SSCHED_OK);
    text = mem_close(&m);
    expect_cli("makespan reduce --times 1,2,3/2,5 --root 1 --algorithm snf", text);
    free(text);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
}

static void test_sb(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/seed004_table1.csv", SSCHED_DATA_DIR);
    ssched_sb_platform_t pl, inst;
    ssched_sb_platform_init(&pl);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_platform_load_csv(&pl, path, NULL), SSCHED_OK);
    ssched_sb_platform_init(&inst);
    ssched_sb_result_t res;
    ssched_sb_result_init(&res);
    mpq_t pre;
    mpq_init(pre);
    ssched_error_t err;
    ssched_error_clear(&err);
    size_t holder = ssched_sb_platform_holder(&pl);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_arrange(&pl, holder, holder, SSCHED_SB_ORDER_GIVEN, 1000, &inst,
                                            pre, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_sb_solve(&inst, 1000, SSCHED_SB_LP, &res, &err), SSCHED_OK);
    ssched_sb_report_t r = {path, &pl, &inst, holder, holder, SSCHED_SB_ORDER_GIVEN, pre, &res,
                            NULL};
    mem_t m;
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_sb_json(m.f, &r, &err), SSCHED_OK);
    char *text = mem_close(&m);
    char args[1200];
    snprintf(args, sizeof args, "scatter-balance '%s' --items 1000 --algorithm lp --json", path);
    expect_cli(args, text);
    free(text);
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_sb_text(m.f, &r, &err), SSCHED_OK);
    text = mem_close(&m);
    snprintf(args, sizeof args, "scatter-balance '%s' --items 1000 --algorithm lp", path);
    expect_cli(args, text);
    free(text);
    mpq_clear(pre);
    ssched_sb_result_free(&res);
    ssched_sb_platform_free(&inst);
    ssched_sb_platform_free(&pl);
}

static void test_compare(void)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_mk_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(ssched_mk_cluster_parse(&c, "1,2,3", &err), SSCHED_OK);
    static const unsigned long ops[] = {1, 4, 16};
    ssched_compare_options_t o;
    ssched_compare_options_default(&o);
    o.root = 0;
    o.ops = ops;
    o.n_ops = 3;
    o.crossover_limit = 2000; /* the CLI's --max-crossover default */
    ssched_compare_t r;
    ssched_compare_init(&r);
    CU_ASSERT_EQUAL_FATAL(ssched_compare_run(&c, &o, &r, &err), SSCHED_OK);
    mem_t m;
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_compare_json(m.f, &o, &r, &err), SSCHED_OK);
    char *text = mem_close(&m);
    expect_cli("compare --times 1,2,3 --root 0 --ops 1,4,16 --json --quiet", text);
    free(text);
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_compare_text(m.f, &c, &o, &r, &err), SSCHED_OK);
    text = mem_close(&m);
    expect_cli("compare --times 1,2,3 --root 0 --ops 1,4,16 --quiet", text);
    free(text);
    ssched_compare_free(&r);
    ssched_mk_cluster_free(&c);
}

/* A stream that fails every write (unbuffered, so the first write fails
 * inside the writer) makes the writer return an error, not SSCHED_OK. */
static void test_failing_stream(void)
{
    ssched_error_t err;
    ssched_mk_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(ssched_mk_cluster_parse(&c, "1,2", NULL), SSCHED_OK);
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    CU_ASSERT_EQUAL_FATAL(ssched_mk_broadcast_fnf(&c, 0, &s, NULL), SSCHED_OK);
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        ssched_error_clear(&err);
        CU_ASSERT_EQUAL(ssched_write_makespan_json(full, &c, &s, "fnf", NULL, &err), SSCHED_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "write error"));
        fclose(full);
    }
    /* a stream opened for reading cannot be written */
    const char *path = tu_tmp_path("readonly.txt");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, "x\n"), 0);
    FILE *ro = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ro);
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_write_rational(ro, c.time[1], &err), SSCHED_EINPUT);
    ssched_error_clear(&err);
    CU_ASSERT_NOT_EQUAL(ssched_write_makespan_json(ro, &c, &s, "fnf", NULL, &err), SSCHED_OK);
    fclose(ro);
    ssched_mk_schedule_free(&s);
    ssched_mk_cluster_free(&c);
    /* the CLI reports the streamed writer's error, and removes a
     * half-written regular file only: /dev/full stays a device */
    struct stat sb;
    if (stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode)) {
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s/examples/fig2.graphml' --problem scatter --source "
                                   "Ps --targets P0,P1 --operations 5 --unroll -o /dev/full",
                               SSCHED_SOURCE_DIR), 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "write error"));
        tu_run_free(&r);
        CU_ASSERT(stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode));
    }
}

/* The cluster of a platform: complete with sender-determined costs, else
 * EINPUT naming what is wrong (in the platform's terms). */
static void test_cluster_from_platform(void)
{
    const char *g = tu_tmp_path("cluster.graphml");
    const char *head = "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                       "<key id=\"c\" for=\"edge\" attr.name=\"c\" attr.type=\"string\"/>\n"
                       "<graph edgedefault=\"directed\">\n"
                       "<node id=\"a\"/><node id=\"b\"/><node id=\"d\"/>\n";
    char text[2048];
    ssched_error_t err;
    ssched_mk_cluster_t c;
    for (int variant = 0; variant < 3; variant++) {
        /* 0: complete, a sends in 1/2, b in 2, d in 3; 1: a's costs differ;
         * 2: an edge missing */
        snprintf(text, sizeof text,
                 "%s<edge source=\"a\" target=\"b\"><data key=\"c\">1/2</data></edge>\n"
                 "<edge source=\"a\" target=\"d\"><data key=\"c\">%s</data></edge>\n"
                 "<edge source=\"b\" target=\"a\"><data key=\"c\">2</data></edge>\n"
                 "<edge source=\"b\" target=\"d\"><data key=\"c\">2</data></edge>\n"
                 "<edge source=\"d\" target=\"a\"><data key=\"c\">3</data></edge>\n"
                 "%s</graph></graphml>\n",
                 head, variant == 1 ? "1" : "1/2",
                 variant == 2 ? "" : "<edge source=\"d\" target=\"b\"><data key=\"c\">3</data></edge>\n");
        CU_ASSERT_EQUAL_FATAL(tu_write_file(g, text), 0);
        ssched_platform_t p;
        ssched_platform_init(&p);
        ssched_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(ssched_platform_load(&p, g, NULL, &err), SSCHED_OK);
        ssched_status_t st = ssched_compare_cluster_from_platform(&p, &c, &err);
        if (variant == 0) {
            CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
            CU_ASSERT_EQUAL(c.n, 3);
            CU_ASSERT(tu_mpq_equals(c.time[0], "1/2"));
            CU_ASSERT(tu_mpq_equals(c.time[2], "3"));
            ssched_mk_cluster_free(&c);
        } else {
            CU_ASSERT_EQUAL(st, SSCHED_EINPUT);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, variant == 1 ? "node 'a'" : "complete"));
            CU_ASSERT_PTR_NULL(strstr(err.message, "--")); /* no command-line option */
        }
        ssched_platform_free(&p);
    }
}

/* A scatter on examples/fig2.graphml, solved and scheduled. */
typedef struct {
    char path[1024];
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t st;
    ssched_schedule_t s;
} scatter_t;

static void scatter_build(scatter_t *x)
{
    ssched_platform_init(&x->p);
    ssched_problem_init(&x->pb);
    ssched_steady_init(&x->st);
    ssched_schedule_init(&x->s);
    snprintf(x->path, sizeof x->path, "%s/examples/fig2.graphml", SSCHED_SOURCE_DIR);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load(&x->p, x->path, NULL, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_problem_set_scatter(&x->pb, &x->p, "Ps", "P0,P1", NULL),
                          SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_steady_solve(&x->p, &x->pb, NULL, &x->st, NULL), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(ssched_schedule_build(&x->p, &x->pb, &x->st, NULL, &x->s, NULL),
                          SSCHED_OK);
}

static void scatter_free(scatter_t *x)
{
    ssched_schedule_free(&x->s);
    ssched_steady_free(&x->st);
    ssched_problem_free(&x->pb);
    ssched_platform_free(&x->p);
}

/* A built schedule passes its self-check, an unrolled one too (in memory
 * and as a file), and a malformed file is reported as ssched's bug. */
static void test_self_check(void)
{
    scatter_t x;
    scatter_build(&x);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL(ssched_schedule_self_check(&x.p, &x.pb, &x.s, &rep, &err), SSCHED_OK);
    CU_ASSERT(rep.valid);
    CU_ASSERT(!rep.unrolled);
    /* the period summary, as `ssched schedule` prints it */
    mem_t m;
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_schedule_summary(m.f, &x.p, &x.pb, &x.st, &x.s, &err), SSCHED_OK);
    char *text = mem_close(&m);
    char args[1200];
    snprintf(args, sizeof args, "schedule '%s' --problem scatter --source Ps --targets P0,P1",
             x.path);
    expect_cli(args, text);
    free(text);
    /* the solution, as `ssched solve` prints it up to the solver's timings */
    mem_open(&m);
    CU_ASSERT_EQUAL(ssched_write_steady_text(m.f, x.path, &x.p, &x.pb, &x.st, &err), SSCHED_OK);
    text = mem_close(&m);
    snprintf(args, sizeof args, "solve '%s' --problem scatter --source Ps --targets P0,P1", x.path);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "%s", args), 0);
    char *timing = strstr(text, "solver: "), *cli_timing = strstr(r.out, "solver: ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(timing);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cli_timing);
    CU_ASSERT_EQUAL(timing - text, cli_timing - r.out);
    CU_ASSERT_EQUAL(strncmp(text, r.out, (size_t)(timing - text)), 0);
    tu_run_free(&r);
    free(text);
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    CU_ASSERT_EQUAL_FATAL(ssched_unroll(&x.p, &x.pb, &x.s, 5, &u, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(ssched_unrolled_self_check(&x.p, &x.pb, &x.s, &u, &rep, &err), SSCHED_OK);
    CU_ASSERT(rep.valid && rep.unrolled);
    ssched_unrolled_free(&u);
    const char *file = tu_tmp_path("self_check.json");
    FILE *f = fopen(file, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    CU_ASSERT_EQUAL(ssched_write_unrolled_stream(f, &x.p, &x.pb, &x.s, 5, NULL, &fig, &err),
                    SSCHED_OK);
    CU_ASSERT_EQUAL(fclose(f), 0);
    ssched_unroll_figures_free(&fig);
    CU_ASSERT_EQUAL(ssched_file_self_check(file, &rep, &err), SSCHED_OK);
    CU_ASSERT(rep.valid && rep.unrolled);
    CU_ASSERT_EQUAL_FATAL(tu_write_file(file, "{}"), 0);
    CU_ASSERT_EQUAL(ssched_file_self_check(file, NULL, &err), SSCHED_EINTERNAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "internal error: emitted schedule is malformed"));
    scatter_free(&x);
}

int main(void)
{
    static const tu_test_t tests[] = {{"makespan = CLI", test_makespan},
                                      {"scatter-balance = CLI", test_sb},
                                      {"compare = CLI", test_compare},
                                      {"failing stream", test_failing_stream},
                                      {"cluster from platform", test_cluster_from_platform},
                                      {"schedule, solve, self-checks", test_self_check},
                                      {NULL, NULL}};
    return tu_main("writers", tests);
}
