/*
 * Instantiations: norm with p = 2 (Norm2Op: NormOp with its kind fixed),
 * float dtypes. Its own translation unit, beside reduce_norm.cu, keeps a
 * clean build parallel (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_NORM2(T) rt::Norm2Op<T>
RT__KERNELS_NORM2(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_NORM2(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_NORM2(RT__DEFINE_TINY_ENTRY)
