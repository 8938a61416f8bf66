/* The CLI's outputs (cli.h, cli_out_t): complete files or none.
 *
 * A file is written to a temporary file in its own folder and renamed onto
 * its path once flushed and closed without error: rename(2) within one
 * file system replaces the path atomically, so a reader (or the user after
 * a full disk) sees the old file or the new one, never a truncated one. */
#include "src/cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file being written, removed if the process is stopped by
 * a signal (^C during a long report must not leave a hidden empty file
 * behind).  At most one output is open at a time. */
static char *volatile pending;

static void on_signal(int sig)
{
    char *p = pending;
    if (p)
        unlink(p); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch(char *tmp)
{
    static int installed;
    pending = tmp;
    if (tmp && !installed) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGXCPU};
        for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
            struct sigaction sa, old;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            /* a signal the caller ignores stays ignored */
            if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
                sigaction(sigs[k], &sa, NULL);
        }
        installed = 1;
    }
}

static int is_stdout(const char *path)
{
    return !path || !strcmp(path, "-");
}

/* A temporary file beside target: ".NAME.XXXXXX" in its folder (a short
 * ".ssched-XXXXXX" when NAME is too long for a file name), with the mode
 * the file would have had (the old file's, else 0666 minus the umask). */
static FILE *open_temp(cli_out_t *o)
{
    const char *slash = strrchr(o->target, '/');
    size_t dir_len = slash ? (size_t)(slash - o->target) + 1 : 0;
    const char *base = slash ? slash + 1 : o->target;
    size_t size = dir_len + strlen(base) + 16;
    o->tmp = malloc(size);
    if (!o->tmp)
        return NULL;
    if (strlen(base) + 9 > 255)
        snprintf(o->tmp, size, "%.*s.ssched-XXXXXX", (int)dir_len, o->target);
    else
        snprintf(o->tmp, size, "%.*s.%s.XXXXXX", (int)dir_len, o->target, base);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        free(o->tmp);
        o->tmp = NULL;
        return NULL;
    }
    struct stat sb;
    mode_t mode;
    if (stat(o->target, &sb) == 0) {
        mode = sb.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    FILE *f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    watch(o->tmp);
    return f;
}

int cli_out_open(cli_out_t *o, const char *cmd, const char *option, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path ? path : "-";
    o->option = option;
    if (is_stdout(path)) {
        o->f = stdout;
        return CLI_EXIT_OK;
    }
    /* the file the path names, symbolic links followed (a link is kept and
     * its target replaced); a device, a FIFO or a dangling link is written
     * in place */
    struct stat lsb, sb;
    int exists = lstat(path, &lsb) == 0;
    if (exists && S_ISLNK(lsb.st_mode)) {
        char *real = realpath(path, NULL);
        if (real && stat(real, &sb) == 0 && S_ISREG(sb.st_mode))
            o->target = real;
        else {
            free(real);
            o->in_place = 1;
        }
    } else if (exists && !S_ISREG(lsb.st_mode)) {
        o->in_place = 1;
    } else if (!exists && errno != ENOENT) {
        o->in_place = 1; /* let fopen name the reason (not a folder, ...) */
    } else {
        o->target = strdup(path);
        if (!o->target)
            return cli_bad_input(cmd, "%s %s: out of memory", option, path);
    }
    if (!o->in_place && !(o->f = open_temp(o))) {
        /* a folder where no new file can be made: write the path itself
         * (it may be a writable file in a read-only folder) */
        free(o->target);
        o->target = NULL;
        o->in_place = 1;
    }
    if (o->in_place && !(o->f = fopen(path, "w"))) {
        int e = errno;
        free(o->target);
        o->target = NULL;
        return cli_bad_input(cmd, "%s %s: cannot write the file: %s", option, path, strerror(e));
    }
    return CLI_EXIT_OK;
}

static void drop(cli_out_t *o)
{
    watch(NULL);
    if (o->tmp)
        unlink(o->tmp); /* our own mkstemp file: always a regular file */
    else if (o->in_place)
        cli_remove_partial(o->path);
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    o->f = NULL;
}

int cli_out_finish(cli_out_t *o, const char *cmd, ssched_status_t ws, const ssched_error_t *err)
{
    if (!o->f)
        return CLI_EXIT_FAILURE;
    int to_stdout = o->f == stdout;
    /* the reason: the failing write's errno (a writer that failed returned
     * at once, so errno still holds it), or the flush's */
    int e = ferror(o->f) ? errno : 0;
    errno = 0;
    int failed = fflush(o->f) != 0 || ferror(o->f);
    if (errno)
        e = errno;
    if (!to_stdout) {
        errno = 0;
        if (fclose(o->f) != 0 && !failed) {
            failed = 1;
            e = errno;
        }
    }
    int rc = CLI_EXIT_OK;
    if (!to_stdout)
        watch(NULL); /* before o->tmp is renamed or freed */
    if (failed) {
        const char *why = e ? strerror(e) : "the stream failed";
        rc = to_stdout ? cli_bad_input(cmd, "write error on standard output: %s", why)
                       : cli_bad_input(cmd, "%s %s: write error: %s", o->option, o->path, why);
    } else if (ws != SSCHED_OK) {
        rc = err ? cli_report(cmd, err) : CLI_EXIT_FAILURE;
    } else if (o->tmp && rename(o->tmp, o->target) != 0) {
        rc = cli_bad_input(cmd, "%s %s: cannot replace the file: %s", o->option, o->path,
                           strerror(errno));
    } else {
        free(o->tmp);
        o->tmp = NULL;
    }
    if (to_stdout) {
        o->f = NULL;
        return rc;
    }
    o->f = NULL;
    if (rc != CLI_EXIT_OK)
        drop(o);
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    return rc;
}

void cli_out_abandon(cli_out_t *o)
{
    if (!o->f)
        return;
    if (o->f != stdout) {
        fclose(o->f);
        drop(o);
    }
    o->f = NULL;
}

int cli_close_stdout(const char *cmd, int rc)
{
    int e = 0;
    errno = 0;
    int failed = fflush(stdout) != 0 || ferror(stdout);
    if (errno)
        e = errno;
    errno = 0;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    if (failed && rc == CLI_EXIT_OK) {
        fprintf(stderr, "ssched%s%s: write error on standard output: %s\n", *cmd ? " " : "", cmd,
                e ? strerror(e) : "the stream failed");
        return CLI_EXIT_BADINPUT;
    }
    return rc;
}

void cli_remove_partial(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        remove(path);
}
