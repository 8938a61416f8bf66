/* Pricing for column generation: the templates colgen_price.inc (paths,
 * the reduce entry points) and colgen_rdp.inc (the reduce dynamic program)
 * compiled for doubles (the iterations) and exactly (the certificate: paths
 * in rationals, the reduce program on integers, lp/colgen_num_int.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"
#include "lp/colgen_price.h"

void ssched_i_cg_column_free(cg_column_t *c)
{
    free(c->send_edge);
    free(c->send_interval);
    free(c->merge_node);
    free(c->merge_k);
    free(c->merge_l);
    free(c->merge_m);
    memset(c, 0, sizeof *c);
}

/* Append a send (edge, interval or 0) to column c of capacity *cap. */
static int cg_push_send(cg_column_t *c, size_t *cap, size_t edge, size_t interval)
{
    if (c->n_sends == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        size_t *a = realloc(c->send_edge, *cap * sizeof *a);
        if (!a)
            return 0;
        c->send_edge = a;
        size_t *b = realloc(c->send_interval, *cap * sizeof *b);
        if (!b)
            return 0;
        c->send_interval = b;
    }
    c->send_edge[c->n_sends] = edge;
    c->send_interval[c->n_sends++] = interval;
    return 1;
}

/* Large ordered reduces (colgen_internal.h): at 32 participants and more
 * the pricing's closures dominate a round (see lp/colgen_rdp.inc). */
static size_t large_reduce = 32;

size_t ssched_i_cg_large_reduce(size_t n)
{
    size_t old = large_reduce;
    if (n)
        large_reduce = n;
    return old;
}

/* The merge minimisation's inner loop (lp/colgen_rdp.inc), four splits
 * at a time: bs[hh] = min(bs[hh], a0[hh] + b0[hh], ..., a3[hh] + b3[hh]). */
#define RDP_MERGE4_LOOP                                                      \
    for (size_t hh = 0; hh < nh; hh++) { /* selects: vectorised */           \
        NUM c0 = a0[hh] + b0[hh], c1 = a1[hh] + b1[hh];                      \
        NUM c2 = a2[hh] + b2[hh], c3 = a3[hh] + b3[hh];                      \
        c0 = c1 < c0 ? c1 : c0;                                              \
        c2 = c3 < c2 ? c3 : c2;                                              \
        c0 = c2 < c0 ? c2 : c0;                                              \
        bs[hh] = c0 < bs[hh] ? c0 : bs[hh];                                  \
    }

#define NUM double
#define RDP_MERGE4_FN(name)                                                                 \
    static void name(size_t nh, const double *restrict a0, const double *restrict a1,       \
                     const double *restrict a2, const double *restrict a3,                  \
                     const double *restrict b0, const double *restrict b1,                  \
                     const double *restrict b2, const double *restrict b3,                  \
                     double *restrict bs)                                                   \
    {                                                                                       \
        RDP_MERGE4_LOOP                                                                     \
    }
RDP_MERGE4_FN(rdp_merge4_base)
/* In doubles it is about two thirds of a large reduce's pricing; the same
 * loop compiled for AVX2 (4 doubles a vector instead of SSE2's 2) where
 * the processor has it: the same operations, the same values. */
#if defined(__x86_64__) && defined(__GNUC__)
#define RDP_AVX2 1
__attribute__((target("avx2"))) RDP_MERGE4_FN(rdp_merge4_avx2)
#endif
#undef NUM

static void rdp_merge4_d(size_t nh, const double *a0, const double *a1, const double *a2,
                         const double *a3, const double *b0, const double *b1, const double *b2,
                         const double *b3, double *bs)
{
#ifdef RDP_AVX2
    if (__builtin_cpu_supports("avx2")) { /* a load and a test */
        rdp_merge4_avx2(nh, a0, a1, a2, a3, b0, b1, b2, b3, bs);
        return;
    }
#endif
    rdp_merge4_base(nh, a0, a1, a2, a3, b0, b1, b2, b3, bs);
}

/* ---- the exact reduce program on integers ---- */
#define CG_NUM_I64
#include "lp/colgen_num_int.h"
#include "lp/colgen_heap.inc"
#include "lp/colgen_rdp.inc"
#undef CG_NUM_I64

#define CG_NUM_MPZ
#include "lp/colgen_num_int.h"
#include "lp/colgen_heap.inc"
#include "lp/colgen_rdp.inc"
#undef CG_NUM_MPZ

/* ---- doubles ---- */
#define CG_NUM_DOUBLE
#include "lp/colgen_num.h"
#include "lp/colgen_heap.inc"
#include "lp/colgen_rdp.inc"
#include "lp/colgen_price.inc"
#undef CG_NUM_DOUBLE

/* ---- exact rationals ---- */
#define CG_NUM_MPQ
#include "lp/colgen_num.h"
#include "lp/colgen_heap.inc"
#include "lp/colgen_price.inc"
#undef CG_NUM_MPQ

void ssched_i_cg_price_memo_release(void)
{
    memo_drop_d(&memo_d);
    memo_drop_q(&memo_q);
}
