/* Unrolled reduce schedules (schedule.h: ssched_unroll for reduce).
 *
 * Time-stamps are processed in batches of ops_per_period: batch b holds
 * operations b*ops .. (b+1)*ops-1, spread over the tree instances of one
 * period (tree T gets w(T) of them).  A task of level L runs, for batch b,
 * in period b + L, where a task's level is 0 if its inputs are participants'
 * own values and one more than its highest input otherwise.  Its inputs
 * were thus produced in earlier periods: data dependencies hold by
 * construction, and the periodic pattern (slots for transfers, sequential
 * computations per node within the period's compute budget) gives one-port
 * and compute feasibility. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"

/* One task instance to run in the current period. */
typedef struct {
    size_t key_a, key_b;   /* (edge, interval) for sends; (node, 0) for computes */
    size_t tree, task;
    unsigned long op;
} inst_t;

static int cmp_inst(const void *x, const void *y)
{
    const inst_t *a = x, *b = y;
    if (a->key_a != b->key_a) return a->key_a < b->key_a ? -1 : 1;
    if (a->key_b != b->key_b) return a->key_b < b->key_b ? -1 : 1;
    if (a->op != b->op) return a->op < b->op ? -1 : 1;
    return a->task < b->task ? -1 : a->task > b->task;
}

/* level of every task of a tree (tasks are in pre-order: children after
 * their parent, so a reverse sweep sees children first). */
static size_t *tree_levels(const ssched_tree_t *t, size_t *max_level)
{
    size_t *lv = calloc(t->n_tasks ? t->n_tasks : 1, sizeof *lv);
    unsigned char *has_child = calloc(t->n_tasks ? t->n_tasks : 1, 1);
    if (!lv || !has_child) {
        free(lv);
        free(has_child);
        return NULL;
    }
    for (size_t k = t->n_tasks; k-- > 0;) {
        size_t par = t->tasks[k].parent;
        if (par != SIZE_MAX) {
            if (!has_child[par] || lv[par] < lv[k] + 1)
                lv[par] = lv[k] + 1;
            has_child[par] = 1;
        }
        if (lv[k] > *max_level)
            *max_level = lv[k];
    }
    free(has_child);
    return lv;
}

static int record_computation(ssched_unrolled_t *u, const mpq_t start, const mpq_t end,
                              const ssched_tree_task_t *x, unsigned long op)
{
    if (u->n_computations == u->comp_cap) {
        size_t cap = u->comp_cap ? 2 * u->comp_cap : 256;
        ssched_timed_computation_t *c = realloc(u->computations, cap * sizeof *c);
        if (!c)
            return 0;
        u->computations = c;
        u->comp_cap = cap;
    }
    ssched_timed_computation_t *c = &u->computations[u->n_computations++];
    mpq_inits(c->start, c->end, NULL);
    mpq_set(c->start, start);
    mpq_set(c->end, end);
    c->node = x->node;
    c->k = x->k;
    c->l = x->l;
    c->m = x->m;
    c->op = op;
    return 1;
}

ssched_status_t sched_unroll_reduce(const ssched_platform_t *p, const ssched_problem_t *pb,
                                    const ssched_schedule_t *s, unsigned long K,
                                    ssched_unrolled_t *u, ssched_error_t *err)
{
    size_t N = pb->n_participants, nt = s->trees.n_trees;
    if (!mpz_fits_ulong_p(s->ops_per_period) || mpz_sgn(s->ops_per_period) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "operations per period out of range");
    unsigned long ops = mpz_get_ui(s->ops_per_period);
    size_t **levels = calloc(nt ? nt : 1, sizeof *levels);
    unsigned long *offset = calloc(nt ? nt : 1, sizeof *offset);
    size_t max_level = 0, total_tasks = 0;
    ssched_status_t st = SSCHED_OK;
    if (!levels || !offset)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    unsigned long acc = 0;
    for (size_t t = 0; t < nt && st == SSCHED_OK; t++) {
        const ssched_tree_t *tr = &s->trees.trees[t];
        if (!(levels[t] = tree_levels(tr, &max_level)))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        offset[t] = acc;
        acc += mpz_get_ui(tr->weight);
        total_tasks += tr->n_tasks * mpz_get_ui(tr->weight);
    }
    if (st == SSCHED_OK && acc != ops)
        st = ssched_error_set(err, SSCHED_EINTERNAL, "tree weights differ from operations per period");
    inst_t *inst = malloc((total_tasks ? total_tasks : 1) * sizeof *inst);
    size_t *cursor_of = NULL;
    mpq_t base, start, end, dur, *link = malloc((p->n_edges ? p->n_edges : 1) * sizeof *link);
    mpq_inits(base, start, end, dur, NULL);
    for (size_t e = 0; e < p->n_edges && link; e++)
        mpq_init(link[e]);
    if (st == SSCHED_OK && (!inst || !link))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    u->operations = K;
    unsigned long batches = (K + ops - 1) / ops;
    size_t periods = (size_t)batches + max_level;
    for (size_t period = 0; period < periods && st == SSCHED_OK; period++) {
        /* the task instances of this period */
        size_t n = 0;
        for (size_t t = 0; t < nt; t++) {
            const ssched_tree_t *tr = &s->trees.trees[t];
            unsigned long w = mpz_get_ui(tr->weight);
            for (size_t x = 0; x < tr->n_tasks; x++) {
                if (period < levels[t][x] || period - levels[t][x] >= batches)
                    continue;
                unsigned long b = period - levels[t][x];
                const ssched_tree_task_t *task = &tr->tasks[x];
                for (unsigned long j = 0; j < w; j++) {
                    unsigned long op = b * ops + offset[t] + j;
                    if (op >= K)
                        break;
                    inst_t *in = &inst[n++];
                    if (task->kind == SSCHED_TREE_SEND) {
                        in->key_a = task->edge;
                        in->key_b = sched_interval_index(N, task->k, task->m);
                    } else {
                        in->key_a = p->n_edges + task->node; /* computes sort after sends */
                        in->key_b = 0;
                    }
                    in->tree = t;
                    in->task = x;
                    in->op = op;
                }
            }
        }
        qsort(inst, n, sizeof *inst, cmp_inst);
        mpq_set_ui(base, period, 1);
        mpq_mul(base, base, s->period);
        /* transfers: each slot's (edge, interval) amount takes the next
         * instances needing that transfer */
        free(cursor_of);
        cursor_of = malloc((n ? n : 1) * sizeof *cursor_of);
        if (!cursor_of) {
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
            break;
        }
        for (size_t k = 0; k < n; k++)
            cursor_of[k] = (k > 0 && inst[k].key_a == inst[k - 1].key_a &&
                            inst[k].key_b == inst[k - 1].key_b) ? cursor_of[k - 1] : k;
        /* cursor_of[first of run] = next unused instance of the run */
        for (size_t k = 0; k < s->n_slots && st == SSCHED_OK; k++) {
            const ssched_slot_t *sl = &s->slots[k];
            for (size_t t = 0; t < sl->n_transfers; t++)
                mpq_set(link[sl->transfers[t].edge], sl->start);
            for (size_t t = 0; t < sl->n_transfers && st == SSCHED_OK; t++) {
                const ssched_transfer_t *tr = &sl->transfers[t];
                /* find the run of (edge, interval) */
                size_t lo = 0, hi = n;
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (inst[mid].key_a < tr->edge ||
                        (inst[mid].key_a == tr->edge && inst[mid].key_b < tr->type))
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                unsigned long want = mpz_get_ui(mpq_numref(tr->amount));
                mpq_mul(dur, p->c[tr->edge], pb->size);
                for (unsigned long a = 0; a < want; a++) {
                    if (lo >= n || inst[lo].key_a != tr->edge || inst[lo].key_b != tr->type)
                        break;
                    size_t *next = &cursor_of[lo];
                    if (*next >= n || inst[*next].key_a != tr->edge || inst[*next].key_b != tr->type)
                        break; /* fewer instances than the pattern's amount */
                    mpq_add(start, base, link[tr->edge]);
                    mpq_add(end, start, dur);
                    mpq_add(link[tr->edge], link[tr->edge], dur);
                    if (!sched_record_transfer(u, start, end, tr->edge, tr->type, inst[*next].op)) {
                        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                        break;
                    }
                    if (mpq_cmp(end, u->makespan) > 0)
                        mpq_set(u->makespan, end);
                    (*next)++;
                }
            }
        }
        /* every send instance must have found a place in the pattern */
        for (size_t k = 0; k < n && st == SSCHED_OK; k++)
            if (inst[k].key_a < p->n_edges && (k == 0 || inst[k].key_a != inst[k - 1].key_a ||
                                               inst[k].key_b != inst[k - 1].key_b)) {
                size_t r = k;
                while (r < n && inst[r].key_a == inst[k].key_a && inst[r].key_b == inst[k].key_b)
                    r++;
                if (cursor_of[k] != r)
                    st = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "reduce pattern has fewer transfers than the trees need");
            }
        /* computations: one after the other on each node from the period start */
        for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
            if (inst[k].key_a < p->n_edges)
                continue;
            size_t node = inst[k].key_a - p->n_edges;
            if (k == 0 || inst[k - 1].key_a != inst[k].key_a)
                mpq_set(start, base);
            mpq_add(end, start, p->w[node]);
            if (!record_computation(u, start, end, &s->trees.trees[inst[k].tree].tasks[inst[k].task],
                                    inst[k].op)) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            if (mpq_cmp(end, u->makespan) > 0)
                mpq_set(u->makespan, end);
            mpq_set(start, end);
        }
    }
    u->periods = periods;
    u->init_periods = max_level;
    if (u->n_transfers) /* qsort(NULL, 0) is undefined */
        qsort(u->transfers, u->n_transfers, sizeof *u->transfers, sched_transfer_by_start);
    if (u->n_computations)
        qsort(u->computations, u->n_computations, sizeof *u->computations, sched_computation_by_start);
    if (st == SSCHED_OK)
        st = sched_compact(p, pb, s, u, err);
    mpq_set_ui(u->steady_time, K, 1);
    mpq_div(u->steady_time, u->steady_time, s->throughput);
    mpq_sub(u->overhead, u->makespan, u->steady_time);
    for (size_t t = 0; t < nt && levels; t++)
        free(levels[t]);
    for (size_t e = 0; e < p->n_edges && link; e++)
        mpq_clear(link[e]);
    free(levels); free(offset); free(inst); free(cursor_of); free(link);
    mpq_clears(base, start, end, dur, NULL);
    return st;
}
