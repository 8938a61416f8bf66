/* Private interfaces of schedule/ (not installed). */
#ifndef SSCHED_SCHEDULE_INTERNAL_H
#define SSCHED_SCHEDULE_INTERNAL_H

#include "ssched/schedule.h"
#include "src/util/internal.h"

/* `count` messages of `type` over `edge` per period. */
typedef struct {
    size_t edge, type;
    mpq_t count;
} sched_load_t;

/* Slots for one period of length out->period from the per-period loads
 * (sorted by edge then type).  Busy times are scaled to integers by the LCM
 * D of their denominators and of the period's, decomposed into matchings
 * with bound period*D (matching.h), and mapped back.  Fills out->slots and
 * the matching figures. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_make_slots(const ssched_platform_t *p,
                                                          const sched_load_t *loads, size_t n_loads,
                                                          ssched_matching_rule_t rule,
                                                          ssched_schedule_t *out,
                                                          ssched_error_t *err);

/* Multiply period, slots, amounts, ops_per_period (and computations and
 * tree weights) by the LCM of the amounts' denominators (Fig. 4(b)). */
SSCHED_INTERNAL void ssched_i_sched_scale_no_split(ssched_schedule_t *s);

/* Resources one instance of tree t uses: use[0..n) out-ports, [n..2n)
 * in-ports, [2n..3n) processors, then one per edge (links at switches; a
 * routed edge's FATPIPE cap), then, routed, one per link resource:
 * ssched_i_sched_n_resources(p) values. */
SSCHED_INTERNAL size_t ssched_i_sched_n_resources(const ssched_platform_t *p);
/* Add what `count` messages of this size over edge e use to use[]. */
SSCHED_INTERNAL void ssched_i_sched_edge_usage(const ssched_platform_t *p, size_t e,
                                               mpq_srcptr size, mpq_t *use);
SSCHED_INTERNAL void ssched_i_sched_tree_usage(const ssched_platform_t *p, const ssched_tree_t *t,
                                               mpq_srcptr size, mpq_t *use);
/* Fixed period (RR-4872 section 4.6): how many more instances of a pattern
 * using use[i] of each resource fit in the capacities cap[i] left, into
 * extra (floor of the least cap/use over the resources it uses); 1 when
 * that is positive, 0 when nothing more fits or it uses no resource.  q and
 * r are scratch. */
SSCHED_INTERNAL int ssched_i_sched_extra_fit(size_t nr, mpq_t *cap, mpq_t *use,
                                             mpz_t extra, mpq_t q, mpz_t r);

/* Commutative reduce (commut_sets.c): the set of positions [k, m] of tree
 * t (t->order; the identity when NULL), interned in s; scratch holds
 * s->words words; SIZE_MAX on ENOMEM.  ssched_i_sched_tree_task_sets: task x's
 * result set, then (a merge) its inputs' sets [k,l] and [l+1,m]
 * (SIZE_MAX for a send). */
SSCHED_INTERNAL size_t ssched_i_sched_tree_set(ssched_sets_t *s, const ssched_tree_t *t, size_t k,
                                               size_t m, uint64_t *scratch);
SSCHED_INTERNAL ssched_status_t ssched_i_sched_tree_task_sets(
        ssched_sets_t *s, const ssched_tree_t *t, size_t x, size_t out[3], uint64_t *scratch,
        ssched_error_t *err);

/* The reduce front end of ssched_schedule_build(). */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_build_reduce(const ssched_platform_t *p,
                                                            const ssched_problem_t *pb,
                                                            const ssched_steady_t *st,
                                                            const ssched_schedule_options_t *opt,
                                                            ssched_schedule_t *out,
                                                            ssched_error_t *err);

/* The broadcast front end of ssched_schedule_build() (build_broadcast.c);
 * applies no_split itself. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_build_broadcast(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        const ssched_schedule_options_t *opt, ssched_schedule_t *out, ssched_error_t *err);

/* The all-reduce front end of ssched_schedule_build() (build_allreduce.c);
 * applies no_split itself. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_build_allreduce(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        const ssched_schedule_options_t *opt, ssched_schedule_t *out, ssched_error_t *err);

/* The scan front end of ssched_schedule_build() (build_scan.c); applies
 * no_split itself. */
SSCHED_INTERNAL ssched_status_t ssched_i_sched_build_scan(
        const ssched_platform_t *p, const ssched_problem_t *pb, const ssched_steady_t *st,
        const ssched_schedule_options_t *opt, ssched_schedule_t *out, ssched_error_t *err);

#endif
