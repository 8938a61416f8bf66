/* Unrolled scatters and gossips: routes replayed period after period.
 *
 * The pattern's per-period amounts of each type are decomposed into routes
 * (origin -> destination paths, cycle-free since the builder cancels
 * cycles), route r carrying m_r messages per period: with n operations per
 * period, route r moves the range [O_r, O_r + m_r) of the n messages a
 * type sends per period (O_r: the routes before it), cut at whole messages
 * into pieces.  Each slot transfer of (edge, type) moves the next part of
 * the routes crossing that edge, in route order, so every slot of the
 * pattern is used as the matchings planned it.  Operation batch b moves
 * over hop h of its routes in period b + h, and a piece leaves a node only
 * after the whole range its route brought there (hop h - 1, same batch)
 * has arrived: data dependencies hold by construction, and the left shift
 * (unroll_engine.c) keeps them.
 *
 * Time is counted in ticks of 1/Q, Q the common denominator of every
 * pattern piece's duration, so the replay is int64 arithmetic; piece
 * offsets are exact fractions computed once per pattern piece. */
#include <stdlib.h>
#include <string.h>

#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

typedef struct {
    size_t n_edges, *edges;     /* origin -> dest                            */
    size_t type;
    mpq_t amount, offset;       /* m_r and O_r                               */
} route_t;

/* One pattern piece: part of route r's hop h, within operation q of the
 * batch, [off, off+len) of that message. */
typedef struct {
    size_t edge, type, route, hop;
    size_t q;
    mpq_t off, len, dur;
    int64_t ticks;
    int64_t bamt;               /* len in buffer units (len * bu)           */
    char *json;                 /* NULL when whole                          */
} ppiece_t;

typedef struct {
    size_t n_routes, n_pieces, cap;
    route_t *routes;
    ppiece_t *pieces;
    size_t max_hops;
} pattern_t;

static void pattern_free(pattern_t *pt)
{
    for (size_t r = 0; r < pt->n_routes; r++) {
        free(pt->routes[r].edges);
        mpq_clears(pt->routes[r].amount, pt->routes[r].offset, NULL);
    }
    for (size_t k = 0; k < pt->n_pieces; k++) {
        mpq_clears(pt->pieces[k].off, pt->pieces[k].len, pt->pieces[k].dur, NULL);
        free(pt->pieces[k].json);
    }
    free(pt->routes);
    free(pt->pieces);
}

/* Greedy path decomposition of each type's per-period amounts. */
static ssched_status_t make_routes(const ssched_platform_t *p, const ssched_schedule_t *s,
                                   pattern_t *pt, ssched_error_t *err)
{
    size_t ne = p->n_edges, nt = s->n_commodities;
    mpq_t *f = ssched_i_mpq_vec_new(ne * nt);
    size_t *path = malloc((p->n_nodes + 1) * sizeof *path);
    if (!f || !path) {
        ssched_i_mpq_vec_free(f, ne * nt);
        free(path);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < s->n_slots; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers; t++) {
            const ssched_transfer_t *tr = &s->slots[k].transfers[t];
            mpq_add(f[tr->type * ne + tr->edge], f[tr->type * ne + tr->edge], tr->amount);
        }
    ssched_status_t st = SSCHED_OK;
    mpq_t b, off;
    mpq_inits(b, off, NULL);
    for (size_t d = 0; d < nt && st == SSCHED_OK; d++) {
        mpq_t *fd = f + d * ne;
        size_t o = s->commodities[d].origin, dest = s->commodities[d].dest;
        mpq_set_ui(off, 0, 1);
        for (;;) {
            /* walk from the origin along positive flow */
            size_t at = o, len = 0;
            while (at != dest && len <= p->n_nodes) {
                size_t next = ne;
                for (size_t e = 0; e < ne && next == ne; e++)
                    if (p->from[e] == at && mpq_sgn(fd[e]) > 0)
                        next = e;
                if (next == ne)
                    break;
                path[len++] = next;
                at = p->to[next];
            }
            if (len == 0)
                break; /* nothing leaves the origin any more */
            if (at != dest || len > p->n_nodes) {
                st = ssched_error_set(err, SSCHED_EINTERNAL,
                                      "pattern flow of a type does not decompose into routes");
                break;
            }
            mpq_set(b, fd[path[0]]);
            for (size_t h = 1; h < len; h++)
                if (mpq_cmp(fd[path[h]], b) < 0)
                    mpq_set(b, fd[path[h]]);
            for (size_t h = 0; h < len; h++)
                mpq_sub(fd[path[h]], fd[path[h]], b);
            route_t *r = realloc(pt->routes, (pt->n_routes + 1) * sizeof *r);
            size_t *edges = malloc(len * sizeof *edges);
            if (!r || !edges) {
                if (r)
                    pt->routes = r;
                free(edges);
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                break;
            }
            pt->routes = r;
            r = &pt->routes[pt->n_routes++];
            memcpy(edges, path, len * sizeof *edges);
            r->edges = edges;
            r->n_edges = len;
            r->type = d;
            mpq_inits(r->amount, r->offset, NULL);
            mpq_set(r->amount, b);
            mpq_set(r->offset, off);
            mpq_add(off, off, b);
            if (len > pt->max_hops)
                pt->max_hops = len;
        }
        if (st == SSCHED_OK && mpq_cmp_z(off, s->ops_per_period) != 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL,
                                  "the routes of a type do not carry its operations per period");
    }
    mpq_clears(b, off, NULL);
    ssched_i_mpq_vec_free(f, ne * nt);
    free(path);
    return st;
}

static int add_piece(pattern_t *pt, const ssched_platform_t *p, const ssched_problem_t *pb,
                     size_t edge, size_t type, size_t route, size_t hop, const mpq_t lo,
                     const mpq_t hi)
{
    if (pt->n_pieces == pt->cap) {
        size_t cap = pt->cap ? 2 * pt->cap : 64;
        ppiece_t *x = realloc(pt->pieces, cap * sizeof *x);
        if (!x)
            return 0;
        pt->pieces = x;
        pt->cap = cap;
    }
    ppiece_t *x = &pt->pieces[pt->n_pieces];
    mpz_t q;
    mpz_init(q);
    mpz_fdiv_q(q, mpq_numref(lo), mpq_denref(lo));
    x->q = mpz_get_ui(q);
    mpq_inits(x->off, x->len, x->dur, NULL);
    mpq_set_z(x->off, q);
    mpq_sub(x->off, lo, x->off);
    mpq_sub(x->len, hi, lo);
    mpq_mul(x->dur, x->len, p->c[edge]);
    mpq_mul(x->dur, x->dur, pb->size);
    mpz_clear(q);
    x->edge = edge;
    x->type = type;
    x->route = route;
    x->hop = hop;
    x->json = NULL;
    x->ticks = 0;
    x->bamt = 0;
    if (mpq_sgn(x->off) != 0 || mpq_cmp_ui(x->len, 1, 1) != 0) {
        char *a = mpq_get_str(NULL, 10, x->off), *b = mpq_get_str(NULL, 10, x->len);
        size_t n = (a ? strlen(a) : 0) + (b ? strlen(b) : 0) + 16;
        x->json = a && b ? malloc(n) : NULL;
        if (x->json)
            snprintf(x->json, n, "[\"%s\", \"%s\"]", a, b);
        void (*freefunc)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &freefunc);
        if (a)
            freefunc(a, strlen(a) + 1);
        if (b)
            freefunc(b, strlen(b) + 1);
        if (!x->json) {
            mpq_clears(x->off, x->len, x->dur, NULL);
            return 0;
        }
    }
    pt->n_pieces++;
    return 1;
}

/* Cut each slot transfer into pattern pieces: the next part of the routes
 * crossing its edge (in route order), at whole-message boundaries. */
static ssched_status_t make_pieces(const ssched_platform_t *p, const ssched_problem_t *pb,
                                   const ssched_schedule_t *s, pattern_t *pt, ssched_error_t *err)
{
    size_t ne = p->n_edges, nt = s->n_commodities;
    /* cursor per (type, edge): the route it is in and how far */
    size_t *cur_route = ssched_i_calloc(ne * nt, sizeof *cur_route);
    mpq_t *done = ssched_i_mpq_vec_new(ne * nt);
    if (!cur_route || !done) {
        free(cur_route);
        ssched_i_mpq_vec_free(done, ne * nt);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    }
    ssched_status_t st = SSCHED_OK;
    mpq_t want, lo, hi, room, cut;
    mpq_inits(want, lo, hi, room, cut, NULL);
    for (size_t k = 0; k < s->n_slots && st == SSCHED_OK; k++)
        for (size_t t = 0; t < s->slots[k].n_transfers && st == SSCHED_OK; t++) {
            const ssched_transfer_t *tr = &s->slots[k].transfers[t];
            size_t key = tr->type * ne + tr->edge;
            mpq_set(want, tr->amount);
            while (mpq_sgn(want) > 0 && st == SSCHED_OK) {
                /* the current route of this (type, edge), hop of the edge */
                size_t r = cur_route[key], hop = 0;
                for (; r < pt->n_routes; r++) {
                    const route_t *x = &pt->routes[r];
                    if (x->type != tr->type)
                        continue;
                    for (hop = 0; hop < x->n_edges && x->edges[hop] != tr->edge; hop++)
                        ;
                    if (hop < x->n_edges && mpq_cmp(done[key], x->amount) < 0)
                        break;
                    if (hop < x->n_edges)
                        mpq_set_ui(done[key], 0, 1); /* finished: on to the next route */
                }
                if (r == pt->n_routes) {
                    st = ssched_error_set(err, SSCHED_EINTERNAL,
                                          "a slot carries more than the routes of its edge");
                    break;
                }
                cur_route[key] = r;
                const route_t *x = &pt->routes[r];
                mpq_sub(room, x->amount, done[key]);
                if (mpq_cmp(room, want) > 0)
                    mpq_set(room, want);
                /* material [lo, lo + room), cut at whole messages */
                mpq_add(lo, x->offset, done[key]);
                mpq_add(hi, lo, room);
                while (mpq_cmp(lo, hi) < 0) {
                    mpz_fdiv_q(mpq_numref(cut), mpq_numref(lo), mpq_denref(lo));
                    mpz_add_ui(mpq_numref(cut), mpq_numref(cut), 1);
                    mpz_set_ui(mpq_denref(cut), 1);
                    if (mpq_cmp(cut, hi) > 0)
                        mpq_set(cut, hi);
                    if (!add_piece(pt, p, pb, tr->edge, tr->type, r, hop, lo, cut)) {
                        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
                        break;
                    }
                    mpq_set(lo, cut);
                }
                mpq_add(done[key], done[key], room);
                mpq_sub(want, want, room);
            }
        }
    mpq_clears(want, lo, hi, room, cut, NULL);
    ssched_i_mpq_vec_free(done, ne * nt);
    free(cur_route);
    return st;
}

/* Whole messages (s->unroll_whole): operation t's message of type d takes
 * one route, the one furthest below its share m_r / n (cumulative counts,
 * so each route stays within one message of its rate), and moves whole over
 * hop h in period batch + h, at the place of the route's first pattern
 * piece for that hop.  The left shift makes it valid whatever the pattern
 * planned. */
typedef struct {
    size_t H, nt;
    size_t n;
    size_t *route_of;          /* [(batch % (H+1)) * nt * n + d * n + q]    */
    int64_t *arrived;          /* same index: the message's last arrival    */
    double *count;             /* per route: messages assigned so far       */
    double *share;             /* per route: m_r / n                        */
    size_t *first, *next;      /* the routes of each type, in route order   */
} whole_t;

static void assign_batch(whole_t *w, const pattern_t *pt, size_t batch)
{
    size_t base = (batch % (w->H + 1)) * w->nt * w->n;
    for (size_t d = 0; d < w->nt; d++)
        for (size_t q = 0; q < w->n; q++) {
            /* the route with the largest deficit share * (t+1) - count;
             * shares as doubles only choose among routes (any choice is
             * valid; exactness is in the times) */
            double t = (double)(batch * w->n + q) + 1, best = -1e300;
            size_t pick = SIZE_MAX;
            for (size_t r = w->first[d]; r < pt->n_routes; r = w->next[r]) {
                double deficit = w->share[r] * t - w->count[r];
                if (deficit > best) {
                    best = deficit;
                    pick = r;
                }
            }
            if (pick != SIZE_MAX)
                w->count[pick] += 1;
            w->route_of[base + d * w->n + q] = pick;
            w->arrived[base + d * w->n + q] = 0;
        }
}

static ssched_status_t replay_whole(sched_engine_t *e, const pattern_t *pt, size_t K,
                                    size_t n, size_t periods, size_t batches,
                                    const int64_t *whole_ticks, ssched_error_t *err)
{
    const ssched_schedule_t *s = e->s;
    whole_t w = {pt->max_hops ? pt->max_hops : 1, s->n_commodities, n, NULL, NULL, NULL, NULL,
                 NULL, NULL};
    size_t cells = (w.H + 1) * (w.nt ? w.nt : 1) * n;
    w.route_of = malloc(cells * sizeof *w.route_of);
    w.arrived = malloc(cells * sizeof *w.arrived);
    w.count = ssched_i_calloc(pt->n_routes, sizeof *w.count);
    w.share = ssched_i_calloc(pt->n_routes, sizeof *w.share);
    for (size_t r = 0; w.share && r < pt->n_routes; r++)
        w.share[r] = mpq_get_d(pt->routes[r].amount) / (double)n;
    w.first = ssched_i_alloc(w.nt, sizeof *w.first);
    w.next = ssched_i_alloc(pt->n_routes, sizeof *w.next);
    for (size_t d = 0; w.first && d < w.nt; d++)
        w.first[d] = pt->n_routes;
    for (size_t r = pt->n_routes; w.first && w.next && r-- > 0;) {
        w.next[r] = w.first[pt->routes[r].type];
        w.first[pt->routes[r].type] = r;
    }
    /* lead[k]: piece k is the first of its (route, hop) in the pattern */
    unsigned char *lead = ssched_i_calloc(pt->n_pieces, 1);
    unsigned char *seen = calloc(pt->n_routes * w.H + 1, 1);
    ssched_status_t st = SSCHED_OK;
    if (!w.route_of || !w.arrived || !w.count || !w.share || !w.first || !w.next || !lead ||
        !seen)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    for (size_t k = 0; k < pt->n_pieces && st == SSCHED_OK; k++) {
        size_t key = pt->pieces[k].route * w.H + pt->pieces[k].hop;
        lead[k] = !seen[key];
        seen[key] = 1;
    }
    for (size_t b = 0; b < periods && st == SSCHED_OK; b++) {
        ssched_i_sched_engine_period(e, b);
        if (b < batches)
            assign_batch(&w, pt, b);
        for (size_t k = 0; k < pt->n_pieces && st == SSCHED_OK; k++) {
            const ppiece_t *x = &pt->pieces[k];
            if (!lead[k] || b < x->hop || b - x->hop >= batches)
                continue;
            size_t batch = b - x->hop, d = x->type;
            size_t base = (batch % (w.H + 1)) * w.nt * n + d * n;
            for (size_t q = 0; q < n && st == SSCHED_OK; q++) {
                size_t op = (unsigned long)batch * n + q;
                if (op >= K || w.route_of[base + q] != x->route)
                    continue;
                int64_t end;
                st = ssched_i_sched_emit_piece(e, x->edge, d, op, whole_ticks[x->edge], NULL, NULL, NULL,
                                      e->buf.bu, w.arrived[base + q], &end, err);
                w.arrived[base + q] = end;
            }
        }
        if (st == SSCHED_OK)
            st = ssched_i_sched_engine_flush(e, 0, err);
    }
    free(w.route_of);
    free(w.arrived);
    free(w.count);
    free(w.share);
    free(w.first);
    free(w.next);
    free(lead);
    free(seen);
    return st;
}

/* Routed platforms: the pieces of one period are independent (hop h of
 * batch b - h), and the engine places them in pattern order, each as
 * early as the links allow.  The pattern's one slot lists them by edge:
 * sender 0 to everyone, then sender 1, ..., so a gossip's first messages
 * take every receiver's down-link at once and later ones wait (20 % over
 * K/TP on cluster_backbone).  Shift rounds instead: the hops from a to b
 * with (pos(b) - pos(a)) mod m = r, r = 1 .. m-1 (pos: rank among the m
 * hosts the pieces touch), each round a permutation: one message per
 * up-link and per down-link, and on a fat tree with D-mod-k routing (the
 * SimGrid cluster's) a shift is non-blocking.  A stable sort: within a
 * round, pattern order. */
typedef struct {
    size_t key, idx;
} shift_key_t;

static int cmp_shift(const void *x, const void *y)
{
    const shift_key_t *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int shift_order(const ssched_platform_t *p, pattern_t *pt)
{
    size_t nn = p->n_nodes, m = 0, np = pt->n_pieces;
    size_t *pos = ssched_i_alloc(nn, sizeof *pos);
    shift_key_t *k = ssched_i_alloc(np ? np : 1, sizeof *k);
    ppiece_t *tmp = ssched_i_alloc(np ? np : 1, sizeof *tmp);
    if (!pos || !k || !tmp) {
        free(pos); free(k); free(tmp);
        return 0;
    }
    for (size_t v = 0; v < nn; v++)
        pos[v] = SIZE_MAX;
    for (size_t i = 0; i < np; i++) {
        pos[p->from[pt->pieces[i].edge]] = 0;
        pos[p->to[pt->pieces[i].edge]] = 0;
    }
    for (size_t v = 0; v < nn; v++)
        if (pos[v] != SIZE_MAX)
            pos[v] = m++;
    for (size_t i = 0; i < np; i++) {
        size_t a = pos[p->from[pt->pieces[i].edge]], b = pos[p->to[pt->pieces[i].edge]];
        k[i].key = (b + m - a) % m;
        k[i].idx = i;
    }
    qsort(k, np, sizeof *k, cmp_shift);
    for (size_t i = 0; i < np; i++)
        tmp[i] = pt->pieces[k[i].idx]; /* moves the mpq handles: no copy */
    memcpy(pt->pieces, tmp, np * sizeof *tmp);
    free(pos); free(k); free(tmp);
    return 1;
}

ssched_status_t ssched_i_sched_replay_flow(sched_engine_t *e, const ssched_problem_t *pb,
                                  size_t K, size_t *periods_out, ssched_error_t *err)
{
    const ssched_platform_t *p = e->p;
    const ssched_schedule_t *s = e->s;
    pattern_t pt;
    memset(&pt, 0, sizeof pt);
    if (!mpz_fits_ulong_p(s->ops_per_period) || mpz_sgn(s->ops_per_period) == 0)
        return ssched_error_set(err, SSCHED_EINPUT, "operations per period out of range");
    size_t n = mpz_get_ui(s->ops_per_period);
    ssched_status_t st = make_routes(p, s, &pt, err);
    if (st == SSCHED_OK)
        st = make_pieces(p, pb, s, &pt, err);
    if (st == SSCHED_OK && p->routes && !shift_order(p, &pt))
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    size_t batches = (K + n - 1) / n;
    size_t periods = (size_t)batches + (pt.max_hops ? pt.max_hops - 1 : 0);
    mpz_t busy, t;
    mpz_inits(busy, t, NULL);
    /* buffer units: every piece length is a whole number of 1/bu message;
     * when that needs more than 62 bits, the buffers count exact amounts
     * (GMP) and a piece's bamt is its index among the pattern's pieces */
    int whole = s->unroll_whole;
    mpz_set_ui(t, 1);
    for (size_t k = 0; k < pt.n_pieces && st == SSCHED_OK && !whole; k++)
        mpz_lcm(t, t, mpq_denref(pt.pieces[k].len));
    int wide = !whole && mpz_sizeinbase(t, 2) > 62;
    e->buf.bu = whole || wide ? 1 : (int64_t)mpz_get_ui(t);
    if (wide && st == SSCHED_OK) {
        mpq_t *lens = ssched_i_mpq_vec_new(pt.n_pieces);
        for (size_t k = 0; lens && k < pt.n_pieces; k++) {
            mpq_set(lens[k], pt.pieces[k].len);
            pt.pieces[k].bamt = (int64_t)k;
        }
        if (!lens || !ssched_i_sched_buffers_wide(&e->buf, p->n_nodes, lens, pt.n_pieces))
            st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
        ssched_i_mpq_vec_free(lens, pt.n_pieces);
    }
    for (size_t k = 0; k < pt.n_pieces && st == SSCHED_OK && !whole && !wide; k++) {
        /* len <= 1 message, so len * bu <= bu < 2^62 */
        mpz_divexact(busy, t, mpq_denref(pt.pieces[k].len));
        mpz_mul(busy, busy, mpq_numref(pt.pieces[k].len));
        pt.pieces[k].bamt = (int64_t)mpz_get_ui(busy);
    }
    /* the tick: every duration is a whole number of ticks (pieces, or
     * whole messages lasting size * c), and the largest time (all
     * durations and latencies of all periods) fits in 62 bits; else the
     * rounded grid */
    int64_t *whole_ticks = ssched_i_calloc(p->n_edges, sizeof *whole_ticks);
    mpq_t wq, bt;
    mpq_inits(wq, bt, NULL);
    if (!whole_ticks && st == SSCHED_OK)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    mpz_set_ui(e->sc.Q, 1);
    mpz_set_ui(busy, 0);
    for (size_t k = 0; k < pt.n_pieces && st == SSCHED_OK; k++) {
        const ppiece_t *x = &pt.pieces[k];
        if (whole) {
            mpq_mul(wq, p->c[x->edge], pb->size);
            mpz_lcm(e->sc.Q, e->sc.Q, mpq_denref(wq));
        } else {
            mpz_lcm(e->sc.Q, e->sc.Q, mpq_denref(x->dur));
        }
        ssched_i_sched_lcm_latency(p, x->edge, e->sc.Q);
    }
    /* one period: the pieces, or n whole messages per piece (a bound) */
    mpq_set_ui(bt, 0, 1);
    for (size_t k = 0; k < pt.n_pieces && st == SSCHED_OK; k++) {
        const ppiece_t *x = &pt.pieces[k];
        if (whole) {
            mpq_mul(wq, p->c[x->edge], pb->size);
            mpz_set_ui(t, n);
            mpz_mul(mpq_numref(wq), mpq_numref(wq), t);
            mpq_canonicalize(wq);
            mpq_add(bt, bt, wq);
        } else {
            mpq_add(bt, bt, x->dur);
        }
        /* each message also waits its latency (the left shift adds it to
         * the end, so the largest time counts it once per event) */
        ssched_i_sched_add_latency(p, x->edge, whole ? n : 1, bt);
    }
    unsigned long long events = (unsigned long long)pt.n_pieces * (whole ? n : 1);
    mpq_set_z(wq, e->sc.Q);
    mpq_mul(wq, wq, bt);
    mpz_cdiv_q(busy, mpq_numref(wq), mpq_denref(wq));
    mpz_mul_ui(busy, busy, (unsigned long)periods + 1);
    if (st == SSCHED_OK && mpz_sizeinbase(e->sc.Q, 2) <= 62 && mpz_sizeinbase(busy, 2) <= 62)
        ssched_i_sched_scale_exact(&e->sc);
    else if (st == SSCHED_OK)
        st = ssched_i_sched_scale_round(&e->sc, s->period, bt, events, periods, err);
    for (size_t k = 0; k < pt.n_pieces && st == SSCHED_OK; k++) {
        ppiece_t *x = &pt.pieces[k];
        mpq_mul(wq, p->c[x->edge], pb->size);
        int64_t d = ssched_i_sched_dur_ticks(&e->sc, whole ? wq : x->dur);
        if (d < 0)
            st = ssched_error_set(err, SSCHED_EINTERNAL, "a transfer time overflows 62 bits");
        else if (whole)
            whole_ticks[x->edge] = d;
        else
            x->ticks = d;
    }
    mpq_clears(wq, bt, NULL);
    ssched_i_sched_period_ticks(&e->sc, s->period, e->period_ticks);
    e->window = pt.max_hops ? pt.max_hops : 1;
    e->sc.a = 1;
    mpz_clears(busy, t, NULL);
    /* done[(batch % (H+1)) * R * H + r * H + h]: end of route r's hop h */
    size_t H = pt.max_hops ? pt.max_hops : 1, R = pt.n_routes ? pt.n_routes : 1;
    int64_t *donet = st == SSCHED_OK ? calloc((H + 1) * R * H, sizeof *donet) : NULL;
    if (st == SSCHED_OK && !donet)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK && whole) {
        st = replay_whole(e, &pt, K, n, periods, batches, whole_ticks, err);
        periods = 0; /* done: skip the piece replay */
    }
    for (size_t b = 0; b < periods && st == SSCHED_OK; b++) {
        ssched_i_sched_engine_period(e, b);
        if (b < batches)
            memset(donet + (b % (H + 1)) * R * H, 0, R * H * sizeof *donet);
        for (size_t k = 0; k < pt.n_pieces && st == SSCHED_OK; k++) {
            const ppiece_t *x = &pt.pieces[k];
            if (b < x->hop || b - x->hop >= batches)
                continue;
            size_t batch = b - x->hop;
            size_t op = (unsigned long)batch * n + x->q;
            if (op >= K)
                continue;
            int64_t *slot = donet + (batch % (H + 1)) * R * H + x->route * H;
            int64_t ready = x->hop ? slot[x->hop - 1] : 0, end;
            st = ssched_i_sched_emit_piece(e, x->edge, x->type, op, x->ticks, x->off, x->len, x->json,
                                  x->bamt, ready, &end, err);
            if (end > slot[x->hop])
                slot[x->hop] = end;
        }
        if (st == SSCHED_OK)
            st = ssched_i_sched_engine_flush(e, 0, err);
    }
    /* the pattern's piece texts must outlive the events that point to them */
    if (st == SSCHED_OK)
        st = ssched_i_sched_engine_flush(e, 1, err);
    *periods_out = (size_t)batches + (pt.max_hops ? pt.max_hops - 1 : 0);
    free(whole_ticks);
    free(donet);
    pattern_free(&pt);
    return st;
}
