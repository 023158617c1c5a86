/*
 * rt__iter_build: the iteration space of a validated problem. Separate from
 * iter.c because it reads the problem (and asks src/core which ops track an
 * index), while rt__iter_build_raw must link without src/core.
 */
#include "iter_build.h"

#include <string.h>

void rt__iter_build(const rt__problem *pb, bool index_by_memory, rt__iter *it) {
    rt__iter_source src;
    memset(&src, 0, sizeof src);
    src.ndim = pb->in.ndim;
    src.shape = pb->in.shape;
    src.strides[RT__ITER_OUT] = pb->out_full.strides;
    src.data[RT__ITER_OUT] = (char *)pb->out_full.data;
    src.elem_size[RT__ITER_OUT] = (int)rt_dtype_size(pb->out_full.dtype);
    src.strides[RT__ITER_IN] = pb->in.strides;
    src.data[RT__ITER_IN] = (char *)pb->in.data;
    src.elem_size[RT__ITER_IN] = (int)rt_dtype_size(pb->in.dtype);
    if (pb->has_indices) {
        src.strides[RT__ITER_IDX] = pb->idx_full.strides;
        src.data[RT__ITER_IDX] = (char *)pb->idx_full.data;
        src.elem_size[RT__ITER_IDX] = (int)rt_dtype_size(pb->idx_full.dtype);
    }
    src.reduce_mask = pb->reduce_mask;
    src.tracks_index = rt__op_tracks_index(pb->op, pb->has_indices);
    src.index_by_memory = index_by_memory;
    rt__iter_build_from(&src, it);
}
