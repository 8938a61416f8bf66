/* Routed-model schedules (docs/model.md, routed schedules) on small hand-made platforms, built
 * with the library (ssched_platform_make_routed / add_link /
 * add_routed_edge), then solved, scheduled and unrolled.
 *
 * What is verified here, by this file's own few lines and not by the
 * builder's or the checker's code:
 *  - the periodic schedule is one slot [0, period] whose SHARED link
 *    loads (sum of amount * size * link_c over the transfers crossing the
 *    link) and FATPIPE per-transfer loads fit the period;
 *  - every unrolled transfer lasts l(e) + batch * length * size * c(e);
 *  - bottleneck-rate sharing (docs/model.md, "Routed schedules"): at every instant, on every
 *    SHARED link L, the transfers whose bandwidth phase [start + l(e), end)
 *    holds the instant take link_c(L) / c(e) each, at most 1 in all (a
 *    FATPIPE is never held: two flows through one do overlap); flows do
 *    share a link 4 times faster than their bottleneck, and the checker
 *    refuses a file forged so that the shares sum to 2;
 *  - with one-port hosts, no two bandwidth phases overlap on a host's
 *    out-port or in-port;
 *  - the JSON writers' "model", "hosts", "links" and edge "route" keys, read
 *    back by ssched_unrolled_read_file into the same routed platform, and
 *    the independent checker finds the files valid. */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

/* Hosts A, B, C, D (w = 1). */
static void hosts(ssched_platform_t *p)
{
    ssched_error_t err;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    const char *names[] = {"A", "B", "C", "D"};
    for (size_t i = 0; i < 4; i++) {
        size_t idx;
        CU_ASSERT_FATAL(ssched_platform_add_node(p, names[i], one, &idx, &err) == SSCHED_OK);
    }
    mpq_clear(one);
    CU_ASSERT_FATAL(ssched_platform_make_routed(p, &err) == SSCHED_OK);
}

static size_t link(ssched_platform_t *p, const char *name, const char *c, const char *lat,
                   ssched_link_sharing_t sh)
{
    ssched_error_t err;
    mpq_t qc, ql;
    mpq_inits(qc, ql, NULL);
    mpq_set_str(qc, c, 10);
    mpq_set_str(ql, lat, 10);
    mpq_canonicalize(qc);
    mpq_canonicalize(ql);
    size_t idx = 0;
    CU_ASSERT_FATAL(ssched_platform_add_link(p, name, qc, ql, sh, &idx, &err) == SSCHED_OK);
    mpq_clears(qc, ql, NULL);
    return idx;
}

static void edge(ssched_platform_t *p, size_t a, size_t b, const size_t *links, size_t n)
{
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_platform_add_routed_edge(p, a, b, links, n, &err) == SSCHED_OK);
}

/* Platform kinds:
 *  0 "bus": A -> B over [bus, b], A -> C over [bus, c], bus SHARED c = 1
 *    latency 1/10, b and c SHARED c = 1/2 latency 1/20: the two flows of a
 *    scatter share the bus;
 *  1 the same with the bus FATPIPE, and B -> D's only link d FATPIPE;
 *  2 "duplex": a SPLITDUPLEX pair L_UP, L_DOWN (two SHARED links) between
 *    A and B, and B <-> C over their own links; plus a D reached from A
 *    through L_UP then a link of its own (so L_UP carries two routes);
 *  3 "backbone": X -> C over [xu, bb, cd], X -> D over [xu, bb, dd] for X
 *    = A, B, private links c = 1, the backbone bb SHARED c = 1/4: each flow
 *    takes 1/4 of bb, so up to 4 cross it at once. */
static void make(ssched_platform_t *p, int kind, int one_port)
{
    ssched_error_t err;
    ssched_platform_init(p);
    hosts(p);
    p->routes->hosts_one_port = one_port;
    if (kind <= 1) {
        size_t bus = link(p, "bus", "1", "1/10", kind ? SSCHED_LINK_FATPIPE : SSCHED_LINK_SHARED);
        size_t lb = link(p, "b", "1/2", "1/20", SSCHED_LINK_SHARED);
        size_t lc = link(p, "c", "1/2", "1/20", SSCHED_LINK_SHARED);
        size_t ld = link(p, "d", "3", "1/10", kind ? SSCHED_LINK_FATPIPE : SSCHED_LINK_SHARED);
        size_t r1[] = {bus, lb}, r2[] = {bus, lc}, r3[] = {ld};
        edge(p, 0, 1, r1, 2);
        edge(p, 0, 2, r2, 2);
        edge(p, 1, 3, r3, 1);
    } else if (kind == 3) {
        size_t bb = link(p, "bb", "1/4", "1/100", SSCHED_LINK_SHARED);
        size_t au = link(p, "au", "1", "1/50", SSCHED_LINK_SHARED);
        size_t bu = link(p, "bu", "1", "1/50", SSCHED_LINK_SHARED);
        size_t cd = link(p, "cd", "1", "1/50", SSCHED_LINK_SHARED);
        size_t dd = link(p, "dd", "1", "1/50", SSCHED_LINK_SHARED);
        size_t ac[] = {au, bb, cd}, ad[] = {au, bb, dd}, bc[] = {bu, bb, cd}, bd[] = {bu, bb, dd};
        edge(p, 0, 2, ac, 3);
        edge(p, 0, 3, ad, 3);
        edge(p, 1, 2, bc, 3);
        edge(p, 1, 3, bd, 3);
    } else {
        size_t up = link(p, "L_UP", "1", "1/100", SSCHED_LINK_SHARED);
        size_t down = link(p, "L_DOWN", "1", "1/100", SSCHED_LINK_SHARED);
        size_t bc = link(p, "bc", "2", "1/50", SSCHED_LINK_SHARED);
        size_t cb = link(p, "cb", "2", "1/50", SSCHED_LINK_SHARED);
        size_t dd = link(p, "dd", "1/3", "0", SSCHED_LINK_SHARED);
        size_t ab[] = {up}, ba[] = {down}, r_bc[] = {bc}, r_cb[] = {cb}, ad[] = {up, dd};
        edge(p, 0, 1, ab, 1);
        edge(p, 1, 0, ba, 1);
        edge(p, 1, 2, r_bc, 1);
        edge(p, 2, 1, r_cb, 1);
        edge(p, 0, 3, ad, 2);
    }
    CU_ASSERT_FATAL(ssched_platform_finalize(p, &err) == SSCHED_OK);
}

static int crosses(const ssched_platform_t *p, size_t e, size_t L)
{
    for (size_t k = p->routes->route_start[e]; k < p->routes->route_start[e + 1]; k++)
        if (p->routes->route_links[k] == L)
            return 1;
    return 0;
}

/* The periodic schedule: one slot [0, period], every link within it. */
static void check_periodic(const ssched_platform_t *p, const ssched_schedule_t *s)
{
    CU_ASSERT_EQUAL_FATAL(s->n_slots, 1);
    const ssched_slot_t *sl = &s->slots[0];
    CU_ASSERT(mpq_sgn(sl->start) == 0);
    CU_ASSERT(mpq_equal(sl->end, s->period));
    mpq_t load, q;
    mpq_inits(load, q, NULL);
    for (size_t L = 0; L < p->routes->n_links; L++) {
        mpq_set_ui(load, 0, 1);
        for (size_t t = 0; t < sl->n_transfers; t++) {
            if (!crosses(p, sl->transfers[t].edge, L))
                continue;
            mpq_mul(q, sl->transfers[t].amount, s->size);
            mpq_mul(q, q, p->routes->link_c[L]);
            if (p->routes->sharing[L] == SSCHED_LINK_FATPIPE)
                CU_ASSERT(mpq_cmp(q, s->period) <= 0);
            mpq_add(load, load, q);
        }
        if (p->routes->sharing[L] == SSCHED_LINK_SHARED)
            CU_ASSERT(mpq_cmp(load, s->period) <= 0);
    }
    mpq_clears(load, q, NULL);
}

/* Bandwidth phase of transfer x: [start + l(e), end). */
typedef struct {
    mpq_t a, b;
} phase_t;

static int overlap(const phase_t *x, const phase_t *y)
{
    return mpq_cmp(x->a, y->b) < 0 && mpq_cmp(y->a, x->b) < 0;
}

/* Pairs of bandwidth phases overlapping on a SHARED link (allowed while
 * the shares fit), counted by check_unrolled. */
static size_t g_shared_overlaps;

/* Returns how many pairs of transfers overlap on FATPIPE links (allowed). */
static size_t check_unrolled(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const ssched_unrolled_t *u)
{
    size_t n = u->n_transfers, fat_overlaps = 0;
    phase_t *ph = malloc(n * sizeof *ph);
    CU_ASSERT_FATAL(ph != NULL);
    mpq_t d;
    mpq_init(d);
    for (size_t k = 0; k < n; k++) {
        const ssched_timed_transfer_t *t = &u->transfers[k];
        mpq_inits(ph[k].a, ph[k].b, NULL);
        mpq_add(ph[k].a, t->start, p->l[t->edge]);
        mpq_set(ph[k].b, t->end);
        /* end = start + l + batch * length * size * c */
        mpq_set_ui(d, t->batch ? t->batch : 1, 1);
        mpq_mul(d, d, t->piece_length);
        mpq_mul(d, d, pb->size);
        mpq_mul(d, d, p->c[t->edge]);
        mpq_add(d, d, ph[k].a);
        CU_ASSERT(mpq_equal(d, t->end));
    }
    const ssched_routes_t *rt = p->routes;
    for (size_t x = 0; x < n; x++)
        for (size_t y = x + 1; y < n; y++) {
            if (!overlap(&ph[x], &ph[y]))
                continue;
            size_t ex = u->transfers[x].edge, ey = u->transfers[y].edge;
            for (size_t L = 0; L < rt->n_links; L++)
                if (crosses(p, ex, L) && crosses(p, ey, L)) {
                    if (rt->sharing[L] == SSCHED_LINK_SHARED)
                        g_shared_overlaps++;
                    else
                        fat_overlaps++;
                }
            if (rt->hosts_one_port && (p->from[ex] == p->from[ey] || p->to[ex] == p->to[ey])) {
                CU_FAIL("two bandwidth phases overlap on a one-port host's port");
            }
        }
    /* the shares on each SHARED link, at each phase start (the sum only
     * rises at a start, so its maximum is at one of them) */
    mpq_t sum, f;
    mpq_inits(sum, f, NULL);
    for (size_t L = 0; L < rt->n_links; L++) {
        if (rt->sharing[L] != SSCHED_LINK_SHARED)
            continue;
        for (size_t x = 0; x < n; x++) {
            if (!crosses(p, u->transfers[x].edge, L) || mpq_cmp(ph[x].a, ph[x].b) >= 0)
                continue;
            mpq_set_ui(sum, 0, 1);
            for (size_t y = 0; y < n; y++) {
                size_t ey = u->transfers[y].edge;
                if (!crosses(p, ey, L) || mpq_cmp(ph[y].a, ph[x].a) > 0 ||
                    mpq_cmp(ph[y].b, ph[x].a) <= 0)
                    continue;
                mpq_div(f, rt->link_c[L], p->c[ey]);
                mpq_add(sum, sum, f);
            }
            if (mpq_cmp_ui(sum, 1, 1) > 0) {
                CU_FAIL("the shares on a SHARED link sum to more than 1");
            }
        }
    }
    mpq_clears(sum, f, NULL);
    for (size_t k = 0; k < n; k++)
        mpq_clears(ph[k].a, ph[k].b, NULL);
    mpq_clear(d);
    free(ph);
    return fat_overlaps;
}

/* text with the first `from` replaced by `to` (malloc'ed), or NULL. */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    size_t a = (size_t)(at - text), nf = strlen(from), nt = strlen(to);
    char *out = malloc(strlen(text) - nf + nt + 1);
    if (!out)
        return NULL;
    memcpy(out, text, a);
    memcpy(out + a, to, nt);
    strcpy(out + a + nt, at + nf);
    return out;
}

/* The reader refuses malformed routed platforms (EINPUT, no leak). */
static void bad_reads(const char *text)
{
    static const char *const edits[][2] = {
        {"\"model\": \"routed\"", "\"model\": \"graph\""},
        {"\"hosts\": \"", "\"hosts\": \"x"},
        {"\"route\": [", "\"route\": [99, "},
        {"\"route\": [", "\"route\": [0, 0, "},
        {"\"sharing\": \"", "\"sharing\": \"x"},
        {"\"route\": [", "\"c\": \"7/3\", \"route\": ["},
    };
    for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
        char *t = replace(text, edits[k][0], edits[k][1]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        const char *path = tu_tmp_path("routed_bad.json");
        CU_ASSERT_FATAL(tu_write_file(path, t) == 0);
        free(t);
        ssched_platform_t q;
        ssched_problem_t qb;
        ssched_unrolled_t qu;
        ssched_error_t err;
        ssched_platform_init(&q);
        ssched_problem_init(&qb);
        ssched_unrolled_init(&qu);
        ssched_status_t st = ssched_unrolled_read_file(path, &q, &qb, &qu, &err);
        if (st != SSCHED_EINPUT)
            fprintf(stderr, "\n  edit %zu: status %d\n", k, (int)st);
        CU_ASSERT(st == SSCHED_EINPUT);
        ssched_unrolled_free(&qu);
        ssched_problem_free(&qb);
        ssched_platform_free(&q);
    }
}

/* The files: written with the routed keys, read back the same, valid. */
static void check_files(const ssched_platform_t *p, const ssched_problem_t *pb,
                        const ssched_schedule_t *per, const ssched_schedule_t *s,
                        const ssched_unrolled_t *u)
{
    char why[512];
    char *text = tu_schedule_json(p, pb, per);
    CU_ASSERT_FATAL(text != NULL);
    CU_ASSERT(strstr(text, "\"model\": \"routed\"") != NULL);
    CU_ASSERT(strstr(text, "\"route\"") != NULL);
    int v = tu_check_text(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  periodic: %s\n", why);
    CU_ASSERT(v == 1);
    free(text);
    text = tu_unrolled_json(p, pb, s, u);
    CU_ASSERT_FATAL(text != NULL);
    CU_ASSERT(strstr(text, p->routes->hosts_one_port ? "\"hosts\": \"one-port\""
                                                     : "\"hosts\": \"multi-port\"") != NULL);
    v = tu_check_text(text, why, sizeof why);
    if (v != 1)
        fprintf(stderr, "\n  unrolled: %s\n", why);
    CU_ASSERT(v == 1);
    const char *path = tu_tmp_path("routed_unrolled.json");
    bad_reads(text);
    CU_ASSERT_FATAL(tu_write_file(path, text) == 0);
    free(text);
    ssched_platform_t q;
    ssched_problem_t qb;
    ssched_unrolled_t qu;
    ssched_error_t err;
    ssched_platform_init(&q);
    ssched_problem_init(&qb);
    ssched_unrolled_init(&qu);
    ssched_status_t st = ssched_unrolled_read_file(path, &q, &qb, &qu, &err);
    if (st != SSCHED_OK)
        fprintf(stderr, "\n  read back: %s\n", err.message);
    CU_ASSERT_FATAL(st == SSCHED_OK);
    CU_ASSERT_FATAL(q.routes != NULL);
    CU_ASSERT_EQUAL(q.routes->n_links, p->routes->n_links);
    CU_ASSERT_EQUAL(q.routes->hosts_one_port, p->routes->hosts_one_port);
    CU_ASSERT_EQUAL_FATAL(q.n_edges, p->n_edges);
    for (size_t e = 0; e < p->n_edges; e++) {
        CU_ASSERT(mpq_equal(q.c[e], p->c[e]) && mpq_equal(q.l[e], p->l[e]));
        CU_ASSERT(q.routes->route_start[e + 1] - q.routes->route_start[e] ==
                  p->routes->route_start[e + 1] - p->routes->route_start[e]);
    }
    for (size_t L = 0; L < p->routes->n_links; L++) {
        CU_ASSERT(!strcmp(q.routes->link_names[L], p->routes->link_names[L]));
        CU_ASSERT(q.routes->sharing[L] == p->routes->sharing[L]);
        CU_ASSERT(mpq_equal(q.routes->link_c[L], p->routes->link_c[L]));
    }
    ssched_unrolled_free(&qu);
    ssched_problem_free(&qb);
    ssched_platform_free(&q);
}

/* Solve, schedule, unroll K operations; run every check.  Returns the
 * FATPIPE overlaps seen; *makespan gets the unrolled makespan. */
static size_t run(const ssched_platform_t *p, ssched_problem_t *pb, size_t K, int no_split,
                  const char *tp, mpq_t makespan)
{
    ssched_error_t err;
    ssched_steady_t st;
    ssched_schedule_t per, s;
    ssched_unrolled_t u;
    ssched_steady_init(&st);
    ssched_schedule_init(&per);
    ssched_schedule_init(&s);
    ssched_unrolled_init(&u);
    CU_ASSERT_FATAL(ssched_steady_solve(p, pb, NULL, &st, &err) == SSCHED_OK);
    if (tp)
        CU_ASSERT(tu_mpq_equals(st.throughput, tp));
    CU_ASSERT_FATAL(ssched_schedule_build(p, pb, &st, NULL, &per, &err) == SSCHED_OK);
    check_periodic(p, &per);
    tu_unroll_planned(p, pb, &st, K, no_split, &s, &u);
    size_t fat = check_unrolled(p, pb, &u);
    /* K / TP <= makespan */
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, K, 1);
    mpq_div(q, q, st.throughput);
    CU_ASSERT(mpq_cmp(q, u.fig.makespan) <= 0);
    mpq_clear(q);
    mpq_set(makespan, u.fig.makespan);
    check_files(p, pb, &per, &s, &u);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_schedule_free(&per);
    ssched_steady_free(&st);
    return fat;
}

/* Two flows sharing a SHARED bus: TP = 1/2 (1 per bus time unit, two
 * messages per operation); FATPIPE: each flow alone on the bus, TP = 1
 * (then links b, c of c = 1/2 and the bus's own cap 1 bind each flow),
 * and the flows overlap on the bus in the unrolled schedule. */
static void test_bus(void)
{
    mpq_t m_shared, m_fat;
    mpq_inits(m_shared, m_fat, NULL);
    for (int kind = 0; kind < 2; kind++) {
        ssched_platform_t p;
        ssched_problem_t pb;
        ssched_error_t err;
        make(&p, kind, 0);
        ssched_problem_init(&pb);
        CU_ASSERT_FATAL(ssched_problem_set_scatter(&pb, &p, "A", "B,C", &err) == SSCHED_OK);
        size_t fat = run(&p, &pb, 8, 0, kind ? "1" : "1/2", kind ? m_fat : m_shared);
        CU_ASSERT(kind ? fat > 0 : fat == 0); /* a FATPIPE is not held */
        ssched_problem_free(&pb);
        /* B -> D: a route of FATPIPE links only (kind 1).  The LP caps the
         * edge's flow (TP = 1/3), so its messages must not all run at once:
         * run() checks K / TP <= makespan */
        ssched_problem_init(&pb);
        CU_ASSERT_FATAL(ssched_problem_set_scatter(&pb, &p, "B", "D", &err) == SSCHED_OK);
        mpq_t m;
        mpq_init(m);
        CU_ASSERT(run(&p, &pb, 6, 0, "1/3", m) == 0);
        mpq_clear(m);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
    CU_ASSERT(mpq_cmp(m_fat, m_shared) < 0);
    mpq_clears(m_shared, m_fat, NULL);
}

/* One-port hosts on the shared bus: also no overlap at A's out-port. */
static void test_one_port(void)
{
    for (int kind = 0; kind < 2; kind++) {
        ssched_platform_t p;
        ssched_problem_t pb;
        ssched_error_t err;
        make(&p, kind, 1);
        ssched_problem_init(&pb);
        CU_ASSERT_FATAL(ssched_problem_set_scatter(&pb, &p, "A", "B,C", &err) == SSCHED_OK);
        mpq_t m;
        mpq_init(m);
        run(&p, &pb, 6, 1, NULL, m);
        mpq_clear(m);
        ssched_problem_free(&pb);
        ssched_platform_free(&p);
    }
}

/* A SPLITDUPLEX pair: A -> B and B -> A each on a resource of its own, so a
 * gossip between A and B runs both directions at full rate (TP = 1), while
 * L_UP is shared by A -> B and A -> D. */
static void test_duplex(void)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_error_t err;
    make(&p, 2, 0);
    ssched_problem_init(&pb);
    CU_ASSERT_FATAL(ssched_problem_set_gossip(&pb, &p, "A,B", "B,A", &err) == SSCHED_OK);
    mpq_t m;
    mpq_init(m);
    run(&p, &pb, 10, 0, "1", m);
    ssched_problem_free(&pb);
    ssched_problem_init(&pb);
    CU_ASSERT_FATAL(ssched_problem_set_scatter(&pb, &p, "A", "B,D", &err) == SSCHED_OK);
    run(&p, &pb, 10, 1, "1/2", m);
    ssched_problem_free(&pb);
    /* a broadcast and an ordered reduce on the same platform */
    ssched_problem_init(&pb);
    CU_ASSERT_FATAL(ssched_problem_set_broadcast(&pb, &p, "A", "B,C", &err) == SSCHED_OK);
    run(&p, &pb, 6, 0, NULL, m);
    ssched_problem_free(&pb);
    ssched_problem_init(&pb);
    CU_ASSERT_FATAL(ssched_problem_set_reduce(&pb, &p, "C,B,A", "A", &err) == SSCHED_OK);
    run(&p, &pb, 6, 0, NULL, m);
    ssched_problem_free(&pb);
    mpq_clear(m);
    ssched_platform_free(&p);
}

/* A backbone 4 times faster than the private links: the gossip's flows
 * share it (concurrent phases on bb), the plan reaches the fluid bound
 * K / TP closer than exclusive links would; a file forged with bb as slow
 * as the private links (c = 1: edge c unchanged, every share 1) is
 * refused, naming bb. */
static void test_backbone(void)
{
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_error_t err;
    make(&p, 3, 0);
    ssched_problem_init(&pb);
    CU_ASSERT_FATAL(ssched_problem_set_gossip(&pb, &p, "A,B", "C,D", &err) == SSCHED_OK);
    mpq_t m;
    mpq_init(m);
    g_shared_overlaps = 0;
    run(&p, &pb, 8, 0, NULL, m);
    CU_ASSERT(g_shared_overlaps > 0);
    /* forged: the same unrolled file with bb's c = 1 */
    ssched_steady_t st;
    ssched_schedule_t s;
    ssched_unrolled_t u;
    ssched_steady_init(&st);
    ssched_schedule_init(&s);
    ssched_unrolled_init(&u);
    CU_ASSERT_FATAL(ssched_steady_solve(&p, &pb, NULL, &st, &err) == SSCHED_OK);
    tu_unroll_planned(&p, &pb, &st, 8, 0, &s, &u);
    char *text = tu_unrolled_json(&p, &pb, &s, &u);
    CU_ASSERT_FATAL(text != NULL);
    char why[512];
    CU_ASSERT(tu_check_text(text, why, sizeof why) == 1);
    /* bb is the only link or edge of c = 1/4 */
    char *forged = replace(text, "\"c\": \"1/4\"", "\"c\": \"1\"");
    CU_ASSERT_FATAL(forged != NULL);
    int v = tu_check_text(forged, why, sizeof why);
    CU_ASSERT(v == 0);
    if (v != 0 || !strstr(why, "SHARED link bb is over its capacity at time"))
        fprintf(stderr, "\n  forged: %d %s\n", v, why);
    CU_ASSERT(strstr(why, "SHARED link bb is over its capacity at time") != NULL);
    free(forged);
    free(text);
    ssched_unrolled_free(&u);
    ssched_schedule_free(&s);
    ssched_steady_free(&st);
    mpq_clear(m);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"two flows on a SHARED bus, then a FATPIPE", test_bus},
        {"one-port hosts", test_one_port},
        {"SPLITDUPLEX pair, broadcast, reduce", test_duplex},
        {"flows sharing a fast backbone; a forged file refused", test_backbone},
        {NULL, NULL},
    };
    return tu_main("routed schedules", tests);
}
