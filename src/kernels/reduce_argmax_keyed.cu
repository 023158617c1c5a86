/*
 * Instantiations: the general kernel over keyed pieces (rt__index_map) for
 * argmax and max with indices, every dtype: index-tracking reductions whose reduced dims run in
 * memory order, not logical order. Apart from reduce_argmax.cu so that the
 * two compile in parallel (RT__FOR_EACH_KEYED_KERNEL in launch.h).
 */
#include "reduce_body.cuh"

#define RT__OP_ARGMAX(T) rt::ArgOp<T, true>
RT__KERNELS_ARGMAX(RT__DEFINE_KEYED_ENTRY)
