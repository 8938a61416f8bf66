/* Checker: one period of a periodic scan schedule ("ssched-schedule/1",
 * problem kind scan; issue 27 item 4), sharing no code with the builder
 * (schedule/build_scan.c).
 *
 * The file states, per period of length T: slots of transfers of
 * intervals v[k,m] over platform edges (amounts, possibly fractional with
 * "split": true), computations (node, task [k,l,m], count), and the
 * prefix structures it interleaves ("structures": weight = instances per
 * period, each with its sends and tasks).  What is checked, in order:
 *
 *  1. the period, throughput = operations_per_period / period;
 *  2. every slot inside [0, T], after the previous one, its transfers
 *     positive (integers when "split" is false), one-port hosts sending to
 *     one node and receiving from one node, a switch's link used once, and
 *     each edge busy sum amount * size * c(e) <= the slot's length (routed
 *     files: the link and port rows, ssched_i_chk_slot);
 *  3. every computation on a node with a processor (never a switch),
 *     joining two ADJACENT intervals IN ORDER (v[k,m] = v[k,l] (x)
 *     v[l+1,m], k <= l < m < N: each operand once, left first), a whole
 *     positive count, and per node sum count * w <= T;
 *  4. the balance rule below, on the per-period totals;
 *  5. the structures (check_periodic_scan_struct.c): each one a complete
 *     derivation of every prefix from the participants' own values (least
 *     fixpoint: no value is sent or merged before something makes it),
 *     weights summing to operations_per_period, and their weighted sends
 *     and tasks equal to the slots' and computations' totals exactly;
 *  6. the figures (check_claims.c), then (check_solve.c) the throughput
 *     against the problem solved again: it must BE the achievable TP the
 *     certified packing gives, upper_bound the certified bound.
 *
 * The balance rule (copies).  Let have(i, I) = the transfers of I into i
 * plus the tasks on i producing I, per period (unbounded for v[k,k] at
 * r_k, its own value).  Then every USE of I at i is at most have(i, I),
 * use by use: sent(e, I) <= have(i, I) for each edge e out of i, and
 * count(T) <= have(i, I) for each task type T on i with operand I; and
 * have(r_j, v[0,a_j]) >= operations_per_period for each demand j
 * (a_j = j, exclusive j - 1).  Why per use and not summed: the scan LP
 * (docs/model.md, "Parallel prefix") lets the demands share a transfer or
 * a task through the copy rows f_j(e,I) <= x(e,I), g_j(i,T) <= t(i,T),
 * and each demand's flow f_j conserves (in_j + prod_j = out_j + cons_j):
 * one held value may be sent over several edges and merged by several
 * tasks, but one operation sends it at most once per edge and uses it at
 * most once per task, so each separate use is bounded by the operations
 * holding I at i, hence by have(i, I).  It is NECESSARY but not
 * sufficient: copies can support each other in a cycle (a sends v to b,
 * b sends v to a, nobody makes v), which no aggregate count excludes; the
 * structures' least fixpoint (5) does, and (5)'s exact totals tie the
 * slots to them, so (4) only names the first shortage plainly. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_periodic_scan.h"
#include "src/util/internal.h"

int ssched_i_cps_push(cps_list_t *L, size_t a, size_t b, size_t c, size_t d, const mpq_t q)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        cps_ent_t *v = realloc(L->v, cap * sizeof *v);
        if (!v)
            return 0;
        L->v = v;
        L->cap = cap;
    }
    cps_ent_t *x = &L->v[L->n++];
    x->a = a, x->b = b, x->c = c, x->d = d;
    mpq_init(x->q);
    mpq_set(x->q, q);
    return 1;
}

static int cmp_key(const cps_ent_t *p, size_t a, size_t b, size_t c, size_t d)
{
    if (p->a != a) return p->a < a ? -1 : 1;
    if (p->b != b) return p->b < b ? -1 : 1;
    if (p->c != c) return p->c < c ? -1 : 1;
    return p->d < d ? -1 : p->d > d;
}

static int cmp_ent(const void *x, const void *y)
{
    const cps_ent_t *q = y;
    return cmp_key(x, q->a, q->b, q->c, q->d);
}

void ssched_i_cps_merge(cps_list_t *L)
{
    if (L->n == 0)
        return;
    /* a GMP value may move in memory (it is a handle): sorting moves them */
    qsort(L->v, L->n, sizeof *L->v, cmp_ent);
    size_t m = 0;
    for (size_t k = 1; k < L->n; k++) {
        if (cmp_ent(&L->v[k], &L->v[m]) == 0) {
            mpq_add(L->v[m].q, L->v[m].q, L->v[k].q);
            mpq_clear(L->v[k].q);
        } else {
            L->v[++m] = L->v[k];
        }
    }
    L->n = m + 1;
}

const cps_ent_t *ssched_i_cps_find(const cps_list_t *L, size_t a, size_t b, size_t c, size_t d)
{
    size_t lo = 0, hi = L->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = cmp_key(&L->v[mid], a, b, c, d);
        if (r == 0)
            return &L->v[mid];
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void ssched_i_cps_free(cps_list_t *L)
{
    for (size_t k = 0; k < L->n; k++)
        mpq_clear(L->v[k].q);
    free(L->v);
    memset(L, 0, sizeof *L);
}

static void vname(const chk_t *c, size_t type, char *buf, size_t n)
{
    snprintf(buf, n, "v[%zu,%zu]", c->type_origin[type], c->type_dest[type]);
}

/* 2: the slots; their per-period totals into X (edge, type). */
static ssched_status_t read_slots(chk_t *c, json_t *root, const mpq_t period, int integral,
                                  cps_list_t *X)
{
    static const char *const tr_keys[] = {"from", "to", "interval", "amount", NULL};
    size_t nn = c->n_nodes, ne = c->n_edges;
    json_t *slots = json_object_get(root, "slots");
    if (!json_is_array(slots))
        return ssched_i_chk_bad(c, "missing \"slots\" array");
    size_t cap = 0, *edge = NULL;
    mpq_t *amount = NULL, *busy = ssched_i_alloc(ne, sizeof *busy);
    size_t *sends_to = ssched_i_alloc(nn, sizeof *sends_to);
    size_t *recv_from = ssched_i_alloc(nn, sizeof *recv_from);
    mpq_t start, end, prev;
    mpq_inits(start, end, prev, NULL);
    ssched_status_t st = SSCHED_OK;
    for (size_t e = 0; busy && e < ne; e++)
        mpq_init(busy[e]);
    if (!busy || !sends_to || !recv_from) {
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nn; i++)
        sends_to[i] = recv_from[i] = (size_t)-1;
    c->report->n_slots = json_array_size(slots);
    char where[96];
    for (size_t k = 0; k < json_array_size(slots) && c->report->valid; k++) {
        json_t *sl = json_array_get(slots, k);
        snprintf(where, sizeof where, "slots[%zu]", k);
        if ((st = ssched_i_chk_slot_span(c, sl, k, where, period, prev, start, end)) != SSCHED_OK)
            goto out;
        if (!c->report->valid)
            break;
        json_t *tr = json_object_get(sl, "transfers");
        if (!json_is_array(tr)) {
            st = ssched_i_chk_bad(c, "%s: missing \"transfers\" array", where);
            goto out;
        }
        size_t n = json_array_size(tr);
        if ((st = ssched_i_chk_slot_room(c, n, &edge, &amount, &cap)) != SSCHED_OK)
            goto out;
        c->report->n_transfers += n;
        for (size_t t = 0; t < n && c->report->valid; t++) {
            json_t *x = json_array_get(tr, t);
            size_t type;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, t);
            if ((st = ssched_i_chk_keys(c, x, where, tr_keys)) != SSCHED_OK ||
                (st = ssched_i_chk_transfer(c, x, where, &edge[t], &type)) != SSCHED_OK ||
                (st = ssched_i_chk_get_q(c, x, "amount", where, amount[t])) != SSCHED_OK)
                goto out;
            if (mpq_sgn(amount[t]) <= 0)
                ssched_i_chk_violation(c, "%s: the amount must be positive", where);
            else if (integral && mpz_cmp_ui(mpq_denref(amount[t]), 1) != 0)
                ssched_i_chk_violation(c, "%s: split is false but the amount is not an integer",
                                       where);
            else if (!ssched_i_cps_push(X, edge[t], type, 0, 0, amount[t]))
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            if (st != SSCHED_OK)
                goto out;
        }
        if (c->report->valid)
            ssched_i_chk_slot(c, k, start, end, edge, amount, n, sends_to, recv_from, busy);
    }
out:
    for (size_t t = 0; t < cap; t++)
        mpq_clear(amount[t]);
    for (size_t e = 0; busy && e < ne; e++)
        mpq_clear(busy[e]);
    free(edge); free(amount); free(busy); free(sends_to); free(recv_from);
    mpq_clears(start, end, prev, NULL);
    return st;
}

/* 3: the computations; their counts into C (node, k, l, m). */
static ssched_status_t read_computations(chk_t *c, json_t *root, const mpq_t period, cps_list_t *C)
{
    static const char *const keys[] = {"node", "task", "count", NULL};
    json_t *comps = json_object_get(root, "computations");
    if (!json_is_array(comps))
        return ssched_i_chk_bad(c, "missing \"computations\" array");
    mpq_t *load = ssched_i_alloc(c->n_nodes, sizeof *load);
    if (!load)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < c->n_nodes; i++)
        mpq_init(load[i]);
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    char where[64];
    for (size_t x = 0; x < json_array_size(comps) && c->report->valid && st == SSCHED_OK; x++) {
        json_t *o = json_array_get(comps, x);
        size_t node, v[3];
        snprintf(where, sizeof where, "computations[%zu]", x);
        if ((st = ssched_i_chk_keys(c, o, where, keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_node(c, o, "node", where, &node)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "count", where, q)) != SSCHED_OK)
            break;
        if (!ssched_i_chk_int_array(json_object_get(o, "task"), 3, v)) {
            st = ssched_i_chk_bad(c, "%s: \"task\" must be [k, l, m]", where);
            break;
        }
        if (!(v[0] <= v[1] && v[1] < v[2] && v[2] < c->N))
            ssched_i_chk_violation(c, "%s: task [%zu,%zu,%zu] does not join two adjacent intervals "
                                   "in order (v[k,l] then v[l+1,m], k <= l < m < %zu)",
                                   where, v[0], v[1], v[2], c->N);
        else if (chk_multi(c, node) || !c->has_w[node])
            ssched_i_chk_violation(c, "%s: %s %s computes", where,
                                   chk_multi(c, node) ? "switch" : "node without a processor",
                                   c->names[node]);
        else if (mpq_sgn(q) <= 0 || mpz_cmp_ui(mpq_denref(q), 1) != 0)
            ssched_i_chk_violation(c, "%s: the count must be a positive integer", where);
        else if (!ssched_i_cps_push(C, node, v[0], v[1], v[2], q))
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        else {
            mpq_mul(q, q, c->w[node]);
            mpq_add(load[node], load[node], q);
        }
    }
    for (size_t i = 0; i < c->n_nodes && c->report->valid && st == SSCHED_OK; i++)
        if (mpq_cmp(load[i], period) > 0)
            ssched_i_chk_violation(c, "node %s computes longer than the period", c->names[i]);
    for (size_t i = 0; i < c->n_nodes; i++)
        mpq_clear(load[i]);
    free(load);
    mpq_clear(q);
    return st;
}

/* Is type I node i's own value (v[k,k] at r_k)? */
static int own(const chk_t *c, size_t i, size_t I)
{
    size_t k = c->type_origin[I];
    return k == c->type_dest[I] && c->participants[k] == i;
}

static int enough(const chk_t *c, const cps_list_t *H, size_t i, size_t I, const mpq_t need)
{
    if (own(c, i, I))
        return 1;
    const cps_ent_t *h = ssched_i_cps_find(H, i, I, 0, 0);
    return h ? mpq_cmp(need, h->q) <= 0 : mpq_sgn(need) <= 0;
}

/* 4: the balance rule (the comment at the top). */
static ssched_status_t balance(chk_t *c, const cps_list_t *X, const cps_list_t *C, const mpq_t ops)
{
    cps_list_t H = {0};
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < X->n && st == SSCHED_OK; k++)
        if (!ssched_i_cps_push(&H, c->to[X->v[k].a], X->v[k].b, 0, 0, X->v[k].q))
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < C->n && st == SSCHED_OK; k++)
        if (!ssched_i_cps_push(&H, C->v[k].a, ssched_i_chk_interval(c, C->v[k].b, C->v[k].d), 0, 0,
                               C->v[k].q))
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    ssched_i_cps_merge(&H);
    char a[48];
    for (size_t k = 0; k < X->n && st == SSCHED_OK && c->report->valid; k++) {
        size_t e = X->v[k].a, I = X->v[k].b;
        if (!enough(c, &H, c->from[e], I, X->v[k].q)) {
            vname(c, I, a, sizeof a);
            ssched_i_chk_violation(c, "node %s sends %s to %s more often per period than it "
                                   "receives or computes it", c->names[c->from[e]], a,
                                   c->names[c->to[e]]);
        }
    }
    for (size_t k = 0; k < C->n && st == SSCHED_OK && c->report->valid; k++) {
        const cps_ent_t *x = &C->v[k];
        size_t L = ssched_i_chk_interval(c, x->b, x->c), R = ssched_i_chk_interval(c, x->c + 1, x->d);
        size_t miss = !enough(c, &H, x->a, L, x->q) ? L : !enough(c, &H, x->a, R, x->q) ? R : SIZE_MAX;
        if (miss != SIZE_MAX) {
            vname(c, miss, a, sizeof a);
            ssched_i_chk_violation(c, "node %s runs task [%zu,%zu,%zu] more often per period than "
                                   "it receives or computes its operand %s", c->names[x->a], x->b,
                                   x->c, x->d, a);
        }
    }
    for (size_t j = 1; j < c->N && st == SSCHED_OK && c->report->valid; j++) {
        size_t I = ssched_i_chk_interval(c, 0, c->exclusive ? j - 1 : j);
        if (!enough(c, &H, c->participants[j], I, ops)) {
            vname(c, I, a, sizeof a);
            ssched_i_chk_violation(c, "participant %s receives or computes its prefix %s fewer "
                                   "than operations_per_period times per period",
                                   c->names[c->participants[j]], a);
        }
    }
    ssched_i_cps_free(&H);
    return st;
}

ssched_status_t ssched_i_chk_periodic_scan(chk_t *c, json_t *root)
{
    static const char *const keys[] = {"format", "problem", "platform", "throughput", "period",
                                       "operations_per_period", "split", "slots", "figures",
                                       "computations", "structures", "upper_bound", "optimal",
                                       "fixed_period", NULL};
    ssched_status_t st = ssched_i_chk_keys(c, root, "schedule", keys);
    if (st != SSCHED_OK)
        return st;
    json_t *split = json_object_get(root, "split");
    if (!json_is_boolean(split))
        return ssched_i_chk_bad(c, "missing boolean field \"split\"");
    if (!json_is_boolean(json_object_get(root, "optimal")))
        return ssched_i_chk_bad(c, "missing boolean field \"optimal\"");
    int integral = json_is_false(split);
    mpq_t period, ops, q;
    mpq_inits(period, ops, q, NULL);
    cps_list_t X = {0}, C = {0};
    if ((st = ssched_i_chk_get_q(c, root, "period", "schedule", period)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, root, "operations_per_period", "schedule", ops)) != SSCHED_OK ||
        (st = ssched_i_chk_get_q(c, root, "upper_bound", "schedule", q)) != SSCHED_OK)
        goto out;
    if (mpq_sgn(period) <= 0) {
        ssched_i_chk_violation(c, "the period must be positive");
        goto out;
    }
    if (mpq_sgn(ops) <= 0 || mpz_cmp_ui(mpq_denref(ops), 1) != 0) {
        ssched_i_chk_violation(c, "operations_per_period must be a positive integer");
        goto out;
    }
    mpq_div(q, ops, period);
    if (!mpq_equal(q, c->throughput)) {
        ssched_i_chk_violation(c, "throughput differs from operations_per_period / period");
        goto out;
    }
    if ((st = read_slots(c, root, period, integral, &X)) != SSCHED_OK || !c->report->valid ||
        (st = read_computations(c, root, period, &C)) != SSCHED_OK || !c->report->valid)
        goto out;
    ssched_i_cps_merge(&X);
    ssched_i_cps_merge(&C);
    if ((st = balance(c, &X, &C, ops)) != SSCHED_OK || !c->report->valid ||
        (st = ssched_i_cps_structures(c, root, ops, &X, &C)) != SSCHED_OK || !c->report->valid)
        goto out;
    st = ssched_i_chk_claims(c, root, period, ops, integral);
out:
    ssched_i_cps_free(&X);
    ssched_i_cps_free(&C);
    mpq_clears(period, ops, q, NULL);
    return st;
}
