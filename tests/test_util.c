#include "ssched/export.h"
#include "ssched/gen.h"
#include "ssched/rational.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
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
    tu_random_edges(p, n);
}

void tu_random_edges(ssched_platform_t *p, unsigned n)
{
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

int tu_esolver_optimum(const ssched_lp_t *lp, mpq_t out)
{
    const char *path = tu_tmp_path("esolver.lp");
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int wrote = ssched_write_lp(f, lp, NULL) == SSCHED_OK;
    fclose(f);
    if (!wrote)
        return -1;
    tu_run_t r;
    tu_sh(&r, "cd '%s/..' && rm -f sol.txt && esolver -L -O sol.txt '%s' >/dev/null 2>&1; "
              "grep 'Value = ' sol.txt", path, path);
    int ok = -1;
    const char *v = strstr(r.out, "Value = ");
    if (r.status == 0 && v) {
        char buf[256];
        sscanf(v + 8, "%255s", buf);
        ok = ssched_rational_parse(out, buf, NULL) == SSCHED_OK ? 0 : -1;
    }
    tu_run_free(&r);
    return ok;
}

int tu_check_text(const char *text, char *why, size_t cap)
{
    ssched_check_report_t rep;
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ssched_check_schedule_text(text, &rep, &err) != SSCHED_OK) {
        snprintf(why, cap, "malformed: %.400s", err.message);
        return -1;
    }
    snprintf(why, cap, "%s", rep.violation);
    return rep.valid;
}

void tu_check_certificate(const ssched_platform_t *p, const mpq_t size, const ssched_steady_t *s)
{
    mpq_t sum, load;
    mpq_inits(sum, load, NULL);
    for (size_t i = 0; i < p->n_nodes; i++) {
        mpq_srcptr busy[3] = {s->out_busy[i], s->in_busy[i], s->compute_busy[i]};
        mpq_srcptr price[3] = {s->out_price[i], s->in_price[i], s->compute_price[i]};
        for (int k = 0; k < 3; k++) {
            mpq_add(sum, sum, price[k]);
            CU_ASSERT(mpq_cmp_ui(busy[k], 1, 1) <= 0);
            CU_ASSERT(mpq_sgn(price[k]) >= 0);
            if (mpq_sgn(price[k]) > 0)
                CU_ASSERT(mpq_cmp_ui(busy[k], 1, 1) == 0);
        }
        if (p->multiport[i]) {
            CU_ASSERT(mpq_sgn(s->out_busy[i]) == 0 && mpq_sgn(s->in_busy[i]) == 0);
            CU_ASSERT(mpq_sgn(s->out_price[i]) == 0 && mpq_sgn(s->in_price[i]) == 0);
        }
    }
    CU_ASSERT_EQUAL_FATAL(s->n_edges, p->n_edges);
    for (size_t e = 0; e < p->n_edges; e++) {
        mpq_add(sum, sum, s->link_price[e]);
        CU_ASSERT(mpq_cmp_ui(s->link_busy[e], 1, 1) <= 0);
        CU_ASSERT(mpq_sgn(s->link_price[e]) >= 0);
        if (mpq_sgn(s->link_price[e]) > 0)
            CU_ASSERT(mpq_cmp_ui(s->link_busy[e], 1, 1) == 0);
        mpq_set_ui(load, 0, 1);
        for (size_t k = 0; k < s->n_flows; k++)
            if (s->flows[k].edge == e)
                mpq_add(load, load, s->flows[k].rate);
        mpq_mul(load, load, p->c[e]);
        mpq_mul(load, load, size);
        if (p->multiport[p->from[e]] || p->multiport[p->to[e]]) {
            CU_ASSERT(mpq_equal(load, s->link_busy[e]));
        } else {
            CU_ASSERT(mpq_sgn(s->link_busy[e]) == 0 && mpq_sgn(s->link_price[e]) == 0);
        }
    }
    CU_ASSERT(mpq_equal(sum, s->throughput));
    mpq_clears(sum, load, NULL);
}

void tu_host_list(const ssched_platform_t *p, size_t n, size_t step, size_t skip, char *out,
                  size_t cap)
{
    out[0] = 0;
    size_t got = 0, seen = 0;
    for (size_t i = 0; i < p->n_nodes && got < n; i++) {
        if (!p->has_w[i] || seen++ % step != skip % step)
            continue;
        if (got++)
            strncat(out, ",", cap - strlen(out) - 1);
        strncat(out, p->names[i], cap - strlen(out) - 1);
    }
}

ssched_status_t tu_host_problem(const ssched_platform_t *p, int kind, size_t n_targets,
                                size_t reduce_target, ssched_problem_t *pb)
{
    char a[1024], b[1024];
    ssched_error_t err;
    if (kind == 0) {
        tu_host_list(p, 1, 1, 0, a, sizeof a);
        tu_host_list(p, n_targets, 2, 1, b, sizeof b);
        return ssched_problem_set_scatter(pb, p, a, b, &err);
    }
    if (kind == 1) {
        tu_host_list(p, 3, 3, 0, a, sizeof a);
        tu_host_list(p, 3, 3, 1, b, sizeof b);
        return ssched_problem_set_gossip(pb, p, a, b, &err);
    }
    tu_host_list(p, 4, 2, 0, a, sizeof a);
    tu_host_list(p, 1, 1, reduce_target, b, sizeof b);
    return ssched_problem_set_reduce(pb, p, a, b, &err);
}

const char *tu_example_problem(const char *plat, const char *kind, char *buf, size_t cap)
{
    static const char *const all12 = "h0_0_0_0,h0_0_0_1,h0_0_0_2,h0_0_1_0,h0_0_1_1,h0_0_1_2,"
                                     "h1_0_0_0,h1_0_0_1,h1_0_0_2,h1_0_1_0,h1_0_1_1,h1_0_1_2";
    int scatter = !strcmp(kind, "scatter"), gossip = !strcmp(kind, "gossip");
    if (!strcmp(plat, "fig2"))
        snprintf(buf, cap, scatter ? "--problem scatter --source Ps --targets P0,P1"
                                   : "--problem gossip --sources Ps,Pb --targets P0,P1");
    else if (!strcmp(plat, "fig6"))
        snprintf(buf, cap, scatter  ? "--problem scatter --source P0 --targets P1,P2"
                           : gossip ? "--problem gossip --sources P0,P1,P2 --targets P0,P1,P2"
                                    : "--problem reduce --participants P0,P1,P2 --target P0");
    else if (scatter)
        snprintf(buf, cap, "--problem scatter --source h0_0_0_0 --targets %s", all12 + 9);
    else if (gossip)
        snprintf(buf, cap, "--problem gossip --sources h0_0_0_0,h0_0_1_0,h1_0_0_0 --targets %s",
                 all12);
    else
        snprintf(buf, cap, "--problem reduce --participants h0_0_0_0,h0_0_1_0,h1_0_0_0,h1_0_1_2 "
                 "--target h1_0_0_1");
    return buf;
}

void tu_random_host_problem(ssched_problem_t *pb, ssched_problem_kind_t kind, const size_t *h,
                            size_t nh, size_t max_part)
{
    pb->kind = kind;
    if (kind == SSCHED_PROBLEM_SCATTER) {
        pb->n_sources = 1;
        pb->sources = malloc(sizeof(size_t));
        CU_ASSERT_PTR_NOT_NULL_FATAL(pb->sources);
        pb->sources[0] = h[tu_pick((unsigned)nh)];
        pb->targets = malloc(nh * sizeof(size_t));
        CU_ASSERT_PTR_NOT_NULL_FATAL(pb->targets);
        for (size_t i = 0; i < nh; i++)
            if (h[i] != pb->sources[0] && (tu_pick(3) || pb->n_targets == 0))
                pb->targets[pb->n_targets++] = h[i];
    } else if (kind == SSCHED_PROBLEM_GOSSIP) {
        pb->sources = malloc(nh * sizeof(size_t));
        pb->targets = malloc(nh * sizeof(size_t));
        CU_ASSERT_FATAL(pb->sources && pb->targets);
        for (size_t i = 0; i < nh; i++) {
            if (tu_pick(4) || pb->n_sources == 0)
                pb->sources[pb->n_sources++] = h[i];
            if (tu_pick(4) || pb->n_targets == 0)
                pb->targets[pb->n_targets++] = h[i];
        }
    } else {
        pb->participants = malloc(nh * sizeof(size_t));
        CU_ASSERT_PTR_NOT_NULL_FATAL(pb->participants);
        for (size_t i = 0; i < nh && pb->n_participants < max_part; i++)
            if (tu_pick(3) || nh - i <= 2 - pb->n_participants)
                pb->participants[pb->n_participants++] = h[i];
        pb->target = h[tu_pick((unsigned)nh)];
    }
}

void tu_small_tiers(ssched_platform_t *p, unsigned seed)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    P.seed = seed;
    P.wan = 2;
    P.man_per_wan = 1;
    P.lan_per_man = 1 + seed % 2;
    P.hosts_per_lan = 2;
    ssched_platform_init(p);
    ssched_error_t err;
    ssched_status_t st = ssched_gen_tiers(&P, p, &err);
    ssched_gen_tiers_params_free(&P);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  gen tiers: %s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(st, SSCHED_OK);
}

size_t tu_first_host(const ssched_platform_t *p)
{
    size_t host = 0;
    while (host < p->n_nodes && !p->has_w[host])
        host++;
    CU_ASSERT_FATAL(host < p->n_nodes);
    return host;
}

const char *tu_stream_checked(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, unsigned long K, const char *name,
                              ssched_unroll_figures_t *fig, const char *label)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    const char *path = tu_tmp_path(name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(ssched_write_unrolled_stream(f, p, pb, s, K, NULL, fig, &err), SSCHED_OK);
    fclose(f);
    ssched_check_report_t rep;
    CU_ASSERT_EQUAL(ssched_check_schedule_file(path, &rep, &err), SSCHED_OK);
    if (!rep.valid)
        fprintf(stderr, "\n  streamed %s K=%lu: %s\n", label, K, rep.violation);
    CU_ASSERT(rep.valid);
    return path;
}

/* The text a writer (status st) put in the memory stream f over *buf. */
static char *mem_result(FILE *f, char **buf, ssched_status_t st)
{
    if (fclose(f) != 0 || st != SSCHED_OK) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

char *tu_schedule_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_schedule_t *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    return f ? mem_result(f, &buf, ssched_write_schedule_json(f, p, pb, s, NULL)) : NULL;
}

char *tu_unrolled_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_schedule_t *s, const ssched_unrolled_t *u)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    return f ? mem_result(f, &buf, ssched_write_unrolled_json(f, p, pb, s, u, NULL)) : NULL;
}

void tu_node(ssched_platform_t *p, const char *name, const char *w)
{
    mpq_t q;
    mpq_init(q);
    if (w)
        ssched_rational_parse(q, w, NULL);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_node(p, name, w ? q : NULL, NULL, NULL), SSCHED_OK);
    mpq_clear(q);
}

void tu_edge(ssched_platform_t *p, size_t a, size_t b, const char *c)
{
    mpq_t q;
    mpq_init(q);
    ssched_rational_parse(q, c, NULL);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_add_edge(p, a, b, q, NULL), SSCHED_OK);
    mpq_clear(q);
}

void tu_link2(ssched_platform_t *p, size_t a, size_t b, const char *c)
{
    tu_edge(p, a, b, c);
    tu_edge(p, b, a, c);
}

void tu_complete(ssched_platform_t *p, size_t n, const char *w)
{
    ssched_platform_init(p);
    char name[24];
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "P%zu", i);
        tu_node(p, name, w);
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            tu_link2(p, a, b, "1");
    ssched_platform_finalize(p, NULL);
}
