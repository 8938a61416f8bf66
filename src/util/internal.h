/* Private helpers shared by every part of the library (not installed).
 *
 * One copy each of what several stages used to carry their own version of:
 * the visibility macro of the private names, the zero-size allocation guard,
 * the clocks, the seeded pseudo-random step and the arrays of GMP numbers. */
#ifndef SSCHED_UTIL_INTERNAL_H
#define SSCHED_UTIL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

/* Private cross-file names (ssched_i_*) are global so that the library's
 * files can share them, but they are no API: hidden, they stay out of the
 * dynamic symbol table when libssched.a is linked into a shared object, so a
 * program can neither bind to them nor clash with them.  Every declaration
 * of an ssched_i_ function or variable carries it (tests/test_symbols.c). */
#if defined(__GNUC__) || defined(__clang__)
#define SSCHED_INTERNAL __attribute__((visibility("hidden")))
#else
#define SSCHED_INTERNAL
#endif

/* malloc of max(n, 1) * size bytes: a zero count still gives a pointer that
 * free() and the "allocation failed" test treat like any other, since
 * malloc(0) may return NULL.  NULL if n * size overflows or on failure. */
SSCHED_INTERNAL void *ssched_i_alloc(size_t n, size_t size);
/* The same, zero-filled (calloc of max(n, 1) elements). */
SSCHED_INTERNAL void *ssched_i_calloc(size_t n, size_t size);

/* Seconds on the monotonic clock (elapsed time, for timings and deadlines)
 * and of CPU time used by the process; both only meaningful as differences. */
SSCHED_INTERNAL double ssched_i_wall_now(void);
SSCHED_INTERNAL double ssched_i_cpu_now(void);

/* One splitmix64 step (G. Steele, D. Lea, C. Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): advance the Weyl sequence
 * *state, return the mixed value.  Fully specified, so a seed means the same
 * numbers on every machine and libc, which rand() does not promise. */
SSCHED_INTERNAL uint64_t ssched_i_splitmix64(uint64_t *state);

/* Names that reach text output (node and link names): a control character
 * (below 0x20, or 0x7f) could forge lines or terminal escapes, so loaders
 * refuse it.  ssched_i_name_control returns the first such byte's offset,
 * or -1; ssched_i_name_shown writes name into buf (NUL-terminated, cut
 * with "..." if longer) with each control byte as \n, \r, \t or \xHH, so
 * the refusal can name the node on one line; it returns buf. */
SSCHED_INTERNAL long ssched_i_name_control(const char *name);
SSCHED_INTERNAL const char *ssched_i_name_shown(const char *name, char *buf, size_t size);

/* n initialised (zero) rationals / integers, at least one allocated; NULL
 * when out of memory.  Free with the matching _free and the same n (a NULL
 * array is accepted). */
SSCHED_INTERNAL mpq_t *ssched_i_mpq_vec_new(size_t n);
SSCHED_INTERNAL void ssched_i_mpq_vec_free(mpq_t *v, size_t n);
SSCHED_INTERNAL mpz_t *ssched_i_mpz_vec_new(size_t n);
SSCHED_INTERNAL void ssched_i_mpz_vec_free(mpz_t *v, size_t n);

/* The LCM period's terms for one flow (lp/steady_period.c): T becomes the
 * lcm of T, the denominator of `rate` and that of its busy time
 * rate * c * size on a link of cost c; tmp is scratch.  Every builder of a
 * period (ssched_steady_period, the scatter/gossip schedule) goes through
 * it so that they agree. */
SSCHED_INTERNAL void ssched_i_period_add_flow(mpz_t T, const mpq_t rate, const mpq_t c,
                                              const mpq_t size, mpq_t tmp);

#endif
