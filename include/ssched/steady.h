/* ssched/steady.h — the steady-state LPs of RR-4872 and their certified
 * optimum.
 *
 * ssched_model_build() states SSSP (scatter) or SSPA2A (gossip) as an exact
 * rational LP, with the corrections of docs/model.md: a source emits its own
 * messages freely (no conservation there, and nothing of its type flows back
 * into it), and a destination never forwards its own type.  Send variables
 * that cannot lie on any origin -> destination path are not created (they
 * can only carry useless circulations), which keeps the LP small.
 *
 * ssched_steady_solve() builds, solves exactly and interprets the solution:
 * per-edge per-type rates, port occupations, and the dual prices that prove
 * which ports bound the throughput (TP = sum of the prices of the saturated
 * ports, links and processors, by LP duality, since those are the only rows
 * with rhs 1).
 *
 * Switches (platform multiport[i] = 1) have no port rule: every edge with a
 * switch at either end is its own resource (link row, busy <= 1 per time
 * unit), hosts keep their ports.  Column generation has the same link rows in
 * its master and prices each edge with the duals of the resources it
 * uses (ports at one-port ends, the link at a switch).
 *
 * Broadcast (Beaumont, Legrand, Marchal, Robert, IPDPS 2004): copies(e) >= 0
 * messages per time unit over each edge e carry the ports (and switch links),
 * and for every target k a flow of value TP from the source to k (the
 * conservation and delivery rows of a scatter type (source, k)) is bounded
 * edge by edge by the copies: f_k(e) <= copies(e).  For targets = every other
 * node this is the optimal broadcast throughput (Edmonds: copies decompose
 * into weighted spanning arborescences of total weight TP); for a strict
 * subset (multicast) it is an upper bound only (steady->multicast).  Column
 * generation over arborescences (lp/colgen_bcast.h) gives the same optimum
 * for a broadcast to every other node, and for a multicast an achievable TP
 * (a certified feasible Steiner packing, upper_bound = the edge LP's).  The
 * edge LP's solution
 * reports copies(e) lowered to max_k f_k(e) and certified again (lp.x holds
 * that point; lp.basic still describes the solver's basis). */
#ifndef SSCHED_STEADY_H
#define SSCHED_STEADY_H

#include <gmp.h>
#include <stddef.h>

#include "ssched/error.h"
#include "ssched/lp.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/trees.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A message type of scatter/gossip: messages from origin to dest. */
typedef struct {
    size_t origin, dest;
} ssched_commodity_t;

#define SSCHED_NO_ROW ((size_t)-1)

/* A partial reduction v[k,m] = v_k (+) ... (+) v_m of the ordered
 * participants (reduce only; message types are intervals). */
typedef struct {
    size_t k, m;
} ssched_interval_t;

/* The number of interval v[k,m] (0 <= k <= m < N) among the N(N+1)/2
 * intervals of N participants, numbered k-major: [0,0], [0,1], ..,
 * [0,N-1], [1,1], ...  Every stage uses it: the reduce LP's message types,
 * ssched_steady_t's and ssched_schedule_t's intervals are in this order. */
size_t ssched_interval_index(size_t N, size_t k, size_t m);

/* Task T_{k,l,m}: v[k,m] = v[k,l] (+) v[l+1,m] computed on `node`. */
typedef struct {
    size_t node, k, l, m;
    mpq_t rate;                        /* tasks per time unit (solutions)   */
} ssched_task_t;

/* A prefix structure of a scan (issue 27; lp/colgen_scan*.c): one
 * operation's way of delivering every participant its prefix (v[0,j] to
 * r_j, j >= 1; exclusive: v[0,j-1]).  Tasks T_{k,l,m} (v[k,m] = v[k,l] (x)
 * v[l+1,m] on `node`) and sends of interval v[k,m] over platform edge
 * `edge`; a value used more than once is sent once per edge (copies), so
 * no (edge, k, m) repeats and no task repeats.  Resources: each send keeps
 * its edge's ports / links busy size*c(e), each task its node w(node). */
typedef struct {
    size_t node, k, l, m;
} ssched_scan_task_t;

typedef struct {
    size_t edge, k, m;
} ssched_scan_send_t;

typedef struct {
    size_t n_tasks, n_sends;
    ssched_scan_task_t *tasks;
    ssched_scan_send_t *sends;
    mpq_t rate;                        /* operations per time unit (solutions) */
} ssched_scan_structure_t;

typedef struct {
    ssched_lp_t lp;
    size_t tp_col;                     /* the throughput variable TP        */
    size_t n_commodities;              /* scatter/gossip message types      */
    ssched_commodity_t *commodities;
    size_t n_intervals;                /* reduce message types              */
    ssched_interval_t *intervals;
    size_t n_sends;                    /* send(edge, type) columns          */
    size_t *send_edge, *send_type, *send_col;
    size_t n_cons;                     /* reduce: cons(node, T_{k,l,m})     */
    size_t *cons_col;
    ssched_task_t *cons;               /* (rate unused here)                */
    size_t *out_row, *in_row;          /* per node port row or SSCHED_NO_ROW */
    size_t *compute_row;               /* reduce: per node, or SSCHED_NO_ROW */
    size_t *link_row;                  /* per edge: the link row when either end
                                          is a switch (p->multiport), else
                                          SSCHED_NO_ROW; routed platforms: per
                                          resource (n_links SHARED link rows,
                                          then n_edges FATPIPE rows)          */
    size_t *copy_col;                  /* broadcast, per edge: the copies(e)
                                          column, or SSCHED_NO_ROW (no target's
                                          flow can use e); NULL otherwise.  The
                                          send columns are the f_k(e), type =
                                          target index                       */
} ssched_model_t;

/* Empty model.  Always succeeds; pair with ssched_model_free(). */
void ssched_model_init(ssched_model_t *model);
/* Build the LP of a validated problem into an initialised model (what it
 * held is released first): SSSP, SSPA2A, SSR (RR-4872 §4.2, with the
 * correction that v[0,N-1] never leaves the target) or the broadcast LP
 * ("ssb", above).  On failure the model holds a partial build: free it. */
ssched_status_t ssched_model_build(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   ssched_model_t *model, ssched_error_t *err);
/* Release the model; it is left initialised (empty). */
void ssched_model_free(ssched_model_t *model);

/* A nonzero rate: `rate` messages of commodity `type` per time unit on `edge`
 * (broadcast: copies of the message per time unit on `edge`, type 0). */
typedef struct {
    size_t edge, type;
    mpq_t rate;
} ssched_flow_t;

/* Solver figures of one phase: wall and CPU seconds and how many times it
 * ran (solves, iterations or passes, as the field says). */
typedef struct {
    double wall_seconds, cpu_seconds;
    size_t count;
} ssched_phase_t;

/* How a steady state is solved (ssched_steady_options_t.method; the
 * solution's method says which one ran). */
typedef enum {
    SSCHED_METHOD_AUTO = 0, /* column generation, for every problem: measured
                               faster on every class bench/colgen.sh runs, and
                               the only method giving an achievable TP for a
                               multicast, commutative reduce or all-reduce (not
                               an instance-by-instance choice)              */
    SSCHED_METHOD_LP,       /* the edge LP of RR-4872, solved exactly            */
    SSCHED_METHOD_COLGEN    /* column generation over trees / paths, certified  */
} ssched_method_t;

/* "auto", "lp", "colgen" ("unknown" for any other value); parse: SSCHED_EINPUT
 * naming the text and the accepted names. */
const char *ssched_method_name(ssched_method_t v);
ssched_status_t ssched_method_parse(const char *text, ssched_method_t *out, ssched_error_t *err);

typedef struct ssched_steady_s {
    mpq_t throughput;                  /* certified optimal TP (multicast:
                                          certified LP upper bound)         */
    ssched_problem_kind_t kind;
    size_t n_nodes;
    size_t n_commodities;
    ssched_commodity_t *commodities;   /* copy of the model's types (broadcast:
                                          (source, target k), one per target) */
    int multicast;                     /* broadcast to a strict subset of the
                                          other nodes: `throughput` is the LP
                                          optimum, an upper bound on the
                                          achievable TP, not a TP            */
    size_t n_intervals;                /* reduce: flows' type = interval    */
    ssched_interval_t *intervals;
    size_t n_tasks;                    /* reduce: nonzero task rates        */
    ssched_task_t *tasks;
    mpq_t *compute_busy, *compute_price; /* reduce: per node                */
    unsigned char *unreachable;        /* scatter/gossip, per commodity: the
                                          dest is unreachable; reduce, per
                                          participant: the target cannot be
                                          reached from it.  Either forces TP=0 */
    size_t n_flows;
    ssched_flow_t *flows;              /* nonzero rates, by edge then type  */
    mpq_t *out_busy, *in_busy;         /* per node: port occupation in [0,1] */
    mpq_t *out_price, *in_price;       /* per node: dual price of the port
                                          (0 at a switch: it has no port)    */
    size_t n_edges;
    mpq_t *link_busy, *link_price;     /* per edge: occupation and dual price
                                          of a switch link (an edge with a
                                          switch at either end); 0 otherwise */
    /* Routed platforms (platform.h): per edge, link_busy[e] is the
     * edge's load amount(e)*size*c(e) (its bottleneck's time) and
     * link_price[e] is 0; the link resources are reported per routed link
     * (n_links = routes->n_links; 0 and NULL for a graph platform):
     * SHARED: busy = sum over the edges through it of amount*size*link_c,
     * price = its row's dual; FATPIPE: busy = the largest one edge's
     * amount*size*link_c, price = the sum of the duals of the per-edge rows
     * it stands for.  TP = sum of the port, processor and link prices. */
    size_t n_links;
    mpq_t *route_link_busy, *route_link_price;
    size_t lp_rows, lp_cols;
    ssched_lp_solution_t lp;           /* exact solution and solver figures */
    /* how it was solved */
    ssched_method_t method;            /* SSCHED_METHOD_LP or _COLGEN       */
    size_t cg_iterations;              /* column generation rounds          */
    size_t cg_columns;                 /* trees or paths generated          */
    size_t cg_exact_passes;            /* exact pricing passes              */
    double cg_pricing_seconds;         /* time spent pricing                */
    /* per phase: column generation's floating-point iterations (master
     * solves and float pricing; count = iterations), its exact master
     * solves (count = solves) and exact pricing passes (count = passes);
     * for the edge LP, its floating-point solve(s) and exact certification
     * (phase_master, count 1); phase_bound: the edge or relaxation LPs
     * solved for an upper bound (multicast, commutative reduce, all-reduce;
     * count = LPs solved) */
    ssched_phase_t phase_float, phase_master, phase_pricing, phase_bound;
    /* reduce by column generation: the master's trees and their rates
     * (tasks of ssched_tree_t; its weight field is unused here) */
    size_t n_rated_trees;
    ssched_tree_t *rated_trees;
    mpq_t *tree_rates;
    /* broadcast by column generation (lp/colgen_broadcast.c): the master's
     * arborescences with a nonzero rate.  Each is rooted at the source and
     * reaches every target (broadcast to every other node: spanning;
     * multicast: a Steiner arborescence whose leaves are targets); arcs are
     * PLATFORM EDGE indices (p->from[e] -> p->to[e]), sorted by head node;
     * weight = its rate, broadcasts per time unit.  The weights sum to
     * `throughput` and the copies per edge (flows) are their sum. */
    size_t n_arborescences;
    ssched_arborescence_t *arborescences;
    /* multicast by column generation: `throughput` is the achievable TP
     * (the exact master optimum, a certified feasible packing) and
     * upper_bound the certified edge-LP optimum; optimal = 1 when
     * throughput is proven optimal (the last pricing pass was exact, or
     * throughput == upper_bound) */
    mpq_t upper_bound;
    int cg_pricing_exact;              /* broadcast colgen: the last pricing
                                          pass was exact (else heuristic)   */
    int optimal;
    /* allreduce (lp/colgen_allreduce*.c): one steady state holding the
     * reduce to the root (rated_trees, tasks, flows of type = interval
     * index; commutative: as a commutative reduce, every partial result
     * type 0, no intervals, no tasks) and the broadcast of its result from
     * the root (arborescences, flows of type ssched_allreduce_copy_type():
     * copies); busy times and prices cover both.  `throughput` is the
     * certified feasible TP (the exact master optimum); upper_bound its
     * certified bound (= throughput when the last pricing pass proved that
     * no tree or arborescence improves it, else the smaller of Farley's
     * bound from the exact duals and the combined edge LP's optimum);
     * optimal = (upper_bound == throughput); cg_pricing_exact as for
     * multicast.  allreduce_root is the root the solution is for: the
     * problem's, or the best candidate's.  A best-root solve lists every
     * candidate root (every node that is not a switch), in the order
     * tried, with its achievable TP and certified upper bound;
     * root_pruned[k] = 1 when a bound (root_upper_bound[k]: the root's port
     * bound, or the ordered reduce alone to it) could not beat the TP found before
     * it, so it was not solved (root_throughput[k] = 0).  The reported TP
     * is the maximum over candidates, upper_bound the maximum of their
     * bounds. */
    /* scan by column generation (lp/colgen_scan.c; method auto or
     * colgen): `throughput` is the achievable TP, the exact master optimum
     * over the generated prefix structures (a certified feasible packing:
     * every structure passes ssched_scan_structure_check); upper_bound the
     * smallest certified bound computed: the ordered reduce of one
     * demand's prefix to its participant (scan_bound_demand = j >= 1:
     * v[0,j] to r_j, exclusive v[0,j-1]; column generation, docs/model.md
     * "Parallel prefix") or the optimum of the scan edge LP (lp/build_scan.c;
     * scan_bound_demand = 0) over scan_bound_lp_demands of the N - 1
     * demands (all of them: the whole edge LP; fewer: a relaxation, when the
     * whole LP is too big; lp/steady.c), solved when the reduce bounds leave
     * a gap; optimal = (throughput == upper_bound).  The structures with a nonzero rate;
     * their rates sum to `throughput`, and flows / tasks are their sums
     * (flow type = interval index). */
    size_t n_scan_structures;
    ssched_scan_structure_t *scan_structures;
    size_t scan_bound_demand, scan_bound_lp_demands;
    size_t allreduce_root;
    size_t n_root_candidates;
    size_t *root_candidates;
    mpq_t *root_throughput, *root_upper_bound;
    unsigned char *root_pruned;
} ssched_steady_t;

/* All-reduce: the flow type of the broadcast's copies, one past the
 * reduce's types (n_intervals, or 1 for a commutative operator, whose
 * partial results are all type 0). */
static inline size_t ssched_allreduce_copy_type(const ssched_steady_t *s)
{
    return s->n_intervals ? s->n_intervals : 1;
}

void ssched_steady_init(ssched_steady_t *s);
void ssched_steady_free(ssched_steady_t *s);

/* Progress of a long solve, for a caller that wants to show it. */
typedef struct {
    size_t iteration;      /* column generation round                       */
    size_t columns;        /* columns in the master                         */
    double lower, upper;   /* bounds on TP (floating-point estimates)       */
    double seconds;        /* since the start of the solve                  */
    int exact;             /* 1 during the exact certification              */
} ssched_progress_t;

typedef struct {
    ssched_lp_options_t lp;
    ssched_method_t method;
    /* called about every progress_interval seconds (never if NULL) */
    void (*progress)(void *ctx, const ssched_progress_t *info);
    void *progress_ctx;
    double progress_interval;
    /* inside a long step (one pricing per message type, ...): `done` of
     * `total` items of `stage` after `seconds`; same rate (NULL: none) */
    void (*step)(void *ctx, const char *stage, size_t done, size_t total, double seconds);
} ssched_steady_options_t;

void ssched_steady_options_default(ssched_steady_options_t *opt);

/* Build, solve exactly, certify and interpret, by the method in opt (NULL:
 * defaults).  Column generation certifies its result by an exact solve of
 * the final master and an exact pricing pass proving that no tree or path
 * has a positive reduced cost; the edge LP by its exact basis certificate. */
ssched_status_t ssched_steady_solve_opts(const ssched_platform_t *p, const ssched_problem_t *pb,
                                         const ssched_steady_options_t *opt,
                                         ssched_steady_t *out, ssched_error_t *err);

/* The same with default options and the given LP options (may be NULL). */
ssched_status_t ssched_steady_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                                    const ssched_lp_options_t *opt, ssched_steady_t *out,
                                    ssched_error_t *err);

/* Independent check of a scan prefix structure for problem pb (a scan):
 * indices in range, every task on a node with w and merging two adjacent
 * intervals (k <= l < m), no send or task repeated, and -- starting from
 * v[k,k] at r_k and closing under the sends and tasks -- every send's
 * value held at its edge's tail, every task's operands at its node, and
 * every participant's prefix delivered.  A task joins two adjacent
 * intervals in order, so every value formed is the ordered product of its
 * interval, each operand once.  SSCHED_OK with report->valid; EINPUT if pb
 * is not a scan of p. */
ssched_status_t ssched_scan_structure_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                                            const ssched_scan_structure_t *s,
                                            ssched_check_report_t *report, ssched_error_t *err);

/* Writer (JSON): ssched/export.h. */

/* ---- Reduction trees of a solution (trees/extract.c) -------------------- */

/* The LCM period of a solution: T = the lcm of the denominators of TP, of
 * every flow and task rate and of every flow's busy time rate * c(e) *
 * size, the least T >= 1 for which one period of T time units carries whole
 * operations, messages and tasks. */
void ssched_steady_period(const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_steady_t *s, mpz_t T);

/* Extract weighted trees from a certified reduce solution.  T is the LCM of
 * the denominators of TP, of every rate and of every link's busy time per
 * time unit.  EINPUT if steady is not a reduce solution or TP = 0. */
ssched_status_t ssched_trees_extract(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const ssched_steady_t *steady, ssched_trees_t *out,
                                     ssched_error_t *err);

/* The trees of a column-generation solution (steady->rated_trees with
 * rates tree_rates), scaled to an integer period: T is the LCM of the
 * denominators of TP, every tree rate, every link's busy time.  EINPUT if
 * the solution carries no rated trees. */
ssched_status_t ssched_trees_from_rates(const ssched_platform_t *p, const ssched_problem_t *pb,
                                        const ssched_steady_t *steady, ssched_trees_t *out,
                                        ssched_error_t *err);

/* Check sum_T weight(T) * chi_T == the solution scaled by T (an independent
 * recount, used by the tests).  SSCHED_OK with report->valid (error.h), the
 * violation naming the first mismatch; only ENOMEM is an error. */
ssched_status_t ssched_trees_check(const ssched_platform_t *p, const ssched_steady_t *steady,
                                   const ssched_trees_t *trees, ssched_check_report_t *report,
                                   ssched_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
