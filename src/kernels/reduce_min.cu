/*
 * Instantiations: amin without indices (MinMaxOp), every dtype. Apart from
 * amax (reduce_max.cu) so that the two compile in parallel
 * (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_MIN(T) rt::MinMaxOp<T, false>
RT__KERNELS_MIN(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_MIN(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_MIN(RT__DEFINE_TINY_ENTRY)
