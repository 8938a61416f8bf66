/* libFuzzer harness: the GraphML platform loader
 * (ssched_platform_load_graphml).  The loader takes a path, so each input is
 * written to a private temporary file first (nothing is added to the
 * library for fuzzing).
 *
 * Properties: no crash, leak or UB; the status is OK or EINPUT with a
 * message; a loaded platform satisfies platform.h's invariants (unique
 * non-empty names, endpoints in range, no self-loop, c > 0, w > 0 where
 * present, adjacency lists consistent), and writing it back with
 * ssched_write_platform_graphml and loading that gives the same platform. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ssched/export.h"
#include "ssched/platform.h"
#include "fuzz_platform.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_tmp_init();
    return 0;
}

/* Write p as GraphML to fuzz_tmp_path, load it back and compare. */
static void check_round_trip(const ssched_platform_t *p)
{
    FILE *f = fopen(fuzz_tmp_path, "wb");
    if (!f)
        abort();
    ssched_error_t err;
    if (ssched_write_platform_graphml(f, p, &err) != SSCHED_OK)
        abort();
    if (fclose(f) != 0)
        abort();
    ssched_platform_t q;
    ssched_platform_init(&q);
    if (ssched_platform_load_graphml(&q, fuzz_tmp_path, &err) != SSCHED_OK) {
        fprintf(stderr, "round trip: reload failed: %s\n", err.message);
        abort();
    }
    if (q.n_nodes != p->n_nodes || q.n_edges != p->n_edges)
        abort();
    for (size_t i = 0; i < p->n_nodes; i++)
        if (strcmp(p->names[i], q.names[i]) || p->has_w[i] != q.has_w[i] ||
            !mpq_equal(p->w[i], q.w[i])) {
            fprintf(stderr, "round trip: node %zu differs\n", i);
            abort();
        }
    for (size_t e = 0; e < p->n_edges; e++)
        if (p->from[e] != q.from[e] || p->to[e] != q.to[e] || !mpq_equal(p->c[e], q.c[e])) {
            fprintf(stderr, "round trip: edge %zu differs\n", e);
            abort();
        }
    ssched_platform_free(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    fuzz_write_tmp(data, size);

    ssched_platform_t p;
    ssched_platform_init(&p);
    ssched_error_t err;
    ssched_error_clear(&err);
    ssched_status_t st = ssched_platform_load_graphml(&p, fuzz_tmp_path, &err);
    if (st == SSCHED_OK) {
        fuzz_check_platform(&p);
        check_round_trip(&p);
    }
    else if (st != SSCHED_EINPUT || err.message[0] == '\0')
        abort();
    ssched_platform_free(&p);
    return 0;
}
