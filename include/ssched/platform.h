/* ssched/platform.h — the platform graph (RR-4872 §2).
 *
 * A directed graph G = (V, E).  Edge (i,j) has cost c(i,j) > 0, the time to
 * move one unit-size message over it.  Node i may have a cost w(i) > 0, the
 * time to compute one reduction task; a node without w only routes.
 * All numbers are exact rationals.  Node names are GraphML node ids. */
#ifndef SSCHED_PLATFORM_H
#define SSCHED_PLATFORM_H

#include <gmp.h>
#include <stddef.h>
#include <stdio.h>

#include "ssched/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t n_nodes;
    size_t n_edges;
    char **names;      /* n_nodes node names (unique)                      */
    int *has_w;        /* n_nodes flags: does node i compute?              */
    mpq_t *w;          /* n_nodes task times (0 when !has_w)               */
    unsigned char *multiport; /* n_nodes flags: 1 for a switch (no port rule
                          at the node: each incident link is its own
                          resource, busy at most 1 per time unit); 0 for
                          the one-port model of RR-4872 (the default)      */
    size_t *from;      /* n_edges tails                                    */
    size_t *to;        /* n_edges heads                                    */
    mpq_t *c;          /* n_edges unit-message transfer times              */
    mpq_t *l;          /* n_edges latencies (0 unless set), same time unit
                          as c: a transfer of z over e started at t ends at
                          t + l(e) + z*c(e); the latency is propagation and
                          keeps no port or link busy (docs/model.md)        */
    int seconds;       /* 1: the time unit is the second (costs derived from
                          bandwidths: --cost-from, SimGrid files, measured
                          matrices); 0: the file's own unit. Output only. */
    struct ssched_routes *routes; /* NULL: the graph model of RR-4872; else
                          the routed model (below) and every node is a host */
    /* Adjacency, rebuilt by ssched_platform_finalize(): the edges leaving
     * node i are out_list[out_start[i] .. out_start[i+1]-1], entering ones
     * in_list[in_start[i] .. in_start[i+1]-1] (edge indices, ascending). */
    size_t *out_start, *out_list;
    size_t *in_start, *in_list;
    size_t node_cap, edge_cap;
    void *name_index;  /* private: hash index of names, kept by add_node
                          (find_node and node lists in O(1) per name)      */
} ssched_platform_t;

/* Empty platform. Always succeeds; pair with ssched_platform_free(). */
void ssched_platform_init(ssched_platform_t *p);
void ssched_platform_free(ssched_platform_t *p);

/* Add a node; w == NULL means a routing-only node.  Rejects (EINPUT) an
 * empty or duplicate name and w <= 0. *index receives the new index. */
ssched_status_t ssched_platform_add_node(ssched_platform_t *p, const char *name,
                                         mpq_srcptr w, size_t *index,
                                         ssched_error_t *err);

/* Add edge from -> to with cost c.  Rejects (EINPUT) self-loops, parallel
 * edges (same ordered pair) and c <= 0. */
ssched_status_t ssched_platform_add_edge(ssched_platform_t *p, size_t from,
                                         size_t to, const mpq_t c,
                                         ssched_error_t *err);

/* Set the latency of edge e (>= 0, exact; 0 by default). EINPUT for a
 * negative value or an edge out of range. */
ssched_status_t ssched_platform_set_latency(ssched_platform_t *p, size_t e, mpq_srcptr l,
                                            ssched_error_t *err);

/* 1 iff some edge has a positive latency. */
int ssched_platform_has_latency(const ssched_platform_t *p);

/* ---- The routed model (SimGrid platforms, measured matrices, --model routed)
 * Nodes are hosts only; relaying happens only at hosts.  Edge e = (a, b) is
 * the host pair a -> b, whose messages follow a fixed route: the link
 * resources route_links[route_start[e] .. route_start[e+1]-1], in order.
 * A link resource is
 *   SHARED:  one resource for every flow crossing it (both directions when
 *            SimGrid declares the link SHARED; SimGrid's SPLITDUPLEX link is
 *            two SHARED resources, name_UP and name_DOWN):
 *            sum over edges e through it of amount(e) * link_c <= 1 per time unit;
 *   FATPIPE: each flow is capped alone, their sum is not:
 *            amount(e) * link_c <= 1 per time unit for every e through it.
 * link_c is the time for one unit message through the link at full
 * bandwidth (unit_bytes / bandwidth); link_latency its latency.  An edge
 * added by ssched_platform_add_routed_edge gets c(e) = the largest link_c
 * of its route (a lone message's time per unit, the route's bottleneck) and
 * l(e) = the sum of the route's latencies (SimGrid's CM02 adds them once per
 * message).  Hosts have no port rule (a host's network interface is a link
 * of its own in SimGrid) unless hosts_one_port. */
typedef enum {
    SSCHED_LINK_SHARED = 0,
    SSCHED_LINK_FATPIPE
} ssched_link_sharing_t;

typedef struct ssched_routes {
    size_t n_links;
    char **link_names;              /* n_links names (unique)              */
    mpq_t *link_c;                  /* n_links times per unit message (> 0) */
    mpq_t *link_latency;            /* n_links latencies (>= 0)            */
    ssched_link_sharing_t *sharing; /* n_links policies                    */
    size_t *route_start;            /* n_edges + 1 offsets into route_links */
    size_t *route_links;            /* link indices, route order            */
    int hosts_one_port;             /* 1: each host keeps RR-4872's ports  */
    size_t link_cap, route_cap, edge_cap;
} ssched_routes_t;

/* Make p a routed platform (before its first edge; nodes may exist).
 * Idempotent.  ENOMEM, or EINPUT if p already has edges without routes. */
ssched_status_t ssched_platform_make_routed(ssched_platform_t *p, ssched_error_t *err);

/* Add a link resource to a routed platform.  EINPUT for an empty or
 * duplicate name, link_c <= 0 or latency < 0. */
ssched_status_t ssched_platform_add_link(ssched_platform_t *p, const char *name,
                                         mpq_srcptr link_c, mpq_srcptr latency,
                                         ssched_link_sharing_t sharing, size_t *index,
                                         ssched_error_t *err);

/* Add the routed edge from -> to crossing links[0..n-1] (n >= 1, each link
 * at most once); c and l as above.  Same refusals as add_edge. */
ssched_status_t ssched_platform_add_routed_edge(ssched_platform_t *p, size_t from, size_t to,
                                                const size_t *links, size_t n,
                                                ssched_error_t *err);

/* The graph platform g (finalized, not routed) as a routed platform r
 * (initialised here; finalized on success, empty on failure): the model
 * behind `--model routed` (src/platform/routed.c, docs/model.md).
 * router[i] = 1 marks graph node i a router (NULL: the nodes g->multiport
 * marks); the other nodes are r's hosts, in graph order, with their names
 * and w.  Link resource k is graph edge k, SHARED, named "FROM->TO",
 * link_c = c(k), latency l(k).  Host a's route to host b is a shortest
 * path by total c through the whole graph (routers and hosts alike), the
 * fewest hops among those, ties then broken by settling nodes in (distance,
 * hops, index) order and keeping an arc only when strictly better; a pair
 * without a path gets no edge.  hosts_one_port = 0.  EINPUT if every node
 * is a router. */
ssched_status_t ssched_platform_route(const ssched_platform_t *g, const unsigned char *router,
                                      ssched_platform_t *r, ssched_error_t *err);

/* Build the adjacency lists. Must be called after the last add_*. */
ssched_status_t ssched_platform_finalize(ssched_platform_t *p,
                                         ssched_error_t *err);

/* Index of the edge from -> to, or (size_t)-1. Needs finalize(). */
size_t ssched_platform_edge_index(const ssched_platform_t *p, size_t from,
                                  size_t to);

/* Index of the node called `name`; EINPUT ("unknown node 'x'") if none. */
ssched_status_t ssched_platform_find_node(const ssched_platform_t *p,
                                          const char *name, size_t *index,
                                          ssched_error_t *err);

/* Parse a comma-separated list of node names ("a,b,c") into indices.
 * `what` names the option in messages ("--targets").  Rejects unknown names,
 * empty items and duplicates.  *list is malloc'ed; free() it. */
ssched_status_t ssched_platform_parse_node_list(const ssched_platform_t *p,
                                                const char *text,
                                                const char *what,
                                                size_t **list, size_t *count,
                                                ssched_error_t *err);

/* Load a GraphML file ("-" reads stdin).  Node names are the GraphML node
 * ids.  Node attribute `w` (optional), `ports` (optional string "one" | "multi": multi marks a
 * switch, multiport[i] = 1; refused with w), edge attributes `c` (required)
 * and `l` (optional latency >= 0 in c's time unit, absent = 0), found
 * by attr.name; their text is read exactly as the rational it denotes
 * (attr.type string also takes fractions "1/3"; int/long need an integer;
 * float/double a decimal literal, never rounded through a double; NaN/INF
 * are refused).  Undirected edges (edgedefault="undirected" or
 * directed="false") become two directed edges of cost c.  Constructs ssched
 * cannot honour (nested graphs, a second <graph>, hyperedges, <port>s,
 * duplicate ids, edges to undeclared nodes) are refused.  Near-linear in
 * the file size.  Every error is EINPUT with one line "FILE:LINE: element:
 * what is wrong" (src/platform/graphml_read.c). */
ssched_status_t ssched_platform_load_graphml(ssched_platform_t *p,
                                             const char *path,
                                             ssched_error_t *err);

/* ---- Platforms users already have ----------------------------------------
 * ssched_platform_load() reads GraphML (as above) or GML (through igraph's
 * GML reader; node names from the `label` attribute, else `name`, else the
 * GML id, a repeated name getting " (id N)" (refused when that is taken
 * too); attributes w, c, l as in GraphML, `ports` a string (a number is
 * refused); messages name the file and the node's or edge's line; `directed 1` keeps edges
 * directed, otherwise each edge is a link usable both ways; parallel links
 * keep the cheapest; a quoted value is exact, a bare number is the simplest
 * rational rounding to the double igraph read).  Real topologies (Internet
 * Topology Zoo) carry bandwidths and speeds rather than times, so:
 *   cost_from  = ATTR: edge attribute ATTR is a bandwidth b > 0 (bytes per
 *                time unit) and c = unit_bytes / b;
 *   speed_from = ATTR: node attribute ATTR is a speed s > 0 (flops per time
 *                unit) and w = flops_per_task / s (nodes without it route);
 *                ATTR must be a node attribute that some node carries
 *                (EINPUT naming it otherwise, as for cost_from);
 *   latency_from = ATTR: edge attribute ATTR is the latency in seconds (a
 *                SimGrid-style propagation delay), l = ATTR; only with
 *                cost_from, whose bandwidths in bytes per second make the
 *                time unit the second (EINPUT otherwise).  ATTR must be
 *                declared for edges; an edge without a value has l = 0.
 * Without latency_from the edge attribute `l` (optional, >= 0, exact, in
 * the time unit of c; absent = 0) is the latency, in GraphML as in GML.
 * Every value stays exact.  igraph's error handler and attribute table are
 * swapped during a GML read and restored: not thread-safe. */
typedef enum {
    SSCHED_PLATFORM_AUTO = 0, /* a file whose root element is <platform> is
                                 SimGrid's, a ".csv" one a matrix; else by
                                 extension (.gml, .graphml/.xml), else by
                                 content                                  */
    SSCHED_PLATFORM_GRAPHML,
    SSCHED_PLATFORM_GML,
    SSCHED_PLATFORM_SIMGRID,  /* SimGrid platform XML (below)              */
    SSCHED_PLATFORM_MATRIX    /* measured bandwidth/latency matrix (below) */
} ssched_platform_format_t;

/* SimGrid platform files (SSCHED_PLATFORM_SIMGRID) are loaded by
 * libsimgrid 3.32 itself, in a forked child process (SimGrid keeps one
 * engine per process and aborts on some errors; its log is silenced), so
 * every routing SimGrid supports works.  The result is a routed platform:
 *   nodes  = SimGrid's hosts, in SimGrid's order (sg_host_list(), sorted
 *            by name in 3.32): the hostfile order, rank i on host i;
 *            w = flops_per_task / speed (one core at the current
 *            pstate: extra cores are not used; a host of speed 0 has no w);
 *   links  = every link some route crosses, in order of first appearance
 *            (a SPLITDUPLEX link is its two halves NAME_UP, NAME_DOWN),
 *            link_c = unit_bytes / bandwidth, latency in seconds, FATPIPE
 *            or SHARED (every other policy);
 *   edges  = every ordered pair of distinct hosts with a non-empty route
 *            (a pair SimGrid has no route for gets no edge).
 * The time unit is the second.  SimGrid hands numbers over as doubles; each
 * is taken as the exact rational of the decimal of at most 15 significant
 * digits nearest to it when that decimal is within 4 units in the last
 * place (this recovers the file's own "98.095Mf" or "59.904us", which
 * SimGrid scaled with one or two roundings), else of its shortest decimal
 * that reads back to the same double.  A bandwidth that is 0 or not finite,
 * a speed or latency that is negative or not finite, is refused.
 *
 * Matrices (SSCHED_PLATFORM_MATRIX, seed 003's model T_ij + m / B_ij: every
 * ordered pair its own SHARED link "FROM->TO"), a text file of lines:
 *   # comment, or a blank line                  (ignored)
 *   from,to,bandwidth,latency                   (an optional header)
 *   FROM,TO,BANDWIDTH,LATENCY                   (the pair FROM -> TO)
 *   NAME,SPEED                                  (optional: host NAME's speed)
 * or, when the first line starts with the word "matrix", a square matrix:
 *   matrix,H1,H2,...,Hn
 *   Hi,CELL,...,CELL     (n cells: "BANDWIDTH LATENCY" for Hi -> Hj, or
 *                         empty or "-": no link; the diagonal is ignored)
 * Fields are trimmed of blanks.  Numbers are exact (integer, decimal,
 * scientific, fraction) with SimGrid's units: bandwidth B/s by default or
 * Bps / bps (bits) with a prefix k M G T P E (powers of 1000) or Ki Mi Gi Ti
 * Pi Ei (powers of 1024); latency seconds by default or w d h m s ms us ns
 * ps; speed flop/s by default or f / flops with the same prefixes.  Hosts
 * are numbered in order of first appearance; link_c = unit_bytes /
 * bandwidth; a host without a SPEED line has no w.  Errors name FILE:LINE. */

/* "auto", "graphml", "gml", "simgrid", "matrix" ("unknown" for any other value); parse:
 * SSCHED_EINPUT naming the text and the accepted names. */
const char *ssched_platform_format_name(ssched_platform_format_t v);
ssched_status_t ssched_platform_format_parse(const char *text, ssched_platform_format_t *out,
                                             ssched_error_t *err);

/* The format ssched_platform_load reads `path` as when asked for `format`:
 * SIMGRID for a file whose root element is <platform>, MATRIX for a
 * ".csv" name (when format is AUTO), else `format` (AUTO: GraphML or GML,
 * decided while reading). */
ssched_platform_format_t ssched_platform_format_of(const char *path,
                                                   ssched_platform_format_t format);

typedef struct {
    ssched_platform_format_t format;
    const char *cost_from;      /* NULL: edge attribute c is the time     */
    mpq_srcptr unit_bytes;      /* with cost_from, and the unit message of
                                   SimGrid and matrix files; NULL = 1     */
    const char *speed_from;     /* NULL: node attribute w is the time     */
    mpq_srcptr flops_per_task;  /* with speed_from, SimGrid and matrix
                                   files; NULL = 1                        */
    mpq_srcptr speed;           /* non-NULL: every node computes, at this
                                   speed: w = flops_per_task / speed (for
                                   platforms without speeds; not with
                                   speed_from)                            */
    const char *names_from;     /* GraphML: node attribute ATTR (e.g. the
                                   Topology Zoo's label) names the nodes
                                   that carry it; a taken name becomes
                                   "NAME (id ID)"; NULL: the node ids     */
    int skip_missing_cost;      /* 1: an edge without the cost attribute is
                                   left out (Topology Zoo files leave some
                                   links unlabelled); 0: it is an error   */
    const char *latency_from;   /* NULL: edge attribute l is the latency
                                   (in c's time unit, absent = 0); else
                                   edge attribute ATTR, in seconds: only
                                   with cost_from (times in seconds)      */
} ssched_platform_read_options_t;

void ssched_platform_read_options_default(ssched_platform_read_options_t *opt);

/* Load a platform file ("-" reads stdin) with the options (NULL: defaults,
 * the same as ssched_platform_load_graphml for a GraphML file).  EINPUT
 * with one line naming the file and the item for anything wrong. */
ssched_status_t ssched_platform_load(ssched_platform_t *p, const char *path,
                                     const ssched_platform_read_options_t *opt,
                                     ssched_error_t *err);

/* Writers (GraphML, SimGrid): ssched/export.h. */

/* reach[i] = 1 iff node i is reachable from `node` along directed edges
 * (reverse = 0), or iff `node` is reachable from i (reverse = 1).
 * reach has n_nodes entries.  Needs finalize().  ENOMEM only. */
ssched_status_t ssched_platform_reachable(const ssched_platform_t *p, size_t node,
                                          int reverse, unsigned char *reach,
                                          ssched_error_t *err);

/* Remove every directed cycle from the positive part of flow[] (one exact
 * value per edge, negative values ignored) by subtracting each cycle's
 * bottleneck; conservation at every node is preserved.  Needs finalize().
 * Returns 1, or 0 on allocation failure. */
int ssched_platform_cancel_cycles(const ssched_platform_t *p, mpq_t *flow);

#ifdef __cplusplus
}
#endif
#endif
