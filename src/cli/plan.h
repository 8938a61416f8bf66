/* ssched plan (src/cli/cmd_plan.c): its options, the rank map and the
 * scaling of a platform to a segment size (src/cli/plan_ranks.c). */
#ifndef SSCHED_CLI_PLAN_H
#define SSCHED_CLI_PLAN_H

#include "ssched/platform.h"
#include "ssched/problem.h"

typedef struct {
    long bytes, dtsize, max_segments, segment;
    const char *dir, *hostfile, *unit_msg, *baseline, *overhead;
    char **ranks;      /* node names of the ranks */
    size_t n_ranks;
    char *call;        /* the prediction + --overhead-seconds (exact)    */
    double call_seconds;
} plan_opts_t;

/* Multiply every unit-message cost of p by f (c, w, a routed platform's
 * link_c; latencies unchanged). */
void cli_plan_scale(ssched_platform_t *p, mpq_srcptr f);
/* The rank map from --hostfile (or every node of p in order); 2 after one
 * line on stderr. */
int cli_plan_read_ranks(plan_opts_t *o, const ssched_platform_t *p);
void cli_plan_free_ranks(plan_opts_t *o);
/* The problem must be the whole communicator's collective; the root rank,
 * or -1 after one line on stderr. */
long cli_plan_check_problem(const plan_opts_t *o, const ssched_platform_t *p,
                            const ssched_problem_t *pb);

#endif
