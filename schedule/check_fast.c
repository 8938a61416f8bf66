/* Checker fast path: the transfers of a scatter or gossip file simulated
 * with 64-bit fractions (check_unrolled.c is the reference it follows).
 *
 * Same model as check_unrolled.c: message (type, op) is a set of ranges
 * of [0, 1) at nodes, each there since a time; a transfer moves a range
 * that must be entirely at the sender, arrived by its start; ports (links
 * at a switch; a routed file's SHARED links and, one-port, its hosts'
 * ports) carry one transfer at a time; a message entirely at its
 * destination is done.  The difference is the representation: times and
 * lengths are n/d in 64 bits (the generator's are), compared through
 * 128-bit products, events are scanned without jansson, names are hashed,
 * and nothing is allocated per event.  This path only ever says "valid":
 * at the first thing it cannot represent or that is not right it gives up
 * and the exact checker starts over, so the messages are the reference's.
 *
 * It also measures the buffers (check_internal.h, "buffer_peak"): a relay
 * node holds a range from the start of the transfer bringing it until the
 * end of the one sending it on.  Transfers last a positive time, so when
 * one starts every release that ends by then is known: pending releases
 * sit in a min-heap by end. */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"

typedef struct {
    chk_q64_t lo, hi, since;
    size_t node;
} seg_t;

typedef struct {
    uint64_t key;           /* type * K + op, + 1 (0: empty)                 */
    size_t n, cap;          /* cap <= 2: the segments are inline (no malloc) */
    seg_t *more;
    seg_t inl[2];
} msg_t;

static seg_t *segs(msg_t *m)
{
    return m->cap > 2 ? m->more : m->inl;
}

typedef struct {
    chk_q64_t end, amount;
    size_t node;
} rel_t;

/* The bandwidth phases of a port (link) that a later one may meet. */
typedef struct {
    chk_q64_t lo, hi;
} iv_t;
typedef struct {
    iv_t *iv;
    size_t n, cap;
} busy_t;

typedef struct {
    const chk_t *c;
    size_t K;
    size_t cap, nmsg;
    msg_t *map;
    unsigned char *done;
    chk_q64_t *w, *lat, *held, *peak;
    busy_t *busy;           /* send ports, receive ports (per node), links */
    unsigned char *w_ok;
    rel_t *heap;
    size_t nheap, capheap;
    chk_names_t names;
} fast_t;

static const chk_q64_t ZERO = {0, 1}, ONE = {1, 1};

static size_t slot_of(const fast_t *F, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ (h >> 31)) & (F->cap - 1);
}

/* The message of key, created whole at its origin if new; NULL: no memory. */
static msg_t *get_msg(fast_t *F, uint64_t key, size_t origin)
{
    if (2 * (F->nmsg + 1) > F->cap) {
        size_t cap = F->cap ? 2 * F->cap : 1024;
        msg_t *m = calloc(cap, sizeof *m);
        if (!m)
            return NULL;
        fast_t nf = *F;
        nf.cap = cap;
        for (size_t k = 0; k < F->cap; k++)
            if (F->map[k].key) {
                size_t h = slot_of(&nf, F->map[k].key);
                while (m[h].key)
                    h = (h + 1) & (cap - 1);
                m[h] = F->map[k];
            }
        free(F->map);
        F->map = m;
        F->cap = cap;
    }
    size_t h = slot_of(F, key);
    for (; F->map[h].key; h = (h + 1) & (F->cap - 1))
        if (F->map[h].key == key)
            return &F->map[h];
    msg_t *m = &F->map[h];
    m->key = key;
    m->n = 1;
    m->cap = 2;
    m->inl[0] = (seg_t){ZERO, ONE, ZERO, origin};
    F->nmsg++;
    return m;
}

/* Remove by backward shift (linear probing stays correct). */
static void erase(fast_t *F, msg_t *x)
{
    size_t i = (size_t)(x - F->map);
    if (x->cap > 2)
        free(x->more);
    memset(x, 0, sizeof *x);
    F->nmsg--;
    for (size_t j = (i + 1) & (F->cap - 1); F->map[j].key; j = (j + 1) & (F->cap - 1)) {
        size_t h = slot_of(F, F->map[j].key);
        int between = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!between) {
            F->map[i] = F->map[j];
            memset(&F->map[j], 0, sizeof F->map[j]);
            i = j;
        }
    }
}

/* Split the segment strictly containing x; 0 on ENOMEM. */
static int split_at(msg_t *m, chk_q64_t x)
{
    seg_t *s = segs(m);
    for (size_t k = 0; k < m->n; k++) {
        if (chk_q64_cmp(s[k].lo, x) < 0 && chk_q64_cmp(x, s[k].hi) < 0) {
            if (m->n == m->cap) {
                size_t cap = 2 * m->cap + 2;
                seg_t *ns = malloc(cap * sizeof *ns); /* only for cut messages */
                if (!ns)
                    return 0;
                memcpy(ns, s, m->n * sizeof *ns);
                if (m->cap > 2)
                    free(m->more);
                m->more = s = ns;
                m->cap = cap;
            }
            memmove(&s[k + 2], &s[k + 1], (m->n - k - 1) * sizeof *s);
            m->n++;
            s[k + 1] = s[k];
            s[k + 1].lo = x;
            s[k].hi = x;
            return 1;
        }
    }
    return 1;
}

/* ---- buffers: a min-heap of releases by end ---- */

static void apply_releases(fast_t *F, chk_q64_t now, int *ok)
{
    while (F->nheap && chk_q64_cmp(F->heap[0].end, now) <= 0) {
        rel_t r = F->heap[0], last = F->heap[--F->nheap];
        chk_q64_t neg = {-r.amount.n, r.amount.d};
        *ok &= ssched_i_chk_q64_add(F->held[r.node], neg, &F->held[r.node]);
        size_t i = 0;
        for (;;) { /* sift `last` down from the root */
            size_t a = 2 * i + 1, m = i;
            chk_q64_t at = last.end;
            if (a < F->nheap && chk_q64_cmp(F->heap[a].end, at) < 0)
                m = a, at = F->heap[a].end;
            if (a + 1 < F->nheap && chk_q64_cmp(F->heap[a + 1].end, at) < 0)
                m = a + 1;
            if (m == i)
                break;
            F->heap[i] = F->heap[m];
            i = m;
        }
        if (F->nheap)
            F->heap[i] = last;
    }
}

static int push_release(fast_t *F, rel_t r)
{
    if (F->nheap == F->capheap) {
        size_t cap = F->capheap ? 2 * F->capheap : 256;
        rel_t *h = realloc(F->heap, cap * sizeof *h);
        if (!h)
            return 0;
        F->heap = h;
        F->capheap = cap;
    }
    size_t i = F->nheap++;
    while (i && chk_q64_cmp(r.end, F->heap[(i - 1) / 2].end) < 0) {
        F->heap[i] = F->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    F->heap[i] = r;
    return 1;
}

/* Does end - start equal l + batch * w * len exactly?  (128 bits; 0 also
 * when the products would not fit: the exact checker then decides.) */
static int lasts(chk_q64_t start, chk_q64_t end, chk_q64_t l, chk_q64_t w, chk_q64_t len,
                 uint64_t batch)
{
    chk_i128 a = (chk_i128)end.n * start.d - (chk_i128)start.n * end.d, d = (chk_i128)end.d * start.d;
    chk_i128 rn = (chk_i128)w.n * len.n, rd = (chk_i128)w.d * len.d, x, y, t;
    if (l.n) { /* a/d - l: (a l.d - l.n d) / (d l.d) */
        if (__builtin_mul_overflow(a, (chk_i128)l.d, &x) ||
            __builtin_mul_overflow((chk_i128)l.n, d, &t) || __builtin_sub_overflow(x, t, &a) ||
            __builtin_mul_overflow(d, (chk_i128)l.d, &d))
            return 0;
    }
    if (batch > 1 && __builtin_mul_overflow(rn, (chk_i128)batch, &rn))
        return 0;
    return !__builtin_mul_overflow(a, rd, &x) && !__builtin_mul_overflow(rn, d, &y) && x == y;
}

/* Does [lo, hi) meet a phase kept on the port (pruning those ending by
 * now)?  The rule of check_ports.c. */
static int meets(busy_t *B, chk_q64_t now, chk_q64_t lo, chk_q64_t hi)
{
    size_t w = 0;
    int hit = 0;
    for (size_t k = 0; k < B->n; k++) {
        iv_t x = B->iv[k];
        if (chk_q64_cmp(x.hi, now) <= 0)
            continue;
        if (chk_q64_cmp(x.hi, lo) > 0 && (chk_q64_cmp(x.lo, hi) < 0 || chk_q64_cmp(x.lo, lo) <= 0))
            hit = 1;
        B->iv[w++] = x;
    }
    B->n = w;
    return hit;
}

static int keep(busy_t *B, chk_q64_t lo, chk_q64_t hi)
{
    if (B->n == B->cap) {
        size_t cap = B->cap ? 2 * B->cap : 2;
        iv_t *iv = realloc(B->iv, cap * sizeof *iv);
        if (!iv)
            return 0;
        B->iv = iv;
        B->cap = cap;
    }
    B->iv[B->n++] = (iv_t){lo, hi};
    return 1;
}

static int move_op(fast_t *F, size_t type, uint64_t op, size_t i, size_t j, chk_q64_t start,
                   chk_q64_t end, chk_q64_t off, chk_q64_t hi, chk_q64_t len);

/* One transfer: 1 fine, 0 give up, -1 out of memory. */
static int one(fast_t *F, const chk_ev_t *ev, int whole_only, chk_q64_t *prev, int first,
               chk_q64_t *makespan)
{
    const chk_t *c = F->c;
    const unsigned need = (1u << CHK_F_START) | (1u << CHK_F_END) | (1u << CHK_F_FROM) |
                          (1u << CHK_F_TO) | (1u << CHK_F_ORIGIN) | (1u << CHK_F_DEST) |
                          (1u << CHK_F_OP);
    if ((ev->present & need) != need)
        return 0;
    size_t nn = c->n_nodes, v[4];
    for (int f = CHK_F_FROM; f <= CHK_F_DEST; f++)
        if ((v[f - CHK_F_FROM] = ssched_i_chk_names_find(&F->names, ev->s[f], ev->len[f])) == SIZE_MAX)
            return 0;
    size_t i = v[0], j = v[1], edge = c->edge_at[i * nn + j], type = c->type_at[v[2] * nn + v[3]];
    chk_q64_t start, end, off = ZERO, len = ONE, hi;
    if (edge == (size_t)-1 || type == (size_t)-1 || !F->w_ok[edge] ||
        !ssched_i_chk_q64_parse(ev->s[CHK_F_START], ev->len[CHK_F_START], &start) ||
        !ssched_i_chk_q64_parse(ev->s[CHK_F_END], ev->len[CHK_F_END], &end))
        return 0;
    if ((ev->present >> CHK_F_PIECE & 1) &&
        (!ssched_i_chk_q64_parse(ev->s[CHK_F_PIECE], ev->len[CHK_F_PIECE], &off) ||
         !ssched_i_chk_q64_parse(ev->s[CHK_F_PIECE_LEN], ev->len[CHK_F_PIECE_LEN], &len)))
        return 0;
    uint64_t batch = ev->present >> CHK_F_BATCH & 1 ? ev->batch : 1;
    /* in start order, a positive piece within [0, 1), lasting
     * l + batch*len*size*c, a batch of operations all below K */
    if ((!first && chk_q64_cmp(start, *prev) < 0) || ev->op >= F->K || batch == 0 ||
        batch > F->K - ev->op || len.n == 0 || !ssched_i_chk_q64_add(off, len, &hi) ||
        chk_q64_cmp(hi, ONE) > 0 || (whole_only && (off.n != 0 || len.n != len.d)) ||
        !lasts(start, end, F->lat[edge], F->w[edge], len, batch))
        return 0;
    *prev = start;
    /* the ports (links at a switch) in the bandwidth phase [start + l, end) */
    chk_q64_t lo = start;
    if (F->lat[edge].n && !ssched_i_chk_q64_add(start, F->lat[edge], &lo))
        return 0;
    int si = chk_multi(c, i), sj = chk_multi(c, j);
    busy_t *res[3] = {si ? NULL : &F->busy[i], sj ? NULL : &F->busy[nn + j],
                      si || sj ? &F->busy[2 * nn + edge] : NULL};
    if (c->routed) {
        /* docs/model.md, routed schedules (check_ports.c): the host ports only when one-port, no
         * link per edge, and every SHARED link of the route (below) */
        res[0] = c->hosts_one_port ? &F->busy[i] : NULL;
        res[1] = c->hosts_one_port ? &F->busy[nn + j] : NULL;
        res[2] = NULL;
    }
    for (int r = 0; r < 3; r++)
        if (res[r] && meets(res[r], start, lo, end))
            return 0;
    /* routed SHARED links held one phase at a time: stricter than the
     * shares rule (check_ports.c), so a file whose flows share a link
     * (share < 1 each) leaves this path for the exact checker */
    size_t r0 = c->routed ? c->route_start[edge] : 0, r1 = c->routed ? c->route_start[edge + 1] : 0;
    busy_t *links = F->busy + 2 * nn + c->n_edges;
    for (size_t r = r0; r < r1; r++)
        if (!c->fatpipe[c->route_links[r]] && meets(&links[c->route_links[r]], start, lo, end))
            return 0;
    for (int r = 0; r < 3; r++)
        if (res[r] && !keep(res[r], lo, end))
            return -1;
    for (size_t r = r0; r < r1; r++)
        if (!c->fatpipe[c->route_links[r]] && !keep(&links[c->route_links[r]], lo, end))
            return -1;
    if (chk_q64_cmp(end, *makespan) > 0)
        *makespan = end;
    /* a batch: each operation's range moves as if alone */
    for (uint64_t b = 0; b < batch; b++) {
        int r = move_op(F, type, ev->op + b, i, j, start, end, off, hi, len);
        if (r != 1)
            return r;
    }
    return 1;
}

/* Operation op's range [off, hi) of message type from i to j. */
static int move_op(fast_t *F, size_t type, uint64_t op, size_t i, size_t j, chk_q64_t start,
                   chk_q64_t end, chk_q64_t off, chk_q64_t hi, chk_q64_t len)
{
    const chk_t *c = F->c;
    size_t origin = c->type_origin[type], dest = c->type_dest[type];
    uint64_t id = (uint64_t)type * F->K + op;
    if ((F->done[id / 8] >> (id % 8) & 1) || i == dest)
        return 0;
    msg_t *m = get_msg(F, id + 1, origin);
    if (!m || !split_at(m, off) || !split_at(m, hi))
        return -1;
    /* the segments partition [0, 1) and lo, hi are now boundaries: those
     * within [lo, hi) tile it exactly */
    seg_t *s = segs(m);
    for (size_t k = 0; k < m->n; k++)
        if (chk_q64_cmp(s[k].lo, off) >= 0 && chk_q64_cmp(s[k].hi, hi) <= 0) {
            if (s[k].node != i || chk_q64_cmp(s[k].since, start) > 0)
                return 0;
            s[k].node = j;
            s[k].since = end;
        }
    /* merge neighbours at one node that have both arrived by now: later
     * events start no earlier and cannot tell them apart */
    size_t w = 0, all_dest = s[0].node == dest;
    for (size_t k = 1; k < m->n; k++) {
        all_dest &= s[k].node == dest;
        if (s[w].node == s[k].node && chk_q64_cmp(s[w].since, start) <= 0 &&
            chk_q64_cmp(s[k].since, start) <= 0 && chk_q64_cmp(s[w].hi, s[k].lo) == 0) {
            s[w].hi = s[k].hi;
            if (chk_q64_cmp(s[k].since, s[w].since) > 0)
                s[w].since = s[k].since;
        } else {
            s[++w] = s[k];
        }
    }
    m->n = w + 1;
    if (all_dest) {
        F->done[id / 8] |= (unsigned char)(1u << (id % 8));
        erase(F, m);
    }
    /* buffers: j holds the range from now unless it is its destination; i
     * stops holding it at the end unless it originated it */
    int ok = 1;
    if (j != dest) {
        apply_releases(F, start, &ok);
        ok &= ssched_i_chk_q64_add(F->held[j], len, &F->held[j]);
        if (chk_q64_cmp(F->held[j], F->peak[j]) > 0)
            F->peak[j] = F->held[j];
    }
    if (i != origin && !push_release(F, (rel_t){end, len, i}))
        return -1;
    return ok;
}

static void fast_free(fast_t *F)
{
    for (size_t k = 0; k < F->cap; k++)
        if (F->map[k].key && F->map[k].cap > 2)
            free(F->map[k].more);
    free(F->map);
    for (size_t r = 0; F->busy && r < 2 * F->c->n_nodes + F->c->n_edges + F->c->n_links; r++)
        free(F->busy[r].iv);
    free(F->busy);
    free(F->done); free(F->w); free(F->lat);
    free(F->held); free(F->peak);
    free(F->w_ok); free(F->heap);
    ssched_i_chk_names_free(&F->names);
}

/* Walk the array: 1 all fine, 0 give up, -1 out of memory. */
static int walk(fast_t *F, const chk_extent_t *tr, int whole_only, chk_q64_t *makespan,
                size_t *count)
{
    const char *b = tr->buf;
    size_t n = tr->end, pos = ssched_i_chk_skip_ws(b, n, tr->begin + 1), dropped = pos, k = 0;
    chk_q64_t prev = ZERO;
    chk_ev_t evs; /* with 2 KB of scratch for decoded strings */
    chk_ev_t *ev = &evs;
    int r = 1;
    if (pos < n && b[pos] == ']')
        pos++;
    else
        for (;;) {
            if (!ssched_i_chk_scan_transfer(b, n, &pos, ev) ||
                (r = one(F, ev, whole_only, &prev, k == 0, makespan)) != 1)
                return r == 1 ? 0 : r;
            k++;
            pos = ssched_i_chk_skip_ws(b, n, pos);
            if (pos < n && b[pos] == ']') {
                pos++;
                break;
            }
            if (pos >= n || b[pos] != ',')
                return 0;
            pos = ssched_i_chk_skip_ws(b, n, pos + 1);
            /* the pages read are released every 64 MB (check_stream.c) */
            if (tr->mapped && pos - dropped > ((size_t)64 << 20)) {
                ssched_i_chk_drop_pages(b, dropped, pos);
                dropped = pos;
            }
        }
    *count = k;
    return pos == n;
}

int ssched_i_chk_fast_unrolled(chk_t *c, const chk_extent_t *tr, size_t K, int whole_only,
                      mpq_t buf_peak, size_t *buf_node, size_t *n_transfers)
{
    size_t nn = c->n_nodes, ne = c->n_edges, nt = c->n_types;
    /* reduces, commutative ones (sets) included, take the exact path */
    if (c->reduce || c->comm || !c->edge_at || !c->type_at || !tr->present || nn == 0 ||
        (nt && K > ((uint64_t)1 << 40) / nt))
        return 0;
    fast_t F;
    memset(&F, 0, sizeof F);
    F.c = c;
    F.K = K;
    F.done = calloc(((uint64_t)nt * K + 7) / 8 + 1, 1);
    F.held = calloc(nn, sizeof *F.held);
    F.peak = calloc(nn, sizeof *F.peak);
    F.busy = calloc(2 * nn + ne + c->n_links, sizeof *F.busy); /* a routed file's links last */
    F.w = calloc(ne + 1, sizeof *F.w);
    F.lat = calloc(ne + 1, sizeof *F.lat);
    F.w_ok = calloc(ne + 1, 1);
    int r = 1;
    if (!F.done || !F.held || !F.peak || !F.busy || !F.w || !F.lat || !F.w_ok ||
        !ssched_i_chk_names_build(&F.names, c))
        r = -1;
    for (size_t v = 0; v < nn && r == 1; v++)
        F.held[v] = F.peak[v] = ZERO;
    /* per edge, c * size if it fits in 64 bits (else its transfers go to
     * the exact checker) */
    mpq_t q;
    mpq_init(q);
    for (size_t e = 0; e < ne && r == 1; e++) {
        mpq_mul(q, c->cost[e], c->size);
        F.w_ok[e] = mpz_fits_slong_p(mpq_numref(q)) && mpz_fits_slong_p(mpq_denref(q));
        if (F.w_ok[e])
            F.w[e] = (chk_q64_t){mpz_get_si(mpq_numref(q)), mpz_get_si(mpq_denref(q))};
        /* the latency too (0 without) */
        F.lat[e] = ZERO;
        mpq_srcptr l = c->lat ? c->lat[e] : NULL;
        if (l && mpq_sgn(l)) {
            F.w_ok[e] &= mpz_fits_slong_p(mpq_numref(l)) && mpz_fits_slong_p(mpq_denref(l));
            if (F.w_ok[e])
                F.lat[e] = (chk_q64_t){mpz_get_si(mpq_numref(l)), mpz_get_si(mpq_denref(l))};
        }
    }
    chk_q64_t makespan = ZERO;
    size_t count = 0;
    if (r == 1)
        r = walk(&F, tr, whole_only, &makespan, &count);
    /* every message is delivered (else the exact checker says which not) */
    for (uint64_t id = 0; r == 1 && id < (uint64_t)nt * K; id++) {
        size_t t = (size_t)(id / K);
        if (!(F.done[id / 8] >> (id % 8) & 1) && c->type_origin[t] != c->type_dest[t])
            r = 0;
    }
    if (r == 1) {
        size_t best = 0;
        for (size_t v = 1; v < nn; v++)
            if (chk_q64_cmp(F.peak[v], F.peak[best]) > 0)
                best = v;
        mpq_set_si(buf_peak, F.peak[best].n, (unsigned long)F.peak[best].d);
        mpq_canonicalize(buf_peak);
        *buf_node = best;
        mpq_set_si(c->makespan, makespan.n, (unsigned long)makespan.d);
        mpq_canonicalize(c->makespan);
        *n_transfers = count;
    }
    mpq_clear(q);
    fast_free(&F);
    return r;
}
