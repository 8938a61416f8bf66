/* The invariants of a loaded platform (ssched/platform.h), checked by the
 * platform readers' harnesses: unique non-empty names without control
 * characters, endpoints in range, no self-loop, c > 0, l >= 0, w > 0 where
 * present, adjacency lists consistent.  Any violation aborts. */
#ifndef SSCHED_FUZZ_PLATFORM_H
#define SSCHED_FUZZ_PLATFORM_H

#include <stdlib.h>
#include <string.h>

#include "ssched/platform.h"

static void fuzz_check_platform(const ssched_platform_t *p)
{
    for (size_t i = 0; i < p->n_nodes; i++) {
        if (!p->names[i] || !p->names[i][0])
            abort();
        for (size_t j = 0; j < i; j++)
            if (!strcmp(p->names[i], p->names[j]))
                abort();
        if (p->has_w[i] ? mpq_sgn(p->w[i]) <= 0 : mpq_sgn(p->w[i]) != 0)
            abort();
    }
    for (size_t e = 0; e < p->n_edges; e++) {
        if (p->from[e] >= p->n_nodes || p->to[e] >= p->n_nodes || p->from[e] == p->to[e])
            abort();
        if (mpq_sgn(p->c[e]) <= 0 || mpq_sgn(p->l[e]) < 0)
            abort();
        if (ssched_platform_edge_index(p, p->from[e], p->to[e]) != e)
            abort();
    }
    if (p->n_nodes > 0 && (p->out_start[p->n_nodes] != p->n_edges ||
                           p->in_start[p->n_nodes] != p->n_edges))
        abort();
}

/* The readers take a path: each input goes to one private temporary file,
 * made at start-up (fuzz_tmp_init, from LLVMFuzzerInitialize) and removed
 * at exit.  fuzz_write_tmp writes data[0..size) there; it aborts on I/O
 * failure, which is the harness's, not the reader's. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static char fuzz_tmp_path[64];

static void fuzz_remove_tmp(void)
{
    if (fuzz_tmp_path[0])
        unlink(fuzz_tmp_path);
}

static void fuzz_tmp_init(void)
{
    const char *dir = getenv("TMPDIR");
    char tmpl[48];
    snprintf(tmpl, sizeof tmpl, "%s/ssched-fuzz-XXXXXX", dir && strlen(dir) < 24 ? dir : "/tmp");
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        perror("mkstemp");
        abort();
    }
    close(fd);
    snprintf(fuzz_tmp_path, sizeof fuzz_tmp_path, "%s", tmpl);
    atexit(fuzz_remove_tmp);
}

static void fuzz_write_tmp(const uint8_t *data, size_t size)
{
    FILE *f = fopen(fuzz_tmp_path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();
}

/* One input read as `format` through ssched_platform_load: a loaded
 * platform keeps the invariants above; a refusal is EINPUT with a
 * one-line message.  Inputs over 64 KiB are skipped (they add nothing a
 * reader's grammar does not show in less). */
static inline int fuzz_load_as(const uint8_t *data, size_t size, ssched_platform_format_t format)
{
    if (size > 64 * 1024)
        return 0;
    fuzz_write_tmp(data, size);
    ssched_platform_read_options_t opt;
    ssched_platform_read_options_default(&opt);
    opt.format = format;
    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_platform_load(&p, fuzz_tmp_path, &opt, &err);
    if (st == SSCHED_OK)
        fuzz_check_platform(&p);
    else if (st != SSCHED_EINPUT || err.message[0] == '\0' || strchr(err.message, '\n'))
        abort();
    ssched_platform_free(&p);
    return 0;
}

#endif
