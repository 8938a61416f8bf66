/* Number operations for the pricing templates (colgen_price.inc,
 * colgen_comm_price.inc), the convention src/scatter/dp_values.h set.
 *
 * Template convention: the including .c file defines one selector,
 * CG_NUM_DOUBLE or CG_NUM_MPQ, includes this header, then the .inc; the
 * header undefines the previous instance's macros and defines NUM (the
 * number type) and its operations N_*, SFX(name) (the instance's name:
 * name_d or name_q), N_OUT (an output scalar parameter) with N_AT(x) (its
 * value) and N_REF(x) (a scalar's address as an N_OUT).  The operations are
 * thus written once per type, not once per template. */
#ifndef CG_NUM_HELPERS
#define CG_NUM_HELPERS
#include <gmp.h>

/* d = a op k for a rational a and an integer k (op: mpq_add, mpq_mul). */
static inline void cg_num_q_op_ui(mpq_ptr d, mpq_srcptr a, unsigned long k,
                                  void (*op)(mpq_ptr, mpq_srcptr, mpq_srcptr))
{
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, k, 1);
    op(d, a, q);
    mpq_clear(q);
}
#endif

#include "lp/colgen_num_undef.h" /* the previous number type's macros */

#if defined(CG_NUM_DOUBLE)
#define NUM double
#define N_EXACT 0
#define N_INIT(x) ((x) = 0.0)
#define N_CLEAR(x) ((void)(x))
#define N_SET(d, s) ((d) = (s))
#define N_SETUI(d, k) ((d) = (double)(k))
#define N_ZERO(x) ((x) = 0.0)
#define N_ADD(d, a, b) ((d) = (a) + (b))
#define N_SUB(d, a, b) ((d) = (a) - (b))
#define N_ADDUI(d, a, k) ((d) = (a) + (double)(k))
#define N_MULUI(d, a, k) ((d) = (a) * (double)(k))
#define N_MUL_Q(d, a, q) ((d) = (a) * mpq_get_d(q)) /* d = a * rational q */
#define N_CMP(a, b) (((a) > (b)) - ((a) < (b)))
#define N_SWAP(a, b) do { double t_ = (a); (a) = (b); (b) = t_; } while (0)
#define N_POS(x) ((x) > 0)
#define N_OUT double *
#define N_AT(x) (*(x))
#define N_REF(x) (&(x))
#define SFX(name) name##_d
#elif defined(CG_NUM_MPQ)
#define NUM mpq_t
#define N_EXACT 1
#define N_INIT(x) mpq_init(x)
#define N_CLEAR(x) mpq_clear(x)
#define N_SET(d, s) mpq_set((d), (s))
#define N_SETUI(d, k) mpq_set_ui((d), (k), 1)
#define N_ZERO(x) mpq_set_ui((x), 0, 1)
#define N_ADD(d, a, b) mpq_add((d), (a), (b))
#define N_SUB(d, a, b) mpq_sub((d), (a), (b))
#define N_ADDUI(d, a, k) cg_num_q_op_ui((d), (a), (k), mpq_add)
#define N_MULUI(d, a, k) cg_num_q_op_ui((d), (a), (k), mpq_mul)
#define N_MUL_Q(d, a, q) mpq_mul((d), (a), (q))
#define N_CMP(a, b) mpq_cmp((a), (b))
#define N_SWAP(a, b) mpq_swap((a), (b))
#define N_POS(x) (mpq_sgn(x) > 0)
#define N_OUT mpq_ptr
#define N_AT(x) (x)
#define N_REF(x) (x)
#define SFX(name) name##_q
#else
#error "define CG_NUM_DOUBLE or CG_NUM_MPQ before including lp/colgen_num.h"
#endif
