/* ssched_write_report(): solve, schedule, unroll, check, then write the
 * page (ssched/report.h).  Every schedule shown has passed the independent
 * checker first. */
#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"
#include "src/export/export_internal.h"
#include "src/report/report_internal.h"

void ssched_report_options_default(ssched_report_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->operations = 100;
    ssched_steady_options_default(&opt->steady);
}

void ssched_i_report_q(FILE *out, const mpq_t q)
{
    char *s = ssched_rational_to_string(q);
    fputs(s ? s : "?", out);
    free(s);
}

static void report_free(report_t *r)
{
    ssched_steady_free(&r->st);
    ssched_schedule_free(&r->period);
    ssched_schedule_free(&r->pattern);
    ssched_unrolled_free(&r->unrolled);
    free(r->period_json);
    free(r->unrolled_json);
    for (size_t i = 0; i < r->n_k_points; i++) {
        free(r->k_exact[i][0]);
        free(r->k_exact[i][1]);
    }
    free(r->x);
    free(r->y);
}

/* Check a schedule's JSON with the independent checker; EINTERNAL if it
 * is not valid (a report never shows such a schedule). */
static ssched_status_t checked(const char *json, ssched_check_report_t *rep, const char *what,
                               ssched_error_t *err)
{
    if (!json)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    /* built here from the solution just certified: its throughput is not
     * solved again (a self-check, schedule.h: ssched_check_options_t) */
    ssched_check_options_t opt;
    ssched_check_options_default(&opt);
    opt.trust_throughput = 1;
    ssched_status_t st = ssched_check_schedule_buffer_opts(json, strlen(json), &opt, rep, err);
    if (st != SSCHED_OK)
        return st;
    if (!rep->valid)
        return ssched_error_set(err, SSCHED_EINTERNAL, "report: the %s fails the checker: %s",
                                what, rep->violation);
    return SSCHED_OK;
}

/* K unrolled operations into r->pattern / r->unrolled.  A problem whose
 * unrolling is not built is not an error for the report: it says why. */
static ssched_status_t unroll(report_t *r, ssched_error_t *err)
{
    ssched_error_t why;
    ssched_error_clear(&why);
    size_t K = r->opt->operations;
    ssched_status_t st = ssched_unroll_plan(r->p, r->pb, &r->st, K, NULL, 0, &r->pattern, &why);
    if (st == SSCHED_OK)
        st = ssched_unroll(r->p, r->pb, &r->pattern, K, &r->unrolled, &why);
    if (st == SSCHED_EINPUT) {
        snprintf(r->unroll_error, sizeof r->unroll_error, "%s", why.message);
        return SSCHED_OK;
    }
    if (st != SSCHED_OK) {
        *err = why;
        return st;
    }
    r->unrolled_json = ssched_i_unrolled_json_text(r->p, r->pb, &r->pattern, &r->unrolled);
    if ((st = checked(r->unrolled_json, &r->unrolled_check, "unrolled schedule", err)) != SSCHED_OK)
        return st;
    r->unrolled_ok = 1;
    return SSCHED_OK;
}

/* makespan and LB(K) for K = 1, 2, 5, 10, ... below the report's K, and K */
static ssched_status_t k_series(report_t *r, ssched_error_t *err)
{
    static const size_t steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
    size_t K = r->opt->operations;
    for (size_t i = 0; i < sizeof steps / sizeof *steps + 1 && r->n_k_points < REPORT_K_POINTS;
         i++) {
        size_t k = i < sizeof steps / sizeof *steps ? steps[i] : K;
        if (k > K || (k == K && i < sizeof steps / sizeof *steps))
            continue;
        ssched_schedule_t s;
        ssched_unrolled_t u;
        ssched_schedule_init(&s);
        ssched_unrolled_init(&u);
        ssched_status_t st = k == K ? SSCHED_OK
                                    : ssched_unroll_plan(r->p, r->pb, &r->st, k, NULL, 0, &s, err);
        if (st == SSCHED_OK && k != K)
            st = ssched_unroll(r->p, r->pb, &s, k, &u, err);
        const ssched_unroll_figures_t *f = k == K ? &r->unrolled.fig : &u.fig;
        if (st == SSCHED_OK) {
            ssched_i_report_k_point_t *pt = &r->k_points[r->n_k_points];
            pt->k = (double)k;
            pt->makespan = mpq_get_d(f->makespan);
            pt->lower_bound = mpq_get_d(f->lower_bound);
            r->k_exact[r->n_k_points][0] = ssched_rational_to_string(f->makespan);
            r->k_exact[r->n_k_points][1] = ssched_rational_to_string(f->lower_bound);
            r->n_k_points++;
        }
        ssched_schedule_free(&s);
        ssched_unrolled_free(&u);
        if (st != SSCHED_OK)
            return st;
    }
    return SSCHED_OK;
}

static const char style[] =
    "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;"
    "text-align:left;font-size:.9em}.tp{font-size:1.4em;font-weight:bold}.ok{color:#008856}"
    ".note{color:#555;font-size:.9em}.figure{overflow-x:auto;margin:.5em 0}"
    ".elabel,.nlabel{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
    ".elabel{fill:#0067A5;font-size:9px}.nlabel{fill:#222}.blabel{font-size:9px;fill:#000}"
    ".phase{font-size:10px;fill:#333}.drawings{display:flex;flex-wrap:wrap;gap:1em}"
    ".drawings figure{margin:0}figcaption{font-size:.9em}a.download{margin-right:1.5em}";

/* Script errors are recorded on <body> for the headless test. */
static const char script_head[] =
    "<script>window.__errors=[];window.addEventListener('error',function(e){"
    "window.__errors.push(String(e.message));document.body&&document.body.setAttribute("
    "'data-errors',window.__errors.join(' | '));});(function(){var c=console.error;"
    "console.error=function(){window.__errors.push(Array.prototype.join.call(arguments,' '));"
    "c.apply(console,arguments);};})();</script>\n";

static const char script_tail[] =
    "<script>(function(){document.querySelectorAll('a.download').forEach(function(a){"
    "a.title=a.getAttribute('download');});"
    "if(window.__errors.length)document.body.setAttribute('data-errors',"
    "window.__errors.join(' | '));document.body.setAttribute('data-ready','1');})();</script>\n";

static ssched_status_t write_page(FILE *out, report_t *r, ssched_error_t *err)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<title>ssched report</title><style>", out);
    fputs(style, out);
    fputs("</style>\n", out);
    fputs(script_head, out);
    fputs("</head><body>\n<h1>ssched report", out);
    if (r->opt->title) {
        fputs(": ", out);
        ssched_i_svg_escape(out, r->opt->title);
    }
    fputs("</h1>\n", out);
    ssched_i_report_summary(out, r);
    ssched_status_t st = ssched_i_report_platform(out, r, err);
    if (st == SSCHED_OK)
        st = ssched_i_report_structures(out, r, err);
    if (st == SSCHED_OK)
        st = ssched_i_report_timelines(out, r, err);
    if (st != SSCHED_OK)
        return st;
    ssched_i_report_downloads(out, r);
    fputs(script_tail, out);
    fputs("</body></html>\n", out);
    return ferror(out) ? ssched_error_set(err, SSCHED_EINPUT, "report: write error") : SSCHED_OK;
}

static void stage(const ssched_report_options_t *opt, const char *fmt, size_t n)
{
    if (!opt->stage)
        return;
    char what[128];
    snprintf(what, sizeof what, fmt, n);
    opt->stage(opt->stage_ctx, what);
}

ssched_status_t ssched_write_report(FILE *out, const ssched_platform_t *p,
                                    const ssched_problem_t *pb,
                                    const ssched_report_options_t *opt, ssched_error_t *err)
{
    ssched_report_options_t defaults;
    if (!opt) {
        ssched_report_options_default(&defaults);
        opt = &defaults;
    }
    if (opt->operations < 1 || opt->operations > SSCHED_REPORT_MAX_OPERATIONS)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "report: operations must be between 1 and %zu (got %zu): the "
                                "page draws every event",
                                SSCHED_REPORT_MAX_OPERATIONS, opt->operations);
    report_t r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.pb = pb;
    r.opt = opt;
    ssched_steady_init(&r.st);
    ssched_schedule_init(&r.period);
    ssched_schedule_init(&r.pattern);
    ssched_unrolled_init(&r.unrolled);
    ssched_schedule_options_t so;
    ssched_schedule_options_default(&so);
    ssched_status_t st = ssched_steady_solve_opts(p, pb, &opt->steady, &r.st, err);
    if (st == SSCHED_OK && mpq_sgn(r.st.throughput) == 0)
        st = ssched_error_set(err, SSCHED_EINPUT,
                              "report: TP = 0 (a target is unreachable): nothing to schedule");
    if (st == SSCHED_OK) {
        stage(opt, "building the periodic schedule (%zu edges)", p->n_edges);
        st = ssched_schedule_build(p, pb, &r.st, &so, &r.period, err);
    }
    if (st == SSCHED_OK) {
        r.period_json = ssched_i_schedule_json_text(p, pb, &r.period);
        st = checked(r.period_json, &r.period_check, "periodic schedule", err);
    }
    if (st == SSCHED_OK) {
        stage(opt, "unrolling %zu operations", opt->operations);
        st = unroll(&r, err);
    }
    if (st == SSCHED_OK && r.unrolled_ok)
        st = k_series(&r, err);
    if (st == SSCHED_OK) {
        stage(opt, "laying out the platform (%zu nodes)", p->n_nodes);
        st = ssched_i_report_layout(p, &r.x, &r.y, err);
    }
    if (st == SSCHED_OK) {
        stage(opt, "writing the page (%zu nodes)", p->n_nodes);
        st = write_page(out, &r, err);
    }
    report_free(&r);
    return st;
}
