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
