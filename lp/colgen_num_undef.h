/* Undefine the number-type macros of lp/colgen_num.h and
 * lp/colgen_num_int.h, so that each can be included again for another type
 * (no include guard, on purpose). */
#undef NUM
#undef N_EXACT
#undef N_INIT
#undef N_CLEAR
#undef N_SET
#undef N_SETUI
#undef N_ZERO
#undef N_ADD
#undef N_SUB
#undef N_ADDUI
#undef N_MULUI
#undef N_MUL_Q
#undef N_CMP
#undef N_SWAP
#undef N_POS
#undef N_OUT
#undef N_AT
#undef N_REF
#undef SFX
