/* Units in the output (issue 24, "the first hour"): with costs from
 * bandwidths (--cost-from, --unit-bytes) the time unit is the second and
 * every output says so; long fractions get their decimal beside them. */
#include <string.h>

#include "test_util.h"

static const char *const bw_graphml =
    "<?xml version=\"1.0\"?>\n"
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    "<key id=\"bw\" for=\"edge\" attr.name=\"bw\" attr.type=\"string\"/>\n"
    "<graph edgedefault=\"directed\">\n"
    "<node id=\"s\"/><node id=\"a\"/><node id=\"b\"/>\n"
    "<edge source=\"s\" target=\"a\"><data key=\"bw\">125000000</data></edge>\n"
    "<edge source=\"s\" target=\"b\"><data key=\"bw\">3e7</data></edge>\n"
    "<edge source=\"a\" target=\"b\"><data key=\"bw\">7e7</data></edge>\n"
    "</graph></graphml>\n";

static void test_seconds_named(void)
{
    const char *path = tu_tmp_path("bw.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, bw_graphml), 0);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from bw --unit-bytes 65536 --problem scatter "
                               "--source s --targets a,b", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "operations per second"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rates (messages per second)"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "per time unit"));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from bw --unit-bytes 65536 --problem scatter "
                               "--source s --targets a,b --json", path), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"time_unit\": \"second\""));
    tu_run_free(&r);
    /* the file's own unit otherwise */
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s/examples/fig2.graphml' --problem scatter --source Ps "
                               "--targets P1 --json", SSCHED_SOURCE_DIR), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"time_unit\": \"unit\""));
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s/examples/fig2.graphml' --problem scatter --source Ps "
                               "--targets P1", SSCHED_SOURCE_DIR), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "operations per time unit"));
    tu_run_free(&r);
    /* an unrolled schedule's time is in seconds */
    const char *out = tu_tmp_path("bw-unrolled.json");
    CU_ASSERT_EQUAL(tu_run(&r, "schedule '%s' --cost-from bw --unit-bytes 65536 --problem scatter "
                               "--source s --targets a,b --operations 10 --unroll -o '%s'",
                           path, out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "seconds"));
    tu_run_free(&r);
}

/* A rate of many digits is printed with its decimal beside it. */
static void test_long_fractions_have_decimals(void)
{
    const char *path = tu_tmp_path("bw2.graphml");
    CU_ASSERT_EQUAL_FATAL(tu_write_file(path, bw_graphml), 0);
    tu_run_t r;
    CU_ASSERT_EQUAL(tu_run(&r, "solve '%s' --cost-from bw --unit-bytes 65536 --problem scatter "
                               "--source s --targets a,b", path), 0);
    /* every rate line "x -> y  [o->d]  p/q" with a long p/q ends with ")" */
    const char *rates = strstr(r.out, "rates (");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rates);
    const char *line = strchr(rates, '\n') + 1;
    int seen = 0;
    while (*line == ' ') {
        const char *end = strchr(line, '\n');
        const char *last = end;
        while (last > line && last[-1] != ' ')
            last--;
        if (end - last > 9 && memchr(last, '/', (size_t)(end - last)))
            CU_FAIL("a long fraction without its decimal");
        if (end[-1] == ')')
            seen++;
        line = end + 1;
    }
    CU_ASSERT(seen > 0);
    tu_run_free(&r);
}

int main(void)
{
    static const tu_test_t tests[] = {{"seconds are named", test_seconds_named},
                                      {"long fractions have decimals", test_long_fractions_have_decimals},
                                      {NULL, NULL}};
    return tu_main("units", tests);
}
