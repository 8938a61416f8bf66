/* JSON form of a certified steady-state solution (steady.h). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "ssched/rational.h"
#include "src/export/export_internal.h"
#include "src/export/json_util.h"
#include "ssched/export.h"
#include "ssched/steady.h"

json_t *ssched_i_json_mpq(const mpq_t q)
{
    char *s = ssched_rational_to_string(q);
    json_t *j = json_string(s ? s : "?");
    free(s);
    return j;
}

json_t *ssched_i_json_mpz(const mpz_t z)
{
    char *s = mpz_get_str(NULL, 10, z);
    json_t *j = json_string(s ? s : "?");
    free(s);
    return j;
}

json_t *ssched_i_platform_json(const ssched_platform_t *p)
{
    json_t *nodes = json_array(), *edges = json_array();
    for (size_t i = 0; i < p->n_nodes; i++) {
        json_t *n = json_object();
        json_object_set_new(n, "id", json_string(p->names[i]));
        json_object_set_new(n, "w", p->has_w[i] ? ssched_i_json_mpq(p->w[i]) : json_null());
        json_array_append_new(nodes, n);
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        json_t *o = json_object();
        json_object_set_new(o, "from", json_string(p->names[p->from[e]]));
        json_object_set_new(o, "to", json_string(p->names[p->to[e]]));
        json_object_set_new(o, "c", ssched_i_json_mpq(p->c[e]));
        /* the latency only when there is one: files without stay as they were */
        if (p->l && mpq_sgn(p->l[e]) > 0)
            json_object_set_new(o, "l", ssched_i_json_mpq(p->l[e]));
        if (p->routes) { /* docs/model.md (routed schedules): the route's link indices, in order */
            json_t *r = json_array();
            for (size_t k = p->routes->route_start[e]; k < p->routes->route_start[e + 1]; k++)
                json_array_append_new(r, json_integer((json_int_t)p->routes->route_links[k]));
            json_object_set_new(o, "route", r);
        }
        json_array_append_new(edges, o);
    }
    json_t *o = json_object();
    if (p->routes) { /* the routed model (docs/model.md, routed schedules); graph files have none of these keys */
        const ssched_routes_t *rt = p->routes;
        json_t *links = json_array();
        for (size_t k = 0; k < rt->n_links; k++) {
            json_t *l = json_object();
            json_object_set_new(l, "name", json_string(rt->link_names[k]));
            json_object_set_new(l, "c", ssched_i_json_mpq(rt->link_c[k]));
            json_object_set_new(l, "latency", ssched_i_json_mpq(rt->link_latency[k]));
            json_object_set_new(l, "sharing", json_string(rt->sharing[k] == SSCHED_LINK_FATPIPE
                                                              ? "fatpipe" : "shared"));
            json_array_append_new(links, l);
        }
        json_object_set_new(o, "model", json_string("routed"));
        json_object_set_new(o, "hosts", json_string(rt->hosts_one_port ? "one-port" : "multi-port"));
        json_object_set_new(o, "links", links);
    }
    json_object_set_new(o, "nodes", nodes);
    json_object_set_new(o, "edges", edges);
    return o;
}

static json_t *node_list(const ssched_platform_t *p, const size_t *l, size_t n)
{
    json_t *a = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(a, json_string(p->names[l[k]]));
    return a;
}

json_t *ssched_i_problem_json(const ssched_platform_t *p, const ssched_problem_t *pb)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(ssched_problem_kind_name(pb->kind)));
    switch (pb->kind) {
    case SSCHED_PROBLEM_SCATTER:
    case SSCHED_PROBLEM_BROADCAST:
        json_object_set_new(o, "source", json_string(p->names[pb->sources[0]]));
        json_object_set_new(o, "targets", node_list(p, pb->targets, pb->n_targets));
        break;
    case SSCHED_PROBLEM_GOSSIP:
        json_object_set_new(o, "sources", node_list(p, pb->sources, pb->n_sources));
        json_object_set_new(o, "targets", node_list(p, pb->targets, pb->n_targets));
        break;
    case SSCHED_PROBLEM_REDUCE:
        json_object_set_new(o, "participants", node_list(p, pb->participants, pb->n_participants));
        json_object_set_new(o, "target", json_string(p->names[pb->target]));
        if (pb->commutative)
            json_object_set_new(o, "commutative", json_true());
        break;
    case SSCHED_PROBLEM_ALLREDUCE:
        json_object_set_new(o, "participants", node_list(p, pb->participants, pb->n_participants));
        json_object_set_new(o, "root", pb->target == SIZE_MAX ? json_null()
                                                              : json_string(p->names[pb->target]));
        if (pb->commutative)
            json_object_set_new(o, "commutative", json_true());
        break;
    case SSCHED_PROBLEM_SCAN:
        json_object_set_new(o, "participants", node_list(p, pb->participants, pb->n_participants));
        json_object_set_new(o, "exclusive", json_boolean(pb->exclusive));
        break;
    }
    json_object_set_new(o, "size", ssched_i_json_mpq(pb->size));
    return o;
}

/* All-reduce: the root, the pricing, the rated reduction trees and, for a
 * best-root solve, every candidate root ("pruned": not solved, its cheap
 * bound could not beat the TP found before it). */
/* A scan's prefix structures (steady.h): rate, tasks [node, k, l, m] and
 * sends [from, to, k, m]. */
static void scan_structures_json(json_t *root, const ssched_platform_t *p,
                                 const ssched_steady_t *s)
{
    json_t *arr = json_array();
    for (size_t k = 0; k < s->n_scan_structures; k++) {
        const ssched_scan_structure_t *st = &s->scan_structures[k];
        json_t *o = json_object(), *tasks = json_array(), *sends = json_array();
        json_object_set_new(o, "rate", ssched_i_json_mpq(st->rate));
        for (size_t x = 0; x < st->n_tasks; x++)
            json_array_append_new(tasks, json_pack("[s,I,I,I]", p->names[st->tasks[x].node],
                                                   (json_int_t)st->tasks[x].k,
                                                   (json_int_t)st->tasks[x].l,
                                                   (json_int_t)st->tasks[x].m));
        for (size_t x = 0; x < st->n_sends; x++) {
            size_t e = st->sends[x].edge;
            json_array_append_new(sends, json_pack("[s,s,I,I]", p->names[p->from[e]],
                                                   p->names[p->to[e]],
                                                   (json_int_t)st->sends[x].k,
                                                   (json_int_t)st->sends[x].m));
        }
        json_object_set_new(o, "tasks", tasks);
        json_object_set_new(o, "sends", sends);
        json_array_append_new(arr, o);
    }
    json_object_set_new(root, "scan_structures", arr);
}

static void allreduce_json(json_t *root, const ssched_platform_t *p, const ssched_steady_t *s,
                           size_t n_parts)
{
    json_object_set_new(root, "root", json_string(p->names[s->allreduce_root]));
    json_t *trees = json_array();
    for (size_t k = 0; k < s->n_rated_trees; k++) {
        json_t *o = json_object(), *tasks = json_array();
        const ssched_tree_t *t = &s->rated_trees[k];
        json_object_set_new(o, "rate", ssched_i_json_mpq(s->tree_rates[k]));
        for (size_t j = 0; j < t->n_tasks; j++) {
            const ssched_tree_task_t *x = &t->tasks[j];
            if (x->kind == SSCHED_TREE_SEND)
                json_array_append_new(tasks, json_pack("{s:[ss],s:[II]}", "send",
                    p->names[p->from[x->edge]], p->names[p->to[x->edge]], "interval",
                    (json_int_t)x->k, (json_int_t)x->m));
            else
                json_array_append_new(tasks, json_pack("{s:s,s:[III]}", "node", p->names[x->node],
                    "task", (json_int_t)x->k, (json_int_t)x->l, (json_int_t)x->m));
        }
        json_object_set_new(o, "tasks", tasks);
        if (t->order) { /* commutative: position i holds participant order[i] */
            json_t *ord = json_array();
            for (size_t j = 0; j < n_parts; j++)
                json_array_append_new(ord, json_integer((json_int_t)t->order[j]));
            json_object_set_new(o, "order", ord);
        }
        json_array_append_new(trees, o);
    }
    json_object_set_new(root, "trees", trees);
    if (!s->n_root_candidates)
        return;
    json_t *cands = json_array();
    for (size_t k = 0; k < s->n_root_candidates; k++) {
        json_t *o = json_object();
        json_object_set_new(o, "root", json_string(p->names[s->root_candidates[k]]));
        if (s->root_pruned[k])
            json_object_set_new(o, "pruned", json_true());
        else
            json_object_set_new(o, "throughput", ssched_i_json_mpq(s->root_throughput[k]));
        json_object_set_new(o, "upper_bound", ssched_i_json_mpq(s->root_upper_bound[k]));
        json_array_append_new(cands, o);
    }
    json_object_set_new(root, "candidates", cands);
}

ssched_status_t ssched_write_steady_json(FILE *out, const ssched_platform_t *p,
                                         const ssched_problem_t *pb, const ssched_steady_t *s,
                                         ssched_error_t *err)
{
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("ssched-solution/1"));
    json_object_set_new(root, "problem", ssched_i_problem_json(p, pb));
    json_t *model = json_object(), *switches = json_array();
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->multiport && p->multiport[i])
            json_array_append_new(switches, json_string(p->names[i]));
    json_object_set_new(model, "switches", switches);
    if (p->routes) { /* routed: hosts only, link resources on routes */
        json_object_set_new(model, "routed", json_true());
        json_object_set_new(model, "hosts",
                            json_string(p->routes->hosts_one_port ? "one-port" : "multi-port"));
        json_object_set_new(model, "link_resources", json_integer((json_int_t)p->routes->n_links));
    }
    json_object_set_new(root, "model", model);
    /* a multicast's edge-LP value bounds TP from above; it is not a
     * throughput.  By column generation a multicast also has an achievable
     * TP (a certified feasible packing of Steiner arborescences). */
    int allreduce = s->kind == SSCHED_PROBLEM_ALLREDUCE;
    /* a commutative reduce: achievable TP, bound and gap as a multicast */
    int comm = s->kind == SSCHED_PROBLEM_REDUCE && pb->commutative;
    /* a scan's edge LP (lp/build_scan.c) is an upper bound too; by column
     * generation a scan has an achievable TP (a packing of prefix structures) */
    int scan = s->kind == SSCHED_PROBLEM_SCAN;
    int scan_cg = scan && s->method == SSCHED_METHOD_COLGEN;
    int achieved = (s->multicast && s->method == SSCHED_METHOD_COLGEN) || allreduce || comm ||
                   scan_cg;
    int bound_only = (s->multicast && !achieved) || (scan && !scan_cg);
    const char *tp_key = bound_only ? "upper_bound" : "throughput";
    json_object_set_new(root, tp_key, ssched_i_json_mpq(s->throughput));
    /* rates are per second when the costs came from bandwidths */
    json_object_set_new(root, "time_unit", json_string(p->seconds ? "second" : "unit"));
    json_object_set_new(root, bound_only ? "upper_bound_approx" : "throughput_approx",
                        json_real(mpq_get_d(s->throughput)));
    if (achieved) {
        mpq_t gap;
        mpq_init(gap);
        mpq_sub(gap, s->upper_bound, s->throughput);
        json_object_set_new(root, "upper_bound", ssched_i_json_mpq(s->upper_bound));
        json_object_set_new(root, "upper_bound_approx", json_real(mpq_get_d(s->upper_bound)));
        json_object_set_new(root, "gap", ssched_i_json_mpq(gap)); /* upper_bound - throughput */
        json_object_set_new(root, "optimal", json_boolean(s->optimal));
        json_object_set_new(root, "note", json_string(scan_cg ?
            "scan: throughput is achievable (exact optimum of the master over the generated "
            "prefix structures, certified feasible, each structure checked); upper_bound is the "
            "smallest certified bound computed (bound_source: the scan edge LP, or the ordered "
            "reduce of one demand's prefix); optimal is true when the two are equal" : comm ?
            "commutative reduce: throughput is achievable (exact optimum of the master over the "
            "generated reduction in-trees, certified feasible); upper_bound is certified (the "
            "throughput when exact pricing proved no tree improves it, else the smaller of "
            "Farley's bound and the relaxation LP of `ssched lp --commutative`)" : allreduce ?
            "allreduce: throughput is achievable (exact optimum of the master over the generated "
            "reduction trees and arborescences, certified feasible); upper_bound is certified (the "
            "throughput itself when the pricing proved that no column improves it, else the "
            "smaller of Farley's bound from the exact duals and the combined edge LP's optimum; "
            "with no root given, the maximum over the candidate roots)" :
            "multicast: throughput is achievable (exact optimum of the master over the generated "
            "Steiner arborescences, certified feasible); upper_bound is the certified optimum of "
            "the broadcast edge LP; optimal is true when exact pricing found no improving "
            "arborescence or the two are equal"));
        mpq_clear(gap);
    }
    if (allreduce)
        allreduce_json(root, p, s, pb->n_participants);
    if ((s->kind == SSCHED_PROBLEM_BROADCAST && s->method == SSCHED_METHOD_COLGEN) || allreduce) {
        json_object_set_new(root, "pricing", json_string(s->cg_pricing_exact ? "exact" : "heuristic"));
        json_t *arbs = json_array();
        for (size_t k = 0; k < s->n_arborescences; k++) {
            const ssched_arborescence_t *a = &s->arborescences[k];
            json_t *o = json_object(), *arcs = json_array();
            json_object_set_new(o, "rate", ssched_i_json_mpq(a->weight));
            for (size_t j = 0; j < a->n_arcs; j++) {
                json_t *arc = json_array();
                json_array_append_new(arc, json_string(p->names[p->from[a->arcs[j]]]));
                json_array_append_new(arc, json_string(p->names[p->to[a->arcs[j]]]));
                json_array_append_new(arcs, arc);
            }
            json_object_set_new(o, "arcs", arcs);
            json_array_append_new(arbs, o);
        }
        json_object_set_new(root, "arborescences", arbs);
    }
    if (s->multicast && !achieved)
        json_object_set_new(root, "note", json_string("multicast (the targets are not every other "
                                                      "node): the LP value is an upper bound; the "
                                                      "achievable throughput is not computed yet"));
    if (scan && !scan_cg)
        json_object_set_new(root, "note", json_string("scan (parallel prefix): upper_bound is the "
                                                      "certified optimum of the scan edge LP "
                                                      "(docs/model.md, \"Parallel prefix\"); the "
                                                      "achievable throughput is computed by "
                                                      "--method auto or colgen"));
    if (scan_cg) {
        json_object_set_new(root, "bound_source",
                            s->scan_bound_demand
                                ? json_pack("{s:s,s:s}", "reduce_to",
                                            p->names[pb->participants[s->scan_bound_demand]],
                                            "kind", "ordered reduce of the prefix")
                                : json_pack("{s:s,s:I}", "kind", "scan edge LP", "demands",
                                            (json_int_t)s->scan_bound_lp_demands));
        scan_structures_json(root, p, s);
    }
    json_object_set_new(root, "certified", json_true());

    json_t *rates = json_array();
    for (size_t k = 0; k < s->n_flows; k++) {
        const ssched_flow_t *f = &s->flows[k];
        json_t *r = json_object();
        json_object_set_new(r, "from", json_string(p->names[p->from[f->edge]]));
        json_object_set_new(r, "to", json_string(p->names[p->to[f->edge]]));
        if (s->kind == SSCHED_PROBLEM_BROADCAST || comm) {
            /* copies of the one message over the edge; commutative: messages
             * (partial results of any set) */
        } else if (allreduce && f->type == ssched_allreduce_copy_type(s)) {
            json_object_set_new(r, "copy", json_true()); /* the broadcast of the result */
        } else if (allreduce && pb->commutative) {
            /* a partial result of any set (the trees say which) */
        } else if (s->kind == SSCHED_PROBLEM_REDUCE || allreduce || scan) {
            json_object_set_new(r, "interval", json_pack("[II]", (json_int_t)s->intervals[f->type].k,
                                                         (json_int_t)s->intervals[f->type].m));
        } else {
            const ssched_commodity_t *c = &s->commodities[f->type];
            json_object_set_new(r, "origin", json_string(p->names[c->origin]));
            json_object_set_new(r, "dest", json_string(p->names[c->dest]));
        }
        json_object_set_new(r, "rate", ssched_i_json_mpq(f->rate));
        json_array_append_new(rates, r);
    }
    json_object_set_new(root, "rates", rates);
    if (comm) {
        /* merges per node and time unit (a merge's operands are per tree) */
        json_object_set_new(root, "pricing", json_string(s->cg_pricing_exact ? "exact" : "heuristic"));
        json_t *merges = json_array();
        mpq_t q;
        mpq_init(q);
        for (size_t i = 0; i < p->n_nodes && i < s->n_nodes; i++)
            if (p->has_w[i] && mpq_sgn(s->compute_busy[i])) {
                mpq_div(q, s->compute_busy[i], p->w[i]);
                json_array_append_new(merges, json_pack("{s:s,s:o}", "node", p->names[i], "rate",
                                                        ssched_i_json_mpq(q)));
            }
        mpq_clear(q);
        json_object_set_new(root, "merges", merges);
    } else if (s->kind == SSCHED_PROBLEM_REDUCE || allreduce || scan) {
        json_t *tasks = json_array();
        for (size_t k = 0; k < s->n_tasks; k++) {
            const ssched_task_t *t = &s->tasks[k];
            json_t *r = json_object();
            json_object_set_new(r, "node", json_string(p->names[t->node]));
            json_object_set_new(r, "task", json_pack("[III]", (json_int_t)t->k, (json_int_t)t->l,
                                                     (json_int_t)t->m));
            json_object_set_new(r, "rate", ssched_i_json_mpq(t->rate));
            json_array_append_new(tasks, r);
        }
        json_object_set_new(root, "tasks", tasks);
    }

    json_t *sat = json_array();
    for (size_t i = 0; i < s->n_nodes; i++)
        for (int dir = 0; dir < 3; dir++) {
            mpq_srcptr busy, price;
            if (!ssched_i_saturated(s, i, dir, &busy, &price))
                continue;
            json_t *r = json_object();
            json_object_set_new(r, "node", json_string(p->names[i]));
            json_object_set_new(r, "port", json_string(dir == 2 ? "compute" : dir ? "in" : "out"));
            json_object_set_new(r, "busy", ssched_i_json_mpq(busy));
            json_object_set_new(r, "price", ssched_i_json_mpq(price));
            json_object_set_new(r, "binding", json_boolean(mpq_sgn(price) > 0));
            json_array_append_new(sat, r);
        }
    /* routed: the link resources, SHARED (busy = their load) or FATPIPE
     * (busy = the largest one flow's, price = its per-flow rows') */
    for (size_t l = 0; p->routes && s->route_link_busy && l < s->n_links; l++) {
        if (mpq_cmp_ui(s->route_link_busy[l], 1, 1) != 0 && mpq_sgn(s->route_link_price[l]) == 0)
            continue;
        json_t *r = json_object();
        json_object_set_new(r, "link_resource", json_string(p->routes->link_names[l]));
        json_object_set_new(r, "sharing", json_string(p->routes->sharing[l] == SSCHED_LINK_FATPIPE
                                                          ? "fatpipe" : "shared"));
        json_object_set_new(r, "busy", ssched_i_json_mpq(s->route_link_busy[l]));
        json_object_set_new(r, "price", ssched_i_json_mpq(s->route_link_price[l]));
        json_object_set_new(r, "binding", json_boolean(mpq_sgn(s->route_link_price[l]) > 0));
        json_array_append_new(sat, r);
    }
    /* switch links: each edge with a switch at either end is its own resource */
    for (size_t e = 0; !p->routes && s->link_busy && s->link_price && e < s->n_edges &&
                       e < p->n_edges; e++) {
        if (mpq_cmp_ui(s->link_busy[e], 1, 1) != 0 && mpq_sgn(s->link_price[e]) == 0)
            continue;
        json_t *r = json_object();
        json_object_set_new(r, "link", json_pack("[ss]", p->names[p->from[e]], p->names[p->to[e]]));
        json_object_set_new(r, "busy", ssched_i_json_mpq(s->link_busy[e]));
        json_object_set_new(r, "price", ssched_i_json_mpq(s->link_price[e]));
        json_object_set_new(r, "binding", json_boolean(mpq_sgn(s->link_price[e]) > 0));
        json_array_append_new(sat, r);
    }
    json_object_set_new(root, "saturated", sat);

    json_t *unreach = json_array();
    if (scan) /* r_k's value cannot reach some later participant */
        for (size_t k = 0; k < pb->n_participants; k++)
            if (s->unreachable[k])
                json_array_append_new(unreach, json_pack("{s:s}", "participant",
                                                         p->names[pb->participants[k]]));
    if (s->kind == SSCHED_PROBLEM_REDUCE || allreduce)
        for (size_t k = 0; k < pb->n_participants; k++)
            if (s->unreachable[k]) {
                json_t *r = json_object();
                json_object_set_new(r, "participant", json_string(p->names[pb->participants[k]]));
                json_object_set_new(r, allreduce ? "root" : "target",
                                    json_string(p->names[allreduce ? s->allreduce_root : pb->target]));
                json_array_append_new(unreach, r);
            }
    for (size_t t = 0; t < s->n_commodities; t++)
        if (s->unreachable[t]) {
            json_t *r = json_object();
            json_object_set_new(r, "origin", json_string(p->names[s->commodities[t].origin]));
            json_object_set_new(r, "dest", json_string(p->names[s->commodities[t].dest]));
            json_array_append_new(unreach, r);
        }
    json_object_set_new(root, "unreachable", unreach);

    json_t *solver = json_object();
    json_object_set_new(solver, "method",
                        json_string(s->method == SSCHED_METHOD_COLGEN ? "colgen" : "lp"));
    if (s->method == SSCHED_METHOD_COLGEN) {
        json_object_set_new(solver, "iterations", json_integer(s->cg_iterations));
        json_object_set_new(solver, "generated_columns", json_integer(s->cg_columns));
        json_object_set_new(solver, "exact_pricing_passes", json_integer(s->cg_exact_passes));
        json_object_set_new(solver, "pricing_seconds", json_real(s->cg_pricing_seconds));
    }
    json_object_set_new(solver, "rows", json_integer((json_int_t)s->lp_rows));
    json_object_set_new(solver, "columns", json_integer((json_int_t)s->lp_cols));
    json_object_set_new(solver, "float_seconds", json_real(s->lp.float_seconds));
    json_object_set_new(solver, "exact_seconds", json_real(s->lp.exact_seconds));
    json_object_set_new(solver, "repair_pivots", json_integer(s->lp.repair_pivots));
    json_object_set_new(solver, "float_solves", json_integer(s->lp.float_solves));
    /* each phase on its own: the totals above mix them */
    json_t *phases = json_object();
    const struct {
        const char *name, *count;
        const ssched_phase_t *ph;
    } ph[] = {{"float_iterations", s->method == SSCHED_METHOD_COLGEN ? "iterations" : "solves",
               &s->phase_float},
              {"exact_master", "solves", &s->phase_master},
              {"exact_pricing", "passes", &s->phase_pricing},
              {"upper_bound_lp", "solves", &s->phase_bound}};
    for (size_t k = 0; k < sizeof ph / sizeof *ph; k++) {
        if (k == 2 && s->method != SSCHED_METHOD_COLGEN)
            continue; /* the edge LP has no pricing */
        if (k == 3 && ph[k].ph->count == 0)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "wall_seconds", json_real(ph[k].ph->wall_seconds));
        json_object_set_new(o, "cpu_seconds", json_real(ph[k].ph->cpu_seconds));
        json_object_set_new(o, ph[k].count, json_integer(ph[k].ph->count));
        json_object_set_new(phases, ph[k].name, o);
    }
    json_object_set_new(solver, "phases", phases);
    json_object_set_new(root, "solver", solver);

    return ssched_i_write_json(out, root, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err);
}
