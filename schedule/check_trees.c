/* Checker: the weighted reduction trees of a reduce schedule file.
 *
 * Each tree must be a reduction tree (RR-4872 Definition 1): one root
 * producing v[0,N-1] on the target, every task's inputs produced by its
 * children or being a participant's own value on its node; the weights sum
 * to operations_per_period; and sum_T weight(T) chi_T must equal, per edge
 * and interval, the amounts of the slots and, per task, the computations'
 * counts.  So the trees a file shows are exactly the schedule it runs.
 * Commutative files name sets instead ("set", "merge"); each tree must
 * then be a commutative reduction: disjoint merges, every participant's
 * singleton used once, the full set on the target. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

typedef struct {
    int compute;
    size_t a, b;          /* send: from, to; compute: node, unused   */
    size_t type;          /* what the task delivers (interval or set) */
    size_t in[2];         /* compute: its input types                 */
    long parent;
} ttask_t;

/* Does some child of task `me` (or a leaf) provide `type` on `node`? */
static int provided(const chk_t *c, const ttask_t *t, size_t n, long me, size_t node, size_t type,
                    unsigned char *used)
{
    size_t own = ssched_i_chk_type_own(c, type);
    if (own != SIZE_MAX && c->participants[own] == node)
        return 1;
    for (size_t x = 0; x < n; x++) {
        if (t[x].parent != me || used[x])
            continue;
        size_t at = t[x].compute ? t[x].a : t[x].b;
        if (at == node && t[x].type == type) {
            used[x] = 1;
            return 1;
        }
    }
    return 0;
}

/* Per-period totals keyed by (kind, a, b, c): a send (0, edge, type, 0)
 * or a computation (1, node, input, input) (inputs in increasing type
 * order: a merge is one task whichever input comes first); the trees add
 * their weights, the slots and computations subtract their amounts. */
typedef struct {
    size_t kind, a, b, c;
    mpq_t q;
} tally_t;

typedef struct {
    tally_t *v;
    size_t n, cap;
} tallies_t;

static int tally(tallies_t *T, size_t kind, size_t a, size_t b, size_t c, const mpq_t q, int sign)
{
    if (T->n == T->cap) {
        size_t cap = T->cap ? 2 * T->cap : 64;
        tally_t *v = realloc(T->v, cap * sizeof *v);
        if (!v)
            return 0;
        T->v = v;
        T->cap = cap;
    }
    tally_t *x = &T->v[T->n++];
    x->kind = kind;
    x->a = a;
    x->b = b < c ? b : c;
    x->c = b < c ? c : b;
    mpq_init(x->q);
    if (sign > 0)
        mpq_set(x->q, q);
    else
        mpq_neg(x->q, q);
    return 1;
}

static int cmp_tally(const void *p, const void *q)
{
    const tally_t *x = p, *y = q;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return x->c < y->c ? -1 : x->c > y->c;
}

/* One task object of a tree into tk. */
static ssched_status_t read_task(chk_t *c, json_t *o, const char *twhere, size_t n, ttask_t *tk)
{
    static const char *const compute_keys[] = {"compute", "task", "parent", NULL};
    static const char *const send_keys[] = {"send", "interval", "parent", NULL};
    static const char *const comm_compute_keys[] = {"compute", "merge", "parent", NULL};
    static const char *const comm_send_keys[] = {"send", "set", "parent", NULL};
    json_t *par = json_object_get(o, "parent");
    int compute = json_object_get(o, "compute") != NULL;
    ssched_status_t st;
    if (compute && json_object_get(o, "send"))
        return ssched_i_chk_bad(c, "%s: a task is either \"send\" or \"compute\", not both", twhere);
    const char *const *keys = compute ? (c->comm ? comm_compute_keys : compute_keys)
                                      : (c->comm ? comm_send_keys : send_keys);
    if ((st = ssched_i_chk_keys(c, o, twhere, keys)) != SSCHED_OK)
        return st;
    if (!json_is_integer(par) || json_integer_value(par) < -1 ||
        json_integer_value(par) >= (json_int_t)n)
        return ssched_i_chk_bad(c, "%s: bad \"parent\"", twhere);
    tk->parent = (long)json_integer_value(par);
    tk->compute = compute;
    if (compute) {
        size_t t[3];
        if ((st = ssched_i_chk_get_node(c, o, "compute", twhere, &tk->a)) != SSCHED_OK ||
            (st = ssched_i_chk_comp_types(c, o, twhere, t)) != SSCHED_OK)
            return st;
        tk->type = t[0];
        tk->in[0] = t[1];
        tk->in[1] = t[2];
        return SSCHED_OK;
    }
    json_t *ends = json_object_get(o, "send");
    json_t *wrap = json_pack("{sOsO}", "from", json_array_get(ends, 0) ? json_array_get(ends, 0) : json_null(),
                             "to", json_array_get(ends, 1) ? json_array_get(ends, 1) : json_null());
    if ((st = ssched_i_chk_get_node(c, wrap, "from", twhere, &tk->a)) == SSCHED_OK)
        st = ssched_i_chk_get_node(c, wrap, "to", twhere, &tk->b);
    json_decref(wrap);
    if (st != SSCHED_OK)
        return st;
    if (c->comm) {
        if ((st = ssched_i_chk_read_set(c, json_object_get(o, "set"), twhere, &tk->type)) != SSCHED_OK)
            return st;
    } else {
        size_t v[2];
        if (!ssched_i_chk_int_array(json_object_get(o, "interval"), 2, v) ||
            (tk->type = ssched_i_chk_interval(c, v[0], v[1])) == (size_t)-1)
            return ssched_i_chk_bad(c, "%s: bad \"interval\"", twhere);
    }
    if (ssched_i_chk_edge(c, tk->a, tk->b) == (size_t)-1)
        return ssched_i_chk_bad(c, "%s: no platform edge", twhere);
    return SSCHED_OK;
}

/* Tree `where`'s structure: one root delivering the full result on the
 * target, every input produced by a child or a participant's own value at
 * its node, every child feeding its parent.  With disjoint merges (checked
 * when read) a commutative tree thus holds each participant exactly once. */
static void check_structure(chk_t *c, const ttask_t *tk, size_t n, unsigned char *used,
                            const char *where)
{
    long roots = 0;
    for (size_t x = 0; x < n; x++)
        roots += tk[x].parent == -1;
    if (roots != 1)
        ssched_i_chk_violation(c, "%s: a reduction tree has exactly one root task", where);
    char full[96];
    ssched_i_chk_type_name(c, ssched_i_chk_full_type(c), full, sizeof full);
    for (size_t x = 0; x < n && c->report->valid; x++) {
        if (tk[x].parent == -1) {
            size_t at = tk[x].compute ? tk[x].a : tk[x].b;
            if (at != c->target || !ssched_i_chk_type_full(c, tk[x].type))
                ssched_i_chk_violation(c, "%s: the root does not produce %s on the target", where, full);
        }
        int ok = tk[x].compute ? provided(c, tk, n, (long)x, tk[x].a, tk[x].in[0], used) &&
                                     provided(c, tk, n, (long)x, tk[x].a, tk[x].in[1], used)
                               : provided(c, tk, n, (long)x, tk[x].a, tk[x].type, used);
        if (!ok)
            ssched_i_chk_violation(c, "%s: an input of task %zu is neither produced by a child nor a "
                          "participant's own value", where, x);
        if (tk[x].compute && !c->has_w[tk[x].a])
            ssched_i_chk_violation(c, "%s: node %s cannot compute", where, c->names[tk[x].a]);
    }
    for (size_t x = 0; x < n && c->report->valid; x++)
        if (tk[x].parent != -1 && !used[x])
            ssched_i_chk_violation(c, "%s: task %zu feeds nothing its parent needs", where, x);
}

ssched_status_t ssched_i_chk_reduce_trees(chk_t *c, json_t *root, const mpq_t ops)
{
    json_t *trees = json_object_get(root, "trees");
    if (!trees)
        return SSCHED_OK; /* optional: the schedule itself was checked */
    if (!json_is_array(trees))
        return ssched_i_chk_bad(c, "\"trees\" must be an array");
    tallies_t T = {NULL, 0, 0};
    mpq_t w, total, q;
    mpq_inits(w, total, q, NULL);
    ssched_status_t st = SSCHED_OK;
    char where[64];
    for (size_t t = 0; t < json_array_size(trees) && st == SSCHED_OK && c->report->valid; t++) {
        json_t *tr = json_array_get(trees, t), *tasks = json_object_get(tr, "tasks");
        snprintf(where, sizeof where, "trees[%zu]", t);
        static const char *const tree_keys[] = {"weight", "tasks", NULL};
        if ((st = ssched_i_chk_keys(c, tr, where, tree_keys)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, tr, "weight", where, w)) != SSCHED_OK)
            break;
        if (!json_is_array(tasks)) {
            st = ssched_i_chk_bad(c, "%s: missing \"tasks\" array", where);
            break;
        }
        if (mpq_sgn(w) <= 0 || mpz_cmp_ui(mpq_denref(w), 1) != 0) {
            ssched_i_chk_violation(c, "%s: the weight must be a positive integer", where);
            break;
        }
        mpq_add(total, total, w);
        size_t n = json_array_size(tasks);
        ttask_t *tk = ssched_i_calloc(n, sizeof *tk);
        unsigned char *used = ssched_i_calloc(n, 1);
        if (!tk || !used) {
            free(tk);
            free(used);
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        for (size_t x = 0; x < n && st == SSCHED_OK; x++) {
            char twhere[96];
            snprintf(twhere, sizeof twhere, "%s.tasks[%zu]", where, x);
            st = read_task(c, json_array_get(tasks, x), twhere, n, &tk[x]);
        }
        if (st == SSCHED_OK && c->report->valid)
            check_structure(c, tk, n, used, where);
        /* accumulate weight * chi */
        for (size_t x = 0; x < n && st == SSCHED_OK; x++)
            if (!(tk[x].compute ? tally(&T, 1, tk[x].a, tk[x].in[0], tk[x].in[1], w, 1)
                                : tally(&T, 0, ssched_i_chk_edge(c, tk[x].a, tk[x].b), tk[x].type, 0, w, 1)))
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        free(tk);
        free(used);
    }
    if (st == SSCHED_OK && c->report->valid && !mpq_equal(total, ops))
        ssched_i_chk_violation(c, "the tree weights do not add up to operations_per_period");
    /* the slots' amounts and the computations, per key, must match */
    json_t *slots = json_object_get(root, "slots");
    for (size_t k = 0; k < json_array_size(slots) && st == SSCHED_OK && c->report->valid; k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        for (size_t x = 0; x < json_array_size(tr) && st == SSCHED_OK; x++) {
            size_t e, I;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, x);
            json_t *o = json_array_get(tr, x);
            if ((st = ssched_i_chk_transfer(c, o, where, &e, &I)) == SSCHED_OK &&
                (st = ssched_i_chk_get_q(c, o, "amount", where, q)) == SSCHED_OK &&
                !tally(&T, 0, e, I, 0, q, -1))
                st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
        }
    }
    json_t *comps = json_object_get(root, "computations");
    for (size_t x = 0; x < json_array_size(comps) && st == SSCHED_OK && c->report->valid; x++) {
        json_t *o = json_array_get(comps, x);
        size_t node, v[3];
        snprintf(where, sizeof where, "computations[%zu]", x);
        if ((st = ssched_i_chk_get_node(c, o, "node", where, &node)) != SSCHED_OK ||
            (st = ssched_i_chk_get_q(c, o, "count", where, q)) != SSCHED_OK ||
            (st = ssched_i_chk_comp_types(c, o, where, v)) != SSCHED_OK)
            break;
        if (!tally(&T, 1, node, v[1], v[2], q, -1))
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    if (T.n)
        qsort(T.v, T.n, sizeof *T.v, cmp_tally);
    for (size_t x = 0; x < T.n && st == SSCHED_OK && c->report->valid;) {
        size_t y = x + 1;
        mpq_set(q, T.v[x].q);
        for (; y < T.n && !cmp_tally(&T.v[x], &T.v[y]); y++)
            mpq_add(q, q, T.v[y].q);
        if (mpq_sgn(q) != 0 && T.v[x].kind == 0) {
            char name[96];
            ssched_i_chk_type_name(c, T.v[x].b, name, sizeof name);
            ssched_i_chk_violation(c, "the trees and the slots differ on edge %s->%s for %s",
                          c->names[c->from[T.v[x].a]], c->names[c->to[T.v[x].a]], name);
        } else if (mpq_sgn(q) != 0) {
            ssched_i_chk_violation(c, "the trees and the computations differ on node %s",
                          c->names[T.v[x].a]);
        }
        x = y;
    }
    for (size_t x = 0; x < T.n; x++)
        mpq_clear(T.v[x].q);
    free(T.v);
    mpq_clears(w, total, q, NULL);
    return st;
}
