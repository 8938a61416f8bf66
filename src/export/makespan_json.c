/* "ssched-makespan/1" and "ssched-compare/1" JSON (ssched/export.h): what
 * `ssched makespan --json` and `ssched compare --json` print. */
#include <jansson.h>
#include <stdlib.h>

#include "src/export/json_util.h"
#include "ssched/export.h"
#include "ssched/rational.h"

static const char *op_name(ssched_mk_op_t op)
{
    return op == SSCHED_MK_REDUCE ? "reduce" : op == SSCHED_MK_BROADCAST ? "broadcast" : "allreduce";
}

ssched_status_t ssched_write_makespan_json(FILE *out, const ssched_mk_cluster_t *c,
                                           const ssched_mk_schedule_t *s, const char *algorithm,
                                           const char *method, ssched_error_t *err)
{
    json_t *o = json_object(), *times = json_array(), *msgs = json_array();
    json_object_set_new(o, "format", json_string("ssched-makespan/1"));
    json_object_set_new(o, "operation", json_string(op_name(s->op)));
    json_object_set_new(o, "algorithm", json_string(algorithm));
    if (method)
        json_object_set_new(o, "method", json_string(method));
    json_object_set_new(o, "root", json_integer((json_int_t)s->root));
    json_object_set_new(o, "processors", json_integer((json_int_t)c->n));
    for (size_t p = 0; p < c->n; p++)
        json_array_append_new(times, ssched_i_json_mpq(c->time[p]));
    json_object_set_new(o, "times", times);
    json_object_set_new(o, "makespan", ssched_i_json_mpq(s->makespan));
    char *dec = ssched_rational_to_decimal(s->makespan, 10, SSCHED_DECIMAL_SIGNIFICANT);
    json_object_set_new(o, "makespan_decimal", json_string(dec ? dec : ""));
    free(dec);
    if (s->op == SSCHED_MK_ALLREDUCE)
        json_object_set_new(o, "reduce_makespan", ssched_i_json_mpq(s->reduce_makespan));
    for (size_t i = 0; i < s->count; i++) {
        json_t *m = json_object();
        json_object_set_new(m, "sender", json_integer((json_int_t)s->msg[i].sender));
        json_object_set_new(m, "receiver", json_integer((json_int_t)s->msg[i].receiver));
        json_object_set_new(m, "start", ssched_i_json_mpq(s->msg[i].start));
        json_object_set_new(m, "end", ssched_i_json_mpq(s->msg[i].end));
        json_array_append_new(msgs, m);
    }
    json_object_set_new(o, "messages", msgs);
    return ssched_i_write_json(out, o, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err);
}

ssched_status_t ssched_write_compare_json(FILE *out, const ssched_compare_options_t *o,
                                          const ssched_compare_t *r, ssched_error_t *err)
{
    json_t *root = json_object(), *rows = json_array();
    json_object_set_new(root, "format", json_string("ssched-compare/1"));
    json_object_set_new(root, "operation", json_string(op_name(o->op)));
    json_object_set_new(root, "algorithm", json_string(o->optimal ? "optimal"
                                                       : o->op == SSCHED_MK_REDUCE ? "snf"
                                                                                   : "fnf"));
    json_object_set_new(root, "makespan", ssched_i_json_mpq(r->one_shot));
    json_object_set_new(root, "throughput", ssched_i_json_mpq(r->throughput));
    for (size_t k = 0; k < r->n_rows; k++)
        json_array_append_new(rows, json_pack("{sIsoso}", "M", (json_int_t)r->M[k],
                                               "one_at_a_time", ssched_i_json_mpq(r->sequential[k]),
                                               "pipelined", ssched_i_json_mpq(r->pipelined[k])));
    json_object_set_new(root, "rows", rows);
    json_object_set_new(root, "crossover", r->crossover_found
                                               ? json_integer((json_int_t)r->crossover)
                                               : json_null());
    return ssched_i_write_json(out, root, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err);
}
