/*
 * Instantiations: var and std (WelfordOp), float dtypes.
 * One translation unit per family keeps a clean build parallel
 * (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_WELFORD(T) rt::WelfordOp<T>
RT__KERNELS_WELFORD(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_WELFORD(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_WELFORD(RT__DEFINE_TINY_ENTRY)
