/* Writers: a readable per-processor report and exact JSON. */
#include <jansson.h>
#include <stdlib.h>

#include "src/redistribution/internal.h"
#include "ssched/rational.h"
#include "src/export/export_internal.h"

static ssched_status_t nomem(ssched_error_t *err)
{
    return ssched_error_set(err, SSCHED_ENOMEM, "out of memory writing the schedule");
}

/* Print "p/q (~decimal)". */
static void print_q(FILE *out, const mpq_t q)
{
    char *dec = ssched_rational_to_decimal(q, 8, SSCHED_DECIMAL_SIGNIFICANT);
    ssched_write_rational(out, q, NULL);
    if (dec && mpz_cmp_ui(mpq_denref(q), 1) != 0)
        fprintf(out, " (~%s)", dec);
    free(dec);
}

ssched_status_t ssched_write_redist_text(FILE *out, const ssched_redist_t *r,
                                         const ssched_redist_schedule_t *s, ssched_error_t *err)
{
    fprintf(out,
            "redistribution cyclic(%zu) -> cyclic(%zu) of N = %zu elements on P = %zu "
            "processors (K = %zu)\n",
            r->x, r->x * r->K, r->N, r->P, r->K);
    fprintf(out, "algorithm: %s, %zu messages, %zu transfers",
            ssched_redist_algorithm_name(s->algorithm), r->n_messages, s->n_transfers);
    if (s->n_steps)
        fprintf(out, ", %zu steps", s->n_steps);
    fprintf(out, ", %zu split messages\nstart-up: ", s->n_split);
    ssched_write_rational(out, r->startup, NULL);
    fprintf(out, "\nlower bound: ");
    print_q(out, r->lower_bound);
    fprintf(out, "\ncompletion:  ");
    print_q(out, s->completion);
    fputc('\n', out);
    for (size_t p = 0; p < r->P; p++) {
        fprintf(out, "P%zu sends:", p);
        for (size_t k = s->send_start[p]; k < s->send_start[p + 1]; k++) {
            const ssched_redist_transfer_t *t = &s->transfers[s->send_list[k]];
            fprintf(out, " ->P%zu [", r->messages[t->message].dst);
            ssched_write_rational(out, t->start, NULL);
            fputs(", ", out);
            ssched_write_rational(out, t->end, NULL);
            fputs(")", out);
        }
        fprintf(out, "\nP%zu receives:", p);
        for (size_t k = s->recv_start[p]; k < s->recv_start[p + 1]; k++) {
            const ssched_redist_transfer_t *t = &s->transfers[s->recv_list[k]];
            fprintf(out, " <-P%zu [", r->messages[t->message].src);
            ssched_write_rational(out, t->start, NULL);
            fputs(", ", out);
            ssched_write_rational(out, t->end, NULL);
            fputs(")", out);
        }
        fputc('\n', out);
    }
    return ssched_i_write_status(out, err);
}

/* json string of an exact rational; NULL on ENOMEM. */
static json_t *jq(const mpq_t q)
{
    char *s = ssched_rational_to_string(q);
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    return j;
}

/* Transfer object: peer, start, end, amount. */
static json_t *jtransfer(const ssched_redist_t *r, const ssched_redist_transfer_t *t, int send)
{
    const ssched_redist_message_t *m = &r->messages[t->message];
    return json_pack("{s:I, s:I, s:o, s:o, s:o}", send ? "to" : "from",
                     (json_int_t)(send ? m->dst : m->src), "message", (json_int_t)t->message,
                     "start", jq(t->start), "end", jq(t->end), "amount", jq(t->amount));
}

ssched_status_t ssched_write_redist_json(FILE *out, const ssched_redist_t *r,
                                         const ssched_redist_schedule_t *s, ssched_error_t *err)
{
    json_t *root = json_pack(
        "{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:I, s:I, s:I, s:I}", "format",
        "ssched-redistribution/1", "algorithm", ssched_redist_algorithm_name(s->algorithm), "P",
        (json_int_t)r->P, "K", (json_int_t)r->K, "N", (json_int_t)r->N, "x", (json_int_t)r->x,
        "startup", jq(r->startup), "completion", jq(s->completion), "lower_bound",
        jq(r->lower_bound), "messages_count", (json_int_t)r->n_messages, "transfers",
        (json_int_t)s->n_transfers, "steps", (json_int_t)s->n_steps, "split_messages",
        (json_int_t)s->n_split);
    json_t *msgs = json_array(), *procs = json_array();
    if (!root || !msgs || !procs) {
        json_decref(root);
        json_decref(msgs);
        json_decref(procs);
        return nomem(err);
    }
    json_object_set_new(root, "messages", msgs);
    json_object_set_new(root, "processors", procs);
    int fail = 0;
    for (size_t e = 0; e < r->n_messages && !fail; e++) {
        const ssched_redist_message_t *m = &r->messages[e];
        fail |= json_array_append_new(
            msgs, json_pack("{s:I, s:I, s:I, s:o, s:o}", "src", (json_int_t)m->src, "dst",
                            (json_int_t)m->dst, "elements", (json_int_t)m->elements, "bandwidth",
                            jq(r->bandwidth[m->src * r->P + m->dst]), "cost", jq(m->cost)));
    }
    for (size_t p = 0; p < r->P && !fail; p++) {
        json_t *sends = json_array(), *recvs = json_array();
        for (size_t k = s->send_start[p]; k < s->send_start[p + 1] && sends; k++)
            fail |= json_array_append_new(sends, jtransfer(r, &s->transfers[s->send_list[k]], 1));
        for (size_t k = s->recv_start[p]; k < s->recv_start[p + 1] && recvs; k++)
            fail |= json_array_append_new(recvs, jtransfer(r, &s->transfers[s->recv_list[k]], 0));
        json_t *pj = json_pack("{s:I, s:I, s:o, s:o}", "id", (json_int_t)p, "local_elements",
                               (json_int_t)r->local[p], "sends", sends, "receives", recvs);
        fail |= !sends || !recvs || json_array_append_new(procs, pj);
    }
    if (fail) {
        json_decref(root);
        return nomem(err);
    }
    int rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    fputc('\n', out);
    if (rc && !ferror(out)) /* jansson failed, not the stream */
        return nomem(err);
    return ssched_i_write_status(out, err);
}
