/* Malformed input never crashes, hangs or leaks: random mutations of valid
 * schedule files and platform files must be either accepted or refused
 * with SSCHED_EINPUT (run under ASan/UBSan in CI, valgrind-clean here). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "test_util.h"

/* A valid schedule of RR-4872 Fig. 6 (reduce) as JSON text. */
static char *reduce_schedule(int unrolled)
{
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    if (ssched_platform_load_graphml(&p, SSCHED_SOURCE_DIR "/examples/fig6.graphml", &err) != SSCHED_OK)
        return NULL;
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_problem_set_reduce(&pb, &p, "P0,P1,P2", "P0", &err);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    so.no_split = 1;
    char *text = NULL;
    if (ssched_steady_solve(&p, &pb, NULL, &st, &err) == SSCHED_OK &&
        ssched_schedule_build(&p, &pb, &st, &so, &s, &err) == SSCHED_OK) {
        if (unrolled) {
            ssched_unrolled_t u;
            ssched_unrolled_init(&u);
            if (ssched_unroll(&p, &pb, &s, 5, &u, &err) == SSCHED_OK)
                text = tu_unrolled_json(&p, &pb, &s, &u);
            ssched_unrolled_free(&u);
        } else {
            text = tu_schedule_json(&p, &pb, &s);
        }
    }
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return text;
}

/* Every JSON value of the tree, depth first (objects and arrays included). */
static void collect(json_t *v, json_t **out, size_t *n, size_t cap)
{
    if (*n < cap)
        out[(*n)++] = v;
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) collect(x, out, n, cap);
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            collect(json_array_get(v, i), out, n, cap);
    }
}

static json_t *random_value(void)
{
    switch (tu_pick(9)) {
    case 0: return json_string("abc");
    case 1: return json_string("-1");
    case 2: return json_string("1/0");
    case 3: return json_string("99999999999999999999999999/7");
    case 4: return json_integer(-3);
    case 5: return json_integer((json_int_t)1 << 40);
    case 6: return json_null();
    case 7: return json_pack("[ii]", (int)tu_pick(5), (int)tu_pick(5));
    default: return json_string("0");
    }
}

/* Replace one random value inside containers of root by a random value, or
 * delete a key / an array element. */
static void mutate(json_t *root)
{
    json_t *all[4096];
    size_t n = 0;
    collect(root, all, &n, 4096);
    json_t *parent = all[tu_pick((unsigned)n)];
    if (json_is_object(parent) && json_object_size(parent)) {
        size_t target = tu_pick((unsigned)json_object_size(parent)), i = 0;
        const char *key;
        json_t *x;
        json_object_foreach(parent, key, x) {
            if (i++ != target)
                continue;
            if (tu_pick(4) == 0)
                json_object_del(parent, key);
            else
                json_object_set_new(parent, key, random_value());
            break;
        }
    } else if (json_is_array(parent) && json_array_size(parent)) {
        size_t i = tu_pick((unsigned)json_array_size(parent));
        if (tu_pick(3) == 0)
            json_array_remove(parent, i);
        else
            json_array_set_new(parent, i, random_value());
    }
}

static void fuzz_checker(int unrolled)
{
    char *text = reduce_schedule(unrolled);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    ssched_check_report_t rep;
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_check_schedule_text(text, &rep, &err), SSCHED_OK);
    CU_ASSERT(rep.valid);
    int refused = 0, invalid = 0;
    for (int k = 0; k < 600; k++) {
        json_t *root = json_loads(text, 0, NULL);
        for (unsigned m = 0; m <= tu_pick(3); m++)
            mutate(root);
        char *bad = json_dumps(root, 0);
        json_decref(root);
        /* sometimes also truncate the text */
        if (tu_pick(5) == 0)
            bad[tu_pick((unsigned)strlen(bad))] = '\0';
        ssched_status_t st = ssched_check_schedule_text(bad, &rep, &err);
        CU_ASSERT(st == SSCHED_OK || st == SSCHED_EINPUT);
        refused += st == SSCHED_EINPUT;
        invalid += st == SSCHED_OK && !rep.valid;
        free(bad);
    }
    if (getenv("SSCHED_FUZZ_VERBOSE") || refused + invalid <= 150)
        fprintf(stderr, "\n  caught %d + %d of 600\n", refused, invalid);
    /* many mutations hit fields the checker does not need (figures, the
     * descriptive trees), but a good share must be caught */
    CU_ASSERT(refused + invalid > 150);
    free(text);
}

static void test_checker_periodic(void) { fuzz_checker(0); }
static void test_checker_unrolled(void) { fuzz_checker(1); }

static void test_graphml_loader(void)
{
    char *text = tu_read_file(SSCHED_SOURCE_DIR "/examples/fig2.graphml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t len = strlen(text);
    const char *path = tu_tmp_path("fuzz.graphml");
    static const char junk[] = "<>&\"'/=0-9.e ";
    int ok = 0, refused = 0;
    for (int k = 0; k < 300; k++) {
        char *bad = strdup(text);
        for (unsigned m = 0; m <= tu_pick(4); m++)
            bad[tu_pick((unsigned)len)] = junk[tu_pick(sizeof junk - 1)];
        if (tu_pick(6) == 0)
            bad[tu_pick((unsigned)len)] = '\0';
        tu_write_file(path, bad);
        free(bad);
        ssched_platform_t p;
        ssched_platform_init(&p);
        ssched_error_t err;
        ssched_error_clear(&err);
        ssched_status_t st = ssched_platform_load_graphml(&p, path, &err);
        CU_ASSERT(st == SSCHED_OK || st == SSCHED_EINPUT);
        if (st == SSCHED_EINPUT) {
            CU_ASSERT(strchr(err.message, '\n') == NULL); /* one line */
            refused++;
        } else {
            ok++;
        }
        ssched_platform_free(&p);
    }
    CU_ASSERT(refused > 0);
    free(text);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"mutated periodic schedules", test_checker_periodic},
        {"mutated unrolled schedules", test_checker_unrolled},
        {"mutated platform files", test_graphml_loader},
        {NULL, NULL}};
    return tu_main("fuzz", tests);
}
