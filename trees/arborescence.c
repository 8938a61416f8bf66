/* Arborescence bookkeeping and the independent check of a weighted
 * packing.  See include/ssched/trees.h.  Minimum-cost arborescences are in
 * trees/arborescence_tarjan.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/check_report.h"
#include "ssched/trees.h"
#include "src/util/internal.h"
#include "trees/arborescence_internal.h"

#define NONE SIZE_MAX

void ssched_arborescence_init(ssched_arborescence_t *a)
{
    a->n_arcs = 0;
    a->arcs = NULL;
    mpq_init(a->weight);
}

void ssched_arborescence_free(ssched_arborescence_t *a)
{
    free(a->arcs);
    a->arcs = NULL;
    a->n_arcs = 0;
    mpq_clear(a->weight);
}

void ssched_arborescences_init(ssched_arborescences_t *p)
{
    p->n_nodes = 0;
    p->spanned = NULL;
    mpq_init(p->value);
    p->count = 0;
    p->items = NULL;
    p->maxflows = 0;
}

void ssched_arborescences_free(ssched_arborescences_t *p)
{
    for (size_t i = 0; i < p->count; i++)
        ssched_arborescence_free(&p->items[i]);
    free(p->items);
    free(p->spanned);
    mpq_clear(p->value);
    p->items = NULL;
    p->spanned = NULL;
    p->count = p->n_nodes = 0;
}

/* Every property of a packing over n nodes with root < n and a spanned
 * array; a failing one is EINTERNAL in err. */
ssched_status_t ssched_i_arborescence_begin(size_t n, size_t m, const size_t *from,
                                            const size_t *to, const mpq_t *cost, size_t root,
                                            int *found, ssched_arborescence_t *out,
                                            ssched_error_t *err)
{
    *found = 0;
    if (root >= n)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "arborescence: root %zu out of range (%zu nodes)", root, n);
    if (m && (!from || !to || !cost))
        return ssched_error_set(err, SSCHED_EINPUT, "arborescence: %zu arcs but no arc arrays", m);
    for (size_t e = 0; e < m; e++)
        if (from[e] >= n || to[e] >= n)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "arborescence: arc %zu (%zu -> %zu) has an end out of range "
                                    "(%zu nodes)", e, from[e], to[e], n);
    free(out->arcs);
    out->arcs = NULL;
    out->n_arcs = 0;
    mpq_set_ui(out->weight, 0, 1);
    return SSCHED_OK;
}

size_t ssched_i_arborescence_reach(size_t n, size_t m, const size_t *from, const size_t *to,
                                   size_t root, const unsigned char *required, size_t *lab,
                                   size_t *order, size_t *tail, size_t *head, unsigned char *alive)
{
    size_t *first = ssched_i_calloc(n + 1, sizeof *first), *by_tail = ssched_i_alloc(m, sizeof *by_tail);
    if (!first || !by_tail) {
        free(first);
        free(by_tail);
        return SIZE_MAX;
    }
    for (size_t e = 0; e < m; e++)
        first[from[e] + 1]++;
    for (size_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    for (size_t e = 0; e < m; e++)
        by_tail[first[from[e]]++] = e;
    for (size_t v = n; v > 0; v--) /* first[v] was advanced to the end of v's group */
        first[v] = first[v - 1];
    first[0] = 0;
    size_t nr = 0;
    for (size_t v = 0; v < n; v++)
        lab[v] = NONE;
    lab[root] = nr;
    order[nr++] = root;
    for (size_t qi = 0; qi < nr; qi++)
        for (size_t x = first[order[qi]]; x < first[order[qi] + 1]; x++) {
            size_t e = by_tail[x];
            if (lab[to[e]] == NONE) {
                lab[to[e]] = nr;
                order[nr++] = to[e];
            }
        }
    free(first);
    free(by_tail);
    for (size_t v = 0; v < n; v++)
        if (lab[v] == NONE && (!required || required[v]))
            return 0;
    for (size_t e = 0; e < m; e++) {
        alive[e] = lab[from[e]] != NONE && from[e] != to[e] && to[e] != root;
        tail[e] = lab[from[e]];
        head[e] = lab[to[e]];
    }
    return nr;
}

static ssched_status_t check_packing(size_t n, size_t m, const size_t *from, const size_t *to,
                                     const mpq_t *cap, size_t root,
                                     const ssched_arborescences_t *p, ssched_error_t *err)
{
    if (!p->spanned[root])
        return ssched_error_set(err, SSCHED_EINTERNAL, "packing: root %zu not spanned", root);
    size_t n_span = 0;
    for (size_t v = 0; v < n; v++)
        n_span += p->spanned[v] ? 1 : 0;
    ssched_status_t st = SSCHED_OK;
    size_t *in = malloc(n * sizeof *in), *queue = malloc(n * sizeof *queue);
    unsigned char *seen = malloc(n);
    mpq_t *load = ssched_i_alloc(m, sizeof *load);
    mpq_t sum;
    mpq_init(sum);
    if (!in || !queue || !seen || !load) {
        free(load);
        load = NULL;
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t e = 0; e < m; e++)
        mpq_init(load[e]);
    for (size_t i = 0; i < p->count && st == SSCHED_OK; i++) {
        const ssched_arborescence_t *a = &p->items[i];
        if (mpq_sgn(a->weight) <= 0 || a->n_arcs != n_span - 1) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "packing: arborescence %zu has weight <= 0 or %zu arcs "
                                  "for %zu nodes", i, a->n_arcs, n_span);
            break;
        }
        for (size_t v = 0; v < n; v++)
            in[v] = NONE;
        for (size_t k = 0; k < a->n_arcs; k++) {
            size_t e = a->arcs[k];
            if (e >= m || !p->spanned[from[e]] || !p->spanned[to[e]] || to[e] == root ||
                in[to[e]] != NONE) {
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "packing: arborescence %zu: arc %zu is not a new in-arc of a "
                                      "spanned non-root node", i, e);
                break;
            }
            in[to[e]] = e;
            mpq_add(load[e], load[e], a->weight);
        }
        if (st != SSCHED_OK)
            break;
        /* reachability from the root over the arborescence's arcs */
        size_t qn = 0;
        for (size_t v = 0; v < n; v++)
            seen[v] = 0;
        seen[root] = 1;
        queue[qn++] = root;
        for (size_t qi = 0; qi < qn; qi++)
            for (size_t k = 0; k < a->n_arcs; k++)
                if (from[a->arcs[k]] == queue[qi] && !seen[to[a->arcs[k]]]) {
                    seen[to[a->arcs[k]]] = 1;
                    queue[qn++] = to[a->arcs[k]];
                }
        if (qn != n_span) {
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "packing: arborescence %zu reaches %zu of %zu spanned nodes", i,
                                  qn, n_span);
            break;
        }
        mpq_add(sum, sum, a->weight);
    }
    if (st == SSCHED_OK && !mpq_equal(sum, p->value))
        st = ssched_error_set(err, SSCHED_EINTERNAL, "packing: weights do not sum to the value");
    for (size_t e = 0; e < m && st == SSCHED_OK; e++)
        if (mpq_cmp(load[e], cap[e]) > 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "packing: arc %zu (%zu -> %zu) overloaded",
                                  e, from[e], to[e]);
done:
    if (load)
        for (size_t e = 0; e < m; e++)
            mpq_clear(load[e]);
    mpq_clear(sum);
    free(load);
    free(in);
    free(queue);
    free(seen);
    return st;
}

ssched_status_t ssched_arborescences_check(size_t n, size_t m, const size_t *from,
                                           const size_t *to, const mpq_t *cap, size_t root,
                                           const ssched_arborescences_t *p,
                                           ssched_check_report_t *report, ssched_error_t *err)
{
    if (root >= n)
        return ssched_error_set(err, SSCHED_EINPUT, "root %zu out of range (%zu nodes)", root, n);
    if (p->n_nodes != n || !p->spanned)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "packing: over %zu nodes without a spanned set, graph has %zu",
                                p->n_nodes, n);
    ssched_error_t verr;
    ssched_error_clear(&verr);
    ssched_status_t st = check_packing(n, m, from, to, cap, root, p, &verr);
    return ssched_i_report_outcome(st, SSCHED_EINTERNAL, &verr, report, err);
}
