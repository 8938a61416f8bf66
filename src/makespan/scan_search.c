/* The optimal makespan of ONE scan (parallel prefix, makespan.h "scan") by
 * exhaustive branch-and-bound, and the chain schedule.
 *
 * Completeness.  Take any valid schedule.  (1) Left shift: take the
 * messages by start time and move each to the latest of its sender's
 * previous end, its receiver's previous end and the time its sender can
 * form its interval (or 0).  No constraint gets later, so the result is
 * valid and no longer; every start is then 0 or the end of a message.
 * (2) Drop a message whose receiver could already form its interval at its
 * start (a useless copy): nothing needs it, the makespan does not grow.
 * Repeating (1) and (2) ends (each drop removes a message) in a schedule
 * where every message is useful and starts at an instant at which its
 * sender or receiver has just become free, or its sender has just become
 * able to form its interval (else it could have started at the previous
 * event).  The search enumerates exactly such schedules: events are 0 and
 * the message ends; at an event every set of disjoint transfers among the
 * free processors is tried (a processor may also stay idle), each transfer
 * useful and "just enabled" as above.  So its minimum is the optimum.
 *
 * Pruning: a state whose lower bound reaches the best makespan found (the
 * chain first): every processor still missing its prefix must still
 * receive a message lasting at least the smallest time of another
 * processor, after its current activity (0 for the message it is receiving
 * when that completes its prefix).
 *
 * Transpositions: many orders of the same transfers reach the same state
 * (time, activities, what every processor can form, what is in flight);
 * a state met again was searched below with a best at least the current
 * one, so it is skipped (a table of at most 2^19 states, 64 MB; once full,
 * states are no longer recorded, which costs time only).
 *
 * Times are integers (ticks) scaled by the LCM of the denominators; the
 * schedule returned is rebuilt in exact rationals. */
#include <stdlib.h>
#include <string.h>

#include "src/makespan/mk_internal.h"

#define NMAX SSCHED_MK_SCAN_MAX_PROCESSORS
#define IVMAX (NMAX * (NMAX + 1) / 2)

typedef struct {
    int s, r, iv;
    int64_t start, end;
} smsg_t;

typedef struct {
    int64_t t;
    int64_t busy[NMAX];   /* end of the current or last activity            */
    uint32_t H[NMAX];     /* intervals formable now (closure)                */
    uint32_t Hprev[NMAX]; /* ... before the deliveries at t                  */
    int nfl;              /* messages in flight (copies, unordered)          */
    smsg_t fl[NMAX];
} sstate_t;

/* A state as the table stores it: busy times before t do not matter
 * (only "free", and "freed exactly at t" for the left-shift rule), so they
 * are 0; in-flight messages as (s, r, interval) sorted, their ends being
 * the busy times of s and r. */
typedef struct {
    int64_t t;
    int64_t busy[NMAX];
    uint32_t H[NMAX], Hprev[NMAX];
    unsigned char fl[NMAX / 2][3];
    unsigned char used, pad[7];
} skey_t;

#define MEMO_BITS 19

typedef struct {
    int n, niv;
    skey_t *memo;         /* open addressing; used = 0: empty slot         */
    size_t memo_len;
    int lo[IVMAX], hi[IVMAX];
    int idx[NMAX][NMAX];  /* interval number of [a,b], a <= b              */
    int need[NMAX];       /* interval each processor must form, -1: none    */
    int64_t tick[NMAX];
    int64_t tmin_other[NMAX];
    mpz_t scale;
    int64_t best;
    smsg_t *path, *best_msgs;
    size_t path_len, path_cap, best_len;
    const ssched_mk_limits_t *lim;
    uint64_t nodes, leaves;
    int stopped, nomem;
} ssearch_t;

/* The closure of a set of intervals under concatenation in order. */
static uint32_t closure(const ssearch_t *S, uint32_t h)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < S->niv; i++) {
            if (!(h >> i & 1) || S->hi[i] + 1 >= S->n)
                continue;
            for (int b = S->hi[i] + 1; b < S->n; b++) {
                int j = S->idx[S->hi[i] + 1][b], k = S->idx[S->lo[i]][b];
                if ((h >> j & 1) && !(h >> k & 1)) {
                    h |= 1u << k;
                    changed = 1;
                }
            }
        }
    }
    return h;
}

static int done(const ssearch_t *S, const sstate_t *st, int p)
{
    return S->need[p] < 0 || (st->H[p] >> S->need[p] & 1);
}

/* The lower bound of the file comment. */
static int64_t lower_bound(const ssearch_t *S, const sstate_t *st)
{
    int n = S->n;
    int64_t lb = st->t, avail[NMAX][NMAX]; /* avail[q][k]: q holds v_k from then */
    for (int q = 0; q < n; q++)
        for (int k = 0; k < n; k++)
            avail[q][k] = INT64_MAX;
    for (int q = 0; q < n; q++)
        for (int i = 0; i < S->niv; i++)
            if (st->H[q] >> i & 1)
                for (int k = S->lo[i]; k <= S->hi[i]; k++)
                    avail[q][k] = st->t;
    for (int f = 0; f < st->nfl; f++)
        for (int k = S->lo[st->fl[f].iv]; k <= S->hi[st->fl[f].iv]; k++)
            if (st->fl[f].end < avail[st->fl[f].r][k])
                avail[st->fl[f].r][k] = st->fl[f].end;
    for (int p = 0; p < n; p++) {
        if (done(S, st, p))
            continue;
        int64_t from = st->busy[p] > st->t ? st->busy[p] : st->t, v = from + S->tmin_other[p];
        for (int k = 0; k < n; k++)
            if (avail[p][k] == INT64_MAX && (S->lo[S->need[p]] <= k && k <= S->hi[S->need[p]])) {
                /* v_k must still reach p: sent by a processor q holding it
                 * (from avail[q][k], when q and p are free), or relayed by
                 * one that gets it first */
                int64_t direct = INT64_MAX, first = INT64_MAX, relay = INT64_MAX;
                for (int q = 0; q < n; q++) {
                    if (avail[q][k] == INT64_MAX) {
                        if (q != p && S->tick[q] < relay)
                            relay = S->tick[q];
                        continue;
                    }
                    int64_t a = avail[q][k] > from ? avail[q][k] : from;
                    if (st->busy[q] > a)
                        a = st->busy[q];
                    if (a + S->tick[q] < direct)
                        direct = a + S->tick[q];
                    a = avail[q][k] > st->t ? avail[q][k] : st->t;
                    if (a + S->tick[q] < first)
                        first = a + S->tick[q];
                }
                int64_t w = direct;
                if (relay != INT64_MAX && first != INT64_MAX && first + relay < w)
                    w = first + relay;
                if (w > v)
                    v = w;
            }
        for (int k = 0; k < st->nfl; k++)
            if (st->fl[k].r == p &&
                (closure(S, st->H[p] | 1u << st->fl[k].iv) >> S->need[p] & 1))
                v = st->fl[k].end;
        if (v > lb)
            lb = v;
    }
    return lb;
}

static int push(ssearch_t *S, smsg_t m)
{
    if (S->path_len == S->path_cap) {
        size_t cap = S->path_cap ? 2 * S->path_cap : 64;
        smsg_t *p = realloc(S->path, cap * sizeof *p);
        if (!p) {
            S->nomem = S->stopped = 1;
            return 0;
        }
        S->path = p;
        S->path_cap = cap;
    }
    S->path[S->path_len++] = m;
    return 1;
}

/* Every participant has its prefix at st->t: keep the messages that ended
 * by then if this beats the best. */
static void leaf(ssearch_t *S, const sstate_t *st)
{
    S->leaves++;
    if (st->t >= S->best)
        return;
    size_t k = 0;
    smsg_t *b = realloc(S->best_msgs, (S->path_len ? S->path_len : 1) * sizeof *b);
    if (!b) {
        S->nomem = S->stopped = 1;
        return;
    }
    S->best_msgs = b;
    for (size_t i = 0; i < S->path_len; i++)
        if (S->path[i].end <= st->t)
            b[k++] = S->path[i];
    S->best_len = k;
    S->best = st->t;
}

static void event(ssearch_t *S, const sstate_t *st);

static uint64_t key_hash(const skey_t *k)
{
    const unsigned char *b = (const unsigned char *)k;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h ^ h >> 29;
}

/* 1 if the state was met before (else it is recorded while there is room). */
static int seen(ssearch_t *S, const sstate_t *st)
{
    if (!S->memo)
        return 0;
    skey_t k;
    memset(&k, 0, sizeof k);
    k.t = st->t;
    for (int p = 0; p < S->n; p++) {
        k.busy[p] = st->busy[p] >= st->t ? st->busy[p] : 0;
        k.H[p] = st->H[p];
        k.Hprev[p] = st->Hprev[p];
    }
    for (int f = 0; f < st->nfl; f++) { /* insertion sort: nfl <= 3 */
        unsigned char e[3] = {(unsigned char)st->fl[f].s, (unsigned char)st->fl[f].r,
                              (unsigned char)st->fl[f].iv};
        int j = f;
        while (j > 0 && memcmp(k.fl[j - 1], e, 3) > 0) {
            memcpy(k.fl[j], k.fl[j - 1], 3);
            j--;
        }
        memcpy(k.fl[j], e, 3);
    }
    k.used = 1;
    size_t mask = ((size_t)1 << MEMO_BITS) - 1;
    for (size_t i = key_hash(&k) & mask;; i = (i + 1) & mask) {
        if (!S->memo[i].used) {
            if (S->memo_len * 4 < mask * 3) { /* keep probes short: 3/4 full at most */
                S->memo[i] = k;
                S->memo_len++;
            }
            return 0;
        }
        if (!memcmp(&S->memo[i], &k, sizeof k))
            return 1;
    }
}

/* All transfers of this event are chosen: move to the next message end. */
static void advance(ssearch_t *S, const sstate_t *st)
{
    if (st->nfl == 0)
        return; /* nothing will ever change: a dead end */
    sstate_t nx = *st;
    int64_t t = INT64_MAX;
    for (int k = 0; k < st->nfl; k++)
        if (st->fl[k].end < t)
            t = st->fl[k].end;
    nx.t = t;
    memcpy(nx.Hprev, st->H, sizeof nx.Hprev);
    nx.nfl = 0;
    for (int k = 0; k < st->nfl; k++) {
        if (st->fl[k].end == t)
            nx.H[st->fl[k].r] = closure(S, nx.H[st->fl[k].r] | 1u << st->fl[k].iv);
        else
            nx.fl[nx.nfl++] = st->fl[k];
    }
    event(S, &nx);
}

/* Choose what the free processors not in `decided` do at st->t: the lowest
 * one stays idle, or exchanges one useful, just-enabled interval with a
 * higher one (either direction). */
static void choose(ssearch_t *S, sstate_t *st, uint32_t decided)
{
    if (S->stopped)
        return;
    int p = 0;
    while (p < S->n && ((decided >> p & 1) || st->busy[p] > st->t))
        p++;
    if (p == S->n) {
        advance(S, st);
        return;
    }
    choose(S, st, decided | 1u << p); /* p idle */
    for (int q = p + 1; q < S->n && !S->stopped; q++) {
        if ((decided >> q & 1) || st->busy[q] > st->t)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            int s = dir ? q : p, r = dir ? p : q;
            uint32_t cand = st->H[s] & ~st->H[r];
            /* a transfer that could have started at the previous event is
             * the left shift's (file comment): neither end just freed and
             * the interval formable before this event's deliveries */
            if (st->t > 0 && st->busy[s] != st->t && st->busy[r] != st->t)
                cand &= ~st->Hprev[s];
            for (int i = 0; i < S->niv && !S->stopped; i++) {
                if (!(cand >> i & 1))
                    continue;
                S->nodes++;
                if (S->lim && S->lim->max_nodes && S->nodes >= S->lim->max_nodes) {
                    S->stopped = 1;
                    return;
                }
                if (S->lim && S->lim->progress && !(S->nodes & 4095))
                    S->lim->progress(S->lim->progress_ctx, S->nodes);
                smsg_t m = {s, r, i, st->t, st->t + S->tick[s]};
                if (m.end >= S->best || !push(S, m))
                    continue; /* it would end too late to matter */
                sstate_t nx = *st;
                nx.busy[s] = nx.busy[r] = m.end;
                nx.fl[nx.nfl++] = m;
                choose(S, &nx, decided | 1u << p | 1u << q);
                S->path_len--;
            }
        }
    }
}

static void event(ssearch_t *S, const sstate_t *st)
{
    if (S->stopped)
        return;
    int all = 1;
    for (int p = 0; p < S->n && all; p++)
        all = done(S, st, p);
    if (all) {
        leaf(S, st);
        return;
    }
    if (lower_bound(S, st) >= S->best || seen(S, st))
        return;
    sstate_t w = *st;
    /* the messages that started at the previous events stay on the path */
    size_t mark = S->path_len;
    choose(S, &w, 0);
    S->path_len = mark;
}

/* Ticks of every processor: t(p) * scale, scale the LCM of the
 * denominators; EINPUT unless the chain's makespan (the search's bound)
 * plus the largest time fits far below 2^62. */
static ssched_status_t make_ticks(ssearch_t *S, const ssched_mk_cluster_t *c,
                                  ssched_error_t *err)
{
    mpz_set_ui(S->scale, 1);
    for (size_t p = 0; p < c->n; p++)
        mpz_lcm(S->scale, S->scale, mpq_denref(c->time[p]));
    mpz_t v, sum;
    mpz_inits(v, sum, NULL);
    ssched_status_t st = SSCHED_OK;
    for (size_t p = 0; p < c->n && st == SSCHED_OK; p++) {
        mpz_divexact(v, S->scale, mpq_denref(c->time[p]));
        mpz_mul(v, v, mpq_numref(c->time[p]));
        mpz_add(sum, sum, v);
        if (mpz_sizeinbase(sum, 2) > 58)
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "scan: the times scaled to a common denominator do not fit "
                                  "in 58 bits (processor %zu)", p);
        else
            S->tick[p] = (int64_t)mpz_get_si(v);
    }
    mpz_clears(v, sum, NULL);
    return st;
}

ssched_status_t ssched_mk_scan_chain(const ssched_mk_cluster_t *c, int exclusive,
                                     ssched_mk_schedule_t *out, ssched_error_t *err)
{
    ssched_status_t st = ssched_mk_cluster_validate(c, 0, "root", err);
    if (st != SSCHED_OK)
        return st;
    size_t n = c->n;
    st = ssched_mk_schedule_alloc(out, SSCHED_MK_SCAN, n, 0, n - 1, err);
    if (st != SSCHED_OK)
        return st;
    out->exclusive = exclusive != 0;
    /* processor j-1 holds v[0,j-2] (received) and v_{j-1}: v[0,j-1], which
     * is j's inclusive prefix and an operand of every later one */
    for (size_t j = 1; j < n; j++) {
        ssched_mk_message_t *m = &out->msg[j - 1];
        m->sender = j - 1;
        m->receiver = j;
        m->lo = 0;
        m->hi = j - 1;
        if (j > 1)
            mpq_set(m->start, out->msg[j - 2].end);
        mpq_add(m->end, m->start, c->time[j - 1]);
        mpq_set(out->makespan, m->end);
    }
    return SSCHED_OK;
}

/* Is the best path still a valid scan without the messages marked in
 * `drop`?  (Every kept message's interval formable by its sender at its
 * start, every prefix formable at the end.) */
static int still_valid(const ssearch_t *S, const unsigned char *drop)
{
    for (size_t i = 0; i <= S->best_len; i++) {
        const smsg_t *m = i < S->best_len ? &S->best_msgs[i] : NULL;
        if (m && drop[i])
            continue;
        for (int p = 0; p < S->n; p++) {
            if (m && p != m->s)
                continue;
            uint32_t h = 1u << S->idx[p][p];
            for (size_t j = 0; j < S->best_len; j++)
                if (!drop[j] && S->best_msgs[j].r == p && (!m || S->best_msgs[j].end <= m->start))
                    h |= 1u << S->best_msgs[j].iv;
            h = closure(S, h);
            if (m ? !(h >> m->iv & 1) : S->need[p] >= 0 && !(h >> S->need[p] & 1))
                return 0;
        }
    }
    return 1;
}

/* The best path as an exact schedule, without the copies it turns out
 * not to need (latest first: a message sent when useful may be superseded
 * by a later one, e.g. v[0,0] then v[0,1] to the same processor). */
static ssched_status_t export_best(const ssearch_t *S, const ssched_mk_cluster_t *c,
                                   int exclusive, ssched_mk_schedule_t *out,
                                   ssched_error_t *err)
{
    unsigned char *drop = calloc(S->best_len + 1, 1);
    if (!drop)
        return ssched_i_mk_nomem(err);
    size_t kept = S->best_len;
    for (size_t i = S->best_len; i-- > 0;) {
        drop[i] = 1;
        if (still_valid(S, drop))
            kept--;
        else
            drop[i] = 0;
    }
    ssched_status_t st = ssched_mk_schedule_alloc(out, SSCHED_MK_SCAN, c->n, 0, kept, err);
    if (st != SSCHED_OK) {
        free(drop);
        return st;
    }
    out->exclusive = exclusive != 0;
    for (size_t i = 0, k = 0; i < S->best_len; i++) {
        if (drop[i])
            continue;
        const smsg_t *b = &S->best_msgs[i];
        ssched_mk_message_t *m = &out->msg[k++];
        m->sender = (size_t)b->s;
        m->receiver = (size_t)b->r;
        m->lo = (size_t)S->lo[b->iv];
        m->hi = (size_t)S->hi[b->iv];
        ssched_i_mk_ticks_to_mpq(m->start, b->start, S->scale);
        mpq_add(m->end, m->start, c->time[b->s]);
        if (mpq_cmp(m->end, out->makespan) > 0)
            mpq_set(out->makespan, m->end);
    }
    free(drop);
    ssched_i_mk_sort_messages(out);
    return SSCHED_OK;
}

ssched_status_t ssched_mk_scan_optimal(const ssched_mk_cluster_t *c, int exclusive,
                                       const ssched_mk_limits_t *lim,
                                       ssched_mk_schedule_t *out, ssched_mk_stats_t *stats,
                                       ssched_error_t *err)
{
    ssched_i_mk_stats_reset(stats, "bnb");
    ssched_status_t st = ssched_mk_cluster_validate(c, 0, "root", err);
    if (st != SSCHED_OK)
        return st;
    if (c->n > NMAX)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "scan: the exhaustive search handles at most %d processors, "
                                "not %zu (its space grows like n^(4n))", NMAX, c->n);
    ssearch_t *S = calloc(1, sizeof *S);
    if (!S)
        return ssched_i_mk_nomem(err);
    mpz_init(S->scale);
    S->n = (int)c->n;
    /* the table pays off from 4 processors on; without memory, search on */
    S->memo = c->n >= 4 ? calloc((size_t)1 << MEMO_BITS, sizeof *S->memo) : NULL;
    S->lim = lim;
    for (int a = 0; a < S->n; a++)
        for (int b = a; b < S->n; b++) {
            S->idx[a][b] = S->niv;
            S->lo[S->niv] = a;
            S->hi[S->niv++] = b;
        }
    for (int p = 0; p < S->n; p++)
        S->need[p] = exclusive ? (p ? S->idx[0][p - 1] : -1) : (p ? S->idx[0][p] : -1);
    st = make_ticks(S, c, err);
    if (st == SSCHED_OK) {
        for (int p = 0; p < S->n; p++) {
            S->tmin_other[p] = INT64_MAX;
            for (int q = 0; q < S->n; q++)
                if (q != p && S->tick[q] < S->tmin_other[p])
                    S->tmin_other[p] = S->tick[q];
        }
        /* the chain bounds the search; found again if nothing beats it */
        int64_t chain = 0;
        for (int p = 0; p + 1 < S->n; p++)
            chain += S->tick[p];
        S->best = chain + 1;
        sstate_t st0;
        memset(&st0, 0, sizeof st0);
        for (int p = 0; p < S->n; p++)
            st0.H[p] = st0.Hprev[p] = 1u << S->idx[p][p];
        event(S, &st0);
        if (S->nomem)
            st = ssched_i_mk_nomem(err);
    }
    if (st == SSCHED_OK && stats) {
        stats->nodes = S->nodes;
        stats->leaves = S->leaves;
        stats->complete = !S->stopped;
    }
    if (st == SSCHED_OK) {
        if (S->best_msgs)
            st = export_best(S, c, exclusive, out, err);
        else /* stopped before any leaf */
            st = ssched_mk_scan_chain(c, exclusive, out, err);
    }
    if (st == SSCHED_OK && S->stopped)
        st = ssched_error_set(err, SSCHED_EUNCERTIFIED,
                              "scan: the search stopped after %llu nodes (node limit) without "
                              "proving optimality", (unsigned long long)S->nodes);
    mpz_clear(S->scale);
    free(S->path);
    free(S->best_msgs);
    free(S->memo);
    free(S);
    return st;
}
