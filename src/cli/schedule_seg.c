/* ssched schedule --segments P (schedule/unroll_seg.c): the segment
 * problem, and whether a segment is whole bytes (the executor sends
 * unit_bytes x size of them per message and would round a fraction
 * down, so the plan would not be what runs). */
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "ssched/schedule.h"

/* unit_bytes x size / P into b; 0 when a text does not parse (nothing
 * printed: cli_problem_load reports bad option values). */
static int segment_bytes(long segments, const char *unit_bytes, const char *size, mpq_t b)
{
    mpq_t z;
    mpq_init(z);
    int ok = mpq_set_str(b, unit_bytes, 10) == 0 && (!size || mpq_set_str(z, size, 10) == 0);
    if (ok) {
        mpq_canonicalize(b);
        if (size) {
            mpq_canonicalize(z);
            mpq_mul(b, b, z);
        }
        mpq_set_ui(z, 1, (unsigned long)segments);
        mpq_mul(b, b, z);
    }
    mpq_clear(z);
    return ok;
}

/* The executor's element (src/mpi/exec_main.c): a 64-bit word summed
 * (commutative operators), a 2x2 matrix of them multiplied (ordered); a
 * broadcast's bytes are not combined.  A segment cut inside an element
 * would not be element-wise. */
static long granule(const cli_problem_opts_t *po)
{
    if (po->problem && !strcmp(po->problem, "broadcast"))
        return 1;
    return po->commutative ? 8 : 32;
}

int cli_segments_whole(long segments, const cli_problem_opts_t *po)
{
    if (!po->unit_bytes)
        return 1;
    mpq_t b;
    mpq_init(b);
    /* a text GMP does not read (a decimal): let the planner judge it */
    int whole = !segment_bytes(segments, po->unit_bytes, po->size, b);
    if (!whole && mpz_cmp_ui(mpq_denref(b), 1) == 0 && mpz_sgn(mpq_numref(b)) > 0)
        whole = mpz_divisible_ui_p(mpq_numref(b), (unsigned long)granule(po)) != 0;
    mpq_clear(b);
    return whole;
}

long cli_segments_next(long prev, const cli_problem_opts_t *po)
{
    /* the largest whole-element P in (prev, 2 prev], else the least one
     * above 2 prev (0: none up to 65536) */
    for (long P = 2 * prev; P > prev; P--)
        if (cli_segments_whole(P, po))
            return P;
    for (long P = 2 * prev + 1; P <= 65536; P++)
        if (cli_segments_whole(P, po))
            return P;
    return 0;
}

int cli_segments_apply(long segments, const cli_problem_opts_t *po, ssched_platform_t *p,
                       ssched_problem_t *pb)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (segments > 1 && !cli_segments_whole(segments, po))
        return cli_bad_input("schedule", "--segments %ld: a segment of --unit-bytes %s x size "
                             "is not a whole number of %ld-byte elements", segments,
                             po->unit_bytes, granule(po));
    if (ssched_unroll_segments(p, pb, (unsigned long)segments, &err) != SSCHED_OK)
        return cli_report("schedule", &err);
    return CLI_EXIT_OK;
}
