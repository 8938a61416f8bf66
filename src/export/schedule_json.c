/* Schedule JSON writer: "ssched-schedule/1" (unrolled files: unrolled_json.c). */
#include <jansson.h>
#include <stdlib.h>

#include "src/export/export_internal.h"
#include "src/export/json_util.h"
#include "ssched/schedule.h"

json_t *ssched_i_schedule_json_header(const char *format, const ssched_platform_t *p,
                      const ssched_problem_t *pb, const ssched_schedule_t *s)
{
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string(format));
    json_object_set_new(root, "problem", ssched_i_problem_json(p, pb));
    json_t *pl = ssched_i_platform_json(p);
    /* the port model travels with the schedule (issue 12): switches say
     * "ports": "multi"; one-port nodes keep the old form (no key) */
    json_t *nodes = json_object_get(pl, "nodes");
    for (size_t i = 0; p->multiport && i < p->n_nodes && i < json_array_size(nodes); i++)
        if (p->multiport[i])
            json_object_set_new(json_array_get(nodes, i), "ports", json_string("multi"));
    json_object_set_new(root, "platform", pl);
    json_object_set_new(root, "throughput", ssched_i_json_mpq(s->throughput));
    return root;
}

static json_t *interval_json(size_t k, size_t m)
{
    return json_pack("[II]", (json_int_t)k, (json_int_t)m);
}

/* Commutative reduce: a set as its sorted participant indices. */
static json_t *set_json(const ssched_sets_t *sets, size_t set)
{
    json_t *a = json_array();
    for (size_t j = 0; j < sets->words * 64; j++)
        if (ssched_sets_has(sets, set, j))
            json_array_append_new(a, json_integer((json_int_t)j));
    return a;
}

/* The set of positions [k, m] of a commutative tree (its order). */
static json_t *tree_set_json(const ssched_tree_t *t, size_t N, size_t k, size_t m)
{
    ssched_sets_t one;
    ssched_sets_init(&one, N);
    uint64_t *bits = calloc(one.words, sizeof *bits);
    json_t *a = NULL;
    if (bits) {
        for (size_t i = k; i <= m; i++) {
            size_t j = t->order ? t->order[i] : i;
            bits[j / 64] |= (uint64_t)1 << (j % 64);
        }
        size_t id = ssched_sets_intern(&one, bits);
        a = id == SIZE_MAX ? NULL : set_json(&one, id);
    }
    free(bits);
    ssched_sets_free(&one);
    return a ? a : json_null();
}

static void set_type(json_t *o, const ssched_platform_t *p, const ssched_schedule_t *s,
                     size_t edge, size_t type)
{
    json_object_set_new(o, "from", json_string(p->names[p->from[edge]]));
    json_object_set_new(o, "to", json_string(p->names[p->to[edge]]));
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE && type == ssched_schedule_copy_type(s)) {
        json_object_set_new(o, "copy", json_true()); /* the broadcast of the result */
        return;
    }
    if ((s->kind == SSCHED_PROBLEM_REDUCE || s->kind == SSCHED_PROBLEM_ALLREDUCE) &&
        s->commutative) {
        json_object_set_new(o, "set", set_json(&s->sets, type));
        return;
    }
    if (s->kind == SSCHED_PROBLEM_REDUCE || s->kind == SSCHED_PROBLEM_ALLREDUCE ||
        s->kind == SSCHED_PROBLEM_SCAN) {
        json_object_set_new(o, "interval", interval_json(s->intervals[type].k, s->intervals[type].m));
        return;
    }
    if (s->kind == SSCHED_PROBLEM_BROADCAST) /* one message type: the broadcast message */
        return;
    json_object_set_new(o, "origin", json_string(p->names[s->commodities[type].origin]));
    json_object_set_new(o, "dest", json_string(p->names[s->commodities[type].dest]));
}

/* The weighted trees: each task with its parent, so a reader can rebuild
 * the tree; root tasks have parent -1.  Commutative: a send carries the
 * "set" it moves and a merge its two input sets ("merge"), so a reader
 * needs no tree order. */
static json_t *trees_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_trees_t *t)
{
    size_t N = pb->n_participants;
    json_t *arr = json_array();
    for (size_t k = 0; k < t->n_trees; k++) {
        const ssched_tree_t *tr = &t->trees[k];
        json_t *o = json_object(), *tasks = json_array();
        json_object_set_new(o, "weight", ssched_i_json_mpz(tr->weight));
        for (size_t i = 0; i < tr->n_tasks; i++) {
            const ssched_tree_task_t *x = &tr->tasks[i];
            json_t *y = json_object();
            if (x->kind == SSCHED_TREE_SEND) {
                json_object_set_new(y, "send", json_pack("[ss]", p->names[p->from[x->edge]],
                                                         p->names[p->to[x->edge]]));
                if (pb->commutative)
                    json_object_set_new(y, "set", tree_set_json(tr, N, x->k, x->m));
                else
                    json_object_set_new(y, "interval", interval_json(x->k, x->m));
            } else if (pb->commutative) {
                json_object_set_new(y, "compute", json_string(p->names[x->node]));
                json_object_set_new(y, "merge", json_pack("[oo]", tree_set_json(tr, N, x->k, x->l),
                                                          tree_set_json(tr, N, x->l + 1, x->m)));
            } else {
                json_object_set_new(y, "compute", json_string(p->names[x->node]));
                json_object_set_new(y, "task", json_pack("[III]", (json_int_t)x->k,
                                                         (json_int_t)x->l, (json_int_t)x->m));
            }
            json_object_set_new(y, "parent", json_integer(x->parent == (size_t)-1 ? -1
                                                          : (json_int_t)x->parent));
            json_array_append_new(tasks, y);
        }
        json_object_set_new(o, "tasks", tasks);
        json_array_append_new(arr, o);
    }
    return arr;
}

/* Broadcast: each arborescence with its instances per period and its arcs,
 * so that a reader can check that every message reaches every node. */
static json_t *arborescences_json(const ssched_platform_t *p, const ssched_arborescences_t *a)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < a->count; i++) {
        json_t *o = json_object(), *arcs = json_array();
        json_object_set_new(o, "count", ssched_i_json_mpq(a->items[i].weight));
        for (size_t k = 0; k < a->items[i].n_arcs; k++) {
            size_t e = a->items[i].arcs[k];
            json_array_append_new(arcs, json_pack("[ss]", p->names[p->from[e]],
                                                  p->names[p->to[e]]));
        }
        json_object_set_new(o, "arcs", arcs);
        json_array_append_new(arr, o);
    }
    return arr;
}

/* Scan: the prefix structures, each with its instances per period
 * ("weight", as a reduce tree's), its sends and its tasks, so that a
 * reader can rebuild every operation's derivation. */
static json_t *structures_json(const ssched_platform_t *p, const ssched_schedule_t *s)
{
    json_t *arr = json_array();
    for (size_t k = 0; k < s->n_scan_structures; k++) {
        const ssched_scan_structure_t *x = &s->scan_structures[k];
        json_t *o = json_object(), *sends = json_array(), *tasks = json_array();
        json_object_set_new(o, "weight", ssched_i_json_mpq(x->rate));
        for (size_t t = 0; t < x->n_sends; t++) {
            size_t e = x->sends[t].edge;
            json_array_append_new(sends, json_pack("{ssssso}", "from", p->names[p->from[e]], "to",
                                                   p->names[p->to[e]], "interval",
                                                   interval_json(x->sends[t].k, x->sends[t].m)));
        }
        for (size_t t = 0; t < x->n_tasks; t++)
            json_array_append_new(tasks, json_pack("{sss[III]}", "node", p->names[x->tasks[t].node],
                                                   "task", (json_int_t)x->tasks[t].k,
                                                   (json_int_t)x->tasks[t].l,
                                                   (json_int_t)x->tasks[t].m));
        json_object_set_new(o, "sends", sends);
        json_object_set_new(o, "tasks", tasks);
        json_array_append_new(arr, o);
    }
    return arr;
}

#define SCHEDULE_JSON_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER)

/* The document as a jansson tree (NULL on ENOMEM). */
static json_t *schedule_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                             const ssched_schedule_t *s)
{
    json_t *root = ssched_i_schedule_json_header("ssched-schedule/1", p, pb, s);
    json_object_set_new(root, "period", ssched_i_json_mpq(s->period));
    json_object_set_new(root, "operations_per_period", ssched_i_json_mpz(s->ops_per_period));
    json_object_set_new(root, "split", json_boolean(s->split));
    json_t *slots = json_array();
    for (size_t k = 0; k < s->n_slots; k++) {
        const ssched_slot_t *sl = &s->slots[k];
        json_t *o = json_object(), *tr = json_array();
        json_object_set_new(o, "start", ssched_i_json_mpq(sl->start));
        json_object_set_new(o, "end", ssched_i_json_mpq(sl->end));
        for (size_t t = 0; t < sl->n_transfers; t++) {
            json_t *x = json_object();
            set_type(x, p, s, sl->transfers[t].edge, sl->transfers[t].type);
            json_object_set_new(x, "amount", ssched_i_json_mpq(sl->transfers[t].amount));
            json_array_append_new(tr, x);
        }
        json_object_set_new(o, "transfers", tr);
        json_array_append_new(slots, o);
    }
    json_object_set_new(root, "slots", slots);
    if (s->kind == SSCHED_PROBLEM_REDUCE || s->kind == SSCHED_PROBLEM_ALLREDUCE ||
        s->kind == SSCHED_PROBLEM_SCAN) {
        json_t *comps = json_array();
        for (size_t k = 0; k < s->n_computations; k++) {
            const ssched_computation_t *c = &s->computations[k];
            json_t *o = json_object();
            json_object_set_new(o, "node", json_string(p->names[c->node]));
            if (s->commutative)
                json_object_set_new(o, "merge", json_pack("[oo]", set_json(&s->sets, c->k),
                                                          set_json(&s->sets, c->l)));
            else
                json_object_set_new(o, "task", json_pack("[III]", (json_int_t)c->k,
                                                         (json_int_t)c->l, (json_int_t)c->m));
            json_object_set_new(o, "count", ssched_i_json_mpz(c->count));
            json_array_append_new(comps, o);
        }
        json_object_set_new(root, "computations", comps);
        if (s->kind == SSCHED_PROBLEM_SCAN)
            json_object_set_new(root, "structures", structures_json(p, s));
        else
            json_object_set_new(root, "trees", trees_json(p, pb, &s->trees));
    }
    if (s->kind == SSCHED_PROBLEM_ALLREDUCE) /* the root the problem may leave open */
        json_object_set_new(root, "root", json_string(p->names[s->root]));
    if (s->kind == SSCHED_PROBLEM_SCAN) { /* an achievable TP: its bound, as a multicast's */
        json_object_set_new(root, "upper_bound", ssched_i_json_mpq(s->upper_bound));
        json_object_set_new(root, "optimal", json_boolean(s->optimal));
    }
    if (s->kind == SSCHED_PROBLEM_BROADCAST || s->kind == SSCHED_PROBLEM_ALLREDUCE) {
        json_object_set_new(root, "arborescences", arborescences_json(p, &s->arborescences));
        /* a multicast's throughput is achievable, not necessarily optimal:
         * the certified edge-LP bound and whether TP is proven optimal */
        json_object_set_new(root, "upper_bound", ssched_i_json_mpq(s->upper_bound));
        json_object_set_new(root, "optimal", json_boolean(s->optimal));
    }
    if (s->fixed) {
        json_t *f = json_object();
        json_object_set_new(f, "optimal_throughput", ssched_i_json_mpq(s->optimal_throughput));
        json_object_set_new(f, "floor_throughput", ssched_i_json_mpq(s->floor_throughput));
        json_object_set_new(f, "report_bound", ssched_i_json_mpq(s->report_bound));
        json_object_set_new(f, "extra_instances", ssched_i_json_mpz(s->extra_instances));
        json_object_set_new(root, "fixed_period", f);
    }
    json_t *m = json_object();
    json_object_set_new(m, "matchings", json_integer((json_int_t)s->n_matchings));
    json_object_set_new(m, "bound", json_integer((json_int_t)s->matching_bound));
    json_object_set_new(m, "bipartite_edges", json_integer((json_int_t)s->bipartite_edges));
    json_object_set_new(m, "decompose_seconds", json_real(s->decompose_seconds));
    json_object_set_new(m, "lcm_period", ssched_i_json_mpz(s->lcm_period));
    json_object_set_new(m, "nosplit_factor", ssched_i_json_mpz(s->nosplit_factor));
    json_object_set_new(root, "figures", m);
    return root;
}

char *ssched_i_schedule_json_text(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_schedule_t *s)
{
    json_t *root = schedule_json(p, pb, s);
    char *text = root ? json_dumps(root, SCHEDULE_JSON_FLAGS) : NULL;
    json_decref(root);
    return text;
}

ssched_status_t ssched_write_schedule_json(FILE *out, const ssched_platform_t *p,
                                           const ssched_problem_t *pb,
                                           const ssched_schedule_t *s, ssched_error_t *err)
{
    return ssched_i_write_json(out, schedule_json(p, pb, s), SCHEDULE_JSON_FLAGS, err);
}
