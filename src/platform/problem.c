/* Problem definitions and their validation (problem.h). */
#include "ssched/problem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/enum_names.h"
#include "src/util/internal.h"

void ssched_problem_init(ssched_problem_t *pb)
{
    memset(pb, 0, sizeof *pb);
    mpq_init(pb->size);
    mpq_set_ui(pb->size, 1, 1);
}

void ssched_problem_free(ssched_problem_t *pb)
{
    free(pb->sources);
    free(pb->targets);
    free(pb->participants);
    mpq_clear(pb->size);
    memset(pb, 0, sizeof *pb);
}

static ssched_status_t check_list(const ssched_platform_t *p, const size_t *list, size_t n,
                                  const char *what, ssched_error_t *err)
{
    if (n == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: empty node list", what);
    /* duplicates by a mark per node: linear (issue 24 item 5) */
    unsigned char *listed = ssched_i_calloc(p->n_nodes, 1);
    if (!listed)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_status_t st = SSCHED_OK;
    for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
        if (list[k] >= p->n_nodes)
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: node index %zu out of range", what,
                                  list[k]);
        else if (listed[list[k]])
            st = ssched_error_set(err, SSCHED_EINPUT, "%s: node '%s' listed twice", what,
                                  p->names[list[k]]);
        else if (p->multiport && p->multiport[list[k]])
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "%s: node '%s' is a switch (ports=multi or platform.multiport);"
                                  " a switch is never a source, target or participant",
                                  what, p->names[list[k]]);
        else
            listed[list[k]] = 1;
    }
    free(listed);
    return st;
}

ssched_status_t ssched_problem_validate(const ssched_problem_t *pb, const ssched_platform_t *p,
                                        ssched_error_t *err)
{
    if (mpq_sgn(pb->size) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "problem.size: message size must be positive");
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->multiport && p->multiport[i] && p->has_w[i])
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "node '%s' is a switch and has w: a switch never computes",
                                    p->names[i]);
    if (pb->commutative && pb->kind != SSCHED_PROBLEM_REDUCE &&
        pb->kind != SSCHED_PROBLEM_ALLREDUCE)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "problem.commutative: applies to reduce and allreduce only, not %s",
                                ssched_problem_kind_name(pb->kind));
    if (pb->exclusive && pb->kind != SSCHED_PROBLEM_SCAN)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "problem.exclusive: applies to scan only, not %s",
                                ssched_problem_kind_name(pb->kind));
    ssched_status_t st;
    switch (pb->kind) {
    case SSCHED_PROBLEM_SCATTER:
    case SSCHED_PROBLEM_BROADCAST:
        if (pb->n_sources != 1)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "problem.sources: a %s has exactly one source",
                                    ssched_problem_kind_name(pb->kind));
        if ((st = check_list(p, pb->sources, 1, "problem.sources", err)) != SSCHED_OK ||
            (st = check_list(p, pb->targets, pb->n_targets, "problem.targets", err)) != SSCHED_OK)
            return st;
        for (size_t k = 0; k < pb->n_targets; k++)
            if (pb->targets[k] == pb->sources[0])
                return ssched_error_set(err, SSCHED_EINPUT,
                                        "problem.targets: the source '%s' is listed among "
                                        "its own targets",
                                        p->names[pb->sources[0]]);
        return SSCHED_OK;
    case SSCHED_PROBLEM_GOSSIP:
        if ((st = check_list(p, pb->sources, pb->n_sources, "problem.sources", err)) != SSCHED_OK ||
            (st = check_list(p, pb->targets, pb->n_targets, "problem.targets", err)) != SSCHED_OK)
            return st;
        for (size_t a = 0; a < pb->n_sources; a++)
            for (size_t b = 0; b < pb->n_targets; b++)
                if (pb->sources[a] != pb->targets[b])
                    return SSCHED_OK;
        return ssched_error_set(err, SSCHED_EINPUT,
                                "gossip: no (source, target) pair of distinct nodes");
    case SSCHED_PROBLEM_REDUCE:
    case SSCHED_PROBLEM_ALLREDUCE:
    case SSCHED_PROBLEM_SCAN:
        if ((st = check_list(p, pb->participants, pb->n_participants, "problem.participants",
                             err)) != SSCHED_OK)
            return st;
        if (pb->n_participants < 2)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "problem.participants: %s needs at least 2 participants",
                                    pb->kind == SSCHED_PROBLEM_REDUCE      ? "a reduce"
                                    : pb->kind == SSCHED_PROBLEM_ALLREDUCE ? "an allreduce"
                                                                           : "a scan");
        /* a scan has no target; an all-reduce's root is optional */
        if (pb->kind == SSCHED_PROBLEM_SCAN ||
            (pb->kind == SSCHED_PROBLEM_ALLREDUCE && pb->target == SIZE_MAX))
            return SSCHED_OK;
        if (pb->target >= p->n_nodes)
            return ssched_error_set(err, SSCHED_EINPUT, "problem.target: node index out of range");
        return check_list(p, &pb->target, 1, "problem.target", err);
    }
    return ssched_error_set(err, SSCHED_EINPUT, "unknown problem kind");
}

/* pb becomes a problem of kind with no sources and targets (the
 * participants are left as they are). */
static void reset(ssched_problem_t *pb, ssched_problem_kind_t kind)
{
    pb->kind = kind;
    free(pb->sources);
    free(pb->targets);
    pb->sources = pb->targets = NULL;
    pb->n_sources = pb->n_targets = 0;
}

/* pb becomes a problem of kind whose participants are parsed from their
 * names (the sources and targets are left as they are). */
static ssched_status_t set_participants(ssched_problem_t *pb, const ssched_platform_t *p,
                                        ssched_problem_kind_t kind, const char *participants,
                                        ssched_error_t *err)
{
    pb->kind = kind;
    free(pb->participants);
    pb->participants = NULL;
    pb->n_participants = 0;
    return ssched_platform_parse_node_list(p, participants, "participants", &pb->participants,
                                           &pb->n_participants, err);
}

ssched_status_t ssched_problem_set_scatter(ssched_problem_t *pb, const ssched_platform_t *p,
                                           const char *source, const char *targets,
                                           ssched_error_t *err)
{
    reset(pb, SSCHED_PROBLEM_SCATTER);
    ssched_status_t st = ssched_platform_parse_node_list(p, source, "source", &pb->sources,
                                                         &pb->n_sources, err);
    if (st == SSCHED_OK && pb->n_sources != 1)
        st = ssched_error_set(err, SSCHED_EINPUT, "source: a scatter has exactly one source");
    if (st == SSCHED_OK)
        st = ssched_platform_parse_node_list(p, targets, "targets", &pb->targets,
                                             &pb->n_targets, err);
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

ssched_status_t ssched_problem_set_gossip(ssched_problem_t *pb, const ssched_platform_t *p,
                                          const char *sources, const char *targets,
                                          ssched_error_t *err)
{
    reset(pb, SSCHED_PROBLEM_GOSSIP);
    ssched_status_t st = ssched_platform_parse_node_list(p, sources, "sources", &pb->sources,
                                                         &pb->n_sources, err);
    if (st == SSCHED_OK)
        st = ssched_platform_parse_node_list(p, targets, "targets", &pb->targets,
                                             &pb->n_targets, err);
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

ssched_status_t ssched_problem_set_reduce(ssched_problem_t *pb, const ssched_platform_t *p,
                                          const char *participants, const char *target,
                                          ssched_error_t *err)
{
    ssched_status_t st = set_participants(pb, p, SSCHED_PROBLEM_REDUCE, participants, err);
    if (st == SSCHED_OK && (!target || !*target))
        st = ssched_error_set(err, SSCHED_EINPUT, "target: missing node name");
    if (st == SSCHED_OK && ssched_platform_find_node(p, target, &pb->target, err) != SSCHED_OK)
        st = ssched_error_set(err, SSCHED_EINPUT, "target: unknown node '%s'", target);
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

ssched_status_t ssched_problem_set_allreduce(ssched_problem_t *pb, const ssched_platform_t *p,
                                             const char *participants, const char *root,
                                             int commutative, ssched_error_t *err)
{
    pb->commutative = commutative != 0;
    pb->target = SIZE_MAX;
    ssched_status_t st = set_participants(pb, p, SSCHED_PROBLEM_ALLREDUCE, participants, err);
    if (st == SSCHED_OK && root && !*root)
        st = ssched_error_set(err, SSCHED_EINPUT, "root: missing node name");
    if (st == SSCHED_OK && root && ssched_platform_find_node(p, root, &pb->target, err) != SSCHED_OK)
        st = ssched_error_set(err, SSCHED_EINPUT, "root: unknown node '%s'", root);
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

ssched_status_t ssched_problem_set_scan(ssched_problem_t *pb, const ssched_platform_t *p,
                                        const char *participants, int exclusive,
                                        ssched_error_t *err)
{
    pb->exclusive = exclusive != 0;
    pb->commutative = 0;
    ssched_status_t st = set_participants(pb, p, SSCHED_PROBLEM_SCAN, participants, err);
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

ssched_status_t ssched_problem_default_targets(const ssched_platform_t *p, size_t source,
                                               size_t **list, size_t *count, ssched_error_t *err)
{
    *list = NULL;
    *count = 0;
    size_t n = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        n += i != source && !(p->multiport && p->multiport[i]);
    if (n == 0)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "broadcast: no node to send to (every node but the source '%s' "
                                "is a switch)", source < p->n_nodes ? p->names[source] : "?");
    if (!(*list = malloc(n * sizeof **list)))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->n_nodes; i++)
        if (i != source && !(p->multiport && p->multiport[i]))
            (*list)[(*count)++] = i;
    return SSCHED_OK;
}

ssched_status_t ssched_problem_set_broadcast(ssched_problem_t *pb, const ssched_platform_t *p,
                                             const char *source, const char *targets,
                                             ssched_error_t *err)
{
    reset(pb, SSCHED_PROBLEM_BROADCAST);
    ssched_status_t st = SSCHED_OK;
    if (!source || !*source)
        return ssched_error_set(err, SSCHED_EINPUT, "source: missing node name");
    if (!(pb->sources = malloc(sizeof *pb->sources)))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (ssched_platform_find_node(p, source, &pb->sources[0], err) != SSCHED_OK)
        return ssched_error_set(err, SSCHED_EINPUT, "source: unknown node '%s'", source);
    pb->n_sources = 1;
    if (targets)
        st = ssched_platform_parse_node_list(p, targets, "targets", &pb->targets,
                                             &pb->n_targets, err);
    else
        st = ssched_problem_default_targets(p, pb->sources[0], &pb->targets, &pb->n_targets, err);
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

SSCHED_I_ENUM_FUNCTIONS(problem_kind, ssched_problem_kind_t, "problem", "scatter", "gossip",
                        "reduce", "broadcast", "allreduce", "scan")
