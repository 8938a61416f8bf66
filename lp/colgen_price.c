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
#define CG_NUM_DOUBLE
#include "lp/colgen_num.h"
#include "lp/colgen_price.inc"
#undef CG_NUM_DOUBLE

/* ---- exact rationals ---- */
#define CG_NUM_MPQ
#include "lp/colgen_num.h"
#include "lp/colgen_price.inc"
#undef CG_NUM_MPQ
