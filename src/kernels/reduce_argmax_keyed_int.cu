/*
 * Instantiations: the general kernel over keyed pieces (rt__index_map) for
 * argmax and max with indices, integer and bool dtypes (the float ones:
 * reduce_argmax_keyed.cu).
 */
#include "reduce_body.cuh"

#define RT__OP_ARGMAX(T) rt::ArgOp<T, true>
RT__INT_DTYPE_ROWS(RT__DEFINE_KEYED_ENTRY, argmax, ARGMAX)
