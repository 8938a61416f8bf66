/* Self-checks of what ssched emits (ssched/schedule.h): the text a writer
 * produces goes through the independent checker, so a bug in a builder or
 * a writer shows as an internal error instead of a wrong file.  The
 * throughput claims are taken as stated (trust_throughput): ssched built
 * the schedule from a solution it has just certified, and solving the
 * problem again would only repeat that solve. */
#include <stdlib.h>
#include <string.h>

#include "src/export/export_internal.h"

/* The checker's outcome (st, its error why, the report) as a self-check's:
 * malformed text or a violation is ssched's own bug. */
static ssched_status_t verdict(ssched_status_t st, const ssched_error_t *why,
                               const ssched_check_report_t *rep, ssched_error_t *err)
{
    if (st == SSCHED_EINPUT)
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "internal error: emitted schedule is malformed: %s", why->message);
    if (st != SSCHED_OK)
        return ssched_error_set(err, st, "%s", why->message);
    if (!rep->valid)
        return ssched_error_set(err, SSCHED_EINTERNAL,
                                "internal error: emitted schedule fails the checker: %s",
                                rep->violation);
    return SSCHED_OK;
}

/* Check the text (NULL: it could not be made) and free it. */
static ssched_status_t check_text(char *text, ssched_check_report_t *report, ssched_error_t *err)
{
    if (!text)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    ssched_check_report_t local;
    ssched_check_report_t *rep = report ? report : &local;
    ssched_error_t why;
    ssched_error_clear(&why);
    ssched_check_options_t opt;
    ssched_check_options_default(&opt);
    opt.trust_throughput = 1;
    ssched_status_t st = ssched_check_schedule_buffer_opts(text, strlen(text), &opt, rep, &why);
    free(text);
    return verdict(st, &why, rep, err);
}

ssched_status_t ssched_schedule_self_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                                           const ssched_schedule_t *s,
                                           ssched_check_report_t *report, ssched_error_t *err)
{
    return check_text(ssched_i_schedule_json_text(p, pb, s), report, err);
}

ssched_status_t ssched_unrolled_self_check(const ssched_platform_t *p, const ssched_problem_t *pb,
                                           const ssched_schedule_t *s, const ssched_unrolled_t *u,
                                           ssched_check_report_t *report, ssched_error_t *err)
{
    return check_text(ssched_i_unrolled_json_text(p, pb, s, u), report, err);
}

ssched_status_t ssched_file_self_check(const char *path, ssched_check_report_t *report,
                                       ssched_error_t *err)
{
    ssched_check_report_t local;
    ssched_check_report_t *rep = report ? report : &local;
    ssched_error_t why;
    ssched_error_clear(&why);
    ssched_check_options_t opt;
    ssched_check_options_default(&opt);
    opt.trust_throughput = 1;
    ssched_status_t st = ssched_check_schedule_file_opts(path, &opt, rep, &why);
    return verdict(st, &why, rep, err);
}
