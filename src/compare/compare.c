/* Makespan of one collective at a time against the pipelined steady state
 * (compare.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/internal.h"
#include "ssched/compare.h"
#include "src/export/export_internal.h"
#include "ssched/schedule.h"
#include "src/export/svg_util.h"
#include "src/util/check_report.h"
#include "src/compare/compare_internal.h"

/* the optimal-TP schedule and up to 11 fixed periods makespan * 2^k */

void ssched_compare_options_default(ssched_compare_options_t *o)
{
    static const size_t default_ops[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
    memset(o, 0, sizeof *o);
    o->op = SSCHED_MK_REDUCE;
    o->ops = default_ops;
    o->n_ops = sizeof default_ops / sizeof *default_ops;
    o->crossover_limit = 2000;
}

void ssched_compare_init(ssched_compare_t *r)
{
    memset(r, 0, sizeof *r);
    mpq_inits(r->one_shot, r->throughput, r->upper_bound, NULL);
}

void ssched_compare_free(ssched_compare_t *r)
{
    for (size_t k = 0; k < r->n_rows; k++)
        mpq_clears(r->sequential[k], r->pipelined[k], NULL);
    free(r->M);
    free(r->sequential);
    free(r->pipelined);
    mpq_clears(r->one_shot, r->throughput, r->upper_bound, NULL);
    memset(r, 0, sizeof *r);
}

ssched_status_t ssched_i_compare_memory(const ssched_compare_options_t *o, size_t n, double bytes,
                                        const char *what, ssched_error_t *err)
{
    unsigned long long cap = o->max_memory ? o->max_memory : 4096ULL << 20;
    if (bytes > (double)cap)
        return ssched_error_set(err, SSCHED_ELIMIT,
                                "%s on %zu processors needs about %.0f MB (estimate); limit %llu "
                                "MB, raise it with options.max_memory (bytes)",
                                what, n, bytes / 1048576.0, cap >> 20);
    return SSCHED_OK;
}

ssched_status_t ssched_i_compare_rows(const ssched_compare_options_t *o, ssched_compare_t *out,
                                      ssched_error_t *err)
{
    out->M = ssched_i_alloc(o->n_ops, sizeof *out->M);
    out->sequential = ssched_i_alloc(o->n_ops, sizeof *out->sequential);
    out->pipelined = ssched_i_alloc(o->n_ops, sizeof *out->pipelined);
    if (!out->M || !out->sequential || !out->pipelined)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < o->n_ops; k++) {
        out->M[k] = o->ops[k];
        mpq_inits(out->sequential[k], out->pipelined[k], NULL);
        out->n_rows++; /* ssched_compare_free clears the rows counted */
        mpq_set_ui(out->sequential[k], o->ops[k], 1);
        mpq_mul(out->sequential[k], out->sequential[k], out->one_shot);
    }
    return SSCHED_OK;
}

/* The complete graph c(i,j) = t(i); every node merges for free (w = 0,
 * set directly because platform files require w > 0). */
ssched_status_t ssched_i_compare_cluster_platform(const ssched_mk_cluster_t *c,
                                                 ssched_platform_t *p, ssched_error_t *err)
{
    char name[32];
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < c->n && st == SSCHED_OK; i++) {
        snprintf(name, sizeof name, "p%zu", i);
        st = ssched_platform_add_node(p, name, NULL, NULL, err);
        if (st == SSCHED_OK)
            p->has_w[i] = 1; /* w[i] stays 0 */
    }
    for (size_t i = 0; i < c->n && st == SSCHED_OK; i++)
        for (size_t j = 0; j < c->n && st == SSCHED_OK; j++)
            if (i != j)
                st = ssched_platform_add_edge(p, i, j, c->time[i], err);
    if (st == SSCHED_OK)
        st = ssched_platform_finalize(p, err);
    return st;
}

/* Unroll M operations, check the schedule independently, return its end. */
static ssched_status_t pipelined_time(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_schedule_t *s, size_t M, mpq_t out,
                                      ssched_error_t *err)
{
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    ssched_status_t st = ssched_unroll(p, pb, s, M, &u, err);
    if (st == SSCHED_OK) {
        st = ssched_unrolled_self_check(p, pb, s, &u, NULL, err);
        mpq_set(out, u.makespan);
    }
    ssched_unrolled_free(&u);
    return st;
}

/* M operations on the pattern ssched_unroll_plan picks for M (a short
 * period: the pipeline fills quickly), checked. */
static ssched_status_t best_time(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_steady_t *steady, size_t M, mpq_t out,
                                 ssched_error_t *err)
{
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_status_t st = ssched_unroll_plan(p, pb, steady, M, NULL, 0, &s, err);
    if (st == SSCHED_OK)
        st = pipelined_time(p, pb, &s, M, out, err);
    ssched_schedule_free(&s);
    return st;
}

/* best_time with the caller's progress report first */
static ssched_status_t timed(const ssched_compare_options_t *o, const ssched_platform_t *p,
                             const ssched_problem_t *pb, const ssched_steady_t *steady,
                             size_t M, mpq_t out, ssched_error_t *err)
{
    if (o->progress)
        o->progress(o->progress_ctx, M);
    return best_time(p, pb, steady, M, out, err);
}

ssched_status_t ssched_i_compare_checked(const ssched_mk_cluster_t *c, ssched_mk_schedule_t *s,
                                        ssched_status_t st, mpq_t out, ssched_error_t *err)
{
    if (st == SSCHED_OK) { /* a schedule we built that fails the model is a bug */
        ssched_check_report_t rep;
        st = ssched_i_report_require(ssched_mk_check(c, s, &rep, err), &rep, SSCHED_EINTERNAL,
                                     err);
    }
    if (st == SSCHED_OK)
        mpq_set(out, s->makespan);
    ssched_mk_schedule_free(s);
    return st;
}

static ssched_status_t one_shot(const ssched_mk_cluster_t *c, const ssched_compare_options_t *o,
                                mpq_t out, ssched_error_t *err)
{
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_mk_stats_t stats;
    ssched_status_t st;
    if (o->op == SSCHED_MK_REDUCE)
        st = o->optimal ? ssched_mk_reduce_optimal(c, o->root, &s, &stats, err)
                        : ssched_mk_reduce_snf(c, o->root, &s, err);
    else
        st = o->optimal ? ssched_mk_broadcast_optimal(c, o->root, &s, &stats, err)
                        : ssched_mk_broadcast_fnf(c, o->root, &s, err);
    return ssched_i_compare_checked(c, &s, st, out, err);
}

ssched_status_t ssched_compare_run(const ssched_mk_cluster_t *c, const ssched_compare_options_t *o,
                                   ssched_compare_t *out, ssched_error_t *err)
{
    ssched_compare_free(out);
    ssched_compare_init(out);
    if (o->op == SSCHED_MK_SCAN)
        return ssched_i_compare_scan(c, o, out, err);
    if (o->op != SSCHED_MK_REDUCE && o->op != SSCHED_MK_BROADCAST)
        return ssched_error_set(err, SSCHED_EINPUT, "reduce, broadcast or scan only");
    ssched_status_t st = ssched_mk_cluster_validate(
        c, o->root, o->op == SSCHED_MK_REDUCE ? "destination" : "source", err);
    if (st != SSCHED_OK)
        return st;
    if (c->n < 2)
        return ssched_error_set(err, SSCHED_EINPUT, "at least 2 processors are needed");
    size_t max_ops = o->max_ops ? o->max_ops : 100000UL;
    for (size_t k = 0; k < o->n_ops; k++)
        if (o->ops[k] > max_ops)
            return ssched_error_set(err, SSCHED_ELIMIT,
                                    "M = %zu operations to unroll and check is above the "
                                    "limit %zu (raise it with options.max_ops)", o->ops[k], max_ops);
    if (o->crossover_limit > max_ops)
        return ssched_error_set(err, SSCHED_ELIMIT,
                                "options.crossover_limit %zu is above the limit %zu "
                                "(raise it with options.max_ops)", o->crossover_limit, max_ops);
    {
        double n = (double)c->n, types = o->op == SSCHED_MK_REDUCE ? n * (n + 1) / 2 : n - 1;
        if ((st = ssched_i_compare_memory(o, c->n, 64.0 * n * n * types,
                                          "the steady-state solve", err)) != SSCHED_OK)
            return st;
    }
    if ((st = one_shot(c, o, out->one_shot, err)) != SSCHED_OK)
        return st;

    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t steady;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_steady_init(&steady);
    st = ssched_i_compare_cluster_platform(c, &p, err);
    if (st == SSCHED_OK && o->op == SSCHED_MK_REDUCE) {
        size_t *all = malloc(c->n * sizeof *all);
        if (!all)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        for (size_t i = 0; all && i < c->n; i++)
            all[i] = i;
        pb.kind = SSCHED_PROBLEM_REDUCE;
        pb.participants = all; /* freed with pb */
        pb.n_participants = all ? c->n : 0;
        pb.target = o->root;
    } else if (st == SSCHED_OK) {
        /* the true pipelined broadcast (IPDPS 2004): every node but the
         * root is a target, so TP is the certified optimum (Edmonds) and
         * the unrolled schedule copies the message down arborescences */
        char name[32];
        snprintf(name, sizeof name, "p%zu", o->root);
        st = ssched_problem_set_broadcast(&pb, &p, name, NULL, err);
    }
    if (st == SSCHED_OK)
        st = ssched_steady_solve(&p, &pb, NULL, &steady, err);
    if (st == SSCHED_OK) {
        mpq_set(out->throughput, steady.throughput);
        mpq_set(out->upper_bound, steady.throughput);
        st = ssched_i_compare_rows(o, out, err);
    }
    for (size_t k = 0; k < o->n_ops && st == SSCHED_OK; k++)
        st = timed(o, &p, &pb, &steady, o->ops[k], out->pipelined[k], err);
    /* Pipelining can only win if a period's operations take less time than
     * one-shot ones: any schedule needs at least M/TP for M operations
     * (RR-4872 Lemma 1), so 1/TP >= makespan means it never does. */
    mpq_t q, t;
    mpq_inits(q, t, NULL);
    if (st == SSCHED_OK) {
        mpq_inv(q, out->throughput);
        out->pipelining_can_win = mpq_cmp(q, out->one_shot) < 0;
    }
    /* the crossover: M on a geometric grid until pipelining wins, then
     * bisection down to the smallest winning M of that bracket */
    size_t lo = 0, hi = 0;
    for (size_t M = 1; st == SSCHED_OK && out->pipelining_can_win && M <= o->crossover_limit;
         M = M * 2 > o->crossover_limit && M < o->crossover_limit ? o->crossover_limit : M * 2) {
        st = timed(o, &p, &pb, &steady, M, t, err);
        mpq_set_ui(q, M, 1);
        mpq_mul(q, q, out->one_shot);
        if (st == SSCHED_OK && mpq_cmp(t, q) < 0) {
            hi = M;
            break;
        }
        lo = M;
        if (M == o->crossover_limit)
            break;
    }
    while (st == SSCHED_OK && hi && hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        st = timed(o, &p, &pb, &steady, mid, t, err);
        mpq_set_ui(q, mid, 1);
        mpq_mul(q, q, out->one_shot);
        if (st == SSCHED_OK && mpq_cmp(t, q) < 0)
            hi = mid;
        else
            lo = mid;
    }
    if (st == SSCHED_OK && hi) {
        out->crossover_found = 1;
        out->crossover = hi;
    }
    mpq_clears(q, t, NULL);
    ssched_steady_free(&steady);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return st;
}

ssched_status_t ssched_write_compare_svg(FILE *out, const ssched_compare_t *r, ssched_error_t *err)
{
    if (r->n_rows == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "nothing to plot");
    const double W = 720, H = 440, L = 80, B = 60, T = 40, R = 30;
    double xmin = log10((double)r->M[0]), xmax = log10((double)r->M[r->n_rows - 1]);
    double ymin = INFINITY, ymax = -INFINITY;
    for (size_t k = 0; k < r->n_rows; k++) {
        double a = log10(mpq_get_d(r->sequential[k])), b = log10(mpq_get_d(r->pipelined[k]));
        ymin = fmin(ymin, fmin(a, b));
        ymax = fmax(ymax, fmax(a, b));
    }
    if (xmax <= xmin)
        xmax = xmin + 1;
    if (ymax <= ymin)
        ymax = ymin + 1;
#define X(v) (L + ((v) - xmin) / (xmax - xmin) * (W - L - R))
#define Y(v) (H - B - ((v) - ymin) / (ymax - ymin) * (H - B - T))
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
    fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(out, "<text x=\"%.0f\" y=\"22\">time for M operations: one at a time vs pipelined "
                 "(log-log)</text>\n", L);
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L,
            H - B, W - R, H - B);
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T,
            L, H - B);
    /* M labels at least 44 px apart (the bisection rows crowd the crossover) */
    double last_x = -1e9;
    for (size_t k = 0; k < r->n_rows; k++) {
        double x = X(log10((double)r->M[k]));
        if (x - last_x < 44)
            continue;
        fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%zu</text>\n", x,
                H - B + 18, r->M[k]);
        last_x = x;
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">M (operations, log "
                 "scale)</text>\n",
            (L + W - R) / 2, H - 12);
    fprintf(out, "<text transform=\"translate(18 %.0f) rotate(-90)\" text-anchor=\"middle\">"
                 "time for M operations (log scale)</text>\n",
            (T + H - B) / 2);
    /* y ticks at 1, 2, 5 x 10^d when the range spans few decades, else at
     * the decades; labels without exponents ("20k") */
    static const double mant[3] = {1, 2, 5};
    int few = ceil(ymax) - floor(ymin) <= 3;
    char lab[32];
    for (int d = (int)floor(ymin); d <= (int)ceil(ymax); d++)
        for (int m = 0; m < (few ? 3 : 1); m++) {
            double v = d + log10(mant[m]);
            if (v < ymin || v > ymax)
                continue;
            ssched_i_svg_time_label(pow(10, v), lab, sizeof lab);
            fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                         "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    L, Y(v), W - R, Y(v), L - 6, Y(v) + 4, lab);
        }
    const char *colour[2] = {"#c0392b", "#2471a3"};
    const char *label[2] = {"one at a time (M x makespan)",
                            r->pipelined_is_bound ? "pipelined: lower bound M/UB (no schedule yet)"
                                                  : "pipelined (unrolled schedule)"};
    for (int s = 0; s < 2; s++) {
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour[s]);
        for (size_t k = 0; k < r->n_rows; k++) {
            double v = mpq_get_d(s ? r->pipelined[k] : r->sequential[k]);
            fprintf(out, "%.1f,%.1f ", X(log10((double)r->M[k])), Y(log10(v)));
        }
        fputs("\"/>\n", out);
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%s</text>\n", L + 12, T + 14 + 16.0 * s,
                colour[s], label[s]);
    }
    if (r->crossover_found && r->crossover >= r->M[0] && r->crossover <= r->M[r->n_rows - 1]) {
        double x = X(log10((double)r->crossover));
        /* the label goes left of the line when it would run off the plot */
        int left = x + 4 + 8.0 * 22 > W;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"gray\" "
                     "stroke-dasharray=\"4\"/>\n<text x=\"%.1f\" y=\"%.0f\" fill=\"gray\" "
                     "text-anchor=\"%s\">crossover M = %zu</text>\n",
                x, T, x, H - B, left ? x - 4 : x + 4, T + 50, left ? "end" : "start", r->crossover);
    }
#undef X
#undef Y
    fputs("</svg>\n", out);
    return ssched_i_write_status(out, err);
}
