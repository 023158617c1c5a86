/*
 * Instantiations: norm for every p (NormOp, NormExtOp), float dtypes.
 * One translation unit per family keeps a clean build parallel
 * (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_NORM(T) rt::NormOp<T>
#define RT__OP_NORMEXT(T) rt::NormExtOp<T>
RT__KERNELS_NORM(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_NORM(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_NORM(RT__DEFINE_TINY_ENTRY)
RT__KERNELS_NORMEXT(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_NORMEXT(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_NORMEXT(RT__DEFINE_TINY_ENTRY)
