#include "src/cli/problem_opts.h"

#include <string.h>

#include "src/cli/cli.h"

int cli_problem_option(cli_problem_opts_t *o, int opt, const char *arg)
{
    switch (opt) {
    case OPT_PROBLEM: o->problem = arg; return 1;
    case OPT_SOURCE: o->source = arg; return 1;
    case OPT_SOURCES: o->sources = arg; return 1;
    case OPT_TARGETS: o->targets = arg; return 1;
    case OPT_PARTICIPANTS: o->participants = arg; return 1;
    case OPT_TARGET: o->target = arg; return 1;
    case OPT_SIZE: o->size = arg; return 1;
    default: return 0;
    }
}

int cli_problem_load(const char *cmd, const cli_problem_opts_t *o, ssched_platform_t *p,
                     ssched_problem_t *pb)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (!o->platform_path)
        return cli_bad_input(cmd, "missing PLATFORM file (ssched %s PLATFORM --problem ...)", cmd);
    if (!o->problem)
        return cli_bad_input(cmd, "missing --problem (scatter, gossip or reduce)");
    if (strcmp(o->problem, "scatter") && strcmp(o->problem, "gossip") &&
        strcmp(o->problem, "reduce"))
        return cli_bad_input(cmd, "--problem: unknown problem '%s' (expected scatter, gossip or reduce)",
                             o->problem);
    if (ssched_platform_load_graphml(p, o->platform_path, &err) != SSCHED_OK)
        return cli_report(cmd, &err);
    if (o->size && !cli_parse_rational(cmd, "--size", o->size, pb->size))
        return CLI_EXIT_BADINPUT;
    ssched_status_t st;
    if (!strcmp(o->problem, "scatter")) {
        if (!o->source)
            return cli_bad_input(cmd, "scatter: missing --source");
        if (!o->targets)
            return cli_bad_input(cmd, "scatter: missing --targets");
        if (o->sources || o->participants || o->target)
            return cli_bad_input(cmd, "scatter: use --source and --targets only");
        st = ssched_problem_set_scatter(pb, p, o->source, o->targets, &err);
    } else if (!strcmp(o->problem, "reduce")) {
        if (!o->participants)
            return cli_bad_input(cmd, "reduce: missing --participants");
        if (!o->target)
            return cli_bad_input(cmd, "reduce: missing --target");
        if (o->source || o->sources || o->targets)
            return cli_bad_input(cmd, "reduce: use --participants and --target only");
        st = ssched_problem_set_reduce(pb, p, o->participants, o->target, &err);
    } else {
        if (!o->sources)
            return cli_bad_input(cmd, "gossip: missing --sources");
        if (!o->targets)
            return cli_bad_input(cmd, "gossip: missing --targets");
        if (o->source || o->participants || o->target)
            return cli_bad_input(cmd, "gossip: use --sources and --targets only");
        st = ssched_problem_set_gossip(pb, p, o->sources, o->targets, &err);
    }
    if (st != SSCHED_OK) {
        ssched_error_prefix(&err, "%s: ", o->platform_path);
        return cli_report(cmd, &err);
    }
    return CLI_EXIT_OK;
}

static void print_list(FILE *out, const ssched_platform_t *p, const size_t *l, size_t n)
{
    for (size_t k = 0; k < n; k++)
        fprintf(out, "%s%s", k ? "," : "", p->names[l[k]]);
}

void cli_problem_describe(FILE *out, const ssched_platform_t *p, const ssched_problem_t *pb)
{
    if (pb->kind == SSCHED_PROBLEM_REDUCE) {
        fputs("reduce of ", out);
        print_list(out, p, pb->participants, pb->n_participants);
        fprintf(out, " (in this order) to %s", p->names[pb->target]);
        if (mpq_cmp_ui(pb->size, 1, 1) != 0) {
            fputs(", message size ", out);
            mpq_out_str(out, 10, pb->size);
        }
        return;
    }
    fprintf(out, "%s from ", ssched_problem_kind_name(pb->kind));
    print_list(out, p, pb->sources, pb->n_sources);
    fputs(" to ", out);
    print_list(out, p, pb->targets, pb->n_targets);
    if (mpq_cmp_ui(pb->size, 1, 1) != 0) {
        fputs(", message size ", out);
        mpq_out_str(out, 10, pb->size);
    }
}
