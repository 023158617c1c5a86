/*
 * Instantiations: norm for finite p (NormOp, p chosen at run time), float
 * dtypes. The infinite p (NormExtOp) are in reduce_normext.cu, so that the
 * two compile in parallel
 * (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_NORM(T) rt::NormOp<T>
RT__KERNELS_NORM(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_NORM(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_NORM(RT__DEFINE_TINY_ENTRY)
