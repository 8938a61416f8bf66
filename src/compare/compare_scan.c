/* compare --operation scan: the best makespan of ONE scan (exhaustive
 * search, or the chain) against the pipelined view, which for a scan is
 * the certified upper bound UB on the throughput only (an unrolled scan
 * reaches the achievable TP <= UB, schedule/unroll_scan.c): M / UB is a lower bound on the time of M
 * pipelined scans (RR-4872 Lemma 1: no schedule does more than TP <= UB
 * operations per time unit), so the table shows where pipelining CANNOT
 * win (1/UB >= the one-shot makespan) and never claims a crossover. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/compare/compare_internal.h"
#include "ssched/problem.h"
#include "ssched/steady.h"

/* One scan: optimal (checked) or the chain. */
static ssched_status_t one_scan(const ssched_mk_cluster_t *c, const ssched_compare_options_t *o,
                                mpq_t out, ssched_error_t *err)
{
    ssched_mk_schedule_t s;
    ssched_mk_schedule_init(&s);
    ssched_mk_stats_t stats;
    ssched_status_t st = o->optimal ? ssched_mk_scan_optimal(c, o->exclusive, NULL, &s, &stats, err)
                                    : ssched_mk_scan_chain(c, o->exclusive, &s, err);
    return ssched_i_compare_checked(c, &s, st, out, err);
}

/* "p0,p1,...": the participants in index order (operator order). */
static char *participant_list(size_t n)
{
    size_t cap = n * 24 + 1, len = 0;
    char *s = ssched_i_alloc(cap, 1);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len, "%sp%zu", i ? "," : "", i);
    return s;
}

ssched_status_t ssched_i_compare_scan(const ssched_mk_cluster_t *c,
                                      const ssched_compare_options_t *o, ssched_compare_t *out,
                                      ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, 0, "root", err);
    if (st != SSCHED_OK)
        return st;
    if (c->n < 2)
        return ssched_error_set(err, SSCHED_EINPUT, "at least 2 processors are needed");
    if (o->optimal && c->n > SSCHED_MK_SCAN_MAX_PROCESSORS)
        return ssched_error_set(err, SSCHED_ELIMIT,
                                "the exhaustive scan search handles at most %d processors, not "
                                "%zu (use the chain)", SSCHED_MK_SCAN_MAX_PROCESSORS, c->n);
    {   /* the scan LP: per demand (n - 1) a reduce flow over n(n+1)/2
         * intervals on n^2 edges, 64 bytes a nonzero (compare.h) */
        double n = (double)c->n;
        if ((st = ssched_i_compare_memory(o, c->n, 64.0 * n * n * n * (n + 1) / 2 * (n - 1),
                                          "the scan bound's LP", err)) != SSCHED_OK)
            return st;
    }
    if ((st = one_scan(c, o, out->one_shot, err)) != SSCHED_OK)
        return st;
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_steady_t steady;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    ssched_steady_init(&steady);
    char *names = participant_list(c->n);
    st = names ? ssched_i_compare_cluster_platform(c, &p, err)
               : ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = ssched_problem_set_scan(&pb, &p, names, o->exclusive, err);
    if (st == SSCHED_OK)
        st = ssched_steady_solve(&p, &pb, NULL, &steady, err);
    if (st == SSCHED_OK) {
        /* the bound: upper_bound once the achievable packing fills it
         * (scan27a), else the edge LP's optimum in throughput */
        out->achievable_known = mpq_sgn(steady.upper_bound) > 0;
        mpq_set(out->upper_bound, out->achievable_known ? steady.upper_bound : steady.throughput);
        mpq_set(out->throughput, steady.throughput);
        out->pipelined_is_bound = 1;
        if (mpq_sgn(out->upper_bound) <= 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "scan: a zero throughput bound");
    }
    if (st == SSCHED_OK)
        st = ssched_i_compare_rows(o, out, err);
    for (size_t k = 0; k < o->n_ops && st == SSCHED_OK; k++) {
        mpq_set_ui(out->pipelined[k], o->ops[k], 1);
        mpq_div(out->pipelined[k], out->pipelined[k], out->upper_bound);
    }
    if (st == SSCHED_OK) { /* 1/UB >= makespan: pipelining never wins (proved) */
        mpq_t q;
        mpq_init(q);
        mpq_inv(q, out->upper_bound);
        out->pipelining_can_win = mpq_cmp(q, out->one_shot) < 0;
        mpq_clear(q);
    }
    free(names);
    ssched_steady_free(&steady);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return st;
}
