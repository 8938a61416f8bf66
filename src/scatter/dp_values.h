/* Value operations for the DP templates (dp_alg1.inc, dp_alg2.inc).
 *
 * Included once per instantiation, after defining SB_VAL_I64 or SB_VAL_MPZ:
 * the same algorithm text then runs on int64_t (when sb_scaled_t proved the
 * bound, see scaled.c) or on mpz_t.  VT is the value type; arrays are VT *
 * (for mpz, an array of mpz_t), scalars are declared `VT v;` and need
 * V_INIT/V_CLEAR. */
#undef VT
#undef V_INIT
#undef V_CLEAR
#undef V_EVAL
#undef V_ADD
#undef V_SET
#undef V_CMP
#undef V_TO_MPZ
#undef SB_FN

#if defined(SB_VAL_I64)
#define VT int64_t
#define V_INIT(v) ((v) = 0)
#define V_CLEAR(v) ((void)(v))
#define V_EVAL(v, f, x) ((v) = sb_sfn_eval64((f), (x)))
#define V_ADD(r, a, b) ((r) = (a) + (b))
#define V_SET(r, a) ((r) = (a))
#define V_CMP(a, b) (((a) > (b)) - ((a) < (b)))
#define V_TO_MPZ(z, v) mpz_set_si((z), (long)(v))
#define SB_FN(name) name##_i64
#elif defined(SB_VAL_MPZ)
#define VT mpz_t
#define V_INIT(v) mpz_init(v)
#define V_CLEAR(v) mpz_clear(v)
#define V_EVAL(v, f, x) sb_sfn_evalz((v), (f), (x))
#define V_ADD(r, a, b) mpz_add((r), (a), (b))
#define V_SET(r, a) mpz_set((r), (a))
#define V_CMP(a, b) mpz_cmp((a), (b))
#define V_TO_MPZ(z, v) mpz_set((z), (v))
#define SB_FN(name) name##_mpz
#else
#error "define SB_VAL_I64 or SB_VAL_MPZ before including dp_values.h"
#endif
