/* Integer number types for the exact reduce pricing (lp/colgen_rdp.inc),
 * in lp/colgen_num.h's convention: the includer defines CG_NUM_I64 or
 * CG_NUM_MPZ, includes this header, then the templates.  The exact prices
 * are rationals; scaled by the lcm of their denominators they are integers
 * (lp/colgen_price.inc, reduce_exact), and sums and comparisons of integers
 * are exact: int64_t when every value of the dynamic program provably fits
 * (below 2^61), mpz_t otherwise.  Only the operations the heap and the
 * dynamic program use are defined. */
#include <gmp.h>
#include <stdint.h>

#include "lp/colgen_num_undef.h" /* the previous number type's macros */

#if defined(CG_NUM_I64)
#define NUM int64_t
#define N_EXACT 1
#define N_INIT(x) ((x) = 0)
#define N_CLEAR(x) ((void)(x))
#define N_SET(d, s) ((d) = (s))
#define N_ZERO(x) ((x) = 0)
#define N_ADD(d, a, b) ((d) = (a) + (b))
#define N_CMP(a, b) (((a) > (b)) - ((a) < (b)))
#define N_SWAP(a, b) do { int64_t t_ = (a); (a) = (b); (b) = t_; } while (0)
#define SFX(name) name##_i
#elif defined(CG_NUM_MPZ)
#define NUM mpz_t
#define N_EXACT 1
#define N_INIT(x) mpz_init(x)
#define N_CLEAR(x) mpz_clear(x)
#define N_SET(d, s) mpz_set((d), (s))
#define N_ZERO(x) mpz_set_ui((x), 0)
#define N_ADD(d, a, b) mpz_add((d), (a), (b))
#define N_CMP(a, b) mpz_cmp((a), (b))
#define N_SWAP(a, b) mpz_swap((a), (b))
#define SFX(name) name##_z
#else
#error "define CG_NUM_I64 or CG_NUM_MPZ before including lp/colgen_num_int.h"
#endif
