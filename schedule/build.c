/* One period of a periodic one-port schedule (schedule.h, RR-4872 §3.3):
 * lifetime of the schedule object and the scatter/gossip front end. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"
#include "src/util/internal.h"

void ssched_schedule_options_default(ssched_schedule_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->rule = SSCHED_MATCHING_BOTTLENECK;
}

void ssched_schedule_init(ssched_schedule_t *s)
{
    memset(s, 0, sizeof *s);
    mpq_inits(s->throughput, s->size, s->period, s->optimal_throughput, s->floor_throughput,
              s->report_bound, s->upper_bound, NULL);
    mpz_inits(s->ops_per_period, s->lcm_period, s->nosplit_factor, s->extra_instances, NULL);
    mpz_set_ui(s->nosplit_factor, 1);
    ssched_trees_init(&s->trees);
    ssched_arborescences_init(&s->arborescences);
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
    for (size_t k = 0; k < s->n_computations; k++)
        mpz_clear(s->computations[k].count);
    free(s->slots);
    free(s->commodities);
    free(s->intervals);
    free(s->computations);
    for (size_t k = 0; k < s->n_scan_structures; k++) {
        free(s->scan_structures[k].tasks);
        free(s->scan_structures[k].sends);
        mpq_clear(s->scan_structures[k].rate);
    }
    free(s->scan_structures);
    ssched_trees_free(&s->trees);
    ssched_sets_free(&s->sets);
    ssched_arborescences_free(&s->arborescences);
    mpq_clears(s->throughput, s->size, s->period, s->optimal_throughput, s->floor_throughput,
               s->report_bound, s->upper_bound, NULL);
    mpz_clears(s->ops_per_period, s->lcm_period, s->nosplit_factor, s->extra_instances, NULL);
    memset(s, 0, sizeof *s);
}

/* Scatter and gossip: per-type flows without cycles, scaled to the LCM
 * period; loads per (edge, type). */
static ssched_status_t build_flow(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_steady_t *st, const ssched_schedule_options_t *opt,
                                  ssched_schedule_t *out, ssched_error_t *err)
{
    size_t ne = p->n_edges, nt = st->n_commodities;
    out->n_commodities = nt;
    out->commodities = ssched_i_alloc(nt, sizeof *out->commodities);
    mpq_t *flow = ssched_i_mpq_vec_new(ne * nt); /* flow[t*ne + e] */
    sched_load_t *loads = ssched_i_alloc(ne * nt, sizeof *loads);
    if (!out->commodities || !flow || !loads) {
        ssched_i_mpq_vec_free(flow, ne * nt);
        free(loads);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    if (nt)
        memcpy(out->commodities, st->commodities, nt * sizeof *st->commodities);
    for (size_t k = 0; k < st->n_flows; k++)
        mpq_set(flow[st->flows[k].type * ne + st->flows[k].edge], st->flows[k].rate);
    ssched_status_t status = SSCHED_OK;
    for (size_t t = 0; t < nt && status == SSCHED_OK; t++)
        if (!ssched_platform_cancel_cycles(p, flow + t * ne))
            status = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* a solution may deliver more than TP of a type (path columns over-
     * cover a commodity at no cost to TP): the acyclic flow scaled by
     * TP / delivered still conserves, and delivers exactly TP */
    mpq_t got, f;
    mpq_inits(got, f, NULL);
    for (size_t t = 0; t < nt && status == SSCHED_OK; t++) {
        mpq_set_ui(got, 0, 1);
        for (size_t e = 0; e < ne; e++) {
            if (p->to[e] == st->commodities[t].dest)
                mpq_add(got, got, flow[t * ne + e]);
            if (p->from[e] == st->commodities[t].dest)
                mpq_sub(got, got, flow[t * ne + e]);
        }
        if (mpq_cmp(got, st->throughput) <= 0)
            continue;
        mpq_div(f, st->throughput, got);
        for (size_t e = 0; e < ne; e++)
            mpq_mul(flow[t * ne + e], flow[t * ne + e], f);
    }
    mpq_clears(got, f, NULL);

    /* Period: every count rate*T, every busy time rate*size*c*T and TP*T
     * must be integers (ssched_steady_period's terms, but on the flows left
     * once the cycles are cancelled). */
    mpq_t q;
    mpq_init(q);
    if (opt->fixed_period) {
        /* n = floor(TP * TF) whole operations in a period n / TP <= TF: the
         * amounts may be fractions of a message (pieces), the throughput
         * stays exactly TP. */
        mpq_mul(q, st->throughput, opt->fixed_period);
        mpz_fdiv_q(out->ops_per_period, mpq_numref(q), mpq_denref(q));
        if (mpz_sgn(out->ops_per_period) == 0)
            status = ssched_error_set(err, SSCHED_EINPUT,
                                      "options.fixed_period is shorter than one operation (1/TP)");
        mpq_set_z(out->period, out->ops_per_period);
        mpq_div(out->period, out->period, st->throughput);
        mpz_set(out->lcm_period, mpq_numref(out->period));
        if (mpz_cmp_ui(mpq_denref(out->period), 1) != 0)
            mpz_set_ui(out->lcm_period, 0); /* not an integer period */
        goto loads;
    }
    mpz_set(out->lcm_period, mpq_denref(st->throughput));
    for (size_t k = 0; k < ne * nt; k++)
        if (mpq_sgn(flow[k]) != 0)
            ssched_i_period_add_flow(out->lcm_period, flow[k], p->c[k % ne], pb->size, q);
    mpq_set_z(out->period, out->lcm_period);
    mpq_mul(q, st->throughput, out->period);
    mpz_set(out->ops_per_period, mpq_numref(q));
loads:;
    size_t n_loads = 0;
    for (size_t e = 0; e < ne; e++)
        for (size_t t = 0; t < nt; t++) {
            if (mpq_sgn(flow[t * ne + e]) == 0)
                continue;
            sched_load_t *l = &loads[n_loads++];
            l->edge = e;
            l->type = t;
            mpq_init(l->count);
            mpq_mul(l->count, flow[t * ne + e], out->period);
        }
    if (status == SSCHED_OK)
        status = ssched_i_sched_make_slots(p, loads, n_loads, opt->rule, out, err);
    for (size_t k = 0; k < n_loads; k++)
        mpq_clear(loads[k].count);
    ssched_i_mpq_vec_free(flow, ne * nt);
    free(loads);
    mpq_clear(q);
    return status;
}

static int has_switch(const ssched_platform_t *p)
{
    for (size_t i = 0; p->multiport && i < p->n_nodes; i++)
        if (p->multiport[i])
            return 1;
    return 0;
}

/* The no-split factor L (LCM of the amounts' denominators) of a schedule. */
static void no_split_factor(const ssched_schedule_t *s, mpz_t L)
{
    mpz_set_ui(L, 1);
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++)
            mpz_lcm(L, L, mpq_denref(s->slots[k].transfers[t].amount));
}

/* With switches, the slots of a one-port decomposition are valid too (a
 * one-port matching is also a matching of the switch graph), and --no-split
 * multiplies the period by the LCM of the amounts' denominators, which
 * depends on the decomposition: keep the one-port slots when their factor
 * is smaller, so that the switch period never exceeds the one-port period
 * of the same solution (the switch slots, never longer in total, win ties). */
static ssched_status_t no_split_choice(const ssched_platform_t *p, const ssched_problem_t *pb,
                                       const ssched_steady_t *st,
                                       const ssched_schedule_options_t *opt,
                                       ssched_schedule_t *out, ssched_error_t *err)
{
    ssched_platform_t one = *p; /* shallow: the same platform, one-port everywhere */
    one.multiport = NULL;
    ssched_schedule_options_t o = *opt;
    o.no_split = 0;
    ssched_schedule_t alt;
    ssched_schedule_init(&alt);
    /* the solution may need the switches (loads above one port's
     * capacity): then there is no one-port decomposition to compare */
    ssched_error_t alt_err;
    ssched_error_clear(&alt_err);
    ssched_status_t status = ssched_schedule_build(&one, pb, st, &o, &alt, &alt_err);
    if (status == SSCHED_ENOMEM)
        ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (status == SSCHED_OK) {
        mpz_t a, b;
        mpz_inits(a, b, NULL);
        no_split_factor(out, a);
        no_split_factor(&alt, b);
        if (mpz_cmp(b, a) < 0) {
            ssched_schedule_t tmp = *out;
            *out = alt;
            alt = tmp;
        }
        mpz_clears(a, b, NULL);
    }
    ssched_schedule_free(&alt);
    return status == SSCHED_ENOMEM ? SSCHED_ENOMEM : SSCHED_OK;
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
    if ((pb->kind == SSCHED_PROBLEM_BROADCAST) != (st->kind == SSCHED_PROBLEM_BROADCAST) ||
        (pb->kind == SSCHED_PROBLEM_ALLREDUCE) != (st->kind == SSCHED_PROBLEM_ALLREDUCE) ||
        (pb->kind == SSCHED_PROBLEM_SCAN) != (st->kind == SSCHED_PROBLEM_SCAN))
        return ssched_error_set(err, SSCHED_EINPUT, "schedule: the solution is not of the problem's kind");
    out->kind = pb->kind;
    mpq_set(out->throughput, st->throughput);
    mpq_set(out->optimal_throughput, st->throughput);
    mpq_set(out->size, pb->size);
    if (mpq_sgn(st->throughput) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "TP = 0: there is nothing to schedule");
    ssched_status_t status;
    if (pb->kind == SSCHED_PROBLEM_REDUCE) {
        status = ssched_i_sched_build_reduce(p, pb, st, opt, out, err);
    } else if (pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        return ssched_i_sched_build_allreduce(p, pb, st, opt, out, err);
    } else if (pb->kind == SSCHED_PROBLEM_SCAN) {
        /* applies no_split itself (build_scan.c) */
        return ssched_i_sched_build_scan(p, pb, st, opt, out, err);
    } else if (pb->kind == SSCHED_PROBLEM_BROADCAST) {
        /* applies no_split itself; with switches (a multicast: a switch is
         * never a target) the slots are not compared with one-port ones */
        return ssched_i_sched_build_broadcast(p, pb, st, opt, out, err);
    } else {
        if (opt->fixed_period && mpq_sgn(opt->fixed_period) <= 0)
            return ssched_error_set(err, SSCHED_EINPUT, "options.fixed_period must be positive");
        status = build_flow(p, pb, st, opt, out, err);
    }
    if (status == SSCHED_OK && opt->no_split && !opt->fixed_period && has_switch(p))
        status = no_split_choice(p, pb, st, opt, out, err);
    if (status == SSCHED_OK && opt->no_split)
        ssched_i_sched_scale_no_split(out);
    return status;
}
