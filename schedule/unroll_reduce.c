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
 * and compute feasibility.  A slot amount may be a fraction of a value: the
 * value then moves in pieces, and the next task waits for the last piece.
 *
 * Memory: one period's task instances, and the availability of every value
 * of the operations in flight (a ring of (max level + 2) batches). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"

/* One task instance to run in the current period. */
typedef struct {
    size_t key_a, key_b;   /* (edge, interval) for sends; (n_edges + node, 0) for computes */
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

typedef struct {
    size_t N, nI;
    unsigned long window;      /* operations kept in the ring             */
    int64_t *avail;            /* [op % window][interval]: value ready     */
} ring_t;

static int64_t *ring_at(ring_t *r, unsigned long op, size_t interval)
{
    return &r->avail[(size_t)(op % r->window) * r->nI + interval];
}

ssched_status_t sched_replay_reduce(sched_engine_t *e, const ssched_problem_t *pb,
                                    unsigned long K, size_t *periods_out, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_schedule_t *s = e->s;
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
    ring_t ring = {N, N * (N + 1) / 2, ops * (unsigned long)(max_level + 2), NULL};
    ring.avail = calloc(ring.window * ring.nI > 0 ? ring.window * ring.nI : 1, sizeof *ring.avail);
    inst_t *inst = malloc((total_tasks ? total_tasks : 1) * sizeof *inst);
    int64_t *need = malloc((total_tasks ? total_tasks : 1) * sizeof *need);
    size_t *cursor_of = malloc((total_tasks ? total_tasks : 1) * sizeof *cursor_of);
    if (st == SSCHED_OK && (!inst || !need || !cursor_of || !ring.avail))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    int64_t A = e->sc.a;
    unsigned long batches = (K + ops - 1) / ops;
    size_t periods = (size_t)batches + max_level;
    mpq_set_z(e->period_ticks, e->sc.Q);
    mpq_mul(e->period_ticks, e->period_ticks, s->period);
    e->window = max_level + 1;
    for (size_t period = 0; period < periods && st == SSCHED_OK; period++) {
        sched_engine_period(e, period);
        /* a new batch starts: its values are not produced yet (leaves are
         * participants' own values, there from time 0) */
        if (period < batches)
            for (unsigned long j = 0; j < ops; j++)
                memset(ring_at(&ring, period * ops + j, 0), 0, ring.nI * sizeof *ring.avail);
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
        if (n)
            qsort(inst, n, sizeof *inst, cmp_inst);
        for (size_t k = 0; k < n; k++) {
            need[k] = A;
            cursor_of[k] = (k > 0 && inst[k].key_a == inst[k - 1].key_a &&
                            inst[k].key_b == inst[k - 1].key_b) ? cursor_of[k - 1] : k;
        }
        /* transfers: each slot's (edge, interval) amount takes the next
         * units of the instances needing that transfer, in order */
        for (size_t k = 0; k < s->n_slots && st == SSCHED_OK; k++) {
            const ssched_slot_t *sl = &s->slots[k];
            for (size_t t = 0; t < sl->n_transfers && st == SSCHED_OK; t++) {
                const ssched_transfer_t *tr = &sl->transfers[t];
                size_t lo = 0, hi = n;
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (inst[mid].key_a < tr->edge ||
                        (inst[mid].key_a == tr->edge && inst[mid].key_b < tr->type))
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo >= n || inst[lo].key_a != tr->edge || inst[lo].key_b != tr->type)
                    continue; /* nothing of this kind in this period (start-up, clean-up) */
                /* whole values: every instance left in the run moves now */
                int64_t want = e->sc.whole ? INT64_MAX : sched_units(&e->sc, tr->amount);
                size_t *next = &cursor_of[lo];
                while (want > 0 && st == SSCHED_OK) {
                    if (*next >= n || inst[*next].key_a != tr->edge || inst[*next].key_b != tr->type)
                        break;
                    size_t x = *next;
                    int64_t len = need[x] < want ? need[x] : want, end;
                    int64_t *av = ring_at(&ring, inst[x].op, tr->type);
                    st = sched_emit_transfer(e, tr->edge, tr->type, inst[x].op, A - need[x], len,
                                             *av, &end, err);
                    /* later pieces go over the same port: waiting for this
                     * one's end changes nothing; the value is at the receiver
                     * once the last piece ends */
                    *av = end;
                    need[x] -= len;
                    want -= len;
                    if (need[x] == 0)
                        (*next)++;
                }
            }
        }
        for (size_t k = 0; k < n && st == SSCHED_OK; k++)
            if (inst[k].key_a < p->n_edges && need[k] != 0)
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "reduce pattern has fewer transfers than the trees need");
        /* computations, each node's one after the other */
        for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
            if (inst[k].key_a < p->n_edges)
                continue;
            const ssched_tree_task_t *x = &s->trees.trees[inst[k].tree].tasks[inst[k].task];
            size_t left = sched_interval_index(N, x->k, x->l);
            size_t right = sched_interval_index(N, x->l + 1, x->m);
            size_t out = sched_interval_index(N, x->k, x->m);
            int64_t ready = *ring_at(&ring, inst[k].op, left), end;
            if (*ring_at(&ring, inst[k].op, right) > ready)
                ready = *ring_at(&ring, inst[k].op, right);
            st = sched_emit_computation(e, x, inst[k].op, ready, &end, err);
            *ring_at(&ring, inst[k].op, out) = end;
        }
        if (st == SSCHED_OK)
            st = sched_engine_flush(e, 0, err);
    }
    if (st == SSCHED_OK)
        st = sched_engine_flush(e, 1, err);
    *periods_out = periods;
    for (size_t t = 0; t < nt && levels; t++)
        free(levels[t]);
    free(levels); free(offset); free(inst); free(need); free(cursor_of); free(ring.avail);
    return st;
}
