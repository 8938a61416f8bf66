/* Writers: a readable per-processor report and exact JSON. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/redistribution/internal.h"
#include "ssched/rational.h"
#include "src/export/export_internal.h"
#include "src/util/internal.h"

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

/* "p/q" (or "p"), as mpq_out_str prints it; NULL on ENOMEM. */
static char *qtext(const mpq_t q)
{
    size_t n = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
    char *t = malloc(n);
    if (!t)
        return NULL;
    mpz_get_str(t, 10, mpq_numref(q));
    if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        size_t k = strlen(t);
        t[k] = '/';
        mpz_get_str(t + k + 1, 10, mpq_denref(q));
    }
    return t;
}

/* Each transfer is printed twice, in its sender's and in its receiver's
 * line; its two times are converted to decimal once (issue 26: the
 * conversions were most of the writer at P = 1024, ~85-digit numbers) and
 * the text is freed after the second use. */
typedef struct {
    char **text; /* 2 per transfer: start, end (NULL: not converted yet) */
    unsigned char *uses;
} text_cache_t;

static void print_interval(FILE *out, text_cache_t *c, const ssched_redist_schedule_t *s,
                           size_t i)
{
    const ssched_redist_transfer_t *t = &s->transfers[i];
    if (c->text && !c->text[2 * i]) {
        c->text[2 * i] = qtext(t->start);
        c->text[2 * i + 1] = qtext(t->end);
    }
    fputc('[', out);
    if (c->text && c->text[2 * i])
        fputs(c->text[2 * i], out);
    else
        ssched_write_rational(out, t->start, NULL);
    fputs(", ", out);
    if (c->text && c->text[2 * i + 1])
        fputs(c->text[2 * i + 1], out);
    else
        ssched_write_rational(out, t->end, NULL);
    fputc(')', out);
    if (c->text && ++c->uses[i] == 2) {
        free(c->text[2 * i]);
        free(c->text[2 * i + 1]);
        c->text[2 * i] = c->text[2 * i + 1] = NULL;
    }
}

/* The lists visit transfers in processor order, i.e. all over memory, and
 * each visit chases pointers (record, message, limbs): prefetch the record
 * a few entries ahead and its message and cached text once it has come. */
static void prefetch(const ssched_redist_t *r, const ssched_redist_schedule_t *s,
                     const text_cache_t *c, const size_t *list, size_t k, size_t end)
{
    if (k + 16 < end)
        __builtin_prefetch(&s->transfers[list[k + 16]]);
    if (k + 8 < end) {
        size_t i = list[k + 8];
        __builtin_prefetch(&r->messages[s->transfers[i].message]);
        __builtin_prefetch(mpq_numref(s->transfers[i].start)->_mp_d);
        __builtin_prefetch(mpq_numref(s->transfers[i].end)->_mp_d);
        if (c->text) {
            __builtin_prefetch(&c->text[2 * i]);
            __builtin_prefetch(&c->uses[i]);
        }
    }
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
    /* without memory for the cache every time is converted where printed */
    text_cache_t c = {ssched_i_calloc(2 * s->n_transfers, sizeof(char *)),
                      ssched_i_calloc(s->n_transfers, 1)};
    if (!c.text || !c.uses) {
        free(c.text);
        free(c.uses);
        c.text = NULL;
        c.uses = NULL;
    }
    for (size_t p = 0; p < r->P; p++) {
        fprintf(out, "P%zu sends:", p);
        for (size_t k = s->send_start[p]; k < s->send_start[p + 1]; k++) {
            size_t i = s->send_list[k];
            prefetch(r, s, &c, s->send_list, k, s->send_start[p + 1]);
            fprintf(out, " ->P%zu ", r->messages[s->transfers[i].message].dst);
            print_interval(out, &c, s, i);
        }
        fprintf(out, "\nP%zu receives:", p);
        for (size_t k = s->recv_start[p]; k < s->recv_start[p + 1]; k++) {
            size_t i = s->recv_list[k];
            prefetch(r, s, &c, s->recv_list, k, s->recv_start[p + 1]);
            fprintf(out, " <-P%zu ", r->messages[s->transfers[i].message].src);
            print_interval(out, &c, s, i);
        }
        fputc('\n', out);
    }
    if (c.text)
        for (size_t i = 0; i < 2 * s->n_transfers; i++)
            free(c.text[i]);
    free(c.text);
    free(c.uses);
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
