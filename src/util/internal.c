/* The private helpers of src/util/internal.h. */
#include "src/util/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

/* 1 iff max(n, 1) * size fits a size_t.  Checked here rather than left to
 * calloc: a sanitizer's calloc aborts on the overflow instead of failing. */
static int fits(size_t n, size_t size)
{
    return !size || (n ? n : 1) <= SIZE_MAX / size;
}

void *ssched_i_alloc(size_t n, size_t size)
{
    return fits(n, size) ? malloc((n ? n : 1) * size) : NULL;
}

void *ssched_i_calloc(size_t n, size_t size)
{
    return fits(n, size) ? calloc(n ? n : 1, size) : NULL;
}

static double seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double ssched_i_wall_now(void)
{
    return seconds(CLOCK_MONOTONIC);
}

double ssched_i_cpu_now(void)
{
    return seconds(CLOCK_PROCESS_CPUTIME_ID);
}

uint64_t ssched_i_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Arrays of GMP numbers: `size` bytes per element, each set up by init and
 * released by clear (the four wrappers adapt GMP's typed functions). */
static void *gmp_vec_new(size_t n, size_t size, void (*init)(void *))
{
    unsigned char *v = ssched_i_alloc(n, size);
    for (size_t i = 0; v && i < n; i++)
        init(v + i * size);
    return v;
}

static void gmp_vec_free(void *v, size_t n, size_t size, void (*clear)(void *))
{
    for (size_t i = 0; v && i < n; i++)
        clear((unsigned char *)v + i * size);
    free(v);
}

static void q_init(void *x) { mpq_init(x); }
static void q_clear(void *x) { mpq_clear(x); }
static void z_init(void *x) { mpz_init(x); }
static void z_clear(void *x) { mpz_clear(x); }

mpq_t *ssched_i_mpq_vec_new(size_t n)
{
    return gmp_vec_new(n, sizeof(mpq_t), q_init);
}

void ssched_i_mpq_vec_free(mpq_t *v, size_t n)
{
    gmp_vec_free(v, n, sizeof(mpq_t), q_clear);
}

mpz_t *ssched_i_mpz_vec_new(size_t n)
{
    return gmp_vec_new(n, sizeof(mpz_t), z_init);
}

void ssched_i_mpz_vec_free(mpz_t *v, size_t n)
{
    gmp_vec_free(v, n, sizeof(mpz_t), z_clear);
}

long ssched_i_name_control(const char *name)
{
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return (long)(c - (const unsigned char *)name);
    return -1;
}

const char *ssched_i_name_shown(const char *name, char *buf, size_t size)
{
    size_t o = 0;
    if (!size)
        return buf;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        char piece[8];
        if (*c == '\n' || *c == '\r' || *c == '\t')
            snprintf(piece, sizeof piece, "\\%c", *c == '\n' ? 'n' : *c == '\r' ? 'r' : 't');
        else if (*c < 0x20 || *c == 0x7f)
            snprintf(piece, sizeof piece, "\\x%02x", *c);
        else
            piece[0] = (char)*c, piece[1] = '\0';
        size_t len = strlen(piece);
        if (o + len + 4 > size) { /* room for "..." and the NUL */
            if (size >= 4) {
                memcpy(buf + (o < size - 4 ? o : size - 4), "...", 4);
                return buf;
            }
            break;
        }
        memcpy(buf + o, piece, len);
        o += len;
    }
    buf[o < size ? o : size - 1] = '\0';
    return buf;
}
