/* ssched/problem.h — which collective series to plan (the input beside the
 * platform).  RR-4872: series of scatters (§3), of personalized all-to-alls
 * ("gossip", §3.5) and of reduces (§4); Beaumont, Legrand, Marchal, Robert
 * (IPDPS 2004): series of broadcasts (one message copied to every target). */
#ifndef SSCHED_PROBLEM_H
#define SSCHED_PROBLEM_H

#include <gmp.h>
#include <stddef.h>

#include "ssched/error.h"
#include "ssched/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SSCHED_PROBLEM_SCATTER,  /* one source, a message per target          */
    SSCHED_PROBLEM_GOSSIP,   /* a message per (source, target), source != target */
    SSCHED_PROBLEM_REDUCE,   /* ordered participants reduced to a target  */
    SSCHED_PROBLEM_BROADCAST, /* one source, the same message to every target
                                (a multicast when the targets are not every
                                other node)                               */
    SSCHED_PROBLEM_ALLREDUCE, /* every participant gets the reduction of all
                                 participants' values: a reduce to the root
                                 `target`, then a broadcast of the result
                                 from it to every participant, in one steady
                                 state; target == SIZE_MAX: the best root  */
    SSCHED_PROBLEM_SCAN       /* parallel prefix (RR-4872 §6, MPI_Scan):
                                 participant i gets v[0,i] (exclusive,
                                 MPI_Exscan: v[0,i-1], participant 0
                                 nothing); ordered operator            */
} ssched_problem_kind_t;

/* "scatter", "gossip", "reduce", "broadcast", "allreduce", "scan" ("unknown" for any
 * other value); parse: SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_problem_kind_name(ssched_problem_kind_t v);
ssched_status_t ssched_problem_kind_parse(const char *text, ssched_problem_kind_t *out,
                                          ssched_error_t *err);

typedef struct {
    ssched_problem_kind_t kind;
    size_t n_sources, *sources;            /* scatter, broadcast: exactly one */
    size_t n_targets, *targets;            /* scatter, gossip, broadcast    */
    size_t n_participants, *participants;  /* reduce, in operator order     */
    size_t target;                         /* reduce; allreduce: the root, or
                                              SIZE_MAX to pick the best one */
    mpq_t size;                            /* message size, default 1       */
    int commutative;                       /* reduce: the operator is also
                                              commutative (e.g. MPI_SUM): a
                                              partial result is a SET of
                                              participants, any two disjoint
                                              ones may be merged            */
    int exclusive;                         /* scan: participant i gets
                                              v[0,i-1] (MPI_Exscan)         */
} ssched_problem_t;

void ssched_problem_init(ssched_problem_t *pb);
void ssched_problem_free(ssched_problem_t *pb);

/* Fill a scatter problem from node names ("s" and "a,b,c"); validates. */
ssched_status_t ssched_problem_set_scatter(ssched_problem_t *pb, const ssched_platform_t *p,
                                           const char *source, const char *targets,
                                           ssched_error_t *err);
/* Fill a gossip problem from comma-separated node-name lists; validates. */
ssched_status_t ssched_problem_set_gossip(ssched_problem_t *pb, const ssched_platform_t *p,
                                          const char *sources, const char *targets,
                                          ssched_error_t *err);

/* Fill a broadcast problem: one source and the comma-separated targets, or
 * targets == NULL for every other node that is not a switch (routers
 * without w included: a node needs no w to receive; a switch never is a
 * target, it only relays).  The broadcast LP gives the optimal throughput
 * when the targets are every other node of the platform (Edmonds' branching
 * theorem), and only an upper bound for a strict subset (a multicast);
 * steady.h says which.  Validates. */
ssched_status_t ssched_problem_set_broadcast(ssched_problem_t *pb, const ssched_platform_t *p,
                                             const char *source, const char *targets,
                                             ssched_error_t *err);

/* Every node but `source` that is not a switch, in node order (the default
 * broadcast targets); *list is malloc'ed.  EINPUT if there is none. */
ssched_status_t ssched_problem_default_targets(const ssched_platform_t *p, size_t source,
                                               size_t **list, size_t *count, ssched_error_t *err);

/* Fill a reduce problem: ordered participants "p0,p1,..." and the target.
 * The target need not be a participant: it then only receives (and, if it
 * has w, may compute) the result. */
ssched_status_t ssched_problem_set_reduce(ssched_problem_t *pb, const ssched_platform_t *p,
                                          const char *participants, const char *target,
                                          ssched_error_t *err);

/* Fill an all-reduce problem: participants "p0,p1,..." (in operator order
 * unless commutative) and the root, or root == NULL for the best root
 * (target = SIZE_MAX).  The root need not be a participant.  Validates. */
ssched_status_t ssched_problem_set_allreduce(ssched_problem_t *pb, const ssched_platform_t *p,
                                             const char *participants, const char *root,
                                             int commutative, ssched_error_t *err);

/* Fill a scan (parallel prefix) problem: participants "p0,p1,..." in
 * operator order; exclusive != 0: participant i gets v[0,i-1] (MPI_Exscan),
 * else v[0,i] (MPI_Scan).  At least 2 participants.  Validates. */
ssched_status_t ssched_problem_set_scan(ssched_problem_t *pb, const ssched_platform_t *p,
                                        const char *participants, int exclusive,
                                        ssched_error_t *err);

/* Check indices and the rules of each kind: commutative only for reduce and
 * allreduce, exclusive only for scan; size > 0; scatter and
 * broadcast have one source not listed among their (at least one) targets; gossip has at least one pair
 * (source, target) of distinct nodes; lists have no duplicates; no node
 * named in the problem is a switch (platform multiport), and no switch has
 * w (a switch never computes).  EINPUT. */
ssched_status_t ssched_problem_validate(const ssched_problem_t *pb, const ssched_platform_t *p,
                                        ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
