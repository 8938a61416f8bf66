/* ssched/error.h — status codes and error messages shared by every stage.
 *
 * Library functions never print.  They return an ssched_status_t and, when
 * it is not SSCHED_OK, fill an ssched_error_t with one human-readable line
 * saying what is wrong and where.  The CLI maps SSCHED_EINPUT to exit status
 * 2 and every other failure to exit status 1. */
#ifndef SSCHED_ERROR_H
#define SSCHED_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SSCHED_OK = 0,
    SSCHED_EINPUT,      /* bad input: malformed file, bad option, bad value  */
    SSCHED_ENOMEM,      /* allocation failure                                 */
    SSCHED_ESOLVER,     /* the LP backend failed (not a property of the input) */
    SSCHED_EUNCERTIFIED,/* no exact certificate could be established          */
    SSCHED_EINTERNAL,   /* a broken invariant: a bug in ssched                */
    SSCHED_ELIMIT       /* a caller's resource limit (work or memory budget)
                           was reached; the message says which            */
} ssched_status_t;

#define SSCHED_ERROR_MSG_MAX 512

typedef struct {
    ssched_status_t status;
    char message[SSCHED_ERROR_MSG_MAX];
} ssched_error_t;

/* Reset an error record to SSCHED_OK with an empty message. */
void ssched_error_clear(ssched_error_t *err);

/* Record status and a printf-style message; returns status so callers can
 * write `return ssched_error_set(err, SSCHED_EINPUT, "...")`.  err may be NULL.
 * The message is always one line: control characters (a quoted value's
 * newline, say) are stored as '?'. */
ssched_status_t ssched_error_set(ssched_error_t *err, ssched_status_t status,
                                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Prefix the existing message with a context string ("file.graphml: ..."). */
void ssched_error_prefix(ssched_error_t *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Allocation failures.  ssched's own allocations report SSCHED_ENOMEM.
 * GMP cannot report one: by default it prints a message and abort()s.  The
 * library never longjmps out of GMP nor replaces GMP's allocation functions
 * on its own; a program may call this once, before any GMP object exists,
 * to make a GMP allocation failure print "PREFIX: out of memory" on stderr
 * and exit(1) instead of raising SIGABRT (the ssched CLI does). */
void ssched_gmp_exit_on_oom(const char *prefix);

/* Replace every occurrence of `from` in err's message by `to` (truncated
 * to SSCHED_ERROR_MSG_MAX).  Library messages name the struct fields and
 * inputs they check ("options.max_ops", "problem.target"); a front end
 * uses this to show its own name for them instead (a command-line option).
 * err may be NULL. */
void ssched_error_rename(ssched_error_t *err, const char *from, const char *to);

/* A short fixed name for a status ("bad input", "out of memory", ...);
 * "unknown status" for a value outside the enum.  Statuses have no parse
 * function: nothing reads a status back from text. */
const char *ssched_status_name(ssched_status_t status);

/* The outcome of every independent checker (the schedule checker of
 * schedule.h, ssched_mk_check, ssched_matching_check, ssched_redist_check,
 * ssched_trees_check, ssched_arborescences_check, ssched_lp_certify).  A
 * checker returns SSCHED_OK whenever its input could be checked, and then
 * report->valid says whether the checked object has every property; a
 * violation is not an error status.  Error statuses mean the input could
 * not be checked at all (SSCHED_EINPUT: malformed input, as each checker
 * documents) or a resource failure (SSCHED_ENOMEM). */
typedef struct {
    int valid;                       /* 1 if every property holds          */
    char violation[SSCHED_ERROR_MSG_MAX]; /* the first violation, plainly;
                                        empty when valid                  */
    /* Schedule checker only (ssched_check_schedule_*); zero elsewhere. */
    int unrolled;                    /* the file was an unrolled schedule  */
    size_t n_slots, n_transfers;
} ssched_check_report_t;

#ifdef __cplusplus
}
#endif
#endif
