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
       O_BASELINE, O_OVERHEAD };
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
    {{"overhead-seconds", required_argument, NULL, O_OVERHEAD}, "O",
     "the executor's fixed cost per call (its start: about one latency;\n"
     "measured), added to the prediction: the time per call printed and\n"
     "written (predicted_call_seconds), compared with --baseline-seconds T\n"
     "(default 0)"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const plan_tables[] = {cli_problem_table, plan_table, NULL};
static const char *const plan_titles[] = {"problem and platform options:", "options:", NULL};

#include "src/cli/plan.h"

/* Plan candidate segment size seg: the steady state, the pattern chosen for
 * K, its makespan (streamed to `f`, or to /dev/null when f is NULL). */
static int plan_one(const cli_problem_opts_t *po, ssched_platform_t *p, ssched_problem_t *pb,
                    size_t K, FILE *f, ssched_schedule_t *s, mpq_t makespan,
                    ssched_unroll_figures_t *fig)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_steady_t st;
    ssched_steady_init(&st);
    ssched_steady_options_t sopt;
    int rc = cli_steady_options("plan", po, &sopt);
    if (rc == CLI_EXIT_OK && ssched_steady_solve_opts(p, pb, &sopt, &st, &err) != SSCHED_OK)
        rc = cli_report("plan", &err);
    else if (rc == CLI_EXIT_OK && mpq_sgn(st.throughput) == 0)
        rc = cli_bad_input("plan", "TP = 0 (a target is unreachable): nothing to plan");
    else if (rc == CLI_EXIT_OK &&
             ssched_unroll_plan(p, pb, &st, K, NULL, 0, s, &err) != SSCHED_OK)
        rc = cli_report("plan", &err);
    FILE *sink = f;
    if (rc == CLI_EXIT_OK && !sink && !(sink = fopen("/dev/null", "w")))
        rc = cli_bad_input("plan", "cannot open /dev/null: %s", strerror(errno));
    if (rc == CLI_EXIT_OK) {
        if (ssched_write_unrolled_stream(sink, p, pb, s, K, NULL, fig, &err) != SSCHED_OK)
            rc = cli_report("plan", &err);
        else
            mpq_set(makespan, fig->makespan);
    }
    if (sink && !f)
        fclose(sink);
    ssched_steady_free(&st);
    return rc;
}

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
static int write_plan(const plan_opts_t *o, const cli_problem_opts_t *po, ssched_platform_t *p,
                      ssched_problem_t *pb, long root, size_t seg, size_t K, json_t *cands,
                      mpq_srcptr unit_f)
{
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
    ssched_schedule_t s;
    ssched_schedule_init(&s);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    mpq_t mk;
    mpq_init(mk);
    rc = plan_one(po, p, pb, K, out.f, &s, mk, &fig);
    if (rc != CLI_EXIT_OK)
        cli_out_abandon(&out);
    else
        rc = cli_out_finish(&out, "plan", SSCHED_OK, NULL);
    ssched_error_t err;
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
        if (!d || json_object_set_new(d, "map", json_string(mapname)) != 0)
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
    ssched_schedule_free(&s);
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
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return rc;
}

/* The scan over candidate segment sizes: p carries the scale cur (costs x
 * cur); best, best_seg, best_K the least makespan so far; bound the
 * whole message's steady-state bound. */
typedef struct {
    const plan_opts_t *o;
    const cli_problem_opts_t *po;
    ssched_platform_t *p;
    ssched_problem_t *pb;
    mpq_srcptr U;
    mpq_ptr cur, best, bound;
    json_t *cands;
    size_t best_seg, best_K;
    int have_bound;
} plan_scan_t;

/* Plan the candidate of s bytes (rounded to a multiple of the datatype,
 * at most M): one line, one JSON candidate; skipped when it has more than
 * --max-segments segments or was tried already. */
static int try_segment(plan_scan_t *sc, long s)
{
    const plan_opts_t *o = sc->o;
    long seg = s < o->bytes ? s : o->bytes;
    seg -= seg % o->dtsize;
    if (seg < o->dtsize)
        seg = o->dtsize;
    long K = (o->bytes + seg - 1) / seg;
    if (K > o->max_segments)
        return CLI_EXIT_OK;
    for (size_t k = 0; k < json_array_size(sc->cands); k++)
        if (json_integer_value(json_object_get(json_array_get(sc->cands, k), "segment_bytes")) ==
            seg)
            return CLI_EXIT_OK;
    /* p's costs times seg / U, from the scale it carries */
    mpq_t f, mk;
    mpq_inits(f, mk, NULL);
    mpq_set_ui(f, (unsigned long)seg, 1);
    mpq_div(f, f, sc->U);
    mpq_div(mk, f, sc->cur);
    cli_plan_scale(sc->p, mk);
    mpq_set(sc->cur, f);
    ssched_schedule_t s1;
    ssched_schedule_init(&s1);
    ssched_unroll_figures_t fig;
    ssched_unroll_figures_init(&fig);
    int rc = plan_one(sc->po, sc->p, sc->pb, (size_t)K, NULL, &s1, mk, &fig);
    if (rc == CLI_EXIT_OK) {
        printf("%12ld %8ld %16.9g\n", seg, K, mpq_get_d(mk));
        /* K / TP(seg) = K seg / M x (M / seg) / TP(seg), and TP(seg) =
         * TP(U) U / seg: the bound M / U / TP(U) is steady_time M / (K seg),
         * the same for every seg (the steady state has no latencies) */
        if (!sc->have_bound) {
            mpq_t r;
            mpq_init(r);
            mpq_set_ui(r, (unsigned long)o->bytes, (unsigned long)K * (unsigned long)seg);
            mpq_canonicalize(r);
            mpq_mul(sc->bound, fig.steady_time, r);
            mpq_clear(r);
            sc->have_bound = 1;
        }
        char *t = mpq_get_str(NULL, 10, mk);
        json_array_append_new(sc->cands, json_pack("{s:I, s:I, s:s, s:f, s:f}", "segment_bytes",
                                                   (json_int_t)seg, "segments", (json_int_t)K,
                                                   "predicted", t, "predicted_seconds",
                                                   mpq_get_d(mk), "lower_bound_seconds",
                                                   mpq_get_d(fig.lower_bound)));
        free(t);
        if (!sc->best_seg || mpq_cmp(mk, sc->best) < 0) {
            mpq_set(sc->best, mk);
            sc->best_seg = (size_t)seg;
            sc->best_K = (size_t)K;
        }
    }
    ssched_unroll_figures_free(&fig);
    ssched_schedule_free(&s1);
    mpq_clears(f, mk, NULL);
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
    mpq_t U, f, cur, mk, best, bound;
    mpq_inits(U, f, cur, mk, best, bound, NULL);
    mpq_set_ui(U, 1, 1);
    if (o->unit_msg && !cli_parse_rational("plan", "--unit-message-bytes", o->unit_msg, U))
        rc = CLI_EXIT_BADINPUT;
    else if (!o->unit_msg && po->unit_bytes &&
             !cli_parse_rational("plan", "--unit-bytes", po->unit_bytes, U))
        rc = CLI_EXIT_BADINPUT;
    else if (mpq_sgn(U) <= 0)
        rc = cli_bad_input("plan", "the unit message must have a positive size");
    else if (!p->seconds && !o->unit_msg)
        rc = cli_bad_input("plan", "%s: its costs are times of an unknown message: give "
                           "--unit-message-bytes U (or --cost-from ATTR --unit-bytes B)",
                           po->platform_path);
    mpq_set_ui(cur, 1, 1); /* the scale p carries now */
    plan_scan_t sc = {o, po, p, pb, U, cur, best, bound, json_array(), 0, 0, 0};
    if (rc == CLI_EXIT_OK) {
        printf("%s of %ld bytes over %zu ranks (time unit: %s)\n", collective_name(pb->kind),
               o->bytes, o->n_ranks, p->seconds ? "second" : "the platform's");
        printf("%12s %8s %16s\n", "segment", "K", "predicted");
    }
    /* s = 1 KB, 2 KB, 4 KB, ... below M, and M */
    for (long s = o->segment ? o->segment : 1024; rc == CLI_EXIT_OK; s = 2 * s) {
        rc = try_segment(&sc, s);
        if (o->segment || s >= o->bytes)
            break;
    }
    /* then s* x k / 8 between the best power of two s* and its neighbours:
     * the unrolled makespan is not monotone in s (the pattern chosen for K
     * changes), and a segment a few eighths off can save a fill period
     * (two_clusters' 16 MB broadcast: 40 KB is 0.26 ms below 64 KB) */
    static const int eighths[] = {5, 6, 7, 10, 12, 14};
    long pow2 = (long)sc.best_seg;
    for (size_t k = 0; !o->segment && rc == CLI_EXIT_OK && pow2 &&
                       k < sizeof eighths / sizeof *eighths; k++) {
        long s = pow2 * eighths[k] / 8;
        if (s < o->bytes && s >= 1024)
            rc = try_segment(&sc, s);
    }
    json_t *cands = sc.cands;
    size_t best_seg = sc.best_seg, best_K = sc.best_K;
    if (rc == CLI_EXIT_OK && sc.have_bound)
        printf("bound: any schedule of the %ld bytes takes at least %.9g (M / U / TP, the "
               "certified steady state)\n", o->bytes, mpq_get_d(bound));
    if (rc == CLI_EXIT_OK && !best_seg)
        rc = cli_bad_input("plan", "no candidate segment size with at most %ld segments "
                           "(raise --max-segments)", o->max_segments);
    mpq_t base, over;
    mpq_inits(base, over, NULL);
    if (rc == CLI_EXIT_OK && o->baseline &&
             !cli_parse_rational("plan", "--baseline-seconds", o->baseline, base))
        rc = CLI_EXIT_BADINPUT;
    else if (rc == CLI_EXIT_OK && o->overhead &&
             !cli_parse_rational("plan", "--overhead-seconds", o->overhead, over))
        rc = CLI_EXIT_BADINPUT;
    mpq_add(over, over, best);
    if (rc == CLI_EXIT_OK && best_seg && o->baseline && mpq_cmp(over, base) >= 0) {
        printf("no gain: the best prediction %.9g (with the overhead %s) is not below "
               "--baseline-seconds %s; no plan written\n", mpq_get_d(over),
               o->overhead ? o->overhead : "0", o->baseline);
        best_seg = 0;
    }
    double call = mpq_get_d(over); /* the prediction per call: plan + O */
    if (o->overhead)
        o->call = mpq_get_str(NULL, 10, over);
    mpq_clears(base, over, NULL);
    if (rc == CLI_EXIT_OK && best_seg) {
        printf("chosen: segment %zu bytes, K = %zu, predicted %.9g", best_seg, best_K,
               mpq_get_d(best));
        if (o->overhead)
            printf(", per call (+ the overhead %s) %.9g", o->overhead, o->call_seconds = call);
        printf("\n");
        mpq_set_ui(f, (unsigned long)best_seg, 1);
        mpq_div(f, f, U);
        mpq_div(mk, f, cur);
        cli_plan_scale(p, mk);
        mpq_set(cur, f);
        mpq_t flops;
        mpq_init(flops);
        /* SMPI: flops of a task = --flops-per-task x seg / U (ssched export's
         * w = flops / speed, scaled as w is) */
        if (po->flops_per_task && cli_parse_rational("plan", "--flops-per-task",
                                                     po->flops_per_task, flops))
            mpq_mul(flops, flops, f);
        else
            mpq_set(flops, f);
        rc = write_plan(o, po, p, pb, root, best_seg, best_K, cands, flops);
        mpq_clear(flops);
    }
    json_decref(cands);
    mpq_clears(U, f, cur, mk, best, bound, NULL);
    return rc;
}
