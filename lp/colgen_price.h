/* Pricing memo (lp/colgen_price.inc): the path pricers keep the
 * shortest-path trees of a round per thread, up to 2^21 entries per number
 * type, until the prices change.  A solver that is done with a problem may
 * give that memory back; the next call simply recomputes. */
#ifndef SSCHED_LP_COLGEN_PRICE_H
#define SSCHED_LP_COLGEN_PRICE_H

#include "src/util/internal.h"

SSCHED_INTERNAL void ssched_i_cg_price_memo_release(void);

#endif
