/* The checkers' report: see src/util/check_report.h. */
#include "src/util/check_report.h"

#include <string.h>

void ssched_i_report_reset(ssched_check_report_t *report)
{
    memset(report, 0, sizeof *report);
    report->valid = 1;
}

ssched_status_t ssched_i_report_outcome(ssched_status_t st, ssched_status_t violation,
                                        const ssched_error_t *verr,
                                        ssched_check_report_t *report, ssched_error_t *err)
{
    ssched_i_report_reset(report);
    if (st == SSCHED_OK)
        return SSCHED_OK;
    if (st == violation) {
        report->valid = 0;
        memcpy(report->violation, verr->message, sizeof report->violation);
        return SSCHED_OK;
    }
    return ssched_error_set(err, st, "%s", verr->message);
}

ssched_status_t ssched_i_report_require(ssched_status_t st, const ssched_check_report_t *report,
                                        ssched_status_t invalid, ssched_error_t *err)
{
    if (st != SSCHED_OK)
        return st;
    if (!report->valid)
        return ssched_error_set(err, invalid, "%s", report->violation);
    return SSCHED_OK;
}
