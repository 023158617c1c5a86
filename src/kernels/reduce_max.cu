/*
 * Instantiations: amax without indices (MinMaxOp), every dtype. Apart from
 * amin (reduce_min.cu) so that the two compile in parallel
 * (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_MAX(T) rt::MinMaxOp<T, true>
RT__KERNELS_MAX(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_MAX(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_MAX(RT__DEFINE_TINY_ENTRY)
