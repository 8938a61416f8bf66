/* From per-period loads to consecutive slots (RR-4872 §3.3): the bipartite
 * graph senders x receivers, one edge per used link weighted by its busy
 * time, decomposed into weighted matchings; each matching is a slot in
 * which every link of the matching sends its message types in turn.  A
 * switch contributes one vertex per link (see sender_vertex), so the slots
 * keep one-port at hosts and per-link exclusivity at switches. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

/* Bipartite vertices (issue 12, switches): a one-port host is one sender
 * vertex and one receiver vertex (vertex i); a switch (p->multiport) has no
 * port rule, so each of its links is a vertex of its own (n_nodes + edge):
 * a matching then keeps one-port at hosts and lets a switch use several
 * links at once, each link at most once. */
static size_t sender_vertex(const ssched_platform_t *p, size_t e)
{
    return p->multiport && p->multiport[p->from[e]] ? p->n_nodes + e : p->from[e];
}

static size_t receiver_vertex(const ssched_platform_t *p, size_t e)
{
    return p->multiport && p->multiport[p->to[e]] ? p->n_nodes + e : p->to[e];
}

static int push_transfer(ssched_slot_t *sl, size_t *cap, size_t edge, size_t type,
                         const mpq_t amount)
{
    if (sl->n_transfers == *cap) {
        *cap = *cap ? 2 * *cap : 4;
        ssched_transfer_t *t = realloc(sl->transfers, *cap * sizeof *t);
        if (!t)
            return 0;
        sl->transfers = t;
    }
    ssched_transfer_t *t = &sl->transfers[sl->n_transfers++];
    t->edge = edge;
    t->type = type;
    mpq_init(t->amount);
    mpq_set(t->amount, amount);
    return 1;
}

/* The routed model (docs/model.md, routed schedules): one slot [0, period] holds every load.
 * The LP's link rows (sum over the edges crossing a SHARED link of
 * rate * size * link_c <= 1, each edge alone <= 1 on a FATPIPE) and, for
 * one-port hosts, its port rows, times the period, are exactly the
 * checker's slot conditions: no matching decomposition is needed (hosts
 * are multi-port, and a link's capacity is shared fluidly). */
static ssched_status_t routed_slot(const ssched_platform_t *p, const sched_load_t *loads,
                                   size_t n_loads, ssched_schedule_t *out, ssched_error_t *err)
{
    out->slots = ssched_i_calloc(1, sizeof *out->slots);
    if (!out->slots)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_slot_t *sl = &out->slots[0];
    out->n_slots = 1;
    out->n_matchings = out->matching_bound = 1; /* figures: the one slot */
    mpq_inits(sl->start, sl->end, NULL);
    mpq_set(sl->end, out->period);
    size_t cap = 0;
    for (size_t k = 0; k < n_loads; k++)
        if (mpq_sgn(loads[k].count) > 0 &&
            !push_transfer(sl, &cap, loads[k].edge, loads[k].type, loads[k].count))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* figures.bipartite_edges: the number of edges the slot uses */
    unsigned char *used = ssched_i_calloc(p->n_edges + 1, 1);
    if (!used)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    out->bipartite_edges = 0;
    for (size_t k = 0; k < sl->n_transfers; k++)
        if (!used[sl->transfers[k].edge]++)
            out->bipartite_edges++;
    free(used);
    return SSCHED_OK;
}

ssched_status_t ssched_i_sched_make_slots(const ssched_platform_t *p, const sched_load_t *loads,
                                 size_t n_loads, ssched_matching_rule_t rule,
                                 ssched_schedule_t *out, ssched_error_t *err)
{
    if (p->routes)
        return routed_slot(p, loads, n_loads, out, err);
    size_t ne = p->n_edges;
    /* first load of each edge (loads are sorted by edge) and its busy time */
    size_t *first = malloc((ne + 1) * sizeof *first);
    size_t *cursor = ssched_i_alloc(ne, sizeof *cursor);
    mpq_t *busy = ssched_i_alloc(ne, sizeof *busy);
    mpq_t *rem = ssched_i_alloc(n_loads, sizeof *rem); /* busy time left per load */
    size_t *link_of = ssched_i_alloc(ne, sizeof *link_of);
    if (!first || !cursor || !busy || !rem || !link_of) {
        free(first); free(cursor); free(busy); free(rem); free(link_of);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t e = 0; e <= ne; e++)
        first[e] = n_loads;
    for (size_t k = n_loads; k-- > 0;)
        first[loads[k].edge] = k;
    for (size_t e = ne; e-- > 0;)
        if (first[e] == n_loads)
            first[e] = first[e + 1];
    mpq_t q, scale;
    mpq_inits(q, scale, NULL);
    for (size_t e = 0; e < ne; e++) {
        mpq_init(busy[e]);
        cursor[e] = first[e];
    }
    /* D = lcm of the denominators of every busy time and of the period, so
     * that the matching module sees integers. */
    mpz_t D, w, bound;
    mpz_inits(D, w, bound, NULL);
    mpz_set(D, mpq_denref(out->period));
    for (size_t k = 0; k < n_loads; k++) {
        mpq_init(rem[k]);
        mpq_mul(rem[k], loads[k].count, p->c[loads[k].edge]);
        mpq_mul(rem[k], rem[k], out->size);
        mpq_add(busy[loads[k].edge], busy[loads[k].edge], rem[k]);
    }
    for (size_t e = 0; e < ne; e++)
        mpz_lcm(D, D, mpq_denref(busy[e]));
    mpq_set_z(scale, D);
    mpq_mul(q, out->period, scale);
    mpz_set(bound, mpq_numref(q));

    ssched_bipartite_t g;
    ssched_bipartite_init(&g, p->n_nodes + ne, p->n_nodes + ne);
    ssched_status_t st = SSCHED_OK;
    for (size_t e = 0; e < ne && st == SSCHED_OK; e++) {
        if (mpq_sgn(busy[e]) == 0)
            continue;
        mpq_mul(q, busy[e], scale);
        mpz_set(w, mpq_numref(q));
        size_t idx;
        st = ssched_bipartite_add_edge(&g, sender_vertex(p, e), receiver_vertex(p, e), w, &idx,
                                       err);
        if (st == SSCHED_OK)
            link_of[idx] = e;
    }
    out->bipartite_edges = g.n_edges;
    ssched_matching_result_t mr;
    ssched_matching_result_init(&mr);
    if (st == SSCHED_OK) {
        double t0 = ssched_i_wall_now();
        st = ssched_matching_decompose(&g, bound, rule, &mr, err);
        out->decompose_seconds = ssched_i_wall_now() - t0;
        if (st == SSCHED_EINPUT) /* the loads were checked against the period */
            st = SSCHED_EINTERNAL;
    }
    if (st == SSCHED_OK) {
        out->n_matchings = mr.n_matchings;
        out->matching_bound = mr.bound;
        out->slots = ssched_i_calloc(mr.n_matchings, sizeof *out->slots);
        if (!out->slots)
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    /* Matching i lasts lambda_i / D; each of its links pours its loads'
     * remaining busy time into that interval, one type after the other. */
    mpq_t clock, len, left, take, amount;
    mpq_inits(clock, len, left, take, amount, NULL);
    for (size_t i = 0; i < mr.n_matchings && st == SSCHED_OK; i++) {
        ssched_slot_t *sl = &out->slots[out->n_slots++];
        mpq_inits(sl->start, sl->end, NULL);
        mpq_set(sl->start, clock);
        mpq_set_z(len, mr.matchings[i].lambda);
        mpq_div(len, len, scale);
        mpq_add(clock, clock, len);
        mpq_set(sl->end, clock);
        size_t cap = 0;
        for (size_t k = 0; k < mr.matchings[i].n_edges && st == SSCHED_OK; k++) {
            size_t e = link_of[mr.matchings[i].edges[k]];
            mpq_set(left, len);
            while (mpq_sgn(left) > 0) {
                size_t c = cursor[e];
                if (c >= first[e + 1] || loads[c].edge != e) {
                    st = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "schedule: matching time exceeds a link's load");
                    break;
                }
                mpq_set(take, mpq_cmp(rem[c], left) < 0 ? rem[c] : left);
                mpq_sub(rem[c], rem[c], take);
                mpq_sub(left, left, take);
                mpq_mul(amount, p->c[e], out->size);
                mpq_div(amount, take, amount);
                if (!push_transfer(sl, &cap, e, loads[c].type, amount)) {
                    st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                    break;
                }
                if (mpq_sgn(rem[c]) == 0)
                    cursor[e]++;
            }
        }
    }
    mpq_clears(clock, len, left, take, amount, q, scale, NULL);
    mpz_clears(D, w, bound, NULL);
    ssched_matching_result_free(&mr);
    ssched_bipartite_free(&g);
    for (size_t e = 0; e < ne; e++)
        mpq_clear(busy[e]);
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(rem[k]);
    free(first); free(cursor); free(busy); free(rem); free(link_of);
    return st;
}

void ssched_i_sched_scale_no_split(ssched_schedule_t *s)
{
    mpz_t L;
    mpz_init_set_ui(L, 1);
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++)
            mpz_lcm(L, L, mpq_denref(s->slots[k].transfers[t].amount));
    mpq_t lq;
    mpq_init(lq);
    mpq_set_z(lq, L);
    for (size_t k = 0; k < s->n_slots; k++) {
        ssched_slot_t *sl = &s->slots[k];
        mpq_mul(sl->start, sl->start, lq);
        mpq_mul(sl->end, sl->end, lq);
        for (size_t t = 0; t < sl->n_transfers; t++)
            mpq_mul(sl->transfers[t].amount, sl->transfers[t].amount, lq);
    }
    for (size_t k = 0; k < s->n_computations; k++)
        mpz_mul(s->computations[k].count, s->computations[k].count, L);
    for (size_t k = 0; k < s->trees.n_trees; k++)
        mpz_mul(s->trees.trees[k].weight, s->trees.trees[k].weight, L);
    for (size_t k = 0; k < s->arborescences.count; k++)
        mpq_mul(s->arborescences.items[k].weight, s->arborescences.items[k].weight, lq);
    mpq_mul(s->arborescences.value, s->arborescences.value, lq);
    mpz_mul(s->trees.ops_per_period, s->trees.ops_per_period, L);
    mpz_mul(s->trees.period, s->trees.period, L);
    mpq_mul(s->period, s->period, lq);
    mpz_mul(s->ops_per_period, s->ops_per_period, L);
    mpz_set(s->nosplit_factor, L);
    s->split = 0;
    mpq_clear(lq);
    mpz_clear(L);
}
