/* Text and Graphviz forms of a reduction tree. */
#include <stdint.h>

#include "ssched/steady.h"
#include "ssched/trees.h"
#include "src/util/enum_names.h"
#include "src/export/export_internal.h"

ssched_status_t ssched_write_tree_text(FILE *out, const ssched_platform_t *p,
                                       const ssched_problem_t *pb, const ssched_tree_t *tree,
                                       ssched_error_t *err)
{
    fputs("weight ", out);
    mpz_out_str(out, 10, tree->weight);
    fputs(" per period\n", out);
    fprintf(out, "  v[0,%zu] on %s (target)\n", pb->n_participants - 1, p->names[pb->target]);
    if (tree->order) { /* commutative: intervals are positions in this order */
        fputs("  order:", out);
        for (size_t i = 0; i < pb->n_participants; i++)
            fprintf(out, " %s", p->names[pb->participants[tree->order[i]]]);
        fputs("\n", out);
    }
    for (size_t k = 0; k < tree->n_tasks; k++) {
        const ssched_tree_task_t *t = &tree->tasks[k];
        fprintf(out, "%*s", (int)(2 * t->depth + 4), "");
        if (t->kind == SSCHED_TREE_COMPUTE)
            fprintf(out, "<- %s computes v[%zu,%zu] = v[%zu,%zu] (+) v[%zu,%zu]\n", p->names[t->node],
                    t->k, t->m, t->k, t->l, t->l + 1, t->m);
        else
            fprintf(out, "<- v[%zu,%zu] sent %s -> %s\n", t->k, t->m, p->names[p->from[t->edge]],
                    p->names[p->to[t->edge]]);
    }
    return ssched_i_write_status(out, err);
}

/* A node name inside a DOT label: escaped (ssched_i_dot_text), so that a
 * name cannot close the string and inject attributes (issue 24 item 3). */
static void dot_name(FILE *out, const ssched_platform_t *p, size_t node)
{
    ssched_i_dot_text(out, p->names[node]);
}

/* The statements of one tree, its Graphviz ids prefixed by `id` so that
 * several trees can share one graph (ids are generated, never names). */
static void tree_statements(const ssched_platform_t *p, const ssched_problem_t *pb,
                            const ssched_tree_t *tree, const char *id, FILE *out)
{
    fputs("  label=\"weight ", out);
    mpz_out_str(out, 10, tree->weight);
    fputs(" per period\";\n", out);
    fprintf(out, "  %sroot [shape=doublecircle, label=\"v[0,%zu]\\n", id, pb->n_participants - 1);
    dot_name(out, p, pb->target);
    fputs("\"];\n", out);
    for (size_t k = 0; k < tree->n_tasks; k++) {
        const ssched_tree_task_t *t = &tree->tasks[k];
        if (t->kind == SSCHED_TREE_COMPUTE) {
            fprintf(out, "  %st%zu [shape=box, label=\"T(%zu,%zu,%zu)\\non ", id, k, t->k, t->l,
                    t->m);
            dot_name(out, p, t->node);
        } else {
            fprintf(out, "  %st%zu [shape=ellipse, label=\"v[%zu,%zu]\\n", id, k, t->k, t->m);
            dot_name(out, p, p->from[t->edge]);
            fputs(" -> ", out);
            dot_name(out, p, p->to[t->edge]);
        }
        fputs("\"];\n", out);
        if (t->parent == SIZE_MAX)
            fprintf(out, "  %st%zu -> %sroot;\n", id, k, id);
        else
            fprintf(out, "  %st%zu -> %st%zu;\n", id, k, id, t->parent);
    }
    /* leaves: the participants' own values feeding tasks */
    for (size_t k = 0; k < tree->n_tasks; k++) {
        const ssched_tree_task_t *t = &tree->tasks[k];
        size_t node = t->kind == SSCHED_TREE_COMPUTE ? t->node : p->from[t->edge];
        size_t lo[2] = {t->k, t->l + 1}, hi[2] = {t->kind == SSCHED_TREE_COMPUTE ? t->l : t->m, t->m};
        for (int side = 0; side < (t->kind == SSCHED_TREE_COMPUTE ? 2 : 1); side++)
            if (lo[side] == hi[side] &&
                pb->participants[tree->order ? tree->order[lo[side]] : lo[side]] == node) {
                fprintf(out, "  %sleaf%zu_%d [shape=plaintext, label=\"v%zu on ", id, k, side,
                        tree->order ? tree->order[lo[side]] : lo[side]);
                dot_name(out, p, node);
                fprintf(out, "\"];\n  %sleaf%zu_%d -> %st%zu;\n", id, k, side, id, k);
            }
    }
}

ssched_status_t ssched_write_tree_dot(FILE *out, const ssched_platform_t *p,
                                      const ssched_problem_t *pb, const ssched_tree_t *tree,
                                      const char *name, ssched_error_t *err)
{
    fputs("digraph \"", out);
    ssched_i_dot_text(out, name);
    fputs("\" {\n  rankdir=BT;\n", out);
    tree_statements(p, pb, tree, "", out);
    fputs("}\n", out);
    return ssched_i_write_status(out, err);
}

/* Graphviz renders only the first graph of a file, so several trees go in
 * one graph, a cluster each. */
ssched_status_t ssched_write_trees_dot(FILE *out, const ssched_platform_t *p,
                                       const ssched_problem_t *pb, const ssched_trees_t *trees,
                                       ssched_error_t *err)
{
    fputs("digraph \"trees\" {\n  rankdir=BT;\n", out);
    for (size_t k = 0; k < trees->n_trees; k++) {
        char id[32];
        snprintf(id, sizeof id, "T%zu_", k + 1);
        fprintf(out, " subgraph \"cluster_tree%zu\" {\n", k + 1);
        tree_statements(p, pb, &trees->trees[k], id, out);
        fputs(" }\n", out);
    }
    fputs("}\n", out);
    return ssched_i_write_status(out, err);
}

SSCHED_I_ENUM_FUNCTIONS(tree_task_kind, ssched_tree_task_kind_t, "tree task kind", "send",
                        "compute")
