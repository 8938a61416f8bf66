/* Checker: the prefix structures of a periodic scan file (check 5 of
 * check_periodic_scan.c).
 *
 * Each structure is one operation's plan: sends of intervals over edges
 * and tasks on nodes, each at most once (a value used more than once is
 * sent once per edge: copies).  Starting from v[k,k] at r_k (and nothing
 * else), the least fixpoint of its own sends and tasks must feed every
 * send (the value at the edge's tail) and every task (both operands at its
 * node) and hold every demand's prefix at its participant (v[0,j] at r_j,
 * exclusive v[0,j-1], j >= 1).  A fixpoint from the own values alone
 * excludes circular support (values that only copies of each other
 * "make"), and since a task joins two adjacent intervals in order (checked
 * on the computations, which the tasks must equal), every value derived is
 * the ordered product of its interval, each operand once.  Then: the
 * weights (instances per period, positive integers) add up to
 * operations_per_period, so every operation of a period follows one
 * structure and every participant gets its prefix exactly once per
 * operation; and sum_S weight_S [S sends I over e] equals the slots'
 * per-period total of I over e, sum_S weight_S [S runs T on i] the
 * computations' count of T on i, exactly: the slots carry exactly the
 * structures' messages, no fewer (a missing copy) and no more. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_periodic_scan.h"
#include "src/util/internal.h"

typedef struct {
    size_t a, b, c, d; /* send: (edge, type, from, to); task: (node, k, l, m) */
    int done;
} item_t;

static int cmp_item(const void *x, const void *y)
{
    const item_t *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    if (p->c != q->c) return p->c < q->c ? -1 : 1;
    return p->d < q->d ? -1 : p->d > q->d;
}

typedef struct {
    unsigned char *held;       /* n_nodes * n_types */
    size_t *touched, n_touched;
    item_t *sends, *tasks;
    size_t cap_sends, cap_tasks;
} work_t;

static void hold(const chk_t *c, work_t *w, size_t node, size_t type)
{
    size_t at = node * c->n_types + type;
    if (!w->held[at]) {
        w->held[at] = 1;
        w->touched[w->n_touched++] = at;
    }
}

static int held(const chk_t *c, const work_t *w, size_t node, size_t type)
{
    return w->held[node * c->n_types + type];
}

static int grow(item_t **v, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 1;
    item_t *x = realloc(*v, n * sizeof *x);
    if (!x)
        return 0;
    *v = x;
    *cap = n;
    return 1;
}

/* Read structure x's sends and tasks into w (sorted; repeats refused). */
static ssched_status_t read_one(chk_t *c, json_t *o, size_t x, work_t *w, size_t *ns, size_t *nt)
{
    static const char *const send_keys[] = {"from", "to", "interval", NULL};
    static const char *const task_keys[] = {"node", "task", NULL};
    json_t *sends = json_object_get(o, "sends"), *tasks = json_object_get(o, "tasks");
    char where[96];
    if (!json_is_array(sends) || !json_is_array(tasks))
        return ssched_i_chk_bad(c, "structures[%zu]: missing \"sends\" or \"tasks\" array", x);
    *ns = json_array_size(sends);
    *nt = json_array_size(tasks);
    if (!grow(&w->sends, &w->cap_sends, *ns) || !grow(&w->tasks, &w->cap_tasks, *nt))
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st;
    for (size_t k = 0; k < *ns; k++) {
        json_t *y = json_array_get(sends, k);
        size_t e, type;
        snprintf(where, sizeof where, "structures[%zu].sends[%zu]", x, k);
        if ((st = ssched_i_chk_keys(c, y, where, send_keys)) != SSCHED_OK ||
            (st = ssched_i_chk_transfer(c, y, where, &e, &type)) != SSCHED_OK)
            return st;
        w->sends[k] = (item_t){e, type, c->from[e], c->to[e], 0};
    }
    for (size_t k = 0; k < *nt; k++) {
        json_t *y = json_array_get(tasks, k);
        size_t node, v[3];
        snprintf(where, sizeof where, "structures[%zu].tasks[%zu]", x, k);
        if ((st = ssched_i_chk_keys(c, y, where, task_keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_node(c, y, "node", where, &node)) != SSCHED_OK)
            return st;
        if (!ssched_i_chk_int_array(json_object_get(y, "task"), 3, v))
            return ssched_i_chk_bad(c, "%s: \"task\" must be [k, l, m]", where);
        if (!(v[0] <= v[1] && v[1] < v[2] && v[2] < c->N))
            return ssched_i_chk_violation(c, "%s: task [%zu,%zu,%zu] does not join two adjacent "
                                          "intervals in order", where, v[0], v[1], v[2]),
                   SSCHED_OK;
        w->tasks[k] = (item_t){node, v[0], v[1], v[2], 0};
    }
    qsort(w->sends, *ns, sizeof *w->sends, cmp_item);
    qsort(w->tasks, *nt, sizeof *w->tasks, cmp_item);
    for (size_t k = 1; k < *ns; k++)
        if (!cmp_item(&w->sends[k], &w->sends[k - 1]))
            return ssched_i_chk_violation(c, "structures[%zu] sends v[%zu,%zu] over %s->%s twice", x,
                                          c->type_origin[w->sends[k].b], c->type_dest[w->sends[k].b],
                                          c->names[w->sends[k].c], c->names[w->sends[k].d]),
                   SSCHED_OK;
    for (size_t k = 1; k < *nt; k++)
        if (!cmp_item(&w->tasks[k], &w->tasks[k - 1]))
            return ssched_i_chk_violation(c, "structures[%zu] runs task [%zu,%zu,%zu] on %s twice",
                                          x, w->tasks[k].b, w->tasks[k].c, w->tasks[k].d,
                                          c->names[w->tasks[k].a]),
                   SSCHED_OK;
    return SSCHED_OK;
}

/* The least fixpoint of structure x from the own values; a violation for
 * the first send or task it never feeds, or the first prefix it never
 * delivers. */
static void derive(chk_t *c, size_t x, work_t *w, size_t ns, size_t nt)
{
    for (size_t k = 0; k < c->N; k++)
        hold(c, w, c->participants[k], ssched_i_chk_interval(c, k, k));
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t k = 0; k < ns; k++) {
            item_t *s = &w->sends[k];
            if (!s->done && held(c, w, s->c, s->b)) {
                hold(c, w, s->d, s->b);
                s->done = changed = 1;
            }
        }
        for (size_t k = 0; k < nt; k++) {
            item_t *t = &w->tasks[k];
            if (!t->done && held(c, w, t->a, ssched_i_chk_interval(c, t->b, t->c)) &&
                held(c, w, t->a, ssched_i_chk_interval(c, t->c + 1, t->d))) {
                hold(c, w, t->a, ssched_i_chk_interval(c, t->b, t->d));
                t->done = changed = 1;
            }
        }
    }
    for (size_t k = 0; k < ns; k++)
        if (!w->sends[k].done) {
            ssched_i_chk_violation(c, "structures[%zu] sends v[%zu,%zu] over %s->%s, but nothing "
                                   "brings or makes it at %s first", x,
                                   c->type_origin[w->sends[k].b], c->type_dest[w->sends[k].b],
                                   c->names[w->sends[k].c], c->names[w->sends[k].d],
                                   c->names[w->sends[k].c]);
            return;
        }
    for (size_t k = 0; k < nt; k++)
        if (!w->tasks[k].done) {
            ssched_i_chk_violation(c, "structures[%zu] runs task [%zu,%zu,%zu] on %s without both "
                                   "operands there", x, w->tasks[k].b, w->tasks[k].c,
                                   w->tasks[k].d, c->names[w->tasks[k].a]);
            return;
        }
    for (size_t j = 1; j < c->N; j++) {
        size_t a = c->exclusive ? j - 1 : j;
        if (!held(c, w, c->participants[j], ssched_i_chk_interval(c, 0, a))) {
            ssched_i_chk_violation(c, "structures[%zu] never delivers v[0,%zu] to participant %s",
                                   x, a, c->names[c->participants[j]]);
            return;
        }
    }
}

/* want (the slots' or computations' merged totals) == got (the
 * structures'), key by key; what names the kind of entry. */
static void compare(chk_t *c, const cps_list_t *want, const cps_list_t *got, int sends)
{
    size_t i = 0, j = 0;
    mpq_t zero;
    mpq_init(zero);
    while ((i < want->n || j < got->n) && c->report->valid) {
        const cps_ent_t *a = i < want->n ? &want->v[i] : NULL, *b = j < got->n ? &got->v[j] : NULL;
        int r = !a ? 1 : !b ? -1 : a->a != b->a ? (a->a < b->a ? -1 : 1)
              : a->b != b->b ? (a->b < b->b ? -1 : 1) : a->c != b->c ? (a->c < b->c ? -1 : 1)
              : a->d != b->d ? (a->d < b->d ? -1 : 1) : 0;
        const cps_ent_t *k = r <= 0 ? a : b;
        mpq_srcptr x = r <= 0 ? a->q : zero, y = r >= 0 ? b->q : zero;
        i += r <= 0;
        j += r >= 0;
        if (mpq_equal(x, y))
            continue;
        char *sx = mpq_get_str(NULL, 10, x), *sy = mpq_get_str(NULL, 10, y);
        if (sends)
            ssched_i_chk_violation(c, "v[%zu,%zu] over %s->%s: the slots carry %s per period, the "
                                   "structures send it %s times", c->type_origin[k->b],
                                   c->type_dest[k->b], c->names[c->from[k->a]],
                                   c->names[c->to[k->a]], sx ? sx : "?", sy ? sy : "?");
        else
            ssched_i_chk_violation(c, "task [%zu,%zu,%zu] on %s: the computations count %s per "
                                   "period, the structures run it %s times", k->b, k->c, k->d,
                                   c->names[k->a], sx ? sx : "?", sy ? sy : "?");
        void (*freefunc)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &freefunc);
        if (sx)
            freefunc(sx, strlen(sx) + 1);
        if (sy)
            freefunc(sy, strlen(sy) + 1);
    }
    mpq_clear(zero);
}

ssched_status_t ssched_i_cps_structures(chk_t *c, json_t *root, const mpq_t ops,
                                        const cps_list_t *sends, const cps_list_t *comps)
{
    json_t *arr = json_object_get(root, "structures");
    if (!json_is_array(arr) || json_array_size(arr) == 0)
        return ssched_i_chk_bad(c, "missing \"structures\" array (the prefix structures the "
                                   "period interleaves)");
    static const char *const keys[] = {"weight", "sends", "tasks", NULL};
    size_t nn = c->n_nodes, nI = c->n_types;
    if (nI && nn > SIZE_MAX / 4 / nI)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    work_t w = {0};
    size_t cells = nn * nI > 0 ? nn * nI : 1;
    w.held = ssched_i_calloc(cells, 1);
    w.touched = ssched_i_alloc(cells, sizeof *w.touched);
    cps_list_t SX = {0}, SC = {0};
    mpq_t weight, total;
    mpq_inits(weight, total, NULL);
    ssched_status_t st = SSCHED_OK;
    if (!w.held || !w.touched)
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    char where[48];
    for (size_t x = 0; x < json_array_size(arr) && st == SSCHED_OK && c->report->valid; x++) {
        json_t *o = json_array_get(arr, x);
        size_t ns = 0, nt = 0;
        snprintf(where, sizeof where, "structures[%zu]", x);
        if ((st = ssched_i_chk_keys(c, o, where, keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "weight", where, weight)) != SSCHED_OK ||
            (st = read_one(c, o, x, &w, &ns, &nt)) != SSCHED_OK || !c->report->valid)
            break;
        if (mpq_sgn(weight) <= 0 || mpz_cmp_ui(mpq_denref(weight), 1) != 0) {
            ssched_i_chk_violation(c, "%s: the weight must be a positive integer", where);
            break;
        }
        mpq_add(total, total, weight);
        derive(c, x, &w, ns, nt);
        for (size_t k = 0; k < w.n_touched; k++)
            w.held[w.touched[k]] = 0;
        w.n_touched = 0;
        for (size_t k = 0; k < ns && st == SSCHED_OK; k++)
            if (!ssched_i_cps_push(&SX, w.sends[k].a, w.sends[k].b, 0, 0, weight))
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        for (size_t k = 0; k < nt && st == SSCHED_OK; k++)
            if (!ssched_i_cps_push(&SC, w.tasks[k].a, w.tasks[k].b, w.tasks[k].c, w.tasks[k].d,
                                   weight))
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    if (st == SSCHED_OK && c->report->valid && !mpq_equal(total, ops))
        ssched_i_chk_violation(c, "the structures' weights add up to %s per period, not "
                               "operations_per_period", mpq_get_d(total) > 0 ? "another number"
                                                                            : "nothing");
    if (st == SSCHED_OK && c->report->valid) {
        ssched_i_cps_merge(&SX);
        ssched_i_cps_merge(&SC);
        compare(c, sends, &SX, 1);
        compare(c, comps, &SC, 0);
    }
    ssched_i_cps_free(&SX);
    ssched_i_cps_free(&SC);
    mpq_clears(weight, total, NULL);
    free(w.held);
    free(w.touched);
    free(w.sends);
    free(w.tasks);
    return st;
}
