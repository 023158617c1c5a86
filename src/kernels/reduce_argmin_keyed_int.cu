/*
 * Instantiations: the general kernel over keyed pieces (rt__index_map) for
 * argmin and min with indices, integer and bool dtypes (the float ones:
 * reduce_argmin_keyed.cu).
 */
#include "reduce_body.cuh"

#define RT__OP_ARGMIN(T) rt::ArgOp<T, false>
RT__INT_DTYPE_ROWS(RT__DEFINE_KEYED_ENTRY, argmin, ARGMIN)
