/* ssched plan: one large collective of M bytes as a series of K segments
 * (issue 25), for the drop-in interposer libssched_pmpi (src/pmpi/).
 *
 * A segment of s bytes is one operation of the unrolled schedule: the
 * platform's costs per unit message (c, w, and a routed platform's link_c)
 * are scaled by s / U, where U is the bytes of the platform's unit message
 * (--unit-bytes of a SimGrid, matrix or --cost-from platform, else
 * --unit-message-bytes; a SimGrid file without --unit-bytes has U = 1, its
 * c being 1 / bandwidth); latencies are unchanged.  This is the scaling of
 * bench/mpi_vs_collectives.sh (c and w times SIZE / BASE).  The prediction
 * for s is the makespan of the unrolled schedule of K = ceil(M / s) full
 * segments: the interposer pads the last, shorter segment to s bytes, so
 * that makespan is exactly what it runs (for M / s not whole, an upper
 * bound on the cost of the true bytes).  The candidate of least makespan
 * is written to DIR (checked, as `ssched schedule --unroll` checks), with
 * its rank map (line r = the node of rank r) and a descriptor
 * (ssched-plan/1 JSON) that the interposer reads. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "ssched/export.h"
#include "ssched/schedule.h"

static const char *synopsis =
    "usage: ssched plan PLATFORM <problem options> --bytes M -o DIR [options]\n"
    "  One collective of M bytes cut into K segments of s bytes: the predicted\n"
    "  time for each candidate s, and the best plan written to DIR for the\n"
    "  MPI interposer libssched_pmpi (SSCHED_PLANS=DIR).\n";

enum { O_BYTES = OPT_PROBLEM_LAST + 1, O_DTSIZE, O_HOSTFILE, O_UNITMSG, O_MAXSEG, O_SEGMENT,
       O_BASELINE, O_OVERHEAD, O_NOPRUNE };
static const cli_opt_t plan_table[] = {
    {{"output", required_argument, NULL, 'o'}, "DIR",
     "the plan directory (created if absent): NAME.plan.json, NAME.unrolled.json,\n"
     "NAME.map with NAME = COLLECTIVE-M-rROOT"},
    {{"bytes", required_argument, NULL, O_BYTES}, "M", "bytes of the collective's buffer"},
    {{"datatype-size", required_argument, NULL, O_DTSIZE}, "D",
     "bytes of one element (default 1): segments are multiples of D; the\n"
     "plan applies to calls of that datatype size only"},
    {{"hostfile", required_argument, NULL, O_HOSTFILE}, "FILE",
     "line r = the node of MPI rank r (smpirun's hostfile; text after ':' is\n"
     "ignored); default: every node in platform order"},
    {{"unit-message-bytes", required_argument, NULL, O_UNITMSG}, "U",
     "bytes of the platform's unit message, for platforms whose c and w are\n"
     "times (GraphML); default: --unit-bytes, else 1"},
    {{"max-segments", required_argument, NULL, O_MAXSEG}, "N",
     "candidates with at most N segments (default 1024)"},
    {{"segment", required_argument, NULL, O_SEGMENT}, "S",
     "only the candidate of S bytes (rounded down to a multiple of D)"},
    {{"baseline-seconds", required_argument, NULL, O_BASELINE}, "T",
     "the time MPI itself takes (measured): no plan is written when the\n"
     "best prediction is not below T (the call stays MPI's)"},
    {{"overhead-seconds", required_argument, NULL, O_OVERHEAD}, "O|O0,O1,...",
     "the executor's fixed cost per call (its start: about one latency;\n"
     "measured), added to the prediction: the time per call printed and\n"
     "written (predicted_call_seconds), compared with --baseline-seconds T\n"
     "(default 0).  One value per rank (rank r's entry to the start; ranks\n"
     "enter apart): the time per call is max_r (O_r + rank r's end)"},
    {{"no-prune", no_argument, NULL, O_NOPRUNE}, NULL,
     "plan every candidate, also those whose lower bound (K / TP or LB1) is\n"
     "not below the best makespan found (the choice is the same)"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const plan_tables[] = {cli_problem_table, plan_table, NULL};
static const char *const plan_titles[] = {"problem and platform options:", "options:", NULL};

#include "src/cli/plan.h"

static const char *collective_name(ssched_problem_kind_t k)
{
    return k == SSCHED_PROBLEM_BROADCAST ? "bcast" : k == SSCHED_PROBLEM_REDUCE ? "reduce"
                                                                               : "allreduce";
}

static int write_text(const char *path, const char *what, const char *text)
{
    cli_out_t out;
    int rc = cli_out_open(&out, "plan", what, path);
    if (rc != CLI_EXIT_OK)
        return rc;
    fputs(text, out.f);
    return cli_out_finish(&out, "plan", SSCHED_OK, NULL);
}

/* The chosen candidate: its schedule (checked), rank map and descriptor. */
static int write_plan(const plan_opts_t *o, plan_scan_t *sc, long root, mpq_srcptr unit_f)
{
    ssched_platform_t *p = sc->p;
    ssched_problem_t *pb = sc->pb;
    size_t seg = sc->best_seg, K = sc->best_K;
    json_t *cands = sc->cands;
    char name[256], path[4096];
    if (mkdir(o->dir, 0777) != 0 && errno != EEXIST)
        return cli_bad_input("plan", "-o %s: %s", o->dir, strerror(errno));
    snprintf(name, sizeof name, "%s-%ld-r%ld", collective_name(pb->kind), o->bytes, root);
    /* the map */
    size_t len = 1;
    for (size_t k = 0; k < o->n_ranks; k++)
        len += strlen(o->ranks[k]) + 1;
    char *map = malloc(len);
    if (!map)
        return cli_bad_input("plan", "out of memory");
    map[0] = 0;
    for (size_t k = 0, at = 0; k < o->n_ranks; k++)
        at += (size_t)sprintf(map + at, "%s\n", o->ranks[k]);
    snprintf(path, sizeof path, "%s/%s.map", o->dir, name);
    int rc = write_text(path, "-o", map);
    free(map);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* the schedule, then its check */
    snprintf(path, sizeof path, "%s/%s.unrolled.json", o->dir, name);
    cli_out_t out;
    if ((rc = cli_out_open(&out, "plan", "-o", path)) != CLI_EXIT_OK)
        return rc;
    /* the pattern kept by the scan, replayed on p scaled as it was planned */
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    mpq_t mk;
    mpq_init(mk);
    ssched_error_t err;
    ssched_error_clear(&err);
    if (ssched_write_unrolled_stream(out.f, p, pb, &sc->best_s, K, NULL, &fig, &err) != SSCHED_OK) {
        rc = cli_report("plan", &err);
        cli_out_abandon(&out);
    } else {
        mpq_set(mk, fig.makespan);
        rc = cli_out_finish(&out, "plan", SSCHED_OK, NULL);
    }
    ssched_error_clear(&err);
    if (rc == CLI_EXIT_OK && ssched_file_self_check(path, NULL, &err) != SSCHED_OK)
        rc = cli_report("plan", &err);
    if (rc == CLI_EXIT_OK) {
        char *mks = mpq_get_str(NULL, 10, mk);
        /* the executor's message = unit_bytes x size bytes; flops of a task
         * of size 1 = flops_per_task x s / U (SMPI, as ssched export) */
        json_t *d = json_pack(
            "{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:s, s:f, s:n, s:s,"
            " s:s, s:s, s:s, s:f, s:b, s:O}",
            "format", "ssched-plan/1", "collective", collective_name(pb->kind),
            "comm_size", (json_int_t)o->n_ranks, "root", (json_int_t)root,
            "datatype_size", (json_int_t)o->dtsize, "bytes_min", (json_int_t)o->bytes,
            "bytes_max", (json_int_t)o->bytes, "segment_bytes", (json_int_t)seg,
            "segments", (json_int_t)K, "unit_bytes", (json_int_t)seg,
            "commutative", pb->commutative, "predicted", mks,
            "predicted_seconds", mpq_get_d(mk), "mpi_predicted_seconds",
            "mpi_prediction", "none: ssched does not model MPI's own algorithms",
            "schedule", strchr(path, '/') ? strrchr(path, '/') + 1 : path, "map",
            "", "time_unit", p->seconds ? "second" : "the platform's", "flops_per_task",
            mpq_get_d(unit_f), "seconds", p->seconds, "candidates", cands);
        free(mks);
        char mapname[300];
        snprintf(mapname, sizeof mapname, "%s.map", name);
        /* the time per call: the plan + the executor's fixed cost */
        if (d && o->call)
            json_object_set_new(d, "predicted_call", json_string(o->call)),
                json_object_set_new(d, "predicted_call_seconds", json_real(o->call_seconds));
        /* each rank's end in the plan: with its measured fixed cost, its
         * time per call (src/cli/plan_call.c) */
        json_t *ends = json_array();
        for (size_t r = 0; ends && r < o->n_ranks; r++)
            json_array_append_new(ends, json_real(o->rank_end[r]));
        if (d && ends)
            json_object_set_new(d, "rank_end_seconds", ends);
        else
            json_decref(ends);
        if (!d || !ends || json_object_set_new(d, "map", json_string(mapname)) != 0)
            rc = cli_bad_input("plan", "out of memory");
        char *text = d ? json_dumps(d, JSON_INDENT(2)) : NULL;
        json_decref(d);
        snprintf(path, sizeof path, "%s/%s.plan.json", o->dir, name);
        if (rc == CLI_EXIT_OK && !text)
            rc = cli_bad_input("plan", "out of memory");
        if (rc == CLI_EXIT_OK) {
            size_t n = strlen(text);
            text = realloc(text, n + 2);
            if (text) {
                text[n] = '\n';
                text[n + 1] = 0;
                rc = write_text(path, "-o", text);
            }
        }
        free(text);
        if (rc == CLI_EXIT_OK)
            printf("wrote %s/%s.{plan.json,unrolled.json,map} (checked: valid)\n", o->dir, name);
    }
    mpq_clear(mk);
    ssched_unroll_figures_free(&fig);
    return rc;
}

static int run_plan(plan_opts_t *o, cli_problem_opts_t *po, ssched_platform_t *p,
                    ssched_problem_t *pb);

int cli_cmd_plan(int argc, char **argv)
{
    plan_opts_t o = {0};
    cli_problem_opts_t po = {0};
    int c;
    opterr = 0;
    optind = 1;
    struct option longopts[CLI_MAX_OPTIONS];
    cli_longopts(plan_tables, longopts);
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        if (cli_problem_option(&po, c, optarg))
            continue;
        switch (c) {
        case 'o':
            if (o.dir)
                return cli_bad_input("plan", "option -o given twice");
            o.dir = optarg;
            break;
        case O_BYTES:
            if (o.bytes || !cli_parse_long("plan", "--bytes", optarg, 1, 1L << 40, &o.bytes))
                return o.bytes ? cli_bad_input("plan", "--bytes given twice") : CLI_EXIT_BADINPUT;
            break;
        case O_DTSIZE:
            if (o.dtsize || !cli_parse_long("plan", "--datatype-size", optarg, 1, 1L << 20,
                                            &o.dtsize))
                return o.dtsize ? cli_bad_input("plan", "--datatype-size given twice")
                                : CLI_EXIT_BADINPUT;
            break;
        case O_MAXSEG:
            if (!cli_parse_long("plan", "--max-segments", optarg, 1, 1000000L, &o.max_segments))
                return CLI_EXIT_BADINPUT;
            break;
        case O_SEGMENT:
            if (!cli_parse_long("plan", "--segment", optarg, 1, 1L << 40, &o.segment))
                return CLI_EXIT_BADINPUT;
            break;
        case O_HOSTFILE: o.hostfile = optarg; break;
        case O_UNITMSG: o.unit_msg = optarg; break;
        case O_BASELINE: o.baseline = optarg; break;
        case O_OVERHEAD: o.overhead = optarg; break;
        case O_NOPRUNE: o.no_prune = 1; break;
        case 'h': cli_print_help(stdout, synopsis, plan_tables, plan_titles); return CLI_EXIT_OK;
        default:
            return cli_bad_input("plan", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        po.platform_path = argv[optind++];
    if (optind < argc)
        return cli_bad_input("plan", "unexpected argument '%s'", argv[optind]);
    if (!o.bytes || !o.dir)
        return cli_bad_input("plan", "plan needs --bytes M and -o DIR");
    if (po.size)
        return cli_bad_input("plan", "--size: the segment size sets the message size");
    if (!o.dtsize)
        o.dtsize = 1;
    if (!o.max_segments)
        o.max_segments = 1024;
    if (o.bytes % o.dtsize)
        return cli_bad_input("plan", "--bytes %ld is not a multiple of --datatype-size %ld",
                             o.bytes, o.dtsize);
    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    int rc = run_plan(&o, &po, &p, &pb);
    cli_plan_free_ranks(&o);
    free(o.call);
    free(o.rank_end);
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return rc;
}

static int run_plan(plan_opts_t *o, cli_problem_opts_t *po, ssched_platform_t *p,
                    ssched_problem_t *pb)
{
    /* a reduce's participants default to the ranks of --hostfile, in rank
     * order (the node-list syntax "@FILE" reads one name per line) */
    int rc;
    char tmpmap[4096] = "";
    if (!po->participants && po->problem &&
        (!strcmp(po->problem, "reduce") || !strcmp(po->problem, "allreduce"))) {
        if (!o->hostfile)
            return cli_bad_input("plan", "%s: give --participants (in rank order) or --hostfile",
                                 po->problem);
        snprintf(tmpmap, sizeof tmpmap, "@%s", o->hostfile);
        po->participants = tmpmap;
    }
    if ((rc = cli_problem_load("plan", po, p, pb)) != CLI_EXIT_OK)
        return rc;
    if ((rc = cli_plan_read_ranks(o, p)) != CLI_EXIT_OK)
        return rc;
    long root = cli_plan_check_problem(o, p, pb);
    if (root < 0)
        return CLI_EXIT_BADINPUT;
    plan_scan_t sc;
    cli_plan_scan_init(&sc);
    sc.o = o, sc.po = po, sc.p = p, sc.pb = pb;
    if (o->unit_msg && !cli_parse_rational("plan", "--unit-message-bytes", o->unit_msg, sc.U))
        rc = CLI_EXIT_BADINPUT;
    else if (!o->unit_msg && po->unit_bytes &&
             !cli_parse_rational("plan", "--unit-bytes", po->unit_bytes, sc.U))
        rc = CLI_EXIT_BADINPUT;
    else if (mpq_sgn(sc.U) <= 0)
        rc = cli_bad_input("plan", "the unit message must have a positive size");
    else if (!p->seconds && !o->unit_msg)
        rc = cli_bad_input("plan", "%s: its costs are times of an unknown message: give "
                           "--unit-message-bytes U (or --cost-from ATTR --unit-bytes B)",
                           po->platform_path);
    if (rc == CLI_EXIT_OK) {
        printf("%s of %ld bytes over %zu ranks (time unit: %s)\n", collective_name(pb->kind),
               o->bytes, o->n_ranks, p->seconds ? "second" : "the platform's");
        printf("%12s %8s %16s\n", "segment", "K", "predicted");
        rc = cli_plan_scan(&sc);
    }
    size_t best_seg = sc.best_seg, best_K = sc.best_K;
    if (rc == CLI_EXIT_OK && sc.have_bound)
        printf("bound: any schedule of the %ld bytes takes at least %.9g (M / U / TP, the "
               "certified steady state)\n", o->bytes, mpq_get_d(sc.bound));
    if (rc == CLI_EXIT_OK && !best_seg)
        rc = cli_bad_input("plan", "no candidate segment size with at most %ld segments "
                           "(raise --max-segments)", o->max_segments);
    /* the time per call (src/cli/plan_call.c): the chosen plan's end per
     * rank, plus each rank's fixed cost */
    mpq_t base, over, *ends = NULL;
    mpq_inits(base, over, NULL);
    size_t n = o->n_ranks;
    if (rc == CLI_EXIT_OK && best_seg) {
        cli_plan_scan_scale(&sc, best_seg); /* p as the kept pattern was planned */
        if (!(ends = malloc((n ? n : 1) * sizeof *ends)) ||
            !(o->rank_end = malloc((n ? n : 1) * sizeof *o->rank_end)))
            rc = cli_bad_input("plan", "out of memory");
        for (size_t r = 0; ends && r < n; r++)
            mpq_init(ends[r]);
        if (rc == CLI_EXIT_OK)
            rc = cli_plan_rank_ends(&sc, ends);
        for (size_t r = 0; rc == CLI_EXIT_OK && r < n; r++)
            o->rank_end[r] = mpq_get_d(ends[r]);
        if (rc == CLI_EXIT_OK)
            rc = cli_plan_call(o, ends, sc.best, over);
    }
    if (rc == CLI_EXIT_OK && o->baseline &&
             !cli_parse_rational("plan", "--baseline-seconds", o->baseline, base))
        rc = CLI_EXIT_BADINPUT;
    if (rc == CLI_EXIT_OK && best_seg && o->baseline && mpq_cmp(over, base) >= 0) {
        printf("no gain: the best prediction %.9g (with the overhead %s) is not below "
               "--baseline-seconds %s; no plan written\n", mpq_get_d(over),
               o->overhead ? (strchr(o->overhead, ',') ? "per rank" : o->overhead) : "0",
               o->baseline);
        best_seg = 0;
    }
    double call = mpq_get_d(over); /* the prediction per call: plan + O */
    if (rc == CLI_EXIT_OK && best_seg && o->overhead)
        o->call = mpq_get_str(NULL, 10, over);
    for (size_t r = 0; ends && r < n; r++)
        mpq_clear(ends[r]);
    free(ends);
    mpq_clears(base, over, NULL);
    if (rc == CLI_EXIT_OK && best_seg) {
        printf("chosen: segment %zu bytes, K = %zu, predicted %.9g", best_seg, best_K,
               mpq_get_d(sc.best));
        if (o->overhead && strchr(o->overhead, ','))
            printf(", per call (+ the overhead per rank) %.9g", o->call_seconds = call);
        else if (o->overhead)
            printf(", per call (+ the overhead %s) %.9g", o->overhead, o->call_seconds = call);
        printf("\n");
        mpq_t flops;
        mpq_init(flops);
        /* SMPI: flops of a task = --flops-per-task x seg / U (ssched export's
         * w = flops / speed, scaled as w is) */
        if (po->flops_per_task && cli_parse_rational("plan", "--flops-per-task",
                                                     po->flops_per_task, flops))
            mpq_mul(flops, flops, sc.cur);
        else
            mpq_set(flops, sc.cur);
        rc = write_plan(o, &sc, root, flops);
        mpq_clear(flops);
    }
    cli_plan_scan_free(&sc);
    return rc;
}
