/* ssched plan: the scan over candidate segment sizes (src/cli/plan.h).
 *
 * Candidates: s = 1 KB, 2 KB, 4 KB, ... below M, and M (coarse), then
 * s* x k / 8 around the best of those, s* (fine).  Each candidate s with
 * K = ceil(M / s) segments is planned on the platform scaled to s / U
 * (ssched_unroll_plan, then its exact makespan, as `schedule --unroll`).
 *
 * Pruning.  A candidate is planned only when its own lower bound is below
 * the best makespan found so far: every schedule of K operations of the
 * model takes at least LB(K) = max(K / TP(s), LB1(s)) (schedule/
 * unroll_lb.c, proof there), so a candidate with LB >= best cannot be
 * chosen (the choice is the least makespan).  Both terms cost no
 * unrolling: K / TP(s) = (K s / M) x (M / U / TP(U)), since scaling every
 * cost by s / U scales TP by U / s exactly (the steady state has no
 * latencies; the whole message's bound M / U / TP(U) comes from the first
 * candidate planned); LB1(s) is a few exact shortest paths on the scaled
 * platform.  An all-reduce of the best root (no --root) takes the least
 * LB1 over every node as root, a bound for whichever root the planner
 * picks.  The chosen candidate's pattern is kept, so writing it replays
 * it without planning it again. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/plan.h"
#include "ssched/export.h"

void cli_plan_scan_init(plan_scan_t *sc)
{
    memset(sc, 0, sizeof *sc);
    mpq_inits(sc->U, sc->cur, sc->best, sc->bound, NULL);
    mpq_set_ui(sc->U, 1, 1);
    mpq_set_ui(sc->cur, 1, 1);
    ssched_schedule_init(&sc->best_s);
    sc->cands = json_array();
}

void cli_plan_scan_free(plan_scan_t *sc)
{
    mpq_clears(sc->U, sc->cur, sc->best, sc->bound, NULL);
    ssched_schedule_free(&sc->best_s);
    json_decref(sc->cands);
    sc->cands = NULL;
}

/* p's costs times seg / U, from the scale it carries. */
void cli_plan_scan_scale(plan_scan_t *sc, size_t seg)
{
    mpq_t f, g;
    mpq_inits(f, g, NULL);
    mpq_set_ui(f, (unsigned long)seg, 1);
    mpq_div(f, f, sc->U);
    mpq_div(g, f, sc->cur);
    cli_plan_scale(sc->p, g);
    mpq_set(sc->cur, f);
    mpq_clears(f, g, NULL);
}

/* Plan K segments on p as scaled now: the steady state, the pattern chosen
 * for K (into s), its exact makespan (replayed into /dev/null). */
static int plan_one(plan_scan_t *sc, size_t K, ssched_schedule_t *s, mpq_t makespan,
                    ssched_unroll_figures_t *fig)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_steady_options_t sopt;
    int rc = cli_steady_options("plan", sc->po, &sopt);
    if (rc == CLI_EXIT_OK && ssched_steady_solve_opts(sc->p, sc->pb, &sopt, &st, &err) != SSCHED_OK)
        rc = cli_report("plan", &err);
    else if (rc == CLI_EXIT_OK && mpq_sgn(st.throughput) == 0)
        rc = cli_bad_input("plan", "TP = 0 (a target is unreachable): nothing to plan");
    else if (rc == CLI_EXIT_OK &&
             ssched_unroll_plan(sc->p, sc->pb, &st, K, NULL, 0, s, &err) != SSCHED_OK)
        rc = cli_report("plan", &err);
    FILE *sink = NULL;
    if (rc == CLI_EXIT_OK && !(sink = fopen("/dev/null", "w")))
        rc = cli_bad_input("plan", "cannot open /dev/null: %s", strerror(errno));
    if (rc == CLI_EXIT_OK) {
        if (ssched_write_unrolled_stream(sink, sc->p, sc->pb, s, K, NULL, fig, &err) != SSCHED_OK)
            rc = cli_report("plan", &err);
        else
            mpq_set(makespan, fig->makespan);
    }
    if (sink)
        fclose(sink);
    ssched_steady_free(&st);
    return rc;
}

/* LB1 of one segment on p as scaled now; an all-reduce without a root:
 * the least over every node as the root. */
static int segment_lb1(plan_scan_t *sc, mpq_t lb1)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    const ssched_problem_t *pb = sc->pb;
    if (pb->kind != SSCHED_PROBLEM_ALLREDUCE || pb->target < sc->p->n_nodes)
        return ssched_unroll_lb1(sc->p, pb, lb1, &err) == SSCHED_OK ? CLI_EXIT_OK
                                                                    : cli_report("plan", &err);
    ssched_problem_t q = *pb; /* a shallow copy: only its root differs */
    mpq_t r;
    mpq_init(r);
    int rc = CLI_EXIT_OK;
    for (size_t v = 0; v < sc->p->n_nodes && rc == CLI_EXIT_OK; v++) {
        q.target = v;
        if (ssched_unroll_lb1(sc->p, &q, r, &err) != SSCHED_OK)
            rc = cli_report("plan", &err);
        else if (v == 0 || mpq_cmp(r, lb1) < 0)
            mpq_set(lb1, r);
    }
    mpq_clear(r);
    return rc;
}

/* The candidate seg bytes as try_segment rounds it. */
static long round_seg(const plan_opts_t *o, long s)
{
    long seg = s < o->bytes ? s : o->bytes;
    seg -= seg % o->dtsize;
    return seg < o->dtsize ? o->dtsize : seg;
}

/* Plan the candidate of s bytes (rounded to a multiple of the datatype, at
 * most M), unless its lower bound is not below the best so far: one line
 * and one JSON candidate either way; skipped when it has more than
 * --max-segments segments or was tried already. */
static int try_segment(plan_scan_t *sc, long s)
{
    const plan_opts_t *o = sc->o;
    long seg = round_seg(o, s);
    long K = (o->bytes + seg - 1) / seg;
    if (K > o->max_segments)
        return CLI_EXIT_OK;
    for (size_t k = 0; k < json_array_size(sc->cands); k++)
        if (json_integer_value(json_object_get(json_array_get(sc->cands, k), "segment_bytes")) ==
            seg)
            return CLI_EXIT_OK;
    cli_plan_scan_scale(sc, (size_t)seg);
    mpq_t kt, lb1, mk;
    mpq_inits(kt, lb1, mk, NULL);
    /* K / TP(seg) = bound x K seg / M (0 until the bound is known) */
    if (sc->have_bound) {
        mpq_set_ui(kt, (unsigned long)K * (unsigned long)seg, (unsigned long)o->bytes);
        mpq_canonicalize(kt);
        mpq_mul(kt, kt, sc->bound);
    }
    int rc = segment_lb1(sc, lb1);
    const char *by = mpq_cmp(lb1, kt) > 0 ? "LB1" : "K/TP";
    mpq_srcptr lb = mpq_cmp(lb1, kt) > 0 ? lb1 : kt;
    if (rc == CLI_EXIT_OK && sc->best_seg && !o->no_prune && mpq_cmp(lb, sc->best) >= 0) {
        printf("%12ld %8ld %16s  lower bound %.9g (%s) >= best %.9g\n", seg, K, "pruned",
               mpq_get_d(lb), by, mpq_get_d(sc->best));
        json_array_append_new(sc->cands, json_pack("{s:I, s:I, s:s, s:f}", "segment_bytes",
                                                   (json_int_t)seg, "segments", (json_int_t)K,
                                                   "pruned_by", by, "lower_bound_seconds",
                                                   mpq_get_d(lb)));
        sc->pruned++;
        mpq_clears(kt, lb1, mk, NULL);
        return CLI_EXIT_OK;
    }
    ssched_schedule_t s1;
    ssched_schedule_init(&s1);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    if (rc == CLI_EXIT_OK)
        rc = plan_one(sc, (size_t)K, &s1, mk, &fig);
    if (rc == CLI_EXIT_OK) {
        sc->planned++;
        printf("%12ld %8ld %16.9g\n", seg, K, mpq_get_d(mk));
        /* K / TP(seg) = K seg / M x (M / seg) / TP(seg), and TP(seg) =
         * TP(U) U / seg: the bound M / U / TP(U) is steady_time M / (K seg),
         * the same for every seg (the steady state has no latencies) */
        if (!sc->have_bound) {
            mpq_t r;
            mpq_init(r);
            mpq_set_ui(r, (unsigned long)o->bytes, (unsigned long)K * (unsigned long)seg);
            mpq_canonicalize(r);
            mpq_mul(sc->bound, fig.steady_time, r);
            mpq_clear(r);
            sc->have_bound = 1;
        }
        char *t = mpq_get_str(NULL, 10, mk);
        json_array_append_new(sc->cands, json_pack("{s:I, s:I, s:s, s:f, s:f}", "segment_bytes",
                                                   (json_int_t)seg, "segments", (json_int_t)K,
                                                   "predicted", t, "predicted_seconds",
                                                   mpq_get_d(mk), "lower_bound_seconds",
                                                   mpq_get_d(fig.lower_bound)));
        free(t);
        if (!sc->best_seg || mpq_cmp(mk, sc->best) < 0) {
            mpq_set(sc->best, mk);
            sc->best_seg = (size_t)seg;
            sc->best_K = (size_t)K;
            /* keep the pattern (a move: s1 is re-initialised, not freed) */
            ssched_schedule_free(&sc->best_s);
            sc->best_s = s1;
            ssched_schedule_init(&s1);
        }
    }
    ssched_unroll_figures_free(&fig);
    ssched_schedule_free(&s1);
    mpq_clears(kt, lb1, mk, NULL);
    return rc;
}

/* The exact makespan of candidate seg into mk, if it was planned. */
static int planned_mk(const plan_scan_t *sc, long seg, mpq_t mk)
{
    for (size_t k = 0; k < json_array_size(sc->cands); k++) {
        json_t *c = json_array_get(sc->cands, k);
        const char *t = json_string_value(json_object_get(c, "predicted"));
        if (json_integer_value(json_object_get(c, "segment_bytes")) == seg && t)
            return mpq_set_str(mk, t, 10) == 0;
    }
    return 0;
}

int cli_plan_scan(plan_scan_t *sc)
{
    const plan_opts_t *o = sc->o;
    int rc = CLI_EXIT_OK;
    /* coarse: s = 1 KB, 2 KB, 4 KB, ... below M, and M */
    for (long s = o->segment ? o->segment : 1024; rc == CLI_EXIT_OK; s = 2 * s) {
        rc = try_segment(sc, s);
        if (o->segment || s >= o->bytes)
            break;
    }
    /* fine: s* x k / 8 between the best power of two s* and its better
     * neighbour: the unrolled makespan is not monotone in s (the pattern
     * chosen for K changes), and a segment a few eighths off can save a
     * fill period (two_clusters' 16 MB broadcast: 40 KB is 0.26 ms below
     * 32 and 64 KB; its reduce: 40 KB below 32 KB, 48 KB above).  The
     * other side is skipped, its neighbour being worse (both sides when
     * neither neighbour was planned); the side's eighths are tried in
     * increasing s while each improves on the best (a line search: the
     * first that does not ends it). */
    long pow2 = (long)sc->best_seg;
    if (o->segment || rc != CLI_EXIT_OK || !pow2)
        return rc;
    mpq_t lo, hi;
    mpq_inits(lo, hi, NULL);
    int h_lo = planned_mk(sc, round_seg(o, pow2 / 2), lo);
    int h_hi = pow2 < o->bytes && planned_mk(sc, round_seg(o, 2 * pow2), hi);
    int down = h_lo && (!h_hi || mpq_cmp(lo, hi) <= 0), up = h_hi && !down;
    if (!h_lo && !h_hi)
        down = up = 1;
    static const int eighths[2][3] = {{5, 6, 7}, {10, 12, 14}};
    for (int side = 0; side < 2 && rc == CLI_EXIT_OK; side++) {
        int go = side ? up : down;
        for (int k = 0; go && k < 3 && rc == CLI_EXIT_OK; k++) {
            long s = pow2 * eighths[side][k] / 8;
            if (s >= o->bytes || s < 1024)
                continue;
            size_t before = json_array_size(sc->cands);
            rc = try_segment(sc, s);
            /* tried now (not skipped as over --max-segments): go on only
             * when it became the best */
            if (json_array_size(sc->cands) > before)
                go = sc->best_seg == (size_t)round_seg(o, s);
        }
    }
    mpq_clears(lo, hi, NULL);
    if (rc == CLI_EXIT_OK && sc->pruned)
        printf("pruned %zu of %zu candidates (lower bound not below the best makespan found)\n",
               sc->pruned, sc->pruned + sc->planned);
    return rc;
}
