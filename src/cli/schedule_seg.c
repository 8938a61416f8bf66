/* ssched schedule --segments P (schedule/unroll_seg.c): the segment
 * problem, and whether a segment is whole bytes (the executor sends
 * unit_bytes x size of them per message and would round a fraction
 * down, so the plan would not be what runs). */
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

int cli_segments_whole(long segments, const char *unit_bytes, const char *size)
{
    if (!unit_bytes)
        return 1;
    mpq_t b;
    mpq_init(b);
    /* a text GMP does not read (a decimal): let the planner judge it */
    int whole = !segment_bytes(segments, unit_bytes, size, b) ||
                (mpz_cmp_ui(mpq_denref(b), 1) == 0 && mpz_sgn(mpq_numref(b)) > 0);
    mpq_clear(b);
    return whole;
}

int cli_segments_apply(long segments, const char *unit_bytes, const char *size,
                       ssched_platform_t *p, ssched_problem_t *pb)
{
    ssched_error_t err;
    ssched_error_clear(&err);
    if (segments > 1 && !cli_segments_whole(segments, unit_bytes, size))
        return cli_bad_input("schedule", "--segments %ld: a segment of --unit-bytes %s x size "
                             "is not a whole number of bytes", segments, unit_bytes);
    if (ssched_unroll_segments(p, pb, (unsigned long)segments, &err) != SSCHED_OK)
        return cli_report("schedule", &err);
    return CLI_EXIT_OK;
}
