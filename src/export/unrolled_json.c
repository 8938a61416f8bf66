/* "ssched-unrolled/2" JSON: the unrolled schedule of K operations, streamed
 * while it is generated (ssched_unroll_write) or from memory
 * (ssched_unrolled_json).  One event per line; transfers first, then (reduce)
 * computations, then the figures, so a file of any size is written in
 * memory independent of K.  Transfers that move part of a message carry
 * "piece": [offset, length] as fractions of one message. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/export/json_util.h"

typedef struct {
    sched_sink_t base;
    const ssched_platform_t *p;
    const ssched_problem_t *pb;
    const ssched_schedule_t *s;
    FILE *out, *comps;            /* computations wait in a temporary file */
    char **quoted;                /* JSON-quoted node names                */
    int64_t q, a;                 /* ticks per unit time, units per message */
    size_t n_transfers, n_comps;
    int failed;
} stream_t;

static char **quote_names(const ssched_platform_t *p)
{
    char **q = calloc(p->n_nodes ? p->n_nodes : 1, sizeof *q);
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

static void write_transfer(stream_t *w, const sched_event_t *ev)
{
    char a[48], b[48];
    int64_t q = w->base.sc ? w->base.sc->q : w->q, units = w->base.sc ? w->base.sc->a : w->a;
    sched_ratio_str(ev->start, q, a);
    sched_ratio_str(ev->end, q, b);
    size_t i = w->p->from[ev->edge], j = w->p->to[ev->edge];
    fprintf(w->out, "%s  {\"start\": \"%s\", \"end\": \"%s\", \"from\": %s, \"to\": %s, ",
            w->n_transfers ? ",\n" : "", a, b, w->quoted[i], w->quoted[j]);
    if (w->s->kind == SSCHED_PROBLEM_REDUCE)
        fprintf(w->out, "\"interval\": [%zu, %zu]", w->s->intervals[ev->type].k,
                w->s->intervals[ev->type].m);
    else
        fprintf(w->out, "\"origin\": %s, \"dest\": %s",
                w->quoted[w->s->commodities[ev->type].origin],
                w->quoted[w->s->commodities[ev->type].dest]);
    fprintf(w->out, ", \"op\": %lu", ev->op);
    if (ev->piece_json) {
        fprintf(w->out, ", \"piece\": %s", ev->piece_json);
    } else if (!ev->piece_off && ev->len != units) {
        sched_ratio_str(ev->off, units, a);
        sched_ratio_str(ev->len, units, b);
        fprintf(w->out, ", \"piece\": [\"%s\", \"%s\"]", a, b);
    }
    fputc('}', w->out);
    w->n_transfers++;
}

static void write_computation(stream_t *w, FILE *f, const sched_event_t *ev)
{
    char a[48], b[48];
    int64_t q = w->base.sc ? w->base.sc->q : w->q;
    sched_ratio_str(ev->start, q, a);
    sched_ratio_str(ev->end, q, b);
    fprintf(f, "%s  {\"start\": \"%s\", \"end\": \"%s\", \"node\": %s, \"task\": [%zu, %zu, %zu], "
               "\"op\": %lu}",
            w->n_comps ? ",\n" : "", a, b, w->quoted[ev->node], ev->k, ev->l, ev->m, ev->op);
    w->n_comps++;
}

static ssched_status_t stream_emit(sched_sink_t *sk, const sched_event_t *ev, ssched_error_t *err)
{
    stream_t *w = (stream_t *)sk;
    if (ev->is_comp)
        write_computation(w, w->comps, ev);
    else
        write_transfer(w, ev);
    if (ferror(w->out) || (w->comps && ferror(w->comps)))
        return ssched_error_set(err, SSCHED_EINTERNAL, "cannot write the unrolled schedule");
    return SSCHED_OK;
}

/* The header object without its closing brace. */
static ssched_status_t write_header(FILE *out, const ssched_platform_t *p,
                                    const ssched_problem_t *pb, const ssched_schedule_t *s,
                                    unsigned long K, ssched_error_t *err)
{
    json_t *root = ssched_schedule_json_header("ssched-unrolled/2", p, pb, s);
    /* the certified optimum, not the pattern's (reported apart) */
    json_object_set_new(root, "throughput", json_mpq(mpq_sgn(s->optimal_throughput)
                                                          ? s->optimal_throughput : s->throughput));
    json_object_set_new(root, "operations", json_integer((json_int_t)K));
    json_object_set_new(root, "split", json_boolean(s->split && !s->unroll_whole));
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

static void write_figures(FILE *out, const ssched_unroll_figures_t *f)
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
    write_q(out, "ratio", f->ratio, 1);
}

static void close_arrays(stream_t *w)
{
    fputs("\n ],\n", w->out);
    if (w->s->kind == SSCHED_PROBLEM_REDUCE) {
        fputs(" \"computations\": [\n", w->out);
        if (w->comps) {
            rewind(w->comps);
            char buf[1 << 16];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, w->comps)) > 0)
                fwrite(buf, 1, n, w->out);
        }
        fputs("\n ],\n", w->out);
    }
}

ssched_status_t ssched_unroll_write(const ssched_platform_t *p, const ssched_problem_t *pb,
                                    const ssched_schedule_t *s, unsigned long K,
                                    const ssched_unroll_limits_t *limits, FILE *out,
                                    ssched_unroll_figures_t *fig, ssched_error_t *err)
{
    stream_t w;
    memset(&w, 0, sizeof w);
    w.base.emit = stream_emit;
    w.p = p;
    w.pb = pb;
    w.s = s;
    w.out = out;
    w.quoted = quote_names(p);
    if (!w.quoted)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (s->kind == SSCHED_PROBLEM_REDUCE && !(w.comps = tmpfile())) {
        free_names(w.quoted, p->n_nodes);
        return ssched_error_set(err, SSCHED_EINTERNAL, "cannot create a temporary file");
    }
    ssched_status_t st = write_header(out, p, pb, s, K, err);
    if (st == SSCHED_OK)
        st = sched_unroll_run(p, pb, s, K, limits, &w.base, fig, err);
    if (st == SSCHED_OK) {
        close_arrays(&w);
        write_figures(out, fig);
        fputs("}\n", out);
        if (fflush(out) != 0 || ferror(out))
            st = ssched_error_set(err, SSCHED_EINTERNAL, "cannot write the unrolled schedule");
    }
    if (w.comps)
        fclose(w.comps);
    free_names(w.quoted, p->n_nodes);
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

char *ssched_unrolled_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_schedule_t *s, const ssched_unrolled_t *u)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    stream_t w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.s = s;
    w.out = out;
    w.quoted = quote_names(p);
    /* the in-memory events are fractions: print them through a common
     * denominator of their own */
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
    int ok = w.quoted && mpz_fits_slong_p(Q) && mpz_fits_slong_p(A) &&
             write_header(out, p, pb, s, u->operations, NULL) == SSCHED_OK;
    w.q = ok ? mpz_get_si(Q) : 1;
    w.a = ok ? mpz_get_si(A) : 1;
    for (size_t k = 0; ok && k < u->n_transfers; k++) {
        const ssched_timed_transfer_t *x = &u->transfers[k];
        sched_event_t ev = {0};
        ev.edge = x->edge;
        ev.type = x->type;
        ev.op = x->op;
        ev.start = over(Q, x->start);
        ev.end = over(Q, x->end);
        ev.off = over(A, x->piece_offset);
        ev.len = over(A, x->piece_length);
        write_transfer(&w, &ev);
    }
    if (ok && s->kind == SSCHED_PROBLEM_REDUCE) {
        fputs("\n ],\n \"computations\": [\n", out);
        for (size_t k = 0; k < u->n_computations; k++) {
            const ssched_timed_computation_t *x = &u->computations[k];
            sched_event_t ev = {0};
            ev.is_comp = 1;
            ev.node = x->node;
            ev.k = x->k;
            ev.l = x->l;
            ev.m = x->m;
            ev.op = x->op;
            ev.start = over(Q, x->start);
            ev.end = over(Q, x->end);
            write_computation(&w, out, &ev);
        }
    }
    if (ok) {
        fputs("\n ],\n", out);
        write_figures(out, &u->fig);
        fputs("}\n", out);
    }
    mpz_clears(Q, A, NULL);
    free_names(w.quoted, p->n_nodes);
    if (fclose(out) != 0 || !ok) {
        free(buf);
        return NULL;
    }
    return buf;
}
