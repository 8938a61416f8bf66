/* Checker: a schedule file, mapped rather than read (schedule.h:
 * ssched_check_schedule_file), so an unrolled file of many gigabytes costs
 * the checker only its simulation state. */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedule/check_internal.h"

ssched_status_t ssched_check_schedule_file(const char *path, ssched_check_report_t *report,
                                           ssched_error_t *err)
{
    return ssched_check_schedule_file_opts(path, NULL, report, err);
}

ssched_status_t ssched_check_schedule_file_opts(const char *path,
                                                const ssched_check_options_t *opt,
                                                ssched_check_report_t *report,
                                                ssched_error_t *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot read the file", path);
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return ssched_error_set(err, SSCHED_EINPUT, "%s: not a regular file", path);
    }
    if (sb.st_size == 0) {
        close(fd);
        return ssched_error_set(err, SSCHED_EINPUT, "%s: empty file", path);
    }
    size_t len = (size_t)sb.st_size;
    const char *text = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot map the file", path);
    madvise((void *)text, len, MADV_SEQUENTIAL);
    ssched_status_t st = ssched_i_chk_check_buffer(text, len, 1, opt, report, err);
    munmap((void *)text, len);
    return st;
}
