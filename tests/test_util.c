#include "test_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdint.h>

static char scratch_dir[256];

static void remove_scratch(void)
{
    if (scratch_dir[0]) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch_dir);
        if (system(cmd) != 0) { /* best effort */ }
    }
}

const char *tu_tmp_path(const char *name)
{
    static char paths[64][512];
    static int next;
    if (!scratch_dir[0]) {
        snprintf(scratch_dir, sizeof scratch_dir, "/tmp/ssched-test-XXXXXX");
        if (!mkdtemp(scratch_dir)) {
            perror("mkdtemp");
            exit(1);
        }
        atexit(remove_scratch);
    }
    char *p = paths[next++ % 64];
    snprintf(p, 512, "%s/%s", scratch_dir, name);
    return p;
}

char *tu_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}

int tu_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int run_shell(tu_run_t *r, const char *cmd)
{
    const char *out = tu_tmp_path("run.out");
    char outp[512], errp[512];
    snprintf(outp, sizeof outp, "%s", out);
    snprintf(errp, sizeof errp, "%s", tu_tmp_path("run.err"));
    size_t n = strlen(cmd) + 2 * sizeof outp + 64;
    char *full = malloc(n);
    snprintf(full, n, "( %s ) >'%s' 2>'%s' </dev/null", cmd, outp, errp);
    int st = system(full);
    free(full);
    r->status = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
    r->out = tu_read_file(outp);
    r->err = tu_read_file(errp);
    if (!r->out)
        r->out = strdup("");
    if (!r->err)
        r->err = strdup("");
    return r->status;
}

int tu_sh(tu_run_t *r, const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return run_shell(r, buf);
}

int tu_run(tu_run_t *r, const char *fmt, ...)
{
    char args[8000], buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(buf, sizeof buf, "'%s' %s", SSCHED_BIN, args);
    return run_shell(r, buf);
}

void tu_run_free(tu_run_t *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

int tu_count_lines(const char *s)
{
    int n = 0;
    const char *p = s;
    for (; *p; p++)
        if (*p == '\n')
            n++;
    if (p != s && p[-1] != '\n')
        n++;
    return n;
}

int tu_mpq_equals(const mpq_t q, const char *text)
{
    mpq_t t;
    mpq_init(t);
    int ok = mpq_set_str(t, text, 10) == 0;
    if (ok) {
        mpq_canonicalize(t);
        ok = mpq_equal(q, t);
    }
    mpq_clear(t);
    return ok;
}

int tu_main(const char *suite_name, const tu_test_t *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite suite = CU_add_suite(suite_name, NULL, NULL);
    for (const tu_test_t *t = tests; t->name; t++)
        CU_add_test(suite, t->name, t->fn);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return (failures == 0 && run > 0) ? 0 : 1;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

unsigned tu_pick(unsigned n)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (unsigned)((z ^ (z >> 31)) % n);
}

void tu_random_platform(ssched_platform_t *p, unsigned n)
{
    ssched_platform_init(p);
    char name[16];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%u", i);
        ssched_platform_add_node(p, name, NULL, NULL, NULL);
    }
    mpq_t c;
    mpq_init(c);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            int ring = j == (i + 1) % n;
            if (i == j || (!ring && tu_pick(100) >= 35))
                continue;
            mpq_set_ui(c, tu_pick(9) + 1, tu_pick(6) + 1);
            mpq_canonicalize(c);
            ssched_platform_add_edge(p, i, j, c, NULL);
        }
    mpq_clear(c);
    ssched_platform_finalize(p, NULL);
}
