#include "src/cli/problem_opts.h"
#include "src/util/internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "src/cli/cli.h"

const cli_opt_t cli_problem_table[] = {
    {{"problem", required_argument, NULL, OPT_PROBLEM}, "KIND",
     "scatter | gossip | reduce | broadcast | allreduce | scan"},
    {{"source", required_argument, NULL, OPT_SOURCE}, "S", "scatter, broadcast: the source node"},
    {{"sources", required_argument, NULL, OPT_SOURCES}, "A,B,..", "gossip: the sources"},
    {{"targets", required_argument, NULL, OPT_TARGETS}, "A,B,..",
     "scatter, gossip: the targets; broadcast: a multicast's targets (default:\n"
     "every other node that is not a switch)"},
    {{"participants", required_argument, NULL, OPT_PARTICIPANTS}, "P0,P1,..",
     "reduce, allreduce, scan: the participants, in the operator's order"},
    {{"target", required_argument, NULL, OPT_TARGET}, "T", "reduce: the node that gets the result"},
    {{"root", required_argument, NULL, OPT_ROOT}, "R",
     "allreduce: the root (default: the best node that is not a switch)"},
    {{"commutative", no_argument, NULL, OPT_COMMUTATIVE}, NULL,
     "reduce, allreduce: the operator is also commutative (e.g. MPI_SUM)"},
    {{"exclusive", no_argument, NULL, OPT_EXCLUSIVE}, NULL,
     "scan: participant i gets v[0,i-1] (MPI_Exscan; the first gets nothing)"},
    {{"size", required_argument, NULL, OPT_SIZE}, "Z", "message size in unit messages (default 1)"},
    {{"method", required_argument, NULL, OPT_METHOD}, "lp|colgen|auto",
     "the edge LP, or column generation over trees/paths/arborescences;\n"
     "both certified exactly (auto = colgen)"},
    {{"routers", required_argument, NULL, OPT_ROUTERS}, "one-port|switch",
     "switch: every node without w that the problem does not name forwards\n"
     "on all its links at once; one-port: RR-4872's model for every node;\n"
     "default: the file's `ports`"},
    {{"model", required_argument, NULL, OPT_MODEL}, "graph|routed",
     "routed: hosts are the nodes with w or named by the problem, each\n"
     "directed edge a shared link resource, each host pair routed on a\n"
     "shortest path by c (docs/model.md, \"Routed model\"); default: graph\n"
     "(a routed platform file stays routed)"},
    {{"hosts", required_argument, NULL, OPT_HOSTS}, "multi-port|one-port",
     "a routed platform's hosts (default multi-port, as SimGrid's)"},
    {{"format", required_argument, NULL, OPT_FORMAT}, "graphml|gml|simgrid|matrix",
     "the platform file's format (default: <platform> root element: SimGrid;\n"
     ".csv: matrix; else by extension, else by content)"},
    {{"cost-from", required_argument, NULL, OPT_COST_FROM}, "ATTR",
     "edge attribute ATTR is a bandwidth in bytes per second: c = B / ATTR\n"
     "(with --unit-bytes B); the time unit is then the second"},
    {{"unit-bytes", required_argument, NULL, OPT_UNIT_BYTES}, "B",
     "bytes of one unit message (default 1; also for SimGrid and matrix files)"},
    {{"speed-from", required_argument, NULL, OPT_SPEED_FROM}, "ATTR",
     "node attribute ATTR is a speed in flops per second: w = F / ATTR\n"
     "(with --flops-per-task F)"},
    {{"flops-per-task", required_argument, NULL, OPT_FLOPS_PER_TASK}, "F",
     "flops of one reduction task (default 1; also for SimGrid and matrix files)"},
    {{"speed", required_argument, NULL, OPT_SPEED}, "S",
     "every node computes, at speed S: w = F / S (with --flops-per-task F; for a platform "
     "without speeds, e.g. a reduce on a Topology Zoo file)"},
    {{"names-from", required_argument, NULL, OPT_NAMES_FROM}, "ATTR",
     "GraphML: node attribute ATTR (e.g. label) names the nodes that carry it (a name already "
     "taken becomes \"NAME (id ID)\"); default: the node ids"},
    {{"missing-cost", required_argument, NULL, OPT_MISSING_COST}, "skip|error",
     "an edge without the cost attribute: left out, or refused (the default)"},
    {{"latency-from", required_argument, NULL, OPT_LATENCY_FROM}, "ATTR",
     "edge attribute ATTR is a latency in seconds (with --cost-from; an edge\n"
     "without it has none); without: edge attribute l, in the unit of c"},
    {{"quiet", no_argument, NULL, OPT_QUIET}, NULL, "no progress lines"},
    {{"verbose", no_argument, NULL, OPT_VERBOSE}, NULL,
     "progress from the start, and lp_solve's log (stderr)"},
    CLI_OPT_END};

/* Keep the first value of a single-value option; remember a repetition. */
static void set_once(cli_problem_opts_t *o, const char **slot, const char *arg, const char *name)
{
    if (*slot && !o->repeated)
        o->repeated = name;
    if (!*slot)
        *slot = arg;
}

int cli_problem_option(cli_problem_opts_t *o, int opt, const char *arg)
{
    switch (opt) {
    case OPT_PROBLEM: set_once(o, &o->problem, arg, "--problem"); return 1;
    case OPT_SOURCE: set_once(o, &o->source, arg, "--source"); return 1;
    case OPT_SOURCES: set_once(o, &o->sources, arg, "--sources"); return 1;
    case OPT_TARGETS: set_once(o, &o->targets, arg, "--targets"); return 1;
    case OPT_PARTICIPANTS: set_once(o, &o->participants, arg, "--participants"); return 1;
    case OPT_TARGET: set_once(o, &o->target, arg, "--target"); return 1;
    case OPT_SIZE: set_once(o, &o->size, arg, "--size"); return 1;
    case OPT_METHOD: set_once(o, &o->method, arg, "--method"); return 1;
    case OPT_QUIET: o->quiet = 1; return 1;
    case OPT_VERBOSE: o->verbose = 1; return 1;
    case OPT_COMMUTATIVE: o->commutative = 1; return 1;
    case OPT_EXCLUSIVE: o->exclusive = 1; return 1;
    case OPT_ROOT: set_once(o, &o->root, arg, "--root"); return 1;
    case OPT_COST_FROM: set_once(o, &o->cost_from, arg, "--cost-from"); return 1;
    case OPT_UNIT_BYTES: set_once(o, &o->unit_bytes, arg, "--unit-bytes"); return 1;
    case OPT_SPEED_FROM: set_once(o, &o->speed_from, arg, "--speed-from"); return 1;
    case OPT_FLOPS_PER_TASK: set_once(o, &o->flops_per_task, arg, "--flops-per-task"); return 1;
    case OPT_LATENCY_FROM: set_once(o, &o->latency_from, arg, "--latency-from"); return 1;
    case OPT_SPEED: set_once(o, &o->speed, arg, "--speed"); return 1;
    case OPT_MISSING_COST: set_once(o, &o->missing_cost, arg, "--missing-cost"); return 1;
    case OPT_NAMES_FROM: set_once(o, &o->names_from, arg, "--names-from"); return 1;
    case OPT_FORMAT: set_once(o, &o->format, arg, "--format"); return 1;
    case OPT_ROUTERS: set_once(o, &o->routers, arg, "--routers"); return 1;
    case OPT_MODEL: set_once(o, &o->model, arg, "--model"); return 1;
    case OPT_HOSTS: set_once(o, &o->hosts, arg, "--hosts"); return 1;
    default: return 0;
    }
}

/* Node names of an @FILE list: one per line (a final line without '\n'
 * counts; '\r' before '\n' is dropped; blank lines are skipped), resolved
 * to indices.  EINPUT naming the option, the file and the line. */
static ssched_status_t read_list_file(const ssched_platform_t *p, const char *path,
                                      const char *what, size_t **list, size_t *count,
                                      ssched_error_t *err)
{
    *list = NULL;
    *count = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return ssched_error_set(err, SSCHED_EINPUT, "%s @%s: cannot open the file: %s", what,
                                path, strerror(errno));
    size_t n = 0, cap = 0, *out = NULL;
    /* one mark per node: the duplicate check is O(1) per name (it was a
     * scan of the list so far: minutes for 10^4 names, issue 24 item 5) */
    unsigned char *listed = calloc(p->n_nodes ? p->n_nodes : 1, 1);
    if (!listed) {
        fclose(f);
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory reading %s", path);
    }
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    long lineno = 0;
    ssched_status_t st = SSCHED_OK;
    while (st == SSCHED_OK && (len = getline(&line, &size, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        if (memchr(line, '\0', (size_t)len)) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s @%s:%ld: NUL byte in a node name",
                                  what, path, lineno);
            break;
        }
        size_t idx;
        if (ssched_platform_find_node(p, line, &idx, err) != SSCHED_OK) {
            char shown[160]; /* a control character cannot forge a line */
            st = ssched_error_set(err, SSCHED_EINPUT, "%s @%s:%ld: unknown node '%s'", what,
                                  path, lineno, ssched_i_name_shown(line, shown, sizeof shown));
            break;
        }
        if (listed[idx]) {
            st = ssched_error_set(err, SSCHED_EINPUT, "%s @%s:%ld: node '%s' listed twice",
                                  what, path, lineno, line);
            break;
        }
        listed[idx] = 1;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 16;
            size_t *grown = realloc(out, ncap * sizeof *grown);
            if (!grown) {
                st = ssched_error_set(err, SSCHED_ENOMEM, "out of memory reading %s", path);
                break;
            }
            out = grown;
            cap = ncap;
        }
        out[n++] = idx;
    }
    if (st == SSCHED_OK && ferror(f))
        st = ssched_error_set(err, SSCHED_EINPUT, "%s @%s: read error", what, path);
    if (st == SSCHED_OK && n == 0)
        st = ssched_error_set(err, SSCHED_EINPUT, "%s @%s: no node names in the file", what, path);
    free(line);
    free(listed);
    fclose(f);
    if (st != SSCHED_OK) {
        free(out);
        return st;
    }
    *list = out;
    *count = n;
    return SSCHED_OK;
}

/* A node list option: "a,b,c" or "@FILE". */
static ssched_status_t parse_list(const ssched_platform_t *p, const char *text, const char *what,
                                  size_t **list, size_t *count, ssched_error_t *err)
{
    if (text[0] == '@')
        return read_list_file(p, text + 1, what, list, count, err);
    return ssched_platform_parse_node_list(p, text, what, list, count, err);
}

/* A single node option: the whole text is the name (it may hold commas). */
static ssched_status_t parse_one(const ssched_platform_t *p, const char *text, const char *what,
                                 size_t **list, size_t *count, ssched_error_t *err)
{
    *count = 0;
    *list = malloc(sizeof **list);
    if (!*list)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    if (!*text) {
        free(*list);
        *list = NULL;
        return ssched_error_set(err, SSCHED_EINPUT, "%s: missing node name", what);
    }
    if (ssched_platform_find_node(p, text, *list, err) != SSCHED_OK) {
        free(*list);
        *list = NULL;
        return ssched_error_set(err, SSCHED_EINPUT, "%s: unknown node '%s'", what, text);
    }
    *count = 1;
    return SSCHED_OK;
}

/* Fill pb, of kind pb->kind, from the options (lists already known to be
 * present) and check it with ssched_problem_validate. */
static ssched_status_t build_problem(const cli_problem_opts_t *o, ssched_platform_t *p,
                                     ssched_problem_t *pb, ssched_error_t *err)
{
    ssched_status_t st;
    if (pb->kind == SSCHED_PROBLEM_BROADCAST) {
        st = parse_one(p, o->source, "--source", &pb->sources, &pb->n_sources, err);
        if (st == SSCHED_OK && o->targets) {
            st = parse_list(p, o->targets, "--targets", &pb->targets, &pb->n_targets, err);
        } else if (st == SSCHED_OK) {
            /* default targets: every other node that is not a switch, once
             * --routers switch has made the routers (no w) switches */
            if ((o->routers && !strcmp(o->routers, "switch")) ||
                (o->model && !strcmp(o->model, "routed")))
                for (size_t i = 0; i < p->n_nodes; i++)
                    if (!p->has_w[i] && i != pb->sources[0])
                        p->multiport[i] = 1;
            st = ssched_problem_default_targets(p, pb->sources[0], &pb->targets, &pb->n_targets,
                                                err);
        }
    } else if (pb->kind == SSCHED_PROBLEM_SCATTER) {
        st = parse_one(p, o->source, "--source", &pb->sources, &pb->n_sources, err);
        if (st == SSCHED_OK)
            st = parse_list(p, o->targets, "--targets", &pb->targets, &pb->n_targets, err);
    } else if (pb->kind == SSCHED_PROBLEM_REDUCE) {
        size_t *t = NULL, nt = 0;
        st = parse_list(p, o->participants, "--participants", &pb->participants,
                        &pb->n_participants, err);
        if (st == SSCHED_OK)
            st = parse_one(p, o->target, "--target", &t, &nt, err);
        if (st == SSCHED_OK)
            pb->target = t[0];
        free(t);
    } else if (pb->kind == SSCHED_PROBLEM_SCAN) {
        st = parse_list(p, o->participants, "--participants", &pb->participants,
                        &pb->n_participants, err);
    } else if (pb->kind == SSCHED_PROBLEM_ALLREDUCE) {
        size_t *t = NULL, nt = 0;
        pb->target = SIZE_MAX;
        st = parse_list(p, o->participants, "--participants", &pb->participants,
                        &pb->n_participants, err);
        if (st == SSCHED_OK && o->root)
            st = parse_one(p, o->root, "--root", &t, &nt, err);
        if (st == SSCHED_OK && o->root)
            pb->target = t[0];
        free(t);
    } else {
        st = parse_list(p, o->sources, "--sources", &pb->sources, &pb->n_sources, err);
        if (st == SSCHED_OK)
            st = parse_list(p, o->targets, "--targets", &pb->targets, &pb->n_targets, err);
    }
    pb->commutative = o->commutative;
    pb->exclusive = o->exclusive;
    return st == SSCHED_OK ? ssched_problem_validate(pb, p, err) : st;
}

/* The platform file with --format, --cost-from/--unit-bytes,
 * --speed-from/--flops-per-task and --latency-from. */
static int load_platform(const char *cmd, const cli_problem_opts_t *o, ssched_platform_t *p,
                         ssched_error_t *err)
{
    ssched_platform_read_options_t ro;
    ssched_platform_read_options_default(&ro);
    /* the library's names, but "auto" is the option's absence */
    if (o->format && (ssched_platform_format_parse(o->format, &ro.format, NULL) != SSCHED_OK ||
                      ro.format == SSCHED_PLATFORM_AUTO))
        return cli_bad_input(cmd, "--format: unknown platform format '%s' (graphml, gml, "
                             "simgrid or matrix)", o->format);
    /* SimGrid and matrix files give bandwidths and speeds themselves */
    ssched_platform_format_t resolved = ssched_platform_format_of(o->platform_path, ro.format);
    int own_rates = resolved == SSCHED_PLATFORM_SIMGRID || resolved == SSCHED_PLATFORM_MATRIX;
    if (o->unit_bytes && !o->cost_from && !own_rates)
        return cli_bad_input(cmd, "--unit-bytes is used with --cost-from ATTR (or a SimGrid or "
                             "matrix platform)");
    if (o->flops_per_task && !o->speed_from && !o->speed && !own_rates)
        return cli_bad_input(cmd, "--flops-per-task is used with --speed-from ATTR or --speed S "
                             "(or a SimGrid or matrix platform)");
    if (o->speed && (o->speed_from || own_rates))
        return cli_bad_input(cmd, "--speed gives every node one speed: not with --speed-from or "
                             "a SimGrid or matrix platform");
    if (o->missing_cost && strcmp(o->missing_cost, "skip") && strcmp(o->missing_cost, "error"))
        return cli_bad_input(cmd, "--missing-cost: '%s' is not skip or error", o->missing_cost);
    ro.skip_missing_cost = o->missing_cost && !strcmp(o->missing_cost, "skip");
    ro.names_from = o->names_from;
    if (o->latency_from && !o->cost_from)
        return cli_bad_input(cmd, "--latency-from ATTR reads latencies in seconds: it is used "
                             "with --cost-from ATTR --unit-bytes B (times in seconds); without "
                             "them, give the latency as edge attribute l in the unit of c");
    ro.cost_from = o->cost_from;
    ro.speed_from = o->speed_from;
    ro.latency_from = o->latency_from;
    mpq_t bytes, flops, speed;
    mpq_inits(bytes, flops, speed, NULL);
    int rc = CLI_EXIT_OK;
    if (o->unit_bytes && !cli_parse_rational(cmd, "--unit-bytes", o->unit_bytes, bytes))
        rc = CLI_EXIT_BADINPUT;
    else if (o->speed && (!cli_parse_rational(cmd, "--speed", o->speed, speed) ||
                          (mpq_sgn(speed) <= 0 &&
                           cli_bad_input(cmd, "--speed must be positive"))))
        rc = CLI_EXIT_BADINPUT;
    else if (o->flops_per_task &&
             !cli_parse_rational(cmd, "--flops-per-task", o->flops_per_task, flops))
        rc = CLI_EXIT_BADINPUT;
    if (rc == CLI_EXIT_OK) {
        ro.unit_bytes = o->unit_bytes ? bytes : NULL;
        ro.flops_per_task = o->flops_per_task ? flops : NULL;
        ro.speed = o->speed ? speed : NULL;
        if (ssched_platform_load(p, o->platform_path, &ro, err) != SSCHED_OK)
            rc = cli_report(cmd, err);
    }
    mpq_clears(bytes, flops, speed, NULL);
    return rc;
}

/* Node index i of graph g as the index of the host of the same name in r. */
static int remap(const ssched_platform_t *g, const ssched_platform_t *r, size_t *i)
{
    return ssched_platform_find_node(r, g->names[*i], i, NULL) == SSCHED_OK;
}

/* --model routed: replace p (whose switches are the routers) by its routed
 * platform and the problem's nodes by the hosts of the same names (every
 * node the problem names is a host). */
static int route_platform(const char *cmd, const cli_problem_opts_t *o, ssched_platform_t *p,
                          ssched_problem_t *pb)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_platform_t r;
    if (ssched_platform_route(p, NULL, &r, &err) != SSCHED_OK) {
        ssched_error_prefix(&err, "%s: --model routed: ", o->platform_path);
        return cli_report(cmd, &err);
    }
    int ok = 1;
    for (size_t k = 0; k < pb->n_sources; k++)
        ok &= remap(p, &r, &pb->sources[k]);
    for (size_t k = 0; k < pb->n_targets; k++)
        ok &= remap(p, &r, &pb->targets[k]);
    for (size_t k = 0; k < pb->n_participants; k++)
        ok &= remap(p, &r, &pb->participants[k]);
    if (pb->target != SIZE_MAX && (pb->kind == SSCHED_PROBLEM_REDUCE ||
                                   pb->kind == SSCHED_PROBLEM_ALLREDUCE))
        ok &= remap(p, &r, &pb->target);
    ssched_platform_free(p);
    *p = r;
    if (!ok) { /* cannot happen: the problem's nodes are hosts */
        fprintf(stderr, "ssched %s: --model routed: a node of the problem is a router\n", cmd);
        return CLI_EXIT_FAILURE;
    }
    if (ssched_problem_validate(pb, p, &err) != SSCHED_OK) {
        ssched_error_prefix(&err, "%s: --model routed: ", o->platform_path);
        return cli_report(cmd, &err);
    }
    return CLI_EXIT_OK;
}

int cli_problem_load(const char *cmd, const cli_problem_opts_t *o, ssched_platform_t *p,
                     ssched_problem_t *pb)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (o->repeated)
        return cli_bad_input(cmd, "option %s given twice (it takes a single value)", o->repeated);
    if (!o->platform_path)
        return cli_bad_input(cmd, "missing PLATFORM file (ssched %s PLATFORM --problem ...)", cmd);
    if (!o->problem)
        return cli_bad_input(cmd, "missing --problem (scatter, gossip, reduce, broadcast, "
                             "allreduce or scan)");
    ssched_problem_kind_t kind;
    if (ssched_problem_kind_parse(o->problem, &kind, NULL) != SSCHED_OK)
        return cli_bad_input(cmd, "--problem: unknown problem '%s' (expected scatter, gossip, "
                             "reduce, broadcast, allreduce or scan)", o->problem);
    if (o->commutative && kind != SSCHED_PROBLEM_REDUCE && kind != SSCHED_PROBLEM_ALLREDUCE)
        return cli_bad_input(cmd, "--commutative: applies to reduce and allreduce only, not %s",
                             o->problem);
    /* scan (issue 27): solve, lp and unrolled schedules so far */
    if (kind == SSCHED_PROBLEM_SCAN && strcmp(cmd, "solve") && strcmp(cmd, "lp") &&
        strcmp(cmd, "schedule"))
        return cli_bad_input(cmd, "--problem scan: not supported for scan yet (only ssched "
                             "solve, ssched lp and ssched schedule --unroll)");
    if (o->exclusive && kind != SSCHED_PROBLEM_SCAN)
        return cli_bad_input(cmd, "--exclusive: applies to scan only, not %s", o->problem);
    if (o->root && kind != SSCHED_PROBLEM_ALLREDUCE)
        return cli_bad_input(cmd, "--root: applies to allreduce only (reduce takes --target)");
    if (o->routers && strcmp(o->routers, "one-port") && strcmp(o->routers, "switch"))
        return cli_bad_input(cmd, "--routers: unknown model '%s' (one-port or switch)", o->routers);
    if (o->model && strcmp(o->model, "graph") && strcmp(o->model, "routed"))
        return cli_bad_input(cmd, "--model: unknown model '%s' (graph or routed)", o->model);
    if (o->hosts && strcmp(o->hosts, "one-port") && strcmp(o->hosts, "multi-port"))
        return cli_bad_input(cmd, "--hosts: unknown host model '%s' (one-port or multi-port)",
                             o->hosts);
    int to_route = o->model && !strcmp(o->model, "routed");
    if (to_route && o->routers && strcmp(o->routers, "switch"))
        return cli_bad_input(cmd, "--model routed: its routers are the nodes without w the "
                             "problem does not name; --routers %s does not apply", o->routers);
    int rc = load_platform(cmd, o, p, &err);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (p->routes) {
        if (o->model && !strcmp(o->model, "graph"))
            return cli_bad_input(cmd, "--model graph: %s is a routed platform (hosts and "
                                 "routes)", o->platform_path);
        if (o->routers)
            return cli_bad_input(cmd, "--routers: %s is a routed platform, its nodes are "
                                 "hosts only", o->platform_path);
        to_route = 0;
    } else if (o->hosts && !to_route) {
        return cli_bad_input(cmd, "--hosts applies to routed platforms (--model routed or a "
                             "SimGrid platform)");
    }
    if (o->routers && !strcmp(o->routers, "one-port"))
        for (size_t i = 0; i < p->n_nodes; i++)
            p->multiport[i] = 0;
    if (o->size && !cli_parse_rational(cmd, "--size", o->size, pb->size))
        return CLI_EXIT_BADINPUT;
    if (kind == SSCHED_PROBLEM_BROADCAST) {
        if (!o->source)
            return cli_bad_input(cmd, "broadcast: missing --source");
        if (o->sources || o->participants || o->target)
            return cli_bad_input(cmd, "broadcast: use --source and (optionally) --targets only");
    } else if (kind == SSCHED_PROBLEM_SCATTER) {
        if (!o->source)
            return cli_bad_input(cmd, "scatter: missing --source");
        if (!o->targets)
            return cli_bad_input(cmd, "scatter: missing --targets");
        if (o->sources || o->participants || o->target)
            return cli_bad_input(cmd, "scatter: use --source and --targets only");
    } else if (kind == SSCHED_PROBLEM_REDUCE) {
        if (!o->participants)
            return cli_bad_input(cmd, "reduce: missing --participants");
        if (!o->target)
            return cli_bad_input(cmd, "reduce: missing --target");
        if (o->source || o->sources || o->targets)
            return cli_bad_input(cmd, "reduce: use --participants and --target only");
    } else if (kind == SSCHED_PROBLEM_SCAN) {
        if (!o->participants)
            return cli_bad_input(cmd, "scan: missing --participants");
        if (o->source || o->sources || o->targets || o->target)
            return cli_bad_input(cmd, "scan: use --participants (and --exclusive) only");
    } else if (kind == SSCHED_PROBLEM_ALLREDUCE) {
        if (!o->participants)
            return cli_bad_input(cmd, "allreduce: missing --participants");
        if (o->source || o->sources || o->targets || o->target)
            return cli_bad_input(cmd, "allreduce: use --participants and (optionally) --root only");
    } else {
        if (!o->sources)
            return cli_bad_input(cmd, "gossip: missing --sources");
        if (!o->targets)
            return cli_bad_input(cmd, "gossip: missing --targets");
        if (o->source || o->participants || o->target)
            return cli_bad_input(cmd, "gossip: use --sources and --targets only");
    }
    pb->kind = kind;
    if (build_problem(o, p, pb, &err) != SSCHED_OK) {
        /* the problem's fields as this command's options (targets first:
         * "problem.target" is its prefix) */
        int one_source = kind == SSCHED_PROBLEM_SCATTER || kind == SSCHED_PROBLEM_BROADCAST;
        ssched_error_rename(&err, "problem.sources", one_source ? "--source" : "--sources");
        ssched_error_rename(&err, "problem.targets", "--targets");
        ssched_error_rename(&err, "problem.participants", "--participants");
        ssched_error_rename(&err, "problem.size", "--size");
        ssched_error_rename(&err, "problem.commutative", "--commutative");
        ssched_error_rename(&err, "problem.exclusive", "--exclusive");
        ssched_error_rename(&err, "problem.target",
                            kind == SSCHED_PROBLEM_ALLREDUCE ? "--root" : "--target");
        ssched_error_prefix(&err, "%s: ", o->platform_path);
        return cli_report(cmd, &err);
    }
    if ((o->routers && !strcmp(o->routers, "switch")) || to_route) {
        unsigned char *named = ssched_i_calloc(p->n_nodes, 1);
        if (!named) {
            fprintf(stderr, "ssched %s: out of memory\n", cmd);
            return CLI_EXIT_FAILURE;
        }
        for (size_t k = 0; k < pb->n_sources; k++)
            named[pb->sources[k]] = 1;
        for (size_t k = 0; k < pb->n_targets; k++)
            named[pb->targets[k]] = 1;
        for (size_t k = 0; k < pb->n_participants; k++)
            named[pb->participants[k]] = 1;
        if (pb->kind == SSCHED_PROBLEM_REDUCE ||
            (pb->kind == SSCHED_PROBLEM_ALLREDUCE && pb->target != SIZE_MAX))
            named[pb->target] = 1;
        for (size_t i = 0; i < p->n_nodes; i++)
            if (!p->has_w[i] && !named[i])
                p->multiport[i] = 1;
        free(named);
    }
    if (to_route && (rc = route_platform(cmd, o, p, pb)) != CLI_EXIT_OK)
        return rc;
    if (p->routes)
        p->routes->hosts_one_port = o->hosts && !strcmp(o->hosts, "one-port");
    return CLI_EXIT_OK;
}

/* Progress on stderr, one line per report, for solves longer than a second. */
static void progress_line(void *ctx, const ssched_progress_t *info)
{
    const char *cmd = ctx;
    if (info->exact)
        fprintf(stderr, "ssched %s: %.1f s, exact certification, %ld columns, TP = %.10g\n", cmd,
                info->seconds, info->columns, info->lower);
    else
        fprintf(stderr, "ssched %s: %.1f s, iteration %ld, %ld columns, TP in [%.10g, %.10g], gap %.2e\n",
                cmd, info->seconds, info->iteration, info->columns, info->lower, info->upper,
                info->upper - info->lower);
}

/* Inside a long step of the solve: how far it is. */
static void step_line(void *ctx, const char *stage, size_t done, size_t total, double seconds)
{
    fprintf(stderr, "ssched %s: %.1f s, %s: %zu of %zu\n", (const char *)ctx, seconds, stage, done,
            total);
}

int cli_steady_options(const char *cmd, const cli_problem_opts_t *o, ssched_steady_options_t *opt)
{
    ssched_steady_options_default(opt);
    if (o->method && ssched_method_parse(o->method, &opt->method, NULL) != SSCHED_OK)
        return cli_bad_input(cmd, "--method: unknown method '%s' (lp, colgen or auto)", o->method);
    if (o->quiet && o->verbose)
        return cli_bad_input(cmd, "--quiet and --verbose exclude each other");
    if (!o->quiet) {
        opt->progress = progress_line;
        opt->step = step_line;
        opt->progress_ctx = (void *)cmd;
        opt->progress_interval = o->verbose ? 0.2 : 1.0;
    }
    opt->lp.verbose = o->verbose;
    return CLI_EXIT_OK;
}
