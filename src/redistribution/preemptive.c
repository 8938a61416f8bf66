/* The optimal preemptive schedule, from ssched's weighted bipartite edge
 * colouring (matching/).
 *
 * Redistribution with one-port senders and receivers is an open shop whose
 * machines are the senders and whose jobs are the receivers; with preemption
 * its optimum equals the lower bound (largest row or column sum), and the
 * constructive proof is exactly the weighted König decomposition (Gonzalez &
 * Sahni, J. ACM 23(4), 1976, cited by seed 003 §4.3): cover the message
 * graph, weighted by the costs C(i,j), with matchings whose durations add up
 * to the maximum weighted degree = the lower bound.
 *
 * Exactness: the costs are rationals; they are scaled by L, the LCM of their
 * denominators, to integer weights for the decomposition, and the step
 * lengths are divided by L again.
 *
 * Start-ups, counted honestly: a message split into k pieces is k real
 * transfers and pays k start-ups.  A piece that occupies share λ/L of the
 * message's cost C carries the same fraction of its elements,
 * amount = m·λ/(L·C), and lasts startup + amount/B, which is longer than its
 * share when the message is split and startup > 0.  The pieces are placed
 * in step order as soon as both ends are free (ssched_i_rd_place_pieces), so extra
 * start-ups delay only what they must, and each piece ends no later than the
 * sum of the step lengths up to its step (plus one start-up per step): with
 * zero start-up the completion is exactly the lower bound.
 *
 * Fewer transfers: a message whose pieces fall in consecutive steps is sent
 * as one transfer (one start-up).  Which perfect matching each round takes
 * decides how often that happens.  The bottleneck rule (fewest steps) picks
 * a very different matching every round, because it avoids the edges it has
 * just reduced; the classical rule, warm-started from the previous round's
 * matching (matching/bipartite_matching.c), keeps every edge that is not
 * exhausted and only repairs the matching along short augmenting paths, so a
 * message usually stays in consecutive steps.  Measured for P = 64, K = 63,
 * bandwidths 10-200, seed 1: bottleneck 3237 steps but 170378 transfers
 * after coalescing, 1.5 s; warm-started 3959 steps and 10531 transfers (2.7
 * per message), 0.09 s.  The number of steps does not matter here (steps are
 * not synchronised), the number of start-ups does: the warm-started rule is
 * used. */
#include <stdint.h>
#include <stdlib.h>

#include "src/redistribution/internal.h"
#include "src/util/internal.h"
#include "ssched/matching.h"
#include "ssched/rational.h"

/* Placement without start-up (issue 26): a piece of λ units lasts
 * amount/B = (m·λ/W_e)/B = λ/L exactly (W_e = L·m/B), so every time is an
 * integer number of units 1/L and the placement of ssched_i_rd_place_pieces
 * (start = the later of the two free times, end = start + duration) runs on
 * integers: one canonicalisation per transfer (its end; its start is the
 * end of the transfer that freed that processor, or 0) instead of the
 * three of mpq_div and two mpq_add.  Same rule, same ties (the sender's
 * time when equal), same values; no piece continues a transfer here, the
 * coalescing above having merged all of them. */
static ssched_status_t place_units(const ssched_redist_t *r, const size_t *t_msg,
                                   const mpz_t *t_lam, const mpq_t *amount, size_t n,
                                   const mpz_t L, ssched_redist_schedule_t *s, ssched_error_t *err)
{
    size_t P = r->P;
    mpz_t *free_at = ssched_i_alloc(2 * P, sizeof *free_at); /* senders, then receivers */
    size_t *freed_by = ssched_i_alloc(2 * P, sizeof *freed_by);
    if (!free_at || !freed_by) {
        free(free_at);
        free(freed_by);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory placing transfers");
    }
    for (size_t p = 0; p < 2 * P; p++) {
        mpz_init(free_at[p]);
        freed_by[p] = SIZE_MAX;
    }
    mpq_t start, end;
    mpq_init(start);
    mpq_init(end);
    ssched_status_t st = SSCHED_OK;
    for (size_t t = 0; t < n; t++) {
        size_t a = r->messages[t_msg[t]].src, b = P + r->messages[t_msg[t]].dst;
        size_t from = mpz_cmp(free_at[a], free_at[b]) >= 0 ? a : b;
        mpz_add(mpq_numref(end), free_at[from], t_lam[t]);
        mpz_set(free_at[a], mpq_numref(end));
        mpz_set(free_at[b], mpq_numref(end));
        mpz_set(mpq_denref(end), L);
        mpq_canonicalize(end);
        if (freed_by[from] == SIZE_MAX)
            mpq_set_ui(start, 0, 1);
        else /* copied before the append may move the records */
            mpq_set(start, s->transfers[freed_by[from]].end);
        if (ssched_i_rd_add_transfer(s, t_msg[t], start, end, amount[t])) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory placing transfers");
            break;
        }
        freed_by[a] = freed_by[b] = s->n_transfers - 1;
    }
    for (size_t p = 0; p < 2 * P; p++)
        mpz_clear(free_at[p]);
    free(free_at);
    free(freed_by);
    mpq_clear(start);
    mpq_clear(end);
    return st;
}

ssched_status_t ssched_i_rd_preemptive(const ssched_redist_t *r, ssched_redist_schedule_t *s,
                              ssched_error_t *err)
{
    size_t M = r->n_messages, P = r->P, n_tr = 0;
    ssched_bipartite_t g;
    ssched_matching_result_t res;
    size_t *t_msg = NULL, *last = NULL;
    mpz_t *t_lam = NULL;
    mpq_t *amount = NULL;
    mpz_t L, w, D;
    ssched_status_t st = SSCHED_OK;
    ssched_bipartite_init(&g, P, P);
    ssched_matching_result_init(&res);
    mpz_init_set_ui(L, 1);
    mpz_init(w);
    mpz_init(D);
    for (size_t e = 0; e < M; e++)
        ssched_rational_lcm_den(L, r->messages[e].cost);
    /* weights W_e = C_e · L, exact integers */
    mpz_t *W = ssched_i_alloc(M, sizeof *W);
    if (!W) {
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the preemptive schedule");
        goto done;
    }
    for (size_t e = 0; e < M; e++) {
        mpz_init(W[e]);
        mpz_divexact(W[e], L, mpq_denref(r->messages[e].cost));
        mpz_mul(W[e], W[e], mpq_numref(r->messages[e].cost));
        if (st == SSCHED_OK)
            st = ssched_bipartite_add_edge(&g, r->messages[e].src, r->messages[e].dst, W[e], NULL,
                                           err);
    }
    if (st == SSCHED_OK)
        st = ssched_bipartite_max_degree(&g, D, err);
    if (st == SSCHED_OK)
        st = ssched_matching_decompose(&g, D, SSCHED_MATCHING_ARBITRARY, &res, err);
    size_t pieces = 0;
    for (size_t k = 0; k < res.n_matchings; k++)
        pieces += res.matchings[k].n_edges;
    if (st == SSCHED_OK) {
        t_msg = ssched_i_alloc(pieces, sizeof *t_msg);
        t_lam = ssched_i_alloc(pieces, sizeof *t_lam);
        last = malloc(2 * P * sizeof *last);
        if (!t_msg || !t_lam || !last)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the preemptive steps");
    }
    /* Coalesce, in step order, the pieces that continue the last transfer of
     * both their sender and their receiver; lengths add up exactly (mpz). */
    if (st == SSCHED_OK) {
        size_t *last_send = last, *last_recv = last + P;
        for (size_t p = 0; p < 2 * P; p++)
            last[p] = (size_t)-1;
        for (size_t k = 0; k < res.n_matchings; k++) {
            const ssched_matching_t *mk = &res.matchings[k];
            for (size_t j = 0; j < mk->n_edges; j++) {
                size_t e = mk->edges[j], a = r->messages[e].src, b = r->messages[e].dst;
                size_t t = last_send[a];
                if (t != (size_t)-1 && t == last_recv[b] && t_msg[t] == e) {
                    mpz_add(t_lam[t], t_lam[t], mk->lambda);
                    continue;
                }
                t_msg[n_tr] = e;
                mpz_init_set(t_lam[n_tr], mk->lambda);
                last_send[a] = last_recv[b] = n_tr++;
            }
        }
        amount = ssched_i_alloc(n_tr, sizeof *amount);
        if (!amount)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the preemptive steps");
    }
    if (st == SSCHED_OK) {
        /* amount = m · Σλ / W_e elements */
        for (size_t t = 0; t < n_tr; t++) {
            size_t e = t_msg[t];
            mpq_init(amount[t]);
            mpz_mul_ui(w, t_lam[t], r->messages[e].elements);
            mpq_set_num(amount[t], w);
            mpq_set_den(amount[t], W[e]);
            mpq_canonicalize(amount[t]);
        }
        st = mpq_sgn(r->startup) == 0
                 ? place_units(r, t_msg, (const mpz_t *)t_lam, (const mpq_t *)amount, n_tr, L, s,
                               err)
                 : ssched_i_rd_place_pieces(r, t_msg, (const mpq_t *)amount, n_tr, s, err);
        s->n_steps = res.n_matchings;
    }
done:
    if (amount)
        for (size_t t = 0; t < n_tr; t++)
            mpq_clear(amount[t]);
    free(amount);
    if (t_lam)
        for (size_t t = 0; t < n_tr; t++)
            mpz_clear(t_lam[t]);
    free(t_lam);
    free(t_msg);
    free(last);
    if (W)
        for (size_t e = 0; e < M; e++)
            mpz_clear(W[e]);
    free(W);
    ssched_matching_result_free(&res);
    ssched_bipartite_free(&g);
    mpz_clear(L);
    mpz_clear(w);
    mpz_clear(D);
    return st;
}
