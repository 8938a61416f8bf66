/* "ssched-unrolled/2" JSON: the unrolled schedule of K operations, streamed
 * while it is generated (ssched_write_unrolled_stream) or from memory
 * (ssched_write_unrolled_json).  One event per line; transfers first, then (reduce)
 * computations, then the figures, so a file of any size is written in
 * memory independent of K.  Transfers that move part of a message carry
 * "piece": [offset, length] as fractions of one message; a transfer
 * carrying several operations' messages at once (a batch) carries
 * "batch": n, operations op .. op+n-1, absent when n = 1.  Platform edges
 * carry their latency "l" when it is positive. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/export/export_internal.h"
#include "src/export/json_util.h"
#include "src/export/text_out.h"
#include "src/util/internal.h"

typedef struct {
    char *s;
    size_t n;
} text_t;

typedef struct {
    sched_sink_t base;
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    const ssched_schedule_t *s;
    obuf_t out, comps;            /* computations wait in a temporary file */
    char **quoted;                /* JSON-quoted node names                */
    text_t *edge_txt;             /* per edge: "\"from\": F, \"to\": T, "  */
    text_t *type_txt;             /* per type: origin and dest, or interval */
    text_t *set_txt;              /* commutative reduce, per set: "[0, 2]"  */
    frac_t tq, ta;                /* times (1/q), amounts (1/a)            */
    int ready;                    /* tq, ta set for the engine's scale     */
    int64_t q, a;                 /* ticks per unit time, units per message */
    size_t n_transfers, n_comps;
} stream_t;

static char **quote_names(const ssched_platform_t *p)
{
    char **q = ssched_i_calloc(p->n_nodes, sizeof *q);
    for (size_t i = 0; q && i < p->n_nodes; i++) {
        json_t *s = json_string(p->names[i]);
        q[i] = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
        json_decref(s);
        if (!q[i]) {
            for (size_t k = 0; k < i; k++)
                free(q[k]);
            free(q);
            return NULL;
        }
    }
    return q;
}

static void free_names(char **q, size_t n)
{
    for (size_t i = 0; q && i < n; i++)
        free(q[i]);
    free(q);
}

static void free_texts(text_t *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        free(t[i].s);
    free(t);
}

static int set_text(text_t *t, const char *a, const char *b, const char *c, const char *d)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d);
    t->s = malloc(n + 1);
    if (!t->s)
        return 0;
    snprintf(t->s, n + 1, "%s%s%s%s", a, b, c, d);
    t->n = n;
    return 1;
}

/* Intervals as types and computations: reduce, all-reduce, scan. */
static int interval_like(const ssched_schedule_t *s)
{
    return sched_reduce_like(s) || s->kind == SSCHED_PROBLEM_SCAN;
}

/* Message types: commodities, intervals or (commutative) sets; an
 * all-reduce adds the copies of the result (ssched_schedule_copy_type). */
static size_t type_count(const ssched_schedule_t *s)
{
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE)
        return ssched_schedule_copy_type(s) + 1;
    if (s->kind == SSCHED_PROBLEM_SCAN)
        return s->n_intervals;
    if (s->kind != SSCHED_PROBLEM_REDUCE)
        return s->n_commodities;
    return s->commutative ? s->sets.n : s->n_intervals;
}

/* Commutative reduce: "[0, 2]" per set, sorted participant indices. */
static int set_texts(stream_t *w, const ssched_sets_t *sets, size_t N)
{
    char *b = malloc(N * 22 + 3);
    w->set_txt = ssched_i_calloc(sets->n, sizeof *w->set_txt);
    int ok = b && w->set_txt;
    for (size_t t = 0; ok && t < sets->n; t++) {
        size_t at = 0;
        b[at++] = '[';
        for (size_t j = 0; j < N; j++)
            if (ssched_sets_has(sets, t, j))
                at += (size_t)sprintf(b + at, "%s%zu", at > 1 ? ", " : "", j);
        b[at++] = ']';
        b[at] = '\0';
        ok = set_text(&w->set_txt[t], b, "", "", "") &&
             set_text(&w->type_txt[t], ", \"set\": ", b, "", "");
    }
    free(b);
    return ok;
}

/* The constant parts of the event lines; 0 on ENOMEM. */
static int stream_init(stream_t *w, const ssched_platform_t *p, const ssched_schedule_t *s)
{
    w->quoted = quote_names(p);
    if (!w->quoted)
        return 0;
    size_t ne = p->n_edges;
    size_t nt = type_count(s);
    w->edge_txt = ssched_i_calloc(ne, sizeof *w->edge_txt);
    w->type_txt = ssched_i_calloc(nt, sizeof *w->type_txt);
    if (!w->edge_txt || !w->type_txt)
        return 0;
    for (size_t e = 0; e < ne; e++)
        if (!set_text(&w->edge_txt[e], "\"from\": ", w->quoted[p->from[e]], ", \"to\": ",
                      w->quoted[p->to[e]]))
            return 0;
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE &&
        !set_text(&w->type_txt[--nt], ", \"copy\": true", "", "", ""))
        return 0;
    if (s->kind != SSCHED_PROBLEM_BROADCAST && s->commutative)
        return set_texts(w, &s->sets, w->pb->n_participants);
    for (size_t t = 0; t < nt; t++) {
        if (s->kind == SSCHED_PROBLEM_BROADCAST) {
            /* one message: no origin or dest */
            if (!set_text(&w->type_txt[t], "", "", "", ""))
                return 0;
        } else if (interval_like(s)) {
            char b[64];
            snprintf(b, sizeof b, "[%zu, %zu]", s->intervals[t].k, s->intervals[t].m);
            if (!set_text(&w->type_txt[t], ", \"interval\": ", b, "", ""))
                return 0;
        } else if (!set_text(&w->type_txt[t], ", \"origin\": ",
                             w->quoted[s->commodities[t].origin], ", \"dest\": ",
                             w->quoted[s->commodities[t].dest])) {
            return 0;
        }
    }
    return 1;
}

static void stream_free(stream_t *w)
{
    size_t nt = type_count(w->s);
    free_texts(w->edge_txt, w->p->n_edges);
    free_texts(w->type_txt, nt);
    free_texts(w->set_txt, w->set_txt ? w->s->sets.n : 0);
    free_names(w->quoted, w->p->n_nodes);
    ssched_i_frac_free(&w->tq);
    ssched_i_frac_free(&w->ta);
    ssched_i_obuf_free(&w->out);
    ssched_i_obuf_free(&w->comps);
}

/* Fix the scale of the fractions (the engine's, or the caller's q, a). */
static int stream_scale(stream_t *w, int table)
{
    if (w->ready)
        return 1;
    int64_t q = w->base.sc ? w->base.sc->q : w->q, a = w->base.sc ? w->base.sc->a : w->a;
    w->a = a;
    w->ready = 1;
    return ssched_i_frac_init(&w->tq, q, table) && ssched_i_frac_init(&w->ta, a, table);
}

/* Room for an event's exact times (a rounded scale: unroll_internal.h). */
static size_t exact_room(const sched_event_t *ev)
{
    if (!ev->xstart)
        return 0;
    return mpz_sizeinbase(mpq_numref(ev->xstart), 10) + mpz_sizeinbase(mpq_denref(ev->xstart), 10) +
           mpz_sizeinbase(mpq_numref(ev->xend), 10) + mpz_sizeinbase(mpq_denref(ev->xend), 10) + 8;
}

/* A time: exact (ev->xstart, xend) or ticks of the stream's scale. */
static char *put_time(char *p, stream_t *w, int64_t ticks, mpq_srcptr exact)
{
    if (!exact)
        return ssched_i_put_frac(p, &w->tq, ticks);
    mpq_get_str(p, 10, exact);
    return p + strlen(p);
}

static int write_transfer(stream_t *w, const sched_event_t *ev)
{
    const text_t *et = &w->edge_txt[ev->edge], *tt = &w->type_txt[ev->type];
    size_t pj = ev->piece_json ? strlen(ev->piece_json) : 0;
    char *b = ssched_i_obuf_room(&w->out, 512 + et->n + tt->n + pj + exact_room(ev)), *p = b;
    if (!b)
        return 0;
    if (w->n_transfers)
        p = PUT_LIT(p, ",\n");
    p = PUT_LIT(p, "  {\"start\": \"");
    p = put_time(p, w, ev->start, ev->xstart);
    p = PUT_LIT(p, "\", \"end\": \"");
    p = put_time(p, w, ev->end, ev->xend);
    p = PUT_LIT(p, "\", ");
    p = ssched_i_put_str(p, et->s, et->n);
    p = ssched_i_put_str(p, tt->s, tt->n);
    p = PUT_LIT(p, ", \"op\": ");
    p = ssched_i_put_u64(p, ev->op);
    if (ev->batch > 1) { /* operations op .. op+batch-1 in one message */
        p = PUT_LIT(p, ", \"batch\": ");
        p = ssched_i_put_u64(p, ev->batch);
    }
    if (ev->piece_json) {
        p = PUT_LIT(p, ", \"piece\": ");
        p = ssched_i_put_str(p, ev->piece_json, pj);
    } else if (!ev->piece_off && ev->len != w->a) {
        p = PUT_LIT(p, ", \"piece\": [\"");
        p = ssched_i_put_frac(p, &w->ta, ev->off);
        p = PUT_LIT(p, "\", \"");
        p = ssched_i_put_frac(p, &w->ta, ev->len);
        p = PUT_LIT(p, "\"]");
    }
    *p++ = '}';
    w->out.n += (size_t)(p - b);
    w->n_transfers++;
    return 1;
}

static int write_computation(stream_t *w, obuf_t *o, const sched_event_t *ev)
{
    const char *name = w->quoted[ev->node];
    size_t nl = strlen(name);
    const text_t *a = w->set_txt ? &w->set_txt[ev->k] : NULL; /* commutative: sets */
    const text_t *c = w->set_txt ? &w->set_txt[ev->l] : NULL;
    char *b = ssched_i_obuf_room(o, 512 + nl + (a ? a->n + c->n : 0) + exact_room(ev)), *p = b;
    if (!b)
        return 0;
    if (w->n_comps)
        p = PUT_LIT(p, ",\n");
    p = PUT_LIT(p, "  {\"start\": \"");
    p = put_time(p, w, ev->start, ev->xstart);
    p = PUT_LIT(p, "\", \"end\": \"");
    p = put_time(p, w, ev->end, ev->xend);
    p = PUT_LIT(p, "\", \"node\": ");
    p = ssched_i_put_str(p, name, nl);
    if (a) { /* commutative: the two input sets */
        p = PUT_LIT(p, ", \"merge\": [");
        p = ssched_i_put_str(p, a->s, a->n);
        p = PUT_LIT(p, ", ");
        p = ssched_i_put_str(p, c->s, c->n);
    } else {
        p = PUT_LIT(p, ", \"task\": [");
        p = ssched_i_put_u64(p, ev->k);
        p = PUT_LIT(p, ", ");
        p = ssched_i_put_u64(p, ev->l);
        p = PUT_LIT(p, ", ");
        p = ssched_i_put_u64(p, ev->m);
    }
    p = PUT_LIT(p, "], \"op\": ");
    p = ssched_i_put_u64(p, ev->op);
    *p++ = '}';
    o->n += (size_t)(p - b);
    w->n_comps++;
    return 1;
}

/* A failed output buffer: a write error on the stream (the caller's to
 * fix), else on the temporary file of computations. */
static ssched_status_t write_failed(const stream_t *w, ssched_error_t *err)
{
    if (w->out.f && ferror(w->out.f))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "write error: cannot write the unrolled schedule");
    return ssched_error_set(err, SSCHED_EINTERNAL, "cannot write the unrolled schedule");
}

static ssched_status_t stream_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    stream_t *w = (stream_t *)sk;
    if (!w->ready && !stream_scale(w, 1))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    int ok = ev->is_comp ? write_computation(w, &w->comps, ev) : write_transfer(w, ev);
    if (!ok)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (w->out.failed || w->comps.failed)
        return write_failed(w, err);
    return SSCHED_OK;
}

/* The header object without its closing brace. */
static ssched_status_t write_header(FILE *out, const ssched_platform_t *p,
                                    const ssched_problem_t *pb, const ssched_schedule_t *s,
                                    size_t K, ssched_error_t *err)
{
    json_t *root = ssched_i_schedule_json_header("ssched-unrolled/2", p, pb, s);
    /* the certified optimum, not the pattern's (reported apart) */
    json_object_set_new(root, "throughput", ssched_i_json_mpq(mpq_sgn(s->optimal_throughput)
                                                          ? s->optimal_throughput : s->throughput));
    json_object_set_new(root, "operations", json_integer((json_int_t)K));
    json_object_set_new(root, "split", json_boolean(s->split && !s->unroll_whole));
    if (s->segments > 1) /* K / segments operations cut (schedule/unroll_seg.c) */
        json_object_set_new(root, "segments", json_integer((json_int_t)s->segments));
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE) /* the root the events reduce to */
        json_object_set_new(json_object_get(root, "problem"), "root",
                            json_string(p->names[s->root]));
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!text)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] != '}')
        n--;
    if (n > 0)
        n--; /* drop the closing brace */
    fwrite(text, 1, n, out);
    free(text);
    fputs(",\n \"transfers\": [\n", out);
    return SSCHED_OK;
}

static void write_q(FILE *out, const char *key, const mpq_t q, int last)
{
    char *t = mpq_get_str(NULL, 10, q);
    fprintf(out, " \"%s\": \"%s\"%s\n", key, t ? t : "0", last ? "" : ",");
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    if (t)
        freefunc(t, strlen(t) + 1);
}

static void write_figures(FILE *out, const ssched_unroll_figures_t *f, char **quoted,
                          size_t n_nodes, int buffers)
{
    char *t = mpz_get_str(NULL, 10, f->ops_per_period);
    fprintf(out, " \"operations_per_period\": \"%s\",\n", t ? t : "0");
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    if (t)
        freefunc(t, strlen(t) + 1);
    write_q(out, "period", f->period, 0);
    write_q(out, "pattern_throughput", f->pattern_throughput, 0);
    write_q(out, "makespan", f->makespan, 0);
    write_q(out, "steady_time", f->steady_time, 0);
    write_q(out, "overhead", f->overhead, 0);
    write_q(out, "lb1", f->lb1, 0);
    write_q(out, "lower_bound", f->lower_bound, 0);
    /* a scan states no buffer figures (values are kept where they arrive) */
    write_q(out, "ratio", f->ratio, !buffers);
    if (!buffers)
        return;
    write_q(out, "buffer_peak", f->buffer_peak, 0);
    fprintf(out, " \"buffer_node\": %s\n",
            f->buffer_node < n_nodes ? quoted[f->buffer_node] : "null");
}

/* Close the transfers (and computations) arrays; 0 on a write error. */
static int close_arrays(stream_t *w, FILE *out, FILE *comps)
{
    ssched_i_obuf_flush(&w->out);
    fputs("\n ],\n", out);
    if (sched_reduce_like(w->s)) {
        fputs(" \"computations\": [\n", out);
        ssched_i_obuf_flush(&w->comps);
        if (comps) {
            rewind(comps);
            size_t n;
            while ((n = fread(w->comps.b, 1, w->comps.cap, comps)) > 0)
                if (fwrite(w->comps.b, 1, n, out) != n)
                    w->out.failed = 1;
            if (ferror(comps))
                w->out.failed = 1;
        }
        fputs("\n ],\n", out);
    }
    return !w->out.failed && !w->comps.failed;
}

ssched_status_t ssched_write_unrolled_stream(FILE *out, const ssched_platform_t *p,
                                             const ssched_problem_t *pb,
                                             const ssched_schedule_t *s, size_t K,
                                             const ssched_unroll_limits_t *limits,
                                             ssched_unroll_figures_t *fig, ssched_error_t *err)
{
    if ((pb->kind == SSCHED_PROBLEM_BROADCAST) != (s->kind == SSCHED_PROBLEM_BROADCAST) ||
        (pb->kind == SSCHED_PROBLEM_ALLREDUCE) != (s->kind == SSCHED_PROBLEM_ALLREDUCE))
        return ssched_error_set(err, SSCHED_EINPUT,
                                "unroll: the schedule is not of the problem's kind");
    stream_t w;
    memset(&w, 0, sizeof w);
    w.base.emit = stream_emit;
    w.p = p;
    w.pb = pb;
    w.s = s;
    FILE *comps = NULL;
    ssched_status_t st = SSCHED_OK;
    if (!stream_init(&w, p, s) || !ssched_i_obuf_init(&w.out, out) || !ssched_i_obuf_init(&w.comps, NULL))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    else if (sched_reduce_like(s) && !(comps = tmpfile()))
        st = ssched_error_set(err, SSCHED_EINTERNAL, "cannot create a temporary file");
    w.comps.f = comps;
    if (st == SSCHED_OK)
        st = write_header(out, p, pb, s, K, err);
    if (st == SSCHED_OK)
        st = ssched_i_sched_unroll_run(p, pb, s, K, limits, &w.base, fig, err);
    if (st == SSCHED_OK && !close_arrays(&w, out, comps))
        st = write_failed(&w, err);
    if (st == SSCHED_OK) {
        write_figures(out, fig, w.quoted, p->n_nodes, 1);
        fputs("}\n", out);
        if (fflush(out) != 0 || ferror(out))
            st = write_failed(&w, err);
    }
    if (comps)
        fclose(comps);
    stream_free(&w);
    return st;
}

/* x as a whole number of 1/D (D a multiple of x's denominator). */
static int64_t over(const mpz_t D, const mpq_t x)
{
    mpz_t t;
    mpz_init(t);
    mpz_divexact(t, D, mpq_denref(x));
    mpz_mul(t, t, mpq_numref(x));
    int64_t v = mpz_get_si(t);
    mpz_clear(t);
    return v;
}

/* An event's times [start, end]: exact, or ticks of 1/Q. */
static void event_times(sched_event_t *ev, int exact, const mpz_t Q, const mpq_t start,
                        const mpq_t end)
{
    if (exact) {
        ev->xstart = start;
        ev->xend = end;
    } else {
        ev->start = over(Q, start);
        ev->end = over(Q, end);
    }
}

ssched_status_t ssched_write_unrolled_json(FILE *out, const ssched_platform_t *p,
                                           const ssched_problem_t *pb,
                                           const ssched_schedule_t *s,
                                           const ssched_unrolled_t *u, ssched_error_t *err)
{
    stream_t w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.pb = pb;
    w.s = s;
    /* the in-memory events are fractions: print them through a common
     * denominator of their own (a divisor of the engine's ticks, so every
     * time fits as it did there) */
    mpz_t Q, A;
    mpz_inits(Q, A, NULL);
    mpz_set_ui(Q, 1);
    mpz_set_ui(A, 1);
    for (size_t k = 0; k < u->n_transfers; k++) {
        mpz_lcm(Q, Q, mpq_denref(u->transfers[k].start));
        mpz_lcm(Q, Q, mpq_denref(u->transfers[k].end));
        mpz_lcm(A, A, mpq_denref(u->transfers[k].piece_offset));
        mpz_lcm(A, A, mpq_denref(u->transfers[k].piece_length));
    }
    for (size_t k = 0; k < u->n_computations; k++) {
        mpz_lcm(Q, Q, mpq_denref(u->computations[k].start));
        mpz_lcm(Q, Q, mpq_denref(u->computations[k].end));
    }
    int ok = stream_init(&w, p, s) && ssched_i_obuf_init(&w.out, out) && ssched_i_obuf_init(&w.comps, NULL) &&
             write_header(out, p, pb, s, u->operations, NULL) == SSCHED_OK;
    /* pieces too (exact buffer amounts, unroll_internal.h): as text */
    int exact_a = !mpz_fits_slong_p(A);
    /* times of a rounded scale (unroll_internal.h) may need more than a
     * long as one denominator: then each is written as it is */
    int exact = !mpz_fits_slong_p(Q);
    if (!exact) { /* and every time in ticks of 1/Q fits too (events that
                     did not come from the engine, e.g. a scan's) */
        mpq_t last;
        mpq_init(last);
        for (size_t k = 0; k < u->n_transfers; k++)
            if (mpq_cmp(u->transfers[k].end, last) > 0)
                mpq_set(last, u->transfers[k].end);
        for (size_t k = 0; k < u->n_computations; k++)
            if (mpq_cmp(u->computations[k].end, last) > 0)
                mpq_set(last, u->computations[k].end);
        mpz_t t;
        mpz_init(t);
        mpz_cdiv_q(t, mpq_numref(last), mpq_denref(last));
        mpz_mul(t, t, Q);
        exact = !mpz_fits_slong_p(t);
        mpz_clear(t);
        mpq_clear(last);
    }
    w.q = ok && !exact ? mpz_get_si(Q) : 1;
    w.a = ok && !exact_a ? mpz_get_si(A) : 1;
    /* a table pays only for many events */
    ok = ok && stream_scale(&w, u->n_transfers + u->n_computations > 100000);
    for (size_t k = 0; ok && k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *x = &u->transfers[k];
        sched_event_t ev = {0};
        ev.edge = x->edge;
        ev.type = x->type;
        ev.op = x->op;
        ev.batch = x->batch;
        event_times(&ev, exact, Q, x->start, x->end);
        char *json = NULL;
        if (exact_a) {
            ev.off = 0;
            ev.len = 1; /* = w.a: whole unless piece_json */
            if (mpq_sgn(x->piece_offset) != 0 || mpq_cmp_ui(x->piece_length, 1, 1) != 0) {
                size_t n = mpz_sizeinbase(mpq_numref(x->piece_offset), 10) +
                           mpz_sizeinbase(mpq_denref(x->piece_offset), 10) +
                           mpz_sizeinbase(mpq_numref(x->piece_length), 10) +
                           mpz_sizeinbase(mpq_denref(x->piece_length), 10) + 16;
                json = malloc(n);
                ok = json != NULL;
                if (json) {
                    char *q = json;
                    q = PUT_LIT(q, "[\"");
                    mpq_get_str(q, 10, x->piece_offset);
                    q += strlen(q);
                    q = PUT_LIT(q, "\", \"");
                    mpq_get_str(q, 10, x->piece_length);
                    q += strlen(q);
                    q = PUT_LIT(q, "\"]");
                    *q = '\0';
                    ev.piece_json = json;
                }
            }
        } else {
            ev.off = over(A, x->piece_offset);
            ev.len = over(A, x->piece_length);
        }
        ok = ok && write_transfer(&w, &ev);
        free(json);
    }
    ssched_i_obuf_flush(&w.out);
    if (ok && interval_like(s)) {
        fputs("\n ],\n \"computations\": [\n", out);
        for (size_t k = 0; ok && k < u->n_computations; k++) {
            const ssched_timed_computation_t *x = &u->computations[k];
            sched_event_t ev = {0};
            ev.is_comp = 1;
            ev.node = x->node;
            ev.k = x->k;
            ev.l = x->l;
            ev.m = x->m;
            ev.op = x->op;
            event_times(&ev, exact, Q, x->start, x->end);
            ok = write_computation(&w, &w.out, &ev);
        }
        ssched_i_obuf_flush(&w.out);
    }
    if (ok && !w.out.failed) {
        fputs("\n ],\n", out);
        write_figures(out, &u->fig, w.quoted, p->n_nodes, s->kind != SSCHED_PROBLEM_SCAN);
        fputs("}\n", out);
    }
    ok = ok && !w.out.failed;
    mpz_clears(Q, A, NULL);
    stream_free(&w);
    if (fflush(out) != 0 || ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    /* what is left: no memory, or times beyond 63 bits (not from ssched_unroll) */
    return ok ? SSCHED_OK : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
}

char *ssched_i_unrolled_json_text(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_schedule_t *s, const ssched_unrolled_t *u)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    ssched_status_t st = ssched_write_unrolled_json(out, p, pb, s, u, NULL);
    if (fclose(out) != 0 || st != SSCHED_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}
