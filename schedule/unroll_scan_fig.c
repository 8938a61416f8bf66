/* Figures of an unrolled scan (schedule/unroll_scan.c): makespan, K / TP,
 * LB1 and the ratio, all exact.
 *
 * LB1, a lower bound on the time of one scan (hops cost l(e) + size c(e),
 * data store-and-forward): demand j (j >= 1; inclusive v[0,j] at r_j,
 * exclusive v[0,j-1] at r_j) needs, when its prefix has a_j >= 1, every
 * v[k,k] (k <= a_j) merged at least once, on some node x that computes,
 * before a value holding it reaches r_j: max_k min_x d(r_k, x) + w(x) +
 * d(x, r_j), the reduce bound of schedule.h restricted to the prefix; with
 * a_j = 0 (exclusive j = 1) v[0,0] itself travels: d(r_0, r_1).  LB1 is the
 * largest over the demands (0 when there is none).  The checker computes
 * the same bound with its own code (check_unrolled_claims.c). */
#include <stdlib.h>
#include <string.h>

#include "schedule/scan_internal.h"
#include "src/util/internal.h"

/* Shortest times from src (reverse: to src) into d; has[v] = reachable.
 * O(n^2 + e), exact. */
static void dijkstra(const ssched_platform_t *p, const mpq_t *hop, size_t src, int reverse,
                     mpq_t *d, unsigned char *has, unsigned char *fin, mpq_t t)
{
    size_t n = p->n_nodes;
    memset(has, 0, n);
    memset(fin, 0, n);
    mpq_set_ui(d[src], 0, 1);
    has[src] = 1;
    for (;;) {
        size_t v = SIZE_MAX;
        for (size_t x = 0; x < n; x++)
            if (has[x] && !fin[x] && (v == SIZE_MAX || mpq_cmp(d[x], d[v]) < 0))
                v = x;
        if (v == SIZE_MAX)
            return;
        fin[v] = 1;
        const size_t *st = reverse ? p->in_start : p->out_start;
        const size_t *li = reverse ? p->in_list : p->out_list;
        for (size_t a = st[v]; a < st[v + 1]; a++) {
            size_t e = li[a], y = reverse ? p->from[e] : p->to[e];
            mpq_add(t, d[v], hop[e]);
            if (!has[y] || mpq_cmp(t, d[y]) < 0) {
                mpq_set(d[y], t);
                has[y] = 1;
            }
        }
    }
}

static int lb1(const ssched_platform_t *p, const ssched_problem_t *pb, mpq_t out)
{
    size_t n = p->n_nodes, ne = p->n_edges, N = pb->n_participants;
    mpq_t *hop = ssched_i_alloc(ne ? ne : 1, sizeof *hop);
    mpq_t *fw = ssched_i_alloc(N * n + 1, sizeof *fw), *bw = ssched_i_alloc(n + 1, sizeof *bw);
    unsigned char *hf = ssched_i_alloc(N * n + 1, 1), *hb = ssched_i_alloc(n + 1, 1);
    unsigned char *fin = ssched_i_alloc(n + 1, 1);
    int ok = hop && fw && bw && hf && hb && fin;
    mpq_t t, best, q;
    mpq_inits(t, best, q, NULL);
    mpq_set_ui(out, 0, 1);
    for (size_t e = 0; ok && e < ne; e++) {
        mpq_init(hop[e]);
        mpq_mul(hop[e], pb->size, p->c[e]);
        mpq_add(hop[e], hop[e], p->l[e]);
    }
    for (size_t x = 0; ok && x < N * n; x++)
        mpq_init(fw[x]);
    for (size_t x = 0; ok && x < n; x++)
        mpq_init(bw[x]);
    for (size_t k = 0; ok && k < N; k++)
        dijkstra(p, hop, pb->participants[k], 0, fw + k * n, hf + k * n, fin, t);
    for (size_t j = 1; ok && j < N; j++) {
        size_t a = pb->exclusive ? j - 1 : j, d = pb->participants[j];
        if (a == 0) { /* v[0,0] itself reaches r_1 */
            if (hf[d] && mpq_cmp(fw[d], out) > 0)
                mpq_set(out, fw[d]);
            continue;
        }
        dijkstra(p, hop, d, 1, bw, hb, fin, t);
        for (size_t k = 0; k <= a; k++) {
            int any = 0;
            for (size_t x = 0; x < n; x++) {
                if (!p->has_w[x] || !hf[k * n + x] || !hb[x])
                    continue;
                mpq_add(q, fw[k * n + x], p->w[x]);
                mpq_add(q, q, bw[x]);
                if (!any || mpq_cmp(q, best) < 0)
                    mpq_set(best, q);
                any = 1;
            }
            if (any && mpq_cmp(best, out) > 0)
                mpq_set(out, best);
        }
    }
    for (size_t e = 0; ok && e < ne; e++)
        mpq_clear(hop[e]);
    for (size_t x = 0; ok && x < N * n; x++)
        mpq_clear(fw[x]);
    for (size_t x = 0; ok && x < n; x++)
        mpq_clear(bw[x]);
    mpq_clears(t, best, q, NULL);
    free(hop);
    free(fw);
    free(bw);
    free(hf);
    free(hb);
    free(fin);
    return ok;
}

ssched_status_t ssched_i_scan_figures(const ssched_platform_t *p, const ssched_problem_t *pb,
                                      const ssched_steady_t *st, size_t K, ssched_unrolled_t *u,
                                      ssched_error_t *err)
{
    ssched_unroll_figures_t *f = &u->fig;
    u->operations = f->operations = K;
    mpq_set_ui(f->makespan, 0, 1);
    for (size_t x = 0; x < u->n_transfers; x++)
        if (mpq_cmp(u->transfers[x].end, f->makespan) > 0)
            mpq_set(f->makespan, u->transfers[x].end);
    for (size_t x = 0; x < u->n_computations; x++)
        if (mpq_cmp(u->computations[x].end, f->makespan) > 0)
            mpq_set(f->makespan, u->computations[x].end);
    mpq_set(f->throughput, st->throughput);
    mpq_set_ui(f->steady_time, K, 1);
    mpq_div(f->steady_time, f->steady_time, st->throughput);
    mpq_sub(f->overhead, f->makespan, f->steady_time);
    if (!lb1(p, pb, f->lb1))
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_set(f->lower_bound, mpq_cmp(f->lb1, f->steady_time) > 0 ? f->lb1 : f->steady_time);
    if (mpq_sgn(f->lower_bound) > 0)
        mpq_div(f->ratio, f->makespan, f->lower_bound);
    mpq_inv(f->period, st->throughput);
    mpz_set_ui(f->ops_per_period, 1);
    mpq_set(f->pattern_throughput, st->throughput);
    f->periods = K;
    f->transfers = u->n_transfers;
    f->computations = u->n_computations;
    f->pieces = 0;
    mpq_set(u->makespan, f->makespan);
    mpq_set(u->steady_time, f->steady_time);
    mpq_set(u->overhead, f->overhead);
    u->periods = K;
    return SSCHED_OK;
}
