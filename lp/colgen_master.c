/* The column-generation master: columns, their exact coefficients, the
 * floating-point model and the exact LP over the current columns. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/internal.h"

/* Exact coefficients of column c (rows touched, values), TP excluded. */
void ssched_i_cg_column_coefs(const cg_master_t *m, const cg_column_t *c, mpq_t *coef)
{
    mpq_t q;
    mpq_init(q);
    for (size_t r = 0; r < m->n_rows; r++)
        mpq_set_ui(coef[r], 0, 1);
    for (size_t k = 0; k < c->n_sends; k++) {
        size_t e = c->send_edge[k], i = m->p->from[e], j = m->p->to[e];
        mpq_mul(q, m->p->c[e], m->pb->size);
        /* the rows of lp/build_flow.c: one-port ends' ports, switch links */
        if (!cg_is_switch(m->p, i))
            mpq_add(coef[i], coef[i], q);
        if (!cg_is_switch(m->p, j))
            mpq_add(coef[m->n + j], coef[m->n + j], q);
        ssched_i_res_iter_t it;
        size_t res;
        ssched_i_res_begin(&it, m->p, e);
        while (ssched_i_res_next(&it, &res)) {
            if (m->p->routes) /* a routed link's own time per unit */
                mpq_mul(q, ssched_i_res_time(m->p, res), m->pb->size);
            mpq_add(coef[m->link_row[res]], coef[m->link_row[res]], q);
        }
    }
    for (size_t k = 0; k < c->n_merges; k++) {
        size_t i = c->merge_node[k];
        mpq_add(coef[m->cpu_row[i]], coef[m->cpu_row[i]], m->p->w[i]);
    }
    if (!m->reduce)
        mpq_set_si(coef[2 * m->n + c->type], -1, 1);
    mpq_clear(q);
}
static int same_column(const cg_column_t *a, const cg_column_t *b)
{
    if (a->n_sends != b->n_sends || a->n_merges != b->n_merges || a->type != b->type)
        return 0;
    for (size_t k = 0; k < a->n_sends; k++)
        if (a->send_edge[k] != b->send_edge[k] || a->send_interval[k] != b->send_interval[k])
            return 0;
    for (size_t k = 0; k < a->n_merges; k++)
        if (a->merge_node[k] != b->merge_node[k] || a->merge_l[k] != b->merge_l[k] ||
            a->merge_k[k] != b->merge_k[k] || a->merge_m[k] != b->merge_m[k])
            return 0;
    return 1;
}

/* The master's column index (issue 26): an open-addressing hash set of
 * column numbers, so that "is this column known?" costs one probe instead
 * of a scan of every column, and a sparse accumulator of one column's
 * exact coefficients, so that adding a column costs its non-zeros instead
 * of a pass over every row.  Columns are hashed lazily (n_hashed): an
 * adaptor that appends to m->cols itself (the all-reduce master) is
 * indexed at the next lookup. */
struct cg_index {
    size_t *slot, cap, n_hashed; /* slot: column + 1, 0 empty; cap a power of 2 */
    size_t n_rows, n_touched;
    mpq_t *acc;                  /* acc[r]: row r's coefficient, 0 off touched */
    unsigned char *mark;
    size_t *touched;             /* the rows of the current column, sorted */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t column_hash(const cg_column_t *c)
{
    uint64_t h = mix(mix(mix(0, c->type), c->n_sends), c->n_merges);
    for (size_t k = 0; k < c->n_sends; k++)
        h = mix(mix(h, c->send_edge[k]), c->send_interval[k]);
    for (size_t k = 0; k < c->n_merges; k++)
        h = mix(mix(mix(mix(h, c->merge_node[k]), c->merge_l[k]), c->merge_k[k]),
                c->merge_m[k]);
    return h ^ (h >> 29);
}

void ssched_i_cg_index_free(cg_master_t *m)
{
    struct cg_index *x = m->idx;
    if (!x)
        return;
    free(x->slot);
    if (x->acc)
        for (size_t r = 0; r < x->n_rows; r++)
            mpq_clear(x->acc[r]);
    free(x->acc);
    free(x->mark);
    free(x->touched);
    free(x);
    m->idx = NULL;
}

static struct cg_index *get_index(cg_master_t *m)
{
    if (m->idx)
        return m->idx;
    struct cg_index *x = ssched_i_calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->n_rows = m->n_rows;
    x->acc = ssched_i_alloc(m->n_rows + 1, sizeof *x->acc);
    x->mark = ssched_i_calloc(m->n_rows + 1, 1);
    x->touched = ssched_i_alloc(m->n_rows + 1, sizeof *x->touched);
    if (!x->acc || !x->mark || !x->touched) {
        free(x->acc);
        x->acc = NULL;
        m->idx = x;
        ssched_i_cg_index_free(m);
        return NULL;
    }
    for (size_t r = 0; r < m->n_rows; r++)
        mpq_init(x->acc[r]);
    m->idx = x;
    return x;
}

static void index_put(struct cg_index *x, const cg_master_t *m, size_t k)
{
    size_t mask = x->cap - 1, i = (size_t)column_hash(&m->cols[k]) & mask;
    while (x->slot[i])
        i = (i + 1) & mask;
    x->slot[i] = k + 1;
}

/* Hash the columns appended since the last lookup (rehash at half load).
 * 0 on ENOMEM. */
static int index_catch_up(struct cg_index *x, const cg_master_t *m)
{
    if (2 * (m->n_cols + 1) > x->cap) {
        size_t cap = x->cap ? x->cap : 1024;
        while (2 * (m->n_cols + 1) > cap)
            cap *= 2;
        size_t *slot = ssched_i_calloc(cap, sizeof *slot);
        if (!slot)
            return 0;
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
        x->n_hashed = 0;
    }
    for (; x->n_hashed < m->n_cols; x->n_hashed++)
        index_put(x, m, x->n_hashed);
    return 1;
}

int ssched_i_cg_known(cg_master_t *m, const cg_column_t *c)
{
    struct cg_index *x = get_index(m);
    if (!x || !index_catch_up(x, m)) { /* out of memory: the plain scan */
        for (size_t k = 0; k < m->n_cols; k++)
            if (same_column(&m->cols[k], c))
                return 1;
        return 0;
    }
    size_t mask = x->cap - 1;
    for (size_t i = (size_t)column_hash(c) & mask; x->slot[i]; i = (i + 1) & mask)
        if (same_column(&m->cols[x->slot[i] - 1], c))
            return 1;
    return 0;
}

static void acc_add(struct cg_index *x, size_t r, const mpq_t v)
{
    if (!x->mark[r]) {
        x->mark[r] = 1;
        x->touched[x->n_touched++] = r;
    }
    mpq_add(x->acc[r], x->acc[r], v);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Column c's exact coefficients into x->acc at the rows x->touched[0..
 * x->n_touched) (sorted; the previous column's entries are reset first):
 * the same values as ssched_i_cg_column_coefs, in O(non-zeros). */
static void column_sparse(const cg_master_t *m, struct cg_index *x, const cg_column_t *c,
                          mpq_t q)
{
    for (size_t k = 0; k < x->n_touched; k++) {
        mpq_set_ui(x->acc[x->touched[k]], 0, 1);
        x->mark[x->touched[k]] = 0;
    }
    x->n_touched = 0;
    for (size_t k = 0; k < c->n_sends; k++) {
        size_t e = c->send_edge[k], i = m->p->from[e], j = m->p->to[e];
        mpq_mul(q, m->p->c[e], m->pb->size);
        if (!cg_is_switch(m->p, i))
            acc_add(x, i, q);
        if (!cg_is_switch(m->p, j))
            acc_add(x, m->n + j, q);
        ssched_i_res_iter_t it;
        size_t res;
        ssched_i_res_begin(&it, m->p, e);
        while (ssched_i_res_next(&it, &res)) {
            if (m->p->routes)
                mpq_mul(q, ssched_i_res_time(m->p, res), m->pb->size);
            acc_add(x, m->link_row[res], q);
        }
    }
    for (size_t k = 0; k < c->n_merges; k++)
        acc_add(x, m->cpu_row[c->merge_node[k]], m->p->w[c->merge_node[k]]);
    if (!m->reduce) {
        mpq_set_si(q, -1, 1);
        acc_add(x, 2 * m->n + c->type, q);
    }
    qsort(x->touched, x->n_touched, sizeof *x->touched, cmp_size);
}

/* Add column c to the master (taking ownership) and to the float model. */
int ssched_i_cg_master_add(cg_master_t *m, cg_column_t *c)
{
    if (m->n_cols == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        cg_column_t *cols = realloc(m->cols, cap * sizeof *cols);
        if (!cols)
            return 0;
        m->cols = cols;
        m->cap = cap;
    }
    struct cg_index *x = get_index(m);
    if (!x)
        return 0;
    mpq_t q;
    mpq_init(q);
    column_sparse(m, x, c, q);
    mpq_clear(q);
    double *val = malloc((x->n_touched + 1) * sizeof *val);
    int *row = malloc((x->n_touched + 1) * sizeof *row);
    int ok = val && row;
    if (ok) {
        int cnt = 0;
        if (m->reduce) { /* objective: one reduction per tree instance */
            val[cnt] = 1.0;
            row[cnt++] = 0;
        }
        for (size_t k = 0; k < x->n_touched; k++) {
            size_t r = x->touched[k];
            if (mpq_sgn(x->acc[r]) != 0) {
                val[cnt] = mpq_get_d(x->acc[r]);
                row[cnt++] = (int)r + 1;
            }
        }
        ok = ssched_i_cge_add(m->eng, cnt, val, row);
    }
    free(val);
    free(row);
    if (ok)
        m->cols[m->n_cols++] = *c;
    return ok;
}
/* Build the exact master as an ssched_lp_t over the current columns. */
ssched_status_t ssched_i_cg_exact_master(const cg_master_t *m, ssched_lp_t *lp, ssched_error_t *err)
{
    if (ssched_lp_init(lp, m->reduce ? "master_trees" : "master_paths") != SSCHED_OK)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t one, zero;
    mpq_inits(one, zero, NULL);
    mpq_set_ui(one, 1, 1);
    ssched_status_t st = SSCHED_OK;
    char name[48];
    for (size_t r = 0; r < m->n_rows && st == SSCHED_OK; r++) {
        int deliver = !cg_capacity_row(m, r);
        if (r >= m->link0)
            ssched_i_res_name(m->p, m->link_edge[r - m->link0], name, sizeof name);
        else if (r < m->n)
            snprintf(name, sizeof name, "out_n%zu", r);
        else if (r < 2 * m->n)
            snprintf(name, sizeof name, "in_n%zu", r - m->n);
        else
            snprintf(name, sizeof name, deliver ? "deliver_t%zu" : "cpu_%zu", r - 2 * m->n);
        st = ssched_lp_add_row(lp, name, SSCHED_ROW_LE, deliver ? zero : one, NULL, err);
    }
    size_t tp = 0;
    if (!m->reduce && st == SSCHED_OK) {
        st = ssched_lp_add_col(lp, "TP", one, &tp, err);
        for (size_t t = 0; t < m->n_types && st == SSCHED_OK; t++)
            st = ssched_lp_add_coef(lp, 2 * m->n + t, tp, one, err);
    }
    struct cg_index *x = get_index((cg_master_t *)(uintptr_t)m);
    if (!x && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpq_t q;
    mpq_init(q);
    for (size_t k = 0; x && k < m->n_cols && st == SSCHED_OK; k++) {
        size_t col;
        snprintf(name, sizeof name, "%s%zu", m->reduce ? "tree" : "path", k);
        st = ssched_lp_add_col(lp, name, m->reduce ? one : NULL, &col, err);
        column_sparse(m, x, &m->cols[k], q);
        for (size_t i = 0; i < x->n_touched && st == SSCHED_OK; i++)
            st = ssched_lp_add_coef(lp, x->touched[i], col, x->acc[x->touched[i]], err);
    }
    mpq_clear(q);
    mpq_clears(one, zero, NULL);
    return st;
}

ssched_status_t ssched_i_cg_master_start(cg_master_t *m, const ssched_platform_t *p,
                                         const ssched_problem_t *pb, int reduce,
                                         ssched_steady_t *out, ssched_error_t *err)
{
    memset(m, 0, sizeof *m);
    m->p = p;
    m->pb = pb;
    m->reduce = reduce;
    m->n = p->n_nodes;
    out->method = SSCHED_METHOD_COLGEN;
    out->kind = pb->kind;
    if (!reduce)
        return SSCHED_OK;
    size_t N = pb->n_participants;
    out->n_intervals = N * (N + 1) / 2;
    out->intervals = ssched_i_alloc(out->n_intervals, sizeof *out->intervals);
    if (!out->intervals)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0, I = 0; k < N; k++)
        for (size_t l = k; l < N; l++)
            out->intervals[I++] = (ssched_interval_t){k, l};
    return SSCHED_OK;
}

ssched_status_t ssched_i_cg_master_rows(cg_master_t *m, size_t n_delivery, ssched_error_t *err)
{
    const ssched_platform_t *p = m->p;
    size_t n = m->n = p->n_nodes, ne = m->nres = ssched_i_res_count(p);
    if (m->reduce)
        m->cpu_row = ssched_i_alloc(n, sizeof *m->cpu_row);
    m->link_row = ssched_i_alloc(ne, sizeof *m->link_row);
    m->link_edge = ssched_i_alloc(ne, sizeof *m->link_edge);
    unsigned char *used = ssched_i_res_used_flags(p);
    if ((m->reduce && !m->cpu_row) || !m->link_row || !m->link_edge || !used) {
        free(used);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    m->n_rows = 2 * n;
    if (m->reduce)
        for (size_t i = 0; i < n; i++)
            m->cpu_row[i] = p->has_w[i] ? m->n_rows++ : SIZE_MAX;
    else
        m->n_rows += n_delivery;
    m->link0 = m->n_rows;
    for (size_t e = 0; e < ne; e++) {
        m->link_row[e] = SIZE_MAX;
        if (used[e]) {
            m->link_edge[m->n_rows - m->link0] = e;
            m->link_row[e] = m->n_rows++;
        }
    }
    free(used);
    return SSCHED_OK;
}

int ssched_i_cg_scratch_init(cg_scratch_t *s, size_t n, size_t nres)
{
    s->n = n;
    s->nres = nres;
    s->cpu = ssched_i_calloc(n + 1, sizeof *s->cpu);
    s->link = ssched_i_calloc(nres + 1, sizeof *s->link);
    s->q.out = ssched_i_mpq_vec_new(n);
    s->q.in = ssched_i_mpq_vec_new(n);
    s->q.cpu = ssched_i_mpq_vec_new(n);
    s->q.link = ssched_i_mpq_vec_new(nres);
    return s->cpu && s->link && s->q.out && s->q.in && s->q.cpu && s->q.link;
}

void ssched_i_cg_scratch_free(cg_scratch_t *s)
{
    free(s->cpu);
    free(s->link);
    ssched_i_mpq_vec_free(s->q.out, s->n);
    ssched_i_mpq_vec_free(s->q.in, s->n);
    ssched_i_mpq_vec_free(s->q.cpu, s->n);
    ssched_i_mpq_vec_free(s->q.link, s->nres);
    memset(s, 0, sizeof *s);
}

cg_prices_d ssched_i_cg_prices_d(const cg_master_t *m, const double *y, cg_scratch_t *s)
{
    for (size_t i = 0; i < m->n; i++)
        s->cpu[i] = m->reduce && m->cpu_row[i] != SIZE_MAX ? y[m->cpu_row[i]] : 0.0;
    for (size_t k = 0; k < m->nres; k++)
        s->link[k] = m->link_row[k] == SIZE_MAX ? 0.0 : y[m->link_row[k]];
    /* the pricers read the port prices only */
    return (cg_prices_d){(double *)(uintptr_t)y, (double *)(uintptr_t)(y + m->n), s->cpu,
                         s->link};
}

const cg_prices_q *ssched_i_cg_prices_q(const cg_master_t *m, const mpq_t *y, cg_scratch_t *s)
{
    for (size_t i = 0; i < m->n; i++) {
        mpq_set(s->q.out[i], y[i]);
        mpq_set(s->q.in[i], y[m->n + i]);
        mpq_set_ui(s->q.cpu[i], 0, 1);
        if (m->reduce && m->cpu_row[i] != SIZE_MAX)
            mpq_set(s->q.cpu[i], y[m->cpu_row[i]]);
    }
    /* the link rows' exact duals: the certificate covers them too */
    for (size_t k = 0; k < m->nres; k++) {
        if (m->link_row[k] == SIZE_MAX)
            mpq_set_ui(s->q.link[k], 0, 1);
        else
            mpq_set(s->q.link[k], y[m->link_row[k]]);
    }
    return &s->q;
}
