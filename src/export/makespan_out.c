/* A one-shot schedule as text or "ssched-makespan/1" JSON (ssched/export.h):
 * what `ssched makespan` prints. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/export/export_internal.h"
#include "src/export/json_util.h"
#include "ssched/export.h"
#include "ssched/rational.h"

ssched_status_t ssched_write_makespan_json(FILE *out, const ssched_mk_cluster_t *c,
                                           const ssched_mk_schedule_t *s, const char *algorithm,
                                           const char *method, ssched_error_t *err)
{
    json_t *o = json_object(), *times = json_array(), *msgs = json_array();
    json_object_set_new(o, "format", json_string("ssched-makespan/1"));
    json_object_set_new(o, "operation", json_string(ssched_mk_op_name(s->op)));
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
    if (s->op == SSCHED_MK_SCAN)
        json_object_set_new(o, "exclusive", json_boolean(s->exclusive));
    for (size_t i = 0; i < s->count; i++) {
        json_t *m = json_object();
        json_object_set_new(m, "sender", json_integer((json_int_t)s->msg[i].sender));
        json_object_set_new(m, "receiver", json_integer((json_int_t)s->msg[i].receiver));
        json_object_set_new(m, "start", ssched_i_json_mpq(s->msg[i].start));
        json_object_set_new(m, "end", ssched_i_json_mpq(s->msg[i].end));
        if (s->op == SSCHED_MK_SCAN) { /* the interval v[lo,hi] it carries */
            json_object_set_new(m, "lo", json_integer((json_int_t)s->msg[i].lo));
            json_object_set_new(m, "hi", json_integer((json_int_t)s->msg[i].hi));
        }
        json_array_append_new(msgs, m);
    }
    json_object_set_new(o, "messages", msgs);
    return ssched_i_write_json(out, o, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err);
}

ssched_status_t ssched_write_makespan_text(FILE *out, const ssched_mk_cluster_t *c,
                                           const ssched_mk_schedule_t *s, const char *algorithm,
                                           const char *method, ssched_error_t *err)
{
    const char *role = s->op == SSCHED_MK_REDUCE      ? "destination"
                       : s->op == SSCHED_MK_BROADCAST ? "source"
                                                      : "hub";
    int scan = s->op == SSCHED_MK_SCAN;
    if (scan)
        fprintf(out, "scan (%s), %zu processors in operator order, algorithm %s",
                s->exclusive ? "exclusive: processor j gets v[0,j-1]" : "inclusive: processor j gets v[0,j]",
                c->n, algorithm);
    else
        fprintf(out, "%s, %zu processors, %s %zu, algorithm %s", ssched_mk_op_name(s->op), c->n,
                role, s->root, algorithm);
    if (method && strcmp(method, algorithm))
        fprintf(out, " (method %s)", method);
    fprintf(out, "\n");
    char *dec = ssched_rational_to_decimal(s->makespan, 10, SSCHED_DECIMAL_SIGNIFICANT);
    gmp_fprintf(out, "makespan: %Qd (%s)\n", s->makespan, dec ? dec : "?");
    free(dec);
    if (s->op == SSCHED_MK_ALLREDUCE) {
        dec = ssched_rational_to_decimal(s->reduce_makespan, 10, SSCHED_DECIMAL_SIGNIFICANT);
        gmp_fprintf(out, "reduce phase ends at: %Qd (%s)\n", s->reduce_makespan, dec ? dec : "?");
        free(dec);
    }
    fprintf(out, "messages: %zu\n", s->count);
    if (s->count)
        fprintf(out, "  %8s %8s  %14s  %14s%s\n", "sender", "receiver", "start", "end",
                scan ? "  value" : "");
    for (size_t i = 0; i < s->count; i++) {
        gmp_fprintf(out, "  %8zu %8zu  %14Qd  %14Qd", s->msg[i].sender, s->msg[i].receiver,
                    s->msg[i].start, s->msg[i].end);
        if (scan)
            fprintf(out, "  v[%zu,%zu]", s->msg[i].lo, s->msg[i].hi);
        fputc('\n', out);
    }
    return ssched_i_write_status(out, err);
}
