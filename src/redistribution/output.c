/* Writers: a readable per-processor report and exact JSON. */
#include <jansson.h>
#include <stdint.h>
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

/* Append "p/q" (or "p"), as mpq_out_str prints it, at t; returns the end.
 * t must hold mpz_sizeinbase(num) + mpz_sizeinbase(den) + 2 bytes. */
static char *put_q(char *t, const mpq_t q)
{
    mpz_get_str(t, 10, mpq_numref(q));
    t += strlen(t);
    if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        *t++ = '/';
        mpz_get_str(t, 10, mpq_denref(q));
        t += strlen(t);
    }
    return t;
}

static size_t q_room(const mpq_t q)
{
    return mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
}

/* Each transfer is printed twice, in its sender's and in its receiver's
 * line; its interval "[start, end)" is converted to decimal once (issue 26:
 * the conversions were most of the writer at P = 1024, ~85-digit numbers),
 * kept with its length (no strlen when printed) and freed after the second
 * use. */
typedef struct {
    char **text;    /* per transfer: its interval (NULL: not converted yet) */
    uint32_t *len;  /* its length */
    unsigned char *uses;
} text_cache_t;

/* A line being assembled; written with one fwrite (fprintf and fputs per
 * field were a fifth of the writer).  On ENOMEM it writes through. */
typedef struct {
    char *b;
    size_t n, cap;
    FILE *out;
} line_t;

static void put(line_t *l, const char *t, size_t n)
{
    if (l->n + n > l->cap) {
        size_t cap = l->cap ? l->cap : 4096;
        while (cap < l->n + n)
            cap *= 2;
        char *b = realloc(l->b, cap);
        if (!b) { /* write what we have and this piece directly */
            fwrite(l->b, 1, l->n, l->out);
            fwrite(t, 1, n, l->out);
            l->n = 0;
            return;
        }
        l->b = b;
        l->cap = cap;
    }
    memcpy(l->b + l->n, t, n);
    l->n += n;
}

static void flush_line(line_t *l)
{
    fwrite(l->b, 1, l->n, l->out);
    l->n = 0;
}

/* " ->P<peer> " or " <-P<peer> " */
static void put_peer(line_t *l, const char *arrow, size_t peer)
{
    char t[32];
    int k = snprintf(t, sizeof t, " %sP%zu ", arrow, peer);
    put(l, t, (size_t)k);
}

/* 0, or -1 when the interval could not be converted (ENOMEM) */
static int print_interval(line_t *l, text_cache_t *c, const ssched_redist_schedule_t *s,
                          size_t i)
{
    const ssched_redist_transfer_t *t = &s->transfers[i];
    if (c->text && !c->text[i]) {
        char *x = malloc(q_room(t->start) + q_room(t->end) + 4);
        if (x) {
            char *e = x;
            *e++ = '[';
            e = put_q(e, t->start);
            *e++ = ',';
            *e++ = ' ';
            e = put_q(e, t->end);
            *e++ = ')';
            c->len[i] = (uint32_t)(e - x);
            c->text[i] = x;
        }
    }
    if (c->text && c->text[i]) {
        put(l, c->text[i], c->len[i]);
    } else { /* no memory for the text: convert where printed */
        char *x = malloc(q_room(t->start) + q_room(t->end) + 4);
        if (!x)
            return -1;
        char *e = x;
        *e++ = '[';
        e = put_q(e, t->start);
        *e++ = ',';
        *e++ = ' ';
        e = put_q(e, t->end);
        *e++ = ')';
        put(l, x, (size_t)(e - x));
        free(x);
    }
    if (c->text && ++c->uses[i] == 2) {
        free(c->text[i]);
        c->text[i] = NULL;
    }
    return 0;
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
            __builtin_prefetch(&c->text[i]);
            __builtin_prefetch(&c->len[i]);
            __builtin_prefetch(&c->uses[i]);
        }
    }
    if (k + 4 < end && c->text) {
        const char *x = c->text[list[k + 4]];
        if (x)
            __builtin_prefetch(x);
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
    text_cache_t c = {ssched_i_calloc(s->n_transfers, sizeof(char *)),
                      ssched_i_alloc(s->n_transfers, sizeof(uint32_t)),
                      ssched_i_calloc(s->n_transfers, 1)};
    if (!c.text || !c.len || !c.uses) {
        free(c.text);
        free(c.len);
        free(c.uses);
        c.text = NULL;
        c.len = NULL;
        c.uses = NULL;
    }
    line_t l = {NULL, 0, 0, out};
    int lost = 0; /* an interval could not be converted (ENOMEM) */
    for (size_t p = 0; p < r->P; p++) {
        char head[48];
        int k0 = snprintf(head, sizeof head, "P%zu sends:", p);
        put(&l, head, (size_t)k0);
        for (size_t k = s->send_start[p]; k < s->send_start[p + 1]; k++) {
            size_t i = s->send_list[k];
            prefetch(r, s, &c, s->send_list, k, s->send_start[p + 1]);
            put_peer(&l, "->", r->messages[s->transfers[i].message].dst);
            lost |= print_interval(&l, &c, s, i);
        }
        k0 = snprintf(head, sizeof head, "\nP%zu receives:", p);
        put(&l, head, (size_t)k0);
        for (size_t k = s->recv_start[p]; k < s->recv_start[p + 1]; k++) {
            size_t i = s->recv_list[k];
            prefetch(r, s, &c, s->recv_list, k, s->recv_start[p + 1]);
            put_peer(&l, "<-", r->messages[s->transfers[i].message].src);
            lost |= print_interval(&l, &c, s, i);
        }
        put(&l, "\n", 1);
        flush_line(&l);
    }
    free(l.b);
    if (c.text)
        for (size_t i = 0; i < s->n_transfers; i++)
            free(c.text[i]);
    free(c.text);
    free(c.len);
    free(c.uses);
    if (lost)
        return nomem(err);
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
