/* Pricing for column generation: the template colgen_price.inc compiled
 * for doubles (the iterations) and for exact rationals (the certificate). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp/colgen_internal.h"

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

/* ---- doubles ---- */
#define NUM double
#define NUM_INIT(x) ((x) = 0.0)
#define NUM_CLEAR(x) ((void)(x))
#define NUM_SET(d, s) ((d) = (s))
#define NUM_ADD(d, a, b) ((d) = (a) + (b))
#define NUM_MUL_Q(d, a, q) ((d) = (a) * mpq_get_d(q))
#define NUM_CMP(a, b) (((a) > (b)) - ((a) < (b)))
#define NUM_SWAP(a, b) do { double t_ = (a); (a) = (b); (b) = t_; } while (0)
#define NUM_ZERO(x) ((x) = 0.0)
#define NUM_OUT double *
#define OUT(x) (*(x))
#define SUFFIX(name) name##_d
#define PRICES cg_prices_d
#include "lp/colgen_price.inc"
#undef NUM
#undef NUM_INIT
#undef NUM_CLEAR
#undef NUM_SET
#undef NUM_ADD
#undef NUM_MUL_Q
#undef NUM_CMP
#undef NUM_SWAP
#undef NUM_ZERO
#undef NUM_OUT
#undef OUT
#undef SUFFIX
#undef PRICES

/* ---- exact rationals ---- */
#define NUM mpq_t
#define NUM_INIT(x) mpq_init(x)
#define NUM_CLEAR(x) mpq_clear(x)
#define NUM_SET(d, s) mpq_set((d), (s))
#define NUM_ADD(d, a, b) mpq_add((d), (a), (b))
#define NUM_MUL_Q(d, a, q) mpq_mul((d), (a), (q))
#define NUM_CMP(a, b) mpq_cmp((a), (b))
#define NUM_SWAP(a, b) mpq_swap((a), (b))
#define NUM_ZERO(x) mpq_set_ui((x), 0, 1)
#define NUM_OUT mpq_ptr
#define OUT(x) (x)
#define SUFFIX(name) name##_q
#define PRICES cg_prices_q
#include "lp/colgen_price.inc"
