/* SimGrid platform files in (issue 23): the parent half of the reader.
 *
 * libsimgrid 3.32 loads the file in a forked child (simgrid_child.cpp): a
 * process holds one SimGrid engine only, and some of SimGrid's errors abort
 * the process.  The child streams the hosts and the links of every route
 * through a pipe; its stdout and stderr go to a temporary file, read only
 * to explain a child that died.  Whatever SimGrid does, this process
 * survives and reports one line.
 *
 * The result is a routed platform (ssched/platform.h): the hosts in
 * SimGrid's order (sg_host_list(): sorted by name in 3.32), the links that
 * some route crosses (in order of first appearance, host pairs taken in
 * host order), and an edge for every ordered pair of distinct hosts whose
 * route is not empty.  Time unit: the second; unit message: unit_bytes. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ssched/rational.h"
#include "src/platform/platform_internal.h"
#include "src/platform/simgrid_wire.h"

/* Not a status the library returns: the child's stream stopped early (the
 * child's own account of why is read afterwards). */
#define TRUNCATED ((ssched_status_t)99)

/* err's message prefixed with the file's name (copied first: the message
 * cannot be formatted over itself). */
static ssched_status_t with_path(ssched_error_t *err, ssched_status_t st, const char *path)
{
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    return ssched_error_set(err, st, "%s: %s", path, msg);
}

int ssched_i_mpq_from_shown_double(mpq_t out, double d)
{
    if (!isfinite(d))
        return 0;
    /* SimGrid read the file's decimal (at most 15 significant digits in any
     * platform file seen) and scaled it by its unit prefix: one or two
     * roundings, a few units in the last place.  The 15-digit decimal
     * nearest d is then the file's own number; otherwise d's shortest
     * round-trip decimal is the best account of it. */
    char text[40];
    snprintf(text, sizeof text, "%.15g", d);
    double back = strtod(text, NULL);
    if (fabs(back - d) > 4 * (nextafter(fabs(d), INFINITY) - fabs(d))) {
        for (int digits = 1; digits <= 17; digits++) {
            snprintf(text, sizeof text, "%.*g", digits, d);
            if (strtod(text, NULL) == d)
                break;
        }
    }
    return ssched_rational_parse(out, text, NULL) == SSCHED_OK;
}

int ssched_i_looks_like_simgrid(const char *path)
{
    if (!strcmp(path, "-"))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The first element's name, past the XML declaration, comments,
     * processing instructions and the DOCTYPE. */
    const char *s = buf;
    if (!strncmp(s, "\xEF\xBB\xBF", 3))
        s += 3;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!strncmp(s, "<!--", 4)) {
            s = strstr(s + 4, "-->");
            if (!s)
                return 0;
            s += 3;
        } else if (!strncmp(s, "<?", 2) || !strncmp(s, "<!", 2)) {
            s = strchr(s, '>');
            if (!s)
                return 0;
            s++;
        } else {
            break;
        }
    }
    return !strncmp(s, "<platform", 9) &&
           (isspace((unsigned char)s[9]) || s[9] == '>' || s[9] == '/');
}

typedef struct {
    FILE *in;
    const char *path;
    ssched_error_t *err;
    char *text;   /* scratch for names */
    size_t text_cap;
} stream_t;

static int get(stream_t *s, void *buf, size_t n)
{
    return n == 0 || fread(buf, 1, n, s->in) == n;
}

/* A length-prefixed name into s->text; 0 at the stream's end. */
static int get_text(stream_t *s)
{
    uint32_t n;
    if (!get(s, &n, sizeof n))
        return 0;
    if ((size_t)n + 1 > s->text_cap) {
        char *t = realloc(s->text, (size_t)n + 1);
        if (!t)
            return 0;
        s->text = t;
        s->text_cap = (size_t)n + 1;
    }
    if (!get(s, s->text, n))
        return 0;
    s->text[n] = '\0';
    return 1;
}

static int has_control(const char *name)
{
    for (; *name; name++)
        if ((unsigned char)*name < 0x20 || *name == 0x7f)
            return 1;
    return 0;
}

static ssched_status_t read_host(stream_t *s, ssched_platform_t *p, mpq_srcptr flops, mpq_t q)
{
    double speed;
    if (!get_text(s) || !get(s, &speed, sizeof speed))
        return TRUNCATED;
    if (has_control(s->text))
        return ssched_error_set(s->err, SSCHED_EINPUT, "%s: host '%s': a control character in "
                                "its name", s->path, s->text);
    if (!isfinite(speed) || speed < 0 || !ssched_i_mpq_from_shown_double(q, speed))
        return ssched_error_set(s->err, SSCHED_EINPUT, "%s: host '%s': speed %g is not a finite "
                                "non-negative number", s->path, s->text, speed);
    /* a host of speed 0 computes nothing: it only sends and receives */
    if (mpq_sgn(q) > 0) {
        mpq_inv(q, q);
        mpq_mul(q, q, flops);
    }
    ssched_status_t st = ssched_platform_add_node(p, s->text, mpq_sgn(q) > 0 ? q : NULL, NULL,
                                                  s->err);
    if (st != SSCHED_OK)
        return with_path(s->err, st, s->path);
    return SSCHED_OK;
}

static ssched_status_t read_link(stream_t *s, ssched_platform_t *p, mpq_srcptr unit, mpq_t c,
                                 mpq_t lat)
{
    double bw, latency;
    int32_t shared;
    if (!get_text(s) || !get(s, &bw, sizeof bw) || !get(s, &latency, sizeof latency) ||
        !get(s, &shared, sizeof shared))
        return TRUNCATED;
    if (!(bw > 0) || !ssched_i_mpq_from_shown_double(c, bw))
        return ssched_error_set(s->err, SSCHED_EINPUT, "%s: link '%s': bandwidth %g B/s is not "
                                "a finite positive number", s->path, s->text, bw);
    if (!(latency >= 0) || !ssched_i_mpq_from_shown_double(lat, latency))
        return ssched_error_set(s->err, SSCHED_EINPUT, "%s: link '%s': latency %g s is not a "
                                "finite non-negative number", s->path, s->text, latency);
    mpq_inv(c, c);
    mpq_mul(c, c, unit);
    ssched_status_t st = ssched_platform_add_link(
        p, s->text, c, lat, shared ? SSCHED_LINK_SHARED : SSCHED_LINK_FATPIPE, NULL, s->err);
    if (st != SSCHED_OK)
        return with_path(s->err, st, s->path);
    return SSCHED_OK;
}

/* Everything after the hosts: links and routes until 'Z'. */
static ssched_status_t read_routes(stream_t *s, ssched_platform_t *p, mpq_srcptr unit)
{
    /* (i, j): the pair the next route is for, in host order, i != j */
    size_t n = p->n_nodes, i = n < 2 ? n : 0, j = 1, cap = 0;
    size_t *links = NULL;
    uint32_t *raw = NULL;
    mpq_t c, lat;
    mpq_inits(c, lat, NULL);
    ssched_status_t st = SSCHED_OK;
    for (;;) {
        int tag = fgetc(s->in);
        if (tag == 'L') {
            st = read_link(s, p, unit, c, lat);
        } else if (tag == 'R') {
            uint32_t k;
            if (i >= n || !get(s, &k, sizeof k)) {
                st = TRUNCATED;
            } else if (k > cap) {
                free(links);
                free(raw);
                cap = 2 * (size_t)k;
                links = ssched_i_alloc(cap, sizeof *links);
                raw = ssched_i_alloc(cap, sizeof *raw);
                if (!links || !raw)
                    st = ssched_error_set(s->err, SSCHED_ENOMEM, "out of memory");
            }
            if (st == SSCHED_OK && !get(s, raw, k * sizeof *raw))
                st = TRUNCATED;
            if (st == SSCHED_OK && k > 0) {
                for (uint32_t a = 0; a < k; a++)
                    links[a] = raw[a];
                st = ssched_platform_add_routed_edge(p, i, j, links, k, s->err);
                if (st != SSCHED_OK)
                    st = with_path(s->err, st, s->path);
            }
            do { /* the next ordered pair, skipping i == j */
                if (++j >= n) {
                    i++;
                    j = 0;
                }
            } while (i < n && j == i);
        } else if (tag == 'Z' && i >= n) {
            break;
        } else {
            if (tag != EOF)
                ungetc(tag, s->in);
            st = TRUNCATED;
        }
        if (st != SSCHED_OK)
            break;
    }
    free(links);
    free(raw);
    mpq_clears(c, lat, NULL);
    return st;
}

static void copy(char *out, size_t size, const char *text)
{
    size_t n = strlen(text);
    if (n >= size)
        n = size - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

/* What the child's captured stderr says: its first SimGrid CRITICAL line
 * (without the "[time] file:line: [category/CRITICAL] " prefix), else its
 * last non-empty line. */
static void child_message(FILE *log, char *out, size_t size)
{
    snprintf(out, size, "no message");
    if (!log || fseek(log, 0, SEEK_SET) != 0)
        return;
    char line[1024];
    int critical = 0;
    while (fgets(line, sizeof line, log)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!*line || !strncmp(line, "Backtrace", 9) || !strncmp(line, "  ->", 4))
            continue;
        const char *mark = strstr(line, "/CRITICAL] ");
        if (mark && !critical) {
            critical = 1;
            copy(out, size, mark + 11);
        } else if (!critical) {
            copy(out, size, line);
        }
    }
}

/* Parent side: read the stream into p; the child's exit is checked by the
 * caller. */
static ssched_status_t read_stream(stream_t *s, ssched_platform_t *p, mpq_srcptr unit,
                                   mpq_srcptr flops)
{
    int tag = fgetc(s->in);
    if (tag == 'E') {
        if (get_text(s))
            return ssched_error_set(s->err, SSCHED_EINPUT, "%s: SimGrid refuses the platform: %s",
                                    s->path, s->text);
        return TRUNCATED;
    }
    uint64_t n;
    if (tag != 'H' || !get(s, &n, sizeof n))
        return TRUNCATED;
    if (n > (uint64_t)1 << 20)
        return ssched_error_set(s->err, SSCHED_EINPUT, "%s: %llu hosts: more than ssched's limit "
                                "of 2^20", s->path, (unsigned long long)n);
    mpq_t q;
    mpq_init(q);
    ssched_status_t st = SSCHED_OK;
    for (uint64_t i = 0; i < n && st == SSCHED_OK; i++)
        st = read_host(s, p, flops, q);
    mpq_clear(q);
    if (st == SSCHED_OK)
        st = ssched_platform_make_routed(p, s->err);
    if (st == SSCHED_OK)
        st = read_routes(s, p, unit);
    if (st == TRUNCATED) {
        /* the stream stopped: maybe an error record */
        if (fgetc(s->in) == 'E' && get_text(s))
            return ssched_error_set(s->err, SSCHED_EINPUT, "%s: SimGrid refuses the platform: %s",
                                    s->path, s->text);
    }
    return st;
}

ssched_status_t ssched_i_simgrid_read(ssched_platform_t *p, const char *path,
                                      mpq_srcptr unit_bytes, mpq_srcptr flops_per_task,
                                      ssched_error_t *err)
{
    if (!strcmp(path, "-"))
        return ssched_error_set(err, SSCHED_EINPUT, "<stdin>: a SimGrid platform is read from a "
                                "file (SimGrid opens it itself), not from standard input");
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    fclose(probe);
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    mpq_srcptr unit = unit_bytes ? unit_bytes : one, flops = flops_per_task ? flops_per_task : one;

    int fds[2];
    FILE *log = tmpfile();
    if (!log || pipe(fds) != 0) {
        if (log)
            fclose(log);
        mpq_clear(one);
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot start SimGrid's loader: %s", path,
                                strerror(errno));
    }
#ifndef SSCHED_HAVE_SIMGRID
    fclose(log);
    close(fds[0]);
    close(fds[1]);
    mpq_clear(one);
    return ssched_error_set(err, SSCHED_EINPUT, "%s: this ssched was built without libsimgrid: "
                            "SimGrid platforms cannot be read", path);
#else
    /* where the child is in the routes, shared with it */
    volatile uint64_t *at = mmap(NULL, 2 * sizeof *at, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    static uint64_t no_at[2];
    fflush(NULL); /* the child must not write this process's buffers again */
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd >= 0)
            dup2(null_fd, 0);
        dup2(fileno(log), 1);
        dup2(fileno(log), 2);
        signal(SIGPIPE, SIG_DFL);
        _exit(ssched_i_simgrid_child(path, fds[1], at != MAP_FAILED ? at : no_at));
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        fclose(log);
        if (at != MAP_FAILED)
            munmap((void *)at, 2 * sizeof *at);
        mpq_clear(one);
        return ssched_error_set(err, SSCHED_EINPUT, "%s: cannot start SimGrid's loader: %s", path,
                                strerror(errno));
    }
    ssched_error_t local;
    stream_t s = {fdopen(fds[0], "rb"), path, err ? err : &local, NULL, 0};
    ssched_platform_t tmp;
    ssched_platform_init(&tmp);
    ssched_status_t st = s.in ? read_stream(&s, &tmp, unit, flops) : TRUNCATED;
    if (st != SSCHED_OK && st != TRUNCATED)
        kill(pid, SIGKILL); /* refused by ssched: the rest is not needed */
    if (s.in)
        fclose(s.in);
    else
        close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (st == TRUNCATED) {
        char msg[600], where[300] = "";
        child_message(log, msg, sizeof msg);
        if (at != MAP_FAILED && at[0] > 0 && at[0] <= tmp.n_nodes && at[1] < tmp.n_nodes)
            snprintf(where, sizeof where, " at the route from %.120s to %.120s",
                     tmp.names[at[0] - 1], tmp.names[at[1]]);
        if (WIFSIGNALED(status))
            st = ssched_error_set(s.err, SSCHED_EINPUT, "%s: SimGrid crashed loading the "
                                  "platform%s (signal %d): %s", path, where, WTERMSIG(status), msg);
        else
            st = ssched_error_set(s.err, SSCHED_EINPUT, "%s: SimGrid's loader stopped%s (exit %d): "
                                  "%s", path, where, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                  msg);
    }
    if (st == SSCHED_OK && tmp.n_nodes == 0)
        st = ssched_error_set(s.err, SSCHED_EINPUT, "%s: the platform has no host", path);
    if (st == SSCHED_OK) {
        st = ssched_platform_finalize(&tmp, s.err);
        if (st != SSCHED_OK)
            st = with_path(s.err, st, path);
    }
    if (st == SSCHED_OK) {
        ssched_platform_free(p);
        *p = tmp;
    } else {
        ssched_platform_free(&tmp);
    }
    free(s.text);
    fclose(log);
    if (at != MAP_FAILED)
        munmap((void *)at, 2 * sizeof *at);
    mpq_clear(one);
    return st;
#endif
}
