/* Tests of the Tiers-like platform generator (include/ssched/gen.h) and of
 * `ssched gen tiers`: determinism, counts, structure (bidirectional links,
 * strong connectivity, w on hosts only, costs in range), GraphML round
 * trip, the --nodes presets, the shipped examples, and bad CLI input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/gen.h"
#include "ssched/platform.h"
#include "ssched/rational.h"
#include "test_util.h"

/* ---- helpers ------------------------------------------------------------ */

static void set_range(ssched_gen_range_t *r, const char *text)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_range_parse(r, text, &err), SSCHED_OK);
}

static void set_shape(ssched_gen_tiers_params_t *P, size_t W, size_t M, size_t L, size_t H)
{
    P->wan = W;
    P->man_per_wan = M;
    P->lan_per_man = L;
    P->hosts_per_lan = H;
}

/* Generate P and return the GraphML text (malloc'ed) or NULL. */
static char *generate_text(const ssched_gen_tiers_params_t *P)
{
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_init(&p);
    ssched_error_clear(&err);
    char *buf = NULL;
    size_t len = 0;
    if (ssched_gen_tiers(P, &p, &err) == SSCHED_OK) {
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            if (ssched_write_platform_graphml(f, &p, &err) != SSCHED_OK) {
                fclose(f);
                free(buf);
                buf = NULL;
            } else {
                fclose(f);
            }
        }
    } else {
        fprintf(stderr, "generate: %s\n", err.message);
    }
    ssched_platform_free(&p);
    return buf;
}

/* Node counts computed here independently of the library's formula. */
static size_t tree_plus(size_t n, size_t extra)
{
    if (n < 2)
        return 0;
    size_t free_pairs = n * (n - 1) / 2 - (n - 1);
    return n - 1 + (extra < free_pairs ? extra : free_pairs);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Level of a node from its name: 0 wan, 1 man, 2 lan switch, 3 host. */
static int level(const char *name)
{
    if (starts_with(name, "wan"))
        return 0;
    if (starts_with(name, "man"))
        return 1;
    if (starts_with(name, "lan"))
        return 2;
    if (name[0] == 'h')
        return 3;
    return -1;
}

/* Is q an allowed draw from r: inside [lo, hi] and either a bound or of
 * denominator <= max_den? */
static int allowed(const mpq_t q, const ssched_gen_range_t *r, unsigned long max_den)
{
    if (mpq_cmp(q, r->lo) < 0 || mpq_cmp(q, r->hi) > 0)
        return 0;
    return mpq_equal(q, r->lo) || mpq_equal(q, r->hi) ||
           mpz_cmp_ui(mpq_denref(q), max_den) <= 0;
}

/* Check every structural promise of gen.h on a generated platform. */
static void check_platform(const ssched_gen_tiers_params_t *P, const ssched_platform_t *p)
{
    size_t W = P->wan, M = P->man_per_wan, L = P->lan_per_man, H = P->hosts_per_lan;
    size_t nodes = W * (1 + M * (1 + L * (1 + H)));
    size_t links = tree_plus(W, P->wan_redundancy) +
                   (M ? W * (tree_plus(M, P->man_redundancy) + 1) : 0) + W * M * L * (1 + H);
    CU_ASSERT_EQUAL(p->n_nodes, nodes);
    CU_ASSERT_EQUAL(p->n_edges, 2 * links);
    size_t cn = 0, ce = 0;
    ssched_error_t err;
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_gen_tiers_counts(P, &cn, &ce, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(cn, nodes);
    CU_ASSERT_EQUAL(ce, 2 * links);

    /* Hosts and only hosts compute; their w lies in the w range. */
    size_t hosts = 0, per_level[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < p->n_nodes; i++) {
        int lv = level(p->names[i]);
        CU_ASSERT(lv >= 0);
        if (lv < 0)
            continue;
        per_level[lv]++;
        CU_ASSERT_EQUAL(p->has_w[i], lv == 3);
        if (lv == 3) {
            hosts++;
            CU_ASSERT(allowed(p->w[i], &P->w, P->max_den));
        }
    }
    CU_ASSERT_EQUAL(per_level[0], W);
    CU_ASSERT_EQUAL(per_level[1], W * M);
    CU_ASSERT_EQUAL(per_level[2], W * M * L);
    CU_ASSERT_EQUAL(hosts, W * M * L * H);

    /* Every link is bidirectional, and each cost comes from its level's range. */
    for (size_t e = 0; e < p->n_edges; e++) {
        size_t a = p->from[e], b = p->to[e];
        CU_ASSERT(a != b);
        CU_ASSERT(ssched_platform_edge_index(p, b, a) != (size_t)-1);
        int la = level(p->names[a]), lb = level(p->names[b]);
        int lo = la < lb ? la : lb, hi = la < lb ? lb : la;
        const ssched_gen_range_t *r = NULL;
        if (hi <= 1 && lo == 0)
            r = &P->c_wan; /* WAN-WAN, MAN gateway-WAN */
        else if (hi <= 2 && lo == 1)
            r = &P->c_man; /* MAN-MAN, LAN switch-MAN */
        else if (lo == 2 && hi == 3)
            r = &P->c_lan; /* switch-host */
        CU_ASSERT_PTR_NOT_NULL(r);
        if (r)
            CU_ASSERT(allowed(p->c[e], r, P->max_den));
        /* A host only talks to its own switch: h<x> <-> lan<x minus last>. */
        if (hi == 3) {
            const char *h = p->names[la == 3 ? a : b], *s = p->names[la == 3 ? b : a];
            const char *cut = strrchr(h, '_');
            CU_ASSERT(cut && strlen(s) == 3 + (size_t)(cut - h - 1) &&
                      !strncmp(s + 3, h + 1, (size_t)(cut - h - 1)));
        }
    }

    /* Strongly connected: everything reachable from node 0 both ways. */
    unsigned char *reach = malloc(p->n_nodes);
    for (int rev = 0; rev < 2; rev++) {
        CU_ASSERT_EQUAL(ssched_platform_reachable(p, 0, rev, reach, &err), SSCHED_OK);
        size_t count = 0;
        for (size_t i = 0; i < p->n_nodes; i++)
            count += reach[i] != 0;
        CU_ASSERT_EQUAL(count, p->n_nodes);
    }
    free(reach);
}

static void generate_and_check(const ssched_gen_tiers_params_t *P)
{
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_init(&p);
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(P, &p, &err), SSCHED_OK);
    check_platform(P, &p);
    ssched_platform_free(&p);
}

/* ---- library tests -------------------------------------------------------- */

static void test_same_seed_same_bytes(void)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    P.seed = 12345;
    char *a = generate_text(&P), *b = generate_text(&P);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    ssched_gen_tiers_params_free(&P);
}

static void test_different_seeds_differ(void)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    char *text[4];
    uint64_t seeds[4] = {1, 2, 3, UINT64_MAX};
    for (int i = 0; i < 4; i++) {
        P.seed = seeds[i];
        text[i] = generate_text(&P);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text[i]);
    }
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            CU_ASSERT(strcmp(text[i], text[j]) != 0);
    for (int i = 0; i < 4; i++)
        free(text[i]);
    ssched_gen_tiers_params_free(&P);
}

/* Changing one level's range must not re-draw the others (separate streams). */
static void test_streams_independent(void)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    ssched_platform_t a, b;
    ssched_error_t err;
    ssched_platform_init(&a);
    ssched_platform_init(&b);
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&P, &a, &err), SSCHED_OK);
    set_range(&P.c_wan, "100:200");
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&P, &b, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(a.n_edges, b.n_edges);
    size_t same = 0, changed = 0;
    for (size_t e = 0; e < a.n_edges; e++) {
        int wan_edge = level(a.names[a.from[e]]) == 0 || level(a.names[a.to[e]]) == 0;
        if (wan_edge)
            changed += !mpq_equal(a.c[e], b.c[e]);
        else
            same += mpq_equal(a.c[e], b.c[e]);
    }
    CU_ASSERT(changed > 0);
    size_t non_wan = 0;
    for (size_t e = 0; e < a.n_edges; e++)
        non_wan += !(level(a.names[a.from[e]]) == 0 || level(a.names[a.to[e]]) == 0);
    CU_ASSERT_EQUAL(same, non_wan);
    for (size_t i = 0; i < a.n_nodes; i++)
        CU_ASSERT(a.has_w[i] == b.has_w[i] && mpq_equal(a.w[i], b.w[i]));
    ssched_platform_free(&a);
    ssched_platform_free(&b);
    ssched_gen_tiers_params_free(&P);
}

static void test_structure_many_shapes(void)
{
    static const size_t shapes[][6] = {
        /* W, M, L, H, wan_redundancy, man_redundancy */
        {1, 0, 0, 0, 0, 0},  {1, 1, 1, 1, 5, 5},   {2, 1, 2, 3, 1, 1},  {4, 2, 2, 3, 2, 1},
        {5, 3, 2, 0, 100, 100}, {3, 0, 4, 4, 1, 1}, {6, 4, 0, 2, 3, 2}, {7, 5, 3, 4, 4, 3},
        {10, 1, 1, 1, 0, 0}, {2, 6, 1, 2, 0, 15}};
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        set_shape(&P, shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]);
        P.wan_redundancy = shapes[k][4];
        P.man_redundancy = shapes[k][5];
        for (uint64_t seed = 0; seed < 3; seed++) {
            P.seed = seed * 977 + k;
            generate_and_check(&P);
        }
    }
    ssched_gen_tiers_params_free(&P);
}

static void test_cost_sets(void)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    set_shape(&P, 3, 2, 2, 3);
    /* A range with no fraction of denominator <= 10 inside: only the bounds. */
    set_range(&P.c_lan, "1/13:1/12");
    /* A single value. */
    set_range(&P.c_man, "3");
    /* Integers only. */
    P.max_den = 1;
    set_range(&P.c_wan, "2:5");
    set_range(&P.w, "1/3:7/2"); /* integers 1..3 plus the bounds 1/3 and 7/2 */
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_init(&p);
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&P, &p, &err), SSCHED_OK);
    check_platform(&P, &p);
    int seen_lo = 0, seen_hi = 0;
    for (size_t e = 0; e < p.n_edges; e++) {
        int la = level(p.names[p.from[e]]), lb = level(p.names[p.to[e]]);
        int lo = la < lb ? la : lb;
        if (lo == 2) { /* switch-host */
            seen_lo |= tu_mpq_equals(p.c[e], "1/13");
            seen_hi |= tu_mpq_equals(p.c[e], "1/12");
            CU_ASSERT(tu_mpq_equals(p.c[e], "1/13") || tu_mpq_equals(p.c[e], "1/12"));
        } else if (lo == 1) { /* MAN-MAN, switch-MAN */
            CU_ASSERT(tu_mpq_equals(p.c[e], "3"));
        } else { /* WAN range with max_den 1: integers */
            CU_ASSERT(mpz_cmp_ui(mpq_denref(p.c[e]), 1) == 0);
        }
    }
    CU_ASSERT(seen_lo && seen_hi);
    for (size_t i = 0; i < p.n_nodes; i++)
        if (p.has_w[i])
            CU_ASSERT(mpz_cmp_ui(mpq_denref(p.w[i]), 1) == 0 || tu_mpq_equals(p.w[i], "1/3") ||
                      tu_mpq_equals(p.w[i], "7/2"));
    ssched_platform_free(&p);
    ssched_gen_tiers_params_free(&P);
}

static void test_range_parse(void)
{
    ssched_gen_range_t r;
    ssched_error_t err;
    mpq_inits(r.lo, r.hi, NULL);
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_gen_range_parse(&r, "1/2:3", &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(r.lo, "1/2") && tu_mpq_equals(r.hi, "3"));
    CU_ASSERT_EQUAL(ssched_gen_range_parse(&r, "0.25:2.5e1", &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(r.lo, "1/4") && tu_mpq_equals(r.hi, "25"));
    CU_ASSERT_EQUAL(ssched_gen_range_parse(&r, "7/3", &err), SSCHED_OK);
    CU_ASSERT(tu_mpq_equals(r.lo, "7/3") && tu_mpq_equals(r.hi, "7/3"));
    const char *bad[] = {"3:1", "0:1", "-1:2", "x", "1:", ":2", "1:2:3", "1/0:2", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ssched_error_clear(&err);
        CU_ASSERT_EQUAL(ssched_gen_range_parse(&r, bad[i], &err), SSCHED_EINPUT);
        CU_ASSERT(err.message[0] != '\0' && strchr(err.message, '\n') == NULL);
    }
    /* A failed parse leaves the range unchanged. */
    CU_ASSERT(tu_mpq_equals(r.lo, "7/3") && tu_mpq_equals(r.hi, "7/3"));
    mpq_clears(r.lo, r.hi, NULL);
}

static void test_invalid_params(void)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    ssched_platform_t p;
    ssched_error_t err;
    ssched_platform_init(&p);
    /* Each broken field is rejected with EINPUT and the output untouched. */
    for (int k = 0; k < 6; k++) {
        ssched_gen_tiers_params_free(&P);
        ssched_gen_tiers_params_init(&P);
        switch (k) {
        case 0: P.wan = 0; break;
        case 1: set_shape(&P, 100, 100, 100, 100); break;
        case 2: P.max_den = 0; break;
        case 3: mpq_set_si(P.c_lan.lo, 0, 1); break;
        case 4: mpq_set_si(P.w.lo, 9, 1); break; /* lo > hi */
        case 5: set_range(&P.c_wan, "1:100000"); P.max_den = 1000; break; /* too wide */
        }
        ssched_error_clear(&err);
        CU_ASSERT_EQUAL(ssched_gen_tiers(&P, &p, &err), SSCHED_EINPUT);
        CU_ASSERT(err.message[0] != '\0');
        CU_ASSERT_EQUAL(p.n_nodes, 0);
    }
    ssched_gen_tiers_params_free(&P);
    ssched_platform_free(&p);
}

/* Generated GraphML loads back (lead's loader) into the same platform. */
static void test_roundtrip(void)
{
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    P.seed = 99;
    set_shape(&P, 3, 2, 3, 4);
    ssched_platform_t a, b;
    ssched_error_t err;
    ssched_platform_init(&a);
    ssched_platform_init(&b);
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers(&P, &a, &err), SSCHED_OK);
    const char *path = tu_tmp_path("roundtrip.graphml");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(ssched_write_platform_graphml(f, &a, &err), SSCHED_OK);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(ssched_platform_load_graphml(&b, path, &err), SSCHED_OK);
    CU_ASSERT_EQUAL_FATAL(a.n_nodes, b.n_nodes);
    CU_ASSERT_EQUAL_FATAL(a.n_edges, b.n_edges);
    for (size_t i = 0; i < a.n_nodes; i++) {
        CU_ASSERT_STRING_EQUAL(a.names[i], b.names[i]);
        CU_ASSERT_EQUAL(a.has_w[i], b.has_w[i]);
        CU_ASSERT(mpq_equal(a.w[i], b.w[i]));
    }
    for (size_t e = 0; e < a.n_edges; e++) {
        CU_ASSERT_EQUAL(a.from[e], b.from[e]);
        CU_ASSERT_EQUAL(a.to[e], b.to[e]);
        CU_ASSERT(mpq_equal(a.c[e], b.c[e]));
    }
    check_platform(&P, &b);
    ssched_platform_free(&a);
    ssched_platform_free(&b);
    ssched_gen_tiers_params_free(&P);
}

static void test_shape_presets(void)
{
    static const size_t presets[][5] = {
        {20, 2, 1, 2, 3}, {46, 2, 2, 2, 4}, {66, 3, 3, 2, 2},
        {99, 3, 2, 3, 4}, {300, 3, 3, 4, 7}, {500, 4, 4, 5, 5}};
    ssched_gen_tiers_params_t P;
    ssched_gen_tiers_params_init(&P);
    ssched_error_t err;
    ssched_error_clear(&err);
    for (size_t k = 0; k < sizeof presets / sizeof *presets; k++) {
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers_shape_for_nodes(&P, presets[k][0], &err), SSCHED_OK);
        CU_ASSERT_EQUAL(P.wan, presets[k][1]);
        CU_ASSERT_EQUAL(P.man_per_wan, presets[k][2]);
        CU_ASSERT_EQUAL(P.lan_per_man, presets[k][3]);
        CU_ASSERT_EQUAL(P.hosts_per_lan, presets[k][4]);
        size_t n;
        CU_ASSERT_EQUAL(ssched_gen_tiers_counts(&P, &n, NULL, &err), SSCHED_OK);
        CU_ASSERT_EQUAL(n, presets[k][0]);
    }
    /* Every size gets a balanced shape with W >= 2 close to the request. */
    for (size_t N = 1; N <= 1200; N++) {
        CU_ASSERT_EQUAL_FATAL(ssched_gen_tiers_shape_for_nodes(&P, N, &err), SSCHED_OK);
        size_t c[4] = {P.wan, P.man_per_wan, P.lan_per_man, P.hosts_per_lan}, lo = c[0], hi = c[0];
        for (int i = 1; i < 4; i++) {
            lo = c[i] < lo ? c[i] : lo;
            hi = c[i] > hi ? c[i] : hi;
        }
        CU_ASSERT(P.wan >= 2 && lo >= 1 && hi - lo <= 4);
        size_t n;
        CU_ASSERT_EQUAL(ssched_gen_tiers_counts(&P, &n, NULL, &err), SSCHED_OK);
        if (N >= 20)
            CU_ASSERT(10 * (n > N ? n - N : N - n) <= N);
    }
    ssched_error_clear(&err);
    CU_ASSERT_EQUAL(ssched_gen_tiers_shape_for_nodes(&P, 0, &err), SSCHED_EINPUT);
    CU_ASSERT_EQUAL(ssched_gen_tiers_shape_for_nodes(&P, SSCHED_GEN_MAX_NODES + 1, &err),
                    SSCHED_EINPUT);
    ssched_gen_tiers_params_free(&P);
}

/* ---- CLI tests ------------------------------------------------------------ */

static void test_cli_deterministic(void)
{
    tu_run_t r;
    const char *a = tu_tmp_path("cli_a.graphml"), *b = tu_tmp_path("cli_b.graphml");
    CU_ASSERT_EQUAL(tu_run(&r, "gen tiers --nodes 46 --seed 7 -o '%s'", a), 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    CU_ASSERT_STRING_EQUAL(r.out, "");
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "gen tiers --seed 7 --nodes 46"), 0); /* stdout */
    char *ta = tu_read_file(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ta);
    CU_ASSERT_STRING_EQUAL(ta, r.out);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "gen tiers --nodes 46 --seed 8 --output '%s'", b), 0);
    tu_run_free(&r);
    char *tb = tu_read_file(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tb);
    CU_ASSERT(strcmp(ta, tb) != 0);

    /* The CLI is the library: same bytes as ssched_gen_tiers + write. */
    ssched_gen_tiers_params_t P;
    ssched_error_t err;
    ssched_gen_tiers_params_init(&P);
    ssched_error_clear(&err);
    P.seed = 7;
    CU_ASSERT_EQUAL(ssched_gen_tiers_shape_for_nodes(&P, 46, &err), SSCHED_OK);
    char *tl = generate_text(&P);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tl);
    CU_ASSERT_STRING_EQUAL(ta, tl);

    /* And it loads back with 46 nodes. */
    ssched_platform_t p;
    ssched_platform_init(&p);
    CU_ASSERT_EQUAL(ssched_platform_load_graphml(&p, a, &err), SSCHED_OK);
    CU_ASSERT_EQUAL(p.n_nodes, 46);
    check_platform(&P, &p);
    ssched_platform_free(&p);
    free(ta);
    free(tb);
    free(tl);
    ssched_gen_tiers_params_free(&P);

    CU_ASSERT_EQUAL(tu_run(&r, "gen tiers --nodes 300 --counts"), 0);
    CU_ASSERT(strncmp(r.out, "nodes 300 edges ", 16) == 0);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "gen tiers --help"), 0);
    CU_ASSERT(strstr(r.out, "--hosts-per-lan") != NULL);
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "gen --help"), 0);
    CU_ASSERT(strstr(r.out, "tiers") != NULL);
    tu_run_free(&r);
}

static void test_cli_bad_input(void)
{
    static const char *bad[] = {
        "gen",
        "gen foo",
        "gen tiers --bogus",
        "gen tiers -x",
        "gen tiers --wan",
        "gen tiers --wan -3",
        "gen tiers --hosts-per-lan -1",
        "gen tiers --man-per-wan x",
        "gen tiers --lan-per-man 2.5",
        "gen tiers --wan 0",
        "gen tiers --c-wan 3:1",
        "gen tiers --c-man 0:1",
        "gen tiers --c-lan abc",
        "gen tiers --w-range 1:2:3",
        "gen tiers --seed abc",
        "gen tiers --seed -1",
        "gen tiers --seed 18446744073709551616",
        "gen tiers --max-den 0",
        "gen tiers --nodes 0",
        "gen tiers --nodes 46 --wan 2",
        "gen tiers --wan 100 --man-per-wan 100 --lan-per-man 100",
        "gen tiers --c-wan 1:100000 --max-den 1000",
        "gen tiers stray",
        "gen tiers -o /nonexistent-dir/x.graphml",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tu_run_t r;
        int st = tu_run(&r, "%s", bad[i]);
        if (st != 2 || tu_count_lines(r.err) != 1 || r.out[0] != '\0')
            fprintf(stderr, "\n  '%s' -> status %d, stderr: %s", bad[i], st, r.err);
        CU_ASSERT_EQUAL(st, 2);
        CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
        CU_ASSERT_STRING_EQUAL(r.out, "");
        tu_run_free(&r);
    }
}

/* The shipped examples are exactly what the commands in examples/README.md
 * produce, and the hand-written figures load with the expected shape. */
static void test_examples(void)
{
    static const char *cases[][2] = {
        {"tiers-small.graphml",
         "gen tiers --seed 1 --wan 2 --man-per-wan 1 --lan-per-man 2 --hosts-per-lan 3"},
        {"tiers-46.graphml", "gen tiers --seed 46 --nodes 46"},
        {"tiers-99.graphml", "gen tiers --seed 99 --nodes 99"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/examples/%s", SSCHED_SOURCE_DIR, cases[k][0]);
        char *shipped = tu_read_file(path);
        CU_ASSERT_PTR_NOT_NULL(shipped);
        tu_run_t r;
        CU_ASSERT_EQUAL(tu_run(&r, "%s", cases[k][1]), 0);
        if (shipped)
            CU_ASSERT_STRING_EQUAL(shipped, r.out);
        tu_run_free(&r);
        free(shipped);
    }
    static const struct {
        const char *file;
        size_t nodes, edges, with_w;
    } figs[] = {{"fig2.graphml", 5, 5, 0}, {"fig6.graphml", 3, 6, 3}};
    for (size_t k = 0; k < 2; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/examples/%s", SSCHED_SOURCE_DIR, figs[k].file);
        ssched_platform_t p;
        ssched_error_t err;
        ssched_platform_init(&p);
        ssched_error_clear(&err);
        CU_ASSERT_EQUAL(ssched_platform_load_graphml(&p, path, &err), SSCHED_OK);
        CU_ASSERT_EQUAL(p.n_nodes, figs[k].nodes);
        CU_ASSERT_EQUAL(p.n_edges, figs[k].edges);
        size_t with_w = 0;
        for (size_t i = 0; i < p.n_nodes; i++)
            with_w += p.has_w[i] != 0;
        CU_ASSERT_EQUAL(with_w, figs[k].with_w);
        ssched_platform_free(&p);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"same seed gives the same bytes", test_same_seed_same_bytes},
        {"different seeds differ", test_different_seeds_differ},
        {"cost streams are independent", test_streams_independent},
        {"structure over many shapes", test_structure_many_shapes},
        {"cost value sets", test_cost_sets},
        {"range parsing", test_range_parse},
        {"invalid parameters", test_invalid_params},
        {"GraphML round trip", test_roundtrip},
        {"--nodes presets", test_shape_presets},
        {"CLI determinism and output", test_cli_deterministic},
        {"CLI bad input", test_cli_bad_input},
        {"shipped examples", test_examples},
        {NULL, NULL}};
    return tu_main("gen", tests);
}
