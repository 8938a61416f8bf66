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
    case OPT_METHOD: o->method = arg; return 1;
    case OPT_QUIET: o->quiet = 1; return 1;
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

int cli_steady_options(const char *cmd, const cli_problem_opts_t *o, ssched_steady_options_t *opt)
{
    ssched_steady_options_default(opt);
    if (o->method) {
        if (!strcmp(o->method, "lp"))
            opt->method = SSCHED_METHOD_LP;
        else if (!strcmp(o->method, "colgen"))
            opt->method = SSCHED_METHOD_COLGEN;
        else if (!strcmp(o->method, "auto"))
            opt->method = SSCHED_METHOD_AUTO;
        else
            return cli_bad_input(cmd, "--method: unknown method '%s' (lp, colgen or auto)", o->method);
    }
    if (!o->quiet) {
        opt->progress = progress_line;
        opt->progress_ctx = (void *)cmd;
        opt->progress_interval = 1.0;
    }
    return CLI_EXIT_OK;
}
