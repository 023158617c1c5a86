/*
 * Instantiations: norm for p = +inf and -inf (NormExtOp: max and min of
 * |x|), float dtypes. Apart from the finite p (reduce_norm.cu) so that the
 * two compile in parallel (RT__FOR_EACH_KERNEL in launch.h lists the rows).
 */
#include "reduce_rows.cuh"
#include "reduce_tiny.cuh"

#define RT__OP_NORMEXT(T) rt::NormExtOp<T>
RT__KERNELS_NORMEXT(RT__DEFINE_KERNEL_ENTRY)
RT__KERNELS_NORMEXT(RT__DEFINE_ROWS_ENTRY)
RT__KERNELS_NORMEXT(RT__DEFINE_TINY_ENTRY)
