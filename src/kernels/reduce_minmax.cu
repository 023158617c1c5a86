/*
 * Instantiations: amin and amax without indices (MinMaxOp), every dtype.
 * One translation unit per family keeps a clean build parallel
 * (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_MIN(T) rt::MinMaxOp<T, false>
#define RT__OP_MAX(T) rt::MinMaxOp<T, true>
RT__KERNELS_MIN(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_MIN(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_MIN(RT__DEFINE_TINY_ENTRY)
RT__KERNELS_MAX(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_MAX(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_MAX(RT__DEFINE_TINY_ENTRY)
