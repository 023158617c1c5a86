/*
 * Instantiations: the general kernel over keyed pieces (rt__index_map) for
 * argmin and min with indices, float dtypes: index-tracking reductions whose
 * reduced dims run in memory order, not logical order. Apart from
 * reduce_argmin.cu and from the integer and bool dtypes
 * (reduce_argmin_keyed_int.cu) so that they compile in parallel
 * (RT__FOR_EACH_KEYED_KERNEL in launch.h).
 */
#include "reduce_body.cuh"

#define RT__OP_ARGMIN(T) rt::ArgOp<T, false>
RT__FLOAT_DTYPE_ROWS(RT__DEFINE_KEYED_ENTRY, argmin, ARGMIN)
