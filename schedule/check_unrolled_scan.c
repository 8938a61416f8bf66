/* Checker: an unrolled scan schedule (issue 27; MPI_Scan / MPI_Exscan),
 * simulated with a real associative, non-commutative operator (string
 * concatenation), sharing no code with the builder (schedule/unroll_scan.c).
 *
 * Participant k's value of time-stamp t is the string "k.t;", at its node
 * from time 0.  A computation T_{k,l,m} on a node that computes lasts w of
 * the node and makes v[k,m] there at its end from v[k,l] and v[l+1,m] of
 * the same time-stamp, both there by its start, concatenated left operand
 * first (adjacent intervals, in order: "task": [k, l, m], k <= l < m).  A
 * transfer over a platform edge lasts l(e) + size c(e), moves one whole
 * value of one time-stamp, which must be at the sender by its start, and
 * the receiver has it at its end.  Unlike a reduce, a value is not
 * consumed: it stays where it is and may be sent again or merged again (a
 * prefix v[0,j] is r_j's answer and an operand of v[0,j+1]).  A value made
 * or brought twice to a node is kept from the earlier time.  Ports: one
 * send and one receive at a time per host, each link at a switch its own
 * resource, a transfer holding them only in its bandwidth phase
 * [start + l, end); one task at a time per processor (check_ports.c).
 *
 * At the end participant j (j >= 1) must hold, for every time-stamp t,
 * v[0,j] = "0.t;1.t;...j.t;" (exclusive: v[0,j-1]), exactly the ordered
 * product: each operand once, in order.  Events are listed in start order
 * (computations first at equal starts: a free merge may feed a transfer
 * starting when it ends). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "schedule/check_values.h"
#include "src/util/internal.h"

/* The values present (schedule/check_values.h; the scan uses node,
 * interval, op, value and since). */
typedef chk_val_t val_t;
typedef chk_vals_t vtab_t;

typedef struct {
    int compute;
    size_t index, op, thing; /* thing: edge, or node */
    size_t t[3];             /* transfer: t[0] its interval; task: out, left, right */
    mpq_t start, end;
} sev_t;

/* The value (node, type, op) usable at `at`, as a new string (NULL after a
 * violation, or out of memory with *oom). */
static char *get(chk_t *c, vtab_t *t, size_t node, size_t type, size_t op, const mpq_t at,
                 const char *where, int *oom)
{
    size_t own = ssched_i_chk_type_own(c, type);
    char *v = NULL;
    if (own != SIZE_MAX && c->participants[own] == node) {
        char buf[64];
        snprintf(buf, sizeof buf, "%zu.%zu;", own, op);
        v = strdup(buf);
    } else {
        val_t *x = ssched_i_chk_val_find(t, node, type, op, 0);
        char name[96];
        if (!x || !x->value || mpq_cmp(x->since, at) > 0) {
            ssched_i_chk_type_name(c, type, name, sizeof name);
            ssched_i_chk_violation(c, "%s uses %s of time-stamp %zu on %s %s", where, name, op,
                                   c->names[node], !x || !x->value ? "which is not there"
                                                                   : "before it is there");
            return NULL;
        }
        v = strdup(x->value);
    }
    if (!v)
        *oom = 1;
    return v;
}

/* The value arrives (or is made) at node at `at`: kept from the earlier
 * time when it is already there.  0 on out of memory (value freed). */
static int put(vtab_t *t, size_t node, size_t type, size_t op, const mpq_t at, char *value)
{
    val_t *x = ssched_i_chk_val_find(t, node, type, op, 1);
    if (!x) {
        free(value);
        return 0;
    }
    if (x->value && mpq_cmp(x->since, at) <= 0) {
        free(value);
        return 1;
    }
    free(x->value);
    x->value = value;
    mpq_set(x->since, at);
    return 1;
}

static ssched_status_t parse(chk_t *c, json_t *x, int compute, size_t index, size_t K,
                             sev_t *e, char *where, size_t wlen)
{
    static const char *const tkeys[] = {"start", "end", "from", "to", "interval", "op", NULL};
    static const char *const ckeys[] = {"start", "end", "node", "task", "op", NULL};
    snprintf(where, wlen, "%s[%zu]", compute ? "computations" : "transfers", index);
    e->compute = compute;
    e->index = index;
    if (!compute && (json_object_get(x, "batch") || json_object_get(x, "piece")))
        return ssched_i_chk_bad(c, "%s: a scan transfer moves one whole value of one operation "
                                   "(no \"batch\", no \"piece\")", where);
    ssched_status_t st;
    if ((st = ssched_i_chk_keys(c, x, where, compute ? ckeys : tkeys)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "start", where, e->start)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, x, "end", where, e->end)) != SSCHED_OK)
        return st;
    json_t *op = json_object_get(x, "op");
    if (!json_is_integer(op) || json_integer_value(op) < 0)
        return ssched_i_chk_bad(c, "%s: missing non-negative integer \"op\"", where);
    e->op = (size_t)json_integer_value(op);
    if (compute) {
        if ((st = ssched_i_chk_get_node(c, x, "node", where, &e->thing)) != SSCHED_OK ||
            (st = ssched_i_chk_comp_types(c, x, where, e->t)) != SSCHED_OK)
            return st;
    } else if ((st = ssched_i_chk_transfer(c, x, where, &e->thing, &e->t[0])) != SSCHED_OK) {
        return st;
    }
    if (!c->report->valid)
        return SSCHED_OK;
    mpq_t q;
    mpq_init(q);
    if (compute) {
        mpq_sub(q, e->end, e->start);
        if (!c->has_w[e->thing] || chk_multi(c, e->thing))
            ssched_i_chk_violation(c, "%s: node %s cannot compute", where, c->names[e->thing]);
        else if (!mpq_equal(q, c->w[e->thing]))
            ssched_i_chk_violation(c, "%s: a task lasts w of its node", where);
    } else {
        mpq_set_ui(q, 1, 1);
        mpq_t d;
        mpq_init(d);
        ssched_i_chk_duration(c, e->thing, 1, q, e->start, e->end, where, d);
        mpq_clear(d);
    }
    mpq_clear(q);
    if (c->report->valid && e->op >= K)
        ssched_i_chk_violation(c, "%s: time-stamp %zu is outside 0..%zu", where, e->op, K - 1);
    if (c->report->valid && mpq_sgn(e->start) < 0)
        ssched_i_chk_violation(c, "%s: starts before time 0", where);
    if (mpq_cmp(e->end, c->makespan) > 0)
        mpq_set(c->makespan, e->end);
    return SSCHED_OK;
}

/* One event in start order: its resources, then its values. */
static ssched_status_t run(chk_t *c, vtab_t *t, chk_ports_t *P, const sev_t *e, const char *where)
{
    int taken = e->compute ? ssched_i_chk_ports_compute(c, P, e->thing, e->start, e->end, where)
                           : ssched_i_chk_ports_take_thing(c, P, e->thing, e->start, e->end, where);
    if (taken <= 0)
        return taken < 0 ? SSCHED_ENOMEM : SSCHED_OK;
    int oom = 0;
    if (e->compute) {
        char *a = get(c, t, e->thing, e->t[1], e->op, e->start, where, &oom);
        char *b = a ? get(c, t, e->thing, e->t[2], e->op, e->start, where, &oom) : NULL;
        char *v = a && b ? malloc(strlen(a) + strlen(b) + 1) : NULL;
        if (v) {
            strcpy(v, a);
            strcat(v, b); /* left operand first: the operator is not commutative */
            oom = !put(t, e->thing, e->t[0], e->op, e->end, v);
        } else if (a && b) {
            oom = 1;
        }
        free(a);
        free(b);
    } else {
        size_t i = c->from[e->thing], j = c->to[e->thing];
        char *v = get(c, t, i, e->t[0], e->op, e->start, where, &oom);
        if (v)
            oom = !put(t, j, e->t[0], e->op, e->end, v);
    }
    return oom ? ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory") : SSCHED_OK;
}

typedef struct {
    chk_iter_t it;
    sev_t ev;
    int has;
    char where[64];
    mpq_t prev;
} sstream_t;

static ssched_status_t next(chk_t *c, sstream_t *s, int compute, size_t K)
{
    json_t *x;
    size_t index = s->it.index;
    s->has = 0;
    ssched_status_t st = ssched_i_chk_iter_next(&s->it, &x, c->err);
    if (st != SSCHED_OK || !x)
        return st;
    st = parse(c, x, compute, index, K, &s->ev, s->where, sizeof s->where);
    json_decref(x);
    if (st != SSCHED_OK)
        return st;
    if (index > 0 && mpq_cmp(s->ev.start, s->prev) < 0)
        return ssched_i_chk_bad(c, "%s: events must be listed in start order", s->where);
    mpq_set(s->prev, s->ev.start);
    s->has = 1;
    return SSCHED_OK;
}

/* Does every participant hold its prefix of every time-stamp? */
static ssched_status_t results(chk_t *c, vtab_t *t, size_t K)
{
    char *want = malloc(c->N * 48 + 1);
    if (!want)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t op = 0; op < K && c->report->valid; op++) {
        size_t len = 0;
        for (size_t j = 0; j < c->N && c->report->valid; j++) {
            len += (size_t)sprintf(want + len, "%zu.%zu;", j, op);
            size_t r = c->exclusive ? j + 1 : j; /* the participant whose answer v[0,j] is */
            if (r == 0 || r >= c->N)
                continue;
            size_t type = ssched_i_chk_interval(c, 0, j), node = c->participants[r];
            val_t *x = ssched_i_chk_val_find(t, node, type, op, 0);
            char name[96];
            ssched_i_chk_type_name(c, type, name, sizeof name);
            if (!x || !x->value)
                ssched_i_chk_violation(c, "participant %s never receives %s of time-stamp %zu",
                                       c->names[node], name, op);
            else if (strcmp(x->value, want))
                ssched_i_chk_violation(c, "participant %s's %s of time-stamp %zu is not the "
                                          "ordered product of operands 0..%zu", c->names[node],
                                       name, op, j);
        }
    }
    free(want);
    return SSCHED_OK;
}

ssched_status_t ssched_i_chk_unrolled_scan(chk_t *c, json_t *root, const chk_extent_t *tr,
                                           const chk_extent_t *co)
{
    json_t *kj = json_object_get(root, "operations");
    if (!json_is_integer(kj) || json_integer_value(kj) < 1)
        return ssched_i_chk_bad(c, "missing positive integer \"operations\"");
    size_t K = (size_t)json_integer_value(kj);
    if (json_is_true(json_object_get(root, "split")))
        return ssched_i_chk_bad(c, "a scan schedule moves whole values: \"split\" must be false");
    chk_ports_t ports;
    if (!ssched_i_chk_ports_init(&ports, c->n_nodes, c->n_edges, c->n_links))
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    sstream_t s[2];
    for (int k = 0; k < 2; k++) {
        memset(&s[k], 0, sizeof s[k]);
        ssched_i_chk_iter_init(&s[k].it, k ? co : tr, k ? "computations" : "transfers");
        mpq_inits(s[k].ev.start, s[k].ev.end, s[k].prev, NULL);
    }
    mpq_set_ui(c->makespan, 0, 1);
    vtab_t table = {0, 0, NULL};
    ssched_status_t st = next(c, &s[0], 0, K);
    if (st == SSCHED_OK)
        st = next(c, &s[1], 1, K);
    size_t counts[2] = {0, 0};
    while (st == SSCHED_OK && (s[0].has || s[1].has)) {
        int k = !s[0].has ? 1 : !s[1].has ? 0 : mpq_cmp(s[1].ev.start, s[0].ev.start) <= 0;
        counts[k]++;
        if (c->report->valid)
            st = run(c, &table, &ports, &s[k].ev, s[k].where);
        if (st == SSCHED_OK)
            st = next(c, &s[k], k, K);
    }
    c->report->n_transfers = counts[0];
    c->report->n_slots = counts[1];
    if (st == SSCHED_OK && c->report->valid)
        st = results(c, &table, K);
    if (st == SSCHED_OK && c->report->valid) {
        mpq_t zero;
        mpq_init(zero); /* a scan file states no buffer figures */
        st = ssched_i_chk_unrolled_claims(c, root, K, c->makespan, zero, 0);
        mpq_clear(zero);
    }
    ssched_i_chk_vals_free(&table);
    for (int k = 0; k < 2; k++)
        mpq_clears(s[k].ev.start, s[k].ev.end, s[k].prev, NULL);
    ssched_i_chk_ports_free(&ports);
    return st;
}
