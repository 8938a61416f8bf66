/* ssched/trees.h — reduction trees (RR-4872 §4.3–4.4).
 *
 * A steady-state reduce solution, scaled to an integer period T, is a
 * weighted sum of reduction trees (Lemma 2).  ssched_trees_extract() runs
 * EXTRACT_TREES / FIND_TREE of RR-4872 Fig. 8 on it: starting from v[0,N-1]
 * on the target, each input is explained by a computation on the same node
 * or by a transfer from a neighbour, down to the participants' own values;
 * the tree gets the smallest count among its tasks, which is subtracted.
 * The weighted sum of the trees equals the solution exactly: the function
 * checks that the remainder is zero and fails with SSCHED_EINTERNAL if not.
 *
 * Before extraction, transfer cycles of each interval are cancelled (they
 * carry nothing to the target, and FIND_TREE could follow them forever). */
#ifndef SSCHED_TREES_H
#define SSCHED_TREES_H

#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"
#include "ssched/platform.h"
#include "ssched/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ssched_steady_s;

typedef enum { SSCHED_TREE_SEND, SSCHED_TREE_COMPUTE } ssched_tree_task_kind_t;

/* One task of a tree: send v[k,m] over `edge`, or compute T_{k,l,m} on
 * `node`.  `parent` is the index of the task that consumes the result
 * (SIZE_MAX for the root, whose result is v[0,N-1] on the target). */
typedef struct {
    ssched_tree_task_kind_t kind;
    size_t edge;          /* send    */
    size_t node;          /* compute */
    size_t k, l, m;       /* interval [k,m]; l is the split of a computation */
    size_t parent;
    size_t depth;         /* distance from the root                        */
} ssched_tree_task_t;

typedef struct {
    mpz_t weight;         /* instances of this tree per period            */
    size_t n_tasks;
    ssched_tree_task_t *tasks;   /* pre-order from the root                */
} ssched_tree_t;

typedef struct {
    mpz_t period;         /* T: every count and busy time is an integer   */
    mpz_t ops_per_period; /* sum of the weights = TP * T                  */
    size_t n_trees;
    ssched_tree_t *trees;
} ssched_trees_t;

void ssched_trees_init(ssched_trees_t *t);
void ssched_trees_free(ssched_trees_t *t);

/* Extract weighted trees from a certified reduce solution.  T is the LCM of
 * the denominators of TP, of every rate and of every link's busy time per
 * time unit.  EINPUT if steady is not a reduce solution or TP = 0. */
ssched_status_t ssched_trees_extract(const ssched_platform_t *p, const ssched_problem_t *pb,
                                     const struct ssched_steady_s *steady, ssched_trees_t *out,
                                     ssched_error_t *err);

/* The trees of a column-generation solution (steady->rated_trees with
 * rates tree_rates), scaled to an integer period: T is the LCM of the
 * denominators of TP, every tree rate, every link's busy time.  EINPUT if
 * the solution carries no rated trees. */
ssched_status_t ssched_trees_from_rates(const ssched_platform_t *p, const ssched_problem_t *pb,
                                        const struct ssched_steady_s *steady, ssched_trees_t *out,
                                        ssched_error_t *err);

/* Check sum_T weight(T) * chi_T == the solution scaled by T (an independent
 * recount, used by the tests); EINTERNAL naming the first mismatch. */
ssched_status_t ssched_trees_verify(const ssched_platform_t *p, const struct ssched_steady_s *steady,
                                    const ssched_trees_t *trees, ssched_error_t *err);

/* Print one tree as indented text (root first) or as a Graphviz digraph. */
void ssched_tree_write_text(const ssched_platform_t *p, const ssched_problem_t *pb,
                            const ssched_tree_t *tree, FILE *out);
void ssched_tree_write_dot(const ssched_platform_t *p, const ssched_problem_t *pb,
                           const ssched_tree_t *tree, const char *name, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
