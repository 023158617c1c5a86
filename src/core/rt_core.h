/*
 * Helpers private to src/core: the structural checks and layout arithmetic
 * that rt_reduce_shape (shape.c) and the validator (validate.c) share.
 * Nothing outside src/core includes this file.
 */
#ifndef RT_CORE_H
#define RT_CORE_H

#include "rt_internal.h"

/* RT_ERR_BAD_NDIM unless 0 <= t->ndim <= RT_MAX_DIMS. t is not NULL. */
rt_status rt__tensor_check_ndim(const rt_tensor *t);

/* RT_ERR_BAD_SHAPE if an extent in [0, t->ndim) is negative. t->ndim must
   already be valid. */
rt_status rt__tensor_check_shape(const rt_tensor *t);

/*
 * Turns a dims list for an input of rank `ndim` into a mask (bit d: input
 * dim d is reduced). ndims == 0 selects every dim. Negative dims count from
 * the end; a 0-d input accepts 0 and -1 (as PyTorch does) and gives mask 0.
 * Every dim is range-checked before any duplicate is looked for, so an
 * out-of-range dim wins. Errors: RT_ERR_BAD_DIM, RT_ERR_DUPLICATE_DIM.
 * dims may be NULL only when ndims == 0; ndims must be >= 0.
 */
rt_status rt__dims_to_mask(int ndim, const int *dims, int ndims, uint32_t *mask);

/* The output shape of reducing the (valid) input over mask: reduced dims are
   dropped, or kept as extent 1 with keepdim. out_shape needs RT_MAX_DIMS
   entries. */
void rt__reduced_shape(const rt_tensor *in, uint32_t mask, bool keepdim, int *out_ndim,
                       int64_t *out_shape);

/*
 * The product of t's extents over the dims in `mask` (all dims: pass
 * UINT32_MAX). 0 if any of those extents is 0, even when the others alone
 * would overflow. Errors: RT_ERR_OVERFLOW. t must be structurally valid.
 */
rt_status rt__extent_product(const rt_tensor *t, uint32_t mask, int64_t *product);

/*
 * The lowest and highest element offsets (in elements, relative to data)
 * that t reaches; 0 and 0 for an empty tensor. Fails with RT_ERR_OVERFLOW
 * when an offset, or the byte span (hi - lo + 1) * element size, does not
 * fit int64, so callers may then do byte arithmetic freely.
 * t must be structurally valid (ndim, shape, dtype).
 */
rt_status rt__tensor_offsets(const rt_tensor *t, int64_t *lo, int64_t *hi);

/*
 * True when two different index tuples of t could address the same
 * element. A sufficient test, not an exact one: dims of extent > 1 sorted by
 * |stride| must each step past everything the smaller dims reach. Exotic
 * layouts that interleave without colliding (extents {3, 2}, strides
 * {2, 3}) are rejected too; no real tensor runtime produces them, and
 * include/reduce_tensor.h states the rule. t must have passed
 * rt__tensor_offsets.
 */
bool rt__tensor_self_overlaps(const rt_tensor *t);

/* The first and last byte t touches, as integers, with *present true; or
   *present false for an empty tensor or NULL data. Fails with
   RT_ERR_OVERFLOW when the range wraps around the address space (data
   plus the lowest offset below 0, or plus the highest past UINTPTR_MAX):
   no memory is there. t must be structurally valid. */
rt_status rt__tensor_byte_range(const rt_tensor *t, bool *present, uintptr_t *first,
                                uintptr_t *last);

#endif /* RT_CORE_H */
