/* libFuzzer harness: the independent schedule checker
 * (ssched_check_schedule_text) on arbitrary JSON text.
 *
 * Properties: no crash, leak or UB; the status is OK (then report.valid is
 * 0 or 1) or EINPUT with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ssched_check_report_t report;
    memset(&report, 0, sizeof report);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_check_schedule_text(text, &report, &err);
    if (st == SSCHED_OK) {
        if (report.valid != 0 && report.valid != 1)
            abort();
        if (!report.valid && report.violation[0] == '\0')
            abort(); /* an invalid schedule names its violation */
    } else if (st != SSCHED_EINPUT || err.message[0] == '\0') {
        abort();
    }
    free(text);
    return 0;
}
