/* ssched_scan_structure_check (ssched/steady.h): an independent check of a
 * scan prefix structure, sharing nothing with the pricing that builds them
 * (lp/colgen_scan_dp.inc).  It computes which node can ever hold which
 * interval -- the least fixpoint from v[k,k] at r_k under the structure's
 * own sends and tasks -- so no value is justified by a cycle of its own
 * uses, and every send and task must then be fed. */
#include <stdlib.h>
#include <string.h>

#include "src/util/check_report.h"
#include "src/util/internal.h"
#include "ssched/steady.h"

#define VIOLATION SSCHED_EINTERNAL /* the core's private "invalid" status */

static int send_cmp(const void *a, const void *b)
{
    const ssched_scan_send_t *x = a, *y = b;
    if (x->edge != y->edge)
        return x->edge < y->edge ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return (x->m > y->m) - (x->m < y->m);
}

static int task_cmp(const void *a, const void *b)
{
    const ssched_scan_task_t *x = a, *y = b;
    size_t u[4] = {x->node, x->k, x->l, x->m}, v[4] = {y->node, y->k, y->l, y->m};
    for (int i = 0; i < 4; i++)
        if (u[i] != v[i])
            return u[i] < v[i] ? -1 : 1;
    return 0;
}

/* Ranges and repeats. */
static ssched_status_t check_shape(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_scan_structure_t *s, ssched_error_t *verr)
{
    size_t N = pb->n_participants;
    for (size_t x = 0; x < s->n_sends; x++) {
        const ssched_scan_send_t *d = &s->sends[x];
        if (d->edge >= p->n_edges || d->k > d->m || d->m >= N)
            return ssched_error_set(verr, VIOLATION, "send %zu: edge %zu or interval [%zu,%zu] "
                                    "out of range", x, d->edge, d->k, d->m);
    }
    for (size_t x = 0; x < s->n_tasks; x++) {
        const ssched_scan_task_t *t = &s->tasks[x];
        if (t->node >= p->n_nodes || t->m >= N || !(t->k <= t->l && t->l < t->m))
            return ssched_error_set(verr, VIOLATION, "task %zu: node %zu or T(%zu,%zu,%zu) out "
                                    "of range", x, t->node, t->k, t->l, t->m);
        if (!p->has_w[t->node])
            return ssched_error_set(verr, VIOLATION, "task %zu: node %s has no w (cannot merge)",
                                    x, p->names[t->node]);
    }
    ssched_scan_send_t *sd = ssched_i_alloc(s->n_sends + 1, sizeof *sd);
    ssched_scan_task_t *tk = ssched_i_alloc(s->n_tasks + 1, sizeof *tk);
    ssched_status_t st = SSCHED_OK;
    if (!sd || !tk)
        st = ssched_error_set(verr, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && s->n_sends) {
        memcpy(sd, s->sends, s->n_sends * sizeof *sd);
        qsort(sd, s->n_sends, sizeof *sd, send_cmp);
        for (size_t x = 1; x < s->n_sends && st == SSCHED_OK; x++)
            if (!send_cmp(&sd[x - 1], &sd[x]))
                st = ssched_error_set(verr, VIOLATION, "v[%zu,%zu] sent twice over edge %s -> %s",
                                      sd[x].k, sd[x].m, p->names[p->from[sd[x].edge]],
                                      p->names[p->to[sd[x].edge]]);
    }
    if (st == SSCHED_OK && s->n_tasks) {
        memcpy(tk, s->tasks, s->n_tasks * sizeof *tk);
        qsort(tk, s->n_tasks, sizeof *tk, task_cmp);
        for (size_t x = 1; x < s->n_tasks && st == SSCHED_OK; x++)
            if (!task_cmp(&tk[x - 1], &tk[x]))
                st = ssched_error_set(verr, VIOLATION, "task T(%zu,%zu,%zu) twice on %s", tk[x].k,
                                      tk[x].l, tk[x].m, p->names[tk[x].node]);
    }
    free(sd);
    free(tk);
    return st;
}

/* The fixpoint and the deliveries. */
static ssched_status_t check_flow(const ssched_platform_t *p, const ssched_problem_t *pb,
                                  const ssched_scan_structure_t *s, ssched_error_t *verr)
{
    size_t N = pb->n_participants, n = p->n_nodes, nI = N * (N + 1) / 2;
    unsigned char *held = ssched_i_calloc(n * nI, 1);
    if (!held)
        return ssched_error_set(verr, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < N; k++)
        held[pb->participants[k] * nI + ssched_interval_index(N, k, k)] = 1;
    /* each pass adds at least one (node, interval) or stops: <= n nI + 1 */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t x = 0; x < s->n_sends; x++) {
            const ssched_scan_send_t *d = &s->sends[x];
            size_t I = ssched_interval_index(N, d->k, d->m);
            unsigned char *to = &held[p->to[d->edge] * nI + I];
            if (held[p->from[d->edge] * nI + I] && !*to)
                changed = *to = 1;
        }
        for (size_t x = 0; x < s->n_tasks; x++) {
            const ssched_scan_task_t *t = &s->tasks[x];
            unsigned char *h = held + t->node * nI;
            unsigned char *res = &h[ssched_interval_index(N, t->k, t->m)];
            if (!*res && h[ssched_interval_index(N, t->k, t->l)] &&
                h[ssched_interval_index(N, t->l + 1, t->m)])
                changed = *res = 1;
        }
    }
    ssched_status_t st = SSCHED_OK;
    for (size_t x = 0; x < s->n_sends && st == SSCHED_OK; x++) {
        const ssched_scan_send_t *d = &s->sends[x];
        if (!held[p->from[d->edge] * nI + ssched_interval_index(N, d->k, d->m)])
            st = ssched_error_set(verr, VIOLATION, "%s sends v[%zu,%zu] to %s but never holds it",
                                  p->names[p->from[d->edge]], d->k, d->m,
                                  p->names[p->to[d->edge]]);
    }
    for (size_t x = 0; x < s->n_tasks && st == SSCHED_OK; x++) {
        const ssched_scan_task_t *t = &s->tasks[x];
        const unsigned char *h = held + t->node * nI;
        if (!h[ssched_interval_index(N, t->k, t->l)] || !h[ssched_interval_index(N, t->l + 1, t->m)])
            st = ssched_error_set(verr, VIOLATION, "task T(%zu,%zu,%zu) on %s: an operand never "
                                  "reaches it", t->k, t->l, t->m, p->names[t->node]);
    }
    for (size_t j = 1; j < N && st == SSCHED_OK; j++) {
        size_t a = pb->exclusive ? j - 1 : j, d = pb->participants[j];
        if (!held[d * nI + ssched_interval_index(N, 0, a)])
            st = ssched_error_set(verr, VIOLATION, "participant %s never receives v[0,%zu]",
                                  p->names[d], a);
    }
    free(held);
    return st;
}

ssched_status_t ssched_scan_structure_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                                            const ssched_scan_structure_t *s,
                                            ssched_check_report_t *report, ssched_error_t *err)
{
    ssched_i_report_reset(report);
    if (!p || !pb || !s || pb->kind != SSCHED_PROBLEM_SCAN || pb->n_participants < 2)
        return ssched_error_set(err, SSCHED_EINPUT, "scan structure check: not a scan problem");
    for (size_t k = 0; k < pb->n_participants; k++)
        if (pb->participants[k] >= p->n_nodes)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "scan structure check: participant %zu out of range", k);
    if ((s->n_sends && !s->sends) || (s->n_tasks && !s->tasks))
        return ssched_error_set(err, SSCHED_EINPUT, "scan structure check: missing arrays");
    ssched_error_t verr;
    memset(&verr, 0, sizeof verr);
    ssched_status_t st = check_shape(p, pb, s, &verr);
    if (st == SSCHED_OK)
        st = check_flow(p, pb, s, &verr);
    return ssched_i_report_outcome(st, VIOLATION, &verr, report, err);
}
