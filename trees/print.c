/* Text and Graphviz forms of a reduction tree. */
#include <stdint.h>

#include "ssched/steady.h"
#include "ssched/trees.h"

void ssched_tree_write_text(const ssched_platform_t *p, const ssched_problem_t *pb,
                            const ssched_tree_t *tree, FILE *out)
{
    fputs("weight ", out);
    mpz_out_str(out, 10, tree->weight);
    fputs(" per period\n", out);
    fprintf(out, "  v[0,%zu] on %s (target)\n", pb->n_participants - 1, p->names[pb->target]);
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
}

void ssched_tree_write_dot(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_tree_t *tree, const char *name, FILE *out)
{
    fprintf(out, "digraph \"%s\" {\n  rankdir=BT;\n  label=\"weight ", name);
    mpz_out_str(out, 10, tree->weight);
    fputs(" per period\";\n", out);
    fprintf(out, "  root [shape=doublecircle, label=\"v[0,%zu]\\n%s\"];\n",
            pb->n_participants - 1, p->names[pb->target]);
    for (size_t k = 0; k < tree->n_tasks; k++) {
        const ssched_tree_task_t *t = &tree->tasks[k];
        if (t->kind == SSCHED_TREE_COMPUTE)
            fprintf(out, "  t%zu [shape=box, label=\"T(%zu,%zu,%zu)\\non %s\"];\n", k, t->k, t->l,
                    t->m, p->names[t->node]);
        else
            fprintf(out, "  t%zu [shape=ellipse, label=\"v[%zu,%zu]\\n%s -> %s\"];\n", k, t->k, t->m,
                    p->names[p->from[t->edge]], p->names[p->to[t->edge]]);
        if (t->parent == SIZE_MAX)
            fprintf(out, "  t%zu -> root;\n", k);
        else
            fprintf(out, "  t%zu -> t%zu;\n", k, t->parent);
    }
    /* leaves: the participants' own values feeding tasks */
    for (size_t k = 0; k < tree->n_tasks; k++) {
        const ssched_tree_task_t *t = &tree->tasks[k];
        size_t node = t->kind == SSCHED_TREE_COMPUTE ? t->node : p->from[t->edge];
        size_t lo[2] = {t->k, t->l + 1}, hi[2] = {t->kind == SSCHED_TREE_COMPUTE ? t->l : t->m, t->m};
        for (int side = 0; side < (t->kind == SSCHED_TREE_COMPUTE ? 2 : 1); side++)
            if (lo[side] == hi[side] && pb->participants[lo[side]] == node)
                fprintf(out, "  leaf%zu_%d [shape=plaintext, label=\"v%zu on %s\"];\n  leaf%zu_%d -> t%zu;\n",
                        k, side, lo[side], p->names[node], k, side, k);
    }
    fputs("}\n", out);
}
