/* Private interfaces of the lp/ folder (not installed). */
#ifndef SSCHED_LP_INTERNAL_H
#define SSCHED_LP_INTERNAL_H

#include <gmp.h>
#include <stddef.h>

#include "ssched/lp.h"
#include "ssched/steady.h"
#include "src/util/internal.h"

/* A sparse vector: nnz entries (idx ascending, vals nonzero). */
typedef struct {
    size_t nnz, cap;
    size_t *idx;
    mpq_t *vals;
} spvec_t;

SSCHED_INTERNAL void ssched_i_spvec_init(spvec_t *v);
SSCHED_INTERNAL void ssched_i_spvec_free(spvec_t *v);
/* Append (i, q); i must exceed every index already present. */
SSCHED_INTERNAL int ssched_i_spvec_push(spvec_t *v, size_t i, const mpq_t q);

/* An exact sparse LU factorization of a square matrix K given as n sparse
 * rows (indices in [0, n)): Gaussian elimination with Markowitz-style
 * pivoting (sparsest row, lowest id among equals, then least-used column;
 * the sparsest row from a priority queue), recording its row operations
 * (row r -= f row p, in order) so that the one factorization M K = U'
 * solves K z = b and K^T y = c.  rows becomes U' (owned by the factor). */
typedef struct {
    size_t n;
    spvec_t *rows;            /* U': row piv_row[s] is final from step s on */
    size_t *piv_row, *piv_col, *diag; /* per step; diag: position in its row */
    size_t n_ops, cap_ops;
    size_t *op;               /* 2 per op: p, r                           */
    mpq_t *op_f;              /* f per op                                 */
} sp_lu_t;

/* 1 (factored), 0 (K singular), -1 (out of memory); free with
 * ssched_i_lu_free in every case (it frees rows too). */
SSCHED_INTERNAL int ssched_i_lu_factor(sp_lu_t *lu, size_t n, spvec_t *rows);
SSCHED_INTERNAL void ssched_i_lu_free(sp_lu_t *lu);
/* rhs := K^-1 rhs (ssched_i_lu_solve), K^-T rhs (_solve_t).  1, or -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_lu_solve(const sp_lu_t *lu, mpq_t *rhs);
SSCHED_INTERNAL int ssched_i_lu_solve_t(const sp_lu_t *lu, mpq_t *rhs);

/* Solve the square system M z = rhs exactly, M given as n sparse rows whose
 * indices are in [0, n) (factor and solve once).  Rows are consumed
 * (modified, still the caller's to free).  rhs is overwritten with z.
 * Returns 1 on success, 0 if M is singular, -1 on allocation failure. */
SSCHED_INTERNAL int ssched_i_sparse_solve(size_t n, spvec_t *rows, mpq_t *rhs);

/* Standard form used by the exact code: row i is  a_i.x + s_i = b_i, where
 * the slack s_i is >= 0 (<= row), <= 0 (>= row) or == 0 (= row).  Variables
 * are numbered 0..n_cols-1 (structural, >= 0) then n_cols..n_cols+n_rows-1
 * (slacks).  Every nonbasic variable sits at 0, its only finite bound. */

/* Column-major copy of the constraint matrix. */
typedef struct {
    size_t n_cols, n_rows;
    size_t *start;   /* n_cols + 1 */
    size_t *row;     /* nnz        */
    mpq_t *val;      /* nnz        */
} csc_t;

SSCHED_INTERNAL int ssched_i_csc_build(csc_t *a, const ssched_lp_t *lp);
SSCHED_INTERNAL void ssched_i_csc_free(csc_t *a);

/* Basic solution of `basis` (flags over n_cols + n_rows variables, exactly
 * n_rows of them set): x (n_cols + n_rows values, slacks included) and duals
 * y (n_rows).  Returns 1, 0 if the basis matrix is singular, -1 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_basis_solve(const ssched_lp_t *lp, const csc_t *a,
                                         const unsigned char *basis, mpq_t *x, mpq_t *y);

/* Solve B d = column `var` of [A | I] for the basis (d indexed by the
 * position of each basic variable in basic_list).  Same return codes. */
SSCHED_INTERNAL int ssched_i_basis_direction(const ssched_lp_t *lp, const csc_t *a,
                                             const size_t *basic_list, size_t var, mpq_t *d);

/* Exact primal simplex (Bland's rule) from a primal-feasible basis; updates
 * basis in place.  Returns 1 when optimal, 0 if the start is not primal
 * feasible or the LP is unbounded, -1 on error; *pivots counts pivots. */
SSCHED_INTERNAL int ssched_i_exact_primal_simplex(const ssched_lp_t *lp, const csc_t *a,
                                                  unsigned char *basis, size_t max_pivots,
                                                  size_t *pivots);

/* Floating-point solve with lp_solve; fills basis (n_cols + n_rows flags).
 * attempt selects a configuration (0 = default, 1.. = alternatives used
 * when a basis fails to certify).  Returns 1 optimal, 0 infeasible,
 * 2 unbounded, -1 failure. */
SSCHED_INTERNAL int ssched_i_float_solve(const ssched_lp_t *lp, int attempt, int verbose,
                                         unsigned char *basis);

/* Shared helpers (util.c; the clocks and the rational arrays are
 * src/util/internal.h's). */
/* The per-resource vectors of a solution: busy time and price of every
 * node's out-port, in-port and processor (n) and every edge's link (ne),
 * all 0, with out->n_nodes and n_edges set.  1 on success, 0 if any
 * allocation failed (ssched_steady_free releases what was made). */
struct ssched_steady_s;
SSCHED_INTERNAL int ssched_i_steady_resources(struct ssched_steady_s *out, size_t n, size_t ne);
/* lp_solve's log: silent, or (verbose) its normal log on stderr, never on
 * stdout where the CLI writes its results. */
struct _lprec;
SSCHED_INTERNAL void ssched_i_lp_log(struct _lprec *lp, int verbose);
/* qsort order of steady-state flows: by edge, then type. */
SSCHED_INTERNAL int ssched_i_lp_flow_by_edge_then_type(const void *a, const void *b);

/* The model builders of the reduce LPs, called by ssched_model_build
 * (lp/build_flow.c): ordered reduce (lp/build_reduce.c) and the
 * commutative relaxation (lp/build_commutative.c, declared in colgen_comm.h). */
SSCHED_INTERNAL ssched_status_t ssched_i_model_build_reduce(const ssched_platform_t *p,
                                                            const ssched_problem_t *pb,
                                                            ssched_model_t *m, ssched_error_t *err);
/* lp/build_scan.c: the parallel-prefix upper-bound LP (its header
 * comment states it; docs/model.md "Parallel prefix" proves it valid). */
SSCHED_INTERNAL ssched_status_t ssched_i_model_build_scan(const ssched_platform_t *p,
                                                          const ssched_problem_t *pb,
                                                          ssched_model_t *m, ssched_error_t *err);
/* The same LP over the demands j (1 <= j < N) with demand[j] != 0 only: a
 * relaxation, so its optimum bounds the scan TP as well (lp/steady.c uses it
 * when the whole LP is too big).  m is freed and rebuilt. */
SSCHED_INTERNAL ssched_status_t ssched_i_model_build_scan_subset(const ssched_platform_t *p,
                                                                 const ssched_problem_t *pb,
                                                                 const unsigned char *demand,
                                                                 ssched_model_t *m,
                                                                 ssched_error_t *err);
/* lp/build_interval.c: the columns of the interval-typed LPs (ordered
 * reduce, scan).  A send x(e,I), recorded in m->send_* (capacity *cap,
 * grown here) and charged size*c(e) on e's port / link rows; a task
 * t(i,T_{k,l,mm}), recorded in m->cons and charged w(i) on node i's compute
 * row (created on first use).  *col receives the column. */
SSCHED_INTERNAL ssched_status_t ssched_i_model_new_interval_send(const ssched_platform_t *p,
                                                                 const ssched_problem_t *pb,
                                                                 ssched_model_t *m, size_t *cap,
                                                                 size_t e, size_t I, size_t *col,
                                                                 ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_model_new_task(const ssched_platform_t *p,
                                                        ssched_model_t *m, size_t *cap, size_t i,
                                                        size_t k, size_t l, size_t mm, size_t *col,
                                                        ssched_error_t *err);
/* lp/build_interval.c: coefficient v of col in row (nothing when row is
 * SSCHED_NO_ROW), and a row "sense rhs" with an integer rhs. */
SSCHED_INTERNAL ssched_status_t ssched_i_model_int_coef(ssched_model_t *m, size_t row, size_t col,
                                                        long v, ssched_error_t *err);
SSCHED_INTERNAL ssched_status_t ssched_i_model_int_row(ssched_model_t *m, const char *name,
                                                       ssched_row_sense_t sense, long rhs,
                                                       size_t *row, ssched_error_t *err);
/* lp/build_flow.c: a transfer's coefficients on the port rows at one-port
 * ends and the link rows at switch links. */
SSCHED_INTERNAL ssched_status_t ssched_i_model_add_transfer_coefs(const ssched_platform_t *p,
                                                                  ssched_model_t *m, size_t e,
                                                                  size_t col, const mpq_t coef,
                                                                  ssched_error_t *err);

/* ---- Capacity resources beside the ports (lp/resources.c) ----
 * Graph model: resource k = edge k (a link row when an end is a switch).
 * Routed model: k < n_links a SHARED link's row, n_links + e edge e's
 * FATPIPE row.  A transfer of one unit message over e keeps resource k
 * busy ssched_i_res_time(p, k) (times the problem's size); it keeps a
 * port of a node with ports busy c(e). */
SSCHED_INTERNAL size_t ssched_i_res_count(const ssched_platform_t *p);
/* Does node i have out- and in-port rows? */
SSCHED_INTERNAL int ssched_i_has_ports(const ssched_platform_t *p, size_t i);
SSCHED_INTERNAL mpq_srcptr ssched_i_res_time(const ssched_platform_t *p, size_t k);
/* The routed link a resource reports to (graph: the edge); SIZE_MAX for
 * a FATPIPE resource whose row does not exist. */
SSCHED_INTERNAL size_t ssched_i_res_link(const ssched_platform_t *p, size_t k);
typedef struct {
    const ssched_platform_t *p;
    size_t e, pos;
    int done;
} ssched_i_res_iter_t;
/* The resources of edge e, each once: begin, then next until it returns 0. */
SSCHED_INTERNAL void ssched_i_res_begin(ssched_i_res_iter_t *it, const ssched_platform_t *p,
                                        size_t e);
SSCHED_INTERNAL int ssched_i_res_next(ssched_i_res_iter_t *it, size_t *k);
/* Flags over the resources: charged by some edge (calloc'ed; NULL: ENOMEM). */
SSCHED_INTERNAL unsigned char *ssched_i_res_used_flags(const ssched_platform_t *p);
/* A row name for resource k ("link_e3", "link_r3", "fatpipe_e3"). */
SSCHED_INTERNAL void ssched_i_res_name(const ssched_platform_t *p, size_t k, char *buf,
                                       size_t len);
/* Dual cost of one unit message over e: size * (c(e) * (out[from] + in[to],
 * ends with ports) + sum over e's resources of time(k) * link[k]). */
SSCHED_INTERNAL void ssched_i_edge_price_q(const ssched_platform_t *p, size_t e, mpq_srcptr size,
                                           const mpq_t *out, const mpq_t *in, const mpq_t *link,
                                           mpq_ptr price);
SSCHED_INTERNAL double ssched_i_edge_price_d(const ssched_platform_t *p, size_t e,
                                             mpq_srcptr size, const double *out,
                                             const double *in, const double *link);
/* Does the solution keep edge e's load in link_busy[e] (routed: every
 * edge, amount * size * c(e); graph: edges with a switch end)? */
SSCHED_INTERNAL int ssched_i_edge_tracks_load(const ssched_platform_t *p, size_t e);
/* Record resource k's dual y: graph link_price[k]; routed: added to its
 * link's route_link_price (allocated on first use).  0 on ENOMEM. */
SSCHED_INTERNAL int ssched_i_res_set_price(const ssched_platform_t *p, struct ssched_steady_s *out,
                                           size_t k, mpq_srcptr y);
/* Routed platforms: n_links and the link resources' busy fractions from
 * the edges' loads (after a solve). */
SSCHED_INTERNAL ssched_status_t ssched_i_steady_routed_finish(const ssched_platform_t *p,
                                                              struct ssched_steady_s *out,
                                                              ssched_error_t *err);

#endif
