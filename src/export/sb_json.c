/* "ssched-scatter-balance/1" JSON (ssched/export.h): what
 * `ssched scatter-balance --json` prints. */
#include <jansson.h>
#include <stdlib.h>

#include "src/export/json_util.h"
#include "ssched/export.h"
#include "ssched/rational.h"

/* Decimals of the report: 6 fraction digits. */
static json_t *jdec(const mpq_t q)
{
    char *s = ssched_rational_to_decimal(q, 6, SSCHED_DECIMAL_FIXED);
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
