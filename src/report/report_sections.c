/* The sections of the HTML report (ssched/report.h), in page order. */
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "src/report/report_internal.h"

/* A node list, shortened past 24 names (the schedule file has them all). */
static void names(FILE *out, const ssched_platform_t *p, const size_t *l, size_t n)
{
    size_t shown = n > 24 ? 20 : n;
    for (size_t k = 0; k < shown; k++) {
        if (k)
            fputs(", ", out);
        ssched_i_svg_escape(out, p->names[l[k]]);
    }
    if (shown < n)
        fprintf(out, " and %zu more", n - shown);
}

static void problem_text(FILE *out, const report_t *r)
{
    const ssched_platform_t *p = r->p;
    const ssched_problem_t *pb = r->pb;
    fprintf(out, "<p>Series of <b>%s</b>", ssched_problem_kind_name(pb->kind));
    switch (pb->kind) {
    case SSCHED_PROBLEM_SCATTER:
    case SSCHED_PROBLEM_BROADCAST:
        fputs(" from ", out);
        names(out, p, pb->sources, 1);
        fprintf(out, " to %zu target%s: ", pb->n_targets, pb->n_targets == 1 ? "" : "s");
        names(out, p, pb->targets, pb->n_targets);
        break;
    case SSCHED_PROBLEM_GOSSIP:
        fputs(" from ", out);
        names(out, p, pb->sources, pb->n_sources);
        fputs(" to ", out);
        names(out, p, pb->targets, pb->n_targets);
        break;
    case SSCHED_PROBLEM_SCAN:
    case SSCHED_PROBLEM_REDUCE:
    case SSCHED_PROBLEM_ALLREDUCE:
        fprintf(out, " of %zu participants%s: ", pb->n_participants,
                pb->commutative ? " (commutative operator)" : " (in operator order)");
        names(out, p, pb->participants, pb->n_participants);
        if (pb->kind != SSCHED_PROBLEM_SCAN && pb->target < p->n_nodes) {
            fputs(pb->kind == SSCHED_PROBLEM_REDUCE ? " to " : ", root ", out);
            ssched_i_svg_escape(out, p->names[pb->target]);
        }
        break;
    }
    fputs(", message size ", out);
    ssched_i_report_q(out, pb->size);
    if (p->routes)
        /* docs/model.md, "Routed model": hosts only, one route per pair */
        fprintf(out, ", on a routed platform of %zu hosts (%s), %zu host pairs with routes over "
                     "%zu link resources.</p>\n",
                p->n_nodes, p->routes->hosts_one_port ? "one-port" : "multi-port", p->n_edges,
                p->routes->n_links);
    else
        fprintf(out, ", on a platform of %zu nodes and %zu directed links.</p>\n", p->n_nodes,
                p->n_edges);
}

void ssched_i_report_summary(FILE *out, const report_t *r)
{
    const ssched_steady_t *st = &r->st;
    fputs("<h2 id=\"summary\">Problem and certified throughput</h2>\n", out);
    problem_text(out, r);
    char *dec = ssched_rational_to_decimal(st->throughput, 10, SSCHED_DECIMAL_SIGNIFICANT);
    fputs("<p class=\"tp\" id=\"tp\">TP = <span id=\"tp-exact\">", out);
    ssched_i_report_q(out, st->throughput);
    fprintf(out, "</span> operations per %s (&asymp; %s)</p>\n",
            r->p->seconds ? "second" : "time unit", dec ? dec : "?");
    free(dec);
    fputs("<table id=\"certificate\"><tr><th>method</th><td>", out);
    fputs(st->method == SSCHED_METHOD_COLGEN
              ? "column generation (exact master solve and exact pricing pass)"
              : "edge LP of RR-4872 (exact basis certificate)", out);
    fprintf(out, "</td></tr><tr><th>LP size</th><td>%zu rows, %zu columns</td></tr>", st->lp_rows,
            st->lp_cols);
    fprintf(out, "<tr><th>certificate</th><td>primal and dual feasibility checked in exact "
                 "rationals (GMP); %zu floating-point solve%s, %zu exact repair pivot%s</td></tr>",
            st->lp.float_solves, st->lp.float_solves == 1 ? "" : "s", st->lp.repair_pivots,
            st->lp.repair_pivots == 1 ? "" : "s");
    if (st->method == SSCHED_METHOD_COLGEN)
        fprintf(out, "<tr><th>column generation</th><td>%ld rounds, %ld columns, %ld exact "
                     "pricing pass%s</td></tr>",
                st->cg_iterations, st->cg_columns, st->cg_exact_passes,
                st->cg_exact_passes == 1 ? "" : "es");
    if (mpq_sgn(st->upper_bound) > 0 && !st->optimal) {
        fputs("<tr><th>upper bound</th><td id=\"upper-bound\">", out);
        ssched_i_report_q(out, st->upper_bound);
        fputs(" (certified; TP above is achievable, not proven optimal)</td></tr>", out);
    }
    fputs("<tr><th>periodic schedule</th><td>period ", out);
    ssched_i_report_q(out, r->period.period);
    fputs(", ", out);
    char *ops = mpz_get_str(NULL, 10, r->period.ops_per_period);
    fprintf(out, "%s operations per period, %zu slots; <span class=\"ok\">valid</span> for the "
                 "independent checker</td></tr></table>\n",
            ops ? ops : "?", r->period.n_slots);
    free(ops);
}

/* An edge's tooltip: its busy fraction, and on a routed platform the
 * route's links (the pair's time is its bottleneck's, c(e) = max link_c). */
static char *route_title(const ssched_platform_t *p, size_t e, const char *busy)
{
    size_t n = strlen(busy) + 64;
    const ssched_routes_t *rt = p->routes;
    for (size_t k = rt ? rt->route_start[e] : 0; rt && k < rt->route_start[e + 1]; k++)
        n += strlen(rt->link_names[rt->route_links[k]]) + 2;
    char *t = malloc(n);
    if (!t)
        return NULL;
    int w = snprintf(t, n, rt ? "at its bottleneck's rate %s of the time" : "busy %s of the time",
                     busy);
    size_t used = w > 0 ? (size_t)w : 0;
    for (size_t k = rt ? rt->route_start[e] : 0; rt && k < rt->route_start[e + 1]; k++) {
        w = snprintf(t + used, n - used, "%s%s", k == rt->route_start[e] ? "; route " : ", ",
                     rt->link_names[rt->route_links[k]]);
        used += w > 0 ? (size_t)w : 0;
    }
    return t;
}

/* Per edge: fraction of time busy (flows x size x c), exactly, then as
 * text for the tooltips. */
static ssched_status_t edge_loads(const report_t *r, double *load, char **title,
                                  unsigned char *hot, unsigned char *hot_node,
                                  char **node_title)
{
    const ssched_platform_t *p = r->p;
    const ssched_steady_t *st = &r->st;
    mpq_t q, t;
    mpq_inits(q, t, NULL);
    for (size_t e = 0; e < p->n_edges; e++) {
        mpq_set_ui(q, 0, 1);
        for (size_t k = 0; k < st->n_flows; k++)
            if (st->flows[k].edge == e) {
                mpq_mul(t, st->flows[k].rate, p->c[e]);
                mpq_mul(t, t, r->pb->size);
                mpq_add(q, q, t);
            }
        load[e] = mpq_get_d(q);
        char *s = ssched_rational_to_string(q);
        title[e] = s ? route_title(p, e, s) : NULL;
        free(s);
        hot[e] = st->link_price && mpq_sgn(st->link_price[e]) > 0;
        /* routed: a pair in use is red when a link of its route is a
         * bottleneck */
        for (size_t k = p->routes ? p->routes->route_start[e] : 0; mpq_sgn(q) > 0 &&
             st->route_link_price && p->routes && k < p->routes->route_start[e + 1]; k++)
            if (mpq_sgn(st->route_link_price[p->routes->route_links[k]]) > 0)
                hot[e] = 1;
    }
    for (size_t i = 0; i < p->n_nodes; i++) {
        int out_hot = st->out_price && mpq_sgn(st->out_price[i]) > 0;
        int in_hot = st->in_price && mpq_sgn(st->in_price[i]) > 0;
        int cpu_hot = st->compute_price && mpq_sgn(st->compute_price[i]) > 0;
        hot_node[i] = out_hot || in_hot || cpu_hot;
        char buf[128];
        snprintf(buf, sizeof buf, "%s%s%s", out_hot ? "out-port saturated (price > 0) " : "",
                 in_hot ? "in-port saturated (price > 0) " : "",
                 cpu_hot ? "processor saturated (price > 0)" : "");
        node_title[i] = buf[0] ? strdup(buf) : NULL;
    }
    mpq_clears(q, t, NULL);
    return SSCHED_OK;
}

static void free_texts(char **t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        free(t[i]);
    free(t);
}

/* The bottleneck resources as a table with their exact prices. */
static void bottlenecks(FILE *out, const report_t *r)
{
    const ssched_platform_t *p = r->p;
    const ssched_steady_t *st = &r->st;
    fputs("<table id=\"bottlenecks\"><tr><th>resource</th><th>dual price</th><th>busy</th></tr>\n",
          out);
    static const char *const what[3] = {"out-port", "in-port", "processor"};
    for (size_t i = 0; i < p->n_nodes; i++) {
        mpq_t *price[3] = {st->out_price, st->in_price, st->compute_price};
        mpq_t *busy[3] = {st->out_busy, st->in_busy, st->compute_busy};
        for (int k = 0; k < 3; k++) {
            if (!price[k] || mpq_sgn(price[k][i]) <= 0)
                continue;
            fputs("<tr><td>", out);
            ssched_i_svg_escape(out, p->names[i]);
            fprintf(out, " %s</td><td>", what[k]);
            ssched_i_report_q(out, price[k][i]);
            fputs("</td><td>", out);
            if (busy[k])
                ssched_i_report_q(out, busy[k][i]);
            fputs("</td></tr>\n", out);
        }
    }
    for (size_t e = 0; st->link_price && e < p->n_edges; e++) {
        if (mpq_sgn(st->link_price[e]) <= 0)
            continue;
        fputs("<tr><td>link ", out);
        ssched_i_svg_escape(out, p->names[p->from[e]]);
        fputs(" &rarr; ", out);
        ssched_i_svg_escape(out, p->names[p->to[e]]);
        fputs("</td><td>", out);
        ssched_i_report_q(out, st->link_price[e]);
        fputs("</td><td>", out);
        ssched_i_report_q(out, st->link_busy[e]);
        fputs("</td></tr>\n", out);
    }
    /* routed: the link resources of the platform file (SHARED rows are
     * sums over the flows crossing them; a FATPIPE row bounds each flow) */
    const ssched_routes_t *rt = p->routes;
    for (size_t L = 0; rt && st->route_link_price && L < rt->n_links; L++) {
        if (mpq_sgn(st->route_link_price[L]) <= 0)
            continue;
        fprintf(out, "<tr class=\"route-link\"><td>link %s ",
                rt->sharing[L] == SSCHED_LINK_FATPIPE ? "(FATPIPE)" : "(SHARED)");
        ssched_i_svg_escape(out, rt->link_names[L]);
        fputs("</td><td>", out);
        ssched_i_report_q(out, st->route_link_price[L]);
        fputs("</td><td>", out);
        if (st->route_link_busy)
            ssched_i_report_q(out, st->route_link_busy[L]);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

static double drawing_size(size_t n)
{
    return n <= 10 ? 420 : n <= 30 ? 640 : n <= 60 ? 820 : 1000;
}

ssched_status_t ssched_i_report_platform(FILE *out, const report_t *r, ssched_error_t *err)
{
    const ssched_platform_t *p = r->p;
    size_t ne = p->n_edges ? p->n_edges : 1, nn = p->n_nodes ? p->n_nodes : 1;
    double *load = calloc(ne, sizeof *load);
    char **title = calloc(ne, sizeof *title), **node_title = calloc(nn, sizeof *node_title);
    unsigned char *hot = calloc(ne, 1), *hot_node = calloc(nn, 1);
    ssched_status_t st = SSCHED_OK;
    if (!load || !title || !node_title || !hot || !hot_node)
        st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (st == SSCHED_OK)
        st = edge_loads(r, load, title, hot, hot_node, node_title);
    if (st == SSCHED_OK) {
        fputs("<h2 id=\"platform\">Platform, loads and bottlenecks</h2>\n<p class=\"note\">Link "
              "width: fraction of time the link is busy in the steady state. Red: a resource "
              "with a positive dual price (a bottleneck: one more unit of it raises TP). "
              "Yellow nodes compute (have w); squares are switches. Layout: igraph "
              "Kamada&ndash;Kawai. Hover for exact values.", out);
        if (p->routes)
            fputs(" Routed platform: the nodes are the hosts and each arrow a host pair, whose "
                  "messages follow the platform's route (hover for its links); the resources "
                  "are the links below, one capacity row each (docs/model.md, routed model), "
                  "and a pair in use is red when a link of its route has a positive price.", out);
        fputs("</p>\n<div class=\"figure\">", out);
        double size = drawing_size(p->n_nodes);
        ssched_i_report_drawing_t d = {r->x, r->y, size, size * 0.75, load, hot, hot_node, NULL,
                                       title, node_title, 0, "platform-svg"};
        ssched_i_report_platform_svg(out, p, &d);
        fputs("</div>\n", out);
        bottlenecks(out, r);
    }
    free(load);
    free_texts(title, ne);
    free_texts(node_title, nn);
    free(hot);
    free(hot_node);
    return st;
}
