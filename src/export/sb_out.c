/* A load-balanced scatter as text or "ssched-scatter-balance/1" JSON
 * (ssched/export.h): what `ssched scatter-balance` prints. */
#include <jansson.h>
#include <stdlib.h>

#include "src/export/export_internal.h"
#include "src/export/json_util.h"
#include "ssched/export.h"
#include "ssched/rational.h"

/* The report's decimals: 6 fraction digits. */
static char *dec6(const mpq_t q)
{
    return ssched_rational_to_decimal(q, 6, SSCHED_DECIMAL_FIXED);
}

static json_t *jdec(const mpq_t q)
{
    char *s = dec6(q);
    json_t *j = json_string(s ? s : "?");
    free(s);
    return j;
}

static json_t *relaxation_json(const ssched_sb_platform_t *inst, const ssched_sb_result_t *res)
{
    json_t *rx = json_object();
    json_object_set_new(rx, "makespan", ssched_i_json_mpq(res->relaxed_makespan));
    json_object_set_new(rx, "makespan_decimal", jdec(res->relaxed_makespan));
    json_t *it = json_array();
    for (size_t i = 0; i < inst->p; i++)
        json_array_append_new(it, ssched_i_json_mpq(res->relaxed_items[i]));
    json_object_set_new(rx, "items", it);
    json_object_set_new(rx, "guarantee", ssched_i_json_mpq(res->guarantee));
    mpq_t b;
    mpq_init(b);
    mpq_add(b, res->relaxed_makespan, res->guarantee);
    json_object_set_new(rx, "bound", ssched_i_json_mpq(b));
    mpq_clear(b);
    if (res->useful) {
        json_t *dr = json_array();
        for (size_t i = 0; i < inst->p; i++)
            if (!res->useful[i])
                json_array_append_new(dr, json_string(inst->procs[i].name));
        json_object_set_new(rx, "dropped", dr);
    }
    return rx;
}

static json_t *distribution_json(const ssched_sb_platform_t *inst, const ssched_sb_result_t *res)
{
    json_t *dist = json_array();
    mpq_t zero;
    mpq_init(zero);
    for (size_t i = 0; i < inst->p; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(inst->procs[i].name));
        json_object_set_new(e, "items", json_integer(res->items[i]));
        json_object_set_new(e, "receive_start", ssched_i_json_mpq(i ? res->send_end[i - 1] : zero));
        json_object_set_new(e, "receive_end", ssched_i_json_mpq(res->send_end[i]));
        json_object_set_new(e, "finish", ssched_i_json_mpq(res->finish[i]));
        json_object_set_new(e, "finish_decimal", jdec(res->finish[i]));
        json_array_append_new(dist, e);
    }
    mpq_clear(zero);
    return dist;
}

ssched_status_t ssched_write_sb_json(FILE *out, const ssched_sb_report_t *r, ssched_error_t *err)
{
    const ssched_sb_result_t *res = r->result;
    const ssched_sb_platform_t *pl = r->platform;
    json_t *o = json_object();
    json_object_set_new(o, "format", json_string("ssched-scatter-balance/1"));
    json_object_set_new(o, "file", json_string(r->file));
    json_object_set_new(o, "items", json_integer(res->n));
    json_object_set_new(o, "algorithm", json_string(ssched_sb_algorithm_name(res->algorithm)));
    json_object_set_new(o, "order", json_string(ssched_sb_order_name(r->order)));
    json_object_set_new(o, "root", json_string(pl->procs[r->root].name));
    json_object_set_new(o, "holder", json_string(pl->procs[r->holder].name));
    json_object_set_new(o, "optimal", json_boolean(res->optimal));
    json_object_set_new(o, "makespan", ssched_i_json_mpq(res->makespan));
    json_object_set_new(o, "makespan_decimal", jdec(res->makespan));
    mpq_t total;
    mpq_init(total);
    mpq_add(total, r->pre_transfer, res->makespan);
    json_object_set_new(o, "pre_transfer", ssched_i_json_mpq(r->pre_transfer));
    json_object_set_new(o, "total", ssched_i_json_mpq(total));
    mpq_clear(total);
    json_object_set_new(o, "distribution", distribution_json(r->instance, res));
    if (res->has_relaxation)
        json_object_set_new(o, "relaxation", relaxation_json(r->instance, res));
    if (r->evals) {
        json_t *a = json_array();
        for (size_t k = 0; k < pl->p; k++) {
            json_t *e = json_object();
            json_object_set_new(e, "root", json_string(pl->procs[k].name));
            json_object_set_new(e, "pre_transfer", ssched_i_json_mpq(r->evals[k].pre_transfer));
            json_object_set_new(e, "makespan", ssched_i_json_mpq(r->evals[k].makespan));
            json_object_set_new(e, "total", ssched_i_json_mpq(r->evals[k].total));
            json_array_append_new(a, e);
        }
        json_object_set_new(o, "root_choice", a);
    }
    json_t *w = json_object();
    json_object_set_new(w, "evaluations", json_integer(res->evaluations));
    json_object_set_new(w, "states", json_integer(res->states));
    json_object_set_new(o, "work", w);
    return ssched_i_write_json(out, o, JSON_INDENT(2), err);
}

static const char *alg_long_name(ssched_sb_algorithm_t a)
{
    switch (a) {
    case SSCHED_SB_DP: return "Algorithm 1 (exact DP)";
    case SSCHED_SB_DP_FAST: return "Algorithm 2 (optimized exact DP)";
    case SSCHED_SB_EXACT: return "pruned exact search";
    case SSCHED_SB_LP: return "LP (3) heuristic + rounding of section 3.3";
    case SSCHED_SB_CLOSED_FORM: return "closed form of Theorems 1-2 + rounding of section 3.3";
    case SSCHED_SB_UNIFORM: return "uniform distribution (MPI_Scatter)";
    }
    return "?";
}

/* The rational relaxation, its guarantee (eq. (4)) and what Theorem 2 drops. */
static void relaxation_text(FILE *out, const ssched_sb_platform_t *inst,
                            const ssched_sb_result_t *res)
{
    mpq_t bound;
    mpq_init(bound);
    mpq_add(bound, res->relaxed_makespan, res->guarantee);
    char *a = ssched_rational_to_string(res->relaxed_makespan), *b = dec6(res->relaxed_makespan);
    char *g = dec6(res->guarantee), *bb = dec6(bound);
    fprintf(out, "rational optimum T = %s = %s s (lower bound on the integer optimum)\n", a, b);
    fprintf(out, "eq. (4): T <= makespan <= T + %s = %s s\n", g, bb);
    free(a);
    free(b);
    free(g);
    free(bb);
    mpq_clear(bound);
    if (res->useful) {
        int any = 0;
        for (size_t i = 0; i < inst->p; i++)
            if (!res->useful[i]) {
                fprintf(out, "%s%s", any ? ", " : "Theorem 2 drops: ", inst->procs[i].name);
                any = 1;
            }
        if (any)
            fputc('\n', out);
    }
}

/* Per processor: items, reception end and finish; then the root choice. */
static void table_text(FILE *out, const ssched_sb_report_t *r)
{
    const ssched_sb_result_t *res = r->result;
    const ssched_sb_platform_t *inst = r->instance;
    fprintf(out, "%4s  %-16s %10s %16s %16s  %s\n", "#", "processor", "items", "receive end (s)",
            "finish (s)", "finish (exact)");
    for (size_t i = 0; i < inst->p; i++) {
        char *re = dec6(res->send_end[i]), *fi = dec6(res->finish[i]);
        char *fx = ssched_rational_to_string(res->finish[i]);
        fprintf(out, "%4zu  %-16s %10ld %16s %16s  %s\n", i + 1, inst->procs[i].name,
                res->items[i], re, fi, fx);
        free(re);
        free(fi);
        free(fx);
    }
    if (r->evals) {
        fputs("root choice (section 3.4): pre-transfer + makespan per root\n", out);
        for (size_t k = 0; k < r->platform->p; k++) {
            char *a = dec6(r->evals[k].pre_transfer);
            char *b = dec6(r->evals[k].makespan);
            char *c = dec6(r->evals[k].total);
            fprintf(out, "  %-16s %14s + %14s = %14s%s\n", r->platform->procs[k].name, a, b, c,
                    k == r->root ? "  <- best" : "");
            free(a);
            free(b);
            free(c);
        }
    }
}

ssched_status_t ssched_write_sb_text(FILE *out, const ssched_sb_report_t *r, ssched_error_t *err)
{
    const ssched_sb_result_t *res = r->result;
    const ssched_sb_platform_t *pl = r->platform;
    fprintf(out, "scatter-balance: %s: %zu processors, %ld items, order %s, root %s\n", r->file,
            r->instance->p, res->n, ssched_sb_order_name(r->order), pl->procs[r->root].name);
    fprintf(out, "algorithm: %s (%s)%s\n", ssched_sb_algorithm_name(res->algorithm),
            alg_long_name(res->algorithm), res->optimal ? ", exact integer optimum" : "");
    char *s = ssched_rational_to_string(res->makespan), *d = dec6(res->makespan);
    fprintf(out, "makespan: %s = %s s\n", s, d);
    free(s);
    free(d);
    if (r->root != r->holder) {
        mpq_t total;
        mpq_init(total);
        mpq_add(total, r->pre_transfer, res->makespan);
        s = dec6(r->pre_transfer);
        d = dec6(total);
        fprintf(out, "root %s is not the data holder %s: pre-transfer %s s, total %s s\n",
                pl->procs[r->root].name, pl->procs[r->holder].name, s, d);
        free(s);
        free(d);
        mpq_clear(total);
    }
    if (res->has_relaxation)
        relaxation_text(out, r->instance, res);
    table_text(out, r);
    return ssched_i_write_status(out, err);
}
