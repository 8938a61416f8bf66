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
 * A commutative reduce runs the same trees; its values are keyed by set
 * (the schedule's types) instead of interval.
 *
 * Orders (s->unroll_order, issue 23): a task's inputs come from earlier
 * periods only, so the order of a period's tasks is free; it decides who
 * takes a shared link or processor first.  Slot order by default; the
 * oldest operation first (or a batch's shallow or deep trees first), a
 * batch release, and the first batches placed alone at period 0 are the
 * planner's other choices (unroll_plan_routed.c ranks them).
 *
 * Memory: one period's task instances, and the availability of every value
 * of the operations in flight (a ring of (max level + 2) batches).
 *
 * The replay runs in steps (begin, one step per period, end) so that an
 * all-reduce (unroll_allreduce.c) drives it on one engine with the
 * broadcast of the results: the complete result's time per op
 * (ssched_i_sched_reduce_result) releases the op's copies, and slot transfers of the
 * copy type are handed to a hook in slot order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* One task instance to run in the current period. */
typedef struct {
    size_t key_a, key_b;   /* (edge, interval) for sends; (n_edges + node, 0) for computes */
    size_t tree, task;
    size_t op;
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
    size_t *lv = ssched_i_calloc(t->n_tasks, sizeof *lv);
    unsigned char *has_child = ssched_i_calloc(t->n_tasks, 1);
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

/* Commutative reduce: per task of a tree, its result set and (merges)
 * its input sets, as the schedule's set types (3 per task).  The sets
 * were interned when the schedule was built; a copy of the table finds
 * them (a set the table lacks would be a builder bug: EINTERNAL). */
static size_t *tree_sets(const ssched_schedule_t *s, const ssched_tree_t *t, ssched_sets_t *copy,
                         uint64_t *scratch, ssched_status_t *st, ssched_error_t *err)
{
    size_t *v = ssched_i_alloc(3 * t->n_tasks, sizeof *v);
    if (!v) {
        *st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return NULL;
    }
    for (size_t x = 0; x < t->n_tasks && *st == SSCHED_OK; x++) {
        *st = ssched_i_sched_tree_task_sets(copy, t, x, &v[3 * x], scratch, err);
        if (*st == SSCHED_OK && copy->n != s->sets.n)
            *st = ssched_error_set(err, SSCHED_EINTERNAL, "a tree uses a set the schedule lacks");
    }
    if (*st != SSCHED_OK) {
        free(v);
        return NULL;
    }
    return v;
}

typedef struct {
    size_t N, nI;
    size_t window;             /* operations kept in the ring             */
    int64_t *avail;            /* [op % window][interval]: value ready     */
} ring_t;

static int64_t *ring_at(ring_t *r, size_t op, size_t interval)
{
    return &r->avail[(size_t)(op % r->window) * r->nI + interval];
}

/* The replay's state between periods. */
struct sched_reduce_replay {
    size_t N, nt, max_level, total_tasks, full;
    size_t ops, K, batches;
    size_t **levels, **sets;
    size_t *offset;
    ring_t ring;
    inst_t *inst;
    int64_t *need;
    size_t *cursor_of;
    /* slot transfers of type hook_type go to hook, in slot order */
    size_t hook_type;
    ssched_status_t (*hook)(sched_engine_t *e, void *ctx, const ssched_transfer_t *tr,
                            ssched_error_t *err);
    void *hook_ctx;
    size_t *depth;
    size_t lag;          /* batch b starts no earlier than (b - lag) periods
                            (SIZE_MAX: no such release) */
    size_t rel_batch;    /* the batch whose release rel_ticks is */
    int64_t rel_ticks;
    size_t (*by_op)[4]; /* oldest_first's keys, the instance last */
    int groups;          /* unroll_order bit 64: shared-rate groups of whole
                            transfers (unroll_shared.c) */
    sched_deferred_t deferred;
};

void ssched_i_sched_reduce_hook(sched_reduce_replay_t *r, size_t type,
                       ssched_status_t (*hook)(sched_engine_t *e, void *ctx,
                                               const ssched_transfer_t *tr, ssched_error_t *err),
                       void *ctx)
{
    r->hook_type = type;
    r->hook = hook;
    r->hook_ctx = ctx;
}

void ssched_i_sched_reduce_end(sched_reduce_replay_t *r)
{
    if (!r)
        return;
    for (size_t t = 0; t < r->nt && r->levels; t++)
        free(r->levels[t]);
    for (size_t t = 0; t < r->nt && r->sets; t++)
        free(r->sets[t]);
    free(r->sets);
    free(r->by_op);
    ssched_i_sched_deferred_free(&r->deferred);
    free(r->depth);
    free(r->levels); free(r->offset); free(r->inst); free(r->need); free(r->cursor_of);
    free(r->ring.avail);
    free(r);
}

size_t ssched_i_sched_reduce_depth(const sched_reduce_replay_t *r)
{
    return r->max_level;
}

size_t ssched_i_sched_reduce_batches(const sched_reduce_replay_t *r)
{
    return (size_t)r->batches;
}

int64_t ssched_i_sched_reduce_result(const sched_reduce_replay_t *r, size_t op)
{
    return r->ring.avail[(size_t)(op % r->ring.window) * r->ring.nI + r->full];
}

ssched_status_t ssched_i_sched_reduce_begin(sched_engine_t *e, const ssched_problem_t *pb,
                                   size_t K, sched_reduce_replay_t **out,
                                   ssched_error_t *err)
{
    const ssched_schedule_t *s = e->s;
    *out = NULL;
    if (!mpz_fits_ulong_p(s->ops_per_period) || mpz_sgn(s->ops_per_period) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "operations per period out of range");
    sched_reduce_replay_t *r = calloc(1, sizeof *r);
    if (!r)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t N = pb->n_participants, nt = s->trees.n_trees;
    r->N = N;
    r->nt = nt;
    r->K = K;
    r->ops = mpz_get_ui(s->ops_per_period);
    r->levels = ssched_i_calloc(nt, sizeof *r->levels);
    r->sets = ssched_i_calloc(nt, sizeof *r->sets);
    r->offset = ssched_i_calloc(nt, sizeof *r->offset);
    r->depth = ssched_i_calloc(nt, sizeof *r->depth);
    ssched_status_t st = SSCHED_OK;
    ssched_sets_t copy;
    ssched_sets_init(&copy, N);
    uint64_t *scratch = malloc(copy.words * sizeof *scratch);
    if (!r->levels || !r->offset || !r->depth || !r->sets || !scratch ||
        (s->commutative && !ssched_sets_copy(&copy, &s->sets)))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt && st == SSCHED_OK && s->commutative; t++)
        r->sets[t] = tree_sets(s, &s->trees.trees[t], &copy, scratch, &st, err);
    /* the complete result: [0, N-1], or the set of every participant */
    r->full = ssched_interval_index(N, 0, N ? N - 1 : 0);
    if (st == SSCHED_OK && s->commutative) {
        memset(scratch, 0, copy.words * sizeof *scratch);
        for (size_t j = 0; j < N; j++)
            scratch[j / 64] |= (uint64_t)1 << (j % 64);
        r->full = ssched_sets_find(&s->sets, scratch);
    }
    ssched_sets_free(&copy);
    free(scratch);
    size_t acc = 0;
    for (size_t t = 0; t < nt && st == SSCHED_OK; t++) {
        const ssched_tree_t *tr = &s->trees.trees[t];
        size_t d = 0;
        if (!(r->levels[t] = tree_levels(tr, &d)))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        if (d > r->max_level)
            r->max_level = d;
        if (r->depth)
            r->depth[t] = d;
        r->offset[t] = acc;
        acc += mpz_get_ui(tr->weight);
        r->total_tasks += tr->n_tasks * mpz_get_ui(tr->weight);
    }
    if (st == SSCHED_OK && acc != r->ops)
        st = ssched_error_set(err, SSCHED_EINTERNAL, "tree weights differ from operations per period");
    r->ring = (ring_t){N, s->commutative ? s->sets.n : N * (N + 1) / 2,
                       r->ops * (unsigned long)(r->max_level + 2), NULL};
    if (st == SSCHED_OK && r->full >= r->ring.nI)
        st = ssched_error_set(err, SSCHED_EINTERNAL, "the trees never form the complete result");
    size_t tt = r->total_tasks ? r->total_tasks : 1;
    r->ring.avail = ssched_i_calloc(r->ring.window * r->ring.nI, sizeof *r->ring.avail);
    r->inst = malloc(tt * sizeof *r->inst);
    r->need = malloc(tt * sizeof *r->need);
    r->cursor_of = malloc(tt * sizeof *r->cursor_of);
    r->by_op = malloc(tt * sizeof *r->by_op);
    if (st == SSCHED_OK &&
        (!r->inst || !r->need || !r->cursor_of || !r->ring.avail || !r->by_op))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    r->batches = (K + r->ops - 1) / r->ops;
    r->lag = (s->unroll_order >> 2 & 3) ? (size_t)(s->unroll_order >> 2 & 3) - 1 : SIZE_MAX;
    r->rel_batch = SIZE_MAX;
    /* shared-rate groups: a routed ordered or commutative reduce whose
     * hosts are multi-port (not an all-reduce: its copies are the hook's) */
    r->groups = (s->unroll_order & 64) && e->p->routes && !e->p->routes->hosts_one_port &&
                pb->kind == SSCHED_PROBLEM_REDUCE && s->unroll_batch <= 1;
    if (st != SSCHED_OK) {
        ssched_i_sched_reduce_end(r);
        return st;
    }
    *out = r;
    return SSCHED_OK;
}

/* The batch release ((unroll_order >> 2 & 3) = lag + 1): operation op's tasks
 * start no earlier than (b - lag) periods, b its batch, so that the
 * later batches do not take, at the start, the resources the first
 * ones need (every period is released at 0 until the window is full). */
static int64_t op_release(const sched_engine_t *e, sched_reduce_replay_t *r, size_t op)
{
    size_t b = op / r->ops;
    if (r->lag == SIZE_MAX || b <= r->lag)
        return 0;
    if (r->rel_batch != b) {
        mpz_t t;
        mpz_init_set_ui(t, (unsigned long)(b - r->lag));
        mpz_mul(t, t, mpq_numref(e->period_ticks));
        mpz_fdiv_q(t, t, mpq_denref(e->period_ticks));
        r->rel_ticks = mpz_fits_slong_p(t) ? mpz_get_si(t) : INT64_MAX / 4;
        mpz_clear(t);
        r->rel_batch = b;
    }
    return r->rel_ticks;
}

static int64_t at_least(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static int cmp_key(const void *x, const void *y)
{
    const size_t *a = x, *b = y;
    for (int i = 0; i < 4; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* A transfer instance's move: placed now, or (shared-rate groups, a whole
 * value) deferred to the end of the period's transfers, its end then
 * written to *av; dependencies cross periods only, so nothing of this
 * period waits for it. */
static ssched_status_t move(sched_engine_t *e, sched_reduce_replay_t *r, size_t edge,
                            size_t type, size_t op, int64_t off, int64_t len, int64_t ready,
                            int64_t *av, ssched_error_t *err)
{
    if (r->groups && off == 0 && len == e->sc.a) {
        if (!ssched_i_sched_defer(&r->deferred, edge, type, op, ready, av))
            return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        return SSCHED_OK;
    }
    int64_t end;
    ssched_status_t st = ssched_i_sched_emit_transfer(e, edge, type, op, off, len, ready, &end,
                                                      err);
    *av = end;
    return st;
}

/* Whole values: the period's transfer instances in operation order (the
 * oldest operation's, the critical ones at the fill and the drain,
 * take the resources first).  Dependencies cross periods only (a task's
 * level is its period's offset), so any order within a period is valid. */
static ssched_status_t oldest_first(sched_engine_t *e, sched_reduce_replay_t *r, size_t n,
                                    ssched_error_t *err)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (r->inst[k].key_a < e->p->n_edges) {
            /* order 1: by operation; 2, 3: by batch, then its trees'
             * depths up (shallow first) or down (deep first) */
            size_t op = r->inst[k].op, d = r->depth[r->inst[k].tree];
            int ord = e->s->unroll_order & 3;
            r->by_op[m][0] = op / r->ops;
            r->by_op[m][1] = ord == 1 ? op : ord == 2 ? d : r->max_level - d;
            r->by_op[m][2] = ord == 1 ? 0 : r->inst[k].tree;
            r->by_op[m++][3] = k;
        }
    qsort(r->by_op, m, sizeof *r->by_op, cmp_key);
    ssched_status_t st = SSCHED_OK;
    for (size_t q = 0; q < m && st == SSCHED_OK; q++) {
        size_t x = r->by_op[q][3];
        int64_t *av = ring_at(&r->ring, r->inst[x].op, r->inst[x].key_b);
        int64_t ready = at_least(*av, op_release(e, r, r->inst[x].op));
        st = move(e, r, r->inst[x].key_a, r->inst[x].key_b, r->inst[x].op, 0, r->need[x], ready,
                  av, err);
        r->need[x] = 0;
    }
    return st;
}

/* The tasks of batches [bmin, bmax] due in `period` (level = period -
 * batch); hooks: the all-reduce's copies are met in slot order too. */
static ssched_status_t run_period(sched_engine_t *e, sched_reduce_replay_t *r, size_t period,
                                  size_t bmin, size_t bmax, int hooks, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_schedule_t *s = e->s;
    size_t N = r->N, nt = r->nt;
    size_t ops = r->ops, batches = r->batches, K = r->K;
    ring_t ring = r->ring;
    inst_t *inst = r->inst;
    int64_t *need = r->need, A = e->sc.a;
    size_t *cursor_of = r->cursor_of, **levels = r->levels, **sets = r->sets;
    size_t *offset = r->offset;
    ssched_status_t st = SSCHED_OK;
    size_t n = 0;
    for (size_t t = 0; t < nt; t++) {
        const ssched_tree_t *tr = &s->trees.trees[t];
        size_t w = mpz_get_ui(tr->weight);
        for (size_t x = 0; x < tr->n_tasks; x++) {
            if (period < levels[t][x] || period - levels[t][x] >= batches)
                continue;
            size_t b = period - levels[t][x];
            if (b < bmin || b > bmax)
                continue;
            const ssched_tree_task_t *task = &tr->tasks[x];
            for (size_t j = 0; j < w; j++) {
                size_t op = b * ops + offset[t] + j;
                if (op >= K)
                    break;
                inst_t *in = &inst[n++];
                if (task->kind == SSCHED_TREE_SEND) {
                    in->key_a = task->edge;
                    in->key_b = s->commutative ? sets[t][3 * x]
                                               : ssched_interval_index(N, task->k, task->m);
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
     * units of the instances needing that transfer, in order; whole
     * values (every instance moves in the period anyway) oldest first */
    int by_op = (s->unroll_order & 3) && (e->sc.whole || e->sc.a == 1);
    for (size_t k = 0; k < s->n_slots && st == SSCHED_OK; k++) {
        const ssched_slot_t *sl = &s->slots[k];
        for (size_t t = 0; t < sl->n_transfers && st == SSCHED_OK; t++) {
            const ssched_transfer_t *tr = &sl->transfers[t];
            if (r->hook && tr->type == r->hook_type) {
                if (hooks)
                    st = r->hook(e, r->hook_ctx, tr, err);
                continue;
            }
            if (by_op)
                continue; /* oldest_first below */
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
            int64_t want = e->sc.whole ? INT64_MAX : ssched_i_sched_units(&e->sc, tr->amount);
            size_t *next = &cursor_of[lo];
            while (want > 0 && st == SSCHED_OK) {
                if (*next >= n || inst[*next].key_a != tr->edge || inst[*next].key_b != tr->type)
                    break;
                size_t x = *next;
                int64_t len = need[x] < want ? need[x] : want;
                int64_t *av = ring_at(&ring, inst[x].op, tr->type);
                int64_t ready = at_least(*av, op_release(e, r, inst[x].op));
                /* later pieces go over the same port: waiting for this
                 * one's end changes nothing; the value is at the receiver
                 * once the last piece ends (*av) */
                st = move(e, r, tr->edge, tr->type, inst[x].op, A - need[x], len, ready, av, err);
                need[x] -= len;
                want -= len;
                if (need[x] == 0)
                    (*next)++;
            }
        }
    }
    if (by_op && st == SSCHED_OK)
        st = oldest_first(e, r, n, err);
    if (r->groups && st == SSCHED_OK)
        st = ssched_i_sched_place_deferred(e, &r->deferred, err);
    for (size_t k = 0; k < n && st == SSCHED_OK; k++)
        if (inst[k].key_a < p->n_edges && need[k] != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "reduce pattern has fewer transfers than the trees need");
    /* computations, each node's one after the other */
    for (size_t k = 0; k < n && st == SSCHED_OK; k++) {
        if (inst[k].key_a < p->n_edges)
            continue;
        ssched_tree_task_t x = s->trees.trees[inst[k].tree].tasks[inst[k].task];
        size_t left = ssched_interval_index(N, x.k, x.l);
        size_t right = ssched_interval_index(N, x.l + 1, x.m);
        size_t out = ssched_interval_index(N, x.k, x.m);
        if (s->commutative) {
            /* the event names the merge by its sets, as the computations
             * list does: inputs in increasing set order, then the result */
            const size_t *v = &sets[inst[k].tree][3 * inst[k].task];
            out = v[0];
            left = v[1] < v[2] ? v[1] : v[2];
            right = v[1] < v[2] ? v[2] : v[1];
            x.k = left;
            x.l = right;
            x.m = out;
        }
        int64_t ready = at_least(*ring_at(&ring, inst[k].op, left), op_release(e, r, inst[k].op));
        int64_t end;
        if (*ring_at(&ring, inst[k].op, right) > ready)
            ready = *ring_at(&ring, inst[k].op, right);
        st = ssched_i_sched_emit_computation(e, &x, inst[k].op, ready, &end, err);
        *ring_at(&ring, inst[k].op, out) = end;
    }
    return st;
}

/* A new batch starts: its values are not produced yet (leaves are
 * participants' own values, there from time 0). */
static void reset_batch(sched_reduce_replay_t *r, size_t b)
{
    for (size_t j = 0; j < r->ops; j++)
        memset(ring_at(&r->ring, b * r->ops + j, 0), 0, r->ring.nI * sizeof *r->ring.avail);
}

/* solo (unroll_order >> 4): the first batches are placed alone, every
 * level one after the other, before any later batch: their critical
 * paths run as soon as their inputs are there (the pipeline's fill), and
 * the later batches take what they leave (routed multi-port: links and
 * processors are profiles, a later task may fill an earlier gap).  Valid
 * as any order: a task still follows its inputs. */
ssched_status_t ssched_i_sched_reduce_step(sched_engine_t *e, sched_reduce_replay_t *r, size_t period,
                                  ssched_error_t *err)
{
    size_t solo = (size_t)(e->s->unroll_order >> 4 & 3);
    if (solo > r->batches)
        solo = r->batches;
    if (solo > r->max_level + 1) /* the ring holds max_level + 2 batches */
        solo = r->max_level + 1;
    ssched_status_t st = SSCHED_OK;
    if (period == 0)
        for (size_t b = 0; b < solo && st == SSCHED_OK; b++) {
            reset_batch(r, b);
            for (size_t L = 0; L <= r->max_level && st == SSCHED_OK; L++)
                st = run_period(e, r, b + L, b, b, 0, err);
        }
    if (period < r->batches && period >= solo)
        reset_batch(r, period);
    return st == SSCHED_OK ? run_period(e, r, period, solo, SIZE_MAX, 1, err) : st;
}

ssched_status_t ssched_i_sched_replay_reduce(sched_engine_t *e, const ssched_problem_t *pb,
                                    size_t K, size_t *periods_out, ssched_error_t *err)
{
    sched_reduce_replay_t *r;
    ssched_status_t st = ssched_i_sched_reduce_begin(e, pb, K, &r, err);
    if (st != SSCHED_OK)
        return st;
    size_t periods = (size_t)r->batches + r->max_level;
    ssched_i_sched_period_ticks(&e->sc, e->s->period, e->period_ticks);
    e->window = r->max_level + 1;
    for (size_t period = 0; period < periods && st == SSCHED_OK; period++) {
        ssched_i_sched_engine_period(e, period);
        st = ssched_i_sched_reduce_step(e, r, period, err);
        if (st == SSCHED_OK)
            st = ssched_i_sched_engine_flush(e, 0, err);
    }
    if (st == SSCHED_OK)
        st = ssched_i_sched_engine_flush(e, 1, err);
    *periods_out = periods;
    ssched_i_sched_reduce_end(r);
    return st;
}
