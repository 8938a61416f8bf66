/* ssched plan: the rank map (--hostfile), the check that the problem is
 * the whole communicator's collective, and the scaling of the platform's
 * costs to a segment size (src/cli/plan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/plan.h"


/* Multiply every unit-message cost of p by f (latencies unchanged). */
void cli_plan_scale(ssched_platform_t *p, mpq_srcptr f)
{
    for (size_t e = 0; e < p->n_edges; e++)
        mpq_mul(p->c[e], p->c[e], f);
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->has_w[i])
            mpq_mul(p->w[i], p->w[i], f);
    if (p->routes)
        for (size_t k = 0; k < p->routes->n_links; k++)
            mpq_mul(p->routes->link_c[k], p->routes->link_c[k], f);
}

void cli_plan_free_ranks(plan_opts_t *o)
{
    for (size_t k = 0; k < o->n_ranks; k++)
        free(o->ranks[k]);
    free(o->ranks);
    o->ranks = NULL;
    o->n_ranks = 0;
}

/* The rank map from --hostfile (or every node of p in order). */
int cli_plan_read_ranks(plan_opts_t *o, const ssched_platform_t *p)
{
    if (!o->hostfile) {
        if (!(o->ranks = calloc(p->n_nodes ? p->n_nodes : 1, sizeof *o->ranks)))
            return cli_bad_input("plan", "out of memory");
        for (size_t k = 0; k < p->n_nodes; k++)
            if (!(o->ranks[o->n_ranks++] = strdup(p->names[k])))
                return cli_bad_input("plan", "out of memory");
        return CLI_EXIT_OK;
    }
    FILE *f = fopen(o->hostfile, "r");
    if (!f)
        return cli_bad_input("plan", "--hostfile %s: %s", o->hostfile, strerror(errno));
    char line[4096];
    size_t cap = 0, lineno = 0;
    int rc = CLI_EXIT_OK;
    while (rc == CLI_EXIT_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, ":\r\n")] = 0;
        if (!line[0])
            continue;
        size_t node;
        if (ssched_platform_find_node(p, line, &node, NULL) != SSCHED_OK) {
            rc = cli_bad_input("plan", "--hostfile %s:%zu: no node '%s' in the platform",
                               o->hostfile, lineno, line);
            break;
        }
        for (size_t k = 0; k < o->n_ranks; k++)
            if (!strcmp(o->ranks[k], line))
                rc = cli_bad_input("plan", "--hostfile %s:%zu: node '%s' given twice (one rank "
                                   "per node)", o->hostfile, lineno, line);
        if (rc != CLI_EXIT_OK)
            break;
        if (o->n_ranks == cap) {
            cap = cap ? 2 * cap : 16;
            char **g = realloc(o->ranks, cap * sizeof *g);
            if (!g) {
                rc = cli_bad_input("plan", "out of memory");
                break;
            }
            o->ranks = g;
        }
        if (!(o->ranks[o->n_ranks++] = strdup(line)))
            rc = cli_bad_input("plan", "out of memory");
    }
    fclose(f);
    if (rc == CLI_EXIT_OK && o->n_ranks < 2)
        rc = cli_bad_input("plan", "--hostfile %s: fewer than 2 ranks", o->hostfile);
    return rc;
}

static long rank_of(const plan_opts_t *o, const ssched_platform_t *p, size_t node)
{
    for (size_t k = 0; k < o->n_ranks; k++)
        if (!strcmp(o->ranks[k], p->names[node]))
            return (long)k;
    return -1;
}

/* The problem must be the collective of the whole communicator: a reduce's
 * participants are the ranks in rank order (MPI's operand order), a
 * broadcast reaches every other rank.  Returns the root rank, or -1 after
 * one line on stderr. */
long cli_plan_check_problem(const plan_opts_t *o, const ssched_platform_t *p,
                          const ssched_problem_t *pb)
{
    if (pb->kind == SSCHED_PROBLEM_BROADCAST) {
        long root = rank_of(o, p, pb->sources[0]);
        int ok = root >= 0 && pb->n_targets + 1 == o->n_ranks;
        for (size_t k = 0; ok && k < pb->n_targets; k++)
            ok = rank_of(o, p, pb->targets[k]) >= 0;
        if (!ok)
            return cli_bad_input("plan", "broadcast: the source and targets must be exactly the "
                                 "ranks' nodes (%zu ranks)", o->n_ranks), -1;
        return root;
    }
    if (pb->kind != SSCHED_PROBLEM_REDUCE && pb->kind != SSCHED_PROBLEM_ALLREDUCE)
        return cli_bad_input("plan", "--problem %s: plan covers broadcast, reduce and allreduce",
                             ssched_problem_kind_name(pb->kind)), -1;
    int ok = pb->n_participants == o->n_ranks;
    for (size_t k = 0; ok && k < pb->n_participants; k++)
        ok = !strcmp(p->names[pb->participants[k]], o->ranks[k]);
    if (!ok)
        return cli_bad_input("plan", "%s: the participants must be the ranks' nodes in rank order "
                             "(MPI's operand order; %zu ranks)",
                             ssched_problem_kind_name(pb->kind), o->n_ranks), -1;
    if (pb->kind == SSCHED_PROBLEM_ALLREDUCE)
        return 0;
    return rank_of(o, p, pb->target) < 0
               ? (cli_bad_input("plan", "reduce: the target is not one of the ranks' nodes"), -1)
               : rank_of(o, p, pb->target);
}

