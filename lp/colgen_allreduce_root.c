/* All-reduce: the certified upper bound of one root, and the best root
 * over every candidate (lp/colgen_allreduce.h).
 *
 * One root: the column generation's TP is optimal when its last pricing
 * pass proved both column sets complete under the exact duals (ordered
 * trees always; arborescences when spanning or with few relays;
 * commutative trees by their certified lower bound).  Otherwise Farley's
 * bound from those duals (ssched_i_car_farley_bound) may already equal TP; if not,
 * the combined edge LP (lp/build_allreduce.c), solved and certified, is
 * computed too and the smaller bound reported.  In a best-root solve the
 * edge LP is skipped when Farley's bound does not exceed the best TP
 * found so far: that candidate cannot raise the maximum's bound.
 *
 * Best root: every node that is not a switch may be the root (it need not
 * be a participant; on a routed platform every host).  The maximum over candidates is certified because
 * every candidate is either solved (its TP certified feasible, and its
 * bound certified) or pruned by a bound that cannot beat a TP already
 * found: a one-port root (not a multi-port routed host) sends at least one
 * copy per operation (TP <=
 * 1 / (size * its cheapest out-edge)), and a root that is not a
 * participant receives at least one message per operation (the result or
 * inputs to it: TP <= 1 / (size * its cheapest in-edge)), and, once those
 * cannot prune, for an ordered operator, by pricing that root's trees and
 * arborescences under the best root's exact duals (ssched_i_car_price_bound:
 * weak duality, one exact pricing instead of a solve), then by the
 * ordered reduce alone to that root (its certified optimum: the broadcast
 * only takes resources away).  Candidates are tried by decreasing cheap bound.
 * On the shipped Tiers platforms Farley's bound proves every candidate's
 * TP optimal, so no edge LP is solved (tiers-99, 6 participants, 99
 * candidates: 1.2 s; with the edge LPs it took 100 s). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_allreduce.h"
#include "lp/internal.h"
#include "src/util/internal.h"

/* One root: TP by column generation, then the bound and `optimal`. */
static ssched_status_t solve_one(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_steady_options_t *opt, mpq_srcptr enough,
                                 ssched_steady_t *out, ssched_error_t *err)
{
    int bounded = 0;
    ssched_status_t st = ssched_i_car_solve_root(p, pb, opt, out, &bounded, err);
    if (st != SSCHED_OK)
        return st;
    if (out->cg_pricing_exact) {
        mpq_set(out->upper_bound, out->throughput);
        out->optimal = 1;
        return SSCHED_OK;
    }
    /* Farley's bound proves the optimum often enough to spare the edge LP */
    if (bounded && mpq_cmp(out->upper_bound, out->throughput) < 0)
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "allreduce: Farley's bound below the achievable TP");
    if (bounded && mpq_equal(out->upper_bound, out->throughput)) {
        out->optimal = 1;
        return SSCHED_OK;
    }
    /* a best-root solve needs no bound below the best TP already found */
    if (bounded && enough && mpq_cmp(out->upper_bound, enough) <= 0)
        return SSCHED_OK;
    ssched_lp_t lp;
    st = ssched_i_car_build_edge_lp(p, pb, &lp, NULL, err);
    ssched_lp_solution_t sol;
    ssched_lp_solution_init(&sol);
    if (st == SSCHED_OK) {
        cg_clock_t c0 = cg_clock();
        st = ssched_lp_solve(&lp, &opt->lp, &sol, err);
        cg_phase_add(&out->phase_bound, c0);
        out->phase_bound.count++;
    }
    if (st == SSCHED_OK) {
        if (!bounded || mpq_cmp(sol.objective, out->upper_bound) < 0)
            mpq_set(out->upper_bound, sol.objective); /* the smaller bound */
        out->lp.float_seconds += sol.float_seconds;
        out->lp.exact_seconds += sol.exact_seconds;
        if (mpq_cmp(out->throughput, sol.objective) > 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "allreduce: achievable TP above the edge LP's upper bound");
        out->optimal = mpq_equal(out->throughput, out->upper_bound);
    }
    ssched_lp_solution_free(&sol);
    ssched_lp_free(&lp);
    return st;
}

/* The ordered reduce alone to root r: a certified bound on the all-reduce
 * TP (its column generation is exact). */
static ssched_status_t reduce_bound(const ssched_platform_t *p, const ssched_problem_t *pb,
                                    size_t r, const ssched_steady_options_t *opt, mpq_ptr bound,
                                    ssched_error_t *err)
{
    ssched_problem_t red = *pb; /* shallow: read only */
    red.kind = SSCHED_PROBLEM_REDUCE;
    red.target = r;
    ssched_steady_t s;
    ssched_steady_init(&s);
    ssched_status_t st = ssched_steady_solve_opts(p, &red, opt, &s, err);
    if (st == SSCHED_OK)
        mpq_set(bound, s.throughput);
    ssched_steady_free(&s);
    return st;
}

typedef struct {
    size_t node;
    int bounded;    /* bound is finite */
    mpq_t bound;
    int participant;
} cand_t;

/* The cheap bound of root r (header comment). */
static void cheap_bound(const ssched_platform_t *p, const ssched_problem_t *pb, cand_t *c)
{
    size_t r = c->node;
    c->participant = 0;
    for (size_t k = 0; k < pb->n_participants; k++)
        c->participant |= pb->participants[k] == r;
    mpq_t t, best_out, best_in;
    mpq_inits(t, best_out, best_in, NULL);
    int have_out = 0, have_in = 0;
    for (size_t e = 0; e < p->n_edges; e++) {
        if (p->from[e] == r && (!have_out || mpq_cmp(p->c[e], best_out) < 0)) {
            mpq_set(best_out, p->c[e]);
            have_out = 1;
        }
        if (p->to[e] == r && (!have_in || mpq_cmp(p->c[e], best_in) < 0)) {
            mpq_set(best_in, p->c[e]);
            have_in = 1;
        }
    }
    c->bounded = 0;
    /* no out-edge (no in-edge for a non-participant): nothing reaches the
     * others (the root), TP = 0 */
    if (!have_out || (!c->participant && !have_in)) {
        c->bounded = 1;
        mpq_set_ui(c->bound, 0, 1);
    }
    mpq_t *lim[2] = {&best_out, &best_in};
    /* a host without ports (routed, multi-port) sends over several links
     * at once: only the TP = 0 bound holds */
    for (int k = 0; k < 2 && !c->bounded && ssched_i_has_ports(p, r); k++) {
        if (k == 0 ? !have_out : (c->participant || !have_in))
            continue;
        mpq_mul(t, *lim[k], pb->size);
        if (mpq_sgn(t) == 0)
            continue;
        mpq_inv(t, t);
        if (!c->bounded || mpq_cmp(t, c->bound) < 0)
            mpq_set(c->bound, t);
        c->bounded = 1;
    }
    mpq_clears(t, best_out, best_in, NULL);
}

/* Unbounded first, then decreasing bound, participants first, node order. */
static int cand_cmp(const void *a, const void *b)
{
    const cand_t *x = a, *y = b;
    if (x->bounded != y->bounded)
        return x->bounded - y->bounded;
    int c = x->bounded ? mpq_cmp(y->bound, x->bound) : 0;
    if (c)
        return c;
    if (x->participant != y->participant)
        return y->participant - x->participant;
    return x->node < y->node ? -1 : x->node > y->node;
}

static ssched_status_t best_root(const ssched_platform_t *p, const ssched_problem_t *pb,
                                 const ssched_steady_options_t *opt, ssched_steady_t *out,
                                 ssched_error_t *err)
{
    size_t n = p->n_nodes, nc = 0;
    cand_t *cand = ssched_i_alloc(n, sizeof *cand);
    size_t *roots = ssched_i_alloc(n, sizeof *roots);
    mpq_t *tp = ssched_i_mpq_vec_new(n), *ub = ssched_i_mpq_vec_new(n);
    unsigned char *pruned = ssched_i_calloc(n, 1);
    if (!cand || !roots || !tp || !ub || !pruned) {
        free(cand);
        free(roots);
        free(pruned);
        for (size_t k = 0; k < n; k++) {
            if (tp)
                mpq_clear(tp[k]);
            if (ub)
                mpq_clear(ub[k]);
        }
        free(tp);
        free(ub);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        if (p->routes || !cg_is_switch(p, i)) { /* routed: every node is a host */
            cand[nc].node = i;
            mpq_init(cand[nc].bound);
            cheap_bound(p, pb, &cand[nc++]);
        }
    qsort(cand, nc, sizeof *cand, cand_cmp);
    ssched_problem_t one = *pb; /* shallow: read only */
    ssched_status_t st = SSCHED_OK;
    int have = 0;
    mpq_t bound, bound_q;
    mpq_inits(bound, bound_q, NULL);
    for (size_t k = 0; k < nc && st == SSCHED_OK; k++) {
        roots[k] = cand[k].node;
        int prune = have && cand[k].bounded && mpq_cmp(cand[k].bound, out->throughput) <= 0;
        /* ordered: the reduce's column generation is exact, so its TP is a
         * certified bound; a commutative reduce's bound may need its
         * relaxation LP, a solve of its own: not worth it for pruning */
        if (have && !prune && !pb->commutative && out->lp.y) {
            /* the best root's exact duals price this root's trees and
             * arborescences: a bound at the cost of one exact pricing */
            int priced = 0;
            one.target = cand[k].node;
            st = ssched_i_car_price_bound(p, &one, (const mpq_t *)out->lp.y, out->lp.n_rows,
                                          &priced, bound_q, err);
            if (st == SSCHED_OK && priced && mpq_cmp(bound_q, out->throughput) <= 0) {
                mpq_set(cand[k].bound, bound_q);
                cand[k].bounded = prune = 1;
            }
        }
        if (st == SSCHED_OK && have && !prune && !pb->commutative) {
            st = reduce_bound(p, pb, cand[k].node, opt, cand[k].bound, err);
            cand[k].bounded = 1;
            prune = st == SSCHED_OK && mpq_cmp(cand[k].bound, out->throughput) <= 0;
        }
        if (st != SSCHED_OK) {
            break;
        } else if (prune) {
            pruned[k] = 1;
            mpq_set(ub[k], cand[k].bound);
        } else {
            ssched_steady_t s;
            ssched_steady_init(&s);
            one.target = cand[k].node;
            st = solve_one(p, &one, opt, have ? out->throughput : NULL, &s, err);
            if (st == SSCHED_OK) {
                mpq_set(tp[k], s.throughput);
                mpq_set(ub[k], s.upper_bound);
                /* keep the best; ties keep the earlier candidate */
                if (!have || mpq_cmp(s.throughput, out->throughput) > 0) {
                    ssched_steady_free(out);
                    *out = s; /* moved */
                    ssched_steady_init(&s);
                    have = 1;
                }
            }
            ssched_steady_free(&s);
        }
        if (st == SSCHED_OK && (k == 0 || mpq_cmp(ub[k], bound) > 0))
            mpq_set(bound, ub[k]);
    }
    for (size_t k = 0; k < nc; k++)
        mpq_clear(cand[k].bound);
    free(cand);
    if (st == SSCHED_OK) {
        /* the maximum over candidates: every one is below its bound */
        if (mpq_cmp(bound, out->throughput) < 0)
            mpq_set(bound, out->throughput);
        mpq_set(out->upper_bound, bound);
        out->optimal = mpq_equal(bound, out->throughput);
        out->n_root_candidates = nc;
        out->root_candidates = roots;
        out->root_throughput = tp;
        out->root_upper_bound = ub;
        out->root_pruned = pruned;
        for (size_t k = nc; k < n; k++) /* only nc were candidates */
            mpq_clears(tp[k], ub[k], NULL);
    } else {
        free(roots);
        free(pruned);
        for (size_t k = 0; k < n; k++)
            mpq_clears(tp[k], ub[k], NULL);
        free(tp);
        free(ub);
    }
    mpq_clears(bound, bound_q, NULL);
    return st;
}

ssched_status_t ssched_i_car_solve(const ssched_platform_t *p, const ssched_problem_t *pb,
                          const ssched_steady_options_t *opt, ssched_steady_t *out,
                          ssched_error_t *err)
{
    /* the edge LP only bounds an all-reduce (its broadcast part is a
     * multicast's copies LP), so it is not a method here */
    if (opt->method == SSCHED_METHOD_LP)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "allreduce: options.method lp is not available (the edge LP only "
                                "bounds the TP: export the LP of a given root, problem.target)");
    if (pb->target != SIZE_MAX)
        return solve_one(p, pb, opt, NULL, out, err);
    return best_root(p, pb, opt, out, err);
}
