/* Checker: the weighted reduction trees of a reduce schedule file.
 *
 * Each tree must be a reduction tree (RR-4872 Definition 1): one root
 * producing v[0,N-1] on the target, every task's inputs produced by its
 * children or being a participant's own value on its node; the weights sum
 * to operations_per_period; and sum_T weight(T) chi_T must equal, per edge
 * and interval, the amounts of the slots and, per task, the computations'
 * counts.  So the trees a file shows are exactly the schedule it runs. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

typedef struct {
    int compute;
    size_t a, b;          /* send: from, to; compute: node, unused */
    size_t k, l, m;       /* interval [k,m] (l: split of a compute) */
    long parent;
} ttask_t;

/* Does some child of task `me` (or a leaf) provide v[k,m] on `node`? */
static int provided(const chk_t *c, const ttask_t *t, size_t n, long me, size_t node, size_t k,
                    size_t m, unsigned char *used)
{
    if (k == m && c->participants[k] == node)
        return 1;
    for (size_t x = 0; x < n; x++) {
        if (t[x].parent != me || used[x])
            continue;
        size_t at = t[x].compute ? t[x].a : t[x].b;
        if (at == node && t[x].k == k && t[x].m == m) {
            used[x] = 1;
            return 1;
        }
    }
    return 0;
}

ssched_status_t chk_reduce_trees(chk_t *c, json_t *root, const mpq_t ops)
{
    json_t *trees = json_object_get(root, "trees");
    if (!trees)
        return SSCHED_OK; /* optional: the schedule itself was checked */
    if (!json_is_array(trees))
        return chk_bad(c, "\"trees\" must be an array");
    size_t ne = c->n_edges, nI = c->n_types, nn = c->n_nodes, N = c->N;
    mpq_t *send = malloc((ne * nI > 0 ? ne * nI : 1) * sizeof *send);
    mpq_t *comp = malloc((nn * N * N * N > 0 ? nn * N * N * N : 1) * sizeof *comp);
    if (!send || !comp) {
        free(send);
        free(comp);
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t x = 0; x < ne * nI; x++)
        mpq_init(send[x]);
    for (size_t x = 0; x < nn * N * N * N; x++)
        mpq_init(comp[x]);
    mpq_t w, total, q;
    mpq_inits(w, total, q, NULL);
    ssched_status_t st = SSCHED_OK;
    char where[64];
    for (size_t t = 0; t < json_array_size(trees) && st == SSCHED_OK && c->report->valid; t++) {
        json_t *tr = json_array_get(trees, t), *tasks = json_object_get(tr, "tasks");
        snprintf(where, sizeof where, "trees[%zu]", t);
        static const char *const tree_keys[] = {"weight", "tasks", NULL};
        if ((st = chk_keys(c, tr, where, tree_keys)) != SSCHED_OK ||
            (st = chk_get_q(c, tr, "weight", where, w)) != SSCHED_OK)
            break;
        if (!json_is_array(tasks)) {
            st = chk_bad(c, "%s: missing \"tasks\" array", where);
            break;
        }
        if (mpq_sgn(w) <= 0 || mpz_cmp_ui(mpq_denref(w), 1) != 0) {
            chk_violation(c, "%s: the weight must be a positive integer", where);
            break;
        }
        mpq_add(total, total, w);
        size_t n = json_array_size(tasks);
        ttask_t *tk = calloc(n ? n : 1, sizeof *tk);
        unsigned char *used = calloc(n ? n : 1, 1);
        if (!tk || !used) {
            free(tk);
            free(used);
            st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        long roots = 0;
        for (size_t x = 0; x < n && st == SSCHED_OK; x++) {
            json_t *o = json_array_get(tasks, x), *par = json_object_get(o, "parent");
            size_t v[3];
            static const char *const compute_keys[] = {"compute", "task", "parent", NULL};
            static const char *const send_keys[] = {"send", "interval", "parent", NULL};
            char twhere[96];
            snprintf(twhere, sizeof twhere, "%s.tasks[%zu]", where, x);
            if (json_object_get(o, "compute") && json_object_get(o, "send")) {
                st = chk_bad(c, "%s: a task is either \"send\" or \"compute\", not both", twhere);
                break;
            }
            if ((st = chk_keys(c, o, twhere, json_object_get(o, "compute") ? compute_keys
                                                                            : send_keys)) != SSCHED_OK)
                break;
            if (!json_is_integer(par) || json_integer_value(par) < -1 ||
                json_integer_value(par) >= (json_int_t)n) {
                st = chk_bad(c, "%s.tasks[%zu]: bad \"parent\"", where, x);
                break;
            }
            tk[x].parent = (long)json_integer_value(par);
            roots += tk[x].parent == -1;
            if (json_object_get(o, "compute")) {
                tk[x].compute = 1;
                if ((st = chk_get_node(c, o, "compute", where, &tk[x].a)) != SSCHED_OK)
                    break;
                if (!chk_int_array(json_object_get(o, "task"), 3, v) || !(v[0] <= v[1] && v[1] < v[2] && v[2] < N)) {
                    st = chk_bad(c, "%s.tasks[%zu]: bad \"task\"", where, x);
                    break;
                }
                tk[x].k = v[0];
                tk[x].l = v[1];
                tk[x].m = v[2];
            } else {
                json_t *ends = json_object_get(o, "send");
                json_t *wrap = json_pack("{sOsO}", "from", json_array_get(ends, 0) ? json_array_get(ends, 0) : json_null(),
                                         "to", json_array_get(ends, 1) ? json_array_get(ends, 1) : json_null());
                if ((st = chk_get_node(c, wrap, "from", where, &tk[x].a)) == SSCHED_OK)
                    st = chk_get_node(c, wrap, "to", where, &tk[x].b);
                json_decref(wrap);
                if (st != SSCHED_OK)
                    break;
                if (!chk_int_array(json_object_get(o, "interval"), 2, v) || chk_interval(c, v[0], v[1]) == (size_t)-1) {
                    st = chk_bad(c, "%s.tasks[%zu]: bad \"interval\"", where, x);
                    break;
                }
                tk[x].k = v[0];
                tk[x].m = v[1];
                if (chk_edge(c, tk[x].a, tk[x].b) == (size_t)-1) {
                    st = chk_bad(c, "%s.tasks[%zu]: no platform edge", where, x);
                    break;
                }
            }
        }
        /* structure: one root giving v[0,N-1] on the target; inputs provided */
        if (st == SSCHED_OK && roots != 1)
            chk_violation(c, "%s: a reduction tree has exactly one root task", where);
        for (size_t x = 0; x < n && st == SSCHED_OK && c->report->valid; x++) {
            if (tk[x].parent == -1) {
                size_t at = tk[x].compute ? tk[x].a : tk[x].b;
                if (at != c->target || tk[x].k != 0 || tk[x].m != N - 1)
                    chk_violation(c, "%s: the root does not produce v[0,%zu] on the target", where, N - 1);
            }
            int ok = tk[x].compute
                         ? provided(c, tk, n, (long)x, tk[x].a, tk[x].k, tk[x].l, used) &&
                               provided(c, tk, n, (long)x, tk[x].a, tk[x].l + 1, tk[x].m, used)
                         : provided(c, tk, n, (long)x, tk[x].a, tk[x].k, tk[x].m, used);
            if (!ok)
                chk_violation(c, "%s: an input of task %zu is neither produced by a child nor a "
                              "participant's own value", where, x);
            if (tk[x].compute && !c->has_w[tk[x].a])
                chk_violation(c, "%s: node %s cannot compute", where, c->names[tk[x].a]);
        }
        for (size_t x = 0; x < n && c->report->valid && st == SSCHED_OK; x++)
            if (tk[x].parent != -1 && !used[x])
                chk_violation(c, "%s: task %zu feeds nothing its parent needs", where, x);
        /* accumulate weight * chi */
        for (size_t x = 0; x < n && st == SSCHED_OK; x++) {
            if (tk[x].compute) {
                size_t key = ((tk[x].a * N + tk[x].k) * N + tk[x].l) * N + tk[x].m;
                mpq_add(comp[key], comp[key], w);
            } else {
                size_t key = chk_interval(c, tk[x].k, tk[x].m) * ne + chk_edge(c, tk[x].a, tk[x].b);
                mpq_add(send[key], send[key], w);
            }
        }
        free(tk);
        free(used);
    }
    if (st == SSCHED_OK && c->report->valid && !mpq_equal(total, ops))
        chk_violation(c, "the tree weights do not add up to operations_per_period");
    /* the slots' amounts and the computations, per key, must match */
    json_t *slots = json_object_get(root, "slots");
    for (size_t k = 0; k < json_array_size(slots) && st == SSCHED_OK && c->report->valid; k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        for (size_t x = 0; x < json_array_size(tr) && st == SSCHED_OK; x++) {
            size_t e, I;
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, x);
            json_t *o = json_array_get(tr, x);
            if ((st = chk_transfer(c, o, where, &e, &I)) == SSCHED_OK &&
                (st = chk_get_q(c, o, "amount", where, q)) == SSCHED_OK)
                mpq_sub(send[I * ne + e], send[I * ne + e], q);
        }
    }
    json_t *comps = json_object_get(root, "computations");
    for (size_t x = 0; x < json_array_size(comps) && st == SSCHED_OK && c->report->valid; x++) {
        json_t *o = json_array_get(comps, x);
        size_t node, v[3];
        snprintf(where, sizeof where, "computations[%zu]", x);
        if ((st = chk_get_node(c, o, "node", where, &node)) != SSCHED_OK ||
            (st = chk_get_q(c, o, "count", where, q)) != SSCHED_OK)
            break;
        if (!chk_int_array(json_object_get(o, "task"), 3, v))
            break; /* already reported by the balance check */
        size_t key = ((node * N + v[0]) * N + v[1]) * N + v[2];
        mpq_sub(comp[key], comp[key], q);
    }
    for (size_t x = 0; x < ne * nI && st == SSCHED_OK && c->report->valid; x++)
        if (mpq_sgn(send[x]) != 0)
            chk_violation(c, "the trees and the slots differ on edge %s->%s for v[%zu,%zu]",
                          c->names[c->from[x % ne]], c->names[c->to[x % ne]],
                          c->type_origin[x / ne], c->type_dest[x / ne]);
    for (size_t x = 0; x < nn * N * N * N && st == SSCHED_OK && c->report->valid; x++)
        if (mpq_sgn(comp[x]) != 0)
            chk_violation(c, "the trees and the computations differ on node %s", c->names[x / (N * N * N)]);
    for (size_t x = 0; x < ne * nI; x++)
        mpq_clear(send[x]);
    for (size_t x = 0; x < nn * N * N * N; x++)
        mpq_clear(comp[x]);
    free(send);
    free(comp);
    mpq_clears(w, total, q, NULL);
    return st;
}
