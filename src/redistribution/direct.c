/* The direct schedule: the fixed K-step contention-free schedule used on
 * homogeneous networks (seed 003 §3 and §5, after Kaushik et al., Lim et al.,
 * Walker & Otto).
 *
 * Each processor sends to at most K processors and receives from at most K,
 * so the message graph (senders x receivers, one edge per message) has
 * maximum degree D <= K and, by König's edge-colouring theorem, splits into
 * D matchings: the steps.  ssched computes them with its own edge colouring
 * on unit weights (every step then has length 1 and contains only whole
 * messages).  On a heterogeneous network the messages of one step no longer
 * take the same time; each processor performs its transfers in step order,
 * a transfer starting as soon as its sender and its receiver are both free
 * (no global barrier between steps: that is the fairest reading of the
 * fixed schedule, and it is what seed 003's MPI implementation does with one
 * posted send and one posted receive at a time). */
#include <stdlib.h>

#include "src/redistribution/internal.h"
#include "src/util/internal.h"
#include "ssched/matching.h"

ssched_status_t ssched_i_rd_direct(const ssched_redist_t *r, ssched_redist_schedule_t *s,
                          ssched_error_t *err)
{
    ssched_bipartite_t g;
    ssched_matching_result_t res;
    size_t M = r->n_messages, n = 0;
    size_t *message = ssched_i_alloc(M, sizeof *message);
    mpq_t *amount = ssched_i_alloc(M, sizeof *amount);
    mpz_t one, D;
    ssched_status_t st = SSCHED_OK;
    if (!message || !amount) {
        free(message);
        free(amount);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory for the direct steps");
    }
    ssched_bipartite_init(&g, r->P, r->P);
    ssched_matching_result_init(&res);
    mpz_init_set_ui(one, 1);
    mpz_init(D);
    for (size_t e = 0; e < M && st == SSCHED_OK; e++)
        st = ssched_bipartite_add_edge(&g, r->messages[e].src, r->messages[e].dst, one, NULL, err);
    if (st == SSCHED_OK)
        st = ssched_bipartite_max_degree(&g, D, err);
    if (st == SSCHED_OK)
        st = ssched_matching_decompose(&g, D, SSCHED_MATCHING_BOTTLENECK, &res, err);
    /* Steps in order; unit weights: every step has length 1 and holds whole
     * messages (edge index = message index), each message exactly once. */
    for (size_t k = 0; k < res.n_matchings && st == SSCHED_OK; k++) {
        if (mpz_cmp_ui(res.matchings[k].lambda, 1) != 0) {
            st = ssched_error_set(err, SSCHED_EINTERNAL, "direct: step %zu is not unit", k);
            break;
        }
        for (size_t j = 0; j < res.matchings[k].n_edges && n < M; j++) {
            message[n] = res.matchings[k].edges[j];
            mpq_init(amount[n]);
            mpq_set_ui(amount[n], r->messages[message[n]].elements, 1);
            n++;
        }
    }
    if (st == SSCHED_OK && n != M)
        st = ssched_error_set(err, SSCHED_EINTERNAL, "direct: %zu of %zu messages in the steps", n,
                              M);
    if (st == SSCHED_OK) {
        st = ssched_i_rd_place_pieces(r, message, (const mpq_t *)amount, n, s, err);
        s->n_steps = res.n_matchings;
    }
    for (size_t q = 0; q < n; q++)
        mpq_clear(amount[q]);
    free(amount);
    free(message);
    ssched_matching_result_free(&res);
    ssched_bipartite_free(&g);
    mpz_clear(one);
    mpz_clear(D);
    return st;
}
