/* The independent schedule checker (schedule.h: ssched_check_schedule_text).
 *
 * It trusts nothing but the file: it rebuilds the platform and the problem
 * from the JSON, then re-verifies every property of design.md.  It shares no
 * code with the schedule builder (only the exact number parser).  Malformed
 * files are SSCHED_EINPUT; a well-formed file that breaks a property is
 * reported with report->valid = 0 and the first violation stated plainly. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "schedule/check_periodic_scan.h"
#include "src/util/internal.h"
#include "ssched/rational.h"

void ssched_i_chk_init(chk_t *c)
{
    memset(c, 0, sizeof *c);
    mpq_inits(c->size, c->throughput, c->makespan, NULL);
}

void ssched_i_chk_free(chk_t *c)
{
    ssched_i_chk_routes_free(c);
    for (size_t i = 0; i < c->n_nodes; i++) {
        free(c->names[i]);
        if (c->w)
            mpq_clear(c->w[i]);
    }
    for (size_t e = 0; e < c->n_edges; e++) {
        mpq_clear(c->cost[e]);
        if (c->lat)
            mpq_clear(c->lat[e]);
    }
    free(c->has_w);
    free(c->multi);
    free(c->w);
    free(c->participants);
    free(c->names);
    free(c->by_name);
    free(c->edge_at);
    free(c->type_at);
    free(c->from);
    free(c->to);
    free(c->cost);
    free(c->lat);
    free(c->type_origin);
    free(c->type_dest);
    ssched_sets_free(&c->sets);
    free(c->scratch);
    mpq_clears(c->size, c->throughput, c->makespan, NULL);
    memset(c, 0, sizeof *c);
}

int ssched_i_chk_violation(chk_t *c, const char *fmt, ...)
{
    if (c->report->valid) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->report->violation, sizeof c->report->violation, fmt, ap);
        va_end(ap);
        c->report->valid = 0;
    }
    return 0;
}

ssched_status_t ssched_i_chk_bad(chk_t *c, const char *fmt, ...)
{
    char msg[SSCHED_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ssched_error_set(c->err, SSCHED_EINPUT, "schedule file: %s", msg);
}

ssched_status_t ssched_i_chk_get_q(chk_t *c, json_t *obj, const char *key, const char *where, mpq_t out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return ssched_i_chk_bad(c, "%s: missing exact string field \"%s\"", where, key);
    /* the common form "p" or "p/q" (digits only) straight into GMP */
    const char *t = json_string_value(v);
    size_t n = strspn(t, "0123456789");
    if (n > 0 && n < 64 && (t[n] == 0 || (t[n] == '/' && t[n + 1] != '0' &&
                                          strspn(t + n + 1, "0123456789") > 0 &&
                                          t[n + 1 + strspn(t + n + 1, "0123456789")] == 0)) &&
        strlen(t) < 128 && mpq_set_str(out, t, 10) == 0) {
        mpq_canonicalize(out);
        return SSCHED_OK;
    }
    ssched_error_t e;
    ssched_status_t st = ssched_rational_parse(out, json_string_value(v), &e);
    if (st == SSCHED_ENOMEM) /* not a property of the file */
        return ssched_error_set(c->err, st, "%s", e.message);
    if (st != SSCHED_OK)
        return ssched_i_chk_bad(c, "%s: field \"%s\": %s", where, key, e.message);
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_get_node(chk_t *c, json_t *obj, const char *key, const char *where,
                             size_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return ssched_i_chk_bad(c, "%s: missing node field \"%s\"", where, key);
    const char *name = json_string_value(v);
    if (c->by_name) {
        size_t lo = 0, hi = c->n_nodes;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int r = strcmp(c->names[c->by_name[mid]], name);
            if (r == 0) {
                *out = c->by_name[mid];
                return SSCHED_OK;
            }
            if (r < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        return ssched_i_chk_bad(c, "%s: unknown node '%s'", where, name);
    }
    for (size_t i = 0; i < c->n_nodes; i++)
        if (!strcmp(c->names[i], name)) {
            *out = i;
            return SSCHED_OK;
        }
    return ssched_i_chk_bad(c, "%s: unknown node '%s'", where, name);
}

static const chk_t *sort_ctx;
static int by_name_cmp(const void *a, const void *b)
{
    return strcmp(sort_ctx->names[*(const size_t *)a], sort_ctx->names[*(const size_t *)b]);
}

void ssched_i_chk_index(chk_t *c)
{
    size_t nn = c->n_nodes;
    if (c->by_name || nn == 0 || nn > 4096)
        return;
    c->by_name = malloc(nn * sizeof *c->by_name);
    c->edge_at = malloc(nn * nn * sizeof *c->edge_at);
    c->type_at = c->reduce ? NULL : malloc(nn * nn * sizeof *c->type_at);
    if (!c->by_name || !c->edge_at || (!c->reduce && !c->type_at)) {
        free(c->by_name);
        free(c->edge_at);
        free(c->type_at);
        c->by_name = c->edge_at = c->type_at = NULL;
        return;
    }
    for (size_t i = 0; i < nn; i++)
        c->by_name[i] = i;
    sort_ctx = c;
    qsort(c->by_name, nn, sizeof *c->by_name, by_name_cmp);
    for (size_t k = 0; k < nn * nn; k++)
        c->edge_at[k] = (size_t)-1;
    for (size_t e = c->n_edges; e-- > 0;) /* the first edge wins, as the scan */
        c->edge_at[c->from[e] * nn + c->to[e]] = e;
    if (c->type_at) {
        for (size_t k = 0; k < nn * nn; k++)
            c->type_at[k] = (size_t)-1;
        for (size_t t = c->n_types; t-- > 0;)
            c->type_at[c->type_origin[t] * nn + c->type_dest[t]] = t;
    }
}

ssched_status_t ssched_i_chk_slot_span(chk_t *c, json_t *sl, size_t k, const char *where,
                                       mpq_srcptr period, mpq_t prev, mpq_t start, mpq_t end)
{
    static const char *const slot_keys[] = {"start", "end", "transfers", NULL};
    ssched_status_t st;
    if ((st = ssched_i_chk_keys(c, sl, where, slot_keys)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, sl, "start", where, start)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, sl, "end", where, end)) != SSCHED_OK)
        return st;
    if (mpq_cmp(start, prev) < 0)
        ssched_i_chk_violation(c, "slot %zu starts before the previous slot ends (or before 0)", k);
    else if (mpq_cmp(end, start) <= 0)
        ssched_i_chk_violation(c, "slot %zu ends before it starts", k);
    else if (mpq_cmp(end, period) > 0)
        ssched_i_chk_violation(c, "slot %zu ends after the period", k);
    mpq_set(prev, end);
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_slot_room(chk_t *c, size_t n, size_t **edge, mpq_t **amount,
                                       size_t *cap)
{
    if (n <= *cap)
        return SSCHED_OK;
    size_t *e2 = realloc(*edge, n * sizeof **edge);
    if (e2)
        *edge = e2;
    mpq_t *a2 = e2 ? realloc(*amount, n * sizeof **amount) : NULL;
    if (!a2)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    *amount = a2;
    for (size_t t = *cap; t < n; t++)
        mpq_init((*amount)[t]);
    *cap = n;
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_keys(chk_t *c, json_t *obj, const char *where, const char *const *allowed)
{
    if (!json_is_object(obj))
        return ssched_i_chk_bad(c, "%s: must be an object", where);
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        size_t k = 0;
        while (allowed[k] && strcmp(allowed[k], key))
            k++;
        if (!allowed[k])
            return ssched_i_chk_bad(c, "%s: unknown key \"%s\"", where, key);
    }
    return SSCHED_OK;
}

size_t ssched_i_chk_edge(const chk_t *c, size_t from, size_t to)
{
    if (c->edge_at)
        return c->edge_at[from * c->n_nodes + to];
    for (size_t e = 0; e < c->n_edges; e++)
        if (c->from[e] == from && c->to[e] == to)
            return e;
    return (size_t)-1;
}

size_t ssched_i_chk_type(const chk_t *c, size_t origin, size_t dest)
{
    if (c->type_at)
        return c->type_at[origin * c->n_nodes + dest];
    for (size_t t = 0; t < c->n_types; t++)
        if (c->type_origin[t] == origin && c->type_dest[t] == dest)
            return t;
    return (size_t)-1;
}

size_t ssched_i_chk_interval(const chk_t *c, size_t k, size_t m)
{
    if (k > m || m >= c->N)
        return (size_t)-1;
    return ssched_interval_index(c->N, k, m);
}

int ssched_i_chk_int_array(json_t *a, size_t len, size_t *out)
{
    if (!json_is_array(a) || json_array_size(a) != len)
        return 0;
    for (size_t k = 0; k < len; k++) {
        json_t *v = json_array_get(a, k);
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return 0;
        out[k] = (size_t)json_integer_value(v);
    }
    return 1;
}

/* The (edge, type) of a transfer object; SSCHED_EINPUT if malformed. */
ssched_status_t ssched_i_chk_transfer(chk_t *c, json_t *x, const char *where, size_t *edge,
                             size_t *type)
{
    size_t from, to, origin, dest;
    ssched_status_t st;
    if ((st = ssched_i_chk_get_node(c, x, "from", where, &from)) != SSCHED_OK ||
        (st = ssched_i_chk_get_node(c, x, "to", where, &to)) != SSCHED_OK)
        return st;
    *edge = ssched_i_chk_edge(c, from, to);
    if (*edge == (size_t)-1)
        return ssched_i_chk_bad(c, "%s: no platform edge %s->%s", where, c->names[from], c->names[to]);
    if (c->bcast) { /* the one message of the broadcast */
        *type = 0;
        return SSCHED_OK;
    }
    if (c->allreduce && json_object_get(x, "copy")) { /* the broadcast of the result */
        if (!json_is_true(json_object_get(x, "copy")))
            return ssched_i_chk_bad(c, "%s: \"copy\" must be true", where);
        *type = CHK_COPY;
        return SSCHED_OK;
    }
    if (c->reduce && c->comm) {
        json_t *set = json_object_get(x, "set");
        if (!set)
            return ssched_i_chk_bad(c, "%s: missing \"set\": [participant indices]", where);
        return ssched_i_chk_read_set(c, set, where, type);
    }
    if (c->reduce) {
        size_t km[2];
        if (!ssched_i_chk_int_array(json_object_get(x, "interval"), 2, km))
            return ssched_i_chk_bad(c, "%s: missing \"interval\": [k, m]", where);
        *type = ssched_i_chk_interval(c, km[0], km[1]);
        if (*type == (size_t)-1)
            return ssched_i_chk_bad(c, "%s: interval [%zu,%zu] is not within the participants", where,
                           km[0], km[1]);
        return SSCHED_OK;
    }
    if ((st = ssched_i_chk_get_node(c, x, "origin", where, &origin)) != SSCHED_OK ||
        (st = ssched_i_chk_get_node(c, x, "dest", where, &dest)) != SSCHED_OK)
        return st;
    *type = ssched_i_chk_type(c, origin, dest);
    if (*type == (size_t)-1)
        return ssched_i_chk_bad(c, "%s: %s->%s is not a message type of the problem", where,
                       c->names[origin], c->names[dest]);
    return SSCHED_OK;
}

/* How many operations an unrolled file may state, up front, by one rule
 * for every kind: a simulation that keeps state per operation (broadcast:
 * who holds each message; reduce and all-reduce: every partial result)
 * checks at most 2^26 of them, one that keeps only what is in flight
 * (scatter, gossip) at most 2^40 (operation, type) pairs.  Above it the
 * file is refused naming the bound, before any allocation (a broadcast
 * stating 10^9 operations used to end in "out of memory"). */
static ssched_status_t operations_limit(chk_t *c, json_t *root)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return SSCHED_OK; /* each kind's checker names the field */
    uint64_t K = (uint64_t)json_integer_value(kj), max;
    if (c->bcast || c->reduce)
        max = (uint64_t)1 << 26;
    else
        max = ((uint64_t)1 << 40) / (c->n_types ? c->n_types : 1);
    if (K > max)
        return ssched_i_chk_bad(c, "too many operations to check (%" PRIu64 "; at most %" PRIu64
                                " for this problem)", K, max);
    return SSCHED_OK;
}

/* Unrolled files are read as a stream (check_stream.c): a header object,
 * then the event arrays one element at a time. */
static ssched_status_t check_unrolled_text(json_t *root, const chk_extent_t *tr,
                                           const chk_extent_t *co,
                                           const ssched_check_options_t *opt,
                                           ssched_check_report_t *report, ssched_error_t *err)
{
    chk_t c;
    ssched_i_chk_init(&c);
    c.report = report;
    c.err = err;
    c.opt = opt;
    const char *format = json_string_value(json_object_get(root, "format"));
    int strict = !strcmp(format, "ssched-unrolled/2");
    report->unrolled = 1;
    ssched_status_t st;
    if ((st = ssched_i_chk_read_platform(&c, root, strict)) == SSCHED_OK &&
        (st = ssched_i_chk_read_problem(&c, root, strict)) == SSCHED_OK &&
        (st = ssched_i_chk_get_q(&c, root, "throughput", "schedule", c.throughput)) == SSCHED_OK) {
        ssched_i_chk_index(&c);
        if ((st = operations_limit(&c, root)) != SSCHED_OK)
            ;
        else if (!tr->present)
            st = ssched_i_chk_bad(&c, "missing \"transfers\" array");
        else if (c.bcast)
            st = co->present ? ssched_i_chk_bad(&c, "\"computations\" in a broadcast schedule")
                             : ssched_i_chk_unrolled_broadcast(&c, root, tr);
        else if (c.scan)
            st = co->present ? ssched_i_chk_unrolled_scan(&c, root, tr, co)
                             : ssched_i_chk_bad(&c, "missing \"computations\" array");
        else if (c.reduce)
            st = co->present ? ssched_i_chk_unrolled_reduce(&c, root, tr, co)
                             : ssched_i_chk_bad(&c, "missing \"computations\" array");
        else if (co->present)
            st = ssched_i_chk_bad(&c, "\"computations\" in a scatter or gossip schedule");
        else
            st = ssched_i_chk_unrolled(&c, root, tr);
        /* last: the events are valid, now what they are claimed to reach */
        if (st == SSCHED_OK && report->valid)
            st = ssched_i_chk_throughput_claims(&c, root);
    }
    ssched_i_chk_free(&c);
    return st;
}

ssched_status_t ssched_check_schedule_text(const char *text, ssched_check_report_t *report,
                                           ssched_error_t *err)
{
    return ssched_check_schedule_buffer(text, strlen(text), report, err);
}

ssched_status_t ssched_check_schedule_buffer(const char *text, size_t len,
                                             ssched_check_report_t *report, ssched_error_t *err)
{
    return ssched_i_chk_check_buffer(text, len, 0, NULL, report, err);
}

void ssched_check_options_default(ssched_check_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->max_solve_size = SSCHED_CHECK_MAX_SOLVE_SIZE;
}

ssched_status_t ssched_check_schedule_buffer_opts(const char *text, size_t len,
                                                  const ssched_check_options_t *opt,
                                                  ssched_check_report_t *report,
                                                  ssched_error_t *err)
{
    return ssched_i_chk_check_buffer(text, len, 0, opt, report, err);
}

ssched_status_t ssched_i_chk_check_buffer(const char *text, size_t len, int mapped,
                                          const ssched_check_options_t *opt_in,
                                          ssched_check_report_t *report, ssched_error_t *err)
{
    ssched_check_options_t defaults;
    ssched_check_options_default(&defaults);
    const ssched_check_options_t *opt = opt_in ? opt_in : &defaults;
    memset(report, 0, sizeof *report);
    report->valid = 1;
    size_t nul = ssched_i_chk_find_nul(text, len, mapped);
    if (nul != SIZE_MAX)
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: NUL byte at offset %zu", nul);
    /* unrolled files are never loaded whole: split the top level first.  A
     * periodic file comes out of the split parsed whole (each key once,
     * every value with duplicate keys refused), so it is not parsed again:
     * one copy in memory.  Out of memory is reported as such (a periodic
     * file costs jansson some 30 bytes per byte), never as a syntax error. */
    json_t *root = NULL;
    json_error_t jerr;
    {
        json_t *top;
        chk_extent_t tr, co;
        ssched_error_t why;
        ssched_error_clear(&why);
        ssched_status_t sst = ssched_i_chk_split_top(text, len, mapped, &top, &tr, &co, &why);
        if (sst == SSCHED_ENOMEM)
            return ssched_error_set(err, SSCHED_ENOMEM, "schedule file: %s (the file has %zu "
                                    "bytes; a periodic schedule is held whole in memory)",
                                    why.message, len);
        if (sst == SSCHED_OK) {
            const char *f = json_string_value(json_object_get(top, "format"));
            int unrolled = f && (!strcmp(f, "ssched-unrolled/1") || !strcmp(f, "ssched-unrolled/2"));
            if (unrolled) {
                ssched_status_t st = check_unrolled_text(top, &tr, &co, opt, report, err);
                json_decref(top);
                return st;
            }
            /* the split keeps the event arrays apart: a periodic reduce's
             * "computations" (and a stray "transfers", refused by name
             * later) go back into the object */
            chk_extent_t *x[2] = {&tr, &co};
            const char *key[2] = {"transfers", "computations"};
            for (int k = 0; k < 2 && top; k++) {
                if (!x[k]->present)
                    continue;
                json_t *v = json_loadb(text + x[k]->begin, x[k]->end - x[k]->begin,
                                       JSON_REJECT_DUPLICATES, &jerr);
                if (!v && chk_json_oom(&jerr)) {
                    json_decref(top);
                    return ssched_error_set(err, SSCHED_ENOMEM, "schedule file: out of memory "
                                            "(the file has %zu bytes; a periodic schedule is "
                                            "held whole in memory)", len);
                }
                if (!v || json_object_set_new(top, key[k], v) != 0) {
                    json_decref(top); /* malformed: parsed as plain JSON below */
                    top = NULL;
                }
            }
            root = top;
        }
    }
    int whole = root == NULL; /* the split refused it: parse as plain JSON */
    if (whole && !(root = json_loadb(text, len, 0, &jerr))) {
        if (chk_json_oom(&jerr))
            return ssched_error_set(err, SSCHED_ENOMEM, "schedule file: out of memory (the file "
                                    "has %zu bytes; a periodic schedule is held whole in memory)",
                                    len);
        return ssched_error_set(err, SSCHED_EINPUT, "schedule file: invalid JSON at line %d: %s",
                                jerr.line, jerr.text);
    }
    chk_t c;
    ssched_i_chk_init(&c);
    c.report = report;
    c.err = err;
    c.opt = opt;
    ssched_status_t st;
    const char *format = json_string_value(json_object_get(root, "format"));
    /* strict reading (every key interpreted, no duplicates) for the
     * current formats; "ssched-unrolled/1" files predate it */
    int periodic = format && (!strcmp(format, "ssched-schedule/1") ||
                              !strcmp(format, "ssched-unrolled/2"));
    if (periodic && whole) {
        /* a key given twice would let a file show one value and be read
         * with the other: refused, like every field the checker cannot
         * interpret */
        json_t *strict = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
        if (!strict) {
            ssched_i_chk_free(&c);
            json_decref(root);
            if (chk_json_oom(&jerr))
                return ssched_error_set(err, SSCHED_ENOMEM, "schedule file: out of memory");
            return ssched_error_set(err, SSCHED_EINPUT, "schedule file: line %d: %s", jerr.line,
                                    jerr.text);
        }
        json_decref(strict);
    }
    if (!format)
        st = ssched_i_chk_bad(&c, "missing \"format\"");
    else if (strcmp(format, "ssched-schedule/1") && strcmp(format, "ssched-unrolled/1") &&
             strcmp(format, "ssched-unrolled/2"))
        st = ssched_i_chk_bad(&c, "unknown format '%s'", format);
    else if ((st = ssched_i_chk_read_platform(&c, root, periodic)) == SSCHED_OK &&
             (st = ssched_i_chk_read_problem(&c, root, periodic)) == SSCHED_OK &&
             (st = ssched_i_chk_get_q(&c, root, "throughput", "schedule", c.throughput)) == SSCHED_OK) {
        if (!strcmp(format, "ssched-schedule/1")) {
            st = c.scan        ? ssched_i_chk_periodic_scan(&c, root) /* check_periodic_scan.c */
                 : c.allreduce ? ssched_i_chk_allreduce(&c, root)
                 : c.bcast   ? ssched_i_chk_broadcast(&c, root)
                             : ssched_i_chk_periodic(&c, root);
            if (st == SSCHED_OK && report->valid)
                st = ssched_i_chk_throughput_claims(&c, root);
        } else {
            /* an unrolled format the stream reader did not take: malformed */
            st = ssched_i_chk_bad(&c, "unrolled file that is not a well-formed JSON object");
        }
    }
    ssched_i_chk_free(&c);
    json_decref(root);
    return st;
}
