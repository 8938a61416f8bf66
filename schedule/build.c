/* One period of a periodic one-port schedule (schedule.h, RR-4872 §3.3). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssched/schedule.h"

void ssched_schedule_options_default(ssched_schedule_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->rule = SSCHED_MATCHING_BOTTLENECK;
}

void ssched_schedule_init(ssched_schedule_t *s)
{
    memset(s, 0, sizeof *s);
    mpq_inits(s->throughput, s->size, NULL);
    mpz_inits(s->period, s->ops_per_period, s->lcm_period, s->nosplit_factor, NULL);
    mpz_set_ui(s->nosplit_factor, 1);
    s->split = 1;
}

void ssched_schedule_free(ssched_schedule_t *s)
{
    for (size_t k = 0; k < s->n_slots; k++) {
        ssched_slot_t *sl = &s->slots[k];
        for (size_t t = 0; t < sl->n_transfers; t++)
            mpq_clear(sl->transfers[t].amount);
        free(sl->transfers);
        mpq_clears(sl->start, sl->end, NULL);
    }
    free(s->slots);
    free(s->commodities);
    mpq_clears(s->throughput, s->size, NULL);
    mpz_clears(s->period, s->ops_per_period, s->lcm_period, s->nosplit_factor, NULL);
    memset(s, 0, sizeof *s);
}

/* Per-link queue of (type, remaining busy time) poured into the link's
 * slots in order. */
typedef struct {
    size_t n, cur;
    size_t *type;
    mpq_t *rem;
} link_load_t;

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

/* Multiply every time and amount by L so that every amount is an integer:
 * whole messages in every slot (RR-4872 Fig. 4(b)). */
static void scale_no_split(ssched_schedule_t *s)
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
    mpz_mul(s->period, s->period, L);
    mpz_mul(s->ops_per_period, s->ops_per_period, L);
    mpz_set(s->nosplit_factor, L);
    s->split = 0;
    mpq_clear(lq);
    mpz_clear(L);
}

ssched_status_t ssched_schedule_build(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_steady_t *st,
                                      const ssched_schedule_options_t *opt,
                                      ssched_schedule_t *out, ssched_error_t *err)
{
    ssched_schedule_options_t defaults;
    if (!opt) {
        ssched_schedule_options_default(&defaults);
        opt = &defaults;
    }
    ssched_schedule_free(out);
    ssched_schedule_init(out);
    if (pb->kind != SSCHED_PROBLEM_SCATTER && pb->kind != SSCHED_PROBLEM_GOSSIP)
        return ssched_error_set(err, SSCHED_EINPUT, "schedule: scatter and gossip only");
    size_t ne = p->n_edges, nt = st->n_commodities;
    out->kind = pb->kind;
    out->n_commodities = nt;
    out->commodities = malloc((nt ? nt : 1) * sizeof *out->commodities);
    mpq_t *flow = malloc((ne * nt > 0 ? ne * nt : 1) * sizeof *flow); /* flow[t*ne + e] */
    link_load_t *load = calloc(ne ? ne : 1, sizeof *load);
    mpq_t *busy = malloc((ne ? ne : 1) * sizeof *busy);
    if (!out->commodities || !flow || !load || !busy) {
        free(flow);
        free(load);
        free(busy);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    memcpy(out->commodities, st->commodities, nt * sizeof *st->commodities);
    mpq_set(out->throughput, st->throughput);
    mpq_set(out->size, pb->size);
    for (size_t k = 0; k < ne * nt; k++)
        mpq_init(flow[k]);
    for (size_t e = 0; e < ne; e++)
        mpq_init(busy[e]);
    for (size_t k = 0; k < st->n_flows; k++)
        mpq_set(flow[st->flows[k].type * ne + st->flows[k].edge], st->flows[k].rate);

    ssched_status_t status = SSCHED_OK;
    for (size_t t = 0; t < nt && status == SSCHED_OK; t++)
        if (!ssched_platform_cancel_cycles(p, flow + t * ne))
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");

    /* Period: every count rate*T, every busy time rate*size*c*T and TP*T
     * must be integers. */
    mpq_t q, u;
    mpq_inits(q, u, NULL);
    mpz_set(out->period, mpq_denref(st->throughput));
    for (size_t t = 0; t < nt; t++)
        for (size_t e = 0; e < ne; e++) {
            mpq_srcptr f = flow[t * ne + e];
            if (mpq_sgn(f) == 0)
                continue;
            mpz_lcm(out->period, out->period, mpq_denref(f));
            mpq_mul(q, f, p->c[e]);
            mpq_mul(q, q, pb->size);
            mpz_lcm(out->period, out->period, mpq_denref(q));
            mpq_add(busy[e], busy[e], q);
        }
    mpz_set(out->lcm_period, out->period);
    mpq_set_z(u, out->period);
    mpq_mul(q, st->throughput, u);
    mpz_set(out->ops_per_period, mpq_numref(q));

    /* Bipartite graph: one edge per used link, weight = busy time per period. */
    ssched_bipartite_t g;
    ssched_bipartite_init(&g, p->n_nodes, p->n_nodes);
    size_t *link_of = malloc((ne ? ne : 1) * sizeof *link_of); /* bipartite edge -> platform edge */
    mpz_t w;
    mpz_init(w);
    if (!link_of && status == SSCHED_OK)
        status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t e = 0; e < ne && status == SSCHED_OK; e++) {
        if (mpq_sgn(busy[e]) == 0)
            continue;
        mpq_mul(q, busy[e], u);
        mpz_set(w, mpq_numref(q)); /* integral by the choice of T */
        size_t idx;
        status = ssched_bipartite_add_edge(&g, p->from[e], p->to[e], w, &idx, err);
        link_of[idx] = e;
        /* the link's type queue, in type order */
        load[e].type = malloc(nt * sizeof *load[e].type);
        load[e].rem = malloc(nt * sizeof *load[e].rem);
        if (!load[e].type || !load[e].rem) {
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        for (size_t t = 0; t < nt; t++) {
            mpq_srcptr f = flow[t * ne + e];
            if (mpq_sgn(f) == 0)
                continue;
            load[e].type[load[e].n] = t;
            mpq_init(load[e].rem[load[e].n]);
            mpq_mul(load[e].rem[load[e].n], f, p->c[e]);
            mpq_mul(load[e].rem[load[e].n], load[e].rem[load[e].n], pb->size);
            mpq_mul(load[e].rem[load[e].n], load[e].rem[load[e].n], u);
            load[e].n++;
        }
    }
    out->bipartite_edges = g.n_edges;

    ssched_matching_result_t mr;
    ssched_matching_result_init(&mr);
    if (status == SSCHED_OK) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        status = ssched_matching_decompose(&g, out->period, opt->rule, &mr, err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        out->decompose_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (status == SSCHED_EINPUT) /* the LP guarantees degree <= T */
            status = SSCHED_EINTERNAL;
    }
    if (status == SSCHED_OK) {
        out->n_matchings = mr.n_matchings;
        out->matching_bound = mr.bound;
        out->slots = calloc(mr.n_matchings ? mr.n_matchings : 1, sizeof *out->slots);
        if (!out->slots)
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    /* Slots: matching i lasts lambda_i; each of its links pours its types'
     * remaining busy time into that interval, one after the other. */
    mpq_t clock, left, take, amount;
    mpq_inits(clock, left, take, amount, NULL);
    for (size_t i = 0; i < mr.n_matchings && status == SSCHED_OK; i++) {
        ssched_slot_t *sl = &out->slots[out->n_slots++];
        mpq_inits(sl->start, sl->end, NULL);
        mpq_set(sl->start, clock);
        mpq_set_z(q, mr.matchings[i].lambda);
        mpq_add(clock, clock, q);
        mpq_set(sl->end, clock);
        size_t cap = 0;
        for (size_t k = 0; k < mr.matchings[i].n_edges && status == SSCHED_OK; k++) {
            size_t e = link_of[mr.matchings[i].edges[k]];
            link_load_t *L = &load[e];
            mpq_set(left, q);
            while (mpq_sgn(left) > 0) {
                if (L->cur >= L->n) {
                    status = ssched_error_set(err, SSCHED_EINTERNAL,
                                              "schedule: matching time exceeds a link's load");
                    break;
                }
                mpq_set(take, mpq_cmp(L->rem[L->cur], left) < 0 ? L->rem[L->cur] : left);
                mpq_sub(L->rem[L->cur], L->rem[L->cur], take);
                mpq_sub(left, left, take);
                mpq_mul(amount, p->c[e], pb->size);
                mpq_div(amount, take, amount);
                if (!push_transfer(sl, &cap, e, L->type[L->cur], amount)) {
                    status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                    break;
                }
                if (mpq_sgn(L->rem[L->cur]) == 0)
                    L->cur++;
            }
        }
    }
    mpq_clears(clock, left, take, amount, NULL);
    if (status == SSCHED_OK && opt->no_split)
        scale_no_split(out);

    ssched_matching_result_free(&mr);
    ssched_bipartite_free(&g);
    mpz_clear(w);
    free(link_of);
    for (size_t e = 0; e < ne; e++) {
        for (size_t k = 0; k < load[e].n; k++)
            mpq_clear(load[e].rem[k]);
        free(load[e].type);
        free(load[e].rem);
        mpq_clear(busy[e]);
    }
    for (size_t k = 0; k < ne * nt; k++)
        mpq_clear(flow[k]);
    free(flow);
    free(load);
    free(busy);
    mpq_clears(q, u, NULL);
    return status;
}
