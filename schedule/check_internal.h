/* Private state of the independent checker (schedule/check*.c). */
#ifndef SSCHED_SCHEDULE_CHECK_INTERNAL_H
#define SSCHED_SCHEDULE_CHECK_INTERNAL_H

#include <jansson.h>
#include <stdint.h>

#include "ssched/schedule.h"
#include "src/util/internal.h"

typedef struct {
    size_t n_nodes, n_edges, n_types;
    char **names;
    size_t *from, *to;
    mpq_t *cost;
    mpq_t *lat;                    /* per edge: latency l(e) >= 0 ("l",
                                      0 when absent): a transfer lasts
                                      l + batch*length*size*c and holds its
                                      ports only in [start + l, end)    */
    int has_lat;                   /* some l(e) > 0                      */
    int *has_w;
    unsigned char *multi;          /* per node: 1 = switch ("ports":
                                      "multi": each incident link is its own
                                      resource), 0 = one-port (default)   */
    mpq_t *w;                      /* task time per node (reduce)       */
    int reduce;                    /* reduce: types are intervals        */
    int allreduce;                 /* allreduce: a reduce to `target` (the
                                      root) whose file also carries copies
                                      ("copy": true, type CHK_COPY) and
                                      arborescences (check_allreduce.c)   */
    size_t N, target;              /* reduce: participants, target       */
    size_t *participants;          /* broadcast: the N targets           */
    size_t *type_origin, *type_dest; /* scatter/gossip: (origin, dest);
                                      reduce: (k, m) of the interval     */
    int comm;                      /* commutative reduce: types are the
                                      sets met so far (check_commut.c)   */
    ssched_sets_t sets;
    uint64_t *scratch;             /* sets.words words                   */
    int scan, exclusive;           /* scan (issue 27): reduce is set too
                                      (interval types, participants);
                                      participant j must end with v[0,j]
                                      (exclusive: v[0,j-1]); values are
                                      copied, never consumed
                                      (check_unrolled_scan.c)             */
    int bcast;                     /* broadcast: one type (type 0), no
                                      origin/dest in transfers            */
    size_t source;                 /* broadcast                          */
    /* The routed model (docs/model.md; check_routes.c): "model": "routed" in
     * the platform object.  Edge e crosses the links route_links[
     * route_start[e] .. route_start[e+1]-1]; c(e) and l(e) were checked to
     * be the route's largest link c and its latency sum.  Periodic files:
     * link loads replace the matching rule; unrolled files: a transfer's
     * bandwidth phase takes the share link_c(L) / c(e) of every SHARED link
     * L of its route (the shares on L sum to <= 1 at every instant,
     * check_ports.c), and the host ports only when hosts_one_port.  multi[] is all 0 in a routed file. */
    int routed, hosts_one_port;
    size_t n_links;
    char **link_names;
    mpq_t *link_c, *link_lat;
    unsigned char *fatpipe;        /* per link: 1 FATPIPE, 0 SHARED       */
    size_t *route_start, *route_links;
    mpq_t *link_busy;              /* periodic scratch: n_links + 2 n_nodes,
                                      all 0 between slots                  */
    mpq_t size, throughput;
    mpq_t makespan;                /* unrolled: end of the last event     */
    /* lookups for files with many events (ssched_i_chk_index): names sorted, and
     * edge and type numbers per (node, node); NULL until built */
    size_t *by_name, *edge_at, *type_at;
    ssched_check_report_t *report;
    ssched_error_t *err;
    const ssched_check_options_t *opt; /* never NULL once checking       */
} chk_t;

/* Did a failed json_loadb run out of memory?  jansson says so with
 * json_error_out_of_memory in some places and, in others (a container it
 * cannot allocate), returns NULL leaving the error as initialised: no
 * text, line -1.  Every syntax error has a text. */
static inline int chk_json_oom(const json_error_t *e)
{
    return json_error_code(e) == json_error_out_of_memory || (e->text[0] == 0 && e->line < 0);
}

/* The type ssched_i_chk_transfer gives an all-reduce's copies. */
#define CHK_COPY ((size_t)-2)

SSCHED_INTERNAL void ssched_i_chk_init(chk_t *c);
SSCHED_INTERNAL void ssched_i_chk_free(chk_t *c);
/* Record the first violation; returns 0 so callers can `return ssched_i_chk_violation(...)`. */
SSCHED_INTERNAL int ssched_i_chk_violation(chk_t *c, const char *fmt,
                                           ...) __attribute__((format(printf, 2, 3)));
/* A malformed file: SSCHED_EINPUT with the message. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_bad(chk_t *c, const char *fmt,
                                                 ...) __attribute__((format(printf, 2, 3)));
SSCHED_INTERNAL ssched_status_t ssched_i_chk_get_q(chk_t *c, json_t *obj, const char *key,
                                                   const char *where, mpq_t out);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_get_node(chk_t *c, json_t *obj, const char *key,
                                                      const char *where, size_t *out);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_transfer(chk_t *c, json_t *x, const char *where,
                                                      size_t *edge, size_t *type);
/* SSCHED_EINPUT naming the first key of obj not in the NULL-terminated
 * allowed list (or if obj is not an object). */
/* Periodic files: slot k's keys (start, end, transfers) and its span read
 * into start, end; a violation unless prev <= start < end <= period; prev
 * becomes end.  Errors are malformed input (status); misplacement is a
 * violation (report->valid cleared). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_slot_span(chk_t *c, json_t *sl, size_t k,
                                                       const char *where, mpq_srcptr period,
                                                       mpq_t prev, mpq_t start, mpq_t end);
/* A slot's per-transfer scratch (edge indices, amounts) grown to hold n,
 * new amounts initialised; *cap counts the initialised ones (freed by the
 * caller).  ENOMEM on failure, the arrays left valid. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_slot_room(chk_t *c, size_t n, size_t **edge,
                                                       mpq_t **amount, size_t *cap);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_keys(chk_t *c, json_t *obj, const char *where,
                                                  const char *const *allowed);
SSCHED_INTERNAL size_t ssched_i_chk_edge(const chk_t *c, size_t from, size_t to);
/* Is node i a switch of the file's platform? */
static inline int chk_multi(const chk_t *c, size_t i)
{
    return c->multi && c->multi[i];
}
/* Build the lookups above (scatter and gossip types; reduce has none);
 * without memory the linear searches stay in use. */
SSCHED_INTERNAL void ssched_i_chk_index(chk_t *c);
SSCHED_INTERNAL size_t ssched_i_chk_type(const chk_t *c, size_t origin, size_t dest);

/* Reduce types, ordered or commutative (check_commut.c).  ssched_i_chk_read_set:
 * a JSON set (increasing participant indices) -> its type, interned.
 * ssched_i_chk_comp_types: a computation's result and input types t[0..2] from
 * "task" [k,l,m] (ordered) or "merge" [[a],[b]] (commutative; inputs
 * sharing a participant are a recorded violation).  ssched_i_chk_type_own: the
 * participant k whose own value the type is ([k,k] or {k}), else
 * SIZE_MAX; ssched_i_chk_type_full: the complete result; ssched_i_chk_full_type: its type
 * (SIZE_MAX on ENOMEM).  ssched_i_chk_commut_collect: numbers every set of a
 * periodic file's slots and computations, so n_types covers them.
 * ssched_i_chk_commut_result: 1 if the simulated value ("k.op;" tokens) holds every
 * participant exactly once for op, 0 if not, -1 out of memory. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_read_set(chk_t *c, json_t *a, const char *where,
                                                      size_t *set);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_comp_types(chk_t *c, json_t *x, const char *where,
                                                        size_t t[3]);
SSCHED_INTERNAL size_t ssched_i_chk_type_own(const chk_t *c, size_t type);
SSCHED_INTERNAL int ssched_i_chk_type_full(const chk_t *c, size_t type);
SSCHED_INTERNAL size_t ssched_i_chk_full_type(chk_t *c);
SSCHED_INTERNAL void ssched_i_chk_type_name(const chk_t *c, size_t type, char *buf, size_t len);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_commut_collect(chk_t *c, json_t *root);
SSCHED_INTERNAL int ssched_i_chk_commut_result(const chk_t *c, const char *value, size_t op);

/* Interval number of [k,m] (reduce), or SIZE_MAX. */
SSCHED_INTERNAL size_t ssched_i_chk_interval(const chk_t *c, size_t k, size_t m);
/* Parse a JSON array of `len` non-negative integers into out. */
SSCHED_INTERNAL int ssched_i_chk_int_array(json_t *a, size_t len, size_t *out);

/* Streamed unrolled files (check_stream.c): the top-level object split into
 * a header (every key but the event arrays) and the arrays' extents. */
typedef struct {
    int present;
    int mapped;                    /* buf is a private file mapping: read
                                      pages may be dropped                */
    const char *buf;
    size_t begin, end;             /* [begin, end) holds "[ ... ]"        */
} chk_extent_t;
typedef struct {
    chk_extent_t x;
    const char *name;
    size_t pos, index, dropped;    /* dropped: pages released up to here  */
    int done;
} chk_iter_t;
SSCHED_INTERNAL ssched_status_t ssched_i_chk_split_top(const char *buf, size_t len, int mapped,
                                                       json_t **header, chk_extent_t *tr,
                                                       chk_extent_t *co, ssched_error_t *err);
/* Offset of the first NUL byte, or SIZE_MAX; a mapping's pages are
 * released as the scan passes them. */
SSCHED_INTERNAL size_t ssched_i_chk_find_nul(const char *buf, size_t len, int mapped);
/* ssched_check_schedule_buffer, told whether buf is a file mapping. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_check_buffer(const char *buf, size_t len, int mapped,
                                                          const ssched_check_options_t *opt,
                                                          ssched_check_report_t *report,
                                                          ssched_error_t *err);
SSCHED_INTERNAL void ssched_i_chk_iter_init(chk_iter_t *it, const chk_extent_t *x,
                                            const char *name);
/* The next element (an object the caller decrefs), or NULL at the end. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_iter_next(chk_iter_t *it, json_t **out,
                                                       ssched_error_t *err);
/* The element at it->pos was read by other means; `after` is the ',' or
 * ']' that follows it: move past, as ssched_i_chk_iter_next would. */
SSCHED_INTERNAL void ssched_i_chk_iter_skip(chk_iter_t *it, size_t after);

/* One event of an unrolled reduce (check_unrolled_reduce.c). */
typedef struct {
    mpq_t start, end, off, len;
    int compute;
    size_t node_or_edge, interval, t[3]; /* compute: result, inputs (types) */
    size_t op;
    size_t batch;                        /* transfer: operations op .. op+batch-1 */
    size_t index;
    unsigned long group;                 /* transfer: 0 full rate, else a member
                                            of a group of that many on link
                                            group_link (shared rates)       */
    size_t group_link;
} chk_rev_t;
struct chk_names; /* below */
/* The event at it->pos of an ordered (not commutative, not all-reduce)
 * reduce, read from its bytes when it has the common form and passes every
 * check of the exact reader (check_unrolled_reduce_fast.c): 1 (e filled,
 * the makespan raised, it moved on), or 0 (nothing changed: read it with
 * jansson).  scratch: an initialised mpq. */
SSCHED_INTERNAL int ssched_i_chk_reduce_fast_event(chk_t *c, const struct chk_names *names,
                                                   chk_iter_t *it, int compute, size_t K,
                                                   chk_rev_t *e, mpq_t scratch);

/* The file's "platform" and "problem" objects (check_header.c); strict
 * (periodic files): only the keys the format defines, "w" explicit. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_read_platform(chk_t *c, json_t *root, int strict);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_read_problem(chk_t *c, json_t *root, int strict);
/* The routed keys of the platform object (check_routes.c): "model",
 * "hosts", "links" and every edge's "route"; after the nodes and edges
 * were read.  A graph file has none of them (SSCHED_OK, c->routed = 0). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_read_routes(chk_t *c, json_t *root);
SSCHED_INTERNAL void ssched_i_chk_routes_free(chk_t *c);
/* A periodic slot of a routed file (check_routes.c): every SHARED link's
 * load, every FATPIPE link per edge, one-port hosts' send and receive
 * times, each at most the slot's length.  busy[e] (per edge, all 0) is
 * scratch; 0 after a violation (recorded). */
SSCHED_INTERNAL int ssched_i_chk_routed_slot(chk_t *c, size_t k, const mpq_t len,
                                             const size_t *edge, mpq_t *const amount, size_t n,
                                             mpq_t *busy);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_periodic(chk_t *c, json_t *root);
/* The file's "figures" and "fixed_period" recomputed from its slots,
 * computations and trees (check_claims.c; integral: amounts are integers). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_claims(chk_t *c, json_t *root, const mpq_t period,
                                                    const mpq_t ops, int integral);
/* The throughput claims of a checked, otherwise valid file (periodic or
 * unrolled: c->report->unrolled) against the problem solved again
 * (check_solve.c; schedule.h: ssched_check_options_t states the rule). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_throughput_claims(chk_t *c, json_t *root);
/* One slot's port rules (one-port hosts, one use per link at switches) and
 * its links' busy times within [start, end); sends_to, recv_from (all
 * SIZE_MAX) and busy (all 0) are scratch, restored on return; 0 after a
 * violation (recorded).  A routed file's slot gets the routed rules
 * instead (ssched_i_chk_routed_slot). */
SSCHED_INTERNAL int ssched_i_chk_slot(chk_t *c, size_t k, const mpq_t start, const mpq_t end,
                                      const size_t *edge, mpq_t *const amount, size_t n,
                                      size_t *sends_to, size_t *recv_from, mpq_t *busy);
/* Broadcast (check_broadcast.c): the problem object (source, targets =
 * every other node or a subset, a multicast; size), and a periodic file
 * with its arborescences. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_broadcast_problem(chk_t *c, json_t *pb, int strict);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_broadcast(chk_t *c, json_t *root);
/* All-reduce (check_allreduce.c): a periodic file whose interval
 * transfers, computations and trees are checked as a reduce to the root
 * and whose copies as the broadcast of the result. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_allreduce(chk_t *c, json_t *root);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_reduce_balance(chk_t *c, json_t *root,
                                                            mpq_t *const net, const mpq_t period,
                                                            const mpq_t ops);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_unrolled_scan(chk_t *c, json_t *root,
                                                            const chk_extent_t *tr,
                                                            const chk_extent_t *co);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_unrolled_reduce(
        chk_t *c, json_t *root, const chk_extent_t *tr, const chk_extent_t *co);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_reduce_trees(chk_t *c, json_t *root, const mpq_t ops);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_unrolled(chk_t *c, json_t *root,
                                                      const chk_extent_t *tr);
/* Unrolled broadcasts, whole messages (check_unrolled_broadcast.c). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_unrolled_broadcast(
        chk_t *c, json_t *root, const chk_extent_t *tr);
/* Their simulation, shared with the copies of an all-reduce: the message
 * of each op at `source` from time 0 (the caller checks when an
 * all-reduce's result is there), each target (the participants but the
 * source) receiving it once, a copy leaving a node only after it fully
 * arrived.  buf: NULL (the broadcast's own sweep) or the all-reduce's
 * deferred buffer, which gets each forwarding node's hold once the op is
 * complete.  ssched_i_chk_bsim_move: the semantics of one transfer whose ports
 * and duration the caller checked (a violation is recorded);
 * ssched_i_chk_bsim_missing: records a target that never got an op. */
typedef struct chk_bsim chk_bsim_t;
typedef struct chk_buf chk_buf_t; /* below */
SSCHED_INTERNAL chk_bsim_t *ssched_i_chk_bsim_new(const chk_t *c, size_t K, size_t source,
                                                  chk_buf_t *buf);
SSCHED_INTERNAL void ssched_i_chk_bsim_free(chk_bsim_t *S);
SSCHED_INTERNAL ssched_status_t ssched_i_chk_bsim_move(chk_t *c, chk_bsim_t *S, size_t edge,
                                                       size_t op, const mpq_t start,
                                                       const mpq_t end, const char *where);
SSCHED_INTERNAL void ssched_i_chk_bsim_missing(chk_t *c, chk_bsim_t *S);
/* Is value (the simulated "k.t;" tokens) the reduction of time-stamp t:
 * every participant once, in order unless commutative?  1 yes, 0 no, -1
 * out of memory (check_unrolled_reduce.c). */
SSCHED_INTERNAL int ssched_i_chk_reduce_result_ok(const chk_t *c, const char *value,
                                                  size_t t);
/* An all-reduce's copy of op's result over edge (check_unrolled_allreduce.c):
 * whole, leaving the root only with root_value (the root's complete result
 * by the copy's start, or NULL) the right one, then followed by copies. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_allreduce_copy(chk_t *c, chk_bsim_t *copies,
                                                            size_t edge, size_t op,
                                                            const mpq_t off, const mpq_t len,
                                                            const mpq_t start, const mpq_t end,
                                                            const char *root_value,
                                                            const char *where);
/* Unrolled files (check_unrolled_claims.c): the optional "piece":
 * [offset, length] of a transfer ([0, 1) when absent), checked to lie in
 * [0, 1) with a positive length; and every figure the file states. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_piece(chk_t *c, json_t *x, const char *where,
                                                   mpq_t off, mpq_t len);
/* A transfer's optional "batch" (check_unrolled.c): it carries operations
 * op .. op+batch-1, the same range of each one's message, as one message
 * of batch * length (1 when absent; EINPUT unless a positive integer). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_batch(chk_t *c, json_t *x, const char *where,
                                                   size_t *batch);
/* A transfer's "op" and order (check_unrolled.c): EINPUT for a missing or
 * negative "op" or a start before the previous one (prev := start); while
 * valid, a violation for operations beyond K - 1 or a negative start.
 * *go = 1: simulate the transfer. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_transfer_op(chk_t *c, json_t *x, const char *where,
                                                         size_t k, size_t batch, size_t K,
                                                         const mpq_t start, mpq_t prev,
                                                         size_t *op, int *go);
/* d := l(e) + batch * len * size * c(e): a transfer's duration at its
 * full rate 1/c(e) (every unrolled checker and the fast readers). */
SSCHED_INTERNAL void ssched_i_chk_transfer_time(const chk_t *c, size_t edge, size_t batch,
                                                const mpq_t len, mpq_t d);
/* end - start == l(e) + batch * len * size * c(e)?  1, or 0 with the
 * violation recorded; d is scratch. */
SSCHED_INTERNAL int ssched_i_chk_duration(chk_t *c, size_t edge, size_t batch, const mpq_t len,
                                          const mpq_t start, const mpq_t end, const char *where,
                                          mpq_t d);
/* The same, also accepting (routed, multi-port hosts) a member of a
 * shared-rate group (docs/model.md, "Shared rates"): a bandwidth phase
 * of g * batch * len * size * link_c(L) for a SHARED link L of the route
 * and a whole g >= 2, slower than the full rate.  *g = 0 at the full
 * rate, else g and *link = L (the group itself is checked by
 * ssched_i_chk_ports_take_group). */
SSCHED_INTERNAL int ssched_i_chk_duration_group(chk_t *c, size_t edge, size_t batch,
                                                const mpq_t len, const mpq_t start,
                                                const mpq_t end, const char *where, mpq_t d,
                                                unsigned long *g, size_t *link);
/* buf_peak, buf_node: the buffer figures the events give (below). */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_unrolled_claims(
        chk_t *c, json_t *root, size_t K, const mpq_t makespan, const mpq_t buf_peak,
        size_t buf_node);

/* The optional "segments" (check_unrolled_seg.c): a violation unless it
 * divides K and the problem is element-wise; EINPUT unless an integer >= 2. */
SSCHED_INTERNAL ssched_status_t ssched_i_chk_segments(chk_t *c, json_t *root, size_t K);

/* Buffer occupancy (check_buffer.c), exact (GMP), for the reference
 * simulations: "buffer_peak" is the largest amount of messages a node
 * holds for others.  Acquisitions come in non-decreasing time order;
 * releases (at the end of an event) in any order.  At equal times every
 * release is applied before any acquisition: acquisitions of one time are
 * queued until time moves on. */
typedef struct chk_buf chk_buf_t;
SSCHED_INTERNAL chk_buf_t *ssched_i_chk_buf_new(size_t n_nodes);
/* The same, taking acquisitions in any order (kept, sorted at the end). */
SSCHED_INTERNAL chk_buf_t *ssched_i_chk_buf_new_deferred(size_t n_nodes);
SSCHED_INTERNAL void ssched_i_chk_buf_free(chk_buf_t *B);
SSCHED_INTERNAL void ssched_i_chk_buf_acquire(chk_buf_t *B, size_t node, const mpq_t at,
                                              const mpq_t amount);
SSCHED_INTERNAL void ssched_i_chk_buf_release(chk_buf_t *B, size_t node, const mpq_t end,
                                              const mpq_t amount);
/* Apply what is pending; the peak over nodes and the first node attaining
 * it; 0 when memory ran out. */
SSCHED_INTERNAL int ssched_i_chk_buf_finish(chk_buf_t *B, mpq_t peak, size_t *node);

/* The fast path of scatter/gossip files (check_fast.c, check_scan.c).
 * Exact fractions n/d (d > 0, not necessarily in lowest terms) in 64 bits,
 * compared through 128-bit products.  Anything the fast path cannot
 * represent or does not expect (a number or an intermediate beyond 64
 * bits, an escape it cannot decode, a key or value it does not know, any
 * violation or malformed event) makes it give up, and the exact GMP +
 * jansson checker reads the file from the start: that one decides every
 * message, so both paths say the same. */
__extension__ typedef __int128 chk_i128;
typedef struct {
    int64_t n, d;
} chk_q64_t;
static inline int chk_q64_cmp(chk_q64_t a, chk_q64_t b)
{
    chk_i128 x = (chk_i128)a.n * b.d, y = (chk_i128)b.n * a.d;
    return (x > y) - (x < y);
}
/* "p" or "p/q" (digits, no sign, no leading zero, q > 0) within 64 bits. */
SSCHED_INTERNAL int ssched_i_chk_q64_parse(const char *s, size_t len, chk_q64_t *out);
/* a + b (reduced when the denominators differ); 0 on overflow. */
SSCHED_INTERNAL int ssched_i_chk_q64_add(chk_q64_t a, chk_q64_t b, chk_q64_t *out);

/* One event object scanned (check_scan.c): its string fields, decoded. */
enum { CHK_F_START, CHK_F_END, CHK_F_FROM, CHK_F_TO, CHK_F_ORIGIN, CHK_F_DEST, CHK_F_OP,
       CHK_F_PIECE, CHK_F_PIECE_LEN, CHK_F_BATCH, CHK_F_N };
typedef struct {
    unsigned present;              /* bit per CHK_F_* */
    const char *s[CHK_F_N];        /* CHK_F_PIECE: offset, _LEN: length */
    size_t len[CHK_F_N];
    uint64_t op, batch;            /* batch: when CHK_F_BATCH is present */
    size_t used;                   /* of scratch (decoded escapes)       */
    char scratch[2048];
} chk_ev_t;
/* Scan the transfer object at b[*pos] (a '{'), a complete JSON object
 * whose keys are among the transfer keys, each once, with the values the
 * format gives them; *pos moves past it.  0: anything else. */
SSCHED_INTERNAL int ssched_i_chk_scan_transfer(const char *b, size_t n, size_t *pos, chk_ev_t *ev);
SSCHED_INTERNAL size_t ssched_i_chk_skip_ws(const char *b, size_t n, size_t i);
/* Node names by hash. */
typedef struct chk_names {
    size_t cap;
    uint32_t *slot;                /* node + 1; 0: empty */
    size_t *len;
    char **names;
} chk_names_t;
SSCHED_INTERNAL int ssched_i_chk_names_build(chk_names_t *h, const chk_t *c);
SSCHED_INTERNAL void ssched_i_chk_names_free(chk_names_t *h);
SSCHED_INTERNAL size_t ssched_i_chk_names_find(const chk_names_t *h, const char *s,
                                               size_t len); /* SIZE_MAX: none */ /* Release the read pages of a file mapping in [from,
                                               to). */ SSCHED_INTERNAL void ssched_i_chk_drop_pages(const char *b,
                                               size_t from, size_t to);

/* Check the transfers of a scatter/gossip file quickly: 1 when done (the
 * makespan in c->makespan, the buffer figures, the count), 0 to read it
 * with the exact checker instead; -1 out of memory. */
SSCHED_INTERNAL int ssched_i_chk_fast_unrolled(chk_t *c, const chk_extent_t *tr, size_t K,
                                               int whole_only, mpq_t buf_peak, size_t *buf_node,
                                               size_t *n_transfers);

/* Port occupancy of an unrolled file's events, in start order
 * (check_ports.c): one-port at hosts, per link at a switch, one task at a
 * time per processor; a transfer holds its resources during its bandwidth
 * phase [start + l(e), end) only (docs/model.md, "Latency"). */
typedef struct {
    mpq_t lo, hi;
    size_t wi;                     /* a routed link's: the route position
                                      whose share it takes (rw[wi])       */
    unsigned long g;               /* 0, or a shared-rate group's size: the
                                      share is link_c / (g link_c(gl))    */
    size_t gl;
    size_t edge;                   /* a routed link's: the transfer's edge */
} chk_iv_t;
/* A shared-rate group being seen (check_ports.c): its phase on link L,
 * its size g and the members counted so far. */
typedef struct {
    mpq_t lo, hi;
    size_t link, edge, index;
    unsigned long g, count;
} chk_group_t;
typedef struct {
    chk_iv_t *iv;                  /* intervals that may meet a later one */
    size_t n, cap;                 /* cap entries initialised             */
} chk_res_t;
typedef struct {
    size_t n_nodes, n_edges, n_links, n_res;
    chk_res_t *res;                /* send ports, receive ports (per node),
                                      links (per edge), processors (per node),
                                      a routed file's link resources      */
    size_t hit_link;               /* the routed link found over-used     */
    mpq_t hit_time, hit_sum;       /* when, and the shares summed there   */
    mpq_t *rw;                     /* per route position: link_c(L) / c(e),
                                      the share of L a transfer takes;
                                      NULL until the first routed take    */
    size_t n_rw;
    mpq_t lo, sh;                  /* scratch                             */
    chk_group_t *grp;              /* shared-rate groups not complete yet  */
    size_t n_grp, cap_grp;
    struct chk_wm *wm;             /* latency-weighted members pending     */
    size_t n_wm, cap_wm;           /* (check_shared_w.c)                   */
    mpq_t *wsh;                    /* kept weighted groups' shares (g =    */
    size_t n_wsh, cap_wsh;         /* CHK_WEIGHTED: wi indexes these)      */
    int ready;                     /* init was called (free is then due)  */
} chk_ports_t;
/* 0: ENOMEM */
SSCHED_INTERNAL int ssched_i_chk_ports_init(chk_ports_t *P, size_t n_nodes, size_t n_edges,
                                             size_t n_links);
SSCHED_INTERNAL void ssched_i_chk_ports_free(chk_ports_t *P);
/* Take the ports of a transfer on edge started at `start` and ending at
 * `end` (events in start order): 1, 0 with the violation recorded (two
 * sends, two receives or two uses of a link at once), -1 out of memory
 * (c->err set).  _thing: the same, worded as the reduce checker words it. */
SSCHED_INTERNAL int ssched_i_chk_ports_take(chk_t *c, chk_ports_t *P, size_t edge,
                                            const mpq_t start, const mpq_t end, const char *where);
SSCHED_INTERNAL int ssched_i_chk_ports_take_thing(chk_t *c, chk_ports_t *P, size_t edge,
                                                  const mpq_t start, const mpq_t end,
                                                  const char *where);
/* The same for a transfer at a shared rate (g >= 2 on SHARED link L,
 * ssched_i_chk_duration_group; g = 0: full rate, as _thing).  Its shares
 * are link_c(L') / (g link_c(L)) on every SHARED link L' of its route; its
 * group is g transfers with this very bandwidth phase, each taking 1/g of
 * L (so L is saturated by them alone: the capacity rule keeps every other
 * phase off it), counted as they come; a group still short when the
 * events pass its phase's start (or at ssched_i_chk_ports_finish) is a
 * violation.  index: the event's, named in that message. */
SSCHED_INTERNAL int ssched_i_chk_ports_take_group(chk_t *c, chk_ports_t *P, size_t edge,
                                                  const mpq_t start, const mpq_t end,
                                                  unsigned long g, size_t link, size_t index,
                                                  const char *where);
/* After the last event: 1, or 0 with a short group's violation. */
SSCHED_INTERNAL int ssched_i_chk_ports_finish(chk_t *c, chk_ports_t *P);
/* check_ports.c: the share of SHARED link L that a phase takes (route
 * position wi at the full rate, g = 0; else 1 / g of link gl's rate). */
SSCHED_INTERNAL void ssched_i_chk_share(const chk_t *c, const chk_ports_t *P, size_t wi,
                                        unsigned long g, size_t gl, size_t L, mpq_t out);
/* check_shared.c, for check_ports.c's routed takes: a pending group whose
 * phase starts before now (1, P->hit_link its index); the phase [P->lo,
 * end) counted on its groups (1; 0 ENOMEM; 2 a member without latency);
 * a short group's violation. */
SSCHED_INTERNAL int ssched_i_chk_group_short(chk_ports_t *P, const mpq_t now);
SSCHED_INTERNAL int ssched_i_chk_group_count(const chk_t *c, chk_ports_t *P, size_t edge,
                                             const mpq_t end, unsigned long g, size_t gl,
                                             size_t index);
SSCHED_INTERNAL int ssched_i_chk_group_violation(chk_t *c, chk_ports_t *P, size_t k);
/* check_shared_w.c: latency-weighted groups.  A member (g = CHK_WEIGHTED
 * from ssched_i_chk_duration_group) waits; the members of one phase start
 * t0 are resolved when a routed take starts at or after t0 (or at the
 * finish): 1, 0 a violation recorded, -1 ENOMEM.  ssched_i_chk_link_hold:
 * [lo, hi) at share f on SHARED link L (1, 0 over: P->hit_*, -1). */
#define CHK_WEIGHTED (~0UL)
SSCHED_INTERNAL int ssched_i_chk_wm_add(chk_t *c, chk_ports_t *P, size_t edge, const mpq_t start,
                                        const mpq_t end, size_t index);
SSCHED_INTERNAL int ssched_i_chk_wm_resolve(chk_t *c, chk_ports_t *P, const mpq_t now, int all);
SSCHED_INTERNAL void ssched_i_chk_wm_free(chk_ports_t *P);
SSCHED_INTERNAL int ssched_i_chk_link_hold(chk_t *c, chk_ports_t *P, size_t L, const mpq_t lo,
                                           const mpq_t hi, const mpq_t f, size_t edge);
/* A computation on node over [start, end): the same results. */
SSCHED_INTERNAL int ssched_i_chk_ports_compute(chk_t *c, chk_ports_t *P, size_t node,
                                               const mpq_t start, const mpq_t end,
                                               const char *where);

#endif
