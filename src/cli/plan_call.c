/* ssched plan: the time per call (src/cli/plan.h).
 *
 * A call of the interposer on rank r lasts from r's entry to the end of
 * r's last event: O_r + end_r, where end_r is the end of the plan's last
 * event at r's node (a transfer it sends or receives: under SMPI a send
 * completes when its data has arrived; a computation at it), and O_r is
 * r's fixed cost, measured: the start (the last rank's entry plus a
 * margin, src/mpi/run.c lean_start) minus r's entry.  A program measures
 * the call as the slowest rank's time, max_r (O_r + end_r).  One O for
 * every rank gives O + makespan.  Ranks leave a barrier before the call up
 * to a few latencies apart, so O_r differs between ranks, and which rank
 * ends last depends on the plan: a single O measured on one plan is off
 * by that skew on another (two_clusters, 1 MB broadcast: the last rank is
 * one that entered 1 ms early, +1.000 ms, 7.5 %). */
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/plan.h"

int cli_plan_rank_ends(plan_scan_t *sc, mpq_t *ends)
{
    const plan_opts_t *o = sc->o;
    ssched_platform_t *p = sc->p;
    ssched_unrolled_t u;
    ssched_unrolled_init(&u);
    ssched_error_t err;
    ssched_error_clear(&err);
    int rc = CLI_EXIT_OK;
    mpq_t *at = malloc((p->n_nodes ? p->n_nodes : 1) * sizeof *at);
    if (!at) {
        ssched_unrolled_free(&u);
        return cli_bad_input("plan", "out of memory");
    }
    for (size_t v = 0; v < p->n_nodes; v++)
        mpq_init(at[v]);
    if (ssched_unroll(p, sc->pb, &sc->best_s, sc->best_K, &u, &err) != SSCHED_OK)
        rc = cli_report("plan", &err);
    for (size_t k = 0; rc == CLI_EXIT_OK && k < u.n_transfers; k++) {
        const ssched_timed_transfer_t *t = &u.transfers[k];
        size_t a = p->from[t->edge], b = p->to[t->edge];
        if (mpq_cmp(t->end, at[a]) > 0)
            mpq_set(at[a], t->end);
        if (mpq_cmp(t->end, at[b]) > 0)
            mpq_set(at[b], t->end);
    }
    for (size_t k = 0; rc == CLI_EXIT_OK && k < u.n_computations; k++) {
        const ssched_timed_computation_t *c = &u.computations[k];
        if (mpq_cmp(c->end, at[c->node]) > 0)
            mpq_set(at[c->node], c->end);
    }
    for (size_t r = 0; rc == CLI_EXIT_OK && r < o->n_ranks; r++) {
        size_t v;
        if (ssched_platform_find_node(p, o->ranks[r], &v, NULL) != SSCHED_OK)
            rc = cli_bad_input("plan", "rank %zu: no node '%s'", r, o->ranks[r]);
        else
            mpq_set(ends[r], at[v]);
    }
    for (size_t v = 0; v < p->n_nodes; v++)
        mpq_clear(at[v]);
    free(at);
    ssched_unrolled_free(&u);
    return rc;
}

int cli_plan_call(const plan_opts_t *o, mpq_t *ends, mpq_srcptr makespan, mpq_t call)
{
    const char *t = o->overhead;
    mpq_t x;
    mpq_init(x);
    int rc = CLI_EXIT_OK;
    if (!t) {
        mpq_set(call, makespan);
    } else if (!strchr(t, ',')) {
        /* one O for every rank: O + the makespan (also where the last
         * event is at a node without a rank) */
        if (cli_parse_rational("plan", "--overhead-seconds", t, x))
            mpq_add(call, makespan, x);
        else
            rc = CLI_EXIT_BADINPUT;
    } else {
        char *copy = strdup(t), *save = NULL;
        size_t r = 0;
        if (!copy)
            rc = cli_bad_input("plan", "out of memory");
        for (char *f = copy ? strtok_r(copy, ",", &save) : NULL; f && rc == CLI_EXIT_OK;
             f = strtok_r(NULL, ",", &save), r++) {
            if (r >= o->n_ranks)
                rc = cli_bad_input("plan", "--overhead-seconds: more than one value per rank "
                                   "(%zu ranks)", o->n_ranks);
            else if (!cli_parse_rational("plan", "--overhead-seconds", f, x))
                rc = CLI_EXIT_BADINPUT;
            else {
                mpq_add(x, x, ends[r]);
                if (r == 0 || mpq_cmp(x, call) > 0)
                    mpq_set(call, x);
            }
        }
        if (rc == CLI_EXIT_OK && r != o->n_ranks)
            rc = cli_bad_input("plan", "--overhead-seconds: %zu values for %zu ranks", r,
                               o->n_ranks);
        free(copy);
    }
    mpq_clear(x);
    return rc;
}
