/* Measured networks in (issue 23 item 4): bandwidth/latency matrices, rows
 * and square form, exact units, one link per ordered pair; bad rows are
 * FILE:LINE and exit 2. */
#include <stdlib.h>
#include <string.h>

#include "ssched/platform.h"
#include "test_util.h"

static ssched_status_t load_text(ssched_platform_t *p, const char *name, const char *text,
                                 ssched_error_t *err)
{
    const char *path = tu_tmp_path(name);
    CU_ASSERT_FATAL(tu_write_file(path, text) == 0);
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    mpq_t unit;
    mpq_init(unit);
    mpq_set_ui(unit, 1000, 1);
    ro.unit_bytes = unit;
    ssched_platform_init(p);
    ssched_status_t st = ssched_platform_load(p, path, &ro, err);
    mpq_clear(unit);
    return st;
}

static size_t edge(const ssched_platform_t *p, const char *a, const char *b)
{
    size_t i, j;
    CU_ASSERT_FATAL(ssched_platform_find_node(p, a, &i, NULL) == SSCHED_OK);
    CU_ASSERT_FATAL(ssched_platform_find_node(p, b, &j, NULL) == SSCHED_OK);
    size_t e = ssched_platform_edge_index(p, i, j);
    CU_ASSERT_FATAL(e != (size_t)-1);
    return e;
}

static void test_rows(void)
{
    ssched_platform_t p;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load_text(&p, "rows.csv",
        "# measured by hand\n"
        "from,to,bandwidth,latency\n"
        "a,b,125MBps,50us\n"
        " b , a , 1Gbps , 1.5ms \n"
        "\n"
        "a,c,2KiBps,1/3\n"
        "c,1Gf\n", &err), SSCHED_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p.routes);
    CU_ASSERT(p.seconds);
    CU_ASSERT_EQUAL(p.n_nodes, 3);
    CU_ASSERT_EQUAL(p.n_edges, 3);
    CU_ASSERT_EQUAL(p.routes->n_links, 3);
    CU_ASSERT_STRING_EQUAL(p.names[0], "a");
    size_t e = edge(&p, "a", "b");
    CU_ASSERT(tu_mpq_equals(p.c[e], "1/125000")); /* 1000 B at 125 MB/s */
    CU_ASSERT(tu_mpq_equals(p.l[e], "1/20000"));
    CU_ASSERT_STRING_EQUAL(p.routes->link_names[p.routes->route_links[p.routes->route_start[e]]],
                           "a->b");
    e = edge(&p, "b", "a");
    CU_ASSERT(tu_mpq_equals(p.c[e], "1/125000")); /* 1 Gbit/s = 125 MB/s */
    CU_ASSERT(tu_mpq_equals(p.l[e], "3/2000"));
    e = edge(&p, "a", "c");
    CU_ASSERT(tu_mpq_equals(p.c[e], "125/256")); /* 1000 / 2048 */
    CU_ASSERT(tu_mpq_equals(p.l[e], "1/3"));
    CU_ASSERT(!p.has_w[0]);
    CU_ASSERT(p.has_w[2] && tu_mpq_equals(p.w[2], "1/1000000000"));
    CU_ASSERT_EQUAL(p.routes->sharing[0], SSCHED_LINK_SHARED);
    ssched_platform_free(&p);
}

static void test_square(void)
{
    ssched_platform_t p;
    ssched_error_t err;
    CU_ASSERT_EQUAL_FATAL(load_text(&p, "square.csv",
        "matrix, x, y, z\n"
        "x, -, 1MBps 1ms, 2e6 0\n"
        "y, 1MBps 1ms, , \n"
        "z, 4MBps 2us, -, 9 9\n", &err), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 3);
    CU_ASSERT_EQUAL(p.n_edges, 4); /* x->y x->z y->x z->x; z->z ignored */
    size_t e = edge(&p, "x", "z");
    CU_ASSERT(tu_mpq_equals(p.c[e], "1/2000"));
    CU_ASSERT(tu_mpq_equals(p.l[e], "0"));
    e = edge(&p, "z", "x");
    CU_ASSERT(tu_mpq_equals(p.c[e], "1/4000"));
    CU_ASSERT(tu_mpq_equals(p.l[e], "1/500000"));
    ssched_platform_free(&p);
}

/* Bad rows: exit 2, one line, FILE:LINE. */
static void test_bad(void)
{
    static const struct { const char *text, *expect; } cases[] = {
        {"a,b,125MBps,50us\na,b,1MBps,0\n", ":2: the pair a -> b is given twice"},
        {"a,b,125MBps\n", ":1: 3 fields"},
        {"a,b,fast,50us\n", ":1: bandwidth 'fast'"},
        {"a,b,12parsecs,50us\n", ":1: bandwidth '12parsecs': unknown unit"},
        {"a,b,0MBps,50us\n", "must be positive"},
        {"a,b,1MBps,-1s\n", "latency '-1s' must be non-negative"},
        {"a,a,1MBps,1s\n", "to itself"},
        {"# nothing\n", "no pair"},
        {"matrix,a,b\na,-\n", ":2: 2 fields where the header has 3"},
        {"matrix,a,b\nc,-,-\n", "row 'c'"},
        {"matrix,a,b\na,-,fast\nb,-,-\n", ":2: cell a -> b: expected"},
        {"matrix,a,a\n", ":1: host 'a' twice in the header"},
        {"matrix,s 1ms,,\nz,4MBps 2us,-,9 9\n", ":1: empty host name"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.csv", k);
        const char *path = tu_tmp_path(name);
        CU_ASSERT_FATAL(tu_write_file(path, cases[k].text) == 0);
        tu_run_t r;
        int status = tu_run(&r, "export hostfile '%s' -o -", path);
        int ok = status == 2 && tu_count_lines(r.err) == 1 && r.err &&
                 strstr(r.err, cases[k].expect) && strstr(r.err, name);
        if (!ok)
            fprintf(stderr, "\n  case %zu: status %d, stderr '%s'\n", k, status,
                    r.err ? r.err : "");
        CU_ASSERT(ok);
        tu_run_free(&r);
    }
    /* --format matrix reads any name; a SimGrid file's options are refused */
    tu_run_t r;
    const char *path = tu_tmp_path("m.txt");
    CU_ASSERT_FATAL(tu_write_file(path, "a,b,1MBps,1ms\nb,a,1MBps,1ms\n") == 0);
    CU_ASSERT_EQUAL(tu_run(&r, "export hostfile '%s' --format matrix -o -", path), 0);
    CU_ASSERT_STRING_EQUAL(r.out, "a\nb\n");
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "export hostfile '%s' --format matrix --cost-from bw -o -", path),
                    2);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    tu_run_free(&r);
}

int main(void)
{
    const tu_test_t tests[] = {{"rows with units, exact", test_rows},
                               {"square form", test_square},
                               {"bad rows: FILE:LINE, exit 2", test_bad},
                               {NULL, NULL}};
    return tu_main("matrix_read", tests);
}
