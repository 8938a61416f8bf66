/* ssched plan (src/cli/cmd_plan.c): its options, the rank map and the
 * scaling of a platform to a segment size (src/cli/plan_ranks.c). */
#ifndef SSCHED_CLI_PLAN_H
#define SSCHED_CLI_PLAN_H

#include <jansson.h>

#include "src/cli/problem_opts.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/schedule.h"

typedef struct {
    long bytes, dtsize, max_segments, segment;
    int no_prune;      /* --no-prune: plan every candidate               */
    const char *dir, *hostfile, *unit_msg, *baseline, *overhead;
    char **ranks;      /* node names of the ranks */
    size_t n_ranks;
    char *call;        /* the prediction + --overhead-seconds (exact)    */
    double call_seconds;
    double *rank_end;  /* n_ranks: the chosen plan's end per rank        */
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

/* The scan over candidate segment sizes (src/cli/plan_scan.c): p carries
 * the scale cur (costs x cur, from U bytes a unit message); best,
 * best_seg, best_K, best_s the least makespan so far and its pattern;
 * bound the whole message's steady-state bound M / U / TP; cands one JSON
 * object per candidate (planned or pruned). */
typedef struct {
    const plan_opts_t *o;
    const cli_problem_opts_t *po;
    ssched_platform_t *p;
    ssched_problem_t *pb;
    mpq_t U, cur, best, bound;
    json_t *cands;
    size_t best_seg, best_K, planned, pruned;
    ssched_schedule_t best_s;
    int have_bound;
} plan_scan_t;

void cli_plan_scan_init(plan_scan_t *sc);
void cli_plan_scan_free(plan_scan_t *sc);
/* Scale p from cur to seg / U. */
void cli_plan_scan_scale(plan_scan_t *sc, size_t seg);
/* Try the candidates (one line each, pruned ones say by which bound);
 * 0 or the exit status after one line on stderr. */
int cli_plan_scan(plan_scan_t *sc);

/* The time per call (src/cli/plan_call.c).  ends[r] (n_ranks, initialised):
 * the end of the last event of rank r's node in the chosen plan (p scaled
 * to best_seg), unrolled again in memory; 0 or the exit status after one
 * line on stderr. */
int cli_plan_rank_ends(plan_scan_t *sc, mpq_t *ends);
/* call = the plan's time per call: --overhead-seconds O: O + makespan; a
 * list O_0,...,O_{n-1} (one per rank): max_r (O_r + ends[r]); none: the
 * makespan.  0 or the exit status after one line on stderr. */
int cli_plan_call(const plan_opts_t *o, mpq_t *ends, mpq_srcptr makespan, mpq_t call);

#endif
